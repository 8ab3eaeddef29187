/* The short path (lattice.h, "one call from source to kernel"): the default context and
 * lat_kernel_compile, over the public module functions. The default context is the one
 * piece of process-wide state here: a program that wants it asked for it by name. */
#include "lattice.h"

#include "error.h"

#include <pthread.h>
#include <string.h>

static pthread_mutex_t default_lock = PTHREAD_MUTEX_INITIALIZER;
static lat_context *default_ctx;

lat_status lat_context_default(lat_context **out)
{
    LAT__API();
    if (!out)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "out is NULL");
    lat_status st = LAT_OK;
    pthread_mutex_lock(&default_lock);
    if (!default_ctx)
        st = lat_context_create(NULL, &default_ctx);
    if (st == LAT_OK)
        *out = default_ctx;
    else
        default_ctx = NULL;
    pthread_mutex_unlock(&default_lock);
    return st;
}

void lat_context_default_release(void)
{
    LAT__API();
    pthread_mutex_lock(&default_lock);
    lat_context *ctx = default_ctx;
    default_ctx = NULL;
    pthread_mutex_unlock(&default_lock);
    lat_context_destroy(ctx);
}

lat_status lat_kernel_compile(lat_context *ctx, const char *source, const char *name,
                              lat_kernel **out)
{
    LAT__API();
    if (!source || !name || !out)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s is NULL",
                          !source ? "source" : !name ? "name" : "out");
    lat_status st = ctx ? LAT_OK : lat_context_default(&ctx);
    if (st != LAT_OK)
        return st;
    /* A template's instance is made as NVRTC's name expressions make it. The source is
     * compiled as written: wrapped in extern "C" (lat_module_create's default), any template
     * in it, a __device__ helper's too, is an error to NVRTC ("this declaration may not have
     * extern "C" linkage"); kernels are found by their plain names either way. */
    const char *exprs[] = {name, NULL};
    lat_module *mod;
    st = lat_module_create(ctx, &(lat_module_desc){.source = source, .no_extern_c = 1,
                                                   .name_expressions = strchr(name, '<') ? exprs : NULL},
                           &mod);
    if (st != LAT_OK)
        return st;
    lat_kernel *k;
    st = lat_module_get_kernel(mod, name, &k);
    if (st != LAT_OK) {
        lat_module_destroy(mod);
        return st;
    }
    *out = k;
    return LAT_OK;
}
