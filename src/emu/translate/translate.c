/*
 * The CUDA C to C translator (translate.h). It works on tokens and edits the source
 * text in place: text between edits is copied as it is, so every user token keeps its
 * line. The whole program (root file and #included files) is walked twice: the first
 * walk learns the __device__ functions' names, the second rewrites and reports.
 */
#include "translate.h"

#include "cu_lex.h"
#include "emu/prelude.h"
#include "error.h"
#include "headers.h"
#include "macros.h"
#include "map.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_ERRORS = 20, MAX_INCLUDE_DEPTH = 64 };

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
    bool oom;
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
    size_t plan_name; /* the planned function's name token (SIZE_MAX: none) */
} walk;

/* ---- output and messages -------------------------------------------------------------- */

static void out_append(tr *t, const char *s, size_t n)
{
    if (t->pass == 2 && !t->oom && lat__strbuf_append(&t->out, &t->out_len, s, n) != 0)
        t->oom = true;
}

static void out_str(tr *t, const char *s)
{
    out_append(t, s, strlen(s));
}

/* Appends `#line LINE "NAME"` (the name escaped) to a buffer. */
static void out_line_marker_to(char **buf, size_t *len, int line, const char *name, bool *oom)
{
    if (lat__strbuf_printf(buf, len, "#line %d \"", line) != 0)
        *oom = true;
    for (const char *p = name; *p; p++)
        if (lat__strbuf_printf(buf, len, "%s%c", *p == '"' || *p == '\\' ? "\\" : "", *p) != 0)
            *oom = true;
    if (lat__strbuf_append(buf, len, "\"", 1) != 0)
        *oom = true;
}

static void out_line_marker(tr *t, int line, const char *name);

/* Writes the source up to byte off (never backwards). */
static void emit_upto(walk *w, size_t off)
{
    if (off <= w->copied)
        return;
    out_append(w->t, w->f->src + w->copied, off - w->copied);
    w->copied = off;
}

/* Replaces source bytes [from, to) with text. */
static void replace(walk *w, size_t from, size_t to, const char *text)
{
    emit_upto(w, from);
    out_str(w->t, text);
    if (to > w->copied)
        w->copied = to;
}

static const lat__tok *tok(const walk *w, size_t i)
{
    return &w->toks->items[i < w->toks->count ? i : w->toks->count];
}

static bool is(const walk *w, size_t i, const char *s)
{
    return i < w->toks->count && lat__tok_is(w->toks, tok(w, i), s);
}

static const char *text_of(const walk *w, size_t i)
{
    return w->f->src + tok(w, i)->off;
}

static void add_error(tr *t, lat_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void add_error(tr *t, lat_status status, const char *fmt, ...)
{
    if (t->status == LAT_OK)
        t->status = status;
    if (++t->nerrors > MAX_ERRORS)
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (lat__strbuf_printf(&t->msg, &t->msg_len, "%s%s", t->msg_len ? "\n" : "", line) != 0)
        t->oom = true;
}

/* Whether the region being walked may be kept by the preprocessor, and whether surely. */
static bool live(const walk *w)
{
    return w->nconds == 0 || w->conds[w->nconds - 1].state != LAT__COND_FALSE;
}

static bool certain(const walk *w)
{
    for (int i = 0; i < w->nconds; i++)
        if (w->conds[i].state != LAT__COND_TRUE)
            return false;
    return true;
}

/* Rejects the construct at token i: "file:LINE:COL: error: X is not supported...". */
static void reject(walk *w, size_t i, const char *what, const char *why)
{
    if (w->t->pass != 2 || !live(w))
        return;
    const lat__tok *t = tok(w, i);
    add_error(w->t, LAT_ERROR_UNSUPPORTED,
              "%s:%d:%d: error: %s is not supported by the lattice emulator yet (%s)",
              w->f->display, t->line, t->col, what, why);
}

static int push_edit(walk *w, size_t at, edit_kind kind, const char *text)
{
    if (w->t->pass != 2)
        return 0;
    if (w->nedits == w->edits_cap) {
        size_t cap = w->edits_cap ? w->edits_cap * 2 : 16;
        edit *p = realloc(w->edits, cap * sizeof *p);
        if (!p) {
            w->t->oom = true;
            return -1;
        }
        w->edits = p;
        w->edits_cap = cap;
    }
    char *copy = strdup(text);
    if (!copy) {
        w->t->oom = true;
        return -1;
    }
    w->edits[w->nedits++] = (edit){at, kind, copy};
    return 0;
}

/* Applies the pending edits of `kind` at token i. */
static void apply_edits(walk *w, size_t i, edit_kind kind)
{
    for (size_t k = 0; k < w->nedits;) {
        edit *e = &w->edits[k];
        if (e->tok != i || e->kind != kind) {
            k++;
            continue;
        }
        const lat__tok *t = tok(w, i);
        if (kind == EDIT_BEFORE)
            replace(w, t->off, t->off, e->text);
        else if (kind == EDIT_REPLACE)
            replace(w, t->off, t->off + t->len, e->text);
        else
            replace(w, t->off + t->len, t->off + t->len, e->text);
        free(e->text);
        w->edits[k] = w->edits[--w->nedits];
    }
}

/* ---- the constructs outside the dialect --------------------------------------------- */

typedef struct unsupported {
    const char *name;
    const char *why;
} unsupported;

static const char why_shared[] = "shared memory";
static const char why_barrier[] = "block barriers";
static const char why_atomic[] = "atomic operations";
static const char why_warp[] = "warp-level intrinsics";
static const char why_cxx[] = "the emulator compiles C with CUDA's extensions, not C++";

static const unsupported unsupported_idents[] = {
    {"__shared__", why_shared},
    {"__constant__", "__constant__ memory"},
    {"__managed__", "managed memory"},
    {"__syncthreads", why_barrier},
    {"__syncthreads_count", why_barrier},
    {"__syncthreads_and", why_barrier},
    {"__syncthreads_or", why_barrier},
    {"__threadfence", "memory fences"},
    {"__threadfence_block", "memory fences"},
    {"__threadfence_system", "memory fences"},
    {"__syncwarp", why_warp},
    {"__activemask", why_warp},
    {"__shfl", why_warp},
    {"__shfl_up", why_warp},
    {"__shfl_down", why_warp},
    {"__shfl_xor", why_warp},
    {"__shfl_sync", why_warp},
    {"__shfl_up_sync", why_warp},
    {"__shfl_down_sync", why_warp},
    {"__shfl_xor_sync", why_warp},
    {"__ballot", why_warp},
    {"__ballot_sync", why_warp},
    {"__any", why_warp},
    {"__all", why_warp},
    {"__any_sync", why_warp},
    {"__all_sync", why_warp},
    {"__uni_sync", why_warp},
    {"__match_any_sync", why_warp},
    {"__match_all_sync", why_warp},
    {"__reduce_add_sync", why_warp},
    {"__reduce_min_sync", why_warp},
    {"__reduce_max_sync", why_warp},
    {"__reduce_and_sync", why_warp},
    {"__reduce_or_sync", why_warp},
    {"__reduce_xor_sync", why_warp},
    {"tex1D", "textures"},
    {"tex2D", "textures"},
    {"tex3D", "textures"},
    {"tex1Dfetch", "textures"},
    {"surf2Dread", "surfaces"},
    {"surf2Dwrite", "surfaces"},
    {"template", why_cxx},
    {"class", why_cxx},
    {"namespace", why_cxx},
    {"new", why_cxx},
    {"delete", why_cxx},
    {"operator", why_cxx},
    {"try", why_cxx},
    {"catch", why_cxx},
    {"throw", why_cxx},
    {"using", why_cxx},
    {"typename", why_cxx},
    {"virtual", why_cxx},
    {"friend", why_cxx},
    {"this", why_cxx},
    {"public", why_cxx},
    {"private", why_cxx},
    {"protected", why_cxx},
    {"constexpr", why_cxx},
    {"decltype", why_cxx},
    {"static_cast", why_cxx},
    {"dynamic_cast", why_cxx},
    {"reinterpret_cast", why_cxx},
    {"const_cast", why_cxx},
    {"explicit", why_cxx},
    {"mutable", why_cxx},
    {"noexcept", why_cxx},
    {"thread_local", why_cxx},
    {"auto", "C++'s type deduction; C's `auto` storage class is not accepted either"},
};

static const char *const atomics[] = {
    "atomicAdd", "atomicSub", "atomicExch", "atomicMin", "atomicMax", "atomicInc",
    "atomicDec", "atomicCAS", "atomicAnd", "atomicOr",  "atomicXor",
};

/* The reason a name is outside the dialect, or NULL. */
static const char *unsupported_why(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof unsupported_idents / sizeof unsupported_idents[0]; i++) {
        const char *name = unsupported_idents[i].name;
        if (name[0] == s[0] && strlen(name) == n && memcmp(name, s, n) == 0)
            return unsupported_idents[i].why;
    }
    if (s[0] != 'a')
        return NULL;
    for (size_t i = 0; i < sizeof atomics / sizeof atomics[0]; i++) {
        size_t an = strlen(atomics[i]);
        if (n >= an && memcmp(s, atomics[i], an) == 0 &&
            (n == an || (n == an + 6 && memcmp(s + an, "_block", 6) == 0) ||
             (n == an + 7 && memcmp(s + an, "_system", 7) == 0)))
            return why_atomic;
    }
    return NULL;
}

/* ---- names ----------------------------------------------------------------------------- */

static bool is_attribute_word(const walk *w, size_t i)
{
    static const char *const words[] = {"__launch_bounds__", "__attribute__", "__align__",
                                        "__declspec", "alignas", "_Alignas",
                                        "__builtin_align__"};
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
        if (is(w, i, words[k]))
            return true;
    return false;
}

/* The CUDA function qualifiers token i stands for (itself, or an object-like macro). */
static unsigned quals_of(const walk *w, size_t i)
{
    const lat__tok *t = tok(w, i);
    if (t->kind != LAT__TOK_IDENT)
        return 0;
    if (is(w, i, "__global__"))
        return LAT__QUAL_GLOBAL;
    if (is(w, i, "__device__"))
        return LAT__QUAL_DEVICE;
    if (is(w, i, "__host__"))
        return LAT__QUAL_HOST;
    if (t->len >= 2 && text_of(w, i)[0] == '_' && text_of(w, i)[1] == '_')
        return 0; /* reserved names: the prelude's, never a user's qualifier macro */
    const lat__macro *m = lat__macros_find(&w->t->macros, text_of(w, i), t->len);
    return m && m->defined ? m->quals : 0;
}

/* The next token index after i that is not part of a directive. */
static size_t next_code(const walk *w, size_t i)
{
    i++;
    while (i < w->toks->count && (tok(w, i)->flags & LAT__TOK_PP))
        i++;
    return i;
}

static size_t prev_code(const walk *w, size_t i)
{
    while (i > 0) {
        i--;
        if (!(tok(w, i)->flags & LAT__TOK_PP))
            return i;
    }
    return SIZE_MAX;
}

/* ---- kernel entries ------------------------------------------------------------------ */

static void append_tok_text(char **buf, size_t *len, const walk *w, size_t i, bool *oom)
{
    if (*len && lat__strbuf_append(buf, len, " ", 1) != 0)
        *oom = true;
    if (lat__strbuf_append(buf, len, text_of(w, i), tok(w, i)->len) != 0)
        *oom = true;
}

/* Appends parameter [b, e) declared as a local named `name`: arrays become pointers
 * (float a[] is float (*name)), unnamed parameters get the name. */
static void local_decl(char **buf, size_t *len, const walk *w, size_t b, size_t e,
                       const char *name, bool *oom)
{
    lat__param_decl d;
    lat__parse_param_decl(w->toks, b, e, &d);
    size_t after = d.array != SIZE_MAX ? lat__match_close(w->toks, d.array) + 1
                   : d.name != SIZE_MAX ? d.name + 1
                                        : d.slot;
    for (size_t i = b; i < d.slot; i++)
        if (!(tok(w, i)->flags & LAT__TOK_PP))
            append_tok_text(buf, len, w, i, oom);
    if (lat__strbuf_printf(buf, len, d.array != SIZE_MAX ? " (*%s)" : " %s", name) != 0)
        *oom = true;
    for (size_t i = after; i < e; i++)
        if (!(tok(w, i)->flags & LAT__TOK_PP))
            append_tok_text(buf, len, w, i, oom);
}

/* Whether parameter [b, e) is itself const (const int n, float *const p), so that a
 * kernel's threads can share it without a copy each. */
static bool top_level_const(const walk *w, size_t b, size_t e)
{
    lat__param_decl d;
    lat__parse_param_decl(w->toks, b, e, &d);
    if (d.pointer || d.name == SIZE_MAX)
        return false;
    bool is_const = false;
    for (size_t i = b; i < d.name; i++) {
        if (is(w, i, "*"))
            is_const = false; /* what was const is what it points to */
        else if (is(w, i, "const"))
            is_const = true;
    }
    return is_const;
}

/* The parameters of a declaration, split at top-level commas: ranges [b, e). */
typedef struct params {
    size_t b[256], e[256];
    int n;
    bool too_many;
} params;

static void split_params(const walk *w, size_t open, size_t close, params *p)
{
    p->n = 0;
    p->too_many = false;
    size_t first = next_code(w, open);
    if (first >= close || (is(w, first, "void") && next_code(w, first) == close))
        return;
    size_t b = open + 1;
    for (size_t i = open + 1; i <= close; i++) {
        if (i < close && (is(w, i, "(") || is(w, i, "[") || is(w, i, "{"))) {
            size_t c = lat__match_close(w->toks, i);
            i = c < close ? c : close - 1;
            continue;
        }
        if (i == close || is(w, i, ",")) {
            if (p->n == 256) {
                p->too_many = true;
                return;
            }
            p->b[p->n] = b;
            p->e[p->n] = i;
            p->n++;
            b = i + 1;
        }
    }
}

/* The kernel runs the threads of a block itself: its body becomes the body of a loop
 * over them, so that a thread costs no call. Before the body: the loop, and a copy of
 * each parameter the body could modify, so that every thread starts from the launch's
 * values. `return` (also from a macro) ends the thread, not the loop. #line markers keep
 * the body on its lines. */
static char *kernel_head(const walk *w, size_t open, const params *p, const bool *copied)
{
    char *buf = NULL;
    size_t len = 0;
    bool oom = false;
    if (lat__strbuf_printf(&buf, &len, "\n#define return goto __lat_next\n") != 0)
        oom = true;
    out_line_marker_to(&buf, &len, tok(w, open)->line, w->f->display, &oom);
    if (lat__strbuf_printf(
            &buf, &len,
            "\n unsigned __lat_x, __lat_y, __lat_z, __lat_bx = __lat_t->block_dim.x,"
            " __lat_by = __lat_t->block_dim.y, __lat_bz = __lat_t->block_dim.z;"
            " for (__lat_z = 0; __lat_z < __lat_bz; __lat_z++) { __lat_t->thread_idx.z = __lat_z;"
            " for (__lat_y = 0; __lat_y < __lat_by; __lat_y++) { __lat_t->thread_idx.y = __lat_y;"
            " for (__lat_x = 0; __lat_x < __lat_bx; __lat_x++) { __lat_t->thread_idx.x = __lat_x; {") != 0)
        oom = true;
    for (int i = 0; i < p->n; i++) {
        if (!copied[i])
            continue;
        lat__param_decl d;
        lat__parse_param_decl(w->toks, p->b[i], p->e[i], &d);
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)tok(w, d.name)->len, text_of(w, d.name));
        local_decl(&buf, &len, w, p->b[i], p->e[i], name, &oom);
        if (lat__strbuf_printf(&buf, &len, " = __lat_p%d;", i) != 0)
            oom = true;
    }
    if (lat__strbuf_printf(&buf, &len, " {") != 0)
        oom = true;
    if (oom) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* What closes the loop, before the body's closing brace (on its line). */
static char *kernel_tail(const walk *w, size_t close)
{
    char *buf = NULL;
    size_t len = 0;
    bool oom = lat__strbuf_printf(&buf, &len, "} } __lat_next: ; } } }\n#undef return\n") != 0;
    out_line_marker_to(&buf, &len, tok(w, close)->line, w->f->display, &oom);
    if (lat__strbuf_printf(&buf, &len, "\n") != 0)
        oom = true;
    if (oom) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* The text put after a kernel's body: its entry, which unpacks the launch's arguments
 * and calls it, and its parameter-size query (abi.h). */
static char *entry_text(const walk *w, size_t name, const params *p)
{
    char *buf = NULL;
    size_t len = 0;
    bool oom = false;
    int kn = (int)tok(w, name)->len;
    const char *k = text_of(w, name);
    if (lat__strbuf_printf(&buf, &len,
                           " void __lat_entry_%.*s(lat_emu_thread *__lat_t, void **__lat_p) {",
                           kn, k) != 0)
        oom = true;
    for (int i = 0; i < p->n; i++) {
        char local[32];
        snprintf(local, sizeof local, "__lat_a%d", i);
        local_decl(&buf, &len, w, p->b[i], p->e[i], local, &oom);
        if (lat__strbuf_printf(&buf, &len, " = *(typeof(__lat_a%d) *)__lat_p[%d];", i, i) != 0)
            oom = true;
    }
    if (lat__strbuf_printf(&buf, &len, " %.*s(__lat_t", kn, k) != 0)
        oom = true;
    for (int i = 0; i < p->n; i++)
        if (lat__strbuf_printf(&buf, &len, ", __lat_a%d", i) != 0)
            oom = true;
    if (lat__strbuf_printf(&buf, &len,
                           "); } int __lat_sizes_%.*s(unsigned long *__lat_s) { if (__lat_s) {",
                           kn, k) != 0)
        oom = true;
    for (int i = 0; i < p->n; i++) {
        char local[32];
        snprintf(local, sizeof local, "__lat_a%d", i);
        local_decl(&buf, &len, w, p->b[i], p->e[i], local, &oom);
        if (lat__strbuf_printf(&buf, &len, "; __lat_s[%d] = sizeof __lat_a%d;", i, i) != 0)
            oom = true;
    }
    if (lat__strbuf_printf(&buf, &len, " } return %d; }", p->n) != 0)
        oom = true;
    if (oom) {
        free(buf);
        return NULL;
    }
    return buf;
}

static void add_kernel(tr *t, const char *name, size_t n)
{
    if (t->nkernels == t->kernels_cap) {
        int cap = t->kernels_cap ? t->kernels_cap * 2 : 8;
        char **p = realloc(t->kernels, (size_t)cap * sizeof *p);
        if (!p) {
            t->oom = true;
            return;
        }
        t->kernels = p;
        t->kernels_cap = cap;
    }
    char *s = malloc(n + 1);
    if (!s) {
        t->oom = true;
        return;
    }
    memcpy(s, name, n);
    s[n] = '\0';
    t->kernels[t->nkernels++] = s;
}

/* ---- declarations at file scope --------------------------------------------------------- */

/* Reads the declaration starting at token d (at file scope): a function gets its hidden
 * parameter when it is __global__ or __device__, a kernel its entry; a __device__
 * variable is rejected; any function's parameters are checked for C++. */
static void plan_declaration(walk *w, size_t d)
{
    tr *t = w->t;
    unsigned quals = 0;
    size_t name = SIZE_MAX, qual_at = SIZE_MAX;
    size_t i = d;
    for (; i < w->toks->count; i = next_code(w, i)) {
        if (is(w, i, ";") || is(w, i, "{") || is(w, i, "=") || is(w, i, "[") || is(w, i, "}"))
            break;
        unsigned q = quals_of(w, i);
        if (q && qual_at == SIZE_MAX)
            qual_at = i;
        quals |= q;
        if (tok(w, i)->kind == LAT__TOK_IDENT && is(w, next_code(w, i), "(")) {
            if (is_attribute_word(w, i)) {
                i = lat__match_close(w->toks, next_code(w, i));
                continue;
            }
            name = i;
            break;
        }
        if (is(w, i, "("))
            break; /* a parenthesised declarator: a function pointer variable */
    }
    if (name == SIZE_MAX) {
        if ((quals & LAT__QUAL_DEVICE) && !(quals & LAT__QUAL_GLOBAL))
            reject(w, qual_at, "a __device__ variable at file scope",
                   "__device__ variables; a const global or a kernel parameter can stand in");
        return;
    }
    size_t open = next_code(w, name);
    size_t close = lat__match_close(w->toks, open);
    if (close >= w->toks->count)
        return;
    size_t after = next_code(w, close);
    while (is_attribute_word(w, after) && is(w, next_code(w, after), "(")) {
        after = next_code(w, lat__match_close(w->toks, next_code(w, after)));
    }
    bool definition = is(w, after, "{");
    bool hidden = (quals & (LAT__QUAL_GLOBAL | LAT__QUAL_DEVICE)) != 0;
    bool kernel = (quals & LAT__QUAL_GLOBAL) != 0;
    const char *nm = text_of(w, name);
    size_t nlen = tok(w, name)->len;

    if (t->pass == 1) {
        if (hidden && !kernel && lat__map_put(&t->devfns, nm, nlen, 1) != 0)
            t->oom = true;
        w->plan_name = name;
        return;
    }
    w->plan_name = name;

    params p;
    split_params(w, open, close, &p);
    if (p.too_many) {
        reject(w, open, "a function with more than 256 parameters", "a lattice limit");
        return;
    }
    /* C++ in the parameter list: references and default arguments. */
    for (int k = 0; k < p.n; k++) {
        int depth = 0;
        for (size_t j = p.b[k]; j < p.e[k]; j++) {
            if (is(w, j, "(") || is(w, j, "["))
                depth++;
            else if (is(w, j, ")") || is(w, j, "]"))
                depth--;
            else if (depth == 0 && (is(w, j, "&") || is(w, j, "&&")))
                reject(w, j, "a reference parameter", why_cxx);
            else if (depth == 0 && is(w, j, "="))
                reject(w, j, "a default argument", why_cxx);
            else if (kernel && is(w, j, "..."))
                reject(w, j, "a variadic __global__ function", "CUDA has none either");
        }
    }
    if (definition) {
        size_t seen;
        if (lat__map_get(&t->defined, nm, nlen, &seen)) {
            reject(w, name, "function overloading (a second definition of a name)",
                   "C has one function per name; give each variant its own");
            return;
        }
        if (lat__map_put(&t->defined, nm, nlen, 1) != 0)
            t->oom = true;
    }
    if (!hidden)
        return;

    /* The hidden parameter. */
    size_t first = next_code(w, open);
    if (p.n == 0 && first < close)
        push_edit(w, first, EDIT_REPLACE, ""); /* (void) */
    push_edit(w, open, EDIT_AFTER, p.n ? "lat_emu_thread *__lat_t, " : "lat_emu_thread *__lat_t");
    /* C wants every parameter of a definition named; a kernel's parameters are renamed
     * where each thread gets its own copy (kernel_head). */
    bool copied[256];
    for (int k = 0; definition && k < p.n; k++) {
        lat__param_decl pd;
        lat__parse_param_decl(w->toks, p.b[k], p.e[k], &pd);
        char nmbuf[40];
        copied[k] = kernel && pd.name != SIZE_MAX && !top_level_const(w, p.b[k], p.e[k]);
        if (copied[k]) {
            snprintf(nmbuf, sizeof nmbuf, "__lat_p%d", k);
            push_edit(w, pd.name, EDIT_REPLACE, nmbuf);
        } else if (pd.name == SIZE_MAX && !(p.e[k] == p.b[k] + 1 && is(w, p.b[k], "..."))) {
            snprintf(nmbuf, sizeof nmbuf, " __lat_u%d", k);
            push_edit(w, pd.slot, EDIT_BEFORE, nmbuf);
        }
    }
    if (kernel && definition) {
        size_t body_close = lat__match_close(w->toks, after);
        if (body_close >= w->toks->count)
            return;
        char *head = kernel_head(w, after, &p, copied);
        char *tail = kernel_tail(w, body_close);
        char *entry = entry_text(w, name, &p);
        if (head && tail && entry) {
            push_edit(w, after, EDIT_AFTER, head);
            push_edit(w, body_close, EDIT_BEFORE, tail);
            push_edit(w, body_close, EDIT_AFTER, entry);
            add_kernel(t, nm, nlen);
        } else {
            t->oom = true;
        }
        free(head);
        free(tail);
        free(entry);
    }
}

/* ---- tokens ------------------------------------------------------------------------------ */

static void push_brace(walk *w, brace_kind kind)
{
    if (w->nbraces == w->braces_cap) {
        int cap = w->braces_cap ? w->braces_cap * 2 : 16;
        brace *p = realloc(w->braces, (size_t)cap * sizeof *p);
        if (!p) {
            w->t->oom = true;
            return;
        }
        w->braces = p;
        w->braces_cap = cap;
    }
    w->braces[w->nbraces++] = (brace){kind, w->paren};
    if (kind != BR_EXTERN_C)
        w->nested++;
}

static bool is_type_keyword(const walk *w, size_t i)
{
    static const char *const kw[] = {"int", "float", "double", "char", "short", "long",
                                     "unsigned", "signed", "bool"};
    for (size_t k = 0; k < sizeof kw / sizeof kw[0]; k++)
        if (is(w, i, kw[k]))
            return true;
    return false;
}

/* Whether the token before position i ends an operand (so what follows is an operator,
 * or a declaration goes on), rather than leaving an operand to come. After `{` `;` `}`
 * a statement starts: `float(x)` there is taken as a cast, not as a parenthesised
 * declarator (nobody writes `float (x);`). */
static bool operand_before(const walk *w, size_t prev)
{
    if (prev == SIZE_MAX)
        return true;
    const lat__tok *p = tok(w, prev);
    if (p->kind != LAT__TOK_PUNCT)
        return !is(w, prev, "return");
    return is(w, prev, ")") || is(w, prev, "]");
}

/* The rules for one token outside a directive's control words (code, or a #define's
 * body): C++ constructs and unsupported CUDA, device calls, functional casts. Returns
 * the last token it consumed (i, or the end of extern "C" {). in_pp: inside a #define. */
static size_t rewrite_token(walk *w, size_t i, bool in_pp)
{
    tr *t = w->t;
    const lat__tok *tk = tok(w, i);
    const char *s = text_of(w, i);
    size_t prev = in_pp ? (i > 0 ? i - 1 : SIZE_MAX) : prev_code(w, i);
    size_t next = in_pp ? i + 1 : next_code(w, i);
    if (in_pp && next < w->toks->count && (tok(w, next)->flags & LAT__TOK_BOL))
        next = w->toks->count;

    if (tk->kind == LAT__TOK_IDENT) {
        const char *why = unsupported_why(s, tk->len);
        if (why) {
            char what[96];
            snprintf(what, sizeof what, "'%.*s'", (int)tk->len, s);
            reject(w, i, what, why);
            return i;
        }
        /* extern "C" (the module is C already). */
        if (is(w, i, "extern") && next < w->toks->count && tok(w, next)->kind == LAT__TOK_STRING) {
            bool open_brace = !in_pp && is(w, next_code(w, next), "{");
            size_t last = open_brace ? next_code(w, next) : next;
            replace(w, tk->off, tok(w, last)->off + tok(w, last)->len, "");
            if (open_brace) {
                push_brace(w, BR_EXTERN_C);
                w->decl_start = last + 1;
            }
            return last;
        }
        /* A call to a __device__ function passes the thread context on. */
        if (t->pass == 2 && i != w->plan_name && is(w, next, "(") &&
            !(prev != SIZE_MAX && (is(w, prev, ".") || is(w, prev, "->"))) &&
            lat__map_get(&t->devfns, s, tk->len, NULL)) {
            size_t after = in_pp ? next + 1 : next_code(w, next);
            bool empty = is(w, after, ")");
            const lat__tok *paren = tok(w, next);
            emit_upto(w, paren->off + paren->len);
            out_str(t, empty ? "__lat_t" : "__lat_t, ");
            return i;
        }
        if (t->pass == 2 && is(w, prev, "&") && !is(w, next, "(") &&
            lat__map_get(&t->devfns, s, tk->len, NULL)) {
            reject(w, i, "taking the address of a __device__ function",
                   "device function pointers");
            return i;
        }
        /* C++'s functional cast, float(x), becomes ((float)(x)). */
        if (t->pass == 2 && is_type_keyword(w, i) && is(w, next, "(") &&
            !operand_before(w, prev)) {
            size_t inner = in_pp ? next + 1 : next_code(w, next);
            if (!is(w, inner, "*") && !is(w, inner, "&") && !is(w, inner, ")")) {
                size_t close = lat__match_close(w->toks, next);
                if (close < w->toks->count) {
                    char cast[48];
                    snprintf(cast, sizeof cast, "((%.*s)(", (int)tk->len, s);
                    const lat__tok *paren = tok(w, next);
                    replace(w, tk->off, paren->off + paren->len, cast);
                    push_edit(w, close, EDIT_AFTER, ")");
                }
            }
            return i;
        }
        /* struct S { ... }: C++ names the type S too. */
        if (!in_pp && (is(w, i, "struct") || is(w, i, "union") || is(w, i, "enum"))) {
            size_t after = next;
            while (is_attribute_word(w, after) && is(w, next_code(w, after), "("))
                after = next_code(w, lat__match_close(w->toks, next_code(w, after)));
            bool tagged = tok(w, after)->kind == LAT__TOK_IDENT;
            if (tagged)
                after = next_code(w, after);
            if (is(w, after, "{") && !is(w, i, "enum"))
                w->record_brace = after;
            if (tagged && is(w, after, "{")) {
                next = prev_code(w, after);
                bool in_record = w->nbraces > 0 && w->braces[w->nbraces - 1].kind == BR_RECORD;
                bool typedefd = false;
                for (size_t j = w->decl_start; j < i; j++)
                    if (is(w, j, "typedef"))
                        typedefd = true;
                if (t->pass == 2 && !typedefd && !in_record) {
                    char td[300];
                    int n = (int)tok(w, next)->len;
                    snprintf(td, sizeof td, "typedef %.*s %.*s %.*s; ", (int)tk->len, s, n,
                             text_of(w, next), n, text_of(w, next));
                    replace(w, tk->off, tk->off, td);
                }
            }
            return i;
        }
        /* A function declared inside a struct: a member function. */
        if (!in_pp && w->nbraces > 0 && w->braces[w->nbraces - 1].kind == BR_RECORD &&
            w->braces[w->nbraces - 1].paren == w->paren && is(w, next, "(") &&
            !is_attribute_word(w, i) && !is(w, i, "sizeof") && !is(w, i, "_Alignof") &&
            !is(w, next_code(w, next), "*")) {
            reject(w, i, "a member function (a struct with methods)", why_cxx);
        }
        return i;
    }

    if (tk->kind == LAT__TOK_NUMBER) {
        if (memchr(s, '\'', tk->len))
            reject(w, i, "a digit separator", why_cxx);
        return i;
    }
    if (tk->kind != LAT__TOK_PUNCT)
        return i;
    if (is(w, i, "::")) {
        reject(w, i, "the scope operator '::'", why_cxx);
    } else if (is(w, i, "<<") && is(w, i + 1, "<") && !(tok(w, i + 1)->flags & LAT__TOK_SPACE)) {
        reject(w, i, "a kernel launch '<<<...>>>'", "launching kernels from device code");
    } else if (is(w, i, "&") && prev != SIZE_MAX && tok(w, prev)->kind == LAT__TOK_IDENT &&
               !is(w, prev, "return") && tok(w, next)->kind == LAT__TOK_IDENT &&
               is(w, in_pp ? next + 1 : next_code(w, next), "=")) {
        reject(w, i, "a reference variable", why_cxx);
    } else if (is(w, i, "[") && prev != SIZE_MAX &&
               (is(w, prev, "=") || is(w, prev, "(") || is(w, prev, ",") ||
                is(w, prev, "return") || is(w, prev, "{") || is(w, prev, ";")) &&
               (is(w, next, "]") ||
                ((is(w, next, "=") || is(w, next, "&")) &&
                 (is(w, next + 1, "]") || is(w, next + 1, ","))))) {
        reject(w, i, "a lambda expression", why_cxx);
    }
    return i;
}

/* Braces and declarations, outside directives. */
static void track_structure(walk *w, size_t i)
{
    if (is(w, i, "(")) {
        w->paren++;
    } else if (is(w, i, ")")) {
        w->paren--;
    } else if (is(w, i, "{")) {
        push_brace(w, i == w->record_brace ? BR_RECORD : BR_OTHER);
        w->decl_start = i + 1;
    } else if (is(w, i, "}")) {
        if (w->nbraces > 0) {
            brace b = w->braces[--w->nbraces];
            if (b.kind == BR_EXTERN_C) {
                replace(w, tok(w, i)->off, tok(w, i)->off + 1, "");
            } else {
                w->nested--;
            }
        }
        w->decl_start = i + 1;
    } else if (is(w, i, ";")) {
        w->decl_start = i + 1;
    }
}

/* ---- directives ------------------------------------------------------------------------ */

static void walk_file(tr *t, file *f);

static file *load_file(tr *t, const char *path)
{
    for (size_t i = 0; i < t->nfiles; i++)
        if (t->files[i]->path && strcmp(t->files[i]->path, path) == 0)
            return t->files[i];
    if (t->nfiles == t->files_cap) {
        size_t cap = t->files_cap ? t->files_cap * 2 : 8;
        file **p = realloc(t->files, cap * sizeof *p);
        if (!p)
            return NULL;
        t->files = p;
        t->files_cap = cap;
    }
    file *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    t->files[t->nfiles++] = f;
    f->path = strdup(path);
    f->display = strdup(path);
    f->dir = lat__path_dir(path);
    f->real = realpath(path, NULL);
    if (!f->path || !f->display || !f->dir)
        return NULL;
    return f;
}

/* Writes the #line directive for the user's file in the output. */
static void out_line_marker(tr *t, int line, const char *name)
{
    char *buf = NULL;
    size_t len = 0;
    bool oom = false;
    out_line_marker_to(&buf, &len, line, name, &oom);
    if (oom)
        t->oom = true;
    else
        out_str(t, buf);
    free(buf);
}

static void do_include(walk *w, size_t i, size_t end)
{
    tr *t = w->t;
    size_t h = i + 2;
    const lat__tok *ht = tok(w, h);
    const lat__tok *last = tok(w, end - 1);
    const lat__tok *hash = tok(w, i);
    if (h >= end || ht->kind != LAT__TOK_STRING || ht->len < 2) {
        reject(w, i, "a computed #include", "name the header in quotes or angle brackets");
        return;
    }
    bool quoted = text_of(w, h)[0] == '"';
    char name[1024];
    if (ht->len - 2 >= sizeof name) {
        reject(w, h, "an #include name this long", "a lattice limit");
        return;
    }
    memcpy(name, text_of(w, h) + 1, ht->len - 2);
    name[ht->len - 2] = '\0';
    char *path = NULL;
    lat__header_kind kind = lat__header_resolve(name, quoted, w->f->dir, t->in->include_dirs,
                                                t->in->option_include_dirs, &path);
    switch (kind) {
    case LAT__HEADER_NOMEM:
        t->oom = true;
        return;
    case LAT__HEADER_BUILTIN:
        replace(w, hash->off, last->off + last->len, "");
        return;
    case LAT__HEADER_UNSUPPORTED: {
        char what[1100];
        snprintf(what, sizeof what, "#include <%s>", name);
        reject(w, h, what, "that CUDA library is not emulated");
        return;
    }
    case LAT__HEADER_MISSING:
        /* In a region that may be dead, leave it to the compiler. */
        if (t->pass == 2 && certain(w)) {
            char dirs[512] = "";
            size_t dl = 0;
            const char *const *lists[2] = {t->in->include_dirs, t->in->option_include_dirs};
            dl += (size_t)snprintf(dirs + dl, sizeof dirs - dl, "%s", quoted ? w->f->dir : "");
            for (int k = 0; k < 2; k++)
                for (const char *const *d = lists[k]; d && *d && dl < sizeof dirs; d++)
                    dl += (size_t)snprintf(dirs + dl, sizeof dirs - dl, "%s%s",
                                           dl ? ", " : "", *d);
            add_error(t, LAT_ERROR_FILE,
                      "%s:%d:%d: error: cannot find the header '%s' (searched: %s)",
                      w->f->display, ht->line, ht->col, name, dl ? dirs : "no directories");
        }
        return;
    case LAT__HEADER_FILE:
        break;
    }
    file *inc = load_file(t, path);
    free(path);
    if (!inc) {
        t->oom = true;
        return;
    }
    if (!inc->src) {
        int err = lat__file_read(inc->path, &inc->owned);
        if (err == ENOMEM) {
            t->oom = true;
            return;
        }
        if (err) {
            if (t->pass == 2)
                add_error(t, LAT_ERROR_FILE, "%s:%d:%d: error: cannot read the header '%s': %s",
                          w->f->display, ht->line, ht->col, inc->path,
                          err == EILSEQ ? "it contains a NUL byte" : strerror(err));
            return;
        }
        inc->src = inc->owned;
        if (lat__lex(inc->src, &inc->toks) != 0) {
            t->oom = true;
            return;
        }
    }
    if (inc->real && lat__map_get(&t->once_done, inc->real, strlen(inc->real), NULL)) {
        replace(w, hash->off, last->off + last->len, "");
        return;
    }
    if (t->depth >= MAX_INCLUDE_DEPTH) {
        if (t->pass == 2)
            add_error(t, LAT_ERROR_FILE,
                      "%s:%d:%d: error: #include nested more than %d deep (does '%s' include "
                      "itself without a guard?)",
                      w->f->display, ht->line, ht->col, MAX_INCLUDE_DEPTH, name);
        return;
    }
    replace(w, hash->off, last->off + last->len, "\n");
    out_line_marker(t, 1, inc->display);
    out_str(t, "\n");
    t->depth++;
    walk_file(t, inc);
    t->depth--;
    out_str(t, "\n");
    out_line_marker(t, hash->line + 1, w->f->display);
}

static int push_cond(walk *w, cond c)
{
    if (w->nconds == w->conds_cap) {
        int cap = w->conds_cap ? w->conds_cap * 2 : 16;
        cond *p = realloc(w->conds, (size_t)cap * sizeof *p);
        if (!p) {
            w->t->oom = true;
            return -1;
        }
        w->conds = p;
        w->conds_cap = cap;
    }
    w->conds[w->nconds++] = c;
    return 0;
}

static lat__cond defined_cond(const walk *w, size_t i)
{
    const lat__tok *n = tok(w, i);
    if (n->kind != LAT__TOK_IDENT)
        return LAT__COND_UNKNOWN;
    const lat__macro *m = lat__macros_find(&w->t->macros, text_of(w, i), n->len);
    if (m)
        return m->uncertain ? LAT__COND_UNKNOWN : m->defined ? LAT__COND_TRUE : LAT__COND_FALSE;
    return n->len > 2 && text_of(w, i)[0] == '_' && text_of(w, i)[1] == '_' ? LAT__COND_UNKNOWN
                                                                           : LAT__COND_FALSE;
}

static lat__cond negate(lat__cond c)
{
    return c == LAT__COND_UNKNOWN ? c : c == LAT__COND_TRUE ? LAT__COND_FALSE : LAT__COND_TRUE;
}

/* #define NAME body: records the macro, and rewrites the body as code. */
static void do_define(walk *w, size_t i, size_t end)
{
    tr *t = w->t;
    size_t n = i + 2;
    if (n >= end || tok(w, n)->kind != LAT__TOK_IDENT)
        return;
    bool function_like = n + 1 < end && is(w, n + 1, "(") && !(tok(w, n + 1)->flags & LAT__TOK_SPACE);
    size_t body = function_like ? lat__match_close(w->toks, n + 1) + 1 : n + 1;
    lat__macro mac = {.name = text_of(w, n), .len = tok(w, n)->len, .defined = true,
                      .uncertain = !certain(w)};
    unsigned quals = 0;
    bool declares = false;
    for (size_t j = body; j < end; j++) {
        unsigned q = quals_of(w, j);
        if (q && j + 1 < end)
            for (size_t k = j + 1; k + 1 < end; k++)
                if (tok(w, k)->kind == LAT__TOK_IDENT && !is_attribute_word(w, k) &&
                    !quals_of(w, k) && is(w, k + 1, "("))
                    declares = true;
        quals |= q;
    }
    if (declares)
        reject(w, n, "a function declared inside a macro",
               "the translator must see __global__ and __device__ functions as written");
    mac.quals = quals;
    if (!function_like && body < end) {
        mac.value = text_of(w, body);
        mac.vlen = tok(w, end - 1)->off + tok(w, end - 1)->len - tok(w, body)->off;
    } else if (!function_like) {
        mac.value = "";
    }
    if (lat__macros_set(&t->macros, &mac) != 0)
        t->oom = true;
    for (size_t j = body; j < end; j = rewrite_token(w, j, true) + 1) {
    }
}

static void do_directive(walk *w, size_t i, size_t end)
{
    tr *t = w->t;
    size_t d = i + 1;
    if (d >= end)
        return;
    bool is_live = live(w);
    cond *top = w->nconds ? &w->conds[w->nconds - 1] : NULL;
    if (is(w, d, "if") || is(w, d, "ifdef") || is(w, d, "ifndef")) {
        cond c = {LAT__COND_FALSE, !is_live, false, false};
        if (is_live) {
            if (is(w, d, "if"))
                c.state = lat__macros_eval(&t->macros, w->toks, d + 1, end);
            else
                c.state = is(w, d, "ifdef") ? defined_cond(w, d + 1) : negate(defined_cond(w, d + 1));
        }
        c.taken = c.state == LAT__COND_TRUE;
        c.maybe = c.state == LAT__COND_UNKNOWN;
        push_cond(w, c);
    } else if (is(w, d, "elif") && top) {
        lat__cond s = LAT__COND_FALSE;
        if (!top->dead && !top->taken) {
            s = lat__macros_eval(&t->macros, w->toks, d + 1, end);
            if (top->maybe && s == LAT__COND_TRUE)
                s = LAT__COND_UNKNOWN;
        }
        top->state = s;
        top->taken |= s == LAT__COND_TRUE;
        top->maybe |= s == LAT__COND_UNKNOWN;
    } else if (is(w, d, "else") && top) {
        top->state = top->dead || top->taken ? LAT__COND_FALSE
                     : top->maybe           ? LAT__COND_UNKNOWN
                                            : LAT__COND_TRUE;
    } else if (is(w, d, "endif") && top) {
        w->nconds--;
    } else if (!is_live) {
        return;
    } else if (is(w, d, "define")) {
        do_define(w, i, end);
    } else if (is(w, d, "undef") && d + 1 < end && tok(w, d + 1)->kind == LAT__TOK_IDENT) {
        lat__macro mac = {.name = text_of(w, d + 1), .len = tok(w, d + 1)->len,
                          .uncertain = !certain(w)};
        if (lat__macros_set(&t->macros, &mac) != 0)
            t->oom = true;
    } else if (is(w, d, "include")) {
        do_include(w, i, end);
    } else if (is(w, d, "pragma") && is(w, d + 1, "once")) {
        file *f = w->f;
        if (f->real && lat__map_put(&t->once_done, f->real, strlen(f->real), 1) != 0)
            t->oom = true;
        replace(w, tok(w, i)->off, tok(w, end - 1)->off + tok(w, end - 1)->len, "");
    }
}

/* ---- walking a file -------------------------------------------------------------------- */

static void walk_file(tr *t, file *f)
{
    walk w;
    memset(&w, 0, sizeof w);
    w.t = t;
    w.f = f;
    w.toks = &f->toks;
    w.record_brace = SIZE_MAX;
    w.plan_name = SIZE_MAX;
    w.planned = SIZE_MAX;
    size_t count = f->toks.count;
    for (size_t i = 0; i < count && !t->uses_vectors; i++) {
        const lat__tok *tk = &f->toks.items[i];
        if (tk->kind == LAT__TOK_IDENT && lat__emu_is_vector_type(f->src + tk->off, tk->len))
            t->uses_vectors = true;
    }
    for (size_t i = 0; i < count && !t->oom;) {
        const lat__tok *tk = &f->toks.items[i];
        if ((tk->flags & LAT__TOK_PP) && (tk->flags & LAT__TOK_BOL)) {
            size_t end = lat__directive_end(&f->toks, i);
            do_directive(&w, i, end);
            i = end;
            continue;
        }
        if (tk->flags & LAT__TOK_PP) {
            i++; /* a directive's stray token, as after a computed #include */
            continue;
        }
        if (!live(&w)) {
            i++;
            continue;
        }
        apply_edits(&w, i, EDIT_BEFORE);
        apply_edits(&w, i, EDIT_REPLACE);
        if (w.nested == 0 && w.planned != w.decl_start) {
            w.planned = w.decl_start;
            plan_declaration(&w, i);
        }
        size_t last = rewrite_token(&w, i, false);
        if (last == i)
            track_structure(&w, i);
        apply_edits(&w, i, EDIT_AFTER);
        i = last + 1;
    }
    emit_upto(&w, strlen(f->src));
    for (size_t k = 0; k < w.nedits; k++)
        free(w.edits[k].text);
    free(w.edits);
    free(w.braces);
    free(w.conds);
}

/* ---- the whole program ----------------------------------------------------------------- */

static int define_options(tr *t)
{
    for (const char *const *d = t->in->defines; d && *d; d++) {
        const char *eq = strchr(*d, '=');
        lat__macro mac = {.name = *d, .len = eq ? (size_t)(eq - *d) : strlen(*d), .defined = true};
        mac.value = eq ? eq + 1 : "1";
        mac.vlen = strlen(mac.value);
        if (lat__macros_set(&t->macros, &mac) != 0)
            return -1;
    }
    for (const char *const *u = t->in->undefines; u && *u; u++) {
        lat__macro mac = {.name = *u, .len = strlen(*u)};
        if (lat__macros_set(&t->macros, &mac) != 0)
            return -1;
    }
    return 0;
}

static void free_tr(tr *t)
{
    for (size_t i = 0; i < t->nfiles; i++) {
        file *f = t->files[i];
        free(f->path);
        free(f->display);
        free(f->dir);
        free(f->real);
        free(f->owned);
        lat__toks_free(&f->toks);
        free(f);
    }
    free(t->files);
    lat__macros_free(&t->macros);
    lat__map_free(&t->devfns);
    lat__map_free(&t->defined);
    lat__map_free(&t->once_done);
    free(t->out);
    free(t->msg);
    for (int i = 0; i < t->nkernels; i++)
        free(t->kernels[i]);
    free(t->kernels);
}

lat_status lat__emu_translate(const lat__translate_in *in, lat__translate_out *out)
{
    memset(out, 0, sizeof *out);
    tr t;
    memset(&t, 0, sizeof t);
    t.in = in;
    t.macros.base = lat__macros_prelude();
    file *root = calloc(1, sizeof *root);
    t.files = calloc(8, sizeof *t.files);
    if (!t.macros.base || !root || !t.files) {
        free(root);
        free(t.files);
        return LAT_ERROR_OUT_OF_MEMORY;
    }
    t.files_cap = 8;
    t.files[t.nfiles++] = root;
    root->display = strdup(in->name);
    root->dir = lat__path_dir(in->name);
    root->src = in->text;
    if (!root->display || !root->dir || lat__lex(in->text, &root->toks) != 0) {
        free_tr(&t);
        return LAT_ERROR_OUT_OF_MEMORY;
    }
    for (t.pass = 1; t.pass <= 2 && !t.oom; t.pass++) {
        lat__macros_free(&t.macros);
        t.macros.base = lat__macros_prelude();
        lat__map_free(&t.once_done);
        if (define_options(&t) != 0) {
            t.oom = true;
            break;
        }
        if (t.pass == 2)
            out_line_marker(&t, 1, root->display);
        out_str(&t, "\n");
        walk_file(&t, root);
    }
    if (t.nerrors > MAX_ERRORS &&
        lat__strbuf_printf(&t.msg, &t.msg_len, "\n(%d more errors not shown)",
                           t.nerrors - MAX_ERRORS) != 0)
        t.oom = true;
    lat_status st = t.oom ? LAT_ERROR_OUT_OF_MEMORY : t.status;
    if (st == LAT_OK) {
        out->text = t.out;
        out->kernels = t.kernels;
        out->nkernels = t.nkernels;
        out->uses_vectors = t.uses_vectors;
        t.out = NULL;
        t.kernels = NULL;
        t.nkernels = 0;
    } else {
        out->msg = t.msg;
        t.msg = NULL;
    }
    free_tr(&t);
    return st;
}

void lat__translate_out_free(lat__translate_out *out)
{
    free(out->text);
    free(out->msg);
    for (int i = 0; i < out->nkernels; i++)
        free(out->kernels[i]);
    free(out->kernels);
    memset(out, 0, sizeof *out);
}
