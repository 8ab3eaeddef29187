/*
 * What the preprocessor computes itself: the built-in macros (__FILE__, __LINE__,
 * __COUNTER__, fixed __DATE__ and __TIME__...), #if's operators (`defined`, the __has_
 * family) and the _Pragma operator.
 */
#include "pp_int.h"

#include <string.h>

void pp_define_builtins(pp *p)
{
    static const struct {
        const char *name;
        pp_builtin kind;
    } builtins[] = {
        {"__FILE__", PP_B_FILE},
        {"__LINE__", PP_B_LINE},
        {"__COUNTER__", PP_B_COUNTER},
        {"__DATE__", PP_B_DATE},
        {"__TIME__", PP_B_TIME},
        {"__BASE_FILE__", PP_B_BASE_FILE},
        {"__INCLUDE_LEVEL__", PP_B_INCLUDE_LEVEL},
        {"__has_include", PP_B_HAS_INCLUDE},
        {"__has_include_next", PP_B_HAS_INCLUDE_NEXT},
        /* The emulator claims no compiler built-ins, attributes or features: code that
         * asks takes its portable path. */
        {"__has_builtin", PP_B_HAS_ZERO},
        {"__has_attribute", PP_B_HAS_ZERO},
        {"__has_cpp_attribute", PP_B_HAS_ZERO},
        {"__has_c_attribute", PP_B_HAS_ZERO},
        {"__has_declspec_attribute", PP_B_HAS_ZERO},
        {"__has_feature", PP_B_HAS_ZERO},
        {"__has_extension", PP_B_HAS_ZERO},
    };
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++) {
        lat__atom *a = lat__atom_get(&p->u->atoms, builtins[i].name, strlen(builtins[i].name));
        lat__macro *m = lat__arena_alloc(&p->u->arena, sizeof *m);
        m->name = a;
        m->builtin = (uint8_t)builtins[i].kind;
        a->macro = m;
    }
}

/* A token made by the preprocessor in place of at. */
static lat__tok made(const lat__tok *at, lat__tk kind, const char *text)
{
    lat__tok t = *at;
    t.kind = (uint8_t)kind;
    t.punct = 0;
    t.atom = NULL;
    t.text = text;
    t.len = (uint32_t)strlen(text);
    t.flags = (uint16_t)((at->flags & (LAT_TF_SPACE | LAT_TF_BOL)) | LAT_TF_MACRO);
    t.hide = NULL;
    return t;
}

static lat__tok number(pp *p, const lat__tok *at, unsigned long long v)
{
    return made(at, LAT_TK_NUMBER, lat__arena_printf(&p->u->arena, "%llu", v));
}

/* A string literal of text, with " and \ escaped. */
static const char *quoted(pp *p, const char *text)
{
    size_t n = strlen(text);
    char *s = lat__arena_alloc(&p->u->arena, 2 * n + 3), *at = s;
    *at++ = '"';
    for (size_t i = 0; i < n; i++) {
        if (text[i] == '"' || text[i] == '\\')
            *at++ = '\\';
        *at++ = text[i] == '\n' ? ' ' : text[i];
    }
    *at++ = '"';
    *at = '\0';
    return s;
}

/* Reads `( ... )` raw after a __has_ operator, appending the tokens in between to
 * scratch. False after an error (reported). */
static bool operand(pp *p, const lat__tok *op)
{
    lat__tok t;
    if (!pp_next_raw(p, &t) || !lat__tok_is_punct(&t, LAT_P_LPAREN)) {
        lat__error_at(p->u, op->loc, "missing '(' after \"%s\"", op->atom->name);
        return false;
    }
    int depth = 0;
    for (;;) {
        if (!pp_next_raw(p, &t)) {
            lat__error_at(p->u, op->loc, "missing ')' after \"%s\" operand", op->atom->name);
            return false;
        }
        if (lat__tok_is_punct(&t, LAT_P_LPAREN))
            depth++;
        else if (lat__tok_is_punct(&t, LAT_P_RPAREN) && depth-- == 0)
            return true;
        pp_scratch_push(p, &t);
    }
}

/* __has_include("f") or __has_include(<f>) in an #if. */
static int has_include(pp *p, const lat__tok *op, bool next)
{
    size_t mark = p->scratch.n;
    if (!operand(p, op)) {
        p->scratch.n = mark;
        return 0;
    }
    const lat__tok *t = p->scratch.items + mark;
    size_t n = p->scratch.n - mark;
    int r = 0;
    if (n == 1 && t[0].kind == LAT_TK_STRING && t[0].len >= 2 && t[0].text[0] == '"') {
        char *name = lat__arena_strndup(&p->u->arena, t[0].text + 1, t[0].len - 2);
        r = pp_has_include(p, name, true, next, op->loc);
    } else if (n >= 2 && lat__tok_is_punct(&t[0], LAT_P_LT) && lat__tok_is_punct(&t[n - 1], LAT_P_GT)) {
        char *name = pp_spell(p, t + 1, n - 2, NULL);
        r = pp_has_include(p, name, false, next, op->loc);
    } else {
        lat__error_at(p->u, op->loc, "operator \"%s\" requires a header name", op->atom->name);
    }
    p->scratch.n = mark;
    return r;
}

void pp_builtin_value(pp *p, const lat__macro *m, lat__tok *t)
{
    lat__tok at = *t;
    switch ((pp_builtin)m->builtin) {
    case PP_B_FILE:
        *t = made(&at, LAT_TK_STRING, quoted(p, lat__loc_file(p->u, at.loc)));
        return;
    case PP_B_BASE_FILE:
        *t = made(&at, LAT_TK_STRING, quoted(p, lat__loc_file(p->u, (lat__loc){0, 1, 1})));
        return;
    case PP_B_LINE:
        *t = number(p, &at, at.loc.line);
        return;
    case PP_B_COUNTER:
        *t = number(p, &at, p->counter++);
        return;
    case PP_B_INCLUDE_LEVEL:
        *t = number(p, &at, (unsigned long long)p->include_depth);
        return;
    /* Fixed, so that the output, and the caches keyed by it, do not change by the day. */
    case PP_B_DATE:
        *t = made(&at, LAT_TK_STRING, "\"Jan  1 2000\"");
        return;
    case PP_B_TIME:
        *t = made(&at, LAT_TK_STRING, "\"00:00:00\"");
        return;
    case PP_B_HAS_INCLUDE:
    case PP_B_HAS_INCLUDE_NEXT:
    case PP_B_HAS_ZERO:
        if (!p->in_if) {
            lat__error_at(p->u, at.loc, "\"%s\" may only be used in #if and #elif", m->name->name);
            return; /* the name stays, for the parser to trip over */
        }
        if (m->builtin == PP_B_HAS_ZERO) {
            size_t mark = p->scratch.n;
            operand(p, &at);
            p->scratch.n = mark;
            *t = number(p, &at, 0);
        } else {
            bool next = m->builtin == PP_B_HAS_INCLUDE_NEXT;
            *t = number(p, &at, (unsigned long long)has_include(p, &at, next));
        }
        return;
    case PP_B_NONE:
        break;
    }
}

void pp_defined(pp *p, lat__tok *t)
{
    lat__tok at = *t, k;
    bool paren = false, ok = pp_next_raw(p, &k);
    if (ok && lat__tok_is_punct(&k, LAT_P_LPAREN)) {
        paren = true;
        ok = pp_next_raw(p, &k);
    }
    bool is = false;
    if (!ok || k.kind != LAT_TK_IDENT) {
        lat__error_at(p->u, ok ? k.loc : at.loc, "operator \"defined\" requires an identifier");
    } else {
        is = k.atom->macro != NULL;
        if (paren && (!pp_next_raw(p, &k) || !lat__tok_is_punct(&k, LAT_P_RPAREN)))
            lat__error_at(p->u, at.loc, "missing ')' after \"defined\"");
    }
    *t = number(p, &at, is);
}

bool pp_pragma_operator(pp *p, lat__tok *t)
{
    lat__tok at = *t, open, str, close;
    if (!pp_next_raw(p, &open) || !lat__tok_is_punct(&open, LAT_P_LPAREN) ||
        !pp_next_raw(p, &str) || str.kind != LAT_TK_STRING ||
        !pp_next_raw(p, &close) || !lat__tok_is_punct(&close, LAT_P_RPAREN)) {
        lat__error_at(p->u, at.loc, "_Pragma takes a parenthesized string literal");
        return false;
    }
    /* Destringize: drop the prefix and the quotes, undo \" and \\. */
    const char *s = memchr(str.text, '"', str.len);
    size_t n = s ? str.len - (size_t)(s - str.text) : 0;
    char *body = lat__arena_alloc(&p->u->arena, n + 1);
    size_t len = 0;
    for (size_t i = 1; i + 1 < n; i++) {
        if (s[i] == '\\' && (s[i + 1] == '"' || s[i + 1] == '\\') && i + 2 < n)
            i++;
        body[len++] = s[i];
    }
    lat__toks toks = {0};
    lat__lex_text(p->u, body, len, at.loc, &toks);
    if (!pp_pragma(p, pp_file_ctx(p), toks.items, toks.n, at.loc, t))
        return false;
    t->flags = (uint16_t)((t->flags & ~(LAT_TF_SPACE | LAT_TF_BOL)) | (at.flags & (LAT_TF_SPACE | LAT_TF_BOL)));
    return true;
}

