/* Choosing a backend, and what the devices of the backend under test report. */
#include "harness.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Runs `kind` through lat_backend_resolve with LATTICE_BACKEND set to `env` (NULL:
 * unset), restoring the variable afterwards. */
static lat_status resolve_with_env(const char *env, lat_backend_kind kind,
                                   lat_backend_kind *resolved)
{
    const char *old = getenv("LATTICE_BACKEND");
    char *saved = old ? strdup(old) : NULL;
    if (env)
        t_setenv("LATTICE_BACKEND", env);
    else
        t_unsetenv("LATTICE_BACKEND");
    lat_status st = lat_backend_resolve(kind, resolved);
    if (saved) {
        t_setenv("LATTICE_BACKEND", saved);
        free(saved);
    } else {
        t_unsetenv("LATTICE_BACKEND");
    }
    return st;
}

/* Whether the CUDA backend can work here, as lattice itself says. */
static int cuda_available(void)
{
    lat_backend_kind r;
    return resolve_with_env(NULL, LAT_BACKEND_CUDA, &r) == LAT_OK;
}

TEST(emu_is_always_available)
{
    lat_backend_kind r = LAT_BACKEND_AUTO;
    ASSERT_OK(resolve_with_env(NULL, LAT_BACKEND_EMU, &r));
    ASSERT_EQ(r, LAT_BACKEND_EMU);
}

TEST(auto_picks_cuda_when_available_else_emu)
{
    lat_backend_kind r = LAT_BACKEND_AUTO;
    ASSERT_OK(resolve_with_env(NULL, LAT_BACKEND_AUTO, &r));
    ASSERT_EQ(r, cuda_available() ? LAT_BACKEND_CUDA : LAT_BACKEND_EMU);
}

TEST(auto_follows_LATTICE_BACKEND_emu)
{
    lat_backend_kind r = LAT_BACKEND_AUTO;
    ASSERT_OK(resolve_with_env("emu", LAT_BACKEND_AUTO, &r));
    ASSERT_EQ(r, LAT_BACKEND_EMU);
}

TEST(auto_follows_LATTICE_BACKEND_cuda)
{
    lat_backend_kind r = LAT_BACKEND_AUTO;
    lat_status st = resolve_with_env("cuda", LAT_BACKEND_AUTO, &r);
    if (cuda_available()) {
        ASSERT_OK(st);
        ASSERT_EQ(r, LAT_BACKEND_CUDA);
    } else {
        /* Named but missing is an error, never a silent fallback to the emulator. */
        ASSERT_STATUS(LAT_ERROR_BACKEND_UNAVAILABLE, st);
        ASSERT_GT(strlen(lat_last_error()), 0);
    }
}

TEST(LATTICE_BACKEND_with_an_unknown_value_is_invalid_value)
{
    lat_backend_kind r = LAT_BACKEND_AUTO;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, resolve_with_env("bogus", LAT_BACKEND_AUTO, &r));
    ASSERT_CONTAINS(lat_last_error(), "bogus");
    ASSERT_CONTAINS(lat_last_error(), "LATTICE_BACKEND");
}

TEST(an_explicit_backend_wins_over_LATTICE_BACKEND)
{
    lat_backend_kind r = LAT_BACKEND_AUTO;
    ASSERT_OK(resolve_with_env("cuda", LAT_BACKEND_EMU, &r));
    ASSERT_EQ(r, LAT_BACKEND_EMU);
    ASSERT_OK(resolve_with_env("bogus", LAT_BACKEND_EMU, &r));
    ASSERT_EQ(r, LAT_BACKEND_EMU);
}

TEST(cuda_without_a_gpu_is_unavailable_with_a_reason)
{
    lat_backend_kind r = LAT_BACKEND_AUTO;
    lat_status st = resolve_with_env(NULL, LAT_BACKEND_CUDA, &r);
    if (st == LAT_OK) {
        ASSERT_EQ(r, LAT_BACKEND_CUDA);
        SKIP("this machine has a usable GPU");
    }
    ASSERT_STATUS(LAT_ERROR_BACKEND_UNAVAILABLE, st);
    ASSERT_GT(strlen(lat_last_error()), 0);
}

TEST(cuda_is_unavailable_where_no_nvidia_device_node_exists)
{
    if (access("/dev/nvidiactl", F_OK) == 0)
        SKIP("/dev/nvidiactl exists");
    lat_backend_kind r = LAT_BACKEND_AUTO;
    ASSERT_STATUS(LAT_ERROR_BACKEND_UNAVAILABLE,
                  resolve_with_env(NULL, LAT_BACKEND_CUDA, &r));
}

TEST(resolve_with_a_null_output_is_invalid_value)
{
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_backend_resolve(LAT_BACKEND_EMU, NULL));
}

TEST(resolve_of_an_unknown_kind_is_invalid_value)
{
    lat_backend_kind r;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_backend_resolve((lat_backend_kind)7, &r));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_backend_resolve((lat_backend_kind)-1, &r));
}

TEST(resolving_twice_gives_the_same_answer)
{
    lat_backend_kind a = LAT_BACKEND_AUTO, b = LAT_BACKEND_AUTO;
    lat_status sa = resolve_with_env(NULL, LAT_BACKEND_AUTO, &a);
    lat_status sb = resolve_with_env(NULL, LAT_BACKEND_AUTO, &b);
    ASSERT_EQ(sa, sb);
    ASSERT_EQ(a, b);
}

/* ---- devices ------------------------------------------------------------------------- */

TEST(device_count_is_at_least_one)
{
    t_require_backend();
    int count = 0;
    ASSERT_OK(lat_device_count(t_backend(), &count));
    ASSERT_GE(count, 1);
}

TEST(device_count_with_a_null_output_is_invalid_value)
{
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_device_count(LAT_BACKEND_EMU, NULL));
}

TEST(device_count_of_an_unavailable_backend_is_backend_unavailable)
{
    lat_backend_kind r;
    if (resolve_with_env(NULL, LAT_BACKEND_CUDA, &r) == LAT_OK)
        SKIP("CUDA is available here");
    int count = -1;
    ASSERT_STATUS(LAT_ERROR_BACKEND_UNAVAILABLE, lat_device_count(LAT_BACKEND_CUDA, &count));
}

TEST(every_device_reports_sane_limits)
{
    t_require_backend();
    int count = 0;
    ASSERT_OK(lat_device_count(t_backend(), &count));
    for (int i = 0; i < count; i++) {
        lat_device_info info;
        memset(&info, 0xa5, sizeof info);
        ASSERT_OK(lat_device_get_info(t_backend(), i, &info));
        ASSERT_MSG(memchr(info.name, '\0', sizeof info.name) != NULL,
                   "device %d: name is not NUL-terminated", i);
        ASSERT_GT(strlen(info.name), 0);
        ASSERT_EQ(info.warp_size, 32);
        ASSERT_EQ(info.max_threads_per_block, 1024);
        ASSERT_EQ(info.max_block_dim[0], 1024);
        ASSERT_EQ(info.max_block_dim[1], 1024);
        ASSERT_EQ(info.max_block_dim[2], 64);
        ASSERT_EQ(info.max_grid_dim[0], 2147483647);
        ASSERT_EQ(info.max_grid_dim[1], 65535);
        ASSERT_EQ(info.max_grid_dim[2], 65535);
        ASSERT_GT(info.total_memory, 0);
        ASSERT_GE(info.multiprocessor_count, 1);
        ASSERT_GE(info.compute_major, 1);
        ASSERT_GE(info.compute_minor, 0);
        ASSERT_GE(info.shared_memory_per_block, 49152);
        ASSERT_GE(info.constant_memory, 65536);
        ASSERT_GE(info.clock_rate_khz, 0);
        ASSERT_GE(info.memory_bus_width, 0);
        ASSERT_GE(info.l2_cache_size, 0);
        ASSERT_GE(info.max_threads_per_multiprocessor, 1024);
        ASSERT_GT(info.registers_per_block, 0);
    }
}

TEST(emulator_device_is_named_lattice_emulator)
{
    lat_device_info info;
    ASSERT_OK(lat_device_get_info(LAT_BACKEND_EMU, 0, &info));
    ASSERT_CONTAINS(info.name, "emulator");
    ASSERT_EQ(info.shared_memory_per_block, 49152);
    ASSERT_EQ(info.shared_memory_per_block_optin, 166912); /* compute capability 8.0's */
    ASSERT_EQ(info.constant_memory, 65536);
}

TEST(device_info_for_an_ordinal_out_of_range_is_invalid_device)
{
    t_require_backend();
    int count = 0;
    ASSERT_OK(lat_device_count(t_backend(), &count));
    lat_device_info info;
    ASSERT_STATUS(LAT_ERROR_INVALID_DEVICE, lat_device_get_info(t_backend(), count, &info));
    ASSERT_STATUS(LAT_ERROR_INVALID_DEVICE, lat_device_get_info(t_backend(), -1, &info));
}

TEST(device_info_with_a_null_output_is_invalid_value)
{
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_device_get_info(LAT_BACKEND_EMU, 0, NULL));
}
