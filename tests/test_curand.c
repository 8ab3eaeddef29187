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

TEST(xorwow_offsets_give_the_values_stepping_gives)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel_as_written(ctx, src, "xorwow");
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
    lat_kernel *k = t_kernel_as_written(ctx, src, "xorwow_sequences");
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
    lat_kernel *k = t_kernel_as_written(ctx, src, "philox");
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
    lat_kernel *k = t_kernel_as_written(ctx, src, "distributions");
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
    lat_kernel *k = t_kernel_as_written(ctx, src, "log_normals");
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
    static const char mrg[] = "#include <curand_kernel.h>\n"
                              "__global__ void k(float *o)\n"
                              "{\n"
                              "    curandStateMRG32k3a_t s;\n"
                              "    curand_init(1, 0, 0, &s);\n"
                              "    o[threadIdx.x] = curand_uniform(&s);\n"
                              "}\n";
    lat_module *m = NULL;
    ASSERT_STATUS(LAT_ERROR_UNSUPPORTED,
                  lat_module_create(ctx, &(lat_module_desc){.source = mrg, .name = "mrg.cu"}, &m));
    ASSERT_CONTAINS(lat_last_error(),
                    "mrg.cu:4:5: error: 'curandStateMRG32k3a_t' is not supported");
    ASSERT_CONTAINS(lat_last_error(), "XORWOW and Philox");
}
