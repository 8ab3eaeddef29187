/* The emulator's two ways of running kernels with barriers and warp operations (region
 * loops and fibers): which one a kernel gets, and the same results from both on the
 * constructs region loops transform (masks of branches and loops, break and continue,
 * early returns, variables kept across barriers, warp operations in conditions), plus
 * the error for a barrier that not every thread reaches. */
#include "harness.h"

#include "emu/exec/exec.h"

#include <stdlib.h>
#include <string.h>

/* Unchecked whatever LATTICE_CHECK says: the cases ask which technique plain code gets. */
static lat_context *emu_context(void)
{
    return t_context_with(&(lat_context_desc){.backend = LAT_BACKEND_EMU, .check = LAT_CHECK_OFF});
}

/* The kernel compiled in the emulator's chosen way, or forced onto fibers. */
static lat_kernel *kernel(lat_context *ctx, const char *src, const char *name, bool fibers)
{
    /* Another text for fibers: the compile cache would hand the first module back. */
    char *text = t_calloc(strlen(src) + 32, 1);
    strcpy(text, src);
    t_unsetenv("LATTICE_EMU_FIBERS");
    if (fibers) {
        t_setenv("LATTICE_EMU_FIBERS", "1");
        strcat(text, "// on fibers\n");
    }
    lat_module *mod = NULL;
    lat_status st = lat_module_create(ctx, &(lat_module_desc){.source = text, .name = "region.cu"}, &mod);
    t_unsetenv("LATTICE_EMU_FIBERS");
    ASSERT_MSG(st == LAT_OK, "%s: %s", lat_status_name(st), lat_last_error());
    lat_kernel *k = NULL;
    ASSERT_OK(lat_module_get_kernel(mod, name, &k));
    return k;
}

static int mode(lat_kernel *k)
{
    return ((const lat__emu_kernel *)k->impl)->mode;
}

TEST(the_execution_technique_a_kernel_gets)
{
    lat_context *ctx = emu_context();
    static const char src[] =
        "__device__ void bar(void) { __syncthreads(); }\n"
        "__global__ void plain(int *a) { a[threadIdx.x] = 1; }\n"
        "__global__ void region(int *a) { a[threadIdx.x] = 1; __syncthreads(); a[0] = 2; }\n"
        "__global__ void through_a_function(int *a) { bar(); }\n"
        "#define SYNC __syncthreads()\n"
        "__global__ void through_a_macro(int *a) { SYNC; }\n"
        "__global__ void with_goto(int *a) { if (a[0]) goto out; __syncthreads(); out: a[1] = 0; }\n"
        "__global__ void in_a_switch(int *a) { switch (a[0]) { case 1: __syncthreads(); } }\n";
    ASSERT_EQ(mode(kernel(ctx, src, "plain", false)), LAT_EMU_MODE_PLAIN);
    ASSERT_EQ(mode(kernel(ctx, src, "region", false)), LAT_EMU_MODE_REGION);
    /* A helper with a barrier is inlined into the kernel's region loops. */
    ASSERT_EQ(mode(kernel(ctx, src, "through_a_function", false)), LAT_EMU_MODE_REGION);
    /* The front end sees through macros: a barrier written through one is a barrier. */
    ASSERT_EQ(mode(kernel(ctx, src, "through_a_macro", false)), LAT_EMU_MODE_REGION);
    ASSERT_EQ(mode(kernel(ctx, src, "with_goto", false)), LAT_EMU_MODE_FIBER);
    /* A switch holding a barrier is lowered to region loops too (docs/dialect.md). */
    ASSERT_EQ(mode(kernel(ctx, src, "in_a_switch", false)), LAT_EMU_MODE_REGION);
    ASSERT_EQ(mode(kernel(ctx, src, "region", true)), LAT_EMU_MODE_FIBER);
}

/* The grid barrier makes blocks wait for each other, each thread where it stands: a
 * kernel that calls it, even as a plain statement among __syncthreads, runs on fibers. */
TEST(a_kernel_with_the_grid_barrier_runs_on_fibers)
{
    lat_context *ctx = emu_context();
    static const char src[] =
        "__global__ void grid(int *a) { a[threadIdx.x] = 1; __syncthreads(); __lat_grid_sync(); a[0] = 2; }\n";
    ASSERT_EQ(mode(kernel(ctx, src, "grid", false)), LAT_EMU_MODE_FIBER);
}

/* The code of a loop is block-level control (run once for the block) when its bounds
 * are the same for every thread: a parameter the kernel never changes counts. Checked
 * contexts run a kernel as region loops only where they and fibers cannot differ: plain
 * __syncthreads that every thread reaches alike, no warp operation, nothing a thread
 * could spin on. (A conditional directive is gone before the plan reads the body.) */
TEST(checked_contexts_use_region_loops_where_fibers_could_not_differ)
{
    lat_context *ctx = t_context_with(&(lat_context_desc){.backend = LAT_BACKEND_EMU,
                                                          .check = LAT_CHECK_ALL});
    static const char src[] =
        "__global__ void plain(int *a) { a[threadIdx.x] = 1; }\n"
        "__global__ void tiles(int *a, int n)\n"
        "{ __shared__ int s[64]; int acc = 0;\n"
        "  for (int k = 0; k < n; k += 16) { s[threadIdx.x] = a[k]; __syncthreads();\n"
        "    acc += s[63 - threadIdx.x]; __syncthreads(); }\n"
        "  if (n > 4) { __syncthreads(); }\n"
        "  a[threadIdx.x] = acc; }\n"
        "__global__ void early(int *a, int n) { if (threadIdx.x >= n) return; __syncthreads(); a[0] = 1; }\n"
        "__global__ void divergent(int *a) { if (threadIdx.x < 5) __syncthreads(); }\n"
        "__global__ void in_a_while(int *a) { int k = 0; while (k < a[0]) { __syncthreads(); k++; } }\n"
        "__global__ void warp(int *a) { a[threadIdx.x] = __shfl_sync(~0u, a[0], 0); }\n"
        "__global__ void syncwarp(int *a) { a[threadIdx.x] = 1; __syncwarp(); }\n"
        "__global__ void breaks(int *a, int n)\n"
        "{ for (int k = 0; k < n; k++) { if (threadIdx.x == k) break; __syncthreads(); } }\n"
        "#define SYNC 1\n"
        "__global__ void directive(int *a)\n"
        "{ a[0] = 1;\n"
        "#if SYNC\n"
        "  __syncthreads();\n"
        "#endif\n"
        "}\n";
    static const char spin[] =
        "__global__ void waits(volatile int *flag) { if (threadIdx.x == 0) *flag = 1; }\n"
        "__global__ void counts(int *a) { for (int i = 0; i < 4; i++) atomicAdd(a, 1); }\n";
    static const struct {
        const char *src, *name;
        int mode;
    } want[] = {
        {src, "plain", LAT_EMU_MODE_REGION},     {src, "tiles", LAT_EMU_MODE_REGION},
        {src, "early", LAT_EMU_MODE_REGION},     {src, "divergent", LAT_EMU_MODE_FIBER},
        {src, "in_a_while", LAT_EMU_MODE_FIBER}, {src, "warp", LAT_EMU_MODE_FIBER},
        {src, "syncwarp", LAT_EMU_MODE_FIBER},   {src, "breaks", LAT_EMU_MODE_FIBER},
        {src, "directive", LAT_EMU_MODE_REGION}, {spin, "waits", LAT_EMU_MODE_FIBER},
        {spin, "counts", LAT_EMU_MODE_FIBER},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        lat_kernel *k = kernel(ctx, want[i].src, want[i].name, false);
        ASSERT_MSG(mode(k) == want[i].mode, "checked kernel '%s' runs in mode %d, want %d",
                   want[i].name, mode(k), want[i].mode);
    }
    /* Unchecked, the parameter-bounded loop is block-level control: no per-thread masks. */
    lat_kernel *tiles = kernel(emu_context(), src, "tiles", false);
    ASSERT_EQ(mode(tiles), LAT_EMU_MODE_REGION);
    int a[64];
    for (int i = 0; i < 64; i++)
        a[i] = i;
    int n = 64;
    ASSERT_OK(lat_launch_args(tiles, &(lat_launch_desc){.grid = {1}, .block = {64}},
                              LAT_ARGS(lat_arg_inout(a, sizeof a), lat_arg_i32(n))));
    /* k = 0, 16, 32, 48: thread t adds a[k] as the others stored it, in s[63 - t]. */
    ASSERT_EQ(a[0], 0 + 16 + 32 + 48);
    ASSERT_EQ(a[63], 0 + 16 + 32 + 48);
}

/* Runs kernel `name` of src both ways on one block of `threads`, with an int buffer of
 * n elements in and out (initialised to in[i] = i); checks both against want. */
static void both_ways(const char *src, const char *name, unsigned threads, int n, const int *want)
{
    lat_context *ctx = emu_context();
    for (int f = 0; f < 2; f++) {
        lat_kernel *k = kernel(ctx, src, name, f == 1);
        if (f == 0)
            ASSERT_MSG(mode(k) == LAT_EMU_MODE_REGION, "kernel '%s' is not in region loops", name);
        int *buf = t_calloc((size_t)n, sizeof *buf);
        for (int i = 0; i < n; i++)
            buf[i] = i;
        ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {threads}},
                                  LAT_ARGS(lat_arg_inout(buf, (size_t)n * sizeof *buf))));
        for (int i = 0; i < n; i++)
            ASSERT_MSG(buf[i] == want[i], "%s on %s: buf[%d] = %d, want %d", name,
                       f ? "fibers" : "region loops", i, buf[i], want[i]);
    }
}

TEST(branches_that_hold_barriers_run_their_threads_only)
{
    /* Uniform per block, decided at run time from memory (not provably uniform). */
    static const char src[] =
        "__global__ void k(int *a)\n"
        "{\n"
        "    __shared__ int s[64];\n"
        "    int t = threadIdx.x, v = a[t];\n"
        "    if (a[63] > 10) {\n"
        "        s[t] = v * 2;\n"
        "        __syncthreads();\n"
        "        v = s[63 - t];\n"
        "    } else {\n"
        "        v = -1;\n"
        "    }\n"
        "    a[t] = v + (t < 10 ? 1000 : 0);\n"
        "}\n";
    int want[64];
    for (int i = 0; i < 64; i++)
        want[i] = 2 * (63 - i) + (i < 10 ? 1000 : 0);
    both_ways(src, "k", 64, 64, want);
}

TEST(loops_with_barriers_break_continue_and_different_trip_counts)
{
    static const char src[] =
        "__global__ void k(int *a)\n"
        "{\n"
        "    __shared__ int s[32];\n"
        "    int t = threadIdx.x, acc = 0, j = 0;\n"
        "    s[t] = t;\n"
        "    __syncthreads();\n"
        "    while (__syncthreads_or(j < 8)) {\n" /* every thread goes round alike */
        "        int mine = s[(t + j) % 32];\n"
        "        __syncthreads();\n"
        "        if (j == 2) { j++; continue; }\n"
        "        if (j == 6) break;\n"
        "        acc += mine;\n"
        "        s[t] = mine + 1;\n"
        "        __syncthreads();\n"
        "        j++;\n"
        "    }\n"
        "    a[t] = acc * 100 + j;\n"
        "}\n";
    /* The host's model: the same steps, every thread's before the next step. */
    int s[32], acc[32] = {0}, j[32] = {0}, done[32] = {0}, want[32];
    for (int t = 0; t < 32; t++)
        s[t] = t;
    for (int step = 0; step < 8; step++) {
        int mine[32];
        for (int t = 0; t < 32; t++)
            mine[t] = s[(t + step) % 32];
        for (int t = 0; t < 32; t++) {
            if (done[t])
                continue;
            if (step == 2) {
                j[t]++;
                continue;
            }
            if (step == 6) {
                done[t] = 1;
                continue;
            }
            acc[t] += mine[t];
            s[t] = mine[t] + 1;
            j[t]++;
        }
    }
    for (int t = 0; t < 32; t++)
        want[t] = acc[t] * 100 + j[t];
    both_ways(src, "k", 32, 32, want);
}

TEST(early_returns_arrays_structs_and_modified_parameters_across_barriers)
{
    static const char src[] =
        "struct P { int a, b; };\n"
        "__global__ void k(int *a, int n)\n"
        "{\n"
        "    __shared__ int s[48];\n"
        "    int t = threadIdx.x;\n"
        "    if (t >= 40) return;\n"
        "    int local[3] = {t, 2 * t, 3 * t};\n"
        "    struct P p = {t, -t};\n"
        "    float f = t * 0.5f;\n"
        "    int *where = a + t;\n"
        "    n += t;\n"
        "    s[t] = n;\n"
        "    __syncthreads();\n"
        "    local[1] += s[(t + 1) % 40];\n"
        "    p.b += local[2];\n"
        "    __syncthreads();\n"
        "    *where = local[0] + local[1] + p.a + p.b + (int)(f * 2) + n * 1000;\n"
        "}\n";
    int want[48];
    for (int t = 0; t < 48; t++) {
        if (t >= 40) {
            want[t] = t;
            continue;
        }
        int n = 48 + t, next = 48 + (t + 1) % 40;
        want[t] = t + (2 * t + next) + t + (-t + 3 * t) + t + n * 1000;
    }
    lat_context *ctx = emu_context();
    for (int f = 0; f < 2; f++) {
        lat_kernel *k = kernel(ctx, src, "k", f == 1);
        int buf[48];
        for (int i = 0; i < 48; i++)
            buf[i] = i;
        ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {48}},
                                  LAT_ARGS(lat_arg_inout(buf, sizeof buf), lat_arg_i32(48))));
        for (int i = 0; i < 48; i++)
            ASSERT_MSG(buf[i] == want[i], "%s: buf[%d] = %d, want %d", f ? "fibers" : "regions",
                       i, buf[i], want[i]);
    }
}

TEST(warp_operations_in_conditions_and_declarations)
{
    static const char src[] =
        "__global__ void k(int *a)\n"
        "{\n"
        "    int t = threadIdx.x, lane = t % 32;\n"
        "    int v = a[t] % 7;\n"
        "    unsigned b = __ballot_sync(0xffffffffu, v > 3);\n"
        "    int r = 0;\n"
        "    if (__any_sync(0xffffffffu, v == 6) && lane < 16)\n"
        "        r = __shfl_sync(0x0000ffffu, v, 3);\n"
        "    for (int o = 1; o < 32; o *= 2)\n"
        "        v += __shfl_xor_sync(0xffffffffu, v, o);\n"
        "    a[t] = v * 100000 + (int)(b & 0xffff) * 10 + r;\n"
        "}\n";
    int want[64];
    for (int t = 0; t < 64; t++) {
        int w = t & ~31, sum = 0, any = 0;
        unsigned b = 0;
        for (int l = 0; l < 32; l++) {
            int v = (w + l) % 7;
            sum += v;
            b |= (unsigned)(v > 3) << l;
            any |= v == 6;
        }
        int r = any && t % 32 < 16 ? (w + 3) % 7 : 0;
        want[t] = sum * 100000 + (int)(b & 0xffff) * 10 + r;
    }
    both_ways(src, "k", 64, 64, want);
}

TEST(a_barrier_in_a_branch_some_threads_skip_is_reported)
{
    lat_context *ctx = emu_context();
    static const char src[] =
        "__global__ void k(int *a)\n"
        "{\n"
        "    if (a[threadIdx.x] > 2) {\n"
        "        __syncthreads();\n" /* line 4 */
        "        a[threadIdx.x] = 0;\n"
        "    }\n"
        "    a[threadIdx.x] += 1;\n"
        "}\n";
    lat_kernel *k = kernel(ctx, src, "k", false);
    ASSERT_EQ(mode(k), LAT_EMU_MODE_REGION);
    int buf[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {8}},
                                  LAT_ARGS(lat_arg_inout(buf, sizeof buf))));
    ASSERT_CONTAINS(lat_last_error(), "the __syncthreads at region.cu:4 is reached by thread (3,0,0)");
    ASSERT_CONTAINS(lat_last_error(), "but not by thread (0,0,0)");
    /* Threads that returned before it do not count. */
    static const char ok[] =
        "__global__ void k(int *a)\n"
        "{\n"
        "    if (a[threadIdx.x] <= 2) return;\n"
        "    if (a[0] == 0) {\n"
        "        __syncthreads();\n"
        "        a[threadIdx.x] = 0;\n"
        "    }\n"
        "}\n";
    lat_kernel *k2 = kernel(ctx, ok, "k", false);
    ASSERT_OK(lat_launch_args(k2, &(lat_launch_desc){.grid = {1}, .block = {8}},
                              LAT_ARGS(lat_arg_inout(buf, sizeof buf))));
    for (int i = 0; i < 8; i++)
        ASSERT_EQ(buf[i], i <= 2 ? i : 0);
}

TEST(compile_errors_in_a_region_kernel_name_the_users_line)
{
    lat_context *ctx = emu_context();
    static const char src[] =
        "__global__ void k(int *a)\n"
        "{\n"
        "    int t = threadIdx.x;\n"
        "    __syncthreads();\n"
        "    a[t] = undeclared_thing;\n" /* line 5 */
        "}\n";
    lat_module *mod = NULL;
    ASSERT_STATUS(LAT_ERROR_COMPILE,
                  lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "bad.cu"}, &mod));
    ASSERT_CONTAINS(lat_last_error(), "bad.cu:5:12: error:");
}
