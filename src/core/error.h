/*
 * Failure messages. Every failing lattice call records a message in a per-thread buffer
 * (read back by lat_last_error()) and sends it to the context's logger.
 */
#ifndef LAT_ERROR_H
#define LAT_ERROR_H

#include "lattice.h"

#include <stdarg.h>

/* Records a failure of `status`: formats the message, stores it for lat_last_error() on
 * this thread, logs it as LAT_LOG_ERROR to ctx's logger (ctx may be NULL), and returns
 * `status` so that callers can write `return lat__error(ctx, LAT_ERROR_..., "...")`. */
lat_status lat__error(const lat_context *ctx, lat_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The one out-of-memory failure: "<fn>: out of host memory", LAT_ERROR_OUT_OF_MEMORY,
 * recorded as lat__error does; fn names the public function called. */
lat_status lat__oom(const lat_context *ctx, const char *fn);
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
