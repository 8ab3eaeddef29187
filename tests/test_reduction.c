/* Reductions: sum, prod, min, max, any, all and dot of every dtype over whole arrays and
 * along each axis, the reduction generator, against host references; empty and
 * one-element arrays, sizes that are not multiples of a block. On the emulator these
 * kernels need shared memory and warp shuffles; until it has them the cases that use
 * them skip, saying so. */
#include "array_check.h"

static const size_t sizes[] = {0, 1, 255, 256, 257, 4097, 100003};
enum { NSIZES = sizeof sizes / sizeof sizes[0] };

static const lat_reduce_op ops[] = {LAT_REDUCE_SUM, LAT_REDUCE_PROD, LAT_REDUCE_MIN,
                                    LAT_REDUCE_MAX, LAT_REDUCE_ANY,  LAT_REDUCE_ALL};
static const char *const op_names[] = {"sum", "prod", "min", "max", "any", "all"};

static lat_dtype result_type(lat_reduce_op op, lat_dtype t)
{
    if (op == LAT_REDUCE_ANY || op == LAT_REDUCE_ALL)
        return LAT_DTYPE_UINT8;
    if ((op == LAT_REDUCE_SUM || op == LAT_REDUCE_PROD) && !is_float(t))
        return is_signed(t) ? LAT_DTYPE_INT64 : LAT_DTYPE_UINT64;
    return t;
}

/* The host's reduction of n elements of t (in double for floats: the device's float32
 * sums differ from it in rounding only). */
static lat_scalar ref_reduce(lat_reduce_op op, lat_dtype t, const void *h, size_t n)
{
    lat_dtype rt = result_type(op, t);
    if (op == LAT_REDUCE_ANY || op == LAT_REDUCE_ALL) {
        bool acc = op == LAT_REDUCE_ALL;
        for (size_t i = 0; i < n; i++) {
            lat_scalar x = get_elem(t, h, i);
            bool nz = is_float(t) ? x.value.f != 0 : int_bits(x) != 0;
            acc = op == LAT_REDUCE_ANY ? acc || nz : acc && nz;
        }
        return wrap_int(acc, rt);
    }
    if (is_float(t)) {
        double acc = op == LAT_REDUCE_SUM ? 0 : op == LAT_REDUCE_PROD ? 1 : NAN;
        for (size_t i = 0; i < n; i++) {
            double x = get_elem(t, h, i).value.f;
            acc = op == LAT_REDUCE_SUM ? acc + x : op == LAT_REDUCE_PROD ? acc * x
                  : op == LAT_REDUCE_MIN ? fmin(acc, x) : fmax(acc, x);
        }
        return (lat_scalar){.dtype = rt, .value.f = acc};
    }
    uint64_t acc = op == LAT_REDUCE_PROD ? 1 : 0;
    lat_scalar best = get_elem(t, h, 0);
    for (size_t i = 0; i < n; i++) {
        lat_scalar x = get_elem(t, h, i);
        if (op == LAT_REDUCE_SUM)
            acc += int_bits(x);
        else if (op == LAT_REDUCE_PROD)
            acc *= int_bits(x);
        else {
            bool less = is_signed(t) ? x.value.i < best.value.i : x.value.u < best.value.u;
            bool more = is_signed(t) ? x.value.i > best.value.i : x.value.u > best.value.u;
            if ((op == LAT_REDUCE_MIN && less) || (op == LAT_REDUCE_MAX && more))
                best = x;
        }
    }
    return op == LAT_REDUCE_MIN || op == LAT_REDUCE_MAX ? best : wrap_int(acc, rt);
}

/* Inputs that keep a float32 sum accurate and a product finite. */
static void *inputs(lat_reduce_op op, lat_dtype t, size_t n)
{
    if (op == LAT_REDUCE_PROD)
        return is_float(t) ? rand_buffer(t, n, 0.999, 1.001, false) : rand_buffer(t, n, -3, 3, false);
    if (op == LAT_REDUCE_ANY || op == LAT_REDUCE_ALL) {
        void *h = rand_buffer(t, n, 0, 1, false); /* zeros and ones */
        return h;
    }
    return rand_buffer(t, n, -100, 100, !is_float(t));
}

static double tol(lat_reduce_op op, lat_dtype t, size_t n)
{
    if (!is_float(t) || op == LAT_REDUCE_MIN || op == LAT_REDUCE_MAX)
        return 0;
    return t == LAT_DTYPE_FLOAT32 ? 1e-4 + 1e-7 * (double)n : 1e-12;
}

static void check_reduce(lat_context *ctx, lat_reduce_op op, lat_dtype t, size_t n)
{
    void *h = inputs(op, t, n);
    lat_array *a, *r;
    ASSERT_OK(lat_array_from_host(ctx, t, 1, &n, h, &a));
    if (n == 0 && (op == LAT_REDUCE_MIN || op == LAT_REDUCE_MAX)) {
        ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_reduce(op, a, NULL, &r));
        ASSERT_CONTAINS(lat_last_error(), "empty");
        lat_array_destroy(a);
        return;
    }
    ASSERT_OK_OR_SKIP_UNSUPPORTED(ctx, lat_array_reduce(op, a, NULL, &r));
    ASSERT_EQ(lat_array_ndim(r), 0);
    ASSERT_EQ(lat_array_dtype(r), result_type(op, t));
    lat_scalar got, want = ref_reduce(op, t, h, n);
    ASSERT_OK(lat_array_get_scalar(r, &got));
    char gs[64], ws[64];
    ASSERT_MSG(same_value(got, want, tol(op, t, n)), "%s of %zu %s: %s, want %s",
               op_names[op], n, lat_dtype_name(t), fmt_value(got, gs, sizeof gs),
               fmt_value(want, ws, sizeof ws));
    lat_array_destroy(a);
    lat_array_destroy(r);
}

TEST(sum_of_every_dtype_and_size)
{
    lat_context *ctx = t_context();
    require_block_kernels(ctx);
    for (int k = 0; k < LAT_DTYPE_COUNT; k++)
        for (int s = 0; s < NSIZES; s++)
            check_reduce(ctx, LAT_REDUCE_SUM, ALL_DTYPES[k], sizes[s]);
}

TEST(every_reduction_of_every_dtype)
{
    lat_context *ctx = t_context();
    require_block_kernels(ctx);
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
        for (int k = 0; k < LAT_DTYPE_COUNT; k++)
            check_reduce(ctx, ops[o], ALL_DTYPES[k], sizes[(o + (size_t)k) % NSIZES]);
}

TEST(min_and_max_of_every_size)
{
    lat_context *ctx = t_context();
    require_block_kernels(ctx);
    for (int s = 0; s < NSIZES; s++) {
        check_reduce(ctx, LAT_REDUCE_MIN, LAT_DTYPE_FLOAT32, sizes[s]);
        check_reduce(ctx, LAT_REDUCE_MAX, LAT_DTYPE_INT64, sizes[s]);
    }
}

TEST(empty_arrays_reduce_to_the_neutral_element)
{
    lat_context *ctx = t_context();
    require_block_kernels(ctx);
    lat_array *a, *r;
    ASSERT_OK(lat_array_empty(ctx, LAT_DTYPE_INT32, 1, (size_t[]){0}, &a));
    static const struct {
        lat_reduce_op op;
        double want;
    } cases[] = {{LAT_REDUCE_SUM, 0}, {LAT_REDUCE_PROD, 1}, {LAT_REDUCE_ANY, 0}, {LAT_REDUCE_ALL, 1}};
    for (int c = 0; c < 4; c++) {
        ASSERT_OK_OR_SKIP_UNSUPPORTED(ctx, lat_array_reduce(cases[c].op, a, NULL, &r));
        lat_scalar s;
        ASSERT_OK(lat_array_get_scalar(r, &s));
        ASSERT_CLOSE(as_double(s), cases[c].want, 0, 0);
        lat_array_destroy(r);
    }
    lat_array_destroy(a);
}

TEST(min_and_max_skip_nans_unless_all_are)
{
    lat_context *ctx = t_context();
    require_block_kernels(ctx);
    float h[5] = {NAN, 3, -2, NAN, 7};
    lat_array *a, *r;
    ASSERT_OK(lat_array_from_host(ctx, LAT_DTYPE_FLOAT32, 1, (size_t[]){5}, h, &a));
    ASSERT_OK_OR_SKIP_UNSUPPORTED(ctx, lat_array_reduce(LAT_REDUCE_MIN, a, NULL, &r));
    lat_scalar s;
    ASSERT_OK(lat_array_get_scalar(r, &s));
    ASSERT_CLOSE(s.value.f, -2, 0, 0);
    lat_array_destroy(r);
    lat_array_destroy(a);
    float nans[3] = {NAN, NAN, NAN};
    ASSERT_OK(lat_array_from_host(ctx, LAT_DTYPE_FLOAT32, 1, (size_t[]){3}, nans, &a));
    ASSERT_OK(lat_array_reduce(LAT_REDUCE_MAX, a, NULL, &r));
    ASSERT_OK(lat_array_get_scalar(r, &s));
    ASSERT_TRUE(isnan(s.value.f));
    lat_array_destroy(r);
    lat_array_destroy(a);
}

TEST(a_reduction_into_an_output_of_another_dtype)
{
    lat_context *ctx = t_context();
    require_block_kernels(ctx);
    lat_array *a, *o;
    ASSERT_OK(lat_array_arange(ctx, LAT_DTYPE_INT32, 0, 1000, 1, &a));
    ASSERT_OK(lat_array_zeros(ctx, LAT_DTYPE_FLOAT64, 1, (size_t[]){1}, &o));
    lat_array *res = NULL;
    ASSERT_OK_OR_SKIP_UNSUPPORTED(ctx, lat_array_reduce(LAT_REDUCE_SUM, a, o, &res));
    ASSERT_TRUE(res == o);
    double d;
    ASSERT_OK(lat_array_get(o, &d, sizeof d));
    ASSERT_CLOSE(d, 499500, 0, 0);
    lat_array *two;
    ASSERT_OK(lat_array_zeros(ctx, LAT_DTYPE_FLOAT64, 1, (size_t[]){2}, &two));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_reduce(LAT_REDUCE_SUM, a, two, NULL));
    ASSERT_CONTAINS(lat_last_error(), "2 elements");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_reduce((lat_reduce_op)42, a, NULL, &res));
    lat_array_destroy(a);
    lat_array_destroy(o);
    lat_array_destroy(two);
}

/* ---- dot ------------------------------------------------------------------------------- */

TEST(dot_of_every_dtype_and_mixed_types)
{
    lat_context *ctx = t_context();
    require_block_kernels(ctx);
    for (int k = 0; k < LAT_DTYPE_COUNT + 3; k++) {
        lat_dtype tx = k < LAT_DTYPE_COUNT ? ALL_DTYPES[k] : LAT_DTYPE_INT16;
        lat_dtype ty = k < LAT_DTYPE_COUNT ? tx : k == LAT_DTYPE_COUNT ? LAT_DTYPE_FLOAT32
                                                : k == LAT_DTYPE_COUNT + 1 ? LAT_DTYPE_UINT32
                                                                           : LAT_DTYPE_FLOAT64;
        size_t n = sizes[k % NSIZES];
        void *hx = rand_buffer(tx, n, -10, 10, false), *hy = rand_buffer(ty, n, -10, 10, false);
        lat_array *x, *y, *r;
        ASSERT_OK(lat_array_from_host(ctx, tx, 1, &n, hx, &x));
        ASSERT_OK(lat_array_from_host(ctx, ty, 1, &n, hy, &y));
        ASSERT_OK_OR_SKIP_UNSUPPORTED(ctx, lat_array_dot(x, y, NULL, &r));
        lat_dtype p = lat_dtype_promote(tx, ty);
        lat_dtype rt = result_type(LAT_REDUCE_SUM, p);
        ASSERT_EQ(lat_array_dtype(r), rt);
        double wf = 0;
        uint64_t wi = 0;
        for (size_t i = 0; i < n; i++) {
            lat_scalar a = convert(get_elem(tx, hx, i), p), b = convert(get_elem(ty, hy, i), p);
            if (is_float(p))
                wf += a.value.f * b.value.f;
            else
                wi += int_bits(convert(a, rt)) * int_bits(convert(b, rt));
        }
        lat_scalar got;
        ASSERT_OK(lat_array_get_scalar(r, &got));
        lat_scalar want = is_float(p) ? (lat_scalar){.dtype = rt, .value.f = wf} : wrap_int(wi, rt);
        char gs[64], ws[64];
        ASSERT_MSG(same_value(got, want, is_float(p) ? (p == LAT_DTYPE_FLOAT32 ? 1e-4 : 1e-12) : 0),
                   "dot(%s, %s) of %zu: %s, want %s", lat_dtype_name(tx), lat_dtype_name(ty), n,
                   fmt_value(got, gs, sizeof gs), fmt_value(want, ws, sizeof ws));
        lat_array_destroy(x);
        lat_array_destroy(y);
        lat_array_destroy(r);
    }
}

TEST(dot_needs_arrays_of_one_size)
{
    lat_context *ctx = t_context();
    lat_array *x, *y, *r;
    ASSERT_OK(lat_array_zeros(ctx, LAT_DTYPE_FLOAT32, 1, (size_t[]){3}, &x));
    ASSERT_OK(lat_array_zeros(ctx, LAT_DTYPE_FLOAT32, 1, (size_t[]){4}, &y));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_dot(x, y, NULL, &r));
    ASSERT_CONTAINS(lat_last_error(), "3 elements");
    lat_array_destroy(x);
    lat_array_destroy(y);
}

/* ---- along an axis ---------------------------------------------------------------------- */

/* Reduces a (d0, d1, d2) array along `axis` on the device and on the host. */
static void check_axis(lat_context *ctx, lat_reduce_op op, lat_dtype t, const size_t shape[3],
                       int axis)
{
    size_t n = shape[0] * shape[1] * shape[2];
    void *h = inputs(op, t, n);
    lat_array *a, *r;
    ASSERT_OK(lat_array_from_host(ctx, t, 3, shape, h, &a));
    ASSERT_OK_OR_SKIP_UNSUPPORTED(ctx, lat_array_reduce_axis(op, a, axis, NULL, &r));
    int ax = axis < 0 ? axis + 3 : axis;
    ASSERT_EQ(lat_array_ndim(r), 2);
    size_t outer = 1, len = shape[ax], inner = 1;
    for (int d = 0; d < 3; d++) {
        if (d < ax)
            outer *= shape[d];
        if (d > ax)
            inner *= shape[d];
    }
    lat_dtype rt = result_type(op, t);
    ASSERT_EQ(lat_array_dtype(r), rt);
    void *want = t_calloc(outer * inner + 1, 8);
    void *row = t_calloc(len ? len : 1, lat_dtype_size(t));
    for (size_t o = 0; o < outer; o++)
        for (size_t in = 0; in < inner; in++) {
            for (size_t k = 0; k < len; k++)
                put_elem(t, row, k, get_elem(t, h, (o * len + k) * inner + in));
            put_elem(rt, want, o * inner + in, ref_reduce(op, t, row, len));
        }
    char what[96];
    snprintf(what, sizeof what, "%s along axis %d of (%zu, %zu, %zu) %s", op_names[op], axis,
             shape[0], shape[1], shape[2], lat_dtype_name(t));
    check_array(r, want, tol(op, t, len), what);
    lat_array_destroy(a);
    lat_array_destroy(r);
}

TEST(reductions_along_a_leading_or_middle_axis)
{
    /* One thread per result: no shared memory, so these run on every backend now. */
    lat_context *ctx = t_context();
    static const size_t shapes[][3] = {{3, 5, 7}, {1, 300, 2}, {17, 1, 33}, {2, 0, 3}};
    for (size_t s = 0; s < 4; s++)
        for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
            for (int axis = 0; axis < 2; axis++) {
                if (shapes[s][axis] == 0 && (ops[o] == LAT_REDUCE_MIN || ops[o] == LAT_REDUCE_MAX))
                    continue;
                check_axis(ctx, ops[o], ALL_DTYPES[(s * 3 + o + (size_t)axis) % LAT_DTYPE_COUNT],
                           shapes[s], axis);
            }
}

TEST(reductions_along_the_last_axis)
{
    lat_context *ctx = t_context();
    require_block_kernels(ctx);
    static const size_t shapes[][3] = {{2, 3, 5}, {4, 3, 1000}, {1, 2, 257}, {3, 2, 1}};
    for (size_t s = 0; s < 4; s++)
        for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
            check_axis(ctx, ops[o], ALL_DTYPES[(s + o * 3) % LAT_DTYPE_COUNT], shapes[s], -1);
}

TEST(axis_errors)
{
    lat_context *ctx = t_context();
    lat_array *a, *r;
    ASSERT_OK(lat_array_zeros(ctx, LAT_DTYPE_FLOAT32, 2, (size_t[]){3, 0}, &a));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_reduce_axis(LAT_REDUCE_SUM, a, 2, NULL, &r));
    ASSERT_CONTAINS(lat_last_error(), "axis 2");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_reduce_axis(LAT_REDUCE_MAX, a, 1, NULL, &r));
    ASSERT_CONTAINS(lat_last_error(), "extent 0");
    ASSERT_OK(lat_array_reduce_axis(LAT_REDUCE_SUM, a, -1, NULL, &r));
    ASSERT_EQ(lat_array_size(r), 3);
    float z[3];
    ASSERT_OK(lat_array_get(r, z, sizeof z));
    ASSERT_CLOSE(z[2], 0, 0, 0);
    lat_array_destroy(r);
    lat_array *wrong;
    ASSERT_OK(lat_array_zeros(ctx, LAT_DTYPE_FLOAT32, 1, (size_t[]){4}, &wrong));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_reduce_axis(LAT_REDUCE_SUM, a, 1, wrong, NULL));
    ASSERT_CONTAINS(lat_last_error(), "(3,)");
    lat_array_destroy(wrong);
    lat_array_destroy(a);
}

/* ---- the generator ---------------------------------------------------------------------- */

TEST(the_generator_computes_a_dot_product)
{
    lat_context *ctx = t_context();
    lat_reduction *r;
    ASSERT_OK_OR_SKIP_UNSUPPORTED(
        ctx, lat_reduction_create(ctx,
                                  &(lat_reduction_desc){.dtype = LAT_DTYPE_FLOAT64,
                                                        .neutral = "0",
                                                        .reduce = "a+b",
                                                        .map = "(double)x[i]*y[i]",
                                                        .arguments = "const float *x, const double *y",
                                                        .name = "mydot"},
                                  &r));
    for (int s = 0; s < NSIZES; s++) {
        size_t n = sizes[s];
        float *hx = rand_buffer(LAT_DTYPE_FLOAT32, n, -1, 1, false);
        double *hy = rand_buffer(LAT_DTYPE_FLOAT64, n, -1, 1, false);
        lat_array *x, *y, *res;
        ASSERT_OK(lat_array_from_host(ctx, LAT_DTYPE_FLOAT32, 1, &n, hx, &x));
        ASSERT_OK(lat_array_from_host(ctx, LAT_DTYPE_FLOAT64, 1, &n, hy, &y));
        ASSERT_OK(lat_reduction_launch(r, n, LAT_ARGS(lat_arg_array(x), lat_arg_array(y)), NULL,
                                       &res));
        double want = 0;
        for (size_t i = 0; i < n; i++)
            want += (double)hx[i] * hy[i];
        double got;
        ASSERT_OK(lat_array_get(res, &got, sizeof got));
        ASSERT_CLOSE(got, want, 1e-12, 1e-12);
        lat_array_destroy(x);
        lat_array_destroy(y);
        lat_array_destroy(res);
    }
    lat_reduction_destroy(r);
}

TEST(the_generator_with_a_preamble_and_a_max)
{
    lat_context *ctx = t_context();
    lat_reduction *r;
    ASSERT_OK_OR_SKIP_UNSUPPORTED(
        ctx, lat_reduction_create(ctx,
                                  &(lat_reduction_desc){.dtype = LAT_DTYPE_INT32,
                                                        .neutral = "-2147483647 - 1",
                                                        .reduce = "a > b ? a : b",
                                                        .map = "absdiff(x[i], y[i])",
                                                        .arguments = "const int *x, const int *y",
                                                        .preamble = "__device__ int absdiff(int a, int b) { return a > b ? a - b : b - a; }"},
                                  &r));
    size_t n = 77777;
    int32_t *hx = rand_buffer(LAT_DTYPE_INT32, n, -1000000, 1000000, false);
    int32_t *hy = rand_buffer(LAT_DTYPE_INT32, n, -1000000, 1000000, false);
    lat_array *x, *y, *res;
    ASSERT_OK(lat_array_from_host(ctx, LAT_DTYPE_INT32, 1, &n, hx, &x));
    ASSERT_OK(lat_array_from_host(ctx, LAT_DTYPE_INT32, 1, &n, hy, &y));
    lat_array *out;
    ASSERT_OK(lat_array_zeros(ctx, LAT_DTYPE_INT64, 0, NULL, &out));
    ASSERT_OK(lat_reduction_launch(r, n, LAT_ARGS(lat_arg_array(x), lat_arg_array(y)), out, &res));
    ASSERT_TRUE(res == out);
    int64_t want = 0, got;
    for (size_t i = 0; i < n; i++) {
        int64_t d = (int64_t)hx[i] - hy[i];
        want = d < 0 ? (want > -d ? want : -d) : (want > d ? want : d);
    }
    ASSERT_OK(lat_array_get(out, &got, sizeof got));
    ASSERT_EQ(got, want);
    lat_array_destroy(x);
    lat_array_destroy(y);
    lat_array_destroy(out);
    lat_reduction_destroy(r);
}

/* PyCUDA's kernels write neutral="-INFINITY": nvcc's headers define it, NVRTC's do not,
 * and the emulator's did - the same kernel compiled on one backend and not the other
 * (found running the Python package's tests on a GPU). */
TEST(infinity_and_nan_mean_the_same_on_every_backend)
{
    lat_context *ctx = t_context();
    lat_reduction *r;
    ASSERT_OK_OR_SKIP_UNSUPPORTED(
        ctx, lat_reduction_create(ctx,
                                  &(lat_reduction_desc){.dtype = LAT_DTYPE_FLOAT32,
                                                        .neutral = "-INFINITY",
                                                        .reduce = "fmaxf(a, b)",
                                                        .map = "isnan(x[i]) ? NAN : x[i]",
                                                        .arguments = "const float *x"},
                                  &r));
    size_t n = 5000;
    float *hx = rand_buffer(LAT_DTYPE_FLOAT32, n, -1000, -1, false);
    float want = -INFINITY;
    for (size_t i = 0; i < n; i++)
        want = hx[i] > want ? hx[i] : want;
    lat_array *x, *res;
    ASSERT_OK(lat_array_from_host(ctx, LAT_DTYPE_FLOAT32, 1, &n, hx, &x));
    ASSERT_OK(lat_reduction_launch(r, n, LAT_ARGS(lat_arg_array(x)), NULL, &res));
    float got;
    ASSERT_OK(lat_array_get(res, &got, sizeof got));
    ASSERT_MSG(got == want, "max %.9g, want %.9g", (double)got, (double)want);
    lat_array_destroy(res);
    /* None: the neutral element itself. */
    ASSERT_OK(lat_reduction_launch(r, 0, LAT_ARGS(lat_arg_array(x)), NULL, &res));
    ASSERT_OK(lat_array_get(res, &got, sizeof got));
    ASSERT_TRUE(isinf(got) && got < 0);
    lat_array_destroy(res);
    lat_array_destroy(x);
    lat_reduction_destroy(r);
}

TEST(generator_errors)
{
    lat_context *ctx = t_context();
    lat_reduction *r = (lat_reduction *)&r;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_reduction_create(ctx,
                                       &(lat_reduction_desc){.reduce = "a+b", .map = "x[i]",
                                                             .arguments = "float *x"},
                                       &r));
    ASSERT_CONTAINS(lat_last_error(), "neutral");
    ASSERT_NULL(r);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_reduction_create(ctx,
                                       &(lat_reduction_desc){.dtype = (lat_dtype)50, .neutral = "0",
                                                             .reduce = "a+b", .map = "x[i]",
                                                             .arguments = "float *x"},
                                       &r));
    ASSERT_CONTAINS(lat_last_error(), "dtype");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_reduction_launch(NULL, 1, 0, NULL, NULL, NULL));
}

static int leak_warnings;
static void count_leak_warnings(void *user, lat_log_level level, const char *msg)
{
    (void)user;
    if (level == LAT_LOG_WARNING && (strstr(msg, "still live") || strstr(msg, "still allocated")))
        leak_warnings++;
}

/* A reduction keeps a scratch buffer for its partial results for the context's life; a
 * program that freed everything it made was told at destruction that it had leaked it
 * ("freed 1 allocation (64 bytes) still live", and memcheck's report too). */
TEST(the_librarys_own_scratch_is_not_reported_as_the_programs_leak)
{
    t_require_backend();
    for (unsigned check = 0; check <= 1; check++) {
        if (check && t_backend() != LAT_BACKEND_EMU)
            break;
        leak_warnings = 0;
        lat_context *ctx;
        ASSERT_OK(lat_context_create(&(lat_context_desc){.backend = t_backend(),
                                                         .check = check ? LAT_CHECK_MEMCHECK : LAT_CHECK_OFF,
                                                         .logger = {count_leak_warnings, NULL}},
                                     &ctx));
        lat_array *a, *r;
        size_t n = 100000;
        ASSERT_OK(lat_array_full(ctx, LAT_DTYPE_FLOAT32, 1, &n, lat_scalar_f32(2.5f), &a));
        ASSERT_OK(lat_array_reduce(LAT_REDUCE_MAX, a, NULL, &r));
        lat_scalar s;
        ASSERT_OK(lat_array_get_scalar(r, &s));
        ASSERT_TRUE(s.value.f == 2.5);
        lat_array_destroy(r);
        lat_array_destroy(a);
        lat_context_destroy(ctx);
        ASSERT_EQ(leak_warnings, 0);
    }
    /* A real leak is still reported (once: memcheck, under LATTICE_CHECK, would add its own). */
    leak_warnings = 0;
    lat_context *ctx;
    ASSERT_OK(lat_context_create(&(lat_context_desc){.backend = t_backend(), .check = LAT_CHECK_OFF,
                                                     .logger = {count_leak_warnings, NULL}},
                                 &ctx));
    lat_deviceptr p;
    ASSERT_OK(lat_mem_alloc(ctx, 64, &p));
    lat_context_destroy(ctx);
    ASSERT_EQ(leak_warnings, 1);
}
