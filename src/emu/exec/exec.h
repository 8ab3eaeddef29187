/* Running a grid: blocks on OpenMP threads, the threads of a block in the generated
 * entry's loops or on fibers (sched.c, block.c). */
#ifndef LAT_EMU_SCHED_H
#define LAT_EMU_SCHED_H

#include "emu/abi.h"
#include "core.h"

/* The static shared memory a block may use, as on the reference device. */
enum { LAT_EMU_SHARED_LIMIT = 48 * 1024 };

/* A compiled kernel, as a module holds it. */
typedef struct lat__emu_kernel {
    char *name;
    lat__emu_entry_fn entry;
    int nparams;
    size_t *param_sizes; /* nparams entries (NULL when there are none) */
    int mode;            /* LAT_EMU_MODE_* */
    size_t shared_bytes; /* static __shared__ memory of a block */
    unsigned long *shoff; /* offset of each of the module's __shared__ variables (NULL: none) */
    struct lat__ck_kernel *check; /* a checked module's kernel (check/ck.h), else NULL */
    const char *code;     /* its module's compiled code, where a fault or the watchdog */
    size_t code_size;     /* finds a thread in kernel code (guard.c) */
} lat__emu_kernel;

/* Runs every block of the grid and returns when all have finished. A trap in kernel
 * code (a failed assert, __trap(), a barrier that can never complete, a fault, the
 * launch still running timeout_ms after it began; guard.h) stops the launch: the blocks
 * not yet started are skipped and the trap's status (LAT_ERROR_LAUNCH_FAILED) is
 * returned with its description in msg (msg_size bytes). timeout_ms 0: no deadline. */
lat_status lat__emu_run(const lat__emu_kernel *k, const lat__launch *launch, void **params,
                        uint64_t timeout_ms, char *msg, size_t msg_size);

/* Called by kernel code (through the prelude's assert and __trap) on the thread that
 * traps; does not return. expr is NULL for __trap(). */
_Noreturn void lat__emu_trap(lat__emu_thread *t, const char *expr, const char *file, int line);

#endif
