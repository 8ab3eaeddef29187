/*
 * Mangled kernel names read back to the names a source writes (demangle.h). A reader over
 * the Itanium C++ ABI's grammar for what a kernel's name holds: a source name or a nested
 * one (N...E), template arguments (I...E) of built-in types, pointers, references, const
 * and volatile, class names (themselves templates or nested) and literals (L...E), and the
 * substitutions (S_, S0_...) that stand for what was read before. Anything else makes the
 * name unreadable: not found, never guessed.
 */
#include "demangle.h"

#include "alloc.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_STRINGS = 512, MAX_SUBS = 128, MAX_CANDIDATES = 8 };

typedef struct reader {
    const char *s;
    size_t i;
    bool bad;
    char *owned[MAX_STRINGS]; /* every string made, freed at the end */
    int nowned;
    const char *subs[MAX_SUBS]; /* the substitution candidates, in order */
    int nsubs;
} reader;

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* A letter, a digit or '_': what a name or a literal's suffix is made of. */
static bool is_word(char c)
{
    return c == '_' || is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* A new string of n characters (and its NUL) that the reader frees; NULL, with the reader
 * failed, when out of memory or of room to keep it. */
static char *owned(reader *r, size_t n)
{
    char *p = r->nowned < MAX_STRINGS ? lat__malloc(n + 1) : NULL;
    if (!p)
        return r->bad = true, NULL;
    r->owned[r->nowned++] = p;
    return p;
}

static char peek(const reader *r)
{
    return r->bad ? '\0' : r->s[r->i];
}

static char take(reader *r)
{
    char c = peek(r);
    if (c)
        r->i++;
    else
        r->bad = true;
    return c;
}

/* a, b and c as one new string (NULL once the reader failed). */
static const char *join(reader *r, const char *a, const char *b, const char *c)
{
    if (r->bad || !a || !b || !c)
        return r->bad = true, NULL;
    size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
    char *p = owned(r, la + lb + lc);
    if (!p)
        return NULL;
    memcpy(p, a, la);
    memcpy(p + la, b, lb);
    memcpy(p + la + lb, c, lc + 1);
    return p;
}

static const char *sub(reader *r, const char *t)
{
    if (!t || r->nsubs == MAX_SUBS)
        return r->bad = true, NULL;
    r->subs[r->nsubs++] = t;
    return t;
}

/* A run of digits, as written. */
static const char *digits(reader *r)
{
    size_t j = r->i;
    while (is_digit(peek(r)))
        r->i++;
    if (j == r->i || r->i - j > 40)
        return r->bad = true, NULL;
    char buf[48];
    memcpy(buf, r->s + j, r->i - j);
    buf[r->i - j] = '\0';
    return join(r, buf, "", "");
}

/* <source-name> ::= <length> <identifier> */
static const char *source_name(reader *r)
{
    const char *d = digits(r);
    if (!d)
        return NULL;
    size_t n = strtoul(d, NULL, 10);
    if (n == 0 || n > 1024 || strnlen(r->s + r->i, n) < n)
        return r->bad = true, NULL;
    char *name = owned(r, n);
    if (!name)
        return NULL;
    memcpy(name, r->s + r->i, n);
    name[n] = '\0';
    r->i += n;
    return name;
}

static const char *type(reader *r);

/* I <argument>+ E, as "<a, b>". */
static const char *template_args(reader *r)
{
    static const struct {
        char code;
        const char *suffix; /* as a literal of that type is written */
    } literals[] = {{'i', ""}, {'j', "u"}, {'l', "l"},  {'m', "ul"}, {'x', "ll"}, {'y', "ull"},
                    {'s', ""}, {'t', ""},  {'c', ""},   {'a', ""},   {'h', ""}};
    take(r); /* I */
    const char *out = "<";
    for (int n = 0; peek(r) != 'E' && !r->bad; n++) {
        const char *arg = NULL;
        if (peek(r) == 'L') {
            take(r);
            char kind = take(r);
            bool neg = peek(r) == 'n';
            if (neg)
                take(r);
            const char *v = digits(r);
            if (take(r) != 'E' || !v)
                return r->bad = true, NULL;
            if (kind == 'b')
                arg = strcmp(v, "0") ? "true" : "false";
            for (size_t k = 0; k < sizeof literals / sizeof literals[0] && !arg; k++)
                if (literals[k].code == kind)
                    arg = join(r, neg ? "-" : "", v, literals[k].suffix);
            if (!arg)
                return r->bad = true, NULL;
        } else {
            arg = type(r);
        }
        out = join(r, out, n ? ", " : "", arg);
    }
    take(r); /* E */
    return join(r, out, ">", "");
}

/* N <prefix>... E: "a::b<int>::c". */
static const char *nested(reader *r)
{
    take(r); /* N */
    const char *name = NULL;
    while (peek(r) != 'E' && !r->bad) {
        if (peek(r) == 'I' && name)
            name = join(r, name, template_args(r), "");
        else if (name)
            name = join(r, name, "::", source_name(r));
        else
            name = source_name(r);
        sub(r, name);
    }
    take(r); /* E */
    return r->bad ? NULL : name;
}

/* S_, S<seq-id>_ (base 36, plus one) or St<name> (std::). */
static const char *substitution(reader *r)
{
    take(r); /* S */
    if (peek(r) == 't') {
        take(r);
        return join(r, "std::", source_name(r), "");
    }
    size_t k = 0;
    bool first = true;
    while (peek(r) != '_' && !r->bad) {
        char c = take(r);
        int d = is_digit(c) ? c - '0' : c >= 'A' && c <= 'Z' ? c - 'A' + 10 : -1;
        if (d < 0 || k > MAX_SUBS)
            return r->bad = true, NULL;
        k = k * 36 + (size_t)d;
        first = false;
    }
    take(r); /* _ */
    k = first ? 0 : k + 1;
    if (r->bad || k >= (size_t)r->nsubs)
        return r->bad = true, NULL;
    return r->subs[k];
}

static const char *type(reader *r)
{
    static const struct {
        char code;
        const char *name;
    } builtins[] = {{'v', "void"},
                    {'b', "bool"},
                    {'c', "char"},
                    {'a', "signed char"},
                    {'h', "unsigned char"},
                    {'s', "short"},
                    {'t', "unsigned short"},
                    {'i', "int"},
                    {'j', "unsigned int"},
                    {'l', "long"},
                    {'m', "unsigned long"},
                    {'x', "long long"},
                    {'y', "unsigned long long"},
                    {'f', "float"},
                    {'d', "double"},
                    {'e', "long double"},
                    {'n', "__int128"},
                    {'o', "unsigned __int128"},
                    {'w', "wchar_t"}};
    char c = peek(r);
    for (size_t k = 0; k < sizeof builtins / sizeof builtins[0]; k++)
        if (builtins[k].code == c) {
            take(r);
            return builtins[k].name;
        }
    if (c == 'P' || c == 'K' || c == 'V' || c == 'R') {
        take(r);
        const char *inner = type(r);
        return sub(r, c == 'P'   ? join(r, inner, "*", "")
                      : c == 'R' ? join(r, inner, "&", "")
                                 : join(r, c == 'K' ? "const " : "volatile ", inner, ""));
    }
    if (c == 'S')
        return substitution(r);
    if (c == 'N')
        return sub(r, nested(r));
    if (is_digit(c)) {
        const char *name = sub(r, source_name(r));
        if (peek(r) == 'I')
            name = sub(r, join(r, name, template_args(r), ""));
        return name;
    }
    return r->bad = true, NULL;
}

/* s with each integer literal's suffix (3u, 7ull) dropped, or NULL when it has none. */
static const char *unsuffixed(reader *r, const char *s)
{
    static const char *const suffixes[] = {"ull", "ul", "ll", "u", "l"};
    size_t n = strlen(s);
    char *out = owned(r, n);
    if (!out)
        return NULL;
    size_t o = 0;
    bool changed = false;
    for (size_t i = 0; i < n;) {
        if (!is_digit(s[i]) || (i > 0 && is_word(s[i - 1]))) {
            out[o++] = s[i++];
            continue;
        }
        while (i < n && is_digit(s[i]))
            out[o++] = s[i++];
        for (size_t k = 0; k < sizeof suffixes / sizeof suffixes[0]; k++) {
            size_t l = strlen(suffixes[k]);
            char after = s[i + l < n ? i + l : n];
            if (!strncmp(s + i, suffixes[k], l) && !is_word(after)) {
                i += l;
                changed = true;
                break;
            }
        }
    }
    out[o] = '\0';
    return changed ? out : NULL;
}

/* s without the blank after each comma, or NULL when it has none. */
static const char *unspaced(reader *r, const char *s)
{
    if (!strstr(s, ", "))
        return NULL;
    size_t n = strlen(s);
    char *out = owned(r, n);
    if (!out)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n; i++)
        if (!(s[i] == ' ' && i > 0 && s[i - 1] == ','))
            out[o++] = s[i];
    out[o] = '\0';
    return out;
}

static void add(const char **list, int *n, const char *s)
{
    if (!s || *n == MAX_CANDIDATES)
        return;
    for (int i = 0; i < *n; i++)
        if (!strcmp(list[i], s))
            return;
    list[(*n)++] = s;
}

char **lat__demangle_candidates(const char *mangled)
{
    if (!mangled || strncmp(mangled, "_Z", 2) != 0)
        return NULL;
    reader *r = lat__calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->s = mangled + 2;
    const char *name;
    if (peek(r) == 'N') {
        name = nested(r);
    } else {
        name = sub(r, source_name(r));
        if (peek(r) == 'I')
            name = join(r, name, template_args(r), "");
    }
    const char *list[MAX_CANDIDATES];
    int n = 0;
    if (!r->bad && name) {
        add(list, &n, name);
        const char *lt = strchr(name, '<'), *colons = NULL;
        for (const char *p = strstr(name, "::"); p && (!lt || p < lt); p = strstr(p + 2, "::"))
            colons = p;
        if (colons)
            add(list, &n, colons + 2);
        if (lt) { /* kt<4> for kt<4u>; add<float,3> for add<float, 3> */
            for (int i = 0, m = n; i < m; i++)
                add(list, &n, unsuffixed(r, list[i]));
            for (int i = 0, m = n; i < m; i++)
                add(list, &n, unspaced(r, list[i]));
        }
    }
    char **out = NULL;
    if (!r->bad && n) {
        size_t bytes = (size_t)(n + 1) * sizeof *out;
        for (int i = 0; i < n; i++)
            bytes += strlen(list[i]) + 1;
        out = lat__malloc(bytes);
        if (out) {
            char *p = (char *)(out + n + 1);
            for (int i = 0; i < n; i++) {
                size_t l = strlen(list[i]) + 1;
                out[i] = memcpy(p, list[i], l);
                p += l;
            }
            out[n] = NULL;
        }
    }
    for (int i = 0; i < r->nowned; i++)
        free(r->owned[i]);
    free(r);
    return out;
}
