/* #include resolution: the headers the emulator's prelude stands in for (their macros
 * are predefined), the CUDA headers it does not support yet, and finding the others on
 * disk. Used by the preprocessor (pp_include.c). */
#ifndef LAT_FRONT_HEADERS_H
#define LAT_FRONT_HEADERS_H

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
 * be NULL), in order. An absolute name is taken as it is. A directory is never a header
 * (the search goes on past it); anything else that exists is found, and reading it says
 * whether it is a regular file. */
lat__header_kind lat__header_resolve(const char *name, bool quoted, const char *from_dir,
                                     const char *const *dirs_a, const char *const *dirs_b,
                                     char **path_out);

/* The same for #include_next as well: the search of dirs_a then dirs_b (numbered 0, 1...
 * across both) starts at position `first` (0 for a plain #include), from_dir is searched
 * only when it is not NULL, and *found_at is set to the position where the header was
 * found (-1: in from_dir, as an absolute name, or not on disk). */
lat__header_kind lat__header_resolve_next(const char *name, bool quoted, const char *from_dir,
                                          const char *const *dirs_a,
                                          const char *const *dirs_b, int first,
                                          char **path_out, int *found_at);

/* The directory part of a path ("." when it has none), malloc'd; NULL when out of memory. */
char *lat__path_dir(const char *path);

/* The largest file lat__file_read reads: a header this big is a mistake, not a kernel. */
#define LAT__FILE_MAX ((size_t)64 << 20)

/* Reads a whole regular file (never blocking on a FIFO or a terminal, never reading more
 * than LAT__FILE_MAX bytes). Returns 0, or an errno value: ENOMEM, ENOENT, EISDIR, ENODEV
 * for something that is not a regular file (a FIFO, a device), EFBIG for one larger than
 * LAT__FILE_MAX, EILSEQ for a file holding a NUL byte (so that strlen(*text) is its
 * length). *text is malloc'd. */
int lat__file_read(const char *path, char **text);

#endif
