/*
 * What a block's threads wait at, as the engine of block.c and the turns of turns.c both
 * meet it: a barrier's release (the grid's too, through coop.c), and a block that can
 * never finish, named with the threads and where each waits.
 */
#include "worker.h"

#include "emu/runtime/warp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- blocks that can never finish -------------------------------------------------------- */

void lat__exec_stalled(lat__exec_block *b, lat__exec_stall_kind kind, const lat__exec_fiber *at,
                       char *what, size_t size)
{
    if (b->hooks && b->hooks->stall) {
        lat__exec_stall s = {kind, at, what, size};
        b->hooks->stall(b->obs, b, &s);
    }
    lat__emu_fail(b->w, LAT_ERROR_LAUNCH_FAILED, "%s", what);
    b->failed = true;
}

/* Appends "(x,y,z)" thread ranges waiting at file:line to buf. */
static void describe(const lat__exec_block *b, char *buf, size_t size)
{
    size_t at = strlen(buf);
    bool *done = calloc((size_t)b->n, sizeof *done);
    if (!done)
        return;
    for (int i = 0; i < b->n && at + 1 < size; i++) {
        const lat__exec_fiber *f = &b->f[i];
        if (done[i] || (f->state != LAT__EXEC_BAR && f->state != LAT__EXEC_WARP))
            continue;
        const char *what = f->state != LAT__EXEC_BAR        ? lat__emu_warp_name(f->op)
                           : f->op == LAT__EXEC_GRID_BAR ? "__lat_grid_sync"
                                                         : "__syncthreads";
        int count = 0, last = i;
        for (int j = i; j < b->n; j++) {
            const lat__exec_fiber *g = &b->f[j];
            if (!done[j] && g->state == f->state && g->line == f->line && g->file == f->file &&
                (f->state == LAT__EXEC_BAR || g->op == f->op)) {
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

void lat__exec_deadlock(lat__exec_block *b)
{
    char waits[768] = "", what[1024];
    describe(b, waits, sizeof waits);
    const lat__emu_thread *t = &b->f[0].t;
    snprintf(what, sizeof what,
             "kernel '%s' can never finish block (%u,%u,%u): %d of its %d threads have not "
             "exited and none can go on: %s",
             b->w->launch->kernel->name, t->block_idx.x, t->block_idx.y, t->block_idx.z,
             b->live, b->n, waits);
    const lat__exec_fiber *first = NULL;
    for (int i = 0; i < b->n && !first; i++)
        if (b->f[i].state == LAT__EXEC_BAR || b->f[i].state == LAT__EXEC_WARP)
            first = &b->f[i];
    lat__exec_stalled(b, LAT__EXEC_DEADLOCK, first, what, sizeof what);
}

/* ---- barriers ------------------------------------------------------------------------- */

void lat__exec_release_barrier(lat__exec_block *b)
{
    if (b->at_grid) {
        /* Arrivals at any barrier count together (as on Volta); with one of them at the
         * grid's, the whole block waits there for the grid's other blocks. */
        const lat__exec_fiber *g = NULL;
        for (int i = 0; i < b->n && !g; i++)
            if (b->f[i].state == LAT__EXEC_BAR && b->f[i].op == LAT__EXEC_GRID_BAR)
                g = &b->f[i];
        b->at_grid = 0;
        lat__exec_coop_wait(b, g ? g->file : NULL, g ? g->line : 0);
    }
    if (b->hooks && b->hooks->barrier)
        b->hooks->barrier(b->obs, b);
    int arrived = b->at_bar, yes = b->bar_count;
    for (int i = 0; i < b->n; i++) {
        lat__exec_fiber *f = &b->f[i];
        if (f->state != LAT__EXEC_BAR)
            continue;
        f->result = f->op == 1 ? (uint64_t)yes : f->op == 2 ? yes == arrived : f->op == 3 ? yes > 0 : 0;
        f->state = LAT__EXEC_RUN;
    }
    b->at_bar = 0;
    b->bar_count = 0;
}
