/*
 * Calls of constexpr functions in constant expressions (parse.h): `Tile<ilog2(16)>`,
 * `__shared__ float s[tile_size()]`, `static_assert(f(3) == 6)`, `case bits(4):`. Two
 * forms are evaluated for constant arguments:
 * - a function whose body is one `return` of an integer expression of its parameters
 *   (C++11's constexpr form: ?:, recursion, calls of others);
 * - a function declared constexpr whose body C++14 allows (integer locals, assignments,
 *   ++ and --, if, switch, for, while, do, break, continue, several returns).
 * Values are integers, computed in the types the tree gives each operation, each step
 * folded as the front end folds any constant expression (lat__int_fold, lat__int_wrap),
 * or float and double values (+, -, *, /, comparisons, conversions), each operation
 * rounded to its type as IEEE arithmetic in that type does (C++'s compile-time values,
 * never contracted to a fused multiply-add); lat__fold_float_calls makes the floating
 * ones constants where a static variable needs one.
 * An element of a constant array of integers given its values is read (a lookup table,
 * `constexpr int bits[] = {...}`). Anything else (long double, another array, a
 * pointer, a global, a division by zero, a
 * shift past the width, a read of a variable before its value, a recursion too deep, too
 * many steps) leaves the call a call: where a constant is needed, the error says so. The
 * call itself stays in the tree and runs as written.
 */
#include "parse.h"

#include "visit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 64, MAX_STEPS = 1000000, MAX_VARS = 256 };

typedef struct frame {
    const lat__func *fn;
    const lat__sym *vars[MAX_VARS]; /* the parameters, then the locals as they are declared */
    int64_t vals[MAX_VARS];
    int nvars;
    int64_t ret;
    const lat__type *ret_type; /* the returned expression's */
    int depth;
    int *steps;
} frame;

typedef enum flow { FLOW_NEXT, FLOW_BREAK, FLOW_CONTINUE, FLOW_RETURN, FLOW_FAIL } flow;

static bool eval(frame *f, const lat__expr *e, int64_t *out);

static bool integer(const lat__type *t)
{
    return t && (lat__is_integer(t) || t->kind == LAT_TY_BOOL);
}

/* float and double values are kept as the bits of a double (a float's value exactly),
 * each operation rounded to its type as IEEE arithmetic in that type does */
static bool floating(const lat__type *t)
{
    return t && (t->kind == LAT_TY_FLOAT || t->kind == LAT_TY_DOUBLE);
}

static bool scalar(const lat__type *t)
{
    return integer(t) || floating(t);
}

static double fv(int64_t v)
{
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}

static int64_t fb(const lat__type *t, double d)
{
    if (t->kind == LAT_TY_FLOAT)
        d = (float)d;
    int64_t v;
    memcpy(&v, &d, sizeof v);
    return v;
}

/* v, a value of type from, as a value of type to; false where C++ has no constant (a
 * floating value out of the integer type's range) */
static bool convert(const lat__type *to, const lat__type *from, int64_t v, int64_t *out)
{
    if (!floating(to) && !floating(from)) {
        *out = lat__int_wrap(to, (uint64_t)v);
        return true;
    }
    if (floating(to) && floating(from)) {
        *out = fb(to, fv(v));
        return true;
    }
    if (floating(to)) { /* from an integer: rounded once, to the type */
        bool u = lat__is_unsigned(from) && lat__sizeof(from) == 8;
        if (to->kind == LAT_TY_FLOAT)
            *out = fb(to, u ? (float)(uint64_t)v : (float)v);
        else
            *out = fb(to, u ? (double)(uint64_t)v : (double)v);
        return true;
    }
    double d = fv(v);
    if (to->kind == LAT_TY_BOOL) {
        *out = d != 0;
        return true;
    }
    if (!(d > -9.2e18 && d < 9.2e18))
        return false;
    int64_t i = (int64_t)d; /* toward zero */
    if (lat__int_wrap(to, (uint64_t)i) != i || (lat__is_unsigned(to) && d <= -1.0))
        return false;
    *out = i;
    return true;
}

static bool nonzero(const lat__type *t, int64_t v)
{
    return floating(t) ? fv(v) != 0 : v != 0;
}

/* a op b in the floating type t; comparisons give an int */
static bool float_op(int op, const lat__type *t, double a, double b, const lat__type *rt, int64_t *out)
{
    switch (op) {
    case LAT_P_PLUS: *out = fb(t, a + b); return true;
    case LAT_P_MINUS: *out = fb(t, a - b); return true;
    case LAT_P_STAR: *out = fb(t, t->kind == LAT_TY_FLOAT ? (double)((float)a * (float)b) : a * b); return true;
    case LAT_P_SLASH:
        if (b == 0)
            return false; /* undefined: no constant */
        *out = fb(t, t->kind == LAT_TY_FLOAT ? (double)((float)a / (float)b) : a / b);
        return true;
    case LAT_P_LT: *out = a < b; break;
    case LAT_P_GT: *out = a > b; break;
    case LAT_P_LE: *out = a <= b; break;
    case LAT_P_GE: *out = a >= b; break;
    case LAT_P_EQ: *out = a == b; break;
    case LAT_P_NE: *out = a != b; break;
    default: return false;
    }
    return integer(rt);
}

/* The body `{ return e; }`'s e, or NULL. */
static const lat__expr *returned(const lat__func *fn)
{
    const lat__stmt *b = fn ? fn->body : NULL;
    if (!b || b->kind != LAT_S_COMPOUND || b->items.n != 1 || fn->has_error)
        return NULL;
    const lat__stmt *r = b->items.items[0];
    return r->kind == LAT_S_RETURN && r->e ? r->e : NULL;
}

static flow exec(frame *f, const lat__stmt *s);

static bool call(frame *f, const lat__expr *e, int64_t *out)
{
    const lat__sym *s = e->sym;
    const lat__func *fn = s && s->kind == LAT_SYM_FUNC ? s->fn : NULL;
    const lat__expr *r = returned(fn);
    bool body = !r && fn && fn->body && !fn->has_error && (s->flags & LAT_SF_CONSTEXPR);
    if ((!r && !body) || f->depth >= MAX_DEPTH || e->nargs != fn->nparams || e->nargs > MAX_VARS ||
        !scalar(e->type))
        return false;
    frame *inner = malloc(sizeof *inner); /* frames are large: not on the parser's stack */
    if (!inner)
        return false;
    inner->fn = fn;
    inner->nvars = e->nargs;
    inner->depth = f->depth + 1;
    inner->steps = f->steps;
    bool ok = true;
    for (int i = 0; ok && i < e->nargs; i++) {
        inner->vars[i] = fn->params[i];
        ok = fn->params[i] && scalar(e->args[i]->type) && scalar(fn->params[i]->type) &&
             eval(f, e->args[i], &inner->vals[i]) &&
             convert(fn->params[i]->type, e->args[i]->type, inner->vals[i], &inner->vals[i]);
    }
    int64_t v = 0;
    const lat__type *vt = r ? r->type : NULL;
    if (ok)
        ok = r ? eval(inner, r, &v) : exec(inner, fn->body) == FLOW_RETURN;
    if (ok && !r) {
        v = inner->ret;
        vt = inner->ret_type;
    }
    free(inner);
    return ok && vt && convert(e->type, vt, v, out);
}

/* The variable's slot in the frame, or -1. */
static int slot(const frame *f, const lat__sym *s)
{
    for (int i = f->nvars; i-- > 0;)
        if (f->vars[i] == s)
            return i;
    return -1;
}

/* The slot of the variable an assignment, ++ or -- writes, or -1. */
static int target(const frame *f, const lat__expr *e)
{
    if (!e || e->kind != LAT_E_NAME || !e->sym || e->sym->kind != LAT_SYM_VAR || !scalar(e->type))
        return -1;
    return slot(f, e->sym);
}

/* a op b for a compound assignment: computed in C's type for it, stored in a's. */
static bool compound(lat__punct op, const lat__type *at, const lat__type *bt, int64_t a, int64_t b, int64_t *out)
{
    if (floating(at) || floating(bt)) {
        lat__type *ft = lat__usual_arith((lat__type *)at, (lat__type *)bt);
        int64_t x, y, r;
        if (op != LAT_P_PLUS && op != LAT_P_MINUS && op != LAT_P_STAR && op != LAT_P_SLASH)
            return false;
        return floating(ft) && convert(ft, at, a, &x) && convert(ft, bt, b, &y) &&
               float_op(op, ft, fv(x), fv(y), ft, &r) && convert(at, ft, r, out);
    }
    lat__type *ct = op == LAT_P_SHL || op == LAT_P_SHR ? lat__promote((lat__type *)at)
                                                         : lat__usual_arith((lat__type *)at, (lat__type *)bt);
    if (!integer(ct))
        return false;
    if ((op == LAT_P_SHL || op == LAT_P_SHR) && (b < 0 || b >= 8 * (int64_t)lat__sizeof(ct)))
        return false; /* past the width: undefined, no constant */
    int64_t r;
    if (!lat__int_fold(op, ct, op == LAT_P_SHL || op == LAT_P_SHR ? bt : ct, ct, lat__int_wrap(ct, (uint64_t)a),
                       lat__int_wrap(op == LAT_P_SHL || op == LAT_P_SHR ? bt : ct, (uint64_t)b), &r))
        return false;
    *out = lat__int_wrap(at, (uint64_t)r);
    return true;
}

static bool eval(frame *f, const lat__expr *e, int64_t *out)
{
    if (!e || ++*f->steps > MAX_STEPS || (e->flags & LAT_EF_ERROR) || !scalar(e->type))
        return false;
    if (floating(e->type) && e->kind == LAT_E_FLOAT) {
        /* the spelling read again in the literal's type (a float's rounded once) */
        char *end;
        double d = e->text && e->type->kind == LAT_TY_FLOAT ? (double)strtof(e->text, &end) : e->fval;
        *out = fb(e->type, d);
        return true;
    }
    if ((e->flags & LAT_EF_CONST) && floating(e->type))
        return false;
    if (e->flags & LAT_EF_CONST) {
        *out = e->ival;
        return true;
    }
    int64_t a, b;
    int k;
    switch (e->kind) {
    case LAT_E_INT:
        *out = e->ival;
        return true;
    case LAT_E_NAME:
        if (e->sym && e->sym->kind == LAT_SYM_ENUM_CONST) {
            *out = e->sym->value;
            return true;
        }
        if ((k = slot(f, e->sym)) < 0)
            return false;
        return convert(e->type, e->sym->type, f->vals[k], out);
    case LAT_E_CAST:
        if (!scalar(e->a->type) || !eval(f, e->a, &a))
            return false;
        return convert(e->type, e->a->type, a, out);
    case LAT_E_UNARY:
        if (e->op == LAT_P_INC || e->op == LAT_P_DEC) {
            if ((k = target(f, e->a)) < 0)
                return false;
            if (floating(e->a->type))
                f->vals[k] = fb(e->a->type, fv(f->vals[k]) + (e->op == LAT_P_INC ? 1.0 : -1.0));
            else
                f->vals[k] = lat__int_wrap(e->a->type, (uint64_t)f->vals[k] + (e->op == LAT_P_INC ? 1u : UINT64_MAX));
            *out = f->vals[k];
            return true;
        }
        if (!eval(f, e->a, &a))
            return false;
        if (floating(e->a->type)) {
            switch (e->op) {
            case LAT_P_PLUS: return convert(e->type, e->a->type, a, out);
            case LAT_P_MINUS: *out = fb(e->a->type, -fv(a)); return floating(e->type);
            case LAT_P_BANG: *out = fv(a) == 0; return integer(e->type);
            default: return false;
            }
        }
        switch (e->op) {
        case LAT_P_PLUS: *out = lat__int_wrap(e->type, (uint64_t)a); return true;
        case LAT_P_MINUS: *out = lat__int_wrap(e->type, 0u - (uint64_t)a); return true;
        case LAT_P_TILDE: *out = lat__int_wrap(e->type, (uint64_t)~a); return true;
        case LAT_P_BANG: *out = a == 0; return true;
        default: return false;
        }
    case LAT_E_POSTFIX:
        if ((k = target(f, e->a)) < 0)
            return false;
        *out = f->vals[k];
        if (floating(e->a->type))
            f->vals[k] = fb(e->a->type, fv(f->vals[k]) + (e->op == LAT_P_INC ? 1.0 : -1.0));
        else
            f->vals[k] = lat__int_wrap(e->a->type, (uint64_t)f->vals[k] + (e->op == LAT_P_INC ? 1u : UINT64_MAX));
        return true;
    case LAT_E_ASSIGN:
        if ((k = target(f, e->a)) < 0 || !scalar(e->b->type) || !eval(f, e->b, &b))
            return false;
        if (e->op == LAT_P_ASSIGN) {
            if (!convert(e->a->type, e->b->type, b, &f->vals[k]))
                return false;
        } else if (!compound(lat__compound_base(e->op), e->a->type, e->b->type, f->vals[k], b, &f->vals[k]))
            return false;
        *out = f->vals[k];
        return true;
    case LAT_E_BINARY:
        if (e->op == LAT_P_ANDAND || e->op == LAT_P_OROR) {
            if (!eval(f, e->a, &a))
                return false;
            if ((e->op == LAT_P_ANDAND) == !nonzero(e->a->type, a)) {
                *out = e->op == LAT_P_OROR;
                return true;
            }
            if (!eval(f, e->b, &b))
                return false;
            *out = nonzero(e->b->type, b);
            return true;
        }
        if (e->op == LAT_P_COMMA)
            return eval(f, e->a, &a) && eval(f, e->b, out);
        if (!scalar(e->a->type) || !scalar(e->b->type) || !eval(f, e->a, &a) || !eval(f, e->b, &b))
            return false;
        if (floating(e->a->type) || floating(e->b->type)) {
            lat__type *ft = lat__usual_arith(e->a->type, e->b->type);
            int64_t x, y;
            return floating(ft) && convert(ft, e->a->type, a, &x) && convert(ft, e->b->type, b, &y) &&
                   float_op(e->op, ft, fv(x), fv(y), e->type, out) &&
                   (integer(e->type) || (floating(e->type) && e->type->kind == ft->kind));
        }
        if ((e->op == LAT_P_SHL || e->op == LAT_P_SHR) && (b < 0 || b >= 8 * (int64_t)lat__sizeof(e->a->type)))
            return false; /* past the width: undefined, no constant */
        return lat__int_fold((lat__punct)e->op, e->a->type, e->b->type, e->type, a, b, out);
    case LAT_E_COND:
        if (!e->b || !eval(f, e->a, &a))
            return false;
        const lat__expr *arm = nonzero(e->a->type, a) ? e->b : e->c;
        if (!eval(f, arm, &b))
            return false;
        return convert(e->type, arm->type, b, out);
    case LAT_E_INDEX: {
        /* table[i] of a constant array of integers given its values (constexpr int
         * table[] = {...}, at file scope or in the function): its element */
        const lat__expr *arr = e->a;
        while (arr && arr->kind == LAT_E_CAST && (arr->flags & LAT_EF_IMPLICIT))
            arr = arr->a;
        const lat__sym *v = arr && arr->kind == LAT_E_NAME ? arr->sym : NULL;
        const lat__type *at = v && v->kind == LAT_SYM_VAR ? v->type : NULL;
        const lat__expr *init = v && v->def ? v->def->init : NULL;
        if (!at || at->kind != LAT_TY_ARRAY || !integer(at->base) || !(at->base->quals & LAT_Q_CONST) || !init ||
            init->kind != LAT_E_INIT || !eval(f, e->b, &b) || b < 0 || (at->count >= 0 && b >= at->count))
            return false;
        for (size_t i = 0; i < init->items.n; i++)
            if (init->items.items[i].desig)
                return false;
        if ((size_t)b >= init->items.n) {
            *out = 0; /* an element the list leaves out */
            return at->count >= 0;
        }
        const lat__expr *x = init->items.items[b].value;
        if (!x || !(x->flags & LAT_EF_CONST) || floating(x->type) || !integer(x->type))
            return false;
        return convert(e->type, x->type, x->ival, out);
    }
    case LAT_E_CALL:
        return call(f, e, out);
    default:
        return false;
    }
}

/* A condition's truth: an integer, or a comparison's int. */
static bool truth(frame *f, const lat__expr *e, bool *out)
{
    int64_t v;
    if (!eval(f, e, &v))
        return false;
    *out = nonzero(e->type, v);
    return true;
}

/* A block's declaration: each variable an integer given its value. */
static flow declare(frame *f, const lat__decl_group *g)
{
    if (g->static_assert_)
        return FLOW_NEXT;
    for (const lat__decl *d = g->first; d; d = d->next) {
        const lat__sym *s = d->sym;
        int64_t v;
        if (!s || s->kind != LAT_SYM_VAR || s->storage == LAT_ST_STATIC || s->storage == LAT_ST_EXTERN ||
            !scalar(s->type) || !d->init || d->init->kind == LAT_E_INIT || f->nvars >= MAX_VARS ||
            !eval(f, d->init, &v) || !convert(s->type, d->init->type, v, &v))
            return FLOW_FAIL;
        f->vars[f->nvars] = s;
        f->vals[f->nvars++] = v;
    }
    return FLOW_NEXT;
}

/* Whether the case or default statement c is s or starts s (case 1: case 2: body). */
static bool starts(const lat__stmt *s, const lat__stmt *c)
{
    for (; s; s = s->kind == LAT_S_CASE || s->kind == LAT_S_DEFAULT ? s->body : NULL)
        if (s == c)
            return true;
    return false;
}

/* switch: the items of its block from the label the value picks. */
static flow run_switch(frame *f, const lat__stmt *s)
{
    int64_t v;
    if (!eval(f, s->e, &v) || !s->body || s->body->kind != LAT_S_COMPOUND)
        return FLOW_FAIL;
    const lat__stmt *pick = NULL, *dflt = NULL;
    for (size_t i = 0; i < s->cases.n && !pick; i++) {
        const lat__stmt *c = s->cases.items[i];
        if (c->kind == LAT_S_DEFAULT)
            dflt = c;
        else if (v >= c->value && v <= (c->high > c->value ? c->high : c->value))
            pick = c;
    }
    pick = pick ? pick : dflt;
    if (!pick)
        return FLOW_NEXT;
    const lat__stmt *b = s->body;
    size_t i = 0;
    while (i < b->items.n && !starts(b->items.items[i], pick))
        i++;
    if (i == b->items.n)
        return FLOW_FAIL; /* a label inside a nested statement: not followed */
    int mark = f->nvars;
    for (; i < b->items.n; i++) {
        flow r = exec(f, b->items.items[i]);
        if (r == FLOW_BREAK)
            break;
        if (r != FLOW_NEXT) {
            f->nvars = mark;
            return r;
        }
    }
    f->nvars = mark;
    return FLOW_NEXT;
}

/* A loop's body and step, as long as cond (NULL: for ever) holds; do: the body first. */
static flow loop(frame *f, const lat__expr *cond, const lat__stmt *body, const lat__expr *step, bool first)
{
    for (;;) {
        if (!first) {
            bool go = true;
            if (cond && !truth(f, cond, &go))
                return FLOW_FAIL;
            if (!go)
                return FLOW_NEXT;
        }
        first = false;
        flow r = exec(f, body);
        if (r == FLOW_BREAK)
            return FLOW_NEXT;
        if (r == FLOW_RETURN || r == FLOW_FAIL)
            return r;
        int64_t v;
        if (step && !eval(f, step, &v))
            return FLOW_FAIL;
    }
}

static flow exec(frame *f, const lat__stmt *s)
{
    if (!s || ++*f->steps > MAX_STEPS)
        return FLOW_FAIL;
    int64_t v;
    bool c;
    switch (s->kind) {
    case LAT_S_NULL:
        return FLOW_NEXT;
    case LAT_S_COMPOUND: {
        int mark = f->nvars; /* a block's variables end with it */
        flow r = FLOW_NEXT;
        for (size_t i = 0; i < s->items.n && r == FLOW_NEXT; i++)
            r = exec(f, s->items.items[i]);
        f->nvars = mark;
        return r;
    }
    case LAT_S_DECL:
        return declare(f, s->decls);
    case LAT_S_EXPR:
        return eval(f, s->e, &v) ? FLOW_NEXT : FLOW_FAIL;
    case LAT_S_IF:
        if (!truth(f, s->e, &c))
            return FLOW_FAIL;
        return c ? exec(f, s->body) : s->els ? exec(f, s->els) : FLOW_NEXT;
    case LAT_S_WHILE:
        return loop(f, s->e, s->body, NULL, false);
    case LAT_S_DO:
        return loop(f, s->e, s->body, NULL, true);
    case LAT_S_FOR: {
        int mark = f->nvars;
        flow r = FLOW_NEXT;
        if (s->init)
            r = exec(f, s->init);
        if (r == FLOW_NEXT)
            r = loop(f, s->e, s->body, s->step, false);
        f->nvars = mark;
        return r;
    }
    case LAT_S_SWITCH:
        return run_switch(f, s);
    case LAT_S_CASE:
    case LAT_S_DEFAULT:
        return exec(f, s->body);
    case LAT_S_BREAK:
        return FLOW_BREAK;
    case LAT_S_CONTINUE:
        return FLOW_CONTINUE;
    case LAT_S_RETURN:
        if (!s->e || !eval(f, s->e, &f->ret))
            return FLOW_FAIL;
        f->ret_type = s->e->type;
        return FLOW_RETURN;
    default:
        return FLOW_FAIL;
    }
}

void lat__fold_constexpr_call(lat__parser *p, lat__expr *e)
{
    (void)p;
    if (e->kind != LAT_E_CALL || (e->flags & (LAT_EF_ERROR | LAT_EF_CONST)) || !integer(e->type))
        return;
    for (int i = 0; i < e->nargs; i++)
        if (!(e->args[i]->flags & LAT_EF_CONST) && !floating(e->args[i]->type))
            return; /* (a floating argument is read by eval: a constant, or no value) */
    int steps = 0;
    frame top = {.steps = &steps};
    int64_t v;
    if (call(&top, e, &v)) {
        e->flags |= LAT_EF_CONST;
        e->ival = v;
    }
}

static bool fold_float_call(lat__visitor *w, lat__expr *e)
{
    lat__parser *p = w->data;
    if (e->kind != LAT_E_CALL || (e->flags & (LAT_EF_ERROR | LAT_EF_CONST)) || !floating(e->type))
        return true;
    int steps = 0;
    frame top = {.steps = &steps};
    int64_t v;
    if (!call(&top, e, &v) || !isfinite(fv(v)))
        return true; /* stays a call: the caller says why it needs a constant */
    double d = fv(v);
    lat__expr *lit = lat__expr_new(p, LAT_E_FLOAT, e->loc);
    lit->type = e->type;
    lit->fval = fabs(d);
    lit->text = lat__arena_printf(&p->u->arena, "%a%s", fabs(d), e->type->kind == LAT_TY_FLOAT ? "f" : "");
    lit->len = (uint32_t)strlen(lit->text);
    lat__type *t = e->type;
    lat__loc loc = e->loc;
    memset(e, 0, sizeof *e);
    e->loc = loc;
    e->type = t;
    if (signbit(d)) {
        e->kind = LAT_E_UNARY;
        e->op = LAT_P_MINUS;
        e->a = lit;
    } else {
        *e = *lit;
    }
    return false;
}

void lat__fold_float_calls(lat__parser *p, lat__expr *e)
{
    lat__visitor w = {.expr = fold_float_call, .data = p};
    lat__visit_expr(&w, e);
}
