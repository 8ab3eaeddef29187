/* Fails to compile on line 6: the line must come back in lat_last_error(). */
__global__ void broken(float *x)
{
    int i = threadIdx.x;
    x[i] = 1.0f;
    x[i] += not_declared_anywhere;
}
