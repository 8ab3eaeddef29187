/* grid (1,1,1), block (4,1,1)
 * Bug D (no class: the generator works around it): a file-scope __shared__ declaration
 * right after a preprocessor directive is refused, on every emulator path.
 *   expected (GPU): 3 2 1 0
 *   emulator:       LAT_ERROR_UNSUPPORTED "'__shared__' is not supported by the lattice
 *                   emulator yet (a __shared__ declaration anywhere but at the start of a
 *                   declaration of its own...)"
 * expect: 3 2 1 0 */
#define K 1u
__shared__ unsigned s[4];
__global__ void k(unsigned *o, const unsigned *in, unsigned p0, unsigned p1)
{
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    o[threadIdx.x] = s[3 - threadIdx.x];
}
