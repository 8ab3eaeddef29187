/* grid (1,1,1), block (32,1,1)
 * Bug G (class wret): a thread that returns in the stretch after a warp operation (no
 * __syncthreads between) is missing from that operation's value for the lanes after it.
 *   expected (fibers, GPU): 4294967295 for every thread
 *   region loops:           4294967167 (bit 7 clear) for threads 8..31
 * A uniform return (if (p0 == 3u) return;) loses every lane below the reader's.
 * expect: 32*4294967295 */
#define K 1u
__global__ void k(unsigned *o, const unsigned *in, unsigned p0, unsigned p1)
{
    o[threadIdx.x] = __ballot_sync(0xffffffffu, 1);
    if (threadIdx.x == 7u)
        return;
}
