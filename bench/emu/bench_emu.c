/*
 * The emulator against native C (issue 3), in the same run: four workloads run as CUDA C
 * kernels on the emulator and as the same grid written in C (native.c) compiled by gcc
 * -O2 -fopenmp and by gcc -O0 -fopenmp, with the same OpenMP threads:
 *   (a) dest[i] = a[i] * b[i] over 16M floats, blocks of 256 (plain thread loops);
 *   (b) the pi mapper, then a shared-memory tree reduction with a barrier per step,
 *       blocks of 256, 1M points (region loops);
 *   (c) a 512 x 512 matrix product with 16 x 16 shared tiles (region loops);
 *   (d) a warp-shuffle reduction of 1M floats (region loops).
 * Each workload also runs on the optimising tier (a module in LAT_EMU_OPT_SYNC) and, when
 * PoCL is installed (Debian's pocl-opencl-icd; pocl.c loads libOpenCL at run time, so
 * nothing needs it), as the equivalent OpenCL kernels on PoCL's CPU device, with ratios.
 * Each figure is the median of several runs; the ratios are emulator / native. Targets:
 * (a) and (c) at most 2x native -O0, (b) and (d) at most 3x. Also: the barrier's cost per
 * thread per barrier, in region loops and on fibers (LATTICE_EMU_FIBERS=1 at compile time
 * forces fibers) with (b) and (d) timed there too, and each kernel's launch checked against
 * the native result. Last, the cost of launching an empty kernel (one block; a block per
 * OpenMP thread): the fixed price of a launch, which the guard against faults and hangs
 * must not raise.
 */
#include "native.h"
#include "pocl.h"

#include <lattice.h>

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../bench_clock.h"

#define CHECK(call)                                                                    \
    do {                                                                               \
        lat_status st_ = (call);                                                       \
        if (st_ != LAT_OK) {                                                           \
            fprintf(stderr, "bench_emu: %s: %s\n%s\n", #call, lat_status_name(st_),    \
                    lat_last_error());                                                 \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

static int reps = 7;

/* Median time of fn(arg) over reps runs, after one warm-up. */
static double time_ms(void (*fn)(void *), void *arg)
{
    double t[64];
    fn(arg);
    for (int r = 0; r < reps; r++) {
        double t0 = bench_now_ms();
        fn(arg);
        t[r] = bench_now_ms() - t0;
    }
    bench_sort(t, (size_t)reps);
    return t[reps / 2];
}

static const char src[] =
    "__global__ void mul(float *d, const float *a, const float *b, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n)\n"
    "        d[i] = a[i] * b[i];\n"
    "}\n"
    "__global__ void pi(float *partial, int n)\n"
    "{\n"
    "    __shared__ float s[256];\n"
    "    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;\n"
    "    float x = (i + 0.5f) / n;\n"
    "    s[t] = i < n ? 4.0f / (1.0f + x * x) : 0.0f;\n"
    "    __syncthreads();\n"
    "    for (int k = blockDim.x / 2; k > 0; k >>= 1) {\n"
    "        if (t < k)\n"
    "            s[t] += s[t + k];\n"
    "        __syncthreads();\n"
    "    }\n"
    "    if (t == 0)\n"
    "        partial[blockIdx.x] = s[0] / n;\n"
    "}\n"
    "__global__ void matmul(float *c, const float *a, const float *b, int n)\n"
    "{\n"
    "    __shared__ float as[16][16], bs[16][16];\n"
    "    int tx = threadIdx.x, ty = threadIdx.y;\n"
    "    int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;\n"
    "    float sum = 0.0f;\n"
    "    for (int t = 0; t < n / 16; t++) {\n"
    "        as[ty][tx] = a[row * n + t * 16 + tx];\n"
    "        bs[ty][tx] = b[(t * 16 + ty) * n + col];\n"
    "        __syncthreads();\n"
    "        for (int k = 0; k < 16; k++)\n"
    "            sum += as[ty][k] * bs[k][tx];\n"
    "        __syncthreads();\n"
    "    }\n"
    "    c[row * n + col] = sum;\n"
    "}\n"
    "__global__ void warpsum(float *out, const float *a, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    float v = i < n ? a[i] : 0.0f;\n"
    "    for (int o = 16; o > 0; o >>= 1)\n"
    "        v += __shfl_down_sync(0xffffffffu, v, o);\n"
    "    if ((threadIdx.x & 31) == 0)\n"
    "        out[i / 32] = v;\n"
    "}\n"
    /* Each thread does a step of its own between barriers: a loop of bare barriers is
     * block-level control in region loops (once per block, no thread visited). */
    "__global__ void barriers(int n)\n"
    "{\n"
    "    int v = threadIdx.x;\n"
    "    for (int i = 0; i < n; i++) {\n"
    "        v += i;\n"
    "        __syncthreads();\n"
    "    }\n"
    "}\n"
    "__global__ void no_barriers(int n)\n"
    "{\n"
    "    int v = threadIdx.x;\n"
    "    for (int i = 0; i < n; i++) {\n"
    "        v += i;\n"
    "    }\n"
    "}\n";

typedef struct job {
    lat_kernel *k;
    lat_kernel *opt; /* the same kernel on the optimising tier, or NULL */
    lat_launch_desc desc;
    void **params;
    void (*native)(void *);
    float *out, *a, *b;
    int n;
    pocl_workload w; /* the same workload on PoCL */
} job;

/* PoCL's CPU device, or NULL (said once, why). */
static pocl *peer;

static void run_emu(void *p)
{
    job *j = p;
    CHECK(lat_launch(j->k, &j->desc, j->params));
}

static void run_opt(void *p)
{
    job *j = p;
    CHECK(lat_launch(j->opt, &j->desc, j->params));
}

/* The optimising tier's module (LAT_EMU_OPT_SYNC), or NULL when it has none (no
 * compiler: said once). */
static lat_module *opt_module;

static lat_kernel *opt_kernel(const char *name)
{
    lat_kernel *k = NULL;
    if (opt_module)
        CHECK(lat_module_get_kernel(opt_module, name, &k));
    return k;
}

static void mul_o2(void *p) { job *j = p; native_mul_o2(j->out, j->a, j->b, j->n); }
static void mul_o0(void *p) { job *j = p; native_mul_o0(j->out, j->a, j->b, j->n); }
static void pi_o2(void *p) { job *j = p; native_pi_o2(j->out, j->n); }
static void pi_o0(void *p) { job *j = p; native_pi_o0(j->out, j->n); }
static void mm_o2(void *p) { job *j = p; native_matmul_o2(j->out, j->a, j->b, j->n); }
static void mm_o0(void *p) { job *j = p; native_matmul_o0(j->out, j->a, j->b, j->n); }
static void ws_o2(void *p) { job *j = p; native_warpsum_o2(j->out, j->a, j->n); }
static void ws_o0(void *p) { job *j = p; native_warpsum_o0(j->out, j->a, j->n); }

/* The same workload on PoCL. This VM's memory bandwidth drifts by 2x within seconds, so
 * timing one and then the other compares the drift: the optimising tier and PoCL take
 * turns, a run each, and the ratio is the median of the turns' ratios (fair only with
 * OpenMP's threads asleep between runs: see main). */
static void compare_with_pocl(job *j, const float *emu_out, size_t count, double tol,
                              double te, double t2)
{
    pocl_job *pj = pocl_job_create(peer, j->w, j->a, j->b, j->n, count);
    float *pout = malloc(count * sizeof *pout);
    double tp[64], tt[64], ratio[64];
    bool ok = pj && pout;
    for (int r = 0; ok && r < reps; r++) {
        double t0 = bench_now_ms();
        if (j->opt)
            run_opt(j);
        tt[r] = bench_now_ms() - t0;
        ok = (tp[r] = pocl_job_run(pj)) >= 0;
        ratio[r] = tt[r] / tp[r];
    }
    ok = ok && pocl_job_read(pj, pout) == 0;
    pocl_job_destroy(pj);
    if (!ok) {
        free(pout);
        printf("%-44s PoCL failed to run it\n", "");
        return;
    }
    double worst = 0;
    for (size_t i = 0; i < count; i++) {
        double d = fabs((double)emu_out[i] - pout[i]) / (fabs((double)emu_out[i]) + 1e-30);
        worst = d > worst ? d : worst;
    }
    free(pout);
    double p = bench_median(tp, reps), o = j->opt ? bench_median(tt, reps) : -1;
    double r = j->opt ? bench_median(ratio, reps) : -1;
    printf("%-44s PoCL %7.2f ms  PoCL/O2 %5.2fx  opt/PoCL %5.2fx (median of %d turns, opt "
           "%.2f ms beside it; target <1: %s)  TinyCC/PoCL %5.2fx%s\n", "", p, p / t2, r, reps, o,
           r >= 0 && r < 1 ? "met" : "MISSED", te / p,
           worst <= (tol > 1e-5 ? tol : 1e-5) ? "" : "  RESULTS DIFFER");
}

/* Runs one workload three ways and prints a line; checks the emulator's output against
 * native -O2's (count floats, within tol relative). */
static void compare(const char *what, job *j, void (*o2)(void *), void (*o0)(void *),
                    float *emu_out, size_t count, double tol, double target, double opt_target)
{
    double te = time_ms(run_emu, j);
    /* The optimising tier writes the same buffers (tests/test_emu_opt.c checks that
     * its results are TinyCC's bit for bit). */
    double to = j->opt ? time_ms(run_opt, j) : -1;
    float *native_out = j->out;
    j->out = malloc(count * sizeof *j->out);
    if (!j->out) {
        fprintf(stderr, "bench_emu: out of memory\n");
        exit(1);
    }
    double t2 = time_ms(o2, j), t0 = time_ms(o0, j);
    double worst = 0;
    for (size_t i = 0; i < count; i++) {
        double d = fabs((double)emu_out[i] - j->out[i]) / (fabs((double)j->out[i]) + 1e-30);
        worst = d > worst ? d : worst;
    }
    free(j->out);
    j->out = native_out;
    printf("%-44s emu %8.2f ms  gcc -O2 %7.2f ms  gcc -O0 %7.2f ms  emu/O2 %5.2fx  emu/O0 "
           "%5.2fx (target %.0fx: %s)%s\n",
           what, te, t2, t0, te / t2, te / t0, target, te / t0 <= target ? "met" : "MISSED",
           worst <= tol ? "" : "  RESULTS DIFFER");
    if (to >= 0)
        printf("%-44s opt %8.2f ms  opt/O2 %5.2fx (target %.1fx: %s)  TinyCC/opt %5.2fx\n", "",
               to, to / t2, opt_target, to / t2 <= opt_target ? "met" : "MISSED", te / to);
    if (peer)
        compare_with_pocl(j, emu_out, count, tol, te, t2);
}

/* lattice reads its LATTICE_* variables when a context is created: a context made and
 * destroyed after setenv makes the change seen. */
static void env_changed(void)
{
    lat_context *c;
    CHECK(lat_context_create(&(lat_context_desc){.backend = LAT_BACKEND_EMU}, &c));
    lat_context_destroy(c);
}

static lat_deviceptr dev(lat_context *ctx, const void *host, size_t bytes)
{
    lat_deviceptr p;
    CHECK(lat_mem_alloc(ctx, bytes, &p));
    if (host)
        CHECK(lat_memcpy_htod(ctx, p, host, bytes));
    return p;
}

/* ns per thread per barrier: a loop of barriers against the same loop without. */
static double barrier_cost(lat_module *m)
{
    lat_kernel *kb, *kn;
    CHECK(lat_module_get_kernel(m, "barriers", &kb));
    CHECK(lat_module_get_kernel(m, "no_barriers", &kn));
    int n = 200, blocks = 256, threads = 256;
    void *params[] = {&n};
    job jb = {.k = kb, .desc = {.grid = {(unsigned)blocks}, .block = {(unsigned)threads}},
              .params = params};
    job jn = jb;
    jn.k = kn;
    double tb = time_ms(run_emu, &jb), tn = time_ms(run_emu, &jn);
    /* Wall time over all OpenMP threads: per thread per barrier as the core sees it. */
    return (tb - tn) * 1e6 * omp_get_max_threads() / ((double)blocks * threads * n);
}

/* us per launch of an empty kernel: the median of several batches. */
static double launch_cost(lat_module *m, unsigned blocks)
{
    lat_kernel *k;
    CHECK(lat_module_get_kernel(m, "no_barriers", &k));
    int zero = 0;
    void *params[] = {&zero};
    enum { BATCH = 2000 };
    double t[64];
    for (int r = 0; r < reps; r++) {
        double t0 = bench_now_ms();
        for (int i = 0; i < BATCH; i++)
            CHECK(lat_launch(k, &(lat_launch_desc){.grid = {blocks}, .block = {32}}, params));
        t[r] = (bench_now_ms() - t0) * 1e3 / BATCH;
    }
    bench_sort(t, (size_t)reps);
    return t[reps / 2];
}

/* A kernel of about 100 lines, as a program's own are. */
static char *hundred_lines(int salt)
{
    size_t cap = 16384, len = 0;
    char *s = malloc(cap);
    if (!s)
        exit(1);
    len += (size_t)snprintf(s + len, cap - len,
                            "__device__ float step(float v, int k) { return v * 0.999f + (float)k * 1e-3f; }\n"
                            "__global__ void big(float *out, const float *in, int n)\n{\n"
                            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                            "    if (i >= n) return;\n    float v = in[i] + %d.0f;\n", salt);
    for (int k = 0; k < 92; k++)
        len += (size_t)snprintf(s + len, cap - len,
                                k % 3 == 0   ? "    v = step(v, %d);\n"
                                : k % 3 == 1 ? "    if (v > %d.0f) v = sqrtf(v); else v += 1.0f;\n"
                                             : "    v = v * v * 1e-3f + (float)(i & %d);\n",
                                k);
    snprintf(s + len, cap - len, "    out[i] = v;\n}\n");
    return s;
}

/* Milliseconds from lat_module_create (background mode) to the optimised code in use. */
static double time_to_optimised(lat_context *ctx, const char *source, bool say)
{
    double t0 = bench_now_ms();
    lat_module *m;
    CHECK(lat_module_create(ctx, &(lat_module_desc){.source = source, .name = "big.cu",
                                                    .emu_opt = LAT_EMU_OPT_BACKGROUND}, &m));
    double tcc = bench_now_ms() - t0;
    /* Polled with short sleeps: a spinning thread would take a core from the build. */
    while (lat_module_get_tier(m) != LAT_MODULE_TIER_OPTIMISED && bench_now_ms() - t0 < 30000)
        nanosleep(&(struct timespec){0, 50 * 1000}, NULL);
    double t = bench_now_ms() - t0;
    bool ok = lat_module_get_tier(m) == LAT_MODULE_TIER_OPTIMISED;
    lat_module_destroy(m);
    if (say)
        printf("    (TinyCC's code ready after %.2f ms)\n", tcc);
    return ok ? t : -1;
}

int main(int argc, char **argv)
{
    /* libgomp's threads spin for milliseconds after a parallel region before they sleep.
     * On 2 cores that spinning takes a core from the PoCL run that follows ours: it made
     * PoCL 1.2-2x slower in compare_with_pocl's turns. Threads that sleep at once keep the turns
     * fair; libgomp reads the setting when it loads, hence a new image. */
    if (!getenv("OMP_WAIT_POLICY") && setenv("OMP_WAIT_POLICY", "passive", 1) == 0) {
        execv("/proc/self/exe", argv);
        fprintf(stderr, "bench_emu: could not run again with OMP_WAIT_POLICY=passive (%s): "
                        "PoCL's turns may be slowed by our spinning threads\n", strerror(errno));
    }
    if (argc > 1)
        reps = atoi(argv[1]) > 0 && atoi(argv[1]) < 64 ? atoi(argv[1]) : reps;
    lat_context *ctx;
    CHECK(lat_context_create(&(lat_context_desc){.backend = LAT_BACKEND_EMU}, &ctx));
    lat_module *m;
    /* TinyCC alone here: AUTO would switch this module to the optimising tier mid-run. */
    CHECK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "bench_emu.cu",
                                                    .emu_opt = LAT_EMU_OPT_OFF}, &m));
    lat_module *mo = NULL;
    CHECK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "bench_opt.cu",
                                                    .emu_opt = LAT_EMU_OPT_SYNC}, &mo));
    if (lat_module_get_tier(mo) == LAT_MODULE_TIER_OPTIMISED)
        opt_module = mo;
    else
        printf("optimising tier: none (%s)\n", lat_module_log(mo));
    printf("bench_emu: %d OpenMP threads (OMP_WAIT_POLICY=%s), median of %d runs\n",
           omp_get_max_threads(), getenv("OMP_WAIT_POLICY") ? getenv("OMP_WAIT_POLICY") : "unset",
           reps);
    char why[2300];
    peer = pocl_open(why, sizeof why);
    if (!peer)
        printf("PoCL: skipped: %s\n", why);

    /* (a) */
    int n = 16 << 20;
    float *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
    float *d = calloc((size_t)n, sizeof *d), *out = calloc((size_t)n, sizeof *out);
    if (!a || !b || !d || !out) {
        fprintf(stderr, "bench_emu: out of memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++) {
        a[i] = (float)(i % 1000) * 0.001f;
        b[i] = (float)(i % 777) * 0.01f;
    }
    lat_deviceptr da = dev(ctx, a, (size_t)n * 4), db = dev(ctx, b, (size_t)n * 4),
                  dd = dev(ctx, NULL, (size_t)n * 4);
    lat_kernel *k;
    CHECK(lat_module_get_kernel(m, "mul", &k));
    {
        void *params[] = {&dd, &da, &db, &n};
        job j = {.k = k, .desc = {.grid = {(unsigned)((n + 255) / 256)}, .block = {256}},
                 .params = params, .out = out, .a = a, .b = b, .n = n, .w = POCL_MUL};
        j.opt = opt_kernel("mul");
        run_emu(&j);
        CHECK(lat_memcpy_dtoh(ctx, d, dd, (size_t)n * 4));
        compare("(a) d = a * b, 16M floats", &j, mul_o2, mul_o0, d, (size_t)n, 0, 2, 1.5);
    }

    /* (b) */
    int np = 1 << 20, nb = np / 256;
    lat_deviceptr dp = dev(ctx, NULL, (size_t)nb * 4);
    CHECK(lat_module_get_kernel(m, "pi", &k));
    {
        void *params[] = {&dp, &np};
        job j = {.k = k, .desc = {.grid = {(unsigned)nb}, .block = {256}}, .params = params,
                 .out = out, .n = np, .w = POCL_PI};
        j.opt = opt_kernel("pi");
        run_emu(&j);
        CHECK(lat_memcpy_dtoh(ctx, d, dp, (size_t)nb * 4));
        double pi = 0;
        for (int i = 0; i < nb; i++)
            pi += d[i];
        compare("(b) pi, tree reduction, 1M points", &j, pi_o2, pi_o0, d, (size_t)nb, 1e-6, 3, 2.5);
        printf("    pi = %.7f\n", pi);
    }

    /* (c) */
    int mn = 512;
    lat_deviceptr dc = dev(ctx, NULL, (size_t)mn * mn * 4);
    CHECK(lat_module_get_kernel(m, "matmul", &k));
    {
        void *params[] = {&dc, &da, &db, &mn};
        job j = {.k = k, .desc = {.grid = {(unsigned)mn / 16, (unsigned)mn / 16}, .block = {16, 16}},
                 .params = params, .out = out, .a = a, .b = b, .n = mn, .w = POCL_MATMUL};
        j.opt = opt_kernel("matmul");
        run_emu(&j);
        CHECK(lat_memcpy_dtoh(ctx, d, dc, (size_t)mn * mn * 4));
        compare("(c) 512x512 matmul, 16x16 shared tiles", &j, mm_o2, mm_o0, d, (size_t)mn * mn,
                1e-5, 2, 1.5);
    }

    /* (d) */
    int nw = 1 << 20;
    lat_deviceptr dw = dev(ctx, NULL, (size_t)nw / 32 * 4);
    CHECK(lat_module_get_kernel(m, "warpsum", &k));
    {
        void *params[] = {&dw, &da, &nw};
        job j = {.k = k, .desc = {.grid = {(unsigned)nw / 256}, .block = {256}}, .params = params,
                 .out = out, .a = a, .n = nw, .w = POCL_WARPSUM};
        j.opt = opt_kernel("warpsum");
        run_emu(&j);
        CHECK(lat_memcpy_dtoh(ctx, d, dw, (size_t)nw / 32 * 4));
        compare("(d) warp-shuffle reduction, 1M floats", &j, ws_o2, ws_o0, d, (size_t)nw / 32,
                1e-6, 3, 2.5);
    }

    /* What rounding a*b + c once, as the GPU does, costs TinyCC's code: a call to fmaf where
     * two instructions were. The same kernels without contraction, in this run. */
    {
        static const char *const nofma[] = {"--fmad=false", NULL};
        lat_module *mu;
        CHECK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "nofma.cu",
                                                        .options = nofma,
                                                        .emu_opt = LAT_EMU_OPT_OFF}, &mu));
        lat_kernel *kp, *kc, *ku;
        CHECK(lat_module_get_kernel(m, "pi", &kp));
        CHECK(lat_module_get_kernel(mu, "pi", &ku));
        void *pp[] = {&dp, &np};
        job jf = {.k = kp, .desc = {.grid = {(unsigned)nb}, .block = {256}}, .params = pp};
        job ju = jf;
        ju.k = ku;
        double fused = time_ms(run_emu, &jf), unfused = time_ms(run_emu, &ju);
        printf("(b) with --fmad=false: %.2f ms, contraction costs %.2fx\n", unfused, fused / unfused);
        CHECK(lat_module_get_kernel(m, "matmul", &kc));
        CHECK(lat_module_get_kernel(mu, "matmul", &ku));
        void *pc[] = {&dc, &da, &db, &mn};
        jf = (job){.k = kc, .desc = {.grid = {(unsigned)mn / 16, (unsigned)mn / 16}, .block = {16, 16}},
                   .params = pc};
        ju = jf;
        ju.k = ku;
        fused = time_ms(run_emu, &jf);
        unfused = time_ms(run_emu, &ju);
        printf("(c) with --fmad=false: %.2f ms, contraction costs %.2fx\n", unfused, fused / unfused);
    }

    printf("barrier: %.2f ns per thread per barrier in region loops (target 5)\n",
           barrier_cost(m));
    setenv("LATTICE_EMU_FIBERS", "1", 1);
    env_changed();
    lat_module *mf;
    CHECK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "fibers.cu",
                                                    .emu_opt = LAT_EMU_OPT_OFF}, &mf));
    unsetenv("LATTICE_EMU_FIBERS");
    env_changed();
    printf("barrier: %.2f ns per thread per barrier on fibers (the fallback)\n",
           barrier_cost(mf));
    lat_kernel *kf;
    CHECK(lat_module_get_kernel(mf, "pi", &kf));
    {
        void *params[] = {&dp, &np};
        job j = {.k = kf, .desc = {.grid = {(unsigned)nb}, .block = {256}}, .params = params};
        printf("(b) on fibers: %.2f ms\n", time_ms(run_emu, &j));
    }
    /* The warp shuffles' own cost on fibers: every __shfl_down_sync a hand-over per lane. */
    CHECK(lat_module_get_kernel(mf, "warpsum", &kf));
    {
        void *params[] = {&dw, &da, &nw};
        job j = {.k = kf, .desc = {.grid = {(unsigned)nw / 256}, .block = {256}}, .params = params};
        printf("(d) on fibers: %.2f ms\n", time_ms(run_emu, &j));
    }
    if (opt_module) {
        /* Cold: a cache directory of our own, empty; then the same source again, with the
         * memory caches emptied: from the disk. */
        char dir[] = "/tmp/bench-emu-cache-XXXXXX";
        if (mkdtemp(dir)) {
            setenv("LATTICE_CACHE_DIR", dir, 1);
            env_changed();
            lat_cache_clear();
            char *big = hundred_lines(1);
            double cold = time_to_optimised(ctx, big, true);
            /* From the disk: the first load, and the median of the loads after it (one
             * figure on a noisy host said little). */
            double warm[7];
            for (int i = 0; i < 7; i++) {
                lat_cache_clear();
                warm[i] = time_to_optimised(ctx, big, i == 0);
            }
            double first = warm[0];
            printf("optimised code in use after %.1f ms cold (target 150), %.2f ms from the disk "
                   "cache (target 1; the first load %.2f ms), for a %d-line kernel\n", cold,
                   bench_median(warm, 7), first, 100);
            free(big);
            lat_cache_clear();
            char cmd[128];
            snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
            if (system(cmd) != 0)
                fprintf(stderr, "bench_emu: could not remove %s\n", dir);
            unsetenv("LATTICE_CACHE_DIR");
            env_changed();
        }
    }
    unsigned team = (unsigned)omp_get_max_threads();
    printf("launch: %.2f us per empty launch of 1 block, %.2f us of %u blocks\n",
           launch_cost(m, 1), launch_cost(m, team), team);
    pocl_close(peer);
    lat_deviceptr bufs[] = {da, db, dd, dp, dc, dw};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        CHECK(lat_mem_free(ctx, bufs[i]));
    lat_context_destroy(ctx);
    free(a);
    free(b);
    free(d);
    free(out);
    return 0;
}
