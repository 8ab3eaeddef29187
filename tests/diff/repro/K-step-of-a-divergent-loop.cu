/* grid (1,1,1), block (33,1,1)
 * Bug K (class cond, found after the front end landed): a for loop with a warp operation
 * in its condition runs per thread, but its counter, set and stepped alike in every
 * thread, was kept as one variable for the block: each thread's step added to it, so the
 * loop ran once instead of twice.
 *   expected (fibers, GPU): 32 for every thread ((0 * 31 + 1) * 31 + 1)
 *   region loops:           1
 * expect: 33*32 */
#define K 1u
__global__ void k(unsigned *o, const unsigned *in, unsigned p0, unsigned p1)
{
    unsigned m = threadIdx.x < 32u ? 0xffffffffu : 1u;
    o[threadIdx.x] = 0u;
    for (unsigned i = 0u; i < __shfl_sync(m, p0, 0u) % 5u; i += 2u)
        o[threadIdx.x] = o[threadIdx.x] * 31u + 1u;
}
