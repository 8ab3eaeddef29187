/* grid (1,1,1), block (1,1,1)
 * Bug H (class lneg; TinyCC 0.9.27, not the translator): ~ and unary - of a cast of a
 * logical result, ~(unsigned)(a && b) and -(unsigned)(a || b), are signed ints, so a
 * comparison with them is signed. x is in[0] = 0, y is in[1] = 1.
 *   expected (C, GPU): 0 1 0 0
 *   emulator (every executor): 1 0 1 1
 * expect: 0 1 0 0 */
#define K 4u
__global__ void k(unsigned *o, const unsigned *in, unsigned p0, unsigned p1)
{
    unsigned x = in[0], y = in[1];
    o[0] = (0 > ~(unsigned)(x && 1u));  /* 0 > 0xffffffff */
    o[1] = (0 < ~(unsigned)(x && 1u));
    o[2] = (0 > -(unsigned)(y || 0u));  /* 0 > 0xffffffff */
    o[3] = ((x < 1u) > ~(unsigned)(x && 1u));
}
