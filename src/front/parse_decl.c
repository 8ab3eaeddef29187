/* The parser's declarations: specifiers, declarators, structs, unions and enums,
 * initializers and function definitions (parse.h). */
#include "parse.h"
#include "visit.h"

#include "lex.h"

#include <stdio.h>
#include <string.h>

typedef struct spec {
    lat__loc loc;
    lat__storage storage;
    unsigned cuda;
    unsigned quals;
    int nvoid, nbool, nchar, nshort, nint, nlong, nfloat, ndouble, nsigned, nunsigned;
    lat__type *type;       /* a typedef name, struct/union/enum or typeof */
    lat__record *defines;  /* a struct/union/enum these specifiers define */
    unsigned align;
    bool packed;
    bool any;
    int launch_bounds[3];
    bool cxx; /* a C++ word was reported: no more errors about the type */
    bool constexpr_; /* constexpr: a const variable, or a function usable at run time */
    bool is_auto;    /* auto: the type comes from the initializer */
    bool decltype_auto; /* decltype(auto): the initializer's or returned expression's decltype */
} spec;

/* lat__type.count of the type auto stands for until its initializer is read. */
enum { AUTO_PLACEHOLDER = -2, DECLTYPE_AUTO_PLACEHOLDER = -4 };

static bool is_auto_placeholder(const lat__type *t)
{
    return t->kind == LAT_TY_VOID && t->count == AUTO_PLACEHOLDER;
}

static lat__type *declarator(lat__parser *p, lat__type *base, lat__atom **name, lat__loc *loc,
                             bool abstract);
static lat__type *parse_params(lat__parser *p, lat__type *ret);

/* A function type t declared `auto f(...)`: its return type is the placeholder its first
 * return statement replaces (C++14), where its body follows; refused otherwise. */
static void deduce_return(lat__parser *p, lat__type *t, lat__loc loc)
{
    if (t->base->kind == LAT_TY_PTR && is_auto_placeholder(t->base->base)) {
        lat__unsupported_at(p->u, loc, "a deduced return type through a pointer or a reference ('auto *', 'auto &')",
                            "write the return type");
        t->base = &lat__ty_int;
        return;
    }
    bool by_decltype = t->base->kind == LAT_TY_VOID && t->base->count == DECLTYPE_AUTO_PLACEHOLDER;
    if (!is_auto_placeholder(t->base) && !by_decltype)
        return;
    if (lat__at_punct(p, LAT_P_LBRACE) && (p->depth == 0 || p->in_record)) {
        t->base = by_decltype ? lat__deduced_decltype_return(p) : lat__deduced_return(p);
        return;
    }
    lat__unsupported_at(p->u, loc, "a function whose return type is deduced ('auto') declared without its body",
                        "write the return type");
    t->base = &lat__ty_int;
}

static bool has_type_specifier(const spec *s)
{
    return s->type || s->nvoid || s->nbool || s->nchar || s->nshort || s->nint || s->nlong ||
           s->nfloat || s->ndouble || s->nsigned || s->nunsigned;
}

/* ---- attributes ------------------------------------------------------------------------------ */

bool lat__at_attribute(lat__parser *p)
{
    lat__tok *t = lat__peek(p);
    if (lat__tok_is_punct(t, LAT_P_LBRACKET))
        return lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_LBRACKET);
    if (t->kind != LAT_TK_IDENT)
        return false;
    switch (t->atom->kw) {
    case LAT_KW_ATTRIBUTE: case LAT_KW_ATTRIBUTE2: case LAT_KW_DECLSPEC: case LAT_KW_ALIGN:
    case LAT_KW_BUILTIN_ALIGN: case LAT_KW_ALIGNAS: case LAT_KW_ALIGNAS_:
    case LAT_KW_LAUNCH_BOUNDS: case LAT_KW_CLUSTER_DIMS: case LAT_KW_MAXNREG:
    case LAT_KW_ASM: case LAT_KW_ASM2: case LAT_KW_ASM3:
        return true;
    default:
        return lat__tok_is_punct(t, LAT_P_LBRACKET) && lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_LBRACKET);
    }
}

static unsigned const_arg(lat__parser *p)
{
    bool ok;
    int64_t v = lat__parse_const_int(p, "an alignment", &ok);
    return ok && v > 0 && v <= (1 << 20) ? (unsigned)v : 0;
}

/* __attribute__((a, b(args), ...)): aligned and packed are kept, the rest ignored. */
static void gnu_attributes(lat__parser *p, unsigned *align, bool *packed)
{
    lat__next(p);
    if (!lat__expect(p, LAT_P_LPAREN, "after __attribute__") ||
        !lat__expect(p, LAT_P_LPAREN, "after __attribute__("))
        return;
    while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_RPAREN)) {
        lat__tok *n = lat__peek(p);
        if (n->kind != LAT_TK_IDENT) {
            if (lat__accept(p, LAT_P_COMMA))
                continue;
            lat__syntax_error(p, "an attribute name");
            return;
        }
        lat__next(p);
        const char *a = n->atom->name;
        bool is_aligned = strcmp(a, "aligned") == 0 || strcmp(a, "__aligned__") == 0;
        bool is_packed = strcmp(a, "packed") == 0 || strcmp(a, "__packed__") == 0;
        if (lat__at_punct(p, LAT_P_LPAREN)) {
            if (is_aligned) {
                lat__next(p);
                unsigned v = const_arg(p);
                if (v && align && v > *align)
                    *align = v;
                lat__expect(p, LAT_P_RPAREN, "after the alignment");
            } else {
                lat__skip_group(p);
            }
        } else if (is_aligned && align && *align < 16) {
            *align = 16; /* the largest alignment a scalar needs */
        }
        if (is_packed && packed)
            *packed = true;
        if (!lat__accept(p, LAT_P_COMMA))
            break;
    }
    lat__expect(p, LAT_P_RPAREN, "to close __attribute__((");
    lat__expect(p, LAT_P_RPAREN, "to close __attribute__((");
}

/* Reads any attributes at the current token: __attribute__, __declspec, __align__(n),
 * alignas(n), __launch_bounds__(...), asm labels, [[...]]. */
static void attributes(lat__parser *p, spec *s, unsigned *align, bool *packed)
{
    while (lat__at_attribute(p)) {
        lat__tok *t = lat__peek(p);
        if (t->kind != LAT_TK_IDENT) { /* [[ ... ]] */
            lat__next(p);
            lat__skip_group(p);
            lat__expect(p, LAT_P_RBRACKET, "to close [[");
            continue;
        }
        switch (t->atom->kw) {
        case LAT_KW_ATTRIBUTE:
        case LAT_KW_ATTRIBUTE2:
            gnu_attributes(p, align, packed);
            break;
        case LAT_KW_ALIGN:
        case LAT_KW_BUILTIN_ALIGN:
        case LAT_KW_ALIGNAS:
        case LAT_KW_ALIGNAS_: {
            lat__next(p);
            lat__expect(p, LAT_P_LPAREN, "after the alignment specifier");
            unsigned v;
            if (lat__starts_declaration(p)) {
                lat__type *ty = lat__parse_type_name(p);
                v = ty ? lat__alignof(ty) : 0;
            } else {
                v = const_arg(p);
            }
            if (v && align && v > *align)
                *align = v;
            lat__expect(p, LAT_P_RPAREN, "after the alignment");
            break;
        }
        case LAT_KW_LAUNCH_BOUNDS: {
            lat__next(p);
            if (!lat__expect(p, LAT_P_LPAREN, "after __launch_bounds__"))
                break;
            for (int i = 0; i < 3 && !lat__at_punct(p, LAT_P_RPAREN); i++) {
                bool ok;
                int64_t v = lat__parse_const_int(p, "a launch bound", &ok);
                if (s && ok)
                    s->launch_bounds[i] = v > 0 && v < (1 << 30) ? (int)v : 0;
                if (!lat__accept(p, LAT_P_COMMA))
                    break;
            }
            lat__expect(p, LAT_P_RPAREN, "to close __launch_bounds__(");
            break;
        }
        default: /* __declspec(...), __cluster_dims__(...), __maxnreg__(n), asm("label") */
            lat__next(p);
            if (lat__at_punct(p, LAT_P_LPAREN))
                lat__skip_group(p);
            break;
        }
    }
}

void lat__parse_attributes(lat__parser *p, unsigned *align, bool *packed)
{
    attributes(p, NULL, align, packed);
}

void lat__skip_std_attributes(lat__parser *p)
{
    while (lat__tok_is_punct(lat__peek(p), LAT_P_LBRACKET) && lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_LBRACKET)) {
        lat__next(p);
        lat__skip_group(p);
        lat__expect(p, LAT_P_RBRACKET, "to close [[");
    }
}

/* ---- specifiers ------------------------------------------------------------------------------ */

static lat__type *record_specifier(lat__parser *p, spec *s);
static lat__type *enum_specifier(lat__parser *p, spec *s);

/* decltype(e): a name's or a member's declared type, as written without parentheses;
 * otherwise a reference to e's type when e is an lvalue, else e's type (C++ [dcl.type.decltype]). */
lat__type *lat__decltype_of(lat__parser *p, lat__expr *e)
{
    if (e->flags & LAT_EF_ERROR)
        return &lat__ty_int;
    if (!(e->flags & LAT_EF_PAREN)) {
        if (e->kind == LAT_E_NAME && e->sym && e->sym->type)
            return e->sym->type;
        if (e->kind == LAT_E_MEMBER && e->field && e->field->type)
            return e->field->type;
    }
    if ((e->flags & LAT_EF_LVALUE) && e->type->kind != LAT_TY_FUNC)
        return lat__reference_to(p->u, e->type);
    if (e->kind == LAT_E_COND && e->b && e->c) {
        /* a ?: of two lvalues of one type is an lvalue (x > y ? x : y, cuDF's Max) */
        const lat__expr *x = e->b, *y = e->c;
        while (x->kind == LAT_E_CAST && (x->flags & LAT_EF_IMPLICIT) && x->a)
            x = x->a;
        while (y->kind == LAT_E_CAST && (y->flags & LAT_EF_IMPLICIT) && y->a)
            y = y->a;
        if ((x->flags & LAT_EF_LVALUE) && (y->flags & LAT_EF_LVALUE) && x->type->kind != LAT_TY_FUNC &&
            lat__type_same(x->type, y->type) && x->type->quals == y->type->quals)
            return lat__reference_to(p->u, x->type);
    }
    return e->type;
}

/* Whether the ( group at p->pos names a template's parameter that stands as a placeholder
 * (a partial specialization's arguments or a signature read for deduction). */
static bool group_names_placeholder(lat__parser *p)
{
    size_t save = p->pos;
    int depth = 0;
    bool found = false;
    do {
        lat__tok *t = lat__next(p);
        if (t->kind == LAT_TK_EOF)
            break;
        if (t->kind == LAT_TK_IDENT && !t->atom->kw && t->atom->sym && t->atom->sym->kind == LAT_SYM_TYPEDEF &&
            t->atom->sym->type && lat__is_template_placeholder(t->atom->sym->type))
            found = true;
        if (t->kind != LAT_TK_PUNCT)
            continue;
        if (t->punct == LAT_P_LPAREN || t->punct == LAT_P_LBRACKET || t->punct == LAT_P_LBRACE)
            depth++;
        else if (t->punct == LAT_P_RPAREN || t->punct == LAT_P_RBRACKET || t->punct == LAT_P_RBRACE)
            depth--;
    } while (depth > 0 && !found);
    p->pos = save;
    return found;
}

lat__type *lat__decltype(lat__parser *p)
{
    lat__next(p);
    if (lat__at_punct(p, LAT_P_LPAREN) && group_names_placeholder(p)) {
        /* decltype(std::declval<T>().size()) with T a placeholder: a type known only for
         * real arguments (void_t<decltype(...)> is read again with them) */
        lat__skip_group(p);
        return lat__dependent_type(p);
    }
    lat__expect(p, LAT_P_LPAREN, "after decltype");
    lat__type *ty;
    if (lat__at_kw(p, LAT_KW_AUTO)) {
        lat__unsupported(p, lat__peek(p), "'decltype(auto)'", "write the type, or auto");
        lat__next(p);
        ty = &lat__ty_int;
    } else {
        p->unevaluated++;
        ty = lat__decltype_of(p, lat__parse_expr(p));
        p->unevaluated--;
    }
    lat__expect(p, LAT_P_RPAREN, "to close decltype(");
    return ty;
}

lat__type *lat__typedef_type(lat__parser *p, lat__sym *ts)
{
    if (!ts->type)
        return &lat__ty_int; /* an alias of what could not be made (reported) */
    lat__type *ty = lat__type_copy(p->u, ts->type);
    if (!(ts->flags & LAT_SF_TRANSPARENT))
        ty->named = ts;
    return ty;
}

static bool is_specifier_kw(lat__kw kw)
{
    switch (kw) {
    case LAT_KW_TYPEDEF: case LAT_KW_EXTERN: case LAT_KW_STATIC: case LAT_KW_REGISTER:
    case LAT_KW_AUTO: case LAT_KW_CONST: case LAT_KW_CONST2: case LAT_KW_VOLATILE:
    case LAT_KW_VOLATILE2: case LAT_KW_RESTRICT: case LAT_KW_RESTRICT2: case LAT_KW_RESTRICT3:
    case LAT_KW_INLINE: case LAT_KW_INLINE2: case LAT_KW_INLINE3: case LAT_KW_NORETURN:
    case LAT_KW_GLOBAL: case LAT_KW_DEVICE: case LAT_KW_HOST: case LAT_KW_SHARED:
    case LAT_KW_CONSTANT: case LAT_KW_MANAGED: case LAT_KW_FORCEINLINE: case LAT_KW_NOINLINE:
    case LAT_KW_GRID_CONSTANT: case LAT_KW_DEVICE_BUILTIN: case LAT_KW_CUDART_CB:
    case LAT_KW_VOID: case LAT_KW_BOOL: case LAT_KW_BOOL_: case LAT_KW_CHAR: case LAT_KW_SHORT:
    case LAT_KW_INT: case LAT_KW_LONG: case LAT_KW_FLOAT: case LAT_KW_DOUBLE:
    case LAT_KW_SIGNED: case LAT_KW_UNSIGNED: case LAT_KW_COMPLEX: case LAT_KW_INT128:
    case LAT_KW_STRUCT: case LAT_KW_UNION: case LAT_KW_ENUM: case LAT_KW_TYPEOF:
    case LAT_KW_TYPEOF2: case LAT_KW_TYPEOF3: case LAT_KW_EXTENSION: case LAT_KW_ATOMIC: case LAT_KW_UNDERLYING_TYPE:
    case LAT_KW_THREAD_LOCAL_: case LAT_KW_THREAD_LOCAL: case LAT_KW_CONSTEXPR:
    case LAT_KW_CONSTEVAL: case LAT_KW_CONSTINIT: case LAT_KW_VIRTUAL: case LAT_KW_EXPLICIT:
    case LAT_KW_MUTABLE: case LAT_KW_FRIEND: case LAT_KW_TYPENAME: case LAT_KW_CLASS:
    case LAT_KW_ATTRIBUTE: case LAT_KW_ATTRIBUTE2: case LAT_KW_DECLSPEC: case LAT_KW_ALIGN:
    case LAT_KW_BUILTIN_ALIGN: case LAT_KW_ALIGNAS: case LAT_KW_ALIGNAS_:
    case LAT_KW_LAUNCH_BOUNDS: case LAT_KW_CLUSTER_DIMS: case LAT_KW_MAXNREG:
    case LAT_KW_WCHAR_T: case LAT_KW_CHAR16_T: case LAT_KW_CHAR32_T: case LAT_KW_DECLTYPE:
        return true;
    default:
        return false;
    }
}

bool lat__starts_declaration(lat__parser *p)
{
    lat__tok *t = lat__peek(p);
    if (t->kind != LAT_TK_IDENT)
        return false;
    if (t->atom->kw)
        return is_specifier_kw((lat__kw)t->atom->kw) || t->atom->kw == LAT_KW_STATIC_ASSERT ||
               t->atom->kw == LAT_KW_STATIC_ASSERT_;
    return lat__is_type_name(p, t);
}

static void storage(lat__parser *p, spec *s, lat__storage st, const lat__tok *t)
{
    if (s->storage && s->storage != st)
        lat__error_tok(p, t, "more than one storage class in a declaration");
    s->storage = st;
}

static void cxx_word(lat__parser *p, const lat__tok *t)
{
    char what[64];
    snprintf(what, sizeof what, "'%s'", t->atom->name);
    lat__unsupported(p, t, what,
                     t->atom->kw == LAT_KW_AUTO ? "C++'s type deduction; C's auto storage class is "
                                                  "not accepted either"
                                                : lat__why_cxx);
}

static void specifiers(lat__parser *p, spec *s)
{
    memset(s, 0, sizeof *s);
    s->loc = lat__peek(p)->loc;
    for (;;) {
        lat__tok *t = lat__peek(p);
        if (lat__at_attribute(p)) {
            attributes(p, s, &s->align, &s->packed);
            s->any = true;
            continue;
        }
        if (t->kind != LAT_TK_IDENT)
            break;
        lat__kw kw = (lat__kw)t->atom->kw;
        if (!kw) {
            if (has_type_specifier(s) || !lat__is_type_name(p, t))
                break;
            /* T followed by ':' is a label, handled by the statement parser. */
            lat__sym *ts;
            if (lat__at_qualified(p)) {
                ts = lat__parse_qualified(p, false);
                if (ts && ts->kind == LAT_SYM_TAG) {
                    s->type = ts->type;
                    s->any = true;
                    continue;
                }
                if (ts && ts->tmpl) {
                    s->type = lat__template_class_type(p, ts, &p->toks[p->pos - 1]);
                    s->any = true;
                    continue;
                }
            } else {
                lat__next(p);
                ts = lat__lookup(p, t->atom);
                if (ts && ts->tmpl) {
                    s->type = lat__template_class_type(p, ts, t);
                    s->any = true;
                    continue;
                }
            }
            if (ts && ts->kind == LAT_SYM_TYPEDEF) {
                s->type = lat__typedef_type(p, ts);
            } else {
                lat__sym *tag = t->atom->tag;
                s->type = tag && tag->rec ? tag->type : &lat__ty_int;
            }
            s->any = true;
            continue;
        }
        if (!is_specifier_kw(kw))
            break;
        lat__next(p);
        s->any = true;
        switch (kw) {
        case LAT_KW_TYPEDEF: storage(p, s, LAT_ST_TYPEDEF, t); break;
        case LAT_KW_EXTERN: storage(p, s, LAT_ST_EXTERN, t); break;
        case LAT_KW_STATIC: storage(p, s, LAT_ST_STATIC, t); break;
        case LAT_KW_REGISTER: storage(p, s, LAT_ST_REGISTER, t); break;
        case LAT_KW_CONST: case LAT_KW_CONST2: s->quals |= LAT_Q_CONST; break;
        case LAT_KW_VOLATILE: case LAT_KW_VOLATILE2: s->quals |= LAT_Q_VOLATILE; break;
        case LAT_KW_RESTRICT: case LAT_KW_RESTRICT2: case LAT_KW_RESTRICT3:
            s->quals |= LAT_Q_RESTRICT;
            break;
        case LAT_KW_INLINE: case LAT_KW_INLINE2: case LAT_KW_INLINE3: s->cuda |= LAT_CU_INLINE; break;
        case LAT_KW_NORETURN: case LAT_KW_EXTENSION: case LAT_KW_DEVICE_BUILTIN:
        case LAT_KW_CUDART_CB:
            break;
        case LAT_KW_GLOBAL: s->cuda |= LAT_CU_GLOBAL; break;
        case LAT_KW_DEVICE: s->cuda |= LAT_CU_DEVICE; break;
        case LAT_KW_HOST: s->cuda |= LAT_CU_HOST; break;
        case LAT_KW_SHARED: s->cuda |= LAT_CU_SHARED; break;
        case LAT_KW_CONSTANT: s->cuda |= LAT_CU_CONSTANT; break;
        case LAT_KW_MANAGED:
            lat__unsupported(p, t, "'__managed__'", "managed memory");
            s->cuda |= LAT_CU_MANAGED;
            break;
        case LAT_KW_FORCEINLINE: s->cuda |= LAT_CU_FORCEINLINE; break;
        case LAT_KW_NOINLINE: s->cuda |= LAT_CU_NOINLINE; break;
        case LAT_KW_GRID_CONSTANT: s->cuda |= LAT_CU_GRID_CONSTANT; break;
        case LAT_KW_VOID: s->nvoid++; break;
        case LAT_KW_BOOL: case LAT_KW_BOOL_: s->nbool++; break;
        case LAT_KW_CHAR: s->nchar++; break;
        case LAT_KW_SHORT: s->nshort++; break;
        case LAT_KW_INT: s->nint++; break;
        case LAT_KW_LONG: s->nlong++; break;
        case LAT_KW_FLOAT: s->nfloat++; break;
        case LAT_KW_DOUBLE: s->ndouble++; break;
        case LAT_KW_SIGNED: s->nsigned++; break;
        case LAT_KW_UNSIGNED: s->nunsigned++; break;
        case LAT_KW_STRUCT:
        case LAT_KW_UNION:
            p->pos--;
            if (has_type_specifier(s))
                lat__error_tok(p, t, "two types in one declaration");
            s->type = record_specifier(p, s);
            break;
        case LAT_KW_ENUM:
            p->pos--;
            if (has_type_specifier(s))
                lat__error_tok(p, t, "two types in one declaration");
            s->type = enum_specifier(p, s);
            break;
        case LAT_KW_TYPEOF: case LAT_KW_TYPEOF2: case LAT_KW_TYPEOF3: {
            lat__expect(p, LAT_P_LPAREN, "after typeof");
            lat__type *ty;
            if (lat__starts_declaration(p)) {
                ty = lat__parse_type_name(p);
            } else {
                lat__expr *e = lat__parse_expr(p);
                ty = e->type;
            }
            lat__expect(p, LAT_P_RPAREN, "to close typeof(");
            s->type = ty ? ty : &lat__ty_int;
            break;
        }
        case LAT_KW_UNDERLYING_TYPE: {
            /* __underlying_type(E), std::underlying_type's: an enum's integer type */
            lat__expect(p, LAT_P_LPAREN, "after __underlying_type");
            lat__type *ty = lat__parse_type_name(p);
            lat__expect(p, LAT_P_RPAREN, "to close __underlying_type(");
            if (ty && lat__is_template_placeholder(ty))
                ty = lat__dependent_type(p);
            else if (ty && ty->kind == LAT_TY_ENUM && ty->base)
                ty = ty->base;
            else if (ty) {
                lat__error_tok(p, t, "__underlying_type of %s, not an enum", lat__type_str(p->u, ty, NULL, false));
                ty = &lat__ty_int;
            }
            if (has_type_specifier(s))
                lat__error_tok(p, t, "two types in one declaration");
            s->type = ty ? ty : &lat__ty_int;
            break;
        }
        case LAT_KW_DECLTYPE: {
            p->pos--;
            if (lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_LPAREN) && lat__tok_kw(lat__peek_at(p, 2), LAT_KW_AUTO) &&
                lat__tok_is_punct(lat__peek_at(p, 3), LAT_P_RPAREN)) {
                /* decltype(auto): auto, deduced by decltype's rules (a reference for an
                 * lvalue in parentheses or a call returning one) */
                if (s->is_auto || has_type_specifier(s))
                    lat__error_tok(p, t, "'decltype(auto)' combined with a type");
                s->is_auto = s->decltype_auto = true;
                p->pos += 4;
                break;
            }
            if (lat__at_qualified(p)) {
                /* decltype(a)::value_type: a member type of the expression's class */
                if (has_type_specifier(s))
                    lat__error_tok(p, t, "two types in one declaration");
                lat__sym *ts = lat__parse_qualified(p, false);
                if (ts && ts->kind == LAT_SYM_TAG)
                    s->type = ts->type;
                else if (ts && ts->tmpl)
                    s->type = lat__template_class_type(p, ts, &p->toks[p->pos - 1]);
                else if (ts && ts->kind == LAT_SYM_TYPEDEF)
                    s->type = lat__typedef_type(p, ts);
                else {
                    if (ts)
                        lat__error_tok(p, &p->toks[p->pos - 1], "'%s' is not a type", ts->name->name);
                    s->type = &lat__ty_int;
                }
                break;
            }
            s->type = lat__decltype(p);
            break;
        }
        case LAT_KW_COMPLEX:
            lat__unsupported(p, t, "'_Complex'", "complex arithmetic");
            break;
        case LAT_KW_INT128:
            lat__unsupported(p, t, "'__int128'", "128-bit integers");
            s->nlong = 2;
            break;
        case LAT_KW_ATOMIC:
            lat__unsupported(p, t, "'_Atomic'", "C11 atomics; use CUDA's atomic functions");
            if (lat__at_punct(p, LAT_P_LPAREN))
                lat__skip_group(p);
            break;
        case LAT_KW_THREAD_LOCAL_:
            lat__unsupported(p, t, "'_Thread_local'", "thread-local storage");
            break;
        case LAT_KW_CLASS:
            p->pos--;
            s->type = record_specifier(p, s);
            break;
        case LAT_KW_WCHAR_T: case LAT_KW_CHAR16_T: case LAT_KW_CHAR32_T:
            cxx_word(p, t);
            s->nint++;
            break;
        case LAT_KW_CONSTEXPR:
            s->constexpr_ = true;
            break;
        case LAT_KW_EXPLICIT:
            /* explicit operator bool() const: a conversion C++ makes only where it is asked
             * for or in a condition, which is where the emulator makes it too */
            if (p->in_record && lat__at_kw(p, LAT_KW_OPERATOR))
                break;
            cxx_word(p, t);
            s->cxx = true;
            break;
        case LAT_KW_TYPENAME:
            /* typename T::value_type: says that a dependent name is a type, which the
             * instance, parsed with T bound, knows already */
            if (has_type_specifier(s) || !lat__is_type_name(p, lat__peek(p))) {
                lat__error_tok(p, lat__peek(p), "expected a type after 'typename'%s",
                               lat__at_qualified(p) ? ": no type of this name" : "");
                s->type = &lat__ty_int;
            }
            break;
        case LAT_KW_AUTO:
            if (s->is_auto)
                lat__error_tok(p, t, "'auto' twice");
            s->is_auto = true;
            break;
        default: /* virtual, mutable, typename, consteval...: C++ */
            cxx_word(p, t);
            s->cxx = true;
            break;
        }
    }
}

/* The type the specifiers name. */
static lat__type *base_type(lat__parser *p, spec *s)
{
    lat__type *t;
    int nkw = s->nvoid + s->nbool + s->nchar + s->nshort + s->nint + s->nlong + s->nfloat +
              s->ndouble + s->nsigned + s->nunsigned;
    if (s->is_auto) {
        if (nkw || s->type)
            lat__error_at(p->u, s->loc, "'auto' combined with a type");
        t = lat__marker_type(p->u, s->decltype_auto ? DECLTYPE_AUTO_PLACEHOLDER : AUTO_PLACEHOLDER); /* replaced by auto_type */
    } else if (s->type) {
        if (nkw)
            lat__error_at(p->u, s->loc, "a type name combined with other type specifiers");
        t = s->type;
    } else if (s->nvoid) {
        t = &lat__ty_void;
    } else if (s->nbool) {
        t = &lat__ty_bool;
    } else if (s->nfloat) {
        t = &lat__ty_float;
    } else if (s->ndouble) {
        t = s->nlong ? &lat__ty_ldouble : &lat__ty_double;
    } else if (s->nchar) {
        t = s->nunsigned ? &lat__ty_uchar : s->nsigned ? &lat__ty_schar : &lat__ty_char;
    } else if (s->nshort) {
        t = s->nunsigned ? &lat__ty_ushort : &lat__ty_short;
    } else if (s->nlong >= 2) {
        t = s->nunsigned ? &lat__ty_ullong : &lat__ty_llong;
    } else if (s->nlong == 1) {
        t = s->nunsigned ? &lat__ty_ulong : &lat__ty_long;
    } else if (s->nint || s->nsigned || s->nunsigned) {
        t = s->nunsigned ? &lat__ty_uint : &lat__ty_int;
    } else {
        if (!s->cxx && lat__at_kw(p, LAT_KW_OPERATOR) && p->in_record)
            lat__unsupported_at(p->u, s->loc, "a conversion operator template (template <class T> operator T())",
                                "a lattice limit: write a conversion operator for each type");
        else if (!s->cxx)
            lat__error_at(p->u, s->loc, "a declaration without a type (C has no implicit int)");
        t = &lat__ty_int;
    }
    if (s->nsigned && s->nunsigned)
        lat__error_at(p->u, s->loc, "both 'signed' and 'unsigned' in a declaration");
    if (s->quals)
        t = lat__qualified(p->u, t, s->quals);
    return t;
}

/* ---- structs, unions, enums ---------------------------------------------------------------- */

static lat__record *new_record(lat__parser *p, lat__tykind kind, lat__atom *tag, lat__loc loc)
{
    lat__record *r = lat__arena_alloc(&p->u->arena, sizeof *r);
    r->kind = (uint8_t)kind;
    r->tag = tag;
    r->loc = loc;
    r->builtin = p->in_builtin;
    r->scope_depth = p->in_builtin ? 0 : p->depth;
    r->ns = p->ns;
    if (!tag)
        r->emit_tag = lat__arena_printf(&p->u->arena, "__lat_anon%d", ++p->anon);
    LAT_PUSH(&p->u->arena, p->tu->records, r);
    return r;
}

static lat__type *record_type(lat__parser *p, lat__record *r)
{
    lat__type *t = lat__type_new(p->u, (lat__tykind)r->kind);
    t->rec = r;
    t->complete = 1;
    if (r->kind == LAT_TY_ENUM) {
        t->base = &lat__ty_int;
        t->size = t->align = 4;
        t->is_signed = 1;
    }
    return t;
}

lat__type *lat__parse_signature(lat__parser *p, lat__atom **name)
{
    spec s;
    specifiers(p, &s);
    lat__type *base = base_type(p, &s);
    lat__loc loc = lat__peek(p)->loc;
    return declarator(p, base, name, &loc, false);
}

lat__type *lat__parse_param_list(lat__parser *p, lat__type *ret)
{
    return parse_params(p, ret);
}

lat__record *lat__new_record(lat__parser *p, lat__atom *tag, lat__loc loc)
{
    return new_record(p, LAT_TY_STRUCT, tag, loc);
}

lat__type *lat__record_type_of(lat__parser *p, lat__record *r)
{
    return record_type(p, r);
}

/* The tag `tag` of this kind: the one in scope, or (declare) a new one in this scope. */
static lat__sym *find_tag(lat__parser *p, lat__tykind kind, lat__atom *tag, lat__loc loc,
                          bool here_only)
{
    lat__sym *s = tag->tag;
    if (s && (!here_only || lat__in_this_scope(p, s))) {
        if (s->rec && s->rec->kind != kind)
            lat__error_at(p->u, loc, "'%s' was declared as another kind of tag", tag->name);
        return s;
    }
    lat__record *r = new_record(p, kind, tag, loc);
    s = lat__sym_new(p, LAT_SYM_TAG, tag, loc);
    s->rec = r;
    s->type = record_type(p, r);
    lat__bind(p, s);
    return s;
}

static void struct_body(lat__parser *p, lat__record *r);

/* Attributes between a struct's closing brace and its declarators. GCC applies them to
 * the struct; NVCC and NVRTC do not (measured, NVRTC 13: `struct s { char c; int a; }
 * __attribute__((packed));` has 8 bytes, aligned(16) there changes nothing), and the
 * emulator follows the GPU, saying so. An alignment there before a declarator NVCC gives
 * to the declared name (a typedef of 8 bytes aligned to 16), which the emulator does not
 * model: refused, not laid out differently. */
static void trailing_attributes(lat__parser *p)
{
    lat__tok *at = lat__peek(p);
    unsigned align = 0;
    bool packed = false;
    attributes(p, NULL, &align, &packed);
    if (packed)
        lat__diag_at(p->u, at->loc, LAT_SEV_WARNING, LAT_ERROR_COMPILE,
                     "'packed' after a struct's closing brace is ignored, as NVCC ignores it: "
                     "write it after 'struct' (struct __attribute__((packed)) name { ... })");
    if (align && lat__at_punct(p, LAT_P_SEMI))
        lat__diag_at(p->u, at->loc, LAT_SEV_WARNING, LAT_ERROR_COMPILE,
                     "'aligned' after a struct's closing brace is ignored, as NVCC ignores it: "
                     "write it after 'struct' (struct __align__(%u) name { ... })", align);
    else if (align)
        lat__unsupported_at(p->u, at->loc, "an alignment between a struct's closing brace and a declarator",
                            "NVCC aligns the declared name, not the struct; write __align__(N) after 'struct'");
}

typedef LAT_VEC(lat__record *) record_list;

/* `: Base, ...` after a class's name, at the ':': the base classes into `into`, in order;
 * false after reporting one that cannot be. */
static bool base_classes(lat__parser *p, record_list *into)
{
    lat__next(p); /* : */
    bool refused = false;
    for (;;) {
        while (lat__at_kw(p, LAT_KW_PUBLIC) || lat__at_kw(p, LAT_KW_PRIVATE) || lat__at_kw(p, LAT_KW_PROTECTED))
            lat__next(p);
        lat__tok *at = lat__peek(p);
        if (lat__at_kw(p, LAT_KW_VIRTUAL)) {
            lat__unsupported(p, at, "a virtual base class", lat__why_cxx);
            refused = true;
            break;
        }
        lat__type *t = lat__parse_type_name(p);
        if (!t)
            break;
        if (!lat__is_record(t) || !t->rec || !t->rec->complete || t->rec->kind != LAT_TY_STRUCT) {
            lat__unsupported(p, at, "a base class that is not a class defined before", lat__why_cxx);
            refused = true;
            break;
        }
        for (size_t i = 0; i < into->n; i++)
            if (into->items[i] == t->rec) {
                lat__error_tok(p, at, "'%s' is a direct base class twice", lat__record_c_name(t->rec));
                refused = true;
            }
        LAT_PUSH(&p->u->arena, *into, t->rec);
        if (!lat__accept(p, LAT_P_COMMA))
            break;
    }
    while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_LBRACE) && !lat__at_punct(p, LAT_P_SEMI))
        lat__next(p);
    return !refused;
}

bool lat__non_pod(const lat__record *r, int depth)
{
    if ((r->has_ctor && !r->default_trivial) || lat__nbases(r) || depth > 64)
        return true;
    for (size_t i = 0; i < r->methods.n; i++) {
        const char *n = r->methods.items[i]->name->name;
        if (n[0] == '~' || strcmp(n, "operator=") == 0)
            return true;
    }
    for (size_t i = 0; i < r->fields.n; i++) {
        const lat__type *t = r->fields.items[i].type;
        while (t->kind == LAT_TY_ARRAY && t->base)
            t = t->base;
        if (lat__is_record(t) && t->rec && lat__non_pod(t->rec, depth + 1))
            return true;
    }
    return false;
}

/* Where r's data ends (its size without the tail padding). */
static size_t data_size(const lat__record *r)
{
    size_t end = 0;
    for (size_t j = 0; j < r->fields.n; j++) {
        const lat__field *f = &r->fields.items[j];
        size_t e = f->offset + (size_t)lat__sizeof(f->type);
        end = e > end ? e : end;
    }
    return end;
}

/* Why r's own data members cannot follow its base's as lattice lays them out (NULL: they
 * can): C puts them where the Itanium C++ ABI does when the base ends without padding
 * (the ABI may place them in a non-POD base's tail padding) and neither is packed. */
static const char *data_beside_base(const lat__record *r, const lat__record *base)
{
    size_t end = 0;
    for (size_t i = 0; i < base->fields.n; i++) {
        const lat__field *f = &base->fields.items[i];
        if (f->bits >= 0)
            return "a base class with bit-fields under a class with data members of its own";
        size_t e = f->offset + (size_t)lat__sizeof(f->type);
        end = e > end ? e : end;
    }
    if (end != (size_t)base->size && !lat__non_pod(base, 0))
        return "a base class ending in padding under a class with data members of its own";
    if (r->packed || base->packed)
        return "a packed class with a base class, both with data members";
    if (base->has_ctor && !r->has_ctor)
        return "a class with data members beside its base's, without a constructor of its own, whose base "
               "class has constructors";
    return NULL;
}

/* A base's data member as r's field: under another name where r's own members (the first
 * `own` of mine) declare its name, which hides it in r as C++ hides it (the recursive
 * tuple<T, Rest...> : tuple<Rest...>, each with its `head`); the base's own accesses go
 * through the base's type and keep the name. */
static lat__field base_field(lat__parser *p, lat__field f, const lat__field *mine, size_t own)
{
    for (size_t i = 0; f.name && i < own; i++)
        if (mine[i].name == f.name) {
            const char *hidden = lat__arena_printf(&p->u->arena, "__lat_hidden%d_%s", ++p->anon, f.name->name);
            f.name = lat__atom_get(&p->u->atoms, hidden, strlen(hidden));
            break;
        }
    return f;
}

/* Why the data of r's bases and its own cannot be laid out as the ABI does (NULL: they
 * can): each base with data as data_beside_base says, unless nothing follows it. */
static const char *several_bases_why(const lat__record *r)
{
    size_t last = 0, with_data = 0;
    for (size_t i = 0; i < r->bases.n; i++)
        if (!lat__empty_record(r->bases.items[i])) {
            last = i;
            with_data++;
        }
    for (size_t i = 0; i < r->bases.n; i++) {
        const lat__record *b = r->bases.items[i];
        if (lat__empty_record(b))
            continue;
        if (r->packed || b->packed)
            return "a packed class with several base classes";
        if (b->has_ctor && !r->has_ctor && with_data + (r->fields.n > 0) > 1)
            return "a class without a constructor of its own beside a base class with constructors";
        if (i == last && !r->fields.n)
            continue;
        size_t end = 0;
        for (size_t j = 0; j < b->fields.n; j++) {
            const lat__field *f = &b->fields.items[j];
            if (f->bits >= 0)
                return "a base class with bit-fields followed by other data";
            size_t e = f->offset + (size_t)lat__sizeof(f->type);
            end = e > end ? e : end;
        }
        if (end != (size_t)b->size && !lat__non_pod(b, 0))
            return "a base class ending in padding followed by other data (C would place that data in the "
                   "padding)";
    }
    return NULL;
}

static bool has_own_field(const lat__record *r, const lat__atom *name)
{
    for (size_t i = 0; i < r->fields.n; i++)
        if (r->fields.items[i].name == name)
            return true;
    return false;
}

/* A class of several base classes: the data of each base with data in order, each at its
 * alignment after the one before (an empty base takes none, at offset 0), then r's own,
 * as the Itanium C++ ABI lays them out; a base's members keep their names in r, so a name
 * two of them (or r and one) share is refused. */
static void several_bases(lat__parser *p, lat__record *r)
{
    const char *why = several_bases_why(r);
    LAT_VEC(const lat__atom *) names = {0};
    LAT_VEC(size_t) of = {0}; /* each name's base */
    for (size_t i = 0; i < r->bases.n; i++) {
        const lat__record *b = r->bases.items[i];
        for (size_t k = 0; !lat__empty_record(b) && k < b->fields.n; k++)
            if (b->fields.items[k].name) {
                LAT_PUSH(&p->u->arena, names, b->fields.items[k].name);
                LAT_PUSH(&p->u->arena, of, i);
            }
    }
    for (size_t i = 0; !why && i < names.n; i++)
        for (size_t j = i + 1; j < names.n; j++)
            if (names.items[i] == names.items[j] && of.items[i] != of.items[j] && !has_own_field(r, names.items[i]))
                why = "a data member of one name in two of a class's base classes (ambiguous in the class)";
    if (why) {
        lat__unsupported_at(p->u, r->loc, why, "a lattice limit");
        return;
    }
    size_t own = r->fields.n;
    lat__field *mine = r->fields.items;
    r->fields.items = NULL;
    r->fields.n = r->fields.cap = 0;
    uint32_t at = 0, align = r->min_align;
    for (size_t i = 0; i < r->bases.n; i++) {
        const lat__record *b = r->bases.items[i];
        r->base_fields_at.items[i] = r->fields.n;
        if (lat__empty_record(b))
            continue;
        at = (at + b->align - 1) / b->align * b->align;
        r->base_offsets.items[i] = at;
        for (size_t k = 0; k < b->fields.n; k++) {
            lat__field f = base_field(p, b->fields.items[k], mine, own);
            if (k == 0 && lat__alignof(f.type) < b->align) {
                /* C would place the base's first member at its own alignment */
                f.type = lat__type_copy(p->u, f.type);
                f.type->align = b->align;
            }
            LAT_PUSH(&p->u->arena, r->fields, f);
        }
        at += lat__non_pod(b, 0) ? data_size(b) : b->size; /* the ABI reuses a non-POD's tail padding */
        align = b->min_align > align ? b->min_align : align;
    }
    r->nbase_fields = r->fields.n;
    for (size_t i = 0; i < own; i++)
        LAT_PUSH(&p->u->arena, r->fields, mine[i]);
    r->min_align = align;
    lat__record_layout(r);
    for (size_t i = 0; i < r->bases.n; i++) {
        const lat__record *b = r->bases.items[i];
        size_t f = r->base_fields_at.items[i];
        if (!lat__empty_record(b) && r->fields.items[f].offset != r->base_offsets.items[i])
            lat__unsupported_at(p->u, r->loc, "a base class the emulator cannot place where the ABI does",
                                "a lattice limit");
    }
}

/* A class template's instance being parsed: a record of its own under the template's name,
 * known as the instance from here on. */
static lat__record *instance_record(lat__parser *p, lat__tykind kind, const lat__tok *name)
{
    lat__record *r = new_record(p, kind, name->atom, name->loc);
    r->emit_tag = p->inst_tag;
    lat__sym *ts = lat__sym_new(p, LAT_SYM_TAG, name->atom, name->loc);
    ts->rec = r;
    ts->type = record_type(p, r);
    lat__bind(p, ts);
    p->inst_type = ts->type;
    lat__template_class_begun(p, ts->type);
    return r;
}

static lat__type *record_specifier(lat__parser *p, spec *s)
{
    lat__tok *kwt = lat__next(p);
    lat__tykind kind = kwt->atom->kw == LAT_KW_UNION ? LAT_TY_UNION : LAT_TY_STRUCT;
    unsigned align = 0;
    bool packed = false;
    attributes(p, NULL, &align, &packed);
    lat__tok *name = NULL;
    if (lat__peek(p)->kind == LAT_TK_IDENT && !lat__peek(p)->atom->kw) {
        name = lat__next(p);
        if (p->inst_of && name->atom == lat__template_name(p->inst_of) && lat__at_punct(p, LAT_P_LT))
            lat__skip_angles(p); /* an explicit specialization's <args> */
        attributes(p, NULL, &align, &packed);
    }
    lat__record *base = NULL;
    record_list bases = {0};
    lat__record *inst_rec = NULL; /* a class template's instance, made before its bases */
    if (lat__at_punct(p, LAT_P_COLON) && name) {
        lat__record *self = NULL;
        if (!(p->inst_of && (p->in_record || name->atom == lat__template_name(p->inst_of)))) {
            self = find_tag(p, kind, name->atom, name->loc, true)->rec; /* struct D : B<D>: D named in its bases */
            self->defining = !self->complete;
        } else if (!p->in_record && !p->inst_type) {
            /* template <class T> struct D : B<D<T>>: the instance named in its bases */
            self = inst_rec = instance_record(p, kind, name);
            self->defining = true;
        }
        if (!base_classes(p, &bases))
            bases.n = 0;
        base = bases.n ? bases.items[0] : NULL;
        if (self && !lat__at_punct(p, LAT_P_LBRACE))
            self->defining = false;
    }
    if (!lat__at_punct(p, LAT_P_LBRACE)) {
        if (!name) {
            lat__syntax_error(p, "a struct's name or '{'");
            return &lat__ty_int;
        }
        /* `struct S;` alone declares S here; any other use finds the one in scope. */
        bool alone = lat__at_punct(p, LAT_P_SEMI);
        return find_tag(p, kind, name->atom, name->loc, alone)->type;
    }
    lat__record *r;
    lat__type *t;
    if (name && p->in_record && p->inst_of && p->inst_type) {
        /* a struct defined in a class template's instance: one per instance, known by its
         * name inside the class and as Outer<args>::Inner, not at file scope (C would put
         * every instance's there, under one name) */
        r = new_record(p, kind, name->atom, name->loc);
        r->emit_tag = lat__arena_printf(&p->u->arena, "%s__%s", p->inst_tag, name->atom->name);
        t = record_type(p, r);
    } else if (inst_rec) {
        r = inst_rec;
        t = p->inst_type;
    } else if (name && p->inst_of && name->atom == lat__template_name(p->inst_of) && !p->inst_type) {
        r = instance_record(p, kind, name);
        t = p->inst_type;
    } else if (name) {
        lat__sym *ts = find_tag(p, kind, name->atom, name->loc, true);
        r = ts->rec;
        t = ts->type;
        if (r->complete) {
            lat__error_tok(p, name, "redefinition of '%s %s'", kind == LAT_TY_UNION ? "union" : "struct",
                           name->atom->name);
            r = new_record(p, kind, NULL, name->loc); /* parse the body into a spare one */
            t = record_type(p, r);
        }
        r->loc = name->loc;
    } else {
        r = new_record(p, kind, NULL, kwt->loc);
        t = record_type(p, r);
    }
    r->packed = packed;
    r->min_align = align;
    r->base = base;
    if (bases.n > 1)
        for (size_t i = 0; i < bases.n; i++) {
            LAT_PUSH(&p->u->arena, r->bases, bases.items[i]);
            LAT_PUSH(&p->u->arena, r->base_offsets, 0);
            LAT_PUSH(&p->u->arena, r->base_fields_at, 0);
        }
    lat__next(p); /* { */
    struct_body(p, r);
    trailing_attributes(p);
    if (bases.n > 1) {
        several_bases(p, r);
    } else if (base && !lat__empty_record(base)) {
        /* cub's struct TempStorage : _TempStorage {}: a class that adds no data to its
         * base's is laid out as the base, and binds where the base is asked for */
        const char *why = r->fields.n ? data_beside_base(r, base) : NULL;
        if (why)
            lat__unsupported_at(p->u, r->loc, why, "a lattice limit");
        else {
            /* the base subobject first, as the Itanium C++ ABI lays it out: its members
             * lead (a base without tail padding, so C's layout of them all is the ABI's) */
            size_t own = r->fields.n;
            lat__field *mine = r->fields.items;
            r->fields.items = NULL;
            r->fields.n = r->fields.cap = 0;
            for (size_t i = 0; i < base->fields.n; i++)
                LAT_PUSH(&p->u->arena, r->fields, base_field(p, base->fields.items[i], mine, own));
            for (size_t i = 0; i < own; i++)
                LAT_PUSH(&p->u->arena, r->fields, mine[i]);
            r->nbase_fields = base->fields.n;
            if (!own)
                r->packed = base->packed;
            r->min_align = r->min_align > base->min_align ? r->min_align : base->min_align;
        }
    }
    if (!r->fields.n) {
        /* C++'s empty class (a function object, SharedMemory<T>) has size 1; C has none */
        lat__field f = {lat__atom_get(&p->u->atoms, "__lat_empty", 11), &lat__ty_char, r->loc, 0, -1, 0};
        LAT_PUSH(&p->u->arena, r->fields, f);
    }
    lat__record_layout(r);
    lat__class_defaults(p, r);
    if (p->defer_for && p->inst_type == t && !p->defer_for->complete)
        p->deferred = true; /* an instance naming a class not complete yet: its bodies wait */
    else
        lat__class_bodies(p, r);
    if (r->defining) {
        r->defining = false;
        lat__instances_complete(p, r);
    }
    if (s)
        s->defines = r;
    return t;
}

static void member_function(lat__parser *p, const lat__tok *at)
{
    lat__unsupported(p, at, "a member function (a struct with methods)", lat__why_cxx);
    lat__skip_member(p);
}

/* Past a default member initializer, `= value` or `{values}`, to the ',' or ';' after it. */
static void skip_member_initializer(lat__parser *p)
{
    if (lat__at_punct(p, LAT_P_LBRACE)) {
        lat__skip_group(p);
        return;
    }
    lat__next(p); /* = */
    while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_COMMA) && !lat__at_punct(p, LAT_P_SEMI) &&
           !lat__at_punct(p, LAT_P_RBRACE)) {
        lat__tok *t = lat__peek(p);
        if (lat__at_punct(p, LAT_P_LPAREN) || lat__at_punct(p, LAT_P_LBRACKET) || lat__at_punct(p, LAT_P_LBRACE)) {
            lat__skip_group(p);
            continue;
        }
        lat__next(p);
        /* a template's arguments, whose commas do not end the initializer: S<int, 3>::v */
        if (t->kind == LAT_TK_IDENT && t->atom->sym && t->atom->sym->tmpl && lat__at_punct(p, LAT_P_LT))
            lat__skip_angles(p);
    }
}

static void struct_body_(lat__parser *p, lat__record *r);

/* A name the rest of the struct's body sees (a member type, a static constant: `T x[N]`
 * after `static constexpr int N = 4;`), until struct_body unbinds it. */
static void bind_in_body(lat__sym *m)
{
    m->shadow = m->name->sym;
    m->name->sym = m;
}

/* Whether m is a name bind_in_body bound. */
static bool bound_in_body(const lat__sym *m)
{
    return (m->kind == LAT_SYM_TYPEDEF || m->kind == LAT_SYM_ENUM_CONST ||
            (m->kind == LAT_SYM_VAR && m->storage == LAT_ST_STATIC)) &&
           m->name->sym == m;
}

/* Whether r has a member called name already: a field, or a member function, constant
 * or type. */
static bool has_member(const lat__record *r, const lat__atom *name)
{
    for (size_t i = 0; i < r->fields.n; i++)
        if (r->fields.items[i].name == name)
            return true;
    return lat__find_member_sym(r, name) != NULL;
}

/* A member type (typedef T name; or using name = T;): found as S::name, and by its plain
 * name in the rest of the struct's body and in its member functions. It is bound here by
 * hand, not in a scope of the struct's own: C puts a struct nested in another in the
 * enclosing scope, and a namespace open around the struct must not take it as a member.
 * Its types are spelled as what it names: the emitted C's structs have no member types. */
static void member_type(lat__parser *p, lat__record *r, lat__atom *name, lat__loc loc, lat__type *t)
{
    if (has_member(r, name)) {
        lat__error_at(p->u, loc, "'%s' is a member of this struct already", name->name);
        return;
    }
    lat__sym *m = lat__sym_new(p, LAT_SYM_TYPEDEF, name, loc);
    m->type = t;
    m->rec = r;
    m->flags |= LAT_SF_TRANSPARENT;
    LAT_PUSH(&p->u->arena, r->methods, m);
    bind_in_body(m);
}

/* static const float eps = 1e-6f; (or constexpr) in a struct: a file-scope constant of
 * its own name (S__eps), found as S::eps and by its plain name inside, emitted with the
 * member functions that follow the struct (before them: they may use it). */
static void static_constant_member(lat__parser *p, lat__record *r, lat__atom *name, lat__loc loc,
                                   lat__type *t, lat__expr *init)
{
    lat__sym *v = lat__sym_new(p, LAT_SYM_VAR, name, loc);
    v->type = lat__qualified(p->u, t, LAT_Q_CONST);
    v->storage = LAT_ST_STATIC;
    v->depth = 0;
    v->flags |= LAT_SF_FILE_SCOPE | LAT_SF_DEFINED;
    v->emit_name = lat__arena_printf(&p->u->arena, "%s%s__%s", p->ns && !r->emit_tag ? p->ns->prefix : "",
                                     lat__record_c_name(r), name->name);
    lat__decl *d = lat__arena_alloc(&p->u->arena, sizeof *d);
    d->sym = v;
    d->loc = loc;
    d->init = t->kind == LAT_TY_ARRAY ? init : lat__convert_assign(p, init, v->type, "initializing");
    v->def = d;
    lat__decl_group *g = lat__arena_alloc(&p->u->arena, sizeof *g);
    g->base = v->type;
    g->first = d;
    g->loc = loc;
    LAT_PUSH(&p->u->arena, p->pending, ((lat__ext){LAT_X_DECL, g, NULL}));
    LAT_PUSH(&p->u->arena, r->methods, v);
    bind_in_body(v);
}

/* The member function just declared in r (the newest), marked constexpr when it was. */
static lat__sym *constexpr_method(lat__record *r, bool constexpr_)
{
    lat__sym *m = r->methods.items[r->methods.n - 1];
    if (constexpr_)
        m->flags |= LAT_SF_CONSTEXPR;
    return m;
}

lat__sym *lat__member_instance(lat__parser *p, lat__record *r, lat__atom *as)
{
    spec s;
    specifiers(p, &s);
    lat__type *base = base_type(p, &s);
    lat__atom *name = NULL;
    lat__loc loc = lat__peek(p)->loc;
    lat__type *t = declarator(p, base, &name, &loc, true);
    if (t->kind != LAT_TY_FUNC || !name || p->conv_type) {
        p->conv_type = NULL;
        lat__unsupported_at(p->u, loc, "a member template other than a member function", lat__why_cxx);
        return NULL;
    }
    deduce_return(p, t, loc);
    size_t before = r->methods.n;
    lat__member_function(p, r, t, as, loc, s.cuda, s.storage, false);
    return r->methods.n > before ? constexpr_method(r, s.constexpr_) : NULL;
}

typedef LAT_VEC(lat__sym *) sym_list;

/* The member types, enumerators and static constants of r's bases (theirs first), bound
 * by their plain names for r's body, as C++ finds them there (`result_type operator()`
 * of a class deriving from binary_function); each name's previous meaning into `saved`. */
static void bind_base_types(lat__parser *p, const lat__record *r, sym_list *saved, int depth)
{
    for (size_t k = 0; depth < 64 && k < lat__nbases(r); k++) {
        const lat__record *b = lat__base_of(r, k);
        bind_base_types(p, b, saved, depth + 1);
        for (size_t i = 0; i < b->methods.n; i++) {
            lat__sym *m = b->methods.items[i];
            if (m->kind != LAT_SYM_TYPEDEF && m->kind != LAT_SYM_ENUM_CONST &&
                !(m->kind == LAT_SYM_VAR && m->storage == LAT_ST_STATIC))
                continue;
            LAT_PUSH(&p->u->arena, *saved, m);
            LAT_PUSH(&p->u->arena, *saved, m->name->sym);
            m->name->sym = m;
        }
    }
}

static void struct_body(lat__parser *p, lat__record *r)
{
    lat__parse_enter(p, 0);
    size_t before = r->methods.n;
    sym_list saved = {0};
    bind_base_types(p, r, &saved, 0);
    struct_body_(p, r);
    /* The names bound by bind_in_body, unbound, newest first. */
    for (size_t i = r->methods.n; i-- > before;) {
        lat__sym *m = r->methods.items[i];
        if (bound_in_body(m))
            m->name->sym = m->shadow;
    }
    for (size_t i = saved.n; i >= 2; i -= 2)
        saved.items[i - 2]->name->sym = saved.items[i - 1];
    lat__parse_leave(p);
}

typedef LAT_VEC(lat__tok *) using_list;

/* using Base::name; in r's body, at `using`: a base's member function named so joins r's
 * overloads of the name (using_overloads, at the class's end); a base's data member is
 * in sight already. */
static void using_member(lat__parser *p, lat__record *r, using_list *usings)
{
    lat__tok *kw = lat__next(p);
    bool type_member = lat__at_kw(p, LAT_KW_TYPENAME); /* using typename Base::type; */
    if (type_member)
        lat__next(p);
    lat__tok *b = lat__peek(p);
    lat__record *base = NULL;
    /* the base by its name, or by a name standing for it (a template's parameter or a
     * typedef: PyTorch's `using typename ops_t::arg_t;` of a base ops_t) */
    const lat__sym *bs = b->kind == LAT_TK_IDENT ? b->atom->sym : NULL;
    const lat__record *named = bs && bs->kind == LAT_SYM_TYPEDEF && bs->type && lat__is_record(bs->type) ? bs->type->rec
                                                                                                      : NULL;
    for (size_t i = 0; b->kind == LAT_TK_IDENT && i < lat__nbases(r); i++)
        if (b->atom == lat__base_of(r, i)->tag || (named && named == lat__base_of(r, i)))
            base = lat__base_of(r, i);
    bool ok = base != NULL;
    if (ok) {
        lat__next(p);
        if (lat__at_punct(p, LAT_P_LT))
            lat__skip_angles(p); /* using Base<T>::f; */
        ok = lat__accept(p, LAT_P_SCOPE) && lat__peek(p)->kind == LAT_TK_IDENT &&
             lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_SEMI);
    }
    lat__tok *name = ok ? lat__next(p) : NULL;
    if (name && name->atom != base->tag && (type_member || !lat__find_method(base, name->atom))) {
        /* a base's member type, enumerator, static constant or data member: in sight
         * already (bind_base_types) */
        name = NULL;
    } else if (name && name->atom == base->tag) {
        lat__unsupported(p, kw, "inheriting a base's constructors (using Base::Base;)", "a lattice limit");
        name = NULL;
    } else if (!ok) {
        lat__unsupported(p, kw, "a using-declaration in a class other than using Base::member; of its base",
                         "a lattice limit");
    }
    while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_SEMI) && !lat__at_punct(p, LAT_P_RBRACE))
        lat__next(p);
    lat__accept(p, LAT_P_SEMI);
    if (name && lat__find_method(base, name->atom))
        LAT_PUSH(&p->u->arena, *usings, name);
}

/* The base's overloads each using-declaration names, after r's own of that name (which
 * hide none of them but one of the same parameters, refused). */
static void using_overloads(lat__parser *p, lat__record *r, const using_list *usings)
{
    for (size_t i = 0; i < usings->n; i++) {
        lat__tok *name = usings->items[i];
        lat__sym *theirs = NULL, *own = lat__find_method(r, name->atom);
        for (size_t k = 0; !theirs && k < lat__nbases(r); k++)
            theirs = lat__find_method(lat__base_of(r, k), name->atom);
        if (!own) {
            LAT_PUSH(&p->u->arena, r->methods, theirs);
            continue;
        }
        if (own->rec != r)
            continue; /* named twice */
        bool clash = false;
        for (lat__sym *o = own; o; o = o->overloads)
            for (lat__sym *t = theirs; t; t = t->overloads)
                clash |= o != t && lat__same_parameters(o->type, t->type);
        if (clash) {
            lat__unsupported_at(p->u, name->loc, "a using-declaration of a base's function that the class redeclares "
                                                 "with the same parameters",
                                "a lattice limit");
            continue;
        }
        lat__sym *tail = own;
        while (tail->overloads)
            tail = tail->overloads;
        tail->overloads = theirs;
    }
}

static void struct_body_(lat__parser *p, lat__record *r)
{
    bool saved = p->in_record;
    p->in_record = true;
    using_list usings = {0};
    while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_RBRACE)) {
        lat__tok *first = lat__peek(p);
        if (lat__accept(p, LAT_P_SEMI))
            continue;
        if (first->kind == LAT_TK_IDENT &&
            (first->atom->kw == LAT_KW_PUBLIC || first->atom->kw == LAT_KW_PRIVATE ||
             first->atom->kw == LAT_KW_PROTECTED) &&
            lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_COLON)) {
            lat__next(p); /* access is C++'s compile-time check: nothing to run */
            lat__next(p);
            continue;
        }
        if (lat__tok_kw(first, LAT_KW_STATIC_ASSERT) || lat__tok_kw(first, LAT_KW_STATIC_ASSERT_)) {
            lat__parse_declaration(p, NULL);
            continue;
        }
        if (lat__tok_kw(first, LAT_KW_TEMPLATE)) {
            lat__member_template(p, r);
            continue;
        }
        if (lat__tok_kw(first, LAT_KW_FRIEND)) {
            /* friend class B; friend f(...); grant access, which C has no notion of; a
             * friend defined here is a function of the enclosing namespace */
            lat__next(p);
            size_t at = p->pos;
            lat__skip_declaration(p);
            if (p->pos > at && lat__tok_is_punct(&p->toks[p->pos - 1], LAT_P_RBRACE))
                lat__friend_definition(p, r, at);
            continue;
        }
        /* A constructor: [__device__ ...] S(...) */
        size_t quals = 0;
        if (lat__at_constructor(p, r, &quals)) {
            unsigned cuda = 0;
            bool is_explicit = false;
            for (size_t k = 0; k < quals; k++) {
                lat__tok *q = lat__next(p);
                cuda |= q->atom->kw == LAT_KW_DEVICE ? LAT_CU_DEVICE : q->atom->kw == LAT_KW_HOST ? LAT_CU_HOST : 0;
                is_explicit |= q->atom->kw == LAT_KW_EXPLICIT;
            }
            lat__atom *name = NULL;
            lat__loc loc = lat__peek(p)->loc;
            lat__type *t = declarator(p, &lat__ty_void, &name, &loc, false);
            size_t before = r->methods.n;
            if (t->kind == LAT_TY_FUNC)
                lat__member_function(p, r, t, name, loc, cuda, LAT_ST_NONE, true);
            else
                member_function(p, first);
            if (is_explicit && r->methods.n > before)
                r->methods.items[before]->flags |= LAT_SF_EXPLICIT;
            continue;
        }
        /* A destructor: nothing to run when it is empty, as kernels' are. */
        if (lat__tok_is_punct(first, LAT_P_TILDE) ||
            (first->kind == LAT_TK_IDENT && lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_TILDE))) {
            while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_LBRACE) && !lat__at_punct(p, LAT_P_SEMI))
                lat__next(p);
            if (lat__at_punct(p, LAT_P_LBRACE) && !lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_RBRACE))
                lat__unsupported(p, first, "a destructor with a body", "destructors");
            if (lat__at_punct(p, LAT_P_LBRACE))
                lat__skip_group(p);
            else
                lat__accept(p, LAT_P_SEMI);
            continue;
        }
        if (lat__at_type_alias(p)) {
            lat__next(p); /* using */
            lat__tok *name = lat__next(p);
            lat__next(p); /* = */
            member_type(p, r, name->atom, name->loc, lat__parse_type_name(p));
            lat__expect(p, LAT_P_SEMI, "after the type alias");
            continue;
        }
        if (lat__tok_kw(first, LAT_KW_USING)) {
            using_member(p, r, &usings);
            continue;
        }
        spec s;
        specifiers(p, &s);
        if (!s.any) {
            lat__syntax_error(p, "a member declaration");
            lat__skip_statement(p);
            continue;
        }
        if (s.defines && s.defines != r && s.defines->tag && !has_member(r, s.defines->tag)) {
            /* struct Outer { struct Inner {...}; }: found as Outer::Inner too (C++) */
            member_type(p, r, s.defines->tag, s.defines->loc, lat__record_type_of(p, s.defines));
        }
        if (s.defines && s.defines->kind == LAT_TY_ENUM) {
            /* enum { value = 4 }; in a class: its enumerators are the class's members
             * (S::value, Log2<N / 2>::value), bound in its body by enum_specifier */
            for (size_t i = 0; i < s.defines->methods.n; i++) {
                lat__sym *c = s.defines->methods.items[i];
                c->rec = r;
                LAT_PUSH(&p->u->arena, r->methods, c);
            }
        }
        if (s.storage == LAT_ST_TYPEDEF) {
            lat__type *base = base_type(p, &s);
            do {
                lat__atom *name = NULL;
                lat__loc loc = lat__peek(p)->loc;
                lat__type *t = declarator(p, base, &name, &loc, false);
                if (!name) {
                    lat__syntax_error(p, "the typedef's name");
                    break;
                }
                member_type(p, r, name, loc, t);
            } while (lat__accept(p, LAT_P_COMMA));
            lat__expect(p, LAT_P_SEMI, "after the typedef");
            continue;
        }
        if (s.storage == LAT_ST_STATIC) {
            /* a static member function, or a constant: static const int N = 4; */
            lat__type *sb = base_type(p, &s);
            lat__atom *sname = NULL;
            lat__loc sloc = lat__peek(p)->loc;
            lat__type *st = declarator(p, sb, &sname, &sloc, false);
            if (st->kind == LAT_TY_FUNC && sname) {
                size_t before = r->methods.n;
                lat__member_function(p, r, st, sname, sloc, s.cuda, LAT_ST_STATIC, false);
                if (r->methods.n > before)
                    constexpr_method(r, s.constexpr_);
                continue;
            }
            /* static constexpr int rows = m, cols = k;: each declarator a constant */
            for (;;) {
                bool constant = sname && ((st->quals & LAT_Q_CONST) || s.constexpr_);
                if (constant && s.is_auto && !has_type_specifier(&s) && lat__at_punct(p, LAT_P_ASSIGN)) {
                    /* static constexpr auto value = V;: the initializer's type */
                    size_t at = p->pos;
                    lat__next(p);
                    lat__expr *e = lat__parse_assign_expr(p);
                    p->pos = at;
                    if (!(e->flags & LAT_EF_ERROR) && lat__is_scalar(e->type))
                        st = lat__qualified(p->u, lat__unqualified(p->u, lat__rvalue(p, e)->type), st->quals);
                }
                if (constant && lat__is_integer(st) && lat__accept(p, LAT_P_ASSIGN)) {
                    bool ok;
                    int64_t v = lat__parse_const_int(p, "a static constant member's value", &ok);
                    lat__sym *c = lat__sym_new(p, LAT_SYM_ENUM_CONST, sname, sloc);
                    c->type = lat__unqualified(p->u, st);
                    c->value = ok ? v : 0;
                    c->rec = r;
                    c->depth = 0;
                    LAT_PUSH(&p->u->arena, r->methods, c); /* found as S::N and by name inside */
                    bind_in_body(c);
                } else if (constant && lat__is_scalar(st) && lat__accept(p, LAT_P_ASSIGN)) {
                    static_constant_member(p, r, sname, sloc, st, lat__parse_assign_expr(p));
                } else if (constant && st->kind == LAT_TY_ARRAY && lat__is_scalar(st->base) &&
                           (lat__at_punct(p, LAT_P_LBRACE) ||
                            (lat__at_punct(p, LAT_P_ASSIGN) && lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_LBRACE)))) {
                    /* static constexpr int offs[4] = {3, 1, 2, 0}; a table of the class */
                    lat__accept(p, LAT_P_ASSIGN);
                    lat__type *at = lat__qualified(p->u, st, LAT_Q_CONST);
                    lat__expr *init = lat__parse_initializer(p, &at);
                    static_constant_member(p, r, sname, sloc, at, init);
                } else {
                    lat__unsupported(p, first, "a static data member other than a constant with its value",
                                     lat__why_cxx);
                    lat__skip_statement(p);
                    break;
                }
                if (!lat__accept(p, LAT_P_COMMA)) {
                    lat__expect(p, LAT_P_SEMI, "after the static constant");
                    break;
                }
                sname = NULL;
                sloc = lat__peek(p)->loc;
                st = declarator(p, sb, &sname, &sloc, false);
            }
            continue;
        }
        if (lat__at_kw(p, LAT_KW_OPERATOR) && !has_type_specifier(&s))
            s.cxx = true; /* operator T *(): its type is after the keyword */
        lat__type *base = base_type(p, &s);
        if (lat__at_punct(p, LAT_P_SEMI)) {
            /* An anonymous struct or union member (C11). */
            if (lat__is_record(base) && base->rec && !base->rec->tag) {
                lat__field f = {NULL, base, first->loc, 0, -1, 0};
                LAT_PUSH(&p->u->arena, r->fields, f);
            }
            lat__next(p);
            continue;
        }
        for (;;) {
            lat__atom *name = NULL;
            lat__loc loc = lat__peek(p)->loc;
            size_t at = p->pos;
            p->decl_align = 0;
            p->decl_packed = false;
            lat__type *t = lat__at_punct(p, LAT_P_COLON) ? base : declarator(p, base, &name, &loc, true);
            unsigned name_align = p->decl_align;
            bool name_packed = p->decl_packed;
            if (t->kind == LAT_TY_FUNC) {
                if (p->conv_type) {
                    t->base = p->conv_type;
                    p->conv_type = NULL;
                }
                if (name) {
                    deduce_return(p, t, loc);
                    size_t before = r->methods.n;
                    lat__member_function(p, r, t, name, loc, s.cuda, s.storage, false);
                    if (r->methods.n > before)
                        constexpr_method(r, s.constexpr_);
                } else {
                    p->pos = at;
                    member_function(p, &p->toks[at]);
                }
                goto next_member;
            }
            if (t->kind == LAT_TY_PTR && t->ref && t->ref != 1) {
                lat__unsupported_at(p->u, loc, "an rvalue reference member", lat__why_cxx);
                t = t->base; /* read on as the referenced type: no errors that follow from it */
            }
            int bits = -1;
            if (lat__accept(p, LAT_P_COLON)) {
                bool ok;
                int64_t w = lat__parse_const_int(p, "a bit-field width", &ok);
                if (ok && (w < 0 || (uint64_t)w > (uint64_t)lat__sizeof(t) * 8 || !lat__is_integer(t)))
                    lat__error_at(p->u, loc, "bit-field '%s' has an invalid width or type",
                                  name ? name->name : "<unnamed>");
                bits = ok && w >= 0 && w <= 64 ? (int)w : 1;
            }
            unsigned falign = s.align; /* __align__(16) int a; alignas(16) int a; */
            bool fpacked = false;
            lat__tok *fattr = lat__peek(p);
            attributes(p, NULL, &falign, &fpacked);
            fpacked |= name_packed;
            if (name_align > falign)
                falign = name_align;
            if (fpacked && lat__alignof(t) > 1)
                lat__unsupported_at(p->u, fattr->loc, "'packed' on a struct member",
                                    "write it after 'struct', which packs every member");
            /* A default member initializer: kept as its tokens, parsed where the class is
             * complete and its members are in sight (parse_class.c), as C++ does. */
            size_t init_at = 0;
            if (lat__at_punct(p, LAT_P_ASSIGN) || lat__at_punct(p, LAT_P_LBRACE)) {
                lat__tok *it = lat__peek(p);
                if (r->kind == LAT_TY_UNION)
                    lat__unsupported(p, it, "a default member initializer in a union", lat__why_cxx);
                else if (bits >= 0)
                    lat__unsupported(p, it, "a default member initializer of a bit-field", lat__why_cxx);
                else
                    init_at = p->pos;
                skip_member_initializer(p);
            }
            if (falign > lat__alignof(t)) {
                t = lat__type_copy(p->u, t);
                t->align = falign;
            }
            bool incomplete = !lat__is_complete(t) && !(t->kind == LAT_TY_ARRAY && t->count < 0);
            if (incomplete)
                lat__error_at(p->u, loc, "field '%s' has an incomplete type",
                              name ? name->name : "<unnamed>");
            if (name && has_member(r, name))
                lat__error_at(p->u, loc, "duplicate member '%s'", name->name);
            /* Not kept when incomplete: an unnamed field of the record's own type (a class
             * cut short by the end of the input) made member lookup, which looks inside
             * unnamed members, recurse for ever. */
            lat__field f = {name, t, loc, 0, bits, 0, init_at};
            if (!incomplete)
                LAT_PUSH(&p->u->arena, r->fields, f);
            if (!lat__accept(p, LAT_P_COMMA))
                break;
        }
        lat__expect(p, LAT_P_SEMI, "after a member declaration");
        if (p->panic)
            lat__skip_statement(p);
    next_member:;
    }
    using_overloads(p, r, &usings);
    lat__expect(p, LAT_P_RBRACE, "to close the struct");
    p->in_record = saved;
}

static lat__type *enum_specifier(lat__parser *p, spec *s)
{
    lat__tok *kwt = lat__next(p);
    bool scoped = false; /* enum class: its enumerators are E::A */
    if (lat__at_kw(p, LAT_KW_CLASS) || lat__at_kw(p, LAT_KW_STRUCT)) {
        scoped = true;
        lat__next(p);
    }
    attributes(p, NULL, NULL, NULL);
    lat__tok *name = NULL;
    if (lat__peek(p)->kind == LAT_TK_IDENT && !lat__peek(p)->atom->kw)
        name = lat__next(p);
    lat__type *under = NULL;
    if (lat__accept(p, LAT_P_COLON)) {
        under = lat__parse_type_name(p);
        if (under && !lat__is_integer(under)) {
            lat__error_at(p->u, kwt->loc, "an enum's underlying type must be an integer type");
            under = NULL;
        }
    }
    if (!lat__at_punct(p, LAT_P_LBRACE)) {
        if (!name) {
            lat__syntax_error(p, "an enum's name or '{'");
            return &lat__ty_int;
        }
        return find_tag(p, LAT_TY_ENUM, name->atom, name->loc, lat__at_punct(p, LAT_P_SEMI))->type;
    }
    lat__record *r;
    lat__type *t;
    if (name) {
        lat__sym *ts = find_tag(p, LAT_TY_ENUM, name->atom, name->loc, true);
        r = ts->rec;
        t = ts->type;
    } else {
        r = new_record(p, LAT_TY_ENUM, NULL, kwt->loc);
        t = record_type(p, r);
    }
    lat__next(p); /* { */
    lat__ns *scope = NULL;
    size_t scope_mark = p->bound.n;
    if (scoped && !name)
        lat__error_tok(p, kwt, "an enum class needs a name");
    else if (scoped)
        scope = lat__scoped_enum_open(p, name->atom);
    int64_t next = 0, lo = 0, hi = 0;
    LAT_VEC(lat__sym *) consts = {0};
    while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_RBRACE)) {
        lat__tok *n = lat__peek(p);
        if (n->kind != LAT_TK_IDENT || n->atom->kw) {
            lat__syntax_error(p, "an enumerator");
            break;
        }
        lat__next(p);
        attributes(p, NULL, NULL, NULL);
        if (lat__accept(p, LAT_P_ASSIGN)) {
            bool ok;
            int64_t v = lat__parse_const_int(p, "an enumerator's value", &ok);
            if (ok)
                next = v;
        }
        bool member = p->in_record && !scope; /* a class's member: struct_body_ adds it */
        bool twice = false;
        for (size_t i = 0; member && i < consts.n; i++)
            twice |= consts.items[i]->name == n->atom;
        if (member ? twice : scope ? n->atom->sym && n->atom->sym->ns == scope : lat__in_this_scope(p, n->atom->sym))
            lat__error_tok(p, n, "redefinition of '%s'", n->atom->name);
        lat__sym *c = lat__sym_new(p, LAT_SYM_ENUM_CONST, n->atom, n->loc);
        c->value = next;
        c->type = &lat__ty_int;
        if (member) {
            bind_in_body(c);
            LAT_PUSH(&p->u->arena, r->methods, c);
        } else {
            lat__bind(p, c);
        }
        LAT_PUSH(&p->u->arena, consts, c);
        lo = next < lo ? next : lo;
        hi = next > hi ? next : hi;
        next++;
        if (!lat__accept(p, LAT_P_COMMA))
            break;
    }
    lat__expect(p, LAT_P_RBRACE, "to close the enum");
    if (scope)
        lat__scoped_enum_close(p, scope, scope_mark);
    attributes(p, NULL, NULL, NULL);
    /* The underlying type: int when every value fits, as gcc does. */
    lat__type *base = under ? lat__unqualified(p->u, under)
                      : lo >= INT32_MIN && hi <= INT32_MAX ? &lat__ty_int
                      : lo >= 0 && hi <= (int64_t)UINT32_MAX ? &lat__ty_uint
                      : lo >= 0 ? &lat__ty_ulong : &lat__ty_long;
    t->base = base;
    t->size = t->align = lat__sizeof(base);
    t->is_signed = base->is_signed;
    r->complete = true;
    r->size = r->align = lat__sizeof(base);
    for (size_t i = 0; i < consts.n; i++)
        if (base != &lat__ty_int && base != &lat__ty_uint)
            consts.items[i]->type = base;
    if (s)
        s->defines = r;
    return t;
}

/* ---- declarators ------------------------------------------------------------------------------ */

static unsigned pointer_quals(lat__parser *p)
{
    unsigned q = 0;
    for (;;) {
        lat__tok *t = lat__peek(p);
        if (lat__at_attribute(p) && !(t->kind == LAT_TK_IDENT && (t->atom->kw == LAT_KW_ASM ||
                                                                  t->atom->kw == LAT_KW_ASM2 ||
                                                                  t->atom->kw == LAT_KW_ASM3))) {
            attributes(p, NULL, NULL, NULL);
            continue;
        }
        if (t->kind != LAT_TK_IDENT)
            return q;
        switch (t->atom->kw) {
        case LAT_KW_CONST: case LAT_KW_CONST2: q |= LAT_Q_CONST; break;
        case LAT_KW_VOLATILE: case LAT_KW_VOLATILE2: q |= LAT_Q_VOLATILE; break;
        case LAT_KW_RESTRICT: case LAT_KW_RESTRICT2: case LAT_KW_RESTRICT3: q |= LAT_Q_RESTRICT; break;
        default: return q;
        }
        lat__next(p);
    }
}

/* After '(': whether a nested declarator follows (`(*f)`, `(x)`), not parameters. */
static bool nested_declarator(lat__parser *p, bool abstract)
{
    lat__tok *t = lat__peek_at(p, 1);
    if (lat__tok_is_punct(t, LAT_P_STAR) || lat__tok_is_punct(t, LAT_P_CARET) ||
        lat__tok_is_punct(t, LAT_P_AMP) || lat__tok_is_punct(t, LAT_P_ANDAND) ||
        lat__tok_is_punct(t, LAT_P_LBRACKET))
        return true;
    if (lat__tok_is_punct(t, LAT_P_LPAREN))
        return true;
    if (t->kind == LAT_TK_IDENT) {
        if (t->atom->kw == LAT_KW_ATTRIBUTE || t->atom->kw == LAT_KW_ATTRIBUTE2)
            return true;
        if (t->atom->kw)
            return false;
        return !abstract && !lat__is_type_name(p, t);
    }
    return false;
}

/* At `name (` in a declaration inside a function: whether what follows is a parameter
 * list (a function's declaration) rather than a constructor's arguments, `T x(a, b);`. */
static bool parameters_follow(lat__parser *p)
{
    const lat__tok *n = lat__peek_at(p, 1);
    if (lat__tok_is_punct(n, LAT_P_RPAREN) || lat__tok_is_punct(n, LAT_P_ELLIPSIS))
        return true;
    size_t save = p->pos;
    p->pos++;
    bool decl = lat__starts_declaration(p);
    p->pos = save;
    /* T x(U(0.5f) * a, ...): a type followed by ( or { and then what no declarator starts
     * with (a literal, an operator) is a functional cast, an argument; C++ takes U(y) and
     * U() as parameters, so those stay a declaration */
    const lat__tok *open = lat__peek_at(p, 2), *in = lat__peek_at(p, 3);
    bool name = in->kind == LAT_TK_IDENT && (!in->atom->kw || lat__tok_kw(in, LAT_KW_CONST) ||
                                             lat__tok_kw(in, LAT_KW_VOLATILE) || lat__is_type_name(p, in));
    if (decl && n->kind == LAT_TK_IDENT && (lat__tok_is_punct(open, LAT_P_LPAREN) || lat__tok_is_punct(open, LAT_P_LBRACE)) &&
        !name && !lat__tok_is_punct(in, LAT_P_STAR) && !lat__tok_is_punct(in, LAT_P_AMP) &&
        !lat__tok_is_punct(in, LAT_P_ANDAND) && !lat__tok_is_punct(in, LAT_P_RPAREN) &&
        !lat__tok_is_punct(in, LAT_P_LPAREN) && !lat__tok_is_punct(in, LAT_P_SCOPE) &&
        !lat__tok_is_punct(in, LAT_P_LBRACKET) && !lat__tok_is_punct(in, LAT_P_ELLIPSIS))
        return false;
    if (decl && n->kind == LAT_TK_IDENT && lat__tok_is_punct(open, LAT_P_LBRACE))
        return false; /* T x(U{...}): a braced temporary is never a parameter */
    if (decl && n->kind == LAT_TK_IDENT && lat__tok_is_punct(open, LAT_P_LPAREN)) {
        /* T x(U(a) * b): an operator after U(...) makes it an expression */
        size_t k = 3;
        for (int depth = 1; depth > 0 && lat__peek_at(p, k)->kind != LAT_TK_EOF; k++)
            depth += lat__tok_is_punct(lat__peek_at(p, k), LAT_P_LPAREN) ? 1
                     : lat__tok_is_punct(lat__peek_at(p, k), LAT_P_RPAREN) ? -1
                                                                            : 0;
        const lat__tok *after = lat__peek_at(p, k);
        if (after->kind == LAT_TK_PUNCT && !lat__tok_is_punct(after, LAT_P_COMMA) &&
            !lat__tok_is_punct(after, LAT_P_RPAREN) && !lat__tok_is_punct(after, LAT_P_LBRACKET) &&
            !lat__tok_is_punct(after, LAT_P_LPAREN) && !lat__tok_is_punct(after, LAT_P_ASSIGN))
            return false;
    }
    return decl;
}

static lat__type *suffixes(lat__parser *p, lat__type *t);

lat__type *lat__member_pointer_class(lat__parser *p, const lat__tok *t)
{
    if (t->kind != LAT_TK_IDENT || t->atom->kw)
        return NULL;
    lat__sym *s = t->atom->sym;
    if (s && s->kind == LAT_SYM_TYPEDEF && s->type &&
        (lat__is_template_placeholder(s->type) || (lat__is_record(s->type) && s->type->rec)))
        return lat__typedef_type(p, s);
    lat__sym *tag = t->atom->tag;
    if ((!s || s->kind != LAT_SYM_VAR) && tag && tag->rec && tag->rec->kind != LAT_TY_ENUM)
        return lat__record_type_of(p, tag->rec);
    return NULL;
}

/* R (C::*name)(A...) const at its '(' (base: R): a pointer to a member function of C,
 * whose function type is const for a const member. Such a type is for templates to
 * match and take apart (function_traits); a value of it is refused where it is made
 * (&C::f outside decltype) or called. A pointer to a data member (int C::*) is refused. */
static lat__type *member_pointer(lat__parser *p, lat__type *base, lat__atom **name, lat__loc *loc, bool abstract)
{
    lat__tok *open = lat__next(p), *cls = lat__next(p);
    lat__type *c = lat__member_pointer_class(p, cls);
    lat__next(p); /* :: */
    lat__next(p); /* * */
    while (lat__at_kw(p, LAT_KW_CONST) || lat__at_kw(p, LAT_KW_VOLATILE))
        lat__next(p);
    if (lat__peek(p)->kind == LAT_TK_IDENT && !lat__peek(p)->atom->kw) {
        lat__tok *n = lat__next(p);
        if (abstract && !name)
            lat__error_tok(p, n, "a name in a type that names nothing");
        if (name)
            *name = n->atom;
        if (loc)
            *loc = n->loc;
    }
    if (!lat__expect(p, LAT_P_RPAREN, "to close the pointer to member")) {
        p->pos = (size_t)(open - p->toks);
        lat__skip_group(p);
    }
    if (!c) {
        lat__error_tok(p, cls, "'%.*s' before '::*' names no class", (int)cls->len, cls->text);
        c = &lat__ty_int;
    }
    if (!lat__at_punct(p, LAT_P_LPAREN)) {
        lat__unsupported(p, cls, "a pointer to a data member (T C::*)", lat__why_cxx);
        return &lat__ty_int;
    }
    bool outer_in = p->in_member_ptr, outer_const = p->method_const;
    p->in_member_ptr = true;
    p->method_const = false;
    lat__type *fn = suffixes(p, base);
    if (p->method_const && fn->kind == LAT_TY_FUNC)
        fn = lat__qualified(p->u, fn, LAT_Q_CONST);
    p->in_member_ptr = outer_in;
    p->method_const = outer_const;
    lat__type *t = lat__pointer_to(p->u, fn);
    t->member_of = c;
    return t;
}

static lat__type *suffixes(lat__parser *p, lat__type *t)
{
    if (lat__at_punct(p, LAT_P_LPAREN)) {
        if (p->depth > 0 && !p->in_params && !parameters_follow(p))
            return t; /* T x(args): the caller reads the arguments */
        return parse_params(p, t);
    }
    if (!lat__at_punct(p, LAT_P_LBRACKET))
        return t;
    lat__tok *open = lat__next(p);
    int64_t count = -1;
    lat__expr *vla = NULL, *size_e = NULL;
    while (lat__at_kw(p, LAT_KW_STATIC) || lat__at_kw(p, LAT_KW_CONST) ||
           lat__at_kw(p, LAT_KW_RESTRICT) || lat__at_kw(p, LAT_KW_VOLATILE) ||
           lat__at_kw(p, LAT_KW_RESTRICT3))
        lat__next(p);
    if (!lat__at_punct(p, LAT_P_RBRACKET)) {
        if (lat__at_punct(p, LAT_P_STAR) && lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_RBRACKET)) {
            lat__next(p);
        } else {
            lat__expr *e = size_e = lat__parse_assign_expr(p);
            if (e->flags & LAT_EF_ERROR) {
                count = 1; /* reported: go on without more errors about it */
            } else if (e->flags & LAT_EF_CONST) {
                if (!lat__is_integer(e->type)) {
                    lat__error_at(p->u, e->loc, "an array's size must be an integer");
                } else if (e->ival < 0 || (lat__is_unsigned(e->type) && (uint64_t)e->ival > (1ull << 40))) {
                    lat__error_at(p->u, e->loc, "an array's size is negative or too large (%lld)",
                                  (long long)e->ival);
                } else {
                    count = e->ival;
                }
            } else {
                if (!lat__is_integer(e->type))
                    lat__error_at(p->u, e->loc, "an array's size must be an integer");
                vla = e;
            }
        }
    }
    int vph = size_e && size_e->kind == LAT_E_NAME && size_e->sym && size_e->sym->tparam > 0 ? size_e->sym->tparam : 0;
    lat__expect(p, LAT_P_RBRACKET, "to close the array's size");
    lat__type *elem = suffixes(p, t);
    const lat__type *inner = elem; /* T (&a)[R][C] read for deduction: arrays of a placeholder */
    while (inner->kind == LAT_TY_ARRAY)
        inner = inner->base;
    if (elem->kind == LAT_TY_FUNC)
        lat__error_tok(p, open, "an array of functions");
    else if (!lat__is_complete(elem) && !p->in_builtin && !lat__is_template_placeholder(inner))
        lat__error_tok(p, open, "an array of an incomplete type (%s)",
                       lat__type_str(p->u, elem, NULL, false));
    lat__type *a = lat__array_of(p->u, elem, count);
    a->vla = vla;
    a->count_vph = vph;
    return a;
}

static lat__type *declarator_(lat__parser *p, lat__type *base, lat__atom **name,
                              lat__loc *loc, bool abstract);

static lat__type *declarator(lat__parser *p, lat__type *base, lat__atom **name, lat__loc *loc,
                             bool abstract)
{
    lat__parse_enter(p, 0);
    lat__type *t = declarator_(p, base, name, loc, abstract);
    lat__parse_leave(p);
    return t;
}

static lat__type *declarator_(lat__parser *p, lat__type *base, lat__atom **name,
                              lat__loc *loc, bool abstract)
{
    /* Each '*' is one level more of the type (the passes walk types recursively). */
    int stars = 0;
    for (;;) {
        if (lat__accept(p, LAT_P_STAR)) {
            lat__parse_enter(p, stars++);
            lat__parse_leave(p);
            unsigned q = pointer_quals(p);
            base = lat__qualified(p->u, lat__pointer_to(p->u, base), q);
            continue;
        }
        lat__tok *t = lat__peek(p);
        if (lat__tok_is_punct(t, LAT_P_AMP) || lat__tok_is_punct(t, LAT_P_ANDAND)) {
            lat__next(p);
            pointer_quals(p);
            if (base->kind == LAT_TY_PTR && base->ref) {
                /* C++'s reference collapsing, through a template parameter or an alias
                 * (const T & with T = float &, tuple<Ts &...>'s members): & of any
                 * reference is an lvalue reference, && keeps the reference; the const on
                 * the reference itself means nothing */
                if (lat__tok_is_punct(t, LAT_P_AMP) && base->ref != 1)
                    base = lat__reference_to(p->u, base->base);
                else
                    base = lat__unqualified(p->u, base);
                continue;
            }
            base = lat__reference_to(p->u, base);
            if (lat__tok_is_punct(t, LAT_P_ANDAND))
                base->ref = 2;
            continue;
        }
        if (t->kind == LAT_TK_IDENT && t->atom->kw == 0 &&
            lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_SCOPE)) {
            /* S::f(...) { ... }: a member function defined outside its class */
            lat__sym *tag = t->atom->tag;
            if (p->depth == 0 && !p->in_record && tag && tag->rec && tag->rec->kind != LAT_TY_ENUM &&
                !abstract && name) {
                p->decl_class = tag->rec;
                lat__next(p);
                lat__next(p);
                if (lat__at_punct(p, LAT_P_TILDE)) {
                    lat__unsupported(p, lat__peek(p), "a destructor defined outside its class", "destructors");
                    lat__next(p);
                }
                continue;
            }
            lat__unsupported(p, lat__peek_at(p, 1),
                             lat__tok_is_punct(lat__peek_at(p, 2), LAT_P_STAR) ? "a pointer to a data member (T C::*)"
                                                                                : "the scope operator '::'",
                             lat__why_cxx);
            lat__next(p);
            lat__next(p);
            continue;
        }
        break;
    }
    if (lat__at_punct(p, LAT_P_LPAREN) && lat__peek_at(p, 1)->kind == LAT_TK_IDENT &&
        lat__tok_is_punct(lat__peek_at(p, 2), LAT_P_SCOPE) && lat__tok_is_punct(lat__peek_at(p, 3), LAT_P_STAR)) {
        /* R (C::*)(A...) const: PyTorch's function_traits of a lambda's operator(), a type
         * for templates and decltype to take apart */
        return member_pointer(p, base, name, loc, abstract);
    }
    if (lat__at_punct(p, LAT_P_LPAREN) && nested_declarator(p, abstract)) {
        size_t start = p->pos;
        lat__skip_group(p);
        lat__type *outer = suffixes(p, base);
        size_t end = p->pos;
        p->pos = start + 1;
        attributes(p, NULL, NULL, NULL);
        lat__type *t = declarator(p, outer, name, loc, abstract);
        lat__expect(p, LAT_P_RPAREN, "to close the declarator");
        p->pos = end;
        return t;
    }
    lat__tok *t = lat__peek(p);
    if (t->kind == LAT_TK_IDENT && !t->atom->kw) {
        if (name)
            *name = t->atom;
        if (loc)
            *loc = t->loc;
        lat__next(p);
        if (p->specialization && lat__at_punct(p, LAT_P_LT)) {
            p->specialization = false; /* template <> float f<float>(...): the instance's name */
            lat__skip_angles(p);
        }
    } else if (t->kind == LAT_TK_IDENT && t->atom->kw == LAT_KW_OPERATOR) {
        lat__next(p);
        lat__tok *o = lat__peek(p);
        char spelled[16] = "";
        if (lat__at_punct(p, LAT_P_LPAREN) && lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_RPAREN)) {
            strcpy(spelled, "()");
            lat__next(p);
            lat__next(p);
        } else if (lat__at_punct(p, LAT_P_LBRACKET) && lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_RBRACKET)) {
            strcpy(spelled, "[]");
            lat__next(p);
            lat__next(p);
        } else if (o->kind == LAT_TK_PUNCT && o->len < sizeof spelled && !lat__tok_is_punct(o, LAT_P_LPAREN)) {
            memcpy(spelled, o->text, o->len);
            spelled[o->len] = '\0';
            lat__next(p);
        } else if (p->in_record && lat__starts_declaration(p)) {
            /* operator T *(): a conversion to T * */
            spec cs;
            specifiers(p, &cs);
            lat__type *ct = base_type(p, &cs);
            while (lat__accept(p, LAT_P_STAR))
                ct = lat__qualified(p->u, lat__pointer_to(p->u, ct), pointer_quals(p));
            p->conv_type = ct;
            const char *full = lat__arena_printf(&p->u->arena, "operator %s", lat__type_str(p->u, ct, NULL, false));
            if (name)
                *name = lat__atom_get(&p->u->atoms, full, strlen(full));
            if (loc)
                *loc = t->loc;
        } else {
            lat__unsupported(p, t, "a conversion operator outside a class", lat__why_cxx);
            while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_LPAREN))
                lat__next(p);
        }
        if (spelled[0]) {
            char full[32];
            snprintf(full, sizeof full, "operator%s", spelled);
            if (name)
                *name = lat__atom_get(&p->u->atoms, full, strlen(full));
            if (loc)
                *loc = t->loc;
        }
    } else if (!abstract) {
        lat__syntax_error(p, "a name in the declaration");
    }
    attributes(p, NULL, &p->decl_align, &p->decl_packed);
    return suffixes(p, base);
}

/* A parameter's type as the function sees it: arrays and functions become pointers. */
static lat__type *adjust_param(lat__parser *p, lat__type *t)
{
    if (t->kind == LAT_TY_ARRAY)
        return lat__pointer_to(p->u, t->base);
    if (t->kind == LAT_TY_FUNC)
        return lat__pointer_to(p->u, t);
    return t;
}

/* Whether a parameter's default (its tokens from..to) depends on a template parameter
 * that stands as a placeholder: the parameter's type is one (T, const T &, T *) or the
 * expression names one (std::numeric_limits<T>::max() for a float). */
static bool dependent_default(lat__parser *p, const lat__type *t, size_t from, size_t to)
{
    while (t->kind == LAT_TY_PTR || t->kind == LAT_TY_ARRAY)
        t = t->base;
    if (lat__is_template_placeholder(t))
        return true;
    for (size_t i = from; i < to; i++) {
        const lat__tok *k = &p->toks[i];
        if (k->kind == LAT_TK_IDENT && !k->atom->kw && k->atom->sym && k->atom->sym->kind == LAT_SYM_TYPEDEF &&
            k->atom->sym->type && lat__is_template_placeholder(k->atom->sym->type))
            return true;
    }
    return false;
}

static lat__type *parse_params(lat__parser *p, lat__type *ret)
{
    lat__tok *open = lat__next(p); /* ( */
    lat__type *f = lat__func_type(p->u, ret);
    LAT_VEC(lat__type *) types = {0};
    LAT_VEC(lat__sym *) syms = {0};
    LAT_VEC(lat__expr *) defaults = {0};
    lat__scope_open(p);
    bool saved_in_params = p->in_params;
    p->in_params = true;
    if (lat__at_kw(p, LAT_KW_VOID) && lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_RPAREN))
        lat__next(p);
    while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_RPAREN)) {
        if (lat__accept(p, LAT_P_ELLIPSIS)) {
            f->params.variadic = true;
            break;
        }
        lat__tok *first = lat__peek(p);
        spec s;
        specifiers(p, &s);
        if (!s.any) {
            lat__syntax_error(p, "a parameter's type");
            break;
        }
        if (s.storage && s.storage != LAT_ST_REGISTER)
            lat__error_tok(p, first, "a storage class on a parameter");
        if (s.is_auto && !has_type_specifier(&s))
            lat__unsupported(p, first, "a function parameter declared auto (an abbreviated function template)",
                             "a lattice limit: give the parameter's type, or write a function template");
        lat__type *base = base_type(p, &s);
        lat__atom *name = NULL;
        lat__loc loc = first->loc;
        lat__type *t = adjust_param(p, declarator(p, base, &name, &loc, true));
        lat__expr *dflt = NULL;
        bool dflt_converted = false;
        if (lat__accept(p, LAT_P_ASSIGN)) {
            lat__unit *u = p->u;
            lat_status status = u->status;
            int nerrors = u->nerrors;
            size_t ndiags = u->diags.n, from = p->pos;
            dflt = lat__parse_assign_expr(p);
            if (dependent_default(p, t, from, p->pos)) {
                /* T hi = std::numeric_limits<T>::max(), T init = T(): read for deduction,
                 * with T a placeholder, it means nothing yet; each instance reads it again
                 * with its own T (where an error is the instance's). Here it only says
                 * that the parameter has a default. */
                dflt = lat__convert_assign(p, dflt, t, "a default argument as");
                dflt_converted = true;
                if (u->nerrors != nerrors) {
                    u->status = status;
                    u->nerrors = nerrors;
                    u->diags.n = ndiags;
                    dflt = lat__zero(p, dflt->loc);
                }
            } else if (!lat__default_argument_ok(p, dflt)) {
                dflt = NULL;
            }
        } else if (defaults.n) {
            lat__error_tok(p, first, "a parameter without a default argument after one with");
        }
        if (t->kind == LAT_TY_VOID && !lat__is_template_placeholder(t) && !(s.is_auto && !has_type_specifier(&s))) {
            lat__error_tok(p, first, "a parameter of type void");
            t = &lat__ty_int;
        }
        lat__sym *ps = lat__sym_new(p, LAT_SYM_VAR, name, loc);
        ps->type = t;
        ps->flags |= LAT_SF_PARAM;
        ps->cuda = s.cuda & LAT_CU_GRID_CONSTANT;
        if (name) {
            if (lat__in_this_scope(p, name->sym))
                lat__error_at(p->u, loc, "two parameters named '%s'", name->name);
            lat__bind(p, ps);
        }
        LAT_PUSH(&p->u->arena, types, t);
        LAT_PUSH(&p->u->arena, syms, ps);
        if (dflt && !defaults.n)
            for (size_t i = 0; i + 1 < types.n; i++)
                LAT_PUSH(&p->u->arena, defaults, (lat__expr *)NULL);
        if (dflt || defaults.n)
            LAT_PUSH(&p->u->arena, defaults,
                     dflt && !dflt_converted ? lat__convert_assign(p, dflt, t, "a default argument as") : dflt);
        if (!lat__accept(p, LAT_P_COMMA))
            break;
    }
    p->in_params = saved_in_params;
    if (!lat__expect(p, LAT_P_RPAREN, "to close the parameter list")) {
        /* Skip to the list's end so that the declaration can go on. */
        p->pos = (size_t)(open - p->toks);
        lat__skip_group(p);
    }
    f->params.types = types.items;
    f->params.syms = syms.items;
    f->params.n = (int)types.n;
    f->params.defaults = defaults.items;
    /* C++, which CUDA is: `f()` takes no arguments. */
    f->params.unprototyped = false;
    while (lat__at_kw(p, LAT_KW_CONST) || lat__at_kw(p, LAT_KW_NOEXCEPT) ||
           lat__at_kw(p, LAT_KW_THROW) || lat__at_kw(p, LAT_KW_VOLATILE)) {
        lat__tok *q = lat__next(p);
        if (q->atom->kw == LAT_KW_CONST && (p->in_record || p->decl_class || p->in_member_ptr))
            p->method_const = true;
        else if (q->atom->kw == LAT_KW_VOLATILE && (p->in_record || p->decl_class))
            p->method_volatile = true; /* operator=(...) volatile: its object is volatile */
        else if (q->atom->kw == LAT_KW_NOEXCEPT || q->atom->kw == LAT_KW_THROW)
            ; /* noexcept(...), throw(): nothing throws in device code */
        else
            lat__unsupported(p, q, q->atom->kw == LAT_KW_CONST      ? "a const member function outside its class"
                                   : q->atom->kw == LAT_KW_VOLATILE ? "a volatile member function outside its class"
                                                                    : "an exception specification",
                             lat__why_cxx);
        if (lat__at_punct(p, LAT_P_LPAREN))
            lat__skip_group(p);
    }
    if (lat__at_punct(p, LAT_P_ARROW) && !p->lambda) {
        /* auto f(T a, U b) -> decltype(a * b): read with the parameters in scope */
        lat__tok *arrow = lat__next(p);
        bool depends = false; /* a template's signature read for deduction: T a, U b */
        for (size_t i = 0; i < types.n && !depends; i++)
            for (const lat__type *x = types.items[i]; x && !depends; x = x->kind == LAT_TY_PTR ? x->base : NULL)
                depends = lat__is_template_placeholder(x);
        lat__type *t = NULL;
        if (depends) {
            /* known in the instance only, and deducing nothing: skip it */
            while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_LBRACE) && !lat__at_punct(p, LAT_P_SEMI) &&
                   !lat__at_punct(p, LAT_P_ASSIGN)) {
                if (lat__at_punct(p, LAT_P_LPAREN) || lat__at_punct(p, LAT_P_LBRACKET))
                    lat__skip_group(p);
                else
                    lat__next(p);
            }
            t = lat__dependent_type(p);
        } else {
            t = lat__parse_type_name(p);
        }
        if (!is_auto_placeholder(ret))
            lat__error_tok(p, arrow, "a trailing return type after a return type other than 'auto'");
        else if (t)
            f->base = ret = lat__qualified(p->u, t, ret->quals);
    }
    lat__scope_close(p);
    if (ret->kind == LAT_TY_ARRAY || ret->kind == LAT_TY_FUNC)
        lat__error_tok(p, open, "a function returning %s", ret->kind == LAT_TY_ARRAY ? "an array" : "a function");
    return f;
}

lat__type *lat__parse_type_name(lat__parser *p)
{
    lat__tok *first = lat__peek(p);
    spec s;
    specifiers(p, &s);
    if (!s.any) {
        lat__syntax_error(p, "a type");
        return NULL;
    }
    if (s.storage)
        lat__error_tok(p, first, "a storage class in a type name");
    lat__type *base = base_type(p, &s);
    return declarator(p, base, NULL, NULL, true);
}

lat__type *lat__parse_new_type(lat__parser *p)
{
    lat__tok *first = lat__peek(p);
    spec s;
    specifiers(p, &s);
    if (!s.any) {
        lat__syntax_error(p, "a type after 'new'");
        return NULL;
    }
    if (s.storage)
        lat__error_tok(p, first, "a storage class in a type name");
    lat__type *t = base_type(p, &s);
    while (lat__accept(p, LAT_P_STAR)) {
        unsigned q = pointer_quals(p);
        t = lat__qualified(p->u, lat__pointer_to(p->u, t), q);
    }
    return t;
}

bool lat__declarator_follows(lat__parser *p)
{
    /* At `T (`: scan the parenthesised part and what follows it. A declarator is
     * pointers, a name, suffixes; a declaration goes on with = , ; [ or (. */
    size_t save = p->pos;
    lat__next(p); /* the type */
    int depth = 0;
    bool named = false, pointer = false;
    while (!lat__at_eof(p)) {
        lat__tok *t = lat__next(p);
        if (lat__tok_is_punct(t, LAT_P_LPAREN)) {
            depth++;
        } else if (lat__tok_is_punct(t, LAT_P_RPAREN)) {
            if (--depth == 0)
                break;
        } else if (lat__tok_is_punct(t, LAT_P_STAR) || lat__tok_is_punct(t, LAT_P_AMP)) {
            pointer = true;
            continue;
        } else if (t->kind == LAT_TK_IDENT && !t->atom->kw && !named) {
            named = true;
        } else if (lat__tok_is_punct(t, LAT_P_LBRACKET)) {
            p->pos--;
            lat__skip_group(p);
        } else {
            p->pos = save;
            return false; /* an operator or a literal: an expression */
        }
    }
    lat__tok *after = lat__peek(p);
    /* T (*f)(int): a pointer to a function (T (x)(y) stays a cast and a call) */
    bool decl = named && (lat__tok_is_punct(after, LAT_P_ASSIGN) || lat__tok_is_punct(after, LAT_P_SEMI) ||
                          lat__tok_is_punct(after, LAT_P_COMMA) || lat__tok_is_punct(after, LAT_P_LBRACKET) ||
                          (pointer && lat__tok_is_punct(after, LAT_P_LPAREN)));
    p->pos = save;
    return decl;
}

/* ---- initializers ------------------------------------------------------------------------------ */

static bool is_char_array(const lat__type *t)
{
    return t->kind == LAT_TY_ARRAY && t->base &&
           (t->base->kind == LAT_TY_CHAR || t->base->kind == LAT_TY_SCHAR || t->base->kind == LAT_TY_UCHAR);
}

static lat__expr *init_list(lat__parser *p, lat__type *t, int64_t *count);

/* One initializer for an element or member of type t (braces optional for aggregates,
 * whose elements are then taken from the list as C's brace elision says: the emitted C
 * keeps the list as written, so only the leaves' conversions matter here). */
static lat__expr *init_value(lat__parser *p, lat__type *t)
{
    if (lat__at_punct(p, LAT_P_LBRACE)) {
        lat__parse_enter(p, 0);
        lat__expr *e = init_list(p, t, NULL);
        lat__parse_leave(p);
        return e;
    }
    lat__expr *e = lat__parse_assign_expr(p);
    if (e->kind == LAT_E_STRING && is_char_array(t))
        return e;
    if (lat__is_scalar(t) || (lat__is_record(t) && lat__is_record(e->type)))
        return lat__convert_assign(p, e, t, "initializing");
    return lat__rvalue(p, e);
}

static lat__field *find_field(lat__record *r, lat__atom *name)
{
    for (size_t i = 0; i < r->fields.n; i++)
        if (r->fields.items[i].name == name)
            return &r->fields.items[i];
    return NULL;
}

/* Whether an object of type t takes C++'s default member initializers (ast.h). */
static bool has_defaults(const lat__type *t)
{
    while (t && t->kind == LAT_TY_ARRAY)
        t = t->base;
    return t && lat__is_record(t) && t->rec && t->rec->defaults && !t->rec->has_ctor;
}

/* Whether record r, or a class it holds, has a default member initializer. */
static bool holds_member_initializer(const lat__record *r, int depth)
{
    for (size_t i = 0; r && depth < 64 && i < r->fields.n; i++) {
        const lat__type *t = r->fields.items[i].type;
        while (t->kind == LAT_TY_ARRAY)
            t = t->base;
        if (r->fields.items[i].init_at ||
            (lat__is_record(t) && t->rec && t->rec != r && holds_member_initializer(t->rec, depth + 1)))
            return true;
    }
    return false;
}

/* "what" (a printf format with one %s) about an object of type t that has_defaults: the
 * class named by why it has them. */
static const char *about_defaults(lat__parser *p, const char *what, const lat__type *t)
{
    while (t->kind == LAT_TY_ARRAY)
        t = t->base;
    return lat__arena_printf(&p->u->arena, what,
                             holds_member_initializer(t->rec, 0) ? "a class with default member initializers"
                                                                 : "a class whose members' constructors run");
}

/* The list `{...}` for an object of a class with default member initializers (or an
 * array of them): the members it leaves out take their defaults, in a call; what the
 * emulator cannot order that way is refused, never left zero. */
static lat__expr *with_defaults(lat__parser *p, lat__expr *list, const lat__tok *open, bool elided,
                                bool designated)
{
    lat__type *t = list->type;
    const char *why = "write every member's value in braces of its own";
    if (designated) {
        lat__unsupported_at(p->u, open->loc, about_defaults(p, "a designated initializer of %s", t), why);
        return list;
    }
    if (elided) {
        lat__unsupported_at(p->u, open->loc, about_defaults(p, "brace elision in an initializer of %s", t),
                            why);
        return list;
    }
    if (!p->fn) {
        lat__unsupported_at(p->u, open->loc, about_defaults(p, "a file-scope object of %s", t),
                            "initialise it in a kernel");
        return list;
    }
    if (t->kind == LAT_TY_ARRAY) {
        if (t->count >= 0 && (int64_t)list->items.n < t->count)
            lat__unsupported_at(p->u, open->loc,
                                about_defaults(p, "an array of %s with elements left out", t),
                                "give every element its value");
        return list;
    }
    if (list->items.n >= t->rec->fields.n)
        return list;
    return lat__aggregate_object(p, t, list, open->loc);
}

/* The base class (with data) whose members start at field index `field` of r's, or NULL. */
static const lat__record *base_starting_at(const lat__record *r, size_t field)
{
    if (!r->nbase_fields || field >= r->nbase_fields)
        return NULL;
    if (!r->bases.n)
        return field == 0 ? r->base : NULL;
    for (size_t i = 0; i < r->bases.n; i++)
        if (!lat__empty_record(r->bases.items[i]) && r->base_fields_at.items[i] == field)
            return r->bases.items[i];
    return NULL;
}

static lat__expr *init_list(lat__parser *p, lat__type *t, int64_t *count)
{
    lat__tok *open = lat__next(p); /* { */
    lat__expr *list = lat__expr_new(p, LAT_E_INIT, open->loc);
    list->type = t;
    int64_t index = 0, max = 0;
    size_t field = 0;
    bool scalar = lat__is_scalar(t);
    bool elided = false, any_designator = false;
    while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_RBRACE)) {
        lat__init_item item = {0};
        lat__type *et = t->kind == LAT_TY_ARRAY ? t->base : scalar ? t : NULL;
        lat__designator **tail = &item.desig;
        bool designated = false;
        for (;;) {
            if (lat__at_punct(p, LAT_P_LBRACKET)) {
                lat__next(p);
                bool ok;
                int64_t at = lat__parse_const_int(p, "an array designator", &ok);
                lat__designator *d = lat__arena_alloc(&p->u->arena, sizeof *d);
                d->at = at;
                *tail = d;
                tail = &d->next;
                lat__expect(p, LAT_P_RBRACKET, "to close the designator");
                if (!designated && t->kind == LAT_TY_ARRAY) {
                    index = at;
                    et = t->base;
                } else {
                    et = et && et->kind == LAT_TY_ARRAY ? et->base : NULL;
                }
                designated = true;
            } else if (lat__at_punct(p, LAT_P_DOT) && lat__peek_at(p, 1)->kind == LAT_TK_IDENT) {
                lat__next(p);
                lat__tok *n = lat__next(p);
                lat__type *rt = designated ? et : t;
                lat__designator *d = lat__arena_alloc(&p->u->arena, sizeof *d);
                d->name = n->atom;
                if (rt && lat__is_record(rt) && rt->rec) {
                    d->field = find_field(rt->rec, n->atom);
                    if (!d->field)
                        lat__error_tok(p, n, "%s has no member named '%s'",
                                       lat__type_str(p->u, rt, NULL, false), n->atom->name);
                    else if (!designated)
                        field = (size_t)(d->field - rt->rec->fields.items);
                }
                et = d->field ? d->field->type : NULL;
                *tail = d;
                tail = &d->next;
                designated = true;
            } else {
                break;
            }
        }
        if (designated)
            lat__expect(p, LAT_P_ASSIGN, "after a designator");
        if (!designated && lat__is_record(t) && t->rec) {
            et = field < t->rec->fields.n ? t->rec->fields.items[field].type : NULL;
            const lat__record *b = lat__at_punct(p, LAT_P_LBRACE) ? base_starting_at(t->rec, field) : NULL;
            if (b && b->fields.n > 1)
                lat__unsupported(p, lat__peek(p),
                                 "braces around a base class's members in an aggregate's initializer (C++17's "
                                 "aggregate with bases)",
                                 "a lattice limit: list the base's members without the inner braces");
        }
        /* Brace elision: a scalar where an aggregate is expected initializes its first
         * scalar; the emitted C keeps it as written. */
        if (et && !lat__is_scalar(et) && !lat__at_punct(p, LAT_P_LBRACE) &&
            !(is_char_array(et) && lat__peek(p)->kind == LAT_TK_STRING))
            et = NULL;
        /* the type C's brace elision would take this item into, when not as written */
        lat__type *into = !designated && !et && !lat__at_punct(p, LAT_P_LBRACE)
                              ? t->kind == LAT_TY_ARRAY ? t->base
                                : lat__is_record(t) && t->rec && field < t->rec->fields.n ? t->rec->fields.items[field].type
                                                                                          : NULL
                              : NULL;
        item.value = et ? init_value(p, et) : lat__at_punct(p, LAT_P_LBRACE) ? init_list(p, &lat__ty_void, NULL)
                                                                              : lat__rvalue(p, lat__parse_assign_expr(p));
        if (into && has_defaults(into) && !(lat__is_record(item.value->type) && item.value->type->rec == into->rec))
            elided = true;
        any_designator |= designated;
        LAT_PUSH(&p->u->arena, list->items, item);
        index++;
        field++;
        if (index > max)
            max = index;
        if (!lat__accept(p, LAT_P_COMMA))
            break;
    }
    lat__expect(p, LAT_P_RBRACE, "to close the initializer");
    if (count)
        *count = max;
    if (has_defaults(t) || (t->kind == LAT_TY_ARRAY && has_defaults(t->base)))
        return with_defaults(p, list, open, elided, any_designator);
    return list;
}

lat__expr *lat__parse_initializer(lat__parser *p, lat__type **t)
{
    lat__type *ty = *t;
    if (lat__at_punct(p, LAT_P_LBRACE)) {
        int64_t n = 0;
        lat__expr *e = init_list(p, ty, &n);
        if (ty->kind == LAT_TY_ARRAY && ty->count < 0 && !ty->vla) {
            /* Brace elision in an array of aggregates makes the count smaller than the
             * items: count scalars per element when the items are not braced. */
            int64_t elems = n;
            bool braced = true;
            for (size_t i = 0; i < e->items.n; i++) {
                const lat__expr *v = e->items.items[i].value;
                /* an object of the element's class is a whole element too ({p1, p2}) */
                bool whole = lat__is_record(v->type) && lat__is_record(ty->base) && v->type->rec &&
                             v->type->rec == ty->base->rec;
                if (v->kind != LAT_E_INIT && e->items.items[i].desig == NULL && !whole)
                    braced = false;
            }
            if (!braced && !lat__is_scalar(ty->base) && lat__sizeof(ty->base)) {
                int64_t per = 0;
                lat__type *b = ty->base;
                while (b->kind == LAT_TY_ARRAY)
                    b = b->base;
                per = lat__sizeof(b) ? lat__sizeof(ty->base) / lat__sizeof(b) : 1;
                if (lat__is_record(b) && b->rec)
                    per = (int64_t)b->rec->fields.n * (lat__sizeof(ty->base) / (lat__sizeof(b) ? lat__sizeof(b) : 1));
                elems = per > 0 ? (n + per - 1) / per : n;
            }
            *t = lat__array_of(p->u, ty->base, elems);
            e->type = *t;
        }
        return e;
    }
    lat__expr *e = lat__parse_assign_expr(p);
    if (e->kind == LAT_E_STRING && is_char_array(ty)) {
        int64_t n = lat__sizeof(e->type); /* the literal's array, with its NUL */
        if (ty->count < 0)
            *t = lat__array_of(p->u, ty->base, n);
        else if (n - 1 > ty->count)
            lat__error_at(p->u, e->loc, "a string of %lld characters initializes an array of %lld",
                          (long long)(n - 1), (long long)ty->count);
        return e;
    }
    if (ty->kind == LAT_TY_ARRAY) {
        lat__error_at(p->u, e->loc, "an array is initialized by a list in braces");
        return e;
    }
    return lat__convert_assign(p, e, ty, "initializing");
}

/* ---- declarations ------------------------------------------------------------------------------ */

static void static_assertion(lat__parser *p)
{
    lat__tok *kw = lat__next(p);
    lat__expect(p, LAT_P_LPAREN, "after static_assert");
    bool ok;
    int64_t v = lat__parse_const_int(p, "a static assertion", &ok);
    const char *msg = NULL;
    if (lat__accept(p, LAT_P_COMMA)) {
        lat__tok *m = lat__peek(p);
        if (m->kind == LAT_TK_STRING) {
            msg = lat__arena_strndup(&p->u->arena, m->text, m->len);
            while (lat__peek(p)->kind == LAT_TK_STRING)
                lat__next(p);
        } else {
            lat__syntax_error(p, "a message string");
        }
    }
    lat__expect(p, LAT_P_RPAREN, "to close static_assert(");
    lat__expect(p, LAT_P_SEMI, "after static_assert(...)");
    if (ok && v == 0)
        lat__error_tok(p, kw, "static assertion failed%s%s", msg ? ": " : "", msg ? msg : "");
}

static void note_kernel(lat__parser *p, lat__sym *s)
{
    for (size_t i = 0; i < p->tu->kernels.n; i++)
        if (p->tu->kernels.items[i] == s)
            return;
    LAT_PUSH(&p->u->arena, p->tu->kernels, s);
}

/* A function's declaration: the existing declaration of the same name at file scope is
 * reused (their types must agree: C++ overloading is not C). */
static lat__sym *declare_function(lat__parser *p, spec *s, lat__atom *name, lat__loc loc,
                                  lat__type *t)
{
    lat__sym *old = name->sym;
    if (old && old->tmpl && old->kind == LAT_SYM_FUNC && old->depth == 0) {
        /* a plain function beside a template of its name: declared among the plain ones,
         * the template stays what the name finds */
        name->sym = lat__template_plain(old, NULL);
        lat__sym *f = declare_function(p, s, name, loc, t);
        lat__template_plain(old, name->sym);
        name->sym = old;
        return f;
    }
    /* The program's functions of a built-in's name are overloads added to the built-in:
     * a call none of them takes goes to the built-in. */
    if (!old && p->depth == 0 && !p->in_builtin && lat__builtin_find(name->name, name->len))
        old = lat__lookup(p, name); /* built-ins are bound when first used */
    lat__sym *builtin = old && (old->flags & LAT_SF_BUILTIN) ? old : NULL;
    if (old && (old->flags & LAT_SF_BUILTIN))
        old = NULL;
    if (old && old->depth == 0 && old->kind == LAT_SYM_FUNC && p->depth == 0 && p->ns && old->ns != p->ns &&
        !old->tmpl)
        old = NULL; /* ops::relu(float) beside ::relu(float): another function, hiding it in ops */
    if (old && old->depth == 0 && old->kind == LAT_SYM_FUNC) {
        lat__sym *same = old;
        while (same && !lat__same_parameters(same->type, t))
            same = same->overloads;
        if (!same)
            return lat__declare_overload(p, old, name, loc, t, (uint16_t)s->cuda, (uint8_t)s->storage);
        old = same;
        if (!lat__type_compatible(old->type->base, t->base, true))
            lat__error_at(p->u, loc, "'%s' redeclared with another return type", name->name);
        if ((old->cuda ^ s->cuda) & (LAT_CU_GLOBAL | LAT_CU_DEVICE) &&
            (s->cuda & (LAT_CU_GLOBAL | LAT_CU_DEVICE | LAT_CU_HOST)))
            if ((old->cuda & LAT_CU_GLOBAL) != (s->cuda & LAT_CU_GLOBAL))
                lat__error_at(p->u, loc, "'%s' was declared %s__global__ before", name->name,
                              old->cuda & LAT_CU_GLOBAL ? "" : "without ");
        old->cuda |= (uint16_t)s->cuda;
        /* Default arguments are given once (C++), usually on the prototype: keep them. */
        if (old->type->params.defaults && t->params.defaults)
            lat__error_at(p->u, loc, "default arguments of '%s' given again", name->name);
        else if (old->type->params.defaults)
            t->params.defaults = old->type->params.defaults;
        /* Keep the parameter names of the latest prototype that has them. */
        old->type = t;
        return old;
    }
    if (old && lat__in_this_scope(p, old) && !(old->flags & LAT_SF_BUILTIN))
        lat__error_at(p->u, loc, "'%s' redeclared as a different kind of symbol", name->name);
    lat__sym *f = lat__sym_new(p, LAT_SYM_FUNC, name, loc);
    f->type = t;
    f->cuda = (uint16_t)s->cuda;
    f->storage = (uint8_t)s->storage;
    f->builtin_of = builtin && p->depth == 0 ? builtin : NULL;
    if (lat__c_name(p, name) != name->name)
        f->emit_name = lat__c_name(p, name); /* operator+ */
    if (p->depth > 0) {
        /* A block-scope prototype names the file-scope function. */
        f->depth = 0;
        f->flags |= LAT_SF_FILE_SCOPE;
    }
    lat__bind(p, f);
    return f;
}

static bool first_call(lat__visitor *w, lat__expr *e)
{
    if (w->data)
        return false;
    const lat__expr *fn = e->kind == LAT_E_CALL ? lat__skip_implicit(e->a) : NULL;
    if (fn && fn->kind == LAT_E_NAME && fn->sym && fn->sym->kind == LAT_SYM_FUNC &&
        !(fn->sym->flags & LAT_SF_BUILTIN) && !(e->flags & (LAT_EF_CONST | LAT_EF_ERROR))) {
        w->data = e; /* a function of the program's (built-ins the C compiler may fold) */
        return false;
    }
    return true;
}

/* A variable of static storage with a value of numbers initialised by a call the front end
 * does not evaluate (constexpr float k = sq(3.0f);): C, which the emulator writes, needs a
 * constant there, and C++ computes one; say so here rather than leave it to the C compiler. */
static void static_init_calls(lat__parser *p, const lat__sym *v, lat__expr *init, lat__loc loc)
{
    const lat__type *t = v->type;
    while (t->kind == LAT_TY_ARRAY)
        t = t->base;
    if (!init || (v->depth > 0 && v->storage != LAT_ST_STATIC) || v->storage == LAT_ST_TYPEDEF ||
        !(lat__is_arith(t) || t->kind == LAT_TY_PTR))
        return;
    lat__fold_float_calls(p, init);
    lat__visitor w = {.expr = first_call};
    lat__visit_expr(&w, init);
    const lat__expr *c = w.data;
    if (!c)
        return;
    const lat__expr *fn = lat__skip_implicit(c->a);
    char what[192];
    snprintf(what, sizeof what, "the value of '%s', a call of '%s' computed where the program starts",
             v->name ? v->name->name : "?", fn->sym->name->name);
    lat__unsupported_at(p->u, loc, what,
                        "a variable of static storage needs a constant; the emulator evaluates calls of constexpr "
                        "functions of integers, float and double (+, -, *, /, comparisons, conversions), not of "
                        "other functions or values");
}

static lat__func *function_definition(lat__parser *p, spec *s, lat__sym *f, lat__loc loc);

lat__func *lat__define_function(lat__parser *p, lat__sym *f, lat__loc loc)
{
    spec s;
    memset(&s, 0, sizeof s);
    return function_definition(p, &s, f, loc);
}

static lat__sym *declare_variable(lat__parser *p, spec *s, lat__atom *name, lat__loc loc,
                                  lat__type *t)
{
    lat__sym *old = name ? name->sym : NULL;
    if (old && (old->flags & LAT_SF_BUILTIN))
        old = NULL;
    if (old && lat__in_this_scope(p, old)) {
        bool linkable = (old->storage == LAT_ST_EXTERN || s->storage == LAT_ST_EXTERN ||
                         p->depth == 0) && old->kind == LAT_SYM_VAR;
        if (linkable && lat__type_compatible(old->type, t, false)) {
            if (old->type->kind == LAT_TY_ARRAY && old->type->count < 0)
                old->type = t;
            if (s->storage != LAT_ST_EXTERN)
                old->storage = (uint8_t)s->storage;
            return old;
        }
        if (old->kind == LAT_SYM_TYPEDEF && s->storage == LAT_ST_TYPEDEF &&
            lat__type_same(lat__unqualified(p->u, old->type), lat__unqualified(p->u, t)))
            return old; /* C11 lets a typedef be repeated */
        lat__error_at(p->u, loc, "redefinition of '%s'", name->name);
    }
    lat__sym *v = lat__sym_new(p, s->storage == LAT_ST_TYPEDEF ? LAT_SYM_TYPEDEF : LAT_SYM_VAR,
                               name, loc);
    v->type = t;
    v->storage = (uint8_t)s->storage;
    v->cuda = (uint16_t)s->cuda;
    v->align = s->align;
    lat__bind(p, v);
    return v;
}

/* `T x = y;` with y an lvalue of T: C++ runs T's copy constructor where the program
 * declares one (a prvalue, `T x = T(1)`, is the object itself: no copy). */
static lat__expr *copy_construct(lat__parser *p, lat__type *t, lat__expr *init)
{
    if (!init || !lat__is_record(t) || !t->rec || !t->rec->has_ctor || (init->flags & LAT_EF_ERROR))
        return init;
    lat__expr *e = init;
    while (e->kind == LAT_E_CAST && (e->flags & LAT_EF_IMPLICIT) && e->a)
        e = e->a;
    if (!(e->flags & LAT_EF_LVALUE) || !lat__is_record(e->type) || e->type->rec != t->rec ||
        !lat__copy_ctor_declared(t->rec))
        return init;
    lat__expr **argv = lat__arena_alloc(&p->u->arena, sizeof *argv); /* the call keeps it */
    argv[0] = e;
    return lat__construct(p, t, argv, 1, init->loc);
}

/* `const T &r = f(x);` in a block: the temporary r binds, (T[1]){...}, becomes a local of
 * its own declared just before r (the declarator *tail is about to take), so that it lives
 * as long as r in every way a function runs: C ends a compound literal with its block, and
 * region loops cut a kernel's body into blocks at each barrier, where each thread needs
 * its own. Returns where r goes. */
static lat__decl **hold_temporary(lat__parser *p, lat__decl *d, lat__decl **tail)
{
    lat__sym *v = d->sym;
    if (p->depth == 0 || v->storage == LAT_ST_STATIC || v->storage == LAT_ST_EXTERN || !d->init ||
        !lat__is_pointer(v->type) || !v->type->ref)
        return tail;
    lat__expr *x = d->init;
    while (x->kind == LAT_E_CAST && (x->flags & LAT_EF_IMPLICIT) && x->a)
        x = x->a;
    if (x->kind != LAT_E_COMPOUND || !x->type || x->type->kind != LAT_TY_ARRAY || !x->a || x->a->kind != LAT_E_INIT)
        return tail;
    lat__sym *h = lat__sym_new(p, LAT_SYM_VAR, lat__atom_get(&p->u->atoms, "__lat_ref", 9), d->loc);
    h->type = x->type;
    h->depth = p->depth;
    h->flags |= LAT_SF_ADDRESS_TAKEN | LAT_SF_USED | LAT_SF_MODIFIED | LAT_SF_DEFINED;
    h->emit_name = lat__arena_printf(&p->u->arena, "__lat_ref%d", ++p->anon);
    lat__decl *hd = lat__arena_alloc(&p->u->arena, sizeof *hd);
    hd->sym = h;
    hd->init = x->a;
    hd->loc = d->loc;
    h->def = hd;
    if (p->fn)
        LAT_PUSH(&p->u->arena, p->fn->locals, h);
    lat__expr *n = lat__expr_new(p, LAT_E_NAME, d->loc);
    n->sym = h;
    n->type = h->type;
    n->flags |= LAT_EF_LVALUE;
    d->init = lat__cast_to(p, lat__rvalue(p, n), v->type, true); /* its address, as before */
    *tail = hd;
    return &hd->next;
}

/* The most elements of a local array that default construction initialises one by one. */
enum { MAX_CONSTRUCTED_ELEMENTS = 4096 };

/* Each element of an array of type t default-constructed, as a (nested) initializer list
 * (`cplx<float> buf[4];`, `Acc acc[2][3];`); NULL when its size is unknown or above
 * *budget elements. */
static lat__expr *constructed_elements(lat__parser *p, lat__type *t, lat__loc loc, int64_t *budget)
{
    if (t->kind != LAT_TY_ARRAY)
        return --*budget >= 0 ? lat__construct(p, t, NULL, 0, loc) : NULL;
    if (t->count < 0 || t->vla)
        return NULL;
    lat__expr *list = lat__expr_new(p, LAT_E_INIT, loc);
    list->type = t;
    for (int64_t i = 0; i < t->count; i++) {
        lat__expr *e = constructed_elements(p, t->base, loc, budget);
        if (!e)
            return NULL;
        lat__init_item it = {e, NULL};
        LAT_PUSH(&p->u->arena, list->items, it);
    }
    return list;
}

/* `T x;` of a class with constructors runs its default constructor (C++), for each
 * element of a local array too; a file-scope, static or __shared__ one would run it where
 * the emulator cannot. */
static void default_construct(lat__parser *p, lat__sym *v, lat__decl *d, lat__loc loc)
{
    lat__type *t = v->type;
    while (t->kind == LAT_TY_ARRAY)
        t = t->base;
    if (!lat__is_record(t) || !t->rec || !(t->rec->has_ctor || t->rec->defaults))
        return;
    bool local = p->depth > 0 && v->storage != LAT_ST_STATIC && !(v->cuda & LAT_CU_SHARED);
    if (local && v->type->kind == LAT_TY_ARRAY && lat__initialised_by_default(t)) {
        int64_t budget = MAX_CONSTRUCTED_ELEMENTS;
        lat__expr *init = constructed_elements(p, v->type, loc, &budget);
        if (init) {
            d->init = init;
            v->flags |= LAT_SF_DEFINED;
            return;
        }
    }
    bool nowhere_to_run = v->type->kind == LAT_TY_ARRAY || p->depth == 0 || v->storage == LAT_ST_STATIC;
    if (nowhere_to_run && t->rec->has_ctor && !lat__initialised_by_default(t)) {
        /* a default constructor that does nothing (`__half() {}`, `vec3() {}`): nothing to run */
        if (!lat__default_ctor(t->rec) && !t->rec->default_trivial)
            lat__error_at(p->u, loc, "%s has no default constructor to make '%s' with",
                          lat__type_str(p->u, t, NULL, false), v->name->name);
        return;
    }
    if (nowhere_to_run) {
        const char *what = v->type->kind == LAT_TY_ARRAY
                               ? t->rec->has_ctor ? "an array of a class with constructors"
                                                  : about_defaults(p, "an array of %s", t)
                           : t->rec->has_ctor ? "a file-scope or static object with a constructor"
                                              : about_defaults(p, "a file-scope or static object of %s", t);
        lat__unsupported_at(p->u, loc, what,
                            v->type->kind == LAT_TY_ARRAY
                                ? local ? "a lattice limit: at most 4096 elements of a known count are constructed"
                                        : "initialise each element yourself"
                                : "initialise it in the kernel");
        return;
    }
    d->init = lat__construct(p, v->type, NULL, 0, loc);
    v->flags |= LAT_SF_DEFINED;
}

/* The type of `auto name = init` as declared (t: auto, auto *, auto & with qualifiers):
 * the initializer's type, decayed and without its const unless through a reference. */
static lat__type *auto_type(lat__parser *p, lat__type *t, lat__expr *init, lat__atom *name, lat__loc loc)
{
    if (init->flags & LAT_EF_ERROR)
        return &lat__ty_int;
    if (t->kind == LAT_TY_VOID && t->count == DECLTYPE_AUTO_PLACEHOLDER)
        return lat__decltype_of(p, init);
    if (is_auto_placeholder(t))
        return lat__qualified(p->u, lat__unqualified(p->u, lat__rvalue(p, init)->type), t->quals);
    if (t->kind == LAT_TY_PTR && is_auto_placeholder(t->base)) {
        if (t->ref) {
            lat__type *r = lat__reference_to(p->u, lat__qualified(p->u, init->type, t->base->quals));
            r->ref = t->ref;
            return lat__qualified(p->u, r, t->quals);
        }
        lat__type *v = lat__rvalue(p, init)->type;
        if (v->kind == LAT_TY_PTR)
            return lat__qualified(p->u, lat__pointer_to(p->u, lat__qualified(p->u, v->base, t->base->quals)),
                                  t->quals);
        lat__error_at(p->u, loc, "'auto *%s' initialised by %s, not a pointer", name->name,
                      lat__type_str(p->u, init->type, NULL, false));
        return &lat__ty_int;
    }
    lat__unsupported_at(p->u, loc, "this form of 'auto' declarator", "auto, auto *, auto & and const auto are");
    return &lat__ty_int;
}

bool lat__record_kw(const lat__tok *t)
{
    return lat__tok_kw(t, LAT_KW_STRUCT) || lat__tok_kw(t, LAT_KW_CLASS) || lat__tok_kw(t, LAT_KW_UNION);
}

bool lat__at_type_alias(lat__parser *p)
{
    return lat__at_kw(p, LAT_KW_USING) && lat__peek_at(p, 1)->kind == LAT_TK_IDENT &&
           !lat__peek_at(p, 1)->atom->kw && lat__tok_is_punct(lat__peek_at(p, 2), LAT_P_ASSIGN);
}

/* using name = type;: the typedef it means, as a declaration of its own. */
static lat__decl_group *type_alias(lat__parser *p)
{
    lat__tok *kw = lat__next(p);
    lat__tok *name = lat__next(p);
    lat__next(p); /* = */
    lat__type *t = lat__parse_type_name(p);
    lat__expect(p, LAT_P_SEMI, "after the type alias");
    spec s;
    memset(&s, 0, sizeof s);
    s.storage = LAT_ST_TYPEDEF;
    lat__decl_group *g = lat__arena_alloc(&p->u->arena, sizeof *g);
    g->loc = kw->loc;
    g->base = t;
    lat__decl *d = lat__arena_alloc(&p->u->arena, sizeof *d);
    d->loc = name->loc;
    d->sym = declare_variable(p, &s, name->atom, name->loc, t);
    g->first = d;
    return g;
}

lat__decl_group *lat__parse_declaration(lat__parser *p, lat__func **fn_out)
{
    if (fn_out)
        *fn_out = NULL;
    lat__tok *first = lat__peek(p);
    if (lat__tok_kw(first, LAT_KW_STATIC_ASSERT) || lat__tok_kw(first, LAT_KW_STATIC_ASSERT_)) {
        static_assertion(p);
        lat__decl_group *g = lat__arena_alloc(&p->u->arena, sizeof *g);
        g->loc = first->loc;
        g->static_assert_ = true;
        return g;
    }
    if (lat__at_type_alias(p))
        return type_alias(p);
    spec s;
    specifiers(p, &s);
    if (!s.any) {
        lat__syntax_error(p, "a declaration");
        return NULL;
    }
    lat__decl_group *g = lat__arena_alloc(&p->u->arena, sizeof *g);
    g->loc = first->loc;
    if (!has_type_specifier(&s) && !s.is_auto && lat__peek(p)->kind == LAT_TK_IDENT &&
        lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_SCOPE) && lat__peek_at(p, 2)->kind == LAT_TK_IDENT &&
        lat__peek_at(p, 2)->atom == lat__peek(p)->atom)
        s.cxx = true; /* S::S(...): a constructor defined outside its class has no type */
    g->base = base_type(p, &s);
    g->defines = s.defines;
    if (lat__accept(p, LAT_P_SEMI))
        return g; /* struct S {...}; or an empty declaration */
    lat__decl **tail = &g->first;
    for (bool first_decl = true;; first_decl = false) {
        lat__atom *name = NULL;
        lat__loc loc = lat__peek(p)->loc;
        lat__type *t = declarator(p, g->base, &name, &loc, false);
        unsigned align = s.align;
        attributes(p, &s, &align, NULL);
        if (!name) {
            if (p->panic)
                return g;
            lat__syntax_error(p, "a name in the declaration");
            return g;
        }
        lat__decl *d = lat__arena_alloc(&p->u->arena, sizeof *d);
        d->loc = loc;
        if (p->decl_class) {
            /* the definition of a member function declared in its class */
            lat__record *r = p->decl_class;
            p->decl_class = NULL;
            lat__sym *m = t->kind == LAT_TY_FUNC ? lat__match_member(p, r, t, name, loc) : NULL;
            p->method_const = p->method_volatile = false;
            if (!m) {
                lat__skip_declaration(p);
                return NULL;
            }
            if (!(lat__at_punct(p, LAT_P_LBRACE) || (lat__at_punct(p, LAT_P_COLON) && (m->flags & LAT_SF_CTOR)))) {
                lat__expect(p, LAT_P_SEMI, "after the member function's declaration");
                return g;
            }
            if (m->flags & LAT_SF_DEFINED) {
                lat__error_at(p->u, loc, "'%s' is defined twice", name->name);
                lat__skip_declaration(p);
                return NULL;
            }
            m->cuda |= (uint16_t)s.cuda;
            lat__func *fn = function_definition(p, &s, m, loc);
            if (fn_out)
                *fn_out = fn;
            return NULL;
        }
        if (t->kind == LAT_TY_FUNC && s.storage != LAT_ST_TYPEDEF) {
            deduce_return(p, t, loc);
            if (s.cuda & (LAT_CU_SHARED | LAT_CU_CONSTANT))
                lat__error_at(p->u, loc, "a function cannot be __shared__ or __constant__");
            if ((s.cuda & LAT_CU_GLOBAL) && t->base->kind != LAT_TY_VOID)
                lat__error_at(p->u, loc, "a __global__ function must return void");
            for (int i = 0; (s.cuda & LAT_CU_GLOBAL) && i < t->params.n; i++)
                if (t->params.types[i]->kind == LAT_TY_PTR && t->params.types[i]->ref)
                    lat__error_at(p->u, t->params.syms[i] ? t->params.syms[i]->loc : loc,
                                  "a __global__ function's parameter cannot be a reference (a "
                                  "kernel's arguments are copied to the device)");
            if ((s.cuda & LAT_CU_GLOBAL) && t->params.variadic)
                lat__unsupported_at(p->u, loc, "a variadic __global__ function", "CUDA has none either");
            if (t->params.n > 256)
                lat__unsupported_at(p->u, loc, "a function with more than 256 parameters", "a lattice limit");
            lat__sym *f = declare_function(p, &s, name, loc, t);
            if (s.constexpr_)
                f->flags |= LAT_SF_CONSTEXPR;
            if (p->inst_fn && p->depth == 0)
                lat__template_declared(p, f);
            d->sym = f;
            if (f->cuda & LAT_CU_GLOBAL)
                note_kernel(p, f);
            if (first_decl && lat__at_punct(p, LAT_P_LBRACE)) {
                if (p->depth > 0) {
                    lat__error_at(p->u, loc, "a function defined inside another function");
                    lat__skip_group(p);
                    return g;
                }
                if (f->flags & LAT_SF_DEFINED) {
                    lat__unsupported_at(p->u, loc, "function overloading (a second definition of a name)",
                                        "C has one function per name; give each variant its own");
                }
                lat__func *fn = function_definition(p, &s, f, loc);
                if (fn_out)
                    *fn_out = fn;
                return NULL;
            }
        } else {
            lat__expr *auto_init = NULL;
            if (s.is_auto) {
                if (lat__accept(p, LAT_P_ASSIGN) && !lat__at_punct(p, LAT_P_LBRACE)) {
                    auto_init = lat__parse_assign_expr(p);
                    t = auto_type(p, t, auto_init, name, loc);
                } else {
                    lat__error_at(p->u, loc, "'auto' variable '%s' needs an initializer (= expression)",
                                  name->name);
                    t = &lat__ty_int;
                }
            }
            if (s.constexpr_)
                t = lat__qualified(p->u, t, LAT_Q_CONST);
            if (t->kind == LAT_TY_VOID && s.storage != LAT_ST_TYPEDEF) {
                lat__error_at(p->u, loc, "variable '%s' declared void", name->name);
                t = &lat__ty_int;
            }
            lat__sym *v = declare_variable(p, &s, name, loc, t);
            if (align > v->align)
                v->align = align;
            d->sym = v;
            v->def = d;
            if (v->kind == LAT_SYM_VAR) {
                if (p->depth == 0 && (s.cuda & (LAT_CU_DEVICE | LAT_CU_CONSTANT)) &&
                    !(s.cuda & LAT_CU_SHARED)) {
                    bool known = false;
                    for (size_t i = 0; i < p->tu->globals.n; i++)
                        known |= p->tu->globals.items[i] == v;
                    if (!known)
                        LAT_PUSH(&p->u->arena, p->tu->globals, v);
                }
                if (s.cuda & LAT_CU_SHARED) {
                    LAT_PUSH(&p->u->arena, p->tu->shared, v);
                    if (p->fn)
                        LAT_PUSH(&p->u->arena, p->fn->shared, v);
                    if (s.storage != LAT_ST_EXTERN && !lat__is_complete(t))
                        lat__error_at(p->u, loc, "__shared__ variable '%s' has an incomplete type",
                                      name->name);
                    if (t->kind == LAT_TY_ARRAY && t->vla)
                        lat__error_at(p->u, loc, "__shared__ array '%s' needs a constant size (or "
                                                 "extern __shared__ for dynamic shared memory)",
                                      name->name);
                } else if (p->fn && v->depth > 0 && s.storage != LAT_ST_EXTERN) {
                    LAT_PUSH(&p->u->arena, p->fn->locals, v);
                }
            }
            if (auto_init) {
                d->init = lat__convert_assign(p, auto_init, v->type, "initializing");
                v->flags |= LAT_SF_DEFINED;
            } else if (lat__accept(p, LAT_P_ASSIGN)) {
                if (s.storage == LAT_ST_TYPEDEF)
                    lat__error_at(p->u, loc, "a typedef with an initializer");
                if (s.cuda & LAT_CU_SHARED)
                    lat__error_at(p->u, loc, "a __shared__ variable cannot have an initializer "
                                             "(CUDA allows none)");
                if (s.storage == LAT_ST_EXTERN && p->depth > 0)
                    lat__error_at(p->u, loc, "an extern variable with an initializer in a block");
                lat__type *it = v->type;
                d->init = lat__parse_initializer(p, &it);
                if (it != v->type)
                    v->type = it;
                d->init = copy_construct(p, v->type, d->init);
                v->flags |= LAT_SF_DEFINED;
                static_init_calls(p, v, d->init, loc);
            } else if (lat__at_punct(p, LAT_P_LBRACE) &&
                       !(lat__is_record(v->type) && v->type->rec && v->type->rec->has_ctor)) {
                /* T x{...}: C's initializer list */
                lat__type *it = v->type;
                d->init = lat__parse_initializer(p, &it);
                if (it != v->type)
                    v->type = it;
                v->flags |= LAT_SF_DEFINED;
            } else if (lat__at_punct(p, LAT_P_LPAREN) || lat__at_punct(p, LAT_P_LBRACE)) {
                /* T x(args), T x{args}: a constructor's */
                d->init = lat__parse_construction(p, v->type, loc);
                v->flags |= LAT_SF_DEFINED;
            } else if (v->kind == LAT_SYM_VAR && s.storage != LAT_ST_EXTERN && !(s.cuda & LAT_CU_SHARED)) {
                default_construct(p, v, d, loc);
            }
            if (v->kind == LAT_SYM_VAR && has_defaults(v->type) && s.storage != LAT_ST_EXTERN) {
                /* C++ would initialise these where the emulator cannot (a static's once,
                 * before any thread; a __shared__ one never: CUDA runs no initializer) */
                if (s.cuda & LAT_CU_SHARED)
                    lat__unsupported_at(p->u, loc, about_defaults(p, "a __shared__ variable of %s", v->type),
                                        "CUDA runs no initializer for __shared__ variables: assign the members in the kernel");
                else if (s.storage == LAT_ST_STATIC && p->depth > 0 && d->init)
                    lat__unsupported_at(p->u, loc, about_defaults(p, "a static object of %s", v->type),
                                        "initialise it in the kernel");
            }
            if (v->kind == LAT_SYM_VAR && s.storage != LAT_ST_EXTERN && !lat__is_complete(v->type) &&
                !(v->flags & LAT_SF_BUILTIN) && !(s.cuda & LAT_CU_SHARED) &&
                !(v->type->kind == LAT_TY_ARRAY && v->type->vla))
                lat__error_at(p->u, loc, "variable '%s' has an incomplete type %s", name->name,
                              lat__type_str(p->u, v->type, NULL, false));
        }
        if (d->sym && d->sym->kind == LAT_SYM_VAR)
            tail = hold_temporary(p, d, tail);
        *tail = d;
        tail = &d->next;
        if (!lat__accept(p, LAT_P_COMMA))
            break;
    }
    lat__expect(p, LAT_P_SEMI, "after the declaration");
    return g;
}

static lat__func *function_definition(lat__parser *p, spec *s, lat__sym *f, lat__loc loc)
{
    lat__func *fn = lat__arena_alloc(&p->u->arena, sizeof *fn);
    fn->sym = f;
    fn->loc = loc;
    memcpy(fn->launch_bounds, s->launch_bounds, sizeof fn->launch_bounds);
    f->fn = fn;
    f->flags |= LAT_SF_DEFINED;
    lat__type *t = f->type;
    fn->nparams = t->params.n;
    fn->params = t->params.syms;
    lat__func *outer = p->fn;
    p->fn = fn;
    p->gotos.n = 0;
    lat__scope_open(p);
    for (int i = 0; i < fn->nparams; i++) {
        lat__sym *ps = fn->params[i];
        if (ps->name) {
            ps->depth = p->depth;
            ps->flags &= ~(uint32_t)LAT_SF_FILE_SCOPE;
            lat__bind(p, ps);
        }
    }
    lat__sym *outer_this = p->this_sym, *outer_self = p->ctor_self;
    if (f->flags & LAT_SF_METHOD) {
        /* the class's members by their plain names; a constructor's object and inits */
        lat__scope_open(p);
        lat__stmt *prologue = lat__method_prologue(p, fn);
        fn->body = lat__parse_compound(p);
        fn->body = lat__method_epilogue(p, fn, prologue);
        lat__scope_close(p);
    } else {
        p->this_sym = p->ctor_self = NULL;
        fn->body = lat__parse_compound(p);
    }
    p->this_sym = outer_this;
    p->ctor_self = outer_self;
    lat__scope_close(p);
    if (lat__is_lambda_return_placeholder(t->base))
        t->base = &lat__ty_void; /* auto f() with no return of a value */
    fn->end = fn->body ? fn->body->end : loc;
    /* gotos to labels of this function */
    for (size_t i = 0; i < p->gotos.n; i++) {
        lat__stmt *g = p->gotos.items[i];
        for (size_t k = 0; k < fn->labels.n; k++)
            if (fn->labels.items[k]->label == g->label)
                g->target = fn->labels.items[k];
        if (!g->target)
            lat__error_at(p->u, g->loc, "label '%s' used but not defined", g->label->name);
    }
    p->fn = outer;
    return fn;
}

void lat__parse_builtin_decl(lat__parser *p, const lat__builtin *b)
{
    /* Parsed at file scope, whatever scope asked, with bindings nobody will undo. */
    lat__parser sub = *p;
    sub.depth = 0;
    sub.bound.items = NULL;
    sub.bound.n = sub.bound.cap = 0;
    sub.marks.items = NULL;
    sub.marks.n = sub.marks.cap = 0;
    sub.fn = NULL;
    sub.jumps.n = 0;
    sub.panic = false;
    sub.in_builtin = true;
    sub.in_record = false;
    lat__toks toks = {0};
    lat__lex_text(p->u, b->decl, strlen(b->decl), (lat__loc){0, 0, 0}, &toks);
    sub.toks = toks.items;
    sub.ntoks = toks.n;
    sub.pos = 0;
    sub.pragma_at = NULL;
    lat__decl_group *g = lat__parse_declaration(&sub, NULL);
    p->anon = sub.anon;
    (void)g;
}
