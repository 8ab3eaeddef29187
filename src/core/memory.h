#ifndef LAT_MEMORY_H
#define LAT_MEMORY_H

#include "core.h"

/* Frees every allocation still live in ctx (at context destruction), logging a warning
 * that names how many and how many bytes. */
void lat__mem_release_all(lat_context *ctx);

/* Allocation without the public entry's argument checks, for the core's own temporary
 * buffers (In/Out arguments). bytes > 0. */
lat_status lat__mem_alloc(lat_context *ctx, size_t bytes, lat_deviceptr *out);
/* An allocation the library keeps for the context's life (lat__alloc.own): freed at its
 * destruction, but not counted among the program's leaks. bytes > 0. */
lat_status lat__mem_alloc_own(lat_context *ctx, size_t bytes, lat_deviceptr *out);
lat_status lat__mem_free(lat_context *ctx, lat_deviceptr ptr);

/* Adds / removes an allocation made by other means (pitched, stream-ordered) to / from
 * the table; untrack returns false when base is not the start of a live allocation. */
lat_status lat__mem_track(lat_context *ctx, lat_deviceptr base, size_t size);
bool lat__mem_untrack(lat_context *ctx, lat_deviceptr base);

/* Checks a memset's destination for `fn`: aligned to elem (1, 2 or 4), count * elem not
 * overflowing, and, when count > 0, inside one live allocation. */
lat_status lat__memset_check(lat_context *ctx, lat_deviceptr dst, size_t elem,
                             size_t count);

#endif
