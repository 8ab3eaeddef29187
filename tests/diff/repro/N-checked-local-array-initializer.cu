/* grid (1,1,1), block (1,1,1)
 * Bug N (class local, checked): a local array with an initializer, kept across a barrier in
 * region loops, is copied into its per-thread storage with memcpy; checked code defines
 * memcpy as a macro of five arguments (its checked device-side memcpy), so the checked
 * module failed to compile: "macro 'memcpy' used with too few args".
 *   expected (every executor): 0
 * expect: 1*0 */
#define K 1u
__global__ void k(unsigned *o, const unsigned *in, unsigned p0, unsigned p1)
{
    __shared__ unsigned sh[1];
    sh[threadIdx.x] = 0u;
    __syncthreads();
    unsigned a5[4] = {0u, 0u, 0u, 0u};
    __syncthreads();
    unsigned a12[4] = {0u, 0u, 0u, a5[0]};
    o[threadIdx.x] = a12[3] + sh[0];
}
