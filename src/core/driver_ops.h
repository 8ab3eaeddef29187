/*
 * The driver layer's half of the backend interface (lattice/driver.h): streams, events,
 * page-locked memory, 2-D and asynchronous copies, stream-ordered allocation, peers,
 * images and resources. Each backend defines one of these tables beside its lat__backend
 * descriptor (lat__cuda_driver_ops, lat__emu_driver_ops, lat__cross_driver_ops), which
 * that descriptor names (lat__backend.driver); a context finds it in ctx->drv->ops.
 *
 * The same rules as backend.h: the core validates every argument first (pointers
 * non-NULL, device ranges inside live allocations of the context, streams and events of
 * the context), so an operation trusts what it gets and reports a failure with
 * lat__error(). Every operation may be called from any thread.
 */
#ifndef LAT_DRIVER_OPS_H
#define LAT_DRIVER_OPS_H

#include "backend.h"

struct lat_stream {
    lat_context *ctx;
    void *impl; /* backend state */
    struct lat_stream *prev, *next; /* the context's live streams */
};

struct lat_event {
    lat_context *ctx;
    void *impl; /* backend state */
    struct lat_event *prev, *next; /* the context's live events */
};

/* One page-locked host range lattice made: allocated (lat_host_alloc) or registered. */
typedef struct lat__host_range {
    char *base;
    size_t size;
    unsigned flags;
    bool registered;
} lat__host_range;

/* ctx->drv: what the driver layer keeps per context. Created with the context. */
typedef struct lat__ctx_driver {
    const struct lat__driver_ops *ops; /* the context's backend's table */
    pthread_mutex_t lock; /* guards everything below */
    struct lat_stream *streams;
    struct lat_event *events;
    lat__host_range *host; /* sorted by base */
    size_t nhost, host_cap;
    double cross_rtol, cross_atol; /* from lat_context_desc, defaults applied */
} lat__ctx_driver;

/* A buffer argument of lat_launch_args (In, Out, InOut) for the launch_buffers op. */
typedef struct lat__buffer_arg {
    lat_arg_kind kind;     /* LAT_ARG_IN, _OUT or _INOUT */
    void *host;            /* the user's buffer */
    size_t size;           /* > 0 */
    lat_deviceptr *device; /* where the op stores the device address it chose */
} lat__buffer_arg;

typedef lat_status (*lat__launch_buffers_fn)(lat_kernel *kernel, const lat__launch *launch,
                                             void **params, size_t nbufs,
                                             const lat__buffer_arg *bufs);

typedef struct lat__driver_ops {
    /* ---- devices ---- */
    /* name is upper case without the CU_DEVICE_ATTRIBUTE_ prefix; an unknown name is
     * LAT_ERROR_INVALID_VALUE with a message. */
    lat_status (*device_attribute)(int ordinal, const char *name, int *value);
    lat_status (*can_access_peer)(int ordinal, int peer, int *can);
    /* The driver version the backend follows (lat_backend_driver_version); version is
     * not NULL. */
    lat_status (*driver_version)(int *version);
    /* ctx and peer: distinct contexts of this backend. */
    lat_status (*enable_peer_access)(lat_context *ctx, lat_context *peer);
    /* Synchronous; both ranges checked. */
    lat_status (*memcpy_peer)(lat_context *dst_ctx, lat_deviceptr dst, lat_context *src_ctx,
                              lat_deviceptr src, size_t bytes);

    /* ---- streams and events: s->ctx / e->ctx set; create sets ->impl ---- */
    lat_status (*stream_create)(lat_stream *s, const lat_stream_desc *desc);
    /* Waits for the stream's work first. */
    void (*stream_destroy)(lat_stream *s);
    lat_status (*stream_synchronize)(lat_stream *s);
    lat_status (*stream_query)(lat_stream *s, int *done);
    /* s NULL: the default stream of ctx. */
    lat_status (*stream_wait_event)(lat_context *ctx, lat_stream *s, lat_event *e);
    lat_status (*event_create)(lat_event *e, const lat_event_desc *desc);
    void (*event_destroy)(lat_event *e);
    lat_status (*event_record)(lat_event *e, lat_stream *s);
    lat_status (*event_synchronize)(lat_event *e);
    lat_status (*event_query)(lat_event *e, int *done);
    /* Both recorded (the core checks), same context. */
    lat_status (*event_elapsed)(lat_event *start, lat_event *end, float *ms);

    /* ---- page-locked host memory (the core keeps the table of ranges) ---- */
    lat_status (*host_alloc)(lat_context *ctx, size_t bytes, unsigned flags, void **out);
    void (*host_free)(lat_context *ctx, void *ptr);
    lat_status (*host_register)(lat_context *ctx, void *ptr, size_t bytes, unsigned flags);
    void (*host_unregister)(lat_context *ctx, void *ptr);
    /* ptr lies in a range made with LAT_HOST_MAPPED. */
    lat_status (*host_device_pointer)(lat_context *ctx, void *ptr, lat_deviceptr *out);

    /* ---- memory ---- */
    /* elem_size 4, 8 or 16; sizes non-zero and width * height does not overflow. */
    lat_status (*mem_alloc_pitch)(lat_context *ctx, size_t width, size_t height,
                                  unsigned elem_size, lat_deviceptr *out, size_t *pitch);
    /* Pitches filled in (never 0), width and height non-zero, device rows checked.
     * stream is meaningful only when async. */
    lat_status (*memcpy_2d)(lat_context *ctx, const lat_copy_2d *copy, lat_stream *s,
                            bool async);
    lat_status (*memcpy_htod_async)(lat_context *ctx, lat_deviceptr dst, const void *src,
                                    size_t bytes, lat_stream *s);
    lat_status (*memcpy_dtoh_async)(lat_context *ctx, void *dst, lat_deviceptr src,
                                    size_t bytes, lat_stream *s);
    lat_status (*memcpy_dtod_async)(lat_context *ctx, lat_deviceptr dst, lat_deviceptr src,
                                    size_t bytes, lat_stream *s);
    lat_status (*memset_async)(lat_context *ctx, lat_deviceptr dst, uint32_t value,
                               size_t elem_size, size_t count, lat_stream *s);
    lat_status (*mem_alloc_async)(lat_context *ctx, size_t bytes, lat_stream *s,
                                  lat_deviceptr *out);
    /* ptr was removed from the core's table already. */
    lat_status (*mem_free_async)(lat_context *ctx, lat_deviceptr ptr, lat_stream *s);

    /* Optional (NULL: the core allocates, copies and frees through the ops above): runs a
     * lat_launch_args launch with In/Out/InOut buffers end to end: device memory for
     * each buffer (its address stored in *bufs[i].device, which params point to), the
     * copies in, the launch on launch->stream, the copies out, waiting for them, and
     * freeing the device memory, also on failure. */
    lat__launch_buffers_fn launch_buffers;

    /* ---- modules ---- */
    /* Loads an image (kind PTX or CUBIN, never AUTO; PTX NUL-terminated) into mod; sets
     * mod->impl. NULL: the backend cannot (LAT_ERROR_UNSUPPORTED). */
    lat_status (*module_load)(lat_context *ctx, lat_module *mod, const void *image,
                              size_t size, lat_code_kind kind);
    /* The code mod was loaded from. NULL: none (LAT_ERROR_UNSUPPORTED). */
    lat_status (*module_code)(const lat_module *mod, lat_code_kind *kind, const void **data,
                              size_t *size);
    lat_status (*kernel_resources)(const lat_kernel *kernel, lat_kernel_resources *out);

    /* True when a module's impl does not depend on the context that compiled it and may
     * be shared by several lat_modules (the core's in-memory compile cache keeps one per
     * key and calls module_destroy, with only ->impl set, when the last user is gone).
     * False when the backend caches itself (CUDA caches images, not loaded modules). */
    bool share_module_impl;
    /* With share_module_impl: whether mod's impl has state of its own (variables a kernel
     * or the host may write: on a GPU each module has its own), decided from the compiled
     * module, never from its text. Such an impl is never shared. */
    bool (*module_has_state)(const lat_module *mod);
    /* With share_module_impl: writes into buf (size bytes) what decides a module's impl
     * beyond its source and device (the backend's tier, checks, flags, and the settings
     * it reads), for the compile request's key (core/cache.h). */
    void (*module_key)(lat_context *ctx, const lat__source *src, char *buf, size_t size);
} lat__driver_ops;

extern const lat__driver_ops lat__cuda_driver_ops;
extern const lat__driver_ops lat__emu_driver_ops;
extern const lat__driver_ops lat__cross_driver_ops;

/* The driver table of a context. */
static inline const lat__driver_ops *lat__drv(const lat_context *ctx)
{
    return ctx->drv->ops;
}

/* ---- core functions of the driver layer ---- */

/* context.c calls these: set up and tear down ctx->drv (the teardown destroys the
 * streams and events left, and frees or unregisters the host ranges left). */
lat_status lat__driver_context_init(lat_context *ctx, const lat_context_desc *desc);
void lat__driver_context_release(lat_context *ctx);

/* Checks that stream (may be NULL) belongs to ctx; `fn` names the caller. */
lat_status lat__stream_check(const lat_context *ctx, const lat_stream *stream);

/* The host range lattice page-locked that contains [p, p+bytes), or NULL. */
bool lat__host_is_pinned(lat_context *ctx, const void *p, size_t bytes);
/* Whether p lies in (or just past) page-locked host memory mapped into the device
 * (LAT_HOST_MAPPED): a pointer a kernel may be given. */
bool lat__host_is_mapped(lat_context *ctx, uintptr_t p);

/* module.c's hooks for the in-memory cache of shared module impls (cache.c): compile
 * through the cache, and release a module's impl. */
lat_status lat__module_compile(lat_context *ctx, lat_module *mod, const lat__source *src);
void lat__module_release_impl(lat_module *mod);

/* module.c: a new, empty module of ctx (name copied), and making it live once loaded. */
lat_module *lat__module_new(lat_context *ctx, const char *name);
void lat__module_publish(lat_context *ctx, lat_module *mod);
void lat__module_discard(lat_module *mod);

#endif
