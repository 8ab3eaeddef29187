/*
 * What the files of the CUDA backend share: the loaded driver and NVRTC functions, the
 * per-context and per-kernel state, the current-context helper and the error helpers.
 */
#ifndef LAT_CUDA_INTERNAL_H
#define LAT_CUDA_INTERNAL_H

#include "backend.h"
#include "cuda_api.h"
#include "driver_ops.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

/* The loaded libraries and their functions. Filled once by probe() (loader.c), read-only
 * afterwards, so any thread may call through it without a lock. */
typedef struct lat__cuda_api {
#define LAT_CUDA_FIELD_(ret, name, symbol, params, optional) lat__pfn_##name name;
    LAT_CUDA_DRIVER_SYMS(LAT_CUDA_FIELD_)
    LAT_CUDA_NVRTC_SYMS(LAT_CUDA_FIELD_)
#undef LAT_CUDA_FIELD_
    void *libcuda;
    void *libnvrtc;
    int driver_version; /* e.g. 12040 for CUDA 12.4 */
    int nvrtc_major, nvrtc_minor;
} lat__cuda_api;

extern lat__cuda_api lat__cu;

/* ctx->impl. */
typedef struct lat__cuda_ctx {
    CUcontext cu; /* the device's primary context, retained */
    CUdevice dev;
    /* The kernel launched last in this context, named in the message when an
     * asynchronous failure surfaces later (synchronize, a copy). The id makes a repeated
     * launch of the same kernel cost one atomic load; the name is copied under the lock
     * because the kernel may be destroyed before its failure is reported. */
    _Atomic uint64_t last_kernel_id;
    /* Set once a kernel fault (an illegal address...) has been seen: the primary context
     * is then unusable. Destroying this context resets it, which is all a program can do;
     * drivers so far (580 / CUDA 13) still refuse the device to the process afterwards. */
    atomic_int faulted;
    pthread_mutex_t last_kernel_lock;
    char last_kernel[128];
    char fault[256]; /* the first kernel fault's description, under last_kernel_lock */
    /* The stream-ordered allocator (cuMemAllocAsync) is usable on this device. */
    int pool;
    /* Page-locked staging buffers for lat_launch_args and large pageable copies
     * (staging.c), reused from call to call. */
    struct lat__cuda_staging *staging;
} lat__cuda_ctx;

/* kernel->impl. */
typedef struct lat__cuda_kernel {
    CUfunction fn;
    uint64_t id; /* unique in the process, never 0 */
} lat__cuda_kernel;

/* Making a context current. CUDA's current context is per host thread; any thread may
 * use a lattice context, so every operation makes the context's CUcontext current first.
 * The common case (the thread already has it) costs a thread-local compare: the cache
 * is trusted only while lat__cuda_epoch is unchanged, which a context destroy bumps, since
 * the driver may hand out the same handle for a primary context re-created later. */
extern _Thread_local CUcontext lat__cuda_tls_ctx;
extern _Thread_local unsigned long lat__cuda_tls_epoch;
extern _Atomic unsigned long lat__cuda_epoch;

lat_status lat__cuda_make_current(lat_context *ctx);

/* LAT_ERROR_CONTEXT_LOST, naming the fault that lost the context. */
lat_status lat__cuda_lost(lat_context *ctx);

/* Makes ctx current; after a kernel fault every call but the cleanup ones (which use
 * lat__cuda_make_current) fails with LAT_ERROR_CONTEXT_LOST instead. */
static inline lat_status lat__cuda_enter(lat_context *ctx)
{
    lat__cuda_ctx *c = ctx->impl;
    if (atomic_load_explicit(&c->faulted, memory_order_relaxed))
        return lat__cuda_lost(ctx);
    if (c->cu == lat__cuda_tls_ctx &&
        lat__cuda_tls_epoch == atomic_load_explicit(&lat__cuda_epoch, memory_order_relaxed))
        return LAT_OK;
    return lat__cuda_make_current(ctx);
}

/* The CUstream of a lattice stream (NULL: the default stream). */
static inline CUstream lat__cuda_stream(const lat_stream *s)
{
    return s ? (CUstream)s->impl : NULL;
}

/* errors.c */

/* "CUDA_ERROR_OUT_OF_MEMORY" and "out of memory" for a CUresult, also when the driver
 * does not know the value. Never NULL. */
const char *lat__cuda_error_name(CUresult r);
const char *lat__cuda_error_string(CUresult r);
/* The lattice status a failing CUresult maps to. */
lat_status lat__cuda_status(CUresult r);
/* True for the errors that a kernel causes and that leave the context unusable. */
int lat__cuda_is_kernel_fault(CUresult r);
/* Records the failure of a driver call: "<what>: CUDA_ERROR_X (description)", where
 * `what` is printf-formatted ("cuMemAlloc(1024 bytes)"). When the error is a kernel's
 * fault and ctx has launched a kernel, the message names that kernel. ctx may be NULL.
 * Returns the mapped status. */
lat_status lat__cuda_fail(lat_context *ctx, CUresult r, const char *what, ...)
    __attribute__((format(printf, 3, 4)));
/* Records the failure of an NVRTC call: "<what>: NVRTC_ERROR_X". */
lat_status lat__nvrtc_fail(lat_context *ctx, lat_status status, nvrtcResult r,
                           const char *what, ...) __attribute__((format(printf, 4, 5)));

/* device.c: the operations on devices and contexts. */
lat_status lat__cuda_device_count(int *count);
lat_status lat__cuda_device_info(int ordinal, lat_device_info *info);
lat_status lat__cuda_context_create(lat_context *ctx, const lat_context_desc *desc);
void lat__cuda_context_destroy(lat_context *ctx);
lat_status lat__cuda_synchronize(lat_context *ctx);
/* A wait lat_interrupt() can end (lattice.h): polls the work with query(obj)
 * (cuStreamQuery, cuEventQuery: CUDA_ERROR_NOT_READY while it runs), yielding between
 * polls, as the driver's default scheduling waits (it spins while the process has fewer
 * contexts than processors). Returns the query's result, or LAT_ERROR_INTERRUPTED
 * recorded, naming `what`, once lat__interrupt_count() differs from `interrupts`: the GPU
 * runs on, and a later wait waits for it. LAT_OK when the work is done; a failure of the
 * work as lat__cuda_fail records it. */
lat_status lat__cuda_wait(lat_context *ctx, CUresult (*query)(void *), void *obj,
                          uint64_t interrupts, const char *what);

/* loader.c */
lat_status lat__cuda_probe(char *why, size_t why_size);

/* memory.c */
lat_status lat__cuda_mem_alloc(lat_context *ctx, size_t bytes, lat_deviceptr *out);
lat_status lat__cuda_mem_free(lat_context *ctx, lat_deviceptr ptr);
lat_status lat__cuda_mem_info(lat_context *ctx, size_t *free_bytes, size_t *total_bytes);
bool lat__cuda_holds_address(lat_context *ctx, lat_deviceptr v);
lat_status lat__cuda_memset(lat_context *ctx, lat_deviceptr dst, uint32_t value,
                            size_t elem_size, size_t count);
lat_status lat__cuda_memcpy_htod(lat_context *ctx, lat_deviceptr dst, const void *src,
                                 size_t bytes);
lat_status lat__cuda_memcpy_dtoh(lat_context *ctx, void *dst, lat_deviceptr src,
                                 size_t bytes);
lat_status lat__cuda_memcpy_dtod(lat_context *ctx, lat_deviceptr dst, lat_deviceptr src,
                                 size_t bytes);

/* module.c */
lat_status lat__cuda_module_create(lat_context *ctx, lat_module *mod, const lat__source *src);
void lat__cuda_module_destroy(lat_module *mod);
/* The name to give cuModuleGetFunction for a kernel's plain name: NVRTC's lowered
 * (mangled) name when the source was compiled without extern "C", else `name`. */
const char *lat__cuda_module_symbol(const lat_module *mod, const char *name);
CUmodule lat__cuda_module_handle(const lat_module *mod);
/* The backend's module_lowered_name (backend.h). */
lat_status lat__cuda_module_lowered_name(lat_module *mod, const char *expr, const char **out);
/* The driver layer's module operations: load an image, give out the code. */
lat_status lat__cuda_module_load(lat_context *ctx, lat_module *mod, const void *image,
                                 size_t size, lat_code_kind kind);
lat_status lat__cuda_module_code(const lat_module *mod, lat_code_kind *kind, const void **data,
                                 size_t *size);
/* The spill bytes ptxas reported for the kernel when lattice compiled it (-1: unknown). */
void lat__cuda_kernel_spills(const lat_kernel *kernel, int *stores, int *loads);

/* staging.c: the memory pool and page-locked staging. */
/* Sets the device's default pool up for lattice (returns 1 when cuMemAllocAsync works). */
int lat__cuda_pool_setup(lat_context *ctx);
/* Frees the staging buffers (context destruction). */
void lat__cuda_staging_release(lat_context *ctx);
/* Copies pageable host memory to the device through page-locked buffers, pipelined, on
 * stream s; returns when src may be reused. */
lat_status lat__cuda_stage_htod(lat_context *ctx, CUdeviceptr dst, const void *src,
                                size_t bytes, CUstream s);
/* The other way; returns when dst holds the data. */
lat_status lat__cuda_stage_dtoh(lat_context *ctx, void *dst, CUdeviceptr src, size_t bytes,
                                CUstream s);
/* Whether host memory is page-locked (ours or anyone's), so a plain DMA copy is fastest. */
int lat__cuda_is_pinned(lat_context *ctx, const void *p, size_t bytes);
lat_status lat__cuda_launch_buffers(lat_kernel *kernel, const lat__launch *launch,
                                    void **params, size_t nbufs, const lat__buffer_arg *bufs);

/* launch.c */
lat_status lat__cuda_kernel_get(lat_module *mod, lat_kernel *kernel);
void lat__cuda_kernel_release(lat_kernel *kernel);
lat_status lat__cuda_launch(lat_kernel *kernel, const lat__launch *launch, void **params);
lat_status lat__cuda_max_cooperative_blocks(lat_kernel *kernel, unsigned block_threads,
                                            size_t shared_bytes, unsigned *out);

#endif
