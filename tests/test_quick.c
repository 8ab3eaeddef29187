/* The short path (lattice.h): lat_kernel_compile from source to kernel, in a context of the
 * caller's or the default one, and the LAT_IN/LAT_OUT/LAT_INOUT array arguments, as the
 * examples use them. */
#include "harness.h"

#include <math.h>
#include <string.h>

static const char saxpy_src[] =
    "__global__ void saxpy(float *y, const float *x, float a, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n)\n"
    "        y[i] = a * x[i] + y[i];\n"
    "}\n"
    "template <typename T, int K>\n"
    "__global__ void scale(T *out, const T *in)\n"
    "{\n"
    "    out[threadIdx.x] = in[threadIdx.x] * (T)K;\n"
    "}\n";

static void release_default(void)
{
    lat_context_default_release();
}

TEST(one_call_from_source_to_kernel_in_the_default_context)
{
    t_require_backend();
    t_defer(release_default);
    lat_kernel *k;
    ASSERT_OK(lat_kernel_compile(NULL, saxpy_src, "saxpy", &k));
    enum { N = 1000 };
    float x[N], y[N], want[N];
    t_rand_floats(x, N, -4, 4);
    t_rand_floats(y, N, -4, 4);
    for (int i = 0; i < N; i++)
        want[i] = fmaf(1.5f, x[i], y[i]); /* a GPU contracts a * x + y into one fma */
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {(N + 255) / 256}, .block = {256}},
                              LAT_ARGS(LAT_INOUT(y), LAT_IN(x), lat_arg_f32(1.5f), lat_arg_i32(N))));
    for (int i = 0; i < N; i++)
        ASSERT_MSG(y[i] == want[i], "y[%d] = %g, want %g", i, (double)y[i], (double)want[i]);

    /* The same default context every call, until it is released. */
    lat_context *a, *b;
    ASSERT_OK(lat_context_default(&a));
    ASSERT_OK(lat_context_default(&b));
    ASSERT_TRUE(a == b);
    lat_context_default_release();
    lat_context_default_release(); /* none: a no-op */
    ASSERT_OK(lat_kernel_compile(NULL, saxpy_src, "saxpy", &k));
}

TEST(a_templates_instance_by_its_arguments_in_the_callers_context)
{
    lat_context *ctx = t_context();
    lat_kernel *k;
    ASSERT_OK(lat_kernel_compile(ctx, saxpy_src, "scale<int, 3>", &k));
    int in[64], out[64];
    for (int i = 0; i < 64; i++)
        in[i] = (int)(t_rand_u32() % 2000) - 1000;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {64}},
                              LAT_ARGS(LAT_OUT(out), LAT_IN(in))));
    for (int i = 0; i < 64; i++)
        ASSERT_MSG(out[i] == 3 * in[i], "out[%d] = %d, want %d", i, out[i], 3 * in[i]);
}

TEST(what_cannot_be_compiled_or_found_is_an_error_that_says_so)
{
    lat_context *ctx = t_context();
    lat_kernel *k = NULL;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_kernel_compile(ctx, NULL, "saxpy", &k));
    ASSERT_CONTAINS(lat_last_error(), "source is NULL");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_kernel_compile(ctx, saxpy_src, NULL, &k));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_kernel_compile(ctx, saxpy_src, "saxpy", NULL));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_context_default(NULL));
    ASSERT_STATUS(LAT_ERROR_KERNEL_NOT_FOUND, lat_kernel_compile(ctx, saxpy_src, "sxpy", &k));
    ASSERT_CONTAINS(lat_last_error(), "saxpy");
    ASSERT_STATUS(LAT_ERROR_COMPILE,
                  lat_kernel_compile(ctx, "__global__ void k(float *x) { x[0] = nope; }", "k", &k));
    ASSERT_CONTAINS(lat_last_error(), "nope");
    ASSERT_NULL(k);
}
