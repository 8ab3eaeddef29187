/* Proofs that array accesses are in bounds (bounds.h). */
#include "bounds.h"

#include "front/type.h"
#include "front/visit.h"

#include <string.h>

/* A range, as an expression the optimised code evaluates: each node is one helper of
 * lat__bounds_prefix, on 128-bit integers so that no bound of a 64-bit value overflows. */
typedef enum bop {
    B_K,     /* [lo, hi] */
    B_TYPE,  /* every value of a type (bits, sgn) */
    B_VAL,   /* the value of a uniform expression (val) or of text */
    B_BELOW, /* [0, a.hi - 1]: threadIdx below blockDim */
    B_ADD, B_SUB, B_MUL, B_DIV, B_MOD, B_SHR, B_SHL, B_AND, B_JOIN,
    B_NEG,
    B_FIT,   /* a where it fits the type (bits, sgn), else the type's every value */
    B_LT, B_LE, B_GT, B_GE, /* a known to compare so to b, in the type (cbits, csgn) */
    B_UP, B_DOWN, B_HALVE,  /* a canonical loop's variable: from a, to b, by lo */
} bop;

typedef struct bnode bnode;
struct bnode {
    uint8_t op;
    uint8_t strict;    /* loops: < or > rather than <= or >= */
    uint8_t bits, sgn; /* FIT, TYPE; loops: the variable's type */
    uint8_t cbits, csgn; /* comparisons and loops: the comparison's type */
    int64_t lo, hi;    /* K; loops: the step */
    const lat__expr *val;
    const char *text;
    const bnode *a, *b;
    int size; /* nodes in the tree */
};

/* What the proof of one access holds: each index's range and its array's length. */
struct lat__bound {
    int id; /* its condition's variable in the function written (-1: none yet) */
    bool assured; /* the checked forward variant counts on it (region_fwd.c) */
    int n;
    const bnode **index;
    int64_t *length;
};

/* Beyond this many nodes a range is not worth its code: the type's values instead. */
enum { MAX_NODES = 160, MAX_DIMS = 8 };

typedef struct fact {
    const lat__sym *sym;
    const bnode *range;
} fact;

typedef struct prover {
    lat__unit *u;
    LAT_VEC(fact) env;
    int in_switch; /* declarations inside a switch's body may be jumped over */
    bool no_facts; /* a function with goto: control may enter anywhere */
} prover;

/* ---- building ranges -------------------------------------------------------------------- */

static bnode *node(prover *p, bop op, const bnode *a, const bnode *b)
{
    bnode *n = lat__arena_alloc(&p->u->arena, sizeof *n);
    n->op = (uint8_t)op;
    n->a = a;
    n->b = b;
    n->size = 1 + (a ? a->size : 0) + (b ? b->size : 0);
    return n;
}

static void type_bits(const lat__type *t, uint8_t *bits, uint8_t *sgn)
{
    if (t->kind == LAT_TY_BOOL) {
        *bits = 1;
        *sgn = 0;
        return;
    }
    uint32_t size = lat__sizeof(t);
    *bits = (uint8_t)(size >= 1 && size <= 8 ? size * 8 : 64);
    *sgn = !lat__is_unsigned(t);
}

static const bnode *type_range(prover *p, const lat__type *t)
{
    bnode *n = node(p, B_TYPE, NULL, NULL);
    type_bits(t, &n->bits, &n->sgn);
    return n;
}

static const bnode *constant(prover *p, int64_t lo, int64_t hi)
{
    bnode *n = node(p, B_K, NULL, NULL);
    n->lo = lo;
    n->hi = hi;
    return n;
}

/* a as a value of type t: itself where it fits, every value of t where it may not. */
static const bnode *fit(prover *p, const bnode *a, const lat__type *t)
{
    if (a->size > MAX_NODES)
        return type_range(p, t);
    bnode *n = node(p, B_FIT, a, NULL);
    type_bits(t, &n->bits, &n->sgn);
    return n;
}

static const bnode *binary(prover *p, bop op, const bnode *a, const bnode *b, const lat__type *t)
{
    return fit(p, node(p, op, a, b), t);
}

static bool is_local(const lat__sym *s)
{
    return s && s->kind == LAT_SYM_VAR && !(s->flags & (LAT_SF_FILE_SCOPE | LAT_SF_ADDRESS_TAKEN)) &&
           !(s->cuda & LAT_CU_SHARED) && (s->storage == LAT_ST_NONE || s->storage == LAT_ST_AUTO ||
                                          s->storage == LAT_ST_REGISTER) &&
           s->type && lat__is_integer(s->type) && !(s->type->quals & LAT_Q_VOLATILE);
}

static const lat__expr *strip(const lat__expr *e)
{
    while (e->kind == LAT_E_CAST && (e->flags & LAT_EF_IMPLICIT) && lat__is_integer(e->type) &&
           lat__is_integer(e->a->type))
        e = e->a;
    return e;
}

static const bnode *fact_of(prover *p, const lat__sym *s)
{
    for (size_t i = p->env.n; i-- > 0;)
        if (p->env.items[i].sym == s)
            return p->env.items[i].range;
    return NULL;
}

/* threadIdx.x and its kin: the built-in and the component, or 0. */
static int builtin_dim(const lat__expr *e, const char **name)
{
    if (e->kind != LAT_E_MEMBER || (e->flags & LAT_EF_ARROW) || !e->field || !e->field->name ||
        e->a->kind != LAT_E_NAME || !e->a->sym || !(e->a->sym->flags & LAT_SF_BUILTIN) || !e->a->sym->name)
        return 0;
    const char *f = e->field->name->name;
    if (strcmp(f, "x") != 0 && strcmp(f, "y") != 0 && strcmp(f, "z") != 0)
        return 0;
    *name = e->a->sym->name->name;
    return f[0];
}

static const bnode *range(prover *p, const lat__expr *e);

static const bnode *dim_range(prover *p, const lat__expr *e)
{
    const char *name;
    int c = builtin_dim(e, &name);
    if (!c)
        return NULL;
    const char *bound = strcmp(name, "threadIdx") == 0 || strcmp(name, "blockDim") == 0 ? "blockDim"
                        : strcmp(name, "blockIdx") == 0 || strcmp(name, "gridDim") == 0 ? "gridDim"
                                                                                           : NULL;
    if (!bound)
        return NULL;
    bnode *v = node(p, B_VAL, NULL, NULL);
    v->text = lat__arena_printf(&p->u->arena, "%s.%c", bound, c);
    if (strcmp(name, bound) == 0)
        return v;
    return node(p, B_BELOW, v, NULL);
}

static const bnode *range(prover *p, const lat__expr *e)
{
    const lat__type *t = e->type;
    if (!t || !lat__is_integer(t))
        return NULL;
    if (e->flags & LAT_EF_CONST) {
        if (lat__is_unsigned(t) && lat__sizeof(t) == 8 && e->ival < 0)
            return type_range(p, t);
        return constant(p, e->ival, e->ival);
    }
    const bnode *a, *b;
    switch (e->kind) {
    case LAT_E_NAME: {
        const lat__sym *s = e->sym;
        const bnode *f = fact_of(p, s);
        if (f)
            return f;
        if (s && s->kind == LAT_SYM_VAR && (s->flags & LAT_SF_PARAM) &&
            !(s->flags & (LAT_SF_MODIFIED | LAT_SF_ADDRESS_TAKEN)) && !(s->type->quals & LAT_Q_VOLATILE) &&
            lat__is_integer(s->type)) {
            bnode *v = node(p, B_VAL, NULL, NULL);
            v->val = e;
            return fit(p, v, t);
        }
        return type_range(p, t);
    }
    case LAT_E_MEMBER:
        a = dim_range(p, e);
        return a ? fit(p, a, t) : type_range(p, t);
    case LAT_E_CAST:
        if (t->kind == LAT_TY_BOOL || !lat__is_integer(e->a->type))
            return type_range(p, t);
        return fit(p, range(p, e->a), t);
    case LAT_E_UNARY:
        if (e->op == LAT_P_PLUS)
            return fit(p, range(p, e->a), t);
        if (e->op == LAT_P_MINUS)
            return fit(p, node(p, B_NEG, range(p, e->a), NULL), t);
        if (e->op == LAT_P_BANG)
            return constant(p, 0, 1);
        return type_range(p, t);
    case LAT_E_BINARY: {
        bop op;
        switch (e->op) {
        case LAT_P_PLUS: op = B_ADD; break;
        case LAT_P_MINUS: op = B_SUB; break;
        case LAT_P_STAR: op = B_MUL; break;
        case LAT_P_SLASH: op = B_DIV; break;
        case LAT_P_PERCENT: op = B_MOD; break;
        case LAT_P_SHR: op = B_SHR; break;
        case LAT_P_SHL: op = B_SHL; break;
        case LAT_P_AMP: op = B_AND; break;
        case LAT_P_LT: case LAT_P_GT: case LAT_P_LE: case LAT_P_GE: case LAT_P_EQ: case LAT_P_NE:
        case LAT_P_ANDAND: case LAT_P_OROR:
            return constant(p, 0, 1);
        default:
            return type_range(p, t);
        }
        a = range(p, e->a);
        b = range(p, e->b);
        if (!a || !b)
            return type_range(p, t);
        return binary(p, op, a, b, t);
    }
    case LAT_E_COND:
        a = e->b ? range(p, e->b) : range(p, e->a);
        b = range(p, e->c);
        if (!a || !b)
            return type_range(p, t);
        return binary(p, B_JOIN, a, b, t);
    default:
        return type_range(p, t);
    }
}

/* ---- facts: what a place in the program knows of its variables ------------------------------ */

static void assume(prover *p, const lat__sym *s, const bnode *r)
{
    if (r && r->size <= MAX_NODES)
        LAT_PUSH(&p->u->arena, p->env, ((fact){s, r}));
}

typedef struct scan {
    const lat__sym *sym; /* writes of it (NULL: none asked) */
    bool found;          /* a write of sym, or a label control can enter by */
    int switches;
} scan;

static bool scan_expr(lat__visitor *v, lat__expr *e)
{
    scan *sc = v->data;
    if (sc->sym && lat__assigned_var(e) == sc->sym)
        sc->found = true;
    return !sc->found;
}

static bool scan_stmt(lat__visitor *v, lat__stmt *s)
{
    scan *sc = v->data;
    if (s->kind == LAT_S_SWITCH)
        sc->switches++;
    if (((s->kind == LAT_S_CASE || s->kind == LAT_S_DEFAULT) && sc->switches == 0) || s->kind == LAT_S_LABEL)
        sc->found = true;
    return !sc->found;
}

static void scan_after(lat__visitor *v, lat__stmt *s)
{
    scan *sc = v->data;
    if (s->kind == LAT_S_SWITCH)
        sc->switches--;
}

/* Whether control can enter s other than from its start (a case label of a switch around
 * it), or s (or e, when given) writes sym. */
static bool entered_or_writes(lat__stmt *s, lat__expr *e, const lat__sym *sym)
{
    scan sc = {sym, false, 0};
    lat__visitor v = {scan_stmt, scan_expr, scan_after, &sc};
    if (s)
        lat__visit_stmt(&v, s);
    if (e && !sc.found)
        lat__visit_expr(&v, e);
    return sc.found;
}

/* a OP b as b OP' a; LAT_P_NONE for an OP that is no ordering. */
static int mirrored(int op)
{
    return op == LAT_P_LT ? LAT_P_GT : op == LAT_P_LE ? LAT_P_GE : op == LAT_P_GT ? LAT_P_LT
           : op == LAT_P_GE ? LAT_P_LE : LAT_P_NONE;
}

/* !(a OP b) as a OP' b. */
static int negated_op(int op)
{
    return op == LAT_P_LT ? LAT_P_GE : op == LAT_P_LE ? LAT_P_GT : op == LAT_P_GT ? LAT_P_LE
           : op == LAT_P_GE ? LAT_P_LT : LAT_P_NONE;
}

/* What `a OP b` being true says of a variable on either side (negated: being false). */
static void assume_compare(prover *p, const lat__expr *c, bool negated)
{
    int op = negated ? negated_op(c->op) : c->op;
    if (mirrored(op) == LAT_P_NONE)
        return; /* not an ordering */
    const lat__type *ct = c->a->type;
    if (!ct || !lat__is_integer(ct) || !c->b->type || !lat__is_integer(c->b->type))
        return;
    for (int side = 0; side < 2; side++) {
        const lat__expr *x = strip(side ? c->b : c->a), *y = side ? c->a : c->b;
        if (x->kind != LAT_E_NAME || !is_local(x->sym))
            continue;
        const bnode *xr = range(p, x), *yr = range(p, y);
        if (!xr || !yr)
            continue;
        int o = side ? mirrored(op) : op;
        bnode *n = node(p, o == LAT_P_LT ? B_LT : o == LAT_P_LE ? B_LE : o == LAT_P_GT ? B_GT : B_GE, xr, yr);
        type_bits(ct, &n->cbits, &n->csgn);
        /* Only a variable with a fact, or one never written after its declaration, keeps
         * its value where the comparison's outcome is known. */
        if (fact_of(p, x->sym) || (!(x->sym->flags & LAT_SF_MODIFIED) &&
                                   ((x->sym->flags & LAT_SF_PARAM) || (x->sym->def && x->sym->def->init))))
            assume(p, x->sym, n);
    }
}

static void assume_condition(prover *p, const lat__expr *c, bool negated)
{
    while (c->kind == LAT_E_CAST && (c->flags & LAT_EF_IMPLICIT))
        c = c->a;
    if (!negated && c->kind == LAT_E_BINARY && c->op == LAT_P_ANDAND) {
        assume_condition(p, c->a, false);
        assume_condition(p, c->b, false);
        return;
    }
    if (negated && c->kind == LAT_E_BINARY && c->op == LAT_P_OROR) {
        assume_condition(p, c->a, true);
        assume_condition(p, c->b, true);
        return;
    }
    if (c->kind == LAT_E_BINARY)
        assume_compare(p, c, negated);
}

/* A for loop's variable, where the loop is canonical: set by its first part, compared by
 * its condition, stepped by its third part only. */
static void assume_loop(prover *p, const lat__stmt *s)
{
    const lat__expr *st = s->step;
    if (!st || !s->e)
        return;
    const lat__expr *target;
    int kind; /* 1 up, -1 down, 2 halve */
    int64_t by = 1;
    if ((st->kind == LAT_E_POSTFIX || st->kind == LAT_E_UNARY) && (st->op == LAT_P_INC || st->op == LAT_P_DEC)) {
        target = strip(st->a);
        kind = st->op == LAT_P_INC ? 1 : -1;
    } else if (st->kind == LAT_E_ASSIGN && (st->b->flags & LAT_EF_CONST) &&
               (st->op == LAT_P_ADD_ASSIGN || st->op == LAT_P_SUB_ASSIGN || st->op == LAT_P_DIV_ASSIGN ||
                st->op == LAT_P_SHR_ASSIGN)) {
        target = strip(st->a);
        by = st->b->ival;
        kind = st->op == LAT_P_ADD_ASSIGN ? 1 : st->op == LAT_P_SUB_ASSIGN ? -1 : 2;
        if (by < 1 || by > (1 << 20) || (st->op == LAT_P_DIV_ASSIGN && by < 2))
            return;
    } else {
        return;
    }
    if (target->kind != LAT_E_NAME || !is_local(target->sym))
        return;
    const lat__sym *v = target->sym;
    /* Its first value. */
    const lat__expr *first = NULL;
    if (s->init && s->init->kind == LAT_S_DECL && s->init->decls) {
        for (lat__decl *d = s->init->decls->first; d; d = d->next)
            if (d->sym == v)
                first = d->init;
    } else if (s->init && s->init->kind == LAT_S_EXPR && s->init->e && s->init->e->kind == LAT_E_ASSIGN &&
               s->init->e->op == LAT_P_ASSIGN && strip(s->init->e->a)->kind == LAT_E_NAME &&
               strip(s->init->e->a)->sym == v) {
        first = s->init->e->b;
    }
    if (!first || entered_or_writes(s->body, s->e, v))
        return;
    /* The condition's comparison of it: the first of a chain of &&. */
    const lat__expr *c = s->e;
    for (;;) {
        while (c->kind == LAT_E_CAST && (c->flags & LAT_EF_IMPLICIT))
            c = c->a;
        if (c->kind == LAT_E_BINARY && c->op == LAT_P_ANDAND)
            c = c->a;
        else
            break;
    }
    if (c->kind != LAT_E_BINARY || !c->a->type || !lat__is_integer(c->a->type))
        return;
    int op = c->op;
    const lat__expr *bound;
    if (strip(c->a)->kind == LAT_E_NAME && strip(c->a)->sym == v) {
        bound = c->b;
    } else if (strip(c->b)->kind == LAT_E_NAME && strip(c->b)->sym == v) {
        bound = c->a;
        op = mirrored(op);
    } else {
        return;
    }
    bool upward = op == LAT_P_LT || op == LAT_P_LE, downward = op == LAT_P_GT || op == LAT_P_GE;
    if ((kind == 1 && !upward) || (kind != 1 && !downward))
        return;
    const bnode *from = range(p, first), *to = range(p, bound);
    if (!from || !to)
        return;
    bnode *n = node(p, kind == 1 ? B_UP : kind == -1 ? B_DOWN : B_HALVE, fit(p, from, v->type), to);
    n->strict = op == LAT_P_LT || op == LAT_P_GT;
    n->lo = by;
    type_bits(v->type, &n->bits, &n->sgn);
    type_bits(c->a->type, &n->cbits, &n->csgn);
    assume(p, v, n);
}

/* ---- the walk ----------------------------------------------------------------------------- */

/* The chain of array elements from an access down to the variable that holds them: the
 * ranges and lengths, or false when a step is through a pointer or of unknown size. */
static bool prove_access(prover *p, lat__expr *e)
{
    const bnode *idx[MAX_DIMS];
    int64_t len[MAX_DIMS];
    int n = 0;
    const lat__expr *x = e;
    for (;;) {
        if (x->kind == LAT_E_INDEX) {
            const lat__expr *arr = x->a;
            if (arr->kind != LAT_E_CAST || !(arr->flags & LAT_EF_IMPLICIT))
                return false;
            arr = arr->a;
            const lat__type *at = arr->type;
            if (at->kind != LAT_TY_ARRAY || at->vla || at->count <= 0 || n == MAX_DIMS)
                return false;
            const bnode *r = range(p, x->b);
            if (!r)
                return false;
            idx[n] = r;
            len[n] = at->count;
            n++;
            x = arr;
        } else if (x->kind == LAT_E_MEMBER && !(x->flags & LAT_EF_ARROW)) {
            x = x->a;
        } else {
            break;
        }
    }
    if (n == 0 || x->kind != LAT_E_NAME || !x->sym || x->sym->kind != LAT_SYM_VAR ||
        (x->type->kind != LAT_TY_ARRAY && !lat__is_record(x->type)))
        return false;
    lat__bound *b = lat__arena_alloc(&p->u->arena, sizeof *b);
    b->id = -1;
    b->n = n;
    b->index = lat__arena_alloc(&p->u->arena, (size_t)n * sizeof *b->index);
    b->length = lat__arena_alloc(&p->u->arena, (size_t)n * sizeof *b->length);
    memcpy(b->index, idx, (size_t)n * sizeof *idx);
    memcpy(b->length, len, (size_t)n * sizeof *len);
    e->bound = b;
    return true;
}

static bool prove_expr(lat__visitor *v, lat__expr *e)
{
    if (e->kind == LAT_E_INDEX && e->site)
        prove_access(v->data, e);
    return true;
}

static void prove_in(prover *p, lat__expr *e)
{
    if (!e)
        return;
    lat__visitor v = {NULL, prove_expr, NULL, p};
    lat__visit_expr(&v, e);
}

/* Whether s leaves the statements after it: a return, break or continue, last. */
static bool leaves(const lat__stmt *s)
{
    while (s && s->kind == LAT_S_COMPOUND && s->items.n)
        s = s->items.items[s->items.n - 1];
    return s && (s->kind == LAT_S_RETURN || s->kind == LAT_S_BREAK || s->kind == LAT_S_CONTINUE);
}

static void walk(prover *p, lat__stmt *s);

static void walk_compound(prover *p, lat__stmt *s)
{
    size_t mark = p->env.n;
    for (size_t i = 0; i < s->items.n; i++) {
        lat__stmt *it = s->items.items[i];
        walk(p, it);
        /* if (C) return; — what follows in this block runs where C is false, unless
         * a label lets control in after it. */
        if (it->kind == LAT_S_IF && !it->els && leaves(it->body) && !p->no_facts) {
            bool entered = false;
            for (size_t j = i + 1; j < s->items.n && !entered; j++)
                entered = entered_or_writes(s->items.items[j], NULL, NULL);
            if (!entered)
                assume_condition(p, it->e, true);
        }
    }
    p->env.n = mark;
}

static void walk(prover *p, lat__stmt *s)
{
    if (!s)
        return;
    size_t mark = p->env.n;
    switch (s->kind) {
    case LAT_S_COMPOUND:
        walk_compound(p, s);
        break;
    case LAT_S_DECL:
        if (!s->decls)
            break;
        for (lat__decl *d = s->decls->first; d; d = d->next) {
            prove_in(p, d->init);
            /* A variable never written after its declaration holds its first value
             * wherever its name is seen (unless a jump skipped the declaration). */
            if (d->sym && d->init && is_local(d->sym) && !(d->sym->flags & LAT_SF_MODIFIED) && !p->in_switch &&
                !p->no_facts && d->init->kind != LAT_E_INIT) {
                const bnode *r = range(p, d->init);
                if (r)
                    assume(p, d->sym, fit(p, r, d->sym->type));
            }
        }
        return; /* its facts hold to the end of the block */
    case LAT_S_EXPR:
    case LAT_S_RETURN:
        prove_in(p, s->e);
        break;
    case LAT_S_IF:
        prove_in(p, s->e);
        if (!p->no_facts && !entered_or_writes(s->body, NULL, NULL))
            assume_condition(p, s->e, false);
        walk(p, s->body);
        p->env.n = mark;
        if (!p->no_facts && s->els && !entered_or_writes(s->els, NULL, NULL))
            assume_condition(p, s->e, true);
        walk(p, s->els);
        break;
    case LAT_S_FOR:
        if (s->init)
            walk(p, s->init);
        prove_in(p, s->e);
        prove_in(p, s->step);
        if (!p->no_facts)
            assume_loop(p, s);
        walk(p, s->body);
        break;
    case LAT_S_WHILE:
    case LAT_S_DO:
        prove_in(p, s->e);
        walk(p, s->body);
        break;
    case LAT_S_SWITCH:
        prove_in(p, s->e);
        p->in_switch++;
        walk(p, s->body);
        p->in_switch--;
        break;
    case LAT_S_CASE:
    case LAT_S_DEFAULT:
    case LAT_S_LABEL:
        walk(p, s->body);
        break;
    default:
        break;
    }
    p->env.n = mark;
}

static bool has_goto(lat__visitor *v, lat__stmt *s)
{
    if (s->kind == LAT_S_GOTO || s->kind == LAT_S_LABEL)
        *(bool *)v->data = true;
    return true;
}

void lat__bounds_prove(lat__unit *u)
{
    lat__tu *tu = u->tu;
    for (size_t i = 0; i < tu->items.n; i++) {
        lat__ext *x = &tu->items.items[i];
        if (x->kind != LAT_X_FUNC || !x->fn->body || !(x->fn->sym->cuda & (LAT_CU_GLOBAL | LAT_CU_DEVICE)))
            continue;
        prover p = {u, {0}, 0, false};
        lat__visitor g = {has_goto, NULL, NULL, &p.no_facts};
        lat__visit_stmt(&g, x->fn->body);
        walk(&p, x->fn->body);
    }
}

/* ---- writing ------------------------------------------------------------------------------ */

/* An int64_t as a C constant (the lowest has no literal of its own). */
static void emit_int(lat__emitter *em, int64_t v)
{
    if (v == INT64_MIN)
        lat__emit_str(em, "(-9223372036854775807LL - 1)");
    else
        lat__emit_fmt(em, "%lldLL", (long long)v);
}

static void emit_range(lat__emitter *em, const bnode *n);

/* "__lat_rg_NAME(a, b", the helper's further arguments and ")" the caller's. */
static void emit_pair(lat__emitter *em, const char *name, const bnode *n)
{
    lat__emit_fmt(em, "__lat_rg_%s(", name);
    emit_range(em, n->a);
    lat__emit_str(em, ", ");
    emit_range(em, n->b);
}

static void emit_range(lat__emitter *em, const bnode *n)
{
    static const char *const names[] = {
        [B_ADD] = "add", [B_SUB] = "sub", [B_MUL] = "mul", [B_DIV] = "div", [B_MOD] = "mod",
        [B_SHR] = "shr", [B_SHL] = "shl", [B_AND] = "and", [B_JOIN] = "join",
    };
    switch ((bop)n->op) {
    case B_K:
        lat__emit_str(em, "__lat_rg_k(");
        emit_int(em, n->lo);
        lat__emit_str(em, ", ");
        emit_int(em, n->hi);
        lat__emit_str(em, ")");
        return;
    case B_TYPE:
        lat__emit_fmt(em, "__lat_rg_ty(%d, %d)", n->bits, n->sgn);
        return;
    case B_VAL:
        lat__emit_str(em, "__lat_rg_v((__lat_i128)(");
        if (n->val)
            lat__emit_expr(em, n->val, LAT_PREC_COMMA);
        else
            lat__emit_str(em, n->text);
        lat__emit_str(em, "))");
        return;
    case B_BELOW:
    case B_NEG:
        lat__emit_str(em, n->op == B_BELOW ? "__lat_rg_below(" : "__lat_rg_neg(");
        emit_range(em, n->a);
        lat__emit_str(em, ")");
        return;
    case B_FIT:
        lat__emit_str(em, "__lat_rg_fit(");
        emit_range(em, n->a);
        lat__emit_fmt(em, ", %d, %d)", n->bits, n->sgn);
        return;
    case B_LT:
    case B_LE:
    case B_GT:
    case B_GE:
        emit_pair(em, n->op == B_LT ? "lt" : n->op == B_LE ? "le" : n->op == B_GT ? "gt" : "ge", n);
        lat__emit_fmt(em, ", %d, %d)", n->cbits, n->csgn);
        return;
    case B_UP:
    case B_DOWN:
    case B_HALVE:
        emit_pair(em, n->op == B_UP ? "up" : n->op == B_DOWN ? "down" : "halve", n);
        lat__emit_fmt(em, ", %d, %lldLL, %d, %d, %d, %d)", n->strict, (long long)n->lo, n->bits, n->sgn,
                      n->cbits, n->csgn);
        return;
    default:
        emit_pair(em, names[n->op], n);
        lat__emit_str(em, ")");
        return;
    }
}

static void emit_condition(lat__emitter *em, const lat__bound *b)
{
    for (int i = 0; i < b->n; i++) {
        if (i)
            lat__emit_str(em, " && ");
        lat__emit_str(em, "__lat_rg_in(");
        emit_range(em, b->index[i]);
        lat__emit_fmt(em, ", %lldLL)", (long long)b->length[i]);
    }
}

typedef struct declaring {
    lat__emitter *em;
    int n;
} declaring;

static bool declare_proof(lat__visitor *v, lat__expr *e)
{
    declaring *d = v->data;
    if (!e->bound)
        return true;
    lat__bound *b = (lat__bound *)e->bound;
    b->id = d->n++;
    if (b->id == 0)
        lat__emit_directive(d->em, "#ifndef __TINYC__");
    lat__emit_fmt(d->em, "const int __lat_pf%d = ", b->id);
    emit_condition(d->em, b);
    lat__emit_str(d->em, ";");
    lat__emit_newline(d->em);
    return true;
}

void lat__bounds_emit_entry(lat__emitter *em, lat__func *fn)
{
    declaring d = {em, 0};
    lat__visitor v = {NULL, declare_proof, NULL, &d};
    lat__visit_stmt(&v, fn->body);
    if (d.n)
        lat__emit_directive(em, "#endif");
}

void lat__bounds_assure(const lat__expr *e, bool on)
{
    if (e->bound)
        ((lat__bound *)e->bound)->assured = on;
}

bool lat__bounds_assured(const lat__expr *e)
{
    return e->bound && e->bound->assured;
}

bool lat__bounds_declared(const lat__expr *e)
{
    return e->bound && e->bound->id >= 0;
}

bool lat__bounds_emit(lat__emitter *em, const lat__expr *e)
{
    if (!lat__bounds_declared(e))
        return false;
    lat__emit_fmt(em, "__lat_pf%d", e->bound->id);
    return true;
}

/* Every bound a helper returns fits 65 bits (FIT keeps each to its type's), so sums and
 * differences cannot overflow; a product of larger factors gives up (BIG), as do shifts
 * and quotients whose operands it cannot bound. */
const char lat__bounds_prefix[] =
    "typedef __int128 __lat_i128;\n"
    "typedef struct { __lat_i128 lo, hi; } __lat_rg;\n"
    "#define __LAT_RG_BIG ((__lat_i128)1 << 100)\n"
    "#define __LAT_RG_INL static inline __attribute__((always_inline, const))\n"
    "__LAT_RG_INL __lat_rg __lat_rg_k(__lat_i128 lo, __lat_i128 hi) { __lat_rg r = {lo, hi}; return r; }\n"
    "__LAT_RG_INL __lat_rg __lat_rg_big(void) { return __lat_rg_k(-__LAT_RG_BIG, __LAT_RG_BIG); }\n"
    "__LAT_RG_INL __lat_i128 __lat_rg_min(__lat_i128 a, __lat_i128 b) { return a < b ? a : b; }\n"
    "__LAT_RG_INL __lat_i128 __lat_rg_max(__lat_i128 a, __lat_i128 b) { return a > b ? a : b; }\n"
    "__LAT_RG_INL __lat_rg __lat_rg_ty(int bits, int sgn)\n"
    "{ return sgn ? __lat_rg_k(-((__lat_i128)1 << (bits - 1)), ((__lat_i128)1 << (bits - 1)) - 1)\n"
    "             : __lat_rg_k(0, ((__lat_i128)1 << bits) - 1); }\n"
    "__LAT_RG_INL __lat_rg __lat_rg_fit(__lat_rg a, int bits, int sgn)\n"
    "{ __lat_rg t = __lat_rg_ty(bits, sgn); return a.lo >= t.lo && a.hi <= t.hi && a.lo <= a.hi ? a : t; }\n"
    "__LAT_RG_INL __lat_rg __lat_rg_v(__lat_i128 v) { return __lat_rg_k(v, v); }\n"
    "__LAT_RG_INL __lat_rg __lat_rg_below(__lat_rg a) { return __lat_rg_k(0, a.hi - 1); }\n"
    "__LAT_RG_INL __lat_rg __lat_rg_neg(__lat_rg a) { return __lat_rg_k(-a.hi, -a.lo); }\n"
    "__LAT_RG_INL __lat_rg __lat_rg_add(__lat_rg a, __lat_rg b) { return __lat_rg_k(a.lo + b.lo, a.hi + b.hi); }\n"
    "__LAT_RG_INL __lat_rg __lat_rg_sub(__lat_rg a, __lat_rg b) { return __lat_rg_k(a.lo - b.hi, a.hi - b.lo); }\n"
    "__LAT_RG_INL __lat_rg __lat_rg_corners(__lat_i128 a, __lat_i128 b, __lat_i128 c, __lat_i128 d)\n"
    "{ return __lat_rg_k(__lat_rg_min(__lat_rg_min(a, b), __lat_rg_min(c, d)),\n"
    "                    __lat_rg_max(__lat_rg_max(a, b), __lat_rg_max(c, d))); }\n"
    "__LAT_RG_INL int __lat_rg_small(__lat_rg a) { return a.lo >= -((__lat_i128)1 << 62) && a.hi <= ((__lat_i128)1 << 62); }\n"
    "__LAT_RG_INL __lat_rg __lat_rg_mul(__lat_rg a, __lat_rg b)\n"
    "{ if (!__lat_rg_small(a) || !__lat_rg_small(b)) return __lat_rg_big();\n"
    "  return __lat_rg_corners(a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi); }\n"
    /* 64-bit division, which needs no library (the object links none). C's quotient
     * truncates, and is monotonic in each operand where the divisor keeps
     * one sign: its extremes are at the corners. */
    "__LAT_RG_INL __lat_i128 __lat_rg_quo(__lat_i128 a, __lat_i128 b) { return (long long)a / (long long)b; }\n"
    "__LAT_RG_INL __lat_rg __lat_rg_div(__lat_rg a, __lat_rg b)\n"
    "{ if ((b.lo <= 0 && b.hi >= 0) || !__lat_rg_small(a) || !__lat_rg_small(b)) return __lat_rg_big();\n"
    "  return __lat_rg_corners(__lat_rg_quo(a.lo, b.lo), __lat_rg_quo(a.lo, b.hi), __lat_rg_quo(a.hi, b.lo),\n"
    "                          __lat_rg_quo(a.hi, b.hi)); }\n"
    "__LAT_RG_INL __lat_rg __lat_rg_mod(__lat_rg a, __lat_rg b)\n"
    "{ if ((b.lo <= 0 && b.hi >= 0) || !__lat_rg_small(a) || !__lat_rg_small(b)) return __lat_rg_big();\n"
    "  __lat_i128 m = __lat_rg_max(b.lo < 0 ? -b.lo : b.lo, b.hi < 0 ? -b.hi : b.hi) - 1;\n"
    "  if (a.lo >= 0) return __lat_rg_k(0, __lat_rg_min(a.hi, m));\n"
    "  if (a.hi <= 0) return __lat_rg_k(__lat_rg_max(a.lo, -m), 0);\n"
    "  return __lat_rg_k(-m, m); }\n"
    "__LAT_RG_INL __lat_rg __lat_rg_shr(__lat_rg a, __lat_rg b)\n"
    "{ if (a.lo < 0 || b.lo < 0 || b.hi > 126) return __lat_rg_big();\n"
    "  return __lat_rg_k(a.lo >> b.hi, a.hi >> b.lo); }\n"
    "__LAT_RG_INL __lat_rg __lat_rg_shl(__lat_rg a, __lat_rg b)\n"
    "{ if (a.lo < 0 || a.hi > ((__lat_i128)1 << 64) || b.lo < 0 || b.hi > 62) return __lat_rg_big();\n"
    "  return __lat_rg_k(a.lo << b.lo, a.hi << b.hi); }\n"
    /* x & y is between 0 and y where y is not negative (two's complement), whatever x. */
    "__LAT_RG_INL __lat_rg __lat_rg_and(__lat_rg a, __lat_rg b)\n"
    "{ if (a.lo >= 0 && b.lo >= 0) return __lat_rg_k(0, __lat_rg_min(a.hi, b.hi));\n"
    "  if (b.lo >= 0) return __lat_rg_k(0, b.hi);\n"
    "  if (a.lo >= 0) return __lat_rg_k(0, a.hi);\n"
    "  return __lat_rg_big(); }\n"
    "__LAT_RG_INL __lat_rg __lat_rg_join(__lat_rg a, __lat_rg b)\n"
    "{ return __lat_rg_k(__lat_rg_min(a.lo, b.lo), __lat_rg_max(a.hi, b.hi)); }\n";

const char lat__bounds_prefix2[] =
    /* x compared with y in a type both fit: C's comparison is the integers'. */
    "__LAT_RG_INL int __lat_rg_fits(__lat_rg a, int bits, int sgn)\n"
    "{ __lat_rg t = __lat_rg_ty(bits, sgn); return a.lo >= t.lo && a.hi <= t.hi; }\n"
    "__LAT_RG_INL __lat_rg __lat_rg_lt(__lat_rg x, __lat_rg y, int bits, int sgn)\n"
    "{ if (__lat_rg_fits(x, bits, sgn) && __lat_rg_fits(y, bits, sgn)) x.hi = __lat_rg_min(x.hi, y.hi - 1); return x; }\n"
    "__LAT_RG_INL __lat_rg __lat_rg_le(__lat_rg x, __lat_rg y, int bits, int sgn)\n"
    "{ if (__lat_rg_fits(x, bits, sgn) && __lat_rg_fits(y, bits, sgn)) x.hi = __lat_rg_min(x.hi, y.hi); return x; }\n"
    "__LAT_RG_INL __lat_rg __lat_rg_gt(__lat_rg x, __lat_rg y, int bits, int sgn)\n"
    "{ if (__lat_rg_fits(x, bits, sgn) && __lat_rg_fits(y, bits, sgn)) x.lo = __lat_rg_max(x.lo, y.lo + 1); return x; }\n"
    "__LAT_RG_INL __lat_rg __lat_rg_ge(__lat_rg x, __lat_rg y, int bits, int sgn)\n"
    "{ if (__lat_rg_fits(x, bits, sgn) && __lat_rg_fits(y, bits, sgn)) x.lo = __lat_rg_max(x.lo, y.lo); return x; }\n"
    /* A loop's variable v from a, while v < b (strict) or v <= b, by step: in the body,
     * from a.lo to b's bound, if no step wraps it and every value it is compared at fits
     * the comparison's type; else every value of its type. */
    "__LAT_RG_INL __lat_rg __lat_rg_up(__lat_rg a, __lat_rg b, int strict, __lat_i128 step, int vb, int vs, int cb, int cs)\n"
    "{ __lat_rg t = __lat_rg_ty(vb, vs); __lat_i128 hi = strict ? b.hi - 1 : b.hi;\n"
    "  __lat_rg seen = __lat_rg_k(a.lo, __lat_rg_max(a.hi, hi + step));\n"
    "  if (hi + step > t.hi || !__lat_rg_fits(seen, cb, cs) || !__lat_rg_fits(b, cb, cs)) return t;\n"
    "  return __lat_rg_k(a.lo, hi); }\n"
    "__LAT_RG_INL __lat_rg __lat_rg_down(__lat_rg a, __lat_rg b, int strict, __lat_i128 step, int vb, int vs, int cb, int cs)\n"
    "{ __lat_rg t = __lat_rg_ty(vb, vs); __lat_i128 lo = strict ? b.lo + 1 : b.lo;\n"
    "  __lat_rg seen = __lat_rg_k(__lat_rg_min(a.lo, lo - step), a.hi);\n"
    "  if (lo - step < t.lo || !__lat_rg_fits(seen, cb, cs) || !__lat_rg_fits(b, cb, cs)) return t;\n"
    "  return __lat_rg_k(lo, a.hi); }\n"
    /* v /= step or v >>= step from a not negative: v stays so, and only decreases. */
    "__LAT_RG_INL __lat_rg __lat_rg_halve(__lat_rg a, __lat_rg b, int strict, __lat_i128 step, int vb, int vs, int cb, int cs)\n"
    "{ __lat_rg t = __lat_rg_ty(vb, vs); (void)step;\n"
    "  if (a.lo < 0 || !__lat_rg_fits(__lat_rg_k(0, a.hi), cb, cs) || !__lat_rg_fits(b, cb, cs)) return t;\n"
    "  return __lat_rg_k(__lat_rg_max(0, strict ? b.lo + 1 : b.lo), a.hi); }\n"
    "__LAT_RG_INL int __lat_rg_in(__lat_rg r, __lat_i128 n) { return r.lo >= 0 && r.hi < n && r.lo <= r.hi; }\n";
