/*
 * Every CUDA driver and NVRTC function the CUDA backend calls, in one list (SDL's
 * vkfuncs pattern). Each entry is
 *
 *     X(return type, name we call it by, exported symbol, (parameters), optional)
 *
 * The exported symbol is what dlsym() looks up: the driver exports the current versions
 * of many functions under suffixed names (cuMemAlloc_v2), the way cuda.h's #defines do.
 * A missing required symbol makes probe() fail; a missing optional one leaves the
 * pointer NULL and the backend does without (cuFuncGetParamInfo: drivers before 12.4;
 * nvrtcGetCUBIN and the architecture queries: NVRTC before 11.1 / 11.2; the cooperative
 * launch and occupancy calls, which CUDA 9 has, fail cooperative launches cleanly).
 *
 * Users of this file define X, expand LAT_CUDA_DRIVER_SYMS(X) / LAT_CUDA_NVRTC_SYMS(X),
 * and undefine X. The types come from cuda_api.h.
 */
#ifndef LAT_CUDA_SYMS_H
#define LAT_CUDA_SYMS_H

#define LAT_CUDA_DRIVER_SYMS(X)                                                            \
    X(CUresult, cuInit, cuInit, (unsigned int flags), 0)                                    \
    X(CUresult, cuDriverGetVersion, cuDriverGetVersion, (int *version), 0)                  \
    X(CUresult, cuGetErrorName, cuGetErrorName, (CUresult error, const char **str), 0)     \
    X(CUresult, cuGetErrorString, cuGetErrorString, (CUresult error, const char **str), 0) \
    X(CUresult, cuDeviceGet, cuDeviceGet, (CUdevice *device, int ordinal), 0)              \
    X(CUresult, cuDeviceGetCount, cuDeviceGetCount, (int *count), 0)                       \
    X(CUresult, cuDeviceGetName, cuDeviceGetName, (char *name, int len, CUdevice dev), 0)  \
    X(CUresult, cuDeviceTotalMem, cuDeviceTotalMem_v2, (size_t *bytes, CUdevice dev), 0)   \
    X(CUresult, cuDeviceGetAttribute, cuDeviceGetAttribute,                                 \
      (int *value, CUdevice_attribute attrib, CUdevice dev), 0)                             \
    X(CUresult, cuDevicePrimaryCtxRetain, cuDevicePrimaryCtxRetain,                         \
      (CUcontext *pctx, CUdevice dev), 0)                                                   \
    X(CUresult, cuDevicePrimaryCtxRelease, cuDevicePrimaryCtxRelease_v2, (CUdevice dev), 0) \
    X(CUresult, cuDevicePrimaryCtxReset, cuDevicePrimaryCtxReset_v2, (CUdevice dev), 1)     \
    X(CUresult, cuCtxGetCurrent, cuCtxGetCurrent, (CUcontext *pctx), 0)                    \
    X(CUresult, cuCtxSetCurrent, cuCtxSetCurrent, (CUcontext ctx), 0)                      \
    X(CUresult, cuCtxSynchronize, cuCtxSynchronize, (void), 0)                             \
    X(CUresult, cuMemAlloc, cuMemAlloc_v2, (CUdeviceptr *dptr, size_t bytesize), 0)        \
    X(CUresult, cuMemFree, cuMemFree_v2, (CUdeviceptr dptr), 0)                            \
    X(CUresult, cuMemGetInfo, cuMemGetInfo_v2, (size_t *free_bytes, size_t *total), 0)     \
    X(CUresult, cuMemsetD8, cuMemsetD8_v2, (CUdeviceptr dst, unsigned char uc, size_t n), 0) \
    X(CUresult, cuMemsetD16, cuMemsetD16_v2,                                                \
      (CUdeviceptr dst, unsigned short us, size_t n), 0)                                    \
    X(CUresult, cuMemsetD32, cuMemsetD32_v2, (CUdeviceptr dst, unsigned int ui, size_t n), 0) \
    X(CUresult, cuMemcpyHtoD, cuMemcpyHtoD_v2,                                              \
      (CUdeviceptr dst, const void *src, size_t bytes), 0)                                  \
    X(CUresult, cuMemcpyDtoH, cuMemcpyDtoH_v2, (void *dst, CUdeviceptr src, size_t bytes), 0) \
    X(CUresult, cuMemcpyDtoD, cuMemcpyDtoD_v2,                                              \
      (CUdeviceptr dst, CUdeviceptr src, size_t bytes), 0)                                  \
    X(CUresult, cuModuleLoadDataEx, cuModuleLoadDataEx,                                     \
      (CUmodule *module, const void *image, unsigned int nopts, CUjit_option *opts,         \
       void **values), 0)                                                                   \
    X(CUresult, cuModuleUnload, cuModuleUnload, (CUmodule module), 0)                      \
    X(CUresult, cuModuleGetFunction, cuModuleGetFunction,                                   \
      (CUfunction *fn, CUmodule module, const char *name), 0)                               \
    X(CUresult, cuModuleGetGlobal, cuModuleGetGlobal_v2,                                    \
      (CUdeviceptr *dptr, size_t *bytes, CUmodule module, const char *name), 0)             \
    X(CUresult, cuFuncGetAttribute, cuFuncGetAttribute,                                     \
      (int *value, CUfunction_attribute attrib, CUfunction fn), 0)                          \
    X(CUresult, cuFuncGetParamInfo, cuFuncGetParamInfo,                                     \
      (CUfunction fn, size_t index, size_t *offset, size_t *size), 1)                       \
    X(CUresult, cuLaunchKernel, cuLaunchKernel,                                             \
      (CUfunction fn, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,   \
       unsigned int by, unsigned int bz, unsigned int shared_bytes, CUstream stream,        \
       void **params, void **extra), 0)                                                     \
    X(CUresult, cuLaunchCooperativeKernel, cuLaunchCooperativeKernel,                       \
      (CUfunction fn, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,   \
       unsigned int by, unsigned int bz, unsigned int shared_bytes, CUstream stream,        \
       void **params), 1)                                                                   \
    X(CUresult, cuOccupancyMaxActiveBlocksPerMultiprocessor,                                \
      cuOccupancyMaxActiveBlocksPerMultiprocessor,                                          \
      (int *nblocks, CUfunction fn, int block_size, size_t dynamic_shared_bytes), 1)        \
    LAT_CUDA_DRIVER_LAYER_SYMS(X)

/* The driver layer (lattice/driver.h): streams, events, page-locked memory, 2-D and
 * asynchronous copies; the stream-ordered pool (CUDA 11.2) is optional. */
#define LAT_CUDA_DRIVER_LAYER_SYMS(X)                                                      \
    X(CUresult, cuStreamCreateWithPriority, cuStreamCreateWithPriority,                     \
      (CUstream *stream, unsigned int flags, int priority), 0)                              \
    X(CUresult, cuCtxGetStreamPriorityRange, cuCtxGetStreamPriorityRange,                   \
      (int *least, int *greatest), 0)                                                       \
    X(CUresult, cuStreamDestroy, cuStreamDestroy_v2, (CUstream stream), 0)                  \
    X(CUresult, cuStreamSynchronize, cuStreamSynchronize, (CUstream stream), 0)             \
    X(CUresult, cuStreamQuery, cuStreamQuery, (CUstream stream), 0)                         \
    X(CUresult, cuStreamWaitEvent, cuStreamWaitEvent,                                       \
      (CUstream stream, CUevent event, unsigned int flags), 0)                              \
    X(CUresult, cuEventCreate, cuEventCreate, (CUevent *event, unsigned int flags), 0)     \
    X(CUresult, cuEventDestroy, cuEventDestroy_v2, (CUevent event), 0)                      \
    X(CUresult, cuEventRecord, cuEventRecord, (CUevent event, CUstream stream), 0)         \
    X(CUresult, cuEventSynchronize, cuEventSynchronize, (CUevent event), 0)                 \
    X(CUresult, cuEventQuery, cuEventQuery, (CUevent event), 0)                             \
    X(CUresult, cuEventElapsedTime, cuEventElapsedTime,                                     \
      (float *ms, CUevent start, CUevent end), 0)                                           \
    X(CUresult, cuMemHostAlloc, cuMemHostAlloc,                                             \
      (void **pp, size_t bytes, unsigned int flags), 0)                                     \
    X(CUresult, cuMemFreeHost, cuMemFreeHost, (void *p), 0)                                 \
    X(CUresult, cuMemHostRegister, cuMemHostRegister_v2,                                    \
      (void *p, size_t bytes, unsigned int flags), 0)                                       \
    X(CUresult, cuMemHostUnregister, cuMemHostUnregister, (void *p), 0)                     \
    X(CUresult, cuMemHostGetDevicePointer, cuMemHostGetDevicePointer_v2,                    \
      (CUdeviceptr *dptr, void *p, unsigned int flags), 0)                                  \
    X(CUresult, cuPointerGetAttribute, cuPointerGetAttribute,                               \
      (void *data, CUpointer_attribute attribute, CUdeviceptr ptr), 0)                      \
    X(CUresult, cuMemAllocPitch, cuMemAllocPitch_v2,                                        \
      (CUdeviceptr *dptr, size_t *pitch, size_t width, size_t height,                      \
       unsigned int elem_size), 0)                                                          \
    X(CUresult, cuMemcpy2D, cuMemcpy2D_v2, (const CUDA_MEMCPY2D *copy), 0)                  \
    X(CUresult, cuMemcpy2DAsync, cuMemcpy2DAsync_v2,                                        \
      (const CUDA_MEMCPY2D *copy, CUstream stream), 0)                                      \
    X(CUresult, cuMemcpyHtoDAsync, cuMemcpyHtoDAsync_v2,                                    \
      (CUdeviceptr dst, const void *src, size_t bytes, CUstream stream), 0)                 \
    X(CUresult, cuMemcpyDtoHAsync, cuMemcpyDtoHAsync_v2,                                    \
      (void *dst, CUdeviceptr src, size_t bytes, CUstream stream), 0)                       \
    X(CUresult, cuMemcpyDtoDAsync, cuMemcpyDtoDAsync_v2,                                    \
      (CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream), 0)                 \
    X(CUresult, cuMemsetD8Async, cuMemsetD8Async,                                           \
      (CUdeviceptr dst, unsigned char uc, size_t n, CUstream stream), 0)                    \
    X(CUresult, cuMemsetD16Async, cuMemsetD16Async,                                         \
      (CUdeviceptr dst, unsigned short us, size_t n, CUstream stream), 0)                   \
    X(CUresult, cuMemsetD32Async, cuMemsetD32Async,                                         \
      (CUdeviceptr dst, unsigned int ui, size_t n, CUstream stream), 0)                     \
    X(CUresult, cuMemcpyPeer, cuMemcpyPeer,                                                 \
      (CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src, CUcontext src_ctx,              \
       size_t bytes), 0)                                                                    \
    X(CUresult, cuDeviceCanAccessPeer, cuDeviceCanAccessPeer,                               \
      (int *can, CUdevice dev, CUdevice peer), 0)                                           \
    X(CUresult, cuCtxEnablePeerAccess, cuCtxEnablePeerAccess,                               \
      (CUcontext peer, unsigned int flags), 0)                                              \
    X(CUresult, cuMemAllocAsync, cuMemAllocAsync,                                           \
      (CUdeviceptr *dptr, size_t bytes, CUstream stream), 1)                                \
    X(CUresult, cuMemFreeAsync, cuMemFreeAsync, (CUdeviceptr dptr, CUstream stream), 1)    \
    X(CUresult, cuDeviceGetDefaultMemPool, cuDeviceGetDefaultMemPool,                       \
      (CUmemoryPool *pool, CUdevice dev), 1)                                                \
    X(CUresult, cuMemPoolSetAttribute, cuMemPoolSetAttribute,                               \
      (CUmemoryPool pool, CUmemPool_attribute attr, void *value), 1)                        \
    X(CUresult, cuMemPoolTrimTo, cuMemPoolTrimTo, (CUmemoryPool pool, size_t keep), 1)     \
    LAT_CUDA_TEXTURE_SYMS(X)

/* CUDA arrays, texture objects and surface objects (lattice/texture.h): every driver
 * since CUDA 5 has them. */
#define LAT_CUDA_TEXTURE_SYMS(X)                                                           \
    X(CUresult, cuArray3DCreate, cuArray3DCreate_v2,                                        \
      (CUarray *array, const CUDA_ARRAY3D_DESCRIPTOR *desc), 0)                             \
    X(CUresult, cuArrayDestroy, cuArrayDestroy, (CUarray array), 0)                         \
    X(CUresult, cuMemcpy3D, cuMemcpy3D_v2, (const CUDA_MEMCPY3D *copy), 0)                  \
    X(CUresult, cuTexObjectCreate, cuTexObjectCreate,                                       \
      (CUtexObject *tex, const CUDA_RESOURCE_DESC *res, const CUDA_TEXTURE_DESC *desc,      \
       const CUDA_RESOURCE_VIEW_DESC *view), 0)                                             \
    X(CUresult, cuTexObjectDestroy, cuTexObjectDestroy, (CUtexObject tex), 0)               \
    X(CUresult, cuSurfObjectCreate, cuSurfObjectCreate,                                     \
      (CUsurfObject *surf, const CUDA_RESOURCE_DESC *res), 0)                               \
    X(CUresult, cuSurfObjectDestroy, cuSurfObjectDestroy, (CUsurfObject surf), 0)

#define LAT_CUDA_NVRTC_SYMS(X)                                                             \
    X(nvrtcResult, nvrtcVersion, nvrtcVersion, (int *major, int *minor), 0)                 \
    X(const char *, nvrtcGetErrorString, nvrtcGetErrorString, (nvrtcResult result), 0)     \
    X(nvrtcResult, nvrtcCreateProgram, nvrtcCreateProgram,                                  \
      (nvrtcProgram *prog, const char *src, const char *name, int nheaders,                 \
       const char *const *headers, const char *const *include_names), 0)                    \
    X(nvrtcResult, nvrtcDestroyProgram, nvrtcDestroyProgram, (nvrtcProgram *prog), 0)      \
    X(nvrtcResult, nvrtcCompileProgram, nvrtcCompileProgram,                                \
      (nvrtcProgram prog, int nopts, const char *const *opts), 0)                           \
    X(nvrtcResult, nvrtcGetProgramLogSize, nvrtcGetProgramLogSize,                          \
      (nvrtcProgram prog, size_t *size), 0)                                                 \
    X(nvrtcResult, nvrtcGetProgramLog, nvrtcGetProgramLog, (nvrtcProgram prog, char *log), 0) \
    X(nvrtcResult, nvrtcGetPTXSize, nvrtcGetPTXSize, (nvrtcProgram prog, size_t *size), 0) \
    X(nvrtcResult, nvrtcGetPTX, nvrtcGetPTX, (nvrtcProgram prog, char *ptx), 0)            \
    X(nvrtcResult, nvrtcGetCUBINSize, nvrtcGetCUBINSize, (nvrtcProgram prog, size_t *size), 1) \
    X(nvrtcResult, nvrtcGetCUBIN, nvrtcGetCUBIN, (nvrtcProgram prog, char *cubin), 1)      \
    X(nvrtcResult, nvrtcAddNameExpression, nvrtcAddNameExpression,                          \
      (nvrtcProgram prog, const char *name_expression), 0)                                  \
    X(nvrtcResult, nvrtcGetLoweredName, nvrtcGetLoweredName,                                \
      (nvrtcProgram prog, const char *name_expression, const char **lowered_name), 0)       \
    X(nvrtcResult, nvrtcGetNumSupportedArchs, nvrtcGetNumSupportedArchs, (int *count), 1)  \
    X(nvrtcResult, nvrtcGetSupportedArchs, nvrtcGetSupportedArchs, (int *archs), 1)

#endif
