/* Page-locked host memory: allocation, registration, mapped memory, and misuse. */
#include "harness.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

TEST(host_alloc_gives_aligned_usable_memory)
{
    lat_context *ctx = t_context();
    unsigned char *p = NULL;
    ASSERT_OK(lat_host_alloc(ctx, 1000, 0, (void **)&p));
    ASSERT_NOT_NULL(p);
    ASSERT_EQ((uintptr_t)p % 256, 0);
    for (int i = 0; i < 1000; i++)
        p[i] = (unsigned char)i;
    lat_deviceptr d = t_device_copy(ctx, NULL, 1000);
    ASSERT_OK(lat_memcpy_htod(ctx, d, p, 1000));
    memset(p, 0, 1000);
    ASSERT_OK(lat_memcpy_dtoh(ctx, p, d, 1000));
    for (int i = 0; i < 1000; i++)
        ASSERT_MSG(p[i] == (unsigned char)i, "p[%d] = %d", i, p[i]);
    ASSERT_OK(lat_host_free(ctx, p));
}

TEST(host_alloc_flags_are_accepted)
{
    lat_context *ctx = t_context();
    void *p;
    ASSERT_OK(lat_host_alloc(ctx, 4096, LAT_HOST_PORTABLE, &p));
    ASSERT_OK(lat_host_free(ctx, p));
    ASSERT_OK(lat_host_alloc(ctx, 4096, LAT_HOST_WRITE_COMBINED, &p));
    ASSERT_OK(lat_host_free(ctx, p));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_host_alloc(ctx, 4096, 0x100, &p));
    ASSERT_CONTAINS(lat_last_error(), "unknown flags");
}

TEST(host_alloc_misuse_is_reported)
{
    lat_context *ctx = t_context();
    void *p;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_host_alloc(ctx, 0, 0, &p));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_host_alloc(NULL, 16, 0, &p));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_host_alloc(ctx, 16, 0, NULL));
    ASSERT_OK(lat_host_free(ctx, NULL));
    ASSERT_OK(lat_host_alloc(ctx, 64, 0, &p));
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_host_free(ctx, (char *)p + 8));
    ASSERT_CONTAINS(lat_last_error(), "not its start");
    ASSERT_OK(lat_host_free(ctx, p));
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_host_free(ctx, p));
    int local;
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_host_free(ctx, &local));
}

/* Registered buffers are page-aligned, as older drivers require. */
static _Alignas(4096) char page_buffer[1 << 20];

TEST(register_page_locks_an_existing_buffer)
{
    lat_context *ctx = t_context();
    enum { BYTES = 1 << 20 };
    char *buf = page_buffer;
    ASSERT_OK(lat_host_register(ctx, buf, BYTES, 0));
    for (int i = 0; i < BYTES; i++)
        buf[i] = (char)(i * 7);
    lat_deviceptr d = t_device_copy(ctx, NULL, BYTES);
    lat_stream *s;
    ASSERT_OK(lat_stream_create(ctx, NULL, &s));
    ASSERT_OK(lat_memcpy_htod_async(ctx, d, buf, BYTES, s));
    ASSERT_OK(lat_memset_d8_async(ctx, d, 0x5a, 16, s));
    ASSERT_OK(lat_memcpy_dtoh_async(ctx, buf, d, BYTES, s));
    ASSERT_OK(lat_stream_synchronize(s));
    ASSERT_EQ((unsigned char)buf[0], 0x5a);
    ASSERT_EQ((unsigned char)buf[15], 0x5a);
    ASSERT_EQ(buf[16], (char)(16 * 7));
    ASSERT_EQ(buf[BYTES - 1], (char)((BYTES - 1) * 7));
    ASSERT_OK(lat_host_unregister(ctx, buf));
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_host_unregister(ctx, buf));
}

TEST(register_misuse_is_reported)
{
    lat_context *ctx = t_context();
    char *buf = page_buffer;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_host_register(ctx, NULL, 16, 0));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_host_register(ctx, buf, 0, 0));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_host_register(ctx, buf, 16, LAT_HOST_WRITE_COMBINED));
    ASSERT_OK(lat_host_register(ctx, buf, 8192, 0));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_host_register(ctx, buf + 4096, 100, 0));
    ASSERT_CONTAINS(lat_last_error(), "overlap");
    /* Registered memory is unregistered, not freed. */
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_host_free(ctx, buf));
    ASSERT_CONTAINS(lat_last_error(), "registered");
    ASSERT_OK(lat_host_unregister(ctx, buf));
}

static const char write_src[] =
    "__global__ void write_squares(int *out, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) out[i] = i * i;\n"
    "}\n";

TEST(kernels_write_mapped_host_memory)
{
    lat_context *ctx = t_context();
    int *host = NULL;
    ASSERT_OK(lat_host_alloc(ctx, 256 * sizeof(int), LAT_HOST_MAPPED, (void **)&host));
    memset(host, 0, 256 * sizeof(int));
    lat_deviceptr d = 0;
    ASSERT_OK(lat_host_device_pointer(ctx, host, &d));
    ASSERT_U64_NE(d, 0);
    lat_kernel *k = t_kernel(ctx, write_src, "write_squares");
    int n = 256;
    void *params[] = {&d, &n};
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {256}}, params));
    ASSERT_OK(lat_context_synchronize(ctx));
    for (int i = 0; i < 256; i++)
        ASSERT_MSG(host[i] == i * i, "host[%d] = %d", i, host[i]);
}

TEST(device_pointer_of_unmapped_memory_is_invalid_value)
{
    lat_context *ctx = t_context();
    void *p;
    ASSERT_OK(lat_host_alloc(ctx, 64, 0, &p));
    lat_deviceptr d;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_host_device_pointer(ctx, p, &d));
    ASSERT_CONTAINS(lat_last_error(), "LAT_HOST_MAPPED");
}

TEST(page_locked_memory_left_alive_goes_with_the_context)
{
    char *buf = page_buffer; /* outlives the context */
    lat_context *ctx = t_context();
    void *p;
    ASSERT_OK(lat_host_alloc(ctx, 4096, 0, &p));
    ASSERT_OK(lat_host_register(ctx, buf, 4096, 0));
    /* The context's destruction frees p and unregisters buf (before t_calloc frees it). */
}
