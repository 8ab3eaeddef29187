/*
 * The preprocessor's insides, shared by its files:
 *   pp.c         the driver: the input stack (files, macro expansions), directives'
 *                dispatch and skipped groups, the output;
 *   pp_define.c  #define and #undef;
 *   pp_builtin.c __FILE__ and the other built-in macros, `defined`, __has_include, _Pragma;
 *   pp_expand.c  macro expansion (Prosser's algorithm), # and ##, _Pragma;
 *   pp_hideset.c hide sets;
 *   pp_expr.c    #if expressions;
 *   pp_include.c #include: resolving, reading, #pragma once, include guards;
 *   pp_directive.c the other directives: conditionals, #line, #error, #pragma.
 */
#ifndef LAT_FRONT_PP_INT_H
#define LAT_FRONT_PP_INT_H

#include "lex.h"
#include "pp.h"

/* Limits that keep a hostile or broken program from taking all memory or stack. */
enum {
    PP_MAX_INCLUDE_DEPTH = 64,
    PP_MAX_ARG_DEPTH = 100,          /* macro calls nested in macro arguments (~1 KB of stack each) */
    PP_MAX_EXPR_DEPTH = 128,         /* parentheses and unary operators in #if (~0.6 KB each) */
    PP_MAX_CONTEXTS = 100000,        /* expansions in progress at once */
    PP_MAX_HIDESET = 4096,           /* macros a token came out of, one inside the other */
    PP_MAX_PUSHED = 4096,            /* #pragma push_macro's not popped */
    PP_MAX_OUTPUT = 2 << 20,         /* tokens of the preprocessed program (~8 MB of C) */
    PP_MAX_SCRATCH = 1 << 18,        /* tokens of one call's arguments or replacement (or an #if) */
    PP_MAX_WORK = 8 << 20,           /* tokens and hide-set cells made along the way (~320 MB) */
    /* bytes of spelling made by # and ## (a few tokens can double in length at each level
     * of a nested macro call: 200 bytes of source once took 3.7 GB) */
    PP_MAX_TEXT = 64 << 20,
};

/* Token kinds the preprocessor uses inside itself, never in its output. */
enum {
    PP_TK_PLACEMARKER = 200, /* C11 6.10.3.3: an empty argument next to ## */
    PP_TK_SEP,               /* between collected macro arguments */
};

/* A hide set (Prosser): the macros a token must not be expanded by again. Interned, so
 * that equal lists are one pointer and unions can be remembered. */
struct lat__hideset {
    lat__atom *atom;
    const struct lat__hideset *next;
    uint32_t size; /* members */
};
typedef struct lat__hideset pp_hs;

/* Macros the preprocessor computes itself. */
typedef enum pp_builtin {
    PP_B_NONE,
    PP_B_FILE,
    PP_B_LINE,
    PP_B_COUNTER,
    PP_B_DATE,
    PP_B_TIME,
    PP_B_BASE_FILE,
    PP_B_INCLUDE_LEVEL,
    PP_B_HAS_INCLUDE,
    PP_B_HAS_INCLUDE_NEXT,
    PP_B_HAS_ZERO, /* __has_builtin, __has_attribute...: always 0 */
} pp_builtin;

/* What a body token refers to (lat__macro.ref). */
enum { PP_REF_NONE = -1, PP_REF_VAOPT = -2 };

typedef struct lat__macro {
    lat__atom *name;
    lat__loc loc;          /* of the name in its #define */
    const lat__tok *body;  /* hide NULL, BOL cleared, the first one's SPACE cleared */
    const int16_t *ref;    /* per body token: a parameter's index, PP_REF_*; NULL if none */
    uint32_t nbody;
    uint16_t nparams;      /* the variadic one included, last */
    bool fn, variadic;
    uint8_t builtin;       /* pp_builtin */
    lat__atom **params;
} lat__macro;

typedef enum pp_ctx_kind {
    PP_CTX_FILE,    /* a source file's tokens: directives are obeyed */
    PP_CTX_MACRO,   /* a macro's replacement being rescanned */
    PP_CTX_BARRIER, /* tokens expanded on their own (an argument, a directive's line): their
                       end is the end of input for whatever reads them */
} pp_ctx_kind;

typedef struct pp_file_info pp_file_info;

/* One input on the stack. Nodes are never freed while the preprocessor runs (popped ones
 * are reused), so pointers to them stay valid while others are pushed. */
typedef struct pp_ctx {
    struct pp_ctx *below;
    uint8_t kind;
    const lat__tok *toks;
    size_t pos, n;
    /* PP_CTX_FILE */
    uint32_t phys;       /* file table index of the file read */
    uint32_t shown;      /* the index its tokens carry (another after #line "name") */
    int64_t line_delta;  /* #line: added to physical line numbers */
    size_t cond_base;    /* p->conds.n when the file was entered */
    int found_at;        /* include search position it was found at (#include_next) */
    bool is_include;     /* counts for the include depth */
    pp_file_info *info;  /* the include cache's entry; NULL for the root and built-ins */
    int8_t pool;         /* PP_CTX_MACRO: toks' pool class (pp_pool_alloc), -1: none */
    uint8_t guard;       /* pp_guard_state */
    lat__atom *guard_name;
    size_t guard_cond;   /* index in p->conds of the guard's #ifndef */
} pp_ctx;

/* Include-guard detection: #ifndef X first thing in the file, its #endif last. */
typedef enum pp_guard_state { PP_GUARD_START, PP_GUARD_OPEN, PP_GUARD_CLOSED, PP_GUARD_NONE } pp_guard_state;

typedef struct pp_cond {
    lat__loc loc;      /* of the #if's directive name */
    const char *what;  /* "#if", "#ifdef"... for "unterminated #ifdef" */
    bool taken;        /* a group of this conditional was live */
    bool in_else;
} pp_cond;

/* Names the preprocessor compares identifiers with: X(id, spelling). */
#define PP_WORDS(X)                                                                        \
    X(define, "define") X(undef, "undef") X(include, "include")                            \
    X(include_next, "include_next") X(if, "if") X(ifdef, "ifdef") X(ifndef, "ifndef")      \
    X(elif, "elif") X(elifdef, "elifdef") X(elifndef, "elifndef") X(else, "else")          \
    X(endif, "endif") X(line, "line") X(error, "error") X(warning, "warning")              \
    X(pragma, "pragma") X(ident, "ident") X(sccs, "sccs") X(defined, "defined")            \
    X(once, "once") X(push_macro, "push_macro") X(pop_macro, "pop_macro") X(GCC, "GCC")    \
    X(VA_ARGS, "__VA_ARGS__") X(VA_OPT, "__VA_OPT__") X(_Pragma, "_Pragma")                \
    X(true, "true") X(false, "false") X(poison, "poison")                                  \
    X(system_header, "system_header") X(pack, "pack")

typedef enum pp_word {
#define PP_W_ENUM(id, spelling) PP_W_##id,
    PP_WORDS(PP_W_ENUM)
#undef PP_W_ENUM
    PP_W_COUNT
} pp_word;

typedef struct pp_saved_macro {
    lat__atom *name;
    lat__macro *macro;
} pp_saved_macro;

typedef struct pp {
    lat__unit *u;
    const lat__pp_in *in;
    lat__atom *w[PP_W_COUNT];
    pp_ctx *top, *free_ctx;
    size_t nctx;
    LAT_VEC(pp_cond) conds;
    LAT_VEC(lat__tok) scratch; /* a stack: whoever appends truncates back before returning */
    LAT_VEC(lat__tok) line;    /* the directive being obeyed */
    LAT_VEC(pp_saved_macro) pushed; /* #pragma push_macro */
    /* Interned hide sets and a cache of unions. */
    const pp_hs **hs_slots;
    size_t hs_cap, hs_n;
    struct { const pp_hs *a, *b, *r; } hs_memo[256];
    void *pool[48];   /* free blocks of 64 << k bytes (pp_pool_alloc) */
    /* Include cache (pp_include.c). */
    pp_file_info **files;
    size_t files_cap, files_n;
    size_t work;      /* tokens and hide-set cells made, against PP_MAX_WORK */
    size_t text;      /* bytes spelled by # and ##, against PP_MAX_TEXT */
    bool stop;        /* a limit was hit: every reader sees the end of input */
    int collecting;   /* > 0 while macro arguments are read: a file's end ends them */
    int arg_depth;    /* argument pre-expansions in progress */
    int include_depth;
    bool in_if;       /* expanding an #if: `defined` and __has_include are operators */
    unsigned counter; /* __COUNTER__ */
    uint32_t builtin_file; /* "<built-in>" in the file table */
} pp;

/* pp.c */
pp_ctx *pp_push(pp *p, pp_ctx_kind kind, const lat__tok *toks, size_t n);
/* Lexes file `file` of the unit and pushes it, to be read next. */
pp_ctx *pp_push_file(pp *p, uint32_t file);
/* Gives a token of file context c the place the user sees (#line moves it). */
void pp_place(const pp_ctx *c, lat__tok *t);
/* Pops contexts down to and including c. */
void pp_pop_to(pp *p, pp_ctx *c);
/* The next token without macro expansion; false (and an EOF token) at the end of input:
 * of everything, of a barrier, or of a file while macro arguments are collected. */
bool pp_next_raw(pp *p, lat__tok *t);
/* Whether the next raw token is `(` (a function-like macro's name is followed by one);
 * obeys directives on the way as gcc does, except #include and #pragma, which end it. */
bool pp_peek_lparen(pp *p);
/* Counts n tokens (or cells) made; false, with an error at loc, past PP_MAX_WORK. */
bool pp_work(pp *p, size_t n, lat__loc loc);
/* Counts n bytes of spelling made by # or ##; false, with an error at loc, past
 * PP_MAX_TEXT (nothing to be allocated then). */
bool pp_text(pp *p, size_t n, lat__loc loc);
/* Stops the preprocessor after an error that makes going on pointless. */
void pp_stop(pp *p);
/* Pushes a text of directives (the predefined macros, -D options, assert.h) as a file
 * named `display` to be read next. */
void pp_push_text(pp *p, const char *display, const char *text);
/* Makes room for one more token on the scratch stack; false (an error reported, the
 * preprocessor stopped) past PP_MAX_SCRATCH. */
bool pp_scratch_grow(pp *p);
/* Appends a token to the scratch stack. */
static inline void pp_scratch_push(pp *p, const lat__tok *t)
{
    if (p->scratch.n == p->scratch.cap && !pp_scratch_grow(p))
        return;
    p->scratch.items[p->scratch.n++] = *t;
}
/* A copy of scratch[mark...] in a pooled block (its class in *cls; NULL when empty),
 * scratch then truncated to mark. */
lat__tok *pp_scratch_take(pp *p, size_t mark, size_t *n, int *cls);
/* Blocks that are recycled: a replacement's tokens die when it has been read, a call's
 * arguments when it has been replaced. Reusing them keeps memory, and the page faults
 * fresh memory costs, to what is live. *cls says which free list the block goes back to. */
void *pp_pool_alloc(pp *p, size_t bytes, int *cls);
void pp_pool_free(pp *p, void *block, int cls);
/* A copy in the arena of a malloc'd string, which is freed (also when the copy runs
 * out of memory); NULL stays NULL. */
char *pp_keep(pp *p, char *s);
/* The tokens' spellings joined, with one space where they were apart. */
char *pp_spell(pp *p, const lat__tok *t, size_t n, size_t *len);

/* pp_directive.c */
/* Obeys the directive whose `#` is at c->pos (in a live group); returns true with *out
 * set when it makes a token (#pragma). */
bool pp_directive(pp *p, pp_ctx *c, lat__tok *out);
/* Skips a false group: c->pos ends at the #elif/#else/#endif that ends it, or at EOF. */
void pp_skip_group(pp *p, pp_ctx *c);
/* Whether the directive at c->pos is one pp_peek_lparen may obey on the way. */
bool pp_directive_is_quiet(pp *p, const pp_ctx *c);
/* #pragma's and _Pragma's body: obeys once, push_macro, pop_macro, GCC warning/error;
 * refuses a pack that would pack;
 * returns true with *out set to an LAT_TK_PRAGMA token for the others. */
bool pp_pragma(pp *p, pp_ctx *file, const lat__tok *t, size_t n, lat__loc loc, lat__tok *out);
/* A file ended: unterminated conditionals, the include guard, popping it. */
void pp_end_file(pp *p, pp_ctx *c);

/* pp_builtin.c */
/* Binds the built-in macros' names (pp_builtin kinds) to their atoms. */
void pp_define_builtins(pp *p);
/* Replaces *t, a built-in macro's name, by its value (an error in place of __has_
 * operators outside #if leaves the name). */
void pp_builtin_value(pp *p, const lat__macro *m, lat__tok *t);
/* `defined X` or `defined(X)` in an #if, `defined` read into *t: *t becomes 1 or 0. */
void pp_defined(pp *p, lat__tok *t);
/* _Pragma("...") (C11 6.10.9), `_Pragma` read into *t: true with *t the pragma's token,
 * false when it makes none (an error, or a pragma obeyed such as once). */
bool pp_pragma_operator(pp *p, lat__tok *t);

/* pp_define.c */
void pp_define(pp *p, const lat__tok *name_tok, const lat__tok *t, size_t n);
void pp_undef(pp *p, const lat__tok *t, size_t n, lat__loc at);

/* pp_expand.c */
/* The next token of the program, macros expanded; false at the end of input. */
bool pp_expand_next(pp *p, lat__tok *t);
/* Expands tokens on their own (a directive's line), appending the result to scratch. */
void pp_expand_line(pp *p, const lat__tok *t, size_t n, bool in_if);

/* pp_hideset.c */
const pp_hs *pp_hs_add(pp *p, const pp_hs *h, lat__atom *a);
const pp_hs *pp_hs_union(pp *p, const pp_hs *a, const pp_hs *b);
const pp_hs *pp_hs_intersect(pp *p, const pp_hs *a, const pp_hs *b);
static inline uint32_t pp_hs_size(const pp_hs *h)
{
    return h ? h->size : 0;
}
static inline bool pp_hs_has(const pp_hs *h, const lat__atom *a)
{
    for (; h; h = h->next)
        if (h->atom == a)
            return true;
    return false;
}

/* pp_expr.c */
/* Evaluates an #if's expanded line; an error (reported) counts as false. */
bool pp_eval(pp *p, const lat__tok *t, size_t n, lat__loc at);

/* pp_include.c */
void pp_include(pp *p, pp_ctx *c, const lat__tok *t, size_t n, const lat__tok *name, bool next);
/* __has_include(...) in an #if: t points after the operator's name; returns 1 or 0. */
int pp_has_include(pp *p, const char *name, bool quoted, bool next, lat__loc at);
/* The innermost file being read. */
pp_ctx *pp_file_ctx(pp *p);
/* The include cache entry of a file: its guard, whether it had #pragma once. */
void pp_file_set_once(pp *p, pp_ctx *c);
void pp_file_set_guard(pp_ctx *c, lat__atom *guard);

#endif
