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
    bool device_debug;         /* -G, --device-debug: built for a debugger (docs/debugging.md) */
    /* The first option lattice does not know, or NULL: the emulator refuses it (it must
     * know what each means), NVRTC may know it. */
    const char *unknown;
} lat__options;

/* Reads src->options and src->defines, once per module (module.c; the backends get the
 * result in lat__source.opts). An option lattice does not know goes into o->unknown for
 * the backend to judge. Errors: LAT_ERROR_INVALID_OPTION for a malformed define or
 * option, naming it; LAT_ERROR_OUT_OF_MEMORY. Free with lat__options_free either way. */
lat_status lat__options_read(lat_context *ctx, const lat__source *src, lat__options *o);
void lat__options_free(lat__options *o);

#endif
