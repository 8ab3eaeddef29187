/* A kernel that faults. On CUDA the first call to see the fault names the kernel
 * (LAT_ERROR_LAUNCH_FAILED) and every later call on the context says it is lost
 * (LAT_ERROR_CONTEXT_LOST). Driver 580 refuses the GPU to the process after a fault, so
 * this binary holds this one case and runs in its own process. */
#include "harness.h"

static const char fault_src[] =
    "__global__ void wild_write(int *p)\n"
    "{\n"
    "    p[threadIdx.x] = 1;\n"
    "}\n";

static const char trap_src[] =
    "__global__ void traps(int *p)\n"
    "{\n"
    "    p[threadIdx.x] = 1;\n"
    "    __trap();\n"
    "}\n";

TEST(a_kernel_fault_is_named_and_then_the_context_is_lost)
{
    lat_backend_kind k = t_require_backend();
    if (k == LAT_BACKEND_CROSS)
        SKIP("a fault ends the GPU side's context for the process; the cuda and emu suites "
             "cover each side");
    lat_context *ctx = t_context();
    if (k == LAT_BACKEND_EMU) {
        /* The emulator reports a trap at once and stays usable. */
        lat_kernel *kernel = t_kernel(ctx, trap_src, "traps");
        lat_deviceptr d = t_device_copy(ctx, NULL, 64 * sizeof(int));
        void *params[] = {&d};
        ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED,
                      lat_launch(kernel, &(lat_launch_desc){.grid = {1}, .block = {32}}, params));
        ASSERT_CONTAINS(lat_last_error(), "traps");
        lat_deviceptr more;
        ASSERT_OK(lat_mem_alloc(ctx, 16, &more));
        return;
    }
    lat_kernel *kernel = t_kernel(ctx, fault_src, "wild_write");
    lat_deviceptr wild = 0x10; /* no memory there */
    void *params[] = {&wild};
    lat_status st = lat_launch(kernel, &(lat_launch_desc){.grid = {1}, .block = {32}}, params);
    if (st == LAT_OK)
        st = lat_context_synchronize(ctx);
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, st);
    ASSERT_CONTAINS(lat_last_error(), "kernel 'wild_write' failed");
    lat_deviceptr p;
    ASSERT_STATUS(LAT_ERROR_CONTEXT_LOST, lat_mem_alloc(ctx, 16, &p));
    ASSERT_CONTAINS(lat_last_error(), "wild_write");
    ASSERT_STATUS(LAT_ERROR_CONTEXT_LOST, lat_context_synchronize(ctx));
    lat_stream *s;
    ASSERT_STATUS(LAT_ERROR_CONTEXT_LOST, lat_stream_create(ctx, NULL, &s));
    /* Destroying the context still works (the harness does it). */
}
