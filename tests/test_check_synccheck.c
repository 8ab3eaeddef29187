/* synccheck (lattice/check.h): a barrier some threads of the block never reach, threads
 * waiting at different barriers, and warp operations whose mask is wrong. */
#include "check_util.h"

/* Threads that exited take no part in a barrier (Volta and later, and compute-sanitizer
 * agrees): a `return` before a __syncthreads the others reach is right, checked as region
 * loops or on fibers (LATTICE_EMU_FIBERS). */
static void early_return(bool fibers)
{
    lat_context *ctx = ck_context(LAT_CHECK_ALL);
    if (fibers)
        t_setenv("LATTICE_EMU_FIBERS", "1");
    lat_kernel *k = ck_kernel(ctx,
                              fibers ? "__global__ void early(int *out, const int *in, int n)\n"
                                       "{\n"
                                       "    __shared__ int s[64];\n"
                                       "    int t = threadIdx.x;\n"
                                       "    if (t >= n) return;\n"
                                       "    s[t] = in[t];\n"
                                       "    __syncthreads();\n"
                                       "    out[t] = s[t] + s[(t + 1) % n];\n"
                                       "}\n// on fibers\n"
                                     : "__global__ void early(int *out, const int *in, int n)\n"
                                       "{\n"
                                       "    __shared__ int s[64];\n"
                                       "    int t = threadIdx.x;\n"
                                       "    if (t >= n) return;\n"
                                       "    s[t] = in[t];\n"
                                       "    __syncthreads();\n"
                                       "    out[t] = s[t] + s[(t + 1) % n];\n"
                                       "}\n",
                              "early.cu", "early");
    t_unsetenv("LATTICE_EMU_FIBERS");
    int in[64], before[64];
    for (int i = 0; i < 64; i++)
        in[i] = (int)(t_rand_u32() % 1000), before[i] = (int)(t_rand_u32() % 1000);
    lat_deviceptr out = t_device_copy(ctx, before, sizeof before);
    lat_deviceptr din = t_device_copy(ctx, in, sizeof in);
    for (int n = 40; n <= 64; n += 24) {
        void *params[] = {&out, &din, &n};
        ASSERT_OK(ck_launch(k, 1, 64, params));
        ASSERT_NO_REPORTS(ctx);
        int got[64];
        ASSERT_OK(lat_memcpy_dtoh(ctx, got, out, sizeof got));
        for (int t = 0; t < 64; t++)
            ASSERT_EQ(got[t], t < n ? in[t] + in[(t + 1) % n] : before[t]);
    }
}

TEST(threads_that_return_before_a_barrier_take_no_part_in_it)
{
    early_return(false);
}

TEST(threads_that_return_before_a_barrier_take_no_part_in_it_on_fibers)
{
    early_return(true);
}

TEST(threads_at_different_barriers_are_named)
{
    lat_context *ctx = ck_context(LAT_CHECK_SYNCCHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void split(int *out)\n"
                              "{\n"
                              "    if (threadIdx.x % 2 == 0)\n"
                              "        __syncthreads();\n"
                              "    else\n"
                              "        __syncthreads();\n"
                              "    out[threadIdx.x] = 1;\n"
                              "}\n",
                              "split.cu", "split");
    lat_deviceptr out = t_device_copy(ctx, NULL, 8 * sizeof(int));
    void *params[] = {&out};
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(k, 1, 8, params));
    ASSERT_REPORTS(ctx, "split.cu:4: synccheck: kernel 'split', block (0,0,0), threads (0,0,0) to "
                        "(6,0,0): threads (0,0,0) to (6,0,0) wait at __syncthreads() here while "
                        "threads (1,0,0) to (7,0,0) wait at the one at split.cu:6 (every thread of "
                        "a block must reach the same barrier)");
    ASSERT_EQ(lat_check_report_get(ctx, 0)->kind, LAT_CHECK_BARRIER_MISMATCH);
    ASSERT_EQ(lat_check_report_get(ctx, 0)->other.line, 6);
}

TEST(warp_masks_must_hold_the_caller_and_only_lanes_that_are_there)
{
    lat_context *ctx = ck_context(LAT_CHECK_SYNCCHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void masks(int *out, unsigned m)\n"
                              "{\n"
                              "    out[threadIdx.x] = __shfl_sync(m, (int)threadIdx.x, 0);\n"
                              "}\n",
                              "masks.cu", "masks");
    lat_deviceptr out = t_device_copy(ctx, NULL, 32 * sizeof(int));
    unsigned m = 0xffffu;
    void *params[] = {&out, &m};
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(k, 1, 32, params));
    ASSERT_REPORTS(ctx, "masks.cu:3: synccheck: kernel 'masks', block (0,0,0), threads (16,0,0) "
                        "to (31,0,0): __shfl_sync with mask 0x0000ffff leaves out the calling "
                        "lane [16 times]");
    ASSERT_EQ(lat_check_report_get(ctx, 0)->kind, LAT_CHECK_WARP_MASK);
    /* A full mask in a block of 20 (or 16) threads: lanes past the block's end are not
     * there to disagree, as compute-sanitizer has it. */
    m = 0xffffffffu;
    ASSERT_OK(ck_launch(k, 1, 20, params));
    ASSERT_NO_REPORTS(ctx);
    ASSERT_OK(ck_launch(k, 1, 16, params));
    ASSERT_NO_REPORTS(ctx);
    ASSERT_OK(ck_launch(k, 1, 32, params));
    ASSERT_NO_REPORTS(ctx);
    m = 0xfffffu;
    ASSERT_OK(ck_launch(k, 1, 20, params));
    ASSERT_NO_REPORTS(ctx);
}

/* Two diagnoses of warp masks on one line are two reports, not one counted twice: a
 * lane that exited before the others call (the first warp), and masks that leave out
 * their caller (the second warp's upper half). */
TEST(two_warp_mask_findings_on_one_line_are_two_reports)
{
    lat_context *ctx = ck_context(LAT_CHECK_SYNCCHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void masks(int *out)\n"
                              "{\n"
                              "    if (threadIdx.x == 0) return;\n"
                              "    out[threadIdx.x] = __shfl_sync(threadIdx.x < 32 ? 0xffffffffu : 0xffffu, (int)threadIdx.x, 1);\n"
                              "}\n",
                              "masks.cu", "masks");
    lat_deviceptr out = t_device_copy(ctx, NULL, 64 * sizeof(int));
    void *params[] = {&out};
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(k, 1, 64, params));
    ASSERT_REPORTS(ctx,
                   "masks.cu:4: synccheck: kernel 'masks', block (0,0,0), threads (1,0,0) to "
                   "(31,0,0): __shfl_sync with mask 0xffffffff names lanes that have exited "
                   "[31 times]",
                   "masks.cu:4: synccheck: kernel 'masks', block (0,0,0), threads (48,0,0) to "
                   "(63,0,0): __shfl_sync with mask 0x0000ffff leaves out the calling lane "
                   "[16 times]");
}

/* A lane that exits while the others of its warp wait in an operation naming it is as
 * wrong as one that exited before they called, whichever the schedule runs first: the
 * forward order, where the others wait first, reports it too. */
TEST(a_lane_exiting_while_its_warp_waits_for_it_is_reported)
{
    lat_context *ctx = ck_context(LAT_CHECK_SYNCCHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void last(int *out)\n"
                              "{\n"
                              "    if (threadIdx.x == 31) return;\n"
                              "    out[threadIdx.x] = __shfl_sync(0xffffffffu, (int)threadIdx.x, 0);\n"
                              "}\n",
                              "last.cu", "last");
    lat_deviceptr out = t_device_copy(ctx, NULL, 32 * sizeof(int));
    void *params[] = {&out};
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(k, 1, 32, params));
    ASSERT_REPORTS(ctx, "last.cu:4: synccheck: kernel 'last', block (0,0,0), threads (0,0,0) to "
                        "(30,0,0): __shfl_sync with mask 0xffffffff names lanes that have exited "
                        "[31 times]");
    /* The lanes still got lane 0's value: the operation completed without lane 31. */
    int got[32];
    ASSERT_OK(lat_memcpy_dtoh(ctx, got, out, sizeof got));
    ASSERT_EQ(got[30], 0);
    /* A mask without the lane that exits is right. */
    lat_kernel *ok = ck_kernel(ctx,
                               "__global__ void last(int *out)\n"
                               "{\n"
                               "    if (threadIdx.x == 31) return;\n"
                               "    out[threadIdx.x] = __shfl_sync(0x7fffffffu, (int)threadIdx.x, 0);\n"
                               "}\n",
                               "last.cu", "last");
    ASSERT_OK(ck_launch(ok, 1, 32, params));
    ASSERT_NO_REPORTS(ctx);
}
