/* The LATTICE_* environment variables, read in one place (env.h). */
#include "env.h"

#include "error.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const lat__env_var core_vars[LAT_ENV_COUNT_] = {
#define LAT_ENV_ENTRY_(id, k, v) [LAT_ENV_##id] = LAT__ENV_VAR_("LATTICE_", id, k, v)
    LAT_ENV_MAP(LAT_ENV_ENTRY_)
#undef LAT_ENV_ENTRY_
    [LAT_ENV_XDG_CACHE_HOME] = {.name = "XDG_CACHE_HOME", .kind = LAT__ENV_TEXT},
    [LAT_ENV_HOME] = {.name = "HOME", .kind = LAT__ENV_TEXT},
};
static _Atomic(char *) core_values[LAT_ENV_COUNT_];
static lat__env_table core_table = LAT__ENV_TABLE(core_vars, core_values);

/* A replaced value is kept on a list (freed at exit): a reader on another thread may
 * still hold it, and a value changes only when a program calls setenv between contexts,
 * a handful of times. */
typedef struct retired {
    struct retired *next;
    char *text;
} retired;
static retired *retired_list;
static lat__env_table *tables_read; /* every table read so far, for the exit */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static bool word_in(const char *w, const char *values)
{
    size_t n = strlen(w);
    for (const char *p = values; *p;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && strncmp(p, w, n) == 0)
            return true;
        if (!bar)
            break;
        p = bar + 1;
    }
    return false;
}

static int flag_value(const char *v)
{
    static const char *const on[] = {"1", "on", "yes", "true"};
    static const char *const off[] = {"0", "off", "no", "false"};
    for (int i = 0; i < 4; i++) {
        if (strcasecmp(v, on[i]) == 0)
            return 1;
        if (strcasecmp(v, off[i]) == 0)
            return 0;
    }
    return -1;
}

/* NULL when v is a good value for e, else what was expected. */
static const char *invalid(const lat__env_var *e, const char *v)
{
    char *end;
    switch (e->kind) {
    case LAT__ENV_WORD:
        return word_in(v, e->values) ? NULL : e->values;
    case LAT__ENV_FLAG:
        return flag_value(v) >= 0 ? NULL : "0 or 1";
    case LAT__ENV_COUNT: {
        long n = strtol(v, &end, 10);
        return *end == '\0' && n >= 1 && n <= 64 ? NULL : "a whole number from 1 to 64";
    }
    case LAT__ENV_SECONDS: {
        double s = strtod(v, &end);
        return *end == '\0' && s >= 0 && s < 1e9 ? NULL : "a number of seconds, 0 or more";
    }
    case LAT__ENV_TEXT:
        return NULL;
    }
    return NULL;
}

static void free_retired(void)
{
    pthread_mutex_lock(&lock);
    while (retired_list) {
        retired *r = retired_list;
        retired_list = r->next;
        free(r->text);
        free(r);
    }
    for (lat__env_table *t = tables_read; t; t = t->next)
        for (int i = 0; i < t->n; i++)
            free(atomic_exchange(&t->values[i], NULL));
    pthread_mutex_unlock(&lock);
}

/* Reads table's variables; returns the first malformed one's index, or -1. Holds the
 * lock. */
static int read_all(lat__env_table *t, const char **bad_value)
{
    if (!atomic_load(&t->ready)) {
        if (!tables_read)
            atexit(free_retired);
        t->next = tables_read;
        tables_read = t;
    }
    int bad = -1;
    for (int i = 0; i < t->n; i++) {
        const char *v = getenv(t->vars[i].name);
        if (v && !*v)
            v = NULL;
        if (v && bad < 0 && invalid(&t->vars[i], v)) {
            bad = i;
            *bad_value = v;
        }
        char *old = atomic_load(&t->values[i]);
        if ((!v && !old) || (v && old && strcmp(v, old) == 0))
            continue;
        char *copy = v ? strdup(v) : NULL;
        if (v && !copy)
            continue; /* out of memory: keep the old value */
        if (old) {
            retired *r = malloc(sizeof *r);
            if (!r) {
                free(copy);
                continue;
            }
            r->text = old;
            r->next = retired_list;
            retired_list = r;
        }
        atomic_store(&t->values[i], copy);
    }
    atomic_store(&t->ready, true);
    return bad;
}

lat_status lat__env_table_read(lat__env_table *t, const lat_context *ctx)
{
    const char *value = NULL;
    pthread_mutex_lock(&lock);
    int bad = read_all(t, &value);
    lat_status st = LAT_OK;
    if (bad >= 0)
        st = lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s='%s' is not valid: expected %s", t->vars[bad].name, value, invalid(&t->vars[bad], value));
    pthread_mutex_unlock(&lock);
    return st;
}

const char *lat__env_table_get(lat__env_table *t, int index)
{
    if (!atomic_load(&t->ready)) {
        const char *bad;
        pthread_mutex_lock(&lock);
        if (!atomic_load(&t->ready))
            (void)read_all(t, &bad);
        pthread_mutex_unlock(&lock);
    }
    return index >= 0 && index < t->n ? atomic_load(&t->values[index]) : NULL;
}

bool lat__env_flag_on(const char *value)
{
    return value && flag_value(value) == 1;
}

lat_status lat__env_read(const lat_context *ctx)
{
    return lat__env_table_read(&core_table, ctx);
}

const char *lat__env(lat__env_id id)
{
    return lat__env_table_get(&core_table, (int)id);
}

bool lat__env_on(lat__env_id id)
{
    return lat__env_flag_on(lat__env(id));
}
int lat__env_log_level(void)
{
    const char *v = lat__env(LAT_ENV_LOG);
    if (!v)
        return LAT_LOG_WARNING;
    if (strcmp(v, "none") == 0)
        return 0;
    if (strcmp(v, "error") == 0)
        return LAT_LOG_ERROR;
    if (strcmp(v, "info") == 0)
        return LAT_LOG_INFO;
    return LAT_LOG_WARNING;
}
