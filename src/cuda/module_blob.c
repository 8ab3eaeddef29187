/*
 * What the compile cache keeps of a CUDA module, as one blob: the code NVRTC produced
 * (CUBIN or PTX) and what the module needs besides it to be used as if just compiled:
 * the compiler's log, the mangled names of the kernels (no_extern_c), and the spill
 * counts ptxas reported. Little-endian, length-prefixed; anything that does not parse is
 * treated as a miss (cache.c has already checked the blob's checksum).
 */
#include "module_blob.h"

#include <stdlib.h>
#include <string.h>

static const char magic[4] = {'L', 'C', 'U', '1'};

typedef struct writer {
    char *buf;
    size_t len;
    int bad;
} writer;

static void put(writer *w, const void *p, size_t n)
{
    if (!w->bad && lat__strbuf_append(&w->buf, &w->len, p, n) != 0)
        w->bad = 1;
}

static void put_u64(writer *w, uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    put(w, b, 8);
}

static void put_str(writer *w, const char *s, size_t n)
{
    put_u64(w, n);
    put(w, s, n);
}

int lat__cuda_blob_write(const lat__cuda_blob *b, void **out, size_t *size)
{
    writer w = {NULL, 0, 0};
    put(&w, magic, 4);
    put_u64(&w, (uint64_t)b->cubin);
    put_u64(&w, (uint64_t)b->arch);
    put_str(&w, b->code, b->code_size);
    put_str(&w, b->log ? b->log : "", b->log ? strlen(b->log) : 0);
    put_u64(&w, (uint64_t)b->nnames);
    for (int i = 0; i < b->nnames; i++) {
        put_str(&w, b->names[i], strlen(b->names[i]));
        put_str(&w, b->lowered[i], strlen(b->lowered[i]));
    }
    put_u64(&w, (uint64_t)b->nspills);
    for (int i = 0; i < b->nspills; i++) {
        put_str(&w, b->spills[i].name, strlen(b->spills[i].name));
        put_u64(&w, (uint64_t)(int64_t)b->spills[i].stores);
        put_u64(&w, (uint64_t)(int64_t)b->spills[i].loads);
    }
    if (w.bad) {
        free(w.buf);
        return -1;
    }
    *out = w.buf;
    *size = w.len;
    return 0;
}

typedef struct reader {
    const unsigned char *p, *end;
    int bad;
} reader;

static uint64_t get_u64(reader *r)
{
    if (r->bad || r->end - r->p < 8) {
        r->bad = 1;
        return 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)r->p[i] << (8 * i);
    r->p += 8;
    return v;
}

/* A malloc'd, NUL-terminated copy of the next string (NULL on error); *n its length. */
static char *get_str(reader *r, size_t *n)
{
    uint64_t len = get_u64(r);
    if (r->bad || len > (uint64_t)(r->end - r->p)) {
        r->bad = 1;
        return NULL;
    }
    char *s = malloc((size_t)len + 1);
    if (!s) {
        r->bad = 1;
        return NULL;
    }
    memcpy(s, r->p, (size_t)len);
    s[len] = '\0';
    r->p += len;
    if (n)
        *n = (size_t)len;
    return s;
}

void lat__cuda_blob_free(lat__cuda_blob *b)
{
    free(b->code);
    free(b->log);
    for (int i = 0; i < b->nnames; i++) {
        free(b->names ? b->names[i] : NULL);
        free(b->lowered ? b->lowered[i] : NULL);
    }
    free(b->names);
    free(b->lowered);
    for (int i = 0; i < b->nspills; i++)
        free(b->spills[i].name);
    free(b->spills);
    memset(b, 0, sizeof *b);
}

int lat__cuda_blob_read(const void *data, size_t size, lat__cuda_blob *b)
{
    memset(b, 0, sizeof *b);
    reader r = {data, (const unsigned char *)data + size, 0};
    if (size < 4 || memcmp(data, magic, 4) != 0)
        return -1;
    r.p += 4;
    b->cubin = (int)get_u64(&r);
    b->arch = (int)get_u64(&r);
    b->code = get_str(&r, &b->code_size);
    b->log = get_str(&r, NULL);
    uint64_t nnames = get_u64(&r);
    if (!r.bad && nnames > 65536)
        r.bad = 1;
    if (!r.bad && nnames) {
        b->names = calloc((size_t)nnames, sizeof *b->names);
        b->lowered = calloc((size_t)nnames, sizeof *b->lowered);
        r.bad = !b->names || !b->lowered;
    }
    for (uint64_t i = 0; i < nnames && !r.bad; i++) {
        b->nnames = (int)i + 1;
        b->names[i] = get_str(&r, NULL);
        b->lowered[i] = get_str(&r, NULL);
    }
    uint64_t nspills = get_u64(&r);
    if (!r.bad && nspills > 65536)
        r.bad = 1;
    if (!r.bad && nspills) {
        b->spills = calloc((size_t)nspills, sizeof *b->spills);
        r.bad = !b->spills;
    }
    for (uint64_t i = 0; i < nspills && !r.bad; i++) {
        b->nspills = (int)i + 1;
        b->spills[i].name = get_str(&r, NULL);
        b->spills[i].stores = (int)(int64_t)get_u64(&r);
        b->spills[i].loads = (int)(int64_t)get_u64(&r);
    }
    if (r.bad || r.p != r.end || !b->code || b->code_size == 0) {
        lat__cuda_blob_free(b);
        return -1;
    }
    return 0;
}
