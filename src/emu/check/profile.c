/* The profile of a launch (profile.h; lattice/profile.h says what is counted). */
#include "profile.h"
#include "ck.h"

#include "emu/exec/exec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- counting ------------------------------------------------------------------------- */

typedef struct counts {
    uint64_t requests, transactions, ideal, lanes;
} counts;

/* A site's counts, [space][op], then its branches' (requests: warp-level executions,
 * transactions: those that diverged). */
enum { SLOTS = 7, BRANCH_SLOT = 6 };
#define SLOT(site, space, op) ((size_t)(site) * SLOTS + (size_t)(space) * 3 + (size_t)(op))

struct lat__pf_launch {
    pthread_mutex_t lock;
    const lat__ck_module *cm;
    int nsites;
    uint8_t *atomic; /* per site */
    counts *sites;   /* nsites * SLOTS */
    uint64_t barriers, warps;
    bool lost;
    char *kernel;
    lat_dim3 grid, block;
    size_t shared_bytes;
};

/* One warp instruction as it forms: the lanes that have made it, and their addresses. */
typedef struct group {
    uint32_t site, occ, lanes;
    uint32_t taken; /* a branch's lanes that took it */
    uint16_t warp;
    uint8_t used, space, kind; /* kind 0: a branch */
    unsigned long size;
    uintptr_t a[32];
} group;

struct lat__pf_worker {
    lat__pf_launch *P;
    int n;
    uint32_t *occ; /* per thread of the block and site: executions so far */
    group *g;
    size_t cap, used;
    counts *sites;
    uint64_t barriers, warps;
    bool lost;
};

/* Groups kept before they are counted even without a barrier (memory: ~300 bytes each). */
enum { MAX_GROUPS = 1 << 17 };

lat__pf_launch *lat__pf_launch_new(const lat__ck_launch *L, const lat__emu_kernel *k,
                                   const lat__launch *launch)
{
    lat__pf_launch *P = calloc(1, sizeof *P);
    if (!P)
        return NULL;
    P->cm = L->cm;
    P->nsites = L->cm->nsites;
    P->atomic = calloc((size_t)P->nsites + 1, 1);
    P->sites = calloc((size_t)P->nsites * SLOTS + 1, sizeof *P->sites);
    P->kernel = strdup(k->name);
    if (!P->atomic || !P->sites || !P->kernel || pthread_mutex_init(&P->lock, NULL) != 0) {
        free(P->atomic);
        free(P->sites);
        free(P->kernel);
        free(P);
        return NULL;
    }
    for (int i = 0; i < P->nsites; i++)
        P->atomic[i] = L->cm->sites[i].kind == LAT_ACCESS_ATOMIC;
    P->grid = (lat_dim3){launch->grid[0], launch->grid[1], launch->grid[2]};
    P->block = (lat_dim3){launch->block[0], launch->block[1], launch->block[2]};
    P->shared_bytes = k->shared_bytes + launch->shared_bytes;
    return P;
}

lat__pf_worker *lat__pf_worker_new(lat__pf_launch *P, int threads)
{
    lat__pf_worker *W = calloc(1, sizeof *W);
    if (W) {
        W->P = P;
        W->n = threads;
        W->occ = calloc((size_t)threads * (size_t)P->nsites + 1, sizeof *W->occ);
        W->sites = calloc((size_t)P->nsites * SLOTS + 1, sizeof *W->sites);
        W->cap = 1024;
        W->g = calloc(W->cap, sizeof *W->g);
    }
    if (!W || !W->occ || !W->sites || !W->g) {
        pthread_mutex_lock(&P->lock);
        P->lost = true;
        pthread_mutex_unlock(&P->lock);
        if (W) {
            free(W->occ);
            free(W->sites);
            free(W->g);
            free(W);
        }
        return NULL;
    }
    return W;
}

static int cmp_addr(const void *x, const void *y)
{
    uintptr_t a = *(const uintptr_t *)x, b = *(const uintptr_t *)y;
    return a < b ? -1 : a > b;
}

/* The distinct units (of 1 << shift bytes) that the lanes' bytes fall in, sorted in
 * buf (cap entries); returns how many. */
static size_t units_of(const group *g, unsigned shift, uintptr_t *buf, size_t cap)
{
    size_t n = 0;
    for (int l = 0; l < 32; l++) {
        if (!(g->lanes >> l & 1))
            continue;
        uintptr_t lo = g->a[l] >> shift, hi = (g->a[l] + (g->size ? g->size : 1) - 1) >> shift;
        for (uintptr_t u = lo; u <= hi && n < cap; u++)
            buf[n++] = u;
    }
    qsort(buf, n, sizeof *buf, cmp_addr);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || buf[i] != buf[m - 1])
            buf[m++] = buf[i];
    return m;
}

static void count(lat__pf_worker *W, const group *g)
{
    int lanes = __builtin_popcount(g->lanes);
    if (!lanes)
        return;
    if (g->kind == 0) {
        counts *c = &W->sites[(size_t)g->site * SLOTS + BRANCH_SLOT];
        c->requests++;
        /* A predicated if (passes/profile.c) idles lanes but takes no branch. */
        c->transactions += g->taken != 0 && g->taken != g->lanes &&
                           !W->P->cm->sites[g->site].predicated;
        c->lanes += (uint64_t)lanes;
        return;
    }
    enum { CAP = 32 * 66 };
    uintptr_t buf[CAP];
    uint64_t units, ideal;
    if (g->space == LAT_PROFILE_SHARED) {
        /* 32 banks of 4-byte words: a wavefront serves one word per bank, and every lane
         * asking for a word it serves. */
        size_t words = units_of(g, 2, buf, CAP);
        int per_bank[32] = {0}, most = 0;
        for (size_t i = 0; i < words; i++) {
            int b = (int)(buf[i] & 31);
            if (++per_bank[b] > most)
                most = per_bank[b];
        }
        units = most ? (uint64_t)most : 1;
        ideal = words ? (words + 31) / 32 : 1;
    } else {
        units = units_of(g, 5, buf, CAP);
        ideal = ((uint64_t)lanes * g->size + 31) / 32;
        if (!ideal)
            ideal = 1;
    }
    int ops[2], nops = 0;
    if (W->P->atomic[g->site])
        ops[nops++] = LAT_PROFILE_ATOMIC;
    else {
        if (g->kind & LAT_ACCESS_READ)
            ops[nops++] = LAT_PROFILE_LOAD;
        if (g->kind & LAT_ACCESS_WRITE)
            ops[nops++] = LAT_PROFILE_STORE;
    }
    for (int i = 0; i < nops; i++) {
        counts *c = &W->sites[SLOT(g->site, g->space, ops[i])];
        c->requests++;
        c->transactions += units;
        c->ideal += ideal;
        c->lanes += (uint64_t)lanes;
    }
}

static void flush(lat__pf_worker *W)
{
    if (!W->used)
        return;
    for (size_t i = 0; i < W->cap; i++)
        if (W->g[i].used) {
            count(W, &W->g[i]);
            W->g[i].used = 0;
        }
    W->used = 0;
}

static size_t slot_of(const lat__pf_worker *W, uint32_t site, uint32_t occ, uint16_t warp)
{
    uint64_t h = (uint64_t)site * 0x9E3779B97F4A7C15ull ^ (uint64_t)occ * 0xC2B2AE3D27D4EB4Full ^
                 (uint64_t)warp * 0x165667B19E3779F9ull;
    h ^= h >> 29;
    size_t i = (size_t)h & (W->cap - 1);
    while (W->g[i].used && !(W->g[i].site == site && W->g[i].occ == occ && W->g[i].warp == warp))
        i = (i + 1) & (W->cap - 1);
    return i;
}

static bool grow(lat__pf_worker *W)
{
    size_t cap = W->cap * 2;
    group *old = W->g, *g = calloc(cap, sizeof *g);
    if (!g)
        return false;
    size_t oldcap = W->cap;
    W->g = g;
    W->cap = cap;
    for (size_t i = 0; i < oldcap; i++)
        if (old[i].used)
            W->g[slot_of(W, old[i].site, old[i].occ, old[i].warp)] = old[i];
    free(old);
    return true;
}

static group *group_of(lat__pf_worker *W, unsigned lin, uint32_t site)
{
    uint32_t occ = W->occ[(size_t)lin * (size_t)W->P->nsites + site]++;
    if (W->used * 2 >= W->cap && (W->used >= MAX_GROUPS || !grow(W)))
        flush(W);
    uint16_t warp = (uint16_t)(lin / 32);
    group *g = &W->g[slot_of(W, site, occ, warp)];
    if (!g->used) {
        g->used = 1;
        g->site = site;
        g->occ = occ;
        g->warp = warp;
        g->lanes = 0;
        g->taken = 0;
        W->used++;
        return g;
    }
    return g;
}

int lat__pf_branch(lat__emu_thread *t, int code, int taken)
{
    lat__ck_launch *L = lat__ck_of(t);
    lat__pf_worker *W = L->pf;
    uint32_t site = (uint32_t)(code / LAT__CK_CODE_SITE);
    if (!W || (int)site >= W->P->nsites || (int)t->lin >= W->n)
        return taken;
    group *g = group_of(W, t->lin, site);
    g->kind = 0;
    g->size = 0;
    g->space = 0;
    g->lanes |= 1u << (t->lin % 32);
    if (taken)
        g->taken |= 1u << (t->lin % 32);
    return taken;
}

void lat__pf_access(lat__pf_worker *W, const lat__ck_launch *L, unsigned lin, uintptr_t a,
                    unsigned long size, int code)
{
    const lat__emu_stacks *st = &L->b->stacks;
    if ((code & LAT__CK_CODE_LOCAL) || a - (uintptr_t)st->map < st->map_size)
        return; /* a local variable: registers or local memory, not counted */
    uintptr_t sh = (uintptr_t)L->sh;
    size_t sh_size = L->sh_size;
    uint32_t site = (uint32_t)(code / LAT__CK_CODE_SITE);
    if ((int)site >= W->P->nsites || (int)lin >= W->n)
        return;
    group *g = group_of(W, lin, site);
    if (!g->lanes) {
        g->size = size;
        g->kind = (uint8_t)(code & 3);
        g->space = a - sh < sh_size ? LAT_PROFILE_SHARED : LAT_PROFILE_GLOBAL;
    }
    g->lanes |= 1u << (lin % 32);
    g->a[lin % 32] = a;
}

void lat__pf_block_start(lat__pf_worker *W)
{
    memset(W->occ, 0, (size_t)W->n * (size_t)W->P->nsites * sizeof *W->occ);
    W->warps += (uint64_t)(W->n + 31) / 32;
}

void lat__pf_barrier(lat__pf_worker *W)
{
    flush(W);
    W->barriers += (uint64_t)(W->n + 31) / 32;
}

void lat__pf_block_end(lat__pf_worker *W)
{
    flush(W);
}

void lat__pf_worker_end(lat__pf_worker *W)
{
    if (!W)
        return;
    flush(W);
    lat__pf_launch *P = W->P;
    pthread_mutex_lock(&P->lock);
    for (size_t i = 0; i < (size_t)P->nsites * SLOTS; i++) {
        P->sites[i].requests += W->sites[i].requests;
        P->sites[i].transactions += W->sites[i].transactions;
        P->sites[i].ideal += W->sites[i].ideal;
        P->sites[i].lanes += W->sites[i].lanes;
    }
    P->barriers += W->barriers;
    P->warps += W->warps;
    P->lost |= W->lost;
    pthread_mutex_unlock(&P->lock);
    free(W->occ);
    free(W->sites);
    free(W->g);
    free(W);
}

/* ---- the result ------------------------------------------------------------------------ */

struct lat_profile {
    lat_profile_summary s;
    lat_profile_row *rows;
    size_t nrows;
};

void lat__pf_free(lat_profile *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->nrows; i++) {
        free((char *)p->rows[i].file);
        free((char *)p->rows[i].expr);
    }
    free(p->rows);
    free((char *)p->s.kernel);
    free(p);
}

void lat_profile_free(lat_profile *p)
{
    LAT__API();
    lat__pf_free(p);
}

static uint64_t excess(const lat_profile_row *r)
{
    return r->transactions > r->ideal ? r->transactions - r->ideal : 0;
}

static int by_cost(const void *x, const void *y)
{
    const lat_profile_row *a = x, *b = y;
    uint64_t ea = excess(a), eb = excess(b);
    if (ea != eb)
        return ea > eb ? -1 : 1;
    if (a->transactions != b->transactions)
        return a->transactions > b->transactions ? -1 : 1;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    return (int)(a->space * 3 + a->op) - (int)(b->space * 3 + b->op);
}

/* Theoretical occupancy on compute capability 9.0: 64 warps, 32 blocks and 228 KiB of
 * shared memory a multiprocessor, 1 KiB of it reserved per block. */
static void occupancy(lat_profile_summary *s)
{
    unsigned long threads = (unsigned long)s->block.x * s->block.y * s->block.z;
    unsigned long wpb = (threads + 31) / 32;
    unsigned long by_warps = wpb ? 64 / wpb : 0, by_blocks = 32, by_shared = 32;
    if (s->shared_bytes)
        by_shared = 233472 / (s->shared_bytes + 1024);
    unsigned long blocks = by_warps;
    s->occupancy_limit = "warps";
    if (by_blocks < blocks) {
        blocks = by_blocks;
        s->occupancy_limit = "blocks";
    }
    if (by_shared < blocks) {
        blocks = by_shared;
        s->occupancy_limit = "shared memory";
    }
    s->occupancy = (double)(blocks * wpb) / 64.0;
}

void lat__pf_launch_end(lat__pf_launch *P, lat__ck_ctx *ck)
{
    if (!P)
        return;
    lat_profile *p = calloc(1, sizeof *p);
    size_t n = 0;
    for (size_t i = 0; i < (size_t)P->nsites * SLOTS; i++)
        n += P->sites[i].requests != 0;
    if (p)
        p->rows = calloc(n + 1, sizeof *p->rows);
    bool ok = p && p->rows;
    for (int site = 0; ok && site < P->nsites; site++)
        for (int sp = 0; sp < 2; sp++)
            for (int op = 0; op < 4; op++) {
                if (op == LAT_PROFILE_BRANCH && sp)
                    continue;
                const counts *c = &P->sites[op == LAT_PROFILE_BRANCH ? (size_t)site * SLOTS + BRANCH_SLOT
                                                                     : SLOT(site, sp, op)];
                if (!c->requests)
                    continue;
                const lat__ck_site *cs = &P->cm->sites[site];
                lat_profile_row *r = &p->rows[p->nrows++];
                *r = (lat_profile_row){strdup(cs->file ? cs->file : ""), cs->line,
                                       strdup(cs->expr ? cs->expr : ""), (lat_profile_space)sp,
                                       (lat_profile_op)op, c->requests, c->transactions,
                                       c->ideal, c->lanes};
                ok = r->file && r->expr;
                if (op == LAT_PROFILE_BRANCH) {
                    p->s.branches += c->requests;
                    p->s.divergent_branches += c->transactions;
                    p->s.branch_lanes += c->lanes;
                    continue;
                }
                p->s.requests[sp][op] += c->requests;
                p->s.transactions[sp][op] += c->transactions;
                p->s.ideal[sp][op] += c->ideal;
                p->s.lanes[sp][op] += c->lanes;
            }
    if (ok) {
        qsort(p->rows, p->nrows, sizeof *p->rows, by_cost);
        p->s.kernel = strdup(P->kernel);
        p->s.grid = P->grid;
        p->s.block = P->block;
        p->s.barriers = P->barriers;
        p->s.warps = P->warps;
        p->s.shared_bytes = P->shared_bytes;
        occupancy(&p->s);
        ok = p->s.kernel != NULL;
    }
    if (!ok) {
        lat__pf_free(p);
        p = NULL;
        lat__log(ck->ctx, LAT_LOG_ERROR, "kernel '%s': out of host memory for its profile",
                 P->kernel);
    } else {
        if (P->lost)
            lat__log(ck->ctx, LAT_LOG_ERROR, "kernel '%s': out of host memory for the "
                     "profile's records: some accesses were not counted", P->kernel);
        char *text = lat_profile_format(p, NULL);
        if (text)
            lat__log(ck->ctx, LAT_LOG_INFO, "%s", text);
        free(text);
        lat__pf_free(ck->profile);
        ck->profile = p;
    }
    pthread_mutex_destroy(&P->lock);
    free(P->atomic);
    free(P->sites);
    free(P->kernel);
    free(P);
}

/* ---- the public functions -------------------------------------------------------------- */

int lat_profile_enabled(const lat_context *ctx)
{
    LAT__API();
    return ctx && ctx->check && (ctx->check->modes & LAT_CHECK_PROFILE);
}

static lat_profile *copy(const lat_profile *q)
{
    lat_profile *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->s = q->s;
    p->s.kernel = strdup(q->s.kernel);
    p->rows = calloc(q->nrows + 1, sizeof *p->rows);
    bool ok = p->s.kernel && p->rows;
    for (size_t i = 0; ok && i < q->nrows; i++) {
        p->rows[i] = q->rows[i];
        p->rows[i].file = strdup(q->rows[i].file);
        p->rows[i].expr = strdup(q->rows[i].expr);
        p->nrows = i + 1;
        ok = p->rows[i].file && p->rows[i].expr;
    }
    if (!ok) {
        lat__pf_free(p);
        return NULL;
    }
    return p;
}

lat_status lat_profile_get(lat_context *ctx, lat_profile **out)
{
    LAT__API();
    if (!ctx || !out)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "NULL %s", ctx ? "out" : "ctx");
    *out = NULL;
    if (!lat_profile_enabled(ctx))
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "the context does not profile its launches "
                          "(LATTICE_PROFILE=1, or LAT_CHECK_PROFILE in lat_context_desc.check)");
    lat__ck_ctx *ck = ctx->check;
    pthread_mutex_lock(&ck->lock);
    lat_profile *p = ck->profile ? copy(ck->profile) : NULL;
    bool none = !ck->profile;
    pthread_mutex_unlock(&ck->lock);
    if (none)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "no launch has been profiled yet");
    if (!p)
        return lat__oom(ctx);
    *out = p;
    return LAT_OK;
}

const lat_profile_summary *lat_profile_summary_get(const lat_profile *p)
{
    LAT__API();
    return p ? &p->s : NULL;
}

size_t lat_profile_row_count(const lat_profile *p)
{
    LAT__API();
    return p ? p->nrows : 0;
}

const lat_profile_row *lat_profile_row_at(const lat_profile *p, size_t i)
{
    LAT__API();
    return p && i < p->nrows ? &p->rows[i] : NULL;
}

/* ---- as a table -------------------------------------------------------------------------- */

typedef struct text {
    char *buf;
    size_t len, cap;
    bool oom;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char small[512];
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0 || t->oom)
        return;
    if (t->len + (size_t)n + 1 > t->cap) {
        size_t cap = (t->cap ? t->cap * 2 : 1024) + (size_t)n;
        char *b = realloc(t->buf, cap);
        if (!b) {
            t->oom = true;
            return;
        }
        t->buf = b;
        t->cap = cap;
    }
    if ((size_t)n < sizeof small) {
        memcpy(t->buf + t->len, small, (size_t)n + 1);
    } else {
        va_start(ap, fmt);
        vsnprintf(t->buf + t->len, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    t->len += (size_t)n;
}

static const char *const space_names[] = {"global", "shared"};
static const char *const op_names[] = {"load", "store", "atomic", "branch"};

/* Line `line` of source (1-based), without its leading blanks, into buf. */
static const char *source_line(const char *source, int line, char *buf, size_t size)
{
    buf[0] = '\0';
    if (!source || line < 1)
        return buf;
    const char *p = source;
    for (int i = 1; i < line && p; i++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (!p)
        return buf;
    while (*p == ' ' || *p == '\t')
        p++;
    size_t n = strcspn(p, "\n");
    if (n >= size)
        n = size - 1;
    memcpy(buf, p, n);
    buf[n] = '\0';
    return buf;
}

char *lat_profile_format(const lat_profile *p, const char *source)
{
    LAT__API();
    if (!p)
        return NULL;
    text t = {0};
    const lat_profile_summary *s = &p->s;
    put(&t, "profile of kernel '%s', grid (%u,%u,%u), block (%u,%u,%u): %llu warps, "
            "%llu barrier instructions, theoretical occupancy %.0f%% (limited by %s)\n",
        s->kernel, s->grid.x, s->grid.y, s->grid.z, s->block.x, s->block.y, s->block.z,
        (unsigned long long)s->warps, (unsigned long long)s->barriers, s->occupancy * 100.0,
        s->occupancy_limit);
    for (int sp = 0; sp < 2; sp++)
        for (int op = 0; op < 3; op++) {
            unsigned long long r = s->requests[sp][op];
            if (!r)
                continue;
            put(&t, "  %-6s %-6s %10llu requests %11llu %s (%.2f a request, ideal %.2f), "
                    "%.1f active lanes a request\n",
                space_names[sp], op_names[op], r, s->transactions[sp][op],
                sp == LAT_PROFILE_SHARED ? "wavefronts" : "sectors   ",
                (double)s->transactions[sp][op] / (double)r, (double)s->ideal[sp][op] / (double)r,
                (double)s->lanes[sp][op] / (double)r);
        }
    if (s->branches)
        put(&t, "  branches      %10llu executed by warps, %llu diverged (%.1f%%), %.1f active lanes a branch\n",
            s->branches, s->divergent_branches, 100.0 * (double)s->divergent_branches / (double)s->branches,
            (double)s->branch_lanes / (double)s->branches);
    if (p->nrows)
        put(&t, "  %-14s %-6s %-6s %10s %8s %8s %6s  %s\n", "line", "space", "op", "requests",
            "per req", "ideal", "lanes", "access");
    for (size_t i = 0; i < p->nrows; i++) {
        const lat_profile_row *r = &p->rows[i];
        const char *file = strrchr(r->file, '/');
        file = file ? file + 1 : r->file;
        char where[64], line[160];
        snprintf(where, sizeof where, "%s:%d", file, r->line);
        put(&t, "  %-14s %-6s %-6s %10llu %8.2f %8.2f %6.1f  %s", where,
            r->op == LAT_PROFILE_BRANCH ? "" : space_names[r->space], op_names[r->op], r->requests, (double)r->transactions / (double)r->requests,
            (double)r->ideal / (double)r->requests, (double)r->lanes / (double)r->requests, r->expr);
        if (source)
            put(&t, "   | %s", source_line(source, r->line, line, sizeof line));
        put(&t, "\n");
    }
    if (t.oom) {
        free(t.buf);
        return NULL;
    }
    return t.buf ? t.buf : strdup("");
}
