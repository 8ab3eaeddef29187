/*
 * The instrumentation pass of checked modules (ck.h). It reads the translator's C output
 * and, inside every function that takes the hidden thread context (__global__ and
 * __device__ functions; not the generated entries), wraps each memory access in a macro
 * that passes its address through the checks:
 *
 *     out[i] = a[i] * s->k;
 *  becomes
 *     __LAT_CK(out[i], 3) = __LAT_CK(a[i], 4) * __LAT_CK(s->k, 5);
 *
 * where __LAT_CK(e, site) is (*(typeof(e) *)__lat_ck(__lat_t, &(e), sizeof(e),
 * _Alignof(typeof(e)), site)) and the site number names the access's source place, its
 * text and whether it reads, writes or both (from the tokens around it: `=` after it
 * writes, `+=` or `++` reads and writes). An access is an lvalue that names memory:
 * `a[i]`, `p->f`, `*p`, and `.f` of those; not a plain variable, not an operand of `&`,
 * sizeof or typeof. Loops get a tick in their condition (__LAT_TICK, cond) so that a
 * spin that touches no memory is still seen.
 *
 * The pass only inserts text between tokens, never removes any and never adds a line:
 * every token stays on its line, so `#line` markers, __LINE__ and compiler messages keep
 * naming the user's lines. What it cannot parse it leaves alone (unchecked, never wrong).
 */
#include "ck.h"

#include "cu_lex.h"
#include "emu/prelude.h"
#include "emu/translate/map.h"
#include "error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the checked module's code needs before the translation: the hooks and the
 * redirections of the barrier, warp and trap functions to the checked executor's. */
static const char prefix[] =
    "void *__lat_ck(lat_emu_thread *, void *, unsigned long, unsigned long, int);\n"
    "void *__lat_cka(lat_emu_thread *, void *, unsigned long, unsigned long, int, void *, unsigned long);\n"
    "void __lat_ck_tick(lat_emu_thread *);\n"
    "int __lat_ck_bar(lat_emu_thread *, int, int, const char *, int);\n"
    "unsigned long long __lat_ck_warp(lat_emu_thread *, int, unsigned, unsigned long long, int, int, const char *, int);\n"
    "int __lat_ck_match_all(lat_emu_thread *, unsigned, unsigned long long, int *, const char *, int);\n"
    "unsigned __lat_ck_activemask(lat_emu_thread *);\n"
    "void __lat_ck_trap(lat_emu_thread *, const char *, const char *, int);\n"
    "#define __lat_bar __lat_ck_bar\n"
    "#define __lat_warp __lat_ck_warp\n"
    "#define __lat_match_all __lat_ck_match_all\n"
    "#define __lat_activemask __lat_ck_activemask\n"
    "#define __lat_trap __lat_ck_trap\n"
    /* Kernels run as region loops (translate/region.c): a barrier, the threads' order,
     * the block's scratch memory. */
    "void __lat_ck_local(lat_emu_thread *, void *, unsigned long);\n"
    "void __lat_ck_rbar(lat_emu_thread *, const int *, const char *, int);\n"
    "const unsigned *__lat_ck_rorder(lat_emu_thread *);\n"
    "void *__lat_ck_scratch(lat_emu_thread *, unsigned long);\n"
    "#define __lat_scratch __lat_ck_scratch\n"
    "#define __LAT_CK(e, s) (*(__typeof__(e) *)__lat_ck(__lat_t, (void *)&(e), sizeof(e), "
    "_Alignof(__typeof__(e)), s))\n"
    /* a[i] where `a` may be an array: its bounds travel along (0 when it is a pointer). */
    "#define __LAT_CKA(e, s, a) (*(__typeof__(e) *)__lat_cka(__lat_t, (void *)&(e), sizeof(e), "
    "_Alignof(__typeof__(e)), s, __builtin_types_compatible_p(__typeof__(a), "
    "__typeof__(&(a)[0])) ? (void *)0 : (void *)(a), sizeof(a)))\n"
    /* A loop turn: the count just past the thread context (ck.h's lat__ck_fiber.ticks). */
    "#define __LAT_TICK (--*(int *)(__lat_t + 1) < 0 ? __lat_ck_tick(__lat_t) : (void)0)\n";

/* ---- the pass's state --------------------------------------------------------------------- */

typedef struct ins {
    size_t off;
    bool after; /* closes something: goes before openers at the same offset */
    size_t seq;
    char *text;
} ins;

typedef enum mode { M_ADDR, M_R, M_W, M_RW } mode;

typedef struct pass {
    const char *src;
    lat__toks tk;
    ins *ins;
    size_t nins, ins_cap, seq;
    lat__map types;
    lat__ck_module *m;
    int *line;  /* per token: the user's line */
    int *file;  /* per token: index into m->strings of its file (-1: unknown) */
    /* The __shared__ variables' names, from the translation's __lat_shname table: an
     * access's text names them, not the translation's pointers. */
    const lat__tok *shname[256];
    int nshname;
    /* The local variables declared so far in the function being read (initcheck). */
    struct local *locals;
    size_t nlocals, locals_cap;
    bool oom;
} pass;

/* A local variable: in scope over tokens (decl, end]. Tracked ones (declared without an
 * initializer, scalars or arrays of scalars whose address is never taken) have every use
 * checked, so that a read before any write is seen; the others only hide outer ones. */
typedef struct local {
    const char *name;
    size_t len, decl, end;
    bool tracked, array;
} local;

static const lat__tok *tok(const pass *p, size_t i)
{
    return &p->tk.items[i < p->tk.count ? i : p->tk.count];
}

static bool is(const pass *p, size_t i, const char *s)
{
    return i < p->tk.count && lat__tok_is(&p->tk, tok(p, i), s);
}

static bool is_pp(const pass *p, size_t i)
{
    return i < p->tk.count && (tok(p, i)->flags & LAT__TOK_PP);
}

static const char *text(const pass *p, size_t i)
{
    return p->src + tok(p, i)->off;
}

static bool word_in(const pass *p, size_t i, const char *const *words, size_t n)
{
    const lat__tok *t = tok(p, i);
    if (t->kind != LAT__TOK_IDENT)
        return false;
    for (size_t k = 0; k < n; k++)
        if (strlen(words[k]) == t->len && memcmp(words[k], text(p, i), t->len) == 0)
            return true;
    return false;
}

static size_t close_of(const pass *p, size_t i)
{
    return lat__match_close(&p->tk, i);
}

/* ---- insertions ------------------------------------------------------------------------- */

static void insert(pass *p, size_t off, bool after, const char *s)
{
    if (p->oom)
        return;
    if (p->nins == p->ins_cap) {
        size_t cap = p->ins_cap ? p->ins_cap * 2 : 256;
        ins *n = realloc(p->ins, cap * sizeof *n);
        if (!n) {
            p->oom = true;
            return;
        }
        p->ins = n;
        p->ins_cap = cap;
    }
    char *copy = strdup(s);
    if (!copy) {
        p->oom = true;
        return;
    }
    p->ins[p->nins++] = (ins){off, after, p->seq++, copy};
}

static void insert_before(pass *p, size_t i, const char *s)
{
    insert(p, tok(p, i)->off, false, s);
}

static void insert_after(pass *p, size_t i, const char *s)
{
    insert(p, tok(p, i)->off + tok(p, i)->len, true, s);
}

static int ins_cmp(const void *a, const void *b)
{
    const ins *x = a, *y = b;
    if (x->off != y->off)
        return x->off < y->off ? -1 : 1;
    if (x->after != y->after)
        return x->after ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* ---- strings and sites ----------------------------------------------------------------------- */

static int intern(pass *p, const char *s, size_t n)
{
    lat__ck_module *m = p->m;
    for (int i = 0; i < m->nstrings; i++)
        if (strlen(m->strings[i]) == n && memcmp(m->strings[i], s, n) == 0)
            return i;
    if (m->nstrings == m->strings_cap) {
        int cap = m->strings_cap ? m->strings_cap * 2 : 16;
        char **a = realloc(m->strings, (size_t)cap * sizeof *a);
        if (!a) {
            p->oom = true;
            return -1;
        }
        m->strings = a;
        m->strings_cap = cap;
    }
    char *c = malloc(n + 1);
    if (!c) {
        p->oom = true;
        return -1;
    }
    memcpy(c, s, n);
    c[n] = '\0';
    m->strings[m->nstrings] = c;
    return m->nstrings++;
}

/* The __shared__ variable index n in an identifier "PREFIXn", or -1. */
static int shared_index(const pass *p, size_t i, const char *pre)
{
    const lat__tok *t = tok(p, i);
    size_t n = strlen(pre);
    if (t->kind != LAT__TOK_IDENT || t->len <= n || memcmp(text(p, i), pre, n) != 0)
        return -1;
    int v = 0;
    for (size_t k = n; k < t->len; k++) {
        char c = text(p, i)[k];
        if (c < '0' || c > '9' || v > 100000)
            return -1;
        v = v * 10 + (c - '0');
    }
    return v;
}

/* The translation of a use of a __shared__ variable at token i: "* __lat_shpN",
 * "* ( __lat_shtN * ) ( ... )" or "* ( __lat_shtN * ) __lat_t -> dshared", or any of them
 * in parentheses. Returns its index and sets *end past it, or -1. */
static int shared_form(const pass *p, size_t i, size_t e, size_t *end)
{
    if (is(p, i, "(")) {
        size_t c = close_of(p, i), inner;
        int v = shared_form(p, i + 1, c, &inner);
        if (v >= 0 && inner == c && c < e) {
            *end = c + 1;
            return v;
        }
        return -1;
    }
    if (!is(p, i, "*"))
        return -1;
    int v = shared_index(p, i + 1, "__lat_shp");
    if (v >= 0) {
        *end = i + 2;
        return v;
    }
    if (!is(p, i + 1, "(") || (v = shared_index(p, i + 2, "__lat_sht")) < 0 || !is(p, i + 3, "*") ||
        !is(p, i + 4, ")"))
        return -1;
    size_t j = i + 5;
    if (is(p, j, "("))
        j = close_of(p, j) + 1;
    else if (is(p, j, "__lat_t") && is(p, j + 1, "->"))
        j += 3;
    else
        return -1;
    if (j > e)
        return -1;
    *end = j;
    return v;
}

/* The access's text as written, spaces between tokens where the source had some. */
static char *expr_text(const pass *p, size_t b, size_t e)
{
    size_t n = 0;
    for (size_t i = b; i < e; i++)
        n += tok(p, i)->len + 1;
    if (n > 160)
        n = 160;
    char *s = malloc(n + 4);
    if (!s)
        return NULL;
    size_t at = 0;
    for (size_t i = b; i < e; i++) {
        const lat__tok *t = tok(p, i);
        if (i > b && (t->flags & LAT__TOK_SPACE) && at < n)
            s[at++] = ' ';
        size_t end;
        int v = shared_form(p, i, e, &end);
        if (v >= 0 && v < p->nshname) {
            /* The variable's name (a string token: skip its quotes). */
            const lat__tok *nt = p->shname[v];
            for (size_t k = 1; k + 1 < nt->len && at < n; k++)
                s[at++] = p->src[nt->off + k];
            i = end - 1;
            continue;
        }
        for (size_t k = 0; k < t->len && at < n; k++)
            s[at++] = text(p, i)[k];
        if (at >= n) {
            memcpy(s + at, "...", 3);
            at += 3;
            break;
        }
    }
    s[at] = '\0';
    return s;
}

static int add_site(pass *p, size_t b, size_t e, int kind)
{
    lat__ck_module *m = p->m;
    if (m->nsites == m->sites_cap) {
        int cap = m->sites_cap ? m->sites_cap * 2 : 64;
        lat__ck_site *s = realloc(m->sites, (size_t)cap * sizeof *s);
        if (!s) {
            p->oom = true;
            return 0;
        }
        m->sites = s;
        m->sites_cap = cap;
    }
    int expr = -1;
    if (kind) {
        char *x = expr_text(p, b, e);
        if (!x) {
            p->oom = true;
            return 0;
        }
        expr = intern(p, x, strlen(x));
        free(x);
    }
    int f = p->file[b < p->tk.count ? b : p->tk.count - 1];
    if (p->oom)
        return 0;
    m->sites[m->nsites] = (lat__ck_site){
        .file = f >= 0 ? m->strings[f] : "",
        .expr = expr >= 0 ? m->strings[expr] : "",
        .line = p->line[b < p->tk.count ? b : p->tk.count - 1],
        .kind = kind,
    };
    return m->nsites++;
}

/* ---- reading the program ---------------------------------------------------------------------- */

static const char *const keywords[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
    "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
    "restrict", "return", "short", "signed", "static", "struct", "switch", "typedef",
    "union", "unsigned", "void", "volatile", "while", "_Bool", "_Complex", "_Alignas",
    "_Atomic", "_Noreturn", "_Static_assert", "_Thread_local", "__attribute__",
    "__restrict__", "__restrict", "bool", "__global__", "__device__", "__host__",
    "__constant__", "__forceinline__", "__noinline__", "__launch_bounds__", "__align__",
    "asm", "__asm__", "static_assert",
};

static const char *const type_words[] = {
    "void", "char", "short", "int", "long", "float", "double", "signed", "unsigned",
    "_Bool", "bool", "const", "volatile", "static", "register", "extern", "struct",
    "union", "enum", "typedef", "inline", "restrict", "__restrict__", "__restrict",
    "_Alignas", "__attribute__", "__align__", "_Atomic", "_Thread_local", "__constant__",
    "__device__", "__forceinline__", "__noinline__", "__host__", "__global__",
};

/* The prelude's typedefs: integers, then the others. */
static const char *const prelude_integer_types[] = {
    "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t",
    "size_t", "ptrdiff_t", "ssize_t", "intptr_t", "uintptr_t", "intmax_t", "uintmax_t",
};
static const char *const prelude_other_types[] = {
    "cudaTextureObject_t", "uint3", "dim3", "lat_emu_thread",
};

/* Unevaluated operands. */
static const char *const unevaluated[] = {"sizeof", "_Alignof", "__alignof__", "typeof",
                                          "__typeof__", "__builtin_types_compatible_p",
                                          "_Generic", "__builtin_offsetof", "offsetof"};

static bool is_keyword(const pass *p, size_t i)
{
    return word_in(p, i, keywords, sizeof keywords / sizeof keywords[0]);
}

static bool is_typedef_name(const pass *p, size_t i)
{
    const lat__tok *t = tok(p, i);
    if (t->kind != LAT__TOK_IDENT)
        return false;
    const char *s = text(p, i);
    if (t->len > 9 && memcmp(s, "__lat_sht", 9) == 0)
        return true;
    if (word_in(p, i, prelude_integer_types,
                sizeof prelude_integer_types / sizeof prelude_integer_types[0]) ||
        word_in(p, i, prelude_other_types, sizeof prelude_other_types / sizeof prelude_other_types[0]))
        return true;
    if (lat__emu_is_vector_type(s, t->len) && !(t->len > 5 && memcmp(s, "make_", 5) == 0))
        return true;
    return lat__map_get(&p->types, s, t->len, NULL);
}

static bool is_type_word(const pass *p, size_t i)
{
    return word_in(p, i, type_words, sizeof type_words / sizeof type_words[0]) ||
           is_typedef_name(p, i);
}

/* The next token after i outside directives. */
static size_t next(const pass *p, size_t i)
{
    i++;
    while (i < p->tk.count && is_pp(p, i))
        i++;
    return i;
}

/* Learns the typedef names of the program: in `typedef ... NAME;` the last identifier at
 * the declaration's own depth before ';' or ',', or the one in `(*NAME)`. */
static void learn_typedefs(pass *p)
{
    for (size_t i = 0; i < p->tk.count; i++) {
        if (is_pp(p, i) || !is(p, i, "typedef"))
            continue;
        size_t last = SIZE_MAX;
        for (size_t j = next(p, i); j < p->tk.count; j = next(p, j)) {
            if (is(p, j, ";") || is(p, j, ",")) {
                if (last != SIZE_MAX &&
                    lat__map_put(&p->types, text(p, last), tok(p, last)->len, 1) != 0)
                    p->oom = true;
                last = SIZE_MAX;
                if (is(p, j, ";"))
                    break;
                continue;
            }
            if (is(p, j, "{") || is(p, j, "[")) {
                j = close_of(p, j);
                continue;
            }
            if (is(p, j, "(")) {
                size_t c = close_of(p, j);
                /* (*NAME) or (*NAME)(args): a pointer declarator. */
                for (size_t k = j + 1; k < c; k++)
                    if (tok(p, k)->kind == LAT__TOK_IDENT && !is_type_word(p, k))
                        last = k;
                j = c;
                continue;
            }
            if (tok(p, j)->kind == LAT__TOK_IDENT && !is(p, j, "__attribute__"))
                last = j;
        }
    }
}

/* The names of the __shared__ variables: the strings of `__lat_shname[] = {...}`. */
static void learn_shared_names(pass *p)
{
    for (size_t i = 0; i + 5 < p->tk.count; i++) {
        if (!is(p, i, "__lat_shname") || !is(p, i + 1, "[") || !is(p, i + 4, "{"))
            continue;
        for (size_t j = i + 5; j < p->tk.count && !is(p, j, "}") && p->nshname < 256; j++)
            if (tok(p, j)->kind == LAT__TOK_STRING)
                p->shname[p->nshname++] = tok(p, j);
        return;
    }
}

/* Each token's line and file in the user's sources, from the #line markers. */
static void map_lines(pass *p)
{
    int base = 1, mark = 0, file = -1;
    for (size_t i = 0; i < p->tk.count; i++) {
        const lat__tok *t = tok(p, i);
        if ((t->flags & LAT__TOK_PP) && (t->flags & LAT__TOK_BOL) && is(p, i + 1, "line") &&
            tok(p, i + 2)->kind == LAT__TOK_NUMBER) {
            base = atoi(text(p, i + 2));
            mark = t->line;
            if (tok(p, i + 3)->kind == LAT__TOK_STRING && is_pp(p, i + 3) && tok(p, i + 3)->len >= 2) {
                /* The translator escapes '"' and '\\' in names; keep them as written. */
                file = intern(p, text(p, i + 3) + 1, tok(p, i + 3)->len - 2);
            }
        }
        p->line[i] = base + (t->line - mark - 1);
        p->file[i] = file;
    }
    p->line[p->tk.count] = base;
    p->file[p->tk.count] = file;
}

/* ---- expressions ------------------------------------------------------------------------- */

static bool operand_token(const pass *p, size_t i)
{
    const lat__tok *t = tok(p, i);
    if (t->kind == LAT__TOK_NUMBER || t->kind == LAT__TOK_STRING || t->kind == LAT__TOK_CHAR)
        return true;
    if (t->kind == LAT__TOK_IDENT)
        return !is_keyword(p, i) ||
               word_in(p, i, unevaluated, sizeof unevaluated / sizeof unevaluated[0]);
    static const char *const ops[] = {"(", "*", "&", "-", "+", "!", "~", "++", "--"};
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        if (is(p, i, ops[k]))
            return true;
    return false;
}

/* Whether tokens (a, c) — inside a parenthesis at a-1 .. c — are a type name. */
static bool type_name_in(const pass *p, size_t a, size_t c)
{
    if (a >= c || !is_type_word(p, a))
        return false;
    for (size_t i = a; i < c; i++) {
        const lat__tok *t = tok(p, i);
        if (is(p, i, "(") || is(p, i, "[")) {
            i = close_of(p, i);
            continue;
        }
        if (t->kind == LAT__TOK_IDENT && !is_type_word(p, i) && !is(p, i - 1, "struct") &&
            !is(p, i - 1, "union") && !is(p, i - 1, "enum"))
            return false;
        if (t->kind == LAT__TOK_PUNCT && !is(p, i, "*"))
            return false;
    }
    return true;
}

static size_t parse_unary(const pass *p, size_t i, size_t e);

/* The end of the postfix chain that starts with the primary at i. */
static size_t parse_postfix(const pass *p, size_t i, size_t e)
{
    size_t j;
    if (is(p, i, "(")) {
        j = close_of(p, i) + 1;
        if (is(p, j, "{")) /* a compound literal (T){...} */
            j = close_of(p, j) + 1;
    } else if (word_in(p, i, unevaluated, sizeof unevaluated / sizeof unevaluated[0]) &&
               is(p, i + 1, "(")) {
        j = close_of(p, i + 1) + 1;
        if (!is(p, i, "sizeof") && !is(p, i, "_Alignof") && !is(p, i, "__alignof__"))
            return j; /* typeof(...) in an expression is a cast's type: rare */
        return j;
    } else {
        j = i + 1;
        /* Adjacent string literals are one. */
        while (tok(p, i)->kind == LAT__TOK_STRING && tok(p, j)->kind == LAT__TOK_STRING && j < e)
            j++;
    }
    while (j < e) {
        if (is(p, j, "[") || is(p, j, "(")) {
            j = close_of(p, j) + 1;
        } else if ((is(p, j, ".") || is(p, j, "->")) && tok(p, j + 1)->kind == LAT__TOK_IDENT) {
            j += 2;
        } else if (is(p, j, "++") || is(p, j, "--")) {
            j++;
        } else {
            break;
        }
    }
    return j > e ? e : j;
}

/* The end of the unary expression (a cast expression, in C's grammar) at i. */
static size_t parse_unary(const pass *p, size_t i, size_t e)
{
    if (i >= e)
        return e;
    if (is(p, i, "*") || is(p, i, "&") || is(p, i, "-") || is(p, i, "+") || is(p, i, "!") ||
        is(p, i, "~") || is(p, i, "++") || is(p, i, "--"))
        return parse_unary(p, i + 1, e);
    if ((is(p, i, "sizeof") || is(p, i, "_Alignof") || is(p, i, "__alignof__")) &&
        !is(p, i + 1, "("))
        return parse_unary(p, i + 1, e);
    if (is(p, i, "(")) {
        size_t c = close_of(p, i);
        if (c < e && type_name_in(p, i + 1, c) && !is(p, c + 1, "{"))
            return parse_unary(p, c + 1, e); /* a cast */
    }
    return parse_postfix(p, i, e);
}

static void rw_expr(pass *p, size_t b, size_t e);
static void visit_unary(pass *p, size_t i, size_t u, mode md);
static bool memory_lvalue(const pass *p, size_t i, size_t u);

/* Wraps [b, u) as one access of kind md. arr: the array identifier's token when the
 * access is `a[...]`, else SIZE_MAX. */
static const local *local_at(const pass *p, size_t i);

static void wrap(pass *p, size_t b, size_t u, mode md, size_t arr)
{
    int kind = md == M_W ? LAT_ACCESS_WRITE : md == M_RW ? LAT_ACCESS_READ_WRITE : LAT_ACCESS_READ;
    /* The hook gets the site, whether it names a tracked local (scalar: b alone; array:
     * arr) and the kind in one number: access.c's LAT__CK_CODE_*. */
    /* A tracked array indexed, or a tracked scalar by itself; not what a tracked pointer
     * points to (p[i] is an access of other memory, checked as any). */
    const local *l = local_at(p, arr != SIZE_MAX ? arr : b);
    bool tracked = l && l->tracked && (arr != SIZE_MAX ? l->array : u == b + 1 && !l->array);
    int site = add_site(p, b, u, kind) * LAT__CK_CODE_SITE + (tracked ? LAT__CK_CODE_LOCAL : 0) + kind;
    char close[300];
    if (arr != SIZE_MAX) {
        insert_before(p, b, "__LAT_CKA(");
        snprintf(close, sizeof close, ", %d, %.*s)", site, (int)tok(p, arr)->len, text(p, arr));
    } else {
        insert_before(p, b, "__LAT_CK(");
        snprintf(close, sizeof close, ", %d)", site);
    }
    insert_after(p, u - 1, close);
}

/* The segments of the postfix chain [i, u): starts of each. */
typedef struct chain {
    size_t seg[64];
    int n; /* segments after the primary */
    size_t primary_end;
    bool too_long;
} chain;

static void split_chain(const pass *p, size_t i, size_t u, chain *c)
{
    c->n = 0;
    c->too_long = false;
    size_t j;
    if (is(p, i, "(")) {
        j = close_of(p, i) + 1;
        if (is(p, j, "{"))
            j = close_of(p, j) + 1;
    } else if (word_in(p, i, unevaluated, sizeof unevaluated / sizeof unevaluated[0]) &&
               is(p, i + 1, "(")) {
        j = close_of(p, i + 1) + 1;
    } else {
        j = i + 1;
        while (tok(p, i)->kind == LAT__TOK_STRING && tok(p, j)->kind == LAT__TOK_STRING && j < u)
            j++;
    }
    c->primary_end = j;
    while (j < u) {
        if (c->n == 64) {
            c->too_long = true;
            return;
        }
        c->seg[c->n++] = j;
        if (is(p, j, "[") || is(p, j, "("))
            j = close_of(p, j) + 1;
        else if (is(p, j, ".") || is(p, j, "->"))
            j += 2;
        else
            j++;
    }
}

/* Whether the whole of (a, c) — a parenthesised expression — is an lvalue in memory. */
static bool paren_memory(const pass *p, size_t a, size_t c)
{
    size_t inner = a + 1;
    if (inner >= c || parse_unary(p, inner, c) != c)
        return false;
    return memory_lvalue(p, inner, c);
}

/* Whether chain level k (0: the primary alone) of [i, u) is an lvalue in memory. */
static bool chain_memory(const pass *p, size_t i, const chain *c, int k)
{
    if (k == 0) {
        const local *l = tok(p, i)->kind == LAT__TOK_IDENT ? local_at(p, i) : NULL;
        if (l)
            return l->tracked && !l->array;
        return is(p, i, "(") && !is(p, c->primary_end, "{") && paren_memory(p, i, c->primary_end - 1);
    }
    size_t s = c->seg[k - 1];
    if (is(p, s, "[") || is(p, s, "->"))
        return true;
    if (is(p, s, "."))
        return chain_memory(p, i, c, k - 1);
    return false; /* a call, ++ or -- */
}

/* Whether the unary expression [i, u) is an lvalue in memory. */
static bool memory_lvalue(const pass *p, size_t i, size_t u)
{
    if (is(p, i, "*"))
        return true;
    if (!operand_token(p, i) || is(p, i, "&") || is(p, i, "-") || is(p, i, "+") ||
        is(p, i, "!") || is(p, i, "~") || is(p, i, "++") || is(p, i, "--"))
        return false;
    if (is(p, i, "(")) {
        size_t c = close_of(p, i);
        if (type_name_in(p, i + 1, c) && !is(p, c + 1, "{"))
            return false; /* a cast: an rvalue */
    }
    chain c;
    split_chain(p, i, u, &c);
    return !c.too_long && chain_memory(p, i, &c, c.n);
}

/* Visits chain level k of [i, u) in mode md (the whole of level k is accessed so). */
static void visit_chain(pass *p, size_t i, const chain *c, int k, mode md)
{
    if (k == 0) {
        if (is(p, i, "(")) {
            size_t cl = close_of(p, i);
            if (cl + 1 < c->primary_end) {
                /* A compound literal: its initialisers are expressions. */
                rw_expr(p, cl + 2, c->primary_end - 1);
            } else if (i + 1 < cl && parse_unary(p, i + 1, cl) == cl) {
                visit_unary(p, i + 1, cl, md);
            } else {
                rw_expr(p, i + 1, cl);
            }
        }
        /* A tracked local is read or written by name; other identifiers, constants and
         * unevaluated operands need nothing. */
        const local *l = tok(p, i)->kind == LAT__TOK_IDENT ? local_at(p, i) : NULL;
        if (l && l->tracked && !l->array && md != M_ADDR)
            wrap(p, i, i + 1, md, SIZE_MAX);
        return;
    }
    size_t s = c->seg[k - 1];
    bool mem = chain_memory(p, i, c, k);
    bool wrap_here = mem && md != M_ADDR;
    if (is(p, s, ".")) {
        visit_chain(p, i, c, k - 1, M_ADDR); /* the member is accessed, not the whole */
    } else if (is(p, s, "->")) {
        visit_chain(p, i, c, k - 1, M_R);
    } else if (is(p, s, "[")) {
        visit_chain(p, i, c, k - 1, M_ADDR);
        rw_expr(p, s + 1, close_of(p, s));
    } else if (is(p, s, "(")) {
        visit_chain(p, i, c, k - 1, M_R);
        rw_expr(p, s + 1, close_of(p, s));
    } else { /* postfix ++ or -- */
        visit_chain(p, i, c, k - 1, M_RW);
    }
    if (wrap_here) {
        size_t last = is(p, s, "[") || is(p, s, "(") ? close_of(p, s) : is(p, s, ".") || is(p, s, "->") ? s + 1 : s;
        /* a[...] on an identifier: pass the array for bounds, when it is one. */
        size_t arr = k == 1 && is(p, s, "[") && tok(p, i)->kind == LAT__TOK_IDENT ? i : SIZE_MAX;
        wrap(p, i, last + 1, md, arr);
    }
}

/* Visits the unary expression [i, u) whose value is used as md says. */
static void visit_unary(pass *p, size_t i, size_t u, mode md)
{
    if (i >= u)
        return;
    if (is(p, i, "&")) {
        visit_unary(p, i + 1, u, M_ADDR);
        return;
    }
    if (is(p, i, "*")) {
        visit_unary(p, i + 1, u, M_R);
        if (md != M_ADDR)
            wrap(p, i, u, md, SIZE_MAX);
        return;
    }
    if (is(p, i, "++") || is(p, i, "--")) {
        visit_unary(p, i + 1, u, M_RW);
        return;
    }
    if (is(p, i, "-") || is(p, i, "+") || is(p, i, "!") || is(p, i, "~")) {
        visit_unary(p, i + 1, u, M_R);
        return;
    }
    if (word_in(p, i, unevaluated, sizeof unevaluated / sizeof unevaluated[0]))
        return; /* not evaluated: nothing is accessed */
    if (is(p, i, "(")) {
        size_t c = close_of(p, i);
        if (c < u && type_name_in(p, i + 1, c) && !is(p, c + 1, "{")) {
            visit_unary(p, c + 1, u, M_R); /* a cast */
            return;
        }
    }
    if (tok(p, i)->kind == LAT__TOK_IDENT && tok(p, i)->len > 6 &&
        memcmp(text(p, i), "__lat_", 6) == 0 && memcmp(text(p, i), "__lat_sh", 8) != 0)
        return; /* the thread context, region loops' per-thread storage: the emulator's own */
    chain c;
    split_chain(p, i, u, &c);
    if (c.too_long) {
        rw_expr(p, i + 1, u);
        return;
    }
    visit_chain(p, i, &c, c.n, md);
}

/* The mode an operand is used in, from the token after it. */
static mode mode_after(const pass *p, size_t u)
{
    if (is(p, u, "="))
        return M_W;
    static const char *const rw[] = {"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="};
    for (size_t k = 0; k < sizeof rw / sizeof rw[0]; k++)
        if (is(p, u, rw[k]))
            return M_RW;
    return M_R;
}

static bool ends_operand(const pass *p, size_t i)
{
    const lat__tok *t = tok(p, i);
    if (t->kind == LAT__TOK_IDENT)
        return !is_keyword(p, i);
    if (t->kind != LAT__TOK_PUNCT)
        return true;
    return is(p, i, ")") || is(p, i, "]") || is(p, i, "++") || is(p, i, "--");
}

static void block(pass *p, size_t b, size_t e);

/* An expression, or a run of them: [b, e). */
static void rw_expr(pass *p, size_t b, size_t e)
{
    bool after_operand = false;
    for (size_t i = b; i < e && !p->oom;) {
        if (is_pp(p, i)) {
            i++;
            continue;
        }
        if (is(p, i, "(") && is(p, i + 1, "{")) {
            /* A statement expression ({ ... }). */
            size_t c = close_of(p, i + 1);
            block(p, i + 2, c);
            i = close_of(p, i) + 1;
            after_operand = true;
            continue;
        }
        if (is(p, i, "{")) {
            /* An initialiser list: its elements are expressions. */
            size_t c = close_of(p, i);
            rw_expr(p, i + 1, c < e ? c : e);
            i = c + 1;
            after_operand = true;
            continue;
        }
        if (!after_operand && operand_token(p, i)) {
            size_t u = parse_unary(p, i, e);
            if (u <= i)
                u = i + 1;
            visit_unary(p, i, u, mode_after(p, u));
            i = u;
            after_operand = true;
            continue;
        }
        after_operand = ends_operand(p, i);
        i++;
    }
}

/* ---- statements ------------------------------------------------------------------------ */

/* The end of the expression or declaration that starts at i: the ';' (or e) at depth 0. */
static size_t stmt_end(const pass *p, size_t i, size_t e)
{
    while (i < e && !is(p, i, ";")) {
        if (is(p, i, "(") || is(p, i, "[") || is(p, i, "{"))
            i = close_of(p, i);
        i++;
    }
    return i < e ? i : e;
}

/* Whether a declaration starts at i (at the start of a statement). */
static bool decl_start(const pass *p, size_t i)
{
    if (!is_type_word(p, i))
        return false;
    if (is_typedef_name(p, i) && !word_in(p, i, type_words, sizeof type_words / sizeof type_words[0])) {
        size_t n = next(p, i);
        /* T x, T *x, T (*x)... but not T(x) used as a call or x = ... */
        return tok(p, n)->kind == LAT__TOK_IDENT || is(p, n, "*") ||
               (is(p, n, "(") && is(p, next(p, n), "*"));
    }
    return true;
}

/* A declaration [i, end): the initialisers are expressions, the rest is left alone. */
/* ---- local variables (initcheck) ------------------------------------------------------------- */

static const local *local_at(const pass *p, size_t i)
{
    const lat__tok *t = tok(p, i);
    if (t->kind != LAT__TOK_IDENT)
        return NULL;
    for (size_t k = p->nlocals; k-- > 0;) {
        const local *l = &p->locals[k];
        if (l->len == t->len && memcmp(l->name, text(p, i), t->len) == 0 && i > l->decl &&
            i <= l->end)
            return l;
    }
    return NULL;
}

/* Scalar type words whose every byte a write by name sets (with the prelude's integer
 * typedefs). */
static const char *const scalar_words[] = {
    "char", "short", "int", "long", "float", "double", "signed", "unsigned", "_Bool", "bool",
};

/* Whether the variable at token name is only ever used by name in (name, e]: never has
 * its address taken; an array, never used but indexed (no pointer to it escapes). */
static bool stays_named(const pass *p, size_t name, size_t e, bool array)
{
    const lat__tok *t = tok(p, name);
    for (size_t k = next(p, name); k <= e && k < p->tk.count; k = next(p, k)) {
        if (tok(p, k)->len != t->len || memcmp(text(p, k), text(p, name), t->len) != 0)
            continue;
        if (k > 0 && (is(p, k - 1, ".") || is(p, k - 1, "->")))
            continue; /* a member of that name */
        if (k > 0 && is(p, k - 1, "&"))
            return false;
        if (array && !is(p, next(p, k), "["))
            return false;
    }
    return true;
}

static void declare_local(pass *p, size_t spec_b, size_t db, size_t de, bool init,
                          size_t stmt_end_tok, size_t scope_e, bool can_insert)
{
    size_t name = SIZE_MAX;
    bool pointer = false, parens = false, array = false;
    for (size_t k = db; k < de; k++) {
        if (is_pp(p, k))
            continue;
        if (is(p, k, "*"))
            pointer = true;
        else if (is(p, k, "("))
            parens = true;
        else if (is(p, k, "["))
            array = name != SIZE_MAX;
        else if (name == SIZE_MAX && tok(p, k)->kind == LAT__TOK_IDENT && !is_type_word(p, k))
            name = k;
    }
    if (name == SIZE_MAX || p->oom)
        return;
    /* A pointer, or specifiers that are all scalar type words (not a struct, a vector
     * type, const...); no storage class that puts it elsewhere than the stack. */
    bool storage = false, all_scalar = db > spec_b;
    for (size_t k = spec_b; k < db; k++) {
        if (is_pp(p, k))
            continue;
        if (is(p, k, "static") || is(p, k, "extern") || is(p, k, "register") ||
            is(p, k, "typedef") || is(p, k, "volatile") || is(p, k, "__shared__") ||
            is(p, k, "__constant__"))
            storage = true;
        if (!word_in(p, k, scalar_words, sizeof scalar_words / sizeof scalar_words[0]) &&
            !word_in(p, k, prelude_integer_types,
                     sizeof prelude_integer_types / sizeof prelude_integer_types[0]))
            all_scalar = false;
    }
    bool scalar = pointer || all_scalar;
    bool tracked = !init && can_insert && !storage && !parens && scalar &&
                   !(tok(p, name)->len > 6 && memcmp(text(p, name), "__lat_", 6) == 0) &&
                   stays_named(p, name, scope_e, array);
    if (p->nlocals == p->locals_cap) {
        size_t cap = p->locals_cap ? p->locals_cap * 2 : 32;
        local *n = realloc(p->locals, cap * sizeof *n);
        if (!n) {
            p->oom = true;
            return;
        }
        p->locals = n;
        p->locals_cap = cap;
    }
    p->locals[p->nlocals++] = (local){text(p, name), tok(p, name)->len, name, scope_e, tracked, array};
    if (tracked) {
        /* Its bytes are unwritten from here on (each time the declaration is reached). */
        char mark[200];
        snprintf(mark, sizeof mark, " __lat_ck_local(__lat_t, &%.*s, sizeof %.*s);",
                 (int)tok(p, name)->len, text(p, name), (int)tok(p, name)->len, text(p, name));
        insert_after(p, stmt_end_tok, mark);
    }
}

/* A declaration [i, end) (end: its ';', or the end of a for's first part) in a block
 * whose scope ends at scope_e; can_insert: a statement may follow it (not in a for). */
static void declaration(pass *p, size_t i, size_t end, size_t scope_e, bool can_insert)
{
    size_t spec_b = i;
    /* Specifiers: up to the first declarator. */
    while (i < end) {
        if (is(p, i, "struct") || is(p, i, "union") || is(p, i, "enum")) {
            i++;
            if (tok(p, i)->kind == LAT__TOK_IDENT)
                i++;
            if (is(p, i, "{"))
                i = close_of(p, i) + 1;
            continue;
        }
        if ((is(p, i, "__attribute__") || is(p, i, "__align__") || is(p, i, "_Alignas")) &&
            is(p, i + 1, "(")) {
            i = close_of(p, i + 1) + 1;
            continue;
        }
        if (is_type_word(p, i) && !(is_typedef_name(p, i) && i > 0 &&
                                    (tok(p, i - 1)->kind == LAT__TOK_IDENT &&
                                     is_typedef_name(p, i - 1)))) {
            i++;
            continue;
        }
        break;
    }
    /* Declarators, each maybe with "= initialiser". */
    while (i < end && !p->oom) {
        size_t db = i;
        while (i < end && !is(p, i, "=") && !is(p, i, ",")) {
            if (is(p, i, "(") || is(p, i, "[") || is(p, i, "{"))
                i = close_of(p, i);
            i++;
        }
        declare_local(p, spec_b, db, i < end ? i : end, i < end && is(p, i, "="), end, scope_e,
                      can_insert);
        if (i >= end)
            return;
        if (is(p, i, ",")) {
            i++;
            continue;
        }
        size_t b = i + 1, j = b;
        while (j < end && !is(p, j, ",")) {
            if (is(p, j, "(") || is(p, j, "[") || is(p, j, "{"))
                j = close_of(p, j);
            j++;
        }
        if (j > end)
            j = end;
        rw_expr(p, b, j);
        i = j + 1;
    }
}

/* The condition of a loop: (b, c) between its parentheses, with the tick in front. */
static void loop_condition(pass *p, size_t b, size_t c)
{
    while (b < c && is_pp(p, b))
        b++; /* a #line marker (region loops' text): the tick goes after it */
    if (b >= c) {
        insert_before(p, c, "__LAT_TICK, 1");
        return;
    }
    insert_before(p, b, "__LAT_TICK, ");
    rw_expr(p, b, c);
}

/* The statements of a block body [b, e). */
static void block(pass *p, size_t b, size_t e)
{
    bool start = true;
    for (size_t i = b; i < e && !p->oom;) {
        if (is_pp(p, i)) {
            i++;
            continue;
        }
        if (is(p, i, "{") || is(p, i, "}") || is(p, i, ";")) {
            if (is(p, i, "{")) {
                size_t c = close_of(p, i);
                block(p, i + 1, c < e ? c : e);
                i = c + 1;
            } else {
                i++;
            }
            start = true;
            continue;
        }
        if ((is(p, i, "if") || is(p, i, "switch") || is(p, i, "while")) && is(p, next(p, i), "(")) {
            size_t o = next(p, i), c = close_of(p, o);
            if (is(p, i, "while"))
                loop_condition(p, o + 1, c);
            else
                rw_expr(p, o + 1, c);
            i = c + 1;
            start = true;
            continue;
        }
        if (is(p, i, "for") && is(p, next(p, i), "(")) {
            size_t o = next(p, i), c = close_of(p, o);
            size_t s1 = stmt_end(p, o + 1, c);
            if (decl_start(p, o + 1))
                declaration(p, o + 1, s1, e, false);
            else
                rw_expr(p, o + 1, s1);
            size_t s2 = s1 < c ? stmt_end(p, s1 + 1, c) : c;
            if (s1 < c)
                loop_condition(p, s1 + 1, s2);
            if (s2 < c)
                rw_expr(p, s2 + 1, c);
            i = c + 1;
            start = true;
            continue;
        }
        if (is(p, i, "do") || is(p, i, "else")) {
            i++;
            start = true;
            continue;
        }
        if (is(p, i, "case")) {
            while (i < e && !is(p, i, ":"))
                i++;
            i++;
            start = true;
            continue;
        }
        if (is(p, i, "default") && is(p, next(p, i), ":")) {
            i = next(p, i) + 1;
            start = true;
            continue;
        }
        if (is(p, i, "goto") || is(p, i, "break") || is(p, i, "continue")) {
            i = stmt_end(p, i, e);
            continue;
        }
        if (start && tok(p, i)->kind == LAT__TOK_IDENT && !is_keyword(p, i) &&
            is(p, next(p, i), ":")) {
            i = next(p, i) + 1; /* a label */
            continue;
        }
        if (is(p, i, "return")) {
            size_t s = stmt_end(p, i + 1, e);
            rw_expr(p, i + 1, s);
            i = s;
            continue;
        }
        size_t s = stmt_end(p, i, e);
        if (start && decl_start(p, i))
            declaration(p, i, s, e, true);
        else
            rw_expr(p, i, s);
        i = s;
        start = true;
    }
}

/* The functions of the program that take the thread context: their bodies. */
static void functions(pass *p)
{
    int depth = 0;
    for (size_t i = 0; i < p->tk.count && !p->oom; i++) {
        if (is_pp(p, i))
            continue;
        if (is(p, i, "{")) {
            depth++;
            continue;
        }
        if (is(p, i, "}")) {
            depth--;
            continue;
        }
        if (depth != 0 || tok(p, i)->kind != LAT__TOK_IDENT || !is(p, i + 1, "(") ||
            !is(p, i + 2, "lat_emu_thread") || !is(p, i + 3, "*") || !is(p, i + 4, "__lat_t"))
            continue;
        if (tok(p, i)->len > 6 && memcmp(text(p, i), "__lat_", 6) == 0)
            continue; /* a generated entry */
        size_t c = close_of(p, i + 1);
        size_t o = next(p, c);
        while (tok(p, o)->kind == LAT__TOK_IDENT && is(p, next(p, o), "(")) /* attributes */
            o = next(p, close_of(p, next(p, o)));
        if (!is(p, o, "{"))
            continue;
        size_t end = close_of(p, o);
        p->nlocals = 0;
        block(p, o + 1, end);
        i = end; /* the body's braces are not counted: depth stays 0 */
    }
}

/* ---- the whole ------------------------------------------------------------------------------- */

void lat__ck_module_free(lat__ck_module *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->nstrings; i++)
        free(m->strings[i]);
    free(m->strings);
    free(m->sites);
    free(m);
}

lat_status lat__ck_instrument(char **text_io, lat__ck_module **out)
{
    *out = calloc(1, sizeof **out);
    if (!*out)
        return LAT_ERROR_OUT_OF_MEMORY;
    pass p;
    memset(&p, 0, sizeof p);
    p.src = *text_io;
    p.m = *out;
    if (lat__lex(p.src, &p.tk) != 0)
        return LAT_ERROR_OUT_OF_MEMORY;
    p.line = malloc((p.tk.count + 1) * sizeof *p.line);
    p.file = malloc((p.tk.count + 1) * sizeof *p.file);
    lat_status st = LAT_OK;
    if (!p.line || !p.file) {
        p.oom = true;
    } else {
        map_lines(&p);
        learn_typedefs(&p);
        learn_shared_names(&p);
        functions(&p);
    }
    char *res = NULL;
    size_t len = 0;
    if (!p.oom) {
        if (p.nins > 0)
            qsort(p.ins, p.nins, sizeof *p.ins, ins_cmp);
        if (lat__strbuf_append(&res, &len, prefix, sizeof prefix - 1) != 0)
            p.oom = true;
        size_t at = 0;
        for (size_t k = 0; k < p.nins && !p.oom; k++) {
            if (lat__strbuf_append(&res, &len, p.src + at, p.ins[k].off - at) != 0 ||
                lat__strbuf_append(&res, &len, p.ins[k].text, strlen(p.ins[k].text)) != 0)
                p.oom = true;
            at = p.ins[k].off;
        }
        if (!p.oom && lat__strbuf_append(&res, &len, p.src + at, strlen(p.src + at)) != 0)
            p.oom = true;
    }
    if (p.oom) {
        free(res);
        st = LAT_ERROR_OUT_OF_MEMORY;
    } else {
        free(*text_io);
        *text_io = res;
    }
    for (size_t k = 0; k < p.nins; k++)
        free(p.ins[k].text);
    free(p.ins);
    free(p.locals);
    free(p.line);
    free(p.file);
    lat__map_free(&p.types);
    lat__toks_free(&p.tk);
    return st;
}
