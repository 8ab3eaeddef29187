/*
 * Host references for the array tests: elements of every dtype read and written as
 * lat_scalar values, C's conversions and arithmetic done on the host the way the
 * generated kernels do them (in the promoted type, integers wrapping), random inputs,
 * and the one place where an unsupported construct turns into a skip.
 */
#ifndef LAT_TEST_ARRAY_CHECK_H
#define LAT_TEST_ARRAY_CHECK_H

#include "harness.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const lat_dtype ALL_DTYPES[LAT_DTYPE_COUNT] = {
    LAT_DTYPE_INT8,   LAT_DTYPE_INT16,  LAT_DTYPE_INT32,  LAT_DTYPE_INT64,  LAT_DTYPE_UINT8,
    LAT_DTYPE_UINT16, LAT_DTYPE_UINT32, LAT_DTYPE_UINT64, LAT_DTYPE_FLOAT32, LAT_DTYPE_FLOAT64,
};

static inline bool is_float(lat_dtype t)
{
    return t == LAT_DTYPE_FLOAT32 || t == LAT_DTYPE_FLOAT64;
}

static inline bool is_signed(lat_dtype t)
{
    return t == LAT_DTYPE_INT8 || t == LAT_DTYPE_INT16 || t == LAT_DTYPE_INT32 ||
           t == LAT_DTYPE_INT64;
}

/* The first line of lattice's last message (a compiler's log has many). */
static inline const char *first_line(void)
{
    static char line[240];
    const char *m = lat_last_error();
    size_t n = strcspn(m, "\n");
    if (n >= sizeof line)
        n = sizeof line - 1;
    memcpy(line, m, n);
    line[n] = '\0';
    return line;
}

/* Operations the emulator cannot run until it has shared memory, barriers and warp
 * shuffles skip there, naming what lattice said; anything else must succeed. */
#define ASSERT_OK_OR_SKIP_UNSUPPORTED(ctx, expr)                                           \
    do {                                                                               \
        lat_status t_st_ = (expr);                                                     \
        if (t_st_ == LAT_ERROR_UNSUPPORTED && t_is_emu(ctx))                           \
            SKIP("the emulator has no shared memory, barriers or warp shuffles yet: %s", \
                 first_line());                                                        \
        ASSERT_OK(t_st_);                                                              \
    } while (0)

/* Skips the case, before it creates anything (a skip does not free arrays), where the
 * backend cannot run kernels with shared memory, barriers and warp shuffles: a probe
 * with a one-element sum. */
static inline void require_block_kernels(lat_context *ctx)
{
    lat_array *a, *r = NULL;
    ASSERT_OK(lat_array_zeros(ctx, LAT_DTYPE_INT32, 1, (size_t[]){1}, &a));
    lat_status st = lat_array_reduce(LAT_REDUCE_SUM, a, NULL, &r);
    lat_array_destroy(a);
    lat_array_destroy(r);
    ASSERT_OK_OR_SKIP_UNSUPPORTED(ctx, st);
}

/* Wraps an integer to the width and signedness of t (C's conversion to t). */
static inline lat_scalar wrap_int(uint64_t bits, lat_dtype t)
{
    lat_scalar s = {.dtype = t};
    switch (t) {
    case LAT_DTYPE_INT8: s.value.i = (int8_t)bits; break;
    case LAT_DTYPE_INT16: s.value.i = (int16_t)bits; break;
    case LAT_DTYPE_INT32: s.value.i = (int32_t)bits; break;
    case LAT_DTYPE_INT64: s.value.i = (int64_t)bits; break;
    case LAT_DTYPE_UINT8: s.value.u = (uint8_t)bits; break;
    case LAT_DTYPE_UINT16: s.value.u = (uint16_t)bits; break;
    case LAT_DTYPE_UINT32: s.value.u = (uint32_t)bits; break;
    default: s.value.u = bits; break;
    }
    return s;
}

/* The integer's bits (two's complement for signed values). */
static inline uint64_t int_bits(lat_scalar s)
{
    return is_signed(s.dtype) ? (uint64_t)s.value.i : s.value.u;
}

/* C's conversion of s to type t. Float to integer conversions are only made of values in
 * range by the tests (C leaves the others undefined). */
static inline lat_scalar convert(lat_scalar s, lat_dtype t)
{
    if (is_float(t)) {
        double v = is_float(s.dtype) ? s.value.f
                   : is_signed(s.dtype) ? (double)s.value.i : (double)s.value.u;
        if (t == LAT_DTYPE_FLOAT32) {
            /* An integer goes to float in one rounding, as the device converts. */
            float f = is_float(s.dtype) ? (float)s.value.f
                      : is_signed(s.dtype) ? (float)s.value.i : (float)s.value.u;
            v = f;
        }
        return (lat_scalar){.dtype = t, .value.f = v};
    }
    if (is_float(s.dtype)) {
        double f = s.value.f;
        if (is_signed(t))
            return wrap_int((uint64_t)(int64_t)f, t);
        return wrap_int(f < 0 ? (uint64_t)(int64_t)f : (uint64_t)f, t);
    }
    return wrap_int(int_bits(s), t);
}

/* Element i of a host buffer of dtype t. */
static inline lat_scalar get_elem(lat_dtype t, const void *buf, size_t i)
{
    const unsigned char *p = (const unsigned char *)buf + i * lat_dtype_size(t);
    lat_scalar s = {.dtype = t};
    switch (t) {
#define GET_(T, ctype, field)                                                              \
    case T: {                                                                          \
        ctype v;                                                                       \
        memcpy(&v, p, sizeof v);                                                       \
        s.value.field = v;                                                             \
        break;                                                                         \
    }
        GET_(LAT_DTYPE_INT8, int8_t, i)
        GET_(LAT_DTYPE_INT16, int16_t, i)
        GET_(LAT_DTYPE_INT32, int32_t, i)
        GET_(LAT_DTYPE_INT64, int64_t, i)
        GET_(LAT_DTYPE_UINT8, uint8_t, u)
        GET_(LAT_DTYPE_UINT16, uint16_t, u)
        GET_(LAT_DTYPE_UINT32, uint32_t, u)
        GET_(LAT_DTYPE_UINT64, uint64_t, u)
        GET_(LAT_DTYPE_FLOAT32, float, f)
        GET_(LAT_DTYPE_FLOAT64, double, f)
#undef GET_
    default:
        break;
    }
    return s;
}

/* Stores s (converted to t) as element i. */
static inline void put_elem(lat_dtype t, void *buf, size_t i, lat_scalar s)
{
    unsigned char *p = (unsigned char *)buf + i * lat_dtype_size(t);
    s = convert(s, t);
    switch (t) {
#define PUT_(T, ctype, field)                                                              \
    case T: {                                                                          \
        ctype v = (ctype)s.value.field;                                                \
        memcpy(p, &v, sizeof v);                                                       \
        break;                                                                         \
    }
        PUT_(LAT_DTYPE_INT8, int8_t, i)
        PUT_(LAT_DTYPE_INT16, int16_t, i)
        PUT_(LAT_DTYPE_INT32, int32_t, i)
        PUT_(LAT_DTYPE_INT64, int64_t, i)
        PUT_(LAT_DTYPE_UINT8, uint8_t, u)
        PUT_(LAT_DTYPE_UINT16, uint16_t, u)
        PUT_(LAT_DTYPE_UINT32, uint32_t, u)
        PUT_(LAT_DTYPE_UINT64, uint64_t, u)
        PUT_(LAT_DTYPE_FLOAT32, float, f)
        PUT_(LAT_DTYPE_FLOAT64, double, f)
#undef PUT_
    default:
        break;
    }
}

/* A random value of type t: floats in [lo, hi), integers over their whole range when
 * `full`, else in [lo, hi] (clamped to the type). */
static inline lat_scalar rand_elem(lat_dtype t, double lo, double hi, bool full)
{
    if (is_float(t))
        return (lat_scalar){.dtype = t, .value.f = t_rand_double(lo, hi)};
    if (full) {
        uint64_t bits = (uint64_t)t_rand_u32() << 32 | t_rand_u32();
        return wrap_int(bits, t);
    }
    double v = floor(t_rand_double(lo, hi + 1));
    if (!is_signed(t) && v < 0)
        v = -v;
    lat_scalar s = {.dtype = LAT_DTYPE_INT64, .value.i = (int64_t)v};
    return convert(s, t);
}

/* A host buffer of n random elements of t, freed after the case. */
static inline void *rand_buffer(lat_dtype t, size_t n, double lo, double hi, bool full)
{
    void *buf = t_calloc(n ? n : 1, lat_dtype_size(t));
    for (size_t i = 0; i < n; i++)
        put_elem(t, buf, i, rand_elem(t, lo, hi, full));
    return buf;
}

static inline double as_double(lat_scalar s)
{
    return is_float(s.dtype) ? s.value.f
           : is_signed(s.dtype) ? (double)s.value.i : (double)s.value.u;
}

/* Whether got equals want: integers exactly, floats within rel (0: exactly), NaN equal
 * to NaN. */
static inline bool same_value(lat_scalar got, lat_scalar want, double rel)
{
    if (got.dtype != want.dtype)
        return false;
    if (!is_float(got.dtype))
        return int_bits(got) == int_bits(want);
    double g = got.value.f, w = want.value.f;
    if (isnan(g) || isnan(w))
        return isnan(g) && isnan(w);
    if (g == w)
        return true;
    return fabs(g - w) <= rel * fabs(w) + rel * 1e-30;
}

/* "-3", "2.5" for messages. */
static inline const char *fmt_value(lat_scalar s, char *buf, size_t size)
{
    if (is_float(s.dtype))
        snprintf(buf, size, "%.17g", s.value.f);
    else if (is_signed(s.dtype))
        snprintf(buf, size, "%lld", (long long)s.value.i);
    else
        snprintf(buf, size, "%llu", (unsigned long long)s.value.u);
    return buf;
}

/* Compares a device array with expected host elements (of the array's dtype). */
static inline void check_array(const lat_array *a, const void *want, double rel, const char *what)
{
    size_t n = lat_array_size(a);
    lat_dtype t = lat_array_dtype(a);
    void *got = t_calloc(n ? n : 1, lat_dtype_size(t));
    ASSERT_OK(lat_array_get(a, got, lat_array_nbytes(a)));
    for (size_t i = 0; i < n; i++) {
        lat_scalar g = get_elem(t, got, i), w = get_elem(t, want, i);
        char gs[64], ws[64];
        ASSERT_MSG(same_value(g, w, rel), "%s: element %zu of %zu (%s) is %s, want %s", what, i, n,
                   lat_dtype_name(t), fmt_value(g, gs, sizeof gs), fmt_value(w, ws, sizeof ws));
    }
}

#endif
