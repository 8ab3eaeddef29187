/* lat_interrupt() (issue 40, item 8): a launch that would run for ever stops with
 * LAT_ERROR_INTERRUPTED, whatever runs its threads (region loops, barriers, fibers, the
 * checks, a cooperative grid, a grid of countless blocks), called from another thread or
 * from a signal handler; the context then runs the next kernel correctly, and an
 * interrupt while nothing runs changes nothing.
 *
 * The contexts have no deadline (LATTICE_EMU_TIMEOUT=0, the checks' a day): only the
 * interrupt can end these kernels, so a broken interrupt hangs the case until meson's
 * time-out fails it. No case measures time. */
#include "harness.h"
#include "lattice/check.h"
#include "lattice/driver.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static void unset_timeout(void)
{
    t_unsetenv("LATTICE_EMU_TIMEOUT");
    t_unsetenv("LATTICE_EMU_FIBERS");
}

/* An emulator context whose launches have no deadline. */
static lat_context *endless_context(unsigned check)
{
    lat_backend_kind k = t_require_backend();
    if (k != LAT_BACKEND_EMU)
        SKIP("about the emulator's launches (this suite runs %s)", lat_backend_name(k));
    t_setenv("LATTICE_EMU_TIMEOUT", "0");
    t_defer(unset_timeout);
    lat_context *ctx = t_context_with(&(lat_context_desc){.backend = LAT_BACKEND_EMU,
                                                          .check = check ? check : LAT_CHECK_OFF});
    if (check)
        ASSERT_OK(lat_check_configure(ctx, &(lat_check_options){.timeout_s = 86400}));
    return ctx;
}

/* ---- interrupting from a thread, or from a signal handler ------------------------------- */

static atomic_int launch_done;

/* Interrupts every 20 ms until the launch has returned: the first may come before the
 * launch has begun, which it must not see. */
static void *interrupter(void *arg)
{
    (void)arg;
    while (!atomic_load(&launch_done)) {
        usleep(20000);
        lat_interrupt();
    }
    return NULL;
}

static lat_status launch_interrupted(lat_kernel *k, lat_launch_desc desc, void **params)
{
    atomic_store(&launch_done, 0);
    pthread_t th;
    ASSERT_EQ(pthread_create(&th, NULL, interrupter, NULL), 0);
    lat_status st = lat_launch(k, &desc, params);
    atomic_store(&launch_done, 1);
    pthread_join(th, NULL);
    return st;
}

static void on_alarm(int sig)
{
    (void)sig;
    lat_interrupt();
}

/* The same, lat_interrupt() called by a SIGALRM handler every 20 ms (on whichever thread
 * the signal finds: the host's or a worker running kernel code). */
static lat_status launch_under_alarm(lat_kernel *k, lat_launch_desc desc, void **params)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    ASSERT_EQ(sigaction(SIGALRM, &sa, NULL), 0);
    struct itimerval every = {{0, 20000}, {0, 20000}}, off = {{0, 0}, {0, 0}};
    ASSERT_EQ(setitimer(ITIMER_REAL, &every, NULL), 0);
    lat_status st = lat_launch(k, &desc, params);
    setitimer(ITIMER_REAL, &off, NULL);
    /* Ignored, not back to the default action: a SIGALRM raised before the timer stopped
     * may still be pending (valgrind delivers signals late), and would end the process. */
    sa.sa_handler = SIG_IGN;
    sigaction(SIGALRM, &sa, NULL);
    return st;
}

/* The context computes a kernel of random inputs right after the interrupted launch. */
static void computes_correctly(lat_context *ctx)
{
    enum { N = 1000 };
    lat_kernel *k = t_kernel(ctx,
                             "__global__ void axpy(float a, const float *x, float *y, int n)\n"
                             "{ int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                             "  if (i < n) y[i] = a * x[i] + y[i]; }\n",
                             "axpy");
    float *x = t_calloc(N, sizeof *x), *y = t_calloc(N, sizeof *y), *want = t_calloc(N, sizeof *want);
    t_rand_floats(x, N, -10, 10);
    t_rand_floats(y, N, -10, 10);
    float a = (float)t_rand_double(-2, 2);
    for (int i = 0; i < N; i++)
        want[i] = a * x[i] + y[i];
    int n = N;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {(N + 127) / 128}, .block = {128}},
                              LAT_ARGS(lat_arg_f32(a), lat_arg_in(x, N * sizeof *x),
                                       lat_arg_inout(y, N * sizeof *y), lat_arg_i32(n))));
    for (int i = 0; i < N; i++)
        ASSERT_CLOSE(y[i], want[i], 1e-6, 1e-6);
}

static void was_interrupted(lat_status st, const char *kernel)
{
    ASSERT_STATUS(LAT_ERROR_INTERRUPTED, st);
    ASSERT_CONTAINS(lat_last_error(), kernel);
    ASSERT_CONTAINS(lat_last_error(), "interrupted");
}

/* ---- kernels that never end ------------------------------------------------------------- */

/* Spins on a flag nobody sets: kernel code alone, no barrier, no call. */
static const char spin_src[] =
    "__global__ void spin(volatile int *flag, int *out)\n"
    "{ int n = 0; while (*flag == 0) n++; out[threadIdx.x] = n; }\n";

/* Goes through barriers for ever (n is huge): region loops, or fibers. */
static const char barrier_src[] =
    "__global__ void tiles(int *a, int n)\n"
    "{ __shared__ int s[64]; int acc = 0;\n"
    "  for (int k = 0; k < n; k++) { s[threadIdx.x] = a[k % 64] + k; __syncthreads();\n"
    "    acc += s[63 - threadIdx.x]; __syncthreads(); if (k == n - 1) k = 0; }\n"
    "  a[threadIdx.x] = acc; }\n";

static lat_status run_spin(lat_context *ctx, int alarm_signal)
{
    lat_kernel *k = t_kernel(ctx, spin_src, "spin");
    lat_deviceptr flag = t_device_copy(ctx, &(int){0}, sizeof(int));
    lat_deviceptr out = t_device_copy(ctx, NULL, 64 * sizeof(int));
    void *params[] = {&flag, &out};
    lat_launch_desc d = {.grid = {8}, .block = {64}};
    return alarm_signal ? launch_under_alarm(k, d, params) : launch_interrupted(k, d, params);
}

static lat_status run_barriers(lat_context *ctx)
{
    lat_kernel *k = t_kernel(ctx, barrier_src, "tiles");
    lat_deviceptr a = t_device_copy(ctx, NULL, 64 * sizeof(int));
    int n = 1 << 30;
    void *params[] = {&a, &n};
    return launch_interrupted(k, (lat_launch_desc){.grid = {4}, .block = {64}}, params);
}

TEST(a_kernel_spinning_for_ever_is_interrupted)
{
    lat_context *ctx = endless_context(0);
    was_interrupted(run_spin(ctx, 0), "spin");
    computes_correctly(ctx);
}

TEST(lat_interrupt_from_a_signal_handler_interrupts_the_launch)
{
    lat_context *ctx = endless_context(0);
    was_interrupted(run_spin(ctx, 1), "spin");
    computes_correctly(ctx);
}

TEST(a_kernel_looping_through_barriers_is_interrupted)
{
    lat_context *ctx = endless_context(0);
    was_interrupted(run_barriers(ctx), "tiles");
    computes_correctly(ctx);
}

TEST(a_kernel_on_fibers_looping_through_barriers_is_interrupted)
{
    lat_context *ctx = endless_context(0);
    t_setenv("LATTICE_EMU_FIBERS", "1"); /* read as the module compiles */
    lat_kernel *k = t_kernel(ctx, barrier_src, "tiles");
    t_unsetenv("LATTICE_EMU_FIBERS");
    char path[256];
    lat_kernel_describe(k, path, sizeof path);
    ASSERT_CONTAINS(path, "fibers");
    lat_deviceptr a = t_device_copy(ctx, NULL, 64 * sizeof(int));
    int n = 1 << 30;
    void *params[] = {&a, &n};
    was_interrupted(launch_interrupted(k, (lat_launch_desc){.grid = {4}, .block = {64}}, params),
                    "tiles");
    computes_correctly(ctx);
}

/* The checks report a spin without progress as a hang of their own after a second, which
 * on a loaded machine (valgrind's) can come before the interrupt does: this kernel writes as
 * it spins, so that only the interrupt can end it. */
TEST(a_checked_kernel_spinning_for_ever_is_interrupted)
{
    lat_context *ctx = endless_context(LAT_CHECK_MEMCHECK);
    lat_kernel *k = t_kernel(ctx,
                             "__global__ void spin(volatile int *flag, int *out)\n"
                             "{ int n = 0; while (*flag == 0) out[threadIdx.x] = ++n; }\n",
                             "spin");
    lat_deviceptr flag = t_device_copy(ctx, &(int){0}, sizeof(int));
    lat_deviceptr out = t_device_copy(ctx, NULL, 64 * sizeof(int));
    void *params[] = {&flag, &out};
    was_interrupted(launch_interrupted(k, (lat_launch_desc){.grid = {8}, .block = {64}}, params),
                    "spin");
    computes_correctly(ctx);
}

TEST(a_checked_kernel_looping_through_barriers_is_interrupted)
{
    lat_context *ctx = endless_context(LAT_CHECK_MEMCHECK);
    was_interrupted(run_barriers(ctx), "tiles");
    computes_correctly(ctx);
}

TEST(a_grid_of_countless_blocks_is_interrupted_between_blocks)
{
    lat_context *ctx = endless_context(0);
    lat_kernel *k = t_kernel(ctx, "__global__ void empty() {}\n", "empty");
    was_interrupted(launch_interrupted(k, (lat_launch_desc){.grid = {2147483647u, 65535, 65535},
                                                            .block = {1}}, NULL),
                    "empty");
    computes_correctly(ctx);
}

TEST(a_cooperative_grid_spinning_for_ever_is_interrupted)
{
    lat_context *ctx = endless_context(0);
    lat_kernel *k = t_kernel(ctx, spin_src, "spin");
    lat_deviceptr flag = t_device_copy(ctx, &(int){0}, sizeof(int));
    lat_deviceptr out = t_device_copy(ctx, NULL, 64 * sizeof(int));
    void *params[] = {&flag, &out};
    was_interrupted(launch_interrupted(k, (lat_launch_desc){.grid = {2}, .block = {32},
                                                            .cooperative = 1}, params),
                    "spin");
    computes_correctly(ctx);
}

TEST(an_interrupt_while_nothing_runs_changes_nothing)
{
    lat_context *ctx = endless_context(0);
    lat_interrupt();
    computes_correctly(ctx);
    lat_interrupt();
    lat_interrupt();
    computes_correctly(ctx);
}

/* ---- a GPU ------------------------------------------------------------------------------ */

/* A GPU kernel cannot be stopped, but a wait for it returns: the kernel (about two
 * seconds of clock64()) runs on, and the next wait waits for it. */
TEST(a_wait_for_a_gpu_kernel_is_interrupted_and_the_kernel_runs_on)
{
    lat_backend_kind kind = t_require_backend();
    if (kind != LAT_BACKEND_CUDA)
        SKIP("about a GPU's waits (this suite runs %s)", lat_backend_name(kind));
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx,
                             "__global__ void slow(long long cycles, int *out, int v)\n"
                             "{ long long t0 = clock64(); while (clock64() - t0 < cycles) ;\n"
                             "  out[threadIdx.x] = v + threadIdx.x; }\n",
                             "slow");
    lat_deviceptr out = t_device_copy(ctx, NULL, 32 * sizeof(int));
    int v = (int)(t_rand_u32() % 1000);
    long long cycles = 4000000000LL;
    void *params[] = {&cycles, &out, &v};
    for (int wait = 0; wait < 3; wait++) {
        lat_stream *s = NULL;
        if (wait > 0)
            ASSERT_OK(lat_stream_create(ctx, &(lat_stream_desc){0}, &s));
        ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {32}, .stream = s},
                             params));
        lat_event *e = NULL;
        if (wait == 2) {
            ASSERT_OK(lat_event_create(ctx, &(lat_event_desc){0}, &e));
            ASSERT_OK(lat_event_record(e, s));
        }
        atomic_store(&launch_done, 0);
        pthread_t th;
        ASSERT_EQ(pthread_create(&th, NULL, interrupter, NULL), 0);
        lat_status st = wait == 0   ? lat_context_synchronize(ctx)
                        : wait == 1 ? lat_stream_synchronize(s)
                                    : lat_event_synchronize(e);
        atomic_store(&launch_done, 1);
        pthread_join(th, NULL);
        ASSERT_STATUS(LAT_ERROR_INTERRUPTED, st);
        ASSERT_CONTAINS(lat_last_error(), "interrupted");
        ASSERT_OK(lat_context_synchronize(ctx)); /* the kernel ran on, to its end */
        int got[32];
        ASSERT_OK(lat_memcpy_dtoh(ctx, got, out, sizeof got));
        for (int i = 0; i < 32; i++)
            ASSERT_EQ(got[i], v + i);
        lat_event_destroy(e);
        lat_stream_destroy(s);
        v++;
    }
}
