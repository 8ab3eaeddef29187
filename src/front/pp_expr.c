/*
 * #if expressions (C11 6.10.1): integer constant expressions over intmax_t and
 * uintmax_t, with C's usual arithmetic conversions (an unsigned operand makes the other
 * unsigned, so -1 < 0u is false). The line arrives macro-expanded, `defined` and the
 * __has_ operators already replaced by numbers; identifiers left are 0, except C++'s
 * true and false (CUDA is C++). Operands that are not evaluated (the other side of &&,
 * || and ?:) are parsed and typed but cannot fail: 0 && 1 / 0 is fine.
 */
#include "pp_int.h"

#include <stdint.h>
#include <string.h>

typedef struct val {
    uintmax_t v; /* the bits; signed values as their two's complement */
    bool u;      /* unsigned */
} val;

typedef struct ev {
    pp *p;
    const lat__tok *t;
    size_t i, n;
    lat__loc end; /* where a missing operand is reported */
    bool failed;  /* one error per expression */
    int depth;    /* of unary operators and parentheses: bounds the recursion */
    bool warned_unsigned, warned_multichar; /* once per line: a macro may repeat them */
} ev;

static void fail(ev *e, const lat__tok *at, const char *fmt, const char *arg)
{
    if (e->failed)
        return;
    e->failed = true;
    lat__error_at(e->p->u, at ? at->loc : e->end, fmt, arg);
}

static const lat__tok *peek(ev *e)
{
    return e->i < e->n ? &e->t[e->i] : NULL;
}

static bool accept(ev *e, lat__punct p)
{
    const lat__tok *t = peek(e);
    if (t && lat__tok_is_punct(t, p)) {
        e->i++;
        return true;
    }
    return false;
}

static intmax_t sv(val a)
{
    return a.v > (uintmax_t)INTMAX_MAX ? -(intmax_t)(UINTMAX_MAX - a.v) - 1 : (intmax_t)a.v;
}

static val mk(uintmax_t v, bool u)
{
    return (val){v, u};
}

static const char *spelling(ev *e, const lat__tok *t)
{
    return lat__arena_strndup(&e->p->u->arena, t->text, t->len);
}

/* An integer constant (C11 6.4.4.1), with gcc's 0b binary and C23's ' separators. */
static val number(ev *e, const lat__tok *t)
{
    const char *s = t->text, *end = s + t->len;
    unsigned base = 10;
    if (t->len > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        base = 16;
        s += 2;
    } else if (t->len > 1 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
        base = 2;
        s += 2;
    } else if (s[0] == '0') {
        base = 8;
    }
    uintmax_t v = 0;
    bool overflow = false, digits = false;
    for (; s < end; s++) {
        unsigned d;
        char c = *s;
        if (c == '\'' && digits)
            continue;
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (base == 16 && c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else if (base == 16 && c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A' + 10);
        else
            break;
        if (d >= base)
            break; /* 09: reported as an invalid constant below */
        if (v > (UINTMAX_MAX - d) / base)
            overflow = true;
        v = v * base + d;
        digits = true;
    }
    /* The suffix: u, l, ll in either order and case (ll not mixed). */
    bool u = false;
    int l = 0;
    const char *suffix = s;
    for (; s < end; s++) {
        if ((*s == 'u' || *s == 'U') && !u)
            u = true;
        else if ((*s == 'l' || *s == 'L') && l == 0) {
            l = 1;
            if (s + 1 < end && s[1] == s[0]) {
                l = 2;
                s++;
            }
        } else
            break;
    }
    if (s < end || (!digits && base != 8)) {
        bool fl = memchr(t->text, '.', t->len) || (base == 10 && (memchr(suffix, 'e', (size_t)(end - suffix)) || memchr(suffix, 'E', (size_t)(end - suffix)))) ||
                  (base == 16 && (memchr(suffix, 'p', (size_t)(end - suffix)) || memchr(suffix, 'P', (size_t)(end - suffix))));
        fail(e, t, fl ? "floating constant in preprocessor expression"
                      : "invalid integer constant \"%s\" in preprocessor expression",
             spelling(e, t));
        return mk(0, false);
    }
    if (overflow) {
        fail(e, t, "integer constant \"%s\" is too large for its type", spelling(e, t));
        return mk(0, false);
    }
    /* Too big for intmax_t: a decimal constant becomes unsigned (gcc warns), an octal or
     * hexadecimal one is unsigned by C's rules. */
    if (v > (uintmax_t)INTMAX_MAX && !u) {
        if (base == 10 && !e->warned_unsigned) {
            e->warned_unsigned = true;
            lat__diag_at(e->p->u, t->loc, LAT_SEV_WARNING, LAT_OK,
                         "integer constant is so large that it is unsigned");
        }
        u = true;
    }
    (void)l;
    return mk(v, u);
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* A character constant (C11 6.4.4.4): plain ones are int with char signed, as on the
 * emulator's hosts; several characters pack into an int as gcc packs them. */
static val character(ev *e, const lat__tok *t)
{
    const char *s = t->text, *end = s + t->len;
    int width = 8; /* bits of one character */
    bool is_unsigned = false, wide = true;
    if (*s == 'L') {
        width = 32;
        s++;
    } else if (*s == 'U') {
        width = 32;
        is_unsigned = true;
        s++;
    } else if (*s == 'u' && s[1] == '8') {
        width = 8;
        is_unsigned = true;
        s += 2;
    } else if (*s == 'u') {
        width = 16;
        is_unsigned = true;
        s++;
    } else {
        wide = false;
    }
    if (end - s < 2 || *s != '\'' || end[-1] != '\'') {
        fail(e, t, "missing terminating ' character", NULL);
        return mk(0, false);
    }
    s++;
    end--;
    uintmax_t v = 0;
    int count = 0;
    uintmax_t mask = width == 32 ? 0xffffffffu : ((uintmax_t)1 << width) - 1;
    while (s < end) {
        uintmax_t c;
        if (*s != '\\') {
            c = (unsigned char)*s++;
        } else {
            s++;
            char k = s < end ? *s++ : '\\';
            switch (k) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'a': c = '\a'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'v': c = '\v'; break;
            case 'e': case 'E': c = 27; break;
            case 'x':
                c = 0;
                while (s < end && hex_value(*s) >= 0)
                    c = (c << 4) | (uintmax_t)hex_value(*s++);
                break;
            case 'u': case 'U': {
                int nd = k == 'u' ? 4 : 8;
                c = 0;
                for (int i = 0; i < nd && s < end && hex_value(*s) >= 0; i++)
                    c = (c << 4) | (uintmax_t)hex_value(*s++);
                break;
            }
            default:
                if (k >= '0' && k <= '7') {
                    c = (uintmax_t)(k - '0');
                    for (int i = 0; i < 2 && s < end && *s >= '0' && *s <= '7'; i++)
                        c = c * 8 + (uintmax_t)(*s++ - '0');
                } else {
                    c = (unsigned char)k; /* \' \" \? \\ and unknown ones */
                }
            }
        }
        c &= mask;
        v = wide ? c : ((v << 8) | c) & 0xffffffffu;
        count++;
    }
    if (count == 0) {
        fail(e, t, "empty character constant", NULL);
        return mk(0, false);
    }
    if (count > 1 && !wide && !e->warned_multichar) {
        e->warned_multichar = true;
        lat__diag_at(e->p->u, t->loc, LAT_SEV_WARNING, LAT_OK, "multi-character character constant");
    }
    if (is_unsigned)
        return mk(v, true);
    /* Signed: a char's or an int's (wchar_t's) sign bit. */
    int bits = wide ? 32 : count == 1 ? 8 : 32;
    if (v & ((uintmax_t)1 << (bits - 1)))
        v |= ~(uintmax_t)0 << bits;
    return mk(v, false);
}

static val cond(ev *e, bool live);

static val primary(ev *e, bool live)
{
    const lat__tok *t = peek(e);
    if (!t) {
        fail(e, NULL, "expected a value in the expression at its end%s", "");
        return mk(0, false);
    }
    e->i++;
    switch (t->kind) {
    case LAT_TK_NUMBER:
        return number(e, t);
    case LAT_TK_CHAR:
        return character(e, t);
    case LAT_TK_IDENT:
        /* Names left after expansion are 0; true and false are C++'s. */
        return mk(t->atom == e->p->w[PP_W_true], false);
    case LAT_TK_PUNCT:
        if (t->punct == LAT_P_LPAREN) {
            val v = cond(e, live);
            while (accept(e, LAT_P_COMMA))
                v = cond(e, live);
            if (!accept(e, LAT_P_RPAREN))
                fail(e, peek(e), "missing ')' in expression%s", "");
            return v;
        }
        break;
    default:
        break;
    }
    fail(e, t, "token \"%s\" is not valid in preprocessor expressions", spelling(e, t));
    return mk(0, false);
}

static val unary_ops(ev *e, bool live);

static val unary(ev *e, bool live)
{
    if (e->depth >= PP_MAX_EXPR_DEPTH) {
        fail(e, peek(e), "the expression is nested too deeply%s", "");
        e->i = e->n;
        return mk(0, false);
    }
    e->depth++;
    val v = unary_ops(e, live);
    e->depth--;
    return v;
}

static val unary_ops(ev *e, bool live)
{
    if (accept(e, LAT_P_PLUS))
        return unary(e, live);
    if (accept(e, LAT_P_MINUS)) {
        val v = unary(e, live);
        return mk(0 - v.v, v.u);
    }
    if (accept(e, LAT_P_TILDE)) {
        val v = unary(e, live);
        return mk(~v.v, v.u);
    }
    if (accept(e, LAT_P_BANG)) {
        val v = unary(e, live);
        return mk(v.v == 0, false);
    }
    return primary(e, live);
}

/* a << n for a shift count that may be negative or too large (gcc's reading of both). */
static val shift(val a, val n, bool left)
{
    intmax_t k = n.u ? (n.v > 64 ? 64 : (intmax_t)n.v) : sv(n);
    if (k < 0) {
        left = !left;
        k = k < -64 ? 64 : -k;
    }
    if (left)
        return mk(k >= 64 ? 0 : a.v << k, a.u);
    if (a.u)
        return mk(k >= 64 ? 0 : a.v >> k, true);
    intmax_t s = sv(a);
    if (k >= 64)
        return mk(s < 0 ? UINTMAX_MAX : 0, false);
    /* An arithmetic shift, written so that it does not rely on >> of a negative value. */
    return mk(s < 0 ? ~(~a.v >> k) : a.v >> k, false);
}

static val binop(ev *e, const lat__tok *op, val a, val b, bool live)
{
    bool u = a.u || b.u; /* the usual arithmetic conversions */
    switch (op->punct) {
    case LAT_P_STAR: return mk(a.v * b.v, u);
    case LAT_P_PLUS: return mk(a.v + b.v, u);
    case LAT_P_MINUS: return mk(a.v - b.v, u);
    case LAT_P_SLASH:
    case LAT_P_PERCENT: {
        bool div = op->punct == LAT_P_SLASH;
        if (b.v == 0) {
            if (live)
                fail(e, op, "division by zero in #if%s", "");
            return mk(0, u);
        }
        if (u)
            return mk(div ? a.v / b.v : a.v % b.v, true);
        if (sv(a) == INTMAX_MIN && sv(b) == -1) /* overflows: wraps, as gcc has it */
            return mk(div ? a.v : 0, false);
        return mk((uintmax_t)(div ? sv(a) / sv(b) : sv(a) % sv(b)), false);
    }
    case LAT_P_SHL: return shift(a, b, true);
    case LAT_P_SHR: return shift(a, b, false);
    case LAT_P_LT: return mk(u ? a.v < b.v : sv(a) < sv(b), false);
    case LAT_P_GT: return mk(u ? a.v > b.v : sv(a) > sv(b), false);
    case LAT_P_LE: return mk(u ? a.v <= b.v : sv(a) <= sv(b), false);
    case LAT_P_GE: return mk(u ? a.v >= b.v : sv(a) >= sv(b), false);
    case LAT_P_EQ: return mk(a.v == b.v, false);
    case LAT_P_NE: return mk(a.v != b.v, false);
    case LAT_P_AMP: return mk(a.v & b.v, u);
    case LAT_P_CARET: return mk(a.v ^ b.v, u);
    case LAT_P_PIPE: return mk(a.v | b.v, u);
    default: return mk(0, false);
    }
}

/* Precedence climbing over the binary operators of at least `min` precedence. */
static val binary(ev *e, int min, bool live)
{
    val a = unary(e, live);
    for (;;) {
        const lat__tok *op = peek(e);
        int prec = lat__binary_precedence(op);
        if (prec < min || prec == 0 || e->failed)
            return a;
        e->i++;
        if (op->punct == LAT_P_ANDAND || op->punct == LAT_P_OROR) {
            bool and = op->punct == LAT_P_ANDAND;
            bool decided = and ? a.v == 0 : a.v != 0;
            val b = binary(e, prec + 1, live && !decided);
            a = mk(and ? (a.v != 0 && b.v != 0) : (a.v != 0 || b.v != 0), false);
            continue;
        }
        val b = binary(e, prec + 1, live);
        a = binop(e, op, a, b, live);
    }
}

static val cond(ev *e, bool live)
{
    val c = binary(e, 1, live);
    if (!accept(e, LAT_P_QUESTION))
        return c;
    val a = cond(e, live && c.v != 0);
    while (accept(e, LAT_P_COMMA))
        a = cond(e, live && c.v != 0);
    if (!accept(e, LAT_P_COLON)) {
        fail(e, peek(e), "'?' without following ':'%s", "");
        return mk(0, false);
    }
    val b = cond(e, live && c.v == 0);
    return mk(c.v ? a.v : b.v, a.u || b.u);
}

bool pp_eval(pp *p, const lat__tok *t, size_t n, lat__loc at)
{
    ev e = {.p = p, .t = t, .n = n, .end = n ? t[n - 1].loc : at};
    if (n == 0) {
        lat__error_at(p->u, at, "#if with no expression");
        return false;
    }
    val v = cond(&e, true);
    while (!e.failed && accept(&e, LAT_P_COMMA))
        v = cond(&e, true);
    if (!e.failed && e.i < e.n) {
        const lat__tok *k = &e.t[e.i];
        if (lat__tok_is_punct(k, LAT_P_RPAREN))
            fail(&e, k, "missing '(' in expression%s", "");
        else if (k->kind == LAT_TK_PUNCT && !lat__tok_is_punct(k, LAT_P_LPAREN))
            fail(&e, k, "token \"%s\" is not valid in preprocessor expressions", spelling(&e, k));
        else
            fail(&e, k, "missing binary operator before token \"%s\"", spelling(&e, k));
    }
    return !e.failed && v.v != 0;
}
