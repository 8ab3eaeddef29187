/* Device memory: allocation, copies, memsets, and every way to point outside it. */
#include "harness.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

TEST(alloc_then_free)
{
    lat_context *ctx = t_context();
    lat_deviceptr p = 0;
    ASSERT_OK(lat_mem_alloc(ctx, 1000, &p));
    ASSERT_U64_NE(p, 0);
    ASSERT_OK(lat_mem_free(ctx, p));
}

TEST(allocations_are_aligned_to_256_bytes_and_do_not_overlap)
{
    lat_context *ctx = t_context();
    const size_t sizes[] = {1, 3, 255, 256, 257, 1000, 4097, 1 << 20};
    lat_deviceptr p[sizeof sizes / sizeof sizes[0]];
    size_t n = sizeof sizes / sizeof sizes[0];
    for (size_t i = 0; i < n; i++) {
        ASSERT_OK(lat_mem_alloc(ctx, sizes[i], &p[i]));
        ASSERT_MSG(p[i] % 256 == 0, "allocation %zu of %zu bytes at %#llx", i, sizes[i],
                   (unsigned long long)p[i]);
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            if (i != j)
                ASSERT_MSG(p[i] + sizes[i] <= p[j] || p[j] + sizes[j] <= p[i],
                           "allocations %zu and %zu overlap", i, j);
    for (size_t i = 0; i < n; i++)
        ASSERT_OK(lat_mem_free(ctx, p[i]));
}

/* The emulator backs allocations of 2 MiB and more with huge pages where the system gives
 * them, which needs them to start on a 2 MiB boundary; the memory behaves as any other. */
TEST(large_emulator_allocations_start_on_a_2_MiB_boundary)
{
    lat_context *ctx = t_context();
    if (!t_is_emu(ctx))
        SKIP("the emulator's placement");
    const size_t sizes[] = {(size_t)2 << 20, ((size_t)3 << 20) + 12345, (size_t)9 << 20};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t n = sizes[i] / 4;
        lat_deviceptr p = 0;
        ASSERT_OK(lat_mem_alloc(ctx, sizes[i], &p));
        ASSERT_MSG(p % ((lat_deviceptr)2 << 20) == 0, "%zu bytes at %#llx", sizes[i],
                   (unsigned long long)p);
        uint32_t *in = malloc(n * 4), *out = malloc(n * 4);
        ASSERT_TRUE(in && out);
        for (size_t k = 0; k < n; k++)
            in[k] = t_rand_u32();
        ASSERT_OK(lat_memcpy_htod(ctx, p, in, n * 4));
        ASSERT_OK(lat_memcpy_dtoh(ctx, out, p, n * 4));
        ASSERT_TRUE(memcmp(in, out, n * 4) == 0);
        free(in);
        free(out);
        ASSERT_OK(lat_mem_free(ctx, p));
    }
}

TEST(alloc_of_zero_bytes_is_invalid_value)
{
    lat_context *ctx = t_context();
    lat_deviceptr p;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_mem_alloc(ctx, 0, &p));
}

TEST(alloc_with_null_arguments_is_invalid_value)
{
    lat_context *ctx = t_context();
    lat_deviceptr p;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_mem_alloc(ctx, 16, NULL));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_mem_alloc(NULL, 16, &p));
}

TEST(alloc_larger_than_the_device_is_out_of_device_memory)
{
    lat_context *ctx = t_context();
    size_t total = 0;
    ASSERT_OK(lat_mem_info(ctx, NULL, &total));
    lat_deviceptr p = 0;
    /* More than the device has, and more than any address space can map. */
    size_t huge = (size_t)1 << 60;
    ASSERT_TRUE(huge > total);
    ASSERT_STATUS(LAT_ERROR_OUT_OF_DEVICE_MEMORY, lat_mem_alloc(ctx, huge, &p));
}

TEST(free_of_zero_is_a_no_op)
{
    lat_context *ctx = t_context();
    ASSERT_OK(lat_mem_free(ctx, 0));
}

TEST(free_with_a_null_context_is_invalid_value)
{
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_mem_free(NULL, 0x1000));
}

TEST(double_free_is_invalid_address)
{
    lat_context *ctx = t_context();
    lat_deviceptr p = t_device_copy(ctx, NULL, 512);
    ASSERT_OK(lat_mem_free(ctx, p));
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_mem_free(ctx, p));
}

TEST(free_of_an_interior_pointer_is_invalid_address)
{
    lat_context *ctx = t_context();
    lat_deviceptr p = t_device_copy(ctx, NULL, 512);
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_mem_free(ctx, p + 4));
    ASSERT_OK(lat_mem_free(ctx, p)); /* the failed free left it alive */
}

TEST(free_of_another_contexts_memory_is_invalid_address)
{
    lat_context *a = t_context();
    lat_context *b = t_context();
    lat_deviceptr p = t_device_copy(a, NULL, 512);
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_mem_free(b, p));
    ASSERT_OK(lat_mem_free(a, p));
}

TEST(free_of_an_address_never_allocated_is_invalid_address)
{
    lat_context *ctx = t_context();
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_mem_free(ctx, (lat_deviceptr)0xdead000));
}

/* ---- copies -------------------------------------------------------------------------- */

TEST(htod_then_dtoh_round_trips_random_data)
{
    lat_context *ctx = t_context();
    const size_t sizes[] = {1, 7, 256, 4099, 1 << 20};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        unsigned char *in = t_calloc(n, 1), *out = t_calloc(n, 1);
        for (size_t i = 0; i < n; i++)
            in[i] = (unsigned char)t_rand_u32();
        lat_deviceptr p = t_device_copy(ctx, in, n);
        ASSERT_OK(lat_memcpy_dtoh(ctx, out, p, n));
        ASSERT_MSG(memcmp(in, out, n) == 0, "%zu bytes did not round trip", n);
        ASSERT_OK(lat_mem_free(ctx, p));
    }
}

TEST(copies_may_start_inside_an_allocation)
{
    lat_context *ctx = t_context();
    uint32_t zeros[64] = {0}, part[8], out[64];
    for (int i = 0; i < 8; i++)
        part[i] = 100u + (uint32_t)i;
    lat_deviceptr p = t_device_copy(ctx, zeros, sizeof zeros);
    ASSERT_OK(lat_memcpy_htod(ctx, p + 40 * 4, part, sizeof part));
    ASSERT_OK(lat_memcpy_dtoh(ctx, out, p, sizeof out));
    for (int i = 0; i < 64; i++) {
        uint32_t want = (i >= 40 && i < 48) ? 100u + (uint32_t)(i - 40) : 0u;
        ASSERT_MSG(out[i] == want, "out[%d] = %u, want %u", i, out[i], want);
    }
    uint32_t tail[4];
    ASSERT_OK(lat_memcpy_dtoh(ctx, tail, p + 44 * 4, sizeof tail));
    ASSERT_EQ(tail[0], 104);
    ASSERT_EQ(tail[3], 107);
}

TEST(dtod_copies_between_allocations_and_within_one)
{
    lat_context *ctx = t_context();
    enum { N = 1000 };
    float *in = t_calloc(N, sizeof *in), *out = t_calloc(N, sizeof *out);
    t_rand_floats(in, N, -1.0f, 1.0f);
    lat_deviceptr a = t_device_copy(ctx, in, N * sizeof(float));
    lat_deviceptr b = t_device_copy(ctx, NULL, N * sizeof(float));
    ASSERT_OK(lat_memcpy_dtod(ctx, b, a, N * sizeof(float)));
    ASSERT_OK(lat_memcpy_dtoh(ctx, out, b, N * sizeof(float)));
    ASSERT_TRUE(memcmp(in, out, N * sizeof(float)) == 0);

    /* The first half of b onto its second half. */
    ASSERT_OK(lat_memcpy_dtod(ctx, b + (N / 2) * sizeof(float), b, (N / 2) * sizeof(float)));
    ASSERT_OK(lat_memcpy_dtoh(ctx, out, b, N * sizeof(float)));
    for (int i = 0; i < N; i++)
        ASSERT_MSG(out[i] == in[i % (N / 2)], "out[%d] = %g, want %g", i, out[i],
                   in[i % (N / 2)]);
}

TEST(copies_of_zero_bytes_are_no_ops)
{
    lat_context *ctx = t_context();
    char host[4] = "abc";
    lat_deviceptr p = t_device_copy(ctx, NULL, 16);
    ASSERT_OK(lat_memcpy_htod(ctx, p, host, 0));
    ASSERT_OK(lat_memcpy_dtoh(ctx, host, p, 0));
    ASSERT_OK(lat_memcpy_dtod(ctx, p, p, 0));
    ASSERT_STR_EQ(host, "abc");
}

TEST(copy_with_a_null_host_pointer_is_invalid_value)
{
    lat_context *ctx = t_context();
    lat_deviceptr p = t_device_copy(ctx, NULL, 16);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_memcpy_htod(ctx, p, NULL, 16));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_memcpy_dtoh(ctx, NULL, p, 16));
    /* Even of zero bytes: pointers are checked first. */
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_memcpy_htod(ctx, p, NULL, 0));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_memcpy_dtoh(ctx, NULL, p, 0));
}

TEST(copy_with_device_address_zero_is_invalid_value)
{
    lat_context *ctx = t_context();
    char host[16] = {0};
    lat_deviceptr p = t_device_copy(ctx, NULL, 16);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_memcpy_htod(ctx, 0, host, 16));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_memcpy_dtoh(ctx, host, 0, 16));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_memcpy_dtod(ctx, 0, p, 16));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_memcpy_dtod(ctx, p, 0, 16));
}

TEST(copy_with_a_null_context_is_invalid_value)
{
    char host[16] = {0};
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_memcpy_htod(NULL, 0x1000, host, 16));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_memcpy_dtoh(NULL, host, 0x1000, 16));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_memcpy_dtod(NULL, 0x1000, 0x2000, 16));
}

TEST(htod_overrunning_the_allocation_is_invalid_address_with_sizes_in_the_message)
{
    lat_context *ctx = t_context();
    float host[200] = {0};
    lat_deviceptr p = t_device_copy(ctx, NULL, 400);
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_memcpy_htod(ctx, p, host, 800));
    ASSERT_CONTAINS(lat_last_error(), "lat_memcpy_htod");
    ASSERT_CONTAINS(lat_last_error(), "800");
    ASSERT_CONTAINS(lat_last_error(), "400");
}

TEST(dtoh_overrunning_the_allocation_is_invalid_address)
{
    lat_context *ctx = t_context();
    char host[64];
    lat_deviceptr p = t_device_copy(ctx, NULL, 32);
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_memcpy_dtoh(ctx, host, p, 33));
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_memcpy_dtoh(ctx, host, p + 16, 17));
}

TEST(dtod_overrunning_either_allocation_is_invalid_address)
{
    lat_context *ctx = t_context();
    lat_deviceptr small = t_device_copy(ctx, NULL, 32), big = t_device_copy(ctx, NULL, 64);
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_memcpy_dtod(ctx, small, big, 64));
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_memcpy_dtod(ctx, big, small, 64));
}

TEST(copy_into_freed_memory_is_invalid_address)
{
    lat_context *ctx = t_context();
    char host[32] = {0};
    lat_deviceptr p = t_device_copy(ctx, NULL, 32);
    ASSERT_OK(lat_mem_free(ctx, p));
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_memcpy_htod(ctx, p, host, 32));
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_memcpy_dtoh(ctx, host, p, 32));
}

TEST(copy_spanning_two_allocations_is_invalid_address)
{
    lat_context *ctx = t_context();
    lat_deviceptr a = t_device_copy(ctx, NULL, 256), b = t_device_copy(ctx, NULL, 256);
    lat_deviceptr lo = a < b ? a : b;
    char host[1024] = {0};
    /* Even if the two happen to be adjacent, a range belongs to one allocation. */
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_memcpy_htod(ctx, lo + 128, host, 256));
}

TEST(copy_of_another_contexts_memory_is_invalid_address)
{
    lat_context *a = t_context(), *b = t_context();
    char host[32] = {0};
    lat_deviceptr p = t_device_copy(a, NULL, 32);
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_memcpy_htod(b, p, host, 32));
}

/* ---- memset -------------------------------------------------------------------------- */

/* Fills a buffer of `n` bytes with 0xEE, memsets [from, from + count elements) with the
 * given element size, and checks every byte: the range set, everything else untouched. */
static void check_memset(lat_context *ctx, size_t elem, uint32_t value, size_t n,
                         size_t from, size_t count)
{
    unsigned char *host = t_calloc(n, 1);
    memset(host, 0xee, n);
    lat_deviceptr p = t_device_copy(ctx, host, n);
    lat_deviceptr dst = p + from * elem;
    switch (elem) {
    case 1: ASSERT_OK(lat_memset_d8(ctx, dst, (uint8_t)value, count)); break;
    case 2: ASSERT_OK(lat_memset_d16(ctx, dst, (uint16_t)value, count)); break;
    default: ASSERT_OK(lat_memset_d32(ctx, dst, value, count)); break;
    }
    ASSERT_OK(lat_memcpy_dtoh(ctx, host, p, n));
    for (size_t i = 0; i < n; i++) {
        size_t e = i / elem;
        unsigned char want = 0xee;
        if (e >= from && e < from + count)
            want = (unsigned char)(value >> (8 * (i % elem))); /* little-endian */
        ASSERT_MSG(host[i] == want, "d%zu memset: byte %zu is %#x, want %#x", elem * 8, i,
                   host[i], want);
    }
}

TEST(memset_d8_sets_exactly_the_bytes_asked_for)
{
    lat_context *ctx = t_context();
    check_memset(ctx, 1, 0x5a, 1000, 3, 517);
    check_memset(ctx, 1, 0x00, 64, 0, 64);
}

TEST(memset_d16_sets_exactly_the_elements_asked_for)
{
    lat_context *ctx = t_context();
    check_memset(ctx, 2, 0xbeef, 1000, 1, 333);
    check_memset(ctx, 2, 0x1234, 64, 0, 32);
}

TEST(memset_d32_sets_exactly_the_elements_asked_for)
{
    lat_context *ctx = t_context();
    check_memset(ctx, 4, 0xdeadbeefu, 4000, 5, 777);
    check_memset(ctx, 4, 0x3f800000u, 64, 0, 16); /* 1.0f */
}

TEST(memset_d16_at_an_odd_address_is_invalid_value)
{
    lat_context *ctx = t_context();
    lat_deviceptr p = t_device_copy(ctx, NULL, 64);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_memset_d16(ctx, p + 1, 0, 4));
}

TEST(memset_d32_at_an_address_not_a_multiple_of_four_is_invalid_value)
{
    lat_context *ctx = t_context();
    lat_deviceptr p = t_device_copy(ctx, NULL, 64);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_memset_d32(ctx, p + 2, 0, 4));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_memset_d32(ctx, p + 1, 0, 4));
}

TEST(memset_overrunning_the_allocation_is_invalid_address)
{
    lat_context *ctx = t_context();
    lat_deviceptr p = t_device_copy(ctx, NULL, 64);
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_memset_d8(ctx, p, 0, 65));
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_memset_d16(ctx, p, 0, 33));
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_memset_d32(ctx, p + 4, 0, 16));
}

TEST(memset_whose_byte_count_overflows_is_overflow)
{
    lat_context *ctx = t_context();
    lat_deviceptr p = t_device_copy(ctx, NULL, 64);
    ASSERT_STATUS(LAT_ERROR_OVERFLOW, lat_memset_d16(ctx, p, 0, SIZE_MAX / 2 + 1));
    ASSERT_STATUS(LAT_ERROR_OVERFLOW, lat_memset_d32(ctx, p, 0, SIZE_MAX / 4 + 1));
}

TEST(memset_at_address_zero_is_invalid_value)
{
    lat_context *ctx = t_context();
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_memset_d8(ctx, 0, 0, 4));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_memset_d32(ctx, 0, 0, 4));
}

TEST(memset_of_zero_elements_is_ok)
{
    lat_context *ctx = t_context();
    lat_deviceptr p = t_device_copy(ctx, NULL, 64);
    ASSERT_OK(lat_memset_d8(ctx, p, 1, 0));
    ASSERT_OK(lat_memset_d32(ctx, p, 1, 0));
}

/* ---- memory info and teardown -------------------------------------------------------- */

TEST(mem_info_reports_free_at_most_total)
{
    lat_context *ctx = t_context();
    size_t free_bytes = 0, total = 0;
    ASSERT_OK(lat_mem_info(ctx, &free_bytes, &total));
    ASSERT_U64_GT(total, 0);
    ASSERT_U64_LE(free_bytes, total);
    lat_device_info info;
    ASSERT_OK(lat_context_device_info(ctx, &info));
    ASSERT_U64_EQ(total, info.total_memory);
}

TEST(mem_info_accepts_null_outputs)
{
    lat_context *ctx = t_context();
    size_t total = 0, free_bytes = 0;
    ASSERT_OK(lat_mem_info(ctx, NULL, &total));
    ASSERT_OK(lat_mem_info(ctx, &free_bytes, NULL));
    ASSERT_OK(lat_mem_info(ctx, NULL, NULL));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_mem_info(NULL, &free_bytes, &total));
}

TEST(destroying_a_context_frees_its_live_allocations)
{
    /* Leak checkers (ASan, valgrind) watch this one: nothing may stay behind. */
    lat_context *ctx = NULL;
    t_require_backend();
    ASSERT_OK(lat_context_create(&(lat_context_desc){.backend = t_backend()}, &ctx));
    for (int i = 0; i < 10; i++) {
        lat_deviceptr p;
        ASSERT_OK(lat_mem_alloc(ctx, (size_t)(i + 1) * 1000, &p));
    }
    lat_context_destroy(ctx);
}
