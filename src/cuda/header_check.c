/*
 * Built only where the CUDA toolkit's headers exist, and never linked: it fails the build
 * if a value in cuda_values.h or a signature in cuda_syms.h differs from cuda.h / nvrtc.h.
 * (The backend itself never includes them, so that lattice builds without the toolkit.)
 */
#include <cuda.h>
#include <nvrtc.h>

#include "cuda_syms.h"
#include "cuda_values.h"

#define LAT_CHECK_VALUE_(name, value) _Static_assert((int)(name) == (value), #name);
LAT_CUDA_RESULTS(LAT_CHECK_VALUE_)
LAT_CUDA_DEVICE_ATTRIBUTES(LAT_CHECK_VALUE_)
LAT_CUDA_FUNCTION_ATTRIBUTES(LAT_CHECK_VALUE_)
LAT_CUDA_JIT_OPTIONS(LAT_CHECK_VALUE_)
LAT_CUDA_DRIVER_VALUES(LAT_CHECK_VALUE_)
LAT_NVRTC_RESULTS(LAT_CHECK_VALUE_)
#undef LAT_CHECK_VALUE_

/* Our function types, written with the real headers' types, must accept the real
 * functions: a differing parameter or return type is a compile error under -Werror. */
#define LAT_CHECK_FN_(ret, name, symbol, params, optional) ret(*lat__check_##name) params = symbol;
LAT_CUDA_DRIVER_SYMS(LAT_CHECK_FN_)
LAT_CUDA_NVRTC_SYMS(LAT_CHECK_FN_)
#undef LAT_CHECK_FN_

/* Our copy of CUDA_MEMCPY2D (cuda_api.h) must have the real one's layout. */
#include <stddef.h>
_Static_assert(sizeof(CUDA_MEMCPY2D) == 128, "CUDA_MEMCPY2D");
_Static_assert(offsetof(CUDA_MEMCPY2D, srcMemoryType) == 16, "srcMemoryType");
_Static_assert(offsetof(CUDA_MEMCPY2D, srcHost) == 24, "srcHost");
_Static_assert(offsetof(CUDA_MEMCPY2D, srcPitch) == 48, "srcPitch");
_Static_assert(offsetof(CUDA_MEMCPY2D, dstMemoryType) == 72, "dstMemoryType");
_Static_assert(offsetof(CUDA_MEMCPY2D, dstPitch) == 104, "dstPitch");
_Static_assert(offsetof(CUDA_MEMCPY2D, WidthInBytes) == 112, "WidthInBytes");

/* Our copies of the texture structs (cuda_api.h) must have the real ones' layouts. */
_Static_assert(sizeof(CUDA_ARRAY3D_DESCRIPTOR) == 40, "CUDA_ARRAY3D_DESCRIPTOR");
_Static_assert(offsetof(CUDA_ARRAY3D_DESCRIPTOR, Format) == 24, "Format");
_Static_assert(offsetof(CUDA_ARRAY3D_DESCRIPTOR, Flags) == 32, "Flags");
_Static_assert(sizeof(CUDA_MEMCPY3D) == 200, "CUDA_MEMCPY3D");
_Static_assert(offsetof(CUDA_MEMCPY3D, srcMemoryType) == 32, "CUDA_MEMCPY3D.srcMemoryType");
_Static_assert(offsetof(CUDA_MEMCPY3D, srcArray) == 56, "CUDA_MEMCPY3D.srcArray");
_Static_assert(offsetof(CUDA_MEMCPY3D, srcPitch) == 72, "CUDA_MEMCPY3D.srcPitch");
_Static_assert(offsetof(CUDA_MEMCPY3D, dstMemoryType) == 120, "CUDA_MEMCPY3D.dstMemoryType");
_Static_assert(offsetof(CUDA_MEMCPY3D, dstArray) == 144, "CUDA_MEMCPY3D.dstArray");
_Static_assert(offsetof(CUDA_MEMCPY3D, WidthInBytes) == 176, "CUDA_MEMCPY3D.WidthInBytes");
_Static_assert(sizeof(CUDA_RESOURCE_DESC) == 144, "CUDA_RESOURCE_DESC");
_Static_assert(offsetof(CUDA_RESOURCE_DESC, res) == 8, "CUDA_RESOURCE_DESC.res");
_Static_assert(offsetof(CUDA_RESOURCE_DESC, res.pitch2D.pitchInBytes) == 40, "pitchInBytes");
_Static_assert(offsetof(CUDA_RESOURCE_DESC, flags) == 136, "CUDA_RESOURCE_DESC.flags");
_Static_assert(sizeof(CUDA_TEXTURE_DESC) == 104, "CUDA_TEXTURE_DESC");
_Static_assert(offsetof(CUDA_TEXTURE_DESC, flags) == 16, "CUDA_TEXTURE_DESC.flags");
_Static_assert(offsetof(CUDA_TEXTURE_DESC, borderColor) == 40, "CUDA_TEXTURE_DESC.borderColor");
_Static_assert(sizeof(CUtexObject) == 8 && sizeof(CUsurfObject) == 8, "CUtexObject");

/* Our opaque handles and integer types must have the real ones' sizes. */
_Static_assert(sizeof(CUdeviceptr) == sizeof(unsigned long long), "CUdeviceptr");
_Static_assert(sizeof(CUresult) == sizeof(int), "CUresult");
_Static_assert(sizeof(CUdevice) == sizeof(int), "CUdevice");
_Static_assert(sizeof(CUdevice_attribute) == sizeof(int), "CUdevice_attribute");
_Static_assert(sizeof(CUjit_option) == sizeof(int), "CUjit_option");
_Static_assert(sizeof(nvrtcResult) == sizeof(int), "nvrtcResult");
