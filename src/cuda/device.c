/*
 * Devices and contexts. A lattice context is its device's primary context, the one the
 * CUDA runtime and most libraries share, so memory and modules made through lattice can
 * be used by code that uses the runtime API in the same process, and the other way round.
 */
#include "cuda_internal.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

_Thread_local CUcontext lat__cuda_tls_ctx;
_Thread_local unsigned long lat__cuda_tls_epoch;
_Atomic unsigned long lat__cuda_epoch = 1; /* never equal to a fresh thread's 0 */

lat_status lat__cuda_make_current(lat_context *ctx)
{
    lat__cuda_ctx *c = ctx->impl;
    unsigned long epoch = atomic_load(&lat__cuda_epoch);
    CUcontext cur = NULL;
    CUresult r = lat__cu.cuCtxGetCurrent(&cur);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(ctx, r, "cuCtxGetCurrent");
    if (cur != c->cu) {
        r = lat__cu.cuCtxSetCurrent(c->cu);
        if (r != CUDA_SUCCESS)
            return lat__cuda_fail(ctx, r, "cuCtxSetCurrent");
    }
    lat__cuda_tls_ctx = c->cu;
    lat__cuda_tls_epoch = epoch;
    return LAT_OK;
}

lat_status lat__cuda_device_count(int *count)
{
    CUresult r = lat__cu.cuDeviceGetCount(count);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(NULL, r, "cuDeviceGetCount");
    return LAT_OK;
}

lat_status lat__cuda_device_info(int ordinal, lat_device_info *info)
{
    CUdevice dev;
    CUresult r = lat__cu.cuDeviceGet(&dev, ordinal);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(NULL, r, "cuDeviceGet(%d)", ordinal);

    memset(info, 0, sizeof *info);
    r = lat__cu.cuDeviceGetName(info->name, (int)sizeof info->name, dev);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(NULL, r, "cuDeviceGetName(device %d)", ordinal);
    info->name[sizeof info->name - 1] = '\0';
    size_t total = 0;
    r = lat__cu.cuDeviceTotalMem(&total, dev);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(NULL, r, "cuDeviceTotalMem(device %d)", ordinal);
    info->total_memory = total;

    int shared = 0, constant = 0;
    const struct {
        CUdevice_attribute attr;
        int *out;
        const char *name;
    } attrs[] = {
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &info->compute_major, "COMPUTE_CAPABILITY_MAJOR"},
        {CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &info->compute_minor, "COMPUTE_CAPABILITY_MINOR"},
        {CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, &info->multiprocessor_count, "MULTIPROCESSOR_COUNT"},
        {CU_DEVICE_ATTRIBUTE_WARP_SIZE, &info->warp_size, "WARP_SIZE"},
        {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &info->max_threads_per_block, "MAX_THREADS_PER_BLOCK"},
        {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, &info->max_block_dim[0], "MAX_BLOCK_DIM_X"},
        {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, &info->max_block_dim[1], "MAX_BLOCK_DIM_Y"},
        {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, &info->max_block_dim[2], "MAX_BLOCK_DIM_Z"},
        {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, &info->max_grid_dim[0], "MAX_GRID_DIM_X"},
        {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, &info->max_grid_dim[1], "MAX_GRID_DIM_Y"},
        {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, &info->max_grid_dim[2], "MAX_GRID_DIM_Z"},
        {CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, &shared, "MAX_SHARED_MEMORY_PER_BLOCK"},
        {CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY, &constant, "TOTAL_CONSTANT_MEMORY"},
        {CU_DEVICE_ATTRIBUTE_CLOCK_RATE, &info->clock_rate_khz, "CLOCK_RATE"},
        {CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, &info->memory_bus_width, "GLOBAL_MEMORY_BUS_WIDTH"},
        {CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, &info->l2_cache_size, "L2_CACHE_SIZE"},
        {CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, &info->max_threads_per_multiprocessor, "MAX_THREADS_PER_MULTIPROCESSOR"},
        {CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, &info->registers_per_block, "MAX_REGISTERS_PER_BLOCK"},
    };
    for (size_t i = 0; i < sizeof attrs / sizeof *attrs; i++) {
        r = lat__cu.cuDeviceGetAttribute(attrs[i].out, attrs[i].attr, dev);
        /* Newer drivers drop attributes now and then (CLOCK_RATE is deprecated): a
         * missing one reads as 0, "unknown", rather than making the device unusable. */
        if (r == CUDA_ERROR_INVALID_VALUE) {
            *attrs[i].out = 0;
            continue;
        }
        if (r != CUDA_SUCCESS)
            return lat__cuda_fail(NULL, r, "cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_%s, device %d)",
                                  attrs[i].name, ordinal);
    }
    info->shared_memory_per_block = (size_t)shared;
    info->shared_memory_per_block_optin = (size_t)shared; /* no cuFuncSetAttribute yet */
    info->constant_memory = (size_t)constant;
    return LAT_OK;
}

lat_status lat__cuda_context_create(lat_context *ctx, const lat_context_desc *desc)
{
    (void)desc; /* a GPU context runs unchecked (core notes checks asked of it) */
    lat__cuda_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return lat__oom_for(ctx, "creating a context");
    CUresult r = lat__cu.cuDeviceGet(&c->dev, ctx->device);
    if (r != CUDA_SUCCESS) {
        free(c);
        return lat__cuda_fail(ctx, r, "cuDeviceGet(%d)", ctx->device);
    }
    r = lat__cu.cuDevicePrimaryCtxRetain(&c->cu, c->dev);
    if (lat__cuda_is_kernel_fault(r) && lat__cu.cuDevicePrimaryCtxReset) {
        /* A kernel fault left the primary context unusable (someone else's: lattice
         * resets it when the faulting context is destroyed). Start afresh, once. */
        lat__log(ctx, LAT_LOG_WARNING,
                 "device %d's primary context is unusable after an earlier kernel fault "
                 "(%s): resetting it",
                 ctx->device, lat__cuda_error_name(r));
        lat__cu.cuDevicePrimaryCtxReset(c->dev);
        atomic_fetch_add(&lat__cuda_epoch, 1);
        r = lat__cu.cuDevicePrimaryCtxRetain(&c->cu, c->dev);
    }
    if (r != CUDA_SUCCESS) {
        free(c);
        return lat__cuda_fail(ctx, r, "cuDevicePrimaryCtxRetain(device %d)", ctx->device);
    }
    if (pthread_mutex_init(&c->last_kernel_lock, NULL) != 0) {
        lat__cu.cuDevicePrimaryCtxRelease(c->dev);
        free(c);
        return lat__error(ctx, LAT_ERROR_OUT_OF_MEMORY, "pthread_mutex_init failed");
    }
    atomic_init(&c->last_kernel_id, 0);
    atomic_init(&c->faulted, 0);
    ctx->impl = c;
    lat_status st = lat__cuda_make_current(ctx);
    if (st == LAT_OK)
        c->pool = lat__cuda_pool_setup(ctx);
    if (st != LAT_OK) {
        ctx->impl = NULL;
        pthread_mutex_destroy(&c->last_kernel_lock);
        lat__cu.cuDevicePrimaryCtxRelease(c->dev);
        free(c);
        return st;
    }
    lat__log(ctx, LAT_LOG_INFO, "CUDA device %d: %s, sm_%d%d; driver %d.%d, NVRTC %d.%d",
             ctx->device, ctx->info.name, ctx->info.compute_major, ctx->info.compute_minor,
             lat__cu.driver_version / 1000, lat__cu.driver_version % 1000 / 10,
             lat__cu.nvrtc_major, lat__cu.nvrtc_minor);
    return LAT_OK;
}

void lat__cuda_context_destroy(lat_context *ctx)
{
    lat__cuda_ctx *c = ctx->impl;
    if (!c)
        return;
    lat__cuda_staging_release(ctx);
    if (!atomic_load(&c->faulted) && lat__cuda_enter(ctx) == LAT_OK) {
        CUresult r = lat__cu.cuCtxSynchronize();
        if (lat__cuda_is_kernel_fault(r))
            atomic_store(&c->faulted, 1);
        else if (r != CUDA_SUCCESS)
            lat__log(ctx, LAT_LOG_WARNING,
                     "lat_context_destroy: unreported failure of earlier work: %s (%s)",
                     lat__cuda_error_name(r), lat__cuda_error_string(r));
    }
    /* The primary context is shared: this only drops our reference. When it was the last
     * one the driver destroys the context, and may later re-create it under the same
     * handle, so every thread's cached "current" must be re-checked from now on. */
    lat__cu.cuDevicePrimaryCtxRelease(c->dev);
    if (atomic_load(&c->faulted) && lat__cu.cuDevicePrimaryCtxReset) {
        /* After a kernel fault the driver keeps the primary context, broken, even with no
         * reference left: only a reset lets the next context on this device work. Any
         * other lattice context on the device was as broken as this one. */
        lat__log(ctx, LAT_LOG_INFO, "resetting device %d's primary context after a kernel fault",
                 ctx->device);
        lat__cu.cuDevicePrimaryCtxReset(c->dev);
    }
    atomic_fetch_add(&lat__cuda_epoch, 1);
    pthread_mutex_destroy(&c->last_kernel_lock);
    free(c);
    ctx->impl = NULL;
}

lat_status lat__cuda_wait(lat_context *ctx, CUresult (*query)(void *), void *obj,
                          uint64_t interrupts, const char *what)
{
    for (;;) {
        CUresult r = query(obj);
        if (r == CUDA_SUCCESS)
            return LAT_OK;
        if (r != CUDA_ERROR_NOT_READY)
            return lat__cuda_fail(ctx, r, "%s", what);
        if (lat__interrupt_count() != interrupts)
            return lat__error(ctx, LAT_ERROR_INTERRUPTED,
                              "%s: interrupted (lat_interrupt(): Ctrl-C?) while the GPU was "
                              "running; a GPU kernel cannot be stopped: it runs on, and the "
                              "next wait for it waits until it ends", what);
        sched_yield();
    }
}

static CUresult query_event(void *ev)
{
    return lat__cu.cuEventQuery(ev);
}

lat_status lat__cuda_synchronize(lat_context *ctx)
{
    uint64_t interrupts = lat__interrupt_count();
    lat_status st = lat__cuda_enter(ctx);
    if (st != LAT_OK)
        return st;
    /* The work of the default stream, and of every stream that waits for it (all but the
     * non-blocking ones), is done when an event recorded there now is: waited for so that
     * lat_interrupt() can end the wait. cuCtxSynchronize then waits for the rest and
     * reports the failures of all of it. */
    CUevent ev;
    if (lat__cu.cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING) == CUDA_SUCCESS) {
        if (lat__cu.cuEventRecord(ev, NULL) == CUDA_SUCCESS)
            st = lat__cuda_wait(ctx, query_event, ev, interrupts, "cuCtxSynchronize");
        lat__cu.cuEventDestroy(ev);
        if (st != LAT_OK) /* interrupted, or the work failed (recorded) */
            return st;
    }
    CUresult r = lat__cu.cuCtxSynchronize();
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(ctx, r, "cuCtxSynchronize");
    return LAT_OK;
}
