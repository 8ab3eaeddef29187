/* The headers the emulator provides as C++ source: cooperative groups (cg_header.c) and
 * cuda_fp16.h (fp16_header.c). */
#ifndef LAT_FRONT_CG_HEADER_H
#define LAT_FRONT_CG_HEADER_H

#include "front/arena.h"

/* The text of a header the emulator writes in C++ (cooperative_groups.h, cuda_fp16.h...),
 * in a, or NULL when name is not one. */
const char *lat__cxx_header_text(lat__arena *a, const char *name);

#endif
