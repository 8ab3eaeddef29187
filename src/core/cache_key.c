/*
 * The compile cache's key: SHA-256 of everything that changes a compile's output. The
 * source alone is not enough: a kernel that includes "helpers.cuh" must be recompiled when
 * helpers.cuh changes, so the key covers the contents of every file the source includes,
 * found the way the compilers find them (the including file's directory, then the
 * include directories and -I options in order), recursively. An #include inside a
 * comment or a false #if is keyed too: harmless, it only makes the key stricter. A file
 * found nowhere (a compiler's built-in header such as <cuda_fp16.h>) is keyed by name; the
 * compiler's version stands for its contents.
 */
#include "cache.h"
#include "core/alloc.h"
#include "build_id.h"
#include "file.h"
#include "sha256.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MAX_FILES = 512, MAX_DEPTH = 64 };

typedef struct keyer {
    lat__sha256 sha;
    const lat__source *src;
    const char **dirs; /* include directories in search order, NULL-terminated */
    char *seen[MAX_FILES];
    int nseen;
    bool failed;
} keyer;

/* Each field is length-prefixed, so that no two different inputs hash the same bytes. */
static void field(keyer *k, const char *tag, const void *data, size_t n)
{
    uint64_t len = n;
    lat__sha256_update(&k->sha, tag, strlen(tag) + 1);
    lat__sha256_update(&k->sha, &len, sizeof len);
    lat__sha256_update(&k->sha, data, n);
}

static void field_str(keyer *k, const char *tag, const char *s)
{
    field(k, tag, s ? s : "", s ? strlen(s) : 0);
}

/* The file's contents, or NULL when it cannot be read whole (the key then fails, and
 * the module is compiled without the cache). */
static char *read_all(const char *path)
{
    char *text;
    return lat__read_file(path, &text, NULL) == 0 ? text : NULL;
}

/* The directory part of a path ("." when it has none), malloc'd. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return lat__strdup(".");
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    char *d = lat__malloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = '\0';
    }
    return d;
}

/* Whether the search may stop at path: anything there counts (a FIFO or a device too,
 * which the compiler then refuses), but nothing is opened, so nothing can block. */
static bool file_exists(const char *path)
{
    return access(path, F_OK) == 0;
}

static char *join(const char *dir, const char *name, size_t name_len)
{
    size_t n = strlen(dir);
    char *p = lat__malloc(n + name_len + 2);
    if (!p)
        return NULL;
    memcpy(p, dir, n);
    p[n] = '/';
    memcpy(p + n + 1, name, name_len);
    p[n + 1 + name_len] = '\0';
    return p;
}

static void key_text(keyer *k, const char *text, const char *dir, int depth);

/* Keys one #include'd name: the file it resolves to, with its contents and includes. */
static void key_include(keyer *k, const char *name, size_t len, bool quoted, const char *dir,
                        int depth)
{
    char *path = NULL;
    if (len > 0 && name[0] == '/') {
        path = lat__malloc(len + 1);
        if (path) {
            memcpy(path, name, len);
            path[len] = '\0';
            if (!file_exists(path)) {
                free(path);
                path = NULL;
            }
        }
    } else {
        if (quoted && dir) {
            path = join(dir, name, len);
            if (path && !file_exists(path)) {
                free(path);
                path = NULL;
            }
        }
        for (const char **d = k->dirs; !path && d && *d; d++) {
            path = join(*d, name, len);
            if (path && !file_exists(path)) {
                free(path);
                path = NULL;
            }
        }
    }
    if (!path) {
        /* A built-in header of the compiler, or one that does not exist (the compile then
         * fails, and is not cached). */
        field(k, quoted ? "missing-quoted" : "missing-angled", name, len);
        return;
    }
    for (int i = 0; i < k->nseen; i++) {
        if (strcmp(k->seen[i], path) == 0) {
            field_str(k, "again", path);
            free(path);
            return;
        }
    }
    if (k->nseen == MAX_FILES || depth >= MAX_DEPTH) {
        k->failed = true;
        free(path);
        return;
    }
    k->seen[k->nseen++] = path;
    char *text = read_all(path);
    if (!text) {
        k->failed = true;
        return;
    }
    field_str(k, "file", path);
    field_str(k, "contents", text);
    char *sub = dir_of(path);
    if (!sub)
        k->failed = true;
    else
        key_text(k, text, sub, depth + 1);
    free(sub);
    free(text);
}

/* Finds the #include lines of text. */
static void key_text(keyer *k, const char *text, const char *dir, int depth)
{
    for (const char *line = text; line && *line && !k->failed;) {
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '#') {
            p++;
            while (*p == ' ' || *p == '\t')
                p++;
            if (strncmp(p, "include", 7) == 0 && (p[7] == ' ' || p[7] == '\t' || p[7] == '"' ||
                                                 p[7] == '<')) {
                p += 7;
                while (*p == ' ' || *p == '\t')
                    p++;
                char close = *p == '"' ? '"' : *p == '<' ? '>' : 0;
                if (!close) {
                    /* #include MACRO: what it names is known only after preprocessing. */
                    k->failed = true;
                    return;
                }
                const char *start = p + 1;
                const char *end = start;
                while (*end && *end != close && *end != '\n')
                    end++;
                if (*end == close)
                    key_include(k, start, (size_t)(end - start), close == '"', dir, depth);
            }
        }
        const char *nl = strchr(line, '\n');
        line = nl ? nl + 1 : NULL;
    }
}

/* The -I directories among the options, in order, appended to list. */
static int option_dirs(const char *const *options, const char ***list, size_t *n, size_t *cap)
{
    for (const char *const *o = options; o && *o; o++) {
        const char *d = NULL;
        if (strncmp(*o, "--include-path=", 15) == 0)
            d = *o + 15;
        else if ((strcmp(*o, "-I") == 0 || strcmp(*o, "--include-path") == 0) && o[1])
            d = *++o;
        else if (strncmp(*o, "-I", 2) == 0)
            d = *o + 2;
        if (!d)
            continue;
        if (*n + 2 > *cap) {
            size_t c = *cap ? *cap * 2 : 8;
            const char **p = lat__realloc(*list, c * sizeof *p);
            if (!p)
                return -1;
            *list = p;
            *cap = c;
        }
        (*list)[(*n)++] = d;
        (*list)[*n] = NULL;
    }
    return 0;
}

bool lat__compile_request_digest(const lat__compile_request *r, lat__cache_key *key)
{
    const lat__source *src = r->src;
    if (!lat__cache_enabled())
        return false;
    keyer *k = lat__calloc(1, sizeof *k);
    if (!k)
        return false;
    k->src = src;
    lat__sha256_init(&k->sha);
    field_str(k, "lattice compile cache", "1");
    field_str(k, "lattice", LAT_VERSION_STRING);
    /* The build, where the linker recorded one: what lattice's own code made of a source
     * (the emulator's translation, the CUDA backend's options) must not outlive that code. */
    const uint8_t *id;
    size_t id_len;
    if (lat__build_id(&id, &id_len))
        field(k, "build", id, id_len);
    field_str(k, "backend", r->backend);
    field_str(k, "target", r->target);
    field_str(k, "compiler", r->compiler);
    field_str(k, "tier", r->tier);
    field_str(k, "name", src->name);
    field_str(k, "text", src->text);
    field(k, "no_extern_c", src->no_extern_c ? "1" : "0", 1);
    for (const char *const *p = src->defines; p && *p; p++)
        field_str(k, "define", *p);
    for (const char *const *p = src->include_dirs; p && *p; p++)
        field_str(k, "include_dir", *p);
    for (const char *const *p = src->options; p && *p; p++)
        field_str(k, "option", *p);
    for (const char *const *p = src->name_expressions; p && *p; p++)
        field_str(k, "name_expression", *p);

    const char **dirs = NULL;
    size_t n = 0, cap = 0;
    int bad = 0;
    for (const char *const *p = src->include_dirs; p && *p && !bad; p++) {
        const char *one[] = {"-I", *p, NULL};
        bad = option_dirs(one, &dirs, &n, &cap);
    }
    if (!bad)
        bad = option_dirs(src->options, &dirs, &n, &cap);
    char *dir = dir_of(src->name);
    if (bad || !dir) {
        k->failed = true;
    } else {
        k->dirs = dirs;
        key_text(k, src->text, dir, 0);
    }
    free(dir);
    free(dirs);
    for (int i = 0; i < k->nseen; i++)
        free(k->seen[i]);
    bool ok = !k->failed;
    if (ok) {
        lat__cache_key_final(&k->sha, key);
    }
    free(k);
    return ok;
}

void lat__cache_key_set(lat__cache_key *key, const uint8_t bytes[32])
{
    memcpy(key->bytes, bytes, 32);
    for (int i = 0; i < 32; i++)
        snprintf(key->hex + 2 * i, 3, "%02x", bytes[i]);
}

void lat__cache_key_final(lat__sha256 *s, lat__cache_key *key)
{
    uint8_t d[32];
    lat__sha256_final(s, d);
    lat__cache_key_set(key, d);
}
