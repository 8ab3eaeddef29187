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
#include "texture_layouts.h"
_Static_assert(sizeof(CUtexObject) == 8 && sizeof(CUsurfObject) == 8, "CUtexObject");

/* Our opaque handles and integer types must have the real ones' sizes. */
_Static_assert(sizeof(CUdeviceptr) == sizeof(unsigned long long), "CUdeviceptr");
_Static_assert(sizeof(CUresult) == sizeof(int), "CUresult");
_Static_assert(sizeof(CUdevice) == sizeof(int), "CUdevice");
_Static_assert(sizeof(CUdevice_attribute) == sizeof(int), "CUdevice_attribute");
_Static_assert(sizeof(CUjit_option) == sizeof(int), "CUjit_option");
_Static_assert(sizeof(nvrtcResult) == sizeof(int), "nvrtcResult");
