/*
 * The emulator's texture and surface objects: what a handle stands for (texture.c), and
 * what kernel code calls to read and write through one (texfetch.c, bound by runtime.c).
 *
 * A handle is (context tag << 48) | (generation << 24) | (slot + 1): the tag of the
 * context's table (a number of its own, so that another context's handle is recognised as
 * such), a slot of the table, and the generation of the object that holds it (24 bits,
 * never 0). Slots live in chunks that never move, so a
 * kernel reads the table without a lock while other host threads create objects; a
 * destroyed object's slot is reused with the next generation, so its old handle is
 * recognised as destroyed rather than read as the new object.
 */
#ifndef LAT_EMU_TEXOBJ_H
#define LAT_EMU_TEXOBJ_H

#include "emu/backend/emu.h"
#include "core/texture.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

enum { LAT__EMU_TEX_CHUNK = 1024, LAT__EMU_TEX_CHUNKS = 1024 };

typedef enum lat__emu_texobj_kind {
    LAT__EMU_OBJ_TEXTURE = 1,
    LAT__EMU_OBJ_SURFACE = 2
} lat__emu_texobj_kind;

/* One object: where its texels are and how they are read. Written before the object is
 * published (its generation stored with release order), read-only afterwards but for
 * `orphaned`. */
typedef struct lat__emu_texobj {
    _Atomic uint32_t gen;    /* the generation of the object in the slot */
    atomic_bool live;        /* false once destroyed */
    atomic_bool orphaned;    /* the device memory under it was freed */
    uint8_t kind;            /* lat__emu_texobj_kind */
    uint8_t res;             /* lat__tex_kind */
    uint8_t dims;            /* 1, 2 or 3 */
    bool layered;
    const unsigned char *base; /* texel (0, 0, 0) of layer 0 */
    size_t pitch;            /* bytes from a row to the next */
    size_t slice;            /* bytes from a slice or layer to the next */
    uint64_t size[3];        /* texels in x, y, z (1 where a dimension is absent) */
    uint64_t layers;         /* 1 when not layered */
    lat_format format;
    int channels;
    size_t elem;             /* bytes per texel */
    /* Textures only. */
    lat_address_mode address[3];
    lat_filter_mode filter;
    bool normalized_read;    /* LAT_READ_NORMALIZED_FLOAT */
    bool normalized_coords;
    float border[4];
} lat__emu_texobj;

/* The table of a context's objects (lat__emu_ctx.tex). */
typedef struct lat__emu_textab {
    pthread_mutex_t lock; /* serialises creating and destroying */
    uint64_t tag;         /* 1 to 65535: the context's, in every handle */
    _Atomic(lat__emu_texobj *) chunks[LAT__EMU_TEX_CHUNKS];
    _Atomic uint32_t nslots; /* slots ever used */
    uint32_t *free;          /* indices of free slots */
    size_t nfree, free_cap;
} lat__emu_textab;

/* Frees a context's table (its objects were destroyed first). */
void lat__emu_textab_free(lat__emu_ctx *c);

/* ---- texfetch.c: what kernel code calls (the prelude's texture part) ------------------------ */

/* The result type T of a read, or the value type of a write, as the front end encodes it
 * (src/front/parse_texture.c): channels in bits 0-2 (1, 2 or 4), the scalar in bits 4-7. */
enum {
    LAT__TEXT_S8 = 1, LAT__TEXT_U8 = 2, LAT__TEXT_S16 = 3, LAT__TEXT_U16 = 4,
    LAT__TEXT_S32 = 5, LAT__TEXT_U32 = 6, LAT__TEXT_F32 = 7, LAT__TEXT_S64 = 8,
    LAT__TEXT_U64 = 9
};
/* The call, for op: tex1D ... tex2DLayered, surf1D... (the same numbers in the prelude). */
enum {
    LAT__TEXOP_1D = 1, LAT__TEXOP_2D = 2, LAT__TEXOP_3D = 3, LAT__TEXOP_1D_LAYERED = 4,
    LAT__TEXOP_2D_LAYERED = 5
};

void lat__emu_tex_read(void *out, unsigned type, unsigned long long handle, int op, float x,
                       float y, float z, int layer, const char *file, int line);
void lat__emu_tex_fetch(void *out, unsigned type, unsigned long long handle, int i,
                        const char *file, int line);
void lat__emu_surf_read(void *out, unsigned type, unsigned long long handle, int op, int x,
                        int y, int z, int mode, const char *file, int line);
void lat__emu_surf_write(const void *in, unsigned type, unsigned long long handle, int op,
                         int x, int y, int z, int mode, const char *file, int line);

/* The object a handle stands for in the launch's context, or NULL with *why set. */
const lat__emu_texobj *lat__emu_texobj_find(const lat__emu_ctx *c, unsigned long long handle,
                                            const char **why);

#endif
