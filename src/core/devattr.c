/* Device attributes by name, and peer queries: resolve the backend, check the ordinals,
 * ask the backend. */
#include "backend_select.h"
#include "devattr_table.h"
#include "driver_ops.h"

#include <ctype.h>
#include <string.h>

static const char *const names[] = {
#define LAT_NAME_(name, value) #name,
    LAT_DEVICE_ATTRIBUTES(LAT_NAME_)
#undef LAT_NAME_
    NULL,
};

const char *const *lat_device_attribute_names(size_t *count)
{
    if (count)
        *count = sizeof names / sizeof names[0] - 1;
    return names;
}

lat_status lat_device_attribute(lat_backend_kind kind, int ordinal, const char *name, int *value)
{
    LAT__API();
    if (!name || !value)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "%s is NULL", name ? "value" : "name");
    *value = 0;
    const lat__backend *b = NULL;
    lat_status st = lat__backend_get(NULL, kind, &b);
    if (st == LAT_OK)
        st = lat__device_check(NULL, b, ordinal);
    if (st != LAT_OK)
        return st;
    /* Accept cuda.h's full name and any case: "CU_DEVICE_ATTRIBUTE_WARP_SIZE", "warp_size". */
    char upper[96];
    size_t n = strlen(name);
    if (n >= sizeof upper)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "unknown attribute '%.40s...'", name);
    for (size_t i = 0; i <= n; i++)
        upper[i] = (char)toupper((unsigned char)name[i]);
    const char *bare = strncmp(upper, "CU_DEVICE_ATTRIBUTE_", 20) == 0 ? upper + 20 : upper;
    for (const char *const *p = names; *p; p++)
        if (strcmp(*p, bare) == 0)
            return b->driver->device_attribute(ordinal, *p, value);
    return lat__error(NULL, LAT_ERROR_INVALID_VALUE,
                      "unknown attribute '%s' (lat_device_attribute_names() lists the %zu "
                      "names lattice knows, e.g. MAX_THREADS_PER_BLOCK)",
                      name, sizeof names / sizeof names[0] - 1);
}

lat_status lat_device_can_access_peer(lat_backend_kind kind, int ordinal, int peer, int *can)
{
    LAT__API();
    if (!can)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "can is NULL");
    *can = 0;
    const lat__backend *b = NULL;
    lat_status st = lat__backend_get(NULL, kind, &b);
    if (st == LAT_OK)
        st = lat__device_check(NULL, b, ordinal);
    if (st == LAT_OK)
        st = lat__device_check(NULL, b, peer);
    if (st != LAT_OK || ordinal == peer)
        return st;
    return b->driver->can_access_peer(ordinal, peer, can);
}

lat_status lat_backend_driver_version(lat_backend_kind kind, int *version)
{
    LAT__API();
    if (!version)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "version is NULL");
    *version = 0;
    const lat__backend *b = NULL;
    lat_status st = lat__backend_get(NULL, kind, &b);
    return st != LAT_OK ? st : b->driver->driver_version(version);
}
