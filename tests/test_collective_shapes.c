/* Collectives as real kernels write them: in __device__ helpers (warp and block reductions,
 * cooperative groups), under ?:, && and ||, inside each other's arguments, in loop
 * conditions, after a comma. On the emulator each kernel runs in region loops
 * (lat_kernel_describe says so) and on fibers (LATTICE_EMU_FIBERS=1), and both give the
 * host's answer for random inputs; the shapes that need a stack per thread stay on fibers
 * and say why. */
#include "harness.h"

#include "lattice/driver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BLOCK = 128, GRID = 4, N = BLOCK * GRID };

typedef void (*reference)(const unsigned *in, unsigned *want);

static unsigned warp_sum(const unsigned *in, int i)
{
    unsigned s = 0;
    for (int l = 0; l < 32; l++)
        s += in[i / 32 * 32 + l];
    return s;
}

static unsigned block_sum(const unsigned *in, int i)
{
    unsigned s = 0;
    for (int l = 0; l < BLOCK; l++)
        s += in[i / BLOCK * BLOCK + l];
    return s;
}

/* Runs k(out, in, n) over random inputs and compares with ref; on the emulator, also on
 * fibers. path: what lat_kernel_describe must say (a part of it). */
static void run(const char *src, reference ref, const char *path)
{
    /* Unchecked: checked code runs on fibers, whatever the path of the plain one. */
    lat_context *ctx = t_context_with(&(lat_context_desc){.check = LAT_CHECK_OFF});
    if (getenv("LATTICE_EMU_FIBERS"))
        SKIP("LATTICE_EMU_FIBERS is set: every kernel runs on fibers, and these cases ask "
             "for the other path");
    unsigned *in = t_calloc(N, sizeof *in), *want = t_calloc(N, sizeof *want), *got = t_calloc(N, sizeof *got);
    for (int i = 0; i < N; i++)
        in[i] = t_rand_u32() % 1000;
    ref(in, want);
    int ways = t_is_emu(ctx) ? 2 : 1;
    for (int way = 0; way < ways; way++) {
        if (way == 1)
            t_setenv("LATTICE_EMU_FIBERS", "1");
        lat_module *m;
        ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "shapes.cu"}, &m));
        if (way == 1)
            t_unsetenv("LATTICE_EMU_FIBERS");
        lat_kernel *k;
        ASSERT_OK(lat_module_get_kernel(m, "k", &k));
        char how[512];
        ASSERT_GT(lat_kernel_describe(k, how, sizeof how), 0);
        if (t_is_emu(ctx))
            ASSERT_CONTAINS(how, way ? "fibers" : path);
        lat_deviceptr dout = t_device_copy(ctx, got, N * sizeof *got);
        lat_deviceptr din = t_device_copy(ctx, in, N * sizeof *in);
        int n = N;
        ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {GRID}, .block = {BLOCK}}, (void *[]){&dout, &din, &n}));
        ASSERT_OK(lat_memcpy_dtoh(ctx, got, dout, N * sizeof *got));
        for (int i = 0; i < N; i++)
            if (got[i] != want[i])
                FAIL("%s: out[%d] = %u, the host says %u", how, i, got[i], want[i]);
        lat_mem_free(ctx, dout);
        lat_mem_free(ctx, din);
        lat_module_destroy(m);
    }
}

#define HELPERS                                                                            \
    "#define FULL 0xffffffffu\n"                                                           \
    "__device__ unsigned warpSum(unsigned v)\n"                                            \
    "{\n"                                                                                  \
    "    for (int o = 16; o > 0; o >>= 1)\n"                                               \
    "        v += __shfl_xor_sync(FULL, v, o);\n"                                          \
    "    return v;\n"                                                                      \
    "}\n"                                                                                  \
    "__device__ unsigned blockSum(unsigned v)\n"                                           \
    "{\n"                                                                                  \
    "    static __shared__ unsigned s[32];\n"                                              \
    "    __shared__ unsigned total;\n"                                                     \
    "    int lane = threadIdx.x % 32, wid = threadIdx.x / 32;\n"                           \
    "    v = warpSum(v);\n"                                                                \
    "    if (lane == 0) s[wid] = v;\n"                                                     \
    "    __syncthreads();\n"                                                               \
    "    v = threadIdx.x < blockDim.x / 32 ? s[lane] : 0;\n"                               \
    "    if (wid == 0) v = warpSum(v);\n"                                                  \
    "    if (threadIdx.x == 0) total = v;\n"                                               \
    "    __syncthreads();\n"                                                               \
    "    return total;\n"                                                                  \
    "}\n"

static void ref_reduce(const unsigned *in, unsigned *want)
{
    for (int i = 0; i < N; i++)
        want[i] = block_sum(in, i) * 3u + warp_sum(in, i) + in[i];
}

/* The reductions real code writes, one helper calling another, each called twice. */
TEST(warp_and_block_reduce_helpers_run_in_region_loops)
{
    run(HELPERS
        "extern \"C\" __global__ void k(unsigned *out, const unsigned *in, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    unsigned v = i < n ? in[i] : 0, s = blockSum(v), t = blockSum(v) + s;\n"
        "    out[i] = t + s + warpSum(v) + v;\n"
        "}\n",
        ref_reduce, "region loops, helpers with collectives inlined");
}

static void ref_early(const unsigned *in, unsigned *want)
{
    for (int i = 0; i < N; i++) {
        unsigned s = warp_sum(in, i), lim = 16000u + (unsigned)(i / BLOCK) * 100u;
        want[i] = (i / BLOCK == 2 ? 7u : s > lim ? lim : s) + 1u;
    }
}

/* Returns before the end of a helper with collectives, and a helper's names. */
TEST(helpers_returning_early_run_in_region_loops)
{
    run("#define FULL 0xffffffffu\n"
        "__device__ unsigned lim;\n"
        "__device__ unsigned clampedSum(unsigned v, unsigned limit)\n"
        "{\n"
        "    if (blockIdx.x == 2) return 7;\n"
        "    for (int o = 1; o < 32; o *= 2) v += __shfl_xor_sync(FULL, v, o);\n"
        "    if (v > limit)\n"
        "        return limit;\n"
        "    return v;\n"
        "}\n"
        "extern \"C\" __global__ void k(unsigned *out, const unsigned *in, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    unsigned v = in[i], limit = 16000u + blockIdx.x * 100u;\n"
        "    out[i] = 1u + clampedSum(v, limit);\n"
        "}\n",
        ref_early, "region loops, helpers with collectives inlined");
}

static void ref_cg(const unsigned *in, unsigned *want)
{
    for (int i = 0; i < N; i++)
        want[i] = warp_sum(in, i) + 2u * in[i];
}

/* Cooperative groups: a tile's reduce and the block's sync, member functions all. */
TEST(cooperative_groups_run_in_region_loops)
{
    run("#include <cooperative_groups.h>\n"
        "#include <cooperative_groups/reduce.h>\n"
        "namespace cg = cooperative_groups;\n"
        "extern \"C\" __global__ void k(unsigned *out, const unsigned *in, int n)\n"
        "{\n"
        "    cg::thread_block b = cg::this_thread_block();\n"
        "    cg::thread_block_tile<32> t = cg::tiled_partition<32>(b);\n"
        "    __shared__ unsigned s[128];\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    s[threadIdx.x] = in[i];\n"
        "    b.sync();\n"
        "    unsigned v = cg::reduce(t, s[threadIdx.x], cg::plus<unsigned>());\n"
        "    b.sync();\n"
        "    out[i] = v + s[threadIdx.x] * 2u;\n"
        "}\n",
        ref_cg, "region loops");
}

static void ref_operators(const unsigned *in, unsigned *want)
{
    for (int i = 0; i < N; i++) {
        int b = i / BLOCK;
        unsigned w = warp_sum(in, i), mx = 0, odd = 0;
        for (int l = 0; l < 32; l++) {
            unsigned x = in[i / 32 * 32 + l];
            mx = x > mx ? x : mx;
            odd += x & 1u;
        }
        unsigned a = b & 1 ? w : mx;
        unsigned all = b != 3 && mx < 1000u;
        unsigned any = b == 0 || odd > 0;
        unsigned lane3 = in[i / 32 * 32 + 3];
        unsigned y = in[i] + 1u, comma = 0;
        for (int l = 0; l < 32; l++)
            if (l == ((i % 32) ^ 2))
                comma = in[i / 32 * 32 + l] + 1u;
        (void)y;
        want[i] = a + all * 10u + any * 100u + lane3 + comma * 7u;
    }
}

/* ?:, && and ||, nested collectives and a comma, in one kernel. */
TEST(collectives_under_operators_and_in_arguments_run_in_region_loops)
{
    run("#define FULL 0xffffffffu\n"
        "extern \"C\" __global__ void k(unsigned *out, const unsigned *in, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    unsigned v = in[i], y;\n"
        "    unsigned a = (blockIdx.x & 1) ? __reduce_add_sync(FULL, v) : __reduce_max_sync(FULL, v);\n"
        "    unsigned all = blockIdx.x != 3 && __all_sync(FULL, v < 1000u);\n"
        "    unsigned any = blockIdx.x == 0 || __any_sync(FULL, v & 1u);\n"
        "    unsigned lane3 = __shfl_sync(__activemask(), v, 3);\n"
        "    unsigned comma = (y = v + 1u, __shfl_xor_sync(FULL, y, 2));\n"
        "    out[i] = a + all * 10u + any * 100u + lane3 + comma * 7u;\n"
        "}\n",
        ref_operators, "region loops, collectives moved out of expressions");
}

static void ref_loops(const unsigned *in, unsigned *want)
{
    for (int i = 0; i < N; i++) {
        unsigned mx = 0;
        for (int l = 0; l < 32; l++) {
            unsigned x = in[i / 32 * 32 + l];
            mx = x > mx ? x : mx;
        }
        unsigned steps = 0;
        for (unsigned x = mx; x; x >>= 1)
            steps++;
        unsigned turns = 0;
        for (int k = 0; k < 6; k++) {
            turns++;
            if (k == 2)
                continue;
        }
        want[i] = steps * 1000u + turns * 10u + (unsigned)(i / BLOCK) + 4u * 100000u;
    }
}

/* Collectives in while, for and do conditions (a continue in the do still tests it), and
 * in a for loop's step (a continue still takes it). */
TEST(collectives_in_loop_conditions_run_in_region_loops)
{
    run("#define FULL 0xffffffffu\n"
        "__device__ int halve(int d) { __syncwarp(); return d / 2; }\n"
        "extern \"C\" __global__ void k(unsigned *out, const unsigned *in, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    unsigned x = in[i], steps = 0, turns = 0, b = 0;\n"
        "    while (steps < 100 && __any_sync(FULL, x != 0)) { x >>= 1; steps++; }\n"
        "    int k = 0;\n"
        "    do { turns++; if (k++ == 2) continue; } while (k > 0 && __shfl_sync(FULL, k, 0) < 6);\n"
        "    for (unsigned j = 0; j < 9 && __all_sync(FULL, j < blockIdx.x); j++) b++;\n"
        "    unsigned h = 0;\n"
        "    for (int d = 8; d > 0; d = halve(d)) { h++; if (d == 4) continue; }\n"
        "    out[i] = steps * 1000u + turns * 10u + b + h * 100000u;\n"
        "}\n",
        ref_loops, "region loops, helpers with collectives inlined");
}

static void ref_fib(const unsigned *in, unsigned *want)
{
    for (int i = 0; i < N; i++)
        want[i] = warp_sum(in, i) * 3u;
}

/* What needs a stack per thread stays on fibers, and says so with the place. */
TEST(recursion_through_a_collective_stays_on_fibers_and_says_why)
{
    run("#define FULL 0xffffffffu\n"
        "__device__ unsigned sumTimes(unsigned v, int k)\n"
        "{\n"
        "    if (k == 0) return 0;\n"
        "    unsigned s = v;\n"
        "    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(FULL, s, o);\n"
        "    return s + sumTimes(v, k - 1);\n"
        "}\n"
        "extern \"C\" __global__ void k(unsigned *out, const unsigned *in, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    out[i] = sumTimes(in[i], 3);\n"
        "}\n",
        ref_fib, "fibers: recursion through a function with collectives at shapes.cu:7");
}

/* A local of the kernel's that would hide what the helper names: fibers, and why. */
TEST(a_helper_whose_names_the_kernel_hides_stays_on_fibers)
{
    run("#define FULL 0xffffffffu\n"
        "__device__ unsigned scale = 3;\n"
        "__device__ unsigned scaledSum(unsigned v)\n"
        "{\n"
        "    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(FULL, v, o);\n"
        "    return v * scale;\n"
        "}\n"
        "extern \"C\" __global__ void k(unsigned *out, const unsigned *in, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    unsigned scale = 5;\n"
        "    out[i] = scaledSum(in[i]) + scale - 5;\n"
        "}\n",
        ref_fib, "fibers: a function with collectives naming something a local of the kernel hides at shapes.cu:6");
}

static void ref_switch(const unsigned *in, unsigned *want)
{
    for (int i = 0; i < N; i++) {
        unsigned w = warp_sum(in, i), r = 0;
        switch (i / BLOCK) {
        case 0:
            r = w;
            break;
        case 1: /* the kernel's case 1 falls through into case 2 */
            r = 5;
            if (in[i] & 1u)
                break;
            r += w * 2u;
            break;
        case 2:
            if (in[i] & 1u)
                break;
            r += w * 2u;
            break;
        default:
            r = 9;
        }
        want[i] = r;
    }
}

/* A switch holding warp operations: cases that break, fall through and break early. */
TEST(a_switch_holding_collectives_runs_in_region_loops)
{
    run("#define FULL 0xffffffffu\n"
        "extern \"C\" __global__ void k(unsigned *out, const unsigned *in, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    unsigned r = 0;\n"
        "    switch (blockIdx.x) {\n"
        "    case 0:\n"
        "        r = __reduce_add_sync(FULL, in[i]);\n"
        "        break;\n"
        "    case 1:\n"
        "        r = 5;\n"
        "        /* falls through */\n"
        "    case 2: {\n"
        "        unsigned w = __reduce_add_sync(FULL, in[i]);\n"
        "        if (in[i] & 1u)\n"
        "            break;\n"
        "        r += w * 2u;\n"
        "        break;\n"
        "    }\n"
        "    default:\n"
        "        r = 9;\n"
        "    }\n"
        "    out[i] = r;\n"
        "}\n",
        ref_switch, "region loops, collectives moved out of expressions");
}

static void ref_loop_return(const unsigned *in, unsigned *want)
{
    for (int i = 0; i < N; i++) {
        unsigned w = warp_sum(in, i), r = 0;
        for (unsigned k = 1; k <= 8; k++)
            if (w * k > 40000u) {
                r = k;
                break;
            }
        want[i] = r ? r : 100u;
    }
}

/* A helper returning from inside a loop whose condition is a warp's. */
TEST(a_helper_returning_inside_a_loop_runs_in_region_loops)
{
    run("#define FULL 0xffffffffu\n"
        "__device__ unsigned firstOver(unsigned v, unsigned limit)\n"
        "{\n"
        "    unsigned w = __reduce_add_sync(FULL, v);\n"
        "    for (unsigned k = 1; k <= 8; k++) {\n"
        "        __syncwarp();\n"
        "        if (w * k > limit)\n"
        "            return k;\n"
        "    }\n"
        "    return 100;\n"
        "}\n"
        "extern \"C\" __global__ void k(unsigned *out, const unsigned *in, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    out[i] = firstOver(in[i], 40000u);\n"
        "}\n",
        ref_loop_return, "region loops, helpers with collectives inlined");
}

static void ref_block_sum(const unsigned *in, unsigned *want)
{
    for (int i = 0; i < N; i++)
        want[i] = block_sum(in, i);
}

/* Legacy warp-synchronous code (lockstep.c makes its volatile steps lockstep): in region
 * loops each step's loads and stores are stretches of their own, every lane loading before
 * any stores, as on a GPU. */
TEST(a_warp_synchronous_reduction_runs_in_region_loops_in_lockstep)
{
    run("__device__ void warpReduce(volatile unsigned *s, int t)\n"
        "{\n"
        "    s[t] += s[t + 32]; s[t] += s[t + 16]; s[t] += s[t + 8];\n"
        "    s[t] += s[t + 4]; s[t] += s[t + 2]; s[t] += s[t + 1];\n"
        "}\n"
        "extern \"C\" __global__ void k(unsigned *out, const unsigned *in, int n)\n"
        "{\n"
        "    __shared__ unsigned s[128];\n"
        "    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;\n"
        "    s[t] = in[i];\n"
        "    __syncthreads();\n"
        "    if (t < 64) s[t] += s[t + 64];\n"
        "    __syncthreads();\n"
        "    if (t < 32) warpReduce(s, t);\n"
        "    __syncthreads();\n"
        "    out[i] = s[0];\n"
        "}\n",
        ref_block_sum, "region loops, helpers with collectives inlined");
}
