/*
 * Loading the CUDA driver (libcuda.so.1) and NVRTC at run time, so that lattice builds
 * and runs where neither exists, and probe(): can this process use a GPU at all?
 */
#include "cuda_internal.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

lat__cuda_api lat__cu;

/* Newest first: a program built today should pick up the newest NVRTC it finds. */
static const char *const nvrtc_names[] = {
    "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2", "libnvrtc.so.11.1",
    "libnvrtc.so.11.0", "libnvrtc.so",
};
/* NULL: the dynamic linker's own search (LD_LIBRARY_PATH, ld.so.cache). */
static const char *const nvrtc_dirs[] = {
    NULL, "/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib",
};

static void unload(void)
{
    if (lat__cu.libnvrtc)
        dlclose(lat__cu.libnvrtc);
    if (lat__cu.libcuda)
        dlclose(lat__cu.libcuda);
    memset(&lat__cu, 0, sizeof lat__cu);
}

static lat_status unavailable(char *why, size_t why_size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static lat_status unavailable(char *why, size_t why_size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, why_size, fmt, ap);
    va_end(ap);
    unload();
    return LAT_ERROR_BACKEND_UNAVAILABLE;
}

static const char *dl_error(void)
{
    const char *e = dlerror();
    return e ? e : "unknown error";
}

/* Resolves one library's symbols; returns the first missing required one, or NULL. */
static const char *resolve_driver(void)
{
#define LAT_CUDA_RESOLVE_(ret, name, symbol, params, optional)                            \
    *(void **)&lat__cu.name = dlsym(lat__cu.libcuda, #symbol);                            \
    if (!lat__cu.name && !(optional))                                                      \
        return #symbol;
    LAT_CUDA_DRIVER_SYMS(LAT_CUDA_RESOLVE_)
#undef LAT_CUDA_RESOLVE_
    return NULL;
}

static const char *resolve_nvrtc(void)
{
#define LAT_CUDA_RESOLVE_(ret, name, symbol, params, optional)                            \
    *(void **)&lat__cu.name = dlsym(lat__cu.libnvrtc, #symbol);                           \
    if (!lat__cu.name && !(optional))                                                      \
        return #symbol;
    LAT_CUDA_NVRTC_SYMS(LAT_CUDA_RESOLVE_)
#undef LAT_CUDA_RESOLVE_
    return NULL;
}

/* The major version in a name like "libnvrtc.so.12" or "libnvrtc.so.11.2"; 0 if none. */
static int soname_major(const char *name)
{
    const char *p = strstr(name, ".so.");
    return p ? atoi(p + 4) : 0;
}

static void *try_nvrtc(const char *name)
{
    for (size_t d = 0; d < sizeof nvrtc_dirs / sizeof *nvrtc_dirs; d++) {
        char path[512];
        if (nvrtc_dirs[d])
            snprintf(path, sizeof path, "%s/%s", nvrtc_dirs[d], name);
        else
            snprintf(path, sizeof path, "%s", name);
        void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (h)
            return h;
    }
    return NULL;
}

/* Finds NVRTC. An NVRTC newer than the driver emits code the driver cannot load, so
 * the sonames no newer than the driver are tried first, the others only after them. */
static void *open_nvrtc(int driver_major)
{
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < sizeof nvrtc_names / sizeof *nvrtc_names; i++) {
            int major = soname_major(nvrtc_names[i]);
            int newer = driver_major > 0 && major > driver_major;
            if (major == 0 ? pass != 0 : newer != pass)
                continue;
            void *h = try_nvrtc(nvrtc_names[i]);
            if (h)
                return h;
        }
    }
    return NULL;
}

lat_status lat__cuda_probe(char *why, size_t why_size)
{
    unload();

    const char *cuda_path = lat__env(LAT_ENV_CUDA_LIBRARY);
    if (cuda_path && *cuda_path) {
        lat__cu.libcuda = dlopen(cuda_path, RTLD_NOW | RTLD_LOCAL);
        if (!lat__cu.libcuda)
            return unavailable(why, why_size,
                               "LATTICE_CUDA_LIBRARY=%s could not be loaded (dlopen: %s)",
                               cuda_path, dl_error());
    } else {
        cuda_path = "libcuda.so.1";
        lat__cu.libcuda = dlopen(cuda_path, RTLD_NOW | RTLD_LOCAL);
        if (!lat__cu.libcuda)
            return unavailable(why, why_size,
                               "libcuda.so.1 not found (dlopen: %s): no NVIDIA driver is "
                               "installed",
                               dl_error());
    }
    const char *missing = resolve_driver();
    if (missing)
        return unavailable(why, why_size,
                           "%s lacks %s: the NVIDIA driver is too old (CUDA 11 or newer is "
                           "needed)",
                           cuda_path, missing);

    CUresult r = lat__cu.cuInit(0);
    if (r != CUDA_SUCCESS)
        return unavailable(why, why_size, "cuInit failed: %s (%s)", lat__cuda_error_name(r),
                           lat__cuda_error_string(r));
    int count = 0;
    r = lat__cu.cuDeviceGetCount(&count);
    if (r != CUDA_SUCCESS)
        return unavailable(why, why_size, "cuDeviceGetCount failed: %s (%s)",
                           lat__cuda_error_name(r), lat__cuda_error_string(r));
    if (count <= 0)
        return unavailable(why, why_size, "no CUDA device (cuDeviceGetCount returned 0)");
    if (lat__cu.cuDriverGetVersion(&lat__cu.driver_version) != CUDA_SUCCESS)
        lat__cu.driver_version = 0;

    const char *nvrtc_path = lat__env(LAT_ENV_NVRTC_LIBRARY);
    if (nvrtc_path && *nvrtc_path) {
        lat__cu.libnvrtc = dlopen(nvrtc_path, RTLD_NOW | RTLD_LOCAL);
        if (!lat__cu.libnvrtc)
            return unavailable(why, why_size,
                               "LATTICE_NVRTC_LIBRARY=%s could not be loaded (dlopen: %s)",
                               nvrtc_path, dl_error());
    } else {
        nvrtc_path = "NVRTC";
        lat__cu.libnvrtc = open_nvrtc(lat__cu.driver_version / 1000);
        if (!lat__cu.libnvrtc)
            return unavailable(why, why_size,
                               "NVRTC not found (tried libnvrtc.so.13, .so.12, .so.11.2, "
                               ".so.11.1, .so.11.0 and libnvrtc.so in the library search "
                               "path, /usr/local/cuda/lib64 and "
                               "/usr/local/cuda/targets/x86_64-linux/lib): install the CUDA "
                               "toolkit's NVRTC or set LATTICE_NVRTC_LIBRARY");
    }
    missing = resolve_nvrtc();
    if (missing)
        return unavailable(why, why_size, "%s lacks %s: NVRTC 11.0 or newer is needed",
                           nvrtc_path, missing);
    if (lat__cu.nvrtcVersion(&lat__cu.nvrtc_major, &lat__cu.nvrtc_minor) != NVRTC_SUCCESS)
        lat__cu.nvrtc_major = lat__cu.nvrtc_minor = 0;
    return LAT_OK;
}
