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
 * nvrtcGetCUBIN and the architecture queries: NVRTC before 11.1 / 11.2).
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
    X(CUresult, cuFuncGetAttribute, cuFuncGetAttribute,                                     \
      (int *value, CUfunction_attribute attrib, CUfunction fn), 0)                          \
    X(CUresult, cuFuncGetParamInfo, cuFuncGetParamInfo,                                     \
      (CUfunction fn, size_t index, size_t *offset, size_t *size), 1)                       \
    X(CUresult, cuLaunchKernel, cuLaunchKernel,                                             \
      (CUfunction fn, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,   \
       unsigned int by, unsigned int bz, unsigned int shared_bytes, CUstream stream,        \
       void **params, void **extra), 0)

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
