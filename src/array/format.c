/*
 * Arrays as text, as a program or a debugging session wants to see them: the host copy
 * (lat_array_get_copy), and "[0, 2, 4, ..., 1998]" (lat_array_format, lat_array_print).
 */
#include "internal.h"

#include "core.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

lat_status lat_array_get_copy(const lat_array *a, void **host, size_t *bytes)
{
    LAT__API();
    if (!a || !host)
        return lat__error(a ? a->ctx : NULL, LAT_ERROR_INVALID_VALUE, "%s is NULL",
                          a ? "host" : "a");
    *host = NULL;
    size_t n = lat_array_nbytes(a);
    /* One byte at least: a pointer the caller can free for an empty array too. */
    void *p = malloc(n ? n : 1);
    if (!p)
        return lat__oom_for(a->ctx, "for %zu bytes", n);
    lat_status st = lat_array_get(a, p, n);
    if (st != LAT_OK) {
        free(p);
        return st;
    }
    *host = p;
    if (bytes)
        *bytes = n;
    return LAT_OK;
}

/* Element i of host data of dtype t, as text. */
static int element_text(char *out, size_t size, lat_dtype t, const unsigned char *p)
{
    switch (t) {
    case LAT_DTYPE_INT8: { int8_t v; memcpy(&v, p, 1); return snprintf(out, size, "%d", v); }
    case LAT_DTYPE_INT16: { int16_t v; memcpy(&v, p, 2); return snprintf(out, size, "%d", v); }
    case LAT_DTYPE_INT32: { int32_t v; memcpy(&v, p, 4); return snprintf(out, size, "%" PRId32, v); }
    case LAT_DTYPE_INT64: { int64_t v; memcpy(&v, p, 8); return snprintf(out, size, "%" PRId64, v); }
    case LAT_DTYPE_UINT8: return snprintf(out, size, "%u", p[0]);
    case LAT_DTYPE_UINT16: { uint16_t v; memcpy(&v, p, 2); return snprintf(out, size, "%u", v); }
    case LAT_DTYPE_UINT32: { uint32_t v; memcpy(&v, p, 4); return snprintf(out, size, "%" PRIu32, v); }
    case LAT_DTYPE_UINT64: { uint64_t v; memcpy(&v, p, 8); return snprintf(out, size, "%" PRIu64, v); }
    case LAT_DTYPE_FLOAT64: { double v; memcpy(&v, p, 8); return snprintf(out, size, "%.9g", v); }
    default: { float v; memcpy(&v, p, 4); return snprintf(out, size, "%.7g", (double)v); }
    }
}

/* Appends text to out (size bytes, always terminated); counts what it would need. */
static void put(char *out, size_t size, size_t *len, const char *text)
{
    size_t n = strlen(text);
    if (*len < size) {
        size_t room = size - *len - 1;
        memcpy(out + *len, text, n < room ? n : room);
        out[*len + (n < room ? n : room)] = '\0';
    }
    *len += n;
}

lat_status lat_array_format(const lat_array *a, size_t edge, char *out, size_t size, size_t *length)
{
    LAT__API();
    if (!a || (!out && size))
        return lat__error(a ? a->ctx : NULL, LAT_ERROR_INVALID_VALUE, "%s is NULL",
                          a ? "out" : "a");
    if (out && size)
        out[0] = '\0';
    if (edge == 0)
        edge = 3;
    size_t n = lat_array_size(a), es = lat_dtype_size(lat_array_dtype(a));
    bool whole = n <= 2 * edge + 1;
    /* Only the elements shown are copied: the first and last `edge` of a long array. */
    size_t head = whole ? n : edge, tail = whole ? 0 : edge;
    unsigned char *h = malloc((head + tail) * es + 1);
    if (!h)
        return lat__oom(a->ctx);
    lat_status st = head ? lat_memcpy_dtoh(a->ctx, h, lat_array_ptr(a), head * es) : LAT_OK;
    if (st == LAT_OK && tail)
        st = lat_memcpy_dtoh(a->ctx, h + head * es, lat_array_ptr(a) + (n - tail) * es, tail * es);
    if (st != LAT_OK) {
        free(h);
        return st;
    }
    size_t len = 0;
    char item[64];
    put(out, size, &len, "[");
    for (size_t i = 0; i < head + tail; i++) {
        if (i)
            put(out, size, &len, i == head ? ", ..., " : ", ");
        element_text(item, sizeof item, lat_array_dtype(a), h + i * es);
        put(out, size, &len, item);
    }
    put(out, size, &len, "]");
    free(h);
    if (length)
        *length = len;
    return LAT_OK;
}

lat_status lat_array_print(const lat_array *a, const char *label)
{
    LAT__API();
    size_t need = 0;
    lat_status st = lat_array_format(a, 0, NULL, 0, &need);
    if (st != LAT_OK)
        return st;
    char *text = malloc(need + 1);
    if (!text)
        return lat__oom(a->ctx);
    st = lat_array_format(a, 0, text, need + 1, NULL);
    if (st == LAT_OK)
        printf("%s%s%s\n", label ? label : "", label ? " = " : "", text);
    free(text);
    return st;
}
