/* Without checks, a kernel's stray access must not reach the program's own memory (issue
 * 40, item 6): device memory lies in mappings of its own with inaccessible guards around
 * each allocation (src/emu/memory.c), so a write past an allocation faults and fails the
 * launch, naming the kernel and the allocation, as a GPU reports an illegal address; the
 * program's heap stays whole and the context usable. */
#include "harness.h"
#include "lattice/driver.h"
#include "wild.h"

#include <stdint.h>
#include <stdio.h>
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

/* ---- a module's variables --------------------------------------------------------------- */

/* A module's __device__ and __constant__ variables lie in its compiled program's mapping,
 * past its code: between inaccessible guards too, and its code read-only, so that a write
 * past the last variable or before the first faults (src/emu/compile/compile.c). */
static const char var_src[] =
    "__constant__ float coeffs[16] = {1, 2, 3};\n"
    "__device__ int counter;\n"
    "__device__ float table[100];\n"
    "__global__ void stray_var(long off, float v)\n"
    "{ table[off + threadIdx.x] = v * coeffs[1]; if (threadIdx.x == 0) counter++; }\n";

/* The mapping [*lo, *hi) of /proc/self/maps that holds addr, with its permissions, and
 * those of the mappings just before and after it when they adjoin it ("" when not). */
static void mapping_of(uintptr_t addr, uintptr_t *lo, uintptr_t *hi, char perms[5],
                       char before[5], char after[5], uintptr_t *after_hi)
{
    FILE *f = fopen("/proc/self/maps", "r");
    ASSERT_NOT_NULL(f);
    char line[512], prev[5] = "";
    uintptr_t prev_hi = 0;
    *lo = *hi = 0;
    before[0] = after[0] = perms[0] = '\0';
    while (fgets(line, sizeof line, f)) {
        unsigned long a, b;
        char p[5];
        if (sscanf(line, "%lx-%lx %4s", &a, &b, p) != 3)
            continue;
        if (*hi && a == *hi && !after[0]) {
            memcpy(after, p, 5);
            *after_hi = b;
        }
        if (addr >= a && addr < b) {
            *lo = a, *hi = b;
            memcpy(perms, p, 5);
            if (prev_hi == a)
                memcpy(before, prev, 5);
        }
        memcpy(prev, p, 5);
        prev_hi = b;
    }
    fclose(f);
    ASSERT_MSG(*hi, "no mapping holds 0x%lx", (unsigned long)addr);
}

static lat_status stray_var(lat_kernel *k, long off)
{
    float v = 2.5f;
    void *params[] = {&off, &v};
    return WILD(lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {32}}, params));
}

/* The module's variables on the tier opt asks for: writes among them land as on a GPU,
 * writes past them (into the guard after their last page) and before them fail the launch
 * naming the kernel, the heap whole. */
static void module_variables_are_guarded(lat_emu_opt opt)
{
    lat_context *ctx = emu_context();
    lat_module *mod;
    lat_kernel *k;
    lat_deviceptr table;
    size_t bytes;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = var_src, .name = "v.cu",
                                                        .emu_opt = opt}, &mod));
    if (opt == LAT_EMU_OPT_SYNC && lat_module_get_tier(mod) != LAT_MODULE_TIER_OPTIMISED)
        SKIP("no optimised code for the module (no C compiler?): %s", lat_module_log(mod));
    ASSERT_OK(lat_module_get_kernel(mod, "stray_var", &k));
    ASSERT_OK(lat_module_get_global(mod, "table", &table, &bytes));
    ASSERT_EQ(bytes, sizeof(float) * 100);
    /* Within its variables, the kernel writes as on a GPU. */
    ASSERT_OK(stray_var(k, 50));
    float back[100];
    ASSERT_OK(lat_module_memcpy_from_global(mod, "table", 0, back, sizeof back));
    for (int i = 0; i < 100; i++)
        ASSERT_EQ(back[i] == (i >= 50 && i < 82 ? 5.0f : 0.0f), 1);

    uintptr_t lo, hi, after_hi = 0;
    char perms[5], before[5], after[5];
    mapping_of((uintptr_t)table, &lo, &hi, perms, before, after, &after_hi);
    /* Past the variables' last page: a guard of a megabyte, never accessible. */
    ASSERT_MSG(strcmp(after, "---p") == 0 && after_hi - hi >= (1u << 20),
               "the mapping after the module's variables (0x%lx-0x%lx %s) is '%s' up to 0x%lx, "
               "not a guard", (unsigned long)lo, (unsigned long)hi, perms, after,
               (unsigned long)after_hi);
    const long past[] = {0, 4096, 100000, 900000};
    for (size_t i = 0; i < sizeof past / sizeof past[0]; i++) {
        long off = (long)((hi + (uintptr_t)past[i] - (uintptr_t)table) / sizeof(float));
        ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, stray_var(k, off));
        ASSERT_CONTAINS(lat_last_error(), "kernel 'stray_var'");
        if (opt != LAT_EMU_OPT_SYNC)
            ASSERT_CONTAINS(lat_last_error(), "past the variables of module 'v.cu'");
        heap_is_whole();
    }
    /* Before the variables' first page: TinyCC's code, which no write may change, then a
     * guard; an optimised object's relocated pointers, read-only once it is loaded. */
    const long before_tinycc[] = {2 * 4096, 64 * 1024, 600 * 1024}, before_opt[] = {4032};
    const long *before_bytes = opt == LAT_EMU_OPT_SYNC ? before_opt : before_tinycc;
    size_t nbefore = opt == LAT_EMU_OPT_SYNC ? 1 : 3;
    for (size_t i = 0; i < nbefore; i++) {
        long off = -(long)(((uintptr_t)table - lo + (uintptr_t)before_bytes[i]) / sizeof(float));
        ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, stray_var(k, off));
        ASSERT_CONTAINS(lat_last_error(), "kernel 'stray_var'");
        if (opt != LAT_EMU_OPT_SYNC)
            ASSERT_CONTAINS(lat_last_error(), "module 'v.cu'");
        heap_is_whole();
    }
    /* The module still runs, its variables as they were. */
    ASSERT_OK(stray_var(k, 0));
    ASSERT_OK(lat_module_memcpy_from_global(mod, "table", 0, back, sizeof back));
    for (int i = 0; i < 100; i++)
        ASSERT_EQ(back[i] == (i < 32 || (i >= 50 && i < 82) ? 5.0f : 0.0f), 1);
    int counter;
    ASSERT_OK(lat_module_memcpy_from_global(mod, "counter", 0, &counter, sizeof counter));
    ASSERT_GE(counter, 2);
    still_usable(ctx);
}

TEST(a_write_past_a_module_variable_fails_the_launch_not_the_heap)
{
    module_variables_are_guarded(LAT_EMU_OPT_OFF);
}

TEST(a_write_past_a_module_variable_of_optimised_code_fails_the_launch_not_the_heap)
{
    module_variables_are_guarded(LAT_EMU_OPT_SYNC);
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
