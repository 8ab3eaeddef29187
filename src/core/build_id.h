/* The build of lattice this process runs, for cache entries that record what lattice's own
 * code made of an input and so must not outlive that code (the optimising tier's source index). */
#ifndef LAT_BUILD_ID_H
#define LAT_BUILD_ID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The GNU build ID (ld --build-id: a hash of the linked output) of the object holding
 * lattice's code: the shared library, or a program linked with its objects. False when
 * that object has none (a linker run without it); *id then NULL. Any thread. */
bool lat__build_id(const uint8_t **id, size_t *len);

#endif
