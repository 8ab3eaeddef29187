/*
 * Kernels and launches. A launch is one cuLaunchKernel on the context's default stream;
 * everything around it is kept to a thread-local compare (the current context) and an
 * atomic load (which kernel ran last), so lattice adds little to the driver's own cost.
 */
#include "cuda_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Atomic uint64_t next_kernel_id = 1;

/* The parameter sizes, from cuFuncGetParamInfo where the driver has it (12.4 and newer):
 * it answers CUDA_ERROR_INVALID_VALUE past the last parameter. Where the source says how
 * many there are, only those are asked for: a question past the end is an API error that
 * compute-sanitizer reports (and counts) in every program that gets a kernel. */
static void param_info(lat_kernel *kernel, CUfunction fn)
{
    kernel->backend_nparams = -1;
    kernel->backend_param_sizes = NULL;
    if (!lat__cu.cuFuncGetParamInfo)
        return;
    size_t known = kernel->sig ? (size_t)kernel->sig->nparams : SIZE_MAX;
    size_t *sizes = NULL, n = 0, cap = 0;
    while (n < known) {
        size_t offset = 0, size = 0;
        CUresult r = lat__cu.cuFuncGetParamInfo(fn, n, &offset, &size);
        if (r == CUDA_ERROR_INVALID_VALUE)
            break;
        /* Any other answer, or an absurd count, means we do not know. */
        if (r != CUDA_SUCCESS || n >= 65536) {
            free(sizes);
            return;
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 8;
            size_t *grown = realloc(sizes, cap * sizeof *sizes);
            if (!grown) {
                free(sizes);
                return;
            }
            sizes = grown;
        }
        sizes[n++] = size;
    }
    kernel->backend_nparams = (int)n;
    if (n == 0) {
        free(sizes);
        sizes = NULL;
    }
    kernel->backend_param_sizes = sizes;
}

lat_status lat__cuda_kernel_get(lat_module *mod, lat_kernel *kernel)
{
    lat_context *ctx = mod->ctx;
    lat_status st = lat__cuda_enter(ctx);
    if (st != LAT_OK)
        return st;
    const char *symbol = lat__cuda_module_symbol(mod, kernel->name);
    CUfunction fn = NULL;
    CUresult r = lat__cu.cuModuleGetFunction(&fn, lat__cuda_module_handle(mod), symbol);
    if (r == CUDA_ERROR_NOT_FOUND)
        return LAT_ERROR_KERNEL_NOT_FOUND;
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(ctx, r, "cuModuleGetFunction(%s, \"%s\")", mod->name, symbol);
    lat__cuda_kernel *k = malloc(sizeof *k);
    if (!k)
        return lat__oom(ctx);
    k->fn = fn;
    k->id = atomic_fetch_add(&next_kernel_id, 1);
    kernel->impl = k;
    param_info(kernel, fn);
    return LAT_OK;
}

void lat__cuda_kernel_release(lat_kernel *kernel)
{
    free(kernel->impl);
    kernel->impl = NULL;
}

/* Remembers the kernel launched last, for the message of a failure that surfaces later. */
static void note_kernel(lat__cuda_ctx *c, const lat__cuda_kernel *k, const char *name)
{
    if (atomic_load_explicit(&c->last_kernel_id, memory_order_relaxed) == k->id)
        return;
    pthread_mutex_lock(&c->last_kernel_lock);
    snprintf(c->last_kernel, sizeof c->last_kernel, "%s", name);
    atomic_store_explicit(&c->last_kernel_id, k->id, memory_order_relaxed);
    pthread_mutex_unlock(&c->last_kernel_lock);
}

static lat_status out_of_resources(lat_context *ctx, lat_kernel *kernel, CUfunction fn,
                                   const lat__launch *l)
{
    unsigned threads = l->block[0] * l->block[1] * l->block[2];
    int regs = 0;
    if (lat__cu.cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn) == CUDA_SUCCESS &&
        regs > 0)
        return lat__error(ctx, LAT_ERROR_INVALID_DIMENSIONS,
                          "kernel '%s' cannot run %u threads per block: it uses %d registers "
                          "per thread, %llu per block, and the device has %d per block: "
                          "launch fewer threads per block, or limit the registers with "
                          "__launch_bounds__(%u) or --maxrregcount (cuLaunchKernel: "
                          "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)",
                          kernel->name, threads, regs, (unsigned long long)regs * threads,
                          ctx->info.registers_per_block, threads);
    return lat__cuda_fail(ctx, CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES,
                          "cuLaunchKernel(%s, %u threads per block)", kernel->name, threads);
}

lat_status lat__cuda_launch(lat_kernel *kernel, const lat__launch *l, void **params)
{
    lat_context *ctx = kernel->module->ctx;
    lat_status st = lat__cuda_enter(ctx);
    if (st != LAT_OK)
        return st;
    const lat__cuda_kernel *k = kernel->impl;
    CUresult r;
    if (l->cooperative) /* the core checked the device and the grid's size */
        r = lat__cu.cuLaunchCooperativeKernel(k->fn, l->grid[0], l->grid[1], l->grid[2],
                                              l->block[0], l->block[1], l->block[2],
                                              (unsigned)l->shared_bytes,
                                              lat__cuda_stream(l->stream), params);
    else
        r = lat__cu.cuLaunchKernel(k->fn, l->grid[0], l->grid[1], l->grid[2], l->block[0],
                                   l->block[1], l->block[2], (unsigned)l->shared_bytes,
                                   lat__cuda_stream(l->stream), params, NULL);
    if (r != CUDA_SUCCESS) {
        if (r == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)
            return out_of_resources(ctx, kernel, k->fn, l);
        /* A failure of an earlier kernel (sticky) is reported by the next call, which may
         * be this launch: the note still names the kernel that was running. */
        return lat__cuda_fail(ctx, r,
                              "%s(%s, grid (%u, %u, %u), block (%u, %u, %u), "
                              "%zu bytes of dynamic shared memory)",
                              l->cooperative ? "cuLaunchCooperativeKernel" : "cuLaunchKernel",
                              kernel->name, l->grid[0], l->grid[1], l->grid[2], l->block[0],
                              l->block[1], l->block[2], l->shared_bytes);
    }
    note_kernel(ctx->impl, k, kernel->name);
    return LAT_OK;
}

lat_status lat__cuda_max_cooperative_blocks(lat_kernel *kernel, unsigned block_threads,
                                            size_t shared_bytes, unsigned *out)
{
    lat_context *ctx = kernel->module->ctx;
    lat_status st = lat__cuda_enter(ctx);
    if (st != LAT_OK)
        return st;
    const lat__cuda_ctx *c = ctx->impl;
    if (!lat__cu.cuLaunchCooperativeKernel || !lat__cu.cuOccupancyMaxActiveBlocksPerMultiprocessor)
        return lat__error(ctx, LAT_ERROR_UNSUPPORTED,
                          "kernel '%s': this CUDA driver has no cuLaunchCooperativeKernel "
                          "or cuOccupancyMaxActiveBlocksPerMultiprocessor (CUDA 9 and later do)",
                          kernel->name);
    int can = 0;
    CUresult r = lat__cu.cuDeviceGetAttribute(&can, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, c->dev);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(ctx, r, "cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH)");
    if (!can)
        return lat__error(ctx, LAT_ERROR_UNSUPPORTED,
                          "kernel '%s': %s cannot launch cooperative kernels "
                          "(CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH is 0)",
                          kernel->name, ctx->info.name);
    const lat__cuda_kernel *k = kernel->impl;
    int per_sm = 0;
    r = lat__cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k->fn, (int)block_threads,
                                                            shared_bytes);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(ctx, r,
                              "cuOccupancyMaxActiveBlocksPerMultiprocessor(%s, %u threads, %zu "
                              "bytes of dynamic shared memory)",
                              kernel->name, block_threads, shared_bytes);
    uint64_t n = (uint64_t)(per_sm > 0 ? per_sm : 0) * (uint64_t)ctx->info.multiprocessor_count;
    *out = n > 0xffffffffu ? 0xffffffffu : (unsigned)n;
    return LAT_OK;
}
