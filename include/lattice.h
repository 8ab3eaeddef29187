/*
 * lattice — write GPU kernels in CUDA C, compile them at run time and launch them,
 * on an NVIDIA GPU (CUDA driver API + NVRTC) or on any CPU (the lattice emulator).
 *
 * The whole public API is this one header. Conventions:
 *   - Every function that can fail returns a lat_status: LAT_OK (0) or a negative error.
 *     The human-readable detail of the most recent failure on the calling thread is
 *     returned by lat_last_error(), and also sent to the context's logger, if any.
 *   - Descriptor structs are valid when zero-initialised: 0 always means "the default".
 *   - Handles are opaque; destroying NULL is a no-op.
 *   - Thread safety is stated per function. In short: everything may be called from any
 *     thread; a context may be shared by threads; objects are not destroyed while other
 *     threads use them.
 */
#ifndef LATTICE_H
#define LATTICE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h> /* exit, for LAT_TRY */

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#  define LAT_API
#else
#  define LAT_API __attribute__((visibility("default")))
#endif

/* ------------------------------------------------------------------------------------ */
/* Version                                                                              */
/* ------------------------------------------------------------------------------------ */

#define LAT_VERSION_MAJOR 0
#define LAT_VERSION_MINOR 1
#define LAT_VERSION_PATCH 0
/* One integer that grows with every release: major * 10000 + minor * 100 + patch. */
#define LAT_VERSION_NUMBER \
    (LAT_VERSION_MAJOR * 10000 + LAT_VERSION_MINOR * 100 + LAT_VERSION_PATCH)
#define LAT_VERSION_STRING "0.1.0"

/* The version of the library actually linked, as LAT_VERSION_NUMBER computes it.
 * Thread safety: any thread. */
LAT_API int lat_version(void);
/* The same as a string, e.g. "0.1.0". Never NULL. Thread safety: any thread. */
LAT_API const char *lat_version_string(void);

/* ------------------------------------------------------------------------------------ */
/* Status codes                                                                         */
/* ------------------------------------------------------------------------------------ */

/* XX(NAME, value, description). One table makes the enum and both string functions. */
#define LAT_STATUS_MAP(XX)                                                                 \
    XX(OK, 0, "success")                                                                   \
    XX(ERROR_INVALID_VALUE, -1, "an argument is invalid (NULL pointer, zero size, ...)")   \
    XX(ERROR_OUT_OF_MEMORY, -2, "out of host memory")                                     \
    XX(ERROR_OUT_OF_DEVICE_MEMORY, -3, "out of device memory")                            \
    XX(ERROR_OVERFLOW, -4, "a size or count overflows")                                    \
    XX(ERROR_BACKEND_UNAVAILABLE, -5, "the requested backend is not available")           \
    XX(ERROR_NO_DEVICE, -6, "no device is available")                                     \
    XX(ERROR_INVALID_DEVICE, -7, "no device has this ordinal")                            \
    XX(ERROR_INVALID_ADDRESS, -8, "the device address is not inside a live allocation")   \
    XX(ERROR_FILE, -9, "a file could not be read")                                        \
    XX(ERROR_INVALID_OPTION, -10, "a compiler option is not accepted")                    \
    XX(ERROR_COMPILE, -11, "the kernel source failed to compile")                         \
    XX(ERROR_UNSUPPORTED, -12, "the source uses a construct this backend does not support") \
    XX(ERROR_KERNEL_NOT_FOUND, -13, "no kernel of that name in the module")               \
    XX(ERROR_INVALID_DIMENSIONS, -14, "grid or block dimensions are zero or too large")   \
    XX(ERROR_SHARED_MEMORY, -15, "the launch needs more shared memory than a block has")  \
    XX(ERROR_ARG_COUNT, -16, "the number of kernel arguments does not match the kernel")  \
    XX(ERROR_ARG_TYPE, -17, "a kernel argument does not match its parameter's type")      \
    XX(ERROR_LAUNCH_FAILED, -18, "the kernel failed while running")                       \
    XX(ERROR_DRIVER, -19, "the CUDA driver or NVRTC reported an error")                   \
    XX(ERROR_INTERNAL, -20, "internal error in lattice")                                  \
    XX(ERROR_CONTEXT_LOST, -21, "an earlier kernel fault left the context unusable")       \
    XX(ERROR_CROSS_MISMATCH, -22, "cross-checking: the GPU and the emulator disagree")     \
    XX(ERROR_CHECK_FAILED, -23, "the emulator's checks found an error (lattice/check.h)") \
    XX(ERROR_INTERRUPTED, -24, "the call was interrupted (lat_interrupt: Ctrl-C)")

typedef enum lat_status {
#define LAT_STATUS_ENUM_(name, value, text) LAT_##name = value,
    LAT_STATUS_MAP(LAT_STATUS_ENUM_)
#undef LAT_STATUS_ENUM_
} lat_status;

/* "LAT_ERROR_COMPILE" for LAT_ERROR_COMPILE; "LAT_UNKNOWN_STATUS" for a value not in the
 * table. Never NULL. Thread safety: any thread. */
LAT_API const char *lat_status_name(lat_status status);
/* A one-line description of the status, as in the table above. Never NULL.
 * Thread safety: any thread. */
LAT_API const char *lat_status_string(lat_status status);
/* The detailed message of the most recent failing lattice call made by the calling thread
 * (for example "lat_memcpy_htod: copy of 800 bytes overruns the allocation of 400 bytes
 * at 0x7f..."), or "" if none failed yet. The text stays valid until the next lattice call
 * on this thread. Compiler logs of failed compiles are included in full.
 * Thread safety: any thread; each thread sees its own message. */
LAT_API const char *lat_last_error(void);

/* Writes one line to stderr about a failed call:
 *     FILE:LINE: CALL failed: LAT_ERROR_NAME: lat_last_error()'s text
 *   status: what the call returned; call: its text (may be NULL); file, line: where it is
 *   (file may be NULL). Nothing else happens: the program goes on (LAT_TRY exits).
 * Thread safety: any thread; it reads the calling thread's lat_last_error(). */
LAT_API void lat_report_failure(lat_status status, const char *call, const char *file, int line);

/* Stops the program at the first failing call, for programs that have nothing better to do
 * with an error (examples, tests, tools):
 *     LAT_TRY(lat_context_create(NULL, &ctx));
 * prints e.g. `prog.c:12: lat_context_create(NULL, &ctx) failed: LAT_ERROR_BACKEND_UNAVAILABLE:
 * backend cuda ... is not available: ...` (lat_report_failure) and calls exit(EXIT_FAILURE).
 * The library itself never exits: only this macro, expanded in the program, does. */
#define LAT_TRY(call)                                                                      \
    do {                                                                                   \
        lat_status lat_try_status_ = (call);                                               \
        if (lat_try_status_ != LAT_OK) {                                                   \
            lat_report_failure(lat_try_status_, #call, __FILE__, __LINE__);                \
            exit(EXIT_FAILURE);                                                            \
        }                                                                                  \
    } while (0)

/* ------------------------------------------------------------------------------------ */
/* Backends                                                                             */
/* ------------------------------------------------------------------------------------ */

typedef enum lat_backend_kind {
    /* Automatic: the backend named by the environment variable LATTICE_BACKEND
     * ("cuda", "emu" or "cross") if it is set, else CUDA when a usable GPU, driver and
     * NVRTC are present, else the emulator. */
    LAT_BACKEND_AUTO = 0,
    LAT_BACKEND_CUDA = 1, /* NVIDIA GPU through libcuda and NVRTC, loaded at run time */
    LAT_BACKEND_EMU = 2,  /* the CPU emulator (TinyCC + OpenMP) */
    /* Both at once, compared after every launch (lattice/driver.h, "Cross-checking");
     * LATTICE_BACKEND=cross selects it. Never chosen automatically. */
    LAT_BACKEND_CROSS = 3
} lat_backend_kind;

/* "auto", "cuda", "emu" or "cross"; "unknown" otherwise. Thread safety: any thread. */
LAT_API const char *lat_backend_name(lat_backend_kind kind);

/* Resolves a backend request to the backend that would be used, checking that it is
 * available. LAT_BACKEND_AUTO follows the rules above.
 *   kind:     the request.
 *   resolved: receives LAT_BACKEND_CUDA, LAT_BACKEND_EMU or LAT_BACKEND_CROSS on success.
 * Errors: LAT_ERROR_INVALID_VALUE (resolved is NULL, kind unknown, LATTICE_BACKEND has an
 * unknown value); LAT_ERROR_BACKEND_UNAVAILABLE (the named backend cannot be used:
 * lat_last_error() says why, e.g. "libcuda.so.1 not found" or "no CUDA device").
 * The first call probes the backends (loads libraries); later calls reuse the result.
 * Thread safety: any thread. */
LAT_API lat_status lat_backend_resolve(lat_backend_kind kind, lat_backend_kind *resolved);

/* ------------------------------------------------------------------------------------ */
/* Devices                                                                              */
/* ------------------------------------------------------------------------------------ */

typedef struct lat_device_info {
    char name[256];                 /* e.g. "NVIDIA H100 80GB HBM3", "lattice emulator" */
    int compute_major;              /* compute capability, e.g. 9 and 0 for sm_90 */
    int compute_minor;
    size_t total_memory;            /* bytes of device memory */
    int multiprocessor_count;       /* SMs; for the emulator, the host's processors */
    int warp_size;                  /* 32 on both backends */
    int max_threads_per_block;      /* 1024 */
    int max_block_dim[3];           /* 1024, 1024, 64 */
    int max_grid_dim[3];            /* 2147483647, 65535, 65535 */
    size_t shared_memory_per_block; /* static shared memory limit, bytes (49152) */
    size_t constant_memory;         /* bytes of __constant__ memory (65536) */
    int clock_rate_khz;             /* peak clock, kHz (0 where unknown) */
    int memory_bus_width;           /* bits (0 where unknown) */
    int l2_cache_size;              /* bytes (0 where unknown) */
    int max_threads_per_multiprocessor;
    int registers_per_block;
    /* The most shared memory, static and dynamic together, a block may have: a launch may
     * ask for dynamic shared memory beyond shared_memory_per_block up to this, as a CUDA
     * program does after cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize).
     * 166912 on the emulator (compute capability 8.0's opt-in); shared_memory_per_block on
     * the CUDA backend, which does not opt kernels in yet. */
    size_t shared_memory_per_block_optin;
} lat_device_info;

/* The number of devices of a backend.
 *   kind:  a backend request, resolved as by lat_backend_resolve().
 *   count: receives the number of devices (at least 1 on success).
 * Errors: LAT_ERROR_INVALID_VALUE (count is NULL); LAT_ERROR_BACKEND_UNAVAILABLE.
 * Thread safety: any thread. */
LAT_API lat_status lat_device_count(lat_backend_kind kind, int *count);

/* Fills *info for device `ordinal` (0-based) of a backend.
 * Errors: LAT_ERROR_INVALID_VALUE (info is NULL); LAT_ERROR_BACKEND_UNAVAILABLE;
 * LAT_ERROR_INVALID_DEVICE (ordinal < 0 or >= the device count); LAT_ERROR_DRIVER.
 * Thread safety: any thread. */
LAT_API lat_status lat_device_get_info(lat_backend_kind kind, int ordinal,
                                       lat_device_info *info);

/* ------------------------------------------------------------------------------------ */
/* Contexts                                                                             */
/* ------------------------------------------------------------------------------------ */

/* The CPU emulator's optimising tier (docs/tiers.md). A module is compiled by
 * TinyCC at once and runs on that code; the optimising tier compiles the same lowered C
 * with the system's C compiler (cc, gcc or clang, found at run time; LATTICE_EMU_CC names
 * another) into a shared object and switches each kernel to it at a launch boundary.
 * Results are bit for bit those of TinyCC's code. With no compiler, or when it fails, the
 * module stays on TinyCC and the log says why. Checked modules (lattice/check.h) tier up
 * too: their instrumented code is compiled by the optimiser and gives the same reports.
 * Other backends ignore it. */
typedef enum lat_emu_opt {
    LAT_EMU_OPT_DEFAULT = 0,    /* as LATTICE_EMU_OPT says (off, auto, background, sync);
                                   auto when it is unset */
    LAT_EMU_OPT_OFF = 1,        /* TinyCC only */
    LAT_EMU_OPT_AUTO = 2,       /* the optimised build starts in the background once the
                                   module's launches have run for 20 ms in all */
    LAT_EMU_OPT_BACKGROUND = 3, /* the optimised build starts with lat_module_create, on a
                                   thread of its own; launches use TinyCC's code until it is
                                   ready */
    LAT_EMU_OPT_SYNC = 4        /* lat_module_create waits for the optimised code (from the
                                   compile cache when it holds it) */
} lat_emu_opt;


typedef struct lat_context lat_context;

typedef enum lat_log_level {
    LAT_LOG_ERROR = 1,   /* a call failed: the same text as lat_last_error() */
    LAT_LOG_WARNING = 2, /* e.g. a compile succeeded with warnings */
    LAT_LOG_INFO = 3     /* e.g. which backend and device a context uses */
} lat_log_level;

typedef struct lat_logger {
    /* Called synchronously, on the thread that made the lattice call, with a message
     * that is valid only during the call. May be called from several threads at once
     * when a context is shared. NULL: no logging. */
    void (*func)(void *user_data, lat_log_level level, const char *message);
    void *user_data;
} lat_logger;

/* The most detailed level lattice writes to stderr where no logger is set (a context
 * without one, or a call without a context), as LATTICE_LOG said when a lattice call last
 * read the environment: 0 ("none"), LAT_LOG_ERROR, LAT_LOG_WARNING (the default) or
 * LAT_LOG_INFO. A program that prints lat_last_error() itself can leave out what lattice
 * printed already. Errors: none (it reads nothing that can fail, and sets no error).
 * Thread safety: any thread. */
LAT_API int lat_log_stderr_level(void);

typedef struct lat_context_desc {
    lat_backend_kind backend; /* LAT_BACKEND_AUTO (0) by default: see lat_backend_kind */
    int device;               /* device ordinal, 0 by default */
    lat_logger logger;        /* where this context's errors, warnings and notes go */
    /* Cross-checking only (LAT_BACKEND_CROSS): the tolerance for floating data (float,
     * double, half, and those fields of structs and vector types), per value
     *     |gpu - emu| <= cross_atol + cross_rtol * max(|emu|, S),
     * S being the buffer's typical magnitude for that field (the median of its nonzero
     * values' magnitudes, to within a factor of 2): rounding differences scale with the
     * terms a result came from, so a result of cancelling terms is judged against its
     * neighbours' size rather than its own (lattice/driver.h, "Cross-checking"). 0 means
     * the default (rtol 1e-4, atol 0); a negative value means 0 (cross_rtol and
     * cross_atol both negative: bit for bit, but NaN equals NaN and -0 equals 0). */
    double cross_rtol;
    double cross_atol;
    /* The emulator's checks (lattice/check.h): LAT_CHECK_* bits; 0 means as
     * LATTICE_CHECK says (none when unset); LAT_CHECK_OFF means none. */
    unsigned check;
    /* The emulator's optimising tier for the context's modules (lat_emu_opt);
     * LAT_EMU_OPT_DEFAULT: as LATTICE_EMU_OPT says. A module's own setting
     * (lat_module_desc.emu_opt) wins over this. */
    lat_emu_opt emu_opt;
    /* Pointer arguments, checked at every launch (lat_launch, lat_launch_args): a pointer
     * parameter whose value is not NULL and lies in no live allocation of the context
     * (one past its end counts), no module variable whose address
     * lat_module_get_global() gave, and no mapped page-locked host memory fails the
     * launch with LAT_ERROR_INVALID_ADDRESS naming the parameter. It catches a host
     * pointer passed where a device one belongs, which a GPU faults on and the emulator
     * would otherwise read the host's memory through. Pointers inside struct arguments
     * are not looked at. A LAT_POINTER_CHECK_* value. */
    int pointer_check;
} lat_context_desc;

typedef enum lat_pointer_check {
    /* On for the emulator (and cross-checking), off on a GPU. */
    LAT_POINTER_CHECK_DEFAULT = 0,
    /* On for every backend (on CUDA: a table lookup per pointer parameter per launch). */
    LAT_POINTER_CHECK_ON = 1,
    /* Off: for pointers lattice cannot know (from a kernel's malloc, say). */
    LAT_POINTER_CHECK_OFF = 2
} lat_pointer_check;

/* Creates a context on a device: the object that owns device memory and modules.
 *   desc: may be NULL for all defaults (automatic backend, device 0, no logger).
 *   out:  receives the context; set to NULL on failure.
 * Errors: LAT_ERROR_INVALID_VALUE (also desc->check with bits that are no LAT_CHECK_*
 * mode: the message names them; desc->pointer_check not a LAT_POINTER_CHECK_* value); LAT_ERROR_BACKEND_UNAVAILABLE;
 * LAT_ERROR_INVALID_DEVICE; LAT_ERROR_OUT_OF_MEMORY; LAT_ERROR_DRIVER.
 * Thread safety: any thread. The context may then be used from any number of threads. */
LAT_API lat_status lat_context_create(const lat_context_desc *desc, lat_context **out);

/* Destroys a context: waits for its work, frees its modules and any device memory still
 * allocated in it. NULL is a no-op. Thread safety: no other thread may use the context,
 * or anything created from it, during or after the call. */
LAT_API void lat_context_destroy(lat_context *ctx);

/* The backend the context runs on (never LAT_BACKEND_AUTO). Thread safety: any thread. */
LAT_API lat_backend_kind lat_context_backend(const lat_context *ctx);

/* The device the context runs on. Errors: LAT_ERROR_INVALID_VALUE (NULL argument).
 * Thread safety: any thread. */
LAT_API lat_status lat_context_device_info(const lat_context *ctx, lat_device_info *info);

/* Waits until all work submitted to the context has finished, and reports the first
 * failure of that work (LAT_ERROR_LAUNCH_FAILED, with the kernel named in
 * lat_last_error()). Errors: LAT_ERROR_INVALID_VALUE; LAT_ERROR_LAUNCH_FAILED;
 * LAT_ERROR_DRIVER. Thread safety: any thread. */
LAT_API lat_status lat_context_synchronize(lat_context *ctx);

/* Interrupts the kernel launches running on the emulator and the waits for a GPU, in
 * every context of the process, as Ctrl-C should: call it from a SIGINT handler (it is
 * async-signal-safe) or from any thread (it is thread-safe, and returns at once). It has
 * no errors.
 *
 * On the emulator, every launch that is running, or whose lat_launch*() call had begun
 * when lat_interrupt() was called, stops within about 10 ms: between blocks, at a
 * barrier, or wherever its kernel code is (a kernel that spins for ever, a checked
 * launch, a cooperative one). The blocks not yet started are skipped, the launch fails
 * with LAT_ERROR_INTERRUPTED ("kernel 'k' was interrupted ..." naming a block and thread
 * that were running), and the context stays usable: device memory keeps what the blocks
 * that ran wrote, as after any failed launch, and the next launch runs normally. (A -G
 * module's launch under a debugger is left to the debugger, which takes Ctrl-C itself.)
 *
 * On a GPU (the CUDA backend) a kernel cannot be stopped. A wait for it that is running
 * or had begun when lat_interrupt() was called (lat_context_synchronize,
 * lat_stream_synchronize, lat_event_synchronize but of a blocking_sync event) returns
 * LAT_ERROR_INTERRUPTED at once; the kernel runs on to its end, and the next wait or
 * copy that needs it waits for it (copies, and lat_context_destroy, are not
 * interrupted).
 *
 * An interrupt is not kept: a call that begins after lat_interrupt() returned runs
 * normally, and an interrupt while nothing runs does nothing. So a SIGINT handler whose
 * program checks a flag before each launch calls it again (from alarm(), say) until the
 * program has stopped: a launch begun between the check and the signal is not reached by
 * the first call. Compiles are not interrupted. The Python package calls it on Ctrl-C,
 * `lattice run` on SIGINT (docs/security.md). */
LAT_API void lat_interrupt(void);

/* ------------------------------------------------------------------------------------ */
/* Device memory                                                                        */
/* ------------------------------------------------------------------------------------ */

/* A device address, as the driver API's CUdeviceptr. 0 is the null address. */
typedef uint64_t lat_deviceptr;

/* Allocates `bytes` of device memory (aligned to at least 256 bytes).
 * Errors: LAT_ERROR_INVALID_VALUE (ctx or out NULL, bytes 0);
 * LAT_ERROR_OUT_OF_DEVICE_MEMORY. Thread safety: any thread. */
LAT_API lat_status lat_mem_alloc(lat_context *ctx, size_t bytes, lat_deviceptr *out);

/* Frees an allocation made by lat_mem_alloc() in this context. 0 is a no-op.
 * Errors: LAT_ERROR_INVALID_VALUE (ctx NULL); LAT_ERROR_INVALID_ADDRESS (ptr is not the
 * start of a live allocation of this context: double free, interior pointer, another
 * context's memory). Thread safety: any thread; not concurrently with a use of the same
 * allocation. */
LAT_API lat_status lat_mem_free(lat_context *ctx, lat_deviceptr ptr);

/* Free and total device memory, in bytes. Either output may be NULL.
 * Errors: LAT_ERROR_INVALID_VALUE (ctx NULL). Thread safety: any thread. */
LAT_API lat_status lat_mem_info(lat_context *ctx, size_t *free_bytes, size_t *total_bytes);

/* Sets `count` elements of 1, 2 or 4 bytes starting at dst to value.
 * Errors: LAT_ERROR_INVALID_VALUE (ctx NULL, dst 0, dst misaligned for the element
 * size); LAT_ERROR_OVERFLOW (count * element size overflows);
 * LAT_ERROR_INVALID_ADDRESS (the range is not inside one live allocation).
 * Thread safety: any thread. */
LAT_API lat_status lat_memset_d8(lat_context *ctx, lat_deviceptr dst, uint8_t value,
                                 size_t count);
LAT_API lat_status lat_memset_d16(lat_context *ctx, lat_deviceptr dst, uint16_t value,
                                  size_t count);
LAT_API lat_status lat_memset_d32(lat_context *ctx, lat_deviceptr dst, uint32_t value,
                                  size_t count);

/* Copies `bytes` host→device, device→host and device→device. They return when the copy
 * is complete. A copy of 0 bytes is a no-op (pointers are still checked for NULL).
 * Errors: LAT_ERROR_INVALID_VALUE (NULL ctx or host pointer, device address 0);
 * LAT_ERROR_INVALID_ADDRESS (a device range is not inside one live allocation of the
 * context; the message gives the allocation and the overrun); LAT_ERROR_DRIVER.
 * Thread safety: any thread. */
LAT_API lat_status lat_memcpy_htod(lat_context *ctx, lat_deviceptr dst, const void *src,
                                   size_t bytes);
LAT_API lat_status lat_memcpy_dtoh(lat_context *ctx, void *dst, lat_deviceptr src,
                                   size_t bytes);
LAT_API lat_status lat_memcpy_dtod(lat_context *ctx, lat_deviceptr dst, lat_deviceptr src,
                                   size_t bytes);

/* ------------------------------------------------------------------------------------ */
/* Modules: CUDA C compiled at run time                                                 */
/* ------------------------------------------------------------------------------------ */

typedef struct lat_module lat_module;
typedef struct lat_kernel lat_kernel;

typedef struct lat_module_desc {
    /* Exactly one of source and path. */
    const char *source; /* CUDA C source text, NUL-terminated */
    const char *path;   /* or a file to read it from */
    /* The file name used in messages and for resolving #include "..." relative to it;
     * default: path, or "kernel.cu" for source text. */
    const char *name;
    /* NULL-terminated lists; each may be NULL. */
    const char *const *defines;      /* "NAME" or "NAME=VALUE", as -D */
    const char *const *include_dirs; /* searched for #include, as -I */
    const char *const *options;      /* further compiler flags: NVRTC's spelling; the
                                        emulator accepts the ones docs/dialect.md lists.
                                        "-G": on the emulator, built for gdb and lldb
                                        with the system's C compiler, its lines those of
                                        name (docs/debugging.md) */
    /* 0: the source is compiled as if wrapped in extern "C" { }, so kernels are found by
     * their plain names (PyCUDA's default); a program the wrap would make invalid C++ (a
     * template or an overloaded function cannot have C linkage) is compiled as written
     * instead, on every backend. Non-zero: compiled as written, as PyCUDA's
     * no_extern_c=True; kernels are still looked up by their plain names, and by their
     * mangled names as NVRTC lowers them. */
    int no_extern_c;
    /* NULL-terminated list, may be NULL: the template instantiations the module needs, as
     * NVRTC's name expressions (nvrtcAddNameExpression) spell them: "reduce<256>",
     * "scale<float>", "ns::kernel<int, 4>". Each is instantiated and can be looked up by
     * exactly that string (lat_module_get_kernel); lat_module_get_lowered_name() gives its
     * mangled name. Templates cannot have C linkage, so a module with name expressions is
     * compiled as written, as with no_extern_c (its other kernels are still found by their
     * plain names). Each entry must be a non-empty string. The source's own explicit
     * instantiations (template __global__ void k<float>(float *);) are added to the list
     * by the name they are written with, so that they are found by it on every backend.
     * On the emulator an instantiation's parameters are known with their types; on CUDA an
     * instantiation's parameters are known by their sizes only (cuFuncGetParamInfo, CUDA
     * 12.4 and newer drivers): lat_launch_args checks argument sizes, not types, as for
     * lat_module_load's kernels. */
    const char *const *name_expressions;
    /* The emulator's optimising tier for this module (lat_emu_opt); LAT_EMU_OPT_DEFAULT:
     * the context's setting. Ignored by other backends. */
    lat_emu_opt emu_opt;
} lat_module_desc;

/* Compiles CUDA C source for the context's device and loads it.
 *   out: receives the module; NULL on failure.
 * Errors: LAT_ERROR_INVALID_VALUE (NULL ctx/desc/out, neither or both of source and
 * path, an empty name expression); LAT_ERROR_FILE (path or an #include cannot be read);
 * LAT_ERROR_INVALID_OPTION; LAT_ERROR_COMPILE (lat_last_error() holds the compiler's full
 * log, with positions in the user's files, "name.cu:LINE:COL: error: ...");
 * LAT_ERROR_KERNEL_NOT_FOUND (a name expression that names no function of the source:
 * the message names it and gives NVRTC's words); LAT_ERROR_UNSUPPORTED (emulator: a
 * construct outside the dialect, named with its line and column; name expressions);
 * LAT_ERROR_DRIVER. Thread safety: any thread. */
LAT_API lat_status lat_module_create(lat_context *ctx, const lat_module_desc *desc,
                                     lat_module **out);

/* Destroys a module and its kernels. NULL is a no-op. Thread safety: no launch of one of
 * its kernels may be running or start during the call. */
LAT_API void lat_module_destroy(lat_module *mod);

/* The compiler's log for this module: warnings and notes of a successful compile, ""
 * when the compiler said nothing. Valid until the module is destroyed. Thread safety:
 * any thread. */
LAT_API const char *lat_module_log(const lat_module *mod);

/* Finds a __global__ function by its plain name, or a template's instantiation by the
 * name expression that named it (lat_module_desc.name_expressions, the same string), or by
 * its mangled name as nvcc and NVRTC lower it ("_Z5scalePfi", "_Z3addIfLi3EEvPT_"; the
 * emulator reads the name, its namespaces and template arguments back to the kernel the
 * source defines: it refuses overloaded kernels, so a name means one). The kernel belongs
 * to the module and lives until the
 * module is destroyed; looking the same name up again returns the same handle.
 * lat_kernel_name() is the name it was found by. Errors: LAT_ERROR_INVALID_VALUE;
 * LAT_ERROR_KERNEL_NOT_FOUND (the message lists the kernels and name expressions the
 * module has). Thread safety: any thread. */
LAT_API lat_status lat_module_get_kernel(lat_module *mod, const char *name,
                                         lat_kernel **out);

/* The kernels of a module compiled from source (lat_module_create), in source order:
 * each __global__ function it defines by its plain name, and each instantiation of a
 * __global__ template (a name expression, or an explicit instantiation in the source:
 * template __global__ void k<float>(float *);) by the name lat_module_get_kernel finds it
 * by. lat_module_kernel_count returns how many (0 for NULL, and for lat_module_load's
 * modules, whose kernels are found by name only); lat_module_kernel_name returns name
 * i, valid until the module is destroyed, or NULL when i is out of range. Thread
 * safety: any thread. */
LAT_API int lat_module_kernel_count(const lat_module *mod);
LAT_API const char *lat_module_kernel_name(const lat_module *mod, int i);

/* The __global__ function templates of a module compiled from source, in source order:
 * no kernel until an instance is named (lat_module_desc.name_expressions, e.g.
 * "reduce<float, 256>"). lat_module_template_count returns how many (0 for NULL and for
 * lat_module_load's modules); lat_module_template_name returns template i's name as a
 * name expression starts ("reduce", "ops::reduce"), lat_module_template_declaration its
 * declaration as written up to its body ("template <typename T, int N> __global__ void
 * reduce(T *out, const T *in)", macros expanded, white space as one blank); each valid
 * until the module is destroyed, or NULL when i is out of range. A template in an
 * anonymous namespace, which no name expression can name, is not listed. Thread safety:
 * any thread. */
LAT_API int lat_module_template_count(const lat_module *mod);
LAT_API const char *lat_module_template_name(const lat_module *mod, int i);
LAT_API const char *lat_module_template_declaration(const lat_module *mod, int i);

/* The symbol a name expression or kernel name was lowered to (nvrtcGetLoweredName): for
 * "reduce<256>" something like "_Z6reduceILi256EEvPKfPf"; for a kernel of C linkage its
 * plain name. The emulator lowers names its own way (an instance is "reduce__lat_t1", a
 * kernel of C++ linkage keeps its plain name): on every backend the symbol is one that
 * lat_module_get_kernel finds, not one to compare with another compiler's. *name stays
 * valid until the module is destroyed.
 *   expr: one of the module's name expressions, or the plain name of one of its kernels.
 * Errors: LAT_ERROR_INVALID_VALUE (NULL argument); LAT_ERROR_KERNEL_NOT_FOUND (expr is
 * neither: the message lists the module's name expressions). Thread safety: any thread. */
LAT_API lat_status lat_module_get_lowered_name(lat_module *mod, const char *expr,
                                               const char **name);

/* The kernel's name and number of parameters. Thread safety: any thread. */
LAT_API const char *lat_kernel_name(const lat_kernel *kernel);
LAT_API int lat_kernel_param_count(const lat_kernel *kernel);

/* Finds a __device__ or __constant__ variable of the module by name (PyCUDA's
 * module.get_global): its device address and its size in bytes. Either output may be
 * NULL. The address may be passed to kernels; it stays valid until the module is
 * destroyed. Once given, the variable is device memory to lat_memcpy_*, lat_memset_* and
 * the asynchronous copies (checked against its size), as on a GPU; the two functions below
 * copy to and from it by name.
 * Errors: LAT_ERROR_INVALID_VALUE (NULL mod or name, or no such variable: the message
 * says so); LAT_ERROR_UNSUPPORTED (a backend without module variables: cross-checking);
 * LAT_ERROR_DRIVER. Thread safety: any thread. */
LAT_API lat_status lat_module_get_global(lat_module *mod, const char *name, lat_deviceptr *ptr,
                                         size_t *bytes);
/* Copy `bytes` to / from the variable `name`, starting `offset` bytes into it. Ordered
 * after the launches made before them, as lat_memcpy_htod/dtoh are.
 * Errors: those of lat_module_get_global(); LAT_ERROR_INVALID_VALUE (a NULL host
 * pointer); LAT_ERROR_INVALID_ADDRESS (offset + bytes overruns the variable).
 * Thread safety: any thread. */
LAT_API lat_status lat_module_memcpy_to_global(lat_module *mod, const char *name,
                                               size_t offset, const void *src, size_t bytes);
LAT_API lat_status lat_module_memcpy_from_global(lat_module *mod, const char *name,
                                                 size_t offset, void *dst, size_t bytes);

/* ------------------------------------------------------------------------------------ */
/* Launch                                                                               */
/* ------------------------------------------------------------------------------------ */

typedef struct lat_dim3 {
    unsigned x, y, z; /* x must be at least 1; y or z of 0 means 1 */
} lat_dim3;

typedef struct lat_launch_desc {
    lat_dim3 grid;       /* blocks in the grid */
    lat_dim3 block;      /* threads in a block */
    size_t shared_bytes; /* dynamic shared memory per block (extern __shared__) */
    /* The stream to launch on (lattice/driver.h); NULL: the context's default stream. */
    struct lat_stream *stream;
    /* Non-zero: a cooperative launch (cuLaunchCooperativeKernel): every block of the
     * grid is resident at once, so blocks may wait for each other, and the kernel may
     * call the grid-wide barrier __lat_grid_sync() (docs/dialect.md). The grid may hold
     * at most lat_kernel_max_cooperative_blocks() blocks. 0: an ordinary launch, whose
     * blocks run in any order, some perhaps only after others have finished. */
    int cooperative;
} lat_launch_desc;

/* Launches a kernel with arguments in the form cuLaunchKernel takes them: params[i]
 * points to the value of parameter i (params may be NULL for a kernel without
 * parameters). The launch is asynchronous on CUDA; its failures surface in
 * lat_context_synchronize() or a later call. The emulator runs it before returning.
 * Errors: LAT_ERROR_INVALID_VALUE (NULL kernel/desc, a NULL params[i]; a kernel that can
 * reach __lat_grid_sync() launched without desc->cooperative);
 * LAT_ERROR_INVALID_DIMENSIONS (a zero x, a dimension above the device's limit, more
 * threads per block than the device allows; a cooperative grid of more blocks than
 * lat_kernel_max_cooperative_blocks() allows, as CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE:
 * the message gives the grid and the limit); LAT_ERROR_SHARED_MEMORY;
 * LAT_ERROR_UNSUPPORTED (a cooperative launch on a GPU without cooperative launches, or a
 * checked one on the emulator: lattice/check.h); LAT_ERROR_LAUNCH_FAILED;
 * LAT_ERROR_DRIVER.
 * Thread safety: any thread. */
LAT_API lat_status lat_launch(lat_kernel *kernel, const lat_launch_desc *desc,
                              void **params);

/* The most blocks a cooperative launch (lat_launch_desc.cooperative) of `kernel` may
 * have, with `block_threads` threads per block (the product of the block's dimensions) and
 * `shared_bytes` of dynamic shared memory per block: the blocks the device can hold at
 * once, as cudaOccupancyMaxActiveBlocksPerMultiprocessor times the multiprocessor count.
 * A larger cooperative grid is refused by lat_launch(). On CUDA this is the driver's
 * occupancy for the compiled kernel (registers and shared memory included). On the
 * emulator each block of a cooperative grid runs on an OS thread of its own; the emulated
 * device has lat_device_info.multiprocessor_count multiprocessors (the host's
 * processors), each holding at most 32 blocks and 64 warps (2048 threads), as on compute
 * capability 8.0: the limit is multiprocessor_count * min(32, 64 / warps per block). For a
 * kernel whose threads run on fibers (one with a barrier the region loops cannot take, the
 * grid barrier among them: docs/dialect.md) the grid's threads are also held to a quarter
 * of vm.max_map_count (16382 by default), each fiber's stack being two memory mappings.
 * Shared memory does not lower it there (every block has its own 48 KiB).
 *   out: receives the limit (0 when not even one such block fits).
 * Errors: LAT_ERROR_INVALID_VALUE (NULL kernel or out); LAT_ERROR_INVALID_DIMENSIONS
 * (block_threads 0 or above the device's threads per block); LAT_ERROR_SHARED_MEMORY
 * (shared_bytes above the device's limit per block); LAT_ERROR_UNSUPPORTED (a GPU
 * without cooperative launches: CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH is 0);
 * LAT_ERROR_DRIVER. Thread safety: any thread. */
LAT_API lat_status lat_kernel_max_cooperative_blocks(lat_kernel *kernel, unsigned block_threads,
                                                     size_t shared_bytes, unsigned *out);

/* A typed kernel argument for lat_launch_args(); make them with the lat_arg_* functions
 * below. In, Out and InOut are PyCUDA's argument handlers: a host buffer that lattice
 * copies to a fresh device buffer before the launch (In, InOut) and back after it
 * (Out, InOut); the kernel receives the device buffer's address. */
typedef enum lat_arg_kind {
    LAT_ARG_NONE = 0,
    LAT_ARG_I32, LAT_ARG_U32, LAT_ARG_I64, LAT_ARG_U64, LAT_ARG_F32, LAT_ARG_F64,
    LAT_ARG_PTR,   /* a device address */
    LAT_ARG_BYTES, /* any value (a struct) given by address and size, passed by value */
    LAT_ARG_IN, LAT_ARG_OUT, LAT_ARG_INOUT
} lat_arg_kind;

typedef struct lat_arg {
    lat_arg_kind kind;
    union {
        int32_t i32;
        uint32_t u32;
        int64_t i64;
        uint64_t u64;
        float f32;
        double f64;
        lat_deviceptr ptr;
        struct {
            void *data;
            size_t size;
        } buffer; /* BYTES, IN, OUT, INOUT */
    } value;
} lat_arg;

static inline lat_arg lat_arg_i32(int32_t v) { lat_arg a; a.kind = LAT_ARG_I32; a.value.i32 = v; return a; }
static inline lat_arg lat_arg_u32(uint32_t v) { lat_arg a; a.kind = LAT_ARG_U32; a.value.u32 = v; return a; }
static inline lat_arg lat_arg_i64(int64_t v) { lat_arg a; a.kind = LAT_ARG_I64; a.value.i64 = v; return a; }
static inline lat_arg lat_arg_u64(uint64_t v) { lat_arg a; a.kind = LAT_ARG_U64; a.value.u64 = v; return a; }
static inline lat_arg lat_arg_f32(float v) { lat_arg a; a.kind = LAT_ARG_F32; a.value.f32 = v; return a; }
static inline lat_arg lat_arg_f64(double v) { lat_arg a; a.kind = LAT_ARG_F64; a.value.f64 = v; return a; }
static inline lat_arg lat_arg_ptr(lat_deviceptr p) { lat_arg a; a.kind = LAT_ARG_PTR; a.value.ptr = p; return a; }
static inline lat_arg lat_arg_buffer_(lat_arg_kind k, const void *data, size_t size)
{
    lat_arg a;
    a.kind = k;
    a.value.buffer.data = (void *)(uintptr_t)data;
    a.value.buffer.size = size;
    return a;
}
static inline lat_arg lat_arg_bytes(const void *v, size_t size) { return lat_arg_buffer_(LAT_ARG_BYTES, v, size); }
/* PyCUDA's drv.In(a): `size` bytes of host memory copied to the device before the launch. */
static inline lat_arg lat_arg_in(const void *host, size_t size) { return lat_arg_buffer_(LAT_ARG_IN, host, size); }
/* PyCUDA's drv.Out(a): copied from the device into `host` after the launch. */
static inline lat_arg lat_arg_out(void *host, size_t size) { return lat_arg_buffer_(LAT_ARG_OUT, host, size); }
/* PyCUDA's drv.InOut(a): copied in before and out after. */
static inline lat_arg lat_arg_inout(void *host, size_t size) { return lat_arg_buffer_(LAT_ARG_INOUT, host, size); }

/* Launches a kernel with typed arguments, handling In/Out/InOut buffers: allocates their
 * device buffers, copies In/InOut buffers in, launches, waits for the kernel, copies
 * Out/InOut buffers back and frees the device buffers (also on failure). Without such
 * buffers it is as asynchronous as lat_launch().
 *   nargs, args: the arguments in parameter order.
 * Errors: those of lat_launch(), plus LAT_ERROR_ARG_COUNT (nargs differs from the
 * kernel's parameter count) and LAT_ERROR_ARG_TYPE (an argument cannot be the
 * parameter's type: a float for an int parameter, a pointer for a float...; the message
 * names the parameter), LAT_ERROR_INVALID_VALUE (a NULL buffer with a non-zero size),
 * LAT_ERROR_OUT_OF_DEVICE_MEMORY. Thread safety: any thread. */
LAT_API lat_status lat_launch_args(lat_kernel *kernel, const lat_launch_desc *desc,
                                   size_t nargs, const lat_arg *args);

#if !defined(__cplusplus)
/* C only: lat_launch_args(k, &desc, LAT_ARGS(lat_arg_out(d, n), lat_arg_in(a, n))) */
#  define LAT_ARGS(...) \
    (sizeof((lat_arg[]){__VA_ARGS__}) / sizeof(lat_arg)), ((const lat_arg[]){__VA_ARGS__})
/* C only (GCC and Clang): an array's In/Out/InOut argument, its size taken from its type:
 *     float a[400], dest[400];
 *     LAT_TRY(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {400}},
 *                             LAT_ARGS(LAT_OUT(dest), LAT_IN(a))));
 * An array only: a pointer (whose sizeof is not its buffer's) does not compile. */
#  define LAT_ARRAY_BYTES_(x)                                                             \
    (sizeof(x) + 0 * sizeof(char[__builtin_types_compatible_p(__typeof__(x),              \
                                                              __typeof__(&(x)[0])) ? -1 : 1]))
#  define LAT_IN(x) lat_arg_in((x), LAT_ARRAY_BYTES_(x))
#  define LAT_OUT(x) lat_arg_out((x), LAT_ARRAY_BYTES_(x))
#  define LAT_INOUT(x) lat_arg_inout((x), LAT_ARRAY_BYTES_(x))
#endif

/* ------------------------------------------------------------------------------------ */
/* The short path: one call from source to kernel                                       */
/* ------------------------------------------------------------------------------------ */

/* The process's default context, for programs that need one context and would rather not
 * manage it: made on the first call (lat_context_create(NULL, ...): LATTICE_BACKEND, else
 * the GPU where one is usable, else the emulator) and kept until
 * lat_context_default_release() or the end of the process. *out is the same context on
 * every call until it is released. Errors: LAT_ERROR_INVALID_VALUE (out NULL); those of
 * lat_context_create() (nothing is kept then: the next call tries again). Thread safety:
 * any thread; the context is made once. */
LAT_API lat_status lat_context_default(lat_context **out);

/* Destroys the default context (its modules, memory and kernels with it), if there is one;
 * the next lat_context_default() makes a new one. Thread safety: not while another thread
 * uses the default context or what it made. */
LAT_API void lat_context_default_release(void);

/* One call from CUDA C source to a kernel, the module made and kept for the caller:
 *     lat_kernel *k;
 *     LAT_TRY(lat_kernel_compile(NULL, source, "multiply_them", &k));
 *   ctx: the context to compile in, or NULL for lat_context_default()'s.
 *   source: CUDA C source text, compiled as written (lat_module_desc.no_extern_c), so
 *           that it may hold templates; messages call it "kernel.cu".
 *   name: the kernel: a __global__ function's name, or a template's instance named with
 *         its arguments ("reduce<float, 256>", compiled as a name expression).
 * The module lives as long as the context (lat_context_destroy frees it); each call
 * compiles anew (the compile cache makes a repeated source cheap). For options, defines
 * or several kernels of one module, use lat_module_create().
 * Errors: LAT_ERROR_INVALID_VALUE (source, name or out NULL); those of
 * lat_context_default(), lat_module_create() (LAT_ERROR_COMPILE with the compiler's log
 * in lat_last_error()) and lat_module_get_kernel() (LAT_ERROR_KERNEL_NOT_FOUND). *out is
 * untouched on failure. Thread safety: any thread. */
LAT_API lat_status lat_kernel_compile(lat_context *ctx, const char *source, const char *name,
                                      lat_kernel **out);

#ifdef __cplusplus
}
#endif

/* Streams, events, page-locked memory, 2-D copies, images, the compile cache... */
#include "lattice/driver.h"
/* Device arrays and generated kernels: elementwise, reduction, scan, random. */
#include "lattice/array.h"
/* The emulator's checks, schedules and thread maps. */
#include "lattice/check.h"
/* CUDA arrays, texture objects and surface objects. */
#include "lattice/texture.h"
/* One device per process: the local rank under MPI or Slurm. */
#include "lattice/ranks.h"
/* The emulator's profile: what a GPU's memory system would count, per source line. */
#include "lattice/profile.h"

#endif /* LATTICE_H */
