/* grid (1,1,1), block (1,1,1)
 * Bug M (class switch, hcoll): a switch holding a warp operation becomes if statements for
 * region loops (passes/inline.c); a case with a break inside it (here never taken) and a
 * break at its end went on into the next case as if it fell through: case 0 ran, then the
 * case after it.
 *   expected (fibers, GPU): 0
 *   region loops:           32 (o = 1 * 31 + 1 twice: case 0 went on into default)
 * expect: 1*0 */
#define K 1u
__global__ void k(unsigned *o, const unsigned *in, unsigned p0, unsigned p1)
{
    switch (in[0] % 2u) {
    case 0: {
        if (in[0] == 1u) {
            break;
        }
    } break;
    default: {
        unsigned c = 0u;
        while (c++ < 2u) {
            switch (in[0] % 3u) {
            case 0: {
            } /* falls through */
            case 1: {
                o[threadIdx.x] = o[threadIdx.x] * 31u + 1u;
            } break;
            default: {
            } break;
            }
            unsigned v = __shfl_up_sync(1u, 0u, 0u);
            o[threadIdx.x] += v;
        }
    } break;
    }
}
