/*
 * Device memory: allocation, memset and copies. The core has already checked every
 * range against the context's live allocations, so these only call the driver. Copies
 * return when they are complete, as the public API promises; work queued before them
 * on the context (kernels) finishes first, since all of it runs on the default stream.
 */
#include "cuda_internal.h"

/* Copies from or to pageable memory of at least this many bytes are staged (staging.c). */
enum { PIPELINE_MIN = 4 << 20 };

lat_status lat__cuda_mem_alloc(lat_context *ctx, size_t bytes, lat_deviceptr *out)
{
    lat_status st = lat__cuda_enter(ctx);
    if (st != LAT_OK)
        return st;
    CUdeviceptr p = 0;
    CUresult r = lat__cu.cuMemAlloc(&p, bytes);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(ctx, r, "cuMemAlloc(%zu bytes)", bytes);
    *out = (lat_deviceptr)p;
    return LAT_OK;
}

lat_status lat__cuda_mem_free(lat_context *ctx, lat_deviceptr ptr)
{
    /* After a kernel fault nothing can be freed, and nothing needs to be (below). */
    if (atomic_load(&((lat__cuda_ctx *)ctx->impl)->faulted))
        return LAT_OK;
    lat_status st = lat__cuda_enter(ctx);
    if (st != LAT_OK)
        return st;
    CUresult r = lat__cu.cuMemFree((CUdeviceptr)ptr);
    /* After a kernel fault nothing can be freed, and nothing needs to be: the memory goes
     * with the context, which destroying it resets. The fault itself has been (or will
     * be) reported by the calls that can do something about it. */
    if (lat__cuda_is_kernel_fault(r)) {
        atomic_store(&((lat__cuda_ctx *)ctx->impl)->faulted, 1);
        return LAT_OK;
    }
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(ctx, r, "cuMemFree(0x%llx)", (unsigned long long)ptr);
    return LAT_OK;
}

lat_status lat__cuda_mem_info(lat_context *ctx, size_t *free_bytes, size_t *total_bytes)
{
    lat_status st = lat__cuda_enter(ctx);
    if (st != LAT_OK)
        return st;
    size_t f = 0, t = 0;
    CUresult r = lat__cu.cuMemGetInfo(&f, &t);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(ctx, r, "cuMemGetInfo");
    if (free_bytes)
        *free_bytes = f;
    if (total_bytes)
        *total_bytes = t;
    return LAT_OK;
}

/* For the launch's opt-in pointer check: device memory the driver knows that the core's
 * table does not (allocated by other code in the same context). Not the device heap of
 * kernels' malloc: cuPointerGetAttribute does not know it (H100, driver 580), so the
 * check refuses a heap address on CUDA. Says nothing on failure: the check names the
 * parameter. */
bool lat__cuda_holds_address(lat_context *ctx, lat_deviceptr v)
{
    if (lat__cuda_enter(ctx) != LAT_OK)
        return false;
    unsigned int type = 0;
    return lat__cu.cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)v) ==
               CUDA_SUCCESS &&
           type == CU_MEMORYTYPE_DEVICE;
}

lat_status lat__cuda_memset(lat_context *ctx, lat_deviceptr dst, uint32_t value,
                            size_t elem_size, size_t count)
{
    lat_status st = lat__cuda_enter(ctx);
    if (st != LAT_OK)
        return st;
    CUresult r;
    switch (elem_size) {
    case 1:
        r = lat__cu.cuMemsetD8((CUdeviceptr)dst, (unsigned char)value, count);
        break;
    case 2:
        r = lat__cu.cuMemsetD16((CUdeviceptr)dst, (unsigned short)value, count);
        break;
    case 4:
        r = lat__cu.cuMemsetD32((CUdeviceptr)dst, (unsigned int)value, count);
        break;
    default:
        return lat__error(ctx, LAT_ERROR_INTERNAL, "memset with %zu-byte elements", elem_size);
    }
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(ctx, r, "cuMemsetD%zu(0x%llx, 0x%x, %zu elements)",
                              elem_size * 8, (unsigned long long)dst, (unsigned)value, count);
    return LAT_OK;
}

lat_status lat__cuda_memcpy_htod(lat_context *ctx, lat_deviceptr dst, const void *src,
                                 size_t bytes)
{
    lat_status st = lat__cuda_enter(ctx);
    if (st != LAT_OK)
        return st;
    if (bytes >= PIPELINE_MIN && !lat__cuda_is_pinned(ctx, src, bytes)) {
        /* Large and pageable: page-locked staging, several times the driver's speed. */
        st = lat__cuda_stage_htod(ctx, (CUdeviceptr)dst, src, bytes, NULL);
        CUresult rs = st == LAT_OK ? lat__cu.cuStreamSynchronize(NULL) : CUDA_SUCCESS;
        if (rs != CUDA_SUCCESS)
            st = lat__cuda_fail(ctx, rs, "cuStreamSynchronize after a staged copy");
        return st;
    }
    CUresult r = lat__cu.cuMemcpyHtoD((CUdeviceptr)dst, src, bytes);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(ctx, r, "cuMemcpyHtoD(0x%llx, %p, %zu bytes)",
                              (unsigned long long)dst, src, bytes);
    return LAT_OK;
}

lat_status lat__cuda_memcpy_dtoh(lat_context *ctx, void *dst, lat_deviceptr src, size_t bytes)
{
    lat_status st = lat__cuda_enter(ctx);
    if (st != LAT_OK)
        return st;
    if (bytes >= PIPELINE_MIN && !lat__cuda_is_pinned(ctx, dst, bytes))
        return lat__cuda_stage_dtoh(ctx, dst, (CUdeviceptr)src, bytes, NULL);
    CUresult r = lat__cu.cuMemcpyDtoH(dst, (CUdeviceptr)src, bytes);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(ctx, r, "cuMemcpyDtoH(%p, 0x%llx, %zu bytes)", dst,
                              (unsigned long long)src, bytes);
    return LAT_OK;
}

lat_status lat__cuda_memcpy_dtod(lat_context *ctx, lat_deviceptr dst, lat_deviceptr src,
                                 size_t bytes)
{
    lat_status st = lat__cuda_enter(ctx);
    if (st != LAT_OK)
        return st;
    CUresult r = lat__cu.cuMemcpyDtoD((CUdeviceptr)dst, (CUdeviceptr)src, bytes);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(ctx, r, "cuMemcpyDtoD(0x%llx, 0x%llx, %zu bytes)",
                              (unsigned long long)dst, (unsigned long long)src, bytes);
    /* A device-to-device copy may return before it is done; the API says it is done. */
    r = lat__cu.cuCtxSynchronize();
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(ctx, r, "cuCtxSynchronize after cuMemcpyDtoD");
    return LAT_OK;
}
