/* Pitched allocations and 2-D copies, asynchronous copies and memsets, stream-ordered
 * allocation, large copies, and copies between contexts. */
#include "harness.h"

#include <stdint.h>
#include <string.h>

TEST(pitched_rows_are_aligned_and_hold_the_width)
{
    lat_context *ctx = t_context();
    lat_deviceptr d = 0;
    size_t pitch = 0;
    ASSERT_OK(lat_mem_alloc_pitch(ctx, 100 * sizeof(float), 37, 4, &d, &pitch));
    ASSERT_U64_NE(d, 0);
    ASSERT_GE(pitch, 100 * sizeof(float));
    ASSERT_EQ(d % 256, 0);
    /* The whole pitch x height is the allocation's. */
    ASSERT_OK(lat_memset_d8(ctx, d, 0, pitch * 37));
    ASSERT_OK(lat_mem_free(ctx, d));
}

TEST(pitched_allocation_misuse_is_invalid_value)
{
    lat_context *ctx = t_context();
    lat_deviceptr d;
    size_t pitch;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_mem_alloc_pitch(ctx, 64, 4, 3, &d, &pitch));
    ASSERT_CONTAINS(lat_last_error(), "4, 8 or 16");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_mem_alloc_pitch(ctx, 0, 4, 4, &d, &pitch));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_mem_alloc_pitch(ctx, 64, 4, 4, &d, NULL));
    ASSERT_STATUS(LAT_ERROR_OVERFLOW, lat_mem_alloc_pitch(ctx, SIZE_MAX / 2, 4, 4, &d, &pitch));
}

TEST(a_sub_rectangle_goes_to_a_pitched_buffer_and_back)
{
    lat_context *ctx = t_context();
    enum { W = 50, H = 20 };
    float host[H][W], back[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            host[y][x] = (float)(y * 1000 + x);
    lat_deviceptr d;
    size_t pitch;
    ASSERT_OK(lat_mem_alloc_pitch(ctx, W * sizeof(float), H, 4, &d, &pitch));
    ASSERT_OK(lat_memset_d32(ctx, d, 0, pitch / 4 * H));
    ASSERT_OK(lat_memcpy_2d(ctx, &(lat_copy_2d){.src_host = host, .dst_device = d, .dst_pitch = pitch,
                                                .width_bytes = W * sizeof(float), .height = H}));
    /* Rows 5..14, columns 10..29, into the top-left corner of a W-wide host array. */
    memset(back, 0, sizeof back);
    ASSERT_OK(lat_memcpy_2d(ctx, &(lat_copy_2d){.src_device = d, .src_pitch = pitch,
                                                .src_x = 10 * sizeof(float), .src_y = 5,
                                                .dst_host = back, .dst_pitch = W * sizeof(float),
                                                .width_bytes = 20 * sizeof(float), .height = 10}));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float want = y < 10 && x < 20 ? host[y + 5][x + 10] : 0.0f;
            ASSERT_MSG(back[y][x] == want, "back[%d][%d] = %g, want %g", y, x,
                       (double)back[y][x], (double)want);
        }
}

TEST(device_to_device_2d_copies_and_async_2d_copies)
{
    lat_context *ctx = t_context();
    enum { W = 16, H = 8 };
    unsigned host[H][W], back[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            host[y][x] = (unsigned)(y << 8 | x);
    lat_deviceptr a, b;
    size_t pa, pb;
    ASSERT_OK(lat_mem_alloc_pitch(ctx, sizeof host[0], H, 4, &a, &pa));
    ASSERT_OK(lat_mem_alloc_pitch(ctx, sizeof host[0], H, 8, &b, &pb));
    lat_stream *s;
    ASSERT_OK(lat_stream_create(ctx, NULL, &s));
    ASSERT_OK(lat_memcpy_2d_async(ctx, &(lat_copy_2d){.src_host = host, .dst_device = a, .dst_pitch = pa,
                                                      .width_bytes = sizeof host[0], .height = H}, s));
    ASSERT_OK(lat_stream_synchronize(s));
    ASSERT_OK(lat_memcpy_2d(ctx, &(lat_copy_2d){.src_device = a, .src_pitch = pa, .dst_device = b,
                                                .dst_pitch = pb, .width_bytes = sizeof host[0],
                                                .height = H}));
    ASSERT_OK(lat_memcpy_2d_async(ctx, &(lat_copy_2d){.src_device = b, .src_pitch = pb, .dst_host = back,
                                                      .width_bytes = sizeof host[0], .height = H}, s));
    ASSERT_OK(lat_stream_synchronize(s));
    ASSERT_TRUE(memcmp(host, back, sizeof host) == 0);
}

TEST(two_d_copies_are_checked)
{
    lat_context *ctx = t_context();
    char host[4096];
    lat_deviceptr d;
    size_t pitch;
    ASSERT_OK(lat_mem_alloc_pitch(ctx, 64, 4, 4, &d, &pitch));
    /* Rows past the end of the allocation. */
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS,
                  lat_memcpy_2d(ctx, &(lat_copy_2d){.src_host = host, .dst_device = d, .dst_pitch = pitch,
                                                    .width_bytes = 64, .height = 5}));
    /* A pitch that cannot hold the row. */
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_memcpy_2d(ctx, &(lat_copy_2d){.src_host = host, .src_pitch = 32, .dst_device = d,
                                                    .dst_pitch = pitch, .width_bytes = 64, .height = 2}));
    ASSERT_CONTAINS(lat_last_error(), "pitch");
    /* Both and neither pointer on one side. */
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_memcpy_2d(ctx, &(lat_copy_2d){.src_host = host, .src_device = d, .dst_host = host,
                                                    .width_bytes = 8, .height = 1}));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_memcpy_2d(ctx, &(lat_copy_2d){.dst_host = host, .width_bytes = 8, .height = 1}));
    ASSERT_CONTAINS(lat_last_error(), "neither");
    /* Nothing to copy is fine. */
    ASSERT_OK(lat_memcpy_2d(ctx, &(lat_copy_2d){.src_host = host, .dst_device = d, .width_bytes = 0,
                                                .height = 3}));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_memcpy_2d(ctx, NULL));
}

TEST(async_memsets_of_each_width)
{
    lat_context *ctx = t_context();
    lat_stream *s;
    ASSERT_OK(lat_stream_create(ctx, NULL, &s));
    lat_deviceptr d = t_device_copy(ctx, NULL, 64);
    uint8_t out[64];
    ASSERT_OK(lat_memset_d32_async(ctx, d, 0x01020304u, 16, s));
    ASSERT_OK(lat_memset_d16_async(ctx, d, 0xaabb, 4, s));
    ASSERT_OK(lat_memset_d8_async(ctx, d, 0xee, 2, s));
    ASSERT_OK(lat_memcpy_dtoh_async(ctx, out, d, sizeof out, s));
    ASSERT_OK(lat_stream_synchronize(s));
    ASSERT_EQ(out[0], 0xee);
    ASSERT_EQ(out[1], 0xee);
    ASSERT_EQ(out[2], 0xbb);
    ASSERT_EQ(out[3], 0xaa);
    ASSERT_EQ(out[8], 0x04);
    ASSERT_EQ(out[11], 0x01);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_memset_d32_async(ctx, d + 2, 0, 1, s));
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_memset_d8_async(ctx, d, 0, 65, s));
}

TEST(async_copies_check_their_ranges)
{
    lat_context *ctx = t_context();
    char host[128];
    lat_deviceptr d = t_device_copy(ctx, NULL, 64);
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_memcpy_htod_async(ctx, d, host, 128, NULL));
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_memcpy_dtoh_async(ctx, host, d + 32, 64, NULL));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_memcpy_dtod_async(ctx, d, 0, 8, NULL));
    ASSERT_OK(lat_memcpy_htod_async(ctx, d, host, 0, NULL));
}

TEST(stream_ordered_allocations_round_trip)
{
    lat_context *ctx = t_context();
    lat_stream *s;
    ASSERT_OK(lat_stream_create(ctx, NULL, &s));
    int host[256], back[256];
    for (int i = 0; i < 256; i++)
        host[i] = i * 3;
    for (int round = 0; round < 20; round++) {
        lat_deviceptr d = 0;
        ASSERT_OK(lat_mem_alloc_async(ctx, sizeof host, s, &d));
        ASSERT_OK(lat_memcpy_htod_async(ctx, d, host, sizeof host, s));
        ASSERT_OK(lat_memcpy_dtoh_async(ctx, back, d, sizeof back, s));
        ASSERT_OK(lat_mem_free_async(ctx, d, s));
        ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_mem_free_async(ctx, d, s));
    }
    ASSERT_OK(lat_stream_synchronize(s));
    ASSERT_TRUE(memcmp(host, back, sizeof host) == 0);
    ASSERT_OK(lat_mem_free_async(ctx, 0, s));
    lat_deviceptr d;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_mem_alloc_async(ctx, 0, s, &d));
}

TEST(large_pageable_copies_arrive_whole)
{
    /* 20 MiB and a ragged tail: large enough for the CUDA backend's staged pipeline. */
    lat_context *ctx = t_context();
    size_t n = (20u << 20) / 4 + 12345;
    uint32_t *host = t_calloc(n, 4), *back = t_calloc(n, 4);
    for (size_t i = 0; i < n; i++)
        host[i] = (uint32_t)(i * 2654435761u);
    lat_deviceptr d = t_device_copy(ctx, host, n * 4);
    ASSERT_OK(lat_memcpy_dtoh(ctx, back, d, n * 4));
    for (size_t i = 0; i < n; i++)
        ASSERT_MSG(back[i] == host[i], "back[%zu] = %u, want %u", i, back[i], host[i]);
    /* Asynchronous, on a stream, both ways. */
    lat_stream *s;
    ASSERT_OK(lat_stream_create(ctx, NULL, &s));
    memset(back, 0, n * 4);
    ASSERT_OK(lat_memset_d32_async(ctx, d, 0, n, s));
    ASSERT_OK(lat_memcpy_htod_async(ctx, d, host, n * 4, s));
    ASSERT_OK(lat_memcpy_dtoh_async(ctx, back, d, n * 4, s));
    ASSERT_OK(lat_stream_synchronize(s));
    ASSERT_TRUE(memcmp(host, back, n * 4) == 0);
}

static const char scale_src[] =
    "__global__ void scale2(float *out, const float *in, unsigned n)\n"
    "{\n"
    "    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) out[i] = 2.0f * in[i];\n"
    "}\n";

TEST(large_in_and_out_buffers_round_trip)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx, scale_src, "scale2");
    unsigned n = (12u << 20) / 4 + 77;
    float *in = t_calloc(n, 4), *out = t_calloc(n, 4);
    for (unsigned i = 0; i < n; i++)
        in[i] = (float)(i % 1000);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {(n + 255) / 256}, .block = {256}},
                              LAT_ARGS(lat_arg_out(out, (size_t)n * 4), lat_arg_in(in, (size_t)n * 4),
                                       lat_arg_u32(n))));
    for (unsigned i = 0; i < n; i++)
        ASSERT_MSG(out[i] == 2.0f * in[i], "out[%u] = %g", i, (double)out[i]);
}

TEST(copies_between_contexts)
{
    lat_context *a = t_context();
    lat_context *b = t_context();
    int host[64], back[64];
    for (int i = 0; i < 64; i++)
        host[i] = 100 - i;
    lat_deviceptr da = t_device_copy(a, host, sizeof host);
    lat_deviceptr db = t_device_copy(b, NULL, sizeof host);
    ASSERT_OK(lat_memcpy_peer(b, db, a, da, sizeof host));
    ASSERT_OK(lat_memcpy_dtoh(b, back, db, sizeof back));
    ASSERT_TRUE(memcmp(host, back, sizeof host) == 0);
    /* Each range is checked against its own context. */
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_memcpy_peer(b, da, a, da, 8));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_memcpy_peer(NULL, db, a, da, 8));
    ASSERT_OK(lat_context_enable_peer_access(a, b)); /* one device: nothing to enable */
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_context_enable_peer_access(a, a));
}
