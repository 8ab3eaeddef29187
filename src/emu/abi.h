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

/* Names of the generated functions, for kernel K:
 *   void __lat_entry_K(struct lat_emu_thread *t, void **params)
 *       runs every thread of the block t->blockIdx (t's blockDim and gridDim set);
 *   int __lat_sizes_K(unsigned long *sizes)
 *       returns the parameter count and, when sizes is not NULL, fills each one's size. */
#define LAT_EMU_ENTRY_PREFIX "__lat_entry_"
#define LAT_EMU_SIZES_PREFIX "__lat_sizes_"

#endif
