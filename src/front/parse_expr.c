/* The parser's expressions: C's grammar, with each node typed as it is built, implicit
 * conversions made explicit, and integer constant expressions folded (parse.h). */
#include "parse.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static lat__expr *unary(lat__parser *p);
static lat__expr *cast_expr(lat__parser *p);
static lat__expr *postfix(lat__parser *p, lat__expr *e);
static lat__type *simple_type_kw(lat__kw kw);

lat__expr *lat__expr_new(lat__parser *p, lat__exprkind kind, lat__loc loc)
{
    lat__expr *e = lat__arena_alloc(&p->u->arena, sizeof *e);
    e->kind = (uint8_t)kind;
    e->loc = loc;
    e->type = &lat__ty_int;
    return e;
}

lat__expr *lat__error_expr(lat__parser *p, lat__loc loc)
{
    lat__expr *e = lat__expr_new(p, LAT_E_INT, loc);
    e->flags = LAT_EF_ERROR;
    e->text = "0";
    e->len = 1;
    return e;
}


static const char *tstr(lat__parser *p, const lat__type *t)
{
    return lat__type_str(p->u, t, NULL, false);
}

/* ---- constants ------------------------------------------------------------------------------ */

int64_t lat__int_wrap(const lat__type *t, uint64_t v)
{
    if (t->kind == LAT_TY_BOOL)
        return v != 0;
    uint32_t size = lat__sizeof(t);
    if (size >= 8 || size == 0)
        return (int64_t)v;
    unsigned bits = size * 8;
    uint64_t mask = (1ull << bits) - 1;
    v &= mask;
    if (!lat__is_unsigned(t) && (v >> (bits - 1)))
        v |= ~mask;
    return (int64_t)v;
}

static void set_const(lat__expr *e, int64_t v)
{
    e->flags |= LAT_EF_CONST;
    e->ival = lat__int_wrap(e->type, (uint64_t)v);
}

lat__expr *lat__int_constant(lat__parser *p, int v, lat__loc loc)
{
    lat__expr *e = lat__expr_new(p, LAT_E_INT, loc);
    e->text = lat__arena_printf(&p->u->arena, "%d", v);
    e->len = strlen(e->text);
    set_const(e, v);
    return e;
}

lat__expr *lat__zero(lat__parser *p, lat__loc loc)
{
    lat__expr *z = lat__expr_new(p, LAT_E_INT, loc);
    z->text = "0";
    z->len = 1;
    set_const(z, 0);
    return z;
}

static bool is_const(const lat__expr *e)
{
    return e && (e->flags & LAT_EF_CONST);
}

/* A floating constant's value, for folding casts of them (e.g. (int)(N * 1.5)). */
static bool float_value(const lat__expr *e, double *v)
{
    if (e->kind == LAT_E_FLOAT) {
        *v = e->fval;
        return true;
    }
    if (e->kind == LAT_E_CAST && (e->flags & LAT_EF_CONST) == 0 && lat__is_floating(e->type) && e->a) {
        if (is_const(e->a) && lat__is_integer(e->a->type)) {
            *v = lat__is_unsigned(e->a->type) ? (double)(uint64_t)e->a->ival : (double)e->a->ival;
            return true;
        }
        return float_value(e->a, v);
    }
    if (e->kind == LAT_E_BINARY && lat__is_floating(e->type)) {
        double a, b;
        if (!float_value(e->a, &a) || !float_value(e->b, &b))
            return false;
        switch (e->op) {
        case LAT_P_PLUS: *v = a + b; return true;
        case LAT_P_MINUS: *v = a - b; return true;
        case LAT_P_STAR: *v = a * b; return true;
        case LAT_P_SLASH: *v = a / b; return true;
        default: return false;
        }
    }
    if (e->kind == LAT_E_UNARY && e->op == LAT_P_MINUS && lat__is_floating(e->type)) {
        double a;
        if (!float_value(e->a, &a))
            return false;
        *v = -a;
        return true;
    }
    return false;
}

/* ---- conversions ------------------------------------------------------------------------------ */

lat__expr *lat__cast_to(lat__parser *p, lat__expr *e, lat__type *t, bool implicit)
{
    if (lat__type_same(lat__unqualified(p->u, e->type), lat__unqualified(p->u, t)) && implicit)
        return e;
    lat__expr *c = lat__expr_new(p, LAT_E_CAST, e->loc);
    c->a = e;
    c->to = t;
    c->type = lat__unqualified(p->u, t);
    c->flags = (uint16_t)(implicit ? LAT_EF_IMPLICIT : 0) | (e->flags & LAT_EF_ERROR);
    if (lat__is_integer(t)) {
        double v;
        if (is_const(e) && (lat__is_integer(e->type) || e->type->kind == LAT_TY_PTR))
            set_const(c, e->ival);
        else if (lat__is_floating(e->type) && float_value(e, &v) && v > -9.2e18 && v < 1.8e19)
            set_const(c, v < 0 ? (int64_t)v : (int64_t)(uint64_t)v);
    } else if (t->kind == LAT_TY_PTR && is_const(e) && lat__is_integer(e->type)) {
        set_const(c, e->ival); /* (void *)0 */
    }
    return c;
}

/* An array's decay; escapes: its address goes somewhere other than an index. */
static lat__expr *decay(lat__parser *p, lat__expr *e, bool escapes)
{
    if (e->type->kind == LAT_TY_ARRAY) {
        if (escapes && e->kind == LAT_E_NAME && e->sym)
            e->sym->flags |= LAT_SF_ADDRESS_TAKEN;
        lat__expr *c = lat__expr_new(p, LAT_E_CAST, e->loc);
        c->a = e;
        c->type = c->to = lat__pointer_to(p->u, e->type->base);
        c->flags = LAT_EF_IMPLICIT | (e->flags & LAT_EF_ERROR);
        return c;
    }
    if (e->type->kind == LAT_TY_FUNC) {
        lat__expr *c = lat__expr_new(p, LAT_E_CAST, e->loc);
        c->a = e;
        c->type = c->to = lat__pointer_to(p->u, e->type);
        c->flags = LAT_EF_IMPLICIT | (e->flags & LAT_EF_ERROR);
        return c;
    }
    return e;
}

lat__expr *lat__rvalue(lat__parser *p, lat__expr *e)
{
    return decay(p, e, true);
}

static bool is_null_constant(const lat__expr *e)
{
    if (!is_const(e) || e->ival != 0)
        return false;
    if (lat__is_integer(e->type))
        return true;
    return e->type->kind == LAT_TY_PTR && e->type->base->kind == LAT_TY_VOID;
}

/* C++'s copy-initialization of a class from another type: `__half h = 1.0f;`, an argument,
 * a return value, through the class's converting constructor; NULL when it has none. */
static lat__expr *convert_by_constructor(lat__parser *p, lat__expr *e, lat__type *t, const char *context)
{
    bool ambiguous;
    lat__sym *c = lat__converting_ctor(p, t->rec, e, &ambiguous, false);
    if (!c) {
        if (!lat__converting_ctor(p, t->rec, e, NULL, true))
            return NULL;
        lat__error_at(p->u, e->loc, "%s %s from %s: the constructor that takes it is explicit (write %s(...))",
                      context, tstr(p, t), tstr(p, e->type), t->rec->tag ? t->rec->tag->name : "T");
        e->flags |= LAT_EF_ERROR;
        return lat__cast_to(p, e, t, true);
    }
    if (ambiguous) {
        lat__error_at(p->u, e->loc, "%s %s from %s: two constructors of %s convert it equally well", context,
                      tstr(p, t), tstr(p, e->type), tstr(p, t));
        e->flags |= LAT_EF_ERROR;
        return lat__cast_to(p, e, t, true);
    }
    lat__expr *fn = lat__expr_new(p, LAT_E_NAME, e->loc);
    fn->sym = c;
    fn->type = c->type;
    fn->flags |= LAT_EF_CHOSEN;
    lat__expr **argv = lat__arena_alloc(&p->u->arena, sizeof *argv);
    argv[0] = e;
    return lat__make_call(p, fn, argv, 1, e->loc);
}

static lat__expr *binary(lat__parser *p, lat__punct op, lat__expr *a, lat__expr *b, lat__loc loc);

lat__expr *lat__convert_assign(lat__parser *p, lat__expr *e, lat__type *t, const char *context)
{
    if (t->kind == LAT_TY_PTR && t->ref)
        return lat__bind_reference(p, e, t, context);
    if (lat__is_record(t) && t->rec && t->rec->has_ctor && !(e->flags & LAT_EF_ERROR) &&
        !(lat__is_record(e->type) && e->type->rec == t->rec)) {
        lat__expr *c = convert_by_constructor(p, e, t, context);
        if (c)
            return c;
    }
    if (lat__is_record(t) && lat__is_record(e->type) && t->rec && e->type->rec && e->type->rec != t->rec &&
        (e->flags & LAT_EF_LVALUE) && !(e->flags & LAT_EF_ERROR) && lat__derived_from(e->type, t) &&
        !lat__copy_ctor_declared(t->rec)) {
        /* B b = d: the base subobject, which leads the derived object, copied (slicing; a
         * copy constructor of the program's would have to run: not done here) */
        lat__type *bt = lat__qualified(p->u, lat__unqualified(p->u, t), e->type->quals);
        lat__expr *d = lat__expr_new(p, LAT_E_UNARY, e->loc);
        d->op = LAT_P_STAR;
        d->a = lat__base_pointer(p, lat__address_of_object(p, e), lat__pointer_to(p->u, bt), true);
        d->type = bt;
        d->flags |= LAT_EF_LVALUE;
        e = d;
    }
    if (lat__is_record(t) && lat__is_record(e->type) && t->rec && e->type->rec && e->type->rec != t->rec &&
        !(e->flags & LAT_EF_LVALUE) && !(e->flags & LAT_EF_ERROR) && lat__empty_record(t->rec) &&
        lat__derived_from(e->type, t)) {
        /* g(std::is_integral<T>{}) to a std::true_type parameter (tag dispatch): an empty
         * base holds nothing to copy; the argument is still evaluated */
        e = binary(p, LAT_P_COMMA, e, lat__construct(p, lat__unqualified(p->u, t), NULL, 0, e->loc), e->loc);
    }
    if (lat__is_record(e->type) && !(e->flags & LAT_EF_ERROR) && !(lat__is_record(t) && t->rec == e->type->rec)) {
        lat__expr *c = lat__convert_object(p, e, t); /* operator T *() */
        if (c)
            e = c;
    }
    e = lat__rvalue(p, e);
    if (e->flags & LAT_EF_ERROR)
        return lat__cast_to(p, e, t, true);
    lat__type *from = e->type;
    bool ok;
    if (lat__is_arith(t) && lat__is_arith(from)) {
        ok = true;
    } else if (t->kind == LAT_TY_BOOL && from->kind == LAT_TY_PTR) {
        ok = true;
    } else if (t->kind == LAT_TY_PTR && from->kind == LAT_TY_PTR) {
        ok = true;
        lat__type *a = t->base, *b = from->base;
        bool void_ptr = a->kind == LAT_TY_VOID || b->kind == LAT_TY_VOID;
        if (!void_ptr && lat__derived_from(b, a) && !(b->quals & ~a->quals & (LAT_Q_CONST | LAT_Q_VOLATILE)))
            return lat__base_pointer(p, e, t, false); /* a derived class's pointer to its base */
        if (!void_ptr && !lat__type_compatible(a, b, true) && !p->in_builtin) {
            /* C warns; CUDA (C++) refuses. The two meet at an error. */
            lat__error_at(p->u, e->loc, "%s %s from %s: incompatible pointer types", context,
                          tstr(p, t), tstr(p, from));
        }
    } else if (t->kind == LAT_TY_PTR && is_null_constant(e)) {
        ok = true;
    } else if (lat__is_record(t) && lat__is_record(from)) {
        ok = t->rec == from->rec;
    } else if (t->kind == LAT_TY_VOID) {
        ok = true;
    } else {
        ok = false;
    }
    if (!ok) {
        lat__error_at(p->u, e->loc, "%s %s from %s: incompatible types", context, tstr(p, t),
                      tstr(p, from));
        e->flags |= LAT_EF_ERROR;
    }
    return lat__cast_to(p, e, t, true);
}

lat__expr *lat__condition(lat__parser *p, lat__expr *e, const char *what)
{
    e = lat__rvalue(p, e);
    if (lat__is_record(e->type) && e->type->rec && !(e->flags & LAT_EF_ERROR)) {
        /* C++'s contextual conversion to bool: the class's operator bool (explicit or
         * not), else its conversion to a number or pointer */
        lat__expr *c = lat__convert_object(p, e, &lat__ty_bool);
        if (c)
            e = lat__rvalue(p, c);
    }
    if (!lat__is_scalar(e->type) && !(e->flags & LAT_EF_ERROR)) {
        lat__error_at(p->u, e->loc, "a condition (%s) of type %s, not a number or pointer", what,
                      tstr(p, e->type));
        e->flags |= LAT_EF_ERROR;
    }
    return e;
}

/* ---- literals ------------------------------------------------------------------------------ */

static lat__expr *number(lat__parser *p, lat__tok *t)
{
    lat__expr *e = lat__expr_new(p, LAT_E_INT, t->loc);
    /* Digit separators (C++14) are dropped; the emitted spelling has none. */
    char buf[128];
    size_t n = 0;
    for (uint32_t i = 0; i < t->len && n + 1 < sizeof buf; i++)
        if (t->text[i] != '\'')
            buf[n++] = t->text[i];
    buf[n] = '\0';
    if (n + 1 >= sizeof buf) {
        lat__error_tok(p, t, "a number too long to read");
        return lat__error_expr(p, t->loc);
    }
    e->text = lat__arena_strndup(&p->u->arena, buf, n);
    e->len = (uint32_t)n;
    bool hex = n > 1 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X');
    bool bin = n > 1 && buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B');
    bool is_float = strchr(buf, '.') != NULL || (!hex && (strchr(buf, 'e') || strchr(buf, 'E'))) ||
                    (hex && (strchr(buf, 'p') || strchr(buf, 'P')));
    if (is_float) {
        e->kind = LAT_E_FLOAT;
        char *end;
        errno = 0;
        e->fval = strtod(buf, &end);
        const char *suffix = end;
        if ((suffix[0] == 'f' || suffix[0] == 'F') && !suffix[1]) {
            e->type = &lat__ty_float;
            e->fval = (float)e->fval;
        } else if ((suffix[0] == 'l' || suffix[0] == 'L') && !suffix[1]) {
            e->type = &lat__ty_ldouble;
        } else if (!suffix[0]) {
            e->type = &lat__ty_double;
        } else {
            lat__error_tok(p, t, "invalid suffix '%s' on a floating constant", suffix);
            e->type = &lat__ty_double;
        }
        return e;
    }
    uint64_t v = 0;
    bool overflow = false;
    const char *d = buf;
    int base = 10;
    if (hex) {
        base = 16;
        d += 2;
    } else if (bin) {
        base = 2;
        d += 2;
    } else if (buf[0] == '0') {
        base = 8;
    }
    const char *digits_start = d;
    for (; *d; d++) {
        int digit;
        char c = *d;
        if (c >= '0' && c <= '9')
            digit = c - '0';
        else if (c >= 'a' && c <= 'f')
            digit = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            digit = c - 'A' + 10;
        else
            break;
        if (digit >= base) {
            if (base == 16 || !(c == 'l' || c == 'L' || c == 'u' || c == 'U'))
                break;
            break;
        }
        if (v > (UINT64_MAX - (uint64_t)digit) / (uint64_t)base)
            overflow = true;
        v = v * (uint64_t)base + (uint64_t)digit;
    }
    if (d == digits_start && base != 8) {
        lat__error_tok(p, t, "invalid number '%s'", buf);
        return lat__error_expr(p, t->loc);
    }
    bool u = false;
    int l = 0;
    for (const char *s = d; *s; s++) {
        if ((*s == 'u' || *s == 'U') && !u)
            u = true;
        else if ((*s == 'l' || *s == 'L') && l < 2)
            l++;
        else {
            lat__error_tok(p, t, "invalid suffix '%s' on an integer constant", d);
            return lat__error_expr(p, t->loc);
        }
    }
    if (overflow)
        lat__error_tok(p, t, "integer constant '%s' is too large", buf);
    /* C11 6.4.4.1: the first type that can represent it. */
    lat__type *ty;
    bool dec = base == 10;
    if (!u && l == 0 && v <= INT32_MAX)
        ty = &lat__ty_int;
    else if (!dec && !u && l == 0 && v <= UINT32_MAX)
        ty = &lat__ty_uint;
    else if (u && l == 0 && v <= UINT32_MAX)
        ty = &lat__ty_uint;
    else if (!u && l <= 1 && v <= INT64_MAX)
        ty = l == 2 ? &lat__ty_llong : &lat__ty_long;
    else if (!u && l == 2 && v <= INT64_MAX)
        ty = &lat__ty_llong;
    else if (u && l <= 1)
        ty = &lat__ty_ulong;
    else if (u && l == 2)
        ty = &lat__ty_ullong;
    else if (!dec)
        ty = l == 2 ? &lat__ty_ullong : &lat__ty_ulong;
    else
        ty = l == 2 ? &lat__ty_ullong : &lat__ty_ulong; /* gcc: too large for a signed type */
    e->type = ty;
    set_const(e, (int64_t)v);
    return e;
}

/* Decodes one escape or character at *s (after a backslash when esc); returns its value
 * and advances. */
static uint32_t char_value(const char **s, const char *end)
{
    const char *c = *s;
    if (*c != '\\') {
        *s = c + 1;
        return (unsigned char)*c;
    }
    c++;
    uint32_t v;
    switch (c < end ? *c : 0) {
    case 'n': v = '\n'; c++; break;
    case 't': v = '\t'; c++; break;
    case 'r': v = '\r'; c++; break;
    case 'a': v = 7; c++; break;
    case 'b': v = 8; c++; break;
    case 'f': v = 12; c++; break;
    case 'v': v = 11; c++; break;
    case 'e': v = 27; c++; break;
    case 'x':
        c++;
        v = 0;
        while (c < end && ((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'f') || (*c >= 'A' && *c <= 'F'))) {
            v = v * 16 + (uint32_t)(*c <= '9' ? *c - '0' : (*c | 32) - 'a' + 10);
            c++;
        }
        break;
    case 'u':
    case 'U': {
        int k = *c == 'u' ? 4 : 8;
        c++;
        v = 0;
        for (int i = 0; i < k && c < end; i++, c++)
            v = v * 16 + (uint32_t)(*c <= '9' ? *c - '0' : (*c | 32) - 'a' + 10);
        break;
    }
    default:
        if (c < end && *c >= '0' && *c <= '7') {
            v = 0;
            for (int i = 0; i < 3 && c < end && *c >= '0' && *c <= '7'; i++, c++)
                v = v * 8 + (uint32_t)(*c - '0');
        } else {
            v = c < end ? (unsigned char)*c : 0;
            c++;
        }
    }
    *s = c;
    return v;
}

static lat__expr *char_constant(lat__parser *p, lat__tok *t)
{
    lat__expr *e = lat__expr_new(p, LAT_E_INT, t->loc);
    e->text = lat__arena_strndup(&p->u->arena, t->text, t->len);
    e->len = t->len;
    const char *s = t->text, *end = t->text + t->len;
    lat__type *ty = &lat__ty_int;
    bool narrow = true;
    if (*s == 'L' || *s == 'U') {
        ty = *s == 'U' ? &lat__ty_uint : &lat__ty_int;
        narrow = false;
        s++;
    } else if (*s == 'u') {
        s++;
        if (*s == '8') {
            s++;
            ty = &lat__ty_uchar;
        } else {
            ty = &lat__ty_ushort;
            narrow = false;
        }
    }
    if (end - s < 3 || end[-1] != '\'') {
        lat__error_tok(p, t, "an unterminated or empty character constant");
        return lat__error_expr(p, t->loc);
    }
    s++;
    end--;
    int64_t v = 0;
    int n = 0;
    while (s < end) {
        uint32_t c = char_value(&s, end);
        v = narrow ? (v << 8) | (c & 0xff) : c;
        n++;
    }
    if (narrow && n == 1)
        v = (signed char)v; /* plain char is signed */
    if (narrow && n == 1 && ty == &lat__ty_int)
        ty = &lat__ty_char; /* C++: 'a' is a char (sizeof 1, f(char) over f(int), auto c = 'a') */
    e->type = ty;
    set_const(e, v);
    return e;
}

static lat__expr *string_literal(lat__parser *p)
{
    lat__tok *first = lat__peek(p);
    size_t total = 0, spell = 0;
    bool wide = false;
    for (size_t k = 0; lat__peek_at(p, k)->kind == LAT_TK_STRING; k++) {
        lat__tok *t = lat__peek_at(p, k);
        spell += t->len + 1;
        if (t->text[0] == 'L' || t->text[0] == 'U' || (t->text[0] == 'u' && t->text[1] != '8'))
            wide = true;
    }
    char *text = lat__arena_alloc(&p->u->arena, spell + 1);
    size_t at = 0;
    while (lat__peek(p)->kind == LAT_TK_STRING) {
        lat__tok *t = lat__next(p);
        if (at)
            text[at++] = ' ';
        memcpy(text + at, t->text, t->len);
        at += t->len;
        const char *s = memchr(t->text, '"', t->len), *end = t->text + t->len;
        if (!s || end - s < 2 || end[-1] != '"') {
            lat__error_tok(p, t, "missing terminating '\"'");
            continue;
        }
        s++;
        end--;
        while (s < end) {
            char_value(&s, end);
            total++;
        }
    }
    text[at] = '\0';
    lat__expr *e = lat__expr_new(p, LAT_E_STRING, first->loc);
    e->text = text;
    e->len = (uint32_t)at;
    e->type = lat__array_of(p->u, wide ? &lat__ty_int : &lat__ty_char, (int64_t)total + 1);
    e->flags |= LAT_EF_LVALUE;
    return e;
}

/* ---- names --------------------------------------------------------------------------------- */

static const char why_warp_old[] =
    "the warp intrinsics without _sync, removed in CUDA 9 for Volta and later; use the _sync form";

static const char why_curand[] =
    "a part of curand_kernel.h the emulator lacks: it has the XORWOW, Philox, MRG32k3a and "
    "Sobol generators, with the uniform, normal, log-normal and Poisson distributions";
static const char why_cubemap[] = "cubemap textures and surfaces";
static const char why_mipmap[] = "mipmapped textures (level of detail and gradients)";

/* Names outside the dialect that no declaration provides: a clear reason each. */
static const char *unsupported_name(const lat__atom *a)
{
    static const struct {
        const char *name, *why;
    } names[] = {
        {"__shfl", why_warp_old},     {"__shfl_up", why_warp_old}, {"__shfl_down", why_warp_old},
        {"__shfl_xor", why_warp_old}, {"__ballot", why_warp_old},  {"__any", why_warp_old},
        {"__all", why_warp_old},      {"__uni_sync", "warp-level intrinsics"},
        {"texCubemap", why_cubemap},  {"texCubemapLayered", why_cubemap},
        {"texCubemapLod", why_cubemap}, {"texCubemapGrad", why_cubemap},
        {"surfCubemapread", why_cubemap}, {"surfCubemapwrite", why_cubemap},
        {"surfCubemapLayeredread", why_cubemap}, {"surfCubemapLayeredwrite", why_cubemap},
        {"tex1DLod", why_mipmap},     {"tex2DLod", why_mipmap},    {"tex3DLod", why_mipmap},
        {"tex1DLayeredLod", why_mipmap}, {"tex2DLayeredLod", why_mipmap},
        {"tex1DGrad", why_mipmap},    {"tex2DGrad", why_mipmap},   {"tex3DGrad", why_mipmap},
        {"tex1DLayeredGrad", why_mipmap}, {"tex2DLayeredGrad", why_mipmap},
        {"tex2Dgather", "texture gather (tex2Dgather)"},
        {"curandStateMRG32k3a_t", why_curand}, {"curandStateMRG32k3a", why_curand},
        {"curandStateSobol32_t", why_curand}, {"curandStateScrambledSobol32_t", why_curand},
        {"curandStateSobol64_t", why_curand}, {"curandStateScrambledSobol64_t", why_curand},
        {"curandStateMtgp32_t", why_curand}, {"curandStateMtgp32", why_curand},
        {"curandDirectionVectors32_t", why_curand}, {"curandDirectionVectors64_t", why_curand},
        {"curand_poisson", why_curand}, {"curand_poisson4", why_curand},
        {"curand_discrete", why_curand},
        {"curand_discrete4", why_curand}, {"curand_mtgp32_single", why_curand},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(names[i].name, a->name) == 0)
            return names[i].why;
    return NULL;
}

static lat__expr *sym_expr(lat__parser *p, lat__tok *t, lat__sym *s);
static lat__expr *functional_cast(lat__parser *p, lat__tok *t, lat__type *to);

static lat__expr *adl_call(lat__parser *p, lat__tok *t, lat__sym *s);
static size_t call_arguments(lat__parser *p, const lat__sym *callee, bool member, lat__expr ***out);

static lat__expr *type_trait(lat__parser *p, lat__tok *t);

static lat__expr *name_expr(lat__parser *p, lat__tok *t)
{
    lat__sym *s = lat__lookup(p, t->atom);
    if (!s && lat__at_punct(p, LAT_P_LPAREN) && strncmp(t->atom->name, "__is_", 5) == 0) {
        lat__expr *e = type_trait(p, t);
        if (e)
            return e;
    }
    if (lat__at_punct(p, LAT_P_LPAREN) && lat__adl_may_find(p, t->atom, s))
        return adl_call(p, t, s);
    if (!s) {
        const char *why = unsupported_name(t->atom);
        if (why) {
            char what[80];
            snprintf(what, sizeof what, "'%s'", t->atom->name);
            lat__unsupported(p, t, what, why);
        } else {
            lat__error_tok(p, t, "'%s' undeclared%s", t->atom->name,
                           lat__at_punct(p, LAT_P_LPAREN) ? " (no function or built-in of this name)" : "");
        }
        if (p->fn)
            p->fn->has_error = true;
        /* Declare it as an int where it was used, so that it is reported once. */
        lat__sym *d = lat__sym_new(p, LAT_SYM_VAR, t->atom, t->loc);
        d->type = &lat__ty_int;
        lat__bind(p, d);
        return lat__error_expr(p, t->loc);
    }
    return sym_expr(p, t, s);
}

/* An unqualified call name(...) whose name some namespace declares beyond what ordinary
 * lookup found (s, or NULL): the arguments are read first, then the call takes the
 * overloads the arguments' classes' namespaces add (C++'s argument-dependent lookup:
 * `exp(z)` of a pycuda::complex, `dot(a, b)` of a geo::vec). */
static lat__expr *adl_call(lat__parser *p, lat__tok *t, lat__sym *s)
{
    lat__expr *fn = s && !s->tmpl ? sym_expr(p, t, s) : NULL; /* before the '(': a built-in looks for it */
    lat__tok *open = lat__next(p);
    lat__expr **argv;
    int argc = (int)call_arguments(p, s && s->kind == LAT_SYM_FUNC && !s->tmpl ? s : NULL, false, &argv);
    bool refused;
    lat__sym *set = lat__adl_choose(p, t->atom, s, argv, argc, t->loc, &refused);
    if (refused)
        return lat__error_expr(p, t->loc);
    if (!set) {
        lat__error_tok(p, t, "'%s' undeclared (no function or built-in of this name)", t->atom->name);
        return lat__error_expr(p, t->loc);
    }
    if (set->tmpl)
        return lat__template_call_parsed(p, set, t->loc, argv, (size_t)argc, open->loc);
    if (set != s) {
        fn = lat__expr_new(p, LAT_E_NAME, t->loc);
        fn->sym = set;
        fn->type = set->type;
        set->flags |= LAT_SF_USED;
    }
    return lat__make_call(p, fn, argv, argc, open->loc);
}

/* Whether objects of type t are copied as their bytes (no copy constructor of the
 * program's in it, nor in its members). */
static bool trivially_copyable(const lat__type *t, int depth)
{
    while (t->kind == LAT_TY_ARRAY)
        t = t->base;
    if (!lat__is_record(t) || !t->rec)
        return t->kind != LAT_TY_VOID && t->kind != LAT_TY_FUNC && !(t->kind == LAT_TY_PTR && t->ref);
    if (depth > 64 || lat__copy_ctor_declared(t->rec))
        return false;
    for (size_t i = 0; i < t->rec->fields.n; i++)
        if (!trivially_copyable(t->rec->fields.items[i].type, depth + 1))
            return false;
    return true;
}

/* The compiler's type-trait intrinsics that <type_traits> is built on (GCC's and Clang's
 * names): __is_class(T), __is_union(T), __is_enum(T), __is_empty(T), __is_array(T),
 * __is_trivially_copyable(T), __is_base_of(B, D); a constant bool. NULL: not one. */
static lat__expr *type_trait(lat__parser *p, lat__tok *t)
{
    static const char *const names[] = {"__is_class", "__is_union", "__is_enum", "__is_empty", "__is_array",
                                        "__is_trivially_copyable", "__is_base_of"};
    size_t k = 0;
    while (k < sizeof names / sizeof names[0] && strcmp(names[k], t->atom->name) != 0)
        k++;
    if (k == sizeof names / sizeof names[0])
        return NULL;
    lat__next(p); /* ( */
    lat__type *a = lat__parse_type_name(p), *b = NULL;
    if (k == 6 && lat__expect(p, LAT_P_COMMA, "between __is_base_of's types"))
        b = lat__parse_type_name(p);
    lat__expect(p, LAT_P_RPAREN, "to close the type trait");
    if (!a || (k == 6 && !b))
        return lat__error_expr(p, t->loc);
    bool rec = lat__is_record(a) && a->rec, v = false;
    switch (k) {
    case 0: v = rec && a->rec->kind == LAT_TY_STRUCT; break;
    case 1: v = rec && a->rec->kind == LAT_TY_UNION; break;
    case 2: v = a->kind == LAT_TY_ENUM; break;
    case 3: v = rec && lat__empty_record(a->rec); break;
    case 4: v = a->kind == LAT_TY_ARRAY; break;
    case 5: v = trivially_copyable(a, 0); break;
    default: /* a class is its own base */
        v = lat__is_record(a) && lat__is_record(b) && a->rec && b->rec &&
            (a->rec == b->rec || lat__derived_from(b, a));
        break;
    }
    return lat__int_constant(p, v, t->loc);
}

/* The expression naming s, written as token t. */
static lat__expr *sym_expr(lat__parser *p, lat__tok *t, lat__sym *s)
{
    if (p->lambda) {
        lat__expr *c = lat__lambda_capture(p, s, t->loc); /* an enclosing function's variable */
        if (c)
            return c;
    }
    if (s->tmpl && s->kind == LAT_SYM_FUNC)
        return lat__template_call(p, s, t); /* f<args>(...) or f(...) */
    if (s->tmpl && s->kind == LAT_SYM_VAR) {
        s = lat__template_variable(p, s, t); /* pi<float>, is_same_v<T, U> */
        if (!s)
            return lat__error_expr(p, t->loc);
    }
    if ((s->flags & LAT_SF_MEMBER) && !p->this_sym) {
        if (!p->lambda) /* (in a lambda, lat__lambda_capture said why) */
            lat__error_tok(p, t, "'%s' is a non-static member, named where there is no object", t->atom->name);
        return lat__error_expr(p, t->loc);
    }
    if (s->flags & LAT_SF_MEMBER)
        return lat__member_name(p, s, t->loc); /* a member in a member function: this->m */
    if ((s->flags & (LAT_SF_THREAD_VARYING | LAT_SF_BLOCK_UNIFORM)) &&
        !(p->fn && (p->fn->sym->cuda & (LAT_CU_GLOBAL | LAT_CU_DEVICE)))) {
        lat__error_tok(p, t, "%s exists only in __global__ and __device__ functions", t->atom->name);
        return lat__error_expr(p, t->loc);
    }
    lat__expr *e = lat__expr_new(p, LAT_E_NAME, t->loc);
    e->sym = s;
    s->flags |= LAT_SF_USED;
    switch (s->kind) {
    case LAT_SYM_VAR:
        e->type = s->type;
        e->flags |= LAT_EF_LVALUE;
        if (s->type->kind == LAT_TY_PTR && s->type->ref)
            return lat__deref_reference(p, e);
        /* C++: a const integer initialised by a constant is a constant (array sizes,
         * case labels: `const int N = 256; __shared__ float s[N];`) */
        if ((s->type->quals & (LAT_Q_CONST | LAT_Q_VOLATILE)) == LAT_Q_CONST && lat__is_integer(s->type) &&
            s->def && s->def->init && is_const(s->def->init) && s->def->init->kind != LAT_E_INIT)
            set_const(e, s->def->init->ival);
        break;
    case LAT_SYM_FUNC:
        e->type = s->type;
        break;
    case LAT_SYM_ENUM_CONST:
        e->type = s->type;
        set_const(e, s->value);
        break;
    case LAT_SYM_BUILTIN:
        e->type = &lat__ty_void; /* typed at its call */
        if (!lat__at_punct(p, LAT_P_LPAREN)) {
            lat__error_tok(p, t, "'%s' is a built-in function: call it", t->atom->name);
            e->flags |= LAT_EF_ERROR;
        }
        break;
    case LAT_SYM_TYPEDEF:
    default:
        lat__error_tok(p, t, "'%s' is a type, not a value", t->atom->name);
        return lat__error_expr(p, t->loc);
    }
    return e;
}

/* ---- operators ------------------------------------------------------------------------------ */

static void mark_modified(lat__expr *e)
{
    while (e && (e->kind == LAT_E_CAST && (e->flags & LAT_EF_IMPLICIT)))
        e = e->a;
    if (e && e->kind == LAT_E_NAME && e->sym)
        e->sym->flags |= LAT_SF_MODIFIED;
}

/* C++: `(c ? a : b) = v`, `++(c ? i : j)`: a ?: of two lvalues of one type is the object it
 * chooses, written through a reference to it; e itself otherwise. */
static lat__expr *lvalue_conditional(lat__parser *p, lat__expr *e)
{
    if (e->kind != LAT_E_COND || !e->b || !e->c || (e->flags & (LAT_EF_LVALUE | LAT_EF_ERROR)) ||
        !(lat__is_scalar(e->type) || lat__is_record(e->type)))
        return e;
    const lat__expr *x = e->b, *y = e->c;
    while (x->kind == LAT_E_CAST && (x->flags & LAT_EF_IMPLICIT) && x->a)
        x = x->a;
    while (y->kind == LAT_E_CAST && (y->flags & LAT_EF_IMPLICIT) && y->a)
        y = y->a;
    if (!(x->flags & LAT_EF_LVALUE) || !(y->flags & LAT_EF_LVALUE) ||
        !lat__type_same(lat__unqualified(p->u, x->type), lat__unqualified(p->u, y->type)) ||
        ((x->type->quals | y->type->quals) & LAT_Q_CONST))
        return e;
    lat__type *ref = lat__reference_to(p->u, lat__unqualified(p->u, x->type));
    lat__expr *r = lat__bind_reference(p, e, ref, "choosing with ?:");
    if (r->flags & LAT_EF_ERROR)
        return r;
    r->type = ref; /* the address the ?: chooses, as the reference it is */
    return lat__deref_reference(p, r);
}

static bool check_modifiable(lat__parser *p, lat__expr *e, const char *what)
{
    if (e->flags & LAT_EF_ERROR)
        return false;
    if (!(e->flags & LAT_EF_LVALUE)) {
        lat__error_at(p->u, e->loc, "the operand of %s is not something that can be assigned", what);
        return false;
    }
    if (e->type->kind == LAT_TY_ARRAY) {
        lat__error_at(p->u, e->loc, "an array cannot be assigned (%s)", what);
        return false;
    }
    if (e->type->quals & LAT_Q_CONST) {
        lat__error_at(p->u, e->loc, "%s of a read-only %s", what,
                      e->kind == LAT_E_NAME && e->sym ? lat__arena_printf(&p->u->arena, "variable '%s'", e->sym->name->name)
                                                      : "location");
        return false;
    }
    mark_modified(e);
    return true;
}

static lat__expr *binary_node(lat__parser *p, lat__punct op, lat__expr *a, lat__expr *b, lat__type *t,
                              lat__loc loc)
{
    lat__expr *e = lat__expr_new(p, LAT_E_BINARY, loc);
    e->op = (uint8_t)op;
    e->a = a;
    e->b = b;
    e->type = t;
    e->flags |= (a->flags | b->flags) & LAT_EF_ERROR;
    return e;
}

bool lat__int_fold(lat__punct op, const lat__type *at, const lat__type *bt, const lat__type *rt, int64_t sx,
                   int64_t sy, int64_t *out)
{
    /* Comparisons and logic give int but work in the operands' common type. */
    bool uns = lat__is_unsigned(at) || (bt && lat__is_unsigned(bt) && lat__sizeof(bt) >= lat__sizeof(at));
    uint64_t x = (uint64_t)sx, y = (uint64_t)sy;
    int64_t r;
    switch (op) {
    case LAT_P_PLUS: r = (int64_t)(x + y); break;
    case LAT_P_MINUS: r = (int64_t)(x - y); break;
    case LAT_P_STAR: r = (int64_t)(x * y); break;
    case LAT_P_SLASH:
    case LAT_P_PERCENT:
        if (y == 0 || (!uns && sx == INT64_MIN && sy == -1))
            return false;
        if (op == LAT_P_SLASH)
            r = uns ? (int64_t)(x / y) : sx / sy;
        else
            r = uns ? (int64_t)(x % y) : sx % sy;
        break;
    case LAT_P_SHL:
        if (y >= 64)
            return false;
        r = (int64_t)(x << y);
        break;
    case LAT_P_SHR:
        if (y >= 64)
            return false;
        r = lat__is_unsigned(rt) ? (int64_t)(x >> y) : sx >> y;
        break;
    case LAT_P_LT: r = uns ? x < y : sx < sy; break;
    case LAT_P_GT: r = uns ? x > y : sx > sy; break;
    case LAT_P_LE: r = uns ? x <= y : sx <= sy; break;
    case LAT_P_GE: r = uns ? x >= y : sx >= sy; break;
    case LAT_P_EQ: r = x == y; break;
    case LAT_P_NE: r = x != y; break;
    case LAT_P_AMP: r = (int64_t)(x & y); break;
    case LAT_P_CARET: r = (int64_t)(x ^ y); break;
    case LAT_P_PIPE: r = (int64_t)(x | y); break;
    case LAT_P_ANDAND: r = x && y; break;
    case LAT_P_OROR: r = x || y; break;
    case LAT_P_COMMA: r = sy; break;
    default: return false;
    }
    *out = lat__int_wrap(rt, (uint64_t)r);
    return true;
}

/* Folds an integer binary operation of constants (e->type is integer). */
static void fold_binary(lat__expr *e)
{
    lat__expr *a = e->a, *b = e->b;
    int64_t r;
    if (is_const(a) && is_const(b) && lat__is_integer(e->type) &&
        lat__int_fold((lat__punct)e->op, a->type, b ? b->type : NULL, e->type, a->ival, b->ival, &r))
        set_const(e, r);
}

static lat__expr *arith_operands(lat__parser *p, lat__expr **a, lat__expr **b, lat__type **common)
{
    lat__type *t = lat__usual_arith((*a)->type, (*b)->type);
    *a = lat__cast_to(p, *a, t, true);
    *b = lat__cast_to(p, *b, t, true);
    *common = t;
    return NULL;
}

static lat__expr *binary(lat__parser *p, lat__punct op, lat__expr *a, lat__expr *b, lat__loc loc)
{
    if ((lat__is_record(a->type) || lat__is_record(b->type)) && op != LAT_P_COMMA &&
        !((a->flags | b->flags) & LAT_EF_ERROR)) {
        lat__expr *o = lat__operator_call(p, lat__punct_spelling(op), a, b, loc);
        if (o)
            return o; /* C++'s operator overloading: a call */
        if (op == LAT_P_ANDAND || op == LAT_P_OROR) {
            /* opt && x: each operand converted to bool as a condition is */
            a = lat__condition(p, a, lat__punct_spelling(op));
            b = lat__condition(p, b, lat__punct_spelling(op));
        }
    }
    a = lat__rvalue(p, a);
    b = lat__rvalue(p, b);
    lat__type *ta = a->type, *tb = b->type;
    lat__type *t = NULL;
    bool err = (a->flags | b->flags) & LAT_EF_ERROR;
    switch (op) {
    case LAT_P_STAR:
    case LAT_P_SLASH:
        if (lat__is_arith(ta) && lat__is_arith(tb)) {
            arith_operands(p, &a, &b, &t);
            break;
        }
        goto bad;
    case LAT_P_PERCENT:
    case LAT_P_AMP:
    case LAT_P_CARET:
    case LAT_P_PIPE:
        if (lat__is_integer(ta) && lat__is_integer(tb)) {
            arith_operands(p, &a, &b, &t);
            break;
        }
        goto bad;
    case LAT_P_SHL:
    case LAT_P_SHR:
        if (lat__is_integer(ta) && lat__is_integer(tb)) {
            t = lat__promote(ta);
            a = lat__cast_to(p, a, t, true);
            b = lat__cast_to(p, b, lat__promote(tb), true);
            break;
        }
        goto bad;
    case LAT_P_PLUS:
        if (lat__is_arith(ta) && lat__is_arith(tb)) {
            arith_operands(p, &a, &b, &t);
            break;
        }
        if (ta->kind == LAT_TY_PTR && lat__is_integer(tb)) {
            t = ta;
            break;
        }
        if (lat__is_integer(ta) && tb->kind == LAT_TY_PTR) {
            t = tb;
            break;
        }
        goto bad;
    case LAT_P_MINUS:
        if (lat__is_arith(ta) && lat__is_arith(tb)) {
            arith_operands(p, &a, &b, &t);
            break;
        }
        if (ta->kind == LAT_TY_PTR && lat__is_integer(tb)) {
            t = ta;
            break;
        }
        if (ta->kind == LAT_TY_PTR && tb->kind == LAT_TY_PTR) {
            if (!lat__type_compatible(ta->base, tb->base, true))
                lat__error_at(p->u, loc, "subtracting pointers to different types (%s and %s)",
                              tstr(p, ta), tstr(p, tb));
            t = &lat__ty_long;
            break;
        }
        goto bad;
    case LAT_P_LT:
    case LAT_P_GT:
    case LAT_P_LE:
    case LAT_P_GE:
    case LAT_P_EQ:
    case LAT_P_NE:
        if (lat__is_arith(ta) && lat__is_arith(tb)) {
            lat__type *c;
            arith_operands(p, &a, &b, &c);
            t = &lat__ty_int;
            break;
        }
        if ((ta->kind == LAT_TY_PTR || is_null_constant(a)) && (tb->kind == LAT_TY_PTR || is_null_constant(b))) {
            t = &lat__ty_int;
            break;
        }
        if ((ta->kind == LAT_TY_PTR && lat__is_integer(tb)) || (tb->kind == LAT_TY_PTR && lat__is_integer(ta))) {
            t = &lat__ty_int; /* C allows it with a warning */
            break;
        }
        goto bad;
    case LAT_P_ANDAND:
    case LAT_P_OROR:
        if (lat__is_scalar(ta) && lat__is_scalar(tb)) {
            t = &lat__ty_int;
            break;
        }
        goto bad;
    case LAT_P_COMMA:
        t = tb;
        break;
    default:
    bad:
        if (!err)
            lat__error_at(p->u, loc, "invalid operands to '%s' (%s and %s)", lat__punct_spelling(op),
                          tstr(p, ta), tstr(p, tb));
        t = &lat__ty_int;
        err = true;
    }
    lat__expr *e = binary_node(p, op, a, b, t, loc);
    if (err)
        e->flags |= LAT_EF_ERROR;
    else
        fold_binary(e);
    if (op == LAT_P_COMMA && !(b->flags & LAT_EF_CONST))
        e->flags &= (uint16_t)~LAT_EF_CONST;
    return e;
}

static lat__expr *binary_expr(lat__parser *p, int min_prec);

lat__expr *lat__parse_template_value(lat__parser *p)
{
    /* The first '>' or '>>' outside brackets and nested template arguments closes the
     * list (C++11: a right shift or greater-than there is written in parentheses); any
     * other operator belongs to the value (N * 2 || M, a < b ? x : y). */
    size_t stop = p->pos;
    int depth = 0, angles = 0;
    for (; stop < p->ntoks; stop++) {
        const lat__tok *t = &p->toks[stop];
        if (lat__tok_is_punct(t, LAT_P_LPAREN) || lat__tok_is_punct(t, LAT_P_LBRACKET) ||
            lat__tok_is_punct(t, LAT_P_LBRACE))
            depth++;
        else if (lat__tok_is_punct(t, LAT_P_RPAREN) || lat__tok_is_punct(t, LAT_P_RBRACKET) ||
                 lat__tok_is_punct(t, LAT_P_RBRACE)) {
            if (depth-- == 0)
                break;
        } else if (depth == 0 && lat__tok_is_punct(t, LAT_P_LT) && stop > p->pos && t[-1].kind == LAT_TK_IDENT &&
                   ((t[-1].atom->sym && t[-1].atom->sym->tmpl) || t[-1].atom->kw == LAT_KW_TEMPLATE ||
                    (stop > p->pos + 1 && lat__tok_is_punct(&t[-2], LAT_P_SCOPE) &&
                     lat__names_template(p, t[-1].atom))))
            angles++;
        else if (depth == 0 && (lat__tok_is_punct(t, LAT_P_GT) || lat__tok_is_punct(t, LAT_P_SHR))) {
            int closes = lat__tok_is_punct(t, LAT_P_SHR) ? 2 : 1;
            if (angles < closes)
                break;
            angles -= closes;
        } else if (depth == 0 && angles == 0 && (lat__tok_is_punct(t, LAT_P_COMMA) || lat__tok_is_punct(t, LAT_P_SEMI)))
            break;
    }
    const lat__tok *was = p->gt_stop;
    p->gt_stop = &p->toks[stop];
    lat__expr *e = lat__parse_cond_expr(p);
    p->gt_stop = was;
    return e;
}

static lat__expr *binary_expr(lat__parser *p, int min_prec)
{
    lat__expr *lhs = cast_expr(p);
    /* Each operator of a chain is one level more of the tree: a + b + c is (a + b) + c. */
    int chain = 0;
    for (;;) {
        lat__tok *t = lat__peek(p);
        int prec = t == p->gt_stop ? 0 : lat__binary_precedence(t);
        if (prec < min_prec || prec == 0) {
            p->nest -= chain;
            return lhs;
        }
        lat__next(p);
        lat__parse_enter(p, 0);
        chain++;
        lat__expr *rhs = binary_expr(p, prec + 1);
        lhs = binary(p, (lat__punct)t->punct, lhs, rhs, t->loc);
    }
}

static lat__expr *conditional(lat__parser *p, lat__expr *c, lat__tok *q)
{
    c = lat__condition(p, c, "?:");
    lat__expr *a = NULL;
    lat__parse_enter(p, 0);
    if (!lat__at_punct(p, LAT_P_COLON))
        a = lat__rvalue(p, lat__parse_expr(p));
    lat__parse_leave(p);
    lat__expect(p, LAT_P_COLON, "in ?:");
    lat__parse_enter(p, 0); /* a ? b : c ? d : e: one level more each */
    lat__expr *b = lat__rvalue(p, lat__parse_cond_expr(p));
    lat__parse_leave(p);
    lat__expr *e = lat__expr_new(p, LAT_E_COND, q->loc);
    lat__expr *x = a ? a : c;
    lat__type *ta = x->type, *tb = b->type;
    lat__type *t;
    if (lat__is_arith(ta) && lat__is_arith(tb)) {
        /* C++: operands of one type give that type, unpromoted (decltype(b ? c1 : c2) of
         * two chars is char); others the usual arithmetic conversions' */
        t = lat__type_same(lat__unqualified(p->u, ta), lat__unqualified(p->u, tb)) ? lat__unqualified(p->u, ta)
                                                                                 : lat__usual_arith(ta, tb);
        x = lat__cast_to(p, x, t, true);
        b = lat__cast_to(p, b, t, true);
        if (a)
            a = x;
    } else if (ta->kind == LAT_TY_VOID || tb->kind == LAT_TY_VOID) {
        t = &lat__ty_void;
    } else if (ta->kind == LAT_TY_PTR && (tb->kind == LAT_TY_PTR || is_null_constant(b))) {
        t = ta->base->kind == LAT_TY_VOID && tb->kind == LAT_TY_PTR ? tb : ta;
    } else if (tb->kind == LAT_TY_PTR && is_null_constant(x)) {
        t = tb;
    } else if (lat__is_record(ta) && lat__is_record(tb) && ta->rec == tb->rec) {
        t = lat__unqualified(p->u, ta);
    } else {
        if (!((x->flags | b->flags) & LAT_EF_ERROR))
            lat__error_at(p->u, q->loc, "the two results of ?: have incompatible types (%s and %s)",
                          tstr(p, ta), tstr(p, tb));
        t = ta;
        e->flags |= LAT_EF_ERROR;
    }
    e->a = c;
    e->b = a;
    e->c = b;
    e->type = t;
    e->flags |= (c->flags | b->flags | (a ? a->flags : 0)) & LAT_EF_ERROR;
    if (is_const(c) && is_const(b) && (!a || is_const(a)) && lat__is_integer(t))
        set_const(e, c->ival ? (a ? a->ival : c->ival) : b->ival);
    return e;
}

lat__expr *lat__parse_cond_expr(lat__parser *p)
{
    lat__expr *c = binary_expr(p, 1);
    if (!lat__at_punct(p, LAT_P_QUESTION))
        return c;
    lat__tok *q = lat__next(p);
    return conditional(p, c, q);
}

static bool is_assign_op(const lat__tok *t)
{
    if (t->kind != LAT_TK_PUNCT)
        return false;
    switch (t->punct) {
    case LAT_P_ASSIGN: case LAT_P_MUL_ASSIGN: case LAT_P_DIV_ASSIGN: case LAT_P_MOD_ASSIGN:
    case LAT_P_ADD_ASSIGN: case LAT_P_SUB_ASSIGN: case LAT_P_SHL_ASSIGN: case LAT_P_SHR_ASSIGN:
    case LAT_P_AND_ASSIGN: case LAT_P_XOR_ASSIGN: case LAT_P_OR_ASSIGN:
        return true;
    default:
        return false;
    }
}

lat__expr *lat__parse_assign_expr(lat__parser *p)
{
    lat__expr *lhs = lat__parse_cond_expr(p);
    lat__tok *t = lat__peek(p);
    if (!is_assign_op(t))
        return lhs;
    lat__next(p);
    lhs = lvalue_conditional(p, lhs);
    lat__parse_enter(p, 0); /* a = b = c: one level more each */
    lat__expr *rhs = lat__parse_assign_expr(p);
    lat__parse_leave(p);
    if (lat__is_record(lhs->type) && !((lhs->flags | rhs->flags) & LAT_EF_ERROR)) {
        /* a = b, a += b on a class: its operator when it has one; += never from + */
        lat__expr *o = lat__operator_call(p, lat__punct_spelling((lat__punct)t->punct), lhs, rhs, t->loc);
        if (o)
            return o;
        if (t->punct != LAT_P_ASSIGN) {
            lat__error_tok(p, t, "no operator%s for %s", lat__punct_spelling((lat__punct)t->punct),
                           tstr(p, lhs->type));
            return lat__error_expr(p, t->loc);
        }
    }
    lat__expr *e = lat__expr_new(p, LAT_E_ASSIGN, t->loc);
    e->op = t->punct;
    e->type = lat__unqualified(p->u, lhs->type);
    e->a = lhs;
    e->flags |= (lhs->flags | rhs->flags) & LAT_EF_ERROR;
    if (!check_modifiable(p, lhs, t->punct == LAT_P_ASSIGN ? "an assignment" : "a compound assignment")) {
        e->flags |= LAT_EF_ERROR;
        e->b = lat__rvalue(p, rhs);
        return e;
    }
    if (t->punct == LAT_P_ASSIGN) {
        e->b = lat__convert_assign(p, rhs, lhs->type, "assigning to");
        return e;
    }
    /* a op= b: checked as a op b, whose result converts back to a's type. The right operand
     * keeps its own type here; the operation's type is what C computes in. */
    lat__punct op = lat__compound_base(t->punct);
    lat__expr *probe = binary(p, op, lhs, rhs, t->loc);
    rhs = lat__rvalue(p, rhs);
    if (lat__is_arith(lhs->type) && lat__is_arith(rhs->type) && op != LAT_P_SHL && op != LAT_P_SHR) {
        lat__type *common = lat__usual_arith(lhs->type, rhs->type);
        rhs = lat__cast_to(p, rhs, common, true);
    } else if (lat__is_integer(rhs->type) && (op == LAT_P_SHL || op == LAT_P_SHR)) {
        rhs = lat__cast_to(p, rhs, lat__promote(rhs->type), true);
    }
    e->b = rhs;
    e->flags |= probe->flags & LAT_EF_ERROR;
    return e;
}

lat__expr *lat__parse_expr(lat__parser *p)
{
    lat__expr *e = lat__parse_assign_expr(p);
    while (lat__at_punct(p, LAT_P_COMMA)) {
        lat__tok *t = lat__next(p);
        lat__expr *r = lat__parse_assign_expr(p);
        e = binary(p, LAT_P_COMMA, e, r, t->loc);
        e->flags &= (uint16_t)~LAT_EF_CONST; /* not a constant expression in C */
    }
    return e;
}

int64_t lat__parse_const_int(lat__parser *p, const char *what, bool *ok)
{
    lat__expr *e = lat__parse_cond_expr(p);
    *ok = false;
    if (e->flags & LAT_EF_ERROR)
        return 0;
    if (!is_const(e) || !lat__is_integer(e->type)) {
        lat__error_at(p->u, e->loc, "%s must be an integer constant", what);
        return 0;
    }
    *ok = true;
    return e->ival;
}

/* ---- unary ------------------------------------------------------------------------------ */

static lat__expr *unary_node(lat__parser *p, lat__punct op, lat__expr *a, lat__type *t, lat__loc loc)
{
    lat__expr *e = lat__expr_new(p, LAT_E_UNARY, loc);
    e->op = (uint8_t)op;
    e->a = a;
    e->type = t;
    e->flags |= a->flags & LAT_EF_ERROR;
    return e;
}

/* &C::f (p past the '&'), f a non-static member function of class C: a pointer to
 * member (R (C::*)(A...) const), in decltype only, where function_traits takes a
 * lambda's operator() apart; NULL when the tokens are not one (&S::static_fn, &ns::x). */
static lat__expr *member_pointer(lat__parser *p)
{
    lat__tok *c = lat__peek(p), *m = lat__peek_at(p, 2);
    if (c->kind != LAT_TK_IDENT || c->atom->kw || !lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_SCOPE) ||
        m->kind != LAT_TK_IDENT)
        return NULL;
    lat__atom *name = NULL;
    size_t len = 3;
    if (m->atom->kw == LAT_KW_OPERATOR && lat__tok_is_punct(lat__peek_at(p, 3), LAT_P_LPAREN) &&
        lat__tok_is_punct(lat__peek_at(p, 4), LAT_P_RPAREN)) {
        name = lat__atom_get(&p->u->atoms, "operator()", 10);
        len = 5;
    } else if (!m->atom->kw) {
        name = m->atom;
    } else {
        return NULL;
    }
    lat__type *cls = lat__member_pointer_class(p, c);
    if (!cls || !lat__is_record(cls) || !cls->rec)
        return NULL;
    lat__sym *f = lat__find_method(cls->rec, name);
    /* (a lambda's operator() is its class's, not flagged a method) */
    if (!f || f->storage == LAT_ST_STATIC || !((f->flags & LAT_SF_METHOD) || f->rec == cls->rec) ||
        f->type->kind != LAT_TY_FUNC ||
        f->type->params.n < 1)
        return NULL;
    p->pos += len;
    if (f->overloads || f->tmpl) {
        lat__error_tok(p, m, "&%s::%s names %s: a pointer to member needs one function", lat__record_c_name(cls->rec),
                       name->name, f->tmpl ? "a member template" : "overloaded member functions");
        return lat__error_expr(p, c->loc);
    }
    if (!p->unevaluated) {
        lat__unsupported(p, c, "a pointer to member function (&C::f) outside decltype",
                         "a lattice limit: call the member on an object");
        return lat__error_expr(p, c->loc);
    }
    /* its type: the member's without its object, const as the member is */
    const lat__type *ft = f->type;
    lat__type *fn = lat__type_copy(p->u, ft);
    fn->params.n = ft->params.n - 1;
    fn->params.types = ft->params.types + 1;
    fn->params.syms = ft->params.syms ? ft->params.syms + 1 : NULL;
    fn->params.defaults = ft->params.defaults ? ft->params.defaults + 1 : NULL;
    fn->named = NULL;
    const lat__type *self = ft->params.types[0];
    fn->quals = self->kind == LAT_TY_PTR && (self->base->quals & LAT_Q_CONST) ? LAT_Q_CONST : 0;
    lat__type *t = lat__pointer_to(p->u, fn);
    t->member_of = cls;
    lat__expr *e = lat__expr_new(p, LAT_E_NAME, c->loc);
    e->sym = f;
    e->type = f->type;
    return unary_node(p, LAT_P_AMP, e, t, c->loc);
}

static lat__expr *sizeof_expr(lat__parser *p, lat__tok *kw, bool align)
{
    lat__expr *e = lat__expr_new(p, align ? LAT_E_ALIGNOF : LAT_E_SIZEOF, kw->loc);
    e->type = &lat__ty_ulong;
    lat__type *t;
    if (lat__at_punct(p, LAT_P_LPAREN)) {
        size_t save = p->pos;
        lat__next(p);
        if (lat__starts_declaration(p) && !(lat__peek(p)->kind == LAT_TK_IDENT && !lat__peek(p)->atom->kw &&
                                            lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_LPAREN) &&
                                            !lat__declarator_follows(p))) {
            t = lat__parse_type_name(p);
            lat__expect(p, LAT_P_RPAREN, "to close sizeof(");
            if (lat__at_punct(p, LAT_P_LBRACE)) {
                /* sizeof (T){...}: a compound literal */
                p->pos = save;
                lat__expr *a = unary(p);
                e->a = a;
                t = a->type;
            } else {
                e->to = t;
            }
        } else {
            p->pos = save;
            lat__expr *a = unary(p);
            e->a = a;
            t = a->type;
        }
    } else {
        lat__expr *a = unary(p);
        e->a = a;
        t = a->type;
    }
    if (!t) {
        e->flags |= LAT_EF_ERROR;
        return e;
    }
    const lat__type *elem = t;
    while (elem->kind == LAT_TY_ARRAY)
        elem = elem->base;
    if (lat__is_template_placeholder(elem)) {
        /* sizeof(T) in a signature read for deduction (X<sizeof(T)>::type): a value known
         * only in the instance, which the template's argument marks as such */
        set_const(e, 1);
        return e;
    }
    if (t->kind == LAT_TY_FUNC || (!lat__is_complete(t) && !(t->kind == LAT_TY_ARRAY && t->vla))) {
        if (!(e->a && (e->a->flags & LAT_EF_ERROR)))
            lat__error_tok(p, kw, "%s of an incomplete type (%s)", align ? "_Alignof" : "sizeof", tstr(p, t));
        e->flags |= LAT_EF_ERROR;
        return e;
    }
    if (t->kind == LAT_TY_ARRAY && t->vla)
        return e; /* evaluated at run time */
    set_const(e, align ? (int64_t)lat__alignof(t) : (int64_t)lat__sizeof(t));
    return e;
}

static lat__expr *unary_(lat__parser *p);

/* ---- new and delete ----------------------------------------------------------------------- */

/* C++'s new and delete in device code, which CUDA serves from the device heap as malloc's
 * (a null pointer when it is exhausted: device code has no exceptions): `new T` and
 * `new T[n]` of a type whose default initialisation runs no code (a scalar, a pointer, a
 * class without constructors or default member initialisers: curandState_t, which
 * PyCUDA's curand idiom allocates per thread), and `delete p` / `delete[] p` (destructors
 * with a body are refused where they are declared). An initializer, a placement or a class
 * that a constructor would initialise is refused by name. */

static lat__expr *heap_call(lat__parser *p, const char *name, lat__expr *arg, lat__loc loc)
{
    lat__sym *f = lat__lookup(p, lat__atom_get(&p->u->atoms, name, strlen(name)));
    if (!f || f->kind != LAT_SYM_FUNC) {
        lat__error_at(p->u, loc, "'%s' needs the device heap's %s, which is not declared", name, name);
        return lat__error_expr(p, loc);
    }
    lat__expr *fn = lat__expr_new(p, LAT_E_NAME, loc);
    fn->sym = f;
    fn->type = f->type;
    lat__expr **argv = lat__arena_alloc(&p->u->arena, sizeof *argv);
    argv[0] = arg;
    return lat__make_call(p, fn, argv, 1, loc);
}

/* Whether default-initialising a t runs no code. */
static bool default_init_is_trivial(const lat__type *t)
{
    while (t->kind == LAT_TY_ARRAY)
        t = t->base;
    if (!lat__is_record(t) || !t->rec)
        return true;
    const lat__record *r = t->rec;
    if ((r->has_ctor && !r->default_trivial) || r->defaults)
        return false;
    for (size_t i = 0; i < r->fields.n; i++)
        if (!default_init_is_trivial(r->fields.items[i].type))
            return false;
    return true;
}

static lat__expr *new_expr(lat__parser *p, lat__tok *kw)
{
    lat__next(p);
    if (lat__at_punct(p, LAT_P_LPAREN)) {
        lat__unsupported(p, kw, "placement 'new' ('new (p) T')", "construct into the storage by assignment");
        p->panic = true;
        return lat__error_expr(p, kw->loc);
    }
    lat__type *t = lat__parse_new_type(p);
    if (!t)
        return lat__error_expr(p, kw->loc);
    lat__expr *count = NULL;
    if (lat__accept(p, LAT_P_LBRACKET)) {
        count = lat__rvalue(p, lat__parse_expr(p));
        lat__expect(p, LAT_P_RBRACKET, "to close 'new T['");
        if (!(count->flags & LAT_EF_ERROR) && !lat__is_integer(count->type)) {
            lat__error_at(p->u, count->loc, "the length of 'new T[n]' is a %s, not an integer",
                          tstr(p, count->type));
            count->flags |= LAT_EF_ERROR;
        }
        if (lat__at_punct(p, LAT_P_LBRACKET)) {
            lat__unsupported(p, lat__peek(p), "'new T[n][m]'", "allocate n * m elements with new T[n * m]");
            p->panic = true;
            return lat__error_expr(p, kw->loc);
        }
    }
    if (lat__at_punct(p, LAT_P_LPAREN) || lat__at_punct(p, LAT_P_LBRACE)) {
        lat__unsupported(p, lat__peek(p), "'new' with an initializer ('new T(...)', 'new T{...}')",
                         "allocate with 'new T' and assign the value");
        lat__skip_group(p);
        return lat__error_expr(p, kw->loc);
    }
    if (t->kind == LAT_TY_ARRAY) {
        /* new A of `typedef float A[4]` is new float[4], of type float *. */
        lat__unsupported(p, kw, "'new' of an array type named by a typedef", "write new T[n]");
        return lat__error_expr(p, kw->loc);
    }
    if (t->kind == LAT_TY_FUNC || t->kind == LAT_TY_VOID || !lat__is_complete(t)) {
        lat__error_tok(p, kw, "'new' of %s, which is not a complete object type", tstr(p, t));
        return lat__error_expr(p, kw->loc);
    }
    if (!default_init_is_trivial(t)) {
        lat__unsupported(p, kw, "'new' of a class that a constructor or a default member initializer "
                         "initialises", "allocate with malloc and assign a constructed value");
        return lat__error_expr(p, kw->loc);
    }
    lat__expr *size = lat__expr_new(p, LAT_E_SIZEOF, kw->loc);
    size->type = &lat__ty_ulong;
    size->to = t;
    set_const(size, (int64_t)lat__sizeof(t));
    if (count)
        size = binary(p, LAT_P_STAR, size, lat__cast_to(p, count, &lat__ty_ulong, true), kw->loc);
    return lat__cast_to(p, heap_call(p, "malloc", size, kw->loc), lat__pointer_to(p->u, t), false);
}

static lat__expr *delete_expr(lat__parser *p, lat__tok *kw)
{
    lat__next(p);
    if (lat__accept(p, LAT_P_LBRACKET))
        lat__expect(p, LAT_P_RBRACKET, "in 'delete[]'");
    lat__expr *a = lat__rvalue(p, cast_expr(p));
    if (a->flags & LAT_EF_ERROR)
        return a;
    if (a->type->kind != LAT_TY_PTR || a->type->base->kind == LAT_TY_VOID ||
        a->type->base->kind == LAT_TY_FUNC) {
        lat__error_at(p->u, a->loc, "'delete' of %s, which is not a pointer to an object", tstr(p, a->type));
        return lat__error_expr(p, kw->loc);
    }
    return heap_call(p, "free", lat__cast_to(p, a, lat__pointer_to(p->u, &lat__ty_void), true), kw->loc);
}

static lat__expr *unary(lat__parser *p)
{
    lat__parse_enter(p, 0);
    lat__expr *e = unary_(p);
    lat__parse_leave(p);
    return e;
}

static lat__expr *unary_(lat__parser *p)
{
    lat__tok *t = lat__peek(p);
    if (t->kind == LAT_TK_PUNCT) {
        switch (t->punct) {
        case LAT_P_INC:
        case LAT_P_DEC: {
            lat__next(p);
            lat__expr *a = lvalue_conditional(p, unary(p));
            if (lat__is_record(a->type) && !(a->flags & LAT_EF_ERROR)) {
                /* ++it: the class's operator++() */
                lat__expr *o = lat__operator_call(p, lat__punct_spelling((lat__punct)t->punct), a, NULL, t->loc);
                if (o)
                    return o;
            }
            check_modifiable(p, a, t->punct == LAT_P_INC ? "++" : "--");
            if (!lat__is_scalar(a->type) && !(a->flags & LAT_EF_ERROR))
                lat__error_at(p->u, t->loc, "%s of %s", t->punct == LAT_P_INC ? "++" : "--", tstr(p, a->type));
            return unary_node(p, (lat__punct)t->punct, a, lat__unqualified(p->u, a->type), t->loc);
        }
        case LAT_P_AMP: {
            lat__next(p);
            lat__expr *m = member_pointer(p);
            if (m)
                return m;
            lat__expr *a = cast_expr(p);
            if (a->flags & LAT_EF_ERROR)
                return unary_node(p, LAT_P_AMP, a, lat__pointer_to(p->u, a->type), t->loc);
            if (a->kind == LAT_E_NAME && a->sym && a->sym->kind == LAT_SYM_FUNC) {
                /* a pointer to a function: the emulator's lowering follows it */
            } else if (!(a->flags & LAT_EF_LVALUE)) {
                lat__error_tok(p, t, "'&' of something that is not an lvalue");
            }
            if (a->kind == LAT_E_NAME && a->sym) {
                a->sym->flags |= LAT_SF_ADDRESS_TAKEN;
                a->flags &= (uint16_t)~LAT_EF_CONST; /* the object, not its value */
            }
            lat__expr *e = unary_node(p, LAT_P_AMP, a, lat__pointer_to(p->u, a->type), t->loc);
            return e;
        }
        case LAT_P_STAR: {
            lat__next(p);
            lat__expr *a = lat__rvalue(p, cast_expr(p));
            if (lat__is_record(a->type) && !(a->flags & LAT_EF_ERROR)) {
                lat__expr *o = lat__operator_call(p, "*", a, NULL, t->loc); /* *it, *opt: its operator* */
                if (o)
                    return o;
            }
            if (a->type->kind != LAT_TY_PTR) {
                if (!(a->flags & LAT_EF_ERROR))
                    lat__error_tok(p, t, "'*' of %s, not a pointer", tstr(p, a->type));
                lat__expr *e = unary_node(p, LAT_P_STAR, a, &lat__ty_int, t->loc);
                e->flags |= LAT_EF_ERROR | LAT_EF_LVALUE;
                return e;
            }
            lat__expr *e = unary_node(p, LAT_P_STAR, a, a->type->base, t->loc);
            if (a->type->base->kind != LAT_TY_FUNC)
                e->flags |= LAT_EF_LVALUE;
            if (a->type->base->kind == LAT_TY_VOID && !(a->flags & LAT_EF_ERROR))
                lat__error_tok(p, t, "'*' of a void pointer");
            return e;
        }
        case LAT_P_PLUS:
        case LAT_P_MINUS:
        case LAT_P_TILDE:
        case LAT_P_BANG: {
            lat__next(p);
            lat__expr *a = cast_expr(p);
            if (lat__is_record(a->type) && !(a->flags & LAT_EF_ERROR)) {
                lat__expr *o = lat__operator_call(p, lat__punct_spelling((lat__punct)t->punct), a, NULL, t->loc);
                if (o)
                    return o;
                if (t->punct == LAT_P_BANG)
                    a = lat__condition(p, a, "!"); /* !opt: its operator bool */
            }
            a = lat__rvalue(p, a);
            lat__type *ty;
            bool ok;
            if (t->punct == LAT_P_BANG) {
                ok = lat__is_scalar(a->type);
                ty = &lat__ty_int;
            } else if (t->punct == LAT_P_TILDE) {
                ok = lat__is_integer(a->type);
                ty = lat__promote(a->type);
            } else {
                ok = lat__is_arith(a->type);
                ty = lat__promote(a->type);
            }
            if (!ok && !(a->flags & LAT_EF_ERROR))
                lat__error_tok(p, t, "invalid operand to unary '%s' (%s)", lat__punct_spelling((lat__punct)t->punct),
                               tstr(p, a->type));
            if (ok && t->punct != LAT_P_BANG)
                a = lat__cast_to(p, a, ty, true);
            lat__expr *e = unary_node(p, (lat__punct)t->punct, a, ty, t->loc);
            if (!ok)
                e->flags |= LAT_EF_ERROR;
            else if (is_const(a) && lat__is_integer(ty))
                set_const(e, t->punct == LAT_P_MINUS ? (int64_t)(0 - (uint64_t)a->ival)
                             : t->punct == LAT_P_TILDE ? ~a->ival
                             : t->punct == LAT_P_BANG ? !a->ival : a->ival);
            else if (is_const(a) && t->punct == LAT_P_BANG)
                set_const(e, !a->ival);
            return e;
        }
        case LAT_P_ANDAND:
            lat__unsupported(p, t, "'&&label' (labels as values)", "computed goto");
            lat__next(p);
            lat__next(p);
            return lat__error_expr(p, t->loc);
        default:
            break;
        }
    }
    if (t->kind == LAT_TK_IDENT) {
        switch (t->atom->kw) {
        case LAT_KW_SIZEOF:
            lat__next(p);
            if (lat__at_punct(p, LAT_P_ELLIPSIS)) {
                lat__unsupported(p, t, "'sizeof...'", lat__why_cxx);
                lat__next(p);
                if (lat__at_punct(p, LAT_P_LPAREN))
                    lat__skip_group(p);
                return lat__error_expr(p, t->loc);
            }
            return sizeof_expr(p, t, false);
        case LAT_KW_ALIGNOF:
        case LAT_KW_ALIGNOF_:
        case LAT_KW_ALIGNOF2:
        case LAT_KW_ALIGNOF3:
            lat__next(p);
            return sizeof_expr(p, t, true);
        case LAT_KW_EXTENSION:
            lat__next(p);
            return cast_expr(p);
        case LAT_KW_NEW:
            return new_expr(p, t);
        case LAT_KW_DELETE:
            return delete_expr(p, t);
        case LAT_KW_THROW: {
            char what[32];
            snprintf(what, sizeof what, "'%s'", t->atom->name);
            lat__unsupported(p, t, what, lat__why_cxx);
            lat__next(p);
            p->panic = true;
            return lat__error_expr(p, t->loc);
        }
        default:
            break;
        }
    }
    lat__expr *e = NULL;
    return postfix(p, e);
}

/* (T)x, (T){...}, ({...}) or (expr). */
/* (t)a, C's cast, which C++'s static_cast and reinterpret_cast narrow. */
/* Whether a cast from a pointer to `from` to one to `to` moves between a class and its
 * base, as C++'s static_cast (and a C-style cast) does: not reinterpret_cast. */
static bool class_cast(const lat__type *from, const lat__type *to, const lat__tok *at)
{
    return !lat__tok_kw(at, LAT_KW_REINTERPRET_CAST) &&
           (lat__derived_from(from, to) || lat__derived_from(to, from));
}

static lat__expr *explicit_cast(lat__parser *p, lat__expr *a, lat__type *t, lat__tok *at)
{
    if (a->flags & LAT_EF_ERROR)
        return lat__cast_to(p, a, t, false);
    if (t->kind == LAT_TY_PTR && !t->ref && a->type->kind == LAT_TY_PTR && class_cast(a->type->base, t->base, at))
        return lat__base_pointer(p, lat__rvalue(p, a), t, false); /* (B *)pd, static_cast<D *>(pb) */
    if (t->kind == LAT_TY_PTR && t->ref && (a->flags & LAT_EF_LVALUE) && a->type->kind != LAT_TY_FUNC) {
        /* (float4 &)x: x's storage seen as a float4, as reinterpret_cast<float4 &>(x); a
         * class's object as its base's, or back, moved to the subobject */
        lat__expr *c = class_cast(a->type, t->base, at)
                           ? lat__base_pointer(p, lat__address_of_object(p, a), lat__pointer_to(p->u, t->base), true)
                           : lat__cast_to(p, lat__address_of_object(p, a), lat__pointer_to(p->u, t->base), false);
        c->type = lat__reference_to(p->u, t->base);
        return lat__deref_reference(p, c);
    }
    if (lat__is_record(t) && t->rec && t->rec->has_ctor && !(lat__is_record(a->type) && a->type->rec == t->rec)) {
        /* (half)x, static_cast<half>(x): C++ makes T(x), through any constructor */
        lat__expr **argv = lat__arena_alloc(&p->u->arena, sizeof *argv);
        argv[0] = a;
        return lat__construct(p, t, argv, 1, a->loc);
    }
    if (lat__is_record(a->type) && !(lat__is_record(t) && t->rec == a->type->rec)) {
        lat__expr *c = lat__convert_object(p, a, t); /* operator T *() */
        if (c)
            a = c;
    }
    bool ok = (t->kind == LAT_TY_VOID) || (lat__is_scalar(t) && lat__is_scalar(a->type)) ||
              (lat__is_record(t) && lat__is_record(a->type) && t->rec == a->type->rec);
    if (lat__is_floating(t) && a->type->kind == LAT_TY_PTR)
        ok = false;
    if (lat__is_floating(a->type) && t->kind == LAT_TY_PTR)
        ok = false;
    if (!ok) {
        lat__error_tok(p, at, "cannot cast %s to %s", tstr(p, a->type), tstr(p, t));
        lat__expr *c = lat__cast_to(p, a, t, false);
        c->flags |= LAT_EF_ERROR;
        return c;
    }
    return lat__cast_to(p, a, t, false);
}

static lat__expr *paren_or_cast(lat__parser *p)
{
    lat__tok *open = lat__peek(p);
    lat__next(p);
    if (lat__at_punct(p, LAT_P_LBRACE)) {
        lat__expr *e = lat__expr_new(p, LAT_E_STMT, open->loc);
        e->stmt = lat__parse_compound(p);
        lat__expect(p, LAT_P_RPAREN, "to close ({ ... })");
        e->type = &lat__ty_void;
        lat__stmt *b = e->stmt;
        if (b->items.n && b->items.items[b->items.n - 1]->kind == LAT_S_EXPR)
            e->type = lat__rvalue(p, b->items.items[b->items.n - 1]->e)->type;
        return e;
    }
    bool type_follows = lat__starts_declaration(p);
    if (type_follows && lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_LPAREN) &&
        (lat__peek(p)->kind == LAT_TK_IDENT && (!lat__peek(p)->atom->kw || simple_type_kw((lat__kw)lat__peek(p)->atom->kw)))) {
        /* (T(x) + 1) is an expression with a functional cast; (T(*)[4])x and (T())x are
         * casts to a type whose declarator starts with a parenthesis. */
        lat__tok *t2 = lat__peek_at(p, 2);
        bool abstract = lat__tok_is_punct(t2, LAT_P_STAR) || lat__tok_is_punct(t2, LAT_P_AMP) ||
                        lat__tok_is_punct(t2, LAT_P_RPAREN) || lat__tok_is_punct(t2, LAT_P_LBRACKET) ||
                        lat__tok_is_punct(t2, LAT_P_CARET) ||
                        (t2->kind == LAT_TK_IDENT && t2->atom->kw && simple_type_kw((lat__kw)t2->atom->kw));
        if (!abstract)
            type_follows = false;
    }
    if (type_follows && lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_LBRACE) && lat__peek(p)->kind == LAT_TK_IDENT &&
        (!lat__peek(p)->atom->kw || simple_type_kw((lat__kw)lat__peek(p)->atom->kw)))
        type_follows = false; /* (T{1} << n): a value made by a braced list */
    if (type_follows) {
        lat__type *t = lat__parse_type_name(p);
        lat__expect(p, LAT_P_RPAREN, "to close the cast");
        if (!t)
            return lat__error_expr(p, open->loc);
        if (lat__at_punct(p, LAT_P_LBRACE)) {
            lat__expr *e = lat__expr_new(p, LAT_E_COMPOUND, open->loc);
            lat__type *it = t;
            e->a = lat__parse_initializer(p, &it);
            e->to = it;
            e->type = it;
            e->flags |= LAT_EF_LVALUE;
            return postfix(p, e);
        }
        return explicit_cast(p, lat__rvalue(p, cast_expr(p)), t, open);
    }
    lat__expr *e = lat__parse_expr(p);
    lat__expect(p, LAT_P_RPAREN, "to close the parenthesis");
    e->flags |= LAT_EF_PAREN;
    return postfix(p, e);
}

static lat__expr *cast_expr_(lat__parser *p);

static lat__expr *cast_expr(lat__parser *p)
{
    lat__parse_enter(p, 0);
    lat__expr *e = cast_expr_(p);
    lat__parse_leave(p);
    return e;
}

static lat__expr *cast_expr_(lat__parser *p)
{
    if (lat__at_punct(p, LAT_P_LPAREN))
        return paren_or_cast(p);
    return unary_(p); /* counted as this level */
}

size_t lat__parse_arguments(lat__parser *p, lat__punct close, const char *context, lat__expr ***out)
{
    LAT_VEC(lat__expr *) args = {0};
    while (!lat__at_eof(p) && !lat__at_punct(p, close)) {
        LAT_PUSH(&p->u->arena, args, lat__parse_assign_expr(p));
        if (!lat__accept(p, LAT_P_COMMA))
            break;
    }
    lat__expect(p, close, context);
    *out = args.items;
    return args.n;
}

lat__expr *lat__parse_construction(lat__parser *p, lat__type *to, lat__loc loc)
{
    bool brace = lat__tok_is_punct(lat__next(p), LAT_P_LBRACE);
    lat__expr **args;
    size_t n = lat__parse_arguments(p, brace ? LAT_P_RBRACE : LAT_P_RPAREN,
                                    brace ? "to close T{...}" : "to close T(...)", &args);
    return lat__construct(p, to, args, (int)n, loc);
}

/* T(x): C++'s functional cast, for a one-word type or a typedef name. */
static lat__expr *functional_cast(lat__parser *p, lat__tok *t, lat__type *to)
{
    if (lat__is_record(to) || lat__at_punct(p, LAT_P_LBRACE))
        return lat__parse_construction(p, to, t->loc); /* T(a, b), T{a, b}: a constructor's */
    lat__next(p); /* ( */
    if (lat__at_punct(p, LAT_P_RPAREN)) {
        lat__next(p);
        /* T(): a value-initialised T, zero */
        lat__expr *z = lat__zero(p, t->loc);
        if (!lat__is_scalar(to)) {
            lat__unsupported(p, t, "a value-initialised aggregate T()", lat__why_cxx);
            return lat__error_expr(p, t->loc);
        }
        lat__expr *c = lat__cast_to(p, z, to, false);
        c->flags |= LAT_EF_FUNCTIONAL;
        return c;
    }
    lat__expr *a = lat__rvalue(p, lat__parse_assign_expr(p));
    if (lat__at_punct(p, LAT_P_COMMA)) {
        lat__unsupported(p, t, "a constructor call T(a, b)", lat__why_cxx);
        while (lat__accept(p, LAT_P_COMMA))
            lat__parse_assign_expr(p);
        lat__expect(p, LAT_P_RPAREN, "to close T(...)");
        return lat__error_expr(p, t->loc);
    }
    lat__expect(p, LAT_P_RPAREN, "to close the functional cast");
    if (lat__is_record(a->type) && lat__is_scalar(to) && !(a->flags & LAT_EF_ERROR)) {
        lat__expr *c = lat__convert_object(p, a, to); /* float(h): the class's operator float() */
        if (c)
            a = lat__rvalue(p, c);
    }
    bool ok = lat__is_scalar(to) && lat__is_scalar(a->type);
    if (!ok && !(a->flags & LAT_EF_ERROR)) {
        if (lat__is_record(to))
            lat__unsupported(p, t, "a constructor call T(x)", lat__why_cxx);
        else
            lat__error_tok(p, t, "cannot convert %s to %s", tstr(p, a->type), tstr(p, to));
    }
    lat__expr *c = lat__cast_to(p, a, to, false);
    c->flags |= LAT_EF_FUNCTIONAL;
    if (!ok)
        c->flags |= LAT_EF_ERROR;
    return c;
}

static lat__type *simple_type_kw(lat__kw kw)
{
    switch (kw) {
    case LAT_KW_INT: return &lat__ty_int;
    case LAT_KW_FLOAT: return &lat__ty_float;
    case LAT_KW_DOUBLE: return &lat__ty_double;
    case LAT_KW_CHAR: return &lat__ty_char;
    case LAT_KW_SHORT: return &lat__ty_short;
    case LAT_KW_LONG: return &lat__ty_long;
    case LAT_KW_UNSIGNED: return &lat__ty_uint;
    case LAT_KW_SIGNED: return &lat__ty_int;
    case LAT_KW_BOOL: case LAT_KW_BOOL_: return &lat__ty_bool;
    default: return NULL;
    }
}

/* static_cast<T>(a), reinterpret_cast<T>(a), const_cast<T>(a): C's cast, with the
 * conversions each allows in C++ (what one refuses, NVRTC refuses too). */
static lat__expr *cxx_cast(lat__parser *p, lat__tok *t)
{
    lat__kw kw = (lat__kw)t->atom->kw;
    lat__next(p);
    if (kw == LAT_KW_DYNAMIC_CAST) {
        lat__unsupported(p, t, "'dynamic_cast'", "run-time type information (virtual classes)");
        if (lat__at_punct(p, LAT_P_LT))
            lat__skip_angles(p);
        if (lat__at_punct(p, LAT_P_LPAREN))
            lat__skip_group(p);
        return lat__error_expr(p, t->loc);
    }
    if (!lat__expect(p, LAT_P_LT, "after the cast's name"))
        return lat__error_expr(p, t->loc);
    lat__type *to = lat__parse_type_name(p);
    if (p->half_gt) {
        /* static_cast<W<int>>(x): the '>>' closed the type's arguments and the cast's */
        p->half_gt = false;
        lat__next(p);
    } else {
        lat__expect(p, LAT_P_GT, "to close the cast's type");
    }
    if (!lat__expect(p, LAT_P_LPAREN, "before the cast's operand"))
        return lat__error_expr(p, t->loc);
    lat__expr *a = lat__parse_expr(p);
    lat__expect(p, LAT_P_RPAREN, "to close the cast");
    if (!to || (a->flags & LAT_EF_ERROR))
        return lat__error_expr(p, t->loc);
    const char *name = t->atom->name;
    if (to->kind == LAT_TY_PTR && to->ref) {
        /* to a reference: the operand's address as a pointer to the type, read through */
        if (!(a->flags & LAT_EF_LVALUE)) {
            lat__error_tok(p, t, "%s to %s of something that is not an lvalue", name, tstr(p, to));
            return lat__error_expr(p, t->loc);
        }
        lat__type *ptr = lat__pointer_to(p->u, to->base);
        lat__expr *addr = lat__expr_new(p, LAT_E_UNARY, a->loc);
        addr->op = LAT_P_AMP;
        addr->a = a;
        addr->type = lat__pointer_to(p->u, a->type);
        if (a->kind == LAT_E_NAME && a->sym) {
            a->sym->flags |= LAT_SF_ADDRESS_TAKEN;
            a->flags &= (uint16_t)~LAT_EF_CONST;
        }
        lat__expr *c = class_cast(a->type, to->base, t) ? lat__base_pointer(p, addr, ptr, true)
                                                         : lat__cast_to(p, addr, ptr, false);
        c->type = lat__reference_to(p->u, to->base);
        c->type->ref = to->ref; /* static_cast<T &&>(x): an xvalue, as std::move's */
        return lat__deref_reference(p, c);
    }
    a = lat__rvalue(p, a);
    lat__type *from = a->type;
    bool ptr_int = (to->kind == LAT_TY_PTR && lat__is_integer(from) && !(a->flags & LAT_EF_CONST && a->ival == 0)) ||
                   (from->kind == LAT_TY_PTR && lat__is_integer(to));
    bool ptr_ptr = to->kind == LAT_TY_PTR && from->kind == LAT_TY_PTR;
    bool related = ptr_ptr && (to->base->kind == LAT_TY_VOID || from->base->kind == LAT_TY_VOID ||
                               lat__type_compatible(to->base, from->base, true) ||
                               lat__derived_from(to->base, from->base) || lat__derived_from(from->base, to->base));
    const char *why = NULL;
    if (kw == LAT_KW_STATIC_CAST) {
        if (ptr_int)
            why = "a static_cast between a pointer and an integer; use reinterpret_cast";
        else if (ptr_ptr && !related)
            why = "a static_cast between unrelated pointer types; use reinterpret_cast";
        else if (ptr_ptr && (from->base->quals & ~to->base->quals))
            why = "a static_cast cannot drop const or volatile; use const_cast";
    } else if (kw == LAT_KW_REINTERPRET_CAST) {
        if (!ptr_int && !ptr_ptr && !(lat__is_integer(to) && lat__is_integer(from) && lat__type_same(to, from)))
            why = "a reinterpret_cast converts between pointers, or pointers and integers, only";
        else if (ptr_ptr && (from->base->quals & ~to->base->quals))
            why = "a reinterpret_cast cannot drop const or volatile; use const_cast";
    } else { /* const_cast */
        if (!ptr_ptr || !lat__type_compatible(to->base, from->base, true))
            why = "a const_cast changes only the const and volatile of a pointer's target";
    }
    if (why) {
        lat__error_tok(p, t, "%s from %s to %s: %s", name, tstr(p, from), tstr(p, to), why);
        lat__expr *c = lat__cast_to(p, a, to, false);
        c->flags |= LAT_EF_ERROR;
        return c;
    }
    return explicit_cast(p, a, to, t);
}

static lat__expr *generic_selection(lat__parser *p, lat__tok *kw)
{
    lat__next(p);
    lat__expect(p, LAT_P_LPAREN, "after _Generic");
    lat__expr *ctrl = lat__rvalue(p, lat__parse_assign_expr(p));
    lat__type *ct = lat__unqualified(p->u, ctrl->type);
    lat__expr *chosen = NULL, *deflt = NULL;
    while (lat__accept(p, LAT_P_COMMA)) {
        bool is_default = lat__at_kw(p, LAT_KW_DEFAULT);
        lat__type *t = NULL;
        if (is_default)
            lat__next(p);
        else
            t = lat__parse_type_name(p);
        lat__expect(p, LAT_P_COLON, "in _Generic");
        lat__expr *e = lat__parse_assign_expr(p);
        if (is_default)
            deflt = e;
        else if (t && !chosen && lat__type_compatible(ct, t, false))
            chosen = e;
    }
    lat__expect(p, LAT_P_RPAREN, "to close _Generic(");
    if (!chosen)
        chosen = deflt;
    if (!chosen) {
        lat__error_tok(p, kw, "_Generic has no association for %s", tstr(p, ct));
        return lat__error_expr(p, kw->loc);
    }
    return chosen;
}

static lat__expr *offsetof_expr(lat__parser *p, lat__tok *kw)
{
    lat__next(p);
    lat__expect(p, LAT_P_LPAREN, "after offsetof");
    lat__type *t = lat__parse_type_name(p);
    lat__expect(p, LAT_P_COMMA, "in offsetof");
    lat__expr *e = lat__expr_new(p, LAT_E_OFFSETOF, kw->loc);
    e->to = t;
    e->type = &lat__ty_ulong;
    int64_t off = 0;
    lat__type *cur = t;
    bool ok = t != NULL;
    LAT_VEC(char) path = {0};
    for (bool first = true;; first = false) {
        if (!first && lat__accept(p, LAT_P_LBRACKET)) {
            bool cok;
            int64_t i = lat__parse_const_int(p, "an offsetof index", &cok);
            lat__expect(p, LAT_P_RBRACKET, "in offsetof");
            if (!cur || cur->kind != LAT_TY_ARRAY) {
                ok = false;
                break;
            }
            cur = cur->base;
            off += i * (int64_t)lat__sizeof(cur);
            char buf[32];
            snprintf(buf, sizeof buf, "[%lld]", (long long)i);
            for (const char *c = buf; *c; c++)
                LAT_PUSH(&p->u->arena, path, *c);
            continue;
        }
        if (!first && !lat__accept(p, LAT_P_DOT))
            break;
        lat__tok *n = lat__next(p);
        if (n->kind != LAT_TK_IDENT || !cur || !lat__is_record(cur) || !cur->rec) {
            ok = false;
            break;
        }
        lat__field *f = NULL;
        for (size_t i = 0; i < cur->rec->fields.n; i++)
            if (cur->rec->fields.items[i].name == n->atom)
                f = &cur->rec->fields.items[i];
        if (!f) {
            lat__error_tok(p, n, "%s has no member named '%s'", tstr(p, cur), n->atom->name);
            ok = false;
            break;
        }
        if (!first)
            LAT_PUSH(&p->u->arena, path, '.');
        for (const char *c = n->atom->name; *c; c++)
            LAT_PUSH(&p->u->arena, path, *c);
        off += f->offset;
        cur = f->type;
    }
    lat__expect(p, LAT_P_RPAREN, "to close offsetof(");
    LAT_PUSH(&p->u->arena, path, '\0');
    e->text = path.items;
    if (ok)
        set_const(e, off);
    else
        e->flags |= LAT_EF_ERROR;
    return e;
}

/* ns::name, ::name, E::enumerator: a value, or a type in a functional cast. */
static lat__expr *qualified_expr(lat__parser *p)
{
    lat__tok *first = lat__peek(p);
    lat__sym *s = lat__parse_qualified(p, false);
    lat__tok *last = &p->toks[p->pos - 1];
    if (!s)
        return lat__error_expr(p, first->loc);
    if (s->kind == LAT_SYM_TYPEDEF && s->tmpl) {
        lat__type *ty = lat__template_class_type(p, s, last);
        if (lat__at_punct(p, LAT_P_LPAREN) || lat__at_punct(p, LAT_P_LBRACE))
            return lat__parse_construction(p, ty, last->loc);
        lat__error_tok(p, last, "'%s' is a type, not a value", last->atom->name);
        return lat__error_expr(p, first->loc);
    }
    if (s->kind == LAT_SYM_TYPEDEF && lat__is_template_placeholder(s->type) && !lat__at_punct(p, LAT_P_LPAREN) &&
        !lat__at_punct(p, LAT_P_LBRACE)) {
        /* is_integral<T>::value while a signature is read for deduction: a value known only
         * in the instance; as a template's argument it keeps that class unmade */
        lat__sym *d = lat__sym_new(p, LAT_SYM_ENUM_CONST, last->atom, last->loc);
        d->type = &lat__ty_int;
        d->tparam = -1;
        return sym_expr(p, last, d);
    }
    if (s->kind == LAT_SYM_TYPEDEF || s->kind == LAT_SYM_TAG) {
        lat__type *ty = s->kind == LAT_SYM_TYPEDEF ? lat__typedef_type(p, s) : s->type;
        if (lat__at_punct(p, LAT_P_LPAREN))
            return functional_cast(p, last, ty);
        if (lat__at_punct(p, LAT_P_LBRACE)) /* typename make_seq<T, 4>::type{} */
            return lat__parse_construction(p, ty, last->loc);
        lat__error_tok(p, last, "'%s' is a type, not a value", last->atom->name);
        return lat__error_expr(p, first->loc);
    }
    return sym_expr(p, last, s);
}

/* Identifiers with a meaning of their own (n, t's name, starts with two underscores):
 * their expression, or NULL for any other name. */
static lat__expr *special_name(lat__parser *p, lat__tok *t, const char *n)
{
    if (strcmp(n, "__func__") == 0 || strcmp(n, "__FUNCTION__") == 0 || strcmp(n, "__PRETTY_FUNCTION__") == 0) {
        lat__next(p);
        const char *fname = p->fn ? p->fn->sym->name->name : "";
        lat__expr *e = lat__expr_new(p, LAT_E_STRING, t->loc);
        e->text = lat__arena_printf(&p->u->arena, "\"%s\"", fname);
        e->len = (uint32_t)strlen(e->text);
        e->type = lat__array_of(p->u, lat__qualified(p->u, &lat__ty_char, LAT_Q_CONST), (int64_t)strlen(fname) + 1);
        e->flags |= LAT_EF_LVALUE;
        return e;
    }
    if (strcmp(n, "__builtin_offsetof") == 0)
        return offsetof_expr(p, t);
    if (strcmp(n, "__builtin_expect") == 0 || strcmp(n, "__builtin_assume_aligned") == 0) {
        lat__next(p);
        lat__expect(p, LAT_P_LPAREN, "after __builtin_expect");
        lat__expr *e = lat__parse_assign_expr(p);
        while (lat__accept(p, LAT_P_COMMA))
            lat__parse_assign_expr(p);
        lat__expect(p, LAT_P_RPAREN, "to close __builtin_expect(");
        return e;
    }
    if (strcmp(n, "__builtin_unreachable") == 0 || strcmp(n, "__builtin_assume") == 0 ||
        strcmp(n, "__assume") == 0) {
        /* CUDA's optimisation hints: promises the emulator does not act on (reaching
         * __builtin_unreachable goes on to what follows) */
        lat__next(p);
        lat__expect(p, LAT_P_LPAREN, "after the hint");
        if (strcmp(n, "__builtin_unreachable") != 0)
            lat__parse_assign_expr(p); /* the assumed condition: read, never run */
        lat__expect(p, LAT_P_RPAREN, "to close the hint's (");
        return lat__cast_to(p, lat__zero(p, t->loc), &lat__ty_void, false);
    }
    if (strcmp(n, "__builtin_va_arg") == 0) {
        lat__next(p);
        lat__expect(p, LAT_P_LPAREN, "after va_arg");
        lat__expr *e = lat__expr_new(p, LAT_E_VA_ARG, t->loc);
        e->a = lat__parse_assign_expr(p);
        lat__expect(p, LAT_P_COMMA, "in va_arg");
        e->to = lat__parse_type_name(p);
        e->type = e->to ? e->to : &lat__ty_int;
        lat__expect(p, LAT_P_RPAREN, "to close va_arg(");
        return e;
    }
    return NULL;
}

/* At `operator` (t) followed by an operator's spelling and '(': the operator function's
 * name as an identifier token of its own ("operator()"), read past; NULL (nothing read)
 * otherwise. */
static lat__tok *operator_name(lat__parser *p, lat__tok *t)
{
    lat__tok *o = lat__peek_at(p, 1), *o2 = lat__peek_at(p, 2);
    char spelled[16] = "";
    size_t skip = 1;
    if ((lat__tok_is_punct(o, LAT_P_LPAREN) && lat__tok_is_punct(o2, LAT_P_RPAREN)) ||
        (lat__tok_is_punct(o, LAT_P_LBRACKET) && lat__tok_is_punct(o2, LAT_P_RBRACKET))) {
        snprintf(spelled, sizeof spelled, "%s", lat__tok_is_punct(o, LAT_P_LPAREN) ? "()" : "[]");
        skip = 2;
    } else if (o->kind == LAT_TK_PUNCT && o->len < sizeof spelled && !lat__tok_is_punct(o, LAT_P_LPAREN)) {
        memcpy(spelled, o->text, o->len);
        spelled[o->len] = '\0';
    }
    lat__tok *after = lat__peek_at(p, 1 + skip);
    if (!spelled[0] || !(lat__tok_is_punct(after, LAT_P_LPAREN) || lat__tok_is_punct(after, LAT_P_LT)))
        return NULL;
    lat__tok *named = lat__arena_alloc(&p->u->arena, sizeof *named);
    *named = *t;
    const char *full = lat__arena_printf(&p->u->arena, "operator%s", spelled);
    named->kind = LAT_TK_IDENT;
    named->atom = lat__atom_get(&p->u->atoms, full, strlen(full));
    named->text = named->atom->name;
    named->len = (uint32_t)strlen(full);
    named->hide = NULL;
    for (size_t i = 0; i <= skip; i++)
        lat__next(p);
    return named;
}

/* A keyword of C++ that no expression of the dialect starts with: refused by name, its
 * parenthesised operand skipped so that parsing goes on past it. */
static lat__expr *refused_keyword(lat__parser *p, const lat__tok *t)
{
    char what[40];
    snprintf(what, sizeof what, "'%s'", t->atom->name);
    lat__unsupported(p, t, what, lat__why_cxx);
    lat__next(p);
    if (lat__at_punct(p, LAT_P_LPAREN))
        lat__skip_group(p);
    return lat__error_expr(p, t->loc);
}

static lat__expr *primary(lat__parser *p)
{
    lat__tok *t = lat__peek(p);
    switch (t->kind) {
    case LAT_TK_NUMBER:
        lat__next(p);
        return number(p, t);
    case LAT_TK_CHAR:
        lat__next(p);
        return char_constant(p, t);
    case LAT_TK_STRING:
        return string_literal(p);
    case LAT_TK_PUNCT:
        if (t->punct == LAT_P_LPAREN)
            return paren_or_cast(p);
        if (t->punct == LAT_P_SCOPE && lat__at_qualified(p))
            return qualified_expr(p);
        if (t->punct == LAT_P_LBRACKET)
            return lat__parse_lambda(p); /* [&](int i) { ... } */
        lat__syntax_error(p, "an expression");
        return lat__error_expr(p, t->loc);
    case LAT_TK_IDENT:
        break;
    default:
        lat__syntax_error(p, "an expression");
        return lat__error_expr(p, t->loc);
    }
    lat__kw kw = (lat__kw)t->atom->kw;
    switch (kw) {
    case LAT_KW_TRUE:
    case LAT_KW_FALSE: {
        lat__next(p);
        lat__expr *e = lat__expr_new(p, LAT_E_INT, t->loc);
        e->type = &lat__ty_bool;
        e->text = kw == LAT_KW_TRUE ? "1" : "0";
        e->len = 1;
        set_const(e, kw == LAT_KW_TRUE);
        return e;
    }
    case LAT_KW_NULLPTR: {
        lat__next(p);
        return lat__cast_to(p, lat__zero(p, t->loc), lat__pointer_to(p->u, &lat__ty_void), false);
    }
    case LAT_KW_GENERIC:
        return generic_selection(p, t);
    case LAT_KW_STATIC_CAST:
    case LAT_KW_DYNAMIC_CAST:
    case LAT_KW_REINTERPRET_CAST:
    case LAT_KW_CONST_CAST:
        return cxx_cast(p, t);
    case LAT_KW_THIS:
        lat__next(p);
        if (!p->this_sym) {
            lat__error_tok(p, t, "'this' outside a member function");
            return lat__error_expr(p, t->loc);
        } else {
            return lat__this_expr(p, t->loc); /* a pointer, not an lvalue */
        }
    case LAT_KW_TYPENAME:
        /* typename T::value_type(x): the functional cast or construction that follows */
        if (!lat__is_type_name(p, lat__peek_at(p, 1))) {
            lat__error_tok(p, lat__peek_at(p, 1), "expected a type after 'typename'");
            lat__next(p);
            return lat__error_expr(p, t->loc);
        }
        lat__next(p);
        return primary(p);
    case LAT_KW_OPERATOR: {
        /* operator==(rhs): an operator function named, called as any function */
        lat__tok *named = operator_name(p, t);
        if (named) {
            if (!named->atom->sym) {
                lat__error_tok(p, t, "'%s' undeclared", named->atom->name);
                return lat__error_expr(p, t->loc);
            }
            return name_expr(p, named);
        }
        return refused_keyword(p, t);
    }
    case LAT_KW_DECLTYPE:
        if (lat__at_qualified(p))
            return qualified_expr(p); /* decltype(a)::kElements */
        if (lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_LPAREN)) {
            /* decltype(x)(0), decltype(x){}: a conversion to, a construction of, its type */
            lat__type *ty = lat__decltype(p);
            if (ty->kind == LAT_TY_PTR && ty->ref)
                ty = ty->base;
            ty = lat__unqualified(p->u, ty);
            if (lat__at_punct(p, LAT_P_LPAREN))
                return functional_cast(p, t, ty);
            if (lat__at_punct(p, LAT_P_LBRACE))
                return lat__parse_construction(p, ty, t->loc);
            lat__error_tok(p, t, "'decltype(...)' is a type, not a value");
            return lat__error_expr(p, t->loc);
        }
        return refused_keyword(p, t);
    case LAT_KW_TYPEID:
    case LAT_KW_TEMPLATE:
    case LAT_KW_NOEXCEPT:
        return refused_keyword(p, t);
    case LAT_KW_NONE:
        break;
    default: {
        lat__type *st = simple_type_kw(kw);
        if (st && lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_LPAREN)) {
            lat__next(p);
            return functional_cast(p, t, st);
        }
        if (st && lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_LBRACE)) {
            lat__next(p);
            return lat__parse_construction(p, st, t->loc);
        }
        lat__syntax_error(p, "an expression");
        return lat__error_expr(p, t->loc);
    }
    }
    /* Identifiers with a meaning of their own: all start with two underscores. */
    const char *n = t->atom->name;
    if (n[0] == '_' && n[1] == '_') {
        lat__expr *e = special_name(p, t, n);
        if (e)
            return e;
    }
    if (lat__at_qualified(p))
        return qualified_expr(p);
    if (lat__is_type_name(p, t) && !lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_COLON)) {
        lat__sym *ts = lat__lookup(p, t->atom);
        lat__type *ty;
        if (ts && ts->tmpl) {
            /* Name<args>(...) or Name<args>{...}: an instance's construction */
            lat__next(p);
            ty = lat__template_class_type(p, ts, t);
            if (lat__at_punct(p, LAT_P_LPAREN) || lat__at_punct(p, LAT_P_LBRACE))
                return lat__parse_construction(p, ty, t->loc);
            lat__error_tok(p, t, "'%s' is a type, not a value", t->atom->name);
            return lat__error_expr(p, t->loc);
        }
        if (ts && ts->kind == LAT_SYM_TYPEDEF) {
            ty = lat__typedef_type(p, ts);
        } else {
            ty = t->atom->tag && t->atom->tag->type ? t->atom->tag->type : &lat__ty_int;
        }
        if (lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_LPAREN)) {
            lat__next(p);
            return functional_cast(p, t, ty);
        }
        lat__next(p);
        if (lat__at_punct(p, LAT_P_LBRACE)) {
            return lat__parse_construction(p, ty, t->loc);
        } else if (lat__at_punct(p, LAT_P_SCOPE)) {
            lat__unsupported(p, lat__peek(p), "the scope operator '::'", lat__why_cxx);
            lat__next(p);
            if (lat__peek(p)->kind == LAT_TK_IDENT)
                lat__next(p);
        } else {
            lat__error_tok(p, t, "'%s' is a type, not a value", n);
        }
        return lat__error_expr(p, t->loc);
    }
    if (lat__texture_call_at(p, t)) /* tex2D<float>(t, x, y): parse_texture.c */
        return lat__parse_texture_call(p);
    lat__next(p);
    return name_expr(p, t);
}

/* ---- postfix ------------------------------------------------------------------------------ */

static lat__field *lookup_field(lat__record *r, lat__atom *name, lat__expr **path_out, lat__parser *p,
                                lat__expr *base, bool arrow, lat__loc loc, int depth)
{
    /* Unnamed members are complete records, so they cannot nest without end; the bound
     * keeps a bug there an error rather than a stack overflow. */
    if (depth > 64)
        return NULL;
    for (size_t i = 0; i < r->fields.n; i++) {
        lat__field *f = &r->fields.items[i];
        if (f->name == name)
            return f;
    }
    /* C11's anonymous members: look inside, through a member expression for each. */
    for (size_t i = 0; i < r->fields.n; i++) {
        lat__field *f = &r->fields.items[i];
        if (f->name || !lat__is_record(f->type) || !f->type->rec)
            continue;
        lat__expr *inner = NULL;
        lat__field *hit = lookup_field(f->type->rec, name, &inner, p, NULL, false, loc, depth + 1);
        if (!hit)
            continue;
        lat__expr *m = lat__expr_new(p, LAT_E_MEMBER, loc);
        m->a = base;
        m->field = f;
        m->type = f->type;
        m->flags |= LAT_EF_LVALUE | (arrow ? LAT_EF_ARROW : 0);
        *path_out = m;
        return hit;
    }
    return NULL;
}

static lat__expr *call(lat__parser *p, lat__expr *fn, lat__tok *open, lat__expr *self);

/* The member function `name` of r's bases, depth first, its class in *owner; *other: a
 * second base that has one too (the name is ambiguous), else left as it is. */
static lat__sym *base_method(lat__record *r, const lat__atom *name, lat__record **owner, lat__record **other,
                             int depth)
{
    lat__sym *found = NULL;
    for (size_t k = 0; depth < 64 && k < lat__nbases(r); k++) {
        lat__record *b = lat__base_of(r, k), *where = b;
        lat__sym *m = lat__find_method(b, name);
        if (!m)
            m = base_method(b, name, &where, other, depth + 1);
        if (m && found && m != found)
            *other = where;
        else if (m && !found) {
            found = m;
            *owner = where;
        }
    }
    return found;
}

lat__sym *lat__method_of(lat__parser *p, lat__record *r, const lat__atom *name, lat__expr **self, lat__loc loc)
{
    lat__sym *m = lat__find_method(r, name);
    if (m || !lat__nbases(r))
        return m;
    lat__record *owner = r, *other = NULL;
    m = base_method(r, name, &owner, &other, 0);
    if (m && other) {
        lat__error_at(p->u, loc, "'%s' is ambiguous in %s: a member of its bases '%s' and '%s'", name->name,
                      lat__record_c_name(r), lat__record_c_name(owner), lat__record_c_name(other));
        return NULL;
    }
    if (m && self && *self && m->storage != LAT_ST_STATIC) {
        const lat__type *pt = (*self)->type;
        unsigned q = pt->kind == LAT_TY_PTR ? pt->base->quals : 0;
        lat__type *bt = lat__qualified(p->u, lat__record_type_of(p, owner), q);
        *self = lat__base_pointer(p, *self, lat__pointer_to(p->u, bt), true);
    }
    return m;
}

static lat__expr *member(lat__parser *p, lat__expr *base, bool arrow, lat__tok *op)
{
    /* Back to the token after the '.', not one before it: at the end of the input
     * lat__next does not move, and the '.' was read again for ever. */
    size_t at = p->pos;
    if (lat__at_kw(p, LAT_KW_TEMPLATE))
        lat__next(p); /* f.template g<T>(): a member template's call */
    lat__tok *n = lat__peek(p);
    lat__tok *named = lat__tok_kw(n, LAT_KW_OPERATOR) ? operator_name(p, n) : NULL;
    n = named ? named : lat__next(p);
    if (n->kind != LAT_TK_IDENT) {
        p->pos = at;
        lat__syntax_error(p, "a member name");
        return lat__error_expr(p, op->loc);
    }
    lat__type *t = arrow ? lat__rvalue(p, base)->type : base->type;
    for (int depth = 0; arrow && lat__is_record(t) && t->rec && !(base->flags & LAT_EF_ERROR) && depth < 16; depth++) {
        /* it->x of an iterator class: its operator->, until a pointer comes */
        lat__expr *o = lat__operator_call(p, "->", base, NULL, op->loc);
        if (!o)
            break;
        base = o;
        t = lat__rvalue(p, base)->type;
    }
    if (arrow) {
        base = lat__rvalue(p, base);
        if (t->kind != LAT_TY_PTR) {
            if (!(base->flags & LAT_EF_ERROR))
                lat__error_tok(p, op, "'->' on %s, not a pointer to a struct", tstr(p, t));
            return lat__error_expr(p, op->loc);
        }
        t = t->base;
    }
    if (!lat__is_record(t) || !t->rec) {
        if (!(base->flags & LAT_EF_ERROR)) {
            if (lat__tok_is_punct(lat__peek(p), LAT_P_LPAREN))
                lat__unsupported(p, n, "a member function call", lat__why_cxx);
            else
                lat__error_tok(p, op, "'%s' on %s, not a struct or union", arrow ? "->" : ".", tstr(p, t));
        }
        return lat__error_expr(p, op->loc);
    }
    if (!t->rec->complete) {
        lat__error_tok(p, op, "member access in an incomplete type (%s)", tstr(p, t));
        return lat__error_expr(p, op->loc);
    }
    lat__expr *path = NULL;
    lat__field *f = lookup_field(t->rec, n->atom, &path, p, base, arrow, op->loc, 0);
    if (!f) {
        lat__sym *m = lat__find_method(t->rec, n->atom);
        lat__record *owner = t->rec;
        if (!m && lat__nbases(owner)) {
            /* d.f() of a base's f: on the base subobject within d */
            lat__record *other = NULL;
            m = base_method(t->rec, n->atom, &owner, &other, 0);
            if (m && other) {
                lat__error_tok(p, n, "'%s' is ambiguous in %s: a member of its bases '%s' and '%s'", n->atom->name,
                               lat__record_c_name(t->rec), lat__record_c_name(owner), lat__record_c_name(other));
                return lat__error_expr(p, op->loc);
            }
        }
        if (m && owner != t->rec && m->storage != LAT_ST_STATIC) {
            if (m->tmpl || !lat__at_punct(p, LAT_P_LPAREN)) {
                lat__unsupported(p, n, "a base class's member template or member function named without a call",
                                 "a lattice limit");
                return lat__error_expr(p, op->loc);
            }
            lat__expr *self = arrow ? base : lat__address_of_object(p, base);
            lat__type *bt = lat__qualified(p->u, lat__record_type_of(p, owner), t->quals);
            self = lat__base_pointer(p, self, lat__pointer_to(p->u, bt), true);
            lat__tok *open = lat__next(p);
            lat__expr *fn = lat__expr_new(p, LAT_E_NAME, n->loc);
            fn->sym = m;
            fn->type = m->type;
            return call(p, fn, open, self);
        }
        if (m && m->tmpl) /* obj.f<args>(...), obj.f(...): a member template */
            return lat__member_template_call(p, m, n,
                                             m->storage == LAT_ST_STATIC ? NULL
                                             : arrow                     ? base
                                                                         : lat__address_of_object(p, base));
        if (m && lat__at_punct(p, LAT_P_LPAREN)) {
            lat__tok *open = lat__next(p);
            lat__expr *fn = lat__expr_new(p, LAT_E_NAME, n->loc);
            fn->sym = m;
            fn->type = m->type;
            lat__expr *self = m->storage == LAT_ST_STATIC ? NULL : arrow ? base : lat__address_of_object(p, base);
            return call(p, fn, open, self);
        }
        lat__sym *c = m ? NULL : lat__find_member_sym(t->rec, n->atom);
        if (c && (c->kind == LAT_SYM_ENUM_CONST || (c->kind == LAT_SYM_VAR && c->storage == LAT_ST_STATIC)))
            return sym_expr(p, n, c); /* a static constant through an object: x.size */
        if (m)
            lat__error_tok(p, n, "'%s' is a member function: call it", n->atom->name);
        else
            lat__error_tok(p, n, "%s has no member named '%s'", tstr(p, t), n->atom->name);
        return lat__error_expr(p, op->loc);
    }
    lat__expr *e = lat__expr_new(p, LAT_E_MEMBER, n->loc);
    e->field = f;
    if (path) {
        e->a = path;
        e->path = path;
    } else {
        e->a = base;
        if (arrow)
            e->flags |= LAT_EF_ARROW;
    }
    unsigned quals = t->quals;
    e->type = quals ? lat__qualified(p->u, f->type, quals) : f->type;
    if (arrow || (base->flags & LAT_EF_LVALUE))
        e->flags |= LAT_EF_LVALUE;
    e->flags |= base->flags & LAT_EF_ERROR;
    return lat__deref_reference(p, e); /* a reference member: what it refers to */
}

void lat__note_call(lat__parser *p, lat__sym *callee)
{
    if (!p->fn || !callee)
        return;
    for (size_t i = 0; i < p->fn->calls.n; i++)
        if (p->fn->calls.items[i] == callee)
            return;
    LAT_PUSH(&p->u->arena, p->fn->calls, callee);
}

/* Default argument promotions, for the variadic part of a call. */
static lat__expr *promote_arg(lat__parser *p, lat__expr *a)
{
    a = lat__rvalue(p, a);
    if (a->type->kind == LAT_TY_FLOAT)
        return lat__cast_to(p, a, &lat__ty_double, true);
    if (lat__is_integer(a->type))
        return lat__cast_to(p, a, lat__promote(a->type), true);
    return a;
}

/* A call's arguments up to ')'. An argument in braces, f({a, b}), initialises the
 * parameter's type as T{a, b} would: that type is the one parameter of a function
 * that has no overloads (an object's `this` first when member). */
static size_t call_arguments(lat__parser *p, const lat__sym *callee, bool member, lat__expr ***out)
{
    LAT_VEC(lat__expr *) args = {0};
    while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_RPAREN)) {
        if (lat__at_punct(p, LAT_P_LBRACE)) {
            lat__tok *brace = lat__peek(p);
            int k = (int)args.n + (member ? 1 : 0);
            const lat__type *ft = callee && callee->kind == LAT_SYM_FUNC ? callee->type : NULL;
            if (!ft || callee->overloads || ft->kind != LAT_TY_FUNC || k >= ft->params.n) {
                lat__unsupported(p, brace,
                                 "a braced list as an argument of an overloaded function or one whose parameter "
                                 "it does not meet",
                                 "write the parameter's type before it, T{...}");
                lat__skip_group(p);
                LAT_PUSH(&p->u->arena, args, lat__error_expr(p, brace->loc));
            } else {
                lat__type *pt = ft->params.types[k];
                if (pt->kind == LAT_TY_PTR && pt->ref)
                    pt = pt->base;
                LAT_PUSH(&p->u->arena, args, lat__parse_construction(p, lat__unqualified(p->u, pt), brace->loc));
            }
        } else {
            LAT_PUSH(&p->u->arena, args, lat__parse_assign_expr(p));
        }
        if (!lat__accept(p, LAT_P_COMMA))
            break;
    }
    lat__expect(p, LAT_P_RPAREN, "to close the call");
    *out = args.items;
    return args.n;
}

/* fn(args) at the '(' (open); self: the object of a member function call, or NULL. */
static lat__expr *call(lat__parser *p, lat__expr *fn, lat__tok *open, lat__expr *self)
{
    lat__sym *callee = fn->kind == LAT_E_NAME ? fn->sym : NULL;
    if (!self && callee && (callee->flags & LAT_SF_METHOD) && callee->storage != LAT_ST_STATIC &&
        !(callee->flags & LAT_SF_CTOR)) {
        /* another member function of the class, by its plain name: this object's */
        if (p->this_sym) {
            self = lat__this_expr(p, fn->loc);
        } else {
            lat__error_at(p->u, fn->loc, "'%s' is a member function: call it on an object", callee->name->name);
        }
    }
    lat__expr **given;
    size_t n = call_arguments(p, callee, self != NULL, &given);
    if (!self)
        return lat__make_call(p, fn, given, (int)n, open->loc);
    lat__expr **argv = lat__arena_alloc(&p->u->arena, (n + 1) * sizeof *argv);
    argv[0] = self; /* a member function's object first */
    if (n)
        memcpy(argv + 1, given, n * sizeof *argv);
    return lat__make_call(p, fn, argv, (int)n + 1, open->loc);
}

/* The emulator's own headers add overloads of built-ins for their classes (atomicAdd and
 * __shfl_sync of __half): `__lat_ext_NAME`, called when an argument is an object of a
 * class or a pointer to one. NULL: the built-in takes the call. */
static lat__sym *builtin_extension(lat__parser *p, const lat__sym *builtin, lat__expr **args, int nargs)
{
    bool of_class = false;
    for (int i = 0; i < nargs; i++) {
        const lat__type *t = args[i]->type;
        of_class |= lat__is_record(t) || (t->kind == LAT_TY_PTR && lat__is_record(t->base));
    }
    if (!of_class)
        return NULL;
    char name[64];
    int n = snprintf(name, sizeof name, "__lat_ext_%s", builtin->name->name);
    if (n <= 0 || (size_t)n >= sizeof name)
        return NULL;
    lat__sym *ext = lat__atom_get(&p->u->atoms, name, (size_t)n)->sym;
    /* none of them taking the arguments, the built-in says what it takes (atomicAdd of a
     * float2 * named the emulator's __lat_ext_atomicAdd) */
    if (!ext || ext->kind != LAT_SYM_FUNC || lat__fewest_user_conversions(p, ext, args, nargs) < 0)
        return NULL;
    return ext;
}

/* CUDA's math headers overload the fixed-signature functions that take pointers for
 * float (sincos(float, float *, float *), modf(float, float *), frexp(float, int *),
 * remquo...): C has only the double form, and its float twin NAMEf. The twin takes the
 * call when every double the double form wants is given as a float and every double *
 * as a float * (C++'s overload resolution picks it then; with a double anywhere it
 * picks the double form). NULL: the double form takes it. */
static lat__sym *float_twin(lat__parser *p, const lat__sym *f, lat__expr **args, int nargs)
{
    const lat__type *ft = f->type;
    if (!ft || ft->kind != LAT_TY_FUNC || ft->params.n != nargs)
        return NULL;
    /* CUDA has no float overloads of these, though it has the NAMEf functions: of floats
     * they compute in double and return double */
    static const char *const double_only[] = {"rhypot", "norm3d", "rnorm3d", "norm4d",
                                              "rnorm4d", "norm", "rnorm"};
    for (size_t i = 0; i < sizeof double_only / sizeof double_only[0]; i++)
        if (strcmp(f->name->name, double_only[i]) == 0)
            return NULL;
    bool any = false;
    for (int i = 0; i < nargs; i++) {
        const lat__type *want = ft->params.types[i], *got = args[i]->type;
        bool dbl = want->kind == LAT_TY_DOUBLE;
        bool dbl_ptr = want->kind == LAT_TY_PTR && want->base->kind == LAT_TY_DOUBLE;
        if (!dbl && !dbl_ptr)
            continue;
        if (!got || (dbl && got->kind != LAT_TY_FLOAT) ||
            (dbl_ptr && (got->kind != LAT_TY_PTR || got->base->kind != LAT_TY_FLOAT)))
            return NULL;
        any = true;
    }
    if (!any)
        return NULL;
    char name[64];
    int n = snprintf(name, sizeof name, "%sf", f->name->name);
    if (n <= 0 || (size_t)n >= sizeof name)
        return NULL;
    lat__sym *tw = lat__lookup(p, lat__atom_get(&p->u->atoms, name, (size_t)n));
    return tw && tw->kind == LAT_SYM_FUNC && (tw->flags & LAT_SF_BUILTIN) && tw->type &&
                   tw->type->kind == LAT_TY_FUNC && tw->type->params.n == nargs
               ? tw
               : NULL;
}

static lat__expr *make_call(lat__parser *p, lat__expr *fn, lat__expr **argv, int argc, lat__loc open_loc);

lat__expr *lat__make_call(lat__parser *p, lat__expr *fn, lat__expr **argv, int argc, lat__loc open_loc)
{
    lat__expr *e = make_call(p, fn, argv, argc, open_loc);
    lat__fold_constexpr_call(p, e); /* f(3) of a constexpr f: a constant too */
    return e;
}

static lat__expr *make_call(lat__parser *p, lat__expr *fn, lat__expr **argv, int argc, lat__loc open_loc)
{
    lat__expr *e = lat__expr_new(p, LAT_E_CALL, fn->loc);
    e->a = fn;
    e->nargs = argc;
    e->args = argv;
    if (fn->flags & LAT_EF_ERROR) {
        e->flags |= LAT_EF_ERROR;
        for (int i = 0; i < e->nargs; i++)
            e->args[i] = lat__rvalue(p, e->args[i]);
        return e;
    }
    lat__sym *callee = fn->kind == LAT_E_NAME ? fn->sym : NULL;
    if (callee && callee->kind == LAT_SYM_FUNC && !callee->tmpl && !(fn->flags & LAT_EF_CHOSEN)) {
        /* The program's overloads of a built-in's name add to it: a call that none of
         * them takes is the built-in's. */
        lat__sym *builtin = NULL;
        for (lat__sym *f = callee; f && !builtin; f = f->overloads)
            builtin = f->builtin_of;
        bool arg_error = false;
        for (int i = 0; i < e->nargs; i++)
            arg_error |= (e->args[i]->flags & LAT_EF_ERROR) != 0;
        if (builtin && !arg_error && lat__fewest_user_conversions(p, callee, e->args, e->nargs) < 0) {
            callee = fn->sym = builtin;
            fn->type = builtin->type;
        }
    }
    lat__sym *twin = callee && callee->kind == LAT_SYM_FUNC && (callee->flags & LAT_SF_BUILTIN)
                         ? float_twin(p, callee, e->args, e->nargs)
                         : NULL;
    if (twin) {
        callee = fn->sym = twin;
        fn->type = twin->type;
    }
    e->sym = callee;
    lat__sym *ext = callee && (callee->flags & LAT_SF_BUILTIN) ? builtin_extension(p, callee, e->args, e->nargs) : NULL;
    if (ext) {
        lat__expr *to = lat__expr_new(p, LAT_E_NAME, fn->loc);
        to->sym = ext;
        to->type = ext->type;
        return lat__make_call(p, to, argv, argc, open_loc);
    }
    if (callee && callee->kind == LAT_SYM_BUILTIN) {
        const lat__builtin *b = lat__builtin_get(callee->builtin);
        for (int i = 0; i < e->nargs; i++) {
            /* sqrtf(h), max(h, 0.0f) of a class converting to a number: C++ converts it */
            lat__expr *c = lat__is_record(e->args[i]->type) && !(e->args[i]->flags & LAT_EF_ERROR)
                               ? lat__convert_object(p, e->args[i], &lat__ty_float)
                               : NULL;
            if (c && lat__is_arith(c->type))
                e->args[i] = c;
            e->args[i] = lat__rvalue(p, e->args[i]);
        }
        bool arg_error = false;
        for (int i = 0; i < e->nargs; i++)
            arg_error |= (e->args[i]->flags & LAT_EF_ERROR) != 0;
        const char *why = NULL;
        lat__type *t = arg_error ? NULL : lat__builtin_call_type(p->u, b, e->args, e->nargs, &why);
        if (!t) {
            if (why)
                lat__error_at(p->u, fn->loc, "%s", why);
            e->flags |= LAT_EF_ERROR;
            e->type = &lat__ty_int;
            return e;
        }
        e->type = t;
        lat__note_call(p, callee);
        return e;
    }
    if (callee && callee->kind == LAT_SYM_FUNC && callee->overloads && !(fn->flags & LAT_EF_CHOSEN)) {
        lat__sym *best = lat__resolve_overload(p, callee, e->args, e->nargs, open_loc);
        if (!best) {
            for (int i = 0; i < e->nargs; i++)
                e->args[i] = lat__rvalue(p, e->args[i]);
            e->flags |= LAT_EF_ERROR;
            e->type = &lat__ty_int;
            return e;
        }
        callee = e->sym = fn->sym = best;
        fn->type = best->type;
    }
    lat__type *ft = lat__rvalue(p, fn)->type;
    if (ft->kind == LAT_TY_PTR && ft->base->kind == LAT_TY_FUNC)
        ft = ft->base;
    if (ft->kind != LAT_TY_FUNC) {
        lat__error_at(p->u, fn->loc, "called object is %s, not a function", tstr(p, ft));
        e->flags |= LAT_EF_ERROR;
        return e;
    }
    e->type = ft->base;
    int n = ft->params.n;
    const char *fname = callee ? callee->name->name : "the function";
    int given = e->nargs; /* the others are default arguments, converted where declared */
    if (e->nargs < n && ft->params.defaults && ft->params.defaults[e->nargs]) {
        lat__expr **all = lat__arena_alloc(&p->u->arena, (size_t)n * sizeof *all);
        if (e->nargs)
            memcpy(all, e->args, (size_t)e->nargs * sizeof *all);
        for (int i = e->nargs; i < n; i++)
            all[i] = lat__expr_clone(p, ft->params.defaults[i]);
        e->args = all;
        e->nargs = n;
    }
    if (e->nargs < n || (e->nargs > n && !ft->params.variadic && !ft->params.unprototyped)) {
        lat__error_at(p->u, open_loc, "too %s arguments to '%s' (%d given, %s%d expected)",
                      e->nargs < n ? "few" : "many", fname, e->nargs,
                      ft->params.variadic ? "at least " : "", n);
        e->flags |= LAT_EF_ERROR;
    }
    for (int i = 0; i < given; i++) {
        if (i < n) {
            char ctx[160];
            snprintf(ctx, sizeof ctx, "passing argument %d of '%s' as", i + 1, fname);
            lat__type *pt = ft->params.types[i];
            lat__expr *a = e->args[i];
            if (lat__is_record(pt) && pt->rec && lat__is_record(a->type) && a->type->rec == pt->rec &&
                (a->flags & LAT_EF_LVALUE) && !(a->flags & LAT_EF_ERROR) && lat__copy_ctor_declared(pt->rec)) {
                /* a class passed by value from an lvalue: the parameter is made by the
                 * program's copy constructor, as C++ does */
                lat__expr **one = lat__arena_alloc(&p->u->arena, 2 * sizeof *one);
                one[0] = a;
                e->args[i] = lat__construct(p, lat__unqualified(p->u, pt), one, 1, a->loc);
            }
            e->args[i] = lat__convert_assign(p, e->args[i], ft->params.types[i], ctx);
        } else {
            e->args[i] = promote_arg(p, e->args[i]);
        }
    }
    if (callee && callee->kind == LAT_SYM_FUNC) {
        lat__note_call(p, callee);
        if ((callee->cuda & LAT_CU_GLOBAL) && p->fn)
            lat__unsupported_at(p->u, fn->loc, "calling a __global__ function from device code",
                                "dynamic parallelism (kernel launches from device code)");
    }
    return lat__deref_reference(p, e); /* a function returning a reference: an lvalue */
}

static lat__expr *postfix(lat__parser *p, lat__expr *e)
{
    if (!e)
        e = primary(p);
    for (;;) {
        lat__tok *t = lat__peek(p);
        if (t->kind != LAT_TK_PUNCT)
            return e;
        switch (t->punct) {
        case LAT_P_LBRACKET: {
            lat__next(p);
            lat__expr *idx = lat__parse_expr(p);
            lat__expect(p, LAT_P_RBRACKET, "to close the index");
            if (lat__is_record(e->type) && !(e->flags & LAT_EF_ERROR)) {
                lat__expr *o = lat__operator_call(p, "[]", e, idx, t->loc);
                if (o) {
                    e = o;
                    break;
                }
            }
            /* a[i] of an array: its address goes nowhere but into the index. */
            lat__expr *a = decay(p, e, false), *b = decay(p, idx, false);
            lat__expr *x = lat__expr_new(p, LAT_E_INDEX, t->loc);
            x->flags |= (a->flags | b->flags) & LAT_EF_ERROR;
            if (a->type->kind != LAT_TY_PTR && b->type->kind == LAT_TY_PTR) {
                lat__expr *s = a; /* i[p] */
                a = b;
                b = s;
            }
            if (a->type->kind != LAT_TY_PTR || !lat__is_integer(b->type)) {
                if (!(x->flags & LAT_EF_ERROR))
                    lat__error_tok(p, t, "subscript of %s with %s", tstr(p, a->type), tstr(p, b->type));
                x->flags |= LAT_EF_ERROR;
                x->type = &lat__ty_int;
            } else {
                x->type = a->type->base;
                if (!lat__is_complete(x->type) && x->type->kind != LAT_TY_ARRAY && !(x->flags & LAT_EF_ERROR))
                    lat__error_tok(p, t, "subscript of a pointer to an incomplete type (%s)", tstr(p, a->type));
            }
            x->a = a;
            x->b = b;
            x->flags |= LAT_EF_LVALUE;
            e = x;
            break;
        }
        case LAT_P_LPAREN:
            if (lat__is_record(e->type) && e->type->rec && !(e->flags & LAT_EF_ERROR)) {
                lat__expr *self = lat__address_of_object(p, e);
                lat__sym *m = lat__method_of(p, e->type->rec, lat__atom_get(&p->u->atoms, "operator()", 10), &self,
                                             t->loc);
                if (m && m->tmpl) { /* template <typename T> T operator()(T a, T b) */
                    e = lat__member_template_call(p, m, t, self);
                    break;
                }
                lat__next(p);
                if (m) { /* f(x) of an object: its operator() (or its base's) */
                    lat__expr *fn = lat__expr_new(p, LAT_E_NAME, t->loc);
                    fn->sym = m;
                    fn->type = m->type;
                    e = call(p, fn, t, self);
                    break;
                }
                e = call(p, e, t, NULL);
                break;
            }
            lat__next(p);
            e = call(p, e, t, NULL);
            break;
        case LAT_P_DOT:
        case LAT_P_ARROW:
            lat__next(p);
            e = member(p, e, t->punct == LAT_P_ARROW, t);
            break;
        case LAT_P_INC:
        case LAT_P_DEC: {
            lat__next(p);
            if (lat__is_record(e->type) && !(e->flags & LAT_EF_ERROR)) {
                /* it++: the class's operator++(int) */
                lat__expr *o = lat__operator_call(p, lat__punct_spelling((lat__punct)t->punct), e,
                                                  lat__int_constant(p, 0, t->loc), t->loc);
                if (o) {
                    e = o;
                    break;
                }
            }
            check_modifiable(p, e, t->punct == LAT_P_INC ? "++" : "--");
            lat__expr *x = lat__expr_new(p, LAT_E_POSTFIX, t->loc);
            x->op = t->punct;
            x->a = e;
            x->type = lat__unqualified(p->u, e->type);
            x->flags |= e->flags & LAT_EF_ERROR;
            if (!lat__is_scalar(e->type) && !(e->flags & LAT_EF_ERROR)) {
                lat__error_tok(p, t, "%s of %s", t->punct == LAT_P_INC ? "++" : "--", tstr(p, e->type));
                x->flags |= LAT_EF_ERROR;
            }
            e = x;
            break;
        }
        case LAT_P_SCOPE:
            lat__unsupported(p, t, "the scope operator '::'", lat__why_cxx);
            lat__next(p);
            if (lat__peek(p)->kind == LAT_TK_IDENT)
                lat__next(p);
            e = lat__error_expr(p, t->loc);
            break;
        case LAT_P_SHL:
            if (lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_LT) && !(lat__peek_at(p, 1)->flags & LAT_TF_SPACE)) {
                /* k<<<grid, block>>>(args): a launch from device code */
                lat__unsupported(p, t, "a kernel launch '<<<...>>>'", "launching kernels from device code");
                while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_SEMI) &&
                       !(lat__at_punct(p, LAT_P_SHR) && lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_GT)))
                    lat__next(p);
                if (lat__at_punct(p, LAT_P_SHR)) {
                    lat__next(p);
                    lat__next(p);
                }
                if (lat__at_punct(p, LAT_P_LPAREN))
                    lat__skip_group(p);
                return lat__error_expr(p, t->loc);
            }
            return e;
        default:
            return e;
        }
    }
}
