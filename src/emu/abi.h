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
