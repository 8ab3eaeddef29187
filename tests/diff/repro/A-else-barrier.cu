/* grid (1,1,1), block (4,1,1)
 * Bug A (class masked): an else branch that starts with a barrier, under a condition the
 * translator cannot see is uniform (in[0], the same for every thread), makes region loops
 * run the then branch too. in[0] is 0: every thread takes the else branch.
 *   expected (fibers, GPU): 2 2 2 2
 *   region loops:           3 3 3 3
 * (Also with a warp operation first in the else branch, under a warp-uniform condition.)
 * expect: 4*2 */
#define K 1u
__global__ void k(unsigned *o, const unsigned *in, unsigned p0, unsigned p1)
{
    if (in[0] == 1u) {
        o[threadIdx.x] = 1u;
    } else {
        __syncthreads();
        o[threadIdx.x] += 2u;
    }
}
