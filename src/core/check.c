/*
 * The checks as core sees them (lattice/check.h): which checks a context asks for, from
 * its descriptor or LATTICE_CHECK. A backend that runs them (the emulator) attaches its
 * observers to the context in its context_create; core only says so when a context asked
 * for checks its backend does not run.
 */
#include "core.h"
#include "env.h"
#include "error.h"
#include "lattice/check.h"

#include <stdbool.h>
#include <string.h>

lat_status lat_check_parse_modes(const char *text, unsigned *modes)
{
    LAT__API();
    if (!text || !modes)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "%s is NULL", text ? "modes" : "text");
    static const struct {
        const char *name;
        unsigned bits;
    } words[] = {{"memcheck", LAT_CHECK_MEMCHECK}, {"racecheck", LAT_CHECK_RACECHECK},
                 {"synccheck", LAT_CHECK_SYNCCHECK}, {"initcheck", LAT_CHECK_INITCHECK},
                 {"all", LAT_CHECK_ALL}, {"none", 0},
                 {"profile", LAT_CHECK_PROFILE}}; /* not a check: lattice/profile.h */
    unsigned m = 0;
    const char *p = text;
    while (*p) {
        size_t n = strcspn(p, ", ");
        if (n > 0) {
            bool known = false;
            for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
                if (strlen(words[k].name) == n && strncmp(words[k].name, p, n) == 0) {
                    m |= words[k].bits;
                    known = true;
                }
            if (!known)
                return lat__error(NULL, LAT_ERROR_INVALID_VALUE,
                                  "'%.*s' is not a check (memcheck, "
                                  "racecheck, synccheck, initcheck, all or none)", (int)n, p);
        }
        p += n;
        while (*p == ',' || *p == ' ')
            p++;
    }
    *modes = m;
    return LAT_OK;
}

lat_status lat__check_requested(lat_context *ctx, const lat_context_desc *desc, unsigned *modes)
{
    unsigned m = desc ? desc->check : 0;
    *modes = 0;
    if (m & LAT_CHECK_OFF)
        return LAT_OK;
    if (m == 0) {
        const char *env = lat__env(LAT_ENV_CHECK);
        if (env && lat_check_parse_modes(env, &m) != LAT_OK)
            return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "LATTICE_CHECK: %s",
                              lat__last_failure());
    }
    if (lat__env_on(LAT_ENV_PROFILE))
        m |= LAT_CHECK_PROFILE; /* lattice/profile.h */
    *modes = m & (LAT_CHECK_ALL | LAT_CHECK_PROFILE);
    return LAT_OK;
}
