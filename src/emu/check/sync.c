/*
 * synccheck (ck.h), as the executor completes barriers and warp operations: the threads
 * waiting at a barrier when it completes must all wait at the same one, and none may have
 * exited (threads of region loops and fibers alike, lat__exec_thread_state); threads
 * that exited take no part. A warp operation's mask must hold the calling lane, and no
 * lane of the block that exited before it is called or while it waits (lanes past the
 * block's end are not there: a full mask in a 16-thread block is right).
 */
#include "ck.h"

#include "emu/runtime/warp.h"

#include <stdio.h>
#include <string.h>

static lat_dim3 dim_of(lat__emu_u3 u)
{
    return (lat_dim3){u.x, u.y, u.z};
}

/* The first and last (linear) of the threads waiting at the barrier at file:line. */
static void range_of(const lat__exec_block *b, int n, const char *file, int line, int *first,
                     int *last)
{
    *first = *last = -1;
    for (int i = 0; i < n; i++) {
        const char *f;
        int l;
        if (lat__exec_thread_state(b, i, &f, &l) != LAT__EXEC_BAR || l != line || f != file)
            continue;
        *first = *first < 0 ? i : *first;
        *last = i;
    }
}

static void barrier_report(lat__ck_launch *L, lat__ck_finding code, const char *file, int line,
                           int fa, int la, int fo, int lo, lat_access_kind other,
                           const char *ofile, int oline)
{
    lat_check_report r;
    memset(&r, 0, sizeof r);
    r.kernel = L->k->name;
    r.count = 1;
    r.check = LAT_CHECK_SYNCCHECK;
    r.access.kind = LAT_ACCESS_BARRIER;
    r.access.file = file ? file : "";
    r.access.line = line;
    r.access.expr = "";
    r.access.block = dim_of(L->bidx);
    r.access.thread = lat__ck_unlinear((uint64_t)fa, L->bdim);
    r.access.thread_last = lat__ck_unlinear((uint64_t)la, L->bdim);
    r.other.kind = other;
    r.other.file = ofile ? ofile : "";
    r.other.line = oline;
    r.other.expr = "";
    r.other.block = r.access.block;
    r.other.thread = lat__ck_unlinear((uint64_t)fo, L->bdim);
    r.other.thread_last = lat__ck_unlinear((uint64_t)lo, L->bdim);
    lat__ck_report_add(L->out, code, &r, -1, -1);
}

void lat__ck_sync_barrier(lat__ck_launch *L, const lat__exec_block *b)
{
    if (!(L->modes & LAT_CHECK_SYNCCHECK))
        return;
    /* One pass: the first waiter's barrier, whether some wait at another, the range of
     * the waiting threads. */
    const char *afile = NULL, *ofile = NULL;
    int aline = 0, oline = 0, fa = -1, la = -1;
    /* Threads that exited take no part in a barrier (Volta and later; compute-sanitizer
     * accepts a `return` before a __syncthreads the others reach): all those not exited
     * at one barrier is right. */
    if (lat__exec_one_barrier(b, &afile, &aline))
        return;
    for (int i = 0; i < L->n; i++) {
        const char *f;
        int l;
        if (lat__exec_thread_state(b, i, &f, &l) == LAT__EXEC_BAR) {
            if (fa < 0) {
                afile = f;
                aline = l;
            } else if (!ofile && (l != aline || f != afile)) {
                ofile = f;
                oline = l;
            }
            fa = fa < 0 ? i : fa;
            la = i;
        }
    }
    if (fa < 0)
        return;
    if (ofile) {
        /* The threads at the first waiter's barrier, and those at the other one. */
        int fo, lo;
        range_of(b, L->n, afile, aline, &fa, &la);
        range_of(b, L->n, ofile, oline, &fo, &lo);
        barrier_report(L, LAT__CK_BARRIER_MISMATCH, afile, aline, fa, la, fo, lo,
                       LAT_ACCESS_BARRIER, ofile, oline);
    }
}

static void warp_mask_report(lat__ck_launch *L, const lat__exec_fiber *f, lat__ck_finding code)
{
    lat_check_report r;
    memset(&r, 0, sizeof r);
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
    snprintf(m, sizeof m, "%s with mask 0x%08x %s", lat__emu_warp_name(f->op), f->mask,
             lat__ck_finding_words(code));
    r.message = m;
    lat__ck_report_add(L->out, code, &r, -1, -1);
}

/* The lanes of warp w that are in the block. */
static uint32_t lanes_there(const lat__ck_launch *L, int w)
{
    int lanes = L->n - w * 32 < 32 ? L->n - w * 32 : 32;
    return lanes == 32 ? ~0u : (1u << lanes) - 1;
}

void lat__ck_sync_warp(lat__ck_launch *L, const lat__exec_block *b, const lat__exec_fiber *f)
{
    if (!(L->modes & LAT_CHECK_SYNCCHECK) || f->op == LAT_EMU_W_ACTIVE)
        return;
    int w = (int)(f->t.lin >> 5), lane = (int)(f->t.lin & 31);
    uint32_t there = lanes_there(L, w);
    /* Lanes past the end of the block (a full mask in a 16-thread block) are not there to
     * disagree: compute-sanitizer accepts them, and so does this. */
    if (!(f->mask >> lane & 1u))
        warp_mask_report(L, f, LAT__CK_WARP_MASK_NO_CALLER);
    else if (f->mask & there & b->exited[w])
        warp_mask_report(L, f, LAT__CK_WARP_MASK_EXITED);
}

/* A lane that exits while others of its warp wait in an operation whose mask names it:
 * as wrong as naming it after it exited, whichever ran first. Each waiting operation is
 * reported once, as at its arrival: when no finding was made then (its mask holds the
 * caller and no lane past the block) and this is the first lane of the mask to exit. */
void lat__ck_sync_exit(lat__ck_launch *L, const lat__exec_block *b, const lat__exec_fiber *f)
{
    if (!(L->modes & LAT_CHECK_SYNCCHECK))
        return;
    int w = (int)(f->t.lin >> 5);
    uint32_t bit = 1u << (f->t.lin & 31);
    /* Only the lanes waiting in a warp operation (usually none: this costs a load). */
    for (uint32_t waiting = b->arrived[w]; waiting; waiting &= waiting - 1) {
        int j = __builtin_ctz(waiting);
        const lat__exec_fiber *g = &b->f[w * 32 + j];
        if (g->op != LAT_EMU_W_ACTIVE && (g->mask >> j & 1u) &&
            (g->mask & lanes_there(L, w) & b->exited[w]) == bit)
            warp_mask_report(L, g, LAT__CK_WARP_MASK_EXITED);
    }
}
