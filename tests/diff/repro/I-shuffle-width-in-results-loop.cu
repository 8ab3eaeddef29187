/* grid (1,1,1), block (64,1,1)
 * Bug I (class wret, found after the front end landed): a shuffle whose results are
 * gathered in a loop of their own (the stretch after it can make a thread leave) read its
 * source slot as the lane offset twice, so threads of the second warp read the first's.
 *   expected (fibers, GPU): t & ~3 for thread t (the first lane of its group of 4)
 *   region loops:           0 for threads 32..63
 * expect: 4*0 4*4 4*8 4*12 4*16 4*20 4*24 4*28 4*32 4*36 4*40 4*44 4*48 4*52 4*56 4*60 */
#define K 1u
__global__ void k(unsigned *o, const unsigned *in, unsigned p0, unsigned p1)
{
    __shared__ unsigned sh[64];
    unsigned t = threadIdx.x;
    sh[t] = t;
    __syncthreads();
    o[t] = __shfl_sync(0xffffffffu, sh[t], 0u, 4);
    for (unsigned c = 0u; c < p0; c++)
        if (in[c] > 99u)
            return;
}
