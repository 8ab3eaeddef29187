/*
 * The emulator's passes over the front end's tree (src/front/ast.h), and the C they
 * emit for TinyCC. The C is the user's program with:
 *   - every __global__ and __device__ function taking a hidden first parameter
 *     `lat_emu_thread *__lat_t`, and every call to one passing it on (the prelude's
 *     built-ins read threadIdx and friends through it);
 *   - each kernel's threads run by the kernel itself: a loop over them (plain), loops cut
 *     at the barriers (region loops, region.c), or one thread per call on a fiber;
 *   - __shared__ variables read through the block's shared memory;
 *   - after the program, each kernel's entry, parameter-size query and shared-memory
 *     table, and each module variable's address and size (abi.h);
 *   - every construct on its user's line (#line markers), so that what TinyCC and the
 *     runtime report names the user's file and line.
 */
#ifndef LAT_EMU_PASSES_LOWER_H
#define LAT_EMU_PASSES_LOWER_H

#include "front/ast.h"

#include "lattice.h"

#include <stdbool.h>

typedef struct lat__lower_in {
    bool checked; /* instrumented for the checks (check/ck.h) */
    bool fibers;  /* every kernel with barriers (or, checked, every kernel) on fibers:
                     preempting checks, LATTICE_EMU_FIBERS, the profile */
    bool profile; /* checked and profiled: branches' conditions are sites (profile.h) */
    bool no_fmad; /* --fmad=false: no fused multiply-add contraction */
    bool debug;   /* -G: built for a debugger (docs/debugging.md): every kernel on fibers,
                     unchecked __shared__ arrays static, by their names (the program's
                     threadIdx and its kin are variables: compile.c) */
    bool opt_variants; /* kernels with implicit loops get a variant for the optimising tier
                          (region.h), beside TinyCC's, under #ifndef __TINYC__ */
} lat__lower_in;

typedef struct lat__lower_out {
    char *text;         /* the C source (without the prelude), malloc'd */
    char **kernels;     /* the __global__ functions defined, by name, malloc'd */
    char **kernel_exprs; /* ... each one's name expression (a template's instance), or NULL */
    int nkernels;
    char **globals;     /* the __device__ and __constant__ variables at file scope */
    int nglobals;
    unsigned prelude_parts; /* the optional parts of the prelude it needs (prelude.h) */
    int nvariants;      /* kernels the optimised code runs with implicit loops (region.h) */
    struct lat__ck_module *check; /* checked: the sites of its accesses (check/ck.h) */
} lat__lower_out;

/* Lowers a unit that parsed without errors. Errors: LAT_ERROR_UNSUPPORTED (something
 * the passes cannot do, reported in the unit's messages), LAT_ERROR_OUT_OF_MEMORY. */
lat_status lat__emu_lower(lat__unit *u, const lat__lower_in *in, lat__lower_out *out);
void lat__lower_out_free(lat__lower_out *out);

/* Whether a module made of unit u (parsed) has state of its own: a variable of static
 * storage duration that can change (__device__, __constant__ and __managed__ variables,
 * mutable file-scope variables, static locals), at file scope, in a namespace, a template's
 * instance or a function. On a GPU each module has its own copy of each, so a module that
 * has one is never shared by two lat_modules. Decided from the tree, never from text. */
bool lat__emu_module_has_state(const lat__unit *u);

#endif
