/*
 * The few CUDA driver API and NVRTC declarations the CUDA backend needs, written out
 * here so that lattice builds on machines without the CUDA toolkit: cuda.h and nvrtc.h
 * are never included. The values are those of cuda.h / nvrtc.h (CUDA 11 to 13 agree on
 * them); header_check.c compares them with the real headers where those exist.
 */
#ifndef LAT_CUDA_API_H
#define LAT_CUDA_API_H

#include <stddef.h>

typedef int CUresult; /* an enum in cuda.h, passed and returned as int */
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef int CUdevice_attribute;
typedef int CUfunction_attribute;
typedef int CUjit_option;
typedef struct CUevent_st *CUevent;
typedef struct CUarray_st *CUarray;
typedef struct CUmemPoolHandle_st *CUmemoryPool;
typedef int CUmemorytype;
typedef int CUpointer_attribute;
typedef int CUmemPool_attribute;

/* cuda.h's CUDA_MEMCPY2D (the _v2 layout, which every driver since CUDA 3.2 takes);
 * header_check.c compares its layout with the real one. */
typedef struct lat__CUDA_MEMCPY2D {
    size_t srcXInBytes;
    size_t srcY;
    CUmemorytype srcMemoryType;
    const void *srcHost;
    unsigned long long srcDevice;
    CUarray srcArray;
    size_t srcPitch;
    size_t dstXInBytes;
    size_t dstY;
    CUmemorytype dstMemoryType;
    void *dstHost;
    unsigned long long dstDevice;
    CUarray dstArray;
    size_t dstPitch;
    size_t WidthInBytes;
    size_t Height;
} CUDA_MEMCPY2D;

/* The enum values, from the lists in cuda_values.h. */
#include "cuda_values.h"
#define LAT_CUDA_ENUM_(name, value) name = value,
enum { LAT_CUDA_RESULTS(LAT_CUDA_ENUM_) };
enum { LAT_CUDA_DEVICE_ATTRIBUTES(LAT_CUDA_ENUM_) };
enum { LAT_CUDA_FUNCTION_ATTRIBUTES(LAT_CUDA_ENUM_) };
enum { LAT_CUDA_JIT_OPTIONS(LAT_CUDA_ENUM_) };
enum { LAT_NVRTC_RESULTS(LAT_CUDA_ENUM_) };
enum { LAT_CUDA_DRIVER_VALUES(LAT_CUDA_ENUM_) };
#undef LAT_CUDA_ENUM_

typedef int nvrtcResult;
typedef struct _nvrtcProgram *nvrtcProgram;

/* The function-pointer types, one per entry of cuda_syms.h: lat__pfn_cuInit, ... */
#include "cuda_syms.h"
#define LAT_CUDA_PFN_(ret, name, symbol, params, optional) typedef ret(*lat__pfn_##name) params;
LAT_CUDA_DRIVER_SYMS(LAT_CUDA_PFN_)
LAT_CUDA_NVRTC_SYMS(LAT_CUDA_PFN_)
#undef LAT_CUDA_PFN_

#endif
