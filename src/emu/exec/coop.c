/*
 * A cooperative grid's barrier (worker.h). A cooperative launch runs every block of its
 * grid at once, each on an OS thread of its own (grid.c), so that blocks may wait for
 * each other as they may on a GPU. __lat_grid_sync() is first a barrier of the block
 * (block.c, a barrier of kind LAT__EXEC_GRID_BAR on fibers); when the block's threads have
 * all arrived, the thread that completes it waits here, on its fiber, until every block
 * of the grid has done the same, and the block then goes on.
 *
 * A block that finishes without reaching a grid barrier the others wait at would hang a
 * GPU; here the barrier notices (every block has arrived or finished, and some finished)
 * and fails the launch naming the blocks, as a block's own barriers do. A trap, a fault
 * or the watchdog stopping any block fails the launch too: the blocks waiting here see
 * it within POLL_MS and leave through their traps.
 */
#include "worker.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

enum { POLL_MS = 20 };

bool lat__exec_coop_init(lat__exec_coop *c, uint64_t nblocks, unsigned gx, unsigned gy)
{
    memset(c, 0, sizeof *c);
    c->nblocks = nblocks;
    c->gx = gx;
    c->gy = gy;
    pthread_condattr_t attr;
    if (pthread_condattr_init(&attr) != 0)
        return false;
    bool ok = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0 &&
              pthread_cond_init(&c->cond, &attr) == 0;
    pthread_condattr_destroy(&attr);
    if (!ok)
        return false;
    if (pthread_mutex_init(&c->lock, NULL) != 0) {
        pthread_cond_destroy(&c->cond);
        return false;
    }
    return true;
}

void lat__exec_coop_fini(lat__exec_coop *c)
{
    pthread_cond_destroy(&c->cond);
    pthread_mutex_destroy(&c->lock);
}

/* "(x,y,z)" of a linear block index. */
static void block_name(const lat__exec_coop *c, uint64_t b, char *buf, size_t size)
{
    uint64_t x = b % c->gx, y = b / c->gx % c->gy, z = b / c->gx / c->gy;
    snprintf(buf, size, "(%llu,%llu,%llu)", (unsigned long long)x, (unsigned long long)y,
             (unsigned long long)z);
}

/* Every block has arrived or finished, some finished: records why the launch can never
 * finish and wakes the blocks waiting. The caller holds the lock. */
static void broken_locked(lat__exec_coop *c, lat__emu_worker *w)
{
    char waiter[80], exited[80];
    block_name(c, c->first_waiter, waiter, sizeof waiter);
    block_name(c, c->first_exited, exited, sizeof exited);
    uint64_t others = c->arrived - 1, gone = c->exited - 1;
    char more[64] = "", more_gone[64] = "";
    if (others)
        snprintf(more, sizeof more, " and %llu other block%s", (unsigned long long)others,
                 others == 1 ? "" : "s");
    if (gone)
        snprintf(more_gone, sizeof more_gone, " and %llu other block%s",
                 (unsigned long long)gone, gone == 1 ? "" : "s");
    lat__emu_fail(w, LAT_ERROR_LAUNCH_FAILED,
                  "kernel '%s' can never finish: block %s%s of its cooperative grid of %llu "
                  "wait%s in __lat_grid_sync at %s:%d, which block %s%s finished without "
                  "reaching (every block of the grid must reach each grid barrier)",
                  w->launch->kernel->name, waiter, more, (unsigned long long)c->nblocks,
                  others ? "" : "s", c->file ? c->file : "?", c->line, exited, more_gone);
    c->broken = true;
    pthread_cond_broadcast(&c->cond);
}

/* Leaves the block b whose launch has failed (the failure recorded by whoever failed it). */
_Noreturn static void leave(lat__exec_block *b)
{
    b->failed = true;
    lat__exec_abandon(b->w);
}

void lat__exec_coop_wait(lat__exec_block *b, const char *file, int line)
{
    lat__emu_worker *w = b->w;
    lat__emu_launch *l = w->launch;
    lat__exec_coop *c = l->coop;
    const lat__emu_thread *t = &b->f[0].t;
    uint64_t me = t->block_idx.x + (uint64_t)c->gx * (t->block_idx.y + (uint64_t)c->gy * t->block_idx.z);
    pthread_mutex_lock(&c->lock);
    if (c->broken || atomic_load(&l->trapped)) {
        pthread_mutex_unlock(&c->lock);
        leave(b);
    }
    if (c->arrived++ == 0) {
        c->first_waiter = me;
        c->file = file;
        c->line = line;
    }
    if (c->arrived + c->exited == c->nblocks) {
        if (c->exited == 0) { /* the last to arrive: everyone goes on */
            c->arrived = 0;
            c->generation++;
            pthread_cond_broadcast(&c->cond);
            pthread_mutex_unlock(&c->lock);
            return;
        }
        broken_locked(c, w);
        pthread_mutex_unlock(&c->lock);
        leave(b);
    }
    uint64_t gen = c->generation;
    while (c->generation == gen && !c->broken && !atomic_load(&l->trapped)) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_nsec += POLL_MS * 1000000L;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&c->cond, &c->lock, &ts);
    }
    bool passed = c->generation != gen;
    pthread_mutex_unlock(&c->lock);
    if (!passed)
        leave(b);
}

void lat__exec_coop_block_done(lat__emu_worker *w, uint64_t block)
{
    lat__exec_coop *c = w->launch->coop;
    pthread_mutex_lock(&c->lock);
    if (c->exited++ == 0)
        c->first_exited = block;
    if (!c->broken && c->arrived > 0 && c->arrived + c->exited == c->nblocks)
        broken_locked(c, w);
    pthread_mutex_unlock(&c->lock);
}
