/*
 * A checked context's state (ck.h) and the public functions of lattice/check.h that
 * read and set it: modes, schedule, reports, labels, leaks, maps.
 */
#include "ck.h"
#include "profile.h"

#include "backend.h"
#include "emu/exec/exec.h"
#include "error.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <assert.h>
#include <ctype.h>
#include <string.h>

/* ---- parsing --------------------------------------------------------------------------- */

/* LATTICE_SCHEDULE=forward|reverse|random[:SEED][,preempt] */
static lat_status parse_schedule(const char *v, lat_check_options *o)
{
    const char *p = v;
    if (strncmp(p, "forward", 7) == 0) {
        o->order = LAT_SCHEDULE_FORWARD;
        p += 7;
    } else if (strncmp(p, "reverse", 7) == 0) {
        o->order = LAT_SCHEDULE_REVERSE;
        p += 7;
    } else if (strncmp(p, "random", 6) == 0) {
        o->order = LAT_SCHEDULE_RANDOM;
        p += 6;
        if (*p == ':') {
            char *end;
            o->seed = strtoull(p + 1, &end, 10);
            if (end == p + 1)
                goto bad;
            p = end;
        }
    } else if (strncmp(p, "preempt", 7) != 0) {
        goto bad;
    }
    if (*p == ',')
        p++;
    if (strcmp(p, "preempt") == 0)
        o->preempt = 1;
    else if (*p)
        goto bad;
    return LAT_OK;
bad:
    return lat__error(NULL, LAT_ERROR_INVALID_VALUE,
                      "LATTICE_SCHEDULE='%s' is not a schedule: forward, reverse, random or "
                      "random:SEED, optionally followed by ,preempt", v);
}

/* ---- the context ------------------------------------------------------------------------ */

lat_status lat__ck_context_create(lat_context *ctx, const lat_context_desc *desc)
{
    unsigned modes;
    lat_status rst = lat__check_requested(ctx, desc, &modes);
    if (rst != LAT_OK || !modes)
        return rst;
    lat_check_options o;
    memset(&o, 0, sizeof o);
    const char *sched = lat__env(LAT_ENV_SCHEDULE);
    if (sched && *sched && parse_schedule(sched, &o) != LAT_OK)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s", lat__last_failure());
    const char *to = lat__env(LAT_ENV_CHECK_TIMEOUT);
    if (to && *to) {
        char *end;
        double t = strtod(to, &end);
        if (*end || !(t > 0))
            return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                              "LATTICE_CHECK_TIMEOUT='%s' is not a number "
                              "of seconds above 0", to);
        o.timeout_s = t;
    }
    lat__ck_ctx *ck = calloc(1, sizeof *ck);
    if (!ck)
        return lat__oom(ctx);
    ck->freed = calloc(LAT__CK_MAX_FREED, sizeof *ck->freed);
    if (!ck->freed || pthread_mutex_init(&ck->lock, NULL) != 0) {
        free(ck->freed);
        free(ck);
        return lat__oom(ctx);
    }
    ck->ctx = ctx;
    ck->modes = modes;
    ck->opts = o;
    ctx->check = ck;
    char list[80] = "";
    static const char *const names[] = {"memcheck", "racecheck", "synccheck", "initcheck", "profile"};
    static_assert(LAT_CHECK_PROFILE == 1u << 4, "names[4] is the profile");
    for (int i = 0; i < 5; i++)
        if (modes & (1u << i))
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", *list ? "," : "",
                     names[i]);
    lat__log(ctx, LAT_LOG_WARNING, "lattice checks on: %s", list);
    return LAT_OK;
}

static int by_size(const void *a, const void *b)
{
    const lat__alloc *x = a, *y = b;
    if (x->size != y->size)
        return x->size > y->size ? -1 : 1;
    return x->base < y->base ? -1 : x->base > y->base;
}

/* Describes the allocations still alive, largest first; NULL when there are none. */
static char *leak_text(lat__ck_ctx *ck, size_t *count)
{
    lat_context *ctx = ck->ctx;
    pthread_mutex_lock(&ctx->lock);
    size_t n = 0, total = 0;
    lat__alloc *a = malloc((ctx->nallocs ? ctx->nallocs : 1) * sizeof *a);
    for (size_t i = 0; a && i < ctx->nallocs; i++)
        if (!ctx->allocs[i].own) /* the library's own are not the program's leaks */
            a[n++] = ctx->allocs[i];
    pthread_mutex_unlock(&ctx->lock);
    *count = n;
    if (!a || n == 0) {
        free(a);
        return NULL;
    }
    qsort(a, n, sizeof *a, by_size);
    for (size_t i = 0; i < n; i++)
        total += a[i].size;
    char *buf = NULL;
    size_t len = 0;
    lat__strbuf_printf(&buf, &len, "%zu device allocation%s (%zu bytes) still allocated when "
                       "the context ends: ", n, n == 1 ? "" : "s", total);
    for (size_t i = 0; i < n && i < 8; i++) {
        const lat__ck_region *r = lat__ck_region_find(ck, (uintptr_t)a[i].base);
        if (r && r->base == a[i].base && r->name)
            lat__strbuf_printf(&buf, &len, "%s'%s' (%zu bytes)", i ? ", " : "", r->name, a[i].size);
        else
            lat__strbuf_printf(&buf, &len, "%s%zu bytes", i ? ", " : "", a[i].size);
    }
    if (n > 8)
        lat__strbuf_printf(&buf, &len, " and %zu more", n - 8);
    lat__strbuf_printf(&buf, &len, " (free them with lat_mem_free)");
    free(a);
    return buf;
}

void lat__ck_context_destroy(lat_context *ctx)
{
    lat__ck_ctx *ck = ctx->check;
    if (!ck)
        return;
    if (ck->modes & LAT_CHECK_MEMCHECK) {
        size_t n;
        char *t = leak_text(ck, &n);
        if (t)
            lat__log(ctx, LAT_LOG_WARNING, "memcheck: %s", t);
        free(t);
    }
    ctx->check = NULL;
    lat__ck_reports_clear(&ck->list);
    free(ck->list.reports);
    lat__pf_free(ck->profile);
    for (size_t i = 0; i < ck->nregions; i++)
        lat__ck_region_release(&ck->regions[i]);
    free(ck->regions);
    free(ck->extra);
    for (size_t i = 0; i < LAT__CK_MAX_FREED; i++)
        free(ck->freed[i].name);
    free(ck->freed);
    pthread_mutex_destroy(&ck->lock);
    free(ck);
}

/* ---- public: modes, options --------------------------------------------------------------- */

lat_status lat_check_modes(const lat_context *ctx, unsigned *modes)
{
    LAT__API();
    if (!ctx || !modes)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s is NULL", ctx ? "modes" : "ctx");
    *modes = ctx->check ? ctx->check->modes : 0;
    return LAT_OK;
}

lat_status lat_check_configure(lat_context *ctx, const lat_check_options *o)
{
    LAT__API();
    if (!ctx || !o)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s is NULL", ctx ? "options" : "ctx");
    if (o->order < LAT_SCHEDULE_FORWARD || o->order > LAT_SCHEDULE_RANDOM)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "%d is not a lat_schedule_order", (int)o->order);
    if (o->timeout_s < 0 || o->max_reports < 0)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "a negative %s",
                          o->timeout_s < 0 ? "timeout_s" : "max_reports");
    lat__ck_ctx *ck = ctx->check;
    if (!ck)
        return LAT_OK; /* nothing is checked: nothing to schedule */
    pthread_mutex_lock(&ck->lock);
    ck->opts = *o;
    pthread_mutex_unlock(&ck->lock);
    return LAT_OK;
}

lat_status lat_check_get_options(const lat_context *ctx, lat_check_options *o)
{
    LAT__API();
    if (!ctx || !o)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s is NULL", ctx ? "options" : "ctx");
    lat__ck_ctx *ck = ctx->check;
    if (!ck) {
        memset(o, 0, sizeof *o);
        return LAT_OK;
    }
    pthread_mutex_lock(&ck->lock);
    *o = ck->opts;
    pthread_mutex_unlock(&ck->lock);
    return LAT_OK;
}

uint64_t lat_check_last_seed(const lat_context *ctx)
{
    LAT__API();
    if (!ctx || !ctx->check)
        return 0;
    pthread_mutex_lock(&ctx->check->lock);
    uint64_t s = ctx->check->last_seed;
    pthread_mutex_unlock(&ctx->check->lock);
    return s;
}

/* ---- public: reports ------------------------------------------------------------------------ */

size_t lat_check_report_count(const lat_context *ctx)
{
    LAT__API();
    if (!ctx || !ctx->check)
        return 0;
    pthread_mutex_lock(&ctx->check->lock);
    size_t n = ctx->check->list.nreports;
    pthread_mutex_unlock(&ctx->check->lock);
    return n;
}

const lat_check_report *lat_check_report_get(const lat_context *ctx, size_t i)
{
    LAT__API();
    if (!ctx || !ctx->check)
        return NULL;
    lat__ck_ctx *ck = ctx->check;
    pthread_mutex_lock(&ck->lock);
    const lat_check_report *r = i < ck->list.nreports ? &ck->list.reports[i].r : NULL;
    pthread_mutex_unlock(&ck->lock);
    return r;
}

lat_status lat_check_clear(lat_context *ctx)
{
    LAT__API();
    if (!ctx)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "ctx is NULL");
    if (!ctx->check)
        return LAT_OK;
    pthread_mutex_lock(&ctx->check->lock);
    lat__ck_reports_clear(&ctx->check->list);
    pthread_mutex_unlock(&ctx->check->lock);
    return LAT_OK;
}

lat_status lat_check_leaks(lat_context *ctx)
{
    LAT__API();
    if (!ctx)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "ctx is NULL");
    lat__ck_ctx *ck = ctx->check;
    if (!ck || !(ck->modes & LAT_CHECK_MEMCHECK))
        return LAT_OK;
    pthread_mutex_lock(&ck->lock);
    lat__ck_reports_clear(&ck->list);
    size_t n;
    char *t = leak_text(ck, &n);
    lat_status st = LAT_OK;
    if (t) {
        lat_check_report r;
        memset(&r, 0, sizeof r);
        r.kernel = "";
        r.access.file = r.access.expr = r.other.file = r.other.expr = "";
        r.count = n;
        r.message = t;
        lat__ck_report_add(&ck->list, LAT__CK_LEAK, &r, -1, -1);
        lat__ck_reports_finish(&ck->list);
        /* The count is the number of allocations, not of findings: said in the text. */
        if (ck->list.nreports) {
            lat__ck_report *k = &ck->list.reports[0];
            free(k->message);
            k->r.count = 1;
            k->message = lat__ck_report_format(&k->r, k->body);
            k->r.count = n;
            k->r.message = k->message ? k->message : "";
            lat__log(ctx, LAT_LOG_ERROR, "%s", k->r.message);
        }
        st = lat__error(ctx, LAT_ERROR_CHECK_FAILED, "memcheck: %s", t);
        free(t);
    }
    pthread_mutex_unlock(&ck->lock);
    return st;
}

/* ---- public: labels and maps ------------------------------------------------------------------ */

/* The region starting at ptr, synced with the core's table; the lock is held. */
static lat_status region_at(lat__ck_ctx *ck, lat_deviceptr ptr,
                            lat__ck_region **out)
{
    lat_status st = lat__ck_regions_sync(ck);
    if (st != LAT_OK)
        return lat__error(ck->ctx, st, "out of host memory");
    lat__ck_region *r = lat__ck_region_find(ck, (uintptr_t)ptr);
    if (!r || r->base != (uintptr_t)ptr)
        return lat__error(ck->ctx, LAT_ERROR_INVALID_ADDRESS,
                          "0x%" PRIx64 " is not the start of a live allocation of this "
                          "context", ptr);
    *out = r;
    return LAT_OK;
}

lat_status lat_check_label(lat_context *ctx, lat_deviceptr ptr, const char *name)
{
    LAT__API();
    if (!ctx)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "ctx is NULL");
    lat__ck_ctx *ck = ctx->check;
    if (!ck) {
        /* Nothing to name it in, but the address must still be an allocation's start. */
        lat__alloc a;
        lat_status st = lat__alloc_check(ctx, ptr, 0, "ptr", &a);
        if (st == LAT_OK && a.base != ptr)
            st = lat__error(ctx, LAT_ERROR_INVALID_ADDRESS,
                            "0x%" PRIx64 " is inside an allocation, not at its "
                            "start", ptr);
        return st;
    }
    pthread_mutex_lock(&ck->lock);
    lat__ck_region *r;
    lat_status st = region_at(ck, ptr, &r);
    if (st == LAT_OK) {
        char *c = name ? lat__strdup(name) : NULL;
        if (name && !c) {
            st = lat__oom(ctx);
        } else {
            free(r->name);
            r->name = c;
        }
    }
    pthread_mutex_unlock(&ck->lock);
    return st;
}

void lat__ck_map_free(lat__ck_map *m)
{
    if (!m)
        return;
    free(m->cells);
    free(m->kernel);
    free(m);
}

lat_status lat_check_map_buffer(lat_context *ctx, lat_deviceptr ptr, size_t elem_size)
{
    LAT__API();
    if (!ctx)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "ctx is NULL");
    lat__ck_ctx *ck = ctx->check;
    if (!ck)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "the context has no checks (set lat_context_desc.check or "
                          "LATTICE_CHECK)");
    if (elem_size == 0)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "elem_size is 0");
    pthread_mutex_lock(&ck->lock);
    lat__ck_region *r;
    lat_status st = region_at(ck, ptr, &r);
    if (st == LAT_OK && r->size % elem_size != 0)
        st = lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                        "elem_size %zu does not divide the allocation's %zu bytes",
                        elem_size, r->size);
    if (st == LAT_OK) {
        lat__ck_map *m = calloc(1, sizeof *m);
        lat_check_map_cell *cells = calloc(r->size / elem_size, sizeof *cells);
        if (!m || !cells) {
            free(m);
            free(cells);
            st = lat__oom(ctx);
        } else {
            m->base = r->base;
            m->elem_size = elem_size;
            m->count = r->size / elem_size;
            m->cells = cells;
            lat__ck_map_free(r->map);
            r->map = m;
        }
    }
    pthread_mutex_unlock(&ck->lock);
    return st;
}

lat_status lat_check_map_get(const lat_context *ctx, lat_deviceptr ptr, lat_check_map *map)
{
    LAT__API();
    if (!ctx || !map)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s is NULL", ctx ? "map" : "ctx");
    lat__ck_ctx *ck = ctx->check;
    if (!ck)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "the context has no checks");
    pthread_mutex_lock(&ck->lock);
    lat__ck_region *r = lat__ck_region_find(ck, (uintptr_t)ptr);
    lat_status st = LAT_OK;
    if (!r || r->base != (uintptr_t)ptr || !r->map)
        st = lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                        "no map was asked for at 0x%" PRIx64 " (lat_check_map_buffer)", ptr);
    else if (!r->map->valid)
        st = lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                        "no checked launch has run since the map at 0x%" PRIx64
                        " was asked for", ptr);
    else {
        const lat__ck_map *m = r->map;
        map->count = m->count;
        map->elem_size = m->elem_size;
        map->grid = m->grid;
        map->block = m->block;
        map->kernel = m->kernel ? m->kernel : "";
        map->cells = m->cells;
    }
    pthread_mutex_unlock(&ck->lock);
    return st;
}

/* ---- public: kernel parameters ------------------------------------------------------------------ */

/* What a pointer parameter points to, read from its type's words (const float *, unsigned
 * char *, float4 *, int32_t *): its size, 0 when not known here (a struct, a typedef of
 * the kernel's own), its components (4 for a float4, 1 for a scalar), and whether it is
 * floating or a signed integer. Whole words only: a search for "int" inside them called
 * `struct point *` a pointer to int. */
typedef struct pointee {
    size_t size, components;
    bool is_float, is_signed;
} pointee;

static bool vector_type(const char *w, pointee *out)
{
    static const struct {
        const char *base;
        size_t size;
        bool is_float, is_signed;
    } bases[] = {{"uchar", 1, false, false},     {"char", 1, false, true},
                 {"ushort", 2, false, false},    {"short", 2, false, true},
                 {"uint", 4, false, false},      {"int", 4, false, true},
                 {"ulonglong", 8, false, false}, {"longlong", 8, false, true},
                 {"ulong", 8, false, false},     {"long", 8, false, true},
                 {"float", 4, true, false},      {"double", 8, true, false}};
    size_t n = strlen(w);
    if (n < 2 || w[n - 1] < '1' || w[n - 1] > '4')
        return false;
    for (size_t k = 0; k < sizeof bases / sizeof bases[0]; k++)
        if (strlen(bases[k].base) == n - 1 && strncmp(w, bases[k].base, n - 1) == 0) {
            size_t count = (size_t)(w[n - 1] - '0');
            *out = (pointee){bases[k].size * count, count, bases[k].is_float, bases[k].is_signed};
            return true;
        }
    return false;
}

static pointee pointee_of(const char *t)
{
    static const struct {
        const char *word;
        pointee p;
    } named[] = {{"size_t", {8, 1, false, false}},   {"ptrdiff_t", {8, 1, false, true}},
                 {"int8_t", {1, 1, false, true}},    {"uint8_t", {1, 1, false, false}},
                 {"int16_t", {2, 1, false, true}},   {"uint16_t", {2, 1, false, false}},
                 {"int32_t", {4, 1, false, true}},   {"uint32_t", {4, 1, false, false}},
                 {"int64_t", {8, 1, false, true}},   {"uint64_t", {8, 1, false, false}},
                 {"intptr_t", {8, 1, false, true}},  {"uintptr_t", {8, 1, false, false}},
                 {"bool", {1, 1, false, false}},     {"_Bool", {1, 1, false, false}},
                 {"half", {2, 1, true, false}},      {"__half", {2, 1, true, false}},
                 {"half2", {4, 2, true, false}},     {"__half2", {4, 2, true, false}},
                 {"nv_bfloat16", {2, 1, true, false}}, {"__nv_bfloat16", {2, 1, true, false}},
                 {"nv_bfloat162", {4, 2, true, false}}, {"__nv_bfloat162", {4, 2, true, false}},
                 {"float", {4, 1, true, false}},     {"double", {8, 1, true, false}}};
    int longs = 0, shorts = 0, chars = 0, ints = 0, unsign = 0, sign = 0, others = 0;
    pointee other = {0, false, false};
    for (const char *c = t; *c && *c != '*' && *c != '&';) {
        if (!isalnum((unsigned char)*c) && *c != '_') {
            c++;
            continue;
        }
        char w[64];
        size_t n = 0;
        while ((isalnum((unsigned char)*c) || *c == '_') && n + 1 < sizeof w)
            w[n++] = *c++;
        while (isalnum((unsigned char)*c) || *c == '_')
            c++;
        w[n] = '\0';
        /* C++ classes are written `struct __half` in the emulator's signatures: the tag
         * keyword says nothing of the size, the name does (or is unknown). */
        if (!strcmp(w, "const") || !strcmp(w, "volatile") || !strcmp(w, "restrict") ||
            !strcmp(w, "__restrict__") || !strcmp(w, "__restrict") || !strcmp(w, "struct") ||
            !strcmp(w, "class"))
            continue;
        if (!strcmp(w, "long"))
            longs++;
        else if (!strcmp(w, "short"))
            shorts++;
        else if (!strcmp(w, "char"))
            chars++;
        else if (!strcmp(w, "int"))
            ints++;
        else if (!strcmp(w, "unsigned"))
            unsign++;
        else if (!strcmp(w, "signed"))
            sign++;
        else {
            others++;
            bool known = vector_type(w, &other);
            for (size_t k = 0; !known && k < sizeof named / sizeof named[0]; k++)
                if (!strcmp(w, named[k].word)) {
                    other = named[k].p;
                    known = true;
                }
            if (!known)
                other = (pointee){0, 0, false, false}; /* struct, union, a typedef of its own */
        }
    }
    if (others)
        return others == 1 && !longs && !shorts && !chars && !ints && !unsign && !sign
                   ? other
                   : (pointee){0, 0, false, false};
    if (!longs && !shorts && !chars && !ints && !unsign && !sign)
        return (pointee){0, 0, false, false};
    size_t size = chars ? 1 : shorts ? 2 : longs ? 8 : 4;
    /* Plain char is signed on the host and on the GPU. */
    return (pointee){size, 1, false, !unsign};
}

/* The same from the reader's layout of the element, where its words said nothing: an
 * integer, or floats or doubles one after another (a typedef of float, of float4). */
static pointee pointee_of_layout(const lat__elem_layout *l)
{
    if (l->integer && (l->size == 1 || l->size == 2 || l->size == 4 || l->size == 8))
        return (pointee){l->size, 1, false, l->integer == 1};
    if (l->nfields == 0 || l->nfields > 4)
        return (pointee){0, 0, false, false};
    uint8_t kind = l->fields[0].kind;
    uint32_t each = kind == LAT__SCALAR_F32 ? 4 : kind == LAT__SCALAR_F64 ? 8 : 0;
    if (!each || l->size != each * l->nfields)
        return (pointee){0, 0, false, false};
    for (uint32_t f = 0; f < l->nfields; f++)
        if (l->fields[f].kind != kind || l->fields[f].offset != f * each)
            return (pointee){0, 0, false, false};
    return (pointee){l->size, l->nfields, true, false};
}

lat_status lat_check_kernel_param(const lat_kernel *kernel, int i, lat_check_param *out)
{
    LAT__API();
    if (!kernel || !out)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "%s is NULL", kernel ? "out" : "kernel");
    const lat__kernel_sig *sig = kernel->sig;
    lat_context *ctx = kernel->module->ctx;
    if (!sig)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "lattice could not read the declaration of kernel '%s'",
                          kernel->name);
    if (i < 0 || i >= sig->nparams)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "kernel '%s' has %d parameters; there is no parameter %d",
                          kernel->name, sig->nparams, i);
    const lat__param *p = &sig->params[i];
    memset(out, 0, sizeof *out);
    out->name = p->name ? p->name : "";
    out->type = p->type ? p->type : "";
    out->is_pointer = p->cls == LAT__PARAM_POINTER;
    out->is_record = p->cls == LAT__PARAM_RECORD;
    pointee to = out->is_pointer ? pointee_of(out->type) : (pointee){0, 0, false, false};
    if (out->is_pointer && to.size == 0)
        to = pointee_of_layout(&p->pointee); /* a typedef's (floatX *), a macro's */
    out->is_float = p->cls == LAT__PARAM_FLOAT || to.is_float;
    out->is_signed = p->cls == LAT__PARAM_SINT || (to.is_signed && to.size != 0);
    out->size = i < kernel->nparams && kernel->param_size ? kernel->param_size[i] : p->size;
    out->pointee_size = to.size;
    out->pointee_components = to.components;
    if (!out->is_pointer && !out->is_float) {
        /* A class of floats (__half, __nv_bfloat162) passed by value. */
        pointee v = pointee_of(out->type);
        out->is_float = v.is_float && v.size != 0 && v.size == out->size;
    }
    return LAT_OK;
}
