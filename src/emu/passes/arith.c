/*
 * GPU arithmetic where C's differs (arith.h): the tree's operators rewritten, in device
 * code, into what computes the GPU's result on a CPU.
 *   - A shift by a count that is not a constant below the width: PTX clamps the count
 *     (x << 32 is 0, a signed x >> 40 is its sign), x86 takes it modulo the width.
 *   - A floating value converted to an integer (a cast, an assignment, an argument, a
 *     return, a compound assignment): the GPU's cvt.rzi saturates and sends NaN to a
 *     fixed value; C leaves both undefined and x86 gives 0x80000000.
 *   - a*b + c and its kin: NVRTC contracts them into one fused multiply-add by default
 *     (--fmad=true), rounding once; C rounds twice. cuda_fp16.h's products and sums are
 *     calls: half_fma.c fuses those.
 */
#include "arith.h"
#include "half_fma.h"

#include "front/front.h"
#include "front/type.h"
#include "front/visit.h"

#include <string.h>

typedef struct arith {
    lat__unit *u;
    bool fmad;
    lat__visitor *statements; /* rewrites the statements of a ({ ... }) */
} arith;

static lat__expr *call(arith *a, const char *name, lat__expr *x, lat__expr *y, lat__expr *z, lat__type *t,
                       lat__loc loc)
{
    lat__sym *fn = lat__unit_builtin(a->u, name);
    lat__expr *e = lat__arena_alloc(&a->u->arena, sizeof *e);
    e->kind = LAT_E_CALL;
    e->loc = loc;
    e->type = t;
    e->sym = fn;
    lat__expr *f = lat__arena_alloc(&a->u->arena, sizeof *f);
    f->kind = LAT_E_NAME;
    f->loc = loc;
    f->sym = fn;
    f->type = fn && fn->type ? fn->type : &lat__ty_int;
    e->a = f;
    int n = z ? 3 : y ? 2 : 1;
    e->args = lat__arena_alloc(&a->u->arena, (size_t)n * sizeof *e->args);
    e->args[0] = x;
    if (y)
        e->args[1] = y;
    if (z)
        e->args[2] = z;
    e->nargs = n;
    return e;
}

static lat__expr *cast(arith *a, lat__expr *x, lat__type *t)
{
    lat__expr *c = lat__arena_alloc(&a->u->arena, sizeof *c);
    c->kind = LAT_E_CAST;
    c->loc = x->loc;
    c->a = x;
    c->to = c->type = t;
    return c;
}

/* ---- conversions -------------------------------------------------------------------------- */

/* The helper converting a floating value of type from to integer type to. */
static const char *conversion(const lat__type *from, const lat__type *to)
{
    static const char *const f[2][4][2] = {
        {{"__lat_f2i_s8", "__lat_f2i_u8"}, {"__lat_f2i_s16", "__lat_f2i_u16"},
         {"__lat_f2i_s32", "__lat_f2i_u32"}, {"__lat_f2i_s64", "__lat_f2i_u64"}},
        {{"__lat_d2i_s8", "__lat_d2i_u8"}, {"__lat_d2i_s16", "__lat_d2i_u16"},
         {"__lat_d2i_s32", "__lat_d2i_u32"}, {"__lat_d2i_s64", "__lat_d2i_u64"}},
    };
    if (to->kind == LAT_TY_BOOL)
        return NULL; /* x != 0, the same everywhere */
    uint32_t size = lat__sizeof(to);
    int w = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3;
    return f[from->kind != LAT_TY_FLOAT][w][lat__is_unsigned(to)];
}

/* ---- shifts -------------------------------------------------------------------------------- */

/* Whether a shift by e needs the GPU's clamp: e is not a constant below the width. */
static bool needs_clamp(const lat__expr *count, uint32_t bits)
{
    if (!(count->flags & LAT_EF_CONST))
        return true;
    if (lat__is_unsigned(count->type))
        return (uint64_t)count->ival >= bits;
    return count->ival < 0 || count->ival >= (int64_t)bits;
}

static const char *shift_helper(bool left, const lat__type *t)
{
    bool wide = lat__sizeof(t) > 4, uns = lat__is_unsigned(t);
    static const char *const names[2][2][2] = {
        {{"__lat_shr_i32", "__lat_shr_u32"}, {"__lat_shr_i64", "__lat_shr_u64"}},
        {{"__lat_shl_i32", "__lat_shl_u32"}, {"__lat_shl_i64", "__lat_shl_u64"}},
    };
    return names[left][wide][uns];
}

/* ---- fused multiply-add ---------------------------------------------------------------------- */

static const lat__expr *plain(const lat__expr *e)
{
    while (e->kind == LAT_E_CAST && (e->flags & LAT_EF_IMPLICIT) && e->a && e->a->type->kind == e->type->kind)
        e = e->a;
    return e;
}

/* A product of type t as an operand: its two factors, negated when it is -(x*y). */
static bool product(const lat__expr *e, lat__tykind t, lat__expr **x, lat__expr **y, bool *neg)
{
    e = plain(e);
    *neg = false;
    if (e->kind == LAT_E_UNARY && e->op == LAT_P_MINUS) {
        *neg = true;
        e = plain(e->a);
    }
    if (e->kind != LAT_E_BINARY || e->op != LAT_P_STAR || e->type->kind != t)
        return false;
    *x = e->a;
    *y = e->b;
    return true;
}

static lat__expr *negate(arith *a, lat__expr *x)
{
    lat__expr *n = lat__arena_alloc(&a->u->arena, sizeof *n);
    n->kind = LAT_E_UNARY;
    n->op = LAT_P_MINUS;
    n->loc = x->loc;
    n->a = x;
    n->type = x->type;
    return n;
}

/* p + q or p - q of floating type: the fma it contracts into, or NULL. NVRTC's (LLVM's)
 * choice: the left operand's product if it is one, else the right's. */
static lat__expr *contract(arith *a, lat__expr *p, lat__expr *q, bool minus, lat__type *t, lat__loc loc)
{
    lat__tykind k = (lat__tykind)t->kind;
    if (k != LAT_TY_FLOAT && k != LAT_TY_DOUBLE)
        return NULL;
    lat__expr *x, *y;
    bool neg;
    const char *fn = k == LAT_TY_FLOAT ? "fmaf" : "fma";
    if (product(p, k, &x, &y, &neg)) {
        /* x*y + q, x*y - q */
        return call(a, fn, neg ? negate(a, x) : x, y, minus ? negate(a, q) : q, t, loc);
    }
    if (product(q, k, &x, &y, &neg)) {
        /* p + x*y, p - x*y */
        return call(a, fn, (neg != minus) ? negate(a, x) : x, y, p, t, loc);
    }
    return NULL;
}

/* ---- the rewrite --------------------------------------------------------------------------- */

/* Whether evaluating e twice is the same as once: no side effect, nothing volatile. */
static bool pure(const lat__expr *e)
{
    if (!e)
        return true;
    if (e->type && (e->type->quals & LAT_Q_VOLATILE))
        return false;
    switch (e->kind) {
    case LAT_E_ASSIGN:
    case LAT_E_POSTFIX:
    case LAT_E_CALL:
    case LAT_E_STMT:
    case LAT_E_COMPOUND:
    case LAT_E_INIT:
        return false;
    case LAT_E_UNARY:
        if (e->op == LAT_P_INC || e->op == LAT_P_DEC)
            return false;
        return pure(e->a);
    default:
        return pure(e->a) && pure(e->b) && pure(e->c);
    }
}

static lat__expr *rewrite(arith *a, lat__expr *e);

/* a op= b whose result C converts or shifts its own way: a = (a op b) done the GPU's way,
 * when a can be evaluated twice; NULL when not. */
static lat__expr *expand_compound(arith *a, lat__expr *e, lat__punct op)
{
    if (!pure(e->a))
        return NULL;
    lat__expr *lhs_read = lat__arena_alloc(&a->u->arena, sizeof *lhs_read);
    *lhs_read = *e->a;
    lat__type *lt = lat__unqualified(a->u, e->a->type);
    lat__expr *l = lhs_read;
    lat__type *ct;
    if (op == LAT_P_SHL || op == LAT_P_SHR) {
        ct = lat__promote(lt);
        if (!lat__type_same(ct, lt))
            l = cast(a, lhs_read, ct);
    } else {
        ct = lat__usual_arith(lt, e->b->type);
        if (!lat__type_same(ct, lt))
            l = cast(a, lhs_read, ct);
    }
    lat__expr *bin = lat__arena_alloc(&a->u->arena, sizeof *bin);
    bin->kind = LAT_E_BINARY;
    bin->op = (uint8_t)op;
    bin->loc = e->loc;
    bin->a = l;
    bin->b = e->b;
    bin->type = ct;
    lat__expr *v = bin;
    if (!lat__type_same(ct, lt)) {
        v = cast(a, bin, lt);
        v->flags |= LAT_EF_IMPLICIT;
    }
    lat__expr *as = lat__arena_alloc(&a->u->arena, sizeof *as);
    *as = *e;
    as->op = LAT_P_ASSIGN;
    as->b = v;
    return rewrite(a, as);
}

static void rewrite_children(arith *a, lat__expr *e)
{
    switch (e->kind) {
    case LAT_E_CALL:
        e->a = rewrite(a, e->a);
        for (int i = 0; i < e->nargs; i++)
            e->args[i] = rewrite(a, e->args[i]);
        return;
    case LAT_E_INIT:
        for (size_t i = 0; i < e->items.n; i++)
            e->items.items[i].value = rewrite(a, e->items.items[i].value);
        return;
    case LAT_E_STMT:
        lat__visit_stmt(a->statements, e->stmt);
        return;
    case LAT_E_SIZEOF:
    case LAT_E_ALIGNOF:
    case LAT_E_OFFSETOF:
        return;
    default:
        if (e->a)
            e->a = rewrite(a, e->a);
        if (e->b)
            e->b = rewrite(a, e->b);
        if (e->c)
            e->c = rewrite(a, e->c);
        return;
    }
}

static lat__expr *rewrite(arith *a, lat__expr *e)
{
    if (!e)
        return e;
    if (e->kind == LAT_E_ASSIGN && e->op != LAT_P_ASSIGN) {
        lat__punct op = lat__compound_base(e->op);
        lat__type *lt = e->a->type;
        bool fconv = lat__is_integer(lt) && lat__is_floating(e->b->type);
        bool shift = (op == LAT_P_SHL || op == LAT_P_SHR) &&
                     needs_clamp(e->b, lat__sizeof(lat__promote(lat__unqualified(a->u, lt))) * 8);
        bool fma = a->fmad && lat__is_floating(lt) && (op == LAT_P_PLUS || op == LAT_P_MINUS);
        if (fma) {
            lat__expr *x, *y;
            bool neg;
            fma = product(e->b, (lat__tykind)lat__unqualified(a->u, lt)->kind, &x, &y, &neg);
        }
        if (fconv || shift || fma) {
            lat__expr *x = expand_compound(a, e, op);
            if (x)
                return x;
        }
    }
    rewrite_children(a, e);
    switch (e->kind) {
    case LAT_E_CALL: {
        lat__expr *f = a->fmad ? lat__half_contract(a->u, e) : NULL;
        return f ? f : e;
    }
    case LAT_E_CAST: {
        const lat__type *from = e->a->type;
        if (lat__is_floating(from) && lat__is_integer(e->type) && e->type->kind != LAT_TY_ENUM) {
            /* To 8 and 16 bits, NVPTX converts to 32 (saturating there) and keeps the low
             * bits: (short)32768.0 is -32768 on the GPU, as lat_array_arange relies on. */
            lat__type *to = lat__unqualified(a->u, e->type);
            bool narrow = to->kind != LAT_TY_BOOL && lat__sizeof(to) < 4;
            lat__type *via = narrow ? (lat__is_unsigned(to) ? &lat__ty_uint : &lat__ty_int) : to;
            const char *fn = conversion(from, via);
            if (fn) {
                lat__expr *arg = e->a;
                if (from->kind == LAT_TY_LDOUBLE)
                    arg = cast(a, arg, &lat__ty_double);
                lat__expr *c = call(a, fn, arg, NULL, NULL, via, e->loc);
                return narrow ? cast(a, c, to) : c;
            }
        }
        return e;
    }
    case LAT_E_BINARY:
        if ((e->op == LAT_P_SHL || e->op == LAT_P_SHR) && lat__is_integer(e->type) &&
            needs_clamp(e->b, lat__sizeof(e->type) * 8)) {
            lat__expr *count = cast(a, e->b, &lat__ty_uint);
            return call(a, shift_helper(e->op == LAT_P_SHL, e->type), e->a, count, NULL, e->type, e->loc);
        }
        if (a->fmad && (e->op == LAT_P_PLUS || e->op == LAT_P_MINUS)) {
            lat__expr *f = contract(a, e->a, e->b, e->op == LAT_P_MINUS, e->type, e->loc);
            if (f)
                return f;
        }
        return e;
    default:
        return e;
    }
}

static bool rewrite_root(lat__visitor *v, lat__expr *e)
{
    (void)v;
    (void)e;
    return false;
}

/* Statements hold their expressions in fields: each is rewritten in place. */
static bool rewrite_stmt(lat__visitor *v, lat__stmt *s)
{
    arith *a = v->data;
    s->e = rewrite(a, s->e);
    s->step = rewrite(a, s->step);
    if (s->kind == LAT_S_DECL && s->decls)
        for (lat__decl *d = s->decls->first; d; d = d->next)
            d->init = rewrite(a, d->init);
    return true;
}

/* An arm lat__arith_select_both takes (depth bounds the walk). */
static bool cheap_arm(const lat__expr *e, int depth)
{
    if (!e || depth > 24 || !e->type || !lat__is_arith(e->type) || (e->type->quals & LAT_Q_VOLATILE))
        return false;
    switch (e->kind) {
    case LAT_E_INT:
    case LAT_E_FLOAT:
        return true;
    case LAT_E_NAME: {
        const lat__sym *s = e->sym;
        return s && s->kind == LAT_SYM_VAR && !(s->cuda & LAT_CU_SHARED) &&
               ((s->flags & LAT_SF_PARAM) ||
                (s->depth > 0 && (s->storage == LAT_ST_NONE || s->storage == LAT_ST_REGISTER)));
    }
    case LAT_E_MEMBER: /* threadIdx.x, blockDim.y... */
        return !(e->flags & LAT_EF_ARROW) && e->a && e->a->kind == LAT_E_NAME && e->a->sym &&
               (e->a->sym->flags & (LAT_SF_THREAD_VARYING | LAT_SF_BLOCK_UNIFORM));
    case LAT_E_CAST: /* to floating, or between integers: no conversion that saturates */
        return e->a && e->a->type && (lat__is_floating(e->type) || lat__is_integer(e->a->type)) &&
               cheap_arm(e->a, depth + 1);
    case LAT_E_UNARY:
        return (e->op == LAT_P_MINUS || e->op == LAT_P_PLUS) && cheap_arm(e->a, depth + 1);
    case LAT_E_BINARY:
        switch (e->op) {
        case LAT_P_PLUS: case LAT_P_MINUS: case LAT_P_STAR:
        case LAT_P_LT: case LAT_P_GT: case LAT_P_LE: case LAT_P_GE: case LAT_P_EQ: case LAT_P_NE:
            break;
        case LAT_P_SLASH: /* an integer division traps */
            if (!lat__is_floating(e->type))
                return false;
            break;
        default:
            return false;
        }
        return cheap_arm(e->a, depth + 1) && cheap_arm(e->b, depth + 1);
    case LAT_E_CALL: {
        static const char *const cheap[] = {"fmaf", "fma", "sqrtf", "sqrt", "fabsf", "fabs",
                                            "fminf", "fmin", "fmaxf", "fmax"};
        const lat__sym *s = e->sym;
        bool known = false;
        for (size_t i = 0; s && (s->flags & LAT_SF_BUILTIN) && s->name && i < sizeof cheap / sizeof *cheap; i++)
            known |= strcmp(s->name->name, cheap[i]) == 0;
        for (int i = 0; known && i < e->nargs; i++)
            known = cheap_arm(e->args[i], depth + 1);
        return known;
    }
    default:
        return false;
    }
}

bool lat__arith_select_both(const lat__expr *e)
{
    return e->kind == LAT_E_COND && e->b && e->type && lat__is_floating(e->type) && pure(e->a) &&
           cheap_arm(e->b, 0) && cheap_arm(e->c, 0);
}

void lat__arith_rewrite(lat__unit *u, bool fmad)
{
    arith a = {u, fmad, NULL};
    lat__tu *tu = u->tu;
    for (size_t i = 0; i < tu->items.n; i++) {
        lat__ext *x = &tu->items.items[i];
        if (x->kind != LAT_X_FUNC || !(x->fn->sym->cuda & (LAT_CU_GLOBAL | LAT_CU_DEVICE)))
            continue;
        lat__visitor v = {rewrite_stmt, rewrite_root, NULL, &a};
        a.statements = &v;
        lat__visit_stmt(&v, x->fn->body);
    }
}
