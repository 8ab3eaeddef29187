/*
 * Modules as code: loading PTX or a CUBIN (PyCUDA's module_from_buffer / _from_file),
 * giving out the code a module was loaded from, and each kernel's resource report.
 */
#include "driver_ops.h"
#include "core/alloc.h"
#include "file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static lat_status read_image(lat_context *ctx, const char *path, char **out, size_t *size)
{
    lat_status st = lat__read_file_or_error(ctx, path, out, size);
    if (st != LAT_OK)
        return st;
    if (*size == 0) {
        free(*out);
        return lat__error(ctx, LAT_ERROR_FILE, "empty file '%s'", path);
    }
    return LAT_OK;
}

lat_status lat_module_load(lat_context *ctx, const lat_module_image_desc *desc, lat_module **out)
{
    LAT__API();
    if (!ctx || !desc || !out)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s is NULL",
                          !ctx ? "ctx" : !desc ? "desc" : "out");
    *out = NULL;
    if (!desc->data == !desc->path)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "give exactly one of desc->data and desc->path (%s given)",
                          desc->data ? "both" : "neither");
    if (desc->data && desc->size == 0)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "desc->size is 0");
    if (desc->kind != LAT_CODE_AUTO && desc->kind != LAT_CODE_PTX && desc->kind != LAT_CODE_CUBIN)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "desc->kind %d is not a lat_code_kind", (int)desc->kind);
    if (!lat__drv(ctx)->module_load)
        return lat__error(ctx, LAT_ERROR_UNSUPPORTED,
                          "the %s backend runs CUDA C source only, not PTX or CUBIN images "
                          "(use lat_module_create)", ctx->backend->name);

    /* A private copy, NUL-terminated, so that PTX given without its NUL can be loaded. */
    char *image = NULL;
    size_t size = 0;
    if (desc->path) {
        lat_status st = read_image(ctx, desc->path, &image, &size);
        if (st != LAT_OK)
            return st;
    } else {
        size = desc->size;
        image = lat__malloc(size + 1);
        if (!image)
            return lat__oom(ctx);
        memcpy(image, desc->data, size);
        image[size] = '\0';
    }
    lat_code_kind kind = desc->kind;
    if (kind == LAT_CODE_AUTO)
        kind = size >= 4 && memcmp(image, "\177ELF", 4) == 0 ? LAT_CODE_CUBIN : LAT_CODE_PTX;
    const char *name = desc->name ? desc->name
                       : desc->path ? desc->path
                       : kind == LAT_CODE_CUBIN ? "module.cubin" : "module.ptx";

    lat_module *mod = lat__module_new(ctx, name);
    if (!mod) {
        free(image);
        return lat__oom(ctx);
    }
    lat_status st = lat__drv(ctx)->module_load(ctx, mod, image, size, kind);
    free(image);
    if (st != LAT_OK) {
        lat__module_discard(mod);
        return st;
    }
    mod->origin = LAT_MODULE_IMAGE;
    lat__module_publish(ctx, mod);
    *out = mod;
    return LAT_OK;
}

lat_status lat_module_get_code(const lat_module *mod, lat_code_kind *kind, const void **data,
                               size_t *size)
{
    LAT__API();
    if (!mod || !kind || !data || !size)
        return lat__error(mod ? mod->ctx : NULL, LAT_ERROR_INVALID_VALUE,
                          "%s is NULL",
                          !mod ? "mod" : !kind ? "kind" : !data ? "data" : "size");
    *kind = LAT_CODE_AUTO;
    *data = NULL;
    *size = 0;
    if (!lat__drv(mod->ctx)->module_code)
        return lat__error(mod->ctx, LAT_ERROR_UNSUPPORTED,
                          "module %s: the %s backend compiles to host code, "
                          "which it does not give out (no PTX or CUBIN exists)",
                          mod->name, mod->ctx->backend->name);
    return lat__drv(mod->ctx)->module_code(mod, kind, data, size);
}

lat_module_origin lat_module_get_origin(const lat_module *mod)
{
    LAT__API();
    return mod ? (lat_module_origin)mod->origin : LAT_MODULE_COMPILED;
}

lat_module_tier lat_module_get_tier(const lat_module *mod)
{
    LAT__API();
    if (!mod || !mod->ctx->backend->module_tier)
        return LAT_MODULE_TIER_NATIVE;
    return (lat_module_tier)mod->ctx->backend->module_tier(mod);
}

lat_status lat_kernel_get_resources(const lat_kernel *kernel, lat_kernel_resources *out)
{
    LAT__API();
    if (!kernel || !out)
        return lat__error(kernel ? kernel->module->ctx : NULL, LAT_ERROR_INVALID_VALUE,
                          "%s is NULL", kernel ? "out" : "kernel");
    lat_kernel_resources r = {-1, -1, -1, -1, -1, -1, -1, -1, -1};
    lat_status st = lat__drv(kernel->module->ctx)->kernel_resources(kernel, &r);
    *out = r;
    return st;
}

int lat_kernel_describe(const lat_kernel *kernel, char *buf, size_t size)
{
    LAT__API();
    if (!kernel)
        return -1;
    const lat__backend *b = kernel->module->ctx->backend;
    if (!b->kernel_path)
        return snprintf(buf, size, "%s's own code", b->name);
    lat_module_tier t = lat_module_get_tier(kernel->module);
    return snprintf(buf, size, "%s, %s", b->kernel_path(kernel),
                    t == LAT_MODULE_TIER_OPTIMISED ? "optimised" : t == LAT_MODULE_TIER_TINYCC ? "TinyCC" : "native");
}

/* "N" or "?" for an unknown (-1) count. */
static const char *count(char *buf, size_t size, int v)
{
    if (v < 0)
        snprintf(buf, size, "?");
    else
        snprintf(buf, size, "%d", v);
    return buf;
}

int lat_kernel_resources_format(const lat_kernel *kernel, const lat_kernel_resources *r,
                                char *buf, size_t size)
{
    LAT__API();
    if (!kernel || !r)
        return -1;
    char a[16], b[16], c[16], d[16], e[16], f[16], g[16];
    int n = snprintf(buf, size,
                     "ptxas info    : Function properties for %s\n"
                     "    %s bytes stack frame, %s bytes spill stores, %s bytes spill loads\n"
                     "ptxas info    : Used %s registers, %s bytes smem, %s bytes cmem, %s bytes "
                     "lmem",
                     kernel->name, count(a, sizeof a, r->local_bytes),
                     count(b, sizeof b, r->spill_store_bytes), count(c, sizeof c, r->spill_load_bytes),
                     count(d, sizeof d, r->registers), count(e, sizeof e, r->static_shared_bytes),
                     count(f, sizeof f, r->const_bytes), count(g, sizeof g, r->local_bytes));
    return n;
}
