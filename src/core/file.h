#ifndef LAT_FILE_H
#define LAT_FILE_H

#include "lattice.h"

#include <stddef.h>

/* Reads a whole file into a malloc'd buffer with a NUL after its last byte (an empty file
 * gives ""). *size, if size is not NULL, receives the length without that NUL.
 * Returns 0, or an errno value: the one fopen set, ENOMEM when out of memory, EIO when
 * reading failed. *out is untouched on failure. */
int lat__read_file(const char *path, char **out, size_t *size);

/* lat__read_file, with a failure recorded against ctx as LAT_ERROR_FILE (or
 * LAT_ERROR_OUT_OF_MEMORY), the message naming the public function fn and the path. */
lat_status lat__read_file_or_error(lat_context *ctx, const char *fn, const char *path,
                                   char **out, size_t *size);

#endif
