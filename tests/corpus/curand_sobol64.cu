/* cuRAND's Sobol64 and scrambled Sobol64 in a kernel, as curand_sobol32.cu: direction
 * vectors and constants are made of two random words each; offsets past 2^32.
 * Written for lattice's corpus, not copied.
 * @source lattice (tests/corpus/curand_sobol64.cu)
 * @kernel curand_sobol64
 * @grid 2
 * @block 64
 * @arg in u32 16384 rand 0 4294967296
 * @arg in u32 256 rand 0 4294967296
 * @arg out u64 2560
 * @arg out f32 512
 * @arg out f64 512
 * @tol 1e-5
 */
#include <curand_kernel.h>

template <typename S>
__device__ void draws(S *s, unsigned long long *bits, float *f, double *d, int i, int half)
{
    unsigned long long *b = bits + 20 * i + 10 * half;
    for (int k = 0; k < 6; k++)
        b[k] = curand(s);
    skipahead(0x100000001ull * (unsigned long long)(i + 1), s);
    b[6] = curand(s);
    b[7] = __float_as_uint(curand_uniform(s));
    b[8] = (unsigned long long)__double_as_longlong(curand_uniform_double(s));
    b[9] = curand_poisson(s, 40.0);
    f[4 * i + 2 * half] = curand_normal(s);
    f[4 * i + 2 * half + 1] = curand_log_normal(s, 0.5f, 0.5f);
    d[4 * i + 2 * half] = curand_normal_double(s);
    d[4 * i + 2 * half + 1] = curand_log_normal_double(s, -0.5, 0.25);
}

extern "C" __global__ void curand_sobol64(const unsigned *w, const unsigned *cw,
                                          unsigned long long *bits, float *f, double *d)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    curandDirectionVectors64_t v;
    for (int k = 0; k < 64; k++)
        v[k] = (unsigned long long)w[128 * i + 2 * k] << 32 | w[128 * i + 2 * k + 1];
    unsigned long long c = (unsigned long long)cw[2 * i] << 32 | cw[2 * i + 1];
    curandStateSobol64_t s;
    curand_init(v, 0x123456789ull * (unsigned long long)i, &s);
    draws(&s, bits, f, d, i, 0);
    curandStateScrambledSobol64_t t;
    curand_init(v, c, (unsigned long long)i, &t);
    draws(&t, bits, f, d, i, 1);
}
