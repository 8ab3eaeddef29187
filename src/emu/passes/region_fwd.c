/*
 * Checked kernels' forward variant (region_int.h, plan.fwd): memcheck alone, with the
 * threads of each stretch in index order, makes its reports in that order; implicit loops
 * (region.c), which run each turn of a loop for every thread before the next, would change
 * it. A stretch in which nothing can report or fault (every access proven in bounds, no
 * call, no integer division) is written as unchecked code's, without the thread's index
 * stored at each thread (region_gen.c). Implicit loops are taken only where no report can
 * change order: a loop with nothing in it
 * that can report (every access proven in bounds: bounds.h; no call, no integer division)
 * and, in the stretch of code between the barriers around it, nothing that can report on
 * both sides of it (what reports on one side keeps its order). The proofs of the accesses
 * this counts on must hold at run time: the kernel's usual code enters the variant only
 * then (lower.c).
 */
#include "region_int.h"

#include "bounds.h"
#include "front/visit.h"

/* What counts as an effect: an access that may report (or, with faults, fault); any
 * access (for initcheck and racecheck, under which a proven access may report too); a
 * write. A call that may reach memory, an asm statement and a volatile access count for
 * each. */
typedef enum effect { EF_REPORT, EF_FAULT, EF_ACCESS, EF_WRITE } effect;

typedef struct effects {
    bool found;
    effect what;
} effects;

static bool effect_expr(lat__visitor *v, lat__expr *e)
{
    effects *ef = v->data;
    if (e->site && (ef->what == EF_ACCESS || (ef->what == EF_WRITE ? ((e->site - 1) & 2) : !e->bound)))
        ef->found = true;
    if (e->kind == LAT_E_CALL) {
        const lat__sym *f = e->sym;
        const lat__builtin *b = f && f->builtin ? lat__builtin_get(f->builtin) : NULL;
        if (!b || lat__builtin_ordered(b))
            ef->found = true; /* a device function's accesses, printf, atomics... */
    }
    if (e->type && (e->type->quals & LAT_Q_VOLATILE) && (e->flags & LAT_EF_LVALUE))
        ef->found = true;
    /* A fault in the loop would be reported at a thread its row stands for. */
    if (ef->what == EF_FAULT && (e->kind == LAT_E_BINARY || e->kind == LAT_E_ASSIGN) && e->type &&
        lat__is_integer(e->type) &&
        (e->op == LAT_P_SLASH || e->op == LAT_P_PERCENT || e->op == LAT_P_DIV_ASSIGN ||
         e->op == LAT_P_MOD_ASSIGN) &&
        !((e->b->flags & LAT_EF_CONST) && e->b->ival != 0 && e->b->ival != -1))
        ef->found = true;
    return !ef->found;
}

static bool effect_stmt(lat__visitor *v, lat__stmt *s)
{
    effects *ef = v->data;
    if (s->kind == LAT_S_ASM || s->kind == LAT_S_RAW)
        ef->found = true;
    return !ef->found;
}

/* Whether s or e (either may be NULL) has an effect of the kind asked. */
static bool has_effects(const lat__stmt *s, const lat__expr *e, effect what)
{
    effects ef = {false, what};
    lat__visitor v = {effect_stmt, effect_expr, NULL, &ef};
    if (s)
        lat__visit_stmt(&v, (lat__stmt *)s);
    if (e && !ef.found)
        lat__visit_expr(&v, (lat__expr *)e);
    return ef.found;
}

bool lat__region_fwd_clean(const lat__stmt *s, const lat__expr *e)
{
    return !has_effects(s, e, EF_FAULT);
}

/* The statement in `in` that holds s directly: a block among its items (*at: where), or
 * the statement whose body, else branch or init s is. */
static lat__stmt *holder_of(lat__stmt *in, const lat__stmt *s, size_t *at)
{
    if (!in)
        return NULL;
    if (in->body == s || in->els == s || in->init == s)
        return in;
    if (in->kind == LAT_S_COMPOUND)
        for (size_t i = 0; i < in->items.n; i++) {
            if (in->items.items[i] == s) {
                *at = i;
                return in;
            }
            lat__stmt *p = holder_of(in->items.items[i], s, at);
            if (p)
                return p;
        }
    lat__stmt *kids[] = {in->body, in->els, in->init};
    for (size_t k = 0; k < sizeof kids / sizeof kids[0]; k++) {
        lat__stmt *p = kids[k] ? holder_of(kids[k], s, at) : NULL;
        if (p)
            return p;
    }
    return NULL;
}

/* The compound statement holding s among its items, and where. */
static lat__stmt *parent_of(lat__stmt *in, const lat__stmt *s, size_t *at)
{
    lat__stmt *h = holder_of(in, s, at);
    return h && h->kind == LAT_S_COMPOUND && h->body != s && h->els != s && h->init != s ? h : NULL;
}

static bool is_barrier(const lat__stmt *s)
{
    bool block;
    return lat__region_barrier_statement(s, &block) && block;
}

/* The loop whose body is the compound c, or NULL. */
static const lat__stmt *loop_of_body(lat__stmt *in, const lat__stmt *c)
{
    size_t at;
    const lat__stmt *h = holder_of(in, c, &at);
    return h && (h->kind == LAT_S_FOR || h->kind == LAT_S_WHILE || h->kind == LAT_S_DO) && h->body == c ? h : NULL;
}

static bool side_effects(plan *pl, const lat__stmt *c, size_t at, int dir, effect what, bool *ok);

/* Whether s is a loop the block runs as one, with no break or continue, whose body ends
 * (edge > 0) or begins (edge < 0) with a barrier: a stretch next to it on that side meets
 * only its control before the barrier (past_loop_body from the inside). */
static bool barrier_edged(plan *pl, const lat__stmt *s, int edge)
{
    if (s->kind != LAT_S_FOR && s->kind != LAT_S_WHILE && s->kind != LAT_S_DO)
        return false;
    const lat__stmt *b = s->body;
    if (!b || b->kind != LAT_S_COMPOUND || !b->items.n || !is_barrier(b->items.items[edge > 0 ? b->items.n - 1 : 0]))
        return false;
    rstmt *r = lat__region_rs(pl, s);
    return r && r->uniform && !r->targeted;
}

/* Side_effects at an end of c, the body of a loop the block runs as one, with no break or
 * continue: when that body ends with a barrier (dir < 0: its start follows one, or the
 * loop's entry) or begins with one (dir > 0: its end is followed by one, or the loop's
 * exit), the stretch goes on before or after the loop, through its control (whose effects
 * count). Else unknown. */
static bool past_loop_body(plan *pl, const lat__stmt *c, int dir, effect what, bool *ok)
{
    const lat__stmt *loop = loop_of_body(pl->fn->body, c);
    size_t at = 0;
    lat__stmt *pc = loop ? parent_of(pl->fn->body, loop, &at) : NULL;
    const lat__stmt *edge = c->items.n ? c->items.items[dir < 0 ? c->items.n - 1 : 0] : NULL;
    /* (A break or continue would end a turn elsewhere than at that barrier.) */
    rstmt *r = loop ? lat__region_rs(pl, loop) : NULL;
    if (!pc || !edge || !is_barrier(edge) || !r->uniform || r->targeted) {
        *ok = false;
        return false;
    }
    bool found = has_effects(loop->init, loop->e, what) || has_effects(NULL, loop->step, what);
    return found | side_effects(pl, pc, at, dir, what, ok);
}

/* The statements between the barriers around item `at` of c, on one side: whether any
 * has an effect of the kind asked (or holds a barrier of its own: then the stretch is
 * not known); false with *ok false when they run to the block's start or end of c that
 * is not the kernel's. */
static bool side_effects(plan *pl, const lat__stmt *c, size_t at, int dir, effect what, bool *ok)
{
    bool found = false;
    for (size_t i = at;;) {
        if (dir < 0 ? i == 0 : i + 1 >= c->items.n) {
            if (c != pl->fn->body)
                return found | past_loop_body(pl, c, dir, what, ok);
            return found;
        }
        i = dir < 0 ? i - 1 : i + 1;
        const lat__stmt *s = c->items.items[i];
        if (is_barrier(s))
            return found;
        if (barrier_edged(pl, s, -dir)) {
            /* Its control runs in this interval, and if it runs no turn, what is past it. */
            found |= has_effects(s->init, s->e, what) || has_effects(NULL, s->step, what);
            continue;
        }
        if (lat__region_any_collective((lat__stmt *)s)) {
            *ok = false;
            return found;
        }
        found |= has_effects(s, NULL, what);
    }
}

/* Whether items first..last of c have effects of the kind asked before them (*before)
 * and after them (*after) in their barrier interval; false where the interval is not
 * known. */
static bool around(plan *pl, const lat__stmt *c, size_t first, size_t last, effect what, bool *before, bool *after)
{
    bool ok_before = true, ok_after = true;
    *before = side_effects(pl, c, first, -1, what, &ok_before);
    *after = side_effects(pl, c, last, 1, what, &ok_after);
    return ok_before && ok_after;
}

/* The same around statement s, which must be an item of a block. */
static bool around_stmt(plan *pl, const lat__stmt *s, effect what, bool *before, bool *after)
{
    size_t at = 0;
    lat__stmt *c = parent_of(pl->fn->body, s, &at);
    return c && around(pl, c, at, at, what, before, after);
}

/* Whether nothing on one side or the other of `loop`, up to the barriers around it, has
 * an effect of the kind asked. */
static bool one_side_free(plan *pl, const lat__stmt *loop, effect what)
{
    bool before, after;
    return around_stmt(pl, loop, what, &before, &after) && !(before && after);
}

bool lat__region_fwd_allows(plan *pl, const lat__stmt *loop)
{
    return !has_effects(loop, NULL, EF_FAULT) && one_side_free(pl, loop, EF_REPORT);
}

/* Whether nothing in the barrier interval around `loop`, on either side of it, has an
 * effect of the kind asked. */
static bool sides_free(plan *pl, const lat__stmt *loop, effect what)
{
    bool before, after;
    return around_stmt(pl, loop, what, &before, &after) && !before && !after;
}

void lat__region_fwd_interval(plan *pl, const lat__stmt *loop, bool *strict, bool *racefree)
{
    /* Where its guard fails, the loop may report itself: then nothing else may. */
    *strict = sides_free(pl, loop, EF_ACCESS);
    *racefree = !has_effects(loop, NULL, EF_WRITE) && sides_free(pl, loop, EF_WRITE);
}

/* The statement item k of the stretch is, or is of (a declarator: its declaration, which
 * must be in the stretch whole: its other declarators the items after it); NULL for other
 * items. *next: the item after the statement's. */
static const lat__stmt *item_stmt(const plan *pl, size_t k, size_t *next)
{
    const item *it = &pl->items.items[k];
    *next = k + 1;
    if (it->kind == I_STMT)
        return it->s;
    if (it->kind != I_DECL || !it->of || !it->of->decls || it->of->decls->first != it->d)
        return NULL;
    for (const lat__decl *d = it->d->next; d; d = d->next, (*next)++)
        if (*next >= pl->items.n || pl->items.items[*next].kind != I_DECL || pl->items.items[*next].d != d)
            return NULL;
    return it->of;
}

bool lat__region_fwd_stretch_alone(plan *pl)
{
    if (!pl->items.n)
        return false;
    size_t next;
    const lat__stmt *first = item_stmt(pl, 0, &next);
    size_t at = 0;
    lat__stmt *c = first ? parent_of(pl->fn->body, first, &at) : NULL;
    if (!c)
        return false;
    size_t last = at;
    while (next < pl->items.n) {
        const lat__stmt *s = item_stmt(pl, next, &next);
        if (!s || ++last >= c->items.n || c->items.items[last] != s)
            return false;
    }
    bool before, after;
    return around(pl, c, at, last, EF_ACCESS, &before, &after) && !before && !after;
}

/* ---- what the variant counts on ------------------------------------------------------------ */

static bool assure_expr(lat__visitor *v, lat__expr *e)
{
    plan *pl = v->data;
    if (e->site && e->bound && !lat__bounds_assured(e)) {
        lat__bounds_assure(e, true);
        LAT_PUSH(&pl->u->arena, pl->assured, e);
    }
    return true;
}

void lat__region_fwd_assure_in(plan *pl, const lat__stmt *s, const lat__expr *e)
{
    lat__visitor v = {NULL, assure_expr, NULL, pl};
    if (s)
        lat__visit_stmt(&v, (lat__stmt *)s);
    if (e)
        lat__visit_expr(&v, (lat__expr *)e);
}

static bool assure_loops(lat__visitor *v, lat__stmt *s)
{
    plan *pl = v->data;
    rstmt *r = s->aux;
    if (!r || !r->implicit)
        return true;
    /* The loop, and its stretch between barriers. */
    size_t at = 0;
    lat__stmt *c = parent_of(pl->fn->body, s, &at);
    lat__region_fwd_assure_in(pl, s, NULL);
    for (size_t i = at; c && i-- > 0 && !is_barrier(c->items.items[i]);)
        lat__region_fwd_assure_in(pl, c->items.items[i], NULL);
    for (size_t i = at + 1; c && i < c->items.n && !is_barrier(c->items.items[i]); i++)
        lat__region_fwd_assure_in(pl, c->items.items[i], NULL);
    return false;
}

void lat__region_fwd_assure(plan *pl)
{
    lat__visitor v = {assure_loops, NULL, NULL, pl};
    lat__visit_stmt(&v, pl->fn->body);
}
