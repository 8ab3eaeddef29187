/* Failure messages: a per-thread buffer behind lat_last_error(), and the logger. */
#include "core.h"
#include "core/alloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A thread's message lives in memory owned by a pthread key, so that it is freed when the
 * thread exits (C11 _Thread_local has no destructor). */
static pthread_key_t message_key;
static pthread_once_t message_once = PTHREAD_ONCE_INIT;

/* Used when the message itself cannot be allocated. */
static const char out_of_memory_message[] = "out of host memory while reporting an error";

static void free_message(void *p)
{
    free(p);
}

static void make_key(void)
{
    (void)pthread_key_create(&message_key, free_message);
}

static void set_message(char *msg)
{
    pthread_once(&message_once, make_key);
    free(pthread_getspecific(message_key));
    (void)pthread_setspecific(message_key, msg);
}

const char *lat_last_error(void)
{
    pthread_once(&message_once, make_key);
    const char *msg = pthread_getspecific(message_key);
    return msg ? msg : "";
}

/* A pointer to a static string: nothing to free as the thread exits. */
static _Thread_local const char *current_api;

lat__api_scope lat__api_open(const char *name)
{
    if (current_api)
        return (lat__api_scope){NULL};
    current_api = name;
    return (lat__api_scope){name};
}

void lat__api_close(const lat__api_scope *scope)
{
    if (scope->opened)
        current_api = NULL;
}

const char *lat__api_name(void)
{
    return current_api;
}

static char *vformat(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return NULL;
    char *s = lat__malloc((size_t)n + 1);
    if (s)
        vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

/* To the context's logger; without one, to stderr when LATTICE_LOG lets the level through
 * (warnings and errors by default), so that a leak or a check being on is never silent. */
static bool stderr_gets(const lat_context *ctx, lat_log_level level)
{
    return !(ctx && ctx->logger.func) && (int)level <= lat__env_log_level();
}

int lat_log_stderr_level(void)
{
    return lat__env_log_level();
}

static void log_text(const lat_context *ctx, lat_log_level level, const char *text)
{
    if (ctx && ctx->logger.func) {
        ctx->logger.func(ctx->logger.user_data, level, text);
        return;
    }
    if (stderr_gets(ctx, level))
        fprintf(stderr, "lattice: %s: %s\n",
                level == LAT_LOG_ERROR ? "error" : level == LAT_LOG_WARNING ? "warning" : "info",
                text);
}

void lat_report_failure(lat_status status, const char *call, const char *file, int line)
{
    if (file)
        fprintf(stderr, "%s:%d: ", file, line);
    fprintf(stderr, "%s failed: %s: %s\n", call ? call : "a lattice call", lat_status_name(status),
            *lat_last_error() ? lat_last_error() : lat_status_string(status));
}

/* How many bytes of msg are the current public function's name and ": " (0: none). */
static size_t named_prefix(const char *msg)
{
    size_t a = current_api ? strlen(current_api) : 0;
    return a && strncmp(msg, current_api, a) == 0 && msg[a] == ':' && msg[a + 1] == ' ' ? a + 2
                                                                                      : 0;
}

const char *lat__last_failure(void)
{
    const char *msg = lat_last_error();
    return msg + named_prefix(msg);
}

/* fmt's message, with the public function's name in front (once: a failure recorded
 * again, as cross-checking does with one side's, has it already). */
static char *vformat_failure(const char *fmt, va_list ap)
{
    char *msg = vformat(fmt, ap);
    if (!msg || !current_api || named_prefix(msg))
        return msg;
    size_t a = strlen(current_api), m = strlen(msg);
    char *named = lat__malloc(a + 2 + m + 1);
    if (named) {
        memcpy(named, current_api, a);
        memcpy(named + a, ": ", 2);
        memcpy(named + a + 2, msg, m + 1);
    }
    free(msg);
    return named;
}

lat_status lat__verror(const lat_context *ctx, lat_status status, const char *fmt, va_list ap)
{
    char *msg = vformat_failure(fmt, ap);
    if (!msg) {
        set_message(NULL);
        log_text(ctx, LAT_LOG_ERROR, out_of_memory_message);
        return status;
    }
    log_text(ctx, LAT_LOG_ERROR, msg);
    set_message(msg);
    return status;
}

lat_status lat__error(const lat_context *ctx, lat_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    lat_status st = lat__verror(ctx, status, fmt, ap);
    va_end(ap);
    return st;
}

lat_status lat__oom(const lat_context *ctx)
{
    return lat__error(ctx, LAT_ERROR_OUT_OF_MEMORY, "out of host memory");
}

lat_status lat__oom_for(const lat_context *ctx, const char *fmt, ...)
{
    /* On the stack: the heap has just failed, and the message should not need it twice. */
    char what[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return lat__error(ctx, LAT_ERROR_OUT_OF_MEMORY, "out of host memory %s", what);
}

lat_status lat__error_logged(lat_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *msg = vformat_failure(fmt, ap);
    va_end(ap);
    set_message(msg);
    return status;
}

void lat__log(const lat_context *ctx, lat_log_level level, const char *fmt, ...)
{
    if (!(ctx && ctx->logger.func) && !stderr_gets(ctx, level))
        return;
    va_list ap;
    va_start(ap, fmt);
    char *msg = vformat(fmt, ap);
    va_end(ap);
    log_text(ctx, level, msg ? msg : out_of_memory_message);
    free(msg);
}

int lat__strbuf_append(char **buf, size_t *len, const char *text, size_t text_len)
{
    size_t old = *buf ? *len : 0;
    if (text_len > SIZE_MAX - old - 1)
        return -1;
    char *p = lat__realloc(*buf, old + text_len + 1);
    if (!p)
        return -1;
    memcpy(p + old, text, text_len);
    p[old + text_len] = '\0';
    *buf = p;
    *len = old + text_len;
    return 0;
}

int lat__strbuf_printf(char **buf, size_t *len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = vformat(fmt, ap);
    va_end(ap);
    if (!s)
        return -1;
    int rc = lat__strbuf_append(buf, len, s, strlen(s));
    free(s);
    return rc;
}

char *lat__strdup(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = lat__malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}
