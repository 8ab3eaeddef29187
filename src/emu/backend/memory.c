/* Emulator memory: device memory is host memory, and a device address is the host
 * address. The core checks every range before these run. */
#include "emu.h"
#include "emu/backend/env.h"

#include "emu/check/ck.h"
#include "emu/exec/guard.h"

#include <errno.h>
#include <stdatomic.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static size_t ram_bytes_cached;
static pthread_once_t ram_once = PTHREAD_ONCE_INIT;

static void read_ram(void)
{
    long page = sysconf(_SC_PAGESIZE);
    long pages = sysconf(_SC_PHYS_PAGES);
    ram_bytes_cached = page > 0 && pages > 0 ? (size_t)page * (size_t)pages : 0;
}

bool lat__emu_memory_parse(const char *text, size_t *bytes)
{
    *bytes = (size_t)4 << 30; /* the default: a 4 GiB device */
    if (!text)
        return true;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (end == text || errno || text[0] == '-')
        return false;
    unsigned shift = 0;
    switch (*end) {
    case 'K': case 'k': shift = 10; end++; break;
    case 'M': case 'm': shift = 20; end++; break;
    case 'G': case 'g': shift = 30; end++; break;
    case 'T': case 't': shift = 40; end++; break;
    default: break;
    }
    if (*end != '\0' || v == 0 || v > (SIZE_MAX >> shift))
        return false;
    *bytes = (size_t)v << shift;
    return true;
}

/* The emulated device's memory: LATTICE_EMU_MEMORY bytes (4 GiB by default), at most the
 * host's RAM, so that a program sizing its work by the device's memory (or a test's "needs
 * 4.5 GB" guard) sees a device's bound, not the host's. The core holds a context's
 * allocations to it (core/memory.c). A malformed value fails lat_context_create (emu.c);
 * here it reads as the default. */
static size_t total_memory(void)
{
    pthread_once(&ram_once, read_ram);
    size_t bound;
    if (!lat__emu_memory_parse(lat__emu_env(LAT_EMU_ENV_MEMORY), &bound))
        (void)lat__emu_memory_parse(NULL, &bound);
    return ram_bytes_cached && ram_bytes_cached < bound ? ram_bytes_cached : bound;
}

/* A GPU maps its memory in large pages. On 4 KiB pages a kernel streaming over arrays of
 * many megabytes pays TLB misses, dearer on a VM where each walks two page tables: a
 * vecmul over 64 MiB arrays ran 10-13% faster on huge pages there. Large allocations start
 * on a 2 MiB boundary and ask for transparent huge pages (most systems give them only where
 * asked: "madvise" mode). Only advice: where refused, the pages are small. */
enum { HUGE_PAGE = 2u << 20 };

static void advise_huge_pages(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    (void)madvise(p, bytes & ~(size_t)(HUGE_PAGE - 1), MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

/* ---- device memory's own mappings ---------------------------------------------------------
 *
 * A kernel's stray write must not land in the program's heap (a GPU reports an illegal
 * address and fails the context; the heap would be found corrupted minutes later, with no
 * word from lattice). So device memory is never malloc'd: every allocation lies in a
 * mapping of its own kind, with inaccessible pages (guards) around it, and an access that
 * runs past an allocation into a guard faults; guard.c turns the fault of a kernel into a
 * launch error naming the kernel, the thread and (lat__emu_mem_describe) the allocation.
 *
 * An allocation ends as near its guard as 512-byte alignment lets it (an overrun of a
 * 512-byte multiple faults at its first byte past the end); its start is where its page
 * begins, or later, so an underrun faults within a page.
 *   - Small ones (SMALL_MAX bytes at most) share arenas of SLOTS slots of one class (1 to
 *     16 pages), each slot followed by a guard page: an allocation and a free are a bit in
 *     a bitmap, no system call. Each slot costs two of the kernel's memory maps; past
 *     GUARDED_SLOTS of them the arenas leave the guard pages out (a program with tens of
 *     thousands of small buffers would otherwise run out of maps), their slots then
 *     adjoining as a GPU's allocations do: still device memory, never the host's heap.
 *   - Larger ones get a mapping each; those of 2 MiB and more start on a 2 MiB boundary
 *     (huge pages).
 * Each mapping, arena or allocation, has GUARD bytes of guard on each side, so that a
 * stray access well past the end of device memory faults too, rather than landing in
 * whatever the system mapped next (a thread's stack, a malloc arena).
 * The bookkeeping lives in the host's heap, out of kernels' reach: nothing read back
 * from device memory is trusted. */
enum {
    SMALL_CLASSES = 5, /* 1, 2, 4, 8 and 16 pages */
    SLOTS = 64,
    GUARDED_SLOTS = 8192,
    GUARD = 1 << 20, /* around each mapping: address space only */
    DEV_ALIGN = 512, /* cuMemAlloc's: a GPU's texture alignment */
};

typedef struct dm_span {
    uintptr_t lo, hi;     /* the whole mapping, guards included */
    uintptr_t user;       /* a big allocation's address (0: an arena) */
    size_t bytes;         /* a big allocation's size */
    struct dm_arena *arena;
} dm_span;

typedef struct dm_arena {
    char *first;     /* the first slot's data */
    size_t data;     /* bytes of data in a slot (whole pages) */
    size_t stride;   /* data, plus the guard page when guarded */
    int cls;
    bool guarded;
    unsigned nfree;
    uint64_t used;          /* one bit per slot */
    size_t bytes[SLOTS];    /* each live slot's allocation size */
} dm_arena;

static struct {
    pthread_mutex_t lock;
    dm_span *spans; /* sorted by lo */
    size_t nspans, cap;
    size_t guarded_slots; /* slots of guarded arenas mapped */
    dm_arena *hint[SMALL_CLASSES]; /* an arena of the class with a free slot, or NULL */
} dm = {.lock = PTHREAD_MUTEX_INITIALIZER};

static size_t page_size(void)
{
    static size_t page;
    if (!page) {
        long p = sysconf(_SC_PAGESIZE);
        page = p > 0 ? (size_t)p : 4096;
    }
    return page;
}

static size_t round_up(size_t n, size_t to)
{
    return (n + to - 1) / to * to;
}

/* The first span whose lo is above a. */
static size_t span_after(uintptr_t a)
{
    size_t lo = 0, hi = dm.nspans;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (dm.spans[mid].lo <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static dm_span *span_of(uintptr_t a)
{
    size_t i = span_after(a);
    return i && a < dm.spans[i - 1].hi ? &dm.spans[i - 1] : NULL;
}

static bool span_insert(dm_span s)
{
    if (dm.nspans == dm.cap) {
        size_t cap = dm.cap ? dm.cap * 2 : 64;
        dm_span *p = realloc(dm.spans, cap * sizeof *p);
        if (!p)
            return false;
        dm.spans = p;
        dm.cap = cap;
    }
    size_t i = span_after(s.lo);
    memmove(dm.spans + i + 1, dm.spans + i, (dm.nspans - i) * sizeof *dm.spans);
    dm.spans[i] = s;
    dm.nspans++;
    return true;
}

static void span_remove(dm_span *s)
{
    size_t i = (size_t)(s - dm.spans);
    memmove(s, s + 1, (dm.nspans - i - 1) * sizeof *s);
    dm.nspans--;
}

/* Address space only: every page inaccessible until opened. */
static char *reserve(size_t bytes)
{
    void *m = mmap(NULL, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return m == MAP_FAILED ? NULL : m;
}

static bool open_pages(char *p, size_t bytes)
{
    return mprotect(p, bytes, PROT_READ | PROT_WRITE) == 0;
}

/* A new arena of class cls (its slots have page << cls bytes), or NULL. */
static dm_arena *arena_new(int cls)
{
    size_t page = page_size();
    dm_arena *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    a->cls = cls;
    a->data = page << cls;
    a->guarded = dm.guarded_slots + SLOTS <= GUARDED_SLOTS;
    a->stride = a->data + (a->guarded ? page : 0);
    a->nfree = SLOTS;
    size_t map = GUARD + SLOTS * a->stride + GUARD;
    char *m = reserve(map);
    bool ok = m != NULL;
    a->first = m ? m + GUARD : NULL;
    if (ok && a->guarded) {
        for (int i = 0; ok && i < SLOTS; i++)
            ok = open_pages(a->first + (size_t)i * a->stride, a->data);
    } else if (ok) {
        ok = open_pages(a->first, SLOTS * a->stride);
    }
    if (ok)
        ok = span_insert((dm_span){(uintptr_t)m, (uintptr_t)m + map, 0, 0, a});
    if (!ok) {
        if (m)
            munmap(m, map);
        free(a);
        return NULL;
    }
    if (a->guarded)
        dm.guarded_slots += SLOTS;
    return a;
}

static void arena_delete(dm_span *s)
{
    dm_arena *a = s->arena;
    if (a->guarded)
        dm.guarded_slots -= SLOTS;
    for (int c = 0; c < SMALL_CLASSES; c++)
        if (dm.hint[c] == a)
            dm.hint[c] = NULL;
    munmap((void *)s->lo, s->hi - s->lo);
    span_remove(s);
    free(a);
}

/* A slot of class cls for bytes (locked). */
static void *small_alloc(int cls, size_t bytes)
{
    dm_arena *a = dm.hint[cls];
    if (!a || !a->nfree) {
        a = NULL;
        for (size_t i = 0; i < dm.nspans && !a; i++) {
            dm_arena *b = dm.spans[i].arena;
            if (b && b->cls == cls && b->nfree)
                a = b;
        }
        if (!a && !(a = arena_new(cls)))
            return NULL;
        dm.hint[cls] = a;
    }
    int slot = __builtin_ctzll(~a->used);
    a->used |= 1ull << slot;
    a->nfree--;
    a->bytes[slot] = bytes;
    /* At the slot's end, 512-byte aligned: an overrun meets the guard page. */
    char *end = a->first + (size_t)slot * a->stride + a->data;
    return end - round_up(bytes, DEV_ALIGN);
}

static void *big_alloc(size_t bytes)
{
    size_t page = page_size();
    size_t data = round_up(bytes, page);
    size_t align = data >= HUGE_PAGE ? HUGE_PAGE : page;
    size_t map = GUARD + (align - page) + data + GUARD;
    char *m = reserve(map);
    if (!m)
        return NULL;
    char *start = (char *)round_up((uintptr_t)m + GUARD, align);
    char *user = align == HUGE_PAGE ? start : start + data - round_up(bytes, DEV_ALIGN);
    if (!open_pages(start, data) ||
        !span_insert((dm_span){(uintptr_t)m, (uintptr_t)m + map, (uintptr_t)user, bytes, NULL})) {
        munmap(m, map);
        return NULL;
    }
    if (align == HUGE_PAGE)
        advise_huge_pages(start, data);
    return user;
}

/* A child of fork() gets the lock unheld, as malloc's are: another thread of the parent
 * may have held it at the fork, and the child has no such thread to release it. */
static void dm_fork_prepare(void)
{
    pthread_mutex_lock(&dm.lock);
}

static void dm_fork_release(void)
{
    pthread_mutex_unlock(&dm.lock);
}

static pthread_once_t dm_once = PTHREAD_ONCE_INIT;

static void dm_init(void)
{
    pthread_atfork(dm_fork_prepare, dm_fork_release, dm_fork_release);
    atomic_store(&lat__emu_guard_describe, lat__emu_mem_describe);
}

static void *dm_alloc(size_t bytes)
{
    pthread_once(&dm_once, dm_init);
    size_t page = page_size();
    if (bytes == 0)
        bytes = 1;
    void *p = NULL;
    pthread_mutex_lock(&dm.lock);
    if (bytes <= page << (SMALL_CLASSES - 1)) {
        int cls = 0;
        while ((page << cls) < bytes)
            cls++;
        p = small_alloc(cls, bytes);
    } else {
        p = big_alloc(bytes);
    }
    pthread_mutex_unlock(&dm.lock);
    return p;
}

static void dm_free(void *p)
{
    uintptr_t a = (uintptr_t)p;
    pthread_mutex_lock(&dm.lock);
    dm_span *s = span_of(a);
    if (s && !s->arena && s->user == a) {
        munmap((void *)s->lo, s->hi - s->lo);
        span_remove(s);
    } else if (s && s->arena) {
        dm_arena *r = s->arena;
        size_t slot = (a - (uintptr_t)r->first) / r->stride;
        if (slot < SLOTS && (r->used >> slot & 1)) {
            r->used &= ~(1ull << slot);
            r->nfree++;
            /* Keep one empty arena per class, for the next allocations. */
            if (r->nfree == SLOTS && dm.hint[r->cls] && dm.hint[r->cls] != r)
                arena_delete(s);
            else if (!dm.hint[r->cls])
                dm.hint[r->cls] = r;
        }
    }
    pthread_mutex_unlock(&dm.lock);
}

bool lat__emu_mem_describe(uintptr_t addr, char *buf, size_t size)
{
    /* From a signal handler: a lock held by the thread that faulted (or by any other, this
     * instant) means no description, never a wait. */
    if (pthread_mutex_trylock(&dm.lock) != 0)
        return false;
    bool found = false;
    dm_span *s = span_of(addr);
    uintptr_t base = 0;
    size_t bytes = 0;
    if (s && !s->arena) {
        base = s->user, bytes = s->bytes, found = true;
    } else if (s) {
        /* The nearest live slot at or before the address's (the first one, before the
         * arena's first slot). */
        dm_arena *r = s->arena;
        intptr_t off = (intptr_t)(addr - (uintptr_t)r->first);
        size_t slot = off < 0 ? 0 : (size_t)off / r->stride;
        slot = slot < SLOTS ? slot : SLOTS - 1;
        while (off >= 0 && slot > 0 && !(r->used >> slot & 1))
            slot--;
        if (r->used >> slot & 1) {
            bytes = r->bytes[slot];
            base = (uintptr_t)r->first + slot * r->stride + r->data - round_up(bytes, DEV_ALIGN);
            found = true;
        }
    }
    if (found) {
        if (addr >= base + bytes)
            snprintf(buf, size, "%zu bytes past the end of the device allocation at 0x%lx "
                     "(%zu bytes)", (size_t)(addr - base - bytes), (unsigned long)base, bytes);
        else if (addr < base)
            snprintf(buf, size, "%zu bytes before the device allocation at 0x%lx (%zu bytes)",
                     (size_t)(base - addr), (unsigned long)base, bytes);
        else
            found = false;
    }
    pthread_mutex_unlock(&dm.lock);
    /* Not device memory: perhaps next to a module's variables. */
    return found || lat__emu_module_describe(addr, buf, size);
}

lat_status lat__emu_mem_alloc(lat_context *ctx, size_t bytes, lat_deviceptr *out)
{
    /* A request above the device's memory fails here, as it does on a GPU, rather than
     * counting on the system (or a sanitizer) to refuse. */
    size_t total = total_memory();
    if (total && bytes > total)
        return lat__error(ctx, LAT_ERROR_OUT_OF_DEVICE_MEMORY,
                          "%zu bytes is more than the emulated device's %zu "
                          "bytes (LATTICE_EMU_MEMORY sets its size)", bytes, total);
    size_t padded = bytes + lat__ck_alloc_pad(ctx);
    void *p = dm_alloc(padded);
    if (!p)
        return lat__error(ctx, LAT_ERROR_OUT_OF_DEVICE_MEMORY,
                          "the emulator could not map %zu bytes of host memory "
                          "(%s)", bytes, strerror(errno));
    *out = (lat_deviceptr)(uintptr_t)p;
    lat__ck_on_alloc(ctx, *out, bytes); /* the checks (check/shadow.c) */
    return LAT_OK;
}

lat_status lat__emu_mem_free(lat_context *ctx, lat_deviceptr ptr)
{
    lat__ck_on_free(ctx, ptr);
    dm_free((void *)(uintptr_t)ptr);
    return LAT_OK;
}

lat_status lat__emu_mem_info(lat_context *ctx, size_t *free_bytes, size_t *total_bytes)
{
    (void)ctx;
    long page = sysconf(_SC_PAGESIZE);
    long avail = sysconf(_SC_AVPHYS_PAGES);
    if (total_bytes)
        *total_bytes = total_memory();
    if (free_bytes)
        *free_bytes = page > 0 && avail > 0 ? (size_t)page * (size_t)avail : 0;
    return LAT_OK;
}

lat_status lat__emu_memset(lat_context *ctx, lat_deviceptr dst, uint32_t value,
                           size_t elem_size, size_t count)
{
    (void)ctx;
    void *p = (void *)(uintptr_t)dst;
    lat__ck_on_write(ctx, dst, elem_size * count);
    if (elem_size == 1) {
        memset(p, (int)(value & 0xff), count);
    } else if (elem_size == 2) {
        uint16_t *q = p, v = (uint16_t)value;
        for (size_t i = 0; i < count; i++)
            q[i] = v;
    } else {
        uint32_t *q = p;
        for (size_t i = 0; i < count; i++)
            q[i] = value;
    }
    return LAT_OK;
}

lat_status lat__emu_memcpy_htod(lat_context *ctx, lat_deviceptr dst, const void *src,
                                size_t bytes)
{
    lat__ck_on_write(ctx, dst, bytes);
    memcpy((void *)(uintptr_t)dst, src, bytes);
    return LAT_OK;
}

lat_status lat__emu_memcpy_dtoh(lat_context *ctx, void *dst, lat_deviceptr src, size_t bytes)
{
    (void)ctx;
    memcpy(dst, (const void *)(uintptr_t)src, bytes);
    return LAT_OK;
}

lat_status lat__emu_memcpy_dtod(lat_context *ctx, lat_deviceptr dst, lat_deviceptr src,
                                size_t bytes)
{
    lat__ck_on_write(ctx, dst, bytes);
    /* Ranges in one allocation may overlap; memmove makes that well defined. */
    memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, bytes);
    return LAT_OK;
}
