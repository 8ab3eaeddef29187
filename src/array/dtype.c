/* Element types: names, C types, sizes, C's usual arithmetic conversions, scalars. */
#include "internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Indexed by lat_dtype; entry 0 (DEFAULT) is unused: it resolves to float32. */
static const lat__dtype_info table[] = {
    [LAT_DTYPE_INT8] = {"int8", "signed char", "unsigned char", "int", 1, false, true},
    [LAT_DTYPE_INT16] = {"int16", "short", "unsigned short", "int", 2, false, true},
    [LAT_DTYPE_INT32] = {"int32", "int", "unsigned int", "int", 4, false, true},
    [LAT_DTYPE_INT64] = {"int64", "long long", "unsigned long long", "long long", 8, false, true},
    [LAT_DTYPE_UINT8] = {"uint8", "unsigned char", "unsigned char", "unsigned int", 1, false, false},
    [LAT_DTYPE_UINT16] = {"uint16", "unsigned short", "unsigned short", "unsigned int", 2, false, false},
    [LAT_DTYPE_UINT32] = {"uint32", "unsigned int", "unsigned int", "unsigned int", 4, false, false},
    [LAT_DTYPE_UINT64] = {"uint64", "unsigned long long", "unsigned long long",
                          "unsigned long long", 8, false, false},
    [LAT_DTYPE_FLOAT32] = {"float32", "float", "unsigned int", "float", 4, true, true},
    [LAT_DTYPE_FLOAT64] = {"float64", "double", "unsigned long long", "double", 8, true, true},
};

bool lat__dtype_valid(lat_dtype t)
{
    return (int)t >= 0 && (int)t <= LAT_DTYPE_COUNT;
}

lat_dtype lat__dtype_resolve(lat_dtype t)
{
    return t == LAT_DTYPE_DEFAULT ? LAT_DTYPE_FLOAT32 : t;
}

const lat__dtype_info *lat__dtype(lat_dtype t)
{
    if (!lat__dtype_valid(t))
        return NULL;
    return &table[lat__dtype_resolve(t)];
}

const char *lat_dtype_name(lat_dtype dtype)
{
    const lat__dtype_info *d = lat__dtype(dtype);
    return d ? d->name : "unknown";
}

const char *lat_dtype_ctype(lat_dtype dtype)
{
    const lat__dtype_info *d = lat__dtype(dtype);
    return d ? d->ctype : NULL;
}

size_t lat_dtype_size(lat_dtype dtype)
{
    const lat__dtype_info *d = lat__dtype(dtype);
    return d ? d->size : 0;
}

/* The integer promotions: every type narrower than int becomes int. */
static lat_dtype promote_int(lat_dtype t)
{
    return lat_dtype_size(t) < 4 ? LAT_DTYPE_INT32 : t;
}

lat_dtype lat_dtype_promote(lat_dtype a, lat_dtype b)
{
    if (!lat__dtype_valid(a) || !lat__dtype_valid(b))
        return LAT_DTYPE_DEFAULT;
    a = lat__dtype_resolve(a);
    b = lat__dtype_resolve(b);
    if (a == LAT_DTYPE_FLOAT64 || b == LAT_DTYPE_FLOAT64)
        return LAT_DTYPE_FLOAT64;
    if (a == LAT_DTYPE_FLOAT32 || b == LAT_DTYPE_FLOAT32)
        return LAT_DTYPE_FLOAT32;
    a = promote_int(a);
    b = promote_int(b);
    if (a == b)
        return a;
    const lat__dtype_info *da = &table[a], *db = &table[b];
    if (da->is_signed == db->is_signed)
        return da->size >= db->size ? a : b;
    /* One signed, one unsigned (C11 6.3.1.8): the unsigned one wins unless the signed
     * one is wider, when it can hold every value of the other. */
    lat_dtype s = da->is_signed ? a : b, u = da->is_signed ? b : a;
    return table[s].size > table[u].size ? s : u;
}

double lat_scalar_to_f64(lat_scalar s)
{
    const lat__dtype_info *d = lat__dtype(s.dtype);
    if (!d || d->is_float)
        return s.value.f;
    return d->is_signed ? (double)s.value.i : (double)s.value.u;
}

int64_t lat_scalar_to_i64(lat_scalar s)
{
    const lat__dtype_info *d = lat__dtype(s.dtype);
    if (!d || d->is_float) {
        double f = s.value.f;
        /* C leaves out-of-range conversions undefined; saturate instead of trapping. */
        if (!(f == f))
            return 0;
        if (f >= 9223372036854775807.0)
            return INT64_MAX;
        if (f <= -9223372036854775808.0)
            return INT64_MIN;
        return (int64_t)f;
    }
    return d->is_signed ? s.value.i : (int64_t)s.value.u;
}

uint64_t lat_scalar_to_u64(lat_scalar s)
{
    const lat__dtype_info *d = lat__dtype(s.dtype);
    if (!d || d->is_float) {
        double f = s.value.f;
        if (!(f == f) || f <= -1.0)
            return f <= -1.0 && f > -9223372036854775808.0 ? (uint64_t)(int64_t)f : 0;
        if (f >= 18446744073709551615.0)
            return UINT64_MAX;
        return (uint64_t)f;
    }
    return d->is_signed ? (uint64_t)s.value.i : s.value.u;
}

void lat__scalar_store(lat_scalar s, lat_dtype t, void *out)
{
    t = lat__dtype_resolve(t);
    const lat__dtype_info *src = lat__dtype(s.dtype);
    bool from_float = !src || src->is_float;
    switch (t) {
#define INT_CASE(T, ctype)                                                                 \
    case T: {                                                                              \
        ctype v = from_float ? (ctype)lat_scalar_to_i64(s)                                 \
                             : (src->is_signed ? (ctype)s.value.i : (ctype)s.value.u);     \
        memcpy(out, &v, sizeof v);                                                         \
        break;                                                                             \
    }
        INT_CASE(LAT_DTYPE_INT8, int8_t)
        INT_CASE(LAT_DTYPE_INT16, int16_t)
        INT_CASE(LAT_DTYPE_INT32, int32_t)
        INT_CASE(LAT_DTYPE_INT64, int64_t)
#undef INT_CASE
#define UINT_CASE(T, ctype)                                                                \
    case T: {                                                                              \
        ctype v = from_float ? (ctype)lat_scalar_to_u64(s)                                 \
                             : (src->is_signed ? (ctype)s.value.i : (ctype)s.value.u);     \
        memcpy(out, &v, sizeof v);                                                         \
        break;                                                                             \
    }
        UINT_CASE(LAT_DTYPE_UINT8, uint8_t)
        UINT_CASE(LAT_DTYPE_UINT16, uint16_t)
        UINT_CASE(LAT_DTYPE_UINT32, uint32_t)
        UINT_CASE(LAT_DTYPE_UINT64, uint64_t)
#undef UINT_CASE
    case LAT_DTYPE_FLOAT32: {
        float v = (float)lat_scalar_to_f64(s);
        if (src && !src->is_float)
            v = src->is_signed ? (float)s.value.i : (float)s.value.u;
        memcpy(out, &v, sizeof v);
        break;
    }
    case LAT_DTYPE_FLOAT64:
    default: {
        double v = lat_scalar_to_f64(s);
        memcpy(out, &v, sizeof v);
        break;
    }
    }
}

void lat__shape_str(int ndim, const size_t *shape, char *buf, size_t size)
{
    size_t at = 0;
    int n = snprintf(buf, size, "(");
    at = n > 0 ? (size_t)n : 0;
    for (int d = 0; d < ndim && at < size; d++) {
        n = snprintf(buf + at, size - at, d ? ", %zu" : "%zu", shape[d]);
        at += n > 0 ? (size_t)n : 0;
    }
    if (at < size)
        snprintf(buf + at, size - at, ndim == 1 ? ",)" : ")");
}
