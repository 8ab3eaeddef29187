/*
 * lattice/driver.h — the driver layer: what PyCUDA's `pycuda.driver` offers beyond
 * lattice.h's basics. Streams and events, page-locked host memory, pitched allocations and
 * 2-D copies, asynchronous copies and memsets, stream-ordered allocation, peer copies
 * between devices, device attributes by name, modules loaded from PTX or CUBIN, the
 * compiled code of a module, each kernel's resource report, and the compile cache.
 *
 * Included by lattice.h; it may also be included on its own. Every function works on
 * both backends: the emulator runs each stream's work in order before the call that
 * submits it returns (streams are trivially independent), its events record the host
 * clock, and its "page-locked" memory is ordinary memory.
 *
 * Conventions are lattice.h's: lat_status results, descriptors valid when zeroed, NULL
 * handles destroyed as no-ops, and every function callable from any thread unless its
 * comment says otherwise.
 *
 * fork(): a child process must not use a context, stream, event, module or page-locked
 * buffer created before the fork. The emulator works in the child with new contexts. The
 * CUDA driver does not support a child of a process that had initialised it: in such a
 * child, create no CUDA context (set LATTICE_BACKEND=emu, or fork before the first
 * lattice call that touches the GPU, or exec a new program).
 *
 * Environment variables read by this layer:
 *   LATTICE_CACHE=0          disables the compile cache (memory and disk);
 *   LATTICE_CACHE_DIR=DIR    the disk cache's directory (default:
 *                            $XDG_CACHE_HOME/lattice, else $HOME/.cache/lattice);
 *   LATTICE_EMU_DEVICES=N    the number of devices the emulator presents (1 to 64;
 *                            default 1), so that multi-device programs run without GPUs;
 *   LATTICE_BACKEND=cross    see "Cross-checking" below (also LATTICE_CROSS_STATS).
 */
#ifndef LATTICE_DRIVER_H
#define LATTICE_DRIVER_H

#include "../lattice.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------ */
/* Devices                                                                              */
/* ------------------------------------------------------------------------------------ */

/* Reads one device attribute by its name, as cuda.h spells it with or without the
 * CU_DEVICE_ATTRIBUTE_ prefix ("MAX_THREADS_PER_BLOCK", "CU_DEVICE_ATTRIBUTE_WARP_SIZE").
 * lat_device_attribute_names() lists the names lattice knows.
 *   kind, ordinal: the backend and device, as for lat_device_get_info().
 *   value:         receives the attribute.
 * Errors: LAT_ERROR_INVALID_VALUE (NULL name or value, a name lattice does not know, or
 * one the driver does not know: the message says which); LAT_ERROR_BACKEND_UNAVAILABLE;
 * LAT_ERROR_INVALID_DEVICE; LAT_ERROR_DRIVER. Thread safety: any thread. */
LAT_API lat_status lat_device_attribute(lat_backend_kind kind, int ordinal, const char *name,
                                        int *value);

/* The attribute names lat_device_attribute() accepts (without the prefix), as a
 * NULL-terminated array of static strings; *count (may be NULL) receives their number.
 * Thread safety: any thread. */
LAT_API const char *const *lat_device_attribute_names(size_t *count);

/* The CUDA driver version a backend follows, as cuDriverGetVersion() gives it
 * (1000 * major + 10 * minor: 12080 for CUDA 12.8). On CUDA: the installed driver's. On
 * the emulator: the CUDA version whose semantics it follows (LAT_EMU_CUDA_VERSION, CUDA
 * 12.8: no texture references, CUDA 12.8's atomics; docs/dialect.md). Cross mode: its
 * primary backend's.
 * Errors: LAT_ERROR_INVALID_VALUE (version is NULL); LAT_ERROR_BACKEND_UNAVAILABLE.
 * Thread safety: any thread. */
LAT_API lat_status lat_backend_driver_version(lat_backend_kind kind, int *version);

/* The CUDA version the emulator follows, as lat_backend_driver_version() reports it. */
#define LAT_EMU_CUDA_VERSION 12080

/* Whether device `ordinal` can address memory of device `peer` directly (1) or not (0).
 * A device cannot be its own peer (0). The emulator's devices all share the host's
 * memory: 1 for any two distinct ones.
 * Errors: LAT_ERROR_INVALID_VALUE (can is NULL); LAT_ERROR_BACKEND_UNAVAILABLE;
 * LAT_ERROR_INVALID_DEVICE; LAT_ERROR_DRIVER. Thread safety: any thread. */
LAT_API lat_status lat_device_can_access_peer(lat_backend_kind kind, int ordinal, int peer,
                                              int *can);

/* Lets kernels of `ctx` address memory allocated in `peer` (cuCtxEnablePeerAccess).
 * Enabling it twice is not an error. Copies between contexts (lat_memcpy_peer) do not
 * need it. Errors: LAT_ERROR_INVALID_VALUE (NULL context, both the same, contexts of
 * different backends); LAT_ERROR_UNSUPPORTED (the devices cannot be peers:
 * lat_device_can_access_peer() says 0); LAT_ERROR_DRIVER. Thread safety: any thread. */
LAT_API lat_status lat_context_enable_peer_access(lat_context *ctx, lat_context *peer);

/* Copies `bytes` from memory of one context to memory of another, possibly on another
 * device of the same backend; returns when the copy is complete. Works whether or not
 * peer access is enabled (the driver stages through the host where it must).
 * Errors: LAT_ERROR_INVALID_VALUE (NULL context, address 0, contexts of different
 * backends); LAT_ERROR_INVALID_ADDRESS (a range outside a live allocation of its
 * context); LAT_ERROR_DRIVER. Thread safety: any thread. */
LAT_API lat_status lat_memcpy_peer(lat_context *dst_ctx, lat_deviceptr dst,
                                   lat_context *src_ctx, lat_deviceptr src, size_t bytes);

/* ------------------------------------------------------------------------------------ */
/* Streams and events                                                                   */
/* ------------------------------------------------------------------------------------ */

/* A queue of work (launches, copies, memsets, event records) that runs in order. Work on
 * different streams may run concurrently. Wherever a function takes a lat_stream *,
 * NULL means the context's default stream, which the synchronous functions of lattice.h
 * use; with the default flags, a stream also waits for the default stream's earlier work
 * and the default stream for its (CUDA's legacy default stream semantics). */
typedef struct lat_stream lat_stream;
/* A marker in a stream: recorded, waited for, timed. */
typedef struct lat_event lat_event;

typedef struct lat_stream_desc {
    /* Non-zero: the stream does not synchronise with the default stream
     * (CU_STREAM_NON_BLOCKING). */
    int non_blocking;
    /* Scheduling priority; 0 is the default, lower numbers are higher priorities (CUDA's
     * convention). Clamped to the device's range. The emulator ignores it. */
    int priority;
} lat_stream_desc;

/* Creates a stream in ctx. desc may be NULL for the defaults.
 * Errors: LAT_ERROR_INVALID_VALUE (ctx or out NULL); LAT_ERROR_OUT_OF_MEMORY;
 * LAT_ERROR_CONTEXT_LOST; LAT_ERROR_DRIVER. Thread safety: any thread. */
LAT_API lat_status lat_stream_create(lat_context *ctx, const lat_stream_desc *desc,
                                     lat_stream **out);

/* Waits for the stream's work, then destroys it. NULL is a no-op. Streams still alive
 * when their context is destroyed are destroyed with it. Thread safety: no other thread
 * may use the stream during or after the call. */
LAT_API void lat_stream_destroy(lat_stream *stream);

/* Waits until all work submitted to the stream has finished and reports the first
 * failure of that work. Errors: LAT_ERROR_INVALID_VALUE (NULL); LAT_ERROR_LAUNCH_FAILED
 * (the message names the kernel); LAT_ERROR_CONTEXT_LOST; LAT_ERROR_DRIVER.
 * Thread safety: any thread. */
LAT_API lat_status lat_stream_synchronize(lat_stream *stream);

/* Whether the stream's work has all finished: *done = 1, or 0 while some still runs.
 * Errors: as lat_stream_synchronize(). Thread safety: any thread. */
LAT_API lat_status lat_stream_query(lat_stream *stream, int *done);

/* Makes later work on `stream` (NULL: the default stream) wait until `event` has
 * completed, without blocking the host. The event may belong to another stream of the
 * same context. An event never recorded is complete.
 * Errors: LAT_ERROR_INVALID_VALUE (event NULL, stream and event of different contexts);
 * LAT_ERROR_DRIVER. Thread safety: any thread. */
LAT_API lat_status lat_stream_wait_event(lat_stream *stream, lat_event *event);

/* The context a stream or event belongs to. Thread safety: any thread. */
LAT_API lat_context *lat_stream_context(const lat_stream *stream);
LAT_API lat_context *lat_event_context(const lat_event *event);

typedef struct lat_event_desc {
    /* Non-zero: the event cannot be timed (cheaper to record and wait for). */
    int disable_timing;
    /* Non-zero: lat_event_synchronize() sleeps instead of spinning. */
    int blocking_sync;
} lat_event_desc;

/* Creates an event in ctx. desc may be NULL for the defaults (timing enabled).
 * Errors: LAT_ERROR_INVALID_VALUE; LAT_ERROR_OUT_OF_MEMORY; LAT_ERROR_CONTEXT_LOST;
 * LAT_ERROR_DRIVER. Thread safety: any thread. */
LAT_API lat_status lat_event_create(lat_context *ctx, const lat_event_desc *desc,
                                    lat_event **out);

/* Destroys an event. NULL is a no-op. Events still alive when their context is destroyed
 * are destroyed with it. Thread safety: no other thread may use the event during or
 * after the call. */
LAT_API void lat_event_destroy(lat_event *event);

/* Records the event in `stream` (NULL: the default stream): it completes when the work
 * submitted to the stream before it has finished. Recording again moves the marker.
 * Errors: LAT_ERROR_INVALID_VALUE (event NULL, stream of another context);
 * LAT_ERROR_CONTEXT_LOST; LAT_ERROR_DRIVER. Thread safety: any thread. */
LAT_API lat_status lat_event_record(lat_event *event, lat_stream *stream);

/* Waits until the event has completed. An event never recorded is complete.
 * Errors: LAT_ERROR_INVALID_VALUE; LAT_ERROR_LAUNCH_FAILED; LAT_ERROR_DRIVER.
 * Thread safety: any thread. */
LAT_API lat_status lat_event_synchronize(lat_event *event);

/* Whether the event has completed: *done = 1, else 0. Errors: as
 * lat_event_synchronize(). Thread safety: any thread. */
LAT_API lat_status lat_event_query(lat_event *event, int *done);

/* The time in milliseconds between two completed events of one context (negative when
 * `end` completed first); about half a microsecond resolution on CUDA, the host clock's
 * on the emulator. Errors: LAT_ERROR_INVALID_VALUE (NULL argument, events of different
 * contexts, an event created with disable_timing, an event not recorded yet or not
 * completed yet: synchronise first). Thread safety: any thread. */
LAT_API lat_status lat_event_elapsed_ms(lat_event *start, lat_event *end, float *ms);

/* ------------------------------------------------------------------------------------ */
/* Page-locked host memory                                                              */
/* ------------------------------------------------------------------------------------ */

/* Flags of lat_host_alloc() and lat_host_register(); 0 is the default. */
enum {
    /* Page-locked for every context, not only the one that allocated it. */
    LAT_HOST_PORTABLE = 1,
    /* Also mapped into the device's address space (lat_host_device_pointer()). */
    LAT_HOST_MAPPED = 2,
    /* Write-combined (lat_host_alloc() only): fast for the device to read, slow for the
     * host to read. */
    LAT_HOST_WRITE_COMBINED = 4
};

/* Allocates `bytes` of page-locked ("pinned") host memory, which the device reads and
 * writes by DMA at full speed and which asynchronous copies need to overlap with other
 * work. Aligned to at least 256 bytes. Free it with lat_host_free(); what is left is
 * freed with the context.
 * Errors: LAT_ERROR_INVALID_VALUE (NULL ctx or out, bytes 0, unknown flags);
 * LAT_ERROR_OUT_OF_MEMORY; LAT_ERROR_DRIVER. Thread safety: any thread. */
LAT_API lat_status lat_host_alloc(lat_context *ctx, size_t bytes, unsigned flags, void **out);

/* Frees memory from lat_host_alloc() of this context. NULL is a no-op.
 * Errors: LAT_ERROR_INVALID_VALUE (ctx NULL); LAT_ERROR_INVALID_ADDRESS (not an
 * allocation of lat_host_alloc() in this context, or already freed).
 * Thread safety: any thread; not while a copy uses the memory. */
LAT_API lat_status lat_host_free(lat_context *ctx, void *ptr);

/* Page-locks an existing host buffer (cuMemHostRegister) until lat_host_unregister() or
 * the context's destruction. Flags: LAT_HOST_PORTABLE, LAT_HOST_MAPPED.
 * Errors: LAT_ERROR_INVALID_VALUE (NULL ctx or ptr, bytes 0, unknown flags, a range that
 * overlaps one already registered or allocated by lattice); LAT_ERROR_OUT_OF_MEMORY;
 * LAT_ERROR_DRIVER. Thread safety: any thread. */
LAT_API lat_status lat_host_register(lat_context *ctx, void *ptr, size_t bytes,
                                     unsigned flags);

/* Undoes lat_host_register(). Errors: LAT_ERROR_INVALID_VALUE (ctx NULL);
 * LAT_ERROR_INVALID_ADDRESS (ptr is not the start of a registered buffer).
 * Thread safety: any thread; not while a copy uses the memory. */
LAT_API lat_status lat_host_unregister(lat_context *ctx, void *ptr);

/* The device address of page-locked memory allocated or registered with LAT_HOST_MAPPED
 * (kernels may read and write it directly). On the emulator the device address is the
 * host address. Errors: LAT_ERROR_INVALID_VALUE (NULL argument, memory not mapped);
 * LAT_ERROR_DRIVER. Thread safety: any thread. */
LAT_API lat_status lat_host_device_pointer(lat_context *ctx, void *host, lat_deviceptr *out);

/* ------------------------------------------------------------------------------------ */
/* Pitched allocations and 2-D copies                                                   */
/* ------------------------------------------------------------------------------------ */

/* Allocates `height` rows of `width_bytes` each, every row starting at a multiple of the
 * returned pitch (cuMemAllocPitch), which the device chooses for fast access.
 *   elem_size: the size of the elements the rows will hold: 4, 8 or 16 bytes.
 *   out, pitch: receive the address and the row pitch in bytes (>= width_bytes).
 * Free with lat_mem_free(). Errors: LAT_ERROR_INVALID_VALUE (NULL argument, zero width or
 * height, another elem_size); LAT_ERROR_OVERFLOW; LAT_ERROR_OUT_OF_DEVICE_MEMORY.
 * Thread safety: any thread. */
LAT_API lat_status lat_mem_alloc_pitch(lat_context *ctx, size_t width_bytes, size_t height,
                                       unsigned elem_size, lat_deviceptr *out, size_t *pitch);

/* A 2-D copy: `height` rows of `width_bytes`, from a host buffer or device memory to a
 * host buffer or device memory. Each side is given by exactly one of *_host and
 * *_device, a pitch (bytes from one row to the next; 0 means width_bytes) and the offset
 * of the first byte copied (x in bytes, y in rows). */
typedef struct lat_copy_2d {
    const void *src_host;
    lat_deviceptr src_device;
    size_t src_pitch;
    size_t src_x, src_y;
    void *dst_host;
    lat_deviceptr dst_device;
    size_t dst_pitch;
    size_t dst_x, dst_y;
    size_t width_bytes;
    size_t height;
} lat_copy_2d;

/* Performs a 2-D copy; returns when it is complete. A copy with a zero width or height is
 * a no-op once its pointers are checked.
 * Errors: LAT_ERROR_INVALID_VALUE (NULL ctx or copy, neither or both of a side's host and
 * device pointers, a pitch smaller than x + width_bytes); LAT_ERROR_OVERFLOW;
 * LAT_ERROR_INVALID_ADDRESS (the rows of a device side do not lie inside one live
 * allocation); LAT_ERROR_DRIVER. Thread safety: any thread. */
LAT_API lat_status lat_memcpy_2d(lat_context *ctx, const lat_copy_2d *copy);
/* The same, queued on `stream` (NULL: the default stream): it returns at once where the
 * host side is page-locked; otherwise as CUDA does for pageable memory (the host buffer
 * may be reused when it returns). */
LAT_API lat_status lat_memcpy_2d_async(lat_context *ctx, const lat_copy_2d *copy,
                                       lat_stream *stream);

/* ------------------------------------------------------------------------------------ */
/* Asynchronous copies, memsets and stream-ordered allocation                           */
/* ------------------------------------------------------------------------------------ */

/* lat_memcpy_htod/_dtoh/_dtod and lat_memset_d8/_d16/_d32 queued on `stream` (NULL: the
 * default stream). They return once the work is queued, and overlap with the host and
 * with other streams when the host memory is page-locked. With pageable host memory a
 * host-to-device copy returns once the source has been read (the buffer may be reused),
 * and a device-to-host copy returns when it is complete. Arguments are checked as by
 * the synchronous versions; failures of the queued work surface at the next
 * synchronisation. Errors: as the synchronous versions, plus LAT_ERROR_INVALID_VALUE
 * (a stream of another context). Thread safety: any thread. */
LAT_API lat_status lat_memcpy_htod_async(lat_context *ctx, lat_deviceptr dst, const void *src,
                                         size_t bytes, lat_stream *stream);
LAT_API lat_status lat_memcpy_dtoh_async(lat_context *ctx, void *dst, lat_deviceptr src,
                                         size_t bytes, lat_stream *stream);
LAT_API lat_status lat_memcpy_dtod_async(lat_context *ctx, lat_deviceptr dst,
                                         lat_deviceptr src, size_t bytes, lat_stream *stream);
LAT_API lat_status lat_memset_d8_async(lat_context *ctx, lat_deviceptr dst, uint8_t value,
                                       size_t count, lat_stream *stream);
LAT_API lat_status lat_memset_d16_async(lat_context *ctx, lat_deviceptr dst, uint16_t value,
                                        size_t count, lat_stream *stream);
LAT_API lat_status lat_memset_d32_async(lat_context *ctx, lat_deviceptr dst, uint32_t value,
                                        size_t count, lat_stream *stream);

/* Allocates from the device's memory pool in stream order (cuMemAllocAsync where the
 * driver has it, else cuMemAlloc): the memory may be used by work queued on `stream`
 * after this call, and reused by the pool once lat_mem_free_async() has been reached.
 * Freed memory stays in the pool, so allocating again costs about a microsecond instead
 * of a cuMemAlloc. The address is checked like any other allocation's; it may also be
 * freed with lat_mem_free() once the work using it has finished. lattice lets the device's
 * default pool keep up to an eighth of device memory (at most 2 GiB) between uses
 * (LATTICE_POOL=0: plain cuMemAlloc/cuMemFree instead).
 * Errors: LAT_ERROR_INVALID_VALUE (NULL ctx or out, bytes 0, stream of another context);
 * LAT_ERROR_OUT_OF_DEVICE_MEMORY; LAT_ERROR_DRIVER. Thread safety: any thread. */
LAT_API lat_status lat_mem_alloc_async(lat_context *ctx, size_t bytes, lat_stream *stream,
                                       lat_deviceptr *out);
/* Frees memory in stream order: the pool reuses it once the work queued on `stream`
 * before this call has finished. 0 is a no-op. Errors: as lat_mem_free().
 * Thread safety: any thread. */
LAT_API lat_status lat_mem_free_async(lat_context *ctx, lat_deviceptr ptr, lat_stream *stream);

/* ------------------------------------------------------------------------------------ */
/* Modules: compiled code, images, resources                                            */
/* ------------------------------------------------------------------------------------ */

typedef enum lat_code_kind {
    LAT_CODE_AUTO = 0,  /* lat_module_load(): tell PTX from CUBIN by the content */
    LAT_CODE_PTX = 1,   /* PTX assembly text, which the driver compiles when loading it */
    LAT_CODE_CUBIN = 2  /* a device binary (ELF) for one architecture */
} lat_code_kind;

/* The code the module was loaded from: the PTX or CUBIN NVRTC produced (or that
 * lat_module_load() was given, or that the cache held). *data stays valid until the
 * module is destroyed. Write it to a file and load it with lat_module_load() later.
 * Errors: LAT_ERROR_INVALID_VALUE (NULL argument); LAT_ERROR_UNSUPPORTED (an emulator
 * module: the emulator compiles to host code, which it cannot give out).
 * Thread safety: any thread. */
LAT_API lat_status lat_module_get_code(const lat_module *mod, lat_code_kind *kind,
                                       const void **data, size_t *size);

typedef struct lat_module_image_desc {
    /* Exactly one of data (with size) and path. */
    const void *data; /* PTX text (NUL-terminated or not) or a CUBIN */
    size_t size;      /* bytes at data */
    const char *path; /* or a file holding it */
    lat_code_kind kind; /* 0: detected (an ELF header means CUBIN) */
    const char *name;   /* for messages; default: path, else "module.ptx"/"module.cubin" */
} lat_module_image_desc;

/* Loads a module from PTX or a CUBIN (PyCUDA's module_from_buffer / module_from_file).
 * Its kernels are looked up by their symbol names as the image spells them (an
 * extern "C" kernel's plain name, else its mangled name). The parameter types are not
 * known from an image, only their sizes (CUDA 12.4 and newer drivers), so lat_launch_args
 * checks argument sizes only.
 * Errors: LAT_ERROR_INVALID_VALUE (NULL argument, neither or both of data and path,
 * size 0); LAT_ERROR_FILE; LAT_ERROR_UNSUPPORTED (the emulator, or cross-checking: they
 * run CUDA C source only); LAT_ERROR_COMPILE (the driver rejected the PTX: its log is in
 * the message); LAT_ERROR_DRIVER (e.g. a CUBIN for another architecture).
 * Thread safety: any thread. */
LAT_API lat_status lat_module_load(lat_context *ctx, const lat_module_image_desc *desc,
                                   lat_module **out);

/* Where a module's code came from. */
typedef enum lat_module_origin {
    LAT_MODULE_COMPILED = 0,     /* compiled by this call */
    LAT_MODULE_MEMORY_CACHE = 1, /* reused from this process's compile cache */
    LAT_MODULE_DISK_CACHE = 2,   /* read from the disk cache */
    LAT_MODULE_IMAGE = 3         /* lat_module_load() */
} lat_module_origin;

/* Where the module's code came from (LAT_MODULE_COMPILED for NULL).
 * Thread safety: any thread. */
LAT_API lat_module_origin lat_module_get_origin(const lat_module *mod);

/* Which code a module's next unchecked launch runs (lattice.h's lat_emu_opt). */
typedef enum lat_module_tier {
    LAT_MODULE_TIER_NATIVE = 0,   /* the backend's only code (CUDA: the GPU's); NULL mod */
    LAT_MODULE_TIER_TINYCC = 1,   /* the emulator's TinyCC code */
    LAT_MODULE_TIER_OPTIMISED = 2 /* the emulator's optimising tier: the system compiler's */
} lat_module_tier;

/* The tier the module's next launch runs on. On the emulator a background build
 * (LAT_EMU_OPT_BACKGROUND, AUTO) turns TINYCC into OPTIMISED once, when it is ready.
 * Thread safety: any thread. */
LAT_API lat_module_tier lat_module_get_tier(const lat_module *mod);

/* How the kernel's threads run and why, in words: what a user reads to find out why a
 * kernel is slower than it could be (docs/tiers.md says what each way costs). On the
 * emulator, the way and the tier the module's next launch runs: "region loops, optimised",
 * "region loops, helpers with collectives inlined, TinyCC", "one loop over the threads (no
 * collective), optimised", or "fibers: " and what kept the kernel there ("a barrier or warp
 * operation under &&, || or ?:, or after a comma at k.cu:12, TinyCC"; docs/dialect.md lists
 * them). On CUDA "cuda's own code". Written into buf as snprintf writes (NUL-terminated when
 * size > 0); returns the length the whole text needs, excluding the NUL, or -1 for a NULL
 * kernel. Thread safety: any thread. */
LAT_API int lat_kernel_describe(const lat_kernel *kernel, char *buf, size_t size);

/* What a kernel uses of the device, as ptxas reports it. -1 where unknown. */
typedef struct lat_kernel_resources {
    int registers;             /* per thread */
    int static_shared_bytes;   /* __shared__ variables, per block */
    int local_bytes;           /* local memory (stack, spills), per thread */
    int const_bytes;           /* user __constant__ memory */
    int spill_store_bytes;     /* bytes of register spill stores (-1: unknown) */
    int spill_load_bytes;      /* bytes of register spill loads (-1: unknown) */
    int max_threads_per_block; /* the most threads a launch may use with these resources */
    int ptx_version;           /* e.g. 80 for PTX ISA 8.0; -1 on the emulator */
    int binary_version;        /* e.g. 90 for sm_90; -1 on the emulator */
} lat_kernel_resources;

/* Fills *out with the kernel's resource usage. On the emulator registers, spills and the
 * versions are -1 and the limits are the emulated device's.
 * Errors: LAT_ERROR_INVALID_VALUE (NULL argument); LAT_ERROR_DRIVER.
 * Thread safety: any thread. */
LAT_API lat_status lat_kernel_get_resources(const lat_kernel *kernel, lat_kernel_resources *out);

/* Writes the report as ptxas -v prints it (PyCUDA shows this message), e.g.
 *     ptxas info    : Function properties for scale
 *         0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
 *     ptxas info    : Used 8 registers, 0 bytes smem, 0 bytes cmem, 0 bytes lmem
 * into buf (size bytes, always NUL-terminated when size > 0). Returns the length the
 * whole text needs, excluding the NUL (as snprintf does), or -1 for a NULL kernel or
 * resources. Thread safety: any thread. */
LAT_API int lat_kernel_resources_format(const lat_kernel *kernel, const lat_kernel_resources *res,
                                        char *buf, size_t size);

/* ------------------------------------------------------------------------------------ */
/* The compile cache                                                                    */
/* ------------------------------------------------------------------------------------ */

/* lat_module_create() keeps what it compiles: in memory for the rest of the process, and,
 * for CUDA, on disk (LATTICE_CACHE_DIR, default $XDG_CACHE_HOME/lattice or
 * ~/.cache/lattice), so that a new process skips NVRTC. An entry is keyed by everything
 * that changes the output: the source and the contents of every file it includes, the
 * defines, include directories and options, no_extern_c, the target architecture, and the
 * compiler (NVRTC's version; the emulator's build). Writes are atomic (a temporary file
 * renamed into place), so processes compiling the same kernel at once never read a
 * partial entry; an entry that fails its checksum is removed and recompiled. Compiled code
 * on disk runs as you, so the directory is used only when it, the directories above it and
 * each entry belong to you or root and no one else can write them (docs/security.md);
 * otherwise lattice warns once and compiles without it.
 * LATTICE_CACHE=0 turns the cache off. A source whose #include names a macro (not a
 * "file" or <file>) is not cached, since lattice cannot tell what it includes. */
typedef struct lat_cache_stats {
    uint64_t memory_hits; /* modules reused from memory */
    uint64_t disk_hits;   /* modules read from disk */
    uint64_t misses;      /* modules compiled while the cache was on */
    uint64_t disk_writes; /* entries written to disk */
    uint64_t corrupt;     /* disk entries rejected (bad header or checksum) and replaced */
    uint64_t uncacheable; /* modules compiled without the cache (#include MACRO, errors) */
} lat_cache_stats;

/* The counters since the process started (or since lat_cache_clear()).
 * Errors: LAT_ERROR_INVALID_VALUE (out NULL). Thread safety: any thread. */
LAT_API lat_status lat_cache_get_stats(lat_cache_stats *out);

/* Empties the in-memory cache and zeroes the counters; the disk cache is kept (delete
 * its directory to empty it). Modules already created are not affected.
 * Thread safety: any thread. */
LAT_API void lat_cache_clear(void);

/* The disk cache's directory, or "" when the cache is off or the directory is not trusted
 * (docs/security.md): LATTICE_CACHE_DIR, else
 * $XDG_CACHE_HOME/lattice, else $HOME/.cache/lattice, as the environment was when a
 * context was last created (lattice reads the environment then, on the program's thread,
 * so that its own threads never call getenv while the program may call setenv). Valid
 * until the next call on this thread. Thread safety: any thread. */
LAT_API const char *lat_cache_directory(void);

/* ------------------------------------------------------------------------------------ */
/* Cross-checking                                                                       */
/* ------------------------------------------------------------------------------------ */

/* LATTICE_BACKEND=cross (or LAT_BACKEND_CROSS) makes every context a pair: one on the GPU
 * and one on the emulator, each with its own copy of every allocation. Every call goes to
 * both; every launch runs on both and is then compared: each allocation the kernel could
 * have written (those its pointer arguments point into) is read back from both sides and
 * compared element by element, by the type the pointer parameter points to, resolved
 * through typedefs and #defines (`DATA_TYPE *` with `typedef float DATA_TYPE`, `float4 *`,
 * `const fp *`): its float, double and half fields within the tolerance, every other byte
 * (integers, padding) exactly; where the type cannot be resolved, a spelling with
 * "float" or "double" in it means floats or doubles, anything else bytes.
 *
 * The tolerance, per floating value: bit-identical, both NaN, or
 *     |gpu - emu| <= atol + rtol * max(|emu|, S)
 * with atol and rtol from lat_context_desc (cross_atol, cross_rtol; defaults 0 and 1e-4)
 * and S the buffer's typical magnitude for that field: the median magnitude of its
 * nonzero emulator values, rounded up to a power of 2. The GPU contracts a*b+c into fused
 * multiply-adds and may sum in another order; such differences are relative to the terms
 * a value was computed from, which the value itself understates where they cancel (a
 * matmul element of -0.0128 whose products are of size 1 differed by 1e-4 of itself
 * and 2e-7 of the matrix's typical element). A median, not the largest value, so that one
 * huge value does not excuse the rest; the bugs cross-checking is for (a wrong index, a
 * missing barrier, a wrong reduction stride) change values by about S, far beyond rtol*S.
 *
 * The first difference fails the launch with LAT_ERROR_CROSS_MISMATCH and a message naming
 * the kernel, the parameter, the buffer, the element index, both values and the tolerance
 * it exceeded; it also goes to the logger. Device addresses handed to the program are the
 * GPU's. A pointer hidden inside a struct argument cannot be translated for the emulator:
 * pass buffers as pointer parameters. Launches become synchronous, and everything runs at
 * the emulator's speed.
 *
 * LATTICE_CROSS_STATS=FILE makes every comparison append to FILE one line per compared
 * buffer and floating kind, tab-separated:
 *     program kernel parameter kind values identical max_ulp beyond
 * (kind float, double, half or bfloat16; identical: values bit for bit the same on both
 * sides; max_ulp: the largest distance in units in the last place, "nan" where a NaN met
 * a number; beyond: values beyond the tolerance). scripts/cross-stats-summary totals such
 * files, e.g. to measure the share of float outputs the emulator reproduces bit for bit. */

#ifdef __cplusplus
}
#endif

#endif /* LATTICE_DRIVER_H */
