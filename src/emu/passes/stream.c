/* Streaming stores for map kernels: the shape, and its vector code (stream.h). */
#include "stream.h"

#include "front/builtins.h"
#include "front/tok.h"
#include "front/type.h"
#include "front/visit.h"

#include <string.h>

enum { MAX_DEPTH = 8, MAX_LOCALS = 32, MAX_BOUNDS = 4, LINE = 64 };

/* ---- the thread's global x index ------------------------------------------------------------ */

/* What an integer expression is, in terms of the built-ins. */
enum { V_OTHER, V_TID, V_BID, V_BDIM, V_BASE /* blockIdx.x * blockDim.x */, V_GLOBAL };

static bool wide_int(const lat__type *t)
{
    return t && lat__is_integer(t) && t->kind != LAT_TY_ENUM && t->size >= 4 &&
           !(t->quals & LAT_Q_VOLATILE);
}

/* threadIdx.x, blockIdx.x or blockDim.x. */
static int builtin_x(const lat__expr *e)
{
    if (e->kind != LAT_E_MEMBER || (e->flags & LAT_EF_ARROW) || !e->field || !e->field->name ||
        strcmp(e->field->name->name, "x") != 0)
        return V_OTHER;
    const lat__expr *a = e->a;
    if (!a || a->kind != LAT_E_NAME || !a->sym || !(a->sym->flags & LAT_SF_BUILTIN) || !a->sym->name)
        return V_OTHER;
    const char *n = a->sym->name->name;
    return strcmp(n, "threadIdx") == 0 ? V_TID
           : strcmp(n, "blockIdx") == 0 ? V_BID
           : strcmp(n, "blockDim") == 0 ? V_BDIM
                                        : V_OTHER;
}

/* A local that holds its initializer's value wherever it is seen: automatic, arithmetic,
 * never modified nor its address taken. (Its declaration runs before any use: the shape
 * has no jumps.) */
static const lat__expr *fixed_local(const lat__sym *s)
{
    if (!s || s->kind != LAT_SYM_VAR ||
        (s->flags & (LAT_SF_PARAM | LAT_SF_FILE_SCOPE | LAT_SF_MODIFIED | LAT_SF_ADDRESS_TAKEN |
                     LAT_SF_BUILTIN | LAT_SF_MEMBER)))
        return NULL;
    if (s->storage != LAT_ST_NONE && s->storage != LAT_ST_AUTO && s->storage != LAT_ST_REGISTER)
        return NULL;
    if ((s->cuda & (LAT_CU_SHARED | LAT_CU_CONSTANT | LAT_CU_DEVICE | LAT_CU_MANAGED)) || !s->type ||
        s->type->ref || (s->type->quals & LAT_Q_VOLATILE) || !lat__is_arith(s->type))
        return NULL;
    return s->def && s->def->sym == s && s->def->init && s->def->init->kind != LAT_E_INIT ? s->def->init
                                                                                           : NULL;
}

/* Whether e's value is the thread's global x index. Conversions between integers of 32 bits
 * or more keep it: the vector code runs only blocks whose indices fit in int. */
static int value_of(const lat__expr *e, int depth)
{
    if (!e || depth > MAX_DEPTH)
        return V_OTHER;
    while (e->kind == LAT_E_CAST && wide_int(e->type) && e->a && wide_int(e->a->type))
        e = e->a;
    if (!wide_int(e->type))
        return V_OTHER;
    switch (e->kind) {
    case LAT_E_MEMBER:
        return builtin_x(e);
    case LAT_E_NAME:
        return value_of(fixed_local(e->sym), depth + 1);
    case LAT_E_BINARY: {
        int a = value_of(e->a, depth + 1), b = value_of(e->b, depth + 1);
        if (e->op == LAT_P_STAR && ((a == V_BID && b == V_BDIM) || (a == V_BDIM && b == V_BID)))
            return V_BASE;
        if (e->op == LAT_P_PLUS && ((a == V_BASE && b == V_TID) || (a == V_TID && b == V_BASE)))
            return V_GLOBAL;
        return V_OTHER;
    }
    default:
        return V_OTHER;
    }
}

/* ---- the shape -------------------------------------------------------------------------------- */

/* How a value varies over a block's threads. */
typedef enum kind { K_BAD, K_UNIFORM, K_INDEX, K_VECTOR } kind;

typedef struct bound {
    const lat__expr *limit; /* x < limit, or x <= limit when inclusive */
    bool inclusive;
} bound;

typedef struct plan {
    lat__emitter *em;
    const lat__func *fn;
    const lat__expr *store;     /* p[x] = value */
    const lat__type *elem;      /* p's elements, unqualified */
    unsigned lanes;             /* elements of a line */
    const lat__sym *local[MAX_LOCALS];
    kind local_kind[MAX_LOCALS];
    int nlocals;
    bound bounds[MAX_BOUNDS];
    int nbounds;
    bool stored;
} plan;

static bool lane_type(const lat__type *t)
{
    if (!t || t->ref || (t->quals & LAT_Q_VOLATILE))
        return false;
    switch (t->kind) {
    case LAT_TY_INT:
    case LAT_TY_UINT:
    case LAT_TY_LONG:
    case LAT_TY_ULONG:
    case LAT_TY_LLONG:
    case LAT_TY_ULLONG:
    case LAT_TY_FLOAT:
    case LAT_TY_DOUBLE:
        return true;
    default:
        return false;
    }
}

/* A parameter the body reads but never changes. */
static bool fixed_param(const plan *pl, const lat__sym *s)
{
    if (!s || !(s->flags & LAT_SF_PARAM) || (s->flags & (LAT_SF_MODIFIED | LAT_SF_ADDRESS_TAKEN)) ||
        !s->type || s->type->ref)
        return false;
    for (int i = 0; i < pl->fn->nparams; i++)
        if (pl->fn->params[i] == s)
            return true;
    return false;
}

/* A parameter pointing at elements the vector code can load or store a line of. */
static const lat__type *line_pointer(const plan *pl, const lat__expr *e)
{
    e = lat__skip_implicit(e);
    if (!e || e->kind != LAT_E_NAME || !fixed_param(pl, e->sym) || e->sym->type->kind != LAT_TY_PTR)
        return NULL;
    const lat__type *t = e->sym->type->base;
    return lane_type(t) ? t : NULL;
}

static int local_index(const plan *pl, const lat__sym *s)
{
    for (int i = 0; i < pl->nlocals; i++)
        if (pl->local[i] == s)
            return i;
    return -1;
}

static const char *builtin_name(const lat__expr *call)
{
    const lat__expr *callee = lat__emit_direct_callee(call);
    const lat__sym *s = callee ? callee->sym : NULL;
    const lat__builtin *b = s && s->builtin ? lat__builtin_get(s->builtin) : NULL;
    return b ? b->name : NULL;
}

static kind join(kind a, kind b)
{
    if (a == K_BAD || b == K_BAD)
        return K_BAD;
    return a == K_UNIFORM && b == K_UNIFORM ? K_UNIFORM : K_VECTOR;
}

/* How e varies over the threads, K_BAD where the vector code cannot compute it exactly as
 * each thread would. */
static kind kind_of(const plan *pl, const lat__expr *e, int depth)
{
    if (!e || depth > 64 || !e->type)
        return K_BAD;
    if (value_of(e, 0) == V_GLOBAL)
        return lane_type(e->type) ? K_INDEX : K_BAD;
    if (!lane_type(e->type) && !(e->kind == LAT_E_MEMBER && lat__is_integer(e->type)))
        return K_BAD;
    switch (e->kind) {
    case LAT_E_INT:
    case LAT_E_FLOAT:
        return K_UNIFORM;
    case LAT_E_NAME: {
        int i = local_index(pl, e->sym);
        if (i >= 0)
            return pl->local_kind[i];
        return fixed_param(pl, e->sym) && lane_type(e->sym->type) ? K_UNIFORM : K_BAD;
    }
    case LAT_E_MEMBER: {
        /* blockIdx, blockDim and gridDim, which every thread of the block shares */
        const lat__expr *a = e->a;
        return !(e->flags & LAT_EF_ARROW) && a && a->kind == LAT_E_NAME && a->sym &&
                       (a->sym->flags & LAT_SF_BUILTIN) && (a->sym->flags & LAT_SF_BLOCK_UNIFORM)
                   ? K_UNIFORM
                   : K_BAD;
    }
    case LAT_E_CAST: {
        const lat__expr *a = e->a;
        if (!a || !a->type || !(lane_type(a->type) || a->kind == LAT_E_MEMBER))
            return K_BAD;
        /* A floating value converted to an integer has the GPU's saturation (arith.c), which
         * vector conversions have not. */
        if (lat__is_floating(a->type) && lat__is_integer(e->type))
            return K_BAD;
        kind k = kind_of(pl, a, depth + 1);
        return k == K_INDEX ? K_VECTOR : k;
    }
    case LAT_E_UNARY:
        if (e->op != LAT_P_MINUS && e->op != LAT_P_PLUS && !(e->op == LAT_P_TILDE && lat__is_integer(e->type)))
            return K_BAD;
        if (!e->a || !e->a->type || e->a->type->kind != e->type->kind)
            return K_BAD;
        return join(kind_of(pl, e->a, depth + 1), K_UNIFORM);
    case LAT_E_BINARY: {
        bool ok = e->op == LAT_P_PLUS || e->op == LAT_P_MINUS || e->op == LAT_P_STAR ||
                  (e->op == LAT_P_SLASH && lat__is_floating(e->type)) ||
                  ((e->op == LAT_P_AMP || e->op == LAT_P_PIPE || e->op == LAT_P_CARET) &&
                   lat__is_integer(e->type));
        if (!ok || !e->a || !e->b || !e->a->type || !e->b->type || e->a->type->kind != e->type->kind ||
            e->b->type->kind != e->type->kind)
            return K_BAD;
        return join(kind_of(pl, e->a, depth + 1), kind_of(pl, e->b, depth + 1));
    }
    case LAT_E_INDEX: {
        const lat__type *t = line_pointer(pl, e->a);
        if (!t || t->kind != e->type->kind || value_of(e->b, 0) != V_GLOBAL)
            return K_BAD;
        return K_VECTOR;
    }
    case LAT_E_CALL: {
        const char *n = builtin_name(e);
        bool fma = n && ((strcmp(n, "fmaf") == 0 && e->type->kind == LAT_TY_FLOAT) ||
                         (strcmp(n, "fma") == 0 && e->type->kind == LAT_TY_DOUBLE));
        if (!fma || e->nargs != 3)
            return K_BAD;
        kind k = K_UNIFORM;
        for (int i = 0; i < 3; i++) {
            if (!e->args[i]->type || e->args[i]->type->kind != e->type->kind)
                return K_BAD;
            k = join(k, kind_of(pl, e->args[i], depth + 1));
        }
        return k;
    }
    default:
        return K_BAD;
    }
}

/* A block-uniform integer the threads' x is compared with. */
static bool uniform_limit(const plan *pl, const lat__expr *e)
{
    return e && e->type && lat__is_integer(e->type) && kind_of(pl, e, 0) == K_UNIFORM;
}

/* Adds the bounds that `e` true puts on x (negated: that e false puts). */
static bool add_bounds(plan *pl, const lat__expr *e, bool negated)
{
    e = lat__skip_implicit(e);
    if (!e)
        return false;
    if (e->kind == LAT_E_UNARY && e->op == LAT_P_BANG)
        return add_bounds(pl, e->a, !negated);
    if (e->kind == LAT_E_BINARY && e->op == (negated ? LAT_P_OROR : LAT_P_ANDAND))
        return add_bounds(pl, e->a, negated) && add_bounds(pl, e->b, negated);
    if (e->kind != LAT_E_BINARY || pl->nbounds == MAX_BOUNDS)
        return false;
    const lat__expr *x = e->a, *lim = e->b;
    int op = e->op;
    if (value_of(x, 0) != V_GLOBAL) {
        /* limit > x is x < limit */
        const lat__expr *t = x;
        x = lim;
        lim = t;
        op = op == LAT_P_GT ? LAT_P_LT : op == LAT_P_GE ? LAT_P_LE : op == LAT_P_LT ? LAT_P_GT
             : op == LAT_P_LE                            ? LAT_P_GE
                                                         : op;
    }
    if (value_of(x, 0) != V_GLOBAL || !uniform_limit(pl, lim))
        return false;
    /* Comparisons in C's types: the operands are converted to a common type first. x is
     * below 2^31 and not negative, so where the limit's value is taken as it is (below),
     * x < limit is true in C's types exactly when it is true of the numbers. */
    bound *b = &pl->bounds[pl->nbounds];
    b->limit = lim;
    if (!negated && (op == LAT_P_LT || op == LAT_P_LE))
        b->inclusive = op == LAT_P_LE;
    else if (negated && (op == LAT_P_GE || op == LAT_P_GT))
        b->inclusive = op == LAT_P_GT; /* !(x > n) is x <= n */
    else
        return false;
    pl->nbounds++;
    return true;
}

static bool is_plain_return(const lat__stmt *s)
{
    if (s && s->kind == LAT_S_COMPOUND && s->items.n == 1)
        s = s->items.items[0];
    return s && s->kind == LAT_S_RETURN && !s->e;
}

static bool take_decls(plan *pl, const lat__stmt *s)
{
    if (!s->decls)
        return false;
    for (lat__decl *d = s->decls->first; d; d = d->next) {
        const lat__expr *init = fixed_local(d->sym);
        if (!init || !lane_type(d->sym->type) || pl->nlocals == MAX_LOCALS)
            return false;
        /* A local conversion of a floating value to an integer is arith.c's saturation. */
        if (lat__is_integer(d->sym->type) && lat__is_floating(init->type))
            return false;
        kind k = kind_of(pl, init, 0);
        if (k == K_BAD)
            return false;
        pl->local[pl->nlocals] = d->sym;
        pl->local_kind[pl->nlocals++] = value_of(init, 0) == V_GLOBAL ? K_INDEX : k;
    }
    return true;
}

static bool take_store(plan *pl, const lat__expr *e)
{
    if (!e || e->kind != LAT_E_ASSIGN || e->op != LAT_P_ASSIGN || !e->a || e->a->kind != LAT_E_INDEX)
        return false;
    const lat__type *t = line_pointer(pl, e->a->a);
    if (!t || (t->size != 4 && t->size != 8) || value_of(e->a->b, 0) != V_GLOBAL || !e->b->type)
        return false;
    if (lat__is_integer(t) && lat__is_floating(e->b->type))
        return false;
    if (kind_of(pl, e->b, 0) == K_BAD)
        return false;
    pl->store = e;
    pl->elem = t;
    pl->lanes = LINE / t->size;
    return true;
}

/* Statements in order; the store must be the last that does anything. */
static bool take(plan *pl, const lat__stmt *s, bool last)
{
    if (!s)
        return false;
    if (pl->stored)
        return s->kind == LAT_S_NULL || (s->kind == LAT_S_RETURN && !s->e);
    switch (s->kind) {
    case LAT_S_COMPOUND:
        for (size_t i = 0; i < s->items.n; i++)
            if (!take(pl, s->items.items[i], last && i + 1 == s->items.n))
                return false;
        return true;
    case LAT_S_NULL:
        return true;
    case LAT_S_DECL:
        return take_decls(pl, s);
    case LAT_S_IF:
        if (s->els)
            return false;
        if (is_plain_return(s->body))
            return add_bounds(pl, s->e, true); /* if (x >= n) return; */
        return last && add_bounds(pl, s->e, false) && take(pl, s->body, true);
    case LAT_S_EXPR:
        return (pl->stored = take_store(pl, s->e));
    default:
        return false;
    }
}

/* ---- the vector code -------------------------------------------------------------------------- */

/* A lane's C type: t's kind, unqualified, as the emitter spells it. */
static const char *c_type(plan *pl, const lat__type *t)
{
    return lat__emit_type(pl->em->u, lat__basic((lat__tykind)t->kind), "");
}

/* The vector type of lanes of t's kind (declared by emit_types). */
static void vtype(plan *pl, const lat__type *t)
{
    lat__emit_fmt(pl->em, "__lat_sv%d", t->kind);
}

static void emit_types(plan *pl)
{
    static const lat__tykind kinds[] = {LAT_TY_INT,   LAT_TY_UINT,   LAT_TY_LONG,  LAT_TY_ULONG,
                                        LAT_TY_LLONG, LAT_TY_ULLONG, LAT_TY_FLOAT, LAT_TY_DOUBLE};
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        const lat__type *t = lat__basic(kinds[i]);
        lat__emit_fmt(pl->em, " typedef %s __lat_sv%d __attribute__((vector_size(%u)));", c_type(pl, t),
                      t->kind, pl->lanes * t->size);
    }
}

static void vexpr(plan *pl, const lat__expr *e);

/* e's lanes converted to the kind of `to`, as C converts each (a conversion between
 * types of one kind writes nothing). */
static void vconvert(plan *pl, const lat__expr *e, const lat__type *to)
{
    if (e->type->kind == to->kind) {
        vexpr(pl, e);
        return;
    }
    lat__emit_str(pl->em, "__builtin_convertvector(");
    vexpr(pl, e);
    lat__emit_str(pl->em, ", ");
    vtype(pl, to);
    lat__emit_str(pl->em, ")");
}

/* Each lane's value of x, in e's type: the line's first index plus the lane. */
static void iota(plan *pl, const lat__type *t)
{
    lat__emit_str(pl->em, "((");
    vtype(pl, t);
    lat__emit_str(pl->em, "){");
    for (unsigned l = 0; l < pl->lanes; l++)
        lat__emit_fmt(pl->em, "%s%u", l ? ", " : "", l);
    lat__emit_fmt(pl->em, "} + (%s)__lat_sc)", c_type(pl, t));
}

static void vexpr(plan *pl, const lat__expr *e)
{
    lat__emitter *em = pl->em;
    kind k = kind_of(pl, e, 0);
    if (k == K_INDEX) {
        iota(pl, e->type);
        return;
    }
    if (k == K_UNIFORM) {
        /* every lane the one value, as the threads compute it */
        lat__emit_str(em, "((");
        vtype(pl, e->type);
        lat__emit_fmt(em, "){0} + (%s)(", c_type(pl, e->type));
        lat__emit_expr(em, e, LAT_PREC_COMMA);
        lat__emit_str(em, "))");
        return;
    }
    switch (e->kind) {
    case LAT_E_NAME:
        lat__emit_fmt(em, "__lat_sl%d", local_index(pl, e->sym));
        return;
    case LAT_E_CAST:
        vconvert(pl, e->a, e->type);
        return;
    case LAT_E_UNARY:
        lat__emit_fmt(em, "(%s", lat__punct_spelling((lat__punct)e->op));
        vexpr(pl, e->a);
        lat__emit_str(em, ")");
        return;
    case LAT_E_BINARY:
        lat__emit_str(em, "(");
        vexpr(pl, e->a);
        lat__emit_fmt(em, " %s ", lat__punct_spelling((lat__punct)e->op));
        vexpr(pl, e->b);
        lat__emit_str(em, ")");
        return;
    case LAT_E_INDEX:
        /* the line's elements, loaded as they are (the pointer need not be aligned) */
        lat__emit_str(em, "({ ");
        vtype(pl, e->type);
        lat__emit_str(em, " __lat_v; __builtin_memcpy(&__lat_v, ");
        lat__emit_expr(em, e->a, LAT_PREC_UNARY);
        lat__emit_str(em, " + __lat_sc, sizeof __lat_v); __lat_v; })");
        return;
    case LAT_E_CALL: {
        /* fmaf lane by lane: fused as each thread's, which the optimiser makes one vector
         * instruction of where the processor has it */
        const char *n = builtin_name(e);
        lat__emit_str(em, "({ ");
        for (int i = 0; i < 3; i++) {
            vtype(pl, e->type);
            lat__emit_fmt(em, " __lat_f%d = ", i);
            vexpr(pl, e->args[i]);
            lat__emit_str(em, "; ");
        }
        vtype(pl, e->type);
        lat__emit_fmt(em, " __lat_v; for (int __lat_l = 0; __lat_l < %u; __lat_l++) __lat_v[__lat_l] = "
                          "%s(__lat_f0[__lat_l], __lat_f1[__lat_l], __lat_f2[__lat_l]); __lat_v; })",
                      pl->lanes, n);
        return;
    }
    default:
        lat__emit_str(em, "0"); /* kind_of accepted nothing else */
        return;
    }
}

/* The bounds, for the block's last thread (x only grows within a block): math on the
 * limits' values, as 64-bit integers. */
static void emit_bounds(plan *pl)
{
    for (int i = 0; i < pl->nbounds; i++) {
        lat__emit_str(pl->em, " && __lat_sg + (long long)__lat_t->block_dim.x - 1 ");
        lat__emit_str(pl->em, pl->bounds[i].inclusive ? "<=" : "<");
        /* An unsigned limit above LLONG_MAX turns negative here: the block then runs as
         * before, which is never wrong. */
        lat__emit_str(pl->em, " (long long)(");
        lat__emit_expr(pl->em, pl->bounds[i].limit, LAT_PREC_COMMA);
        lat__emit_str(pl->em, ")");
    }
}

bool lat__stream_emit(lat__emitter *em, const lat__func *fn)
{
    if (!fn || !fn->body || fn->calls_collective || fn->calls_indirect || fn->shared.n)
        return false;
    plan pl = {.em = em, .fn = fn};
    if (!take(&pl, fn->body, true) || !pl.stored)
        return false;
    const lat__expr *dst = pl.store->a->a;
    lat__emit_directive(em, "#ifdef __LAT_STREAM");
    /* One-dimensional blocks and grid, whole lines, a grid whose stores exceed the cache
     * and whose x indices fit in int. */
    lat__emit_fmt(em, "if (__lat_t->block_dim.y == 1 && __lat_t->block_dim.z == 1 && "
                      "__lat_t->grid_dim.y == 1 && __lat_t->grid_dim.z == 1 && "
                      "__lat_t->block_dim.x %% %u == 0 && "
                      "(unsigned long long)__lat_t->grid_dim.x * __lat_t->block_dim.x <= 2147483647ull && "
                      "(unsigned long long)__lat_t->grid_dim.x * __lat_t->block_dim.x * %u >= __LAT_STREAM_BYTES) { "
                      "long long __lat_sg = (long long)__lat_t->block_idx.x * __lat_t->block_dim.x;",
                  pl.lanes, pl.elem->size);
    /* The block's uniform locals, by their own names, as the threads' expressions read
     * them; they neither load nor divide integers, so they cannot fault where a thread
     * that returns early would not have computed them. */
    for (int i = 0; i < pl.nlocals; i++) {
        if (pl.local_kind[i] != K_UNIFORM)
            continue;
        lat__sym *s = (lat__sym *)pl.local[i];
        lat__emit_fmt(em, " %s = ", lat__emit_type(em->u, s->type, lat__emit_name(em->u, s)));
        lat__emit_expr(em, s->def->init, LAT_PREC_ASSIGN);
        lat__emit_str(em, ";");
    }
    lat__emit_str(em, " if (((unsigned long)(");
    lat__emit_expr(em, dst, LAT_PREC_UNARY);
    lat__emit_str(em, " + __lat_sg) & 63) == 0");
    emit_bounds(&pl);
    lat__emit_str(em, ") {");
    emit_types(&pl);
    lat__emit_str(em, " for (long long __lat_sc = __lat_sg; __lat_sc < __lat_sg + (long long)__lat_t->block_dim.x; "
                      "__lat_sc += ");
    lat__emit_fmt(em, "%u) {", pl.lanes);
    for (int i = 0; i < pl.nlocals; i++) {
        if (pl.local_kind[i] == K_UNIFORM || pl.local_kind[i] == K_INDEX)
            continue; /* written where used: the threads' own expression, or the lanes' x */
        lat__emit_str(em, " ");
        vtype(&pl, pl.local[i]->type);
        lat__emit_fmt(em, " __lat_sl%d = ", i);
        vexpr(&pl, pl.local[i]->def->init);
        lat__emit_str(em, ";");
    }
    lat__emit_str(em, " ");
    vtype(&pl, pl.elem);
    lat__emit_str(em, " __lat_sv = ");
    vconvert(&pl, pl.store->b, pl.elem);
    lat__emit_str(em, "; __lat_stream_line(");
    lat__emit_expr(em, dst, LAT_PREC_UNARY);
    lat__emit_str(em, " + __lat_sc, &__lat_sv); } return; } }");
    lat__emit_directive(em, "#endif");
    return true;
}
