/*
 * A checked launch (ck.h). The executor runs it (exec.h), observed: its blocks one after
 * another on the calling thread and their threads in the order the schedule says
 * (forward, reverse, or random from a seed that replays it; preempted at random accesses
 * when asked), every thread on a fiber. This file turns the context's options into that
 * schedule, lays the block's shared memory out with red zones for memcheck, and is the
 * observer the executor calls: it hands each event to the check that watches it (sync.c
 * for barriers and warp masks, hang.c for blocks that can never finish) and keeps
 * racecheck's clocks (the block's serial number, its barriers and warp synchronisations).
 * At the end the reports are worded and logged.
 */
#include "ck.h"

#include "error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

enum {
    REDZONE = 64,      /* bytes around each __shared__ variable */
    TIMEOUT_S = 20     /* the watchdog's default */
};

/* ---- the observer ------------------------------------------------------------------------ */

static void block_start(void *obs, const lat__exec_block *b, const lat__emu_thread *t)
{
    lat__ck_launch *L = obs;
    L->w = b->w;
    L->b = L->w->fb; /* the same block: the access hooks tell it of each access */
    L->bidx = t->block_idx;
    L->block_lin = t->block_idx.x + (uint64_t)L->grid.x *
                                        (t->block_idx.y + (uint64_t)L->grid.y * t->block_idx.z);
    L->serial = ++L->ck->block_serial;
    L->epoch = 0;
    memset(L->wepoch, 0, sizeof L->wepoch);
    for (int i = 0; i < b->n; i++)
        L->th[i] = (lat__ck_thread){-1, 0};
    /* Its shared memory fresh, and unwritten. */
    if (L->sh_used) {
        memset(L->sh, 0, L->sh_used);
        if (L->sh_init)
            memset(L->sh_init, 0, L->sh_used);
    }
}

/* A barrier completes: synccheck, then racecheck's next epoch. */
static void barrier(void *obs, const lat__exec_block *b)
{
    lat__ck_launch *L = obs;
    lat__ck_sync_barrier(L, b);
    L->epoch++;
}

static void warp_arrive(void *obs, const lat__exec_block *b, const lat__exec_fiber *f)
{
    lat__ck_sync_warp(obs, b, f);
}

/* The lanes synchronised: accesses before and after no longer race. */
static void warp_done(void *obs, const lat__exec_block *b, int warp, uint32_t lanes)
{
    lat__ck_launch *L = obs;
    (void)b;
    (void)lanes;
    L->wepoch[warp]++;
}

static void thread_exit(void *obs, const lat__exec_block *b, const lat__exec_fiber *f)
{
    lat__ck_sync_exit(obs, b, f);
}

static void stall(void *obs, const lat__exec_block *b, lat__exec_stall *s)
{
    lat__ck_hang(obs, b, s);
}

static const lat__exec_hooks hooks = {
    .block_start = block_start,
    .barrier = barrier,
    .warp_arrive = warp_arrive,
    .warp_done = warp_done,
    .thread_exit = thread_exit,
    .stall = stall,
};

/* ---- shared memory ----------------------------------------------------------------------- */

/* Lays the kernel's __shared__ variables out with red zones around each, then the dynamic
 * shared memory, and allocates the block's shared memory and its shadows. */
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
    void *map = mmap(NULL, L->sh_map_size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED)
        return LAT_ERROR_OUT_OF_MEMORY;
    L->sh_map = map;
    L->sh = (char *)map + LAT__CK_SHARED_WINDOW;
    /* Which variable each 16-byte chunk holds (shared_access's lookup). */
    if (L->nshv >= 0xffff)
        return LAT_ERROR_OUT_OF_MEMORY;
    L->sh_var = calloc(at / 16 + 2, sizeof *L->sh_var);
    if (!L->sh_var)
        return LAT_ERROR_OUT_OF_MEMORY;
    for (int i = 0; i < L->nshv; i++)
        for (size_t c = L->shv[i].lo / 16; c * 16 < L->shv[i].hi; c++)
            L->sh_var[c] = (uint16_t)(i + 1);
    /* The variables' addresses, now that the base is known. */
    for (int i = 0; i < L->nshv; i++) {
        L->shv[i].lo += (uintptr_t)L->sh;
        L->shv[i].hi += (uintptr_t)L->sh;
    }
    if (L->modes & LAT_CHECK_INITCHECK) {
        L->sh_init = calloc(at, 1);
        if (!L->sh_init)
            return LAT_ERROR_OUT_OF_MEMORY;
    }
    if (L->modes & LAT_CHECK_RACECHECK) {
        L->sh_race = calloc((at / 4 + 1) * 2, sizeof *L->sh_race);
        if (!L->sh_race)
            return LAT_ERROR_OUT_OF_MEMORY;
    }
    return LAT_OK;
}

static void free_launch(lat__ck_launch *L)
{
    if (L->stack_poison)
        munmap(L->stack_poison, L->poison_size);
    free(L->th);
    if (L->sh_map)
        munmap(L->sh_map, L->sh_map_size);
    free(L->shoff);
    free(L->shv);
    free(L->sh_var);
    free(L->sh_init);
    free(L->sh_race);
    free(L->sink);
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
                 "lat_launch: kernel '%s' runs on a random schedule, seed %llu "
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
static lat_status finish(lat__ck_launch *L, lat_status st, char *msg, size_t msg_size)
{
    lat__ck_ctx *ck = L->ck;
    lat__ck_reports_finish(ck);
    if (st == LAT_OK && ck->nreports > 0) {
        st = LAT_ERROR_CHECK_FAILED;
        snprintf(msg, msg_size, "the emulator's checks found %zu error%s in kernel '%s' "
                 "(lat_check_report_get has them); the first: %s", ck->nreports,
                 ck->nreports == 1 ? "" : "s", L->k->name, ck->reports[0].r.message);
    } else if (st != LAT_OK && ck->nreports > 1) {
        char first[600];
        snprintf(first, sizeof first, "%s", msg);
        snprintf(msg, msg_size, "the emulator's checks found %zu errors in kernel '%s' "
                 "(lat_check_report_get has them); the launch stopped: %s", ck->nreports,
                 L->k->name, first);
    }
    for (size_t i = 0; i < ck->nreports; i++)
        lat__log(L->ctx, LAT_LOG_ERROR, "%s", ck->reports[i].r.message);
    return st;
}

lat_status lat__ck_run(lat_kernel *kernel, const lat__launch *launch, void **params,
                          char *msg, size_t msg_size)
{
    const lat__emu_kernel *k = kernel->impl;
    lat_context *ctx = kernel->module->ctx;
    lat__ck_ctx *ck = ctx->check;
    lat__ck_launch L;
    memset(&L, 0, sizeof L);
    L.ck = ck;
    L.ctx = ctx;
    L.k = k;
    L.kk = k->check;
    L.cm = L.kk->module;
    L.region = k->mode == LAT_EMU_MODE_REGION;
    L.grid = (lat__emu_u3){launch->grid[0], launch->grid[1], launch->grid[2]};
    L.bdim = (lat__emu_u3){launch->block[0], launch->block[1], launch->block[2]};
    L.n = (int)(launch->block[0] * launch->block[1] * launch->block[2]);
    msg[0] = '\0';

    pthread_mutex_lock(&ck->lock);
    L.modes = ck->modes;
    L.opts = ck->opts;
    lat__ck_reports_clear(ck);
    lat_status st = lat__ck_regions_sync(ck);
    if (st == LAT_OK) {
        L.th = calloc((size_t)L.n, sizeof *L.th);
        L.sink_size = 4096;
        L.sink = calloc(1, L.sink_size);
        if (!L.th || !L.sink)
            st = LAT_ERROR_OUT_OF_MEMORY;
    }
    if (st == LAT_OK)
        st = layout_shared(&L, launch->shared_bytes);
    if (st == LAT_OK)
        reset_maps(ck, launch, k->name);
    if (st != LAT_OK) {
        pthread_mutex_unlock(&ck->lock);
        free_launch(&L);
        snprintf(msg, msg_size, "kernel '%s': out of host memory for a checked launch", k->name);
        return LAT_ERROR_OUT_OF_MEMORY;
    }
    L.first_serial = ck->block_serial + 1;
    lat__exec_grid g = {
        .kernel = k,
        .ctx = ctx,
        .launch = launch,
        .params = params,
        .msg = msg,
        .msg_size = msg_size,
        .hooks = &hooks,
        .obs = &L,
        .schedule = {.order = L.opts.order,
                     .seed = seed_of(&L),
                     .preempt = L.opts.preempt != 0,
                     .timeout_s = L.opts.timeout_s > 0 ? L.opts.timeout_s : TIMEOUT_S,
                     .watchdog = "the checked launch's watchdog: lat_check_options.timeout_s, "
                                 "LATTICE_CHECK_TIMEOUT"},
        .shared = L.sh,
        .shoff = L.shoff,
    };
    for (int i = 0; i < L.nshv; i++)
        if (L.shv[i].var < 0)
            g.dshared = (char *)L.shv[i].lo;
    lat_status result = finish(&L, lat__exec_run(&g), msg, msg_size);
    pthread_mutex_unlock(&ck->lock);
    free_launch(&L);
    return result;
}
