/* A walk over the tree: see visit.h. */
#include "visit.h"

void lat__visit_expr(lat__visitor *v, lat__expr *e)
{
    if (!e)
        return;
    if (v->expr && !v->expr(v, e))
        return;
    switch (e->kind) {
    case LAT_E_INIT:
        for (size_t i = 0; i < e->items.n; i++) {
            for (lat__designator *d = e->items.items[i].desig; d; d = d->next)
                lat__visit_expr(v, d->index);
            lat__visit_expr(v, e->items.items[i].value);
        }
        return;
    case LAT_E_STMT:
        lat__visit_stmt(v, e->stmt);
        return;
    case LAT_E_CALL:
        lat__visit_expr(v, e->a);
        for (int i = 0; i < e->nargs; i++)
            lat__visit_expr(v, e->args[i]);
        return;
    case LAT_E_MEMBER:
        lat__visit_expr(v, e->a);
        return;
    default:
        lat__visit_expr(v, e->a);
        lat__visit_expr(v, e->b);
        lat__visit_expr(v, e->c);
        return;
    }
}

void lat__visit_decls(lat__visitor *v, lat__decl_group *g)
{
    if (!g)
        return;
    for (lat__decl *d = g->first; d; d = d->next) {
        if (d->sym && d->sym->type && d->sym->type->kind == LAT_TY_ARRAY)
            lat__visit_expr(v, d->sym->type->vla);
        lat__visit_expr(v, d->init);
    }
}

void lat__visit_stmt(lat__visitor *v, lat__stmt *s)
{
    if (!s)
        return;
    if (v->stmt && !v->stmt(v, s))
        return;
    switch (s->kind) {
    case LAT_S_COMPOUND:
        for (size_t i = 0; i < s->items.n; i++)
            lat__visit_stmt(v, s->items.items[i]);
        break;
    case LAT_S_DECL:
        lat__visit_decls(v, s->decls);
        break;
    case LAT_S_FOR:
        lat__visit_stmt(v, s->init);
        lat__visit_expr(v, s->e);
        lat__visit_expr(v, s->step);
        lat__visit_stmt(v, s->body);
        break;
    case LAT_S_DO:
        lat__visit_stmt(v, s->body);
        lat__visit_expr(v, s->e);
        break;
    default:
        lat__visit_expr(v, s->e);
        lat__visit_stmt(v, s->body);
        lat__visit_stmt(v, s->els);
        break;
    }
    if (v->stmt_after)
        v->stmt_after(v, s);
}

const lat__expr *lat__skip_implicit(const lat__expr *e)
{
    while (e->kind == LAT_E_CAST && (e->flags & LAT_EF_IMPLICIT))
        e = e->a;
    return e;
}

lat__sym *lat__assigned_var(const lat__expr *e)
{
    bool writes = e->kind == LAT_E_ASSIGN || e->kind == LAT_E_POSTFIX ||
                  (e->kind == LAT_E_UNARY && (e->op == LAT_P_INC || e->op == LAT_P_DEC));
    const lat__expr *t = writes ? lat__skip_implicit(e->a) : NULL;
    return t && t->kind == LAT_E_NAME ? t->sym : NULL;
}
