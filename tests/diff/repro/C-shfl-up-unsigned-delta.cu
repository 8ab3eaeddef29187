/* grid (1,1,1), block (32,1,1)
 * Bug C (class shflup): __shfl_up_sync with a bare unsigned delta (a constant 3u, a
 * parameter, a variable; CUDA declares delta unsigned) crashes region loops; 3, (3u) and
 * (p0) & 31u work.
 *   expected (fibers, GPU): 0 1 2 0 1 2 3 4 ... 28
 *   region loops:           launch failed: segmentation fault at address 0x0
 * expect: 0 1 2 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 */
#define K 1u
__global__ void k(unsigned *o, const unsigned *in, unsigned p0, unsigned p1)
{
    o[threadIdx.x] = __shfl_up_sync(0xffffffffu, threadIdx.x, 3u);
}
