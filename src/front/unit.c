/* The translation unit's file table and diagnostics: see unit.h. */
#include "unit.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

uint32_t lat__unit_add_file(lat__unit *u, const char *path, const char *display,
                            const char *text, size_t len)
{
    lat__srcfile f = {.path = path, .display = display, .text = text, .len = len};
    LAT_PUSH(&u->arena, u->files, f);
    return (uint32_t)(u->files.n - 1);
}

const char *lat__loc_file(const lat__unit *u, lat__loc loc)
{
    if (loc.file < u->files.n && u->files.items[loc.file].display)
        return u->files.items[loc.file].display;
    return "<unknown>";
}

void lat__diag_at(lat__unit *u, lat__loc loc, lat__severity sev, lat_status status,
                  const char *fmt, ...)
{
    if (sev == LAT_SEV_ERROR) {
        if (u->status == LAT_OK)
            u->status = status;
        if (++u->nerrors > LAT_FRONT_MAX_ERRORS)
            return;
    }
    char body[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    static const char *const words[] = {"error", "warning", "note"};
    const char *msg;
    if (loc.line)
        msg = lat__arena_printf(&u->arena, "%s:%u:%u: %s: %s", lat__loc_file(u, loc), loc.line,
                                loc.col, words[sev], body);
    else
        msg = lat__arena_printf(&u->arena, "%s: %s: %s", lat__loc_file(u, loc), words[sev], body);
    lat__diag d = {loc, sev, status, msg};
    LAT_PUSH(&u->arena, u->diags, d);
}

void lat__unsupported_at(lat__unit *u, lat__loc loc, const char *what, const char *why)
{
    lat__diag_at(u, loc, LAT_SEV_ERROR, LAT_ERROR_UNSUPPORTED,
                 "%s is not supported by the lattice emulator yet (%s)", what, why);
}

const char *lat__unit_messages(lat__unit *u, bool warnings)
{
    size_t total = 1;
    for (size_t i = 0; i < u->diags.n; i++)
        if (warnings || u->diags.items[i].severity == LAT_SEV_ERROR)
            total += strlen(u->diags.items[i].msg) + 1;
    if (total == 1 && u->nerrors <= LAT_FRONT_MAX_ERRORS)
        return NULL;
    char *p = lat__arena_alloc(&u->arena, total + 64), *at = p;
    for (size_t i = 0; i < u->diags.n; i++) {
        const lat__diag *d = &u->diags.items[i];
        if (!warnings && d->severity != LAT_SEV_ERROR)
            continue;
        size_t n = strlen(d->msg);
        if (at != p)
            *at++ = '\n';
        memcpy(at, d->msg, n);
        at += n;
    }
    if (u->nerrors > LAT_FRONT_MAX_ERRORS)
        sprintf(at, "%s(%d more errors not shown)", at != p ? "\n" : "",
                u->nerrors - LAT_FRONT_MAX_ERRORS);
    else
        *at = '\0';
    return p;
}
