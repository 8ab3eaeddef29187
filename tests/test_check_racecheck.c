/* racecheck (lattice/check.h): two threads touching the same bytes, one of them writing,
 * with no barrier between them, in shared or global memory, in a block or between
 * blocks; barriers, warp synchronisation, distinct bytes and atomics are not races. */
#include "check_util.h"

static const char *const sync_define[] = {"SYNC", NULL};

TEST(a_shared_read_of_another_threads_write_needs_a_barrier)
{
    lat_context *ctx = ck_context(LAT_CHECK_RACECHECK);
    static const char *const src = "__global__ void shift(int *out)\n"
                                   "{\n"
                                   "    __shared__ int s[64];\n"
                                   "    int t = threadIdx.x;\n"
                                   "    s[t] = t;\n"
                                   "#ifdef SYNC\n"
                                   "    __syncthreads();\n"
                                   "#endif\n"
                                   "    out[t] = s[(t + 1) % 64];\n"
                                   "}\n";
    lat_deviceptr out = t_device_copy(ctx, NULL, 64 * sizeof(int));
    void *params[] = {&out};
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(ck_kernel(ctx, src, "shift.cu", "shift"), 1, 64, params));
    ASSERT_REPORTS(ctx,
                   "shift.cu:5: racecheck: kernel 'shift', block (0,0,0), thread (1,0,0): data "
                   "race: write of `s[t]` after the read of `s[(t + 1) % 64]` at shift.cu:9 by "
                   "thread (0,0,0) of the same block, with no barrier between them, on element "
                   "[1] of __shared__ 's' [63 times]",
                   "shift.cu:9: racecheck: kernel 'shift', block (0,0,0), thread (63,0,0): data "
                   "race: read of `s[(t + 1) % 64]` after the write of `s[t]` at shift.cu:5 by "
                   "thread (0,0,0) of the same block, with no barrier between them, on element "
                   "[0] of __shared__ 's'");
    const lat_check_report *r = lat_check_report_get(ctx, 1);
    ASSERT_EQ(r->kind, LAT_CHECK_RACE);
    ASSERT_EQ(r->check, LAT_CHECK_RACECHECK);
    ASSERT_EQ(r->access.kind, LAT_ACCESS_READ);
    ASSERT_EQ(r->access.thread.x, 63);
    ASSERT_EQ(r->other.kind, LAT_ACCESS_WRITE);
    ASSERT_EQ(r->other.thread.x, 0);
    ASSERT_EQ(r->other.line, 5);
    ASSERT_STR_EQ(r->other.expr, "s[t]");
    ASSERT_EQ(r->space, LAT_SPACE_SHARED);
    ASSERT_STR_EQ(r->region_name, "s");
    /* With the barrier: nothing. */
    ASSERT_OK(ck_launch(ck_kernel_d(ctx, src, "shift.cu", "shift", sync_define), 1, 64, params));
    ASSERT_NO_REPORTS(ctx);
}

TEST(blocks_writing_the_same_global_element_race)
{
    lat_context *ctx = ck_context(LAT_CHECK_RACECHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void last(int *out)\n"
                              "{\n"
                              "    if (threadIdx.x == 0)\n"
                              "        out[0] = blockIdx.x;\n"
                              "}\n",
                              "last.cu", "last");
    lat_deviceptr out = t_device_copy(ctx, NULL, sizeof(int));
    void *params[] = {&out};
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(k, 3, 32, params));
    ASSERT_REPORTS(ctx, "last.cu:4: racecheck: kernel 'last', block (1,0,0), thread (0,0,0): "
                        "data race: write of `out[0]` after the write of `out[0]` at last.cu:4 "
                        "by thread (0,0,0) of block (0,0,0), with no barrier between them, on "
                        "element [0] of a 4-byte allocation [2 times]");
    ASSERT_EQ(lat_check_report_get(ctx, 0)->other.block.x, 0);
    ASSERT_EQ(lat_check_report_get(ctx, 0)->space, LAT_SPACE_GLOBAL);
    /* One block: no race. Separate launches never race with each other. */
    ASSERT_OK(ck_launch(k, 1, 32, params));
    ASSERT_OK(ck_launch(k, 1, 32, params));
    ASSERT_NO_REPORTS(ctx);
}

TEST(threads_of_a_block_sharing_a_global_element_race)
{
    lat_context *ctx = ck_context(LAT_CHECK_RACECHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void halve(int *out)\n"
                              "{\n"
                              "    out[threadIdx.x / 2] += 1;\n"
                              "}\n",
                              "halve.cu", "halve");
    lat_deviceptr out = t_device_copy(ctx, NULL, 16 * sizeof(int));
    void *params[] = {&out};
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(k, 1, 32, params));
    ASSERT_REPORTS(ctx, "halve.cu:3: racecheck: kernel 'halve', block (0,0,0), thread (1,0,0): "
                        "data race: read-write of `out[threadIdx.x / 2]` after the read-write of "
                        "`out[threadIdx.x / 2]` at halve.cu:3 by thread (0,0,0) of the same "
                        "block, with no barrier between them, on element [0] of a 64-byte "
                        "allocation [16 times]");
}

TEST(reads_distinct_bytes_and_atomics_do_not_race)
{
    lat_context *ctx = ck_context(LAT_CHECK_RACECHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void fine(char *bytes, const int *in, int *total)\n"
                              "{\n"
                              "    __shared__ int count;\n"
                              "    int t = threadIdx.x;\n"
                              "    if (t == 0) count = 0;\n"
                              "    __syncthreads();\n"
                              "    bytes[t] = (char)(in[0] + in[t % 4]);\n"
                              "    atomicAdd(&count, 1);\n"
                              "    __syncthreads();\n"
                              "    if (t == 0) atomicAdd(total, count);\n"
                              "}\n",
                              "fine.cu", "fine");
    int in[4] = {1, 2, 3, 4};
    lat_deviceptr bytes = t_device_copy(ctx, NULL, 64), din = t_device_copy(ctx, in, sizeof in);
    lat_deviceptr total = t_device_copy(ctx, NULL, sizeof(int));
    ASSERT_OK(lat_memset_d32(ctx, total, 0, 1));
    void *params[] = {&bytes, &din, &total};
    ASSERT_OK(ck_launch(k, 2, 32, params));
    ASSERT_NO_REPORTS(ctx);
    int t;
    ASSERT_OK(lat_memcpy_dtoh(ctx, &t, total, sizeof t));
    ASSERT_EQ(t, 64);
}

TEST(syncwarp_orders_the_lanes_of_a_warp)
{
    lat_context *ctx = ck_context(LAT_CHECK_RACECHECK);
    static const char *const src = "__global__ void wsum(int *out)\n"
                                   "{\n"
                                   "    __shared__ int s[32];\n"
                                   "    int t = threadIdx.x;\n"
                                   "    s[t] = t;\n"
                                   "    for (int d = 16; d > 0; d /= 2) {\n"
                                   "#ifdef SYNC\n"
                                   "        __syncwarp();\n"
                                   "#endif\n"
                                   "        int v = t < d ? s[t + d] : 0;\n"
                                   "#ifdef SYNC\n"
                                   "        __syncwarp();\n"
                                   "#endif\n"
                                   "        s[t] += v;\n"
                                   "    }\n"
                                   "    if (t == 0) out[0] = s[0];\n"
                                   "}\n";
    lat_deviceptr out = t_device_copy(ctx, NULL, sizeof(int));
    void *params[] = {&out};
    ASSERT_OK(ck_launch(ck_kernel_d(ctx, src, "wsum.cu", "wsum", sync_define), 1, 32, params));
    ASSERT_NO_REPORTS(ctx);
    int sum;
    ASSERT_OK(lat_memcpy_dtoh(ctx, &sum, out, sizeof sum));
    ASSERT_EQ(sum, 31 * 32 / 2);
    /* Without __syncwarp the lanes are not in lockstep: the reads race the writes. */
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(ck_kernel(ctx, src, "wsum.cu", "wsum"), 1, 32, params));
    ASSERT_GE(lat_check_report_count(ctx), 1);
    ASSERT_EQ(lat_check_report_get(ctx, 0)->kind, LAT_CHECK_RACE);
    ASSERT_STR_EQ(lat_check_report_get(ctx, 0)->region_name, "s");
}
