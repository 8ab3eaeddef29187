/* Devices: attributes by name, peers, and several devices (the emulator presents as many
 * as LATTICE_EMU_DEVICES says; CUDA cases need a machine with two GPUs). */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

TEST(attributes_are_read_by_name)
{
    lat_backend_kind k = t_require_backend();
    lat_device_info info;
    ASSERT_OK(lat_device_get_info(k, 0, &info));
    int v = 0;
    ASSERT_OK(lat_device_attribute(k, 0, "WARP_SIZE", &v));
    ASSERT_EQ(v, 32);
    ASSERT_OK(lat_device_attribute(k, 0, "cu_device_attribute_max_threads_per_block", &v));
    ASSERT_EQ(v, info.max_threads_per_block);
    ASSERT_OK(lat_device_attribute(k, 0, "MULTIPROCESSOR_COUNT", &v));
    ASSERT_EQ(v, info.multiprocessor_count);
    ASSERT_OK(lat_device_attribute(k, 0, "COMPUTE_CAPABILITY_MAJOR", &v));
    ASSERT_EQ(v, info.compute_major);
}

TEST(the_emulated_device_reports_what_it_does)
{
    lat_backend_kind k = t_require_backend(), resolved;
    ASSERT_OK(lat_backend_resolve(k, &resolved));
    if (resolved != LAT_BACKEND_EMU)
        return;
    lat_device_info info;
    ASSERT_OK(lat_device_get_info(k, 0, &info));
    int v = 0;
    /* clock64() counts nanoseconds: cycles / CLOCK_RATE (kHz) are milliseconds. */
    ASSERT_OK(lat_device_attribute(k, 0, "CLOCK_RATE", &v));
    ASSERT_EQ(v, 1000000);
    ASSERT_EQ(info.clock_rate_khz, 1000000);
    /* Cooperative launches run every block at once (docs/dialect.md). */
    ASSERT_OK(lat_device_attribute(k, 0, "COOPERATIVE_LAUNCH", &v));
    ASSERT_EQ(v, 1);
}

TEST(every_listed_attribute_can_be_read)
{
    lat_backend_kind k = t_require_backend();
    size_t n = 0;
    const char *const *names = lat_device_attribute_names(&n);
    ASSERT_GT(n, 30);
    ASSERT_NULL(names[n]);
    for (size_t i = 0; i < n; i++) {
        int v = -12345;
        lat_status st = lat_device_attribute(k, 0, names[i], &v);
        /* A driver may have dropped an attribute: that is reported, by name. */
        if (st == LAT_ERROR_INVALID_VALUE) {
            ASSERT_CONTAINS(lat_last_error(), names[i]);
            continue;
        }
        ASSERT_MSG(st == LAT_OK, "%s: %s", names[i], lat_last_error());
        ASSERT_MSG(v != -12345, "%s was not written", names[i]);
    }
}

TEST(unknown_attributes_and_devices_are_reported)
{
    lat_backend_kind k = t_require_backend();
    int v;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_device_attribute(k, 0, "WARP_SIZES", &v));
    ASSERT_CONTAINS(lat_last_error(), "unknown attribute 'WARP_SIZES'");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_device_attribute(k, 0, NULL, &v));
    ASSERT_STATUS(LAT_ERROR_INVALID_DEVICE, lat_device_attribute(k, 999, "WARP_SIZE", &v));
}

TEST(the_driver_version_is_the_cuda_version_the_backend_follows)
{
    lat_backend_kind k = t_require_backend();
    int v = -1;
    ASSERT_OK(lat_backend_driver_version(k, &v));
    lat_backend_kind resolved;
    ASSERT_OK(lat_backend_resolve(k, &resolved));
    if (resolved == LAT_BACKEND_EMU)
        ASSERT_EQ(v, LAT_EMU_CUDA_VERSION);
    else
        ASSERT_MSG(v >= 11000, "a CUDA driver of version %d", v);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_backend_driver_version(k, NULL));
}

TEST(a_device_is_not_its_own_peer)
{
    lat_backend_kind k = t_require_backend();
    int can = -1;
    ASSERT_OK(lat_device_can_access_peer(k, 0, 0, &can));
    ASSERT_EQ(can, 0);
    ASSERT_STATUS(LAT_ERROR_INVALID_DEVICE, lat_device_can_access_peer(k, 0, 999, &can));
}

/* Two contexts on two devices: the emulator with LATTICE_EMU_DEVICES=3, or two GPUs. */
static int two_devices(lat_backend_kind *kind)
{
    *kind = t_require_backend();
    if (*kind == LAT_BACKEND_EMU)
        t_setenv("LATTICE_EMU_DEVICES", "3");
    int count = 0;
    ASSERT_OK(lat_device_count(*kind, &count));
    if (count < 2)
        SKIP("one device only (a multi-device test; the emulator runs it with "
             "LATTICE_EMU_DEVICES)");
    return count;
}

static void one_device_again(void)
{
    t_unsetenv("LATTICE_EMU_DEVICES");
}

TEST(contexts_on_two_devices_copy_between_them)
{
    lat_backend_kind kind;
    int count = two_devices(&kind);
    if (kind == LAT_BACKEND_EMU)
        ASSERT_EQ(count, 3);
    lat_context *a = t_context_with(&(lat_context_desc){.device = 0});
    lat_context *b = t_context_with(&(lat_context_desc){.device = 1});
    lat_device_info info;
    ASSERT_OK(lat_context_device_info(b, &info));
    int host[256], back[256];
    for (int i = 0; i < 256; i++)
        host[i] = i ^ 0x55;
    lat_deviceptr da = t_device_copy(a, host, sizeof host);
    lat_deviceptr db = t_device_copy(b, NULL, sizeof host);
    ASSERT_OK(lat_memcpy_peer(b, db, a, da, sizeof host));
    ASSERT_OK(lat_memcpy_dtoh(b, back, db, sizeof back));
    ASSERT_TRUE(memcmp(host, back, sizeof host) == 0);
    int can = 0;
    ASSERT_OK(lat_device_can_access_peer(kind, 0, 1, &can));
    if (can) {
        ASSERT_OK(lat_context_enable_peer_access(a, b));
        ASSERT_OK(lat_context_enable_peer_access(a, b)); /* twice is fine */
    } else {
        ASSERT_STATUS(LAT_ERROR_UNSUPPORTED, lat_context_enable_peer_access(a, b));
    }
    one_device_again();
}

static const char inc_src[] =
    "__global__ void inc(int *x) { x[threadIdx.x] += 1; }\n";

TEST(each_device_runs_its_own_kernels)
{
    lat_backend_kind kind;
    int count = two_devices(&kind);
    int x[32] = {0};
    for (int dev = 0; dev < count && dev < 4; dev++) {
        lat_context *ctx = t_context_with(&(lat_context_desc){.device = dev});
        lat_kernel *k = t_kernel(ctx, inc_src, "inc");
        ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {32}},
                                  LAT_ARGS(lat_arg_inout(x, sizeof x))));
    }
    ASSERT_EQ(x[31], count < 4 ? count : 4);
    one_device_again();
}

TEST(the_emulator_device_count_setting_is_checked)
{
    if (t_require_backend() != LAT_BACKEND_EMU)
        SKIP("an emulator setting");
    int count = 0;
    lat_context *ctx = NULL;
    /* A malformed value is an error that names the variable, wherever it is read. */
    t_setenv("LATTICE_EMU_DEVICES", "bogus");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_device_count(LAT_BACKEND_EMU, &count));
    ASSERT_CONTAINS(lat_last_error(), "LATTICE_EMU_DEVICES='bogus'");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_context_create(&(lat_context_desc){.backend = LAT_BACKEND_EMU}, &ctx));
    ASSERT_CONTAINS(lat_last_error(), "LATTICE_EMU_DEVICES");
    t_setenv("LATTICE_EMU_DEVICES", "65");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_device_count(LAT_BACKEND_EMU, &count));
    ASSERT_CONTAINS(lat_last_error(), "from 1 to 64");
    t_setenv("LATTICE_EMU_DEVICES", "64");
    ASSERT_OK(lat_device_count(LAT_BACKEND_EMU, &count));
    ASSERT_EQ(count, 64);
    ASSERT_STATUS(LAT_ERROR_INVALID_DEVICE,
                  lat_context_create(&(lat_context_desc){.backend = LAT_BACKEND_EMU, .device = 64}, &ctx));
    one_device_again();
}
