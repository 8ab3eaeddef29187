/* The front end's arena: see arena.h. */
#include "arena.h"
#include "core/alloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lat__arena_chunk {
    lat__arena_chunk *next;
    size_t size;
    max_align_t data[];
};

enum { CHUNK = 64 * 1024, ALIGN = _Alignof(max_align_t) };

void lat__arena_init(lat__arena *a, jmp_buf *oom)
{
    memset(a, 0, sizeof *a);
    a->oom = oom;
}

void lat__arena_free(lat__arena *a)
{
    for (lat__arena_chunk *c = a->chunks, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    a->chunks = NULL;
    a->at = a->end = NULL;
    a->total = 0;
}

_Noreturn void lat__arena_oom(lat__arena *a)
{
    if (a->oom)
        longjmp(*a->oom, 1);
    abort(); /* only a test's own arena has no exit; the library always sets one */
}

void *lat__arena_alloc_raw(lat__arena *a, size_t size)
{
    size = (size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    if (size == 0)
        size = ALIGN;
    if (a->fail_after > 0 && --a->fail_after == 0)
        lat__arena_oom(a);
    if ((size_t)(a->end - a->at) < size) {
        size_t want = size > CHUNK / 4 ? size : CHUNK;
        if (want > SIZE_MAX - sizeof(lat__arena_chunk))
            lat__arena_oom(a);
        lat__arena_chunk *c = lat__malloc(sizeof *c + want);
        if (!c)
            lat__arena_oom(a);
        c->size = want;
        a->total += want;
        if (size > CHUNK / 4 && a->chunks) {
            /* A big block gets a chunk of its own behind the current one, so that the
             * current chunk's free space is not thrown away. */
            c->next = a->chunks->next;
            a->chunks->next = c;
            return c->data;
        }
        c->next = a->chunks;
        a->chunks = c;
        a->at = (char *)c->data;
        a->end = a->at + want;
    }
    void *p = a->at;
    a->at += size;
    return p;
}

void *lat__arena_alloc(lat__arena *a, size_t size)
{
    void *p = lat__arena_alloc_raw(a, size);
    memset(p, 0, size);
    return p;
}

char *lat__arena_strndup(lat__arena *a, const char *s, size_t n)
{
    char *p = lat__arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *lat__arena_printf(lat__arena *a, const char *fmt, ...)
{
    /* Most strings are short: format once into a stack buffer, a second time only when
     * it was too small. */
    char small[256];
    if (!fmt) /* never: but gcc 12's UBSan instrumentation invents the path and then
               * warns (-Wformat-truncation) about a null format on it */
        fmt = "";
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    char *p = lat__arena_alloc(a, (size_t)n + 1);
    if ((size_t)n < sizeof small) {
        memcpy(p, small, (size_t)n + 1);
        return p;
    }
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

void *lat__arena_grow(lat__arena *a, void *items, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return items;
    size_t nc = *cap ? *cap : 8;
    while (nc < need) {
        if (nc > SIZE_MAX / 2 / elem)
            lat__arena_oom(a);
        nc *= 2;
    }
    /* Not zeroed: every array writes an element before it reads it, and zeroing the
     * token arrays and the emitter's text was a tenth of a module's load from the cache. */
    void *p = lat__arena_alloc_raw(a, nc * elem);
    if (items && *cap)
        memcpy(p, items, *cap * elem);
    *cap = nc;
    return p;
}
