/* Emulator memory: device memory is host memory, and a device address is the host
 * address. The core checks every range before these run. */
#include "emu.h"

#include "check/ck.h"

#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static size_t ram_bytes_cached;
static pthread_once_t ram_once = PTHREAD_ONCE_INIT;
/* Bytes the emulator's devices have handed out (malloc_usable_size of each allocation). */
static _Atomic size_t used_bytes;

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
 * 4.5 GB" guard) sees a device's bound, not the host's. A malformed value fails
 * lat_context_create (emu.c); here it reads as the default. */
static size_t total_memory(void)
{
    pthread_once(&ram_once, read_ram);
    size_t bound;
    if (!lat__emu_memory_parse(lat__env(LAT_ENV_EMU_MEMORY), &bound))
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

lat_status lat__emu_mem_alloc(lat_context *ctx, size_t bytes, lat_deviceptr *out)
{
    void *p = NULL;
    /* A request beyond what is left of the device's memory fails here, as it does on a
     * GPU, rather than counting on the host's allocator (or a sanitizer's) to refuse. */
    size_t total = total_memory(), used = atomic_load(&used_bytes);
    if (bytes > total || used > total - bytes)
        return lat__error(ctx, LAT_ERROR_OUT_OF_DEVICE_MEMORY,
                          "lat_mem_alloc: %zu bytes is more than the emulated device has left "
                          "(%zu of its %zu bytes in use; LATTICE_EMU_MEMORY sets its size)",
                          bytes, used, total);
    /* 512-byte alignment: cuMemAlloc's addresses meet a GPU's texture alignment (512 bytes),
     * so that textures can be made over any allocation on both backends. */
    size_t padded = bytes + lat__ck_alloc_pad(ctx);
    size_t align = padded >= HUGE_PAGE ? HUGE_PAGE : 512;
    if (posix_memalign(&p, align, padded) != 0 || !p)
        return lat__error(ctx, LAT_ERROR_OUT_OF_DEVICE_MEMORY,
                          "lat_mem_alloc: the emulator could not allocate %zu bytes of host "
                          "memory", bytes);
    if (align == HUGE_PAGE)
        advise_huge_pages(p, padded);
    *out = (lat_deviceptr)(uintptr_t)p;
    atomic_fetch_add(&used_bytes, malloc_usable_size(p));
    lat__ck_on_alloc(ctx, *out, bytes); /* the checks (check/shadow.c) */
    return LAT_OK;
}

lat_status lat__emu_mem_free(lat_context *ctx, lat_deviceptr ptr)
{
    lat__ck_on_free(ctx, ptr);
    atomic_fetch_sub(&used_bytes, malloc_usable_size((void *)(uintptr_t)ptr));
    free((void *)(uintptr_t)ptr);
    return LAT_OK;
}

lat_status lat__emu_mem_info(lat_context *ctx, size_t *free_bytes, size_t *total_bytes)
{
    (void)ctx;
    size_t total = total_memory(), used = atomic_load(&used_bytes);
    long page = sysconf(_SC_PAGESIZE);
    long avail = sysconf(_SC_AVPHYS_PAGES);
    size_t host_free = page > 0 && avail > 0 ? (size_t)page * (size_t)avail : total;
    if (total_bytes)
        *total_bytes = total;
    if (free_bytes) {
        size_t left = used < total ? total - used : 0;
        *free_bytes = left < host_free ? left : host_free;
    }
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
