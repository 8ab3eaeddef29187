/* The C text compiled in front of every translated kernel (prelude.c). */
#ifndef LAT_EMU_PRELUDE_H
#define LAT_EMU_PRELUDE_H

#include <stdbool.h>
#include <stddef.h>

/* The compute capability the emulator reports and defines as __CUDA_ARCH__. */
#define LAT_EMU_CC_MAJOR 8
#define LAT_EMU_CC_MINOR 0
#define LAT_EMU_CUDA_ARCH 800

/* The prelude, built on first use; NULL only when out of memory. The vector types
 * (float4, make_int2...) are a sixth of its compile time: only a program that names one
 * needs them. */
const char *lat__emu_prelude(bool with_vectors);
/* The prelude with only some of its optional parts: a program gets those it names
 * something of (lat__emu_prelude_part tells which a name needs). */
enum {
    LAT_EMU_PRELUDE_VECTORS = 1,    /* float4, make_int2... */
    LAT_EMU_PRELUDE_SYNC = 2,       /* barriers, warp operations */
    LAT_EMU_PRELUDE_ATOMICS = 4,    /* atomics, fences */
    LAT_EMU_PRELUDE_INTRINSICS = 8, /* rounding modes, conversions, __sad, __byte_perm... */
    LAT_EMU_PRELUDE_ARITH = 16,     /* GPU shifts and saturating conversions (__lat_shl_i32...) */
    LAT_EMU_PRELUDE_ALL = 31
};
const char *lat__emu_prelude_parts(unsigned parts);
unsigned lat__emu_prelude_part(const char *name, size_t len);
/* Whether a name is one of those types or their make_ functions (uint3 and dim3, the
 * index types, are always there). */
bool lat__emu_is_vector_type(const char *name, size_t len);

#endif
