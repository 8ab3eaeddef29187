#ifndef LAT_BACKEND_SELECT_H
#define LAT_BACKEND_SELECT_H

#include "backend.h"

/* Resolves a backend request (AUTO follows LATTICE_BACKEND, then the first available
 * backend) to an available backend. Errors are recorded against log_ctx (may be NULL). */
lat_status lat__backend_get(const lat_context *log_ctx, lat_backend_kind kind,
                            const lat__backend **out);

/* LAT_OK when `ordinal` names a device of backend b; else LAT_ERROR_INVALID_DEVICE with a
 * message naming `caller` and the valid range. */
lat_status lat__device_check(const lat_context *log_ctx, const lat__backend *b, int ordinal);

#endif
