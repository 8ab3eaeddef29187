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

/* CUDA arrays and texture objects: cuda.h's structs (their _v1 / _v2 layouts, which every
 * driver since CUDA 5 takes); header_check.c compares their layouts with the real ones. */
typedef unsigned long long CUtexObject;
typedef unsigned long long CUsurfObject;
typedef struct CUDA_RESOURCE_VIEW_DESC_st CUDA_RESOURCE_VIEW_DESC; /* never made: NULL */

typedef struct lat__CUDA_ARRAY3D_DESCRIPTOR {
    size_t Width;
    size_t Height;
    size_t Depth;
    int Format; /* CUarray_format */
    unsigned int NumChannels;
    unsigned int Flags;
} CUDA_ARRAY3D_DESCRIPTOR;

typedef struct lat__CUDA_MEMCPY3D {
    size_t srcXInBytes, srcY, srcZ, srcLOD;
    CUmemorytype srcMemoryType;
    const void *srcHost;
    unsigned long long srcDevice;
    CUarray srcArray;
    void *reserved0;
    size_t srcPitch, srcHeight;
    size_t dstXInBytes, dstY, dstZ, dstLOD;
    CUmemorytype dstMemoryType;
    void *dstHost;
    unsigned long long dstDevice;
    CUarray dstArray;
    void *reserved1;
    size_t dstPitch, dstHeight;
    size_t WidthInBytes, Height, Depth;
} CUDA_MEMCPY3D;

typedef struct lat__CUDA_RESOURCE_DESC {
    int resType; /* CUresourcetype */
    union {
        struct {
            CUarray hArray;
        } array;
        struct {
            unsigned long long devPtr;
            int format; /* CUarray_format */
            unsigned int numChannels;
            size_t sizeInBytes;
        } linear;
        struct {
            unsigned long long devPtr;
            int format;
            unsigned int numChannels;
            size_t width;
            size_t height;
            size_t pitchInBytes;
        } pitch2D;
        struct {
            int reserved[32];
        } reserved;
    } res;
    unsigned int flags;
} CUDA_RESOURCE_DESC;

typedef struct lat__CUDA_TEXTURE_DESC {
    int addressMode[3]; /* CUaddress_mode */
    int filterMode;     /* CUfilter_mode */
    unsigned int flags;
    unsigned int maxAnisotropy;
    int mipmapFilterMode;
    float mipmapLevelBias;
    float minMipmapLevelClamp;
    float maxMipmapLevelClamp;
    float borderColor[4];
    int reserved[12];
} CUDA_TEXTURE_DESC;

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
