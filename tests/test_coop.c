/* Cooperative launches (lat_launch_desc.cooperative): every block of the grid resident at
 * once, the grid-wide barrier __lat_grid_sync(), the co-resident limit
 * lat_kernel_max_cooperative_blocks() and the refusal of a grid above it; a grid-syncing
 * kernel launched without the flag is refused; on the emulator a grid barrier some block
 * never reaches fails the launch naming the blocks instead of hanging, and a checked
 * cooperative launch is refused clearly. */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Phase 1: each block sums a stride of the input into partial[block]; grid barrier;
 * phase 2: every block adds all the partials up into total[block]. */
static const char two_phase_src[] =
    "__global__ void two_phase(const float *in, double *partial, double *total, int n)\n"
    "{\n"
    "    __shared__ double s[256];\n"
    "    double acc = 0;\n"
    "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)\n"
    "        acc += in[i];\n"
    "    s[threadIdx.x] = acc;\n"
    "    __syncthreads();\n"
    "    for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {\n"
    "        if (threadIdx.x < k)\n"
    "            s[threadIdx.x] += s[threadIdx.x + k];\n"
    "        __syncthreads();\n"
    "    }\n"
    "    if (threadIdx.x == 0)\n"
    "        partial[blockIdx.x] = s[0];\n"
    "    __lat_grid_sync();\n"
    "    if (threadIdx.x == 0) {\n"
    "        double t = 0;\n"
    "        for (unsigned b = 0; b < gridDim.x; b++)\n"
    "            t += partial[b];\n"
    "        total[blockIdx.x] = t;\n"
    "    }\n"
    "}\n";

/* A context whose launches are not checked whatever LATTICE_CHECK says: checked
 * cooperative launches are refused (the last case), and these are about running them. */
static lat_context *coop_context(void)
{
    return t_context_with(&(lat_context_desc){.check = LAT_CHECK_OFF});
}

static unsigned limit_for(lat_kernel *k, unsigned threads, size_t shared)
{
    unsigned n = 0;
    ASSERT_OK(lat_kernel_max_cooperative_blocks(k, threads, shared, &n));
    ASSERT_GT(n, 0);
    return n;
}

TEST(a_two_phase_kernel_sees_every_blocks_partial_sum_after_the_grid_barrier)
{
    lat_context *ctx = coop_context();
    lat_kernel *k = t_kernel(ctx, two_phase_src, "two_phase");
    enum { N = 100000, B = 256 };
    unsigned g = limit_for(k, B, 0);
    if (g > 64)
        g = 64;
    float *in = t_calloc(N, sizeof *in);
    t_rand_floats(in, N, -1.0f, 1.0f);
    double want = 0;
    for (int i = 0; i < N; i++)
        want += in[i];
    double *partial = t_calloc(g, sizeof *partial), *total = t_calloc(g, sizeof *total);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {g}, .block = {B}, .cooperative = 1},
                              LAT_ARGS(lat_arg_in(in, N * sizeof *in),
                                       lat_arg_out(partial, g * sizeof *partial),
                                       lat_arg_out(total, g * sizeof *total), lat_arg_i32(N))));
    double sum = 0;
    for (unsigned b = 0; b < g; b++)
        sum += partial[b];
    ASSERT_CLOSE(sum, want, 1e-9, 1e-9);
    for (unsigned b = 0; b < g; b++)
        ASSERT_MSG(t_close(total[b], want, 1e-9, 1e-9), "block %u of %u saw %.17g, want %.17g",
                   b, g, total[b], want);
}

/* Rounds of a relay through a grid barrier: in round r every block reads its neighbours'
 * values of the round before (double-buffered), so a barrier that let one block run ahead
 * or hid a write shows. */
static const char relay_src[] =
    "__device__ void grid_barrier(void) { __lat_grid_sync(); }\n"
    "__global__ void relay(double *buf, int rounds)\n"
    "{\n"
    "    unsigned g = gridDim.x * gridDim.y, b = blockIdx.y * gridDim.x + blockIdx.x;\n"
    "    for (int r = 0; r < rounds; r++) {\n"
    "        const double *from = buf + (r % 2) * g;\n"
    "        double *to = buf + ((r + 1) % 2) * g;\n"
    "        if (threadIdx.x == 0 && threadIdx.y == 0)\n"
    "            to[b] = 0.5 * from[(b + 1) % g] + 0.25 * from[(b + g - 1) % g] + r;\n"
    "        grid_barrier();\n"
    "    }\n"
    "}\n";

TEST(a_grid_barrier_in_a_loop_through_a_device_function_orders_every_round)
{
    lat_context *ctx = coop_context();
    lat_kernel *k = t_kernel(ctx, relay_src, "relay");
    unsigned limit = limit_for(k, 64, 0);
    unsigned gx = limit >= 12 ? 4 : 1, gy = limit >= 12 ? 3 : limit;
    unsigned g = gx * gy;
    enum { ROUNDS = 25 };
    double *host = t_calloc(2 * g, sizeof *host), *want = t_calloc(2 * g, sizeof *want);
    for (unsigned b = 0; b < g; b++)
        host[b] = want[b] = t_rand_double(-10, 10);
    for (int r = 0; r < ROUNDS; r++) {
        const double *from = want + (r % 2) * g;
        double *to = want + ((r + 1) % 2) * g;
        for (unsigned b = 0; b < g; b++)
            to[b] = 0.5 * from[(b + 1) % g] + 0.25 * from[(b + g - 1) % g] + r;
    }
    ASSERT_OK(lat_launch_args(k,
                              &(lat_launch_desc){.grid = {gx, gy}, .block = {8, 8},
                                                 .cooperative = 1},
                              LAT_ARGS(lat_arg_inout(host, 2 * g * sizeof *host),
                                       lat_arg_i32(ROUNDS))));
    const double *got = host + (ROUNDS % 2) * g, *exp = want + (ROUNDS % 2) * g;
    for (unsigned b = 0; b < g; b++)
        ASSERT_MSG(t_close(got[b], exp[b], 1e-12, 1e-12), "block %u: %.17g, want %.17g", b,
                   got[b], exp[b]);
}

/* Every block counts itself in, waits at the grid barrier, and then finds the count
 * complete. */
static const char count_src[] =
    "__global__ void count_in(unsigned *count, unsigned *seen)\n"
    "{\n"
    "    if (threadIdx.x == 0)\n"
    "        atomicAdd(count, 1u);\n"
    "    __lat_grid_sync();\n"
    "    if (threadIdx.x == 0)\n"
    "        seen[blockIdx.x] = *(volatile unsigned *)count;\n"
    "}\n";

TEST(a_grid_at_the_limit_runs_and_one_block_more_is_refused_naming_both)
{
    lat_context *ctx = coop_context();
    lat_kernel *k = t_kernel(ctx, count_src, "count_in");
    enum { B = 64 };
    unsigned limit = limit_for(k, B, 0);
    unsigned count = 0;
    unsigned *seen = t_calloc(limit, sizeof *seen);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {limit}, .block = {B}, .cooperative = 1},
                              LAT_ARGS(lat_arg_inout(&count, sizeof count),
                                       lat_arg_out(seen, limit * sizeof *seen))));
    ASSERT_EQ(count, limit);
    for (unsigned b = 0; b < limit; b++)
        ASSERT_MSG(seen[b] == limit, "block %u saw %u blocks arrived, want %u", b, seen[b], limit);

    lat_deviceptr d = t_device_copy(ctx, t_calloc(limit + 1, sizeof(unsigned)), (limit + 1) * sizeof(unsigned));
    void *params[] = {&d, &d};
    ASSERT_STATUS(LAT_ERROR_INVALID_DIMENSIONS,
                  lat_launch(k, &(lat_launch_desc){.grid = {limit + 1}, .block = {B}, .cooperative = 1},
                             params));
    char want[128];
    snprintf(want, sizeof want, "a cooperative grid of %u blocks", limit + 1);
    ASSERT_CONTAINS(lat_last_error(), want);
    snprintf(want, sizeof want, "at most %u blocks of %d threads", limit, B);
    ASSERT_CONTAINS(lat_last_error(), want);
    ASSERT_CONTAINS(lat_last_error(), "count_in");
    /* The same grid in two dimensions counts the same. */
    ASSERT_STATUS(LAT_ERROR_INVALID_DIMENSIONS,
                  lat_launch(k, &(lat_launch_desc){.grid = {limit + 1, 2}, .block = {B}, .cooperative = 1},
                             params));
}

static const char hidden_sync_src[] =
    "__device__ void phase_end(void) { __lat_grid_sync(); }\n"
    "__device__ void step(int *p) { p[blockIdx.x * blockDim.x + threadIdx.x] += 1; phase_end(); }\n"
    "__global__ void direct(int *p) { p[blockIdx.x * blockDim.x + threadIdx.x] = 1; __lat_grid_sync(); }\n"
    "__global__ void indirect(int *p) { step(p); }\n"
    "__global__ void plain(int *p) { p[threadIdx.x] = 2; }\n";

/* vm.max_map_count: the emulator's fiber kernels keep their cooperative grids' threads
 * within a quarter of it (two mappings a stack). */
static unsigned long long max_maps(void)
{
    unsigned long long maps = 65530;
    FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
    if (f) {
        if (fscanf(f, "%llu", &maps) != 1 || maps < 1024)
            maps = 65530;
        fclose(f);
    }
    return maps;
}

TEST(the_cooperative_limit_follows_the_block_size_and_checks_its_arguments)
{
    lat_context *ctx = coop_context();
    lat_kernel *k = t_kernel(ctx, count_src, "count_in");
    lat_device_info info;
    ASSERT_OK(lat_context_device_info(ctx, &info));
    unsigned small = limit_for(k, 32, 0), large = limit_for(k, 1024, 0);
    ASSERT_GE(small, large);
    if (lat_context_backend(ctx) == LAT_BACKEND_EMU) {
        /* The emulated device: 32 blocks and 64 warps per multiprocessor. */
        unsigned mp = (unsigned)info.multiprocessor_count;
        lat_kernel *plain = t_kernel(ctx, hidden_sync_src, "plain");
        ASSERT_EQ(limit_for(plain, 32, 0), 32 * mp);
        ASSERT_EQ(limit_for(plain, 1024, 0), 2 * mp);
        ASSERT_EQ(limit_for(plain, 33, 0), 32 * mp);
        ASSERT_EQ(limit_for(plain, 100, 0), 16 * mp);
        /* A fiber kernel's threads are also held within the process's memory mappings. */
        unsigned long long fibers = max_maps() / 4;
        ASSERT_EQ(small, 32 * mp < fibers / 32 ? 32 * mp : fibers / 32);
        ASSERT_EQ(large, 2 * mp < fibers / 1024 ? 2 * mp : fibers / 1024);
    }
    unsigned n = 7;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_kernel_max_cooperative_blocks(NULL, 32, 0, &n));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_kernel_max_cooperative_blocks(k, 32, 0, NULL));
    ASSERT_STATUS(LAT_ERROR_INVALID_DIMENSIONS, lat_kernel_max_cooperative_blocks(k, 0, 0, &n));
    ASSERT_EQ(n, 0);
    ASSERT_STATUS(LAT_ERROR_INVALID_DIMENSIONS,
                  lat_kernel_max_cooperative_blocks(k, (unsigned)info.max_threads_per_block + 1, 0, &n));
    ASSERT_CONTAINS(lat_last_error(), "count_in");
    ASSERT_STATUS(LAT_ERROR_SHARED_MEMORY,
                  lat_kernel_max_cooperative_blocks(k, 32, info.shared_memory_per_block_optin + 1, &n));
}

TEST(a_kernel_that_can_reach_the_grid_barrier_needs_a_cooperative_launch)
{
    lat_context *ctx = coop_context();
    lat_deviceptr d = t_device_copy(ctx, t_calloc(64, sizeof(int)), 64 * sizeof(int));
    void *params[] = {&d};
    static const char *const names[] = {"direct", "indirect"};
    for (int i = 0; i < 2; i++) {
        lat_kernel *k = t_kernel(ctx, hidden_sync_src, names[i]);
        ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                      lat_launch(k, &(lat_launch_desc){.grid = {2}, .block = {32}}, params));
        ASSERT_CONTAINS(lat_last_error(), names[i]);
        ASSERT_CONTAINS(lat_last_error(), "__lat_grid_sync");
        ASSERT_CONTAINS(lat_last_error(), "lat_launch_desc.cooperative");
        ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                      lat_launch_args(k, &(lat_launch_desc){.grid = {2}, .block = {32}},
                                      LAT_ARGS(lat_arg_ptr(d))));
        ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {2}, .block = {32}, .cooperative = 1},
                             params));
    }
    /* A kernel without it launches either way. */
    lat_kernel *plain = t_kernel(ctx, hidden_sync_src, "plain");
    ASSERT_OK(lat_launch(plain, &(lat_launch_desc){.grid = {2}, .block = {32}}, params));
    ASSERT_OK(lat_launch(plain, &(lat_launch_desc){.grid = {2}, .block = {32}, .cooperative = 1},
                         params));
    ASSERT_OK(lat_context_synchronize(ctx));
}

/* The last block releases the others, which spin on a flag: only blocks that are all
 * resident at once can finish (an ordinary launch may run block 0 to its end first). */
static const char spin_src[] =
    "__global__ void handshake(volatile int *flag, int *out)\n"
    "{\n"
    "    if (blockIdx.x == gridDim.x - 1) {\n"
    "        if (threadIdx.x == 0) {\n"
    "            __threadfence();\n"
    "            atomicExch((int *)flag, 1);\n"
    "        }\n"
    "    } else if (threadIdx.x == 0) {\n"
    "        while (*flag == 0)\n"
    "            ;\n"
    "    }\n"
    "    out[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x + 1;\n"
    "}\n";

TEST(the_blocks_of_a_cooperative_grid_may_wait_for_each_other_without_the_barrier)
{
    t_setenv("LATTICE_EMU_TIMEOUT", "20"); /* a failure of the guarantee fails, not hangs */
    lat_context *ctx = coop_context();
    t_unsetenv("LATTICE_EMU_TIMEOUT");
    lat_kernel *k = t_kernel(ctx, spin_src, "handshake");
    enum { B = 32 };
    unsigned g = limit_for(k, B, 0);
    if (g > 16)
        g = 16;
    int flag = 0;
    int *out = t_calloc((size_t)g * B, sizeof *out);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {g}, .block = {B}, .cooperative = 1},
                              LAT_ARGS(lat_arg_inout(&flag, sizeof flag),
                                       lat_arg_out(out, (size_t)g * B * sizeof *out))));
    ASSERT_EQ(flag, 1);
    for (unsigned i = 0; i < g * B; i++)
        ASSERT_MSG(out[i] == (int)(i / B + 1), "out[%u] = %d", i, out[i]);
}

static const char stream_src[] =
    "__global__ void scale_after(float *x, float *y, float a)\n"
    "{\n"
    "    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    y[i] = a * x[i];\n"
    "    __lat_grid_sync();\n"
    "    unsigned n = gridDim.x * blockDim.x;\n"
    "    x[i] = y[n - 1 - i];\n"
    "}\n";

TEST(a_cooperative_launch_on_a_stream_runs_in_its_order)
{
    lat_context *ctx = coop_context();
    lat_kernel *k = t_kernel(ctx, stream_src, "scale_after");
    enum { B = 32 };
    unsigned g = limit_for(k, B, 0);
    if (g > 8)
        g = 8;
    size_t n = (size_t)g * B;
    float *x = t_calloc(n, sizeof *x), *got = t_calloc(n, sizeof *got);
    t_rand_floats(x, n, -4, 4);
    lat_deviceptr dx = t_device_copy(ctx, x, n * sizeof *x), dy = t_device_copy(ctx, NULL, n * sizeof *x);
    lat_stream *s;
    ASSERT_OK(lat_stream_create(ctx, NULL, &s));
    float a = 1.5f;
    void *params[] = {&dx, &dy, &a};
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {g}, .block = {B}, .stream = s,
                                               .cooperative = 1},
                         params));
    ASSERT_OK(lat_stream_synchronize(s));
    ASSERT_OK(lat_memcpy_dtoh(ctx, got, dx, n * sizeof *got));
    for (size_t i = 0; i < n; i++)
        ASSERT_MSG(got[i] == a * x[n - 1 - i], "x[%zu] = %g, want %g", i, got[i], a * x[n - 1 - i]);
    lat_stream_destroy(s);
}

/* ---- the emulator's reports -------------------------------------------------------------- */

static lat_context *emu_context(const char *why)
{
    if (t_backend() != LAT_BACKEND_EMU)
        SKIP("%s", why);
    t_setenv("LATTICE_EMU_TIMEOUT", "20"); /* a hang is a failure of the test, not a hang */
    lat_context *ctx = coop_context();
    t_unsetenv("LATTICE_EMU_TIMEOUT");
    return ctx;
}

static const char diverge_src[] =
    "__global__ void skips(int *p)\n"
    "{\n"
    "    if (blockIdx.x == 2)\n"
    "        return;\n"
    "    p[blockIdx.x] = 1;\n"
    "    __lat_grid_sync();\n"
    "    p[blockIdx.x] = 2;\n"
    "}\n";

TEST(a_grid_barrier_a_block_never_reaches_fails_the_launch_naming_the_blocks)
{
    lat_context *ctx = emu_context("a grid barrier a block skips hangs a GPU for good: the "
                                   "emulator's report is tested in the emu suite");
    lat_kernel *k = t_kernel(ctx, diverge_src, "skips");
    lat_deviceptr d = t_device_copy(ctx, t_calloc(8, sizeof(int)), 8 * sizeof(int));
    void *params[] = {&d};
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED,
                  lat_launch(k, &(lat_launch_desc){.grid = {4}, .block = {32}, .cooperative = 1},
                             params));
    const char *e = lat_last_error();
    ASSERT_CONTAINS(e, "kernel 'skips' can never finish");
    ASSERT_CONTAINS(e, "other blocks of its cooperative grid of 4 wait in __lat_grid_sync at skips.cu:6");
    ASSERT_CONTAINS(e, "block (2,0,0) finished without reaching");
    /* The context stays usable. */
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {2}, .block = {32}, .cooperative = 1},
                         params));
    int got[2];
    ASSERT_OK(lat_memcpy_dtoh(ctx, got, d, sizeof got));
    ASSERT_EQ(got[0], 2);
    ASSERT_EQ(got[1], 2);
}

static const char half_block_src[] =
    "__global__ void half(int *p)\n"
    "{\n"
    "    if (threadIdx.x >= 16)\n"
    "        return;\n"
    "    __lat_grid_sync();\n"
    "    p[blockIdx.x * 16 + threadIdx.x] = 3;\n"
    "}\n";

TEST(threads_that_have_exited_count_as_arrived_at_the_grid_barrier)
{
    lat_context *ctx = coop_context();
    lat_kernel *k = t_kernel(ctx, half_block_src, "half");
    int got[3 * 16];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {3}, .block = {32}, .cooperative = 1},
                              LAT_ARGS(lat_arg_out(got, sizeof got))));
    for (int i = 0; i < 3 * 16; i++)
        ASSERT_EQ(got[i], 3);
}

static const char trap_src[] =
    "__global__ void trapping(int *p)\n"
    "{\n"
    "    if (blockIdx.x == 1 && threadIdx.x == 5)\n"
    "        assert(p[0] == 12345);\n"
    "    __lat_grid_sync();\n"
    "    p[blockIdx.x] = 1;\n"
    "}\n";

TEST(a_failed_assert_in_one_block_stops_the_blocks_waiting_at_the_grid_barrier)
{
    lat_context *ctx = emu_context("a device-side assert loses the GPU's context; the "
                                   "emulator's report is tested in the emu suite");
    lat_kernel *k = t_kernel(ctx, trap_src, "trapping");
    lat_deviceptr d = t_device_copy(ctx, t_calloc(8, sizeof(int)), 8 * sizeof(int));
    void *params[] = {&d};
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED,
                  lat_launch(k, &(lat_launch_desc){.grid = {4}, .block = {32}, .cooperative = 1},
                             params));
    ASSERT_CONTAINS(lat_last_error(), "trapping.cu:4: kernel 'trapping' trapped in block (1,0,0), thread (5,0,0)");
}

static const char spin_forever_src[] =
    "__global__ void stuck(volatile int *p)\n"
    "{\n"
    "    if (blockIdx.x == 0 && threadIdx.x == 0)\n"
    "        while (p[0] == 0)\n"
    "            ;\n"
    "    __lat_grid_sync();\n"
    "}\n";

TEST(a_block_spinning_while_the_others_wait_is_stopped_by_the_watchdog)
{
    if (t_backend() != LAT_BACKEND_EMU)
        SKIP("a kernel that never finishes hangs a GPU: the emulator's watchdog is tested in "
             "the emu suite");
    t_setenv("LATTICE_EMU_TIMEOUT", "0.3");
    lat_context *ctx = coop_context();
    t_unsetenv("LATTICE_EMU_TIMEOUT");
    lat_kernel *k = t_kernel(ctx, spin_forever_src, "stuck");
    int zero = 0;
    lat_deviceptr d = t_device_copy(ctx, &zero, sizeof zero);
    void *params[] = {&d};
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED,
                  lat_launch(k, &(lat_launch_desc){.grid = {3}, .block = {32}, .cooperative = 1},
                             params));
    ASSERT_CONTAINS(lat_last_error(), "kernel 'stuck' did not finish within 0.3 s");
    ASSERT_CONTAINS(lat_last_error(), "block (0,0,0), thread (0,0,0) was still running");
}

TEST(a_checked_cooperative_launch_is_refused_clearly)
{
    if (t_backend() != LAT_BACKEND_EMU)
        SKIP("the checks (lattice/check.h) are the emulator's");
    lat_context *ctx = t_context_with(&(lat_context_desc){.check = LAT_CHECK_MEMCHECK});
    lat_kernel *k = t_kernel(ctx, two_phase_src, "two_phase");
    lat_deviceptr d = t_device_copy(ctx, t_calloc(1024, 1), 1024);
    int n = 0;
    void *params[] = {&d, &d, &d, &n};
    ASSERT_STATUS(LAT_ERROR_UNSUPPORTED,
                  lat_launch(k, &(lat_launch_desc){.grid = {2}, .block = {256}, .cooperative = 1},
                             params));
    ASSERT_CONTAINS(lat_last_error(), "kernel 'two_phase': a cooperative launch cannot be checked");
    /* The context's other launches are checked as usual. */
    lat_kernel *plain = t_kernel(ctx, hidden_sync_src, "plain");
    ASSERT_OK(lat_launch(plain, &(lat_launch_desc){.grid = {1}, .block = {32}}, (void *[]){&d}));
}
