/*
 * Cross-checking (cross.c) for arrays, textures and surfaces: each object is a pair, the
 * primary's and the emulator's, made through the public API on each side; the program
 * sees the primary's handles. A launch's texture and surface parameters are given the
 * emulator's handles (lat__cross_texture_params), and after the launch the arrays under
 * its surface parameters are compared as buffers are (lat__cross_compare_surfaces).
 */
#include "cross.h"
#include "core/alloc.h"
#include "texture.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pair {
    void *a, *b;
} pair;

static lat__cross_ctx *cx(const lat_context *ctx)
{
    return ctx->impl;
}

static pair *pair_new(lat_context *ctx)
{
    pair *p = lat__calloc(1, sizeof *p);
    if (!p)
        lat__oom(ctx);
    return p;
}

/* ---- arrays ------------------------------------------------------------------------------- */

static lat_status array_create(lat_tex_array *a)
{
    lat__cross_ctx *c = cx(a->ctx);
    pair *p = pair_new(a->ctx);
    if (!p)
        return LAT_ERROR_OUT_OF_MEMORY;
    lat_tex_array *pa = NULL, *pb = NULL;
    lat_status st = lat_tex_array_create(c->a, &a->desc, &pa);
    if (st == LAT_OK)
        st = lat_tex_array_create(c->b, &a->desc, &pb);
    if (st != LAT_OK) {
        lat_tex_array_destroy(pa);
        free(p);
        return st;
    }
    p->a = pa;
    p->b = pb;
    a->impl = p;
    return LAT_OK;
}

static void array_destroy(lat_tex_array *a)
{
    pair *p = a->impl;
    lat_tex_array_destroy(p->a);
    lat_tex_array_destroy(p->b);
    free(p);
    a->impl = NULL;
}

static lat_status array_copy(lat_tex_array *a, void *host, size_t pitch, bool to_host)
{
    pair *p = a->impl;
    /* The program sees the primary's texels; the launches that wrote them were compared. */
    if (to_host)
        return lat_tex_array_copy_to_host(p->a, host, pitch);
    lat_status st = lat_tex_array_copy_from_host(p->a, host, pitch);
    if (st == LAT_OK)
        st = lat_tex_array_copy_from_host(p->b, host, pitch);
    return st;
}

/* ---- textures and surfaces ------------------------------------------------------------------ */

static lat_status texture_create(lat_texture *t)
{
    lat__cross_ctx *c = cx(t->ctx);
    pair *p = pair_new(t->ctx);
    if (!p)
        return LAT_ERROR_OUT_OF_MEMORY;
    lat_texture_desc da = t->desc, db = t->desc;
    if (t->kind == LAT__TEX_ARRAY) {
        pair *ap = t->desc.array->impl;
        da.array = ap->a;
        db.array = ap->b;
    } else if (t->kind == LAT__TEX_LINEAR) {
        db.linear.ptr = lat__cross_translate(c, t->desc.linear.ptr);
    } else {
        db.pitch2d.ptr = lat__cross_translate(c, t->desc.pitch2d.ptr);
    }
    lat_texture *ta = NULL, *tb = NULL;
    lat_status st = lat_texture_create(c->a, &da, &ta);
    if (st == LAT_OK)
        st = lat_texture_create(c->b, &db, &tb);
    if (st != LAT_OK) {
        lat_texture_destroy(ta);
        free(p);
        return st;
    }
    p->a = ta;
    p->b = tb;
    t->impl = p;
    t->handle = lat_texture_handle(ta);
    return LAT_OK;
}

static void texture_destroy(lat_texture *t)
{
    pair *p = t->impl;
    lat_texture_destroy(p->a);
    lat_texture_destroy(p->b);
    free(p);
}

static lat_status surface_create(lat_surface *s)
{
    lat__cross_ctx *c = cx(s->ctx);
    pair *p = pair_new(s->ctx);
    if (!p)
        return LAT_ERROR_OUT_OF_MEMORY;
    pair *ap = s->array->impl;
    lat_surface *sa = NULL, *sb = NULL;
    lat_status st = lat_surface_create(c->a, ap->a, &sa);
    if (st == LAT_OK)
        st = lat_surface_create(c->b, ap->b, &sb);
    if (st != LAT_OK) {
        lat_surface_destroy(sa);
        free(p);
        return st;
    }
    p->a = sa;
    p->b = sb;
    s->impl = p;
    s->handle = lat_surface_handle(sa);
    return LAT_OK;
}

static void surface_destroy(lat_surface *s)
{
    pair *p = s->impl;
    lat_surface_destroy(p->a);
    lat_surface_destroy(p->b);
    free(p);
}

const lat__texture_ops lat__cross_texture_ops = {
    .array_create = array_create,
    .array_destroy = array_destroy,
    .array_copy = array_copy,
    .texture_create = texture_create,
    .texture_destroy = texture_destroy,
    .surface_create = surface_create,
    .surface_destroy = surface_destroy,
    .texture_orphaned = NULL, /* each side's own lat_mem_free tells it */
};

/* ---- launches ------------------------------------------------------------------------------ */

/* What a kernel parameter is, by the type its source spells: 1 texture object, 2 surface
 * object, 0 neither, -1 unknown (no signature). */
static int param_object(const lat_kernel *kernel, int i)
{
    const lat__kernel_sig *sig = kernel->sig;
    if (!sig || sig->nparams != kernel->nparams || i >= sig->nparams)
        return -1;
    const char *type = sig->params[i].type;
    if (!type || strchr(type, '*'))
        return 0;
    return strstr(type, "cudaTextureObject_t") ? 1 : strstr(type, "cudaSurfaceObject_t") ? 2 : 0;
}

/* The emulator's handle for primary handle v, looked up among the context's live textures
 * (kind 1) or surfaces (kind 2), or any (kind -1); 0 when none is v. Also the surface's
 * pair of arrays. */
static uint64_t find_handle(lat_context *ctx, uint64_t v, int kind, lat_surface **surf)
{
    lat__tex_ctx *tc = ctx->tex;
    uint64_t out = 0;
    if (!tc || v == 0)
        return 0;
    pthread_mutex_lock(&tc->lock);
    for (lat_texture *t = tc->textures; t && !out && kind != 2; t = t->next)
        if (t->handle == v)
            out = lat_texture_handle(((pair *)t->impl)->b);
    for (lat_surface *s = tc->surfaces; s && !out && kind != 1; s = s->next)
        if (s->handle == v) {
            out = lat_surface_handle(((pair *)s->impl)->b);
            if (surf)
                *surf = s;
        }
    pthread_mutex_unlock(&tc->lock);
    return out;
}

void lat__cross_texture_param(lat_context *ctx, const lat_kernel *kernel, int i, void *value,
                              size_t size)
{
    int kind = param_object(kernel, i);
    if (!ctx->tex || kind == 0 || size != 8)
        return;
    uint64_t v;
    memcpy(&v, value, 8);
    uint64_t b = find_handle(ctx, v, kind, NULL);
    if (b)
        memcpy(value, &b, 8);
}

lat_status lat__cross_compare_surfaces(lat_context *ctx, lat_kernel *kernel, void **params)
{
    if (!ctx->tex || !params)
        return LAT_OK;
    for (int i = 0; i < kernel->nparams; i++) {
        if (param_object(kernel, i) != 2 || !kernel->param_size || kernel->param_size[i] != 8)
            continue;
        uint64_t v;
        memcpy(&v, params[i], 8);
        lat_surface *s = NULL;
        if (!find_handle(ctx, v, 2, &s) || !s)
            continue;
        pair *ap = s->array->impl;
        lat_tex_array *arr = s->array;
        size_t bytes = arr->row * arr->rows;
        unsigned char *ga = lat__malloc(bytes), *eb = lat__malloc(bytes);
        lat_status st = ga && eb ? LAT_OK
                                 : lat__error(ctx, LAT_ERROR_OUT_OF_MEMORY,
                                              "cross-check: out of host memory comparing %zu bytes",
                                              bytes);
        if (st == LAT_OK)
            st = lat_tex_array_copy_to_host(ap->a, ga, 0);
        if (st == LAT_OK)
            st = lat_tex_array_copy_to_host(ap->b, eb, 0);
        if (st == LAT_OK) {
            /* Floating texels within the tolerance, field by field; integers exactly. */
            lat__elem_field fields[4];
            lat__elem_layout layout = {(uint32_t)arr->elem, 0, fields};
            size_t fs = lat_format_size(arr->desc.format);
            uint8_t kind = arr->desc.format == LAT_FORMAT_F32   ? LAT__SCALAR_F32
                           : arr->desc.format == LAT_FORMAT_F16 ? LAT__SCALAR_F16
                                                                : LAT__SCALAR_EXACT;
            if (kind != LAT__SCALAR_EXACT)
                for (int k = 0; k < arr->desc.channels; k++)
                    fields[layout.nfields++] = (lat__elem_field){(uint32_t)(k * fs), kind};
            lat__cross_diff d;
            if (lat__cross_compare_bytes(ga, eb, bytes, &layout, ctx->drv->cross_rtol,
                                         ctx->drv->cross_atol, &d)) {
                size_t texel = d.first / arr->elem, w = arr->desc.width;
                size_t x = texel % w, y = texel / w;
                const char *pname = kernel->sig && kernel->sig->params[i].name
                                        ? kernel->sig->params[i].name
                                        : "?";
                st = lat__error(ctx, LAT_ERROR_CROSS_MISMATCH,
                                "cross-check: kernel '%s', surface parameter %d ('%s'): the "
                                "array's texel %zu (x %zu, row %zu counting every slice and "
                                "layer) differs: %s %.9g, emulator %.9g (%zu texel values "
                                "differ)",
                                kernel->name, i, pname, texel, x, y,
                                lat_backend_name(lat_context_backend(cx(ctx)->a)), d.first_gpu,
                                d.first_emu, d.ndiff);
            }
        }
        free(ga);
        free(eb);
        if (st != LAT_OK)
            return st;
    }
    return LAT_OK;
}
