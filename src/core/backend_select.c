/*
 * Choosing a backend (SDL's bootstrap list): in automatic mode the first backend whose
 * probe succeeds; a backend named by the program or by LATTICE_BACKEND that is not
 * available is an error that says why, never a silent fallback.
 */
#include "backend_select.h"
#include "driver_ops.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Automatic selection tries these in order. */
static const lat__backend *const backends[] = {
    &lat__backend_cuda,
    &lat__backend_emu,
    &lat__backend_cross, /* only when asked for: automatic selection stops at the emulator */
};
#define NBACKENDS (sizeof backends / sizeof backends[0])

typedef struct probe_result {
    pthread_once_t once;
    lat_status status;
    char why[512];
} probe_result;

static probe_result probes[NBACKENDS] = {
    {PTHREAD_ONCE_INIT, LAT_OK, ""},
    {PTHREAD_ONCE_INIT, LAT_OK, ""},
    {PTHREAD_ONCE_INIT, LAT_OK, ""},
};

/* pthread_once takes no argument: one trampoline per table entry. */
#define PROBE_FN(i)                                                                     \
    static void probe_##i(void)                                                         \
    {                                                                                   \
        probes[i].status = backends[i]->probe(probes[i].why, sizeof probes[i].why);     \
    }
PROBE_FN(0)
PROBE_FN(1)
PROBE_FN(2)
static void (*const probe_fns[NBACKENDS])(void) = {probe_0, probe_1, probe_2};

/* ---- interrupts (lat_interrupt) ---------------------------------------------------- */

/* A count, not a flag: a call compares it with the value it read as it began, so an
 * interrupt reaches the calls running then and no later one, and nothing needs
 * clearing. Lock-free, so that a signal handler may add to it. */
_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2, "lat_interrupt must be async-signal-safe");
static _Atomic unsigned long long interrupts;

uint64_t lat__interrupt_count(void)
{
    return atomic_load(&interrupts);
}

void lat_interrupt(void)
{
    int saved = errno; /* a signal handler must leave errno as it found it */
    atomic_fetch_add(&interrupts, 1);
    for (size_t i = 0; i < NBACKENDS; i++)
        if (backends[i]->interrupt)
            backends[i]->interrupt();
    errno = saved;
}

static size_t index_of(lat_backend_kind kind)
{
    for (size_t i = 0; i < NBACKENDS; i++)
        if (backends[i]->kind == kind)
            return i;
    return NBACKENDS;
}

static lat_status probe(size_t i)
{
    pthread_once(&probes[i].once, probe_fns[i]);
    return probes[i].status;
}

const char *lat_backend_name(lat_backend_kind kind)
{
    LAT__API();
    switch (kind) {
    case LAT_BACKEND_AUTO:
        return "auto";
    case LAT_BACKEND_CUDA:
        return "cuda";
    case LAT_BACKEND_EMU:
        return "emu";
    case LAT_BACKEND_CROSS:
        return "cross";
    }
    return "unknown";
}

/* The kind LATTICE_BACKEND names, AUTO when unset or empty, or -1 when invalid. */
static int env_kind(const char **value)
{
    const char *v = lat__env(LAT_ENV_BACKEND);
    *value = v;
    if (!v || !*v || strcmp(v, "auto") == 0)
        return LAT_BACKEND_AUTO;
    if (strcmp(v, "cuda") == 0)
        return LAT_BACKEND_CUDA;
    if (strcmp(v, "emu") == 0)
        return LAT_BACKEND_EMU;
    if (strcmp(v, "cross") == 0)
        return LAT_BACKEND_CROSS;
    return -1;
}

lat_status lat__backend_get(const lat_context *log_ctx, lat_backend_kind kind,
                            const lat__backend **out)
{
    const char *origin = "requested by the program";
    /* Every public path to a backend comes here: the one place the environment is read
     * again (env.h), and where a malformed LATTICE_* value fails the call. */
    lat_status env_st = lat__env_read(log_ctx);
    for (size_t i = 0; i < NBACKENDS; i++)
        if (backends[i]->env) {
            lat_status b_st = lat__env_table_read(backends[i]->env, log_ctx);
            env_st = env_st != LAT_OK ? env_st : b_st;
        }
    if (env_st != LAT_OK)
        return env_st;
    if (kind != LAT_BACKEND_AUTO && kind != LAT_BACKEND_CUDA && kind != LAT_BACKEND_EMU &&
        kind != LAT_BACKEND_CROSS)
        return lat__error(log_ctx, LAT_ERROR_INVALID_VALUE,
                          "backend kind %d is not a lat_backend_kind", (int)kind);
    if (kind == LAT_BACKEND_AUTO) {
        const char *value;
        int k = env_kind(&value);
        if (k < 0)
            return lat__error(log_ctx, LAT_ERROR_INVALID_VALUE,
                              "LATTICE_BACKEND=%s: expected cuda, emu, cross or auto", value);
        kind = (lat_backend_kind)k;
        origin = "named by LATTICE_BACKEND";
    }
    if (kind == LAT_BACKEND_AUTO) {
        for (size_t i = 0; i < NBACKENDS; i++) {
            if (backends[i]->kind == LAT_BACKEND_CROSS)
                break;
            if (probe(i) == LAT_OK) {
                *out = backends[i];
                return LAT_OK;
            }
        }
        return lat__error(log_ctx, LAT_ERROR_BACKEND_UNAVAILABLE,
                          "no backend is available: cuda: %s; emu: %s", probes[0].why,
                          probes[1].why);
    }
    size_t i = index_of(kind);
    if (i == NBACKENDS)
        return lat__error(log_ctx, LAT_ERROR_BACKEND_UNAVAILABLE,
                          "backend %s is not compiled into this library",
                          lat_backend_name(kind));
    if (probe(i) != LAT_OK)
        return lat__error(log_ctx, LAT_ERROR_BACKEND_UNAVAILABLE,
                          "backend %s (%s) is not available: %s", lat_backend_name(kind),
                          origin, probes[i].why);
    *out = backends[i];
    return LAT_OK;
}

lat_status lat_backend_resolve(lat_backend_kind kind, lat_backend_kind *resolved)
{
    LAT__API();
    if (!resolved)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "resolved is NULL");
    const lat__backend *b = NULL;
    lat_status st = lat__backend_get(NULL, kind, &b);
    if (st != LAT_OK)
        return st;
    *resolved = b->kind;
    return LAT_OK;
}
