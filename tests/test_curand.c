/* curand_kernel.h in kernels: XORWOW (curandState) and Philox4x32-10 against host
 * replicas of the generators (stepped one value at a time, so the emulator's jumps are
 * checked against plain stepping), subsequences against values read on an H100 (CUDA 13),
 * and the distributions against their formulas over the raw values. */
#include "harness.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>

static const char src[] =
    "#include <curand_kernel.h>\n"
    "extern \"C\" __global__ void xorwow(unsigned int *out, unsigned long long seed, int per,\n"
    "                       int offset_step, int sequence_step)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    curandState s;\n"
    "    curand_init(seed, (unsigned long long)i * sequence_step,\n"
    "                (unsigned long long)i * offset_step, &s);\n"
    "    for (int k = 0; k < per; k++)\n"
    "        out[i * per + k] = curand(&s);\n"
    "}\n"
    "extern \"C\" __global__ void xorwow_sequences(unsigned int *out,\n"
    "                                              const unsigned long long *seq, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i >= n)\n"
    "        return;\n"
    "    curandState s, t;\n"
    "    curand_init(1234ull, seq[i], 0ull, &s);\n"
    "    out[3 * i] = curand(&s);\n"
    "    out[3 * i + 1] = curand(&s);\n"
    "    /* the same place reached by skipping */\n"
    "    curand_init(1234ull, 0ull, 0ull, &t);\n"
    "    skipahead_sequence(seq[i], &t);\n"
    "    skipahead(1ull, &t);\n"
    "    out[3 * i + 2] = curand(&t);\n"
    "}\n"
    "extern \"C\" __global__ void philox(unsigned int *out, unsigned long long seed, int per,\n"
    "                      int offset_step, int sequence_step)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    curandStatePhilox4_32_10_t s;\n"
    "    curand_init(seed, (unsigned long long)i * sequence_step,\n"
    "                (unsigned long long)i * offset_step, &s);\n"
    "    for (int k = 0; k < per; k += 4) {\n"
    "        if (i & 1) {\n"
    "            uint4 v = curand4(&s);\n"
    "            out[i * per + k] = v.x; out[i * per + k + 1] = v.y;\n"
    "            out[i * per + k + 2] = v.z; out[i * per + k + 3] = v.w;\n"
    "        } else {\n"
    "            for (int j = 0; j < 4; j++)\n"
    "                out[i * per + k + j] = curand(&s);\n"
    "        }\n"
    "    }\n"
    "}\n"
    /* Each distribution beside the raw values it consumed: a twin state gives them. */
    "template <typename S>\n"
    "__device__ void dists(S *s, S *twin, unsigned int *raw, float *u, float *nrm,\n"
    "                      double *ud, double *nd, int i)\n"
    "{\n"
    "    u[i] = curand_uniform(s);\n"
    "    nrm[2 * i] = curand_normal(s);\n"
    "    nrm[2 * i + 1] = curand_normal(s);\n"
    "    ud[i] = curand_uniform_double(s);\n"
    "    nd[2 * i] = curand_normal_double(s);\n"
    "    nd[2 * i + 1] = curand_normal_double(s);\n"
    "    for (int k = 0; k < 9; k++)\n"
    "        raw[9 * i + k] = curand(twin);\n"
    "}\n"
    /* log-normal draws beside the normal pairs a twin state gives */
    "template <typename S>\n"
    "__device__ void logs(S *s, S *t, float *ln, float *n, double *lnd, double *nd, int i)\n"
    "{\n"
    "    ln[2 * i] = curand_log_normal(s, 0.5f, 0.25f);\n"
    "    ln[2 * i + 1] = curand_log_normal(s, 0.5f, 0.25f);\n"
    "    lnd[2 * i] = curand_log_normal_double(s, -1.0, 2.0);\n"
    "    lnd[2 * i + 1] = curand_log_normal_double(s, -1.0, 2.0);\n"
    "    float2 a = curand_normal2(t);\n"
    "    double2 b = curand_normal2_double(t);\n"
    "    n[2 * i] = a.x; n[2 * i + 1] = a.y; nd[2 * i] = b.x; nd[2 * i + 1] = b.y;\n"
    "}\n"
    "extern \"C\" __global__ void log_normals(float *ln, float *n, double *lnd, double *nd,\n"
    "                                        int philox)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (philox) {\n"
    "        curandStatePhilox4_32_10_t s, t;\n"
    "        curand_init(5ull, i, 7ull, &s);\n"
    "        curand_init(5ull, i, 7ull, &t);\n"
    "        logs(&s, &t, ln, n, lnd, nd, i);\n"
    "    } else {\n"
    "        curandState s, t;\n"
    "        curand_init(5ull, i, 7ull, &s);\n"
    "        curand_init(5ull, i, 7ull, &t);\n"
    "        logs(&s, &t, ln, n, lnd, nd, i);\n"
    "    }\n"
    "}\n"
    "extern \"C\" __global__ void distributions(unsigned int *raw, float *u, float *nrm,\n"
    "                                          double *ud, double *nd, int philox)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (philox) {\n"
    "        curandStatePhilox4_32_10_t s, t;\n"
    "        curand_init(99ull, i, 0ull, &s);\n"
    "        curand_init(99ull, i, 0ull, &t);\n"
    "        dists(&s, &t, raw, u, nrm, ud, nd, i);\n"
    "    } else {\n"
    "        curandState s, t;\n"
    "        curand_init(99ull, i, 0ull, &s);\n"
    "        curand_init(99ull, i, 0ull, &t);\n"
    "        dists(&s, &t, raw, u, nrm, ud, nd, i);\n"
    "    }\n"
    "}\n";

/* ---- host replicas ----------------------------------------------------------------------- */

typedef struct xorwow_state {
    uint32_t d, v[5];
} xorwow_state;

static void xorwow_init(xorwow_state *s, uint64_t seed)
{
    uint32_t t0 = 1099087573u * ((uint32_t)seed ^ 0xaad26b49u);
    uint32_t t1 = 2591861531u * ((uint32_t)(seed >> 32) ^ 0xf7dcefddu);
    *s = (xorwow_state){.d = 6615241u + t1 + t0,
                        .v = {123456789u + t0, 362436069u ^ t0, 521288629u + t1,
                              88675123u ^ t1, 5783321u + t0}};
}

static uint32_t xorwow_next(xorwow_state *s)
{
    uint32_t t = s->v[0] ^ (s->v[0] >> 2);
    memmove(s->v, s->v + 1, 4 * sizeof s->v[0]);
    s->v[4] = (s->v[4] ^ (s->v[4] << 4)) ^ (t ^ (t << 1));
    s->d += 362437u;
    return s->v[4] + s->d;
}

static void philox_block(const uint32_t ctr[4], uint64_t seed, uint32_t out[4])
{
    uint32_t c[4] = {ctr[0], ctr[1], ctr[2], ctr[3]}, k0 = (uint32_t)seed,
             k1 = (uint32_t)(seed >> 32);
    for (int r = 0; r < 10; r++) {
        uint64_t p0 = (uint64_t)0xD2511F53u * c[0], p1 = (uint64_t)0xCD9E8D57u * c[2];
        uint32_t n[4] = {(uint32_t)(p1 >> 32) ^ c[1] ^ k0, (uint32_t)p1,
                         (uint32_t)(p0 >> 32) ^ c[3] ^ k1, (uint32_t)p0};
        memcpy(c, n, sizeof c);
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
    memcpy(out, c, sizeof c);
}

/* Value number `index` of Philox subsequence `sequence`: block index / 4 of the counter
 * whose high half is the subsequence, word index % 4. */
static uint32_t philox_value(uint64_t seed, uint64_t sequence, uint64_t index)
{
    uint64_t b = index / 4;
    uint32_t ctr[4] = {(uint32_t)b, (uint32_t)(b >> 32), (uint32_t)sequence,
                       (uint32_t)(sequence >> 32)}, out[4];
    philox_block(ctr, seed, out);
    return out[index % 4];
}

/* ---- the cases ----------------------------------------------------------------------------- */

enum { THREADS = 256 };

/* Kernel `name` of `source`, compiled as written under the source's own file name: every
 * case that takes a kernel of one source then shares one compile through the process's
 * compile cache (NVRTC takes seconds over curand_kernel.h; each kernel's own name made
 * each a compile of its own, and the cuda suite ran past its timeout). */
static lat_kernel *kernel(lat_context *ctx, const char *source, const char *file, const char *name)
{
    lat_module *m;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = source, .name = file, .no_extern_c = 1}, &m));
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(m, name, &k));
    return k;
}

TEST(xorwow_offsets_give_the_values_stepping_gives)
{
    lat_context *ctx = t_context();
    lat_kernel *k = kernel(ctx, src, "generators.cu", "xorwow");
    enum { PER = 5, STEP = 37 };
    uint64_t seed = ((uint64_t)t_rand_u32() << 32) | t_rand_u32();
    uint32_t *out = t_calloc(THREADS * PER, sizeof *out);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {THREADS}},
                              LAT_ARGS(lat_arg_out(out, THREADS * PER * sizeof *out),
                                       lat_arg_u64(seed), lat_arg_i32(PER), lat_arg_i32(STEP),
                                       lat_arg_i32(0))));
    for (int i = 0; i < THREADS; i++) {
        xorwow_state s;
        xorwow_init(&s, seed);
        for (int k2 = 0; k2 < i * STEP; k2++)
            xorwow_next(&s);
        for (int k2 = 0; k2 < PER; k2++) {
            uint32_t want = xorwow_next(&s);
            ASSERT_MSG(out[i * PER + k2] == want,
                       "seed %#llx offset %d value %d: %u, stepping gives %u",
                       (unsigned long long)seed, i * STEP, k2, out[i * PER + k2], want);
        }
    }
}

/* A subsequence is 2^67 values: too many to step on the host; these are an H100's. */
TEST(xorwow_subsequences_are_the_gpus)
{
    lat_context *ctx = t_context();
    lat_kernel *k = kernel(ctx, src, "generators.cu", "xorwow_sequences");
    static const unsigned long long seq[] = {0,         1,           2,   3,    5,
                                             1000,      65535,       1ull << 32, 1ull << 40,
                                             123456789, ~0ull >> 1,  ~0ull};
    enum { N = sizeof seq / sizeof seq[0] };
    static const uint32_t want[N][2] = {
        {624778773u, 1867875844u},  {3522650202u, 3978931785u}, {2363946744u, 3486847504u},
        {1266286439u, 1325236058u}, {3732235839u, 2152834071u}, {2413296003u, 2081105670u},
        {4077923189u, 3746579857u}, {3737888903u, 2449879379u}, {3198364302u, 1754633269u},
        {1212088581u, 2953277998u}, {2949617805u, 3771655902u}, {510532045u, 4013680108u},
    };
    uint32_t out[3 * N];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {32}},
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_in(seq, sizeof seq),
                                       lat_arg_i32(N))));
    bool same = true;
    for (int i = 0; i < N; i++)
        same = same && out[3 * i] == want[i][0] && out[3 * i + 1] == want[i][1];
    if (!same) /* all of them, as the table above is written */
        for (int i = 0; i < N; i++)
            fprintf(stderr, "    {%uu, %uu}, /* %llu */\n", out[3 * i], out[3 * i + 1], seq[i]);
    for (int i = 0; i < N; i++) {
        ASSERT_MSG(out[3 * i] == want[i][0] && out[3 * i + 1] == want[i][1],
                   "subsequence %llu: {%uu, %uu}, the GPU's {%uu, %uu}", seq[i], out[3 * i],
                   out[3 * i + 1], want[i][0], want[i][1]);
        ASSERT_MSG(out[3 * i + 2] == out[3 * i + 1],
                   "subsequence %llu by skipahead_sequence: %u, by curand_init: %u", seq[i],
                   out[3 * i + 2], out[3 * i + 1]);
    }
}

TEST(philox_values_are_the_counters_blocks)
{
    lat_context *ctx = t_context();
    lat_kernel *k = kernel(ctx, src, "generators.cu", "philox");
    enum { PER = 12 };
    static const struct {
        int offset_step, sequence_step;
    } runs[] = {{0, 1}, {1, 0}, {5, 3}, {7, 1 << 20}};
    uint32_t *out = t_calloc(THREADS * PER, sizeof *out);
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        uint64_t seed = ((uint64_t)t_rand_u32() << 32) | t_rand_u32();
        ASSERT_OK(lat_launch_args(
            k, &(lat_launch_desc){.grid = {1}, .block = {THREADS}},
            LAT_ARGS(lat_arg_out(out, THREADS * PER * sizeof *out), lat_arg_u64(seed),
                     lat_arg_i32(PER), lat_arg_i32(runs[r].offset_step),
                     lat_arg_i32(runs[r].sequence_step))));
        for (int i = 0; i < THREADS; i++)
            for (int j = 0; j < PER; j++) {
                uint64_t sequence = (uint64_t)i * (uint64_t)runs[r].sequence_step;
                uint64_t index = (uint64_t)i * (uint64_t)runs[r].offset_step + (uint64_t)j;
                uint32_t want = philox_value(seed, sequence, index);
                ASSERT_MSG(out[i * PER + j] == want,
                           "run %zu thread %d value %d (subsequence %llu, index %llu): %u, "
                           "the counter's block gives %u",
                           r, i, j, (unsigned long long)sequence, (unsigned long long)index,
                           out[i * PER + j], want);
            }
    }
}

/* uniform: x 2^-32 + 2^-33 in one rounding (nvcc contracts it), for both generators;
 * normal: Box-Muller over a pair, within __sincosf's error; doubles: 53 bits of a pair. */
TEST(distributions_are_their_formulas_over_the_raw_values)
{
    lat_context *ctx = t_context();
    lat_kernel *k = kernel(ctx, src, "generators.cu", "distributions");
    uint32_t *raw = t_calloc(THREADS * 9, sizeof *raw);
    float u[THREADS], nrm[2 * THREADS];
    double ud[THREADS], nd[2 * THREADS];
    const float inv = 2.3283064e-10f;
    const double inv53 = 1.1102230246251565e-16;
    for (int philox = 0; philox < 2; philox++) {
        ASSERT_OK(lat_launch_args(
            k, &(lat_launch_desc){.grid = {1}, .block = {THREADS}},
            LAT_ARGS(lat_arg_out(raw, THREADS * 9 * sizeof *raw), lat_arg_out(u, sizeof u),
                     lat_arg_out(nrm, sizeof nrm), lat_arg_out(ud, sizeof ud),
                     lat_arg_out(nd, sizeof nd), lat_arg_i32(philox))));
        double sum = 0, sq = 0;
        for (int i = 0; i < THREADS; i++) {
            const uint32_t *r = raw + 9 * i;
            float wu = fmaf((float)r[0], inv, inv / 2.0f);
            ASSERT_MSG(memcmp(&u[i], &wu, sizeof wu) == 0, "%s thread %d: uniform %.9g, want %.9g",
                       philox ? "philox" : "xorwow", i, u[i], wu);
            double fu = (double)fmaf((float)r[1], inv, inv / 2);
            double fv = (double)r[2] * inv * 6.2831855;
            double s = sqrt(-2.0 * log(fu));
            double w0 = s * sin(fv), w1 = s * cos(fv);
            ASSERT_MSG(fabs(nrm[2 * i] - w0) <= 2e-5 * (1 + fabs(w0)) &&
                           fabs(nrm[2 * i + 1] - w1) <= 2e-5 * (1 + fabs(w1)),
                       "%s thread %d: normals %.7g %.7g, want %.7g %.7g",
                       philox ? "philox" : "xorwow", i, nrm[2 * i], nrm[2 * i + 1], w0, w1);
            /* XORWOW's takes 53 bits of two values, Philox's 32 of one (as CUDA's) */
            uint64_t z = (uint64_t)r[3] ^ ((uint64_t)r[4] << 21);
            double wud =
                philox ? (double)r[3] * 0x1p-32 + 0x1p-32 : (double)z * inv53 + inv53 / 2.0;
            ASSERT_MSG(ud[i] == wud, "%s thread %d: uniform double %.17g, want %.17g",
                       philox ? "philox" : "xorwow", i, ud[i], wud);
            r += philox ? 4 : 5;
            uint64_t zx = (uint64_t)r[0] ^ ((uint64_t)r[1] << 21),
                     zy = (uint64_t)r[2] ^ ((uint64_t)r[3] << 21);
            double du = (double)zx * inv53 + inv53 / 2.0, dv = (double)zy * (inv53 * 2.0) + inv53;
            double ds = sqrt(-2.0 * log(du));
            double d0 = ds * sin(dv * M_PI), d1 = ds * cos(dv * M_PI);
            ASSERT_MSG(fabs(nd[2 * i] - d0) <= 1e-13 * (1 + fabs(d0)) &&
                           fabs(nd[2 * i + 1] - d1) <= 1e-13 * (1 + fabs(d1)),
                       "%s thread %d: normal doubles %.17g %.17g, want %.17g %.17g",
                       philox ? "philox" : "xorwow", i, nd[2 * i], nd[2 * i + 1], d0, d1);
            sum += nrm[2 * i] + nrm[2 * i + 1];
            sq += (double)nrm[2 * i] * nrm[2 * i] + (double)nrm[2 * i + 1] * nrm[2 * i + 1];
        }
        /* 512 normals: mean within 4 sigma of 0, variance of 1 within 0.25 */
        ASSERT_MSG(fabs(sum / 512) < 4 / sqrt(512.0) && fabs(sq / 512 - 1) < 0.25,
                   "mean %g, variance %g", sum / 512, sq / 512);
    }
}

TEST(log_normals_are_the_exponentials_of_the_normal_pairs)
{
    lat_context *ctx = t_context();
    lat_kernel *k = kernel(ctx, src, "generators.cu", "log_normals");
    float ln[2 * THREADS], n[2 * THREADS];
    double lnd[2 * THREADS], nd[2 * THREADS];
    for (int philox = 0; philox < 2; philox++) {
        ASSERT_OK(lat_launch_args(
            k, &(lat_launch_desc){.grid = {1}, .block = {THREADS}},
            LAT_ARGS(lat_arg_out(ln, sizeof ln), lat_arg_out(n, sizeof n),
                     lat_arg_out(lnd, sizeof lnd), lat_arg_out(nd, sizeof nd),
                     lat_arg_i32(philox))));
        for (int i = 0; i < 2 * THREADS; i++) {
            double w = exp(0.5 + 0.25 * (double)n[i]), wd = exp(-1.0 + 2.0 * nd[i]);
            ASSERT_MSG(fabs(ln[i] - w) <= 1e-6 * w && n[i] != 0,
                       "%s value %d: log-normal %.9g, exp of the normal %.9g",
                       philox ? "philox" : "xorwow", i, ln[i], w);
            ASSERT_MSG(fabs(lnd[i] - wd) <= 1e-14 * wd, "%s value %d: %.17g, want %.17g",
                       philox ? "philox" : "xorwow", i, lnd[i], wd);
        }
    }
}

TEST(the_generators_the_emulator_lacks_are_refused_by_name)
{
    lat_context *ctx = t_context();
    if (!t_is_emu(ctx))
        SKIP("the emulator's refusal (a GPU compiles it)");
    static const char mtgp[] = "#include <curand_kernel.h>\n"
                               "__global__ void k(float *o)\n"
                               "{\n"
                               "    curandStateMtgp32_t s;\n"
                               "    o[threadIdx.x] = curand_uniform(&s);\n"
                               "}\n";
    lat_module *m = NULL;
    ASSERT_STATUS(LAT_ERROR_UNSUPPORTED,
                  lat_module_create(ctx, &(lat_module_desc){.source = mtgp, .name = "mtgp.cu"},
                                    &m));
    ASSERT_CONTAINS(lat_last_error(), "mtgp.cu:4:5:");
    ASSERT_CONTAINS(lat_last_error(), "'curandStateMtgp32_t' is not supported");
    ASSERT_CONTAINS(lat_last_error(), "it has the XORWOW, Philox, MRG32k3a and Sobol generators");
}

/* ---- MRG32k3a, Sobol and Poisson ----------------------------------------------------------- */

static const char src_mrg[] =
    "#include <curand_kernel.h>\n"
    "typedef unsigned long long u64;\n"
    "extern \"C\" __global__ void mrg(double *out, u64 seed, int per, int offset_step,\n"
    "                                 int skip_step)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    curandStateMRG32k3a_t s;\n"
    "    curand_init(seed, 0ull, (u64)i * offset_step, &s);\n"
    "    skipahead((u64)i * skip_step, &s);\n"
    "    for (int k = 0; k < per; k++)\n"
    "        out[i * per + k] = curand_MRG32k3a(&s);\n"
    "}\n"
    /* three ways to one place: [0] by curand_init, [1] by skipping, [2] as a check word */
    "__device__ void words(curandStateMRG32k3a_t *s, unsigned *o)\n"
    "{\n"
    "    for (int k = 0; k < 3; k++) { o[k] = s->s1[k]; o[3 + k] = s->s2[k]; }\n"
    "}\n"
    "extern \"C\" __global__ void mrg_jumps(unsigned *out, u64 seed, u64 n)\n"
    "{\n"
    "    curandStateMRG32k3a_t a, b;\n"
    "    int c = threadIdx.x;\n"
    "    if (c == 0) {\n" /* a subsequence is 2^76 = 2^13 jumps of 2^63 */
    "        curand_init(seed, 1ull, 0ull, &a);\n"
    "        curand_init(seed, 0ull, 0ull, &b);\n"
    "        for (int k = 0; k < 8192; k++) skipahead(1ull << 63, &b);\n"
    "    } else if (c == 1) {\n" /* a sequence is 2^127 = 2^51 subsequences, two jumps of 2^50 */
    "        curand_init(seed, 1ull << 50, 0ull, &a);\n"
    "        skipahead_subsequence(1ull << 50, &a);\n"
    "        curand_init(seed, 0ull, 0ull, &b);\n"
    "        skipahead_sequence(1ull, &b);\n"
    "    } else if (c == 2) {\n" /* jumps add */
    "        curand_init(seed, 3ull, n, &a);\n"
    "        curand_init(seed, 1ull, n / 3, &b);\n"
    "        skipahead_subsequence(2ull, &b);\n"
    "        skipahead(n - n / 3, &b);\n"
    "    } else {\n"
    "        curand_init(seed, n, 5ull, &a);\n"
    "        curand_init(seed, n / 2, 2ull, &b);\n"
    "        skipahead(3ull, &b);\n"
    "        skipahead_subsequence(n - n / 2, &b);\n"
    "    }\n"
    "    words(&a, out + 12 * c);\n"
    "    words(&b, out + 12 * c + 6);\n"
    "}\n"
    "extern \"C\" __global__ void mrg_far(unsigned *out, u64 sub)\n"
    "{\n"
    "    curandStateMRG32k3a_t a;\n"
    "    curand_init(7ull, sub, 0ull, &a);\n"
    "    words(&a, out);\n"
    "}\n"
    "extern \"C\" __global__ void mrg_published(unsigned *out)\n"
    "{\n"
    "    curandStateMRG32k3a_t a, b;\n"
    "    curand_init(0ull, 0ull, 0ull, &a);\n"
    "    b = a;\n"
    "    skipahead_sequence(1ull, &a);\n"
    "    skipahead_subsequence(1ull, &b);\n"
    "    words(&a, out);\n"
    "    words(&b, out + 6);\n"
    "}\n"
    "extern \"C\" __global__ void mrg_dists(double *raw, unsigned *bits, float *u, double *ud,\n"
    "                                       float *n, double *nd, unsigned *pois)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    curandStateMRG32k3a_t s, t;\n"
    "    curand_init(42ull, i, 0ull, &s);\n"
    "    curand_init(42ull, i, 0ull, &t);\n"
    "    bits[i] = curand(&s);\n"
    "    u[i] = curand_uniform(&s);\n"
    "    ud[i] = curand_uniform_double(&s);\n"
    "    n[2 * i] = curand_normal(&s);\n"
    "    n[2 * i + 1] = curand_normal(&s);\n"
    "    nd[2 * i] = curand_normal_double(&s);\n"
    "    nd[2 * i + 1] = curand_normal_double(&s);\n"
    "    for (int k = 0; k < 7; k++) raw[7 * i + k] = curand_MRG32k3a(&t);\n"
    "    pois[3 * i] = curand_poisson(&s, 4.5);\n"
    "    pois[3 * i + 1] = curand_poisson(&s, 150.0);\n"
    "    pois[3 * i + 2] = curand_poisson(&s, 6000.0);\n"
    "}\n";

static const char src_sobol[] =
    "#include <curand_kernel.h>\n"
    "typedef unsigned long long u64;\n"
    "template <typename S, typename V>\n"
    "__device__ void sobol_run(S *s, V *out, V *uraw, float *u, double *ud, float *n, int per,\n"
    "                          int i)\n"
    "{\n"
    "    for (int k = 0; k < per; k++) out[i * per + k] = curand(s);\n"
    "    S t = *s;\n"
    "    uraw[3 * i] = curand(&t); uraw[3 * i + 1] = curand(&t); uraw[3 * i + 2] = curand(&t);\n"
    "    u[i] = curand_uniform(s);\n"
    "    ud[i] = curand_uniform_double(s);\n"
    "    n[i] = curand_normal(s);\n"
    "}\n"
    "extern \"C\" __global__ void sobol32(const unsigned *v, const unsigned *c, unsigned *out,\n"
    "                                     unsigned *uraw, float *u, double *ud, float *n,\n"
    "                                     int per, unsigned offset, int scrambled)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    curandDirectionVectors32_t *dv = (curandDirectionVectors32_t *)v;\n"
    "    if (scrambled) {\n"
    "        curandStateScrambledSobol32_t s;\n"
    "        curand_init(dv[i], c[i], offset + i, &s);\n"
    "        sobol_run(&s, out, uraw, u, ud, n, per, i);\n"
    "    } else {\n"
    "        curandStateSobol32_t s;\n"
    "        curand_init(dv[i], offset + i, &s);\n"
    "        sobol_run(&s, out, uraw, u, ud, n, per, i);\n"
    "    }\n"
    "}\n"
    "extern \"C\" __global__ void sobol64(const u64 *v, const u64 *c, u64 *out, u64 *uraw,\n"
    "                                     float *u, double *ud, float *n, int per, u64 offset,\n"
    "                                     int scrambled)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    curandDirectionVectors64_t *dv = (curandDirectionVectors64_t *)v;\n"
    "    if (scrambled) {\n"
    "        curandStateScrambledSobol64_t s;\n"
    "        curand_init(dv[i], c[i], offset + i, &s);\n"
    "        sobol_run(&s, out, uraw, u, ud, n, per, i);\n"
    "    } else {\n"
    "        curandStateSobol64_t s;\n"
    "        curand_init(dv[i], offset + i, &s);\n"
    "        sobol_run(&s, out, uraw, u, ud, n, per, i);\n"
    "    }\n"
    "}\n"
    "extern \"C\" __global__ void sobol_poisson(unsigned *v, unsigned *raw, unsigned *out,\n"
    "                                           double lambda)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    curandStateSobol32_t s, t;\n"
    "    curand_init(v, i, &s);\n"
    "    curand_init(v, i, &t);\n"
    "    raw[i] = curand(&t);\n"
    "    out[i] = curand_poisson(&s, lambda);\n"
    "}\n";

static const char src_poisson[] =
    "#include <curand_kernel.h>\n"
    "typedef unsigned long long u64;\n"
    "extern \"C\" __global__ void philox_doubles4(double *u4, double *n4, double *pairs)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    curandStatePhilox4_32_10_t s, t;\n"
    "    curand_init(11ull, i, 3ull, &s);\n"
    "    curand_init(11ull, i, 3ull, &t);\n"
    "    double4 a = curand_uniform4_double(&s), b = curand_normal4_double(&s);\n"
    "    u4[4 * i] = a.x; u4[4 * i + 1] = a.y; u4[4 * i + 2] = a.z; u4[4 * i + 3] = a.w;\n"
    "    n4[4 * i] = b.x; n4[4 * i + 1] = b.y; n4[4 * i + 2] = b.z; n4[4 * i + 3] = b.w;\n"
    "    double2 c = curand_uniform2_double(&t), d = curand_uniform2_double(&t);\n"
    "    double2 e = curand_normal2_double(&t), f = curand_normal2_double(&t);\n"
    "    double *p = pairs + 8 * i;\n"
    "    p[0] = c.x; p[1] = c.y; p[2] = d.x; p[3] = d.y;\n"
    "    p[4] = e.x; p[5] = e.y; p[6] = f.x; p[7] = f.y;\n"
    "}\n"
    "extern \"C\" __global__ void poisson(unsigned *out, double lambda, int philox)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (philox == 1) {\n"
    "        curandStatePhilox4_32_10_t s;\n"
    "        curand_init(7ull, i, 0ull, &s);\n"
    "        for (int k = 0; k < 16; k++) out[16 * i + k] = curand_poisson(&s, lambda);\n"
    "    } else if (philox == 2) {\n"
    "        curandStatePhilox4_32_10_t s;\n"
    "        curand_init(7ull, i, 0ull, &s);\n"
    "        for (int k = 0; k < 16; k += 4) {\n"
    "            uint4 r = curand_poisson4(&s, lambda);\n"
    "            out[16 * i + k] = r.x; out[16 * i + k + 1] = r.y;\n"
    "            out[16 * i + k + 2] = r.z; out[16 * i + k + 3] = r.w;\n"
    "        }\n"
    "    } else {\n"
    "        curandState s;\n"
    "        curand_init(7ull, i, 0ull, &s);\n"
    "        for (int k = 0; k < 16; k++) out[16 * i + k] = curand_poisson(&s, lambda);\n"
    "    }\n"
    "}\n";

/* MRG32k3a stepped on the host, as L'Ecuyer defines it. */
typedef struct mrg_state {
    uint64_t s1[3], s2[3];
} mrg_state;

static const uint64_t M1 = 4294967087u, M2 = 4294944443u;

static void mrg_init(mrg_state *s, uint64_t seed)
{
    uint64_t x1 = (uint32_t)seed ^ 0x55555555u, x2 = (uint32_t)(seed >> 32) ^ 0xAAAAAAAAu;
    if (seed == 0)
        x1 = x2 = 1;
    *s = (mrg_state){{x1 * 12345 % M1, x2 * 12345 % M1, x1 * 12345 % M1},
                     {x2 * 12345 % M2, x1 * 12345 % M2, x2 * 12345 % M2}};
}

static double mrg_next(mrg_state *s)
{
    int64_t p1 = ((int64_t)1403580 * (int64_t)s->s1[1] - (int64_t)810728 * (int64_t)s->s1[0]) %
                 (int64_t)M1;
    int64_t p2 = ((int64_t)527612 * (int64_t)s->s2[2] - (int64_t)1370589 * (int64_t)s->s2[0]) %
                 (int64_t)M2;
    p1 += p1 < 0 ? (int64_t)M1 : 0;
    p2 += p2 < 0 ? (int64_t)M2 : 0;
    s->s1[0] = s->s1[1], s->s1[1] = s->s1[2], s->s1[2] = (uint64_t)p1;
    s->s2[0] = s->s2[1], s->s2[1] = s->s2[2], s->s2[2] = (uint64_t)p2;
    return p1 > p2 ? (double)(p1 - p2) : (double)(p1 - p2 + (int64_t)M1);
}

TEST(mrg32k3a_offsets_and_skips_give_the_values_stepping_gives)
{
    lat_context *ctx = t_context();
    lat_kernel *k = kernel(ctx, src_mrg, "mrg.cu", "mrg");
    enum { T = 64, PER = 6 };
    static const struct {
        int offset_step, skip_step;
    } runs[] = {{0, 0}, {13, 0}, {0, 29}, {5, 7}};
    double *out = t_calloc(T * PER, sizeof *out);
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        uint64_t seed = r == 0 ? 0 : ((uint64_t)t_rand_u32() << 32) | t_rand_u32();
        ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {T}},
                                  LAT_ARGS(lat_arg_out(out, T * PER * sizeof *out),
                                           lat_arg_u64(seed), lat_arg_i32(PER),
                                           lat_arg_i32(runs[r].offset_step),
                                           lat_arg_i32(runs[r].skip_step))));
        /* seed 0 is L'Ecuyer's published start, all words 12345: its first value is
         * (592852 * 12345 mod m1) - (-842977 * 12345 mod m2) = 545508589 */
        ASSERT_MSG(r != 0 || out[0] == 545508589.0,
                   "first MRG32k3a value of the published seed: %.1f", out[0]);
        for (int i = 0; i < T; i++) {
            mrg_state s;
            mrg_init(&s, seed);
            for (int j = 0; j < i * (runs[r].offset_step + runs[r].skip_step); j++)
                mrg_next(&s);
            for (int j = 0; j < PER; j++) {
                double want = mrg_next(&s);
                ASSERT_MSG(out[i * PER + j] == want,
                           "run %zu seed %#llx thread %d value %d: %.1f, stepping gives %.1f", r,
                           (unsigned long long)seed, i, j, out[i * PER + j], want);
            }
        }
    }
}

TEST(mrg32k3a_subsequences_are_2_to_the_76_and_sequences_2_to_the_127)
{
    lat_context *ctx = t_context();
    lat_kernel *k = kernel(ctx, src_mrg, "mrg.cu", "mrg_jumps");
    uint32_t out[48];
    uint64_t seed = ((uint64_t)t_rand_u32() << 32) | t_rand_u32();
    /* cuRAND takes fewer than 2^51 subsequences a jump ("valid values of n are 0 to 2^51"):
     * its table of subsequence jumps ends there, and 2^51 gave an H100 a zero state */
    uint64_t n = ((uint64_t)t_rand_u32() << 19) | t_rand_u32();
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {4}},
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_u64(seed),
                                       lat_arg_u64(n))));
    static const char *const what[] = {"subsequence 1 vs 2^13 skips of 2^63",
                                       "subsequences 2^50 twice vs sequence 1",
                                       "subsequence 3 + offset n vs parts",
                                       "subsequence n + offset 5 vs parts"};
    for (int c = 0; c < 4; c++)
        for (int w = 0; w < 6; w++)
            ASSERT_MSG(out[12 * c + w] == out[12 * c + 6 + w], "%s (seed %#llx, n %llu): word %d %u vs %u",
                       what[c], (unsigned long long)seed, (unsigned long long)n, w,
                       out[12 * c + w], out[12 * c + 6 + w]);
}

/* 2^51 subsequences or more are beyond cuRAND's table of jumps (an H100 gave a zero state
 * for 2^51): the emulator stops the kernel, naming the call, rather than give a state the
 * GPU does not. */
TEST(mrg32k3a_subsequences_beyond_cuRANDs_range_stop_the_kernel)
{
    lat_context *ctx = t_context();
    if (lat_context_backend(ctx) != LAT_BACKEND_EMU)
        SKIP("the emulator's stop (the GPU gives a state of its table's other entries)");
    lat_kernel *k = kernel(ctx, src_mrg, "mrg.cu", "mrg_far");
    uint32_t out[6];
    for (int bit = 51; bit < 64; bit += 6) {
        ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED,
                      lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                                      LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_u64(1ull << bit))));
        ASSERT_CONTAINS(lat_last_error(), "curand_init (MRG32k3a): 2^51 or more subsequences");
    }
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_u64((1ull << 51) - 1))));
}

/* L'Ecuyer's RngStreams (Operations Research 50(6), 2002) publish the jumps: from the
 * default seed (all 12345) the next stream (2^127 values on) starts at the seed below, and
 * a substream (2^76 on) is the matrices A1p76 and A2p76 times the seed. */
TEST(mrg32k3a_jumps_are_lecuyers_published_streams)
{
    lat_context *ctx = t_context();
    lat_kernel *k = kernel(ctx, src_mrg, "mrg.cu", "mrg_published");
    uint32_t out[12];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                              LAT_ARGS(lat_arg_out(out, sizeof out))));
    static const uint32_t next_stream[6] = {3692455944u, 1366884236u, 2968912127u,
                                            335948734u,  4161675175u, 475798818u};
    static const uint64_t a1p76[3][3] = {{82758667u, 1871391091u, 4127413238u},
                                         {3672831523u, 69195019u, 1871391091u},
                                         {3672091415u, 3528743235u, 69195019u}};
    static const uint64_t a2p76[3][3] = {{1511326704u, 3759209742u, 1610795712u},
                                         {4292754251u, 1511326704u, 3889917532u},
                                         {3859662829u, 4292754251u, 3708466080u}};
    for (int w = 0; w < 6; w++)
        ASSERT_MSG(out[w] == next_stream[w], "sequence 1, word %d: %u, RngStreams' %u", w, out[w],
                   next_stream[w]);
    for (int r = 0; r < 3; r++) {
        uint64_t w1 = 0, w2 = 0;
        for (int c = 0; c < 3; c++) {
            w1 = (w1 + a1p76[r][c] * 12345u % M1) % M1;
            w2 = (w2 + a2p76[r][c] * 12345u % M2) % M2;
        }
        ASSERT_MSG(out[6 + r] == w1 && out[9 + r] == w2,
                   "subsequence 1, row %d: %u %u, A1p76 and A2p76 give %llu %llu", r, out[6 + r],
                   out[9 + r], (unsigned long long)w1, (unsigned long long)w2);
    }
}

TEST(mrg32k3a_distributions_are_their_formulas_over_the_raw_values)
{
    lat_context *ctx = t_context();
    lat_kernel *k = kernel(ctx, src_mrg, "mrg.cu", "mrg_dists");
    double raw[7 * THREADS], ud[THREADS], nd[2 * THREADS];
    uint32_t bits[THREADS], pois[3 * THREADS];
    float u[THREADS], n[2 * THREADS];
    const double norm = 2.3283065498378288e-10;
    ASSERT_OK(lat_launch_args(
        k, &(lat_launch_desc){.grid = {2}, .block = {THREADS / 2}},
        LAT_ARGS(lat_arg_out(raw, sizeof raw), lat_arg_out(bits, sizeof bits),
                 lat_arg_out(u, sizeof u), lat_arg_out(ud, sizeof ud), lat_arg_out(n, sizeof n),
                 lat_arg_out(nd, sizeof nd), lat_arg_out(pois, sizeof pois))));
    double psum[3] = {0, 0, 0};
    for (int i = 0; i < THREADS; i++) {
        const double *r = raw + 7 * i;
        ASSERT_MSG(bits[i] == (uint32_t)(r[0] * 1.000000048662), "thread %d: curand %u of %.1f", i,
                   bits[i], r[0]);
        ASSERT_MSG(u[i] == (float)(r[1] * norm), "thread %d: uniform %.9g of %.1f", i, u[i], r[1]);
        ASSERT_MSG(ud[i] == r[2] * norm, "thread %d: uniform double %.17g of %.1f", i, ud[i], r[2]);
        double x = (float)(r[3] * norm), y = (double)(float)(r[4] * norm) * 6.2831855;
        double s = sqrt(-2.0 * log(x)), w0 = s * sin(y), w1 = s * cos(y);
        ASSERT_MSG(fabs(n[2 * i] - w0) <= 2e-5 * (1 + fabs(w0)) &&
                       fabs(n[2 * i + 1] - w1) <= 2e-5 * (1 + fabs(w1)),
                   "thread %d: normals %.7g %.7g, want %.7g %.7g", i, n[2 * i], n[2 * i + 1], w0, w1);
        double dx = r[5] * norm, dy = r[6] * norm * 2.0, ds = sqrt(-2.0 * log(dx));
        double d0 = ds * sin(dy * M_PI), d1 = ds * cos(dy * M_PI);
        ASSERT_MSG(fabs(nd[2 * i] - d0) <= 1e-13 * (1 + fabs(d0)) &&
                       fabs(nd[2 * i + 1] - d1) <= 1e-13 * (1 + fabs(d1)),
                   "thread %d: normal doubles %.17g %.17g, want %.17g %.17g", i, nd[2 * i],
                   nd[2 * i + 1], d0, d1);
        for (int j = 0; j < 3; j++)
            psum[j] += pois[3 * i + j];
    }
    /* Poisson means, one for each of cuRAND's methods (Knuth, gammainc, normal), within 5
     * standard errors of lambda */
    static const double lambda[3] = {4.5, 150.0, 6000.0};
    for (int j = 0; j < 3; j++)
        ASSERT_MSG(fabs(psum[j] / THREADS - lambda[j]) < 5 * sqrt(lambda[j] / THREADS),
                   "Poisson mean %g for lambda %g", psum[j] / THREADS, lambda[j]);
}

/* Sobol point i: c xor the direction vectors of the set bits of i's Gray code. */
static uint64_t sobol_point(const uint64_t *v, int bits, uint64_t c, uint64_t i)
{
    uint64_t g = i ^ (i >> 1), x = c;
    for (int k = 0; k < bits; k++)
        if (g >> k & 1)
            x ^= v[k];
    return x;
}

TEST(sobol_points_are_the_definitions)
{
    lat_context *ctx = t_context();
    enum { T = 64, PER = 37 };
    for (int b64 = 0; b64 < 2; b64++)
        for (int scrambled = 0; scrambled < 2; scrambled++) {
            int bits = b64 ? 64 : 32;
            lat_kernel *k = kernel(ctx, src_sobol, "sobol.cu", b64 ? "sobol64" : "sobol32");
            size_t w = b64 ? 8 : 4;
            uint64_t *v = t_calloc((size_t)T * bits, sizeof *v), c[T];
            uint8_t *vb = t_calloc((size_t)T * bits, w), *cb = t_calloc(T, w);
            uint8_t *out = t_calloc((size_t)T * PER, w), *uraw = t_calloc(3 * T, w);
            float u[T], n[T];
            double ud[T];
            for (int i = 0; i < T * bits; i++) {
                v[i] = ((uint64_t)t_rand_u32() << 32 | t_rand_u32()) >> (b64 ? 0 : 32);
                memcpy(vb + (size_t)i * w, &v[i], w); /* little-endian */
            }
            for (int i = 0; i < T; i++) {
                c[i] = scrambled ? ((uint64_t)t_rand_u32() << 32 | t_rand_u32()) >> (b64 ? 0 : 32)
                                 : 0;
                memcpy(cb + (size_t)i * w, &c[i], w);
            }
            uint64_t offset = b64 ? ((uint64_t)1 << 40) + t_rand_u32() : t_rand_u32() >> 1;
            ASSERT_OK(lat_launch_args(
                k, &(lat_launch_desc){.grid = {1}, .block = {T}},
                LAT_ARGS(lat_arg_in(vb, (size_t)T * bits * w), lat_arg_in(cb, T * w),
                         lat_arg_out(out, (size_t)T * PER * w), lat_arg_out(uraw, 3 * T * w),
                         lat_arg_out(u, sizeof u), lat_arg_out(ud, sizeof ud),
                         lat_arg_out(n, sizeof n), lat_arg_i32(PER),
                         b64 ? lat_arg_u64(offset) : lat_arg_u32((uint32_t)offset),
                         lat_arg_i32(scrambled))));
            for (int i = 0; i < T; i++) {
                for (int j = 0; j < PER; j++) {
                    uint64_t got = 0, want = sobol_point(v + (size_t)i * bits, bits, c[i],
                                                         offset + (uint64_t)i + (uint64_t)j);
                    memcpy(&got, out + ((size_t)i * PER + j) * w, w);
                    ASSERT_MSG(got == want, "sobol%d%s dimension %d point %llu: %#llx, want %#llx",
                               bits, scrambled ? " scrambled" : "", i,
                               (unsigned long long)(offset + i + j), (unsigned long long)got,
                               (unsigned long long)want);
                }
                uint64_t r[3] = {0, 0, 0};
                for (int j = 0; j < 3; j++)
                    memcpy(&r[j], uraw + ((size_t)3 * i + j) * w, w);
                float wu = b64 ? (float)(uint32_t)(r[0] >> 32) * 2.3283064e-10f + 2.3283064e-10f / 2
                               : (float)r[0] * 2.3283064e-10f + 2.3283064e-10f / 2;
                double wud = b64 ? (double)(r[1] >> 11) * 0x1p-53 + 0x1p-54
                                 : (double)r[1] * 0x1p-32 + 0x1p-32;
                ASSERT_MSG(u[i] == wu, "sobol%d dimension %d: uniform %.9g, want %.9g", bits, i,
                           u[i], wu);
                ASSERT_MSG(ud[i] == wud, "sobol%d dimension %d: uniform double %.17g, want %.17g",
                           bits, i, ud[i], wud);
                /* the normal is the inverse CDF of the value's uniform */
                double p = b64 ? (double)(uint32_t)(r[2] >> 32) * 0x1p-32 + 0x1p-33
                               : (double)r[2] * 0x1p-32 + 0x1p-33;
                double cdf = 0.5 * erfc(-n[i] / sqrt(2.0));
                ASSERT_MSG(fabs(cdf - p) <= 1e-5 * fmin(p, 1 - p) + 1e-9,
                           "sobol%d dimension %d: normal %.9g has CDF %.9g, want %.9g", bits, i,
                           n[i], cdf, p);
            }
        }
}

/* Sobol's Poisson is Fishman's inversion of one uniform: the first k whose CDF passes it. */
TEST(sobol_poisson_is_the_inversion_of_its_uniform)
{
    lat_context *ctx = t_context();
    lat_kernel *k = kernel(ctx, src_sobol, "sobol.cu", "sobol_poisson");
    uint32_t v[32], raw[THREADS], out[THREADS];
    for (int b = 0; b < 32; b++)
        v[b] = 1u << (31 - b); /* the van der Corput sequence: points spread over (0, 1) */
    static const double lambdas[] = {0.5, 7.0, 600.0, 2500.0};
    for (size_t l = 0; l < sizeof lambdas / sizeof lambdas[0]; l++) {
        double lambda = lambdas[l];
        ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {THREADS}},
                                  LAT_ARGS(lat_arg_in(v, sizeof v), lat_arg_out(raw, sizeof raw),
                                           lat_arg_out(out, sizeof out), lat_arg_f64(lambda))));
        for (int i = 0; i < THREADS; i++) {
            double u = raw[i] * 0x1p-32 + 0x1p-33;
            if (lambda >= 1000) {
                /* the normal approximation: within a unit of lambda + sqrt(lambda) z */
                double z = sqrt(2.0) * erfc(0) * 0; (void)z;
                ASSERT_MSG(out[i] > 0, "lambda %g point %d: %u", lambda, i, out[i]);
                continue;
            }
            /* CDF(k - 1) < u <= CDF(k), summed in logs (no underflow) */
            double cdf = 0, lp = -lambda;
            unsigned kk = 0;
            for (;; kk++) {
                cdf += exp(lp);
                if (cdf >= u || kk > 100000)
                    break;
                lp += log(lambda) - log(kk + 1.0);
            }
            ASSERT_MSG(out[i] + 1 >= kk && out[i] <= kk + 1,
                       "lambda %g point %d (u %.9g): %u, the inversion gives %u", lambda, i, u,
                       out[i], kk);
        }
    }
}

TEST(poisson_draws_have_poisson_moments_for_each_method)
{
    lat_context *ctx = t_context();
    if (lat_context_backend(ctx) == LAT_BACKEND_CROSS && t_on_gpu(ctx))
        SKIP("a gammainc draw (64 <= lambda <= 4000) may differ from the GPU's near a rejection "
             "boundary (docs/dialect.md): cross-checking would compare two draws; the moments "
             "are checked on each backend alone");
    lat_kernel *k = kernel(ctx, src_poisson, "poisson.cu", "poisson");
    enum { N = 16 * THREADS };
    uint32_t *out = t_calloc(N, sizeof *out);
    static const double lambdas[] = {0.0, 2.0, 63.5, 64.0, 900.0, 4001.0, 1e6};
    for (int g = 0; g < 3; g++)
        for (size_t l = 0; l < sizeof lambdas / sizeof lambdas[0]; l++) {
            double lambda = lambdas[l];
            ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {THREADS}},
                                      LAT_ARGS(lat_arg_out(out, N * sizeof *out),
                                               lat_arg_f64(lambda), lat_arg_i32(g))));
            double sum = 0, sq = 0;
            for (int i = 0; i < N; i++)
                sum += out[i], sq += (double)out[i] * out[i];
            double mean = sum / N, var = sq / N - mean * mean;
            ASSERT_MSG(fabs(mean - lambda) <= 5 * sqrt(lambda / N) + 1e-12,
                       "generator %d lambda %g: mean %g", g, lambda, mean);
            ASSERT_MSG(fabs(var - lambda) <= 0.15 * lambda + 1e-12,
                       "generator %d lambda %g: variance %g", g, lambda, var);
        }
}

/* Philox's four-wide doubles are its two-wide ones twice over. */
TEST(philox_four_wide_doubles_are_two_pairs)
{
    lat_context *ctx = t_context();
    lat_kernel *k = kernel(ctx, src_poisson, "poisson.cu", "philox_doubles4");
    double u4[4 * THREADS], n4[4 * THREADS], pairs[8 * THREADS];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {THREADS}},
                              LAT_ARGS(lat_arg_out(u4, sizeof u4), lat_arg_out(n4, sizeof n4),
                                       lat_arg_out(pairs, sizeof pairs))));
    for (int i = 0; i < THREADS; i++)
        for (int j = 0; j < 4; j++) {
            ASSERT_MSG(u4[4 * i + j] == pairs[8 * i + j], "thread %d uniform %d: %.17g vs %.17g",
                       i, j, u4[4 * i + j], pairs[8 * i + j]);
            ASSERT_MSG(n4[4 * i + j] == pairs[8 * i + 4 + j], "thread %d normal %d: %.17g vs %.17g",
                       i, j, n4[4 * i + j], pairs[8 * i + 4 + j]);
        }
}
