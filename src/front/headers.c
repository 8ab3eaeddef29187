/* Finding #include'd files: see headers.h. */
#include "headers.h"
#include "core/alloc.h"
#include "core/file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* What the prelude provides (docs/dialect.md lists them). */
static const char *const builtin[] = {
    "stdio.h", "stdint.h", "stddef.h", "stdbool.h", "stdlib.h", "string.h", "math.h",
    "float.h", "limits.h", "assert.h", "cuda.h", "cuda_runtime.h", "cuda_runtime_api.h",
    "device_launch_parameters.h", "device_functions.h", "math_functions.h", "math_constants.h",
    "vector_types.h", "vector_functions.h", "builtin_types.h", "host_defines.h",
    "crt/host_defines.h", "cstdio", "cstdint", "cstddef", "cstdlib", "cstring", "cmath",
    "cfloat", "climits", "cassert", "cooperative_groups.h", "cooperative_groups/reduce.h",
    "cooperative_groups/scan.h",
    "cuda_fp16.h", "cuda_bf16.h", "curand_kernel.h", "cuComplex.h", "mma.h",
    "pycuda-complex.hpp", "pycuda-helpers.hpp",
    /* included by cuda_runtime.h: what they declare is built in */
    "driver_types.h", "sm_20_intrinsics.h", "sm_30_intrinsics.h", "sm_32_intrinsics.h",
    "sm_35_intrinsics.h", "sm_61_intrinsics.h", "device_atomic_functions.h",
    "sm_20_atomic_functions.h", "sm_32_atomic_functions.h", "sm_35_atomic_functions.h",
    "sm_60_atomic_functions.h",
    "cuda/std/cstdint", "cuda/std/cstddef", "cuda/std/climits", "cuda/std/limits", "cuda/std/utility",
    "cuda/std/array", "cuda/std/functional", "cuda/std/type_traits", "type_traits", "utility", "limits", "array",
    "tuple", "cuda/std/tuple", "cuda/std/cmath", "cuda/std/bit", "cuda/std/span",
    "cuda/std/algorithm", "cuda/std/cassert", "cuda/std/cfloat", "cooperative_groups/memcpy_async.h",
    "cuda/std/complex", "cuda/std/atomic", "cuda/atomic", "algorithm",
    "texture_types.h", "surface_types.h",
    "cuda_texture_types.h", "cuda_surface_types.h", "texture_fetch_functions.h",
    "texture_indirect_functions.h", "surface_functions.h", "surface_indirect_functions.h",
};

/* CUDA headers for what the emulator does not do yet: an error that says so beats
 * "file not found". */
static const char *const unsupported[] = {
    "cuda_fp8.h",
    "cuda_pipeline.h", "cuda/barrier",
};

static bool listed(const char *name, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(name, list[i]) == 0)
            return true;
    return false;
}

/* Whether a header search stops at path: anything but a directory (gcc goes on past a
 * directory too). Whether it can be read is for lat__file_read to say, with a reason. */
static bool is_candidate(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISDIR(st.st_mode);
}

/* Tries dir/name; 1 found (*out set), 0 not there, -1 out of memory. */
static int try_dir(const char *dir, const char *name, char **out)
{
    size_t dl = strlen(dir), nl = strlen(name);
    bool cur = dl == 1 && dir[0] == '.';
    char *p = lat__malloc(dl + nl + 2);
    if (!p)
        return -1;
    if (cur) {
        memcpy(p, name, nl + 1); /* "x.h", not "./x.h", in messages and #line */
    } else {
        memcpy(p, dir, dl);
        p[dl] = '/';
        memcpy(p + dl + 1, name, nl + 1);
    }
    if (is_candidate(p)) {
        *out = p;
        return 1;
    }
    free(p);
    return 0;
}

lat__header_kind lat__header_resolve_next(const char *name, bool quoted, const char *from_dir,
                                          const char *const *dirs_a,
                                          const char *const *dirs_b, int first,
                                          char **path_out, int *found_at)
{
    *path_out = NULL;
    *found_at = -1;
    if (name[0] == '/') {
        if (!is_candidate(name))
            return LAT__HEADER_MISSING;
        *path_out = strdup(name);
        return *path_out ? LAT__HEADER_FILE : LAT__HEADER_NOMEM;
    }
    bool is_builtin = listed(name, builtin, sizeof builtin / sizeof builtin[0]);
    if (!quoted && is_builtin)
        return LAT__HEADER_BUILTIN; /* never a system header found through -I */
    int r = quoted && from_dir ? try_dir(from_dir, name, path_out) : 0;
    int at = 0;
    const char *const *lists[2] = {dirs_a, dirs_b};
    for (int k = 0; k < 2; k++)
        for (const char *const *d = lists[k]; r == 0 && d && *d; d++, at++)
            if (at >= first && (r = try_dir(*d, name, path_out)) > 0)
                *found_at = at;
    if (r < 0)
        return LAT__HEADER_NOMEM;
    if (r > 0)
        return LAT__HEADER_FILE;
    /* "math.h" of the user's own wins over the prelude's stand-in. */
    if (is_builtin)
        return LAT__HEADER_BUILTIN;
    if (listed(name, unsupported, sizeof unsupported / sizeof unsupported[0]) ||
        strncmp(name, "cub/", 4) == 0 || strncmp(name, "thrust/", 7) == 0 ||
        strncmp(name, "cuda/", 5) == 0)
        return LAT__HEADER_UNSUPPORTED;
    return LAT__HEADER_MISSING;
}

lat__header_kind lat__header_resolve(const char *name, bool quoted, const char *from_dir,
                                     const char *const *dirs_a, const char *const *dirs_b,
                                     char **path_out)
{
    int at;
    return lat__header_resolve_next(name, quoted, from_dir, dirs_a, dirs_b, 0, path_out, &at);
}

char *lat__path_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    if (slash == path)
        return strdup("/");
    size_t n = (size_t)(slash - path);
    char *d = lat__malloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = '\0';
    }
    return d;
}

int lat__file_read(const char *path, char **text)
{
    *text = NULL;
    size_t len = 0;
    int err = lat__read_file_max(path, LAT__FILE_MAX, text, &len);
    if (!err && strlen(*text) != len) { /* a NUL inside: not a source file */
        free(*text);
        *text = NULL;
        err = EILSEQ;
    }
    return err;
}
