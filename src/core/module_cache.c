/*
 * The in-memory compile cache for backends whose compiled modules do not depend on the
 * context that compiled them (the emulator: translated C compiled to host code). One
 * compiled impl per key is shared, reference-counted, by every lat_module made from the
 * same inputs, in any context; the cache holds a reference of its own until it is
 * cleared. Backends that cannot share (CUDA: a loaded CUmodule belongs to a context)
 * cache their compiled images through cache.c instead.
 *
 * A module with state of its own (a variable a kernel or the host may write: __device__,
 * __constant__, __managed__, static locals...) is never shared: on a GPU every module has
 * its own copy of each. The backend says so from the compiled module (module_has_state);
 * nothing is decided from the source's text.
 */
#include "cache.h"
#include "core/alloc.h"
#include "driver_ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LIMIT_ENTRIES = 256 };

typedef struct shared {
    lat__cache_key key;
    const lat__backend *backend;
    void *impl;
    char *log;
    int refs; /* the cache's own (while listed) and one per module */
    bool listed;
    struct shared *next;
} shared;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static shared *list;
static int nlisted;

/* Destroys a shared impl with no user left. */
static void destroy(shared *s)
{
    lat_module stub;
    memset(&stub, 0, sizeof stub);
    stub.impl = s->impl;
    s->backend->module_destroy(&stub);
    free(s->log);
    free(s);
}

/* Drops one reference; the caller holds the lock. Returns the entry to destroy (after
 * unlocking), or NULL. */
static shared *unref_locked(shared *s)
{
    return --s->refs == 0 ? s : NULL;
}

lat_status lat__module_compile(lat_context *ctx, lat_module *mod, const lat__source *src)
{
    const lat__backend *b = ctx->backend;
    if (!lat__drv(ctx)->share_module_impl)
        return b->module_create(ctx, mod, src); /* it caches by itself, if at all */
    lat__cache_key key;
    char target[64];
    snprintf(target, sizeof target, "device %d: compute %d.%d", ctx->device,
             ctx->info.compute_major, ctx->info.compute_minor);
    /* What else decides the compiled impl (its tier, checks, flags) is the backend's to
     * say: the core reads none of its settings. */
    char tier[1024] = "";
    lat__drv(ctx)->module_key(ctx, src, tier, sizeof tier);
    lat__compile_request req = {.src = src,
                                .backend = b->name,
                                .target = target,
                                .compiler = "lattice " LAT_VERSION_STRING,
                                .tier = tier};
    if (!lat__compile_request_digest(&req, &key)) {
        if (lat__cache_enabled())
            lat__cache_count_uncacheable();
        return b->module_create(ctx, mod, src);
    }
    pthread_mutex_lock(&lock);
    for (shared *s = list; s; s = s->next) {
        if (s->backend == b && memcmp(s->key.bytes, key.bytes, 32) == 0) {
            char *log = lat__strdup(s->log ? s->log : "");
            if (!log)
                break;
            s->refs++;
            pthread_mutex_unlock(&lock);
            mod->impl = s->impl;
            mod->log = log;
            mod->cache_ref = s;
            mod->origin = LAT_MODULE_MEMORY_CACHE;
            lat__cache_count_memory_hit();
            return LAT_OK;
        }
    }
    pthread_mutex_unlock(&lock);

    /* Compiled outside the lock: two threads may compile the same source at once; the
     * second to finish keeps its own, unshared. */
    lat__source keyed = *src;
    keyed.request = &key;
    lat_status st = b->module_create(ctx, mod, &keyed);
    if (st != LAT_OK)
        return st;
    if (lat__drv(ctx)->module_has_state(mod)) {
        lat__cache_count_uncacheable();
        return LAT_OK; /* its own, as on a GPU */
    }
    lat__cache_count_miss();
    shared *s = lat__calloc(1, sizeof *s);
    if (!s)
        return LAT_OK; /* the module works, uncached */
    s->key = key;
    s->backend = b;
    s->impl = mod->impl;
    s->log = lat__strdup(mod->log ? mod->log : "");
    s->refs = 2;
    s->listed = true;
    pthread_mutex_lock(&lock);
    bool dup = false;
    for (shared *o = list; o; o = o->next)
        dup |= o->backend == b && memcmp(o->key.bytes, key.bytes, 32) == 0;
    shared *evicted = NULL;
    if (!dup) {
        if (nlisted >= LIMIT_ENTRIES) {
            /* Full: forget the whole list; modules still using an impl keep it alive. */
            for (shared *o = list, *next; o; o = next) {
                next = o->next;
                o->listed = false;
                o->next = NULL;
                if (unref_locked(o)) {
                    o->next = evicted;
                    evicted = o;
                }
            }
            list = NULL;
            nlisted = 0;
        }
        s->next = list;
        list = s;
        nlisted++;
        mod->cache_ref = s;
    }
    pthread_mutex_unlock(&lock);
    if (dup) {
        free(s->log);
        free(s);
    }
    for (shared *o = evicted, *next; o; o = next) {
        next = o->next;
        destroy(o);
    }
    return LAT_OK;
}

void lat__module_release_impl(lat_module *mod)
{
    shared *s = mod->cache_ref;
    if (!s) {
        mod->ctx->backend->module_destroy(mod);
        return;
    }
    pthread_mutex_lock(&lock);
    shared *dead = unref_locked(s);
    pthread_mutex_unlock(&lock);
    if (dead)
        destroy(dead);
    mod->impl = NULL;
    mod->cache_ref = NULL;
}

void lat__module_cache_clear(void)
{
    shared *dead = NULL;
    pthread_mutex_lock(&lock);
    for (shared *s = list, *next; s; s = next) {
        next = s->next;
        s->listed = false;
        s->next = NULL;
        if (unref_locked(s)) {
            s->next = dead;
            dead = s;
        }
    }
    list = NULL;
    nlisted = 0;
    pthread_mutex_unlock(&lock);
    for (shared *s = dead, *next; s; s = next) {
        next = s->next;
        destroy(s);
    }
}

bool lat__module_alive(lat_context *ctx, const lat_module *mod, const char *name)
{
    if (!mod)
        return false;
    bool alive = false;
    pthread_mutex_lock(&ctx->lock);
    for (const lat_module *m = ctx->modules; m; m = m->next)
        if (m == mod) {
            alive = m->name && strcmp(m->name, name) == 0;
            break;
        }
    pthread_mutex_unlock(&ctx->lock);
    return alive;
}
