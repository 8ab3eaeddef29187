/*
 * Checked launches (ck.h): the blocks of the grid run one after another, each thread of a
 * block on a fiber of its own. A host loop hands the threads their turns in the order the
 * schedule says (forward, reverse, or a fresh random permutation after every barrier); a
 * thread runs until it waits (a barrier, a warp operation), exits, or gives way (every
 * few thousand accesses, or at random accesses when preempting). So the checks see every
 * access in an order that can be chosen and replayed, and:
 *   - synccheck sees each barrier complete: the threads waiting must all wait at the same
 *     one, and none may have exited;
 *   - a block whose threads can no longer move (waiting for threads that exited or wait
 *     elsewhere) is a hang, reported exactly;
 *   - threads that only give way, touching the same few addresses and nobody writing, for
 *     a second, spin: a hang too; the watchdog stops anything else after timeout_s.
 */
#include "ck.h"

#include "emu/emu.h"
#include "emu/exec/guard.h"
#include "emu/warp.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#if defined(__SANITIZE_ADDRESS__)
#define LAT_CK_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LAT_CK_ASAN 1
#endif
#endif
#ifdef LAT_CK_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

enum {
    SLICE = 4096,      /* accesses before a thread gives way */
    REDZONE = 64,      /* bytes around each __shared__ variable */
    MAX_SPIN_MS = 1000 /* threads spinning this long with nobody writing: a hang */
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rnd(uint64_t *s)
{
    /* splitmix64: small, and the same sequence on every platform. */
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* ---- switching -------------------------------------------------------------------------- */

static void go(void **save, void **fake, void *to, const void *lo, size_t size)
{
#ifdef LAT_CK_ASAN
    __sanitizer_start_switch_fiber(fake, lo, size);
#else
    (void)fake;
    (void)lo;
    (void)size;
#endif
    lat__emu_fiber_switch(save, to);
#ifdef LAT_CK_ASAN
    __sanitizer_finish_switch_fiber(fake ? *fake : NULL, NULL, NULL);
#endif
}

/* Hands over from the context saved in *save (the host, a fiber that waits or gives way,
 * or one that has exited: fake NULL) to the next thread of the round's order that can
 * run, or back to the host when the round is over. One switch per turn: the threads pass
 * the turn to each other, as block.c's do. */
static void handoff(lat__ck_launch *L, void **save, void **fake)
{
    for (int k = L->pos + 1; k < L->n; k++) {
        int i = L->order[k];
        lat__ck_fiber *g = &L->f[i];
        if (g->state != LAT__CKF_RUN)
            continue;
        L->pos = k;
        L->ran++;
        L->cur = i;
        g->slice = 0;
        g->nseen = 0;
        go(save, fake, g->sp, lat__emu_stack_lo(&L->stacks, i), L->stacks.size);
        return;
    }
    L->pos = L->n;
    go(save, fake, L->host_sp, L->host_lo, L->host_size);
}

/* The running fiber stops its turn (it waits, or gives way); returns when it runs again. */
static void stop_turn(lat__ck_launch *L, lat__ck_fiber *f, bool spun)
{
    if (!spun)
        L->all_spun = false;
    handoff(L, &f->sp, &f->fake);
}

void lat__ck_yield(lat__ck_launch *L)
{
    lat__ck_fiber *f = &L->f[L->cur];
    stop_turn(L, f, f->nseen <= 4);
}

void lat__ck_yield_now(lat__ck_launch *L)
{
    stop_turn(L, &L->f[L->cur], false);
}

_Noreturn void lat__ck_abandon(lat__ck_launch *L)
{
    L->failed = true;
    void *dead;
    go(&dead, NULL, L->host_sp, L->host_lo, L->host_size);
    abort(); /* never resumed */
}

/* ---- failures and hangs -------------------------------------------------------------------- */

static void fail(lat__ck_launch *L, lat_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void fail(lat__ck_launch *L, lat_status st, const char *fmt, ...)
{
    if (L->status != LAT_OK)
        return;
    L->status = st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(L->msg, L->msg_size, fmt, ap);
    va_end(ap);
}

static lat_dim3 dim_of(lat__emu_u3 u)
{
    return (lat_dim3){u.x, u.y, u.z};
}

/* Appends the waiting threads to buf: "N threads, (a) to (b), wait in X at f:l; ...". */
static void describe_waits(const lat__ck_launch *L, char *buf, size_t size)
{
    size_t at = strlen(buf), start = at;
    bool *done = calloc((size_t)L->n, sizeof *done);
    if (!done)
        return;
    for (int i = 0; i < L->n && at + 1 < size; i++) {
        const lat__ck_fiber *f = &L->f[i];
        if (done[i] || (f->state != LAT__CKF_BAR && f->state != LAT__CKF_WARP))
            continue;
        const char *what = f->state == LAT__CKF_BAR ? "__syncthreads" : lat__emu_warp_name(f->op);
        int count = 0, last = i;
        for (int j = i; j < L->n; j++) {
            const lat__ck_fiber *g = &L->f[j];
            if (!done[j] && g->state == f->state && g->line == f->line && g->file == f->file &&
                (f->state == LAT__CKF_BAR || g->op == f->op)) {
                done[j] = true;
                count++;
                last = j;
            }
        }
        const lat__emu_u3 a = f->t.thread_idx, z = L->f[last].t.thread_idx;
        int w;
        if (count == 1)
            w = snprintf(buf + at, size - at, "%sthread (%u,%u,%u) waits in %s at %s:%d",
                         at > start ? "; " : "", a.x, a.y, a.z, what, f->file ? f->file : "?", f->line);
        else
            w = snprintf(buf + at, size - at, "%s%d threads, (%u,%u,%u) to (%u,%u,%u), wait in %s at %s:%d",
                         at > start ? "; " : "", count, a.x, a.y, a.z, z.x, z.y, z.z, what,
                         f->file ? f->file : "?", f->line);
        at += w > 0 ? (size_t)w : 0;
        if (at >= size)
            at = size - 1;
    }
    free(done);
}

/* The first and last thread (linear order) in a given state, and how many. */
static int range_of(const lat__ck_launch *L, int state, int *first, int *last)
{
    int n = 0;
    *first = *last = -1;
    for (int i = 0; i < L->n; i++)
        if (L->f[i].state == state) {
            if (*first < 0)
                *first = i;
            *last = i;
            n++;
        }
    return n;
}

static void report_hang(lat__ck_launch *L, const char *why, const lat__ck_fiber *at)
{
    lat_check_report r;
    memset(&r, 0, sizeof r);
    r.kind = LAT_CHECK_HANG;
    r.kernel = L->k->name;
    r.count = 1;
    r.access.kind = LAT_ACCESS_NONE;
    r.access.block = dim_of(L->bidx);
    r.access.file = "";
    r.access.expr = "";
    if (at) {
        r.access.thread = r.access.thread_last = dim_of(at->t.thread_idx);
        if (at->last_site >= 0 && at->last_site < L->cm->nsites) {
            const lat__ck_site *s = &L->cm->sites[at->last_site];
            r.access.file = s->file;
            r.access.line = s->line;
            r.access.expr = s->expr;
            r.access.kind = s->kind ? (lat_access_kind)s->kind : LAT_ACCESS_NONE;
            r.address = at->last_addr;
        }
    }
    r.message = why;
    lat__ck_report_add(L->ck, &r, -2, -2);
}

/* The watchdog: the block ran past the launch's timeout. at: a thread still running (its
 * place goes in the report), named in the message when name_thread (region loops, where
 * it is the one that never gave way). */
static void timed_out(lat__ck_launch *L, const lat__ck_fiber *at, bool name_thread)
{
    char what[400], who[80] = "";
    lat__emu_u3 b = L->bidx;
    if (name_thread && at)
        snprintf(who, sizeof who, "; thread (%u,%u,%u) was running", at->t.thread_idx.x,
                 at->t.thread_idx.y, at->t.thread_idx.z);
    snprintf(what, sizeof what,
             "kernel '%s' did not finish block (%u,%u,%u) within %g s (the checked launch's "
             "watchdog: lat_check_options.timeout_s, LATTICE_CHECK_TIMEOUT)%s",
             L->k->name, b.x, b.y, b.z, L->opts.timeout_s, who);
    report_hang(L, what, at);
    fail(L, LAT_ERROR_LAUNCH_FAILED, "%s", what);
}

/* No thread can move: the block can never finish. */
static void deadlock(lat__ck_launch *L)
{
    char what[900];
    lat__emu_u3 b = L->bidx;
    int n = snprintf(what, sizeof what,
                     "kernel '%s' can never finish block (%u,%u,%u): %d of its %d threads have "
                     "not exited and none can go on: ", L->k->name, b.x, b.y, b.z, L->live, L->n);
    (void)n;
    describe_waits(L, what, sizeof what);
    const lat__ck_fiber *first = NULL;
    for (int i = 0; i < L->n && !first; i++)
        if (L->f[i].state == LAT__CKF_BAR || L->f[i].state == LAT__CKF_WARP)
            first = &L->f[i];
    lat_check_report r;
    memset(&r, 0, sizeof r);
    r.kind = LAT_CHECK_HANG;
    r.kernel = L->k->name;
    r.count = 1;
    r.access.kind = first && first->state == LAT__CKF_WARP ? LAT_ACCESS_WARP : LAT_ACCESS_BARRIER;
    r.access.file = first && first->file ? first->file : "";
    r.access.line = first ? first->line : 0;
    r.access.expr = "";
    r.access.block = dim_of(b);
    if (first)
        r.access.thread = r.access.thread_last = dim_of(first->t.thread_idx);
    r.message = what;
    lat__ck_report_add(L->ck, &r, -3, -3);
    fail(L, LAT_ERROR_LAUNCH_FAILED, "%s", what);
    L->failed = true;
}

/* ---- barriers ----------------------------------------------------------------------------------- */

/* Threads fw..lw (linear, first and last) wait at the barrier at file:line while fe..le
 * have exited. */
static void divergence(lat__ck_launch *L, const char *file, int line, int fw, int lw, int fe,
                       int le)
{
    lat_check_report r;
    memset(&r, 0, sizeof r);
    r.kernel = L->k->name;
    r.count = 1;
    r.kind = LAT_CHECK_BARRIER_DIVERGENCE;
    r.check = LAT_CHECK_SYNCCHECK;
    r.access.kind = LAT_ACCESS_BARRIER;
    r.access.file = file ? file : "";
    r.access.line = line;
    r.access.expr = "";
    r.access.block = dim_of(L->bidx);
    r.access.thread = lat__ck_unlinear((uint64_t)fw, L->bdim);
    r.access.thread_last = lat__ck_unlinear((uint64_t)lw, L->bdim);
    r.other.kind = LAT_ACCESS_EXIT;
    r.other.file = "";
    r.other.expr = "";
    r.other.block = r.access.block;
    r.other.thread = lat__ck_unlinear((uint64_t)fe, L->bdim);
    r.other.thread_last = lat__ck_unlinear((uint64_t)le, L->bdim);
    lat__ck_report_add(L->ck, &r, -(1000 + line), -1);
}

/* synccheck at a barrier's completion: all waiters at one barrier, nobody exited. */
static void check_barrier(lat__ck_launch *L)
{
    if (!(L->modes & LAT_CHECK_SYNCCHECK))
        return;
    const lat__ck_fiber *a = NULL;
    int other = -1;
    for (int i = 0; i < L->n; i++) {
        const lat__ck_fiber *f = &L->f[i];
        if (f->state != LAT__CKF_BAR)
            continue;
        if (!a)
            a = f;
        else if (other < 0 && (f->line != a->line || f->file != a->file))
            other = i;
    }
    if (!a)
        return;
    lat_check_report r;
    memset(&r, 0, sizeof r);
    r.kernel = L->k->name;
    r.count = 1;
    r.access.kind = LAT_ACCESS_BARRIER;
    r.access.file = a->file ? a->file : "";
    r.access.line = a->line;
    r.access.expr = "";
    r.access.block = dim_of(a->t.block_idx);
    r.other.file = "";
    r.other.expr = "";
    r.other.block = r.access.block;
    if (other >= 0) {
        /* The threads at a's barrier, and those at the other one. */
        const lat__ck_fiber *o = &L->f[other];
        int fa = -1, la = -1, fo = -1, lo = -1, na = 0, no = 0;
        for (int i = 0; i < L->n; i++) {
            const lat__ck_fiber *f = &L->f[i];
            if (f->state != LAT__CKF_BAR)
                continue;
            if (f->line == a->line && f->file == a->file) {
                fa = fa < 0 ? i : fa;
                la = i;
                na++;
            } else if (f->line == o->line && f->file == o->file) {
                fo = fo < 0 ? i : fo;
                lo = i;
                no++;
            }
        }
        r.kind = LAT_CHECK_BARRIER_MISMATCH;
        r.check = LAT_CHECK_SYNCCHECK;
        r.access.thread = dim_of(L->f[fa].t.thread_idx);
        r.access.thread_last = dim_of(L->f[la].t.thread_idx);
        r.other.kind = LAT_ACCESS_BARRIER;
        r.other.file = o->file ? o->file : "";
        r.other.line = o->line;
        r.other.thread = dim_of(L->f[fo].t.thread_idx);
        r.other.thread_last = dim_of(L->f[lo].t.thread_idx);
        (void)na;
        (void)no;
        lat__ck_report_add(L->ck, &r, -(1000 + a->line), -(1000 + o->line));
        return;
    }
    int fe, le, fw, lw;
    if (range_of(L, LAT__CKF_EXIT, &fe, &le) == 0)
        return;
    range_of(L, LAT__CKF_BAR, &fw, &lw);
    divergence(L, a->file, a->line, fw, lw, fe, le);
}

static void release_barrier(lat__ck_launch *L)
{
    check_barrier(L);
    int arrived = L->at_bar, yes = L->bar_count;
    for (int i = 0; i < L->n; i++) {
        lat__ck_fiber *f = &L->f[i];
        if (f->state != LAT__CKF_BAR)
            continue;
        f->result = f->op == 1 ? (uint64_t)yes : f->op == 2 ? yes == arrived : f->op == 3 ? yes > 0 : 0;
        f->state = LAT__CKF_RUN;
    }
    L->at_bar = 0;
    L->bar_count = 0;
    L->epoch++;
}

/* ---- warps -------------------------------------------------------------------------------------- */

static void warp_mask_report(lat__ck_launch *L, const lat__ck_fiber *f, const char *why)
{
    lat_check_report r;
    memset(&r, 0, sizeof r);
    r.kind = LAT_CHECK_WARP_MASK;
    r.check = LAT_CHECK_SYNCCHECK;
    r.kernel = L->k->name;
    r.count = 1;
    r.access.kind = LAT_ACCESS_WARP;
    r.access.file = f->file ? f->file : "";
    r.access.line = f->line;
    r.access.expr = lat__emu_warp_name(f->op);
    r.access.block = dim_of(f->t.block_idx);
    r.access.thread = r.access.thread_last = dim_of(f->t.thread_idx);
    r.other.file = "";
    r.other.expr = "";
    char m[200];
    snprintf(m, sizeof m, "%s with mask 0x%08x %s", lat__emu_warp_name(f->op), f->mask, why);
    r.message = m;
    lat__ck_report_add(L->ck, &r, -(2000 + f->line), (int)(why[0]));
}

static void complete(lat__ck_launch *L, int w, uint32_t group)
{
    uint64_t vals[32];
    for (int j = 0; j < 32; j++)
        vals[j] = group >> j & 1u ? L->f[w * 32 + j].val : 0;
    for (int j = 0; j < 32; j++) {
        if (!(group >> j & 1u))
            continue;
        lat__ck_fiber *fj = &L->f[w * 32 + j];
        fj->result = lat__emu_warp_result(fj->op, j, group, vals, fj->arg, fj->width, &fj->pred);
        fj->state = LAT__CKF_RUN;
    }
    L->arrived[w] &= ~group;
    L->wepoch[w]++;
}

/* Completes the warp's operations whose lanes have all arrived at one of the same kind
 * (as block.c does). __activemask completes when no lane of the warp can run any more:
 * the lanes that reached one are its result. */
static void warp_progress(lat__ck_launch *L, int w)
{
    for (;;) {
        uint32_t arrived = L->arrived[w];
        bool progress = false;
        for (int l = 0; l < 32 && !progress; l++) {
            if (!(arrived >> l & 1u))
                continue;
            lat__ck_fiber *fl = &L->f[w * 32 + l];
            if (fl->op == LAT_EMU_W_ACTIVE)
                continue;
            uint32_t need = (fl->mask | 1u << l) & ~L->exited[w];
            if ((arrived & need) != need)
                continue;
            bool same = true;
            for (int j = 0; j < 32 && same; j++)
                if (need >> j & 1u)
                    same = L->f[w * 32 + j].op == fl->op;
            if (!same)
                continue;
            complete(L, w, need);
            progress = true;
        }
        if (!progress)
            break;
    }
    if (!L->am_waiting[w])
        return;
    uint32_t active = 0;
    for (int j = 0; j < 32 && w * 32 + j < L->n; j++) {
        const lat__ck_fiber *f = &L->f[w * 32 + j];
        if (f->state == LAT__CKF_RUN)
            return;
        if (f->state == LAT__CKF_WARP && f->op == LAT_EMU_W_ACTIVE)
            active |= 1u << j;
    }
    L->am_waiting[w] = 0;
    complete(L, w, active);
}

/* ---- what checked kernel code calls ------------------------------------------------------------- */

static lat__ck_fiber *self(lat__emu_thread *t)
{
    lat__ck_launch *L = t->rt;
    return &L->f[t->lin];
}

/* __syncthreads (kind 0), _count (1), _and (2), _or (3). */
static int ck_bar(lat__emu_thread *t, int kind, int pred, const char *file, int line)
{
    lat__ck_launch *L = t->rt;
    lat__ck_fiber *f = self(t);
    f->state = LAT__CKF_BAR;
    f->op = kind;
    f->file = file;
    f->line = line;
    L->at_bar++;
    L->bar_count += pred != 0;
    if (L->am_waiting[t->lin >> 5])
        warp_progress(L, (int)(t->lin >> 5));
    stop_turn(L, f, false);
    return (int)f->result;
}

static uint64_t ck_warp(lat__emu_thread *t, int op, unsigned mask, uint64_t val, int arg,
                        int width, const char *file, int line)
{
    lat__ck_launch *L = t->rt;
    lat__ck_fiber *f = self(t);
    int i = (int)t->lin, w = i >> 5, lane = i & 31;
    f->op = op;
    f->mask = mask;
    f->val = val;
    f->arg = arg;
    f->width = width;
    f->file = file;
    f->line = line;
    if ((L->modes & LAT_CHECK_SYNCCHECK) && op != LAT_EMU_W_ACTIVE) {
        int lanes = L->n - w * 32 < 32 ? L->n - w * 32 : 32;
        uint32_t there = lanes == 32 ? ~0u : (1u << lanes) - 1;
        if (!(mask >> lane & 1u))
            warp_mask_report(L, f, "leaves out the calling lane");
        else if (mask & ~there)
            warp_mask_report(L, f, "names lanes past the end of the block");
        else if (mask & L->exited[w])
            warp_mask_report(L, f, "names lanes that have exited");
    }
    f->state = LAT__CKF_WARP;
    L->arrived[w] |= 1u << lane;
    if (op == LAT_EMU_W_ACTIVE)
        L->am_waiting[w]++;
    warp_progress(L, w);
    if (f->state != LAT__CKF_RUN)
        stop_turn(L, f, false);
    return f->result;
}

static int ck_match_all(lat__emu_thread *t, unsigned mask, uint64_t val, int *pred,
                        const char *file, int line)
{
    uint64_t r = ck_warp(t, LAT_EMU_W_MATCH_ALL, mask, val, 0, 32, file, line);
    if (pred)
        *pred = self(t)->pred;
    return (int)r;
}

static unsigned ck_activemask(lat__emu_thread *t)
{
    return (unsigned)ck_warp(t, LAT_EMU_W_ACTIVE, 0, 0, 0, 32, NULL, 0);
}

static void ck_trap(lat__emu_thread *t, const char *expr, const char *file, int line)
{
    lat__ck_launch *L = t->rt;
    char what[256];
    if (expr)
        snprintf(what, sizeof what, "assertion `%s` failed", expr);
    else
        snprintf(what, sizeof what, "__trap() was called");
    fail(L, LAT_ERROR_LAUNCH_FAILED,
         "%s:%d: kernel '%s' trapped in block (%u,%u,%u), thread (%u,%u,%u): %s",
         file ? file : "?", line, L->k->name, t->block_idx.x, t->block_idx.y, t->block_idx.z,
         t->thread_idx.x, t->thread_idx.y, t->thread_idx.z, what);
    lat__ck_abandon(L);
}

/* A loop turn: counts toward the thread's slice like an access. */
/* Loop turns counted in kernel code between calls of ck_tick. */
enum { TICKS = 64 };
_Static_assert(offsetof(lat__ck_fiber, ticks) == offsetof(lat__ck_fiber, t) + sizeof(lat__emu_thread),
               "instrument.c's __LAT_TICK finds the count just past the thread context");

/* TICKS loop turns: they count toward the thread's slice like accesses. */
static void ck_tick(lat__emu_thread *t)
{
    lat__ck_launch *L = t->rt;
    /* The fiber whose context t is: a thread's, or in region loops the block's. */
    lat__ck_fiber *f = (lat__ck_fiber *)(void *)((char *)t - offsetof(lat__ck_fiber, t));
    f->ticks = TICKS;
    f->slice += TICKS;
    if (f->slice < L->budget)
        return;
    if (!L->region) {
        lat__ck_yield(L);
        return;
    }
    /* Region loops cannot give way: only the watchdog can end a loop that never does. */
    f->slice = 0;
    if (now_s() > L->deadline) {
        timed_out(L, &L->rf, true); /* rf.t holds the thread running */
        lat__ck_abandon(L);
    }
}

static void make_order(lat__ck_launch *L);

/* ---- region loops: what their code calls ------------------------------------------------------ */

/* A __syncthreads of a kernel run as region loops. region.c runs a checked kernel so only
 * when every thread that has not exited reaches each barrier: synccheck has only exits
 * to look for. Then the next epoch (racecheck) and, on a random schedule, a new order. */
static void ck_rbar(lat__emu_thread *t, const int *sk, const char *file, int line)
{
    lat__ck_launch *L = t->rt;
    if ((L->modes & LAT_CHECK_SYNCCHECK) && sk) { /* NULL: no thread can return early */
        int fw = -1, lw = -1, fe = -1, le = -1;
        for (int i = 0; i < L->n; i++) {
            if (sk[i] == LAT_EMU_REGION_EXITED) {
                fe = fe < 0 ? i : fe;
                le = i;
            } else {
                fw = fw < 0 ? i : fw;
                lw = i;
            }
        }
        if (fe >= 0 && fw >= 0)
            divergence(L, file, line, fw, lw, fe, le);
    }
    L->epoch++;
    if (L->opts.order == LAT_SCHEDULE_RANDOM)
        make_order(L);
}

/* A tracked local variable's declaration was reached (instrument.c): its bytes are
 * unwritten until a write by name. */
static void ck_local(lat__emu_thread *t, void *p, unsigned long n)
{
    lat__ck_launch *L = t->rt;
    if (!(L->modes & LAT_CHECK_INITCHECK))
        return;
    uintptr_t lo = (uintptr_t)L->stacks.map, a = (uintptr_t)p;
    if (a < lo || a + n > lo + L->stacks.map_size)
        return;
    if (!L->stack_poison) {
        void *m = mmap(NULL, L->stacks.map_size, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED)
            return; /* unchecked locals, as without initcheck */
        L->stack_poison = m;
    }
    memset(L->stack_poison + (a - lo), 1, n);
}

static const unsigned *ck_rorder(lat__emu_thread *t)
{
    lat__ck_launch *L = t->rt;
    return L->rorder;
}

/* The block's per-thread variables kept across barriers: a bump allocator, reset at each
 * block. */
static void *ck_scratch(lat__emu_thread *t, unsigned long bytes)
{
    lat__ck_launch *L = t->rt;
    size_t need = (bytes + 15) & ~(size_t)15;
    if (need > L->scratch_size - L->scratch_used) {
        fail(L, LAT_ERROR_LAUNCH_FAILED,
             "kernel '%s': the per-thread variables a block keeps across barriers need more "
             "than %zu MiB", L->k->name, L->scratch_size >> 20);
        lat__ck_abandon(L);
    }
    void *p = L->scratch + L->scratch_used;
    L->scratch_used += need;
    return p;
}

/* access.c: the entry points of memory accesses. */
void *lat__ck_access_plain(lat__emu_thread *t, void *addr, unsigned long size,
                           unsigned long align, int site);
void *lat__ck_access_array(lat__emu_thread *t, void *addr, unsigned long size,
                           unsigned long align, int site, void *base, unsigned long bsize);

#define SYM(name, fn) {name, (void (*)(void))(fn)}

const lat__emu_symbol *lat__ck_symbols(size_t *count)
{
    static const lat__emu_symbol table[] = {
        SYM("__lat_ck", lat__ck_access_plain),
        SYM("__lat_cka", lat__ck_access_array),
        SYM("__lat_ck_tick", ck_tick),
        SYM("__lat_ck_bar", ck_bar),
        SYM("__lat_ck_warp", ck_warp),
        SYM("__lat_ck_match_all", ck_match_all),
        SYM("__lat_ck_activemask", ck_activemask),
        SYM("__lat_ck_trap", ck_trap),
        SYM("__lat_ck_local", ck_local),
        SYM("__lat_ck_rbar", ck_rbar),
        SYM("__lat_ck_rorder", ck_rorder),
        SYM("__lat_ck_scratch", ck_scratch),
    };
    *count = sizeof table / sizeof table[0];
    return table;
}

/* ---- running a block ---------------------------------------------------------------------------- */

/* A fiber's first moment: ASan learns the switch is done. The launch's first fiber is
 * started by the host: the stack it left is the host's. */
static void started(lat__ck_launch *L)
{
#ifdef LAT_CK_ASAN
    const void *lo;
    size_t size;
    __sanitizer_finish_switch_fiber(NULL, &lo, &size);
    if (!L->host_size) {
        L->host_lo = lo;
        L->host_size = size;
    }
#else
    (void)L;
#endif
}

static void fiber_main(void *arg)
{
    lat__ck_fiber *f = arg;
    lat__ck_launch *L = f->t.rt;
    started(L);
    L->k->entry(&f->t, L->params);
    int i = (int)f->t.lin;
    f->state = LAT__CKF_EXIT;
    L->live--;
    L->exited[i >> 5] |= 1u << (i & 31);
    if (L->arrived[i >> 5])
        warp_progress(L, i >> 5);
    L->all_spun = false;
    void *dead;
    handoff(L, &dead, NULL);
    abort(); /* never resumed */
}

/* The order of the threads' next turns. */
static void make_order(lat__ck_launch *L)
{
    int n = L->n;
    for (int i = 0; i < n; i++)
        L->order[i] = L->opts.order == LAT_SCHEDULE_REVERSE ? n - 1 - i : i;
    if (L->opts.order == LAT_SCHEDULE_RANDOM)
        for (int i = n - 1; i > 0; i--) {
            int j = (int)(rnd(&L->rng) % (uint64_t)(i + 1));
            int x = L->order[i];
            L->order[i] = L->order[j];
            L->order[j] = x;
        }
    if (!L->region)
        return;
    /* Region loops read each thread's index and coordinates in the order (region.c). */
    for (int k = 0; k < n; k++) {
        lat_dim3 c = lat__ck_unlinear((uint64_t)L->order[k], L->bdim);
        L->rorder[4 * k] = (unsigned)L->order[k];
        L->rorder[4 * k + 1] = c.x;
        L->rorder[4 * k + 2] = c.y;
        L->rorder[4 * k + 3] = c.z;
    }
}

/* What both executors do as a block starts: its shared memory fresh (and unwritten), the
 * threads' order made (again, on a random schedule). */
static void start_block(lat__ck_launch *L)
{
    if (L->sh_used) {
        memset(L->sh, 0, L->sh_used);
        if (L->sh_init)
            memset(L->sh_init, 0, L->sh_used);
    }
    if (L->opts.order == LAT_SCHEDULE_RANDOM || !L->order_made) {
        make_order(L);
        L->order_made = true; /* forward and reverse never change */
    }
}

/* Runs the block t describes; false when the launch must stop. */
static bool run_block(lat__ck_launch *L, const lat__emu_thread *t)
{
    int n = L->n;
    L->live = n;
    L->at_bar = L->bar_count = 0;
    L->epoch = 0;
    memset(L->wepoch, 0, sizeof L->wepoch);
    memset(L->arrived, 0, sizeof L->arrived);
    memset(L->am_waiting, 0, sizeof L->am_waiting);
    memset(L->exited, 0, sizeof L->exited);
    int nwarps = (n + 31) / 32;
    if (n % 32)
        L->exited[nwarps - 1] = ~0u << (n % 32);
    unsigned bx = t->block_dim.x, by = t->block_dim.y;
    for (int i = 0; i < n; i++) {
        lat__ck_fiber *f = &L->f[i];
        f->fake = NULL;
        f->file = NULL;
        f->line = f->op = f->pred = f->arg = f->width = 0;
        f->mask = 0;
        f->val = f->result = 0;
        f->slice = 0;
        f->nseen = 0;
        f->last_addr = 0;
        f->t = *t;
        f->t.thread_idx.x = (unsigned)i % bx;
        f->t.thread_idx.y = (unsigned)i / bx % by;
        f->t.thread_idx.z = (unsigned)i / bx / by;
        f->t.lin = (unsigned)i;
        f->state = LAT__CKF_RUN;
        f->ticks = TICKS;
        f->last_site = -1;
        size_t color = (size_t)(i * 320) % 4096;
#ifdef LAT_CK_ASAN
        /* The stack's last fiber never returned from its frames: forget their poison. */
        __asan_unpoison_memory_region(lat__emu_stack_lo(&L->stacks, i), L->stacks.size);
#endif
        f->sp = lat__emu_fiber_init(lat__emu_stack_lo(&L->stacks, i) + L->stacks.size - color,
                                    fiber_main, f);
    }
    start_block(L);
    L->spin_since = 0;
    while (L->live > 0) {
        /* A round: every thread that can run has one turn, in the order. */
        L->pos = -1;
        L->ran = 0;
        L->all_spun = true;
        L->wrote = false;
        handoff(L, &L->host_sp, &L->host_fake);
        if (L->failed)
            return false;
        if (L->at_bar > 0 && L->at_bar == L->live) {
            release_barrier(L);
            if (L->opts.order == LAT_SCHEDULE_RANDOM)
                make_order(L);
            continue;
        }
        if (L->ran == 0) {
            deadlock(L);
            return false;
        }
        bool all_spun = L->all_spun;
        double t1 = now_s();
        if (all_spun && !L->wrote) {
            if (L->spin_since == 0)
                L->spin_since = t1;
            else if (t1 - L->spin_since >= MAX_SPIN_MS / 1000.0) {
                const lat__ck_fiber *s = NULL;
                for (int i = 0; i < n && !s; i++)
                    if (L->f[i].state == LAT__CKF_RUN)
                        s = &L->f[i];
                char what[600];
                lat__emu_u3 b = t->block_idx;
                int cnt = 0;
                for (int i = 0; i < n; i++)
                    cnt += L->f[i].state == LAT__CKF_RUN;
                if (s && s->last_site >= 0)
                    snprintf(what, sizeof what,
                             "kernel '%s' can never finish block (%u,%u,%u): %d threads spin "
                             "without progress for %d ms (nobody writes what they read), "
                             "thread (%u,%u,%u) at %s:%d reading `%s`",
                             L->k->name, b.x, b.y, b.z, cnt, MAX_SPIN_MS, s->t.thread_idx.x,
                             s->t.thread_idx.y, s->t.thread_idx.z, L->cm->sites[s->last_site].file,
                             L->cm->sites[s->last_site].line, L->cm->sites[s->last_site].expr);
                else
                    snprintf(what, sizeof what,
                             "kernel '%s' can never finish block (%u,%u,%u): %d threads spin "
                             "without progress for %d ms", L->k->name, b.x, b.y, b.z, cnt,
                             MAX_SPIN_MS);
                report_hang(L, what, s);
                fail(L, LAT_ERROR_LAUNCH_FAILED, "%s", what);
                return false;
            }
        } else {
            L->spin_since = 0;
        }
        if (t1 > L->deadline) {
            const lat__ck_fiber *s = NULL;
            for (int i = 0; i < n && !s; i++)
                if (L->f[i].state == LAT__CKF_RUN)
                    s = &L->f[i];
            timed_out(L, s, false);
            return false;
        }
    }
    return true;
}

/* A kernel run as region loops: the block's code on one fiber, so that a trap or the
 * watchdog can leave it. */
static void region_main(void *arg)
{
    lat__ck_launch *L = arg;
    started(L);
    L->k->entry(&L->rf.t, L->params);
    void *dead;
    go(&dead, NULL, L->host_sp, L->host_lo, L->host_size);
    abort(); /* never resumed */
}

static bool run_region_block(lat__ck_launch *L, const lat__emu_thread *t)
{
    L->epoch = 0;
    L->scratch_used = 0;
    L->rf.t = *t;
    L->rf.ticks = TICKS;
    L->rf.slice = 0;
    L->rf.last_site = -1;
    start_block(L);
    L->cur = 0;
    char *lo = lat__emu_stack_lo(&L->stacks, 0);
#ifdef LAT_CK_ASAN
    __asan_unpoison_memory_region(lo, L->stacks.size);
#endif
    L->rf.sp = lat__emu_fiber_init(lo + L->stacks.size, region_main, L);
    go(&L->host_sp, &L->host_fake, L->rf.sp, lo, L->stacks.size);
    return !L->failed;
}

/* ---- the launch ---------------------------------------------------------------------------------- */

/* Lays the kernel's __shared__ variables out with red zones around each, then the dynamic
 * shared memory, and allocates the block's shared memory and its shadows. */
static lat_status layout_shared(lat__ck_launch *L, size_t dynamic)
{
    const lat__ck_kernel *kk = L->kk;
    const lat__ck_module *cm = L->cm;
    int nv = kk ? kk->nvars : 0;
    L->shv = calloc((size_t)nv + 1, sizeof *L->shv);
    L->shoff = calloc((size_t)(cm->nshared ? cm->nshared : 1), sizeof *L->shoff);
    if (!L->shv || !L->shoff)
        return LAT_ERROR_OUT_OF_MEMORY;
    size_t at = REDZONE;
    for (int i = 0; i < nv; i++) {
        int v = kk->vars[i];
        if (v < 0 || v >= cm->nshared || !cm->shsize)
            continue;
        unsigned long a = cm->shalign[v] ? cm->shalign[v] : 1;
        if (a < 16)
            a = 16;
        at = (at + a - 1) / a * a;
        L->shoff[v] = at;
        L->shv[L->nshv++] = (lat__ck_shvar){at, at + cm->shsize[v], v};
        at += cm->shsize[v] + REDZONE;
    }
    at = (at + 255) / 256 * 256;
    size_t dyn_at = at;
    L->shv[L->nshv++] = (lat__ck_shvar){dyn_at, dyn_at + dynamic, -1};
    at += dynamic + REDZONE;
    L->sh_size = at;
    L->sh_used = at;
    /* Mapped with a window on each side that nothing else can occupy, so that an access
     * near the block's shared memory is an overrun of it, never another object. */
    L->sh_map_size = LAT__CK_SHARED_WINDOW * 2 + (at + 4095) / 4096 * 4096;
    void *map = mmap(NULL, L->sh_map_size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED)
        return LAT_ERROR_OUT_OF_MEMORY;
    L->sh_map = map;
    L->sh = (char *)map + LAT__CK_SHARED_WINDOW;
    /* Which variable each 16-byte chunk holds (shared_access's lookup). */
    if (L->nshv >= 0xffff)
        return LAT_ERROR_OUT_OF_MEMORY;
    L->sh_var = calloc(at / 16 + 2, sizeof *L->sh_var);
    if (!L->sh_var)
        return LAT_ERROR_OUT_OF_MEMORY;
    for (int i = 0; i < L->nshv; i++)
        for (size_t c = L->shv[i].lo / 16; c * 16 < L->shv[i].hi; c++)
            L->sh_var[c] = (uint16_t)(i + 1);
    /* The variables' addresses, now that the base is known. */
    for (int i = 0; i < L->nshv; i++) {
        L->shv[i].lo += (uintptr_t)L->sh;
        L->shv[i].hi += (uintptr_t)L->sh;
    }
    if (L->modes & LAT_CHECK_INITCHECK) {
        L->sh_init = calloc(at, 1);
        if (!L->sh_init)
            return LAT_ERROR_OUT_OF_MEMORY;
    }
    if (L->modes & LAT_CHECK_RACECHECK) {
        L->sh_race = calloc((at / 4 + 1) * 2, sizeof *L->sh_race);
        if (!L->sh_race)
            return LAT_ERROR_OUT_OF_MEMORY;
    }
    (void)dyn_at;
    return LAT_OK;
}

static void free_launch(lat__ck_launch *L)
{
#ifdef LAT_CK_ASAN
    /* Fibers that never returned leave their frames' poison behind; the next mapping of
     * these addresses (a shadow, a buffer) must not inherit it. */
    if (L->stacks.map)
        __asan_unpoison_memory_region(L->stacks.map, L->stacks.map_size);
#endif
    if (L->stack_poison)
        munmap(L->stack_poison, L->stacks.map_size);
    lat__emu_stacks_free(&L->stacks);
    if (L->scratch)
        munmap(L->scratch, L->scratch_size);
    free(L->f);
    free(L->order);
    free(L->rorder);
    if (L->sh_map)
        munmap(L->sh_map, L->sh_map_size);
    free(L->shoff);
    free(L->shv);
    free(L->sh_var);
    free(L->sh_init);
    free(L->sh_race);
    free(L->sink);
}

/* The block run at step s of the launch's order. */
static uint64_t block_at(const lat__ck_launch *L, uint64_t s)
{
    if (L->opts.order == LAT_SCHEDULE_REVERSE)
        return L->nblocks - 1 - s;
    if (L->opts.order == LAT_SCHEDULE_RANDOM && L->nblocks > 1) {
        __extension__ typedef unsigned __int128 u128;
        u128 x = (u128)s * L->perm_a + L->perm_b;
        return (uint64_t)(x % L->nblocks);
    }
    return s;
}

uint64_t lat__ck_block_of_serial(const lat__ck_launch *L, uint32_t serial);
uint64_t lat__ck_block_of_serial(const lat__ck_launch *L, uint32_t serial)
{
    return block_at(L, (uint64_t)(uint32_t)(serial - L->first_serial));
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The grid's blocks in the schedule's order, until one fails. A fault in kernel code (a
 * wild pointer memcheck cannot place in time, a division by zero, a stack overflow) ends
 * the launch as on the unchecked emulator, through guard.c's catcher. */
static void run_blocks(lat__ck_launch *L, lat__emu_thread *base)
{
    lat__emu_catcher c;
    lat__emu_guard_install();
    lat__emu_guard_set_catcher(&c);
    c.armed = 0;
    if (sigsetjmp(c.jump, 0)) {
        lat__emu_guard_set_catcher(NULL);
#ifdef LAT_CK_ASAN
        /* Back on the host's stack from a fiber's, behind ASan's back. */
        void *fake = NULL;
        __sanitizer_start_switch_fiber(&fake, L->host_lo, L->host_size);
        __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
        const lat__emu_thread *t = L->region ? &L->rf.t : &L->f[L->cur].t;
        fail(L, LAT_ERROR_LAUNCH_FAILED,
             "kernel '%s' crashed in block (%u,%u,%u), thread (%u,%u,%u): %s", L->k->name,
             L->bidx.x, L->bidx.y, L->bidx.z, t->thread_idx.x, t->thread_idx.y,
             t->thread_idx.z, c.what);
        L->failed = true;
        return;
    }
    uint64_t gx = L->grid.x, gy = L->grid.y;
    for (uint64_t s = 0; s < L->nblocks && !L->failed; s++) {
        uint64_t b = block_at(L, s);
        L->block_lin = b;
        L->serial = ++L->ck->block_serial;
        base->block_idx.x = (unsigned)(b % gx);
        base->block_idx.y = (unsigned)(b / gx % gy);
        base->block_idx.z = (unsigned)(b / gx / gy);
        L->bidx = base->block_idx;
        c.armed = 1;
        bool ok = L->region ? run_region_block(L, base) : run_block(L, base);
        c.armed = 0;
        if (!ok)
            break;
    }
    lat__emu_guard_set_catcher(NULL);
}

lat_status lat__ck_run(lat_kernel *kernel, const lat__launch *launch, void **params,
                          char *msg, size_t msg_size)
{
    const lat__emu_kernel *k = kernel->impl;
    lat_context *ctx = kernel->module->ctx;
    lat__ck_ctx *ck = ctx->check;
    const lat__ck_kernel *kk = k->check;
    lat__ck_launch L;
    memset(&L, 0, sizeof L);
    L.ck = ck;
    L.ctx = ctx;
    L.k = k;
    L.kk = kk;
    L.cm = kk->module;
    L.params = params;
    L.msg = msg;
    L.msg_size = msg_size;
    L.status = LAT_OK;
    msg[0] = '\0';

    pthread_mutex_lock(&ck->lock);
    L.modes = ck->modes;
    L.opts = ck->opts;
    if (L.opts.timeout_s <= 0)
        L.opts.timeout_s = 20;
    uint64_t seed = L.opts.seed;
    if (L.opts.order == LAT_SCHEDULE_RANDOM && seed == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed = ((uint64_t)ts.tv_sec * 1000000007u) ^ (uint64_t)ts.tv_nsec;
        seed = seed ? seed : 1;
        lat__log(ctx, LAT_LOG_INFO,
                 "lat_launch: kernel '%s' runs on a random schedule, seed %llu "
                 "(LATTICE_SCHEDULE=random:%llu replays it)", k->name,
                 (unsigned long long)seed, (unsigned long long)seed);
    }
    if (L.opts.order == LAT_SCHEDULE_RANDOM)
        ck->last_seed = seed;
    L.rng = seed ? seed : 0x5eed;
    L.budget = SLICE;
    lat__ck_reports_clear(ck);
    lat_status st = lat__ck_regions_sync(ck);

    L.grid = (lat__emu_u3){launch->grid[0], launch->grid[1], launch->grid[2]};
    L.bdim = (lat__emu_u3){launch->block[0], launch->block[1], launch->block[2]};
    L.n = (int)(launch->block[0] * launch->block[1] * launch->block[2]);
    L.nblocks = (uint64_t)launch->grid[0] * launch->grid[1] * launch->grid[2];
    if (L.opts.order == LAT_SCHEDULE_RANDOM && L.nblocks > 1) {
        do
            L.perm_a = rnd(&L.rng) % L.nblocks;
        while (L.perm_a == 0 || gcd(L.perm_a, L.nblocks) != 1);
        L.perm_b = rnd(&L.rng) % L.nblocks;
    }
    if (st == LAT_OK) {
        L.f = calloc((size_t)L.n, sizeof *L.f);
        L.order = calloc((size_t)L.n, sizeof *L.order);
        L.rorder = calloc((size_t)L.n * 4, sizeof *L.rorder);
        L.sink_size = 4096;
        L.sink = calloc(1, L.sink_size);
        if (!L.f || !L.order || !L.rorder || !L.sink)
            st = LAT_ERROR_OUT_OF_MEMORY;
    }
    if (st == LAT_OK)
        st = layout_shared(&L, launch->shared_bytes);
    L.region = k->mode == LAT_EMU_MODE_REGION;
    if (st == LAT_OK && !lat__emu_stacks_reserve(&L.stacks, L.region ? 1 : L.n))
        st = LAT_ERROR_OUT_OF_MEMORY;
    if (st == LAT_OK && L.region) {
        /* Reserved, touched as needed: the unchecked emulator's size (sched.c). */
        L.scratch_size = (size_t)256 << 20;
        void *p = mmap(NULL, L.scratch_size, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            st = LAT_ERROR_OUT_OF_MEMORY;
        else
            L.scratch = p;
    }
    /* Maps start afresh. */
    for (size_t i = 0; st == LAT_OK && i < ck->nregions; i++) {
        lat__ck_map *m = ck->regions[i].map;
        if (!m)
            continue;
        memset(m->cells, 0, m->count * sizeof *m->cells);
        for (size_t c = 0; c < m->count; c++)
            m->cells[c].write_block = m->cells[c].read_block = -1;
        m->valid = true;
        m->grid = (lat_dim3){launch->grid[0], launch->grid[1], launch->grid[2]};
        m->block = (lat_dim3){launch->block[0], launch->block[1], launch->block[2]};
        free(m->kernel);
        m->kernel = lat__strdup(k->name);
    }
    if (st != LAT_OK) {
        pthread_mutex_unlock(&ck->lock);
        free_launch(&L);
        snprintf(msg, msg_size, "kernel '%s': out of host memory for a checked launch", k->name);
        return LAT_ERROR_OUT_OF_MEMORY;
    }
    L.start = now_s();
    L.deadline = L.start + L.opts.timeout_s;
    L.first_serial = ck->block_serial + 1;

    lat__emu_thread base;
    memset(&base, 0, sizeof base);
    base.block_dim = L.bdim;
    base.grid_dim = L.grid;
    base.nthreads = (unsigned)L.n;
    base.shoff = L.shoff;
    base.rt = &L;
    for (int i = 0; i < L.nshv; i++)
        if (L.shv[i].var < 0)
            base.dshared = (char *)L.shv[i].lo;
    base.shared = L.sh;
    run_blocks(&L, &base);
    /* The reports: worded, logged, and the first in the launch's message. */
    lat__ck_reports_finish(ck);
    if (L.status == LAT_OK && ck->nreports > 0) {
        L.status = LAT_ERROR_CHECK_FAILED;
        snprintf(msg, msg_size, "the emulator's checks found %zu error%s in kernel '%s' "
                 "(lat_check_report_get has them); the first: %s", ck->nreports,
                 ck->nreports == 1 ? "" : "s", k->name, ck->reports[0].r.message);
    } else if (L.status != LAT_OK && ck->nreports > 1) {
        char first[600];
        snprintf(first, sizeof first, "%s", msg);
        snprintf(msg, msg_size, "the emulator's checks found %zu errors in kernel '%s' "
                 "(lat_check_report_get has them); the launch stopped: %s", ck->nreports,
                 k->name, first);
    }
    for (size_t i = 0; i < ck->nreports; i++)
        lat__log(ctx, LAT_LOG_ERROR, "%s", ck->reports[i].r.message);
    lat_status result = L.status;
    pthread_mutex_unlock(&ck->lock);
    free_launch(&L);
    return result;
}
