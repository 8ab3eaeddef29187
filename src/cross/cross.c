/*
 * The cross-checking backend (LATTICE_BACKEND=cross): a context is a pair of contexts, the
 * GPU's ("a", the primary) and the emulator's ("b"), each with its own copy of every
 * allocation. Every operation goes to both through the public API (so each side
 * validates and reports as usual); the program sees the primary's addresses, and the
 * pair table maps each to the emulator's copy. A launch runs on both, with every
 * pointer-sized word of its arguments that holds a primary address rewritten for the
 * emulator, and is then compared (cross_compare.c).
 *
 * LATTICE_CROSS_PRIMARY=emu makes the primary an emulator too: lattice's own tests use it
 * to exercise this file on machines without a GPU.
 */
#include "cross.h"
#include "core/alloc.h"
#include "memory.h"
#include "texture.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static lat_backend_kind primary_kind(void)
{
    const char *p = lat__env(LAT_ENV_CROSS_PRIMARY);
    return p && strcmp(p, "emu") == 0 ? LAT_BACKEND_EMU : LAT_BACKEND_CUDA;
}

static lat__cross_ctx *cx(const lat_context *ctx)
{
    return ctx->impl;
}

/* ---- the pair table ------------------------------------------------------------------------ */

/* Index of the first pair whose a is > p. Caller holds the lock. */
static size_t upper_bound(const lat__cross_ctx *c, lat_deviceptr p)
{
    size_t lo = 0, hi = c->npairs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c->pairs[mid].a <= p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

lat_deviceptr lat__cross_translate(lat__cross_ctx *c, lat_deviceptr p)
{
    if (p == 0)
        return 0;
    lat_deviceptr out = 0;
    pthread_mutex_lock(&c->lock);
    size_t i = upper_bound(c, p);
    if (i > 0 && p - c->pairs[i - 1].a <= c->pairs[i - 1].size)
        out = c->pairs[i - 1].b + (p - c->pairs[i - 1].a);
    pthread_mutex_unlock(&c->lock);
    return out;
}

static lat_status add_pair(lat_context *ctx, lat_deviceptr a, size_t size, lat_deviceptr b)
{
    lat__cross_ctx *c = cx(ctx);
    pthread_mutex_lock(&c->lock);
    if (c->npairs == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 16;
        lat__cross_pair *p = lat__realloc(c->pairs, cap * sizeof *p);
        if (!p) {
            pthread_mutex_unlock(&c->lock);
            return lat__oom(ctx);
        }
        c->pairs = p;
        c->cap = cap;
    }
    size_t i = upper_bound(c, a);
    memmove(&c->pairs[i + 1], &c->pairs[i], (c->npairs - i) * sizeof *c->pairs);
    c->pairs[i] = (lat__cross_pair){a, size, b};
    c->npairs++;
    pthread_mutex_unlock(&c->lock);
    return LAT_OK;
}

/* Removes the pair starting at a; returns the emulator's address (0: none). */
static lat_deviceptr take_pair(lat__cross_ctx *c, lat_deviceptr a)
{
    lat_deviceptr b = 0;
    pthread_mutex_lock(&c->lock);
    size_t i = upper_bound(c, a);
    if (i > 0 && c->pairs[i - 1].a == a) {
        b = c->pairs[i - 1].b;
        memmove(&c->pairs[i - 1], &c->pairs[i], (c->npairs - i) * sizeof *c->pairs);
        c->npairs--;
    }
    pthread_mutex_unlock(&c->lock);
    return b;
}

/* The first failure of two: the primary's status wins, the message is the last one. */
static lat_status both(lat_status a, lat_status b)
{
    return a != LAT_OK ? a : b;
}

/* ---- backend: devices and contexts ---------------------------------------------------------- */

static lat_status probe(char *why, size_t why_size)
{
    lat_backend_kind k;
    if (lat_backend_resolve(primary_kind(), &k) != LAT_OK ||
        lat_backend_resolve(LAT_BACKEND_EMU, &k) != LAT_OK) {
        snprintf(why, why_size, "cross-checking needs both a GPU and the emulator: %s",
                 lat__last_failure());
        return LAT_ERROR_BACKEND_UNAVAILABLE;
    }
    return LAT_OK;
}

static lat_status device_count(int *count)
{
    return lat_device_count(primary_kind(), count);
}

static lat_status device_info(int ordinal, lat_device_info *info)
{
    return lat_device_get_info(primary_kind(), ordinal, info);
}

/* The process's name (Linux: /proc/self/comm), "?" where it cannot be read. */
static void program_name(char *out, size_t size)
{
    snprintf(out, size, "?");
    FILE *f = fopen("/proc/self/comm", "r");
    if (!f)
        return;
    if (fgets(out, (int)size, f))
        out[strcspn(out, "\n\t")] = '\0';
    fclose(f);
    if (!out[0])
        snprintf(out, size, "?");
}

static lat_status context_create(lat_context *ctx, const lat_context_desc *desc)
{
    (void)desc; /* the checks are the emulator's: core notes those asked of this context */
    lat__cross_ctx *c = lat__calloc(1, sizeof *c);
    if (!c || pthread_mutex_init(&c->lock, NULL) != 0) {
        free(c);
        return lat__oom(ctx);
    }
    const char *cmp = lat__env(LAT_ENV_CROSS_COMPARE);
    c->compare_all = cmp && strcmp(cmp, "all") == 0;
    /* LATTICE_CROSS_STATS=<file>: every comparison appends its counts (cross_compare.c). */
    const char *stats = lat__env(LAT_ENV_CROSS_STATS);
    if (stats && *stats) {
        c->stats_path = lat__strdup(stats);
        program_name(c->program, sizeof c->program);
    }
    lat_status st = lat_context_create(
        &(lat_context_desc){.backend = primary_kind(), .device = ctx->device, .logger = ctx->logger,
                            .pointer_check = LAT_POINTER_CHECK_OFF}, /* the cross context checks */
        &c->a);
    if (st == LAT_OK)
        st = lat_context_create(
            &(lat_context_desc){.backend = LAT_BACKEND_EMU, .device = 0, .logger = ctx->logger,
                                .pointer_check = LAT_POINTER_CHECK_OFF},
            &c->b);
    if (st != LAT_OK) {
        lat_context_destroy(c->a);
        pthread_mutex_destroy(&c->lock);
        free(c->stats_path);
        free(c);
        return st;
    }
    ctx->impl = c;
    lat__log(ctx, LAT_LOG_INFO,
             "cross-checking: every launch runs on %s device %d and on the emulator, then "
             "compares (float tolerance rtol %g, atol %g)",
             lat_backend_name(primary_kind()), ctx->device, ctx->drv->cross_rtol,
             ctx->drv->cross_atol);
    return LAT_OK;
}

static void context_destroy(lat_context *ctx)
{
    lat__cross_ctx *c = cx(ctx);
    if (!c)
        return;
    lat_context_destroy(c->b);
    lat_context_destroy(c->a);
    free(c->stats_path);
    free(c->pairs);
    pthread_mutex_destroy(&c->lock);
    free(c);
    ctx->impl = NULL;
}

static lat_status synchronize(lat_context *ctx)
{
    lat_status a = lat_context_synchronize(cx(ctx)->a);
    lat_status b = lat_context_synchronize(cx(ctx)->b);
    return both(a, b);
}

/* ---- backend: memory ---------------------------------------------------------------------------- */

/* New memory starts zeroed on both sides: uninitialised memory differs between them, and
 * a kernel that reads some would make every comparison after it fail. */
static lat_status zero_both(lat__cross_ctx *c, lat_deviceptr a, lat_deviceptr b, size_t bytes)
{
    lat_status st = lat_memset_d8(c->a, a, 0, bytes);
    return st == LAT_OK ? lat_memset_d8(c->b, b, 0, bytes) : st;
}

static lat_status mem_alloc(lat_context *ctx, size_t bytes, lat_deviceptr *out)
{
    lat__cross_ctx *c = cx(ctx);
    lat_deviceptr a = 0, b = 0;
    lat_status st = lat_mem_alloc(c->a, bytes, &a);
    if (st == LAT_OK)
        st = lat_mem_alloc(c->b, bytes, &b);
    if (st == LAT_OK)
        st = zero_both(c, a, b, bytes);
    if (st == LAT_OK)
        st = add_pair(ctx, a, bytes, b);
    if (st != LAT_OK) {
        (void)lat_mem_free(c->a, a);
        (void)lat_mem_free(c->b, b);
        return st;
    }
    *out = a;
    return LAT_OK;
}

static lat_status mem_free(lat_context *ctx, lat_deviceptr ptr)
{
    lat__cross_ctx *c = cx(ctx);
    lat_deviceptr b = take_pair(c, ptr);
    lat_status sa = lat_mem_free(c->a, ptr);
    lat_status sb = lat_mem_free(c->b, b);
    return both(sa, sb);
}

static lat_status mem_info(lat_context *ctx, size_t *free_bytes, size_t *total_bytes)
{
    return lat_mem_info(cx(ctx)->a, free_bytes, total_bytes);
}

static lat_status memset_both(lat_context *ctx, lat_deviceptr dst, uint32_t value,
                              size_t elem_size, size_t count)
{
    lat__cross_ctx *c = cx(ctx);
    lat_deviceptr b = lat__cross_translate(c, dst);
    lat_status sa, sb;
    switch (elem_size) {
    case 1:
        sa = lat_memset_d8(c->a, dst, (uint8_t)value, count);
        sb = lat_memset_d8(c->b, b, (uint8_t)value, count);
        break;
    case 2:
        sa = lat_memset_d16(c->a, dst, (uint16_t)value, count);
        sb = lat_memset_d16(c->b, b, (uint16_t)value, count);
        break;
    default:
        sa = lat_memset_d32(c->a, dst, value, count);
        sb = lat_memset_d32(c->b, b, value, count);
        break;
    }
    return both(sa, sb);
}

static lat_status memcpy_htod(lat_context *ctx, lat_deviceptr dst, const void *src, size_t bytes)
{
    lat__cross_ctx *c = cx(ctx);
    lat_status sa = lat_memcpy_htod(c->a, dst, src, bytes);
    lat_status sb = lat_memcpy_htod(c->b, lat__cross_translate(c, dst), src, bytes);
    return both(sa, sb);
}

static lat_status memcpy_dtoh(lat_context *ctx, void *dst, lat_deviceptr src, size_t bytes)
{
    /* The program sees the primary's data; the launches that wrote it were compared. */
    return lat_memcpy_dtoh(cx(ctx)->a, dst, src, bytes);
}

static lat_status memcpy_dtod(lat_context *ctx, lat_deviceptr dst, lat_deviceptr src, size_t bytes)
{
    lat__cross_ctx *c = cx(ctx);
    lat_status sa = lat_memcpy_dtod(c->a, dst, src, bytes);
    lat_status sb = lat_memcpy_dtod(c->b, lat__cross_translate(c, dst),
                                    lat__cross_translate(c, src), bytes);
    return both(sa, sb);
}

/* ---- backend: modules and launches ----------------------------------------------------------- */

static lat_status module_create(lat_context *ctx, lat_module *mod, const lat__source *src)
{
    lat__cross_ctx *c = cx(ctx);
    lat__cross_module *m = lat__calloc(1, sizeof *m);
    if (!m)
        return lat__oom(ctx);
    const lat_module_desc d = {
        .source = src->text,
        .name = src->name,
        .defines = src->defines,
        .include_dirs = src->include_dirs,
        .options = src->options,
        .no_extern_c = src->no_extern_c,
        .name_expressions = src->name_expressions,
    };
    /* The emulator first: what it cannot run (its dialect's limits, a missing include
     * as LAT_ERROR_FILE) decides, as t_is_emu-style programs expect of a cross context. */
    lat_status st = lat_module_create(c->b, &d, &m->b);
    if (st == LAT_OK)
        st = lat_module_create(c->a, &d, &m->a);
    if (st != LAT_OK) {
        lat_module_destroy(m->b);
        free(m);
        return st;
    }
    const char *la = lat_module_log(m->a), *lb = lat_module_log(m->b);
    mod->log = lat__strdup(la[0] ? la : lb);
    mod->impl = m;
    return LAT_OK;
}

static void module_destroy(lat_module *mod)
{
    lat__cross_module *m = mod->impl;
    if (!m)
        return;
    lat_module_destroy(m->a);
    lat_module_destroy(m->b);
    free(m);
    mod->impl = NULL;
}

static lat_status kernel_get(lat_module *mod, lat_kernel *kernel)
{
    lat__cross_module *m = mod->impl;
    lat__cross_kernel *k = lat__calloc(1, sizeof *k);
    if (!k)
        return lat__oom(mod->ctx);
    lat_status st = lat_module_get_kernel(m->a, kernel->name, &k->a);
    /* A symbol the primary lowered a name expression to (lat_module_get_lowered_name gives
     * the primary's, "_Z15BlackScholesGPUPff"): the emulator lowers the expression to a name
     * of its own, so its half is found by the expression. */
    const char *name_b = kernel->name;
    for (char **e = mod->name_exprs; st == LAT_OK && e && *e && name_b == kernel->name; e++) {
        const char *lowered = NULL;
        if (strcmp(*e, kernel->name) != 0 && lat_module_get_lowered_name(m->a, *e, &lowered) == LAT_OK &&
            strcmp(lowered, kernel->name) == 0)
            name_b = *e;
    }
    if (st == LAT_OK)
        st = lat_module_get_kernel(m->b, name_b, &k->b);
    if (st != LAT_OK) {
        free(k);
        return st;
    }
    /* What the sides know of the parameters: the primary's view, completed by the
     * emulator's (which always knows the sizes). */
    const lat_kernel *known = k->a->nparams >= 0 ? k->a : k->b;
    kernel->backend_nparams = known->nparams;
    if (known->nparams > 0) {
        kernel->backend_param_sizes = lat__calloc((size_t)known->nparams, sizeof(size_t));
        if (!kernel->backend_param_sizes) {
            free(k);
            return lat__oom(mod->ctx);
        }
        for (int i = 0; i < known->nparams; i++)
            kernel->backend_param_sizes[i] = known->param_size[i];
    }
    kernel->impl = k;
    return LAT_OK;
}

static void kernel_release(lat_kernel *kernel)
{
    free(kernel->impl); /* the inner kernels belong to the inner modules */
    kernel->impl = NULL;
}

/* The emulator's half is the one whose path can differ from kernel to kernel. */
static const char *kernel_path(const lat_kernel *kernel)
{
    const lat__cross_kernel *k = kernel->impl;
    const lat__backend *b = k->b->module->ctx->backend;
    return b->kernel_path ? b->kernel_path(k->b) : "";
}

/* The primary's lowered names: the symbols the GPU runs. */
static lat_status module_lowered_name(lat_module *mod, const char *expr, const char **out)
{
    lat__cross_module *m = mod->impl;
    lat_status st = lat_module_get_lowered_name(m->a, expr, out);
    return st == LAT_OK || st == LAT_ERROR_KERNEL_NOT_FOUND
               ? st
               : lat__error(mod->ctx, st, "%s", lat__last_failure());
}

/* The size of parameter i as the emulator compiled it (it always knows), else ours. */
static size_t param_size(const lat_kernel *kernel, const lat__cross_kernel *k, int i)
{
    if (k->b->backend_param_sizes && i < k->b->backend_nparams && k->b->backend_param_sizes[i])
        return k->b->backend_param_sizes[i];
    return kernel->param_size && i < kernel->nparams ? kernel->param_size[i] : 0;
}

static int param_count(const lat_kernel *kernel, const lat__cross_kernel *k)
{
    return k->b->backend_nparams >= 0 ? k->b->backend_nparams : kernel->nparams;
}

static lat_status launch(lat_kernel *kernel, const lat__launch *l, void **params)
{
    lat_context *ctx = kernel->module->ctx;
    lat__cross_ctx *c = cx(ctx);
    lat__cross_kernel *k = kernel->impl;
    int n = param_count(kernel, k);
    if (n < 0)
        n = 0;

    /* The emulator's arguments: a copy of each, with every 8-byte word that holds a
     * primary address (a pointer parameter, or a pointer inside a struct) rewritten. */
    void *small_params[16];
    unsigned char small_store[16 * 16];
    void **pb = small_params;
    unsigned char *store = small_store;
    size_t total = 0;
    for (int i = 0; i < n; i++)
        total += (param_size(kernel, k, i) + 15) / 16 * 16;
    if (n > 16 || total > sizeof small_store) {
        pb = lat__calloc((size_t)(n ? n : 1), sizeof *pb);
        store = lat__malloc(total ? total : 1);
        if (!pb || !store) {
            free(pb);
            free(store);
            return lat__oom(ctx);
        }
    }
    size_t off = 0;
    for (int i = 0; i < n; i++) {
        size_t size = param_size(kernel, k, i);
        pb[i] = store + off;
        if (size)
            memcpy(store + off, params[i], size);
        for (size_t w = 0; w + 8 <= size; w += 8) {
            uint64_t v;
            memcpy(&v, store + off + w, 8);
            lat_deviceptr t = lat__cross_translate(c, v);
            if (t)
                memcpy(store + off + w, &t, 8);
        }
        lat__cross_texture_param(ctx, kernel, i, store + off, size); /* cross_texture.c */
        off += (size + 15) / 16 * 16;
    }

    lat__cross_stream *s = l->stream ? l->stream->impl : NULL;
    lat_launch_desc da = {
        .grid = {l->grid[0], l->grid[1], l->grid[2]},
        .block = {l->block[0], l->block[1], l->block[2]},
        .shared_bytes = l->shared_bytes,
        .stream = s ? s->a : NULL,
        .cooperative = l->cooperative,
    };
    lat_launch_desc db = da;
    db.stream = s ? s->b : NULL;
    lat_status sa = lat_launch(k->a, &da, params);
    if (sa == LAT_OK)
        sa = s ? lat_stream_synchronize(s->a) : lat_context_synchronize(c->a);
    char a_msg[512] = "";
    if (sa != LAT_OK)
        snprintf(a_msg, sizeof a_msg, "%s", lat__last_failure());
    lat_status sb = lat_launch(k->b, &db, n ? pb : NULL);
    if (pb != small_params) {
        free(pb);
        free(store);
    }
    if (sa != LAT_OK && sb != LAT_OK)
        return lat__error(ctx, sa, "%s", a_msg);
    if (sa != sb)
        return lat__error(ctx, LAT_ERROR_CROSS_MISMATCH,
                          "cross-check: kernel '%s' %s on %s (%s) but %s on the emulator%s%s",
                          kernel->name, sa != LAT_OK ? "failed" : "ran", lat_backend_name(primary_kind()),
                          lat_status_name(sa), sb != LAT_OK ? "failed" : "ran",
                          ": ", sa != LAT_OK ? a_msg : lat__last_failure());
    lat_status st = lat__cross_compare(ctx, kernel, l, params);
    return st == LAT_OK ? lat__cross_compare_surfaces(ctx, kernel, params) : st;
}

/* A cooperative grid must fit both sides. */
static lat_status max_cooperative_blocks(lat_kernel *kernel, unsigned block_threads,
                                         size_t shared_bytes, unsigned *out)
{
    lat__cross_kernel *k = kernel->impl;
    unsigned a = 0, b = 0;
    lat_status st = lat_kernel_max_cooperative_blocks(k->a, block_threads, shared_bytes, &a);
    if (st == LAT_OK)
        st = lat_kernel_max_cooperative_blocks(k->b, block_threads, shared_bytes, &b);
    if (st != LAT_OK)
        return lat__error(kernel->module->ctx, st, "%s", lat__last_failure());
    *out = a < b ? a : b;
    return LAT_OK;
}

const lat__backend lat__backend_cross = {
    .name = "cross",
    .kind = LAT_BACKEND_CROSS,
    .probe = probe,
    .device_count = device_count,
    .device_info = device_info,
    .context_create = context_create,
    .context_destroy = context_destroy,
    .synchronize = synchronize,
    .mem_alloc = mem_alloc,
    .mem_free = mem_free,
    .mem_info = mem_info,
    .memset = memset_both,
    .memcpy_htod = memcpy_htod,
    .memcpy_dtoh = memcpy_dtoh,
    .memcpy_dtod = memcpy_dtod,
    .module_create = module_create,
    .module_destroy = module_destroy,
    .kernel_get = kernel_get,
    .kernel_release = kernel_release,
    .module_lowered_name = module_lowered_name,
    .launch = launch,
    .max_cooperative_blocks = max_cooperative_blocks,
    .kernel_path = kernel_path,
    .driver = &lat__cross_driver_ops,
    .texture = &lat__cross_texture_ops,
    .reader = &lat__emu_reader, /* both halves read alike */
};

/* ---- driver layer ------------------------------------------------------------------------------- */

static lat_status d_device_attribute(int ordinal, const char *name, int *value)
{
    return lat_device_attribute(primary_kind(), ordinal, name, value);
}

static lat_status d_driver_version(int *version)
{
    return lat_backend_driver_version(primary_kind(), version);
}

static lat_status d_can_access_peer(int ordinal, int peer, int *can)
{
    return lat_device_can_access_peer(primary_kind(), ordinal, peer, can);
}

static lat_status d_enable_peer_access(lat_context *ctx, lat_context *peer)
{
    return lat_context_enable_peer_access(cx(ctx)->a, cx(peer)->a);
}

static lat_status d_memcpy_peer(lat_context *dst_ctx, lat_deviceptr dst, lat_context *src_ctx,
                                lat_deviceptr src, size_t bytes)
{
    lat__cross_ctx *d = cx(dst_ctx), *s = cx(src_ctx);
    lat_status sa = lat_memcpy_peer(d->a, dst, s->a, src, bytes);
    lat_status sb = lat_memcpy_peer(d->b, lat__cross_translate(d, dst), s->b,
                                    lat__cross_translate(s, src), bytes);
    return both(sa, sb);
}

static lat_stream *sa_of(lat_stream *s)
{
    return s ? ((lat__cross_stream *)s->impl)->a : NULL;
}

static lat_stream *sb_of(lat_stream *s)
{
    return s ? ((lat__cross_stream *)s->impl)->b : NULL;
}

static lat_status d_stream_create(lat_stream *s, const lat_stream_desc *desc)
{
    lat__cross_stream *p = lat__calloc(1, sizeof *p);
    if (!p)
        return lat__oom(s->ctx);
    lat_status st = lat_stream_create(cx(s->ctx)->a, desc, &p->a);
    if (st == LAT_OK)
        st = lat_stream_create(cx(s->ctx)->b, desc, &p->b);
    if (st != LAT_OK) {
        lat_stream_destroy(p->a);
        free(p);
        return st;
    }
    s->impl = p;
    return LAT_OK;
}

static void d_stream_destroy(lat_stream *s)
{
    lat__cross_stream *p = s->impl;
    lat_stream_destroy(p->a);
    lat_stream_destroy(p->b);
    free(p);
}

static lat_status d_stream_synchronize(lat_stream *s)
{
    lat_status a = lat_stream_synchronize(sa_of(s));
    lat_status b = lat_stream_synchronize(sb_of(s));
    return both(a, b);
}

static lat_status d_stream_query(lat_stream *s, int *done)
{
    int da = 0, db = 0;
    lat_status a = lat_stream_query(sa_of(s), &da);
    lat_status b = lat_stream_query(sb_of(s), &db);
    *done = da && db;
    return both(a, b);
}

static lat_status d_stream_wait_event(lat_context *ctx, lat_stream *s, lat_event *e)
{
    lat__cross_event *ev = e->impl;
    (void)ctx;
    lat_status a = lat_stream_wait_event(sa_of(s), ev->a);
    lat_status b = lat_stream_wait_event(sb_of(s), ev->b);
    return both(a, b);
}

static lat_status d_event_create(lat_event *e, const lat_event_desc *desc)
{
    lat__cross_event *p = lat__calloc(1, sizeof *p);
    if (!p)
        return lat__oom(e->ctx);
    lat_status st = lat_event_create(cx(e->ctx)->a, desc, &p->a);
    if (st == LAT_OK)
        st = lat_event_create(cx(e->ctx)->b, desc, &p->b);
    if (st != LAT_OK) {
        lat_event_destroy(p->a);
        free(p);
        return st;
    }
    e->impl = p;
    return LAT_OK;
}

static void d_event_destroy(lat_event *e)
{
    lat__cross_event *p = e->impl;
    lat_event_destroy(p->a);
    lat_event_destroy(p->b);
    free(p);
}

static lat_status d_event_record(lat_event *e, lat_stream *s)
{
    lat__cross_event *p = e->impl;
    lat_status a = lat_event_record(p->a, sa_of(s));
    lat_status b = lat_event_record(p->b, sb_of(s));
    return both(a, b);
}

static lat_status d_event_synchronize(lat_event *e)
{
    lat__cross_event *p = e->impl;
    lat_status a = lat_event_synchronize(p->a);
    lat_status b = lat_event_synchronize(p->b);
    return both(a, b);
}

static lat_status d_event_query(lat_event *e, int *done)
{
    lat__cross_event *p = e->impl;
    int da = 0, db = 0;
    lat_status a = lat_event_query(p->a, &da);
    lat_status b = lat_event_query(p->b, &db);
    *done = da && db;
    return both(a, b);
}

static lat_status d_event_elapsed(lat_event *start, lat_event *end, float *ms)
{
    /* The primary's clock: the emulator's times are not the program's. */
    return lat_event_elapsed_ms(((lat__cross_event *)start->impl)->a,
                                ((lat__cross_event *)end->impl)->a, ms);
}

/* Host memory is the primary's: the emulator reads and writes any host memory. */
static lat_status d_host_alloc(lat_context *ctx, size_t bytes, unsigned flags, void **out)
{
    return lat_host_alloc(cx(ctx)->a, bytes, flags, out);
}

static void d_host_free(lat_context *ctx, void *ptr)
{
    (void)lat_host_free(cx(ctx)->a, ptr);
}

static lat_status d_host_register(lat_context *ctx, void *ptr, size_t bytes, unsigned flags)
{
    return lat_host_register(cx(ctx)->a, ptr, bytes, flags);
}

static void d_host_unregister(lat_context *ctx, void *ptr)
{
    (void)lat_host_unregister(cx(ctx)->a, ptr);
}

static lat_status d_host_device_pointer(lat_context *ctx, void *ptr, lat_deviceptr *out)
{
    return lat_host_device_pointer(cx(ctx)->a, ptr, out);
}

static lat_status d_mem_alloc_pitch(lat_context *ctx, size_t width, size_t height,
                                    unsigned elem_size, lat_deviceptr *out, size_t *pitch)
{
    lat__cross_ctx *c = cx(ctx);
    lat_deviceptr a = 0, b = 0;
    size_t p = 0;
    lat_status st = lat_mem_alloc_pitch(c->a, width, height, elem_size, &a, &p);
    /* The emulator's copy gets the primary's pitch, so that one lat_copy_2d fits both. */
    if (st == LAT_OK)
        st = lat_mem_alloc(c->b, p * height, &b);
    if (st == LAT_OK)
        st = zero_both(c, a, b, p * height);
    if (st == LAT_OK)
        st = add_pair(ctx, a, p * height, b);
    if (st != LAT_OK) {
        (void)lat_mem_free(c->a, a);
        (void)lat_mem_free(c->b, b);
        return st;
    }
    *out = a;
    *pitch = p;
    return LAT_OK;
}

static lat_status d_memcpy_2d(lat_context *ctx, const lat_copy_2d *copy, lat_stream *s, bool async)
{
    lat__cross_ctx *c = cx(ctx);
    lat_copy_2d b = *copy;
    b.src_device = lat__cross_translate(c, copy->src_device);
    b.dst_device = lat__cross_translate(c, copy->dst_device);
    if (copy->dst_host) {
        /* The program's host buffer receives the primary's rows only. */
        return async ? lat_memcpy_2d_async(c->a, copy, sa_of(s)) : lat_memcpy_2d(c->a, copy);
    }
    lat_status sa = async ? lat_memcpy_2d_async(c->a, copy, sa_of(s)) : lat_memcpy_2d(c->a, copy);
    lat_status sb = async ? lat_memcpy_2d_async(c->b, &b, sb_of(s)) : lat_memcpy_2d(c->b, &b);
    return both(sa, sb);
}

static lat_status d_memcpy_htod_async(lat_context *ctx, lat_deviceptr dst, const void *src,
                                      size_t bytes, lat_stream *s)
{
    lat__cross_ctx *c = cx(ctx);
    lat_status a = lat_memcpy_htod_async(c->a, dst, src, bytes, sa_of(s));
    lat_status b = lat_memcpy_htod_async(c->b, lat__cross_translate(c, dst), src, bytes, sb_of(s));
    return both(a, b);
}

static lat_status d_memcpy_dtoh_async(lat_context *ctx, void *dst, lat_deviceptr src,
                                      size_t bytes, lat_stream *s)
{
    return lat_memcpy_dtoh_async(cx(ctx)->a, dst, src, bytes, sa_of(s));
}

static lat_status d_memcpy_dtod_async(lat_context *ctx, lat_deviceptr dst, lat_deviceptr src,
                                      size_t bytes, lat_stream *s)
{
    lat__cross_ctx *c = cx(ctx);
    lat_status a = lat_memcpy_dtod_async(c->a, dst, src, bytes, sa_of(s));
    lat_status b = lat_memcpy_dtod_async(c->b, lat__cross_translate(c, dst),
                                         lat__cross_translate(c, src), bytes, sb_of(s));
    return both(a, b);
}

static lat_status d_memset_async(lat_context *ctx, lat_deviceptr dst, uint32_t value,
                                 size_t elem_size, size_t count, lat_stream *s)
{
    lat__cross_ctx *c = cx(ctx);
    lat_deviceptr b = lat__cross_translate(c, dst);
    lat_status sa, sb;
    switch (elem_size) {
    case 1:
        sa = lat_memset_d8_async(c->a, dst, (uint8_t)value, count, sa_of(s));
        sb = lat_memset_d8_async(c->b, b, (uint8_t)value, count, sb_of(s));
        break;
    case 2:
        sa = lat_memset_d16_async(c->a, dst, (uint16_t)value, count, sa_of(s));
        sb = lat_memset_d16_async(c->b, b, (uint16_t)value, count, sb_of(s));
        break;
    default:
        sa = lat_memset_d32_async(c->a, dst, value, count, sa_of(s));
        sb = lat_memset_d32_async(c->b, b, value, count, sb_of(s));
        break;
    }
    return both(sa, sb);
}

static lat_status d_mem_alloc_async(lat_context *ctx, size_t bytes, lat_stream *s,
                                    lat_deviceptr *out)
{
    lat__cross_ctx *c = cx(ctx);
    lat_deviceptr a = 0, b = 0;
    lat_status st = lat_mem_alloc_async(c->a, bytes, sa_of(s), &a);
    if (st == LAT_OK)
        st = lat_mem_alloc_async(c->b, bytes, sb_of(s), &b);
    if (st == LAT_OK)
        st = lat_memset_d8_async(c->a, a, 0, bytes, sa_of(s));
    if (st == LAT_OK)
        st = lat_memset_d8_async(c->b, b, 0, bytes, sb_of(s));
    if (st == LAT_OK)
        st = add_pair(ctx, a, bytes, b);
    if (st != LAT_OK) {
        (void)lat_mem_free_async(c->a, a, sa_of(s));
        (void)lat_mem_free_async(c->b, b, sb_of(s));
        return st;
    }
    *out = a;
    return LAT_OK;
}

static lat_status d_mem_free_async(lat_context *ctx, lat_deviceptr ptr, lat_stream *s)
{
    lat__cross_ctx *c = cx(ctx);
    lat_deviceptr b = take_pair(c, ptr);
    lat_status sa = lat_mem_free_async(c->a, ptr, sa_of(s));
    lat_status sb = lat_mem_free_async(c->b, b, sb_of(s));
    return both(sa, sb);
}

static lat_status d_module_code(const lat_module *mod, lat_code_kind *kind, const void **data,
                                size_t *size)
{
    return lat_module_get_code(((lat__cross_module *)mod->impl)->a, kind, data, size);
}

static lat_status d_kernel_resources(const lat_kernel *kernel, lat_kernel_resources *out)
{
    return lat_kernel_get_resources(((lat__cross_kernel *)kernel->impl)->a, out);
}

const lat__driver_ops lat__cross_driver_ops = {
    .device_attribute = d_device_attribute,
    .driver_version = d_driver_version,
    .can_access_peer = d_can_access_peer,
    .enable_peer_access = d_enable_peer_access,
    .memcpy_peer = d_memcpy_peer,
    .stream_create = d_stream_create,
    .stream_destroy = d_stream_destroy,
    .stream_synchronize = d_stream_synchronize,
    .stream_query = d_stream_query,
    .stream_wait_event = d_stream_wait_event,
    .event_create = d_event_create,
    .event_destroy = d_event_destroy,
    .event_record = d_event_record,
    .event_synchronize = d_event_synchronize,
    .event_query = d_event_query,
    .event_elapsed = d_event_elapsed,
    .host_alloc = d_host_alloc,
    .host_free = d_host_free,
    .host_register = d_host_register,
    .host_unregister = d_host_unregister,
    .host_device_pointer = d_host_device_pointer,
    .mem_alloc_pitch = d_mem_alloc_pitch,
    .memcpy_2d = d_memcpy_2d,
    .memcpy_htod_async = d_memcpy_htod_async,
    .memcpy_dtoh_async = d_memcpy_dtoh_async,
    .memcpy_dtod_async = d_memcpy_dtod_async,
    .memset_async = d_memset_async,
    .mem_alloc_async = d_mem_alloc_async,
    .mem_free_async = d_mem_free_async,
    .launch_buffers = NULL, /* the core's path: through the operations above */
    .module_load = NULL,    /* the emulator cannot run an image */
    .module_code = d_module_code,
    .kernel_resources = d_kernel_resources,
    .share_module_impl = false,
};
