/* The profile's instrumentation on the tree (profile.h). */
#include "profile.h"
#include "checks.h"

#include "emu/check/ck.h"
#include "front/visit.h"

typedef struct pass {
    lat__unit *u;
    lat__ck_module *m;
} pass;

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
        lat__visitor v = {visit_stmt, NULL, NULL, &p};
        lat__visit_stmt(&v, x->fn->body);
    }
}
