/*
 * Comparing the two sides after a cross-checked launch: every allocation an argument of
 * the kernel points into (or every live one, LATTICE_CROSS_COMPARE=all) is read back from
 * the GPU and from the emulator and compared element by element, by the element layout
 * of the pointer parameter (kernel_sig.h: the element's size and where its float, double
 * and half fields are; every other byte compares exactly). Where the layout is unknown
 * the parameter's spelling decides as before ("float *" is floats; anything else bytes).
 *
 * The tolerance. A floating value passes when it is bit-identical, when both sides are
 * NaN, or when
 *
 *     |gpu - emu| <= atol + rtol * max(|emu|, S)
 *
 * where S is the buffer's typical magnitude for that field: the median of its nonzero
 * finite emulator values' magnitudes, rounded up to a power of two. Why not the plain
 * |emu|: rounding differences between the two sides (fused multiply-add on the GPU, a
 * different summation order) are relative to the size of the terms a value was computed
 * from, not to the value. Where terms cancel (a 512x512 matmul element of -0.01284 from
 * products of size ~1, a centred covariance), the result is small and its difference
 * relative to itself large (cuda -0.0128421905, emulator -0.0128434114: 1e-4), while
 * relative to the buffer's typical element (~7) it is 2e-7. The buffer's other values
 * are the best measure of the terms' size the comparison has. Why the median and not the
 * largest value or the RMS: one huge value (a histogram's big bin, an outlier) would
 * loosen the check for every other element; the median is not moved by a few of them,
 * and a whole buffer of wrong values (an off-by-one index, a missing barrier, a wrong
 * reduction stride) still differs by about S or more, far beyond rtol * S.
 * Defaults: rtol 1e-4, atol 0 (driver.h); an rtol below two units in the last place of a
 * half (2^-9) or bfloat16 (2^-6) is raised to that, so that a half's rounding passes.
 *
 * The first difference fails the launch with LAT_ERROR_CROSS_MISMATCH, naming the kernel,
 * the parameter, the buffer, the element and both values. With LATTICE_CROSS_STATS=<file>
 * every compared buffer with floating fields also appends a line per kind to the file
 * (see lat__cross_stats_line); scripts/cross-stats-summary totals them.
 */
#include "cross.h"
#include "core/alloc.h"

#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the comparison core: two byte buffers, a layout, a tolerance ------------------------ */

static size_t kind_size(unsigned kind)
{
    return kind == LAT__SCALAR_F64 ? 8 : kind == LAT__SCALAR_F32 ? 4 : 2;
}

static const char *kind_name(unsigned kind)
{
    switch (kind) {
    case LAT__SCALAR_F32: return "float";
    case LAT__SCALAR_F64: return "double";
    case LAT__SCALAR_F16: return "half";
    case LAT__SCALAR_BF16: return "bfloat16";
    default: return "byte";
    }
}

static double half_value(uint16_t h)
{
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 0x400, e - 25);
    return (h & 0x8000) ? -v : v;
}

/* The value at p, of a floating kind, as a double (exactly). */
static double value_at(const unsigned char *p, unsigned kind)
{
    switch (kind) {
    case LAT__SCALAR_F32: {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    case LAT__SCALAR_F64: {
        double d;
        memcpy(&d, p, 8);
        return d;
    }
    case LAT__SCALAR_F16: {
        uint16_t h;
        memcpy(&h, p, 2);
        return half_value(h);
    }
    default: {
        uint16_t h;
        memcpy(&h, p, 2);
        uint32_t u = (uint32_t)h << 16;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    }
}

/* The bits at p as an integer that orders like the values (-0 and +0 both 0), so that
 * the difference of two is their distance in units in the last place. */
static int64_t ordered_bits(const unsigned char *p, unsigned kind)
{
    uint64_t u = 0;
    int bits = (int)kind_size(kind) * 8;
    memcpy(&u, p, kind_size(kind)); /* little-endian, as every host lattice runs on */
    uint64_t sign = 1ULL << (bits - 1);
    int64_t mag = (int64_t)(u & (sign - 1));
    return (u & sign) ? -mag : mag;
}

/* |a - b| without overflow: doubles of opposite signs far from 0 are more than 2^63
 * representable values apart. */
static uint64_t ulp_distance(int64_t a, int64_t b)
{
    return a >= b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a;
}

static double epsilon(unsigned kind)
{
    return kind == LAT__SCALAR_F64 ? 0x1p-52 : kind == LAT__SCALAR_F32 ? 0x1p-23
           : kind == LAT__SCALAR_F16 ? 0x1p-10 : 0x1p-7;
}

/* rtol for a kind: at least two units in the last place (unless the check is exact). */
static double kind_rtol(double rtol, unsigned kind)
{
    double floor = 2 * epsilon(kind);
    return rtol > 0 && rtol < floor ? floor : rtol;
}

static bool within(double g, double e, double atol, double rtol, double scale)
{
    if (isnan(g) || isnan(e))
        return isnan(g) && isnan(e);
    if (isinf(g) || isinf(e))
        return g == e;
    double m = fabs(e) > scale ? fabs(e) : scale;
    return fabs(g - e) <= atol + rtol * m;
}

/* The typical magnitude of one field's emulator values: the median of the nonzero finite
 * ones' magnitudes, rounded up to a power of two (a histogram of their exponents: one
 * pass, no sorting, no allocation). 0 when there are none. */
static double field_scale(const unsigned char *emu, size_t nelem, size_t stride, uint32_t offset,
                          unsigned kind)
{
    static const int nbins = 2048;
    uint32_t hist[2048];
    memset(hist, 0, sizeof hist);
    size_t n = 0;
    for (size_t i = 0; i < nelem; i++) {
        double v = value_at(emu + i * stride + offset, kind);
        if (v == 0 || !isfinite(v))
            continue;
        uint64_t b;
        memcpy(&b, &v, 8);
        hist[(b >> 52) & 0x7ff]++;
        n++;
    }
    if (n == 0)
        return 0;
    size_t half = (n + 1) / 2, seen = 0;
    for (int e = 0; e < nbins; e++) {
        seen += hist[e];
        if (seen >= half)
            return ldexp(1, (e ? e : 1) - 1022); /* the upper edge of binade e */
    }
    return 0;
}

/* A layout the comparison can use: a size, and fields of floating kinds inside it. */
static bool layout_ok(const lat__elem_layout *l)
{
    if (!l || !l->size || (l->nfields && !l->fields))
        return false;
    for (uint32_t f = 0; f < l->nfields; f++)
        if (l->fields[f].kind < LAT__SCALAR_F32 || l->fields[f].kind > LAT__SCALAR_BF16 ||
            l->fields[f].offset + kind_size(l->fields[f].kind) > l->size)
            return false;
    return true;
}

/* Records a difference at byte `at` if it is the first one. */
static void note_first(lat__cross_diff *d, size_t at, size_t elem, const lat__elem_field *f,
                       double g, double e, double allowed, double scale)
{
    if (d->first != SIZE_MAX && d->first <= at)
        return;
    d->first = at;
    d->first_elem = elem;
    d->first_kind = f ? f->kind : LAT__SCALAR_EXACT;
    d->first_field_offset = f ? f->offset : 0;
    d->first_gpu = g;
    d->first_emu = e;
    d->first_allowed = allowed;
    d->first_scale = scale;
}

size_t lat__cross_compare_bytes(const void *gpu_, const void *emu_, size_t size,
                                const lat__elem_layout *layout, double rtol, double atol,
                                lat__cross_diff *d)
{
    const unsigned char *gpu = gpu_, *emu = emu_;
    memset(d, 0, sizeof *d);
    d->first = SIZE_MAX;
    lat__elem_layout bytes = {1, 0, NULL};
    const lat__elem_layout *L = layout_ok(layout) ? layout : &bytes;
    size_t esize = L->size, nelem = size / esize, nf = L->nfields;
    for (size_t f = 0; f < nf; f++)
        d->stats[L->fields[f].kind].values += nelem;
    if (memcmp(gpu, emu, size) == 0) {
        for (size_t f = 0; f < nf; f++)
            d->stats[L->fields[f].kind].identical += nelem;
        return 0;
    }
    /* Which bytes of an element are no floating field's (those compare exactly), and per
     * field whether it needs a scale and which. */
    unsigned char small[64], *exact = esize <= sizeof small ? small : lat__malloc(esize);
    bool small_need[16], *need_scale = nf <= 16 ? small_need : lat__malloc(nf * sizeof *need_scale);
    double small_scale[16], *scale = nf <= 16 ? small_scale : lat__malloc(nf * sizeof *scale);
    if (!exact || !need_scale || !scale) {
        /* Out of memory: compare byte for byte, which is exact, never lenient. */
        L = &bytes;
        esize = 1;
        nelem = size;
        nf = 0;
    }
    if (L != &bytes) {
        memset(exact, 1, esize);
        for (size_t f = 0; f < nf; f++) {
            memset(exact + L->fields[f].offset, 0, kind_size(L->fields[f].kind));
            need_scale[f] = false;
            scale[f] = 0;
        }
    }
    bool have_mask = L != &bytes, any_fail = false;
    /* Pass 1: statistics, exact bytes, and which values fail even the elementwise
     * tolerance (|g - e| <= atol + rtol * |e|): only their fields need a scale. */
    for (size_t i = 0; i < nelem; i++) {
        const unsigned char *g = gpu + i * esize, *e = emu + i * esize;
        if (memcmp(g, e, esize) == 0) {
            for (size_t f = 0; f < nf; f++)
                d->stats[L->fields[f].kind].identical++;
            continue;
        }
        bool differs = false;
        for (size_t b = 0; b < esize; b++) {
            if (g[b] != e[b] && (!have_mask || exact[b])) {
                note_first(d, i * esize + b, i, NULL, g[b], e[b], 0, 0);
                differs = true;
                break;
            }
        }
        for (size_t f = 0; f < nf; f++) {
            const lat__elem_field *fl = &L->fields[f];
            lat__cross_kind_stats *s = &d->stats[fl->kind];
            size_t ks = kind_size(fl->kind);
            if (memcmp(g + fl->offset, e + fl->offset, ks) == 0) {
                s->identical++;
                continue;
            }
            double gv = value_at(g + fl->offset, fl->kind), ev = value_at(e + fl->offset, fl->kind);
            uint64_t ulp = isnan(gv) && isnan(ev) ? 0
                           : isnan(gv) || isnan(ev)
                               ? UINT64_MAX
                               : ulp_distance(ordered_bits(g + fl->offset, fl->kind),
                                              ordered_bits(e + fl->offset, fl->kind));
            s->max_ulp = ulp > s->max_ulp ? ulp : s->max_ulp;
            if (!within(gv, ev, atol, kind_rtol(rtol, fl->kind), 0)) {
                need_scale[f] = true;
                any_fail = true;
            }
        }
        if (differs)
            d->ndiff++; /* an exact byte differs: the element differs, whatever its floats */
    }
    /* Pass 2, only when some value failed the elementwise test: the same test with each
     * such field's scale. An element counts once, however many of its values differ. */
    if (any_fail) {
        for (size_t f = 0; f < nf; f++)
            if (need_scale[f])
                scale[f] = field_scale(emu, nelem, esize, L->fields[f].offset, L->fields[f].kind);
        for (size_t i = 0; i < nelem; i++) {
            const unsigned char *g = gpu + i * esize, *e = emu + i * esize;
            bool exact_differs = false, fails = false;
            for (size_t b = 0; b < esize && have_mask; b++)
                if (g[b] != e[b] && exact[b])
                    exact_differs = true;
            for (size_t f = 0; f < nf; f++) {
                const lat__elem_field *fl = &L->fields[f];
                double S = scale[f];
                if (!need_scale[f] ||
                    memcmp(g + fl->offset, e + fl->offset, kind_size(fl->kind)) == 0)
                    continue;
                double gv = value_at(g + fl->offset, fl->kind), ev = value_at(e + fl->offset, fl->kind);
                double r = kind_rtol(rtol, fl->kind);
                if (!within(gv, ev, atol, r, S)) {
                    d->stats[fl->kind].beyond++;
                    fails = true;
                    note_first(d, i * esize + fl->offset, i, fl, gv, ev,
                               atol + r * (fabs(ev) > S ? fabs(ev) : S), S);
                }
            }
            if (fails && !exact_differs)
                d->ndiff++;
        }
    }
    if (exact != small)
        free(exact);
    if (need_scale != small_need)
        free(need_scale);
    if (scale != small_scale)
        free(scale);
    /* A tail shorter than one element compares byte for byte. */
    bool tail_differs = false;
    for (size_t b = nelem * esize; b < size; b++) {
        if (gpu[b] != emu[b]) {
            note_first(d, b, nelem, NULL, gpu[b], emu[b], 0, 0);
            tail_differs = true;
        }
    }
    d->ndiff += tail_differs;
    return d->ndiff;
}

/* ---- the launch's buffers ---------------------------------------------------------------- */

static lat__elem_field f32_field = {0, LAT__SCALAR_F32}, f64_field = {0, LAT__SCALAR_F64};
static const lat__elem_layout f32_layout = {4, 1, &f32_field}, f64_layout = {8, 1, &f64_field};

/* Where the front end could not give a layout: the element type from the spelling of
 * the pointer parameter's type ("const float *", "double*"; float2 and float4 are arrays
 * of floats too), or NULL (bytes). */
static const lat__elem_layout *layout_from_spelling(const char *type)
{
    if (!type || !strchr(type, '*'))
        return NULL;
    if (strstr(type, "double"))
        return &f64_layout;
    if (strstr(type, "float"))
        return &f32_layout;
    return NULL;
}

typedef struct target {
    lat__cross_pair pair;
    const lat__elem_layout *layout; /* NULL: bytes */
    int param; /* the parameter that pointed into it, -1 with LATTICE_CROSS_COMPARE=all */
} target;

static bool has_floats(const lat__elem_layout *l)
{
    return l && l->size && l->nfields;
}

/* Adds the allocation containing primary address v (if any, and not yet listed). */
static void add_target(lat__cross_ctx *c, target **list, size_t *n, size_t *cap,
                       lat_deviceptr v, const lat__elem_layout *layout, int param)
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
            /* A layout with floating fields wins over one without. */
            if (!has_floats((*list)[i].layout) && has_floats(layout)) {
                (*list)[i].layout = layout;
                (*list)[i].param = param;
            } else if ((*list)[i].param < 0 && param >= 0) {
                (*list)[i].param = param;
            }
            return;
        }
    }
    if (*n == *cap) {
        size_t nc = *cap ? *cap * 2 : 8;
        target *p = lat__realloc(*list, nc * sizeof *p);
        if (!p)
            return; /* out of memory: that buffer goes unchecked */
        *list = p;
        *cap = nc;
    }
    (*list)[(*n)++] = (target){found, layout, param};
}

static const lat__param *param_of(const lat_kernel *kernel, int i)
{
    return kernel->sig && i >= 0 && i < kernel->sig->nparams ? &kernel->sig->params[i] : NULL;
}

static lat_status mismatch(lat_context *ctx, lat_kernel *kernel, const lat__launch *l,
                           const target *t, const char *what, const char *gpu,
                           const char *emu, const char *why, size_t ndiff)
{
    const lat__param *p = param_of(kernel, t->param);
    char param[160];
    if (t->param < 0)
        snprintf(param, sizeof param, "a live allocation");
    else
        snprintf(param, sizeof param, "parameter %d%s%s%s (%s)", t->param,
                 p && p->name[0] ? " '" : "", p ? p->name : "", p && p->name[0] ? "'" : "",
                 p ? p->type : "type unknown");
    return lat__error(ctx, LAT_ERROR_CROSS_MISMATCH,
                      "cross-check: kernel '%s' (grid (%u, %u, %u), block (%u, %u, %u)): %s "
                      "points into the buffer at 0x%" PRIx64 " (%zu bytes), whose %s "
                      "differs: %s %s, emulator %s%s; %zu element%s differ%s",
                      kernel->name, l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1],
                      l->block[2], param, t->pair.a, t->pair.size, what,
                      lat_backend_name(lat_context_backend(((lat__cross_ctx *)ctx->impl)->a)),
                      gpu, emu, why, ndiff, ndiff == 1 ? "" : "s", ndiff == 1 ? "s" : "");
}

/* Describes the first difference d found in t's buffer and fails the launch with it. */
static lat_status report(lat_context *ctx, lat_kernel *kernel, const lat__launch *l,
                         const target *t, const unsigned char *ga, const unsigned char *eb,
                         const lat__cross_diff *d)
{
    char what[96], g[96], e[96], why[200] = "";
    const lat__elem_layout *L = t->layout;
    if (d->first_kind != LAT__SCALAR_EXACT) {
        bool plain = L && L->nfields == 1 && L->size == kind_size(d->first_kind);
        if (plain)
            snprintf(what, sizeof what, "%s element %zu", kind_name(d->first_kind), d->first_elem);
        else
            snprintf(what, sizeof what, "%s at byte %" PRIu32 " of element %zu (%" PRIu32 " bytes)",
                     kind_name(d->first_kind), d->first_field_offset, d->first_elem, L->size);
        int digits = d->first_kind == LAT__SCALAR_F64 ? 17 : d->first_kind == LAT__SCALAR_F32 ? 9 : 5;
        snprintf(g, sizeof g, "%.*g", digits, d->first_gpu);
        snprintf(e, sizeof e, "%.*g", digits, d->first_emu);
        snprintf(why, sizeof why,
                 " (beyond the tolerance: |difference| %.3g > %.3g, from atol %g + rtol %g * "
                 "max(|emulator|, the buffer's typical magnitude %.3g))",
                 fabs(d->first_gpu - d->first_emu), d->first_allowed, ctx->drv->cross_atol,
                 kind_rtol(ctx->drv->cross_rtol, d->first_kind), d->first_scale);
        return mismatch(ctx, kernel, l, t, what, g, e, why, d->ndiff);
    }
    size_t at = d->first;
    if (L && L->size > 1 && d->first_elem < t->pair.size / L->size)
        snprintf(what, sizeof what, "byte %zu (byte %zu of element %zu)", at, at % L->size,
                 d->first_elem);
    else
        snprintf(what, sizeof what, "byte %zu", at);
    /* Show the aligned 32-bit word around the byte too, which is what most integer data
     * is. */
    size_t w = at / 4 * 4;
    if (w + 4 <= t->pair.size) {
        uint32_t gw, ew;
        memcpy(&gw, ga + w, 4);
        memcpy(&ew, eb + w, 4);
        snprintf(g, sizeof g, "0x%02x (32-bit word at byte %zu: %" PRIu32 ")", ga[at], w, gw);
        snprintf(e, sizeof e, "0x%02x (%" PRIu32 ")", eb[at], ew);
    } else {
        snprintf(g, sizeof g, "0x%02x", ga[at]);
        snprintf(e, sizeof e, "0x%02x", eb[at]);
    }
    return mismatch(ctx, kernel, l, t, what, g, e, "", d->ndiff);
}

int lat__cross_stats_line(char *buf, size_t size, const char *program, const char *kernel,
                          const char *param, unsigned kind, const lat__cross_kind_stats *s)
{
    char ulp[24];
    if (s->max_ulp == UINT64_MAX)
        snprintf(ulp, sizeof ulp, "nan");
    else
        snprintf(ulp, sizeof ulp, "%" PRIu64, s->max_ulp);
    return snprintf(buf, size, "%s\t%s\t%s\t%s\t%" PRIu64 "\t%" PRIu64 "\t%s\t%" PRIu64 "\n",
                    program, kernel, param, kind_name(kind), s->values, s->identical, ulp,
                    s->beyond);
}

/* Appends one line per floating kind of the buffer to LATTICE_CROSS_STATS's file, in one
 * write() with O_APPEND so that test processes running at once do not interleave lines. */
static void write_stats(const lat__cross_ctx *c, const lat_kernel *kernel, const target *t,
                        const lat__cross_diff *d)
{
    char buf[1024], param[96];
    size_t len = 0;
    const lat__param *p = param_of(kernel, t->param);
    if (t->param < 0)
        snprintf(param, sizeof param, "(allocation)");
    else if (p && p->name[0])
        snprintf(param, sizeof param, "%s", p->name);
    else
        snprintf(param, sizeof param, "%d", t->param);
    for (unsigned k = LAT__SCALAR_F32; k <= LAT__SCALAR_BF16; k++) {
        if (!d->stats[k].values)
            continue;
        int n = lat__cross_stats_line(buf + len, sizeof buf - len, c->program, kernel->name,
                                      param, k, &d->stats[k]);
        if (n < 0 || (size_t)n >= sizeof buf - len)
            break;
        len += (size_t)n;
    }
    if (!len)
        return;
    int fd = open(c->stats_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return; /* measuring must never fail a launch */
    ssize_t w = write(fd, buf, len);
    (void)w;
    close(fd);
}

/* Compares one buffer; LAT_OK when equal within the tolerance. */
static lat_status compare_one(lat_context *ctx, lat_kernel *kernel, const lat__launch *l,
                              const target *t, unsigned char *ga, unsigned char *eb)
{
    lat__cross_ctx *c = ctx->impl;
    lat_status st = lat_memcpy_dtoh(c->a, ga, t->pair.a, t->pair.size);
    if (st == LAT_OK)
        st = lat_memcpy_dtoh(c->b, eb, t->pair.b, t->pair.size);
    if (st != LAT_OK)
        return st;
    lat__cross_diff d;
    size_t ndiff = lat__cross_compare_bytes(ga, eb, t->pair.size, t->layout, ctx->drv->cross_rtol,
                                            ctx->drv->cross_atol, &d);
    if (c->stats_path)
        write_stats(c, kernel, t, &d);
    return ndiff ? report(ctx, kernel, l, t, ga, eb, &d) : LAT_OK;
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
        lat_deviceptr *bases = lat__malloc((np ? np : 1) * sizeof *bases);
        for (size_t i = 0; bases && i < np; i++)
            bases[i] = c->pairs[i].a;
        pthread_mutex_unlock(&c->lock);
        for (size_t i = 0; bases && i < np; i++)
            add_target(c, &list, &n, &cap, bases[i], NULL, -1);
        free(bases);
    }
    /* Every pointer-sized word of every argument that holds a live address. */
    int nparams = kernel->nparams;
    for (int i = 0; i < nparams && params; i++) {
        size_t size = kernel->param_size ? kernel->param_size[i] : 0;
        if (size == 0 && kernel->param_class && kernel->param_class[i] == LAT__PARAM_POINTER)
            size = 8;
        const lat__param *p = kernel->sig && kernel->sig->nparams == nparams
                                  ? &kernel->sig->params[i]
                                  : NULL;
        const lat__elem_layout *layout = NULL;
        if (p && p->pointee.size)
            layout = &p->pointee;
        else if (p)
            layout = layout_from_spelling(p->type);
        for (size_t w = 0; w + 8 <= size; w += 8) {
            uint64_t v;
            memcpy(&v, (const unsigned char *)params[i] + w, 8);
            add_target(c, &list, &n, &cap, v, w == 0 ? layout : NULL, i);
        }
    }
    size_t biggest = 0;
    for (size_t i = 0; i < n; i++)
        biggest = list[i].pair.size > biggest ? list[i].pair.size : biggest;
    lat_status st = LAT_OK;
    unsigned char *ga = n ? lat__malloc(biggest ? biggest : 1) : NULL;
    unsigned char *eb = n ? lat__malloc(biggest ? biggest : 1) : NULL;
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
