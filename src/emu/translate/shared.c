/*
 * __shared__ variables (walk.h). Every one gets an index in the module and a typedef of
 * its type, `__lat_shtN`, at file scope (so that the module's size table can take its
 * sizeof); a block's variables live at offsets the emulator lays out per kernel (abi.h):
 *   - an array declared in a function becomes a pointer of the same name to its first
 *     element, so `tile[i][j]` (also from a macro) reads shared memory unchanged;
 *     `sizeof tile` is rewritten to the array's size;
 *   - a scalar or struct in a function becomes a pointer `__lat_shpN`, its uses `(*__lat_shpN)`;
 *   - a variable at file scope is used as `(*(__lat_shtN *)(shared + offset))`;
 *   - `extern __shared__` arrays all start at the block's dynamic shared memory.
 * Also: the names of file-scope __device__ and __constant__ variables, for get_global.
 */
#include "walk.h"

#include "error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SH_ARRAY = 1, SH_DEREF = 2, SH_FILE = 3 };

int lat__tr_split_declarators(const walk *w, size_t d, size_t end, declarator *decls, int max)
{
    int n = 0;
    size_t b = d;
    for (size_t j = d; j <= end && n < max; j = j < end ? next_code(w, j) : end + 1) {
        if (j < end && (is(w, j, "(") || is(w, j, "[") || is(w, j, "{"))) {
            size_t c = lat__match_close(w->toks, j);
            if (c >= end)
                return 0;
            j = c;
            continue;
        }
        if (j < end && !is(w, j, ","))
            continue;
        /* The part [b, j): its name is the last identifier before a '[' or '=' at depth 0. */
        declarator dc = {b, j, SIZE_MAX, SIZE_MAX, SIZE_MAX};
        for (size_t k = b; k < j; k = next_code(w, k)) {
            if (is(w, k, "=")) {
                dc.eq = k;
                break;
            }
            if (is(w, k, "[")) {
                if (dc.bracket == SIZE_MAX)
                    dc.bracket = k;
                k = lat__match_close(w->toks, k);
                continue;
            }
            if (is(w, k, "(")) {
                k = lat__match_close(w->toks, k);
                continue;
            }
            if (dc.bracket == SIZE_MAX && tok(w, k)->kind == LAT__TOK_IDENT &&
                !lat__tr_is_attribute_word(w, k))
                dc.name = k;
        }
        if (dc.name == SIZE_MAX)
            return 0;
        if (n == 0) {
            /* Where the first declarator begins: its '*'s and their qualifiers. */
            size_t s = dc.name;
            bool star = false;
            for (size_t p = prev_code(w, s); p != SIZE_MAX && p >= d; p = prev_code(w, p)) {
                if (is(w, p, "*"))
                    star = true;
                else if (!lat__tok_is_qualifier(w->toks, tok(w, p)))
                    break;
                s = p;
            }
            dc.b = star ? s : dc.name;
            while (star && !is(w, dc.b, "*"))
                dc.b = next_code(w, dc.b); /* qualifiers before the first '*' are the type's */
        }
        decls[n++] = dc;
        b = j + 1;
    }
    return n;
}

static void append_range(char **buf, size_t *len, const walk *w, size_t b, size_t e,
                         const char *skip_a, const char *skip_b, const char *skip_c, bool *oom)
{
    for (size_t k = b; k < e; k = next_code(w, k)) {
        if ((skip_a && is(w, k, skip_a)) || (skip_b && is(w, k, skip_b)) ||
            (skip_c && is(w, k, skip_c)))
            continue;
        if (lat__strbuf_printf(buf, len, "%s%.*s", *len ? " " : "", (int)tok(w, k)->len,
                               text_of(w, k)) != 0)
            *oom = true;
    }
}

static int push_name(tr *t, const char *name, size_t len, int depth, int index, int kind)
{
    if (t->nshnames == t->shnames_cap) {
        int cap = t->shnames_cap ? t->shnames_cap * 2 : 16;
        shname *p = realloc(t->shnames, (size_t)cap * sizeof *p);
        if (!p) {
            t->oom = true;
            return -1;
        }
        t->shnames = p;
        t->shnames_cap = cap;
    }
    t->shnames[t->nshnames++] = (shname){name, len, depth, index * 4 + kind};
    return 0;
}

static int add_shvar(tr *t, shvar v)
{
    if (t->nshvars == t->shvars_cap) {
        int cap = t->shvars_cap ? t->shvars_cap * 2 : 16;
        shvar *p = realloc(t->shvars, (size_t)cap * sizeof *p);
        if (!p) {
            t->oom = true;
            return -1;
        }
        t->shvars = p;
        t->shvars_cap = cap;
    }
    t->shvars[t->nshvars++] = v;
    return 0;
}

size_t lat__tr_shared_statement(walk *w, size_t i)
{
    tr *t = w->t;
    size_t end = SIZE_MAX, sh = SIZE_MAX;
    bool init = false;
    for (size_t j = i; j < w->toks->count; j = next_code(w, j)) {
        if (is(w, j, "="))
            init = true;
        if (is(w, j, "(") || is(w, j, "[") || (init && is(w, j, "{"))) {
            j = lat__match_close(w->toks, j);
            if (j >= w->toks->count)
                return 0;
            continue;
        }
        if (is(w, j, "{") || is(w, j, "}"))
            return 0; /* a function, a struct's body, a block: not a plain declaration */
        if (is(w, j, ";")) {
            end = j;
            break;
        }
        if (is(w, j, "__shared__"))
            sh = j;
    }
    if (sh == SIZE_MAX || end == SIZE_MAX)
        return 0;
    declarator d[64];
    int n = lat__tr_split_declarators(w, i, end, d, 64);
    if (n == 0) {
        lat__tr_reject(w, sh, "this __shared__ declaration", "the translator cannot read it");
        return 0;
    }
    bool ext = false;
    for (size_t k = i; k < d[0].b; k = next_code(w, k))
        if (is(w, k, "extern"))
            ext = true;
    bool file_scope = w->nested == 0;
    bool oom = false;
    char *repl = NULL;
    size_t rlen = 0;
    for (int k = 0; k < n; k++) {
        if (d[k].eq != SIZE_MAX) {
            lat__tr_reject(w, d[k].eq, "an initializer of a __shared__ variable",
                           "CUDA does not allow one either");
            continue;
        }
        /* typedef SPEC PTRS __lat_shtN SUFFIX; */
        char *def = NULL;
        size_t dl = 0;
        if (lat__strbuf_printf(&def, &dl, "typedef") != 0)
            oom = true;
        append_range(&def, &dl, w, i, d[0].b, "__shared__", "extern", "static", &oom);
        append_range(&def, &dl, w, k == 0 ? d[0].b : d[k].b, d[k].name, NULL, NULL, NULL, &oom);
        int index = t->pass == 1 ? t->nshvars : t->sh_next++;
        if (lat__strbuf_printf(&def, &dl, " __lat_sht%d", index) != 0)
            oom = true;
        append_range(&def, &dl, w, next_code(w, d[k].name), d[k].e, NULL, NULL, NULL, &oom);
        if (lat__strbuf_printf(&def, &dl, ";") != 0)
            oom = true;
        if (oom) {
            free(def);
            break;
        }
        const char *nm = text_of(w, d[k].name);
        size_t nlen = tok(w, d[k].name)->len;
        if (t->pass == 1) {
            if (add_shvar(t, (shvar){def, nm, nlen, ext, file_scope ? -1 : t->cur_fn}) != 0)
                free(def);
            continue;
        }
        if (index >= t->nshvars || t->shvars[index].len != nlen ||
            memcmp(t->shvars[index].name, nm, nlen) != 0) {
            free(def);
            lat__tr_reject(w, d[k].name, "this __shared__ declaration",
                           "the translator lost count of the __shared__ variables (a lattice bug)");
            continue;
        }
        bool array = d[k].bracket != SIZE_MAX;
        if (file_scope) {
            if (lat__strbuf_printf(&repl, &rlen, "%s ", def) != 0)
                oom = true;
            push_name(t, nm, nlen, 0, index, SH_FILE);
        } else if (array) {
            /* SPEC PTRS (*name)[D2]... = (void *)(base); */
            append_range(&repl, &rlen, w, i, d[0].b, "__shared__", "extern", "static", &oom);
            append_range(&repl, &rlen, w, k == 0 ? d[0].b : d[k].b, d[k].name, NULL, NULL,
                         NULL, &oom);
            if (lat__strbuf_printf(&repl, &rlen, " (*%.*s)", (int)nlen, nm) != 0)
                oom = true;
            append_range(&repl, &rlen, w, lat__match_close(w->toks, d[k].bracket) + 1, d[k].e,
                         NULL, NULL, NULL, &oom);
            if (ext ? lat__strbuf_printf(&repl, &rlen, " = (void *)__lat_t->dshared; ") != 0
                    : lat__strbuf_printf(&repl, &rlen,
                                         " = (void *)(__lat_t->shared + __lat_t->shoff[%d]); ",
                                         index) != 0)
                oom = true;
            push_name(t, nm, nlen, w->nbraces, index, SH_ARRAY);
        } else {
            if (ext ? lat__strbuf_printf(&repl, &rlen,
                                         "__lat_sht%d *__lat_shp%d = (void *)__lat_t->dshared; ",
                                         index, index) != 0
                    : lat__strbuf_printf(&repl, &rlen,
                                         "__lat_sht%d *__lat_shp%d = (void *)(__lat_t->shared + "
                                         "__lat_t->shoff[%d]); ",
                                         index, index, index) != 0)
                oom = true;
            push_name(t, nm, nlen, w->nbraces, index, SH_DEREF);
        }
        free(def);
    }
    if (t->pass == 2) {
        for (int l = tok(w, i)->line; l < tok(w, end)->line; l++)
            if (lat__strbuf_append(&repl, &rlen, "\n", 1) != 0)
                oom = true;
        if (!oom)
            lat__tr_replace(w, tok(w, i)->off, tok(w, end)->off + 1, repl ? repl : "");
    }
    free(repl);
    if (oom)
        t->oom = true;
    return end + 1;
}

static const shname *find_name(const tr *t, const char *s, size_t n)
{
    for (int k = t->nshnames - 1; k >= 0; k--)
        if (t->shnames[k].len == n && memcmp(t->shnames[k].name, s, n) == 0)
            return &t->shnames[k];
    return NULL;
}

const char *lat__tr_shared_use(walk *w, size_t i, char *buf, size_t size)
{
    tr *t = w->t;
    if (t->nshnames == 0)
        return NULL;
    const shname *s = find_name(t, text_of(w, i), tok(w, i)->len);
    if (!s)
        return NULL;
    int index = s->index / 4, kind = s->index % 4;
    if (kind == SH_ARRAY)
        return NULL;
    if (kind == SH_DEREF)
        snprintf(buf, size, "(*__lat_shp%d)", index);
    else if (t->shvars[index].ext)
        snprintf(buf, size, "(*(__lat_sht%d *)__lat_t->dshared)", index);
    else
        snprintf(buf, size, "(*(__lat_sht%d *)(__lat_t->shared + __lat_t->shoff[%d]))", index,
                 index);
    return buf;
}

int lat__tr_shared_sizeof(walk *w, size_t i, size_t *last)
{
    tr *t = w->t;
    if (t->nshnames == 0)
        return -1;
    size_t n = next_code(w, i), close = SIZE_MAX;
    if (is(w, n, "(")) {
        close = lat__match_close(w->toks, n);
        n = next_code(w, n);
        if (next_code(w, n) != close)
            return -1;
    }
    if (tok(w, n)->kind != LAT__TOK_IDENT)
        return -1;
    const shname *s = find_name(t, text_of(w, n), tok(w, n)->len);
    if (!s || s->index % 4 != SH_ARRAY)
        return -1;
    *last = close != SIZE_MAX ? close : n;
    return s->index / 4;
}

void lat__tr_shared_scope_end(walk *w)
{
    tr *t = w->t;
    while (t->nshnames > 0 && t->shnames[t->nshnames - 1].depth > w->nbraces)
        t->nshnames--;
}

void lat__tr_shared_typedefs(walk *w, size_t at, int fn)
{
    tr *t = w->t;
    if (t->pass != 2 || fn < 0)
        return;
    char *buf = NULL;
    size_t len = 0;
    bool oom = false;
    for (int k = 0; k < t->nshvars; k++)
        if (t->shvars[k].fn == fn &&
            lat__strbuf_printf(&buf, &len, "%s ", t->shvars[k].type_def) != 0)
            oom = true;
    if (oom)
        t->oom = true;
    else if (buf)
        lat__tr_replace(w, tok(w, at)->off, tok(w, at)->off, buf); /* not written yet */
    free(buf);
}

void lat__tr_note_globals(walk *w, size_t d)
{
    tr *t = w->t;
    if (t->pass != 2)
        return;
    size_t end = d;
    while (end < w->toks->count && !is(w, end, ";")) {
        if (is(w, end, "(") || is(w, end, "[") || is(w, end, "{"))
            end = lat__match_close(w->toks, end);
        if (end < w->toks->count)
            end = next_code(w, end);
    }
    if (end >= w->toks->count)
        return;
    declarator dc[64];
    int n = lat__tr_split_declarators(w, d, end, dc, 64);
    for (size_t k = d; k < (n ? dc[0].b : end); k = next_code(w, k))
        if (is(w, k, "extern"))
            return; /* a declaration: the definition is elsewhere */
    for (int k = 0; k < n; k++) {
        if (t->ngvars == t->gvars_cap) {
            int cap = t->gvars_cap ? t->gvars_cap * 2 : 16;
            gvar *p = realloc(t->gvars, (size_t)cap * sizeof *p);
            if (!p) {
                t->oom = true;
                return;
            }
            t->gvars = p;
            t->gvars_cap = cap;
        }
        t->gvars[t->ngvars++] = (gvar){text_of(w, dc[k].name), tok(w, dc[k].name)->len};
    }
}
