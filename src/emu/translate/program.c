/*
 * What the translator's first pass learns of the whole program (walk.h): the
 * __global__ and __device__ functions and the macros, with the identifiers of their
 * bodies, from which it works out which kernels can reach a barrier or a warp operation
 * (through any chain of calls and macros) and which __shared__ variables each kernel can
 * reach. After the second pass it writes the tables the emulator reads (abi.h).
 */
#include "walk.h"

#include "emu/abi.h"
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const block_sync[] = {
    "__syncthreads", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or",
};
static const char *const warp_sync[] = {
    "__syncwarp",        "__activemask",      "__shfl_sync",       "__shfl_up_sync",
    "__shfl_down_sync",  "__shfl_xor_sync",   "__ballot_sync",     "__any_sync",
    "__all_sync",        "__match_any_sync",  "__match_all_sync",  "__reduce_add_sync",
    "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync", "__reduce_or_sync",
    "__reduce_xor_sync",
};

static bool in_list(const char *const *list, size_t n, const char *s, size_t len)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(list[i]) == len && memcmp(list[i], s, len) == 0)
            return true;
    return false;
}

bool lat__tr_is_sync_name(const char *s, size_t n, bool *block)
{
    if (n < 8 || s[0] != '_' || s[1] != '_')
        return false;
    bool b = in_list(block_sync, sizeof block_sync / sizeof *block_sync, s, n);
    if (block)
        *block = b;
    return b || in_list(warp_sync, sizeof warp_sync / sizeof *warp_sync, s, n);
}

int lat__tr_add_fn(tr *t, const char *name, size_t len, bool kernel)
{
    size_t at;
    if (lat__map_get(&t->fn_index, name, len, &at))
        return (int)at;
    if (t->nfns == t->fns_cap) {
        int cap = t->fns_cap ? t->fns_cap * 2 : 16;
        fninfo *p = realloc(t->fns, (size_t)cap * sizeof *p);
        if (!p) {
            t->oom = true;
            return -1;
        }
        t->fns = p;
        t->fns_cap = cap;
    }
    fninfo *f = &t->fns[t->nfns];
    memset(f, 0, sizeof *f);
    f->name = name;
    f->len = len;
    f->kernel = kernel;
    if (lat__map_put(&t->fn_index, name, len, (size_t)t->nfns) != 0) {
        t->oom = true;
        return -1;
    }
    return t->nfns++;
}

int lat__tr_add_macro(tr *t, const char *name, size_t len)
{
    size_t at;
    if (lat__map_get(&t->mac_index, name, len, &at))
        return (int)at; /* redefined: what either body reaches */
    if (t->nmacs == t->macs_cap) {
        int cap = t->macs_cap ? t->macs_cap * 2 : 16;
        macinfo *p = realloc(t->macs, (size_t)cap * sizeof *p);
        if (!p) {
            t->oom = true;
            return -1;
        }
        t->macs = p;
        t->macs_cap = cap;
    }
    macinfo *m = &t->macs[t->nmacs];
    memset(m, 0, sizeof *m);
    m->name = name;
    m->len = len;
    if (lat__map_put(&t->mac_index, name, len, (size_t)t->nmacs) != 0) {
        t->oom = true;
        return -1;
    }
    return t->nmacs++;
}

void lat__tr_note_ident(tr *t, const char *s, size_t n)
{
    lat__map *m = t->cur_mac >= 0 ? &t->macs[t->cur_mac].idents
                  : t->cur_fn >= 0 ? &t->fns[t->cur_fn].idents
                                   : NULL;
    if (m && lat__map_put(m, s, n, 1) != 0)
        t->oom = true;
}

fninfo *lat__tr_find_fn(const tr *t, const char *name, size_t len)
{
    size_t at;
    return lat__map_get(&t->fn_index, name, len, &at) ? &t->fns[at] : NULL;
}

/* Whether a body with these identifiers reaches a barrier or warp operation, given what
 * is known so far of the functions and macros it names. */
static bool reaches_sync(const tr *t, const lat__map *idents)
{
    for (size_t i = 0; i < idents->cap; i++) {
        const lat__map_slot *s = &idents->slots[i];
        if (!s->key)
            continue;
        if (lat__tr_is_sync_name(s->key, s->len, NULL))
            return true;
        size_t at;
        if (lat__map_get(&t->fn_index, s->key, s->len, &at) && t->fns[at].sync)
            return true;
        if (lat__map_get(&t->mac_index, s->key, s->len, &at) && t->macs[at].sync)
            return true;
    }
    return false;
}

void lat__tr_close_program(tr *t)
{
    bool changed = true;
    while (changed) {
        changed = false;
        for (int i = 0; i < t->nfns; i++)
            if (!t->fns[i].sync && reaches_sync(t, &t->fns[i].idents))
                t->fns[i].sync = changed = true;
        for (int i = 0; i < t->nmacs; i++)
            if (!t->macs[i].sync && reaches_sync(t, &t->macs[i].idents))
                t->macs[i].sync = changed = true;
    }
}

/* ---- the kernels' reach ------------------------------------------------------------------ */

typedef struct reach {
    bool *fn, *mac;
    const tr *t;
} reach;

static void visit(reach *r, const lat__map *idents)
{
    for (size_t i = 0; i < idents->cap; i++) {
        const lat__map_slot *s = &idents->slots[i];
        size_t at;
        if (!s->key)
            continue;
        if (lat__map_get(&r->t->fn_index, s->key, s->len, &at) && !r->fn[at]) {
            r->fn[at] = true;
            visit(r, &r->t->fns[at].idents);
        }
        if (lat__map_get(&r->t->mac_index, s->key, s->len, &at) && !r->mac[at]) {
            r->mac[at] = true;
            visit(r, &r->t->macs[at].idents);
        }
    }
}

/* Whether any body the kernel reaches names the identifier. */
static bool names(const reach *r, const char *s, size_t n)
{
    for (int i = 0; i < r->t->nfns; i++)
        if (r->fn[i] && lat__map_get(&r->t->fns[i].idents, s, n, NULL))
            return true;
    for (int i = 0; i < r->t->nmacs; i++)
        if (r->mac[i] && lat__map_get(&r->t->macs[i].idents, s, n, NULL))
            return true;
    return false;
}

static void out(tr *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out(tr *t, const char *fmt, ...)
{
    if (t->pass != 2 || t->oom)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *piece = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!piece) {
        t->oom = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(piece, (size_t)n + 1, fmt, ap);
    va_end(ap);
    if (lat__strbuf_append(&t->out, &t->out_len, piece, (size_t)n) != 0)
        t->oom = true;
    free(piece);
}

void lat__tr_emit_tables(tr *t)
{
    out(t, "\nconst int __lat_nshared = %d;\n", t->nshvars);
    if (t->nshvars > 0) {
        out(t, "const unsigned long __lat_shsize[] = {");
        for (int i = 0; i < t->nshvars; i++)
            out(t, t->shvars[i].ext ? "%s0" : "%ssizeof(__lat_sht%d)", i ? ", " : "", i);
        out(t, "};\nconst unsigned long __lat_shalign[] = {");
        for (int i = 0; i < t->nshvars; i++)
            out(t, t->shvars[i].ext ? "%s1" : "%s_Alignof(__lat_sht%d)", i ? ", " : "", i);
        out(t, "};\n");
        if (t->in->checked) {
            out(t, "const char *const __lat_shname[] = {");
            for (int i = 0; i < t->nshvars; i++)
                out(t, "%s\"%.*s\"", i ? ", " : "", (int)t->shvars[i].len, t->shvars[i].name);
            out(t, "};\n");
        }
    }
    reach r = {calloc((size_t)t->nfns + 1, sizeof(bool)), calloc((size_t)t->nmacs + 1, sizeof(bool)), t};
    if (!r.fn || !r.mac) {
        t->oom = true;
    } else {
        for (int k = 0; k < t->nkernels; k++) {
            const char *kn = t->kernels[k];
            size_t at;
            if (!lat__map_get(&t->fn_index, kn, strlen(kn), &at))
                continue; /* cannot happen: every kernel defined was seen by the first pass */
            memset(r.fn, 0, (size_t)t->nfns * sizeof(bool));
            memset(r.mac, 0, (size_t)t->nmacs * sizeof(bool));
            r.fn[at] = true;
            visit(&r, &t->fns[at].idents);
            int count = 0;
            for (int i = 0; i < t->nshvars; i++) {
                const shvar *v = &t->shvars[i];
                if (v->fn >= 0 ? r.fn[v->fn] : names(&r, v->name, v->len))
                    count++;
            }
            out(t, "const int " LAT_EMU_KINFO_PREFIX "%s[] = {%d, %d", kn, t->fns[at].mode, count);
            for (int i = 0; i < t->nshvars; i++) {
                const shvar *v = &t->shvars[i];
                if (v->fn >= 0 ? r.fn[v->fn] : names(&r, v->name, v->len))
                    out(t, ", %d", i);
            }
            out(t, "};\n");
        }
    }
    free(r.fn);
    free(r.mac);
    for (int i = 0; i < t->ngvars; i++) {
        int n = (int)t->gvars[i].len;
        const char *g = t->gvars[i].name;
        out(t, "void *const " LAT_EMU_GADDR_PREFIX "%.*s = (void *)&%.*s; const unsigned long "
               LAT_EMU_GSIZE_PREFIX "%.*s = sizeof %.*s;\n", n, g, n, g, n, g, n, g);
    }
}

void lat__tr_free_program(tr *t)
{
    for (int i = 0; i < t->nfns; i++)
        lat__map_free(&t->fns[i].idents);
    free(t->fns);
    lat__map_free(&t->fn_index);
    for (int i = 0; i < t->nmacs; i++)
        lat__map_free(&t->macs[i].idents);
    free(t->macs);
    lat__map_free(&t->mac_index);
    for (int i = 0; i < t->nshvars; i++)
        free(t->shvars[i].type_def);
    free(t->shvars);
    free(t->shnames);
    free(t->gvars);
}
