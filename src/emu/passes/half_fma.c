/*
 * cuda_fp16.h's (and cuda_bf16.h's) arithmetic is function calls (operator*, __hmul, operator+, __hadd...),
 * each rounding to half. On the GPU they are PTX mul.f16 and add.f16 without a rounding
 * modifier, which ptxas fuses into fma.f16 under --fmad=true: measured on an H100, every
 * `a * b - c`, `c + a * b`, `__hsub(__hmul(a, b), c)`, `__hadd(__hmul(a, b), c)` and the
 * same through a temporary came out as one fma (none with --fmad=false, none through
 * __hmul_rn). The emulator fuses what one expression writes, as it does for float (the
 * header's __lat_hcontract* compute it): the product's factors and the addend go to
 * __hfma, negated where the expression subtracts.
 */
#include "half_fma.h"

#include "front/type.h"

#include <string.h>

static const lat__record *record_of(const lat__type *t)
{
    if (t && t->kind == LAT_TY_PTR)
        t = t->base;
    return t && lat__is_record(t) ? t->rec : NULL;
}

/* 1 for a single value (__half, __nv_bfloat16), 2 for a pair, else 0. */
static int half_class(const lat__type *t)
{
    lat__half_class k = lat__half_class_of(t);
    return k == LAT_HALF_F16 || k == LAT_HALF_BF16 ? 1 : k == LAT_HALF_NONE ? 0 : 2;
}

static const char *callee_name(const lat__expr *e)
{
    return e->kind == LAT_E_CALL && e->sym && e->sym->name ? e->sym->name->name : "";
}

static lat__expr *deref(lat__unit *u, lat__expr *p)
{
    lat__expr *d = lat__arena_alloc(&u->arena, sizeof *d);
    d->kind = LAT_E_UNARY;
    d->op = LAT_P_STAR;
    d->loc = p->loc;
    d->a = p;
    d->type = p->type->base;
    d->flags = LAT_EF_LVALUE;
    return d;
}

/* The value of an operand that is a pointer (a reference parameter) or a value. */
static lat__expr *value_of(lat__unit *u, lat__expr *e)
{
    return e->type->kind == LAT_TY_PTR ? deref(u, e) : e;
}

/* A reference parameter bound to a temporary: the call it holds (`(T[1]){call}`, decayed). */
static const lat__expr *through_temporary(const lat__expr *e)
{
    while (e->kind == LAT_E_CAST && (e->flags & LAT_EF_IMPLICIT) && e->a)
        e = e->a;
    if (e->kind == LAT_E_COMPOUND && e->a && e->a->kind == LAT_E_INIT && e->a->items.n == 1)
        return e->a->items.items[0].value;
    return e;
}

/* Whether operand e is a product of halves of class k: its factors' values in x and y. */
static bool product(lat__unit *u, lat__expr *e, int k, lat__expr **x, lat__expr **y)
{
    const lat__expr *c = through_temporary(e);
    const char *n = callee_name(c);
    bool mul = strcmp(n, "operator*") == 0 || strcmp(n, k == 1 ? "__hmul" : "__hmul2") == 0;
    if (!mul || c->nargs != 2 || half_class(c->type) != k)
        return false;
    *x = value_of(u, c->args[0]);
    *y = value_of(u, c->args[1]);
    return true;
}

static lat__expr *call(lat__unit *u, const lat__expr *at, const char *name, lat__expr **args, int n)
{
    /* the overload for the class of the call (both headers define one) */
    const lat__record *r = record_of(at->type);
    lat__sym *fn = lat__atom_get(&u->atoms, name, strlen(name))->sym;
    while (fn && fn->kind == LAT_SYM_FUNC && fn->type->params.n && record_of(fn->type->params.types[0]) != r)
        fn = fn->overloads;
    if (!fn || fn->kind != LAT_SYM_FUNC || !r)
        return NULL; /* not cuda_fp16.h's */
    lat__expr *f = lat__arena_alloc(&u->arena, sizeof *f);
    f->kind = LAT_E_NAME;
    f->loc = at->loc;
    f->sym = fn;
    f->type = fn->type;
    lat__expr *c = lat__arena_alloc(&u->arena, sizeof *c);
    *c = *at;
    c->a = f;
    c->sym = fn;
    c->args = lat__arena_alloc(&u->arena, (size_t)n * sizeof *c->args);
    memcpy(c->args, args, (size_t)n * sizeof *args);
    c->nargs = n;
    return c;
}

static lat__expr *flag(lat__unit *u, const lat__expr *at, bool on)
{
    lat__expr *c = lat__arena_alloc(&u->arena, sizeof *c);
    c->kind = LAT_E_INT;
    c->loc = at->loc;
    c->type = &lat__ty_int;
    c->ival = on;
    c->flags = LAT_EF_CONST;
    c->text = on ? "1" : "0";
    c->len = 1;
    return c;
}

lat__expr *lat__half_contract(lat__unit *u, lat__expr *e)
{
    if (e->kind != LAT_E_CALL || e->nargs != 2)
        return NULL;
    const char *n = callee_name(e);
    int k = half_class(e->sym && e->sym->type && e->sym->type->params.n ? e->sym->type->params.types[0] : NULL);
    if (!k)
        return NULL;
    bool plus = strcmp(n, "operator+") == 0 || strcmp(n, k == 1 ? "__lat_ext___hadd" : "__hadd2") == 0;
    bool minus = strcmp(n, "operator-") == 0 || strcmp(n, k == 1 ? "__hsub" : "__hsub2") == 0;
    bool acc = strcmp(n, "operator+=") == 0 || strcmp(n, "operator-=") == 0;
    lat__expr *x, *y;
    if (acc) {
        /* acc += x * y: acc = fma(x, y, acc) */
        if (!product(u, e->args[1], k, &x, &y))
            return NULL;
        lat__expr *args[4] = {e->args[0], x, y, flag(u, e, n[8] == '-')};
        return call(u, e, k == 1 ? "__lat_hcontract_acc" : "__lat_hcontract_acc2", args, 4);
    }
    if (!plus && !minus)
        return NULL;
    /* the left operand's product if it is one, else the right's, as for float */
    const char *fused = k == 1 ? "__lat_hcontract" : "__lat_hcontract2";
    if (product(u, e->args[0], k, &x, &y)) {
        lat__expr *args[5] = {x, y, value_of(u, e->args[1]), flag(u, e, false), flag(u, e, minus)};
        return call(u, e, fused, args, 5);
    }
    if (product(u, e->args[1], k, &x, &y)) {
        lat__expr *args[5] = {x, y, value_of(u, e->args[0]), flag(u, e, minus), flag(u, e, false)};
        return call(u, e, fused, args, 5);
    }
    return NULL;
}
