/* Device arrays: element types, creation, host copies, views, fill, arange, astype and
 * copies, on every dtype; the edge shapes (empty, 0-d, one element); and the errors. */
#include "array_check.h"


/* ---- element types ---------------------------------------------------------------------- */

TEST(dtypes_have_names_c_types_and_sizes)
{
    static const struct {
        lat_dtype t;
        const char *name, *ctype;
        size_t size;
    } want[] = {
        {LAT_DTYPE_INT8, "int8", "signed char", 1},
        {LAT_DTYPE_INT16, "int16", "short", 2},
        {LAT_DTYPE_INT32, "int32", "int", 4},
        {LAT_DTYPE_INT64, "int64", "long long", 8},
        {LAT_DTYPE_UINT8, "uint8", "unsigned char", 1},
        {LAT_DTYPE_UINT16, "uint16", "unsigned short", 2},
        {LAT_DTYPE_UINT32, "uint32", "unsigned int", 4},
        {LAT_DTYPE_UINT64, "uint64", "unsigned long long", 8},
        {LAT_DTYPE_FLOAT32, "float32", "float", 4},
        {LAT_DTYPE_FLOAT64, "float64", "double", 8},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        ASSERT_STR_EQ(lat_dtype_name(want[i].t), want[i].name);
        ASSERT_STR_EQ(lat_dtype_ctype(want[i].t), want[i].ctype);
        ASSERT_EQ(lat_dtype_size(want[i].t), want[i].size);
    }
    ASSERT_STR_EQ(lat_dtype_name(LAT_DTYPE_DEFAULT), "float32");
    ASSERT_STR_EQ(lat_dtype_name((lat_dtype)99), "unknown");
    ASSERT_NULL(lat_dtype_ctype((lat_dtype)99));
    ASSERT_EQ(lat_dtype_size((lat_dtype)-1), 0);
}

/* The type C gives (A)0 + (B)0, written out for every pair C has an answer for. */
#define C_TYPE_OF(x)                                                                       \
    _Generic((x), int: LAT_DTYPE_INT32, unsigned int: LAT_DTYPE_UINT32,                    \
             long long: LAT_DTYPE_INT64, unsigned long long: LAT_DTYPE_UINT64,             \
             long: LAT_DTYPE_INT64, unsigned long: LAT_DTYPE_UINT64,                       \
             float: LAT_DTYPE_FLOAT32, double: LAT_DTYPE_FLOAT64)

TEST(promotion_is_c_usual_arithmetic_conversions)
{
#define ROW(A)                                                                             \
    {C_TYPE_OF((A)0 + (int8_t)0), C_TYPE_OF((A)0 + (int16_t)0), C_TYPE_OF((A)0 + (int32_t)0), \
     C_TYPE_OF((A)0 + (long long)0), C_TYPE_OF((A)0 + (uint8_t)0),                         \
     C_TYPE_OF((A)0 + (uint16_t)0), C_TYPE_OF((A)0 + (uint32_t)0),                         \
     C_TYPE_OF((A)0 + (unsigned long long)0), C_TYPE_OF((A)0 + (float)0),                  \
     C_TYPE_OF((A)0 + (double)0)}
    const lat_dtype c[LAT_DTYPE_COUNT][LAT_DTYPE_COUNT] = {
        ROW(int8_t),   ROW(int16_t),  ROW(int32_t),  ROW(long long), ROW(uint8_t),
        ROW(uint16_t), ROW(uint32_t), ROW(unsigned long long), ROW(float), ROW(double),
    };
#undef ROW
    for (int i = 0; i < LAT_DTYPE_COUNT; i++)
        for (int j = 0; j < LAT_DTYPE_COUNT; j++)
            ASSERT_MSG(lat_dtype_promote(ALL_DTYPES[i], ALL_DTYPES[j]) == c[i][j],
                       "%s with %s gives %s; C gives %s", lat_dtype_name(ALL_DTYPES[i]),
                       lat_dtype_name(ALL_DTYPES[j]),
                       lat_dtype_name(lat_dtype_promote(ALL_DTYPES[i], ALL_DTYPES[j])),
                       lat_dtype_name(c[i][j]));
    ASSERT_EQ(lat_dtype_promote((lat_dtype)42, LAT_DTYPE_INT8), LAT_DTYPE_DEFAULT);
}

TEST(scalars_convert_as_c_does)
{
    ASSERT_EQ(lat_scalar_to_i64(lat_scalar_f64(-2.75)), -2);
    ASSERT_U64_EQ(lat_scalar_to_u64(lat_scalar_i32(-1)), UINT64_MAX);
    ASSERT_CLOSE(lat_scalar_to_f64(lat_scalar_u64(UINT64_MAX)), 18446744073709551615.0, 0, 0);
    ASSERT_CLOSE(lat_scalar_to_f64(lat_scalar_f32(0.1f)), (double)0.1f, 0, 0);
    ASSERT_EQ(lat_scalar_to_i64(lat_scalar_f64(NAN)), 0);
    ASSERT_EQ(lat_scalar_to_i64(lat_scalar_f64(1e300)), INT64_MAX);
}

/* ---- creation and host copies ----------------------------------------------------------- */

TEST(from_host_and_get_round_trip_every_dtype)
{
    lat_context *ctx = t_context();
    for (int k = 0; k < LAT_DTYPE_COUNT; k++) {
        lat_dtype t = ALL_DTYPES[k];
        size_t shape[3] = {3, 5, 7};
        void *host = rand_buffer(t, 105, -1e6, 1e6, true);
        lat_array *a;
        ASSERT_OK(lat_array_from_host(ctx, t, 3, shape, host, &a));
        ASSERT_EQ(lat_array_dtype(a), t);
        ASSERT_EQ(lat_array_ndim(a), 3);
        ASSERT_EQ(lat_array_shape(a)[2], 7);
        ASSERT_EQ(lat_array_size(a), 105);
        ASSERT_EQ(lat_array_nbytes(a), 105 * lat_dtype_size(t));
        ASSERT_TRUE(lat_array_context(a) == ctx);
        ASSERT_U64_NE(lat_array_ptr(a), 0);
        check_array(a, host, 0, lat_dtype_name(t));
        lat_array_destroy(a);
    }
}

TEST(the_default_dtype_is_float32)
{
    lat_context *ctx = t_context();
    lat_array *a;
    ASSERT_OK(lat_array_empty(ctx, LAT_DTYPE_DEFAULT, 1, (size_t[]){4}, &a));
    ASSERT_EQ(lat_array_dtype(a), LAT_DTYPE_FLOAT32);
    lat_array_destroy(a);
}

TEST(zeros_and_full_of_every_dtype)
{
    lat_context *ctx = t_context();
    for (int k = 0; k < LAT_DTYPE_COUNT; k++) {
        lat_dtype t = ALL_DTYPES[k];
        size_t n = 1001;
        lat_array *z, *f;
        ASSERT_OK(lat_array_zeros(ctx, t, 1, &n, &z));
        void *want = t_calloc(n, lat_dtype_size(t));
        check_array(z, want, 0, "zeros");
        ASSERT_OK(lat_array_full(ctx, t, 1, &n, lat_scalar_i32(-7), &f));
        for (size_t i = 0; i < n; i++)
            put_elem(t, want, i, lat_scalar_i32(-7));
        check_array(f, want, 0, "full(-7)");
        ASSERT_OK(lat_array_fill(f, lat_scalar_f64(2.5)));
        for (size_t i = 0; i < n; i++)
            put_elem(t, want, i, lat_scalar_f64(2.5));
        check_array(f, want, 0, "fill(2.5)");
        lat_array_destroy(z);
        lat_array_destroy(f);
    }
}

TEST(like_arrays_copy_shape_and_dtype)
{
    lat_context *ctx = t_context();
    lat_array *a, *e, *z;
    ASSERT_OK(lat_array_full(ctx, LAT_DTYPE_INT16, 2, (size_t[]){3, 4}, lat_scalar_i32(5), &a));
    ASSERT_OK(lat_array_empty_like(a, &e));
    ASSERT_OK(lat_array_zeros_like(a, &z));
    ASSERT_EQ(lat_array_dtype(e), LAT_DTYPE_INT16);
    ASSERT_EQ(lat_array_shape(z)[1], 4);
    int16_t h[12];
    ASSERT_OK(lat_array_get(z, h, sizeof h));
    for (int i = 0; i < 12; i++)
        ASSERT_EQ(h[i], 0);
    lat_array_destroy(a);
    lat_array_destroy(e);
    lat_array_destroy(z);
}

TEST(empty_arrays_own_no_memory_and_every_operation_accepts_them)
{
    lat_context *ctx = t_context();
    lat_array *a, *b, *c;
    ASSERT_OK(lat_array_empty(ctx, LAT_DTYPE_FLOAT32, 2, (size_t[]){0, 5}, &a));
    ASSERT_EQ(lat_array_size(a), 0);
    ASSERT_U64_EQ(lat_array_ptr(a), 0);
    ASSERT_OK(lat_array_set(a, NULL, 0));
    ASSERT_OK(lat_array_get(a, NULL, 0));
    ASSERT_OK(lat_array_fill(a, lat_scalar_f32(1)));
    ASSERT_OK(lat_array_from_host(ctx, LAT_DTYPE_INT8, 1, (size_t[]){0}, NULL, &b));
    ASSERT_OK(lat_array_astype(a, LAT_DTYPE_FLOAT64, &c));
    ASSERT_EQ(lat_array_size(c), 0);
    lat_array *d;
    ASSERT_OK(lat_array_arange(ctx, LAT_DTYPE_INT32, 5, 5, 1, &d));
    ASSERT_EQ(lat_array_size(d), 0);
    lat_array_destroy(a);
    lat_array_destroy(b);
    lat_array_destroy(c);
    lat_array_destroy(d);
}

TEST(a_0d_array_holds_one_element)
{
    lat_context *ctx = t_context();
    lat_array *a;
    ASSERT_OK(lat_array_full(ctx, LAT_DTYPE_FLOAT64, 0, NULL, lat_scalar_f64(3.25), &a));
    ASSERT_EQ(lat_array_ndim(a), 0);
    ASSERT_EQ(lat_array_size(a), 1);
    lat_scalar s;
    ASSERT_OK(lat_array_get_scalar(a, &s));
    ASSERT_EQ(s.dtype, LAT_DTYPE_FLOAT64);
    ASSERT_CLOSE(s.value.f, 3.25, 0, 0);
    lat_array *v;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_slice(a, 0, 1, &v));
    ASSERT_NULL(v);
    lat_array_destroy(a);
}

TEST(asynchronous_host_copies_on_a_stream)
{
    lat_context *ctx = t_context();
    size_t n = 100000;
    lat_stream *stream;
    ASSERT_OK(lat_stream_create(ctx, NULL, &stream));
    double *in, *out;
    ASSERT_OK(lat_host_alloc(ctx, n * sizeof *in, 0, (void **)&in));
    ASSERT_OK(lat_host_alloc(ctx, n * sizeof *out, 0, (void **)&out));
    for (size_t i = 0; i < n; i++)
        in[i] = (double)i * 0.5;
    lat_array *a, *b;
    ASSERT_OK(lat_array_empty(ctx, LAT_DTYPE_FLOAT64, 1, &n, &a));
    ASSERT_OK(lat_array_set_async(a, in, n * sizeof *in, stream));
    ASSERT_OK(lat_stream_synchronize(stream));
    ASSERT_OK(lat_array_scalar_op(LAT_OP_MUL, lat_scalar_f64(4), a, NULL, &b));
    ASSERT_OK(lat_array_get_async(b, out, n * sizeof *out, stream));
    ASSERT_OK(lat_stream_synchronize(stream));
    for (size_t i = 0; i < n; i++)
        ASSERT_MSG(out[i] == 2.0 * (double)i, "out[%zu] = %g", i, out[i]);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_get_async(b, out, 8, stream));
    lat_array_destroy(a);
    lat_array_destroy(b);
    ASSERT_OK(lat_host_free(ctx, in));
    ASSERT_OK(lat_host_free(ctx, out));
    lat_stream_destroy(stream);
}

TEST(get_scalar_reads_every_dtype)
{
    lat_context *ctx = t_context();
    for (int k = 0; k < LAT_DTYPE_COUNT; k++) {
        lat_dtype t = ALL_DTYPES[k];
        lat_array *a;
        ASSERT_OK(lat_array_full(ctx, t, 1, (size_t[]){1}, lat_scalar_i32(100), &a));
        lat_scalar s;
        ASSERT_OK(lat_array_get_scalar(a, &s));
        ASSERT_EQ(s.dtype, t);
        ASSERT_CLOSE(as_double(s), 100, 0, 0);
        lat_array_destroy(a);
    }
}

/* ---- arange ----------------------------------------------------------------------------- */

TEST(arange_counts_like_numpy)
{
    lat_context *ctx = t_context();
    lat_array *a;
    ASSERT_OK(lat_array_arange(ctx, LAT_DTYPE_INT32, 0, 10, 3, &a));
    int32_t h[4];
    ASSERT_EQ(lat_array_size(a), 4);
    ASSERT_OK(lat_array_get(a, h, sizeof h));
    ASSERT_EQ(h[0], 0);
    ASSERT_EQ(h[3], 9);
    lat_array_destroy(a);
    ASSERT_OK(lat_array_arange(ctx, LAT_DTYPE_FLOAT64, 1, 0, -0.25, &a));
    double d[4];
    ASSERT_EQ(lat_array_size(a), 4);
    ASSERT_OK(lat_array_get(a, d, sizeof d));
    ASSERT_CLOSE(d[3], 0.25, 0, 0);
    lat_array_destroy(a);
    ASSERT_OK(lat_array_arange(ctx, LAT_DTYPE_INT8, 0, -5, 1, &a));
    ASSERT_EQ(lat_array_size(a), 0);
    lat_array_destroy(a);
}

TEST(arange_of_every_dtype_and_a_size_not_a_multiple_of_the_block)
{
    lat_context *ctx = t_context();
    for (int k = 0; k < LAT_DTYPE_COUNT; k++) {
        lat_dtype t = ALL_DTYPES[k];
        double stop = lat_dtype_size(t) == 1 ? 100 : 100003;
        lat_array *a;
        ASSERT_OK(lat_array_arange(ctx, t, 0, stop, 1, &a));
        size_t n = lat_array_size(a);
        ASSERT_EQ(n, (size_t)stop);
        void *want = t_calloc(n, lat_dtype_size(t));
        for (size_t i = 0; i < n; i++)
            put_elem(t, want, i, lat_scalar_f64((double)i));
        check_array(a, want, 0, "arange");
        lat_array_destroy(a);
    }
}

TEST(arange_rejects_a_zero_or_infinite_step)
{
    lat_context *ctx = t_context();
    lat_array *a;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_arange(ctx, LAT_DTYPE_INT32, 0, 1, 0, &a));
    ASSERT_CONTAINS(lat_last_error(), "step");
    ASSERT_NULL(a);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_array_arange(ctx, LAT_DTYPE_INT32, 0, INFINITY, 1, &a));
}

/* ---- views ------------------------------------------------------------------------------ */

TEST(a_slice_shares_memory_with_its_array)
{
    lat_context *ctx = t_context();
    lat_array *a, *v;
    ASSERT_OK(lat_array_arange(ctx, LAT_DTYPE_INT32, 0, 12, 1, &a));
    lat_array *m;
    ASSERT_OK(lat_array_reshape(a, 2, (size_t[]){4, 3}, &m));
    ASSERT_OK(lat_array_slice(m, 1, 3, &v));
    ASSERT_EQ(lat_array_ndim(v), 2);
    ASSERT_EQ(lat_array_shape(v)[0], 2);
    ASSERT_EQ(lat_array_size(v), 6);
    ASSERT_U64_EQ(lat_array_ptr(v), lat_array_ptr(a) + 3 * sizeof(int32_t));
    int32_t h[6];
    ASSERT_OK(lat_array_get(v, h, sizeof h));
    for (int i = 0; i < 6; i++)
        ASSERT_EQ(h[i], 3 + i);
    /* Writing the view writes the array. */
    ASSERT_OK(lat_array_fill(v, lat_scalar_i32(-1)));
    int32_t all[12];
    ASSERT_OK(lat_array_get(a, all, sizeof all));
    for (int i = 0; i < 12; i++)
        ASSERT_EQ(all[i], i >= 3 && i < 9 ? -1 : i);
    lat_array_destroy(m);
    lat_array_destroy(v);
    lat_array_destroy(a);
}

TEST(memory_outlives_the_array_while_a_view_lives_and_is_freed_once)
{
    lat_context *ctx = t_context();
    size_t free_before;
    ASSERT_OK(lat_mem_info(ctx, &free_before, NULL));
    lat_array *a, *v, *w;
    ASSERT_OK(lat_array_full(ctx, LAT_DTYPE_FLOAT32, 1, (size_t[]){1000}, lat_scalar_f32(4), &a));
    ASSERT_OK(lat_array_slice(a, 10, 20, &v));
    ASSERT_OK(lat_array_reshape(v, 2, (size_t[]){2, 5}, &w));
    lat_array_destroy(a);
    float h[10];
    ASSERT_OK(lat_array_get(w, h, sizeof h));
    ASSERT_CLOSE(h[9], 4, 0, 0);
    lat_array_destroy(v);
    ASSERT_OK(lat_array_get(w, h, sizeof h));
    lat_array_destroy(w);
    /* A second free would fail in the core's table; the memory is simply gone. */
    lat_deviceptr p;
    ASSERT_OK(lat_mem_alloc(ctx, 16, &p));
    ASSERT_OK(lat_mem_free(ctx, p));
}

TEST(slices_clamp_like_python)
{
    lat_context *ctx = t_context();
    lat_array *a, *v;
    ASSERT_OK(lat_array_arange(ctx, LAT_DTYPE_INT64, 0, 10, 1, &a));
    ASSERT_OK(lat_array_slice(a, 8, 100, &v));
    ASSERT_EQ(lat_array_size(v), 2);
    lat_array_destroy(v);
    ASSERT_OK(lat_array_slice(a, 7, 3, &v));
    ASSERT_EQ(lat_array_size(v), 0);
    ASSERT_U64_EQ(lat_array_ptr(v), 0);
    lat_array_destroy(v);
    lat_array_destroy(a);
}

TEST(reshape_needs_the_same_element_count)
{
    lat_context *ctx = t_context();
    lat_array *a, *v;
    ASSERT_OK(lat_array_empty(ctx, LAT_DTYPE_UINT8, 2, (size_t[]){4, 6}, &a));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_reshape(a, 2, (size_t[]){5, 5}, &v));
    ASSERT_CONTAINS(lat_last_error(), "(4, 6)");
    ASSERT_CONTAINS(lat_last_error(), "(5, 5)");
    ASSERT_NULL(v);
    ASSERT_OK(lat_array_reshape(a, 3, (size_t[]){2, 3, 4}, &v));
    ASSERT_EQ(lat_array_ndim(v), 3);
    lat_array_destroy(v);
    ASSERT_OK(lat_array_reshape(a, 1, (size_t[]){24}, &v));
    lat_array_destroy(v);
    lat_array_destroy(a);
}

TEST(wrap_uses_existing_memory_and_never_frees_it)
{
    lat_context *ctx = t_context();
    lat_deviceptr p;
    ASSERT_OK(lat_mem_alloc(ctx, 64 * sizeof(float), &p));
    lat_array *a;
    ASSERT_OK(lat_array_wrap(ctx, p, LAT_DTYPE_FLOAT32, 2, (size_t[]){8, 8}, &a));
    ASSERT_OK(lat_array_fill(a, lat_scalar_f32(1.5f)));
    lat_array_destroy(a);
    float h[64];
    ASSERT_OK(lat_memcpy_dtoh(ctx, h, p, sizeof h));
    ASSERT_CLOSE(h[63], 1.5, 0, 0);
    ASSERT_OK(lat_mem_free(ctx, p));
}

TEST(wrap_checks_the_range_and_alignment)
{
    lat_context *ctx = t_context();
    lat_deviceptr p;
    ASSERT_OK(lat_mem_alloc(ctx, 64, &p));
    lat_array *a;
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS,
                  lat_array_wrap(ctx, p, LAT_DTYPE_FLOAT64, 1, (size_t[]){9}, &a));
    ASSERT_NULL(a);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_array_wrap(ctx, p + 2, LAT_DTYPE_INT32, 1, (size_t[]){2}, &a));
    ASSERT_CONTAINS(lat_last_error(), "aligned");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_array_wrap(ctx, 0, LAT_DTYPE_INT32, 1, (size_t[]){2}, &a));
    ASSERT_OK(lat_mem_free(ctx, p));
}

/* ---- copies and conversions ------------------------------------------------------------- */

TEST(astype_converts_every_pair_of_dtypes_as_c_does)
{
    lat_context *ctx = t_context();
    size_t n = 777;
    for (int i = 0; i < LAT_DTYPE_COUNT; i++) {
        lat_dtype from = ALL_DTYPES[i];
        /* Values every type can hold, so that every conversion is defined in C. */
        void *host = rand_buffer(from, n, 0, 100, false);
        lat_array *a;
        ASSERT_OK(lat_array_from_host(ctx, from, 1, &n, host, &a));
        for (int j = 0; j < LAT_DTYPE_COUNT; j++) {
            lat_dtype to = ALL_DTYPES[j];
            lat_array *b;
            ASSERT_OK(lat_array_astype(a, to, &b));
            ASSERT_EQ(lat_array_dtype(b), to);
            void *want = t_calloc(n, lat_dtype_size(to));
            for (size_t k = 0; k < n; k++)
                put_elem(to, want, k, get_elem(from, host, k));
            char what[64];
            snprintf(what, sizeof what, "%s to %s", lat_dtype_name(from), lat_dtype_name(to));
            check_array(b, want, 0, what);
            lat_array_destroy(b);
        }
        lat_array_destroy(a);
    }
}

TEST(astype_wraps_integers_and_truncates_floats)
{
    lat_context *ctx = t_context();
    int32_t h[4] = {300, -1, 255, -129};
    lat_array *a, *b;
    ASSERT_OK(lat_array_from_host(ctx, LAT_DTYPE_INT32, 1, (size_t[]){4}, h, &a));
    ASSERT_OK(lat_array_astype(a, LAT_DTYPE_UINT8, &b));
    uint8_t u[4];
    ASSERT_OK(lat_array_get(b, u, sizeof u));
    ASSERT_EQ(u[0], 44);
    ASSERT_EQ(u[1], 255);
    ASSERT_EQ(u[3], 127);
    lat_array_destroy(a);
    lat_array_destroy(b);
    float f[3] = {-2.75f, 2.75f, 1e9f};
    ASSERT_OK(lat_array_from_host(ctx, LAT_DTYPE_FLOAT32, 1, (size_t[]){3}, f, &a));
    ASSERT_OK(lat_array_astype(a, LAT_DTYPE_INT64, &b));
    int64_t l[3];
    ASSERT_OK(lat_array_get(b, l, sizeof l));
    ASSERT_EQ(l[0], -2);
    ASSERT_EQ(l[1], 2);
    ASSERT_EQ(l[2], 1000000000);
    lat_array_destroy(a);
    lat_array_destroy(b);
}

TEST(copy_between_arrays_of_one_shape)
{
    lat_context *ctx = t_context();
    lat_array *a, *b, *c;
    ASSERT_OK(lat_array_arange(ctx, LAT_DTYPE_FLOAT64, 0, 6, 1, &a));
    ASSERT_OK(lat_array_zeros(ctx, LAT_DTYPE_FLOAT64, 1, (size_t[]){6}, &b));
    ASSERT_OK(lat_array_zeros(ctx, LAT_DTYPE_INT16, 1, (size_t[]){6}, &c));
    ASSERT_OK(lat_array_copy(b, a));
    ASSERT_OK(lat_array_copy(c, a));
    ASSERT_OK(lat_array_copy(a, a));
    double d[6];
    int16_t s[6];
    ASSERT_OK(lat_array_get(b, d, sizeof d));
    ASSERT_OK(lat_array_get(c, s, sizeof s));
    ASSERT_CLOSE(d[5], 5, 0, 0);
    ASSERT_EQ(s[5], 5);
    lat_array *m;
    ASSERT_OK(lat_array_empty(ctx, LAT_DTYPE_FLOAT64, 2, (size_t[]){2, 3}, &m));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_copy(m, a));
    ASSERT_CONTAINS(lat_last_error(), "(2, 3)");
    lat_array_destroy(a);
    lat_array_destroy(b);
    lat_array_destroy(c);
    lat_array_destroy(m);
}

TEST(arrays_of_two_contexts_do_not_mix)
{
    lat_context *c1 = t_context(), *c2 = t_context();
    lat_array *a, *b;
    ASSERT_OK(lat_array_zeros(c1, LAT_DTYPE_INT32, 1, (size_t[]){4}, &a));
    ASSERT_OK(lat_array_zeros(c2, LAT_DTYPE_INT32, 1, (size_t[]){4}, &b));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_copy(a, b));
    ASSERT_CONTAINS(lat_last_error(), "context");
    lat_array_destroy(a);
    lat_array_destroy(b);
}

/* ---- errors ----------------------------------------------------------------------------- */

TEST(bad_arguments_are_invalid_value_and_say_which)
{
    lat_context *ctx = t_context();
    lat_array *a = (lat_array *)&a;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_empty(NULL, LAT_DTYPE_INT8, 1, (size_t[]){1}, &a));
    ASSERT_NULL(a);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_empty(ctx, LAT_DTYPE_INT8, 9, (size_t[9]){1}, &a));
    ASSERT_CONTAINS(lat_last_error(), "ndim");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_empty(ctx, LAT_DTYPE_INT8, 2, NULL, &a));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_empty(ctx, (lat_dtype)77, 1, (size_t[]){1}, &a));
    ASSERT_CONTAINS(lat_last_error(), "dtype");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_empty(ctx, LAT_DTYPE_INT8, 1, (size_t[]){1}, NULL));
    ASSERT_STATUS(LAT_ERROR_OVERFLOW,
                  lat_array_empty(ctx, LAT_DTYPE_INT64, 2, (size_t[]){SIZE_MAX / 4, 4}, &a));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_array_from_host(ctx, LAT_DTYPE_INT8, 1, (size_t[]){4}, NULL, &a));
    ASSERT_NULL(a);
}

TEST(host_copies_must_match_the_array_size)
{
    lat_context *ctx = t_context();
    lat_array *a;
    ASSERT_OK(lat_array_zeros(ctx, LAT_DTYPE_FLOAT32, 1, (size_t[]){10}, &a));
    float h[11];
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_get(a, h, sizeof h));
    ASSERT_CONTAINS(lat_last_error(), "44 bytes given");
    ASSERT_CONTAINS(lat_last_error(), "40");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_set(a, h, 4));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_get(NULL, h, 4));
    lat_scalar s;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_get_scalar(a, &s));
    lat_array_destroy(a);
}

TEST(destroying_null_is_a_no_op)
{
    lat_array_destroy(NULL);
    lat_elementwise_destroy(NULL);
    lat_reduction_destroy(NULL);
    lat_scan_destroy(NULL);
    lat_random_destroy(NULL);
    ASSERT_EQ(lat_array_size(NULL), 0);
    ASSERT_NULL(lat_array_shape(NULL));
}

TEST(generated_kernels_are_recompiled_for_a_new_context_at_the_same_address)
{
    /* The kernel cache is keyed by context; a context destroyed and another created
     * (often at the same address) must not reuse the first one's modules. */
    t_require_backend();
    for (int round = 0; round < 3; round++) {
        lat_context *ctx;
        ASSERT_OK(lat_context_create(&(lat_context_desc){.backend = t_backend()}, &ctx));
        lat_array *a;
        ASSERT_OK(lat_array_full(ctx, LAT_DTYPE_INT32, 1, (size_t[]){100}, lat_scalar_i32(round), &a));
        int32_t h[100];
        ASSERT_OK(lat_array_get(a, h, sizeof h));
        ASSERT_EQ(h[99], round);
        lat_array_destroy(a);
        lat_context_destroy(ctx);
    }
}

TEST(format_shows_the_ends_of_a_long_array_and_all_of_a_short_one)
{
    lat_context *ctx = t_context();
    lat_array *a, *f;
    ASSERT_OK(lat_array_arange(ctx, LAT_DTYPE_INT32, 0, 2000, 2, &a));
    char text[256];
    size_t len = 0;
    ASSERT_OK(lat_array_format(a, 0, text, sizeof text, &len));
    ASSERT_STR_EQ(text, "[0, 2, 4, ..., 1994, 1996, 1998]");
    ASSERT_EQ(len, strlen(text));
    /* Sizing first, then a truncated buffer: always terminated, length the full one. */
    size_t need = 0;
    ASSERT_OK(lat_array_format(a, 2, NULL, 0, &need));
    ASSERT_EQ(need, strlen("[0, 2, ..., 1996, 1998]"));
    char small[8];
    ASSERT_OK(lat_array_format(a, 2, small, sizeof small, &len));
    ASSERT_STR_EQ(small, "[0, 2, ");
    ASSERT_EQ(len, need);
    /* Floats with the digits that tell them apart; an array of at most 2 * edge + 1 whole. */
    float h[5] = {0.1f, -2.5f, 3e-8f, 1e20f, 7.0f};
    ASSERT_OK(lat_array_from_host(ctx, LAT_DTYPE_FLOAT32, 1, (size_t[]){5}, h, &f));
    ASSERT_OK(lat_array_format(f, 2, text, sizeof text, NULL));
    ASSERT_STR_EQ(text, "[0.1, -2.5, 3e-08, 1e+20, 7]");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_format(NULL, 0, text, sizeof text, NULL));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_format(a, 0, NULL, 4, NULL));
    lat_array_destroy(a);
    lat_array_destroy(f);
}

TEST(get_copy_allocates_the_host_copy)
{
    lat_context *ctx = t_context();
    enum { N = 777 };
    double h[N];
    for (int i = 0; i < N; i++)
        h[i] = t_rand_double(-1e6, 1e6);
    lat_array *a;
    ASSERT_OK(lat_array_from_host(ctx, LAT_DTYPE_FLOAT64, 1, (size_t[]){N}, h, &a));
    void *copy = NULL;
    size_t bytes = 0;
    ASSERT_OK(lat_array_get_copy(a, &copy, &bytes));
    ASSERT_EQ(bytes, sizeof h);
    ASSERT_TRUE(memcmp(copy, h, sizeof h) == 0);
    free(copy);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_get_copy(a, NULL, NULL));
    lat_array *e;
    ASSERT_OK(lat_array_empty(ctx, LAT_DTYPE_INT8, 1, (size_t[]){0}, &e));
    ASSERT_OK(lat_array_get_copy(e, &copy, &bytes));
    ASSERT_TRUE(copy != NULL && bytes == 0);
    free(copy);
    lat_array_destroy(e);
    lat_array_destroy(a);
}
