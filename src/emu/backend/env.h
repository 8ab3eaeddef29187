/*
 * The emulator's own LATTICE_EMU_* variables: its table of core's reader (core/env.h),
 * reached by core only through lat__backend_emu.env. docs/environment.md lists them.
 */
#ifndef LAT_EMU_ENV_H
#define LAT_EMU_ENV_H

#include "core/env.h"

/* XX(ID, kind, values) — the name is "LATTICE_EMU_" #ID. */
#define LAT_EMU_ENV_MAP(XX)                                                            \
    XX(DEVICES, LAT__ENV_COUNT, NULL)                                                  \
    XX(MEMORY, LAT__ENV_TEXT, NULL) /* bytes, K/M/G: backend/memory.c */               \
    XX(TIMEOUT, LAT__ENV_SECONDS, NULL)                                                \
    XX(THREADS, LAT__ENV_TEXT, NULL) /* 1..4096: backend/threads.c */                  \
    XX(OPT, LAT__ENV_WORD, "off|auto|background|sync")                                 \
    XX(CC, LAT__ENV_TEXT, NULL)                                                        \
    XX(CC_FLAGS, LAT__ENV_TEXT, NULL)                                                  \
    XX(CC_TIMEOUT, LAT__ENV_SECONDS, NULL)                                             \
    XX(CC_JOBS, LAT__ENV_COUNT, NULL)                                                  \
    XX(FIBERS, LAT__ENV_FLAG, NULL)                                                    \
    XX(PRINTF, LAT__ENV_WORD, "unordered|ordered")                                     \
    XX(PRINTF_BUFFER, LAT__ENV_TEXT, NULL) /* bytes: runtime/printf.c */               \
    XX(DUMP, LAT__ENV_FLAG, NULL)

typedef enum lat__emu_env_id {
#define LAT_EMU_ENV_ENUM_(id, kind, values) LAT_EMU_ENV_##id,
    LAT_EMU_ENV_MAP(LAT_EMU_ENV_ENUM_)
#undef LAT_EMU_ENV_ENUM_
    LAT_EMU_ENV_COUNT_
} lat__emu_env_id;

/* The table, for lat__backend_emu.env (read again with the others). */
extern lat__env_table lat__emu_env_table;

/* The variable as last read, or NULL when unset or empty (lat__env_table_get). Thread
 * safety: any thread. */
const char *lat__emu_env(lat__emu_env_id id);

/* A FLAG variable: true for 1|on|yes|true. Thread safety: any thread. */
bool lat__emu_env_on(lat__emu_env_id id);

#endif
