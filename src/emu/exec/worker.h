/*
 * What the emulator's host code keeps per launch and per OpenMP worker while a grid
 * runs (sched.c), shared with the code kernels call back into: traps, printf, the
 * fiber scheduler of a block (block.c), region loops' scratch memory.
 */
#ifndef LAT_EMU_WORKER_H
#define LAT_EMU_WORKER_H

#include "fiber.h"
#include "exec.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* A printf line kept for ordered output (LATTICE_EMU_PRINTF=ordered). */
typedef struct lat__emu_line {
    uint64_t block, thread, seq;
    char *text;
    size_t len;
} lat__emu_line;

struct lat__emu_gslot;

/* One launch, shared by its OpenMP threads. */
typedef struct lat__emu_launch {
    const lat__emu_kernel *kernel;
    /* Its deadline (guard.h): the host thread's slot, the launch's generation there (0:
     * no deadline) and the timeout. */
    struct lat__emu_gslot *host;
    uint64_t gen;
    uint64_t timeout_ms;
    atomic_int trapped; /* set once, by the first trap */
    lat_status status;  /* what the first trap makes the launch return */
    char *msg;
    size_t msg_size;
    /* ordered printf */
    bool ordered;
    pthread_mutex_t lines_lock; /* initialised only when ordered */
    lat__emu_line *lines;
    size_t nlines, lines_cap;
    bool lines_oom;
} lat__emu_launch;

struct lat__emu_fblock;

/* One OpenMP thread's state for the launch, reached by kernel code through its thread
 * context's rt field. The memory (shared memory, fiber stacks, scratch) lives in the
 * OS thread's cache, reused by every launch the thread works on. */
typedef struct lat__emu_worker {
    sigjmp_buf trap;
    lat__emu_launch *launch;
    lat__emu_thread *cur;        /* the thread running now (plain and region loops: the
                                    block's context, whose thread_idx the loop moves) */
    struct lat__emu_fblock *fb;  /* fiber kernels: the block's fibers (kept for reuse) */
    bool on_fiber;               /* a fiber kernel's block is running */
    /* Kernel code of the launch may be running: a fault or the watchdog's signal on this
     * thread is the kernel's (guard.c). Read by the signal handler, hence volatile. */
    volatile bool in_block;
    /* Inside a C library call that holds a lock (runtime.c): a fault there is not left
     * through the trap. */
    volatile int in_libc;
    uint64_t seq;                /* printf lines so far, for ordering */
    /* Region loops' per-block scratch (replicated locals, masks): a bump allocator. */
    char *scratch;
    size_t scratch_size, scratch_used;
} lat__emu_worker;

/* The worker of the calling OS thread while it runs blocks, else NULL. */
lat__emu_worker *lat__emu_current_worker(void);

/* ---- block.c: fiber kernels --------------------------------------------------------- */

/* Runs every thread of the block `t` describes on fibers; returns normally, or
 * siglongjmps to w->trap after a trap or a deadlock (the message recorded). */
void lat__emu_run_fibers(lat__emu_worker *w, const lat__emu_kernel *k, const lat__emu_thread *t,
                         void **params);
/* Records the first failure of the launch: "file:line: kernel 'k' ... : what". */
void lat__emu_fail(lat__emu_worker *w, lat_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A trap on a fiber: back to the block's scheduler, never to return. */
_Noreturn void lat__emu_fiber_abandon(lat__emu_worker *w);
void lat__emu_fblock_free(struct lat__emu_fblock *fb);
/* Whether addr is in the guard page of one of the worker's fiber stacks (an overflow). */
bool lat__emu_fiber_guard_hit(const lat__emu_worker *w, const void *addr);

/* What kernel code calls on fibers: __syncthreads (kind 0) and its _count (1), _and (2)
 * and _or (3) forms; a warp operation (warp.h); __match_all_sync; __activemask. */
int lat__emu_barrier(lat__emu_thread *t, int kind, int pred, const char *file, int line);
uint64_t lat__emu_warp_op(lat__emu_thread *t, int op, unsigned mask, uint64_t val, int arg,
                          int width, const char *file, int line);
int lat__emu_match_all(lat__emu_thread *t, unsigned mask, uint64_t val, int *pred,
                       const char *file, int line);
unsigned lat__emu_activemask(lat__emu_thread *t);

/* ---- region_rt.c: what region-loop kernels call --------------------------------------- */
uint64_t lat__emu_rvote(const uint64_t *v, const int *sk, unsigned i, int op,
                                  unsigned mask);
unsigned lat__emu_rmatch_all(const uint64_t *v, const int *sk, unsigned i,
                             unsigned mask, int *pred);
int lat__emu_bvote(const uint64_t *v, const int *sk, unsigned n, int kind);
void lat__emu_converged(lat__emu_thread *t, const int *sk, unsigned n, const char *file,
                        int line);

/* ---- sched.c: region loops' per-block memory ----------------------------------------- */
void *lat__emu_scratch(lat__emu_thread *t, unsigned long bytes);

/* ---- printf.c ------------------------------------------------------------------------- */
int lat__emu_printf(const char *fmt, ...);
/* Writes an ordered launch's lines (LATTICE_EMU_PRINTF=ordered). */
void lat__emu_flush_lines(lat__emu_launch *l);

#endif
