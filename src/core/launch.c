/* Launch validation, the same for every backend, and lat_launch() itself. */
#include "launch.h"

#include "backend.h"
#include "driver_ops.h"

#include <stdio.h>
#include <string.h>

static const char axis[3] = {'x', 'y', 'z'};

/* A cooperative launch's grid against the device's limit, and a kernel that needs one.
 * Apart from the rest of the checks, so that an ordinary launch pays two tests for them. */
static __attribute__((noinline)) lat_status check_cooperative(lat_kernel *kernel,
                                                              const lat_launch_desc *desc,
                                                              const lat__launch *out)
{
    const lat_context *ctx = kernel->module->ctx;
    uint64_t threads = (uint64_t)out->block[0] * out->block[1] * out->block[2];
    if (!out->cooperative)
        /* A GPU traps in such a grid barrier, which loses the context (on the emulator
         * the launch would fail the same way): refused before anything runs. */
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "kernel '%s': the kernel calls __lat_grid_sync(), the grid-wide "
                          "barrier, which needs a cooperative launch: set "
                          "lat_launch_desc.cooperative (and keep the grid within "
                          "lat_kernel_max_cooperative_blocks())", kernel->name);
    unsigned limit = 0;
    lat_status st = ctx->backend->max_cooperative_blocks(kernel, (unsigned)threads,
                                                         desc->shared_bytes, &limit);
    if (st != LAT_OK)
        return st;
    uint64_t nblocks = (uint64_t)out->grid[0] * out->grid[1] * out->grid[2];
    if (nblocks <= limit)
        return LAT_OK;
    char shared[64] = "";
    if (desc->shared_bytes)
        snprintf(shared, sizeof shared, " and %zu bytes of dynamic shared memory",
                 desc->shared_bytes);
    return lat__error(ctx, LAT_ERROR_INVALID_DIMENSIONS,
                      "kernel '%s': a cooperative grid of %llu blocks (%u, %u, %u) is more "
                      "than the device holds at once: at most %u blocks of %llu threads%s "
                      "(lat_kernel_max_cooperative_blocks; CUDA says "
                      "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE)", kernel->name, (unsigned long long)nblocks, out->grid[0], out->grid[1],
                      out->grid[2], limit, (unsigned long long)threads, shared);
}

lat_status lat__launch_prepare(lat_kernel *kernel, const lat_launch_desc *desc,
                               lat__launch *out)
{
    if (!kernel || !desc)
        return lat__error(kernel ? kernel->module->ctx : NULL, LAT_ERROR_INVALID_VALUE,
                          "%s is NULL", kernel ? "desc" : "kernel");
    out->interrupts = lat__interrupt_count(); /* first: the call has begun */
    const lat_context *ctx = kernel->module->ctx;
    const lat_device_info *dev = &ctx->info;
    const unsigned grid[3] = {desc->grid.x, desc->grid.y, desc->grid.z};
    const unsigned block[3] = {desc->block.x, desc->block.y, desc->block.z};

    if (grid[0] == 0 || block[0] == 0)
        return lat__error(ctx, LAT_ERROR_INVALID_DIMENSIONS,
                          "kernel '%s': %s.x is 0; a launch needs at least one %s",
                          kernel->name, grid[0] == 0 ? "grid" : "block",
                          grid[0] == 0 ? "block" : "thread");
    uint64_t threads = 1;
    for (int d = 0; d < 3; d++) {
        out->grid[d] = grid[d] ? grid[d] : 1;
        out->block[d] = block[d] ? block[d] : 1;
        if (out->block[d] > (unsigned)dev->max_block_dim[d])
            return lat__error(ctx, LAT_ERROR_INVALID_DIMENSIONS,
                              "kernel '%s': block.%c is %u; the device allows at most %d",
                              kernel->name, axis[d], out->block[d], dev->max_block_dim[d]);
        if (out->grid[d] > (unsigned)dev->max_grid_dim[d])
            return lat__error(ctx, LAT_ERROR_INVALID_DIMENSIONS,
                              "kernel '%s': grid.%c is %u; the device allows at most %d",
                              kernel->name, axis[d], out->grid[d], dev->max_grid_dim[d]);
        threads *= out->block[d];
    }
    if (threads > (uint64_t)dev->max_threads_per_block)
        return lat__error(ctx, LAT_ERROR_INVALID_DIMENSIONS,
                          "kernel '%s': a block of (%u, %u, %u) has %llu threads; the "
                          "device allows at most %d per block", kernel->name, out->block[0],
                          out->block[1], out->block[2], (unsigned long long)threads,
                          dev->max_threads_per_block);
    /* Beyond shared_memory_per_block a launch is opted in, as cudaFuncSetAttribute does;
     * the backend adds the kernel's static shared memory to the count. */
    if (desc->shared_bytes > dev->shared_memory_per_block_optin)
        return lat__error(ctx, LAT_ERROR_SHARED_MEMORY,
                          "kernel '%s': %zu bytes of dynamic shared memory requested; a "
                          "block has at most %zu", kernel->name, desc->shared_bytes,
                          dev->shared_memory_per_block_optin);
    out->shared_bytes = desc->shared_bytes;
    out->stream = desc->stream;
    out->cooperative = desc->cooperative != 0;
    lat_status st = lat__stream_check(ctx, desc->stream);
    if (st != LAT_OK || (!out->cooperative && !(kernel->sig && kernel->sig->grid_sync)))
        return st;
    return check_cooperative(kernel, desc, out);
}

lat_status lat_kernel_max_cooperative_blocks(lat_kernel *kernel, unsigned block_threads,
                                             size_t shared_bytes, unsigned *out)
{
    LAT__API();
    if (!kernel || !out)
        return lat__error(kernel ? kernel->module->ctx : NULL, LAT_ERROR_INVALID_VALUE,
                          "%s is NULL", kernel ? "out" : "kernel");
    *out = 0;
    lat_context *ctx = kernel->module->ctx;
    const lat_device_info *dev = &ctx->info;
    if (block_threads == 0 || block_threads > (unsigned)dev->max_threads_per_block)
        return lat__error(ctx, LAT_ERROR_INVALID_DIMENSIONS,
                          "kernel '%s': a block of %u threads; the device allows 1 to %d",
                          kernel->name, block_threads, dev->max_threads_per_block);
    if (shared_bytes > dev->shared_memory_per_block_optin)
        return lat__error(ctx, LAT_ERROR_SHARED_MEMORY,
                          "kernel '%s': %zu bytes of dynamic shared memory; a block has at "
                          "most %zu", kernel->name, shared_bytes,
                          dev->shared_memory_per_block_optin);
    return ctx->backend->max_cooperative_blocks(kernel, block_threads, shared_bytes, out);
}

/* Whether v lies in [base, base + size], the end included (a loop's end pointer). */
static bool within(const lat__alloc *a, lat_deviceptr v)
{
    return v >= a->base && v - a->base <= a->size;
}

static bool known_address(lat_context *ctx, lat_deviceptr v)
{
    bool ok = false;
    pthread_mutex_lock(&ctx->lock);
    size_t lo = 0, hi = ctx->nallocs;
    while (lo < hi) { /* the last allocation whose base is at most v */
        size_t mid = lo + (hi - lo) / 2;
        if (ctx->allocs[mid].base <= v)
            lo = mid + 1;
        else
            hi = mid;
    }
    ok = lo > 0 && within(&ctx->allocs[lo - 1], v);
    for (lat_module *m = ctx->modules; m && !ok; m = m->next)
        for (size_t i = 0; i < m->nglobals && !ok; i++)
            ok = within(&m->globals[i], v);
    pthread_mutex_unlock(&ctx->lock);
    return ok || lat__host_is_mapped(ctx, (uintptr_t)v) ||
           (ctx->backend->holds_address && ctx->backend->holds_address(ctx, v));
}

lat_status lat__launch_check_pointer(lat_kernel *kernel, int i, lat_deviceptr v)
{
    lat_context *ctx = kernel->module->ctx;
    if (!ctx->check_pointers || v == 0 || !kernel->param_class ||
        kernel->param_class[i] != LAT__PARAM_POINTER || known_address(ctx, v))
        return LAT_OK;
    const char *name = kernel->sig && i < kernel->sig->nparams ? kernel->sig->params[i].name : "";
    return lat__error(ctx, LAT_ERROR_INVALID_ADDRESS,
                      "kernel '%s': pointer parameter %d '%s' is 0x%llx, which is in no "
                      "device allocation of the context, no module variable and no mapped "
                      "host memory: a host pointer? (a GPU would fault; "
                      "lat_context_desc.pointer_check = LAT_POINTER_CHECK_OFF turns this check "
                      "off)", kernel->name, i, name && *name ? name : "?", (unsigned long long)v);
}

lat_status lat_launch(lat_kernel *kernel, const lat_launch_desc *desc, void **params)
{
    LAT__API();
    lat__launch l;
    lat_status st = lat__launch_prepare(kernel, desc, &l);
    if (st != LAT_OK)
        return st;
    lat_context *ctx = kernel->module->ctx;
    if (kernel->nparams > 0) {
        if (!params)
            return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                              "kernel '%s': params is NULL but the kernel takes %d "
                              "parameter%s",
                              kernel->name, kernel->nparams, kernel->nparams == 1 ? "" : "s");
        for (int i = 0; i < kernel->nparams; i++)
            if (!params[i])
                return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                                  "kernel '%s': params[%d] is NULL", kernel->name, i);
        if (ctx->check_pointers)
            for (int i = 0; i < kernel->nparams; i++) {
                if (!kernel->param_class || kernel->param_class[i] != LAT__PARAM_POINTER)
                    continue; /* only a pointer's value has 8 bytes to read */
                lat_deviceptr v;
                memcpy(&v, params[i], sizeof v);
                if ((st = lat__launch_check_pointer(kernel, i, v)) != LAT_OK)
                    return st;
            }
    }
    return ctx->backend->launch(kernel, &l, kernel->nparams > 0 ? params : NULL);
}
