/*
 * The front end's memory: every token, tree node and string of one translation lives in
 * one arena and is freed with it. Running out of memory anywhere in the front end jumps
 * back to the entry point (lat__front_parse), which frees the arena and returns
 * LAT_ERROR_OUT_OF_MEMORY: no caller has to check an allocation, and nothing can leak.
 */
#ifndef LAT_FRONT_ARENA_H
#define LAT_FRONT_ARENA_H

#include <setjmp.h>
#include <stddef.h>

typedef struct lat__arena_chunk lat__arena_chunk;

typedef struct lat__arena {
    lat__arena_chunk *chunks;
    char *at, *end;      /* free space in the newest chunk */
    jmp_buf *oom;        /* where running out of memory goes; NULL: abort the process */
    size_t total;        /* bytes of chunks held, for limits */
    long fail_after;     /* tests: fail the Nth allocation from now (0: never) */
} lat__arena;

void lat__arena_init(lat__arena *a, jmp_buf *oom);
void lat__arena_free(lat__arena *a);

/* size bytes aligned for any type, zeroed. Never returns NULL (see above). */
void *lat__arena_alloc(lat__arena *a, size_t size);
/* The same, not zeroed: for blocks about to be overwritten (the preprocessor's token
 * copies), whose untouched pages then cost nothing. */
void *lat__arena_alloc_raw(lat__arena *a, size_t size);
/* A copy of [s, s + n) with a terminating NUL. */
char *lat__arena_strndup(lat__arena *a, const char *s, size_t n);
char *lat__arena_printf(lat__arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Grows an array of *cap elements of elem bytes to hold at least need (a new block: the
 * old one stays in the arena). The elements past the old ones are not zeroed. */
void *lat__arena_grow(lat__arena *a, void *items, size_t *cap, size_t need, size_t elem);
/* Jumps to the arena's out-of-memory exit. */
_Noreturn void lat__arena_oom(lat__arena *a);

/* A growable array in an arena: LAT_VEC(T) v = {0}; LAT_PUSH(arena, v, item). */
#define LAT_VEC(T)                                                                         \
    struct {                                                                               \
        T *items;                                                                          \
        size_t n, cap;                                                                     \
    }
#define LAT_PUSH(arena, v, item)                                                           \
    do {                                                                                   \
        if ((v).n == (v).cap)                                                              \
            (v).items = lat__arena_grow((arena), (v).items, &(v).cap, (v).n + 1,           \
                                        sizeof *(v).items);                                \
        (v).items[(v).n++] = (item);                                                       \
    } while (0)

#endif
