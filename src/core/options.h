/* A module's compiler options as lattice reads them (options.c). */
#ifndef LAT_OPTIONS_H
#define LAT_OPTIONS_H

#include "core.h"

#include <stdbool.h>

typedef struct lat__options {
    const char **defines;      /* NULL-terminated: the module's, then -D's */
    const char **undefines;    /* NULL-terminated: -U's */
    const char **include_dirs; /* NULL-terminated: -I's */
    bool no_warnings;          /* -w */
    bool no_fmad;              /* --fmad=false */
} lat__options;

/* Reads src->options and src->defines. strict: an option lattice does not know is
 * LAT_ERROR_INVALID_OPTION naming it (the emulator, which must know what each means); not
 * strict: it is skipped (a backend may know it). Errors also for a malformed define;
 * LAT_ERROR_OUT_OF_MEMORY. Free with lat__options_free either way. */
lat_status lat__options_read(lat_context *ctx, const lat__source *src, bool strict, lat__options *o);
void lat__options_free(lat__options *o);

#endif
