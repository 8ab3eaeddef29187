/*
 * The cache of generated kernels: one module per (context, generated source), compiled
 * the first time an operation needs it and reused until the context is destroyed.
 *
 * Entries are found by a key: a short recipe of everything the source depends on (or
 * the source itself), so that the common case, an operation already compiled, costs a
 * hash of a few dozen bytes rather than writing and hashing the whole source again.
 *
 * A context has no hook that would tell this cache it is being destroyed, and a new
 * context may later be allocated at the same address. So an entry is trusted only
 * while its module is still in its context's module list under the name this cache
 * gave it (derived from the source's hash): a destroyed context took its modules with
 * it, and a new context at the same address holds no module of that name until this
 * cache compiles one for the same entry. Stale entries are recompiled in place.
 */
#include "internal.h"
#include "core/alloc.h"

#include "cache.h"
#include "core.h"
#include "memory.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct entry {
    uint64_t hash; /* of the key */
    char *key;
    char *source;  /* written on the first compile */
    char name[40]; /* the module's name, "lattice-gen-<hash of the key>.cu" */
    lat__gen gen;
    struct entry *next;
} entry;

enum { NBUCKETS = 512 };

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static entry *buckets[NBUCKETS];

/* FNV-1a over the source, then the context's address mixed in for the bucket. */
static uint64_t hash_key(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return h;
}

static size_t bucket_of(const lat_context *ctx, uint64_t h)
{
    uint64_t x = h ^ ((uint64_t)(uintptr_t)ctx * 0x9e3779b97f4a7c15ull);
    return (size_t)((x ^ (x >> 29)) % NBUCKETS);
}

/* A compile error in a generated kernel: the compiler's message names lines of a file
 * the user never wrote, so the source follows it, numbered, with the user's own
 * expressions (operation, map, reduce, preamble) on the lines the message names. */
static lat_status with_source(lat_context *ctx, const entry *e)
{
    char *msg = NULL;
    size_t len = 0;
    int r = lat__strbuf_printf(&msg, &len, "%s\n%s, as lattice generated it from your expressions:\n",
                               lat__last_failure(), e->name);
    int line = 1;
    for (const char *p = e->source; r == 0 && *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        r = lat__strbuf_printf(&msg, &len, "%4d | %.*s\n", line++, (int)n, p);
        p += n + (nl ? 1 : 0);
    }
    lat_status st = r == 0 ? lat__error(ctx, LAT_ERROR_COMPILE, "%s", msg)
                           : lat__error(ctx, LAT_ERROR_COMPILE, "%s", lat__last_failure());
    free(msg);
    return st;
}

/* Compiles the entry's source (writing it first if need be) into a fresh module and
 * looks its kernels up. */
static lat_status compile(lat_context *ctx, entry *e, lat__gen_source_fn source,
                          const void *arg, const char *const *options,
                          const char *const *names, size_t scratch_bytes,
                          lat__gen *g)
{
    if (!e->source) {
        if (source) {
            lat__src s = {0};
            source(arg, &s);
            lat_status st = lat__src_check(&s, ctx);
            if (st != LAT_OK)
                return st;
            e->source = s.text;
        } else {
            e->source = lat__strdup(e->key);
            if (!e->source)
                return lat__oom(ctx);
        }
    }
    lat_module *mod = NULL;
    lat_status st = lat_module_create(ctx,
                                      &(lat_module_desc){.source = e->source,
                                                         .name = e->name,
                                                         .options = options},
                                      &mod);
    if (st == LAT_ERROR_COMPILE)
        return with_source(ctx, e);
    if (st != LAT_OK)
        return st;
    memset(g->kernels, 0, sizeof g->kernels);
    for (int i = 0; names && names[i] && i < LAT__CACHE_KERNELS; i++) {
        st = lat_module_get_kernel(mod, names[i], &g->kernels[i]);
        if (st != LAT_OK) {
            lat_module_destroy(mod);
            return st;
        }
    }
    g->scratch = 0;
    g->scratch_bytes = 0;
    if (scratch_bytes > 0) {
        st = lat__mem_alloc_own(ctx, scratch_bytes, &g->scratch);
        if (st != LAT_OK) {
            lat_module_destroy(mod);
            return st;
        }
        g->scratch_bytes = scratch_bytes;
    }
    g->mod = mod;
    return LAT_OK;
}

lat_status lat__gen_get(lat_context *ctx, const char *key, lat__gen_source_fn source,
                        const void *arg, const char *const *options, const char *const *names,
                        size_t scratch_bytes, lat__gen **out)
{
    uint64_t h = hash_key(key);
    size_t b = bucket_of(ctx, h);

    pthread_mutex_lock(&table_lock);
    entry *e = buckets[b];
    for (; e; e = e->next)
        if (e->gen.ctx == ctx && e->hash == h && strcmp(e->key, key) == 0)
            break;
    if (!e) {
        e = lat__calloc(1, sizeof *e);
        char *copy = e ? lat__strdup(key) : NULL;
        if (!copy || pthread_mutex_init(&e->gen.lock, NULL) != 0) {
            free(copy);
            free(e);
            pthread_mutex_unlock(&table_lock);
            return lat__oom(ctx);
        }
        e->hash = h;
        e->key = copy;
        snprintf(e->name, sizeof e->name, "lattice-gen-%016" PRIx64 ".cu", h);
        e->gen.ctx = ctx;
        e->next = buckets[b];
        buckets[b] = e;
    }
    /* Entries are never freed, so e stays valid; its module is checked and (re)compiled
     * under the entry's own lock, so that one compile serves every thread waiting. */
    pthread_mutex_unlock(&table_lock);

    pthread_mutex_lock(&e->gen.lock);
    lat_status st = LAT_OK;
    if (!lat__module_alive(ctx, e->gen.mod, e->name)) {
        e->gen.mod = NULL;
        st = compile(ctx, e, source, arg, options, names, scratch_bytes, &e->gen);
    }
    pthread_mutex_unlock(&e->gen.lock);
    if (st != LAT_OK)
        return st;
    *out = &e->gen;
    return LAT_OK;
}
