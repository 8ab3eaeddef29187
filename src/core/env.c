/* The LATTICE_* environment variables, read in one place (env.h). */
#include "env.h"

#include "error.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct entry {
    const char *name;
    lat__env_kind kind;
    const char *values;
} entry;

static const entry table[LAT_ENV_COUNT_] = {
#define LAT_ENV_ENTRY_(id, k, v) [LAT_ENV_##id] = {.name = "LATTICE_" #id, .kind = k, .values = v},
    LAT_ENV_MAP(LAT_ENV_ENTRY_)
#undef LAT_ENV_ENTRY_
    [LAT_ENV_XDG_CACHE_HOME] = {.name = "XDG_CACHE_HOME", .kind = LAT__ENV_TEXT},
    [LAT_ENV_HOME] = {.name = "HOME", .kind = LAT__ENV_TEXT},
};

/* The values read, swapped whole when one changes. A replaced string is kept on a list
 * (freed at exit): a reader on another thread may still hold it, and a value changes only
 * when a program calls setenv between contexts, a handful of times. */
static _Atomic(char *) current[LAT_ENV_COUNT_];
typedef struct retired {
    struct retired *next;
    char *text;
} retired;
static retired *retired_list;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;

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
static const char *invalid(const entry *e, const char *v)
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
    for (int i = 0; i < LAT_ENV_COUNT_; i++)
        free(atomic_exchange(&current[i], NULL));
    pthread_mutex_unlock(&lock);
}

/* Reads all variables; returns the first malformed one's index, or -1. Holds the lock. */
static int read_all(const char **bad_value)
{
    int bad = -1;
    for (int i = 0; i < LAT_ENV_COUNT_; i++) {
        const char *v = getenv(table[i].name);
        if (v && !*v)
            v = NULL;
        if (v && bad < 0 && invalid(&table[i], v)) {
            bad = i;
            *bad_value = v;
        }
        char *old = atomic_load(&current[i]);
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
        atomic_store(&current[i], copy);
    }
    return bad;
}

static void first_read(void)
{
    const char *bad;
    pthread_mutex_lock(&lock);
    (void)read_all(&bad);
    pthread_mutex_unlock(&lock);
    atexit(free_retired);
}

lat_status lat__env_read(const lat_context *ctx, const char *caller)
{
    pthread_once(&once, first_read);
    const char *value = NULL;
    pthread_mutex_lock(&lock);
    int bad = read_all(&value);
    lat_status st = LAT_OK;
    if (bad >= 0)
        st = lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s: %s='%s' is not valid: expected %s",
                        caller, table[bad].name, value, invalid(&table[bad], value));
    pthread_mutex_unlock(&lock);
    return st;
}

const char *lat__env(lat__env_id id)
{
    pthread_once(&once, first_read);
    return id >= 0 && id < LAT_ENV_COUNT_ ? atomic_load(&current[id]) : NULL;
}

bool lat__env_on(lat__env_id id)
{
    const char *v = lat__env(id);
    return v && flag_value(v) == 1;
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
