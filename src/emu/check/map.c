/*
 * Thread maps drawn (lattice/check.h): which block and thread last wrote (or read) each
 * element of a buffer, as an SVG picture (each element a square in its block's colour,
 * labelled with its thread) and as a plain-text table, for teaching how a kernel's
 * threads cover an array.
 */
#include "ck.h"

#include "error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CELL = 34, GAP = 2, MARGIN = 12, TITLE = 28, INDEX_W = 44, LEGEND_ROW = 22 };

/* Twelve colours far apart and readable under black text. */
static const char *const palette[] = {
    "#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462",
    "#b3de69", "#fccde5", "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f",
};
enum { NCOLORS = sizeof palette / sizeof palette[0] };

static size_t columns_of(const lat_check_map *m, const lat_check_map_style *st)
{
    if (st && st->columns)
        return st->columns;
    size_t threads = (size_t)m->block.x * (m->block.y ? m->block.y : 1) * (m->block.z ? m->block.z : 1);
    size_t c = threads < 32 ? threads : 32;
    if (m->block.y > 1 && m->block.x <= 32)
        c = m->block.x * (m->grid.x ? m->grid.x : 1) <= 32 ? m->block.x * m->grid.x : m->block.x;
    return c ? c : 1;
}

/* A thread's label: x, or x,y (or x,y,z) for blocks of more dimensions. */
static void thread_label(char *buf, size_t size, const lat_check_map *m, long long t)
{
    unsigned bx = m->block.x ? m->block.x : 1, by = m->block.y ? m->block.y : 1;
    unsigned long long x = (unsigned long long)t % bx, y = (unsigned long long)t / bx % by,
                       z = (unsigned long long)t / bx / by;
    if (m->block.z > 1)
        snprintf(buf, size, "%llu,%llu,%llu", x, y, z);
    else if (m->block.y > 1)
        snprintf(buf, size, "%llu,%llu", x, y);
    else
        snprintf(buf, size, "%llu", x);
}

static void block_label(char *buf, size_t size, const lat_check_map *m, long long b)
{
    unsigned gx = m->grid.x ? m->grid.x : 1, gy = m->grid.y ? m->grid.y : 1;
    unsigned long long x = (unsigned long long)b % gx, y = (unsigned long long)b / gx % gy,
                       z = (unsigned long long)b / gx / gy;
    if (m->grid.z > 1)
        snprintf(buf, size, "%llu,%llu,%llu", x, y, z);
    else if (m->grid.y > 1)
        snprintf(buf, size, "%llu,%llu", x, y);
    else
        snprintf(buf, size, "%llu", x);
}

static void title_of(char *buf, size_t size, const lat_check_map *m, const lat_check_map_style *st)
{
    if (st && st->title) {
        snprintf(buf, size, "%s", st->title);
        return;
    }
    snprintf(buf, size, "%s<<<(%u,%u,%u), (%u,%u,%u)>>>: %s each element", m->kernel,
             m->grid.x, m->grid.y, m->grid.z, m->block.x, m->block.y, m->block.z,
             st && st->show_reads ? "which block and thread last read" :
                                    "which block and thread last wrote");
}

static void esc(char **buf, size_t *len, const char *s, bool *oom)
{
    for (; *s; s++) {
        const char *r = *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : *s == '&' ? "&amp;" : NULL;
        int e = r ? lat__strbuf_append(buf, len, r, strlen(r)) : lat__strbuf_append(buf, len, s, 1);
        if (e)
            *oom = true;
    }
}

lat_status lat_check_map_svg(const lat_check_map *m, const lat_check_map_style *st, char **svg)
{
    LAT__API();
    if (!m || !svg || !m->cells)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "%s is NULL",
                          !m ? "map" : !svg ? "svg" : "map->cells");
    *svg = NULL;
    bool reads = st && st->show_reads;
    size_t cols = columns_of(m, st);
    size_t rows = (m->count + cols - 1) / cols;
    /* The blocks seen, in order, for the legend. */
    long long seen[NCOLORS + 1];
    int nseen = 0;
    bool more = false;
    for (size_t i = 0; i < m->count; i++) {
        long long b = reads ? m->cells[i].read_block : m->cells[i].write_block;
        if (b < 0)
            continue;
        bool known = false;
        for (int k = 0; k < nseen; k++)
            known |= seen[k] == b;
        if (!known) {
            if (nseen < NCOLORS)
                seen[nseen++] = b;
            else
                more = true;
        }
    }
    char title[400];
    title_of(title, sizeof title, m, st);
    int width = MARGIN * 2 + INDEX_W + (int)cols * (CELL + GAP);
    int legend_rows = (nseen + 5) / 6 + (more ? 1 : 0);
    int height = MARGIN * 2 + TITLE + (int)rows * (CELL + GAP) + 10 + legend_rows * LEGEND_ROW;
    /* Wide enough for the title (about 8.5 px a character at 14 px) and the legend. */
    int need = MARGIN * 2 + (int)(strlen(title) * 85 / 10);
    if (width < need)
        width = need;
    if (width < MARGIN * 2 + 6 * 110)
        width = MARGIN * 2 + 6 * 110;
    char *buf = NULL;
    size_t len = 0;
    bool oom = false;
#define P(...) (oom |= lat__strbuf_printf(&buf, &len, __VA_ARGS__) != 0)
    P("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
      "font-family=\"DejaVu Sans Mono, monospace\">\n", width, height, width, height);
    P("<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    P("<text x=\"%d\" y=\"%d\" font-size=\"14\">", MARGIN, MARGIN + 16);
    esc(&buf, &len, title, &oom);
    P("</text>\n");
    int top = MARGIN + TITLE;
    for (size_t r = 0; r < rows; r++) {
        int y = top + (int)r * (CELL + GAP);
        P("<text x=\"%d\" y=\"%d\" font-size=\"11\" fill=\"#666\" text-anchor=\"end\">[%zu]</text>\n",
          MARGIN + INDEX_W - 6, y + CELL / 2 + 4, r * cols);
        for (size_t c = 0; c < cols; c++) {
            size_t i = r * cols + c;
            if (i >= m->count)
                break;
            const lat_check_map_cell *cell = &m->cells[i];
            long long b = reads ? cell->read_block : cell->write_block;
            long long t = reads ? cell->read_thread : cell->write_thread;
            int x = MARGIN + INDEX_W + (int)c * (CELL + GAP);
            const char *fill = "white";
            for (int k = 0; k < nseen; k++)
                if (seen[k] == b)
                    fill = palette[k];
            if (b >= 0 && strcmp(fill, "white") == 0)
                fill = "#eeeeee";
            P("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#555\" "
              "stroke-width=\"0.5\"/>\n", x, y, CELL, CELL, fill);
            if (b >= 0) {
                char lab[48];
                thread_label(lab, sizeof lab, m, t);
                int fs = strlen(lab) > 5 ? 8 : strlen(lab) > 3 ? 10 : 12;
                P("<text x=\"%d\" y=\"%d\" font-size=\"%d\" text-anchor=\"middle\">%s</text>\n",
                  x + CELL / 2, y + CELL / 2 + fs / 3, fs, lab);
                unsigned n = reads ? cell->reads : cell->writes;
                if (n > 1)
                    P("<text x=\"%d\" y=\"%d\" font-size=\"7\" text-anchor=\"end\" fill=\"#b00\">"
                      "x%u</text>\n", x + CELL - 2, y + 8, n);
            }
        }
    }
    int ly = top + (int)rows * (CELL + GAP) + 10;
    for (int k = 0; k < nseen; k++) {
        int x = MARGIN + (k % 6) * 110, y = ly + (k / 6) * LEGEND_ROW;
        char lab[48];
        block_label(lab, sizeof lab, m, seen[k]);
        P("<rect x=\"%d\" y=\"%d\" width=\"14\" height=\"14\" fill=\"%s\" stroke=\"#555\" "
          "stroke-width=\"0.5\"/><text x=\"%d\" y=\"%d\" font-size=\"12\">block %s</text>\n",
          x, y, palette[k], x + 18, y + 12, lab);
    }
    if (more)
        P("<text x=\"%d\" y=\"%d\" font-size=\"12\">(more blocks in grey)</text>\n", MARGIN,
          ly + ((nseen + 5) / 6) * LEGEND_ROW + 12);
    P("</svg>\n");
#undef P
    if (oom) {
        free(buf);
        return lat__oom(NULL);
    }
    *svg = buf;
    return LAT_OK;
}

lat_status lat_check_map_text(const lat_check_map *m, const lat_check_map_style *st, char **text)
{
    LAT__API();
    if (!m || !text || !m->cells)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "%s is NULL",
                          !m ? "map" : !text ? "text" : "map->cells");
    *text = NULL;
    bool reads = st && st->show_reads;
    size_t cols = columns_of(m, st);
    char *buf = NULL;
    size_t len = 0;
    bool oom = false;
    char title[400];
    title_of(title, sizeof title, m, st);
    /* Cells are "block.thread"; the widest decides the column width. */
    size_t w = 1;
    for (size_t i = 0; i < m->count; i++) {
        const lat_check_map_cell *c = &m->cells[i];
        long long b = reads ? c->read_block : c->write_block;
        if (b < 0)
            continue;
        char bl[48], tl[48];
        block_label(bl, sizeof bl, m, b);
        thread_label(tl, sizeof tl, m, reads ? c->read_thread : c->write_thread);
        size_t n = strlen(bl) + 1 + strlen(tl);
        if (n > w)
            w = n;
    }
    char idx[32];
    int iw = snprintf(idx, sizeof idx, "[%zu]", m->count ? (m->count - 1) / cols * cols : 0);
#define P(...) (oom |= lat__strbuf_printf(&buf, &len, __VA_ARGS__) != 0)
    P("%s (block/thread; - untouched)\n", title);
    for (size_t i = 0; i < m->count; i++) {
        if (i % cols == 0) {
            snprintf(idx, sizeof idx, "[%zu]", i);
            P("%s%*s", i ? "\n" : "", iw, idx);
        }
        const lat_check_map_cell *c = &m->cells[i];
        long long b = reads ? c->read_block : c->write_block;
        char cell[100] = "-";
        if (b >= 0) {
            char bl[48], tl[48];
            block_label(bl, sizeof bl, m, b);
            thread_label(tl, sizeof tl, m, reads ? c->read_thread : c->write_thread);
            snprintf(cell, sizeof cell, "%s/%s", bl, tl);
        }
        P(" %*s", (int)w, cell);
    }
    P("\n");
#undef P
    if (oom) {
        free(buf);
        return lat__oom(NULL);
    }
    *text = buf;
    return LAT_OK;
}
