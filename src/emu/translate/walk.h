/*
 * The translator's insides, shared by its files: translate.c walks the program
 * (directives, #includes, edits, messages), rules.c applies the token rules (what is
 * rewritten, what is rejected), kernel.c rewrites the declarations of __global__ and
 * __device__ functions and writes each kernel's thread loop and entry.
 */
#ifndef LAT_EMU_WALK_H
#define LAT_EMU_WALK_H

#include "translate.h"

#include "cu_lex.h"
#include "macros.h"
#include "map.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One source file of the program, lexed once and walked in both passes. */
typedef struct file {
    char *path;    /* as found, NULL for the root */
    char *display; /* the name in #line markers and messages */
    char *dir;     /* where its quoted #includes are looked for first */
    char *real;    /* realpath, for #pragma once (NULL: unknown) */
    char *owned;   /* its text, when read from disk */
    const char *src;
    lat__toks toks;
} file;

/* A __global__ or __device__ function defined in the program (program.c). */
typedef struct fninfo {
    const char *name; /* in the source text */
    size_t len;
    bool kernel;
    lat__map idents; /* the identifiers of its body (first pass) */
    bool sync;       /* can reach a barrier or a warp operation (itself or by calls) */
    bool seen2;      /* its definition was met in the second pass */
    int mode;        /* kernels: LAT_EMU_MODE_* */
} fninfo;

/* A macro's body, as the first pass saw it: what it can reach. */
typedef struct macinfo {
    const char *name;
    size_t len;
    lat__map idents;
    bool sync;
} macinfo;

/* A __shared__ variable (shared.c). */
typedef struct shvar {
    char *type_def; /* "typedef ... __lat_shtN ...;" */
    const char *name;
    size_t len;
    bool ext; /* extern: the dynamic shared memory */
    int fn;   /* the function declaring it, -1 at file scope */
} shvar;

/* A name a __shared__ variable's uses are rewritten to, while it is in scope. */
typedef struct shname {
    const char *name;
    size_t len;
    int depth; /* brace depth of its declaration (0: file scope) */
    int index; /* into tr.shvars */
} shname;

/* A __device__ or __constant__ variable at file scope. */
typedef struct gvar {
    const char *name;
    size_t len;
} gvar;

typedef struct tr {
    const lat__translate_in *in;
    int pass; /* 1: learn the __device__ functions; 2: write */
    file **files;
    size_t nfiles, files_cap;
    lat__macros macros;
    lat__map devfns;    /* names of __device__ functions */
    lat__map defined;   /* pass 2: functions defined so far (overloads are rejected) */
    lat__map once_done; /* realpaths of #pragma once files already walked */
    char *out;
    size_t out_len;
    char *msg;
    size_t msg_len;
    int nerrors;
    lat_status status;
    char **kernels;
    int nkernels, kernels_cap;
    int depth;
    bool uses_vectors;
    unsigned prelude_parts;
    bool oom;
    /* What the first pass learns of the program (program.c). */
    fninfo *fns;
    int nfns, fns_cap;
    lat__map fn_index; /* name -> index in fns */
    macinfo *macs;
    int nmacs, macs_cap;
    lat__map mac_index;
    int cur_fn;  /* the function whose body is being walked, or -1 */
    int cur_mac; /* the macro whose body is being read (first pass), or -1 */
    shvar *shvars;
    int nshvars, shvars_cap;
    int sh_next; /* second pass: the next __shared__ variable's index */
    shname *shnames;
    int nshnames, shnames_cap;
    gvar *gvars;
    int ngvars, gvars_cap;
} tr;

/* A pending edit at a token of the file being walked. */
typedef enum edit_kind { EDIT_BEFORE, EDIT_REPLACE, EDIT_AFTER } edit_kind;
typedef struct edit {
    size_t tok;
    edit_kind kind;
    char *text; /* owned */
} edit;

typedef enum brace_kind { BR_EXTERN_C, BR_RECORD, BR_OTHER } brace_kind;
typedef struct brace {
    brace_kind kind;
    int paren; /* parenthesis depth at the brace */
} brace;

typedef struct cond {
    lat__cond state;
    bool dead;  /* the enclosing region is dead: every branch is */
    bool taken; /* a branch was certainly taken */
    bool maybe; /* a branch may have been taken */
} cond;

/* Walking one file. */
typedef struct walk {
    tr *t;
    file *f;
    const lat__toks *toks;
    size_t copied; /* source bytes up to here are written */
    brace *braces;
    int nbraces, braces_cap;
    int nested;  /* braces on the stack that are not extern "C" */
    int paren;   /* parenthesis depth, outside directives */
    cond *conds;
    int nconds, conds_cap;
    size_t decl_start;   /* first token of the current declaration */
    size_t record_brace; /* the '{' that opens a struct body, once seen */
    edit *edits;
    size_t nedits, edits_cap;
    size_t planned;   /* decl_start of the declaration last planned */
    bool has_shared;  /* the file names __shared__ */
    struct lat__region *region; /* the kernel being rearranged into region loops */
    size_t plan_name; /* the planned function's name token (SIZE_MAX: none) */
} walk;


static inline const lat__tok *tok(const walk *w, size_t i)
{
    return &w->toks->items[i < w->toks->count ? i : w->toks->count];
}

static inline bool is(const walk *w, size_t i, const char *s)
{
    return i < w->toks->count && lat__tok_is(w->toks, tok(w, i), s);
}

static inline const char *text_of(const walk *w, size_t i)
{
    return w->f->src + tok(w, i)->off;
}

/* The next token index after i that is not part of a directive, and the previous one
 * (SIZE_MAX: none). */
static inline size_t next_code(const walk *w, size_t i)
{
    i++;
    while (i < w->toks->count && (tok(w, i)->flags & LAT__TOK_PP))
        i++;
    return i;
}

static inline size_t prev_code(const walk *w, size_t i)
{
    while (i > 0) {
        i--;
        if (!(tok(w, i)->flags & LAT__TOK_PP))
            return i;
    }
    return SIZE_MAX;
}

/* ---- translate.c ---------------------------------------------------------------------- */

/* Output, in the second pass only: text; the source up to byte off; source bytes
 * [from, to) replaced with text. The source is never written backwards. */
void lat__tr_out_str(tr *t, const char *s);
void lat__tr_emit_upto(walk *w, size_t off);
void lat__tr_replace(walk *w, size_t from, size_t to, const char *text);
/* Appends `#line LINE "NAME"` (the name escaped) to a buffer; *oom on failure. */
void lat__tr_line_marker(char **buf, size_t *len, int line, const char *name, bool *oom);
/* Rejects the construct at token i, when its region may be live (second pass):
 * "file:LINE:COL: error: WHAT is not supported by the lattice emulator yet (WHY)". */
void lat__tr_reject(walk *w, size_t i, const char *what, const char *why);
/* Queues an edit at token i of the file being walked (second pass). */
int lat__tr_push_edit(walk *w, size_t at, edit_kind kind, const char *text);
/* Whether token i is an attribute-like word (__launch_bounds__, __attribute__...). */
bool lat__tr_is_attribute_word(const walk *w, size_t i);
/* The CUDA function qualifiers (LAT__QUAL_*) token i stands for: itself, or an
 * object-like macro whose body holds them. */
unsigned lat__tr_quals_of(const walk *w, size_t i);

/* ---- rules.c --------------------------------------------------------------------------- */

extern const char lat__tr_why_cxx[];
/* Applies the token rules to token i (code, or a #define's body when in_pp); returns the
 * last token consumed (i, or the end of `extern "C" {`). */
size_t lat__tr_rewrite_token(walk *w, size_t i, bool in_pp);
/* Follows parentheses, braces and declaration boundaries at token i (code only). */
void lat__tr_track_structure(walk *w, size_t i);
void lat__tr_push_brace(walk *w, brace_kind kind);

/* ---- program.c --------------------------------------------------------------------------- */

/* Whether a name is a barrier or a warp operation (block: a block barrier). */
bool lat__tr_is_sync_name(const char *s, size_t n, bool *block);
/* First pass: a __global__ or __device__ function's definition begins; returns its index. */
int lat__tr_add_fn(tr *t, const char *name, size_t len, bool kernel);
/* First pass: a #define begins (its body's identifiers follow); returns its index. */
int lat__tr_add_macro(tr *t, const char *name, size_t len);
/* First pass: an identifier of the current function's or macro's body. */
void lat__tr_note_ident(tr *t, const char *s, size_t n);
/* Between the passes: which functions can reach a barrier or warp operation. */
void lat__tr_close_program(tr *t);
/* The function named so, or NULL. */
fninfo *lat__tr_find_fn(const tr *t, const char *name, size_t len);
/* After the second pass: the tables the emulator reads (abi.h). */
void lat__tr_emit_tables(tr *t);
void lat__tr_free_program(tr *t);

/* ---- shared.c ---------------------------------------------------------------------------- */

/* One declarator of a declaration: [b, e) with its name, the first '[' after the name
 * and its '=' (SIZE_MAX: none). */
typedef struct declarator {
    size_t b, e, name, bracket, eq;
} declarator;
/* Splits the declaration [d, end) into its specifiers (up to decls[0].b) and up to `max`
 * declarators; returns their number (0 when it cannot read it). */
int lat__tr_split_declarators(const walk *w, size_t d, size_t end, declarator *decls, int max);
/* At the first token i of a statement or file-scope declaration: when it declares a
 * __shared__ variable, rewrites it and returns the index just past its ';' (0 otherwise). */
size_t lat__tr_shared_statement(walk *w, size_t i);
/* What an identifier is rewritten to (a __shared__ variable in scope), or NULL. */
const char *lat__tr_shared_use(walk *w, size_t i, char *buf, size_t size);
/* `sizeof a` or `sizeof(a)` at token i, for a function's __shared__ array a: its index
 * (*last: the last token of the operand), or -1. */
int lat__tr_shared_sizeof(walk *w, size_t i, size_t *last);
/* A closing brace ended scopes: forget the names declared in them. */
void lat__tr_shared_scope_end(walk *w);
/* Second pass, before a function's definition: the typedefs of its __shared__ variables. */
void lat__tr_shared_typedefs(walk *w, size_t at, int fn);
/* A file-scope __device__ or __constant__ variable declaration [d, ';'): its names. */
void lat__tr_note_globals(walk *w, size_t d);

/* ---- region.c ---------------------------------------------------------------------------- */

/* The parameters of a declaration, split at top-level commas: ranges [b, e). */
typedef struct params {
    size_t b[256], e[256];
    int n;
    bool too_many;
} params;

/* Second pass, at the definition of a kernel that reaches barriers or warp operations
 * (body braces open and close): plans its region loops, or returns false when the kernel
 * must run on fibers (docs/dialect.md says when). */
bool lat__tr_region_plan(walk *w, size_t open, size_t close, const params *p);
/* While walking a planned kernel's body: before token i is written. At the closing
 * brace, the body written so far is rearranged into region loops. */
void lat__tr_region_token(walk *w, size_t i);
void lat__tr_region_free(walk *w);
/* Whether the body (braces open and close) assigns parameter `name`, increments it or
 * takes its address: only then does each thread need a copy of its own. */
bool lat__tr_param_modified(walk *w, size_t open, size_t close, size_t name);

/* ---- kernel.c --------------------------------------------------------------------------- */

/* Reads the declaration starting at token d (at file scope): a function gets its hidden
 * parameter when it is __global__ or __device__, a kernel its thread loop and entry; a
 * __device__ variable is rejected; any function's parameters are checked for C++. */
void lat__tr_plan_declaration(walk *w, size_t d);

#endif
