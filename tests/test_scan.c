/* The scan generator: inclusive and exclusive scans of several dtypes against host
 * loops, an operator that is associative but not commutative (so the order of
 * combination shows), in place, awkward sizes, and the errors. Scans need shared memory
 * and warp shuffles: on an emulator without them the cases skip, saying so. */
#include "array_check.h"

static const size_t sizes[] = {1, 31, 255, 256, 257, 5000, 100003};

static lat_scan *make_scan(lat_context *ctx, lat_dtype t, const char *op, const char *neutral,
                           int exclusive)
{
    lat_scan *s;
    ASSERT_OK_OR_SKIP_UNSUPPORTED(ctx, lat_scan_create(ctx,
                                                       &(lat_scan_desc){.dtype = t,
                                                                        .scan = op,
                                                                        .neutral = neutral,
                                                                        .exclusive = exclusive},
                                                       &s));
    return s;
}

TEST(inclusive_and_exclusive_sums)
{
    lat_context *ctx = t_context();
    require_block_kernels(ctx);
    static const lat_dtype types[] = {LAT_DTYPE_INT32, LAT_DTYPE_UINT64, LAT_DTYPE_FLOAT64,
                                      LAT_DTYPE_INT8};
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++)
        for (int ex = 0; ex < 2; ex++) {
            lat_dtype t = types[k];
            lat_scan *s = make_scan(ctx, t, "a + b", "0", ex);
            for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
                size_t n = sizes[z];
                void *h = rand_buffer(t, n, -5, 5, false);
                lat_array *in, *out;
                ASSERT_OK(lat_array_from_host(ctx, t, 1, &n, h, &in));
                ASSERT_OK(lat_array_empty(ctx, t, 1, &n, &out));
                ASSERT_OK(lat_scan_launch(s, in, out));
                void *want = t_calloc(n, lat_dtype_size(t));
                double *bound = t_calloc(n, sizeof *bound); /* sum of |x| so far */
                double facc = 0, aacc = 0;
                uint64_t iacc = 0;
                for (size_t i = 0; i < n; i++) {
                    lat_scalar x = get_elem(t, h, i);
                    if (ex)
                        put_elem(t, want, i, is_float(t) ? (lat_scalar){.dtype = t, .value.f = facc}
                                                         : wrap_int(iacc, t));
                    facc += is_float(t) ? x.value.f : 0;
                    aacc += is_float(t) ? fabs(x.value.f) : 0;
                    bound[i] = aacc;
                    /* int8 + int8 is int in C; the sum is stored back as int8 (wraps). */
                    iacc = int_bits(wrap_int(iacc + int_bits(x), t));
                    if (!ex)
                        put_elem(t, want, i, is_float(t) ? (lat_scalar){.dtype = t, .value.f = facc}
                                                         : wrap_int(iacc, t));
                }
                char what[64];
                snprintf(what, sizeof what, "%s sum of %zu %s", ex ? "exclusive" : "inclusive", n,
                         lat_dtype_name(t));
                if (!is_float(t)) {
                    check_array(out, want, 0, what);
                } else {
                    /* The device adds in another order: its rounding errors are bounded by
                     * the sum of the magnitudes, not by the (possibly cancelling) sum. */
                    double *got = t_calloc(n, sizeof *got);
                    ASSERT_OK(lat_array_get(out, got, n * sizeof *got));
                    for (size_t i = 0; i < n; i++)
                        ASSERT_MSG(fabs(got[i] - ((double *)want)[i]) <= 1e-13 * bound[i] + 1e-300,
                                   "%s: element %zu is %.17g, want %.17g", what, i, got[i],
                                   ((double *)want)[i]);
                }
                lat_array_destroy(in);
                lat_array_destroy(out);
            }
            lat_scan_destroy(s);
        }
}

TEST(values_combine_in_index_order)
{
    /* "The last non-zero value so far": associative, not commutative. */
    lat_context *ctx = t_context();
    require_block_kernels(ctx);
    for (int ex = 0; ex < 2; ex++) {
        lat_scan *s = make_scan(ctx, LAT_DTYPE_INT32, "b != 0 ? b : a", "0", ex);
        size_t n = 70001;
        int32_t *h = t_calloc(n, sizeof *h);
        for (size_t i = 0; i < n; i++)
            h[i] = t_rand_u32() % 7 == 0 ? (int32_t)(t_rand_u32() % 1000) + 1 : 0;
        lat_array *a;
        ASSERT_OK(lat_array_from_host(ctx, LAT_DTYPE_INT32, 1, &n, h, &a));
        ASSERT_OK(lat_scan_launch(s, a, a)); /* in place */
        int32_t *want = t_calloc(n, sizeof *want);
        int32_t last = 0;
        for (size_t i = 0; i < n; i++) {
            if (ex)
                want[i] = last;
            last = h[i] != 0 ? h[i] : last;
            if (!ex)
                want[i] = last;
        }
        check_array(a, want, 0, ex ? "exclusive last-non-zero" : "inclusive last-non-zero");
        lat_array_destroy(a);
        lat_scan_destroy(s);
    }
}

TEST(a_running_maximum_with_a_preamble)
{
    lat_context *ctx = t_context();
    require_block_kernels(ctx);
    lat_scan *s;
    ASSERT_OK_OR_SKIP_UNSUPPORTED(
        ctx, lat_scan_create(ctx,
                             &(lat_scan_desc){.dtype = LAT_DTYPE_FLOAT32,
                                              .scan = "bigger(a, b)",
                                              .neutral = "-3.0e38f",
                                              .preamble = "__device__ float bigger(float a, float b) { return a > b ? a : b; }",
                                              .name = "runmax"},
                             &s));
    size_t n = 12345;
    float *h = rand_buffer(LAT_DTYPE_FLOAT32, n, -1000, 1000, false);
    lat_array *in, *out;
    ASSERT_OK(lat_array_from_host(ctx, LAT_DTYPE_FLOAT32, 1, &n, h, &in));
    ASSERT_OK(lat_array_empty(ctx, LAT_DTYPE_FLOAT32, 1, &n, &out));
    ASSERT_OK(lat_scan_launch(s, in, out));
    float *want = t_calloc(n, sizeof *want);
    float m = -3.0e38f;
    for (size_t i = 0; i < n; i++)
        want[i] = m = h[i] > m ? h[i] : m;
    check_array(out, want, 0, "running max");
    lat_array_destroy(in);
    lat_array_destroy(out);
    lat_scan_destroy(s);
}

TEST(empty_arrays_scan_to_nothing)
{
    lat_context *ctx = t_context();
    require_block_kernels(ctx);
    lat_scan *s = make_scan(ctx, LAT_DTYPE_INT64, "a + b", "0", 0);
    lat_array *a;
    ASSERT_OK(lat_array_empty(ctx, LAT_DTYPE_INT64, 1, (size_t[]){0}, &a));
    ASSERT_OK(lat_scan_launch(s, a, a));
    lat_array_destroy(a);
    lat_scan_destroy(s);
}

TEST(scan_errors)
{
    lat_context *ctx = t_context();
    lat_scan *s = (lat_scan *)&s;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_scan_create(ctx, &(lat_scan_desc){.neutral = "0"}, &s));
    ASSERT_CONTAINS(lat_last_error(), "scan");
    ASSERT_NULL(s);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_scan_create(ctx, &(lat_scan_desc){.scan = "a+b"}, &s));
    ASSERT_CONTAINS(lat_last_error(), "neutral");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_scan_create(ctx, &(lat_scan_desc){.scan = "a+b", .neutral = "0", .name = "a b"},
                                  &s));
    s = make_scan(ctx, LAT_DTYPE_FLOAT32, "a + b", "0", 0);
    lat_array *f, *d;
    ASSERT_OK(lat_array_zeros(ctx, LAT_DTYPE_FLOAT32, 1, (size_t[]){5}, &f));
    ASSERT_OK(lat_array_zeros(ctx, LAT_DTYPE_FLOAT64, 1, (size_t[]){5}, &d));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_scan_launch(s, f, d));
    ASSERT_CONTAINS(lat_last_error(), "float64");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_scan_launch(s, f, NULL));
    lat_array_destroy(f);
    lat_array_destroy(d);
    lat_scan_destroy(s);
}
