/*
 * The emulator's checks (lattice/check.h), inside: what the files of src/emu/check/
 * share, and the few calls the rest of the emulator makes into them.
 *
 * The pieces, in the order a checked launch meets them:
 *   instrument.c  rewrites a translated module so that every memory access of device
 *                 code calls __lat_ck() with its address, size, alignment and a site
 *                 number (the source place and text of the access), and every loop
 *                 calls __lat_ck_tick(); used only for checked contexts, so unchecked
 *                 modules stay exactly what they were;
 *   module.c      what a checked module keeps: its sites and __shared__ variables;
 *   exec.c        runs a checked launch: blocks one at a time, each thread on a fiber,
 *                 in the order the schedule says; barriers, warp operations, synccheck,
 *                 deadlocks and spins;
 *   access.c      __lat_ck(): memcheck, initcheck, racecheck and thread maps;
 *   shadow.c      the context's device allocations as the checks see them (shadow
 *                 bytes for initcheck, access records for racecheck, freed ranges);
 *   report.c      findings become reports: deduplicated, worded, logged;
 *   state.c       per-context state and the public functions of lattice/check.h;
 *   map.c         thread maps drawn as SVG and text.
 */
#ifndef LAT_EMU_CK_H
#define LAT_EMU_CK_H

#include "core.h"
#include "emu/abi.h"
#include "emu/exec/fiber.h"
#include "emu/runtime.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lat__emu_kernel;
struct lat__emu_module;

/* ---- instrument.c --------------------------------------------------------------------- */

/* One instrumented place in the source. */
typedef struct lat__ck_site {
    const char *file; /* interned in the module's strings */
    const char *expr; /* the access as written ("" for loop ticks) */
    int line;
    int kind; /* LAT_ACCESS_READ / _WRITE / _READ_WRITE, or 0 for a loop tick */
} lat__ck_site;

/* The number a hook gets for an access: site * LAT__CK_CODE_SITE, plus LAT__CK_CODE_LOCAL
 * when it names a tracked local variable (initcheck), plus its kind (LAT_ACCESS_*). */
enum { LAT__CK_CODE_LOCAL = 4, LAT__CK_CODE_SITE = 8 };

/* What instrumentation makes of a module. */
typedef struct lat__ck_module {
    lat__ck_site *sites;
    int nsites, sites_cap;
    char **strings; /* interned file names and expressions, freed with the module */
    int nstrings, strings_cap;
    /* Filled when the compiled module is loaded (module.c). */
    int nshared;
    const unsigned long *shsize, *shalign; /* in the module's code: its tables */
    const char *const *shname;
    const void *code; /* the module's memory (its __device__ variables, strings) */
    size_t code_size;
} lat__ck_module;

/* Rewrites the translated C text *text (malloc'd; replaced on success) of a checked
 * module. Errors: LAT_ERROR_OUT_OF_MEMORY only (what it cannot parse it leaves alone).
 * *out is allocated here; free with lat__ck_module_free either way. */
lat_status lat__ck_instrument(char **text, lat__ck_module **out);
void lat__ck_module_free(lat__ck_module *m);

/* ---- module.c ---------------------------------------------------------------------------- */

/* The host functions a checked module's code calls, for tcc_add_symbol. */
const lat__emu_symbol *lat__ck_symbols(size_t *count);

/* After the module is compiled and relocated: reads its tables from TinyCC's state and
 * attaches a kernel record to each kernel (k->check). Errors: LAT_ERROR_OUT_OF_MEMORY. */
struct TCCState;
lat_status lat__ck_module_loaded(lat__ck_module *cm, struct lat__emu_module *m,
                                 struct TCCState *s);

/* A kernel of a checked module: its __shared__ variables (indices into the module's). */
typedef struct lat__ck_kernel {
    const lat__ck_module *module;
    int nvars;
    int *vars;
} lat__ck_kernel;
void lat__ck_kernel_free(struct lat__ck_kernel *k);

/* ---- state.c: per context ------------------------------------------------------------------ */

/* An allocation as the checks know it (shadow.c). */
typedef struct lat__ck_region {
    uintptr_t base;
    size_t size;
    uint8_t *init;         /* initcheck: one byte per byte, 1 once written (NULL: off) */
    struct lat__ck_rec *race; /* racecheck: two records per 4-byte granule (NULL: off) */
    size_t race_bytes;     /* mapped for race */
    char *name;            /* lat_check_label */
    struct lat__ck_map *map; /* lat_check_map_buffer */
    bool fresh;            /* allocated through lattice while checks were on */
} lat__ck_region;

/* A freed allocation, remembered for use-after-free reports. */
typedef struct lat__ck_freed {
    uintptr_t base;
    size_t size;
    char *name;
} lat__ck_freed;

/* A report as kept: the public struct and the strings it points to. */
typedef struct lat__ck_report {
    lat_check_report r;
    int site, other_site; /* dedup key with r.kind (site -1: none) */
    char *message, *region_name, *kernel, *file, *expr, *ofile, *oexpr;
    char *body; /* the finder's words (hangs, warp masks, leaks), or NULL */
} lat__ck_report;

typedef struct lat__ck_map {
    uintptr_t base;
    size_t elem_size, count;
    lat_check_map_cell *cells;
    bool valid; /* a launch filled it */
    lat_dim3 grid, block;
    char *kernel;
} lat__ck_map;

enum { LAT__CK_MAX_FREED = 4096 };

typedef struct lat__ck_ctx {
    lat_context *ctx;
    unsigned modes;
    pthread_mutex_t lock;   /* guards everything below; held through a checked launch */
    lat_check_options opts;
    uint64_t last_seed;
    uint32_t block_serial;  /* blocks run so far in the context (racecheck's clock) */
    lat__ck_region *regions; /* sorted by base */
    size_t nregions, regions_cap;
    lat__ck_freed *freed;   /* a ring of the most recent frees */
    size_t nfreed, freed_next;
    /* Memory kernels may touch that has no shadow: every module's variables and
     * page-locked host memory (rebuilt by lat__ck_regions_sync). */
    struct lat__ck_range {
        uintptr_t lo, hi;
    } *extra;
    size_t nextra, extra_cap;
    lat__ck_report *reports; /* the last launch's */
    size_t nreports, reports_cap;
    unsigned long long dropped; /* findings past max_reports */
} lat__ck_ctx;

/* Creates ctx->check when the descriptor or LATTICE_CHECK asks for checks and the
 * context runs on the emulator (a GPU context only logs a note). Errors:
 * LAT_ERROR_INVALID_VALUE (LATTICE_CHECK or LATTICE_SCHEDULE malformed: named),
 * LAT_ERROR_OUT_OF_MEMORY. */
lat_status lat__ck_context_create(lat_context *ctx, const lat_context_desc *desc);
/* Runs the leak check (memcheck) and frees ctx->check; before the core frees memory. */
void lat__ck_context_destroy(lat_context *ctx);

/* ---- shadow.c: device allocations ------------------------------------------------------------ */

/* The emulator's memory functions tell the checks what happened (no-ops when ctx has no
 * checks): a new allocation (fresh, so unwritten), a free, host-side writes. */
void lat__ck_on_alloc(lat_context *ctx, lat_deviceptr base, size_t size);
void lat__ck_on_free(lat_context *ctx, lat_deviceptr base);
void lat__ck_on_write(lat_context *ctx, lat_deviceptr dst, size_t bytes);

/* Brings the region table in line with the core's allocation table (allocations made or
 * freed behind the hooks' back) and clears per-launch state. Holds ck->lock. */
lat_status lat__ck_regions_sync(lat__ck_ctx *ck);
/* The region containing address a (NULL: none); the one whose end or start is nearest
 * to a, within 64 KiB (an overrun's or underrun's victim). */
lat__ck_region *lat__ck_region_find(lat__ck_ctx *ck, uintptr_t a);
lat__ck_region *lat__ck_region_nearest(lat__ck_ctx *ck, uintptr_t a);
/* The padding the emulator's allocator leaves after each allocation of ctx (0 when it
 * has no memcheck): overruns land in no allocation. */
size_t lat__ck_alloc_pad(const lat_context *ctx);
const lat__ck_freed *lat__ck_freed_find(const lat__ck_ctx *ck, uintptr_t a, size_t n);
/* Whether [a, a+n) is in a module's memory or page-locked host memory of the context. */
bool lat__ck_extra_find(const lat__ck_ctx *ck, uintptr_t a, size_t n);
void lat__ck_region_release(lat__ck_region *r);

/* Racecheck's record of one access to a 4-byte granule. */
typedef struct lat__ck_rec {
    uint32_t block; /* the block's serial (lat__ck_ctx.block_serial), 0: none */
    uint32_t epoch; /* barriers the block had passed */
    int32_t site;
    uint16_t thread; /* linear index in the block */
    uint8_t wepoch;  /* warp synchronisations its warp had passed (mod 256) */
    uint8_t mask;    /* which bytes of the granule */
} lat__ck_rec;

/* ---- exec.c: a checked launch -------------------------------------------------------------------- */

/* Linear index i (x fastest) in a grid or block of dimensions d, as coordinates. */
static inline lat_dim3 lat__ck_unlinear(uint64_t i, lat__emu_u3 d)
{
    return (lat_dim3){(unsigned)(i % d.x), (unsigned)(i / d.x % d.y), (unsigned)(i / d.x / d.y)};
}

/* Bytes before and after a block's shared memory that count as overruns of it. */
enum { LAT__CK_SHARED_WINDOW = 64 * 1024 };

enum { LAT__CKF_RUN, LAT__CKF_BAR, LAT__CKF_WARP, LAT__CKF_EXIT };

/* One thread of the block being run. */
typedef struct lat__ck_fiber {
    void *sp, *fake;
    lat__emu_thread t;
    /* Loop turns left before the next call of __lat_ck_tick: kernel code counts them down
     * itself (instrument.c's __LAT_TICK reads the int just past `t`), so that a loop turn
     * costs a decrement, not a call. Must follow t. */
    int ticks;
    int state;
    /* Where it waits, and a barrier's or a warp operation's operands. */
    const char *file;
    int line;
    int op, pred, arg, width;
    uint32_t mask;
    uint64_t val, result;
    /* What it did in its latest slice (spin detection). */
    uint32_t slice; /* accesses and loop turns */
    uintptr_t seen[4];
    int nseen;
    int last_site;
    uintptr_t last_addr;
} lat__ck_fiber;

/* A __shared__ variable of the running kernel as laid out with red zones. */
typedef struct lat__ck_shvar {
    uintptr_t lo, hi;
    int var; /* the module's index, -1 for the dynamic shared memory */
} lat__ck_shvar;

/* One checked launch: everything the hooks reach through the thread context's rt. */
typedef struct lat__ck_launch {
    lat__ck_ctx *ck;
    lat_context *ctx;
    const struct lat__emu_kernel *k;
    const lat__ck_kernel *kk;
    const lat__ck_module *cm;
    unsigned modes;
    lat_check_options opts;
    uint64_t rng;
    lat__emu_u3 grid, bdim;
    unsigned nthreads;
    void **params;
    uint64_t nblocks, perm_a, perm_b; /* block order: (s * a + b) mod nblocks */
    bool reverse_blocks;
    /* The block running now. */
    uint64_t block_lin;
    uint32_t serial, first_serial;
    uint32_t epoch;
    uint8_t wepoch[32];
    lat__ck_fiber *f;
    int fcap, n, live, at_bar, bar_count, cur;
    uint32_t exited[32], arrived[32];
    int am_waiting[32]; /* lanes waiting in __activemask, per warp */
    int *order;
    bool order_made;
    int pos, ran;  /* the round: the order's position of the thread running, turns taken */
    bool all_spun; /* every turn of the round ended by giving way after a few addresses */
    lat__emu_stacks stacks;
    /* Kernels run as region loops (translate/region.c): the block's one context, on a
     * fiber of its own (stack 0) so that a trap or a hang can leave it; the scratch its
     * code keeps per-thread variables in. */
    bool region;
    lat__ck_fiber rf;
    char *scratch;
    size_t scratch_size, scratch_used;
    lat__emu_u3 bidx; /* the block running */
    /* initcheck of local variables: one byte per byte of the stacks, 1 while a tracked
     * variable's byte is unwritten (mapped on first use). */
    uint8_t *stack_poison;
    unsigned *rorder; /* region loops' order: (linear index, x, y, z) per thread */
    void *host_sp, *host_fake;
    const void *host_lo;
    size_t host_size;
    /* Shared memory, laid out with red zones, and its shadows. */
    char *sh;
    size_t sh_size, sh_used;
    void *sh_map; /* sh, with LAT__CK_SHARED_WINDOW bytes on each side */
    size_t sh_map_size;
    unsigned long *shoff;
    lat__ck_shvar *shv;
    int nshv;
    uint16_t *sh_var; /* per 16 bytes of sh: 1 + the index in shv of the variable there, 0 */
    uint8_t *sh_init;
    lat__ck_rec *sh_race;
    /* Where bad accesses go. */
    char *sink;
    size_t sink_size;
    lat__ck_region *last_region;
    /* Progress, for spins and the watchdog. */
    bool wrote;   /* some thread wrote memory in this round */
    double start, deadline, spin_since;
    unsigned budget;
    /* The end of the launch. */
    bool failed;
    lat_status status;
    char *msg;
    size_t msg_size;
} lat__ck_launch;

/* The running fiber of a launch gives way to the others (host loop); returns when it is
 * scheduled again. _yield: its slice is used up (spin detection looks at it); _yield_now:
 * preempted at a random access. */
void lat__ck_yield(lat__ck_launch *L);
void lat__ck_yield_now(lat__ck_launch *L);
/* Stops the launch from a fiber: back to the host loop, never to return. */
_Noreturn void lat__ck_abandon(lat__ck_launch *L);

/* Runs a launch of a checked module's kernel: blocks one at a time, their threads on
 * fibers in the schedule's order, with the checks; keeps the reports in ctx->check and
 * logs them. Returns LAT_OK, LAT_ERROR_CHECK_FAILED (msg: the first report), or what an
 * unchecked launch would return for a trap, too much shared memory, or no memory. */
lat_status lat__ck_run(lat_kernel *kernel, const lat__launch *launch, void **params,
                          char *msg, size_t msg_size);

/* ---- report.c ----------------------------------------------------------------------------------- */

/* Which check a kind belongs to. */
unsigned lat__ck_kind_check(lat_check_kind kind);
/* Adds a finding to ck's reports, or counts it in an equal one (same kind, site and
 * other site); r's strings are copied; r->message, when set, is the finder's own words
 * for the report's body. Returns false when max_reports are kept already. */
bool lat__ck_report_add(lat__ck_ctx *ck, const lat_check_report *r, int site, int other_site);
/* Words every report's message (at the end of a launch, when the counts are known). */
void lat__ck_reports_finish(lat__ck_ctx *ck);
/* Words a report's message from its fields (and the finder's words, or NULL). */
char *lat__ck_report_format(const lat_check_report *r, const char *given);
void lat__ck_reports_clear(lat__ck_ctx *ck);
/* "(x,y,z)" */
void lat__ck_dim(char *buf, size_t size, lat_dim3 d);

/* ---- map.c ------------------------------------------------------------------------------------- */

void lat__ck_map_free(lat__ck_map *m);

#endif
