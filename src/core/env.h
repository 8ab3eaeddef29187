/*
 * The LATTICE_* environment variables: one table (docs/environment.md lists the same
 * names; tests/env checks the two against each other and against the sources).
 *
 * Every variable is read when the environment is (re)read: at the first use of any, and at
 * each lat_context_create, lat_device_count and lat_backend_resolve (lat__backend_get),
 * never per launch or per compile. A malformed value fails that call with
 * LAT_ERROR_INVALID_VALUE naming the variable. To add a variable: one XX line below, and
 * its row in docs/environment.md.
 */
#ifndef LAT_ENV_H
#define LAT_ENV_H

#include "lattice.h"

#include <stdbool.h>

/* How a value is checked when read. */
typedef enum lat__env_kind {
    LAT__ENV_WORD,    /* one of the words in `values` ("a|b|c") */
    LAT__ENV_FLAG,    /* 0|1 (also off|on, no|yes, false|true) */
    LAT__ENV_COUNT,   /* an integer from 1 to 64 */
    LAT__ENV_SECONDS, /* a number of seconds, 0 or more */
    LAT__ENV_TEXT,    /* any text: a path, or a list the consumer parses (and reports) */
} lat__env_kind;

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
    XX(CROSS_PRIMARY, LAT__ENV_WORD, "cuda|emu")                          \
    XX(CROSS_COMPARE, LAT__ENV_WORD, "params|all")                        \
    XX(CROSS_STATS, LAT__ENV_TEXT, NULL)                                  \
    XX(EMU_DEVICES, LAT__ENV_COUNT, NULL)                                 \
    XX(EMU_TIMEOUT, LAT__ENV_SECONDS, NULL)                               \
    XX(EMU_THREADS, LAT__ENV_TEXT, NULL) /* 1..4096, the emulator's */   \
    XX(EMU_OPT, LAT__ENV_WORD, "off|auto|background|sync")                \
    XX(EMU_CC, LAT__ENV_TEXT, NULL)                                       \
    XX(EMU_CC_FLAGS, LAT__ENV_TEXT, NULL)                                 \
    XX(EMU_CC_TIMEOUT, LAT__ENV_SECONDS, NULL)                            \
    XX(EMU_CC_JOBS, LAT__ENV_COUNT, NULL)                                 \
    XX(EMU_FIBERS, LAT__ENV_FLAG, NULL)                                   \
    XX(EMU_PRINTF, LAT__ENV_WORD, "unordered|ordered")                    \
    XX(EMU_PRINTF_BUFFER, LAT__ENV_TEXT, NULL) /* bytes, emu/runtime/printf.c */ \
    XX(EMU_DUMP, LAT__ENV_FLAG, NULL)

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

/* Reads every variable again and checks it. Returns LAT_OK, or LAT_ERROR_INVALID_VALUE
 * (through lat__error, with ctx's logger; caller names the public function) for the first
 * malformed one; the other variables are still read. Thread safety: any thread. */
lat_status lat__env_read(const lat_context *ctx, const char *caller);

/* The value as last read (reading the environment the first time), or NULL when the
 * variable is unset or empty. The string stays valid for the life of the process.
 * Thread safety: any thread. */
const char *lat__env(lat__env_id id);

/* A FLAG variable: true for 1|on|yes|true, false when unset, empty or anything else. */
bool lat__env_on(lat__env_id id);

/* LATTICE_LOG's threshold: messages of this level or more urgent go to stderr when no
 * logger is installed; 0 for none. Default LAT_LOG_WARNING. */
int lat__env_log_level(void);

#endif
