/* Arrays: creation, host copies, views, properties. Memory is shared by an array and
 * its views through a reference count, so that it is freed exactly once. */
#include "internal.h"
#include "core/alloc.h"

#include "core.h"

#include <stdlib.h>
#include <string.h>

static lat_status check_shape(lat_context *ctx, lat_dtype dtype, int ndim,
                              const size_t *shape, size_t *size_out)
{
    if (!lat__dtype_valid(dtype))
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "unknown dtype %d", (int)dtype);
    if (ndim < 0 || ndim > LAT_ARRAY_MAX_DIMS)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "ndim is %d; an array has 0 to %d dimensions", ndim,
                          LAT_ARRAY_MAX_DIMS);
    if (ndim > 0 && !shape)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "shape is NULL for ndim %d", ndim);
    size_t elem = lat_dtype_size(dtype), size = 1;
    for (int d = 0; d < ndim; d++) {
        if (shape[d] != 0 && size > SIZE_MAX / shape[d])
            return lat__error(ctx, LAT_ERROR_OVERFLOW, "the element count overflows");
        size *= shape[d];
    }
    if (size > SIZE_MAX / elem)
        return lat__error(ctx, LAT_ERROR_OVERFLOW, "%zu elements of %zu bytes overflow", size, elem);
    *size_out = size;
    return LAT_OK;
}

static lat_array *alloc_header(lat_context *ctx, lat_dtype dtype, int ndim,
                               const size_t *shape, size_t size)
{
    lat_array *a = lat__calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->ctx = ctx;
    a->dtype = lat__dtype_resolve(dtype);
    a->ndim = ndim;
    for (int d = 0; d < ndim; d++)
        a->shape[d] = shape[d];
    a->size = size;
    return a;
}

lat_status lat__array_new(lat_context *ctx, lat_dtype dtype, int ndim, const size_t *shape, lat_array **out)
{
    if (!out)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "out is NULL");
    *out = NULL;
    if (!ctx)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "ctx is NULL");
    size_t size;
    lat_status st = check_shape(ctx, dtype, ndim, shape, &size);
    if (st != LAT_OK)
        return st;
    lat_array *a = alloc_header(ctx, dtype, ndim, shape, size);
    if (!a)
        return lat__oom(ctx);
    if (size > 0) {
        a->mem = lat__malloc(sizeof *a->mem);
        if (!a->mem) {
            free(a);
            return lat__oom(ctx);
        }
        st = lat_mem_alloc(ctx, size * lat_dtype_size(dtype), &a->ptr);
        if (st != LAT_OK) {
            free(a->mem);
            free(a);
            return st;
        }
        a->mem->ctx = ctx;
        a->mem->base = a->ptr;
        atomic_init(&a->mem->refs, 1);
    }
    *out = a;
    return LAT_OK;
}

lat_status lat_array_empty(lat_context *ctx, lat_dtype dtype, int ndim, const size_t *shape,
                           lat_array **out)
{
    LAT__API();
    return lat__array_new(ctx, dtype, ndim, shape, out);
}

lat_status lat_array_zeros(lat_context *ctx, lat_dtype dtype, int ndim, const size_t *shape,
                           lat_array **out)
{
    LAT__API();
    lat_status st = lat__array_new(ctx, dtype, ndim, shape, out);
    if (st != LAT_OK || (*out)->size == 0)
        return st;
    /* Every element type's zero is all zero bits. */
    st = lat_memset_d8(ctx, (*out)->ptr, 0, lat_array_nbytes(*out));
    if (st != LAT_OK) {
        lat_array_destroy(*out);
        *out = NULL;
    }
    return st;
}

lat_status lat_array_full(lat_context *ctx, lat_dtype dtype, int ndim, const size_t *shape,
                          lat_scalar value, lat_array **out)
{
    LAT__API();
    lat_status st = lat__array_new(ctx, dtype, ndim, shape, out);
    if (st != LAT_OK)
        return st;
    st = lat_array_fill(*out, value);
    if (st != LAT_OK) {
        lat_array_destroy(*out);
        *out = NULL;
    }
    return st;
}

lat_status lat_array_empty_like(const lat_array *like, lat_array **out)
{
    LAT__API();
    if (!like) {
        if (out)
            *out = NULL;
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "like is NULL");
    }
    return lat__array_new(like->ctx, like->dtype, like->ndim, like->shape, out);
}

lat_status lat_array_zeros_like(const lat_array *like, lat_array **out)
{
    LAT__API();
    if (!like) {
        if (out)
            *out = NULL;
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "like is NULL");
    }
    return lat_array_zeros(like->ctx, like->dtype, like->ndim, like->shape, out);
}

lat_status lat_array_from_host(lat_context *ctx, lat_dtype dtype, int ndim, const size_t *shape,
                               const void *host, lat_array **out)
{
    LAT__API();
    lat_status st = lat__array_new(ctx, dtype, ndim, shape, out);
    if (st != LAT_OK)
        return st;
    if ((*out)->size == 0)
        return LAT_OK;
    if (!host)
        st = lat__error(ctx, LAT_ERROR_INVALID_VALUE, "host is NULL");
    else
        st = lat_memcpy_htod(ctx, (*out)->ptr, host, lat_array_nbytes(*out));
    if (st != LAT_OK) {
        lat_array_destroy(*out);
        *out = NULL;
    }
    return st;
}

lat_status lat_array_wrap(lat_context *ctx, lat_deviceptr ptr, lat_dtype dtype, int ndim,
                          const size_t *shape, lat_array **out)
{
    LAT__API();
    if (!out)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "out is NULL");
    *out = NULL;
    if (!ctx)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "ctx is NULL");
    size_t size;
    lat_status st = check_shape(ctx, dtype, ndim, shape, &size);
    if (st != LAT_OK)
        return st;
    size_t elem = lat_dtype_size(dtype);
    if (size > 0) {
        if (ptr == 0)
            return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "ptr is 0");
        if (ptr % elem != 0)
            return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                              "ptr 0x%llx is not aligned to the %zu bytes of a %s",
                              (unsigned long long)ptr, elem, lat_dtype_name(dtype));
        st = lat__alloc_check(ctx, ptr, size * elem, "ptr", NULL);
        if (st != LAT_OK)
            return st;
    }
    lat_array *a = alloc_header(ctx, dtype, ndim, shape, size);
    if (!a)
        return lat__oom(ctx);
    a->ptr = size > 0 ? ptr : 0;
    *out = a;
    return LAT_OK;
}

void lat_array_destroy(lat_array *a)
{
    LAT__API();
    if (!a)
        return;
    if (a->mem && atomic_fetch_sub(&a->mem->refs, 1) == 1) {
        (void)lat_mem_free(a->mem->ctx, a->mem->base);
        free(a->mem);
    }
    free(a);
}

static lat_status check_host_copy(const lat_array *a, const void *host, size_t bytes)
{
    if (!a)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "a is NULL");
    if (bytes != lat_array_nbytes(a)) {
        char shape[160];
        lat__shape_str(a->ndim, a->shape, shape, sizeof shape);
        return lat__error(a->ctx, LAT_ERROR_INVALID_VALUE,
                          "%zu bytes given; the %s array of shape %s holds %zu", bytes,
                          lat_dtype_name(a->dtype), shape, lat_array_nbytes(a));
    }
    if (!host && bytes > 0)
        return lat__error(a->ctx, LAT_ERROR_INVALID_VALUE, "host is NULL");
    return LAT_OK;
}

lat_status lat_array_set(lat_array *a, const void *host, size_t bytes)
{
    LAT__API();
    lat_status st = check_host_copy(a, host, bytes);
    if (st != LAT_OK || bytes == 0)
        return st;
    return lat_memcpy_htod(a->ctx, a->ptr, host, bytes);
}

lat_status lat_array_get(const lat_array *a, void *host, size_t bytes)
{
    LAT__API();
    lat_status st = check_host_copy(a, host, bytes);
    if (st != LAT_OK)
        return st;
    if (bytes == 0)
        /* Still the point where queued operations' failures surface. */
        return lat_context_synchronize(a->ctx);
    return lat_memcpy_dtoh(a->ctx, host, a->ptr, bytes);
}

lat_status lat_array_set_async(lat_array *a, const void *host, size_t bytes, lat_stream *stream)
{
    LAT__API();
    lat_status st = check_host_copy(a, host, bytes);
    if (st != LAT_OK || bytes == 0)
        return st;
    return lat_memcpy_htod_async(a->ctx, a->ptr, host, bytes, stream);
}

lat_status lat_array_get_async(const lat_array *a, void *host, size_t bytes, lat_stream *stream)
{
    LAT__API();
    lat_status st = check_host_copy(a, host, bytes);
    if (st != LAT_OK || bytes == 0)
        return st;
    return lat_memcpy_dtoh_async(a->ctx, host, a->ptr, bytes, stream);
}

lat_status lat_array_get_scalar(const lat_array *a, lat_scalar *value)
{
    LAT__API();
    if (!a || !value)
        return lat__error(a ? a->ctx : NULL, LAT_ERROR_INVALID_VALUE,
                          "%s is NULL", a ? "value" : "a");
    if (a->size != 1)
        return lat__error(a->ctx, LAT_ERROR_INVALID_VALUE,
                          "the array has %zu elements, not 1", a->size);
    unsigned char bytes[8];
    lat_status st = lat_memcpy_dtoh(a->ctx, bytes, a->ptr, lat_dtype_size(a->dtype));
    if (st != LAT_OK)
        return st;
    lat_scalar s;
    memset(&s, 0, sizeof s);
    s.dtype = a->dtype;
    switch (a->dtype) {
#define GET(T, ctype, field)                                                               \
    case T: {                                                                              \
        ctype v;                                                                           \
        memcpy(&v, bytes, sizeof v);                                                       \
        s.value.field = v;                                                                 \
        break;                                                                             \
    }
        GET(LAT_DTYPE_INT8, int8_t, i)
        GET(LAT_DTYPE_INT16, int16_t, i)
        GET(LAT_DTYPE_INT32, int32_t, i)
        GET(LAT_DTYPE_INT64, int64_t, i)
        GET(LAT_DTYPE_UINT8, uint8_t, u)
        GET(LAT_DTYPE_UINT16, uint16_t, u)
        GET(LAT_DTYPE_UINT32, uint32_t, u)
        GET(LAT_DTYPE_UINT64, uint64_t, u)
        GET(LAT_DTYPE_FLOAT32, float, f)
        GET(LAT_DTYPE_FLOAT64, double, f)
#undef GET
    default:
        break;
    }
    *value = s;
    return LAT_OK;
}

/* A view: a new header over (part of) a's memory, holding a reference to it. */
static lat_status make_view(const lat_array *a, int ndim, const size_t *shape, size_t size,
                            lat_deviceptr ptr, lat_array **out)
{
    lat_array *v = alloc_header(a->ctx, a->dtype, ndim, shape, size);
    if (!v)
        return lat__oom(a->ctx);
    v->ptr = size > 0 ? ptr : 0;
    if (a->mem) {
        v->mem = a->mem;
        atomic_fetch_add(&v->mem->refs, 1);
    }
    *out = v;
    return LAT_OK;
}

lat_status lat_array_slice(const lat_array *a, size_t start, size_t stop, lat_array **out)
{
    LAT__API();
    if (!out)
        return lat__error(a ? a->ctx : NULL, LAT_ERROR_INVALID_VALUE, "out is NULL");
    *out = NULL;
    if (!a)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "a is NULL");
    if (a->ndim == 0)
        return lat__error(a->ctx, LAT_ERROR_INVALID_VALUE, "a 0-d array cannot be sliced");
    if (stop > a->shape[0])
        stop = a->shape[0];
    if (start > stop)
        start = stop;
    size_t row = 1; /* elements per index of the first dimension */
    for (int d = 1; d < a->ndim; d++)
        row *= a->shape[d];
    size_t shape[LAT_ARRAY_MAX_DIMS];
    memcpy(shape, a->shape, sizeof shape);
    shape[0] = stop - start;
    size_t size = shape[0] * row;
    return make_view(a, a->ndim, shape, size,
                     a->ptr + (lat_deviceptr)(start * row * lat_dtype_size(a->dtype)), out);
}

lat_status lat_array_reshape(const lat_array *a, int ndim, const size_t *shape,
                             lat_array **out)
{
    LAT__API();
    if (!out)
        return lat__error(a ? a->ctx : NULL, LAT_ERROR_INVALID_VALUE, "out is NULL");
    *out = NULL;
    if (!a)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "a is NULL");
    size_t size;
    lat_status st = check_shape(a->ctx, a->dtype, ndim, shape, &size);
    if (st != LAT_OK)
        return st;
    if (size != a->size) {
        char from[160], to[160];
        lat__shape_str(a->ndim, a->shape, from, sizeof from);
        lat__shape_str(ndim, shape, to, sizeof to);
        return lat__error(a->ctx, LAT_ERROR_INVALID_VALUE,
                          "cannot view shape %s (%zu elements) as %s (%zu elements)",
                          from, a->size, to, size);
    }
    return make_view(a, ndim, shape, size, a->ptr, out);
}

bool lat__same_shape(const lat_array *a, const lat_array *b)
{
    if (a->ndim != b->ndim)
        return false;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d])
            return false;
    return true;
}

lat_context *lat_array_context(const lat_array *a) { return a ? a->ctx : NULL; }
lat_dtype lat_array_dtype(const lat_array *a) { return a ? a->dtype : LAT_DTYPE_DEFAULT; }
int lat_array_ndim(const lat_array *a) { return a ? a->ndim : 0; }
const size_t *lat_array_shape(const lat_array *a) { return a ? a->shape : NULL; }
size_t lat_array_size(const lat_array *a) { return a ? a->size : 0; }
lat_deviceptr lat_array_ptr(const lat_array *a) { return a ? a->ptr : 0; }

size_t lat_array_nbytes(const lat_array *a)
{
    LAT__API();
    return a ? a->size * lat_dtype_size(a->dtype) : 0;
}
