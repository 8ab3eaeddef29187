/* grid (1,1,1), block (33,1,1)
 * Bug J (class masked; TinyCC 0.9.27, not the translator): an expression TinyCC only
 * types (sizeof, __typeof__, the _Generic of the prelude's max) holding (a && 1) || b
 * corrupts the code around it: h returned garbage.
 *   expected (C, GPU): 7 for every thread
 *   emulator (every executor): a different large number per executor
 * expect: 33*7 */
#define K 1u
__device__ unsigned h(unsigned x4, unsigned x5)
{
    if (max(((x5 && 1u) || 1u), 1u)) {
    }
    return 7u;
}
__global__ void k(unsigned *o, const unsigned *in, unsigned p0, unsigned p1)
{
    o[threadIdx.x] = h(0u, in[0]);
}
