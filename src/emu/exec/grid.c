/*
 * A grid's blocks (exec.h): shared out among OpenMP threads, each with a thread context
 * of its own; within a block, the generated entry loops over the threads in compiled code
 * (abi.h), so a launch costs one indirect call per block, and fiber kernels run their
 * threads on fibers (block.c). An observed launch shares its blocks out among OpenMP
 * threads in its schedule's order (turns.c), every block on fibers, and fails with its
 * first failing block in that order, whichever thread failed first. Blocks
 * are numbered linearly in 64 bits: a grid may hold (2^31-1) x 65535 x 65535.
 *
 * Each OS thread keeps the memory it needs for blocks (shared memory, fiber stacks,
 * scratch for region loops) from one launch to the next, and its slot for the guard
 * against faults and hangs (guard.h).
 */
#include "worker.h"
#include "emu/backend/env.h"

#include "guard.h"
#include "emu/backend/threads.h"

#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

/* ---- per OS thread ---------------------------------------------------------------------- */

/* Shared memory is LAT_EMU_SHARED_OPTIN at most; 256-byte aligned, as a GPU's is at
 * least. It is mapped between inaccessible pages, so that a block writing past its shared
 * memory faults (the launch fails) instead of overwriting the host's heap. */
enum { SHARED_BYTES = LAT_EMU_SHARED_OPTIN + 256, SHARED_GUARD = 64 << 10 };
static const size_t SHARED_MAP = SHARED_GUARD + ((SHARED_BYTES + 4095) & ~(size_t)4095) +
                                 SHARED_GUARD;
/* Region loops' scratch: reserved, touched as needed. */
static const size_t SCRATCH_BYTES = (size_t)256 << 20;

typedef struct cache {
    char *shared;
    lat__exec_block *fb;
    char *scratch;
    lat__exec_kstack kstack;
    lat__emu_gslot slot;
    bool guarded; /* slot registered */
} cache;

static pthread_key_t cache_key;
static pthread_once_t cache_once = PTHREAD_ONCE_INIT;
static bool cache_key_ok;

static void cache_free(void *p)
{
    cache *c = p;
    if (!c)
        return;
    if (c->guarded)
        lat__emu_guard_thread_fini(&c->slot);
    if (c->shared)
        munmap(c->shared - SHARED_GUARD, SHARED_MAP);
    lat__exec_block_free(c->fb);
    if (c->scratch)
        munmap(c->scratch, SCRATCH_BYTES);
    lat__exec_kstack_unmap(&c->kstack);
    free(c);
}

static void cache_init(void)
{
    cache_key_ok = pthread_key_create(&cache_key, cache_free) == 0;
}

/* The calling thread's cache, made on first use; NULL when out of memory. */
static cache *get_cache(void)
{
    pthread_once(&cache_once, cache_init);
    if (!cache_key_ok)
        return NULL;
    cache *c = pthread_getspecific(cache_key);
    if (c)
        return c;
    c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    char *m = mmap(NULL, SHARED_MAP, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (m == MAP_FAILED) {
        free(c);
        return NULL;
    }
    if (mprotect(m + SHARED_GUARD, SHARED_MAP - 2 * SHARED_GUARD, PROT_READ | PROT_WRITE) != 0) {
        munmap(m, SHARED_MAP);
        free(c);
        return NULL;
    }
    c->shared = m + SHARED_GUARD;
    if (pthread_setspecific(cache_key, c) != 0) {
        cache_free(c);
        return NULL;
    }
    lat__emu_guard_thread_init(&c->slot);
    c->guarded = true;
    return c;
}

/* ---- failures ----------------------------------------------------------------------------- */

/* The launch's first failure, recorded by a thread that runs no block. */
static void launch_fail(lat__emu_launch *st, lat_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void launch_fail(lat__emu_launch *st, lat_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    lat__exec_launch_vfail(st, status, fmt, ap);
    va_end(ap);
}

/* Out of the kernel's code, back to its worker, after lat__emu_fail. */
static _Noreturn void leave_kernel(lat__emu_worker *w)
{
    if (w->on_fiber)
        lat__exec_abandon(w);
    siglongjmp(w->trap, 1);
}

_Noreturn void lat__emu_trap(lat__emu_thread *t, const char *expr, const char *file, int line)
{
    lat__emu_worker *w = t->rt;
    char what[256];
    if (expr)
        snprintf(what, sizeof what, "assertion `%s` failed", expr);
    else
        snprintf(what, sizeof what, "__trap() was called");
    lat__emu_fail(w, LAT_ERROR_LAUNCH_FAILED,
                  "%s:%d: kernel '%s' trapped in block (%u,%u,%u), thread (%u,%u,%u): %s",
                  file ? file : "?", line, w->launch->kernel->name, t->block_idx.x,
                  t->block_idx.y, t->block_idx.z, t->thread_idx.x, t->thread_idx.y,
                  t->thread_idx.z, what);
    leave_kernel(w);
}

_Noreturn void lat__emu_bad_free(lat__emu_worker *w, const void *p)
{
    const lat__emu_thread *t = w->cur;
    lat__emu_fail(w, LAT_ERROR_LAUNCH_FAILED,
                  "kernel '%s', block (%u,%u,%u), thread (%u,%u,%u): free(%p): not an address "
                  "the kernels' malloc returned in this context, or freed already",
                  w->launch->kernel->name, t ? t->block_idx.x : 0, t ? t->block_idx.y : 0,
                  t ? t->block_idx.z : 0, t ? t->thread_idx.x : 0, t ? t->thread_idx.y : 0,
                  t ? t->thread_idx.z : 0, p);
    leave_kernel(w);
}

/* ---- region loops' scratch ---------------------------------------------------------------- */

/* Memory for the rest of the block (kernel code's __lat_scratch): 16-byte aligned. */
void *lat__emu_scratch(lat__emu_thread *t, unsigned long bytes)
{
    lat__emu_worker *w = t->rt;
    size_t need = (bytes + 15) & ~(size_t)15;
    if (!w->scratch) {
        void *p = mmap(NULL, SCRATCH_BYTES, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) {
            lat__emu_fail(w, LAT_ERROR_OUT_OF_MEMORY,
                          "kernel '%s': cannot map memory for the block's per-thread variables",
                          w->launch->kernel->name);
            leave_kernel(w);
        }
        w->scratch = p;
        w->scratch_size = SCRATCH_BYTES;
    }
    if (need > w->scratch_size - w->scratch_used) {
        lat__emu_fail(w, LAT_ERROR_LAUNCH_FAILED,
                      "kernel '%s': the per-thread variables a block keeps across barriers "
                      "need more than %zu MiB", w->launch->kernel->name, SCRATCH_BYTES >> 20);
        leave_kernel(w);
    }
    void *p = w->scratch + w->scratch_used;
    w->scratch_used += need;
    return p;
}

/* ---- running blocks ------------------------------------------------------------------------- */

/* Blocks of an unobserved launch, from t's on: the next count-1 follow in the grid's
 * order; on fibers (a kernel that needs them, or an observed launch's one block), or on
 * the kernel stack. */
typedef struct block_run {
    lat__emu_worker *w;
    const lat__emu_kernel *k;
    lat__emu_thread *t;
    void **params;
    uint64_t count;
    bool fibers;
} block_run;

static void next_block(lat__emu_thread *t)
{
    if (++t->block_idx.x < t->grid_dim.x)
        return;
    t->block_idx.x = 0;
    if (++t->block_idx.y < t->grid_dim.y)
        return;
    t->block_idx.y = 0;
    t->block_idx.z++;
}

/* The run's blocks in turn, stopping where the launch has failed. On the kernel stack it
 * runs once for the whole run: switching to it and back for each block cost a streaming
 * kernel's block of 256 threads as much as its work. */
static void blocks_in_turn(void *p)
{
    block_run *r = p;
    for (uint64_t i = 0; i < r->count; i++) {
        if (i) {
            if (atomic_load_explicit(&r->w->launch->trapped, memory_order_relaxed))
                return;
            next_block(r->t);
        }
        r->w->scratch_used = 0;
        if (r->fibers)
            lat__exec_run_fibers(r->w, r->k, r->t, r->params);
        else
            r->k->entry(r->t, r->params);
    }
}

/* Runs t's block and the count-1 after it, and stops early where the launch has failed;
 * the jump buffer is set here so that no caller's locals are at risk. */
static void run_blocks(lat__emu_worker *w, const lat__emu_kernel *k, lat__emu_thread *t,
                       void **params, uint64_t count)
{
    if (sigsetjmp(w->trap, 0) != 0) {
        w->in_block = false;
        return;
    }
    w->cur = t;
    w->in_block = true;
    block_run r = {.w = w, .k = k, .t = t, .params = params, .count = count,
                   .fibers = k->mode == LAT_EMU_MODE_FIBER || w->launch->hooks};
    if (r.fibers)
        blocks_in_turn(&r);
    else
        lat__exec_kstack_run(w, blocks_in_turn, &r);
    w->in_block = false;
}

/* Runs one block. */
static void run_block(lat__emu_worker *w, const lat__emu_kernel *k, lat__emu_thread *t,
                      void **params)
{
    run_blocks(w, k, t, params, 1);
}

static void set_block(lat__emu_thread *t, uint64_t b)
{
    uint64_t gx = t->grid_dim.x, gy = t->grid_dim.y;
    t->block_idx.x = (unsigned)(b % gx);
    b /= gx;
    t->block_idx.y = (unsigned)(b % gy);
    t->block_idx.z = (unsigned)(b / gy);
}

/* Sets up a worker on the calling thread, whose cache is c; false when out of memory
 * (recorded). */
static bool worker_begin(lat__emu_worker *w, lat__emu_launch *st, lat__emu_thread *t,
                         const lat__exec_grid *g, cache *c)
{
    const lat__emu_kernel *k = g->kernel;
    memset(w, 0, sizeof *w);
    w->launch = st;
    w->obs = st->obs;
    t->rt = w;
    if (!c) {
        lat__emu_fail(w, LAT_ERROR_OUT_OF_MEMORY, "kernel '%s': out of host memory", k->name);
        return false;
    }
    if (st->gen) /* the watchdog finds the threads of a launch past its deadline so */
        atomic_store_explicit(&c->slot.work_host, st->host, memory_order_relaxed);
    w->fb = c->fb;
    w->scratch = c->scratch;
    if (!lat__exec_kstack_map(&c->kstack)) {
        lat__emu_fail(w, LAT_ERROR_OUT_OF_MEMORY, "kernel '%s': cannot map a stack for its "
                      "blocks", k->name);
        return false;
    }
    w->kstack = &c->kstack;
    w->scratch_size = c->scratch ? SCRATCH_BYTES : 0;
    t->shared = c->shared;
    t->dshared = c->shared + ((k->shared_bytes + 15) & ~(size_t)15);
    if (g->shared) { /* the observer's */
        t->shared = g->shared;
        t->dshared = g->dshared;
    }
    lat__exec_set_worker(w);
    return true;
}

static void worker_end(lat__emu_worker *w, cache *c)
{
    /* A map kernel's streaming stores (passes/stream.c) are weakly ordered: fenced here,
     * once per worker, they are in memory before the launch is seen to end. */
#if defined(__x86_64__)
    __builtin_ia32_sfence();
#endif
    if (c) {
        c->fb = w->fb;
        c->scratch = w->scratch;
        if (w->launch->gen)
            atomic_store_explicit(&c->slot.work_host, NULL, memory_order_relaxed);
    }
    lat__exec_set_worker(NULL);
}

/* ---- cooperative grids ---------------------------------------------------------------------- */

/* One block of a cooperative grid and the thread that runs it. */
typedef struct coop_block {
    lat__emu_launch *st;
    const lat__exec_grid *g;
    const lat__emu_thread *base;
    uint64_t block;
    pthread_t thread;
} coop_block;

static void run_coop_block(coop_block *cb)
{
    lat__emu_worker w;
    lat__emu_thread t = *cb->base;
    cache *c = get_cache();
    if (worker_begin(&w, cb->st, &t, cb->g, c)) {
        set_block(&t, cb->block);
        run_block(&w, cb->g->kernel, &t, cb->g->params);
    }
    lat__exec_coop_block_done(&w, cb->block);
    worker_end(&w, c);
}

static void *coop_thread(void *p)
{
    run_coop_block(p);
    return NULL;
}

/* A cooperative launch: every block at once, each on a thread of its own (block 0 on the
 * calling one), so that blocks may wait for each other (coop.c). Threads of the launch's
 * own rather than OpenMP's: a team cannot grow inside a parallel region, and a thread
 * the system refuses must fail the launch, not the process. */
static void run_cooperative(lat__emu_launch *st, const lat__exec_grid *g,
                            const lat__emu_thread *base, uint64_t nblocks)
{
    const lat__emu_kernel *k = g->kernel;
    lat__exec_coop coop;
    coop_block *blocks = calloc(nblocks, sizeof *blocks);
    if (!blocks || !lat__exec_coop_init(&coop, nblocks, base->grid_dim.x, base->grid_dim.y)) {
        free(blocks);
        launch_fail(st, LAT_ERROR_OUT_OF_MEMORY,
                    "kernel '%s': out of host memory for a cooperative grid of %llu blocks",
                    k->name, (unsigned long long)nblocks);
        return;
    }
    st->coop = &coop;
    uint64_t started = 1;
    for (uint64_t b = 0; b < nblocks; b++)
        blocks[b] = (coop_block){.st = st, .g = g, .base = base, .block = b};
    for (; started < nblocks; started++) {
        int e = pthread_create(&blocks[started].thread, NULL, coop_thread, &blocks[started]);
        if (e != 0) {
            /* The blocks started already leave the grid barrier when they see it. */
            launch_fail(st, LAT_ERROR_LAUNCH_FAILED,
                        "kernel '%s': a cooperative launch runs each of its %llu blocks on a "
                        "thread of its own, and the system would not start a thread for block "
                        "%llu: %s",
                        k->name, (unsigned long long)nblocks, (unsigned long long)started,
                        strerror(e));
            break;
        }
    }
    if (started == nblocks)
        run_coop_block(&blocks[0]);
    for (uint64_t b = 1; b < started; b++)
        pthread_join(blocks[b].thread, NULL);
    st->coop = NULL;
    lat__exec_coop_fini(&coop);
    free(blocks);
}

/* Whether the launch has failed, or run past its deadline or been interrupted (recorded
 * then): blocks too short for the watchdog's signal to find one running end here,
 * between blocks. */
static bool stopped(lat__emu_launch *st)
{
    if (atomic_load_explicit(&st->trapped, memory_order_relaxed))
        return true;
    if (!lat__emu_guard_expired(st->host, st->gen))
        return false;
    lat__emu_guard_fail_between(st);
    return true;
}

static bool printf_ordered(void)
{
    const char *v = lat__emu_env(LAT_EMU_ENV_PRINTF);
    return v && strcmp(v, "ordered") == 0;
}

/* ---- observed launches ----------------------------------------------------------------------- */

/* The end of an observed block: its failure, if any, becomes the launch's when no block
 * before it in the schedule's order failed; the observer is told. */
static void block_done(lat__emu_worker *w, uint64_t step, bool tell)
{
    lat__emu_launch *st = w->launch;
    if (w->bfailed) {
        pthread_mutex_lock(&st->fail_lock);
        if (step < st->failed_step) {
            st->failed_step = step;
            st->status = w->bstatus;
            snprintf(st->msg, st->msg_size, "%s", w->bmsg);
        }
        pthread_mutex_unlock(&st->fail_lock);
    }
    if (tell && st->hooks->block_end)
        st->hooks->block_end(w->obs, step, w->bfailed);
}

/* Runs the steps of an observed launch that w's thread takes: the blocks before the first
 * failing one in the schedule's order all run (whichever thread fails first), the later
 * ones start no more. */
static void observed_worker(lat__emu_launch *st, const lat__exec_grid *g, const lat__emu_thread *base,
                            uint64_t nblocks, cache *c, bool team)
{
    lat__emu_worker w;
    lat__emu_thread t = *base;
    bool ok = worker_begin(&w, st, &t, g, c);
    void *wobs = NULL;
    if (ok && st->hooks->worker_begin) {
        wobs = st->hooks->worker_begin(st->obs, &w, &t);
        if (!wobs) {
            lat__emu_fail(&w, LAT_ERROR_OUT_OF_MEMORY, "kernel '%s': out of host memory for a "
                          "checked block", g->kernel->name);
            ok = false;
        }
        w.obs = wobs;
    }
    if (ok && !lat__exec_block_of(&w)) {
        lat__emu_fail(&w, LAT_ERROR_OUT_OF_MEMORY, "out of host memory for a block's threads");
        ok = false;
    }
    if (ok)
        w.fb->order_made = false; /* the threads' order is the launch's (turns.c) */
    if (!ok) {
        w.step = 0; /* a failure before any block: the launch's, whatever the order */
        block_done(&w, 0, false);
    }
    /* Steps handed out by hand, not by an OpenMP loop: once one has failed, the threads
     * stop taking more, where a loop would go through every index left of a grid of up to
     * 2^63 blocks. A few at a time: 16 host threads taking the shared counter at every
     * block waited on it about as long as an unchecked launch of 4096 blocks runs. */
    uint64_t per = nblocks;
    if (team) {
        per = nblocks / ((uint64_t)omp_get_num_threads() * 16);
        per = per < 1 ? 1 : per > 8 ? 8 : per;
    }
    for (uint64_t first = 0; ok;) {
        if (team)
            first = atomic_fetch_add_explicit(&st->next_step, per, memory_order_relaxed);
        if (first >= nblocks)
            break;
        uint64_t end = nblocks - first < per ? nblocks : first + per;
        for (uint64_t s = first; ok && s < end; s++) {
            if (s > atomic_load_explicit(&st->fail_step, memory_order_relaxed)) {
                ok = false;
                break;
            }
            w.step = s;
            w.bfailed = false;
            /* A grid whose blocks each end in time, but too many of them. */
            if ((s & 63) == 63 && lat__exec_schedule_expired(&w, s, nblocks)) {
                block_done(&w, s, true);
                ok = false;
                break;
            }
            set_block(&t, lat__exec_block_at(w.fb, s));
            lat__exec_schedule_block(w.fb, st, s);
            run_block(&w, g->kernel, &t, g->params);
            block_done(&w, s, true);
        }
        if (!team)
            break;
    }
    if (wobs && st->hooks->worker_end)
        st->hooks->worker_end(wobs);
    worker_end(&w, c);
}

/* An observed launch: its blocks shared out among OpenMP threads in the schedule's order,
 * each block's threads in its turns (turns.c). */
static void run_observed(lat__emu_launch *st, const lat__exec_grid *g, const lat__emu_thread *base,
                         uint64_t nblocks, int nthreads, cache *hc)
{
    pthread_mutex_init(&st->fail_lock, NULL);
    lat__exec_schedule_begin(st, nblocks);
    if (nblocks == 1 || nthreads == 1) {
        observed_worker(st, g, base, nblocks, hc, false);
    } else {
        lat__emu_threads_team_begin();
#pragma omp parallel
        observed_worker(st, g, base, nblocks, get_cache(), true);
    }
    if (st->failed_step != UINT64_MAX)
        atomic_store(&st->trapped, 1);
    pthread_mutex_destroy(&st->fail_lock);
}

/* How long a launch of a kernel whose last team was no help runs on the launching thread
 * alone before the team is woken for the rest: as long as that team took, at least a few
 * times the cost of waking one on an idle host and at most SOLO_MAX_NS, so that a grid
 * which needs the team loses little; and for how long after that judgement its launches
 * start alone. */
static const uint64_t SOLO_NS = 200 * 1000, SOLO_MAX_NS = 50 * 1000 * 1000,
                      SOLO_FOR_NS = 500 * 1000 * 1000;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Blocks first..nblocks-1 on a team of nthreads. Chunks of several blocks keep the shared
 * counter cold; eight per thread still balance blocks of uneven cost. Blocks are handed
 * out by hand, not by an OpenMP loop, so that a stopped launch stops handing them out: a
 * loop would still go through every index of a grid of 2^63 blocks. */
static void run_team(lat__emu_launch *st, const lat__exec_grid *g, const lat__emu_thread *base,
                     uint64_t first, uint64_t nblocks, int nthreads)
{
    uint64_t chunk = (nblocks - first) / ((uint64_t)nthreads * 8);
    chunk = chunk < 1 ? 1 : chunk > 4096 ? 4096 : chunk;
    _Atomic uint64_t next = first;
    /* What the launching thread ran, and how long it took: the grid on that thread alone
     * would have taken about work_ns * blocks_total / own_blocks. */
    uint64_t own_blocks = 0, work_ns = 0, t0 = now_ns();
    lat__emu_threads_team_begin();
#pragma omp parallel num_threads(nthreads)
    {
        lat__emu_worker w;
        lat__emu_thread t = *base;
        cache *c = get_cache();
        bool ok = worker_begin(&w, st, &t, g, c);
        bool launcher = omp_get_thread_num() == 0;
        uint64_t w0 = launcher ? now_ns() : 0;
        while (ok && !stopped(st)) {
            uint64_t b = atomic_fetch_add_explicit(&next, chunk, memory_order_relaxed);
            if (b >= nblocks)
                break;
            uint64_t n = nblocks - b < chunk ? nblocks - b : chunk;
            if (launcher)
                own_blocks += n;
            set_block(&t, b);
            run_blocks(&w, g->kernel, &t, g->params, n);
        }
        if (launcher)
            work_ns = now_ns() - w0;
        worker_end(&w, c);
    }
    /* The team was no help when it took as long as the launching thread would have alone:
     * the others woke too late, or were taken off their cores mid-block (a host loaded
     * past its cores), or the grid is shorter than waking them. */
    if (g->solo && own_blocks > 0 && !stopped(st)) {
        double alone = (double)work_ns * (double)(nblocks - first) / (double)own_blocks;
        uint64_t t1 = now_ns();
        bool no_help = (double)(t1 - t0) >= alone;
        atomic_store_explicit(&g->solo->team_ns, t1 - t0, memory_order_relaxed);
        atomic_store_explicit(&g->solo->until, no_help ? t1 + SOLO_FOR_NS : 0,
                              memory_order_relaxed);
    }
}

lat_status lat__exec_run(const lat__exec_grid *g)
{
    const lat__emu_kernel *k = g->kernel;
    const lat__launch *launch = g->launch;
    void **params = g->params;
    lat__emu_launch st;
    memset(&st, 0, sizeof st);
    st.kernel = k;
    st.ctx = g->ctx;
    st.timeout_ms = g->timeout_ms;
    st.hooks = g->hooks;
    st.obs = g->obs;
    st.schedule = &g->schedule;
    atomic_init(&st.fail_step, UINT64_MAX);
    atomic_init(&st.next_step, 0);
    st.failed_step = UINT64_MAX;
    /* The host's slot holds the deadline, and lets lat_interrupt() stop the launch; not a
     * -G kernel's under a debugger, which has Ctrl-C itself and shows no thread of ours. */
    cache *hc = get_cache();
    if (hc && !k->untimed) {
        st.host = &hc->slot;
        st.gen = lat__emu_guard_begin(st.host, g->timeout_ms, g->launch->interrupts);
        if (!st.gen && g->timeout_ms) {
            snprintf(g->msg, g->msg_size, "kernel '%s': cannot start the emulator's watchdog "
                     "thread (LATTICE_EMU_TIMEOUT=0 runs without it)", k->name);
            return LAT_ERROR_OUT_OF_MEMORY;
        }
    }
    st.msg = g->msg;
    st.msg_size = g->msg_size;
    st.status = LAT_OK;
    st.ordered = printf_ordered();
    atomic_init(&st.trapped, 0);
    /* Only ordered printf takes it: a launch without costs nothing. */
    if (st.ordered)
        pthread_mutex_init(&st.lines_lock, NULL);
    lat__emu_thread base;
    memset(&base, 0, sizeof base);
    base.block_dim = (lat__emu_u3){launch->block[0], launch->block[1], launch->block[2]};
    base.grid_dim = (lat__emu_u3){launch->grid[0], launch->grid[1], launch->grid[2]};
    base.nthreads = launch->block[0] * launch->block[1] * launch->block[2];
    base.shoff = g->shoff ? g->shoff : k->shoff;
    uint64_t nblocks = (uint64_t)launch->grid[0] * launch->grid[1] * launch->grid[2];
    st.grid_blocks = nblocks;

    int nthreads = k->debug ? 1 : lat__emu_thread_count();
    if (launch->cooperative) {
        run_cooperative(&st, g, &base, nblocks);
    } else if (st.hooks) {
        run_observed(&st, g, &base, nblocks, nthreads, hc);
    } else {
        /* A grid of one block is not worth waking a team for; nor is one whose kernel's
         * last team took as long as the launching thread would have alone (run_team): on
         * a host loaded past its cores each such launch waited a scheduler's time slice
         * at the team's end, a millisecond on a launch of microseconds. Such a grid runs
         * here until it has taken about as long as that team did, and what is left goes
         * to the team, judged again; SOLO_FOR_NS after the judgement, the team is tried
         * again, in case the load has gone. */
        bool solo = nthreads == 1 || nblocks == 1;
        uint64_t deadline = UINT64_MAX, t0 = g->solo && !solo ? now_ns() : 0;
        if (t0 && t0 < atomic_load_explicit(&g->solo->until, memory_order_relaxed)) {
            uint64_t team = atomic_load_explicit(&g->solo->team_ns, memory_order_relaxed);
            deadline = t0 + (team < SOLO_NS ? SOLO_NS : team > SOLO_MAX_NS ? SOLO_MAX_NS : team);
            solo = true;
        }
        uint64_t b = 0;
        if (solo) {
            lat__emu_worker w;
            lat__emu_thread t = base;
            cache *c = hc;
            if (worker_begin(&w, &st, &t, g, c))
                for (uint64_t n; b < nblocks && !stopped(&st) &&
                                (deadline == UINT64_MAX || now_ns() < deadline); b += n) {
                    n = deadline == UINT64_MAX ? 256 : 1;
                    n = nblocks - b < n ? nblocks - b : n;
                    set_block(&t, b);
                    run_blocks(&w, k, &t, params, n);
                }
            else
                b = nblocks;
            worker_end(&w, c);
        }
        if (b < nblocks && !stopped(&st))
            run_team(&st, g, &base, b, nblocks, nthreads);
    }
    if (st.gen)
        lat__emu_guard_end(st.host);
    if (st.ordered) {
        lat__emu_flush_lines(&st);
        pthread_mutex_destroy(&st.lines_lock);
    }
    return atomic_load(&st.trapped) ? st.status : LAT_OK;
}
