/*
 * Kernels with collectives as real code writes them, on the emulator's three ways of
 * running a block (issue 45): per kernel, the path lat_kernel_describe names, and the time
 * of a launch on TinyCC's code, on the optimising tier and on fibers (LATTICE_EMU_FIBERS=1,
 * optimised), each the median of several launches in this one run; then the share of the
 * kernels that run in region loops. Every way's output is compared with TinyCC's. The time
 * is the process's CPU time (all OpenMP threads, which sleep when idle: OMP_WAIT_POLICY=
 * passive): on a machine shared with others, wall time said more about them than us.
 *
 * The kernels are this project's own, each written in the shape of a pattern common in
 * public CUDA code (named above it): a warp or block reduction in helpers, cooperative
 * groups, a softmax row per warp, a warp scan, ballots and matches; one recursion through
 * a collective, which stays on fibers.
 *
 * With files (bench_paths tests/corpus/...cu), it reads those instead: the real kernels of
 * the correctness corpora, whose launches need their own inputs (lattice-corpus runs them).
 * Per kernel it prints the path, then the share of those with collectives in region loops
 * and the reason of each that is not.
 */
#include "lattice.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../bench_clock.h"

#define HELPERS                                                                            \
    "#define FULL 0xffffffffu\n"                                                           \
    "__inline__ __device__ float warpReduceSum(float v)\n"                                 \
    "{\n"                                                                                  \
    "    for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down_sync(FULL, v, o);\n"   \
    "    return v;\n"                                                                      \
    "}\n"                                                                                  \
    "__inline__ __device__ float warpAllMax(float v)\n"                                    \
    "{\n"                                                                                  \
    "    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(FULL, v, o));\n"    \
    "    return v;\n"                                                                      \
    "}\n"                                                                                  \
    "__inline__ __device__ float warpAllSum(float v)\n"                                    \
    "{\n"                                                                                  \
    "    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(FULL, v, o);\n"            \
    "    return v;\n"                                                                      \
    "}\n"                                                                                  \
    "__inline__ __device__ float blockReduceSum(float v)\n"                                \
    "{\n"                                                                                  \
    "    static __shared__ float shared[32];\n"                                            \
    "    int lane = threadIdx.x % warpSize, wid = threadIdx.x / warpSize;\n"               \
    "    v = warpReduceSum(v);\n"                                                          \
    "    if (lane == 0) shared[wid] = v;\n"                                                \
    "    __syncthreads();\n"                                                               \
    "    v = (threadIdx.x < blockDim.x / warpSize) ? shared[lane] : 0;\n"                  \
    "    if (wid == 0) v = warpReduceSum(v);\n"                                            \
    "    return v;\n"                                                                      \
    "}\n"

typedef struct bench_kernel {
    const char *name;
    const char *pattern; /* the public pattern it is written after */
    const char *source;  /* k(float *out, const float *in, int n), 256 threads a block */
} bench_kernel;

static const bench_kernel kernels[] = {
    {"warp_reduce", "warpReduceSum with __shfl_down_sync, one sum per warp (NVIDIA's 'Faster "
                    "Parallel Reductions on Kepler')",
     HELPERS "__global__ void k(float *out, const float *in, int n)\n"
             "{\n"
             "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    float s = warpReduceSum(i < n ? in[i] : 0.0f);\n"
             "    if (threadIdx.x % 32 == 0) out[i / 32] = s;\n"
             "}\n"},
    {"block_reduce", "blockReduceSum: warp sums through static __shared__ float shared[32] "
                     "(the same article)",
     HELPERS "__global__ void k(float *out, const float *in, int n)\n"
             "{\n"
             "    float sum = 0;\n"
             "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)\n"
             "        sum += in[i];\n"
             "    sum = blockReduceSum(sum);\n"
             "    if (threadIdx.x == 0) out[blockIdx.x] = sum;\n"
             "}\n"},
    {"layer_norm", "mean, then variance, by blockReduceSum twice, a row of 256 a block "
                   "(LayerNorm kernels of inference libraries)",
     HELPERS "__global__ void k(float *out, const float *in, int n)\n"
             "{\n"
             "    __shared__ float mean, rstd;\n"
             "    const float *row = in + blockIdx.x * 256;\n"
             "    float s = 0;\n"
             "    for (int j = threadIdx.x; j < 256; j += blockDim.x) s += row[j];\n"
             "    s = blockReduceSum(s);\n"
             "    if (threadIdx.x == 0) mean = s / 256.0f;\n"
             "    __syncthreads();\n"
             "    float v = 0;\n"
             "    for (int j = threadIdx.x; j < 256; j += blockDim.x) v += (row[j] - mean) * (row[j] - mean);\n"
             "    v = blockReduceSum(v);\n"
             "    if (threadIdx.x == 0) rstd = rsqrtf(v / 256.0f + 1e-5f);\n"
             "    __syncthreads();\n"
             "    for (int j = threadIdx.x; j < 256; j += blockDim.x)\n"
             "        out[blockIdx.x * 256 + j] = (row[j] - mean) * rstd;\n"
             "}\n"},
    {"softmax_row_per_warp", "softmax with a row per warp: max and sum by __shfl_xor_sync "
                             "butterflies (attention kernels)",
     HELPERS "__global__ void k(float *out, const float *in, int n)\n"
             "{\n"
             "    int row = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;\n"
             "    const float *x = in + row * 32;\n"
             "    float m = -1e30f;\n"
             "    for (int j = lane; j < 32; j += 32) m = fmaxf(m, x[j]);\n"
             "    m = warpAllMax(m);\n"
             "    float s = 0;\n"
             "    for (int j = lane; j < 32; j += 32) s += __expf(x[j] - m);\n"
             "    s = warpAllSum(s);\n"
             "    for (int j = lane; j < 32; j += 32) out[row * 32 + j] = __expf(x[j] - m) / s;\n"
             "}\n"},
    {"cg_tile_reduce", "cooperative groups: tiled_partition<32> and cg::reduce (the CUDA "
                       "samples' reductions with cooperative groups)",
     "#include <cooperative_groups.h>\n"
     "#include <cooperative_groups/reduce.h>\n"
     "namespace cg = cooperative_groups;\n"
     "__global__ void k(float *out, const float *in, int n)\n"
     "{\n"
     "    cg::thread_block block = cg::this_thread_block();\n"
     "    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);\n"
     "    __shared__ float part[8];\n"
     "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    float v = cg::reduce(tile, i < n ? in[i] : 0.0f, cg::plus<float>());\n"
     "    if (tile.thread_rank() == 0) part[tile.meta_group_rank()] = v;\n"
     "    block.sync();\n"
     "    if (threadIdx.x == 0) {\n"
     "        float s = 0;\n"
     "        for (int w = 0; w < 8; w++) s += part[w];\n"
     "        out[blockIdx.x] = s;\n"
     "    }\n"
     "}\n"},
    {"cg_block_tree", "a shared-memory tree reduction synchronised by "
                      "cg::this_thread_block().sync() (the samples' reduce kernels)",
     "#include <cooperative_groups.h>\n"
     "namespace cg = cooperative_groups;\n"
     "__device__ float treeReduce(cg::thread_block b, float *s, float v)\n"
     "{\n"
     "    s[b.thread_rank()] = v;\n"
     "    b.sync();\n"
     "    for (int d = b.size() / 2; d > 0; d /= 2) {\n"
     "        if (b.thread_rank() < d) s[b.thread_rank()] += s[b.thread_rank() + d];\n"
     "        b.sync();\n"
     "    }\n"
     "    return s[0];\n"
     "}\n"
     "__global__ void k(float *out, const float *in, int n)\n"
     "{\n"
     "    __shared__ float s[256];\n"
     "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    float t = treeReduce(cg::this_thread_block(), s, i < n ? in[i] : 0.0f);\n"
     "    if (threadIdx.x == 0) out[blockIdx.x] = t;\n"
     "}\n"},
    {"ballot_compact", "warp-aggregated stream compaction: __ballot_sync, __popc and the "
                       "lane mask (the 'warp-aggregated atomics' article)",
     "__device__ int warpOffset(bool keep)\n"
     "{\n"
     "    unsigned m = __ballot_sync(0xffffffffu, keep);\n"
     "    return __popc(m & ((1u << (threadIdx.x % 32)) - 1u));\n"
     "}\n"
     "__global__ void k(float *out, const float *in, int n)\n"
     "{\n"
     "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    bool keep = i < n && in[i] > 0.5f;\n"
     "    int at = warpOffset(keep);\n"
     "    int base = (i / 32) * 32;\n"
     "    out[i] = 0.0f;\n"
     "    __syncwarp();\n"
     "    if (keep) out[base + at] = in[i];\n"
     "}\n"},
    {"warp_scan", "inclusive scan: a warp scan by __shfl_up_sync in a helper, then the warps' "
                  "totals through shared memory (the samples' shfl_scan)",
     "__device__ float warpScan(float v)\n"
     "{\n"
     "    int lane = threadIdx.x % 32;\n"
     "    for (int o = 1; o < 32; o *= 2) {\n"
     "        float y = __shfl_up_sync(0xffffffffu, v, o);\n"
     "        if (lane >= o) v += y;\n"
     "    }\n"
     "    return v;\n"
     "}\n"
     "__global__ void k(float *out, const float *in, int n)\n"
     "{\n"
     "    __shared__ float sums[8];\n"
     "    int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32, w = threadIdx.x / 32;\n"
     "    float v = warpScan(i < n ? in[i] : 0.0f);\n"
     "    if (lane == 31) sums[w] = v;\n"
     "    __syncthreads();\n"
     "    if (w == 0) {\n"
     "        float t = lane < 8 ? sums[lane] : 0.0f;\n"
     "        t = warpScan(t);\n"
     "        if (lane < 8) sums[lane] = t;\n"
     "    }\n"
     "    __syncthreads();\n"
     "    if (i < n) out[i] = v + (w > 0 ? sums[w - 1] : 0.0f);\n"
     "}\n"},
    {"match_histogram", "a histogram whose lanes with the same bin add once: __match_any_sync "
                        "and a leader (warp-aggregated histograms)",
     "__global__ void k(float *out, const float *in, int n)\n"
     "{\n"
     "    __shared__ unsigned hist[16];\n"
     "    if (threadIdx.x < 16) hist[threadIdx.x] = 0;\n"
     "    __syncthreads();\n"
     "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    unsigned bin = i < n ? (unsigned)(in[i] * 16.0f) & 15u : 0u;\n"
     "    unsigned peers = __match_any_sync(0xffffffffu, bin);\n"
     "    if ((threadIdx.x % 32) == __ffs(peers) - 1) atomicAdd(&hist[bin], __popc(peers));\n"
     "    __syncthreads();\n"
     "    if (threadIdx.x < 16) out[blockIdx.x * 16 + threadIdx.x] = (float)hist[threadIdx.x];\n"
     "}\n"},
    {"guarded_helpers", "a helper that returns early when its warp has nothing to do, called "
                        "under && and ?: (bounds-checked reductions)",
     HELPERS "__device__ float activeMax(float v, bool valid)\n"
             "{\n"
             "    if (!__any_sync(FULL, valid)) return 0.0f;\n"
             "    return warpAllMax(valid ? v : -1e30f);\n"
             "}\n"
             "__global__ void k(float *out, const float *in, int n)\n"
             "{\n"
             "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
             "    float v = i < n ? in[i] : 0.0f;\n"
             "    float m = n > 0 ? activeMax(v, i < n) : 0.0f;\n"
             "    bool big = n > 0 && __any_sync(FULL, v > 0.99f);\n"
             "    if (i < n) out[i] = v / m + (big ? 1.0f : 0.0f);\n"
             "}\n"},
    {"recursive_tree", "a recursion through a shuffle (halving the width each call): needs a "
                       "stack per thread",
     "__device__ float treeSum(float v, int width)\n"
     "{\n"
     "    if (width == 1) return v;\n"
     "    v += __shfl_down_sync(0xffffffffu, v, width / 2);\n"
     "    return treeSum(v, width / 2);\n"
     "}\n"
     "__global__ void k(float *out, const float *in, int n)\n"
     "{\n"
     "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
     "    float s = treeSum(i < n ? in[i] : 0.0f, 32);\n"
     "    if (threadIdx.x % 32 == 0) out[i / 32] = s;\n"
     "}\n"},
};

enum { N = 1 << 18, REPS = 5 };

#define CHECK(call)                                                                        \
    do {                                                                                   \
        if ((call) != LAT_OK) {                                                            \
            fprintf(stderr, "bench_paths: %s failed: %s\n", #call, lat_last_error());       \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

/* Makes the library read the environment again (a context's creation does). */
static void env_changed(void)
{
    lat_context *c;
    CHECK(lat_context_create(&(lat_context_desc){.backend = LAT_BACKEND_EMU}, &c));
    lat_context_destroy(c);
}

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* CPU milliseconds a launch takes (median of REPS), and the output of the last one. */
static double run(lat_context *ctx, const bench_kernel *bk, lat_emu_opt mode, bool fibers,
                  lat_deviceptr din, float *out, char *how, size_t how_size)
{
    /* The variable is read when a context is made; a trailer of its own keeps the compile
     * cache from handing the fibers run the region loops' module. */
    char *src = malloc(strlen(bk->source) + 64);
    if (!src)
        exit(1);
    sprintf(src, "%s%s", bk->source, fibers ? "/* on fibers */\n" : "");
    if (fibers)
        setenv("LATTICE_EMU_FIBERS", "1", 1);
    env_changed();
    lat_module *m;
    CHECK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "k.cu", .emu_opt = mode}, &m));
    unsetenv("LATTICE_EMU_FIBERS");
    env_changed();
    free(src);
    lat_kernel *k;
    CHECK(lat_module_get_kernel(m, "k", &k));
    if (how)
        lat_kernel_describe(k, how, how_size);
    lat_deviceptr dout;
    CHECK(lat_mem_alloc(ctx, N * sizeof(float), &dout));
    CHECK(lat_memset_d8(ctx, dout, 0, N * sizeof(float)));
    int n = N;
    double t[REPS];
    for (int r = 0; r < REPS; r++) {
        double t0 = cpu_ms();
        CHECK(lat_launch(k, &(lat_launch_desc){.grid = {N / 256}, .block = {256}}, (void *[]){&dout, &din, &n}));
        t[r] = cpu_ms() - t0;
    }
    CHECK(lat_memcpy_dtoh(ctx, out, dout, N * sizeof(float)));
    lat_mem_free(ctx, dout);
    lat_module_destroy(m);
    return bench_median(t, REPS);
}

static int differ(const float *a, const float *b)
{
    for (int i = 0; i < N; i++) {
        float d = a[i] - b[i], s = (a[i] < 0 ? -a[i] : a[i]) + 1e-3f;
        if ((d < 0 ? -d : d) > 1e-3f * s)
            return i + 1;
    }
    return 0;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = NULL;
    long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (text = malloc((size_t)n + 1)) &&
        fread(text, 1, (size_t)n, f) != (size_t)n) {
        free(text);
        text = NULL;
    }
    if (text)
        text[n] = '\0';
    fclose(f);
    return text;
}

/* The corpus mode: each kernel's path in the optimising tier. Returns the exit status. */
static int corpus_paths(lat_context *ctx, int nfiles, char **files)
{
    int with = 0, region = 0, bad = 0;
    for (int f = 0; f < nfiles; f++) {
        char *text = read_file(files[f]);
        lat_module *m = NULL;
        if (!text || lat_module_create(ctx, &(lat_module_desc){.source = text, .name = files[f],
                                                               .emu_opt = LAT_EMU_OPT_SYNC}, &m)) {
            printf("%s: %s\n", files[f], text ? lat_last_error() : "cannot be read");
            free(text);
            bad++;
            continue;
        }
        for (int i = 0; i < lat_module_kernel_count(m); i++) {
            const char *name = lat_module_kernel_name(m, i);
            lat_kernel *k;
            char how[512] = "";
            if (lat_module_get_kernel(m, name, &k) == LAT_OK)
                lat_kernel_describe(k, how, sizeof how);
            bool collective = strstr(how, "no collective") == NULL;
            with += collective;
            region += collective && strncmp(how, "region loops", 12) == 0;
            printf("%-40s %-34s %s\n", files[f], name, how);
        }
        lat_module_destroy(m);
        free(text);
    }
    printf("%d of %d kernels with collectives (%.0f%%) run in region loops%s\n", region, with,
           with ? 100.0 * region / with : 0.0, bad ? "; some files did not compile (above)" : "");
    return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
    /* Idle OpenMP threads must sleep, not spin: their spinning is CPU time too. */
    if (!getenv("OMP_WAIT_POLICY") && setenv("OMP_WAIT_POLICY", "passive", 1) == 0)
        execv("/proc/self/exe", argv);
    lat_context *ctx;
    CHECK(lat_context_create(&(lat_context_desc){.backend = LAT_BACKEND_EMU}, &ctx));
    if (argc > 1) {
        int rc = corpus_paths(ctx, argc - 1, argv + 1);
        lat_context_destroy(ctx);
        return rc;
    }
    float *in = malloc(N * sizeof *in), *o_tcc = malloc(N * sizeof(float)), *o_opt = malloc(N * sizeof(float)),
          *o_fib = malloc(N * sizeof(float));
    if (!in || !o_tcc || !o_opt || !o_fib)
        return 1;
    srand(45);
    for (int i = 0; i < N; i++)
        in[i] = (float)rand() / (float)RAND_MAX;
    lat_deviceptr din;
    CHECK(lat_mem_alloc(ctx, N * sizeof(float), &din));
    CHECK(lat_memcpy_htod(ctx, din, in, N * sizeof(float)));
    int count = (int)(sizeof kernels / sizeof *kernels), region = 0;
    printf("bench_paths: %d kernels with collectives, %d floats, 256 threads a block; a launch's "
           "median of %d, CPU ms\n", count, N, REPS);
    printf("%-22s %9s %9s %9s %8s  %s\n", "kernel", "TinyCC", "optimised", "fibers", "fib/opt", "path");
    for (int i = 0; i < count; i++) {
        const bench_kernel *bk = &kernels[i];
        char how[512];
        double tcc = run(ctx, bk, LAT_EMU_OPT_OFF, false, din, o_tcc, NULL, 0);
        double opt = run(ctx, bk, LAT_EMU_OPT_SYNC, false, din, o_opt, how, sizeof how);
        double fib = run(ctx, bk, LAT_EMU_OPT_SYNC, true, din, o_fib, NULL, 0);
        region += strncmp(how, "region loops", 12) == 0;
        printf("%-22s %9.2f %9.2f %9.2f %7.1fx  %s\n", bk->name, tcc, opt, fib, fib / opt, how);
        int d = differ(o_tcc, o_opt), e = differ(o_tcc, o_fib);
        if (d || e)
            printf("    MISMATCH: %s out[%d] %g, TinyCC's %g\n", d ? "optimised" : "fibers",
                   (d ? d : e) - 1, (double)(d ? o_opt : o_fib)[(d ? d : e) - 1], (double)o_tcc[(d ? d : e) - 1]);
    }
    printf("%d of %d kernels with collectives (%.0f%%) run in region loops; patterns:\n", region, count,
           100.0 * region / count);
    for (int i = 0; i < count; i++)
        printf("  %-22s %s\n", kernels[i].name, kernels[i].pattern);
    lat_mem_free(ctx, din);
    lat_context_destroy(ctx);
    free(in);
    free(o_tcc);
    free(o_opt);
    free(o_fib);
    return 0;
}
