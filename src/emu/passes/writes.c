/* Which pointer parameters a kernel writes through (writes.h). */
#include "writes.h"

#include "emu/check/ck.h"
#include "front/builtins.h"
#include "front/type.h"
#include "front/visit.h"

#include <stdlib.h>
#include <string.h>

/* What a pointer or an lvalue is rooted in: a parameter (its index), memory that is no
 * device allocation (a local, __shared__ or __device__ variable), or nothing known. */
enum { ROOT_UNKNOWN = -1, ROOT_NOT_GLOBAL = -2 };

enum { MAX_DEPTH = 8 };

typedef struct wscan {
    const lat__func *fn;
    bool *written;
    signed char *derived; /* per parameter: stays_derived, once asked (0: not yet, 1, -1) */
    bool all;
    int depth;
} wscan;

static int param_of(const lat__func *fn, const lat__sym *s)
{
    for (int i = 0; i < fn->nparams; i++)
        if (fn->params[i] == s)
            return i;
    return ROOT_UNKNOWN;
}

/* Whether every change the function makes to parameter p is pointer arithmetic on p
 * itself (p += n, p--, p = p + n): p then stays derived from its value at the call. */
typedef struct moved {
    const lat__sym *p;
    bool other;
} moved;

static bool moved_expr(lat__visitor *v, lat__expr *e)
{
    moved *m = v->data;
    /* ++ and -- are arithmetic on p; so are += and -= */
    if (lat__assigned_var(e) != m->p || e->kind != LAT_E_ASSIGN)
        return true;
    if (e->op == LAT_P_ADD_ASSIGN || e->op == LAT_P_SUB_ASSIGN)
        return true;
    const lat__expr *r = lat__skip_implicit(e->b);
    bool arith = e->op == LAT_P_ASSIGN && r->kind == LAT_E_BINARY && (r->op == LAT_P_PLUS || r->op == LAT_P_MINUS);
    const lat__expr *base = arith ? lat__skip_implicit(lat__is_pointer(r->a->type) ? r->a : r->b) : NULL;
    if (!base || base->kind != LAT_E_NAME || base->sym != m->p)
        m->other = true;
    return !m->other;
}

static bool stays_derived(const lat__func *fn, const lat__sym *p)
{
    if (p->flags & LAT_SF_ADDRESS_TAKEN)
        return false;
    moved m = {p, false};
    lat__visitor v = {NULL, moved_expr, NULL, &m};
    lat__visit_stmt(&v, fn->body);
    return !m.other;
}

static int lvalue_root(wscan *w, const lat__expr *e);

/* The root of a pointer's value. */
static int pointer_root(wscan *w, const lat__expr *p)
{
    switch (p->kind) {
    case LAT_E_NAME: {
        if (p->sym && p->type && p->type->kind == LAT_TY_ARRAY)
            return lvalue_root(w, p);
        int i = p->sym && p->type && lat__is_pointer(p->type) ? param_of(w->fn, p->sym) : ROOT_UNKNOWN;
        if (i < 0)
            return ROOT_UNKNOWN;
        if (!w->derived[i])
            w->derived[i] = stays_derived(w->fn, p->sym) ? 1 : -1;
        return w->derived[i] > 0 ? i : ROOT_UNKNOWN;
    }
    case LAT_E_CAST:
        /* From a pointer or an array, not from an integer. */
        if (p->a->type && (lat__is_pointer(p->a->type) || p->a->type->kind == LAT_TY_ARRAY))
            return pointer_root(w, p->a);
        return ROOT_UNKNOWN;
    case LAT_E_BINARY:
        if (p->op == LAT_P_PLUS || p->op == LAT_P_MINUS)
            return pointer_root(w, p->a->type && lat__is_pointer(p->a->type) ? p->a : p->b);
        if (p->op == LAT_P_COMMA)
            return pointer_root(w, p->b);
        return ROOT_UNKNOWN;
    case LAT_E_UNARY:
        return p->op == LAT_P_AMP ? lvalue_root(w, p->a) : ROOT_UNKNOWN;
    case LAT_E_COND: {
        int a = pointer_root(w, p->b ? p->b : p->a), b = pointer_root(w, p->c);
        return a == b ? a : ROOT_UNKNOWN;
    }
    default:
        return ROOT_UNKNOWN; /* loaded from memory, returned by a call... */
    }
}

/* The root of the storage an lvalue names. */
static int lvalue_root(wscan *w, const lat__expr *e)
{
    switch (e->kind) {
    case LAT_E_NAME:
        /* A variable's own storage: a local, a parameter's copy, __shared__ or
         * __device__ memory, none of them a device allocation. */
        return e->sym && e->sym->kind == LAT_SYM_VAR ? ROOT_NOT_GLOBAL : ROOT_UNKNOWN;
    case LAT_E_INDEX:
        if (e->a->kind == LAT_E_CAST && (e->a->flags & LAT_EF_IMPLICIT) && e->a->a->type &&
            e->a->a->type->kind == LAT_TY_ARRAY)
            return lvalue_root(w, e->a->a);
        return pointer_root(w, e->a);
    case LAT_E_UNARY:
        return e->op == LAT_P_STAR ? pointer_root(w, e->a) : ROOT_UNKNOWN;
    case LAT_E_MEMBER:
        return (e->flags & LAT_EF_ARROW) ? pointer_root(w, e->a) : lvalue_root(w, e->a);
    case LAT_E_CAST:
        return lvalue_root(w, e->a);
    default:
        return ROOT_UNKNOWN;
    }
}

static void note_root(wscan *w, int root)
{
    if (root >= 0)
        w->written[root] = true;
    else if (root == ROOT_UNKNOWN)
        w->all = true;
}

static bool scan_fn(const lat__func *fn, bool *written, int depth);

static void note_call(wscan *w, const lat__expr *call)
{
    const lat__sym *f = call->a && call->a->kind == LAT_E_NAME ? call->a->sym : NULL;
    if (f && f->builtin) {
        const lat__builtin *b = lat__builtin_get(f->builtin);
        if (b && (strcmp(b->name, "printf") == 0 || strcmp(b->name, "vprintf") == 0 ||
                  strcmp(b->name, "free") == 0))
            return; /* writes no device allocation */
        /* A built-in may write through any pointer it is given (atomics, sincosf...). */
        for (int i = 0; i < call->nargs; i++)
            if (call->args[i]->type && lat__is_pointer(call->args[i]->type))
                note_root(w, pointer_root(w, call->args[i]));
        return;
    }
    if (!f || f->kind != LAT_SYM_FUNC || !f->fn || !f->fn->body || w->depth >= MAX_DEPTH) {
        w->all = true; /* through a pointer, not defined here, or too deep */
        return;
    }
    const lat__func *callee = f->fn;
    if (callee->nparams != call->nargs) {
        w->all = true; /* arguments not one for one (defaults, variadic) */
        return;
    }
    bool *cw = calloc((size_t)callee->nparams + 1, sizeof *cw);
    if (!cw || !scan_fn(callee, cw, w->depth + 1)) {
        w->all = true;
        free(cw);
        return;
    }
    for (int i = 0; i < callee->nparams && i < call->nargs; i++)
        if (cw[i])
            note_root(w, pointer_root(w, call->args[i]));
    free(cw);
}

static bool scan_expr(lat__visitor *v, lat__expr *e)
{
    wscan *w = v->data;
    if (e->site && ((e->site - 1) & LAT_ACCESS_WRITE))
        note_root(w, lvalue_root(w, e));
    if (e->kind == LAT_E_CALL)
        note_call(w, e);
    return !w->all;
}

static bool scan_stmt(lat__visitor *v, lat__stmt *s)
{
    wscan *w = v->data;
    if (s->kind == LAT_S_ASM || s->kind == LAT_S_RAW)
        w->all = true;
    return !w->all;
}

static bool scan_fn(const lat__func *fn, bool *written, int depth)
{
    signed char *derived = calloc((size_t)fn->nparams + 1, 1);
    wscan w = {fn, written, derived, !derived, depth};
    lat__visitor v = {scan_stmt, scan_expr, NULL, &w};
    if (derived)
        lat__visit_stmt(&v, fn->body);
    free(derived);
    return !w.all;
}

bool lat__writes_params(const lat__func *fn, bool *written)
{
    return fn->body && scan_fn(fn, written, 0);
}
