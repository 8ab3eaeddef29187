/* The profile's instrumentation on the tree (profile.h). */
#include "profile.h"
#include "checks.h"
#include "core/alloc.h"

#include "emu/check/ck.h"
#include "emu/check/profile.h"
#include "front/builtins.h"
#include "front/visit.h"

#include <stdlib.h>

typedef struct pass {
    lat__unit *u;
    lat__ck_module *m;
} pass;

static bool atomic_call(const lat__expr *e)
{
    if (e->kind != LAT_E_CALL || e->nargs < 1)
        return false;
    const lat__expr *callee = lat__emit_direct_callee(e);
    const lat__sym *s = callee ? callee->sym : NULL;
    if (!s || s->kind == LAT_SYM_TAG || !s->builtin)
        return false;
    const lat__builtin *b = lat__builtin_get(s->builtin);
    return b && (b->coll & LAT_COLL_ATOMIC);
}

static bool visit_expr(lat__visitor *v, lat__expr *e)
{
    pass *p = v->data;
    if (!atomic_call(e))
        return true;
    /* The place operated on: &x's x, or *p for a pointer p (a node made here, whose
     * address is the argument again). */
    lat__expr *arg = e->args[0];
    lat__expr *x = NULL;
    const lat__expr *bare = lat__skip_implicit(arg);
    if (bare->kind == LAT_E_UNARY && bare->op == LAT_P_AMP && !bare->a->site) {
        x = bare->a;
    } else if (arg->type && arg->type->kind == LAT_TY_PTR && arg->type->base &&
               lat__is_complete(arg->type->base)) {
        lat__expr *star = lat__arena_alloc(&p->u->arena, sizeof *star);
        lat__expr *amp = lat__arena_alloc(&p->u->arena, sizeof *amp);
        *star = (lat__expr){.kind = LAT_E_UNARY, .op = LAT_P_STAR, .type = arg->type->base,
                            .loc = arg->loc, .a = arg};
        *amp = (lat__expr){.kind = LAT_E_UNARY, .op = LAT_P_AMP, .type = arg->type,
                           .loc = arg->loc, .a = star};
        e->args[0] = amp;
        x = star;
    }
    if (x && !x->site) {
        int site = lat__checks_mark(p->u, p->m, x, LAT_ACCESS_READ_WRITE);
        if (lat__pf_note_atomic(p->m, site) != LAT_OK)
            lat__arena_oom(&p->u->arena);
    }
    for (int i = 1; i < e->nargs; i++)
        lat__visit_expr(v, e->args[i]);
    return false;
}

/* A branch's condition (one that is no access itself, `if (flag[i])`: not counted). */
static bool visit_stmt(lat__visitor *v, lat__stmt *s)
{
    pass *p = v->data;
    if ((s->kind == LAT_S_IF || s->kind == LAT_S_WHILE || s->kind == LAT_S_DO || s->kind == LAT_S_FOR) &&
        s->e && !s->e->site)
        lat__checks_mark(p->u, p->m, s->e, 0);
    return true;
}

const char *lat__profile_prefix(void)
{
    return "int __lat_pf_br(lat_emu_thread *, int, int);\n"
           "#define __LAT_PF_BR(c, s) __lat_pf_br(__lat_t, s, !!(c))\n";
}

void lat__profile_annotate(lat__unit *u, lat__ck_module *m)
{
    pass p = {u, m};
    lat__tu *tu = u->tu;
    for (size_t i = 0; i < tu->items.n; i++) {
        lat__ext *x = &tu->items.items[i];
        if (x->kind != LAT_X_FUNC || !(x->fn->sym->cuda & (LAT_CU_GLOBAL | LAT_CU_DEVICE)))
            continue;
        lat__visitor v = {visit_stmt, visit_expr, NULL, &p};
        lat__visit_stmt(&v, x->fn->body);
    }
}
