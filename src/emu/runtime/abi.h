/*
 * What compiled kernel code and the emulator's host code share: the per-thread context
 * every translated __global__ and __device__ function receives as its hidden first
 * parameter (`__lat_t`), and the entry points generated for each kernel.
 *
 * The struct is written once, as a macro, so that the prelude (a string compiled by
 * TinyCC) and the host code (compiled by gcc) cannot disagree on its layout. Its fields
 * are not called threadIdx etc.: those names are the prelude's macros for reading them.
 */
#ifndef LAT_EMU_ABI_H
#define LAT_EMU_ABI_H

/* U3 is the name of a struct of three unsigned: x, y, z. No commas: the macro is also
 * stringised into the prelude. */
#define LAT_EMU_THREAD_STRUCT(U3)                                                      \
    struct lat_emu_thread {                                                            \
        U3 thread_idx;                                                                 \
        U3 block_idx;                                                                  \
        U3 block_dim;                                                                  \
        U3 grid_dim;                                                                   \
        void *rt; /* the scheduler's per-OpenMP-thread state (traps, launch info) */   \
        char *shared;               /* the block's static __shared__ memory */         \
        const unsigned long *shoff; /* each __shared__ variable's offset in it */      \
        char *dshared;              /* the block's dynamic (extern) shared memory */   \
        unsigned nthreads;          /* threads in the block */                         \
        unsigned lin;               /* this thread's linear index (fiber kernels) */   \
    }

/* The host's view of the same struct. */
typedef struct lat__emu_u3 {
    unsigned x;
    unsigned y;
    unsigned z;
} lat__emu_u3;
typedef LAT_EMU_THREAD_STRUCT(lat__emu_u3) lat__emu_thread;

/* ---- checked modules: the inline path of an access --------------------------------------
 * A checked module's optimised code judges the usual access itself (passes/checks.c's
 * __lat_ckx): an aligned 4-byte access inside a __shared__ variable, or inside one of the
 * four device allocations the block touched last, while nothing else is pending. It reads and updates
 * the same shadows as the checks' host code (check/access.c), through these structs, and
 * calls that code for everything else. No commas, as for the thread context. */

/* racecheck's record of one access to a 4-byte granule (check/ck.h: lat__ck_rec). A read
 * record keeps a second reader too: a write races with every thread that read since the
 * last barrier, and one reader is not enough when the writer is that reader. */
#define LAT_EMU_CK_REC_STRUCT                                                               \
    struct lat_emu_ck_rec {                                                                 \
        unsigned block;        /* the block's serial; 0: none */                            \
        unsigned epoch;        /* barriers the block had passed */                          \
        int site;                                                                           \
        unsigned value;        /* a write's: the granule's bytes it left (mask has KNOWN); */ \
                               /* a read's: the second reader's site */                     \
        unsigned short thread; /* linear index in the block */                              \
        unsigned char wepoch;  /* warp synchronisations its warp had passed (mod 256) */    \
        unsigned char mask;    /* which bytes of the granule (| LAT_EMU_CK_KNOWN) */        \
        unsigned short thread2; /* a read's second reader, of the same block and epoch: */  \
        unsigned char wepoch2;  /* thread, warp epoch and bytes (mask2 0: none) */          \
        unsigned char mask2;                                                                \
    }

/* A global access of a block, logged for its replay in the schedule's order (check/ck.h:
 * lat__ck_logged). REGION: the type of the allocation's record (void in kernel code). */
#define LAT_EMU_CK_LOGGED_STRUCT(REGION)                                                    \
    struct lat_emu_ck_logged {                                                              \
        unsigned long a;                                                                    \
        REGION *r;                                                                          \
        unsigned long long after; /* a write's: the bytes it left (kind has KNOWN) */       \
        int site;                                                                           \
        unsigned epoch;                                                                     \
        unsigned size;                                                                      \
        unsigned idx;             /* its place in the block's log */                        \
        unsigned short thread;                                                              \
        unsigned char kind;       /* LAT_ACCESS_* | LAT_EMU_CK_KNOWN | split */             \
        unsigned char wepoch;                                                               \
    }

/* A record's or logged write's value is known. */
#define LAT_EMU_CK_KNOWN 0x80

/* What the inline path reads and updates: per OS thread of a checked launch, the block it
 * runs (check/ck.h: lat__ck_launch.fast, where the host code keeps these fields too). */
#define LAT_EMU_CK_FAST_STRUCT(REGION)                                                      \
    struct lat_emu_ck_fast {                                                                \
        int on;        /* region loops and no write's value pending: the path may be taken */ \
        int logging;   /* global accesses are logged (initcheck, racecheck, thread maps) */ \
        unsigned serial; /* racecheck's clock: the block's, then (next to it, as in a  */ \
        unsigned epoch;  /* record) the barriers the block has passed */                    \
        unsigned char wepoch[32]; /* warp synchronisations each warp has passed */          \
        unsigned long sh;      /* the block's shared memory */                              \
        unsigned long sh_size;                                                              \
        const unsigned char *room; /* per 16 bytes of it: bytes to its variable's end */    \
        unsigned char *sh_init;    /* initcheck's bytes (NULL: off) */                      \
        struct lat_emu_ck_rec *sh_race; /* racecheck's records (NULL: off) */               \
        unsigned long g_base[4]; /* the allocations touched last (g_size 0: none) */        \
        unsigned long g_size[4];                                                            \
        REGION *g_region[4];                                                                \
        unsigned long g_quiet[4]; /* bytes from g_base whose accesses need no log */        \
        struct lat_emu_ck_logged *log; /* the block's log */                                \
        unsigned long nlog;                                                                 \
        unsigned long log_cap;                                                              \
        int bare; /* region loops, and no check looks at accesses (synccheck alone): */     \
                  /* the path has nothing to do */                                          \
    }

/* What follows a fiber's thread context (exec/exec.h's lat__exec_fiber.ticks and .fast). */
#define LAT_EMU_CK_TAIL_STRUCT                                                              \
    struct lat_emu_ck_tail {                                                                \
        int ticks; /* loop turns left before the next __lat_ck_tick */                      \
        struct lat_emu_ck_fast *fast;                                                       \
    }

/* The host's views of the same (the checks' types, check/ck.h). */
struct lat__ck_region;
typedef LAT_EMU_CK_REC_STRUCT lat__ck_rec;
typedef LAT_EMU_CK_LOGGED_STRUCT(struct lat__ck_region) lat__ck_logged;
typedef LAT_EMU_CK_FAST_STRUCT(struct lat__ck_region) lat__ck_fast;
typedef LAT_EMU_CK_TAIL_STRUCT lat__ck_tail;

/* A generated kernel entry and its parameter-size query (see below). */
typedef void (*lat__emu_entry_fn)(lat__emu_thread *t, void **params);
typedef int (*lat__emu_sizes_fn)(unsigned long *sizes);

#define LAT_EMU_STR_(x) #x
#define LAT_EMU_XSTR(x) LAT_EMU_STR_(x)

/* Names of the generated functions and data, for kernel K:
 *   void __lat_entry_K(struct lat_emu_thread *t, void **params)
 *       plain and region kernels: runs every thread of the block t->blockIdx (t's
 *       blockDim, gridDim and shared memory set); fiber kernels: runs the one thread
 *       t->threadIdx, on a fiber of its own;
 *   int __lat_sizes_K(unsigned long *sizes)
 *       returns the parameter count and, when sizes is not NULL, fills each one's size;
 *   const int __lat_kinfo_K[]
 *       { mode (LAT_EMU_MODE_*), n, then the n indices of the module's __shared__
 *       variables the kernel can reach }.
 * For the module: `const int __lat_nshared` and, when it is not 0, `const unsigned long
 * __lat_shsize[]` and `__lat_shalign[]` (each __shared__ variable's size and alignment);
 * for each __device__ or __constant__ variable V at file scope, `void *const
 * __lat_gaddr_V` and `const unsigned long __lat_gsize_V`. */
#define LAT_EMU_ENTRY_PREFIX "__lat_entry_"
#define LAT_EMU_SIZES_PREFIX "__lat_sizes_"
#define LAT_EMU_KINFO_PREFIX "__lat_kinfo_"
#define LAT_EMU_GADDR_PREFIX "__lat_gaddr_"
#define LAT_EMU_GSIZE_PREFIX "__lat_gsize_"
/* A -G module (docs/debugging.md): `void *const __lat_dbg_ids[4]`, the addresses of its
 * variables threadIdx, blockIdx, blockDim and gridDim, which the executor keeps equal to
 * the running thread's (exec.h's debug_ids). */
#define LAT_EMU_DEBUG_IDS "__lat_dbg_ids"
/* A checked module's kernel K: `const int __lat_kwrites_K[]`, { n, then the n indices of
 * the pointer parameters it may write device memory through }, n -1 when it may write
 * anywhere (passes/writes.h). */
#define LAT_EMU_KWRITES_PREFIX "__lat_kwrites_"
/* Each kernel K: `const char __lat_kwhy_K[]`, how its threads run in words and, on fibers,
 * what kept it there (lat_kernel_describe). */
#define LAT_EMU_KWHY_PREFIX "__lat_kwhy_"

/* How a kernel's threads run: a plain loop (no barriers, no warp operations), region
 * loops (the body cut at its barriers, each piece a loop over the threads), or fibers
 * (each thread on a stack of its own, switched at every barrier). */
#define LAT_EMU_MODE_PLAIN 0
#define LAT_EMU_MODE_REGION 1
#define LAT_EMU_MODE_FIBER 2

/* Region loops' state of a thread that has returned (each thread's __lat_sk entry; 0 is
 * active, anything else inactive in a branch or loop): written by the generated code,
 * read by the runtimes of both the emulator and the checks. */
#define LAT_EMU_REGION_EXITED 0x7fffffff

#endif
