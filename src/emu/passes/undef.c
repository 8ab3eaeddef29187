/* A local variable declared without a value and only ever assigned one constant (undef.h).
 *
 * Real kernels read such a variable in threads that never assigned it: PyCUDA's wiki
 * (select_to_list) sets `counter_smem_ptr = &counter_smem` in thread 1 only and every
 * thread then does `atomicAdd(counter_smem_ptr, 1)`. The read is undefined, but NVRTC's
 * optimiser (LLVM) merges "no value yet" with the one value ever stored and every thread
 * gets &counter_smem: the program works on a GPU. TinyCC and gcc -O0 read what the stack
 * held (a fault, or another answer per tier). The emulator gives the GPU's answer by
 * giving the variable that value from its declaration on, which changes nothing for a
 * program whose reads are all defined: every store writes the same value. */
#include "undef.h"

#include "front/visit.h"

#include <string.h>

typedef struct cand {
    lat__sym *sym;
    lat__expr *value; /* the one value stored; NULL: none yet */
    bool out;         /* stored something else, or changed otherwise */
} cand;

typedef struct undef {
    lat__unit *u;
    LAT_VEC(cand) cands;
} undef;

static cand *find(undef *d, const lat__sym *s)
{
    for (size_t i = 0; i < d->cands.n; i++)
        if (d->cands.items[i].sym == s)
            return &d->cands.items[i];
    return NULL;
}

static bool scalar(const lat__type *t)
{
    return t && (t->kind == LAT_TY_PTR || (t->kind >= LAT_TY_BOOL && t->kind <= LAT_TY_ENUM)) &&
           !(t->quals & LAT_Q_VOLATILE);
}

static bool before(lat__loc a, lat__loc b)
{
    return a.file == b.file && (a.line < b.line || (a.line == b.line && a.col < b.col));
}

/* A variable of static storage (file scope, __shared__, static) declared before `at`. */
static bool static_var(const lat__sym *s, lat__loc at)
{
    if (!s || s->kind != LAT_SYM_VAR || (s->flags & (LAT_SF_PARAM | LAT_SF_MEMBER)))
        return false;
    bool fixed = (s->flags & LAT_SF_FILE_SCOPE) || s->storage == LAT_ST_STATIC ||
                 (s->cuda & (LAT_CU_SHARED | LAT_CU_CONSTANT));
    return fixed && ((s->flags & LAT_SF_FILE_SCOPE) || before(s->loc, at));
}

/* Whether e is a value the same in every thread and known where `at` is declared: a
 * literal, or the address of a variable of static storage declared before it. */
static bool constant(const lat__expr *e, lat__loc at)
{
    e = lat__skip_implicit(e);
    if (!e)
        return false;
    switch (e->kind) {
    case LAT_E_INT:
    case LAT_E_FLOAT:
        return true;
    case LAT_E_UNARY:
        if (e->op == LAT_P_MINUS)
            return constant(e->a, at) && lat__skip_implicit(e->a)->kind != LAT_E_UNARY;
        return e->op == LAT_P_AMP && lat__skip_implicit(e->a)->kind == LAT_E_NAME &&
               static_var(lat__skip_implicit(e->a)->sym, at);
    case LAT_E_NAME: /* an array that decays to its first element's address */
        return e->type && e->type->kind == LAT_TY_ARRAY && static_var(e->sym, at);
    default:
        return false;
    }
}

static bool same(const lat__expr *a, const lat__expr *b)
{
    a = lat__skip_implicit(a);
    b = lat__skip_implicit(b);
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case LAT_E_INT:
        return a->ival == b->ival && a->type == b->type;
    case LAT_E_FLOAT:
        return memcmp(&a->fval, &b->fval, sizeof a->fval) == 0 && a->type == b->type;
    case LAT_E_UNARY:
        return a->op == b->op && same(a->a, b->a);
    case LAT_E_NAME:
        return a->sym == b->sym;
    default:
        return false;
    }
}

static bool note_decl(lat__visitor *v, lat__stmt *s)
{
    undef *d = v->data;
    if (s->kind != LAT_S_DECL || !s->decls)
        return true;
    for (lat__decl *x = s->decls->first; x; x = x->next) {
        lat__sym *sym = x->sym;
        if (!sym || sym->kind != LAT_SYM_VAR || x->init || sym->storage == LAT_ST_STATIC ||
            sym->storage == LAT_ST_EXTERN || (sym->cuda & (LAT_CU_SHARED | LAT_CU_CONSTANT)) ||
            (sym->flags & LAT_SF_ADDRESS_TAKEN) || !scalar(sym->type) || sym->def != x)
            continue;
        LAT_PUSH(&d->u->arena, d->cands, ((cand){sym, NULL, false}));
    }
    return true;
}

static bool note_store(lat__visitor *v, lat__expr *e)
{
    undef *d = v->data;
    lat__sym *s = lat__assigned_var(e);
    cand *c = s ? find(d, s) : NULL;
    if (!c || c->out)
        return true;
    if (e->kind != LAT_E_ASSIGN || e->op != LAT_P_ASSIGN || !constant(e->b, s->def->loc))
        c->out = true;
    else if (!c->value)
        c->value = e->b;
    else if (!same(c->value, e->b))
        c->out = true;
    return true;
}

/* A copy of a constant(): its nodes are few (conversions, a sign or &, a leaf), and the
 * passes after this one may annotate or rewrite the store's own. */
static lat__expr *clone(lat__unit *u, const lat__expr *e)
{
    if (!e)
        return NULL;
    lat__expr *c = lat__arena_alloc(&u->arena, sizeof *c);
    *c = *e;
    c->aux = NULL;
    c->site = 0;
    c->a = clone(u, e->a);
    return c;
}

void lat__undef_fold(lat__unit *u, lat__func *fn)
{
    if (!fn || !fn->body)
        return;
    undef d = {u, {0}};
    lat__visitor decls = {note_decl, NULL, NULL, &d};
    lat__visit_stmt(&decls, fn->body);
    if (!d.cands.n)
        return;
    lat__visitor stores = {NULL, note_store, NULL, &d};
    lat__visit_stmt(&stores, fn->body);
    for (size_t i = 0; i < d.cands.n; i++) {
        cand *c = &d.cands.items[i];
        if (c->out || !c->value)
            continue;
        /* The stored value is already converted to the variable's type. */
        c->sym->def->init = clone(u, c->value);
    }
}
