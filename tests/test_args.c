/* Typed kernel arguments (lat_launch_args): PyCUDA's In/Out/InOut handlers, scalars of
 * every kind, structs by value, and the checks against the kernel's parameters. */
#include "harness.h"

#include <string.h>

static const lat_launch_desc one_block_of_64 = {.grid = {1}, .block = {64}};

static const char *const axpy_src =
    "__global__ void axpy(float *out, const float *x, const float *y, float a)\n"
    "{\n"
    "    int i = threadIdx.x;\n"
    "    out[i] = a * x[i] + y[i];\n"
    "}\n";

TEST(out_in_in_round_trip)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx, axpy_src, "axpy");
    float out[64], x[64], y[64];
    t_rand_floats(x, 64, -1, 1);
    t_rand_floats(y, 64, -1, 1);
    memset(out, 0, sizeof out);
    ASSERT_OK(lat_launch_args(k, &one_block_of_64,
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_in(x, sizeof x),
                                       lat_arg_in(y, sizeof y), lat_arg_f32(2.0f))));
    for (int i = 0; i < 64; i++)
        ASSERT_MSG(out[i] == 2.0f * x[i] + y[i], "out[%d] = %.9g, want %.9g", i, out[i],
                   2.0f * x[i] + y[i]);
}

TEST(an_in_buffer_is_never_copied_back)
{
    lat_context *ctx = t_context();
    static const char src[] = "__global__ void clobber(float *x) { x[threadIdx.x] = -1.0f; }\n";
    lat_kernel *k = t_kernel(ctx, src, "clobber");
    float x[64];
    for (int i = 0; i < 64; i++)
        x[i] = (float)i;
    ASSERT_OK(lat_launch_args(k, &one_block_of_64, LAT_ARGS(lat_arg_in(x, sizeof x))));
    for (int i = 0; i < 64; i++)
        ASSERT_MSG(x[i] == (float)i, "x[%d] = %g", i, x[i]);
}

TEST(inout_is_copied_in_and_back)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void bump(int *x, int by) { x[threadIdx.x] += by; }\n";
    lat_kernel *k = t_kernel(ctx, src, "bump");
    int x[64];
    for (int i = 0; i < 64; i++)
        x[i] = i * 10;
    ASSERT_OK(lat_launch_args(k, &one_block_of_64,
                              LAT_ARGS(lat_arg_inout(x, sizeof x), lat_arg_i32(-3))));
    for (int i = 0; i < 64; i++)
        ASSERT_MSG(x[i] == i * 10 - 3, "x[%d] = %d", i, x[i]);
}

TEST(scalars_of_every_kind_arrive_exactly)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void echo(long long *i, unsigned long long *u, double *f,\n"
        "                     int a, unsigned int b, long long c, unsigned long long d,\n"
        "                     float e, double g)\n"
        "{\n"
        "    i[0] = a; i[1] = c;\n"
        "    u[0] = b; u[1] = d;\n"
        "    f[0] = e; f[1] = g;\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "echo");
    long long i[2] = {0};
    unsigned long long u[2] = {0};
    double f[2] = {0};
    ASSERT_OK(lat_launch_args(
        k, &(lat_launch_desc){.grid = {1}, .block = {1}},
        LAT_ARGS(lat_arg_out(i, sizeof i), lat_arg_out(u, sizeof u), lat_arg_out(f, sizeof f),
                 lat_arg_i32(-2147483647 - 1), lat_arg_u32(4000000000u),
                 lat_arg_i64(-9000000000000000000LL), lat_arg_u64(18000000000000000000ULL),
                 lat_arg_f32(0.1f), lat_arg_f64(0.1))));
    ASSERT_EQ(i[0], -2147483647LL - 1);
    ASSERT_EQ(i[1], -9000000000000000000LL);
    ASSERT_U64_EQ(u[0], 4000000000u);
    ASSERT_U64_EQ(u[1], 18000000000000000000ULL);
    ASSERT_TRUE(f[0] == (double)0.1f);
    ASSERT_TRUE(f[1] == 0.1);
}

TEST(a_device_pointer_argument_is_passed_through)
{
    lat_context *ctx = t_context();
    static const char src[] = "__global__ void sq(int *x) { x[threadIdx.x] *= x[threadIdx.x]; }\n";
    lat_kernel *k = t_kernel(ctx, src, "sq");
    int host[64];
    for (int i = 0; i < 64; i++)
        host[i] = i;
    lat_deviceptr d = t_device_copy(ctx, host, sizeof host);
    ASSERT_OK(lat_launch_args(k, &one_block_of_64, LAT_ARGS(lat_arg_ptr(d))));
    ASSERT_OK(lat_memcpy_dtoh(ctx, host, d, sizeof host));
    ASSERT_EQ(host[63], 63 * 63);
}

TEST(a_struct_passes_by_value_as_bytes)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct params { float scale; int offset; double bias; };\n"
        "__global__ void apply(double *out, struct params p)\n"
        "{\n"
        "    int i = threadIdx.x;\n"
        "    out[i] = p.scale * i + p.offset + p.bias;\n"
        "}\n";
    struct params {
        float scale;
        int offset;
        double bias;
    } p = {0.5f, 10, 0.25};
    lat_kernel *k = t_kernel(ctx, src, "apply");
    double out[64];
    ASSERT_OK(lat_launch_args(k, &one_block_of_64,
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_bytes(&p, sizeof p))));
    for (int i = 0; i < 64; i++)
        ASSERT_MSG(out[i] == 0.5 * i + 10 + 0.25, "out[%d] = %g", i, out[i]);
}

TEST(a_kernel_without_parameters_takes_no_arguments)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx, "__global__ void nothing() { }\n", "nothing");
    ASSERT_OK(lat_launch_args(k, &one_block_of_64, 0, NULL));
    ASSERT_OK(lat_context_synchronize(ctx));
}

/* ---- mismatches ---------------------------------------------------------------------- */

TEST(too_few_arguments_is_arg_count)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx, axpy_src, "axpy");
    float out[64], x[64];
    ASSERT_STATUS(LAT_ERROR_ARG_COUNT,
                  lat_launch_args(k, &one_block_of_64,
                                  LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_in(x, sizeof x))));
    ASSERT_CONTAINS(lat_last_error(), "axpy");
}

/* A failure the backend finds names the function the program called, lat_launch_args, not
 * the lat_launch beneath it (the message is the emulator's own). */
TEST(a_backend_failure_names_lat_launch_args)
{
    lat_context *ctx = t_context();
    if (!t_is_emu(ctx) || lat_context_backend(ctx) != LAT_BACKEND_EMU)
        SKIP("the emulator's shared-memory message");
    lat_kernel *k = t_kernel(ctx,
                             "__global__ void big(float *out)\n"
                             "{\n"
                             "    __shared__ float s[8192];\n"
                             "    s[threadIdx.x] = threadIdx.x;\n"
                             "    out[threadIdx.x] = s[threadIdx.x];\n"
                             "}\n",
                             "big");
    float out[64];
    lat_launch_desc d = one_block_of_64;
    d.shared_bytes = 140000; /* with the 32 KiB static, past the opt-in of 163 KiB */
    ASSERT_STATUS(LAT_ERROR_SHARED_MEMORY,
                  lat_launch_args(k, &d, LAT_ARGS(lat_arg_out(out, sizeof out))));
    ASSERT_MSG(strncmp(lat_last_error(), "lat_launch_args: kernel 'big'", 29) == 0, "%s",
               lat_last_error());
    ASSERT_STATUS(LAT_ERROR_SHARED_MEMORY, lat_launch(k, &d, (void *[]){&(lat_deviceptr){0}}));
    ASSERT_MSG(strncmp(lat_last_error(), "lat_launch: kernel 'big'", 24) == 0, "%s",
               lat_last_error());
}

TEST(too_many_arguments_is_arg_count)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx, axpy_src, "axpy");
    float out[64] = {0}, x[64] = {0};
    ASSERT_STATUS(LAT_ERROR_ARG_COUNT,
                  lat_launch_args(k, &one_block_of_64,
                                  LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_in(x, sizeof x),
                                           lat_arg_in(x, sizeof x), lat_arg_f32(1.0f),
                                           lat_arg_f32(1.0f))));
}

TEST(a_double_for_a_float_parameter_is_arg_type_naming_it)
{
    lat_context *ctx = t_context();
    static const char src[] = "__global__ void k(float *x, float scale) { x[0] *= scale; }\n";
    lat_kernel *k = t_kernel(ctx, src, "k");
    float x[1] = {1.0f};
    ASSERT_STATUS(LAT_ERROR_ARG_TYPE,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                                  LAT_ARGS(lat_arg_inout(x, sizeof x), lat_arg_f64(2.0))));
    ASSERT_CONTAINS(lat_last_error(), "scale");
    ASSERT_EQ(x[0], 1);
}

TEST(a_float_for_an_int_parameter_is_arg_type)
{
    lat_context *ctx = t_context();
    static const char src[] = "__global__ void k(int *x, int n) { x[0] = n; }\n";
    lat_kernel *k = t_kernel(ctx, src, "k");
    int x[1];
    ASSERT_STATUS(LAT_ERROR_ARG_TYPE,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                                  LAT_ARGS(lat_arg_out(x, sizeof x), lat_arg_f32(1.0f))));
}

TEST(a_device_pointer_for_an_int_parameter_is_arg_type)
{
    lat_context *ctx = t_context();
    static const char src[] = "__global__ void k(int *x, int n) { x[0] = n; }\n";
    lat_kernel *k = t_kernel(ctx, src, "k");
    lat_deviceptr d = t_device_copy(ctx, NULL, 4);
    ASSERT_STATUS(LAT_ERROR_ARG_TYPE,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                                  LAT_ARGS(lat_arg_ptr(d), lat_arg_ptr(d))));
    ASSERT_CONTAINS(lat_last_error(), "n");
}

TEST(an_int_for_a_pointer_parameter_is_arg_type)
{
    lat_context *ctx = t_context();
    static const char src[] = "__global__ void k(int *x, int n) { x[0] = n; }\n";
    lat_kernel *k = t_kernel(ctx, src, "k");
    ASSERT_STATUS(LAT_ERROR_ARG_TYPE,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                                  LAT_ARGS(lat_arg_i32(0), lat_arg_i32(1))));
}

TEST(a_host_buffer_for_an_int_parameter_is_arg_type)
{
    lat_context *ctx = t_context();
    static const char src[] = "__global__ void k(int *x, int n) { x[0] = n; }\n";
    lat_kernel *k = t_kernel(ctx, src, "k");
    int x[1], n[1] = {0};
    ASSERT_STATUS(LAT_ERROR_ARG_TYPE,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                                  LAT_ARGS(lat_arg_out(x, sizeof x), lat_arg_in(n, sizeof n))));
}

TEST(a_null_buffer_with_a_size_is_invalid_value)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx, axpy_src, "axpy");
    float x[64] = {0};
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_launch_args(k, &one_block_of_64,
                                  LAT_ARGS(lat_arg_out(NULL, 256), lat_arg_in(x, sizeof x),
                                           lat_arg_in(x, sizeof x), lat_arg_f32(1.0f))));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_launch_args(k, &one_block_of_64,
                                  LAT_ARGS(lat_arg_out(x, sizeof x), lat_arg_in(NULL, 256),
                                           lat_arg_in(x, sizeof x), lat_arg_f32(1.0f))));
}

TEST(a_null_argument_array_with_a_count_is_invalid_value)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx, axpy_src, "axpy");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_launch_args(k, &one_block_of_64, 4, NULL));
}

TEST(a_failed_typed_launch_leaves_out_buffers_untouched)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx, axpy_src, "axpy");
    float out[64], x[64] = {0};
    for (int i = 0; i < 64; i++)
        out[i] = 123.0f;
    ASSERT_STATUS(LAT_ERROR_ARG_TYPE,
                  lat_launch_args(k, &one_block_of_64,
                                  LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_in(x, sizeof x),
                                           lat_arg_in(x, sizeof x), lat_arg_f64(1.0))));
    ASSERT_EQ(out[0], 123);
    ASSERT_EQ(out[63], 123);
}
