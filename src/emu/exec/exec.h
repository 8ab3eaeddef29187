/*
 * The emulator's executor: every launch, checked or not, runs on this one engine.
 *
 *   grid.c    a grid's blocks: shared out among OpenMP threads (an observed launch's in
 *             its schedule's order, its first failing block in that order failing it);
 *             each OS thread's memory for blocks; traps; region loops' scratch memory
 *   block.c   a block's threads on fibers: barriers, warp operations, exits, the hand-over
 *             to the next thread
 *   wait.c    a barrier's release, blocks that can never finish (under block.c, turns.c)
 *   turns.c   an observed block's schedule: the threads' turns in a chosen order, giving
 *             way, spins and the block's watchdog
 *   region.c  what region-loop kernels call
 *   warp.c    warp operations' results; fiber.c the stacks and the switch; guard.c faults
 *             and the launch's watchdog
 *   coop.c    a cooperative grid's barrier, which its blocks, all resident at once, meet at
 *   fail.c    the bottom: the calling thread's worker, a launch's failure, leaving a block
 * Calls run one way, down: grid.c, block.c, turns.c, wait.c, coop.c, fail.c, kstack.c,
 * fiber.c (guard.c calls only fail.c and kstack.c; warp.c nothing), never back up.
 *
 * Observers. The checks (src/emu/check/) run no kernel themselves: they watch this engine
 * run a launch, through a struct of optional callbacks (lat__exec_hooks, after Oclgrind's
 * plugins), so that a barrier or a warp operation means the same in checked and unchecked
 * runs. An observed launch runs its blocks on every OpenMP thread, handed out in the
 * order of its schedule, each block's threads in that order too (turns.c); the observer
 * keeps per-thread state (worker_begin) and orders what blocks found itself (block_end). A launch without an observer (hooks NULL) calls no
 * hook, and its threads never test for one as they arrive at a barrier or a warp
 * operation (its kernels call entry points without the test, block.c); completions,
 * exits and block starts test the pointer once.
 */
#ifndef LAT_EMU_EXEC_H
#define LAT_EMU_EXEC_H

#include "core.h"
#include "emu/runtime/abi.h"
#include "fiber.h"
#include "lattice/check.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The static shared memory a block may use, as on the reference device (ptxas refuses
 * more), and the most static and dynamic shared memory together, compute capability 8.0's
 * opt-in (cudaFuncAttributeMaxDynamicSharedMemorySize; its multiprocessor has 164 KiB). */
enum {
    LAT_EMU_SHARED_LIMIT = 48 * 1024,
    LAT_EMU_SHARED_OPTIN = 163 * 1024,
    LAT_EMU_SHARED_PER_SM = 164 * 1024
};

/* A compiled kernel, as a module holds it. */
typedef struct lat__emu_kernel {
    char *name;
    char *expr;  /* a template's instance: the name expression that finds it too */
    lat__emu_entry_fn entry;
    int nparams;
    size_t *param_sizes; /* nparams entries (NULL when there are none) */
    int mode;            /* LAT_EMU_MODE_* */
    char *why;           /* the mode in words, and for fibers why (abi.h's __lat_kwhy_K) */
    size_t shared_bytes; /* static __shared__ memory of a block */
    unsigned long *shoff; /* offset of each of the module's __shared__ variables (NULL: none) */
    struct lat__ck_kernel *check; /* a checked module's kernel (check/ck.h), else NULL */
    const char *code;     /* its module's compiled code, where a fault or the watchdog */
    size_t code_size;     /* finds a thread in kernel code (guard.c) */
    /* The optimising tier's code, unchecked: the compiler may have moved a faulting
     * instruction across the store of the thread's index, so a fault's report says the
     * thread it names may be a neighbour. */
    bool inexact_threads;
    /* -G (docs/debugging.md): the grid's blocks run one after another on the launching
     * thread (a stopped thread is the only one running kernel code; its block's static
     * __shared__ arrays are the module's). Untimed: -G under a debugger, whose pauses
     * are not hangs: the launch has no deadline. */
    bool debug, untimed;
    /* -G's code: the module's threadIdx, blockIdx, blockDim and gridDim (compile.c), which
     * the executor sets to the running thread's (block.c, worker.h); else NULL. */
    void *const *debug_ids;
} lat__emu_kernel;

/* Whether a kernel's launches start on the launching thread alone (grid.c): until `until`
 * (CLOCK_MONOTONIC, ns), set when a launch on a team of threads took as long as the
 * launching thread would have alone (a host loaded past its cores, or a grid shorter than
 * waking the team), which took team_ns. Such a launch hands what is left to the team once
 * it has run about as long as the team took. */
typedef struct lat__exec_solo {
    _Atomic uint64_t until, team_ns;
} lat__exec_solo;

/* ---- a block's threads, as observers see them ------------------------------------------ */

/* What a thread of a fiber block is doing. */
typedef enum lat__exec_state {
    LAT__EXEC_RUN,  /* running, or able to */
    LAT__EXEC_BAR,  /* waiting at a barrier */
    LAT__EXEC_WARP, /* waiting in a warp operation */
    LAT__EXEC_EXIT  /* returned from the kernel */
} lat__exec_state;

/* One thread on a fiber: its context, and where and why it waits. */
typedef struct lat__exec_fiber {
    void *sp;
    void *fake; /* ASan's fake stack while switched away */
    lat__emu_thread t;
    /* Loop turns left before the next __lat_ck_tick (turns.c): a checked module's code
     * counts them down itself, reading the int just past its thread context
     * (passes/checks.c's __LAT_TICK). Must follow t. */
    int ticks;
    /* What a checked module's optimised code judges accesses with, inline (abi.h's
     * lat_emu_ck_tail, whose layout this and ticks follow): the observer's, or one that
     * is never on. */
    lat__ck_fast *fast;
    int state; /* lat__exec_state */
    const char *file;
    int line;
    /* A barrier's kind and predicate, or a warp operation's operands and results. */
    int op;
    int pred;
    uint32_t mask;
    uint64_t val;
    int arg, width;
    uint64_t result;
} lat__exec_fiber;

/* An observed thread's latest turn (turns.c): what it touched, for spin detection. */
typedef struct lat__exec_turn {
    uint32_t slice; /* accesses and loop turns so far */
    int nseen;      /* distinct addresses among the first few (seen) */
    uintptr_t seen[4];
} lat__exec_turn;

struct lat__exec_hooks;
struct lat__emu_worker;

/* The block a worker runs (block.c), kept from block to block for its memory. Observers
 * read it; only the engine writes it. */
typedef struct lat__exec_block {
    lat__exec_fiber *f;
    int cap;
    lat__emu_stacks stacks;
    int n, live, at_bar;
    int bar_count; /* arrivals whose predicate was non-zero */
    int at_grid;   /* arrivals at the grid barrier (among at_bar): its release waits for
                      the grid's other blocks (coop.c) */
    uint32_t exited[32];  /* per warp: lanes that have returned (or are past the block) */
    uint32_t arrived[32]; /* per warp: lanes waiting in a warp operation */
    uint32_t partial[32]; /* lanes waiting in an operation whose mask leaves out some lane
                             that has not exited (block.c's shortcut) */
    int am_waiting[32]; /* lanes waiting in __activemask, per warp */
    void *host_sp, *host_fake;
    const void *host_lo;
    size_t host_size;
    bool host_known;
    lat__emu_entry_fn entry;
    void **params;
    struct lat__emu_worker *w;
    bool failed;
    void *const *debug_ids; /* the kernel's (lat__emu_kernel), else NULL */
    /* Observed blocks only (turns.c). */
    const struct lat__exec_hooks *hooks;
    void *obs;
    bool region;          /* the block's region loops run on fiber 0 */
    lat_schedule_order order_kind;
    bool preempt;
    uint64_t rng;         /* the schedule's random state, seeded per block (its step) */
    double deadline;      /* the launch's watchdog, CLOCK_MONOTONIC seconds */
    int *order;           /* the threads' order for the next turns */
    unsigned *rorder;     /* the same for region loops: (index, x, y, z) per thread */
    int order_cap;
    bool order_made;
    int pos, ran;         /* the round: the order's position running, turns taken */
    bool all_spun;        /* every turn of the round ended giving way after few addresses */
    bool wrote;           /* some thread wrote memory in the round */
    double spin_since;
    lat__exec_turn *turn; /* per fiber */
    /* A region loop's barrier being reported (lat__exec_thread_state): its threads'
     * states (abi.h's __lat_sk, NULL when none can return early) and place. */
    bool rbar;
    const int *rsk;
    const char *rfile;
    int rline;
} lat__exec_block;

/* Whether every thread of b that has not exited waits at the one barrier file:line (a
 * region loop's barrier hook), so that lat__exec_exited alone tells who is where. */
static inline bool lat__exec_one_barrier(const lat__exec_block *b, const char **file, int *line)
{
    *file = b->rfile;
    *line = b->rline;
    return b->rbar;
}

/* Whether no thread of b has returned (a quick answer; false may still mean none). */
static inline bool lat__exec_none_exited(const lat__exec_block *b)
{
    return b->rbar ? !b->rsk : b->live == b->n;
}

/* Whether thread i of b has returned. */
static inline bool lat__exec_exited(const lat__exec_block *b, int i)
{
    if (b->rbar)
        return b->rsk && b->rsk[i] == LAT_EMU_REGION_EXITED;
    return b->f[i].state == LAT__EXEC_EXIT;
}

/* What thread i of block b is doing; for one waiting at a barrier, which (file, line).
 * During a region loop's barrier hook: LAT__EXEC_BAR for the threads there, EXIT for
 * those that have returned. Inline: synccheck asks it of every thread at every barrier. */
static inline lat__exec_state lat__exec_thread_state(const lat__exec_block *b, int i,
                                                     const char **file, int *line)
{
    if (b->rbar) {
        *file = b->rfile;
        *line = b->rline;
        return b->rsk && b->rsk[i] == LAT_EMU_REGION_EXITED ? LAT__EXEC_EXIT : LAT__EXEC_BAR;
    }
    *file = b->f[i].file;
    *line = b->f[i].line;
    return (lat__exec_state)b->f[i].state;
}

/* The block of an observed launch run at step `step` of its order (a linear index). */
uint64_t lat__exec_block_at(const lat__exec_block *b, uint64_t step);

/* ---- observers ---------------------------------------------------------------------------- */

/* Why a block can never finish. */
typedef enum lat__exec_stall_kind {
    LAT__EXEC_DEADLOCK, /* no thread can go on: each waits for threads that exited or wait elsewhere */
    LAT__EXEC_SPIN,     /* the threads only give way, touching a few addresses nobody writes */
    LAT__EXEC_TIMEOUT   /* past the schedule's deadline */
} lat__exec_stall_kind;

typedef struct lat__exec_stall {
    lat__exec_stall_kind kind;
    /* The thread to name: deadlock, the first that waits; spin, the first that can run;
     * time-out, one still running (NULL: none). */
    const lat__exec_fiber *at;
    /* The engine's words, which the launch fails with; the observer may append to them. */
    char *what;
    size_t size;
} lat__exec_stall;

/* What an observer may watch, each optional. obs is the grid's observer pointer. Called
 * on the thread running the block, in the engine's state at that moment (read it, never
 * write it); a hook may fail the launch (lat__emu_fail) but not leave the block.
 *
 * Memory accesses do not pass through the engine: a checked module's code calls the
 * observer's access functions itself (passes/checks.c's __lat_ck), bound when it is
 * compiled; they tell the engine of the access with lat__exec_touch. */
typedef struct lat__exec_hooks {
    /* A block is about to start: its fibers are set up, none has run. t: its context. */
    void (*block_start)(void *obs, const lat__exec_block *b, const lat__emu_thread *t);
    /* A barrier completes, every thread that has not exited being at one; before the
     * waiting threads go on. lat__exec_thread_state says who waits where. */
    void (*barrier)(void *obs, const lat__exec_block *b);
    /* Thread f arrives at a warp operation (its operands set), before it waits. */
    void (*warp_arrive)(void *obs, const lat__exec_block *b, const lat__exec_fiber *f);
    /* The lanes `lanes` of warp `warp` complete a warp operation together. */
    void (*warp_done)(void *obs, const lat__exec_block *b, int warp, uint32_t lanes);
    /* Thread f has returned; the warp operations its lanes wait in have not yet been
     * completed without it. */
    void (*thread_exit)(void *obs, const lat__exec_block *b, const lat__exec_fiber *f);
    /* The block can never finish; the launch fails with s->what after this. */
    void (*stall)(void *obs, const lat__exec_block *b, lat__exec_stall *s);
    /* An observed launch's blocks run on every OpenMP thread: worker_begin gives the
     * observer's state for one OS thread's blocks (obs, for the hooks of those blocks;
     * NULL: out of memory), and may point t's shared memory at its own; worker_end ends
     * it. block_end: the block at `step` of the schedule's order has ended (failed: it
     * failed the launch, unless a block before it in the order did too). Blocks end in
     * any order, on any thread; the observer puts them in order itself. */
    void *(*worker_begin)(void *obs, struct lat__emu_worker *w, lat__emu_thread *t);
    void (*block_end)(void *obs, uint64_t step, bool failed);
    void (*worker_end)(void *obs);
} lat__exec_hooks;

/* How an observed launch runs: the order of its blocks and threads, whether threads are
 * preempted at random accesses, and its watchdog. */
typedef struct lat__exec_schedule {
    lat_schedule_order order;
    uint64_t seed;     /* LAT_SCHEDULE_RANDOM's (0: a fixed one) */
    bool preempt;
    double timeout_s;  /* the launch still running this long after it began is stopped */
    const char *watchdog; /* the timeout's name in its report, e.g. its option */
} lat__exec_schedule;

/* One launch. */
typedef struct lat__exec_grid {
    const lat__emu_kernel *kernel;
    lat_context *ctx; /* the launch's context: what kernel code's texture reads look up */
    const lat__launch *launch;
    void **params;
    uint64_t timeout_ms; /* the launch's deadline (guard.h); 0: none */
    char *msg;           /* where a failure is described */
    size_t msg_size;
    /* Observed launches: the blocks shared out among OpenMP threads in the schedule's
     * order, every thread on a fiber (region-loop kernels: the block's loops on one);
     * the observer's worker_begin hook gives each OS thread its shared memory. */
    const lat__exec_hooks *hooks;
    void *obs;
    lat__exec_schedule schedule;
    char *shared, *dshared;
    const unsigned long *shoff;
    struct lat__exec_solo *solo; /* the kernel's, kept from one launch to the next; NULL: none */
} lat__exec_grid;

/* Runs every block of the grid and returns when all have finished (a cooperative launch:
 * every block at once, each on an OS thread of its own, coop.c). A trap in kernel
 * code (a failed assert, __trap(), a block that can never finish, a fault, the launch
 * past its deadline or interrupted; guard.h) stops the launch: the blocks not yet started
 * are skipped and the trap's status (LAT_ERROR_LAUNCH_FAILED, LAT_ERROR_INTERRUPTED or
 * LAT_ERROR_OUT_OF_MEMORY) is returned with its description in g->msg. */
lat_status lat__exec_run(const lat__exec_grid *g);

/* ---- what observers call ------------------------------------------------------------------- */

/* Records the first failure of the launch (the following ones are dropped). */
void lat__emu_fail(struct lat__emu_worker *w, lat_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Stops the launch from kernel code after lat__emu_fail: never returns. */
_Noreturn void lat__exec_abandon(struct lat__emu_worker *w);

/* Accesses a thread may make before it gives way to the next (observed fiber blocks). */
enum { LAT__EXEC_SLICE = 4096 };

/* lat__exec_touch's slow paths (turns.c): an address among the turn's first few; the
 * running thread gives way (spun: after touching only a few addresses). */
void lat__exec_note_seen(lat__exec_turn *u, uintptr_t a);
void lat__exec_yield(lat__exec_block *b, bool spun);

/* An observed fiber thread (index i) accessed address a: counts toward its turn, and
 * gives way when the turn is used up or, when preempting, at random. */
static inline void lat__exec_touch(lat__exec_block *b, int i, uintptr_t a, bool writes)
{
    lat__exec_turn *u = &b->turn[i];
    if (u->nseen <= 4)
        lat__exec_note_seen(u, a);
    if (writes)
        b->wrote = true;
    if (++u->slice >= LAT__EXEC_SLICE)
        lat__exec_yield(b, u->nseen <= 4);
    else if (b->preempt && (b->rng = b->rng * 6364136223846793005ull + 1442695040888963407ull,
                            (b->rng >> 61) == 0))
        lat__exec_yield(b, false);
}

/* ---- what kernel code calls (runtime.c binds them; abi.h, the prelude) ---------------------- */

/* assert and __trap: does not return. expr is NULL for __trap(). */
_Noreturn void lat__emu_trap(lat__emu_thread *t, const char *expr, const char *file, int line);
/* A kernel's free() of an address the device heap did not hand out (or freed already):
 * fails the launch, naming the thread and the address. */
_Noreturn void lat__emu_bad_free(struct lat__emu_worker *w, const void *p);

#endif
