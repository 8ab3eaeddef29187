/*
 * printf in kernel code. Each call's output is formatted whole and written with one
 * fwrite (stdio locks the stream for it), so lines of different threads never
 * interleave. With LATTICE_EMU_PRINTF=ordered, a launch's output is kept and written
 * when the launch ends, ordered by block, then thread (linear indices, x fastest), then
 * call: the same text on every run, whatever the number of OpenMP threads. What is kept
 * is bounded (LATTICE_EMU_PRINTF_BUFFER, 64 MiB by default, as a GPU bounds its printf
 * buffer to 1 MiB): the lines past it are dropped, counted, and said to be.
 */
#include "emu/exec/worker.h"
#include "emu/backend/env.h"
#include "core/alloc.h"
#include "core/core.h"
#include "core/env.h"

#include "emu/exec/guard.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t linear(lat__emu_u3 i, lat__emu_u3 d)
{
    return i.x + (uint64_t)d.x * (i.y + (uint64_t)d.y * i.z);
}

bool lat__emu_printf_parse_buffer(const char *text, size_t *bytes)
{
    if (!text || !*text) {
        *bytes = LAT_EMU_PRINTF_BUFFER_DEFAULT;
        return true;
    }
    unsigned long long v = 0;
    const char *p = text;
    for (; *p >= '0' && *p <= '9'; p++) {
        v = v * 10 + (unsigned)(*p - '0');
        if (v > (1ull << 40))
            return false;
    }
    if (p == text)
        return false;
    int shift = *p == 'K' || *p == 'k' ? 10 : *p == 'M' || *p == 'm' ? 20 : *p == 'G' || *p == 'g' ? 30 : 0;
    if (shift)
        p++;
    if (*p || v > (1ull << 40) >> shift || (v << shift) < 1024)
        return false;
    *bytes = (size_t)(v << shift);
    return true;
}

/* Keeps one line of an ordered launch (or drops it, counted, past the buffer's bound:
 * text is then freed); false when out of memory. */
static bool keep(lat__emu_worker *w, char *text, size_t len)
{
    lat__emu_launch *l = w->launch;
    const lat__emu_thread *t = w->cur;
    lat__emu_line line = {linear(t->block_idx, t->grid_dim), linear(t->thread_idx, t->block_dim),
                          w->seq++, text, len};
    bool ok = true;
    pthread_mutex_lock(&l->lines_lock);
    if (!l->lines_limit && !lat__emu_printf_parse_buffer(lat__emu_env(LAT_EMU_ENV_PRINTF_BUFFER),
                                                         &l->lines_limit))
        l->lines_limit = LAT_EMU_PRINTF_BUFFER_DEFAULT; /* checked when the context was made */
    if (len > l->lines_limit - l->lines_bytes) {
        l->dropped_lines++;
        l->dropped_bytes += len;
        pthread_mutex_unlock(&l->lines_lock);
        free(text);
        return true;
    }
    l->lines_bytes += len;
    if (l->nlines == l->lines_cap) {
        size_t cap = l->lines_cap ? l->lines_cap * 2 : 64;
        lat__emu_line *p = lat__realloc(l->lines, cap * sizeof *p);
        if (p) {
            l->lines = p;
            l->lines_cap = cap;
        } else {
            ok = false;
            l->lines_oom = true;
        }
    }
    if (ok)
        l->lines[l->nlines++] = line;
    pthread_mutex_unlock(&l->lines_lock);
    return ok;
}

/* A call's output is kept to LAT_EMU_PRINTF_MAX bytes, and a field's width and
 * precision to LAT_EMU_PRINTF_FIELD: the C library would format "%999999999d" in full,
 * a gigabyte per thread, past any deadline (the watchdog cannot stop a thread inside
 * the C library). A GPU's printf keeps a launch's output in a 1 MiB buffer. */
enum { LAT_EMU_PRINTF_MAX = 1 << 20, LAT_EMU_PRINTF_FIELD = 4096 };

typedef struct out {
    char *buf; /* NULL: not yet allocated (small is used first) */
    char small[1024];
    size_t len, cap;
    bool oom;
} out;

static char *out_at(out *o)
{
    return o->buf ? o->buf : o->small;
}

/* Room for n more bytes and a NUL (within the cap); false when the cap is reached. */
static bool out_room(out *o, size_t n)
{
    size_t cap = o->buf ? o->cap : sizeof o->small;
    if (o->len + n < cap)
        return true;
    if (o->len + n >= LAT_EMU_PRINTF_MAX + 1)
        n = LAT_EMU_PRINTF_MAX - o->len;
    size_t want = cap * 2;
    while (want < o->len + n + 1)
        want *= 2;
    if (want > LAT_EMU_PRINTF_MAX + 1)
        want = LAT_EMU_PRINTF_MAX + 1;
    if (want <= cap)
        return false;
    char *p = o->buf ? lat__realloc(o->buf, want) : lat__malloc(want);
    if (!p) {
        o->oom = true;
        return false;
    }
    if (!o->buf)
        memcpy(p, o->small, o->len);
    o->buf = p;
    o->cap = want;
    return true;
}

static void out_bytes(out *o, const char *s, size_t n)
{
    out_room(o, n);
    size_t cap = (o->buf ? o->cap : sizeof o->small) - 1;
    if (n > cap - o->len)
        n = cap - o->len;
    memcpy(out_at(o) + o->len, s, n);
    o->len += n;
}

/* One conversion: spec is "%...c" with literal width and precision. */
static void out_spec(out *o, const char *spec, ...) __attribute__((format(printf, 2, 3)));
static void out_spec(out *o, const char *spec, ...)
{
    char tmp[LAT_EMU_PRINTF_FIELD * 2 + 512];
    va_list ap;
    va_start(ap, spec);
    int n = vsnprintf(tmp, sizeof tmp, spec, ap);
    va_end(ap);
    if (n > 0)
        out_bytes(o, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* Reads a width or precision: digits, or '*' from the arguments; clamped. */
static int field_value(const char **f, va_list *ap, bool *given)
{
    long v = 0;
    *given = false;
    if (**f == '*') {
        (*f)++;
        v = va_arg(*ap, int);
        *given = true;
    } else {
        while (**f >= '0' && **f <= '9') {
            if (v <= LAT_EMU_PRINTF_FIELD)
                v = v * 10 + (**f - '0');
            (*f)++;
            *given = true;
        }
    }
    if (v > LAT_EMU_PRINTF_FIELD)
        v = LAT_EMU_PRINTF_FIELD;
    if (v < -LAT_EMU_PRINTF_FIELD)
        v = -LAT_EMU_PRINTF_FIELD;
    return (int)v;
}

/* Formats fmt into o one conversion at a time, each with the C library's printf. */
static void format(out *o, const char *fmt, va_list *ap)
{
    const char *f = fmt;
    while (*f && o->len < LAT_EMU_PRINTF_MAX && !o->oom) {
        const char *pct = strchr(f, '%');
        if (!pct) {
            out_bytes(o, f, strlen(f));
            return;
        }
        out_bytes(o, f, (size_t)(pct - f));
        f = pct + 1;
        char spec[64];
        size_t sl = 0;
        spec[sl++] = '%';
        while (*f && strchr("-+ #0'", *f) && sl < 16)
            spec[sl++] = *f++;
        bool has_w, has_p = false;
        int width = field_value(&f, ap, &has_w), prec = 0;
        if (*f == '.') {
            f++;
            prec = field_value(&f, ap, &has_p);
            if (prec < 0) /* a negative precision is taken as if it were omitted */
                has_p = false;
            else
                has_p = true;
        }
        if (has_w)
            sl += (size_t)snprintf(spec + sl, sizeof spec - sl, "%d", width);
        if (has_p)
            sl += (size_t)snprintf(spec + sl, sizeof spec - sl, ".%d", prec);
        char len[3] = {0};
        size_t ll = 0;
        while (*f && strchr("hlLqjzt", *f) && ll < 2)
            len[ll++] = *f++;
        char conv = *f;
        if (!conv)
            return;
        f++;
        memcpy(spec + sl, len, ll);
        sl += ll;
        spec[sl++] = conv;
        spec[sl] = '\0';
        bool wide = len[0] == 'l' || len[0] == 'q' || len[0] == 'j' || len[0] == 'z' ||
                    len[0] == 't';
        switch (conv) {
        case 'd': case 'i': case 'u': case 'o': case 'x': case 'X':
            if (wide)
                out_spec(o, spec, va_arg(*ap, long long));
            else
                out_spec(o, spec, va_arg(*ap, int));
            break;
        case 'c':
            out_spec(o, spec, va_arg(*ap, int));
            break;
        case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A':
            if (len[0] == 'L')
                out_spec(o, spec, va_arg(*ap, long double));
            else
                out_spec(o, spec, va_arg(*ap, double));
            break;
        case 's': {
            const char *str = va_arg(*ap, const char *);
            out_spec(o, spec, str ? str : "(null)");
            break;
        }
        case 'p':
            out_spec(o, spec, va_arg(*ap, void *));
            break;
        case 'n': /* CUDA's printf has no %n: the pointer is skipped */
            (void)va_arg(*ap, void *);
            break;
        case '%':
            out_bytes(o, "%", 1);
            break;
        default: /* an unknown conversion is written as it stands */
            out_bytes(o, pct, (size_t)(f - pct));
            break;
        }
    }
}

int lat__emu_printf(const char *fmt, ...)
{
    /* A kernel that spins printing would be interrupted in the C library nearly always,
     * where the watchdog cannot stop it. */
    lat__emu_guard_safe_point(lat__emu_current_worker());
    if (!fmt)
        return -1;
    out o;
    o.buf = NULL;
    o.len = o.cap = 0;
    o.oom = false;
    va_list ap;
    va_start(ap, fmt);
    format(&o, fmt, &ap);
    va_end(ap);
    if (o.oom) {
        free(o.buf);
        return -1;
    }
    size_t n = o.len;
    out_at(&o)[n] = '\0';
    lat__emu_worker *w = lat__emu_current_worker();
    bool ordered = w && w->launch->ordered && w->cur;
    if (ordered) {
        char *text = o.buf ? o.buf : lat__malloc(n + 1);
        if (!text)
            return -1;
        if (!o.buf)
            memcpy(text, o.small, n + 1);
        if (!keep(w, text, n)) {
            free(text);
            return -1;
        }
        return (int)n;
    }
    fwrite(out_at(&o), 1, n, stdout);
    free(o.buf);
    return (int)n;
}

static int by_place(const void *a, const void *b)
{
    const lat__emu_line *x = a, *y = b;
    if (x->block != y->block)
        return x->block < y->block ? -1 : 1;
    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void lat__emu_flush_lines(lat__emu_launch *l)
{
    if (l->dropped_lines)
        lat__log(l->ctx, LAT_LOG_WARNING,
                 "kernel '%s': %llu printf lines (%llu bytes) were dropped: the ordered output "
                 "keeps %zu bytes at most (LATTICE_EMU_PRINTF_BUFFER), the lines printed first "
                 "(written in block and thread order; which ones were first depends on how the "
                 "blocks ran)", l->kernel->name, l->dropped_lines, l->dropped_bytes,
                 l->lines_limit);
    if (!l->nlines)
        return;
    qsort(l->lines, l->nlines, sizeof *l->lines, by_place);
    flockfile(stdout);
    for (size_t i = 0; i < l->nlines; i++) {
        fwrite(l->lines[i].text, 1, l->lines[i].len, stdout);
        free(l->lines[i].text);
    }
    funlockfile(stdout);
    fflush(stdout);
    free(l->lines);
    l->lines = NULL;
    l->nlines = l->lines_cap = 0;
}
