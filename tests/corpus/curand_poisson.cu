/* cuRAND's curand_poisson and curand_poisson4 in a kernel, for GPU truth: XORWOW, Philox and
 * MRG32k3a through each of cuRAND's methods (Knuth's below lambda 64, the gammainc
 * rejection from 64 to 4000, the normal approximation above), each thread its own
 * subsequence. Knuth's draws go through expf; the gammainc rejection through the GPU's
 * approximate exp2, log2, rsqrt and reciprocal instructions, which the emulator evaluates
 * exactly: a draw near a boundary may differ there (and the rest of that thread's draws).
 * Written for lattice's corpus, not copied.
 * @source lattice (tests/corpus/curand_poisson.cu)
 * @kernel curand_poisson_draws
 * @grid 2
 * @block 64
 * @arg out u32 12288
 */
#include <curand_kernel.h>

__constant__ double lambdas[8] = {0.25, 4.5, 63.9, 64.0, 150.0, 3999.0, 4001.5, 123456.0};

template <typename S>
__device__ void draws(S *s, unsigned *o)
{
    for (int l = 0; l < 8; l++)
        for (int k = 0; k < 4; k++)
            o[4 * l + k] = curand_poisson(s, lambdas[l]);
}

extern "C" __global__ void curand_poisson_draws(unsigned *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned *o = out + 96 * i;
    curandState x;
    curand_init(2024ull, (unsigned long long)i, 0ull, &x);
    draws(&x, o);
    curandStatePhilox4_32_10_t p;
    curand_init(2024ull, (unsigned long long)i, 0ull, &p);
    for (int l = 0; l < 8; l++) {
        uint4 r = curand_poisson4(&p, lambdas[l]);
        o[32 + 4 * l] = r.x;
        o[33 + 4 * l] = r.y;
        o[34 + 4 * l] = r.z;
        o[35 + 4 * l] = r.w;
    }
    curandStateMRG32k3a_t m;
    curand_init(2024ull, (unsigned long long)i, 0ull, &m);
    draws(&m, o + 64);
}
