/* Device queries: resolve the backend, validate the ordinal, ask the backend. */
#include "backend_select.h"

#include <string.h>

lat_status lat_device_count(lat_backend_kind kind, int *count)
{
    LAT__API();
    if (!count)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "count is NULL");
    const lat__backend *b = NULL;
    lat_status st = lat__backend_get(NULL, kind, &b);
    if (st != LAT_OK)
        return st;
    return b->device_count(count);
}

lat_status lat__device_check(const lat_context *log_ctx, const lat__backend *b, int ordinal)
{
    int count = 0;
    lat_status st = b->device_count(&count);
    if (st != LAT_OK)
        return st;
    if (ordinal < 0 || ordinal >= count)
        return lat__error(log_ctx, LAT_ERROR_INVALID_DEVICE,
                          "device %d does not exist: backend %s has %d device%s (0..%d)", ordinal, b->name, count, count == 1 ? "" : "s",
                          count - 1);
    return LAT_OK;
}

lat_status lat_device_get_info(lat_backend_kind kind, int ordinal, lat_device_info *info)
{
    LAT__API();
    if (!info)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "info is NULL");
    const lat__backend *b = NULL;
    lat_status st = lat__backend_get(NULL, kind, &b);
    if (st != LAT_OK)
        return st;
    st = lat__device_check(NULL, b, ordinal);
    if (st != LAT_OK)
        return st;
    memset(info, 0, sizeof *info);
    return b->device_info(ordinal, info);
}
