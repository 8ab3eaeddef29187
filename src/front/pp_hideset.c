/*
 * Hide sets (Prosser's algorithm, as in Dave Prosser's 1986 notes for X3J11): every
 * token carries the set of macros whose expansion it came out of; a name in its own
 * token's set is not expanded again. Sets are short lists of atoms, interned by (atom,
 * rest), so that adding a name shares the rest and equal sets compare by pointer.
 */
#include "pp_int.h"

#include <string.h>

static size_t slot_of(const lat__atom *a, const pp_hs *next, size_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)a * 31u + (uint64_t)(uintptr_t)next;
    h ^= h >> 17;
    h *= 0x9e3779b97f4a7c15ull;
    h ^= h >> 29;
    return (size_t)h & (cap - 1);
}

static void grow(pp *p)
{
    size_t cap = p->hs_cap ? p->hs_cap * 2 : 1024;
    const pp_hs **slots = lat__arena_alloc(&p->u->arena, cap * sizeof *slots);
    for (size_t i = 0; i < p->hs_cap; i++) {
        const pp_hs *h = p->hs_slots[i];
        if (!h)
            continue;
        size_t j = slot_of(h->atom, h->next, cap);
        while (slots[j])
            j = (j + 1) & (cap - 1);
        slots[j] = h;
    }
    p->hs_slots = slots;
    p->hs_cap = cap;
}

/* The set {a} followed by next (a must not be in next). */
static const pp_hs *cons(pp *p, lat__atom *a, const pp_hs *next)
{
    if ((p->hs_n + 1) * 2 > p->hs_cap)
        grow(p);
    size_t j = slot_of(a, next, p->hs_cap);
    for (;; j = (j + 1) & (p->hs_cap - 1)) {
        const pp_hs *h = p->hs_slots[j];
        if (!h)
            break;
        if (h->atom == a && h->next == next)
            return h;
    }
    pp_hs *h = lat__arena_alloc(&p->u->arena, sizeof *h);
    h->atom = a;
    h->next = next;
    h->size = pp_hs_size(next) + 1;
    p->hs_slots[j] = h;
    p->hs_n++;
    p->work++; /* checked by the next pp_work */
    return h;
}

const pp_hs *pp_hs_add(pp *p, const pp_hs *h, lat__atom *a)
{
    return pp_hs_has(h, a) ? h : cons(p, a, h);
}

/* The remembered result of op(a, b), op being 0 (union) or 1 (intersection). */
static const pp_hs **memo(pp *p, const pp_hs *a, const pp_hs *b, int op)
{
    size_t k = (((uintptr_t)a >> 4) * 7 + ((uintptr_t)b >> 4) * 13 + (size_t)op) & 255;
    if (p->hs_memo[k].a != a || p->hs_memo[k].b != (const pp_hs *)((uintptr_t)b | (uintptr_t)op)) {
        p->hs_memo[k].a = a;
        p->hs_memo[k].b = (const pp_hs *)((uintptr_t)b | (uintptr_t)op);
        p->hs_memo[k].r = NULL;
        return &p->hs_memo[k].r;
    }
    return &p->hs_memo[k].r;
}

/* The members of a that are in b (want_in_b) or not, in a's order, on top of base.
 * Membership in b is marked on the atoms (their aux, cleared again), so that the cost is
 * |a| + |b|, not their product, for the long sets of deeply nested expansions. */
static const pp_hs *filter(pp *p, const pp_hs *a, const pp_hs *b, bool want_in_b,
                           const pp_hs *base)
{
    static char in_b;
    for (const pp_hs *h = b; h; h = h->next)
        h->atom->aux = &in_b;
    lat__atom *stack[64], **keep = stack;
    size_t n = 0, cap = 64;
    for (const pp_hs *h = a; h; h = h->next) {
        if ((h->atom->aux == &in_b) != want_in_b)
            continue;
        if (n == cap) {
            lat__atom **more = lat__arena_alloc(&p->u->arena, cap * 2 * sizeof *more);
            memcpy(more, keep, n * sizeof *more);
            keep = more;
            cap *= 2;
        }
        keep[n++] = h->atom;
    }
    for (const pp_hs *h = b; h; h = h->next)
        h->atom->aux = NULL;
    const pp_hs *r = base;
    while (n > 0)
        r = cons(p, keep[--n], r);
    return r;
}

const pp_hs *pp_hs_union(pp *p, const pp_hs *a, const pp_hs *b)
{
    if (!a || a == b)
        return b;
    if (!b)
        return a;
    const pp_hs **m = memo(p, a, b, 0);
    if (!*m)
        *m = filter(p, a, b, false, b);
    return *m;
}

const pp_hs *pp_hs_intersect(pp *p, const pp_hs *a, const pp_hs *b)
{
    if (!a || !b)
        return NULL;
    if (a == b)
        return a;
    const pp_hs **m = memo(p, a, b, 1);
    if (!*m)
        *m = filter(p, a, b, true, NULL);
    return *m;
}
