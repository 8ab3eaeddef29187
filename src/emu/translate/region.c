/*
 * Region loops (MCUDA's technique): a kernel with barriers or warp operations written in
 * its own body, in structured control flow, runs without fibers. Its body is cut at
 * every barrier and warp operation into segments, and each segment becomes a loop over
 * the block's threads:
 *
 *     a; __syncthreads(); b;   ->   for each thread { a }   for each thread { b }
 *
 * Control flow that contains a barrier runs once for the block; each thread keeps a
 * state in __lat_sk: 0 active, 2L inactive in the construct of level L (a false
 * condition, a `break`), 2L+1 until the end of the iteration (a `continue`), EXITED after
 * `return`. An `if` runs its branches over the threads its condition selected; a loop
 * goes on while any thread is active in it. A block barrier inside such a construct
 * needs every thread that has not exited: the launch fails otherwise (a thread would
 * wait there for ever on a GPU, or the program relies on Volta counting arrivals at
 * different barriers, which region loops cannot reproduce).
 *
 * A local variable declared at block level and used in more than one segment lives in
 * per-thread storage (__lat_rN[thread]); each segment that uses it declares a local of
 * the same name, loaded at the segment's start and stored back at its end, so the
 * user's code reads unchanged. A warp operation's value is stored by every thread in one
 * segment and read from its source lane in the next.
 *
 * The plan is made from the tokens when the kernel's definition is met; the body is then
 * written as usual (every rewrite applied), and at its closing brace the written text is
 * cut into the planned pieces, with #line markers keeping each on its user line.
 */
#include "walk.h"

#include "emu/abi.h"
#include "emu/prelude.h"
#include "emu/warp.h"
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N_PLAIN, N_BLOCK, N_IF, N_FOR, N_WHILE, N_DO, N_SYNC, N_LEVEL };
enum { EXITED = LAT_EMU_REGION_EXITED, MAX_NODES = 100000 };

typedef struct node {
    int kind;
    size_t b, e;    /* first and last token */
    bool sync;      /* contains a barrier or warp operation */
    bool decl;      /* N_PLAIN: a declaration */
    bool barrier;   /* N_SYNC: __syncthreads (else __syncwarp) */
    int kid, next;  /* N_BLOCK: first child; siblings */
    int then_n, else_n, body_n;
    size_t cb, ce;  /* condition tokens [cb, ce) */
    size_t ib, ie;  /* for: init [ib, ie) and increment [xb, xe) */
    size_t xb, xe;
    int level;      /* N_IF and loops with sync: nesting level, from 1 */
    int cand;       /* first candidate it declares (-1), ncand of them */
    int ncand;
    bool uniform;   /* N_IF, N_FOR: every thread takes it alike (block-level control);
                       N_PLAIN: a declaration of values every thread computes alike */
} node;

/* A warp operation or _count/_and/_or barrier in an expression. */
typedef struct wcall {
    size_t name, open, close;
    size_t ab[4], ae[4]; /* arguments [ab, ae) */
    int nargs;
    int op;    /* LAT_EMU_W_*, or BVOTE + kind for __syncthreads_count/and/or */
    int id;    /* its storage */
} wcall;
enum { BVOTE = 100 };

/* A variable declared at block level (or a modified parameter). */
typedef struct cand {
    const char *name;
    size_t len;
    size_t name_tok, scope_e; /* in scope after name_tok, up to scope_e */
    size_t spec_b, spec_e;    /* the declaration's specifiers */
    size_t ptr_b;             /* the declarator: [ptr_b, name) pointers, then the name */
    size_t suf_b, suf_e;      /* its array suffix [suf_b, suf_e) */
    bool is_const, array, param;
    bool init; /* declared with an initializer */
    int seg;  /* the segment declaring it (-1: a parameter, before any) */
    int mark; /* last segment that used it */
    bool repl;
    bool recompute;         /* never changes: each segment computes it again */
    size_t init_b, init_e;  /* its initializer */
} cand;

/* A variable every thread holds alike, declared at block level (a uniform loop's). */
typedef struct uvar {
    const char *name;
    size_t len, name_tok, scope_e;
} uvar;

typedef struct lat__region {
    walk *w;
    size_t open, close;
    node *n;
    int nn, ncap;
    wcall *wc;
    int nwc, wcap;
    cand *c;
    int nc, ccap;
    size_t *fixes; /* break/continue tokens and their replacement level (2 per entry) */
    int nfix, fixcap;
    int root;
    bool bad;
    const char *why;
    uvar *uv;
    int nuv, uvcap;
    size_t param_tok[256]; /* the parameters' names, and whether the body changes each */
    bool param_mod[256];
    int nparams;
    /* generation */
    bool dry;
    int seg_stmts, seg_first; /* statements in the open segment, and the first */
    bool may_exit; /* a thread may return early: segments check who has */
    size_t *ranges; /* the token ranges the open segment holds */
    int nranges, rangecap;
    int level, maxlevel;
    int nseg;
    int seg;      /* the open segment, or -1 */
    bool seg_all; /* the open segment visits inactive threads too */
    char *seg_pre;
    char *seg_text;
    size_t seg_len;
    int *used; /* candidates used by the open segment */
    int nused, usedcap;
    char *out;
    size_t out_len;
    bool oom;
    /* the written body */
    size_t *outpos; /* per token of [open, close]: output offset of its start */
    char *body;
    size_t body_base;
} lat__region;

/* ---- small helpers -------------------------------------------------------------------- */

static void grow(void **p, int *cap, int n, size_t size, bool *oom)
{
    if (n < *cap)
        return;
    int c = *cap ? *cap * 2 : 64;
    void *q = realloc(*p, (size_t)c * size);
    if (!q) {
        *oom = true;
        return;
    }
    *p = q;
    *cap = c;
}

static void put(lat__region *r, char **buf, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void put(lat__region *r, char **buf, size_t *len, const char *fmt, ...)
{
    if (r->dry || r->oom)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *piece = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!piece) {
        r->oom = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(piece, (size_t)n + 1, fmt, ap);
    va_end(ap);
    if (lat__strbuf_append(buf, len, piece, (size_t)n) != 0)
        r->oom = true;
    free(piece);
}

#define OUT(...) put(r, &r->out, &r->out_len, __VA_ARGS__)
#define SEG(...) (r->seg_stmts += 2, put(r, &r->seg_text, &r->seg_len, __VA_ARGS__))

static bool isw(const lat__region *r, size_t i, const char *s)
{
    return is(r->w, i, s);
}

static size_t nc(const lat__region *r, size_t i)
{
    return next_code(r->w, i);
}

static void fail(lat__region *r, const char *why)
{
    if (!r->bad)
        r->why = why;
    r->bad = true;
}

/* ---- the names that matter ----------------------------------------------------------- */

static int warp_op(const walk *w, size_t i)
{
    static const struct {
        const char *name;
        int op;
    } ops[] = {
        {"__shfl_sync", LAT_EMU_W_SHFL},         {"__shfl_up_sync", LAT_EMU_W_UP},
        {"__shfl_down_sync", LAT_EMU_W_DOWN},    {"__shfl_xor_sync", LAT_EMU_W_XOR},
        {"__ballot_sync", LAT_EMU_W_BALLOT},     {"__any_sync", LAT_EMU_W_ANY},
        {"__all_sync", LAT_EMU_W_ALL},           {"__match_any_sync", LAT_EMU_W_MATCH_ANY},
        {"__match_all_sync", LAT_EMU_W_MATCH_ALL}, {"__reduce_add_sync", LAT_EMU_W_ADD},
        {"__reduce_min_sync", LAT_EMU_W_MIN},    {"__reduce_max_sync", LAT_EMU_W_MAX},
        {"__reduce_and_sync", LAT_EMU_W_AND},    {"__reduce_or_sync", LAT_EMU_W_OR},
        {"__reduce_xor_sync", LAT_EMU_W_XORR},   {"__activemask", LAT_EMU_W_ACTIVE},
        {"__syncthreads_count", BVOTE + 1},      {"__syncthreads_and", BVOTE + 2},
        {"__syncthreads_or", BVOTE + 3},
    };
    if (tok(w, i)->kind != LAT__TOK_IDENT)
        return -1;
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        if (is(w, i, ops[k].name))
            return ops[k].op;
    return -1;
}

/* Whether identifier i reaches a barrier through a function or macro (fibers then). */
static bool reaches_sync_indirectly(const lat__region *r, size_t i)
{
    const tr *t = r->w->t;
    const char *s = text_of(r->w, i);
    size_t n = tok(r->w, i)->len;
    size_t at;
    if (lat__map_get(&t->fn_index, s, n, &at) && t->fns[at].sync)
        return true;
    if (lat__map_get(&t->mac_index, s, n, &at) && t->macs[at].sync)
        return true;
    return false;
}

static bool is_prelude_type(const walk *w, size_t i)
{
    static const char *const names[] = {
        "int8_t",  "uint8_t",  "int16_t",  "uint16_t", "int32_t",  "uint32_t", "int64_t",
        "uint64_t", "size_t",  "ptrdiff_t", "ssize_t", "intptr_t", "uintptr_t", "intmax_t",
        "uintmax_t", "uint3",  "dim3",     "cudaTextureObject_t",
    };
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        if (is(w, i, names[k]))
            return true;
    return lat__emu_is_vector_type(text_of(w, i), tok(w, i)->len);
}

/* Whether the simple statement starting at i declares variables. */
static bool looks_like_decl(const lat__region *r, size_t i)
{
    const walk *w = r->w;
    if (lat__tok_is_type_word(w->toks, tok(w, i)) || is_prelude_type(w, i))
        return true;
    if (tok(w, i)->kind != LAT__TOK_IDENT || isw(r, i, "return") || isw(r, i, "sizeof"))
        return false;
    size_t j = nc(r, i);
    if (tok(w, j)->kind == LAT__TOK_IDENT)
        return true; /* T x */
    if (!isw(r, j, "*"))
        return false;
    while (isw(r, j, "*") || lat__tok_is_qualifier(w->toks, tok(w, j)))
        j = nc(r, j);
    if (tok(w, j)->kind != LAT__TOK_IDENT)
        return false;
    j = nc(r, j);
    return isw(r, j, "=") || isw(r, j, ";") || isw(r, j, ",") || isw(r, j, "[");
}

/* ---- parsing the body into statements ------------------------------------------------ */

static int new_node(lat__region *r, int kind, size_t b)
{
    if (r->nn >= MAX_NODES) {
        fail(r, "the kernel is too long");
        return -1;
    }
    grow((void **)&r->n, &r->ncap, r->nn, sizeof *r->n, &r->oom);
    if (r->oom)
        return -1;
    node *n = &r->n[r->nn];
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->b = n->e = b;
    n->kid = n->next = n->then_n = n->else_n = n->body_n = -1;
    n->cand = -1;
    return r->nn++;
}

static void add_fix(lat__region *r, size_t t, int target, int plus)
{
    grow((void **)&r->fixes, &r->fixcap, r->nfix * 3 + 3, sizeof *r->fixes, &r->oom);
    if (r->oom)
        return;
    r->fixes[r->nfix * 3] = t;
    r->fixes[r->nfix * 3 + 1] = (size_t)target;
    r->fixes[r->nfix * 3 + 2] = (size_t)plus;
    r->nfix++;
}

/* The end of a simple statement starting at i: its ';'. */
static size_t stmt_end(lat__region *r, size_t i)
{
    size_t j = i;
    while (j < r->close && !isw(r, j, ";")) {
        if (isw(r, j, "(") || isw(r, j, "[") || isw(r, j, "{"))
            j = lat__match_close(r->w->toks, j);
        if (j >= r->close) {
            fail(r, "a statement the translator cannot read");
            return r->close;
        }
        j = nc(r, j);
    }
    return j;
}

static int parse_stmt(lat__region *r, size_t i, int loop, int brk);

static size_t paren_cond(lat__region *r, size_t i, node *n)
{
    size_t p = nc(r, i);
    if (!isw(r, p, "(")) {
        fail(r, "a statement the translator cannot read");
        return r->close;
    }
    size_t c = lat__match_close(r->w->toks, p);
    n->cb = nc(r, p);
    n->ce = c;
    return c;
}

static int parse_stmt(lat__region *r, size_t i, int loop, int brk)
{
    if (r->bad || r->oom || i >= r->close)
        return -1;
    walk *w = r->w;
    int id;
    if (isw(r, i, "{")) {
        id = new_node(r, N_BLOCK, i);
        if (id < 0)
            return -1;
        int last = -1;
        size_t j = nc(r, i);
        while (j < r->close && !isw(r, j, "}") && !r->bad) {
            int k = parse_stmt(r, j, loop, brk);
            if (k < 0)
                return -1;
            if (last < 0)
                r->n[id].kid = k;
            else
                r->n[last].next = k;
            last = k;
            j = nc(r, r->n[k].e);
        }
        r->n[id].e = lat__match_close(w->toks, i);
        return id;
    }
    if (isw(r, i, "if")) {
        id = new_node(r, N_IF, i);
        if (id < 0)
            return -1;
        size_t c = paren_cond(r, i, &r->n[id]);
        int t = parse_stmt(r, nc(r, c), loop, brk);
        if (t < 0)
            return -1;
        r->n[id].then_n = t;
        r->n[id].e = r->n[t].e;
        size_t el = nc(r, r->n[t].e);
        if (isw(r, el, "else")) {
            int e = parse_stmt(r, nc(r, el), loop, brk);
            if (e < 0)
                return -1;
            r->n[id].else_n = e;
            r->n[id].e = r->n[e].e;
        }
        return id;
    }
    if (isw(r, i, "for") || isw(r, i, "while") || isw(r, i, "switch")) {
        bool is_for = isw(r, i, "for"), is_switch = isw(r, i, "switch");
        id = new_node(r, is_for ? N_FOR : is_switch ? N_PLAIN : N_WHILE, i);
        if (id < 0)
            return -1;
        size_t c = paren_cond(r, i, &r->n[id]);
        if (is_for) {
            node *n = &r->n[id];
            size_t s1 = n->cb, s2;
            n->ib = n->cb;
            while (s1 < c && !isw(r, s1, ";")) {
                if (isw(r, s1, "(") || isw(r, s1, "[") || isw(r, s1, "{"))
                    s1 = lat__match_close(w->toks, s1);
                s1 = nc(r, s1);
            }
            s2 = s1 < c ? nc(r, s1) : c;
            while (s2 < c && !isw(r, s2, ";")) {
                if (isw(r, s2, "(") || isw(r, s2, "["))
                    s2 = lat__match_close(w->toks, s2);
                s2 = nc(r, s2);
            }
            if (s1 >= c || s2 >= c) {
                fail(r, "a for statement the translator cannot read");
                return -1;
            }
            n->ie = s1;
            n->cb = nc(r, s1);
            n->ce = s2;
            n->xb = nc(r, s2);
            n->xe = c;
        }
        int b = parse_stmt(r, nc(r, c), is_switch ? loop : id, id);
        if (b < 0)
            return -1;
        r->n[id].body_n = b;
        r->n[id].e = r->n[b].e;
        return id;
    }
    if (isw(r, i, "do")) {
        id = new_node(r, N_DO, i);
        if (id < 0)
            return -1;
        int b = parse_stmt(r, nc(r, i), id, id);
        if (b < 0)
            return -1;
        r->n[id].body_n = b;
        size_t wh = nc(r, r->n[b].e);
        if (!isw(r, wh, "while")) {
            fail(r, "a do statement the translator cannot read");
            return -1;
        }
        size_t c = paren_cond(r, wh, &r->n[id]);
        r->n[id].e = nc(r, c);
        return id;
    }
    id = new_node(r, N_PLAIN, i);
    if (id < 0)
        return -1;
    if (isw(r, i, "case") || isw(r, i, "default")) {
        size_t j = i;
        while (j < r->close && !isw(r, j, ":"))
            j = isw(r, j, "(") ? nc(r, lat__match_close(w->toks, j)) : nc(r, j);
        int s = parse_stmt(r, nc(r, j), loop, brk);
        if (s < 0)
            return -1;
        r->n[id].e = r->n[s].e;
        return id;
    }
    if (tok(w, i)->kind == LAT__TOK_IDENT && isw(r, nc(r, i), ":") && !isw(r, i, "default")) {
        fail(r, "a label");
        return -1;
    }
    if (isw(r, i, "goto")) {
        fail(r, "goto");
        return -1;
    }
    if (isw(r, i, "break") || isw(r, i, "continue")) {
        int target = isw(r, i, "break") ? brk : loop;
        if (target >= 0)
            add_fix(r, i, target, isw(r, i, "continue"));
    }
    if (isw(r, i, "typedef") || isw(r, i, "static") || isw(r, i, "__shared__") ||
        isw(r, i, "extern") || isw(r, i, "volatile") || isw(r, i, "struct") ||
        isw(r, i, "union") || isw(r, i, "enum")) {
        size_t e = stmt_end(r, i);
        bool shared = false, body = false;
        for (size_t j = i; j < e; j = nc(r, j)) {
            shared |= isw(r, j, "__shared__");
            body |= isw(r, j, "{") && !isw(r, prev_code(w, j), "=");
        }
        r->n[id].e = e;
        if (body) {
            fail(r, "a type defined inside the kernel");
            return -1;
        }
        if (shared || isw(r, i, "typedef") || isw(r, i, "static") || isw(r, i, "extern")) {
            r->n[id].kind = N_LEVEL; /* once for the block */
            return id;
        }
    }
    if (isw(r, i, "__syncthreads") || isw(r, i, "__syncwarp")) {
        size_t p = nc(r, i);
        size_t c = isw(r, p, "(") ? lat__match_close(w->toks, p) : r->close;
        if (c < r->close && isw(r, nc(r, c), ";")) {
            r->n[id].kind = N_SYNC;
            r->n[id].barrier = isw(r, i, "__syncthreads");
            r->n[id].e = nc(r, c);
            return id;
        }
    }
    r->n[id].e = stmt_end(r, i);
    r->n[id].decl = looks_like_decl(r, i);
    return id;
}

/* Marks the statements that hold barriers or warp operations, and checks where they are. */
static bool mark_sync(lat__region *r, int id)
{
    if (id < 0)
        return false;
    node *n = &r->n[id];
    bool s = false;
    switch (n->kind) {
    case N_BLOCK:
        for (int k = n->kid; k >= 0; k = r->n[k].next)
            s |= mark_sync(r, k);
        break;
    case N_IF:
        s = mark_sync(r, n->then_n);
        s |= mark_sync(r, n->else_n);
        break;
    case N_FOR:
    case N_WHILE:
    case N_DO:
        s = mark_sync(r, n->body_n);
        break;
    case N_SYNC:
        s = true;
        break;
    default:
        break;
    }
    /* The tokens outside the nested statements: conditions, simple statements. */
    for (size_t j = n->b; j <= n->e && j < r->close; j = nc(r, j)) {
        if (tok(r->w, j)->kind != LAT__TOK_IDENT)
            continue;
        if (reaches_sync_indirectly(r, j))
            fail(r, "a barrier or warp operation reached through a function or macro");
        bool block;
        if (lat__tr_is_sync_name(text_of(r->w, j), tok(r->w, j)->len, &block))
            s = true;
    }
    n = &r->n[id];
    n->sync = s;
    if (!s)
        return false;
    if (n->kind == N_PLAIN) {
        /* Only a simple statement may hold a warp operation; never a barrier. */
        if (isw(r, n->b, "return") || isw(r, n->b, "switch") || isw(r, n->b, "case") ||
            isw(r, n->b, "default"))
            fail(r, "a barrier or warp operation in a switch or a return statement");
        for (size_t j = n->b; j <= n->e; j = nc(r, j))
            if (isw(r, j, "__syncthreads") || isw(r, j, "__syncwarp"))
                fail(r, "a barrier inside an expression");
    }
    if (n->kind == N_FOR)
        for (size_t j = n->ib; j < n->xe; j = nc(r, j))
            if ((j < n->ie || j >= n->xb) && warp_op(r->w, j) >= 0)
                fail(r, "a warp operation in a for statement's first or third part");
    return true;
}

static void assign_levels(lat__region *r, int id, int level)
{
    if (id < 0)
        return;
    node *n = &r->n[id];
    if (!n->sync)
        return;
    int inner = level;
    if (n->kind == N_IF || n->kind == N_FOR || n->kind == N_WHILE || n->kind == N_DO) {
        n->level = level + 1;
        inner = level + 1;
        if (inner > r->maxlevel)
            r->maxlevel = inner;
    }
    if (n->kind == N_BLOCK)
        for (int k = n->kid; k >= 0; k = r->n[k].next)
            assign_levels(r, k, level);
    assign_levels(r, n->then_n, inner);
    assign_levels(r, n->else_n, inner);
    assign_levels(r, n->body_n, inner);
}

static int find_cand(lat__region *r, size_t k);
/* The candidate identifier k names, if any (used or not). */
static int find_cand_any(lat__region *r, size_t k)
{
    return find_cand(r, k);
}

/* ---- what every thread computes alike ---------------------------------------------------- */

static bool assign_op(const lat__region *r, size_t j)
{
    static const char *const ops[] = {"=", "+=", "-=", "*=", "/=", "%=", "&=",
                                      "|=", "^=", "<<=", ">>=", "++", "--"};
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        if (isw(r, j, ops[k]))
            return true;
    return false;
}

/* Whether the token before j ends an operand (so j is a binary operator). */
static bool after_operand(const lat__region *r, size_t j)
{
    size_t p = prev_code(r->w, j);
    if (p == SIZE_MAX)
        return false;
    const lat__tok *t = tok(r->w, p);
    if (t->kind == LAT__TOK_IDENT)
        return !isw(r, p, "return") && !isw(r, p, "sizeof");
    if (t->kind == LAT__TOK_NUMBER || t->kind == LAT__TOK_CHAR)
        return true;
    return isw(r, p, ")") || isw(r, p, "]");
}

/* Whether the variable named at token k is written through: k followed by a chain of
 * `.member` (and `[index]` when index_counts: an array's elements) and then an assignment
 * or an increment. */
static bool written_at(const lat__region *r, size_t k, bool index_counts)
{
    size_t x = nc(r, k);
    for (;;) {
        if (isw(r, x, ".") && tok(r->w, nc(r, x))->kind == LAT__TOK_IDENT)
            x = nc(r, nc(r, x));
        else if (index_counts && isw(r, x, "["))
            x = nc(r, lat__match_close(r->w->toks, x));
        else
            break;
    }
    return assign_op(r, x);
}

/* Whether the variable named at name_tok is assigned, incremented or has its address
 * taken in tokens (name_tok, e]. */
static bool modified_in(const lat__region *r, size_t name_tok, size_t e)
{
    const char *s = text_of(r->w, name_tok);
    size_t n = tok(r->w, name_tok)->len;
    for (size_t k = nc(r, name_tok); k <= e && k < r->close; k = nc(r, k)) {
        if (tok(r->w, k)->len != n || memcmp(text_of(r->w, k), s, n) != 0)
            continue;
        size_t p = prev_code(r->w, k), x = nc(r, k);
        if (isw(r, p, ".") || isw(r, p, "->"))
            continue;
        (void)x;
        if (written_at(r, k, true) || isw(r, p, "++") || isw(r, p, "--") ||
            (isw(r, p, "&") && !after_operand(r, p)))
            return true;
    }
    return false;
}

static bool is_param_unmodified(const lat__region *r, size_t k)
{
    for (int p = 0; p < r->nparams; p++)
        if (tok(r->w, r->param_tok[p])->len == tok(r->w, k)->len &&
            memcmp(text_of(r->w, r->param_tok[p]), text_of(r->w, k), tok(r->w, k)->len) == 0)
            return !r->param_mod[p];
    return false;
}

static const uvar *find_uvar(const lat__region *r, size_t k)
{
    for (int u = r->nuv - 1; u >= 0; u--) {
        const uvar *v = &r->uv[u];
        if (v->len == tok(r->w, k)->len && memcmp(v->name, text_of(r->w, k), v->len) == 0 &&
            k > v->name_tok && k <= v->scope_e)
            return v;
    }
    return NULL;
}

/* An object-like macro whose value is a constant expression. */
static bool constant_macro(const lat__region *r, size_t k)
{
    const lat__macro *m = lat__macros_find(&r->w->t->macros, text_of(r->w, k), tok(r->w, k)->len);
    if (!m || !m->defined || !m->value || m->uncertain)
        return false;
    for (size_t i = 0; i < m->vlen; i++) {
        char c = m->value[i];
        if (!(c == ' ' || c == '\t' || (c >= '0' && c <= '9') || strchr("()+-*/%<>&|^~xXuUlLfF.", c) ||
              (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
            return false;
    }
    return true;
}

/* Whether tokens [b, e) compute the same value in every thread: built-in block values,
 * constants, unmodified parameters, uniform variables, arithmetic; no memory, no calls.
 * per_thread: threadIdx and recomputable variables are allowed too. loopvar: a name
 * that may be assigned (a uniform loop's increment), or SIZE_MAX. */
static bool expr_is(lat__region *r, size_t b, size_t e, bool per_thread, size_t loopvar)
{
    if (b >= e)
        return false;
    for (size_t j = b; j < e; j = nc(r, j)) {
        const lat__tok *t = tok(r->w, j);
        if (t->kind == LAT__TOK_NUMBER || t->kind == LAT__TOK_CHAR)
            continue;
        if (t->kind == LAT__TOK_STRING)
            return false;
        if (t->kind == LAT__TOK_PUNCT) {
            if (isw(r, j, "[") || isw(r, j, "->") || isw(r, j, "{"))
                return false;
            if ((isw(r, j, "*") || isw(r, j, "&")) && !after_operand(r, j))
                return false; /* a dereference or an address */
            if (assign_op(r, j)) {
                size_t p = prev_code(r->w, j), x = nc(r, j);
                bool on_var = loopvar != SIZE_MAX &&
                              ((tok(r->w, p)->len == tok(r->w, loopvar)->len &&
                                memcmp(text_of(r->w, p), text_of(r->w, loopvar), tok(r->w, p)->len) == 0) ||
                               (x < e && tok(r->w, x)->len == tok(r->w, loopvar)->len &&
                                memcmp(text_of(r->w, x), text_of(r->w, loopvar), tok(r->w, x)->len) == 0));
                if (!on_var)
                    return false;
            }
            continue;
        }
        size_t p = prev_code(r->w, j);
        if (p != SIZE_MAX && isw(r, p, ".") && (isw(r, j, "x") || isw(r, j, "y") || isw(r, j, "z")))
            continue;
        if (isw(r, j, "blockDim") || isw(r, j, "blockIdx") || isw(r, j, "gridDim") ||
            isw(r, j, "warpSize") || isw(r, j, "sizeof") ||
            lat__tok_is_type_word(r->w->toks, t) || is_prelude_type(r->w, j))
            continue;
        if (per_thread && isw(r, j, "threadIdx"))
            continue;
        if (loopvar != SIZE_MAX && t->len == tok(r->w, loopvar)->len &&
            memcmp(text_of(r->w, j), text_of(r->w, loopvar), t->len) == 0)
            continue;
        if (isw(r, nc(r, j), "("))
            return false; /* a call */
        if (find_uvar(r, j) || constant_macro(r, j))
            continue;
        if (is_param_unmodified(r, j) && find_cand_any(r, j) < 0)
            continue;
        if (per_thread) {
            int c = find_cand_any(r, j);
            if (c >= 0 && r->c[c].recompute)
                continue;
        }
        return false;
    }
    return true;
}

static void add_uvar(lat__region *r, size_t name_tok, size_t scope_e)
{
    grow((void **)&r->uv, &r->uvcap, r->nuv, sizeof *r->uv, &r->oom);
    if (r->oom)
        return;
    r->uv[r->nuv++] = (uvar){text_of(r->w, name_tok), tok(r->w, name_tok)->len, name_tok, scope_e};
}

/* A block-level declaration whose every variable is a never-modified scalar with a
 * uniform initializer: it runs once, for the block. */
static void uniform_decl(lat__region *r, int id, size_t scope_e)
{
    node *n = &r->n[id];
    declarator d[32];
    int nd = lat__tr_split_declarators(r->w, n->b, n->e, d, 32);
    if (nd <= 0)
        return;
    for (size_t j = n->b; j < d[0].b; j = nc(r, j))
        if (isw(r, j, "static") || isw(r, j, "extern") || isw(r, j, "volatile"))
            return;
    for (int k = 0; k < nd; k++) {
        if (d[k].bracket != SIZE_MAX || d[k].eq == SIZE_MAX || d[k].b != d[k].name ||
            !expr_is(r, nc(r, d[k].eq), d[k].e, false, SIZE_MAX) ||
            modified_in(r, d[k].name, scope_e))
            return;
    }
    n->uniform = true;
    for (int k = 0; k < nd; k++)
        add_uvar(r, d[k].name, scope_e);
}

static bool targeted(const lat__region *r, int id)
{
    for (int k = 0; k < r->nfix; k++)
        if ((int)r->fixes[3 * k + 1] == id)
            return true;
    return false;
}

/* Finds the uniform declarations, branches and loops, in order. */
static void analyze(lat__region *r, int id, size_t scope_e)
{
    if (id < 0 || r->bad)
        return;
    node *n = &r->n[id];
    if (!n->sync) {
        if (n->kind == N_PLAIN && n->decl)
            uniform_decl(r, id, scope_e);
        return;
    }
    switch (n->kind) {
    case N_BLOCK:
        for (int k = n->kid; k >= 0; k = r->n[k].next)
            analyze(r, k, n->e);
        return;
    case N_IF:
        n->uniform = expr_is(r, n->cb, n->ce, false, SIZE_MAX);
        analyze(r, n->then_n, n->e);
        analyze(r, n->else_n, n->e);
        return;
    case N_FOR: {
        /* for (T v = uniform; uniform; v op= uniform), v left alone by the body. */
        declarator d[2];
        int nd = n->ib < n->ie ? lat__tr_split_declarators(r->w, n->ib, n->ie, d, 2) : 0;
        bool ok = nd == 1 && looks_like_decl(r, n->ib) && d[0].bracket == SIZE_MAX &&
                  d[0].eq != SIZE_MAX && d[0].b == d[0].name &&
                  expr_is(r, nc(r, d[0].eq), d[0].e, false, SIZE_MAX) && !targeted(r, id);
        if (ok) {
            size_t v = d[0].name;
            ok = expr_is(r, n->cb, n->ce, false, v) && expr_is(r, n->xb, n->xe, false, v);
            if (ok && n->body_n >= 0) {
                /* modified_in looks after the name: check the body alone. */
                const lat__tok *vt = tok(r->w, v);
                for (size_t j = r->n[n->body_n].b; j <= r->n[n->body_n].e && ok; j = nc(r, j))
                    if (tok(r->w, j)->len == vt->len &&
                        memcmp(text_of(r->w, j), text_of(r->w, v), vt->len) == 0 &&
                        !isw(r, prev_code(r->w, j), ".") && !isw(r, prev_code(r->w, j), "->") &&
                        (assign_op(r, nc(r, j)) || isw(r, prev_code(r->w, j), "++") ||
                         isw(r, prev_code(r->w, j), "--") ||
                         (isw(r, prev_code(r->w, j), "&") && !after_operand(r, prev_code(r->w, j)))))
                        ok = false;
            }
            if (ok) {
                n->uniform = true;
                add_uvar(r, v, n->e);
            }
        }
        analyze(r, n->body_n, n->e);
        return;
    }
    case N_WHILE:
    case N_DO:
        analyze(r, n->body_n, n->e);
        return;
    default:
        return;
    }
}

/* ---- warp operations in an expression ------------------------------------------------- */

/* The warp operations in tokens [b, e), in order; false when one is inside another. */
static void find_wcalls(lat__region *r, size_t b, size_t e, int *first, int *count)
{
    *first = r->nwc;
    *count = 0;
    for (size_t j = b; j < e && !r->bad; j = nc(r, j)) {
        int op = warp_op(r->w, j);
        if (op < 0)
            continue;
        size_t p = nc(r, j);
        if (!isw(r, p, "(")) {
            fail(r, "a warp operation the translator cannot read");
            return;
        }
        bool known = false; /* a loop's condition is written twice: one call */
        for (int k = 0; k < r->nwc && !known; k++)
            known = r->wc[k].name == j;
        if (known) {
            j = lat__match_close(r->w->toks, p);
            continue;
        }
        grow((void **)&r->wc, &r->wcap, r->nwc, sizeof *r->wc, &r->oom);
        if (r->oom)
            return;
        wcall *c = &r->wc[r->nwc];
        memset(c, 0, sizeof *c);
        c->name = j;
        c->open = p;
        c->close = lat__match_close(r->w->toks, p);
        c->op = op;
        c->id = r->nwc;
        size_t a = nc(r, p);
        while (a < c->close && c->nargs < 4) {
            size_t k = a;
            while (k < c->close && !isw(r, k, ",")) {
                if (isw(r, k, "(") || isw(r, k, "[") || isw(r, k, "{"))
                    k = lat__match_close(r->w->toks, k);
                if (warp_op(r->w, k) >= 0)
                    fail(r, "a warp operation inside another's arguments");
                k = nc(r, k);
            }
            c->ab[c->nargs] = a;
            c->ae[c->nargs] = k;
            c->nargs++;
            a = k < c->close ? nc(r, k) : c->close;
        }
        r->nwc++;
        (*count)++;
        j = c->close;
    }
}

/* ---- the plan --------------------------------------------------------------------------- */

static int find_cand(lat__region *r, size_t k)
{
    const uvar *u = find_uvar(r, k);
    const char *s = text_of(r->w, k);
    size_t n = tok(r->w, k)->len;
    int best = -1;
    for (int c = 0; c < r->nc; c++) {
        cand *x = &r->c[c];
        if (x->len == n && memcmp(x->name, s, n) == 0 && k > x->name_tok && k <= x->scope_e &&
            (best < 0 || x->name_tok > r->c[best].name_tok))
            best = c;
    }
    if (best >= 0 && u && u->name_tok > r->c[best].name_tok)
        return -1; /* a uniform variable of the same name hides it */
    return best;
}

/* Candidate c is used (or declared) by the open segment. Two variables of one name
 * there could not both be loaded: fibers then. */
static void add_used(lat__region *r, int c)
{
    if (r->dry)
        for (int k = 0; k < r->nused; k++)
            if (r->used[k] != c && r->c[r->used[k]].len == r->c[c].len &&
                memcmp(r->c[r->used[k]].name, r->c[c].name, r->c[c].len) == 0)
                fail(r, "two variables of one name in one stretch between barriers");
    grow((void **)&r->used, &r->usedcap, r->nused, sizeof *r->used, &r->oom);
    if (!r->oom)
        r->used[r->nused++] = c;
}

/* Tokens [b, e) go into the open segment: note the candidates they use. */
static void note_uses(lat__region *r, size_t b, size_t e)
{
    if (r->seg >= 0 && b < e) {
        grow((void **)&r->ranges, &r->rangecap, r->nranges * 2 + 2, sizeof *r->ranges, &r->oom);
        if (!r->oom) {
            r->ranges[r->nranges * 2] = b;
            r->ranges[r->nranges * 2 + 1] = e;
            r->nranges++;
        }
    }
    if (r->seg < 0)
        return;
    for (size_t k = b; k < e; k = nc(r, k)) {
        if (tok(r->w, k)->kind != LAT__TOK_IDENT)
            continue;
        size_t p = prev_code(r->w, k);
        if (p != SIZE_MAX && (isw(r, p, ".") || isw(r, p, "->")))
            continue;
        int c = find_cand(r, k);
        if (c < 0 || r->c[c].mark == r->seg)
            continue;
        r->c[c].mark = r->seg;
        if (r->c[c].seg != r->seg) {
            if (r->c[c].recompute)
                note_uses(r, r->c[c].init_b, r->c[c].init_e); /* what it is computed from */
            else
                r->c[c].repl = true;
        }
        add_used(r, c);
    }
}

/* Registers the variables a block-level declaration [b, e] (e its ';') declares. */
static void declare(lat__region *r, int id, size_t b, size_t e, size_t scope_e)
{
    node *n = id >= 0 ? &r->n[id] : NULL;
    if (!r->dry) {
        for (int k = 0; n && k < n->ncand; k++) {
            r->c[n->cand + k].mark = r->seg;
            add_used(r, n->cand + k);
        }
        return;
    }
    declarator d[32];
    int nd = lat__tr_split_declarators(r->w, b, e, d, 32);
    if (nd <= 0) {
        fail(r, "a declaration the translator cannot read");
        return;
    }
    if (n) {
        n->cand = r->nc;
        n->ncand = nd;
    }
    bool spec_const = false;
    for (size_t j = b; j < d[0].b; j = nc(r, j))
        spec_const |= isw(r, j, "const");
    for (int k = 0; k < nd; k++) {
        grow((void **)&r->c, &r->ccap, r->nc, sizeof *r->c, &r->oom);
        if (r->oom)
            return;
        cand *c = &r->c[r->nc++];
        memset(c, 0, sizeof *c);
        c->name = text_of(r->w, d[k].name);
        c->len = tok(r->w, d[k].name)->len;
        c->name_tok = d[k].name;
        c->scope_e = scope_e;
        c->spec_b = b;
        c->spec_e = d[0].b;
        c->ptr_b = d[k].b;
        c->array = d[k].bracket != SIZE_MAX;
        c->suf_b = nc(r, d[k].name);
        c->suf_e = d[k].eq != SIZE_MAX ? d[k].eq : d[k].e;
        c->init = d[k].eq != SIZE_MAX;
        bool star = false, const_after_star = false;
        for (size_t j = d[k].b; j < d[k].name; j = nc(r, j)) {
            if (isw(r, j, "*")) {
                star = true;
                const_after_star = false;
            } else if (isw(r, j, "const")) {
                const_after_star = true;
            }
        }
        c->is_const = star ? const_after_star : spec_const;
        c->seg = r->seg;
        c->mark = r->seg;
        if (d[k].eq != SIZE_MAX && !c->array) {
            c->init_b = nc(r, d[k].eq);
            c->init_e = d[k].e;
            bool plain_spec = true;
            for (size_t j = b; j < d[0].b; j = nc(r, j))
                if (isw(r, j, "static") || isw(r, j, "volatile") || isw(r, j, "extern"))
                    plain_spec = false;
            c->recompute = plain_spec && expr_is(r, c->init_b, c->init_e, true, SIZE_MAX) &&
                           !modified_in(r, c->name_tok, scope_e);
        }
        if (isw(r, c->suf_b, "(")) {
            fail(r, "a function declared inside the kernel");
            return;
        }
        add_used(r, r->nc - 1);
    }
}

/* ---- writing -------------------------------------------------------------------------------- */

/* The written text of tokens [a, b) (b a code token or close). */
static void slice_to(lat__region *r, char **buf, size_t *len, size_t a, size_t b, bool line)
{
    if (r->dry || a >= b)
        return;
    size_t from = r->outpos[a - r->open] - r->body_base, to = r->outpos[b - r->open] - r->body_base;
    if (line) {
        char *m = NULL;
        size_t ml = 0;
        bool oom = false;
        lat__tr_line_marker(&m, &ml, tok(r->w, a)->line, r->w->f->display, &oom);
        put(r, buf, len, "\n%s\n", m ? m : "");
        free(m);
        if (oom)
            r->oom = true;
    }
    if (to > from && lat__strbuf_append(buf, len, r->body + from, to - from) != 0)
        r->oom = true;
}

/* Text of tokens [a, b) for the open segment, its uses noted. */
static void seg_slice(lat__region *r, size_t a, size_t b)
{
    note_uses(r, a, b);
    slice_to(r, &r->seg_text, &r->seg_len, a, b, true);
}

/* The storage type of candidate c, with its top-level const dropped: "T (*)" parts. */
static void type_text(lat__region *r, char **buf, size_t *len, const cand *c, bool keep_const)
{
    bool star = false;
    for (size_t j = c->ptr_b; j < c->name_tok; j = nc(r, j))
        star |= isw(r, j, "*");
    for (size_t j = c->spec_b; j < c->spec_e; j = nc(r, j)) {
        if ((!keep_const && !star && isw(r, j, "const")) || isw(r, j, "static") ||
            isw(r, j, "register") || isw(r, j, "__shared__"))
            continue;
        put(r, buf, len, "%.*s ", (int)tok(r->w, j)->len, text_of(r->w, j));
    }
    size_t last_star = SIZE_MAX;
    for (size_t j = c->ptr_b; j < c->name_tok; j = nc(r, j))
        if (isw(r, j, "*"))
            last_star = j;
    for (size_t j = c->ptr_b; j < c->name_tok; j = nc(r, j)) {
        if (!keep_const && last_star != SIZE_MAX && j > last_star && isw(r, j, "const"))
            continue;
        put(r, buf, len, "%.*s ", (int)tok(r->w, j)->len, text_of(r->w, j));
    }
}

static void suffix_text(lat__region *r, char **buf, size_t *len, const cand *c, bool skip_first)
{
    size_t j = c->suf_b;
    if (skip_first && isw(r, j, "["))
        j = nc(r, lat__match_close(r->w->toks, j));
    for (; j < c->suf_e; j = nc(r, j))
        put(r, buf, len, "%.*s", (int)tok(r->w, j)->len, text_of(r->w, j));
}

/* Whether the open segment's code may change candidate c (assign, increment, address). */
static bool changed_here(const lat__region *r, const cand *c)
{
    for (int k = 0; k < r->nranges; k++)
        for (size_t j = r->ranges[2 * k]; j < r->ranges[2 * k + 1]; j = nc(r, j)) {
            if (tok(r->w, j)->len != c->len || memcmp(text_of(r->w, j), c->name, c->len) != 0)
                continue;
            size_t p = prev_code(r->w, j);
            if (isw(r, p, ".") || isw(r, p, "->"))
                continue;
            if (written_at(r, j, true) || isw(r, p, "++") || isw(r, p, "--") || isw(r, p, "&"))
                return true;
        }
    return false;
}

/* Whether the module is compiled for the checks (check/ck.h). */
static bool checked(const lat__region *r)
{
    return r->w->t->in->checked;
}

/* For a condition [b, e) of the form `X < E`, `X <= E` or `X == E`, X being threadIdx.x or
 * a variable that is threadIdx.x and E the same for every thread: the operator's token. */
static size_t bounded(lat__region *r, size_t b, size_t e)
{
    size_t op;
    if (isw(r, b, "threadIdx") && isw(r, nc(r, b), ".") && isw(r, nc(r, nc(r, b)), "x")) {
        op = nc(r, nc(r, nc(r, b)));
    } else if (tok(r->w, b)->kind == LAT__TOK_IDENT) {
        int c = find_cand(r, b);
        if (c < 0 || !r->c[c].recompute)
            return SIZE_MAX;
        size_t i = r->c[c].init_b;
        if (!(isw(r, i, "threadIdx") && isw(r, nc(r, i), ".") && isw(r, nc(r, nc(r, i)), "x") &&
              nc(r, nc(r, nc(r, i))) == r->c[c].init_e))
            return SIZE_MAX;
        op = nc(r, b);
    } else {
        return SIZE_MAX;
    }
    if (!(isw(r, op, "<") || isw(r, op, "<=") || isw(r, op, "==")))
        return SIZE_MAX;
    return expr_is(r, nc(r, op), e, false, SIZE_MAX) ? op : SIZE_MAX;
}

static void seg_close(lat__region *r)
{
    if (r->seg < 0)
        return;
    int s = r->seg;
    r->seg = -1;
    if (r->dry)
        return;
    OUT("\n#undef __LAT_NEXT\n#define __LAT_NEXT __lat_n%d\n", s);
    size_t bound_op = SIZE_MAX;
    const node *f = r->seg_stmts == 1 && !r->seg_all && !r->seg_pre ? &r->n[r->seg_first] : NULL;
    if (f && f->kind == N_IF && !f->sync && f->else_n < 0)
        bound_op = bounded(r, f->cb, f->ce);
    if (bound_op != SIZE_MAX) {
        /* if (threadIdx.x < E) S: only the threads below E have anything to do. */
        OUT("{ long long __lat_lo = 0, __lat_hi, __lat_e = (long long)(");
        slice_to(r, &r->out, &r->out_len, nc(r, bound_op), f->ce, false);
        OUT("); if (__lat_e < 0) __lat_e = -1;");
        if (isw(r, bound_op, "=="))
            OUT(" __lat_lo = __lat_e; __lat_hi = __lat_e + 1;");
        else
            OUT(" __lat_hi = __lat_e%s;", isw(r, bound_op, "<=") ? " + 1" : "");
        OUT(" if (__lat_hi > __lat_bx) __lat_hi = __lat_bx; if (__lat_lo < 0) __lat_lo = 0;"
            " if (__lat_lo > __lat_hi) __lat_lo = __lat_hi;\n");
    } else {
        OUT("{ long long __lat_lo = 0, __lat_hi = __lat_bx;\n");
    }
    if (checked(r)) {
        /* The schedule's order (check/exec.c keeps it in __lat_ord); the same braces. */
        /* __lat_ord holds (linear index, x, y, z) per thread, in the order. */
        OUT("for (__lat_k = 0; __lat_k < 4 * __lat_n; __lat_k += 4) { __lat_x = __lat_ord[__lat_k + 1]; "
            "if (__lat_x < (unsigned)__lat_lo || __lat_x >= (unsigned)__lat_hi) continue; "
            "__lat_i = __lat_ord[__lat_k]; __lat_y = __lat_ord[__lat_k + 2]; "
            "__lat_z = __lat_ord[__lat_k + 3]; __lat_t->thread_idx.x = __lat_x; "
            "__lat_t->thread_idx.y = __lat_y; __lat_t->thread_idx.z = __lat_z; "
            "__lat_t->lin = __lat_i; { { %s%s {",
            r->seg_pre ? r->seg_pre : "",
            r->seg_all || (r->level == 0 && !r->may_exit) ? "" : " if (__lat_sk[__lat_i]) continue;");
    } else
    OUT("for (__lat_z = 0; __lat_z < __lat_bz; __lat_z++) { "
        "__lat_t->thread_idx.z = __lat_z; for (__lat_y = 0; __lat_y < __lat_by; __lat_y++) { "
        "__lat_t->thread_idx.y = __lat_y; __lat_i = (__lat_z * __lat_by + __lat_y) * __lat_bx + "
        "(unsigned)__lat_lo; for (__lat_x = (unsigned)__lat_lo; __lat_x < (unsigned)__lat_hi; "
        "__lat_x++, __lat_i++) { %s%s __lat_t->thread_idx.x = __lat_x; {",
        r->seg_pre ? r->seg_pre : "",
        r->seg_all || (r->level == 0 && !r->may_exit) ? "" : " if (__lat_sk[__lat_i]) continue;");
    for (int k = 0; k < r->nused; k++) {
        const cand *c = &r->c[r->used[k]];
        if (c->seg == s || !c->recompute)
            continue;
        OUT(" ");
        type_text(r, &r->out, &r->out_len, c, true);
        OUT("%.*s = ", (int)c->len, c->name);
        slice_to(r, &r->out, &r->out_len, c->init_b, c->init_e, false);
        OUT(";");
    }
    for (int k = 0; k < r->nused; k++) {
        const cand *c = &r->c[r->used[k]];
        if (!c->repl || c->seg == s || c->recompute)
            continue;
        if (c->param) {
            OUT(" __typeof__(__lat_r%d[0]) %.*s = __lat_r%d[__lat_i];", r->used[k], (int)c->len,
                c->name, r->used[k]);
            continue;
        }
        OUT(" ");
        type_text(r, &r->out, &r->out_len, c, !c->array);
        if (c->array) {
            OUT("(*%.*s)", (int)c->len, c->name);
            suffix_text(r, &r->out, &r->out_len, c, true);
        } else {
            OUT("%.*s", (int)c->len, c->name);
            suffix_text(r, &r->out, &r->out_len, c, false);
        }
        OUT(" = __lat_r%d[__lat_i];", r->used[k]);
    }
    if (r->seg_text && lat__strbuf_append(&r->out, &r->out_len, r->seg_text, r->seg_len) != 0)
        r->oom = true;
    OUT("\n __lat_n%d: ;", s);
    for (int k = 0; k < r->nused; k++) {
        const cand *c = &r->c[r->used[k]];
        if (!c->repl || c->recompute)
            continue;
        if (c->seg == s && c->array)
            OUT(" memcpy(__lat_r%d[__lat_i], %.*s, sizeof %.*s);", r->used[k], (int)c->len,
                c->name, (int)c->len, c->name);
        else if (!c->array && (c->seg == s || (!c->is_const && changed_here(r, c))))
            OUT(" __lat_r%d[__lat_i] = %.*s;", r->used[k], (int)c->len, c->name);
    }
    OUT(" } } } } }\n");
}

static void seg_open_all(lat__region *r, bool all, const char *pre)
{
    if (r->seg >= 0 && r->seg_all == all && !pre)
        return;
    seg_close(r);
    r->seg = r->nseg++;
    r->seg_all = all;
    r->nused = 0;
    r->nranges = 0;
    r->seg_stmts = 0;
    r->seg_first = -1;
    free(r->seg_pre);
    r->seg_pre = pre ? strdup(pre) : NULL;
    if (pre && !r->seg_pre)
        r->oom = true;
    r->seg_len = 0;
    if (r->seg_text)
        r->seg_text[0] = '\0';
}

static void seg_open(lat__region *r)
{
    seg_open_all(r, false, NULL);
}

/* A loop over every thread, active or not, of glue code alone. */
static void all_loop(lat__region *r, const char *body)
{
    seg_close(r);
    OUT("\nfor (__lat_i = 0; __lat_i < __lat_n; __lat_i++) { %s }\n", body);
}

static void gen(lat__region *r, int id, size_t scope_e);

/* The result of warp call c in the segment after its values were stored. */
static void w_result(lat__region *r, const wcall *c)
{
    char **b = &r->seg_text;
    size_t *l = &r->seg_len;
    int k = c->id;
    if (c->op >= BVOTE) {
        SEG("(__lat_bv%d)", k);
        return;
    }
    if (c->op <= LAT_EMU_W_XOR) {
        /* The source lane's slot, read as the value's type. */
        SEG("(*(__typeof__(");
        slice_to(r, b, l, c->ab[1], c->ae[1], false);
        note_uses(r, c->ab[1], c->ae[1]);
        SEG(") *)&__lat_wv%d[", k);
        bool simple = c->nargs == 3;
        for (size_t j = c->ab[2]; j < c->ae[2] && simple; j = nc(r, j))
            if (isw(r, j, "(") || isw(r, j, ",") || assign_op(r, j))
                simple = false;
        static const char *const pre[] = {"(__lat_i & ~31u) + ((", "(int)(__lat_i & 31) - (",
                                          "(__lat_i & 31) + (", "((__lat_i & 31) ^ ("};
        static const char *const mid[] = {") & 31)]", ") >= 0 ? __lat_i - (",
                                          ") < 32 ? __lat_i + (",
                                          ")) < 32 ? (__lat_i & ~31u) + ((__lat_i & 31) ^ ("};
        static const char *const end[] = {"", ") : __lat_i])", ") : __lat_i])", ")) : __lat_i])"};
        if (simple) {
            SEG("%s", pre[c->op]);
            slice_to(r, b, l, c->ab[2], c->ae[2], false);
            SEG("%s", mid[c->op]);
            if (c->op != LAT_EMU_W_SHFL) {
                slice_to(r, b, l, c->ab[2], c->ae[2], false);
                SEG("%s", end[c->op]);
            } else {
                SEG(")");
            }
        } else {
            SEG("__lat_rsrc(__lat_i, %d, (", c->op);
            slice_to(r, b, l, c->ab[2], c->ae[2], false);
            SEG("), ");
            if (c->nargs > 3) {
                SEG("(");
                slice_to(r, b, l, c->ab[3], c->ae[3], false);
                note_uses(r, c->ab[3], c->ae[3]);
                SEG(")");
            } else {
                SEG("32");
            }
            SEG(")])");
        }
        note_uses(r, c->ab[2], c->ae[2]);
        return;
    }
    int op = c->op;
    const char *cast = op == LAT_EMU_W_ANY || op == LAT_EMU_W_ALL ? "(int)" : "(unsigned)";
    if (op == LAT_EMU_W_MIN || op == LAT_EMU_W_MAX) {
        SEG("_Generic((");
        slice_to(r, b, l, c->ab[1], c->ae[1], false);
        note_uses(r, c->ab[1], c->ae[1]);
        SEG("), int: (int)__lat_rvote(__lat_wv%d, __lat_sk, __lat_i, %d, (", k, op);
        slice_to(r, b, l, c->ab[0], c->ae[0], false);
        SEG(")), default: (unsigned)__lat_rvote(__lat_wv%d, __lat_sk, __lat_i, %d, (", k,
            op == LAT_EMU_W_MIN ? LAT_EMU_W_UMIN : LAT_EMU_W_UMAX);
        slice_to(r, b, l, c->ab[0], c->ae[0], false);
        note_uses(r, c->ab[0], c->ae[0]);
        SEG(")))");
        return;
    }
    if (op == LAT_EMU_W_MATCH_ALL) {
        SEG("((unsigned)__lat_rmatch_all(__lat_wv%d, __lat_sk, __lat_i, (", k);
        slice_to(r, b, l, c->ab[0], c->ae[0], false);
        note_uses(r, c->ab[0], c->ae[0]);
        SEG("), (");
        slice_to(r, b, l, c->ab[2], c->ae[2], false);
        note_uses(r, c->ab[2], c->ae[2]);
        SEG(")))");
        return;
    }
    SEG("(%s__lat_rvote(__lat_wv%d, __lat_sk, __lat_i, %d, ", cast, k, op);
    if (op == LAT_EMU_W_ACTIVE) {
        SEG("0xffffffffu))");
        return;
    }
    SEG("(");
    slice_to(r, b, l, c->ab[0], c->ae[0], false);
    note_uses(r, c->ab[0], c->ae[0]);
    SEG(")))");
}

/* The divergence check before a block barrier inside a construct. In a checked module
 * every barrier calls the checks instead (synccheck, racecheck's epoch, the schedule's
 * next order): check/exec.c's __lat_ck_rbar. */
static void converged(lat__region *r, size_t at)
{
    if (checked(r)) {
        seg_close(r);
        OUT("\n__lat_ck_rbar(__lat_t, %s, \"%s\", %d);\n", r->may_exit ? "__lat_sk" : "0",
            r->w->f->display, tok(r->w, at)->line);
        return;
    }
    if (r->level == 0)
        return;
    seg_close(r);
    OUT("\n__lat_converged(__lat_t, __lat_sk, __lat_n, \"%s\", %d);\n",
        r->w->f->display, tok(r->w, at)->line);
}

/* An expression site [b, e) holding warp calls: their values stored by every active
 * thread (in the open segment), then in a new segment: pre, the site with each call
 * replaced by its result, post. decl_node: the site is that block-level declaration. */
static void expr_site(lat__region *r, size_t b, size_t e, const char *pre, const char *post,
                      int decl_node, size_t scope_e)
{
    int first, count;
    if (r->dry)
        find_wcalls(r, b, e, &first, &count);
    {
        first = -1;
        count = 0;
        for (int k = 0; k < r->nwc; k++)
            if (r->wc[k].name >= b && r->wc[k].name < e) {
                if (first < 0)
                    first = k;
                count++;
            }
    }
    seg_open(r);
    bool block = false;
    for (int k = first; k >= 0 && k < first + count; k++) {
        wcall *c = &r->wc[k];
        if (c->op == LAT_EMU_W_ACTIVE)
            continue;
        int arg = c->op >= BVOTE ? 0 : 1;
        if (c->op >= BVOTE)
            block = true;
        if (arg >= c->nargs) {
            fail(r, "a warp operation with too few arguments");
            return;
        }
        if (c->op <= LAT_EMU_W_XOR) {
            /* The value in its own type: the next segment reads it so. */
            SEG("\n*(__typeof__(");
            slice_to(r, &r->seg_text, &r->seg_len, c->ab[arg], c->ae[arg], false);
            SEG(") *)&__lat_wv%d[__lat_i] = ((", c->id);
        } else if (c->op >= BVOTE || c->op == LAT_EMU_W_BALLOT || c->op == LAT_EMU_W_ANY ||
                   c->op == LAT_EMU_W_ALL)
            SEG("\n__lat_wv%d[__lat_i] = ((", c->id);
        else if (c->op >= LAT_EMU_W_ADD)
            SEG("\n__lat_wv%d[__lat_i] = (unsigned)((", c->id);
        else
            SEG("\n__lat_wv%d[__lat_i] = __LAT_BITS((", c->id);
        seg_slice(r, c->ab[arg], c->ae[arg]);
        if (c->op >= BVOTE || c->op == LAT_EMU_W_BALLOT || c->op == LAT_EMU_W_ANY ||
            c->op == LAT_EMU_W_ALL)
            SEG(") != 0);");
        else
            SEG("));");
    }
    seg_close(r);
    if (block) {
        converged(r, b);
        for (int k = first; k >= 0 && k < first + count; k++)
            if (r->wc[k].op >= BVOTE)
                OUT("\n__lat_bv%d = __lat_bvote(__lat_wv%d, __lat_sk, __lat_n, %d);\n",
                    r->wc[k].id, r->wc[k].id, r->wc[k].op - BVOTE);
    }
    seg_open(r);
    if (decl_node >= 0)
        declare(r, decl_node, r->n[decl_node].b, r->n[decl_node].e, scope_e);
    SEG("%s", pre);
    size_t at = b;
    for (int k = first; k >= 0 && k < first + count; k++) {
        seg_slice(r, at, r->wc[k].name);
        w_result(r, &r->wc[k]);
        at = nc(r, r->wc[k].close);
    }
    seg_slice(r, at, e);
    SEG("%s", post);
}

/* A condition [b, e) at level L: threads for which it is false become inactive (2L). */
static void condition(lat__region *r, size_t b, size_t e, int L)
{
    char pre[32], post[64];
    snprintf(pre, sizeof pre, "\nif (!(");
    snprintf(post, sizeof post, ")) __lat_sk[__lat_i] = %d;", 2 * L);
    bool warp = false;
    for (size_t j = b; j < e; j = nc(r, j))
        warp |= warp_op(r->w, j) >= 0;
    if (warp) {
        expr_site(r, b, e, pre, post, -1, 0);
        return;
    }
    seg_open(r);
    SEG("%s", pre);
    seg_slice(r, b, e);
    SEG("%s", post);
}

static void gen_block_items(lat__region *r, int first, size_t scope_e)
{
    for (int k = first; k >= 0 && !r->bad; k = r->n[k].next)
        gen(r, k, scope_e);
}

static void gen(lat__region *r, int id, size_t scope_e)
{
    if (id < 0 || r->bad || r->oom)
        return;
    node *n = &r->n[id];
    char text[160];
    if (!n->sync) {
        if (n->kind == N_LEVEL) {
            seg_close(r);
            slice_to(r, &r->out, &r->out_len, n->b, nc(r, n->e), true);
            OUT("\n");
            return;
        }
        if (n->kind == N_PLAIN && n->decl && n->uniform) {
            /* Computed once, for the block: later segments see it as it is. */
            seg_close(r);
            slice_to(r, &r->out, &r->out_len, n->b, nc(r, n->e), true);
            OUT("\n");
            return;
        }
        seg_open(r);
        if (r->seg_stmts++ == 0)
            r->seg_first = id;
        if (n->kind == N_PLAIN && n->decl)
            declare(r, id, n->b, n->e, scope_e);
        seg_slice(r, n->b, nc(r, n->e));
        return;
    }
    int L = n->level;
    switch (n->kind) {
    case N_SYNC:
        seg_close(r);
        if (n->barrier)
            converged(r, n->b);
        return;
    case N_PLAIN:
        expr_site(r, n->b, nc(r, n->e), "", "", n->decl ? id : -1, scope_e);
        return;
    case N_BLOCK:
        seg_close(r);
        OUT("\n{\n");
        gen_block_items(r, n->kid, n->e);
        seg_close(r);
        OUT("\n}\n");
        return;
    case N_IF:
        if (n->uniform) {
            seg_close(r);
            OUT("\nif (");
            slice_to(r, &r->out, &r->out_len, n->cb, n->ce, true);
            OUT(") {\n");
            gen(r, n->then_n, n->e);
            seg_close(r);
            OUT("\n} else {\n");
            gen(r, n->else_n, n->e);
            seg_close(r);
            OUT("\n}\n");
            return;
        }
        r->level = L;
        condition(r, n->cb, n->ce, L);
        gen(r, n->then_n, n->e);
        if (n->else_n >= 0) {
            snprintf(text, sizeof text,
                     "if (__lat_sk[__lat_i] == %d) __lat_sk[__lat_i] = 0; else if "
                     "(!__lat_sk[__lat_i]) __lat_sk[__lat_i] = %d;", 2 * L, 2 * L);
            all_loop(r, text);
            gen(r, n->else_n, n->e);
        }
        snprintf(text, sizeof text, "if (__lat_sk[__lat_i] == %d) __lat_sk[__lat_i] = 0;", 2 * L);
        all_loop(r, text);
        r->level = L - 1;
        return;
    default:
        break;
    }
    /* Loops. */
    if (n->uniform) {
        /* Block-level control: every thread runs it alike. */
        seg_close(r);
        OUT("\nfor (");
        slice_to(r, &r->out, &r->out_len, n->ib, n->ie, true);
        OUT(";");
        slice_to(r, &r->out, &r->out_len, n->cb, n->ce, true);
        OUT(";");
        slice_to(r, &r->out, &r->out_len, n->xb, n->xe, true);
        OUT(") {\n");
        gen(r, n->body_n, n->e);
        seg_close(r);
        OUT("\n}\n");
        return;
    }
    r->level = L;
    if (n->kind == N_FOR && n->ib < n->ie) {
        seg_open(r);
        bool decl = looks_like_decl(r, n->ib);
        if (decl)
            declare(r, id, n->ib, n->ie, n->e);
        seg_slice(r, n->ib, n->ie);
        SEG(";");
    }
    bool has_cond = n->cb < n->ce;
    if (n->kind != N_DO && has_cond)
        condition(r, n->cb, n->ce, L);
    seg_close(r);
    OUT("\nfor (;;) { if (!__lat_active(__lat_sk, __lat_n)) break;\n");
    gen(r, n->body_n, n->e);
    snprintf(text, sizeof text, "if (__lat_sk[__lat_i] == %d) __lat_sk[__lat_i] = 0;", 2 * L + 1);
    seg_open_all(r, false, text);
    if (n->kind == N_FOR && n->xb < n->xe) {
        seg_slice(r, n->xb, n->xe);
        SEG(";");
    }
    if (has_cond)
        condition(r, n->cb, n->ce, L);
    seg_close(r);
    OUT("\n}\n");
    snprintf(text, sizeof text, "if (__lat_sk[__lat_i] == %d) __lat_sk[__lat_i] = 0;", 2 * L);
    all_loop(r, text);
    r->level = L - 1;
}

/* ---- parameters ------------------------------------------------------------------------ */

static bool modified(const lat__region *r, size_t name);

bool lat__tr_param_modified(walk *w, size_t open, size_t close, size_t name)
{
    lat__region r = {.w = w, .open = open, .close = close};
    return modified(&r, name);
}

/* Whether parameter `name` is assigned, incremented or has its address taken. */
static bool modified(const lat__region *r, size_t name)
{
    const char *s = text_of(r->w, name);
    size_t n = tok(r->w, name)->len;
    static const char *const assign[] = {"=", "+=", "-=", "*=", "/=", "%=", "&=",
                                         "|=", "^=", "<<=", ">>=", "++", "--"};
    for (size_t k = nc(r, r->open); k < r->close; k = nc(r, k)) {
        if (tok(r->w, k)->len != n || memcmp(text_of(r->w, k), s, n) != 0)
            continue;
        size_t p = prev_code(r->w, k), x = nc(r, k);
        if (isw(r, p, ".") || isw(r, p, "->"))
            continue;
        (void)assign;
        (void)x;
        /* A parameter's [index] is what it points to: only members count. */
        if (written_at(r, k, false) || isw(r, p, "++") || isw(r, p, "--") ||
            (isw(r, p, "&") && !after_operand(r, p)))
            return true;
    }
    return false;
}

static void add_params(lat__region *r, const params *p)
{
    for (int k = 0; k < p->n; k++) {
        lat__param_decl d;
        lat__parse_param_decl(r->w->toks, p->b[k], p->e[k], &d);
        if (d.name == SIZE_MAX)
            continue;
        bool mod = modified(r, d.name);
        r->param_tok[r->nparams] = d.name;
        r->param_mod[r->nparams++] = mod;
        if (!mod)
            continue;
        grow((void **)&r->c, &r->ccap, r->nc, sizeof *r->c, &r->oom);
        if (r->oom)
            return;
        cand *c = &r->c[r->nc++];
        memset(c, 0, sizeof *c);
        c->name = text_of(r->w, d.name);
        c->len = tok(r->w, d.name)->len;
        c->name_tok = r->open;
        c->scope_e = r->close;
        c->param = true;
        c->seg = -1;
        c->mark = -2;
    }
}

/* ---- checked modules ---------------------------------------------------------------------- */

/* A checked module (check/ck.h) runs a kernel as region loops only where they and fibers
 * cannot differ: every barrier a plain __syncthreads that all threads reach alike (at
 * block level, or in branches and loops every thread takes alike), so that no thread can
 * wait at one barrier while another waits at a different one; and no warp operation.
 * Everything else runs on fibers, whose scheduler can stop a thread anywhere. */
static bool fits_checked(const lat__region *r, int id)
{
    if (id < 0)
        return true;
    const node *n = &r->n[id];
    if (!n->sync)
        return true;
    switch (n->kind) {
    case N_SYNC:
        return n->barrier;
    case N_BLOCK:
        for (int k = n->kid; k >= 0; k = r->n[k].next)
            if (!fits_checked(r, k))
                return false;
        return true;
    case N_IF:
        return n->uniform && fits_checked(r, n->then_n) && fits_checked(r, n->else_n);
    case N_FOR:
        return n->uniform && fits_checked(r, n->body_n);
    default:
        return false; /* while/do with a barrier, a warp operation in a statement */
    }
}

/* Whether a variable declared without an initializer is kept across barriers: the
 * checks' initcheck follows such a variable from its declaration (check/instrument.c),
 * which region loops reload in every segment. */
static bool keeps_uninitialized(const lat__region *r)
{
    for (int k = 0; k < r->nc; k++)
        if (r->c[k].repl && !r->c[k].param && !r->c[k].init)
            return true;
    return false;
}

/* The end of the statement starting at token i (its last token). */
static size_t statement_end(const walk *w, size_t i)
{
    size_t n = w->toks->count;
    if (is(w, i, "{"))
        return lat__match_close(w->toks, i);
    if (is(w, i, "for") || is(w, i, "while") || is(w, i, "if") || is(w, i, "switch")) {
        size_t c = lat__match_close(w->toks, next_code(w, i));
        if (c >= n)
            return n;
        size_t e = statement_end(w, next_code(w, c));
        if (is(w, i, "if") && is(w, next_code(w, e), "else"))
            e = statement_end(w, next_code(w, next_code(w, e)));
        return e;
    }
    if (is(w, i, "do")) {
        size_t e = statement_end(w, next_code(w, i));
        size_t c = lat__match_close(w->toks, next_code(w, next_code(w, e))); /* while ( ) */
        return c < n ? next_code(w, c) : n;
    }
    size_t j = i;
    while (j < n && !is(w, j, ";") && !is(w, j, "}")) {
        if (is(w, j, "(") || is(w, j, "[") || is(w, j, "{"))
            j = lat__match_close(w->toks, j);
        j = next_code(w, j);
    }
    return j;
}

/* Whether a thread of the file's code could wait for another by spinning: what a GPU
 * program needs for that (volatile, fences, atomics in a loop, a lock's compare-and-swap
 * or exchange). Region loops would run such a wait to the watchdog; fibers give way. */
static bool may_spin(const walk *w)
{
    size_t n = w->toks->count;
    for (size_t j = 0; j < n; j = next_code(w, j)) {
        if (tok(w, j)->kind != LAT__TOK_IDENT)
            continue;
        if (is(w, j, "volatile") || is(w, j, "atomicCAS") || is(w, j, "atomicExch") ||
            is(w, j, "__threadfence") || is(w, j, "__threadfence_block") ||
            is(w, j, "__threadfence_system") || is(w, j, "__nanosleep"))
            return true;
        if (!is(w, j, "for") && !is(w, j, "while") && !is(w, j, "do"))
            continue;
        size_t e = statement_end(w, j);
        for (size_t k = j; k < e && k < n; k = next_code(w, k))
            if (tok(w, k)->kind == LAT__TOK_IDENT && tok(w, k)->len > 6 &&
                memcmp(text_of(w, k), "atomic", 6) == 0)
                return true;
    }
    return false;
}

/* ---- the interface ------------------------------------------------------------------------ */

void lat__tr_region_free(walk *w)
{
    lat__region *r = w->region;
    if (!r)
        return;
    free(r->n);
    free(r->wc);
    free(r->c);
    free(r->fixes);
    free(r->seg_pre);
    free(r->seg_text);
    free(r->used);
    free(r->ranges);
    free(r->uv);
    free(r->out);
    free(r->outpos);
    free(r->body);
    free(r);
    w->region = NULL;
}

static void run(lat__region *r, bool dry)
{
    r->dry = dry;
    r->level = 0;
    r->nseg = 0;
    r->seg = -1;
    r->nused = 0;
    for (int c = 0; c < r->nc; c++)
        r->c[c].mark = -2;
    gen_block_items(r, r->n[r->root].kid, r->close);
    seg_close(r);
}

bool lat__tr_region_plan(walk *w, size_t open, size_t close, const params *p)
{
    lat__region *r = calloc(1, sizeof *r);
    if (!r) {
        w->t->oom = true;
        return false;
    }
    w->region = r;
    r->w = w;
    r->open = open;
    r->close = close;
    r->seg = -1;
    r->root = parse_stmt(r, open, -1, -1);
    /* The plan reads every token, kept by the preprocessor or not: a barrier under a
     * false #if would cut the body where the compiled kernel has none. */
    for (size_t j = open; j < close && !r->bad; j++)
        if ((tok(w, j)->flags & LAT__TOK_PP) && is(w, j, "#") &&
            (is(w, j + 1, "if") || is(w, j + 1, "ifdef") || is(w, j + 1, "ifndef") ||
             is(w, j + 1, "elif") || is(w, j + 1, "else")))
            fail(r, "a conditional directive in the body");
    for (size_t j = nc(r, open); j < close && !r->may_exit; j = nc(r, j)) {
        size_t at;
        const tr *t = w->t;
        if (isw(r, j, "return") ||
            (tok(w, j)->kind == LAT__TOK_IDENT &&
             lat__map_get(&t->mac_index, text_of(w, j), tok(w, j)->len, &at) &&
             lat__map_get(&t->macs[at].idents, "return", 6, NULL)))
            r->may_exit = true;
    }
    if (!r->bad && !r->oom && r->root >= 0) {
        add_params(r, p);
        if (mark_sync(r, r->root)) {
            analyze(r, r->root, r->close);
            assign_levels(r, r->root, 0);
            run(r, true);
        } else if (checked(r)) {
            run(r, true); /* a checked kernel without barriers: one region loop */
        }
    }
    if (checked(r) && !r->bad && !r->oom && r->root >= 0 &&
        (r->nwc > 0 || !fits_checked(r, r->root) || may_spin(w) || keeps_uninitialized(r)))
        fail(r, "a checked kernel whose threads could wait for each other other than at "
                "block-level barriers");
    /* Two variables of one name in one segment: loading both is impossible. */
    for (int a = 0; a < r->nc && !r->bad; a++)
        for (int b = a + 1; b < r->nc; b++)
            if (r->c[a].repl && r->c[b].repl && r->c[a].len == r->c[b].len &&
                memcmp(r->c[a].name, r->c[b].name, r->c[a].len) == 0 &&
                !(r->c[a].scope_e < r->c[b].name_tok || r->c[b].scope_e < r->c[a].name_tok)) {
                fail(r, "two variables of one name kept across barriers");
                break;
            }
    if (r->bad || r->oom || r->root < 0) {
        if (r->oom)
            w->t->oom = true;
        lat__tr_region_free(w);
        return false;
    }
    /* break and continue of loops with barriers leave the thread's iteration. */
    for (int k = 0; k < r->nfix; k++) {
        const node *target = &r->n[r->fixes[3 * k + 1]];
        if (!target->sync || (target->kind != N_FOR && target->kind != N_WHILE &&
                              target->kind != N_DO))
            continue;
        char text[96];
        snprintf(text, sizeof text, "{ __lat_sk[__lat_i] = %d; goto __LAT_NEXT; }",
                 2 * target->level + (int)r->fixes[3 * k + 2]);
        lat__tr_push_edit(w, r->fixes[3 * k], EDIT_REPLACE, text);
    }
    r->outpos = calloc(close - open + 1, sizeof *r->outpos);
    if (!r->outpos) {
        w->t->oom = true;
        lat__tr_region_free(w);
        return false;
    }
    for (size_t k = 0; k <= close - open; k++)
        r->outpos[k] = SIZE_MAX;
    return true;
}

/* The block's state, storage and parameters' copies, before the first segment. */
static void head(lat__region *r)
{
    OUT("\n unsigned __lat_x, __lat_y, __lat_z, __lat_i, __lat_bx = __lat_t->block_dim.x, "
        "__lat_by = __lat_t->block_dim.y, __lat_bz = __lat_t->block_dim.z, "
        "__lat_n = __lat_t->nthreads, __lat_n32 = (__lat_n + 31) & ~31u;"
        " int *__lat_sk = __lat_scratch(__lat_t, sizeof(int) * __lat_n32);"
        " for (__lat_i = 0; __lat_i < __lat_n32; __lat_i++) __lat_sk[__lat_i] = __lat_i < "
        "__lat_n ? 0 : %d;",
        EXITED);
    if (checked(r))
        OUT(" unsigned __lat_k; const unsigned *__lat_ord = __lat_ck_rorder(__lat_t);");
    for (int k = 0; k < r->nwc; k++) {
        OUT(" unsigned long long *__lat_wv%d = __lat_scratch(__lat_t, 8 * __lat_n32);", k);
        if (r->wc[k].op >= BVOTE)
            OUT(" int __lat_bv%d;", k);
    }
    for (int k = 0; k < r->nc; k++) {
        const cand *c = &r->c[k];
        if (!c->repl)
            continue;
        if (c->param) {
            OUT(" __typeof__(%.*s) *__lat_r%d = __lat_scratch(__lat_t, sizeof(%.*s) * __lat_n);"
                " for (__lat_i = 0; __lat_i < __lat_n; __lat_i++) __lat_r%d[__lat_i] = %.*s;",
                (int)c->len, c->name, k, (int)c->len, c->name, k, (int)c->len, c->name);
            continue;
        }
        OUT(" ");
        type_text(r, &r->out, &r->out_len, c, false);
        OUT("(*__lat_r%d)", k);
        suffix_text(r, &r->out, &r->out_len, c, false);
        OUT(" = __lat_scratch(__lat_t, sizeof(*__lat_r%d) * __lat_n);", k);
    }
    OUT("\n#define return { __lat_sk[__lat_i] = %d; goto __LAT_NEXT; }\n", EXITED);
}

void lat__tr_region_token(walk *w, size_t i)
{
    lat__region *r = w->region;
    if (!r || i <= r->open || i > r->close)
        return;
    lat__tr_emit_upto(w, tok(w, i)->off);
    size_t at = w->t->out_len;
    for (size_t k = i; k > r->open && r->outpos[k - r->open] == SIZE_MAX; k--)
        r->outpos[k - r->open] = at;
    if (i != r->close || w->t->pass != 2)
        return;
    /* The whole body is written: cut it into region loops. */
    size_t first = nc(r, r->open);
    r->body_base = r->outpos[first - r->open];
    for (size_t k = first; k <= r->close; k++)
        if (r->outpos[k - r->open] == SIZE_MAX)
            r->outpos[k - r->open] = r->body_base;
    tr *t = w->t;
    size_t n = t->out_len - r->body_base;
    r->body = malloc(n + 1);
    if (!r->body) {
        t->oom = true;
        return;
    }
    memcpy(r->body, t->out + r->body_base, n);
    r->body[n] = '\0';
    t->out_len = r->body_base;
    t->out[t->out_len] = '\0';
    r->dry = false;
    head(r);
    run(r, false);
    char *m = NULL;
    size_t ml = 0;
    bool oom = false;
    lat__tr_line_marker(&m, &ml, tok(w, r->close)->line, w->f->display, &oom);
    OUT("\n#undef return\n#undef __LAT_NEXT\n%s\n", m ? m : "");
    free(m);
    if (oom || r->oom || lat__strbuf_append(&t->out, &t->out_len, r->out ? r->out : "",
                                            r->out_len) != 0)
        t->oom = true;
    lat__tr_region_free(w);
}
