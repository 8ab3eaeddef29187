/* The emulator backend's internal interface: the files of src/emu/ and what they share. */
#ifndef LAT_EMU_H
#define LAT_EMU_H

#include "emu/runtime/heap.h"
#include "backend.h"
#include "emu/exec/exec.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

/* ---- emu.c: a context ------------------------------------------------------------- */
typedef struct lat__emu_ctx {
    uint64_t timeout_ms; /* each launch's deadline (LATTICE_EMU_TIMEOUT), 0: none */
    /* The context's texture and surface objects (texture.c), NULL until the first. */
    _Atomic(struct lat__emu_textab *) tex;
    lat__emu_heap heap; /* what kernels' malloc hands out */
} lat__emu_ctx;

/* ---- memory.c: device memory is host memory --------------------------------------- */
lat_status lat__emu_mem_alloc(lat_context *ctx, size_t bytes, lat_deviceptr *out);
lat_status lat__emu_mem_free(lat_context *ctx, lat_deviceptr ptr);
/* For a fault's report: when addr is in a guard of device memory (or the slack between an
 * allocation and its guard), words where it is from the nearest allocation into buf and
 * returns true. Safe in a signal handler (it never waits for a lock). */
bool lat__emu_mem_describe(uintptr_t addr, char *buf, size_t size);
lat_status lat__emu_mem_info(lat_context *ctx, size_t *free_bytes, size_t *total_bytes);
/* LATTICE_EMU_MEMORY: the emulated device's memory in bytes ("512M", "8G"; 4 GiB when text is
 * NULL). False for a malformed size (bytes then holds the default). */
bool lat__emu_memory_parse(const char *text, size_t *bytes);
lat_status lat__emu_memset(lat_context *ctx, lat_deviceptr dst, uint32_t value,
                           size_t elem_size, size_t count);
lat_status lat__emu_memcpy_htod(lat_context *ctx, lat_deviceptr dst, const void *src,
                                size_t bytes);
lat_status lat__emu_memcpy_dtoh(lat_context *ctx, void *dst, lat_deviceptr src, size_t bytes);
lat_status lat__emu_memcpy_dtod(lat_context *ctx, lat_deviceptr dst, lat_deviceptr src,
                                size_t bytes);

/* ---- compile.c: translation and TinyCC ------------------------------------------------ */
typedef struct lat__emu_global {
    char *name;
    void *addr;
    size_t size;
} lat__emu_global;

typedef struct lat__emu_module {
    void *code; /* the relocated program, mmap'd */
    size_t code_size;
    /* Its variables and constants: the program past its code. The checks accept a
     * kernel's accesses here and not in the code (TinyCC maps it writable, so a write
     * there would rewrite the kernel's instructions). */
    uintptr_t data_lo, data_hi;
    lat__emu_kernel *kernels;
    int nkernels;
    /* Per kernel, until when its launches start on the launching thread alone
     * (lat__exec_grid's solo); the kernel entries are copied at each launch, this not. */
    lat__exec_solo *solo;
    lat__emu_global *globals; /* __device__ and __constant__ variables */
    int nglobals;
    /* Variables of its own that can change: __device__, __constant__, __managed__, mutable
     * file-scope and static local ones (lat__emu_module_has_state). */
    bool has_state;
    struct lat__ck_module *check; /* instrumented for the checks (check/ck.h), else NULL */
    struct lat__emu_opt *opt;     /* the optimising tier (opt.h), NULL when off */
    /* -G: built for a debugger; its launches take debug_lock, one at a time (their
     * blocks' static __shared__ arrays are the module's). */
    bool debug;
    pthread_mutex_t debug_lock;
} lat__emu_module;

/* Translates and compiles src. On success *out is the module and *log the compiler's
 * warnings (malloc'd, NULL when there were none). */
lat_status lat__emu_compile(lat_context *ctx, const lat__source *src, lat__emu_module **out,
                            char **log);
void lat__emu_module_free(lat__emu_module *m);
/* For a fault's report: when addr is in the guards around a module's TinyCC program or in
 * its code (a write past or before its variables), words saying so into buf and returns
 * true. Safe in a signal handler (it never waits for a lock). */
bool lat__emu_module_describe(uintptr_t addr, char *buf, size_t size);

#endif
