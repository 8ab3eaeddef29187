/* Types of the tree: see type.h. */
#include "type.h"

#include <stdio.h>
#include <string.h>

#define BASIC(kind, sz, sign) {kind, 0, sign, 1, sz, sz, NULL, 0, NULL, {0}, NULL, NULL}

lat__type lat__ty_void = {LAT_TY_VOID, 0, 0, 0, 1, 1, NULL, 0, NULL, {0}, NULL, NULL};
lat__type lat__ty_bool = BASIC(LAT_TY_BOOL, 1, 0);
lat__type lat__ty_char = BASIC(LAT_TY_CHAR, 1, 1);
lat__type lat__ty_schar = BASIC(LAT_TY_SCHAR, 1, 1);
lat__type lat__ty_uchar = BASIC(LAT_TY_UCHAR, 1, 0);
lat__type lat__ty_short = BASIC(LAT_TY_SHORT, 2, 1);
lat__type lat__ty_ushort = BASIC(LAT_TY_USHORT, 2, 0);
lat__type lat__ty_int = BASIC(LAT_TY_INT, 4, 1);
lat__type lat__ty_uint = BASIC(LAT_TY_UINT, 4, 0);
lat__type lat__ty_long = BASIC(LAT_TY_LONG, 8, 1);
lat__type lat__ty_ulong = BASIC(LAT_TY_ULONG, 8, 0);
lat__type lat__ty_llong = BASIC(LAT_TY_LLONG, 8, 1);
lat__type lat__ty_ullong = BASIC(LAT_TY_ULLONG, 8, 0);
lat__type lat__ty_float = BASIC(LAT_TY_FLOAT, 4, 1);
lat__type lat__ty_double = BASIC(LAT_TY_DOUBLE, 8, 1);
lat__type lat__ty_ldouble = {LAT_TY_LDOUBLE, 0, 1, 1, 16, 16, NULL, 0, NULL, {0}, NULL, NULL};

lat__type *lat__basic(lat__tykind kind)
{
    static lat__type *const table[] = {
        [LAT_TY_VOID] = &lat__ty_void,     [LAT_TY_BOOL] = &lat__ty_bool,
        [LAT_TY_CHAR] = &lat__ty_char,     [LAT_TY_SCHAR] = &lat__ty_schar,
        [LAT_TY_UCHAR] = &lat__ty_uchar,   [LAT_TY_SHORT] = &lat__ty_short,
        [LAT_TY_USHORT] = &lat__ty_ushort, [LAT_TY_INT] = &lat__ty_int,
        [LAT_TY_UINT] = &lat__ty_uint,     [LAT_TY_LONG] = &lat__ty_long,
        [LAT_TY_ULONG] = &lat__ty_ulong,   [LAT_TY_LLONG] = &lat__ty_llong,
        [LAT_TY_ULLONG] = &lat__ty_ullong, [LAT_TY_FLOAT] = &lat__ty_float,
        [LAT_TY_DOUBLE] = &lat__ty_double, [LAT_TY_LDOUBLE] = &lat__ty_ldouble,
    };
    return kind <= LAT_TY_LDOUBLE ? table[kind] : &lat__ty_int;
}

lat__type *lat__type_new(lat__unit *u, lat__tykind kind)
{
    lat__type *t = lat__arena_alloc(&u->arena, sizeof *t);
    t->kind = (uint8_t)kind;
    return t;
}

lat__type *lat__marker_type(lat__unit *u, int64_t mark)
{
    lat__type *t = lat__type_new(u, LAT_TY_VOID);
    t->count = mark;
    t->complete = 1;
    t->size = 1;
    return t;
}

lat__half_class lat__half_class_of(const lat__type *t)
{
    if (t && t->kind == LAT_TY_PTR)
        t = t->base;
    if (!t || !lat__is_record(t) || !t->rec || !t->rec->tag)
        return LAT_HALF_NONE;
    static const char *const names[] = {[LAT_HALF_F16] = "__half", [LAT_HALF_BF16] = "__nv_bfloat16",
                                        [LAT_HALF_F16X2] = "__half2", [LAT_HALF_BF16X2] = "__nv_bfloat162"};
    for (int k = LAT_HALF_F16; k <= LAT_HALF_BF16X2; k++)
        if (strcmp(t->rec->tag->name, names[k]) == 0)
            return (lat__half_class)k;
    return LAT_HALF_NONE;
}

lat__type *lat__type_copy(lat__unit *u, const lat__type *t)
{
    lat__type *c = lat__arena_alloc(&u->arena, sizeof *c);
    *c = *t;
    return c;
}

lat__type *lat__pointer_to(lat__unit *u, lat__type *base)
{
    lat__type *t = lat__type_new(u, LAT_TY_PTR);
    t->base = base;
    t->size = t->align = 8;
    t->complete = 1;
    return t;
}

lat__type *lat__reference_to(lat__unit *u, lat__type *base)
{
    lat__type *t = lat__pointer_to(u, base);
    t->ref = 1;
    return t;
}

lat__type *lat__array_of(lat__unit *u, lat__type *elem, int64_t count)
{
    lat__type *t = lat__type_new(u, LAT_TY_ARRAY);
    t->base = elem;
    t->count = count;
    t->align = lat__alignof(elem);
    t->complete = count >= 0 && elem->complete;
    uint64_t size = count >= 0 ? (uint64_t)count * lat__sizeof(elem) : 0;
    t->size = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;
    return t;
}

lat__type *lat__func_type(lat__unit *u, lat__type *ret)
{
    lat__type *t = lat__type_new(u, LAT_TY_FUNC);
    t->base = ret;
    t->size = t->align = 1;
    return t;
}

lat__type *lat__qualified(lat__unit *u, lat__type *t, unsigned quals)
{
    if ((t->quals | quals) == t->quals)
        return t;
    if (t->kind == LAT_TY_ARRAY) {
        /* C: qualifiers of an array type apply to its elements. */
        lat__type *c = lat__type_copy(u, t);
        c->base = lat__qualified(u, t->base, quals);
        c->named = NULL;
        return c;
    }
    lat__type *c = lat__type_copy(u, t);
    c->quals = (uint8_t)(c->quals | quals);
    return c;
}

lat__type *lat__unqualified(lat__unit *u, lat__type *t)
{
    if (!t->quals && !t->named)
        return t;
    if (t->kind <= LAT_TY_LDOUBLE)
        return lat__basic((lat__tykind)t->kind);
    lat__type *c = lat__type_copy(u, t);
    c->quals = 0;
    c->named = NULL;
    return c;
}

bool lat__is_complete(const lat__type *t)
{
    switch (t->kind) {
    case LAT_TY_VOID:
    case LAT_TY_FUNC:
        return false;
    case LAT_TY_STRUCT:
    case LAT_TY_UNION:
        return t->rec && t->rec->complete;
    case LAT_TY_ARRAY:
        return t->count >= 0 && t->base && lat__is_complete(t->base);
    default:
        return true;
    }
}

bool lat__is_unsigned(const lat__type *t)
{
    if (t->kind == LAT_TY_ENUM)
        return t->base && !t->base->is_signed;
    if (t->kind == LAT_TY_PTR)
        return true;
    return lat__is_integer(t) && !t->is_signed;
}

int lat__int_rank(const lat__type *t)
{
    switch (t->kind) {
    case LAT_TY_BOOL: return 0;
    case LAT_TY_CHAR: case LAT_TY_SCHAR: case LAT_TY_UCHAR: return 1;
    case LAT_TY_SHORT: case LAT_TY_USHORT: return 2;
    case LAT_TY_INT: case LAT_TY_UINT: return 3;
    case LAT_TY_ENUM: return t->base ? lat__int_rank(t->base) : 3;
    case LAT_TY_LONG: case LAT_TY_ULONG: return 4;
    case LAT_TY_LLONG: case LAT_TY_ULLONG: return 5;
    default: return 3;
    }
}

lat__type *lat__promote(lat__type *t)
{
    if (t->kind == LAT_TY_ENUM)
        t = t->base ? t->base : &lat__ty_int;
    if (lat__is_integer(t) && lat__int_rank(t) < 3)
        return &lat__ty_int; /* every smaller type fits in int */
    if (t->kind <= LAT_TY_LDOUBLE)
        return lat__basic((lat__tykind)t->kind);
    return t;
}

static lat__type *unsigned_of(const lat__type *t)
{
    switch (t->kind) {
    case LAT_TY_INT: return &lat__ty_uint;
    case LAT_TY_LONG: return &lat__ty_ulong;
    case LAT_TY_LLONG: return &lat__ty_ullong;
    default: return lat__basic((lat__tykind)t->kind);
    }
}

lat__type *lat__usual_arith(lat__type *a, lat__type *b)
{
    if (a->kind == LAT_TY_LDOUBLE || b->kind == LAT_TY_LDOUBLE)
        return &lat__ty_ldouble;
    if (a->kind == LAT_TY_DOUBLE || b->kind == LAT_TY_DOUBLE)
        return &lat__ty_double;
    if (a->kind == LAT_TY_FLOAT || b->kind == LAT_TY_FLOAT)
        return &lat__ty_float;
    a = lat__promote(a);
    b = lat__promote(b);
    if (a->kind == b->kind)
        return a;
    bool ua = lat__is_unsigned(a), ub = lat__is_unsigned(b);
    int ra = lat__int_rank(a), rb = lat__int_rank(b);
    if (ua == ub)
        return ra >= rb ? a : b;
    lat__type *u = ua ? a : b, *s = ua ? b : a;
    int ru = ua ? ra : rb, rs = ua ? rb : ra;
    if (ru >= rs)
        return u;
    if (s->size > u->size)
        return s;
    return unsigned_of(s);
}

lat__type *lat__decay(lat__unit *u, lat__type *t)
{
    if (t->kind == LAT_TY_ARRAY)
        return lat__pointer_to(u, t->base);
    if (t->kind == LAT_TY_FUNC)
        return lat__pointer_to(u, t);
    return t;
}

static bool compatible(const lat__type *a, const lat__type *b, bool ignore_quals, int depth)
{
    if (a == b)
        return true;
    if (!ignore_quals && a->quals != b->quals)
        return false;
    if (a->kind != b->kind) {
        /* An enum is compatible with its underlying type. */
        if (a->kind == LAT_TY_ENUM && b->kind != LAT_TY_ENUM)
            return a->base && a->base->kind == b->kind;
        if (b->kind == LAT_TY_ENUM && a->kind != LAT_TY_ENUM)
            return b->base && b->base->kind == a->kind;
        return false;
    }
    switch (a->kind) {
    case LAT_TY_PTR:
        if ((a->member_of != NULL) != (b->member_of != NULL) ||
            (a->member_of && !compatible(a->member_of, b->member_of, false, depth + 1)))
            return false;
        return compatible(a->base, b->base, false, depth + 1);
    case LAT_TY_ARRAY:
        if (a->count >= 0 && b->count >= 0 && a->count != b->count)
            return false;
        return compatible(a->base, b->base, false, depth + 1);
    case LAT_TY_FUNC:
        if (!compatible(a->base, b->base, false, depth + 1))
            return false;
        if (a->params.unprototyped || b->params.unprototyped)
            return true;
        if (a->params.n != b->params.n || a->params.variadic != b->params.variadic)
            return false;
        for (int i = 0; i < a->params.n; i++)
            if (!compatible(a->params.types[i], b->params.types[i], true, depth + 1))
                return false;
        return true;
    case LAT_TY_STRUCT:
    case LAT_TY_UNION:
    case LAT_TY_ENUM:
        return a->rec == b->rec;
    default:
        return true;
    }
}

bool lat__type_compatible(const lat__type *a, const lat__type *b, bool ignore_quals)
{
    return compatible(a, b, ignore_quals, 0);
}

bool lat__type_same(const lat__type *a, const lat__type *b)
{
    return compatible(a, b, false, 0);
}

static uint32_t align_up(uint32_t v, uint32_t a)
{
    return a > 1 ? (v + a - 1) / a * a : v;
}

void lat__record_layout(lat__record *r)
{
    uint64_t bits = 0; /* the next free bit, structs only */
    uint32_t size = 0, align = 1;
    for (size_t i = 0; i < r->fields.n; i++) {
        lat__field *f = &r->fields.items[i];
        uint32_t fa = r->packed ? 1 : lat__alignof(f->type);
        uint32_t fs = lat__sizeof(f->type);
        if (r->kind == LAT_TY_UNION) {
            f->offset = 0;
            f->bit_offset = 0;
            if (f->bits < 0 || f->name)
                align = fa > align ? fa : align;
            uint32_t s = f->bits >= 0 ? (uint32_t)(f->bits + 7) / 8 : fs;
            size = s > size ? s : size;
            continue;
        }
        if (f->bits >= 0) {
            uint64_t unit = (uint64_t)fs * 8;
            if (f->bits == 0) {
                bits = (bits + unit - 1) / unit * unit;
                f->offset = (uint32_t)(bits / 8);
                f->bit_offset = 0;
                continue;
            }
            if (!r->packed && unit && bits / unit != (bits + (uint64_t)f->bits - 1) / unit)
                bits = (bits + unit - 1) / unit * unit; /* it would straddle a unit */
            uint64_t unit_start = r->packed || !unit ? bits / 8 : bits / unit * (unit / 8);
            f->offset = (uint32_t)unit_start;
            f->bit_offset = (uint32_t)(bits - unit_start * 8);
            bits += (uint64_t)f->bits;
            if (f->name)
                align = fa > align ? fa : align;
            continue;
        }
        uint32_t off = align_up((uint32_t)((bits + 7) / 8), fa);
        f->offset = off;
        f->bit_offset = 0;
        bits = ((uint64_t)off + fs) * 8;
        align = fa > align ? fa : align;
    }
    if (r->kind != LAT_TY_UNION)
        size = (uint32_t)((bits + 7) / 8);
    if (r->min_align > align)
        align = r->min_align;
    r->align = align;
    r->size = align_up(size, align);
    r->complete = true;
}

/* ---- spelling --------------------------------------------------------------------------- */

typedef struct sbuf {
    char *p;
    size_t n, cap;
    lat__unit *u;
} sbuf;

static void put(sbuf *b, const char *s)
{
    size_t n = strlen(s);
    if (b->n + n + 1 > b->cap)
        b->p = lat__arena_grow(&b->u->arena, b->p, &b->cap, b->n + n + 1, 1);
    memcpy(b->p + b->n, s, n + 1);
    b->n += n;
}

static const char *basic_name(lat__tykind k)
{
    static const char *const names[] = {
        [LAT_TY_VOID] = "void", [LAT_TY_BOOL] = "bool", [LAT_TY_CHAR] = "char",
        [LAT_TY_SCHAR] = "signed char", [LAT_TY_UCHAR] = "unsigned char",
        [LAT_TY_SHORT] = "short", [LAT_TY_USHORT] = "unsigned short", [LAT_TY_INT] = "int",
        [LAT_TY_UINT] = "unsigned int", [LAT_TY_LONG] = "long",
        [LAT_TY_ULONG] = "unsigned long", [LAT_TY_LLONG] = "long long",
        [LAT_TY_ULLONG] = "unsigned long long", [LAT_TY_FLOAT] = "float",
        [LAT_TY_DOUBLE] = "double", [LAT_TY_LDOUBLE] = "long double",
    };
    return k <= LAT_TY_LDOUBLE ? names[k] : "?";
}

static void quals_str(sbuf *b, unsigned q, bool trailing_space)
{
    if (q & LAT_Q_CONST)
        put(b, trailing_space ? "const " : " const");
    if (q & LAT_Q_VOLATILE)
        put(b, trailing_space ? "volatile " : " volatile");
    if (q & LAT_Q_RESTRICT)
        put(b, trailing_space ? "restrict " : " restrict");
}

/* Writes t around the declarator text `inner`. */
static const char *spell(lat__unit *u, const lat__type *t, const char *inner, const lat__type_names *nm)
{
    sbuf b = {NULL, 0, 0, u};
    /* In the emitted C, a block's typedef is spelled as what it stands for: a lambda's body,
     * written as a function of its own, names it outside the block that declares it. */
    if (t->named && !nm->resolve_typedefs && !(nm->emit && t->named->type && t->named->type->kind == LAT_TY_ENUM) &&
        !(nm->emit && t->named->depth > 0)) {
        quals_str(&b, t->quals, true);
        put(&b, nm->typedef_name ? nm->typedef_name(nm->data, t->named) : t->named->name->name);
        if (inner[0]) {
            put(&b, " ");
            put(&b, inner);
        }
        return b.p;
    }
    switch (t->kind) {
    case LAT_TY_PTR: {
        sbuf d = {NULL, 0, 0, u};
        put(&d, t->ref && !nm->emit ? "&" : "*");
        if (t->quals) {
            /* "*const restrict", then the name */
            sbuf q = {NULL, 0, 0, u};
            quals_str(&q, t->quals, false);
            put(&d, q.p + 1);
            if (inner[0])
                put(&d, " ");
        }
        put(&d, inner);
        if (t->base->kind == LAT_TY_ARRAY || t->base->kind == LAT_TY_FUNC) {
            sbuf p = {NULL, 0, 0, u};
            put(&p, "(");
            put(&p, d.p);
            put(&p, ")");
            return spell(u, t->base, p.p, nm);
        }
        return spell(u, t->base, d.p, nm);
    }
    case LAT_TY_ARRAY: {
        sbuf d = {NULL, 0, 0, u};
        put(&d, inner);
        char n[32] = "";
        if (t->count >= 0)
            snprintf(n, sizeof n, "%lld", (long long)t->count);
        put(&d, "[");
        put(&d, n);
        put(&d, "]");
        return spell(u, t->base, d.p, nm);
    }
    case LAT_TY_FUNC: {
        sbuf d = {NULL, 0, 0, u};
        put(&d, inner);
        put(&d, "(");
        if (nm->func_context)
            put(&d, nm->func_context);
        for (int i = 0; i < t->params.n; i++) {
            if (i || nm->func_context)
                put(&d, ", ");
            put(&d, spell(u, t->params.types[i], "", nm));
        }
        if (t->params.variadic)
            put(&d, t->params.n || nm->func_context ? ", ..." : "...");
        else if (t->params.n == 0 && !t->params.unprototyped && !nm->func_context)
            put(&d, "void");
        put(&d, ")");
        return spell(u, t->base, d.p, nm);
    }
    default:
        break;
    }
    quals_str(&b, t->quals, true);
    if (t->kind == LAT_TY_ENUM && nm->emit) {
        put(&b, basic_name((lat__tykind)(t->base ? t->base->kind : LAT_TY_INT)));
    } else if (t->kind == LAT_TY_STRUCT || t->kind == LAT_TY_UNION || t->kind == LAT_TY_ENUM) {
        const char *kw = t->kind == LAT_TY_STRUCT ? "struct" : t->kind == LAT_TY_UNION ? "union" : "enum";
        if (t->rec && t->rec->builtin && t->rec->tag) {
            put(&b, t->rec->tag->name); /* float4, not struct float4 */
        } else if (nm->record_name && t->rec) {
            put(&b, nm->record_name(nm->data, t->rec));
        } else {
            put(&b, kw);
            put(&b, " ");
            put(&b, t->rec && t->rec->tag ? t->rec->tag->name : "<anonymous>");
        }
    } else if (t->kind == LAT_TY_BOOL && nm->emit) {
        put(&b, "_Bool");
    } else {
        put(&b, basic_name((lat__tykind)t->kind));
    }
    if (inner[0]) {
        if (inner[0] != '[')
            put(&b, " ");
        put(&b, inner);
    }
    return b.p;
}

const char *lat__type_spell(lat__unit *u, const lat__type *t, const char *declarator,
                            const lat__type_names *names)
{
    static const lat__type_names plain = {0};
    return spell(u, t, declarator ? declarator : "", names ? names : &plain);
}

const char *lat__type_str(lat__unit *u, const lat__type *t, const char *name, bool resolve_typedefs)
{
    lat__type_names nm = {0};
    nm.resolve_typedefs = resolve_typedefs;
    return spell(u, t, name ? name : "", &nm);
}
