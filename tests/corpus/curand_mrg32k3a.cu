/* cuRAND's MRG32k3a in a kernel: curand_init over subsequences and offsets, skipahead,
 * skipahead_subsequence and skipahead_sequence, and every distribution, for GPU truth.
 * Raw values and uniforms are written as their bits (exact); normals and log-normals as
 * floats (within @tol: __sincosf, logf and expf differ in the last places).
 * Written for lattice's corpus, not copied.
 * @source lattice (tests/corpus/curand_mrg32k3a.cu)
 * @kernel curand_mrg32k3a
 * @grid 2
 * @block 64
 * @arg out u32 1536
 * @arg out u64 512
 * @arg out f32 768
 * @arg out f64 768
 * @arg val u64 1234567890123
 * @tol 1e-4
 */
#include <curand_kernel.h>

extern "C" __global__ void curand_mrg32k3a(unsigned *bits, unsigned long long *dbits, float *f,
                                           double *d, unsigned long long seed)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    curandStateMRG32k3a_t s, t;
    /* subsequences far apart (below 2^51, the count cuRAND's table of jumps documents) and
     * offsets of every size */
    unsigned long long sub = ((unsigned long long)i * 0x9E3779B97F4Aull >> (i % 13)) & ((1ull << 51) - 1);
    curand_init(seed + (unsigned long long)(i % 3), sub, (unsigned long long)i * i * 977u, &s);
    for (int k = 0; k < 6; k++)
        bits[12 * i + k] = curand(&s);
    t = s;
    skipahead(1000003ull * i, &t);
    bits[12 * i + 6] = curand(&t);
    skipahead_subsequence((unsigned long long)i, &t);
    bits[12 * i + 7] = curand(&t);
    skipahead_sequence((unsigned long long)i + 1, &t);
    bits[12 * i + 8] = curand(&t);
    curand_init(0ull, 0ull, (unsigned long long)i, &t); /* the published seed */
    bits[12 * i + 9] = curand(&t);
    float u = curand_uniform(&s);
    bits[12 * i + 10] = __float_as_uint(u);
    bits[12 * i + 11] = __float_as_uint(curand_uniform(&s));
    dbits[4 * i] = (unsigned long long)__double_as_longlong(curand_uniform_double(&s));
    dbits[4 * i + 1] = (unsigned long long)__double_as_longlong(curand_uniform_double(&s));
    dbits[4 * i + 2] = (unsigned long long)__double_as_longlong(curand_MRG32k3a(&s));
    dbits[4 * i + 3] = (unsigned long long)__double_as_longlong(curand_MRG32k3a(&s));
    f[6 * i] = curand_normal(&s);
    f[6 * i + 1] = curand_normal(&s);
    float2 n2 = curand_normal2(&s);
    f[6 * i + 2] = n2.x;
    f[6 * i + 3] = n2.y;
    f[6 * i + 4] = curand_log_normal(&s, 0.5f, 0.75f);
    float2 l2 = curand_log_normal2(&s, -1.0f, 0.5f);
    f[6 * i + 5] = l2.x + l2.y;
    d[6 * i] = curand_normal_double(&s);
    d[6 * i + 1] = curand_normal_double(&s);
    double2 m2 = curand_normal2_double(&s);
    d[6 * i + 2] = m2.x;
    d[6 * i + 3] = m2.y;
    d[6 * i + 4] = curand_log_normal_double(&s, 0.25, 1.5);
    double2 e2 = curand_log_normal2_double(&s, 1.0, 0.25);
    d[6 * i + 5] = e2.x - e2.y;
}
