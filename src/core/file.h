#ifndef LAT_FILE_H
#define LAT_FILE_H

#include "lattice.h"

#include <stddef.h>

/* The largest file lattice reads (a source, a header, a PTX or CUBIN image). */
#define LAT__READ_MAX ((size_t)256 << 20)

/* Reads a whole regular file into a malloc'd buffer with a NUL after its last byte (an empty file
 * gives ""). *size, if size is not NULL, receives the length without that NUL.
 * Returns 0, or an errno value: the one open set, ENOMEM when out of memory, EIO when
 * reading failed, EISDIR for a directory, ENODEV for anything else that is not a regular
 * file (a FIFO, a device: never opened for long, never waited on), EFBIG above
 * LAT__READ_MAX. *out is untouched on failure. */
int lat__read_file(const char *path, char **out, size_t *size);

/* lat__read_file with a lower cap than LAT__READ_MAX (EFBIG above max). */
int lat__read_file_max(const char *path, size_t max, char **out, size_t *size);

/* lat__read_file, with a failure recorded against ctx as LAT_ERROR_FILE (or
 * LAT_ERROR_OUT_OF_MEMORY), the message naming the public function fn and the path. */
lat_status lat__read_file_or_error(lat_context *ctx, const char *path,
                                   char **out, size_t *size);

#endif
