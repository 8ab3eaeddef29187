/* The CUDA C lexer: see cu_lex.h. */
#include "cu_lex.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Longest first within each starting character; C++'s "::" is kept whole so that the
 * translator can reject it by name. */
static const char *const puncts[] = {
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
    "*=",  "/=",  "%=",  "+=", "-=", "&=", "^=", "|=", "##", "::",
};

static bool ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}

static bool ident_char(char c)
{
    return ident_start(c) || (c >= '0' && c <= '9');
}

typedef struct lexer {
    const char *src;
    size_t pos;
    int line;
    size_t line_start; /* offset of the first byte of the current physical line */
} lexer;

/* Skips whitespace, comments and backslash-newlines. Returns whether something was
 * skipped; sets *newline when a real (not continued) line break was crossed. */
static bool skip_space(lexer *lx, bool *newline)
{
    const char *s = lx->src;
    size_t start = lx->pos;
    for (;;) {
        char c = s[lx->pos];
        if (c == '\n') {
            lx->pos++;
            lx->line++;
            lx->line_start = lx->pos;
            *newline = true;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            lx->pos++;
        } else if (c == '\\' && (s[lx->pos + 1] == '\n' ||
                                 (s[lx->pos + 1] == '\r' && s[lx->pos + 2] == '\n'))) {
            lx->pos += s[lx->pos + 1] == '\n' ? 2 : 3;
            lx->line++;
            lx->line_start = lx->pos;
        } else if (c == '/' && s[lx->pos + 1] == '/') {
            /* A line comment ends at a newline not preceded by a backslash. */
            while (s[lx->pos] && s[lx->pos] != '\n') {
                if (s[lx->pos] == '\\' && s[lx->pos + 1] == '\n') {
                    lx->pos++;
                    lx->line++;
                    lx->line_start = lx->pos + 1;
                }
                lx->pos++;
            }
        } else if (c == '/' && s[lx->pos + 1] == '*') {
            lx->pos += 2;
            while (s[lx->pos] && !(s[lx->pos] == '*' && s[lx->pos + 1] == '/')) {
                if (s[lx->pos] == '\n') {
                    lx->line++;
                    lx->line_start = lx->pos + 1;
                }
                lx->pos++;
            }
            if (s[lx->pos])
                lx->pos += 2;
        } else {
            return lx->pos != start;
        }
    }
}

/* Scans a quoted literal starting at the opening quote; stops at the closing quote or,
 * unterminated, before the end of the line. */
static void scan_quoted(lexer *lx, char quote)
{
    const char *s = lx->src;
    lx->pos++;
    while (s[lx->pos] && s[lx->pos] != quote && s[lx->pos] != '\n') {
        if (s[lx->pos] == '\\' && s[lx->pos + 1] && s[lx->pos + 1] != '\n')
            lx->pos++;
        lx->pos++;
    }
    if (s[lx->pos] == quote)
        lx->pos++;
}

static lat__tok_kind scan_token(lexer *lx)
{
    const char *s = lx->src;
    char c = s[lx->pos];
    if (ident_start(c)) {
        size_t start = lx->pos;
        while (ident_char(s[lx->pos]))
            lx->pos++;
        /* String and character prefixes: L"", u8"", u"", U"". */
        size_t n = lx->pos - start;
        char q = s[lx->pos];
        if ((q == '"' || q == '\'') &&
            ((n == 1 && (s[start] == 'L' || s[start] == 'u' || s[start] == 'U')) ||
             (n == 2 && s[start] == 'u' && s[start + 1] == '8'))) {
            scan_quoted(lx, q);
            return q == '"' ? LAT__TOK_STRING : LAT__TOK_CHAR;
        }
        return LAT__TOK_IDENT;
    }
    if ((c >= '0' && c <= '9') || (c == '.' && s[lx->pos + 1] >= '0' && s[lx->pos + 1] <= '9')) {
        /* A preprocessing number: digits, letters, dots, and signs after an exponent. */
        lx->pos++;
        for (;;) {
            char d = s[lx->pos];
            if ((d == '+' || d == '-') && strchr("eEpP", s[lx->pos - 1]))
                lx->pos++;
            else if (ident_char(d) || d == '.')
                lx->pos++;
            else if (d == '\'' && ident_char(s[lx->pos + 1]))
                lx->pos++; /* C++14 digit separator; the translator rejects it */
            else
                break;
        }
        return LAT__TOK_NUMBER;
    }
    if (c == '"' || c == '\'') {
        scan_quoted(lx, c);
        return c == '"' ? LAT__TOK_STRING : LAT__TOK_CHAR;
    }
    for (size_t i = 0; i < sizeof puncts / sizeof puncts[0]; i++) {
        if (puncts[i][0] != c)
            continue;
        size_t n = strlen(puncts[i]);
        if (strncmp(s + lx->pos, puncts[i], n) == 0) {
            lx->pos += n;
            return LAT__TOK_PUNCT;
        }
    }
    lx->pos++;
    return LAT__TOK_PUNCT;
}

int lat__lex(const char *src, lat__toks *out)
{
    memset(out, 0, sizeof *out);
    out->src = src;
    lexer lx = {src, 0, 1, 0};
    size_t cap = 0;
    bool in_pp = false;
    bool newline = true;
    for (;;) {
        bool space = skip_space(&lx, &newline);
        if (out->count + 1 >= cap) {
            size_t ncap = cap ? cap * 2 : 256;
            lat__tok *p = realloc(out->items, ncap * sizeof *p);
            if (!p) {
                lat__toks_free(out);
                return -1;
            }
            out->items = p;
            cap = ncap;
        }
        lat__tok *t = &out->items[out->count];
        t->off = lx.pos;
        t->line = lx.line;
        t->col = (int)(lx.pos - lx.line_start) + 1;
        t->flags = (space ? LAT__TOK_SPACE : 0) | (newline ? LAT__TOK_BOL : 0);
        if (!src[lx.pos]) {
            t->kind = LAT__TOK_EOF;
            t->len = 0;
            return 0;
        }
        if (newline)
            in_pp = src[lx.pos] == '#';
        newline = false;
        if (in_pp)
            t->flags |= LAT__TOK_PP;
        /* The header name of #include <...> is one string-like token. */
        if (in_pp && src[lx.pos] == '<' && out->count >= 2 &&
            lat__tok_is(out, &out->items[out->count - 1], "include") &&
            (out->items[out->count - 2].flags & LAT__TOK_BOL)) {
            size_t e = lx.pos + 1;
            while (src[e] && src[e] != '>' && src[e] != '\n')
                e++;
            if (src[e] == '>') {
                lx.pos = e + 1;
                t->kind = LAT__TOK_STRING;
                t->len = lx.pos - t->off;
                out->count++;
                continue;
            }
        }
        t->kind = scan_token(&lx);
        t->len = lx.pos - t->off;
        out->count++;
    }
}

void lat__toks_free(lat__toks *toks)
{
    free(toks->items);
    memset(toks, 0, sizeof *toks);
}

bool lat__tok_is(const lat__toks *toks, const lat__tok *t, const char *s)
{
    /* The first byte decides most calls, before any strlen. */
    if (t->kind == LAT__TOK_EOF || toks->src[t->off] != s[0])
        return false;
    size_t n = strlen(s);
    return t->len == n && memcmp(toks->src + t->off, s, n) == 0;
}

size_t lat__directive_end(const lat__toks *toks, size_t i)
{
    i++;
    while (i < toks->count && !(toks->items[i].flags & LAT__TOK_BOL))
        i++;
    return i;
}

size_t lat__match_close(const lat__toks *toks, size_t i)
{
    bool in_pp = (toks->items[i].flags & LAT__TOK_PP) != 0;
    int depth = 0;
    for (size_t j = i; j < toks->count; j++) {
        const lat__tok *t = &toks->items[j];
        bool pp = (t->flags & LAT__TOK_PP) != 0;
        if (in_pp && j > i && (t->flags & LAT__TOK_BOL))
            break;
        if (pp != in_pp || t->kind != LAT__TOK_PUNCT || t->len != 1)
            continue;
        char c = toks->src[t->off];
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if ((c == ')' || c == ']' || c == '}') && --depth == 0)
            return j;
    }
    return toks->count;
}

bool lat__tok_is_qualifier(const lat__toks *toks, const lat__tok *t)
{
    static const char *const q[] = {"const", "volatile", "restrict", "__restrict__",
                                    "__restrict", "register", "__const"};
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++)
        if (lat__tok_is(toks, t, q[i]))
            return true;
    return false;
}

bool lat__tok_is_type_word(const lat__toks *toks, const lat__tok *t)
{
    static const char *const w[] = {"signed", "unsigned", "char", "short", "int", "long",
                                    "float", "double", "bool", "_Bool", "void", "struct",
                                    "union", "enum", "class", "__signed__"};
    if (lat__tok_is_qualifier(toks, t))
        return true;
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
        if (lat__tok_is(toks, t, w[i]))
            return true;
    return false;
}

static bool is_attribute(const lat__toks *toks, const lat__tok *t)
{
    return lat__tok_is(toks, t, "__attribute__") || lat__tok_is(toks, t, "__align__") ||
           lat__tok_is(toks, t, "__declspec") || lat__tok_is(toks, t, "alignas") ||
           lat__tok_is(toks, t, "_Alignas");
}

void lat__parse_param_decl(const lat__toks *toks, size_t b, size_t e, lat__param_decl *out)
{
    const lat__tok *tk = toks->items;
    out->name = SIZE_MAX;
    out->slot = e;
    out->array = SIZE_MAX;
    out->pointer = false;
    for (size_t i = b; i < e; i++) {
        if (lat__tok_is(toks, &tk[i], "(") && i > b && is_attribute(toks, &tk[i - 1])) {
            i = lat__match_close(toks, i);
            continue;
        }
        if (lat__tok_is(toks, &tk[i], "(")) {
            /* A parenthesised declarator, float (*f)(int) or float (*a)[4]: the name is
             * the identifier inside, or would go before the closing parenthesis. */
            out->pointer = true;
            size_t close = lat__match_close(toks, i);
            if (close > e)
                close = e;
            out->slot = close;
            for (size_t j = i + 1; j < close; j++) {
                if (tk[j].kind == LAT__TOK_IDENT && !lat__tok_is_qualifier(toks, &tk[j])) {
                    out->name = j;
                    out->slot = j;
                }
            }
            return;
        }
        if (lat__tok_is(toks, &tk[i], "[")) {
            out->pointer = true;
            out->array = i;
            out->slot = i;
            e = i;
            break;
        }
    }
    /* The name is the last identifier, when something before it names the type; in
     * "struct S" and "enum E" the identifier is a tag. */
    if (e < b + 2 || tk[e - 1].kind != LAT__TOK_IDENT || lat__tok_is_type_word(toks, &tk[e - 1]))
        return;
    bool typed = false;
    for (size_t i = b; i < e - 1; i++)
        if (!lat__tok_is_qualifier(toks, &tk[i]))
            typed = true;
    const lat__tok *tag = &tk[e - 2];
    bool tagged = lat__tok_is(toks, tag, "struct") || lat__tok_is(toks, tag, "union") ||
                  lat__tok_is(toks, tag, "enum") || lat__tok_is(toks, tag, "class");
    if (typed && !tagged) {
        out->name = e - 1;
        out->slot = e - 1;
    }
}
