/* The emulated device's memory is bounded (LATTICE_EMU_MEMORY, 4 GiB by default, at most
 * the host's RAM): lat_device_get_info and lat_mem_info report the bound, and allocations
 * beyond what is left fail with LAT_ERROR_OUT_OF_DEVICE_MEMORY. */
#include "harness.h"

#include <stdlib.h>

static lat_context *emu_context(void)
{
    lat_context *ctx = NULL;
    lat_status st = lat_context_create(
        &(lat_context_desc){.backend = LAT_BACKEND_EMU, .check = LAT_CHECK_OFF,
                            .pointer_check = LAT_POINTER_CHECK_OFF},
        &ctx);
    return st == LAT_OK ? ctx : NULL;
}

TEST(the_default_device_is_4_gib_or_the_hosts_ram)
{
    lat_context *ctx = emu_context();
    ASSERT_NOT_NULL(ctx);
    size_t free_b = 0, total = 0;
    ASSERT_OK(lat_mem_info(ctx, &free_b, &total));
    ASSERT_U64_LE(total, (size_t)4 << 30);
    ASSERT_U64_LE(free_b, total);
    lat_device_info info;
    ASSERT_OK(lat_device_get_info(LAT_BACKEND_EMU, 0, &info));
    ASSERT_U64_EQ(info.total_memory, total);
    lat_context_destroy(ctx);
}

TEST(allocations_beyond_lattice_emu_memory_fail_and_freeing_gives_it_back)
{
    t_setenv("LATTICE_EMU_MEMORY", "64M");
    lat_context *ctx = emu_context();
    ASSERT_NOT_NULL(ctx);
    size_t free_b = 0, total = 0;
    ASSERT_OK(lat_mem_info(ctx, &free_b, &total));
    ASSERT_U64_EQ(total, (size_t)64 << 20);
    lat_deviceptr a = 0, b = 0;
    ASSERT_OK(lat_mem_alloc(ctx, (size_t)40 << 20, &a));
    ASSERT_OK(lat_mem_info(ctx, &free_b, &total));
    ASSERT_U64_LE(free_b, (size_t)24 << 20);
    ASSERT_STATUS(LAT_ERROR_OUT_OF_DEVICE_MEMORY, lat_mem_alloc(ctx, (size_t)40 << 20, &b));
    ASSERT_CONTAINS(lat_last_error(), "LATTICE_EMU_MEMORY");
    ASSERT_STATUS(LAT_ERROR_OUT_OF_DEVICE_MEMORY, lat_mem_alloc(ctx, (size_t)65 << 20, &b));
    ASSERT_OK(lat_mem_free(ctx, a));
    ASSERT_OK(lat_mem_alloc(ctx, (size_t)40 << 20, &b));
    ASSERT_OK(lat_mem_free(ctx, b));
    lat_context_destroy(ctx);
    t_unsetenv("LATTICE_EMU_MEMORY");
}

TEST(lattice_emu_memory_must_be_a_size)
{
    static const char *const bad[] = {"abc", "-1", "0", "1X", "4GB", "99999999999999999999T"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        t_setenv("LATTICE_EMU_MEMORY", bad[i]);
        lat_context *ctx = emu_context();
        t_unsetenv("LATTICE_EMU_MEMORY");
        if (ctx)
            lat_context_destroy(ctx);
        ASSERT_MSG(ctx == NULL, "LATTICE_EMU_MEMORY='%s' was accepted", bad[i]);
        ASSERT_CONTAINS(lat_last_error(), "LATTICE_EMU_MEMORY");
    }
}
