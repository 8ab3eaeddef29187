/*
 * The layouts of cuda.h's texture structs, as numbers: included where cuda_api.h's copies
 * are used (texture.c) and where the real cuda.h is (header_check.c, with the toolkit), so
 * that both are held to the same ones. Needs <stddef.h> and the structs' declarations.
 */
#ifndef LAT_CUDA_TEXTURE_LAYOUTS_H
#define LAT_CUDA_TEXTURE_LAYOUTS_H

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

#endif
