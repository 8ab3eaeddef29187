/*
 * #include (C11 6.10.2): the header's name (quoted, in angle brackets, or made by macros),
 * headers.c's resolution, reading (regular files only, of bounded size), and what saves
 * reading a header again: a cache of each file's text by real path, #pragma once, and
 * include guards (a header wholly inside `#ifndef X ... #endif` is skipped while X is
 * defined, without being read or lexed).
 */
#include "pp_int.h"

#include "headers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pp_file_info {
    const char *real;  /* the key: realpath() */
    const char *text;  /* read once */
    size_t len;
    int err;           /* why it could not be read (errno) */
    bool read;
    bool once;         /* #pragma once */
    lat__atom *guard;  /* its include guard */
};

static size_t hash_str(const char *s)
{
    size_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static void files_grow(pp *p)
{
    size_t cap = p->files_cap ? p->files_cap * 2 : 64;
    pp_file_info **slots = lat__arena_alloc(&p->u->arena, cap * sizeof *slots);
    for (size_t i = 0; i < p->files_cap; i++) {
        pp_file_info *f = p->files[i];
        if (!f)
            continue;
        size_t j = hash_str(f->real) & (cap - 1);
        while (slots[j])
            j = (j + 1) & (cap - 1);
        slots[j] = f;
    }
    p->files = slots;
    p->files_cap = cap;
}

/* The cache entry of a real path, made on first use. */
static pp_file_info *file_info(pp *p, const char *real)
{
    if ((p->files_n + 1) * 2 > p->files_cap)
        files_grow(p);
    size_t j = hash_str(real) & (p->files_cap - 1);
    for (;; j = (j + 1) & (p->files_cap - 1)) {
        pp_file_info *f = p->files[j];
        if (!f)
            break;
        if (strcmp(f->real, real) == 0)
            return f;
    }
    pp_file_info *f = lat__arena_alloc(&p->u->arena, sizeof *f);
    f->real = lat__arena_strndup(&p->u->arena, real, strlen(real));
    p->files[j] = f;
    p->files_n++;
    return f;
}

void pp_file_set_once(pp *p, pp_ctx *c)
{
    p->u->files.items[c->phys].once = true;
    const char *real = p->u->files.items[c->phys].real;
    if (!c->info && real)
        c->info = file_info(p, real);
    if (c->info)
        c->info->once = true;
}

void pp_file_set_guard(pp_ctx *c, lat__atom *guard)
{
    if (c->info)
        c->info->guard = guard;
}

static const char *read_error(int err)
{
    switch (err) {
    case EISDIR:
        return "it is a directory";
    case ENODEV:
        return "it is not a regular file";
    case EFBIG:
        return "it is larger than 64 MiB";
    case EILSEQ:
        return "it contains a NUL byte";
    default:
        return strerror(err);
    }
}

/* Reads and pushes the header at path (found at search position found_at). */
static void enter(pp *p, pp_ctx *from, const char *path, int found_at, lat__loc at)
{
    const char *real = pp_keep(p, realpath(path, NULL));
    pp_file_info *info = file_info(p, real ? real : path);
    if (info->once || (info->guard && info->guard->macro))
        return;
    if (!info->read) {
        char *text = NULL;
        info->err = lat__file_read(path, &text);
        if (info->err == ENOMEM)
            lat__arena_oom(&p->u->arena);
        info->read = true;
        if (!info->err) {
            info->text = pp_keep(p, text);
            info->len = strlen(info->text);
        }
    }
    if (info->err) {
        lat__diag_at(p->u, at, LAT_SEV_ERROR, LAT_ERROR_FILE, "cannot read the header '%s': %s",
                     path, read_error(info->err));
        return;
    }
    (void)from;
    uint32_t idx = lat__unit_add_file(p->u, path, path, info->text, info->len);
    lat__srcfile *f = &p->u->files.items[idx];
    char *dir = lat__path_dir(path);
    if (!dir)
        lat__arena_oom(&p->u->arena);
    f->dir = pp_keep(p, dir);
    f->real = real;
    f->included_at = at;
    pp_ctx *c = pp_push_file(p, idx);
    c->is_include = true;
    c->found_at = found_at;
    c->info = info;
    c->guard = PP_GUARD_START;
    p->include_depth++;
}

/* "dir1, dir2" of the directories a search went through. */
static const char *searched(pp *p, const char *from_dir, int first)
{
    const char *const *lists[2] = {p->in->include_dirs, p->in->option_include_dirs};
    size_t total = from_dir ? strlen(from_dir) + 3 : 1;
    for (int k = 0; k < 2; k++)
        for (const char *const *d = lists[k]; d && *d; d++)
            total += strlen(*d) + 2;
    char *s = lat__arena_alloc(&p->u->arena, total + 16), *at = s;
    if (from_dir)
        at += sprintf(at, "%s", from_dir);
    int i = 0;
    for (int k = 0; k < 2; k++)
        for (const char *const *d = lists[k]; d && *d; d++, i++)
            if (i >= first)
                at += sprintf(at, "%s%s", at != s ? ", " : "", *d);
    return at != s ? s : "no directories";
}

/* Where a search for a header starts: the includer's directory for a quoted name,
 * then the search list from *first. #include_next goes on after the includer's place. */
static const char *search_start(pp *p, pp_ctx *c, bool next, lat__loc at, int *first)
{
    *first = 0;
    if (next && c->is_include) {
        if (c->found_at >= 0)
            *first = c->found_at + 1;
        return NULL;
    }
    if (next)
        lat__diag_at(p->u, at, LAT_SEV_WARNING, LAT_OK, "#include_next in primary source file");
    return p->u->files.items[c->phys].dir;
}

int pp_has_include(pp *p, const char *name, bool quoted, bool next, lat__loc at)
{
    pp_ctx *c = pp_file_ctx(p);
    if (!c || !*name)
        return 0;
    int first, found;
    const char *from = search_start(p, c, next, at, &first);
    char *path = NULL;
    lat__header_kind kind = lat__header_resolve_next(name, quoted, from, p->in->include_dirs,
                                                     p->in->option_include_dirs, first, &path,
                                                     &found);
    free(path);
    if (kind == LAT__HEADER_NOMEM)
        lat__arena_oom(&p->u->arena);
    return kind == LAT__HEADER_FILE || kind == LAT__HEADER_BUILTIN;
}

/* The header name of an #include's line: quoted or <bracketed>, written so or made by
 * macros. NULL after an error (reported). */
static const char *header_name(pp *p, const lat__tok *t, size_t n, const lat__tok *d,
                               bool *quoted)
{
    size_t mark = p->scratch.n, used = 1;
    const char *name = NULL;
    bool expanded = false;
    if (n > 0 && !(t[0].kind == LAT_TK_HEADER ||
                   (t[0].kind == LAT_TK_STRING && t[0].text[0] == '"'))) {
        pp_expand_line(p, t, n, false);
        t = p->scratch.items + mark;
        n = p->scratch.n - mark;
        expanded = true;
    }
    if (n == 0) {
        lat__error_at(p->u, d->loc, "#include expects \"FILENAME\" or <FILENAME>");
    } else if (t[0].kind == LAT_TK_STRING && t[0].text[0] == '"') {
        if (t[0].len < 2 || t[0].text[t[0].len - 1] != '"')
            lat__error_at(p->u, t[0].loc, "missing terminating \" character");
        else
            name = lat__arena_strndup(&p->u->arena, t[0].text + 1, t[0].len - 2);
        *quoted = true;
    } else if (t[0].kind == LAT_TK_HEADER) {
        if (t[0].len < 2 || t[0].text[t[0].len - 1] != '>')
            lat__error_at(p->u, t[0].loc, "missing terminating > character");
        else
            name = lat__arena_strndup(&p->u->arena, t[0].text + 1, t[0].len - 2);
        *quoted = false;
    } else if (expanded && lat__tok_is_punct(&t[0], LAT_P_LT)) {
        /* <...> made by macros: the tokens' spellings up to `>`. */
        size_t k = 1;
        while (k < n && !lat__tok_is_punct(&t[k], LAT_P_GT))
            k++;
        if (k == n)
            lat__error_at(p->u, t[0].loc, "missing terminating > character");
        else
            name = pp_spell(p, t + 1, k - 1, NULL);
        used = k + 1;
        *quoted = false;
    } else {
        lat__error_at(p->u, t[0].loc, "#include expects \"FILENAME\" or <FILENAME>");
    }
    if (name && n > used)
        lat__diag_at(p->u, t[used].loc, LAT_SEV_WARNING, LAT_OK,
                     "extra tokens at end of #%s directive", d->atom->name);
    p->scratch.n = mark;
    if (name && !*name) {
        lat__error_at(p->u, n ? t[0].loc : d->loc, "empty filename in #include");
        return NULL;
    }
    return name;
}

void pp_include(pp *p, pp_ctx *c, const lat__tok *t, size_t n, const lat__tok *d, bool next)
{
    bool quoted = false;
    const char *name = header_name(p, t, n, d, &quoted);
    if (!name)
        return;
    lat__loc at = t[0].loc;
    if (p->collecting > 0) {
        lat__error_at(p->u, at, "#include inside the arguments of a macro call");
        return;
    }
    if (p->include_depth >= PP_MAX_INCLUDE_DEPTH) {
        lat__diag_at(p->u, at, LAT_SEV_ERROR, LAT_ERROR_FILE,
                     "#include nested more than %d deep (does '%s' include itself without a "
                     "guard?)",
                     PP_MAX_INCLUDE_DEPTH, name);
        return;
    }
    int first, found;
    const char *from = search_start(p, c, next, at, &first);
    char *path = NULL;
    lat__header_kind kind = lat__header_resolve_next(name, quoted, from, p->in->include_dirs,
                                                     p->in->option_include_dirs, first, &path,
                                                     &found);
    switch (kind) {
    case LAT__HEADER_NOMEM:
        lat__arena_oom(&p->u->arena);
    case LAT__HEADER_BUILTIN: {
        /* Its macros are predefined; assert's follows NDEBUG where it is included; the
         * C++ ones (cooperative groups, cuda_fp16.h) are read as source. */
        if (p->in->assert_h && (strcmp(name, "assert.h") == 0 || strcmp(name, "cassert") == 0))
            pp_push_text(p, "<built-in>", p->in->assert_h);
        const lat__front_profile *target = p->in->profile;
        const char *text =
            target && target->header_text ? target->header_text(&p->u->arena, name) : NULL;
        if (text)
            pp_push_text(p, lat__arena_printf(&p->u->arena, "<%s>", name), text);
        return;
    }
    case LAT__HEADER_UNSUPPORTED: {
        const char *what = lat__arena_printf(&p->u->arena, "#include <%s>", name);
        lat__unsupported_at(p->u, at, what, "that CUDA library is not emulated");
        return;
    }
    case LAT__HEADER_MISSING:
        lat__diag_at(p->u, at, LAT_SEV_ERROR, LAT_ERROR_FILE,
                     "cannot find the header '%s' (searched: %s)", name,
                     searched(p, quoted ? from : NULL, first));
        return;
    case LAT__HEADER_FILE:
        break;
    }
    const char *kept = pp_keep(p, path);
    enter(p, c, kept, found, at);
}
