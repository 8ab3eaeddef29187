/*
 * CUDA arrays, texture objects and surface objects (lattice/texture.h): the core's
 * objects and the backends' table of operations for them.
 *
 * The core (texture.c) validates every descriptor, normalises it (defaults filled in,
 * the resource's kind decided, sizes computed) and keeps each context's live objects in
 * lists, so that the context's destruction destroys them in order: textures and
 * surfaces, then arrays. An array is reference-counted by the textures and surfaces made
 * over it, so destroying it first never leaves them reading freed storage.
 *
 * Each backend provides one lat__texture_ops table (lat__backend.texture). Operations may
 * assume what the core checked: descriptors valid for the device, device ranges inside
 * one live allocation of the context, arrays of the context and not destroyed.
 */
#ifndef LAT_CORE_TEXTURE_H
#define LAT_CORE_TEXTURE_H

#include "backend.h"
#include "lattice/texture.h"

/* Where a texture's texels live. */
typedef enum lat__tex_kind {
    LAT__TEX_ARRAY = 0,   /* a CUDA array (desc.array) */
    LAT__TEX_LINEAR = 1,  /* device memory, read with tex1Dfetch (desc.linear) */
    LAT__TEX_PITCH2D = 2  /* pitched device memory, read as 2-D (desc.pitch2d) */
} lat__tex_kind;

struct lat_tex_array {
    lat_context *ctx;
    lat_tex_array_desc desc; /* format and channels filled in */
    size_t elem;             /* bytes per texel */
    size_t row;              /* bytes per row: width * elem */
    size_t rows;             /* rows in all: max(height, 1) * max(depth, 1) * max(layers, 1) */
    int dims;                /* 1, 2 or 3 (a layered array: its layers' dimensions) */
    void *impl;              /* backend state */
    int refs;                /* the user's (until destroyed) and each texture's and surface's;
                                under the context's texture lock */
    bool destroyed;          /* the user destroyed it; freed when refs reaches 0 */
    struct lat_tex_array *prev, *next;
};

struct lat_texture {
    lat_context *ctx;
    lat_texture_desc desc;   /* as given, the resource's format and channels filled in */
    lat__tex_kind kind;
    lat_format format;       /* the texels' */
    int channels;
    size_t elem;             /* bytes per texel */
    lat_deviceptr alloc_base; /* LINEAR, PITCH2D: the allocation the texels are in */
    uint64_t handle;         /* what kernels take; set by texture_create */
    void *impl;
    struct lat_texture *prev, *next;
};

struct lat_surface {
    lat_context *ctx;
    lat_tex_array *array;
    uint64_t handle;
    void *impl;
    struct lat_surface *prev, *next;
};

/* ctx->tex: the context's live objects. Made on first use. */
typedef struct lat__tex_ctx {
    pthread_mutex_t lock; /* guards the lists and every array's refs */
    lat_tex_array *arrays;
    lat_texture *textures;
    lat_surface *surfaces;
} lat__tex_ctx;

typedef struct lat__texture_ops {
    /* a->ctx, desc, elem, row, rows and dims set; sets a->impl. */
    lat_status (*array_create)(lat_tex_array *a);
    /* No texture or surface uses it any more. */
    void (*array_destroy)(lat_tex_array *a);
    /* The whole array from or to host memory whose rows are `pitch` bytes apart (pitch >=
     * a->row), slices and layers a->desc.height (or 1) rows apart. Synchronous, ordered
     * after earlier launches. */
    lat_status (*array_copy)(lat_tex_array *a, void *host, size_t pitch, bool to_host);
    /* t->ctx, desc, kind, format, channels, elem set (and alloc_base for memory);
     * sets t->handle (never 0) and t->impl. */
    lat_status (*texture_create)(lat_texture *t);
    void (*texture_destroy)(lat_texture *t);
    /* s->ctx and s->array set (an array made with desc.surface); sets s->handle, s->impl. */
    lat_status (*surface_create)(lat_surface *s);
    void (*surface_destroy)(lat_surface *s);
    /* Optional: the device memory under t was freed; later reads may fail clearly. */
    void (*texture_orphaned)(lat_texture *t);
} lat__texture_ops;

extern const lat__texture_ops lat__cuda_texture_ops;
extern const lat__texture_ops lat__emu_texture_ops;
extern const lat__texture_ops lat__cross_texture_ops;

/* context.c: destroys the context's textures, surfaces and arrays (before its memory). */
void lat__texture_context_release(lat_context *ctx);
/* memory.c: the allocation starting at base was freed: textures over it are orphaned. */
void lat__texture_memory_freed(lat_context *ctx, lat_deviceptr base);

/* Bytes of one texel of format f with n channels (0 for an unknown format). */
size_t lat__texel_size(lat_format f, int channels);

#endif
