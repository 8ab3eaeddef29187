/*
 * The C++ that CUDA kernels use, lowered into the C tree as it is parsed (parse.h):
 * references are pointers marked ref (a name of one reads through it, a binding takes
 * the address, a temporary holds what is not an lvalue).
 */
#include "parse.h"

#include <stdio.h>
#include <string.h>

static lat__expr *node(lat__parser *p, lat__exprkind kind, lat__loc loc, lat__type *t, lat__expr *a)
{
    lat__expr *e = lat__expr_new(p, kind, loc);
    e->type = t;
    e->a = a;
    if (a)
        e->flags |= a->flags & LAT_EF_ERROR;
    return e;
}

lat__expr *lat__deref_reference(lat__parser *p, lat__expr *e)
{
    if (!e->type || e->type->kind != LAT_TY_PTR || !e->type->ref)
        return e;
    lat__expr *d = node(p, LAT_E_UNARY, e->loc, e->type->base, e);
    d->op = LAT_P_STAR;
    d->flags |= LAT_EF_LVALUE;
    return d;
}

/* A temporary of type t holding e, as an array of one (T[1]){e}: C lets an array's
 * element be initialised by an expression of its type, records included, and the
 * array lives to the end of the enclosing block, as C++'s temporaries bound to a
 * reference live as long as the reference in the cases kernels have (arguments). */
static lat__expr *temporary(lat__parser *p, lat__expr *e, lat__type *t)
{
    lat__type *one = lat__array_of(p->u, lat__unqualified(p->u, t), 1);
    lat__expr *init = lat__expr_new(p, LAT_E_INIT, e->loc);
    init->type = one;
    lat__init_item item = {e, NULL};
    LAT_PUSH(&p->u->arena, init->items, item);
    lat__expr *c = node(p, LAT_E_COMPOUND, e->loc, one, init);
    c->to = one;
    c->flags |= LAT_EF_LVALUE;
    return c;
}

lat__expr *lat__bind_reference(lat__parser *p, lat__expr *e, lat__type *ref, const char *context)
{
    lat__type *to = ref->base;
    if (e->flags & LAT_EF_ERROR)
        return lat__cast_to(p, e, ref, true);
    bool lvalue = (e->flags & LAT_EF_LVALUE) && e->type->kind != LAT_TY_FUNC;
    bool same = lat__type_compatible(lat__unqualified(p->u, e->type), lat__unqualified(p->u, to), true);
    if (lvalue && same) {
        /* const is added freely, never dropped */
        if ((e->type->quals & ~to->quals) & (LAT_Q_CONST | LAT_Q_VOLATILE)) {
            lat__error_at(p->u, e->loc, "%s %s from %s: it drops a qualifier", context,
                          lat__type_str(p->u, ref, NULL, false), lat__type_str(p->u, e->type, NULL, false));
            e->flags |= LAT_EF_ERROR;
            return lat__cast_to(p, e, ref, true);
        }
        lat__expr *x = e;
        while (x->kind == LAT_E_CAST && (x->flags & LAT_EF_IMPLICIT))
            x = x->a;
        if (x->kind == LAT_E_NAME && x->sym)
            x->sym->flags |= LAT_SF_ADDRESS_TAKEN;
        lat__expr *a = node(p, LAT_E_UNARY, e->loc, lat__pointer_to(p->u, e->type), e);
        a->op = LAT_P_AMP;
        return lat__cast_to(p, a, ref, true);
    }
    /* Not an lvalue of the type: C++ binds only a const (or rvalue) reference, to a
     * temporary holding the converted value. */
    if (!(to->quals & LAT_Q_CONST) && ref->ref != 2) {
        lat__error_at(p->u, e->loc,
                      "%s %s from %s: a non-const reference binds only to an lvalue of its type",
                      context, lat__type_str(p->u, ref, NULL, false),
                      lat__type_str(p->u, e->type, NULL, false));
        e->flags |= LAT_EF_ERROR;
        return lat__cast_to(p, e, ref, true);
    }
    lat__expr *v = lat__convert_assign(p, e, lat__unqualified(p->u, to), context);
    lat__expr *tmp = temporary(p, v, to);
    lat__expr *decayed = lat__rvalue(p, tmp);
    return lat__cast_to(p, decayed, ref, true);
}

/* ---- default arguments -------------------------------------------------------------------- */

static bool has_statement(const lat__expr *e)
{
    if (!e)
        return false;
    if (e->kind == LAT_E_STMT)
        return true;
    if (has_statement(e->a) || has_statement(e->b) || has_statement(e->c))
        return true;
    for (int i = 0; i < e->nargs; i++)
        if (has_statement(e->args[i]))
            return true;
    for (size_t i = 0; i < e->items.n; i++)
        if (has_statement(e->items.items[i].value))
            return true;
    return false;
}

bool lat__default_argument_ok(lat__parser *p, lat__expr *e)
{
    if (e->flags & LAT_EF_ERROR)
        return false;
    if (has_statement(e)) {
        lat__unsupported_at(p->u, e->loc, "a statement expression in a default argument", "a lattice limit");
        return false;
    }
    return true;
}

lat__expr *lat__expr_clone(lat__parser *p, const lat__expr *e)
{
    if (!e)
        return NULL;
    lat__expr *c = lat__expr_new(p, (lat__exprkind)e->kind, e->loc);
    *c = *e;
    c->aux = NULL;
    c->site = 0;
    c->a = lat__expr_clone(p, e->a);
    c->b = lat__expr_clone(p, e->b);
    c->c = lat__expr_clone(p, e->c);
    c->path = lat__expr_clone(p, e->path);
    if (e->nargs) {
        c->args = lat__arena_alloc(&p->u->arena, (size_t)e->nargs * sizeof *c->args);
        for (int i = 0; i < e->nargs; i++)
            c->args[i] = lat__expr_clone(p, e->args[i]);
    }
    if (e->items.n) {
        memset(&c->items, 0, sizeof c->items);
        for (size_t i = 0; i < e->items.n; i++) {
            lat__init_item it = {lat__expr_clone(p, e->items.items[i].value), e->items.items[i].desig};
            LAT_PUSH(&p->u->arena, c->items, it);
        }
    }
    if (e->kind == LAT_E_CALL && e->sym && p->fn)
        lat__note_call(p, e->sym);
    return c;
}
