/* #define and #undef (C11 6.10.3, 6.10.3.5): parameters, the body checked once, redefinitions. */
#include "pp_int.h"

#include <string.h>

/* A macro's name: an identifier other than `defined`. */
static lat__atom *macro_name(pp *p, const lat__tok *t, size_t n, lat__loc at, const char *dir)
{
    if (n == 0) {
        lat__error_at(p->u, at, "no macro name given in #%s directive", dir);
        return NULL;
    }
    if (t->kind != LAT_TK_IDENT) {
        lat__error_at(p->u, t->loc, "macro names must be identifiers");
        return NULL;
    }
    if (t->atom == p->w[PP_W_defined]) {
        lat__error_at(p->u, t->loc, "\"defined\" cannot be used as a macro name");
        return NULL;
    }
    return t->atom;
}

/* C11 6.10.3p2: the same parameters, and bodies of the same tokens, spelled alike, with
 * white space between the same ones. */
static bool same_definition(const lat__macro *a, const lat__macro *b)
{
    if (a->builtin || b->builtin || a->fn != b->fn || a->variadic != b->variadic ||
        a->nparams != b->nparams || a->nbody != b->nbody)
        return false;
    for (uint16_t i = 0; i < a->nparams; i++)
        if (a->params[i] != b->params[i])
            return false;
    for (uint32_t i = 0; i < a->nbody; i++) {
        const lat__tok *x = &a->body[i], *y = &b->body[i];
        if (x->kind != y->kind || x->len != y->len || memcmp(x->text, y->text, x->len) != 0 ||
            (i > 0 && ((x->flags ^ y->flags) & LAT_TF_SPACE)))
            return false;
    }
    return true;
}

/* The parameter list after `(`; returns the index of the token after `)`, or 0 on an
 * error (reported). */
static size_t parse_params(pp *p, lat__macro *m, const lat__tok *t, size_t n)
{
    LAT_VEC(lat__atom *) params = {0};
    LAT_VEC(const lat__tok *) where = {0}; /* each parameter's token */
    size_t i = 1;
    if (i < n && lat__tok_is_punct(&t[i], LAT_P_RPAREN))
        return i + 1;
    for (;;) {
        if (i >= n) {
            lat__error_at(p->u, t[i - 1].loc, "missing ')' in macro parameter list");
            return 0;
        }
        const lat__tok *k = &t[i];
        if (lat__tok_is_punct(k, LAT_P_ELLIPSIS)) {
            m->variadic = true;
            LAT_PUSH(&p->u->arena, params, p->w[PP_W_VA_ARGS]);
            LAT_PUSH(&p->u->arena, where, k);
            i++;
        } else if (k->kind == LAT_TK_IDENT) {
            if (k->atom == p->w[PP_W_VA_ARGS] || k->atom == p->w[PP_W_VA_OPT]) {
                lat__error_at(p->u, k->loc, "%s can not be used as a parameter name",
                              k->atom->name);
                return 0;
            }
            LAT_PUSH(&p->u->arena, params, k->atom);
            LAT_PUSH(&p->u->arena, where, k);
            i++;
            if (i < n && lat__tok_is_punct(&t[i], LAT_P_ELLIPSIS)) {
                m->variadic = true; /* GNU's named variadic parameter: `args...` */
                i++;
            }
        } else {
            lat__error_at(p->u, k->loc, "expected parameter name, found \"%.*s\"", (int)k->len,
                          k->text);
            return 0;
        }
        if (i < n && lat__tok_is_punct(&t[i], LAT_P_RPAREN)) {
            i++;
            break;
        }
        if (m->variadic || i >= n || !lat__tok_is_punct(&t[i], LAT_P_COMMA)) {
            lat__error_at(p->u, i < n ? t[i].loc : t[i - 1].loc,
                          m->variadic ? "missing ')' after \"...\""
                                      : "expected ',' or ')' in macro parameter list");
            return 0;
        }
        i++;
    }
    if (params.n > INT16_MAX) {
        lat__error_at(p->u, t[0].loc, "too many macro parameters");
        return 0;
    }
    /* Duplicates, found by marking the names (their atoms' aux, cleared again). */
    size_t dup = params.n;
    for (size_t j = 0; j < params.n; j++) {
        if (params.items[j]->aux && dup == params.n)
            dup = j;
        params.items[j]->aux = params.items[j];
    }
    for (size_t j = 0; j < params.n; j++)
        params.items[j]->aux = NULL;
    if (dup < params.n) {
        lat__error_at(p->u, where.items[dup]->loc, "duplicate macro parameter \"%s\"",
                      params.items[dup]->name);
        return 0;
    }
    m->params = params.items;
    m->nparams = (uint16_t)params.n;
    return i;
}

static bool mark_refs(pp *p, lat__macro *m, int16_t *ref);

/* Marks parameters and __VA_OPT__ in the body and checks # and ## (C11 6.10.3.2-3);
 * false on an error (reported). */
static bool check_body(pp *p, lat__macro *m)
{
    const lat__tok *b = m->body;
    uint32_t n = m->nbody;
    int16_t *ref = NULL;
    if (m->fn) {
        ref = lat__arena_alloc(&p->u->arena, (n ? n : 1) * sizeof *ref);
        m->ref = ref;
    }
    if (n && (lat__tok_is_punct(&b[0], LAT_P_HASHHASH) || lat__tok_is_punct(&b[n - 1], LAT_P_HASHHASH))) {
        lat__error_at(p->u, lat__tok_is_punct(&b[0], LAT_P_HASHHASH) ? b[0].loc : b[n - 1].loc,
                      "'##' cannot appear at either end of a macro expansion");
        return false;
    }
    /* Each parameter's index + 1 on its atom (aux), for the length of the loop. */
    for (uint16_t i = 0; i < m->nparams; i++)
        m->params[i]->aux = (void *)(uintptr_t)(i + 1u);
    bool ok = mark_refs(p, m, ref);
    for (uint16_t i = 0; i < m->nparams; i++)
        m->params[i]->aux = NULL;
    if (!ok)
        return false;
    if (!m->fn)
        return true;
    for (uint32_t i = 0; i < n; i++)
        if (lat__tok_is_punct(&b[i], LAT_P_HASH) && (i + 1 >= n || ref[i + 1] == PP_REF_NONE)) {
            lat__error_at(p->u, b[i].loc, "'#' is not followed by a macro parameter");
            return false;
        }
    return true;
}

/* check_body's loop over the body, the parameters' indexes on their atoms. */
static bool mark_refs(pp *p, lat__macro *m, int16_t *ref)
{
    const lat__tok *b = m->body;
    uint32_t n = m->nbody;
    uint32_t vaopt_open = 0, vaopt_depth = 0; /* inside __VA_OPT__( ... ): its paren depth */
    for (uint32_t i = 0; i < n; i++) {
        const lat__tok *k = &b[i];
        if (ref)
            ref[i] = PP_REF_NONE;
        if (k->kind == LAT_TK_IDENT) {
            if (k->atom == p->w[PP_W_VA_OPT] && m->variadic) {
                if (vaopt_depth) {
                    lat__error_at(p->u, k->loc, "__VA_OPT__ may not appear in a __VA_OPT__");
                    return false;
                }
                if (i + 1 >= n || !lat__tok_is_punct(&b[i + 1], LAT_P_LPAREN)) {
                    lat__error_at(p->u, k->loc, "__VA_OPT__ must be followed by an open parenthesis");
                    return false;
                }
                ref[i] = PP_REF_VAOPT;
                vaopt_open = i + 1;
                vaopt_depth = 1;
                i++;
                ref[i] = PP_REF_NONE;
                if (i + 1 < n && lat__tok_is_punct(&b[i + 1], LAT_P_HASHHASH)) {
                    lat__error_at(p->u, b[i + 1].loc, "'##' cannot appear at either end of __VA_OPT__");
                    return false;
                }
                continue;
            }
            if (k->atom == p->w[PP_W_VA_ARGS] && !m->variadic)
                lat__diag_at(p->u, k->loc, LAT_SEV_WARNING, LAT_OK,
                             "__VA_ARGS__ can only appear in the expansion of a variadic macro");
            if (ref)
                ref[i] = (int16_t)((int)(uintptr_t)k->atom->aux - 1);
        } else if (vaopt_depth && lat__tok_is_punct(k, LAT_P_LPAREN)) {
            vaopt_depth++;
        } else if (vaopt_depth && lat__tok_is_punct(k, LAT_P_RPAREN)) {
            if (--vaopt_depth == 0 && i > vaopt_open + 1 && lat__tok_is_punct(&b[i - 1], LAT_P_HASHHASH)) {
                lat__error_at(p->u, b[i - 1].loc, "'##' cannot appear at either end of __VA_OPT__");
                return false;
            }
        }
    }
    if (vaopt_depth) {
        lat__error_at(p->u, b[vaopt_open - 1].loc, "unterminated __VA_OPT__");
        return false;
    }
    return true;
}

void pp_define(pp *p, const lat__tok *dir, const lat__tok *t, size_t n)
{
    lat__atom *name = macro_name(p, t, n, dir->loc, "define");
    if (!name)
        return;
    lat__macro *m = lat__arena_alloc(&p->u->arena, sizeof *m);
    m->name = name;
    m->loc = t[0].loc;
    size_t i = 1;
    /* A function-like macro's `(` touches its name (C11 6.10.3p3's white space rule). */
    if (n > 1 && lat__tok_is_punct(&t[1], LAT_P_LPAREN) && !(t[1].flags & LAT_TF_SPACE)) {
        m->fn = true;
        i = parse_params(p, m, t + 1, n - 1);
        if (!i)
            return;
        i++; /* parse_params counted from the `(` */
    } else if (n > 1 && !(t[1].flags & LAT_TF_SPACE)) {
        lat__diag_at(p->u, t[1].loc, LAT_SEV_WARNING, LAT_OK,
                     "missing whitespace after the macro name");
    }
    size_t nb = n - i;
    if (nb > UINT32_MAX)
        nb = UINT32_MAX;
    lat__tok *body = lat__arena_alloc(&p->u->arena, (nb ? nb : 1) * sizeof *body);
    size_t kept = 0;
    for (size_t k = 0; k < nb; k++) {
        /* `a ## ## b` is `a ## b`, as gcc reads it (C leaves it undefined). */
        if (kept && lat__tok_is_punct(&t[i + k], LAT_P_HASHHASH) &&
            lat__tok_is_punct(&body[kept - 1], LAT_P_HASHHASH))
            continue;
        body[kept] = t[i + k];
        body[kept].hide = NULL;
        body[kept].flags &= (uint16_t)~(LAT_TF_BOL | LAT_TF_NOEXPAND);
        kept++;
    }
    nb = kept;
    if (nb)
        body[0].flags &= (uint16_t)~LAT_TF_SPACE;
    m->body = body;
    m->nbody = (uint32_t)nb;
    if (!check_body(p, m))
        return;
    lat__macro *old = name->macro;
    if (old && old->builtin)
        lat__diag_at(p->u, t[0].loc, LAT_SEV_WARNING, LAT_OK, "redefining builtin macro \"%s\"",
                     name->name);
    else if (old && !same_definition(old, m)) {
        lat__diag_at(p->u, t[0].loc, LAT_SEV_WARNING, LAT_OK, "\"%s\" redefined", name->name);
        lat__diag_at(p->u, old->loc, LAT_SEV_NOTE, LAT_OK, "this is the location of the previous definition");
    }
    name->macro = m;
}

void pp_undef(pp *p, const lat__tok *t, size_t n, lat__loc at)
{
    lat__atom *name = macro_name(p, t, n, at, "undef");
    if (!name)
        return;
    if (n > 1)
        lat__diag_at(p->u, t[1].loc, LAT_SEV_WARNING, LAT_OK, "extra tokens at end of #undef directive");
    if (name->macro && name->macro->builtin)
        lat__diag_at(p->u, t[0].loc, LAT_SEV_WARNING, LAT_OK, "undefining \"%s\"", name->name);
    name->macro = NULL;
}
