/* Without checks, a kernel's stray access must not reach the program's own memory (issue
 * 40, item 6): device memory lies in mappings of its own with inaccessible guards around
 * each allocation (src/emu/memory.c), so a write past an allocation faults and fails the
 * launch, naming the kernel and the allocation, as a GPU reports an illegal address; the
 * program's heap stays whole and the context usable. */
#include "harness.h"
#include "wild.h"

#include <stdlib.h>
#include <string.h>

static lat_context *emu_context(void)
{
    lat_backend_kind k = t_require_backend();
    if (k != LAT_BACKEND_EMU)
        SKIP("about the emulator's device memory (this suite runs %s)", lat_backend_name(k));
    return t_context_with(&(lat_context_desc){.backend = LAT_BACKEND_EMU,
                                               .check = LAT_CHECK_OFF});
}

static const char stray_src[] =
    "__global__ void stray(float *p, long off, float v)\n"
    "{\n"
    "    p[off + threadIdx.x] = v;\n"
    "}\n";

/* Launches stray over p[off .. off + 64). */
static lat_status stray(lat_context *ctx, lat_deviceptr p, long off);

/* The same, faulting on purpose: valgrind's own report of the access is off (wild.h). */
static lat_status stray_wild(lat_context *ctx, lat_deviceptr p, long off)
{
    return WILD(stray(ctx, p, off));
}

static lat_status stray(lat_context *ctx, lat_deviceptr p, long off)
{
    lat_kernel *k = t_kernel(ctx, stray_src, "stray");
    float v = 7.0f;
    void *params[] = {&p, &off, &v};
    return lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {64}}, params);
}

/* The program's heap still works: blocks around a freed one, written and checked. */
static void heap_is_whole(void)
{
    enum { N = 64 };
    unsigned char *b[N];
    for (int i = 0; i < N; i++) {
        size_t n = 16 + (size_t)(t_rand_u32() % 4096);
        b[i] = malloc(n);
        ASSERT_NOT_NULL(b[i]);
        memset(b[i], i, n);
        b[i][n - 1] = (unsigned char)i;
    }
    for (int i = 0; i < N; i++)
        free(b[i]);
}

static void still_usable(lat_context *ctx)
{
    enum { N = 1000 };
    float host[N];
    t_rand_floats(host, N, -5, 5);
    lat_deviceptr p = t_device_copy(ctx, host, sizeof host);
    ASSERT_OK(stray(ctx, p, N - 64));
    float back[N];
    ASSERT_OK(lat_memcpy_dtoh(ctx, back, p, sizeof back));
    for (int i = 0; i < N; i++)
        ASSERT_EQ(back[i] == (i >= N - 64 ? 7.0f : host[i]), 1);
    ASSERT_OK(lat_mem_free(ctx, p));
}

TEST(a_write_past_a_small_allocation_fails_the_launch_not_the_heap)
{
    lat_context *ctx = emu_context();
    /* Sizes in several of the allocator's classes, past the end by 0 to several pages. */
    const size_t sizes[] = {4, 1000 * 4, 5000 * 4, 16000 * 4};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        for (long past = 0; past <= 4096; past += 1024) {
            lat_deviceptr p = t_device_copy(ctx, NULL, sizes[s]);
            /* off: the first element whose 64 floats reach at least 512 bytes past the
             * end (an allocation ends 512-byte aligned against its guard). */
            long off = (long)((sizes[s] + 511) / 512 * 512 / 4) + past / 4;
            ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, stray_wild(ctx, p, off - 32));
            ASSERT_CONTAINS(lat_last_error(), "kernel 'stray'");
            ASSERT_CONTAINS(lat_last_error(), "past the end of the device allocation");
            heap_is_whole();
            ASSERT_OK(lat_mem_free(ctx, p));
        }
    }
    still_usable(ctx);
}

TEST(a_write_past_a_large_allocation_or_before_one_fails_the_launch)
{
    lat_context *ctx = emu_context();
    const size_t sizes[] = {(1 << 20) + 12, 3u << 20};
    for (size_t s = 0; s < 2; s++) {
        lat_deviceptr p = t_device_copy(ctx, NULL, sizes[s]);
        ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, stray_wild(ctx, p, (long)(sizes[s] / 4) + 1000));
        ASSERT_CONTAINS(lat_last_error(), "kernel 'stray'");
        ASSERT_CONTAINS(lat_last_error(), "past the end of the device allocation");
        ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, stray_wild(ctx, p, -2000));
        ASSERT_CONTAINS(lat_last_error(), "before the device allocation");
        heap_is_whole();
        ASSERT_OK(lat_mem_free(ctx, p));
    }
    still_usable(ctx);
}

TEST(a_write_far_past_device_memory_faults_in_its_guard)
{
    lat_context *ctx = emu_context();
    lat_deviceptr p = t_device_copy(ctx, NULL, 8u << 20);
    /* 512 KiB past the end: still in the mapping's guard. */
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, stray_wild(ctx, p, (long)((8u << 20) + (512u << 10)) / 4));
    ASSERT_CONTAINS(lat_last_error(), "kernel 'stray'");
    heap_is_whole();
    ASSERT_OK(lat_mem_free(ctx, p));
    still_usable(ctx);
}

/* The allocator's bookkeeping: many allocations of random sizes (past the number that
 * get guard pages of their own), each holding its own data, freed in random order. */
TEST(many_allocations_of_random_sizes_keep_their_data)
{
    lat_context *ctx = emu_context();
    enum { N = 10000 };
    lat_deviceptr *p = t_calloc(N, sizeof *p);
    uint32_t *seed = t_calloc(N, sizeof *seed);
    size_t *size = t_calloc(N, sizeof *size);
    uint32_t buf[1024];
    for (int i = 0; i < N; i++) {
        size[i] = 1 + t_rand_u32() % (i % 16 == 0 ? 300000 : 4000);
        seed[i] = t_rand_u32();
        ASSERT_OK(lat_mem_alloc(ctx, size[i], &p[i]));
        ASSERT_EQ(p[i] % 512, 0);
        size_t n = size[i] < sizeof buf ? size[i] : sizeof buf;
        for (size_t j = 0; j < sizeof buf / 4; j++)
            buf[j] = seed[i] ^ (uint32_t)j * 2654435761u;
        ASSERT_OK(lat_memcpy_htod(ctx, p[i], buf, n));
    }
    /* Free half, in random order, then check the rest. */
    for (int i = 0; i < N; i++) {
        int j = (int)(t_rand_u32() % N);
        if (p[j]) {
            ASSERT_OK(lat_mem_free(ctx, p[j]));
            p[j] = 0;
        }
    }
    for (int i = 0; i < N; i++) {
        if (!p[i])
            continue;
        size_t n = size[i] < sizeof buf ? size[i] : sizeof buf;
        ASSERT_OK(lat_memcpy_dtoh(ctx, buf, p[i], n));
        for (size_t j = 0; j < n / 4; j++)
            ASSERT_U64_EQ(buf[j], seed[i] ^ (uint32_t)j * 2654435761u);
        ASSERT_OK(lat_mem_free(ctx, p[i]));
    }
    still_usable(ctx);
}
