/* grid (1,1,1), block (32,1,1)
 * Bug F (class cond), with a barrier: __syncthreads_count in an if's condition. The count
 * is 4, so no thread stores 1. Kept in a variable first, it works.
 *   expected (fibers, GPU): 0 for every thread
 *   region loops:           1 for every thread
 * expect: 32*0 */
#define K 1u
__global__ void k(unsigned *o, const unsigned *in, unsigned p0, unsigned p1)
{
    o[threadIdx.x] = 0u;
    if (__syncthreads_count(threadIdx.x < 4u) > 8)
        o[threadIdx.x] = 1u;
}
