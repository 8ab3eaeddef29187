/*
 * The random kernel generator (gen.h). Three parts:
 *   - the tree: statements (snode) in lists (slist), expressions (enode), variables and
 *     __device__ helpers, and its rendering as CUDA C;
 *   - the verifier: the rules that keep a program defined on a GPU, checked over the
 *     tree (uniformity of control flow at each collective, returns and jumps, shared
 *     memory races, scopes). It also derives what an expression is (uniform or not,
 *     which collectives it needs) so that the generator and the shrinker agree;
 *   - the generator, which builds only trees the verifier accepts, and the edits that
 *     shrink a program.
 *
 * Uniformity: D (divergent: may differ between any two threads), W (the same in every
 * lane of a warp), B (the same in every thread of the block). A collective needs the
 * control flow around it to be as uniform as it is wide: W for warp operations, B for
 * barriers. Expressions and variables carry the uniformity of their values; a variable's
 * is fixed when it is declared and every assignment keeps it.
 */
#include "gen.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { UD = 0, UW = 1, UB = 2 };
enum { NIN = 64, MAXV = 512, MAXH = 4, LA_N = 4, MAXDEPTH = 4 };

static void *xmalloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (!p) {
        fprintf(stderr, "lattice-diff: out of memory\n");
        exit(2);
    }
    return p;
}

static int imin(int a, int b) { return a < b ? a : b; }
static int imax(int a, int b) { return a > b ? a : b; }

/* ---- features --------------------------------------------------------------------------- */

static const char *const feature_names[] = {
#define DG_NAME_(name, text, desc) text,
    DG_FEATURES(DG_NAME_)
#undef DG_NAME_
};
static const char *const feature_descs[] = {
#define DG_DESC_(name, text, desc) desc,
    DG_FEATURES(DG_DESC_)
#undef DG_DESC_
};

const char *dg_feature_name(int i) { return i >= 0 && i < DG_NFEATURES ? feature_names[i] : "?"; }
const char *dg_feature_desc(int i) { return i >= 0 && i < DG_NFEATURES ? feature_descs[i] : "?"; }

int dg_parse_features(const char *text, unsigned *mask, char *why, size_t why_size)
{
    unsigned m = 0;
    const char *s = text;
    while (*s) {
        size_t n = strcspn(s, ",");
        char word[64];
        if (n >= sizeof word)
            n = sizeof word - 1;
        memcpy(word, s, n);
        word[n] = 0;
        s += n;
        if (*s == ',')
            s++;
        const char *w = word;
        bool minus = *w == '-';
        if (minus)
            w++;
        unsigned bits = 0;
        if (!*w)
            continue;
        if (strcmp(w, "all") == 0)
            bits = DG_F_ALL;
        else if (strcmp(w, "none") == 0)
            bits = 0;
        else if (strcmp(w, "ci") == 0)
            bits = DG_F_CI;
        else if (w[0] >= '0' && w[0] <= '9') {
            char *end;
            unsigned long v = strtoul(w, &end, 0);
            if (*end || v > DG_F_ALL) {
                snprintf(why, why_size, "'%s' is not a feature mask", w);
                return -1;
            }
            bits = (unsigned)v;
        } else {
            int i;
            for (i = 0; i < DG_NFEATURES; i++)
                if (strcmp(w, feature_names[i]) == 0)
                    break;
            if (i == DG_NFEATURES) {
                snprintf(why, why_size, "'%s' is not a feature (see --list-features)", w);
                return -1;
            }
            bits = 1u << i;
        }
        if (minus)
            m &= ~bits;
        else
            m |= bits;
    }
    *mask = m;
    return 0;
}

void dg_format_features(unsigned mask, char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; i < DG_NFEATURES; i++)
        if (mask & (1u << i)) {
            int k = snprintf(buf + at, at < size ? size - at : 0, "%s%s", at ? "," : "",
                             feature_names[i]);
            at += (size_t)(k > 0 ? k : 0);
        }
    if (!mask)
        snprintf(buf, size, "none");
}

/* ---- the PRNG: xoshiro256** seeded through splitmix64 ------------------------------------- */

typedef struct rng {
    uint64_t s[4];
} rng;

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t next64(rng *r)
{
    uint64_t *s = r->s, out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

/* Uniform in [0, n). */
static unsigned rnd(rng *r, unsigned n) { return (unsigned)(((next64(r) >> 32) * n) >> 32); }
static bool chance(rng *r, unsigned pct) { return rnd(r, 100) < pct; }

/* ---- the tree ------------------------------------------------------------------------------ */

enum eop {
    E_CONST, E_VAR, E_LEAF, E_IN, E_SH, E_LA, E_UN, E_BIN, E_CMP, E_LAND, E_LOR, E_TERN,
    E_MIN, E_MAX, E_CALL, E_BVOTE, E_WVOTE, E_SHFL, E_MATCH, E_REDUCE
};
enum { SH_OWN = 0, SH_OTHER = 1 };
enum { SF_IDX, SF_UP, SF_DOWN, SF_XOR };

typedef struct enode {
    unsigned char op, sub, nk;
    unsigned val; /* E_CONST: the value; E_SHFL: the width */
    int ref;      /* E_VAR, E_LA: the variable; E_CALL: the helper */
    struct enode *k[4];
    /* derived by annotate() */
    unsigned char unif; /* UD, UW, UB */
    unsigned char req;  /* the widest collective inside: 0, UW or UB */
    bool su;            /* statically uniform: constants, built-ins, parameters, SU loop
                           counters and operators on them, what the translator can see */
    bool must_bar;      /* a block barrier that certainly runs when the expression does */
    bool sh_other;      /* reads a shared slot of another thread */
    bool sh_wown;       /* calls a helper that writes the thread's own shared slot */
} enode;

enum skind {
    S_DECL, S_ASSIGN, S_RECORD, S_SHW, S_LADECL, S_LAW, S_SYNC, S_SYNCWARP, S_IF, S_FOR,
    S_WHILE, S_DO, S_SWITCH, S_BREAK, S_CONTINUE, S_RETURN, S_BLOCK
};

typedef struct slist slist;

typedef struct snode {
    unsigned char kind;
    bool fixed;        /* shrinking keeps it */
    unsigned char op;  /* S_ASSIGN: the operator; S_WHILE: the form of the condition */
    int var;           /* declared, assigned or counting variable */
    unsigned val;      /* S_FOR: step; S_WHILE, S_DO: iteration limit; S_SWITCH: cases */
    unsigned fall;     /* S_SWITCH: bit i when case i falls through into case i + 1 */
    enode *e[4];
    slist *b[4];       /* S_IF: then, else; loops: body; S_SWITCH: cases; S_BLOCK: body */
} snode;

struct slist {
    snode **s;
    int n, cap;
};

enum { V_SCALAR, V_ARRAY, V_FOR, V_WHILE, V_PARAM };

typedef struct var {
    unsigned char kind, cls;
    bool su; /* a for loop's counter, the loop's bounds statically uniform */
} var;

typedef struct helper {
    int np, param[3];
    unsigned char H; /* the context it may be called in: as uniform as this, at least */
    slist *body;     /* ends with a fixed S_RETURN */
    /* derived by verify */
    unsigned char ret_unif, req;
    bool wown;
} helper;

struct dg_program {
    uint64_t seed;
    unsigned feat;
    unsigned grid[3], block[3], nt;
    bool full;    /* every warp has 32 lanes */
    bool sh;      /* a shared array */
    bool sh_file; /* ... at file scope (helpers may use their slot) */
    uint32_t params[2], in[NIN];
    var v[MAXV];
    int nv;
    helper h[MAXH];
    int nh;
    slist *kernel;
};

static const char *const assign_ops[] = {"=", "+=", "^=", "*=", "-=", "|="};
static const char *const un_ops[] = {"~", "!", "-"};
static const char *const bin_ops[] = {"+", "-", "*", "^", "&", "|", "<<", ">>", "/", "%"};
enum { B_SHL = 6, B_SHR = 7, B_DIV = 8, B_MOD = 9, NBIN = 10 };
static const char *const cmp_ops[] = {"==", "!=", "<", "<=", ">", ">=", "<", ">="};
enum { C_SLT = 6, C_SGE = 7, NCMP = 8 };
static const char *const bvote_names[] = {"__syncthreads_count", "__syncthreads_and",
                                          "__syncthreads_or"};
static const char *const wvote_names[] = {"__all_sync", "__any_sync", "__ballot_sync"};
static const char *const shfl_names[] = {"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync",
                                         "__shfl_xor_sync"};
static const char *const reduce_names[] = {"__reduce_add_sync", "__reduce_min_sync",
                                           "__reduce_max_sync", "__reduce_and_sync",
                                           "__reduce_or_sync", "__reduce_xor_sync"};

/* Values every kernel can read: as written in the kernel and in a helper (NULL: not
 * there), and how uniform they are. */
static const struct leaf {
    const char *k, *h;
    unsigned char unif;
} leaves[] = {
    {"threadIdx.x", "threadIdx.x", UD}, {"threadIdx.y", "threadIdx.y", UD},
    {"threadIdx.z", "threadIdx.z", UD}, {"blockIdx.x", "blockIdx.x", UB},
    {"blockIdx.y", "blockIdx.y", UB},   {"blockDim.x", "blockDim.x", UB},
    {"blockDim.y", "blockDim.y", UB},   {"gridDim.x", "gridDim.x", UB},
    {"lt", "LT", UD},                   {"(lt >> 5)", "(LT >> 5)", UW},
    {"(lt & 31u)", "(LT & 31u)", UD},   {"gt", NULL, UD},
    {"p0", NULL, UB},                   {"p1", NULL, UB},
};
enum { L_LT = 8, L_WARP = 9, L_LANE = 10, L_GT = 11, NLEAVES = 14 };

static enode *enew(int op, int sub)
{
    enode *e = xmalloc(sizeof *e);
    e->op = (unsigned char)op;
    e->sub = (unsigned char)sub;
    e->ref = -1;
    return e;
}

static enode *ekid(enode *e, enode *k)
{
    e->k[e->nk++] = k;
    return e;
}

static enode *econst(unsigned v)
{
    enode *e = enew(E_CONST, 0);
    e->val = v;
    return e;
}

static void efree(enode *e)
{
    if (!e)
        return;
    for (int i = 0; i < e->nk; i++)
        efree(e->k[i]);
    free(e);
}

static enode *ecopy(const enode *e)
{
    if (!e)
        return NULL;
    enode *c = xmalloc(sizeof *c);
    *c = *e;
    for (int i = 0; i < e->nk; i++)
        c->k[i] = ecopy(e->k[i]);
    return c;
}

static slist *lnew(void) { return xmalloc(sizeof(slist)); }

static void ladd(slist *l, snode *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 8;
        snode **g = realloc(l->s, (size_t)l->cap * sizeof *g);
        if (!g) {
            fprintf(stderr, "lattice-diff: out of memory\n");
            exit(2);
        }
        l->s = g;
    }
    l->s[l->n++] = s;
}

static snode *snew(int kind)
{
    snode *s = xmalloc(sizeof *s);
    s->kind = (unsigned char)kind;
    s->var = -1;
    return s;
}

static void lfree(slist *l);

static void sfree(snode *s)
{
    if (!s)
        return;
    for (int i = 0; i < 4; i++) {
        efree(s->e[i]);
        lfree(s->b[i]);
    }
    free(s);
}

static void lfree(slist *l)
{
    if (!l)
        return;
    for (int i = 0; i < l->n; i++)
        sfree(l->s[i]);
    free(l->s);
    free(l);
}

static slist *lcopy(const slist *l);

static snode *scopy(const snode *s)
{
    snode *c = xmalloc(sizeof *c);
    *c = *s;
    for (int i = 0; i < 4; i++) {
        c->e[i] = ecopy(s->e[i]);
        c->b[i] = s->b[i] ? lcopy(s->b[i]) : NULL;
    }
    return c;
}

static slist *lcopy(const slist *l)
{
    slist *c = lnew();
    for (int i = 0; i < l->n; i++)
        ladd(c, scopy(l->s[i]));
    return c;
}

dg_program *dg_copy(const dg_program *p)
{
    dg_program *c = xmalloc(sizeof *c);
    *c = *p;
    for (int i = 0; i < p->nh; i++)
        c->h[i].body = lcopy(p->h[i].body);
    c->kernel = lcopy(p->kernel);
    return c;
}

uint64_t dg_seed(const dg_program *p) { return p->seed; }
unsigned dg_features(const dg_program *p) { return p->feat; }

void dg_free(dg_program *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->nh; i++)
        lfree(p->h[i].body);
    lfree(p->kernel);
    free(p);
}

/* ---- derived facts of expressions ---------------------------------------------------------- */

/* Fills the derived fields of e and its operands. */
static void annotate(const dg_program *p, enode *e)
{
    int u = UB, req = 0;
    bool must = false, other = false, wown = false, su = true;
    for (int i = 0; i < e->nk; i++) {
        annotate(p, e->k[i]);
        su &= e->k[i]->su;
        u = imin(u, e->k[i]->unif);
        req = imax(req, e->k[i]->req);
        other |= e->k[i]->sh_other;
        wown |= e->k[i]->sh_wown;
        must |= e->k[i]->must_bar;
    }
    switch (e->op) {
    case E_CONST:
        break;
    case E_VAR:
        u = e->ref >= 0 && e->ref < p->nv ? p->v[e->ref].cls : UD;
        break;
    case E_LEAF:
        u = leaves[e->sub].unif;
        break;
    case E_SH:
        if (e->sub == SH_OWN)
            u = UD;
        else
            other = true;
        break;
    case E_LA:
        u = UD;
        break;
    case E_LAND:
    case E_LOR:
    case E_TERN:
        /* Only the first operand surely runs. */
        must = e->k[0]->must_bar;
        break;
    case E_CALL:
        if (e->ref >= 0 && e->ref < p->nh) {
            const helper *h = &p->h[e->ref];
            /* Arguments at least as uniform as the parameters give a value this uniform. */
            u = h->ret_unif;
            req = imax(req, h->req);
            wown |= h->wown;
        }
        break;
    case E_BVOTE:
        u = UB;
        req = UB;
        must = true;
        break;
    case E_WVOTE:
    case E_REDUCE:
        u = UW;
        req = imax(req, UW);
        break;
    case E_SHFL: {
        int v = e->k[0]->unif, src = e->nk > 1 ? e->k[1]->unif : UB;
        /* Every lane reads the same lane when the source lane is warp-uniform. */
        if (e->sub == SF_IDX && src >= UW && e->val == 32)
            v = imax(v, UW);
        u = v;
        req = imax(req, UW);
        break;
    }
    case E_MATCH:
        u = e->k[0]->unif >= UW ? UW : UD;
        req = imax(req, UW);
        break;
    default:
        break;
    }
    switch (e->op) {
    case E_CONST:
    case E_UN:
    case E_BIN:
    case E_CMP:
    case E_LAND:
    case E_LOR:
    case E_TERN:
        break;
    case E_LEAF:
        su = leaves[e->sub].unif == UB;
        break;
    case E_VAR:
        su = e->ref >= 0 && e->ref < p->nv && p->v[e->ref].su;
        break;
    default:
        su = false; /* data, calls (min and max too), collectives */
        break;
    }
    e->su = su;
    e->unif = (unsigned char)u;
    e->req = (unsigned char)req;
    e->must_bar = must;
    e->sh_other = other;
    e->sh_wown = wown;
}

/* ---- shared memory states ------------------------------------------------------------------ */

/* Since the last barrier: may a thread have written its own slot (dirty), read another
 * thread's slot (read), run a collective (coll; the generator keeps returns away from
 * warp operations without DG_F_WRET)? dead: no thread gets here. */
typedef struct shst {
    bool dead, dirty, read, coll;
} shst;

static shst sh_join(shst a, shst b)
{
    if (a.dead)
        return b;
    if (b.dead)
        return a;
    return (shst){false, a.dirty || b.dirty, a.read || b.read, a.coll || b.coll};
}

static bool sh_same(shst a, shst b)
{
    return a.dead == b.dead && a.dirty == b.dirty && a.read == b.read && a.coll == b.coll;
}

/* The state after evaluating e; *bad set when e races with what came before. */
static shst sh_expr(shst s, const enode *e, bool *bad)
{
    if (s.dead || !e)
        return s;
    if (e->sh_other && s.dirty)
        *bad = true;
    if (e->sh_wown && (s.read || e->sh_other))
        *bad = true;
    if (e->must_bar)
        s.dirty = s.read = false;
    s.read |= e->sh_other;
    s.dirty |= e->sh_wown;
    s.coll |= e->req > 0;
    return s;
}

/* The same for two expressions evaluated in either order (C leaves it open). */
static shst sh_expr2(shst s, const enode *a, const enode *b, bool *bad)
{
    enode both = *a;
    both.must_bar = a->must_bar || b->must_bar;
    both.sh_other = a->sh_other || b->sh_other;
    both.sh_wown = a->sh_wown || b->sh_wown;
    return sh_expr(s, &both, bad);
}

/* ---- rendering ----------------------------------------------------------------------------- */

typedef struct buf {
    char *s;
    size_t n, cap;
} buf;

static void bput(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bput(buf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0)
            return;
        if (b->s && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        }
        size_t cap = b->cap ? b->cap : 1024;
        while (cap <= b->n + (size_t)k)
            cap *= 2;
        char *g = realloc(b->s, cap);
        if (!g) {
            fprintf(stderr, "lattice-diff: out of memory\n");
            exit(2);
        }
        b->s = g;
        b->cap = cap;
    }
}

typedef struct rctx {
    const dg_program *p;
    buf *b;
    bool in_helper;
    bool sret; /* helpers return struct dg_r3 (the sret class) */
    bool cxx;  /* helpers' returns go through C++ (the cxx class) */
    unsigned slot; /* next record slot */
} rctx;

static void var_name(const dg_program *p, int id, char *out, size_t n)
{
    static const char pre[] = {'v', 'a', 'i', 'c', 'x'};
    snprintf(out, n, "%c%d", id >= 0 && id < p->nv ? pre[p->v[id].kind] : '?', id);
}

static const char *mask(const dg_program *p) { return p->full ? "0xffffffffu" : "WM"; }

static void r_expr(rctx *r, const enode *e)
{
    buf *b = r->b;
    char nm[16];
    switch (e->op) {
    case E_CONST:
        bput(b, "%uu", e->val);
        break;
    case E_VAR:
        var_name(r->p, e->ref, nm, sizeof nm);
        bput(b, "%s", nm);
        break;
    case E_LEAF:
        bput(b, "%s", r->in_helper ? leaves[e->sub].h : leaves[e->sub].k);
        break;
    case E_IN:
        bput(b, "in[(");
        r_expr(r, e->k[0]);
        bput(b, ") %% %uu]", (unsigned)NIN);
        break;
    case E_SH:
        if (e->sub == SH_OWN) {
            bput(b, "sh[%s]", r->in_helper ? "LT" : "lt");
        } else {
            bput(b, "sh[(");
            r_expr(r, e->k[0]);
            bput(b, ") %% NT]");
        }
        break;
    case E_LA:
        var_name(r->p, e->ref, nm, sizeof nm);
        bput(b, "%s[(", nm);
        r_expr(r, e->k[0]);
        bput(b, ") & %uu]", (unsigned)LA_N - 1);
        break;
    case E_UN:
        /* On unsigned values: ~ and - of an int would be signed. */
        bput(b, e->sub == 1 ? "(!" : "(%s(unsigned)", un_ops[e->sub]);
        r_expr(r, e->k[0]);
        bput(b, ")");
        break;
    case E_BIN:
        bput(b, "(");
        if (e->sub == B_SHL || e->sub == B_SHR)
            bput(b, "(unsigned)");
        r_expr(r, e->k[0]);
        bput(b, " %s ", bin_ops[e->sub]);
        if (e->sub == B_SHL || e->sub == B_SHR) {
            bput(b, "(");
            r_expr(r, e->k[1]);
            bput(b, " & 31u)");
        } else if (e->sub == B_DIV || e->sub == B_MOD) {
            bput(b, "(");
            r_expr(r, e->k[1]);
            bput(b, " | 1u)");
        } else {
            r_expr(r, e->k[1]);
        }
        bput(b, ")");
        break;
    case E_CMP:
        bput(b, "(");
        if (e->sub >= C_SLT)
            bput(b, "(int)");
        r_expr(r, e->k[0]);
        bput(b, " %s ", cmp_ops[e->sub]);
        if (e->sub >= C_SLT)
            bput(b, "(int)");
        r_expr(r, e->k[1]);
        bput(b, ")");
        break;
    case E_LAND:
    case E_LOR:
        bput(b, "(");
        r_expr(r, e->k[0]);
        bput(b, e->op == E_LAND ? " && " : " || ");
        r_expr(r, e->k[1]);
        bput(b, ")");
        break;
    case E_TERN:
        bput(b, "(");
        r_expr(r, e->k[0]);
        bput(b, " ? ");
        r_expr(r, e->k[1]);
        bput(b, " : ");
        r_expr(r, e->k[2]);
        bput(b, ")");
        break;
    case E_MIN:
    case E_MAX:
        bput(b, e->op == E_MIN ? "min(" : "max(");
        r_expr(r, e->k[0]);
        bput(b, ", ");
        r_expr(r, e->k[1]);
        bput(b, ")");
        break;
    case E_CALL:
        bput(b, "h%d(", e->ref);
        for (int i = 0; i < e->nk; i++) {
            if (i)
                bput(b, ", ");
            r_expr(r, e->k[i]);
        }
        bput(b, r->sret ? ").x" : ")");
        break;
    case E_BVOTE:
        bput(b, "%s(", bvote_names[e->sub]);
        r_expr(r, e->k[0]);
        bput(b, ")");
        break;
    case E_WVOTE:
        bput(b, "%s(%s, ", wvote_names[e->sub], mask(r->p));
        r_expr(r, e->k[0]);
        bput(b, ")");
        break;
    case E_SHFL:
        bput(b, "%s(%s, (unsigned)", shfl_names[e->sub], mask(r->p));
        r_expr(r, e->k[0]);
        /* A partial warp's lanes are 0 .. NL-1: a source lane stays among them. A delta
         * or lane mask of 32 or more is not defined (an H100 wraps a delta of 0xffffffff
         * to a lane above, and masks a lane mask to 5 bits; the emulator gives the
         * thread's own value): below 32, constants go as people write them. */
        if (e->sub == SF_IDX && !r->p->full) {
            bput(b, ", (");
            r_expr(r, e->k[1]);
            bput(b, ") %% NL");
        } else if (e->k[1]->op == E_CONST && e->k[1]->val < 32) {
            bput(b, ", ");
            r_expr(r, e->k[1]);
        } else {
            bput(b, ", (");
            r_expr(r, e->k[1]);
            bput(b, ") & 31u");
        }
        if (e->val != 32)
            bput(b, ", %u", e->val);
        bput(b, ")");
        break;
    case E_MATCH:
        bput(b, "__match_any_sync(%s, (unsigned)", mask(r->p));
        r_expr(r, e->k[0]);
        bput(b, ")");
        break;
    case E_REDUCE:
        bput(b, "%s(%s, (unsigned)", reduce_names[e->sub], mask(r->p));
        r_expr(r, e->k[0]);
        bput(b, ")");
        break;
    default:
        bput(b, "0u");
        break;
    }
}

static void indent(rctx *r, int d)
{
    for (int i = 0; i < d; i++)
        bput(r->b, "    ");
}

static void r_list(rctx *r, const slist *l, int d);

/* A statement list as the body of a construct: "{\n ... }" (no newline after). */
static void r_body(rctx *r, const slist *l, int d)
{
    bput(r->b, "{\n");
    r_list(r, l, d + 1);
    indent(r, d);
    bput(r->b, "}");
}

static void r_stmt(rctx *r, const snode *s, int d)
{
    buf *b = r->b;
    char nm[16];
    indent(r, d);
    if (s->var >= 0)
        var_name(r->p, s->var, nm, sizeof nm);
    switch (s->kind) {
    case S_DECL:
        bput(b, "unsigned %s = ", nm);
        r_expr(r, s->e[0]);
        bput(b, ";\n");
        break;
    case S_ASSIGN:
        bput(b, "%s %s ", nm, assign_ops[s->op]);
        r_expr(r, s->e[0]);
        bput(b, ";\n");
        break;
    case S_RECORD: {
        unsigned j = r->slot++;
        bput(b, "r[%u] = r[%u] * 31u + (", j, j);
        r_expr(r, s->e[0]);
        bput(b, ");\n");
        break;
    }
    case S_SHW:
        bput(b, "sh[%s] = ", r->in_helper ? "LT" : "lt");
        r_expr(r, s->e[0]);
        bput(b, ";\n");
        break;
    case S_LADECL:
        bput(b, "unsigned %s[%u] = {", nm, (unsigned)LA_N);
        for (int i = 0; i < LA_N; i++) {
            /* C++ refuses a narrowing int -> unsigned in braces. */
            bput(b, "%s(unsigned)", i ? ", " : "");
            r_expr(r, s->e[i]);
        }
        bput(b, "};\n");
        break;
    case S_LAW:
        bput(b, "%s[(", nm);
        r_expr(r, s->e[0]);
        bput(b, ") & %uu] = ", (unsigned)LA_N - 1);
        r_expr(r, s->e[1]);
        bput(b, ";\n");
        break;
    case S_SYNC:
        bput(b, "__syncthreads();\n");
        break;
    case S_SYNCWARP:
        bput(b, "__syncwarp(%s);\n", mask(r->p));
        break;
    case S_IF:
        bput(b, "if (");
        r_expr(r, s->e[0]);
        bput(b, ") ");
        r_body(r, s->b[0], d);
        if (s->b[1]) {
            bput(b, " else ");
            r_body(r, s->b[1], d);
        }
        bput(b, "\n");
        break;
    case S_FOR:
        bput(b, "for (unsigned %s = (", nm);
        r_expr(r, s->e[0]);
        bput(b, ") %% 3u; %s < (", nm);
        r_expr(r, s->e[1]);
        bput(b, ") %% 5u; %s += %uu) ", nm, s->val);
        r_body(r, s->b[0], d);
        bput(b, "\n");
        break;
    case S_WHILE:
        bput(b, "unsigned %s = 0u;\n", nm);
        indent(r, d);
        bput(b, "while (");
        if (s->op == 0) {
            bput(b, "%s++ < %uu && ", nm, s->val);
            r_expr(r, s->e[0]);
        } else {
            r_expr(r, s->e[0]);
            bput(b, " && %s++ < %uu", nm, s->val);
        }
        bput(b, ") ");
        r_body(r, s->b[0], d);
        bput(b, "\n");
        break;
    case S_DO:
        bput(b, "unsigned %s = 0u;\n", nm);
        indent(r, d);
        bput(b, "do ");
        r_body(r, s->b[0], d);
        bput(b, " while (%s++ < %uu && ", nm, s->val);
        r_expr(r, s->e[0]);
        bput(b, ");\n");
        break;
    case S_SWITCH:
        bput(b, "switch ((");
        r_expr(r, s->e[0]);
        bput(b, ") %% %uu) {\n", s->val);
        for (unsigned i = 0; i < s->val; i++) {
            indent(r, d);
            if (i + 1 < s->val)
                bput(b, "case %u: ", i);
            else
                bput(b, "default: ");
            r_body(r, s->b[i], d);
            if (i + 1 < s->val && (s->fall >> i & 1))
                bput(b, " /* falls through */\n");
            else
                bput(b, " break;\n");
        }
        indent(r, d);
        bput(b, "}\n");
        break;
    case S_BREAK:
        bput(b, "break;\n");
        break;
    case S_CONTINUE:
        bput(b, "continue;\n");
        break;
    case S_RETURN:
        if (s->e[0]) {
            bput(b, r->in_helper && r->sret  ? "return dg_r("
                    : r->in_helper && r->cxx ? "return dgx::Acc(dgx::id(dgx::id<unsigned>("
                                             : "return ");
            r_expr(r, s->e[0]);
            bput(b, r->in_helper && r->sret ? ");\n" : r->in_helper && r->cxx ? "), 5u)).get();\n" : ";\n");
        } else {
            bput(b, "return;\n");
        }
        break;
    case S_BLOCK:
        r_body(r, s->b[0], d);
        bput(b, "\n");
        break;
    default:
        break;
    }
}

static void r_list(rctx *r, const slist *l, int d)
{
    for (int i = 0; i < l->n; i++)
        r_stmt(r, l->s[i], d);
}

/* Which helpers a list calls (bit i: helper i). */
static unsigned calls_e(const enode *e)
{
    if (!e)
        return 0;
    unsigned m = e->op == E_CALL && e->ref >= 0 ? 1u << e->ref : 0;
    for (int i = 0; i < e->nk; i++)
        m |= calls_e(e->k[i]);
    return m;
}

static unsigned calls_l(const slist *l)
{
    unsigned m = 0;
    for (int i = 0; l && i < l->n; i++) {
        for (int j = 0; j < 4; j++) {
            m |= calls_e(l->s[i]->e[j]);
            m |= calls_l(l->s[i]->b[j]);
        }
    }
    return m;
}

static unsigned count_records(const slist *l)
{
    unsigned n = 0;
    for (int i = 0; l && i < l->n; i++) {
        n += l->s[i]->kind == S_RECORD;
        for (int j = 0; j < 4; j++)
            n += count_records(l->s[i]->b[j]);
    }
    return n;
}

char *dg_render(const dg_program *p, dg_run_info *info)
{
    buf b = {0};
    rctx r = {p, &b, false, 0};
    unsigned k = count_records(p->kernel);
    if (k == 0)
        k = 1;
    char feats[512];
    dg_format_features(p->feat, feats, sizeof feats);
    bput(&b, "/* lattice-diff --seed %llu --features %s: grid (%u,%u,%u), block (%u,%u,%u) */\n",
         (unsigned long long)p->seed, feats, p->grid[0], p->grid[1], p->grid[2], p->block[0],
         p->block[1], p->block[2]);
    /* Before the #defines: today's translator rejects a file-scope __shared__ that
     * follows a directive (README.md, "file-scope __shared__ after a #define"). */
    if (p->sh && p->sh_file)
        bput(&b, "__shared__ unsigned sh[%u];\n", p->nt);
    bput(&b, "#define NT %uu\n#define K %uu\n", p->nt, k);
    bput(&b, "#define LT (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z))\n");
    if (!p->full)
        bput(&b, "#define NL (NT - (LT & ~31u) < 32u ? NT - (LT & ~31u) : 32u) /* lanes in my warp */\n"
                 "#define WM (NL == 32u ? 0xffffffffu : (1u << NL) - 1u) /* their mask */\n");
    /* Helpers the kernel calls, directly or not. */
    unsigned used = calls_l(p->kernel);
    for (int i = p->nh - 1; i >= 0; i--)
        if (used >> i & 1)
            used |= calls_l(p->h[i].body);
    r.in_helper = true;
    /* The sret class: a 12-byte struct returned in two registers, which TinyCC stored
     * whole into a 12-byte temporary (cuda-samples' nbody looped for ever). */
    r.sret = (p->feat & DG_F_SRET) && (p->seed & 1) && used;
    if (r.sret)
        bput(&b, "struct dg_r3 { unsigned x, y, z; };\n"
                 "__device__ dg_r3 dg_r(unsigned v) { dg_r3 r; r.x = v; r.y = v ^ 1u; r.z = v + 7u; return r; }\n");
    /* The cxx class: the same values through a class, overloaded function templates (one
     * instance named, one deduced) and a namespace, in C++ linkage on every backend. */
    r.cxx = !r.sret && (p->feat & DG_F_CXX) && (p->seed & 3) == 2 && used;
    if (r.cxx)
        bput(&b, "extern \"C++\" {\n"
                 "namespace dgx {\n"
                 "struct Acc {\n"
                 "    unsigned v;\n"
                 "    __device__ Acc(unsigned x) : v(x) {}\n"
                 "    __device__ unsigned get() const { return v; }\n"
                 "};\n"
                 "template <typename T> __device__ T id(T x) { return x; }\n"
                 "template <typename T> __device__ T id(T x, T y) { return x ^ y ^ y; }\n"
                 "}\n"
                 "}\n");
    for (int i = 0; i < p->nh; i++) {
        if (!(used >> i & 1))
            continue;
        const helper *h = &p->h[i];
        bput(&b, r.sret ? "__device__ dg_r3 h%d(" : "__device__ unsigned h%d(", i);
        for (int j = 0; j < h->np; j++) {
            char nm[16];
            var_name(p, h->param[j], nm, sizeof nm);
            bput(&b, "%sunsigned %s", j ? ", " : "", nm);
        }
        if (h->np == 0)
            bput(&b, "void");
        bput(&b, ")\n{\n");
        r_list(&r, h->body, 1);
        bput(&b, "}\n");
    }
    r.in_helper = false;
    bput(&b, "__global__ void k(unsigned *o, const unsigned *in, unsigned p0, unsigned p1)\n{\n");
    bput(&b, "    unsigned lt = LT;\n"
             "    unsigned gt = lt + NT * (blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z));\n"
             "    unsigned *r = o + gt * K;\n");
    if (p->sh && !p->sh_file)
        bput(&b, "    __shared__ unsigned sh[NT];\n");
    r_list(&r, p->kernel, 1);
    bput(&b, "}\n");
    if (info) {
        memset(info, 0, sizeof *info);
        memcpy(info->grid, p->grid, sizeof info->grid);
        memcpy(info->block, p->block, sizeof info->block);
        info->threads = p->nt;
        info->slots = k;
        info->out_words = (size_t)p->grid[0] * p->grid[1] * p->grid[2] * p->nt * k;
        info->in = p->in;
        info->in_words = NIN;
        info->params[0] = p->params[0];
        info->params[1] = p->params[1];
    }
    return b.s;
}

/* ---- the verifier -------------------------------------------------------------------------- */

typedef struct bframe {
    bool loop;
    int L; /* how uniform the construct's body is */
    shst brk, cont;
} bframe;

/* A step of the path from the function's body to the statement being checked. */
typedef struct pstep {
    const slist *l; /* a list and the index in it, or */
    int i;
    const snode *c; /* a loop or switch */
} pstep;

typedef struct vctx {
    dg_program *p;
    int fn; /* -1: the kernel */
    bool bad;
    char *why;
    size_t why_size;
    bool vis[MAXV];
    bframe bf[64];
    int nbf;
    pstep path[128];
    int npath;
    int ret_unif, req;
    bool wown;
    bool exit_then_barrier; /* a return (of whole warps) with a barrier after it */
} vctx;

static void vfail(vctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void vfail(vctx *c, const char *fmt, ...)
{
    if (c->bad)
        return;
    c->bad = true;
    if (c->why && c->why_size) {
        int k = snprintf(c->why, c->why_size, "%s: ", c->fn < 0 ? "k" : "helper");
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->why + k, c->why_size - (size_t)k, fmt, ap);
        va_end(ap);
    }
}

static int req_e(const enode *e) { return e ? e->req : 0; }

static int req_l(const dg_program *p, const slist *l, int from);

/* The widest collective a statement can run (its expressions are annotated). */
static int req_s(const dg_program *p, const snode *s)
{
    int r = s->kind == S_SYNC ? UB : s->kind == S_SYNCWARP ? UW : 0;
    for (int i = 0; i < 4; i++) {
        if (s->e[i]) {
            annotate(p, s->e[i]);
            r = imax(r, req_e(s->e[i]));
        }
        if (s->b[i])
            r = imax(r, req_l(p, s->b[i], 0));
    }
    return r;
}

static int req_l(const dg_program *p, const slist *l, int from)
{
    int r = 0;
    for (int i = from; i < l->n; i++)
        r = imax(r, req_s(p, l->s[i]));
    return r;
}

static bool var_ok(vctx *c, int id, int kind)
{
    if (id < 0 || id >= c->p->nv || !c->vis[id]) {
        vfail(c, "variable %d used outside its scope", id);
        return false;
    }
    if (c->p->v[id].kind != kind && !(kind == V_SCALAR && c->p->v[id].kind != V_ARRAY)) {
        vfail(c, "variable %d used as the wrong kind", id);
        return false;
    }
    return true;
}

/* Checks an annotated expression evaluated in control flow of uniformity ctx. */
static void check_expr(vctx *c, const enode *e, int ctx)
{
    const dg_program *p = c->p;
    bool in_helper = c->fn >= 0;
    switch (e->op) {
    case E_VAR:
        var_ok(c, e->ref, V_SCALAR);
        break;
    case E_LA:
        var_ok(c, e->ref, V_ARRAY);
        break;
    case E_LEAF:
        if (e->sub >= NLEAVES || (in_helper && !leaves[e->sub].h))
            vfail(c, "a value the function cannot read");
        break;
    case E_IN:
        if (in_helper)
            vfail(c, "a helper reads the input");
        break;
    case E_SH:
        if (!p->sh || (in_helper && (!p->sh_file || e->sub != SH_OWN)))
            vfail(c, "a shared read the function cannot make");
        break;
    case E_CALL:
        if (e->ref < 0 || e->ref >= p->nh || (in_helper && e->ref >= c->fn)) {
            vfail(c, "a call of helper %d", e->ref);
            return;
        }
        if (ctx < p->h[e->ref].H)
            vfail(c, "h%d called in control flow less uniform than it needs", e->ref);
        if (e->nk != p->h[e->ref].np)
            vfail(c, "h%d called with %d arguments", e->ref, e->nk);
        for (int i = 0; i < e->nk && i < p->h[e->ref].np; i++)
            if (e->k[i]->unif < p->v[p->h[e->ref].param[i]].cls)
                vfail(c, "h%d's argument %d is less uniform than its parameter", e->ref, i);
        break;
    case E_BVOTE:
        if (ctx < UB)
            vfail(c, "%s in control flow that is not block-uniform", bvote_names[e->sub]);
        break;
    case E_WVOTE:
    case E_SHFL:
    case E_MATCH:
    case E_REDUCE:
        if (ctx < UW)
            vfail(c, "a warp operation in control flow that is not warp-uniform");
        if (e->op == E_SHFL && !p->full && (e->sub == SF_DOWN || e->sub == SF_XOR || e->val != 32))
            vfail(c, "a shuffle that could read a lane a partial warp lacks");
        break;
    default:
        break;
    }
    if (e->op == E_LAND || e->op == E_LOR || e->op == E_TERN) {
        check_expr(c, e->k[0], ctx);
        for (int i = 1; i < e->nk; i++)
            check_expr(c, e->k[i], imin(ctx, e->k[0]->unif));
        return;
    }
    for (int i = 0; i < e->nk; i++)
        check_expr(c, e->k[i], ctx);
}

/* Annotates and checks an expression; returns it. */
static const enode *vexpr(vctx *c, enode *e, int ctx)
{
    if (!e) {
        vfail(c, "a missing expression");
        return NULL;
    }
    annotate(c->p, e);
    check_expr(c, e, ctx);
    if (e->sh_wown)
        c->wown = true; /* a helper calling one that writes its slot writes it too */
    return e;
}

static shst v_list(vctx *c, const slist *l, int ctx, shst s);

static shst v_body(vctx *c, const slist *l, int ctx, shst s)
{
    if (!l) {
        vfail(c, "a missing body");
        return s;
    }
    bool saved[MAXV];
    memcpy(saved, c->vis, sizeof saved);
    s = v_list(c, l, ctx, s);
    memcpy(c->vis, saved, sizeof saved);
    return s;
}

static void declare(vctx *c, int id, int kind, int max_cls)
{
    if (id < 0 || id >= c->p->nv || c->p->v[id].kind != kind) {
        vfail(c, "a declaration of variable %d of the wrong kind", id);
        return;
    }
    if (c->p->v[id].cls > max_cls)
        vfail(c, "variable %d is declared more uniform than its value", id);
    c->vis[id] = true;
}

/* A loop: the state at its head is iterated to a fixed point. */
static shst v_loop(vctx *c, const snode *s, int L, shst s0)
{
    shst head = s0, out = s0;
    bool bad = false;
    const enode *cond = s->kind == S_FOR ? s->e[1] : s->e[0];
    /* `c++ < N && cond` (do, and while's first form): the check that ends the loop after
     * N rounds skips cond, and a barrier in it (seed 4242381: a write, then a read of
     * another thread's slot after the loop, raced). */
    bool skips = s->kind == S_DO || (s->kind == S_WHILE && s->op == 0);
    for (int round = 0; round < 8; round++) {
        if (c->nbf >= 64) {
            vfail(c, "nesting too deep");
            return s0;
        }
        c->bf[c->nbf++] = (bframe){true, L, {true, false, false}, {true, false, false}};
        shst back, exit_state;
        if (s->kind == S_DO) {
            shst b = v_body(c, s->b[0], L, head);
            shst pre = sh_join(b, c->bf[c->nbf - 1].cont);
            shst cs = sh_expr(pre, cond, &bad);
            back = cs;
            exit_state = skips ? sh_join(cs, pre) : cs;
        } else {
            shst cs = sh_expr(head, cond, &bad);
            shst b = v_body(c, s->b[0], L, cs);
            back = sh_join(b, c->bf[c->nbf - 1].cont);
            exit_state = skips ? sh_join(cs, head) : cs;
        }
        exit_state = sh_join(exit_state, c->bf[c->nbf - 1].brk);
        c->nbf--;
        out = exit_state;
        shst h2 = sh_join(s0, back);
        if (sh_same(h2, head))
            break;
        head = h2;
    }
    if (bad)
        vfail(c, "a shared-memory race in a loop condition");
    return out;
}

static shst v_stmt(vctx *c, const snode *s, int ctx, shst st)
{
    dg_program *p = c->p;
    bool kernel = c->fn < 0, bad = false;
    switch (s->kind) {
    case S_DECL: {
        const enode *e = vexpr(c, s->e[0], ctx);
        if (!e)
            break;
        declare(c, s->var, V_SCALAR, imin(ctx, e->unif));
        st = sh_expr(st, e, &bad);
        break;
    }
    case S_ASSIGN: {
        const enode *e = vexpr(c, s->e[0], ctx);
        if (!e)
            break;
        if (!var_ok(c, s->var, V_SCALAR))
            break;
        int k = p->v[s->var].kind;
        if (k != V_SCALAR && k != V_PARAM)
            vfail(c, "an assignment of a loop counter");
        int cls = p->v[s->var].cls;
        if (ctx < cls || e->unif < cls)
            vfail(c, "an assignment makes variable %d less uniform than declared", s->var);
        if (s->op >= sizeof assign_ops / sizeof *assign_ops)
            vfail(c, "an assignment operator");
        st = sh_expr(st, e, &bad);
        break;
    }
    case S_RECORD:
        if (!kernel)
            vfail(c, "a record in a helper");
        if (vexpr(c, s->e[0], ctx))
            st = sh_expr(st, s->e[0], &bad);
        break;
    case S_SHW:
        if (!p->sh || (!kernel && !p->sh_file))
            vfail(c, "a shared write the function cannot make");
        if (!vexpr(c, s->e[0], ctx))
            break;
        if (kernel) {
            st = sh_expr(st, s->e[0], &bad);
            if (!st.dead && (st.read || s->e[0]->sh_other))
                bad = true;
            if (!st.dead)
                st.dirty = true;
        } else {
            c->wown = true;
        }
        break;
    case S_LADECL:
        if (!vexpr(c, s->e[0], ctx) || !vexpr(c, s->e[1], ctx) || !vexpr(c, s->e[2], ctx) ||
            !vexpr(c, s->e[3], ctx))
            break;
        /* Conservative: the four in any order, as one. */
        st = sh_expr2(sh_expr2(st, s->e[0], s->e[1], &bad), s->e[2], s->e[3], &bad);
        if (s->e[0]->must_bar || s->e[1]->must_bar || s->e[2]->must_bar || s->e[3]->must_bar)
            vfail(c, "a barrier in a local array's initializer");
        declare(c, s->var, V_ARRAY, UB);
        break;
    case S_LAW:
        var_ok(c, s->var, V_ARRAY);
        if (vexpr(c, s->e[0], ctx) && vexpr(c, s->e[1], ctx))
            st = sh_expr2(st, s->e[0], s->e[1], &bad);
        break;
    case S_SYNC:
        if (ctx < UB)
            vfail(c, "__syncthreads in control flow that is not block-uniform");
        if (!st.dead)
            st = (shst){false, false, false};
        break;
    case S_SYNCWARP:
        if (ctx < UW)
            vfail(c, "__syncwarp in control flow that is not warp-uniform");
        st.coll = true;
        break;
    case S_IF: {
        const enode *e = vexpr(c, s->e[0], ctx);
        if (!e)
            break;
        st = sh_expr(st, e, &bad);
        int in = imin(ctx, e->unif);
        shst a = v_body(c, s->b[0], in, st);
        /* Unless every thread takes the same branch, some threads run one while others
         * run the other, unordered: the else is checked after the then. */
        shst b = s->b[1] ? v_body(c, s->b[1], in, in < UB ? sh_join(st, a) : st) : st;
        st = in < UB ? sh_join(sh_join(st, a), b) : sh_join(a, b);
        break;
    }
    case S_FOR: {
        const enode *init = vexpr(c, s->e[0], ctx);
        if (!init || !s->e[1])
            break;
        annotate(p, s->e[1]);
        int L = imin(ctx, imin(init->unif, s->e[1]->unif));
        check_expr(c, s->e[1], L);
        c->wown |= s->e[1]->sh_wown;
        st = sh_expr(st, init, &bad);
        if (s->val < 1 || s->val > 2)
            vfail(c, "a loop step");
        bool saved = s->var >= 0 && s->var < MAXV ? c->vis[s->var] : false;
        declare(c, s->var, V_FOR, L);
        if (c->npath < 128)
            c->path[c->npath++] = (pstep){NULL, 0, s};
        st = v_loop(c, s, L, st);
        c->npath--;
        if (s->var >= 0 && s->var < MAXV)
            c->vis[s->var] = saved;
        break;
    }
    case S_WHILE:
    case S_DO: {
        if (!s->e[0]) {
            vfail(c, "a loop without a condition");
            break;
        }
        annotate(p, s->e[0]);
        int L = imin(ctx, s->e[0]->unif);
        check_expr(c, s->e[0], L);
        c->wown |= s->e[0]->sh_wown;
        if (s->val < 1 || s->val > 8)
            vfail(c, "a loop limit");
        declare(c, s->var, V_WHILE, L);
        if (c->npath < 128)
            c->path[c->npath++] = (pstep){NULL, 0, s};
        st = v_loop(c, s, L, st);
        c->npath--;
        break;
    }
    case S_SWITCH: {
        const enode *e = vexpr(c, s->e[0], ctx);
        if (!e)
            break;
        if (s->val < 1 || s->val > 4) {
            vfail(c, "a switch's cases");
            break;
        }
        st = sh_expr(st, e, &bad);
        int L = imin(ctx, e->unif);
        if (c->nbf >= 64 || c->npath >= 128) {
            vfail(c, "nesting too deep");
            break;
        }
        c->path[c->npath++] = (pstep){NULL, 0, s};
        c->bf[c->nbf++] = (bframe){false, L, {true, false, false}, {true, false, false}};
        shst prev = {true, false, false}, all = st;
        for (unsigned i = 0; i < s->val; i++) {
            /* Cases other threads take run alongside, unless the selector is uniform. */
            shst end = v_body(c, s->b[i], L, L < UB ? all : sh_join(st, prev));
            all = sh_join(all, end);
            if (i + 1 < s->val && (s->fall >> i & 1)) {
                prev = end;
            } else {
                c->bf[c->nbf - 1].brk = sh_join(c->bf[c->nbf - 1].brk, end);
                prev = (shst){true, false, false};
            }
        }
        st = L < UB ? sh_join(all, c->bf[c->nbf - 1].brk) : c->bf[c->nbf - 1].brk;
        c->nbf--;
        c->npath--;
        break;
    }
    case S_BREAK:
    case S_CONTINUE: {
        int i = c->nbf - 1;
        for (; i >= 0; i--) {
            if (ctx < c->bf[i].L)
                vfail(c, "a %s in control flow less uniform than the construct it leaves",
                      s->kind == S_BREAK ? "break" : "continue");
            if (s->kind == S_BREAK || c->bf[i].loop)
                break;
        }
        if (i < 0) {
            vfail(c, "a %s outside a loop", s->kind == S_BREAK ? "break" : "continue");
            break;
        }
        if (s->kind == S_BREAK)
            c->bf[i].brk = sh_join(c->bf[i].brk, st);
        else
            c->bf[i].cont = sh_join(c->bf[i].cont, st);
        /* Threads that jump run on alongside those that do not: what they did stays in
         * the state of the others (all of a block jumping together leaves nobody). */
        if (ctx >= UB)
            st.dead = true;
        break;
    }
    case S_RETURN:
        if (kernel) {
            if (s->e[0])
                vfail(c, "the kernel returns a value");
            /* A returning thread that is alone (not a whole warp) must be past its last
             * collective: nothing after it on any path may wait for it. */
            int r = 0;
            for (int i = c->npath - 1; i >= 0; i--)
                r = imax(r, c->path[i].l ? req_l(p, c->path[i].l, c->path[i].i + 1)
                                          : req_s(p, c->path[i].c));
            if (ctx < UW && r > 0)
                vfail(c, "a divergent return before a collective");
            if (ctx < UB && r >= UB)
                c->exit_then_barrier = true;
        } else {
            const enode *e = vexpr(c, s->e[0], ctx);
            if (!e)
                break;
            const helper *h = &p->h[c->fn];
            if (!s->fixed && ctx < h->H)
                vfail(c, "a return in control flow less uniform than the helper's");
            c->ret_unif = imin(c->ret_unif, imin(ctx, e->unif));
            st = sh_expr(st, e, &bad);
        }
        if (ctx >= UB)
            st.dead = true;
        break;
    case S_BLOCK:
        st = v_body(c, s->b[0], ctx, st);
        break;
    default:
        vfail(c, "a statement of kind %d", s->kind);
        break;
    }
    if (bad)
        vfail(c, "a shared-memory race (statement kind %d)", s->kind);
    c->req = imax(c->req, req_s(p, s));
    return st;
}

static shst v_list(vctx *c, const slist *l, int ctx, shst s)
{
    if (c->npath >= 128) {
        vfail(c, "nesting too deep");
        return s;
    }
    int at = c->npath++;
    c->path[at] = (pstep){l, 0, NULL};
    for (int i = 0; i < l->n && !c->bad; i++) {
        c->path[at].i = i;
        s = v_stmt(c, l->s[i], ctx, s);
    }
    c->npath--;
    return s;
}

/* Verifies helper i (given those before it) and fills its derived fields. */
static int verify_helper(dg_program *p, int i, char *why, size_t why_size)
{
    helper *h = &p->h[i];
    vctx c = {.p = p, .fn = i, .why = why, .why_size = why_size, .ret_unif = UB};
    for (int j = 0; j < h->np; j++) {
        if (h->param[j] < 0 || h->param[j] >= p->nv || p->v[h->param[j]].kind != V_PARAM) {
            vfail(&c, "a parameter");
            return -1;
        }
        c.vis[h->param[j]] = true;
    }
    if (!h->body || h->body->n == 0 || h->body->s[h->body->n - 1]->kind != S_RETURN) {
        vfail(&c, "h%d does not end with a return", i);
        return -1;
    }
    v_list(&c, h->body, h->H, (shst){false, false, false});
    if (c.req > h->H)
        vfail(&c, "h%d needs more uniform control flow than it says", i);
    h->ret_unif = (unsigned char)c.ret_unif;
    h->req = (unsigned char)c.req;
    h->wown = c.wown;
    return c.bad ? -1 : 0;
}

static int verify(dg_program *p, char *why, size_t why_size)
{
    /* The launch: the kernel's sizes are written for nt threads per block. */
    if (p->nt == 0 || p->block[0] * p->block[1] * p->block[2] != p->nt ||
        p->full != (p->nt % 32 == 0) || !p->grid[0] || !p->grid[1] || !p->grid[2]) {
        if (why && why_size)
            snprintf(why, why_size, "a launch of block (%u,%u,%u) for %u threads", p->block[0],
                     p->block[1], p->block[2], p->nt);
        return -1;
    }
    for (int i = 0; i < p->nh; i++)
        if (verify_helper(p, i, why, why_size) != 0)
            return -1;
    vctx c = {.p = p, .fn = -1, .why = why, .why_size = why_size, .ret_unif = UB};
    v_list(&c, p->kernel, UB, (shst){false, false, false});
    return c.bad ? -1 : 0;
}

bool dg_exits_before_barrier(const dg_program *p)
{
    dg_program *c = dg_copy(p);
    bool r = false;
    if (verify(c, NULL, 0) == 0) {
        vctx v = {.p = c, .fn = -1, .ret_unif = UB};
        v_list(&v, c->kernel, UB, (shst){false, false, false});
        r = v.exit_then_barrier;
    }
    dg_free(c);
    return r;
}

int dg_verify(const dg_program *p, char *why, size_t why_size)
{
    /* Annotation writes derived fields: verify a copy, leave the caller's alone. */
    dg_program *c = dg_copy(p);
    int r = verify(c, why, why_size);
    dg_free(c);
    return r;
}

/* ---- the generator ------------------------------------------------------------------------- */

typedef struct G {
    rng r;
    dg_program *p;
    unsigned f;
    int fn;       /* -1: the kernel; else the helper being written */
    bool tail;    /* past the last collective: no collective may follow */
    int budget;   /* statements left */
    int depth;
    shst sh;      /* shared state at the point being written (kernel) */
    bool vis[MAXV];
    bframe bf[64];
    int nbf;
    /* per statement: the shared accesses of the expression being built */
    bool st_other, st_wown, st_rown, st_hwown; /* ... own slot read, a helper writing it called */
    int rctx;      /* how uniform control flow really is here (ctx, the parameter, is
                      what collectives may assume: no more than this) */
    bool any_cond; /* a return's condition: uniform, statically or not (no collective
                      goes under it) */
    char broken[256]; /* what the verifier found wrong with a helper just written */
} G;

static bool has(const G *g, unsigned f) { return (g->f & f) != 0; }

static int new_var(G *g, int kind, int cls)
{
    dg_program *p = g->p;
    if (p->nv >= MAXV)
        return -1;
    p->v[p->nv] = (var){(unsigned char)kind, (unsigned char)cls};
    return p->nv++;
}

/* The collectives that may be written here, by width. */
static bool can_bar(const G *g, int ctx) { return !g->tail && ctx >= UB; }
static bool can_warp(const G *g, int ctx) { return !g->tail && ctx >= UW; }
static bool any_warp_op(const G *g)
{
    return has(g, DG_F_WVOTE | DG_F_SHFL | DG_F_SHFLUP | DG_F_MATCH);
}

/* How uniform control flow under condition e is, as far as the generator may use it:
 * without DG_F_MASKED, in the kernel, only statically uniform conditions count (collectives
 * under the others are what that class adds). Helpers with collectives may use any: their
 * calls are inlined into region loops (passes/inline.c), which keep a state per thread. */
static int eff(const G *g, const enode *e)
{
    return g->fn >= 0 || has(g, DG_F_MASKED) || e->su ? e->unif : UD;
}

/* Must a condition wanted `min` uniform be statically uniform? */
static bool need_su(const G *g, int min)
{
    return min > UD && g->fn < 0 && !has(g, DG_F_MASKED) && !g->any_cond;
}

typedef struct eo {
    int ctx;   /* how uniform the control flow evaluating it is */
    int min;   /* how uniform the value must be */
    bool coll; /* may a collective be written at this node */
    bool su;   /* must it be statically uniform (annotate's su) */
} eo;

static enode *gen_expr(G *g, eo o, int depth);

static unsigned small_const(G *g)
{
    static const unsigned big[] = {0xffffffffu, 0x80000000u, 0x7fffffffu, 12345u, 1u << 16};
    return chance(&g->r, 85) ? rnd(&g->r, 10) : big[rnd(&g->r, 5)];
}

static enode *gen_leaf(G *g, eo o)
{
    dg_program *p = g->p;
    for (int tries = 0; tries < 8; tries++) {
        unsigned w = rnd(&g->r, 10);
        if (w < 2)
            return econst(small_const(g));
        if (w < 6) {
            /* A variable in scope, uniform enough. */
            int cand[MAXV], n = 0;
            for (int i = 0; i < p->nv; i++)
                if (g->vis[i] && p->v[i].kind != V_ARRAY && p->v[i].cls >= o.min &&
                    (!o.su || p->v[i].su))
                    cand[n++] = i;
            if (n) {
                enode *e = enew(E_VAR, 0);
                e->ref = cand[rnd(&g->r, (unsigned)n)];
                return e;
            }
            continue;
        }
        if (w < 9) {
            unsigned i = rnd(&g->r, NLEAVES);
            if (leaves[i].unif < o.min || (g->fn >= 0 && !leaves[i].h) ||
                (o.su && leaves[i].unif < UB))
                continue;
            if (!has(g, DG_F_DIMS) && (i == 1 || i == 2 || i == 4 || i == 6))
                continue;
            return enew(E_LEAF, (int)i);
        }
        /* Not beside a call that writes the slot: C leaves the order of the two open
         * (gcc and TinyCC took different ones). */
        if (o.min == UD && !o.su && p->sh && (g->fn < 0 || p->sh_file) && !g->st_hwown) {
            g->st_rown = true;
            return enew(E_SH, SH_OWN);
        }
    }
    return econst(small_const(g));
}

/* A collective whose value is at least o.min uniform, or NULL when none fits. */
static enode *gen_coll(G *g, eo o, int depth)
{
    eo arg = {o.ctx, UD, has(g, DG_F_INNER), false};
    int kinds[8], n = 0;
    if (o.su)
        return NULL; /* no collective's value is statically uniform */
    if (has(g, DG_F_BVOTE) && can_bar(g, o.ctx))
        kinds[n++] = 0;
    if (can_warp(g, o.ctx) && o.min <= UW) {
        if (has(g, DG_F_WVOTE))
            kinds[n++] = 1;
        if (has(g, DG_F_MATCH))
            kinds[n++] = 3, kinds[n++] = 4;
    }
    if (can_warp(g, o.ctx) && has(g, DG_F_SHFL | DG_F_SHFLUP))
        kinds[n++] = 2, kinds[n++] = 2;
    if (!n)
        return NULL;
    enode *e;
    switch (kinds[rnd(&g->r, (unsigned)n)]) {
    case 0:
        e = enew(E_BVOTE, (int)rnd(&g->r, 3));
        return ekid(e, gen_expr(g, arg, depth - 1));
    case 1:
        e = enew(E_WVOTE, (int)rnd(&g->r, 3));
        return ekid(e, gen_expr(g, arg, depth - 1));
    case 3:
        /* The lanes with my value: as uniform as the value, at best warp-uniform. */
        e = enew(E_MATCH, 0);
        return ekid(e, gen_expr(g, (eo){arg.ctx, o.min, arg.coll, false}, depth - 1));
    case 4:
        e = enew(E_REDUCE, (int)rnd(&g->r, 6));
        return ekid(e, gen_expr(g, arg, depth - 1));
    default: {
        /* Down and xor could read lanes a partial warp lacks. */
        int subs[4], ns = 0;
        if (has(g, DG_F_SHFL))
            subs[ns++] = SF_IDX;
        if (has(g, DG_F_SHFLUP))
            subs[ns++] = SF_UP;
        if (has(g, DG_F_SHFL) && g->p->full)
            subs[ns++] = SF_DOWN, subs[ns++] = SF_XOR;
        int sub = subs[rnd(&g->r, (unsigned)ns)];
        static const unsigned widths[] = {32, 32, 32, 16, 8, 4, 2, 1};
        e = enew(E_SHFL, sub);
        e->val = g->p->full ? widths[rnd(&g->r, 8)] : 32;
        /* The value: uniform enough for o.min, unless the source lane makes it so. */
        eo v = arg, src = arg;
        if (o.min == UW && sub == SF_IDX && e->val == 32 && chance(&g->r, 70))
            src.min = UW;
        else
            v.min = o.min;
        ekid(e, gen_expr(g, v, depth - 1));
        if (sub == SF_IDX && src.min == UD && chance(&g->r, 30))
            ekid(e, enew(E_LEAF, L_LANE)); /* a rotation needs lane arithmetic: */
        else if (chance(&g->r, 40))
            ekid(e, econst(rnd(&g->r, 32)));
        else
            ekid(e, gen_expr(g, src, depth - 1));
        if (sub == SF_IDX && e->k[1]->op == E_LEAF && e->k[1]->sub == L_LANE) {
            enode *plus = enew(E_BIN, 0);
            ekid(plus, e->k[1]);
            ekid(plus, econst(1 + rnd(&g->r, 31)));
            e->k[1] = plus;
        }
        return e;
    }
    }
}

/* A helper that fits here, or -1. */
static int pick_helper(G *g, eo o)
{
    int cand[MAXH], n = 0;
    int limit = g->fn >= 0 ? g->fn : g->p->nh;
    for (int i = 0; i < limit; i++) {
        const helper *h = &g->p->h[i];
        if (h->H > o.ctx || h->ret_unif < o.min)
            continue;
        if (h->req > 0 && (g->tail || !o.coll))
            continue;
        if (h->wown && (g->st_rown || (g->fn < 0 && (g->sh.read || g->st_other))))
            continue;
        cand[n++] = i;
    }
    return n ? cand[rnd(&g->r, (unsigned)n)] : -1;
}

static enode *gen_expr(G *g, eo o, int depth)
{
    dg_program *p = g->p;
    if (depth <= 0 || chance(&g->r, 25))
        return gen_leaf(g, o);
    eo sub = {o.ctx, o.min, o.coll && has(g, DG_F_NEST), o.su};
    for (int tries = 0; tries < 6; tries++) {
        unsigned w = rnd(&g->r, 100);
        /* Statically uniform: operators on constants, built-ins and parameters only. */
        if (o.su && ((w >= 44 && w < 48) || w >= 58))
            continue;
        if (w < 30) {
            enode *e = enew(E_BIN, (int)rnd(&g->r, NBIN));
            ekid(e, gen_expr(g, sub, depth - 1));
            ekid(e, chance(&g->r, 40) ? econst(small_const(g)) : gen_expr(g, sub, depth - 1));
            return e;
        }
        if (w < 40) {
            enode *e = enew(E_CMP, (int)rnd(&g->r, NCMP));
            ekid(e, gen_expr(g, sub, depth - 1));
            ekid(e, chance(&g->r, 50) ? econst(rnd(&g->r, 8)) : gen_expr(g, sub, depth - 1));
            return e;
        }
        if (w < 44) {
            enode *e = enew(E_UN, (int)rnd(&g->r, 3));
            ekid(e, gen_expr(g, sub, depth - 1));
            /* ~ and - of a && or || come out signed in TinyCC (README.md, bug H). */
            if (!has(g, DG_F_LNEG) && (e->k[0]->op == E_LAND || e->k[0]->op == E_LOR))
                e->sub = 1;
            return e;
        }
        if (w < 48) {
            enode *e = enew(chance(&g->r, 50) ? E_MIN : E_MAX, 0);
            ekid(e, gen_expr(g, sub, depth - 1));
            return ekid(e, gen_expr(g, sub, depth - 1));
        }
        if (w < 58) {
            if (!has(g, DG_F_LOGIC))
                continue;
            int op = (int)rnd(&g->r, 3);
            enode *e = enew(op == 0 ? E_LAND : op == 1 ? E_LOR : E_TERN, 0);
            ekid(e, gen_expr(g, sub, depth - 1));
            /* The other operands run only where the first says: as uniform as both. */
            annotate(p, e->k[0]);
            eo rest = {imin(o.ctx, eff(g, e->k[0])), o.min, sub.coll, o.su};
            ekid(e, gen_expr(g, rest, depth - 1));
            if (op == 2)
                ekid(e, gen_expr(g, rest, depth - 1));
            return e;
        }
        if (w < 66) {
            if (!has(g, DG_F_HELPER | DG_F_HCOLL))
                continue;
            int h = pick_helper(g, o);
            if (h < 0)
                continue;
            enode *e = enew(E_CALL, 0);
            e->ref = h;
            if (p->h[h].wown)
                g->st_wown = g->st_hwown = true;
            for (int i = 0; i < p->h[h].np; i++) {
                eo a = {o.ctx, p->v[p->h[h].param[i]].cls, sub.coll, false};
                ekid(e, gen_expr(g, a, depth - 1));
            }
            return e;
        }
        if (w < 80) {
            if (!o.coll)
                continue;
            enode *e = gen_coll(g, o, depth);
            if (!e)
                continue;
            return e;
        }
        if (w < 87) {
            if (g->fn >= 0)
                continue;
            enode *e = enew(E_IN, 0);
            return ekid(e, o.min == UD && chance(&g->r, 50) ? enew(E_LEAF, L_GT)
                                                             : gen_expr(g, sub, depth - 1));
        }
        if (w < 94) {
            /* Another thread's slot: only while no thread may have written since the
             * last barrier, and not in a statement that writes its own. */
            if (!p->sh || g->fn >= 0 || g->sh.dirty || g->st_wown)
                continue;
            enode *e = enew(E_SH, SH_OTHER);
            g->st_other = true;
            if (o.min == UD && chance(&g->r, 50)) {
                enode *i = enew(E_BIN, 0);
                ekid(i, enew(E_LEAF, L_LT));
                ekid(i, econst(1 + rnd(&g->r, p->nt)));
                return ekid(e, i);
            }
            return ekid(e, gen_expr(g, sub, depth - 1));
        }
        if (o.min == UD) {
            int cand[MAXV], n = 0;
            for (int i = 0; i < p->nv; i++)
                if (g->vis[i] && p->v[i].kind == V_ARRAY)
                    cand[n++] = i;
            if (!n)
                continue;
            enode *e = enew(E_LA, 0);
            e->ref = cand[rnd(&g->r, (unsigned)n)];
            return ekid(e, gen_expr(g, sub, depth - 1));
        }
    }
    return gen_leaf(g, o);
}

/* A value for a statement's right-hand side: a collective may stand at its root. */
static enode *gen_rhs(G *g, int ctx, int min)
{
    eo o = {ctx, min, true, false};
    enode *e = NULL;
    if (chance(&g->r, 30))
        e = gen_coll(g, o, 3);
    if (!e)
        e = gen_expr(g, o, 3);
    annotate(g->p, e);
    return e;
}

/* A condition at least `min` uniform. With DG_F_COND, often a collective in person. */
static enode *gen_cond(G *g, int ctx, int min)
{
    dg_program *p = g->p;
    eo o = {ctx, min, has(g, DG_F_NEST) && has(g, DG_F_COND), need_su(g, min)};
    enode *e = NULL;
    if (has(g, DG_F_COND) && !o.su && chance(&g->r, 45)) {
        eo c = {ctx, min, true, false};
        enode *k = gen_coll(g, c, 3);
        if (k) {
            switch (rnd(&g->r, 3)) {
            case 0:
                e = k;
                break;
            case 1:
                e = ekid(enew(E_UN, 1), k);
                break;
            default:
                e = ekid(ekid(enew(E_CMP, 2 + (int)rnd(&g->r, 4)), k), econst(rnd(&g->r, 40)));
                break;
            }
        }
    }
    if (!e) {
        unsigned w = rnd(&g->r, 4);
        if (w == 0 && min == UD) {
            /* The thread's index against a point inside the block. */
            enode *c = enew(E_CMP, 2 + (int)rnd(&g->r, 4));
            ekid(c, enew(E_LEAF, chance(&g->r, 50) ? L_LT : L_LANE));
            e = ekid(c, econst(rnd(&g->r, chance(&g->r, 50) ? 32 : p->nt + 1)));
        } else if (w == 1 && min <= UW && !o.su) {
            enode *c = enew(E_CMP, (int)rnd(&g->r, 6));
            ekid(c, enew(E_LEAF, L_WARP));
            e = ekid(c, econst(rnd(&g->r, (p->nt + 31) / 32 + 1)));
        } else {
            enode *m = enew(E_BIN, 4);
            ekid(m, gen_expr(g, o, 3));
            ekid(m, econst(7));
            enode *c = enew(E_CMP, 2 + (int)rnd(&g->r, 4));
            ekid(c, m);
            e = ekid(c, chance(&g->r, 70) ? econst(rnd(&g->r, 8)) : gen_expr(g, o, 2));
        }
    }
    annotate(p, e);
    return e;
}

/* A value steering control flow (a switch's selector, a loop's bound): with DG_F_COND
 * often a collective in person. */
static enode *gen_value(G *g, int ctx, int min)
{
    enode *e = NULL;
    bool su = need_su(g, min);
    if (has(g, DG_F_COND) && !su && chance(&g->r, 40))
        e = gen_coll(g, (eo){ctx, min, true, false}, 3);
    if (!e)
        e = gen_expr(g, (eo){ctx, min, has(g, DG_F_NEST) && has(g, DG_F_COND), su}, 3);
    annotate(g->p, e);
    return e;
}

/* How uniform to make a construct's condition: as uniform as allowed, often, when
 * collectives could go inside. */
static int pick_unif(G *g, int ctx)
{
    bool colls = !g->tail && (has(g, DG_F_BARRIER | DG_F_BVOTE) || any_warp_op(g) ||
                              (has(g, DG_F_HCOLL) && g->p->nh > 0));
    unsigned w = rnd(&g->r, 100);
    if (ctx >= UB && colls && w < 45)
        return UB;
    /* Warp-uniform conditions are never statically uniform. */
    if (ctx >= UW && colls && w < 70 && (!need_su(g, UW) || g->any_cond))
        return UW;
    return UD;
}

static void gen_list(G *g, slist *l, int ctx, int n);

/* A body under control flow that is `real` uniform, of which collectives may use `ctx`. */
static slist *gen_body(G *g, int ctx, int real, int n)
{
    int saved_rctx = g->rctx;
    g->rctx = real;
    slist *l = lnew();
    bool saved[MAXV];
    memcpy(saved, g->vis, sizeof saved);
    g->depth++;
    gen_list(g, l, ctx, n);
    g->depth--;
    /* Often, the values of the scope's variables into the output before they go. */
    for (int i = 0; g->fn < 0 && i < g->p->nv; i++)
        if (g->vis[i] && !saved[i] && g->p->v[i].kind != V_ARRAY && chance(&g->r, 60)) {
            snode *r = snew(S_RECORD);
            r->e[0] = enew(E_VAR, 0);
            r->e[0]->ref = i;
            ladd(l, r);
        }
    memcpy(g->vis, saved, sizeof saved);
    g->rctx = saved_rctx;
    return l;
}

static void begin_stmt(G *g) { g->st_other = g->st_wown = g->st_rown = g->st_hwown = false; }

/* Updates the shared state for an expression of the statement being written. */
static void sh_after(G *g, const enode *e)
{
    bool bad = false;
    if (g->fn < 0)
        g->sh = sh_expr(g->sh, e, &bad);
}

/* The same for two expressions evaluated in either order. */
static void sh_after2(G *g, const enode *a, const enode *b)
{
    bool bad = false;
    if (g->fn < 0)
        g->sh = sh_expr2(g->sh, a, b, &bad);
}

static snode *gen_loop(G *g, int kind, int ctx)
{
    dg_program *p = g->p;
    shst s0 = g->sh;
    int budget = g->budget, nv = p->nv;
    shst head = s0;
    for (int round = 0;; round++) {
        g->budget = budget;
        g->sh = head;
        int L = pick_unif(g, ctx);
        snode *s = snew(kind);
        begin_stmt(g);
        if (kind == S_FOR) {
            /* A constant start often: with a constant or uniform bound, the loop every
             * thread runs alike (the optimising tier's implicit loops). */
            s->e[0] = chance(&g->r, 40) ? econst(rnd(&g->r, 3)) : gen_expr(g, (eo){ctx, L, false, need_su(g, L)}, 2);
            annotate(p, s->e[0]);
            sh_after(g, s->e[0]);
            begin_stmt(g);
            s->e[1] = chance(&g->r, 40) ? econst(1 + rnd(&g->r, 4)) : gen_value(g, L, L);
            s->val = 1 + rnd(&g->r, 2);
        } else {
            s->e[0] = gen_cond(g, L, L);
            s->val = 1 + rnd(&g->r, 4);
            s->op = (unsigned char)rnd(&g->r, 2);
        }
        annotate(p, s->e[kind == S_FOR]);
        int cls = imin(ctx, s->e[kind == S_FOR]->unif);
        L = imin(ctx, eff(g, s->e[kind == S_FOR]));
        if (kind == S_FOR) {
            cls = imin(cls, s->e[0]->unif);
            L = imin(L, eff(g, s->e[0]));
        } else if (need_su(g, UB)) {
            L = UD; /* the counter in its condition is no constant to the translator */
        }
        s->var = new_var(g, kind == S_FOR ? V_FOR : V_WHILE, cls);
        if (s->var < 0) {
            sfree(s);
            return NULL;
        }
        /* A for loop's counter is what the translator sees uniform, when its bounds are. */
        p->v[s->var].su = kind == S_FOR && s->e[0]->su && s->e[1]->su;
        const enode *cond = s->e[kind == S_FOR];
        /* Jumps out must be as uniform as the loop really is. */
        int rL = imin(g->rctx, kind == S_FOR ? imin(s->e[0]->unif, s->e[1]->unif)
                                             : s->e[0]->unif);
        g->bf[g->nbf++] = (bframe){true, rL, {true, false, false}, {true, false, false}};
        bool saved = g->vis[s->var];
        g->vis[s->var] = true;
        shst back;
        if (kind == S_DO) {
            s->b[0] = gen_body(g, L, rL, 1 + (int)rnd(&g->r, 4));
            g->sh = sh_join(g->sh, g->bf[g->nbf - 1].cont);
            sh_after(g, cond);
            back = g->sh;
        } else {
            sh_after(g, cond);
            shst cs = g->sh;
            s->b[0] = gen_body(g, L, rL, 1 + (int)rnd(&g->r, 4));
            back = sh_join(g->sh, g->bf[g->nbf - 1].cont);
            g->sh = cs;
        }
        shst exit_state = sh_join(g->sh, g->bf[g->nbf - 1].brk);
        g->nbf--;
        /* The counter of a for loop is its own; a while's stays in scope after it. */
        g->vis[s->var] = kind == S_FOR ? saved : true;
        shst h2 = sh_join(s0, back);
        if (g->fn >= 0 || sh_same(sh_join(h2, head), head)) {
            g->sh = exit_state;
            return s;
        }
        /* The body leaves shared memory in a state its start did not expect: write the
         * loop again for that state (from the worst one after two tries). */
        sfree(s);
        for (int i = nv; i < p->nv; i++)
            g->vis[i] = false;
        p->nv = nv;
        head = round >= 1 ? (shst){false, true, true} : sh_join(head, h2);
        if (round >= 2) {
            g->sh = s0;
            g->budget = budget;
            return NULL;
        }
    }
}

/* Is a jump out to frame `target` (innermost first) allowed at uniformity ctx? */
static int jump_frame(G *g, bool is_break, int ctx)
{
    for (int i = g->nbf - 1; i >= 0; i--) {
        if (ctx < g->bf[i].L)
            return -1;
        if (is_break || g->bf[i].loop)
            return i;
    }
    return -1;
}

static snode *gen_stmt(G *g, int ctx)
{
    dg_program *p = g->p;
    bool kernel = g->fn < 0;
    int W[20] = {0};
    enum { K_DECL, K_ASSIGN, K_RECORD, K_SHW, K_LA, K_LAW, K_SYNC, K_SYNCWARP, K_IF, K_LOOP,
           K_SWITCH, K_JUMP, K_RETURN, K_BLOCK, K_N };
    bool deep = g->depth >= MAXDEPTH || g->budget < 3;
    W[K_DECL] = 18;
    W[K_ASSIGN] = 12;
    W[K_RECORD] = kernel ? 14 : 0;
    W[K_SHW] = p->sh && (kernel ? !g->sh.read : p->sh_file) ? 6 : 0;
    W[K_LA] = has(g, DG_F_LOCAL) ? 4 : 0;
    W[K_LAW] = has(g, DG_F_LOCAL) ? 3 : 0;
    W[K_SYNC] = has(g, DG_F_BARRIER) && can_bar(g, ctx) ? 8 : 0;
    W[K_SYNCWARP] = has(g, DG_F_WVOTE) && can_warp(g, ctx) ? 3 : 0;
    W[K_IF] = has(g, DG_F_IF) && !deep ? 16 : 0;
    W[K_LOOP] = has(g, DG_F_LOOP) && !deep ? 10 : 0;
    W[K_SWITCH] = has(g, DG_F_SWITCH) && !deep ? 4 : 0;
    W[K_JUMP] = has(g, DG_F_JUMP) && g->nbf > 0 ? 5 : 0;
    W[K_RETURN] = (kernel ? has(g, DG_F_RET) || (has(g, DG_F_TAIL) && g->tail)
                          : has(g, DG_F_IF)) ? 3 : 0;
    W[K_BLOCK] = !deep ? 2 : 0;
    int total = 0;
    for (int i = 0; i < K_N; i++)
        total += W[i];
    int pick = (int)rnd(&g->r, (unsigned)total), k = 0;
    while (pick >= W[k])
        pick -= W[k++];
    g->budget--;
    begin_stmt(g);
    snode *s = NULL;
    switch (k) {
    case K_DECL: {
        int min = chance(&g->r, 50) ? pick_unif(g, ctx) : UD;
        s = snew(S_DECL);
        s->e[0] = gen_rhs(g, ctx, min);
        s->var = new_var(g, V_SCALAR, imin(ctx, s->e[0]->unif));
        if (s->var < 0) {
            sfree(s);
            return NULL;
        }
        sh_after(g, s->e[0]);
        g->vis[s->var] = true;
        return s;
    }
    case K_ASSIGN: {
        int cand[MAXV], n = 0;
        for (int i = 0; i < p->nv; i++)
            if (g->vis[i] && (p->v[i].kind == V_SCALAR || p->v[i].kind == V_PARAM) &&
                p->v[i].cls <= ctx)
                cand[n++] = i;
        if (!n)
            return NULL;
        s = snew(S_ASSIGN);
        s->var = cand[rnd(&g->r, (unsigned)n)];
        s->op = (unsigned char)rnd(&g->r, 6);
        s->e[0] = gen_rhs(g, ctx, p->v[s->var].cls);
        sh_after(g, s->e[0]);
        return s;
    }
    case K_RECORD:
        s = snew(S_RECORD);
        s->e[0] = gen_rhs(g, ctx, UD);
        sh_after(g, s->e[0]);
        return s;
    case K_SHW:
        s = snew(S_SHW);
        g->st_wown = true; /* no other thread's slot in the value */
        s->e[0] = gen_rhs(g, ctx, UD);
        sh_after(g, s->e[0]);
        if (kernel) {
            if (g->sh.read) {
                sfree(s);
                return NULL;
            }
            g->sh.dirty = true;
        }
        return s;
    case K_LA: {
        s = snew(S_LADECL);
        for (int i = 0; i < LA_N; i++) {
            s->e[i] = gen_expr(g, (eo){ctx, UD, false}, 2);
            annotate(p, s->e[i]);
        }
        sh_after2(g, s->e[0], s->e[1]);
        sh_after2(g, s->e[2], s->e[3]);
        s->var = new_var(g, V_ARRAY, UD);
        if (s->var < 0) {
            sfree(s);
            return NULL;
        }
        g->vis[s->var] = true;
        return s;
    }
    case K_LAW: {
        int cand[MAXV], n = 0;
        for (int i = 0; i < p->nv; i++)
            if (g->vis[i] && p->v[i].kind == V_ARRAY)
                cand[n++] = i;
        if (!n)
            return NULL;
        s = snew(S_LAW);
        s->var = cand[rnd(&g->r, (unsigned)n)];
        s->e[0] = gen_expr(g, (eo){ctx, UD, false}, 2);
        annotate(p, s->e[0]);
        s->e[1] = gen_rhs(g, ctx, UD);
        sh_after2(g, s->e[0], s->e[1]);
        return s;
    }
    case K_SYNC:
        if (kernel)
            g->sh = g->sh.dead ? g->sh : (shst){false, false, false};
        return snew(S_SYNC);
    case K_SYNCWARP:
        g->sh.coll = true;
        return snew(S_SYNCWARP);
    case K_IF: {
        s = snew(S_IF);
        s->e[0] = gen_cond(g, ctx, pick_unif(g, ctx));
        sh_after(g, s->e[0]);
        int in = imin(ctx, eff(g, s->e[0]));
        shst st = g->sh;
        int rin = imin(g->rctx, s->e[0]->unif);
        s->b[0] = gen_body(g, in, rin, 1 + (int)rnd(&g->r, 4));
        shst a = g->sh;
        /* Branches of a divergent if run alongside: the else follows the then's state. */
        g->sh = in < UB ? sh_join(st, a) : st;
        if (chance(&g->r, 40))
            s->b[1] = gen_body(g, in, rin, 1 + (int)rnd(&g->r, 3));
        g->sh = in < UB ? sh_join(sh_join(st, a), g->sh) : sh_join(a, g->sh);
        return s;
    }
    case K_LOOP: {
        static const int kinds[] = {S_FOR, S_WHILE, S_DO};
        return gen_loop(g, kinds[rnd(&g->r, 3)], ctx);
    }
    case K_SWITCH: {
        s = snew(S_SWITCH);
        s->e[0] = chance(&g->r, 20) ? gen_cond(g, ctx, pick_unif(g, ctx))
                                    : gen_value(g, ctx, pick_unif(g, ctx));
        sh_after(g, s->e[0]);
        int L = imin(ctx, eff(g, s->e[0]));
        s->val = 2 + rnd(&g->r, 3);
        s->fall = rnd(&g->r, 8);
        int rL = imin(g->rctx, s->e[0]->unif);
        g->bf[g->nbf++] = (bframe){false, rL, {true, false, false}, {true, false, false}};
        shst entry = g->sh, prev = {true, false, false}, all = entry;
        for (unsigned i = 0; i < s->val; i++) {
            g->sh = L < UB ? all : sh_join(entry, prev);
            s->b[i] = gen_body(g, L, rL, 1 + (int)rnd(&g->r, 3));
            all = sh_join(all, g->sh);
            if (i + 1 < s->val && (s->fall >> i & 1)) {
                prev = g->sh;
            } else {
                g->bf[g->nbf - 1].brk = sh_join(g->bf[g->nbf - 1].brk, g->sh);
                prev = (shst){true, false, false};
            }
        }
        g->sh = L < UB ? sh_join(all, g->bf[g->nbf - 1].brk) : g->bf[g->nbf - 1].brk;
        g->nbf--;
        return s;
    }
    case K_JUMP: {
        /* if (cond) break; with a condition as uniform as the constructs it leaves. */
        bool is_break = chance(&g->r, 50);
        int need = UD;
        for (int i = g->nbf - 1; i >= 0; i--) {
            need = imax(need, g->bf[i].L);
            if (is_break || g->bf[i].loop)
                break;
        }
        if (need > g->rctx)
            return NULL;
        snode *j = snew(is_break ? S_BREAK : S_CONTINUE);
        enode *c = gen_cond(g, ctx, need);
        int jctx = imin(g->rctx, c->unif);
        int f = jump_frame(g, is_break, jctx);
        if (f < 0) {
            efree(c);
            sfree(j);
            return NULL;
        }
        sh_after(g, c);
        if (is_break)
            g->bf[f].brk = sh_join(g->bf[f].brk, g->sh);
        else
            g->bf[f].cont = sh_join(g->bf[f].cont, g->sh);
        s = snew(S_IF);
        s->e[0] = c;
        s->b[0] = lnew();
        ladd(s->b[0], j);
        return s;
    }
    case K_RETURN: {
        snode *r = snew(S_RETURN);
        enode *c;
        if (kernel) {
            /* Today's region loops lose lanes from a warp operation's value when a thread
             * returns in the stretch after it (README.md, bug G). */
            if (!has(g, DG_F_WRET) && g->sh.coll) {
                sfree(r);
                return NULL;
            }
            /* Whole blocks or warps before collectives; single threads in the tail. */
            bool single = has(g, DG_F_TAIL) && g->tail && (!has(g, DG_F_RET) || chance(&g->r, 50));
            if (!single && g->rctx < UW) {
                sfree(r);
                return NULL;
            }
            g->any_cond = true;
            c = gen_cond(g, ctx, single ? UD : (ctx >= UB && chance(&g->r, 30) ? UB : UW));
            g->any_cond = false;
        } else {
            int H = p->h[g->fn].H;
            if (ctx < H) {
                sfree(r);
                return NULL;
            }
            c = gen_cond(g, ctx, H);
            r->e[0] = gen_rhs(g, imin(ctx, c->unif), UD);
        }
        sh_after(g, c);
        s = snew(S_IF);
        s->e[0] = c;
        s->b[0] = lnew();
        ladd(s->b[0], r);
        return s;
    }
    default: {
        s = snew(S_BLOCK);
        s->b[0] = gen_body(g, ctx, g->rctx, 1 + (int)rnd(&g->r, 3));
        return s;
    }
    }
}

static void gen_list(G *g, slist *l, int ctx, int n)
{
    for (int i = 0; i < n && g->budget > 0; i++) {
        snode *s = gen_stmt(g, ctx);
        if (s)
            ladd(l, s);
    }
}

static void pick_shape(G *g)
{
    dg_program *p = g->p;
    static const unsigned full[] = {32, 64, 64, 96, 128, 128, 160, 256};
    static const unsigned partial[] = {1, 5, 17, 31, 33, 40, 48, 63, 65, 100, 129, 200};
    bool part = has(g, DG_F_PARTIAL) && chance(&g->r, 60);
    unsigned nt = part ? partial[rnd(&g->r, 12)] : full[rnd(&g->r, 8)];
    p->nt = nt;
    p->full = nt % 32 == 0;
    p->block[0] = nt, p->block[1] = 1, p->block[2] = 1;
    if (has(g, DG_F_DIMS) && chance(&g->r, 70)) {
        /* x from the divisors of nt, then y from what is left; z takes the rest. */
        unsigned div[32], n = 0;
        for (unsigned d = 1; d <= nt && n < 32; d++)
            if (nt % d == 0)
                div[n++] = d;
        unsigned x = div[rnd(&g->r, n)], rest = nt / x;
        n = 0;
        for (unsigned d = 1; d <= rest && n < 32; d++)
            if (rest % d == 0)
                div[n++] = d;
        unsigned y = div[rnd(&g->r, n)], z = rest / y;
        if (z <= 64)
            p->block[0] = x, p->block[1] = y, p->block[2] = z;
    }
    p->grid[0] = 1 + rnd(&g->r, 3), p->grid[1] = 1, p->grid[2] = 1;
    if (has(g, DG_F_DIMS) && chance(&g->r, 40)) {
        p->grid[1] = 1 + rnd(&g->r, 2);
        p->grid[2] = chance(&g->r, 30) ? 2 : 1;
    }
}

static void gen_helper(G *g, int i)
{
    dg_program *p = g->p;
    helper *h = &p->h[i];
    bool colls = has(g, DG_F_HCOLL) &&
                 (has(g, DG_F_BARRIER | DG_F_BVOTE) || any_warp_op(g));
    if (colls && (!has(g, DG_F_HELPER) || chance(&g->r, 60))) {
        bool b = has(g, DG_F_BARRIER | DG_F_BVOTE) && (!any_warp_op(g) || chance(&g->r, 50));
        h->H = b ? UB : UW;
    } else {
        h->H = UD;
    }
    h->np = 1 + (int)rnd(&g->r, 3);
    memset(g->vis, 0, sizeof g->vis);
    for (int j = 0; j < h->np; j++) {
        int cls = chance(&g->r, 60) ? UD : (int)rnd(&g->r, 3);
        h->param[j] = new_var(g, V_PARAM, cls);
        g->vis[h->param[j]] = true;
    }
    g->fn = i;
    g->tail = false;
    g->nbf = 0;
    g->budget = 3 + (int)rnd(&g->r, 8);
    g->rctx = h->H;
    g->sh = (shst){false, false, false};
    h->body = lnew();
    gen_list(g, h->body, h->H, g->budget);
    snode *ret = snew(S_RETURN);
    ret->fixed = true;
    begin_stmt(g);
    ret->e[0] = gen_rhs(g, h->H, UD);
    ladd(h->body, ret);
    if (!g->broken[0])
        verify_helper(p, i, g->broken, sizeof g->broken);
}

/* One try at the program of a seed; NULL, with why, when the verifier rejects it. */
static dg_program *generate(uint64_t seed, unsigned features, unsigned attempt, char *why,
                            size_t cap)
{
    dg_program *p = xmalloc(sizeof *p);
    G g = {.p = p, .f = features, .fn = -1};
    uint64_t x = seed + attempt * 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 4; i++)
        g.r.s[i] = splitmix(&x);
    p->seed = seed;
    p->feat = features;
    pick_shape(&g);
    for (int i = 0; i < NIN; i++) {
        unsigned w = rnd(&g.r, 3);
        p->in[i] = w == 0 ? rnd(&g.r, 8) : w == 1 ? rnd(&g.r, 1000) : (uint32_t)next64(&g.r);
    }
    p->params[0] = rnd(&g.r, 8);
    p->params[1] = chance(&g.r, 50) ? rnd(&g.r, 100) : (uint32_t)next64(&g.r);
    p->sh = has(&g, DG_F_SHARED) && chance(&g.r, 70);
    p->sh_file = p->sh && chance(&g.r, 40);
    if (has(&g, DG_F_HELPER | DG_F_HCOLL)) {
        p->nh = 1 + (int)rnd(&g.r, 3);
        for (int i = 0; i < p->nh; i++)
            gen_helper(&g, i);
    }
    /* The kernel. */
    g.fn = -1;
    g.nbf = 0;
    g.depth = 0;
    memset(g.vis, 0, sizeof g.vis);
    p->kernel = lnew();
    if (p->sh) {
        /* Every slot written before anyone reads it. */
        snode *w = snew(S_SHW);
        w->fixed = true;
        w->e[0] = ekid(enew(E_IN, 0), enew(E_LEAF, L_GT));
        ladd(p->kernel, w);
        snode *b = snew(S_SYNC);
        b->fixed = true;
        ladd(p->kernel, b);
    }
    g.sh = (shst){false, false, false};
    g.rctx = UB;
    int top = 4 + (int)rnd(&g.r, 10);
    int tail_at = has(&g, DG_F_TAIL) ? (int)rnd(&g.r, (unsigned)top + 1) : top + 1;
    g.budget = 12 + (int)rnd(&g.r, 40);
    for (int i = 0; i < top && g.budget > 0; i++) {
        if (i == tail_at) {
            g.tail = true;
            /* A barrier to end the last stretch with a collective, so that returns may
             * follow without DG_F_WRET. */
            if (!has(&g, DG_F_WRET) && g.sh.coll && has(&g, DG_F_BARRIER)) {
                ladd(p->kernel, snew(S_SYNC));
                g.sh = (shst){false, false, false, false};
            }
        }
        snode *s = gen_stmt(&g, UB);
        if (s)
            ladd(p->kernel, s);
    }
    /* Every variable still in scope, and the thread's shared slot, into the output. */
    for (int i = 0; i < p->nv; i++)
        if (g.vis[i] && p->v[i].kind != V_ARRAY) {
            snode *r = snew(S_RECORD);
            r->e[0] = enew(E_VAR, 0);
            r->e[0]->ref = i;
            ladd(p->kernel, r);
        }
    if (p->sh) {
        snode *r = snew(S_RECORD);
        r->e[0] = enew(E_SH, SH_OWN);
        ladd(p->kernel, r);
    }
    if (g.broken[0]) {
        snprintf(why, cap, "%s", g.broken);
        dg_free(p);
        return NULL;
    }
    if (verify(p, why, cap) != 0) {
        dg_free(p);
        return NULL;
    }
    return p;
}

/* The generator's bookkeeping of what is defined on a GPU is not exact in every corner
 * (seed 11791 of every class once wrote a shared-memory race into a loop condition); the
 * verifier catches such a program, and the seed's next try, as fixed as the first, is
 * taken instead. A seed whose every try fails is a generator bug. */
dg_program *dg_generate(uint64_t seed, unsigned features)
{
    char why[256] = "";
    for (unsigned attempt = 0; attempt < 16; attempt++) {
        dg_program *p = generate(seed, features, attempt, why, sizeof why);
        if (p)
            return p;
    }
    fprintf(stderr, "lattice-diff: generator bug (seed %llu): 16 tries, the last: %s\n",
            (unsigned long long)seed, why);
    exit(3);
}

/* ---- shrinking ----------------------------------------------------------------------------- */

static size_t size_e(const enode *e)
{
    if (!e)
        return 0;
    size_t n = 1;
    for (int i = 0; i < e->nk; i++)
        n += size_e(e->k[i]);
    return n;
}

static size_t size_l(const slist *l)
{
    size_t n = 0;
    for (int i = 0; l && i < l->n; i++) {
        n++;
        for (int j = 0; j < 4; j++)
            n += size_e(l->s[i]->e[j]) + size_l(l->s[i]->b[j]);
    }
    return n;
}

size_t dg_size(const dg_program *p)
{
    size_t n = size_l(p->kernel);
    unsigned used = calls_l(p->kernel);
    for (int i = p->nh - 1; i >= 0; i--)
        if (used >> i & 1)
            used |= calls_l(p->h[i].body);
    for (int i = 0; i < p->nh; i++)
        if (used >> i & 1)
            n += size_l(p->h[i].body);
    return n;
}

/* Edits are counted in one walk; the same walk makes edit `want` (want < 0: count only). */
typedef struct ewalk {
    long want;
    size_t n;
    bool done;
} ewalk;

enum { SE_DELETE, SE_THEN, SE_ELSE, SE_NOELSE, SE_UNWRAP, SE_N };

/* Replaces *slot (an expression) per edit: 0 -> 0u, 1 -> 1u, 2.. -> operand i - 2. */
static void walk_e(ewalk *w, enode **slot)
{
    enode *e = *slot;
    if (!e || w->done)
        return;
    int edits = e->op == E_CONST && e->val <= 1 ? 0 : 2;
    for (int i = 0; i < edits + e->nk; i++) {
        if ((long)w->n++ == w->want) {
            w->done = true;
            if (i < edits) {
                *slot = econst((unsigned)i);
                efree(e);
            } else {
                enode *k = e->k[i - edits];
                e->k[i - edits] = NULL;
                efree(e);
                *slot = k;
            }
            return;
        }
    }
    for (int i = 0; i < e->nk && !w->done; i++)
        walk_e(w, &e->k[i]);
}

static void ldel(slist *l, int i)
{
    sfree(l->s[i]);
    memmove(l->s + i, l->s + i + 1, (size_t)(l->n - i - 1) * sizeof *l->s);
    l->n--;
}

static void walk_l(ewalk *w, slist *l)
{
    for (int i = 0; l && i < l->n && !w->done; i++) {
        snode *s = l->s[i];
        for (int k = 0; k < SE_N; k++) {
            bool ok = k == SE_DELETE ? !s->fixed
                      : k == SE_THEN || k == SE_NOELSE ? s->kind == S_IF && (k == SE_THEN || s->b[1])
                      : k == SE_ELSE ? s->kind == S_IF && s->b[1]
                      : s->kind == S_BLOCK;
            if (!ok)
                continue;
            if ((long)w->n++ != w->want)
                continue;
            w->done = true;
            if (k == SE_DELETE) {
                ldel(l, i);
            } else if (k == SE_NOELSE) {
                lfree(s->b[1]);
                s->b[1] = NULL;
            } else if (k == SE_UNWRAP) {
                /* { a; b; } -> a; b; */
                slist *in = s->b[0];
                s->b[0] = NULL;
                l->s[i] = NULL;
                sfree(s);
                memmove(l->s + i, l->s + i + 1, (size_t)(l->n - i - 1) * sizeof *l->s);
                l->n--;
                for (int j = in->n - 1; j >= 0; j--) {
                    ladd(l, NULL);
                    memmove(l->s + i + 1, l->s + i, (size_t)(l->n - i - 1) * sizeof *l->s);
                    l->s[i] = in->s[j];
                }
                free(in->s);
                free(in);
            } else {
                /* if (c) A else B -> { A } (or { B }) */
                snode *b = snew(S_BLOCK);
                int keep = k == SE_THEN ? 0 : 1;
                b->b[0] = s->b[keep];
                s->b[keep] = NULL;
                sfree(s);
                l->s[i] = b;
            }
            return;
        }
        for (int j = 0; j < 4 && !w->done; j++)
            walk_e(w, &s->e[j]);
        for (int j = 0; j < 4 && !w->done; j++)
            walk_l(w, s->b[j]);
    }
}

/* Smaller launches: one block; a 1-D block; 32 threads (or, for a partial warp, 33). */
static void walk_shape(ewalk *w, dg_program *p)
{
    unsigned blocks = p->grid[0] * p->grid[1] * p->grid[2];
    unsigned small = p->full ? 32 : 33;
    bool ok[3] = {blocks > 1, p->block[1] > 1 || p->block[2] > 1, p->nt > small};
    for (int k = 0; k < 3; k++) {
        if (!ok[k] || (long)w->n++ != w->want)
            continue;
        w->done = true;
        if (k == 0) {
            p->grid[0] = p->grid[1] = p->grid[2] = 1;
        } else {
            if (k == 2)
                p->nt = small;
            p->block[0] = p->nt;
            p->block[1] = p->block[2] = 1;
        }
        return;
    }
}

static void walk_program(ewalk *w, dg_program *p)
{
    walk_shape(w, p);
    walk_l(w, p->kernel);
    for (int i = 0; i < p->nh && !w->done; i++)
        walk_l(w, p->h[i].body);
}

size_t dg_edit_count(const dg_program *p)
{
    ewalk w = {-1, 0, false};
    walk_program(&w, (dg_program *)p); /* want < 0: nothing is changed */
    return w.n;
}

dg_program *dg_edited(const dg_program *p, size_t i)
{
    dg_program *c = dg_copy(p);
    ewalk w = {(long)i, 0, false};
    walk_program(&w, c);
    if (!w.done || verify(c, NULL, 0) != 0) {
        dg_free(c);
        return NULL;
    }
    return c;
}
