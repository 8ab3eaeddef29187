/* The headers the emulator provides as C++ source: cooperative groups (cg_header.c) and
 * cuda_fp16.h (fp16_header.c). */
#ifndef LAT_EMU_CG_HEADER_H
#define LAT_EMU_CG_HEADER_H

#include "front/arena.h"

/* The text of a header the emulator writes in C++ (cooperative_groups.h, cuda_fp16.h...),
 * in a, or NULL when name is not one. */
const char *lat__cxx_header_text(lat__arena *a, const char *name);

/* The emulator's target for the front end (reader.c): its macros and these headers. */
struct lat__front_profile;
extern const struct lat__front_profile lat__emu_profile;

#endif
