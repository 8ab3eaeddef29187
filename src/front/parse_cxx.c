/*
 * The C++ that CUDA kernels use, lowered into the C tree as it is parsed (parse.h):
 * references are pointers marked ref (a name of one reads through it, a binding takes
 * the address, a temporary holds what is not an lvalue).
 */
#include "parse.h"

#include <stdio.h>
#include <string.h>

static lat__expr *node(lat__parser *p, lat__exprkind kind, lat__loc loc, lat__type *t, lat__expr *a)
{
    lat__expr *e = lat__expr_new(p, kind, loc);
    e->type = t;
    e->a = a;
    if (a)
        e->flags |= a->flags & LAT_EF_ERROR;
    return e;
}

lat__expr *lat__deref_reference(lat__parser *p, lat__expr *e)
{
    if (!e->type || e->type->kind != LAT_TY_PTR || !e->type->ref)
        return e;
    lat__expr *d = node(p, LAT_E_UNARY, e->loc, e->type->base, e);
    d->op = LAT_P_STAR;
    d->flags |= LAT_EF_LVALUE;
    return d;
}

/* A temporary of type t holding e, as an array of one (T[1]){e}: C lets an array's
 * element be initialised by an expression of its type, records included, and the
 * array lives to the end of the enclosing block, as C++'s temporaries bound to a
 * reference live as long as the reference in the cases kernels have (arguments). */
static lat__expr *temporary(lat__parser *p, lat__expr *e, lat__type *t)
{
    lat__type *one = lat__array_of(p->u, lat__unqualified(p->u, t), 1);
    lat__expr *init = lat__expr_new(p, LAT_E_INIT, e->loc);
    init->type = one;
    lat__init_item item = {e, NULL};
    LAT_PUSH(&p->u->arena, init->items, item);
    lat__expr *c = node(p, LAT_E_COMPOUND, e->loc, one, init);
    c->to = one;
    c->flags |= LAT_EF_LVALUE;
    return c;
}

lat__expr *lat__address_of_object(lat__parser *p, lat__expr *e)
{
    lat__type *t = e->type;
    lat__expr *x = e;
    if (!(e->flags & LAT_EF_LVALUE))
        x = temporary(p, e, t);
    else if (e->kind == LAT_E_NAME && e->sym) {
        e->sym->flags |= LAT_SF_ADDRESS_TAKEN;
        e->flags &= (uint16_t)~LAT_EF_CONST;
    }
    if (x != e)
        return lat__rvalue(p, x);
    lat__expr *a = node(p, LAT_E_UNARY, e->loc, lat__pointer_to(p->u, t), e);
    a->op = LAT_P_AMP;
    return a;
}

/* e without the implicit conversions to its own type that ?: puts on its operands. */
static lat__expr *without_same_type_casts(lat__parser *p, lat__expr *e)
{
    while (e->kind == LAT_E_CAST && (e->flags & LAT_EF_IMPLICIT) && e->a &&
           lat__type_same(lat__unqualified(p->u, e->type), lat__unqualified(p->u, e->a->type)))
        e = e->a;
    return e;
}

/* C++: a ?: whose two results are lvalues of one type is itself an lvalue, so a reference
 * binds to the object it chooses, not to a temporary copy. cuda::std::max's `return b < a ?
 * b : a;` returns a reference to an argument; a copy made inside the function would be
 * gone when the caller reads it (the optimising tier's code read garbage). */
/* Whether e is an lvalue, a ?: of lvalues of one type counted as one (i == 0 ? x : i == 1
 * ? y : z, an operator[] returning T & of three members). */
static bool chooses_lvalues(lat__parser *p, lat__expr *e, int depth)
{
    if (e->flags & LAT_EF_LVALUE)
        return true;
    if (e->kind != LAT_E_COND || !e->b || !e->c || depth > 32)
        return false;
    lat__expr *x = without_same_type_casts(p, e->b), *y = without_same_type_casts(p, e->c);
    return chooses_lvalues(p, x, depth + 1) && chooses_lvalues(p, y, depth + 1) &&
           lat__type_same(lat__unqualified(p->u, x->type), lat__unqualified(p->u, y->type));
}

static lat__expr *bind_lvalue_conditional(lat__parser *p, lat__expr *e, lat__type *ref, const char *context)
{
    if (e->kind != LAT_E_COND || !e->b || !e->c)
        return NULL;
    lat__expr *x = without_same_type_casts(p, e->b), *y = without_same_type_casts(p, e->c);
    if (!chooses_lvalues(p, x, 0) || !chooses_lvalues(p, y, 0) || x->type->kind == LAT_TY_FUNC ||
        !lat__type_same(lat__unqualified(p->u, x->type), lat__unqualified(p->u, y->type)) ||
        !lat__type_compatible(lat__unqualified(p->u, x->type), lat__unqualified(p->u, ref->base), true))
        return NULL;
    e->b = lat__bind_reference(p, x, ref, context);
    e->c = lat__bind_reference(p, y, ref, context);
    e->type = e->b->type;
    e->flags |= (e->b->flags | e->c->flags) & LAT_EF_ERROR;
    return e;
}

lat__expr *lat__bind_reference(lat__parser *p, lat__expr *e, lat__type *ref, const char *context)
{
    lat__type *to = ref->base;
    if (e->flags & LAT_EF_ERROR)
        return lat__cast_to(p, e, ref, true);
    lat__expr *chosen = bind_lvalue_conditional(p, e, ref, context);
    if (chosen)
        return chosen;
    bool lvalue = (e->flags & LAT_EF_LVALUE) && e->type->kind != LAT_TY_FUNC;
    bool derived = lat__derived_from(e->type, to);
    lat__type *eq = e->type, *tq = to; /* an array's qualifiers are its elements' */
    while (eq->kind == LAT_TY_ARRAY && tq->kind == LAT_TY_ARRAY && eq->count == tq->count && eq->count >= 0) {
        eq = eq->base;
        tq = tq->base;
    }
    bool same = lat__type_compatible(lat__unqualified(p->u, eq), lat__unqualified(p->u, tq), true) || derived;
    if (lvalue && same) {
        /* const is added freely, never dropped */
        if ((eq->quals & ~tq->quals) & (LAT_Q_CONST | LAT_Q_VOLATILE)) {
            lat__error_at(p->u, e->loc, "%s %s from %s: it drops a qualifier", context,
                          lat__type_str(p->u, ref, NULL, false), lat__type_str(p->u, e->type, NULL, false));
            e->flags |= LAT_EF_ERROR;
            return lat__cast_to(p, e, ref, true);
        }
        lat__expr *x = e;
        while (x->kind == LAT_E_CAST && (x->flags & LAT_EF_IMPLICIT))
            x = x->a;
        if (x->kind == LAT_E_NAME && x->sym) {
            x->sym->flags |= LAT_SF_ADDRESS_TAKEN;
            x->flags &= (uint16_t)~LAT_EF_CONST; /* the object, not its value */
        }
        lat__expr *a = node(p, LAT_E_UNARY, e->loc, lat__pointer_to(p->u, e->type), e);
        a->op = LAT_P_AMP;
        if (derived) /* a base's reference: the base subobject's address */
            return lat__cast_to(p, lat__base_pointer(p, a, lat__pointer_to(p->u, to), true), ref, false);
        return lat__cast_to(p, a, ref, true);
    }
    /* Not an lvalue of the type: C++ binds only a const (or rvalue) reference, to a
     * temporary holding the converted value. */
    if (!(to->quals & LAT_Q_CONST) && ref->ref != 2) {
        lat__error_at(p->u, e->loc,
                      "%s %s from %s: a non-const reference binds only to an lvalue of its type",
                      context, lat__type_str(p->u, ref, NULL, false),
                      lat__type_str(p->u, e->type, NULL, false));
        e->flags |= LAT_EF_ERROR;
        return lat__cast_to(p, e, ref, true);
    }
    lat__expr *v = lat__convert_assign(p, e, lat__unqualified(p->u, to), context);
    lat__expr *tmp = temporary(p, v, to);
    lat__expr *decayed = lat__rvalue(p, tmp);
    return lat__cast_to(p, decayed, ref, true);
}

size_t lat__nbases(const lat__record *r)
{
    return r->bases.n ? r->bases.n : r->base != NULL;
}

lat__record *lat__base_of(const lat__record *r, size_t i)
{
    return r->bases.n ? r->bases.items[i] : r->base;
}

/* The subobjects of b in d: how many (0: b is no base of d), and the offset of the last
 * one found. */
static int base_paths(const lat__record *d, const lat__record *b, uint32_t at, uint32_t *off, int depth)
{
    int n = 0;
    for (size_t i = 0; depth < 64 && i < lat__nbases(d); i++) {
        const lat__record *x = lat__base_of(d, i);
        uint32_t o = at + (d->bases.n ? d->base_offsets.items[i] : 0);
        if (x == b) {
            *off = o;
            n++;
        } else {
            n += base_paths(x, b, o, off, depth + 1);
        }
    }
    return n;
}

bool lat__record_derived(const lat__record *d, const lat__record *b)
{
    uint32_t off;
    return d && b && base_paths(d, b, 0, &off, 0) > 0;
}

bool lat__derived_from(const lat__type *d, const lat__type *b)
{
    if (!lat__is_record(d) || !lat__is_record(b) || !d->rec || !b->rec)
        return false;
    return lat__record_derived(d->rec, b->rec);
}

/* Whether evaluating e twice reads the same and does nothing else (names, constants,
 * members, elements, dereferences and sums of such: p, s.q, ps[i], p + 1). */
static bool pure_pointer(const lat__expr *e)
{
    for (int depth = 0; e && depth < 32; depth++) {
        switch (e->kind) {
        case LAT_E_NAME:
        case LAT_E_INT:
            return true;
        case LAT_E_CAST:
        case LAT_E_MEMBER:
            e = e->a;
            continue;
        case LAT_E_UNARY:
            if (e->op != LAT_P_STAR && e->op != LAT_P_AMP)
                return false;
            e = e->a;
            continue;
        case LAT_E_INDEX:
        case LAT_E_BINARY:
            if (e->kind == LAT_E_BINARY && e->op != LAT_P_PLUS && e->op != LAT_P_MINUS)
                return false;
            if (!pure_pointer(e->b))
                return false;
            e = e->a;
            continue;
        default:
            return false;
        }
    }
    return false;
}

lat__expr *lat__base_pointer(lat__parser *p, lat__expr *e, lat__type *to, bool nonnull)
{
    const lat__type *from = e->type;
    if (from->kind != LAT_TY_PTR || to->kind != LAT_TY_PTR || !lat__is_record(from->base) ||
        !lat__is_record(to->base) || !from->base->rec || !to->base->rec || (e->flags & LAT_EF_ERROR))
        return lat__cast_to(p, e, to, false);
    const lat__record *d = from->base->rec, *b = to->base->rec;
    bool up = true;
    if (!lat__record_derived(d, b)) {
        const lat__record *x = d;
        d = b;
        b = x;
        up = false;
    }
    uint32_t off = 0;
    int n = base_paths(d, b, 0, &off, 0);
    if (n > 1) {
        lat__error_at(p->u, e->loc, "converting %s to %s: '%s' is an ambiguous base of '%s' (a base more than once)",
                      lat__type_str(p->u, e->type, NULL, false), lat__type_str(p->u, to, NULL, false),
                      lat__record_c_name(b), lat__record_c_name(d));
        e->flags |= LAT_EF_ERROR;
        return lat__cast_to(p, e, to, true);
    }
    if (n == 0 || off == 0)
        return lat__cast_to(p, e, to, false);
    const lat__expr *x = e;
    while (x->kind == LAT_E_CAST)
        x = x->a;
    nonnull |= x->kind == LAT_E_UNARY && x->op == LAT_P_AMP; /* an object's address */
    if (!nonnull && !pure_pointer(e)) {
        lat__unsupported_at(p->u, e->loc, "converting a computed pointer to a base class at a nonzero offset",
                            "a lattice limit: put the pointer in a variable first");
        e->flags |= LAT_EF_ERROR;
        return lat__cast_to(p, e, to, true);
    }
    /* (B *)((char *)e + off), or - off down */
    lat__type *cp = lat__pointer_to(p->u, &lat__ty_char);
    lat__expr *sum = node(p, LAT_E_BINARY, e->loc, cp, lat__cast_to(p, e, cp, false));
    sum->op = up ? LAT_P_PLUS : LAT_P_MINUS;
    sum->b = lat__int_constant(p, (int)off, e->loc);
    lat__expr *moved = lat__cast_to(p, sum, to, false);
    if (nonnull)
        return moved;
    lat__expr *c = node(p, LAT_E_COND, e->loc, to, e);
    c->b = moved;
    c->c = lat__cast_to(p, lat__int_constant(p, 0, e->loc), to, false);
    return c;
}

/* ---- default arguments -------------------------------------------------------------------- */

static bool has_statement(const lat__expr *e)
{
    if (!e)
        return false;
    if (e->kind == LAT_E_STMT)
        return true;
    if (has_statement(e->a) || has_statement(e->b) || has_statement(e->c))
        return true;
    for (int i = 0; i < e->nargs; i++)
        if (has_statement(e->args[i]))
            return true;
    for (size_t i = 0; i < e->items.n; i++)
        if (has_statement(e->items.items[i].value))
            return true;
    return false;
}

bool lat__default_argument_ok(lat__parser *p, lat__expr *e)
{
    if (e->flags & LAT_EF_ERROR)
        return false;
    if (has_statement(e)) {
        lat__unsupported_at(p->u, e->loc, "a statement expression in a default argument", "a lattice limit");
        return false;
    }
    return true;
}

lat__expr *lat__expr_clone(lat__parser *p, const lat__expr *e)
{
    if (!e)
        return NULL;
    lat__expr *c = lat__expr_new(p, (lat__exprkind)e->kind, e->loc);
    *c = *e;
    c->aux = NULL;
    c->site = 0;
    c->a = lat__expr_clone(p, e->a);
    c->b = lat__expr_clone(p, e->b);
    c->c = lat__expr_clone(p, e->c);
    c->path = lat__expr_clone(p, e->path);
    if (e->nargs) {
        c->args = lat__arena_alloc(&p->u->arena, (size_t)e->nargs * sizeof *c->args);
        for (int i = 0; i < e->nargs; i++)
            c->args[i] = lat__expr_clone(p, e->args[i]);
    }
    if (e->items.n) {
        memset(&c->items, 0, sizeof c->items);
        for (size_t i = 0; i < e->items.n; i++) {
            lat__init_item it = {lat__expr_clone(p, e->items.items[i].value), e->items.items[i].desig};
            LAT_PUSH(&p->u->arena, c->items, it);
        }
    }
    if (e->kind == LAT_E_CALL && e->sym && p->fn)
        lat__note_call(p, e->sym);
    return c;
}

/* ---- overloading --------------------------------------------------------------------------- */

bool lat__same_parameters(const lat__type *a, const lat__type *b)
{
    if (a->params.n != b->params.n || a->params.variadic != b->params.variadic)
        return false;
    for (int i = 0; i < a->params.n; i++) {
        const lat__type *x = a->params.types[i], *y = b->params.types[i];
        /* top-level const of a parameter is not part of the function's type */
        if (!lat__type_compatible(x, y, true))
            return false;
        if (x->kind == LAT_TY_PTR && y->kind == LAT_TY_PTR &&
            (x->ref != y->ref || (x->base->quals & ~LAT_Q_RESTRICT) != (y->base->quals & ~LAT_Q_RESTRICT)))
            return false;
    }
    return true;
}

lat__sym *lat__declare_overload(lat__parser *p, lat__sym *set, lat__atom *name, lat__loc loc,
                                lat__type *t, uint16_t cuda, uint8_t storage)
{
    for (lat__sym *o = set; o; o = o->overloads)
        if ((o->cuda | cuda) & LAT_CU_GLOBAL) {
            lat__unsupported_at(p->u, loc, "an overloaded __global__ function",
                                "kernels are found by their names; give each its own");
            break;
        }
    int n = 1;
    for (lat__sym *o = set; o; o = o->overloads)
        n++;
    lat__sym *f = lat__sym_new(p, LAT_SYM_FUNC, name, loc);
    f->type = t;
    f->cuda = cuda;
    f->storage = storage;
    f->depth = 0;
    f->flags |= LAT_SF_FILE_SCOPE;
    f->overloads = set;
    f->emit_name = lat__arena_printf(&p->u->arena, "%s__lat_ov%d", lat__c_name(p, name), n);
    lat__bind(p, f);
    return f;
}

/* C++'s ranks of an argument's conversion; among the standard conversions, a pointer's to
 * a base is better than to void *, and both better than to bool ([over.ics.rank]). */
enum { NO_MATCH = -1, EXACT = 0, PROMOTION = 1, CONVERSION = 2, TO_VOID_PTR = 3, TO_BOOL = 4, USER = 5, ELLIPSIS = 6 };

static bool is_null_pointer_constant(const lat__expr *e)
{
    return (e->flags & LAT_EF_CONST) && e->ival == 0 &&
           (lat__is_integer(e->type) || (e->type->kind == LAT_TY_PTR && e->type->base->kind == LAT_TY_VOID));
}

static int arg_rank(lat__parser *p, lat__expr *a, const lat__type *t, bool user);

/* How a value of a's type converts to t (both unqualified, a already an rvalue); user:
 * whether a user-defined conversion may be part of it (C++ allows one per argument). */
static int value_rank(lat__parser *p, const lat__expr *a, const lat__type *t, bool user)
{
    lat__type *from = lat__unqualified(p->u, a->type), *to = lat__unqualified(p->u, (lat__type *)t);
    bool one_class = lat__is_record(from) && lat__is_record(to) && from->rec == to->rec;
    if (!one_class && lat__is_record(from) && lat__is_record(to) && from->rec && to->rec &&
        lat__derived_from(from, to))
        return CONVERSION; /* a derived object to its base by value (C++'s derived-to-base
                              conversion: tag dispatch on std::true_type) */
    if (user && !one_class && (lat__is_record(from) || lat__is_record(to))) {
        if (lat__is_record(from) && lat__conversion_operator(p, (lat__expr *)a, to))
            return USER;
        if (lat__is_record(to) && to->rec && lat__converting_ctor(p, to->rec, (lat__expr *)a, NULL, false))
            return USER;
        return NO_MATCH;
    }
    if (from->kind == LAT_TY_PTR && to->kind == LAT_TY_PTR) {
        bool drops = from->base->quals & ~to->base->quals & (LAT_Q_CONST | LAT_Q_VOLATILE);
        if (lat__type_compatible(from->base, to->base, true))
            return drops ? NO_MATCH : EXACT;
        if (lat__is_record(from->base) && lat__is_record(to->base) && lat__derived_from(from->base, to->base))
            return drops ? NO_MATCH : CONVERSION; /* Derived * to Base * */
        if (to->base->kind == LAT_TY_VOID)
            return drops ? NO_MATCH : TO_VOID_PTR;
        return is_null_pointer_constant(a) ? CONVERSION : NO_MATCH; /* n(nullptr) to an int * */
    }
    if (to->kind == LAT_TY_PTR)
        return is_null_pointer_constant(a) ? CONVERSION : NO_MATCH;
    if (lat__is_arith(from) && lat__is_arith(to)) {
        if (lat__type_same(from, to))
            return EXACT;
        if (to->kind == LAT_TY_INT && lat__int_rank(from) < lat__int_rank(&lat__ty_int) && lat__is_integer(from))
            return PROMOTION;
        if (to->kind == LAT_TY_DOUBLE && from->kind == LAT_TY_FLOAT)
            return PROMOTION;
        return CONVERSION;
    }
    if (to->kind == LAT_TY_BOOL && from->kind == LAT_TY_PTR)
        return TO_BOOL;
    return one_class ? EXACT : NO_MATCH;
}

static int arg_rank(lat__parser *p, lat__expr *a, const lat__type *t, bool user)
{
    if (t->kind == LAT_TY_PTR && t->ref) {
        const lat__type *b = t->base;
        bool lvalue = (a->flags & LAT_EF_LVALUE) != 0;
        bool same = lat__type_compatible(lat__unqualified(p->u, a->type), lat__unqualified(p->u, (lat__type *)b), true);
        if (same && lvalue && t->ref == 1)
            return (a->type->quals & ~b->quals & (LAT_Q_CONST | LAT_Q_VOLATILE)) ? NO_MATCH : EXACT;
        if (lvalue && lat__is_record(a->type) && lat__is_record(b) && lat__derived_from(a->type, b))
            /* a derived object bound to a reference to its base: a conversion's rank */
            return (a->type->quals & ~b->quals & (LAT_Q_CONST | LAT_Q_VOLATILE)) ? NO_MATCH : CONVERSION;
        if (!(b->quals & LAT_Q_CONST) && t->ref != 2)
            return NO_MATCH;
        return value_rank(p, lat__rvalue(p, a), b, user);
    }
    return value_rank(p, lat__rvalue(p, a), t, user);
}

/* Whether f's first parameter is a member function's object (this). */
static bool is_object_param(const lat__sym *f)
{
    const lat__param_types *pt = &f->type->params;
    return f->rec && pt->n > 0 && pt->syms && pt->syms[0] && pt->syms[0]->name &&
           strcmp(pt->syms[0]->name->name, "this") == 0;
}

/* ranks[i] for each argument, or false when the candidate is not viable. */
static bool candidate_ranks(lat__parser *p, const lat__sym *f, lat__expr **args, int nargs, int *ranks, bool user)
{
    const lat__param_types *pt = &f->type->params;
    if (nargs > pt->n && !pt->variadic)
        return false;
    if (nargs < pt->n && !(pt->defaults && pt->defaults[nargs]))
        return false;
    for (int i = 0; i < nargs; i++) {
        ranks[i] = i < pt->n ? arg_rank(p, args[i], pt->types[i], user) : ELLIPSIS;
        if (i == 0 && (ranks[i] == NO_MATCH || ranks[i] == CONVERSION) && is_object_param(f) &&
            lat__is_pointer(args[0]->type) &&
            lat__derived_from(args[0]->type->base, pt->types[0]->base) &&
            !(args[0]->type->base->quals & ~pt->types[0]->base->quals & (LAT_Q_CONST | LAT_Q_VOLATILE)))
            ranks[i] = EXACT; /* a base's member function a using-declaration brought into the
                                 derived class: its object parameter is the derived class's */
        if (ranks[i] == NO_MATCH)
            return false;
    }
    return true;
}

lat__sym *lat__converting_ctor(lat__parser *p, lat__record *r, lat__expr *a, bool *ambiguous, bool explicit_too)
{
    lat__sym *best = NULL;
    int best_rank = NO_MATCH, rank;
    if (ambiguous)
        *ambiguous = false;
    for (lat__sym *c = lat__find_ctor(r); c; c = c->overloads) {
        if ((c->flags & LAT_SF_EXPLICIT) && !explicit_too)
            continue;
        /* copy-initialization converts through one user-defined conversion, no more */
        if (!candidate_ranks(p, c, &a, 1, &rank, false))
            continue;
        if (!best || rank < best_rank) {
            best = c;
            best_rank = rank;
            if (ambiguous)
                *ambiguous = false;
        } else if (rank == best_rank && ambiguous) {
            *ambiguous = true;
        }
    }
    return best;
}

int lat__arg_rank(lat__parser *p, lat__expr *a, const lat__type *t)
{
    return arg_rank(p, a, t, true);
}

int lat__fewest_user_conversions(lat__parser *p, lat__sym *set, lat__expr **args, int nargs)
{
    int *ranks = lat__arena_alloc(&p->u->arena, (size_t)(nargs + 1) * sizeof(int));
    int fewest = -1;
    for (lat__sym *f = set; f; f = f->overloads) {
        if (!candidate_ranks(p, f, args, nargs, ranks, true))
            continue;
        int n = 0;
        for (int i = 0; i < nargs; i++)
            n += ranks[i] == USER;
        fewest = fewest < 0 || n < fewest ? n : fewest;
    }
    return fewest;
}

static const char *arg_types(lat__parser *p, lat__expr **args, int nargs)
{
    char *s = lat__arena_printf(&p->u->arena, "(");
    for (int i = 0; i < nargs; i++)
        s = lat__arena_printf(&p->u->arena, "%s%s%s", s, i ? ", " : "",
                              lat__type_str(p->u, args[i]->type, NULL, false));
    return lat__arena_printf(&p->u->arena, "%s)", s);
}

/* C++'s tie-break between two exact matches that bind a pointer or reference to the same
 * type with other qualifiers: the less qualified one is better (a non-const object calls
 * the non-const operator[]). 1: a is better, -1: b is, 0: neither. */
static int fewer_qualifiers(const lat__sym *a, const lat__sym *b, int nargs)
{
    int better = 0, worse = 0;
    for (int i = 0; i < nargs && i < a->type->params.n && i < b->type->params.n; i++) {
        const lat__type *x = a->type->params.types[i], *y = b->type->params.types[i];
        if (x->kind != LAT_TY_PTR || y->kind != LAT_TY_PTR || !x->base || !y->base)
            continue;
        unsigned qx = x->base->quals, qy = y->base->quals;
        if (qx == qy || !lat__type_compatible(x->base, y->base, true))
            continue;
        if ((qx & qy) == qx)
            better++;
        else if ((qx & qy) == qy)
            worse++;
    }
    return better && !worse ? 1 : worse && !better ? -1 : 0;
}

lat__sym *lat__resolve_overload(lat__parser *p, lat__sym *set, lat__expr **args, int nargs, lat__loc at)
{
    for (int i = 0; i < nargs; i++)
        if (args[i]->flags & LAT_EF_ERROR)
            return set; /* reported: any will do */
    int *best_ranks = lat__arena_alloc(&p->u->arena, (size_t)(nargs + 1) * sizeof(int));
    int *ranks = lat__arena_alloc(&p->u->arena, (size_t)(nargs + 1) * sizeof(int));
    lat__sym *best = NULL, *tie = NULL;
    for (lat__sym *f = set; f; f = f->overloads) {
        if (!candidate_ranks(p, f, args, nargs, ranks, true))
            continue;
        if (!best) {
            best = f;
            memcpy(best_ranks, ranks, (size_t)nargs * sizeof(int));
            continue;
        }
        bool better = false, worse = false;
        for (int i = 0; i < nargs; i++) {
            better |= ranks[i] < best_ranks[i];
            worse |= ranks[i] > best_ranks[i];
        }
        if (!better && !worse && fewer_qualifiers(f, best, nargs)) {
            better = fewer_qualifiers(f, best, nargs) > 0;
            worse = !better;
        }
        if (better && !worse) {
            best = f;
            tie = NULL;
            memcpy(best_ranks, ranks, (size_t)nargs * sizeof(int));
        } else if (better == worse) {
            tie = f;
        }
    }
    /* a tie found before the final best may still be beaten by it: check again */
    if (best && tie) {
        candidate_ranks(p, tie, args, nargs, ranks, true);
        bool better = false, worse = false;
        for (int i = 0; i < nargs; i++) {
            better |= best_ranks[i] < ranks[i];
            worse |= best_ranks[i] > ranks[i];
        }
        if ((better && !worse) || (!better && !worse && fewer_qualifiers(best, tie, nargs) > 0))
            tie = NULL;
    }
    const char *name = set->name->name;
    if (!best) {
        lat__error_at(p->u, at, "no overload of '%s' takes %s", name, arg_types(p, args, nargs));
        for (lat__sym *f = set; f; f = f->overloads)
            lat__diag_at(p->u, f->loc, LAT_SEV_NOTE, LAT_OK, "candidate: %s", lat__type_str(p->u, f->type, name, false));
        return NULL;
    }
    if (tie) {
        lat__error_at(p->u, at, "the call %s%s is ambiguous: %s and %s fit equally well", name,
                      arg_types(p, args, nargs), lat__type_str(p->u, best->type, name, false),
                      lat__type_str(p->u, tie->type, name, false));
        return NULL;
    }
    return best;
}

/* ---- namespaces ---------------------------------------------------------------------------- */

static lat__ns *child_ns(lat__parser *p, lat__ns *in, const lat__atom *name)
{
    if (!name)
        return NULL;
    lat__ns **items = in ? in->children.items : p->top_ns.items;
    size_t n = in ? in->children.n : p->top_ns.n;
    for (size_t i = 0; i < n; i++)
        if (items[i]->name == name)
            return items[i]->alias_of ? items[i]->alias_of : items[i];
    return NULL;
}

static lat__ns *new_ns(lat__parser *p, lat__atom *name)
{
    lat__ns *ns = lat__arena_alloc(&p->u->arena, sizeof *ns);
    ns->name = name;
    ns->parent = p->ns;
    const char *outer = p->ns ? p->ns->prefix : "";
    ns->prefix = name ? lat__arena_printf(&p->u->arena, "%s%s__", outer, name->name)
                      : lat__arena_printf(&p->u->arena, "%s__lat_anon%d__", outer, ++p->anon);
    if (p->ns)
        LAT_PUSH(&p->u->arena, p->ns->children, ns);
    else
        LAT_PUSH(&p->u->arena, p->top_ns, ns);
    return ns;
}

/* Leaves ns: its members' plain names go out of scope (bound since `mark`), and each gets
 * its emitted name. */
static void ns_leave(lat__parser *p, lat__ns *ns, size_t mark)
{
    for (size_t i = p->bound.n; i-- > mark;) {
        lat__sym *s = p->bound.items[i];
        if ((s->ns != ns && !(s->ns && s->ns->is_inline && s->ns->parent == ns)) || !s->name)
            continue; /* (an inline namespace's members leave with its parent) */
        if (s->kind == LAT_SYM_TAG) {
            if (s->name->tag == s)
                s->name->tag = s->shadow;
        } else if (s->name->sym == s) {
            s->name->sym = s->shadow;
        }
    }
    /* the members stay in p->bound: at file scope nothing pops them */
    for (size_t i = 0; i < ns->members.n; i++) {
        lat__sym *s = ns->members.items[i];
        if (s->kind == LAT_SYM_TAG) {
            if (s->rec && !s->rec->builtin && s->rec->tag && !s->rec->emit_tag)
                s->rec->emit_tag = lat__arena_printf(&p->u->arena, "%s%s", ns->prefix, s->rec->tag->name);
        } else if ((s->kind == LAT_SYM_FUNC || s->kind == LAT_SYM_VAR || s->kind == LAT_SYM_TYPEDEF) &&
                   !(s->cuda & LAT_CU_GLOBAL) &&
                   !(s->emit_name && strncmp(s->emit_name, ns->prefix, strlen(ns->prefix)) == 0)) {
            s->emit_name = lat__arena_printf(&p->u->arena, "%s%s", ns->prefix,
                                             s->emit_name ? s->emit_name : s->name->name);
        }
    }
    p->ns = ns->parent;
}

static lat__ns *find_ns(lat__parser *p, const lat__atom *name);

static void namespace_body(lat__parser *p, lat__atom *name, lat__atom **inner, size_t ninner, bool is_inline,
                           void (*declarations)(lat__parser *p, bool until_brace));

void lat__namespace_definition(lat__parser *p, void (*declarations)(lat__parser *p, bool until_brace))
{
    bool is_inline = lat__at_kw(p, LAT_KW_INLINE);
    if (is_inline)
        lat__next(p);
    lat__tok *kw = lat__next(p);
    lat__atom *name = NULL;
    if (lat__peek(p)->kind == LAT_TK_IDENT && !lat__peek(p)->atom->kw)
        name = lat__next(p)->atom;
    if (name && lat__accept(p, LAT_P_ASSIGN)) {
        /* namespace cg = cooperative_groups; another name for a namespace */
        lat__ns *target = NULL;
        bool global = lat__accept(p, LAT_P_SCOPE);
        while (lat__peek(p)->kind == LAT_TK_IDENT) {
            lat__tok *t = lat__next(p);
            lat__ns *next = target ? child_ns(p, target, t->atom) : global ? child_ns(p, NULL, t->atom)
                                                                          : find_ns(p, t->atom);
            if (!next) {
                lat__error_tok(p, t, "'%s': no such namespace", t->atom->name);
                lat__skip_declaration(p);
                return;
            }
            target = next;
            if (!lat__accept(p, LAT_P_SCOPE))
                break;
        }
        if (!target) {
            lat__syntax_error(p, "a namespace's name after '='");
            lat__skip_declaration(p);
            return;
        }
        lat__expect(p, LAT_P_SEMI, "after the namespace alias");
        lat__ns *was = p->depth > 0 ? find_ns(p, name) : NULL;
        if (was && was != target && was->alias_of != target) {
            /* lattice keeps an alias written in a function past the function's end */
            lat__unsupported(p, kw, "a namespace alias in a function hiding another namespace of its name",
                             "a lattice limit: give the alias another name");
            return;
        }
        lat__ns *alias = lat__arena_alloc(&p->u->arena, sizeof *alias);
        *alias = *target; /* shares the members and children it has now */
        alias->name = name;
        alias->alias_of = target;
        if (p->ns)
            LAT_PUSH(&p->u->arena, p->ns->children, alias);
        else
            LAT_PUSH(&p->u->arena, p->top_ns, alias);
        return;
    }
    if (p->depth > 0) {
        lat__error_tok(p, kw, "a namespace inside a function");
        lat__skip_declaration(p);
        return;
    }
    /* namespace a::b::c { (C++17): each nested in the one before, closed by one brace */
    LAT_VEC(lat__atom *) inner = {0};
    while (name && lat__at_punct(p, LAT_P_SCOPE) && lat__peek_at(p, 1)->kind == LAT_TK_IDENT &&
           !lat__peek_at(p, 1)->atom->kw) {
        lat__next(p);
        LAT_PUSH(&p->u->arena, inner, lat__next(p)->atom);
    }
    if (!lat__expect(p, LAT_P_LBRACE, "to open the namespace")) {
        lat__skip_declaration(p);
        return;
    }
    namespace_body(p, name, inner.items, inner.n, is_inline, declarations);
}

/* The body of namespace `name` (and of the namespaces nested in it, `inner`, opened with
 * it: namespace a::b {), from after its '{' to past its '}'. */
static void namespace_body(lat__parser *p, lat__atom *name, lat__atom **inner, size_t ninner, bool is_inline,
                           void (*declarations)(lat__parser *p, bool until_brace))
{
    lat__ns *ns = child_ns(p, p->ns, name);
    if (!ns)
        ns = new_ns(p, name);
    if (is_inline && !ninner)
        ns->is_inline = true;
    p->ns = ns;
    size_t mark = p->bound.n;
    /* A reopened namespace sees its earlier members again, its inline namespaces' too. */
    for (size_t c = 0; c <= ns->children.n; c++) {
        lat__ns *from = c == 0 ? ns : ns->children.items[c - 1];
        if (c > 0 && (!from->is_inline || from == ns))
            continue;
        for (size_t i = 0; i < from->members.n; i++) {
            lat__sym *s = from->members.items[i];
            lat__sym **slot = s->kind == LAT_SYM_TAG ? &s->name->tag : &s->name->sym;
            s->shadow = *slot;
            *slot = s;
            LAT_PUSH(&p->u->arena, p->bound, s);
        }
    }
    if (ninner) {
        namespace_body(p, inner[0], inner + 1, ninner - 1, is_inline, declarations);
    } else {
        declarations(p, true);
        lat__expect(p, LAT_P_RBRACE, "to close the namespace");
    }
    ns_leave(p, ns, mark);
    if (!name || ns->is_inline) {
        /* an anonymous or inline namespace's members are visible where it stands */
        for (size_t i = 0; i < ns->members.n; i++) {
            lat__sym *s = ns->members.items[i];
            lat__sym **slot = s->kind == LAT_SYM_TAG ? &s->name->tag : &s->name->sym;
            s->shadow = *slot;
            *slot = s;
            LAT_PUSH(&p->u->arena, p->bound, s);
        }
    }
}

lat__ns *lat__scoped_enum_open(lat__parser *p, lat__atom *tag)
{
    lat__ns *ns = new_ns(p, tag);
    ns->scoped_enum = true;
    p->ns = ns;
    return ns;
}

void lat__scoped_enum_close(lat__parser *p, lat__ns *ns, size_t mark)
{
    ns_leave(p, ns, mark);
}

/* The namespace a name found from the current one denotes: the innermost enclosing
 * namespace that has a child of that name (C++'s unqualified lookup of the first part). */
static lat__ns *find_ns(lat__parser *p, const lat__atom *name)
{
    for (lat__ns *in = p->ns;; in = in->parent) {
        lat__ns *c = child_ns(p, in, name);
        if (c)
            return c;
        if (!in)
            break;
    }
    for (size_t i = p->used_ns.n; i-- > 0;) { /* through a using directive, newest first */
        lat__ns *c = child_ns(p, p->used_ns.items[i], name);
        if (c)
            return c;
    }
    return NULL;
}

static lat__sym *member_of(lat__ns *ns, const lat__atom *name, bool tag)
{
    for (size_t i = ns->members.n; i-- > 0;) {
        lat__sym *s = ns->members.items[i];
        if (s->name == name && (s->kind == LAT_SYM_TAG) == tag)
            return s;
    }
    for (size_t i = ns->using_decls.n; i-- > 0;) {
        lat__sym *s = ns->using_decls.items[i];
        if (s->name == name && (s->kind == LAT_SYM_TAG) == tag)
            return s;
    }
    for (size_t i = 0; i < ns->children.n; i++) /* outer::f of inline namespace outer::v1 */
        if (ns->children.items[i]->is_inline && ns->children.items[i] != ns) {
            lat__sym *s = member_of(ns->children.items[i], name, tag);
            if (s)
                return s;
        }
    return NULL;
}

/* ---- argument-dependent lookup ---------------------------------------------------------- */

/* Whether s is one of the overloads of set (a template is compared as itself). */
static bool in_set(const lat__sym *set, const lat__sym *s)
{
    for (const lat__sym *f = set; f; f = f->overloads)
        if (f == s)
            return true;
    return false;
}

/* Some namespace at or under ns (NULL: every one) declares a function `name` outside found's set. */
static bool declared_elsewhere(lat__parser *p, lat__ns *ns, const lat__atom *name, const lat__sym *found)
{
    lat__ns **items = ns ? ns->children.items : p->top_ns.items;
    size_t n = ns ? ns->children.n : p->top_ns.n;
    if (ns) {
        lat__sym *m = member_of(ns, name, false);
        if (m && m->kind == LAT_SYM_FUNC && !in_set(found, m))
            return true;
    }
    for (size_t i = 0; i < n; i++)
        if (!items[i]->alias_of && declared_elsewhere(p, items[i], name, found))
            return true;
    return false;
}

/* Some namespace at or under ns (NULL: every one) declares a template `name`. */
static bool template_somewhere(lat__parser *p, lat__ns *ns, const lat__atom *name)
{
    lat__ns **items = ns ? ns->children.items : p->top_ns.items;
    size_t n = ns ? ns->children.n : p->top_ns.n;
    if (ns) {
        lat__sym *m = member_of(ns, name, false);
        if (m && m->tmpl)
            return true;
    }
    for (size_t i = 0; i < n; i++)
        if (!items[i]->alias_of && template_somewhere(p, items[i], name))
            return true;
    return false;
}

bool lat__names_template(lat__parser *p, const lat__atom *name)
{
    return (name->sym && name->sym->tmpl) || template_somewhere(p, NULL, name);
}

bool lat__adl_may_find(lat__parser *p, lat__atom *name, lat__sym *found)
{
    /* C++ does no argument-dependent lookup when ordinary lookup finds a variable, a type,
     * a class member or a function declared in a block. */
    if (found && ((found->kind != LAT_SYM_FUNC && found->kind != LAT_SYM_BUILTIN) ||
                  (found->flags & (LAT_SF_MEMBER | LAT_SF_METHOD)) || found->depth > 0 ||
                  (found->kind == LAT_SYM_FUNC && found->rec))) /* (a member template) */
        return false;
    return declared_elsewhere(p, NULL, name, found);
}

/* Adds the namespace whose functions argument-dependent lookup finds for an argument of type t. */
static void add_associated(lat__ns **out, int *n, int room, const lat__type *t)
{
    while (t && (t->kind == LAT_TY_PTR || t->kind == LAT_TY_ARRAY))
        t = t->base; /* a reference, a pointer or an array: its element's class */
    if (!t || !t->rec || t->rec->builtin || !t->rec->ns)
        return;
    lat__ns *ns = t->rec->ns;
    while (ns && ns->scoped_enum)
        ns = ns->parent;
    for (int i = 0; i < *n; i++)
        if (out[i] == ns)
            return;
    if (ns && *n < room)
        out[(*n)++] = ns;
}

/* Whether the overload set s takes the arguments (reporting nothing). A built-in takes no
 * object of a class: a class's own function, exact, is better than its conversion. */
static bool set_takes(lat__parser *p, lat__sym *s, lat__expr **args, int nargs)
{
    if (s->kind == LAT_SYM_BUILTIN) {
        for (int i = 0; i < nargs; i++)
            if (lat__is_record(args[i]->type))
                return false;
        return true;
    }
    if (s->kind != LAT_SYM_FUNC)
        return false;
    if (s->tmpl)
        return lat__template_fits(p, s, args, (size_t)nargs);
    if (lat__fewest_user_conversions(p, s, args, nargs) >= 0)
        return true;
    for (lat__sym *f = s; f; f = f->overloads)
        if (f->builtin_of)
            return set_takes(p, f->builtin_of, args, nargs);
    return false;
}

/* Whether f beats every other viable candidate of the sets (n of them) in C++'s ranking:
 * as good for every argument, better for one. Only plain functions are compared (a
 * template or a built-in among the viable ones: false). */
static bool beats_all(lat__parser *p, const lat__sym *f, lat__sym **sets, int n, lat__expr **args, int nargs)
{
    int *mine = lat__arena_alloc(&p->u->arena, (size_t)(nargs + 1) * sizeof(int));
    int *theirs = lat__arena_alloc(&p->u->arena, (size_t)(nargs + 1) * sizeof(int));
    if (f->tmpl || f->builtin_of || f->kind != LAT_SYM_FUNC || !candidate_ranks(p, f, args, nargs, mine, true))
        return false;
    for (int k = 0; k < n; k++)
        for (const lat__sym *g = sets[k]; g; g = g->overloads) {
            if (g == f)
                continue;
            if (g->tmpl || g->builtin_of || g->kind != LAT_SYM_FUNC)
                return false;
            if (!candidate_ranks(p, g, args, nargs, theirs, true))
                continue;
            bool better = false, worse = false;
            for (int i = 0; i < nargs; i++) {
                better |= mine[i] < theirs[i];
                worse |= mine[i] > theirs[i];
            }
            if (!better || worse)
                return false;
        }
    return true;
}

/* The set among the n fitting ones (each a namespace's overloads) holding the one function
 * that beats all the others, or NULL. */
static lat__sym *ranked_set(lat__parser *p, lat__sym **sets, int n, lat__expr **args, int nargs)
{
    for (int k = 0; k < n; k++)
        for (const lat__sym *f = sets[k]; f; f = f->overloads)
            if (beats_all(p, f, sets, n, args, nargs))
                return sets[k];
    return NULL;
}

lat__sym *lat__adl_choose(lat__parser *p, lat__atom *name, lat__sym *found, lat__expr **args, int nargs, lat__loc at,
                          bool *refused)
{
    *refused = false;
    enum { ROOM = 16 };
    lat__ns *nss[ROOM];
    int nn = 0;
    for (int i = 0; i < nargs; i++) {
        if (args[i]->flags & LAT_EF_ERROR)
            return found;
        add_associated(nss, &nn, ROOM, args[i]->type);
    }
    lat__sym *sets[ROOM];
    int ns_ = 0;
    for (int i = 0; i < nn; i++) {
        lat__sym *m = member_of(nss[i], name, false);
        if (m && m->kind == LAT_SYM_FUNC && !in_set(found, m))
            sets[ns_++] = m;
    }
    if (!ns_)
        return found;
    lat__sym *pick = found && set_takes(p, found, args, nargs) ? found : NULL, *other = NULL;
    for (int i = 0; i < ns_ && !other; i++)
        if (set_takes(p, sets[i], args, nargs)) {
            if (pick)
                other = sets[i];
            else
                pick = sets[i];
        }
    if (!pick) /* none takes them: the call reports it, with the candidates */
        return found ? found : sets[0];
    if (other) {
        /* C++ ranks the namespaces' functions together: one better than every other for
         * each argument (exact match, promotion, conversion) is the call's */
        lat__sym *fitting[ROOM + 1];
        int nf = 0;
        if (found && set_takes(p, found, args, nargs))
            fitting[nf++] = found;
        for (int i = 0; i < ns_; i++)
            if (set_takes(p, sets[i], args, nargs))
                fitting[nf++] = sets[i];
        lat__sym *ranked = ranked_set(p, fitting, nf, args, nargs);
        if (ranked)
            return ranked;
        char what[160], why[240];
        snprintf(what, sizeof what, "the call '%s(...)' that functions of two namespaces take", name->name);
        snprintf(why, sizeof why,
                 "argument-dependent lookup found one of them, and the emulator ranks overloads of different "
                 "namespaces against each other only where neither set has a template or built-in and one function "
                 "is better than all; qualify the call, ns::%s",
                 name->name);
        lat__unsupported_at(p->u, at, what, why);
        *refused = true;
        return NULL;
    }
    return pick;
}

/* The file-scope declaration of name, under whatever local ones hide it. */
static lat__sym *global_sym(lat__parser *p, lat__atom *name, bool tag)
{
    lat__sym *s = tag ? name->tag : lat__lookup(p, name);
    /* past locals, and past a namespace's name that a using-directive brought in sight
     * (using namespace std; ::max(a, b) is the global max) */
    while (s && (s->depth > 0 || s->ns))
        s = s->shadow;
    return s;
}

/* At the '<' (token k) of a template's arguments: the token after the '>' that closes
 * them (0 when they do not close). */
static size_t after_args(lat__parser *p, size_t k)
{
    int depth = 0;
    for (size_t i = k; i < k + 256; i++) {
        const lat__tok *a = lat__peek_at(p, i);
        if (a->kind == LAT_TK_EOF || lat__tok_is_punct(a, LAT_P_SEMI) || lat__tok_is_punct(a, LAT_P_LBRACE))
            return 0;
        if (lat__tok_is_punct(a, LAT_P_LT))
            depth++;
        else if (lat__tok_is_punct(a, LAT_P_GT))
            depth--;
        else if (lat__tok_is_punct(a, LAT_P_SHR))
            depth -= 2;
        if (depth <= 0)
            return depth == 0 ? i + 1 : 0;
    }
    return 0;
}

static bool is_class_template(const lat__sym *s)
{
    return s && s->tmpl && s->kind == LAT_SYM_TYPEDEF;
}

/* At a class template's name followed by <args>: the token after the '>' that closes
 * them (0 when they do not close). */
static size_t after_template_args(lat__parser *p, size_t k)
{
    const lat__tok *t = lat__peek_at(p, k);
    if (t->kind != LAT_TK_IDENT || !is_class_template(t->atom->sym) || !lat__tok_is_punct(lat__peek_at(p, k + 1), LAT_P_LT))
        return 0;
    return after_args(p, k + 1);
}

/* The std namespace a program or a header of ours declares, or libcu++'s cuda::std: a
 * name not in it is looked for among the built-ins, which are CUDA's std:: (std::min,
 * std::sqrt, cuda::std::isnan). */
static bool is_std_ns(const lat__ns *ns)
{
    if (!ns || !ns->name || strcmp(ns->name->name, "std") != 0)
        return false;
    const lat__ns *up = ns->parent;
    return !up || (up->name && !up->parent && strcmp(up->name->name, "cuda") == 0);
}

/* S::member, at member (after the '::'), S's type ty: a static member function, a static
 * constant or a member type, through member types that are structs (S::Inner::value);
 * NULL with *why set when there is none. *name: the last part read. */
static lat__sym *record_member(lat__parser *p, lat__type *ty, lat__tok **name, const char **why)
{
    for (int depth = 0;; depth++) {
        if (lat__at_kw(p, LAT_KW_TEMPLATE) && lat__peek_at(p, 1)->kind == LAT_TK_IDENT)
            lat__next(p); /* X<T>::template rebind<U>: says that a member template follows */
        *name = lat__peek(p);
        if (lat__is_template_placeholder(ty) && (*name)->kind == LAT_TK_IDENT) {
            /* T::value_type in a signature read for deduction: a type known only in the
             * instance, deducing nothing */
            lat__next(p);
            while (lat__at_punct(p, LAT_P_SCOPE) && lat__peek_at(p, 1)->kind == LAT_TK_IDENT) {
                lat__next(p);
                *name = lat__next(p);
            }
            lat__sym *d = lat__sym_new(p, LAT_SYM_TYPEDEF, (*name)->atom, (*name)->loc);
            d->type = lat__dependent_type(p);
            d->flags |= LAT_SF_TRANSPARENT;
            return d;
        }
        if (!lat__is_record(ty) || !ty->rec || (*name)->kind != LAT_TK_IDENT || depth > 64) {
            *why = "no such member";
            return NULL;
        }
        lat__next(p);
        lat__sym *found = lat__find_member_sym(ty->rec, (*name)->atom);
        lat__sym *m = (*name)->atom->sym;
        if (!found && m && m->kind == LAT_SYM_VAR && (m->flags & LAT_SF_MEMBER) && m->rec &&
            (size_t)m->value < ty->rec->fields.n && ty->rec->fields.items[m->value].name == (*name)->atom) {
            /* Base::x in a member function of a class derived from Base: the data member
             * of its base subobject, which leads the class's own */
            if (m->rec == ty->rec || lat__record_derived(m->rec, ty->rec))
                return m;
        }
        if (!found && p->this_sym && lat__is_pointer(p->this_sym->type) && p->this_sym->type->base->rec &&
            lat__record_derived(p->this_sym->type->base->rec, ty->rec)) {
            /* Base::x where the derived class's own x hides it: the base's field, on the
             * base subobject (lat__member_name) */
            for (size_t i = 0; i < ty->rec->fields.n; i++) {
                if (ty->rec->fields.items[i].name != (*name)->atom)
                    continue;
                lat__sym *f = lat__sym_new(p, LAT_SYM_VAR, (*name)->atom, (*name)->loc);
                f->type = ty->rec->fields.items[i].type;
                f->flags |= LAT_SF_MEMBER;
                f->rec = ty->rec;
                f->value = (int64_t)i;
                return f;
            }
        }
        if (!found) {
            *why = "no such member";
            return NULL;
        }
        if (found->kind == LAT_SYM_TYPEDEF && lat__at_punct(p, LAT_P_SCOPE) &&
            lat__peek_at(p, 1)->kind == LAT_TK_IDENT) {
            lat__next(p); /* :: */
            ty = found->type;
            continue;
        }
        size_t after = is_class_template(found) && lat__at_punct(p, LAT_P_LT) ? after_args(p, 0) : 0;
        if (after && lat__tok_is_punct(lat__peek_at(p, after), LAT_P_SCOPE) &&
            lat__peek_at(p, after + 1)->kind == LAT_TK_IDENT) {
            /* Outer::Inner<args>::member: a member class template's instance's member */
            ty = lat__template_class_type(p, found, *name);
            lat__next(p); /* :: */
            continue;
        }
        if (found->kind == LAT_SYM_FUNC && found->storage != LAT_ST_STATIC && !found->tmpl && p->this_sym &&
            lat__is_pointer(p->this_sym->type) && p->this_sym->type->base->rec && found->rec == ty->rec) {
            /* Base::f() in a member function of a class derived from Base (or Base's own):
             * f on this, as the base, also where the derived class hides it with its own */
            const lat__record *own = p->this_sym->type->base->rec;
            if (own == ty->rec || lat__record_derived(own, ty->rec))
                return found;
        }
        if (found->kind == LAT_SYM_FUNC && found->storage != LAT_ST_STATIC) {
            *why = "calling a non-static member function without an object";
            return NULL;
        }
        return found;
    }
}

bool lat__at_qualified(lat__parser *p)
{
    lat__tok *t = lat__peek(p);
    if (lat__at_kw(p, LAT_KW_DECLTYPE) && lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_LPAREN)) {
        /* decltype(e)::member */
        size_t save = p->pos;
        lat__next(p);
        lat__skip_group(p);
        bool q = lat__at_punct(p, LAT_P_SCOPE) && lat__peek_at(p, 1)->kind == LAT_TK_IDENT;
        p->pos = save;
        return q;
    }
    if (lat__tok_is_punct(t, LAT_P_SCOPE))
        return lat__peek_at(p, 1)->kind == LAT_TK_IDENT;
    size_t after = after_template_args(p, 0);
    if (after) /* Traits<float>::value */
        return lat__tok_is_punct(lat__peek_at(p, after), LAT_P_SCOPE) && lat__peek_at(p, after + 1)->kind == LAT_TK_IDENT;
    return t->kind == LAT_TK_IDENT && !t->atom->kw && lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_SCOPE) &&
           lat__peek_at(p, 2)->kind == LAT_TK_IDENT;
}

lat__sym *lat__parse_qualified(lat__parser *p, bool peek)
{
    size_t start = p->pos;
    lat__tok *first = lat__peek(p);
    lat__ns *ns = NULL;
    bool global = lat__accept(p, LAT_P_SCOPE);
    bool std = false;
    lat__sym *found = NULL;
    const char *why = NULL;
    lat__tok *name = NULL;
    if (lat__at_kw(p, LAT_KW_DECLTYPE)) {
        /* decltype(e)::member: a member of e's class, as S::member */
        lat__type *ty = lat__decltype(p);
        if (ty->kind == LAT_TY_PTR && ty->ref)
            ty = ty->base;
        lat__accept(p, LAT_P_SCOPE);
        found = record_member(p, lat__unqualified(p->u, ty), &name, &why);
    }
    for (; !found && !why;) {
        name = lat__peek(p);
        if (name->kind != LAT_TK_IDENT) {
            why = "a name after '::'";
            break;
        }
        /* Name<args>::member: a member of a class template's instance (made now, also
         * when only peeking: it is being used) */
        lat__sym *ct = ns ? member_of(ns, name->atom, false) : std || global ? global_sym(p, name->atom, false)
                                                                               : name->atom->sym;
        size_t after = is_class_template(ct) && lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_LT) ? after_args(p, 1) : 0;
        if (after && lat__tok_is_punct(lat__peek_at(p, after), LAT_P_SCOPE) &&
            lat__peek_at(p, after + 1)->kind == LAT_TK_IDENT) {
            lat__next(p);
            lat__type *ty = lat__template_class_type(p, ct, name);
            lat__accept(p, LAT_P_SCOPE);
            found = record_member(p, ty, &name, &why);
            break;
        }
        lat__next(p);
        if (!lat__at_punct(p, LAT_P_SCOPE) || lat__peek_at(p, 1)->kind != LAT_TK_IDENT) {
            /* the last part: the member */
            if (std) {
                found = global_sym(p, name->atom, false);
            } else if (ns) {
                found = member_of(ns, name->atom, false);
                if (!found)
                    found = member_of(ns, name->atom, true);
                if (!found && is_std_ns(ns))
                    found = global_sym(p, name->atom, false);
            } else if (global) {
                found = global_sym(p, name->atom, false);
                if (!found)
                    found = global_sym(p, name->atom, true);
            }
            if (!found)
                why = "no such member";
            break;
        }
        lat__next(p); /* :: */
        lat__ns *next = ns ? child_ns(p, ns, name->atom) : global ? child_ns(p, NULL, name->atom)
                                                                  : find_ns(p, name->atom);
        if (!next && !ns && !global && strcmp(name->atom->name, "std") == 0) {
            std = true; /* the C++ library's names that CUDA has as built-ins */
            continue;
        }
        if (!next) {
            /* S::member, S a struct's tag or a name of its type (a typedef, a template's
             * type parameter T::value_type) */
            lat__sym *tag = ns ? member_of(ns, name->atom, true) : name->atom->tag;
            lat__type *ty = tag && tag->rec && tag->rec->kind != LAT_TY_ENUM ? tag->type : NULL;
            lat__sym *ts = ns ? member_of(ns, name->atom, false) : global || std ? NULL : lat__lookup(p, name->atom);
            if (ts && ts->kind == LAT_SYM_TYPEDEF && !ts->tmpl &&
                ((lat__is_record(ts->type) && ts->type->rec) || lat__is_template_placeholder(ts->type)))
                ty = ts->type;
            if (ty) {
                found = record_member(p, ty, &name, &why);
                break;
            }
            why = "no such namespace";
            break;
        }
        ns = next;
        global = false;
    }
    if (peek) {
        p->pos = start;
        return why ? NULL : found;
    }
    if (why) {
        lat__error_tok(p, name, "'%s': %s%s", name->kind == LAT_TK_IDENT ? name->atom->name : "::",
                           why, first != name ? " in the qualified name" : "");
        /* past the rest of it */
        while (lat__peek(p)->kind == LAT_TK_IDENT && lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_SCOPE)) {
            lat__next(p);
            lat__next(p);
        }
        if (lat__peek(p)->kind == LAT_TK_IDENT)
            lat__next(p);
        return NULL;
    }
    return found;
}

/* Binds a namespace's member by its plain name where a using names it (once). */
static void bind_again(lat__parser *p, lat__sym *s)
{
    lat__sym *now = s->kind == LAT_SYM_TAG ? s->name->tag : s->name->sym;
    if (now == s)
        return;
    lat__bind(p, s);
}

void lat__using_declaration(lat__parser *p)
{
    lat__tok *kw = lat__next(p);
    if (lat__at_kw(p, LAT_KW_NAMESPACE)) {
        lat__next(p);
        lat__tok *t = lat__peek(p);
        lat__ns *ns = NULL;
        bool global = lat__accept(p, LAT_P_SCOPE);
        while (lat__peek(p)->kind == LAT_TK_IDENT) {
            t = lat__next(p);
            lat__ns *next = ns ? child_ns(p, ns, t->atom) : global ? child_ns(p, NULL, t->atom)
                                                                  : find_ns(p, t->atom);
            if (!next && !ns && strcmp(t->atom->name, "std") == 0 && !lat__at_punct(p, LAT_P_SCOPE)) {
                lat__expect(p, LAT_P_SEMI, "after using namespace std");
                return; /* its names CUDA has are built-ins already */
            }
            if (!next) {
                lat__error_tok(p, t, "'%s': no such namespace", t->atom->name);
                lat__skip_statement(p);
                return;
            }
            ns = next;
            if (!lat__accept(p, LAT_P_SCOPE))
                break;
        }
        if (!ns) {
            lat__syntax_error(p, "a namespace's name");
            lat__skip_statement(p);
            return;
        }
        lat__expect(p, LAT_P_SEMI, "after the using directive");
        LAT_PUSH(&p->u->arena, p->used_ns, ns);
        /* oldest first: an overload set's newest member ends up bound, its chain the rest */
        for (size_t i = 0; i < ns->members.n; i++)
            bind_again(p, ns->members.items[i]);
        return;
    }
    if (lat__peek(p)->kind == LAT_TK_IDENT && lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_ASSIGN)) {
        lat__unsupported(p, kw, "a type alias 'using T = ...'", "use typedef");
        lat__skip_statement(p);
        return;
    }
    if (!lat__at_qualified(p)) {
        lat__syntax_error(p, "'namespace' or a qualified name after 'using'");
        lat__skip_statement(p);
        return;
    }
    lat__sym *s = lat__parse_qualified(p, false);
    lat__expect(p, LAT_P_SEMI, "after the using declaration");
    if (s && !(s->flags & LAT_SF_BUILTIN)) {
        bind_again(p, s);
        if (p->ns && p->depth == 0)
            LAT_PUSH(&p->u->arena, p->ns->using_decls, s); /* namespace at { using c10::Half; } */
    }
}
