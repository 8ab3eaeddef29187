/*
 * Elementwise kernels: the public generator (PyCUDA's ElementwiseKernel) and the one
 * lattice's own array operations are made of.
 */
#include "internal.h"
#include "core/alloc.h"

#include "error.h"

#include <stdlib.h>
#include <string.h>

struct lat_elementwise {
    lat_context *ctx;
    lat_kernel *kernel;
    char *name;
};

lat_status lat_elementwise_create(lat_context *ctx, const lat_elementwise_desc *desc,
                                  lat_elementwise **out)
{
    LAT__API();
    if (!out)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "out is NULL");
    *out = NULL;
    if (!ctx || !desc)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s is NULL", ctx ? "desc" : "ctx");
    if (!desc->arguments || !*desc->arguments || !desc->operation || !*desc->operation)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "desc->%s is missing",
                          !desc->arguments || !*desc->arguments ? "arguments" : "operation");
    const char *name = desc->name ? desc->name : "elementwise";
    if (!lat__is_identifier(name))
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "the name \"%s\" is not a C identifier", name);

    lat__src s = {0};
    lat__src_preamble(&s, desc->preamble);
    lat__src_addf(&s, "__global__ void %s(%s, unsigned long long n)\n{\n", name,
                  desc->arguments);
    if (desc->loop_prep)
        lat__src_addf(&s, "    %s\n", desc->loop_prep);
    lat__src_addf(&s, "    {\n");
    lat__src t = {0};
    lat__src_addf(&t, "%s;", desc->operation);
    if (t.oom) {
        lat__src_free(&s);
        lat__src_free(&t);
        return lat__oom(ctx);
    }
    lat__src_loop(&s, t.text);
    lat__src_free(&t);
    lat__src_add(&s, "    }\n");
    if (desc->after_loop)
        lat__src_addf(&s, "    %s\n", desc->after_loop);
    lat__src_add(&s, "}\n");
    lat_status st = lat__src_check(&s, ctx);
    if (st != LAT_OK)
        return st;

    lat_elementwise *k = lat__calloc(1, sizeof *k);
    char *kname = lat__strdup(name);
    if (!k || !kname) {
        free(k);
        free(kname);
        lat__src_free(&s);
        return lat__oom(ctx);
    }
    lat__gen *g;
    st = lat__gen_get(ctx, s.text, NULL, NULL, NULL, (const char *const[]){name, NULL}, 0,
                      &g);
    lat__src_free(&s);
    if (st != LAT_OK) {
        free(k);
        free(kname);
        return st;
    }
    k->ctx = ctx;
    k->kernel = g->kernels[0];
    k->name = kname;
    *out = k;
    return LAT_OK;
}

void lat_elementwise_destroy(lat_elementwise *k)
{
    LAT__API();
    if (!k)
        return;
    free(k->name);
    free(k);
}

lat_status lat_elementwise_launch(lat_elementwise *k, size_t n, size_t nargs,
                                  const lat_arg *args)
{
    LAT__API();
    if (!k)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "k is NULL");
    if (nargs > 0 && !args)
        return lat__error(k->ctx, LAT_ERROR_INVALID_VALUE, "args is NULL");
    if (n == 0)
        return LAT_OK;
    lat_arg small[16];
    lat_arg *all = nargs + 1 <= 16 ? small : lat__malloc((nargs + 1) * sizeof *all);
    if (!all)
        return lat__oom(k->ctx);
    if (nargs)
        memcpy(all, args, nargs * sizeof *all);
    all[nargs] = lat_arg_u64(n);
    unsigned grid = lat__grid_for(k->ctx, n, LAT__BLOCK);
    lat_status st = lat_launch_args(
        k->kernel, &(lat_launch_desc){.grid = {grid, 1, 1}, .block = {LAT__BLOCK, 1, 1}},
        nargs + 1, all);
    if (all != small)
        free(all);
    return st;
}
