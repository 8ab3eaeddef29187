/* Kernel signatures from the tree: see sigs.h. */
#include "sigs.h"
#include "core/alloc.h"

#include "ast.h"
#include "builtins.h"
#include "type.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct fields {
    lat__elem_field *items;
    uint32_t n, cap;
    bool oom;
} fields;

static void add_field(fields *f, uint32_t offset, lat__scalar_kind kind)
{
    if (f->n == f->cap) {
        uint32_t cap = f->cap ? f->cap * 2 : 8;
        lat__elem_field *p = lat__realloc(f->items, cap * sizeof *p);
        if (!p) {
            f->oom = true;
            return;
        }
        f->items = p;
        f->cap = cap;
    }
    f->items[f->n++] = (lat__elem_field){offset, (uint8_t)kind};
}

/* The floating fields of an object of type t at offset base; bytes of a union, of
 * bit-fields and of everything else compare exactly. A huge array of structs inside a
 * struct is left exact beyond a bound, rather than listing millions of fields. */
static void layout(const lat__type *t, uint32_t base, fields *f)
{
    if (f->oom || f->n > 4096)
        return;
    switch (t->kind) {
    case LAT_TY_FLOAT:
        add_field(f, base, LAT__SCALAR_F32);
        return;
    case LAT_TY_DOUBLE:
        add_field(f, base, LAT__SCALAR_F64);
        return;
    case LAT_TY_ARRAY:
        if (t->count > 0 && t->base)
            for (int64_t i = 0; i < t->count && f->n <= 4096; i++)
                layout(t->base, base + (uint32_t)i * lat__sizeof(t->base), f);
        return;
    case LAT_TY_STRUCT:
        if (!t->rec)
            return;
        if (lat__sizeof(t) == 2) { /* cuda_fp16.h's, cuda_bf16.h's (their pairs are two) */
            lat__half_class k = lat__half_class_of(t);
            if (k == LAT_HALF_F16 || k == LAT_HALF_BF16) {
                add_field(f, base, k == LAT_HALF_F16 ? LAT__SCALAR_F16 : LAT__SCALAR_BF16);
                return;
            }
        }
        for (size_t i = 0; i < t->rec->fields.n; i++) {
            const lat__field *fl = &t->rec->fields.items[i];
            if (fl->bits < 0)
                layout(fl->type, base + fl->offset, f);
        }
        return;
    default:
        return;
    }
}

static lat__param_class class_of(const lat__type *t)
{
    switch (t->kind) {
    case LAT_TY_PTR:
        return LAT__PARAM_POINTER;
    case LAT_TY_FLOAT:
    case LAT_TY_DOUBLE:
        return LAT__PARAM_FLOAT;
    case LAT_TY_STRUCT:
    case LAT_TY_UNION:
        return LAT__PARAM_RECORD;
    case LAT_TY_LDOUBLE:
        return LAT__PARAM_UNKNOWN;
    default:
        return lat__is_integer(t) ? (lat__is_unsigned(t) || t->kind == LAT_TY_BOOL ? LAT__PARAM_UINT : LAT__PARAM_SINT)
                                  : LAT__PARAM_UNKNOWN;
    }
}

static char *dup(const char *s)
{
    size_t n = strlen(s);
    char *p = lat__malloc(n + 1);
    if (p)
        memcpy(p, s, n + 1);
    return p;
}

static int one_param(lat__unit *u, const lat__sym *ps, lat__param *out)
{
    const lat__type *t = ps->type;
    out->name = dup(ps->name ? ps->name->name : "");
    out->type = dup(lat__type_str(u, t, NULL, false));
    if (!out->name || !out->type)
        return -1;
    out->cls = class_of(t);
    out->size = t->kind == LAT_TY_LDOUBLE ? 0 : lat__sizeof(t);
    if (t->kind == LAT_TY_PTR && t->base && t->base->kind != LAT_TY_VOID && lat__is_complete(t->base)) {
        fields f = {0};
        layout(t->base, 0, &f);
        if (f.oom) {
            free(f.items);
            return -1;
        }
        if (f.n > 4096) { /* too many to list: compare the element exactly */
            free(f.items);
            f.items = NULL;
            f.n = 0;
        }
        out->pointee.size = lat__sizeof(t->base);
        out->pointee.nfields = f.n;
        out->pointee.fields = f.items;
        if (lat__is_integer(t->base))
            out->pointee.integer = lat__is_unsigned(t->base) || t->base->kind == LAT_TY_BOOL ? 2 : 1;
    }
    return 0;
}

/* Whether fn can reach the grid barrier (builtins.h's LAT_COLL_GRID) through any chain
 * of calls: such a kernel needs a cooperative launch. Out of memory answers false. */
static bool reaches_grid_sync(const lat__func *fn)
{
    if (!fn)
        return false;
    /* Breadth first: queue[i] are the functions reached, each once. */
    const lat__func **queue = lat__malloc(16 * sizeof *queue);
    size_t n = 0, cap = 16;
    bool found = false;
    if (!queue)
        return false;
    queue[n++] = fn;
    for (size_t i = 0; i < n && !found; i++) {
        const lat__func *f = queue[i];
        for (size_t k = 0; k < f->calls.n && !found; k++) {
            const lat__sym *c = f->calls.items[k];
            const lat__builtin *b = c->builtin ? lat__builtin_get(c->builtin) : NULL;
            if (b) {
                found = (b->coll & LAT_COLL_GRID) != 0;
                continue;
            }
            if (c->kind != LAT_SYM_FUNC || !c->fn)
                continue;
            bool seen = false;
            for (size_t j = 0; j < n && !seen; j++)
                seen = queue[j] == c->fn;
            if (seen)
                continue;
            if (n == cap) {
                const lat__func **p = lat__realloc(queue, 2 * cap * sizeof *p);
                if (!p)
                    break;
                queue = p;
                cap *= 2;
            }
            queue[n++] = c->fn;
        }
    }
    free(queue);
    return found;
}

int lat__front_sigs(const lat__unit *cu, lat__kernel_sigs *out)
{
    memset(out, 0, sizeof *out);
    lat__unit *u = (lat__unit *)cu; /* type spelling allocates in the unit's arena */
    if (!u || !u->tu)
        return 0;
    const lat__tu *tu = u->tu;
    if (tu->kernel_templates.n) {
        out->templates = lat__calloc(tu->kernel_templates.n, sizeof *out->templates);
        if (!out->templates)
            return -1;
        for (size_t i = 0; i < tu->kernel_templates.n; i++) {
            const lat__kernel_template *kt = &tu->kernel_templates.items[i];
            lat__kernel_template_sig *ts = &out->templates[out->ntemplates++];
            ts->name = dup(kt->name);
            ts->decl = dup(kt->decl);
            ts->line = kt->line;
            if (!ts->name || !ts->decl) {
                lat__kernel_sigs_free(out);
                return -1;
            }
        }
    }
    if (tu->kernels.n == 0)
        return 0;
    if (setjmp(u->oom)) {
        lat__kernel_sigs_free(out);
        return -1;
    }
    out->items = lat__calloc(tu->kernels.n, sizeof *out->items);
    if (!out->items)
        return -1;
    for (size_t i = 0; i < tu->kernels.n; i++) {
        const lat__sym *k = tu->kernels.items[i];
        lat__kernel_sig *sig = &out->items[out->count++];
        sig->name = dup(k->expr_name ? k->expr_name : k->name->name);
        sig->line = (int)k->loc.line;
        sig->defined = (k->flags & LAT_SF_DEFINED) != 0;
        sig->grid_sync = k->kind == LAT_SYM_FUNC && reaches_grid_sync(k->fn);
        const lat__param_types *pt = &k->type->params;
        sig->nparams = pt->n;
        if (!sig->name || (pt->n && !(sig->params = lat__calloc((size_t)pt->n, sizeof *sig->params)))) {
            lat__kernel_sigs_free(out);
            return -1;
        }
        for (int p = 0; p < pt->n; p++) {
            lat__sym stand_in = {0};
            const lat__sym *ps = pt->syms && pt->syms[p] ? pt->syms[p] : &stand_in;
            if (ps == &stand_in)
                stand_in.type = pt->types[p];
            if (one_param(u, ps, &sig->params[p]) != 0) {
                lat__kernel_sigs_free(out);
                return -1;
            }
        }
    }
    return 0;
}
