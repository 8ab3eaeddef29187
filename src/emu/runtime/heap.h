/*
 * The device heap (heap.c): the memory kernels get from malloc and give back with free.
 * As on a GPU it is the context's, of a fixed size (CUDA's default, 8 MiB), and what
 * kernels never free is freed with the context. It is one mapping, so that the checks
 * and the launch's pointer check can tell a heap address from a wild one.
 */
#ifndef LAT_EMU_HEAP_H
#define LAT_EMU_HEAP_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { LAT_EMU_HEAP_BYTES = 8 << 20, LAT_EMU_HEAP_CLASSES = 20 };

typedef struct lat__emu_heap {
    pthread_mutex_t lock;
    char *_Atomic base;  /* the mapping, NULL until the first malloc */
    size_t used;         /* bytes handed out of the mapping so far (bump) */
    uint64_t free_head[LAT_EMU_HEAP_CLASSES]; /* offset + 1 of a free block, 0: none */
    size_t live_blocks, live_bytes;
} lat__emu_heap;

/* Returns false when the lock cannot be made. */
bool lat__emu_heap_init(lat__emu_heap *h);
/* Unmaps the heap; *blocks and *bytes (may be NULL) get what kernels left allocated. */
void lat__emu_heap_destroy(lat__emu_heap *h, size_t *blocks, size_t *bytes);

/* malloc: 16-byte aligned, NULL when n is 0 or the heap has no room (as on a GPU). */
void *lat__emu_heap_alloc(lat__emu_heap *h, size_t n);
/* free: true for NULL and for a live block (now freed); false for anything else (not
 * from malloc, or freed already), which is left alone. */
bool lat__emu_heap_free(lat__emu_heap *h, void *p);
/* Whether [a, a + n) lies in the heap's mapping (from any thread, lock-free). */
bool lat__emu_heap_holds(const lat__emu_heap *h, uintptr_t a, size_t n);

#endif
