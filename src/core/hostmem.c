/*
 * Page-locked host memory. The core keeps every range it page-locked (allocated or
 * registered) in a sorted table per context, so that a double free, a free of a
 * registered buffer or an overlapping registration is a clear error rather than the
 * driver's, and whatever is left is released with the context.
 */
#include "driver_ops.h"
#include "core/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const unsigned alloc_flags = LAT_HOST_PORTABLE | LAT_HOST_MAPPED | LAT_HOST_WRITE_COMBINED;
static const unsigned register_flags = LAT_HOST_PORTABLE | LAT_HOST_MAPPED;

/* Index of the first range whose base is > p. Caller holds the lock. */
static size_t upper_bound(const lat__ctx_driver *d, const char *p)
{
    size_t lo = 0, hi = d->nhost;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((uintptr_t)d->host[mid].base <= (uintptr_t)p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The index of the range containing p, or (size_t)-1. Caller holds the lock. */
static size_t find(const lat__ctx_driver *d, const void *p)
{
    size_t i = upper_bound(d, p);
    if (i > 0 && (uintptr_t)p - (uintptr_t)d->host[i - 1].base < d->host[i - 1].size)
        return i - 1;
    return (size_t)-1;
}

bool lat__host_is_pinned(lat_context *ctx, const void *p, size_t bytes)
{
    lat__ctx_driver *d = ctx->drv;
    pthread_mutex_lock(&d->lock);
    size_t i = find(d, p);
    bool inside = i != (size_t)-1 &&
                  bytes <= d->host[i].size - (size_t)((uintptr_t)p - (uintptr_t)d->host[i].base);
    pthread_mutex_unlock(&d->lock);
    return inside;
}

bool lat__host_is_mapped(lat_context *ctx, uintptr_t p)
{
    lat__ctx_driver *d = ctx->drv;
    if (!d)
        return false;
    pthread_mutex_lock(&d->lock);
    size_t i = upper_bound(d, (const char *)p);
    /* One past the end counts, as for device allocations. */
    bool in = i > 0 && (d->host[i - 1].flags & LAT_HOST_MAPPED) &&
              p - (uintptr_t)d->host[i - 1].base <= d->host[i - 1].size;
    pthread_mutex_unlock(&d->lock);
    return in;
}

/* Inserts a range; fails when it overlaps one already there. */
static lat_status insert(lat_context *ctx, char *base, size_t size,
                         unsigned flags, bool registered)
{
    lat__ctx_driver *d = ctx->drv;
    pthread_mutex_lock(&d->lock);
    size_t i = upper_bound(d, base);
    bool overlaps = (i > 0 && (uintptr_t)base - (uintptr_t)d->host[i - 1].base <
                                  d->host[i - 1].size) ||
                    (i < d->nhost && (uintptr_t)d->host[i].base - (uintptr_t)base < size);
    if (overlaps) {
        pthread_mutex_unlock(&d->lock);
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "%zu bytes at %p overlap host memory this context has already "
                          "page-locked", size, (void *)base);
    }
    if (d->nhost == d->host_cap) {
        size_t cap = d->host_cap ? d->host_cap * 2 : 8;
        lat__host_range *p = lat__realloc(d->host, cap * sizeof *p);
        if (!p) {
            pthread_mutex_unlock(&d->lock);
            return lat__oom(ctx);
        }
        d->host = p;
        d->host_cap = cap;
    }
    memmove(&d->host[i + 1], &d->host[i], (d->nhost - i) * sizeof *d->host);
    d->host[i] = (lat__host_range){base, size, flags, registered};
    d->nhost++;
    pthread_mutex_unlock(&d->lock);
    return LAT_OK;
}

/* Removes the range starting exactly at p made the `registered` way. */
static lat_status take(lat_context *ctx, void *p, bool registered)
{
    lat__ctx_driver *d = ctx->drv;
    pthread_mutex_lock(&d->lock);
    size_t i = find(d, p);
    if (i == (size_t)-1 || d->host[i].base != p || d->host[i].registered != registered) {
        const char *why = i == (size_t)-1              ? "not page-locked memory of this context"
                          : d->host[i].base != p       ? "inside a page-locked range, not its start"
                          : registered                 ? "allocated by lat_host_alloc, not registered"
                                                       : "registered by lat_host_register, not allocated";
        pthread_mutex_unlock(&d->lock);
        return lat__error(ctx, LAT_ERROR_INVALID_ADDRESS, "%p is %s%s", p, why,
                          i == (size_t)-1 ? " (already released, or never made here)" : "");
    }
    memmove(&d->host[i], &d->host[i + 1], (d->nhost - i - 1) * sizeof *d->host);
    d->nhost--;
    pthread_mutex_unlock(&d->lock);
    return LAT_OK;
}

lat_status lat_host_alloc(lat_context *ctx, size_t bytes, unsigned flags, void **out)
{
    LAT__API();
    if (!ctx || !out)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s is NULL", ctx ? "out" : "ctx");
    *out = NULL;
    if (bytes == 0)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "size is 0 bytes");
    if (flags & ~alloc_flags)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "unknown flags 0x%x", flags & ~alloc_flags);
    void *p = NULL;
    lat_status st = lat__drv(ctx)->host_alloc(ctx, bytes, flags, &p);
    if (st != LAT_OK)
        return st;
    st = insert(ctx, p, bytes, flags, false);
    if (st != LAT_OK) {
        lat__drv(ctx)->host_free(ctx, p);
        return st;
    }
    *out = p;
    return LAT_OK;
}

lat_status lat_host_free(lat_context *ctx, void *ptr)
{
    LAT__API();
    if (!ctx)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "ctx is NULL");
    if (!ptr)
        return LAT_OK;
    lat_status st = take(ctx, ptr, false);
    if (st == LAT_OK)
        lat__drv(ctx)->host_free(ctx, ptr);
    return st;
}

lat_status lat_host_register(lat_context *ctx, void *ptr, size_t bytes, unsigned flags)
{
    LAT__API();
    if (!ctx || !ptr)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s is NULL", ctx ? "ptr" : "ctx");
    if (bytes == 0)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "size is 0 bytes");
    if (flags & ~register_flags)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "unknown flags 0x%x",
                          flags & ~register_flags);
    if ((uintptr_t)ptr > UINTPTR_MAX - bytes)
        return lat__error(ctx, LAT_ERROR_OVERFLOW, "%zu bytes at %p wrap around", bytes, ptr);
    /* The slot first, so that two threads registering one buffer cannot both succeed. */
    lat_status st = insert(ctx, ptr, bytes, flags, true);
    if (st != LAT_OK)
        return st;
    st = lat__drv(ctx)->host_register(ctx, ptr, bytes, flags);
    if (st != LAT_OK)
        (void)take(ctx, ptr, true);
    return st;
}

lat_status lat_host_unregister(lat_context *ctx, void *ptr)
{
    LAT__API();
    if (!ctx || !ptr)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s is NULL", ctx ? "ptr" : "ctx");
    lat_status st = take(ctx, ptr, true);
    if (st == LAT_OK)
        lat__drv(ctx)->host_unregister(ctx, ptr);
    return st;
}

lat_status lat_host_device_pointer(lat_context *ctx, void *host, lat_deviceptr *out)
{
    LAT__API();
    if (!ctx || !host || !out)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s is NULL",
                          !ctx ? "ctx" : !host ? "host" : "out");
    *out = 0;
    lat__ctx_driver *d = ctx->drv;
    pthread_mutex_lock(&d->lock);
    size_t i = find(d, host);
    bool mapped = i != (size_t)-1 && (d->host[i].flags & LAT_HOST_MAPPED);
    pthread_mutex_unlock(&d->lock);
    if (!mapped)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "%p is not in page-locked memory made with "
                          "LAT_HOST_MAPPED in this context",
                          host);
    return d->ops->host_device_pointer(ctx, host, out);
}
