/* grid (1,1,1), block (32,1,1)
 * Bug E (class inner): a collective in parentheses in another collective's argument
 * stops region loops with an internal error; without the parentheses it works.
 *   expected (fibers, GPU): 4294967295 for every thread
 *   region loops:           LAT_ERROR_INTERNAL "diff.cu:9: __any_sync reached outside a
 *                           fiber kernel (a lattice bug)"
 * expect: 32*4294967295 */
#define K 1u
__global__ void k(unsigned *o, const unsigned *in, unsigned p0, unsigned p1)
{
    o[threadIdx.x] = __ballot_sync(0xffffffffu, (__any_sync(0xffffffffu, 1)));
}
