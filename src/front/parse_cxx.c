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
