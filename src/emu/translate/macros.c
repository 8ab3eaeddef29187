/* Macro knowledge and #if evaluation for the translator: see macros.h. */
#include "macros.h"

#include "emu/prelude.h"

#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int lat__macros_set(lat__macros *m, const lat__macro *mac)
{
    size_t at;
    if (lat__map_get(&m->index, mac->name, mac->len, &at)) {
        m->items[at] = *mac;
        return 0;
    }
    if (m->count == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 32;
        lat__macro *p = realloc(m->items, cap * sizeof *p);
        if (!p)
            return -1;
        m->items = p;
        m->cap = cap;
    }
    if (lat__map_put(&m->index, mac->name, mac->len, m->count) != 0)
        return -1;
    m->items[m->count++] = *mac;
    return 0;
}

const lat__macro *lat__macros_find(const lat__macros *m, const char *name, size_t len)
{
    for (; m; m = m->base) {
        size_t at;
        if (lat__map_get(&m->index, name, len, &at))
            return &m->items[at];
    }
    return NULL;
}

void lat__macros_free(lat__macros *m)
{
    free(m->items);
    lat__map_free(&m->index);
    memset(m, 0, sizeof *m);
}

/* ---- the prelude's table -------------------------------------------------------------- */

/* Defined by TinyCC itself, with values the translator need not know. */
static const char *const tcc_defined[] = {
    "__STDC__", "__STDC_VERSION__", "__STDC_HOSTED__", "__x86_64__", "__x86_64",
    "__amd64__", "__linux__", "__linux", "__unix__", "__unix", "__TINYC__", "__LP64__",
    "__SIZEOF_POINTER__", "__SIZEOF_INT__", "__SIZEOF_LONG__", "__SIZEOF_LONG_LONG__",
    "__CHAR_BIT__", "__ELF__", "__SIZE_TYPE__", "__PTRDIFF_TYPE__", "__WCHAR_TYPE__",
    "__FILE__", "__LINE__", "__DATE__", "__TIME__", "__COUNTER__", "__BASE_FILE__",
    "__ORDER_LITTLE_ENDIAN__", "__BYTE_ORDER__",
};

/* Known to be undefined here, though other compilers define them: CUDA sources test
 * them to choose between C++ and C, or host and device code. */
static const char *const undefined[] = {
    "__cplusplus", "__GNUC__", "__GNUC_MINOR__", "__clang__", "__NVCC__", "__INTEL_COMPILER",
    "_MSC_VER", "__HIP__", "__HIPCC__", "__HIP_PLATFORM_AMD__", "__CUDA_ARCH_LIST__",
    "__OPENCL_VERSION__", "_WIN32", "_WIN64", "__APPLE__", "__CUDACC_DEBUG__",
    "__CUDACC_EWP__", "__CUDACC_RDC__", "__CUDA_NO_HALF_OPERATORS__",
};

static lat__macros prelude_macros;
static bool prelude_ok;
static pthread_once_t prelude_once = PTHREAD_ONCE_INIT;

static void build_prelude(void)
{
    const char *text = lat__emu_prelude(true);
    lat__toks toks;
    if (!text || lat__lex(text, &toks) != 0)
        return;
    bool ok = true;
    for (size_t i = 0; i < toks.count && ok; i++) {
        const lat__tok *t = &toks.items[i];
        if (!((t->flags & LAT__TOK_PP) && (t->flags & LAT__TOK_BOL)))
            continue;
        size_t end = lat__directive_end(&toks, i);
        if (i + 2 < end && lat__tok_is(&toks, &toks.items[i + 1], "define")) {
            const lat__tok *name = &toks.items[i + 2];
            lat__macro mac = {.name = text + name->off, .len = name->len, .defined = true};
            bool function_like = i + 3 < end && lat__tok_is(&toks, &toks.items[i + 3], "(") &&
                                 !(toks.items[i + 3].flags & LAT__TOK_SPACE);
            if (!function_like) {
                size_t vb = i + 3 < end ? toks.items[i + 3].off : name->off + name->len;
                const lat__tok *last = &toks.items[end - 1];
                size_t ve = i + 3 < end ? last->off + last->len : vb;
                mac.value = text + vb;
                mac.vlen = ve - vb;
            }
            ok = lat__macros_set(&prelude_macros, &mac) == 0;
        }
        i = end - 1;
    }
    lat__toks_free(&toks);
    for (size_t i = 0; i < sizeof tcc_defined / sizeof tcc_defined[0] && ok; i++) {
        lat__macro mac = {.name = tcc_defined[i], .len = strlen(tcc_defined[i]), .defined = true};
        ok = lat__macros_set(&prelude_macros, &mac) == 0;
    }
    for (size_t i = 0; i < sizeof undefined / sizeof undefined[0] && ok; i++) {
        lat__macro mac = {.name = undefined[i], .len = strlen(undefined[i])};
        ok = lat__macros_set(&prelude_macros, &mac) == 0;
    }
    prelude_ok = ok;
}

const lat__macros *lat__macros_prelude(void)
{
    pthread_once(&prelude_once, build_prelude);
    return prelude_ok ? &prelude_macros : NULL;
}

/* ---- #if evaluation ------------------------------------------------------------------- */

typedef struct val {
    long long v;
    bool known;
} val;

typedef struct ev {
    const lat__macros *m;
    const lat__toks *toks;
    size_t i, e;
    int depth; /* of macro expansion */
    bool bad;  /* a syntax the evaluator does not follow */
} ev;

static const val unknown = {0, false};

static val known(long long v)
{
    return (val){v, true};
}

static bool at(const ev *x, const char *s)
{
    return x->i < x->e && lat__tok_is(x->toks, &x->toks->items[x->i], s);
}

static val expr(ev *x);

/* What a name means in a condition: 0 when known undefined. */
static val name_value(ev *x, const char *name, size_t len);

static lat__cond defined_state(const ev *x, const char *name, size_t len)
{
    const lat__macro *mac = lat__macros_find(x->m, name, len);
    if (mac)
        return mac->uncertain ? LAT__COND_UNKNOWN : mac->defined ? LAT__COND_TRUE : LAT__COND_FALSE;
    /* Reserved names may be predefined by TinyCC in ways not listed here. */
    return len > 2 && name[0] == '_' && name[1] == '_' ? LAT__COND_UNKNOWN : LAT__COND_FALSE;
}

static val number(const char *s, size_t len)
{
    char buf[64];
    if (len >= sizeof buf)
        return unknown;
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *end;
    int base = 10;
    const char *p = buf;
    if (buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X'))
        base = 16, p += 2;
    else if (buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B'))
        base = 2, p += 2;
    else if (buf[0] == '0')
        base = 8;
    unsigned long long v = strtoull(p, &end, base);
    /* Only integer suffixes may follow. */
    for (; *end; end++)
        if (!strchr("uUlL", *end))
            return unknown;
    return known((long long)v);
}

static val primary(ev *x)
{
    if (x->i >= x->e) {
        x->bad = true;
        return unknown;
    }
    const lat__tok *t = &x->toks->items[x->i];
    const char *s = x->toks->src + t->off;
    if (at(x, "(")) {
        x->i++;
        val v = expr(x);
        if (!at(x, ")"))
            x->bad = true;
        x->i++;
        return v;
    }
    if (at(x, "!") || at(x, "~") || at(x, "-") || at(x, "+")) {
        char op = *s;
        x->i++;
        val v = primary(x);
        if (!v.known)
            return v;
        return known(op == '!' ? !v.v : op == '~' ? ~v.v : op == '-' ? -v.v : v.v);
    }
    x->i++;
    if (t->kind == LAT__TOK_NUMBER)
        return number(s, t->len);
    if (t->kind != LAT__TOK_IDENT) {
        x->bad = true;
        return unknown;
    }
    if (t->len == 7 && memcmp(s, "defined", 7) == 0) {
        bool paren = at(x, "(");
        if (paren)
            x->i++;
        if (x->i >= x->e || x->toks->items[x->i].kind != LAT__TOK_IDENT) {
            x->bad = true;
            return unknown;
        }
        const lat__tok *n = &x->toks->items[x->i++];
        if (paren) {
            if (!at(x, ")"))
                x->bad = true;
            x->i++;
        }
        lat__cond c = defined_state(x, x->toks->src + n->off, n->len);
        return c == LAT__COND_UNKNOWN ? unknown : known(c == LAT__COND_TRUE);
    }
    if (at(x, "(")) {
        /* A function-like macro's call: skip its arguments, value unknown. */
        x->i = lat__match_close(x->toks, x->i) + 1;
        return unknown;
    }
    return name_value(x, s, t->len);
}

static val name_value(ev *x, const char *name, size_t len)
{
    lat__cond c = defined_state(x, name, len);
    if (c == LAT__COND_FALSE)
        return known(0);
    const lat__macro *mac = lat__macros_find(x->m, name, len);
    if (c == LAT__COND_UNKNOWN || !mac || !mac->value || x->depth > 32)
        return unknown;
    /* Evaluate the macro's body on its own. */
    char *body = malloc(mac->vlen + 1);
    if (!body)
        return unknown;
    memcpy(body, mac->value, mac->vlen);
    body[mac->vlen] = '\0';
    val v = unknown;
    lat__toks toks;
    if (lat__lex(body, &toks) == 0) {
        ev sub = {x->m, &toks, 0, toks.count, x->depth + 1, false};
        v = expr(&sub);
        if (sub.bad || sub.i != sub.e)
            v = unknown;
        lat__toks_free(&toks);
    }
    free(body);
    return v;
}

static int precedence(const ev *x, const char **op)
{
    static const struct {
        const char *op;
        int prec;
    } ops[] = {
        {"*", 10}, {"/", 10}, {"%", 10}, {"+", 9}, {"-", 9}, {"<<", 8}, {">>", 8},
        {"<", 7},  {">", 7},  {"<=", 7}, {">=", 7}, {"==", 6}, {"!=", 6}, {"&", 5},
        {"^", 4},  {"|", 3},  {"&&", 2}, {"||", 1},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if (at(x, ops[i].op)) {
            *op = ops[i].op;
            return ops[i].prec;
        }
    }
    return 0;
}

static val apply(const char *op, val a, val b)
{
    /* && and || decide on one known side. */
    if (strcmp(op, "&&") == 0) {
        if ((a.known && !a.v) || (b.known && !b.v))
            return known(0);
        return a.known && b.known ? known(1) : unknown;
    }
    if (strcmp(op, "||") == 0) {
        if ((a.known && a.v) || (b.known && b.v))
            return known(1);
        return a.known && b.known ? known(0) : unknown;
    }
    if (!a.known || !b.known)
        return unknown;
    long long x = a.v, y = b.v;
    switch (op[0]) {
    case '*': return known((long long)((unsigned long long)x * (unsigned long long)y));
    case '/': return y == 0 || (x == LLONG_MIN && y == -1) ? unknown : known(x / y);
    case '%': return y == 0 || (x == LLONG_MIN && y == -1) ? unknown : known(x % y);
    case '+': return known((long long)((unsigned long long)x + (unsigned long long)y));
    case '-': return known((long long)((unsigned long long)x - (unsigned long long)y));
    case '<':
        if (op[1] == '<')
            return y < 0 || y > 63 ? unknown : known((long long)((unsigned long long)x << y));
        return known(op[1] == '=' ? x <= y : x < y);
    case '>':
        if (op[1] == '>')
            return y < 0 || y > 63 ? unknown : known(x >> y);
        return known(op[1] == '=' ? x >= y : x > y);
    case '=': return known(x == y);
    case '!': return known(x != y);
    case '&': return known(x & y);
    case '^': return known(x ^ y);
    case '|': return known(x | y);
    default: return unknown;
    }
}

static val binary(ev *x, int min_prec)
{
    val lhs = primary(x);
    for (;;) {
        const char *op = NULL;
        int prec = precedence(x, &op);
        if (prec == 0 || prec < min_prec)
            return lhs;
        x->i++;
        val rhs = binary(x, prec + 1);
        lhs = apply(op, lhs, rhs);
    }
}

static val expr(ev *x)
{
    val c = binary(x, 1);
    if (!at(x, "?"))
        return c;
    x->i++;
    val a = expr(x);
    if (!at(x, ":")) {
        x->bad = true;
        return unknown;
    }
    x->i++;
    val b = expr(x);
    if (c.known)
        return c.v ? a : b;
    return a.known && b.known && a.v == b.v ? a : unknown;
}

lat__cond lat__macros_eval(const lat__macros *m, const lat__toks *toks, size_t b, size_t e)
{
    ev x = {m, toks, b, e, 0, false};
    val v = expr(&x);
    if (x.bad || x.i != e || !v.known)
        return LAT__COND_UNKNOWN;
    return v.v ? LAT__COND_TRUE : LAT__COND_FALSE;
}
