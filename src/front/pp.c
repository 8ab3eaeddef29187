/*
 * The preprocessor's driver (pp.h; pp_int.h says which file does what). The input is a
 * stack of contexts: the files being read (an #include pushes one) and, above them, the
 * macro replacements being rescanned (Prosser's algorithm pushes each replacement back
 * onto the input, so that a function-like macro at its end can take its arguments from
 * what follows). Directives are obeyed as the files' tokens are read, so they also work
 * between the lines of a macro call's arguments, as in gcc.
 */
#include "pp_int.h"

#include "headers.h"

#include <stdlib.h>
#include <string.h>

/* What every C11 compiler defines; the emulator's own macros come in lat__pp_in. */
static const char std_predefined[] = "#define __STDC__ 1\n"
                                     "#define __STDC_VERSION__ 201112L\n"
                                     "#define __STDC_HOSTED__ 0\n";

void pp_stop(pp *p)
{
    p->stop = true;
}

bool pp_work(pp *p, size_t n, lat__loc loc)
{
    if (!p->stop && lat__unit_past_deadline(p->u, loc)) {
        pp_stop(p);
        return false;
    }
    p->work += n;
    if (p->work <= PP_MAX_WORK || p->stop)
        return !p->stop;
    lat__error_at(p->u, loc,
                  "macro expansion is too large (more than %d tokens made: does a macro "
                  "expand exponentially?)",
                  PP_MAX_WORK);
    pp_stop(p);
    return false;
}

bool pp_text(pp *p, size_t n, lat__loc loc)
{
    if (p->stop)
        return false;
    if (n <= PP_MAX_TEXT && p->text <= PP_MAX_TEXT - n) {
        p->text += n;
        return true;
    }
    lat__error_at(p->u, loc,
                  "macro expansion is too large (more than %d MiB of text made by # and ##: "
                  "does a macro stringize or paste what doubles at each level?)",
                  PP_MAX_TEXT >> 20);
    pp_stop(p);
    return false;
}

pp_ctx *pp_push(pp *p, pp_ctx_kind kind, const lat__tok *toks, size_t n)
{
    pp_ctx *c = p->free_ctx;
    if (c)
        p->free_ctx = c->below;
    else
        c = lat__arena_alloc(&p->u->arena, sizeof *c);
    memset(c, 0, sizeof *c);
    c->kind = (uint8_t)kind;
    c->toks = toks;
    c->n = n;
    c->found_at = -1;
    c->pool = -1;
    c->below = p->top;
    p->top = c;
    p->nctx++;
    return c;
}

void *pp_pool_alloc(pp *p, size_t bytes, int *cls)
{
    int k = 0;
    while (((size_t)64 << k) < bytes) {
        if (++k >= 47)
            lat__arena_oom(&p->u->arena);
    }
    *cls = k;
    void *b = p->pool[k];
    if (b) {
        memcpy(&p->pool[k], b, sizeof(void *));
        return b;
    }
    return lat__arena_alloc_raw(&p->u->arena, (size_t)64 << k);
}

void pp_pool_free(pp *p, void *block, int cls)
{
    if (!block || cls < 0)
        return;
    memcpy(block, &p->pool[cls], sizeof(void *));
    p->pool[cls] = block;
}

static void pop(pp *p)
{
    pp_ctx *c = p->top;
    if (c->kind == PP_CTX_MACRO)
        pp_pool_free(p, (void *)c->toks, c->pool);
    p->top = c->below;
    c->below = p->free_ctx;
    p->free_ctx = c;
    p->nctx--;
}

void pp_pop_to(pp *p, pp_ctx *c)
{
    while (p->top && p->top != c)
        pop(p);
    if (p->top)
        pop(p);
}

pp_ctx *pp_file_ctx(pp *p)
{
    pp_ctx *c = p->top;
    while (c && c->kind != PP_CTX_FILE)
        c = c->below;
    return c;
}

static void eof_token(pp *p, lat__tok *t)
{
    memset(t, 0, sizeof *t);
    pp_ctx *c = pp_file_ctx(p);
    if (c) {
        t->loc = c->toks[c->pos < c->n ? c->pos : c->n].loc;
        pp_place(c, t);
    }
}

void pp_place(const pp_ctx *c, lat__tok *t)
{
    t->loc.file = c->shown;
    if (c->line_delta) {
        int64_t line = (int64_t)t->loc.line + c->line_delta;
        t->loc.line = line < 1 ? 1 : line > UINT32_MAX ? UINT32_MAX : (uint32_t)line;
    }
    t->spell = t->loc;
}

/* The next token of a file: 1, 0 at its end, -1 after a directive (the input stack may
 * have changed: read again from the top). */
static int file_next(pp *p, pp_ctx *c, lat__tok *t)
{
    const lat__tok *k = &c->toks[c->pos];
    if (k->kind == LAT_TK_EOF)
        return 0;
    if ((k->flags & LAT_TF_BOL) && lat__tok_is_punct(k, LAT_P_HASH))
        return pp_directive(p, c, t) ? 1 : -1;
    c->pos++;
    *t = *k;
    pp_place(c, t);
    return 1;
}

bool pp_next_raw(pp *p, lat__tok *t)
{
    for (;;) {
        pp_ctx *c = p->top;
        if (!c || p->stop) {
            eof_token(p, t);
            return false;
        }
        switch ((pp_ctx_kind)c->kind) {
        case PP_CTX_MACRO:
            if (c->pos < c->n) {
                *t = c->toks[c->pos++];
                if (c->pos == c->n)
                    pop(p); /* now: chains of macros must not pile up contexts */
                return true;
            }
            pop(p);
            continue;
        case PP_CTX_BARRIER:
            if (c->pos < c->n) {
                *t = c->toks[c->pos++];
                return true;
            }
            eof_token(p, t);
            return false;
        case PP_CTX_FILE: {
            int r = file_next(p, c, t);
            if (r > 0)
                return true;
            if (r < 0)
                continue;
            if (p->collecting > 0) {
                /* A macro call's arguments end with the file they started in. */
                eof_token(p, t);
                return false;
            }
            pp_end_file(p, c);
            continue;
        }
        }
    }
}

bool pp_peek_lparen(pp *p)
{
    for (pp_ctx *c = p->top; c && !p->stop;) {
        if (c->kind == PP_CTX_FILE) {
            const lat__tok *k = &c->toks[c->pos];
            if ((k->flags & LAT_TF_BOL) && lat__tok_is_punct(k, LAT_P_HASH)) {
                if (!pp_directive_is_quiet(p, c))
                    return false;
                lat__tok unused;
                pp_directive(p, c, &unused);
                continue;
            }
            return lat__tok_is_punct(k, LAT_P_LPAREN);
        }
        if (c->pos < c->n)
            return lat__tok_is_punct(&c->toks[c->pos], LAT_P_LPAREN);
        if (c->kind == PP_CTX_BARRIER)
            return false;
        c = c->below;
    }
    return false;
}

bool pp_scratch_grow(pp *p)
{
    if (p->scratch.n >= PP_MAX_SCRATCH) {
        if (!p->stop) {
            lat__tok at;
            eof_token(p, &at); /* where the file is being read */
            lat__error_at(p->u, at.loc,
                          "macro expansion is too large (more than %d tokens in one call: does a "
                          "macro expand exponentially?)",
                          PP_MAX_SCRATCH);
        }
        pp_stop(p);
        return false;
    }
    p->scratch.items = lat__arena_grow(&p->u->arena, p->scratch.items, &p->scratch.cap,
                                       p->scratch.n + 1, sizeof *p->scratch.items);
    return true;
}

lat__tok *pp_scratch_take(pp *p, size_t mark, size_t *n, int *cls)
{
    *n = p->scratch.n - mark;
    *cls = -1;
    lat__tok *copy = NULL;
    if (*n) {
        copy = pp_pool_alloc(p, *n * sizeof *copy, cls);
        memcpy(copy, p->scratch.items + mark, *n * sizeof *copy);
    }
    p->scratch.n = mark;
    return copy;
}

char *pp_keep(pp *p, char *s)
{
    if (!s)
        return NULL;
    /* Running out of memory jumps out of here: s must not be lost on the way. */
    jmp_buf here, *outer = p->u->arena.oom;
    if (setjmp(here)) {
        free(s);
        p->u->arena.oom = outer;
        lat__arena_oom(&p->u->arena);
    }
    p->u->arena.oom = &here;
    char *copy = lat__arena_strndup(&p->u->arena, s, strlen(s));
    p->u->arena.oom = outer;
    free(s);
    return copy;
}

char *pp_spell(pp *p, const lat__tok *t, size_t n, size_t *len)
{
    size_t total = 1;
    for (size_t i = 0; i < n; i++)
        total += t[i].len + 1;
    char *s = lat__arena_alloc(&p->u->arena, total), *at = s;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && (t[i].flags & (LAT_TF_SPACE | LAT_TF_BOL)))
            *at++ = ' ';
        memcpy(at, t[i].text, t[i].len);
        at += t[i].len;
    }
    *at = '\0';
    if (len)
        *len = (size_t)(at - s);
    return s;
}

pp_ctx *pp_push_file(pp *p, uint32_t file)
{
    /* Room for the tokens a file of this size usually has: growing by doubling would
     * copy them all again. */
    lat__toks toks = {0};
    size_t guess = p->u->files.items[file].len / 4 + 16;
    if (guess > (1u << 20))
        guess = 1u << 20;
    toks.items = lat__arena_grow(&p->u->arena, NULL, &toks.cap, guess, sizeof *toks.items);
    lat__lex_file(p->u, file, &toks);
    pp_ctx *c = pp_push(p, PP_CTX_FILE, toks.items, toks.n);
    c->phys = c->shown = file;
    c->cond_base = p->conds.n;
    c->guard = PP_GUARD_NONE;
    return c;
}

void pp_push_text(pp *p, const char *display, const char *text)
{
    pp_push_file(p, lat__unit_add_file(p->u, NULL, display, text, strlen(text)));
}

/* -D and -U as the lines of a file, as gcc reads them. */
static const char *options_text(pp *p)
{
    const lat__pp_in *in = p->in;
    size_t total = 1;
    for (const char *const *d = in->defines; d && *d; d++)
        total += strlen(*d) + 16;
    for (const char *const *d = in->undefines; d && *d; d++)
        total += strlen(*d) + 16;
    if (total == 1)
        return NULL;
    char *s = lat__arena_alloc(&p->u->arena, total), *at = s;
    for (const char *const *d = in->defines; d && *d; d++) {
        const char *eq = strchr(*d, '=');
        size_t n = strlen(*d);
        memcpy(at, "#define ", 8);
        at += 8;
        for (size_t i = 0; i < n; i++) /* a value's newline would end the #define */
            *at++ = (*d)[i] == '\n' || (*d)[i] == '\r' ? ' ' : (*d + i == eq ? ' ' : (*d)[i]);
        if (!eq) {
            memcpy(at, " 1", 2);
            at += 2;
        }
        *at++ = '\n';
    }
    for (const char *const *d = in->undefines; d && *d; d++) {
        memcpy(at, "#undef ", 7);
        at += 7;
        for (const char *c = *d; *c; c++)
            *at++ = *c == '\n' || *c == '\r' ? ' ' : *c;
        *at++ = '\n';
    }
    *at = '\0';
    return s;
}

/* The root file's directory (quoted #includes start there) and real path (#pragma once). */
static void root_paths(pp *p)
{
    lat__srcfile *f = &p->u->files.items[0];
    const char *name = f->path ? f->path : f->display ? f->display : "";
    if (!f->dir) {
        char *d = lat__path_dir(name);
        if (!d)
            lat__arena_oom(&p->u->arena);
        f->dir = pp_keep(p, d);
    }
    if (!f->real && f->path)
        f->real = pp_keep(p, realpath(f->path, NULL));
}

static void init_words(pp *p)
{
    static const char *const words[] = {
#define PP_W_NAME(id, spelling) spelling,
        PP_WORDS(PP_W_NAME)
#undef PP_W_NAME
    };
    for (int i = 0; i < PP_W_COUNT; i++)
        p->w[i] = lat__atom_get(&p->u->atoms, words[i], strlen(words[i]));
}

/* Doubles the output's room, the EOF token's slot kept, but never much past the limit:
 * the arena keeps outgrown arrays, so the limit is what bounds memory. */
static void grow_output(lat__unit *u)
{
    size_t cap = u->toks.cap * 2 + 16;
    if (cap > (size_t)PP_MAX_OUTPUT + 2)
        cap = (size_t)PP_MAX_OUTPUT + 2;
    if (cap < u->toks.n + 2)
        cap = u->toks.n + 2;
    lat__tok *items = lat__arena_alloc(&u->arena, cap * sizeof *items);
    if (u->toks.n)
        memcpy(items, u->toks.items, u->toks.n * sizeof *items);
    u->toks.items = items;
    u->toks.cap = cap;
}

void lat__pp_run(lat__unit *u, const lat__pp_in *in)
{
    static const lat__pp_in none = {0};
    pp p = {.u = u, .in = in ? in : &none};
    init_words(&p);
    /* Never NULL, so that scratch.items + mark is always a pointer into an array. */
    p.scratch.items = lat__arena_grow(&u->arena, NULL, &p.scratch.cap, 256, sizeof *p.scratch.items);
    pp_define_builtins(&p);
    root_paths(&p);

    /* The stack is read from the top: the built-ins first, then the options, assert's
     * definition (which follows NDEBUG as the options leave it), the program. */
    pp_ctx *root = pp_push_file(&p, 0);
    lat__loc end = root->toks[root->n].loc;
    if (p.in->assert_h)
        pp_push_text(&p, "<built-in>", p.in->assert_h);
    const char *options = options_text(&p);
    if (options)
        pp_push_text(&p, "<command line>", options);
    /* Separate texts, not one joined through printf's formatting (1% of a module's load). */
    const char *target = p.in->profile ? p.in->profile->predefined : NULL;
    if (target && *target)
        pp_push_text(&p, "<built-in>", lat__arena_strndup(&u->arena, target, strlen(target)));
    if (p.in->predefined && *p.in->predefined)
        pp_push_text(&p, "<built-in>",
                     lat__arena_strndup(&u->arena, p.in->predefined, strlen(p.in->predefined)));
    pp_push_text(&p, "<built-in>", std_predefined);

    size_t guess = root->n + root->n / 2 + 64;
    if (guess > PP_MAX_OUTPUT)
        guess = PP_MAX_OUTPUT;
    u->toks.items = lat__arena_grow(&u->arena, u->toks.items, &u->toks.cap, u->toks.n + guess,
                                    sizeof *u->toks.items);
    lat__tok t;
    while (pp_expand_next(&p, &t)) {
        t.hide = NULL;
        t.flags &= (uint16_t)~LAT_TF_NOEXPAND;
        if (u->toks.n + 1 >= u->toks.cap)
            grow_output(u);
        u->toks.items[u->toks.n++] = t;
        if (u->toks.n > PP_MAX_OUTPUT) {
            lat__error_at(u, t.loc, "the preprocessed program is too large (more than %d tokens)",
                          PP_MAX_OUTPUT);
            pp_stop(&p);
            break;
        }
    }
    /* Past a limit what was made is cut short at some arbitrary point: parsing it would
     * only add errors, after up to millions of tokens (seconds under a sanitizer). */
    if (p.stop)
        u->toks.n = 0;
    if (!u->toks.items)
        u->toks.items = lat__arena_grow(&u->arena, NULL, &u->toks.cap, 1, sizeof *u->toks.items);
    lat__tok *eof = &u->toks.items[u->toks.n];
    memset(eof, 0, sizeof *eof);
    eof->loc = eof->spell = end;
    eof->flags = LAT_TF_BOL;
}
