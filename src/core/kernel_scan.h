/*
 * The kernel signature scanner: finds the __global__ functions of a CUDA C source and
 * classifies their parameters, without compiling. Both backends use it, so argument
 * validation (lat_launch_args) gives the same answer on each, and the CUDA backend uses
 * the names to look kernels up when the source is not extern "C".
 */
#ifndef LAT_KERNEL_SCAN_H
#define LAT_KERNEL_SCAN_H

#include <stddef.h>

typedef enum lat__param_class {
    LAT__PARAM_UNKNOWN = 0, /* a type the scanner cannot see through (macro, struct...) */
    LAT__PARAM_POINTER,     /* any T *; size 8 */
    LAT__PARAM_SINT,        /* signed char/short/int/long/long long, int8_t..int64_t */
    LAT__PARAM_UINT,        /* the unsigned ones, size_t, bool */
    LAT__PARAM_FLOAT,       /* float (4), double (8) */
    LAT__PARAM_RECORD       /* a struct, union or vector type (float4, dim3...) by value */
} lat__param_class;

typedef struct lat__param {
    char *name;             /* the parameter's name, "" if unnamed */
    char *type;             /* its type as written, normalised spacing: "const float *" */
    lat__param_class cls;
    size_t size;            /* bytes, 0 when the scanner cannot tell */
} lat__param;

typedef struct lat__kernel_sig {
    char *name;
    int line;               /* 1-based line of the name in the source */
    int nparams;
    lat__param *params;
} lat__kernel_sig;

typedef struct lat__kernel_sigs {
    lat__kernel_sig *items;
    int count;
} lat__kernel_sigs;

/* Scans `source` (the user's text, before preprocessing; #include'd files are not read)
 * for __global__ function definitions and declarations, and fills *out (zeroed first).
 * Simple `typedef`s and object-like `#define`s that name a type are followed. A kernel
 * declared twice is listed once. Returns 0, or -1 when out of memory. Never fails on bad
 * source: what it cannot parse it skips (the compiler reports it). */
int lat__scan_kernels(const char *source, lat__kernel_sigs *out);

/* Frees what lat__scan_kernels allocated; leaves *sigs zeroed. */
void lat__kernel_sigs_free(lat__kernel_sigs *sigs);

/* The signature of `name`, or NULL. */
const lat__kernel_sig *lat__kernel_sigs_find(const lat__kernel_sigs *sigs, const char *name);

#endif
