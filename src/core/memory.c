/*
 * Device memory. The core keeps every live allocation of a context in a sorted table, so
 * that each device range given to a copy or memset is checked against the allocation it
 * falls in, the same way on every backend (a GPU would silently corrupt a neighbour).
 */
#include "memory.h"
#include "core/alloc.h"

#include "backend.h"
#include "texture.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Index of the first allocation whose base is > ptr. Caller holds ctx->lock. */
static size_t upper_bound(const lat_context *ctx, lat_deviceptr ptr)
{
    size_t lo = 0, hi = ctx->nallocs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ctx->allocs[mid].base <= ptr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The device's memory, read once per context: the emulated device's is a bounded size
 * too (lat__backend.memory_note says how it is set), so its allocations are held to it
 * here, as a GPU's are by its driver. 0 when the backend cannot say (no bound). */
static size_t device_memory(lat_context *ctx)
{
    size_t total = __atomic_load_n(&ctx->mem_total, __ATOMIC_RELAXED);
    if (total == 0) {
        size_t free_b = 0;
        if (ctx->backend->mem_info(ctx, &free_b, &total) != LAT_OK || total == 0)
            total = SIZE_MAX;
        __atomic_store_n(&ctx->mem_total, total, __ATOMIC_RELAXED);
    }
    return total;
}

static lat_status table_insert(lat_context *ctx, lat_deviceptr base, size_t size, bool own)
{
    size_t total = device_memory(ctx);
    pthread_mutex_lock(&ctx->lock);
    if (size > total || ctx->alloc_bytes > total - size) {
        size_t used = ctx->alloc_bytes;
        pthread_mutex_unlock(&ctx->lock);
        return lat__error(ctx, LAT_ERROR_OUT_OF_DEVICE_MEMORY,
                          "%zu bytes is more than the device has left (%zu of "
                          "its %zu bytes are allocated in this context%s%s)", size, used, total,
                          ctx->backend->memory_note ? "; " : "",
                          ctx->backend->memory_note ? ctx->backend->memory_note : "");
    }
    if (ctx->nallocs == ctx->allocs_cap) {
        size_t cap = ctx->allocs_cap ? ctx->allocs_cap * 2 : 16;
        lat__alloc *p = lat__realloc(ctx->allocs, cap * sizeof *p);
        if (!p) {
            pthread_mutex_unlock(&ctx->lock);
            return lat__oom(ctx);
        }
        ctx->allocs = p;
        ctx->allocs_cap = cap;
    }
    size_t i = upper_bound(ctx, base);
    memmove(&ctx->allocs[i + 1], &ctx->allocs[i], (ctx->nallocs - i) * sizeof *ctx->allocs);
    ctx->allocs[i] = (lat__alloc){base, size, own};
    ctx->nallocs++;
    ctx->alloc_bytes += size;
    pthread_mutex_unlock(&ctx->lock);
    return LAT_OK;
}

/* Removes the allocation starting exactly at base; false if there is none. */
static bool table_remove(lat_context *ctx, lat_deviceptr base)
{
    pthread_mutex_lock(&ctx->lock);
    size_t i = upper_bound(ctx, base);
    bool found = i > 0 && ctx->allocs[i - 1].base == base;
    if (found) {
        i--;
        ctx->alloc_bytes -= ctx->allocs[i].size;
        memmove(&ctx->allocs[i], &ctx->allocs[i + 1],
                (ctx->nallocs - i - 1) * sizeof *ctx->allocs);
        ctx->nallocs--;
    }
    pthread_mutex_unlock(&ctx->lock);
    return found;
}

lat_status lat__alloc_check(lat_context *ctx, lat_deviceptr ptr, size_t bytes,
                            const char *what, lat__alloc *alloc)
{
    pthread_mutex_lock(&ctx->lock);
    size_t i = upper_bound(ctx, ptr);
    lat__alloc a = {0, 0};
    bool inside = false;
    if (i > 0) {
        a = ctx->allocs[i - 1];
        inside = ptr - a.base < a.size;
    }
    /* A module variable whose address lat_module_get_global gave is device memory too
     * (PyCUDA programs copy to it, memset it and wrap it in a GPUArray by address). */
    for (lat_module *m = ctx->modules; m && !inside; m = m->next)
        for (size_t g = 0; g < m->nglobals && !inside; g++) {
            a = m->globals[g];
            inside = ptr - a.base < a.size;
        }
    pthread_mutex_unlock(&ctx->lock);
    if (!inside)
        return lat__error(ctx, LAT_ERROR_INVALID_ADDRESS,
                          "%s: device address 0x%" PRIx64 " is not inside any live allocation "
                          "or module variable of this context",
                          what, ptr);
    size_t offset = (size_t)(ptr - a.base);
    if (bytes > a.size - offset)
        return lat__error(ctx, LAT_ERROR_INVALID_ADDRESS,
                          "%s: %zu bytes at offset %zu overrun the allocation of %zu bytes at "
                          "0x%" PRIx64 " by %zu bytes",
                          what, bytes, offset, a.size, a.base, bytes - (a.size - offset));
    if (alloc)
        *alloc = a;
    return LAT_OK;
}

lat_status lat__mem_track(lat_context *ctx, lat_deviceptr base, size_t size)
{
    return table_insert(ctx, base, size, false);
}

bool lat__mem_untrack(lat_context *ctx, lat_deviceptr base)
{
    if (!table_remove(ctx, base))
        return false;
    lat__texture_memory_freed(ctx, base);
    return true;
}

static lat_status mem_alloc(lat_context *ctx, size_t bytes, bool own, lat_deviceptr *out)
{
    lat_deviceptr p = 0;
    lat_status st = ctx->backend->mem_alloc(ctx, bytes, &p);
    if (st != LAT_OK)
        return st;
    st = table_insert(ctx, p, bytes, own);
    if (st != LAT_OK) {
        (void)ctx->backend->mem_free(ctx, p);
        return st;
    }
    *out = p;
    return LAT_OK;
}

lat_status lat__mem_alloc(lat_context *ctx, size_t bytes, lat_deviceptr *out)
{
    return mem_alloc(ctx, bytes, false, out);
}

lat_status lat__mem_alloc_own(lat_context *ctx, size_t bytes, lat_deviceptr *out)
{
    return mem_alloc(ctx, bytes, true, out);
}

lat_status lat__mem_free(lat_context *ctx, lat_deviceptr ptr)
{
    if (!table_remove(ctx, ptr))
        return LAT_ERROR_INVALID_ADDRESS;
    lat__texture_memory_freed(ctx, ptr); /* textures over it read freed memory now */
    return ctx->backend->mem_free(ctx, ptr);
}

lat_status lat_mem_alloc(lat_context *ctx, size_t bytes, lat_deviceptr *out)
{
    LAT__API();
    if (!ctx || !out)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s is NULL", ctx ? "out" : "ctx");
    *out = 0;
    if (bytes == 0)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "size is 0 bytes");
    return lat__mem_alloc(ctx, bytes, out);
}

lat_status lat_mem_free(lat_context *ctx, lat_deviceptr ptr)
{
    LAT__API();
    if (!ctx)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "ctx is NULL");
    if (ptr == 0)
        return LAT_OK;
    lat_status st = lat__mem_free(ctx, ptr);
    if (st == LAT_ERROR_INVALID_ADDRESS) {
        lat__alloc a;
        pthread_mutex_lock(&ctx->lock);
        size_t i = upper_bound(ctx, ptr);
        bool interior = i > 0 && ptr - ctx->allocs[i - 1].base < ctx->allocs[i - 1].size;
        if (interior)
            a = ctx->allocs[i - 1];
        pthread_mutex_unlock(&ctx->lock);
        if (interior)
            return lat__error(ctx, st,
                              "0x%" PRIx64 " is %" PRIu64 " bytes inside the "
                              "allocation at 0x%" PRIx64 "; free its start address",
                              ptr, ptr - a.base, a.base);
        return lat__error(ctx, st,
                          "0x%" PRIx64 " is not a live allocation of this "
                          "context (already freed, or never allocated here)",
                          ptr);
    }
    return st;
}

void lat__mem_release_all(lat_context *ctx)
{
    size_t bytes = 0, n = 0;
    for (size_t i = 0; i < ctx->nallocs; i++) {
        if (!ctx->allocs[i].own) {
            bytes += ctx->allocs[i].size;
            n++;
        }
        (void)ctx->backend->mem_free(ctx, ctx->allocs[i].base);
    }
    if (n)
        lat__log(ctx, LAT_LOG_WARNING,
                 "lat_context_destroy: freed %zu allocation%s (%zu bytes) still live", n,
                 n == 1 ? "" : "s", bytes);
    free(ctx->allocs);
    ctx->allocs = NULL;
    ctx->nallocs = ctx->allocs_cap = 0;
}

lat_status lat_mem_info(lat_context *ctx, size_t *free_bytes, size_t *total_bytes)
{
    LAT__API();
    if (!ctx)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "ctx is NULL");
    size_t f = 0, t = 0;
    lat_status st = ctx->backend->mem_info(ctx, &f, &t);
    if (st != LAT_OK)
        return st;
    /* What this context holds is not free, whatever the host says (the emulator's free
     * memory is the host's). */
    pthread_mutex_lock(&ctx->lock);
    size_t left = ctx->alloc_bytes < t ? t - ctx->alloc_bytes : 0;
    pthread_mutex_unlock(&ctx->lock);
    if (f > left)
        f = left;
    if (free_bytes)
        *free_bytes = f;
    if (total_bytes)
        *total_bytes = t;
    return LAT_OK;
}

lat_status lat__memset_check(lat_context *ctx, lat_deviceptr dst, size_t elem,
                             size_t count)
{
    if (dst % elem != 0)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "destination 0x%" PRIx64 " is not aligned to %zu bytes", dst,
                          elem);
    if (count > SIZE_MAX / elem)
        return lat__error(ctx, LAT_ERROR_OVERFLOW, "%zu elements of %zu bytes overflow", count, elem);
    if (count == 0)
        return LAT_OK;
    return lat__alloc_check(ctx, dst, count * elem, "the destination", NULL);
}

static lat_status memset_n(lat_context *ctx, lat_deviceptr dst,
                           uint32_t value, size_t elem, size_t count)
{
    if (!ctx)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "ctx is NULL");
    if (dst == 0)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "destination address is 0");
    lat_status st = lat__memset_check(ctx, dst, elem, count);
    if (st != LAT_OK || count == 0)
        return st;
    return ctx->backend->memset(ctx, dst, value, elem, count);
}

lat_status lat_memset_d8(lat_context *ctx, lat_deviceptr dst, uint8_t value, size_t count)
{
    LAT__API();
    return memset_n(ctx, dst, value, 1, count);
}

lat_status lat_memset_d16(lat_context *ctx, lat_deviceptr dst, uint16_t value, size_t count)
{
    LAT__API();
    return memset_n(ctx, dst, value, 2, count);
}

lat_status lat_memset_d32(lat_context *ctx, lat_deviceptr dst, uint32_t value, size_t count)
{
    LAT__API();
    return memset_n(ctx, dst, value, 4, count);
}

lat_status lat_memcpy_htod(lat_context *ctx, lat_deviceptr dst, const void *src, size_t bytes)
{
    LAT__API();
    if (!ctx || !src || !dst)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s",
                          !ctx ? "ctx is NULL" : !src ? "host source is NULL"
                                                      : "device destination is 0");
    if (bytes == 0)
        return LAT_OK;
    lat_status st = lat__alloc_check(ctx, dst, bytes, "the destination", NULL);
    if (st != LAT_OK)
        return st;
    return ctx->backend->memcpy_htod(ctx, dst, src, bytes);
}

lat_status lat_memcpy_dtoh(lat_context *ctx, void *dst, lat_deviceptr src, size_t bytes)
{
    LAT__API();
    if (!ctx || !dst || !src)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s",
                          !ctx ? "ctx is NULL" : !dst ? "host destination is NULL"
                                                      : "device source is 0");
    if (bytes == 0)
        return LAT_OK;
    lat_status st = lat__alloc_check(ctx, src, bytes, "the source", NULL);
    if (st != LAT_OK)
        return st;
    return ctx->backend->memcpy_dtoh(ctx, dst, src, bytes);
}

lat_status lat_memcpy_dtod(lat_context *ctx, lat_deviceptr dst, lat_deviceptr src, size_t bytes)
{
    LAT__API();
    if (!ctx || !dst || !src)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s",
                          !ctx ? "ctx is NULL" : !dst ? "device destination is 0"
                                                      : "device source is 0");
    if (bytes == 0)
        return LAT_OK;
    lat_status st = lat__alloc_check(ctx, dst, bytes, "the destination", NULL);
    if (st == LAT_OK)
        st = lat__alloc_check(ctx, src, bytes, "the source", NULL);
    if (st != LAT_OK)
        return st;
    return ctx->backend->memcpy_dtod(ctx, dst, src, bytes);
}
