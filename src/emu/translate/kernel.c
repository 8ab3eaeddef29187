/* The translator's rewrite of function declarations: the hidden thread-context
 * parameter of __global__ and __device__ functions, and each kernel's thread loop, entry
 * and parameter-size query (walk.h, abi.h). */
#include "walk.h"

#include "emu/abi.h"
#include "error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- kernel entries ------------------------------------------------------------------ */

static void append_tok_text(char **buf, size_t *len, const walk *w, size_t i, bool *oom)
{
    if (*len && lat__strbuf_append(buf, len, " ", 1) != 0)
        *oom = true;
    if (lat__strbuf_append(buf, len, text_of(w, i), tok(w, i)->len) != 0)
        *oom = true;
}

/* Appends parameter [b, e) declared as a local named `name`: arrays become pointers
 * (float a[] is float (*name)), unnamed parameters get the name. */
static void local_decl(char **buf, size_t *len, const walk *w, size_t b, size_t e,
                       const char *name, bool *oom)
{
    lat__param_decl d;
    lat__parse_param_decl(w->toks, b, e, &d);
    size_t after = d.array != SIZE_MAX ? lat__match_close(w->toks, d.array) + 1
                   : d.name != SIZE_MAX ? d.name + 1
                                        : d.slot;
    for (size_t i = b; i < d.slot; i++)
        if (!(tok(w, i)->flags & LAT__TOK_PP))
            append_tok_text(buf, len, w, i, oom);
    if (lat__strbuf_printf(buf, len, d.array != SIZE_MAX ? " (*%s)" : " %s", name) != 0)
        *oom = true;
    for (size_t i = after; i < e; i++)
        if (!(tok(w, i)->flags & LAT__TOK_PP))
            append_tok_text(buf, len, w, i, oom);
}

/* Whether parameter [b, e) is itself const (const int n, float *const p), so that a
 * kernel's threads can share it without a copy each. */
static bool top_level_const(const walk *w, size_t b, size_t e)
{
    lat__param_decl d;
    lat__parse_param_decl(w->toks, b, e, &d);
    if (d.pointer || d.name == SIZE_MAX)
        return false;
    bool is_const = false;
    for (size_t i = b; i < d.name; i++) {
        if (is(w, i, "*"))
            is_const = false; /* what was const is what it points to */
        else if (is(w, i, "const"))
            is_const = true;
    }
    return is_const;
}

static void split_params(const walk *w, size_t open, size_t close, params *p)
{
    p->n = 0;
    p->too_many = false;
    size_t first = next_code(w, open);
    if (first >= close || (is(w, first, "void") && next_code(w, first) == close))
        return;
    size_t b = open + 1;
    for (size_t i = open + 1; i <= close; i++) {
        if (i < close && (is(w, i, "(") || is(w, i, "[") || is(w, i, "{"))) {
            size_t c = lat__match_close(w->toks, i);
            i = c < close ? c : close - 1;
            continue;
        }
        if (i == close || is(w, i, ",")) {
            if (p->n == 256) {
                p->too_many = true;
                return;
            }
            p->b[p->n] = b;
            p->e[p->n] = i;
            p->n++;
            b = i + 1;
        }
    }
}

/* The kernel runs the threads of a block itself: its body becomes the body of a loop
 * over them, so that a thread costs no call. Before the body: the loop, and a copy of
 * each parameter the body could modify, so that every thread starts from the launch's
 * values. `return` (also from a macro) ends the thread, not the loop. #line markers keep
 * the body on its lines. */
static char *kernel_head(const walk *w, size_t open, const params *p, const bool *copied)
{
    char *buf = NULL;
    size_t len = 0;
    bool oom = false;
    if (lat__strbuf_printf(&buf, &len, "\n#define return goto __lat_next\n") != 0)
        oom = true;
    lat__tr_line_marker(&buf, &len, tok(w, open)->line, w->f->display, &oom);
    if (lat__strbuf_printf(
            &buf, &len,
            "\n unsigned __lat_x, __lat_y, __lat_z, __lat_bx = __lat_t->block_dim.x,"
            " __lat_by = __lat_t->block_dim.y, __lat_bz = __lat_t->block_dim.z;"
            " for (__lat_z = 0; __lat_z < __lat_bz; __lat_z++) { __lat_t->thread_idx.z = __lat_z;"
            " for (__lat_y = 0; __lat_y < __lat_by; __lat_y++) { __lat_t->thread_idx.y = __lat_y;"
            " for (__lat_x = 0; __lat_x < __lat_bx; __lat_x++) { __lat_t->thread_idx.x = __lat_x; {") != 0)
        oom = true;
    for (int i = 0; i < p->n; i++) {
        if (!copied[i])
            continue;
        lat__param_decl d;
        lat__parse_param_decl(w->toks, p->b[i], p->e[i], &d);
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)tok(w, d.name)->len, text_of(w, d.name));
        local_decl(&buf, &len, w, p->b[i], p->e[i], name, &oom);
        if (lat__strbuf_printf(&buf, &len, " = __lat_p%d;", i) != 0)
            oom = true;
    }
    if (lat__strbuf_printf(&buf, &len, " {") != 0)
        oom = true;
    if (oom) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* What closes the loop, before the body's closing brace (on its line). */
static char *kernel_tail(const walk *w, size_t close)
{
    char *buf = NULL;
    size_t len = 0;
    bool oom = lat__strbuf_printf(&buf, &len, "} } __lat_next: ; } } }\n#undef return\n") != 0;
    lat__tr_line_marker(&buf, &len, tok(w, close)->line, w->f->display, &oom);
    if (lat__strbuf_printf(&buf, &len, "\n") != 0)
        oom = true;
    if (oom) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* The text put after a kernel's body: its entry, which unpacks the launch's arguments
 * and calls it, and its parameter-size query (abi.h). */
static char *entry_text(const walk *w, size_t name, const params *p)
{
    char *buf = NULL;
    size_t len = 0;
    bool oom = false;
    int kn = (int)tok(w, name)->len;
    const char *k = text_of(w, name);
    if (lat__strbuf_printf(&buf, &len,
                           " void __lat_entry_%.*s(lat_emu_thread *__lat_t, void **__lat_p) {",
                           kn, k) != 0)
        oom = true;
    for (int i = 0; i < p->n; i++) {
        char local[32];
        snprintf(local, sizeof local, "__lat_a%d", i);
        local_decl(&buf, &len, w, p->b[i], p->e[i], local, &oom);
        if (lat__strbuf_printf(&buf, &len, " = *(typeof(__lat_a%d) *)__lat_p[%d];", i, i) != 0)
            oom = true;
    }
    if (lat__strbuf_printf(&buf, &len, " %.*s(__lat_t", kn, k) != 0)
        oom = true;
    for (int i = 0; i < p->n; i++)
        if (lat__strbuf_printf(&buf, &len, ", __lat_a%d", i) != 0)
            oom = true;
    if (lat__strbuf_printf(&buf, &len,
                           "); } int __lat_sizes_%.*s(unsigned long *__lat_s) { if (__lat_s) {",
                           kn, k) != 0)
        oom = true;
    for (int i = 0; i < p->n; i++) {
        char local[32];
        snprintf(local, sizeof local, "__lat_a%d", i);
        local_decl(&buf, &len, w, p->b[i], p->e[i], local, &oom);
        if (lat__strbuf_printf(&buf, &len, "; __lat_s[%d] = sizeof __lat_a%d;", i, i) != 0)
            oom = true;
    }
    if (lat__strbuf_printf(&buf, &len, " } return %d; }", p->n) != 0)
        oom = true;
    if (oom) {
        free(buf);
        return NULL;
    }
    return buf;
}

static void add_kernel(tr *t, const char *name, size_t n)
{
    if (t->nkernels == t->kernels_cap) {
        int cap = t->kernels_cap ? t->kernels_cap * 2 : 8;
        char **p = realloc(t->kernels, (size_t)cap * sizeof *p);
        if (!p) {
            t->oom = true;
            return;
        }
        t->kernels = p;
        t->kernels_cap = cap;
    }
    char *s = malloc(n + 1);
    if (!s) {
        t->oom = true;
        return;
    }
    memcpy(s, name, n);
    s[n] = '\0';
    t->kernels[t->nkernels++] = s;
}

/* ---- declarations at file scope --------------------------------------------------------- */

/* Reads the declaration starting at token d (at file scope): a function gets its hidden
 * parameter when it is __global__ or __device__, a kernel its entry; a __device__
 * variable is rejected; any function's parameters are checked for C++. */
void lat__tr_plan_declaration(walk *w, size_t d)
{
    tr *t = w->t;
    unsigned quals = 0;
    size_t name = SIZE_MAX, qual_at = SIZE_MAX;
    size_t i = d;
    bool constant = false;
    t->cur_fn = -1;
    for (; i < w->toks->count; i = next_code(w, i)) {
        if (is(w, i, ";") || is(w, i, "{") || is(w, i, "=") || is(w, i, "[") || is(w, i, "}"))
            break;
        unsigned q = lat__tr_quals_of(w, i);
        if (q && qual_at == SIZE_MAX)
            qual_at = i;
        quals |= q;
        if (is(w, i, "__constant__"))
            constant = true;
        if (tok(w, i)->kind == LAT__TOK_IDENT && is(w, next_code(w, i), "(")) {
            if (lat__tr_is_attribute_word(w, i)) {
                i = lat__match_close(w->toks, next_code(w, i));
                continue;
            }
            name = i;
            break;
        }
        if (is(w, i, "("))
            break; /* a parenthesised declarator: a function pointer variable */
    }
    if (name == SIZE_MAX) {
        /* A __device__ or __constant__ variable: a global of the module. */
        if (constant || ((quals & LAT__QUAL_DEVICE) && !(quals & LAT__QUAL_GLOBAL)))
            lat__tr_note_globals(w, d);
        return;
    }
    size_t open = next_code(w, name);
    size_t close = lat__match_close(w->toks, open);
    if (close >= w->toks->count)
        return;
    size_t after = next_code(w, close);
    while (lat__tr_is_attribute_word(w, after) && is(w, next_code(w, after), "(")) {
        after = next_code(w, lat__match_close(w->toks, next_code(w, after)));
    }
    bool definition = is(w, after, "{");
    bool hidden = (quals & (LAT__QUAL_GLOBAL | LAT__QUAL_DEVICE)) != 0;
    bool kernel = (quals & LAT__QUAL_GLOBAL) != 0;
    const char *nm = text_of(w, name);
    size_t nlen = tok(w, name)->len;

    w->plan_name = name;
    if (t->pass == 1) {
        if (hidden && !kernel && lat__map_put(&t->devfns, nm, nlen, 1) != 0)
            t->oom = true;
        if (hidden && definition)
            t->cur_fn = lat__tr_add_fn(t, nm, nlen, kernel);
        return;
    }
    fninfo *fi = hidden && definition ? lat__tr_find_fn(t, nm, nlen) : NULL;
    if (fi) {
        t->cur_fn = (int)(fi - t->fns);
        lat__tr_shared_typedefs(w, d, t->cur_fn);
        if (kernel)
            fi->mode = fi->sync || t->in->checked ? LAT_EMU_MODE_FIBER : LAT_EMU_MODE_PLAIN;
    }

    params p;
    split_params(w, open, close, &p);
    if (p.too_many) {
        lat__tr_reject(w, open, "a function with more than 256 parameters", "a lattice limit");
        return;
    }
    /* C++ in the parameter list: references and default arguments. */
    for (int k = 0; k < p.n; k++) {
        int depth = 0;
        for (size_t j = p.b[k]; j < p.e[k]; j++) {
            if (is(w, j, "(") || is(w, j, "["))
                depth++;
            else if (is(w, j, ")") || is(w, j, "]"))
                depth--;
            else if (depth == 0 && (is(w, j, "&") || is(w, j, "&&")))
                lat__tr_reject(w, j, "a reference parameter", lat__tr_why_cxx);
            else if (depth == 0 && is(w, j, "="))
                lat__tr_reject(w, j, "a default argument", lat__tr_why_cxx);
            else if (kernel && is(w, j, "..."))
                lat__tr_reject(w, j, "a variadic __global__ function", "CUDA has none either");
        }
    }
    if (definition) {
        if (lat__map_get(&t->defined, nm, nlen, NULL)) {
            lat__tr_reject(w, name, "function overloading (a second definition of a name)",
                           "C has one function per name; give each variant its own");
            return;
        }
        if (lat__map_put(&t->defined, nm, nlen, 1) != 0)
            t->oom = true;
    }
    if (!hidden)
        return;

    /* A kernel with barriers: region loops where its body allows, else fibers. Checked
     * modules run every kernel they can as region loops (region.c says which), the
     * others on fibers. */
    if (fi && kernel && (fi->sync || t->in->checked) && fi->mode == LAT_EMU_MODE_FIBER &&
        !t->in->fibers && !getenv("LATTICE_EMU_FIBERS")) {
        size_t body_close = lat__match_close(w->toks, after);
        if (body_close < w->toks->count && lat__tr_region_plan(w, after, body_close, &p))
            fi->mode = LAT_EMU_MODE_REGION;
    }
    bool fiber = fi && fi->mode != LAT_EMU_MODE_PLAIN; /* no loop of ours around the body */
    bool region = fi && fi->mode == LAT_EMU_MODE_REGION;

    /* The hidden parameter. */
    size_t first = next_code(w, open);
    if (p.n == 0 && first < close)
        lat__tr_push_edit(w, first, EDIT_REPLACE, ""); /* (void) */
    lat__tr_push_edit(w, open, EDIT_AFTER,
                      p.n ? "lat_emu_thread *__lat_t, " : "lat_emu_thread *__lat_t");
    /* C wants every parameter of a definition named; a kernel's parameters are renamed
     * where each thread gets its own copy (kernel_head). */
    bool copied[256];
    for (int k = 0; definition && k < p.n; k++) {
        lat__param_decl pd;
        lat__parse_param_decl(w->toks, p.b[k], p.e[k], &pd);
        char nmbuf[40];
        copied[k] = kernel && !fiber && pd.name != SIZE_MAX && !top_level_const(w, p.b[k], p.e[k]) &&
                    lat__match_close(w->toks, after) < w->toks->count &&
                    lat__tr_param_modified(w, after, lat__match_close(w->toks, after), pd.name);
        if (copied[k]) {
            snprintf(nmbuf, sizeof nmbuf, "__lat_p%d", k);
            lat__tr_push_edit(w, pd.name, EDIT_REPLACE, nmbuf);
        } else if (pd.name == SIZE_MAX && !(p.e[k] == p.b[k] + 1 && is(w, p.b[k], "..."))) {
            snprintf(nmbuf, sizeof nmbuf, " __lat_u%d", k);
            lat__tr_push_edit(w, pd.slot, EDIT_BEFORE, nmbuf);
        }
    }
    if (kernel && definition) {
        size_t body_close = lat__match_close(w->toks, after);
        if (body_close >= w->toks->count)
            return;
        /* Fiber kernels run one thread per call: no loop around the body; region loops
         * are written at the body's end (region.c). */
        (void)region;
        char *head = fiber ? strdup("") : kernel_head(w, after, &p, copied);
        char *tail = fiber ? strdup("") : kernel_tail(w, body_close);
        char *entry = entry_text(w, name, &p);
        if (head && tail && entry) {
            if (!fiber) {
                lat__tr_push_edit(w, after, EDIT_AFTER, head);
                lat__tr_push_edit(w, body_close, EDIT_BEFORE, tail);
            }
            lat__tr_push_edit(w, body_close, EDIT_AFTER, entry);
            add_kernel(t, nm, nlen);
        } else {
            t->oom = true;
        }
        free(head);
        free(tail);
        free(entry);
    }
}

