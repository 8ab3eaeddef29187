/* Interned names: see atom.h. */
#include "atom.h"

#include <stdlib.h>
#include <string.h>

enum { KW_WHAT_C = 'C', KW_WHAT_CUDA = 'U', KW_WHAT_CXX = 'X' };

static const struct {
    const char *spelling;
    char what; /* 'C', 'U' (CUDA), 'X' (C++) */
} keywords[] = {
    {NULL, 0},
#define KW_ROW(id, spelling, what) {spelling, KW_WHAT_##what},
    LAT_KEYWORDS(KW_ROW)
#undef KW_ROW
};

static uint32_t hash_of(const char *s, size_t n)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static void rehash(lat__atoms *t, size_t cap)
{
    lat__atom **slots = lat__arena_alloc(t->arena, cap * sizeof *slots);
    for (size_t i = 0; i < t->cap; i++) {
        lat__atom *a = t->slots[i];
        if (!a)
            continue;
        size_t j = a->hash & (cap - 1);
        while (slots[j])
            j = (j + 1) & (cap - 1);
        slots[j] = a;
    }
    t->slots = slots;
    t->cap = cap;
}

void lat__atoms_init(lat__atoms *t, lat__arena *arena)
{
    memset(t, 0, sizeof *t);
    t->arena = arena;
    rehash(t, 512);
    for (int k = 1; k < LAT_KW_COUNT; k++) {
        lat__atom *a = lat__atom_get(t, keywords[k].spelling, strlen(keywords[k].spelling));
        a->kw = (uint16_t)k;
    }
}

lat__atom *lat__atom_find(const lat__atoms *t, const char *s, size_t n)
{
    uint32_t h = hash_of(s, n);
    for (size_t j = h & (t->cap - 1);; j = (j + 1) & (t->cap - 1)) {
        lat__atom *a = t->slots[j];
        if (!a)
            return NULL;
        if (a->hash == h && a->len == n && memcmp(a->name, s, n) == 0)
            return a;
    }
}

lat__atom *lat__atom_get(lat__atoms *t, const char *s, size_t n)
{
    uint32_t h = hash_of(s, n);
    size_t j = h & (t->cap - 1);
    for (;; j = (j + 1) & (t->cap - 1)) {
        lat__atom *a = t->slots[j];
        if (!a)
            break;
        if (a->hash == h && a->len == n && memcmp(a->name, s, n) == 0)
            return a;
    }
    lat__atom *a = lat__arena_alloc(t->arena, sizeof *a);
    a->name = lat__arena_strndup(t->arena, s, n);
    a->len = (uint32_t)n;
    a->hash = h;
    t->slots[j] = a;
    if (++t->n * 2 > t->cap)
        rehash(t, t->cap * 2);
    return a;
}

bool lat__kw_is_cxx(lat__kw kw)
{
    return kw > 0 && kw < LAT_KW_COUNT && keywords[kw].what == 'X';
}

bool lat__kw_is_cuda(lat__kw kw)
{
    return kw > 0 && kw < LAT_KW_COUNT && keywords[kw].what == 'U';
}
