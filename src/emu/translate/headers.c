/* Finding #include'd files: see headers.h. */
#include "headers.h"

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
    "cfloat", "climits", "cassert",
};

/* CUDA headers for what the emulator does not do yet: an error that says so beats
 * "file not found". */
static const char *const unsupported[] = {
    "cuda_fp16.h", "cuda_bf16.h", "cuda_fp8.h", "cooperative_groups.h", "mma.h",
    "curand_kernel.h", "cuda_pipeline.h", "cuda/barrier", "cuda/atomic", "sm_20_atomic_functions.h",
    "sm_60_atomic_functions.h", "texture_fetch_functions.h", "surface_functions.h",
};

static bool listed(const char *name, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(name, list[i]) == 0)
            return true;
    return false;
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Tries dir/name; 1 found (*out set), 0 not there, -1 out of memory. */
static int try_dir(const char *dir, const char *name, char **out)
{
    size_t dl = strlen(dir), nl = strlen(name);
    bool cur = dl == 1 && dir[0] == '.';
    char *p = malloc(dl + nl + 2);
    if (!p)
        return -1;
    if (cur) {
        memcpy(p, name, nl + 1); /* "x.h", not "./x.h", in messages and #line */
    } else {
        memcpy(p, dir, dl);
        p[dl] = '/';
        memcpy(p + dl + 1, name, nl + 1);
    }
    if (is_file(p)) {
        *out = p;
        return 1;
    }
    free(p);
    return 0;
}

lat__header_kind lat__header_resolve(const char *name, bool quoted, const char *from_dir,
                                     const char *const *dirs_a, const char *const *dirs_b,
                                     char **path_out)
{
    *path_out = NULL;
    if (name[0] == '/') {
        if (!is_file(name))
            return LAT__HEADER_MISSING;
        *path_out = strdup(name);
        return *path_out ? LAT__HEADER_FILE : LAT__HEADER_NOMEM;
    }
    bool is_builtin = listed(name, builtin, sizeof builtin / sizeof builtin[0]);
    if (!quoted && is_builtin)
        return LAT__HEADER_BUILTIN; /* never a system header found through -I */
    int r = quoted ? try_dir(from_dir, name, path_out) : 0;
    for (const char *const *d = dirs_a; r == 0 && d && *d; d++)
        r = try_dir(*d, name, path_out);
    for (const char *const *d = dirs_b; r == 0 && d && *d; d++)
        r = try_dir(*d, name, path_out);
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

char *lat__path_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    if (slash == path)
        return strdup("/");
    size_t n = (size_t)(slash - path);
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = '\0';
    }
    return d;
}

int lat__file_read(const char *path, char **text)
{
    *text = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return errno ? errno : ENOENT;
    size_t cap = 8192, len = 0;
    char *buf = malloc(cap);
    int err = 0;
    while (buf) {
        if (len + 1 >= cap) {
            char *p = realloc(buf, cap * 2);
            if (!p) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = p;
            cap *= 2;
        }
        size_t n = fread(buf + len, 1, cap - len - 1, f);
        len += n;
        if (n == 0) {
            if (ferror(f))
                err = EIO;
            break;
        }
    }
    fclose(f);
    if (!buf)
        return ENOMEM;
    buf[len] = '\0';
    if (!err && strlen(buf) != len)
        err = EILSEQ;
    if (err) {
        free(buf);
        return err;
    }
    *text = buf;
    return 0;
}
