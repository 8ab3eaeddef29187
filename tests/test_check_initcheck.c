/* initcheck (lattice/check.h): reads of device or shared memory that nothing wrote; host
 * copies, memsets and earlier kernels count as writes. */
#include "check_util.h"

static const char *const copy_src = "__global__ void copy(int *out, const int *in)\n"
                                    "{\n"
                                    "    out[threadIdx.x] = in[threadIdx.x];\n"
                                    "}\n";

TEST(fresh_device_memory_is_unwritten_until_something_writes_it)
{
    lat_context *ctx = ck_context(LAT_CHECK_INITCHECK);
    lat_kernel *k = ck_kernel(ctx, copy_src, "copy.cu", "copy");
    lat_deviceptr in, out;
    ASSERT_OK(lat_mem_alloc(ctx, 16 * sizeof(int), &in));
    ASSERT_OK(lat_mem_alloc(ctx, 16 * sizeof(int), &out));
    ASSERT_OK(lat_check_label(ctx, in, "in"));
    void *params[] = {&out, &in};
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(k, 1, 16, params));
    ASSERT_REPORTS(ctx, "copy.cu:3: initcheck: kernel 'copy', block (0,0,0), threads (0,0,0) to "
                        "(15,0,0): read of 4 bytes by `in[threadIdx.x]` reads memory never "
                        "written: element [0] of 'in' [16 times]");
    ASSERT_EQ(lat_check_report_get(ctx, 0)->kind, LAT_CHECK_UNINITIALIZED);
    ASSERT_EQ(lat_check_report_get(ctx, 0)->check, LAT_CHECK_INITCHECK);
    /* A memset of half and a host copy of the rest. */
    ASSERT_OK(lat_memset_d32(ctx, in, 5, 8));
    int rest[8] = {0};
    ASSERT_OK(lat_memcpy_htod(ctx, in + 8 * sizeof(int), rest, sizeof rest));
    ASSERT_OK(ck_launch(k, 1, 16, params));
    ASSERT_NO_REPORTS(ctx);
    /* What a kernel wrote is written for the next. */
    void *back[] = {&in, &out};
    ASSERT_OK(ck_launch(k, 1, 16, back));
    ASSERT_NO_REPORTS(ctx);
    ASSERT_OK(lat_mem_free(ctx, in));
    ASSERT_OK(lat_mem_free(ctx, out));
}

TEST(shared_memory_is_unwritten_in_every_block)
{
    lat_context *ctx = ck_context(LAT_CHECK_INITCHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void half(int *out)\n"
                              "{\n"
                              "    __shared__ int s[32];\n"
                              "    if (threadIdx.x < 16) s[threadIdx.x] = 1;\n"
                              "    __syncthreads();\n"
                              "    out[threadIdx.x] = s[31 - threadIdx.x];\n"
                              "}\n",
                              "half.cu", "half");
    lat_deviceptr out = t_device_copy(ctx, NULL, 32 * sizeof(int));
    void *params[] = {&out};
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(k, 2, 32, params));
    ASSERT_REPORTS(ctx, "half.cu:6: initcheck: kernel 'half', block (0,0,0), threads (0,0,0) to "
                        "(15,0,0): read of 4 bytes by `s[31 - threadIdx.x]` reads memory never "
                        "written: element [31] of __shared__ 's' [32 times]");
    ASSERT_EQ(lat_check_report_get(ctx, 0)->space, LAT_SPACE_SHARED);
}

TEST(two_d_copies_write_what_they_cover)
{
    lat_context *ctx = ck_context(LAT_CHECK_INITCHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void rows(int *out, const int *m, int pitch)\n"
                              "{\n"
                              "    out[threadIdx.x] = m[(threadIdx.x / 4) * pitch + threadIdx.x % 4];\n"
                              "}\n",
                              "rows.cu", "rows");
    int host[3][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}};
    lat_deviceptr m, out = t_device_copy(ctx, NULL, 12 * sizeof(int));
    ASSERT_OK(lat_mem_alloc(ctx, 3 * 8 * sizeof(int), &m));
    ASSERT_OK(lat_memcpy_2d(ctx, &(lat_copy_2d){.src_host = host, .src_pitch = sizeof host[0],
                                                .dst_device = m, .dst_pitch = 8 * sizeof(int),
                                                .width_bytes = sizeof host[0], .height = 3}));
    int pitch = 8;
    void *params[] = {&out, &m, &pitch};
    ASSERT_OK(ck_launch(k, 1, 12, params));
    ASSERT_NO_REPORTS(ctx);
    /* The pitch's padding was never written. */
    pitch = 6;
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(k, 1, 12, params));
    ASSERT_EQ(lat_check_report_get(ctx, 0)->kind, LAT_CHECK_UNINITIALIZED);
    ASSERT_OK(lat_mem_free(ctx, m));
}
