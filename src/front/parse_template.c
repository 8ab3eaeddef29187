/*
 * C++ templates (parse.h): a template keeps its declaration's tokens; each set of
 * arguments it is used with parses them again, at file scope, with the parameters bound
 * (a type parameter as a typedef, a value parameter as a constant), into a function or
 * struct of its own name (f__lat_t1). Function templates deduce what their calls do not
 * give from the arguments' types, matched against the signature read once with the
 * parameters as placeholders.
 */
#include "parse.h"
#include "visit.h"

#include "front.h"
#include "lex.h"

#include <stdio.h>
#include <string.h>

typedef struct tparam {
    lat__atom *name;
    bool is_type;
    bool is_pack;          /* typename... Ts, int... Ns: its arguments are a list */
    bool is_template;      /* template <typename> class Op: its argument is a class template */
    bool is_function;      /* template <op_t op>, op_t a pointer to a function: its argument
                              is a function, and the name calls it */
    lat__type *value_type; /* a value parameter's type */
    int type_of;           /* template <typename T, T v>: v's type is parameter type_of - 1's */
    size_t type_at;        /* a value parameter's type that depends on the parameters before
                              (typename enable_if<C, int>::type = 0): its first token, read
                              again for each instance (SFINAE); 0: none */
    size_t fn_type_at;     /* a function pointer parameter's type that depends on the
                              parameters before (T (*op)(const T &)): its first token, read
                              with the arguments before it for each argument; 0: none */
    size_t dflt_at;        /* its default's first token, 0: none */
    bool is_auto;          /* template <auto V>: the value's type is its argument's (kept in
                              the argument's `type`) */
} tparam;

typedef struct targ {
    lat__type *type;    /* a type argument */
    int64_t value;      /* a value argument */
    struct targ *pack;  /* a pack's: its elements */
    size_t npack;
    lat__sym *tmpl;     /* a template template parameter's argument: the template's name;
                           a function pointer parameter's: the function */
    int vph;            /* a value argument that is a value parameter's placeholder (in a
                           signature read for deduction, a partial specialization's
                           pattern): its index + 1; else 0 */
} targ;

typedef struct tinst {
    targ *args;
    bool failed;     /* its parse found errors: a later use says so again */
    bool primary;    /* a class template's instance made from the primary (not a specialization) */
    lat__sym *fn;    /* a function template's instance (a variable template's: its variable) */
    lat__type *type; /* a class template's */
} tinst;

struct lat__template {
    lat__atom *name;
    bool is_class;
    bool is_alias; /* template <...> using name = type; (is_class too: it names a type) */
    bool is_var;   /* template <...> constexpr T name = ...; a variable template */
    bool has_body; /* a class template's declaration defines it (not `template <...> struct S;`) */
    LAT_VEC(tparam) params;
    size_t decl_at; /* the declaration's first token */
    size_t decl_end; /* ... and the token after its last */
    size_t body_at;  /* a function template's: its body's '{' */
    bool has_pack;   /* a parameter is a pack: instances parse an expanded copy of the tokens */
    bool sfinae;     /* a function template whose defaults, a value parameter's type or the
                        return type may not exist for some arguments (enable_if) */
    lat__tok *toks; /* the unit's tokens it is in */
    size_t ntoks;
    lat__ns *ns;
    lat__type *shape; /* a function template's type, the parameters as placeholders */
    lat__sym *plain;  /* non-template functions of the same name (newest), or NULL */
    lat__sym *var;    /* while a variable template's instance is parsed: what its name meant */
    lat__sym *older;  /* the function template of the same name declared before (C++'s
                         overloaded templates: a call picks among them), or NULL */
    LAT_VEC(tinst) specs; /* explicit specializations: args, and in `type` NULL; the
                             declaration's first token in spec_at */
    LAT_VEC(size_t) spec_at;
    LAT_VEC(tinst) insts;
    LAT_VEC(struct partial) partials; /* a class template's partial specializations */
    lat__record *member_of; /* a member function template's class */
    bool const_method;      /* ... a const member function (f(T) const) */
    /* A member template's names as its class saw them where it was declared (the class
     * template's parameters, member types, constants): what they mean again in each
     * instance, made later at file scope. */
    LAT_VEC(lat__atom *) snap_names;
    LAT_VEC(lat__sym *) snap_syms;
    /* A class template's members defined outside it (template <class T> T X<T>::f() {...}):
     * each its own parameters and tokens, parsed for every instance of the primary. */
    LAT_VEC(struct lat__template *) outdefs;
    lat__loc loc;
    lat__sym *sym; /* the template's own symbol (what a template template argument names) */
};

/* template <typename T> struct S<T *> {...}: its own template (parameters, tokens from
 * `struct` on) and the primary's arguments it matches, read with its parameters as
 * placeholders. */
typedef struct partial {
    lat__template *own;
    targ *pattern; /* NULL: one with a parameter pack or a template template parameter,
                      read for each instance (pattern_for) */
    size_t open;   /* its <args>'s '<' */
    lat__sym *tt;  /* its template template parameter's argument the pattern was read with
                      (one of the class templates the instance's arguments name), or NULL */
    size_t tt_index; /* ... that parameter's index */
} partial;

/* A type parameter's placeholder while a signature is read: void, count -100 - index;
 * a type that depends on one (T::value_type, traits<T>::type) is void, count DEPENDENT:
 * C++'s non-deduced context, which deduction passes over. */
enum { PLACEHOLDER = -100, DEPENDENT = -99 };

bool lat__is_template_placeholder(const lat__type *t)
{
    return t->kind == LAT_TY_VOID && t->count <= DEPENDENT;
}

lat__type *lat__dependent_type(lat__parser *p)
{
    return lat__marker_type(p->u, DEPENDENT);
}

static bool placeholder_index(const lat__type *t, int *k)
{
    if (t->kind != LAT_TY_VOID || t->count > PLACEHOLDER)
        return false;
    *k = (int)(PLACEHOLDER - t->count);
    return true;
}

lat__atom *lat__template_name(const lat__template *tm)
{
    return tm->name;
}

bool lat__close_angle(lat__parser *p)
{
    if (lat__at_punct(p, LAT_P_GT)) {
        lat__next(p);
        return true;
    }
    if (lat__at_punct(p, LAT_P_SHR)) {
        /* A<B<int>>: the first '>' now, the second by the outer list */
        if (p->half_gt) {
            p->half_gt = false;
            lat__next(p);
        } else {
            p->half_gt = true;
        }
        return true;
    }
    lat__syntax_error(p, "'>' to close the template's arguments");
    return false;
}

/* ---- declaring ---------------------------------------------------------------------------- */

/* Steps over a default argument: to the ',' or '>' that ends it at this depth. */
static void skip_default(lat__parser *p)
{
    int depth = 0;
    while (!lat__at_eof(p)) {
        lat__tok *t = lat__peek(p);
        if (depth == 0 && (lat__tok_is_punct(t, LAT_P_COMMA) || lat__tok_is_punct(t, LAT_P_GT)))
            return;
        if (lat__tok_is_punct(t, LAT_P_SHR) && depth <= 2) {
            if (depth == 1) {
                /* A<B>>: the second '>' closes the template's parameters */
                p->half_gt = true;
                return;
            }
            if (depth == 0)
                return;
            depth -= 2;
            lat__next(p);
            continue;
        }
        if (lat__tok_is_punct(t, LAT_P_LPAREN) || lat__tok_is_punct(t, LAT_P_LT))
            depth++;
        else if (lat__tok_is_punct(t, LAT_P_RPAREN) || lat__tok_is_punct(t, LAT_P_GT))
            depth--;
        else if (lat__tok_is_punct(t, LAT_P_SHR))
            depth -= 2;
        lat__next(p);
    }
}

/* What bind_params bound: the names, and what each meant before. */
typedef struct bound_names {
    lat__atom **names;
    lat__sym **was;
    size_t n;
} bound_names;

static bound_names bind_params(lat__parser *p, lat__template *tm, const targ *args);
static bool type_depends(const lat__type *t);
static bool opaque_pattern(const lat__type *t);
static void unbind_params(bound_names b);
static targ *placeholder_args(lat__parser *p, lat__template *tm, const size_t *lens);

static bool template_params(lat__parser *p, lat__template *tm)
{
    if (!lat__expect(p, LAT_P_LT, "after 'template'"))
        return false;
    while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_GT)) {
        tparam tp = {0};
        lat__tok *t = lat__peek(p);
        if (lat__tok_kw(t, LAT_KW_TEMPLATE)) {
            /* template <typename> class Op: a class template's name */
            lat__next(p);
            if (lat__at_punct(p, LAT_P_LT))
                lat__skip_angles(p);
            if (!lat__at_kw(p, LAT_KW_CLASS) && !lat__at_kw(p, LAT_KW_TYPENAME)) {
                lat__syntax_error(p, "'class' after a template template parameter's parameters");
                return false;
            }
            lat__next(p);
            if (lat__at_punct(p, LAT_P_ELLIPSIS)) {
                lat__unsupported(p, lat__peek(p), "a pack of template template parameters", "a lattice limit");
                return false;
            }
            tp.is_template = tp.is_type = true;
            if (lat__peek(p)->kind == LAT_TK_IDENT && !lat__peek(p)->atom->kw)
                tp.name = lat__next(p)->atom;
        } else if ((lat__tok_kw(t, LAT_KW_TYPENAME) || lat__tok_kw(t, LAT_KW_CLASS)) &&
                   !lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_SCOPE) &&
                   !(lat__tok_kw(t, LAT_KW_TYPENAME) && lat__peek_at(p, 1)->kind == LAT_TK_IDENT &&
                     (lat__tok_is_punct(lat__peek_at(p, 2), LAT_P_SCOPE) ||
                      lat__tok_is_punct(lat__peek_at(p, 2), LAT_P_LT)))) {
            /* (not `typename std::enable_if<C, int>::type = 0`: a value parameter of a
             * dependent type) */
            lat__next(p);
            if (lat__accept(p, LAT_P_ELLIPSIS))
                tp.is_pack = tm->has_pack = true;
            tp.is_type = true;
            if (lat__peek(p)->kind == LAT_TK_IDENT && !lat__peek(p)->atom->kw)
                tp.name = lat__next(p)->atom;
        } else if (lat__tok_kw(t, LAT_KW_AUTO) && !lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_STAR) &&
                   !lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_AMP)) {
            /* template <auto V> (C++17): an integer value of its argument's type */
            lat__next(p);
            tp.is_auto = true;
            tp.value_type = &lat__ty_llong;
            if (lat__accept(p, LAT_P_ELLIPSIS))
                tp.is_pack = tm->has_pack = true;
            if (lat__peek(p)->kind == LAT_TK_IDENT && !lat__peek(p)->atom->kw)
                tp.name = lat__next(p)->atom;
        } else {
            size_t before = p->pos;
            /* its type, the parameters before it as placeholders (T v, enable_if<...>::type) */
            lat__template part = *tm;
            part.params.n = tm->params.n;
            bound_names b = bind_params(p, &part, placeholder_args(p, &part, NULL));
            tp.value_type = lat__parse_type_name(p);
            unbind_params(b);
            if (tp.value_type && tp.value_type->kind == LAT_TY_FUNC) /* void f(int) as a pointer */
                tp.value_type = lat__pointer_to(p->u, tp.value_type);
            int k;
            if (tp.value_type && placeholder_index(tp.value_type, &k)) {
                tp.type_of = k + 1;
                tp.value_type = &lat__ty_int;
            } else if (tp.value_type && (lat__is_template_placeholder(tp.value_type) ||
                                         (tp.value_type->kind == LAT_TY_PTR && !tp.value_type->ref &&
                                          lat__is_template_placeholder(tp.value_type->base)))) {
                /* enable_if_t<C, int> = 0, or enable_if_t<C> * = nullptr: the type exists
                 * or not (SFINAE); the value is a constant no instance reads */
                tp.type_at = before;
                tp.value_type = &lat__ty_int;
            } else if (tp.value_type && tp.value_type->kind == LAT_TY_PTR && !tp.value_type->ref &&
                       tp.value_type->base->kind == LAT_TY_FUNC) {
                tp.is_function = true; /* ggml's template <dequantize_kernel_t dequantize_kernel> */
                const lat__type *ft = tp.value_type->base;
                bool dep = type_depends(ft->base) || opaque_pattern(ft->base);
                for (int q = 0; q < ft->params.n && !dep; q++) {
                    const lat__type *pt = ft->params.types[q];
                    dep = type_depends(pt) || opaque_pattern(pt) ||
                          (pt->kind == LAT_TY_PTR && (type_depends(pt->base) || opaque_pattern(pt->base)));
                }
                if (dep)
                    tp.fn_type_at = before; /* vLLM's scalar_t (*ACT_FN)(const scalar_t &) */
            } else if (!tp.value_type || !lat__is_integer(tp.value_type)) {
                if (tp.value_type)
                    lat__unsupported(p, &p->toks[before],
                                     "a template value parameter neither of an integer type nor a pointer to a function",
                                     "a lattice limit");
                return false;
            }
            lat__tok *n = &p->toks[p->pos - 1];
            for (size_t j = before; tp.is_function && j + 2 < p->pos; j++)
                if (lat__tok_is_punct(&p->toks[j], LAT_P_STAR) && p->toks[j + 1].kind == LAT_TK_IDENT &&
                    !p->toks[j + 1].atom->kw && lat__tok_is_punct(&p->toks[j + 2], LAT_P_RPAREN))
                    n = &p->toks[j + 1]; /* float (*op)(float, float): the name inside */
            if (lat__accept(p, LAT_P_ELLIPSIS)) {
                tp.is_pack = tm->has_pack = true;
                n = lat__peek(p)->kind == LAT_TK_IDENT ? lat__next(p) : NULL;
            }
            if (n && n->kind == LAT_TK_IDENT && !n->atom->kw)
                tp.name = n->atom;
        }
        if (tp.is_pack && lat__at_punct(p, LAT_P_ASSIGN)) {
            lat__error_tok(p, lat__peek(p), "a template parameter pack cannot have a default");
            return false;
        }
        if (lat__accept(p, LAT_P_ASSIGN)) {
            tp.dflt_at = p->pos;
            skip_default(p);
        }
        LAT_PUSH(&p->u->arena, tm->params, tp);
        if (!lat__accept(p, LAT_P_COMMA))
            break;
    }
    if (p->half_gt || lat__at_punct(p, LAT_P_SHR)) {
        p->half_gt = true; /* the second half of a '>>' that closed a default's list */
        return lat__close_angle(p);
    }
    return lat__expect(p, LAT_P_GT, "to close the template's parameters");
}

/* The declared name of the function declaration at the current token: the identifier
 * (or operator) before its parameter list; p ends past the declaration. */
static lat__atom *skip_function(lat__parser *p, size_t *body_at)
{
    lat__atom *name = NULL;
    while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_LPAREN) && !lat__at_punct(p, LAT_P_SEMI)) {
        if (lat__at_punct(p, LAT_P_LT)) {
            lat__skip_angles(p); /* a return type's template arguments */
            continue;
        }
        lat__tok *t = lat__next(p);
        if (lat__tok_kw(t, LAT_KW_OPERATOR)) {
            char op[24] = "operator";
            if (lat__at_punct(p, LAT_P_LPAREN) || lat__at_punct(p, LAT_P_LBRACKET)) {
                strcat(op, lat__at_punct(p, LAT_P_LPAREN) ? "()" : "[]");
                lat__next(p);
                lat__next(p);
            } else if (lat__peek(p)->kind == LAT_TK_PUNCT && lat__peek(p)->len < 8) {
                strncat(op, lat__peek(p)->text, lat__peek(p)->len);
                lat__next(p);
            }
            name = lat__atom_get(&p->u->atoms, op, strlen(op));
            break;
        }
        if (t->kind == LAT_TK_IDENT && !t->atom->kw)
            name = t->atom;
        bool attribute = lat__tok_kw(t, LAT_KW_LAUNCH_BOUNDS) || lat__tok_kw(t, LAT_KW_CLUSTER_DIMS) ||
                         lat__tok_kw(t, LAT_KW_MAXNREG) || lat__tok_kw(t, LAT_KW_ATTRIBUTE) ||
                         lat__tok_kw(t, LAT_KW_ATTRIBUTE2) || lat__tok_kw(t, LAT_KW_DECLSPEC) ||
                         lat__tok_kw(t, LAT_KW_ALIGN) || lat__tok_kw(t, LAT_KW_ALIGNAS) ||
                         lat__tok_kw(t, LAT_KW_DECLTYPE);
        if (attribute && lat__at_punct(p, LAT_P_LPAREN))
            lat__skip_group(p); /* __launch_bounds__(BLOCK) between the return type and the name;
                                 * a decltype(auto) or decltype(e) return type */
    }
    if (lat__at_punct(p, LAT_P_LPAREN))
        lat__skip_group(p);
    while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_LBRACE) && !lat__at_punct(p, LAT_P_SEMI)) {
        if (lat__at_punct(p, LAT_P_LPAREN))
            lat__skip_group(p);
        else
            lat__next(p);
    }
    *body_at = p->pos;
    if (lat__at_punct(p, LAT_P_LBRACE))
        lat__skip_group(p);
    else
        lat__accept(p, LAT_P_SEMI);
    return name;
}


static lat__sym *param_sym(lat__parser *p, lat__template *tm, const tparam *tp, lat__atom *name, const targ *a,
                           const targ *args)
{
    lat__sym *s;
    if (tp->is_type) {
        s = lat__sym_new(p, LAT_SYM_TYPEDEF, name, tm->loc);
        s->type = a->type;
    } else {
        s = lat__sym_new(p, LAT_SYM_ENUM_CONST, name, tm->loc);
        s->type = lat__unqualified(p->u, tp->value_type);
        if (tp->type_of) {
            const targ *of = &args[tp->type_of - 1]; /* T v: of T's type, when an integer */
            if (of->type && lat__is_integer(of->type))
                s->type = lat__unqualified(p->u, of->type);
        }
        if (tp->is_auto && a->type && (lat__is_integer(a->type) || a->type->kind == LAT_TY_BOOL))
            s->type = lat__unqualified(p->u, a->type);
        s->value = a->value;
        s->tparam = a->vph;
    }
    s->depth = 0;
    s->flags |= LAT_SF_FILE_SCOPE | LAT_SF_TRANSPARENT;
    return s;
}

/* Binds the template's parameters to args by their names (a pack's elements by theirs,
 * Ts__lat_p0...), for a parse of its tokens; unbind_params undoes it. */
static bound_names bind_params(lat__parser *p, lat__template *tm, const targ *args)
{
    size_t total = tm->params.n;
    for (size_t i = 0; i < tm->params.n; i++)
        if (tm->params.items[i].is_pack)
            total += args[i].npack;
    bound_names b = {lat__arena_alloc(&p->u->arena, (total + 1) * sizeof *b.names),
                     lat__arena_alloc(&p->u->arena, (total + 1) * sizeof *b.was), 0};
    for (size_t i = 0; i < tm->params.n; i++) {
        tparam *tp = &tm->params.items[i];
        if (!tp->name)
            continue;
        size_t count = tp->is_pack ? args[i].npack : 1;
        for (size_t j = 0; j < count; j++) {
            lat__atom *name = tp->is_pack ? lat__pack_element(p, tp->name, j) : tp->name;
            b.names[b.n] = name;
            b.was[b.n++] = name->sym;
            if (tp->is_function) {
                /* op names the function itself, so that op(x) calls it; a placeholder is a
                 * variable of the pointer's type */
                lat__sym *s = args[i].tmpl;
                if (!s) {
                    s = lat__sym_new(p, LAT_SYM_VAR, name, tm->loc);
                    s->type = tp->value_type;
                    s->depth = 0;
                    s->flags |= LAT_SF_FILE_SCOPE;
                }
                name->sym = s;
                continue;
            }
            if (tp->is_template) {
                /* Op names the argument's template itself; a placeholder (a signature read
                 * for deduction) names nothing it could be mistaken for */
                lat__sym *s = args[i].tmpl;
                if (!s) {
                    s = lat__sym_new(p, LAT_SYM_TYPEDEF, name, tm->loc);
                    s->type = lat__dependent_type(p);
                    s->flags |= LAT_SF_TRANSPARENT;
                }
                name->sym = s;
                continue;
            }
            name->sym = param_sym(p, tm, tp, name, tp->is_pack ? &args[i].pack[j] : &args[i], args);
        }
    }
    return b;
}

static void unbind_params(bound_names b)
{
    while (b.n-- > 0)
        b.names[b.n]->sym = b.was[b.n];
}

/* The parameters as placeholders, for reading a signature that deduction matches: type
 * parameter i is placeholder i, element j of a pack of lens[i] elements (lens NULL: none)
 * placeholder params.n + the elements of the packs before + j. */
static targ *placeholder_args(lat__parser *p, lat__template *tm, const size_t *lens)
{
    targ *a = lat__arena_alloc(&p->u->arena, (tm->params.n + 1) * sizeof *a);
    size_t next = tm->params.n;
    for (size_t i = 0; i < tm->params.n; i++) {
        tparam *tp = &tm->params.items[i];
        a[i].type = lat__marker_type(p->u, PLACEHOLDER - (int64_t)i);
        a[i].value = 1;
        a[i].vph = tp->is_type ? 0 : (int)i + 1;
        if (!tp->is_pack)
            continue;
        a[i].npack = lens ? lens[i] : 0;
        a[i].pack = lat__arena_alloc(&p->u->arena, (a[i].npack + 1) * sizeof *a[i].pack);
        for (size_t j = 0; j < a[i].npack; j++) {
            a[i].pack[j].type = lat__marker_type(p->u, PLACEHOLDER - (int64_t)next);
            a[i].pack[j].value = 1;
            a[i].pack[j].vph = tp->is_type ? 0 : (int)next + 1;
            next++;
        }
    }
    return a;
}

/* Local names out of sight while a template is parsed at file scope, and back. */
static size_t suspend_locals(lat__parser *p)
{
    size_t from = p->marks.n ? p->marks.items[0] : p->bound.n;
    for (size_t i = p->bound.n; i-- > from;) {
        lat__sym *s = p->bound.items[i];
        if (!s->name)
            continue;
        lat__sym **slot = s->kind == LAT_SYM_TAG ? &s->name->tag : &s->name->sym;
        if (*slot == s)
            *slot = s->shadow;
    }
    return from;
}

static void resume_locals(lat__parser *p, size_t from)
{
    for (size_t i = from; i < p->bound.n; i++) {
        lat__sym *s = p->bound.items[i];
        if (!s->name)
            continue;
        lat__sym **slot = s->kind == LAT_SYM_TAG ? &s->name->tag : &s->name->sym;
        *slot = s;
    }
}

/* The names of the template's namespace (and those around it) in sight while it is
 * parsed, as where it was declared; *n receives how many bindings to undo. */
typedef struct ns_binding {
    lat__sym **slot;
    lat__sym *was;
} ns_binding;

static ns_binding *open_namespaces(lat__parser *p, lat__ns *ns, size_t *n);

/* Template tm's names in sight, as where it was declared: its namespaces, and a member
 * template's names as its class saw them; *n receives how many bindings to undo. */
static ns_binding *open_scope(lat__parser *p, lat__template *tm, size_t *n)
{
    size_t nns;
    ns_binding *ns = open_namespaces(p, tm->ns, &nns);
    if (!tm->snap_names.n) {
        *n = nns;
        return ns;
    }
    ns_binding *b = lat__arena_alloc(&p->u->arena, (nns + tm->snap_names.n + 1) * sizeof *b);
    memcpy(b, ns, nns * sizeof *b);
    for (size_t i = 0; i < tm->snap_names.n; i++) {
        lat__sym **slot = &tm->snap_names.items[i]->sym;
        b[nns + i].slot = slot;
        b[nns + i].was = *slot;
        *slot = tm->snap_syms.items[i];
    }
    *n = nns + tm->snap_names.n;
    return b;
}

static ns_binding *open_namespaces(lat__parser *p, lat__ns *ns, size_t *n)
{
    size_t total = 0, depth = 0;
    for (lat__ns *x = ns; x; x = x->parent, depth++)
        total += x->members.n;
    ns_binding *b = lat__arena_alloc(&p->u->arena, (total + 1) * sizeof *b);
    size_t k = 0;
    for (size_t level = depth; level-- > 0;) { /* outermost first */
        lat__ns *x = ns;
        for (size_t up = 0; up < level; up++)
            x = x->parent;
        for (size_t i = 0; i < x->members.n; i++) {
            lat__sym *s = x->members.items[i];
            if (!s->name)
                continue;
            lat__sym **slot = s->kind == LAT_SYM_TAG ? &s->name->tag : &s->name->sym;
            b[k].slot = slot;
            b[k].was = *slot;
            k++;
            *slot = s;
        }
    }
    *n = k;
    return b;
}

static void close_namespaces(ns_binding *b, size_t n)
{
    while (n-- > 0)
        *b[n].slot = b[n].was;
}

/* A parser over the same tokens at file scope, at the template's declaration. */
static lat__parser sub_parser(lat__parser *p, lat__template *tm)
{
    lat__parser sub = *p;
    sub.depth = 0;
    memset(&sub.bound, 0, sizeof sub.bound);
    memset(&sub.marks, 0, sizeof sub.marks);
    memset(&sub.jumps, 0, sizeof sub.jumps);
    memset(&sub.gotos, 0, sizeof sub.gotos);
    memset(&sub.pending, 0, sizeof sub.pending);
    memset(&sub.bodies, 0, sizeof sub.bodies);
    sub.fn = NULL;
    sub.panic = false;
    sub.in_record = tm->member_of != NULL; /* a member template's signature: f(T) const */
    sub.in_params = false;
    sub.this_sym = sub.ctor_self = NULL;
    sub.half_gt = false;
    sub.ns = tm->ns;
    sub.toks = tm->toks;
    sub.ntoks = tm->ntoks;
    sub.pos = tm->decl_at;
    sub.inst_of = NULL;
    sub.inst_type = NULL;
    sub.inst_tag = NULL;
    /* An instance is parsed where its template was defined, not where it was first used:
     * inside a lambda's body, the lambda's captures are not the instance's names. */
    sub.lambda = NULL;
    sub.decl_class = NULL;
    sub.member_class = NULL;
    sub.conv_type = NULL;
    sub.decl_align = 0;
    sub.decl_packed = false;
    sub.method_const = false;
    sub.method_volatile = false;
    return sub;
}

/* A template with packs: sub parses a copy of its declaration's tokens with the packs of
 * args written out (parse_pack.c). false after reporting. */
static bool expand_for(lat__parser *sub, lat__template *tm, const targ *args, bool signature)
{
    if (!tm->has_pack)
        return true;
    LAT_VEC(lat__pack_bind) packs = {0};
    for (size_t i = 0; i < tm->params.n; i++)
        if (tm->params.items[i].is_pack && tm->params.items[i].name) {
            lat__pack_bind b = {tm->params.items[i].name, args[i].npack};
            LAT_PUSH(&sub->u->arena, packs, b);
        }
    /* a template template parameter names its argument's template while the packs are
     * written out: L<T...>'s '<' opens arguments, not a comparison */
    LAT_VEC(lat__sym *) was = {0};
    for (size_t i = 0; i < tm->params.n; i++)
        if (tm->params.items[i].is_template && tm->params.items[i].name) {
            LAT_PUSH(&sub->u->arena, was, tm->params.items[i].name->sym);
            if (args[i].tmpl)
                tm->params.items[i].name->sym = args[i].tmpl;
        }
    size_t n;
    lat__tok *t = lat__expand_packs(sub, tm->toks, tm->decl_at, signature && tm->body_at ? tm->body_at : tm->decl_end, packs.items, packs.n, &n);
    for (size_t i = 0, k = 0; i < tm->params.n; i++)
        if (tm->params.items[i].is_template && tm->params.items[i].name)
            tm->params.items[i].name->sym = was.items[k++];
    if (!t)
        return false;
    sub->toks = t;
    sub->ntoks = n;
    sub->pos = 0;
    sub->pragma_at = NULL;
    return true;
}

static bool explicit_args(lat__parser *p, lat__template *tm, targ *args, bool *set);
static bool defaults(lat__parser *p, lat__template *tm, targ *args, bool *set, lat__loc at);

/* template <> struct Name<args> { ... };: the class Name<args> is this one. */
static lat__sym *instantiated_template(lat__parser *p, size_t end, size_t *name_at);
static const char *args_text(lat__parser *p, lat__template *tm, const targ *args);
static tinst *find_inst(lat__template *tm, const targ *args);

/* template <> T f<args>(...) {...}: kept, to be parsed instead of the template when
 * f<args> is made. */
static void function_specialization(lat__parser *p, lat__tok *kw)
{
    size_t at = p->pos;
    lat__skip_declaration(p);
    size_t end = p->pos;
    p->pos = at;
    size_t name_at = at;
    lat__sym *s = instantiated_template(p, end, &name_at);
    if (!s) {
        lat__unsupported(p, kw, "an explicit specialization of a function template without its arguments",
                         "write them: template <> float f<float>(float x)");
        p->pos = end;
        return;
    }
    lat__template *tm = s->tmpl;
    lat__tok *name = &p->toks[p->pos - 1];
    targ *args = lat__arena_alloc(&p->u->arena, (tm->params.n + 1) * sizeof *args);
    bool *set = lat__arena_alloc(&p->u->arena, tm->params.n + 1);
    if (explicit_args(p, tm, args, set) && defaults(p, tm, args, set, name->loc)) {
        if (find_inst(tm, args))
            lat__error_tok(p, name, "%s is specialized after it was used", args_text(p, tm, args));
        tinst sp = {.args = args};
        LAT_PUSH(&p->u->arena, tm->specs, sp);
        LAT_PUSH(&p->u->arena, tm->spec_at, at);
    }
    p->pos = end;
}

static void explicit_specialization(lat__parser *p, lat__tok *kw)
{
    size_t at = p->pos;
    lat__tok *first = lat__peek(p);
    if (!lat__record_kw(first) ||
        lat__peek_at(p, 1)->kind != LAT_TK_IDENT || !lat__tok_is_punct(lat__peek_at(p, 2), LAT_P_LT)) {
        function_specialization(p, kw);
        return;
    }
    lat__next(p);
    lat__tok *name = lat__next(p);
    lat__sym *tsym = name->atom->sym;
    if (!tsym || !tsym->tmpl || !tsym->tmpl->is_class) {
        lat__error_tok(p, name, "'%s' is not a class template", name->atom->name);
        lat__skip_declaration(p);
        return;
    }
    lat__template *tm = tsym->tmpl;
    targ *args = lat__arena_alloc(&p->u->arena, (tm->params.n + 1) * sizeof *args);
    bool *set = lat__arena_alloc(&p->u->arena, tm->params.n + 1);
    if (!explicit_args(p, tm, args, set) || !defaults(p, tm, args, set, name->loc)) {
        lat__skip_declaration(p);
        return;
    }
    tinst sp = {.args = args};
    LAT_PUSH(&p->u->arena, tm->specs, sp);
    LAT_PUSH(&p->u->arena, tm->spec_at, at);
    while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_LBRACE) && !lat__at_punct(p, LAT_P_SEMI))
        lat__next(p);
    if (lat__at_punct(p, LAT_P_LBRACE))
        lat__skip_group(p);
    lat__expect(p, LAT_P_SEMI, "after the specialization");
}

static char *scoped_name(lat__parser *p, char *name);
static bool unify_args(lat__parser *p, const lat__template *tm, const targ *pat, const targ *inst, targ *args,
                       bool *set);
static bool type_depends(const lat__type *t);
static bool opaque_arg(const lat__type *t);
static bool unify_spec_args(lat__parser *p, const lat__template *tm, const targ *pat, const targ *inst, targ *args,
                            bool *set);

/* Whether a pattern's argument depends on a parameter otherwise than as itself or through
 * a class template's arguments (typename X<T>::type, enable_if_t<...>): deduction cannot
 * see through it, and C++ would match what lattice cannot. */
static bool opaque_pattern(const lat__type *t)
{
    if (!t)
        return false;
    if (t->kind == LAT_TY_VOID && t->count == -99 /* DEPENDENT */) {
        if (!t->rec || !t->rec->tmpl)
            return true;
        const lat__template *tm = t->rec->tmpl;
        const targ *a = t->rec->targs;
        for (size_t i = 0; i < tm->params.n; i++) {
            const tparam *tp = &tm->params.items[i];
            size_t n = tp->is_pack ? a[i].npack : 1;
            for (size_t j = 0; j < n && tp->is_type; j++)
                if (opaque_pattern(tp->is_pack ? a[i].pack[j].type : a[i].type))
                    return true;
        }
        return false;
    }
    if (t->kind == LAT_TY_PTR || t->kind == LAT_TY_ARRAY)
        return opaque_pattern(t->base);
    return false;
}

static bool has_template_param(const lat__template *tm)
{
    for (size_t i = 0; i < tm->params.n; i++)
        if (tm->params.items[i].is_template)
            return true;
    return false;
}

/* The primary's arguments a partial specialization's <...> gives (p at its '<'), read
 * with own's parameters as placeholders valued `value`; NULL after reporting. */
static targ *read_pattern(lat__parser *p, lat__template *own, lat__template *prim, int64_t value, lat__loc at)
{
    targ *ph = placeholder_args(p, own, NULL);
    for (size_t i = 0; i < own->params.n; i++)
        ph[i].value = value;
    bound_names b = bind_params(p, own, ph);
    targ *pat = lat__arena_alloc(&p->u->arena, (prim->params.n + 1) * sizeof *pat);
    bool *set = lat__arena_alloc(&p->u->arena, prim->params.n + 1);
    bool ok = explicit_args(p, prim, pat, set) && defaults(p, prim, pat, set, at);
    unbind_params(b);
    return ok ? pat : NULL;
}

/* template <params> struct Name<args> {...}; at the '<' (own: the parameters read, its
 * name): kept with the primary, whose instances take it when their arguments match. */
static void partial_specialization(lat__parser *p, lat__template *own, lat__tok *first)
{
    lat__tok *name = &p->toks[p->pos - 1];
    lat__sym *ps = own->name->sym;
    own->decl_at = (size_t)(first - p->toks);
    size_t open = p->pos;
    targ *pat = NULL, *pat2 = NULL;
    lat__template *prim = ps && ps->tmpl && ps->tmpl->is_class && !ps->tmpl->is_alias ? ps->tmpl : NULL;
    if (!prim)
        lat__error_tok(p, name, "'%s' is not a class template: a partial specialization needs one declared before",
                       own->name->name);
    else if (own->has_pack || has_template_param(own)) {
        size_t packs = 0, templates = 0;
        for (size_t i = 0; i < own->params.n; i++) {
            packs += own->params.items[i].is_pack;
            templates += own->params.items[i].is_template;
        }
        if (packs > 2 || templates > 1)
            lat__unsupported(p, name,
                             "a partial specialization with more than two parameter packs or more than one template "
                             "template parameter",
                             "a lattice limit");
        else {
            /* template <class T, class... R> struct S<T, R...>: read for each instance, with
             * the pack as long as the instance's arguments make it; template <template
             * <class...> class L, class... T> struct S<L<T...>>: with L each class template
             * the instance's arguments name */
            partial ps_ = {own, NULL, open, NULL, 0};
            lat__skip_angles(p);
            while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_LBRACE) && !lat__at_punct(p, LAT_P_SEMI))
                lat__next(p);
            if (lat__at_punct(p, LAT_P_LBRACE))
                lat__skip_group(p);
            lat__expect(p, LAT_P_SEMI, "after the partial specialization");
            own->decl_end = p->pos;
            LAT_PUSH(&p->u->arena, prim->partials, ps_);
            return;
        }
    } else if ((pat = read_pattern(p, own, prim, 1, name->loc))) {
        /* Read again with other values for the value parameters: an argument computed from
         * one (S<T, N + 1>) is not a pattern lattice can match. */
        size_t end = p->pos;
        p->pos = open;
        pat2 = read_pattern(p, own, prim, 2, name->loc);
        p->pos = end;
    }
    if (pat && pat2) {
        for (size_t i = 0; i < prim->params.n && pat; i++) {
            const tparam *tp = &prim->params.items[i];
            size_t n = tp->is_pack ? pat[i].npack : 1; /* a pack's elements each (S<T> of S<Ts...>) */
            if (tp->is_pack && pat2[i].npack != n)
                pat = NULL;
            for (size_t j = 0; j < n && pat; j++) {
                const targ *a = tp->is_pack ? &pat[i].pack[j] : &pat[i], *a2 = tp->is_pack ? &pat2[i].pack[j] : &pat2[i];
                if (tp->is_type ? opaque_pattern(a->type) && (tp->is_pack || !opaque_arg(a->type))
                                : a->vph < 0 || (!a->vph && a->value != a2->value))
                    pat = NULL;
            }
        }
        if (!pat)
            lat__unsupported(p, name,
                             "a partial specialization whose arguments depend on its parameters otherwise than "
                             "as themselves or a class template's arguments (enable_if<...>::type, N + 1, packs)",
                             "a lattice limit");
    }
    if (pat) {
        /* each of its parameters must be deducible from the arguments */
        targ *d = lat__arena_alloc(&p->u->arena, (own->params.n + 1) * sizeof *d);
        bool *dset = lat__arena_alloc(&p->u->arena, own->params.n + 1);
        unify_spec_args(p, prim, pat, pat, d, dset);
        for (size_t i = 0; i < own->params.n && pat; i++)
            if (!dset[i]) {
                lat__error_tok(p, name, "the parameter '%s' of this partial specialization of '%s' is not in its arguments",
                               own->params.items[i].name ? own->params.items[i].name->name : "?", own->name->name);
                pat = NULL;
            }
    }
    while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_LBRACE) && !lat__at_punct(p, LAT_P_SEMI))
        lat__next(p);
    if (lat__at_punct(p, LAT_P_LBRACE))
        lat__skip_group(p);
    lat__expect(p, LAT_P_SEMI, "after the partial specialization");
    own->decl_end = p->pos;
    if (pat) {
        partial ps_ = {own, pat, open, NULL, 0};
        LAT_PUSH(&p->u->arena, prim->partials, ps_);
    }
}

/* Tokens as written, each run of white space (a line break too) one blank. */
static char *spell_as_written(lat__unit *u, const lat__tok *t, size_t n)
{
    size_t cap = 1;
    for (size_t i = 0; i < n; i++)
        cap += t[i].len + 1;
    char *s = lat__arena_alloc(&u->arena, cap), *at = s;
    for (size_t i = 0; i < n; i++) {
        if (i && (t[i].flags & (LAT_TF_SPACE | LAT_TF_BOL)))
            *at++ = ' ';
        memcpy(at, t[i].text, t[i].len);
        at += t[i].len;
    }
    *at = '\0';
    return s;
}

/* A __global__ function template, declared from token `at` (its `template`) to p->pos:
 * listed (lat_module_template_count) with its declaration as written up to its body,
 * so that a user can name an instance. One in an anonymous namespace cannot be named. */
static void note_kernel_template(lat__parser *p, const lat__template *tm, size_t at)
{
    size_t end = tm->decl_at;
    bool global = false;
    while (end < p->pos && !lat__tok_is_punct(&p->toks[end], LAT_P_LBRACE) &&
           !lat__tok_is_punct(&p->toks[end], LAT_P_SEMI)) {
        if (lat__tok_kw(&p->toks[end], LAT_KW_GLOBAL))
            global = true;
        end++;
    }
    char *name = global ? scoped_name(p, (char *)tm->name->name) : NULL;
    if (!name)
        return;
    lat__kernel_template kt = {
        .name = name,
        .decl = spell_as_written(p->u, &p->toks[at], end - at),
        .line = (int)tm->loc.line,
    };
    LAT_PUSH(&p->u->arena, p->tu->kernel_templates, kt);
}

/* Whether the declaration at p (after a template's parameters) declares a variable: its
 * declarator's name is followed by '=', '{' or ';' before any '('. */
static bool variable_declaration(lat__parser *p)
{
    size_t save = p->pos;
    bool var = false;
    while (!lat__at_eof(p)) {
        if (lat__at_punct(p, LAT_P_LT)) {
            lat__skip_angles(p);
            continue;
        }
        lat__tok *t = lat__next(p);
        if (lat__tok_is_punct(t, LAT_P_LPAREN) || lat__tok_is_punct(t, LAT_P_SEMI) ||
            lat__tok_kw(t, LAT_KW_OPERATOR))
            break;
        if ((lat__at_punct(p, LAT_P_ASSIGN) || lat__at_punct(p, LAT_P_LBRACE)) && t->kind == LAT_TK_IDENT &&
            !t->atom->kw) {
            var = true;
            break;
        }
        if (lat__at_punct(p, LAT_P_LBRACE) || lat__at_punct(p, LAT_P_ASSIGN))
            break;
    }
    p->pos = save;
    return var;
}

/* Reads a function template's signature with its parameters as placeholders (what
 * deduction matches) into tm->shape, and whether deduction must try substituting
 * (SFINAE); false when the declaration is no function. */
static bool read_shape(lat__parser *p, lat__template *tm)
{
    lat__parser sub = sub_parser(p, tm);
    if (tm->member_of) {
        /* read inside a class template's instance, not made yet: its name alone means it */
        sub.inst_of = p->inst_of;
        sub.inst_type = p->inst_type;
    }
    targ *ph = placeholder_args(p, tm, NULL);
    bound_names b = bind_params(&sub, tm, ph);
    lat__atom *n = NULL;
    sub.method_const = false;
    tm->shape = expand_for(&sub, tm, ph, true) ? lat__parse_signature(&sub, &n) : NULL;
    tm->const_method = sub.method_const;
    unbind_params(b);
    p->anon = sub.anon;
    if (!tm->shape || tm->shape->kind != LAT_TY_FUNC)
        return false;
    tm->sfinae = lat__is_template_placeholder(tm->shape->base) && !placeholder_index(tm->shape->base, &(int){0});
    for (size_t i = 0; i < tm->params.n; i++)
        tm->sfinae |= tm->params.items[i].type_at || tm->params.items[i].dflt_at;
    return true;
}

/* What a member template's names mean in its class, for its instances made later at file
 * scope. */
static void snapshot(lat__parser *p, lat__template *tm)
{
    for (size_t i = tm->decl_at; i < tm->decl_end; i++) {
        lat__atom *a = p->toks[i].kind == LAT_TK_IDENT ? p->toks[i].atom : NULL;
        if (!a || a->kw || !a->sym || a->aux == tm)
            continue;
        a->aux = tm; /* once each */
        LAT_PUSH(&p->u->arena, tm->snap_names, a);
        LAT_PUSH(&p->u->arena, tm->snap_syms, a->sym);
    }
    for (size_t i = 0; i < tm->snap_names.n; i++)
        tm->snap_names.items[i]->aux = NULL;
}

/* Past the attributes between a class template's `struct`/`class` and its name: they are
 * read with each instance (alignas(sizeof(T) * N) depends on the parameters). */
static void skip_head_attributes(lat__parser *p)
{
    while (lat__at_attribute(p)) {
        if (lat__at_punct(p, LAT_P_LBRACKET)) {
            lat__skip_group(p);
            continue;
        }
        lat__next(p);
        if (lat__at_punct(p, LAT_P_LPAREN))
            lat__skip_group(p);
    }
}

/* template <...> struct Name {...}; in r's body, at `struct`: a member type of r that is a
 * class template (Outer::Box<float>, Alloc<U>::rebind<T>::other), each instance a struct
 * at file scope named after r's. */
static void member_class_template(lat__parser *p, lat__record *r, lat__template *tm, lat__tok *first)
{
    lat__next(p);
    skip_head_attributes(p);
    if (lat__peek(p)->kind != LAT_TK_IDENT) {
        lat__syntax_error(p, "the member class template's name");
        lat__skip_member(p);
        return;
    }
    tm->name = lat__next(p)->atom;
    tm->is_class = true;
    if (lat__at_punct(p, LAT_P_LT)) {
        lat__unsupported(p, first, "a partial specialization of a member class template", "a lattice limit");
        lat__skip_member(p);
        return;
    }
    while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_LBRACE) && !lat__at_punct(p, LAT_P_SEMI))
        lat__next(p);
    if (lat__at_punct(p, LAT_P_LBRACE)) {
        tm->has_body = true;
        lat__skip_group(p);
    }
    lat__expect(p, LAT_P_SEMI, "after the member class template");
    tm->decl_end = p->pos;
    if (!tm->has_body) {
        lat__unsupported(p, first, "a member class template declared in its class and defined outside it",
                         "a lattice limit");
        return;
    }
    if (lat__find_member_sym(r, tm->name)) {
        lat__error_tok(p, first, "'%s' is declared twice in %s", tm->name->name, lat__record_c_name(r));
        return;
    }
    snapshot(p, tm);
    lat__sym *s = lat__sym_new(p, LAT_SYM_TYPEDEF, tm->name, first->loc);
    s->tmpl = tm;
    tm->sym = s;
    s->type = &lat__ty_int;
    s->depth = 0;
    LAT_PUSH(&p->u->arena, r->methods, s);
    s->shadow = tm->name->sym; /* by its plain name in the rest of the class */
    tm->name->sym = s;
}

void lat__member_template(lat__parser *p, lat__record *r)
{
    lat__tok *kw = lat__next(p);
    lat__template *tm = lat__arena_alloc(&p->u->arena, sizeof *tm);
    tm->ns = p->ns;
    tm->loc = kw->loc;
    tm->toks = p->toks;
    tm->ntoks = p->ntoks;
    tm->member_of = r;
    const char *refused = NULL;
    if (lat__at_punct(p, LAT_P_LT) && lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_GT))
        refused = "an explicit specialization inside a class";
    else if (!template_params(p, tm)) {
        lat__skip_member(p);
        return;
    }
    tm->decl_at = p->pos;
    lat__tok *first = lat__peek(p);
    if (!refused && lat__record_kw(first)) {
        member_class_template(p, r, tm, first);
        return;
    }
    if (!refused && lat__at_type_alias(p))
        refused = "a member alias template";
    else if (!refused && variable_declaration(p))
        refused = "a static data member template";
    if (refused) {
        lat__unsupported(p, kw, refused, "a lattice limit");
        lat__skip_member(p);
        return;
    }
    bool is_static = false;
    for (size_t i = p->pos; i < p->ntoks && !lat__tok_is_punct(&p->toks[i], LAT_P_LPAREN); i++)
        is_static |= lat__tok_kw(&p->toks[i], LAT_KW_STATIC);
    tm->name = skip_function(p, &tm->body_at);
    tm->decl_end = p->pos;
    if (!tm->name) {
        lat__syntax_error(p, "a member function after the template's parameters");
        return;
    }
    lat__sym *old = lat__find_method(r, tm->name);
    if ((!old && lat__find_member_sym(r, tm->name)) || tm->name == r->tag) {
        lat__unsupported(p, first, "a member template beside a member of its name that is no function, or a "
                                   "constructor template",
                         "a lattice limit");
        return;
    }
    snapshot(p, tm);
    if (!read_shape(p, tm)) {
        lat__unsupported(p, first, "a member template other than a member function", "a lattice limit");
        return;
    }
    if (old && old->tmpl) {
        /* overloaded member templates (const and not, of other parameters): calls pick
         * among the chain, and the plain member functions of the name beside them */
        tm->older = old;
        tm->plain = old->tmpl->plain;
    } else if (old) {
        tm->plain = old;
    }
    lat__sym *s = lat__sym_new(p, LAT_SYM_FUNC, tm->name, first->loc);
    s->tmpl = tm;
    s->type = tm->shape;
    s->rec = r;
    s->storage = is_static ? LAT_ST_STATIC : LAT_ST_NONE;
    s->depth = 0;
    LAT_PUSH(&p->u->arena, r->methods, s);
}

/* A generic lambda's operator(), written out as a member template (toks, ending at an end
 * of file token): the enclosing function's variables it names are r's fields (its captures),
 * so the snapshot keeps none of them; the template's symbol, or NULL after reporting. */
lat__sym *lat__member_template_from(lat__parser *p, lat__record *r, lat__tok *toks, size_t ntoks)
{
    lat__tok *saved = p->toks;
    size_t saved_n = p->ntoks, saved_pos = p->pos, had = r->methods.n;
    p->toks = toks;
    p->ntoks = ntoks;
    p->pos = 0;
    lat__member_template(p, r);
    p->toks = saved;
    p->ntoks = saved_n;
    p->pos = saved_pos;
    if (r->methods.n == had || !r->methods.items[r->methods.n - 1]->tmpl)
        return NULL;
    lat__sym *s = r->methods.items[r->methods.n - 1];
    lat__template *tm = s->tmpl;
    size_t keep = 0;
    for (size_t i = 0; i < tm->snap_names.n; i++) {
        lat__sym *v = tm->snap_syms.items[i];
        if (v->kind == LAT_SYM_VAR && v->depth > 0 && !(v->flags & LAT_SF_FILE_SCOPE))
            continue;
        tm->snap_names.items[keep] = tm->snap_names.items[i];
        tm->snap_syms.items[keep++] = v;
    }
    tm->snap_names.n = tm->snap_syms.n = keep;
    return s;
}

/* A member template's instance: a member function of its class, parsed as the class's
 * own are, under a name of its own (get__lat_t1). */
static tinst *instantiate_member(lat__parser *p, lat__sym *tsym, targ *given, lat__loc at)
{
    lat__template *tm = tsym->tmpl;
    tinst *have = find_inst(tm, given);
    if (have)
        return have;
    if (tm->insts.n >= 256) {
        lat__error_at(p->u, at, "more than 256 instances of the template '%s' (runaway recursion?)",
                      tm->name->name);
        return NULL;
    }
    targ *args = lat__arena_alloc(&p->u->arena, (tm->params.n + 1) * sizeof *args);
    memcpy(args, given, tm->params.n * sizeof *args);
    tinst inst = {.args = args};
    LAT_PUSH(&p->u->arena, tm->insts, inst);
    size_t index = tm->insts.n - 1;
    int older = 0; /* overloaded member templates (by SFINAE too): each its own instances' names */
    for (lat__sym *o = tm->older; o; o = o->tmpl->older)
        older++;
    const char *cname = older ? lat__arena_printf(&p->u->arena, "%s__lat_o%d_t%zu", lat__c_name(p, tm->name), older,
                                                  index + 1)
                              : lat__arena_printf(&p->u->arena, "%s__lat_t%zu", lat__c_name(p, tm->name), index + 1);
    lat__atom *as = lat__atom_get(&p->u->atoms, cname, strlen(cname));
    size_t from = suspend_locals(p);
    size_t nopen;
    ns_binding *opened = open_scope(p, tm, &nopen);
    lat__parser sub = sub_parser(p, tm);
    sub.instantiating = true;
    sub.member_class = tm->member_of;
    bound_names b = bind_params(&sub, tm, args);
    lat__sym *m = expand_for(&sub, tm, args, false) ? lat__member_instance(&sub, tm->member_of, as) : NULL;
    sub.in_record = false;
    if (m)
        lat__class_bodies(&sub, tm->member_of);
    unbind_params(b);
    close_namespaces(opened, nopen);
    resume_locals(p, from);
    p->anon = sub.anon;
    for (size_t i = 0; i < sub.pending.n; i++)
        LAT_PUSH(&p->u->arena, p->tu->items, sub.pending.items[i]);
    tinst *ti = &tm->insts.items[index];
    ti->fn = m;
    if (!m)
        lat__error_at(p->u, at, "%s could not be made", args_text(p, tm, args));
    return ti;
}

/* template <class T> R X<T>::f(...) {...} at the declaration (after the parameters): the
 * class template X whose member it defines outside the class, or NULL. */
static lat__sym *member_owner(lat__parser *p)
{
    for (size_t i = p->pos; i + 1 < p->ntoks; i++) {
        const lat__tok *t = &p->toks[i];
        if (lat__tok_is_punct(t, LAT_P_LPAREN) || lat__tok_is_punct(t, LAT_P_SEMI) ||
            lat__tok_is_punct(t, LAT_P_LBRACE) || lat__tok_is_punct(t, LAT_P_ASSIGN))
            return NULL;
        lat__sym *s = t->kind == LAT_TK_IDENT ? t->atom->sym : NULL;
        if (!s || !s->tmpl || !s->tmpl->is_class || s->tmpl->is_alias || !lat__tok_is_punct(t + 1, LAT_P_LT))
            continue;
        size_t save = p->pos;
        p->pos = i + 1;
        lat__skip_angles(p);
        size_t k = p->pos;
        p->pos = save;
        /* X<T>::name( X<T>::~X( X<T>::operator: a member; typename X<T>::type: no */
        if (k + 2 < p->ntoks && lat__tok_is_punct(&p->toks[k], LAT_P_SCOPE) &&
            !(i > 0 && lat__tok_kw(&p->toks[i - 1], LAT_KW_TYPENAME)) &&
            (lat__tok_kw(&p->toks[k + 1], LAT_KW_OPERATOR) || lat__tok_is_punct(&p->toks[k + 1], LAT_P_TILDE) ||
             (p->toks[k + 1].kind == LAT_TK_IDENT && lat__tok_is_punct(&p->toks[k + 2], LAT_P_LPAREN))))
            return s;
        i = k - 1;
    }
    return NULL;
}

/* The out-of-class member definition d of the class template cls for its instance made
 * with args, of type inst: parsed as a plain class's member defined outside it, from a
 * copy of its tokens in which the class is named `X::` (not `X<T>::`) and X's tag is the
 * instance's. */
static void member_definition(lat__parser *p, lat__template *cls, lat__template *d, const targ *args, lat__type *inst)
{
    LAT_VEC(lat__tok) toks = {0};
    for (size_t i = d->decl_at; i < d->decl_end; i++) {
        LAT_PUSH(&p->u->arena, toks, d->toks[i]);
        if (d->toks[i].kind != LAT_TK_IDENT || d->toks[i].atom != cls->name || !lat__tok_is_punct(&d->toks[i + 1], LAT_P_LT))
            continue;
        lat__parser scan = *p;
        scan.toks = d->toks;
        scan.ntoks = d->ntoks;
        scan.pos = i + 1;
        scan.half_gt = false;
        lat__skip_angles(&scan);
        if (scan.pos < d->decl_end && lat__tok_is_punct(&d->toks[scan.pos], LAT_P_SCOPE))
            i = scan.pos - 1; /* X<T>:: is X:: */
    }
    lat__tok eof = d->toks[d->decl_end];
    eof.kind = LAT_TK_EOF;
    eof.len = 0;
    eof.text = "";
    eof.atom = NULL;
    LAT_PUSH(&p->u->arena, toks, eof);
    lat__sym *tag = lat__sym_new(p, LAT_SYM_TAG, cls->name, d->loc);
    tag->rec = inst->rec;
    tag->type = inst;
    lat__sym *outer_tag = cls->name->tag;
    size_t from = suspend_locals(p);
    size_t nopen;
    ns_binding *opened = open_scope(p, d, &nopen);
    lat__parser sub = sub_parser(p, d);
    sub.instantiating = true;
    sub.toks = toks.items;
    sub.ntoks = toks.n - 1;
    sub.pos = 0;
    sub.pragma_at = NULL;
    sub.inst_of = cls; /* X alone means the instance, as inside the class */
    sub.inst_type = inst;
    bound_names b = bind_params(&sub, d, args);
    cls->name->tag = tag;
    lat__func *fn = NULL;
    lat__decl_group *g = lat__parse_declaration(&sub, &fn);
    cls->name->tag = outer_tag;
    unbind_params(b);
    close_namespaces(opened, nopen);
    resume_locals(p, from);
    p->anon = sub.anon;
    if (g) {
        lat__ext x = {LAT_X_DECL, g, NULL};
        LAT_PUSH(&p->u->arena, p->tu->items, x);
    }
    if (fn) {
        lat__ext x = {LAT_X_FUNC, NULL, fn};
        LAT_PUSH(&p->u->arena, p->tu->items, x);
    }
    for (size_t i = 0; i < sub.pending.n; i++)
        LAT_PUSH(&p->u->arena, p->tu->items, sub.pending.items[i]);
}

/* template <class T> R X<T>::f(...) {...}: kept with X (own: its parameters), and made
 * for each instance of X's primary, those made already and those to come. */
static void out_of_class_member(lat__parser *p, lat__template *own, lat__sym *owner, lat__tok *first)
{
    lat__template *cls = owner->tmpl;
    size_t end_at = p->pos;
    (void)skip_function(p, &end_at);
    own->decl_end = p->pos;
    bool same = own->params.n == cls->params.n && !own->has_pack;
    for (size_t i = 0; same && i < own->params.n; i++)
        same = own->params.items[i].is_type == cls->params.items[i].is_type &&
               own->params.items[i].is_template == cls->params.items[i].is_template;
    if (!same) {
        lat__unsupported(p, first,
                         "a class template's member defined outside it with other template parameters than the "
                         "class's (a member template, a partial specialization's member)",
                         "a lattice limit");
        return;
    }
    LAT_PUSH(&p->u->arena, cls->outdefs, own);
    for (size_t i = 0; i < cls->insts.n; i++)
        if (cls->insts.items[i].primary && cls->insts.items[i].type && !cls->insts.items[i].failed)
            member_definition(p, cls, own, cls->insts.items[i].args, cls->insts.items[i].type);
}

void lat__template_declaration(lat__parser *p)
{
    lat__tok *kw = lat__next(p);
    if (p->depth > 0 || p->in_record) {
        lat__unsupported(p, kw, p->in_record ? "a member template" : "a template in a function", "a lattice limit");
        if (lat__at_punct(p, LAT_P_LT))
            lat__skip_angles(p);
        lat__skip_declaration(p);
        return;
    }
    lat__template *tm = lat__arena_alloc(&p->u->arena, sizeof *tm);
    tm->ns = p->ns;
    tm->loc = kw->loc;
    tm->toks = p->toks;
    tm->ntoks = p->ntoks;
    if (lat__at_punct(p, LAT_P_LT) && lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_GT)) {
        lat__next(p);
        lat__next(p);
        explicit_specialization(p, kw);
        return;
    }
    if (!template_params(p, tm)) {
        lat__skip_declaration(p);
        return;
    }
    tm->decl_at = p->pos;
    lat__tok *first = lat__peek(p);
    lat__sym *owner = NULL;
    if (lat__at_type_alias(p)) {
        lat__next(p);
        tm->name = lat__next(p)->atom;
        tm->is_class = tm->is_alias = true;
        lat__skip_declaration(p);
        tm->decl_end = p->pos;
    } else if (lat__record_kw(first)) {
        lat__next(p);
        skip_head_attributes(p);
        if (lat__peek(p)->kind != LAT_TK_IDENT) {
            lat__syntax_error(p, "the class template's name");
            lat__skip_declaration(p);
            return;
        }
        tm->name = lat__next(p)->atom;
        tm->is_class = true;
        if (lat__at_punct(p, LAT_P_LT)) {
            partial_specialization(p, tm, first);
            return;
        }
        while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_LBRACE) && !lat__at_punct(p, LAT_P_SEMI))
            lat__next(p);
        if (lat__at_punct(p, LAT_P_LBRACE)) {
            tm->has_body = true;
            lat__skip_group(p);
        }
        lat__expect(p, LAT_P_SEMI, "after the class template");
        tm->decl_end = p->pos;
    } else if ((owner = member_owner(p))) {
        out_of_class_member(p, tm, owner, first);
        return;
    } else if (variable_declaration(p)) {
        /* template <typename T> constexpr T pi = T(3.14159265358979); */
        tm->is_var = true;
        size_t name_at = p->pos;
        while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_ASSIGN) && !lat__at_punct(p, LAT_P_LBRACE) &&
               !lat__at_punct(p, LAT_P_SEMI)) {
            if (lat__at_punct(p, LAT_P_LT))
                lat__skip_angles(p);
            else if (lat__next(p)->kind == LAT_TK_IDENT)
                name_at = p->pos - 1;
        }
        if (p->toks[name_at].kind != LAT_TK_IDENT) {
            lat__syntax_error(p, "the variable template's name");
            lat__skip_declaration(p);
            return;
        }
        tm->name = p->toks[name_at].atom;
        lat__skip_declaration(p);
        tm->decl_end = p->pos;
    } else {
        tm->name = skip_function(p, &tm->body_at);
        tm->decl_end = p->pos;
        if (!tm->name) {
            lat__syntax_error(p, "a function or class after the template's parameters");
            return;
        }
        if (!read_shape(p, tm)) {
            lat__unsupported(p, first, "a variable template", "a lattice limit");
            return;
        }
    }
    lat__sym *old = tm->name->sym;
    if (old && old->tmpl && old->depth == 0 && tm->is_class && !tm->is_alias && old->tmpl->is_class &&
        !old->tmpl->is_alias && old->tmpl->ns == tm->ns && (!old->tmpl->has_body || !tm->has_body) &&
        old->tmpl->params.n == tm->params.n) {
        /* template <typename T> struct S; and its definition, in either order: one template,
         * defined where its body is (its partial specializations and instances kept) */
        lat__template *o = old->tmpl;
        if (tm->has_body) {
            if (o->insts.n)
                lat__error_tok(p, first, "'%s' is defined after an instance of it was made", tm->name->name);
            o->toks = tm->toks;
            o->ntoks = tm->ntoks;
            o->decl_at = tm->decl_at;
            o->decl_end = tm->decl_end;
            o->has_body = true;
            o->has_pack = tm->has_pack;
            for (size_t i = 0; i < tm->params.n; i++) /* the definition's names; a default of either */
                if (!tm->params.items[i].dflt_at)
                    tm->params.items[i].dflt_at = o->params.items[i].dflt_at;
            o->params = tm->params;
        }
        return;
    }
    if (old && old->tmpl && old->depth == 0 && (tm->is_class || old->tmpl->is_class || tm->is_var || old->tmpl->is_var)) {
        lat__unsupported(p, first, "two templates of one name (template overloading)", "a lattice limit");
        return;
    }
    if (old && old->tmpl && old->depth == 0) {
        /* an overloaded function template: calls pick among the chain */
        tm->older = old;
        tm->plain = old->tmpl->plain;
        old = NULL;
    }
    if (old && old->kind == LAT_SYM_FUNC && old->depth == 0 && !tm->is_class && !tm->is_var)
        tm->plain = old; /* f(x, n) beside template <N> f(x): calls pick by their arguments */
    lat__sym *s = lat__sym_new(p, tm->is_class ? LAT_SYM_TYPEDEF : tm->is_var ? LAT_SYM_VAR : LAT_SYM_FUNC, tm->name,
                               first->loc);
    s->tmpl = tm;
    tm->sym = s;
    if (!tm->is_class && !tm->is_var)
        note_kernel_template(p, tm, (size_t)(kw - p->toks));
    s->type = tm->is_class || tm->is_var ? &lat__ty_int : tm->shape;
    s->depth = 0;
    s->flags |= LAT_SF_FILE_SCOPE;
    lat__bind(p, s);
}

/* ---- arguments ------------------------------------------------------------------------------ */

static bool same_arg(bool is_type, const targ *a, const targ *b)
{
    if (a->tmpl || b->tmpl)
        return a->tmpl == b->tmpl;
    return is_type ? lat__type_same(a->type, b->type) && a->type->quals == b->type->quals
                   : a->value == b->value && a->vph == b->vph;
}

/* template <auto V>: K<5> and K<5u> are two instances, the value typed otherwise. */
static bool same_auto_type(const tparam *tp, const targ *a, const targ *b)
{
    return !tp->is_auto || !a->type || !b->type ||
           lat__type_compatible(a->type, b->type, true);
}

static bool same_args(const lat__template *tm, const targ *a, const targ *b)
{
    for (size_t i = 0; i < tm->params.n; i++) {
        const tparam *tp = &tm->params.items[i];
        if (!tp->is_pack) {
            if (!same_arg(tp->is_type, &a[i], &b[i]) || !same_auto_type(tp, &a[i], &b[i]))
                return false;
            continue;
        }
        if (a[i].npack != b[i].npack)
            return false;
        for (size_t j = 0; j < a[i].npack; j++)
            if (!same_arg(tp->is_type, &a[i].pack[j], &b[i].pack[j]) ||
                !same_auto_type(tp, &a[i].pack[j], &b[i].pack[j]))
                return false;
    }
    return true;
}

/* <args> at the current '<': those given, set[i] for each. */
static bool explicit_args_(lat__parser *p, lat__template *tm, targ *args, bool *set);

static bool explicit_args(lat__parser *p, lat__template *tm, targ *args, bool *set)
{
    lat__parse_enter(p, 0);
    bool r = explicit_args_(p, tm, args, set);
    lat__parse_leave(p);
    return r;
}

/* t as an instance, made at file scope, may spell it: without the names of typedefs local
 * to a function (`using P = pair<float, float>;` in a kernel, then f<P>(...)), which the
 * instance's C could not see. */
static lat__type *file_scope_type(lat__parser *p, lat__type *t)
{
    if (!t)
        return t;
    lat__type *base = t->kind == LAT_TY_PTR || t->kind == LAT_TY_ARRAY ? file_scope_type(p, t->base) : t->base;
    bool local = t->named && t->named->depth > 0 && !(t->named->flags & LAT_SF_FILE_SCOPE);
    if (!local && base == t->base)
        return t;
    lat__type *c = lat__type_copy(p->u, t);
    c->base = base;
    if (local)
        c->named = NULL;
    return c;
}

/* A name as a template's argument (a function, a class template), qualified or not, at
 * token *t: what it declares, or NULL (reported when it is not a name). */
static lat__sym *named_arg(lat__parser *p, const char *what, lat__tok **t)
{
    *t = lat__peek(p);
    if (lat__at_qualified(p))
        return lat__parse_qualified(p, false);
    if ((*t)->kind == LAT_TK_IDENT && !(*t)->atom->kw)
        return lat__lookup(p, lat__next(p)->atom);
    lat__syntax_error(p, what);
    return NULL;
}

/* One template argument for parameter tp (an element of it when it is a pack). */
static tinst *instantiate(lat__parser *p, lat__sym *tsym, targ *given, lat__loc at);

/* At the '<' of f<args> (tsym, named by t) given to a function pointer parameter of type
 * want: the instance of the template of that name (overloaded ones each tried, quietly)
 * whose explicit arguments read and whose type is want's; NULL after reporting. vLLM's
 * act_and_mul_kernel<float, silu_kernel<float>, true> passes one so. */
static lat__sym *function_instance(lat__parser *p, lat__sym *tsym, lat__tok *t, const lat__type *want)
{
    size_t at = p->pos, end = at;
    lat__unit *u = p->u;
    for (lat__sym *c = tsym; c; c = c->tmpl->older) {
        lat__template *tm = c->tmpl;
        p->pos = at;
        lat_status status = u->status;
        int nerrors = u->nerrors;
        size_t ndiags = u->diags.n;
        targ *args = lat__arena_alloc(&u->arena, (tm->params.n + 1) * sizeof *args);
        bool *set = lat__arena_alloc(&u->arena, tm->params.n + 1);
        bool ok = explicit_args(p, tm, args, set) && defaults(p, tm, args, set, t->loc) && u->nerrors == nerrors;
        end = p->pos;
        for (size_t i = 0; ok && i < tm->params.n; i++) {
            const tparam *tp = &tm->params.items[i];
            ok = tp->is_pack || (tp->is_type ? !type_depends(args[i].type) && !opaque_pattern(args[i].type)
                                             : args[i].vph == 0);
        }
        lat__sym *fn = NULL;
        if (ok) {
            lat__sym *head = tm->name->sym;
            tinst *ti = instantiate(p, c, args, t->loc);
            tm->name->sym = head;
            fn = ti && !ti->failed ? ti->fn : NULL;
        }
        if (fn && fn->type && lat__same_parameters(fn->type, want) && lat__type_same(fn->type->base, want->base)) {
            p->pos = end;
            return fn;
        }
        if (!fn || tm->older) { /* another overload may fit: this one's errors are not the program's */
            u->status = status;
            u->nerrors = nerrors;
            u->diags.n = ndiags;
        }
    }
    p->pos = end;
    lat__error_tok(p, t, "no instance of the function template '%s' with these arguments is the %s the template "
                         "parameter takes",
                   t->atom->name, lat__type_str(p->u, want, NULL, false));
    return NULL;
}

static bool placeholder_named(lat__visitor *v, lat__expr *e)
{
    if (e->kind == LAT_E_NAME && e->sym && e->sym->tparam)
        *(bool *)v->data = true;
    /* sizeof(T), alignof(T): X<sizeof(T)>::type is known only in the instance */
    if ((e->kind == LAT_E_SIZEOF || e->kind == LAT_E_ALIGNOF) && type_depends(e->to ? e->to : e->a ? e->a->type : NULL))
        *(bool *)v->data = true;
    return !*(bool *)v->data;
}

/* Whether e names a template parameter read as a placeholder, or a value known only for
 * real arguments (a signature or pattern read for deduction). */
static bool names_placeholder(lat__expr *e)
{
    bool found = false;
    lat__visitor v = {.expr = placeholder_named, .data = &found};
    lat__visit_expr(&v, e);
    return found;
}

/* One template argument for parameter tp; want: a function pointer parameter's function
 * type read with the arguments before it (NULL: tp's own). */
static bool one_arg(lat__parser *p, const tparam *tp, targ *a, const lat__type *want)
{
    lat__tok *t;
    if (tp->is_function) {
        if (!want)
            want = tp->value_type->base;
        lat__accept(p, LAT_P_AMP);
        lat__sym *s = named_arg(p, "a function's name", &t);
        if (s && s->kind == LAT_SYM_FUNC && s->tmpl && lat__at_punct(p, LAT_P_LT)) {
            /* silu_kernel<float>: a function template's instance */
            if (p->toks[p->pos - 1].kind == LAT_TK_IDENT)
                t = &p->toks[p->pos - 1];
            s = function_instance(p, s, t, want);
            a->tmpl = s;
            a->type = &lat__ty_int;
            return s != NULL;
        }
        if (s && s->kind == LAT_SYM_VAR && lat__is_pointer(s->type) && s->type->base->kind == LAT_TY_FUNC &&
            s->flags & LAT_SF_FILE_SCOPE && !s->def) {
            a->tmpl = s; /* a function pointer parameter's placeholder, passed on */
            a->type = &lat__ty_int;
            return true;
        }
        if (s && (s->kind != LAT_SYM_FUNC || s->tmpl)) {
            lat__error_tok(p, t, "a template's function pointer argument must name a function");
            s = NULL;
        } else if (s) {
            /* the overload of the parameter's type (f, &f, ns::f) */
            lat__sym *o = s;
            while (o && !(lat__same_parameters(o->type, want) && lat__type_same(o->type->base, want->base)))
                o = o->overloads;
            if (!o)
                lat__error_tok(p, t, "'%s' is %s, not the %s the template parameter takes", s->name->name,
                               lat__type_str(p->u, s->type, NULL, false), lat__type_str(p->u, want, NULL, false));
            s = o;
        }
        a->tmpl = s;
        a->type = &lat__ty_int;
        return s != NULL;
    }
    if (tp->is_template) {
        lat__sym *s = named_arg(p, "a class template's name", &t);
        if (s && (!s->tmpl || !s->tmpl->is_class)) {
            lat__error_tok(p, t, "'%.*s' is not a class template (the argument of a template template parameter)",
                           (int)t->len, t->text);
            s = NULL;
        }
        a->tmpl = s;
        a->type = &lat__ty_int;
        return s != NULL;
    }
    if (tp->is_type) {
        a->type = file_scope_type(p, lat__parse_type_name(p));
        return a->type != NULL;
    }
    lat__expr *e = lat__parse_template_value(p);
    if (!(e->flags & LAT_EF_CONST)) {
        if (!(e->flags & LAT_EF_ERROR))
            lat__error_at(p->u, e->loc, "a template's value argument must be a constant%s",
                          e->kind == LAT_E_CALL ? " (the emulator evaluates calls of constexpr functions of integers with "
                                                  "constant arguments: integer, float and double locals, loops, if, "
                                                  "switch and returns, no arrays, pointers or globals)"
                                                : "");
        return false;
    }
    a->value = e->ival;
    if (tp->is_auto)
        a->type = e->type; /* template <auto V>: V's type */
    if (e->kind == LAT_E_NAME && e->sym && e->sym->tparam)
        a->vph = e->sym->tparam; /* N in Vec<T, N>, read for deduction */
    else if (names_placeholder(e))
        a->vph = -1; /* (W > 0) && is_same<T, float>::value: known only in the instance */
    return true;
}

/* The function type of function pointer parameter i, written as depending on those
 * before it (T (*op)(const T &)), read with args; its placeholder type when it does not
 * read. */
static const lat__type *function_param_type(lat__parser *p, lat__template *tm, size_t i, const targ *args)
{
    size_t nopen;
    ns_binding *opened = open_scope(p, tm, &nopen);
    lat__parser sub = sub_parser(p, tm);
    sub.pos = tm->params.items[i].fn_type_at;
    lat__template part = *tm;
    part.params.n = i;
    bound_names b = bind_params(&sub, &part, args);
    lat__type *t = lat__parse_type_name(&sub);
    unbind_params(b);
    close_namespaces(opened, nopen);
    if (t && t->kind == LAT_TY_FUNC)
        return t;
    return t && t->kind == LAT_TY_PTR && t->base->kind == LAT_TY_FUNC ? t->base : tm->params.items[i].value_type->base;
}

static bool explicit_args_(lat__parser *p, lat__template *tm, targ *args, bool *set)
{
    lat__next(p); /* < */
    size_t i = 0;
    while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_GT) && !lat__at_punct(p, LAT_P_SHR)) {
        if (i >= tm->params.n) {
            lat__error_tok(p, lat__peek(p), "too many arguments for the template '%s'", tm->name->name);
            return false;
        }
        tparam *tp = &tm->params.items[i];
        if (tp->is_pack) {
            /* the rest of the arguments */
            LAT_VEC(targ) elems = {0};
            do {
                targ a = {0};
                if (!one_arg(p, tp, &a, NULL))
                    return false;
                LAT_PUSH(&p->u->arena, elems, a);
            } while (lat__accept(p, LAT_P_COMMA));
            args[i].pack = elems.items;
            args[i].npack = elems.n;
            set[i++] = true;
            break;
        }
        if (!one_arg(p, tp, &args[i], tp->fn_type_at ? function_param_type(p, tm, i, args) : NULL))
            return false;
        set[i++] = true;
        if (!lat__accept(p, LAT_P_COMMA))
            break;
    }
    return lat__close_angle(p);
}

/* Whether t is Name<args> read with placeholders among the args (a signature read for
 * deduction, a partial specialization's pattern): a dependent marker whose record holds
 * the template and the arguments, unmade. */
static bool instance_pattern(const lat__type *t)
{
    return t->kind == LAT_TY_VOID && t->count == DEPENDENT && t->rec && t->rec->tmpl;
}

/* Whether a type depends on a placeholder. */
static bool type_depends(const lat__type *t)
{
    if (!t)
        return false;
    if (lat__is_template_placeholder(t))
        return true;
    if (t->kind == LAT_TY_PTR || t->kind == LAT_TY_ARRAY)
        return type_depends(t->base);
    return false;
}

static bool unify(lat__parser *p, const lat__type *pat, lat__type *arg, targ *args, bool *set);

static bool unify_value(const targ *pat, const targ *arg, targ *args, bool *set)
{
    if (pat->vph < 0)
        return true; /* a value computed from a parameter: deduces nothing */
    if (!pat->vph)
        return !arg->vph && pat->value == arg->value;
    int k = pat->vph - 1;
    if (set[k])
        return args[k].value == arg->value;
    args[k].value = arg->value;
    set[k] = true;
    return true;
}

/* The arguments of an instance (inst) against a pattern's (pat), of template tm. */
static bool unify_args(lat__parser *p, const lat__template *tm, const targ *pat, const targ *inst, targ *args,
                       bool *set)
{
    for (size_t i = 0; i < tm->params.n; i++) {
        const tparam *tp = &tm->params.items[i];
        size_t n = tp->is_pack ? pat[i].npack : 1;
        if (tp->is_pack && pat[i].npack != inst[i].npack)
            return false;
        for (size_t j = 0; j < n; j++) {
            const targ *a = tp->is_pack ? &pat[i].pack[j] : &pat[i], *b = tp->is_pack ? &inst[i].pack[j] : &inst[i];
            if (tp->is_template || tp->is_function ? a->tmpl != b->tmpl
                                : tp->is_type ? !unify(p, a->type, b->type, args, set) : !unify_value(a, b, args, set))
                return false;
        }
    }
    return true;
}

/* Whether a partial specialization's argument is a type known only for real arguments
 * (enable_if_t<is_integral<T>::value>, typename X<T>::type), as the argument itself. */
static bool opaque_arg(const lat__type *t)
{
    return t && t->kind == LAT_TY_VOID && t->count == DEPENDENT && !instance_pattern(t);
}

/* unify_args for a partial specialization's pattern: an argument that is opaque as a whole
 * (opaque_arg) matches anything here, deducing nothing (C++'s non-deduced context); the
 * specialization's arguments substituted with what was deduced then decide
 * (spec_substitutes). */
static bool unify_spec_args(lat__parser *p, const lat__template *tm, const targ *pat, const targ *inst, targ *args,
                            bool *set)
{
    targ *own = NULL;
    for (size_t i = 0; i < tm->params.n; i++) {
        const tparam *tp = &tm->params.items[i];
        if (tp->is_pack || !tp->is_type || tp->is_template || !opaque_arg(pat[i].type))
            continue;
        if (!own) {
            own = lat__arena_alloc(&p->u->arena, (tm->params.n + 1) * sizeof *own);
            memcpy(own, pat, tm->params.n * sizeof *own);
        }
        own[i] = inst[i];
    }
    return unify_args(p, tm, own ? own : pat, inst, args, set);
}

/* A pattern's type against a type exactly (a partial specialization's arguments, a class
 * template's arguments in a parameter), binding placeholders: const T takes const int as
 * T = int, T takes it whole. */
/* Whether a placeholder bound to a and again to b is bound consistently: placeholders
 * (another pattern's, while partial specializations are ordered) by their index, as void
 * types are all the same type. */
static bool same_bound(const lat__type *a, const lat__type *b)
{
    int i, j;
    bool pa = placeholder_index(a, &i), pb = placeholder_index(b, &j);
    if (pa || pb)
        return pa && pb && i == j;
    return lat__type_same(a, b);
}

static bool unify(lat__parser *p, const lat__type *pat, lat__type *arg, targ *args, bool *set)
{
    int k;
    if (placeholder_index(pat, &k)) {
        if ((arg->quals & pat->quals) != pat->quals)
            return false;
        lat__type *t = file_scope_type(p, lat__qualified(p->u, lat__unqualified(p->u, arg), arg->quals & ~pat->quals));
        if (set[k])
            return same_bound(args[k].type, t) && args[k].type->quals == t->quals;
        args[k].type = t;
        set[k] = true;
        return true;
    }
    if (pat->quals != arg->quals)
        return false;
    if (instance_pattern(pat))
        return (lat__is_record(arg) || instance_pattern(arg)) && arg->rec && arg->rec->tmpl == pat->rec->tmpl &&
               unify_args(p, pat->rec->tmpl, pat->rec->targs, arg->rec->targs, args, set);
    if (lat__is_template_placeholder(pat))
        return false; /* T::type: deduces nothing, matches nothing surely */
    if (pat->kind != arg->kind)
        return false;
    if (pat->kind == LAT_TY_PTR) {
        /* R (C::*)(A...) const: the class too, and the member's constness (the FUNC's) */
        if ((pat->member_of != NULL) != (arg->member_of != NULL) ||
            (pat->member_of && !unify(p, pat->member_of, arg->member_of, args, set)))
            return false;
        return pat->ref == arg->ref && unify(p, pat->base, arg->base, args, set);
    }
    if (pat->kind == LAT_TY_ARRAY && pat->count_vph > 0 && arg->count >= 0) {
        targ pv = {.vph = pat->count_vph}, av = {.value = arg->count};
        return unify_value(&pv, &av, args, set) && unify(p, pat->base, arg->base, args, set);
    }
    if (pat->kind == LAT_TY_ARRAY)
        return pat->count == arg->count && unify(p, pat->base, arg->base, args, set);
    if (pat->kind == LAT_TY_FUNC) { /* R (*)(A...): the result and each parameter */
        if (pat->params.n != arg->params.n || pat->params.variadic != arg->params.variadic ||
            !unify(p, pat->base, arg->base, args, set))
            return false;
        for (int i = 0; i < pat->params.n; i++)
            if (!unify(p, pat->params.types[i], arg->params.types[i], args, set))
                return false;
        return true;
    }
    return lat__type_same(pat, arg);
}

/* Matches a parameter's type against an argument's, binding placeholders. */
static bool match(lat__parser *p, const lat__type *param, lat__type *arg, targ *args, bool *set)
{
    int k;
    if (instance_pattern(param)) {
        /* Vec<T, N> v: from an instance of Vec, or (ordering partial specializations)
         * another pattern of Vec; anything else deduces nothing (the call's check reports),
         * but another template's pattern does not match */
        if (instance_pattern(arg))
            return arg->rec->tmpl == param->rec->tmpl &&
                   unify_args(p, param->rec->tmpl, param->rec->targs, arg->rec->targs, args, set);
        if (!lat__is_record(arg) || !arg->rec || arg->rec->tmpl != param->rec->tmpl)
            return true;
        return unify_args(p, param->rec->tmpl, param->rec->targs, arg->rec->targs, args, set);
    }
    if (placeholder_index(param, &k)) {
        lat__type *t = file_scope_type(p, lat__qualified(p->u, lat__unqualified(p->u, arg), arg->quals & ~param->quals));
        if (set[k])
            return lat__type_same(lat__unqualified(p->u, args[k].type), lat__unqualified(p->u, t));
        args[k].type = t;
        set[k] = true;
        return true;
    }
    if (param->kind == LAT_TY_PTR) {
        if (arg->kind != LAT_TY_PTR)
            return true; /* no deduction from it; the call's check reports */
        return match(p, param->base, arg->base, args, set);
    }
    if (param->kind == LAT_TY_ARRAY && arg->kind == LAT_TY_ARRAY) {
        /* T (&v)[N] bound to an array: N its size, T its element */
        if (param->count_vph > 0 && arg->count >= 0) {
            targ pv = {.vph = param->count_vph}, av = {.value = arg->count};
            if (!unify_value(&pv, &av, args, set))
                return false;
        }
        return match(p, param->base, arg->base, args, set);
    }
    return true;
}

/* Defaults for what is neither given nor deduced, read with the parameters before. */
/* The type of value parameter i written as depending on those before it (typename
 * enable_if<C, int>::type = 0), read with args: false (reported) when it does not exist
 * for them, which makes the template unusable for them (C++'s SFINAE). */
static bool dependent_type_exists(lat__parser *p, lat__template *tm, size_t i, const targ *args)
{
    size_t nopen;
    ns_binding *opened = open_scope(p, tm, &nopen);
    lat__parser sub = sub_parser(p, tm);
    sub.pos = tm->params.items[i].type_at;
    lat__template part = *tm;
    part.params.n = i;
    bound_names b = bind_params(&sub, &part, args);
    int errors = p->u->nerrors;
    lat__type *t = lat__parse_type_name(&sub);
    unbind_params(b);
    close_namespaces(opened, nopen);
    return t && p->u->nerrors == errors;
}

static bool defaults(lat__parser *p, lat__template *tm, targ *args, bool *set, lat__loc at)
{
    for (size_t i = 0; i < tm->params.n; i++) {
        tparam *tp = &tm->params.items[i];
        if (tp->type_at && set[i] && !dependent_type_exists(p, tm, i, args))
            return false;
        if (set[i])
            continue;
        if (tp->type_at && !dependent_type_exists(p, tm, i, args))
            return false;
        if (tp->is_pack) {
            /* neither given nor deduced: empty */
            args[i].pack = NULL;
            args[i].npack = 0;
            set[i] = true;
            continue;
        }
        if (!tp->dflt_at) {
            lat__error_at(p->u, at, "cannot deduce the template parameter '%s' of '%s': give it as %s<...>",
                          tp->name ? tp->name->name : "?", tm->name->name, tm->name->name);
            return false;
        }
        size_t nopen;
        ns_binding *opened = open_scope(p, tm, &nopen);
        lat__parser sub = sub_parser(p, tm);
        sub.pos = tp->dflt_at;
        /* only the parameters before it are known */
        lat__template part = *tm;
        part.params.n = i;
        bound_names b = bind_params(&sub, &part, args);
        if (tp->is_template || tp->is_function) {
            if (!one_arg(&sub, tp, &args[i], tp->fn_type_at ? function_param_type(p, tm, i, args) : NULL))
                args[i].type = NULL;
        } else if (tp->is_type) {
            args[i].type = lat__parse_type_name(&sub);
        } else {
            lat__expr *e = lat__parse_template_value(&sub);
            args[i].value = e->ival;
            args[i].type = tp->is_auto ? e->type : args[i].type;
            if (!(e->flags & LAT_EF_CONST))
                args[i].type = NULL;
        }
        unbind_params(b);
        close_namespaces(opened, nopen);
        if ((tp->is_type || tp->is_function) && !args[i].type)
            return false;
        set[i] = true;
    }
    return true;
}

static const char *args_text(lat__parser *p, lat__template *tm, const targ *args)
{
    char *s = lat__arena_printf(&p->u->arena, "%s<", tm->name->name);
    bool first = true;
    for (size_t i = 0; i < tm->params.n; i++) {
        const tparam *tp = &tm->params.items[i];
        size_t n = tp->is_pack ? args[i].npack : 1;
        for (size_t j = 0; j < n; j++) {
            const targ *a = tp->is_pack ? &args[i].pack[j] : &args[i];
            s = a->tmpl ? lat__arena_printf(&p->u->arena, "%s%s%s", s, first ? "" : ", ", a->tmpl->name->name)
                : tp->is_type ? lat__arena_printf(&p->u->arena, "%s%s%s", s, first ? "" : ", ",
                                                lat__type_str(p->u, a->type, NULL, false))
                            : lat__arena_printf(&p->u->arena, "%s%s%lld", s, first ? "" : ", ", (long long)a->value);
            first = false;
        }
    }
    return lat__arena_printf(&p->u->arena, "%s>", s);
}

/* ---- instances --------------------------------------------------------------------------- */

static tinst *find_inst(lat__template *tm, const targ *args)
{
    for (size_t i = 0; i < tm->insts.n; i++)
        if (same_args(tm, tm->insts.items[i].args, args))
            return &tm->insts.items[i];
    return NULL;
}

/* Whether partial specialization a is at least as specialized as b: b's pattern matches
 * a's (a's parameters standing for any type or value). */
enum { MAX_PACK = 64 }; /* elements of a partial specialization's pack tried */

static bool as_specialized(lat__parser *p, const lat__template *prim, const partial *a, const partial *b)
{
    size_t room = b->own->params.n + MAX_PACK + 1; /* a pack's elements' placeholders past the parameters */
    targ *d = lat__arena_alloc(&p->u->arena, room * sizeof *d);
    bool *dset = lat__arena_alloc(&p->u->arena, room);
    return unify_spec_args(p, prim, b->pattern, a->pattern, d, dset);
}

/* The <args> of a partial specialization c, pack k (in the order of its parameters) of
 * ns[k] elements, read with its parameters bound to own (NULL: to placeholders); NULL
 * when they do not read. */
static targ *spec_args(lat__parser *p, lat__template *prim, const partial *c, const size_t *ns, const targ *own_args);

/* The pattern of a partial specialization c with parameter packs, pack k (in the order of
 * its parameters) of ns[k] elements: its <args> written out with the packs' elements as
 * placeholders; NULL when it does not read. */
static targ *pattern_for(lat__parser *p, lat__template *prim, const partial *c, const size_t *ns)
{
    /* quietly: one that does not read for these lengths, or with this class template for
     * its template template parameter (Arr<T...> of template <class, int> Arr), is no
     * match */
    lat__unit *u = p->u;
    lat_status status = u->status;
    int nerrors = u->nerrors;
    size_t ndiags = u->diags.n;
    targ *pat = spec_args(p, prim, c, ns, NULL);
    if (u->nerrors != nerrors) {
        u->status = status;
        u->nerrors = nerrors;
        u->diags.n = ndiags;
        return NULL;
    }
    return pat;
}

/* Whether c's <args> read with its deduced arguments own_args, quietly: a name in them
 * that does not exist for those arguments (void_t<typename T::value_type>,
 * enable_if_t<is_integral<T>::value>, which deduction passes over) makes c no match
 * (C++'s SFINAE for partial specializations; the detection idiom). */
static bool spec_substitutes(lat__parser *p, lat__template *prim, const partial *c, const targ *own_args,
                             const targ *args)
{
    size_t ns[2] = {0, 0}, k = 0;
    for (size_t i = 0; i < c->own->params.n && k < 2; i++)
        if (c->own->params.items[i].is_pack)
            ns[k++] = own_args[i].npack;
    lat__unit *u = p->u;
    lat_status status = u->status;
    int nerrors = u->nerrors, failed = u->failed_instances;
    size_t ndiags = u->diags.n;
    targ *got = spec_args(p, prim, c, ns, own_args);
    bool ok = got && u->nerrors == nerrors;
    for (size_t i = 0; ok && i < prim->params.n; i++) {
        /* an argument deduction passed over (opaque_arg) must come out as the instance's */
        const tparam *tp = &prim->params.items[i];
        if (!tp->is_pack && tp->is_type && !tp->is_template && c->pattern && opaque_arg(c->pattern[i].type))
            ok = same_arg(true, &got[i], &args[i]);
    }
    if (u->failed_instances != failed)
        return false; /* an error inside a class's instance is no substitution failure: it stays */
    u->status = status;
    u->nerrors = nerrors;
    u->diags.n = ndiags;
    return ok;
}

static targ *spec_args(lat__parser *p, lat__template *prim, const partial *c, const size_t *ns, const targ *own_args)
{
    lat__template *own = c->own;
    lat__parser scan = *p;
    scan.toks = own->toks;
    scan.ntoks = own->ntoks;
    scan.pos = c->open;
    scan.half_gt = false;
    lat__skip_angles(&scan);
    lat__pack_bind pb[2];
    size_t npb = 0, k = 0;
    size_t *lens = lat__arena_alloc(&p->u->arena, (own->params.n + 1) * sizeof *lens);
    for (size_t r = 0; r < own->params.n; r++) {
        if (!own->params.items[r].is_pack)
            continue;
        lens[r] = ns[k];
        if (own->params.items[r].name && npb < 2)
            pb[npb++] = (lat__pack_bind){own->params.items[r].name, ns[k]};
        k++;
    }
    size_t ntoks;
    int errors = p->u->nerrors;
    /* L in L<T...> is the class template it stands for while the packs are written out
     * (its '<' opens arguments, not a comparison) */
    lat__atom *tt_name = c->tt ? own->params.items[c->tt_index].name : NULL;
    lat__sym *tt_was = tt_name ? tt_name->sym : NULL;
    if (tt_name)
        tt_name->sym = own_args ? own_args[c->tt_index].tmpl : c->tt;
    lat__tok *t = lat__expand_packs(p, own->toks, c->open, scan.pos, pb, npb, &ntoks);
    if (tt_name)
        tt_name->sym = tt_was;
    if (!t)
        return NULL;
    const targ *ph = own_args;
    if (!ph) {
        targ *placeholders = placeholder_args(p, own, lens);
        if (c->tt) /* L<T...> read as the class template it stands for here */
            placeholders[c->tt_index].tmpl = c->tt;
        ph = placeholders;
    }
    size_t nopen;
    ns_binding *opened = open_scope(p, own, &nopen);
    lat__parser sub = sub_parser(p, own);
    sub.toks = t;
    sub.ntoks = ntoks;
    sub.pos = 0;
    sub.pragma_at = NULL;
    bound_names b = bind_params(&sub, own, ph);
    targ *pat = lat__arena_alloc(&p->u->arena, (prim->params.n + 1) * sizeof *pat);
    bool *set = lat__arena_alloc(&p->u->arena, prim->params.n + 1);
    bool ok = explicit_args(&sub, prim, pat, set) && defaults(&sub, prim, pat, set, own->loc);
    unbind_params(b);
    close_namespaces(opened, nopen);
    return ok && p->u->nerrors == errors ? pat : NULL;
}

static size_t type_size(const lat__type *t, int depth);

typedef LAT_VEC(lat__sym *) sym_vec;

/* The class templates whose instances the arguments args of tm name, nested ones too
 * (list<int> in S<list<int>>, and in S<vector<list<int>>>), each once, into *cands. */
static void named_templates(lat__parser *p, const lat__template *tm, const targ *args, sym_vec *cands, int depth)
{
    for (size_t i = 0; i < tm->params.n && depth < 8; i++) {
        const tparam *tp = &tm->params.items[i];
        if (!tp->is_type || tp->is_template)
            continue;
        size_t n = tp->is_pack ? args[i].npack : 1;
        for (size_t j = 0; j < n; j++) {
            const lat__type *t = tp->is_pack ? args[i].pack[j].type : args[i].type;
            while (t && (t->kind == LAT_TY_PTR || t->kind == LAT_TY_ARRAY))
                t = t->base;
            if (!t || !t->rec || !t->rec->tmpl || !t->rec->targs)
                continue;
            lat__sym *s = t->rec->tmpl->sym;
            bool have = !s;
            for (size_t k = 0; k < cands->n && !have; k++)
                have = cands->items[k] == s;
            if (!have)
                LAT_PUSH(&p->u->arena, *cands, s);
            named_templates(p, t->rec->tmpl, t->rec->targs, cands, depth + 1);
        }
    }
}

/* How many arguments args holds, those of class templates' instances among them too (the
 * longest a pattern's pack can match). */
static size_t args_size(const lat__template *tm, const targ *args, int depth)
{
    size_t total = 0;
    for (size_t i = 0; i < tm->params.n && depth < 16; i++) {
        const tparam *tp = &tm->params.items[i];
        size_t n = tp->is_pack ? args[i].npack : 1;
        for (size_t j = 0; j < n; j++) {
            const targ *a = tp->is_pack ? &args[i].pack[j] : &args[i];
            total += 1 + (tp->is_type && !tp->is_template ? type_size(a->type, depth) : 0);
        }
    }
    return total;
}

/* The types a type is made of: a function's parameters, a class template's arguments. */
static size_t type_size(const lat__type *t, int depth)
{
    while (t && (t->kind == LAT_TY_PTR || t->kind == LAT_TY_ARRAY))
        t = t->base;
    if (!t || depth >= 16)
        return 0;
    if (t->kind == LAT_TY_FUNC) {
        size_t total = 1 + type_size(t->base, depth + 1);
        for (int i = 0; i < t->params.n; i++)
            total += 1 + type_size(t->params.types[i], depth + 1);
        return total;
    }
    return t->rec && t->rec->tmpl && t->rec->targs ? args_size(t->rec->tmpl, t->rec->targs, depth + 1) : 0;
}

/* Whether c's pattern, its packs of lengths ns (NULL: it has none), matches args; its
 * parameters' values then in *own_args. */
static bool pattern_matches(lat__parser *p, lat__template *tm, partial *c, const targ *args, const size_t *ns,
                            targ **own_args)
{
    size_t total = 0, k = 0;
    for (size_t i = 0; ns && i < c->own->params.n; i++)
        if (c->own->params.items[i].is_pack)
            total += ns[k++];
    size_t room = c->own->params.n + total + 1;
    targ *d = lat__arena_alloc(&p->u->arena, room * sizeof *d);
    bool *dset = lat__arena_alloc(&p->u->arena, room);
    if (!unify_spec_args(p, tm, c->pattern, args, d, dset))
        return false;
    if (c->tt) {
        d[c->tt_index].tmpl = c->tt;
        d[c->tt_index].type = &lat__ty_int;
        dset[c->tt_index] = true;
    }
    bool all = true;
    size_t next = c->own->params.n;
    k = 0;
    for (size_t i = 0; i < c->own->params.n; i++) {
        if (!c->own->params.items[i].is_pack) {
            all &= dset[i];
            continue;
        }
        size_t n = ns[k++];
        for (size_t j = 0; j < n; j++)
            all &= dset[next + j];
        d[i].pack = lat__arena_alloc(&p->u->arena, (n + 1) * sizeof *d[i].pack);
        memcpy(d[i].pack, d + next, n * sizeof *d);
        d[i].npack = n;
        next += n;
    }
    if (all)
        *own_args = d;
    return all;
}

/* Whether partial specialization c (its pattern in c) matches args, its parameters' values
 * then in *own_args; one with packs (one or two) is tried with each length of its packs,
 * its pattern for the lengths that match left in *c. */
static bool partial_matches(lat__parser *p, lat__template *tm, partial *c, const targ *args, targ **own_args)
{
    if (c->pattern)
        return pattern_matches(p, tm, c, args, NULL, own_args);
    size_t npacks = 0;
    bool tt = false;
    for (size_t i = 0; i < c->own->params.n; i++) {
        npacks += c->own->params.items[i].is_pack;
        if (c->own->params.items[i].is_template) {
            tt = true;
            c->tt_index = i;
        }
    }
    /* a template template parameter: each class template the arguments name, in turn */
    sym_vec cands = {0};
    if (tt)
        named_templates(p, tm, args, &cands, 0);
    for (size_t t = 0; t < (tt ? cands.n : 1); t++) {
        c->tt = tt ? cands.items[t] : NULL;
        size_t most = npacks ? args_size(tm, args, 0) : 0; /* no pack longer than the arguments' elements */
        if (most > MAX_PACK)
            most = MAX_PACK;
        for (size_t sum = 0; sum <= most; sum++)
            for (size_t first = npacks > 1 ? 0 : sum; first <= sum; first++) {
                size_t ns[2] = {first, sum - first};
                c->pattern = pattern_for(p, tm, c, ns);
                if (c->pattern && pattern_matches(p, tm, c, args, ns, own_args))
                    return true;
            }
    }
    c->pattern = NULL;
    c->tt = NULL;
    return false;
}

/* The partial specialization of tm that args take, as C++ picks it: among those whose
 * pattern matches, the one more specialized than every other (*pick NULL: none matches,
 * the primary is made); its parameters' values in *own_args. false (reported): two match
 * and neither is more specialized. */
static bool pick_partial(lat__parser *p, lat__template *tm, const targ *args, lat__loc at, const partial **pick,
                         targ **own_args)
{
    LAT_VEC(partial *) fit = {0}; /* with the pattern each matched with */
    LAT_VEC(bool) packed = {0};
    LAT_VEC(targ *) deduced = {0};
    for (size_t i = 0; i < tm->partials.n; i++) {
        partial *c = lat__arena_alloc(&p->u->arena, sizeof *c);
        *c = tm->partials.items[i];
        targ *d;
        if (partial_matches(p, tm, c, args, &d) && spec_substitutes(p, tm, c, d, args)) {
            LAT_PUSH(&p->u->arena, fit, c);
            LAT_PUSH(&p->u->arena, packed, tm->partials.items[i].pattern == NULL);
            LAT_PUSH(&p->u->arena, deduced, d);
        }
    }
    *pick = NULL;
    for (size_t i = 0; i < fit.n; i++) {
        const partial *c = fit.items[i];
        bool best = true;
        for (size_t j = 0; j < fit.n && best; j++) {
            const partial *o = fit.items[j];
            /* C++'s partial ordering; of two that order neither way, one without a pack is
             * the more specialized (S<T, U> over S<T, R...>) */
            if (j != i && !(as_specialized(p, tm, c, o) &&
                            (!as_specialized(p, tm, o, c) || (!packed.items[i] && packed.items[j]))))
                best = false;
        }
        if (best) {
            *pick = c;
            *own_args = deduced.items[i];
            return true;
        }
    }
    if (fit.n > 1) {
        const partial *a = fit.items[0], *b = fit.items[1];
        lat__error_at(p->u, at, "%s matches partial specializations of '%s' at lines %u and %u, neither more "
                                "specialized than the other",
                      args_text(p, tm, args), tm->name->name, a->own->loc.line, b->own->loc.line);
        return false;
    }
    return true;
}

/* A class template's instance whose member functions wait for a class its arguments name
 * to be complete (struct Sq : Shape<Sq>: Shape<Sq>'s bodies use Sq's members). */
typedef struct waiting_inst {
    lat__record *for_rec; /* the class being defined */
    lat__record *inst;    /* the instance */
    lat__parser sub;      /* the instance's parser, its bodies kept */
    lat__template *tm, *bound;
    const targ *args;
} waiting_inst;

/* A class the arguments name that is being defined, not complete yet, or NULL. */
static lat__record *incomplete_arg(const lat__template *tm, const targ *args)
{
    for (size_t i = 0; i < tm->params.n; i++) {
        const tparam *tp = &tm->params.items[i];
        size_t n = tp->is_pack ? args[i].npack : 1;
        for (size_t j = 0; j < n && tp->is_type && !tp->is_template; j++) {
            const lat__type *t = tp->is_pack ? args[i].pack[j].type : args[i].type;
            if (t && lat__is_record(t) && t->rec && !t->rec->complete && t->rec->defining)
                return t->rec;
        }
    }
    return NULL;
}

void lat__instances_complete(lat__parser *p, lat__record *r)
{
    for (size_t i = 0; i < p->waiting.n; i++) {
        waiting_inst *w = p->waiting.items[i];
        if (!w || w->for_rec != r)
            continue;
        p->waiting.items[i] = NULL;
        size_t from = suspend_locals(p);
        size_t nopen;
        ns_binding *opened = open_scope(p, w->tm, &nopen);
        bound_names b = bind_params(&w->sub, w->bound, w->args);
        memset(&w->sub.pending, 0, sizeof w->sub.pending);
        w->sub.defer_for = NULL;
        lat__class_bodies(&w->sub, w->inst);
        unbind_params(b);
        close_namespaces(opened, nopen);
        resume_locals(p, from);
        p->anon = w->sub.anon > p->anon ? w->sub.anon : p->anon;
        for (size_t j = 0; j < w->sub.pending.n; j++) /* after the class they waited for */
            LAT_PUSH(&p->u->arena, p->pending, w->sub.pending.items[j]);
    }
}

static tinst *instantiate(lat__parser *p, lat__sym *tsym, targ *given, lat__loc at)
{
    lat__template *tm = tsym->tmpl;
    tinst *have = find_inst(tm, given);
    if (have) {
        if (have->failed)
            lat__error_at(p->u, at, "%s could not be made (its errors are listed where it was first made)",
                          args_text(p, tm, given));
        return have;
    }
    if (tm->insts.n >= 256) {
        lat__error_at(p->u, at, "more than 256 instances of the template '%s' (runaway recursion?)",
                      tm->name->name);
        return NULL;
    }
    targ *args = lat__arena_alloc(&p->u->arena, (tm->params.n + 1) * sizeof *args);
    memcpy(args, given, tm->params.n * sizeof *args);
    tinst inst = {.args = args};
    LAT_PUSH(&p->u->arena, tm->insts, inst);
    size_t index = tm->insts.n - 1;
    int older = 0; /* overloaded templates: each its own instances' names */
    for (lat__sym *o = tm->older; o; o = o->tmpl->older)
        older++;
    /* a member class template's instances: named after their class (one template per
     * instance of a class template around it) */
    const char *prefix = tm->member_of ? lat__arena_printf(&p->u->arena, "%s__", lat__record_c_name(tm->member_of))
                         : tm->ns      ? tm->ns->prefix
                                       : "";
    const char *cname = older ? lat__arena_printf(&p->u->arena, "%s%s__lat_o%d_t%zu", prefix,
                                                  lat__c_name(p, tm->name), older, index + 1)
                              : lat__arena_printf(&p->u->arena, "%s%s__lat_t%zu", prefix,
                                                  lat__c_name(p, tm->name), index + 1);
    size_t from = suspend_locals(p);
    size_t nopen;
    ns_binding *opened = open_scope(p, tm, &nopen);
    lat__parser sub = sub_parser(p, tm);
    sub.instantiating = true;
    sub.in_record = false; /* a member class template's instance is a struct at file scope */
    lat__sym *outer_tag = tm->name->tag;
    /* the template's own name means the instance inside a class template */
    if (tm->is_class) {
        sub.inst_of = tm;
        sub.inst_tag = cname;
        sub.inst_index = index;
    } else if (tm->is_var) {
        tm->var = tsym->shadow; /* the instance declares the name afresh */
        tm->name->sym = tm->var;
    } else {
        /* the instance is a function of its own: the name as before any template of it */
        lat__sym *base = tsym;
        while (base->shadow && base->shadow->tmpl && base->shadow->kind == LAT_SYM_FUNC && base->shadow->depth == 0)
            base = base->shadow;
        tm->name->sym = base->shadow;
        sub.inst_fn = tsym;
        sub.inst_index = index;
    }
    /* an explicit specialization of these arguments is parsed instead, as it is */
    lat__template bare = *tm;
    bare.params.n = 0;
    lat__template *bound = tm;
    for (size_t i = 0; i < tm->specs.n; i++)
        if (same_args(tm, tm->specs.items[i].args, args)) {
            sub.pos = tm->spec_at.items[i];
            sub.specialization = !tm->is_class;
            bound = &bare;
        }
    const targ *bound_args = args;
    if (bound == tm && tm->partials.n) {
        const partial *pick = NULL;
        targ *picked = NULL;
        if (!pick_partial(p, tm, args, at, &pick, &picked)) {
            tm->name->sym = tsym;
            close_namespaces(opened, nopen);
            resume_locals(p, from);
            return NULL;
        }
        if (pick) {
            bound = pick->own;
            bound_args = picked;
            sub.toks = pick->own->toks;
            sub.ntoks = pick->own->ntoks;
            sub.pos = pick->own->decl_at;
            if (!expand_for(&sub, pick->own, picked, false)) { /* its pack's R... written out */
                tm->name->sym = tsym;
                close_namespaces(opened, nopen);
                resume_locals(p, from);
                return NULL;
            }
        }
    }
    bound_names b = bind_params(&sub, bound, bound_args);
    if (bound == tm && !expand_for(&sub, tm, args, false)) {
        unbind_params(b);
        tm->name->sym = tsym;
        close_namespaces(opened, nopen);
        resume_locals(p, from);
        return NULL;
    }
    size_t items = p->tu->items.n;
    int errors_before = p->u->nerrors;
    lat__func *fn = NULL;
    lat__decl_group *g = NULL;
    lat__type *aliased = NULL;
    sub.defer_for = tm->is_class && !tm->is_alias ? incomplete_arg(bound, bound_args) : NULL;
    sub.deferred = false;
    if (tm->is_alias) {
        sub.pos += 3; /* using name = */
        aliased = lat__parse_type_name(&sub);
        lat__expect(&sub, LAT_P_SEMI, "after the alias template");
    } else {
        g = lat__parse_declaration(&sub, &fn);
    }
    unbind_params(b);
    lat__sym *made_var = tm->is_var && tm->name->sym != tm->var ? tm->name->sym : NULL;
    tm->name->sym = tsym;
    lat__sym *made_tag = tm->name->tag;
    tm->name->tag = outer_tag;
    close_namespaces(opened, nopen);
    resume_locals(p, from);
    p->anon = sub.anon;
    /* in the unit before what is being parsed: C declares before use */
    (void)items;
    if (g) {
        lat__ext x = {LAT_X_DECL, g, NULL};
        LAT_PUSH(&p->u->arena, p->tu->items, x);
    }
    if (fn) {
        lat__ext x = {LAT_X_FUNC, NULL, fn};
        LAT_PUSH(&p->u->arena, p->tu->items, x);
    }
    for (size_t i = 0; i < sub.pending.n; i++)
        LAT_PUSH(&p->u->arena, p->tu->items, sub.pending.items[i]);
    tinst *ti = &tm->insts.items[index];
    if (p->u->nerrors > errors_before && !tm->is_alias) {
        /* (an alias's failure is its use's: enable_if_t<false> is SFINAE's, and its NULL
         * type makes every later use an error) */
        ti->failed = true;
        p->u->failed_instances++;
    }
    if (tm->is_alias) {
        /* one that did not read (enable_if_t<false>: the type it read instead is no type)
         * is no type for later uses either: each is an error then, quiet where SFINAE's */
        ti->type = p->u->nerrors > errors_before ? NULL : aliased;
    } else if (tm->is_class) {
        ti->type = made_tag && made_tag->rec ? made_tag->type : NULL;
        if (!ti->type)
            lat__error_at(p->u, at, "%s could not be made", args_text(p, tm, args));
        else if (ti->type->rec) {
            ti->type->rec->tmpl = tm;
            ti->type->rec->targs = args;
            ti->type->rec->ns = tm->ns;
        }
        if (ti->type && ti->type->rec && sub.deferred) {
            waiting_inst *w = lat__arena_alloc(&p->u->arena, sizeof *w);
            *w = (waiting_inst){sub.defer_for, ti->type->rec, sub, tm, bound, bound_args};
            LAT_PUSH(&p->u->arena, p->waiting, w);
        }
        if (ti->type && bound == tm) {
            ti->primary = true;
            for (size_t i = 0; i < tm->outdefs.n; i++) /* its members defined outside the class */
                member_definition(p, tm, tm->outdefs.items[i], args, tm->insts.items[index].type);
            ti = &tm->insts.items[index];
        }
    } else if (tm->is_var) {
        if (made_var && made_var->kind == LAT_SYM_VAR) {
            ti->fn = made_var;
            made_var->emit_name = cname;
            made_var->shadow = NULL;
        } else {
            lat__error_at(p->u, at, "%s could not be made", args_text(p, tm, args));
        }
    } else if (ti->fn) { /* set by lat__template_declared */
        ti->fn->emit_name = cname;
        ti->fn->shadow = NULL;
    } else {
        lat__error_at(p->u, at, "%s could not be made", args_text(p, tm, args));
    }
    return ti;
}

void lat__template_class_begun(lat__parser *p, lat__type *t)
{
    p->inst_of->insts.items[p->inst_index].type = t;
}

void lat__template_declared(lat__parser *p, lat__sym *f)
{
    lat__sym *tsym = p->inst_fn;
    lat__template *tm = tsym->tmpl;
    if (f->name != tm->name || f->kind != LAT_SYM_FUNC || f == tsym || tm->insts.items[p->inst_index].fn)
        return;
    tm->insts.items[p->inst_index].fn = f;
    f->name->sym = tsym;
}

/* Whether template tm's first `given` parameters are of the kinds (type or value, pack or
 * not) of head's, so that the explicit arguments read for one serve the other. */
static bool same_kinds(const lat__template *tm, const lat__template *head, size_t given)
{
    if (tm->params.n < given)
        return false;
    for (size_t i = 0; i < given; i++)
        if (tm->params.items[i].is_type != head->params.items[i].is_type ||
            tm->params.items[i].is_pack != head->params.items[i].is_pack ||
            tm->params.items[i].is_template != head->params.items[i].is_template ||
            tm->params.items[i].is_function != head->params.items[i].is_function)
            return false;
    return true;
}

/* Function template tm's signature read with args (placeholders or real arguments), at
 * file scope in its namespace; NULL when it is not a function's. */
static lat__type *signature_with(lat__parser *p, lat__template *tm, const targ *args)
{
    size_t from = suspend_locals(p);
    size_t nopen;
    ns_binding *opened = open_scope(p, tm, &nopen);
    lat__parser sub = sub_parser(p, tm);
    bound_names b = bind_params(&sub, tm, args);
    lat__atom *n = NULL;
    lat__type *shape = expand_for(&sub, tm, args, true) ? lat__parse_signature(&sub, &n) : NULL;
    unbind_params(b);
    close_namespaces(opened, nopen);
    resume_locals(p, from);
    p->anon = sub.anon;
    return shape && shape->kind == LAT_TY_FUNC ? shape : NULL;
}

/* The signature a call with argc arguments matches. A variadic template's function
 * parameter pack takes the arguments past its other parameters: its type pack (unless
 * given) gets as many elements, placeholders numbered from params.n on; given elements
 * fill their placeholders' args/set (which must have room for params.n + argc + the
 * given elements). *lens: each pack's length. NULL after reporting. */
/* The length of type pack i of tm (its element 0 placeholder ph in the probe signature
 * `probe`, read with one element) where a parameter expands it among a class template's
 * arguments (f(tuple<Ts...> &t), g(const L<int, Ts...> *)): from the argument's instance,
 * the elements of that class's pack less the others written beside it. -1: no parameter
 * expands it so (it is a function parameter pack, or not deduced). */
static long pack_from_instance(const lat__type *probe, int ph, bool value, lat__expr **argv, size_t argc)
{
    for (int k = 0; k < probe->params.n && (size_t)k < argc; k++) {
        const lat__type *pt = probe->params.types[k], *at = argv[k]->type;
        if (pt->kind == LAT_TY_PTR && pt->ref)
            pt = pt->base;
        if (at->kind == LAT_TY_PTR && at->ref)
            at = at->base;
        if (pt->kind == LAT_TY_PTR && at->kind == LAT_TY_PTR) {
            pt = pt->base;
            at = at->base;
        }
        if (!instance_pattern(pt))
            continue;
        const lat__template *x = pt->rec->tmpl;
        const targ *pat = pt->rec->targs;
        for (size_t j = 0; j < x->params.n; j++) {
            if (!x->params.items[j].is_pack || x->params.items[j].is_template || x->params.items[j].is_function ||
                x->params.items[j].is_type == value)
                continue;
            for (size_t e = 0; e < pat[j].npack; e++) {
                int idx;
                if (value ? pat[j].pack[e].vph != ph + 1
                          : !pat[j].pack[e].type || !placeholder_index(pat[j].pack[e].type, &idx) || idx != ph)
                    continue;
                if (!lat__is_record(at) || !at->rec || at->rec->tmpl != x || !at->rec->targs)
                    return -1;
                const targ *inst = at->rec->targs;
                return inst[j].npack + 1 >= pat[j].npack ? (long)(inst[j].npack + 1 - pat[j].npack) : -1;
            }
        }
    }
    return -1;
}

/* How many elements the packs of class template instances among the arguments hold (or
 * their pointees): room for the placeholders of packs whose length they give. */
static size_t instance_elements(lat__expr **argv, size_t argc)
{
    size_t n = 0;
    for (size_t k = 0; argv && k < argc; k++) {
        const lat__type *t = argv[k]->type;
        if (t->kind == LAT_TY_PTR)
            t = t->base;
        if (!lat__is_record(t) || !t->rec || !t->rec->tmpl || !t->rec->targs)
            continue;
        const lat__template *x = t->rec->tmpl;
        const targ *a = t->rec->targs;
        for (size_t j = 0; j < x->params.n; j++)
            n += x->params.items[j].is_pack ? a[j].npack : 1;
    }
    return n;
}

static lat__type *call_shape(lat__parser *p, lat__template *tm, targ *args, bool *set, size_t argc, size_t **lens,
                             lat__expr **argv)
{
    *lens = NULL;
    if (!tm->has_pack || !tm->shape)
        return tm->shape;
    size_t fixed = (size_t)tm->shape->params.n, next = tm->params.n;
    size_t *len = lat__arena_alloc(&p->u->arena, (tm->params.n + 1) * sizeof *len);
    bool deducing = false;
    for (size_t i = 0; i < tm->params.n; i++) {
        tparam *tp = &tm->params.items[i];
        if (!tp->is_pack)
            continue;
        if (set[i]) {
            len[i] = args[i].npack;
            for (size_t j = 0; j < len[i]; j++) {
                args[next + j] = args[i].pack[j];
                set[next + j] = true;
            }
        } else if (!tp->is_template && !tp->is_function) {
            /* a pack expanded among a class template's arguments takes that instance's
             * length (f(tuple<Ts...> &t), g(index_sequence<I...>)); the first other type
             * pack, the arguments past the fixed parameters */
            long from_inst = -1;
            if (argv) {
                len[i] = 1;
                for (size_t k = i + 1; k < tm->params.n; k++)
                    len[k] = 0;
                lat__type *probe = signature_with(p, tm, placeholder_args(p, tm, len));
                from_inst = probe ? pack_from_instance(probe, (int)next, !tp->is_type, argv, argc) : -1;
            }
            if (from_inst >= 0) {
                len[i] = (size_t)from_inst;
            } else if (!tp->is_type) {
                len[i] = 0;
            } else if (!deducing) {
                len[i] = argc > fixed ? argc - fixed : 0;
                deducing = true;
            } else {
                len[i] = 0;
            }
        }
        next += len[i];
    }
    *lens = len;
    return signature_with(p, tm, placeholder_args(p, tm, len));
}

/* After deduction with a call shape: each pack's elements from their placeholders. false
 * (reported at `at`) when one was not deduced. */
static bool gather_packs(lat__parser *p, lat__template *tm, targ *args, bool *set, const size_t *lens, lat__loc at,
                         bool quiet)
{
    if (!lens)
        return true;
    size_t next = tm->params.n;
    for (size_t i = 0; i < tm->params.n; i++) {
        tparam *tp = &tm->params.items[i];
        if (!tp->is_pack)
            continue;
        if (!set[i]) {
            args[i].npack = lens[i];
            args[i].pack = lat__arena_alloc(&p->u->arena, (lens[i] + 1) * sizeof *args[i].pack);
            for (size_t j = 0; j < lens[i]; j++) {
                if (!set[next + j]) {
                    if (!quiet)
                        lat__error_at(p->u, at, "cannot deduce element %zu of the parameter pack '%s' of '%s'", j,
                                      tp->name ? tp->name->name : "?", tm->name->name);
                    return false;
                }
                args[i].pack[j] = args[next + j];
            }
            set[i] = true;
        }
        next += lens[i];
    }
    return true;
}

/* Whether the deduced arguments substitute into tm: its defaults (typename =
 * enable_if_t<...>) and its signature (a return type enable_if<C, T>::type) exist for
 * them. Tried quietly: a candidate they do not fit is no candidate (C++'s SFINAE). */
static bool substitutes(lat__parser *p, lat__template *tm, targ *args, bool *set)
{
    lat__unit *u = p->u;
    lat_status status = u->status;
    int nerrors = u->nerrors, failed = u->failed_instances;
    size_t ndiags = u->diags.n;
    bool ok = defaults(p, tm, args, set, tm->loc);
    if (ok)
        ok = signature_with(p, tm, args) && u->nerrors == nerrors;
    ok = ok && u->nerrors == nerrors;
    if (u->failed_instances != failed)
        return false; /* an error inside a class's instance is no substitution failure: it stays */
    u->status = status;
    u->nerrors = nerrors;
    u->diags.n = ndiags;
    return ok;
}

/* The elements given explicitly to packs, for sizing deduction's arrays. */
static size_t given_elements(const lat__template *tm, const targ *args, const bool *set)
{
    size_t n = 0;
    for (size_t i = 0; i < tm->params.n; i++)
        if (tm->params.items[i].is_pack && set[i])
            n += args[i].npack;
    return n;
}

/* Whether a parameter's type is fixed, not depending on the template's parameters:
 * arithmetic, a record, or pointers and arrays of them (an array's bound too: CUB's
 * Reduce(T (&)[N], op) beside Reduce(T, op) deduces N). */
static bool fixed_type(const lat__type *t)
{
    while (t->kind == LAT_TY_PTR || t->kind == LAT_TY_ARRAY) {
        if (t->kind == LAT_TY_ARRAY && t->count_vph > 0)
            return false;
        t = t->base;
    }
    return lat__is_arith(t) || (lat__is_record(t) && t->rec);
}

/* Whether function template a is at least as specialized as b (C++'s partial ordering):
 * b's parameters deduce from a's, a's parameters standing for types of their own. Only
 * templates without packs, of as many parameters. */
static bool more_specialized(lat__parser *p, const lat__template *a, const lat__template *b)
{
    const lat__type *sa = a->shape, *sb = b->shape;
    if (!sa || !sb || a->has_pack || b->has_pack || sa->params.n != sb->params.n)
        return false;
    size_t room = b->params.n + a->params.n + 2;
    targ *d = lat__arena_alloc(&p->u->arena, room * sizeof *d);
    bool *dset = lat__arena_alloc(&p->u->arena, room);
    for (int i = 0; i < sa->params.n; i++) {
        lat__type *pa = sa->params.types[i], *pb = sb->params.types[i];
        /* references to their referred types, as C++ orders them */
        if (pa->kind == LAT_TY_PTR && pa->ref)
            pa = pa->base;
        if (pb->kind == LAT_TY_PTR && pb->ref)
            pb = pb->base;
        if (!unify(p, pb, pa, d, dset))
            return false;
    }
    return true;
}

/* Among the overloaded function templates from tsym on, the one a call with argv (and the
 * explicit arguments in args/set, read with tsym's parameters) picks: its deduction
 * succeeds, every parameter is deduced, given or defaulted, and its signature's
 * parameters of fixed types take the arguments with the fewest conversions (ties: one
 * without a parameter pack, as C++'s partial ordering prefers, then the newest). On
 * return args/set hold the pick's deduced arguments. NULL: none fits. room: the size of
 * args and set. */
/* Whether e names an object through an rvalue reference (std::move(x), std::forward<T>(x)
 * of a non-reference T, a call returning T &&): an xvalue, which binds as an rvalue. */
static bool xvalue(const lat__expr *e)
{
    while (e->kind == LAT_E_CAST && (e->flags & LAT_EF_IMPLICIT) && e->a)
        e = e->a;
    /* (a variable declared T && is an lvalue by its name) */
    return e->kind == LAT_E_UNARY && e->op == LAT_P_STAR && e->a && e->a->type->kind == LAT_TY_PTR &&
           e->a->type->ref == 2 && (e->a->kind == LAT_E_CALL || e->a->kind == LAT_E_CAST);
}

/* A reference parameter's referred type for deduction (pty: the parameter's type); for a
 * forwarding reference (T && of a plain parameter T) and an lvalue argument, *aty becomes
 * a reference to the argument's type, so that T is deduced as A & (C++'s rule: `T y = x;`
 * is then a reference, std::is_lvalue_reference<T> true, std::forward<T> an lvalue). */
static const lat__type *forwarding_reference(lat__parser *p, const lat__type *pty, const lat__expr *arg, lat__type **aty)
{
    const lat__type *b = pty->base;
    if (pty->ref == 2 && !b->quals && placeholder_index(b, &(int){0}) && (arg->flags & LAT_EF_LVALUE) && !xvalue(arg) &&
        !(arg->flags & LAT_EF_ERROR) && arg->type->kind != LAT_TY_FUNC && !(arg->type->kind == LAT_TY_PTR && arg->type->ref))
        *aty = lat__reference_to(p->u, arg->type);
    return b;
}

static lat__sym *pick_overload(lat__parser *p, lat__sym *tsym, targ *args, bool *set, size_t room, lat__expr **argv,
                               size_t argc, const lat__expr *self)
{
    /* a member template's object: a const one takes only const member templates, and a
     * non-const one prefers the non-const (C++'s ranking of the implicit object) */
    bool const_object = self && self->type->kind == LAT_TY_PTR && (self->type->base->quals & LAT_Q_CONST);
    const lat__template *head = tsym->tmpl;
    targ *best_args = lat__arena_alloc(&p->u->arena, (room + 1) * sizeof *best_args);
    bool *best_set = lat__arena_alloc(&p->u->arena, room + 1);
    targ *a = lat__arena_alloc(&p->u->arena, (room + 1) * sizeof *a);
    bool *st = lat__arena_alloc(&p->u->arena, room + 1);
    lat__sym *best = NULL;
    int best_cost = 0;
    size_t given = 0; /* the explicit arguments: a prefix */
    while (given < head->params.n && set[given])
        given++;
    /* the arguments every candidate binds to a reference: there T & beats const T & for a
     * non-const lvalue (over a by-value parameter, neither is better) */
    bool *all_ref = lat__arena_alloc(&p->u->arena, argc + 1);
    for (size_t i = 0; i < argc; i++) {
        all_ref[i] = true;
        for (lat__sym *c = tsym; c && all_ref[i]; c = c->tmpl->older) {
            const lat__type *sh = c->tmpl->shape;
            const lat__type *pty = sh && (int)i < sh->params.n ? sh->params.types[i] : NULL;
            all_ref[i] = pty && pty->kind == LAT_TY_PTR && pty->ref;
        }
    }
    for (lat__sym *c = tsym; c; c = c->tmpl->older) {
        lat__template *tm = c->tmpl;
        if (!same_kinds(tm, head, given))
            continue;
        memset(st, 0, room + 1);
        for (size_t i = 0; i < given; i++) {
            a[i] = args[i];
            st[i] = set[i];
        }
        size_t *lens;
        lat__type *shape = call_shape(p, tm, a, st, argc, &lens, argv);
        if (!shape)
            continue;
        const lat__param_types *pt = &shape->params;
        bool fits = (int)argc == pt->n || ((int)argc < pt->n && pt->defaults && pt->defaults[argc]) ||
                    ((int)argc > pt->n && pt->variadic);
        int cost = 0, quals = 0;
        for (int i = 0; fits && i < pt->n && i < (int)argc; i++) {
            const lat__type *pty = pt->types[i];
            lat__type *aty = argv[i]->type;
            if (!(pty->kind == LAT_TY_PTR && pty->ref)) {
                aty = lat__unqualified(p->u, lat__rvalue(p, argv[i])->type);
            } else {
                pty = forwarding_reference(p, pty, argv[i], &aty);
                /* a non-const lvalue reference binds no rvalue (f(3) takes f(const T &), not
                 * f(T &)), unless T is deduced const from a const one */
                if (pt->types[i]->ref == 1 && !(pty->quals & LAT_Q_CONST) &&
                    (!(argv[i]->flags & LAT_EF_LVALUE) || xvalue(argv[i])) &&
                    !(argv[i]->flags & LAT_EF_ERROR) && !(lat__is_template_placeholder(pty) && (aty->quals & LAT_Q_CONST)))
                    fits = false;
                /* where every candidate binds a reference: a non-const lvalue prefers T & over
                 * const T & (get<0>(t) of a non-const tuple takes the overload returning T &),
                 * and a const one takes const T & over T & deduced const (the more
                 * specialized, as C++'s partial ordering has it) */
                if (all_ref[i] && (argv[i]->flags & LAT_EF_LVALUE) &&
                    ((aty->quals & LAT_Q_CONST) ? !(pty->quals & LAT_Q_CONST) && lat__is_template_placeholder(pty)
                                                : (pty->quals & LAT_Q_CONST) != 0))
                    quals++;
                /* an lvalue takes f(T &) over f(T &&), T && deduced T & (C++'s partial
                 * ordering: the lvalue reference is the more specialized) */
                if (all_ref[i] && (argv[i]->flags & LAT_EF_LVALUE) && !xvalue(argv[i]) && pt->types[i]->ref == 2)
                    quals++;
            }
            int k;
            if (placeholder_index(pty, &k) && (((size_t)k < head->params.n && set[k]) ||
                                               ((size_t)k >= tm->params.n && st[k] && lens)))
                continue; /* given explicitly: not deduced, the argument converts */
            if (!match(p, pty, aty, a, st))
                fits = false;
            else if (fixed_type(pty)) {
                /* a parameter of a fixed type (float x, float2 a, const P &p, int *q): how
                 * well the argument fits (two templates of one name differing only there,
                 * ggml's warp_reduce_sum<width>(float) and (half2), pick by it) */
                int r = lat__arg_rank(p, argv[i], pt->types[i]);
                if (r < 0)
                    fits = false;
                cost += r;
            }
        }
        if (fits)
            fits = gather_packs(p, tm, a, st, lens, argv && argc ? argv[0]->loc : tm->loc, true);
        for (size_t i = 0; fits && i < tm->params.n; i++)
            if (!st[i] && !tm->params.items[i].dflt_at && !tm->params.items[i].is_pack)
                fits = false;
        if (fits && tm->sfinae)
            fits = substitutes(p, tm, a, st);
        if (self && tm->member_of && const_object && !tm->const_method)
            fits = false;
        if (self && tm->member_of && !const_object && tm->const_method)
            quals++;
        cost = (cost * 256 + quals) * 2 + (tm->has_pack ? 1 : 0);
        if (fits && best && cost == best_cost && more_specialized(p, tm, best->tmpl) &&
            !more_specialized(p, best->tmpl, tm)) {
            /* C++'s partial ordering breaks the tie: f(X *) over f(X) for an int * */
            best = c;
            memcpy(best_args, a, (room + 1) * sizeof *a);
            memcpy(best_set, st, room + 1);
            continue;
        }
        if (fits && (!best || cost < best_cost)) {
            best = c;
            best_cost = cost;
            memcpy(best_args, a, (room + 1) * sizeof *a);
            memcpy(best_set, st, room + 1);
        }
    }
    if (best) {
        memcpy(args, best_args, best->tmpl->params.n * sizeof *args);
        memcpy(set, best_set, best->tmpl->params.n);
    }
    return best;
}

lat__expr *lat__template_call(lat__parser *p, lat__sym *tsym, lat__tok *t)
{
    lat__expr *self = NULL;
    if (tsym->tmpl->member_of && tsym->storage != LAT_ST_STATIC) {
        /* a member template called by its name in a member function: on this */
        if (!p->this_sym || !lat__is_pointer(p->this_sym->type) || p->this_sym->type->base->rec != tsym->rec) {
            lat__error_tok(p, t, "calling the member template '%s' without an object", tsym->name->name);
            return lat__error_expr(p, t->loc);
        }
        self = lat__this_expr(p, t->loc);
    }
    return lat__member_template_call(p, tsym, t, self);
}

static size_t most_params(const lat__template *tm)
{
    size_t most = tm->params.n; /* overloaded templates: room for any one's arguments */
    for (lat__sym *c = tm->older; c; c = c->tmpl->older)
        most = c->tmpl->params.n > most ? c->tmpl->params.n : most;
    return most;
}

static lat__expr *call_with(lat__parser *p, lat__sym *tsym, lat__loc at, lat__expr *self, targ *args, bool *set,
                            size_t most, bool explicit_given, lat__expr **argv, size_t argc, lat__loc open);

lat__expr *lat__member_template_call(lat__parser *p, lat__sym *tsym, lat__tok *t, lat__expr *self)
{
    lat__template *tm = tsym->tmpl;
    size_t most = most_params(tm);
    targ *args = lat__arena_alloc(&p->u->arena, (most + 1) * sizeof *args);
    bool *set = lat__arena_alloc(&p->u->arena, most + 1);
    bool explicit_given = lat__at_punct(p, LAT_P_LT);
    if (explicit_given && !explicit_args(p, tm, args, set))
        goto bad;
    if (!lat__at_punct(p, LAT_P_LPAREN)) {
        lat__error_tok(p, t, "'%s' is a function template: call it", tm->name->name);
        goto bad;
    }
    lat__loc open = lat__next(p)->loc;
    lat__expr **argv;
    size_t argc = lat__parse_arguments(p, LAT_P_RPAREN, "to close the call", &argv);
    return call_with(p, tsym, t->loc, self, args, set, most, explicit_given, argv, argc, open);
bad:
    return lat__error_expr(p, t->loc);
}

lat__expr *lat__member_template_call_parsed(lat__parser *p, lat__sym *tsym, lat__expr *self, lat__expr **argv,
                                            size_t argc, lat__loc at)
{
    size_t most = most_params(tsym->tmpl);
    targ *args = lat__arena_alloc(&p->u->arena, (most + 1) * sizeof *args);
    bool *set = lat__arena_alloc(&p->u->arena, most + 1);
    return call_with(p, tsym, at, tsym->storage == LAT_ST_STATIC ? NULL : self, args, set, most, false, argv, argc, at);
}

lat__expr *lat__template_call_parsed(lat__parser *p, lat__sym *tsym, lat__loc at, lat__expr **argv, size_t argc,
                                     lat__loc open)
{
    size_t most = most_params(tsym->tmpl);
    targ *args = lat__arena_alloc(&p->u->arena, (most + 1) * sizeof *args);
    bool *set = lat__arena_alloc(&p->u->arena, most + 1);
    return call_with(p, tsym, at, NULL, args, set, most, false, argv, argc, open);
}

bool lat__template_fits(lat__parser *p, lat__sym *tsym, lat__expr **argv, size_t argc)
{
    size_t room = most_params(tsym->tmpl) + argc + instance_elements(argv, argc) + 1;
    targ *args = lat__arena_alloc(&p->u->arena, (room + 1) * sizeof *args);
    bool *set = lat__arena_alloc(&p->u->arena, room + 1);
    if (pick_overload(p, tsym, args, set, room, argv, argc, NULL))
        return true;
    lat__sym *plain = tsym->tmpl->plain;
    return plain && lat__fewest_user_conversions(p, plain, argv, (int)argc) >= 0;
}

/* Among plain (the non-template overloads of a template's name), the one every argument
 * matches exactly (its type, or what a reference parameter refers to), the object's
 * constness too for a member function; NULL: none. */
static lat__sym *exact_plain(lat__parser *p, lat__sym *plain, lat__expr **argv, size_t argc, const lat__expr *self)
{
    /* first a member function of the object's constness, then a const one for any */
    for (int pass = 0; pass < 2; pass++) {
        for (lat__sym *f = plain; f; f = f->overloads) {
            const lat__param_types *pt = &f->type->params;
            int skip = (f->flags & LAT_SF_METHOD) && f->storage != LAT_ST_STATIC ? 1 : 0;
            if (pt->n != (int)argc + skip || pt->variadic)
                continue;
            if (skip && self && self->type->kind == LAT_TY_PTR && pt->types[0]->kind == LAT_TY_PTR) {
                bool object_const = self->type->base->quals & LAT_Q_CONST, method_const = pt->types[0]->base->quals & LAT_Q_CONST;
                if (pass == 0 ? object_const != method_const : object_const && !method_const)
                    continue;
            }
            bool same = true;
            for (size_t i = 0; same && i < argc; i++) {
                lat__type *want = pt->types[i + skip];
                if (want->kind == LAT_TY_PTR && want->ref)
                    want = want->base;
                lat__type *got = lat__rvalue(p, argv[i])->type;
                same = lat__type_same(lat__unqualified(p->u, want), lat__unqualified(p->u, got));
            }
            if (same)
                return f;
        }
    }
    return NULL;
}

/* The call of tsym (its explicit arguments in args and set) with the arguments argv. */
static lat__expr *call_with(lat__parser *p, lat__sym *tsym, lat__loc at, lat__expr *self, targ *args, bool *set,
                            size_t most, bool explicit_given, lat__expr **argv, size_t argc, lat__loc open)
{
    lat__template *tm = tsym->tmpl;
    for (size_t i = 0; i < argc; i++)
        if (argv[i]->flags & LAT_EF_ERROR)
            goto bad;
    /* room for the elements of a pack beside the parameters */
    size_t room = most + argc + given_elements(tm, args, set) + instance_elements(argv, argc) + 1;
    targ *wide = lat__arena_alloc(&p->u->arena, (room + 1) * sizeof *wide);
    bool *wset = lat__arena_alloc(&p->u->arena, room + 1);
    memcpy(wide, args, (most + 1) * sizeof *args);
    memcpy(wset, set, most + 1);
    args = wide;
    set = wset;
    lat__sym *exact = tm->plain && !explicit_given ? exact_plain(p, tm->plain, argv, argc, self) : NULL;
    if (exact) {
        /* a plain function the arguments match exactly beats a template's instance (C++
         * prefers the non-template where neither converts better) */
        lat__expr *fn = lat__expr_new(p, LAT_E_NAME, at);
        fn->sym = exact;
        fn->type = exact->type;
        fn->flags |= LAT_EF_CHOSEN;
        lat__expr **all = argv;
        if (self && exact->storage != LAT_ST_STATIC) {
            all = lat__arena_alloc(&p->u->arena, (argc + 2) * sizeof *all);
            all[0] = self;
            if (argc)
                memcpy(all + 1, argv, argc * sizeof *argv);
            argc++;
        }
        return lat__make_call(p, fn, all, (int)argc, open);
    }
    if (tm->older || (tm->member_of && tm->plain && !explicit_given)) {
        /* Overloaded templates: the one whose deduction works and whose parameters fit
         * the arguments best (its arguments parsed with the newest's parameters); none,
         * a member function of the name that is no template (operator[](ptrdiff_t)
         * beside template <class Int> operator[](const Int (&)[N])) */
        lat__sym *pick = pick_overload(p, tsym, args, set, room, argv, argc, self);
        if (!pick && tm->plain && !explicit_given) {
            lat__expr *fn = lat__expr_new(p, LAT_E_NAME, at);
            fn->sym = tm->plain;
            fn->type = tm->plain->type;
            lat__expr **all = argv;
            if (self && tm->plain->storage != LAT_ST_STATIC) {
                all = lat__arena_alloc(&p->u->arena, (argc + 2) * sizeof *all);
                all[0] = self;
                if (argc)
                    memcpy(all + 1, argv, argc * sizeof *argv);
                argc++;
            }
            return lat__make_call(p, fn, all, (int)argc, open);
        }
        if (!pick) {
            lat__error_at(p->u, at, "no template '%s' takes these arguments", tm->name->name);
            goto bad;
        }
        tsym = pick;
        tm = pick->tmpl;
    }
    bool *given = lat__arena_alloc(&p->u->arena, room + 1);
    memcpy(given, set, room + 1);
    size_t *lens = NULL;
    const lat__type *shape = call_shape(p, tm, args, given, argc, &lens, argv);
    if (!shape)
        goto bad;
    if (lens)
        memcpy(set, given, room + 1);
    const lat__param_types *pt = &shape->params;
    bool fits = (int)argc == pt->n || ((int)argc < pt->n && pt->defaults && pt->defaults[argc]);
    if (!fits && tm->plain && !explicit_given) {
        lat__expr *fn = lat__expr_new(p, LAT_E_NAME, at);
        fn->sym = tm->plain;
        fn->type = tm->plain->type;
        return lat__make_call(p, fn, argv, (int)argc, open);
    }
    for (int i = 0; i < pt->n && i < (int)argc; i++) {
        const lat__type *pty = pt->types[i];
        lat__type *aty = argv[i]->type;
        if (!(pty->kind == LAT_TY_PTR && pty->ref)) /* by value: decayed, its own qualifiers dropped */
            aty = lat__unqualified(p->u, lat__rvalue(p, argv[i])->type);
        else
            pty = forwarding_reference(p, pty, argv[i], &aty);
        int k;
        if (placeholder_index(pty, &k) && given[k])
            continue; /* given explicitly (f<unsigned>(a < b)): not deduced, the argument converts */
        if (!match(p, pty, aty, args, set)) {
            lat__error_at(p->u, argv[i]->loc, "the arguments of '%s' deduce its parameters two ways",
                          tm->name->name);
            goto bad;
        }
    }
    if (!gather_packs(p, tm, args, set, lens, at, false))
        goto bad;
    if (tm->sfinae && !substitutes(p, tm, args, set)) {
        lat__error_at(p->u, at,
                      "no instance of '%s' takes these arguments: for the arguments they deduce, its signature or "
                      "its template parameters name a type that does not exist (an enable_if whose condition is false)",
                      tm->name->name);
        goto bad;
    }
    if (!defaults(p, tm, args, set, at))
        goto bad;
    lat__sym *head = tm->name->sym;
    tinst *ti = tm->member_of ? instantiate_member(p, tsym, args, at) : instantiate(p, tsym, args, at);
    tm->name->sym = head; /* an older template's instance bound its name to that one */
    if (!ti || !ti->fn)
        goto bad;
    lat__expr *fn = lat__expr_new(p, LAT_E_NAME, at);
    fn->sym = ti->fn;
    fn->type = ti->fn->type;
    if (self) {
        /* a member function's object comes first */
        lat__expr **all = lat__arena_alloc(&p->u->arena, (argc + 2) * sizeof *all);
        all[0] = self;
        if (argc)
            memcpy(all + 1, argv, argc * sizeof *argv);
        argv = all;
        argc++;
    }
    return lat__make_call(p, fn, argv, (int)argc, open);
bad:
    return lat__error_expr(p, at);
}

lat__sym *lat__template_variable(lat__parser *p, lat__sym *tsym, lat__tok *t)
{
    lat__template *tm = tsym->tmpl;
    if (!lat__at_punct(p, LAT_P_LT)) {
        lat__error_tok(p, t, "'%s' is a variable template: give its arguments, %s<...>", tm->name->name,
                       tm->name->name);
        return NULL;
    }
    targ *args = lat__arena_alloc(&p->u->arena, (tm->params.n + 1) * sizeof *args);
    bool *set = lat__arena_alloc(&p->u->arena, tm->params.n + 1);
    if (!explicit_args(p, tm, args, set) || !defaults(p, tm, args, set, t->loc))
        return NULL;
    for (size_t i = 0; i < tm->params.n; i++) {
        const tparam *tp = &tm->params.items[i];
        size_t n = tp->is_pack ? args[i].npack : 1;
        for (size_t j = 0; j < n; j++) {
            const targ *a = tp->is_pack ? &args[i].pack[j] : &args[i];
            if (tp->is_type ? type_depends(a->type) || opaque_pattern(a->type) : a->vph != 0) {
                /* is_same_v<T, float> while a signature is read for deduction: a value
                 * known only in the instance (a template's argument made of it keeps that
                 * class unmade; a partial specialization's pattern of it is refused) */
                lat__sym *d = lat__sym_new(p, LAT_SYM_ENUM_CONST, tm->name, t->loc);
                d->type = &lat__ty_int;
                d->tparam = -1;
                return d;
            }
        }
    }
    lat__sym *head = tm->name->sym;
    tinst *ti = instantiate(p, tsym, args, t->loc);
    tm->name->sym = head;
    return ti ? ti->fn : NULL;
}

lat__type *lat__template_class_type(lat__parser *p, lat__sym *tsym, lat__tok *t)
{
    lat__template *tm = tsym->tmpl;
    if (!lat__at_punct(p, LAT_P_LT)) {
        if (p->inst_of == tm && p->inst_type)
            return p->inst_type; /* its own name inside the class template */
        if (p->member_class && p->member_class->tmpl == tm)
            return lat__record_type_of(p, p->member_class); /* ... and in its member templates */
        lat__error_tok(p, t, "'%s' is a class template: give its arguments, %s<...>", tm->name->name,
                       tm->name->name);
        return &lat__ty_int;
    }
    targ *args = lat__arena_alloc(&p->u->arena, (tm->params.n + 1) * sizeof *args);
    bool *set = lat__arena_alloc(&p->u->arena, tm->params.n + 1);
    if (!explicit_args(p, tm, args, set) || !defaults(p, tm, args, set, t->loc))
        return &lat__ty_int;
    for (size_t i = 0; i < tm->params.n && !tm->is_alias; i++) {
        /* an alias of placeholders is made: its type deduces as written; a class is not:
         * its arguments are kept for deduction to match (Vec<T, N> v) */
        const tparam *tp = &tm->params.items[i];
        size_t n = tp->is_pack ? args[i].npack : 1;
        for (size_t j = 0; j < n; j++) {
            const targ *a = tp->is_pack ? &args[i].pack[j] : &args[i];
            if (tp->is_type ? type_depends(a->type) : a->vph != 0) {
                lat__type *pat = lat__dependent_type(p);
                lat__record *r = lat__arena_alloc(&p->u->arena, sizeof *r);
                r->kind = LAT_TY_STRUCT;
                r->tmpl = tm;
                r->targs = args;
                pat->rec = r;
                return pat;
            }
        }
    }
    tinst *ti = instantiate(p, tsym, args, t->loc);
    if (ti && !ti->type && (tm->is_alias || !ti->failed))
        lat__error_at(p->u, t->loc, "%s could not be made", args_text(p, tm, args));
    return ti && ti->type ? ti->type : &lat__ty_int;
}

void lat__templates_plain(lat__sym *tsym, lat__sym *plain)
{
    for (lat__sym *t = tsym; t; t = t->tmpl->older)
        t->tmpl->plain = plain;
}

lat__sym *lat__template_plain(lat__sym *tsym, lat__sym *newest)
{
    lat__sym *was = tsym->tmpl->plain;
    if (newest)
        tsym->tmpl->plain = newest;
    return was;
}

/* A name expression lexed into *p: the function its head names, a template or not (p past
 * it, *at its last token), or NULL. */
static lat__sym *expression_function(lat__unit *u, const char *expr, lat__parser *p, lat__tok **at)
{
    lat__toks toks = {0};
    /* Its own "file", so that an error in it is placed in it, not in the program. */
    const char *shown = lat__arena_printf(&u->arena, "name expression '%s'", expr);
    uint32_t file = lat__unit_add_file(u, NULL, shown, expr, strlen(expr));
    lat__lex_text(u, expr, strlen(expr), (lat__loc){file, 1, 1}, &toks);
    memset(p, 0, sizeof *p);
    p->u = u;
    p->tu = u->tu;
    p->toks = toks.items;
    p->ntoks = toks.n;
    p->top_ns.items = u->tu->top_ns; /* ns::k<int> */
    p->top_ns.n = p->top_ns.cap = u->tu->ntop_ns;
    lat__accept(p, LAT_P_AMP); /* NVRTC takes &f<int> too */
    lat__tok *t = lat__peek(p);
    *at = t;
    lat__sym *s = NULL;
    if (lat__at_qualified(p)) {
        size_t from = p->pos;
        s = lat__parse_qualified(p, true); /* a miss is the caller's to report */
        if (s)
            lat__parse_qualified(p, false);
        if (p->pos > from)
            *at = &p->toks[p->pos - 1];
    } else if (t->kind == LAT_TK_IDENT) {
        lat__next(p);
        s = t->atom->sym;
    }
    return s && s->kind == LAT_SYM_FUNC ? s : NULL;
}

/* The kernel a name expression naming a function that is not a template (or a template's
 * plain namesake) names: "BlackScholesGPU", "&ns::k". */
static lat__sym *named_plain(lat__unit *u, lat__parser *p, lat__sym *s, const lat__tok *t, const char *expr)
{
    if (s->tmpl)
        s = lat__template_plain(s, NULL);
    if (!s) {
        lat__error_at(u, t->loc, "the name expression '%s' gives no template arguments", expr);
        return NULL;
    }
    if (!lat__at_eof(p)) {
        lat__error_at(u, lat__peek(p)->loc, "the name expression '%s' goes on after the function's name", expr);
        return NULL;
    }
    if (!(s->cuda & LAT_CU_GLOBAL)) {
        lat__diag_at(u, t->loc, LAT_SEV_ERROR, LAT_ERROR_KERNEL_NOT_FOUND,
                     "the name expression '%s' names a function that is not a __global__ kernel", expr);
        return NULL;
    }
    return s;
}

/* The kernel an instance made for a name expression is, found from then on by the
 * expression as written; NULL (reported) when the instance failed or is no kernel. */
static lat__sym *instance_kernel(lat__unit *u, const tinst *ti, const lat__tok *t, const char *expr)
{
    if (!ti || !ti->fn)
        return NULL;
    if (!(ti->fn->cuda & LAT_CU_GLOBAL)) {
        lat__diag_at(u, t->loc, LAT_SEV_ERROR, LAT_ERROR_KERNEL_NOT_FOUND,
                     "the name expression '%s' names a function that is not a __global__ kernel", expr);
        return NULL;
    }
    if (!ti->fn->expr_name)
        ti->fn->expr_name = lat__arena_strndup(&u->arena, expr, strlen(expr));
    return ti->fn;
}

static lat__sym *instantiate_named(lat__unit *u, const char *expr, bool *no_template, jmp_buf *stop)
{
    lat__parser p;
    lat__tok *t;
    lat__sym *s = expression_function(u, expr, &p, &t);
    /* A cast picking one of overloaded kernels, "(void (*)(float *))k", is NVRTC's to
     * resolve; the emulator, which refuses overloaded kernels, finds no kernel by it. */
    *no_template = !s && !lat__tok_is_punct(&p.toks[0], LAT_P_LPAREN);
    p.stop = stop;
    if (!s)
        return NULL;
    if (!s->tmpl || !lat__at_punct(&p, LAT_P_LT))
        return named_plain(u, &p, s, t, expr);
    if (s->tmpl->older) {
        /* overloaded templates (two kernels of one name told apart by enable_if_t in their
         * return types): the one whose arguments read and substitute, tried quietly */
        size_t at = p.pos;
        lat__sym *pick = NULL;
        targ *pick_args = NULL;
        for (lat__sym *c = s; c; c = c->tmpl->older) {
            lat__template *ct = c->tmpl;
            p.pos = at;
            lat_status status = u->status;
            int nerrors = u->nerrors, failed = u->failed_instances;
            size_t ndiags = u->diags.n;
            targ *a = lat__arena_alloc(&u->arena, (ct->params.n + 1) * sizeof *a);
            bool *st = lat__arena_alloc(&u->arena, ct->params.n + 1);
            bool ok = explicit_args(&p, ct, a, st) && lat__at_eof(&p) && u->nerrors == nerrors &&
                      substitutes(&p, ct, a, st);
            if (u->failed_instances == failed) {
                u->status = status;
                u->nerrors = nerrors;
                u->diags.n = ndiags;
            }
            if (!ok)
                continue;
            if (pick) {
                lat__error_at(u, t->loc, "the name expression '%s' names two templates of one name that both take "
                                         "these arguments", expr);
                return NULL;
            }
            pick = c;
            pick_args = a;
        }
        if (!pick) {
            lat__error_at(u, t->loc, "no template '%s' takes the arguments of the name expression '%s'",
                          s->tmpl->name->name, expr);
            return NULL;
        }
        lat__sym *head = s->tmpl->name->sym;
        tinst *ti = instantiate(&p, pick, pick_args, t->loc);
        s->tmpl->name->sym = head; /* the name stays the overload set's */
        return instance_kernel(u, ti, t, expr);
    }
    lat__template *tm = s->tmpl;
    targ *args = lat__arena_alloc(&u->arena, (tm->params.n + 1) * sizeof *args);
    bool *set = lat__arena_alloc(&u->arena, tm->params.n + 1);
    if (!explicit_args(&p, tm, args, set) || !defaults(&p, tm, args, set, t->loc))
        return NULL;
    if (!lat__at_eof(&p)) {
        lat__error_at(u, lat__peek(&p)->loc, "the name expression '%s' goes on after its arguments", expr);
        return NULL;
    }
    tinst *ti = instantiate(&p, s, args, t->loc);
    return instance_kernel(u, ti, t, expr);
}

const char *lat__instantiate_expression(lat__unit *u, const char *expr, bool *no_template)
{
    /* Past the nesting limit (in its arguments or the instance), the error is recorded. */
    jmp_buf stop;
    *no_template = false;
    if (setjmp(stop))
        return NULL;
    lat__sym *fn = instantiate_named(u, expr, no_template, &stop);
    if (!fn)
        return NULL;
    /* The name its signature (sigs.c) and the emulator know it by. */
    return fn->expr_name ? fn->expr_name : fn->name ? fn->name->name : NULL;
}

/* n tokens as a name expression is usually written: "k<float, 256, true>", "ns::k<unsigned int>". */
static char *spell_name(lat__unit *u, const lat__tok *t, size_t n)
{
    size_t cap = 1;
    for (size_t i = 0; i < n; i++)
        cap += t[i].len + 1;
    char *s = lat__arena_alloc(&u->arena, cap), *at = s;
    for (size_t i = 0; i < n; i++) {
        bool word = t[i].kind == LAT_TK_IDENT || t[i].kind == LAT_TK_NUMBER;
        bool word_before = i && (t[i - 1].kind == LAT_TK_IDENT || t[i - 1].kind == LAT_TK_NUMBER);
        if ((word && word_before) || (i && lat__tok_is_punct(&t[i - 1], LAT_P_COMMA)))
            *at++ = ' ';
        memcpy(at, t[i].text, t[i].len);
        at += t[i].len;
    }
    *at = '\0';
    return s;
}

/* name, written in the current namespace, as the file scope names it ("k<int>" in
 * namespace ops: "ops::k<int>"); NULL inside an anonymous namespace, which no name
 * expression can name. */
static char *scoped_name(lat__parser *p, char *name)
{
    for (lat__ns *ns = p->ns; ns; ns = ns->parent) {
        if (!ns->name)
            return NULL;
        name = lat__arena_printf(&p->u->arena, "%s::%s", ns->name->name, name);
    }
    return name;
}

/* The function template a declaration's tokens from p->pos on name with their arguments,
 * f<int>(...) or ns::f<int>(...), p left at the '<'; NULL (p anywhere before `end`)
 * when there is none, as in a deduced `template void f(int *);`. */
static lat__sym *instantiated_template(lat__parser *p, size_t end, size_t *name_at)
{
    while (p->pos < end) {
        size_t at = p->pos;
        *name_at = at;
        lat__sym *s = NULL;
        if (lat__at_qualified(p)) {
            s = lat__parse_qualified(p, true);
            if (s)
                lat__parse_qualified(p, false);
            else
                p->pos = at + 1;
        } else {
            lat__tok *t = lat__next(p);
            s = t->kind == LAT_TK_IDENT ? t->atom->sym : NULL;
        }
        if (s && s->tmpl && s->kind == LAT_SYM_FUNC && lat__at_punct(p, LAT_P_LT))
            return s;
        if (p->pos <= at)
            p->pos = at + 1;
    }
    return NULL;
}

/* Whether a token in [start, end) names a template (of a function, a class or an alias). */
static bool names_a_template(const lat__parser *p, size_t start, size_t end)
{
    for (size_t i = start; i < end; i++) {
        const lat__tok *t = &p->toks[i];
        if (t->kind == LAT_TK_IDENT && t->atom->sym && t->atom->sym->tmpl)
            return true;
    }
    return false;
}

void lat__explicit_instantiation(lat__parser *p)
{
    bool is_extern = lat__tok_kw(lat__peek(p), LAT_KW_EXTERN);
    if (is_extern)
        lat__next(p);
    lat__tok *kw = lat__next(p);
    size_t start = p->pos;
    lat__skip_declaration(p);
    size_t end = p->pos;
    /* extern template: made elsewhere; anything but a function template named with its
     * arguments (a class, a member, deduced arguments) is made here when it is used. */
    if (is_extern || p->depth > 0 || p->in_record)
        return;
    p->pos = start;
    lat__tok *first = lat__peek(p);
    if (lat__record_kw(first) &&
        lat__peek_at(p, 1)->kind == LAT_TK_IDENT && lat__tok_is_punct(lat__peek_at(p, 2), LAT_P_LT)) {
        lat__next(p);
        lat__tok *name = lat__next(p);
        lat__sym *c = name->atom->sym;
        if (c && c->tmpl && c->tmpl->is_class)
            (void)lat__template_class_type(p, c, name);
        p->pos = end;
        return;
    }
    size_t name_at = start;
    lat__sym *s = instantiated_template(p, end, &name_at);
    if (!s && !names_a_template(p, start, end)) {
        /* Not an instantiation of anything: a definition after a bare `template`, or a
         * declaration of a function that is no template. NVRTC refuses both; skipping the
         * declaration silently lost its kernel. */
        lat__error_at(p->u, kw->loc,
                      "'template' is followed by neither '<' (a template's parameters) nor an explicit "
                      "instantiation of a template: %s",
                      lat__tok_is_punct(&p->toks[end - 1], LAT_P_RBRACE) ? "the function it defines would be dropped"
                                                                          : "it names no template");
        p->pos = end;
        return;
    }
    if (s) {
        lat__template *tm = s->tmpl;
        lat__tok *t = &p->toks[p->pos - 1];
        targ *args = lat__arena_alloc(&p->u->arena, (tm->params.n + 1) * sizeof *args);
        bool *set = lat__arena_alloc(&p->u->arena, tm->params.n + 1);
        tinst *ti = NULL;
        if (explicit_args(p, tm, args, set) && defaults(p, tm, args, set, t->loc))
            ti = instantiate(p, s, args, kw->loc);
        /* A kernel is found by its name as written here (both backends: the core gives
         * it to NVRTC as a name expression), unless a name expression named it first. */
        if (ti && ti->fn && (ti->fn->cuda & LAT_CU_GLOBAL) && !ti->fn->expr_name)
            ti->fn->expr_name = scoped_name(p, spell_name(p->u, &p->toks[name_at], p->pos - name_at));
    }
    p->pos = end;
}
