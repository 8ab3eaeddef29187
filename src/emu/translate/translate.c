/*
 * The CUDA C to C translator (translate.h). It works on tokens and edits the source
 * text in place: text between edits is copied as it is, so every user token keeps its
 * line. The whole program (root file and #included files) is walked twice: the first
 * walk learns the __device__ functions' names, the second rewrites and reports.
 */
#include "walk.h"

#include "emu/prelude.h"
#include "error.h"
#include "front/headers.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_ERRORS = 20, MAX_INCLUDE_DEPTH = 64 };

/* ---- output and messages -------------------------------------------------------------- */

static void out_append(tr *t, const char *s, size_t n)
{
    if (t->pass == 2 && !t->oom && lat__strbuf_append(&t->out, &t->out_len, s, n) != 0)
        t->oom = true;
}

void lat__tr_out_str(tr *t, const char *s)
{
    out_append(t, s, strlen(s));
}

/* Appends `#line LINE "NAME"` (the name escaped) to a buffer. */
void lat__tr_line_marker(char **buf, size_t *len, int line, const char *name, bool *oom)
{
    if (lat__strbuf_printf(buf, len, "#line %d \"", line) != 0)
        *oom = true;
    for (const char *p = name; *p; p++)
        if (lat__strbuf_printf(buf, len, "%s%c", *p == '"' || *p == '\\' ? "\\" : "", *p) != 0)
            *oom = true;
    if (lat__strbuf_append(buf, len, "\"", 1) != 0)
        *oom = true;
}

static void out_line_marker(tr *t, int line, const char *name);

/* Writes the source up to byte off (never backwards). */
void lat__tr_emit_upto(walk *w, size_t off)
{
    if (off <= w->copied)
        return;
    out_append(w->t, w->f->src + w->copied, off - w->copied);
    w->copied = off;
}

/* Replaces source bytes [from, to) with text. */
void lat__tr_replace(walk *w, size_t from, size_t to, const char *text)
{
    lat__tr_emit_upto(w, from);
    lat__tr_out_str(w->t, text);
    if (to > w->copied)
        w->copied = to;
}


static void add_error(tr *t, lat_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void add_error(tr *t, lat_status status, const char *fmt, ...)
{
    if (t->status == LAT_OK)
        t->status = status;
    if (++t->nerrors > MAX_ERRORS)
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (lat__strbuf_printf(&t->msg, &t->msg_len, "%s%s", t->msg_len ? "\n" : "", line) != 0)
        t->oom = true;
}

/* Whether the region being walked may be kept by the preprocessor, and whether surely. */
static bool live(const walk *w)
{
    return w->nconds == 0 || w->conds[w->nconds - 1].state != LAT__COND_FALSE;
}

static bool certain(const walk *w)
{
    for (int i = 0; i < w->nconds; i++)
        if (w->conds[i].state != LAT__COND_TRUE)
            return false;
    return true;
}

/* Rejects the construct at token i: "file:LINE:COL: error: X is not supported...". */
void lat__tr_reject(walk *w, size_t i, const char *what, const char *why)
{
    if (w->t->pass != 2 || !live(w))
        return;
    const lat__tok *t = tok(w, i);
    add_error(w->t, LAT_ERROR_UNSUPPORTED,
              "%s:%d:%d: error: %s is not supported by the lattice emulator yet (%s)",
              w->f->display, t->line, t->col, what, why);
}

int lat__tr_push_edit(walk *w, size_t at, edit_kind kind, const char *text)
{
    if (w->t->pass != 2)
        return 0;
    if (w->nedits == w->edits_cap) {
        size_t cap = w->edits_cap ? w->edits_cap * 2 : 16;
        edit *p = realloc(w->edits, cap * sizeof *p);
        if (!p) {
            w->t->oom = true;
            return -1;
        }
        w->edits = p;
        w->edits_cap = cap;
    }
    char *copy = strdup(text);
    if (!copy) {
        w->t->oom = true;
        return -1;
    }
    w->edits[w->nedits++] = (edit){at, kind, copy};
    return 0;
}

/* Applies the pending edits of `kind` at token i. */
static void apply_edits(walk *w, size_t i, edit_kind kind)
{
    for (size_t k = 0; k < w->nedits;) {
        edit *e = &w->edits[k];
        if (e->tok != i || e->kind != kind) {
            k++;
            continue;
        }
        const lat__tok *t = tok(w, i);
        if (kind == EDIT_BEFORE)
            lat__tr_replace(w, t->off, t->off, e->text);
        else if (kind == EDIT_REPLACE)
            lat__tr_replace(w, t->off, t->off + t->len, e->text);
        else
            lat__tr_replace(w, t->off + t->len, t->off + t->len, e->text);
        free(e->text);
        w->edits[k] = w->edits[--w->nedits];
    }
}

/* ---- names ----------------------------------------------------------------------------- */

bool lat__tr_is_attribute_word(const walk *w, size_t i)
{
    static const char *const words[] = {"__launch_bounds__", "__attribute__", "__align__",
                                        "__declspec", "alignas", "_Alignas",
                                        "__builtin_align__"};
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
        if (is(w, i, words[k]))
            return true;
    return false;
}

/* The CUDA function qualifiers token i stands for (itself, or an object-like macro). */
unsigned lat__tr_quals_of(const walk *w, size_t i)
{
    const lat__tok *t = tok(w, i);
    if (t->kind != LAT__TOK_IDENT)
        return 0;
    if (is(w, i, "__global__"))
        return LAT__QUAL_GLOBAL;
    if (is(w, i, "__device__"))
        return LAT__QUAL_DEVICE;
    if (is(w, i, "__host__"))
        return LAT__QUAL_HOST;
    if (t->len >= 2 && text_of(w, i)[0] == '_' && text_of(w, i)[1] == '_')
        return 0; /* reserved names: the prelude's, never a user's qualifier macro */
    const lat__macro *m = lat__macros_find(&w->t->macros, text_of(w, i), t->len);
    return m && m->defined ? m->quals : 0;
}


/* ---- directives ------------------------------------------------------------------------ */

static void walk_file(tr *t, file *f);

static file *load_file(tr *t, const char *path)
{
    for (size_t i = 0; i < t->nfiles; i++)
        if (t->files[i]->path && strcmp(t->files[i]->path, path) == 0)
            return t->files[i];
    if (t->nfiles == t->files_cap) {
        size_t cap = t->files_cap ? t->files_cap * 2 : 8;
        file **p = realloc(t->files, cap * sizeof *p);
        if (!p)
            return NULL;
        t->files = p;
        t->files_cap = cap;
    }
    file *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    t->files[t->nfiles++] = f;
    f->path = strdup(path);
    f->display = strdup(path);
    f->dir = lat__path_dir(path);
    f->real = realpath(path, NULL);
    if (!f->path || !f->display || !f->dir)
        return NULL;
    return f;
}

/* Writes the #line directive for the user's file in the output. */
static void out_line_marker(tr *t, int line, const char *name)
{
    char *buf = NULL;
    size_t len = 0;
    bool oom = false;
    lat__tr_line_marker(&buf, &len, line, name, &oom);
    if (oom)
        t->oom = true;
    else
        lat__tr_out_str(t, buf);
    free(buf);
}

static void do_include(walk *w, size_t i, size_t end)
{
    tr *t = w->t;
    size_t h = i + 2;
    const lat__tok *ht = tok(w, h);
    const lat__tok *last = tok(w, end - 1);
    const lat__tok *hash = tok(w, i);
    if (h >= end || ht->kind != LAT__TOK_STRING || ht->len < 2) {
        lat__tr_reject(w, i, "a computed #include", "name the header in quotes or angle brackets");
        return;
    }
    bool quoted = text_of(w, h)[0] == '"';
    char name[1024];
    if (ht->len - 2 >= sizeof name) {
        lat__tr_reject(w, h, "an #include name this long", "a lattice limit");
        return;
    }
    memcpy(name, text_of(w, h) + 1, ht->len - 2);
    name[ht->len - 2] = '\0';
    char *path = NULL;
    lat__header_kind kind = lat__header_resolve(name, quoted, w->f->dir, t->in->include_dirs,
                                                t->in->option_include_dirs, &path);
    switch (kind) {
    case LAT__HEADER_NOMEM:
        t->oom = true;
        return;
    case LAT__HEADER_BUILTIN:
        lat__tr_replace(w, hash->off, last->off + last->len, "");
        return;
    case LAT__HEADER_UNSUPPORTED: {
        char what[1100];
        snprintf(what, sizeof what, "#include <%s>", name);
        lat__tr_reject(w, h, what, "that CUDA library is not emulated");
        return;
    }
    case LAT__HEADER_MISSING:
        /* In a region that may be dead, leave it to the compiler. */
        if (t->pass == 2 && certain(w)) {
            char dirs[512] = "";
            size_t dl = 0;
            const char *const *lists[2] = {t->in->include_dirs, t->in->option_include_dirs};
            dl += (size_t)snprintf(dirs + dl, sizeof dirs - dl, "%s", quoted ? w->f->dir : "");
            for (int k = 0; k < 2; k++)
                for (const char *const *d = lists[k]; d && *d && dl < sizeof dirs; d++)
                    dl += (size_t)snprintf(dirs + dl, sizeof dirs - dl, "%s%s",
                                           dl ? ", " : "", *d);
            add_error(t, LAT_ERROR_FILE,
                      "%s:%d:%d: error: cannot find the header '%s' (searched: %s)",
                      w->f->display, ht->line, ht->col, name, dl ? dirs : "no directories");
        }
        return;
    case LAT__HEADER_FILE:
        break;
    }
    file *inc = load_file(t, path);
    free(path);
    if (!inc) {
        t->oom = true;
        return;
    }
    if (!inc->src) {
        int err = lat__file_read(inc->path, &inc->owned);
        if (err == ENOMEM) {
            t->oom = true;
            return;
        }
        if (err) {
            if (t->pass == 2)
                add_error(t, LAT_ERROR_FILE, "%s:%d:%d: error: cannot read the header '%s': %s",
                          w->f->display, ht->line, ht->col, inc->path,
                          err == EILSEQ ? "it contains a NUL byte" : strerror(err));
            return;
        }
        inc->src = inc->owned;
        if (lat__lex(inc->src, &inc->toks) != 0) {
            t->oom = true;
            return;
        }
    }
    if (inc->real && lat__map_get(&t->once_done, inc->real, strlen(inc->real), NULL)) {
        lat__tr_replace(w, hash->off, last->off + last->len, "");
        return;
    }
    if (t->depth >= MAX_INCLUDE_DEPTH) {
        if (t->pass == 2)
            add_error(t, LAT_ERROR_FILE,
                      "%s:%d:%d: error: #include nested more than %d deep (does '%s' include "
                      "itself without a guard?)",
                      w->f->display, ht->line, ht->col, MAX_INCLUDE_DEPTH, name);
        return;
    }
    lat__tr_replace(w, hash->off, last->off + last->len, "\n");
    out_line_marker(t, 1, inc->display);
    lat__tr_out_str(t, "\n");
    t->depth++;
    walk_file(t, inc);
    t->depth--;
    lat__tr_out_str(t, "\n");
    out_line_marker(t, hash->line + 1, w->f->display);
}

static int push_cond(walk *w, cond c)
{
    if (w->nconds == w->conds_cap) {
        int cap = w->conds_cap ? w->conds_cap * 2 : 16;
        cond *p = realloc(w->conds, (size_t)cap * sizeof *p);
        if (!p) {
            w->t->oom = true;
            return -1;
        }
        w->conds = p;
        w->conds_cap = cap;
    }
    w->conds[w->nconds++] = c;
    return 0;
}

static lat__cond defined_cond(const walk *w, size_t i)
{
    const lat__tok *n = tok(w, i);
    if (n->kind != LAT__TOK_IDENT)
        return LAT__COND_UNKNOWN;
    const lat__macro *m = lat__macros_find(&w->t->macros, text_of(w, i), n->len);
    if (m)
        return m->uncertain ? LAT__COND_UNKNOWN : m->defined ? LAT__COND_TRUE : LAT__COND_FALSE;
    return n->len > 2 && text_of(w, i)[0] == '_' && text_of(w, i)[1] == '_' ? LAT__COND_UNKNOWN
                                                                           : LAT__COND_FALSE;
}

static lat__cond negate(lat__cond c)
{
    return c == LAT__COND_UNKNOWN ? c : c == LAT__COND_TRUE ? LAT__COND_FALSE : LAT__COND_TRUE;
}

/* #define NAME body: records the macro, and rewrites the body as code. */
static void do_define(walk *w, size_t i, size_t end)
{
    tr *t = w->t;
    size_t n = i + 2;
    if (n >= end || tok(w, n)->kind != LAT__TOK_IDENT)
        return;
    bool function_like = n + 1 < end && is(w, n + 1, "(") && !(tok(w, n + 1)->flags & LAT__TOK_SPACE);
    size_t body = function_like ? lat__match_close(w->toks, n + 1) + 1 : n + 1;
    lat__macro mac = {.name = text_of(w, n), .len = tok(w, n)->len, .defined = true,
                      .uncertain = !certain(w)};
    unsigned quals = 0;
    bool declares = false;
    for (size_t j = body; j < end; j++) {
        unsigned q = lat__tr_quals_of(w, j);
        if (q && j + 1 < end)
            for (size_t k = j + 1; k + 1 < end; k++)
                if (tok(w, k)->kind == LAT__TOK_IDENT && !lat__tr_is_attribute_word(w, k) &&
                    !lat__tr_quals_of(w, k) && is(w, k + 1, "("))
                    declares = true;
        quals |= q;
    }
    if (declares)
        lat__tr_reject(w, n, "a function declared inside a macro",
               "the translator must see __global__ and __device__ functions as written");
    mac.quals = quals;
    if (!function_like && body < end) {
        mac.value = text_of(w, body);
        mac.vlen = tok(w, end - 1)->off + tok(w, end - 1)->len - tok(w, body)->off;
    } else if (!function_like) {
        mac.value = "";
    }
    if (lat__macros_set(&t->macros, &mac) != 0)
        t->oom = true;
    if (t->pass == 1)
        t->cur_mac = lat__tr_add_macro(t, text_of(w, n), tok(w, n)->len);
    for (size_t j = body; j < end; j = lat__tr_rewrite_token(w, j, true) + 1) {
    }
    t->cur_mac = -1;
}

static void do_directive(walk *w, size_t i, size_t end)
{
    tr *t = w->t;
    size_t d = i + 1;
    if (d >= end)
        return;
    bool is_live = live(w);
    cond *top = w->nconds ? &w->conds[w->nconds - 1] : NULL;
    if (is(w, d, "if") || is(w, d, "ifdef") || is(w, d, "ifndef")) {
        cond c = {LAT__COND_FALSE, !is_live, false, false};
        if (is_live) {
            if (is(w, d, "if"))
                c.state = lat__macros_eval(&t->macros, w->toks, d + 1, end);
            else
                c.state = is(w, d, "ifdef") ? defined_cond(w, d + 1) : negate(defined_cond(w, d + 1));
        }
        c.taken = c.state == LAT__COND_TRUE;
        c.maybe = c.state == LAT__COND_UNKNOWN;
        push_cond(w, c);
    } else if (is(w, d, "elif") && top) {
        lat__cond s = LAT__COND_FALSE;
        if (!top->dead && !top->taken) {
            s = lat__macros_eval(&t->macros, w->toks, d + 1, end);
            if (top->maybe && s == LAT__COND_TRUE)
                s = LAT__COND_UNKNOWN;
        }
        top->state = s;
        top->taken |= s == LAT__COND_TRUE;
        top->maybe |= s == LAT__COND_UNKNOWN;
    } else if (is(w, d, "else") && top) {
        top->state = top->dead || top->taken ? LAT__COND_FALSE
                     : top->maybe           ? LAT__COND_UNKNOWN
                                            : LAT__COND_TRUE;
    } else if (is(w, d, "endif") && top) {
        w->nconds--;
    } else if (!is_live) {
        return;
    } else if (is(w, d, "define")) {
        do_define(w, i, end);
    } else if (is(w, d, "undef") && d + 1 < end && tok(w, d + 1)->kind == LAT__TOK_IDENT) {
        lat__macro mac = {.name = text_of(w, d + 1), .len = tok(w, d + 1)->len,
                          .uncertain = !certain(w)};
        if (lat__macros_set(&t->macros, &mac) != 0)
            t->oom = true;
    } else if (is(w, d, "include")) {
        do_include(w, i, end);
    } else if (is(w, d, "pragma") && is(w, d + 1, "once")) {
        file *f = w->f;
        if (f->real && lat__map_put(&t->once_done, f->real, strlen(f->real), 1) != 0)
            t->oom = true;
        lat__tr_replace(w, tok(w, i)->off, tok(w, end - 1)->off + tok(w, end - 1)->len, "");
    }
}

/* ---- walking a file -------------------------------------------------------------------- */

static void walk_file(tr *t, file *f)
{
    walk w;
    memset(&w, 0, sizeof w);
    w.t = t;
    w.f = f;
    w.toks = &f->toks;
    w.record_brace = SIZE_MAX;
    w.plan_name = SIZE_MAX;
    w.planned = SIZE_MAX;
    size_t count = f->toks.count;
    for (size_t i = 0; i < count; i++) {
        const lat__tok *tk = &f->toks.items[i];
        if (tk->kind != LAT__TOK_IDENT)
            continue;
        unsigned part = lat__emu_prelude_part(f->src + tk->off, tk->len);
        t->prelude_parts |= part;
        if (part & LAT_EMU_PRELUDE_VECTORS)
            t->uses_vectors = true;
        if (tk->len == 10 && memcmp(f->src + tk->off, "__shared__", 10) == 0)
            w.has_shared = true;
    }
    for (size_t i = 0; i < count && !t->oom;) {
        const lat__tok *tk = &f->toks.items[i];
        if ((tk->flags & LAT__TOK_PP) && (tk->flags & LAT__TOK_BOL)) {
            size_t end = lat__directive_end(&f->toks, i);
            do_directive(&w, i, end);
            i = end;
            continue;
        }
        if (tk->flags & LAT__TOK_PP) {
            i++; /* a directive's stray token, as after a computed #include */
            continue;
        }
        if (!live(&w)) {
            i++;
            continue;
        }
        if (w.region)
            lat__tr_region_token(&w, i);
        apply_edits(&w, i, EDIT_BEFORE);
        if (w.has_shared && i == w.decl_start) {
            size_t next = lat__tr_shared_statement(&w, i);
            if (next) {
                w.decl_start = next;
                i = next;
                continue;
            }
        }
        apply_edits(&w, i, EDIT_REPLACE);
        if (w.nested == 0 && w.planned != w.decl_start) {
            w.planned = w.decl_start;
            lat__tr_plan_declaration(&w, i);
        }
        size_t last = lat__tr_rewrite_token(&w, i, false);
        if (last == i)
            lat__tr_track_structure(&w, i);
        apply_edits(&w, i, EDIT_AFTER);
        i = last + 1;
    }
    lat__tr_emit_upto(&w, strlen(f->src));
    lat__tr_region_free(&w);
    for (size_t k = 0; k < w.nedits; k++)
        free(w.edits[k].text);
    free(w.edits);
    free(w.braces);
    free(w.conds);
}

/* ---- the whole program ----------------------------------------------------------------- */

static int define_options(tr *t)
{
    for (const char *const *d = t->in->defines; d && *d; d++) {
        const char *eq = strchr(*d, '=');
        lat__macro mac = {.name = *d, .len = eq ? (size_t)(eq - *d) : strlen(*d), .defined = true};
        mac.value = eq ? eq + 1 : "1";
        mac.vlen = strlen(mac.value);
        if (lat__macros_set(&t->macros, &mac) != 0)
            return -1;
    }
    for (const char *const *u = t->in->undefines; u && *u; u++) {
        lat__macro mac = {.name = *u, .len = strlen(*u)};
        if (lat__macros_set(&t->macros, &mac) != 0)
            return -1;
    }
    return 0;
}

static void free_tr(tr *t)
{
    for (size_t i = 0; i < t->nfiles; i++) {
        file *f = t->files[i];
        free(f->path);
        free(f->display);
        free(f->dir);
        free(f->real);
        free(f->owned);
        lat__toks_free(&f->toks);
        free(f);
    }
    free(t->files);
    lat__macros_free(&t->macros);
    lat__map_free(&t->devfns);
    lat__map_free(&t->defined);
    lat__map_free(&t->once_done);
    lat__tr_free_program(t);
    free(t->out);
    free(t->msg);
    for (int i = 0; i < t->nkernels; i++)
        free(t->kernels[i]);
    free(t->kernels);
}

lat_status lat__emu_translate(const lat__translate_in *in, lat__translate_out *out)
{
    memset(out, 0, sizeof *out);
    tr t;
    memset(&t, 0, sizeof t);
    t.in = in;
    t.macros.base = lat__macros_prelude();
    file *root = calloc(1, sizeof *root);
    t.files = calloc(8, sizeof *t.files);
    if (!t.macros.base || !root || !t.files) {
        free(root);
        free(t.files);
        return LAT_ERROR_OUT_OF_MEMORY;
    }
    t.files_cap = 8;
    t.files[t.nfiles++] = root;
    root->display = strdup(in->name);
    root->dir = lat__path_dir(in->name);
    root->src = in->text;
    if (!root->display || !root->dir || lat__lex(in->text, &root->toks) != 0) {
        free_tr(&t);
        return LAT_ERROR_OUT_OF_MEMORY;
    }
    t.cur_fn = t.cur_mac = -1;
    for (t.pass = 1; t.pass <= 2 && !t.oom; t.pass++) {
        if (t.pass == 2)
            lat__tr_close_program(&t);
        t.cur_fn = -1;
        t.sh_next = 0;
        t.nshnames = 0;
        lat__macros_free(&t.macros);
        t.macros.base = lat__macros_prelude();
        lat__map_free(&t.once_done);
        if (define_options(&t) != 0) {
            t.oom = true;
            break;
        }
        if (t.pass == 2)
            out_line_marker(&t, 1, root->display);
        lat__tr_out_str(&t, "\n");
        walk_file(&t, root);
    }
    t.pass = 2;
    if (!t.oom && t.status == LAT_OK)
        lat__tr_emit_tables(&t);
    if (t.nerrors > MAX_ERRORS &&
        lat__strbuf_printf(&t.msg, &t.msg_len, "\n(%d more errors not shown)",
                           t.nerrors - MAX_ERRORS) != 0)
        t.oom = true;
    lat_status st = t.oom ? LAT_ERROR_OUT_OF_MEMORY : t.status;
    if (st == LAT_OK) {
        out->text = t.out;
        out->kernels = t.kernels;
        out->nkernels = t.nkernels;
        out->uses_vectors = t.uses_vectors;
        out->prelude_parts = t.prelude_parts;
        out->globals = calloc((size_t)t.ngvars + 1, sizeof *out->globals);
        for (int i = 0; out->globals && i < t.ngvars; i++) {
            out->globals[i] = strndup(t.gvars[i].name, t.gvars[i].len);
            if (!out->globals[i])
                break;
            out->nglobals++;
        }
        if (!out->globals || out->nglobals < t.ngvars)
            st = LAT_ERROR_OUT_OF_MEMORY;
        t.out = NULL;
        t.kernels = NULL;
        t.nkernels = 0;
    } else {
        out->msg = t.msg;
        t.msg = NULL;
    }
    free_tr(&t);
    return st;
}

void lat__translate_out_free(lat__translate_out *out)
{
    free(out->text);
    free(out->msg);
    for (int i = 0; i < out->nkernels; i++)
        free(out->kernels[i]);
    free(out->kernels);
    for (int i = 0; i < out->nglobals; i++)
        free(out->globals[i]);
    free(out->globals);
    memset(out, 0, sizeof *out);
}

