/* The profile's instrumentation on the tree (profile.h). */
#include "profile.h"
#include "checks.h"

#include "emu/check/ck.h"
#include "front/visit.h"

typedef struct pass {
    lat__unit *u;
    lat__ck_module *m;
} pass;

/* What an if's branches hold, for predicable(). */
typedef struct straight {
    int statements;
    bool branchy; /* a loop, switch, jump or call */
} straight;

static bool straight_stmt(lat__visitor *v, lat__stmt *s)
{
    straight *st = v->data;
    switch (s->kind) {
    case LAT_S_EXPR:
    case LAT_S_DECL:
    case LAT_S_RETURN:
    case LAT_S_IF:
        st->statements++;
        break;
    case LAT_S_COMPOUND:
    case LAT_S_NULL:
        break;
    default:
        st->branchy = true;
    }
    return !st->branchy;
}

static bool straight_expr(lat__visitor *v, lat__expr *e)
{
    straight *st = v->data;
    if (e->kind == LAT_E_CALL)
        st->branchy = true;
    return !st->branchy;
}

/* Whether nvcc turns this if into predicated instructions rather than a branch: its
 * branches are a few statements without loops, jumps or calls (`if (t < k) s[t] += s[t +
 * k];`, `if (i >= n) return;`), as ptxas if-converts them (the suite's SASS: `@!P1 LDS`,
 * `@P0 EXIT`). A warp whose lanes disagree on it then runs both sides with some lanes
 * idle, but takes no divergent branch, which is what Nsight Compute counts. */
static bool predicable(lat__stmt *s)
{
    straight st = {0, false};
    lat__visitor v = {straight_stmt, straight_expr, NULL, &st};
    lat__visit_stmt(&v, s->body);
    if (s->els)
        lat__visit_stmt(&v, s->els);
    return !st.branchy && st.statements <= 4;
}

/* A branch's condition (one that is no access itself, `if (flag[i])`: not counted). */
static bool visit_stmt(lat__visitor *v, lat__stmt *s)
{
    pass *p = v->data;
    if ((s->kind == LAT_S_IF || s->kind == LAT_S_WHILE || s->kind == LAT_S_DO || s->kind == LAT_S_FOR) &&
        s->e && !s->e->site) {
        int site = lat__checks_mark(p->u, p->m, s->e, 0);
        if (site >= 0 && s->kind == LAT_S_IF && predicable(s))
            p->m->sites[site].predicated = true;
    }
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
        lat__visitor v = {visit_stmt, NULL, NULL, &p};
        lat__visit_stmt(&v, x->fn->body);
    }
}
