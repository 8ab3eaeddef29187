/* #include resolution for the translator: the headers the prelude stands in for, the
 * CUDA headers the emulator does not support yet, and finding the others on disk. */
#ifndef LAT_EMU_HEADERS_H
#define LAT_EMU_HEADERS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum lat__header_kind {
    LAT__HEADER_FILE,        /* found on disk: *path_out */
    LAT__HEADER_BUILTIN,     /* stdio.h, math.h, cuda_runtime.h...: the prelude has it */
    LAT__HEADER_UNSUPPORTED, /* cuda_fp16.h, cooperative_groups.h...: not emulated yet */
    LAT__HEADER_MISSING,     /* not found anywhere */
    LAT__HEADER_NOMEM
} lat__header_kind;

/* Resolves `#include "name"` (quoted) or `#include <name>`: a quoted name is looked for
 * in from_dir first; then both forms in dirs_a and dirs_b (NULL-terminated, either may
 * be NULL), in order. An absolute name is taken as it is. */
lat__header_kind lat__header_resolve(const char *name, bool quoted, const char *from_dir,
                                     const char *const *dirs_a, const char *const *dirs_b,
                                     char **path_out);

/* The directory part of a path ("." when it has none), malloc'd; NULL when out of memory. */
char *lat__path_dir(const char *path);

/* Reads a whole file. Returns 0, or an errno value (ENOMEM, ENOENT, EISDIR, EILSEQ for a
 * file holding a NUL byte...). */
int lat__file_read(const char *path, char **text);

#endif
