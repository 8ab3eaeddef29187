/*
 * The LATTICE_* environment variables: tables of them (core's below; a backend's own in
 * its lat__backend.env, such as the emulator's own variables in its backend folder),
 * all read by the one reader here. docs/environment.md lists the same names; tests/env
 * checks the two against each other and against the sources.
 *
 * Every variable is read when the environment is (re)read: at the first use of any of its
 * table's, and at each lat_context_create, lat_device_count and lat_backend_resolve
 * (lat__backend_get reads every table), never per launch or per compile. A malformed
 * value fails that call with LAT_ERROR_INVALID_VALUE naming the variable. To add a
 * variable: one XX line in its table, and its row in docs/environment.md.
 */
#ifndef LAT_ENV_H
#define LAT_ENV_H

#include "lattice.h"

#include <stdatomic.h>
#include <stdbool.h>

/* How a value is checked when read. */
typedef enum lat__env_kind {
    LAT__ENV_WORD,    /* one of the words in `values` ("a|b|c") */
    LAT__ENV_FLAG,    /* 0|1 (also off|on, no|yes, false|true) */
    LAT__ENV_COUNT,   /* an integer from 1 to 64 */
    LAT__ENV_SECONDS, /* a number of seconds, 0 or more */
    LAT__ENV_TEXT,    /* any text: a path, or a list the consumer parses (and reports) */
} lat__env_kind;

typedef struct lat__env_var {
    const char *name; /* "LATTICE_LOG" */
    lat__env_kind kind;
    const char *values; /* LAT__ENV_WORD's words */
} lat__env_var;

/* One table of variables and the values last read: a static object of its owner's,
 * made with LAT__ENV_TABLE. */
typedef struct lat__env_table {
    const lat__env_var *vars;
    int n;
    _Atomic(char *) *values; /* n slots */
    atomic_bool ready;       /* read at least once */
    struct lat__env_table *next; /* the tables read so far (freed at exit) */
} lat__env_table;

#define LAT__ENV_TABLE(vars_, slots_)                                                    \
    {.vars = (vars_), .n = (int)(sizeof(vars_) / sizeof((vars_)[0])), .values = (slots_)}

/* XX(ID, kind, values) rows as lat__env_var initialisers named PREFIX #ID. */
#define LAT__ENV_VAR_(prefix, id, k, v) {.name = prefix #id, .kind = (k), .values = (v)},

/* Reads table's variables again and checks them. Returns LAT_OK, or
 * LAT_ERROR_INVALID_VALUE (through lat__error, with ctx's logger, the message starting
 * with caller) for the first malformed one; the others are still read. Thread safety:
 * any thread. */
lat_status lat__env_table_read(lat__env_table *table, const lat_context *ctx);

/* Variable `index` of table as last read (reading the table the first time), or NULL
 * when unset or empty. The string stays valid for the life of the process. Thread
 * safety: any thread. */
const char *lat__env_table_get(lat__env_table *table, int index);

/* A FLAG variable's value: true for 1|on|yes|true, false for NULL or anything else. */
bool lat__env_flag_on(const char *value);

/* XX(ID, kind, values) — the name is "LATTICE_" #ID. */
#define LAT_ENV_MAP(XX)                                                   \
    /* auto|cuda|emu|cross, checked where it is used: a program that names its backend    \
     * ignores it, even malformed (backend_select.c). */                                  \
    XX(BACKEND, LAT__ENV_TEXT, NULL)                                      \
    XX(LOG, LAT__ENV_WORD, "none|error|warning|info")                     \
    XX(CUDA_LIBRARY, LAT__ENV_TEXT, NULL)                                 \
    XX(NVRTC_LIBRARY, LAT__ENV_TEXT, NULL)                                \
    XX(POOL, LAT__ENV_FLAG, NULL)                                         \
    XX(CACHE, LAT__ENV_FLAG, NULL)                                        \
    XX(CACHE_DIR, LAT__ENV_TEXT, NULL)                                    \
    XX(CHECK, LAT__ENV_TEXT, NULL)                                        \
    XX(SCHEDULE, LAT__ENV_TEXT, NULL)                                     \
    XX(CHECK_TIMEOUT, LAT__ENV_SECONDS, NULL)                             \
    XX(PROFILE, LAT__ENV_FLAG, NULL)                                      \
    XX(CROSS_PRIMARY, LAT__ENV_WORD, "cuda|emu")                          \
    XX(CROSS_COMPARE, LAT__ENV_WORD, "params|all")                        \
    XX(CROSS_STATS, LAT__ENV_TEXT, NULL)                                  \

typedef enum lat__env_id {
#define LAT_ENV_ENUM_(id, kind, values) LAT_ENV_##id,
    LAT_ENV_MAP(LAT_ENV_ENUM_)
#undef LAT_ENV_ENUM_
    /* Not lattice's own, but read by its background threads (the disk cache's default
     * directory): a snapshot like the others, since getenv on one thread races with setenv
     * on another. */
    LAT_ENV_XDG_CACHE_HOME,
    LAT_ENV_HOME,
    LAT_ENV_COUNT_
} lat__env_id;

/* Reads core's table again (lat__env_table_read). */
lat_status lat__env_read(const lat_context *ctx);

/* Core's variable as last read (lat__env_table_get). */
const char *lat__env(lat__env_id id);

/* A FLAG variable of core's: lat__env_flag_on of its value. */
bool lat__env_on(lat__env_id id);

/* LATTICE_LOG's threshold: messages of this level or more urgent go to stderr when no
 * logger is installed; 0 for none. Default LAT_LOG_WARNING. */
int lat__env_log_level(void);

#endif
