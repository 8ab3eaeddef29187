/*
 * What lattice knows of a module's kernels before any backend compiles them: each
 * __global__ function's name and parameters, with each parameter's class, size and, for
 * a pointer, the layout of what it points to. Both backends use it: lat_launch_args checks
 * arguments with it the same way on each, the CUDA backend finds kernel names with it, and
 * cross-checking compares each buffer by its real element type (floats within tolerance,
 * field by field in a struct; everything else exactly).
 */
#ifndef LAT_KERNEL_SIG_H
#define LAT_KERNEL_SIG_H

#include <stddef.h>
#include <stdint.h>

typedef enum lat__param_class {
    LAT__PARAM_UNKNOWN = 0, /* a type that could not be resolved */
    LAT__PARAM_POINTER,     /* any T *; size 8 */
    LAT__PARAM_SINT,        /* signed char/short/int/long/long long, int8_t..int64_t */
    LAT__PARAM_UINT,        /* the unsigned ones, size_t, bool */
    LAT__PARAM_FLOAT,       /* float (4), double (8) */
    LAT__PARAM_RECORD       /* a struct, union or vector type (float4, dim3...) by value */
} lat__param_class;

/* How the bytes of one element compare: exactly, or as a floating value. */
typedef enum lat__scalar_kind {
    LAT__SCALAR_EXACT = 0, /* integers, pointers, padding: byte for byte */
    LAT__SCALAR_F32,
    LAT__SCALAR_F64,
    LAT__SCALAR_F16,       /* IEEE half */
    LAT__SCALAR_BF16,
} lat__scalar_kind;

typedef struct lat__elem_field {
    uint32_t offset; /* bytes from the element's start */
    uint8_t kind;    /* lat__scalar_kind, never EXACT */
} lat__elem_field;

/* The layout of one element of a buffer: its size and where its floating fields are
 * (every other byte compares exactly). size 0: unknown (compare byte for byte). A float
 * buffer is {4, 1, {{0, F32}}}; float3 {12, 3, ...}; a struct of a float and an int
 * {8, 1, {{0, F32}}}. A union's bytes compare exactly. */
typedef struct lat__elem_layout {
    uint32_t size;
    uint32_t nfields;
    lat__elem_field *fields; /* malloc'd, nfields of them */
    uint8_t integer;         /* one integer of `size` bytes: 1 signed, 2 unsigned; else 0 */
} lat__elem_layout;

typedef struct lat__param {
    char *name;             /* the parameter's name, "" if unnamed */
    char *type;             /* its type as written, normalised spacing: "const DATA_TYPE *" */
    lat__param_class cls;
    size_t size;            /* bytes, 0 when unknown */
    lat__elem_layout pointee; /* pointers: what one element pointed to is (size 0: unknown) */
} lat__param;

typedef struct lat__kernel_sig {
    char *name;
    int line;               /* 1-based line of the name in the source */
    int defined;            /* the source has its body, not only a declaration */
    int nparams;
    lat__param *params;
    /* It can reach the grid-wide barrier __lat_grid_sync(), through any chain of calls:
     * it needs a cooperative launch. */
    int grid_sync;
} lat__kernel_sig;

/* A __global__ function template (no kernel until an instance is named). */
typedef struct lat__kernel_template_sig {
    char *name; /* as a name expression starts: "ops::reduce" */
    char *decl; /* its declaration as written, up to its body */
    int line;
} lat__kernel_template_sig;

typedef struct lat__kernel_sigs {
    lat__kernel_sig *items;
    int count;
    lat__kernel_template_sig *templates;
    int ntemplates;
} lat__kernel_sigs;

/* Frees what a scan allocated; leaves *sigs zeroed. */
void lat__kernel_sigs_free(lat__kernel_sigs *sigs);

/* The signature of `name`, or NULL. */
const lat__kernel_sig *lat__kernel_sigs_find(const lat__kernel_sigs *sigs, const char *name);

#endif
