/*
 * Turning failing driver and NVRTC calls into a lattice status and a message that names
 * the call, the CUDA error and what it means.
 */
#include "cuda_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The driver names its errors itself; these cover a driver that cannot (a stub library
 * answers every call, cuGetErrorName too, with CUDA_ERROR_STUB_LIBRARY). */
static const char *known_name(CUresult r)
{
    switch (r) {
#define LAT_CUDA_NAME_(name, value)                                                          \
    case value:                                                                            \
        return #name;
        LAT_CUDA_RESULTS(LAT_CUDA_NAME_)
#undef LAT_CUDA_NAME_
    default:
        return "CUDA_ERROR_UNKNOWN_CODE";
    }
}

const char *lat__cuda_error_name(CUresult r)
{
    const char *s = NULL;
    if (lat__cu.cuGetErrorName && lat__cu.cuGetErrorName(r, &s) == CUDA_SUCCESS && s)
        return s;
    return known_name(r);
}

const char *lat__cuda_error_string(CUresult r)
{
    const char *s = NULL;
    if (lat__cu.cuGetErrorString && lat__cu.cuGetErrorString(r, &s) == CUDA_SUCCESS && s)
        return s;
    if (r == CUDA_ERROR_STUB_LIBRARY)
        return "this libcuda is the CUDA toolkit's link-time stub, not the NVIDIA driver";
    return "the driver gives no description";
}

int lat__cuda_is_kernel_fault(CUresult r)
{
    switch (r) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_LAUNCH_FAILED:
        return 1;
    default:
        return 0;
    }
}

lat_status lat__cuda_status(CUresult r)
{
    if (lat__cuda_is_kernel_fault(r))
        return LAT_ERROR_LAUNCH_FAILED;
    switch (r) {
    case CUDA_SUCCESS:
        return LAT_OK;
    case CUDA_ERROR_OUT_OF_MEMORY:
        return LAT_ERROR_OUT_OF_DEVICE_MEMORY;
    case CUDA_ERROR_INVALID_VALUE:
        return LAT_ERROR_INVALID_VALUE;
    case CUDA_ERROR_NO_DEVICE:
        return LAT_ERROR_NO_DEVICE;
    case CUDA_ERROR_INVALID_DEVICE:
        return LAT_ERROR_INVALID_DEVICE;
    case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
        return LAT_ERROR_INVALID_DIMENSIONS;
    default:
        return LAT_ERROR_DRIVER;
    }
}

/* Why an error happened, where the driver's one-line description leaves the user
 * guessing what to do. NULL when the description says enough. */
static const char *advice(CUresult r)
{
    if (lat__cuda_is_kernel_fault(r))
        /* Seen on driver 580 (CUDA 13): after such a fault even a reset primary context
         * answers every call with the same error, so only a new process recovers. */
        return "a kernel fault leaves CUDA unusable in this process: later calls on this "
               "device fail with the same error, and only a new process can use the GPU again";
    switch (r) {
    case CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES:
        return "the block needs more registers than a multiprocessor has: launch fewer "
               "threads per block, or limit the kernel's registers with __launch_bounds__ "
               "or --maxrregcount";
    case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
        return "NVRTC is newer than the driver: update the NVIDIA driver, or point "
               "LATTICE_NVRTC_LIBRARY at an NVRTC no newer than the driver";
    case CUDA_ERROR_NO_BINARY_FOR_GPU:
    case CUDA_ERROR_INVALID_PTX:
        return "the code was compiled for another architecture than the device's";
    default:
        return NULL;
    }
}

lat_status lat__cuda_fail(lat_context *ctx, CUresult r, const char *what, ...)
{
    char call[256];
    va_list ap;
    va_start(ap, what);
    vsnprintf(call, sizeof call, what, ap);
    va_end(ap);

    char kernel[160] = "";
    if (ctx && ctx->impl && lat__cuda_is_kernel_fault(r)) {
        lat__cuda_ctx *c = ctx->impl;
        pthread_mutex_lock(&c->last_kernel_lock);
        if (c->last_kernel[0])
            snprintf(kernel, sizeof kernel, "kernel '%s' failed: ", c->last_kernel);
        if (!c->fault[0])
            snprintf(c->fault, sizeof c->fault, "%s%s (%s)", kernel, lat__cuda_error_name(r),
                     lat__cuda_error_string(r));
        pthread_mutex_unlock(&c->last_kernel_lock);
        atomic_store(&c->faulted, 1);
    }
    const char *more = advice(r);
    lat_status status = lat__cuda_status(r);
    if (kernel[0])
        return lat__error(ctx, status, "%s%s (%s), reported by %s%s%s", kernel,
                          lat__cuda_error_name(r), lat__cuda_error_string(r), call,
                          more ? "; " : "", more ? more : "");
    return lat__error(ctx, status, "%s: %s (%s)%s%s", call, lat__cuda_error_name(r),
                      lat__cuda_error_string(r), more ? "; " : "", more ? more : "");
}

lat_status lat__nvrtc_fail(lat_context *ctx, lat_status status, nvrtcResult r,
                           const char *what, ...)
{
    char call[256];
    va_list ap;
    va_start(ap, what);
    vsnprintf(call, sizeof call, what, ap);
    va_end(ap);
    const char *name = lat__cu.nvrtcGetErrorString ? lat__cu.nvrtcGetErrorString(r) : NULL;
    return lat__error(ctx, status, "%s: %s", call, name ? name : "NVRTC_ERROR_UNKNOWN");
}

lat_status lat__cuda_lost(lat_context *ctx)
{
    lat__cuda_ctx *c = ctx->impl;
    char fault[256];
    pthread_mutex_lock(&c->last_kernel_lock);
    snprintf(fault, sizeof fault, "%s", c->fault[0] ? c->fault : "a kernel fault");
    pthread_mutex_unlock(&c->last_kernel_lock);
    return lat__error(ctx, LAT_ERROR_CONTEXT_LOST,
                      "the context on CUDA device %d is unusable since %s: destroy it; the "
                      "driver refuses this device to the process from then on, so only a new "
                      "process can use the GPU again",
                      ctx->device, fault);
}
