/*
 * Copies and allocations of the driver layer: asynchronous copies and memsets, pitched
 * allocations and 2-D copies, stream-ordered allocation, and copies between contexts.
 * Each checks its device ranges against the context's live allocations (memory.c), as the
 * synchronous copies do, before the backend sees it.
 */
#include "driver_ops.h"
#include "memory.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* ---- asynchronous copies and memsets --------------------------------------------------- */

static lat_status copy_args(lat_context *ctx, bool null_dst, bool null_src,
                            lat_stream *s)
{
    if (!ctx)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "ctx is NULL");
    if (null_dst || null_src)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "the %s is NULL or 0",
                          null_dst ? "destination" : "source");
    return lat__stream_check(ctx, s);
}

lat_status lat_memcpy_htod_async(lat_context *ctx, lat_deviceptr dst, const void *src,
                                 size_t bytes, lat_stream *s)
{
    LAT__API();
    lat_status st = copy_args(ctx, dst == 0, src == NULL, s);
    if (st != LAT_OK || bytes == 0)
        return st;
    st = lat__alloc_check(ctx, dst, bytes, "the destination", NULL);
    if (st != LAT_OK)
        return st;
    return lat__drv(ctx)->memcpy_htod_async(ctx, dst, src, bytes, s);
}

lat_status lat_memcpy_dtoh_async(lat_context *ctx, void *dst, lat_deviceptr src, size_t bytes,
                                 lat_stream *s)
{
    LAT__API();
    lat_status st = copy_args(ctx, dst == NULL, src == 0, s);
    if (st != LAT_OK || bytes == 0)
        return st;
    st = lat__alloc_check(ctx, src, bytes, "the source", NULL);
    if (st != LAT_OK)
        return st;
    return lat__drv(ctx)->memcpy_dtoh_async(ctx, dst, src, bytes, s);
}

lat_status lat_memcpy_dtod_async(lat_context *ctx, lat_deviceptr dst, lat_deviceptr src,
                                 size_t bytes, lat_stream *s)
{
    LAT__API();
    lat_status st = copy_args(ctx, dst == 0, src == 0, s);
    if (st != LAT_OK || bytes == 0)
        return st;
    st = lat__alloc_check(ctx, dst, bytes, "the destination", NULL);
    if (st == LAT_OK)
        st = lat__alloc_check(ctx, src, bytes, "the source", NULL);
    if (st != LAT_OK)
        return st;
    return lat__drv(ctx)->memcpy_dtod_async(ctx, dst, src, bytes, s);
}

static lat_status memset_async(lat_context *ctx, lat_deviceptr dst,
                               uint32_t value, size_t elem, size_t count, lat_stream *s)
{
    lat_status st = copy_args(ctx, dst == 0, false, s);
    if (st != LAT_OK)
        return st;
    st = lat__memset_check(ctx, dst, elem, count);
    if (st != LAT_OK || count == 0)
        return st;
    return lat__drv(ctx)->memset_async(ctx, dst, value, elem, count, s);
}

lat_status lat_memset_d8_async(lat_context *ctx, lat_deviceptr dst, uint8_t value, size_t count,
                               lat_stream *s)
{
    LAT__API();
    return memset_async(ctx, dst, value, 1, count, s);
}

lat_status lat_memset_d16_async(lat_context *ctx, lat_deviceptr dst, uint16_t value,
                                size_t count, lat_stream *s)
{
    LAT__API();
    return memset_async(ctx, dst, value, 2, count, s);
}

lat_status lat_memset_d32_async(lat_context *ctx, lat_deviceptr dst, uint32_t value,
                                size_t count, lat_stream *s)
{
    LAT__API();
    return memset_async(ctx, dst, value, 4, count, s);
}

/* ---- stream-ordered allocation ----------------------------------------------------------- */

lat_status lat_mem_alloc_async(lat_context *ctx, size_t bytes, lat_stream *s, lat_deviceptr *out)
{
    LAT__API();
    if (!ctx || !out)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s is NULL", ctx ? "out" : "ctx");
    *out = 0;
    if (bytes == 0)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "size is 0 bytes");
    lat_status st = lat__stream_check(ctx, s);
    if (st != LAT_OK)
        return st;
    lat_deviceptr p = 0;
    st = lat__drv(ctx)->mem_alloc_async(ctx, bytes, s, &p);
    if (st != LAT_OK)
        return st;
    st = lat__mem_track(ctx, p, bytes);
    if (st != LAT_OK) {
        (void)lat__drv(ctx)->mem_free_async(ctx, p, s);
        return st;
    }
    *out = p;
    return LAT_OK;
}

lat_status lat_mem_free_async(lat_context *ctx, lat_deviceptr ptr, lat_stream *s)
{
    LAT__API();
    if (!ctx)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "ctx is NULL");
    lat_status st = lat__stream_check(ctx, s);
    if (st != LAT_OK || ptr == 0)
        return st;
    if (!lat__mem_untrack(ctx, ptr))
        return lat__error(ctx, LAT_ERROR_INVALID_ADDRESS,
                          "0x%" PRIx64 " is not the start of a live allocation of this "
                          "context (already freed, interior pointer, or never allocated here)",
                          ptr);
    return lat__drv(ctx)->mem_free_async(ctx, ptr, s);
}

/* ---- pitched allocations and 2-D copies ----------------------------------------------- */

lat_status lat_mem_alloc_pitch(lat_context *ctx, size_t width, size_t height,
                               unsigned elem_size, lat_deviceptr *out, size_t *pitch)
{
    LAT__API();
    if (!ctx || !out || !pitch)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s is NULL",
                          !ctx ? "ctx" : !out ? "out" : "pitch");
    *out = 0;
    *pitch = 0;
    if (width == 0 || height == 0)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s is 0",
                          width == 0 ? "width_bytes" : "height");
    if (elem_size != 4 && elem_size != 8 && elem_size != 16)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "elem_size is %u; it must be 4, 8 or 16 bytes", elem_size);
    /* The pitch rounds the width up to at most 512 bytes more (CUDA's largest alignment). */
    if (width > SIZE_MAX - 512 || height > SIZE_MAX / (width + 512))
        return lat__error(ctx, LAT_ERROR_OVERFLOW, "%zu rows of %zu bytes overflow", height, width);
    lat_deviceptr p = 0;
    size_t pt = 0;
    lat_status st = lat__drv(ctx)->mem_alloc_pitch(ctx, width, height, elem_size, &p, &pt);
    if (st != LAT_OK)
        return st;
    st = lat__mem_track(ctx, p, pt * height);
    if (st != LAT_OK) {
        (void)ctx->backend->mem_free(ctx, p);
        return st;
    }
    *out = p;
    *pitch = pt;
    return LAT_OK;
}

/* Checks one side of a 2-D copy: exactly one pointer, a pitch that holds a row, and (for
 * device memory) rows inside one live allocation. */
static lat_status check_side(lat_context *ctx, const char *side, bool host,
                             lat_deviceptr dev, size_t *pitch, size_t x, size_t y,
                             size_t width, size_t height)
{
    if (host == (dev != 0))
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "give exactly one of %s_host and %s_device (%s given)", side,
                          side, host ? "both" : "neither");
    if (*pitch == 0)
        *pitch = width;
    if (x > *pitch || width > *pitch - x)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "the %s's rows of %zu bytes at x = %zu do not fit its pitch of "
                          "%zu bytes", side, width, x, *pitch);
    if (height == 0 || width == 0 || host)
        return LAT_OK;
    /* Bytes from the first copied byte to the end of the last copied row. */
    if (y > SIZE_MAX / *pitch || height - 1 > SIZE_MAX / *pitch ||
        (height - 1) * *pitch > SIZE_MAX - width || y * *pitch > SIZE_MAX - x ||
        dev > UINT64_MAX - (y * *pitch + x))
        return lat__error(ctx, LAT_ERROR_OVERFLOW, "the %s's rows overflow", side);
    size_t extent = (height - 1) * *pitch + width;
    char what[96];
    snprintf(what, sizeof what, "the %s rows", side);
    return lat__alloc_check(ctx, dev + y * *pitch + x, extent, what, NULL);
}

static lat_status memcpy_2d(lat_context *ctx, const lat_copy_2d *copy,
                            lat_stream *s, bool async)
{
    if (!ctx || !copy)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s is NULL", ctx ? "copy" : "ctx");
    lat_status st = lat__stream_check(ctx, s);
    if (st != LAT_OK)
        return st;
    lat_copy_2d c = *copy;
    st = check_side(ctx, "src", c.src_host != NULL, c.src_device, &c.src_pitch, c.src_x,
                    c.src_y, c.width_bytes, c.height);
    if (st == LAT_OK)
        st = check_side(ctx, "dst", c.dst_host != NULL, c.dst_device, &c.dst_pitch, c.dst_x,
                        c.dst_y, c.width_bytes, c.height);
    if (st != LAT_OK || c.width_bytes == 0 || c.height == 0)
        return st;
    return lat__drv(ctx)->memcpy_2d(ctx, &c, s, async);
}

lat_status lat_memcpy_2d(lat_context *ctx, const lat_copy_2d *copy)
{
    LAT__API();
    return memcpy_2d(ctx, copy, NULL, false);
}

lat_status lat_memcpy_2d_async(lat_context *ctx, const lat_copy_2d *copy, lat_stream *s)
{
    LAT__API();
    return memcpy_2d(ctx, copy, s, true);
}

/* ---- between contexts ------------------------------------------------------------------ */

lat_status lat_memcpy_peer(lat_context *dst_ctx, lat_deviceptr dst, lat_context *src_ctx,
                           lat_deviceptr src, size_t bytes)
{
    LAT__API();
    if (!dst_ctx || !src_ctx)
        return lat__error(dst_ctx ? dst_ctx : src_ctx, LAT_ERROR_INVALID_VALUE, "%s is NULL", dst_ctx ? "src_ctx" : "dst_ctx");
    if (!dst || !src)
        return lat__error(dst_ctx, LAT_ERROR_INVALID_VALUE, "the %s address is 0",
                          dst ? "source" : "destination");
    if (dst_ctx->backend != src_ctx->backend)
        return lat__error(dst_ctx, LAT_ERROR_INVALID_VALUE,
                          "the contexts run on different backends (%s and %s)",
                          dst_ctx->backend->name, src_ctx->backend->name);
    if (bytes == 0)
        return LAT_OK;
    lat_status st = lat__alloc_check(dst_ctx, dst, bytes, "the destination", NULL);
    if (st == LAT_OK)
        st = lat__alloc_check(src_ctx, src, bytes, "the source", NULL);
    if (st != LAT_OK)
        return st;
    return lat__drv(dst_ctx)->memcpy_peer(dst_ctx, dst, src_ctx, src, bytes);
}

lat_status lat_context_enable_peer_access(lat_context *ctx, lat_context *peer)
{
    LAT__API();
    if (!ctx || !peer)
        return lat__error(ctx ? ctx : peer, LAT_ERROR_INVALID_VALUE, "%s is NULL",
                          ctx ? "peer" : "ctx");
    if (ctx == peer)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "a context cannot be its own peer");
    if (ctx->backend != peer->backend)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "the contexts run on different backends (%s and %s)",
                          ctx->backend->name, peer->backend->name);
    if (ctx->device == peer->device)
        return LAT_OK; /* one device: its memory is already addressable */
    int can = 0;
    lat_status st = lat__drv(ctx)->can_access_peer(ctx->device, peer->device, &can);
    if (st != LAT_OK)
        return st;
    if (!can)
        return lat__error(ctx, LAT_ERROR_UNSUPPORTED,
                          "device %d cannot address the memory of device %d (no peer "
                          "access between them); copy with lat_memcpy_peer instead",
                          ctx->device, peer->device);
    return lat__drv(ctx)->enable_peer_access(ctx, peer);
}
