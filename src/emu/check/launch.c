/*
 * A checked launch (ck.h). The executor runs it (exec.h), observed: its blocks on every
 * OpenMP thread and each block's threads in the order the schedule says (forward,
 * reverse, or random from a seed that replays it; preempted at random accesses when
 * asked), every thread on a fiber. This file turns the context's options into that
 * schedule, lays the block's shared memory out with red zones for memcheck (each OS
 * thread has its own), and is the observer the executor calls: it hands each event to
 * the check that watches it (sync.c for barriers and warp masks, hang.c for blocks that
 * can never finish) and keeps racecheck's clocks (the block's serial number, its barriers
 * and warp synchronisations).
 *
 * The reports are the same whatever the number of threads and whichever finished first:
 * those of a run of the blocks one at a time in the schedule's order. What a block finds
 * by itself (memcheck, synccheck, hangs, shared memory, local variables) it keeps in a
 * list of its own; its accesses to device allocations it logs. As blocks end, they are
 * committed in the schedule's order (a thread that has ended a few blocks commits the
 * next one in the order and every later one that has ended): its list merged into the
 * launch's reports, then its log replayed through initcheck, racecheck and the thread maps, so
 * that a race between blocks 3 and 7 is found when block 7's log is replayed after
 * block 3's, however the host ran them. A block that failed the launch is the last one
 * committed. At the end the reports are put in cause order, worded and logged.
 */
#include "ck.h"
#include "profile.h"

#include "error.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

enum {
    REDZONE = 64,      /* bytes around each __shared__ variable */
    TIMEOUT_S = 20     /* the watchdog's default */
};

/* ---- the launch, shared by its OS threads ------------------------------------------------- */

/* A block that has ended, waiting for its turn to be committed, then for its shards'
 * replays: its log sorted by shard (shard k's entries at[k] to at[k + 1]). */
typedef struct ended {
    uint64_t step;
    bool failed;
    lat__emu_u3 bidx;
    uint64_t block_lin;
    lat__ck_list found;
    atomic_int refs;                    /* shards still to replay it */
    uint64_t on;                        /* bit k: it has entries for shard k */
    struct ended *link[LAT__CK_SHARDS]; /* the next block in shard k's queue */
    uint32_t at[LAT__CK_SHARDS + 1];
    lat__ck_logged log[];
} ended;

/* One shard of the launch's global accesses: the committed blocks it has still to replay,
 * in the schedule's order, and the state of its replay (one thread at a time: busy). */
typedef struct shard {
    _Alignas(64) atomic_flag busy;
    /* The blocks committed and not taken yet, the latest first: the committer (one at a
     * time, holding the grid's `committing`) pushes, the shard's replayer takes them all
     * at once. */
    _Atomic(ended *) queued;
    lat__ck_launch R;     /* the replay's state, its findings kept as events */
    lat__ck_events ev;
} shard;

/* A block's findings of its own, kept until the end to be merged in order with the
 * shards' findings. */
typedef struct local {
    uint64_t step;
    lat__ck_list found;
} local;

typedef struct lat__ck_grid {
    lat__ck_launch tmpl; /* the launch's fields; shared memory's layout (relative) */
    /* Blocks ended and not committed yet: step s at s & (NSLOTS - 1), published there by
     * the thread that ran it; whichever thread holds `committing` commits them in order
     * (a lock per block convoyed 16 host threads through futex waits). */
    _Atomic(ended *) *slots;
    _Atomic uint64_t next;    /* the step to commit next */
    atomic_flag committing;
    atomic_bool stopped;      /* a failed block was committed: none after it is */
    pthread_mutex_t lock;     /* guards what follows in an unordered launch; an ordered
                                 one's committer alone touches it */
    /* A launch that logs nothing has nothing to replay in order: its blocks' findings
     * are kept as they end (findings of blocks after the first failed one dropped at the
     * end), and a block that found nothing takes no lock (a lock per block made 16 host
     * threads slower than 2). */
    bool unordered;
    uint64_t failed_step; /* unordered: the first failed block's step (UINT64_MAX: none) */
    local *locals;        /* committed blocks' own findings, by step */
    size_t nlocals, locals_cap;
    atomic_bool lost;     /* out of memory: some findings not kept */
    unsigned nshards;
    shard *shards;
    /* Bit k: shard k may have blocks queued. Set after a push, cleared before a drain
     * takes the queue, so a block queued is always seen; a block's end reads this word,
     * not the 64 shards' lines (which cost racecheck a third of a small block's time). */
    _Alignas(64) _Atomic uint64_t pending;
} lat__ck_grid;

/* ---- the observer ------------------------------------------------------------------------ */

static void block_start(void *obs, const lat__exec_block *b, const lat__emu_thread *t)
{
    lat__ck_launch *L = obs;
    L->w = b->w;
    L->b = L->w->fb; /* the same block: the access hooks tell it of each access */
    L->bidx = t->block_idx;
    L->block_lin = t->block_idx.x + (uint64_t)L->grid.x *
                                        (t->block_idx.y + (uint64_t)L->grid.y * t->block_idx.z);
    L->step = L->w->step;
    L->fast.serial = L->first_serial + (uint32_t)L->step;
    L->fast.epoch = 0;
    L->fast.nlog = 0;
    L->pth = -1;
    memset(L->fast.wepoch, 0, sizeof L->fast.wepoch);
    memset(L->th, 0, (size_t)L->n * sizeof *L->th);
    L->npend = 0;
    /* Kernel code judges the usual access inline in region loops (on fibers every access
     * is also a step of the hang detector's, which only the host code takes). */
    L->fast.on = L->region && !L->pfl;
    for (int i = 0; i < L->b->n; i++)
        L->b->f[i].fast = &L->fast;
    for (int i = 0; i < L->n; i++)
        L->th[i].last_site = -1;
    /* Its shared memory fresh, and unwritten. */
    if (L->sh_used) {
        memset(L->sh, 0, L->sh_used);
        if (L->sh_init)
            memset(L->sh_init, 0, L->sh_used);
    }
    lat__ck_fwd_block_start(L);
    if (L->pf)
        lat__pf_block_start(L->pf);
}

/* A barrier completes: synccheck, then racecheck's next epoch. */
static void barrier(void *obs, const lat__exec_block *b)
{
    lat__ck_launch *L = obs;
    lat__ck_sync_barrier(L, b);
    lat__ck_settle(L, -1);
    if (L->pf)
        lat__pf_barrier(L->pf);
    L->fast.epoch++;
}

static void warp_arrive(void *obs, const lat__exec_block *b, const lat__exec_fiber *f)
{
    lat__ck_settle(obs, (int)f->t.lin);
    lat__ck_sync_warp(obs, b, f);
}

/* The lanes synchronised: accesses before and after no longer race. */
static void warp_done(void *obs, const lat__exec_block *b, int warp, uint32_t lanes)
{
    lat__ck_launch *L = obs;
    (void)b;
    (void)lanes;
    L->fast.wepoch[warp]++;
}

static void thread_exit(void *obs, const lat__exec_block *b, const lat__exec_fiber *f)
{
    lat__ck_settle(obs, (int)f->t.lin);
    lat__ck_sync_exit(obs, b, f);
}

static void stall(void *obs, const lat__exec_block *b, lat__exec_stall *s)
{
    lat__ck_hang(obs, b, s);
}

/* ---- committing blocks in the schedule's order ----------------------------------------------- */

/* Blocks are committed in the schedule's order by whichever thread ends the next one in
 * the order (a short step under the grid's lock: its own findings set aside, its log
 * queued on the shards it touches). The replays run in parallel, one thread per shard at a
 * time, each shard's blocks in the order they were committed; the findings of the
 * replays are put in their serial places at the end (lat__ck_run). */

static void free_ended(ended *e)
{
    lat__ck_reports_clear(&e->found);
    free(e->found.reports);
    free(e);
}

/* Replays what shard k has queued, unless another thread is at it; that thread looks for
 * more once it is done, so nothing queued is left behind (both sides sequentially
 * consistent: the queue pushed to before the busy flag is tried, busy cleared before the
 * queue is read again). No lock: blocks end on every thread at once. */
static void drain(shard *sh, unsigned k, lat__ck_launch *L)
{
    while (atomic_load(&sh->queued)) {
        if (atomic_flag_test_and_set(&sh->busy))
            return;
        ended *taken;
        while ((taken = atomic_exchange(&sh->queued, NULL))) {
            /* Pushed latest first: replayed in the order committed. */
            ended *e = NULL;
            while (taken) {
                ended *next = taken->link[k];
                taken->link[k] = e;
                e = taken;
                taken = next;
            }
            lat__ck_launch *C = &sh->R;
            C->b = L->w->fb; /* for the order of the blocks (lat__exec_block_at) */
            C->w = L->w;
            while (e) {
                ended *n = e->link[k];
                C->bidx = e->bidx;
                C->block_lin = e->block_lin;
                C->step = e->step;
                C->fast.serial = C->first_serial + (uint32_t)e->step;
                lat__ck_replay(C, e->log + e->at[k], e->at[k + 1] - e->at[k], k);
                if (atomic_fetch_sub(&e->refs, 1) == 1)
                    free_ended(e);
                e = n;
            }
        }
        atomic_flag_clear(&sh->busy);
    }
}

static void drain_all(lat__ck_grid *G, lat__ck_launch *L)
{
    if (!L->w || !L->w->fb)
        return;
    for (uint64_t bits = atomic_load(&G->pending); bits; bits &= bits - 1) {
        unsigned k = (unsigned)__builtin_ctzll(bits);
        atomic_fetch_and(&G->pending, ~(1ull << k));
        drain(&G->shards[k], k, L);
    }
}

/* Keeps a block's findings for the end (by the committer, or under the grid's lock in an
 * unordered launch); false when out of memory. */
static bool keep_local(lat__ck_grid *G, uint64_t step, lat__ck_list *found)
{
    if (G->nlocals == G->locals_cap) {
        size_t cap = G->locals_cap ? G->locals_cap * 2 : 16;
        local *p = realloc(G->locals, cap * sizeof *p);
        if (!p)
            return false;
        G->locals = p;
        G->locals_cap = cap;
    }
    G->locals[G->nlocals++] = (local){step, *found};
    memset(found, 0, sizeof *found);
    return true;
}

/* Block e, the next in order, is committed (by the holder of `committing`): its findings
 * set aside for the end, its log queued on its shards. */
static void commit(lat__ck_grid *G, ended *e)
{
    if ((e->found.nreports || e->found.dropped) && !keep_local(G, e->step, &e->found))
        G->lost = true;
    /* The shards to queue it on, read before it is queued on any: a shard's replayer
     * frees it after the last replay, maybe before this loop has looked at it again. */
    uint64_t on = e->on;
    if (!on) {
        free_ended(e);
        return;
    }
    atomic_store(&e->refs, __builtin_popcountll(on));
    for (uint64_t bits = on; bits; bits &= bits - 1) {
        unsigned k = (unsigned)__builtin_ctzll(bits);
        shard *sh = &G->shards[k];
        e->link[k] = atomic_load(&sh->queued);
        while (!atomic_compare_exchange_weak(&sh->queued, &e->link[k], e))
            ;
    }
    atomic_fetch_or(&G->pending, on);
}

/* Block L's log, copied in shard order (a split access once in each shard it touches). */
static ended *sort_log(lat__ck_grid *G, lat__ck_launch *L)
{
    unsigned ns = G->nshards;
    uint32_t count[LAT__CK_SHARDS] = {0};
    size_t total = 0;
    for (size_t i = 0; i < L->fast.nlog; i++) {
        lat__ck_logged *e = &L->fast.log[i];
        e->idx = (uint32_t)i;
        uintptr_t off = e->a - e->r->base, last = off + e->size - 1;
        if ((off >> LAT__CK_SHARD_SHIFT) == (last >> LAT__CK_SHARD_SHIFT) || ns == 1) {
            count[lat__ck_shard_of(e->r, off, ns)]++;
            total++;
            continue;
        }
        uint64_t seen = 0;
        for (uintptr_t p = off >> LAT__CK_SHARD_SHIFT; p <= last >> LAT__CK_SHARD_SHIFT; p++)
            seen |= 1ull << lat__ck_shard_of(e->r, p << LAT__CK_SHARD_SHIFT, ns);
        for (unsigned k = 0; k < ns; k++)
            if (seen >> k & 1) {
                count[k]++;
                total++;
            }
        e->kind |= LAT__CK_SPLIT;
    }
    ended *x = malloc(sizeof *x + total * sizeof x->log[0]);
    if (!x)
        return NULL;
    uint32_t fill[LAT__CK_SHARDS];
    x->at[0] = 0;
    x->on = 0;
    for (unsigned k = 0; k < ns; k++) {
        fill[k] = x->at[k];
        x->at[k + 1] = x->at[k] + count[k];
        x->on |= (uint64_t)(count[k] != 0) << k;
    }
    for (size_t i = 0; i < L->fast.nlog; i++) {
        const lat__ck_logged *e = &L->fast.log[i];
        uintptr_t off = e->a - e->r->base, last = off + e->size - 1;
        if (!(e->kind & LAT__CK_SPLIT)) {
            x->log[fill[lat__ck_shard_of(e->r, off, ns)]++] = *e;
            continue;
        }
        uint64_t seen = 0;
        for (uintptr_t p = off >> LAT__CK_SHARD_SHIFT; p <= last >> LAT__CK_SHARD_SHIFT; p++)
            seen |= 1ull << lat__ck_shard_of(e->r, p << LAT__CK_SHARD_SHIFT, ns);
        for (unsigned k = 0; k < ns; k++)
            if (seen >> k & 1)
                x->log[fill[k]++] = *e;
    }
    return x;
}

/* Slots for blocks ended and not committed: a block more than NSLOTS steps past the next
 * to commit waits for room (the host threads run a few blocks each at a time, so only a
 * block far slower than the rest holds the others up). */
enum { NSLOTS = 4096 };

/* A block that logged and found nothing (no allocation), and one whose findings were lost
 * for want of memory (none after it commits). */
static ended nothing_ended, lost_ended;

/* Whether e was allocated for its block (not one of the two above). */
static bool allocated(const ended *e)
{
    return e != &nothing_ended && e != &lost_ended;
}

/* Commits the blocks published in order, unless another thread is at it; that thread
 * looks again once it is done, so nothing published is left behind (as drain). */
static void commit_ready(lat__ck_grid *G)
{
    for (;;) {
        uint64_t n = atomic_load(&G->next);
        if (!atomic_load(&G->slots[n & (NSLOTS - 1)]))
            return;
        if (atomic_flag_test_and_set(&G->committing))
            return;
        for (;;) {
            n = atomic_load_explicit(&G->next, memory_order_relaxed);
            _Atomic(ended *) *slot = &G->slots[n & (NSLOTS - 1)];
            ended *c = atomic_load(slot);
            if (!c)
                break;
            atomic_store(slot, NULL);
            bool skip = atomic_load_explicit(&G->stopped, memory_order_relaxed);
            if (c == &lost_ended || (allocated(c) && c->failed))
                atomic_store(&G->stopped, true);
            if (allocated(c)) {
                if (skip)
                    free_ended(c);
                else
                    commit(G, c);
            }
            atomic_store(&G->next, n + 1);
        }
        atomic_flag_clear(&G->committing);
    }
}

/* Publishes the block at `step` for its commit (e: what it left), after waiting for a
 * slot; one after a failed block is dropped (the blocks before it may never all be
 * published then: a thread that failed to start took a step it never ran). */
static void publish(lat__ck_launch *L, uint64_t step, ended *e)
{
    lat__ck_grid *G = L->G;
    while (step - atomic_load(&G->next) >= NSLOTS) {
        if (atomic_load(&G->stopped) || step > atomic_load(&L->w->launch->fail_step)) {
            if (allocated(e))
                free_ended(e);
            return;
        }
        commit_ready(G);
        sched_yield();
    }
    atomic_store(&G->slots[step & (NSLOTS - 1)], e);
}

/* A worker commits (and replays) what is ready after every few blocks it ends, not after
 * each: the commit's shared words went back and forth between the threads at every block,
 * and a shorter block made the launch slower. A failed block is committed at once (the
 * blocks after it stop), and each worker commits at its end, after its last block. */
enum { COMMIT_EVERY = 8 };

static void commit_now(lat__ck_launch *L)
{
    L->uncommitted = 0;
    commit_ready(L->G);
    drain_all(L->G, L);
}

static void commit_soon(lat__ck_launch *L, bool failed)
{
    if (failed || ++L->uncommitted >= COMMIT_EVERY)
        commit_now(L);
}

/* The end of a block of a launch that logs nothing. */
static void block_end_unordered(lat__ck_launch *L, uint64_t step, bool failed)
{
    lat__ck_grid *G = L->G;
    if (!failed && !L->found.nreports && !L->found.dropped)
        return;
    int max = L->found.max;
    pthread_mutex_lock(&G->lock);
    if (failed && step < G->failed_step)
        G->failed_step = step;
    if ((L->found.nreports || L->found.dropped) && !keep_local(G, step, &L->found)) {
        G->lost = true;
        lat__ck_reports_clear(&L->found);
    }
    pthread_mutex_unlock(&G->lock);
    L->found.max = max;
}

static void block_end(void *obs, uint64_t step, bool failed)
{
    lat__ck_launch *L = obs;
    lat__ck_grid *G = L->G;
    lat__ck_settle(L, -1);
    if (L->pf)
        lat__pf_block_end(L->pf);
    if (G->unordered) {
        block_end_unordered(L, step, failed);
        return;
    }
    if (!L->fast.nlog && !failed && !L->found.nreports && !L->found.dropped) {
        publish(L, step, &nothing_ended);
        commit_soon(L, false);
        return;
    }
    ended *e = sort_log(G, L);
    L->fast.nlog = 0;
    if (!e) {
        lat__ck_reports_clear(&L->found);
        atomic_store(&G->lost, true);
        publish(L, step, &lost_ended);
        commit_now(L);
        return;
    }
    e->step = step;
    e->failed = failed;
    e->bidx = L->bidx;
    e->block_lin = L->block_lin;
    e->found = L->found;
    memset(&L->found, 0, sizeof L->found);
    L->found.max = e->found.max;
    publish(L, step, e);
    commit_soon(L, failed);
}

static void launch_free(lat__ck_launch *L);
static lat_status launch_alloc(lat__ck_launch *L);

static void *worker_begin(void *obs, lat__emu_worker *w, lat__emu_thread *t)
{
    lat__ck_grid *G = obs;
    lat__ck_launch *L = malloc(sizeof *L);
    if (!L)
        return NULL;
    *L = G->tmpl;
    L->w = w;
    if (launch_alloc(L) != LAT_OK) {
        launch_free(L);
        free(L);
        return NULL;
    }
    if (L->pfl)
        L->pf = lat__pf_worker_new(L->pfl, L->n);
    t->shared = L->sh;
    t->dshared = NULL;
    for (int i = 0; i < L->nshv; i++)
        if (L->shv[i].var < 0)
            t->dshared = (char *)L->shv[i].lo;
    return L;
}

/* Every block has ended (the executor's threads meet before this): what the shards have
 * queued is replayed by all threads at once. */
static void worker_end(void *obs)
{
    lat__ck_launch *L = obs;
    if (!L->G->unordered)
        commit_now(L);
    else
        drain_all(L->G, L);
    lat__pf_worker_end(L->pf);
    launch_free(L);
    free(L);
}

static const lat__exec_hooks hooks = {
    .block_start = block_start,
    .barrier = barrier,
    .warp_arrive = warp_arrive,
    .warp_done = warp_done,
    .thread_exit = thread_exit,
    .stall = stall,
    .worker_begin = worker_begin,
    .block_end = block_end,
    .worker_end = worker_end,
};

/* ---- shared memory ----------------------------------------------------------------------- */

/* Lays the kernel's __shared__ variables out with red zones around each, then the dynamic
 * shared memory (offsets from the block's shared memory, in the launch's template). */
static lat_status layout_shared(lat__ck_launch *L, size_t dynamic)
{
    const lat__ck_kernel *kk = L->kk;
    const lat__ck_module *cm = L->cm;
    int nv = kk ? kk->nvars : 0;
    L->shv = calloc((size_t)nv + 1, sizeof *L->shv);
    L->shoff = calloc((size_t)(cm->nshared ? cm->nshared : 1), sizeof *L->shoff);
    if (!L->shv || !L->shoff)
        return LAT_ERROR_OUT_OF_MEMORY;
    size_t at = REDZONE;
    for (int i = 0; i < nv; i++) {
        int v = kk->vars[i];
        if (v < 0 || v >= cm->nshared || !cm->shsize)
            continue;
        unsigned long a = cm->shalign[v] ? cm->shalign[v] : 1;
        if (a < 16)
            a = 16;
        at = (at + a - 1) / a * a;
        L->shoff[v] = at;
        L->shv[L->nshv++] = (lat__ck_shvar){at, at + cm->shsize[v], v};
        at += cm->shsize[v] + REDZONE;
    }
    at = (at + 255) / 256 * 256;
    L->shv[L->nshv++] = (lat__ck_shvar){at, at + dynamic, -1};
    at += dynamic + REDZONE;
    L->sh_size = at;
    L->sh_used = at;
    /* Mapped with a window on each side that nothing else can occupy, so that an access
     * near the block's shared memory is an overrun of it, never another object. */
    L->sh_map_size = LAT__CK_SHARED_WINDOW * 2 + (at + 4095) / 4096 * 4096;
    /* Which variable each 16-byte chunk holds (shared_access's lookup). */
    if (L->nshv >= 0xffff)
        return LAT_ERROR_OUT_OF_MEMORY;
    L->sh_var = calloc(at / 16 + 2, sizeof *L->sh_var);
    L->sh_room = calloc(at / 16 + 2, 1);
    if (!L->sh_var || !L->sh_room)
        return LAT_ERROR_OUT_OF_MEMORY;
    for (int i = 0; i < L->nshv; i++)
        for (size_t c = L->shv[i].lo / 16; c * 16 < L->shv[i].hi; c++) {
            L->sh_var[c] = (uint16_t)(i + 1);
            size_t room = L->shv[i].hi - c * 16;
            L->sh_room[c] = (uint8_t)(room < 255 ? room : 255);
        }
    L->fast.room = L->sh_room;
    return LAT_OK;
}

/* ---- each OS thread's window for its blocks' shared memory ------------------------------- */

/* Kept from launch to launch: mapping it, faulting its pages in and unmapping it at every
 * launch had 16 host threads queue on the kernel's lock of the address space, in a launch
 * whose unchecked run takes 0.15 ms. Unmapped when its thread exits. An OS thread runs one
 * checked block at a time; a second window it would need is mapped for the launch. */
typedef struct window {
    void *map;
    size_t size;
    bool busy;
} window;

static _Thread_local window thread_window;
static pthread_key_t window_key;
static bool window_key_made;
static pthread_once_t window_once = PTHREAD_ONCE_INIT;

static void window_drop(void *p)
{
    window *w = p;
    if (w->map)
        munmap(w->map, w->size);
    w->map = NULL;
}

static void window_key_make(void)
{
    window_key_made = pthread_key_create(&window_key, window_drop) == 0;
}

/* A window of at least size bytes: the thread's (*kept true) or one of the launch's own. */
static void *window_take(size_t size, bool *kept)
{
    window *w = &thread_window;
    pthread_once(&window_once, window_key_make);
    *kept = window_key_made && !w->busy;
    if (*kept && w->map && w->size >= size) {
        w->busy = true;
        return w->map;
    }
    void *map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED || !*kept)
        return map == MAP_FAILED ? NULL : map;
    if (w->map)
        munmap(w->map, w->size);
    else
        pthread_setspecific(window_key, w); /* its first: dropped at the thread's exit */
    *w = (window){map, size, true};
    return map;
}

static void window_give(void *map, size_t size, bool kept)
{
    if (kept)
        thread_window.busy = false;
    else
        munmap(map, size);
}

/* One OS thread's memory for the launch's blocks, L a copy of the template: its shared
 * memory and shadows, its variables' addresses in it, its threads' records. */
static lat_status launch_alloc(lat__ck_launch *L)
{
    const lat__ck_shvar *rel = L->shv;
    L->shv = NULL;
    L->sh_map = NULL;
    L->th = calloc((size_t)L->n, sizeof *L->th);
    L->sink_size = 4096;
    L->sink = calloc(1, L->sink_size);
    L->shv = malloc((size_t)L->nshv * sizeof *L->shv);
    if (!L->th || !L->sink || !L->shv)
        return LAT_ERROR_OUT_OF_MEMORY;
    void *map = window_take(L->sh_map_size, &L->sh_map_kept);
    if (!map)
        return LAT_ERROR_OUT_OF_MEMORY;
    L->sh_map = map;
    L->sh = (char *)map + LAT__CK_SHARED_WINDOW;
    for (int i = 0; i < L->nshv; i++)
        L->shv[i] = (lat__ck_shvar){rel[i].lo + (uintptr_t)L->sh, rel[i].hi + (uintptr_t)L->sh,
                                    rel[i].var};
    if (L->modes & LAT_CHECK_INITCHECK) {
        L->sh_init = calloc(L->sh_size, 1);
        L->sh_scanned = calloc(L->cm->nshared ? (size_t)L->cm->nshared : 1, sizeof *L->sh_scanned);
        if (!L->sh_init || !L->sh_scanned)
            return LAT_ERROR_OUT_OF_MEMORY;
    }
    if (L->modes & LAT_CHECK_RACECHECK) {
        L->sh_race = calloc((L->sh_size / 4 + 1) * 2, sizeof *L->sh_race);
        if (!L->sh_race)
            return LAT_ERROR_OUT_OF_MEMORY;
    }
    L->fast.sh = (uintptr_t)L->sh;
    L->fast.sh_size = L->sh_size;
    L->fast.sh_init = L->sh_init;
    L->fast.sh_race = L->sh_race;
    L->found.max = L->opts.max_reports;
    L->out = &L->found;
    return LAT_OK;
}

/* What launch_alloc made (and the block's leftovers). */
static void launch_free(lat__ck_launch *L)
{
    if (L->stack_poison)
        munmap(L->stack_poison, L->poison_size);
    free(L->th);
    if (L->sh_map)
        window_give(L->sh_map, L->sh_map_size, L->sh_map_kept);
    free(L->shv);
    free(L->sh_init);
    free(L->sh_scanned);
    free(L->sh_race);
    free(L->sink);
    free(L->fast.log);
    lat__ck_reports_clear(&L->found);
    free(L->found.reports);
}

/* ---- the launch ---------------------------------------------------------------------------- */

/* The seed of a random schedule: the options', or one drawn from the clock and logged. */
static uint64_t seed_of(lat__ck_launch *L)
{
    uint64_t seed = L->opts.seed;
    if (L->opts.order != LAT_SCHEDULE_RANDOM)
        return seed;
    if (seed == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed = ((uint64_t)ts.tv_sec * 1000000007u) ^ (uint64_t)ts.tv_nsec;
        seed = seed ? seed : 1;
        lat__log(L->ctx, LAT_LOG_INFO,
                 "kernel '%s' runs on a random schedule, seed %llu "
                 "(LATTICE_SCHEDULE=random:%llu replays it)", L->k->name,
                 (unsigned long long)seed, (unsigned long long)seed);
    }
    L->ck->last_seed = seed;
    return seed;
}

/* Thread maps start afresh for the launch. */
static void reset_maps(lat__ck_ctx *ck, const lat__launch *launch, const char *kernel)
{
    for (size_t i = 0; i < ck->nregions; i++) {
        lat__ck_map *m = ck->regions[i].map;
        if (!m)
            continue;
        memset(m->cells, 0, m->count * sizeof *m->cells);
        for (size_t c = 0; c < m->count; c++)
            m->cells[c].write_block = m->cells[c].read_block = -1;
        m->valid = true;
        m->grid = (lat_dim3){launch->grid[0], launch->grid[1], launch->grid[2]};
        m->block = (lat_dim3){launch->block[0], launch->block[1], launch->block[2]};
        free(m->kernel);
        m->kernel = lat__strdup(kernel);
    }
}

/* The launch's message: the first report when only the checks failed it, with the count
 * when there are more. */
/* The launch's message: the first report when only the checks failed it, with the count
 * when there are more. Notes (races between writes of one value) fail no launch. */
static lat_status finish(lat__ck_launch *L, lat_status st, char *msg, size_t msg_size)
{
    lat__ck_ctx *ck = L->ck;
    lat__ck_reports_finish(&ck->list);
    size_t errors = lat__ck_reports_errors(&ck->list);
    if (st == LAT_OK && errors > 0) {
        st = LAT_ERROR_CHECK_FAILED;
        snprintf(msg, msg_size, "the emulator's checks found %zu error%s in kernel '%s' "
                 "(lat_check_report_get has them); the first: %s", errors,
                 errors == 1 ? "" : "s", L->k->name, ck->list.reports[0].r.message);
    } else if (st != LAT_OK && errors > 1) {
        char first[600];
        snprintf(first, sizeof first, "%s", msg);
        snprintf(msg, msg_size, "the emulator's checks found %zu errors in kernel '%s' "
                 "(lat_check_report_get has them); the launch stopped: %s", errors,
                 L->k->name, first);
    }
    for (size_t i = 0; i < ck->list.nreports; i++)
        lat__log(L->ctx, ck->list.reports[i].r.note ? LAT_LOG_WARNING : LAT_LOG_ERROR, "%s",
                 ck->list.reports[i].r.message);
    return st;
}

static int event_cmp(const void *pa, const void *pb)
{
    const lat__ck_event *a = pa, *b = pb;
    if (a->step != b->step)
        return a->step < b->step ? -1 : 1;
    if (a->idx != b->idx)
        return a->idx < b->idx ? -1 : 1;
    return a->sub < b->sub ? -1 : a->sub > b->sub;
}

static int local_cmp(const void *pa, const void *pb)
{
    const local *a = pa, *b = pb;
    return a->step < b->step ? -1 : a->step > b->step;
}

/* The launch's reports, as a run of its blocks one at a time in the schedule's order has
 * them: each committed block's own findings, then those of its log's replay in the log's
 * order (the shards' events sorted; a split access's initcheck finding kept once). */
static void gather(lat__ck_grid *G, lat__ck_list *out)
{
    if (G->unordered && G->nlocals) {
        qsort(G->locals, G->nlocals, sizeof *G->locals, local_cmp);
        size_t kept = 0;
        for (size_t i = 0; i < G->nlocals; i++) {
            if (G->locals[i].step <= G->failed_step) {
                G->locals[kept++] = G->locals[i];
            } else {
                lat__ck_reports_clear(&G->locals[i].found);
                free(G->locals[i].found.reports);
            }
        }
        G->nlocals = kept;
    }
    size_t n = 0;
    for (unsigned k = 0; k < G->nshards; k++) {
        n += G->shards[k].ev.n;
        if (G->shards[k].ev.lost)
            atomic_store(&G->lost, true);
    }
    lat__ck_event *all = n ? malloc(n * sizeof *all) : NULL;
    if (n && !all)
        G->lost = true;
    size_t m = 0;
    for (unsigned k = 0; k < G->nshards; k++) {
        if (all && G->shards[k].ev.n)
            memcpy(all + m, G->shards[k].ev.v, G->shards[k].ev.n * sizeof *all);
        m += G->shards[k].ev.n;
        free(G->shards[k].ev.v);
    }
    if (all)
        qsort(all, n, sizeof *all, event_cmp);
    else
        n = 0;
    size_t i = 0, j = 0;
    while (i < G->nlocals || j < n) {
        if (i < G->nlocals && (j == n || G->locals[i].step <= all[j].step)) {
            lat__ck_list_merge(out, &G->locals[i].found);
            free(G->locals[i].found.reports);
            i++;
            continue;
        }
        lat__ck_event *e = &all[j++];
        if (j >= 2 && e->sub == 0 && event_cmp(e, e - 1) == 0)
            continue;
        lat__ck_report_add(out, e->code, &e->r, e->site, e->other_site);
    }
    free(all);
    free(G->locals);
    if (G->lost)
        lat__log(G->tmpl.ctx, LAT_LOG_ERROR, "kernel '%s': out of host memory for "
                 "the checks' records: some findings were not kept", G->tmpl.k->name);
}

lat_status lat__ck_run(lat_kernel *kernel, const lat__emu_kernel *k,
                       const struct lat__emu_opt_code *opt, const lat__launch *launch,
                       void **params, char *msg, size_t msg_size)
{
    lat_context *ctx = kernel->module->ctx;
    lat__ck_ctx *ck = ctx->check;
    lat__ck_grid *G = aligned_alloc(_Alignof(lat__ck_grid), (sizeof *G + 63) / 64 * 64);
    if (!G) {
        snprintf(msg, msg_size, "kernel '%s': out of host memory for a checked launch", k->name);
        return LAT_ERROR_OUT_OF_MEMORY;
    }
    memset(G, 0, sizeof *G);
    lat__ck_launch *T = &G->tmpl;
    T->ck = ck;
    T->ctx = ctx;
    T->k = k;
    T->kk = k->check;
    T->cm = T->kk->module;
    T->opt = opt;
    T->G = G;
    T->region = k->mode == LAT_EMU_MODE_REGION;
    T->grid = (lat__emu_u3){launch->grid[0], launch->grid[1], launch->grid[2]};
    T->bdim = (lat__emu_u3){launch->block[0], launch->block[1], launch->block[2]};
    T->n = (int)(launch->block[0] * launch->block[1] * launch->block[2]);
    msg[0] = '\0';

    pthread_mutex_lock(&ck->lock);
    T->modes = ck->modes;
    T->opts = ck->opts;
    T->fast.logging = (T->modes & (LAT_CHECK_INITCHECK | LAT_CHECK_RACECHECK)) != 0;
    for (size_t i = 0; i < ck->nregions && !T->fast.logging; i++)
        T->fast.logging = ck->regions[i].map != NULL;
    T->fast.bare = T->region && !T->fast.logging &&
                   !(T->modes & (LAT_CHECK_MEMCHECK | LAT_CHECK_INITCHECK | LAT_CHECK_RACECHECK |
                                 LAT_CHECK_PROFILE));
    /* Profiled (profile.h): every access comes to the host code. */
    if ((T->modes & LAT_CHECK_PROFILE) && !(T->pfl = lat__pf_launch_new(T, k, launch)))
        lat__log(ctx, LAT_LOG_ERROR, "kernel '%s': out of host memory for its profile", k->name);
    lat__ck_reports_clear(&ck->list);
    ck->list.max = T->opts.max_reports;
    lat_status st = lat__ck_regions_sync(ck);
    lat__ck_regions_scan_written(ck);
    if (T->modes & LAT_CHECK_RACECHECK)
        lat__ck_regions_mark_written(ck, T->kk, params);
    if (st == LAT_OK)
        st = layout_shared(T, launch->shared_bytes);
    /* A thread map's cells may straddle pages: one shard keeps their order. */
    G->nshards = T->fast.logging ? LAT__CK_SHARDS : 1;
    for (size_t i = 0; i < ck->nregions; i++)
        if (ck->regions[i].map)
            G->nshards = 1;
    T->nshards = G->nshards;
    G->unordered = !T->fast.logging;
    G->failed_step = UINT64_MAX;
    if (st == LAT_OK) {
        G->shards = aligned_alloc(64, (G->nshards * sizeof(shard) + 63) / 64 * 64);
        if (!G->shards)
            st = LAT_ERROR_OUT_OF_MEMORY;
        else
            reset_maps(ck, launch, k->name);
    }
    if (st == LAT_OK && !G->unordered) {
        G->slots = malloc(NSLOTS * sizeof *G->slots);
        if (!G->slots)
            st = LAT_ERROR_OUT_OF_MEMORY;
        else
            for (size_t i = 0; i < NSLOTS; i++)
                atomic_init(&G->slots[i], NULL);
    }
    atomic_init(&G->next, 0);
    atomic_flag_clear(&G->committing);
    atomic_init(&G->stopped, false);
    atomic_init(&G->lost, false);
    if (st == LAT_OK && pthread_mutex_init(&G->lock, NULL) != 0)
        st = LAT_ERROR_OUT_OF_MEMORY;
    if (st != LAT_OK) {
        free(G->shards);
        free(G->slots);
        pthread_mutex_unlock(&ck->lock);
        free(T->shoff);
        free(T->shv);
        free(T->sh_var);
        free(T->sh_room);
        free(G);
        snprintf(msg, msg_size, "kernel '%s': out of host memory for a checked launch", k->name);
        return LAT_ERROR_OUT_OF_MEMORY;
    }
    T->first_serial = ck->block_serial + 1;
    atomic_init(&G->pending, 0);
    for (unsigned i = 0; i < G->nshards; i++) {
        shard *sh = &G->shards[i];
        memset(sh, 0, sizeof *sh);
        atomic_flag_clear(&sh->busy);
        atomic_init(&sh->queued, NULL);
        sh->R = *T;
        sh->R.th = NULL;
        sh->R.out = &ck->list;
        sh->R.events = &sh->ev;
    }
    lat__exec_grid g = {
        .kernel = k,
        .ctx = ctx,
        .launch = launch,
        .params = params,
        .msg = msg,
        .msg_size = msg_size,
        .hooks = &hooks,
        .obs = G,
        .schedule = {.order = T->opts.order,
                     .seed = seed_of(T),
                     .preempt = T->opts.preempt != 0,
                     /* -G under a debugger: its pauses are not hangs (exec.h). */
                     .timeout_s = k->untimed ? 1e9 : T->opts.timeout_s > 0 ? T->opts.timeout_s : TIMEOUT_S,
                     .watchdog = "the checked launch's watchdog: lat_check_options.timeout_s, "
                                 "LATTICE_CHECK_TIMEOUT"},
        .shoff = T->shoff,
    };
    lat_status ran = lat__exec_run(&g);
    /* Blocks left uncommitted: after one that failed the launch. */
    for (uint64_t i = 0; G->slots && i < NSLOTS; i++) {
        ended *e = atomic_load(&G->slots[i]);
        if (e && allocated(e))
            free_ended(e);
    }
    free(G->slots);
    gather(G, &ck->list);
    uint64_t nblocks = (uint64_t)launch->grid[0] * launch->grid[1] * launch->grid[2];
    ck->block_serial += (uint32_t)nblocks;
    lat_status result = finish(T, ran, msg, msg_size);
    lat__pf_launch_end(T->pfl, ck);
    pthread_mutex_unlock(&ck->lock);
    pthread_mutex_destroy(&G->lock);
    free(G->shards);
    free(T->shoff);
    free(T->shv);
    free(T->sh_var);
    free(T->sh_room);
    free(G);
    return result;
}
