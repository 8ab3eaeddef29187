/* grid (1,1,1), block (32,1,1)
 * Bug L (every class, checked runs only; TinyCC 0.9.27): the checks' access macro typed
 * the access itself (__typeof__, sizeof), so an index holding (a || 0) && 0 met bug J:
 * the load read the wrong element.
 *   expected (C, GPU, unchecked): 5 for every thread
 * expect: 32*5 */
#define K 1u
__global__ void k(unsigned *o, const unsigned *in, unsigned p0, unsigned p1)
{
    unsigned t = threadIdx.x;
    o[t] = in[((t || 0u) && 0u) % 64u + 5u];
}
