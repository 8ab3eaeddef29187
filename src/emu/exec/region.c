/*
 * What region-loop kernels call (passes/region_gen.c): the results of warp operations
 * from the values every lane stored, the block votes of __syncthreads_count/and/or, and
 * the check that a barrier inside a branch or loop is reached by every thread that has
 * not exited. __lat_sk[i] is thread i's state: 0 active, EXITED after return, anything
 * else inactive in an enclosing branch or loop. A checked module's loops also tell of
 * each barrier (its observer sees it complete) and take their threads in the
 * schedule's order (turns.c).
 */
#include "worker.h"

#include "emu/runtime/warp.h"

#include <stdio.h>

enum { EXITED = LAT_EMU_REGION_EXITED };

/* The lanes of thread i's warp that take part: active, and in the mask. */
static uint32_t group(const int *sk, unsigned i, unsigned mask)
{
    unsigned base = i & ~31u;
    uint32_t g = 0;
    for (unsigned l = 0; l < 32; l++)
        if (sk[base + l] == 0)
            g |= 1u << l;
    return g & (mask | 1u << (i & 31));
}

uint64_t lat__emu_rvote(const uint64_t *v, const int *sk, unsigned i, int op,
                                  unsigned mask)
{
    uint32_t g = group(sk, i, mask);
    return lat__emu_warp_result(op, (int)(i & 31), g, v ? v + (i & ~31u) : NULL, 0, 32, NULL);
}

unsigned lat__emu_rmatch_all(const uint64_t *v, const int *sk, unsigned i,
                             unsigned mask, int *pred)
{
    int p = 0;
    uint32_t g = group(sk, i, mask);
    unsigned r = (unsigned)lat__emu_warp_result(LAT_EMU_W_MATCH_ALL, (int)(i & 31), g,
                                                v + (i & ~31u), 0, 32, &p);
    if (pred)
        *pred = p;
    return r;
}

uint64_t lat__emu_rwarp(const uint64_t *v, const int *sk, unsigned i, int op, unsigned mask,
                        int arg, int width, int *pred)
{
    uint32_t g = group(sk, i, mask);
    int p = 0;
    uint64_t r = lat__emu_warp_result(op, (int)(i & 31), g, v ? v + (i & ~31u) : NULL, arg,
                                      width, &p);
    if (pred)
        *pred = p;
    return r;
}

int lat__emu_bvote(const uint64_t *v, const int *sk, unsigned n, int kind)
{
    int yes = 0, all = 0;
    for (unsigned i = 0; i < n; i++)
        if (sk[i] == 0) {
            all++;
            yes += v[i] != 0;
        }
    return kind == 1 ? yes : kind == 2 ? yes == all : yes > 0;
}

void lat__emu_converged(lat__emu_thread *t, const int *sk, unsigned n, const char *file,
                        int line)
{
    unsigned in = n, out = n;
    for (unsigned i = 0; i < n; i++) {
        if (sk[i] == 0 && in == n)
            in = i;
        if (sk[i] != 0 && sk[i] != EXITED && out == n)
            out = i;
    }
    if (out == n || in == n)
        return; /* everyone who has not exited is here (or no one: the barrier is skipped) */
    lat__emu_worker *w = t->rt;
    unsigned bx = t->block_dim.x, by = t->block_dim.y;
    lat__emu_fail(w, LAT_ERROR_LAUNCH_FAILED,
                  "kernel '%s' can never finish block (%u,%u,%u): the __syncthreads at %s:%d "
                  "is reached by thread (%u,%u,%u) but not by thread (%u,%u,%u), which has not "
                  "exited (the emulator runs this kernel as region loops, which need a barrier "
                  "in a branch or loop to be reached by all threads or none)",
                  w->launch->kernel->name, t->block_idx.x, t->block_idx.y, t->block_idx.z,
                  file, line, in % bx, in / bx % by, in / bx / by, out % bx, out / bx % by,
                  out / bx / by);
    if (w->on_fiber)
        lat__exec_abandon(w);
    siglongjmp(w->trap, 1);
}

void lat__exec_rbarrier(lat__emu_thread *t, const int *sk, const char *file, int line)
{
    lat__exec_block *b = ((lat__emu_worker *)t->rt)->fb;
    if (b->hooks->barrier) {
        b->rbar = true;
        b->rsk = sk;
        b->rfile = file;
        b->rline = line;
        b->hooks->barrier(b->obs, b);
        b->rbar = false;
    }
    /* A loop through barriers may never tick (its body is split into the loops over the
     * threads): the watchdog looks here too. */
    lat__exec_region_deadline(b);
    lat__exec_turns_reorder(b);
}

const unsigned *lat__exec_rorder(lat__emu_thread *t)
{
    /* NULL: in index order, which checked region loops run without reading an order. */
    const lat__exec_block *b = ((lat__emu_worker *)t->rt)->fb;
    return b->order_kind == LAT_SCHEDULE_FORWARD ? NULL : b->rorder;
}
