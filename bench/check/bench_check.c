/*
 * What do the emulator's checks cost? In one process, each workload runs on an unchecked
 * emulator context (LAT_CHECK_OFF: the emulator as it is, region loops and OpenMP) and
 * on one context per check mode (memcheck, racecheck, synccheck, initcheck, all of them),
 * and the slowdown of each is printed against the unchecked run:
 *   (a) a shared-memory tree reduction, a barrier per step: 1M floats, blocks of 256;
 *   (b) a 256x256 matrix multiply with 16x16 shared tiles.
 * Each time is the best of several runs after a warm-up (15 unchecked, 3 checked), and
 * each checked time is compared with an unchecked one measured just before it. Results
 * are compared between the checked and unchecked runs, so that a check that changes what
 * a kernel computes is seen. Targets (issue 13): each check alone at most 10x, all of them
 * together at most 20x, on both.
 */
#define _POSIX_C_SOURCE 200809L
#include "lattice.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char source[] =
    "__global__ void reduce(const float *in, float *out, int n)\n"
    "{\n"
    "    __shared__ float s[256];\n"
    "    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;\n"
    "    s[t] = i < n ? in[i] : 0.0f;\n"
    "    __syncthreads();\n"
    "    for (int d = blockDim.x / 2; d > 0; d /= 2) {\n"
    "        if (t < d)\n"
    "            s[t] += s[t + d];\n"
    "        __syncthreads();\n"
    "    }\n"
    "    if (t == 0)\n"
    "        out[blockIdx.x] = s[0];\n"
    "}\n"
    "#define TILE 16\n"
    "__global__ void matmul(const float *a, const float *b, float *c, int n)\n"
    "{\n"
    "    __shared__ float ta[TILE][TILE], tb[TILE][TILE];\n"
    "    int tx = threadIdx.x, ty = threadIdx.y;\n"
    "    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;\n"
    "    float acc = 0;\n"
    "    for (int k = 0; k < n; k += TILE) {\n"
    "        ta[ty][tx] = a[row * n + k + tx];\n"
    "        tb[ty][tx] = b[(k + ty) * n + col];\n"
    "        __syncthreads();\n"
    "        for (int j = 0; j < TILE; j++)\n"
    "            acc += ta[ty][j] * tb[j][tx];\n"
    "        __syncthreads();\n"
    "    }\n"
    "    c[row * n + col] = acc;\n"
    "}\n";

enum { N_RED = 1 << 20, BLOCK = 256, N_MM = 256 };

/* Runs per measurement (after a warm-up): the unchecked ones are short, and noisier. */
static int runs = 3;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void die(const char *what)
{
    fprintf(stderr, "bench_check: %s: %s\n", what, lat_last_error());
    exit(1);
}

typedef struct workload {
    lat_context *ctx;
    lat_kernel *reduce, *matmul;
    lat_deviceptr in, partial, a, b, c;
    lat_module_tier tier;
} workload;

static void setup(workload *w, unsigned modes)
{
    lat_module *mod;
    if (lat_context_create(&(lat_context_desc){.backend = LAT_BACKEND_EMU, .check = modes},
                           &w->ctx) != LAT_OK)
        die("lat_context_create");
    /* Both sides on the optimising tier when there is a compiler (checked modules tier up
     * too), so that each ratio is the checks' cost, not the tiers'. */
    if (lat_module_create(w->ctx, &(lat_module_desc){.source = source, .name = "bench.cu",
                                                     .emu_opt = LAT_EMU_OPT_SYNC},
                          &mod) != LAT_OK ||
        lat_module_get_kernel(mod, "reduce", &w->reduce) != LAT_OK ||
        lat_module_get_kernel(mod, "matmul", &w->matmul) != LAT_OK)
        die("compiling the workloads");
    w->tier = lat_module_get_tier(mod);
    float *h = malloc(sizeof(float) * (N_RED > N_MM * N_MM ? N_RED : N_MM * N_MM));
    if (!h)
        die("malloc");
    for (int i = 0; i < N_RED; i++)
        h[i] = (float)(i % 17) * 0.25f;
    if (lat_mem_alloc(w->ctx, sizeof(float) * N_RED, &w->in) != LAT_OK ||
        lat_mem_alloc(w->ctx, sizeof(float) * (N_RED / BLOCK), &w->partial) != LAT_OK ||
        lat_memcpy_htod(w->ctx, w->in, h, sizeof(float) * N_RED) != LAT_OK)
        die("reduction buffers");
    size_t mm = sizeof(float) * N_MM * N_MM;
    for (int i = 0; i < N_MM * N_MM; i++)
        h[i] = (float)((i * 7) % 13) * 0.125f;
    if (lat_mem_alloc(w->ctx, mm, &w->a) != LAT_OK || lat_mem_alloc(w->ctx, mm, &w->b) != LAT_OK ||
        lat_mem_alloc(w->ctx, mm, &w->c) != LAT_OK || lat_memcpy_htod(w->ctx, w->a, h, mm) != LAT_OK ||
        lat_memcpy_htod(w->ctx, w->b, h, mm) != LAT_OK)
        die("matrix buffers");
    free(h);
}

static void teardown(workload *w)
{
    lat_mem_free(w->ctx, w->in);
    lat_mem_free(w->ctx, w->partial);
    lat_mem_free(w->ctx, w->a);
    lat_mem_free(w->ctx, w->b);
    lat_mem_free(w->ctx, w->c);
    lat_context_destroy(w->ctx);
}

/* Best time of RUNS launches (after one warm-up); the result's checksum in *sum. */
static double time_reduce(workload *w, double *sum)
{
    int n = N_RED;
    void *params[] = {&w->in, &w->partial, &n};
    double best = 1e30;
    for (int r = 0; r <= runs; r++) {
        double t0 = now_s();
        if (lat_launch(w->reduce, &(lat_launch_desc){.grid = {N_RED / BLOCK}, .block = {BLOCK}},
                       params) != LAT_OK)
            die("reduce");
        double t = now_s() - t0;
        if (r > 0 && t < best)
            best = t;
    }
    static float part[N_RED / BLOCK];
    if (lat_memcpy_dtoh(w->ctx, part, w->partial, sizeof part) != LAT_OK)
        die("reading the partial sums");
    *sum = 0;
    for (int i = 0; i < N_RED / BLOCK; i++)
        *sum += part[i];
    return best;
}

static double time_matmul(workload *w, double *sum)
{
    int n = N_MM;
    void *params[] = {&w->a, &w->b, &w->c, &n};
    double best = 1e30;
    for (int r = 0; r <= runs; r++) {
        double t0 = now_s();
        if (lat_launch(w->matmul, &(lat_launch_desc){.grid = {N_MM / 16, N_MM / 16},
                                                     .block = {16, 16}},
                       params) != LAT_OK)
            die("matmul");
        double t = now_s() - t0;
        if (r > 0 && t < best)
            best = t;
    }
    static float c[N_MM * N_MM];
    if (lat_memcpy_dtoh(w->ctx, c, w->c, sizeof c) != LAT_OK)
        die("reading the product");
    *sum = 0;
    for (int i = 0; i < N_MM * N_MM; i++)
        *sum += c[i];
    return best;
}

int main(void)
{
    static const struct {
        const char *name;
        unsigned modes;
    } modes[] = {
        {"memcheck", LAT_CHECK_MEMCHECK},   {"racecheck", LAT_CHECK_RACECHECK},
        {"synccheck", LAT_CHECK_SYNCCHECK}, {"initcheck", LAT_CHECK_INITCHECK},
        {"all", LAT_CHECK_ALL},
    };
    workload base;
    setup(&base, LAT_CHECK_OFF);
    double red_sum0, mm_sum0;
    runs = 15;
    double red0 = time_reduce(&base, &red_sum0), mm0 = time_matmul(&base, &mm_sum0);
    /* For scale: the same unchecked kernels with every thread on a fiber, as checked
     * launches run the kernels region loops cannot (LATTICE_EMU_FIBERS, read when a
     * module is compiled). */
    workload fib;
    setenv("LATTICE_EMU_FIBERS", "1", 1);
    setenv("LATTICE_CACHE", "0", 1);
    setup(&fib, LAT_CHECK_OFF);
    unsetenv("LATTICE_EMU_FIBERS");
    double fs;
    runs = 3;
    double red_f = time_reduce(&fib, &fs), mm_f = time_matmul(&fib, &fs);
    teardown(&fib);
    printf("lattice checks: slowdown of each mode against the unchecked emulator, same run\n");
    printf("(each ratio against an unchecked run measured just before it: this machine is noisy)\n");
    printf("unchecked and checked modules on %s\n",
           base.tier == LAT_MODULE_TIER_OPTIMISED ? "the optimising tier" : "TinyCC (no compiler)");
    printf("(a) shared-memory reduction, %d floats, blocks of %d: unchecked %.2f ms\n", N_RED,
           BLOCK, red0 * 1e3);
    printf("(b) tiled matrix multiply %dx%d, 16x16 tiles:         unchecked %.2f ms\n", N_MM,
           N_MM, mm0 * 1e3);
    printf("%-10s %12s %8s %12s %8s\n", "mode", "(a) ms", "(a) x", "(b) ms", "(b) x");
    printf("%-10s %12.2f %8.1f %12.2f %8.1f   (unchecked, every thread on a fiber)\n", "fibers",
           red_f * 1e3, red_f / red0, mm_f * 1e3, mm_f / mm0);
    int bad = 0;
    double all_a = 0, all_b = 0;
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        workload w;
        setup(&w, modes[m].modes);
        double rs, ms, s0;
        runs = 15;
        double r0 = time_reduce(&base, &s0);
        runs = 3;
        double r = time_reduce(&w, &rs);
        runs = 15;
        double m0 = time_matmul(&base, &s0);
        runs = 3;
        double mt = time_matmul(&w, &ms);
        if (fabs(rs - red_sum0) > 1e-3 * fabs(red_sum0) || fabs(ms - mm_sum0) > 1e-3 * fabs(mm_sum0)) {
            printf("%s changed a result: %g vs %g, %g vs %g\n", modes[m].name, rs, red_sum0, ms,
                   mm_sum0);
            bad = 1;
        }
        if (lat_check_report_count(w.ctx) != 0) {
            printf("%s reported: %s\n", modes[m].name, lat_check_report_get(w.ctx, 0)->message);
            bad = 1;
        }
        bool alone = modes[m].modes != LAT_CHECK_ALL;
        printf("%-10s %12.2f %8.1f %12.2f %8.1f", modes[m].name, r * 1e3, r / r0, mt * 1e3, mt / m0);
        if (alone) /* issue 13's target for each check alone */
            printf("   (each alone at most 10x: %s)", r / r0 <= 10 && mt / m0 <= 10 ? "met" : "MISSED");
        printf("\n");
        if (!alone) {
            all_a = r / r0;
            all_b = mt / m0;
        }
        teardown(&w);
    }
    teardown(&base);
    printf("target: all checks at most 20x: (a) %.1fx %s, (b) %.1fx %s\n", all_a,
           all_a <= 20 ? "met" : "MISSED", all_b, all_b <= 20 ? "met" : "MISSED");
    return bad;
}
