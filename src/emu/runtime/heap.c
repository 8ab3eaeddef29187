/* The device heap (heap.h). Blocks come in power-of-two size classes, 16 bytes to the
 * heap's size, each after a 16-byte header; freed blocks go on their class's list and
 * are handed out again, and fresh ones are cut from the end of what is used. Kernel code
 * can write anywhere in the heap, headers and freed blocks included, so nothing read back
 * from the mapping is trusted: a free list's link or a header that is not what this file
 * wrote ends that list (its blocks are lost to the heap, never handed out twice). */
#include "heap.h"

#include <string.h>
#include <sys/mman.h>

enum { HEADER = 16, MIN_PAYLOAD = 16 };

/* Inaccessible address space on each side of the heap's mapping: a kernel writing past a
 * block at the heap's end faults (a launch error, guard.c) instead of landing in whatever
 * the system mapped next, as device memory's mappings do (memory.c). */
enum { HEAP_GUARD = 1 << 20 };

typedef struct header {
    uint64_t check; /* LIVE or FREE mixed with the block's offset */
    uint32_t cls;
    uint32_t unused;
} header;

#define LIVE 0x6c61742d6c697665u /* "lat-live" */
#define FREE 0x6c61742d66726565u /* "lat-free" */

static uint64_t tag(uint64_t state, size_t off)
{
    return state ^ ((uint64_t)off * 0x9e3779b97f4a7c15u);
}

static size_t payload_of(uint32_t cls)
{
    return (size_t)MIN_PAYLOAD << cls;
}

bool lat__emu_heap_init(lat__emu_heap *h)
{
    memset(h, 0, sizeof *h);
    return pthread_mutex_init(&h->lock, NULL) == 0;
}

void lat__emu_heap_destroy(lat__emu_heap *h, size_t *blocks, size_t *bytes)
{
    if (blocks)
        *blocks = h->live_blocks;
    if (bytes)
        *bytes = h->live_bytes;
    char *base = atomic_load(&h->base);
    if (base)
        munmap(base - HEAP_GUARD, HEAP_GUARD + LAT_EMU_HEAP_BYTES + HEAP_GUARD);
    pthread_mutex_destroy(&h->lock);
    memset(h, 0, sizeof *h);
}

/* A block at off of class cls in state, as this file left it? */
static bool block_is(const char *base, size_t off, uint32_t cls, uint64_t state)
{
    if (off % HEADER || off > LAT_EMU_HEAP_BYTES - HEADER)
        return false;
    header hd;
    memcpy(&hd, base + off, sizeof hd);
    return hd.check == tag(state, off) && hd.cls == cls &&
           payload_of(cls) <= LAT_EMU_HEAP_BYTES - HEADER - off;
}

static void *hand_out(lat__emu_heap *h, char *base, size_t off, uint32_t cls)
{
    header hd = {.check = tag(LIVE, off), .cls = cls};
    memcpy(base + off, &hd, sizeof hd);
    h->live_blocks++;
    h->live_bytes += payload_of(cls);
    return base + off + HEADER;
}

void *lat__emu_heap_alloc(lat__emu_heap *h, size_t n)
{
    if (n == 0 || n > LAT_EMU_HEAP_BYTES - HEADER)
        return NULL;
    uint32_t cls = 0;
    while (payload_of(cls) < n)
        cls++;
    void *p = NULL;
    pthread_mutex_lock(&h->lock);
    char *base = atomic_load(&h->base);
    if (!base) {
        size_t map = HEAP_GUARD + LAT_EMU_HEAP_BYTES + HEAP_GUARD;
        char *m = mmap(NULL, map, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                       -1, 0);
        if (m != MAP_FAILED &&
            mprotect(m + HEAP_GUARD, LAT_EMU_HEAP_BYTES, PROT_READ | PROT_WRITE) != 0) {
            munmap(m, map);
            m = MAP_FAILED;
        }
        if (m != MAP_FAILED) {
            base = m + HEAP_GUARD;
            atomic_store(&h->base, base);
        }
    }
    if (base && h->free_head[cls]) {
        size_t off = (size_t)(h->free_head[cls] - 1);
        h->free_head[cls] = 0;
        if (block_is(base, off, cls, FREE)) {
            uint64_t next;
            memcpy(&next, base + off + HEADER, sizeof next);
            /* A link the kernel overwrote ends the list. */
            if (next && !block_is(base, (size_t)(next - 1), cls, FREE))
                next = 0;
            h->free_head[cls] = next;
            p = hand_out(h, base, off, cls);
        }
    }
    if (base && !p && payload_of(cls) + HEADER <= LAT_EMU_HEAP_BYTES - h->used) {
        size_t off = h->used;
        h->used += HEADER + payload_of(cls);
        p = hand_out(h, base, off, cls);
    }
    pthread_mutex_unlock(&h->lock);
    return p;
}

bool lat__emu_heap_free(lat__emu_heap *h, void *p)
{
    if (!p)
        return true;
    char *base = atomic_load(&h->base);
    uintptr_t a = (uintptr_t)p;
    if (!base || a < (uintptr_t)base + HEADER || a >= (uintptr_t)base + LAT_EMU_HEAP_BYTES)
        return false;
    size_t off = a - (uintptr_t)base - HEADER;
    pthread_mutex_lock(&h->lock);
    header hd;
    bool ok = off % HEADER == 0 && off < h->used;
    if (ok) {
        memcpy(&hd, base + off, sizeof hd);
        ok = hd.cls < LAT_EMU_HEAP_CLASSES && block_is(base, off, hd.cls, LIVE);
    }
    if (ok) {
        hd.check = tag(FREE, off);
        memcpy(base + off, &hd, sizeof hd);
        uint64_t next = h->free_head[hd.cls];
        memcpy(base + off + HEADER, &next, sizeof next);
        h->free_head[hd.cls] = (uint64_t)off + 1;
        h->live_blocks--;
        h->live_bytes -= payload_of(hd.cls);
    }
    pthread_mutex_unlock(&h->lock);
    return ok;
}

bool lat__emu_heap_holds(const lat__emu_heap *h, uintptr_t a, size_t n)
{
    const char *base = atomic_load(&h->base);
    return base && a >= (uintptr_t)base && n <= LAT_EMU_HEAP_BYTES &&
           a - (uintptr_t)base <= LAT_EMU_HEAP_BYTES - n;
}
