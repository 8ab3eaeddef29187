/*
 * Comparing the two sides after a cross-checked launch: every allocation an argument of
 * the kernel points into (or every live one, LATTICE_CROSS_COMPARE=all) is read back from
 * the GPU and from the emulator and compared. The element type comes from the pointer
 * parameter's declared type: float and double data within the context's tolerance
 * (|gpu - emu| <= atol + rtol * |emu|; NaN equals NaN), everything else byte for byte.
 * The first difference fails the launch with LAT_ERROR_CROSS_MISMATCH, naming the kernel,
 * the parameter, the buffer, the element and both values.
 */
#include "cross.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum elem { ELEM_BYTES, ELEM_F32, ELEM_F64 } elem;

typedef struct target {
    lat__cross_pair pair;
    elem type;
    int param; /* the parameter that pointed into it, -1 with LATTICE_CROSS_COMPARE=all */
} target;

/* The element type a pointer parameter's type names ("const float *", "double*"). */
static elem elem_of(const char *type)
{
    if (!type || !strchr(type, '*'))
        return ELEM_BYTES;
    if (strstr(type, "double"))
        return ELEM_F64;
    if (strstr(type, "float"))
        return ELEM_F32; /* float, float2, float4...: arrays of floats all */
    return ELEM_BYTES;
}

static bool close_enough(double g, double e, double rtol, double atol)
{
    if (isnan(g) || isnan(e))
        return isnan(g) && isnan(e);
    if (isinf(g) || isinf(e))
        return g == e;
    return fabs(g - e) <= atol + rtol * fabs(e);
}

/* Adds the allocation containing primary address v (if any, and not yet listed). */
static void add_target(lat__cross_ctx *c, target **list, size_t *n, size_t *cap,
                       lat_deviceptr v, elem type, int param)
{
    if (v == 0)
        return;
    lat__cross_pair found = {0, 0, 0};
    pthread_mutex_lock(&c->lock);
    for (size_t i = 0; i < c->npairs; i++) {
        if (v >= c->pairs[i].a && v - c->pairs[i].a <= c->pairs[i].size) {
            found = c->pairs[i];
            if (v - c->pairs[i].a < c->pairs[i].size)
                break; /* strictly inside wins over one-past-the-end */
        }
    }
    pthread_mutex_unlock(&c->lock);
    if (!found.a)
        return;
    for (size_t i = 0; i < *n; i++) {
        if ((*list)[i].pair.a == found.a) {
            if ((*list)[i].type == ELEM_BYTES && type != ELEM_BYTES) {
                (*list)[i].type = type;
                (*list)[i].param = param;
            }
            return;
        }
    }
    if (*n == *cap) {
        size_t nc = *cap ? *cap * 2 : 8;
        target *p = realloc(*list, nc * sizeof *p);
        if (!p)
            return; /* out of memory: that buffer goes unchecked */
        *list = p;
        *cap = nc;
    }
    (*list)[(*n)++] = (target){found, type, param};
}

static lat_status mismatch(lat_context *ctx, lat_kernel *kernel, const lat__launch *l,
                           const target *t, size_t index, const char *what, const char *gpu,
                           const char *emu, size_t ndiff)
{
    const lat__param *p = kernel->sig && t->param >= 0 && t->param < kernel->sig->nparams
                              ? &kernel->sig->params[t->param]
                              : NULL;
    char param[160];
    if (t->param < 0)
        snprintf(param, sizeof param, "a live allocation");
    else
        snprintf(param, sizeof param, "parameter %d%s%s%s (%s)", t->param,
                 p && p->name[0] ? " '" : "", p ? p->name : "", p && p->name[0] ? "'" : "",
                 p ? p->type : "type unknown");
    return lat__error(ctx, LAT_ERROR_CROSS_MISMATCH,
                      "cross-check: kernel '%s' (grid (%u, %u, %u), block (%u, %u, %u)): %s "
                      "points into the buffer at 0x%" PRIx64 " (%zu bytes), whose %s %zu "
                      "differs: %s %s, emulator %s%s; %zu element%s differ%s",
                      kernel->name, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1],
                      l->block[2], param, t->pair.a, t->pair.size, what, index,
                      lat_backend_name(lat_context_backend(((lat__cross_ctx *)ctx->impl)->a)),
                      gpu, emu,
                      t->type == ELEM_BYTES ? "" : " (beyond the tolerance)", ndiff,
                      ndiff == 1 ? "" : "s", ndiff == 1 ? "s" : "");
}

/* Compares one buffer; LAT_OK when equal. */
static lat_status compare_one(lat_context *ctx, lat_kernel *kernel, const lat__launch *l,
                              const target *t, unsigned char *ga, unsigned char *eb)
{
    lat__cross_ctx *c = ctx->impl;
    double rtol = ctx->drv->cross_rtol, atol = ctx->drv->cross_atol;
    lat_status st = lat_memcpy_dtoh(c->a, ga, t->pair.a, t->pair.size);
    if (st == LAT_OK)
        st = lat_memcpy_dtoh(c->b, eb, t->pair.b, t->pair.size);
    if (st != LAT_OK || memcmp(ga, eb, t->pair.size) == 0)
        return st;
    size_t esize = t->type == ELEM_F64 ? 8 : t->type == ELEM_F32 ? 4 : 1;
    size_t nelem = t->pair.size / esize, first = SIZE_MAX, ndiff = 0;
    for (size_t i = 0; i < nelem; i++) {
        bool same;
        if (t->type == ELEM_F32) {
            float g, e;
            memcpy(&g, ga + 4 * i, 4);
            memcpy(&e, eb + 4 * i, 4);
            same = close_enough(g, e, rtol, atol);
        } else if (t->type == ELEM_F64) {
            double g, e;
            memcpy(&g, ga + 8 * i, 8);
            memcpy(&e, eb + 8 * i, 8);
            same = close_enough(g, e, rtol, atol);
        } else {
            same = ga[i] == eb[i];
        }
        if (!same) {
            ndiff++;
            if (first == SIZE_MAX)
                first = i;
        }
    }
    /* A tail shorter than one element compares byte for byte. */
    size_t tail_first = SIZE_MAX;
    for (size_t i = nelem * esize; i < t->pair.size; i++) {
        if (ga[i] != eb[i]) {
            ndiff++;
            if (tail_first == SIZE_MAX)
                tail_first = i;
        }
    }
    if (ndiff == 0)
        return LAT_OK; /* differences within the tolerance */
    char g[64], e[64];
    if (first == SIZE_MAX) {
        snprintf(g, sizeof g, "0x%02x", ga[tail_first]);
        snprintf(e, sizeof e, "0x%02x", eb[tail_first]);
        target bytes = *t;
        bytes.type = ELEM_BYTES;
        return mismatch(ctx, kernel, l, &bytes, tail_first, "byte", g, e, ndiff);
    }
    if (t->type == ELEM_F32) {
        float gv, ev;
        memcpy(&gv, ga + 4 * first, 4);
        memcpy(&ev, eb + 4 * first, 4);
        snprintf(g, sizeof g, "%.9g", (double)gv);
        snprintf(e, sizeof e, "%.9g", (double)ev);
        return mismatch(ctx, kernel, l, t, first, "float element", g, e, ndiff);
    }
    if (t->type == ELEM_F64) {
        double gv, ev;
        memcpy(&gv, ga + 8 * first, 8);
        memcpy(&ev, eb + 8 * first, 8);
        snprintf(g, sizeof g, "%.17g", gv);
        snprintf(e, sizeof e, "%.17g", ev);
        return mismatch(ctx, kernel, l, t, first, "double element", g, e, ndiff);
    }
    /* Bytes: show the aligned 32-bit word around the byte too, which is what most
     * integer data is. */
    size_t w = first / 4 * 4;
    if (w + 4 <= t->pair.size) {
        uint32_t gw, ew;
        memcpy(&gw, ga + w, 4);
        memcpy(&ew, eb + w, 4);
        snprintf(g, sizeof g, "0x%02x (32-bit word at byte %zu: %" PRIu32 ")", ga[first], w, gw);
        snprintf(e, sizeof e, "0x%02x (%" PRIu32 ")", eb[first], ew);
    } else {
        snprintf(g, sizeof g, "0x%02x", ga[first]);
        snprintf(e, sizeof e, "0x%02x", eb[first]);
    }
    return mismatch(ctx, kernel, l, t, first, "byte", g, e, ndiff);
}

lat_status lat__cross_compare(lat_context *ctx, lat_kernel *kernel, const lat__launch *l,
                              void **params)
{
    lat__cross_ctx *c = ctx->impl;
    target *list = NULL;
    size_t n = 0, cap = 0;
    if (c->compare_all) {
        pthread_mutex_lock(&c->lock);
        size_t np = c->npairs;
        lat_deviceptr *bases = malloc((np ? np : 1) * sizeof *bases);
        for (size_t i = 0; bases && i < np; i++)
            bases[i] = c->pairs[i].a;
        pthread_mutex_unlock(&c->lock);
        for (size_t i = 0; bases && i < np; i++)
            add_target(c, &list, &n, &cap, bases[i], ELEM_BYTES, -1);
        free(bases);
    }
    /* Every pointer-sized word of every argument that holds a live address. */
    int nparams = kernel->nparams;
    for (int i = 0; i < nparams && params; i++) {
        size_t size = kernel->param_size ? kernel->param_size[i] : 0;
        if (size == 0 && kernel->param_class && kernel->param_class[i] == LAT__PARAM_POINTER)
            size = 8;
        const char *type = kernel->sig && kernel->sig->nparams == nparams
                               ? kernel->sig->params[i].type
                               : NULL;
        for (size_t w = 0; w + 8 <= size; w += 8) {
            uint64_t v;
            memcpy(&v, (const unsigned char *)params[i] + w, 8);
            add_target(c, &list, &n, &cap, v, w == 0 ? elem_of(type) : ELEM_BYTES, i);
        }
    }
    size_t biggest = 0;
    for (size_t i = 0; i < n; i++)
        biggest = list[i].pair.size > biggest ? list[i].pair.size : biggest;
    lat_status st = LAT_OK;
    unsigned char *ga = n ? malloc(biggest ? biggest : 1) : NULL;
    unsigned char *eb = n ? malloc(biggest ? biggest : 1) : NULL;
    if (n && (!ga || !eb))
        st = lat__error(ctx, LAT_ERROR_OUT_OF_MEMORY,
                        "cross-check: out of host memory comparing %zu bytes", biggest);
    for (size_t i = 0; i < n && st == LAT_OK; i++)
        st = compare_one(ctx, kernel, l, &list[i], ga, eb);
    free(ga);
    free(eb);
    free(list);
    return st;
}
