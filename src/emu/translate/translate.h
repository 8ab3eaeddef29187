/*
 * The CUDA C to C translator. Its output, compiled after the prelude, is the user's
 * source with:
 *   - every __global__ and __device__ function taking a hidden first parameter
 *     `lat_emu_thread *__lat_t`, and every call to a __device__ function passing it on
 *     (threadIdx and friends are the prelude's reads through it);
 *   - after each kernel's body, on the same line, its entry (a loop over the block's
 *     threads) and its parameter-size query (abi.h);
 *   - extern "C" removed, C++'s functional casts and struct tags made C;
 *   - every #include of the user's resolved and inlined between #line markers (system
 *     and CUDA headers are the prelude's), so that each user token stays on its line and
 *     TinyCC's errors name the user's file and line.
 * Constructs outside the dialect (docs/dialect.md) are rejected here, with line and
 * column, in the regions of the source that the preprocessor may keep.
 */
#ifndef LAT_EMU_TRANSLATE_H
#define LAT_EMU_TRANSLATE_H

#include "lattice.h"

#include <stdbool.h>

typedef struct lat__translate_in {
    const char *text; /* the user's source */
    const char *name; /* its file name, for messages and quoted #includes */
    const char *const *include_dirs;        /* NULL-terminated, may be NULL */
    const char *const *option_include_dirs; /* from -I options, searched after */
    const char *const *defines;   /* "NAME" or "NAME=VALUE", NULL-terminated, may be NULL */
    const char *const *undefines; /* names, from -U */
    bool checked; /* for the checks (check/ck.h): shared names kept, hooks for region loops */
    bool fibers;  /* every kernel with barriers (or, checked, every kernel) on fibers */
    bool no_fmad; /* --fmad=false */
} lat__translate_in;

typedef struct lat__translate_out {
    char *text;     /* the C source (without the prelude) */
    char **kernels; /* the __global__ functions defined, by name */
    int nkernels;
    bool uses_vectors; /* names a vector type (lat__emu_is_vector_type) */
    unsigned prelude_parts; /* the optional parts of the prelude it needs (prelude.h) */
    char **globals;    /* the __device__ and __constant__ variables at file scope */
    int nglobals;
    char *msg;      /* on failure: every error found, one per line */
} lat__translate_out;

/* Translates. On failure returns LAT_ERROR_UNSUPPORTED (a construct outside the dialect),
 * LAT_ERROR_FILE (an #include not found or unreadable) or LAT_ERROR_OUT_OF_MEMORY, with
 * out->msg set (except for OOM, where it may be NULL). *out is zeroed first; free it with
 * lat__translate_out_free either way. */
lat_status lat__emu_translate(const lat__translate_in *in, lat__translate_out *out);
void lat__translate_out_free(lat__translate_out *out);

#endif
