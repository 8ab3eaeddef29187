/* Cross-checking: every launch on the GPU and on the emulator, compared. In the emulator's
 * suite the "GPU" side is an emulator too (LATTICE_CROSS_PRIMARY=emu), which tests all of
 * the pairing and comparing; in the CUDA suite it is the GPU. */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A cross-checking context, pairing the backend under test with the emulator. */
static lat_context *cross_context(double rtol, double atol, lat_logger logger)
{
    lat_backend_kind k = t_require_backend();
    if (k == LAT_BACKEND_EMU)
        setenv("LATTICE_CROSS_PRIMARY", "emu", 1);
    else if (k == LAT_BACKEND_CUDA)
        unsetenv("LATTICE_CROSS_PRIMARY");
    return t_context_with(&(lat_context_desc){.backend = LAT_BACKEND_CROSS, .logger = logger,
                                              .cross_rtol = rtol, .cross_atol = atol});
}

static const char mul_src[] =
    "__global__ void multiply_them(float *dest, float *a, float *b)\n"
    "{\n"
    "    const int i = threadIdx.x;\n"
    "    dest[i] = a[i] * b[i];\n"
    "}\n";

TEST(a_correct_kernel_passes_the_cross_check)
{
    lat_context *ctx = cross_context(0, 0, (lat_logger){0});
    ASSERT_EQ(lat_context_backend(ctx), LAT_BACKEND_CROSS);
    lat_kernel *k = t_kernel(ctx, mul_src, "multiply_them");
    float a[400], b[400], dest[400];
    t_rand_floats(a, 400, -1, 1);
    t_rand_floats(b, 400, -1, 1);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {400}},
                              LAT_ARGS(lat_arg_out(dest, sizeof dest), lat_arg_in(a, sizeof a),
                                       lat_arg_in(b, sizeof b))));
    for (int i = 0; i < 400; i++)
        ASSERT_MSG(dest[i] == a[i] * b[i], "dest[%d]", i);
    /* And with device memory the program manages. */
    lat_deviceptr dd = t_device_copy(ctx, NULL, sizeof dest);
    lat_deviceptr da = t_device_copy(ctx, a, sizeof a);
    lat_deviceptr db = t_device_copy(ctx, b, sizeof b);
    void *params[] = {&dd, &da, &db};
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {400}}, params));
    ASSERT_OK(lat_memcpy_dtoh(ctx, dest, dd, sizeof dest));
    for (int i = 0; i < 400; i++)
        ASSERT_MSG(dest[i] == a[i] * b[i], "dest[%d]", i);
}

/* A kernel whose result depends on where its buffer is: the two sides' buffers are at
 * different addresses, so they must disagree. */
static const char addr_src[] =
    "__global__ void address_bits(unsigned *out, int n)\n"
    "{\n"
    "    int i = threadIdx.x;\n"
    "    if (i < n) out[i] = i == 7 ? (unsigned)((unsigned long long)out >> 8) : (unsigned)i;\n"
    "}\n";

static char logged[2048];
static void capture(void *user, lat_log_level level, const char *message)
{
    (void)user;
    if (level == LAT_LOG_ERROR)
        snprintf(logged, sizeof logged, "%s", message);
}

TEST(a_difference_is_reported_with_kernel_buffer_index_and_values)
{
    logged[0] = '\0';
    lat_context *ctx = cross_context(0, 0, (lat_logger){capture, NULL});
    lat_kernel *k = t_kernel(ctx, addr_src, "address_bits");
    lat_deviceptr d = t_device_copy(ctx, NULL, 32 * sizeof(unsigned));
    ASSERT_OK(lat_memset_d32(ctx, d, 0, 32));
    int n = 32;
    void *params[] = {&d, &n};
    ASSERT_STATUS(LAT_ERROR_CROSS_MISMATCH,
                  lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {32}}, params));
    const char *msg = lat_last_error();
    ASSERT_CONTAINS(msg, "kernel 'address_bits'");
    ASSERT_CONTAINS(msg, "parameter 0 'out'");
    ASSERT_CONTAINS(msg, "word at byte 28"); /* element 7 */
    ASSERT_CONTAINS(msg, "emulator");
    ASSERT_CONTAINS(logged, "cross-check"); /* the logger heard it too */
}

static const char float_addr_src[] =
    "__global__ void float_address(double *out)\n"
    "{\n"
    "    out[threadIdx.x] = threadIdx.x == 3 ? (double)(unsigned long long)out : 1.0;\n"
    "}\n";

TEST(float_data_compares_within_the_tolerance)
{
    /* The two addresses differ: beyond any tolerance of 0, within one of 1e30. */
    lat_context *exact = cross_context(-1, -1, (lat_logger){0});
    lat_kernel *k = t_kernel(exact, float_addr_src, "float_address");
    double out[8];
    ASSERT_STATUS(LAT_ERROR_CROSS_MISMATCH,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {8}},
                                  LAT_ARGS(lat_arg_out(out, sizeof out))));
    ASSERT_CONTAINS(lat_last_error(), "double element 3");
    ASSERT_CONTAINS(lat_last_error(), "beyond the tolerance");

    lat_context *loose = cross_context(1e30, 0, (lat_logger){0});
    k = t_kernel(loose, float_addr_src, "float_address");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {8}},
                              LAT_ARGS(lat_arg_out(out, sizeof out))));
    ASSERT_EQ(out[0], 1);
}

static const char struct_src[] =
    "struct span { float *data; int n; };\n"
    "__global__ void fill(struct span s)\n"
    "{\n"
    "    int i = threadIdx.x;\n"
    "    if (i < s.n) s.data[i] = 0.5f * i;\n"
    "}\n";

TEST(pointers_inside_struct_arguments_are_translated)
{
    lat_context *ctx = cross_context(0, 0, (lat_logger){0});
    lat_kernel *k = t_kernel(ctx, struct_src, "fill");
    lat_deviceptr d = t_device_copy(ctx, NULL, 64 * sizeof(float));
    struct {
        lat_deviceptr data;
        int n;
    } s;
    /* The padding is passed too: zero it, as a careful caller would. */
    memset(&s, 0, sizeof s);
    s.data = d;
    s.n = 64;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {64}},
                              LAT_ARGS(lat_arg_bytes(&s, sizeof s))));
    float host[64];
    ASSERT_OK(lat_memcpy_dtoh(ctx, host, d, sizeof host));
    ASSERT_EQ(host[10], 5);
}

TEST(streams_events_and_2d_copies_work_cross_checked)
{
    lat_context *ctx = cross_context(0, 0, (lat_logger){0});
    lat_stream *s;
    ASSERT_OK(lat_stream_create(ctx, NULL, &s));
    lat_event *a, *b;
    ASSERT_OK(lat_event_create(ctx, NULL, &a));
    ASSERT_OK(lat_event_create(ctx, NULL, &b));
    lat_kernel *k = t_kernel(ctx, mul_src, "multiply_them");
    float x[64], out[64];
    for (int i = 0; i < 64; i++)
        x[i] = (float)i;
    lat_deviceptr dx, dout;
    size_t pitch;
    ASSERT_OK(lat_mem_alloc_pitch(ctx, sizeof x, 1, 4, &dx, &pitch));
    ASSERT_OK(lat_mem_alloc_async(ctx, sizeof out, s, &dout));
    ASSERT_OK(lat_memcpy_2d_async(ctx, &(lat_copy_2d){.src_host = x, .dst_device = dx, .dst_pitch = pitch,
                                                      .width_bytes = sizeof x, .height = 1}, s));
    ASSERT_OK(lat_event_record(a, s));
    void *params[] = {&dout, &dx, &dx};
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {64}, .stream = s}, params));
    ASSERT_OK(lat_event_record(b, s));
    ASSERT_OK(lat_memcpy_dtoh_async(ctx, out, dout, sizeof out, s));
    ASSERT_OK(lat_stream_synchronize(s));
    float ms;
    ASSERT_OK(lat_event_elapsed_ms(a, b, &ms));
    for (int i = 0; i < 64; i++)
        ASSERT_EQ(out[i], i * i);
    ASSERT_OK(lat_mem_free_async(ctx, dout, s));
}

TEST(the_compared_memory_may_be_every_allocation)
{
    setenv("LATTICE_CROSS_COMPARE", "all", 1);
    lat_context *ctx = cross_context(0, 0, (lat_logger){0});
    unsetenv("LATTICE_CROSS_COMPARE");
    lat_kernel *k = t_kernel(ctx, mul_src, "multiply_them");
    float a[32] = {0}, dest[32];
    (void)t_device_copy(ctx, a, sizeof a); /* not an argument, compared anyway */
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {32}},
                              LAT_ARGS(lat_arg_out(dest, sizeof dest), lat_arg_in(a, sizeof a),
                                       lat_arg_in(a, sizeof a))));
}

TEST(images_cannot_be_cross_checked)
{
    lat_context *ctx = cross_context(0, 0, (lat_logger){0});
    lat_module *m;
    ASSERT_STATUS(LAT_ERROR_UNSUPPORTED,
                  lat_module_load(ctx, &(lat_module_image_desc){.data = "x", .size = 1}, &m));
}
