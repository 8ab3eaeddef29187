/*
 * CUDA arrays, texture objects and surface objects (lattice/texture.h): every descriptor
 * checked here, once for every backend, against the device's limits (its attributes,
 * queried by name as lat_device_attribute does); the backends (texture.h's ops) then
 * trust what they get.
 */
#include "texture.h"
#include "core/alloc.h"

#include "driver_ops.h"
#include "memory.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const lat__texture_ops *ops(const lat_context *ctx)
{
    return ctx->backend->texture;
}

/* ---- formats ------------------------------------------------------------------------------ */

static const struct {
    const char *name;
    size_t size;
} formats[] = {
    [LAT_FORMAT_DEFAULT] = {"f32", 4}, [LAT_FORMAT_U8] = {"u8", 1},   [LAT_FORMAT_I8] = {"i8", 1},
    [LAT_FORMAT_U16] = {"u16", 2},     [LAT_FORMAT_I16] = {"i16", 2}, [LAT_FORMAT_U32] = {"u32", 4},
    [LAT_FORMAT_I32] = {"i32", 4},     [LAT_FORMAT_F16] = {"f16", 2}, [LAT_FORMAT_F32] = {"f32", 4},
};

static bool format_known(lat_format f)
{
    return (unsigned)f < sizeof formats / sizeof formats[0];
}

const char *lat_format_name(lat_format format)
{
    LAT__API();
    return format_known(format) ? formats[format].name : "unknown";
}

size_t lat_format_size(lat_format format)
{
    LAT__API();
    return format_known(format) ? formats[format].size : 0;
}

size_t lat__texel_size(lat_format f, int channels)
{
    return lat_format_size(f) * (size_t)channels;
}

/* Checks and normalises a format and channel count; `what` names the fields. */
static lat_status check_format(lat_context *ctx, const char *what, lat_format *f,
                               int *channels)
{
    if (!format_known(*f))
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "%sformat is %d, not a lat_format (LAT_FORMAT_U8 ... LAT_FORMAT_F32)",
                          what, (int)*f);
    if (*f == LAT_FORMAT_DEFAULT)
        *f = LAT_FORMAT_F32;
    if (*channels == 0)
        *channels = 1;
    if (*channels != 1 && *channels != 2 && *channels != 4)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "%schannels is %d; a texel has 1, 2 or 4 channels", what,
                          *channels);
    return LAT_OK;
}

/* ---- the context's objects ----------------------------------------------------------------- */

static lat__tex_ctx *tex_of(lat_context *ctx, bool create)
{
    pthread_mutex_lock(&ctx->lock);
    lat__tex_ctx *t = ctx->tex;
    if (!t && create) {
        t = lat__calloc(1, sizeof *t);
        if (t && pthread_mutex_init(&t->lock, NULL) != 0) {
            free(t);
            t = NULL;
        }
        ctx->tex = t;
    }
    pthread_mutex_unlock(&ctx->lock);
    return t;
}

#define LIST_ADD(head, obj)                                                             \
    do {                                                                                \
        (obj)->prev = NULL;                                                             \
        (obj)->next = (head);                                                           \
        if (head)                                                                       \
            (head)->prev = (obj);                                                       \
        (head) = (obj);                                                                 \
    } while (0)
#define LIST_REMOVE(head, obj)                                                          \
    do {                                                                                \
        if ((obj)->prev)                                                                \
            (obj)->prev->next = (obj)->next;                                            \
        else                                                                            \
            (head) = (obj)->next;                                                       \
        if ((obj)->next)                                                                \
            (obj)->next->prev = (obj)->prev;                                            \
    } while (0)

/* Drops one reference to an array (the caller holds the lock); frees it at the last. */
static void array_unref(lat__tex_ctx *tc, lat_tex_array *a)
{
    if (--a->refs > 0)
        return;
    LIST_REMOVE(tc->arrays, a);
    ops(a->ctx)->array_destroy(a);
    free(a);
}

/* ---- device limits ------------------------------------------------------------------------- */

/* The device's attribute `name`, or `fallback` where the backend cannot tell. */
static long attr(lat_context *ctx, const char *name, long fallback)
{
    int v = 0;
    if (lat__drv(ctx)->device_attribute(ctx->device, name, &v) != LAT_OK || v <= 0)
        return fallback;
    return v;
}

static lat_status check_limit(lat_context *ctx, const char *field, size_t value,
                              const char *attribute, const char *what)
{
    long limit = attr(ctx, attribute, 0);
    if (limit > 0 && value > (size_t)limit)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "%s is %zu, beyond the device's limit of %ld for %s (%s)",
                          field, value, limit, what, attribute);
    return LAT_OK;
}

/* ---- arrays ---------------------------------------------------------------------------------- */

static lat_status array_limits(lat_context *ctx, const lat_tex_array_desc *d)
{
    const char *s = d->surface ? "SURFACE" : "TEXTURE";
    char a[64];
    lat_status st = LAT_OK;
#define LIMIT(field, value, suffix, what)                                                 \
    do {                                                                                  \
        if (st == LAT_OK) {                                                               \
            snprintf(a, sizeof a, "MAXIMUM_%s%s", s, suffix);                             \
            st = check_limit(ctx, field, value, a, what);                             \
        }                                                                                 \
    } while (0)
    if (d->layers && d->height) {
        LIMIT("desc->width", d->width, "2D_LAYERED_WIDTH", "2-D layered arrays");
        LIMIT("desc->height", d->height, "2D_LAYERED_HEIGHT", "2-D layered arrays");
        LIMIT("desc->layers", d->layers, "2D_LAYERED_LAYERS", "2-D layered arrays");
    } else if (d->layers) {
        LIMIT("desc->width", d->width, "1D_LAYERED_WIDTH", "1-D layered arrays");
        LIMIT("desc->layers", d->layers, "1D_LAYERED_LAYERS", "1-D layered arrays");
    } else if (d->depth) {
        LIMIT("desc->width", d->width, "3D_WIDTH", "3-D arrays");
        LIMIT("desc->height", d->height, "3D_HEIGHT", "3-D arrays");
        LIMIT("desc->depth", d->depth, "3D_DEPTH", "3-D arrays");
    } else if (d->height) {
        LIMIT("desc->width", d->width, "2D_WIDTH", "2-D arrays");
        LIMIT("desc->height", d->height, "2D_HEIGHT", "2-D arrays");
    } else {
        LIMIT("desc->width", d->width, "1D_WIDTH", "1-D arrays");
    }
#undef LIMIT
    return st;
}

lat_status lat_tex_array_create(lat_context *ctx, const lat_tex_array_desc *desc,
                                lat_tex_array **out)
{
    LAT__API();
    if (!ctx || !desc || !out)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s is NULL",
                          !ctx ? "ctx" : !desc ? "desc" : "out");
    *out = NULL;
    lat_tex_array_desc d = *desc;
    d.surface = d.surface != 0;
    if (d.width == 0)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "desc->width is 0");
    lat_status st = check_format(ctx, "desc->", &d.format, &d.channels);
    if (st != LAT_OK)
        return st;
    if (d.depth && d.layers)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "desc sets both depth (%zu) and layers (%zu); a layered array "
                          "has 1-D or 2-D layers, not 3-D ones", d.depth, d.layers);
    if (d.depth && !d.height)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "desc->depth is %zu but desc->height is 0; a 3-D array needs a "
                          "height", d.depth);
    st = array_limits(ctx, &d);
    if (st != LAT_OK)
        return st;
    size_t elem = lat__texel_size(d.format, d.channels);
    size_t h = d.height ? d.height : 1, z = d.depth ? d.depth : 1, l = d.layers ? d.layers : 1;
    if (d.width > SIZE_MAX / elem || h > SIZE_MAX / z || h * z > SIZE_MAX / l ||
        d.width * elem > SIZE_MAX / (h * z * l))
        return lat__error(ctx, LAT_ERROR_OVERFLOW,
                          "%zu x %zu x %zu x %zu texels of %zu bytes overflow a size_t",
                          d.width, h, z, l, elem);
    lat__tex_ctx *tc = tex_of(ctx, true);
    lat_tex_array *a = tc ? lat__calloc(1, sizeof *a) : NULL;
    if (!a)
        return lat__oom(ctx);
    a->ctx = ctx;
    a->desc = d;
    a->elem = elem;
    a->row = d.width * elem;
    a->rows = h * z * l;
    a->dims = d.depth ? 3 : d.height ? 2 : 1;
    a->refs = 1;
    st = ops(ctx)->array_create(a);
    if (st != LAT_OK) {
        free(a);
        return st;
    }
    pthread_mutex_lock(&tc->lock);
    LIST_ADD(tc->arrays, a);
    pthread_mutex_unlock(&tc->lock);
    *out = a;
    return LAT_OK;
}

void lat_tex_array_destroy(lat_tex_array *arr)
{
    LAT__API();
    if (!arr)
        return;
    lat__tex_ctx *tc = arr->ctx->tex;
    pthread_mutex_lock(&tc->lock);
    if (!arr->destroyed) {
        arr->destroyed = true;
        array_unref(tc, arr);
    }
    pthread_mutex_unlock(&tc->lock);
}

lat_status lat_tex_array_get_desc(const lat_tex_array *arr, lat_tex_array_desc *out)
{
    LAT__API();
    if (!arr || !out)
        return lat__error(arr ? arr->ctx : NULL, LAT_ERROR_INVALID_VALUE,
                          "%s is NULL", arr ? "out" : "arr");
    *out = arr->desc;
    return LAT_OK;
}

static lat_status array_copy(lat_tex_array *arr, void *host, size_t pitch, bool to_host)
{
    if (!arr || !host)
        return lat__error(arr ? arr->ctx : NULL, LAT_ERROR_INVALID_VALUE, "%s is NULL",
                          arr ? (to_host ? "dst" : "src") : "arr");
    lat_context *ctx = arr->ctx;
    if (arr->destroyed)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "the array was destroyed");
    if (pitch == 0)
        pitch = arr->row;
    if (pitch < arr->row)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "pitch %zu is smaller than a row of the array (%zu texels of "
                          "%zu bytes: %zu bytes)", pitch, arr->desc.width, arr->elem, arr->row);
    if (arr->rows > 1 && pitch > (SIZE_MAX - arr->row) / (arr->rows - 1))
        return lat__error(ctx, LAT_ERROR_OVERFLOW, "%zu rows %zu bytes apart overflow", arr->rows, pitch);
    return ops(ctx)->array_copy(arr, host, pitch, to_host);
}

lat_status lat_tex_array_copy_from_host(lat_tex_array *arr, const void *src, size_t pitch)
{
    LAT__API();
    return array_copy(arr, (void *)(uintptr_t)src, pitch, false);
}

lat_status lat_tex_array_copy_to_host(lat_tex_array *arr, void *dst, size_t pitch)
{
    LAT__API();
    return array_copy(arr, dst, pitch, true);
}

/* ---- textures ------------------------------------------------------------------------------- */

static const char *const address_names[] = {"LAT_ADDRESS_CLAMP", "LAT_ADDRESS_WRAP",
                                            "LAT_ADDRESS_MIRROR", "LAT_ADDRESS_BORDER"};

/* Alignment of device memory under a texture. */
static lat_status check_aligned(lat_context *ctx, const char *field,
                                lat_deviceptr p)
{
    long align = attr(ctx, "TEXTURE_ALIGNMENT", 512);
    if (p % (lat_deviceptr)align != 0)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "%s 0x%" PRIx64 " is not aligned to the device's texture alignment "
                          "of %ld bytes (TEXTURE_ALIGNMENT; lat_mem_alloc's addresses are)",
                          field, p, align);
    return LAT_OK;
}

/* The resource: kind, format, dimensions, memory. */
static lat_status texture_resource(lat_context *ctx, lat_texture *t, int *dims)
{
    lat_texture_desc *d = &t->desc;
    int n = (d->array != NULL) + (d->linear.ptr != 0) + (d->pitch2d.ptr != 0);
    if (n == 0)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "desc names no texels: set one of desc->array, desc->linear.ptr "
                          "and desc->pitch2d.ptr");
    if (n > 1)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "desc sets %s and %s; a texture reads exactly one of them",
                          d->array ? "desc->array" : "desc->linear.ptr",
                          d->pitch2d.ptr ? "desc->pitch2d.ptr" : "desc->linear.ptr");
    lat_status st;
    if (d->array) {
        lat_tex_array *a = d->array;
        if (a->ctx != ctx)
            return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                              "desc->array belongs to another context");
        if (a->destroyed)
            return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "desc->array was destroyed");
        t->kind = LAT__TEX_ARRAY;
        t->format = a->desc.format;
        t->channels = a->desc.channels;
        *dims = a->dims;
    } else if (d->linear.ptr) {
        st = check_format(ctx, "desc->linear.", &d->linear.format, &d->linear.channels);
        if (st != LAT_OK)
            return st;
        t->kind = LAT__TEX_LINEAR;
        t->format = d->linear.format;
        t->channels = d->linear.channels;
        size_t elem = lat__texel_size(t->format, t->channels);
        if (d->linear.bytes == 0 || d->linear.bytes % elem != 0)
            return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                              "desc->linear.bytes is %zu, not a whole number (at least 1) of "
                              "%zu-byte texels (%d x %s)",
                              d->linear.bytes, elem, t->channels, lat_format_name(t->format));
        if ((st = check_aligned(ctx, "desc->linear.ptr", d->linear.ptr)) != LAT_OK ||
            (st = check_limit(ctx, "the texel count", d->linear.bytes / elem,
                              "MAXIMUM_TEXTURE1D_LINEAR_WIDTH", "linear textures")) != LAT_OK)
            return st;
        lat__alloc al;
        st = lat__alloc_check(ctx, d->linear.ptr, d->linear.bytes,
                              "desc->linear", &al);
        if (st != LAT_OK)
            return st;
        t->alloc_base = al.base;
        if (d->filter != LAT_FILTER_POINT || d->normalized_coords)
            return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                              "a texture over linear memory is read with tex1Dfetch, by "
                              "integer index: desc->%s must be 0", d->filter != LAT_FILTER_POINT ? "filter" : "normalized_coords");
        *dims = 1;
    } else {
        st = check_format(ctx, "desc->pitch2d.", &d->pitch2d.format, &d->pitch2d.channels);
        if (st != LAT_OK)
            return st;
        t->kind = LAT__TEX_PITCH2D;
        t->format = d->pitch2d.format;
        t->channels = d->pitch2d.channels;
        size_t elem = lat__texel_size(t->format, t->channels);
        if (d->pitch2d.width == 0 || d->pitch2d.height == 0)
            return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "desc->pitch2d.%s is 0",
                              d->pitch2d.width == 0 ? "width" : "height");
        if (d->pitch2d.width > SIZE_MAX / elem)
            return lat__error(ctx, LAT_ERROR_OVERFLOW, "desc->pitch2d.width overflows");
        size_t row = d->pitch2d.width * elem;
        if (d->pitch2d.pitch < row)
            return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                              "desc->pitch2d.pitch is %zu, smaller than a row of %zu texels "
                              "of %zu bytes (%zu bytes)",
                              d->pitch2d.pitch, d->pitch2d.width, elem, row);
        long palign = attr(ctx, "TEXTURE_PITCH_ALIGNMENT", 32);
        if (d->pitch2d.pitch % (size_t)palign != 0)
            return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                              "desc->pitch2d.pitch is %zu, not a multiple of the device's "
                              "TEXTURE_PITCH_ALIGNMENT (%ld bytes; lat_mem_alloc_pitch's pitches "
                              "are)", d->pitch2d.pitch, palign);
        if ((st = check_aligned(ctx, "desc->pitch2d.ptr", d->pitch2d.ptr)) != LAT_OK ||
            (st = check_limit(ctx, "desc->pitch2d.width", d->pitch2d.width,
                              "MAXIMUM_TEXTURE2D_LINEAR_WIDTH", "pitched 2-D textures")) != LAT_OK ||
            (st = check_limit(ctx, "desc->pitch2d.height", d->pitch2d.height,
                              "MAXIMUM_TEXTURE2D_LINEAR_HEIGHT", "pitched 2-D textures")) != LAT_OK ||
            (st = check_limit(ctx, "desc->pitch2d.pitch", d->pitch2d.pitch,
                              "MAXIMUM_TEXTURE2D_LINEAR_PITCH", "pitched 2-D textures")) != LAT_OK)
            return st;
        if (d->pitch2d.height - 1 > (SIZE_MAX - row) / d->pitch2d.pitch)
            return lat__error(ctx, LAT_ERROR_OVERFLOW, "desc->pitch2d's rows overflow");
        lat__alloc al;
        st = lat__alloc_check(ctx, d->pitch2d.ptr, d->pitch2d.pitch * (d->pitch2d.height - 1) + row,
                              "desc->pitch2d", &al);
        if (st != LAT_OK)
            return st;
        t->alloc_base = al.base;
        *dims = 2;
    }
    t->elem = lat__texel_size(t->format, t->channels);
    return LAT_OK;
}

lat_status lat_texture_create(lat_context *ctx, const lat_texture_desc *desc, lat_texture **out)
{
    LAT__API();
    if (!ctx || !desc || !out)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s is NULL",
                          !ctx ? "ctx" : !desc ? "desc" : "out");
    *out = NULL;
    lat_texture tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.ctx = ctx;
    tmp.desc = *desc;
    lat_texture_desc *d = &tmp.desc;
    tmp.desc.normalized_coords = d->normalized_coords != 0;
    if ((unsigned)d->filter > LAT_FILTER_LINEAR)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "desc->filter is %d, not LAT_FILTER_POINT or LAT_FILTER_LINEAR",
                          (int)d->filter);
    if ((unsigned)d->read_mode > LAT_READ_NORMALIZED_FLOAT)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "desc->read_mode is %d, not LAT_READ_ELEMENT_TYPE or "
                          "LAT_READ_NORMALIZED_FLOAT", (int)d->read_mode);
    int dims = 0;
    lat__tex_ctx *tc = tex_of(ctx, true);
    if (!tc)
        return lat__oom(ctx);
    /* The array must not be destroyed between the check and the reference. */
    pthread_mutex_lock(&tc->lock);
    lat_status st = texture_resource(ctx, &tmp, &dims);
    if (st == LAT_OK && d->array)
        d->array->refs++;
    pthread_mutex_unlock(&tc->lock);
    if (st != LAT_OK)
        return st;
    for (int i = 0; i < 3 && st == LAT_OK; i++) {
        lat_address_mode m = d->address_mode[i];
        if ((unsigned)m > LAT_ADDRESS_BORDER)
            st = lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                            "desc->address_mode[%d] is %d, not a lat_address_mode", i,
                            (int)m);
        else if (i < dims && (m == LAT_ADDRESS_WRAP || m == LAT_ADDRESS_MIRROR) &&
                 !d->normalized_coords)
            st = lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                            "desc->address_mode[%d] is %s, which CUDA applies to normalised "
                            "coordinates only: set desc->normalized_coords", i, address_names[m]);
    }
    bool small_int = tmp.format == LAT_FORMAT_U8 || tmp.format == LAT_FORMAT_I8 ||
                     tmp.format == LAT_FORMAT_U16 || tmp.format == LAT_FORMAT_I16;
    bool float_texels = tmp.format == LAT_FORMAT_F32 || tmp.format == LAT_FORMAT_F16;
    if (st == LAT_OK && d->read_mode == LAT_READ_NORMALIZED_FLOAT && !small_int)
        st = lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                        "desc->read_mode is LAT_READ_NORMALIZED_FLOAT, which reads 8- and "
                        "16-bit integer texels only, not %s", lat_format_name(tmp.format));
    if (st == LAT_OK && d->filter == LAT_FILTER_LINEAR && !float_texels &&
        d->read_mode != LAT_READ_NORMALIZED_FLOAT)
        st = lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                        "desc->filter is LAT_FILTER_LINEAR, which filters float reads only: "
                        "%s texels read as LAT_READ_ELEMENT_TYPE are integers%s", lat_format_name(tmp.format),
                        small_int ? " (read them as LAT_READ_NORMALIZED_FLOAT)" : "");
    lat_texture *t = NULL;
    if (st == LAT_OK) {
        t = lat__malloc(sizeof *t);
        if (!t)
            st = lat__oom(ctx);
    }
    if (st == LAT_OK) {
        *t = tmp;
        st = ops(ctx)->texture_create(t);
    }
    pthread_mutex_lock(&tc->lock);
    if (st == LAT_OK)
        LIST_ADD(tc->textures, t);
    else if (d->array)
        array_unref(tc, d->array);
    pthread_mutex_unlock(&tc->lock);
    if (st != LAT_OK) {
        free(t);
        return st;
    }
    *out = t;
    return LAT_OK;
}

void lat_texture_destroy(lat_texture *tex)
{
    LAT__API();
    if (!tex)
        return;
    lat__tex_ctx *tc = tex->ctx->tex;
    pthread_mutex_lock(&tc->lock);
    LIST_REMOVE(tc->textures, tex);
    ops(tex->ctx)->texture_destroy(tex);
    if (tex->kind == LAT__TEX_ARRAY)
        array_unref(tc, tex->desc.array);
    pthread_mutex_unlock(&tc->lock);
    free(tex);
}

uint64_t lat_texture_handle(const lat_texture *tex)
{
    LAT__API();
    return tex ? tex->handle : 0;
}

/* ---- surfaces ------------------------------------------------------------------------------- */

lat_status lat_surface_create(lat_context *ctx, lat_tex_array *arr, lat_surface **out)
{
    LAT__API();
    if (!ctx || !arr || !out)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s is NULL",
                          !ctx ? "ctx" : !arr ? "arr" : "out");
    *out = NULL;
    if (arr->ctx != ctx)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "arr belongs to another context");
    if (!arr->desc.surface)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "arr was created without lat_tex_array_desc.surface; only such "
                          "arrays can be read and written as surfaces");
    lat__tex_ctx *tc = ctx->tex;
    lat_surface *s = lat__calloc(1, sizeof *s);
    if (!s)
        return lat__oom(ctx);
    pthread_mutex_lock(&tc->lock);
    bool dead = arr->destroyed;
    if (!dead)
        arr->refs++;
    pthread_mutex_unlock(&tc->lock);
    if (dead) {
        free(s);
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "arr was destroyed");
    }
    s->ctx = ctx;
    s->array = arr;
    lat_status st = ops(ctx)->surface_create(s);
    pthread_mutex_lock(&tc->lock);
    if (st == LAT_OK)
        LIST_ADD(tc->surfaces, s);
    else
        array_unref(tc, arr);
    pthread_mutex_unlock(&tc->lock);
    if (st != LAT_OK) {
        free(s);
        return st;
    }
    *out = s;
    return LAT_OK;
}

void lat_surface_destroy(lat_surface *surf)
{
    LAT__API();
    if (!surf)
        return;
    lat__tex_ctx *tc = surf->ctx->tex;
    pthread_mutex_lock(&tc->lock);
    LIST_REMOVE(tc->surfaces, surf);
    ops(surf->ctx)->surface_destroy(surf);
    array_unref(tc, surf->array);
    pthread_mutex_unlock(&tc->lock);
    free(surf);
}

uint64_t lat_surface_handle(const lat_surface *surf)
{
    LAT__API();
    return surf ? surf->handle : 0;
}

/* ---- the context's end, freed memory ---------------------------------------------------------- */

void lat__texture_context_release(lat_context *ctx)
{
    lat__tex_ctx *tc = ctx->tex;
    if (!tc)
        return;
    size_t nt = 0, ns = 0, na = 0;
    while (tc->textures) {
        lat_texture_destroy(tc->textures);
        nt++;
    }
    while (tc->surfaces) {
        lat_surface_destroy(tc->surfaces);
        ns++;
    }
    pthread_mutex_lock(&tc->lock);
    while (tc->arrays) {
        lat_tex_array *a = tc->arrays;
        /* Nothing else holds it now: the user's reference is the only one left. */
        a->refs = 1;
        a->destroyed = true;
        array_unref(tc, a);
        na++;
    }
    pthread_mutex_unlock(&tc->lock);
    if (nt || ns || na)
        lat__log(ctx, LAT_LOG_INFO,
                 "lat_context_destroy: also destroyed %zu texture%s, %zu surface%s and %zu "
                 "array%s still live",
                 nt, nt == 1 ? "" : "s", ns, ns == 1 ? "" : "s", na, na == 1 ? "" : "s");
    pthread_mutex_destroy(&tc->lock);
    free(tc);
    ctx->tex = NULL;
}

void lat__texture_memory_freed(lat_context *ctx, lat_deviceptr base)
{
    lat__tex_ctx *tc = tex_of(ctx, false);
    const lat__texture_ops *o = ops(ctx);
    if (!tc || !o->texture_orphaned)
        return;
    pthread_mutex_lock(&tc->lock);
    for (lat_texture *t = tc->textures; t; t = t->next)
        if (t->kind != LAT__TEX_ARRAY && t->alloc_base == base)
            o->texture_orphaned(t);
    pthread_mutex_unlock(&tc->lock);
}
