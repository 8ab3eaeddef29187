/*
 * Variadic templates (parse.h): an instance of a template with parameter packs is parsed
 * from a copy of its tokens in which every pack is written out, as C++ defines the
 * expansions. Element k of a pack `Ts` is the name Ts__lat_pk, which the instance binds
 * (a type, a value, or a function parameter that `Ts... args` declares as args__lat_pk):
 *   f(g(args)...)       f(g(args__lat_p0), g(args__lat_p1))   (an empty pack: f())
 *   Ts... args          Ts__lat_p0 args__lat_p0, Ts__lat_p1 args__lat_p1
 *   (args + ...)        ((args__lat_p0) + ((args__lat_p1)))   and the other three folds
 *   sizeof...(Ts)       2UL
 * The pattern of an expansion is the element of the list (arguments, parameters,
 * initializers, template arguments) that holds the '...', as C++ reads it.
 */
#include "parse.h"

#include <stdio.h>
#include <string.h>

typedef LAT_VEC(lat__tok) tokvec;

typedef struct frame {
    size_t open; /* the opening token's index in the output (SIZE_MAX: none) */
    size_t elem; /* where the current element of the list starts */
    bool angle;  /* a template's argument list */
} frame;

typedef struct expander {
    lat__parser *p;
    LAT_VEC(lat__pack_bind) packs;
    bool bad;
} expander;

lat__atom *lat__pack_element(lat__parser *p, const lat__atom *pack, size_t k)
{
    char name[160];
    int n = snprintf(name, sizeof name, "%s__lat_p%zu", pack->name, k);
    return lat__atom_get(&p->u->atoms, name, (size_t)n < sizeof name ? (size_t)n : sizeof name - 1);
}

static const lat__pack_bind *find_pack(const expander *x, const lat__tok *t)
{
    if (t->kind != LAT_TK_IDENT)
        return NULL;
    for (size_t i = x->packs.n; i-- > 0;)
        if (x->packs.items[i].name == t->atom)
            return &x->packs.items[i];
    return NULL;
}

static void push(expander *x, tokvec *out, lat__tok t)
{
    LAT_PUSH(&x->p->u->arena, *out, t);
}

static lat__tok punct_tok(const lat__tok *like, lat__punct pu)
{
    lat__tok t = *like;
    t.kind = LAT_TK_PUNCT;
    t.punct = (uint8_t)pu;
    t.text = lat__punct_spelling(pu);
    t.len = (uint32_t)strlen(t.text);
    t.atom = NULL;
    return t;
}

static lat__tok word_tok(expander *x, const lat__tok *like, const char *word)
{
    lat__tok t = *like;
    t.kind = LAT_TK_IDENT;
    t.atom = lat__atom_get(&x->p->u->atoms, word, strlen(word));
    t.text = t.atom->name;
    t.len = t.atom->len;
    t.punct = 0;
    return t;
}

static lat__tok number_tok(expander *x, const lat__tok *like, const char *text)
{
    lat__tok t = *like;
    t.kind = LAT_TK_NUMBER;
    t.text = lat__arena_printf(&x->p->u->arena, "%s", text);
    t.len = (uint32_t)strlen(text);
    t.atom = NULL;
    t.punct = 0;
    return t;
}

/* Tokens of a pattern, element k of its packs. */
static void push_element(expander *x, tokvec *out, const lat__tok *pat, size_t n, size_t k)
{
    for (size_t i = 0; i < n; i++) {
        lat__tok t = pat[i];
        if (find_pack(x, &t)) {
            t.atom = lat__pack_element(x->p, t.atom, k);
            t.text = t.atom->name;
            t.len = t.atom->len;
        }
        push(x, out, t);
    }
}

static bool is_fold_op(const lat__tok *t)
{
    if (!t || t->kind != LAT_TK_PUNCT)
        return false;
    switch (t->punct) {
    case LAT_P_PLUS: case LAT_P_MINUS: case LAT_P_STAR: case LAT_P_SLASH: case LAT_P_PERCENT:
    case LAT_P_CARET: case LAT_P_AMP: case LAT_P_PIPE: case LAT_P_SHL: case LAT_P_SHR:
    case LAT_P_LT: case LAT_P_GT: case LAT_P_LE: case LAT_P_GE: case LAT_P_EQ: case LAT_P_NE:
    case LAT_P_ANDAND: case LAT_P_OROR: case LAT_P_COMMA: case LAT_P_ASSIGN:
    case LAT_P_MUL_ASSIGN: case LAT_P_DIV_ASSIGN: case LAT_P_MOD_ASSIGN: case LAT_P_ADD_ASSIGN:
    case LAT_P_SUB_ASSIGN: case LAT_P_SHL_ASSIGN: case LAT_P_SHR_ASSIGN: case LAT_P_AND_ASSIGN:
    case LAT_P_XOR_ASSIGN: case LAT_P_OR_ASSIGN:
        return true;
    default:
        return false;
    }
}

static bool is_open(const lat__tok *t)
{
    return lat__tok_is_punct(t, LAT_P_LPAREN) || lat__tok_is_punct(t, LAT_P_LBRACKET) ||
           lat__tok_is_punct(t, LAT_P_LBRACE);
}

static bool is_close(const lat__tok *t)
{
    return lat__tok_is_punct(t, LAT_P_RPAREN) || lat__tok_is_punct(t, LAT_P_RBRACKET) ||
           lat__tok_is_punct(t, LAT_P_RBRACE);
}

/* Whether a '<' after token `before` opens template arguments: after a template's name,
 * a qualified name (ns::tuple<), or `template`. */
static bool opens_angle(const lat__tok *before, const lat__tok *before2)
{
    if (!before || before->kind != LAT_TK_IDENT)
        return false;
    if (before->atom->kw == LAT_KW_TEMPLATE)
        return true;
    if (before->atom->kw)
        return false;
    return (before->atom->sym && before->atom->sym->tmpl) || (before2 && lat__tok_is_punct(before2, LAT_P_SCOPE));
}

/* The index of the ')' closing the group whose content starts at `from`, or `to`. */
static size_t group_end(const lat__tok *in, size_t from, size_t to)
{
    int depth = 0;
    for (size_t i = from; i < to; i++) {
        if (is_open(&in[i]))
            depth++;
        else if (is_close(&in[i]) && depth-- == 0)
            return i;
    }
    return to;
}

static bool has_pack(const expander *x, const lat__tok *t, size_t n, size_t *len)
{
    bool any = false;
    for (size_t i = 0; i < n; i++) {
        const lat__pack_bind *pk = find_pack(x, &t[i]);
        if (pk) {
            *len = pk->n;
            any = true;
        }
    }
    return any;
}

static void expand(expander *x, const lat__tok *in, size_t from, size_t to, tokvec *out);

/* A fold at in[at] (its '...'): ( E op ... ), ( ... op E ), ( E op ... op I ), ( I op ...
 * op E ); the output from the fold's '(' (index open) on is replaced. Returns the index of
 * the fold's ')'. */
static size_t fold(expander *x, const lat__tok *in, size_t at, size_t to, tokvec *out, size_t open)
{
    lat__parser *p = x->p;
    const lat__tok *dots = &in[at];
    size_t close = group_end(in, at + 1, to);
    if (close >= to) {
        lat__error_tok(p, dots, "a fold expression without its ')'");
        x->bad = true;
        return to - 1;
    }
    lat__tok lp = out->items[open], rp = in[close];
    bool left_unary = out->n - 1 == open;
    lat__tok op = left_unary ? in[at + 1] : out->items[out->n - 1];
    /* the operands before and after the '...' (with their own expansions written out) */
    tokvec before = {0}, after = {0};
    if (!left_unary)
        for (size_t i = open + 1; i < out->n - 1; i++)
            push(x, &before, out->items[i]);
    size_t after_from = at + 1;
    if (left_unary || (after_from < close && lat__tok_is_punct(&in[after_from], op.punct)))
        after_from++;
    expand(x, in, after_from, close, &after);
    bool binary = !left_unary && after_from > at + 1;
    if (!left_unary && !binary && after.n) {
        lat__error_tok(p, dots, "'...' in parentheses after '%s' is neither a fold ( E op ... ) nor one with a "
                                "value for an empty pack ( E op ... op I )", lat__punct_spelling(op.punct));
        x->bad = true;
        return close;
    }
    size_t lb = 0, la = 0;
    bool pb = has_pack(x, before.items, before.n, &lb), pa = has_pack(x, after.items, after.n, &la);
    /* right folds: E op ... [op I]; left folds: [I op] ... op E */
    bool right = left_unary ? false : (binary ? pb : true);
    tokvec *pat = right ? &before : &after, *init = binary ? (right ? &after : &before) : NULL;
    size_t n = right ? lb : la;
    if (!(right ? pb : pa) || (binary && (right ? pa : pb))) {
        lat__error_tok(p, dots, "a fold expression needs exactly one operand with an unexpanded parameter pack");
        x->bad = true;
        return close;
    }
    out->n = open;
    push(x, out, lp);
    if (n == 0 && !init) {
        if (op.punct == LAT_P_ANDAND)
            push(x, out, word_tok(x, dots, "true"));
        else if (op.punct == LAT_P_OROR)
            push(x, out, word_tok(x, dots, "false"));
        else if (op.punct == LAT_P_COMMA) {
            push(x, out, punct_tok(dots, LAT_P_LPAREN));
            push(x, out, word_tok(x, dots, "void"));
            push(x, out, punct_tok(dots, LAT_P_RPAREN));
            push(x, out, number_tok(x, dots, "0"));
        } else {
            lat__error_tok(p, dots,
                           "a fold over '%s' of an empty parameter pack (only &&, || and ',' have a value "
                           "for none; give one: ( E %s ... %s I ))", lat__punct_spelling(op.punct),
                           lat__punct_spelling(op.punct), lat__punct_spelling(op.punct));
            x->bad = true;
        }
        push(x, out, rp);
        return close;
    }
#define PAREN(body)                                                                        \
    do {                                                                                   \
        push(x, out, punct_tok(&lp, LAT_P_LPAREN));                                       \
        body;                                                                              \
        push(x, out, punct_tok(&rp, LAT_P_RPAREN));                                       \
    } while (0)
    if (right) {
        /* ((E0) op ((E1) op ... (I))) */
        size_t opened = 0;
        for (size_t k = 0; k < n; k++) {
            bool last = k + 1 == n && !init;
            if (!last) {
                push(x, out, punct_tok(&lp, LAT_P_LPAREN));
                opened++;
            }
            PAREN(push_element(x, out, pat->items, pat->n, k));
            if (!last)
                push(x, out, op);
        }
        if (init)
            PAREN(for (size_t i = 0; i < init->n; i++) push(x, out, init->items[i]));
        while (opened--)
            push(x, out, punct_tok(&rp, LAT_P_RPAREN));
    } else {
        /* (((I) op (E0)) op (E1)) */
        size_t opens = init ? n : n - 1;
        for (size_t k = 0; k < opens; k++)
            push(x, out, punct_tok(&lp, LAT_P_LPAREN));
        if (init)
            PAREN(for (size_t i = 0; i < init->n; i++) push(x, out, init->items[i]));
        for (size_t k = 0; k < n; k++) {
            if (init || k > 0)
                push(x, out, op);
            PAREN(push_element(x, out, pat->items, pat->n, k));
            if (init || k > 0)
                push(x, out, punct_tok(&rp, LAT_P_RPAREN));
        }
    }
#undef PAREN
    push(x, out, rp);
    return close;
}

/* The end of an expansion's pattern after its '...' (a parameter pack's declarator). */
static size_t pattern_end(const lat__tok *in, size_t from, size_t to)
{
    int depth = 0;
    for (size_t i = from; i < to; i++) {
        const lat__tok *t = &in[i];
        if (is_open(t))
            depth++;
        else if (is_close(t) || lat__tok_is_punct(t, LAT_P_GT) || lat__tok_is_punct(t, LAT_P_SHR)) {
            if (depth-- == 0)
                return i;
        } else if (depth == 0 && (lat__tok_is_punct(t, LAT_P_COMMA) || lat__tok_is_punct(t, LAT_P_SEMI) ||
                                  lat__tok_is_punct(t, LAT_P_ASSIGN)))
            return i;
    }
    return to;
}

static void expand(expander *x, const lat__tok *in, size_t from, size_t to, tokvec *out)
{
    lat__parser *p = x->p;
    LAT_VEC(frame) fr = {0};
    frame top = {SIZE_MAX, out->n, false};
    LAT_PUSH(&p->u->arena, fr, top);
    for (size_t i = from; i < to; i++) {
        const lat__tok *t = &in[i];
        frame *f = &fr.items[fr.n - 1];
        if (lat__tok_kw(t, LAT_KW_SIZEOF) && i + 4 < to + 1 && lat__tok_is_punct(&in[i + 1], LAT_P_ELLIPSIS)) {
            /* sizeof...(pack) */
            const lat__pack_bind *pk = i + 4 < to && lat__tok_is_punct(&in[i + 2], LAT_P_LPAREN) &&
                                               lat__tok_is_punct(&in[i + 4], LAT_P_RPAREN)
                                           ? find_pack(x, &in[i + 3])
                                           : NULL;
            if (!pk) {
                lat__error_tok(p, t, "sizeof... takes a parameter pack in parentheses: sizeof...(Ts)");
                x->bad = true;
                return;
            }
            char num[32];
            snprintf(num, sizeof num, "%zuUL", pk->n);
            push(x, out, number_tok(x, t, num));
            i += 4;
            continue;
        }
        if (!lat__tok_is_punct(t, LAT_P_ELLIPSIS)) {
            const lat__tok *b = out->n ? &out->items[out->n - 1] : NULL;
            const lat__tok *b2 = out->n > 1 ? &out->items[out->n - 2] : NULL;
            push(x, out, *t);
            if (is_open(t)) {
                frame nf = {out->n - 1, out->n, false};
                LAT_PUSH(&p->u->arena, fr, nf);
            } else if (lat__tok_is_punct(t, LAT_P_LT) && opens_angle(b, b2)) {
                frame nf = {out->n - 1, out->n, true};
                LAT_PUSH(&p->u->arena, fr, nf);
            } else if (is_close(t)) {
                while (fr.n > 1 && fr.items[fr.n - 1].angle)
                    fr.n--;
                if (fr.n > 1)
                    fr.n--;
            } else if (lat__tok_is_punct(t, LAT_P_GT) || lat__tok_is_punct(t, LAT_P_SHR)) {
                for (int k = lat__tok_is_punct(t, LAT_P_SHR) ? 2 : 1; k-- > 0 && fr.n > 1 && fr.items[fr.n - 1].angle;)
                    fr.n--;
            } else if (lat__tok_is_punct(t, LAT_P_COMMA) || lat__tok_is_punct(t, LAT_P_SEMI)) {
                f->elem = out->n;
            }
            continue;
        }
        /* a fold: ( E op ... ) and the others */
        bool in_paren = f->open != SIZE_MAX && lat__tok_is_punct(&out->items[f->open], LAT_P_LPAREN);
        const lat__tok *prev = out->n ? &out->items[out->n - 1] : NULL;
        const lat__tok *next = i + 1 < to ? &in[i + 1] : NULL;
        size_t ignored;
        bool unary_right = in_paren && out->n - 1 > f->open && is_fold_op(prev) && lat__tok_is_punct(next, LAT_P_RPAREN);
        if (unary_right && prev->punct == LAT_P_COMMA &&
            !has_pack(x, &out->items[f->open + 1], out->n - 2 - f->open, &ignored))
            unary_right = false; /* (int n, ...): C's variadic parameters */
        if (in_paren && ((out->n - 1 == f->open && is_fold_op(next)) || unary_right ||
                         (out->n - 1 > f->open && is_fold_op(prev) && lat__tok_is_punct(next, prev->punct)))) {
            i = fold(x, in, i, to, out, f->open);
            fr.n--;
            continue;
        }
        /* an expansion: its pattern is the list element around the '...' */
        size_t end = pattern_end(in, i + 1, to);
        size_t head = out->n - f->elem;
        if (head == 0 && end == i + 1) {
            push(x, out, *t); /* C's variadic parameters, (const char *fmt, ...) */
            continue;
        }
        size_t npat = head + (end - i - 1);
        lat__tok *pat = lat__arena_alloc(&p->u->arena, (npat + 1) * sizeof *pat);
        if (head)
            memcpy(pat, &out->items[f->elem], head * sizeof *pat);
        if (end > i + 1)
            memcpy(pat + head, &in[i + 1], (end - i - 1) * sizeof *pat);
        size_t n = 0;
        bool any = false, mixed = false;
        for (size_t k = 0; k < head; k++) {
            const lat__pack_bind *pk = find_pack(x, &pat[k]);
            if (pk) {
                mixed |= any && pk->n != n;
                n = pk->n;
                any = true;
            }
        }
        if (any && end > i + 1 && in[i + 1].kind == LAT_TK_IDENT && !in[i + 1].atom->kw &&
            !find_pack(x, &in[i + 1])) {
            /* Ts... args: a function parameter pack, as long as Ts */
            lat__pack_bind fp = {in[i + 1].atom, n};
            LAT_PUSH(&p->u->arena, x->packs, fp);
        }
        for (size_t k = head; k < npat; k++) {
            const lat__pack_bind *pk = find_pack(x, &pat[k]);
            if (pk) {
                mixed |= any && pk->n != n;
                n = pk->n;
                any = true;
            }
        }
        if (!any || mixed) {
            if (!any)
                lat__error_tok(p, t, "'...' after '%.*s' expands no parameter pack", (int)pat[head ? head - 1 : 0].len,
                               pat[head ? head - 1 : 0].text);
            else
                lat__error_tok(p, t, "parameter packs of different lengths expanded together");
            x->bad = true;
            return;
        }
        out->n = f->elem;
        for (size_t k = 0; k < n; k++) {
            if (k)
                push(x, out, punct_tok(t, LAT_P_COMMA));
            push_element(x, out, pat, npat, k);
        }
        if (n == 0) {
            /* the element goes, and a comma beside it */
            if (f->elem > 0 && (f->open == SIZE_MAX || f->elem - 1 > f->open) &&
                lat__tok_is_punct(&out->items[f->elem - 1], LAT_P_COMMA))
                out->n = --f->elem;
            else if (end < to && lat__tok_is_punct(&in[end], LAT_P_COMMA))
                end++;
        }
        i = end - 1;
    }
}

lat__tok *lat__expand_packs(lat__parser *p, const lat__tok *toks, size_t from, size_t to,
                            const lat__pack_bind *packs, size_t npacks, size_t *n)
{
    expander x = {.p = p};
    for (size_t i = 0; i < npacks; i++)
        LAT_PUSH(&p->u->arena, x.packs, packs[i]);
    tokvec out = {0};
    expand(&x, toks, from, to, &out);
    for (size_t i = 0; i < out.n && !x.bad; i++)
        if (find_pack(&x, &out.items[i])) {
            lat__error_tok(p, &out.items[i], "the parameter pack '%s' is used without '...' to expand it",
                           out.items[i].atom->name);
            x.bad = true;
        }
    if (x.bad)
        return NULL;
    lat__tok eof = toks[to];
    eof.kind = LAT_TK_EOF;
    eof.len = 0;
    eof.text = "";
    eof.atom = NULL;
    LAT_PUSH(&p->u->arena, out, eof);
    *n = out.n - 1;
    return out.items;
}
