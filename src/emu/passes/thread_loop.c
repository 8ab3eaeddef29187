/* Whether a barrier-free loop is better left inside each thread than written at block level
 * as an implicit loop (region.c), in the optimising tier's code.
 *
 * An implicit loop puts the loop over the block's threads innermost, where gcc vectorises it
 * across threads; but every iteration then loads and stores each thread's accumulators from
 * per-thread storage, and starts one short thread loop per row of the block (16 threads, one
 * vector, in a 16x16 tile). Left inside the thread, a loop gcc can vectorise "from the outside"
 * (its outer-loop vectorisation, across the threads around it) keeps the accumulators in
 * registers: the 16x16-tile matmul's `for (k = 0; k < 16; k++) sum += as[ty][k] * bs[k][tx];`
 * ran 2.4x faster that way (bench/emu (c), 2 cores).
 *
 * gcc does that only for a loop whose trip count it knows in every thread alike, with a body
 * of straight-line arithmetic, and addresses affine in the loop's counter. Under -fwrapv an
 * int index such as `a[row * n + k]` may wrap, so the address of an access through a pointer
 * that moves with the loop is not affine: such loops fail to vectorise in the thread, and stay
 * implicit. The rule is kept narrow: what it does not recognise stays implicit, as before. */
#include "region.h"

#include "front/builtins.h"
#include "front/visit.h"

#include <string.h>

typedef struct loop_scan {
    const lat__sym *counter;
    LAT_VEC(const lat__sym *) moving; /* the counter, and what the body declares */
    lat__arena *arena;
    bool bad;
} loop_scan;

static bool is_const(const lat__expr *e)
{
    e = lat__skip_implicit(e);
    return e && (e->kind == LAT_E_INT || (e->flags & LAT_EF_CONST));
}

static bool names(const lat__expr *e, const lat__sym *s)
{
    e = lat__skip_implicit(e);
    return e && e->kind == LAT_E_NAME && e->sym == s;
}

static bool mentions_visit(lat__visitor *v, lat__expr *e)
{
    loop_scan *sc = v->data;
    if (e->kind == LAT_E_NAME)
        for (size_t i = 0; i < sc->moving.n; i++)
            if (e->sym == sc->moving.items[i])
                sc->bad = true;
    return !sc->bad;
}

/* Whether e reads the counter or a variable the body declares (one that may follow it). */
static bool moves(loop_scan *sc, const lat__expr *e)
{
    loop_scan probe = *sc;
    probe.bad = false;
    lat__visitor v = {NULL, mentions_visit, NULL, &probe};
    lat__visit_expr(&v, (lat__expr *)e);
    return probe.bad;
}

static bool complete_array(const lat__type *t)
{
    return t && t->kind == LAT_TY_ARRAY && t->count > 0;
}

/* A built-in the optimising tier's compiler makes one instruction of (opt.c leaves these
 * few its own): the fmaf of a contracted `sum += a * b` (arith.c) above all. */
static bool instruction_call(const lat__expr *e)
{
    static const char *const names[] = {"fmaf", "fma", "sqrtf", "sqrt", "fabsf", "fabs"};
    const lat__builtin *b = e->sym && e->sym->builtin ? lat__builtin_get(e->sym->builtin) : NULL;
    for (size_t i = 0; b && i < sizeof names / sizeof *names; i++)
        if (strcmp(b->name, names[i]) == 0)
            return true;
    return false;
}

static bool body_expr(lat__visitor *v, lat__expr *e)
{
    loop_scan *sc = v->data;
    const lat__sym *written = lat__assigned_var(e);
    switch (e->kind) {
    case LAT_E_CALL:
        if (!instruction_call(e))
            sc->bad = true;
        break;
    case LAT_E_COND:
    case LAT_E_STMT:
    case LAT_E_VA_ARG:
        sc->bad = true; /* control flow or a call: gcc's outer loop takes neither */
        break;
    case LAT_E_BINARY:
        if (e->op == LAT_P_ANDAND || e->op == LAT_P_OROR)
            sc->bad = true;
        break;
    case LAT_E_ASSIGN:
    case LAT_E_POSTFIX:
        /* Only a thread's scalars are written, and never the counter. */
        if (!written || written == sc->counter || !lat__is_scalar(written->type))
            sc->bad = true;
        break;
    case LAT_E_UNARY:
        if (e->op == LAT_P_INC || e->op == LAT_P_DEC) {
            if (!written || written == sc->counter)
                sc->bad = true;
        } else if (e->op == LAT_P_STAR && moves(sc, e->a)) {
            sc->bad = true;
        } else if (e->op == LAT_P_AMP) {
            sc->bad = true;
        }
        break;
    case LAT_E_MEMBER:
        if ((e->flags & LAT_EF_ARROW) && moves(sc, e->a))
            sc->bad = true;
        break;
    case LAT_E_INDEX: {
        /* a[k] of an array the thread sees whole (a shared tile): affine in k. Anything
         * else that moves with the loop is reached through an index that may wrap. */
        const lat__expr *base = lat__skip_implicit(e->a);
        if (moves(sc, e->b) && !(complete_array(base->type) && names(e->b, sc->counter)))
            sc->bad = true;
        if (!complete_array(base->type) && moves(sc, base))
            sc->bad = true;
        break;
    }
    default:
        break;
    }
    return !sc->bad;
}

static bool body_stmt(lat__visitor *v, lat__stmt *s)
{
    loop_scan *sc = v->data;
    switch (s->kind) {
    case LAT_S_COMPOUND:
    case LAT_S_EXPR:
    case LAT_S_NULL:
        break;
    case LAT_S_DECL:
        if (s->decls)
            for (lat__decl *d = s->decls->first; d; d = d->next) {
                if (!d->sym || !lat__is_scalar(d->sym->type) || d->sym->storage == LAT_ST_STATIC)
                    sc->bad = true;
                else
                    LAT_PUSH(sc->arena, sc->moving, d->sym);
            }
        break;
    default:
        sc->bad = true; /* branches, loops, jumps */
        break;
    }
    return !sc->bad;
}

/* The counter of `for (i = C; i < C; i++)` and its kin: a constant start, a comparison with a
 * constant, a constant step. NULL for any other loop. */
static const lat__sym *fixed_counter(const lat__stmt *s)
{
    const lat__sym *v = NULL;
    const lat__expr *start = NULL;
    if (s->init && s->init->kind == LAT_S_DECL && s->init->decls && s->init->decls->first &&
        !s->init->decls->first->next) {
        v = s->init->decls->first->sym;
        start = s->init->decls->first->init;
    } else if (s->init && s->init->kind == LAT_S_EXPR && s->init->e && s->init->e->kind == LAT_E_ASSIGN &&
               s->init->e->op == LAT_P_ASSIGN) {
        v = lat__assigned_var(s->init->e);
        start = s->init->e->b;
    }
    if (!v || !lat__is_integer(v->type) || !is_const(start))
        return NULL;
    const lat__expr *c = s->e;
    if (!c || c->kind != LAT_E_BINARY ||
        !(c->op == LAT_P_LT || c->op == LAT_P_LE || c->op == LAT_P_GT || c->op == LAT_P_GE ||
          c->op == LAT_P_NE) ||
        !((names(c->a, v) && is_const(c->b)) || (names(c->b, v) && is_const(c->a))))
        return NULL;
    const lat__expr *st = s->step;
    bool step = st && lat__assigned_var(st) == v &&
                (st->kind == LAT_E_POSTFIX || (st->kind == LAT_E_UNARY && (st->op == LAT_P_INC || st->op == LAT_P_DEC)) ||
                 (st->kind == LAT_E_ASSIGN && (st->op == LAT_P_ADD_ASSIGN || st->op == LAT_P_SUB_ASSIGN) &&
                  is_const(st->b)));
    return step ? v : NULL;
}

bool lat__region_thread_loop(lat__arena *arena, const lat__stmt *s)
{
    if (!s || s->kind != LAT_S_FOR || !s->body)
        return false;
    const lat__sym *counter = fixed_counter(s);
    if (!counter)
        return false;
    loop_scan sc = {counter, {0}, arena, false};
    LAT_PUSH(arena, sc.moving, counter);
    lat__visitor v = {body_stmt, body_expr, NULL, &sc};
    lat__visit_stmt(&v, s->body);
    return !sc.bad;
}

typedef struct holds_scan {
    lat__arena *arena;
    bool found;
} holds_scan;

static bool holds_stmt(lat__visitor *v, lat__stmt *s)
{
    holds_scan *h = v->data;
    if (s->kind == LAT_S_FOR && lat__region_thread_loop(h->arena, s))
        h->found = true;
    return !h->found;
}

bool lat__region_holds_thread_loop(lat__arena *arena, const lat__stmt *s, const lat__expr *e)
{
    holds_scan h = {arena, false};
    lat__visitor v = {holds_stmt, NULL, NULL, &h};
    if (s)
        lat__visit_stmt(&v, (lat__stmt *)s);
    if (e && !h.found)
        lat__visit_expr(&v, (lat__expr *)e); /* a statement expression's loops */
    return h.found;
}
