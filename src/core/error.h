/*
 * Failure messages. Every failing lattice call records a message in a per-thread buffer
 * (read back by lat_last_error()) and sends it to the context's logger.
 */
#ifndef LAT_ERROR_H
#define LAT_ERROR_H

#include "lattice.h"

#include <stdarg.h>

/* The public function this thread is inside, named in front of every failure it records,
 * so that no message spells its entry point by hand (and none names the wrong one: an
 * error inside lat_launch called by lat_launch_args is lat_launch_args's). Every public
 * function that can fail opens with LAT__API(); the outermost names the failures
 * (lat_array_add's allocation failing is lat_array_add's). */
typedef struct lat__api_scope {
    const char *opened; /* the name this scope set, or NULL inside an outer one */
} lat__api_scope;
lat__api_scope lat__api_open(const char *name);
void lat__api_close(const lat__api_scope *scope);
/* The public function this thread is inside, or NULL (a worker, a watchdog). */
const char *lat__api_name(void);
/* lat_last_error() without the current public function's name in front: for a message
 * that quotes an earlier failure inside a new one (which gets the name once). */
const char *lat__last_failure(void);
#define LAT__API()                                                                   \
    lat__api_scope lat__api_scope_ __attribute__((cleanup(lat__api_close), unused)) = \
        lat__api_open(__func__)

/* Records a failure of `status`: formats the message, puts the current public function's
 * name in front ("lat_mem_alloc: ..."; nothing outside one), stores it for lat_last_error()
 * on this thread, logs it as LAT_LOG_ERROR to ctx's logger (ctx may be NULL), and returns
 * `status` so that callers can write `return lat__error(ctx, LAT_ERROR_..., "...")`. */
lat_status lat__error(const lat_context *ctx, lat_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The one out-of-memory failure: "out of host memory", LAT_ERROR_OUT_OF_MEMORY, recorded
 * as lat__error does. */
lat_status lat__oom(const lat_context *ctx);
/* The same with what the memory was for: "out of host memory <fmt...>". */
lat_status lat__oom_for(const lat_context *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
lat_status lat__verror(const lat_context *ctx, lat_status status, const char *fmt,
                       va_list ap);
/* The same, logged already: stores the message for lat_last_error() without sending it to
 * the logger again (a checked launch's failure, whose reports were each logged once). */
lat_status lat__error_logged(lat_status status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Appends a string to a malloc'd, NUL-terminated buffer (*buf may be NULL). Returns 0,
 * or -1 when out of memory (leaving *buf as it was). Used to build logs and messages. */
int lat__strbuf_append(char **buf, size_t *len, const char *text, size_t text_len);
int lat__strbuf_printf(char **buf, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* strdup that returns NULL for NULL. */
char *lat__strdup(const char *s);

#endif
