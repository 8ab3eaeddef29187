/*
 * Inline PTX (parse.h): `asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));`. The
 * instructions real kernels write by hand (special registers, bit-field and byte
 * permutes, shuffles and votes, fences and barriers, loads and stores with cache hints,
 * atomics, plain arithmetic and conversions) are rewritten as the CUDA C++ that does the
 * same, and that text is parsed in place of the statement, with the operands' own
 * expressions spliced in. The operands are copied into registers of their constraint's
 * width first ("r" 32 bits, "l" 64, "h" 16, "f" float, "d" double), each read once, and
 * outputs are written back at the end, as PTX's registers behave. An instruction outside
 * that set (predicates, branches, `.reg`, cp.async, ldmatrix, mma...) is refused, naming it.
 */
#include "parse.h"

#include "lex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_OPERANDS = 30 };

typedef struct operand {
    char constraint; /* r l h f d n c */
    bool output, inout;
    size_t from, to; /* its expression's tokens */
} operand;

enum { MAX_REGS = 64 };

typedef struct asm_text {
    lat__parser *p;
    char *buf;
    size_t len, cap;
    const char *refused; /* why the translation stopped, or NULL */
    struct {
        const char *name; /* as PTX names it: p, %p1, t3 */
        int type;         /* its ptype; C's __lat_rN, N its index */
    } reg[MAX_REGS];      /* the template's .reg declarations */
    int nregs;
    int depth;        /* the template's { } open */
    int mark[16];     /* nregs where each opened */
} asm_text;

static void put(asm_text *a, const char *s)
{
    size_t n = strlen(s);
    if (a->len + n + 1 > a->cap) {
        size_t cap = (a->cap ? a->cap * 2 : 256) + n;
        char *b = lat__arena_alloc(&a->p->u->arena, cap);
        if (a->len)
            memcpy(b, a->buf, a->len);
        a->buf = b;
        a->cap = cap;
    }
    memcpy(a->buf + a->len, s, n + 1);
    a->len += n;
}

/* ---- types -------------------------------------------------------------------------- */

typedef enum ptype { T_NONE, T_U16, T_S16, T_U32, T_S32, T_U64, T_S64, T_F16, T_F32, T_F64, T_PRED } ptype;

static ptype type_of(const char *w)
{
    static const struct {
        const char *w;
        ptype t;
    } names[] = {{"u16", T_U16}, {"b16", T_U16}, {"s16", T_S16}, {"u32", T_U32}, {"b32", T_U32},
                 {"s32", T_S32}, {"u64", T_U64}, {"b64", T_U64}, {"s64", T_S64}, {"f16", T_F16},
                 {"f32", T_F32}, {"f64", T_F64}, {"pred", T_PRED}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(w, names[i].w) == 0)
            return names[i].t;
    return T_NONE;
}

static const char *c_type(ptype t)
{
    switch (t) {
    case T_U16: case T_F16: return "unsigned short";
    case T_S16: return "short";
    case T_U32: return "unsigned int";
    case T_S32: return "int";
    case T_U64: return "unsigned long long";
    case T_S64: return "long long";
    case T_F32: return "float";
    case T_F64: return "double";
    default: return "unsigned int";
    }
}

static bool is_float(ptype t)
{
    return t == T_F32 || t == T_F64;
}

static ptype constraint_type(char c)
{
    switch (c) {
    case 'h': return T_U16;
    case 'l': return T_U64;
    case 'f': return T_F32;
    case 'd': return T_F64;
    case 'n': return T_S64;
    case 'c': return T_U16;
    default: return T_U32;
    }
}

/* ---- operands ------------------------------------------------------------------------ */

typedef struct insn {
    const operand *ops;
    int nops;
    char *word[8]; /* the opcode's parts: "shfl" "sync" "down" "b32" */
    int nwords;
    char *arg[8];  /* its operands as written */
    int nargs;
    ptype type;    /* the last type suffix */
    ptype type2;   /* the one before it (cvt's destination) */
} insn;

/* Operand i as written, or "" past the last (an error the translation then reports). */
static const char *opnd(const insn *in, int i)
{
    return i < in->nargs ? in->arg[i] : "";
}

static bool has_word(const insn *in, const char *w)
{
    for (int i = 1; i < in->nwords; i++)
        if (strcmp(in->word[i], w) == 0)
            return true;
    return false;
}

/* Whether a video instruction's types are all t, a whole 32-bit word, without .sat. */
static bool whole_word_video(const insn *in, ptype t)
{
    if ((t != T_U32 && t != T_S32) || has_word(in, "sat"))
        return false;
    for (int i = 1; i < in->nwords; i++)
        if (type_of(in->word[i]) != T_NONE && type_of(in->word[i]) != t)
            return false;
    return true;
}

/* The register named %N, or -1. */
static int reg_of(const char *s)
{
    if (s[0] != '%' || s[1] < '0' || s[1] > '9')
        return -1;
    char *end;
    long n = strtol(s + 1, &end, 10);
    return *end ? -1 : (int)n;
}

/* The index of the register s that the template declared (.reg), or -1. */
static int declared(const asm_text *a, const char *s)
{
    for (int i = a->nregs - 1; i >= 0; i--)
        if (strcmp(a->reg[i].name, s) == 0)
            return i;
    return -1;
}

/* A special register's value, or NULL. */
static const char *special(const char *s)
{
    static const struct {
        const char *name, *value;
    } regs[] = {
#define TID "(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z))"
#define LANE "(" TID " & 31u)"
        {"%laneid", LANE},
        {"%warpid", "(" TID " / 32u)"},
        {"%nwarpid", "((blockDim.x * blockDim.y * blockDim.z + 31u) / 32u)"},
        {"%lanemask_eq", "(1u << " LANE ")"},
        {"%lanemask_lt", "((1u << " LANE ") - 1u)"},
        {"%lanemask_le", "((unsigned)((2ull << " LANE ") - 1u))"},
        {"%lanemask_gt", "(~(unsigned)((2ull << " LANE ") - 1u))"},
        {"%lanemask_ge", "(~((1u << " LANE ") - 1u))"},
        {"%smid", "0u"},
        {"%nsmid", "1u"},
        {"%gridid", "0ull"},
        {"%clock", "((unsigned)clock())"},
        {"%clock64", "((unsigned long long)clock64())"},
        {"%globaltimer", "((unsigned long long)clock64())"},
        {"%tid.x", "threadIdx.x"}, {"%tid.y", "threadIdx.y"}, {"%tid.z", "threadIdx.z"},
        {"%ntid.x", "blockDim.x"}, {"%ntid.y", "blockDim.y"}, {"%ntid.z", "blockDim.z"},
        {"%ctaid.x", "blockIdx.x"}, {"%ctaid.y", "blockIdx.y"}, {"%ctaid.z", "blockIdx.z"},
        {"%nctaid.x", "gridDim.x"}, {"%nctaid.y", "gridDim.y"}, {"%nctaid.z", "gridDim.z"},
#undef LANE
#undef TID
    };
    for (size_t i = 0; i < sizeof regs / sizeof regs[0]; i++)
        if (strcmp(s, regs[i].name) == 0)
            return regs[i].value;
    return NULL;
}

/* Operand s read as a value of type t; NULL (a->refused set) when it cannot be. */
static const char *source(asm_text *a, const insn *in, const char *s, ptype t)
{
    lat__arena *ar = &a->p->u->arena;
    int r = reg_of(s), k = declared(a, s);
    if (k >= 0) {
        ptype d = (ptype)a->reg[k].type;
        if (t == T_F32 && !is_float(d))
            return lat__arena_printf(ar, "__uint_as_float((unsigned)__lat_r%d)", k);
        if (t == T_F64 && !is_float(d))
            return lat__arena_printf(ar, "__longlong_as_double((long long)__lat_r%d)", k);
        if (!is_float(t) && d == T_F32)
            return lat__arena_printf(ar, "((%s)__float_as_uint(__lat_r%d))", c_type(t), k);
        if (!is_float(t) && d == T_F64)
            return lat__arena_printf(ar, "((%s)__double_as_longlong(__lat_r%d))", c_type(t), k);
        return lat__arena_printf(ar, "((%s)__lat_r%d)", c_type(t), k);
    }
    if (r >= 0) {
        if (r >= in->nops) {
            a->refused = "an operand number beyond the operands given";
            return NULL;
        }
        ptype d = constraint_type(in->ops[r].constraint);
        if (in->ops[r].constraint == 'n')
            return lat__arena_printf(ar, "((%s)__lat_a%d)", c_type(t), r);
        if (t == T_F32 && !is_float(d))
            return lat__arena_printf(ar, "__uint_as_float((unsigned)__lat_a%d)", r);
        if (t == T_F64 && !is_float(d))
            return lat__arena_printf(ar, "__longlong_as_double((long long)__lat_a%d)", r);
        if (!is_float(t) && d == T_F32)
            return lat__arena_printf(ar, "((%s)__float_as_uint(__lat_a%d))", c_type(t), r);
        if (!is_float(t) && d == T_F64)
            return lat__arena_printf(ar, "((%s)__double_as_longlong(__lat_a%d))", c_type(t), r);
        return lat__arena_printf(ar, "((%s)__lat_a%d)", c_type(t), r);
    }
    const char *sp = special(s);
    if (sp)
        return lat__arena_printf(ar, "((%s)%s)", c_type(t), sp);
    /* immediates: 12, -3, 0x1f, 0f3F800000 (a float's bits), 0d... (a double's) */
    const char *q = s + (s[0] == '-');
    if ((q[0] == '0' && (q[1] == 'f' || q[1] == 'F')) && strlen(q) == 10)
        return lat__arena_printf(ar, "__uint_as_float(0x%su)", q + 2);
    if ((q[0] == '0' && (q[1] == 'd' || q[1] == 'D')) && strlen(q) == 18)
        return lat__arena_printf(ar, "__longlong_as_double(0x%sll)", q + 2);
    if (q[0] >= '0' && q[0] <= '9') {
        char *end;
        (void)strtoull(q, &end, 0);
        if (*end == '\0' || ((*end == 'U' || *end == 'u') && end[1] == '\0'))
            return lat__arena_printf(ar, "((%s)%s)", c_type(t), s);
    }
    a->refused = lat__arena_printf(ar, "the operand '%s'", s);
    return NULL;
}

/* A memory operand [%N], [%N+8]: the address as a char pointer; NULL when not one. */
static const char *address(asm_text *a, const insn *in, const char *s)
{
    size_t n = strlen(s);
    if (n < 3 || s[0] != '[' || s[n - 1] != ']') {
        a->refused = lat__arena_printf(&a->p->u->arena, "the address '%s'", s);
        return NULL;
    }
    char *inner = lat__arena_strndup(&a->p->u->arena, s + 1, n - 2);
    long off = 0;
    char *plus = strchr(inner, '+');
    if (plus) {
        *plus = '\0';
        off = strtol(plus + 1, NULL, 0);
    }
    const char *base = source(a, in, inner, T_U64);
    if (!base)
        return NULL;
    return lat__arena_printf(&a->p->u->arena, "((char *)%s + %ld)", base, off);
}

/* Writes value (of type t) to operand s, a register. */
static void dest(asm_text *a, const insn *in, const char *s, ptype t, const char *value)
{
    if (!value)
        return;
    int r = reg_of(s), k = declared(a, s);
    if (k >= 0) {
        ptype d = (ptype)a->reg[k].type;
        lat__arena *ar = &a->p->u->arena;
        const char *v = d == T_F32 && !is_float(t)   ? lat__arena_printf(ar, "__uint_as_float((unsigned)(%s))", value)
                        : d == T_F64 && !is_float(t) ? lat__arena_printf(ar, "__longlong_as_double((long long)(%s))", value)
                        : !is_float(d) && t == T_F32 ? lat__arena_printf(ar, "__float_as_uint(%s)", value)
                        : !is_float(d) && t == T_F64 ? lat__arena_printf(ar, "__double_as_longlong(%s)", value)
                                                     : value;
        put(a, lat__arena_printf(ar, " __lat_r%d = (%s)(%s);", k, d == T_PRED ? "int" : c_type(d), v));
        return;
    }
    if (r < 0 || r >= in->nops || !in->ops[r].output) {
        a->refused = lat__arena_printf(&a->p->u->arena, "the destination '%s' (not an output operand)", s);
        return;
    }
    ptype d = constraint_type(in->ops[r].constraint);
    lat__arena *ar = &a->p->u->arena;
    const char *v = value;
    if (d == T_F32 && !is_float(t))
        v = lat__arena_printf(ar, "__uint_as_float((unsigned)(%s))", value);
    else if (d == T_F64 && !is_float(t))
        v = lat__arena_printf(ar, "__longlong_as_double((long long)(%s))", value);
    else if (!is_float(d) && t == T_F32)
        v = lat__arena_printf(ar, "__float_as_uint(%s)", value);
    else if (!is_float(d) && t == T_F64)
        v = lat__arena_printf(ar, "__double_as_longlong(%s)", value);
    put(a, lat__arena_printf(ar, " __lat_a%d = (%s)(%s);", r, c_type(d), v));
}

/* ---- instructions -------------------------------------------------------------------- */

static const char *arg(asm_text *a, const insn *in, int i, ptype t)
{
    if (i >= in->nargs) {
        a->refused = "an instruction with too few operands";
        return NULL;
    }
    return source(a, in, in->arg[i], t);
}

static void binary(asm_text *a, const insn *in, const char *op)
{
    const char *x = arg(a, in, 1, in->type), *y = arg(a, in, 2, in->type);
    if (x && y)
        dest(a, in, opnd(in, 0), in->type,
             lat__arena_printf(&a->p->u->arena, "(%s)(%s %s %s)", c_type(in->type), x, op, y));
}

/* The parts of a vector operand "{%0,%1}" (up to 4) into part; their count, or 0 (a->refused
 * set) when s is not one. */
static int vector_parts(asm_text *a, const char *s, const char *part[4])
{
    lat__arena *ar = &a->p->u->arena;
    char *vec = s[0] == '{' ? lat__arena_strndup(ar, s + 1, strlen(s) - 1) : NULL;
    char *close = vec ? strchr(vec, '}') : NULL;
    int n = 0;
    char *save = NULL;
    if (close && !close[1]) {
        *close = '\0';
        for (char *w = strtok_r(vec, ",", &save); w && n < 5; w = strtok_r(NULL, ",", &save)) {
            if (n < 4)
                part[n] = w;
            n++;
        }
    }
    if (n != 2 && n != 4) {
        a->refused = lat__arena_printf(ar, "the vector operand '%s'", s);
        return 0;
    }
    return n;
}

/* mov.b64 {%0,%1}, %2 (a value's parts, lowest first) and mov.b64 %0, {%1,%2} (a value
 * made of parts), as PTX packs and unpacks: b64 into 2 x 32 or 4 x 16 bits, b32 into 2 x 16. */
static void vector_mov(asm_text *a, const insn *in)
{
    lat__arena *ar = &a->p->u->arena;
    bool unpack = opnd(in, 0)[0] == '{';
    const char *part[4];
    int n = vector_parts(a, opnd(in, unpack ? 0 : 1), part);
    int bits = in->type == T_U64 || in->type == T_S64 || in->type == T_F64 ? 64 : 32;
    if (!n)
        return;
    if (bits / n < 16) {
        a->refused = lat__arena_printf(ar, "the vector operand '%s'", opnd(in, unpack ? 0 : 1));
        return;
    }
    int w = bits / n;
    ptype pt = w == 16 ? T_U16 : T_U32, whole = bits == 64 ? T_U64 : T_U32;
    const char *wt = c_type(whole);
    if (unpack) {
        const char *x = arg(a, in, 1, whole);
        for (int i = 0; i < n && x; i++)
            dest(a, in, part[i], pt, lat__arena_printf(ar, "(%s)(%s >> %d)", c_type(pt), x, i * w));
        return;
    }
    const char *v = lat__arena_printf(ar, "(%s)0", wt);
    for (int i = 0; i < n; i++) {
        const char *x = source(a, in, part[i], pt);
        if (!x)
            return;
        v = lat__arena_printf(ar, "(%s | (%s)%s << %d)", v, wt, x, i * w);
    }
    dest(a, in, opnd(in, 0), whole, v);
}

/* add, sub, addc, subc, with .cc or without, and mad.lo/.hi.cc, madc.lo/.hi(.cc): bignum
 * arithmetic's carry chains. The carry flag is __lat_cf (the asm's, 0 at first);
 * subtraction's carry is its borrow, as PTX's: subc computes a - (b + CF); mad's adds c
 * to the product's low or high half. */
static void carry(asm_text *a, const insn *in)
{
    lat__arena *ar = &a->p->u->arena;
    const char *op = in->word[0];
    bool mad = op[0] == 'm', sub = op[0] == 's', in_cf = strlen(op) == 4, out_cf = has_word(in, "cc");
    bool wide = in->type == T_U64 || in->type == T_S64, sign = in->type == T_S32 || in->type == T_S64;
    const char *u = wide ? "unsigned long long" : "unsigned int";
    ptype ut = wide ? T_U64 : T_U32;
    const char *x = arg(a, in, 1, mad ? in->type : ut), *y = arg(a, in, 2, mad ? in->type : ut);
    if (!x || !y)
        return;
    if (mad) { /* the product's half, then add the third operand */
        x = has_word(in, "lo") ? lat__arena_printf(ar, "(%s)%s * (%s)%s", u, x, u, y)
                               : lat__arena_printf(ar, "(%s)__%smul%shi(%s, %s)", u, sign ? "" : "u", wide ? "64" : "",
                                                   x, y);
        if (!(y = arg(a, in, 3, ut)))
            return;
    }
    const char *cin = in_cf ? "__lat_cf" : "0u";
    const char *v = sub ? lat__arena_printf(ar, "({ %s __x = %s, __y = %s, __c = %s; %s__x - __y - __c; })", u, x, y,
                                            cin, out_cf ? "__lat_cf = __x < __y || (__c && __x == __y); " : "")
                        : lat__arena_printf(ar, "({ %s __x = %s, __y = %s, __c = %s, __s = __x + __y + __c; %s__s; })",
                                            u, x, y, cin, out_cf ? "__lat_cf = __s < __x || (__c && __s == __x); " : "");
    dest(a, in, opnd(in, 0), in->type, v);
}

/* The C++ of one instruction, appended to a; a->refused when it has none. */
static void translate(asm_text *a, insn *in)
{
    lat__arena *ar = &a->p->u->arena;
    const char *op = in->word[0];
    ptype t = in->type;
    const char *ct = c_type(t);
    bool mad_cc = (!strcmp(op, "mad") || !strcmp(op, "madc")) && (has_word(in, "lo") || has_word(in, "hi")) &&
                  (has_word(in, "cc") || op[3] == 'c') && in->nwords == 3 + has_word(in, "cc");
    bool add_cc = (!strcmp(op, "add") || !strcmp(op, "sub") || !strcmp(op, "addc") || !strcmp(op, "subc")) &&
                  (in->nwords == 2 || (in->nwords == 3 && has_word(in, "cc")));
    if ((add_cc || mad_cc) &&
        (t == T_U32 || t == T_S32 || t == T_U64 || t == T_S64)) {
        carry(a, in);
        return;
    }
    for (int i = 1; i < in->nwords; i++)
        if (!strcmp(in->word[i], "sat") || !strcmp(in->word[i], "cc") || !strcmp(in->word[i], "shiftamt") ||
            (strcmp(op, "prmt") && (!strcmp(in->word[i], "f4e") || !strcmp(in->word[i], "b4e")))) {
            a->refused = lat__arena_printf(ar, "the modifier '.%s'", in->word[i]);
            return;
        }
    /* the instructions that are one C operator on their type */
    static const struct {
        const char *ptx, *c;
    } operators[] = {{"add", "+"}, {"sub", "-"}, {"and", "&"}, {"or", "|"},
                     {"xor", "^"}, {"div", "/"}, {"rem", "%"}};
    for (size_t i = 0; i < sizeof operators / sizeof operators[0]; i++)
        if (!strcmp(op, operators[i].ptx)) {
            binary(a, in, operators[i].c);
            return;
        }
    if (!strcmp(op, "mov") && (opnd(in, 0)[0] == '{' || opnd(in, 1)[0] == '{')) {
        vector_mov(a, in);
    } else if (!strcmp(op, "mov") || !strcmp(op, "cvta")) {
        dest(a, in, opnd(in, 0), t, arg(a, in, 1, t));
    } else if (!strcmp(op, "shl") || !strcmp(op, "shr")) {
        /* PTX clamps the shift: past the width, all bits go (the sign's for s32) */
        const char *x = arg(a, in, 1, t), *y = arg(a, in, 2, T_U32);
        int bits = t == T_U64 || t == T_S64 ? 64 : t == T_U16 || t == T_S16 ? 16 : 32;
        bool sign = t == T_S16 || t == T_S32 || t == T_S64;
        if (x && y)
            dest(a, in, opnd(in, 0), t,
                 !strcmp(op, "shl") ? lat__arena_printf(ar, "(%s)(%s >= %du ? 0 : %s << %s)", ct, y, bits, x, y)
                 : sign ? lat__arena_printf(ar, "(%s)(%s >> (%s >= %du ? %du : %s))", ct, x, y, bits, bits - 1, y)
                        : lat__arena_printf(ar, "(%s)(%s >= %du ? 0 : %s >> %s)", ct, y, bits, x, y));
    } else if (!strcmp(op, "not")) {
        const char *x = arg(a, in, 1, t);
        dest(a, in, opnd(in, 0), t, x ? lat__arena_printf(ar, "(%s)(~%s)", ct, x) : NULL);
    } else if (!strcmp(op, "neg")) {
        const char *x = arg(a, in, 1, t);
        dest(a, in, opnd(in, 0), t, x ? lat__arena_printf(ar, "(%s)(-%s)", ct, x) : NULL);
    } else if (!strcmp(op, "abs")) {
        const char *x = arg(a, in, 1, t);
        dest(a, in, opnd(in, 0), t, x ? lat__arena_printf(ar, "(%s)(%s < 0 ? -%s : %s)", ct, x, x, x) : NULL);
    } else if (!strcmp(op, "min") || !strcmp(op, "max")) {
        const char *x = arg(a, in, 1, t), *y = arg(a, in, 2, t);
        if (x && y)
            dest(a, in, opnd(in, 0), t,
                 is_float(t) ? lat__arena_printf(ar, "f%s%s(%s, %s)", op, t == T_F32 ? "f" : "", x, y)
                             : lat__arena_printf(ar, "(%s)(%s %s %s ? %s : %s)", ct, x, op[1] == 'i' ? "<" : ">",
                                                 y, x, y));
    } else if (!strcmp(op, "mul") || !strcmp(op, "mad")) {
        bool mad = op[1] == 'a';
        const char *x = arg(a, in, 1, t), *y = arg(a, in, 2, t), *z = mad ? arg(a, in, 3, T_NONE) : "";
        if (!x || !y || !z)
            return;
        const char *v;
        if (has_word(in, "wide")) {
            ptype w = t == T_S32 ? T_S64 : t == T_U32 ? T_U64 : t == T_S16 ? T_S32 : T_U32;
            v = lat__arena_printf(ar, "(%s)%s * (%s)%s", c_type(w), x, c_type(w), y);
            if (mad && !(z = arg(a, in, 3, w)))
                return;
            t = w;
        } else if (has_word(in, "hi")) {
            v = t == T_U32 ? lat__arena_printf(ar, "__umulhi(%s, %s)", x, y)
                : t == T_S32 ? lat__arena_printf(ar, "__mulhi(%s, %s)", x, y)
                : t == T_U64 ? lat__arena_printf(ar, "__umul64hi(%s, %s)", x, y)
                             : lat__arena_printf(ar, "__mul64hi(%s, %s)", x, y);
            if (mad && !(z = arg(a, in, 3, t)))
                return;
        } else {
            v = lat__arena_printf(ar, "%s * %s", x, y);
            if (mad && !(z = arg(a, in, 3, t)))
                return;
        }
        if (is_float(t) && mad)
            v = lat__arena_printf(ar, "%s(%s, %s, %s)", t == T_F32 ? "fmaf" : "fma", x, y, z);
        else if (mad)
            v = lat__arena_printf(ar, "(%s) + %s", v, z);
        dest(a, in, opnd(in, 0), t, lat__arena_printf(ar, "(%s)(%s)", c_type(t), v));
    } else if (!strcmp(op, "fma")) {
        const char *x = arg(a, in, 1, t), *y = arg(a, in, 2, t), *z = arg(a, in, 3, t);
        if (x && y && z)
            dest(a, in, opnd(in, 0), t, lat__arena_printf(ar, "%s(%s, %s, %s)", t == T_F32 ? "fmaf" : "fma", x, y, z));
    } else if (!strcmp(op, "rcp") || !strcmp(op, "sqrt") || !strcmp(op, "rsqrt") || !strcmp(op, "ex2") ||
               !strcmp(op, "lg2") || !strcmp(op, "sin") || !strcmp(op, "cos") || !strcmp(op, "tanh")) {
        const char *x = arg(a, in, 1, t);
        const char *f = !strcmp(op, "rcp") ? "1.0f / " : !strcmp(op, "sqrt") ? "sqrtf" : !strcmp(op, "rsqrt") ? "rsqrtf"
                        : !strcmp(op, "ex2") ? "exp2f" : !strcmp(op, "lg2") ? "log2f" : !strcmp(op, "sin") ? "__sinf"
                        : !strcmp(op, "cos") ? "__cosf" : "tanhf";
        if (t == T_F64)
            f = !strcmp(op, "rcp") ? "1.0 / " : !strcmp(op, "sqrt") ? "sqrt" : !strcmp(op, "rsqrt") ? "rsqrt" : NULL;
        if (!f) {
            a->refused = lat__arena_printf(ar, "'%s' on f64", op);
            return;
        }
        if (x)
            dest(a, in, opnd(in, 0), t, lat__arena_printf(ar, "%s(%s)", f, x));
    } else if (!strcmp(op, "brev") || !strcmp(op, "popc") || !strcmp(op, "clz")) {
        bool wide = t == T_U64 || t == T_S64;
        const char *x = arg(a, in, 1, t);
        if (x)
            dest(a, in, opnd(in, 0), !strcmp(op, "brev") ? t : T_U32,
                 lat__arena_printf(ar, "__%s%s(%s)", op, wide ? "ll" : "", x));
    } else if (!strcmp(op, "bfind")) {
        const char *x = arg(a, in, 1, t);
        if (x && (t == T_U32 || t == T_U64))
            dest(a, in, opnd(in, 0), T_U32,
                 lat__arena_printf(ar, "(%s == 0 ? 0xffffffffu : %du - (unsigned)__clz%s(%s))", x,
                                   t == T_U64 ? 63 : 31, t == T_U64 ? "ll" : "", x));
        else if (x)
            a->refused = "bfind of a signed type";
    } else if (!strcmp(op, "bfe")) {
        const char *x = arg(a, in, 1, t), *pos = arg(a, in, 2, T_U32), *len = arg(a, in, 3, T_U32);
        if (!x || !pos || !len)
            return;
        int msb = t == T_U64 || t == T_S64 ? 63 : 31;
        bool sign = t == T_S32 || t == T_S64;
        const char *u = msb == 63 ? "unsigned long long" : "unsigned int";
        /* PTX's definition, bit by bit: pos and len mod 256; past the field (or the
         * source's top), the field's top bit for a signed type, else 0; an empty field
         * (len 0) extends no sign: the H100 gives 0 */
        const char *v = lat__arena_printf(
            ar,
            "({ %s __x = (%s)%s; unsigned __p = %s & 0xffu, __l = %s & 0xffu; %s __r = 0; "
            "unsigned __top = __p + __l - 1u < %du ? __p + __l - 1u : %du; "
            "unsigned __sb = %s && __l ? (unsigned)((__x >> __top) & 1u) : 0u; "
            "for (unsigned __i = 0; __i <= %du; __i++) "
            "__r |= (%s)((__i < __l && __p + __i <= %du) ? (unsigned)((__x >> (__p + __i)) & 1u) : __sb) << __i; "
            "__r; })",
            u, u, x, pos, len, u, msb, msb, sign ? "1" : "0", msb, u, msb);
        dest(a, in, opnd(in, 0), t, v);
    } else if (!strcmp(op, "bfi")) {
        const char *f = arg(a, in, 1, t), *b = arg(a, in, 2, t), *pos = arg(a, in, 3, T_U32),
                   *len = arg(a, in, 4, T_U32);
        if (!f || !b || !pos || !len)
            return;
        int bits = t == T_U64 || t == T_S64 ? 64 : 32;
        const char *u = bits == 64 ? "unsigned long long" : "unsigned int";
        dest(a, in, opnd(in, 0), t,
             lat__arena_printf(ar,
                               "({ unsigned __p = %s & 0xff, __l = %s & 0xff; %s __b = (%s)%s; if (__p < %du && __l) { "
                               "%s __m = (__l >= %du ? ~(%s)0 : ((%s)1 << __l) - 1) << __p; "
                               "__b = (__b & ~__m) | (((%s)%s << __p) & __m); } __b; })",
                               pos, len, u, u, b, bits, u, bits, u, u, u, f));
    } else if (!strcmp(op, "prmt")) {
        /* prmt.b32{.mode} d, a, b, c over the bytes {b, a} = b7..b0. Without a mode each nibble
         * of c picks a byte by its 3 low bits, and its bit 3 replicates the picked byte's sign
         * over the result byte (which __byte_perm, masking the nibble with 7, does not). A mode
         * picks one of four fixed selectors by c's 2 low bits (PTX ISA, prmt): these are those
         * selectors, 16 bits each, the one for c & 3 == 0 lowest. */
        static const struct {
            const char *mode;
            unsigned long long selectors;
        } modes[] = {{"f4e", 0x6543543243213210ull}, {"b4e", 0x0123701267015670ull},
                     {"rc8", 0x3333222211110000ull}, {"ecl", 0x3333322232113210ull},
                     {"ecr", 0x3210221011100000ull}, {"rc16", 0x3232101032321010ull}};
        const char *x = arg(a, in, 1, T_U32), *y = arg(a, in, 2, T_U32), *s = arg(a, in, 3, T_U32);
        if (!x || !y || !s)
            return;
        if (in->nwords == 2) {
            dest(a, in, opnd(in, 0), T_U32,
                 lat__arena_printf(ar,
                                   "({ unsigned long long __v = ((unsigned long long)%s << 32) | %s; "
                                   "unsigned __s = %s, __r = 0; for (int __i = 0; __i < 4; __i++) { "
                                   "unsigned __c = (__s >> (4 * __i)) & 15u, __b = (unsigned)(__v >> (8 * (__c & 7u))) & 0xffu; "
                                   "if (__c & 8u) __b = __b & 0x80u ? 0xffu : 0u; __r |= __b << (8 * __i); } __r; })",
                                   y, x, s));
            return;
        }
        for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
            if (in->nwords == 3 && has_word(in, modes[i].mode)) {
                dest(a, in, opnd(in, 0), T_U32,
                     lat__arena_printf(ar, "__byte_perm(%s, %s, (unsigned)(0x%llxull >> (16 * (%s & 3u))) & 0xffffu)",
                                       x, y, modes[i].selectors, s));
                return;
            }
        a->refused = "prmt with a mode other than .f4e .b4e .rc8 .ecl .ecr .rc16";
    } else if (!strcmp(op, "cvt")) {
        ptype to = in->type2, from = t;
        if (to == T_NONE) {
            a->refused = "cvt without two types";
            return;
        }
        const char *v = NULL;
        if ((to == T_F16 || from == T_F16) &&
            !lat__lookup(a->p, lat__atom_get(&a->p->u->atoms, "__float2half_rn", 15))) {
            a->refused = "cvt to or from f16 without cuda_fp16.h included";
            return;
        }
        if (to == T_F16 && from == T_F32) {
            const char *x = arg(a, in, 1, T_F32);
            v = x ? lat__arena_printf(ar, "__half_as_ushort(__float2half_rn(%s))", x) : NULL;
        } else if (to == T_F32 && from == T_F16) {
            const char *x = arg(a, in, 1, T_U16);
            v = x ? lat__arena_printf(ar, "__half2float(__ushort_as_half(%s))", x) : NULL;
        } else if (is_float(from) && !is_float(to)) {
            const char *x = arg(a, in, 1, from);
            const char *f = has_word(in, "rni") ? "rint" : has_word(in, "rmi") ? "floor" : has_word(in, "rpi") ? "ceil"
                                                                                                               : "trunc";
            v = x ? lat__arena_printf(ar, "(%s)%s%s(%s)", c_type(to), f, from == T_F32 ? "f" : "", x) : NULL;
        } else if (to == T_F16 || from == T_F16) {
            a->refused = "cvt between f16 and an integer or f64";
            return;
        } else {
            const char *x = arg(a, in, 1, from);
            v = x ? lat__arena_printf(ar, "(%s)%s", c_type(to), x) : NULL;
        }
        dest(a, in, opnd(in, 0), to == T_F16 ? T_U16 : to, v);
    } else if (!strcmp(op, "ld") || !strcmp(op, "st")) {
        bool load = op[0] == 'l';
        const char *addr = address(a, in, opnd(in, load ? 1 : 0));
        if (!addr)
            return;
        bool vol = has_word(in, "volatile");
        const char *ptr = lat__arena_printf(ar, "(%s%s *)%s", vol ? "volatile " : "", ct, addr);
        if (has_word(in, "v2") || has_word(in, "v4")) {
            /* ld.v4.f32 {%0,%1,%2,%3}, [%4]; st.v2.u32 [%0], {%1,%2}: consecutive elements */
            const char *part[4];
            int n = vector_parts(a, opnd(in, load ? 0 : 1), part);
            if (n != (has_word(in, "v2") ? 2 : 4)) {
                if (n)
                    a->refused = lat__arena_printf(ar, "the vector operand '%s'", opnd(in, load ? 0 : 1));
                return;
            }
            for (int i = 0; i < n; i++) {
                const char *v = load ? NULL : source(a, in, part[i], t);
                if (load)
                    dest(a, in, part[i], t, lat__arena_printf(ar, "(%s)[%d]", ptr, i));
                else if (v)
                    put(a, lat__arena_printf(ar, " (%s)[%d] = %s;", ptr, i, v));
            }
        } else if (load && has_word(in, "nc"))
            dest(a, in, opnd(in, 0), t, lat__arena_printf(ar, "(*(const %s *)%s)", ct, addr));
        else if (load)
            dest(a, in, opnd(in, 0), t, lat__arena_printf(ar, "*%s", ptr));
        else {
            const char *v = arg(a, in, 1, t);
            if (v)
                put(a, lat__arena_printf(ar, " *%s = %s;", ptr, v));
        }
    } else if (!strcmp(op, "shfl")) {
        if (!has_word(in, "sync")) {
            a->refused = "shfl without .sync";
            return;
        }
        if (strchr(opnd(in, 0), '|')) {
            a->refused = "shfl with a predicate output";
            return;
        }
        const char *v = arg(a, in, 1, T_U32), *lane = arg(a, in, 2, T_U32), *c = arg(a, in, 3, T_U32),
                   *m = arg(a, in, 4, T_U32);
        if (!v || !lane || !c || !m)
            return;
        const char *f = has_word(in, "idx") ? "__shfl_sync" : has_word(in, "up") ? "__shfl_up_sync"
                        : has_word(in, "down") ? "__shfl_down_sync" : "__shfl_xor_sync";
        /* c's segment mask gives the width: 32 - (c >> 8) lanes a segment */
        dest(a, in, opnd(in, 0), T_U32,
             lat__arena_printf(ar, "%s(%s, %s, %s, 32 - ((%s >> 8) & 31))", f, m, v, lane, c));
    } else if (!strcmp(op, "vote")) {
        /* vote.sync.ballot.b32 d, {!}p, mask votes on a .pred register: an operand %N is no
         * predicate (ptxas refuses it, "Arguments mismatch"; setp.ne.u32 p, %N, 0 makes one) */
        const char *p = opnd(in, 1);
        bool negated = p[0] == '!';
        int k = declared(a, p + negated);
        if (!has_word(in, "ballot") || !has_word(in, "sync") || in->nargs != 3 || k < 0 ||
            a->reg[k].type != T_PRED) {
            a->refused = "vote other than vote.sync.ballot.b32 d, p, mask of a .reg .pred p (an operand %N is no "
                         "predicate, ptxas refuses it there: setp.ne.u32 p, %N, 0 makes one)";
            return;
        }
        const char *x = source(a, in, p + negated, T_U32), *m = arg(a, in, 2, T_U32);
        if (x && m)
            dest(a, in, opnd(in, 0), T_U32,
                 lat__arena_printf(ar, "__ballot_sync(%s, %s%s)", m, negated ? "!" : "", x));
    } else if (!strcmp(op, "activemask")) {
        dest(a, in, opnd(in, 0), T_U32, "__activemask()");
    } else if (!strcmp(op, "membar") || !strcmp(op, "fence")) {
        put(a, has_word(in, "cta") ? " __threadfence_block();" : has_word(in, "sys") ? " __threadfence_system();"
                                                                                      : " __threadfence();");
    } else if ((!strcmp(op, "bar") || !strcmp(op, "barrier")) && has_word(in, "warp")) {
        const char *m = in->nargs ? arg(a, in, 0, T_U32) : "0xffffffffu";
        if (m)
            put(a, lat__arena_printf(ar, " __syncwarp(%s);", m));
    } else if (!strcmp(op, "bar") || !strcmp(op, "barrier")) {
        if (in->nargs != 1 || strcmp(opnd(in, 0), "0") != 0 || !(has_word(in, "sync") || in->nwords == 1)) {
            a->refused = "a named barrier or one with a thread count (only bar.sync 0)";
            return;
        }
        put(a, " __syncthreads();");
    } else if (!strcmp(op, "atom") || !strcmp(op, "red")) {
        bool red = op[0] == 'r';
        static const struct {
            const char *w, *f;
        } ops[] = {{"add", "atomicAdd"}, {"min", "atomicMin"}, {"max", "atomicMax"}, {"inc", "atomicInc"},
                   {"dec", "atomicDec"}, {"and", "atomicAnd"}, {"or", "atomicOr"}, {"xor", "atomicXor"},
                   {"exch", "atomicExch"}, {"cas", "atomicCAS"}};
        const char *f = NULL;
        bool cas = false;
        for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
            if (has_word(in, ops[i].w)) {
                f = ops[i].f;
                cas = i == 9;
            }
        if (!f || (red && cas)) {
            a->refused = "this atomic operation";
            return;
        }
        int at = red ? 0 : 1;
        const char *addr = address(a, in, opnd(in, at));
        const char *b = addr ? arg(a, in, at + 1, t) : NULL, *c = cas && b ? arg(a, in, at + 2, t) : "";
        if (!b || !c)
            return;
        ptype ut = t == T_S32 ? T_S32 : t == T_U64 || t == T_S64 ? T_U64 : t;
        const char *call = cas ? lat__arena_printf(ar, "%s((%s *)%s, %s, %s)", f, c_type(ut), addr, b, c)
                               : lat__arena_printf(ar, "%s((%s *)%s, %s)", f, c_type(ut), addr, b);
        if (red)
            put(a, lat__arena_printf(ar, " %s;", call));
        else
            dest(a, in, opnd(in, 0), t, call);
    } else if (!strcmp(op, "nanosleep")) {
        const char *x = arg(a, in, 0, T_U32);
        if (x)
            put(a, lat__arena_printf(ar, " __nanosleep(%s);", x));
    } else if (!strcmp(op, "trap")) {
        put(a, " __trap();");
    } else if (!strcmp(op, "prefetch") || !strcmp(op, "prefetchu")) {
        /* a hint: nothing to do */
    } else if (!strcmp(op, "setp")) {
        /* setp.CMP.TYPE p, a, b: a declared predicate; no second predicate, no .and/.or */
        static const struct {
            const char *ptx, *c;
        } cmps[] = {{"eq", "=="}, {"ne", "!="}, {"lt", "<"}, {"le", "<="}, {"gt", ">"}, {"ge", ">="},
                    {"lo", "<"},  {"ls", "<="}, {"hi", ">"}, {"hs", ">="}};
        const char *c = NULL, *w = in->nwords > 1 ? in->word[1] : "";
        /* floats: equ neu ltu leu gtu geu also hold where either is NaN; num, nan */
        size_t wl = strlen(w);
        bool unordered = is_float(t) && wl == 3 && w[2] == 'u';
        char base[3] = {w[0], wl >= 2 ? w[1] : '\0', '\0'};
        for (size_t i = 0; i < sizeof cmps / sizeof cmps[0] && (wl == 2 || unordered); i++)
            if (!strcmp(base, cmps[i].ptx) && (i < 6 || !is_float(t)))
                c = cmps[i].c;
        if (is_float(t) && (!strcmp(w, "num") || !strcmp(w, "nan")))
            c = w;
        int k = declared(a, opnd(in, 0));
        if (!c || in->nargs != 3 || k < 0 || a->reg[k].type != T_PRED) {
            a->refused = "setp other than setp.CMP.TYPE p, a, b (CMP eq ne lt le gt ge lo ls hi hs, their "
                         "unordered forms, num, nan; p a .reg .pred)";
            return;
        }
        const char *x = arg(a, in, 1, t), *y = arg(a, in, 2, t);
        const char *nan = x && y ? lat__arena_printf(ar, "(%s != %s || %s != %s)", x, x, y, y) : NULL;
        if (x && y)
            dest(a, in, opnd(in, 0), T_PRED,
                 c == w       ? lat__arena_printf(ar, "%s%s", w[1] == 'u' ? "!" : "", nan)
                 : unordered  ? lat__arena_printf(ar, "(%s || %s %s %s)", nan, x, c, y)
                 : is_float(t) && !strcmp(c, "!=") ? lat__arena_printf(ar, "(!%s && %s != %s)", nan, x, y)
                              : lat__arena_printf(ar, "%s %s %s", x, c, y));
    } else if (!strcmp(op, "selp")) {
        const char *x = arg(a, in, 1, t), *y = arg(a, in, 2, t), *c = arg(a, in, 3, T_PRED);
        if (x && y && c)
            dest(a, in, opnd(in, 0), t, lat__arena_printf(ar, "(%s ? %s : %s)", c, x, y));
    } else if ((!strcmp(op, "vabsdiff4") || !strcmp(op, "vabsdiff2")) && has_word(in, "add") &&
               in->type2 != T_NONE && (t == T_U32 || t == T_S32) && in->type2 == t) {
        /* vabsdiff4.u32.u32.u32.add d, a, b, c: c plus the sum of the bytes' (halves')
         * absolute differences, the SIMD video intrinsics' sums of absolute differences */
        const char *x = arg(a, in, 1, t), *y = arg(a, in, 2, t), *z = arg(a, in, 3, T_U32);
        if (x && y && z)
            dest(a, in, opnd(in, 0), T_U32,
                 lat__arena_printf(ar, "(__vsad%s%c(%s, %s) + %s)", t == T_S32 ? "s" : "u", op[8], x, y, z));
    } else if ((!strcmp(op, "vadd") || !strcmp(op, "vsub") || !strcmp(op, "vmin") || !strcmp(op, "vmax") ||
                !strcmp(op, "vshl") || !strcmp(op, "vshr")) &&
               whole_word_video(in, t)) {
        /* scalar video instructions on whole words of one type, no .sat, as CUB's IADD3
         * (vadd.u32.u32.u32.add d, a, b, c: a + b + c), SHL_ADD and SHR_ADD
         * (vshl.u32.u32.u32.clamp.add) write them; a shift clamps its count to 32 unless
         * .wrap, and a secondary .add, .min or .max applies c */
        const char *second = has_word(in, "add") ? "+" : has_word(in, "min") ? "<" : has_word(in, "max") ? ">" : NULL;
        if (in->nargs != (second ? 4 : 3)) {
            a->refused = "a video instruction other than OP.T.T.T d, a, b or OP.T.T.T.{add,min,max} d, a, b, c";
            return;
        }
        const char *x = arg(a, in, 1, t), *y = arg(a, in, 2, op[2] == 'h' ? T_U32 : t);
        const char *z = second ? arg(a, in, 3, t) : "";
        if (!x || !y || !z)
            return;
        /* OP(a, b) and the secondary operation are computed wide, as PTX's 34-bit
         * intermediate; the 32 bits kept at the end */
        const char *vt = c_type(t), *ext = t == T_S32 ? "(long long)(int)" : "(long long)(unsigned)", *r;
        bool wrap = has_word(in, "wrap");
        if (!strcmp(op, "vadd") || !strcmp(op, "vsub"))
            r = lat__arena_printf(ar, "(%s(%s) %c %s(%s))", ext, x, op[1] == 'a' ? '+' : '-', ext, y);
        else if (!strcmp(op, "vmin") || !strcmp(op, "vmax"))
            r = lat__arena_printf(ar, "((%s) %c (%s) ? %s(%s) : %s(%s))", x, op[2] == 'i' ? '<' : '>', y, ext, x,
                                  ext, y);
        else if (wrap)
            r = lat__arena_printf(ar, "%s((%s)(%s) %s ((%s) & 31u))", ext, op[3] == 'l' ? "unsigned" : vt, x,
                                  op[3] == 'l' ? "<<" : ">>", y);
        else if (op[3] == 'l')
            r = lat__arena_printf(ar, "%s((%s) >= 32u ? 0u : (unsigned)(%s) << (%s))", ext, y, x, y);
        else /* a count of 32 or more leaves the sign (s32) or nothing (u32) */
            r = lat__arena_printf(ar, "%s((%s) >= 32u ? (%s) >> 31 >> %d : (%s) >> (%s))", ext, y, x,
                                  t == T_U32, x, y);
        if (second && second[0] == '+')
            r = lat__arena_printf(ar, "(%s + %s(%s))", r, ext, z);
        else if (second)
            r = lat__arena_printf(ar, "(%s %s %s(%s) ? %s : %s(%s))", r, second, ext, z, r, ext, z);
        r = lat__arena_printf(ar, "(%s)(unsigned)%s", vt, r);
        dest(a, in, opnd(in, 0), t, r);
    } else if (!strcmp(op, "shf") && (has_word(in, "l") || has_word(in, "r")) && t == T_U32) {
        /* shf.{l,r}.{wrap,clamp}.b32 d, lo, hi, n: the funnel shift intrinsics */
        const char *lo = arg(a, in, 1, T_U32), *hi = arg(a, in, 2, T_U32), *n = arg(a, in, 3, T_U32);
        if (lo && hi && n)
            dest(a, in, opnd(in, 0), T_U32,
                 lat__arena_printf(ar, "__funnelshift_%s%s(%s, %s, %s)", has_word(in, "l") ? "l" : "r",
                                   has_word(in, "clamp") ? "c" : "", lo, hi, n));
    } else if (!strcmp(op, "lop3") && t == T_U32) {
        /* lop3.b32 d, a, b, c, lut: bit i of lut is F's value where a, b, c are bits 2, 1, 0 of i */
        const char *x = arg(a, in, 1, T_U32), *y = arg(a, in, 2, T_U32), *z = arg(a, in, 3, T_U32),
                   *lut = arg(a, in, 4, T_U32);
        if (x && y && z && lut)
            dest(a, in, opnd(in, 0), T_U32,
                 lat__arena_printf(ar,
                                   "({ unsigned __a = %s, __b = %s, __c = %s, __f = %s, __r = 0; "
                                   "for (unsigned __i = 0; __i < 8u; __i++) if (__f >> __i & 1u) "
                                   "__r |= (__i & 4u ? __a : ~__a) & (__i & 2u ? __b : ~__b) & (__i & 1u ? __c : ~__c); "
                                   "__r; })",
                                   x, y, z, lut));
    } else {
        a->refused = lat__arena_printf(ar, "the instruction '%s'", op);
    }
}

/* Splits one instruction's text ("shfl.sync.down.b32 %0, %1, %2, %3, %4") into in. */
static bool split(asm_text *a, char *text, insn *in)
{
    while (*text == ' ')
        text++;
    if (*text == '@' || *text == '{' || *text == '}' || *text == '.') {
        a->refused = *text == '@' ? "a predicated instruction" : *text == '.' ? "a directive (.reg...)" : "a block { }";
        return false;
    }
    char *sp = strchr(text, ' ');
    char *ops = sp ? sp + 1 : NULL;
    if (sp)
        *sp = '\0';
    in->nwords = 0;
    char *save = NULL; /* strtok_r: modules compile on any thread */
    for (char *w = strtok_r(text, ".", &save); w && in->nwords < 8; w = strtok_r(NULL, ".", &save))
        in->word[in->nwords++] = w;
    in->type = in->type2 = T_NONE;
    for (int i = 1; i < in->nwords; i++) {
        ptype t = type_of(in->word[i]);
        if (t != T_NONE) {
            in->type2 = in->type;
            in->type = t;
        }
    }
    if (in->type == T_NONE)
        in->type = T_U32;
    in->nargs = 0;
    while (ops && *ops && in->nargs < 8) {
        while (*ops == ' ')
            ops++;
        char *comma = strchr(ops, ',');
        char *bracket = strchr(ops, '[');
        if (*ops == '{' && strchr(ops, '}')) /* a vector {%0,%1}: one operand */
            comma = strchr(strchr(ops, '}'), ',');
        if (bracket && (!comma || bracket < comma)) /* [%1+8] holds no comma, but be sure */
            comma = strchr(strchr(ops, ']') ? strchr(ops, ']') : ops, ',');
        if (comma)
            *comma = '\0';
        char *end = ops + strlen(ops);
        while (end > ops && end[-1] == ' ')
            *--end = '\0';
        /* "%r1" style register names are PTX's own, not operands: not ours to read */
        char *o = ops, *w = ops;
        for (; *o; o++) /* operands written with spaces inside brackets: [ %1 ] */
            if (*o != ' ')
                *w++ = *o;
        *w = '\0';
        if (*ops)
            in->arg[in->nargs++] = ops;
        ops = comma ? comma + 1 : NULL;
    }
    return in->nwords > 0;
}

/* `.reg .TYPE a, b, t<4>`: C locals __lat_rN for each, zero at first. */
static void declare(asm_text *a, char *text)
{
    lat__arena *ar = &a->p->u->arena;
    char *type = text + 4;
    while (*type == ' ')
        type++;
    char *sp = strchr(type, ' ');
    if (strncmp(text, ".reg ", 5) != 0 || *type != '.' || !sp) {
        a->refused = lat__arena_printf(ar, "the directive '%s'", text);
        return;
    }
    *sp = '\0';
    ptype t = type_of(type + 1);
    if (t == T_NONE || t == T_F16) {
        a->refused = lat__arena_printf(ar, "registers of type '%s'", type);
        return;
    }
    char *save = NULL;
    for (char *n = strtok_r(sp + 1, ", ", &save); n && !a->refused; n = strtok_r(NULL, ", ", &save)) {
        char *lt = strchr(n, '<');
        int count = lt ? atoi(lt + 1) : 1;
        if (lt)
            *lt = '\0';
        for (int i = 0; i < count; i++) {
            if (a->nregs == MAX_REGS || count > MAX_REGS) {
                a->refused = "more than 64 .reg registers";
                return;
            }
            a->reg[a->nregs].name = lt ? lat__arena_printf(ar, "%s%d", n, i) : n;
            a->reg[a->nregs].type = t;
            put(a, lat__arena_printf(ar, " %s __lat_r%d = 0;", t == T_PRED ? "int" : c_type(t), a->nregs));
            a->nregs++;
        }
    }
}

/* One instruction of the template (its ';' gone): `{` and `}` open and close a scope, a
 * `.reg` declares registers, `@p` / `@!p` runs the instruction only where p holds. */
static void statement(asm_text *a, insn *in, char *t)
{
    for (char *c = t; *c; c++)
        if (*c == '\t')
            *c = ' ';
    while (*t == ' ' || *t == '{' || *t == '}') {
        if (*t == '}' && a->depth == 0) {
            a->refused = "a '}' closing no '{'";
            return;
        }
        if (*t == '{' && a->depth == 16) {
            a->refused = "more than 16 nested '{'";
            return;
        }
        if (*t == '{')
            a->mark[a->depth++] = a->nregs;
        else if (*t == '}')
            a->nregs = a->mark[--a->depth]; /* its registers end with it */
        if (*t == '{' || *t == '}')
            put(a, *t == '{' ? " {" : " }");
        t++;
    }
    if (!*t)
        return;
    if (*t == '.') {
        declare(a, t);
        return;
    }
    char *cond = NULL;
    if (*t == '@') {
        char *sp = strchr(t, ' ');
        if (!sp) {
            a->refused = "a predicated instruction";
            return;
        }
        *sp = '\0';
        bool neg = t[1] == '!';
        int k = declared(a, t + 1 + neg);
        if (k < 0 || a->reg[k].type != T_PRED) {
            a->refused = "a predicated instruction";
            return;
        }
        cond = lat__arena_printf(&a->p->u->arena, " if (%s__lat_r%d) {", neg ? "!" : "", k);
        t = sp + 1;
    }
    if (cond)
        put(a, cond);
    if (split(a, t, in))
        translate(a, in);
    if (cond)
        put(a, " }");
}

/* PTX's comments (// to the line's end, / * ... * /) become spaces, in place. */
static void strip_comments(char *s)
{
    while (*s) {
        if (s[0] == '/' && s[1] == '/') {
            while (*s && *s != '\n')
                *s++ = ' ';
        } else if (s[0] == '/' && s[1] == '*') {
            char *end = strstr(s + 2, "*/");
            char *stop = end ? end + 2 : s + strlen(s);
            while (s < stop)
                *s++ = ' ';
        } else {
            s++;
        }
    }
}

/* The template's text: its string literals joined and unescaped ("%%" is PTX's "%"). */
static char *template_text(lat__parser *p, size_t from, size_t to)
{
    size_t total = 1;
    for (size_t i = from; i < to; i++)
        total += p->toks[i].len;
    char *out = lat__arena_alloc(&p->u->arena, total), *w = out;
    for (size_t i = from; i < to; i++) {
        const lat__tok *t = &p->toks[i];
        const char *s = memchr(t->text, '"', t->len);
        if (!s)
            continue;
        const char *end = t->text + t->len - 1; /* the closing quote */
        for (s++; s < end; s++) {
            if (*s == '\\' && s + 1 < end) {
                s++;
                *w++ = *s == 'n' ? '\n' : *s == 't' ? ' ' : *s;
            } else if (*s == '%' && s + 1 < end && s[1] == '%') {
                *w++ = '%'; /* %% is PTX's own %: %%laneid */
                s++;
            } else {
                *w++ = *s;
            }
        }
    }
    *w = '\0';
    return out;
}

/* `asm [volatile] ( "template" [: outputs [: inputs [: clobbers]]] );` at the keyword. */
lat__stmt *lat__parse_asm(lat__parser *p)
{
    lat__tok *kw = lat__next(p);
    while (lat__at_kw(p, LAT_KW_VOLATILE) || lat__at_kw(p, LAT_KW_VOLATILE2) || lat__at_kw(p, LAT_KW_INLINE))
        lat__next(p);
    if (lat__at_kw(p, LAT_KW_GOTO)) {
        lat__unsupported(p, kw, "inline PTX assembly with goto (asm goto)", "the emulator runs no PTX branches");
        lat__next(p);
        if (lat__at_punct(p, LAT_P_LPAREN))
            lat__skip_group(p);
        lat__accept(p, LAT_P_SEMI);
        return lat__stmt_new(p, LAT_S_ASM, kw->loc);
    }
    if (!lat__expect(p, LAT_P_LPAREN, "after asm"))
        return lat__stmt_new(p, LAT_S_ASM, kw->loc);
    size_t tfrom = p->pos;
    while (lat__peek(p)->kind == LAT_TK_STRING)
        lat__next(p);
    size_t tto = p->pos;
    operand ops[MAX_OPERANDS];
    int nops = 0;
    bool bad = tfrom == tto;
    /* sections 1 outputs, 2 inputs, 3 clobbers; `::` (one token) skips one */
    for (int section = 0; section < 3 && !bad;) {
        if (lat__accept(p, LAT_P_COLON))
            section++;
        else if (lat__accept(p, LAT_P_SCOPE))
            section += 2;
        else
            break;
        while (!bad && section <= 3 && lat__peek(p)->kind == LAT_TK_STRING) {
            lat__tok *c = lat__next(p);
            if (section == 3) { /* clobbers: "memory", "cc" */
                if (!lat__accept(p, LAT_P_COMMA))
                    break;
                continue;
            }
            if (nops == MAX_OPERANDS) {
                bad = true;
                break;
            }
            operand *o = &ops[nops++];
            memset(o, 0, sizeof *o);
            const char *s = c->text + 1, *e = c->text + c->len - 1;
            for (; s < e; s++) {
                if (*s == '=')
                    o->output = true;
                else if (*s == '+')
                    o->output = o->inout = true;
                else if (*s != '&')
                    o->constraint = *s;
            }
            if (section == 2 && o->output)
                bad = true;
            if (!lat__at_punct(p, LAT_P_LPAREN)) {
                bad = true;
                break;
            }
            o->from = p->pos + 1;
            lat__skip_group(p);
            o->to = p->pos - 1;
            if (!lat__accept(p, LAT_P_COMMA))
                break;
        }
    }
    if (bad || !lat__expect(p, LAT_P_RPAREN, "to close asm")) {
        if (bad)
            lat__syntax_error(p, "an asm statement's template and operands");
        lat__skip_statement(p);
        return lat__stmt_new(p, LAT_S_ASM, kw->loc);
    }
    lat__expect(p, LAT_P_SEMI, "after asm");
    size_t resume = p->pos;

    /* The translation: registers, each instruction, the outputs written back. */
    asm_text a = {.p = p};
    char *text = template_text(p, tfrom, tto);
    strip_comments(text);
    insn in = {.ops = ops, .nops = nops};
    put(&a, "{");
    if (strstr(text, ".cc") || strstr(text, "addc") || strstr(text, "subc") || strstr(text, "madc"))
        put(&a, " unsigned __lat_cf = 0;");
    for (int i = 0; i < nops; i++) {
        char c = ops[i].constraint;
        if (c != 'r' && c != 'l' && c != 'h' && c != 'f' && c != 'd' && c != 'n' && c != 'c') {
            a.refused = lat__arena_printf(&p->u->arena, "the operand constraint '%c'", c ? c : '?');
            break;
        }
        const char *ty = c == 'n' ? "long long" : c_type(constraint_type(c));
        if (ops[i].output && !ops[i].inout)
            put(&a, lat__arena_printf(&p->u->arena, " %s __lat_a%d = 0;", ty, i));
        else
            put(&a, lat__arena_printf(&p->u->arena, " %s __lat_a%d = (%s)(__lat_op%d);", ty, i, ty, i));
    }
    for (char *s = text; !a.refused && s && *s;) {
        char *end = s + strcspn(s, ";\n");
        char save = *end;
        *end = '\0';
        statement(&a, &in, s);
        s = save ? end + 1 : NULL;
    }
    if (a.depth && !a.refused)
        a.refused = "a '{' never closed";
    for (int i = 0; i < nops && !a.refused; i++)
        if (ops[i].output)
            put(&a, lat__arena_printf(&p->u->arena, " __lat_op%d = __lat_a%d;", i, i));
    put(&a, " }");
    if (a.refused) {
        lat__unsupported(p, kw, lat__arena_printf(&p->u->arena, "inline PTX assembly (asm) with %s", a.refused),
                         "the emulator runs only the PTX of docs/dialect.md's list");
        return lat__stmt_new(p, LAT_S_ASM, kw->loc);
    }

    /* Lexed, the operands spliced in for __lat_opN, and parsed here as a block. */
    lat__toks toks = {0};
    lat__lex_text(p->u, a.buf, a.len, kw->loc, &toks);
    lat__toks spliced = {0};
    for (size_t i = 0; i < toks.n; i++) {
        const lat__tok *t = &toks.items[i];
        int k;
        if (t->kind == LAT_TK_IDENT && t->len > 8 && memcmp(t->text, "__lat_op", 8) == 0 &&
            sscanf(t->text + 8, "%d", &k) == 1 && k >= 0 && k < nops) {
            lat__tok open = *t, close = *t;
            open.kind = close.kind = LAT_TK_PUNCT;
            open.atom = close.atom = NULL;
            open.punct = LAT_P_LPAREN;
            open.text = "(";
            close.punct = LAT_P_RPAREN;
            close.text = ")";
            open.len = close.len = 1;
            lat__toks_push(p->u, &spliced, &open);
            for (size_t j = ops[k].from; j < ops[k].to; j++)
                lat__toks_push(p->u, &spliced, &p->toks[j]);
            lat__toks_push(p->u, &spliced, &close);
        } else {
            lat__toks_push(p->u, &spliced, t);
        }
    }
    lat__tok *saved_toks = p->toks;
    size_t saved_n = p->ntoks;
    const char **saved_pragma = p->pragma_at;
    p->toks = spliced.items;
    p->ntoks = spliced.n;
    p->pos = 0;
    p->pragma_at = NULL;
    lat__stmt *s = lat__parse_compound(p);
    p->toks = saved_toks;
    p->ntoks = saved_n;
    p->pragma_at = saved_pragma;
    p->pos = resume;
    return s;
}
