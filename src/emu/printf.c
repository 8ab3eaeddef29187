/*
 * printf in kernel code. Each call's output is formatted whole and written with one
 * fwrite (stdio locks the stream for it), so lines of different threads never
 * interleave. With LATTICE_EMU_PRINTF=ordered, a launch's output is kept and written
 * when the launch ends, ordered by block, then thread (linear indices, x fastest), then
 * call: the same text on every run, whatever the number of OpenMP threads.
 */
#include "exec/worker.h"

#include "exec/guard.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t linear(lat__emu_u3 i, lat__emu_u3 d)
{
    return i.x + (uint64_t)d.x * (i.y + (uint64_t)d.y * i.z);
}

/* Keeps one line of an ordered launch; false when out of memory. */
static bool keep(lat__emu_worker *w, char *text, size_t len)
{
    lat__emu_launch *l = w->launch;
    const lat__emu_thread *t = w->cur;
    lat__emu_line line = {linear(t->block_idx, t->grid_dim), linear(t->thread_idx, t->block_dim),
                          w->seq++, text, len};
    bool ok = true;
    pthread_mutex_lock(&l->lines_lock);
    if (l->nlines == l->lines_cap) {
        size_t cap = l->lines_cap ? l->lines_cap * 2 : 64;
        lat__emu_line *p = realloc(l->lines, cap * sizeof *p);
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

int lat__emu_printf(const char *fmt, ...)
{
    /* A kernel that spins printing would be interrupted in the C library nearly always,
     * where the watchdog cannot stop it. */
    lat__emu_guard_safe_point(lat__emu_current_worker());
    char small[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return n;
    lat__emu_worker *w = lat__emu_current_worker();
    bool ordered = w && w->launch->ordered && w->cur;
    char *buf = small;
    if ((size_t)n >= sizeof small || ordered) {
        buf = malloc((size_t)n + 1);
        if (!buf)
            return -1;
        va_start(ap, fmt);
        vsnprintf(buf, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    if (ordered) {
        if (!keep(w, buf, (size_t)n)) {
            free(buf);
            return -1;
        }
        return n;
    }
    fwrite(buf, 1, (size_t)n, stdout);
    if (buf != small)
        free(buf);
    return n;
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
