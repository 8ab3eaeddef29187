/* Fails to compile on line 4, inside a header. */
__device__ float helper(float x)
{
    return x * also_not_declared;
}
