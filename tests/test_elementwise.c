/* The elementwise kernel generator (PyCUDA's ElementwiseKernel): generated kernels
 * against host loops for every dtype and awkward sizes, the optional parts of the
 * description, caching per context, and the errors. */
#include "array_check.h"

static const size_t sizes[] = {0, 1, 255, 256, 257, 10007, 300001};

TEST(saxpy_matches_the_host_on_every_size)
{
    lat_context *ctx = t_context();
    lat_elementwise *k;
    ASSERT_OK(lat_elementwise_create(ctx,
                                     &(lat_elementwise_desc){
                                         .arguments = "float a, const float *x, const float *y, float *z",
                                         .operation = "z[i] = a * x[i] + y[i]",
                                         .name = "saxpy"},
                                     &k));
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        float *x = rand_buffer(LAT_DTYPE_FLOAT32, n, -1, 1, false);
        float *y = rand_buffer(LAT_DTYPE_FLOAT32, n, -1, 1, false);
        lat_array *ax, *ay, *az;
        ASSERT_OK(lat_array_from_host(ctx, LAT_DTYPE_FLOAT32, 1, &n, x, &ax));
        ASSERT_OK(lat_array_from_host(ctx, LAT_DTYPE_FLOAT32, 1, &n, y, &ay));
        ASSERT_OK(lat_array_full(ctx, LAT_DTYPE_FLOAT32, 1, &n, lat_scalar_f32(-99), &az));
        ASSERT_OK(lat_elementwise_launch(k, n, LAT_ARGS(lat_arg_f32(2.5f), lat_arg_array(ax),
                                                        lat_arg_array(ay), lat_arg_array(az))));
        float *got = t_calloc(n ? n : 1, sizeof *got);
        ASSERT_OK(lat_array_get(az, got, n * sizeof *got));
        for (size_t i = 0; i < n; i++) {
            /* A GPU may fuse the multiply and the add (one rounding instead of two): the
             * results agree to the rounding of the terms, which may cancel. */
            double want = 2.5 * (double)x[i] + (double)y[i];
            double bound = 2.5 * fabs((double)x[i]) + fabs((double)y[i]);
            ASSERT_MSG(fabs(got[i] - want) <= 1.2e-7 * bound, "z[%zu] = %.9g, want %.9g", i,
                       got[i], want);
        }
        lat_array_destroy(ax);
        lat_array_destroy(ay);
        lat_array_destroy(az);
    }
    lat_elementwise_destroy(k);
}

TEST(a_generated_kernel_for_every_dtype)
{
    lat_context *ctx = t_context();
    size_t n = 4099;
    for (int t = 0; t < LAT_DTYPE_COUNT; t++) {
        lat_dtype d = ALL_DTYPES[t];
        const char *c = lat_dtype_ctype(d);
        char args[160];
        snprintf(args, sizeof args, "const %s *x, const %s *y, %s *z", c, c, c);
        lat_elementwise *k;
        ASSERT_OK(lat_elementwise_create(ctx,
                                         &(lat_elementwise_desc){.arguments = args,
                                                                 .operation = "z[i] = x[i] - y[i]"},
                                         &k));
        void *hx = rand_buffer(d, n, -100, 100, false), *hy = rand_buffer(d, n, -100, 100, false);
        lat_array *x, *y, *z;
        ASSERT_OK(lat_array_from_host(ctx, d, 1, &n, hx, &x));
        ASSERT_OK(lat_array_from_host(ctx, d, 1, &n, hy, &y));
        ASSERT_OK(lat_array_empty(ctx, d, 1, &n, &z));
        ASSERT_OK(lat_elementwise_launch(k, n, LAT_ARGS(lat_arg_array(x), lat_arg_array(y),
                                                        lat_arg_array(z))));
        void *want = t_calloc(n, lat_dtype_size(d));
        for (size_t i = 0; i < n; i++) {
            lat_scalar a = get_elem(d, hx, i), b = get_elem(d, hy, i);
            lat_scalar r = is_float(d) ? (lat_scalar){.dtype = d,
                                                      .value.f = d == LAT_DTYPE_FLOAT32
                                                                     ? (double)((float)a.value.f - (float)b.value.f)
                                                                     : a.value.f - b.value.f}
                                       : wrap_int(int_bits(a) - int_bits(b), d);
            put_elem(d, want, i, r);
        }
        check_array(z, want, 0, lat_dtype_name(d));
        lat_array_destroy(x);
        lat_array_destroy(y);
        lat_array_destroy(z);
        lat_elementwise_destroy(k);
    }
}

TEST(preamble_loop_prep_after_loop_and_n_are_available)
{
    lat_context *ctx = t_context();
    lat_elementwise *k;
    ASSERT_OK(lat_elementwise_create(
        ctx,
        &(lat_elementwise_desc){
            .arguments = "int *out, int bias",
            .preamble = "__device__ int twice(int v) { return 2 * v; }\n#define OFFSET 3",
            .loop_prep = "const int extra = bias + OFFSET;",
            .operation = "out[i] = twice((int)i) + extra + (int)n",
            .after_loop = "(void)extra;",
            .name = "with_parts"},
        &k));
    size_t n = 1000;
    lat_array *out;
    ASSERT_OK(lat_array_empty(ctx, LAT_DTYPE_INT32, 1, &n, &out));
    ASSERT_OK(lat_elementwise_launch(k, n, LAT_ARGS(lat_arg_array(out), lat_arg_i32(10))));
    int32_t *want = t_calloc(n, sizeof *want);
    for (size_t i = 0; i < n; i++)
        want[i] = 2 * (int32_t)i + 13 + 1000;
    check_array(out, want, 0, "with_parts");
    lat_array_destroy(out);
    lat_elementwise_destroy(k);
}

TEST(the_same_description_compiles_once_per_context)
{
    lat_context *ctx = t_context();
    lat_elementwise_desc desc = {.arguments = "float *x", .operation = "x[i] = 1.0f + (float)i"};
    lat_elementwise *k1, *k2;
    ASSERT_OK(lat_elementwise_create(ctx, &desc, &k1));
    lat_cache_stats before, after;
    ASSERT_OK(lat_cache_get_stats(&before));
    ASSERT_OK(lat_elementwise_create(ctx, &desc, &k2));
    ASSERT_OK(lat_cache_get_stats(&after));
    /* Not even a compile-cache lookup: the context's generated kernels answered. */
    ASSERT_EQ(after.memory_hits + after.disk_hits + after.misses + after.uncacheable,
              before.memory_hits + before.disk_hits + before.misses + before.uncacheable);
    size_t n = 10;
    lat_array *x;
    ASSERT_OK(lat_array_empty(ctx, LAT_DTYPE_FLOAT32, 1, &n, &x));
    ASSERT_OK(lat_elementwise_launch(k2, n, LAT_ARGS(lat_arg_array(x))));
    lat_elementwise_destroy(k1); /* the other handle keeps working */
    ASSERT_OK(lat_elementwise_launch(k2, n, LAT_ARGS(lat_arg_array(x))));
    float h[10];
    ASSERT_OK(lat_array_get(x, h, sizeof h));
    ASSERT_CLOSE(h[9], 10, 0, 0);
    lat_array_destroy(x);
    lat_elementwise_destroy(k2);
}

TEST(launching_nothing_is_fine)
{
    lat_context *ctx = t_context();
    lat_elementwise *k;
    ASSERT_OK(lat_elementwise_create(ctx, &(lat_elementwise_desc){.arguments = "float *x",
                                                                   .operation = "x[i] = 0"},
                                     &k));
    ASSERT_OK(lat_elementwise_launch(k, 0, LAT_ARGS(lat_arg_ptr(0))));
    lat_elementwise_destroy(k);
}

TEST(arguments_are_checked_against_the_declaration)
{
    lat_context *ctx = t_context();
    lat_elementwise *k;
    ASSERT_OK(lat_elementwise_create(ctx, &(lat_elementwise_desc){.arguments = "float a, float *x",
                                                                   .operation = "x[i] = a"},
                                     &k));
    lat_array *x;
    ASSERT_OK(lat_array_empty(ctx, LAT_DTYPE_FLOAT32, 1, (size_t[]){8}, &x));
    ASSERT_STATUS(LAT_ERROR_ARG_COUNT, lat_elementwise_launch(k, 8, LAT_ARGS(lat_arg_array(x))));
    ASSERT_STATUS(LAT_ERROR_ARG_TYPE,
                  lat_elementwise_launch(k, 8, LAT_ARGS(lat_arg_array(x), lat_arg_array(x))));
    ASSERT_CONTAINS(lat_last_error(), "a");
    lat_array_destroy(x);
    lat_elementwise_destroy(k);
}

TEST(bad_descriptions_are_invalid_value)
{
    lat_context *ctx = t_context();
    lat_elementwise *k = (lat_elementwise *)&k;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_elementwise_create(ctx, &(lat_elementwise_desc){.operation = "x[i] = 0"}, &k));
    ASSERT_CONTAINS(lat_last_error(), "arguments");
    ASSERT_NULL(k);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_elementwise_create(ctx, &(lat_elementwise_desc){.arguments = "float *x"}, &k));
    ASSERT_CONTAINS(lat_last_error(), "operation");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_elementwise_create(ctx,
                                         &(lat_elementwise_desc){.arguments = "float *x",
                                                                 .operation = "x[i] = 0",
                                                                 .name = "2bad name"},
                                         &k));
    ASSERT_CONTAINS(lat_last_error(), "2bad name");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_elementwise_create(ctx, NULL, &k));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_elementwise_launch(NULL, 1, 0, NULL));
}

TEST(a_compile_error_carries_the_compiler_log)
{
    lat_context *ctx = t_context();
    lat_elementwise *k;
    ASSERT_STATUS(LAT_ERROR_COMPILE,
                  lat_elementwise_create(ctx,
                                         &(lat_elementwise_desc){.arguments = "float *x",
                                                                 .operation = "x[i] = undeclared_thing"},
                                         &k));
    ASSERT_CONTAINS(lat_last_error(), "undeclared_thing");
    ASSERT_NULL(k);
}

TEST(a_compile_error_shows_the_generated_source_with_the_users_expression)
{
    lat_context *ctx = t_context();
    lat_elementwise *k = NULL;
    lat_status st = lat_elementwise_create(
        ctx,
        &(lat_elementwise_desc){.arguments = "float *z, const float *x",
                                .operation = "z[i] = 2.0f * x[i] + undefined_thing",
                                .name = "typo"},
        &k);
    ASSERT_STATUS(LAT_ERROR_COMPILE, st);
    ASSERT_NULL(k);
    /* The compiler's message, then the numbered source holding the operation as written. */
    ASSERT_CONTAINS(lat_last_error(), "undefined_thing");
    ASSERT_CONTAINS(lat_last_error(), "as lattice generated it from your expressions");
    ASSERT_CONTAINS(lat_last_error(), "z[i] = 2.0f * x[i] + undefined_thing");
    ASSERT_CONTAINS(lat_last_error(), "__global__ void typo(");
}
