/* The directives (C11 6.10), obeyed as a file's tokens are read: conditionals and the
 * skipping of false groups, #line, #error, #warning, #pragma; #define and #include are
 * pp_define.c's and pp_include.c's. */
#include "pp_int.h"

#include <stdio.h>
#include <string.h>

static bool is_word(pp *p, const lat__tok *t, pp_word w)
{
    return t->kind == LAT_TK_IDENT && t->atom == p->w[w];
}

static void extra_tokens(pp *p, const lat__tok *t, size_t n, const char *dir)
{
    if (n > 0)
        lat__diag_at(p->u, t[0].loc, LAT_SEV_WARNING, LAT_OK,
                     "extra tokens at end of #%s directive", dir);
}

void pp_skip_group(pp *p, pp_ctx *c)
{
    int depth = 0;
    for (;; c->pos++) {
        const lat__tok *k = &c->toks[c->pos];
        if (k->kind == LAT_TK_EOF)
            return;
        if (!(k->flags & LAT_TF_BOL) || !lat__tok_is_punct(k, LAT_P_HASH))
            continue;
        const lat__tok *d = k + 1;
        if (d->kind != LAT_TK_IDENT || (d->flags & LAT_TF_BOL))
            continue;
        if (is_word(p, d, PP_W_if) || is_word(p, d, PP_W_ifdef) || is_word(p, d, PP_W_ifndef)) {
            depth++;
        } else if (is_word(p, d, PP_W_endif)) {
            if (depth-- == 0)
                return;
        } else if (depth == 0 && (is_word(p, d, PP_W_elif) || is_word(p, d, PP_W_else) ||
                                  is_word(p, d, PP_W_elifdef) || is_word(p, d, PP_W_elifndef))) {
            return;
        }
    }
}

static void push_cond(pp *p, lat__loc loc, const char *what, bool taken)
{
    pp_cond k = {.loc = loc, .what = what, .taken = taken};
    LAT_PUSH(&p->u->arena, p->conds, k);
}

/* The conditional of the current file that #elif/#else/#endif closes, or NULL (an error
 * reported). */
static pp_cond *open_cond(pp *p, pp_ctx *c, const lat__tok *d)
{
    if (p->conds.n > c->cond_base)
        return &p->conds.items[p->conds.n - 1];
    lat__error_at(p->u, d->loc, "#%s without #if", d->atom->name);
    return NULL;
}

/* #if's and #elif's value. */
static bool eval_line(pp *p, const lat__tok *d, const lat__tok *t, size_t n)
{
    if (n == 0) {
        lat__error_at(p->u, d->loc, "#%s with no expression", d->atom->name);
        return false;
    }
    size_t mark = p->scratch.n;
    pp_expand_line(p, t, n, true);
    bool v = pp_eval(p, p->scratch.items + mark, p->scratch.n - mark, d->loc);
    p->scratch.n = mark;
    return v;
}

/* #ifdef's and #elifdef's operand: whether it is defined. */
static bool ifdef_value(pp *p, const lat__tok *d, const lat__tok *t, size_t n)
{
    if (n == 0) {
        lat__error_at(p->u, d->loc, "no macro name given in #%s directive", d->atom->name);
        return false;
    }
    if (t[0].kind != LAT_TK_IDENT) {
        lat__error_at(p->u, t[0].loc, "macro names must be identifiers");
        return false;
    }
    extra_tokens(p, t + 1, n - 1, d->atom->name);
    return t[0].atom->macro != NULL;
}

/* The X of a guard's `#if !defined X` or `#if !defined(X)`, else NULL. */
static lat__atom *if_not_defined(pp *p, const lat__tok *t, size_t n)
{
    if (n < 3 || !lat__tok_is_punct(&t[0], LAT_P_BANG) || !is_word(p, &t[1], PP_W_defined))
        return NULL;
    if (n == 3 && t[2].kind == LAT_TK_IDENT)
        return t[2].atom;
    if (n == 5 && lat__tok_is_punct(&t[2], LAT_P_LPAREN) && t[3].kind == LAT_TK_IDENT &&
        lat__tok_is_punct(&t[4], LAT_P_RPAREN))
        return t[3].atom;
    return NULL;
}

static void conditional(pp *p, pp_ctx *c, pp_word w, const lat__tok *d, const lat__tok *t,
                        size_t n, bool guard_start)
{
    if (w == PP_W_if || w == PP_W_ifdef || w == PP_W_ifndef) {
        lat__atom *guard = NULL;
        bool v;
        if (w == PP_W_if) {
            guard = if_not_defined(p, t, n);
            v = eval_line(p, d, t, n);
        } else {
            v = ifdef_value(p, d, t, n) == (w == PP_W_ifdef);
            if (w == PP_W_ifndef && n == 1)
                guard = t[0].atom;
        }
        if (guard_start && guard) {
            c->guard = PP_GUARD_OPEN;
            c->guard_name = guard;
            c->guard_cond = p->conds.n;
        }
        push_cond(p, d->loc, w == PP_W_if ? "#if" : w == PP_W_ifdef ? "#ifdef" : "#ifndef", v);
        if (!v)
            pp_skip_group(p, c);
        return;
    }
    pp_cond *k = open_cond(p, c, d);
    if (!k)
        return;
    bool is_guard = c->guard == PP_GUARD_OPEN && c->guard_cond == p->conds.n - 1;
    if (w == PP_W_endif) {
        extra_tokens(p, t, n, "endif");
        p->conds.n--;
        if (is_guard) /* the guard holds when its #endif ends the file */
            c->guard = c->toks[c->pos].kind == LAT_TK_EOF ? PP_GUARD_CLOSED : PP_GUARD_NONE;
        return;
    }
    if (is_guard)
        c->guard = PP_GUARD_NONE;
    if (k->in_else) {
        lat__error_at(p->u, d->loc, "#%s after #else", d->atom->name);
        pp_skip_group(p, c);
        return;
    }
    if (w == PP_W_else) {
        extra_tokens(p, t, n, "else");
        k->in_else = true;
    }
    if (k->taken) {
        pp_skip_group(p, c); /* an earlier group was live: later #elifs are not evaluated */
        return;
    }
    bool v = w == PP_W_else                       ? true
             : w == PP_W_elif                     ? eval_line(p, d, t, n)
             : (ifdef_value(p, d, t, n) == (w == PP_W_elifdef));
    k = &p->conds.items[p->conds.n - 1]; /* evaluating may have grown the stack's array */
    k->taken = v;
    if (!v)
        pp_skip_group(p, c);
}

/* The physical line after the directive whose `#` is at s (on line `line`): its end is
 * the first newline outside comments and literals, not after a backslash. */
static uint32_t line_after(const char *s, uint32_t line)
{
    const char *q = s;
    while (*q) {
        if (q[0] == '\\' && (q[1] == '\n' || (q[1] == '\r' && q[2] == '\n'))) {
            q += q[1] == '\n' ? 2 : 3;
            line++;
        } else if (*q == '\n') {
            break;
        } else if (q[0] == '/' && q[1] == '*') {
            for (q += 2; *q && !(q[0] == '*' && q[1] == '/'); q++)
                line += *q == '\n';
            q += *q ? 2 : 0;
        } else if (q[0] == '/' && q[1] == '/') {
            while (*q && *q != '\n') {
                if (q[0] == '\\' && (q[1] == '\n' || (q[1] == '\r' && q[2] == '\n'))) {
                    q += q[1] == '\n' ? 2 : 3;
                    line++;
                } else {
                    q++;
                }
            }
        } else if (*q == '"' || *q == '\'') {
            char quote = *q++;
            while (*q && *q != '\n' && *q != quote) {
                if (q[0] == '\\' && q[1]) {
                    line += q[1] == '\n';
                    q += 2;
                } else {
                    q++;
                }
            }
            q += *q == quote;
        } else {
            q++;
        }
    }
    return line + 1;
}

/* #line N ["name"], and GNU's `# N "name" flags` line markers. */
static void line_directive(pp *p, pp_ctx *c, const lat__tok *hash_raw, const lat__tok *d,
                           const lat__tok *t, size_t n, bool marker)
{
    size_t mark = p->scratch.n;
    if (!marker) {
        pp_expand_line(p, t, n, false);
        t = p->scratch.items + mark;
        n = p->scratch.n - mark;
    }
    unsigned long long v = 0;
    bool ok = n > 0 && t[0].kind == LAT_TK_NUMBER;
    for (uint32_t i = 0; ok && i < t[0].len; i++) {
        ok = t[0].text[i] >= '0' && t[0].text[i] <= '9';
        v = v * 10 + (unsigned)(t[0].text[i] - '0');
        if (v > 2147483647u) {
            lat__error_at(p->u, t[0].loc, "line number out of range");
            p->scratch.n = mark;
            return;
        }
    }
    if (!ok) {
        if (n > 0)
            lat__error_at(p->u, t[0].loc, "\"%.*s\" after #line is not a positive integer",
                          (int)t[0].len, t[0].text);
        else
            lat__error_at(p->u, d->loc, "#line directive requires a line number");
        p->scratch.n = mark;
        return;
    }
    const char *name = NULL;
    if (n > 1) {
        const lat__tok *s = &t[1];
        if (s->kind != LAT_TK_STRING || s->text[0] != '"' || s->len < 2 ||
            s->text[s->len - 1] != '"') {
            lat__error_at(p->u, s->loc, "invalid filename \"%.*s\"", (int)s->len, s->text);
            p->scratch.n = mark;
            return;
        }
        char *nm = lat__arena_alloc(&p->u->arena, s->len);
        size_t k = 0;
        for (uint32_t i = 1; i + 1 < s->len; i++) {
            if (s->text[i] == '\\' && i + 2 < s->len)
                i++;
            nm[k++] = s->text[i];
        }
        name = nm;
        if (!marker)
            extra_tokens(p, t + 2, n - 2, "line");
    }
    p->scratch.n = mark;
    uint32_t next = line_after(hash_raw->text, hash_raw->loc.line);
    c->line_delta = (int64_t)v - (int64_t)next;
    if (name) {
        /* The new name gets a file-table entry of its own, so that tokens carry it. */
        lat__srcfile f = p->u->files.items[c->phys];
        f.display = name;
        f.once = false;
        c->shown = lat__unit_add_file(p->u, f.path, name, f.text, f.len);
        lat__srcfile *nf = &p->u->files.items[c->shown];
        nf->dir = f.dir;
        nf->real = f.real;
        nf->included_at = f.included_at;
    }
}

bool pp_pragma(pp *p, pp_ctx *file, const lat__tok *t, size_t n, lat__loc loc, lat__tok *out)
{
    if (n == 1 && is_word(p, &t[0], PP_W_once)) {
        if (file)
            pp_file_set_once(p, file);
        return false;
    }
    if (n >= 1 && (is_word(p, &t[0], PP_W_push_macro) || is_word(p, &t[0], PP_W_pop_macro))) {
        if (n != 4 || !lat__tok_is_punct(&t[1], LAT_P_LPAREN) || t[2].kind != LAT_TK_STRING ||
            t[2].text[0] != '"' || t[2].len < 3 || !lat__tok_is_punct(&t[3], LAT_P_RPAREN)) {
            lat__error_at(p->u, t[0].loc, "invalid #pragma %s directive", t[0].atom->name);
            return false;
        }
        lat__atom *a = lat__atom_get(&p->u->atoms, t[2].text + 1, t[2].len - 2);
        if (is_word(p, &t[0], PP_W_push_macro)) {
            if (p->pushed.n >= PP_MAX_PUSHED) { /* pop_macro's search stays short */
                lat__error_at(p->u, t[0].loc, "more than %d macros pushed", PP_MAX_PUSHED);
                return false;
            }
            pp_saved_macro s = {a, a->macro};
            LAT_PUSH(&p->u->arena, p->pushed, s);
            return false;
        }
        for (size_t i = p->pushed.n; i-- > 0;)
            if (p->pushed.items[i].name == a) {
                a->macro = p->pushed.items[i].macro;
                memmove(&p->pushed.items[i], &p->pushed.items[i + 1],
                        (p->pushed.n - i - 1) * sizeof p->pushed.items[0]);
                p->pushed.n--;
                break;
            }
        return false;
    }
    if (n >= 2 && is_word(p, &t[0], PP_W_GCC) &&
        (is_word(p, &t[1], PP_W_warning) || is_word(p, &t[1], PP_W_error))) {
        bool error = is_word(p, &t[1], PP_W_error);
        const char *msg = pp_spell(p, t + 2, n - 2, NULL);
        lat__diag_at(p->u, t[1].loc, error ? LAT_SEV_ERROR : LAT_SEV_WARNING,
                     LAT_ERROR_COMPILE, "%s", msg);
        return false;
    }
    if (n >= 2 && is_word(p, &t[0], PP_W_GCC) && is_word(p, &t[1], PP_W_system_header))
        return false;
    if (n >= 1 && is_word(p, &t[0], PP_W_pack)) {
        /* NVCC obeys #pragma pack(N): its structs have N's layout. The emulator lays out
         * structs naturally, so a pack that changes a layout (N below 16) is refused, not
         * silently laid out differently; pack(), push and pop change nothing by themselves. */
        for (size_t i = 1; i < n; i++)
            if (t[i].kind == LAT_TK_NUMBER && strtoul(t[i].text, NULL, 0) < 16) {
                lat__unsupported_at(p->u, t[0].loc, "#pragma pack with an alignment below 16",
                                    "for pack(1), write __attribute__((packed)) after 'struct'");
                break;
            }
        return false;
    }
    size_t len;
    memset(out, 0, sizeof *out);
    out->kind = LAT_TK_PRAGMA;
    out->text = pp_spell(p, t, n, &len);
    out->len = (uint32_t)len;
    out->loc = out->spell = loc;
    out->flags = LAT_TF_BOL;
    return true;
}

bool pp_directive_is_quiet(pp *p, const pp_ctx *c)
{
    const lat__tok *d = &c->toks[c->pos + 1];
    if (d->kind == LAT_TK_EOF || (d->flags & LAT_TF_BOL))
        return true;
    static const pp_word quiet[] = {PP_W_define, PP_W_undef,   PP_W_if,     PP_W_ifdef,
                                    PP_W_ifndef, PP_W_elif,    PP_W_elifdef, PP_W_elifndef,
                                    PP_W_else,   PP_W_endif,   PP_W_line,   PP_W_error,
                                    PP_W_warning, PP_W_ident, PP_W_sccs};
    for (size_t i = 0; i < sizeof quiet / sizeof quiet[0]; i++)
        if (is_word(p, d, quiet[i]))
            return true;
    return false;
}

bool pp_directive(pp *p, pp_ctx *c, lat__tok *out)
{
    size_t at = c->pos, end = at + 1;
    while (c->toks[end].kind != LAT_TK_EOF && !(c->toks[end].flags & LAT_TF_BOL))
        end++;
    p->line.n = 0;
    for (size_t i = at; i < end; i++) {
        lat__tok t = c->toks[i];
        pp_place(c, &t);
        LAT_PUSH(&p->u->arena, p->line, t);
    }
    const lat__tok *hash_raw = &c->toks[at];
    c->pos = end;
    bool guard_start = c->guard == PP_GUARD_START && at == 0;
    if (c->guard == PP_GUARD_START)
        c->guard = PP_GUARD_NONE;
    const lat__tok *hash = &p->line.items[0];
    if (p->line.n == 1)
        return false; /* the null directive */
    const lat__tok *d = &p->line.items[1], *t = d + 1;
    size_t n = p->line.n - 2;
    if (d->kind == LAT_TK_NUMBER) {
        line_directive(p, c, hash_raw, d, d, n + 1, true);
        return false;
    }
    pp_word w = PP_W_COUNT;
    if (d->kind == LAT_TK_IDENT)
        for (int i = 0; i < PP_W_COUNT; i++)
            if (d->atom == p->w[i]) {
                w = (pp_word)i;
                break;
            }
    switch (w) {
    case PP_W_define:
        pp_define(p, d, t, n);
        return false;
    case PP_W_undef:
        pp_undef(p, t, n, d->loc);
        return false;
    case PP_W_include:
    case PP_W_include_next:
        pp_include(p, c, t, n, d, w == PP_W_include_next);
        return false;
    case PP_W_if:
    case PP_W_ifdef:
    case PP_W_ifndef:
    case PP_W_elif:
    case PP_W_elifdef:
    case PP_W_elifndef:
    case PP_W_else:
    case PP_W_endif:
        conditional(p, c, w, d, t, n, guard_start);
        return false;
    case PP_W_line:
        line_directive(p, c, hash_raw, d, t, n, false);
        return false;
    case PP_W_error:
    case PP_W_warning: {
        const char *text = pp_spell(p, t, n, NULL);
        lat__diag_at(p->u, d->loc, w == PP_W_error ? LAT_SEV_ERROR : LAT_SEV_WARNING,
                     LAT_ERROR_COMPILE, "#%s%s%s", d->atom->name, n ? " " : "", text);
        return false;
    }
    case PP_W_pragma:
        return pp_pragma(p, c, t, n, hash->loc, out);
    case PP_W_ident:
    case PP_W_sccs:
        return false; /* a version string for the object file: nothing to do here */
    default:
        lat__error_at(p->u, d->loc, "unknown directive #%.*s", (int)d->len, d->text);
        return false;
    }
}

void pp_end_file(pp *p, pp_ctx *c)
{
    while (p->conds.n > c->cond_base) {
        const pp_cond *k = &p->conds.items[--p->conds.n];
        lat__error_at(p->u, k->loc, "unterminated %s", k->what);
    }
    if (c->guard == PP_GUARD_CLOSED && c->guard_name)
        pp_file_set_guard(c, c->guard_name);
    if (c->is_include)
        p->include_depth--;
    pp_pop_to(p, c);
}
