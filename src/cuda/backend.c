/*
 * The CUDA backend's descriptor: NVIDIA GPUs through the driver API and NVRTC, both
 * loaded at run time (loader.c). Each operation lives in the file of its concern.
 */
#include "cuda_internal.h"
#include "global.h"
#include "texture.h"

/* A GPU module has one kind of code. */
static int module_tier(const lat_module *mod)
{
    (void)mod;
    return LAT_MODULE_TIER_NATIVE;
}

/* The GPU runs what NVRTC and the driver made of the kernel; there is no other path. */
static const char *kernel_path(const lat_kernel *kernel)
{
    (void)kernel;
    return "the GPU's own threads (NVRTC)";
}

const lat__backend lat__backend_cuda = {
    .name = "cuda",
    .kind = LAT_BACKEND_CUDA,
    .probe = lat__cuda_probe,
    .device_count = lat__cuda_device_count,
    .device_info = lat__cuda_device_info,
    .context_create = lat__cuda_context_create,
    .context_destroy = lat__cuda_context_destroy,
    .synchronize = lat__cuda_synchronize,
    .mem_alloc = lat__cuda_mem_alloc,
    .mem_free = lat__cuda_mem_free,
    .mem_info = lat__cuda_mem_info,
    .memset = lat__cuda_memset,
    .memcpy_htod = lat__cuda_memcpy_htod,
    .memcpy_dtoh = lat__cuda_memcpy_dtoh,
    .memcpy_dtod = lat__cuda_memcpy_dtod,
    .module_create = lat__cuda_module_create,
    .module_destroy = lat__cuda_module_destroy,
    .kernel_get = lat__cuda_kernel_get,
    .module_lowered_name = lat__cuda_module_lowered_name,
    .kernel_release = lat__cuda_kernel_release,
    .launch = lat__cuda_launch,
    .max_cooperative_blocks = lat__cuda_max_cooperative_blocks,
    .module_get_global = lat__cuda_module_get_global,
    .module_tier = module_tier,
    .kernel_path = kernel_path,
    .holds_address = lat__cuda_holds_address,
    .driver = &lat__cuda_driver_ops,
    .texture = &lat__cuda_texture_ops,
    .reader = &lat__emu_reader, /* NVRTC gives no parameter types (backend.h) */
};
