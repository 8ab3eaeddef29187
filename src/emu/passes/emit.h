/*
 * The printer: the tree written back as C, each construct on its user's line (#line
 * markers where the lines jump), names as the passes decided (emit.c). The passes'
 * shared state per module and per symbol lives here too.
 */
#ifndef LAT_EMU_PASSES_EMIT_H
#define LAT_EMU_PASSES_EMIT_H

#include "lower.h"

#include "front/type.h"

/* What the passes know of a symbol (sym->aux). */
typedef struct lat__symx {
    const char *name;  /* how the C spells it */
    int shared;        /* a __shared__ variable: its index in the module, else -1 */
    bool hidden;       /* a function taking the thread context */
    bool copied;       /* a kernel parameter each thread gets a copy of (plain kernels) */
    int param;         /* a kernel parameter: its index, else -1 */
    bool emitted;      /* records: definition written */
    int slot;
    bool ck_tracked;   /* the checks follow it from its declaration (initcheck) */
    void *region;      /* region loops' data (region.c): a kernel's plan, a variable's kind */
    const char *param_name; /* a parameter whose name means something else in the body (region
                               loops keep an address-taken one in place): the signature's */
} lat__symx;

/* A kernel's way of running its threads (abi.h's LAT_EMU_MODE_*). */
typedef struct lat__kernelx {
    lat__func *fn;
    int mode;
    const char *why; /* the mode in words, and for fibers what kept the kernel there */
} lat__kernelx;

struct lat__emitter;

/* Hooks by which a pass prints some nodes its own way; each returns whether it did. */
typedef struct lat__emit_hooks {
    bool (*expr)(struct lat__emitter *em, const lat__expr *e, int prec);
    bool (*stmt)(struct lat__emitter *em, const lat__stmt *s);
    void *data;
} lat__emit_hooks;

typedef struct lat__emitter {
    lat__unit *u;
    const lat__lower_in *in;
    char *buf;
    size_t len, cap;
    uint32_t file, line; /* the user's place the output is at */
    bool fresh_line;     /* nothing written on the current output line yet */
    const lat__func *fn; /* the function being written */
    int mode;            /* its LAT_EMU_MODE_* when a kernel, else -1 */
    lat__emit_hooks hooks;
    int tmp;             /* counter for fresh names */
    unsigned prelude_parts;
    const lat__expr *jump_fixed; /* the &&, || or ?: being written as TinyCC's unsigned */
    bool assured_plain;  /* a checked kernel's forward variant: the accesses it counts on
                            are made without the checks (region_fwd.c) */
    bool display;        /* writing an expression as the user reads it (the checks' sites):
                            source names, no markers, no instrumentation */
    bool checked;        /* wrapping the checks' accesses (e->site) */
    bool local_tid;      /* threadIdx is the thread loop's __lat_tid */
    const char *ckp_racefree; /* a flag true where proven accesses need no racecheck
                                 records either (region_gen.c), or NULL */
    bool global_x;       /* the optimising tier's kernel whose block fits in int (lower.c):
                            loops over x step the threads' global x index, __lat_g, and
                            blockIdx, blockDim and gridDim are locals (lat__emit_block_uniforms) */
} lat__emitter;

void lat__emit_init(lat__emitter *em, lat__unit *u, const lat__lower_in *in);
void lat__emit_str(lat__emitter *em, const char *s);
void lat__emit_fmt(lat__emitter *em, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Moves the output to loc's line: newlines, or a #line marker. */
void lat__emit_at(lat__emitter *em, lat__loc loc);
/* Starts a new output line without changing the user line accounted for. */
void lat__emit_newline(lat__emitter *em);
/* A preprocessor line of the output's own (#ifndef __TINYC__...), on a line of its own. */
void lat__emit_directive(lat__emitter *em, const char *line);

/* s as a C string literal, quotes included, every character that could end it or the line
 * (", \\, a newline, any control character) escaped: names of the user's (a module's, a
 * file's) go into the generated C only through this. Arena-allocated. */
const char *lat__emit_c_string(lat__unit *u, const char *s);

/* The pass data of a symbol, created on first use. */
lat__symx *lat__symx_of(lat__unit *u, lat__sym *s);
/* How a symbol is spelled in the C. */
const char *lat__emit_name(lat__unit *u, lat__sym *s);
/* A type with a declarator ("float *x", "int (*p)[4]") as the C spells it; _resolved
 * writes what typedefs stand for (for file scope, where a block's typedefs are not). */
const char *lat__emit_type(lat__unit *u, const lat__type *t, const char *declarator);
/* A call's callee when it names a function or a built-in (a direct call), else NULL (a
 * call through a pointer, which passes the thread context: see lat__emit_type). */
const lat__expr *lat__emit_direct_callee(const lat__expr *call);
const char *lat__emit_type_resolved(lat__unit *u, const lat__type *t, const char *declarator);

/* Precedence levels for lat__emit_expr's prec: the lowest the printed form may have
 * without parentheses. */
enum { LAT_PREC_COMMA = 1, LAT_PREC_ASSIGN = 2, LAT_PREC_COND = 3, LAT_PREC_UNARY = 15,
       LAT_PREC_POSTFIX = 16 };

void lat__emit_expr(lat__emitter *em, const lat__expr *e, int prec);
void lat__emit_stmt(lat__emitter *em, const lat__stmt *s);
/* A declaration group in a block (or at file scope): each declarator as a declaration. */
/* A function's prototype (its context parameter first when it takes one). */
void lat__emit_prototype(lat__emitter *em, lat__sym *s, lat__loc loc);
void lat__emit_decl_group(lat__emitter *em, const lat__decl_group *g, bool file_scope);
/* A struct or union definition (and those it needs first). */
void lat__emit_record(lat__emitter *em, lat__record *r);
/* The parameter list of a function: "(lat_emu_thread *__lat_t, float *a, int n)". */
void lat__emit_params(lat__emitter *em, const lat__func *fn, bool hidden, bool copies);
/* The optimised kernel's block constants, at the top of its body after __lat_bx: the
 * block's first global x index (__lat_gb), and copies of blockIdx, blockDim and gridDim (a
 * store through a pointer the kernel loaded from its context, shared memory's, may alias
 * the context for gcc, which then reloaded them at every thread). Nothing outside global_x. */
void lat__emit_block_uniforms(lat__emitter *em);

#endif
