/*
 * Legacy warp-synchronous code: after the last __syncthreads, the first warp reduces in
 * shared memory through a volatile pointer with no __syncwarp,
 *     if (tid < 32) { smem[tid] += smem[tid + 32]; smem[tid] += smem[tid + 16]; ... }
 * counting on what a GPU does: a warp runs each statement in lockstep, all its lanes'
 * loads before their stores. The programming model calls it a race (racecheck says so),
 * but SHOC's reduction and many older kernels rely on it, and the emulator, which runs a
 * warp's lanes one after the other, gave other sums. Each statement that stores through
 * a volatile lvalue a value read through another, `lhs op= rhs`, becomes
 *     __lat_ls_end(lhs op= __lat_ls(rhs))
 * where __lat_ls(v) (the prelude) waits for the warp's active lanes once v is computed,
 * and __lat_ls_end once the store is made: the GPU's order. In such a function, and in
 * one that stores and loads through volatile lvalues, every volatile store does the same
 * (rewrite_plain_store). Both are warp operations to the planner.
 */
#include "lockstep.h"

#include "front/arena.h"
#include "front/front.h"
#include "front/type.h"
#include "front/visit.h"

typedef struct lockstep {
    lat__unit *u;
    lat__func *fn;
    lat__sym *ls, *ls_end;
    bool found;
    bool rewrote; /* a statement of fn was made lockstep */
    size_t accesses, stores; /* fn's volatile accesses; its volatile stores' */
} lockstep;

static bool is_volatile(const lat__type *t)
{
    return t && (t->quals & LAT_Q_VOLATILE);
}

/* A memory access: an element, a member through a pointer, a dereference. */
static bool access(const lat__expr *e)
{
    return e->kind == LAT_E_INDEX || (e->kind == LAT_E_UNARY && e->op == LAT_P_STAR) ||
           (e->kind == LAT_E_MEMBER && (e->flags & LAT_EF_ARROW));
}

static bool find_volatile_read(lat__visitor *v, lat__expr *e)
{
    if (access(e) && is_volatile(e->type))
        ((lockstep *)v->data)->found = true;
    return true;
}

static bool find_effect(lat__visitor *v, lat__expr *e)
{
    if (e->kind == LAT_E_CALL || e->kind == LAT_E_ASSIGN || e->kind == LAT_E_POSTFIX || e->kind == LAT_E_STMT ||
        (e->kind == LAT_E_UNARY && (e->op == LAT_P_INC || e->op == LAT_P_DEC)))
        ((lockstep *)v->data)->found = true;
    return true;
}

static bool holds(lockstep *ls, lat__expr *e, bool (*fn)(lat__visitor *, lat__expr *))
{
    ls->found = false;
    lat__visitor v = {NULL, fn, NULL, ls};
    lat__visit_expr(&v, e);
    return ls->found;
}

static lat__expr *call(lockstep *ls, lat__sym *fn, lat__expr *arg, lat__type *t)
{
    lat__expr *e = lat__arena_alloc(&ls->u->arena, sizeof *e);
    e->kind = LAT_E_CALL;
    e->loc = arg->loc;
    e->type = t;
    e->sym = fn;
    lat__expr *f = lat__arena_alloc(&ls->u->arena, sizeof *f);
    f->kind = LAT_E_NAME;
    f->loc = arg->loc;
    f->sym = fn;
    f->type = fn->type ? fn->type : &lat__ty_int;
    e->a = f;
    e->args = lat__arena_alloc(&ls->u->arena, sizeof *e->args);
    e->args[0] = arg;
    e->nargs = 1;
    return e;
}

static void note_call(lockstep *ls, lat__sym *s)
{
    for (size_t i = 0; i < ls->fn->calls.n; i++)
        if (ls->fn->calls.items[i] == s)
            return;
    LAT_PUSH(&ls->u->arena, ls->fn->calls, s);
}

/* A store through a volatile lvalue whose address has no side effects, or NULL. */
static lat__expr *volatile_store(lockstep *ls, lat__stmt *s)
{
    if (s->kind != LAT_S_EXPR || !s->e)
        return NULL;
    lat__expr *e = (lat__expr *)lat__skip_implicit(s->e);
    if (e->kind != LAT_E_ASSIGN || !access(lat__skip_implicit(e->a)) || !is_volatile(e->a->type))
        return NULL;
    return holds(ls, e->a, find_effect) ? NULL : e;
}

static bool rewrite_stmt(lat__visitor *v, lat__stmt *s)
{
    lockstep *ls = v->data;
    lat__expr *e = volatile_store(ls, s);
    /* Only a store of what other lanes' stores may change, through an address the store
     * computes again after the wait. */
    if (!e || !holds(ls, e->b, find_volatile_read))
        return true;
    e->b = call(ls, ls->ls, e->b, e->b->type);
    s->e = call(ls, ls->ls_end, e, &lat__ty_void);
    ls->rewrote = true;
    return true;
}

/* An element of a volatile array of scalars (`s[tid ^ 1]`), how lanes of legacy code
 * talk (a struct's store may be its volatile operator=, a call). */
static bool volatile_element(const lat__expr *e)
{
    e = lat__skip_implicit(e);
    if (e->kind != LAT_E_INDEX || !is_volatile(e->type) || !lat__is_scalar(e->type))
        return false;
    /* a thread's own array (`volatile char pad[512];`) is no other lane's */
    const lat__expr *base = lat__skip_implicit(e->a);
    const lat__sym *v = base->kind == LAT_E_NAME ? base->sym : NULL;
    return !(v && v->type && v->type->kind == LAT_TY_ARRAY && !(v->flags & (LAT_SF_FILE_SCOPE | LAT_SF_PARAM)) &&
             !(v->cuda & LAT_CU_SHARED));
}

/* A plain store to a volatile element, or NULL. */
static lat__expr *element_store(lockstep *ls, lat__stmt *s)
{
    lat__expr *e = volatile_store(ls, s);
    return e && e->op == LAT_P_ASSIGN && volatile_element(e->a) ? e : NULL;
}

/* Counts fn's volatile elements and the statements storing to one: a function with more
 * elements than stores also reads them. */
static bool count_access(lat__visitor *v, lat__expr *e)
{
    if (volatile_element(e))
        ((lockstep *)v->data)->accesses++;
    return true;
}

/* A declarator's initializer that stores to a volatile element (`T t = s[i] = v;`, as
 * CUDPP's warp scan declares its running sum), or NULL. */
static lat__expr *element_init(lockstep *ls, const lat__decl *d)
{
    lat__expr *e = d->init ? (lat__expr *)lat__skip_implicit(d->init) : NULL;
    return e && e->kind == LAT_E_ASSIGN && e->op == LAT_P_ASSIGN && volatile_element(e->a) &&
                   !holds(ls, e->a, find_effect)
               ? e
               : NULL;
}

static bool count_store(lat__visitor *v, lat__stmt *s)
{
    lockstep *ls = v->data;
    if (element_store(ls, s))
        ls->stores++;
    for (lat__decl *d = s->kind == LAT_S_DECL && s->decls ? s->decls->first : NULL; d; d = d->next)
        if (element_init(ls, d))
            ls->stores++;
    return true;
}

/* In a function whose lanes talk through volatile memory with no barrier (lockstep
 * statements, or stores and loads of volatile elements: `smem[tid] = x; y = smem[tid ^
 * 1];`, `int t = s[pos] + s[pos - off]; s[pos] = t;`, SHOC's spmv storing
 * `partialSums[t] = mySum;` before reducing at once), every store to a volatile element
 * happens as in a GPU's lockstep warp: after every lane's loads before it, and seen by
 * every lane after it. */
static bool rewrite_plain_store(lat__visitor *v, lat__stmt *s)
{
    lockstep *ls = v->data;
    lat__expr *e = element_store(ls, s);
    if (e) {
        e->b = call(ls, ls->ls, e->b, e->b->type);
        s->e = call(ls, ls->ls_end, e, &lat__ty_void);
    }
    /* an initializer keeps its value: __lat_ls(lhs = __lat_ls(rhs)) waits after the store */
    for (lat__decl *d = s->kind == LAT_S_DECL && s->decls ? s->decls->first : NULL; d; d = d->next)
        if ((e = element_init(ls, d)) != NULL) {
            e->b = call(ls, ls->ls, e->b, e->b->type);
            d->init = call(ls, ls->ls, d->init, d->init->type);
        }
    return true;
}

void lat__lockstep_rewrite(lat__unit *u)
{
    lockstep ls = {u, NULL, lat__unit_builtin(u, "__lat_ls"), lat__unit_builtin(u, "__lat_ls_end"), false, false, 0, 0};
    if (!ls.ls || !ls.ls_end)
        return;
    lat__tu *tu = u->tu;
    for (size_t i = 0; i < tu->items.n; i++) {
        lat__ext *x = &tu->items.items[i];
        if (x->kind != LAT_X_FUNC || !(x->fn->sym->cuda & (LAT_CU_GLOBAL | LAT_CU_DEVICE)))
            continue;
        ls.fn = x->fn;
        ls.rewrote = false;
        ls.accesses = ls.stores = 0;
        lat__visitor c = {count_store, count_access, NULL, &ls};
        lat__visit_stmt(&c, x->fn->body);
        lat__visitor v = {rewrite_stmt, NULL, NULL, &ls};
        lat__visit_stmt(&v, x->fn->body);
        if (!ls.rewrote && !(ls.stores && ls.accesses > ls.stores))
            continue;
        v.stmt = rewrite_plain_store;
        lat__visit_stmt(&v, x->fn->body);
        note_call(&ls, ls.ls);
        note_call(&ls, ls.ls_end);
    }
}
