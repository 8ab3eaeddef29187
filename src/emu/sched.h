/* Running a grid: blocks on OpenMP threads, the threads of a block in the generated
 * entry's loop (sched.c). */
#ifndef LAT_EMU_SCHED_H
#define LAT_EMU_SCHED_H

#include "abi.h"
#include "core.h"

/* A compiled kernel, as a module holds it. */
typedef struct lat__emu_kernel {
    char *name;
    lat__emu_entry_fn entry;
    int nparams;
    size_t *param_sizes; /* nparams entries (NULL when there are none) */
} lat__emu_kernel;

/* Runs every block of the grid and returns when all have finished. A trap in kernel
 * code (a failed assert, __trap()) stops the launch: the blocks not yet started are
 * skipped and LAT_ERROR_LAUNCH_FAILED is returned with the first trap's description in
 * msg (msg_size bytes). */
lat_status lat__emu_run(const lat__emu_kernel *k, const lat__launch *launch, void **params,
                        char *msg, size_t msg_size);

/* Called by kernel code (through the prelude's assert and __trap) on the thread that
 * traps; does not return. expr is NULL for __trap(). */
_Noreturn void lat__emu_trap(lat__emu_thread *t, const char *expr, const char *file, int line);

#endif
