/*
 * lattice/check.h — the emulator as a bug finder and a teacher.
 *
 * A context created with checks on compiles its modules with every memory access of
 * device code routed through the emulator's checks, and runs each launch's threads on a
 * schedule lattice chooses, so that it can say, with the source line, the block, the
 * thread and the element, what went wrong:
 *   - memcheck:  out-of-bounds and misaligned accesses to device allocations (exact to
 *                the byte), to __shared__ variables and to local arrays; accesses to
 *                freed device memory or to no memory at all; device memory still
 *                allocated when the context is destroyed. A bad access is not performed
 *                (a write goes nowhere, a read gives zeros), so the process survives it.
 *   - racecheck: two threads touching the same bytes, at least one of them writing, with
 *                no barrier between them: in shared memory, and in global memory within
 *                a block and between blocks.
 *   - synccheck: threads of a block waiting at different barriers (threads that exited
 *                take no part in a barrier, as on Volta and later); warp operations whose
 *                mask leaves out the calling lane or names lanes of the block that exited
 *                before the operation completes, whichever thread ran first (lanes past
 *                the block's end are not there: a full mask in a 16-thread block is
 *                right). docs/dialect.md compares the rules with compute-sanitizer's.
 *   - initcheck: reads of device memory or shared memory never written, and of local
 *                variables never written: scalars and arrays of scalars (and pointers)
 *                declared without an initializer, whose address is never taken, read
 *                by name before a write by name. An atomic reads what it updates;
 *                atomicExch only writes (storing into memory nothing wrote yet is right).
 * A kernel that can never finish (threads waiting at a barrier that others will never
 * reach; threads spinning on a flag that no thread sets) ends with a "hang" report after a
 * bounded time instead of freezing the process.
 *
 * Every finding is a report (lat_check_report): it goes to the context's logger as a
 * LAT_LOG_ERROR line, is kept for lat_check_report_get(), and makes the launch fail with
 * LAT_ERROR_CHECK_FAILED (lat_last_error() holds the first report); a hang fails it with
 * LAT_ERROR_LAUNCH_FAILED, as on the unchecked emulator. Findings of the same kind at the
 * same source place in one launch are one report with a count.
 *
 * Checks run on the emulator only. A context on the GPU ignores them (the creation logs
 * a note); under cross-checking, LATTICE_CHECK checks the emulator's side. A checked
 * launch runs its blocks on every OpenMP thread (OMP_NUM_THREADS), as an unchecked one
 * does, each block's threads in the schedule's order: as region loops where the
 * kernel's threads can meet only at __syncthreads every thread reaches alike, else each
 * thread on a fiber (docs/dialect.md says exactly when; both give the same reports).
 * Its reports are those of a run of its blocks one at a time in the schedule's order,
 * whatever the number of threads and whichever block the host finished first: a race
 * between blocks 3 and 7 is reported the same on 1 core or 64 (each block keeps its own
 * findings and logs its accesses to device allocations; they are judged block by block
 * in the schedule's order). A launch that fails (a trap, a hang) fails with the first
 * failing block in that order, and reports nothing of the blocks after it. Reports come
 * in cause order: synccheck's barrier and warp findings, then races, then bad accesses,
 * then reads of memory never written, hangs and leaks, each kind in the order found;
 * so lat_last_error() names the race, not the uninitialised read it leads to. A checked
 * launch is slower than an unchecked one (bench/check measures by how much), and the
 * checked launches of one context run one at a time.
 *
 * A race between plain writes in device memory that all left the same value (every
 * thread setting a flag to true, as Rodinia BFS does) is reported as a note
 * (lat_check_report.note): benign on every GPU today, but undefined; it fails no launch.
 * The value a write left is read at the block's next access by another thread, the
 * writing thread's next access that finds the place changed, or its next barrier, warp
 * operation or exit; another block writing a different value to the same place in that
 * instant can make a race of different values look like one of the same value. Races in shared memory are always errors.
 *
 * Environment variables:
 *   LATTICE_CHECK=memcheck,racecheck,synccheck,initcheck (any of them, comma-separated)
 *       or LATTICE_CHECK=all: the checks of every context whose descriptor leaves
 *       `check` at 0. LATTICE_CHECK=none (or empty) turns them off.
 *   LATTICE_SCHEDULE=forward | reverse | random | random:SEED, optionally followed by
 *       ",preempt": the schedule of checked launches (see lat_check_options).
 *   LATTICE_CHECK_TIMEOUT=SECONDS: the watchdog of checked launches (default 20).
 *
 * Atomics (atomicAdd and the others, their _block and _system forms) are accesses like any
 * other: memcheck checks them, initcheck reads through them, and racecheck reports one
 * against a plain access of the same bytes with no barrier between (an atomic is
 * indivisible only among atomics), never against another atomic (LAT_ACCESS_ATOMIC).
 * memset, memcpy and memmove called in device code are checked over their whole ranges,
 * as accesses of up to 8 bytes each; where one is bad, the call does nothing.
 *
 * What is not seen: accesses written inside a macro's body (#define) and bit-fields
 * (device code that takes a bit-field as an lvalue does not compile checked). Code that needs two blocks running together (one
 * spinning on a flag another sets) may finish or be reported as a hang, depending on
 * which blocks run at once; racecheck reports its flag either way. Synchronisation between blocks through atomics and fences is
 * not understood: racecheck reports the plain accesses it orders. racecheck remembers two
 * readers of each 4 bytes since the last barrier (the first, and the last other thread
 * that read): a write after the reads of many threads is reported against one of them,
 * and is missed only where the writer read first, the last other reader is its warp's,
 * ordered by __syncwarp, and a third reader is not.
 */
#ifndef LATTICE_CHECK_H
#define LATTICE_CHECK_H

#include "../lattice.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------ */
/* Check modes                                                                          */
/* ------------------------------------------------------------------------------------ */

/* Bits of lat_context_desc.check. 0 there means "as LATTICE_CHECK says" (nothing when it
 * is unset); LAT_CHECK_OFF means no checks whatever the environment says. */
typedef enum lat_check_mode {
    LAT_CHECK_MEMCHECK = 1 << 0,
    LAT_CHECK_RACECHECK = 1 << 1,
    LAT_CHECK_SYNCCHECK = 1 << 2,
    LAT_CHECK_INITCHECK = 1 << 3,
    LAT_CHECK_ALL = (1 << 4) - 1,
    /* Not a check: the launches' memory counts, lattice/profile.h (LATTICE_PROFILE). */
    LAT_CHECK_PROFILE = 1 << 4,
    LAT_CHECK_OFF = 1 << 8
} lat_check_mode;

/* The checks a context runs (LAT_CHECK_* bits; 0 when none, or on a GPU context).
 * Errors: LAT_ERROR_INVALID_VALUE (NULL argument). Thread safety: any thread. */
LAT_API lat_status lat_check_modes(const lat_context *ctx, unsigned *modes);

/* Parses a LATTICE_CHECK-style list ("memcheck,racecheck", "all", "none", "") into
 * LAT_CHECK_* bits; "profile" is LAT_CHECK_PROFILE (lattice/profile.h; not in "all"). Errors: LAT_ERROR_INVALID_VALUE (NULL argument, or a word that is not
 * a check: the message names it). Thread safety: any thread. */
LAT_API lat_status lat_check_parse_modes(const char *text, unsigned *modes);

/* ------------------------------------------------------------------------------------ */
/* Schedules and limits                                                                 */
/* ------------------------------------------------------------------------------------ */

typedef enum lat_schedule_order {
    /* The threads of a block start, and resume after each barrier, in linear index
     * order: x fastest, then y, then z. */
    LAT_SCHEDULE_FORWARD = 0,
    /* The same backwards: the last thread first. */
    LAT_SCHEDULE_REVERSE = 1,
    /* A new pseudo-random order of the threads at the start and after every barrier,
     * drawn from `seed`; the blocks run in a random order too. The same seed gives the
     * same run. */
    LAT_SCHEDULE_RANDOM = 2
} lat_schedule_order;

typedef struct lat_check_options {
    lat_schedule_order order;
    /* LAT_SCHEDULE_RANDOM: the seed; 0 picks one from the clock, logged as a
     * LAT_LOG_INFO line ("LATTICE_SCHEDULE=random:SEED replays this launch") and
     * returned by lat_check_last_seed(). */
    uint64_t seed;
    /* Non-zero: a thread is switched for another at pseudo-random checked memory accesses
     * between barriers (about one in eight, drawn from `seed` whatever the order), so that
     * the lanes of a warp, like all threads, run out of lockstep and code that is right
     * only by the luck of an order shows it. Without it a thread runs until it waits at a
     * barrier or a warp operation, exits, or has made a few thousand accesses. Only threads
     * on fibers can be switched so: a module created while its context's options preempt
     * runs every kernel on fibers; one created before runs its region-loop kernels with
     * each thread's stretch between barriers whole. */
    int preempt;
    /* Seconds a checked launch may run before it is stopped as hung (0: 20). */
    double timeout_s;
    /* At most this many reports per launch (0: 100); later findings are counted in the
     * last report's count. */
    int max_reports;
} lat_check_options;

/* Sets the schedule and limits of the context's checked launches, from the next launch
 * on. The defaults are LATTICE_SCHEDULE's and LATTICE_CHECK_TIMEOUT's, else all zero.
 * Errors: LAT_ERROR_INVALID_VALUE (NULL argument, an unknown order, a negative timeout).
 * Thread safety: any thread; launches already running keep their schedule. */
LAT_API lat_status lat_check_configure(lat_context *ctx, const lat_check_options *options);

/* The options in force. Errors: LAT_ERROR_INVALID_VALUE. Thread safety: any thread. */
LAT_API lat_status lat_check_get_options(const lat_context *ctx, lat_check_options *options);

/* The seed the most recent checked launch of a random schedule used (0 before any).
 * Thread safety: any thread. */
LAT_API uint64_t lat_check_last_seed(const lat_context *ctx);

/* ------------------------------------------------------------------------------------ */
/* Reports                                                                              */
/* ------------------------------------------------------------------------------------ */

typedef enum lat_check_kind {
    LAT_CHECK_OUT_OF_BOUNDS = 1, /* memcheck: outside the allocation, array or variable */
    LAT_CHECK_MISALIGNED = 2,    /* memcheck: an address not a multiple of the size */
    LAT_CHECK_USE_AFTER_FREE = 3,/* memcheck: device memory freed before the launch */
    LAT_CHECK_WILD_ADDRESS = 4,  /* memcheck: no memory the kernel may touch (NULL...) */
    LAT_CHECK_LEAK = 5,          /* memcheck: allocations alive when the context ends */
    LAT_CHECK_RACE = 6,          /* racecheck */
    LAT_CHECK_BARRIER_DIVERGENCE = 7, /* no longer reported: exited threads take no part in a
                                         barrier (Volta and later); kept for the ABI */
    LAT_CHECK_BARRIER_MISMATCH = 8,   /* synccheck: threads at different barriers */
    LAT_CHECK_WARP_MASK = 9,          /* synccheck: a warp operation's mask is wrong */
    LAT_CHECK_UNINITIALIZED = 10,     /* initcheck */
    LAT_CHECK_HANG = 11               /* the launch could never finish */
} lat_check_kind;

/* Where an access went. */
typedef enum lat_check_space {
    LAT_SPACE_NONE = 0,   /* no memory (a wild address), or not a memory finding */
    LAT_SPACE_GLOBAL = 1, /* a device allocation */
    LAT_SPACE_SHARED = 2, /* __shared__ memory */
    LAT_SPACE_LOCAL = 3,  /* a thread's local array */
    LAT_SPACE_MODULE = 4  /* a __device__ or __constant__ variable, a string; with
                             LAT_CHECK_WILD_ADDRESS, the module's code */
} lat_check_space;

typedef enum lat_access_kind {
    LAT_ACCESS_NONE = 0,
    LAT_ACCESS_READ = 1,
    LAT_ACCESS_WRITE = 2,
    LAT_ACCESS_READ_WRITE = 3, /* x += ..., x++ */
    LAT_ACCESS_BARRIER = 4,    /* a __syncthreads() (synccheck, hangs) */
    LAT_ACCESS_WARP = 5,       /* a warp operation (synccheck, hangs) */
    LAT_ACCESS_EXIT = 6,       /* the thread had exited (synccheck) */
    LAT_ACCESS_ATOMIC = 7      /* an atomic read-modify-write (atomicAdd(&x, v)...): it
                                  races with plain accesses, never with another atomic */
} lat_access_kind;

/* One side of a finding: who did what, where in the source. */
typedef struct lat_check_access {
    lat_access_kind kind;
    const char *file; /* the source file as the module names it ("" when unknown) */
    int line;         /* 1-based, 0 when unknown */
    const char *expr; /* the access as written, e.g. "out[i]" ("" for barriers) */
    size_t size;      /* bytes accessed (0 for barriers) */
    lat_dim3 block;   /* blockIdx of the thread */
    lat_dim3 thread;  /* threadIdx of the thread (the first, when several) */
    lat_dim3 thread_last; /* the last of a range of threads (= thread when one) */
} lat_check_access;

typedef struct lat_check_report {
    lat_check_kind kind;
    unsigned check;      /* the LAT_CHECK_* mode that found it (0 for hangs) */
    const char *kernel;  /* the kernel's name ("" for leaks) */
    lat_check_access access; /* the faulting access; for races, the later of the two */
    lat_check_access other;  /* races: the earlier access; barriers: the other threads */
    lat_check_space space;
    uint64_t address;    /* the first byte accessed (0 when not a memory finding) */
    /* The allocation, shared variable, local array or module variable the access fell
     * in or nearest to (0 / "" when none): its first address, size, and the access's
     * offset from that start (negative before it). */
    uint64_t region_base;
    size_t region_size;
    long long offset;
    const char *region_name; /* "out" (a label, or a shared variable's name), or "" */
    unsigned long long count; /* how many times this finding happened in the launch */
    const char *message;      /* the whole report as one line, as the logger got it */
    /* Non-zero: a note, not an error. racecheck's race between writes that all store the
     * same value (Rodinia BFS's every thread setting a flag to true): benign on every GPU
     * today, but undefined in CUDA's memory model. A note is kept and logged (as a
     * LAT_LOG_WARNING line) after the errors, and does not fail the launch. */
    int note;
    /* A __shared__ array of two or more dimensions: its extents as declared ("[4][8]"), so
     * that its elements are named by their subscripts (tile[3][7]); "" otherwise. */
    const char *region_shape;
} lat_check_report;

/* The number of reports of the context's most recent checked launch (0 when none, or
 * when the checks found nothing). Thread safety: any thread; the reports are replaced
 * when the next checked launch of the context finishes. */
LAT_API size_t lat_check_report_count(const lat_context *ctx);

/* Report i (0-based) of the most recent checked launch, or NULL when i is out of range.
 * The report and its strings stay valid until the next checked launch of the context,
 * lat_check_clear() or the context's end. Thread safety: as lat_check_report_count(). */
LAT_API const lat_check_report *lat_check_report_get(const lat_context *ctx, size_t i);

/* Forgets the reports kept. Errors: LAT_ERROR_INVALID_VALUE. Thread safety: not during
 * a use of a report got from the context. */
LAT_API lat_status lat_check_clear(lat_context *ctx);

/* Runs memcheck's leak check now: one LAT_CHECK_LEAK report (kept as the context's
 * reports, and logged) when device memory is allocated, none otherwise. The same check
 * runs when a context with memcheck is destroyed (its report then goes to the logger
 * only). Returns LAT_ERROR_CHECK_FAILED when it found a leak, LAT_OK when not (or when
 * memcheck is off); LAT_ERROR_INVALID_VALUE for a NULL ctx. Thread safety: any thread. */
LAT_API lat_status lat_check_leaks(lat_context *ctx);

/* "out-of-bounds", "race", ... for a lat_check_kind; "unknown" otherwise. Never NULL.
 * Thread safety: any thread. */
LAT_API const char *lat_check_kind_name(lat_check_kind kind);

/* ------------------------------------------------------------------------------------ */
/* Names and thread maps                                                                */
/* ------------------------------------------------------------------------------------ */

/* Names the device allocation that starts at ptr in reports ("'out'" instead of "a
 * 4000-byte allocation"). The name is copied; NULL removes it.
 * Errors: LAT_ERROR_INVALID_VALUE (NULL ctx); LAT_ERROR_INVALID_ADDRESS (ptr is not the
 * start of a live allocation of the context). Thread safety: any thread. */
LAT_API lat_status lat_check_label(lat_context *ctx, lat_deviceptr ptr, const char *name);

/* Asks the checked launches of ctx to record, for each element of elem_size bytes of the
 * allocation that starts at ptr, which block and thread last wrote it and last read it.
 * Each launch starts the map afresh. Needs a checked context (any mode).
 * Errors: LAT_ERROR_INVALID_VALUE (NULL ctx, elem_size 0 or not dividing the
 * allocation's size, a context without checks); LAT_ERROR_INVALID_ADDRESS (not the
 * start of a live allocation); LAT_ERROR_OUT_OF_MEMORY. Thread safety: any thread. */
LAT_API lat_status lat_check_map_buffer(lat_context *ctx, lat_deviceptr ptr, size_t elem_size);

/* Who touched one element. Indices are linear: x + dim.x * (y + dim.y * z). */
typedef struct lat_check_map_cell {
    long long write_block;  /* the last writer's block, -1 when nobody wrote */
    long long write_thread; /* its thread in the block */
    long long read_block;   /* the last reader's block, -1 when nobody read */
    long long read_thread;
    unsigned writes;        /* how many writes and reads the element got */
    unsigned reads;
} lat_check_map_cell;

typedef struct lat_check_map {
    size_t count;           /* elements */
    size_t elem_size;
    lat_dim3 grid, block;   /* the launch that made it */
    const char *kernel;
    lat_check_map_cell *cells; /* count cells, element order */
} lat_check_map;

/* The map of the buffer at ptr as the context's most recent checked launch left it.
 * *map's pointers stay valid until the next checked launch or the context's end.
 * Errors: LAT_ERROR_INVALID_VALUE (NULL argument; no map was asked for at ptr, or no
 * launch has run since). Thread safety: any thread. */
LAT_API lat_status lat_check_map_get(const lat_context *ctx, lat_deviceptr ptr,
                                     lat_check_map *map);

typedef struct lat_check_map_style {
    size_t columns;    /* elements per row (0: up to 32, or the block size if smaller) */
    int show_reads;    /* non-zero: colour by the last reader instead of the writer */
    const char *title; /* a caption (NULL: kernel, grid and block) */
} lat_check_map_style;

/* Draws a map as SVG: one square per element in rows of `columns`, filled with its
 * block's colour and labelled with its thread's index (x, or x,y for 2-D blocks);
 * elements nobody touched are white; a legend names the blocks' colours. *svg receives
 * a malloc'd NUL-terminated string the caller frees. style may be NULL.
 * Errors: LAT_ERROR_INVALID_VALUE; LAT_ERROR_OUT_OF_MEMORY. Thread safety: any thread. */
LAT_API lat_status lat_check_map_svg(const lat_check_map *map, const lat_check_map_style *style,
                                     char **svg);

/* The same map as a plain-text table: one cell per element, "b/t" (the block's and the
 * thread's index: x, or x,y...) of the writer (or reader), "-" when untouched, rows of
 * `columns` elements each starting with the first one's index. *text is malloc'd.
 * Errors: LAT_ERROR_INVALID_VALUE; LAT_ERROR_OUT_OF_MEMORY. Thread safety: any thread. */
LAT_API lat_status lat_check_map_text(const lat_check_map *map, const lat_check_map_style *style,
                                      char **text);

/* ------------------------------------------------------------------------------------ */
/* Kernel parameters, for tools that make a kernel's inputs                             */
/* ------------------------------------------------------------------------------------ */

typedef struct lat_check_param {
    const char *name;     /* as written ("" when unnamed) */
    const char *type;     /* as written, spacing normalised: "const float *" */
    int is_pointer;       /* non-zero for any T * */
    int is_float;         /* the value (or, for a pointer, the pointee) is float/double,
                             a vector of them (float4), or a half type (__half, __half2,
                             __nv_bfloat16, __nv_bfloat162: `type` says which) */
    int is_signed;        /* ... is a signed integer, or a vector of them */
    size_t size;          /* bytes of the value (8 for a pointer); 0 when unknown */
    size_t pointee_size;  /* pointers: bytes of *p for C's scalar types, CUDA's vector types
                             (float4: 16), <stdint.h>'s and the half types (__half: 2,
                             __half2: 4; __nv_bfloat16 likewise: `type` says which 16-bit
                             format); 0 for anything else (a struct) */
    size_t pointee_components; /* pointers: *p's components (float4: 4, a scalar: 1); 0 when
                                  pointee_size is 0 */
    int is_record;        /* non-zero for a struct, class or union passed by value (a
                             functor, a struct of parameters), and for CUDA's vector
                             types (float4): not one number */
} lat_check_param;

/* What the source says of parameter i of a kernel. The strings live as long as the
 * kernel's module. Errors: LAT_ERROR_INVALID_VALUE (NULL argument, i out of range, or a
 * kernel whose declaration lattice could not read). Thread safety: any thread. */
LAT_API lat_status lat_check_kernel_param(const lat_kernel *kernel, int i, lat_check_param *out);

#ifdef __cplusplus
}
#endif

#endif /* LATTICE_CHECK_H */
