/* grid (1,1,1), block (96,1,1)
 * Bug F (class cond): a warp vote as an if's condition is taken as true for every thread
 * in region loops. Only the third warp has all its lanes >= 48.
 *   expected (fibers, GPU): 0 for threads 0..63, 1 for 64..95
 *   region loops:           1 for every thread
 * expect: 64*0 32*1 */
#define K 1u
__global__ void k(unsigned *o, const unsigned *in, unsigned p0, unsigned p1)
{
    int tx = threadIdx.x;
    o[tx] = 0;
    if (__all_sync(0xffffffff, tx >= 48))
        o[tx] = 1;
}
