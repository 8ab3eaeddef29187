/* Hangs under the checks (lattice/check.h): a block that can never finish ends with a
 * report, after a bounded time, never a frozen process: a barrier some threads can never
 * reach is found at once, a spin that nothing can end within about a second, and any
 * other endless kernel by the watchdog. */
#include "check_util.h"

#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

TEST(a_barrier_deadlock_is_reported_exactly)
{
    lat_context *ctx = ck_context(LAT_CHECK_SYNCCHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void stuck(int *out)\n"
                              "{\n"
                              "    if (threadIdx.x < 16)\n"
                              "        __syncwarp();\n"
                              "    else\n"
                              "        __syncthreads();\n"
                              "    out[threadIdx.x] = 1;\n"
                              "}\n",
                              "stuck.cu", "stuck");
    lat_deviceptr out = t_device_copy(ctx, NULL, 64 * sizeof(int));
    void *params[] = {&out};
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, ck_launch(k, 2, 64, params));
    ASSERT_REPORTS(ctx, "stuck.cu:4: hang: kernel 'stuck', block (0,0,0), thread (0,0,0): kernel "
                        "'stuck' can never finish block (0,0,0): 64 of its 64 threads have not "
                        "exited and none can go on: 16 threads, (0,0,0) to (15,0,0), wait in "
                        "__syncwarp at stuck.cu:4; 48 threads, (16,0,0) to (63,0,0), wait in "
                        "__syncthreads at stuck.cu:6");
    ASSERT_EQ(lat_check_report_get(ctx, 0)->kind, LAT_CHECK_HANG);
    ASSERT_EQ(lat_check_report_get(ctx, 0)->check, 0);
    ASSERT_CONTAINS(lat_last_error(), "can never finish block (0,0,0)");
}

/* Checked and unchecked launches run on one executor: the same block that can never
 * finish fails both with the same words (both on fibers: unchecked, this kernel would
 * run as region loops, which find it otherwise). */
TEST(a_deadlock_reads_the_same_checked_or_not)
{
    const char *src = "__global__ void stuck(int *out)\n"
                      "{\n"
                      "    if (threadIdx.x % 32 < 8) return;\n"
                      "    if (threadIdx.x < 16)\n"
                      "        __syncwarp(0xffffff00u);\n"
                      "    else\n"
                      "        __syncthreads();\n"
                      "    out[threadIdx.x] = 1;\n"
                      "}\n";
    char words[2][1024];
    for (int checked = 0; checked < 2; checked++) {
        lat_context *ctx = checked ? ck_context(LAT_CHECK_SYNCCHECK)
                                   : t_context_with(&(lat_context_desc){.backend = LAT_BACKEND_EMU});
        t_setenv("LATTICE_EMU_FIBERS", "1");
        lat_kernel *k = ck_kernel(ctx, src, "stuck.cu", "stuck");
        t_unsetenv("LATTICE_EMU_FIBERS");
        lat_deviceptr out = t_device_copy(ctx, NULL, 64 * sizeof(int));
        void *params[] = {&out};
        ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, ck_launch(k, 1, 64, params));
        snprintf(words[checked], sizeof words[checked], "%s", lat_last_error());
    }
    ASSERT_STR_EQ(words[0], words[1]);
    ASSERT_STR_EQ(words[0], "lat_launch: kernel 'stuck' can never finish block (0,0,0): 48 of "
                            "its 64 threads have not exited and none can go on: 8 threads, "
                            "(8,0,0) to (15,0,0), wait in __syncwarp at stuck.cu:5; 40 threads, "
                            "(16,0,0) to (63,0,0), wait in __syncthreads at stuck.cu:7");
}

TEST(a_spin_on_a_flag_nobody_sets_ends_within_seconds)
{
    lat_context *ctx = ck_context(LAT_CHECK_MEMCHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void wait_for(volatile int *flag, int *out)\n"
                              "{\n"
                              "    while (flag[0] == 0)\n"
                              "        ;\n"
                              "    out[threadIdx.x] = 1;\n"
                              "}\n",
                              "wait_for.cu", "wait_for");
    lat_deviceptr flag = t_device_copy(ctx, NULL, sizeof(int));
    lat_deviceptr out = t_device_copy(ctx, NULL, 32 * sizeof(int));
    ASSERT_OK(lat_memset_d32(ctx, flag, 0, 1));
    void *params[] = {&flag, &out};
    double t0 = now();
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, ck_launch(k, 1, 32, params));
    double took = now() - t0;
    ASSERT_LT(took, 5);
    ASSERT_REPORTS(ctx, "wait_for.cu:3: hang: kernel 'wait_for', block (0,0,0), thread (0,0,0): "
                        "kernel 'wait_for' can never finish block (0,0,0): 32 threads spin "
                        "without progress for 1000 ms (nobody writes what they read), thread "
                        "(0,0,0) at wait_for.cu:3 reading `flag[0]`");
}

TEST(a_spin_another_thread_of_the_block_ends_finishes)
{
    lat_context *ctx = ck_context(LAT_CHECK_MEMCHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void handoff(volatile int *flag, int *out)\n"
                              "{\n"
                              "    if (threadIdx.x == 0) {\n"
                              "        while (flag[0] == 0)\n"
                              "            ;\n"
                              "        out[0] = flag[0];\n"
                              "    } else if (threadIdx.x == 31) {\n"
                              "        flag[0] = 42;\n"
                              "    }\n"
                              "}\n",
                              "handoff.cu", "handoff");
    lat_deviceptr flag = t_device_copy(ctx, NULL, sizeof(int));
    lat_deviceptr out = t_device_copy(ctx, NULL, sizeof(int));
    ASSERT_OK(lat_memset_d32(ctx, flag, 0, 1));
    void *params[] = {&flag, &out};
    ASSERT_OK(ck_launch(k, 1, 32, params));
    int got;
    ASSERT_OK(lat_memcpy_dtoh(ctx, &got, out, sizeof got));
    ASSERT_EQ(got, 42);
}

TEST(the_watchdog_stops_a_kernel_that_never_ends)
{
    lat_context *ctx = ck_context(LAT_CHECK_MEMCHECK);
    ASSERT_OK(lat_check_configure(ctx, &(lat_check_options){.timeout_s = 0.5}));
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void forever(int *count)\n"
                              "{\n"
                              "    for (;;)\n"
                              "        count[threadIdx.x]++;\n"
                              "}\n",
                              "forever.cu", "forever");
    lat_deviceptr count = t_device_copy(ctx, NULL, 4 * sizeof(int));
    void *params[] = {&count};
    double t0 = now();
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, ck_launch(k, 1, 4, params));
    ASSERT_LT(now() - t0, 5);
    ASSERT_EQ(lat_check_report_count(ctx), 1);
    ASSERT_EQ(lat_check_report_get(ctx, 0)->kind, LAT_CHECK_HANG);
    ASSERT_CONTAINS(ck_msg(ctx, 0), "kernel 'forever' did not finish block (0,0,0) within 0.5 s");
    /* The context goes on working. */
    ASSERT_OK(lat_check_configure(ctx, &(lat_check_options){0}));
    lat_kernel *ok = ck_kernel(ctx, "__global__ void one(int *p) { p[threadIdx.x] = 1; }\n",
                               "one.cu", "one");
    ASSERT_OK(ck_launch(ok, 1, 4, params));
}
