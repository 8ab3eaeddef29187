/* The digest of a module's translation inputs: see source_key.h. */
#include "source_key.h"
#include "build_id.h"
#include "env.h"
#include "sha256.h"
#include "front/unit.h"

#include <string.h>

/* Tokens are hashed through a buffer of their fields, small integers as LEB128: a
 * hundred-line kernel is some 1500 tokens, and its digest is part of every load. */
typedef struct feed {
    lat__sha256 *s;
    uint8_t buf[4096];
    size_t n;
} feed;

static void flush(feed *f)
{
    lat__sha256_update(f->s, f->buf, f->n);
    f->n = 0;
}

static void put_bytes(feed *f, const void *p, size_t n)
{
    if (n > sizeof f->buf - f->n) {
        flush(f);
        if (n > sizeof f->buf) {
            lat__sha256_update(f->s, p, n);
            return;
        }
    }
    memcpy(f->buf + f->n, p, n);
    f->n += n;
}

/* LEB128 at b, which has room for 10 bytes; returns the bytes written. */
static size_t leb128(uint8_t *b, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        b[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b[n++] = (uint8_t)v;
    return n;
}

static void put_uint(feed *f, uint64_t v)
{
    uint8_t b[10];
    put_bytes(f, b, leb128(b, v));
}

/* A string, or its absence (distinct from ""). */
static void put_str(feed *f, const char *s)
{
    if (!s) {
        put_uint(f, 0);
        return;
    }
    size_t n = strlen(s);
    put_uint(f, n + 1);
    put_bytes(f, s, n);
}

static void put_list(feed *f, const char *tag, const char *const *l)
{
    put_str(f, tag);
    size_t n = 0;
    while (l && l[n])
        n++;
    put_uint(f, n);
    for (size_t i = 0; i < n; i++)
        put_str(f, l[i]);
}

bool lat__emu_source_digest(const lat__unit *u, const lat__source *src, const lat__lower_in *in,
                            uint8_t out[32])
{
    const uint8_t *id;
    size_t id_len;
    if (!lat__build_id(&id, &id_len))
        return false;
    lat__sha256 s;
    lat__sha256_init(&s);
    feed f = {.s = &s};
    put_str(&f, "lattice translation 1");
    put_uint(&f, id_len);
    put_bytes(&f, id, id_len);
    /* The translator's inputs (LATTICE_EMU_FIBERS is in->fibers). */
    put_uint(&f, (unsigned)in->checked | (unsigned)in->fibers << 1 | (unsigned)in->no_fmad << 2 |
                     (unsigned)in->opt_variants << 3 | (unsigned)in->debug << 4);
    /* The options whole (their defines and -D's are in the tokens already; what else they
     * say is the translator's input), and the instances named. */
    put_list(&f, "options", src->options);
    put_list(&f, "defines", src->defines);
    put_list(&f, "name expressions", src->name_expressions);
    put_uint(&f, src->no_extern_c);
    /* The files, by the names the translation writes in its #line markers. */
    put_uint(&f, u->files.n);
    for (size_t i = 0; i < u->files.n; i++) {
        put_str(&f, u->files.items[i].display);
        put_str(&f, u->files.items[i].path);
    }
    /* The preprocessed program: every token, its spelling and where it is (written
     * straight into the buffer: this loop was a tenth of a load). */
    put_uint(&f, u->toks.n);
    for (size_t i = 0; i < u->toks.n; i++) {
        const lat__tok *t = &u->toks.items[i];
        if (sizeof f.buf - f.n < 50)
            flush(&f);
        uint8_t *b = f.buf + f.n;
        size_t n = leb128(b, (uint64_t)t->kind | (uint64_t)t->flags << 8);
        n += leb128(b + n, t->loc.file);
        n += leb128(b + n, t->loc.line);
        n += leb128(b + n, t->loc.col);
        n += leb128(b + n, t->len);
        f.n += n;
        put_bytes(&f, t->text, t->len);
    }
    flush(&f);
    lat__sha256_final(&s, out);
    return true;
}
