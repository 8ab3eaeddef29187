/*
 * The backend interface: the one table of operations each backend provides.
 *
 * The core (src/core/) validates every argument before calling an operation, so an
 * operation may assume: pointers are non-NULL, sizes are non-zero and do not overflow,
 * device ranges lie inside one live allocation of the context, launch dimensions are
 * within the device's limits and normalised (no zero component), and the kernel's
 * arguments match its parameters. An operation reports a failure by returning the
 * status from lat__error() (src/core/error.h), which records the message.
 *
 * Threads: every operation may be called from any host thread, concurrently with other
 * operations on the same context, except where a comment says otherwise. Backends that
 * need per-thread state (the CUDA current context) establish it themselves.
 */
#ifndef LAT_BACKEND_H
#define LAT_BACKEND_H

#include "core.h"

struct lat__unit;
struct lat__sym;

/* How core reads a module's source before any backend compiles it: the front end, with
 * the profile of the backend's target, behind this table, so that core names no layer
 * above it. The tree (opaque here) goes to module_create in lat__source.unit. */
typedef struct lat__reader {
    /* Reads src->text (its name, include_dirs, opts). *unit receives the tree whatever
     * happens (NULL only when out of memory); returns its status: LAT_OK for a valid
     * program, else its first error's (the rest in the tree). */
    lat_status (*parse)(const lat__source *src, struct lat__unit **unit);
    /* Makes the instance a name expression ("reduce<256>", "BlackScholesGPU", "&ns::k")
     * names, if it is a template's; returns the name the kernel's signature and the
     * emulator know it by (NULL after an error, in the tree); sets *no_template when the
     * program has no function of that name. */
    const char *(*instantiate)(struct lat__unit *unit, const char *expr, bool *no_template);
    /* The tree's kernels' signatures into sigs; nonzero when out of memory. */
    int (*signatures)(const struct lat__unit *unit, lat__kernel_sigs *sigs);
    void (*unit_free)(struct lat__unit *unit); /* NULL: nothing */
} lat__reader;

typedef struct lat__backend {
    const char *name;      /* "cuda", "emu" */
    lat_backend_kind kind;
    /* Optional fields (NULL: none) come before probe; every operation from probe on is
     * required (tests/core/test_backend_table.c).
     * Its own environment variables (core/env.h), read again with core's. */
    struct lat__env_table *env;
    /* How a program sets the size of the device's memory, for the error of an allocation
     * that does not fit (the emulator names its variable). */
    const char *memory_note;
    /* Wakes whatever must see a new lat_interrupt() (lat__interrupt_count) soon: the
     * emulator's watchdog. Async-signal-safe (it runs in a SIGINT handler) and callable
     * before the backend was ever used. */
    void (*interrupt)(void);

    /* Loads what the backend needs and checks that a device exists. Called once per
     * process (the core caches the result). On failure, writes a one-line reason
     * ("libcuda.so.1 not found: ...") into why (why_size bytes) and returns
     * LAT_ERROR_BACKEND_UNAVAILABLE. Must not call lat__error(). */
    lat_status (*probe)(char *why, size_t why_size);

    /* Number of devices; only called after a successful probe. */
    lat_status (*device_count)(int *count);
    /* Fills info for a valid ordinal. */
    lat_status (*device_info)(int ordinal, lat_device_info *info);

    /* ctx->device and ctx->info are set; sets ctx->impl. A backend that runs the checks
     * desc asks for (lat__check_requested) attaches them here: ctx->check and
     * ctx->observer_end (core.h). */
    lat_status (*context_create)(lat_context *ctx, const lat_context_desc *desc);
    /* Called after the core has destroyed the context's modules and freed its memory. */
    void (*context_destroy)(lat_context *ctx);
    lat_status (*synchronize)(lat_context *ctx);

    lat_status (*mem_alloc)(lat_context *ctx, size_t bytes, lat_deviceptr *out);
    lat_status (*mem_free)(lat_context *ctx, lat_deviceptr ptr);
    lat_status (*mem_info)(lat_context *ctx, size_t *free_bytes, size_t *total_bytes);
    /* count elements of elem_size (1, 2 or 4) bytes, dst aligned to elem_size. */
    lat_status (*memset)(lat_context *ctx, lat_deviceptr dst, uint32_t value,
                         size_t elem_size, size_t count);
    /* Copies are synchronous and ordered after every launch made before them in the
     * context: a copy out of a kernel's output sees its results (lat_launch_args relies on
     * it), and reports the kernel's failure if it failed. */
    lat_status (*memcpy_htod)(lat_context *ctx, lat_deviceptr dst, const void *src,
                              size_t bytes);
    lat_status (*memcpy_dtoh)(lat_context *ctx, void *dst, lat_deviceptr src, size_t bytes);
    lat_status (*memcpy_dtod)(lat_context *ctx, lat_deviceptr dst, lat_deviceptr src,
                              size_t bytes);

    /* Compiles src for ctx's device. On success sets mod->impl and mod->log (a malloc'd
     * string the core frees; NULL or "" when the compiler said nothing). On failure
     * returns lat__error(..., LAT_ERROR_COMPILE / _UNSUPPORTED / _INVALID_OPTION / _FILE,
     * message holding the full compiler log). */
    lat_status (*module_create)(lat_context *ctx, lat_module *mod, const lat__source *src);
    /* Frees mod->impl; the core frees the rest. No launch of the module is running. */
    void (*module_destroy)(lat_module *mod);

    /* Looks kernel->name (a plain name, a name expression, a mangled name) up in
     * kernel->module. On success sets kernel->impl and, where the
     * backend knows them, kernel->backend_nparams and kernel->backend_param_sizes
     * (malloc'd; -1 / NULL when unknown). Returns LAT_ERROR_KERNEL_NOT_FOUND (message
     * not needed: the core writes it) when there is no such kernel. */
    lat_status (*kernel_get)(lat_module *mod, lat_kernel *kernel);
    /* The symbol expr (a name expression of the module, or one of its kernels' plain
     * names) was lowered to, valid as long as mod->impl; LAT_ERROR_KERNEL_NOT_FOUND
     * without a message (the core writes it) when expr is neither. */
    lat_status (*module_lowered_name)(lat_module *mod, const char *expr, const char **out);
    void (*kernel_release)(lat_kernel *kernel);

    /* Launches. params[i] points to the value of parameter i, as for cuLaunchKernel;
     * params is NULL when the kernel has no parameters. */
    lat_status (*launch)(lat_kernel *kernel, const lat__launch *launch, void **params);
    /* The most blocks of block_threads threads (1 to the device's limit) and shared_bytes
     * of dynamic shared memory (within the device's limit) that a cooperative launch of
     * the kernel may have (lat_kernel_max_cooperative_blocks); LAT_ERROR_UNSUPPORTED with
     * a message when the device has no cooperative launches. */
    lat_status (*max_cooperative_blocks)(lat_kernel *kernel, unsigned block_threads,
                                         size_t shared_bytes, unsigned *out);

    /* Finds the module's __device__ or __constant__ variable `name`: its address and size.
     * Returns LAT_ERROR_INVALID_VALUE without a message (the core writes it) when the
     * module has no such variable. NULL: the backend has none (LAT_ERROR_UNSUPPORTED). */
    lat_status (*module_get_global)(lat_module *mod, const char *name, lat_deviceptr *ptr,
                                    size_t *bytes);

    /* The code the module's next launch runs (a lat_module_tier); CUDA's is always
     * LAT_MODULE_TIER_NATIVE. */
    int (*module_tier)(const lat_module *mod);

    /* How the kernel's threads run, in words, and what kept it off the fast path
     * (lat_kernel_describe); valid while the kernel is. */
    const char *(*kernel_path)(const lat_kernel *kernel);

    /* Whether v is in memory the backend hands kernels by itself (the device heap, what
     * kernels' malloc returns), for the launch's pointer check. */
    bool (*holds_address)(lat_context *ctx, lat_deviceptr v);

    /* The backend's other two tables, reached only through here: the driver layer's
     * (driver_ops.h) and the textures' (texture.h). */
    const struct lat__driver_ops *driver;
    const struct lat__texture_ops *texture;
    /* The reader of its modules' source (above). */
    const lat__reader *reader;
} lat__backend;

/* The backends compiled into the library, in the order automatic selection tries them. */
extern const lat__backend lat__backend_cuda;
extern const lat__backend lat__backend_emu;
/* The emulator's reader (its compile/reader.c): the CUDA and cross backends read
 * signatures with it too, as NVRTC gives no parameter types and both must agree. */
extern const lat__reader lat__emu_reader;
/* The cross-checking backend: a pair of contexts, GPU and emulator. */
extern const lat__backend lat__backend_cross;

#endif
