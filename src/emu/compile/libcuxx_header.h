/* The libcu++ headers kernels include (libcuxx_header.c): <cuda/std/cstdint>, <limits>,
 * <utility>, <array>, <functional>, written as C++ the front end takes. */
#ifndef LAT_FRONT_LIBCUXX_HEADER_H
#define LAT_FRONT_LIBCUXX_HEADER_H

/* The lines of the header `name` ("cuda/std/limits"), NULL-terminated, or NULL. */
const char *const *lat__libcuxx_header_lines(const char *name);

#endif
