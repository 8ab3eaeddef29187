/*
 * The device allocations of a checked context as the checks see them (ck.h): each with
 * its initcheck bytes (one per byte: written or not), its racecheck records (two per
 * 4-byte granule: the last write and the last read), its label and its thread map.
 *
 * The emulator's memory functions report allocations, frees and host-side writes as they
 * happen (lat__ck_on_*). Before each checked launch the table is also brought in line
 * with the core's, so that memory the hooks did not see (a pool, a peer copy) is known
 * too; such memory counts as written, since nothing says otherwise.
 */
#include "ck.h"

#include "driver_ops.h"
#include "emu/backend/emu.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Bytes kept unused after each allocation of a context with memcheck, so that an
 * overrun lands in no allocation (and is reported as one) rather than in the next. */
enum { PAD = 1024, NEAR = 64 * 1024 };

size_t lat__ck_alloc_pad(const lat_context *ctx)
{
    return ctx && ctx->check && (ctx->check->modes & LAT_CHECK_MEMCHECK) ? PAD : 0;
}

void lat__ck_region_release(lat__ck_region *r)
{
    free(r->init);
    if (r->race)
        munmap(r->race, r->race_bytes);
    free(r->name);
    if (r->map) {
        lat__ck_map_free(r->map);
    }
    memset(r, 0, sizeof *r);
}

/* Index of the first region whose base is > a. */
static size_t upper(const lat__ck_ctx *ck, uintptr_t a)
{
    size_t lo = 0, hi = ck->nregions;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ck->regions[mid].base <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

lat__ck_region *lat__ck_region_find(lat__ck_ctx *ck, uintptr_t a)
{
    size_t i = upper(ck, a);
    if (i == 0)
        return NULL;
    lat__ck_region *r = &ck->regions[i - 1];
    return a - r->base < r->size ? r : NULL;
}

lat__ck_region *lat__ck_region_nearest(lat__ck_ctx *ck, uintptr_t a)
{
    size_t i = upper(ck, a);
    lat__ck_region *before = i > 0 ? &ck->regions[i - 1] : NULL;
    lat__ck_region *after = i < ck->nregions ? &ck->regions[i] : NULL;
    uintptr_t db = before ? a - (before->base + before->size) : UINTPTR_MAX;
    uintptr_t da = after ? after->base - a : UINTPTR_MAX;
    if (before && db <= da && db < NEAR)
        return before;
    if (after && da < NEAR)
        return after;
    return NULL;
}

const lat__ck_freed *lat__ck_freed_find(const lat__ck_ctx *ck, uintptr_t a, size_t n)
{
    /* Most recent first: the memory may have been freed and handed out again. */
    for (size_t k = 0; k < ck->nfreed; k++) {
        size_t i = (ck->freed_next + LAT__CK_MAX_FREED - 1 - k) % LAT__CK_MAX_FREED;
        const lat__ck_freed *f = &ck->freed[i];
        if (a >= f->base && a + n <= f->base + f->size + PAD)
            return f;
    }
    return NULL;
}

/* Makes a region's shadows: fresh memory is unwritten, memory of unknown history is
 * taken as written. false when out of memory. */
static bool shadows(const lat__ck_ctx *ck, lat__ck_region *r, bool fresh)
{
    if (ck->modes & LAT_CHECK_INITCHECK) {
        r->init = fresh ? calloc(r->size, 1) : malloc(r->size);
        if (!r->init)
            return false;
        if (!fresh)
            memset(r->init, 1, r->size);
    }
    if (ck->modes & LAT_CHECK_RACECHECK) {
        size_t bytes = (r->size / 4 + 1) * 2 * sizeof(lat__ck_rec);
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            return false;
        r->race = p;
        r->race_bytes = bytes;
    }
    r->fresh = fresh;
    return true;
}

static bool insert(lat__ck_ctx *ck, uintptr_t base, size_t size, bool fresh)
{
    if (ck->nregions == ck->regions_cap) {
        size_t cap = ck->regions_cap ? ck->regions_cap * 2 : 16;
        lat__ck_region *p = realloc(ck->regions, cap * sizeof *p);
        if (!p)
            return false;
        ck->regions = p;
        ck->regions_cap = cap;
    }
    lat__ck_region r;
    memset(&r, 0, sizeof r);
    r.base = base;
    r.size = size;
    if (!shadows(ck, &r, fresh)) {
        lat__ck_region_release(&r);
        return false;
    }
    size_t i = upper(ck, base);
    memmove(&ck->regions[i + 1], &ck->regions[i], (ck->nregions - i) * sizeof *ck->regions);
    ck->regions[i] = r;
    ck->nregions++;
    return true;
}

/* Forgets region i, remembering it as freed. */
static void remove_at(lat__ck_ctx *ck, size_t i)
{
    lat__ck_region *r = &ck->regions[i];
    if (ck->freed) {
        lat__ck_freed *f = &ck->freed[ck->freed_next];
        free(f->name);
        *f = (lat__ck_freed){r->base, r->size, r->name};
        r->name = NULL;
        ck->freed_next = (ck->freed_next + 1) % LAT__CK_MAX_FREED;
        if (ck->nfreed < LAT__CK_MAX_FREED)
            ck->nfreed++;
    }
    lat__ck_region_release(r);
    memmove(&ck->regions[i], &ck->regions[i + 1], (ck->nregions - i - 1) * sizeof *ck->regions);
    ck->nregions--;
}

void lat__ck_on_alloc(lat_context *ctx, lat_deviceptr base, size_t size)
{
    lat__ck_ctx *ck = ctx ? ctx->check : NULL;
    if (!ck)
        return;
    pthread_mutex_lock(&ck->lock);
    lat__ck_region *old = lat__ck_region_find(ck, (uintptr_t)base);
    if (old)
        remove_at(ck, (size_t)(old - ck->regions)); /* freed behind our back */
    if (!insert(ck, (uintptr_t)base, size, true))
        lat__log(ctx, LAT_LOG_WARNING, "lattice checks: out of host memory for the shadow of "
                 "an allocation of %zu bytes; it is not checked", size);
    pthread_mutex_unlock(&ck->lock);
}

void lat__ck_on_free(lat_context *ctx, lat_deviceptr base)
{
    lat__ck_ctx *ck = ctx ? ctx->check : NULL;
    if (!ck)
        return;
    pthread_mutex_lock(&ck->lock);
    lat__ck_region *r = lat__ck_region_find(ck, (uintptr_t)base);
    if (r && r->base == (uintptr_t)base)
        remove_at(ck, (size_t)(r - ck->regions));
    pthread_mutex_unlock(&ck->lock);
}

void lat__ck_on_write(lat_context *ctx, lat_deviceptr dst, size_t bytes)
{
    lat__ck_ctx *ck = ctx ? ctx->check : NULL;
    if (!ck || !(ck->modes & LAT_CHECK_INITCHECK))
        return;
    pthread_mutex_lock(&ck->lock);
    lat__ck_region *r = lat__ck_region_find(ck, (uintptr_t)dst);
    if (r && r->init) {
        size_t off = (uintptr_t)dst - r->base;
        memset(r->init + off, 1, bytes <= r->size - off ? bytes : r->size - off);
    }
    pthread_mutex_unlock(&ck->lock);
}

bool lat__ck_extra_find(const lat__ck_ctx *ck, uintptr_t a, size_t n)
{
    for (size_t i = 0; i < ck->nextra; i++)
        if (a >= ck->extra[i].lo && a + n <= ck->extra[i].hi)
            return true;
    return false;
}

static bool add_extra(lat__ck_ctx *ck, uintptr_t lo, size_t size)
{
    if (ck->nextra == ck->extra_cap) {
        size_t cap = ck->extra_cap ? ck->extra_cap * 2 : 16;
        struct lat__ck_range *p = realloc(ck->extra, cap * sizeof *p);
        if (!p)
            return false;
        ck->extra = p;
        ck->extra_cap = cap;
    }
    ck->extra[ck->nextra++] = (struct lat__ck_range){lo, lo + size};
    return true;
}

size_t lat__ck_written_up_to(const uint8_t *init, size_t from, size_t size)
{
    const uint8_t *unset = memchr(init + from, 0, size - from);
    return unset ? (size_t)(unset - init) : size;
}

void lat__ck_regions_scan_written(lat__ck_ctx *ck)
{
    for (size_t i = 0; i < ck->nregions; i++) {
        lat__ck_region *r = &ck->regions[i];
        if (r->init)
            r->init_prefix = lat__ck_written_up_to(r->init, r->init_prefix, r->size);
    }
}

void lat__ck_regions_mark_written(lat__ck_ctx *ck, const lat__ck_kernel *kk, void **params)
{
    bool all = kk->nwrites < 0;
    for (size_t i = 0; i < ck->nregions; i++)
        ck->regions[i].written_now = false;
    for (int i = 0; i < kk->nwrites && !all; i++) {
        void *p;
        memcpy(&p, params[kk->writes[i]], sizeof p);
        /* A pointer outside every allocation (one past an end, host memory) may reach
         * any of them by its arithmetic. */
        lat__ck_region *r = lat__ck_region_find(ck, (uintptr_t)p);
        if (r)
            r->written_now = true;
        all = !r;
    }
    for (size_t i = 0; all && i < ck->nregions; i++)
        ck->regions[i].written_now = true;
}

lat_status lat__ck_regions_sync(lat__ck_ctx *ck)
{
    lat_context *ctx = ck->ctx;
    bool ok = true;
    ck->nextra = 0;
    pthread_mutex_lock(&ctx->drv->lock);
    for (size_t i = 0; i < ctx->drv->nhost; i++)
        ok &= add_extra(ck, (uintptr_t)ctx->drv->host[i].base, ctx->drv->host[i].size);
    pthread_mutex_unlock(&ctx->drv->lock);
    pthread_mutex_lock(&ctx->lock);
    for (const lat_module *m = ctx->modules; m; m = m->next) {
        const lat__emu_module *em = m->impl;
        /* Its variables (a kernel may be given another module's variable's address). */
        for (int i = 0; em && i < em->nglobals; i++)
            if (em->globals[i].addr)
                ok &= add_extra(ck, (uintptr_t)em->globals[i].addr, em->globals[i].size);
    }
    size_t n = ctx->nallocs;
    lat__alloc *copy = malloc((n ? n : 1) * sizeof *copy);
    if (copy && n)
        memcpy(copy, ctx->allocs, n * sizeof *copy);
    pthread_mutex_unlock(&ctx->lock);
    if (!copy || !ok) {
        free(copy);
        return LAT_ERROR_OUT_OF_MEMORY;
    }
    /* Both lists are sorted by base: walk them together. */
    size_t i = 0, j = 0;
    lat_status st = LAT_OK;
    while (i < ck->nregions || j < n) {
        lat__ck_region *r = i < ck->nregions ? &ck->regions[i] : NULL;
        const lat__alloc *a = j < n ? &copy[j] : NULL;
        if (r && a && r->base == a->base && r->size == a->size) {
            i++;
            j++;
        } else if (r && (!a || r->base <= a->base)) {
            remove_at(ck, i); /* gone, or replaced by one of another size */
        } else {
            if (!insert(ck, (uintptr_t)a->base, a->size, false)) {
                st = LAT_ERROR_OUT_OF_MEMORY;
                break;
            }
            i++;
            j++;
        }
    }
    free(copy);
    return st;
}
