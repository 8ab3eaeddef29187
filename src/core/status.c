/* The status table's strings and the version: everything generated from lattice.h. */
#include "lattice.h"

int lat_version(void)
{
    return LAT_VERSION_NUMBER;
}

const char *lat_version_string(void)
{
    return LAT_VERSION_STRING;
}

const char *lat_status_name(lat_status status)
{
    switch (status) {
#define XX(name, value, text) \
    case LAT_##name:          \
        return "LAT_" #name;
        LAT_STATUS_MAP(XX)
#undef XX
    }
    return "LAT_UNKNOWN_STATUS";
}

const char *lat_status_string(lat_status status)
{
    switch (status) {
#define XX(name, value, text) \
    case LAT_##name:          \
        return text;
        LAT_STATUS_MAP(XX)
#undef XX
    }
    return "unknown status";
}
