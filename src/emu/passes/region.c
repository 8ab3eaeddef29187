/*
 * Region loops on the tree (region.h). The plan, for a kernel whose barriers and warp
 * operations are all in its own body:
 *   - every statement holding one ("sync") is found, and where each collective stands:
 *     a statement of its own (__syncthreads();), or in an expression that every thread
 *     evaluates whole (a condition, an initializer, an expression statement), never
 *     under &&, ||, ?: or after a comma, never inside another's arguments; else fibers;
 *   - what every thread of the block holds alike: unmodified parameters, the block's
 *     built-in values, variables whose every assignment is a uniform value at a point
 *     every thread reaches alike (found by iterating to a fixed point), results of
 *     __syncthreads_count/and/or. Branches and loops on such values are the block's
 *     control flow, run once; the variables live once for the block;
 *   - the body is cut into stretches between collectives. Each stretch is a loop over the
 *     threads. Control flow that holds a collective and is not uniform keeps a state per
 *     thread (__lat_sk: 0 active, 2L inactive at level L, 2L+1 until the iteration ends,
 *     EXITED after return);
 *   - a local used in more than one stretch lives in per-thread storage: a copy in each
 *     stretch, loaded at its start and stored at its end (an array, or a variable whose
 *     address is taken, is used in place there); one computed from threadIdx and uniform
 *     values alone, never changed, is computed again instead;
 *   - a collective in an expression: every active thread stores its operands in one
 *     stretch; the next reads each lane's result (the same warp.c as fibers computes it).
 */
#include "region_int.h"

#include "bounds.h"

#include "emu/runtime/abi.h"
#include "emu/runtime/warp.h"
#include "front/builtins.h"
#include "front/visit.h"

#include <stdio.h>
#include <string.h>

enum { BVOTE = LAT_RGN_BVOTE };

void lat__region_fail(plan *pl, const char *why)
{
    if (!pl->bad)
        pl->why = why;
    pl->bad = true;
}

void lat__region_fail_at(plan *pl, lat__loc at, const char *why)
{
    if (!pl->bad)
        pl->why_at = at;
    lat__region_fail(pl, why);
}

rstmt *lat__region_rs(plan *pl, const lat__stmt *s)
{
    lat__stmt *m = (lat__stmt *)s;
    if (!m->aux)
        m->aux = lat__arena_alloc(&pl->u->arena, sizeof(rstmt));
    return m->aux;
}

rvar *lat__region_rv(plan *pl, lat__sym *s)
{
    lat__symx *x = lat__symx_of(pl->u, s);
    if (!x->region) {
        rvar *v = lat__arena_alloc(&pl->u->arena, sizeof *v);
        v->slot = -1;
        v->declared_seg = -2;
        v->mark = -3;
        x->region = v;
        LAT_PUSH(&pl->u->arena, pl->vars, s);
    }
    return x->region;
}

const lat__builtin *lat__region_builtin_of(const lat__expr *call)
{
    if (call->kind != LAT_E_CALL || !call->sym || call->sym->kind != LAT_SYM_BUILTIN || !call->sym->builtin)
        return call->kind == LAT_E_CALL && call->sym && call->sym->builtin ? lat__builtin_get(call->sym->builtin) : NULL;
    return lat__builtin_get(call->sym->builtin);
}

/* The collective a call is, or 0. */
unsigned lat__region_coll_of(const lat__expr *e)
{
    if (e->kind != LAT_E_CALL)
        return 0;
    const lat__builtin *b = lat__region_builtin_of(e);
    return b ? b->coll & (LAT_COLL_BARRIER | LAT_COLL_BVOTE | LAT_COLL_WARP | LAT_COLL_ACTIVEMASK) : 0;
}


/* ---- where the collectives are ---------------------------------------------------------- */

typedef struct find {
    plan *pl;
    int cond_depth; /* inside an operand evaluated only sometimes */
    int in_args;    /* inside a collective's arguments */
    int count;
} find;

static void find_in_expr(find *f, const lat__expr *e);

static void find_children(find *f, const lat__expr *e)
{
    switch (e->kind) {
    case LAT_E_BINARY:
        find_in_expr(f, e->a);
        if (e->op == LAT_P_ANDAND || e->op == LAT_P_OROR || e->op == LAT_P_COMMA) {
            f->cond_depth++;
            find_in_expr(f, e->b);
            f->cond_depth--;
        } else {
            find_in_expr(f, e->b);
        }
        return;
    case LAT_E_COND:
        find_in_expr(f, e->a);
        f->cond_depth++;
        if (e->b)
            find_in_expr(f, e->b);
        find_in_expr(f, e->c);
        f->cond_depth--;
        return;
    case LAT_E_CALL:
        find_in_expr(f, e->a);
        for (int i = 0; i < e->nargs; i++)
            find_in_expr(f, e->args[i]);
        return;
    case LAT_E_SIZEOF:
    case LAT_E_ALIGNOF:
        return; /* not evaluated */
    case LAT_E_STMT:
        return; /* find_in_expr looked inside */
    case LAT_E_INIT:
        for (size_t i = 0; i < e->items.n; i++)
            find_in_expr(f, e->items.items[i].value);
        return;
    default:
        if (e->a)
            find_in_expr(f, e->a);
        if (e->b)
            find_in_expr(f, e->b);
        if (e->c)
            find_in_expr(f, e->c);
        return;
    }
}

static void find_in_expr(find *f, const lat__expr *e)
{
    if (!e)
        return;
    if (e->kind == LAT_E_STMT) {
        /* ({ ... }) holding a collective: the passes cannot place it exactly. */
        if (lat__region_any_collective(e->stmt))
            lat__region_fail_at(f->pl, e->loc, "a barrier or warp operation in a statement expression");
        return;
    }
    unsigned c = lat__region_coll_of(e);
    if (c) {
        plan *pl = f->pl;
        /* Blocks wait for each other there, each thread on its stack: fibers. */
        if (lat__region_builtin_of(e)->coll & LAT_COLL_GRID)
            lat__region_fail_at(pl, e->loc, "a grid barrier");
        if (f->cond_depth)
            lat__region_fail_at(pl, e->loc, "a barrier or warp operation under &&, || or ?:, or after a comma");
        if (f->in_args)
            lat__region_fail_at(pl, e->loc, "a warp operation inside another's arguments");
        if (c & LAT_COLL_BARRIER && !(c & LAT_COLL_BVOTE))
            lat__region_fail_at(pl, e->loc, "__syncthreads inside an expression");
        const lat__builtin *b = lat__region_builtin_of(e);
        if (b->op == LAT_EMU_W_SYNC && (c & LAT_COLL_WARP))
            lat__region_fail_at(pl, e->loc, "__syncwarp inside an expression");
        if (!e->aux) {
            rcoll *rc = lat__arena_alloc(&pl->u->arena, sizeof *rc);
            *rc = (rcoll){e, (int)pl->colls.n, (c & LAT_COLL_BVOTE) ? BVOTE + b->op : b->op,
                          (c & LAT_COLL_BVOTE) != 0};
            ((lat__expr *)e)->aux = rc;
            LAT_PUSH(&pl->u->arena, pl->colls, rc);
        }
        f->count++;
        f->in_args++;
        for (int i = 0; i < e->nargs; i++)
            find_in_expr(f, e->args[i]);
        f->in_args--;
        return;
    }
    if (e->kind == LAT_E_CALL && e->sym && e->sym->kind == LAT_SYM_FUNC && e->sym->fn &&
        e->sym->fn->calls_collective)
        lat__region_fail_at(f->pl, e->loc, "a barrier or warp operation reached through a function");
    find_children(f, e);
}

/* Collectives of an expression, checked for their places; how many. */
static int collectives_in(plan *pl, const lat__expr *e)
{
    find f = {pl, 0, 0, 0};
    find_in_expr(&f, e);
    return f.count;
}

static bool any_coll_expr(lat__visitor *v, lat__expr *e)
{
    if (lat__region_coll_of(e))
        *(bool *)v->data = true;
    return true;
}

bool lat__region_any_collective(lat__stmt *s)
{
    bool found = false;
    lat__visitor v = {NULL, any_coll_expr, NULL, &found};
    lat__visit_stmt(&v, s);
    return found;
}

/* A statement __syncthreads(); or __syncwarp(m); standing alone. */
bool lat__region_barrier_statement(const lat__stmt *s, bool *block)
{
    if (s->kind != LAT_S_EXPR || !s->e)
        return false;
    const lat__expr *e = s->e;
    while (e->kind == LAT_E_CAST && (e->flags & LAT_EF_IMPLICIT))
        e = e->a;
    unsigned c = lat__region_coll_of(e);
    if (!c)
        return false;
    const lat__builtin *b = lat__region_builtin_of(e);
    if (b->coll & LAT_COLL_GRID)
        return false; /* not a block barrier: find_in_expr sends the kernel to fibers */
    if ((c & LAT_COLL_BARRIER) && !(c & LAT_COLL_BVOTE)) {
        *block = true;
        return true;
    }
    if ((c & LAT_COLL_WARP) && b->op == LAT_EMU_W_SYNC) {
        *block = false;
        return true;
    }
    return false;
}

/* ---- implicit loops ------------------------------------------------------------------------
 * A loop with no barrier whose control every thread evaluates alike (`for (k = 0; k < 16;
 * k++)` over shared tiles) is written at block level, as if a barrier closed each iteration:
 * the loop over the block's threads is then inside it, where the optimiser vectorises it
 * across threads, instead of around it (PoCL's implicit loop barriers do the same). Threads
 * between barriers run in no fixed order on a GPU, so only a program with a race could tell;
 * a loop whose side effects have an order of their own (printf, atomics, volatile accesses,
 * the heap, traps) keeps its thread loop outside. Whether the control is uniform is only known
 * after the analysis: a candidate that is not is excluded and the kernel planned again. */

typedef struct iscan {
    plan *pl;
    const lat__stmt *loop;
    bool bad;
    int depth;
    LAT_VEC(const lat__sym *) declared; /* locals the loop declares */
    LAT_VEC(const lat__sym *) outer;    /* non-scalar locals it uses: declared inside? */
} iscan;

static bool scan_function(iscan *sc, lat__func *fn);

static bool scan_expr(lat__visitor *v, lat__expr *e)
{
    iscan *sc = v->data;
    if (e->type && (e->type->quals & LAT_Q_VOLATILE) && (e->flags & LAT_EF_LVALUE))
        sc->bad = true;
    if (e->kind == LAT_E_CALL) {
        const lat__sym *f = e->sym;
        if (f && f->builtin) {
            const lat__builtin *b = lat__builtin_get(f->builtin);
            if (!b || lat__builtin_ordered(b))
                sc->bad = true;
        } else if (f && f->kind == LAT_SYM_FUNC && f->fn && f->fn->body) {
            if (!scan_function(sc, f->fn))
                sc->bad = true;
        } else {
            sc->bad = true; /* through a pointer, or not defined here */
        }
    }
    if (e->kind == LAT_E_NAME && e->sym && e->sym->kind == LAT_SYM_VAR && sc->depth == 0) {
        const lat__sym *n = e->sym;
        bool local = !(n->flags & LAT_SF_FILE_SCOPE) && !(n->cuda & LAT_CU_SHARED) &&
                     (n->storage == LAT_ST_NONE || n->storage == LAT_ST_REGISTER);
        /* A thread's array or struct, or a variable whose address is taken, declared
         * before the loop: it would live in the block's scratch memory instead of the
         * thread's registers. */
        if (local && (!lat__is_scalar(n->type) || (n->flags & LAT_SF_ADDRESS_TAKEN)))
            LAT_PUSH(&sc->pl->u->arena, sc->outer, n);
    }
    return !sc->bad;
}

static bool scan_stmt(lat__visitor *v, lat__stmt *s)
{
    iscan *sc = v->data;
    switch (s->kind) {
    case LAT_S_RETURN:
        if (sc->depth == 0)
            sc->bad = true; /* the thread leaves: its own control */
        break;
    case LAT_S_GOTO:
    case LAT_S_LABEL:
    case LAT_S_ASM:
    case LAT_S_RAW:
        sc->bad = true;
        break;
    case LAT_S_BREAK:
    case LAT_S_CONTINUE:
        if (s->target == sc->loop)
            sc->bad = true;
        break;
    case LAT_S_DECL:
        if (sc->depth == 0 && s->decls)
            for (lat__decl *d = s->decls->first; d; d = d->next)
                if (d->sym)
                    LAT_PUSH(&sc->pl->u->arena, sc->declared, d->sym);
        break;
    default:
        break;
    }
    return !sc->bad;
}

static bool scan_function(iscan *sc, lat__func *fn)
{
    if (sc->depth >= 16)
        return false;
    const lat__stmt *loop = sc->loop;
    sc->depth++;
    sc->loop = NULL;
    lat__visitor v = {scan_stmt, scan_expr, NULL, sc};
    lat__visit_stmt(&v, fn->body);
    sc->loop = loop;
    sc->depth--;
    return !sc->bad;
}

/* Whether a barrier-free for loop may be written at block level (its control's uniformity
 * aside: the analysis decides that). */
static bool implicit_candidate(plan *pl, const lat__stmt *s)
{
    if (!pl->implicit_loops || s->kind != LAT_S_FOR || !s->e || !s->step || !s->init)
        return false;
    /* Checked code's forward variant keeps its implicit loops: its guards are made for them. */
    if (!pl->checked && lat__region_thread_loop(&pl->u->arena, s))
        return false;
    for (size_t i = 0; i < pl->nexcluded; i++)
        if (pl->excluded[i] == s)
            return false;
    if (lat__region_any_collective((lat__stmt *)s))
        return false;
    iscan sc = {pl, s, false, 0, {0}, {0}};
    lat__visitor v = {scan_stmt, scan_expr, NULL, &sc};
    lat__visit_stmt(&v, (lat__stmt *)s);
    if (sc.bad || (pl->fwd && !lat__region_fwd_allows(pl, s)))
        return false;
    for (size_t i = 0; i < sc.outer.n; i++) {
        bool inside = false;
        for (size_t j = 0; j < sc.declared.n && !inside; j++)
            inside = sc.declared.items[j] == sc.outer.items[i];
        if (!inside)
            return false;
    }
    return true;
}

/* Marks the statements that hold collectives; checks where they stand. */
static bool mark(plan *pl, const lat__stmt *s, bool in_switch)
{
    if (!s || pl->bad)
        return false;
    rstmt *r = lat__region_rs(pl, s);
    bool sync = false, block;
    switch (s->kind) {
    case LAT_S_COMPOUND:
        for (size_t i = 0; i < s->items.n; i++)
            sync |= mark(pl, s->items.items[i], in_switch);
        break;
    case LAT_S_EXPR:
        if (lat__region_barrier_statement(s, &block)) {
            sync = true;
            const lat__expr *e = s->e;
            while (e->kind == LAT_E_CAST)
                e = e->a;
            if (!e->aux) {
                rcoll *rc = lat__arena_alloc(&pl->u->arena, sizeof *rc);
                *rc = (rcoll){e, (int)pl->colls.n, block ? -1 : LAT_EMU_W_SYNC, block};
                ((lat__expr *)e)->aux = rc;
                LAT_PUSH(&pl->u->arena, pl->colls, rc);
            }
            /* __syncwarp(mask): its mask is not an expression site. */
            for (int i = 0; i < e->nargs; i++)
                if (collectives_in(pl, e->args[i]))
                    lat__region_fail_at(pl, e->loc, "a warp operation inside another's arguments");
        } else {
            sync = collectives_in(pl, s->e) > 0;
        }
        break;
    case LAT_S_DECL:
        if (s->decls)
            for (lat__decl *d = s->decls->first; d; d = d->next)
                if (d->init && collectives_in(pl, d->init)) {
                    sync = true;
                    if (d->sym && (d->sym->storage == LAT_ST_STATIC || d->sym->storage == LAT_ST_EXTERN))
                        lat__region_fail_at(pl, d->loc, "a warp operation initializing a static variable");
                }
        break;
    case LAT_S_IF:
        sync = collectives_in(pl, s->e) > 0;
        sync |= mark(pl, s->body, in_switch);
        sync |= mark(pl, s->els, in_switch);
        break;
    case LAT_S_WHILE:
    case LAT_S_DO:
        sync = collectives_in(pl, s->e) > 0;
        sync |= mark(pl, s->body, false);
        break;
    case LAT_S_FOR:
        if (s->init)
            sync |= mark(pl, s->init, in_switch);
        sync |= collectives_in(pl, s->e) > 0;
        sync |= collectives_in(pl, s->step) > 0;
        sync |= mark(pl, s->body, false);
        if (implicit_candidate(pl, s)) {
            r->implicit = true;
            sync = true;
        }
        break;
    case LAT_S_SWITCH:
        sync = collectives_in(pl, s->e) > 0;
        sync |= mark(pl, s->body, true);
        if (sync)
            lat__region_fail_at(pl, s->loc, "a barrier or warp operation in a switch");
        break;
    case LAT_S_CASE:
    case LAT_S_DEFAULT:
        sync = mark(pl, s->body, in_switch);
        break;
    case LAT_S_RETURN:
        pl->may_exit = true;
        if (s->e && collectives_in(pl, s->e))
            lat__region_fail_at(pl, s->loc, "a warp operation in a return statement");
        break;
    case LAT_S_LABEL:
    case LAT_S_GOTO:
        lat__region_fail_at(pl, s->loc, "a label or goto in the kernel");
        break;
    default:
        break;
    }
    r->sync = sync;
    return sync;
}

/* ---- what every thread holds alike ------------------------------------------------------ */

static bool pure_builtin(const lat__sym *s)
{
    if (!s || !s->builtin)
        return false;
    const lat__builtin *b = lat__builtin_get(s->builtin);
    if (!b || b->coll)
        return false;
    /* math and integer intrinsics: no memory, no side effect */
    if (b->generic == LAT_G_MATH1 || b->generic == LAT_G_MATH2 || b->generic == LAT_G_MATH3 ||
        b->generic == LAT_G_MATH_EXP || b->generic == LAT_G_ABS || b->generic == LAT_G_MINMAX ||
        b->generic == LAT_G_CLASSIFY)
        return true;
    const char *n = b->name;
    return b->decl && strncmp(b->decl, "void", 4) != 0 && !strchr(b->decl, '*') &&
           strcmp(n, "printf") != 0 && strncmp(n, "atomic", 6) != 0;
}


static bool uniform_name(plan *pl, lat__sym *s, bool per_thread)
{
    switch (s->kind) {
    case LAT_SYM_ENUM_CONST:
        return true;
    case LAT_SYM_VAR:
        break;
    default:
        return false;
    }
    if (s->flags & LAT_SF_BLOCK_UNIFORM)
        return true;
    if (s->flags & LAT_SF_THREAD_VARYING)
        return per_thread;
    if ((s->flags & LAT_SF_PARAM) && !(s->flags & (LAT_SF_MODIFIED | LAT_SF_ADDRESS_TAKEN)))
        return true;
    lat__symx *x = lat__symx_of(pl->u, s);
    rvar *v = x->region;
    if (!v)
        return false;
    if (v->kind == R_UNIFORM)
        return true;
    return per_thread && v->kind == R_RECOMPUTE;
}

static bool call_out(lat__visitor *v, lat__expr *e)
{
    /* A warp or block operation (aux: its rcoll) is region loops' own code, which reads
     * the thread's index from its slot, not from the context. */
    if (e->kind == LAT_E_CALL && !pure_builtin(e->sym) && !e->aux)
        *(bool *)v->data = true;
    return !*(bool *)v->data;
}

bool lat__region_calls_out(const lat__stmt *s, const lat__expr *e)
{
    bool found = false;
    lat__visitor v = {NULL, call_out, NULL, &found};
    if (s)
        lat__visit_stmt(&v, (lat__stmt *)s);
    if (e && !found)
        lat__visit_expr(&v, (lat__expr *)e);
    return found;
}

/* Whether every thread computes e alike (per_thread: threadIdx and recomputable values
 * allowed too): constants, the block's values, uniform variables, arithmetic, pure
 * built-ins; no memory read, no side effect. */
bool lat__region_uniform(plan *pl, const lat__expr *e, bool per_thread)
{
    if (!e)
        return true;
    switch (e->kind) {
    case LAT_E_INT:
    case LAT_E_FLOAT:
    case LAT_E_SIZEOF:
    case LAT_E_ALIGNOF:
    case LAT_E_OFFSETOF:
        return true;
    case LAT_E_NAME:
        return uniform_name(pl, e->sym, per_thread);
    case LAT_E_MEMBER:
        return !(e->flags & LAT_EF_ARROW) && lat__region_uniform(pl, e->a, per_thread);
    case LAT_E_CAST:
        return e->type->kind != LAT_TY_PTR || (e->flags & LAT_EF_IMPLICIT) == 0 || e->a->type->kind != LAT_TY_ARRAY
                   ? lat__region_uniform(pl, e->a, per_thread)
                   : false;
    case LAT_E_UNARY:
        if (e->op == LAT_P_STAR || e->op == LAT_P_AMP || e->op == LAT_P_INC || e->op == LAT_P_DEC)
            return false;
        return lat__region_uniform(pl, e->a, per_thread);
    case LAT_E_BINARY:
        return lat__region_uniform(pl, e->a, per_thread) && lat__region_uniform(pl, e->b, per_thread);
    case LAT_E_COND:
        return lat__region_uniform(pl, e->a, per_thread) && lat__region_uniform(pl, e->b, per_thread) &&
               lat__region_uniform(pl, e->c, per_thread);
    case LAT_E_CALL: {
        rcoll *c = ((rcoll *)e->aux);
        if (c && c->block && pl->rewrite_coll)
            return true;
        if (!pure_builtin(e->sym))
            return false;
        for (int i = 0; i < e->nargs; i++)
            if (!lat__region_uniform(pl, e->args[i], per_thread))
                return false;
        return true;
    }
    default:
        return false;
    }
}

/* A condition: uniform when every thread evaluates it alike; a block vote's result is. */
bool lat__region_uniform_condition(plan *pl, const lat__expr *e)
{
    bool save = pl->rewrite_coll;
    pl->rewrite_coll = true;
    bool u = lat__region_uniform(pl, e, false);
    pl->rewrite_coll = save;
    /* a warp operation in it: not uniform across warps */
    return u;
}

/* An assignment to a uniform candidate that keeps it uniform: v = U, v op= U, ++v... */
typedef struct upd {
    plan *pl;
    bool ok;
} upd;

/* Whether statement expression e only updates uniform variables with uniform values (a
 * comma list of such): then it runs once for the block. */
bool lat__region_uniform_update(plan *pl, const lat__expr *e)
{
    if (!e)
        return false;
    if (e->kind == LAT_E_BINARY && e->op == LAT_P_COMMA)
        return lat__region_uniform_update(pl, e->a) && lat__region_uniform_update(pl, e->b);
    lat__sym *v = lat__assigned_var(e);
    if (!v || !v->aux || ((lat__symx *)v->aux)->region == NULL)
        return false;
    rvar *r = ((lat__symx *)v->aux)->region;
    if (r->kind != R_UNIFORM)
        return false;
    if (e->kind == LAT_E_ASSIGN)
        return lat__region_uniform(pl, e->b, false);
    return true;
}

/* Uniformity of control and of variables, to a fixed point. */
typedef struct uwalk {
    plan *pl;
    bool changed;
} uwalk;

static void demote(uwalk *w, lat__sym *s)
{
    if (!s || !s->aux)
        return;
    rvar *r = ((lat__symx *)s->aux)->region;
    if (r && r->kind == R_UNIFORM) {
        r->kind = R_NONE;
        w->changed = true;
    }
}

/* Every variable e assigns (anywhere inside it) loses uniformity. */
static bool demote_assigned(lat__visitor *v, lat__expr *e)
{
    uwalk *w = v->data;
    lat__sym *s = lat__assigned_var(e);
    if (s)
        demote(w, s);
    if (e->kind == LAT_E_UNARY && e->op == LAT_P_AMP) {
        const lat__expr *t = e->a;
        if (t->kind == LAT_E_NAME)
            demote(w, t->sym);
    }
    return true;
}

static void demote_in_stmt(uwalk *w, lat__stmt *s)
{
    lat__visitor v = {NULL, demote_assigned, NULL, w};
    lat__visit_stmt(&v, s);
}

static void demote_in_expr(uwalk *w, lat__expr *e)
{
    lat__visitor v = {NULL, demote_assigned, NULL, w};
    lat__visit_expr(&v, e);
}

bool lat__region_has_coll(const lat__expr *e)
{
    if (!e)
        return false;
    if (e->aux && lat__region_coll_of(e))
        return true;
    switch (e->kind) {
    case LAT_E_CALL:
        if (lat__region_has_coll(e->a))
            return true;
        for (int i = 0; i < e->nargs; i++)
            if (lat__region_has_coll(e->args[i]))
                return true;
        return false;
    case LAT_E_INIT:
        for (size_t i = 0; i < e->items.n; i++)
            if (lat__region_has_coll(e->items.items[i].value))
                return true;
        return false;
    case LAT_E_SIZEOF:
    case LAT_E_ALIGNOF:
    case LAT_E_STMT:
        return false;
    default:
        return lat__region_has_coll(e->a) || lat__region_has_coll(e->b) || lat__region_has_coll(e->c);
    }
}

/* Whether e holds a warp operation (whose result differs between warps). */
static bool has_warp_coll(const lat__expr *e)
{
    if (!e)
        return false;
    if (e->aux && lat__region_coll_of(e))
        return !((rcoll *)e->aux)->block;
    switch (e->kind) {
    case LAT_E_CALL:
        if (has_warp_coll(e->a))
            return true;
        for (int i = 0; i < e->nargs; i++)
            if (has_warp_coll(e->args[i]))
                return true;
        return false;
    case LAT_E_INIT:
    case LAT_E_SIZEOF:
    case LAT_E_ALIGNOF:
    case LAT_E_STMT:
        return false;
    default:
        return has_warp_coll(e->a) || has_warp_coll(e->b) || has_warp_coll(e->c);
    }
}

/* Loops that a break or continue leaves: never block-level control (each thread's state). */
static bool note_jump(lat__visitor *v, lat__stmt *s)
{
    plan *pl = v->data;
    if ((s->kind == LAT_S_BREAK || s->kind == LAT_S_CONTINUE) && s->target)
        lat__region_rs(pl, s->target)->targeted = true;
    return true;
}

/* One pass over a statement at a point every thread reaches alike (uniform) or not. */
static void uniformity(uwalk *w, lat__stmt *s, bool uniform)
{
    if (!s)
        return;
    plan *pl = w->pl;
    rstmt *r = lat__region_rs(pl, s);
    switch (s->kind) {
    case LAT_S_COMPOUND:
        for (size_t i = 0; i < s->items.n; i++)
            uniformity(w, s->items.items[i], uniform);
        return;
    case LAT_S_DECL:
        if (!s->decls)
            return;
        for (lat__decl *d = s->decls->first; d; d = d->next) {
            if (!d->sym || !d->sym->aux || !((lat__symx *)d->sym->aux)->region)
                continue;
            rvar *v = ((lat__symx *)d->sym->aux)->region;
            if (v->kind == R_UNIFORM && (!uniform || !v->sync_level || (d->init && !lat__region_uniform(pl, d->init, false)) || !d->init))
                demote(w, d->sym);
            if (d->init)
                demote_in_expr(w, d->init);
        }
        return;
    case LAT_S_EXPR:
        if (uniform && lat__region_uniform_update(pl, s->e))
            return;
        demote_in_expr(w, s->e);
        return;
    case LAT_S_IF: {
        demote_in_expr(w, s->e);
        bool u = uniform && lat__region_uniform_condition(pl, s->e) && !has_warp_coll(s->e);
        r->uniform = u;
        uniformity(w, s->body, u);
        uniformity(w, s->els, u);
        return;
    }
    case LAT_S_FOR: {
        bool init_ok = true;
        if (s->init) {
            uniformity(w, s->init, uniform);
            if (s->init->kind == LAT_S_EXPR)
                init_ok = uniform && lat__region_uniform_update(pl, s->init->e);
        }
        bool step_ok = !s->step || (uniform && lat__region_uniform_update(pl, s->step));
        if (!step_ok && s->step)
            demote_in_expr(w, s->step);
        demote_in_expr(w, s->e);
        bool u = uniform && init_ok && step_ok && (!s->e || lat__region_uniform_condition(pl, s->e)) &&
                 !r->targeted && !lat__region_has_coll(s->e);
        if (!u) {
            /* Each thread runs the init and step of a loop that is not the block's. */
            if (s->step)
                demote_in_expr(w, s->step);
            if (s->init && s->init->kind == LAT_S_EXPR)
                demote_in_expr(w, s->init->e);
        }
        r->uniform = u;
        uniformity(w, s->body, u);
        return;
    }
    case LAT_S_WHILE:
    case LAT_S_DO: {
        demote_in_expr(w, s->e);
        bool u = uniform && lat__region_uniform_condition(pl, s->e) && !r->targeted &&
                 !lat__region_has_coll(s->e);
        r->uniform = u;
        uniformity(w, s->body, u);
        return;
    }
    case LAT_S_SWITCH:
        demote_in_expr(w, s->e);
        uniformity(w, s->body, false);
        return;
    case LAT_S_RETURN:
    case LAT_S_CASE:
    case LAT_S_DEFAULT:
    case LAT_S_LABEL:
        demote_in_expr(w, s->e);
        uniformity(w, s->body, false);
        return;
    default:
        demote_in_stmt(w, s);
        return;
    }
}

/* The locals declared directly in sync blocks (or in a sync for's init). */
static void note_sync_locals(plan *pl, const lat__stmt *s, bool sync_level)
{
    if (!s)
        return;
    switch (s->kind) {
    case LAT_S_COMPOUND:
        for (size_t i = 0; i < s->items.n; i++)
            note_sync_locals(pl, s->items.items[i], lat__region_rs(pl, s)->sync && sync_level);
        return;
    case LAT_S_DECL:
        if (s->decls)
            for (lat__decl *d = s->decls->first; d; d = d->next) {
                lat__sym *v = d->sym;
                if (!v || v->kind != LAT_SYM_VAR || (v->cuda & LAT_CU_SHARED))
                    continue;
                rvar *r = lat__region_rv(pl, v);
                r->sync_level = sync_level;
                r->decl_stmt = s;
                r->init = d->init;
                bool scalar = lat__is_scalar(v->type) && !(v->type->quals & LAT_Q_VOLATILE);
                bool plain = v->storage == LAT_ST_NONE || v->storage == LAT_ST_REGISTER;
                if (scalar && plain && !(v->flags & LAT_SF_ADDRESS_TAKEN) && sync_level)
                    r->kind = R_UNIFORM; /* until shown otherwise */
                if (!plain)
                    r->kind = R_NONE;
            }
        return;
    case LAT_S_IF:
        note_sync_locals(pl, s->body, lat__region_rs(pl, s)->sync && sync_level);
        note_sync_locals(pl, s->els, lat__region_rs(pl, s)->sync && sync_level);
        return;
    case LAT_S_FOR:
        note_sync_locals(pl, s->init, lat__region_rs(pl, s)->sync && sync_level);
        note_sync_locals(pl, s->body, lat__region_rs(pl, s)->sync && sync_level);
        return;
    case LAT_S_WHILE:
    case LAT_S_DO:
        note_sync_locals(pl, s->body, lat__region_rs(pl, s)->sync && sync_level);
        return;
    default:
        note_sync_locals(pl, s->body, false);
        note_sync_locals(pl, s->els, false);
        return;
    }
}

/* Which locals are recomputed: initialized from threadIdx and uniform values alone, never
 * changed. */
static void find_recompute(plan *pl)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < pl->vars.n; i++) {
            lat__sym *s = pl->vars.items[i];
            rvar *r = ((lat__symx *)s->aux)->region;
            if (r->kind != R_NONE || !r->init || !r->sync_level || (s->flags & (LAT_SF_MODIFIED | LAT_SF_ADDRESS_TAKEN)) ||
                !lat__is_scalar(s->type) || (s->flags & LAT_SF_PARAM) || s->storage != LAT_ST_NONE ||
                (s->type->quals & LAT_Q_VOLATILE))
                continue;
            if (r->init->kind == LAT_E_INIT || collectives_in(pl, r->init))
                continue;
            if (lat__region_uniform(pl, r->init, true)) {
                r->kind = R_RECOMPUTE;
                changed = true;
            }
        }
    }
}

static bool mark_block(plan *pl, const lat__stmt *s);

static void analyse_vars(plan *pl)
{
    lat__func *fn = pl->fn;
    for (int i = 0; i < fn->nparams; i++) {
        lat__sym *p = fn->params[i];
        if (!p->name || !(p->flags & (LAT_SF_MODIFIED | LAT_SF_ADDRESS_TAKEN)))
            continue;
        rvar *r = lat__region_rv(pl, p);
        r->kind = R_NONE; /* each thread's own copy, from the launch's value */
        r->sync_level = true;
        r->declared_seg = -1;
    }
    lat__visitor jv = {note_jump, NULL, NULL, pl};
    lat__visit_stmt(&jv, fn->body);
    note_sync_locals(pl, fn->body, true);
    uwalk w = {pl, true};
    for (int guard = 0; w.changed && guard < 1000; guard++) {
        w.changed = false;
        uniformity(&w, fn->body, true);
    }
    find_recompute(pl);
    mark_block(pl, fn->body);
    /* A collective's operands other than the value: stored per thread only when threads
     * may give different ones. */
    for (size_t i = 0; i < pl->colls.n; i++) {
        rcoll *c = pl->colls.items[i];
        const lat__expr *call = c->call;
        if (c->op < 0 || c->op >= BVOTE || c->op == LAT_EMU_W_SYNC || c->op == LAT_EMU_W_ACTIVE)
            continue;
        c->mask_slot = call->nargs > 0 && !lat__region_uniform(pl, call->args[0], false);
        if (c->op <= LAT_EMU_W_XOR) {
            c->arg_slot = call->nargs > 2 && !lat__region_uniform(pl, call->args[2], false);
            c->width_slot = call->nargs > 3 && !lat__region_uniform(pl, call->args[3], false);
        }
    }
}

bool lat__region_block_decl(const lat__decl *d)
{
    const lat__sym *s = d->sym;
    if (!s)
        return false;
    rvar *v = lat__region_var(s);
    return (v && v->kind == R_UNIFORM) || s->kind != LAT_SYM_VAR || (s->cuda & LAT_CU_SHARED) ||
           s->storage == LAT_ST_STATIC || s->storage == LAT_ST_EXTERN;
}

/* Whether an expression updates a uniform variable. */
static bool updates_uniform(lat__visitor *v, lat__expr *e)
{
    lat__sym *s = lat__assigned_var(e);
    rvar *r = lat__region_var(s);
    if (r && r->kind == R_UNIFORM)
        *(bool *)v->data = true;
    return true;
}

/* Marks the statements written at block level: those holding a collective, declaring or
 * updating a uniform variable, and those around them. */
static bool mark_block(plan *pl, const lat__stmt *s)
{
    if (!s)
        return false;
    rstmt *r = lat__region_rs(pl, s);
    bool b = r->sync;
    switch (s->kind) {
    case LAT_S_COMPOUND:
        for (size_t i = 0; i < s->items.n; i++)
            b |= mark_block(pl, s->items.items[i]);
        break;
    case LAT_S_DECL:
        if (s->decls)
            for (lat__decl *d = s->decls->first; d; d = d->next)
                b |= lat__region_block_decl(d);
        break;
    case LAT_S_EXPR: {
        bool up = false;
        lat__visitor v = {NULL, updates_uniform, NULL, &up};
        lat__visit_expr(&v, s->e);
        b |= up;
        break;
    }
    case LAT_S_IF:
        b |= mark_block(pl, s->body);
        b |= mark_block(pl, s->els);
        break;
    case LAT_S_FOR: {
        b |= mark_block(pl, s->init);
        bool up = false;
        lat__visitor v = {NULL, updates_uniform, NULL, &up};
        lat__visit_expr(&v, s->step);
        b |= up;
        b |= mark_block(pl, s->body);
        break;
    }
    case LAT_S_WHILE:
    case LAT_S_DO:
        b |= mark_block(pl, s->body);
        break;
    default:
        break;
    }
    r->block = b;
    return b;
}

/* Levels of non-uniform sync constructs. */
static void levels(plan *pl, const lat__stmt *s, int level)
{
    if (!s)
        return;
    rstmt *r = lat__region_rs(pl, s);
    if (!r->block)
        return;
    int inner = level;
    bool construct = s->kind == LAT_S_IF || s->kind == LAT_S_FOR || s->kind == LAT_S_WHILE || s->kind == LAT_S_DO;
    if (construct && !r->uniform && r->sync) {
        r->level = level + 1;
        inner = level + 1;
        if (inner > pl->maxlevel)
            pl->maxlevel = inner;
    }
    switch (s->kind) {
    case LAT_S_COMPOUND:
        for (size_t i = 0; i < s->items.n; i++)
            levels(pl, s->items.items[i], level);
        return;
    case LAT_S_IF:
        levels(pl, s->body, inner);
        levels(pl, s->els, inner);
        return;
    case LAT_S_FOR:
    case LAT_S_WHILE:
    case LAT_S_DO:
        levels(pl, s->body, inner);
        return;
    default:
        return;
    }
}

/* ---- checked modules ------------------------------------------------------------------- */

/* Checked kernels run as region loops only where they and fibers cannot differ: every
 * collective a plain __syncthreads at points every thread reaches alike, nothing a thread
 * could spin on, no variable kept across barriers without an initializer. */
static bool fits_checked(plan *pl, const lat__stmt *s)
{
    if (!s)
        return true;
    rstmt *r = lat__region_rs(pl, s);
    if (!r->sync)
        return true;
    switch (s->kind) {
    case LAT_S_EXPR: {
        bool block;
        return lat__region_barrier_statement(s, &block) && block;
    }
    case LAT_S_COMPOUND:
        for (size_t i = 0; i < s->items.n; i++)
            if (!fits_checked(pl, s->items.items[i]))
                return false;
        return true;
    case LAT_S_IF:
        return r->uniform && !collectives_in(pl, s->e) && fits_checked(pl, s->body) && fits_checked(pl, s->els);
    case LAT_S_FOR:
        return r->uniform && fits_checked(pl, s->body);
    default:
        return false;
    }
}

/* An if that threads take apart with a __syncthreads on both sides (`if (t < 128) { ...;
 * __syncthreads(); } else { ...; __syncthreads(); }`): since Volta a barrier counts the
 * threads arriving at any __syncthreads, so each side's meets the other's; region loops
 * would stop at the first, fibers let them meet. (A __syncthreads on one side and a warp
 * operation on the other, as a group's sync() is written, is left as it is.) */
static bool find_barrier(lat__visitor *v, lat__stmt *s)
{
    bool block = false;
    if (lat__region_barrier_statement(s, &block) && block)
        *(bool *)v->data = true;
    return !*(bool *)v->data;
}

static bool has_barrier(lat__stmt *s)
{
    bool found = false;
    lat__visitor v = {find_barrier, NULL, NULL, &found};
    lat__visit_stmt(&v, s);
    return found;
}

static bool two_sided_stmt(lat__visitor *v, lat__stmt *s)
{
    plan *pl = v->data;
    if (s->kind == LAT_S_IF && s->body && s->els && !lat__region_rs(pl, s)->uniform && has_barrier(s->body) &&
        has_barrier(s->els))
        lat__region_fail_at(pl, s->loc, "__syncthreads on both sides of a branch threads take apart");
    return !pl->bad;
}

typedef struct spin {
    plan *pl;
    int loops;
    bool found;
} spin;

static bool spin_expr(lat__visitor *v, lat__expr *e)
{
    spin *sp = v->data;
    if (e->type && (e->type->quals & LAT_Q_VOLATILE) && (e->flags & LAT_EF_LVALUE))
        sp->found = true;
    if (e->kind == LAT_E_CALL && e->sym && e->sym->builtin) {
        const lat__builtin *b = lat__builtin_get(e->sym->builtin);
        if (b && (b->coll & (LAT_COLL_FENCE | LAT_COLL_SPIN)))
            sp->found = true;
        if (b && (b->coll & LAT_COLL_ATOMIC) && sp->loops)
            sp->found = true;
    }
    return true;
}

static bool spin_stmt(lat__visitor *v, lat__stmt *s)
{
    spin *sp = v->data;
    if (s->kind == LAT_S_FOR || s->kind == LAT_S_WHILE || s->kind == LAT_S_DO)
        sp->loops++;
    return true;
}

static void spin_after(lat__visitor *v, lat__stmt *s)
{
    spin *sp = v->data;
    if (s->kind == LAT_S_FOR || s->kind == LAT_S_WHILE || s->kind == LAT_S_DO)
        sp->loops--;
}

/* Whether the kernel or a function it calls could wait for another thread by spinning. */
static bool may_spin(plan *pl, lat__func *fn, int depth)
{
    if (depth > 64)
        return true;
    spin sp = {pl, 0, false};
    lat__visitor v = {spin_stmt, spin_expr, spin_after, &sp};
    lat__visit_stmt(&v, fn->body);
    if (sp.found)
        return true;
    for (size_t i = 0; i < fn->calls.n; i++) {
        lat__sym *c = fn->calls.items[i];
        if (c->kind == LAT_SYM_FUNC && c->fn && c->fn != fn && may_spin(pl, c->fn, depth + 1))
            return true;
    }
    return false;
}

/* Implicit loops that the analysis found not uniform (their control differs between
 * threads, or some threads do not reach them alike). */
static bool note_misfit(lat__visitor *v, lat__stmt *s)
{
    plan *pl = v->data;
    rstmt *r = s->aux;
    if (r && r->implicit) {
        pl->has_implicit = true;
        if (!r->uniform)
            LAT_PUSH(&pl->u->arena, pl->misfits, s);
    }
    return true;
}

typedef enum planned {
    PLAN_TAKEN,
    PLAN_NONE,  /* region loops cannot run it (or it needs none) */
    PLAN_AGAIN, /* an implicit loop did not fit: excluded, plan again */
} planned;

static planned plan_once(plan *pl)
{
    lat__func *fn = pl->fn;
    bool checked = pl->checked;
    bool sync = mark(pl, fn->body, false);
    if (pl->bad)
        return PLAN_NONE;
    if (!sync && !checked)
        return PLAN_NONE; /* no collective at all: a plain kernel */
    analyse_vars(pl);
    /* An implicit loop is block-level control only where every thread runs it alike. */
    lat__visitor iv = {note_misfit, NULL, NULL, pl};
    lat__visit_stmt(&iv, fn->body);
    if (pl->misfits.n)
        return PLAN_AGAIN;
    levels(pl, fn->body, 0);
    lat__visitor tv = {two_sided_stmt, NULL, NULL, pl};
    lat__visit_stmt(&tv, fn->body);
    if (pl->bad)
        return PLAN_NONE;
    if (checked && (pl->colls.n && !fits_checked(pl, fn->body))) {
        lat__region_fail(pl, "checked: a barrier not every thread reaches alike");
        return PLAN_NONE;
    }
    if (checked) {
        for (size_t i = 0; i < pl->colls.n; i++)
            if (pl->colls.items[i]->op != -1) {
                lat__region_fail_at(pl, pl->colls.items[i]->call->loc, "checked: a warp operation");
                return PLAN_NONE;
            }
        if (may_spin(pl, fn, 0)) {
            lat__region_fail(pl, "checked: something a thread may spin on (volatile, a fence, "
                                 "atomicCAS or atomicExch, an atomic in a loop)");
            return PLAN_NONE;
        }
    }
    /* A dry run finds the stretches and the variables kept across them. */
    lat__region_generate(pl, NULL);
    if (pl->bad)
        return PLAN_NONE;
    if (checked) {
        for (size_t i = 0; i < pl->vars.n; i++) {
            rvar *r = ((lat__symx *)pl->vars.items[i]->aux)->region;
            if (r->kind == R_CAND && !r->init && !(pl->vars.items[i]->flags & LAT_SF_PARAM)) {
                /* initcheck follows such a variable from its declaration */
                lat__region_fail_at(pl, pl->vars.items[i]->loc,
                                    "checked: a variable declared without an initializer kept across a barrier");
                return PLAN_NONE;
            }
        }
    }
    return PLAN_TAKEN;
}

/* What an attempt left on the tree, taken off before the next. */
static bool forget_stmt(lat__visitor *v, lat__stmt *s)
{
    (void)v;
    s->aux = NULL;
    return true;
}

static bool forget_expr(lat__visitor *v, lat__expr *e)
{
    (void)v;
    e->aux = NULL;
    return true;
}

static void forget(plan *pl)
{
    for (size_t i = 0; i < pl->assured.n; i++)
        lat__bounds_assure(pl->assured.items[i], false);
    pl->assured.n = 0;
    lat__visitor v = {forget_stmt, forget_expr, NULL, NULL};
    lat__visit_stmt(&v, pl->fn->body);
    for (size_t i = 0; i < pl->vars.n; i++)
        lat__symx_of(pl->u, pl->vars.items[i])->region = NULL;
}

/* ---- the optimising tier's variant ---------------------------------------------------------- */

/* The names planning gives a kernel's variables, and the plan itself: the variant with
 * implicit loops is written with its own, then the kernel's usual plan is made again. */
struct lat__region_saved {
    LAT_VEC(lat__sym *) syms;
    LAT_VEC(const char *) names;
    LAT_VEC(const char *) param_names;
};

static bool save_decl(lat__visitor *v, lat__stmt *s)
{
    lat__region_saved *sv = ((void **)v->data)[0];
    lat__unit *u = ((void **)v->data)[1];
    if (s->kind == LAT_S_DECL && s->decls)
        for (lat__decl *d = s->decls->first; d; d = d->next)
            if (d->sym) {
                lat__symx *x = lat__symx_of(u, d->sym);
                LAT_PUSH(&u->arena, sv->syms, d->sym);
                LAT_PUSH(&u->arena, sv->names, x->name);
                LAT_PUSH(&u->arena, sv->param_names, x->param_name);
            }
    return true;
}

static lat__region_saved *save_names(lat__unit *u, lat__func *fn)
{
    lat__region_saved *sv = lat__arena_alloc(&u->arena, sizeof *sv);
    for (int i = 0; i < fn->nparams; i++)
        if (fn->params[i]->name) {
            lat__symx *x = lat__symx_of(u, fn->params[i]);
            LAT_PUSH(&u->arena, sv->syms, fn->params[i]);
            LAT_PUSH(&u->arena, sv->names, x->name);
            LAT_PUSH(&u->arena, sv->param_names, x->param_name);
        }
    void *data[2] = {sv, u};
    lat__visitor v = {save_decl, NULL, NULL, data};
    lat__visit_stmt(&v, fn->body);
    return sv;
}

/* Takes every trace of planning off the kernel: its plan, its tree's and its variables'. */
static void forget_all(lat__unit *u, lat__func *fn, const lat__region_saved *sv)
{
    lat__symx *k = lat__symx_of(u, fn->sym);
    plan *pl = k->region;
    if (pl)
        forget(pl);
    else {
        lat__visitor v = {forget_stmt, forget_expr, NULL, NULL};
        lat__visit_stmt(&v, fn->body);
    }
    k->region = NULL;
    for (size_t i = 0; i < sv->syms.n; i++) {
        lat__symx *x = lat__symx_of(u, sv->syms.items[i]);
        x->region = NULL;
        x->name = sv->names.items[i];
        x->param_name = sv->param_names.items[i];
    }
}

lat__region_saved *lat__region_variant_begin(lat__unit *u, lat__func *fn, bool checked)
{
    if (fn->has_error || !fn->body)
        return NULL;
    bool had_plan = lat__symx_of(u, fn->sym)->region != NULL;
    lat__region_saved *sv = save_names(u, fn);
    forget_all(u, fn, sv);
    plan *pl = lat__region_plan(u, fn, checked, true, NULL, NULL) ? lat__symx_of(u, fn->sym)->region : NULL;
    if (pl && (pl->has_implicit || pl->nclean))
        return sv;
    lat__region_variant_end(u, fn, sv, had_plan, checked);
    return NULL;
}

void lat__region_variant_end(lat__unit *u, lat__func *fn, lat__region_saved *sv, bool region, bool checked)
{
    forget_all(u, fn, sv);
    /* The usual plan again: the same tree, so the same decisions as before the variant (a
     * failure, which cannot happen, leaves no plan: lat__region_emit says so). */
    if (region)
        (void)lat__region_plan(u, fn, checked, false, NULL, NULL);
}

const lat__expr *const *lat__region_assured(lat__unit *u, lat__func *fn, size_t *n)
{
    plan *pl = lat__symx_of(u, fn->sym)->region;
    *n = pl ? pl->assured.n : 0;
    return pl ? pl->assured.items : NULL;
}

bool lat__region_fwd_strict(lat__unit *u, lat__func *fn)
{
    plan *pl = lat__symx_of(u, fn->sym)->region;
    return pl && !pl->fwd_loose;
}

bool lat__region_plan(lat__unit *u, lat__func *fn, bool checked, bool implicit_loops, const char **why,
                      lat__loc *where)
{
    if (why)
        *why = NULL;
    lat__symx_of(u, fn->sym)->region = NULL;
    if (fn->has_error || !fn->body)
        return false;
    enum { MAX_EXCLUDED = 64 };
    const lat__stmt **excluded = lat__arena_alloc(&u->arena, MAX_EXCLUDED * sizeof *excluded);
    size_t nexcluded = 0;
    /* Checked modules keep their thread order (racecheck's schedules decide it), but for
     * the forward variant's loops (region_fwd.c). */
    bool implicit = implicit_loops;
    for (;;) {
        plan *pl = lat__arena_alloc(&u->arena, sizeof *pl);
        pl->u = u;
        pl->fn = fn;
        pl->checked = checked;
        pl->seg = -1;
        pl->label_tail = "";
        pl->implicit_loops = implicit;
        pl->fwd = checked && implicit;
        pl->excluded = excluded;
        pl->nexcluded = nexcluded;
        planned p = plan_once(pl);
        if (p == PLAN_TAKEN) {
            if (pl->fwd && pl->has_implicit)
                lat__region_fwd_assure(pl);
            lat__region_name_vars(pl);
            lat__symx_of(u, fn->sym)->region = pl;
            return true;
        }
        bool had_implicit = pl->has_implicit;
        if (why && pl->why && p == PLAN_NONE) {
            *why = pl->why;
            *where = pl->why_at;
        }
        forget(pl);
        if (p == PLAN_AGAIN) {
            for (size_t i = 0; i < pl->misfits.n && nexcluded < MAX_EXCLUDED; i++)
                excluded[nexcluded++] = pl->misfits.items[i];
            if (nexcluded < MAX_EXCLUDED)
                continue;
        }
        if (!implicit || !had_implicit)
            return false;
        /* Without implicit loops, as before them: the kernel must not lose its plan. */
        implicit = false;
    }
}

void lat__region_emit(lat__emitter *em, lat__func *fn)
{
    plan *pl = lat__symx_of(em->u, fn->sym)->region;
    if (!pl) {
        /* A kernel planned once and not again (lat__region_variant_end): a lattice bug, said
         * by the compiler rather than a crash. */
        lat__emit_newline(em);
        lat__emit_str(em, "#error \"lattice: a kernel lost its region plan (a lattice bug)\"");
        lat__emit_newline(em);
        return;
    }
    lat__region_generate(pl, em);
}
