/*
 * The names CUDA C gives a kernel without a declaration of its own: types (float4, dim3,
 * size_t...), the index variables, the math library, intrinsics, barriers, warp
 * operations, atomics. The parser looks a name up here when no declaration of the
 * program's own is in scope: most are ordinary declarations written in the dialect and
 * parsed on first use; the rest are overloaded in CUDA, and typed here from their
 * arguments. The emulator's prelude implements them all under the same names.
 */
#ifndef LAT_FRONT_BUILTINS_H
#define LAT_FRONT_BUILTINS_H

#include "ast.h"

/* How an overloaded built-in is typed from its arguments. */
typedef enum lat__generic {
    LAT_G_NONE = 0,
    LAT_G_MATH1,    /* f(x): float for a float x, else double */
    LAT_G_MATH2,    /* f(x, y): float when x + y is float, else double */
    LAT_G_MATH3,    /* fma(x, y, z) */
    LAT_G_MATH_EXP, /* ldexp(x, int), scalbn(x, int): x's floating type */
    LAT_G_ABS,      /* abs: int, long, long long, float, double by argument */
    LAT_G_MINMAX,   /* min, max: the usual arithmetic conversions of both */
    LAT_G_CLASSIFY, /* isnan, isinf, isfinite, signbit: int */
    LAT_G_ATOMIC,   /* atomicAdd(p, v)...: *p's type, for the types the op has */
    LAT_G_ATOMIC_CAS, /* atomicCAS(p, compare, v) */
    LAT_G_SHFL,     /* __shfl*_sync(mask, v, lane/delta [, width]): v's type */
    LAT_G_MATCH_ANY, /* __match_any_sync(mask, v): unsigned */
    LAT_G_MATCH_ALL, /* __match_all_sync(mask, v, int *pred): unsigned */
    LAT_G_REDUCE_MINMAX, /* __reduce_min/max_sync(mask, v): int or unsigned by v */
    LAT_G_SYNCWARP, /* __syncwarp() or __syncwarp(mask) */
    LAT_G_LOCKSTEP, /* __lat_ls(v), __lat_ls_end(v) (the emulator's lockstep pass): v's type, void */
} lat__generic;

/* What a built-in does to the threads of a block: the region pass and the checks need it. */
enum {
    LAT_COLL_BARRIER = 1 << 0, /* __syncthreads */
    LAT_COLL_BVOTE = 1 << 1,   /* __syncthreads_count/and/or: a barrier with a block-wide value */
    LAT_COLL_WARP = 1 << 2,    /* a warp operation: shuffles, votes, __syncwarp, match, reduce */
    LAT_COLL_ACTIVEMASK = 1 << 3, /* __activemask: the lanes that reach it together */
    LAT_COLL_FENCE = 1 << 4,   /* __threadfence* */
    LAT_COLL_ATOMIC = 1 << 5,  /* an atomic read-modify-write */
    LAT_COLL_SPIN = 1 << 6,    /* something a thread could spin on (atomicCAS, atomicExch) */
    LAT_COLL_GRID = 1 << 7,    /* __lat_grid_sync: a barrier of the whole (cooperative) grid,
                                  also flagged LAT_COLL_BARRIER (a block barrier first) */
};

typedef struct lat__builtin {
    const char *name;
    const char *decl;   /* the declaration in the dialect, or NULL for a generic one */
    uint8_t generic;    /* lat__generic */
    uint8_t coll;       /* LAT_COLL_* */
    uint8_t op;         /* warp operation (the emulator's warp.h numbering), atomic op, vote kind */
    uint16_t sym_flags; /* LAT_SF_THREAD_VARYING / LAT_SF_BLOCK_UNIFORM for the index variables */
} lat__builtin;

/* The built-in named so, or NULL. */
const lat__builtin *lat__builtin_find(const char *name, size_t len);
/* Its id (an index, from 1) and back. */
int lat__builtin_id(const lat__builtin *b);
const lat__builtin *lat__builtin_get(int id);

/* The result type of a call of a generic built-in with these (already typed) arguments,
 * or NULL with *why set when no overload fits ("atomicAdd has no overload for 'short *'").
 * It may convert arguments (args[i] replaced) to the parameter types the overload takes. */
lat__type *lat__builtin_call_type(lat__unit *u, const lat__builtin *b, lat__expr **args,
                                  int nargs, const char **why);

/* Whether b's effects have an order of their own: printf, the heap, traps and asserts, and
 * every collective (atomics, fences, anything a thread waits on). The others only compute
 * from their arguments. */
bool lat__builtin_ordered(const lat__builtin *b);

/* Whether a name is one the emulator's prelude defines (a macro, function or type that
 * a program's own declaration of the same name would collide with in the emitted C). */
bool lat__builtin_reserved(const char *name, size_t len);

/* CUDA's vector types: element type, name stem (float for float1..float4), alignment of
 * the 2- and 4-component forms. Declared by the front end, written out by the prelude. */
typedef struct lat__vector_kind {
    const char *elem, *stem;
    int align2, align4;
} lat__vector_kind;
enum { LAT_VECTOR_KINDS = 12 };
extern const lat__vector_kind lat__vector_kinds[LAT_VECTOR_KINDS];

#endif
