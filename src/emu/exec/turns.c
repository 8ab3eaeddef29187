/*
 * An observed launch's schedule (exec.h): its blocks run one after another and the
 * threads of a block take turns, in an order that can be chosen and replayed (forward,
 * reverse, or a fresh random permutation at the start and after every barrier), so that
 * an observer sees every event in that order. A turn lasts until the thread waits (a
 * barrier, a warp operation), exits, or gives way (every LAT__EXEC_SLICE accesses and
 * loop turns, or at random accesses when preempting); the thread then hands the turn to
 * the next one of the order that can run, and the last of the round to the host loop
 * (one switch per turn). Between rounds the host loop
 *   - releases a barrier every thread that has not exited has reached;
 *   - finds a block that can never finish: no thread could take a turn (a deadlock), or
 *     every turn ended by giving way after touching a few addresses, nobody writing, for
 *     MAX_SPIN_MS (a spin);
 *   - stops the block past the schedule's deadline (its watchdog).
 * A region-loop kernel's block runs its loops on one fiber, which only the watchdog (at
 * its loops' ticks) can stop.
 */
#include "worker.h"

#include "guard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { MAX_SPIN_MS = 1000 };

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The watchdog's look at the clock, at every barrier of region loops: the coarse clock (a
 * few ms behind, against a deadline of seconds), since reading the precise one there was a
 * fifth of a checked reduction's time on a VM. */
static double watchdog_now_s(void)
{
#ifdef CLOCK_MONOTONIC_COARSE
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC_COARSE, &ts) == 0)
        return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#endif
    return now_s();
}

static uint64_t rnd(uint64_t *s)
{
    /* splitmix64: small, and the same sequence on every platform. */
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
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

/* ---- the launch's blocks ------------------------------------------------------------------ */

bool lat__exec_schedule_begin(lat__emu_launch *l, uint64_t nblocks)
{
    const lat__exec_schedule *s = l->schedule;
    uint64_t rng = s->seed ? s->seed : 0x5eed;
    l->nblocks = nblocks;
    if (s->order == LAT_SCHEDULE_RANDOM && nblocks > 1) {
        /* A permutation of the blocks: a multiplier prime to their number. */
        do
            l->perm_a = rnd(&rng) % nblocks;
        while (l->perm_a == 0 || gcd(l->perm_a, nblocks) != 1);
        l->perm_b = rnd(&rng) % nblocks;
    }
    l->deadline = now_s() + s->timeout_s;
    return true;
}

void lat__exec_schedule_block(lat__exec_block *b, const lat__emu_launch *l, uint64_t step)
{
    uint64_t s = (l->schedule->seed ? l->schedule->seed : 0x5eed) ^ (step * 0xd1342543de82ef95ull);
    b->rng = rnd(&s);
    b->deadline = l->deadline;
}

uint64_t lat__exec_block_at(const lat__exec_block *b, uint64_t step)
{
    const lat__emu_launch *l = b->w->launch;
    if (l->schedule->order == LAT_SCHEDULE_REVERSE)
        return l->nblocks - 1 - step;
    if (l->schedule->order == LAT_SCHEDULE_RANDOM && l->nblocks > 1) {
        __extension__ typedef unsigned __int128 u128;
        u128 x = (u128)step * l->perm_a + l->perm_b;
        return (uint64_t)(x % l->nblocks);
    }
    return step;
}

/* ---- the threads' order -------------------------------------------------------------------- */

static void make_order(lat__exec_block *b)
{
    const lat__emu_thread *t = &b->f[0].t;
    int n = (int)t->nthreads;
    for (int i = 0; i < n; i++)
        b->order[i] = b->order_kind == LAT_SCHEDULE_REVERSE ? n - 1 - i : i;
    if (b->order_kind == LAT_SCHEDULE_RANDOM)
        for (int i = n - 1; i > 0; i--) {
            int j = (int)(rnd(&b->rng) % (uint64_t)(i + 1));
            int x = b->order[i];
            b->order[i] = b->order[j];
            b->order[j] = x;
        }
    if (!b->region)
        return;
    /* Region loops read each thread's index and coordinates in the order (region.c). */
    unsigned bx = t->block_dim.x, by = t->block_dim.y;
    for (int k = 0; k < n; k++) {
        unsigned i = (unsigned)b->order[k];
        b->rorder[4 * k] = i;
        b->rorder[4 * k + 1] = i % bx;
        b->rorder[4 * k + 2] = i / bx % by;
        b->rorder[4 * k + 3] = i / bx / by;
    }
}

void lat__exec_turns_reorder(lat__exec_block *b)
{
    if (b->order_kind == LAT_SCHEDULE_RANDOM)
        make_order(b);
}

bool lat__exec_turns_begin(lat__exec_block *b, const lat__emu_thread *t)
{
    int n = (int)t->nthreads;
    if (b->order_cap < n) {
        /* A failed realloc leaves the old array, still the block's to free. */
        int *o = realloc(b->order, (size_t)n * sizeof *o);
        b->order = o ? o : b->order;
        unsigned *r = realloc(b->rorder, (size_t)n * 4 * sizeof *r);
        b->rorder = r ? r : b->rorder;
        lat__exec_turn *u = realloc(b->turn, (size_t)n * sizeof *u);
        b->turn = u ? u : b->turn;
        if (!o || !r || !u)
            return false;
        b->order_cap = n;
    }
    const lat__exec_schedule *s = b->w->launch->schedule;
    b->order_kind = s->order;
    b->preempt = s->preempt;
    b->turn[0] = (lat__exec_turn){0}; /* region loops' one fiber never gets a turn */
    if (b->order_kind == LAT_SCHEDULE_RANDOM || !b->order_made) {
        make_order(b);
        b->order_made = true; /* forward and reverse never change */
    }
    b->spin_since = 0;
    return true;
}

/* ---- turns ------------------------------------------------------------------------------------ */

void lat__exec_handoff(lat__exec_block *b, void **save, void **fake)
{
    for (int k = b->pos + 1; k < b->n; k++) {
        int i = b->order[k];
        if (b->f[i].state != LAT__EXEC_RUN)
            continue;
        b->pos = k;
        b->ran++;
        b->turn[i].slice = 0; /* a turn starts afresh (so does a block) */
        b->turn[i].nseen = 0;
        lat__exec_go_fiber(b, save, fake, i);
        return;
    }
    b->pos = b->n;
    /* The host starting a round in which no thread can run stays where it is: a switch
     * to itself would resume the stack pointer saved at its last switch, a frame that
     * is gone (a clang build crashed on a deadlock; gcc's happened to match). */
    if (save == &b->host_sp)
        return;
    lat__exec_go_host(b, save, fake);
}

void lat__exec_note_seen(lat__exec_turn *u, uintptr_t a)
{
    for (int i = 0; i < u->nseen && i < 4; i++)
        if (u->seen[i] == a)
            return;
    if (u->nseen < 4)
        u->seen[u->nseen] = a;
    u->nseen++;
}

void lat__exec_yield(lat__exec_block *b, bool spun)
{
    lat__exec_fiber *f = &b->f[lat__exec_running(b)];
    if (!spun)
        b->all_spun = false;
    lat__exec_handoff(b, &f->sp, &f->fake);
}

/* The watchdog: the block ran past the schedule's deadline. at: a thread still running,
 * named in the message when name_thread (region loops, where it never gave way). */
static void timed_out(lat__exec_block *b, const lat__exec_fiber *at, bool name_thread)
{
    char what[400], who[80] = "";
    const lat__emu_launch *l = b->w->launch;
    lat__emu_u3 bi = b->f[0].t.block_idx;
    if (name_thread && at)
        snprintf(who, sizeof who, "; thread (%u,%u,%u) was running", at->t.thread_idx.x,
                 at->t.thread_idx.y, at->t.thread_idx.z);
    snprintf(what, sizeof what, "kernel '%s' did not finish block (%u,%u,%u) within %g s (%s)%s",
             l->kernel->name, bi.x, bi.y, bi.z, l->schedule->timeout_s, l->schedule->watchdog,
             who);
    lat__exec_stalled(b, LAT__EXEC_TIMEOUT, at, what, sizeof what);
}

/* An interrupted launch (lat_interrupt): the block fails, and the caller leaves it. An
 * observed launch has no deadline of the guard's, so its expiry is an interrupt. */
static bool interrupted(lat__exec_block *b)
{
    const lat__emu_launch *l = b->w->launch;
    if (!lat__emu_guard_expired(l->host, l->gen))
        return false;
    lat__emu_guard_fail_stop(b->w);
    b->failed = true;
    return true;
}

void lat__exec_tick(lat__emu_thread *t)
{
    /* The fiber whose context t is: a thread's, or in region loops the block's. */
    lat__exec_fiber *f = (lat__exec_fiber *)(void *)((char *)t - offsetof(lat__exec_fiber, t));
    lat__emu_worker *w = t->rt;
    lat__exec_block *b = w->fb;
    lat__exec_turn *u = &b->turn[f - b->f];
    f->ticks = LAT__EXEC_TICKS;
    u->slice += LAT__EXEC_TICKS;
    if (u->slice < LAT__EXEC_SLICE)
        return;
    if (!b->region) {
        lat__exec_yield(b, u->nseen <= 4);
        return;
    }
    /* Region loops cannot give way: only the watchdog can end a loop that never does. */
    u->slice = 0;
    if (watchdog_now_s() > b->deadline) {
        timed_out(b, f, true); /* f->t holds the thread running */
        lat__exec_abandon(w);
    }
    if (interrupted(b))
        lat__exec_abandon(w);
}

bool lat__exec_schedule_expired(lat__emu_worker *w, uint64_t done, uint64_t nblocks)
{
    /* Between blocks the bound is four times the watchdog's: a grid of many short blocks
     * on a slow (or busy, or valgrind's) machine may take longer than one block may, and
     * still finish; one of 2^63 blocks never will. */
    lat__exec_block *b = w->fb;
    const lat__emu_launch *l = w->launch;
    if (lat__emu_guard_expired(l->host, l->gen)) {
        lat__emu_fail(w, LAT_ERROR_INTERRUPTED, "kernel '%s' was interrupted "
                      "(lat_interrupt(): Ctrl-C?) after %llu of its %llu blocks had run",
                      l->kernel->name, (unsigned long long)done, (unsigned long long)nblocks);
        return true;
    }
    /* The launch's deadline, not the block's: a thread of the team asks before its first
     * block, whose deadline is not set yet (or is a past launch's). */
    if (!b || !b->w || watchdog_now_s() <= l->deadline + 3 * l->schedule->timeout_s)
        return false;
    char what[400];
    snprintf(what, sizeof what,
             "kernel '%s' did not finish its grid within %g s (4 times %s): %llu of its %llu "
             "blocks had run", l->kernel->name, 4 * l->schedule->timeout_s, l->schedule->watchdog,
             (unsigned long long)done, (unsigned long long)nblocks);
    lat__exec_stalled(b, LAT__EXEC_TIMEOUT, NULL, what, sizeof what);
    return true;
}

void lat__exec_region_deadline(lat__exec_block *b)
{
    if (watchdog_now_s() > b->deadline) {
        timed_out(b, &b->f[0], false);
        lat__exec_abandon(b->w);
    }
    if (interrupted(b))
        lat__exec_abandon(b->w);
}

_Static_assert(offsetof(lat__exec_fiber, ticks) ==
                   offsetof(lat__exec_fiber, t) + sizeof(lat__emu_thread),
               "passes/checks.c's __LAT_TICK finds the count just past the thread context");
_Static_assert(offsetof(lat__exec_fiber, fast) - offsetof(lat__exec_fiber, ticks) ==
                   offsetof(lat__ck_tail, fast) - offsetof(lat__ck_tail, ticks),
               "passes/checks.c's __lat_ckx finds the inline path's state as lat_emu_ck_tail says");

/* ---- rounds ------------------------------------------------------------------------------------- */

static const lat__exec_fiber *first_running(const lat__exec_block *b, int *count)
{
    const lat__exec_fiber *s = NULL;
    *count = 0;
    for (int i = 0; i < b->n; i++)
        if (b->f[i].state == LAT__EXEC_RUN) {
            s = s ? s : &b->f[i];
            ++*count;
        }
    return s;
}

/* Whether the threads have only spun for MAX_SPIN_MS now (recorded). */
static bool spun_out(lat__exec_block *b, double now)
{
    if (!b->all_spun || b->wrote) {
        b->spin_since = 0;
        return false;
    }
    if (b->spin_since == 0) {
        b->spin_since = now;
        return false;
    }
    if (now - b->spin_since < MAX_SPIN_MS / 1000.0)
        return false;
    int cnt;
    const lat__exec_fiber *s = first_running(b, &cnt);
    lat__emu_u3 bi = b->f[0].t.block_idx;
    char what[600];
    snprintf(what, sizeof what,
             "kernel '%s' can never finish block (%u,%u,%u): %d threads spin without progress "
             "for %d ms", b->w->launch->kernel->name, bi.x, bi.y, bi.z, cnt, MAX_SPIN_MS);
    lat__exec_stalled(b, LAT__EXEC_SPIN, s, what, sizeof what);
    return true;
}

void lat__exec_turns_run(lat__exec_block *b)
{
    lat__emu_worker *w = b->w;
    while (b->live > 0) {
        /* A round: every thread that can run has one turn, in the order. */
        b->pos = -1;
        b->ran = 0;
        b->all_spun = true;
        b->wrote = false;
        w->on_fiber = LAT__EXEC_ON_THREAD;
        lat__exec_handoff(b, &b->host_sp, &b->host_fake);
        w->on_fiber = LAT__EXEC_ON_HOST;
        if (b->failed || interrupted(b))
            return;
        if (b->at_bar > 0 && b->at_bar == b->live) {
            lat__exec_release_barrier(b);
            lat__exec_turns_reorder(b);
            /* A kernel that goes through barriers for ever (or for too long) is stopped
             * here: the check below is for rounds that end otherwise. */
            if (now_s() > b->deadline) {
                int cnt;
                timed_out(b, first_running(b, &cnt), false);
                return;
            }
            continue;
        }
        if (b->ran == 0) {
            lat__exec_deadlock(b);
            return;
        }
        double now = now_s();
        if (spun_out(b, now))
            return;
        if (now > b->deadline) {
            int cnt;
            timed_out(b, first_running(b, &cnt), false);
            return;
        }
    }
}

void lat__exec_turns_run_region(lat__exec_block *b)
{
    b->w->on_fiber = LAT__EXEC_ON_REGION;
    lat__exec_go_fiber(b, &b->host_sp, &b->host_fake, 0);
    b->w->on_fiber = LAT__EXEC_ON_HOST;
}
