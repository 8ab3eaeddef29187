/* A module's __device__ and __constant__ variables: cuModuleGetGlobal. With the default
 * extern "C" wrapping and without it alike, a variable at namespace scope keeps its plain
 * name (C++ does not mangle variables outside namespaces). */
#include "global.h"

#include "cuda_internal.h"

lat_status lat__cuda_module_get_global(lat_module *mod, const char *name, lat_deviceptr *ptr,
                                       size_t *bytes)
{
    lat_context *ctx = mod->ctx;
    lat_status st = lat__cuda_enter(ctx);
    if (st != LAT_OK)
        return st;
    CUdeviceptr p = 0;
    size_t n = 0;
    CUresult r = lat__cu.cuModuleGetGlobal(&p, &n, lat__cuda_module_handle(mod), name);
    if (r == CUDA_ERROR_NOT_FOUND)
        return LAT_ERROR_INVALID_VALUE;
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(ctx, r, "cuModuleGetGlobal(%s, \"%s\")", mod->name, name);
    *ptr = (lat_deviceptr)p;
    *bytes = n;
    return LAT_OK;
}
