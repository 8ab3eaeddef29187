/* A module's __device__ and __constant__ variables by name (PyCUDA's get_global), and
 * copies to and from them, checked against the variable's size. */
#include "backend.h"
#include "core/alloc.h"

#include <stdlib.h>

static lat_status find(lat_module *mod, const char *name, lat_deviceptr *ptr,
                       size_t *bytes)
{
    if (!mod || !name)
        return lat__error(mod ? mod->ctx : NULL, LAT_ERROR_INVALID_VALUE, "%s is NULL",
                          !mod ? "mod" : "name");
    lat_context *ctx = mod->ctx;
    if (!ctx->backend->module_get_global)
        return lat__error(ctx, LAT_ERROR_UNSUPPORTED,
                          "the %s backend does not give access to module variables",
                          ctx->backend->name);
    lat_status st = ctx->backend->module_get_global(mod, name, ptr, bytes);
    if (st == LAT_ERROR_INVALID_VALUE)
        return lat__error(ctx, st,
                          "module %s has no __device__ or __constant__ variable named '%s'", mod->name ? mod->name : "?",
                          name);
    return st;
}

lat_status lat_module_get_global(lat_module *mod, const char *name, lat_deviceptr *ptr,
                                 size_t *bytes)
{
    LAT__API();
    lat_deviceptr p = 0;
    size_t n = 0;
    lat_status st = find(mod, name, &p, &n);
    if (st != LAT_OK)
        return st;
    /* Remembered for the pointer check: the program may pass this address to a kernel. */
    lat_context *ctx = mod->ctx;
    pthread_mutex_lock(&ctx->lock);
    bool known = false;
    for (size_t i = 0; i < mod->nglobals && !known; i++)
        known = mod->globals[i].base == p;
    if (!known) {
        lat__alloc *g = lat__realloc(mod->globals, (mod->nglobals + 1) * sizeof *g);
        if (g) {
            g[mod->nglobals++] = (lat__alloc){p, n};
            mod->globals = g;
        } else {
            st = LAT_ERROR_OUT_OF_MEMORY;
        }
    }
    pthread_mutex_unlock(&ctx->lock);
    if (st != LAT_OK)
        return lat__error(ctx, st, "out of host memory");
    if (ptr)
        *ptr = p;
    if (bytes)
        *bytes = n;
    return LAT_OK;
}

static lat_status range(lat_module *mod, const char *name, size_t offset,
                        const void *host, size_t bytes, lat_deviceptr *at)
{
    size_t size;
    lat_status st = find(mod, name, at, &size);
    if (st != LAT_OK)
        return st;
    if (!host)
        return lat__error(mod->ctx, LAT_ERROR_INVALID_VALUE, "the host pointer is NULL");
    if (offset > size || bytes > size - offset)
        return lat__error(mod->ctx, LAT_ERROR_INVALID_ADDRESS,
                          "%zu bytes at offset %zu overrun '%s', which has %zu bytes",
                          bytes, offset, name, size);
    *at += offset;
    return LAT_OK;
}

lat_status lat_module_memcpy_to_global(lat_module *mod, const char *name, size_t offset,
                                       const void *src, size_t bytes)
{
    LAT__API();
    lat_deviceptr at;
    lat_status st = range(mod, name, offset, src, bytes, &at);
    if (st != LAT_OK || bytes == 0)
        return st;
    return mod->ctx->backend->memcpy_htod(mod->ctx, at, src, bytes);
}

lat_status lat_module_memcpy_from_global(lat_module *mod, const char *name, size_t offset,
                                         void *dst, size_t bytes)
{
    LAT__API();
    lat_deviceptr at;
    lat_status st = range(mod, name, offset, dst, bytes, &at);
    if (st != LAT_OK || bytes == 0)
        return st;
    return mod->ctx->backend->memcpy_dtoh(mod->ctx, dst, at, bytes);
}
