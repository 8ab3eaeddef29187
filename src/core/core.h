/*
 * The core's objects, shared by src/core/ and the backends.
 * Public handles (lat_context, lat_module, lat_kernel) are defined here; only the core
 * creates and frees them, backends hang their own state off the `impl` fields.
 */
#ifndef LAT_CORE_H
#define LAT_CORE_H

#include "lattice.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "env.h"
#include "error.h"
#include "kernel_sig.h"

struct lat__backend;

/* One live device allocation, as the core tracks them to validate every device range. */
typedef struct lat__alloc {
    lat_deviceptr base;
    size_t size;
    /* The library's own, kept for the context's life (generated kernels' scratch): freed
     * at destruction like the rest, but not a leak of the program's to warn about. */
    bool own;
} lat__alloc;

struct lat_context {
    const struct lat__backend *backend;
    void *impl; /* backend state */
    int device;
    lat_device_info info;
    lat_logger logger;

    pthread_mutex_t lock; /* guards allocs and modules */
    lat__alloc *allocs;   /* sorted by base */
    size_t nallocs, allocs_cap;
    size_t alloc_bytes;   /* the sum of the allocations' sizes, held to mem_total */
    size_t mem_total;     /* the device's memory (backend's mem_info); 0 until first read */
    struct lat_module *modules; /* doubly linked, destroyed with the context */
    struct lat__ctx_driver *drv; /* the driver layer's state (driver_ops.h) */
    /* An observer the backend attached in context_create (the emulator's checks), opaque
     * to core: NULL when none watches. core calls observer_end, when set, as the context
     * ends, after its modules and before its memory go (memcheck's leak report). */
    struct lat__ck_ctx *check;
    void (*observer_end)(lat_context *ctx);
    struct lat__tex_ctx *tex;    /* arrays, textures, surfaces (texture.h); made on first use */
    int emu_opt;                 /* lat_context_desc.emu_opt (a lat_emu_opt) */
    bool check_pointers;         /* lat_context_desc.pointer_check, resolved */
};

struct lat_module {
    lat_context *ctx;
    void *impl; /* backend state */
    char *log;  /* compiler log, never NULL once created */
    char *name; /* the file name used in messages */
    lat__kernel_sigs sigs; /* the __global__ functions the source declares */

    pthread_mutex_t lock;        /* guards kernels */
    struct lat_kernel *kernels; /* singly linked: looked-up kernels, cached */
    struct lat_module *prev, *next;
    void *cache_ref; /* the compile cache's entry whose impl this module shares, or NULL */
    int origin;      /* a lat_module_origin */
    char **name_exprs; /* lat_module_desc.name_expressions, copied (NULL-terminated) */
    /* For each of the user's name expressions (in order, NULL-terminated), the name the
     * kernel's signature and the emulator know it by: "&ns::k" and "k<float, 256>" (256
     * defaulted) name what "k" and "k<float>" name. NULL when the front end named none. */
    char **name_keys;
    /* The variables whose addresses lat_module_get_global() gave (ctx->lock): the only
     * module addresses a program can pass to a kernel, for the pointer check. */
    lat__alloc *globals;
    size_t nglobals;
};

struct lat_kernel {
    lat_module *module;
    char *name;
    void *impl; /* backend state */
    /* What the source says of the parameters (NULL if the scanner did not see the
     * kernel, e.g. it came from a macro). Owned by module->sigs. */
    const lat__kernel_sig *sig;
    /* What the backend knows: parameter count and sizes, or -1 / NULL. */
    int backend_nparams;
    size_t *backend_param_sizes;
    /* The merged view used to validate and pack arguments: the count (-1 when neither
     * knows it), and per parameter its class (the scanner's) and size (the backend's,
     * else the scanner's; 0 when unknown). */
    int nparams;
    lat__param_class *param_class;
    size_t *param_size;
    struct lat_kernel *next;
};

/* The source of a module as the core hands it to a backend. */
typedef struct lat__source {
    const char *text;                /* the user's source, NUL-terminated */
    const char *name;                /* the file name for messages and relative #include */
    const char *const *defines;      /* NULL-terminated, may be NULL */
    const char *const *include_dirs; /* NULL-terminated, may be NULL */
    const char *const *options;      /* NULL-terminated, may be NULL */
    bool no_extern_c;
    /* NULL-terminated, may be NULL: template instantiations to compile, as NVRTC's name
     * expressions (each non-empty, checked by the core). */
    const char *const *name_expressions;
    const lat__kernel_sigs *sigs;    /* the kernels the front end found */
    const struct lat__options *opts; /* options and defines as read once (options.h) */
    int emu_opt;                     /* the emulator's tier (a lat_emu_opt): the module's
                                        setting, else its context's */
    struct lat__unit *unit;          /* the source as the front end read it (src/front), with
                                        the emulator's predefined macros; its status says
                                        whether it is valid CUDA C in the dialect. Passes may
                                        rewrite it: one backend's alone. */
    /* The compile request's digest (cache.h), when the core keyed this compile; else NULL.
     * A backend's own caches key by it (the emulator's source index), never by a view of
     * their own. */
    const struct lat__cache_key *request;
} lat__source;

/* A validated launch: every dimension at least 1 and within the device's limits. */
typedef struct lat__launch {
    unsigned grid[3];
    unsigned block[3];
    size_t shared_bytes;
    struct lat_stream *stream; /* NULL: the default stream */
    /* Cooperative: every block resident at once, within the limit the core checked
     * against the backend's max_cooperative_blocks. */
    bool cooperative;
    /* lat__interrupt_count() when the program's call began: the launch is interrupted
     * once the count differs (lat_interrupt). */
    uint64_t interrupts;
} lat__launch;

/* How many times lat_interrupt() was called in the process (backend_select.c). A call
 * that waits or runs kernels reads it as it begins, and stops with LAT_ERROR_INTERRUPTED
 * once it has changed. */
uint64_t lat__interrupt_count(void);

/* Logs to the context's logger (if any). ctx may be NULL. printf-style. */
void lat__log(const lat_context *ctx, lat_log_level level, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The name that the kernel `name` (as lat_module_get_kernel was given it) has in the
 * module's signatures and on the emulator: its key when it is one of the user's name
 * expressions (lat_module.name_keys), else name itself. */
const char *lat__module_name_key(const lat_module *mod, const char *name);

/* The checks a context asks for (LAT_CHECK_* bits, 0 for none) from desc->check, else
 * LATTICE_CHECK (check.c); for the backend that runs them and for core's note when it
 * does not. LAT_ERROR_INVALID_VALUE (named) when LATTICE_CHECK is malformed. */
lat_status lat__check_requested(lat_context *ctx, const lat_context_desc *desc, unsigned *modes);

/* The pointer check (lat_context_desc.pointer_check) of parameter i of kernel, whose
 * value is v: LAT_OK, or LAT_ERROR_INVALID_ADDRESS recorded naming fn and the parameter. */
lat_status lat__launch_check_pointer(lat_kernel *kernel, int i, lat_deviceptr v);

/* Finds the live allocation, or module variable that lat_module_get_global gave, containing
 * [ptr, ptr+bytes) (bytes may be 0 for "ptr itself").
 * Returns LAT_OK and fills *alloc, or records a LAT_ERROR_INVALID_ADDRESS message naming
 * `what` ("destination of lat_memcpy_htod") and returns that status. */
lat_status lat__alloc_check(lat_context *ctx, lat_deviceptr ptr, size_t bytes,
                            const char *what, lat__alloc *alloc);

#endif
