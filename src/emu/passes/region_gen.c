/* Region loops' writer (region_int.h): the kernel body as stretches, each a loop over the
 * block's threads, between block-level control flow. Run dry first (no output) to learn
 * which variables cross stretches, then for real with the same decisions. */
#include "region_int.h"

#include "checks.h"
#include "emu/runtime/abi.h"
#include "emu/check/ck.h"
#include "emu/runtime/warp.h"
#include "front/visit.h"

#include <stdio.h>
#include <string.h>

enum { EXITED = LAT_EMU_REGION_EXITED };

#define OUT(...)                                                                           \
    do {                                                                                   \
        if (!pl->dry)                                                                      \
            lat__emit_fmt(pl->em, __VA_ARGS__);                                            \
    } while (0)

static void item_add(plan *pl, item it);

/* ---- what a stretch uses ------------------------------------------------------------------ */

static void note_var(plan *pl, lat__sym *s);

static bool note_expr(lat__visitor *v, lat__expr *e)
{
    plan *pl = v->data;
    if (e->kind == LAT_E_NAME && e->sym)
        note_var(pl, e->sym);
    rvar *r = lat__region_var(lat__assigned_var(e));
    if (r)
        r->changed = pl->seg; /* stored back at the stretch's end */
    return true;
}

static void note_var(plan *pl, lat__sym *s)
{
    rvar *r = lat__region_var(s);
    if (!r || r->kind == R_UNIFORM || r->mark == pl->seg)
        return;
    r->mark = pl->seg;
    LAT_PUSH(&pl->u->arena, pl->used, s);
    if (r->declared_seg != pl->seg)
        r->crosses = true;
    if (r->kind == R_RECOMPUTE && r->init && r->declared_seg != pl->seg) {
        lat__visitor v = {NULL, note_expr, NULL, pl};
        lat__visit_expr(&v, r->init); /* what it is computed from */
    }
}

static void note_declared(plan *pl, const lat__decl *d)
{
    rvar *r = lat__region_var(d->sym);
    if (!r)
        return;
    r->declared_seg = pl->seg;
    r->changed = pl->seg;
    if (r->mark != pl->seg) {
        r->mark = pl->seg;
        LAT_PUSH(&pl->u->arena, pl->used, d->sym);
    }
}

/* A declaration anywhere in an item (a for loop's `int k = 0`, a nested block's) is the
 * stretch's own: no other stretch is in its scope. Noted before its uses, so that none
 * of them reads it as coming from another stretch (loaded from and stored to scratch). */
static bool note_stmt(lat__visitor *v, lat__stmt *s)
{
    if (s->kind == LAT_S_DECL && s->decls)
        for (lat__decl *d = s->decls->first; d; d = d->next)
            note_declared(v->data, d);
    return true;
}

static void note_item(plan *pl, const item *it)
{
    lat__visitor v = {note_stmt, note_expr, NULL, pl};
    if (it->s)
        lat__visit_stmt(&v, (lat__stmt *)it->s);
    if (it->e)
        lat__visit_expr(&v, (lat__expr *)it->e);
    if (it->d) {
        note_declared(pl, it->d);
        lat__visit_expr(&v, it->d->init);
    }
}

/* ---- printing through the emitter ----------------------------------------------------------- */

static const char *slot_type(plan *pl, lat__sym *s)
{
    return lat__emit_type(pl->u, lat__unqualified(pl->u, s->type), "");
}

/* The 64-bit value a lane stores for collective c's value operand v. */
static void store_value(plan *pl, const rcoll *c, const lat__expr *v)
{
    lat__emitter *em = pl->em;
    const lat__type *t = v->type;
    int op = c->op;
    if (op >= LAT_RGN_BVOTE || op == LAT_EMU_W_BALLOT || op == LAT_EMU_W_ANY || op == LAT_EMU_W_ALL) {
        lat__emit_str(em, "((");
        lat__emit_expr(em, v, LAT_PREC_COMMA);
        lat__emit_str(em, ") != 0)");
        return;
    }
    if (op >= LAT_EMU_W_ADD && op <= LAT_EMU_W_XORR) {
        lat__emit_str(em, "(unsigned long long)(unsigned)(");
        lat__emit_expr(em, v, LAT_PREC_COMMA);
        lat__emit_str(em, ")");
        return;
    }
    const char *fn = t->kind == LAT_TY_FLOAT ? "__lat_fbits" : t->kind == LAT_TY_DOUBLE ? "__lat_dbits" : NULL;
    lat__emit_str(em, fn ? fn : "(unsigned long long)");
    lat__emit_str(em, "(");
    lat__emit_expr(em, v, LAT_PREC_COMMA);
    lat__emit_str(em, ")");
}

/* A shuffle's slot of thread `at`: its slots are an array of the shuffle's type (8 bytes a
 * thread, at most, are made for them), so that a loop over consecutive threads reads and
 * writes consecutive values, which vectorises; 8-byte strides did not. */
static void slot_at(plan *pl, const lat__type *t, const char *slot, int k, const char *at)
{
    lat__emit_fmt(pl->em, "((%s)__lat_%s%d)[%s]",
                  lat__emit_type(pl->u, lat__pointer_to(pl->u, lat__unqualified(pl->u, (lat__type *)t)), ""),
                  slot, k, at);
}

static void slot_as(plan *pl, const lat__type *t, const char *slot, int k)
{
    slot_at(pl, t, slot, k, "__lat_i");
}

static void operand(plan *pl, const rcoll *c, int arg, bool slot, const char *name, const char *dflt);
static void shuffled(plan *pl, const lat__type *t, int k, const char *at);

/* Collective c's result for the thread: computed for every active thread at once, after
 * they all stored their operands and before any of them goes on (results_loop). */
static void coll_result(plan *pl, const rcoll *c)
{
    lat__emitter *em = pl->em;
    const lat__expr *e = c->call;
    int k = c->id;
    if (c->op >= LAT_RGN_BVOTE) {
        lat__emit_fmt(em, "__lat_bv%d", k);
        return;
    }
    const lat__type *t = e->type;
    const char *as = t->kind == LAT_TY_FLOAT ? "__lat_asf" : t->kind == LAT_TY_DOUBLE ? "__lat_asd" : NULL;
    if (c->in_line && c->op <= LAT_EMU_W_XOR) {
        /* The source lane's slot, found at the stretch's start (shuffle_source). */
        char at[32];
        snprintf(at, sizeof at, "__lat_s%d", k);
        shuffled(pl, t, k, at);
        return;
    }
    if (c->in_line) {
        /* One call for this lane: the stretch leaves every thread's state as it was. */
        int op = c->op;
        if ((op == LAT_EMU_W_MIN || op == LAT_EMU_W_MAX) && lat__is_unsigned(t))
            op = op == LAT_EMU_W_MIN ? LAT_EMU_W_UMIN : LAT_EMU_W_UMAX;
        lat__emit_fmt(em, "((%s)__lat_rwarp(%s%d, __lat_sk, __lat_i, %d, ", lat__emit_type(pl->u, t, ""),
                      op == LAT_EMU_W_ACTIVE ? "(unsigned long long *)0 + " : "__lat_wv", op == LAT_EMU_W_ACTIVE ? 0 : k, op);
        operand(pl, c, 0, c->mask_slot, "m", "0xffffffffu");
        if (op == LAT_EMU_W_MATCH_ALL) {
            lat__emit_str(em, ", 0, 32, ");
            lat__emit_expr(em, e->args[2], LAT_PREC_ASSIGN);
            lat__emit_str(em, "))");
        } else {
            lat__emit_str(em, ", 0, 32, (int *)0))");
        }
        return;
    }
    if (c->op == LAT_EMU_W_MATCH_ALL) {
        /* The predicate goes where the program's pointer says, in its own thread. */
        lat__emit_str(em, "(*(");
        lat__emit_expr(em, e->args[2], LAT_PREC_ASSIGN);
        lat__emit_fmt(em, ") = __lat_wp%d[__lat_i], (unsigned)__lat_wr%d[__lat_i])", k, k);
        return;
    }
    if (c->op <= LAT_EMU_W_XOR)
        slot_as(pl, t, "wr", k);
    else if (as)
        lat__emit_fmt(em, "%s(__lat_wr%d[__lat_i])", as, k);
    else
        lat__emit_fmt(em, "((%s)__lat_wr%d[__lat_i])", lat__emit_type(pl->u, t, ""), k);
}

/* A collective's mask, lane or width operand in the results loop: what the thread stored,
 * or the block's value. */
static void operand(plan *pl, const rcoll *c, int arg, bool slot, const char *name, const char *dflt)
{
    if (slot) {
        lat__emit_fmt(pl->em, "__lat_w%s%d[__lat_i]", name, c->id);
        return;
    }
    if (arg >= c->call->nargs) {
        lat__emit_str(pl->em, dflt);
        return;
    }
    lat__emit_str(pl->em, "(");
    lat__emit_expr(pl->em, c->call->args[arg], LAT_PREC_COMMA);
    lat__emit_str(pl->em, ")");
}

/* The value of a constant operand, or -1 when it is not one. */
static long long constant_operand(const rcoll *c, int arg, long long dflt)
{
    if (arg >= c->call->nargs)
        return dflt;
    const lat__expr *e = c->call->args[arg];
    return (e->flags & LAT_EF_CONST) ? e->ival : -1;
}

/* The slot of a shuffle's source lane for the thread at __lat_i (lane __lat_l), into __lat_sN,
 * and whether it reads 0 instead, into __lat_zN: warp.c's rule (a lane reading a lane
 * outside its segment gets its own value, one outside the group 0), specialised for a
 * constant width and a full mask, the common case, so that it costs a few instructions. */
static void shuffle_source(plan *pl, const rcoll *c, int op)
{
    lat__emitter *em = pl->em;
    int k = c->id;
    long long w = c->width_slot ? -1 : constant_operand(c, 3, 32);
    long long m = c->mask_slot ? -1 : constant_operand(c, 0, 0xffffffffu);
    bool full = m != -1 && (m & 0xffffffffLL) == 0xffffffffLL;
    bool w32 = w == 32;
    lat__emit_fmt(em, " int __lat_z%d, __lat_s%d = (int)(", k, k);
    operand(pl, c, 2, c->arg_slot, "a", "0");
    lat__emit_str(em, ");");
    if (!w32) {
        lat__emit_fmt(em, " { int __lat_w = ");
        if (w >= 1 && w <= 32 && !(w & (w - 1))) {
            lat__emit_fmt(em, "%lld;", w);
        } else {
            lat__emit_str(em, "(int)(");
            operand(pl, c, 3, c->width_slot, "w", "32");
            lat__emit_str(em, "); if (__lat_w < 1 || __lat_w > 32 || (__lat_w & (__lat_w - 1))) __lat_w = 32;");
        }
        lat__emit_str(em, " int __lat_g = __lat_l & ~(__lat_w - 1);");
        switch (op) {
        case LAT_EMU_W_SHFL:
            lat__emit_fmt(em, " __lat_s%d = __lat_g + (__lat_s%d & (__lat_w - 1));", k, k);
            break;
        case LAT_EMU_W_UP:
            lat__emit_fmt(em, " __lat_s%d = __lat_l - __lat_s%d; if (__lat_s%d < __lat_g) __lat_s%d = __lat_l;", k, k, k, k);
            break;
        case LAT_EMU_W_DOWN:
            lat__emit_fmt(em, " __lat_s%d += __lat_l; if (__lat_s%d >= __lat_g + __lat_w) __lat_s%d = __lat_l;", k, k, k);
            break;
        default:
            lat__emit_fmt(em, " __lat_s%d ^= __lat_l; if (__lat_s%d >= __lat_g + __lat_w) __lat_s%d = __lat_l;", k, k, k);
            break;
        }
        lat__emit_fmt(em, " __lat_s%d -= __lat_l; }", k);
    } else {
        /* As a distance from this lane: a shift (the common case) is then one add. */
        switch (op) {
        case LAT_EMU_W_SHFL:
            lat__emit_fmt(em, " __lat_s%d = (__lat_s%d & 31) - __lat_l;", k, k);
            break;
        case LAT_EMU_W_UP:
            lat__emit_fmt(em, " __lat_s%d = -__lat_s%d;", k, k);
            break;
        case LAT_EMU_W_DOWN:
            break;
        default:
            lat__emit_fmt(em, " __lat_s%d = (__lat_l ^ __lat_s%d) - __lat_l;", k, k);
            break;
        }
    }
    /* A lane whose source is outside the warp reads its own slot (zN 0); one whose source
     * is outside the mask, or not there (sk: exited, parked, or past a partial last warp),
     * reads 0 (zN 1), as warp.c: its own slot, looked up at an index always inside the
     * warp, then replaced. No short cut: the loop has no branch and no conditional load,
     * and vectorises (gathers and blends). */
    lat__emit_fmt(em, " __lat_z%d = __lat_s%d != 0 && (unsigned)(__lat_l + __lat_s%d) <= 31u", k, k, k);
    if (!full) {
        lat__emit_str(em, " && !((");
        operand(pl, c, 0, c->mask_slot, "m", "0xffffffffu");
        lat__emit_fmt(em, ") >> ((__lat_l + __lat_s%d) & 31) & 1u);", k);
    } else {
        lat__emit_str(em, " && 0;");
    }
    lat__emit_fmt(em, " __lat_s%d = (unsigned)(__lat_l + __lat_s%d) > 31u || __lat_z%d ? (int)__lat_i : (int)__lat_i + __lat_s%d;",
                  k, k, k, k);
    /* Outside every branch and loop that keeps a state per thread, with no return before,
     * every thread is active (the stretches skip no thread there either): only a lane past
     * a partial last warp is not there, and a compare finds it without loading sk. */
    if (pl->level == 0 && !pl->may_exit)
        lat__emit_fmt(em, " __lat_z%d |= __lat_s%d >= (int)__lat_n;", k, k);
    else
        lat__emit_fmt(em, " __lat_z%d |= __lat_sk[__lat_s%d] != 0;", k, k);
    lat__emit_fmt(em, " __lat_s%d = __lat_z%d ? (int)__lat_i : __lat_s%d;", k, k, k);
}

/* A shuffle's value from the source slot `at` (shuffle_source): 0 where zN says the source
 * lane is outside the mask or not there. */
static void shuffled(plan *pl, const lat__type *t, int k, const char *at)
{
    lat__emit_fmt(pl->em, "(__lat_z%d ? (%s)0 : ", k, lat__emit_type(pl->u, lat__unqualified(pl->u, (lat__type *)t), ""));
    slot_at(pl, t, "wv", k, at);
    lat__emit_str(pl->em, ")");
}

/* Whether a warp operation gives every active lane of a warp the same result: a vote, a
 * ballot, a reduction or __activemask with the full mask (warp.c reads the same lanes for
 * each). results_loop then computes it once a warp, at its first active lane, and copies it
 * to the others: a call per lane, each reading 32 lanes, cost more than the kernel around
 * it. */
static bool warp_uniform_result(const rcoll *c)
{
    int op = c->op;
    long long m = c->mask_slot ? -1 : constant_operand(c, 0, 0xffffffffu);
    return (op == LAT_EMU_W_BALLOT || op == LAT_EMU_W_ANY || op == LAT_EMU_W_ALL ||
            op == LAT_EMU_W_ACTIVE || (op >= LAT_EMU_W_ADD && op <= LAT_EMU_W_XORR)) &&
           (op == LAT_EMU_W_ACTIVE || (m != -1 && (m & 0xffffffffLL) == 0xffffffffLL));
}

/* Every active thread's result of a site's warp operations, from one snapshot of which
 * threads are active: no thread's branch may change that before all have theirs. */
static void results_loop(plan *pl, const rcoll *c)
{
    if (pl->dry || c->op >= LAT_RGN_BVOTE)
        return;
    int k = c->id, op = c->op;
    if ((op == LAT_EMU_W_MIN || op == LAT_EMU_W_MAX) && lat__is_unsigned(c->call->type))
        op = op == LAT_EMU_W_MIN ? LAT_EMU_W_UMIN : LAT_EMU_W_UMAX;
    lat__emitter *em = pl->em;
    if (warp_uniform_result(c)) {
        lat__emit_fmt(em, "\n{ unsigned long __lat_wf = ~0ul; for (__lat_i = 0; __lat_i < __lat_n; __lat_i++) "
                          "if (!__lat_sk[__lat_i]) { if ((__lat_wf >> 5) == (__lat_i >> 5)) { __lat_wr%d[__lat_i] = "
                          "__lat_wr%d[__lat_wf]; continue; } __lat_wf = __lat_i; __lat_wr%d[__lat_i] = ", k, k, k);
        if (op == LAT_EMU_W_ACTIVE)
            lat__emit_fmt(em, "__lat_rwarp(0, __lat_sk, __lat_i, %d, 0xffffffffu, 0, 32, 0); } }", op);
        else
            lat__emit_fmt(em, "__lat_rwarp(__lat_wv%d, __lat_sk, __lat_i, %d, 0xffffffffu, 0, 32, (int *)0); } }", k, op);
        lat__emit_newline(em);
        return;
    }
    lat__emit_str(em, "\nfor (__lat_i = 0; __lat_i < __lat_n; __lat_i++) if (!__lat_sk[__lat_i]) ");
    if (op > LAT_EMU_W_XOR)
        lat__emit_fmt(em, "__lat_wr%d[__lat_i] = ", k);
    if (op == LAT_EMU_W_ACTIVE) {
        lat__emit_fmt(em, "__lat_rwarp(0, __lat_sk, __lat_i, %d, 0xffffffffu, 0, 32, 0);", op);
    } else if (op <= LAT_EMU_W_XOR) {
        lat__emit_str(em, "{ int __lat_l = (int)(__lat_i & 31);");
        shuffle_source(pl, c, op);
        char at[32];
        snprintf(at, sizeof at, "__lat_s%d", k);
        lat__emit_str(em, " ");
        slot_as(pl, c->call->type, "wr", k);
        lat__emit_str(em, " = ");
        shuffled(pl, c->call->type, k, at);
        lat__emit_str(em, "; }");
    } else {
        lat__emit_fmt(em, "__lat_rwarp(__lat_wv%d, __lat_sk, __lat_i, %d, ", k, op);
        operand(pl, c, 0, c->mask_slot, "m", "0xffffffffu");
        if (op == LAT_EMU_W_MATCH_ALL)
            lat__emit_fmt(em, ", 0, 32, &__lat_wp%d[__lat_i]);", k);
        else
            lat__emit_str(em, ", 0, 32, (int *)0);");
    }
    lat__emit_newline(em);
}

/* Prints the collectives' results in place of the calls (an emitter hook). */
static bool region_expr_hook(lat__emitter *em, const lat__expr *e, int prec)
{
    (void)prec;
    plan *pl = em->hooks.data;
    if (!pl->rewrite_coll || e->kind != LAT_E_CALL || !e->aux || !lat__region_coll_of(e))
        return false;
    coll_result(pl, e->aux);
    return true;
}

static void print_decl(plan *pl, const lat__decl *d);

/* break, continue and return inside a stretch: the thread's state, then the stretch's end;
 * a declaration of a variable that lives in its storage: its initializer copied there. */
static bool region_stmt_hook(lat__emitter *em, const lat__stmt *s)
{
    plan *pl = em->hooks.data;
    switch (s->kind) {
    case LAT_S_DECL: {
        bool in_place = false;
        for (lat__decl *d = s->decls ? s->decls->first : NULL; d; d = d->next) {
            rvar *r = lat__region_var(d->sym);
            in_place |= r && r->kind == R_CAND && r->in_place;
        }
        if (!in_place)
            return false;
        for (lat__decl *d = s->decls->first; d; d = d->next)
            print_decl(pl, d);
        return true;
    }
    case LAT_S_RETURN:
        lat__emit_at(em, s->loc);
        lat__emit_fmt(em, "{ __lat_sk[__lat_i] = %d; goto __lat_n%d%s; }", EXITED, pl->seg, pl->label_tail);
        return true;
    case LAT_S_BREAK:
    case LAT_S_CONTINUE: {
        /* A guarded loop's checked branch holds the whole loop: its own loops' breaks. */
        if (!s->target || s->target->kind == LAT_S_SWITCH || pl->in_fallback)
            return false;
        rstmt *t = lat__region_rs(pl, s->target);
        if (!t->block)
            return false; /* a loop inside the stretch */
        lat__emit_at(em, s->loc);
        lat__emit_fmt(em, "{ __lat_sk[__lat_i] = %d; goto __lat_n%d%s; }",
                      2 * t->level + (s->kind == LAT_S_CONTINUE), pl->seg, pl->label_tail);
        return true;
    }
    default:
        return false;
    }
}

/* One declarator, as a declaration of its own. */
static void print_decl(plan *pl, const lat__decl *d)
{
    lat__emitter *em = pl->em;
    rvar *r = lat__region_var(d->sym);
    if (r && r->kind == R_CAND && r->in_place) {
        /* Its storage is where it lives: an initializer is copied there. */
        if (!d->init)
            return;
        lat__emit_at(em, d->loc);
        lat__emit_fmt(em, "{ %s = ", lat__emit_type(pl->u, d->sym->type, "__lat_init"));
        lat__emit_expr(em, d->init, LAT_PREC_ASSIGN);
        /* (memcpy): the function, not checked code's macro of the program's calls. */
        lat__emit_fmt(em, "; (memcpy)(&__lat_r%d[__lat_i], &__lat_init, sizeof __lat_init); }", r->slot);
        return;
    }
    lat__decl one = *d;
    one.next = NULL;
    lat__decl_group g = {0};
    g.first = &one;
    g.loc = d->loc;
    lat__emit_decl_group(em, &g, false);
}

static void print_item(plan *pl, const item *it)
{
    lat__emitter *em = pl->em;
    switch (it->kind) {
    case I_STMT:
        lat__emit_stmt(em, it->s);
        break;
    case I_DECL:
        pl->rewrite_coll = true;
        print_decl(pl, it->d);
        pl->rewrite_coll = false;
        break;
    case I_EVAL:
        pl->rewrite_coll = true;
        lat__emit_expr(em, it->e, LAT_PREC_COMMA);
        lat__emit_str(em, ";");
        pl->rewrite_coll = false;
        break;
    case I_COND:
        pl->rewrite_coll = true;
        lat__emit_str(em, " if (!(");
        lat__emit_expr(em, it->e, LAT_PREC_COMMA);
        /* What follows in the stretch is the branch: a thread that leaves it is done. */
        lat__emit_fmt(em, ")) { __lat_sk[__lat_i] = %d; goto __lat_n%d%s; }", 2 * it->level, pl->seg, pl->label_tail);
        pl->rewrite_coll = false;
        break;
    case I_STORE: {
        const rcoll *c = it->e->aux;
        const lat__expr *call = c->call;
        int k = c->id, op = c->op;
        lat__emit_at(em, call->loc);
        int vi = op >= LAT_RGN_BVOTE ? 0 : 1;
        if (op == LAT_EMU_W_ACTIVE)
            break;
        if (op <= LAT_EMU_W_XOR) {
            lat__emit_str(em, " ");
            slot_as(pl, call->type, "wv", k);
            lat__emit_str(em, " = ");
            lat__emit_expr(em, call->args[vi], LAT_PREC_ASSIGN);
            lat__emit_str(em, ";");
        } else {
            lat__emit_fmt(em, " __lat_wv%d[__lat_i] = ", k);
            store_value(pl, c, call->args[vi]);
            lat__emit_str(em, ";");
        }
        if (c->mask_slot) {
            lat__emit_fmt(em, " __lat_wm%d[__lat_i] = (unsigned)(", k);
            lat__emit_expr(em, call->args[0], LAT_PREC_COMMA);
            lat__emit_str(em, ");");
        }
        if (c->arg_slot) {
            lat__emit_fmt(em, " __lat_wa%d[__lat_i] = (int)(", k);
            lat__emit_expr(em, call->args[2], LAT_PREC_COMMA);
            lat__emit_str(em, ");");
        }
        if (c->width_slot) {
            lat__emit_fmt(em, " __lat_ww%d[__lat_i] = (int)(", k);
            lat__emit_expr(em, call->args[3], LAT_PREC_COMMA);
            lat__emit_str(em, ");");
        }
        break;
    }
    case I_RAW:
        lat__emit_str(em, it->text);
        break;
    }
}

/* ---- stretches --------------------------------------------------------------------------- */

typedef struct stability {
    plan *pl;
    bool stable;
} stability;

static bool state_change(lat__visitor *v, lat__stmt *s)
{
    stability *st = v->data;
    if (s->kind == LAT_S_RETURN)
        st->stable = false;
    if ((s->kind == LAT_S_BREAK || s->kind == LAT_S_CONTINUE) && s->target &&
        s->target->kind != LAT_S_SWITCH && lat__region_rs(st->pl, s->target)->block)
        st->stable = false;
    return true;
}

/* Whether nothing in the open stretch can make a thread inactive: then a warp operation's
 * result can be computed where it is used, without a loop of its own. */
static bool stretch_is_stable(plan *pl)
{
    stability st = {pl, true};
    lat__visitor v = {state_change, NULL, NULL, &st};
    for (size_t k = 0; k < pl->items.n && st.stable; k++) {
        const item *it = &pl->items.items[k];
        if (it->kind == I_COND)
            return false;
        if (it->s)
            lat__visit_stmt(&v, (lat__stmt *)it->s);
    }
    return st.stable;
}

/* Whether something in the open stretch may read the thread's index from its context. */
static bool stretch_calls_out(plan *pl)
{
    for (size_t k = 0; k < pl->items.n; k++) {
        const item *it = &pl->items.items[k];
        if (lat__region_calls_out(it->s, it->e) || (it->d && lat__region_calls_out(NULL, it->d->init)))
            return true;
    }
    return false;
}

/* Whether the open stretch holds a loop left in each thread for gcc to vectorise across
 * threads (thread_loop.c). */
static bool stretch_holds_thread_loop(plan *pl)
{
    for (size_t k = 0; k < pl->items.n; k++) {
        const item *it = &pl->items.items[k];
        if (lat__region_holds_thread_loop(&pl->u->arena, it->s, it->e) ||
            (it->d && lat__region_holds_thread_loop(&pl->u->arena, NULL, it->d->init)))
            return true;
    }
    return false;
}

static bool fault_point(lat__visitor *v, lat__expr *e)
{
    bool *found = v->data;
    bool integer = e->type && lat__is_integer(e->type);
    if (e->kind == LAT_E_INDEX || (e->kind == LAT_E_UNARY && e->op == LAT_P_STAR) ||
        (e->kind == LAT_E_MEMBER && (e->flags & LAT_EF_ARROW)) ||
        ((e->kind == LAT_E_BINARY || e->kind == LAT_E_ASSIGN) && integer &&
         (e->op == LAT_P_SLASH || e->op == LAT_P_PERCENT || e->op == LAT_P_DIV_ASSIGN ||
          e->op == LAT_P_MOD_ASSIGN)))
        *found = true;
    return !*found;
}

/* Visits the open stretch's items: their statements, expressions and initializers. */
static void visit_items(plan *pl, lat__visitor *v)
{
    for (size_t k = 0; k < pl->items.n; k++) {
        const item *it = &pl->items.items[k];
        if (it->s)
            lat__visit_stmt(v, (lat__stmt *)it->s);
        if (it->e)
            lat__visit_expr(v, (lat__expr *)it->e);
        if (it->d && it->d->init)
            lat__visit_expr(v, it->d->init);
    }
}

/* Whether something in the open stretch may fault (a memory access, an integer division):
 * the fault's report names the thread by its context's index. */
static bool stretch_may_fault(plan *pl)
{
    bool found = false;
    lat__visitor v = {NULL, fault_point, NULL, &found};
    visit_items(pl, &v);
    return found;
}

/* The forward variant's: whether nothing in the open stretch can report or fault (counted,
 * and its proofs counted on, in the dry run). */
static bool stretch_is_clean(plan *pl)
{
    if (!pl->items.n)
        return false;
    for (size_t k = 0; k < pl->items.n; k++) {
        const item *it = &pl->items.items[k];
        if (it->kind == I_STORE || it->kind == I_RAW ||
            !lat__region_fwd_clean(it->s, it->d ? it->d->init : it->e))
            return false;
    }
    if (pl->dry) {
        /* Only one with a proven access is worth a variant. */
        size_t before = pl->assured.n;
        for (size_t k = 0; k < pl->items.n; k++) {
            const item *it = &pl->items.items[k];
            lat__region_fwd_assure_in(pl, it->s, it->d ? it->d->init : it->e);
        }
        pl->nclean += pl->assured.n > before;
    }
    return true;
}

/* Whether x is threadIdx.x, or a variable that is it (recomputed in each stretch). */
static bool is_thread_x(const lat__expr *x)
{
    x = lat__skip_implicit(x);
    if (x->kind == LAT_E_NAME) {
        rvar *r = lat__region_var(x->sym);
        if (!r || r->kind != R_RECOMPUTE || !r->init)
            return false;
        x = lat__skip_implicit(r->init);
    }
    return x->kind == LAT_E_MEMBER && x->field && x->field->name && strcmp(x->field->name->name, "x") == 0 &&
           x->a->kind == LAT_E_NAME && x->a->sym && (x->a->sym->flags & LAT_SF_THREAD_VARYING);
}

/* For a stretch that is one `if (X < E) S` (X threadIdx.x, or a variable that is it; E
 * uniform): the comparison, so that the loop visits only the threads it selects. In
 * checked code, only where E makes no access the checks see, since each thread's read of
 * it is checked (uniform values make none today; this keeps a wider notion of uniform
 * from dropping one). */
static const lat__expr *range_bound(plan *pl, const lat__expr **bound)
{
    if (pl->items.n != 1 || pl->seg_all || pl->seg_pre)
        return NULL;
    const item *it = &pl->items.items[0];
    if (it->kind != I_STMT || it->s->kind != LAT_S_IF || it->s->els || lat__region_rs(pl, it->s)->block)
        return NULL;
    const lat__expr *c = it->s->e;
    if (c->kind != LAT_E_BINARY || (c->op != LAT_P_LT && c->op != LAT_P_LE && c->op != LAT_P_EQ))
        return NULL;
    if (!is_thread_x(c->a) || !lat__region_uniform(pl, c->b, false) || (pl->checked && lat__checks_has_site(c->b)))
        return NULL;
    *bound = c->b;
    return c;
}

/* ---- the forward variant's guards (region_fwd.c, check/fwd.c) -------------------------------- */

typedef struct guarded {
    plan *pl;
    LAT_VEC(int) vars; /* the __shared__ variables its proven accesses touch */
    bool locals;       /* a tracked local variable among them (initcheck follows its bytes) */
} guarded;

/* The __shared__ variable holding the array an access indexes (through subscripts and
 * members), as the module numbers them, or -1. */
static int shared_index(plan *pl, const lat__expr *e)
{
    for (;;) {
        if (e->kind == LAT_E_INDEX && e->a->kind == LAT_E_CAST && (e->a->flags & LAT_EF_IMPLICIT))
            e = e->a->a;
        else if (e->kind == LAT_E_MEMBER && !(e->flags & LAT_EF_ARROW))
            e = e->a;
        else
            break;
    }
    if (e->kind != LAT_E_NAME || !e->sym || !(e->sym->cuda & LAT_CU_SHARED))
        return -1;
    return lat__symx_of(pl->u, e->sym)->shared;
}

static bool guard_expr(lat__visitor *v, lat__expr *e)
{
    guarded *g = v->data;
    if (!e->site)
        return true;
    g->locals |= ((e->site - 1) & LAT__CK_CODE_LOCAL) != 0;
    int var = shared_index(g->pl, e);
    for (size_t i = 0; i < g->vars.n && var >= 0; i++)
        if (g->vars.items[i] == var)
            var = -1;
    if (var >= 0)
        LAT_PUSH(&g->pl->u->arena, g->vars, var);
    return true;
}

/* A __shared__ access of a clean stretch, for racecheck's guard: a[t + u] (or a[t - u], or
 * a[t] with u NULL) of a one-dimensional array a, t threadIdx.x, u uniform; or a[u], the
 * same element for every thread (fixed). */
typedef struct shacc {
    int var;
    bool write, minus, fixed;
    const lat__expr *u;
} shacc;

typedef struct shaccs {
    plan *pl;
    LAT_VEC(shacc) v;
    bool other; /* an access of another form */
} shaccs;

static bool uniform_operand(plan *pl, const lat__expr *u)
{
    return lat__region_uniform(pl, u, false) && !lat__checks_has_site(u) && u->type && lat__is_integer(u->type);
}

static bool shacc_expr(lat__visitor *v, lat__expr *e)
{
    shaccs *a = v->data;
    int var = e->site ? shared_index(a->pl, e) : -1;
    if (var < 0)
        return true; /* a thread's own array, or a __device__ one: no racecheck records */
    shacc x = {var, ((e->site - 1) & LAT_ACCESS_WRITE) != 0, false, false, NULL};
    const lat__expr *i = e->kind == LAT_E_INDEX && e->a->kind == LAT_E_CAST && e->a->a->kind == LAT_E_NAME
                             ? lat__skip_implicit(e->b)
                             : NULL;
    bool ok = i && is_thread_x(i);
    if (!ok && i && uniform_operand(a->pl, i)) {
        x.u = i;
        x.fixed = ok = true;
    }
    if (!ok && i && i->kind == LAT_E_BINARY && (i->op == LAT_P_PLUS || i->op == LAT_P_MINUS)) {
        if (is_thread_x(i->a) && uniform_operand(a->pl, i->b)) {
            x.u = i->b;
            x.minus = i->op == LAT_P_MINUS;
            ok = true;
        } else if (i->op == LAT_P_PLUS && is_thread_x(i->b) && uniform_operand(a->pl, i->a)) {
            x.u = i->a;
            ok = true;
        }
    }
    if (!ok)
        a->other = true;
    else
        LAT_PUSH(&a->pl->u->arena, a->v, x);
    return !a->other;
}

static void offset_of(lat__emitter *em, const shacc *x)
{
    if (!x->u) {
        lat__emit_str(em, "0LL");
        return;
    }
    lat__emit_str(em, x->minus ? "-(long long)(" : "(long long)(");
    lat__emit_expr(em, x->u, LAT_PREC_COMMA);
    lat__emit_str(em, ")");
}

/* Whether racecheck's condition can be written for the open stretch: it is alone in its
 * barrier interval and its __shared__ accesses are all of shacc's forms (*a: those). */
static bool racefree_shape(plan *pl, shaccs *a)
{
    if (!lat__region_fwd_stretch_alone(pl))
        return false;
    *a = (shaccs){pl, {0}, false};
    lat__visitor v = {NULL, shacc_expr, NULL, a};
    visit_items(pl, &v);
    return !a->other;
}

/* racecheck's condition for the open stretch, written: true where no two threads'
 * accesses of it meet, and nothing else in its barrier interval makes an access. A
 * stretch that only reads is so. One whose accesses are all a[t + u]: thread t1's element
 * of one access is thread t2's of another only where t1 - t2 is the difference of their
 * offsets, which the threads it runs (one row, [lo, hi)) must then be too few to span: the
 * halving step `if (t < d) s[t] += s[t + d]`. a: the stretch's racefree_shape. */
static void write_racefree(plan *pl, const shaccs *a)
{
    bool writes = false;
    for (size_t k = 0; k < a->v.n; k++)
        writes |= a->v.items[k].write;
    lat__emitter *em = pl->em;
    if (!writes) {
        lat__emit_str(em, "1");
        return;
    }
    const lat__expr *bound = NULL, *cmp = range_bound(pl, &bound);
    lat__emit_str(em, "(__lat_by == 1 && __lat_bz == 1 && ({ long long __lat_sp = ");
    if (!cmp) {
        lat__emit_str(em, "(long long)__lat_bx");
    } else if (cmp->op == LAT_P_EQ) {
        lat__emit_str(em, "1");
    } else {
        bool u = lat__is_unsigned(cmp->a->type);
        lat__emit_str(em, u ? "({ unsigned long long __lat_e = (unsigned long long)(" : "({ long long __lat_e = (long long)(");
        lat__emit_expr(em, bound, LAT_PREC_COMMA);
        lat__emit_fmt(em, "); %s__lat_e >= __lat_bx ? (long long)__lat_bx : (long long)__lat_e%s; })",
                      u ? "" : "__lat_e < 0 ? 0LL : ", cmp->op == LAT_P_LE ? " + 1" : "");
    }
    lat__emit_str(em, "; 1");
    for (size_t w = 0; w < a->v.n; w++) {
        const shacc *x = &a->v.items[w];
        /* One element for every thread: written by one thread at most. */
        if (x->write && x->fixed)
            lat__emit_str(em, " && __lat_sp <= 1");
        for (size_t k = 0; x->write && k < a->v.n; k++) {
            const shacc *y = &a->v.items[k];
            if (y->var != x->var || k == w)
                continue;
            if (x->fixed || y->fixed) {
                lat__emit_str(em, " && __lat_sp <= 1");
                continue;
            }
            lat__emit_str(em, " && ({ long long __lat_dd = ");
            offset_of(em, y);
            lat__emit_str(em, " - ");
            offset_of(em, x);
            lat__emit_str(em, "; __lat_dd == 0 || __lat_dd >= __lat_sp || -__lat_dd >= __lat_sp; })");
        }
    }
    lat__emit_str(em, "; }))");
}

/* Opens `if (guard) {` before a clean stretch (loop NULL: the open one) or an implicit
 * loop of the forward variant: true where the launch is memcheck's alone, or where the
 * checks' state allows the accesses in it to go unchecked (check/fwd.c). racefree: nothing
 * in the barrier interval around it writes. */
static void guard_open(plan *pl, const lat__stmt *loop, bool racefree)
{
    guarded g = {pl, {0}, false};
    lat__visitor v = {NULL, guard_expr, NULL, &g};
    if (loop)
        lat__visit_stmt(&v, (lat__stmt *)loop);
    else
        visit_items(pl, &v);
    lat__emitter *em = pl->em;
    lat__emit_str(em, "\nif (__lat_cki.plain || __lat_ck_fwd(__lat_t, ");
    if (loop) {
        lat__emit_fmt(em, "%d", racefree ? LAT__CK_FWD_RACEFREE : 0);
    } else {
        /* A stretch's: where its condition holds at run time. */
        lat__emit_str(em, "(");
        shaccs a;
        if (racefree_shape(pl, &a))
            write_racefree(pl, &a);
        else
            lat__emit_str(em, "0");
        lat__emit_fmt(em, " ? %d : 0)", LAT__CK_FWD_RACEFREE);
    }
    lat__emit_fmt(em, " | %d, %zu, ", g.locals ? LAT__CK_FWD_LOCALS : 0, g.vars.n);
    if (!g.vars.n)
        lat__emit_str(em, "(const int *)0");
    for (size_t i = 0; i < g.vars.n; i++)
        lat__emit_fmt(em, "%s%d", i ? ", " : "(const int[]){", g.vars.items[i]);
    lat__emit_str(em, g.vars.n ? "})) {" : ")) {");
}

/* The other branch: the same code with its accesses checked. */
static void guard_else(plan *pl)
{
    pl->em->assured_plain = false;
    pl->label_tail = "c"; /* the stretch's end again, under another name */
    lat__emit_str(pl->em, "\n} else {");
}

static void guard_close(plan *pl)
{
    pl->em->assured_plain = true;
    pl->label_tail = "";
    lat__emit_str(pl->em, "\n}\n");
}

/* Writes the open stretch s: its loop over the threads, the variables it uses from other
 * stretches, its items, the variables it changed stored back. clean: as unchecked code's
 * (the forward variant's, region_fwd.c). */
static void write_stretch(plan *pl, int s, bool clean, bool stable)
{
    lat__emitter *em = pl->em;
    const lat__expr *bound = NULL, *cmp = range_bound(pl, &bound);
    lat__emit_newline(em);
    if (cmp) {
        /* Only the threads the condition selects have anything to do: compare as the
         * condition does, in its operands' type. */
        const lat__type *ct = cmp->a->type;
        if (lat__is_unsigned(ct)) {
            lat__emit_str(em, "{ long long __lat_lo = 0, __lat_hi; unsigned long long __lat_e = (unsigned long long)(");
            lat__emit_expr(em, bound, LAT_PREC_COMMA);
            lat__emit_str(em, ");");
            if (cmp->op == LAT_P_EQ)
                lat__emit_str(em, " if (__lat_e >= __lat_bx) __lat_lo = __lat_hi = 0; else __lat_lo = (long long)__lat_e, __lat_hi = __lat_lo + 1;");
            else
                lat__emit_fmt(em, " __lat_hi = __lat_e >= __lat_bx ? (long long)__lat_bx : (long long)__lat_e%s;"
                                  " if (__lat_hi > __lat_bx) __lat_hi = __lat_bx;",
                              cmp->op == LAT_P_LE ? " + 1" : "");
        } else {
            lat__emit_str(em, "{ long long __lat_lo = 0, __lat_hi, __lat_e = (long long)(");
            lat__emit_expr(em, bound, LAT_PREC_COMMA);
            lat__emit_str(em, "); if (__lat_e < 0) __lat_e = -1;");
            if (cmp->op == LAT_P_EQ)
                lat__emit_str(em, " __lat_lo = __lat_e; __lat_hi = __lat_e + 1;");
            else
                lat__emit_fmt(em, " __lat_hi = __lat_e%s;", cmp->op == LAT_P_LE ? " + 1" : "");
            lat__emit_str(em, " if (__lat_hi > __lat_bx) __lat_hi = __lat_bx; if (__lat_lo < 0) __lat_lo = 0;"
                              " if (__lat_lo > __lat_hi) __lat_lo = __lat_hi;");
        }
    } else {
        lat__emit_str(em, "{ long long __lat_lo = 0, __lat_hi = __lat_bx;");
    }
    const char *skip = pl->seg_all || (pl->level == 0 && !pl->may_exit) ? "" : " if (__lat_sk[__lat_i]) continue;";
    /* Checked code: the empty asm keeps every store of the thread's index before the
     * thread's first instruction that can fault (and that a fault report names it by):
     * gcc otherwise merged the stores and sank them past a division by zero. Checked
     * code calls the checks at every access, so the loop vectorises no less for it. */
    /* In the schedule's order, read from __lat_ord; with none (index order), the threads
     * of [lo, hi) in each row are stepped through, and the others not visited. */
    /* The forward variant's implicit loops and clean stretches (region_fwd.c) hold
     * nothing that reports or faults: they are written as unchecked code's, to vectorise. */
    if (pl->checked && !(pl->fwd && (pl->in_implicit || clean)))
        lat__emit_fmt(em,
                      " { unsigned __lat_fx = (unsigned)__lat_lo, __lat_fy = 0, __lat_fz = __lat_lo < __lat_hi ? 0 : __lat_bz;"
                      " for (__lat_k = 0; __lat_k < 4 * __lat_n; __lat_k += 4) {"
                      " if (!__lat_ord) { if (__lat_fz >= __lat_bz) break;"
                      " __lat_x = __lat_fx; __lat_y = __lat_fy; __lat_z = __lat_fz;"
                      " __lat_i = (__lat_z * __lat_by + __lat_y) * __lat_bx + __lat_x;"
                      " if (++__lat_fx >= (unsigned)__lat_hi) { __lat_fx = (unsigned)__lat_lo;"
                      " if (++__lat_fy >= __lat_by) { __lat_fy = 0; __lat_fz++; } } } else {"
                      " __lat_x = __lat_ord[__lat_k + 1];"
                      " if (__lat_x < (unsigned)__lat_lo || __lat_x >= (unsigned)__lat_hi) continue;"
                      " __lat_i = __lat_ord[__lat_k]; __lat_y = __lat_ord[__lat_k + 2]; __lat_z = __lat_ord[__lat_k + 3]; }"
                      " __lat_t->thread_idx.x = __lat_x; __lat_t->thread_idx.y = __lat_y; __lat_t->thread_idx.z = __lat_z;"
                      " __lat_t->lin = __lat_i; __asm__ __volatile__(\"\" ::: \"memory\");"
                      " { %s%s const uint3 __lat_tid = {__lat_x, __lat_y, __lat_z}; {",
                      pl->seg_pre ? pl->seg_pre : "", skip);
    else {
        /* The thread's index is a local (__lat_tid). The context's x is for what reads it
         * there, a fault's report above all. An implicit loop's stretch (only ever in the
         * optimised variant, region.h), where the loop is to vectorise, stores it once per
         * row unless something else may read it: its faults name a thread of the right row.
         * So does a stretch that nothing can fault in (a warp shuffle's own loads), and the
         * optimised copy's stretch holding a loop left in each thread (thread_loop.c): the
         * store at every thread kept their loops from vectorising (the tiled matmul's k
         * loop: 28 ms against 6). Elsewhere it costs some 20 % (the pi mapper's step, which
         * vectorises with it) and keeps most faults' reports exact. */
        bool per_thread_x = stretch_calls_out(pl) ||
                            (!pl->in_implicit && !clean && stretch_may_fault(pl) &&
                             !(em->global_x && stretch_holds_thread_loop(pl)));
        /* Checked code keeps index order within a stretch, races and all (as TinyCC's):
         * no promise to the optimiser that the threads' turns are independent, but in the
         * forward variant's implicit loops, whose turns already interleave (region_fwd.c). */
        lat__emit_fmt(em,
                      " for (__lat_z = 0; __lat_z < __lat_bz; __lat_z++) { __lat_t->thread_idx.z = __lat_z;"
                      " for (__lat_y = 0; __lat_y < __lat_by; __lat_y++) { __lat_t->thread_idx.y = __lat_y;%s"
                      " __lat_i = (__lat_z * __lat_by + __lat_y) * __lat_bx + (unsigned)__lat_lo;"
                      " %s%s %s%s%s const uint3 __lat_tid = {__lat_x, __lat_y, __lat_z}; {",
                      per_thread_x ? "" : " __lat_t->thread_idx.x = (unsigned)__lat_lo;",
                      pl->checked && !pl->in_implicit ? "" : "__LAT_IVDEP ",
                      em->global_x ? "for (int __lat_g = __lat_gb + (int)__lat_lo; __lat_g < __lat_gb + (int)__lat_hi;"
                                     " __lat_g++, __lat_i++) { __lat_x = (unsigned)(__lat_g - __lat_gb);"
                                   : "for (__lat_x = (unsigned)__lat_lo; __lat_x < (unsigned)__lat_hi; __lat_x++, __lat_i++) {",
                      pl->seg_pre ? pl->seg_pre : "", skip,
                      per_thread_x ? " __lat_t->thread_idx.x = __lat_x;" : "");
    }
    /* Read from the local, not back from the context past the empty asm. */
    em->local_tid = true;
    /* The variables this stretch uses from others: loaded, recomputed (in the order they
     * were declared, since one may be computed from another), or in place. */
    for (size_t k = 0; k < pl->vars.n; k++) {
        lat__sym *v = pl->vars.items[k];
        rvar *r = lat__region_var(v);
        if (r->mark != s || r->declared_seg == s)
            continue;
        const char *name = lat__emit_name(pl->u, v);
        if (r->kind == R_RECOMPUTE) {
            lat__emit_fmt(em, " %s = ", lat__emit_type(pl->u, v->type, name));
            lat__emit_expr(em, r->init, LAT_PREC_ASSIGN);
            lat__emit_str(em, ";");
        } else if (r->kind == R_CAND && !r->in_place) {
            lat__emit_fmt(em, " %s = __lat_r%d[__lat_i];", lat__emit_type(pl->u, v->type, name), r->slot);
        } else if (r->kind == R_CAND) {
            lat__emit_fmt(em, " %s = &__lat_r%d[__lat_i];",
                          lat__emit_type(pl->u, lat__pointer_to(pl->u, v->type),
                                         lat__arena_printf(&pl->u->arena, "__lat_v%d", r->slot)),
                          r->slot);
        }
    }
    /* In place ones declared here need their pointer too. */
    for (size_t k = 0; k < pl->vars.n; k++) {
        lat__sym *v = pl->vars.items[k];
        rvar *r = lat__region_var(v);
        if (r->mark == s && r->declared_seg == s && r->kind == R_CAND && r->in_place)
            lat__emit_fmt(em, " %s = &__lat_r%d[__lat_i];",
                          lat__emit_type(pl->u, lat__pointer_to(pl->u, v->type),
                                         lat__arena_printf(&pl->u->arena, "__lat_v%d", r->slot)),
                          r->slot);
    }
    if (stable && pl->pending.n) {
        /* Each in-line shuffle's source lane, once per thread. */
        lat__emit_str(em, " int __lat_l = (int)(__lat_i & 31);");
        for (size_t k = 0; k < pl->pending.n; k++)
            if (pl->pending.items[k]->op <= LAT_EMU_W_XOR)
                shuffle_source(pl, pl->pending.items[k], pl->pending.items[k]->op);
    }
    if (cmp && em->global_x) {
        /* The loop visits exactly the threads the condition selects (range_bound), and the
         * condition reads nothing a thread changes: in the optimised copy, the test at
         * every thread only kept gcc from loading its arrays contiguously (a tree
         * reduction's step became gathers). */
        lat__emit_str(em, " ");
        lat__emit_stmt(em, pl->items.items[0].s->body);
    } else {
        for (size_t k = 0; k < pl->items.n; k++) {
            lat__emit_str(em, " ");
            print_item(pl, &pl->items.items[k]);
        }
    }
    lat__emit_newline(em);
    lat__emit_fmt(em, " __lat_n%d%s: ;", s, pl->label_tail);
    for (size_t k = 0; k < pl->used.n; k++) {
        lat__sym *v = pl->used.items[k];
        rvar *r = lat__region_var(v);
        if (r->kind == R_CAND && !r->in_place && r->changed == s)
            lat__emit_fmt(em, " __lat_r%d[__lat_i] = %s;", r->slot, lat__emit_name(pl->u, v));
    }
    lat__emit_str(em, " } } } } }");
    em->local_tid = false;
    lat__emit_newline(em);
}

static void seg_close(plan *pl)
{
    if (pl->seg < 0)
        return;
    int s = pl->seg;
    bool clean = pl->fwd && !pl->in_fallback && stretch_is_clean(pl);
    if (pl->dry) {
        pl->pending.n = 0;
        pl->seg = -1;
        return;
    }
    bool stable = stretch_is_stable(pl);
    for (size_t k = 0; k < pl->pending.n; k++) {
        rcoll *c = pl->pending.items[k];
        c->in_line = stable && !warp_uniform_result(c);
        if (!c->in_line)
            results_loop(pl, c);
    }
    shaccs shape;
    if (clean && !pl->in_implicit) {
        /* Unchecked where the checks on and the shadows allow it (initcheck, racecheck),
         * else as the checks would have it: the same stretch, its accesses checked. */
        guard_open(pl, NULL, false);
        write_stretch(pl, s, true, stable);
        guard_else(pl);
        write_stretch(pl, s, false, stable);
        guard_close(pl);
    } else if (pl->fwd && pl->checked && !pl->in_fallback && !pl->in_implicit && racefree_shape(pl, &shape)) {
        /* A checked stretch (a global access in it, which the checks must see) whose
         * accesses proven in bounds meet no other thread's in their interval (the clean
         * stretch's condition, write_racefree): those need racecheck's records no more
         * than memcheck's calls, where no initcheck follows their bytes. */
        lat__emitter *em = pl->em;
        lat__emit_str(em, "\n{ const int __lat_rf = !__lat_cki.plain && !__lat_cki.sh_init && ");
        write_racefree(pl, &shape);
        lat__emit_str(em, ";");
        em->ckp_racefree = "__lat_rf";
        write_stretch(pl, s, false, stable);
        em->ckp_racefree = NULL;
        lat__emit_str(em, "}\n");
    } else {
        write_stretch(pl, s, clean, stable);
    }
    for (size_t k = 0; k < pl->pending.n; k++)
        pl->pending.items[k]->in_line = false;
    pl->pending.n = 0;
    pl->seg = -1;
}

static void seg_open_all(plan *pl, bool all, const char *pre)
{
    if (pl->seg >= 0 && pl->seg_all == all && !pre && !pl->seg_pre)
        return;
    seg_close(pl);
    pl->seg = pl->nseg++;
    pl->seg_all = all;
    pl->seg_pre = pre;
    pl->items.n = 0;
    pl->used.n = 0;
}

static void seg_open(plan *pl)
{
    seg_open_all(pl, false, NULL);
}

static void item_add(plan *pl, item it)
{
    seg_open(pl);
    LAT_PUSH(&pl->u->arena, pl->items, it);
    note_item(pl, &pl->items.items[pl->items.n - 1]);
}

/* Glue over every thread, active or not. */
static void all_loop(plan *pl, const char *body)
{
    seg_close(pl);
    OUT("\nfor (__lat_i = 0; __lat_i < __lat_n; __lat_i++) { %s }\n", body);
}

/* Before a block barrier: the threads that have not exited must all be here. */
static void converged(plan *pl, lat__loc at)
{
    seg_close(pl);
    if (pl->dry)
        return;
    const char *file = lat__emit_c_string(pl->u, lat__loc_file(pl->u, at));
    if (pl->checked) {
        OUT("\n__lat_ck_rbar(__lat_t, %s, %s, %u);\n", pl->may_exit ? "__lat_sk" : "0", file, at.line);
        return;
    }
    if (pl->level == 0)
        return;
    OUT("\n__lat_converged(__lat_t, __lat_sk, __lat_n, %s, %u);\n", file, at.line);
}

typedef LAT_VEC(const lat__expr *) exprvec;

/* The collectives of e, in order. */
static void colls_of(const lat__expr *e, exprvec *out, lat__arena *a)
{
    if (!e)
        return;
    if (e->kind == LAT_E_CALL && e->aux && lat__region_coll_of(e)) {
        LAT_PUSH(a, *out, e);
        return;
    }
    switch (e->kind) {
    case LAT_E_CALL:
        colls_of(e->a, out, a);
        for (int i = 0; i < e->nargs; i++)
            colls_of(e->args[i], out, a);
        return;
    case LAT_E_INIT:
        for (size_t i = 0; i < e->items.n; i++)
            colls_of(e->items.items[i].value, out, a);
        return;
    case LAT_E_SIZEOF:
    case LAT_E_ALIGNOF:
    case LAT_E_STMT:
        return;
    default:
        colls_of(e->a, out, a);
        colls_of(e->b, out, a);
        colls_of(e->c, out, a);
    }
}

/* An expression site holding collectives: each active thread stores their operands in
 * one stretch; block votes are counted; then the consumer runs in the next stretch. */
static void site(plan *pl, const lat__expr *e)
{
    exprvec cs = {0};
    colls_of(e, &cs, &pl->u->arena);
    bool block = false;
    for (size_t i = 0; i < cs.n; i++) {
        const rcoll *c = cs.items[i]->aux;
        if (c->op == LAT_EMU_W_ACTIVE)
            continue;
        item it = {I_STORE, NULL, cs.items[i], NULL, NULL, 0};
        item_add(pl, it);
        block |= c->block;
    }
    seg_close(pl);
    /* The results: in the stretch that uses them when it cannot change which threads are
     * active (seg_close decides), else in a loop of their own before it. */
    for (size_t i = 0; i < cs.n; i++) {
        rcoll *c = cs.items[i]->aux;
        if (!c->block)
            LAT_PUSH(&pl->u->arena, pl->pending, c);
    }
    if (block) {
        converged(pl, e->loc);
        for (size_t i = 0; i < cs.n; i++) {
            const rcoll *c = cs.items[i]->aux;
            if (c->block)
                OUT("\n__lat_bv%d = __lat_bvote(__lat_wv%d, __lat_sk, __lat_n, %d);\n", c->id, c->id,
                    c->op - LAT_RGN_BVOTE);
        }
    }
}

static void gen(plan *pl, const lat__stmt *s);

static void gen_items(plan *pl, const lat__stmt *s)
{
    if (s->kind == LAT_S_COMPOUND)
        for (size_t i = 0; i < s->items.n && !pl->bad; i++)
            gen(pl, s->items.items[i]);
    else
        gen(pl, s);
}

/* A statement at block level, printed as it is (a uniform declaration or update, or a
 * block-level control's header part). */
static void block_stmt(plan *pl, const lat__stmt *s)
{
    seg_close(pl);
    if (pl->dry)
        return;
    lat__emit_newline(pl->em);
    pl->rewrite_coll = true;
    lat__emit_stmt(pl->em, s);
    pl->rewrite_coll = false;
}

static void gen_decl(plan *pl, const lat__stmt *s)
{
    if (!s->decls)
        return;
    for (lat__decl *d = s->decls->first; d; d = d->next) {
        if (lat__region_block_decl(d)) {
            seg_close(pl);
            if (!pl->dry) {
                lat__emit_newline(pl->em);
                print_decl(pl, d);
            }
            continue;
        }
        if (d->init && lat__region_has_coll(d->init))
            site(pl, d->init);
        item it = {I_DECL, NULL, NULL, d, NULL, 0, s};
        item_add(pl, it);
    }
}

static void gen_if(plan *pl, const lat__stmt *s)
{
    rstmt *r = lat__region_rs(pl, s);
    if (r->uniform) {
        if (lat__region_has_coll(s->e))
            site(pl, s->e); /* block votes: their results are the block's */
        seg_close(pl);
        OUT("\n");
        if (!pl->dry) {
            lat__emit_at(pl->em, s->loc);
            lat__emit_str(pl->em, "if (");
            pl->rewrite_coll = true;
            lat__emit_expr(pl->em, s->e, LAT_PREC_COMMA);
            pl->rewrite_coll = false;
            lat__emit_str(pl->em, ") {");
        }
        gen_items(pl, s->body);
        seg_close(pl);
        OUT("\n} else {\n");
        if (s->els)
            gen_items(pl, s->els);
        seg_close(pl);
        OUT("\n}\n");
        return;
    }
    int L = r->level, outer = pl->level;
    pl->level = L;
    if (lat__region_has_coll(s->e))
        site(pl, s->e);
    item c = {I_COND, NULL, s->e, NULL, NULL, L};
    item_add(pl, c);
    gen_items(pl, s->body);
    char text[192];
    if (s->els) {
        snprintf(text, sizeof text,
                 "if (__lat_sk[__lat_i] == %d) __lat_sk[__lat_i] = 0; else if (!__lat_sk[__lat_i]) __lat_sk[__lat_i] = %d;",
                 2 * L, 2 * L);
        all_loop(pl, text);
        gen_items(pl, s->els);
    }
    snprintf(text, sizeof text, "if (__lat_sk[__lat_i] == %d) __lat_sk[__lat_i] = 0;", 2 * L);
    all_loop(pl, text);
    pl->level = outer;
}

/* Block-level control: the loop runs once for the block. The stretch before it is not the
 * loop's: closed first. */
static void gen_uniform_loop(plan *pl, const lat__stmt *s, rstmt *r)
{
    seg_close(pl);
    pl->in_implicit += r->implicit;
    if (s->init && s->kind == LAT_S_FOR) {
        seg_close(pl);
        OUT("\n{");
        if (s->init->kind == LAT_S_DECL)
            gen_decl(pl, s->init);
        else
            block_stmt(pl, s->init);
        seg_close(pl);
    }
    seg_close(pl);
    OUT("\n");
    if (!pl->dry) {
        lat__emitter *em = pl->em;
        lat__emit_at(em, s->loc);
        if (s->kind == LAT_S_DO)
            lat__emit_str(em, "do {");
        else {
            lat__emit_str(em, s->kind == LAT_S_WHILE ? "while (" : "for (; ");
            /* A checked loop's turn is a step of the hang detector's (emit.c). */
            if (s->e && pl->checked && r->implicit)
                lat__emit_str(em, "__LAT_TICK, ");
            if (s->e)
                lat__emit_expr(em, s->e, LAT_PREC_COMMA);
            if (s->kind == LAT_S_FOR) {
                lat__emit_str(em, "; ");
                if (s->step)
                    lat__emit_expr(em, s->step, LAT_PREC_COMMA);
            }
            lat__emit_str(em, ") {");
        }
    }
    gen_items(pl, s->body);
    seg_close(pl);
    if (!pl->dry && s->kind == LAT_S_DO) {
        lat__emit_str(pl->em, "\n} while (");
        lat__emit_expr(pl->em, s->e, LAT_PREC_COMMA);
        lat__emit_str(pl->em, ");");
    } else {
        OUT("\n}");
    }
    if (s->init && s->kind == LAT_S_FOR)
        OUT("}");
    OUT("\n");
    pl->in_implicit -= r->implicit;
}

/* Whether `loop`, an implicit loop, cannot be its guard's checked branch, a stretch running
 * each thread's turns: it writes a block-level variable declared outside it (each thread
 * would), or declares one kept in per-thread storage (a loop of its own inside it). */
typedef struct outer_writes {
    lat__arena *arena;
    LAT_VEC(const lat__sym *) declared;
    bool found;
} outer_writes;

static bool declared_stmt(lat__visitor *v, lat__stmt *s)
{
    outer_writes *o = v->data;
    if (s->kind == LAT_S_DECL && s->decls)
        for (lat__decl *d = s->decls->first; d; d = d->next) {
            rvar *r = lat__region_var(d->sym);
            o->found |= r && r->kind == R_CAND;
            LAT_PUSH(o->arena, o->declared, d->sym);
        }
    return true;
}

static bool written_expr(lat__visitor *v, lat__expr *e)
{
    outer_writes *o = v->data;
    const lat__sym *s = lat__assigned_var(e);
    if (!s)
        return true;
    rvar *r = lat__region_var(s);
    bool inside = false;
    for (size_t i = 0; i < o->declared.n && !inside; i++)
        inside = o->declared.items[i] == s;
    o->found |= r && r->kind == R_UNIFORM && !inside;
    return !o->found;
}

static bool fallback_unsafe(plan *pl, const lat__stmt *loop)
{
    outer_writes o = {&pl->u->arena, {0}, false};
    lat__visitor d = {declared_stmt, NULL, NULL, &o};
    lat__visit_stmt(&d, (lat__stmt *)loop);
    lat__visitor w = {NULL, written_expr, NULL, &o};
    lat__visit_stmt(&w, (lat__stmt *)loop);
    return o.found;
}

static void gen_loop(plan *pl, const lat__stmt *s)
{
    rstmt *r = lat__region_rs(pl, s);
    if (r->uniform && r->implicit && pl->fwd && !pl->in_implicit && !pl->in_fallback) {
        /* The forward variant's implicit loop, guarded (guard_open): its checked branch is
         * one stretch holding the loop, each thread's turns in order. */
        bool strict, racefree;
        lat__region_fwd_interval(pl, s, &strict, &racefree);
        if (!strict || fallback_unsafe(pl, s)) {
            pl->fwd_loose = true;
            gen_uniform_loop(pl, s, r);
            return;
        }
        seg_close(pl);
        if (!pl->dry)
            guard_open(pl, s, racefree);
        gen_uniform_loop(pl, s, r);
        if (!pl->dry)
            guard_else(pl);
        pl->in_fallback = true;
        item it = {I_STMT, s, NULL, NULL, NULL, 0};
        item_add(pl, it);
        seg_close(pl);
        pl->in_fallback = false;
        if (!pl->dry)
            guard_close(pl);
        return;
    }
    if (r->uniform) {
        gen_uniform_loop(pl, s, r);
        return;
    }
    int L = r->level, outer = pl->level;
    pl->level = L;
    seg_close(pl);
    OUT("\n{");
    if (s->kind == LAT_S_FOR && s->init) {
        if (s->init->kind == LAT_S_DECL) {
            gen_decl(pl, s->init);
        } else if (s->init->e) {
            if (lat__region_has_coll(s->init->e))
                site(pl, s->init->e);
            item it = {I_EVAL, NULL, s->init->e, NULL, NULL, 0};
            item_add(pl, it);
        }
    }
    if (s->kind != LAT_S_DO && s->e) {
        if (lat__region_has_coll(s->e))
            site(pl, s->e);
        item c = {I_COND, NULL, s->e, NULL, NULL, L};
        item_add(pl, c);
    }
    seg_close(pl);
    OUT("\nfor (;;) { if (!__lat_active(__lat_sk, __lat_n)) break;\n");
    gen_items(pl, s->body);
    char *text = lat__arena_printf(&pl->u->arena, "if (__lat_sk[__lat_i] == %d) __lat_sk[__lat_i] = 0;", 2 * L + 1);
    seg_open_all(pl, false, text);
    if (s->kind == LAT_S_FOR && s->step) {
        if (lat__region_has_coll(s->step))
            site(pl, s->step);
        item it = {I_EVAL, NULL, s->step, NULL, NULL, 0};
        item_add(pl, it);
    }
    if (s->e) {
        if (lat__region_has_coll(s->e))
            site(pl, s->e);
        item c = {I_COND, NULL, s->e, NULL, NULL, L};
        item_add(pl, c);
    }
    seg_close(pl);
    OUT("\n}\n");
    char reset[96];
    snprintf(reset, sizeof reset, "if (__lat_sk[__lat_i] == %d) __lat_sk[__lat_i] = 0;", 2 * L);
    all_loop(pl, reset);
    OUT("}\n");
    pl->level = outer;
}

static void gen(plan *pl, const lat__stmt *s)
{
    if (!s || pl->bad)
        return;
    rstmt *r = lat__region_rs(pl, s);
    if (!r->block) {
        item it = {I_STMT, s, NULL, NULL, NULL, 0};
        item_add(pl, it);
        return;
    }
    bool block;
    switch (s->kind) {
    case LAT_S_COMPOUND:
        seg_close(pl);
        OUT("\n{");
        gen_items(pl, s);
        seg_close(pl);
        OUT("\n}\n");
        return;
    case LAT_S_EXPR:
        if (lat__region_barrier_statement(s, &block)) {
            seg_close(pl);
            if (block)
                converged(pl, s->loc);
            return; /* a warp barrier: each stretch runs every thread to its end */
        }
        if (!r->sync) {
            block_stmt(pl, s); /* a uniform update */
            return;
        }
        site(pl, s->e);
        {
            item it = {I_EVAL, NULL, s->e, NULL, NULL, 0};
            item_add(pl, it);
        }
        return;
    case LAT_S_DECL:
        gen_decl(pl, s);
        return;
    case LAT_S_IF:
        gen_if(pl, s);
        return;
    case LAT_S_FOR:
    case LAT_S_WHILE:
    case LAT_S_DO:
        gen_loop(pl, s);
        return;
    default:
        lat__region_fail(pl, "a statement region loops cannot place");
        return;
    }
}

/* The threads' states (__lat_sk), made at every block, cost a tree reduction's block 4 %
 * of its time where nothing reads them: once the body is written, a state nothing in it
 * names is blanked out (the span is kept, so that the output's lines stay where they were). */
static void drop_unread_states(lat__emitter *em, size_t at, size_t end)
{
    if (!strstr(em->buf + end, "__lat_sk")) /* the output is a C string (emit.c) */
        memset(em->buf + at, ' ', end - at);
}

/* The block's state, the collectives' slots, the variables' storage. Sets [*sk_at,
 * *sk_end) to the threads' states' text (drop_unread_states). */
static void head(plan *pl, size_t *sk_at, size_t *sk_end)
{
    lat__emitter *em = pl->em;
    lat__emit_str(em, "{ unsigned long __lat_i; unsigned __lat_x, __lat_y, __lat_z, __lat_bx = __lat_t->block_dim.x,"
                      " __lat_by = __lat_t->block_dim.y, __lat_bz = __lat_t->block_dim.z,"
                      " __lat_n = __lat_t->nthreads, __lat_n32 = (__lat_n + 31) & ~31u;");
    *sk_at = em->len;
    lat__emit_fmt(em,
                  " int *__lat_sk = __lat_scratch(__lat_t, sizeof(int) * __lat_n32);"
                  " for (__lat_i = 0; __lat_i < __lat_n32; __lat_i++) __lat_sk[__lat_i] = __lat_i < __lat_n ? 0 : %d;",
                  EXITED);
    *sk_end = em->len;
    if (pl->checked)
        lat__emit_str(em, " unsigned __lat_k; const unsigned *__lat_ord = __lat_ck_rorder(__lat_t);");
    lat__emit_block_uniforms(em);
    for (size_t k = 0; k < pl->colls.n; k++) {
        const rcoll *c = pl->colls.items[k];
        if (c->op == -1 || c->op == LAT_EMU_W_SYNC)
            continue;
        lat__emit_fmt(em, " unsigned long long *__lat_wv%d = __lat_scratch(__lat_t, 8 * __lat_n32);", c->id);
        if (c->op < LAT_RGN_BVOTE)
            lat__emit_fmt(em, " unsigned long long *__lat_wr%d = __lat_scratch(__lat_t, 8 * __lat_n32);", c->id);
        if (c->mask_slot)
            lat__emit_fmt(em, " unsigned *__lat_wm%d = __lat_scratch(__lat_t, 4 * __lat_n32);", c->id);
        if (c->op == LAT_EMU_W_MATCH_ALL)
            lat__emit_fmt(em, " int *__lat_wp%d = __lat_scratch(__lat_t, 4 * __lat_n32);", c->id);
        if (c->arg_slot)
            lat__emit_fmt(em, " int *__lat_wa%d = __lat_scratch(__lat_t, 4 * __lat_n32);", c->id);
        if (c->width_slot)
            lat__emit_fmt(em, " int *__lat_ww%d = __lat_scratch(__lat_t, 4 * __lat_n32);", c->id);
        if (c->block)
            lat__emit_fmt(em, " int __lat_bv%d;", c->id);
    }
    for (size_t k = 0; k < pl->vars.n; k++) {
        lat__sym *v = pl->vars.items[k];
        rvar *r = lat__region_var(v);
        if (r->kind != R_CAND)
            continue;
        char *decl = lat__arena_printf(&pl->u->arena, "__lat_r%d", r->slot);
        lat__emit_fmt(em, " %s = __lat_scratch(__lat_t, sizeof(%s) * __lat_n);",
                      lat__emit_type(pl->u, lat__pointer_to(pl->u, lat__unqualified(pl->u, v->type)), decl),
                      slot_type(pl, v));
        if (v->flags & LAT_SF_PARAM) {
            const lat__symx *x = lat__symx_of(pl->u, v);
            lat__emit_fmt(em, " for (__lat_i = 0; __lat_i < __lat_n; __lat_i++) __lat_r%d[__lat_i] = %s;", r->slot,
                          x->param_name ? x->param_name : lat__emit_name(pl->u, v));
        }
    }
}

void lat__region_generate(plan *pl, lat__emitter *em)
{
    pl->em = em;
    pl->dry = em == NULL;
    pl->level = 0;
    pl->nseg = 0;
    pl->seg = -1;
    pl->items.n = 0;
    pl->used.n = 0;
    for (size_t k = 0; k < pl->vars.n; k++) {
        rvar *r = lat__region_var(pl->vars.items[k]);
        r->mark = -3;
        r->changed = -3;
        if (pl->dry) {
            r->crosses = false;
            r->declared_seg = (pl->vars.items[k]->flags & LAT_SF_PARAM) ? -1 : -2;
        }
    }
    lat__emit_hooks saved = {0};
    size_t sk_at = 0, sk_end = 0;
    if (em) {
        saved = em->hooks;
        em->hooks = (lat__emit_hooks){region_expr_hook, region_stmt_hook, pl};
        lat__emit_at(em, pl->fn->body->loc);
        head(pl, &sk_at, &sk_end);
    }
    gen_items(pl, pl->fn->body);
    seg_close(pl);
    if (em) {
        drop_unread_states(em, sk_at, sk_end);
        lat__emit_at(em, pl->fn->body->end);
        lat__emit_str(em, " }");
        em->hooks = saved;
        return;
    }
    /* After the dry run: what crosses stretches gets storage (named once the plan is
     * taken: lat__region_name_vars). */
    for (size_t k = 0; k < pl->vars.n; k++) {
        lat__sym *v = pl->vars.items[k];
        rvar *r = lat__region_var(v);
        /* A static or extern local is one variable of the module, shared by every
         * thread (and launch): never a per-thread copy. */
        bool automatic = v->storage == LAT_ST_NONE || v->storage == LAT_ST_REGISTER;
        /* One whose address is taken may be reached through a pointer in a later stretch
         * (float *pa = &a; __syncthreads(); ... *pa), where its stretch's block has ended
         * and every thread's copy was one slot: each thread's lives in its storage. */
        bool escapes = (v->flags & LAT_SF_ADDRESS_TAKEN) && pl->nseg > 1;
        if (r->kind == R_NONE && automatic && (r->crosses || escapes || (v->flags & LAT_SF_PARAM))) {
            r->kind = R_CAND;
            r->slot = pl->nslots++;
            r->in_place = v->type->kind == LAT_TY_ARRAY || lat__is_record(v->type) ||
                          (v->flags & LAT_SF_ADDRESS_TAKEN);
        }
    }
}

void lat__region_name_vars(plan *pl)
{
    /* Only a plan that is taken renames: a kernel that goes to fibers after its dry run
     * must keep its variables' own names (it declares them as written). */
    for (size_t k = 0; k < pl->vars.n; k++) {
        lat__sym *v = pl->vars.items[k];
        rvar *r = lat__region_var(v);
        lat__symx *x = lat__symx_of(pl->u, v);
        bool param = (v->flags & LAT_SF_PARAM) != 0;
        if (r->kind == R_CAND && r->in_place) {
            /* an address-taken parameter: the signature keeps a name for its value */
            if (param)
                x->param_name = lat__arena_printf(&pl->u->arena, "%s__lat_in", v->name->name);
            x->name = lat__arena_printf(&pl->u->arena, "(*__lat_v%d)", r->slot);
        } else if (!param) {
            x->name = lat__arena_printf(&pl->u->arena, "%s__%zu", v->name->name, k);
        }
    }
}
