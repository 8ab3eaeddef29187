/*
 * The CUDA backend's arrays, texture objects and surface objects (core/texture.h): one
 * driver call each (cuArray3DCreate for every shape of array, cuMemcpy3D for every copy,
 * cuTexObjectCreate, cuSurfObjectCreate). The core has checked the descriptors.
 */
#include "cuda_internal.h"
#include "texture.h"

#include <stddef.h>
#include <string.h>

/* Our copies of cuda.h's structs (cuda_api.h) have its layouts (header_check.c compares
 * the real ones with the same numbers where the toolkit is installed). */
#include "texture_layouts.h"

#define ENTER(ctx)                                                                        \
    do {                                                                                  \
        lat_status st_ = lat__cuda_enter(ctx);                                            \
        if (st_ != LAT_OK)                                                                \
            return st_;                                                                   \
    } while (0)

static int cu_format(lat_format f)
{
    switch (f) {
    case LAT_FORMAT_U8: return CU_AD_FORMAT_UNSIGNED_INT8;
    case LAT_FORMAT_I8: return CU_AD_FORMAT_SIGNED_INT8;
    case LAT_FORMAT_U16: return CU_AD_FORMAT_UNSIGNED_INT16;
    case LAT_FORMAT_I16: return CU_AD_FORMAT_SIGNED_INT16;
    case LAT_FORMAT_U32: return CU_AD_FORMAT_UNSIGNED_INT32;
    case LAT_FORMAT_I32: return CU_AD_FORMAT_SIGNED_INT32;
    case LAT_FORMAT_F16: return CU_AD_FORMAT_HALF;
    case LAT_FORMAT_DEFAULT:
    case LAT_FORMAT_F32:
    default: return CU_AD_FORMAT_FLOAT;
    }
}

static int cu_address(lat_address_mode m)
{
    switch (m) {
    case LAT_ADDRESS_WRAP: return CU_TR_ADDRESS_MODE_WRAP;
    case LAT_ADDRESS_MIRROR: return CU_TR_ADDRESS_MODE_MIRROR;
    case LAT_ADDRESS_BORDER: return CU_TR_ADDRESS_MODE_BORDER;
    case LAT_ADDRESS_CLAMP:
    default: return CU_TR_ADDRESS_MODE_CLAMP;
    }
}

/* ---- arrays -------------------------------------------------------------------------------- */

static lat_status array_create(lat_tex_array *a)
{
    ENTER(a->ctx);
    const lat_tex_array_desc *d = &a->desc;
    CUDA_ARRAY3D_DESCRIPTOR ad;
    memset(&ad, 0, sizeof ad);
    ad.Width = d->width;
    ad.Height = d->height;
    /* A layered array's layers go where a 3-D array's depth would. */
    ad.Depth = d->layers ? d->layers : d->depth;
    ad.Format = cu_format(d->format);
    ad.NumChannels = (unsigned)d->channels;
    ad.Flags = (d->layers ? CUDA_ARRAY3D_LAYERED : 0u) | (d->surface ? CUDA_ARRAY3D_SURFACE_LDST : 0u);
    CUarray arr = NULL;
    CUresult r = lat__cu.cuArray3DCreate(&arr, &ad);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(a->ctx, r, "cuArray3DCreate(%zu x %zu x %zu, %s x %d%s%s)", ad.Width,
                              ad.Height, ad.Depth, lat_format_name(d->format), d->channels,
                              d->layers ? ", layered" : "", d->surface ? ", surface" : "");
    a->impl = arr;
    return LAT_OK;
}

static void array_destroy(lat_tex_array *a)
{
    if (lat__cuda_make_current(a->ctx) == LAT_OK)
        (void)lat__cu.cuArrayDestroy((CUarray)a->impl);
    a->impl = NULL;
}

static lat_status array_copy(lat_tex_array *a, void *host, size_t pitch, bool to_host)
{
    ENTER(a->ctx);
    const lat_tex_array_desc *d = &a->desc;
    CUDA_MEMCPY3D m;
    memset(&m, 0, sizeof m);
    size_t height = d->height ? d->height : 1;
    if (to_host) {
        m.srcMemoryType = CU_MEMORYTYPE_ARRAY;
        m.srcArray = (CUarray)a->impl;
        m.dstMemoryType = CU_MEMORYTYPE_HOST;
        m.dstHost = host;
        m.dstPitch = pitch;
        m.dstHeight = height;
    } else {
        m.srcMemoryType = CU_MEMORYTYPE_HOST;
        m.srcHost = host;
        m.srcPitch = pitch;
        m.srcHeight = height;
        m.dstMemoryType = CU_MEMORYTYPE_ARRAY;
        m.dstArray = (CUarray)a->impl;
    }
    m.WidthInBytes = a->row;
    m.Height = height;
    m.Depth = d->layers ? d->layers : d->depth ? d->depth : 1;
    CUresult r = lat__cu.cuMemcpy3D(&m);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(a->ctx, r, "cuMemcpy3D(%s an array of %zu x %zu x %zu texels)",
                              to_host ? "from" : "to", d->width, height, m.Depth);
    return LAT_OK;
}

/* ---- textures and surfaces ------------------------------------------------------------------ */

static lat_status texture_create(lat_texture *t)
{
    ENTER(t->ctx);
    const lat_texture_desc *d = &t->desc;
    CUDA_RESOURCE_DESC res;
    memset(&res, 0, sizeof res);
    switch (t->kind) {
    case LAT__TEX_ARRAY:
        res.resType = CU_RESOURCE_TYPE_ARRAY;
        res.res.array.hArray = (CUarray)d->array->impl;
        break;
    case LAT__TEX_LINEAR:
        res.resType = CU_RESOURCE_TYPE_LINEAR;
        res.res.linear.devPtr = d->linear.ptr;
        res.res.linear.format = cu_format(t->format);
        res.res.linear.numChannels = (unsigned)t->channels;
        res.res.linear.sizeInBytes = d->linear.bytes;
        break;
    case LAT__TEX_PITCH2D:
        res.resType = CU_RESOURCE_TYPE_PITCH2D;
        res.res.pitch2D.devPtr = d->pitch2d.ptr;
        res.res.pitch2D.format = cu_format(t->format);
        res.res.pitch2D.numChannels = (unsigned)t->channels;
        res.res.pitch2D.width = d->pitch2d.width;
        res.res.pitch2D.height = d->pitch2d.height;
        res.res.pitch2D.pitchInBytes = d->pitch2d.pitch;
        break;
    }
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    for (int i = 0; i < 3; i++)
        td.addressMode[i] = cu_address(d->address_mode[i]);
    td.filterMode = d->filter == LAT_FILTER_LINEAR ? CU_TR_FILTER_MODE_LINEAR : CU_TR_FILTER_MODE_POINT;
    /* The driver API reads integer texels as normalised floats unless told otherwise:
     * lattice's element-type reads of integer texels are CU_TRSF_READ_AS_INTEGER (the
     * runtime API's cudaReadModeElementType); float and half texels read as floats. */
    bool integer = t->format != LAT_FORMAT_F32 && t->format != LAT_FORMAT_F16;
    td.flags = (integer && d->read_mode == LAT_READ_ELEMENT_TYPE ? CU_TRSF_READ_AS_INTEGER : 0u) |
               (d->normalized_coords ? CU_TRSF_NORMALIZED_COORDINATES : 0u);
    memcpy(td.borderColor, d->border_color, sizeof td.borderColor);
    CUtexObject h = 0;
    CUresult r = lat__cu.cuTexObjectCreate(&h, &res, &td, NULL);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(t->ctx, r, "cuTexObjectCreate(%s texture of %s x %d)",
                              t->kind == LAT__TEX_ARRAY    ? "an array"
                              : t->kind == LAT__TEX_LINEAR ? "a linear"
                                                           : "a pitched 2-D",
                              lat_format_name(t->format), t->channels);
    t->handle = h;
    return LAT_OK;
}

static void texture_destroy(lat_texture *t)
{
    if (lat__cuda_make_current(t->ctx) == LAT_OK)
        (void)lat__cu.cuTexObjectDestroy(t->handle);
}

static lat_status surface_create(lat_surface *s)
{
    ENTER(s->ctx);
    CUDA_RESOURCE_DESC res;
    memset(&res, 0, sizeof res);
    res.resType = CU_RESOURCE_TYPE_ARRAY;
    res.res.array.hArray = (CUarray)s->array->impl;
    CUsurfObject h = 0;
    CUresult r = lat__cu.cuSurfObjectCreate(&h, &res);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(s->ctx, r, "cuSurfObjectCreate");
    s->handle = h;
    return LAT_OK;
}

static void surface_destroy(lat_surface *s)
{
    if (lat__cuda_make_current(s->ctx) == LAT_OK)
        (void)lat__cu.cuSurfObjectDestroy(s->handle);
}

const lat__texture_ops lat__cuda_texture_ops = {
    .array_create = array_create,
    .array_destroy = array_destroy,
    .array_copy = array_copy,
    .texture_create = texture_create,
    .texture_destroy = texture_destroy,
    .surface_create = surface_create,
    .surface_destroy = surface_destroy,
    .texture_orphaned = NULL, /* the GPU reads whatever is there, as CUDA does */
};
