/* Elementwise array operations against host references computed the way C computes
 * them: every binary operation on every dtype (array op array, array op scalar,
 * scalar op array), mixed types, comparisons and masks, where, the unary operations and
 * cumath, in place and into outputs of another dtype; sizes that are not multiples of a
 * block, one element, and none. */
#include "array_check.h"

/* Sizes: none, one, a block minus one, and more than the grid covers in one stride. */
static const size_t sizes[] = {0, 1, 255, 10007};
enum { NSIZES = sizeof sizes / sizeof sizes[0] };

/* ---- the host reference ---------------------------------------------------------------- */

static lat_scalar mk_int(uint64_t bits, lat_dtype t) { return wrap_int(bits, t); }
static lat_scalar mk_f(double v, lat_dtype t)
{
    return (lat_scalar){.dtype = t, .value.f = t == LAT_DTYPE_FLOAT32 ? (double)(float)v : v};
}
static lat_scalar mask(bool v) { return mk_int(v, LAT_DTYPE_UINT8); }

static lat_dtype float_of(lat_dtype t) { return t == LAT_DTYPE_FLOAT32 ? t : LAT_DTYPE_FLOAT64; }

/* x op y in C, with lattice's definitions where C has none (integer division by 0). */
static lat_scalar ref_binary(lat_op op, lat_scalar x, lat_scalar y)
{
    lat_dtype p = lat_dtype_promote(x.dtype, y.dtype);
    lat_scalar a = convert(x, p), b = convert(y, p);
    bool f32 = p == LAT_DTYPE_FLOAT32;
    if (op >= LAT_OP_EQ && op <= LAT_OP_GE) {
        int c;
        if (is_float(p))
            c = a.value.f < b.value.f ? -1 : a.value.f > b.value.f ? 1 : a.value.f == b.value.f ? 0 : 2;
        else if (is_signed(p))
            c = a.value.i < b.value.i ? -1 : a.value.i > b.value.i;
        else
            c = a.value.u < b.value.u ? -1 : a.value.u > b.value.u;
        switch (op) {
        case LAT_OP_EQ: return mask(c == 0);
        case LAT_OP_NE: return mask(c != 0);
        case LAT_OP_LT: return mask(c == -1);
        case LAT_OP_LE: return mask(c == -1 || c == 0);
        case LAT_OP_GT: return mask(c == 1);
        default: return mask(c == 1 || c == 0);
        }
    }
    if (op == LAT_OP_LOGICAL_AND || op == LAT_OP_LOGICAL_OR) {
        bool xa = as_double(x) != 0 || (!is_float(x.dtype) && int_bits(x) != 0);
        bool yb = as_double(y) != 0 || (!is_float(y.dtype) && int_bits(y) != 0);
        return mask(op == LAT_OP_LOGICAL_AND ? xa && yb : xa || yb);
    }
    if (op == LAT_OP_ATAN2 || op == LAT_OP_HYPOT || op == LAT_OP_COPYSIGN) {
        lat_dtype f = float_of(p);
        lat_scalar fa = convert(x, f), fb = convert(y, f);
        double r;
        if (f == LAT_DTYPE_FLOAT32) {
            float u = (float)fa.value.f, v = (float)fb.value.f;
            r = op == LAT_OP_ATAN2 ? atan2f(u, v) : op == LAT_OP_HYPOT ? hypotf(u, v) : copysignf(u, v);
        } else {
            r = op == LAT_OP_ATAN2 ? atan2(fa.value.f, fb.value.f)
                : op == LAT_OP_HYPOT ? hypot(fa.value.f, fb.value.f)
                                     : copysign(fa.value.f, fb.value.f);
        }
        return mk_f(r, f);
    }
    if (op == LAT_OP_LDEXP) {
        lat_dtype f = float_of(x.dtype);
        int e = (int)(is_float(y.dtype) ? y.value.f : (double)(int64_t)int_bits(y));
        lat_scalar fa = convert(x, f);
        return mk_f(f == LAT_DTYPE_FLOAT32 ? ldexpf((float)fa.value.f, e) : ldexp(fa.value.f, e), f);
    }
    if (is_float(p)) {
        double u = a.value.f, v = b.value.f, r = 0;
        if (f32) {
            float fu = (float)u, fv = (float)v, fr = 0;
            switch (op) {
            case LAT_OP_ADD: fr = fu + fv; break;
            case LAT_OP_SUB: fr = fu - fv; break;
            case LAT_OP_MUL: fr = fu * fv; break;
            case LAT_OP_DIV: fr = fu / fv; break;
            case LAT_OP_MOD: fr = fmodf(fu, fv); break;
            case LAT_OP_POW: fr = powf(fu, fv); break;
            case LAT_OP_MIN: fr = fminf(fu, fv); break;
            case LAT_OP_MAX: fr = fmaxf(fu, fv); break;
            default: break;
            }
            return mk_f(fr, p);
        }
        switch (op) {
        case LAT_OP_ADD: r = u + v; break;
        case LAT_OP_SUB: r = u - v; break;
        case LAT_OP_MUL: r = u * v; break;
        case LAT_OP_DIV: r = u / v; break;
        case LAT_OP_MOD: r = fmod(u, v); break;
        case LAT_OP_POW: r = pow(u, v); break;
        case LAT_OP_MIN: r = fmin(u, v); break;
        case LAT_OP_MAX: r = fmax(u, v); break;
        default: break;
        }
        return mk_f(r, p);
    }
    uint64_t ua = int_bits(a), ub = int_bits(b);
    bool s = is_signed(p);
    switch (op) {
    case LAT_OP_ADD: return mk_int(ua + ub, p);
    case LAT_OP_SUB: return mk_int(ua - ub, p);
    case LAT_OP_MUL: return mk_int(ua * ub, p);
    case LAT_OP_DIV:
    case LAT_OP_MOD: {
        if (ub == 0 || (op == LAT_OP_MOD && s && b.value.i == -1))
            return mk_int(0, p);
        if (s && b.value.i == -1)
            return mk_int(0 - ua, p);
        if (s)
            return mk_int((uint64_t)(op == LAT_OP_DIV ? a.value.i / b.value.i : a.value.i % b.value.i), p);
        return mk_int(op == LAT_OP_DIV ? a.value.u / b.value.u : a.value.u % b.value.u, p);
    }
    case LAT_OP_POW: {
        if (s && b.value.i < 0) {
            int64_t base = a.value.i;
            return mk_int(base == 1 ? 1 : base == -1 ? ((b.value.i & 1) ? (uint64_t)-1 : 1) : 0, p);
        }
        uint64_t r = 1, base = ua, e = ub;
        while (e) {
            if (e & 1)
                r *= base;
            base *= base;
            e >>= 1;
        }
        return mk_int(r, p);
    }
    case LAT_OP_MIN:
    case LAT_OP_MAX: {
        bool less = s ? a.value.i < b.value.i : a.value.u < b.value.u;
        bool greater = s ? a.value.i > b.value.i : a.value.u > b.value.u;
        bool pick_a = op == LAT_OP_MIN ? less : greater;
        return pick_a ? a : b;
    }
    default:
        return mk_int(0, p);
    }
}

/* The tolerance a result of op in float type f needs: exact for what IEEE rounds
 * correctly, a few ulps for library functions (CUDA's and the host's differ). */
static double tolerance(lat_op op, lat_dtype t)
{
    if (!is_float(t))
        return 0;
    switch (op) {
    case LAT_OP_ADD: case LAT_OP_SUB: case LAT_OP_MUL: case LAT_OP_DIV: case LAT_OP_MOD:
    case LAT_OP_MIN: case LAT_OP_MAX: case LAT_OP_COPYSIGN: case LAT_OP_LDEXP:
    case LAT_OP_NEG: case LAT_OP_ABS: case LAT_OP_FABS: case LAT_OP_CEIL: case LAT_OP_FLOOR:
    case LAT_OP_TRUNC: case LAT_OP_ROUND: case LAT_OP_RINT: case LAT_OP_SQRT:
        return 0;
    default:
        return t == LAT_DTYPE_FLOAT32 ? 4e-6 : 1e-14;
    }
}

/* Operand values that keep every operation defined in C: small exponents for pow. */
static void *operand_values(lat_op op, lat_dtype t, size_t n, bool second)
{
    if (op == LAT_OP_POW)
        return second ? rand_buffer(t, n, is_float(t) ? -3 : 0, 6, false)
                      : rand_buffer(t, n, is_float(t) ? 0.5 : -4, 4, false);
    if (op == LAT_OP_LDEXP && second)
        return rand_buffer(t, n, 0, 20, false);
    return rand_buffer(t, n, -100, 100, true);
}

static const lat_op binary_ops[] = {
    LAT_OP_ADD, LAT_OP_SUB, LAT_OP_MUL, LAT_OP_DIV, LAT_OP_MOD, LAT_OP_POW, LAT_OP_MIN,
    LAT_OP_MAX, LAT_OP_ATAN2, LAT_OP_HYPOT, LAT_OP_COPYSIGN, LAT_OP_LDEXP, LAT_OP_EQ,
    LAT_OP_NE, LAT_OP_LT, LAT_OP_LE, LAT_OP_GT, LAT_OP_GE, LAT_OP_LOGICAL_AND,
    LAT_OP_LOGICAL_OR,
};
enum { NBINARY = sizeof binary_ops / sizeof binary_ops[0] };

/* Runs x op y for arrays of n elements of types tx and ty and checks every element. */
static void check_binary(lat_context *ctx, lat_op op, lat_dtype tx, lat_dtype ty, size_t n)
{
    void *hx = operand_values(op, tx, n, false), *hy = operand_values(op, ty, n, true);
    lat_array *x, *y, *r;
    ASSERT_OK(lat_array_from_host(ctx, tx, 1, &n, hx, &x));
    ASSERT_OK(lat_array_from_host(ctx, ty, 1, &n, hy, &y));
    ASSERT_OK(lat_array_op(op, x, y, NULL, &r));
    ASSERT_EQ(lat_array_size(r), n);
    lat_dtype rt = lat_array_dtype(r);
    void *want = t_calloc(n ? n : 1, lat_dtype_size(rt));
    for (size_t i = 0; i < n; i++) {
        lat_scalar w = ref_binary(op, get_elem(tx, hx, i), get_elem(ty, hy, i));
        ASSERT_MSG(w.dtype == rt, "%s(%s, %s) gives %s; the reference %s", lat_op_name(op),
                   lat_dtype_name(tx), lat_dtype_name(ty), lat_dtype_name(rt),
                   lat_dtype_name(w.dtype));
        put_elem(rt, want, i, w);
    }
    char what[96];
    snprintf(what, sizeof what, "%s(%s[%zu], %s)", lat_op_name(op), lat_dtype_name(tx), n,
             lat_dtype_name(ty));
    check_array(r, want, tolerance(op, rt), what);
    lat_array_destroy(x);
    lat_array_destroy(y);
    lat_array_destroy(r);
}

/* ---- binary operations ------------------------------------------------------------------ */

TEST(arithmetic_on_every_dtype_matches_c)
{
    lat_context *ctx = t_context();
    static const lat_op ops[] = {LAT_OP_ADD, LAT_OP_SUB, LAT_OP_MUL, LAT_OP_DIV,
                                 LAT_OP_MOD, LAT_OP_POW, LAT_OP_MIN, LAT_OP_MAX};
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
        for (int k = 0; k < LAT_DTYPE_COUNT; k++)
            check_binary(ctx, ops[o], ALL_DTYPES[k], ALL_DTYPES[k], sizes[o % NSIZES] + 3 * k);
}

TEST(every_binary_operation_on_sizes_not_multiples_of_a_block)
{
    lat_context *ctx = t_context();
    static const lat_dtype types[] = {LAT_DTYPE_INT32, LAT_DTYPE_FLOAT32, LAT_DTYPE_FLOAT64};
    for (int o = 0; o < NBINARY; o++)
        for (size_t k = 0; k < sizeof types / sizeof types[0]; k++)
            for (int s = 0; s < NSIZES; s++)
                if (s == 3 || (o + (int)k + s) % 3 == 0) /* each size for each op, some types */
                    check_binary(ctx, binary_ops[o], types[k], types[k], sizes[s]);
}

TEST(mixed_types_follow_the_usual_arithmetic_conversions)
{
    lat_context *ctx = t_context();
    static const lat_dtype pairs[][2] = {
        {LAT_DTYPE_INT8, LAT_DTYPE_UINT8},    {LAT_DTYPE_INT16, LAT_DTYPE_FLOAT32},
        {LAT_DTYPE_UINT32, LAT_DTYPE_INT32},  {LAT_DTYPE_UINT32, LAT_DTYPE_INT64},
        {LAT_DTYPE_INT64, LAT_DTYPE_UINT64},  {LAT_DTYPE_FLOAT32, LAT_DTYPE_FLOAT64},
        {LAT_DTYPE_UINT16, LAT_DTYPE_INT8},   {LAT_DTYPE_INT32, LAT_DTYPE_FLOAT64},
    };
    static const lat_op ops[] = {LAT_OP_ADD, LAT_OP_MUL, LAT_OP_DIV, LAT_OP_LT, LAT_OP_MAX};
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++)
        for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
            check_binary(ctx, ops[o], pairs[p][0], pairs[p][1], 300 + p);
}

TEST(integer_division_by_zero_gives_zero)
{
    lat_context *ctx = t_context();
    int32_t x[4] = {7, -7, INT32_MIN, 5}, y[4] = {0, 0, -1, -1};
    lat_array *a, *b, *q, *m;
    ASSERT_OK(lat_array_from_host(ctx, LAT_DTYPE_INT32, 1, (size_t[]){4}, x, &a));
    ASSERT_OK(lat_array_from_host(ctx, LAT_DTYPE_INT32, 1, (size_t[]){4}, y, &b));
    ASSERT_OK(lat_array_op(LAT_OP_DIV, a, b, NULL, &q));
    ASSERT_OK(lat_array_op(LAT_OP_MOD, a, b, NULL, &m));
    int32_t hq[4], hm[4];
    ASSERT_OK(lat_array_get(q, hq, sizeof hq));
    ASSERT_OK(lat_array_get(m, hm, sizeof hm));
    ASSERT_EQ(hq[0], 0);
    ASSERT_EQ(hq[1], 0);
    ASSERT_EQ(hq[2], INT32_MIN); /* wraps instead of trapping */
    ASSERT_EQ(hq[3], -5);
    ASSERT_EQ(hm[0], 0);
    ASSERT_EQ(hm[2], 0);
    lat_array_destroy(a);
    lat_array_destroy(b);
    lat_array_destroy(q);
    lat_array_destroy(m);
}

TEST(scalars_on_either_side)
{
    lat_context *ctx = t_context();
    size_t n = 1000;
    void *h = rand_buffer(LAT_DTYPE_FLOAT32, n, -10, 10, false);
    lat_array *a, *r;
    ASSERT_OK(lat_array_from_host(ctx, LAT_DTYPE_FLOAT32, 1, &n, h, &a));
    /* 1 - a: the scalar first; an int scalar keeps float32. */
    ASSERT_OK(lat_array_scalar_op(LAT_OP_SUB, lat_scalar_i32(1), a, NULL, &r));
    ASSERT_EQ(lat_array_dtype(r), LAT_DTYPE_FLOAT32);
    float *want = t_calloc(n, sizeof *want);
    for (size_t i = 0; i < n; i++)
        want[i] = 1.0f - ((float *)h)[i];
    check_array(r, want, 0, "1 - a");
    lat_array_destroy(r);
    /* a / 2.0: a double scalar makes float64, as in C. */
    ASSERT_OK(lat_array_op_scalar(LAT_OP_DIV, a, lat_scalar_f64(2.0), NULL, &r));
    ASSERT_EQ(lat_array_dtype(r), LAT_DTYPE_FLOAT64);
    double *wd = t_calloc(n, sizeof *wd);
    for (size_t i = 0; i < n; i++)
        wd[i] = (double)((float *)h)[i] / 2.0;
    check_array(r, wd, 0, "a / 2.0");
    lat_array_destroy(r);
    lat_array_destroy(a);
}

TEST(scalar_operands_of_every_dtype)
{
    lat_context *ctx = t_context();
    size_t n = 513;
    for (int k = 0; k < LAT_DTYPE_COUNT; k++) {
        lat_dtype t = ALL_DTYPES[k];
        void *h = rand_buffer(t, n, -50, 50, false);
        lat_array *a, *r;
        ASSERT_OK(lat_array_from_host(ctx, t, 1, &n, h, &a));
        lat_scalar s = is_float(t) ? (lat_scalar){.dtype = t, .value.f = 3}
                       : is_signed(t) ? (lat_scalar){.dtype = t, .value.i = -3}
                                      : (lat_scalar){.dtype = t, .value.u = 3};
        ASSERT_OK(lat_array_op_scalar(LAT_OP_MUL, a, s, NULL, &r));
        lat_dtype rt = lat_array_dtype(r);
        void *want = t_calloc(n, lat_dtype_size(rt));
        for (size_t i = 0; i < n; i++)
            put_elem(rt, want, i, ref_binary(LAT_OP_MUL, get_elem(t, h, i), s));
        check_array(r, want, 0, lat_dtype_name(t));
        lat_array_destroy(r);
        ASSERT_OK(lat_array_scalar_op(LAT_OP_SUB, s, a, NULL, &r));
        for (size_t i = 0; i < n; i++)
            put_elem(rt, want, i, ref_binary(LAT_OP_SUB, s, get_elem(t, h, i)));
        check_array(r, want, 0, lat_dtype_name(t));
        lat_array_destroy(r);
        lat_array_destroy(a);
    }
}

TEST(twice_a_4x4_array_is_the_tutorial_result)
{
    lat_context *ctx = t_context();
    float h[16];
    t_rand_floats(h, 16, -1, 1);
    lat_array *a, *d;
    ASSERT_OK(lat_array_from_host(ctx, LAT_DTYPE_FLOAT32, 2, (size_t[]){4, 4}, h, &a));
    ASSERT_OK(lat_array_scalar_op(LAT_OP_MUL, lat_scalar_i32(2), a, NULL, &d));
    ASSERT_EQ(lat_array_ndim(d), 2);
    float out[16];
    ASSERT_OK(lat_array_get(d, out, sizeof out));
    for (int i = 0; i < 16; i++)
        ASSERT_MSG(out[i] == 2 * h[i], "out[%d] = %g, want %g", i, out[i], 2 * h[i]);
    lat_array_destroy(a);
    lat_array_destroy(d);
}

TEST(in_place_and_into_an_output_of_another_dtype)
{
    lat_context *ctx = t_context();
    size_t n = 3001;
    lat_array *a, *b, *o;
    ASSERT_OK(lat_array_arange(ctx, LAT_DTYPE_INT32, 0, (double)n, 1, &a));
    ASSERT_OK(lat_array_full(ctx, LAT_DTYPE_INT32, 1, &n, lat_scalar_i32(10), &b));
    lat_array *res = NULL;
    ASSERT_OK(lat_array_op(LAT_OP_ADD, a, b, a, &res)); /* a += b */
    ASSERT_TRUE(res == a);
    int32_t *want = t_calloc(n, sizeof *want);
    for (size_t i = 0; i < n; i++)
        want[i] = (int32_t)i + 10;
    check_array(a, want, 0, "a += 10");
    ASSERT_OK(lat_array_empty(ctx, LAT_DTYPE_FLOAT64, 1, &n, &o));
    ASSERT_OK(lat_array_op(LAT_OP_DIV, a, b, o, NULL)); /* int division, stored as double */
    double *wd = t_calloc(n, sizeof *wd);
    for (size_t i = 0; i < n; i++)
        wd[i] = (double)(((int32_t)i + 10) / 10);
    check_array(o, wd, 0, "a / b into float64");
    lat_array_destroy(a);
    lat_array_destroy(b);
    lat_array_destroy(o);
}

TEST(operands_of_different_shapes_are_invalid_value)
{
    lat_context *ctx = t_context();
    lat_array *a, *b, *r = (lat_array *)&r;
    ASSERT_OK(lat_array_zeros(ctx, LAT_DTYPE_FLOAT32, 2, (size_t[]){2, 3}, &a));
    ASSERT_OK(lat_array_zeros(ctx, LAT_DTYPE_FLOAT32, 2, (size_t[]){3, 2}, &b));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_op(LAT_OP_ADD, a, b, NULL, &r));
    ASSERT_CONTAINS(lat_last_error(), "(3, 2)");
    ASSERT_CONTAINS(lat_last_error(), "(2, 3)");
    ASSERT_NULL(r);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_op(LAT_OP_ADD, a, a, b, NULL));
    ASSERT_CONTAINS(lat_last_error(), "out");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_op(LAT_OP_SQRT, a, a, NULL, &r));
    ASSERT_CONTAINS(lat_last_error(), "not a binary operation");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_unary(LAT_OP_ADD, a, NULL, &r));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_array_binary(LAT_OP_ADD, lat_operand_scalar(lat_scalar_i32(1)),
                                   lat_operand_scalar(lat_scalar_i32(2)), NULL, &r));
    ASSERT_CONTAINS(lat_last_error(), "no operand is an array");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_array_op(LAT_OP_ADD, a, a, NULL, NULL));
    lat_array_destroy(a);
    lat_array_destroy(b);
}

TEST(operation_names)
{
    ASSERT_STR_EQ(lat_op_name(LAT_OP_ADD), "add");
    ASSERT_STR_EQ(lat_op_name(LAT_OP_LOGICAL_OR), "logical_or");
    ASSERT_STR_EQ(lat_op_name(LAT_OP_NEG), "neg");
    ASSERT_STR_EQ(lat_op_name(LAT_OP_ERFC), "erfc");
    ASSERT_STR_EQ(lat_op_name((lat_op)1000), "unknown");
}

/* ---- unary operations ------------------------------------------------------------------- */

typedef double (*math_fn)(double);
typedef float (*mathf_fn)(float);

static const struct {
    lat_op op;
    math_fn d;
    mathf_fn f;
    double lo, hi; /* the domain tested */
} math_ops[] = {
    {LAT_OP_FABS, fabs, fabsf, -100, 100},   {LAT_OP_CEIL, ceil, ceilf, -100, 100},
    {LAT_OP_FLOOR, floor, floorf, -100, 100}, {LAT_OP_TRUNC, trunc, truncf, -100, 100},
    {LAT_OP_ROUND, round, roundf, -100, 100}, {LAT_OP_RINT, rint, rintf, -100, 100},
    {LAT_OP_EXP, exp, expf, -20, 20},         {LAT_OP_EXP2, exp2, exp2f, -20, 20},
    {LAT_OP_EXPM1, expm1, expm1f, -5, 5},     {LAT_OP_LOG, log, logf, 0.001, 1000},
    {LAT_OP_LOG2, log2, log2f, 0.001, 1000},  {LAT_OP_LOG10, log10, log10f, 0.001, 1000},
    {LAT_OP_LOG1P, log1p, log1pf, -0.5, 100}, {LAT_OP_SQRT, sqrt, sqrtf, 0, 1000},
    {LAT_OP_RSQRT, NULL, NULL, 0.01, 1000},   {LAT_OP_CBRT, cbrt, cbrtf, -1000, 1000},
    {LAT_OP_SIN, sin, sinf, -10, 10},         {LAT_OP_COS, cos, cosf, -10, 10},
    {LAT_OP_TAN, tan, tanf, -1.5, 1.5},       {LAT_OP_ASIN, asin, asinf, -1, 1},
    {LAT_OP_ACOS, acos, acosf, -1, 1},        {LAT_OP_ATAN, atan, atanf, -100, 100},
    {LAT_OP_SINH, sinh, sinhf, -10, 10},      {LAT_OP_COSH, cosh, coshf, -10, 10},
    {LAT_OP_TANH, tanh, tanhf, -10, 10},      {LAT_OP_ASINH, asinh, asinhf, -100, 100},
    {LAT_OP_ACOSH, acosh, acoshf, 1, 100},    {LAT_OP_ATANH, atanh, atanhf, -0.99, 0.99},
    {LAT_OP_ERF, erf, erff, -3, 3},           {LAT_OP_ERFC, erfc, erfcf, -3, 3},
};

TEST(cumath_on_float32_and_float64)
{
    lat_context *ctx = t_context();
    for (size_t m = 0; m < sizeof math_ops / sizeof math_ops[0]; m++) {
        for (int dbl = 0; dbl < 2; dbl++) {
            lat_dtype t = dbl ? LAT_DTYPE_FLOAT64 : LAT_DTYPE_FLOAT32;
            size_t n = sizes[(m + (size_t)dbl) % NSIZES] + 5;
            void *h = rand_buffer(t, n, math_ops[m].lo, math_ops[m].hi, false);
            lat_array *a, *r;
            ASSERT_OK(lat_array_from_host(ctx, t, 1, &n, h, &a));
            ASSERT_OK(lat_array_unary(math_ops[m].op, a, NULL, &r));
            ASSERT_EQ(lat_array_dtype(r), t);
            void *want = t_calloc(n, lat_dtype_size(t));
            for (size_t i = 0; i < n; i++) {
                double x = get_elem(t, h, i).value.f, y;
                if (!math_ops[m].d)
                    y = dbl ? 1 / sqrt(x) : (double)(1.0f / sqrtf((float)x));
                else
                    y = dbl ? math_ops[m].d(x) : (double)math_ops[m].f((float)x);
                put_elem(t, want, i, mk_f(y, t));
            }
            double tol = tolerance(math_ops[m].op, t);
            if (math_ops[m].op == LAT_OP_RSQRT || math_ops[m].op == LAT_OP_SQRT)
                tol = dbl ? 1e-15 : 4e-7; /* CUDA's rsqrtf is not correctly rounded */
            char what[64];
            snprintf(what, sizeof what, "%s(%s)", lat_op_name(math_ops[m].op), lat_dtype_name(t));
            check_array(r, want, tol, what);
            lat_array_destroy(a);
            lat_array_destroy(r);
        }
    }
}

TEST(math_on_integers_is_done_in_double)
{
    lat_context *ctx = t_context();
    int16_t h[5] = {0, 1, 4, 9, 10000};
    lat_array *a, *r;
    ASSERT_OK(lat_array_from_host(ctx, LAT_DTYPE_INT16, 1, (size_t[]){5}, h, &a));
    ASSERT_OK(lat_array_unary(LAT_OP_SQRT, a, NULL, &r));
    ASSERT_EQ(lat_array_dtype(r), LAT_DTYPE_FLOAT64);
    double want[5] = {0, 1, 2, 3, 100};
    check_array(r, want, 0, "sqrt(int16)");
    lat_array_destroy(a);
    lat_array_destroy(r);
}

TEST(neg_abs_and_not_on_every_dtype)
{
    lat_context *ctx = t_context();
    size_t n = 300;
    for (int k = 0; k < LAT_DTYPE_COUNT; k++) {
        lat_dtype t = ALL_DTYPES[k];
        void *h = rand_buffer(t, n, -100, 100, true);
        put_elem(t, h, 0, lat_scalar_i32(0));
        lat_array *a, *r;
        ASSERT_OK(lat_array_from_host(ctx, t, 1, &n, h, &a));
        ASSERT_OK(lat_array_unary(LAT_OP_NEG, a, NULL, &r));
        lat_dtype p = lat_dtype_promote(t, t);
        ASSERT_EQ(lat_array_dtype(r), p);
        void *want = t_calloc(n, 8);
        for (size_t i = 0; i < n; i++) {
            lat_scalar x = convert(get_elem(t, h, i), p);
            put_elem(p, want, i, is_float(p) ? mk_f(-x.value.f, p) : mk_int(0 - int_bits(x), p));
        }
        check_array(r, want, 0, "neg");
        lat_array_destroy(r);
        ASSERT_OK(lat_array_unary(LAT_OP_ABS, a, NULL, &r));
        ASSERT_EQ(lat_array_dtype(r), t);
        for (size_t i = 0; i < n; i++) {
            lat_scalar x = get_elem(t, h, i);
            lat_scalar y = is_float(t) ? mk_f(fabs(x.value.f), t)
                           : (is_signed(t) && x.value.i < 0) ? mk_int(0 - int_bits(x), t) : x;
            put_elem(t, want, i, y);
        }
        check_array(r, want, 0, "abs");
        lat_array_destroy(r);
        ASSERT_OK(lat_array_unary(LAT_OP_LOGICAL_NOT, a, NULL, &r));
        ASSERT_EQ(lat_array_dtype(r), LAT_DTYPE_UINT8);
        for (size_t i = 0; i < n; i++)
            put_elem(LAT_DTYPE_UINT8, want, i, mask(as_double(get_elem(t, h, i)) == 0));
        check_array(r, want, 0, "logical_not");
        lat_array_destroy(r);
        lat_array_destroy(a);
    }
}

TEST(isnan_isinf_isfinite_masks)
{
    lat_context *ctx = t_context();
    double h[6] = {0, -1.5, INFINITY, -INFINITY, NAN, 1e308};
    lat_array *a, *r;
    ASSERT_OK(lat_array_from_host(ctx, LAT_DTYPE_FLOAT64, 1, (size_t[]){6}, h, &a));
    static const struct {
        lat_op op;
        uint8_t want[6];
    } cases[] = {
        {LAT_OP_ISNAN, {0, 0, 0, 0, 1, 0}},
        {LAT_OP_ISINF, {0, 0, 1, 1, 0, 0}},
        {LAT_OP_ISFINITE, {1, 1, 0, 0, 0, 1}},
    };
    for (int c = 0; c < 3; c++) {
        ASSERT_OK(lat_array_unary(cases[c].op, a, NULL, &r));
        check_array(r, cases[c].want, 0, lat_op_name(cases[c].op));
        lat_array_destroy(r);
    }
    lat_array_destroy(a);
    lat_array *i;
    ASSERT_OK(lat_array_arange(ctx, LAT_DTYPE_INT32, 0, 3, 1, &i));
    ASSERT_OK(lat_array_unary(LAT_OP_ISFINITE, i, NULL, &r));
    uint8_t ones[3] = {1, 1, 1};
    check_array(r, ones, 0, "isfinite(int32)");
    lat_array_destroy(r);
    lat_array_destroy(i);
}

/* ---- where ------------------------------------------------------------------------------ */

TEST(where_picks_elementwise)
{
    lat_context *ctx = t_context();
    size_t n = 2049;
    void *hx = rand_buffer(LAT_DTYPE_FLOAT32, n, -1, 1, false);
    void *hy = rand_buffer(LAT_DTYPE_INT16, n, -100, 100, false);
    lat_array *x, *y, *mask_arr, *r;
    ASSERT_OK(lat_array_from_host(ctx, LAT_DTYPE_FLOAT32, 1, &n, hx, &x));
    ASSERT_OK(lat_array_from_host(ctx, LAT_DTYPE_INT16, 1, &n, hy, &y));
    ASSERT_OK(lat_array_op_scalar(LAT_OP_GT, x, lat_scalar_f32(0), NULL, &mask_arr));
    ASSERT_OK(lat_array_where(mask_arr, lat_operand_array(x), lat_operand_array(y), NULL, &r));
    ASSERT_EQ(lat_array_dtype(r), LAT_DTYPE_FLOAT32);
    float *want = t_calloc(n, sizeof *want);
    for (size_t i = 0; i < n; i++) {
        float xv = ((float *)hx)[i];
        want[i] = xv > 0 ? xv : (float)((int16_t *)hy)[i];
    }
    check_array(r, want, 0, "where(x > 0, x, y)");
    lat_array_destroy(r);
    ASSERT_OK(lat_array_where(mask_arr, lat_operand_scalar(lat_scalar_f64(1)),
                              lat_operand_scalar(lat_scalar_f64(-1)), NULL, &r));
    ASSERT_EQ(lat_array_dtype(r), LAT_DTYPE_FLOAT64);
    double *wd = t_calloc(n, sizeof *wd);
    for (size_t i = 0; i < n; i++)
        wd[i] = ((float *)hx)[i] > 0 ? 1 : -1;
    check_array(r, wd, 0, "where(mask, 1.0, -1.0)");
    lat_array_destroy(r);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_array_where(NULL, lat_operand_array(x), lat_operand_array(y), NULL, &r));
    lat_array_destroy(x);
    lat_array_destroy(y);
    lat_array_destroy(mask_arr);
}
