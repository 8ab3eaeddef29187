/*
 * Fiber kernels: the threads of a block on fibers (fiber.h), and the barriers and warp
 * operations kernel code calls on them.
 *
 * The threads run one at a time, each until it waits or exits; a waiting thread hands
 * over directly to the next one that can run (the next lane of its warp first, for a
 * warp operation), so a barrier costs one switch per thread. Barriers follow Volta and
 * later: a thread that has exited counts as arrived. A warp operation completes when
 * every lane of its mask that has not exited has arrived at one; lanes outside the mask
 * never hold it up. When no thread can run and some have not exited, the block can
 * never finish: the launch fails with the threads and where each waits, instead of
 * hanging.
 */
#include "worker.h"

#include "emu/warp.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#define LAT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LAT_ASAN 1
#endif
#endif
#ifdef LAT_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

enum { F_RUN, F_BAR, F_WARP, F_EXIT };

typedef struct fiber {
    void *sp;
    void *fake; /* ASan's fake stack while switched away */
    struct lat__emu_fblock *b;
    lat__emu_thread t;
    int state;
    /* Where it waits. */
    const char *file;
    int line;
    /* A barrier's kind and predicate, or a warp operation's operands. */
    int op;
    int pred;
    uint32_t mask;
    uint64_t val;
    int arg, width;
    uint64_t result;
} fiber;

struct lat__emu_fblock {
    fiber *f;
    int cap;
    lat__emu_stacks stacks;
    int n, live, at_bar;
    int bar_count; /* arrivals whose predicate was non-zero */
    uint32_t exited[32], arrived[32];
    int am_waiting[32]; /* lanes waiting in __activemask, per warp */
    void *host_sp, *host_fake;
    const void *host_lo;
    size_t host_size;
    bool host_known;
    lat__emu_entry_fn entry;
    void **params;
    lat__emu_worker *w;
    bool failed;
};

void lat__emu_fblock_free(struct lat__emu_fblock *fb)
{
    if (!fb)
        return;
    lat__emu_stacks_free(&fb->stacks);
    free(fb->f);
    free(fb);
}

bool lat__emu_fiber_guard_hit(const lat__emu_worker *w, const void *addr)
{
    const struct lat__emu_fblock *b = w->fb;
    if (!b || !b->stacks.map)
        return false;
    uintptr_t a = (uintptr_t)addr, lo = (uintptr_t)b->stacks.map;
    if (a < lo || a - lo >= b->stacks.map_size)
        return false;
    return (a - lo) % b->stacks.stride < b->stacks.stride - b->stacks.size;
}

/* ---- switching -------------------------------------------------------------------------- */

/* Switches from the context whose stack pointer goes to *save (fake: its ASan fake-stack
 * slot, NULL when that context is finished) to `to`, whose stack is [lo, lo + size). */
static void go(struct lat__emu_fblock *b, void **save, void **fake, void *to, const void *lo,
               size_t size)
{
#ifdef LAT_ASAN
    __sanitizer_start_switch_fiber(fake, lo, size);
#else
    (void)fake;
    (void)lo;
    (void)size;
#endif
    lat__emu_fiber_switch(save, to);
#ifdef LAT_ASAN
    __sanitizer_finish_switch_fiber(fake ? *fake : NULL, NULL, NULL);
#endif
    (void)b;
}

static void go_fiber(struct lat__emu_fblock *b, void **save, void **fake, int to)
{
    fiber *t = &b->f[to];
    b->w->cur = &t->t;
    go(b, save, fake, t->sp, lat__emu_stack_lo(&b->stacks, to), b->stacks.size);
}

static void go_host(struct lat__emu_fblock *b, void **save, void **fake)
{
    go(b, save, fake, b->host_sp, b->host_lo, b->host_size);
}

/* The next fiber that can run after `from`: a lane of its warp first when asked. */
static int pick(const struct lat__emu_fblock *b, int from, bool warp_first)
{
    if (warp_first) {
        int base = from & ~31;
        for (int k = 1; k < 32; k++) {
            int j = base + ((from - base + k) & 31);
            if (j < b->n && b->f[j].state == F_RUN)
                return j;
        }
    }
    for (int k = 1; k <= b->n; k++) {
        int j = (from + k) % b->n;
        if (b->f[j].state == F_RUN)
            return j;
    }
    return -1;
}

/* ---- failures ---------------------------------------------------------------------------- */

_Noreturn void lat__emu_fiber_abandon(lat__emu_worker *w)
{
    struct lat__emu_fblock *b = w->fb;
    b->failed = true;
    void *dead;
    go_host(b, &dead, NULL);
    abort(); /* never resumed */
}

/* Appends "(x,y,z)" thread ranges waiting in state `state` at file:line to buf. */
static void describe(const struct lat__emu_fblock *b, char *buf, size_t size)
{
    size_t at = strlen(buf);
    bool *done = calloc((size_t)b->n, sizeof *done);
    if (!done)
        return;
    for (int i = 0; i < b->n && at + 1 < size; i++) {
        const fiber *f = &b->f[i];
        if (done[i] || (f->state != F_BAR && f->state != F_WARP))
            continue;
        const char *what = f->state == F_BAR ? "__syncthreads" : lat__emu_warp_name(f->op);
        int count = 0, last = i;
        for (int j = i; j < b->n; j++) {
            const fiber *g = &b->f[j];
            if (!done[j] && g->state == f->state && g->line == f->line && g->file == f->file &&
                (f->state == F_BAR || g->op == f->op)) {
                done[j] = true;
                count++;
                last = j;
            }
        }
        const lat__emu_thread *a = &f->t, *z = &b->f[last].t;
        if (count == 1)
            at += (size_t)snprintf(buf + at, size - at, "%sthread (%u,%u,%u) waits in %s at %s:%d",
                                   at ? "; " : "", a->thread_idx.x, a->thread_idx.y,
                                   a->thread_idx.z, what, f->file ? f->file : "?", f->line);
        else
            at += (size_t)snprintf(buf + at, size - at,
                                   "%s%d threads, (%u,%u,%u) to (%u,%u,%u), wait in %s at %s:%d",
                                   at ? "; " : "", count, a->thread_idx.x, a->thread_idx.y,
                                   a->thread_idx.z, z->thread_idx.x, z->thread_idx.y,
                                   z->thread_idx.z, what, f->file ? f->file : "?", f->line);
        if (at >= size)
            at = size - 1;
    }
    free(done);
}

_Noreturn static void deadlock(struct lat__emu_fblock *b)
{
    char what[768] = "";
    describe(b, what, sizeof what);
    const lat__emu_thread *t = &b->f[0].t;
    lat__emu_fail(b->w, LAT_ERROR_LAUNCH_FAILED,
                  "kernel '%s' can never finish block (%u,%u,%u): %d of its %d threads have "
                  "not exited and none can go on: %s",
                  b->w->launch->kernel->name, t->block_idx.x, t->block_idx.y, t->block_idx.z,
                  b->live, b->n, what);
    lat__emu_fiber_abandon(b->w);
}

/* ---- waiting ----------------------------------------------------------------------------- */

/* The calling fiber (already marked waiting) hands over; returns when it can go on. */
static void wait_here(struct lat__emu_fblock *b, fiber *me, bool warp_first)
{
    int i = (int)(me - b->f);
    int next = pick(b, i, warp_first);
    if (next < 0)
        deadlock(b);
    go_fiber(b, &me->sp, &me->fake, next);
}

static void release_barrier(struct lat__emu_fblock *b)
{
    int arrived = b->at_bar, yes = b->bar_count;
    for (int i = 0; i < b->n; i++) {
        fiber *f = &b->f[i];
        if (f->state != F_BAR)
            continue;
        f->result = f->op == 1 ? (uint64_t)yes : f->op == 2 ? yes == arrived : f->op == 3 ? yes > 0 : 0;
        f->state = F_RUN;
    }
    b->at_bar = 0;
    b->bar_count = 0;
}

static void complete(struct lat__emu_fblock *b, int w, uint32_t group)
{
    uint64_t vals[32];
    for (int j = 0; j < 32; j++)
        vals[j] = group >> j & 1u ? b->f[w * 32 + j].val : 0;
    for (int j = 0; j < 32; j++) {
        if (!(group >> j & 1u))
            continue;
        fiber *fj = &b->f[w * 32 + j];
        fj->result = lat__emu_warp_result(fj->op, j, group, vals, fj->arg, fj->width, &fj->pred);
        fj->state = F_RUN;
    }
    b->arrived[w] &= ~group;
}

/* Completes the warp's operations whose lanes have all arrived at an operation of the
 * same kind. __activemask completes when no lane of the warp can run any more: its
 * result is the lanes that reached one, as the lanes a GPU would find converged there. */
static void warp_progress(struct lat__emu_fblock *b, int w)
{
    for (;;) {
        uint32_t arrived = b->arrived[w];
        bool progress = false;
        for (int l = 0; l < 32 && !progress; l++) {
            if (!(arrived >> l & 1u))
                continue;
            fiber *fl = &b->f[w * 32 + l];
            if (fl->op == LAT_EMU_W_ACTIVE)
                continue;
            uint32_t need = (fl->mask | 1u << l) & ~b->exited[w];
            if ((arrived & need) != need)
                continue;
            bool same = true;
            for (int j = 0; j < 32 && same; j++)
                if (need >> j & 1u)
                    same = b->f[w * 32 + j].op == fl->op;
            if (!same)
                continue;
            complete(b, w, need);
            progress = true;
        }
        if (!progress)
            break;
    }
    if (!b->am_waiting[w])
        return;
    uint32_t active = 0;
    for (int j = 0; j < 32 && w * 32 + j < b->n; j++) {
        const fiber *f = &b->f[w * 32 + j];
        if (f->state == F_RUN)
            return;
        if (f->state == F_WARP && f->op == LAT_EMU_W_ACTIVE)
            active |= 1u << j;
    }
    b->am_waiting[w] = 0;
    complete(b, w, active);
}

/* ---- a fiber's life ------------------------------------------------------------------------ */

_Noreturn static void fiber_exit(struct lat__emu_fblock *b, fiber *me)
{
    int i = (int)(me - b->f);
    me->state = F_EXIT;
    b->live--;
    b->exited[i >> 5] |= 1u << (i & 31);
    if (b->at_bar > 0 && b->at_bar == b->live)
        release_barrier(b);
    if (b->arrived[i >> 5])
        warp_progress(b, i >> 5);
    int next = pick(b, i, true);
    void *dead;
    if (next >= 0)
        go_fiber(b, &dead, NULL, next);
    else if (b->live == 0)
        go_host(b, &dead, NULL);
    else
        deadlock(b);
    abort(); /* never resumed */
}

static void fiber_main(void *arg)
{
    fiber *me = arg;
    struct lat__emu_fblock *b = me->b;
#ifdef LAT_ASAN
    const void *lo;
    size_t size;
    __sanitizer_finish_switch_fiber(NULL, &lo, &size);
    if (!b->host_known) {
        b->host_lo = lo;
        b->host_size = size;
        b->host_known = true;
    }
#endif
    b->entry(&me->t, b->params);
    fiber_exit(b, me);
}

void lat__emu_run_fibers(lat__emu_worker *w, const lat__emu_kernel *k, const lat__emu_thread *t,
                         void **params)
{
    struct lat__emu_fblock *b = w->fb;
    int n = (int)t->nthreads;
    if (!b) {
        b = calloc(1, sizeof *b);
        if (!b) {
            lat__emu_fail(w, LAT_ERROR_OUT_OF_MEMORY, "out of host memory for a block's threads");
            siglongjmp(w->trap, 1);
        }
        w->fb = b;
    }
    if (b->cap < n) {
        fiber *f = realloc(b->f, (size_t)n * sizeof *f);
        if (!f) {
            lat__emu_fail(w, LAT_ERROR_OUT_OF_MEMORY, "out of host memory for a block's threads");
            siglongjmp(w->trap, 1);
        }
        b->f = f;
        b->cap = n;
    }
    if (!lat__emu_stacks_reserve(&b->stacks, n)) {
        lat__emu_fail(w, LAT_ERROR_OUT_OF_MEMORY,
                      "cannot map %d thread stacks of %d KiB for kernel '%s'", n,
                      LAT_EMU_FIBER_STACK / 1024, k->name);
        siglongjmp(w->trap, 1);
    }
    b->n = n;
    b->live = n;
    b->at_bar = 0;
    b->bar_count = 0;
    b->entry = k->entry;
    b->params = params;
    b->w = w;
    b->failed = false;
    b->host_known = false;
    memset(b->arrived, 0, sizeof b->arrived);
    memset(b->am_waiting, 0, sizeof b->am_waiting);
    memset(b->exited, 0, sizeof b->exited);
    /* Lanes past the block's last thread have exited from the start. */
    int nwarps = (n + 31) / 32;
    if (n % 32)
        b->exited[nwarps - 1] = ~0u << (n % 32);
    unsigned bx = t->block_dim.x, by = t->block_dim.y;
    for (int i = 0; i < n; i++) {
        fiber *f = &b->f[i];
        memset(f, 0, sizeof *f);
        f->b = b;
        f->t = *t;
        f->t.thread_idx.x = (unsigned)i % bx;
        f->t.thread_idx.y = (unsigned)i / bx % by;
        f->t.thread_idx.z = (unsigned)i / bx / by;
        f->t.lin = (unsigned)i;
        f->state = F_RUN;
        /* Stacks are a whole number of pages apart: start each at a different offset in
         * its page, or the threads' frames all fall in the same cache sets. */
        size_t color = (size_t)(i * 320) % 4096;
        f->sp = lat__emu_fiber_init(lat__emu_stack_lo(&b->stacks, i) + b->stacks.size - color,
                                    fiber_main, f);
    }
    lat__emu_thread *saved = w->cur;
    w->on_fiber = true;
    go_fiber(b, &b->host_sp, &b->host_fake, 0);
    w->on_fiber = false;
    w->cur = saved;
    if (b->failed)
        siglongjmp(w->trap, 1);
}

/* ---- what kernel code calls ------------------------------------------------------------------ */

static fiber *current(lat__emu_thread *t, const char *what, const char *file, int line)
{
    lat__emu_worker *w = t->rt;
    if (!w->on_fiber) {
        /* The translator runs every kernel that can reach a barrier on fibers. */
        lat__emu_fail(w, LAT_ERROR_INTERNAL,
                      "%s:%d: %s reached outside a fiber kernel (a lattice bug)",
                      file ? file : "?", line, what);
        siglongjmp(w->trap, 1);
    }
    return &w->fb->f[t->lin];
}

/* __syncthreads (kind 0), __syncthreads_count (1), _and (2), _or (3). */
int lat__emu_barrier(lat__emu_thread *t, int kind, int pred, const char *file, int line)
{
    fiber *me = current(t, "__syncthreads", file, line);
    struct lat__emu_fblock *b = me->b;
    me->state = F_BAR;
    me->op = kind;
    me->file = file;
    me->line = line;
    b->at_bar++;
    b->bar_count += pred != 0;
    if (b->at_bar == b->live)
        release_barrier(b);
    else {
        if (b->am_waiting[t->lin >> 5])
            warp_progress(b, (int)(t->lin >> 5));
        wait_here(b, me, false);
    }
    return (int)me->result;
}

uint64_t lat__emu_warp_op(lat__emu_thread *t, int op, unsigned mask, uint64_t val, int arg,
                          int width, const char *file, int line)
{
    fiber *me = current(t, lat__emu_warp_name(op), file, line);
    struct lat__emu_fblock *b = me->b;
    int i = (int)t->lin, w = i >> 5;
    me->state = F_WARP;
    me->op = op;
    me->mask = mask;
    me->val = val;
    me->arg = arg;
    me->width = width;
    me->file = file;
    me->line = line;
    b->arrived[w] |= 1u << (i & 31);
    if (op == LAT_EMU_W_ACTIVE)
        b->am_waiting[w]++;
    warp_progress(b, w);
    if (me->state != F_RUN)
        wait_here(b, me, true);
    return me->result;
}

int lat__emu_match_all(lat__emu_thread *t, unsigned mask, uint64_t val, int *pred,
                       const char *file, int line)
{
    uint64_t r = lat__emu_warp_op(t, LAT_EMU_W_MATCH_ALL, mask, val, 0, 32, file, line);
    if (pred)
        *pred = current(t, "__match_all_sync", file, line)->pred;
    return (int)r;
}

unsigned lat__emu_activemask(lat__emu_thread *t)
{
    lat__emu_worker *w = t->rt;
    if (!w->on_fiber)
        return 0xffffffffu;
    return (unsigned)lat__emu_warp_op(t, LAT_EMU_W_ACTIVE, 0, 0, 0, 32, NULL, 0);
}
