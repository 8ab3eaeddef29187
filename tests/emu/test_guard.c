/* Unchecked launches on the emulator against kernels that crash or never finish: a
 * wild write, a far out-of-bounds read, an integer division by zero, a fiber's stack
 * overflow, and spins on a flag nobody sets (plain, region and fiber kernels; in kernel
 * code, in printf, in atomics) each end the launch with LAT_ERROR_LAUNCH_FAILED naming the
 * kernel, the block and the thread, and the context stays usable. The program's own
 * SIGSEGV handler still gets the faults of host code. */
#include "harness.h"
#include "wild.h"

#include "core.h"
#include "emu/exec/exec.h"

#include <omp.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <stdint.h>
#include <unistd.h>

static lat_context *emu_context(void)
{
    /* Wild pointers reach the kernels: the launch's pointer check would refuse them. */
    return t_context_with(&(lat_context_desc){.backend = LAT_BACKEND_EMU, .check = LAT_CHECK_OFF,
                                               .pointer_check = LAT_POINTER_CHECK_OFF});
}

/* A context whose launches have a deadline of `timeout` (LATTICE_EMU_TIMEOUT). */
static lat_context *emu_context_timeout(const char *timeout)
{
    t_setenv("LATTICE_EMU_TIMEOUT", timeout);
    lat_context *ctx = emu_context();
    t_unsetenv("LATTICE_EMU_TIMEOUT");
    return ctx;
}

static lat_kernel *kernel(lat_context *ctx, const char *src, const char *name)
{
    lat_module *mod = NULL;
    lat_status st = lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "guard.cu"},
                                      &mod);
    ASSERT_MSG(st == LAT_OK, "%s: %s", lat_status_name(st), lat_last_error());
    lat_kernel *k = NULL;
    ASSERT_OK(lat_module_get_kernel(mod, name, &k));
    return k;
}

static int mode_of(const lat_kernel *k)
{
    return ((const lat__emu_kernel *)k->impl)->mode;
}

/* y = a * x + y on n floats, checked: the context still computes after a failure. */
static void saxpy_works(lat_context *ctx)
{
    lat_kernel *k = kernel(ctx,
                           "__global__ void saxpy(float a, const float *x, float *y, int n)\n"
                           "{\n"
                           "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "    if (i < n)\n"
                           "        y[i] = a * x[i] + y[i];\n"
                           "}\n",
                           "saxpy");
    enum { N = 1000 };
    float x[N], y[N], want[N], a = 2.5f;
    int n = N;
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = (float)(N - i);
        want[i] = a * x[i] + y[i];
    }
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {(N + 127) / 128}, .block = {128}},
                              LAT_ARGS(lat_arg_f32(a), lat_arg_in(x, sizeof x),
                                       lat_arg_inout(y, sizeof y), lat_arg_i32(n))));
    for (int i = 0; i < N; i++)
        ASSERT_MSG(y[i] == want[i], "y[%d] = %g, want %g", i, y[i], want[i]);
}

/* ---- the program's own handler (first: lattice installs its handlers at the first
 * launch, and chains to whatever was there) ------------------------------------------------ */

static sigjmp_buf host_jump;
static volatile sig_atomic_t host_armed, host_caught;

static void host_handler(int sig, siginfo_t *info, void *uc)
{
    (void)info;
    (void)uc;
    if (host_armed) {
        host_caught = sig;
        siglongjmp(host_jump, 1);
    }
    signal(sig, SIG_DFL); /* not expected: crash as the program would */
}

TEST(a_fault_in_host_code_still_reaches_the_programs_own_handler)
{
    one_thread_under_valgrind();
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = host_handler;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    ASSERT_EQ(sigaction(SIGSEGV, &sa, &old), 0);
    lat_context *ctx = emu_context();
    saxpy_works(ctx); /* lattice's handlers are installed now */
    struct sigaction now;
    ASSERT_EQ(sigaction(SIGSEGV, NULL, &now), 0);
    ASSERT_TRUE(now.sa_sigaction != host_handler);

    long page = sysconf(_SC_PAGESIZE);
    char *p = mmap(NULL, (size_t)page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_TRUE(p != MAP_FAILED);
    host_caught = 0;
    host_armed = 1;
    if (sigsetjmp(host_jump, 1) == 0) {
        VALGRIND_DISABLE_ERROR_REPORTING;
        *(volatile char *)p = 1;
        host_armed = 0;
        munmap(p, (size_t)page);
        FAIL("writing a PROT_NONE page did not fault");
    }
    VALGRIND_ENABLE_ERROR_REPORTING;
    host_armed = 0;
    munmap(p, (size_t)page);
    ASSERT_EQ(host_caught, SIGSEGV);

    /* And a kernel's fault is still the kernel's. */
    lat_kernel *k = kernel(ctx, "__global__ void wild(int *p) { p[threadIdx.x] = 1; }\n", "wild");
    lat_deviceptr wild = 0x10;
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED,
                  WILD(lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {4}},
                                  (void *[]){&wild})));
    ASSERT_CONTAINS(lat_last_error(), "kernel 'wild' crashed in block (0,0,0)");
    ASSERT_EQ(host_caught, SIGSEGV);
    saxpy_works(ctx);
}

/* ---- faults ------------------------------------------------------------------------------- */

static const char null_src[] =
    "__global__ void nullw(int *out, int bad_block, int bad_thread)\n"
    "{\n"
    "    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;\n"
    "    if (blockIdx.x == bad_block && threadIdx.x == bad_thread) {\n"
    "        int *p = 0;\n"
    "        *p = 1;\n"
    "    }\n"
    "}\n";

TEST(a_null_pointer_write_names_the_kernel_block_and_thread)
{
    one_thread_under_valgrind();
    lat_context *ctx = emu_context();
    lat_kernel *k = kernel(ctx, null_src, "nullw");
    lat_deviceptr out = t_device_copy(ctx, NULL, 8 * 32 * sizeof(int));
    int bb = 3, bt = 17;
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED,
                  WILD(lat_launch(k, &(lat_launch_desc){.grid = {8}, .block = {32}},
                                  (void *[]){&out, &bb, &bt})));
    ASSERT_CONTAINS(lat_last_error(), "kernel 'nullw' crashed in block (3,0,0), thread (17,0,0): "
                                      "segmentation fault at address 0x0 (a wild or "
                                      "out-of-bounds access; LATTICE_CHECK=memcheck");
    saxpy_works(ctx);
}

TEST(every_launch_after_a_fault_still_works_on_every_thread)
{
    /* Twenty faults in a row, on one block (the calling thread) and on many (the OpenMP
     * team): a signal left blocked or a stack left in use would kill the second. */
    one_thread_under_valgrind();
    lat_context *ctx = emu_context();
    lat_kernel *k = kernel(ctx, null_src, "nullw");
    lat_deviceptr out = t_device_copy(ctx, NULL, 64 * 32 * sizeof(int));
    for (int i = 0; i < 20; i++) {
        unsigned grid = i % 2 ? 64 : 1;
        int bb = (int)((unsigned)i * 7 % grid), bt = i;
        ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED,
                      WILD(lat_launch(k, &(lat_launch_desc){.grid = {grid}, .block = {32}},
                                      (void *[]){&out, &bb, &bt})));
        char want[96];
        snprintf(want, sizeof want, "crashed in block (%d,0,0), thread (%d,0,0)", bb, bt);
        ASSERT_CONTAINS(lat_last_error(), want);
        saxpy_works(ctx);
    }
}

TEST(a_far_out_of_bounds_read_names_the_address)
{
    lat_context *ctx = emu_context();
    lat_kernel *k = kernel(ctx,
                           "__global__ void far(float *out, const float *a, long long off)\n"
                           "{\n"
                           "    out[threadIdx.x] = a[threadIdx.x == 9 ? off : threadIdx.x];\n"
                           "}\n",
                           "far");
    lat_deviceptr out = t_device_copy(ctx, NULL, 32 * sizeof(float));
    lat_deviceptr a = t_device_copy(ctx, NULL, 32 * sizeof(float));
    /* Terabytes past the buffer, where nothing is mapped (msync says which). */
    long page = sysconf(_SC_PAGESIZE);
    long long off = 0;
    unsigned long long addr = 0;
    (void)quiet(); /* valgrind reports msync of unmapped memory */
    /* Both directions: device memory may sit near the top of the user address space
     * (its own mappings), where a forward offset leaves the canonical range and the
     * processor reports no address at all. */
    for (int i = 0; i < 14 && !off; i++) {
        long long step = (1ll << (38 + i / 2)) * (i % 2 ? -1 : 1);
        addr = a + (unsigned long long)step * sizeof(float);
        if (addr >= (1ull << 47) || addr < (1ull << 32))
            continue;
        void *pg = (void *)(uintptr_t)(addr & ~(unsigned long long)(page - 1));
        if (msync(pg, (size_t)page, MS_ASYNC) != 0)
            off = step;
    }
    (void)loud(LAT_OK);
    if (!off)
        SKIP("every address tried past the buffer is mapped");
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED,
                  WILD(lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {32}},
                                  (void *[]){&out, &a, &off})));
    char want[160];
    snprintf(want, sizeof want,
             "kernel 'far' crashed in block (0,0,0), thread (9,0,0): segmentation fault at "
             "address %#llx",
             addr);
    ASSERT_CONTAINS(lat_last_error(), want);
    saxpy_works(ctx);
}

TEST(an_integer_division_by_zero_names_the_kernel_block_and_thread)
{
    lat_context *ctx = emu_context();
    /* A divisor from a parameter: TinyCC cannot fold it, so it emits idiv. */
    lat_kernel *k = kernel(ctx,
                           "__global__ void divide(int *out, int d)\n"
                           "{\n"
                           "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "    out[i] = (i + 100) / (threadIdx.x == 6 && blockIdx.x == 2 ? d : 1);\n"
                           "}\n",
                           "divide");
    lat_deviceptr out = t_device_copy(ctx, NULL, 4 * 64 * sizeof(int));
    int d = 0;
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED,
                  lat_launch(k, &(lat_launch_desc){.grid = {4}, .block = {64}},
                             (void *[]){&out, &d}));
    ASSERT_CONTAINS(lat_last_error(), "kernel 'divide' crashed in block (2,0,0), thread (6,0,0): "
                                      "integer division by zero");
    /* With a divisor that is not 0 the same kernel computes. */
    d = 7;
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {4}, .block = {64}}, (void *[]){&out, &d}));
    int got[256];
    ASSERT_OK(lat_memcpy_dtoh(ctx, got, out, sizeof got));
    for (int i = 0; i < 256; i++) {
        int want = (i + 100) / (i == 2 * 64 + 6 ? 7 : 1);
        ASSERT_MSG(got[i] == want, "out[%d] = %d, want %d", i, got[i], want);
    }
}

TEST(a_fault_in_a_library_function_the_kernel_called_is_the_kernels)
{
    lat_context *ctx = emu_context();
    lat_kernel *k = kernel(ctx,
                           "__global__ void atom(int *p)\n"
                           "{\n"
                           "    atomicAdd(p + threadIdx.x, 1);\n"
                           "}\n",
                           "atom");
    lat_deviceptr wild = 0x40;
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED,
                  WILD(lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                                  (void *[]){&wild})));
    ASSERT_CONTAINS(lat_last_error(), "kernel 'atom' crashed in block (0,0,0), thread (0,0,0) in "
                                      "a library function it called: segmentation fault at "
                                      "address 0x40");
    saxpy_works(ctx);
}

TEST(a_kernel_that_allocates_still_has_its_faults_reported)
{
    /* malloc and free are bracketed for the guard (a fault inside them is not the
     * kernel's to recover from); after them, a fault is the kernel's again. */
    lat_context *ctx = emu_context();
    lat_kernel *k = kernel(ctx,
                           "__global__ void alloc(int *out, int *wild)\n"
                           "{\n"
                           "    int *q = (int *)malloc(4 * sizeof(int));\n"
                           "    q[0] = 20 + threadIdx.x;\n"
                           "    out[threadIdx.x] = q[0] * 2;\n"
                           "    free(q);\n"
                           "    if (threadIdx.x == 3)\n"
                           "        *wild = 1;\n"
                           "}\n",
                           "alloc");
    int out[8] = {0};
    lat_deviceptr wild = 0x50;
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED,
                  WILD(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {8}},
                                       LAT_ARGS(lat_arg_inout(out, sizeof out),
                                                lat_arg_ptr(wild)))));
    ASSERT_CONTAINS(lat_last_error(), "kernel 'alloc' crashed in block (0,0,0), thread (3,0,0): "
                                      "segmentation fault at address 0x50");
    lat_deviceptr fine = t_device_copy(ctx, NULL, sizeof(int));
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {8}},
                              LAT_ARGS(lat_arg_inout(out, sizeof out), lat_arg_ptr(fine))));
    for (int i = 0; i < 8; i++)
        ASSERT_MSG(out[i] == 2 * (20 + i), "out[%d] = %d, want %d", i, out[i], 2 * (20 + i));
}

TEST(a_fault_on_a_fiber_and_a_fiber_stack_overflow_are_reported)
{
    lat_context *ctx = emu_context();
    /* Fibers as asked for: a barrier in a device function alone no longer needs them
     * (the helper is inlined into region loops). */
    t_setenv("LATTICE_EMU_FIBERS", "1");
    lat_kernel *k = kernel(ctx,
                           "__device__ void sync(void) { __syncthreads(); }\n"
                           "__device__ int deep(int n)\n"
                           "{\n"
                           "    volatile char pad[512];\n"
                           "    pad[0] = (char)n;\n"
                           "    return n ? deep(n - 1) + pad[0] : 0;\n"
                           "}\n"
                           "__global__ void fib(int *out, int *wild, int depth)\n"
                           "{\n"
                           "    out[threadIdx.x] = threadIdx.x;\n"
                           "    sync();\n"
                           "    if (threadIdx.x == 5)\n"
                           "        out[0] = deep(depth);\n"
                           "    if (threadIdx.x == 7)\n"
                           "        *wild = 1;\n"
                           "    sync();\n"
                           "    out[threadIdx.x] += 1;\n"
                           "}\n",
                           "fib");
    t_unsetenv("LATTICE_EMU_FIBERS");
    ASSERT_EQ(mode_of(k), LAT_EMU_MODE_FIBER);
    lat_deviceptr out = t_device_copy(ctx, NULL, 64 * sizeof(int));
    int host[64];
    lat_deviceptr wild = 0x20;
    int depth = 10;
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED,
                  WILD(lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {64}},
                                  (void *[]){&out, &wild, &depth})));
    ASSERT_CONTAINS(lat_last_error(), "kernel 'fib' crashed in block (0,0,0), thread (7,0,0): "
                                      "segmentation fault at address 0x20");
    /* 1 MiB of frames on a 128 KiB stack. */
    depth = 2000;
    lat_deviceptr fine = out + 63 * sizeof(int); /* thread 7 writes here instead */
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED,
                  WILD(lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {64}},
                                  (void *[]){&out, &fine, &depth})));
    ASSERT_CONTAINS(lat_last_error(), "kernel 'fib' crashed in block (0,0,0), thread (5,0,0): "
                                      "stack overflow");
    /* The same blocks' fibers run again: a correct launch of the kernel computes. */
    depth = 10;
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {64}},
                         (void *[]){&out, &fine, &depth}));
    ASSERT_OK(lat_memcpy_dtoh(ctx, host, out, sizeof host));
    int deep10 = 0;
    for (int n = 10; n > 0; n--)
        deep10 += n;
    ASSERT_EQ(host[0], deep10 + 1);
    for (int i = 1; i < 63; i++)
        ASSERT_MSG(host[i] == i + 1, "out[%d] = %d, want %d", i, host[i], i + 1);
    ASSERT_EQ(host[63], 2); /* thread 7's 1, then thread 63's += 1 */
    saxpy_works(ctx);
}

TEST(a_fault_in_a_stream_launch_is_the_launchs)
{
    one_thread_under_valgrind();
    lat_context *ctx = emu_context();
    lat_stream *s;
    ASSERT_OK(lat_stream_create(ctx, NULL, &s));
    lat_kernel *k = kernel(ctx, null_src, "nullw");
    lat_deviceptr out = t_device_copy(ctx, NULL, 2 * 32 * sizeof(int));
    int bb = 1, bt = 31;
    lat_status st = WILD(lat_launch(
        k, &(lat_launch_desc){.grid = {2}, .block = {32}, .stream = s}, (void *[]){&out, &bb, &bt}));
    if (st == LAT_OK)
        st = lat_stream_synchronize(s);
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, st);
    ASSERT_CONTAINS(lat_last_error(), "kernel 'nullw' crashed in block (1,0,0), thread (31,0,0)");
    lat_stream_destroy(s);
    saxpy_works(ctx);
}

/* ---- hangs -------------------------------------------------------------------------------- */

TEST(lattice_emu_timeout_must_be_a_number_of_seconds)
{
    static const char *const bad[] = {"abc", "-1", "1s", "nan", "1e12", " "};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        t_setenv("LATTICE_EMU_TIMEOUT", bad[i]);
        lat_context *ctx = NULL;
        lat_status st = lat_context_create(
            &(lat_context_desc){.backend = LAT_BACKEND_EMU, .check = LAT_CHECK_OFF,
                                .pointer_check = LAT_POINTER_CHECK_OFF},
            &ctx);
        t_unsetenv("LATTICE_EMU_TIMEOUT");
        if (st == LAT_OK)
            lat_context_destroy(ctx);
        ASSERT_MSG(st == LAT_ERROR_INVALID_VALUE, "LATTICE_EMU_TIMEOUT='%s': %s", bad[i],
                   lat_status_name(st));
        ASSERT_CONTAINS(lat_last_error(), "LATTICE_EMU_TIMEOUT");
    }
    /* 0 turns the deadline off; fractions are fine. */
    saxpy_works(emu_context_timeout("0"));
    saxpy_works(emu_context_timeout("0.25"));
}

static const char spin_src[] =
    "__global__ void spin(volatile int *flag, int *out)\n"
    "{\n"
    "    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;\n"
    "    while (*flag == 0) {\n"
    "    }\n"
    "}\n"
    "__global__ void spin_region(volatile int *flag, int *out)\n"
    "{\n"
    "    __shared__ int s[32];\n"
    "    s[threadIdx.x] = threadIdx.x;\n"
    "    __syncthreads();\n"
    "    out[blockIdx.x * blockDim.x + threadIdx.x] = s[31 - threadIdx.x];\n"
    "    while (*flag == 0) {\n"
    "    }\n"
    "}\n"
    "__device__ void sync(void) { __syncthreads(); }\n"
    "__global__ void spin_fiber(volatile int *flag, int *out)\n"
    "{\n"
    "    sync();\n"
    "    if (threadIdx.x == 3)\n"
    "        while (*flag == 0) {\n"
    "        }\n"
    "    sync();\n"
    "    out[threadIdx.x] = 1;\n"
    "}\n"
    "__global__ void spin_printf(volatile int *flag)\n"
    "{\n"
    "    while (*flag == 0)\n"
    "        printf(\"%s\", \"\");\n"
    "}\n"
    "__global__ void spin_atomic(int *flag)\n"
    "{\n"
    "    while (atomicAdd(flag, 0) == 0) {\n"
    "    }\n"
    "}\n";

/* Launches `name` of spin_src on grid x block threads, expecting the deadline. */
static void ends_at_the_deadline(lat_context *ctx, const char *name, unsigned grid, unsigned block,
                                 int want_mode, const char *want)
{
    lat_kernel *k = kernel(ctx, spin_src, name);
    if (want_mode >= 0)
        ASSERT_EQ(mode_of(k), want_mode);
    int zero = 0;
    lat_deviceptr flag = t_device_copy(ctx, &zero, sizeof zero);
    lat_deviceptr out = t_device_copy(ctx, NULL, grid * block * sizeof(int));
    void *params[] = {&flag, &out};
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED,
                  lat_launch(k, &(lat_launch_desc){.grid = {grid}, .block = {block}}, params));
    char head[160];
    snprintf(head, sizeof head, "kernel '%s' did not finish within ", name);
    ASSERT_CONTAINS(lat_last_error(), head);
    ASSERT_CONTAINS(lat_last_error(), " s (LATTICE_EMU_TIMEOUT): block (");
    ASSERT_CONTAINS(lat_last_error(), want);
    ASSERT_CONTAINS(lat_last_error(), "was still running (a spin on a flag no thread sets? "
                                      "LATTICE_CHECK=synccheck names the line)");
    saxpy_works(ctx);
}

TEST(a_plain_kernel_spinning_on_a_flag_ends_at_its_deadline)
{
    lat_context *ctx = emu_context_timeout("1");
    ends_at_the_deadline(ctx, "spin", 1, 32, LAT_EMU_MODE_PLAIN, "within 1 s");
    /* Several blocks on the OpenMP team: every worker is stopped. */
    ends_at_the_deadline(ctx, "spin", 64, 32, LAT_EMU_MODE_PLAIN, "thread (0,0,0) was");
}

TEST(a_region_kernel_spinning_on_a_flag_ends_at_its_deadline)
{
    lat_context *ctx = emu_context_timeout("0.5");
    ends_at_the_deadline(ctx, "spin_region", 8, 32, LAT_EMU_MODE_REGION, "within 0.5 s");
}

TEST(a_fiber_kernel_spinning_on_a_flag_ends_at_its_deadline)
{
    lat_context *ctx = emu_context_timeout("0.5");
    /* On fibers as asked for (a barrier in a helper alone is inlined into region loops). */
    t_setenv("LATTICE_EMU_FIBERS", "1");
    ends_at_the_deadline(ctx, "spin_fiber", 1, 64, LAT_EMU_MODE_FIBER, "thread (3,0,0) was");
    ends_at_the_deadline(ctx, "spin_fiber", 16, 64, LAT_EMU_MODE_FIBER, "thread (3,0,0) was");
    t_unsetenv("LATTICE_EMU_FIBERS");
}

TEST(a_kernel_spinning_in_printf_or_atomics_ends_at_its_deadline)
{
    lat_context *ctx = emu_context_timeout("0.5");
    ends_at_the_deadline(ctx, "spin_printf", 4, 8, -1, "was still running");
    ends_at_the_deadline(ctx, "spin_atomic", 4, 8, -1, "was still running");
}

TEST(a_child_of_fork_stops_a_spinning_kernel_too)
{
    /* The parent's watchdog thread does not exist in the child: the child starts its own. */
    lat_context *ctx = emu_context_timeout("0.3");
    lat_kernel *k = kernel(ctx, spin_src, "spin");
    int zero = 0, one = 1;
    lat_deviceptr flag = t_device_copy(ctx, &one, sizeof one);
    lat_deviceptr out = t_device_copy(ctx, NULL, 32 * sizeof(int));
    void *params[] = {&flag, &out};
    /* A launch with a deadline in the parent first: its watchdog runs. */
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {32}}, params));
    ASSERT_OK(lat_memcpy_htod(ctx, flag, &zero, sizeof zero));
    fflush(stdout);
    pid_t pid = fork();
    ASSERT_TRUE(pid >= 0);
    if (pid == 0) {
        alarm(30); /* a hang fails the case instead of stalling the suite */
        lat_status st = lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {32}}, params);
        bool ok = st == LAT_ERROR_LAUNCH_FAILED &&
                  strstr(lat_last_error(), "kernel 'spin' did not finish within 0.3 s");
        if (!ok)
            fprintf(stderr, "child: %s: %s\n", lat_status_name(st), lat_last_error());
        _exit(ok ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child ended with status %#x",
               status);
}

TEST(a_child_of_fork_runs_grids_after_the_parent_ran_a_team)
{
    /* libgomp keeps the parent's thread pool in a child of fork() without its threads: a
     * team there waited for ever (Python's multiprocessing forks so). The child runs its
     * grids on its launching thread instead. */
    static const char src[] =
        "__global__ void add(int *x, int v) { x[blockIdx.x * blockDim.x + threadIdx.x] += v; }\n";
    /* A team of more threads than the parent's last (libgomp's child waited for threads
     * past those it was forked with); LATTICE_EMU_THREADS unset leaves the count to
     * OpenMP. */
    int saved_threads = omp_get_max_threads();
    omp_set_num_threads(4);
    lat_context *ctx = emu_context();
    lat_kernel *k = kernel(ctx, src, "add");
    enum { BLOCKS = 256, THREADS = 64, N = BLOCKS * THREADS };
    static int host[N];
    for (int i = 0; i < N; i++)
        host[i] = i;
    lat_deviceptr x = t_device_copy(ctx, host, sizeof host);
    int one = 1, two = 2;
    void *params[] = {&x, &one};
    /* A grid of many blocks in the parent first: it runs on the OpenMP team. */
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {BLOCKS}, .block = {THREADS}}, params));
    fflush(stdout);
    pid_t pid = fork();
    ASSERT_TRUE(pid >= 0);
    if (pid == 0) {
        alarm(30); /* a hang fails the case instead of stalling the suite */
        void *p2[] = {&x, &two};
        lat_status st = lat_launch(k, &(lat_launch_desc){.grid = {BLOCKS}, .block = {THREADS}}, p2);
        if (st == LAT_OK)
            st = lat_memcpy_dtoh(ctx, host, x, sizeof host);
        int bad = st == LAT_OK ? 0 : -1;
        for (int i = 0; st == LAT_OK && i < N; i++)
            bad += host[i] != i + 3;
        if (bad)
            fprintf(stderr, "child: %s: %s (%d wrong)\n", lat_status_name(st), lat_last_error(), bad);
        _exit(bad ? 1 : 0);
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child ended with status %#x",
               status);
    /* The parent's team is whole. */
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {BLOCKS}, .block = {THREADS}}, params));
    ASSERT_OK(lat_memcpy_dtoh(ctx, host, x, sizeof host));
    for (int i = 0; i < N; i++)
        ASSERT_EQ(host[i], i + 2);
    omp_set_num_threads(saved_threads);
}

/* ---- several host threads at once ----------------------------------------------------------- */

typedef struct job {
    lat_context *ctx;
    int which; /* 0 spins, 1 faults, 2 computes */
    int rounds;
    lat_status st[8];
    char msg[8][512];
} job;

static void *run_job(void *p)
{
    job *j = p;
    static const char src[] =
        "__global__ void spin(volatile int *flag) { while (*flag == 0) {} }\n"
        "__global__ void crash(int *p) { p[threadIdx.x] = 1; }\n"
        "__global__ void add(int *x) { x[blockIdx.x * blockDim.x + threadIdx.x] += 1; }\n";
    lat_module *m;
    lat_status st = lat_module_create(j->ctx, &(lat_module_desc){.source = src}, &m);
    if (st != LAT_OK) {
        j->st[0] = st;
        return NULL;
    }
    static const char *const names[] = {"spin", "crash", "add"};
    lat_kernel *k;
    lat_module_get_kernel(m, names[j->which], &k);
    lat_deviceptr d;
    lat_mem_alloc(j->ctx, 4096 * sizeof(int), &d);
    lat_memset_d32(j->ctx, d, 0, 4096);
    lat_deviceptr arg = j->which == 1 ? 0x30 : d;
    if (j->which == 1)
        one_thread_under_valgrind();
    for (int r = 0; r < j->rounds; r++) {
        j->st[r] = j->which == 1
                       ? WILD(lat_launch(k, &(lat_launch_desc){.grid = {16}, .block = {256}},
                                         (void *[]){&arg}))
                       : lat_launch(k, &(lat_launch_desc){.grid = {16}, .block = {256}},
                                    (void *[]){&arg});
        snprintf(j->msg[r], sizeof j->msg[r], "%s", j->st[r] == LAT_OK ? "" : lat_last_error());
    }
    if (j->which == 2) {
        int x[4096];
        lat_memcpy_dtoh(j->ctx, x, d, sizeof x);
        for (int i = 0; i < 4096; i++)
            if (x[i] != j->rounds)
                j->st[0] = LAT_ERROR_INTERNAL;
    }
    return NULL;
}

TEST(launches_on_several_host_threads_each_get_their_own_outcome)
{
    job jobs[3];
    memset(jobs, 0, sizeof jobs);
    jobs[0] = (job){.ctx = emu_context_timeout("0.5"), .which = 0, .rounds = 2};
    jobs[1] = (job){.ctx = emu_context(), .which = 1, .rounds = 8};
    jobs[2] = (job){.ctx = emu_context(), .which = 2, .rounds = 8};
    pthread_t th[3];
    for (int i = 0; i < 3; i++)
        ASSERT_EQ(pthread_create(&th[i], NULL, run_job, &jobs[i]), 0);
    for (int i = 0; i < 3; i++)
        pthread_join(th[i], NULL);
    for (int r = 0; r < 2; r++) {
        ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, jobs[0].st[r]);
        ASSERT_CONTAINS(jobs[0].msg[r], "kernel 'spin' did not finish within 0.5 s");
    }
    for (int r = 0; r < 8; r++) {
        ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, jobs[1].st[r]);
        ASSERT_CONTAINS(jobs[1].msg[r], "kernel 'crash' crashed in block (");
        ASSERT_STATUS(LAT_OK, jobs[2].st[r]);
    }
}
