/*
 * A block's threads on fibers (fiber.h), and the barriers and warp operations kernel code
 * calls on them: the one engine of checked and unchecked launches (exec.h).
 *
 * The threads run one at a time, each until it waits or exits. Barriers follow Volta and
 * later: a thread that has exited counts as arrived. A warp operation completes when every
 * lane of its mask that has not exited has arrived at one; lanes outside the mask never
 * hold it up. What runs next:
 *   - in an unobserved block, a waiting thread hands over directly to the next one that
 *     can run (the next lane of its warp first, for a warp operation), so a barrier costs
 *     one switch per thread, and the last thread to arrive releases it;
 *   - in an observed one, the threads take turns in the schedule's order and a barrier is
 *     released between rounds of turns (turns.c).
 * When no thread can go on and some have not exited, the block can never finish: the
 * launch fails with the threads and where each waits, instead of hanging.
 */
#include "worker.h"

#include "emu/runtime/warp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lat__exec_block_free(lat__exec_block *b)
{
    if (!b)
        return;
    lat__emu_stacks_free(&b->stacks);
    free(b->f);
    free(b->turn);
    free(b->order);
    free(b->rorder);
    free(b);
}

/* ---- the next thread ------------------------------------------------------------------- */

/* The next fiber that can run after `from`: a lane of its warp first when asked. */
static int pick(const lat__exec_block *b, int from, bool warp_first)
{
    if (warp_first) {
        int base = from & ~31;
        for (int k = 1; k < 32; k++) {
            int j = base + ((from - base + k) & 31);
            if (j < b->n && b->f[j].state == LAT__EXEC_RUN)
                return j;
        }
    }
    for (int k = 1; k <= b->n; k++) {
        int j = (from + k) % b->n;
        if (b->f[j].state == LAT__EXEC_RUN)
            return j;
    }
    return -1;
}

/* ---- barriers and warps --------------------------------------------------------------- */

static void complete(lat__exec_block *b, int w, uint32_t group)
{
    uint64_t vals[32];
    for (int j = 0; j < 32; j++)
        vals[j] = group >> j & 1u ? b->f[w * 32 + j].val : 0;
    for (int j = 0; j < 32; j++) {
        if (!(group >> j & 1u))
            continue;
        lat__exec_fiber *fj = &b->f[w * 32 + j];
        fj->result = lat__emu_warp_result(fj->op, j, group, vals, fj->arg, fj->width, &fj->pred);
        fj->state = LAT__EXEC_RUN;
    }
    b->arrived[w] &= ~group;
    b->partial[w] &= ~group;
    if (b->hooks && b->hooks->warp_done)
        b->hooks->warp_done(b->obs, b, w, group);
}

/* Completes the warp's operations whose lanes have all arrived at an operation of the
 * same kind. __activemask completes when no lane of the warp can run any more: its
 * result is the lanes that reached one, as the lanes a GPU would find converged there. */
void lat__exec_warp_progress(lat__exec_block *b, int w)
{
    for (;;) {
        uint32_t arrived = b->arrived[w];
        bool progress = false;
        for (int l = 0; l < 32 && !progress; l++) {
            if (!(arrived >> l & 1u))
                continue;
            lat__exec_fiber *fl = &b->f[w * 32 + l];
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
        const lat__exec_fiber *f = &b->f[w * 32 + j];
        if (f->state == LAT__EXEC_RUN)
            return;
        if (f->state == LAT__EXEC_WARP && f->op == LAT_EMU_W_ACTIVE)
            active |= 1u << j;
    }
    b->am_waiting[w] = 0;
    complete(b, w, active);
}

/* ---- a fiber's life ------------------------------------------------------------------------ */

/* A checked module's inline path of an access before an observer gives its own: never on,
 * so every access goes to the checks' host code. Never written. */
static lat__ck_fast never_fast;

_Noreturn static void fiber_exit(lat__exec_block *b, lat__exec_fiber *me)
{
    int i = (int)(me - b->f);
    void *dead;
    me->state = LAT__EXEC_EXIT;
    b->live--;
    if (b->region) { /* the block's loops are done */
        lat__exec_go_host(b, &dead, NULL);
        abort(); /* never resumed */
    }
    b->exited[i >> 5] |= 1u << (i & 31);
    if (b->hooks) {
        if (b->hooks->thread_exit)
            b->hooks->thread_exit(b->obs, b, me);
        if (b->arrived[i >> 5])
            lat__exec_warp_progress(b, i >> 5);
        b->all_spun = false;
        lat__exec_handoff(b, &dead, NULL);
        abort(); /* never resumed */
    }
    if (b->at_bar > 0 && b->at_bar == b->live)
        lat__exec_release_barrier(b);
    if (b->arrived[i >> 5])
        lat__exec_warp_progress(b, i >> 5);
    int next = pick(b, i, true);
    if (next >= 0) {
        lat__exec_go_fiber(b, &dead, NULL, next);
    } else if (b->live == 0) {
        lat__exec_go_host(b, &dead, NULL);
    } else {
        lat__exec_deadlock(b);
        lat__exec_abandon(b->w);
    }
    abort(); /* never resumed */
}

static void fiber_main(void *arg)
{
    lat__exec_fiber *me = arg;
    lat__exec_block *b = ((lat__emu_worker *)me->t.rt)->fb;
    const void *lo = NULL;
    size_t size = 0;
    lat__emu_fiber_started(&lo, &size);
    if (LAT_EMU_ASAN && !b->host_known) { /* the first switch of a block is the host's */
        b->host_lo = lo;
        b->host_size = size;
        b->host_known = true;
    }
    b->entry(&me->t, b->params);
    fiber_exit(b, me);
}

_Noreturn static void out_of_memory(lat__emu_worker *w)
{
    lat__emu_fail(w, LAT_ERROR_OUT_OF_MEMORY, "out of host memory for a block's threads");
    siglongjmp(w->trap, 1);
}

lat__exec_block *lat__exec_block_of(lat__emu_worker *w)
{
    if (!w->fb)
        w->fb = calloc(1, sizeof *w->fb);
    if (w->fb)
        w->fb->w = w; /* a worker lives for one launch; its block for the OS thread */
    return w->fb;
}

void lat__exec_run_fibers(lat__emu_worker *w, const lat__emu_kernel *k, const lat__emu_thread *t,
                          void **params)
{
    lat__exec_block *b = lat__exec_block_of(w);
    bool region = k->mode == LAT_EMU_MODE_REGION; /* observed launches only */
    int n = region ? 1 : (int)t->nthreads;
    if (!b)
        out_of_memory(w);
    if (b->cap < n) {
        lat__exec_fiber *f = realloc(b->f, (size_t)n * sizeof *f);
        if (!f)
            out_of_memory(w);
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
    b->at_grid = 0;
    b->entry = k->entry;
    b->params = params;
    b->w = w;
    b->failed = false;
    b->host_known = false;
    b->hooks = w->launch->hooks;
    b->obs = w->obs;
    b->region = region;
    b->debug_ids = k->debug_ids;
    if (b->debug_ids) { /* the block's; threadIdx at each switch (lat__exec_go_fiber) */
        memcpy(b->debug_ids[1], &t->block_idx, sizeof t->block_idx);
        memcpy(b->debug_ids[2], &t->block_dim, sizeof t->block_dim);
        memcpy(b->debug_ids[3], &t->grid_dim, sizeof t->grid_dim);
    }
    memset(b->arrived, 0, sizeof b->arrived);
    memset(b->partial, 0, sizeof b->partial);
    memset(b->am_waiting, 0, sizeof b->am_waiting);
    memset(b->exited, 0, sizeof b->exited);
    /* Lanes past the block's last thread have exited from the start. */
    int nwarps = (n + 31) / 32;
    if (n % 32)
        b->exited[nwarps - 1] = ~0u << (n % 32);
    unsigned bx = t->block_dim.x, by = t->block_dim.y;
    for (int i = 0; i < n; i++) {
        lat__exec_fiber *f = &b->f[i];
        memset(f, 0, sizeof *f);
        f->t = *t;
        f->t.thread_idx.x = (unsigned)i % bx;
        f->t.thread_idx.y = (unsigned)i / bx % by;
        f->t.thread_idx.z = (unsigned)i / bx / by;
        f->t.lin = (unsigned)i;
        f->state = LAT__EXEC_RUN;
        f->ticks = LAT__EXEC_TICKS;
        f->fast = &never_fast;
        char *lo = lat__emu_stack_lo(&b->stacks, i);
        /* A stack whose last fiber never returned keeps its frames' poison (ASan). */
        lat__emu_fiber_unpoison(lo, b->stacks.size);
        /* Stacks are a whole number of pages apart: start each at a different offset in
         * its page, or the threads' frames all fall in the same cache sets. */
        size_t color = (size_t)(i * 320) % 4096;
        f->sp = lat__emu_fiber_init(lo + b->stacks.size - color, fiber_main, f);
    }
    lat__emu_thread *saved = w->cur;
    if (!b->hooks) {
        w->on_fiber = LAT__EXEC_ON_THREAD;
        lat__exec_go_fiber(b, &b->host_sp, &b->host_fake, 0);
        w->on_fiber = LAT__EXEC_ON_HOST;
    } else if (lat__exec_turns_begin(b, t)) {
        if (b->hooks->block_start)
            b->hooks->block_start(b->obs, b, t);
        if (region)
            lat__exec_turns_run_region(b);
        else
            lat__exec_turns_run(b);
    } else {
        out_of_memory(w);
    }
    w->cur = saved;
    if (b->failed)
        siglongjmp(w->trap, 1);
}

/* ---- what kernel code calls ------------------------------------------------------------------ */

/* Each entry point comes twice, from one inline body: for unchecked modules, whose
 * launches are never observed, and for checked ones, whose launches always are (their
 * code calls the __lat_ck_ names, bound to the _observed forms: check/module.c). So an
 * unchecked thread's barrier or warp operation never tests for an observer. */
#define ENGINE_INLINE static inline __attribute__((always_inline))

/* A barrier or warp operation (op; -1 for a barrier) outside a fiber kernel's thread:
 * the lowering runs every kernel that can reach one on fibers or region loops. */
_Noreturn static __attribute__((noinline, cold)) void not_on_fiber(lat__emu_worker *w, int op,
                                                                   const char *file, int line)
{
    lat__emu_fail(w, LAT_ERROR_INTERNAL, "%s:%d: %s reached outside a fiber kernel (a lattice bug)",
                  file ? file : "?", line, op < 0 ? "__syncthreads" : lat__emu_warp_name(op));
    if (w->on_fiber)
        lat__exec_abandon(w);
    siglongjmp(w->trap, 1);
}

/* The calling thread's fiber. */
ENGINE_INLINE lat__exec_fiber *current(lat__emu_thread *t, int op, const char *file, int line)
{
    lat__emu_worker *w = t->rt;
    if (w->on_fiber != LAT__EXEC_ON_THREAD)
        not_on_fiber(w, op, file, line);
    return &w->fb->f[t->lin];
}

/* The calling fiber (already marked waiting) lets another run; returns when it can go
 * on: the next one that can, or the schedule's next turn. */
ENGINE_INLINE void wait_turn(lat__exec_block *b, lat__exec_fiber *me, bool warp_first,
                             bool observed)
{
    if (observed) {
        b->all_spun = false;
        lat__exec_handoff(b, &me->sp, &me->fake);
        return;
    }
    int next = pick(b, (int)(me - b->f), warp_first);
    if (next < 0) {
        lat__exec_deadlock(b);
        lat__exec_abandon(b->w);
    }
    lat__exec_go_fiber(b, &me->sp, &me->fake, next);
}

/* __syncthreads (kind 0), __syncthreads_count (1), _and (2), _or (3). An unobserved
 * block's last thread to arrive releases it; an observed one's is released between
 * turns (turns.c). */
ENGINE_INLINE int arrive(lat__emu_thread *t, int kind, int pred, const char *file, int line,
                         bool observed)
{
    lat__exec_fiber *me = current(t, -1, file, line);
    lat__exec_block *b = ((lat__emu_worker *)t->rt)->fb;
    me->state = LAT__EXEC_BAR;
    me->op = kind;
    me->file = file;
    me->line = line;
    b->at_bar++;
    b->bar_count += pred != 0;
    if (!observed && b->at_bar == b->live) {
        lat__exec_release_barrier(b);
    } else {
        if (b->am_waiting[t->lin >> 5])
            lat__exec_warp_progress(b, (int)(t->lin >> 5));
        wait_turn(b, me, false, observed);
    }
    return (int)me->result;
}

ENGINE_INLINE uint64_t warp(lat__emu_thread *t, int op, unsigned mask, uint64_t val, int arg,
                            int width, const char *file, int line, bool observed)
{
    lat__exec_fiber *me = current(t, op, file, line);
    lat__exec_block *b = ((lat__emu_worker *)t->rt)->fb;
    int i = (int)t->lin, w = i >> 5;
    me->op = op;
    me->mask = mask;
    me->val = val;
    me->arg = arg;
    me->width = width;
    me->file = file;
    me->line = line;
    if (observed && b->hooks->warp_arrive)
        b->hooks->warp_arrive(b->obs, b, me);
    me->state = LAT__EXEC_WARP;
    uint32_t bit = 1u << (i & 31), live = ~b->exited[w];
    b->arrived[w] |= bit;
    if (((mask | bit) & live) != live)
        b->partial[w] |= bit;
    if (op == LAT_EMU_W_ACTIVE)
        b->am_waiting[w]++;
    /* An operation whose mask names every lane that has not exited can complete only
     * once they have all arrived: while every waiting lane's does, only the last
     * arrival looks for one that can. */
    if (b->partial[w] || b->am_waiting[w] || (b->arrived[w] & live) == live)
        lat__exec_warp_progress(b, w);
    if (me->state != LAT__EXEC_RUN)
        wait_turn(b, me, true, observed);
    return me->result;
}

ENGINE_INLINE int match_all(lat__emu_thread *t, unsigned mask, uint64_t val, int *pred,
                            const char *file, int line, bool observed)
{
    uint64_t r = warp(t, LAT_EMU_W_MATCH_ALL, mask, val, 0, 32, file, line, observed);
    if (pred)
        *pred = current(t, LAT_EMU_W_MATCH_ALL, file, line)->pred;
    return (int)r;
}

/* Region loops (not on a thread's fiber): every thread of the loop is there. */
ENGINE_INLINE unsigned activemask(lat__emu_thread *t, bool observed)
{
    if (((lat__emu_worker *)t->rt)->on_fiber != LAT__EXEC_ON_THREAD)
        return 0xffffffffu;
    return (unsigned)warp(t, LAT_EMU_W_ACTIVE, 0, 0, 0, 32, NULL, 0, observed);
}

int lat__exec_barrier(lat__emu_thread *t, int kind, int pred, const char *file, int line)
{
    return arrive(t, kind, pred, file, line, false);
}

int lat__exec_barrier_observed(lat__emu_thread *t, int kind, int pred, const char *file,
                               int line)
{
    return arrive(t, kind, pred, file, line, true);
}

/* Observed launches are never cooperative (checked ones are refused: emu.c), so one entry
 * point serves: outside a cooperative launch it only fails. */
int lat__exec_grid_barrier(lat__emu_thread *t, const char *file, int line)
{
    lat__emu_worker *w = t->rt;
    if (!w->launch->coop) {
        lat__emu_fail(w, LAT_ERROR_LAUNCH_FAILED,
                      "%s:%d: kernel '%s' called __lat_grid_sync() in block (%u,%u,%u), thread "
                      "(%u,%u,%u), but was not launched cooperatively: a grid barrier needs "
                      "lat_launch_desc.cooperative",
                      file ? file : "?", line, w->launch->kernel->name, t->block_idx.x,
                      t->block_idx.y, t->block_idx.z, t->thread_idx.x, t->thread_idx.y,
                      t->thread_idx.z);
        if (w->on_fiber)
            lat__exec_abandon(w);
        siglongjmp(w->trap, 1);
    }
    /* Counted here, not in arrive(), so that __syncthreads pays nothing for it (off a
     * fiber, arrive() reports the lowering's bug). */
    if (w->on_fiber == LAT__EXEC_ON_THREAD)
        w->fb->at_grid++;
    return arrive(t, LAT__EXEC_GRID_BAR, 0, file, line, false);
}

uint64_t lat__exec_warp(lat__emu_thread *t, int op, unsigned mask, uint64_t val, int arg,
                        int width, const char *file, int line)
{
    return warp(t, op, mask, val, arg, width, file, line, false);
}

uint64_t lat__exec_warp_observed(lat__emu_thread *t, int op, unsigned mask, uint64_t val,
                                 int arg, int width, const char *file, int line)
{
    return warp(t, op, mask, val, arg, width, file, line, true);
}

int lat__exec_match_all(lat__emu_thread *t, unsigned mask, uint64_t val, int *pred,
                        const char *file, int line)
{
    return match_all(t, mask, val, pred, file, line, false);
}

int lat__exec_match_all_observed(lat__emu_thread *t, unsigned mask, uint64_t val, int *pred,
                                 const char *file, int line)
{
    return match_all(t, mask, val, pred, file, line, true);
}

unsigned lat__exec_activemask(lat__emu_thread *t)
{
    return activemask(t, false);
}

unsigned lat__exec_activemask_observed(lat__emu_thread *t)
{
    return activemask(t, true);
}
