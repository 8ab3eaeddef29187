/*
 * Calls of constexpr functions in constant expressions (parse.h): `Tile<ilog2(16)>`,
 * `__shared__ float s[tile_size()]`, `static_assert(f(3) == 6)`. A function whose body is
 * one `return` of an integer expression of its parameters (C++11's constexpr form:
 * ?:, recursion, calls of others of the same form) is evaluated for constant arguments,
 * in the types the tree gives each operation, each step folded as the front end folds
 * any constant expression (lat__int_fold, lat__int_wrap). Anything else
 * (a loop, a local, a floating value, a division by zero, a shift past the width, a
 * recursion too deep) leaves the call a call: where a constant is needed, the error says
 * so, as before. The call itself stays in the tree and runs as written.
 */
#include "parse.h"

enum { MAX_DEPTH = 64, MAX_STEPS = 100000 };

typedef struct frame {
    const lat__func *fn;
    const int64_t *vals;
    int depth;
    int *steps;
} frame;

static bool eval(const frame *f, const lat__expr *e, int64_t *out);

static bool integer(const lat__type *t)
{
    return t && (lat__is_integer(t) || t->kind == LAT_TY_BOOL);
}

/* The body `{ return e; }`'s e, or NULL. */
static const lat__expr *returned(const lat__func *fn)
{
    const lat__stmt *b = fn ? fn->body : NULL;
    if (!b || b->kind != LAT_S_COMPOUND || b->items.n != 1 || fn->has_error)
        return NULL;
    const lat__stmt *r = b->items.items[0];
    return r->kind == LAT_S_RETURN && r->e ? r->e : NULL;
}

static bool call(const frame *f, const lat__expr *e, int64_t *out)
{
    const lat__sym *s = e->sym;
    const lat__func *fn = s && s->kind == LAT_SYM_FUNC ? s->fn : NULL;
    const lat__expr *r = returned(fn);
    if (!r || f->depth >= MAX_DEPTH || e->nargs != fn->nparams || e->nargs > 16 || !integer(e->type))
        return false;
    int64_t vals[16];
    for (int i = 0; i < e->nargs; i++)
        if (!integer(e->args[i]->type) || !eval(f, e->args[i], &vals[i]))
            return false;
    frame inner = {fn, vals, f->depth + 1, f->steps};
    int64_t v;
    if (!eval(&inner, r, &v))
        return false;
    *out = lat__int_wrap(e->type, (uint64_t)v);
    return true;
}

static bool eval(const frame *f, const lat__expr *e, int64_t *out)
{
    if (!e || ++*f->steps > MAX_STEPS || (e->flags & LAT_EF_ERROR) || !integer(e->type))
        return false;
    if (e->flags & LAT_EF_CONST) {
        *out = e->ival;
        return true;
    }
    int64_t a, b;
    switch (e->kind) {
    case LAT_E_INT:
        *out = e->ival;
        return true;
    case LAT_E_NAME:
        if (e->sym && e->sym->kind == LAT_SYM_ENUM_CONST) {
            *out = e->sym->value;
            return true;
        }
        for (int i = 0; f->fn && i < f->fn->nparams; i++)
            if (f->fn->params[i] == e->sym) {
                *out = lat__int_wrap(e->type, (uint64_t)f->vals[i]);
                return true;
            }
        return false;
    case LAT_E_CAST:
        if (!integer(e->a->type) || !eval(f, e->a, &a))
            return false;
        *out = lat__int_wrap(e->type, (uint64_t)a);
        return true;
    case LAT_E_UNARY:
        if (!eval(f, e->a, &a))
            return false;
        switch (e->op) {
        case LAT_P_PLUS: *out = lat__int_wrap(e->type, (uint64_t)a); return true;
        case LAT_P_MINUS: *out = lat__int_wrap(e->type, 0u - (uint64_t)a); return true;
        case LAT_P_TILDE: *out = lat__int_wrap(e->type, (uint64_t)~a); return true;
        case LAT_P_BANG: *out = a == 0; return true;
        default: return false;
        }
    case LAT_E_BINARY:
        if (e->op == LAT_P_ANDAND || e->op == LAT_P_OROR) {
            if (!eval(f, e->a, &a))
                return false;
            if ((e->op == LAT_P_ANDAND) == (a == 0)) {
                *out = e->op == LAT_P_OROR;
                return true;
            }
            if (!eval(f, e->b, &b))
                return false;
            *out = b != 0;
            return true;
        }
        if (e->op == LAT_P_COMMA)
            return eval(f, e->a, &a) && eval(f, e->b, out);
        if (!integer(e->a->type) || !integer(e->b->type) || !eval(f, e->a, &a) || !eval(f, e->b, &b))
            return false;
        if ((e->op == LAT_P_SHL || e->op == LAT_P_SHR) && (b < 0 || b >= 8 * (int64_t)lat__sizeof(e->a->type)))
            return false; /* past the width: undefined, no constant */
        return lat__int_fold((lat__punct)e->op, e->a->type, e->b->type, e->type, a, b, out);
    case LAT_E_COND:
        if (!e->b || !eval(f, e->a, &a))
            return false;
        if (!eval(f, a ? e->b : e->c, &b))
            return false;
        *out = lat__int_wrap(e->type, (uint64_t)b);
        return true;
    case LAT_E_CALL:
        return call(f, e, out);
    default:
        return false;
    }
}

void lat__fold_constexpr_call(lat__parser *p, lat__expr *e)
{
    (void)p;
    if (e->kind != LAT_E_CALL || (e->flags & (LAT_EF_ERROR | LAT_EF_CONST)) || !integer(e->type))
        return;
    for (int i = 0; i < e->nargs; i++)
        if (!(e->args[i]->flags & LAT_EF_CONST))
            return;
    int steps = 0;
    frame top = {NULL, NULL, 0, &steps};
    int64_t v;
    if (call(&top, e, &v)) {
        e->flags |= LAT_EF_CONST;
        e->ival = v;
    }
}
