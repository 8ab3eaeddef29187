/* cuRAND's Sobol32 and scrambled Sobol32 in a kernel: curand_init with direction vectors,
 * a scramble constant and an offset, skipahead, and the distributions, for GPU truth. The
 * direction vectors are random words (the algorithm takes any). Raw values and uniforms
 * as bits (exact); normals through erfcinvf as floats (within @tol).
 * Written for lattice's corpus, not copied.
 * @source lattice (tests/corpus/curand_sobol32.cu)
 * @kernel curand_sobol32
 * @grid 2
 * @block 64
 * @arg in u32 4096 rand 0 4294967296
 * @arg in u32 128 rand 0 4294967296
 * @arg out u32 2560
 * @arg out u64 256
 * @arg out f32 512
 * @arg out f64 512
 * @tol 1e-5
 */
#include <curand_kernel.h>

template <typename S>
__device__ void draws(S *s, unsigned *bits, unsigned long long *dbits, float *f, double *d,
                      int i, int half)
{
    unsigned *b = bits + 20 * i + 10 * half;
    for (int k = 0; k < 6; k++)
        b[k] = curand(s);
    skipahead(12345u + (unsigned)i * 7919u, s);
    b[6] = curand(s);
    b[7] = __float_as_uint(curand_uniform(s));
    b[8] = curand_poisson(s, 3.5);
    b[9] = curand_poisson(s, 2500.0);
    dbits[2 * i + half] = (unsigned long long)__double_as_longlong(curand_uniform_double(s));
    f[4 * i + 2 * half] = curand_normal(s);
    f[4 * i + 2 * half + 1] = curand_log_normal(s, 0.5f, 0.5f);
    d[4 * i + 2 * half] = curand_normal_double(s);
    d[4 * i + 2 * half + 1] = curand_log_normal_double(s, -0.5, 0.25);
}

extern "C" __global__ void curand_sobol32(const unsigned *v, const unsigned *c, unsigned *bits,
                                          unsigned long long *dbits, float *f, double *d)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    curandDirectionVectors32_t *dv = (curandDirectionVectors32_t *)v;
    curandStateSobol32_t s;
    curand_init(dv[i], (unsigned)i * 101u, &s);
    draws(&s, bits, dbits, f, d, i, 0);
    curandStateScrambledSobol32_t t;
    curand_init(dv[i], c[i], 4000000000u + (unsigned)i, &t); /* past 2^31 and wrapping */
    draws(&t, bits, dbits, f, d, i, 1);
}
