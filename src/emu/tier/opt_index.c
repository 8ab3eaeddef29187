/* The source index's entries: see opt_index.h. An entry is the format's name, the
 * object's key, then counted lists of strings; each string is a presence byte ('+' or
 * '-' for none) and, when present, its bytes and a NUL. */
#include "opt_index.h"
#include "core/alloc.h"
#include "error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char MAGIC[] = "lattice source index 1";
enum { MAX_NAMES = 1 << 20 };

typedef struct writer {
    char *p;
    size_t n, cap;
    bool oom;
} writer;

static void put(writer *w, const void *data, size_t n)
{
    if (w->oom)
        return;
    if (n > w->cap - w->n) {
        size_t cap = w->cap ? w->cap : 256;
        while (cap - w->n < n)
            cap *= 2;
        char *p = realloc(w->p, cap);
        if (!p) {
            w->oom = true;
            return;
        }
        w->p = p;
        w->cap = cap;
    }
    memcpy(w->p + w->n, data, n);
    w->n += n;
}

static void put_str(writer *w, const char *s)
{
    put(w, s ? "+" : "-", 1);
    if (s)
        put(w, s, strlen(s) + 1);
}

static void put_count(writer *w, int n)
{
    char b[16];
    snprintf(b, sizeof b, "%d", n);
    put_str(w, b);
}

char *lat__emu_index_encode(const lat__cache_key *object, const lat__emu_module *m,
                            const char *warnings, size_t *size)
{
    writer w = {0};
    put(&w, MAGIC, sizeof MAGIC);
    put(&w, object->bytes, 32);
    put_count(&w, m->nkernels);
    for (int i = 0; i < m->nkernels; i++) {
        put_str(&w, m->kernels[i].name);
        put_str(&w, m->kernels[i].expr);
    }
    put_count(&w, m->nglobals);
    for (int i = 0; i < m->nglobals; i++)
        put_str(&w, m->globals[i].name);
    put_str(&w, warnings);
    if (w.oom) {
        free(w.p);
        return NULL;
    }
    *size = w.n;
    return w.p;
}

typedef struct reader {
    const char *p, *end;
    bool bad;
} reader;

/* The next string: *out malloc'd, or NULL for an absent one. */
static void get_str(reader *r, char **out)
{
    *out = NULL;
    if (r->bad || r->p >= r->end || (*r->p != '+' && *r->p != '-')) {
        r->bad = true;
        return;
    }
    if (*r->p++ == '-')
        return;
    const char *nul = memchr(r->p, 0, (size_t)(r->end - r->p));
    if (!nul || !(*out = lat__strdup(r->p))) {
        r->bad = true;
        return;
    }
    r->p = nul + 1;
}

static int get_count(reader *r)
{
    char *s;
    get_str(r, &s);
    char *end = NULL;
    long n = s ? strtol(s, &end, 10) : -1;
    if (!s || end == s || *end || n < 0 || n > MAX_NAMES) {
        r->bad = true;
        n = 0;
    }
    free(s);
    return (int)n;
}

bool lat__emu_index_decode(const void *data, size_t size, lat__cache_key *object,
                           lat__lower_out *names, char **warnings)
{
    memset(names, 0, sizeof *names);
    *warnings = NULL;
    reader r = {.p = data, .end = (const char *)data + size};
    if (size < sizeof MAGIC + 32 || memcmp(r.p, MAGIC, sizeof MAGIC) != 0)
        return false;
    r.p += sizeof MAGIC;
    lat__cache_key_set(object, (const uint8_t *)r.p);
    r.p += 32;
    int nk = get_count(&r);
    /* lat__lower_out's layout: an expression slot past the last kernel. */
    names->kernels = calloc((size_t)nk + 1, sizeof *names->kernels);
    names->kernel_exprs = calloc((size_t)nk + 1, sizeof *names->kernel_exprs);
    r.bad |= !names->kernels || !names->kernel_exprs;
    for (int i = 0; i < nk && !r.bad; i++) {
        get_str(&r, &names->kernels[i]);
        names->nkernels = i + 1;
        get_str(&r, &names->kernel_exprs[i]);
        r.bad |= !names->kernels[i];
    }
    int ng = r.bad ? 0 : get_count(&r);
    names->globals = r.bad ? NULL : calloc((size_t)ng + 1, sizeof *names->globals);
    r.bad |= !names->globals;
    for (int i = 0; i < ng && !r.bad; i++) {
        get_str(&r, &names->globals[i]);
        names->nglobals = i + 1;
        r.bad |= !names->globals[i];
    }
    get_str(&r, warnings);
    if (r.bad || r.p != r.end) {
        lat__lower_out_free(names);
        free(*warnings);
        *warnings = NULL;
        return false;
    }
    return true;
}
