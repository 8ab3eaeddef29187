/* Modules: reading the source, scanning its kernels, compiling through the backend, and
 * the kernel handles looked up from them. */
#include "backend.h"
#include "core/alloc.h"
#include "driver_ops.h"
#include "file.h"
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads the module's source file, which must hold text (no NUL byte). */
static lat_status read_source(lat_context *ctx, const char *path, char **out)
{
    char *buf;
    size_t len;
    lat_status st = lat__read_file_or_error(ctx, path, &buf, &len);
    if (st != LAT_OK)
        return st;
    if (strlen(buf) != len) {
        free(buf);
        return lat__error(ctx, LAT_ERROR_FILE, "'%s' contains a NUL byte", path);
    }
    *out = buf;
    return LAT_OK;
}

static void link_module(lat_context *ctx, lat_module *mod)
{
    pthread_mutex_lock(&ctx->lock);
    mod->next = ctx->modules;
    if (ctx->modules)
        ctx->modules->prev = mod;
    ctx->modules = mod;
    pthread_mutex_unlock(&ctx->lock);
}

static void unlink_module(lat_context *ctx, lat_module *mod)
{
    pthread_mutex_lock(&ctx->lock);
    if (mod->prev)
        mod->prev->next = mod->next;
    else
        ctx->modules = mod->next;
    if (mod->next)
        mod->next->prev = mod->prev;
    pthread_mutex_unlock(&ctx->lock);
}

static void free_strings(char **list)
{
    for (char **p = list; p && *p; p++)
        free(*p);
    free(list);
}

/* Checks the name expressions (each a non-empty string) and copies them. */
static lat_status copy_name_expressions(lat_context *ctx, const char *const *list, char ***out)
{
    *out = NULL;
    size_t n = 0;
    for (const char *const *p = list; p && *p; p++, n++) {
        const char *e = *p;
        while (*e == ' ' || *e == '\t' || *e == '\n' || *e == '\r')
            e++;
        if (!*e)
            return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                              "desc->name_expressions[%zu] is %s; a name "
                              "expression names a template instantiation, e.g. \"reduce<256>\"",
                              n, (*p)[0] ? "only blanks" : "empty");
    }
    if (n == 0)
        return LAT_OK;
    char **copy = lat__calloc(n + 1, sizeof *copy);
    for (size_t i = 0; copy && i < n; i++) {
        if (!(copy[i] = lat__strdup(list[i]))) {
            free_strings(copy);
            copy = NULL;
        }
    }
    if (!copy)
        return lat__oom(ctx);
    *out = copy;
    return LAT_OK;
}

/* The kernels the source instantiates explicitly (template __global__ void k<int>(int *);)
 * are found by their names as written there, "k<int>", as name expressions are: on CUDA,
 * NVRTC is given them as name expressions (a source with templates is then compiled as
 * written, not inside extern "C", where its templates could not be). -1: out of memory. */
static int add_instantiations(lat_module *mod)
{
    size_t n = 0;
    for (char **e = mod->name_exprs; e && *e; e++)
        n++;
    for (int i = 0; i < mod->sigs.count; i++) {
        const char *name = mod->sigs.items[i].name;
        if (!mod->sigs.items[i].defined || !strchr(name, '<'))
            continue;
        bool have = false;
        for (size_t j = 0; j < n && !have; j++)
            have = strcmp(mod->name_exprs[j], name) == 0;
        if (have)
            continue;
        char **grown = realloc(mod->name_exprs, (n + 2) * sizeof *grown);
        if (!grown)
            return -1;
        mod->name_exprs = grown;
        if (!(grown[n] = lat__strdup(name)))
            return -1;
        grown[++n] = NULL;
    }
    return 0;
}

static void free_module(lat_module *mod)
{
    free(mod->globals);
    free_strings(mod->name_exprs);
    free_strings(mod->name_keys);
    lat__kernel_sigs_free(&mod->sigs);
    free(mod->log);
    free(mod->name);
    pthread_mutex_destroy(&mod->lock);
    free(mod);
}

lat_module *lat__module_new(lat_context *ctx, const char *name)
{
    lat_module *mod = lat__calloc(1, sizeof *mod);
    if (!mod || pthread_mutex_init(&mod->lock, NULL) != 0) {
        free(mod);
        return NULL;
    }
    mod->ctx = ctx;
    mod->name = lat__strdup(name);
    mod->log = lat__strdup("");
    if (!mod->name || !mod->log) {
        free_module(mod);
        return NULL;
    }
    return mod;
}

void lat__module_publish(lat_context *ctx, lat_module *mod)
{
    link_module(ctx, mod);
}

void lat__module_discard(lat_module *mod)
{
    free_module(mod);
}

lat_status lat_module_create(lat_context *ctx, const lat_module_desc *desc, lat_module **out)
{
    LAT__API();
    if (!ctx || !desc || !out)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s is NULL",
                          !ctx ? "ctx" : !desc ? "desc" : "out");
    *out = NULL;
    if (!desc->source == !desc->path)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "give exactly one of desc->source and desc->path "
                          "(%s given)", desc->source ? "both" : "neither");

    char *text = NULL;
    if (desc->path) {
        lat_status st = read_source(ctx, desc->path, &text);
        if (st != LAT_OK)
            return st;
    }
    const char *name = desc->name ? desc->name : desc->path ? desc->path : "kernel.cu";
    char **name_exprs;
    lat_status est = copy_name_expressions(ctx, desc->name_expressions, &name_exprs);
    if (est != LAT_OK) {
        free(text);
        return est;
    }

    lat_module *mod = lat__calloc(1, sizeof *mod);
    if (!mod || pthread_mutex_init(&mod->lock, NULL) != 0) {
        free(mod);
        free(text);
        free_strings(name_exprs);
        return lat__oom(ctx);
    }
    mod->ctx = ctx;
    mod->name_exprs = name_exprs;
    mod->name = lat__strdup(name);
    const char *source = text ? text : desc->source;
    if (!mod->name) {
        free(text);
        free_module(mod);
        return lat__oom(ctx);
    }

    lat__source src = {
        .text = source,
        .name = mod->name,
        .defines = desc->defines,
        .include_dirs = desc->include_dirs,
        .options = desc->options,
        .no_extern_c = desc->no_extern_c != 0,
        .name_expressions = (const char *const *)name_exprs,
        .sigs = &mod->sigs,
        .emu_opt = desc->emu_opt ? (int)desc->emu_opt : ctx->emu_opt,
    };
    /* The source is read once, by the front end: its kernels' signatures serve both
     * backends (arguments are checked alike), its tree the emulator. */
    lat__options fo;
    lat_status st = lat__options_read(ctx, &src, &fo);
    src.opts = &fo;
    const lat__reader *reader = ctx->backend->reader;
    struct lat__unit *unit = NULL;
    if (st == LAT_OK) {
        /* The templates' instances the name expressions name, before the signatures are
         * read: the emulator compiles them, and both backends check their arguments. */
        lat_status pst = reader->parse(&src, &unit);
        size_t nexprs = 0;
        for (char **e = name_exprs; e && *e; e++)
            nexprs++;
        if (nexprs && pst == LAT_OK && !(mod->name_keys = lat__calloc(nexprs + 1, sizeof *mod->name_keys)))
            st = lat__oom(ctx);
        for (size_t i = 0; mod->name_keys && i < nexprs && st == LAT_OK; i++) {
            bool none = false; /* other errors: in the unit's messages, for the emulator */
            const char *key = reader->instantiate(unit, name_exprs[i], &none);
            if (none) /* a name the program has no function of: no backend compiles it */
                st = lat__error(ctx, LAT_ERROR_KERNEL_NOT_FOUND,
                                "%s: the name expression '%s' names no function "
                                "of the module", mod->name, name_exprs[i]);
            else if (!(mod->name_keys[i] = lat__strdup(key ? key : name_exprs[i])))
                st = lat__oom(ctx);
        }
        if (st != LAT_OK)
            ;
        else if (pst == LAT_ERROR_OUT_OF_MEMORY || !unit || reader->signatures(unit, &mod->sigs) != 0 ||
                 add_instantiations(mod) != 0)
            st = lat__oom(ctx);
        src.name_expressions = (const char *const *)mod->name_exprs;
    }
    src.unit = unit;
    if (st == LAT_OK)
        st = lat__module_compile(ctx, mod, &src); /* through the compile cache */
    reader->unit_free(unit); /* NULL-safe */
    lat__options_free(&fo);
    free(text);
    if (st != LAT_OK) {
        free_module(mod);
        return st;
    }
    if (!mod->log)
        mod->log = lat__strdup("");
    if (!mod->log) {
        lat__module_release_impl(mod);
        free_module(mod);
        return lat__oom(ctx);
    }
    if (mod->log[0])
        lat__log(ctx, LAT_LOG_WARNING, "%s: compiled; its log (lat_module_get_log) says:\n%s", mod->name,
                 mod->log);
    link_module(ctx, mod);
    *out = mod;
    return LAT_OK;
}

static void release_kernel(lat_kernel *k)
{
    free(k->name);
    free(k->backend_param_sizes);
    free(k->param_class);
    free(k->param_size);
    free(k);
}

void lat_module_destroy(lat_module *mod)
{
    LAT__API();
    if (!mod)
        return;
    lat_context *ctx = mod->ctx;
    unlink_module(ctx, mod);
    for (lat_kernel *k = mod->kernels, *next; k; k = next) {
        next = k->next;
        ctx->backend->kernel_release(k);
        release_kernel(k);
    }
    lat__module_release_impl(mod);
    free_module(mod);
}

const char *lat_module_log(const lat_module *mod)
{
    LAT__API();
    return mod && mod->log ? mod->log : "";
}

/* Merges what the scanner read in the source with what the backend knows. */
static lat_status merge_params(lat_kernel *k)
{
    const lat__kernel_sig *sig = k->sig;
    int n = k->backend_nparams >= 0 ? k->backend_nparams : sig ? sig->nparams : -1;
    k->nparams = n;
    if (n <= 0)
        return LAT_OK;
    k->param_class = lat__calloc((size_t)n, sizeof *k->param_class);
    k->param_size = lat__calloc((size_t)n, sizeof *k->param_size);
    if (!k->param_class || !k->param_size)
        return LAT_ERROR_OUT_OF_MEMORY;
    bool sig_agrees = sig && sig->nparams == n;
    for (int i = 0; i < n; i++) {
        if (sig_agrees) {
            k->param_class[i] = sig->params[i].cls;
            k->param_size[i] = sig->params[i].size;
        }
        if (k->backend_param_sizes && k->backend_param_sizes[i])
            k->param_size[i] = k->backend_param_sizes[i];
    }
    return LAT_OK;
}

const char *lat__module_name_key(const lat_module *mod, const char *name)
{
    for (size_t i = 0; mod->name_keys && mod->name_keys[i]; i++)
        if (strcmp(mod->name_exprs[i], name) == 0)
            return mod->name_keys[i];
    return name;
}

static lat_status not_found(lat_module *mod, const char *name)
{
    const lat__kernel_sig *sig = lat__kernel_sigs_find(&mod->sigs, name);
    if (sig && !sig->defined)
        return lat__error(mod->ctx, LAT_ERROR_KERNEL_NOT_FOUND,
                          "kernel '%s' is declared in module %s (line %d) "
                          "but never defined: a __global__ function needs its body in the module",
                          name, mod->name, sig->line);
    char *list = NULL, *exprs = NULL;
    size_t len = 0, elen = 0;
    for (int i = 0; i < mod->sigs.count; i++)
        if (mod->sigs.items[i].defined)
            (void)lat__strbuf_printf(&list, &len, "%s'%s'", len ? ", " : "", mod->sigs.items[i].name);
    for (char **e = mod->name_exprs; e && *e; e++)
        (void)lat__strbuf_printf(&exprs, &elen, "%s'%s'", elen ? ", " : "", *e);
    lat_status st = lat__error(mod->ctx, LAT_ERROR_KERNEL_NOT_FOUND,
                               "no kernel '%s' in module %s (it has %s%s%s%s%s)%s",
                               name, mod->name, list ? "" : "no __global__ function",
                               list ? list : "", exprs ? "; name expressions " : "",
                               exprs ? exprs : "", exprs ? ", each found by that string" : "",
                               !exprs && strchr(name, '<')
                                   ? ": a template's instantiation is found by the name "
                                     "expression that named it (lat_module_desc.name_expressions)"
                                   : "");
    free(list);
    free(exprs);
    return st;
}

int lat_module_kernel_count(const lat_module *mod)
{
    LAT__API();
    int n = 0;
    for (int i = 0; mod && i < mod->sigs.count; i++)
        n += mod->sigs.items[i].defined != 0;
    return n;
}

const char *lat_module_kernel_name(const lat_module *mod, int i)
{
    LAT__API();
    for (int j = 0; mod && i >= 0 && j < mod->sigs.count; j++)
        if (mod->sigs.items[j].defined && i-- == 0)
            return mod->sigs.items[j].name;
    return NULL;
}

int lat_module_template_count(const lat_module *mod)
{
    LAT__API();
    return mod ? mod->sigs.ntemplates : 0;
}

const char *lat_module_template_name(const lat_module *mod, int i)
{
    LAT__API();
    return mod && i >= 0 && i < mod->sigs.ntemplates ? mod->sigs.templates[i].name : NULL;
}

const char *lat_module_template_declaration(const lat_module *mod, int i)
{
    LAT__API();
    return mod && i >= 0 && i < mod->sigs.ntemplates ? mod->sigs.templates[i].decl : NULL;
}

lat_status lat_module_get_kernel(lat_module *mod, const char *name, lat_kernel **out)
{
    LAT__API();
    if (!mod || !name || !out)
        return lat__error(mod ? mod->ctx : NULL, LAT_ERROR_INVALID_VALUE,
                          "%s is NULL", !mod ? "mod" : !name ? "name" : "out");
    *out = NULL;
    pthread_mutex_lock(&mod->lock);
    for (lat_kernel *k = mod->kernels; k; k = k->next) {
        if (strcmp(k->name, name) == 0) {
            pthread_mutex_unlock(&mod->lock);
            *out = k;
            return LAT_OK;
        }
    }
    lat_kernel *k = lat__calloc(1, sizeof *k);
    if (k)
        k->name = lat__strdup(name);
    if (!k || !k->name) {
        pthread_mutex_unlock(&mod->lock);
        if (k)
            release_kernel(k);
        return lat__oom(mod->ctx);
    }
    k->module = mod;
    k->backend_nparams = -1;
    k->sig = lat__kernel_sigs_find(&mod->sigs, lat__module_name_key(mod, name));
    lat_status st = mod->ctx->backend->kernel_get(mod, k);
    if (st == LAT_OK) {
        st = merge_params(k);
        if (st != LAT_OK) {
            mod->ctx->backend->kernel_release(k);
            (void)lat__error(mod->ctx, st, "out of host memory");
        }
    }
    if (st != LAT_OK) {
        pthread_mutex_unlock(&mod->lock);
        release_kernel(k);
        return st == LAT_ERROR_KERNEL_NOT_FOUND ? not_found(mod, name) : st;
    }
    k->next = mod->kernels;
    mod->kernels = k;
    pthread_mutex_unlock(&mod->lock);
    *out = k;
    return LAT_OK;
}

const char *lat_kernel_name(const lat_kernel *kernel)
{
    LAT__API();
    return kernel ? kernel->name : "";
}

int lat_kernel_param_count(const lat_kernel *kernel)
{
    LAT__API();
    return kernel ? kernel->nparams : -1;
}

lat_status lat_module_get_lowered_name(lat_module *mod, const char *expr, const char **name)
{
    LAT__API();
    if (!mod || !expr || !name)
        return lat__error(mod ? mod->ctx : NULL, LAT_ERROR_INVALID_VALUE,
                          "%s is NULL",
                          !mod ? "mod" : !expr ? "expr" : "name");
    *name = NULL;
    lat_status st = mod->ctx->backend->module_lowered_name(mod, expr, name);
    if (st != LAT_ERROR_KERNEL_NOT_FOUND)
        return st;
    char *exprs = NULL;
    size_t len = 0;
    for (char **e = mod->name_exprs; e && *e; e++)
        (void)lat__strbuf_printf(&exprs, &len, "%s'%s'", len ? ", " : "", *e);
    st = lat__error(mod->ctx, LAT_ERROR_KERNEL_NOT_FOUND,
                    "'%s' is neither a name expression of module %s "
                    "(%s%s) nor one of its kernels",
                    expr, mod->name, exprs ? "it has " : "it has none", exprs ? exprs : "");
    free(exprs);
    return st;
}
