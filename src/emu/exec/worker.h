/*
 * What the executor keeps per launch and per OpenMP worker while a grid runs (grid.c),
 * shared with the code kernels call back into (traps, printf, the fiber engine of a block,
 * region loops' scratch memory) and with observers, which reach their own state and the
 * block's through a thread context's rt: always the worker.
 */
#ifndef LAT_EMU_WORKER_H
#define LAT_EMU_WORKER_H

#include "exec.h"
#include "fiber.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <stdint.h>

/* A printf line kept for ordered output (LATTICE_EMU_PRINTF=ordered). */
typedef struct lat__emu_line {
    uint64_t block, thread, seq;
    char *text;
    size_t len;
} lat__emu_line;

struct lat__emu_gslot;

/* A cooperative grid's barrier (coop.c): every block runs at once, on an OS thread of its
 * own; a block whose threads all reach __lat_grid_sync waits here for the others. */
typedef struct lat__exec_coop {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    uint64_t nblocks;
    unsigned gx, gy;       /* the grid's x and y, to name blocks */
    uint64_t arrived;      /* blocks waiting at the barrier now */
    uint64_t exited;       /* blocks that have finished (or failed) */
    uint64_t generation;   /* barriers completed so far */
    bool broken;           /* the barrier can never complete: the launch has failed */
    uint64_t first_waiter; /* the first block to arrive at the barrier being waited at */
    const char *file;      /* and where it waits */
    int line;
    uint64_t first_exited; /* the first block to finish */
} lat__exec_coop;

/* One launch, shared by its OpenMP threads. */
typedef struct lat__emu_launch {
    const lat__emu_kernel *kernel;
    lat_context *ctx; /* the launch's context (texture and surface objects) */
    /* Its deadline (guard.h): the host thread's slot, the launch's generation there (0:
     * no deadline) and the timeout. */
    struct lat__emu_gslot *host;
    uint64_t gen;
    uint64_t timeout_ms;
    uint64_t grid_blocks; /* the grid's blocks, for messages */
    _Atomic uint64_t next_step; /* an observed launch's next step to hand out */
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
    /* The bytes kept and their bound (LATTICE_EMU_PRINTF_BUFFER, read at the first line);
     * the lines dropped past it, and their bytes. */
    size_t lines_bytes, lines_limit;
    unsigned long long dropped_lines, dropped_bytes;
    /* An observed launch: its observer, its schedule, and the order of its blocks
     * ((step * perm_a + perm_b) mod nblocks when random). */
    const lat__exec_hooks *hooks;
    void *obs;
    const lat__exec_schedule *schedule;
    uint64_t nblocks, perm_a, perm_b;
    double deadline; /* the schedule's watchdog, CLOCK_MONOTONIC seconds */
    /* An observed launch's blocks run on every OpenMP thread, and its outcome is the one a
     * run of its blocks one at a time in the schedule's order would have: the failure of
     * the first failing block in that order (its step and words), blocks after it not
     * started or their findings dropped. fail_step: the least failing step so far. */
    _Atomic uint64_t fail_step;
    pthread_mutex_t fail_lock;
    uint64_t failed_step; /* guarded by fail_lock: the step whose failure status/msg hold */
    lat__exec_coop *coop; /* a cooperative launch's grid barrier, else NULL */
} lat__emu_launch;

/* One OpenMP thread's state for the launch, reached by kernel code through its thread
 * context's rt field. The memory (shared memory, fiber stacks, scratch) lives in the
 * OS thread's cache, reused by every launch the thread works on. */
typedef struct lat__emu_worker {
    sigjmp_buf trap;
    lat__emu_launch *launch;
    lat__emu_thread *cur;        /* the thread running now (plain and region loops: the
                                    block's context, whose thread_idx the loop moves) */
    lat__exec_block *fb;         /* fiber kernels: the block's fibers (kept for reuse) */
    int on_fiber;                /* a fiber of the block is running (LAT__EXEC_ON_*) */
    void *obs;                   /* the launch's observer (NULL: none) */
    /* Kernel code of the launch may be running: a fault or the watchdog's signal on this
     * thread is the kernel's (guard.c). Read by the signal handler, hence volatile. */
    volatile bool in_block;
    uint64_t seq;                /* printf lines so far, for ordering */
    /* An observed launch: the step (position in the schedule's order) of the block
     * running, and its own failure, kept until the block ends (lat__emu_fail). */
    uint64_t step;
    bool bfailed;
    lat_status bstatus;
    char bmsg[1024];
    /* Region loops' per-block scratch (replicated locals, masks): a bump allocator. */
    char *scratch;
    size_t scratch_size, scratch_used;
    struct lat__exec_kstack *kstack; /* the OS thread's kernel stack (kstack.c) */
} lat__emu_worker;

/* ---- fail.c: the bottom of the executor ------------------------------------------------- */

/* The worker of the calling OS thread while it runs blocks, else NULL; set by grid.c. */
lat__emu_worker *lat__emu_current_worker(void);
void lat__exec_set_worker(lat__emu_worker *w);
/* Records the launch's first failure (later ones are dropped). */
void lat__exec_launch_vfail(lat__emu_launch *st, lat_status status, const char *fmt, va_list ap);

/* ---- block.c: a block on fibers ---------------------------------------------------------- */

/* Which fiber of its block a worker runs: none (the host's stack), a thread's, or an
 * observed region-loop kernel's one (where no barrier or warp operation may come). */
enum { LAT__EXEC_ON_HOST = 0, LAT__EXEC_ON_THREAD = 1, LAT__EXEC_ON_REGION = 2,
       LAT__EXEC_ON_KSTACK = 3 /* an unobserved plain or region-loop block (kstack.c) */ };

/* ---- kstack.c: the stack of unobserved plain and region-loop kernels --------------------- */

typedef struct lat__exec_kstack {
    char *map; /* the mapping, guards included */
    size_t map_size;
    char *lo; /* the usable stack */
    size_t size;
    unsigned valgrind_id;
    /* While a block runs on it: */
    void *host_sp, *host_fake;
    const void *host_lo;
    size_t host_size;
    void (*run)(void *);
    void *arg;
    bool failed; /* left through lat__exec_kstack_abandon */
} lat__exec_kstack;

/* Maps the stack (once); false when it cannot be mapped. */
bool lat__exec_kstack_map(lat__exec_kstack *s);
void lat__exec_kstack_unmap(lat__exec_kstack *s);
/* Whether addr is in the inaccessible pages around the stack (an overflow). */
bool lat__exec_kstack_guard_hit(const lat__exec_kstack *s, const void *addr);
/* Runs run(arg) on w->kstack, blocks of a kernel one after another; returns normally, or
 * siglongjmps to w->trap after a fault, a trap or a timeout on it (the failure recorded). */
void lat__exec_kstack_run(lat__emu_worker *w, void (*run)(void *), void *arg);
/* From kernel code or a handler on the kernel stack: back to the host, which jumps to the
 * trap. */
_Noreturn void lat__exec_kstack_abandon(lat__emu_worker *w);

/* Loop turns a checked module's code counts between calls of __lat_ck_tick. */
enum { LAT__EXEC_TICKS = 64 };

/* The worker's block, made on first use (NULL: out of memory). */
lat__exec_block *lat__exec_block_of(lat__emu_worker *w);
/* Runs the block `t` describes on fibers (for an observed region-loop kernel, its loops
 * on one); returns normally, or siglongjmps to w->trap after a trap or a block that can
 * never finish (the failure recorded). */
void lat__exec_run_fibers(lat__emu_worker *w, const lat__emu_kernel *k,
                          const lat__emu_thread *t, void **params);
void lat__exec_block_free(lat__exec_block *b);
/* Whether addr is in the guard page of one of the worker's fiber stacks (an overflow;
 * kstack.c, below the guard that asks). */
bool lat__exec_guard_hit(const lat__emu_worker *w, const void *addr);

/* Inside the engine (block.c, turns.c): the fiber running, switching to fiber i or back
 * to the host, a barrier's release and the end of a block that can never finish (wait.c,
 * under both), the warp's operations that can complete. */

/* The index of the fiber running (its worker's cur is its thread context). */
static inline int lat__exec_running(const lat__exec_block *b)
{
    const char *t = (const char *)b->w->cur;
    return (int)((const lat__exec_fiber *)(const void *)(t - offsetof(lat__exec_fiber, t)) - b->f);
}

/* Switches from the context saved in *save (fake: its ASan slot, NULL when finished) to
 * fiber i, or to the host. */
static inline void lat__exec_go_fiber(lat__exec_block *b, void **save, void **fake, int i)
{
    lat__exec_fiber *f = &b->f[i];
    b->w->cur = &f->t;
    if (b->debug_ids)
        memcpy(b->debug_ids[0], &f->t.thread_idx, sizeof f->t.thread_idx);
    lat__emu_fiber_go(save, fake, f->sp, lat__emu_stack_lo(&b->stacks, i), b->stacks.size);
}

static inline void lat__exec_go_host(lat__exec_block *b, void **save, void **fake)
{
    lat__emu_fiber_go(save, fake, b->host_sp, b->host_lo, b->host_size);
}

void lat__exec_release_barrier(lat__exec_block *b);
void lat__exec_warp_progress(lat__exec_block *b, int w);
/* Records why the block can never finish: the observer's stall hook, then the launch's
 * failure with `what`; b->failed. The caller leaves the block. */
void lat__exec_stalled(lat__exec_block *b, lat__exec_stall_kind kind, const lat__exec_fiber *at,
                       char *what, size_t size);
/* The same for a block whose threads all wait for each other, naming them. */
void lat__exec_deadlock(lat__exec_block *b);

/* What kernel code calls on fibers: __syncthreads (kind 0) and its _count (1), _and (2)
 * and _or (3) forms; a warp operation (warp.h); __match_all_sync; __activemask. The
 * _observed forms are the same for observed launches, all of whose kernels are a checked
 * module's: its __lat_ck_bar and friends are bound to them. */
int lat__exec_barrier(lat__emu_thread *t, int kind, int pred, const char *file, int line);
uint64_t lat__exec_warp(lat__emu_thread *t, int op, unsigned mask, uint64_t val, int arg,
                        int width, const char *file, int line);
int lat__exec_match_all(lat__emu_thread *t, unsigned mask, uint64_t val, int *pred,
                        const char *file, int line);
unsigned lat__exec_activemask(lat__emu_thread *t);
int lat__exec_barrier_observed(lat__emu_thread *t, int kind, int pred, const char *file,
                               int line);
uint64_t lat__exec_warp_observed(lat__emu_thread *t, int op, unsigned mask, uint64_t val,
                                 int arg, int width, const char *file, int line);
int lat__exec_match_all_observed(lat__emu_thread *t, unsigned mask, uint64_t val, int *pred,
                                 const char *file, int line);
unsigned lat__exec_activemask_observed(lat__emu_thread *t);

/* The grid barrier kernel code calls (__lat_grid_sync): a block barrier whose release
 * waits for every block of the grid; outside a cooperative launch, a trap naming it. */
int lat__exec_grid_barrier(lat__emu_thread *t, const char *file, int line);
/* The barrier kind the grid barrier's threads wait with (beside __syncthreads' 0 to 3). */
enum { LAT__EXEC_GRID_BAR = 4 };

/* ---- coop.c: a cooperative grid's barrier ------------------------------------------------ */

bool lat__exec_coop_init(lat__exec_coop *c, uint64_t nblocks, unsigned gx, unsigned gy);
void lat__exec_coop_fini(lat__exec_coop *c);
/* The block b, all of whose threads that have not exited wait at a barrier, some at the
 * grid's (file:line), waits for the grid's other blocks. Returns when every block has
 * arrived; leaves the block (abandoning it, the failure recorded) when the launch has
 * failed or the barrier can never complete: some block has finished without reaching it. */
void lat__exec_coop_wait(lat__exec_block *b, const char *file, int line);
/* Block `block` of w's cooperative launch has finished, normally or not. */
void lat__exec_coop_block_done(lat__emu_worker *w, uint64_t block);

/* ---- turns.c: an observed block's schedule --------------------------------------------------- */

/* Prepares the turns of an observed block whose fibers are set up (its threads' order);
 * false when out of memory. */
bool lat__exec_turns_begin(lat__exec_block *b, const lat__emu_thread *t);
/* Runs the observed fiber block b set up: rounds of turns until every thread has exited
 * or the block can never finish (b->failed). */
void lat__exec_turns_run(lat__exec_block *b);
/* Runs an observed region-loop block: its loops on fiber 0. */
void lat__exec_turns_run_region(lat__exec_block *b);
/* Hands the turn on from a thread that waits, exited (save NULL, fake NULL), or gives way. */
void lat__exec_handoff(lat__exec_block *b, void **save, void **fake);
/* Whether an observed launch has run past its schedule's deadline between blocks (its
 * blocks each end in time, but there are too many: recorded as a hang), or was
 * interrupted (recorded). */
bool lat__exec_schedule_expired(lat__emu_worker *w, uint64_t done, uint64_t nblocks);
/* An observed region-loop block past its schedule's deadline fails (and is left). */
void lat__exec_region_deadline(lat__exec_block *b);
/* A new order of the threads (after a barrier on a random schedule). */
void lat__exec_turns_reorder(lat__exec_block *b);
/* Starts an observed launch of nblocks blocks: draws the order of its blocks from the
 * schedule's seed, sets its deadline. */
bool lat__exec_schedule_begin(lat__emu_launch *l, uint64_t nblocks);
/* Seeds the schedule of the block at `step` on b (the random order of its threads and
 * its preemptions depend on the seed and the step only, not on which thread runs it). */
void lat__exec_schedule_block(lat__exec_block *b, const lat__emu_launch *l, uint64_t step);
/* What a checked module's loops call every few turns (__lat_ck_tick). */
void lat__exec_tick(lat__emu_thread *t);

/* ---- region.c: what region-loop kernels call --------------------------------------- */
uint64_t lat__emu_rvote(const uint64_t *v, const int *sk, unsigned i, int op, unsigned mask);
unsigned lat__emu_rmatch_all(const uint64_t *v, const int *sk, unsigned i, unsigned mask,
                             int *pred);
/* Lane i's result of warp operation op (warp.h), from the 64-bit values every active
 * lane of its warp stored in v: the lanes taking part are the active ones in mask (and i);
 * arg and width are lane i's own; pred receives __match_all_sync's predicate. */
uint64_t lat__emu_rwarp(const uint64_t *v, const int *sk, unsigned i, int op, unsigned mask,
                        int arg, int width, int *pred);
int lat__emu_bvote(const uint64_t *v, const int *sk, unsigned n, int kind);
void lat__emu_converged(lat__emu_thread *t, const int *sk, unsigned n, const char *file,
                        int line);
/* A checked module's region loops: a barrier (sk NULL: no thread can return early), and
 * the threads' order, (linear index, x, y, z) per thread, or NULL for index order. */
void lat__exec_rbarrier(lat__emu_thread *t, const int *sk, const char *file, int line);
const unsigned *lat__exec_rorder(lat__emu_thread *t);

/* ---- grid.c: region loops' per-block memory ----------------------------------------- */
void *lat__emu_scratch(lat__emu_thread *t, unsigned long bytes);

/* ---- printf.c ------------------------------------------------------------------------- */
int lat__emu_printf(const char *fmt, ...);
/* Writes an ordered launch's lines (LATTICE_EMU_PRINTF=ordered), and logs a warning
 * saying how many were dropped past the buffer's bound. */
void lat__emu_flush_lines(lat__emu_launch *l);
/* LATTICE_EMU_PRINTF_BUFFER's value: a size in bytes, optionally followed by K, M or G
 * (NULL or "": the default, LAT_EMU_PRINTF_BUFFER_DEFAULT); false when it is not one from
 * 1 KiB to 1 TiB. */
#define LAT_EMU_PRINTF_BUFFER_DEFAULT ((size_t)64 << 20)
bool lat__emu_printf_parse_buffer(const char *text, size_t *bytes);

#endif
