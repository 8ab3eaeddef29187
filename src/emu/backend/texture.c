/*
 * The emulator's CUDA arrays, texture objects and surface objects (core/texture.h's
 * operations). An array is host memory, its texels packed row after row; a texture or
 * surface is a slot of the context's table (texobj.h) that kernel code finds by handle
 * (texfetch.c).
 */
#include "emu/runtime/texobj.h"
#include "core/alloc.h"

#include <stdlib.h>
#include <string.h>

/* ---- the table ---------------------------------------------------------------------------- */

static lat__emu_textab *table_of(lat_context *ctx, bool create)
{
    lat__emu_ctx *c = ctx->impl;
    lat__emu_textab *t = atomic_load_explicit(&c->tex, memory_order_acquire);
    if (t || !create)
        return t;
    t = lat__calloc(1, sizeof *t);
    if (!t)
        return NULL;
    if (pthread_mutex_init(&t->lock, NULL) != 0) {
        free(t);
        return NULL;
    }
    static _Atomic uint64_t tags;
    t->tag = atomic_fetch_add(&tags, 1) % 65535 + 1;
    lat__emu_textab *expected = NULL;
    if (!atomic_compare_exchange_strong_explicit(&c->tex, &expected, t, memory_order_acq_rel,
                                                 memory_order_acquire)) {
        pthread_mutex_destroy(&t->lock);
        free(t);
        return expected; /* another thread made it first */
    }
    return t;
}

void lat__emu_textab_free(lat__emu_ctx *c)
{
    lat__emu_textab *t = atomic_load(&c->tex);
    if (!t)
        return;
    for (int i = 0; i < LAT__EMU_TEX_CHUNKS; i++)
        free(atomic_load(&t->chunks[i]));
    free(t->free);
    pthread_mutex_destroy(&t->lock);
    free(t);
    atomic_store(&c->tex, NULL);
}

static lat__emu_texobj *slot_at(lat__emu_textab *t, uint32_t i)
{
    lat__emu_texobj *chunk =
        atomic_load_explicit(&t->chunks[i / LAT__EMU_TEX_CHUNK], memory_order_acquire);
    return chunk ? &chunk[i % LAT__EMU_TEX_CHUNK] : NULL;
}

/* Publishes a copy of *o in a free slot; returns its handle, or 0 when the table is full
 * or memory is out (recorded). */
static uint64_t publish(lat_context *ctx, const lat__emu_texobj *o)
{
    lat__emu_textab *t = table_of(ctx, true);
    if (!t) {
        lat__oom(ctx);
        return 0;
    }
    pthread_mutex_lock(&t->lock);
    uint32_t i;
    if (t->nfree) {
        i = t->free[--t->nfree];
    } else {
        i = atomic_load_explicit(&t->nslots, memory_order_relaxed);
        if (i >= (uint32_t)LAT__EMU_TEX_CHUNK * LAT__EMU_TEX_CHUNKS) {
            pthread_mutex_unlock(&t->lock);
            lat__error(ctx, LAT_ERROR_OUT_OF_MEMORY,
                       "the context already has %d live texture and surface objects, the "
                       "emulator's limit", LAT__EMU_TEX_CHUNK * LAT__EMU_TEX_CHUNKS);
            return 0;
        }
        if (!atomic_load_explicit(&t->chunks[i / LAT__EMU_TEX_CHUNK], memory_order_relaxed)) {
            lat__emu_texobj *chunk = lat__calloc(LAT__EMU_TEX_CHUNK, sizeof *chunk);
            if (!chunk) {
                pthread_mutex_unlock(&t->lock);
                lat__oom(ctx);
                return 0;
            }
            atomic_store_explicit(&t->chunks[i / LAT__EMU_TEX_CHUNK], chunk, memory_order_release);
        }
        atomic_store_explicit(&t->nslots, i + 1, memory_order_release);
    }
    lat__emu_texobj *s = slot_at(t, i);
    uint32_t gen = (atomic_load_explicit(&s->gen, memory_order_relaxed) + 1) & 0xffffffu;
    if (gen == 0)
        gen = 1;
    /* Everything but the atomics, then the generation last: a reader that sees the new
     * generation sees the object. */
    s->kind = o->kind;
    s->res = o->res;
    s->dims = o->dims;
    s->layered = o->layered;
    s->base = o->base;
    s->pitch = o->pitch;
    s->slice = o->slice;
    memcpy(s->size, o->size, sizeof s->size);
    s->layers = o->layers;
    s->format = o->format;
    s->channels = o->channels;
    s->elem = o->elem;
    memcpy(s->address, o->address, sizeof s->address);
    s->filter = o->filter;
    s->normalized_read = o->normalized_read;
    s->normalized_coords = o->normalized_coords;
    memcpy(s->border, o->border, sizeof s->border);
    atomic_store_explicit(&s->orphaned, false, memory_order_relaxed);
    atomic_store_explicit(&s->live, true, memory_order_relaxed);
    atomic_store_explicit(&s->gen, gen, memory_order_release);
    pthread_mutex_unlock(&t->lock);
    return t->tag << 48 | (uint64_t)gen << 24 | (i + 1);
}

static void retire(lat_context *ctx, uint64_t handle)
{
    lat__emu_textab *t = table_of(ctx, false);
    if (!t || !handle)
        return;
    uint32_t i = (uint32_t)(handle & 0xffffffu) - 1;
    pthread_mutex_lock(&t->lock);
    lat__emu_texobj *s = slot_at(t, i);
    if (s && atomic_load(&s->live)) {
        atomic_store_explicit(&s->live, false, memory_order_release);
        if (t->nfree == t->free_cap) {
            size_t cap = t->free_cap ? t->free_cap * 2 : 64;
            uint32_t *p = lat__realloc(t->free, cap * sizeof *p);
            if (p) {
                t->free = p;
                t->free_cap = cap;
            }
        }
        /* Without room the slot is simply never reused. */
        if (t->nfree < t->free_cap)
            t->free[t->nfree++] = i;
    }
    pthread_mutex_unlock(&t->lock);
}

const lat__emu_texobj *lat__emu_texobj_find(const lat__emu_ctx *c, unsigned long long handle,
                                            const char **why)
{
    lat__emu_textab *t = c ? atomic_load_explicit(&((lat__emu_ctx *)c)->tex, memory_order_acquire)
                           : NULL;
    uint32_t i = (uint32_t)(handle & 0xffffffu) - 1, gen = (uint32_t)(handle >> 24) & 0xffffffu;
    if (handle == 0) {
        *why = "the handle is 0 (no object)";
        return NULL;
    }
    if (!t || handle >> 48 != t->tag || (handle & 0xffffffu) == 0 || gen == 0 ||
        i >= atomic_load_explicit(&t->nslots, memory_order_acquire)) {
        *why = "it is not a texture or surface object of this context (never created, or "
               "another context's)";
        return NULL;
    }
    const lat__emu_texobj *s = slot_at(t, i);
    uint32_t now = s ? atomic_load_explicit(&s->gen, memory_order_acquire) : 0;
    if (now != gen) {
        *why = now > gen ? "the object was destroyed" : "it is not a texture or surface object "
                                                        "of this context";
        return NULL;
    }
    if (!atomic_load_explicit(&s->live, memory_order_acquire)) {
        *why = "the object was destroyed";
        return NULL;
    }
    return s;
}

/* ---- arrays ------------------------------------------------------------------------------- */

static lat_status array_create(lat_tex_array *a)
{
    /* Zeroed, so that a read before any copy is the same on every run. */
    void *p = NULL;
    size_t bytes = a->row * a->rows;
    if (posix_memalign(&p, 256, bytes ? bytes : 1) != 0)
        return lat__error(a->ctx, LAT_ERROR_OUT_OF_DEVICE_MEMORY,
                          "cannot allocate %zu bytes for the array", bytes);
    memset(p, 0, bytes);
    a->impl = p;
    return LAT_OK;
}

static void array_destroy(lat_tex_array *a)
{
    free(a->impl);
    a->impl = NULL;
}

static lat_status array_copy(lat_tex_array *a, void *host, size_t pitch, bool to_host)
{
    unsigned char *dev = a->impl;
    for (size_t r = 0; r < a->rows; r++) {
        unsigned char *h = (unsigned char *)host + r * pitch;
        if (to_host)
            memcpy(h, dev + r * a->row, a->row);
        else
            memcpy(dev + r * a->row, h, a->row);
    }
    return LAT_OK;
}

/* The geometry of an array, for a texture or a surface over it. */
static void array_geometry(const lat_tex_array *a, lat__emu_texobj *o)
{
    const lat_tex_array_desc *d = &a->desc;
    o->base = a->impl;
    o->dims = (uint8_t)a->dims;
    o->layered = d->layers != 0;
    o->size[0] = d->width;
    o->size[1] = d->height ? d->height : 1;
    o->size[2] = d->depth ? d->depth : 1;
    o->layers = d->layers ? d->layers : 1;
    o->pitch = a->row;
    o->slice = a->row * o->size[1];
    o->format = d->format;
    o->channels = d->channels;
    o->elem = a->elem;
}

/* ---- textures and surfaces ------------------------------------------------------------------- */

static lat_status texture_create(lat_texture *t)
{
    const lat_texture_desc *d = &t->desc;
    lat__emu_texobj o;
    memset(&o, 0, sizeof o);
    o.kind = LAT__EMU_OBJ_TEXTURE;
    o.res = (uint8_t)t->kind;
    switch (t->kind) {
    case LAT__TEX_ARRAY:
        array_geometry(d->array, &o);
        break;
    case LAT__TEX_LINEAR:
        o.base = (const unsigned char *)(uintptr_t)d->linear.ptr;
        o.dims = 1;
        o.size[0] = d->linear.bytes / t->elem;
        o.size[1] = o.size[2] = o.layers = 1;
        o.pitch = o.slice = d->linear.bytes;
        break;
    case LAT__TEX_PITCH2D:
        o.base = (const unsigned char *)(uintptr_t)d->pitch2d.ptr;
        o.dims = 2;
        o.size[0] = d->pitch2d.width;
        o.size[1] = d->pitch2d.height;
        o.size[2] = o.layers = 1;
        o.pitch = d->pitch2d.pitch;
        o.slice = o.pitch * o.size[1];
        break;
    }
    o.format = t->format;
    o.channels = t->channels;
    o.elem = t->elem;
    memcpy(o.address, d->address_mode, sizeof o.address);
    o.filter = d->filter;
    o.normalized_read = d->read_mode == LAT_READ_NORMALIZED_FLOAT;
    o.normalized_coords = d->normalized_coords != 0;
    memcpy(o.border, d->border_color, sizeof o.border);
    t->handle = publish(t->ctx, &o);
    return t->handle ? LAT_OK : LAT_ERROR_OUT_OF_MEMORY;
}

static void texture_destroy(lat_texture *t)
{
    retire(t->ctx, t->handle);
}

static void texture_orphaned(lat_texture *t)
{
    lat__emu_textab *tab = table_of(t->ctx, false);
    lat__emu_texobj *s = tab ? slot_at(tab, (uint32_t)(t->handle & 0xffffffu) - 1) : NULL;
    if (s)
        atomic_store_explicit(&s->orphaned, true, memory_order_release);
}

static lat_status surface_create(lat_surface *s)
{
    lat__emu_texobj o;
    memset(&o, 0, sizeof o);
    o.kind = LAT__EMU_OBJ_SURFACE;
    o.res = LAT__TEX_ARRAY;
    array_geometry(s->array, &o);
    s->handle = publish(s->ctx, &o);
    return s->handle ? LAT_OK : LAT_ERROR_OUT_OF_MEMORY;
}

static void surface_destroy(lat_surface *s)
{
    retire(s->ctx, s->handle);
}

const lat__texture_ops lat__emu_texture_ops = {
    .array_create = array_create,
    .array_destroy = array_destroy,
    .array_copy = array_copy,
    .texture_create = texture_create,
    .texture_destroy = texture_destroy,
    .surface_create = surface_create,
    .surface_destroy = surface_destroy,
    .texture_orphaned = texture_orphaned,
};
