/*
 * What the caller of the front end says about the target it reads a program for: the
 * front end names no backend, so the target's own macros and the headers it writes as
 * source come in here (the emulator's compile/reader.c has its own).
 */
#ifndef LAT_FRONT_PROFILE_H
#define LAT_FRONT_PROFILE_H

#include "arena.h"

typedef struct lat__front_profile {
    /* #define lines read with the front end's own predefined macros (predef.h): the
     * target's __CUDA_ARCH__ and its name macro. May be NULL. */
    const char *predefined;
    /* The text of a header the target writes as source (cooperative_groups.h,
     * cuda_fp16.h, curand_kernel.h...), allocated in a, or NULL when name is not one.
     * Asked only for the headers headers.h calls built in. May be NULL. */
    const char *(*header_text)(lat__arena *a, const char *name);
} lat__front_profile;

#endif
