/*
 * The emulator's checks (lattice/check.h), inside: what the files of src/emu/check/
 * share, and the few calls the rest of the emulator makes into them.
 *
 * The checks run no kernel: the executor (emu/exec/) runs a checked launch as it runs any
 * other, and the checks observe it (exec.h's lat__exec_hooks). The pieces, in the order a
 * checked launch meets them:
 *   ../passes/checks.c (a pass on the front end's tree, not in this directory) makes
 *                 every memory access of device code call __lat_ck() with its address,
 *                 size, alignment and a site number (the source place and text of the
 *                 access), and every loop call __lat_ck_tick(); used only for checked
 *                 contexts, so unchecked modules stay exactly what they were;
 *   module.c      what a checked module keeps: its sites, __shared__ variables, and the
 *                 host functions its code calls;
 *   launch.c      a checked launch: its options as the executor's schedule, its shared
 *                 memory with red zones, the observer's hooks, the reports at its end;
 *   access.c      __lat_ck(): memcheck, initcheck, racecheck and thread maps;
 *   sync.c        synccheck: barriers and warp operations as the executor completes them;
 *   hang.c        blocks that can never finish, as reports;
 *   shadow.c      the context's device allocations as the checks see them (shadow
 *                 bytes for initcheck, access records for racecheck, freed ranges);
 *   report.c      findings become reports: deduplicated, worded, logged;
 *   state.c       per-context state and the public functions of lattice/check.h;
 *   map.c         thread maps drawn as SVG and text.
 */
#ifndef LAT_EMU_CK_H
#define LAT_EMU_CK_H

#include "core.h"
#include "emu/runtime/abi.h"
#include "emu/exec/exec.h"
#include "emu/exec/worker.h"
#include "emu/runtime/runtime.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lat__emu_kernel;
struct lat__emu_module;

/* ---- findings (report.c) ---------------------------------------------------------------- */

/* The checks' findings: one code per diagnosis, with the report kind it is filed under
 * and, for those worded the same every time, their words. Reports are kept once per code
 * and place (lat__ck_report_add), so two diagnoses never collapse into one report. */
#define LAT__CK_FINDINGS(X)                                                                \
    X(OOB_SHARED, LAT_CHECK_OUT_OF_BOUNDS, NULL)     /* outside a __shared__ variable */   \
    X(OOB_ALLOCATION, LAT_CHECK_OUT_OF_BOUNDS, NULL) /* outside a device allocation */     \
    X(OOB_ARRAY, LAT_CHECK_OUT_OF_BOUNDS, NULL)      /* outside the array it names */      \
    X(MISALIGNED, LAT_CHECK_MISALIGNED, NULL)                                              \
    X(USE_AFTER_FREE, LAT_CHECK_USE_AFTER_FREE, NULL)                                      \
    X(WILD_ADDRESS, LAT_CHECK_WILD_ADDRESS, NULL)                                          \
    X(UNINIT_SHARED, LAT_CHECK_UNINITIALIZED, NULL)                                        \
    X(UNINIT_GLOBAL, LAT_CHECK_UNINITIALIZED, NULL)                                        \
    X(UNINIT_LOCAL, LAT_CHECK_UNINITIALIZED, NULL)                                         \
    X(RACE, LAT_CHECK_RACE, NULL)                                                          \
    X(RACE_SAME_VALUE, LAT_CHECK_RACE, NULL) /* writes of one value: a note */             \
    X(BARRIER_DIVERGENCE, LAT_CHECK_BARRIER_DIVERGENCE, NULL)                              \
    X(BARRIER_MISMATCH, LAT_CHECK_BARRIER_MISMATCH, NULL)                                  \
    X(WARP_MASK_NO_CALLER, LAT_CHECK_WARP_MASK, "leaves out the calling lane")             \
    X(WARP_MASK_PAST_END, LAT_CHECK_WARP_MASK, "names lanes past the end of the block")    \
    X(WARP_MASK_EXITED, LAT_CHECK_WARP_MASK, "names lanes that have exited")               \
    X(DEADLOCK, LAT_CHECK_HANG, NULL) /* no thread can go on */                            \
    X(SPIN, LAT_CHECK_HANG, NULL)     /* the threads spin, nobody writing */               \
    X(TIMEOUT, LAT_CHECK_HANG, NULL)  /* the block past the watchdog's deadline */         \
    X(LEAK, LAT_CHECK_LEAK, NULL)

typedef enum lat__ck_finding {
#define LAT__CK_FINDING_CODE(name, kind, words) LAT__CK_##name,
    LAT__CK_FINDINGS(LAT__CK_FINDING_CODE)
#undef LAT__CK_FINDING_CODE
    LAT__CK_NFINDINGS
} lat__ck_finding;

/* ---- what passes/checks.c makes ----------------------------------------------------------- */

/* One instrumented place in the source. */
typedef struct lat__ck_site {
    const char *file; /* interned in the module's strings */
    const char *expr; /* the access as written ("" for loop ticks) */
    int line;
    int kind; /* LAT_ACCESS_READ / _WRITE / _READ_WRITE, or 0 for a loop tick */
    bool predicated; /* a branch nvcc makes predicated code of (the profile: no divergence) */
} lat__ck_site;

/* The number a hook gets for an access: site * LAT__CK_CODE_SITE, plus LAT__CK_CODE_LOCAL
 * when it names a tracked local variable (initcheck), plus LAT__CK_CODE_PACKED when it is
 * a member of a packed struct (no alignment), plus its kind (LAT_ACCESS_*). */
enum { LAT__CK_CODE_LOCAL = 4, LAT__CK_CODE_PACKED = 8, LAT__CK_CODE_SITE = 16 };

/* The forward variant's guard's flags (fwd.c): nothing in the barrier interval writes;
 * an access of a tracked local variable is among those it would make unchecked. */
enum { LAT__CK_FWD_RACEFREE = 1, LAT__CK_FWD_LOCALS = 2 };

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
    const char *const *shdims; /* each one's extents, "[4][8]" ("" for one dimension) */
    uintptr_t code_lo;          /* the module's code: code_lo to data_lo */
    uintptr_t data_lo, data_hi; /* the module's data: its variables, strings, constants */
} lat__ck_module;

/* Frees what passes/checks.c allocated; m may be NULL. */
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
    /* The pointer parameters it may write device memory through (passes/writes.h),
     * nwrites of them; -1: it may write anywhere. */
    int nwrites;
    int *writes;
} lat__ck_kernel;
void lat__ck_kernel_free(struct lat__ck_kernel *k);

/* ---- state.c: per context ------------------------------------------------------------------ */

/* An allocation as the checks know it (shadow.c). */
typedef struct lat__ck_region {
    uintptr_t base;
    size_t size;
    uint8_t *init;         /* initcheck: one byte per byte, 1 once written (NULL: off) */
    lat__ck_rec *race;       /* racecheck: two records per 4-byte granule (NULL: off) */
    size_t race_bytes;     /* mapped for race */
    char *name;            /* lat_check_label */
    struct lat__ck_map *map; /* lat_check_map_buffer */
    bool fresh;            /* allocated through lattice while checks were on */
    /* initcheck: how many of its first bytes are written, as found before the launch
     * running (written bytes stay written: each launch scans on from there) */
    size_t init_prefix;
    /* racecheck: the launch running may write it (as the kernel's parameters say) */
    bool written_now;
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
    lat__ck_finding code; /* the dedup key: the code, the sites (-1: none), r's places */
    int site, other_site;
    char *message, *region_name, *region_shape, *kernel, *file, *expr, *ofile, *oexpr;
    char *body; /* the finder's words (hangs, warp masks, leaks), or NULL */
} lat__ck_report;

/* Reports kept, in the order found: a launch's, or one block's until it is merged into
 * the launch's in the schedule's order. */
typedef struct lat__ck_list {
    lat__ck_report *reports;
    size_t nreports, reports_cap;
    unsigned long long dropped; /* findings past max */
    int max;                    /* max_reports (0: 100) */
} lat__ck_list;

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
    lat__ck_list list; /* the last launch's reports */
    struct lat_profile *profile; /* the last profiled launch's profile (profile.h), or NULL */
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
/* initcheck: where the first unwritten byte of init[0..size) is, looking from `from` on
 * (size: none). Written bytes stay written, so a scan resumes where the last one stopped. */
size_t lat__ck_written_up_to(const uint8_t *init, size_t from, size_t size);
/* initcheck: each region's init_prefix brought up to date before a launch. Holds ck->lock. */
void lat__ck_regions_scan_written(lat__ck_ctx *ck);
/* racecheck: which regions the launch of kk with these parameters may write (written_now).
 * Holds ck->lock. */
void lat__ck_regions_mark_written(lat__ck_ctx *ck, const lat__ck_kernel *kk, void **params);
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

/* Racecheck's record of one access to a 4-byte granule: lat__ck_rec (abi.h). */

/* ---- launch.c: a checked launch ------------------------------------------------------------ */

/* Linear index i (x fastest) in a grid or block of dimensions d, as coordinates. */
static inline lat_dim3 lat__ck_unlinear(uint64_t i, lat__emu_u3 d)
{
    return (lat_dim3){(unsigned)(i % d.x), (unsigned)(i / d.x % d.y), (unsigned)(i / d.x / d.y)};
}

/* Bytes before and after a block's shared memory that count as overruns of it. */
enum { LAT__CK_SHARED_WINDOW = 64 * 1024 };

/* A __shared__ variable of the running kernel as laid out with red zones. */
typedef struct lat__ck_shvar {
    uintptr_t lo, hi;
    int var; /* the module's index, -1 for the dynamic shared memory */
} lat__ck_shvar;

/* A global access of a block, kept for its replay in the schedule's order (initcheck,
 * racecheck and thread maps of device allocations judge it then, launch.c): lat__ck_logged
 * (abi.h), which kernel code's inline path writes too. */

/* KNOWN: a write's bytes were read. SPLIT: an access over pages of two shards, logged in
 * each, each copy judging only its shard's bytes. */
enum { LAT__CK_KNOWN = LAT_EMU_CK_KNOWN, LAT__CK_SPLIT = 0x40 };

/* Global accesses are replayed in shards (launch.c): every page (LAT__CK_SHARD_SHIFT bytes of
 * an allocation) belongs to one, and the shards replay the blocks in the schedule's order
 * each, in parallel with each other, since initcheck's bytes and racecheck's granules of
 * one page see the same accesses in the same order whichever shard runs when. The shard
 * of offset off in region r, for a launch of nshards (a power of two). */
enum { LAT__CK_SHARDS = 64, LAT__CK_SHARD_SHIFT = 12 };
static inline unsigned lat__ck_shard_of(const lat__ck_region *r, uintptr_t off, unsigned nshards)
{
    uint32_t salt = (uint32_t)(((uintptr_t)r >> 4) * 0x9E3779B1u) >> 20;
    return (unsigned)((off >> LAT__CK_SHARD_SHIFT) + salt) & (nshards - 1);
}

/* A finding of a shard's replay, kept with its place in a serial replay (the block's step,
 * the access's index in its log, the granule: 0 for initcheck, 1 + granule for racecheck)
 * so that the launch's reports are added in that order at its end. */
typedef struct lat__ck_event {
    uint64_t step;
    uint32_t idx, sub;
    lat__ck_finding code;
    int site, other_site;
    lat_check_report r;
} lat__ck_event;

typedef struct lat__ck_events {
    lat__ck_event *v;
    size_t n, cap;
    bool lost; /* out of memory: a finding was not kept */
} lat__ck_events;

/* A thread's latest access (a hang report's place), its write whose value is not read
 * yet (an index + 1 into the block's log, 0: none), and its shared race between writes. */
typedef struct lat__ck_thread {
    int last_site;
    uintptr_t last_addr;
    size_t pend;     /* 1 + the log index of its last write whose value is not read yet */
    uint64_t before; /* what that place held as the write was logged */
} lat__ck_thread;

struct lat__ck_grid;

/* One checked launch as one OS thread sees it: the launch's fields, the same for all,
 * then the observer's state for the blocks the thread runs, reached by the hooks through
 * the worker a thread context's rt points to (lat__ck_of). */
typedef struct lat__ck_launch {
    lat__ck_ctx *ck;
    lat_context *ctx;
    const struct lat__emu_kernel *k;
    const lat__ck_kernel *kk;
    const lat__ck_module *cm;
    /* The optimising tier's object when the launch runs its code (its constants are the
     * module's memory as TinyCC's are), else NULL. */
    const struct lat__emu_opt_code *opt;
    unsigned modes;
    unsigned uncommitted; /* blocks this worker ended since it last committed (launch.c) */
    lat_check_options opts;
    lat__emu_u3 grid, bdim;
    int n; /* threads in a block */
    bool region; /* the kernel runs as region loops (on one fiber) */
    struct lat__ck_grid *G;
    /* The block running. */
    lat__exec_block *b;
    lat__emu_worker *w;
    lat__emu_u3 bidx;
    uint64_t block_lin, step;
    uint32_t first_serial; /* racecheck's clock: fast.serial is first_serial + the step */
    /* The block's clocks, log and shadows as kernel code's inline path of an access sees
     * them (abi.h): serial, epoch, wepoch, log, nlog, log_cap and logging (initcheck,
     * racecheck or a thread map wants global accesses) live only there; sh, sh_size,
     * sh_init and sh_race are copies of the fields below. */
    lat__ck_fast fast;
    int npend;             /* threads with a write whose value is not read yet */
    lat__ck_thread *th;    /* per fiber */
    /* What the block found (merged into the launch's reports in the schedule's order) and
     * its global accesses, replayed then. */
    lat__ck_list *out;
    lat__ck_list found;
    /* The replay: the bytes the access being judged left, when it is a write and known;
     * the shard replayed (its findings kept as events, in order of cur_idx and cur_sub). */
    bool cur_known;
    uint64_t cur_after;
    unsigned nshards;
    lat__ck_events *events;
    uint32_t cur_idx, cur_sub;
    int pth; /* the thread of the block's last logged write, -1: none */
    /* The value a plain assignment stores, given by __lat_ckv with its address: a global
     * write's value is then known when it is logged, not read back later from memory
     * that another block, running at once on another host thread, may have written since
     * (which made a real race between different values look like a same-value note). */
    const void *given;
    /* initcheck of local variables: one byte per byte of the fibers' stacks, 1 while a
     * tracked variable's byte is unwritten (mapped on first use). */
    uint8_t *stack_poison;
    uintptr_t poison_lo;
    size_t poison_size;
    /* Shared memory, laid out with red zones, and its shadows (the layout, sh_var and
     * shoff are the launch's; the memory and shadows each OS thread's). */
    char *sh;
    size_t sh_size, sh_used;
    void *sh_map; /* sh, with LAT__CK_SHARED_WINDOW bytes on each side */
    size_t sh_map_size;
    bool sh_map_kept; /* sh_map is the OS thread's, kept for its next launch (launch.c) */
    unsigned long *shoff;
    lat__ck_shvar *shv;
    int nshv;
    uint16_t *sh_var; /* per 16 bytes of sh: 1 + the index in shv of the variable there, 0 */
    uint8_t *sh_room; /* per 16 bytes of sh: bytes from there to its variable's end (at
                         most 255), 0: none (fast.room) */
    uint8_t *sh_init;
    lat__ck_rec *sh_race;
    /* initcheck, per __shared__ variable of the module: how many of its first bytes this
     * block has written, as last looked at (fwd.c) */
    size_t *sh_scanned;
    /* Where bad accesses go. */
    char *sink;
    size_t sink_size;
    unsigned recent_next; /* where the next allocation found goes in fast.g_* */
    /* The profile (profile.h): the launch's, and this OS thread's part; NULL: none. */
    struct lat__pf_launch *pfl;
    struct lat__pf_worker *pf;
} lat__ck_launch;

/* Reads the values the block's logged writes left, for racecheck's races between writes of
 * one value: thread i's, or every thread's (i < 0), at an event after which its stores
 * are done (a barrier, a warp operation, its exit, the block's end). */
void lat__ck_settle(lat__ck_launch *L, int i);
/* Judges a block's logged global accesses (L: a shard's replay state, set to the block):
 * those of shard `shard`, whose copies of split accesses judge its bytes only. */
void lat__ck_replay(lat__ck_launch *L, const lat__ck_logged *log, size_t n, unsigned shard);

/* The checked launch a thread context belongs to. */
static inline lat__ck_launch *lat__ck_of(const lat__emu_thread *t)
{
    return ((const lat__emu_worker *)t->rt)->obs;
}

/* Runs a launch of a checked module's kernel (k: its code on the tier in use, whose object
 * is opt when that is the optimising tier's) on the executor, observed: its blocks on
 * every OpenMP thread, their threads in the schedule's order, with the checks, the
 * reports those of its blocks run one at a time in the schedule's order; keeps them in
 * ctx->check and logs them. Returns LAT_OK, LAT_ERROR_CHECK_FAILED (msg: the first report),
 * or what an unchecked launch would return for a trap, a fault, or no memory. */
lat_status lat__ck_run(lat_kernel *kernel, const struct lat__emu_kernel *k,
                       const struct lat__emu_opt_code *opt, const lat__launch *launch,
                       void **params, char *msg, size_t msg_size);

/* ---- the observers: access.c, sync.c, hang.c -------------------------------------------------- */

/* What a checked module's code calls (passes/checks.c): an access, one through an array
 * whose bounds are known (base NULL: a pointer after all), and the declaration of a
 * tracked local variable (initcheck: its bytes are unwritten until a write by name). */
void *lat__ck_access_plain(lat__emu_thread *t, void *addr, unsigned long size,
                           unsigned long align, int site);
void *lat__ck_access_value(lat__emu_thread *t, void *addr, unsigned long size,
                           unsigned long align, int site, const void *value);
void *lat__ck_access_array(lat__emu_thread *t, void *addr, unsigned long size,
                           unsigned long align, int site, void *base, unsigned long bsize);
void lat__ck_local(lat__emu_thread *t, void *p, unsigned long n);
/* memset, memcpy and memmove called in device code (w, r: the codes of their write and read
 * sites): each range is checked as accesses of up to 8 bytes; where one is bad (reported),
 * nothing is done. Return d, as the C library's do. */
void *lat__ck_memset(lat__emu_thread *t, void *d, int c, unsigned long n, int w);
void *lat__ck_memcpy(lat__emu_thread *t, void *d, const void *s, unsigned long n, int w, int r);
void *lat__ck_memmove(lat__emu_thread *t, void *d, const void *s, unsigned long n, int w, int r);

/* The forward variant's guard (fwd.c; passes/region_fwd.c): whether a stretch or loop
 * whose accesses are proven may run as unchecked code here (flags: its interval writes
 * nothing, it touches tracked local variables; vars: the __shared__ variables it
 * touches, n of them); and the block's fresh state for it. */
int lat__ck_fwd_guard(lat__emu_thread *t, int flags, int n, const int *vars);
void lat__ck_fwd_block_start(lat__ck_launch *L);

/* synccheck at a barrier's completion: all waiters at one barrier, nobody exited. */
void lat__ck_sync_barrier(lat__ck_launch *L, const lat__exec_block *b);
/* synccheck as a thread arrives at a warp operation: its mask. */
void lat__ck_sync_warp(lat__ck_launch *L, const lat__exec_block *b, const lat__exec_fiber *f);
/* synccheck as a thread exits: the warp operations waiting for it. */
void lat__ck_sync_exit(lat__ck_launch *L, const lat__exec_block *b, const lat__exec_fiber *f);
/* A block that can never finish, reported. */
void lat__ck_hang(lat__ck_launch *L, const lat__exec_block *b, lat__exec_stall *s);

/* ---- report.c ----------------------------------------------------------------------------------- */

/* The kind of report a finding is filed under, and its fixed words (NULL: worded from
 * the report's fields). */
lat_check_kind lat__ck_finding_kind(lat__ck_finding code);
const char *lat__ck_finding_words(lat__ck_finding code);
/* Which check a kind belongs to. */
unsigned lat__ck_kind_check(lat_check_kind kind);
/* Adds finding `code` to list l (r: its report, whose kind is the code's), or counts it
 * in the one kept for the same code at the same place: the same accesses' sites (site,
 * other_site; -1: not an access) and the same files and lines of r's access and other
 * access. r's strings are copied; r->message, when set, is the finder's own words for the
 * report's body; r->count, when set, is how many findings it stands for. Returns false
 * when max reports are kept already. */
bool lat__ck_report_add(lat__ck_list *l, lat__ck_finding code, const lat_check_report *r,
                        int site, int other_site);
/* Moves src's reports into dst (after dst's, counted in dst's like ones as
 * lat__ck_report_add counts); src ends empty. */
void lat__ck_list_merge(lat__ck_list *dst, lat__ck_list *src);
/* Puts causes first (a stable sort): synccheck's findings, then races, then bad
 * accesses, then reads of memory never written, hangs, leaks, and notes last; words
 * every report's message (at the end of a launch, when the counts are known). */
void lat__ck_reports_finish(lat__ck_list *l);
/* How many of l's reports are errors, not notes. */
size_t lat__ck_reports_errors(const lat__ck_list *l);
/* Words a report's message from its fields (and the finder's words, or NULL). */
char *lat__ck_report_format(const lat_check_report *r, const char *given);
void lat__ck_reports_clear(lat__ck_list *l);
/* "(x,y,z)" */
void lat__ck_dim(char *buf, size_t size, lat_dim3 d);

/* ---- map.c ------------------------------------------------------------------------------------- */

void lat__ck_map_free(lat__ck_map *m);

#endif
