/*
 * Macro expansion, by Prosser's algorithm (the one C11 6.10.3.4 describes): a macro's
 * replacement, with its arguments substituted, # and ## applied and every token's hide
 * set extended by the macro, is pushed back onto the input and rescanned with the rest
 * of it. A name found in its own token's hide set is painted (LAT_TF_NOEXPAND) and never
 * expanded again, wherever it goes.
 *
 * Places: a replacement's own tokens are where the user sees the call (the name token's
 * loc, which for a call inside a replacement is already the outermost call's), spelled
 * in the macro's body, and marked LAT_TF_MACRO; an argument's tokens keep their places
 * and flags (they are the user's own text, where they wrote it).
 */
#include "pp_int.h"

#include <stdio.h>
#include <string.h>

typedef struct pp_arg {
    const lat__tok *raw, *exp; /* exp: fully expanded, once needed */
    uint32_t nraw, nexp;
    int exp_pool;              /* exp's pool class */
    bool expanded;
    bool absent; /* a variadic argument not given at all (GNU's , ## __VA_ARGS__) */
} pp_arg;

/* The argument fully macro-expanded on its own (C11 6.10.3.1), computed once. */
static void expand_arg(pp *p, pp_arg *a, const lat__tok *name)
{
    if (a->expanded)
        return;
    a->expanded = true;
    if (a->nraw == 0)
        return;
    if (p->arg_depth >= PP_MAX_ARG_DEPTH) {
        lat__error_at(p->u, name->loc, "macro calls nested too deeply in arguments (more than %d)",
                      PP_MAX_ARG_DEPTH);
        pp_stop(p);
        return;
    }
    pp_ctx *barrier = pp_push(p, PP_CTX_BARRIER, a->raw, a->nraw);
    size_t mark = p->scratch.n;
    p->arg_depth++;
    lat__tok t;
    while (pp_expand_next(p, &t))
        pp_scratch_push(p, &t);
    p->arg_depth--;
    pp_pop_to(p, barrier);
    size_t n;
    a->exp = pp_scratch_take(p, mark, &n, &a->exp_pool);
    a->nexp = (uint32_t)n;
    pp_work(p, n, name->loc);
}

/* C11 6.10.3.2: the spelling of the tokens as one string literal. */
static lat__tok stringize(pp *p, const lat__tok *t, size_t n, const lat__tok *hash,
                          const lat__tok *name)
{
    size_t total = 3;
    for (size_t i = 0; i < n; i++)
        total += 2 * (size_t)t[i].len + 1;
    if (!pp_text(p, total, name->loc))
        total = 3, n = 0; /* stopped: an empty literal, never read */
    char *s = lat__arena_alloc(&p->u->arena, total), *at = s;
    *at++ = '"';
    for (size_t i = 0; i < n; i++) {
        if (t[i].kind == PP_TK_PLACEMARKER)
            continue;
        if (at > s + 1 && (t[i].flags & (LAT_TF_SPACE | LAT_TF_BOL)))
            *at++ = ' ';
        bool literal = t[i].kind == LAT_TK_STRING || t[i].kind == LAT_TK_CHAR;
        for (uint32_t k = 0; k < t[i].len; k++) {
            char c = t[i].text[k];
            if (literal && (c == '"' || c == '\\'))
                *at++ = '\\';
            *at++ = c;
        }
    }
    *at++ = '"';
    *at = '\0';
    lat__tok r = *hash;
    r.kind = LAT_TK_STRING;
    r.punct = 0;
    r.text = s;
    r.len = (uint32_t)(at - s);
    r.atom = NULL;
    r.loc = name->loc;
    r.flags = (uint16_t)((hash->flags & LAT_TF_SPACE) | LAT_TF_MACRO);
    r.hide = NULL;
    return r;
}

static const lat__tok placemarker = {.kind = PP_TK_PLACEMARKER};

/* C11 6.10.3.3: scratch[at] ## scratch[at + 1] into one token at `at`. */
static void paste(pp *p, size_t at, const lat__tok *name)
{
    if (at + 1 >= p->scratch.n)
        return; /* the right operand was refused: a limit stopped everything */
    lat__tok *l = &p->scratch.items[at], *r = &p->scratch.items[at + 1];
    lat__tok result;
    if (r->kind == PP_TK_PLACEMARKER) {
        result = *l;
    } else if (l->kind == PP_TK_PLACEMARKER) {
        result = *r;
        result.flags = (uint16_t)((result.flags & ~(LAT_TF_SPACE | LAT_TF_BOL)) |
                                  (l->flags & LAT_TF_SPACE));
    } else {
        size_t n = (size_t)l->len + r->len;
        if (!pp_text(p, n + 1, name->loc))
            return; /* stopped: both stay, never read */
        char *text = lat__arena_alloc(&p->u->arena, n + 1);
        memcpy(text, l->text, l->len);
        memcpy(text + l->len, r->text, r->len);
        lat__toks got = {0};
        lat__lex_text(p->u, text, n, l->loc, &got);
        if (got.n != 1 || got.items[0].len != n) {
            lat__error_at(p->u, name->loc,
                          "pasting \"%.*s\" and \"%.*s\" does not give a valid preprocessing token",
                          (int)l->len, l->text, (int)r->len, r->text);
            return; /* both stay, as gcc leaves them */
        }
        result = got.items[0];
        result.loc = l->loc;
        result.spell = l->spell;
        result.flags = (uint16_t)(l->flags & (LAT_TF_SPACE | LAT_TF_MACRO));
        result.hide = pp_hs_intersect(p, l->hide, r->hide);
    }
    p->scratch.items[at] = result;
    memmove(&p->scratch.items[at + 1], &p->scratch.items[at + 2],
            (p->scratch.n - at - 2) * sizeof result);
    p->scratch.n--;
}

/* The `)` matching body[open]'s `(`. */
static uint32_t matching_paren(const lat__macro *m, uint32_t open)
{
    int depth = 0;
    for (uint32_t i = open; i < m->nbody; i++) {
        if (lat__tok_is_punct(&m->body[i], LAT_P_LPAREN))
            depth++;
        else if (lat__tok_is_punct(&m->body[i], LAT_P_RPAREN) && --depth == 0)
            return i;
    }
    return m->nbody; /* not reached: #define checked it */
}

/* Appends n argument tokens, the first taking the parameter's spacing. */
static void push_arg(pp *p, const lat__tok *t, size_t n, const lat__tok *param)
{
    for (size_t i = 0; i < n; i++) {
        lat__tok k = t[i];
        if (i == 0)
            k.flags = (uint16_t)((k.flags & ~(LAT_TF_SPACE | LAT_TF_BOL)) | (param->flags & LAT_TF_SPACE));
        pp_scratch_push(p, &k);
    }
}

typedef struct subst_in {
    const lat__macro *m;
    pp_arg *args;
    const lat__tok *name;
} subst_in;

static void subst_range(pp *p, const subst_in *s, uint32_t from, uint32_t to);

/* Whether __VA_OPT__'s content is kept: the variable arguments expand to something (as
 * gcc decides it). */
static bool va_present(pp *p, const subst_in *s)
{
    pp_arg *va = &s->args[s->m->nparams - 1];
    expand_arg(p, va, s->name);
    return va->nexp > 0;
}

/* Appends the item of the body at i (a token, a parameter, # parameter, __VA_OPT__(...));
 * raw: an argument is not expanded (next to ##) and an empty item leaves a placemarker.
 * Returns the index after the item. */
static uint32_t subst_item(pp *p, const subst_in *s, uint32_t i, uint32_t to, bool raw)
{
    const lat__macro *m = s->m;
    const lat__tok *bt = &m->body[i];
    int ref = m->ref ? m->ref[i] : PP_REF_NONE;
    size_t mark = p->scratch.n;
    if (m->fn && lat__tok_is_punct(bt, LAT_P_HASH) && i + 1 < to) {
        int r = m->ref[i + 1];
        if (r >= 0) {
            lat__tok str = stringize(p, s->args[r].raw, s->args[r].nraw, bt, s->name);
            pp_scratch_push(p, &str);
            return i + 2;
        }
        if (r == PP_REF_VAOPT) { /* # __VA_OPT__(...): C23's stringized option */
            uint32_t close = matching_paren(m, i + 2);
            if (va_present(p, s))
                subst_range(p, s, i + 3, close);
            lat__tok str = stringize(p, p->scratch.items + mark, p->scratch.n - mark, bt, s->name);
            p->scratch.n = mark;
            pp_scratch_push(p, &str);
            return close + 1;
        }
    }
    if (ref >= 0) {
        pp_arg *a = &s->args[ref];
        if (raw) {
            push_arg(p, a->raw, a->nraw, bt);
        } else {
            expand_arg(p, a, s->name);
            push_arg(p, a->exp, a->nexp, bt);
        }
    } else if (ref == PP_REF_VAOPT) {
        uint32_t close = matching_paren(m, i + 1);
        if (va_present(p, s)) {
            subst_range(p, s, i + 2, close);
            if (p->scratch.n > mark) {
                lat__tok *first = &p->scratch.items[mark];
                first->flags = (uint16_t)((first->flags & ~LAT_TF_SPACE) | (bt->flags & LAT_TF_SPACE));
            }
        }
        i = close;
    } else {
        lat__tok k = *bt;
        k.loc = s->name->loc;
        k.flags |= LAT_TF_MACRO;
        pp_scratch_push(p, &k);
    }
    if (raw && p->scratch.n == mark)
        pp_scratch_push(p, &placemarker);
    return i + 1;
}

/* The index after the item at i (see subst_item). */
static uint32_t item_end(const lat__macro *m, uint32_t i, uint32_t to)
{
    if (m->fn && lat__tok_is_punct(&m->body[i], LAT_P_HASH) && i + 1 < to) {
        if (m->ref[i + 1] >= 0)
            return i + 2;
        if (m->ref[i + 1] == PP_REF_VAOPT)
            return matching_paren(m, i + 2) + 1;
    }
    if (m->ref && m->ref[i] == PP_REF_VAOPT)
        return matching_paren(m, i + 1) + 1;
    return i + 1;
}

/* Appends the replacement of body[from, to) to scratch, placemarkers included. */
static void subst_range(pp *p, const subst_in *s, uint32_t from, uint32_t to)
{
    const lat__macro *m = s->m;
    size_t mark = p->scratch.n;
    for (uint32_t i = from; i < to && !p->stop;) {
        const lat__tok *bt = &m->body[i];
        if (!lat__tok_is_punct(bt, LAT_P_HASHHASH) || p->scratch.n == mark) {
            uint32_t end = item_end(m, i, to);
            bool pasted = end < to && lat__tok_is_punct(&m->body[end], LAT_P_HASHHASH);
            i = subst_item(p, s, i, to, pasted);
            continue;
        }
        /* GNU: `, ## __VA_ARGS__` drops the comma when the variable arguments are not
         * given at all; otherwise it is no paste, and they are expanded as usual. */
        uint32_t j = i + 1;
        if (m->variadic && j < to && m->ref[j] == m->nparams - 1 && i > from &&
            lat__tok_is_punct(&m->body[i - 1], LAT_P_COMMA) && m->ref[i - 1] == PP_REF_NONE &&
            lat__tok_is_punct(&p->scratch.items[p->scratch.n - 1], LAT_P_COMMA)) {
            if (s->args[m->nparams - 1].absent)
                p->scratch.n--;
            else
                subst_item(p, s, j, to, false);
            i = j + 1;
            continue;
        }
        size_t left = p->scratch.n - 1;
        i = subst_item(p, s, j, to, true);
        paste(p, left, s->name);
    }
}

/* Pushes the replacement of macro m called by `name` (args: NULL for an object-like
 * macro) for rescanning, every token's hide set extended by hs. */
static void replace(pp *p, const lat__macro *m, const lat__tok *name, pp_arg *args,
                    const pp_hs *hs)
{
    size_t mark = p->scratch.n;
    subst_in s = {m, args, name};
    subst_range(p, &s, 0, m->nbody);
    size_t n = 0;
    for (size_t i = mark; i < p->scratch.n; i++) {
        lat__tok *k = &p->scratch.items[i];
        if (k->kind == PP_TK_PLACEMARKER)
            continue;
        k->hide = pp_hs_union(p, k->hide, hs);
        p->scratch.items[mark + n++] = *k;
    }
    p->scratch.n = mark + n;
    if (n) {
        lat__tok *first = &p->scratch.items[mark];
        first->flags = (uint16_t)((first->flags & ~(LAT_TF_SPACE | LAT_TF_BOL)) |
                                  (name->flags & (LAT_TF_SPACE | LAT_TF_BOL)));
    }
    int cls;
    lat__tok *toks = pp_scratch_take(p, mark, &n, &cls);
    if (!pp_work(p, n, name->loc) || n == 0) {
        pp_pool_free(p, toks, cls);
        return;
    }
    if (p->nctx >= PP_MAX_CONTEXTS) {
        lat__error_at(p->u, name->loc, "macro expansion nested too deeply (more than %d levels)",
                      PP_MAX_CONTEXTS);
        pp_stop(p);
        return;
    }
    pp_push(p, PP_CTX_MACRO, toks, n)->pool = (int8_t)cls;
}

/* A call's arguments, in pooled blocks (pp_pool_alloc) freed once it is replaced. */
typedef struct pp_call {
    pp_arg *args;
    lat__tok *all; /* every argument's tokens */
    int args_pool, all_pool;
    uint16_t nargs;
} pp_call;

static void call_free(pp *p, pp_call *c)
{
    for (uint16_t i = 0; i < c->nargs; i++)
        pp_pool_free(p, (void *)c->args[i].exp, c->args[i].exp_pool);
    pp_pool_free(p, c->all, c->all_pool);
    pp_pool_free(p, c->args, c->args_pool);
}

/* Reads a function-like macro's arguments, its `(` read; false after an error
 * (reported). */
static bool collect_args(pp *p, const lat__macro *m, const lat__tok *name, lat__tok *rparen,
                         pp_call *call)
{
    size_t mark = p->scratch.n, given = 1;
    int depth = 0;
    bool ok = true;
    p->collecting++;
    for (;;) {
        lat__tok t;
        if (!pp_next_raw(p, &t)) {
            if (!p->stop)
                lat__error_at(p->u, name->loc, "unterminated argument list invoking macro \"%s\"",
                              m->name->name);
            ok = false;
            break;
        }
        if (t.kind == LAT_TK_PUNCT) {
            if (t.punct == LAT_P_LPAREN) {
                depth++;
            } else if (t.punct == LAT_P_RPAREN) {
                if (depth-- == 0) {
                    *rparen = t;
                    break;
                }
            } else if (t.punct == LAT_P_COMMA && depth == 0 &&
                       !(m->variadic && given == m->nparams)) {
                pp_scratch_push(p, &(lat__tok){.kind = PP_TK_SEP});
                given++;
                continue;
            }
        }
        pp_scratch_push(p, &t);
    }
    p->collecting--;
    size_t n;
    lat__tok *all = pp_scratch_take(p, mark, &n, &call->all_pool);
    call->all = all;
    size_t bytes = (m->nparams + 1u) * sizeof *call->args;
    call->args = pp_pool_alloc(p, bytes, &call->args_pool);
    memset(call->args, 0, bytes);
    call->nargs = m->nparams;
    pp_arg *args = call->args;
    if (!ok || !pp_work(p, n, name->loc))
        return false;
    size_t k = 0, start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && all[i].kind != PP_TK_SEP)
            continue;
        if (k < m->nparams && i > start) {
            args[k].raw = all + start;
            args[k].nraw = (uint32_t)(i - start);
        }
        k++;
        start = i + 1;
    }
    /* `f()` gives a macro of no parameters no arguments, one of one an empty one. */
    if (given == 1 && n == 0 && m->nparams <= 1) {
        if (m->variadic)
            args[0].absent = true; /* GNU: `G()` drops the comma of `, ## __VA_ARGS__` */
        return true;
    }
    if (m->variadic && given == m->nparams - 1u) {
        args[m->nparams - 1].absent = true; /* C23 and GNU: the variable arguments left out */
        return true;
    }
    if (given < m->nparams) {
        lat__error_at(p->u, name->loc, "macro \"%s\" requires %u arguments, but only %zu given",
                      m->name->name, (unsigned)m->nparams, given);
        return false;
    }
    if (given > m->nparams) {
        lat__error_at(p->u, name->loc, "macro \"%s\" passed %zu arguments, but takes just %u",
                      m->name->name, given, (unsigned)m->nparams);
        return false;
    }
    return true;
}

bool pp_expand_next(pp *p, lat__tok *t)
{
    for (;;) {
        if (!pp_next_raw(p, t))
            return false;
        if (t->kind != LAT_TK_IDENT || (t->flags & LAT_TF_NOEXPAND))
            return true;
        lat__atom *a = t->atom;
        const lat__macro *m = a->macro;
        if (!m) {
            if (a == p->w[PP_W_defined] && p->in_if)
                pp_defined(p, t);
            else if (a == p->w[PP_W__Pragma] && !pp_pragma_operator(p, t))
                continue;
            return true;
        }
        if (m->builtin) {
            pp_builtin_value(p, m, t);
            return true;
        }
        if (pp_hs_size(t->hide) >= PP_MAX_HIDESET) {
            lat__error_at(p->u, t->loc, "macro expansion nested too deeply (more than %d macros "
                                        "one inside the other)",
                          PP_MAX_HIDESET);
            pp_stop(p);
            return false;
        }
        if (pp_hs_has(t->hide, a)) {
            t->flags |= LAT_TF_NOEXPAND; /* painted blue: never expanded, wherever it goes */
            return true;
        }
        if (!m->fn) {
            replace(p, m, t, NULL, pp_hs_add(p, t->hide, a));
            continue;
        }
        if (!pp_peek_lparen(p))
            return true;
        lat__tok name = *t, open, rparen;
        pp_next_raw(p, &open);
        pp_call call;
        if (collect_args(p, m, &name, &rparen, &call))
            replace(p, m, &name, call.args,
                    pp_hs_add(p, pp_hs_intersect(p, name.hide, rparen.hide), a));
        call_free(p, &call);
    }
}

void pp_expand_line(pp *p, const lat__tok *t, size_t n, bool in_if)
{
    bool was = p->in_if;
    p->in_if = in_if;
    pp_ctx *barrier = pp_push(p, PP_CTX_BARRIER, t, n);
    lat__tok k;
    while (pp_expand_next(p, &k))
        pp_scratch_push(p, &k);
    pp_pop_to(p, barrier);
    p->in_if = was;
}
