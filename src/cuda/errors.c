/*
 * Turning failing driver and NVRTC calls into a lattice status and a message that names
 * the call, the CUDA error and what it means.
 */
#include "cuda_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The driver names its errors itself; this table covers a driver that cannot (a stub
 * library answers every call, cuGetErrorName too, with CUDA_ERROR_STUB_LIBRARY): every
 * CUresult of cuda.h 11 to 13, kept apart from cuda_values.h because newer headers drop
 * some (header_check.c would refuse the build over a dropped name). */
static const struct {
    int value;
    const char *name;
} cuda_names[] = {
        {0, "CUDA_SUCCESS"},
        {1, "CUDA_ERROR_INVALID_VALUE"},
        {2, "CUDA_ERROR_OUT_OF_MEMORY"},
        {3, "CUDA_ERROR_NOT_INITIALIZED"},
        {4, "CUDA_ERROR_DEINITIALIZED"},
        {5, "CUDA_ERROR_PROFILER_DISABLED"},
        {6, "CUDA_ERROR_PROFILER_NOT_INITIALIZED"},
        {7, "CUDA_ERROR_PROFILER_ALREADY_STARTED"},
        {8, "CUDA_ERROR_PROFILER_ALREADY_STOPPED"},
        {34, "CUDA_ERROR_STUB_LIBRARY"},
        {46, "CUDA_ERROR_DEVICE_UNAVAILABLE"},
        {100, "CUDA_ERROR_NO_DEVICE"},
        {101, "CUDA_ERROR_INVALID_DEVICE"},
        {102, "CUDA_ERROR_DEVICE_NOT_LICENSED"},
        {200, "CUDA_ERROR_INVALID_IMAGE"},
        {201, "CUDA_ERROR_INVALID_CONTEXT"},
        {202, "CUDA_ERROR_CONTEXT_ALREADY_CURRENT"},
        {205, "CUDA_ERROR_MAP_FAILED"},
        {206, "CUDA_ERROR_UNMAP_FAILED"},
        {207, "CUDA_ERROR_ARRAY_IS_MAPPED"},
        {208, "CUDA_ERROR_ALREADY_MAPPED"},
        {209, "CUDA_ERROR_NO_BINARY_FOR_GPU"},
        {210, "CUDA_ERROR_ALREADY_ACQUIRED"},
        {211, "CUDA_ERROR_NOT_MAPPED"},
        {212, "CUDA_ERROR_NOT_MAPPED_AS_ARRAY"},
        {213, "CUDA_ERROR_NOT_MAPPED_AS_POINTER"},
        {214, "CUDA_ERROR_ECC_UNCORRECTABLE"},
        {215, "CUDA_ERROR_UNSUPPORTED_LIMIT"},
        {216, "CUDA_ERROR_CONTEXT_ALREADY_IN_USE"},
        {217, "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED"},
        {218, "CUDA_ERROR_INVALID_PTX"},
        {219, "CUDA_ERROR_INVALID_GRAPHICS_CONTEXT"},
        {220, "CUDA_ERROR_NVLINK_UNCORRECTABLE"},
        {221, "CUDA_ERROR_JIT_COMPILER_NOT_FOUND"},
        {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION"},
        {223, "CUDA_ERROR_JIT_COMPILATION_DISABLED"},
        {224, "CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY"},
        {225, "CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC"},
        {300, "CUDA_ERROR_INVALID_SOURCE"},
        {301, "CUDA_ERROR_FILE_NOT_FOUND"},
        {302, "CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND"},
        {303, "CUDA_ERROR_SHARED_OBJECT_INIT_FAILED"},
        {304, "CUDA_ERROR_OPERATING_SYSTEM"},
        {400, "CUDA_ERROR_INVALID_HANDLE"},
        {401, "CUDA_ERROR_ILLEGAL_STATE"},
        {402, "CUDA_ERROR_LOSSY_QUERY"},
        {500, "CUDA_ERROR_NOT_FOUND"},
        {600, "CUDA_ERROR_NOT_READY"},
        {700, "CUDA_ERROR_ILLEGAL_ADDRESS"},
        {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"},
        {702, "CUDA_ERROR_LAUNCH_TIMEOUT"},
        {703, "CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING"},
        {704, "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED"},
        {705, "CUDA_ERROR_PEER_ACCESS_NOT_ENABLED"},
        {708, "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE"},
        {709, "CUDA_ERROR_CONTEXT_IS_DESTROYED"},
        {710, "CUDA_ERROR_ASSERT"},
        {711, "CUDA_ERROR_TOO_MANY_PEERS"},
        {712, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED"},
        {713, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED"},
        {714, "CUDA_ERROR_HARDWARE_STACK_ERROR"},
        {715, "CUDA_ERROR_ILLEGAL_INSTRUCTION"},
        {716, "CUDA_ERROR_MISALIGNED_ADDRESS"},
        {717, "CUDA_ERROR_INVALID_ADDRESS_SPACE"},
        {718, "CUDA_ERROR_INVALID_PC"},
        {719, "CUDA_ERROR_LAUNCH_FAILED"},
        {720, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"},
        {800, "CUDA_ERROR_NOT_PERMITTED"},
        {801, "CUDA_ERROR_NOT_SUPPORTED"},
        {802, "CUDA_ERROR_SYSTEM_NOT_READY"},
        {803, "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH"},
        {804, "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE"},
        {805, "CUDA_ERROR_MPS_CONNECTION_FAILED"},
        {806, "CUDA_ERROR_MPS_RPC_FAILURE"},
        {807, "CUDA_ERROR_MPS_SERVER_NOT_READY"},
        {808, "CUDA_ERROR_MPS_MAX_CLIENTS_REACHED"},
        {809, "CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED"},
        {810, "CUDA_ERROR_MPS_CLIENT_TERMINATED"},
        {811, "CUDA_ERROR_CDP_NOT_SUPPORTED"},
        {812, "CUDA_ERROR_CDP_VERSION_MISMATCH"},
        {900, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED"},
        {901, "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED"},
        {902, "CUDA_ERROR_STREAM_CAPTURE_MERGE"},
        {903, "CUDA_ERROR_STREAM_CAPTURE_UNMATCHED"},
        {904, "CUDA_ERROR_STREAM_CAPTURE_UNJOINED"},
        {905, "CUDA_ERROR_STREAM_CAPTURE_ISOLATION"},
        {906, "CUDA_ERROR_STREAM_CAPTURE_IMPLICIT"},
        {907, "CUDA_ERROR_CAPTURED_EVENT"},
        {908, "CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD"},
        {909, "CUDA_ERROR_TIMEOUT"},
        {910, "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE"},
        {911, "CUDA_ERROR_EXTERNAL_DEVICE"},
        {912, "CUDA_ERROR_INVALID_CLUSTER_SIZE"},
        {913, "CUDA_ERROR_FUNCTION_NOT_LOADED"},
        {914, "CUDA_ERROR_INVALID_RESOURCE_TYPE"},
        {915, "CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION"},
        {999, "CUDA_ERROR_UNKNOWN"},
};

static const char *known_name(CUresult r)
{
    for (size_t i = 0; i < sizeof cuda_names / sizeof cuda_names[0]; i++)
        if (cuda_names[i].value == r)
            return cuda_names[i].name;
    return "CUDA_ERROR_UNKNOWN_CODE";
}

/* NVRTC names its results too (nvrtcGetErrorString); this covers a value it does not know. */
static const struct {
    int value;
    const char *name;
} nvrtc_names[] = {
        {0, "NVRTC_SUCCESS"},
        {1, "NVRTC_ERROR_OUT_OF_MEMORY"},
        {2, "NVRTC_ERROR_PROGRAM_CREATION_FAILURE"},
        {3, "NVRTC_ERROR_INVALID_INPUT"},
        {4, "NVRTC_ERROR_INVALID_PROGRAM"},
        {5, "NVRTC_ERROR_INVALID_OPTION"},
        {6, "NVRTC_ERROR_COMPILATION"},
        {7, "NVRTC_ERROR_BUILTIN_OPERATION_FAILURE"},
        {8, "NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION"},
        {9, "NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION"},
        {10, "NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID"},
        {11, "NVRTC_ERROR_INTERNAL_ERROR"},
        {12, "NVRTC_ERROR_TIME_FILE_WRITE_FAILED"},
        {13, "NVRTC_ERROR_NO_PCH_CREATE_ATTEMPTED"},
        {14, "NVRTC_ERROR_PCH_CREATE_HEAP_EXHAUSTED"},
        {15, "NVRTC_ERROR_PCH_CREATE"},
        {16, "NVRTC_ERROR_CANCELLED"},
        {17, "NVRTC_ERROR_TIME_TRACE_FILE_WRITE_FAILED"},
};

static const char *nvrtc_name(nvrtcResult r)
{
    const char *s = lat__cu.nvrtcGetErrorString ? lat__cu.nvrtcGetErrorString(r) : NULL;
    if (s && strncmp(s, "NVRTC_", 6) == 0)
        return s;
    for (size_t i = 0; i < sizeof nvrtc_names / sizeof nvrtc_names[0]; i++)
        if (nvrtc_names[i].value == r)
            return nvrtc_names[i].name;
    return s ? s : "NVRTC_ERROR_UNKNOWN";
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
    case CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE:
        return LAT_ERROR_INVALID_DIMENSIONS;
    case CUDA_ERROR_FILE_NOT_FOUND:
        return LAT_ERROR_FILE;
    case CUDA_ERROR_NOT_SUPPORTED:
    case CUDA_ERROR_PEER_ACCESS_UNSUPPORTED:
        return LAT_ERROR_UNSUPPORTED;
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
    return lat__error(ctx, status, "%s: %s", call, nvrtc_name(r));
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
