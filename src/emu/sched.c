/*
 * The emulator's scheduler: the blocks of a grid are shared out among OpenMP threads,
 * each with a thread context of its own; within a block, the generated entry loops over
 * the threads in compiled code (abi.h), so a launch costs one indirect call per block.
 * Blocks are numbered linearly in 64 bits: a grid may hold (2^31-1) x 65535 x 65535.
 */
#include "sched.h"

#include <omp.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

/* One launch, shared by its OpenMP threads. */
typedef struct launch_state {
    const lat__emu_kernel *kernel;
    atomic_int trapped; /* set once, by the first trap */
    char *msg;
    size_t msg_size;
} launch_state;

/* One OpenMP thread's state, reached by kernel code through its context's rt field. */
typedef struct worker {
    sigjmp_buf trap;
    launch_state *launch;
} worker;

_Noreturn void lat__emu_trap(lat__emu_thread *t, const char *expr, const char *file, int line)
{
    worker *w = t->rt;
    launch_state *st = w->launch;
    int expected = 0;
    if (atomic_compare_exchange_strong(&st->trapped, &expected, 1)) {
        char what[256];
        if (expr)
            snprintf(what, sizeof what, "assertion `%s` failed", expr);
        else
            snprintf(what, sizeof what, "__trap() was called");
        snprintf(st->msg, st->msg_size,
                 "%s:%d: kernel '%s' trapped in block (%u,%u,%u), thread (%u,%u,%u): %s",
                 file ? file : "?", line, st->kernel->name, t->block_idx.x, t->block_idx.y,
                 t->block_idx.z, t->thread_idx.x, t->thread_idx.y, t->thread_idx.z, what);
    }
    siglongjmp(w->trap, 1);
}

/* Runs one block; the jump buffer is set here so that no caller's locals are at risk. */
static void run_block(worker *w, const lat__emu_kernel *k, lat__emu_thread *t, void **params)
{
    if (sigsetjmp(w->trap, 0) == 0)
        k->entry(t, params);
}

static void set_block(lat__emu_thread *t, uint64_t b)
{
    uint64_t gx = t->grid_dim.x, gy = t->grid_dim.y;
    t->block_idx.x = (unsigned)(b % gx);
    b /= gx;
    t->block_idx.y = (unsigned)(b % gy);
    t->block_idx.z = (unsigned)(b / gy);
}

lat_status lat__emu_run(const lat__emu_kernel *k, const lat__launch *launch, void **params,
                        char *msg, size_t msg_size)
{
    launch_state st = {.kernel = k, .msg = msg, .msg_size = msg_size};
    atomic_init(&st.trapped, 0);
    lat__emu_thread base;
    memset(&base, 0, sizeof base);
    base.block_dim = (lat__emu_u3){launch->block[0], launch->block[1], launch->block[2]};
    base.grid_dim = (lat__emu_u3){launch->grid[0], launch->grid[1], launch->grid[2]};
    uint64_t nblocks = (uint64_t)launch->grid[0] * launch->grid[1] * launch->grid[2];

    int nthreads = omp_get_max_threads();
    if (nblocks == 1 || nthreads == 1) {
        /* Not worth waking a team for. */
        worker w = {.launch = &st};
        lat__emu_thread t = base;
        t.rt = &w;
        for (uint64_t b = 0; b < nblocks && !atomic_load(&st.trapped); b++) {
            set_block(&t, b);
            run_block(&w, k, &t, params);
        }
    } else {
        /* Chunks of several blocks keep the shared counter cold; eight per thread
         * still balance blocks of uneven cost. */
        uint64_t chunk = nblocks / ((uint64_t)nthreads * 8);
        int ichunk = chunk < 1 ? 1 : chunk > 4096 ? 4096 : (int)chunk;
#pragma omp parallel
        {
            worker w = {.launch = &st};
            lat__emu_thread t = base;
            t.rt = &w;
#pragma omp for schedule(dynamic, ichunk)
            for (uint64_t b = 0; b < nblocks; b++) {
                if (atomic_load_explicit(&st.trapped, memory_order_relaxed))
                    continue;
                set_block(&t, b);
                run_block(&w, k, &t, params);
            }
        }
    }
    return atomic_load(&st.trapped) ? LAT_ERROR_LAUNCH_FAILED : LAT_OK;
}
