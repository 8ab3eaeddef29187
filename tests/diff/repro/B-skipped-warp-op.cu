/* grid (1,1,1), block (64,1,1)
 * Bug B (class masked): a warp operation in a branch the warp skips, under a condition
 * that is warp-uniform (or uniform but not visibly so), corrupts the value of the warp
 * operation before it: lane t of a skipping warp sees only lanes t..31.
 *   expected (fibers, GPU): 4294967295 for every thread
 *   region loops:           threads 32..63 get 0xffffffff << (t - 32): o[33] = 4294967294
 * The same with if (in[0] == 1u), a loop that runs no iteration, __match_any_sync...
 * expect: 64*4294967295 */
#define K 1u
__global__ void k(unsigned *o, const unsigned *in, unsigned p0, unsigned p1)
{
    unsigned v = __ballot_sync(0xffffffffu, 1);
    if (threadIdx.x < 32u)
        __syncwarp(0xffffffffu);
    o[threadIdx.x] = v;
}
