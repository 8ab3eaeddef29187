/*
 * Collectives rewritten into shapes region loops place, in a copy of a kernel's body
 * (inline.h). The copy is the kernel's whole body, cloned node by node, so that a break
 * or continue still names its own loop; the callee's body is cloned again at each call,
 * with a local of its own (its own C name) for each parameter and automatic variable.
 * A __shared__ variable of the callee stays one variable (one per block, however often
 * it is reached, as on a GPU).
 *
 * Returns: the callee's `return e;` becomes `r = e;` where it is the last thing the body
 * does; where a return comes earlier, the body is wrapped in `do { ... } while (0)` and
 * the return becomes `{ r = e; break; }`, which the region planner runs as a per-thread
 * exit from that loop. A return inside a loop or switch of the callee sets a flag too, and
 * `if (returned) break;` after each loop or switch around it carries it out.
 *
 * Names: the inlined code names the callee's file-scope variables and functions by their
 * names; a local of the kernel's own of the same name would hide them, so such a call is
 * not inlined.
 */
#include "inline.h"

#include "emit.h"
#include "region_int.h"

#include "front/builtins.h"
#include "front/type.h"
#include "front/visit.h"

#include <string.h>

enum { MAX_DEPTH = 8 };

typedef struct remap {
    const void *from;
    void *to;
} remap;

typedef LAT_VEC(lat__stmt *) stmts;

typedef struct inl {
    lat__unit *u;
    LAT_VEC(remap) syms;  /* the callee's locals being cloned -> their copies */
    LAT_VEC(remap) nodes; /* loops, switches and cases -> their copies */
    LAT_VEC(const char *) names; /* the C names of the kernel's own locals and parameters */
    lat__func *stack[MAX_DEPTH]; /* the functions being inlined, outermost first */
    int depth;
    bool callee; /* cloning a callee's body: its locals get copies */
    int fresh;
    bool changed;
    bool inlined; /* some call was */
    const char *why;
    lat__loc where;
} inl;

static void fail(inl *in, lat__loc at, const char *why)
{
    if (!in->why) {
        in->why = why;
        in->where = at;
    }
}

static void *find(const void *items, size_t n, const void *from)
{
    const remap *m = items;
    for (size_t i = n; i-- > 0;)
        if (m[i].from == from)
            return m[i].to;
    return NULL;
}

/* ---- cloning ------------------------------------------------------------------------------ */

static lat__stmt *clone_stmt(inl *in, const lat__stmt *s);

static bool hidden_by_kernel(inl *in, lat__sym *s)
{
    if (s->kind != LAT_SYM_FUNC && s->kind != LAT_SYM_ENUM_CONST &&
        !(s->kind == LAT_SYM_VAR && (s->flags & LAT_SF_FILE_SCOPE)))
        return false;
    if (!s->name || (s->flags & LAT_SF_BUILTIN))
        return false;
    const char *n = lat__emit_name(in->u, s);
    for (size_t i = 0; i < in->names.n; i++)
        if (strcmp(in->names.items[i], n) == 0)
            return true;
    return false;
}

static lat__expr *clone_expr(inl *in, const lat__expr *e)
{
    if (!e)
        return NULL;
    lat__expr *c = lat__arena_alloc(&in->u->arena, sizeof *c);
    *c = *e;
    c->aux = NULL;
    c->site = 0;
    c->bound = NULL;
    c->a = clone_expr(in, e->a);
    c->b = clone_expr(in, e->b);
    c->c = clone_expr(in, e->c);
    c->path = clone_expr(in, e->path);
    if (e->nargs) {
        c->args = lat__arena_alloc(&in->u->arena, (size_t)e->nargs * sizeof *c->args);
        for (int i = 0; i < e->nargs; i++)
            c->args[i] = clone_expr(in, e->args[i]);
    }
    if (e->items.n) {
        memset(&c->items, 0, sizeof c->items);
        for (size_t i = 0; i < e->items.n; i++) {
            lat__init_item it = {clone_expr(in, e->items.items[i].value), e->items.items[i].desig};
            LAT_PUSH(&in->u->arena, c->items, it);
        }
    }
    if (e->kind == LAT_E_STMT)
        c->stmt = clone_stmt(in, e->stmt);
    if (e->kind == LAT_E_NAME && e->sym) {
        lat__sym *m = find(in->syms.items, in->syms.n, e->sym);
        if (m)
            c->sym = m;
        else if (in->callee && hidden_by_kernel(in, e->sym))
            fail(in, e->loc, "a function with collectives naming something a local of the kernel hides");
    }
    return c;
}

/* A local of the kernel for a callee's variable or parameter: its own C name. */
static lat__sym *local_copy(inl *in, const lat__sym *s, lat__type *type)
{
    lat__sym *c = lat__arena_alloc(&in->u->arena, sizeof *c);
    *c = *s;
    c->aux = NULL;
    c->type = type;
    c->flags &= ~(uint32_t)(LAT_SF_PARAM | LAT_SF_FILE_SCOPE);
    c->storage = LAT_ST_NONE;
    c->emit_name = lat__arena_printf(&in->u->arena, "__lat_i%d_%s", ++in->fresh,
                                     s->name ? s->name->name : "arg");
    return c;
}

static bool automatic(const lat__sym *s)
{
    return s->kind == LAT_SYM_VAR && !(s->cuda & LAT_CU_SHARED) &&
           (s->storage == LAT_ST_NONE || s->storage == LAT_ST_AUTO || s->storage == LAT_ST_REGISTER);
}

static lat__decl_group *clone_decls(inl *in, const lat__decl_group *g)
{
    if (!g)
        return NULL;
    lat__decl_group *c = lat__arena_alloc(&in->u->arena, sizeof *c);
    *c = *g;
    lat__decl **tail = &c->first;
    for (const lat__decl *d = g->first; d; d = d->next) {
        lat__decl *n = lat__arena_alloc(&in->u->arena, sizeof *n);
        *n = *d;
        n->next = NULL;
        lat__sym *s = d->sym;
        if (in->callee && s && s->kind == LAT_SYM_VAR && s->type && s->type->kind == LAT_TY_ARRAY &&
            s->type->vla)
            fail(in, d->loc, "a variable-length array in a function with collectives");
        if (in->callee && s && automatic(s)) {
            n->sym = local_copy(in, s, s->type);
            n->sym->def = n;
            remap m = {s, n->sym};
            LAT_PUSH(&in->u->arena, in->syms, m);
        } else if (in->callee && s && s->kind == LAT_SYM_VAR && !(s->cuda & LAT_CU_SHARED) &&
                   s->storage == LAT_ST_STATIC) {
            /* One variable for every call: a copy at each call would be another. */
            fail(in, d->loc, "a static variable in a function with collectives");
        }
        n->init = clone_expr(in, d->init);
        *tail = n;
        tail = &n->next;
    }
    return c;
}

static lat__stmt *clone_stmt(inl *in, const lat__stmt *s)
{
    if (!s)
        return NULL;
    lat__stmt *c = lat__arena_alloc(&in->u->arena, sizeof *c);
    *c = *s;
    c->aux = NULL;
    remap m = {s, c};
    LAT_PUSH(&in->u->arena, in->nodes, m);
    switch (s->kind) {
    case LAT_S_COMPOUND:
        memset(&c->items, 0, sizeof c->items);
        for (size_t i = 0; i < s->items.n; i++)
            LAT_PUSH(&in->u->arena, c->items, clone_stmt(in, s->items.items[i]));
        return c;
    case LAT_S_DECL:
        c->decls = clone_decls(in, s->decls);
        return c;
    case LAT_S_BREAK:
    case LAT_S_CONTINUE:
        c->target = find(in->nodes.items, in->nodes.n, s->target);
        if (!c->target)
            fail(in, s->loc, "a break or continue the inliner cannot follow");
        return c;
    case LAT_S_GOTO:
    case LAT_S_LABEL:
        fail(in, s->loc, "a label or goto in a function with collectives");
        return c;
    default:
        break;
    }
    c->init = clone_stmt(in, s->init); /* first: it declares what the rest names */
    c->e = clone_expr(in, s->e);
    c->step = clone_expr(in, s->step);
    c->body = clone_stmt(in, s->body);
    c->els = clone_stmt(in, s->els);
    if (s->kind == LAT_S_SWITCH) {
        memset(&c->cases, 0, sizeof c->cases);
        for (size_t i = 0; i < s->cases.n; i++)
            LAT_PUSH(&in->u->arena, c->cases, find(in->nodes.items, in->nodes.n, s->cases.items[i]));
    }
    return c;
}

/* ---- new nodes ----------------------------------------------------------------------------- */

static lat__stmt *new_stmt(inl *in, lat__stmtkind kind, lat__loc loc)
{
    lat__stmt *s = lat__arena_alloc(&in->u->arena, sizeof *s);
    s->kind = (uint8_t)kind;
    s->loc = s->end = loc;
    return s;
}

static lat__stmt *decl_stmt(inl *in, lat__sym *s, lat__expr *init, lat__loc loc)
{
    lat__stmt *st = new_stmt(in, LAT_S_DECL, loc);
    lat__decl *d = lat__arena_alloc(&in->u->arena, sizeof *d);
    d->sym = s;
    d->init = init;
    d->loc = loc;
    s->def = d;
    st->decls = lat__arena_alloc(&in->u->arena, sizeof *st->decls);
    st->decls->base = s->type;
    st->decls->first = d;
    st->decls->loc = loc;
    return st;
}

static lat__expr *name_of(inl *in, lat__sym *s, lat__loc loc)
{
    lat__expr *e = lat__arena_alloc(&in->u->arena, sizeof *e);
    e->kind = LAT_E_NAME;
    e->sym = s;
    e->type = s->type;
    e->loc = loc;
    e->flags = LAT_EF_LVALUE;
    return e;
}

static lat__stmt *expr_stmt(inl *in, lat__expr *e, lat__loc loc)
{
    lat__stmt *s = new_stmt(in, LAT_S_EXPR, loc);
    s->e = e;
    return s;
}

static lat__expr *int_const(inl *in, int v, lat__loc loc)
{
    lat__expr *e = lat__arena_alloc(&in->u->arena, sizeof *e);
    e->kind = LAT_E_INT;
    e->type = &lat__ty_int;
    e->flags = LAT_EF_CONST;
    e->ival = v;
    e->text = v ? "1" : "0";
    e->len = 1;
    e->loc = loc;
    return e;
}

/* A fresh local of type t (init NULL: each branch assigns it), declared in pre. */
static lat__sym *fresh_local(inl *in, lat__type *t, lat__expr *init, lat__loc loc, stmts *pre)
{
    lat__sym *r = lat__arena_alloc(&in->u->arena, sizeof *r);
    r->kind = LAT_SYM_VAR;
    r->name = lat__atom_get(&in->u->atoms, "v", 1);
    r->type = lat__unqualified(in->u, t);
    r->loc = loc;
    r->depth = 1;
    r->flags = (init ? 0 : LAT_SF_MODIFIED) | LAT_SF_USED;
    r->emit_name = lat__arena_printf(&in->u->arena, "__lat_i%d_v", ++in->fresh);
    LAT_PUSH(&in->u->arena, *pre, decl_stmt(in, r, init, loc));
    in->changed = true;
    return r;
}

/* ---- returns ------------------------------------------------------------------------------ */

typedef struct rets {
    lat__sym *result; /* NULL: a void function */
    lat__stmt *exit;  /* the do { } while (0) an early return breaks out of, or NULL */
    bool early;       /* some return is not the last thing the body does */
    bool in_loop;     /* some return is inside a loop or switch */
    lat__sym *returned; /* in_loop: set by such a return, for the breaks after each loop */
} rets;

/* Finds where the returns of a callee's body stand; tail: s is the last thing it does. */
static void scan_returns(rets *r, const lat__stmt *s, bool tail, bool loop)
{
    if (!s)
        return;
    switch (s->kind) {
    case LAT_S_COMPOUND: {
        size_t last = s->items.n;
        while (last > 0 && s->items.items[last - 1]->kind == LAT_S_NULL)
            last--;
        for (size_t i = 0; i < s->items.n; i++)
            scan_returns(r, s->items.items[i], tail && i + 1 == last, loop);
        return;
    }
    case LAT_S_IF:
        scan_returns(r, s->body, tail, loop);
        scan_returns(r, s->els, tail, loop);
        return;
    case LAT_S_RETURN:
        r->early |= !tail;
        r->in_loop |= loop;
        return;
    case LAT_S_WHILE:
    case LAT_S_DO:
    case LAT_S_FOR:
    case LAT_S_SWITCH:
        scan_returns(r, s->body, false, true);
        return;
    case LAT_S_CASE:
    case LAT_S_DEFAULT:
    case LAT_S_LABEL:
        scan_returns(r, s->body, false, loop);
        return;
    default:
        return;
    }
}

static bool note_return(lat__visitor *v, lat__stmt *s)
{
    if (s->kind == LAT_S_RETURN)
        *(bool *)v->data = true;
    return true;
}

static bool holds_return(lat__stmt *s)
{
    bool found = false;
    lat__visitor v = {note_return, NULL, NULL, &found};
    lat__visit_stmt(&v, s);
    return found;
}

/* `r = e;` for each `return e;` under *slot; early returns then leave: to the end of the
 * body (r->exit) by a break, through each loop or switch around them by a break and,
 * after it, `if (returned) break;` (loop: the innermost loop or switch around *slot). */
static void rewrite_returns(inl *in, rets *r, lat__stmt **slot, lat__stmt *loop)
{
    lat__stmt *s = *slot;
    if (!s)
        return;
    switch (s->kind) {
    case LAT_S_COMPOUND:
        for (size_t i = 0; i < s->items.n; i++)
            rewrite_returns(in, r, &s->items.items[i], loop);
        return;
    case LAT_S_IF:
        rewrite_returns(in, r, &s->body, loop);
        rewrite_returns(in, r, &s->els, loop);
        return;
    case LAT_S_CASE:
    case LAT_S_DEFAULT:
    case LAT_S_LABEL:
        rewrite_returns(in, r, &s->body, loop);
        return;
    case LAT_S_WHILE:
    case LAT_S_DO:
    case LAT_S_FOR:
    case LAT_S_SWITCH: {
        if (!holds_return(s))
            return;
        rewrite_returns(in, r, &s->body, s);
        lat__stmt *c = new_stmt(in, LAT_S_COMPOUND, s->loc);
        lat__stmt *test = new_stmt(in, LAT_S_IF, s->loc);
        test->e = name_of(in, r->returned, s->loc);
        test->body = new_stmt(in, LAT_S_BREAK, s->loc);
        test->body->target = loop ? loop : r->exit;
        LAT_PUSH(&in->u->arena, c->items, s);
        LAT_PUSH(&in->u->arena, c->items, test);
        *slot = c;
        return;
    }
    case LAT_S_RETURN:
        break;
    default:
        return;
    }
    /* In place: the statement stays where its parent holds it. */
    lat__expr *e = s->e;
    lat__stmt *value = NULL;
    if (e && r->result) {
        lat__expr *a = lat__arena_alloc(&in->u->arena, sizeof *a);
        a->kind = LAT_E_ASSIGN;
        a->op = LAT_P_ASSIGN;
        a->type = r->result->type;
        a->loc = s->loc;
        a->a = name_of(in, r->result, s->loc);
        a->b = e;
        value = expr_stmt(in, a, s->loc);
    } else if (e) {
        value = expr_stmt(in, e, s->loc); /* return g(); in a void function */
    }
    if (!r->exit) {
        if (value)
            *s = *value;
        else
            *s = (lat__stmt){.kind = LAT_S_NULL, .loc = s->loc, .end = s->loc};
        return;
    }
    lat__stmt *brk = new_stmt(in, LAT_S_BREAK, s->loc);
    brk->target = loop ? loop : r->exit;
    lat__stmt block = {.kind = LAT_S_COMPOUND, .loc = s->loc, .end = s->loc};
    if (value)
        LAT_PUSH(&in->u->arena, block.items, value);
    if (loop) {
        lat__expr *a = lat__arena_alloc(&in->u->arena, sizeof *a);
        a->kind = LAT_E_ASSIGN;
        a->op = LAT_P_ASSIGN;
        a->type = &lat__ty_int;
        a->loc = s->loc;
        a->a = name_of(in, r->returned, s->loc);
        a->b = int_const(in, 1, s->loc);
        LAT_PUSH(&in->u->arena, block.items, expr_stmt(in, a, s->loc));
    }
    LAT_PUSH(&in->u->arena, block.items, brk);
    *s = block;
}

/* ---- inlining ------------------------------------------------------------------------------ */

static void norm_compound(inl *in, lat__stmt *s);
static lat__stmt *norm(inl *in, lat__stmt *s);

/* The function a call may be inlined from: defined here, reaching a collective. */
static lat__func *inlinable(const lat__expr *call)
{
    const lat__expr *callee = lat__emit_direct_callee(call);
    lat__sym *f = callee ? callee->sym : NULL;
    if (!f || f->kind != LAT_SYM_FUNC || !f->fn || !f->fn->calls_collective)
        return NULL;
    return f->fn;
}

/* Inlines call, a call of f, into pre: the result's local (unless void), then a block
 * computing it. Returns the expression of the result, or NULL for a void function. */
static lat__expr *inline_call(inl *in, lat__expr *call, lat__func *f, stmts *pre)
{
    if (in->depth == MAX_DEPTH) {
        fail(in, call->loc, "calls nested too deep in functions with collectives");
        return NULL;
    }
    for (int i = 0; i < in->depth; i++)
        if (in->stack[i] == f) {
            fail(in, call->loc, "recursion through a function with collectives");
            return NULL;
        }
    const lat__type *ft = f->sym->type;
    if (!f->body || f->has_error || ft->params.variadic || call->nargs != f->nparams) {
        fail(in, call->loc, "a function with collectives that cannot be inlined");
        return NULL;
    }
    rets r = {0};
    scan_returns(&r, f->body, true, false);
    if (call->type && call->type->kind != LAT_TY_VOID) {
        r.result = lat__arena_alloc(&in->u->arena, sizeof *r.result);
        r.result->kind = LAT_SYM_VAR;
        r.result->name = f->sym->name;
        r.result->type = lat__unqualified(in->u, call->type);
        r.result->loc = call->loc;
        r.result->depth = 1;
        r.result->flags = LAT_SF_MODIFIED | LAT_SF_USED;
        r.result->emit_name = lat__arena_printf(&in->u->arena, "__lat_i%d_%s", ++in->fresh, f->sym->name->name);
        LAT_PUSH(&in->u->arena, *pre, decl_stmt(in, r.result, NULL, call->loc));
    }
    lat__stmt *block = new_stmt(in, LAT_S_COMPOUND, call->loc);
    size_t nsyms = in->syms.n;
    bool was_callee = in->callee;
    for (int i = 0; i < f->nparams; i++) {
        lat__sym *p = f->params[i];
        if (!p || !p->name) {
            LAT_PUSH(&in->u->arena, block->items, expr_stmt(in, call->args[i], call->loc));
            continue;
        }
        lat__type *t = p->type && p->type->kind != LAT_TY_ARRAY ? p->type : ft->params.types[i];
        lat__sym *c = local_copy(in, p, t);
        lat__expr *arg = call->args[i], *x = arg;
        while (x->kind == LAT_E_CAST && (x->flags & LAT_EF_IMPLICIT) && x->a)
            x = x->a;
        if (x->kind == LAT_E_COMPOUND && x->type && x->type->kind == LAT_TY_ARRAY && x->a &&
            x->a->kind == LAT_E_INIT) {
            /* A temporary's address, (T[1]){e} (a member function called on T(...), a
             * const reference to a value): C ends the compound literal with its block, but
             * the inlined body uses it across its barriers, each thread its own. A local
             * array of the caller's holds it instead, kept per thread as locals are. */
            lat__sym *tmp = fresh_local(in, x->type, x->a, call->loc, pre);
            tmp->flags |= LAT_SF_ADDRESS_TAKEN | LAT_SF_MODIFIED;
            arg = name_of(in, tmp, call->loc);
        }
        LAT_PUSH(&in->u->arena, block->items, decl_stmt(in, c, arg, call->loc));
        remap m = {p, c};
        LAT_PUSH(&in->u->arena, in->syms, m);
    }
    if (r.in_loop) {
        stmts decl = {0};
        r.returned = fresh_local(in, &lat__ty_int, int_const(in, 0, call->loc), call->loc, &decl);
        r.returned->flags |= LAT_SF_MODIFIED;
        LAT_PUSH(&in->u->arena, block->items, decl.items[0]);
    }
    in->callee = true;
    lat__stmt *body = clone_stmt(in, f->body);
    in->callee = was_callee;
    in->syms.n = nsyms;
    if (r.early) {
        lat__stmt *loop = new_stmt(in, LAT_S_DO, f->body->loc);
        lat__expr *zero = lat__arena_alloc(&in->u->arena, sizeof *zero);
        zero->kind = LAT_E_INT;
        zero->type = &lat__ty_int;
        zero->flags = LAT_EF_CONST;
        zero->text = "0";
        zero->len = 1;
        zero->loc = f->body->end;
        loop->e = zero;
        loop->body = body;
        r.exit = loop;
        LAT_PUSH(&in->u->arena, block->items, loop);
    } else {
        LAT_PUSH(&in->u->arena, block->items, body);
    }
    rewrite_returns(in, &r, &body, NULL);
    in->stack[in->depth++] = f;
    norm_compound(in, block);
    in->depth--;
    LAT_PUSH(&in->u->arena, *pre, block);
    in->changed = in->inlined = true;
    return r.result ? name_of(in, r.result, call->loc) : NULL;
}

/* Whether e holds a collective or a call to inline, where it is evaluated. */
static bool has_coll(const lat__expr *e)
{
    if (!e || e->kind == LAT_E_STMT || e->kind == LAT_E_SIZEOF || e->kind == LAT_E_ALIGNOF)
        return false;
    if (e->kind == LAT_E_CALL && (lat__region_coll_of(e) || inlinable(e)))
        return true;
    for (int i = 0; i < e->nargs; i++)
        if (has_coll(e->args[i]))
            return true;
    for (size_t i = 0; i < e->items.n; i++)
        if (has_coll(e->items.items[i].value))
            return true;
    return has_coll(e->a) || has_coll(e->b) || has_coll(e->c);
}


static lat__expr *unary(inl *in, int op, lat__expr *a, lat__type *t)
{
    lat__expr *e = lat__arena_alloc(&in->u->arena, sizeof *e);
    e->kind = LAT_E_UNARY;
    e->op = (uint8_t)op;
    e->a = a;
    e->type = t;
    e->loc = a->loc;
    return e;
}


/* `r = e;` (r NULL: `e;`) in a block of its own, its calls inlined. */
static lat__stmt *branch(inl *in, lat__sym *r, lat__expr *e, lat__loc loc)
{
    lat__stmt *b = new_stmt(in, LAT_S_COMPOUND, loc);
    lat__expr *v = e;
    if (r) {
        v = lat__arena_alloc(&in->u->arena, sizeof *v);
        v->kind = LAT_E_ASSIGN;
        v->op = LAT_P_ASSIGN;
        v->type = r->type;
        v->loc = loc;
        v->a = name_of(in, r, loc);
        v->b = e;
    }
    LAT_PUSH(&in->u->arena, b->items, expr_stmt(in, v, loc));
    norm_compound(in, b);
    return b;
}

/* A collective under ?:, && or || (every thread evaluates the operator itself): an if
 * statement in pre computes the value into a fresh local, each arm's collectives at
 * statement level. Returns the local's name, or NULL for a void ?: (whole statements). */
static lat__expr *branches(inl *in, lat__expr *e, stmts *pre, bool whole)
{
    lat__stmt *s = new_stmt(in, LAT_S_IF, e->loc);
    s->e = e->a;
    bool is_void = !e->type || e->type->kind == LAT_TY_VOID;
    if (is_void && !whole) {
        fail(in, e->loc, "a void ?: holding a collective inside an expression");
        return NULL;
    }
    lat__sym *r = is_void ? NULL : fresh_local(in, e->type, NULL, e->loc, pre);
    if (e->kind == LAT_E_COND) {
        s->body = branch(in, r, e->b, e->loc);
        s->els = branch(in, r, e->c, e->loc);
    } else {
        /* a && b: b's truth where a holds, else 0; a || b: 1 where a holds, else b's */
        lat__expr *truth = unary(in, LAT_P_BANG, unary(in, LAT_P_BANG, e->b, &lat__ty_int), &lat__ty_int);
        bool and = e->op == LAT_P_ANDAND;
        s->body = branch(in, r, and ? truth : int_const(in, 1, e->loc), e->loc);
        s->els = branch(in, r, and ? int_const(in, 0, e->loc) : truth, e->loc);
    }
    LAT_PUSH(&in->u->arena, *pre, s);
    in->changed = true;
    return r ? name_of(in, r, e->loc) : NULL;
}

static void hoist(inl *in, lat__expr **slot, stmts *pre, bool whole, bool args);

/* The lockstep pass's (lockstep.c) `__lat_ls_end(lhs op= __lat_ls(rhs))`, a legacy
 * warp-synchronous statement, as statements: `T v = rhs;`, the warp's wait, `lhs op= v;`,
 * the warp's wait. A wait is the call alone, with 0 for its value: a warp barrier statement
 * to the planner, where each stretch runs every thread to its end, so that every lane loads
 * before any stores, as a GPU's warp does. */
static void lockstep(inl *in, lat__expr **slot, stmts *pre, bool whole)
{
    lat__expr *e = *slot;
    bool end = strcmp(lat__region_builtin_of(e)->name, "__lat_ls_end") == 0;
    if (end && !whole) {
        fail(in, e->loc, "a lockstep store inside an expression");
        return;
    }
    hoist(in, &e->args[0], pre, end, false);
    if (in->why)
        return;
    lat__expr *wait = lat__arena_alloc(&in->u->arena, sizeof *wait);
    *wait = *e;
    wait->args = lat__arena_alloc(&in->u->arena, sizeof *wait->args);
    wait->args[0] = int_const(in, 0, e->loc);
    wait->type = &lat__ty_void;
    if (end) {
        if (e->args[0])
            LAT_PUSH(&in->u->arena, *pre, expr_stmt(in, e->args[0], e->loc));
        *slot = wait;
    } else {
        lat__sym *v = fresh_local(in, e->type, e->args[0], e->loc, pre);
        LAT_PUSH(&in->u->arena, *pre, expr_stmt(in, wait, e->loc));
        *slot = name_of(in, v, e->loc);
    }
    in->changed = true;
}

/* Moves what stands in the way of region loops out of *slot, into statements of pre
 * (before the statement *slot is in), in the order C evaluates them as far as C fixes one:
 *   - calls of functions reaching collectives, inlined (inline_call);
 *   - a collective inside another's arguments, into a local of its own;
 *   - ?:, && and || whose later operands hold a collective, as an if statement;
 *   - the left of a comma where either side holds one, as a statement of its own.
 * whole: *slot is a statement's whole expression (a void call or ?: may go). args: inside
 * a collective's arguments. Operands evaluated only sometimes are left as they are. */
static void hoist(inl *in, lat__expr **slot, stmts *pre, bool whole, bool args)
{
    lat__expr *e = *slot;
    if (!e || in->why)
        return;
    switch (e->kind) {
    case LAT_E_BINARY:
        if ((e->op == LAT_P_ANDAND || e->op == LAT_P_OROR) && has_coll(e->b)) {
            hoist(in, &e->a, pre, false, args);
            *slot = branches(in, e, pre, whole);
            return;
        }
        if (e->op == LAT_P_COMMA && (has_coll(e->a) || has_coll(e->b))) {
            hoist(in, &e->a, pre, true, false);
            if (e->a)
                LAT_PUSH(&in->u->arena, *pre, expr_stmt(in, e->a, e->loc));
            in->changed = true;
            *slot = e->b;
            hoist(in, slot, pre, whole, args);
            return;
        }
        hoist(in, &e->a, pre, false, args);
        if (e->op != LAT_P_ANDAND && e->op != LAT_P_OROR && e->op != LAT_P_COMMA)
            hoist(in, &e->b, pre, false, args);
        return;
    case LAT_E_COND:
        hoist(in, &e->a, pre, false, args);
        if (e->b && (has_coll(e->b) || has_coll(e->c)))
            *slot = branches(in, e, pre, whole);
        return;
    case LAT_E_SIZEOF:
    case LAT_E_ALIGNOF:
    case LAT_E_STMT:
    case LAT_E_OFFSETOF:
        return;
    case LAT_E_CALL: {
        const lat__builtin *lb = lat__region_builtin_of(e);
        if (lb && lb->generic == LAT_G_LOCKSTEP && e->nargs == 1) {
            lockstep(in, slot, pre, whole);
            return;
        }
        lat__func *f = inlinable(e);
        if (!f) {
            bool coll = lat__region_coll_of(e) != 0;
            hoist(in, &e->a, pre, false, args);
            for (int i = 0; i < e->nargs; i++)
                hoist(in, &e->args[i], pre, false, args || coll);
            /* A warp operation or vote inside another's arguments: its value first. */
            if (coll && args && e->type && e->type->kind != LAT_TY_VOID)
                *slot = name_of(in, fresh_local(in, e->type, e, e->loc, pre), e->loc);
            return;
        }
        if (!whole && (!e->type || e->type->kind == LAT_TY_VOID)) {
            fail(in, e->loc, "a call of a void function with collectives inside an expression");
            return;
        }
        lat__expr *r = inline_call(in, e, f, pre);
        if (!in->why)
            *slot = r;
        return;
    }
    case LAT_E_INIT:
        for (size_t i = 0; i < e->items.n; i++)
            hoist(in, &e->items.items[i].value, pre, false, args);
        return;
    case LAT_E_CAST:
        hoist(in, &e->a, pre, whole && e->type && e->type->kind == LAT_TY_VOID, args);
        if (whole && !e->a)
            *slot = NULL;
        return;
    default:
        hoist(in, &e->a, pre, false, args);
        hoist(in, &e->b, pre, false, args);
        hoist(in, &e->c, pre, false, args);
        return;
    }
}

/* Inlines the calls of s's own expressions (not its statements'), into pre. */
static bool split_decl(const lat__stmt *s);

static void hoist_head(inl *in, lat__stmt *s, stmts *pre)
{
    switch (s->kind) {
    case LAT_S_EXPR:
        hoist(in, &s->e, pre, true, false);
        if (!s->e)
            s->kind = LAT_S_NULL;
        return;
    case LAT_S_RETURN:
        hoist(in, &s->e, pre, true, false);
        return;
    case LAT_S_DECL:
        for (lat__decl *d = s->decls ? s->decls->first : NULL; d; d = d->next)
            if (d->init && d->sym && automatic(d->sym))
                hoist(in, &d->init, pre, false, false);
        return;
    case LAT_S_IF:
    case LAT_S_SWITCH:
        hoist(in, &s->e, pre, false, false);
        return;
    case LAT_S_FOR:
        /* A later declarator's call may read an earlier one, which its statements before
         * the loop could not see. */
        if (s->init && split_decl(s->init)) {
            fail(in, s->init->loc, "a for loop declaring several variables, a later one initialised by a collective");
            return;
        }
        if (s->init)
            hoist_head(in, s->init, pre);
        return;
    default:
        return;
    }
}

/* Whether a declaration of several declarators must be cut into one per declarator: a later
 * one's initializer holds a call to inline, which may read an earlier one. */
static bool split_decl(const lat__stmt *s)
{
    if (s->kind != LAT_S_DECL || !s->decls || !s->decls->first || !s->decls->first->next ||
        s->decls->defines)
        return false;
    for (const lat__decl *d = s->decls->first->next; d; d = d->next)
        if (has_coll(d->init))
            return true;
    return false;
}

/* The statements of a compound, each with what it needs inlined in front of it. */
static void norm_compound(inl *in, lat__stmt *s)
{
    stmts out = {0};
    for (size_t i = 0; i < s->items.n && !in->why; i++) {
        lat__stmt *it = s->items.items[i];
        if (split_decl(it)) {
            for (lat__decl *d = it->decls->first; d; d = d->next) {
                lat__stmt *one = new_stmt(in, LAT_S_DECL, d->loc);
                one->decls = lat__arena_alloc(&in->u->arena, sizeof *one->decls);
                *one->decls = *it->decls;
                lat__decl *c = lat__arena_alloc(&in->u->arena, sizeof *c);
                *c = *d;
                c->next = NULL;
                one->decls->first = c;
                stmts pre = {0};
                hoist_head(in, one, &pre);
                for (size_t k = 0; k < pre.n; k++)
                    LAT_PUSH(&in->u->arena, out, pre.items[k]);
                LAT_PUSH(&in->u->arena, out, one);
            }
            continue;
        }
        stmts pre = {0};
        hoist_head(in, it, &pre);
        for (size_t k = 0; k < pre.n; k++)
            LAT_PUSH(&in->u->arena, out, pre.items[k]);
        LAT_PUSH(&in->u->arena, out, norm(in, it));
    }
    s->items.items = out.items;
    s->items.n = out.n;
    s->items.cap = out.cap;
}

/* A statement that is not a compound's item: its own inlined calls wrap it in one. */
static lat__stmt *norm_alone(inl *in, lat__stmt *s)
{
    if (!s || in->why)
        return s;
    if (s->kind == LAT_S_COMPOUND) {
        norm_compound(in, s);
        return s;
    }
    stmts pre = {0};
    hoist_head(in, s, &pre);
    s = norm(in, s);
    if (!pre.n)
        return s;
    lat__stmt *c = new_stmt(in, LAT_S_COMPOUND, s->loc);
    for (size_t k = 0; k < pre.n; k++)
        LAT_PUSH(&in->u->arena, c->items, pre.items[k]);
    LAT_PUSH(&in->u->arena, c->items, s);
    return c;
}

/* A while or for loop whose condition needs statements of its own (hoist): they and the
 * test run first in each turn, `while (1) { pre; if (!(c)) break; body }` (a for keeps its
 * step, which a continue still reaches before the test). */
static lat__stmt *loop_condition(inl *in, lat__stmt *s)
{
    stmts pre = {0};
    hoist(in, &s->e, &pre, false, false);
    s->body = norm_alone(in, s->body);
    if (!pre.n || in->why)
        return s;
    lat__stmt *body = new_stmt(in, LAT_S_COMPOUND, s->loc);
    for (size_t k = 0; k < pre.n; k++)
        LAT_PUSH(&in->u->arena, body->items, pre.items[k]);
    lat__stmt *test = new_stmt(in, LAT_S_IF, s->e->loc);
    test->e = unary(in, LAT_P_BANG, s->e, &lat__ty_int);
    test->body = new_stmt(in, LAT_S_BREAK, s->e->loc);
    test->body->target = s;
    LAT_PUSH(&in->u->arena, body->items, test);
    LAT_PUSH(&in->u->arena, body->items, s->body);
    s->e = s->kind == LAT_S_WHILE ? int_const(in, 1, s->loc) : NULL;
    s->body = body;
    return s;
}

typedef struct jumps {
    const lat__stmt *loop, *to; /* to: where continues of loop go instead (NULL: count only) */
    int breaks, continues;
} jumps;

static bool note_jump(lat__visitor *v, lat__stmt *s)
{
    jumps *j = v->data;
    if ((s->kind == LAT_S_BREAK || s->kind == LAT_S_CONTINUE) && s->target == j->loop) {
        if (s->kind == LAT_S_BREAK)
            j->breaks++;
        else {
            j->continues++;
            if (j->to)
                s->target = (lat__stmt *)j->to;
        }
    }
    return true;
}

/* do body while (c), c needing statements of its own: `do { body; pre; if (!(c)) break; }
 * while (1)`. A continue in body must still reach the test: body then goes in a
 * do { } while (0) of its own that the continues leave; with breaks of the loop too, the
 * kernel stays on fibers. */
static lat__stmt *do_condition(inl *in, lat__stmt *s)
{
    s->body = norm_alone(in, s->body);
    stmts pre = {0};
    hoist(in, &s->e, &pre, false, false);
    if (!pre.n || in->why)
        return s;
    jumps j = {s, NULL, 0, 0};
    lat__visitor v = {note_jump, NULL, NULL, &j};
    lat__visit_stmt(&v, s->body);
    lat__stmt *inner = s->body;
    if (j.continues) {
        if (j.breaks) {
            fail(in, s->e->loc, "a do loop with break and continue whose condition holds a collective");
            return s;
        }
        inner = new_stmt(in, LAT_S_DO, s->loc);
        inner->e = int_const(in, 0, s->loc);
        inner->body = s->body;
        j.to = inner;
        lat__visit_stmt(&v, s->body);
    }
    lat__stmt *body = new_stmt(in, LAT_S_COMPOUND, s->loc);
    LAT_PUSH(&in->u->arena, body->items, inner);
    for (size_t k = 0; k < pre.n; k++)
        LAT_PUSH(&in->u->arena, body->items, pre.items[k]);
    lat__stmt *test = new_stmt(in, LAT_S_IF, s->e->loc);
    test->e = unary(in, LAT_P_BANG, s->e, &lat__ty_int);
    test->body = new_stmt(in, LAT_S_BREAK, s->e->loc);
    test->body->target = s;
    LAT_PUSH(&in->u->arena, body->items, test);
    s->e = int_const(in, 1, s->loc);
    s->body = body;
    return s;
}

static bool coll_expr(lat__visitor *v, lat__expr *e)
{
    if (e->kind == LAT_E_CALL && (lat__region_coll_of(e) || inlinable(e)))
        *(bool *)v->data = true;
    return true;
}

static bool stmt_has_coll(lat__stmt *s)
{
    bool found = false;
    lat__visitor v = {NULL, coll_expr, NULL, &found};
    lat__visit_stmt(&v, s);
    return found;
}

static lat__expr *binary(inl *in, int op, lat__expr *a, lat__expr *b)
{
    lat__expr *e = lat__arena_alloc(&in->u->arena, sizeof *e);
    e->kind = LAT_E_BINARY;
    e->op = (uint8_t)op;
    e->a = a;
    e->b = b;
    e->type = &lat__ty_int;
    e->loc = a->loc;
    return e;
}

static lat__expr *case_value(inl *in, lat__type *t, int64_t v, lat__loc loc)
{
    lat__expr *e = lat__arena_alloc(&in->u->arena, sizeof *e);
    e->kind = LAT_E_INT;
    e->type = t;
    e->flags = LAT_EF_CONST;
    e->ival = v;
    e->loc = loc;
    return e;
}

static lat__stmt *set_flag(inl *in, lat__sym *f, int v, lat__loc loc)
{
    lat__expr *a = lat__arena_alloc(&in->u->arena, sizeof *a);
    a->kind = LAT_E_ASSIGN;
    a->op = LAT_P_ASSIGN;
    a->type = &lat__ty_int;
    a->loc = loc;
    a->a = name_of(in, f, loc);
    a->b = int_const(in, v, loc);
    return expr_stmt(in, a, loc);
}

typedef struct group {
    lat__expr *test; /* NULL: default */
    lat__stmt *body;
    lat__stmt *end;  /* the block whose end is the case's end (body, or its do { } while (0)'s) */
} group;

static bool jump_out(const lat__stmt *s)
{
    return s && (s->kind == LAT_S_RETURN || s->kind == LAT_S_CONTINUE || s->kind == LAT_S_BREAK);
}

typedef struct escapes {
    LAT_VEC(const lat__stmt *) loops;
    LAT_VEC(const lat__stmt *) continues; /* their targets */
    lat__arena *arena;
    bool out;
} escapes;

static bool note_escape(lat__visitor *v, lat__stmt *s)
{
    escapes *e = v->data;
    if (s->kind == LAT_S_WHILE || s->kind == LAT_S_DO || s->kind == LAT_S_FOR)
        LAT_PUSH(e->arena, e->loops, s);
    else if (s->kind == LAT_S_CONTINUE)
        LAT_PUSH(e->arena, e->continues, s->target);
    return true;
}

typedef struct retargets {
    const lat__stmt *from;
    lat__stmt *to;
} retargets;

static bool note_retarget(lat__visitor *v, lat__stmt *s)
{
    retargets *r = v->data;
    if (s->kind == LAT_S_BREAK && s->target == r->from)
        s->target = r->to;
    return true;
}

static void retarget(lat__stmt *body, const lat__stmt *from, lat__stmt *to)
{
    retargets r = {from, to};
    lat__visitor v = {note_retarget, NULL, NULL, &r};
    lat__visit_stmt(&v, body);
}

/* A switch holding a collective, as `{ T v = cond; if (v == 1 || v == 2) { ... } else if
 * ... else { default } }`: where no case falls through into the next and each leaves the
 * switch only by its last statement's break (or by return or continue), which is what the
 * planner's region loops can place. Else the kernel stays on fibers. */
static lat__stmt *switch_to_ifs(inl *in, lat__stmt *s)
{
    if (!s->body || s->body->kind != LAT_S_COMPOUND) {
        fail(in, s->loc, "a barrier or warp operation in a switch without braces");
        return s;
    }
    stmts pre = {0};
    lat__type *t = s->e->type;
    lat__sym *v = fresh_local(in, t, s->e, s->e->loc, &pre);
    LAT_VEC(group) groups = {0};
    group *cur = NULL;
    size_t nlabels = 0;
    for (size_t i = 0; i < s->body->items.n; i++) {
        lat__stmt *it = s->body->items.items[i];
        bool labelled = false;
        lat__expr *test = NULL;
        bool is_default = false;
        while (it && (it->kind == LAT_S_CASE || it->kind == LAT_S_DEFAULT)) {
            labelled = true;
            nlabels++;
            if (it->kind == LAT_S_DEFAULT) {
                is_default = true;
            } else {
                lat__expr *one = it->high != it->value
                                     ? binary(in, LAT_P_ANDAND,
                                              binary(in, LAT_P_GE, name_of(in, v, it->loc), case_value(in, v->type, it->value, it->loc)),
                                              binary(in, LAT_P_LE, name_of(in, v, it->loc), case_value(in, v->type, it->high, it->loc)))
                                     : binary(in, LAT_P_EQ, name_of(in, v, it->loc), case_value(in, v->type, it->value, it->loc));
                test = test ? binary(in, LAT_P_OROR, test, one) : one;
            }
            it = it->body;
        }
        if (labelled) {
            group g = {is_default ? NULL : test, new_stmt(in, LAT_S_COMPOUND, s->body->items.items[i]->loc), NULL};
            g.end = g.body;
            LAT_PUSH(&in->u->arena, groups, g);
            cur = &groups.items[groups.n - 1];
        } else if (!cur) {
            if (it && it->kind != LAT_S_NULL) {
                fail(in, it->loc, "a barrier or warp operation in a switch with statements before its first case");
                return s;
            }
            continue;
        }
        if (it)
            LAT_PUSH(&in->u->arena, cur->body->items, it);
    }
    if (nlabels != s->cases.n) {
        fail(in, s->loc, "a barrier or warp operation in a switch with a case inside a nested statement");
        return s;
    }
    /* Each case's last break goes; any other break of the switch keeps it on fibers. A case
     * that falls through sets `f`, which the next case's test accepts too. */
    bool *falls = lat__arena_alloc(&in->u->arena, groups.n + 1);
    bool any_falls = false;
    for (size_t g = 0; g < groups.n; g++) {
        lat__stmt *b = groups.items[g].body;
        while (b->items.n && b->items.items[b->items.n - 1]->kind == LAT_S_NULL)
            b->items.n--;
        if (b->items.n && b->items.items[b->items.n - 1]->kind == LAT_S_BREAK &&
            b->items.items[b->items.n - 1]->target == s)
            b->items.n--;
        else if (g + 1 < groups.n && !jump_out(b->items.n ? b->items.items[b->items.n - 1] : NULL))
            any_falls = falls[g] = true;
        jumps j = {s, NULL, 0, 0};
        lat__visitor jv = {note_jump, NULL, NULL, &j};
        lat__visit_stmt(&jv, b);
        if (j.breaks) {
            /* Breaks before the case's end: it becomes a do { } while (0) they leave, unless a
             * continue of a loop around the switch would then leave that instead. */
            escapes e = {{0}, {0}, &in->u->arena, false};
            lat__visitor ev = {note_escape, NULL, NULL, &e};
            lat__visit_stmt(&ev, b);
            for (size_t k = 0; k < e.continues.n && !e.out; k++) {
                bool inside = false;
                for (size_t l = 0; l < e.loops.n && !inside; l++)
                    inside = e.loops.items[l] == e.continues.items[k];
                e.out = !inside;
            }
            if (e.out) {
                fail(in, b->loc, "a barrier or warp operation in a switch case with a break before its end and a continue");
                return s;
            }
            lat__stmt *d = new_stmt(in, LAT_S_DO, b->loc);
            d->e = int_const(in, 0, b->loc);
            d->body = new_stmt(in, LAT_S_COMPOUND, b->loc);
            d->body->items = b->items;
            retarget(d->body, s, d);
            memset(&b->items, 0, sizeof b->items);
            LAT_PUSH(&in->u->arena, b->items, d);
            groups.items[g].end = d->body; /* a case that may fall through: reached where no break left it */
        }
    }
    if (any_falls) {
        lat__sym *f = fresh_local(in, &lat__ty_int, int_const(in, 0, s->loc), s->loc, &pre);
        f->flags |= LAT_SF_MODIFIED;
        lat__expr *none = NULL; /* no case matches: the default's test */
        for (size_t g = 0; g < groups.n; g++)
            if (groups.items[g].test)
                none = none ? binary(in, LAT_P_OROR, none, groups.items[g].test) : groups.items[g].test;
        for (size_t g = 0; g < groups.n; g++) {
            group *gr = &groups.items[g];
            lat__expr *test = gr->test ? gr->test : none ? unary(in, LAT_P_BANG, none, &lat__ty_int) : int_const(in, 1, s->loc);
            if (g > 0)
                test = binary(in, LAT_P_OROR, name_of(in, f, s->loc), test);
            lat__stmt *st = new_stmt(in, LAT_S_IF, gr->body->loc);
            st->e = test;
            st->body = gr->body;
            norm_compound(in, st->body);
            /* f = 0 on entry; f = 1 at the case's end, which a break skips. */
            if (g + 1 < groups.n && falls[g]) {
                stmts items = {0};
                LAT_PUSH(&in->u->arena, items, set_flag(in, f, 0, gr->body->loc));
                for (size_t k = 0; k < st->body->items.n; k++)
                    LAT_PUSH(&in->u->arena, items, st->body->items.items[k]);
                st->body->items.items = items.items;
                st->body->items.n = items.n;
                st->body->items.cap = items.cap;
                LAT_PUSH(&in->u->arena, gr->end->items, set_flag(in, f, 1, gr->body->loc));
            } else if (g + 1 < groups.n) {
                LAT_PUSH(&in->u->arena, st->body->items, set_flag(in, f, 0, gr->body->loc));
            }
            LAT_PUSH(&in->u->arena, pre, st);
        }
        *s = (lat__stmt){.kind = LAT_S_COMPOUND, .loc = s->loc, .end = s->body->end};
        for (size_t k = 0; k < pre.n; k++)
            LAT_PUSH(&in->u->arena, s->items, pre.items[k]);
        return s;
    }
    /* if ... else if ..., the default last. */
    lat__stmt *chain = NULL, **tail = &chain;
    group *dflt = NULL;
    for (size_t g = 0; g < groups.n; g++) {
        if (!groups.items[g].test) {
            dflt = &groups.items[g];
            continue;
        }
        lat__stmt *test = new_stmt(in, LAT_S_IF, groups.items[g].body->loc);
        test->e = groups.items[g].test;
        test->body = groups.items[g].body;
        norm_compound(in, test->body);
        *tail = test;
        tail = &test->els;
    }
    if (dflt) {
        norm_compound(in, dflt->body);
        *tail = dflt->body;
    }
    if (chain)
        LAT_PUSH(&in->u->arena, pre, chain);
    *s = (lat__stmt){.kind = LAT_S_COMPOUND, .loc = s->loc, .end = s->body->end};
    for (size_t k = 0; k < pre.n; k++)
        LAT_PUSH(&in->u->arena, s->items, pre.items[k]);
    return s;
}

/* for (init; cond; step) body, step holding a collective: the step becomes the body's last
 * statement, `for (init; cond;) { body; step; }`, where its collectives are at statement
 * level. A continue in body must still reach it: body then goes in a do { } while (0) of
 * its own that the continues leave; with breaks of the loop too, the kernel stays on
 * fibers. */
static void for_step(inl *in, lat__stmt *s)
{
    jumps j = {s, NULL, 0, 0};
    lat__visitor v = {note_jump, NULL, NULL, &j};
    lat__visit_stmt(&v, s->body);
    lat__stmt *inner = s->body;
    if (j.continues) {
        if (j.breaks) {
            fail(in, s->step->loc, "a for loop with break and continue whose step holds a collective");
            return;
        }
        inner = new_stmt(in, LAT_S_DO, s->loc);
        inner->e = int_const(in, 0, s->loc);
        inner->body = s->body;
        j.to = inner;
        lat__visit_stmt(&v, s->body);
    }
    lat__stmt *body = new_stmt(in, LAT_S_COMPOUND, s->loc);
    LAT_PUSH(&in->u->arena, body->items, inner);
    LAT_PUSH(&in->u->arena, body->items, expr_stmt(in, s->step, s->step->loc));
    s->step = NULL;
    s->body = body;
    in->changed = true;
}

/* The statements inside s (its head's calls are its caller's to inline). */
static lat__stmt *norm(inl *in, lat__stmt *s)
{
    if (!s || in->why)
        return s;
    switch (s->kind) {
    case LAT_S_COMPOUND:
        norm_compound(in, s);
        return s;
    case LAT_S_IF:
        s->body = norm_alone(in, s->body);
        s->els = norm_alone(in, s->els);
        return s;
    case LAT_S_WHILE:
    case LAT_S_FOR:
        if (s->kind == LAT_S_FOR && s->step && has_coll(s->step))
            for_step(in, s);
        if (s->e && has_coll(s->e))
            return loop_condition(in, s);
        s->body = norm_alone(in, s->body);
        return s;
    case LAT_S_DO:
        if (s->e && has_coll(s->e))
            return do_condition(in, s);
        s->body = norm_alone(in, s->body);
        return s;
    case LAT_S_SWITCH:
        if (stmt_has_coll(s))
            return switch_to_ifs(in, s);
        /* Its body holds its case labels: inlined code goes inside the case. */
        s->body = norm(in, s->body);
        return s;
    case LAT_S_CASE:
    case LAT_S_DEFAULT:
        s->body = norm_alone(in, s->body);
        return s;
    default:
        return s;
    }
}

static bool note_name(lat__visitor *v, lat__stmt *s)
{
    inl *in = v->data;
    if (s->kind == LAT_S_DECL && s->decls)
        for (lat__decl *d = s->decls->first; d; d = d->next)
            if (d->sym && d->sym->name && d->sym->kind != LAT_SYM_FUNC)
                LAT_PUSH(&in->u->arena, in->names, lat__emit_name(in->u, d->sym));
    return true;
}

lat__stmt *lat__inline_collectives(lat__unit *u, lat__func *fn, bool *inlined, const char **why,
                                   lat__loc *where)
{
    *why = NULL;
    *inlined = false;
    if (!fn->body || fn->has_error || fn->labels.n)
        return NULL;
    inl *in = lat__arena_alloc(&u->arena, sizeof *in);
    in->u = u;
    for (int i = 0; i < fn->nparams; i++)
        if (fn->params[i] && fn->params[i]->name)
            LAT_PUSH(&u->arena, in->names, lat__emit_name(u, fn->params[i]));
    lat__visitor v = {note_name, NULL, NULL, in};
    lat__visit_stmt(&v, fn->body);
    lat__stmt *body = clone_stmt(in, fn->body);
    in->stack[in->depth++] = fn;
    if (!in->why)
        norm_compound(in, body);
    if (in->why) {
        *why = in->why;
        *where = in->where;
        return NULL;
    }
    *inlined = in->inlined;
    return in->changed ? body : NULL;
}
