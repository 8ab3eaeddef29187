/*
 * C++ classes in the C tree (parse.h): a member function is a function of its own,
 * `Tag__name(this, ...)`, whose body sees the members by their plain names; a constructor
 * is a function returning the object it builds (`Tag__ctor(args)`), so that T(args),
 * T{args} and `T x(args)` are calls; an operator is a function named operator+ that an
 * expression with an operand of a record type calls. Default member initializers, and the
 * default constructors of members' classes, run in a function of the class's own,
 * `Tag__lat_defaults(init, given)`, that every path building an object leaving members
 * out calls (a constructor runs them in its prologue).
 */
#include "parse.h"
#include "visit.h"

#include <stdio.h>
#include <string.h>

/* "operator+=" as a C identifier's part. */
static const char *operator_word(const char *name)
{
    static const struct {
        const char *op, *word;
    } words[] = {
        {"+=", "add_assign"}, {"-=", "sub_assign"}, {"*=", "mul_assign"}, {"/=", "div_assign"},
        {"%=", "mod_assign"}, {"&=", "and_assign"}, {"|=", "or_assign"},  {"^=", "xor_assign"},
        {"<<=", "shl_assign"}, {">>=", "shr_assign"}, {"==", "eq"},       {"!=", "ne"},
        {"<=", "le"},          {">=", "ge"},          {"&&", "andand"},   {"||", "oror"},
        {"++", "inc"},         {"--", "dec"},         {"<<", "shl"},      {">>", "shr"},
        {"()", "call"},        {"[]", "index"},       {"->", "arrow"},    {"+", "add"},
        {"-", "sub"},          {"*", "mul"},          {"/", "div"},       {"%", "mod"},
        {"&", "and"},          {"|", "or"},           {"^", "xor"},       {"~", "not"},
        {"!", "lnot"},         {"=", "assign"},       {"<", "lt"},        {">", "gt"},
        {",", "comma"},
    };
    if (strncmp(name, "operator", 8) != 0)
        return name;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(name + 8, words[i].op) == 0)
            return words[i].word;
    return "op";
}

const char *lat__c_name(lat__parser *p, const lat__atom *name)
{
    if (strncmp(name->name, "operator", 8) != 0 || !name->name[8])
        return name->name;
    return lat__arena_printf(&p->u->arena, "__lat_op_%s", operator_word(name->name));
}

const char *lat__record_c_name(const lat__record *r)
{
    return r->emit_tag ? r->emit_tag : r->tag ? r->tag->name : "anon";
}

lat__sym *lat__find_method(const lat__record *r, const lat__atom *name)
{
    for (size_t i = r->methods.n; i-- > 0;)
        if (r->methods.items[i]->name == name && !(r->methods.items[i]->flags & LAT_SF_CTOR) &&
            r->methods.items[i]->kind == LAT_SYM_FUNC)
            return r->methods.items[i];
    return NULL;
}

/* Whether member m of a base class is r's too: not a constructor, not a member function
 * that takes the base's object. */
static bool inherited(const lat__sym *m)
{
    return !(m->flags & LAT_SF_CTOR) && !(m->kind == LAT_SYM_FUNC && m->storage != LAT_ST_STATIC);
}

/* The member of that name r's bases give (the first base's first, depth first). */
static lat__sym *base_member_sym(const lat__record *r, const lat__atom *name, int depth)
{
    for (size_t k = 0; depth < 64 && k < lat__nbases(r); k++) {
        const lat__record *b = lat__base_of(r, k);
        for (size_t i = b->methods.n; i-- > 0;)
            if (b->methods.items[i]->name == name && inherited(b->methods.items[i]))
                return b->methods.items[i];
        lat__sym *m = base_member_sym(b, name, depth + 1);
        if (m)
            return m;
    }
    return NULL;
}

lat__sym *lat__find_member_sym(const lat__record *r, const lat__atom *name)
{
    for (size_t i = r->methods.n; i-- > 0;)
        if (r->methods.items[i]->name == name && !(r->methods.items[i]->flags & LAT_SF_CTOR))
            return r->methods.items[i];
    return base_member_sym(r, name, 0);
}

bool lat__empty_record(const lat__record *r)
{
    return r && r->complete && r->fields.n == 1 && r->fields.items[0].name &&
           strcmp(r->fields.items[0].name->name, "__lat_empty") == 0;
}

lat__sym *lat__find_ctor(const lat__record *r)
{
    for (size_t i = r->methods.n; i-- > 0;)
        if ((r->methods.items[i]->flags & LAT_SF_CTOR) && r->methods.items[i]->kind == LAT_SYM_FUNC)
            return r->methods.items[i];
    return NULL;
}

bool lat__at_constructor(lat__parser *p, const lat__record *r, size_t *skip)
{
    size_t k = 0;
    for (;; k++) {
        const lat__tok *t = lat__peek_at(p, k);
        if (t->kind != LAT_TK_IDENT || !t->atom->kw)
            break;
        lat__kw kw = (lat__kw)t->atom->kw;
        if (kw != LAT_KW_DEVICE && kw != LAT_KW_HOST && kw != LAT_KW_FORCEINLINE && kw != LAT_KW_INLINE &&
            kw != LAT_KW_EXPLICIT && kw != LAT_KW_CONSTEXPR && kw != LAT_KW_NOINLINE)
            break;
    }
    const lat__tok *t = lat__peek_at(p, k);
    *skip = k;
    return r->tag && t->kind == LAT_TK_IDENT && t->atom == r->tag &&
           lat__tok_is_punct(lat__peek_at(p, k + 1), LAT_P_LPAREN);
}

/* ---- declaring ------------------------------------------------------------------------------- */

typedef struct pending_body {
    lat__sym *f;       /* NULL: a friend function's definition */
    lat__record *rec;  /* the class it waits for */
    size_t at; /* the token after the parameter list (':' or '{'); a friend's first */
    lat__loc loc;
} pending_body;

/* Bodies wait in p->bodies for the class to be complete (a struct defined in another's
 * member declaration has its own at the end). */

/* The function type C sees for a member function returning ret with the parameters of t:
 * obj's pointer `this` first (*self receives its parameter) unless obj is NULL (a static
 * member function, a constructor). */
static lat__type *method_type(lat__parser *p, lat__type *ret, const lat__type *t, lat__type *obj, lat__loc loc,
                              lat__sym **self)
{
    lat__type *ft = lat__func_type(p->u, ret);
    int extra = obj ? 1 : 0;
    ft->params.n = t->params.n + extra;
    ft->params.variadic = t->params.variadic;
    ft->params.types = lat__arena_alloc(&p->u->arena, (size_t)(ft->params.n + 1) * sizeof(lat__type *));
    ft->params.syms = lat__arena_alloc(&p->u->arena, (size_t)(ft->params.n + 1) * sizeof(lat__sym *));
    if (t->params.defaults) {
        ft->params.defaults = lat__arena_alloc(&p->u->arena, (size_t)(ft->params.n + 1) * sizeof(lat__expr *));
        for (int i = 0; i < t->params.n; i++)
            ft->params.defaults[i + extra] = t->params.defaults[i];
    }
    if (obj) {
        lat__sym *ts = lat__sym_new(p, LAT_SYM_VAR, lat__atom_get(&p->u->atoms, "this", 4), loc);
        ts->type = lat__pointer_to(p->u, obj);
        ts->flags |= LAT_SF_PARAM;
        ts->emit_name = "__lat_this";
        ft->params.types[0] = ts->type;
        ft->params.syms[0] = ts;
        if (self)
            *self = ts;
    }
    for (int i = 0; i < t->params.n; i++) {
        ft->params.types[i + extra] = t->params.types[i];
        ft->params.syms[i + extra] = t->params.syms[i];
    }
    return ft;
}

void lat__skip_member(lat__parser *p)
{
    while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_SEMI) && !lat__at_punct(p, LAT_P_LBRACE) &&
           !lat__at_punct(p, LAT_P_RBRACE))
        lat__next(p);
    if (lat__at_punct(p, LAT_P_LBRACE))
        lat__skip_group(p);
    else
        lat__accept(p, LAT_P_SEMI);
}

void lat__member_function(lat__parser *p, lat__record *r, lat__type *t, lat__atom *name, lat__loc loc,
                          unsigned cuda, lat__storage storage, bool ctor)
{
    if (p->depth > 0) {
        lat__unsupported_at(p->u, loc, "a member function of a struct declared in a function",
                            "declare the struct at file scope");
        goto skip;
    }
    if (!r->tag) {
        lat__unsupported_at(p->u, loc, "a member function of an anonymous struct", "give the struct a name");
        goto skip;
    }
    bool is_static = storage == LAT_ST_STATIC;
    bool is_const = p->method_const, is_volatile = p->method_volatile;
    p->method_const = p->method_volatile = false;
    lat__type *obj = NULL;
    if (!ctor && !is_static) {
        obj = lat__record_type_of(p, r);
        if (is_const || is_volatile)
            obj = lat__qualified(p->u, obj, (is_const ? LAT_Q_CONST : 0) | (is_volatile ? LAT_Q_VOLATILE : 0));
    }
    lat__type *ft = method_type(p, ctor ? lat__record_type_of(p, r) : t->base, t, obj, loc, NULL);
    /* Overloads: the members of the same name. */
    lat__sym *older = ctor ? lat__find_ctor(r) : lat__find_method(r, name);
    lat__sym *templates = NULL; /* member templates of the name: calls choose among them and these */
    if (older && older->tmpl) {
        templates = older;
        older = lat__template_plain(older, NULL);
    }
    for (lat__sym *o = older; o; o = o->overloads)
        if (lat__same_parameters(o->type, ft)) {
            lat__error_at(p->u, loc, "'%s' declared twice in %s", name->name, lat__record_c_name(r));
            goto skip;
        }
    int n = 1;
    for (lat__sym *o = older; o; o = o->overloads)
        n++;
    for (size_t i = 0; i < r->methods.n; i++)
        if (r->methods.items[i]->kind != LAT_SYM_FUNC && r->methods.items[i]->name == name)
            lat__error_at(p->u, loc, "'%s' is a member of %s already", name->name, lat__record_c_name(r));
    lat__sym *f = lat__sym_new(p, LAT_SYM_FUNC, name, loc);
    f->type = ft;
    f->cuda = (uint16_t)cuda;
    f->storage = is_static ? LAT_ST_STATIC : LAT_ST_NONE;
    f->flags |= LAT_SF_METHOD | (ctor ? LAT_SF_CTOR : 0) | LAT_SF_FILE_SCOPE;
    f->depth = 0;
    f->rec = r;
    f->overloads = older;
    f->ns = p->ns;
    const char *base = ctor ? "ctor" : strncmp(name->name, "operator ", 9) == 0
                                           ? lat__arena_printf(&p->u->arena, "conv%zu", r->methods.n)
                                           : operator_word(name->name);
    f->emit_name = n > 1 ? lat__arena_printf(&p->u->arena, "%s__%s__lat_ov%d", lat__record_c_name(r), base, n)
                         : lat__arena_printf(&p->u->arena, "%s__%s", lat__record_c_name(r), base);
    if (p->ns)
        f->emit_name = lat__arena_printf(&p->u->arena, "%s%s", p->ns->prefix, f->emit_name);
    if (ctor)
        r->has_ctor = true;
    LAT_PUSH(&p->u->arena, r->methods, f);
    if (templates) {
        /* the templates stay what the name finds first; f joins their plain overloads */
        lat__templates_plain(templates, f);
        LAT_PUSH(&p->u->arena, r->methods, templates);
    }
    /* the body, or the initializer list and the body, waits for the class's end */
    size_t at = p->pos;
    if (ctor && lat__accept(p, LAT_P_COLON)) {
        /* : a(x), b{y}: step over it to the body */
        while (lat__accept(p, LAT_P_SCOPE), lat__peek(p)->kind == LAT_TK_IDENT) {
            lat__next(p);
            if (lat__accept(p, LAT_P_SCOPE))
                continue; /* ns::Base<T>(x) */
            if (lat__at_punct(p, LAT_P_LT))
                lat__skip_angles(p); /* a base class template's Base<T>(x) */
            if (lat__at_punct(p, LAT_P_LPAREN) || lat__at_punct(p, LAT_P_LBRACE))
                lat__skip_group(p);
            if (!lat__accept(p, LAT_P_COMMA))
                break;
        }
        if (!lat__at_punct(p, LAT_P_LBRACE)) {
            lat__syntax_error(p, "the constructor's body");
            return;
        }
    }
    if (lat__at_punct(p, LAT_P_LBRACE)) {
        pending_body *b = lat__arena_alloc(&p->u->arena, sizeof *b);
        b->f = f;
        b->rec = r;
        b->at = at;
        b->loc = loc;
        LAT_PUSH(&p->u->arena, p->bodies, b);
        lat__skip_group(p);
        return;
    }
    if (lat__accept(p, LAT_P_ASSIGN)) {
        /* = default, = delete, = 0 */
        lat__tok *w = lat__next(p);
        if (!(w->kind == LAT_TK_IDENT && (strcmp(w->atom->name, "default") == 0 || strcmp(w->atom->name, "delete") == 0)))
            lat__unsupported(p, w, "a pure virtual function", "virtual functions");
        r->methods.n--; /* declares nothing callable */
        if (ctor)
            r->has_ctor = lat__find_ctor(r) != NULL;
        if (ctor && strcmp(w->atom->name, "default") == 0 && t->params.n == 0)
            r->default_trivial = true; /* T() = default: T x; and T() make it as C does */
    }
    lat__expect(p, LAT_P_SEMI, "after the member function's declaration");
    return;
skip:
    lat__skip_member(p);
}

void lat__friend_definition(lat__parser *p, lat__record *r, size_t at)
{
    pending_body *b = lat__arena_alloc(&p->u->arena, sizeof *b);
    b->f = NULL;
    b->rec = r;
    b->at = at;
    b->loc = p->toks[at].loc;
    LAT_PUSH(&p->u->arena, p->bodies, b);
}

/* A friend function defined in its class: a function of the enclosing namespace, parsed
 * as one once the class is complete. */
static void friend_definition(lat__parser *p, const pending_body *b)
{
    if (p->depth > 0) {
        lat__unsupported_at(p->u, b->loc, "a friend function defined in a class made inside a function",
                            "define it outside the class");
        return;
    }
    bool in_record = p->in_record;
    p->in_record = false;
    p->pos = b->at;
    lat__func *fn = NULL;
    lat__decl_group *g = lat__parse_declaration(p, &fn);
    (void)g;
    if (fn) {
        lat__ext fx = {LAT_X_FUNC, NULL, fn};
        LAT_PUSH(&p->u->arena, p->pending, fx);
    }
    p->in_record = in_record;
}

void lat__class_bodies(lat__parser *p, lat__record *r)
{
    /* this record's bodies are the last ones kept with their function in r */
    size_t first = p->bodies.n;
    while (first > 0 && ((pending_body *)p->bodies.items[first - 1])->rec == r)
        first--;
    /* (the emitter declares every function before defining any: no prototypes here) */
    size_t end = p->bodies.n, resume = p->pos;
    for (size_t i = first; i < end; i++) {
        pending_body *b = p->bodies.items[i];
        if (!b->f) {
            friend_definition(p, b);
            continue;
        }
        p->pos = b->at;
        lat__func *fn = lat__define_function(p, b->f, b->loc);
        lat__ext fx = {LAT_X_FUNC, NULL, fn};
        LAT_PUSH(&p->u->arena, p->pending, fx);
    }
    p->bodies.n = first;
    p->pos = resume;
    p->panic = false;
}

/* ---- inside a member function ----------------------------------------------------------------- */

typedef struct lat__lambda {
    lat__record *rec;
    LAT_VEC(lat__sym *) init_syms;   /* init-captures ([n = e], [&r = x]): their names ... */
    LAT_VEC(lat__expr *) init_exprs; /* ... initializers, read where the lambda stands ... */
    LAT_VEC(bool) init_refs;         /* ... and whether each is a reference */
    bool by_ref;          /* [&] (else [=] or none) */
    bool implicit;        /* [&] or [=]: variables are captured as used */
    LAT_VEC(lat__sym *) named;    /* explicit captures ... */
    LAT_VEC(bool) named_ref;      /* ... each by reference? */
    LAT_VEC(lat__sym *) captured; /* what the body captured, in field order */
    LAT_VEC(bool) captured_ref;
    int depth;            /* the scope depth the lambda stands at: deeper names are its own */
    lat__sym *self;       /* its operator()'s this */
    lat__sym *outer_this; /* the enclosing member function's this (NULL: none, or a generic
                             lambda, whose body is read where it is unknown) */
    bool this_listed;     /* [this] */
    bool this_copy;       /* [*this]: a copy of the object, which `this` then points to */
} lat__lambda;

lat__expr *lat__this_expr(lat__parser *p, lat__loc loc)
{
    if (p->lambda && p->this_sym && p->lambda->outer_this == p->this_sym) {
        /* in a lambda's body, the enclosing member function's this: the captured copy */
        lat__expr *c = lat__lambda_capture(p, p->this_sym, loc);
        return c ? c : lat__error_expr(p, loc);
    }
    lat__expr *self = lat__expr_new(p, LAT_E_NAME, loc);
    self->sym = p->this_sym;
    self->type = p->this_sym->type;
    return self;
}

lat__expr *lat__member_name(lat__parser *p, lat__sym *member, lat__loc loc)
{
    lat__record *r = member->rec;
    lat__field *f = &r->fields.items[member->value];
    lat__expr *self = lat__this_expr(p, loc);
    if (self->flags & LAT_EF_ERROR)
        return self;
    const lat__record *own = p->this_sym->type->base->rec;
    if (own && own != r && lat__record_derived(own, r)) /* Base::x hidden by the class's own x */
        self = lat__base_pointer(p, self,
                                 lat__pointer_to(p->u, lat__qualified(p->u, lat__record_type_of(p, r),
                                                                      p->this_sym->type->base->quals)),
                                 true);
    lat__expr *m = lat__expr_new(p, LAT_E_MEMBER, loc);
    m->a = self;
    m->field = f;
    unsigned q = p->this_sym->type->base->quals;
    m->type = q ? lat__qualified(p->u, f->type, q) : f->type;
    m->flags |= LAT_EF_ARROW | LAT_EF_LVALUE;
    return lat__deref_reference(p, m); /* a reference member: what it refers to */
}

static lat__stmt *decl_stmt(lat__parser *p, lat__sym *v, lat__expr *init, lat__loc loc)
{
    lat__decl *d = lat__arena_alloc(&p->u->arena, sizeof *d);
    d->sym = v;
    d->init = init;
    d->loc = loc;
    v->def = d;
    lat__decl_group *g = lat__arena_alloc(&p->u->arena, sizeof *g);
    g->base = v->type;
    g->first = d;
    g->loc = loc;
    lat__stmt *s = lat__stmt_new(p, LAT_S_DECL, loc);
    s->decls = g;
    return s;
}

static lat__sym *local(lat__parser *p, const char *name, lat__type *t, lat__loc loc)
{
    lat__sym *v = lat__sym_new(p, LAT_SYM_VAR, lat__atom_get(&p->u->atoms, name, strlen(name)), loc);
    v->type = t;
    LAT_PUSH(&p->u->arena, p->fn->locals, v);
    return v;
}

static lat__expr *name_of(lat__parser *p, lat__sym *s, lat__loc loc)
{
    lat__expr *e = lat__expr_new(p, LAT_E_NAME, loc);
    e->sym = s;
    e->type = s->type;
    e->flags |= LAT_EF_LVALUE;
    return e;
}

/* The object a constructor (or the defaults function) builds: `T __lat_self = init;` (no
 * initializer when init is NULL) and `T *__lat_this = &__lat_self;` into `into`; this is
 * p->this_sym from here on. */
static lat__sym *declare_object(lat__parser *p, lat__record *r, lat__expr *init, lat__stmt *into, lat__loc loc)
{
    lat__type *obj = lat__record_type_of(p, r);
    lat__sym *self = local(p, "__lat_self", obj, loc);
    lat__sym *ts = local(p, "__lat_this", lat__pointer_to(p->u, obj), loc);
    ts->emit_name = "__lat_this";
    lat__expr *addr = lat__expr_new(p, LAT_E_UNARY, loc);
    addr->op = LAT_P_AMP;
    addr->a = name_of(p, self, loc);
    addr->type = ts->type;
    self->flags |= LAT_SF_ADDRESS_TAKEN;
    LAT_PUSH(&p->u->arena, into->items, decl_stmt(p, self, init, loc));
    LAT_PUSH(&p->u->arena, into->items, decl_stmt(p, ts, addr, loc));
    p->this_sym = ts;
    return self;
}

/* Whether `name` names a parameter of the function being parsed. */
static bool is_parameter(const lat__parser *p, const lat__atom *name)
{
    for (int i = 0; p->fn && i < p->fn->nparams; i++)
        if (p->fn->params[i] && p->fn->params[i]->name == name)
            return true;
    return false;
}

/* The member functions of r's bases (a base's base's first, hidden by the base's own): on
 * this, as the base. */
static void bind_base_methods(lat__parser *p, const lat__record *r, int depth)
{
    for (size_t k = lat__nbases(r); depth < 64 && k-- > 0;) {
        const lat__record *b = lat__base_of(r, k);
        bind_base_methods(p, b, depth + 1);
        for (size_t i = 0; i < b->methods.n; i++)
            if (!(b->methods.items[i]->flags & LAT_SF_CTOR) && !b->methods.items[i]->tmpl &&
                !is_parameter(p, b->methods.items[i]->name))
                lat__bind(p, b->methods.items[i]);
    }
}

/* The members of r by their plain names (fields through p->this_sym, when there is one),
 * and its member functions and static constants. */
static void bind_members(lat__parser *p, lat__record *r)
{
    if (p->this_sym) {
        for (size_t i = 0; i < r->fields.n; i++) {
            lat__field *fl = &r->fields.items[i];
            if (!fl->name || is_parameter(p, fl->name))
                continue; /* a parameter of the member's name hides it (`: mean(mean)`) */
            lat__sym *m = lat__sym_new(p, LAT_SYM_VAR, fl->name, fl->loc);
            m->type = fl->type;
            m->flags |= LAT_SF_MEMBER;
            m->rec = r;
            m->value = (int64_t)i;
            lat__bind(p, m);
        }
    }
    bind_base_methods(p, r, 0); /* a base's, hidden by r's own */
    for (size_t i = 0; i < r->methods.n; i++)
        if (!(r->methods.items[i]->flags & LAT_SF_CTOR) && !is_parameter(p, r->methods.items[i]->name))
            lat__bind(p, r->methods.items[i]);
}

/* dst[i] = list's i-th value (0 past its end) for each element of the array type t,
 * nested lists for the elements that are arrays; into `into`. */
static void assign_elements(lat__parser *p, lat__expr *dst, lat__type *t, lat__expr *list, lat__stmt *into,
                            lat__loc loc)
{
    lat__type *et = t->base;
    for (int64_t i = 0; i < t->count; i++) {
        lat__expr *v = list && i < (int64_t)list->items.n ? list->items.items[i].value : NULL;
        if (v && (list->items.items[i].desig || (et->kind == LAT_TY_ARRAY) != (v->kind == LAT_E_INIT) ||
                  (et->kind != LAT_TY_ARRAY && !lat__is_scalar(et)))) {
            lat__unsupported_at(p->u, v->loc,
                                "an array member's default initializer with designators, elided braces or "
                                "elements of a class",
                                "assign it in a constructor");
            return;
        }
        lat__expr *x = lat__expr_new(p, LAT_E_INDEX, loc);
        x->a = lat__cast_to(p, dst, lat__pointer_to(p->u, et), true);
        x->b = lat__int_constant(p, (int)i, loc);
        x->type = et;
        x->flags |= LAT_EF_LVALUE;
        if (et->kind == LAT_TY_ARRAY) {
            assign_elements(p, x, et, v, into, loc);
            continue;
        }
        lat__expr *as = lat__expr_new(p, LAT_E_ASSIGN, loc);
        as->op = LAT_P_ASSIGN;
        as->a = x;
        as->b = lat__convert_assign(p, v ? v : lat__zero(p, loc), et, "initializing member");
        as->type = lat__unqualified(p->u, et);
        lat__stmt *st = lat__stmt_new(p, LAT_S_EXPR, loc);
        st->e = as;
        LAT_PUSH(&p->u->arena, into->items, st);
    }
}

static lat__stmt *assign_member(lat__parser *p, lat__record *r, int fi, lat__expr *value, lat__loc loc)
{
    lat__sym tmp = {0};
    tmp.rec = r;
    tmp.value = fi;
    lat__expr *as = lat__expr_new(p, LAT_E_ASSIGN, loc);
    as->op = LAT_P_ASSIGN;
    as->a = lat__member_name(p, &tmp, loc);
    lat__type *ft = r->fields.items[fi].type;
    if (lat__is_pointer(ft) && ft->ref) {
        as->a = as->a->a; /* a reference member is bound, the address it holds set */
    } else if (ft->quals & LAT_Q_CONST) {
        /* Initialising a const member is no assignment in C++; in C it writes through a
         * pointer without the const: *(T *)&this->a = value. */
        lat__type *plain = lat__unqualified(p->u, ft);
        lat__expr *to = lat__cast_to(p, lat__address_of_object(p, as->a), lat__pointer_to(p->u, plain), false);
        lat__expr *d = lat__expr_new(p, LAT_E_UNARY, loc);
        d->op = LAT_P_STAR;
        d->a = to;
        d->type = plain;
        d->flags |= LAT_EF_LVALUE;
        as->a = d;
    }
    if (ft->kind == LAT_TY_ARRAY) {
        /* an array member from its default initializer's list, element by element (C
         * assigns no arrays) */
        lat__stmt *st = lat__stmt_new(p, LAT_S_COMPOUND, loc);
        assign_elements(p, as->a, ft, value->a, st, loc);
        return st;
    }
    as->b = value;
    as->type = lat__unqualified(p->u, r->fields.items[fi].type);
    as->flags |= value->flags & LAT_EF_ERROR;
    lat__stmt *st = lat__stmt_new(p, LAT_S_EXPR, loc);
    st->e = as;
    return st;
}

/* The value a member of type ft gets from `(args)` or `{args}` (argc of them), as in a
 * constructor's list or a braced default member initializer; NULL after reporting. */
static lat__expr *member_value(lat__parser *p, lat__type *ft, lat__expr **argv, size_t argc, const lat__tok *open,
                               const char *name)
{
    if (lat__is_pointer(ft) && ft->ref) {
        if (argc == 1)
            return lat__bind_reference(p, argv[0], ft, "binding the reference member");
        lat__error_tok(p, open, "the reference member '%s' takes one value to refer to", name);
        return NULL;
    }
    if (lat__is_record(ft) && ft->rec && (ft->rec->has_ctor || argc != 1))
        return lat__construct(p, ft, argv, (int)argc, open->loc);
    if (argc == 1)
        return lat__convert_assign(p, argv[0], ft, "initializing member");
    if (argc == 0)
        return lat__construct(p, ft, NULL, 0, open->loc);
    lat__error_tok(p, open, "%d values for the member '%s'", (int)argc, name);
    return NULL;
}

typedef struct param_search {
    const lat__func *fn;
    bool found;
} param_search;

static bool param_named(lat__visitor *v, lat__expr *e)
{
    param_search *ps = v->data;
    if (e->kind == LAT_E_NAME && e->sym)
        for (int i = 0; i < ps->fn->nparams; i++)
            if (ps->fn->params[i] == e->sym)
                ps->found = true;
    return !ps->found;
}

/* Whether e names a parameter of fn. */
static bool names_a_parameter(const lat__func *fn, lat__expr *e)
{
    param_search ps = {fn, false};
    lat__visitor v = {.expr = param_named, .data = &ps};
    lat__visit_expr(&v, e);
    return ps.found;
}

/* The value of field fi's default member initializer, parsed from its tokens where the
 * members are in sight; NULL when it has none (or after reporting). */
static lat__expr *default_member_value(lat__parser *p, lat__record *r, int fi)
{
    lat__field *f = &r->fields.items[fi];
    if (!f->init_at)
        return NULL;
    size_t resume = p->pos;
    p->pos = f->init_at;
    lat__expr *value = NULL;
    if (f->type->kind == LAT_TY_ARRAY) {
        /* float acc[4] = {}; int bins[3]{1, 2}: the braced list as a compound literal of
         * the array's type, which assign_member copies */
        lat__accept(p, LAT_P_ASSIGN);
        if (!lat__at_punct(p, LAT_P_LBRACE)) {
            p->pos = resume;
            lat__unsupported_at(p->u, f->loc, "a default member initializer of an array other than a braced list",
                                "assign it in a constructor");
            return NULL;
        }
        lat__tok *open = lat__peek(p);
        lat__type *t = f->type;
        value = lat__expr_new(p, LAT_E_COMPOUND, open->loc);
        value->a = lat__parse_initializer(p, &t);
        value->to = value->type = t;
        value->flags |= LAT_EF_LVALUE | (value->a->flags & LAT_EF_ERROR);
    } else if (lat__accept(p, LAT_P_ASSIGN) && !lat__at_punct(p, LAT_P_LBRACE)) {
        value = lat__convert_assign(p, lat__parse_assign_expr(p), f->type, "initializing member");
    } else {
        lat__tok *open = lat__next(p); /* { */
        lat__expr **argv;
        size_t argc = lat__parse_arguments(p, LAT_P_RBRACE, "to close the member's initializer", &argv);
        value = member_value(p, f->type, argv, argc, open, f->name ? f->name->name : "");
    }
    p->pos = resume;
    p->panic = false;
    if (value && p->fn && names_a_parameter(p->fn, value)) {
        /* C++ reads the initializer in the class's scope, where a constructor's
         * parameters are not; here they would hide what it names. */
        lat__unsupported_at(p->u, f->loc, "a default member initializer naming a variable that a constructor's parameter hides",
                            "rename the parameter");
        return NULL;
    }
    return value;
}

/* The constructor of r that takes no arguments (all of its parameters defaulted), or NULL. */
lat__sym *lat__default_ctor(const lat__record *r)
{
    for (size_t i = 0; i < r->methods.n; i++) {
        lat__sym *c = r->methods.items[i];
        if (!(c->flags & LAT_SF_CTOR) || c->kind != LAT_SYM_FUNC)
            continue;
        const lat__param_types *pt = &c->type->params;
        bool all = true;
        for (int k = 0; k < pt->n && all; k++)
            all = pt->defaults && pt->defaults[k];
        if (all)
            return c;
    }
    return NULL;
}

/* Whether constructor c does anything: `T() {}` with no member to initialise does not
 * (its prologue declares the object and `this`, then the empty body and the return);
 * one defined after this point is taken to. */
static bool ctor_does_something(const lat__sym *c)
{
    const lat__stmt *b = c->fn ? c->fn->body : NULL;
    return !b || b->kind != LAT_S_COMPOUND || b->items.n != 4 || b->items.items[2]->kind != LAT_S_COMPOUND ||
           b->items.items[2]->items.n != 0;
}

/* Whether default-initialising an object of type t runs code: a class with default member
 * initializers (its own or its members'), or whose default constructor does something. */
bool lat__initialised_by_default(const lat__type *t)
{
    if (!lat__is_record(t) || !t->rec)
        return false;
    if (t->rec->has_ctor) {
        const lat__sym *c = lat__default_ctor(t->rec);
        return c && ctor_does_something(c);
    }
    return t->rec->defaults != NULL;
}

/* The value a member that the initialization leaves out takes: its default member
 * initializer's, or its class's default initialization; NULL when C++ leaves it as it is. */
static lat__expr *member_default(lat__parser *p, lat__record *r, int fi, lat__loc loc)
{
    lat__field *f = &r->fields.items[fi];
    if (f->init_at)
        return default_member_value(p, r, fi);
    if (f->type->kind != LAT_TY_ARRAY && lat__initialised_by_default(f->type))
        return lat__construct(p, f->type, NULL, 0, loc);
    return NULL;
}

/* A constructor's member initializers, `: a(x), b{y, z}`, as assignments to this->a...
 * in the members' order, as C++ runs them; a member the list leaves out takes its default
 * member initializer, where it has one. */
/* *(Base *)this = value: the base subobject at the object's start, made by the base's
 * constructor. */
static lat__stmt *assign_base(lat__parser *p, lat__record *base, lat__expr *value, lat__loc loc)
{
    lat__type *bt = lat__record_type_of(p, base);
    lat__expr *self = lat__this_expr(p, loc);
    lat__expr *d = lat__expr_new(p, LAT_E_UNARY, loc);
    d->op = LAT_P_STAR;
    d->a = lat__base_pointer(p, self, lat__pointer_to(p->u, bt), true);
    d->type = bt;
    d->flags |= LAT_EF_LVALUE;
    lat__expr *as = lat__expr_new(p, LAT_E_ASSIGN, loc);
    as->op = LAT_P_ASSIGN;
    as->a = d;
    as->b = value;
    as->type = bt;
    as->flags |= value->flags & LAT_EF_ERROR;
    lat__stmt *st = lat__stmt_new(p, LAT_S_EXPR, loc);
    st->e = as;
    return st;
}

/* r's i-th base, when it has data (its subobject is made by the constructor), and the
 * range of r's fields that are its members. */
static lat__record *data_base(const lat__record *r, size_t i, size_t *from, size_t *to)
{
    lat__record *b = lat__base_of(r, i);
    if (!r->nbase_fields || lat__empty_record(b))
        return NULL;
    *from = r->bases.n ? r->base_fields_at.items[i] : 0;
    *to = r->bases.n ? *from + b->fields.n : r->nbase_fields;
    return b;
}

static void member_initializers(lat__parser *p, lat__record *r, lat__stmt *into)
{
    lat__stmt **by_field = lat__arena_alloc(&p->u->arena, (r->fields.n + 1) * sizeof *by_field);
    size_t nb = lat__nbases(r), from, to;
    lat__stmt **base_init = lat__arena_alloc(&p->u->arena, (nb + 1) * sizeof *base_init);
    if (lat__accept(p, LAT_P_COLON)) {
        for (;;) {
            lat__accept(p, LAT_P_SCOPE);
            lat__tok *n = lat__next(p);
            while (n->kind == LAT_TK_IDENT && lat__accept(p, LAT_P_SCOPE))
                n = lat__next(p); /* a base named with its namespace, detail::Base<T>(x) */
            if (n->kind != LAT_TK_IDENT) {
                lat__syntax_error(p, "a member's name in the initializer list");
                break;
            }
            lat__record *base = NULL;
            size_t bi = 0;
            for (size_t i = 0; !base && i < nb; i++)
                if (n->atom == lat__base_of(r, i)->tag) {
                    base = lat__base_of(r, i);
                    bi = i;
                }
            if (base && lat__at_punct(p, LAT_P_LT))
                lat__skip_angles(p); /* Base<T>(args) */
            if (base && (lat__at_punct(p, LAT_P_LPAREN) || lat__at_punct(p, LAT_P_LBRACE))) {
                bool br = lat__at_punct(p, LAT_P_LBRACE);
                lat__next(p);
                lat__expr **argv;
                size_t argc = lat__parse_arguments(p, br ? LAT_P_RBRACE : LAT_P_RPAREN,
                                                   "to close the base's initializer", &argv);
                if (!data_base(r, bi, &from, &to)) {
                    /* a base without data (tuple<>(), a tag): made for its checks, kept nowhere */
                    lat__stmt *st = lat__stmt_new(p, LAT_S_EXPR, n->loc);
                    st->e = lat__construct(p, lat__record_type_of(p, base), argv, (int)argc, n->loc);
                    LAT_PUSH(&p->u->arena, into->items, st);
                } else if (base_init[bi])
                    lat__error_tok(p, n, "the base class '%s' initialized twice", n->atom->name);
                else
                    base_init[bi] = assign_base(p, base, lat__construct(p, lat__record_type_of(p, base), argv,
                                                                        (int)argc, n->loc),
                                                n->loc);
                if (!lat__accept(p, LAT_P_COMMA))
                    break;
                continue;
            }
            bool brace = lat__at_punct(p, LAT_P_LBRACE);
            if (!brace && !lat__at_punct(p, LAT_P_LPAREN)) {
                lat__syntax_error(p, "'(' after the member's name");
                break;
            }
            lat__tok *open = lat__next(p);
            lat__expr **argv;
            size_t argc = lat__parse_arguments(p, brace ? LAT_P_RBRACE : LAT_P_RPAREN,
                                               "to close the member's initializer", &argv);
            int fi = -1;
            for (size_t i = 0; i < r->fields.n; i++)
                if (r->fields.items[i].name == n->atom)
                    fi = (int)i;
            if (fi < 0) {
                lat__error_tok(p, n, "%s has no member named '%s'", lat__record_c_name(r), n->atom->name);
            } else if (by_field[fi]) {
                lat__error_tok(p, n, "the member '%s' initialized twice", n->atom->name);
            } else {
                lat__type *ft = r->fields.items[fi].type;
                if (ft->kind == LAT_TY_ARRAY && brace) {
                    /* : v{a, b}, v{}: the elements in order, the rest zero, as a default
                     * member initializer's list is made */
                    lat__expr *list = lat__expr_new(p, LAT_E_INIT, open->loc);
                    list->type = ft;
                    for (size_t i = 0; i < argc; i++) {
                        lat__init_item it = {argv[i], NULL};
                        LAT_PUSH(&p->u->arena, list->items, it);
                    }
                    lat__expr *cl = lat__expr_new(p, LAT_E_COMPOUND, open->loc);
                    cl->a = list;
                    cl->to = cl->type = ft;
                    if ((int64_t)argc > ft->count)
                        lat__error_tok(p, open, "%d values for the member '%s' of %lld elements", (int)argc,
                                       n->atom->name, (long long)ft->count);
                    else
                        by_field[fi] = assign_member(p, r, fi, cl, n->loc);
                    if (!lat__accept(p, LAT_P_COMMA))
                        break;
                    continue;
                }
                lat__expr *value = member_value(p, ft, argv, argc, open, n->atom->name);
                if (value && ft->kind != LAT_TY_ARRAY)
                    by_field[fi] = assign_member(p, r, fi, value, n->loc);
                else if (value)
                    lat__unsupported(p, n, "initializing an array member in a constructor's list",
                                     "assign it in the body");
            }
            if (!lat__accept(p, LAT_P_COMMA))
                break;
        }
    }
    /* the bases in order, then the members, as C++ runs them; a base the list does not
     * name runs its default constructor, or takes its members' defaults */
    bool *made = lat__arena_alloc(&p->u->arena, (r->fields.n + 1) * sizeof *made);
    for (size_t i = 0; i < nb; i++) {
        lat__record *base = data_base(r, i, &from, &to);
        if (!base)
            continue;
        if (!base_init[i] && base->has_ctor) {
            if (!lat__default_ctor(base))
                lat__error_at(p->u, into->loc,
                              "the base class '%s' has no default constructor: initialise it in the list",
                              lat__record_c_name(base));
            else
                base_init[i] = assign_base(p, base, lat__construct(p, lat__record_type_of(p, base), NULL, 0, into->loc),
                                           into->loc);
        }
        if (base_init[i]) {
            LAT_PUSH(&p->u->arena, into->items, base_init[i]);
            for (size_t f = from; f < to; f++)
                made[f] = true;
        }
    }
    for (size_t i = 0; i < r->fields.n; i++) {
        if (made[i])
            continue;
        lat__stmt *st = by_field[i];
        if (!st) {
            lat__expr *value = member_default(p, r, (int)i, into->loc);
            st = value ? assign_member(p, r, (int)i, value, into->loc) : NULL;
        }
        if (st)
            LAT_PUSH(&p->u->arena, into->items, st);
    }
}

/* ---- default member initializers ------------------------------------------------------- */

static bool needs_defaults(lat__parser *p, lat__record *r)
{
    bool any = false;
    for (size_t i = 0; i < r->fields.n; i++) {
        lat__field *f = &r->fields.items[i];
        lat__type *t = f->type;
        while (t->kind == LAT_TY_ARRAY)
            t = t->base;
        bool of_class = lat__initialised_by_default(t);
        if (of_class && f->type->kind == LAT_TY_ARRAY) {
            lat__unsupported_at(p->u, f->loc,
                                "an array member of a class whose default initialization runs code (default member "
                                "initializers, or a constructor that does something)",
                                "initialise its elements in a constructor");
            continue;
        }
        any |= f->init_at || of_class;
    }
    return any;
}

static lat__sym *param(lat__parser *p, const char *name, lat__type *t, lat__loc loc)
{
    lat__sym *v = lat__sym_new(p, LAT_SYM_VAR, lat__atom_get(&p->u->atoms, name, strlen(name)), loc);
    v->type = t;
    v->flags |= LAT_SF_PARAM;
    return v;
}

void lat__class_defaults(lat__parser *p, lat__record *r)
{
    if (!needs_defaults(p, r))
        return;
    if (!r->tag || p->depth > 0) {
        lat__unsupported_at(p->u, r->loc,
                            !r->tag ? "a default member initializer in an anonymous struct"
                                    : "a default member initializer in a struct declared in a function",
                            !r->tag ? "give the struct a name" : "declare the struct at file scope");
        return;
    }
    /* T T__lat_defaults(T __lat_init, int __lat_given) */
    lat__type *obj = lat__record_type_of(p, r);
    lat__type *ft = lat__func_type(p->u, obj);
    ft->params.n = 2;
    ft->params.types = lat__arena_alloc(&p->u->arena, 3 * sizeof(lat__type *));
    ft->params.syms = lat__arena_alloc(&p->u->arena, 3 * sizeof(lat__sym *));
    lat__sym *init = param(p, "__lat_init", obj, r->loc), *given = param(p, "__lat_given", &lat__ty_int, r->loc);
    ft->params.types[0] = obj;
    ft->params.types[1] = &lat__ty_int;
    ft->params.syms[0] = init;
    ft->params.syms[1] = given;
    lat__sym *f = lat__sym_new(p, LAT_SYM_FUNC, lat__atom_get(&p->u->atoms, "__lat_defaults", 14), r->loc);
    f->type = ft;
    f->cuda = LAT_CU_DEVICE | LAT_CU_HOST;
    f->flags |= LAT_SF_FILE_SCOPE | LAT_SF_DEFINED;
    f->depth = 0;
    f->rec = r;
    f->ns = p->ns;
    f->emit_name = lat__arena_printf(&p->u->arena, "%s%s__lat_defaults", p->ns ? p->ns->prefix : "",
                                     lat__record_c_name(r));
    r->defaults = f;
    lat__func *fn = lat__arena_alloc(&p->u->arena, sizeof *fn);
    fn->sym = f;
    fn->loc = r->loc;
    fn->end = r->loc;
    fn->nparams = 2;
    fn->params = ft->params.syms;
    f->fn = fn;

    lat__func *outer_fn = p->fn;
    lat__sym *outer_this = p->this_sym, *outer_self = p->ctor_self;
    p->fn = fn;
    lat__scope_open(p);
    for (int i = 0; i < 2; i++) {
        fn->params[i]->depth = p->depth;
        lat__bind(p, fn->params[i]);
    }
    lat__scope_open(p);
    lat__stmt *body = lat__stmt_new(p, LAT_S_COMPOUND, r->loc);
    body->end = r->loc;
    lat__sym *self = declare_object(p, r, lat__rvalue(p, name_of(p, init, r->loc)), body, r->loc);
    p->ctor_self = NULL;
    bind_members(p, r);
    /* in the members' order: an initializer may read the members before it */
    for (size_t i = 0; i < r->fields.n; i++) {
        lat__expr *value = member_default(p, r, (int)i, r->fields.items[i].loc);
        if (!value)
            continue;
        lat__stmt *st = lat__stmt_new(p, LAT_S_IF, r->fields.items[i].loc);
        lat__expr *cond = lat__expr_new(p, LAT_E_BINARY, r->fields.items[i].loc);
        cond->op = LAT_P_LE;
        cond->a = lat__rvalue(p, name_of(p, given, r->fields.items[i].loc));
        cond->b = lat__int_constant(p, (int)i, r->fields.items[i].loc);
        cond->type = &lat__ty_int;
        st->e = cond;
        st->body = assign_member(p, r, (int)i, value, r->fields.items[i].loc);
        LAT_PUSH(&p->u->arena, body->items, st);
    }
    lat__stmt *ret = lat__stmt_new(p, LAT_S_RETURN, r->loc);
    ret->e = lat__rvalue(p, name_of(p, self, r->loc));
    LAT_PUSH(&p->u->arena, body->items, ret);
    fn->body = body;
    lat__scope_close(p);
    lat__scope_close(p);
    p->fn = outer_fn;
    p->this_sym = outer_this;
    p->ctor_self = outer_self;
    lat__ext fx = {LAT_X_FUNC, NULL, fn};
    LAT_PUSH(&p->u->arena, p->pending, fx);
}

lat__stmt *lat__method_prologue(lat__parser *p, lat__func *fn)
{
    lat__sym *f = fn->sym;
    lat__record *r = f->rec;
    lat__stmt *pro = lat__stmt_new(p, LAT_S_COMPOUND, fn->loc);
    p->this_sym = NULL;
    p->ctor_self = NULL;
    if (f->flags & LAT_SF_CTOR) {
        p->ctor_self = declare_object(p, r, NULL, pro, fn->loc);
    } else if (f->storage != LAT_ST_STATIC) {
        p->this_sym = fn->params[0];
    }
    bind_members(p, r);
    if (f->flags & LAT_SF_CTOR)
        member_initializers(p, r, pro);
    return pro;
}

lat__stmt *lat__method_epilogue(lat__parser *p, lat__func *fn, lat__stmt *prologue)
{
    if (!(fn->sym->flags & LAT_SF_CTOR))
        return fn->body;
    lat__stmt *body = prologue;
    if (fn->body) {
        LAT_PUSH(&p->u->arena, body->items, fn->body);
        body->end = fn->body->end;
    }
    lat__stmt *ret = lat__stmt_new(p, LAT_S_RETURN, body->end);
    ret->e = name_of(p, p->ctor_self, body->end);
    LAT_PUSH(&p->u->arena, body->items, ret);
    return body;
}

/* ---- construction ---------------------------------------------------------------------------- */

bool lat__copy_ctor_declared(lat__record *r)
{
    for (lat__sym *c = lat__find_ctor(r); c; c = c->overloads) {
        const lat__param_types *ps = &c->type->params;
        if (ps->n < 1 || (ps->n > 1 && !(ps->defaults && ps->defaults[1])))
            continue;
        const lat__type *t = ps->types[0];
        if (t->kind == LAT_TY_PTR && t->ref)
            t = t->base;
        if (lat__is_record(t) && t->rec == r)
            return true;
    }
    return false;
}

lat__expr *lat__construct(lat__parser *p, lat__type *t, lat__expr **args, int nargs, lat__loc loc)
{
    lat__record *r = lat__is_record(t) ? t->rec : NULL;
    if (r && nargs == 1 && lat__is_record(args[0]->type) && args[0]->type->rec && args[0]->type->rec != r &&
        lat__derived_from(args[0]->type, t) && !lat__copy_ctor_declared(r))
        args[0] = lat__convert_assign(p, args[0], t, "initializing"); /* B b(d): d's base subobject, by
                                                                          the implicit copy */
    /* The implicit copy (C++ declares one unless the program does), and the defaulted
     * default constructor: as for a class without constructors, below. */
    bool copy = r && nargs == 1 && lat__is_record(args[0]->type) && args[0]->type->rec == r;
    bool implicit = r && ((copy && !lat__copy_ctor_declared(r)) || (nargs == 0 && r->default_trivial));
    if (r && r->has_ctor && !implicit) {
        lat__sym *c = lat__find_ctor(r);
        lat__expr *fn = lat__expr_new(p, LAT_E_NAME, loc);
        fn->sym = c;
        fn->type = c->type;
        return lat__make_call(p, fn, args, nargs, loc);
    }
    if (!r) {
        /* a scalar: T(x), T{x}, T() */
        if (nargs == 1)
            return lat__convert_assign(p, args[0], t, "initializing");
        if (nargs == 0)
            return lat__cast_to(p, lat__zero(p, loc), t, false);
        lat__error_at(p->u, loc, "%d values for a %s", nargs, lat__type_str(p->u, t, NULL, false));
        return lat__error_expr(p, loc);
    }
    if (nargs == 1 && lat__is_record(args[0]->type) && args[0]->type->rec == r)
        return lat__rvalue(p, args[0]); /* a copy */
    /* an aggregate without constructors: (T){args}, members in order */
    lat__expr *init = lat__expr_new(p, LAT_E_INIT, loc);
    init->type = t;
    if (nargs > (int)r->fields.n) {
        lat__error_at(p->u, loc, "%d values for %s, which has %d members", nargs,
                      lat__type_str(p->u, t, NULL, false), (int)r->fields.n);
        init->flags |= LAT_EF_ERROR;
    }
    for (int i = 0; i < nargs && i < (int)r->fields.n; i++) {
        lat__init_item it = {lat__convert_assign(p, args[i], r->fields.items[i].type, "initializing member"), NULL};
        LAT_PUSH(&p->u->arena, init->items, it);
    }
    return lat__aggregate_object(p, t, init, loc);
}

lat__expr *lat__aggregate_object(lat__parser *p, lat__type *t, lat__expr *list, lat__loc loc)
{
    lat__record *r = t->rec;
    int given = (int)list->items.n;
    if (!given) {
        lat__init_item it = {lat__zero(p, loc), NULL};
        LAT_PUSH(&p->u->arena, list->items, it);
    }
    lat__expr *c = lat__expr_new(p, LAT_E_COMPOUND, loc);
    c->a = list;
    c->to = lat__unqualified(p->u, t);
    c->type = c->to;
    c->flags |= list->flags & LAT_EF_ERROR;
    if (!r->defaults || given >= (int)r->fields.n)
        return c;
    /* the members the list leaves out: r's defaults function */
    lat__expr *fn = lat__expr_new(p, LAT_E_NAME, loc);
    fn->sym = r->defaults;
    fn->type = r->defaults->type;
    lat__expr **argv = lat__arena_alloc(&p->u->arena, 2 * sizeof *argv);
    argv[0] = c;
    argv[1] = lat__int_constant(p, given, loc);
    return lat__make_call(p, fn, argv, 2, loc);
}

/* ---- operators -------------------------------------------------------------------------------- */

/* C++'s built-in operators are candidates too: for `h * 2.0f` with a half, the built-in
 * float * float (h through operator float) and operator*(half, half) (2.0f through
 * half's constructor) each convert one operand, and neither is better: NVCC refuses the
 * call as ambiguous, and so does the emulator rather than pick one. True when reported. */
static bool ambiguous_with_builtin(lat__parser *p, const char *op, lat__sym *set, lat__expr **args, int nargs,
                                   lat__expr *a, lat__expr *b, lat__loc loc)
{
    size_t l = strlen(op);
    bool assigns = l >= 1 && op[l - 1] == '=' && strcmp(op, "==") != 0 && strcmp(op, "!=") != 0 &&
                   strcmp(op, "<=") != 0 && strcmp(op, ">=") != 0;
    if (!b || assigns || strcmp(op, "[]") == 0 || strcmp(op, "()") == 0 || strcmp(op, ",") == 0)
        return false;
    lat__expr *operands[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        lat__type *t = operands[i]->type;
        if (!lat__is_arith(t) && !(lat__is_record(t) && lat__conversion_operator(p, operands[i], &lat__ty_float)))
            return false;
    }
    if (lat__fewest_user_conversions(p, set, args, nargs) <= 0)
        return false;
    lat__error_at(p->u, loc,
                  "'%s' between %s and %s is ambiguous: the built-in %s (through a conversion operator) and "
                  "operator%s (through a constructor) fit equally well; convert one operand yourself",
                  op, lat__type_str(p->u, a->type, NULL, false), lat__type_str(p->u, b->type, NULL, false), op, op);
    return true;
}

lat__expr *lat__operator_call(lat__parser *p, const char *op, lat__expr *a, lat__expr *b, lat__loc loc)
{
    char name[32];
    snprintf(name, sizeof name, "operator%s", op);
    lat__atom *atom = lat__atom_get(&p->u->atoms, name, strlen(name));
    lat__type *ta = a->type;
    /* a member operator of a's class: a.operator+(b) */
    if (lat__is_record(ta) && ta->rec) {
        lat__expr *self = lat__address_of_object(p, a);
        lat__sym *m = lat__method_of(p, ta->rec, atom, &self, loc);
        if (m && m->tmpl) { /* template <class Int> T &operator[](const Int (&idx)[N]) */
            lat__expr **argv = lat__arena_alloc(&p->u->arena, 2 * sizeof *argv);
            argv[0] = b;
            return lat__member_template_call_parsed(p, m, self, argv, b ? 1 : 0, loc);
        }
        if (m) {
            lat__expr *args[2] = {self, b};
            lat__expr *fn = lat__expr_new(p, LAT_E_NAME, loc);
            fn->sym = m;
            fn->type = m->type;
            lat__expr **argv = lat__arena_alloc(&p->u->arena, sizeof args);
            memcpy(argv, args, sizeof args);
            if (ambiguous_with_builtin(p, op, m, argv, b ? 2 : 1, a, b, loc))
                return lat__error_expr(p, loc);
            return lat__make_call(p, fn, argv, b ? 2 : 1, loc);
        }
    }
    /* a free operator function: the one in scope, or one of the operands' namespaces; in a
     * member function its class's own operators are in scope by name but are no
     * candidates for another class's operands (C++ looks up the non-member candidates
     * ignoring members: `temp += x` of __half2s in a vector class's operator+=) */
    lat__sym *f = atom->sym;
    while (f && f->kind == LAT_SYM_FUNC && (f->flags & (LAT_SF_METHOD | LAT_SF_MEMBER)))
        f = f->shadow;
    if (f && f->kind != LAT_SYM_FUNC)
        f = NULL;
    lat__expr **argv = lat__arena_alloc(&p->u->arena, 2 * sizeof *argv);
    argv[0] = a;
    argv[1] = b;
    bool refused;
    f = lat__adl_choose(p, atom, f, argv, b ? 2 : 1, loc, &refused);
    if (refused)
        return lat__error_expr(p, loc);
    if (!f)
        return NULL;
    if (f->tmpl)
        return lat__template_call_parsed(p, f, loc, argv, b ? 2 : 1, loc);
    lat__expr *fn = lat__expr_new(p, LAT_E_NAME, loc);
    fn->sym = f;
    fn->type = f->type;
    if (ambiguous_with_builtin(p, op, f, argv, b ? 2 : 1, a, b, loc))
        return lat__error_expr(p, loc);
    return lat__make_call(p, fn, argv, b ? 2 : 1, loc);
}

lat__sym *lat__conversion_operator(lat__parser *p, lat__expr *e, lat__type *t)
{
    lat__record *r = e->type->rec;
    if (!r)
        return NULL;
    lat__sym *best = NULL;
    for (size_t i = r->methods.n; i-- > 0;) {
        lat__sym *m = r->methods.items[i];
        if (strncmp(m->name->name, "operator ", 9) != 0)
            continue;
        lat__type *to = m->type->base;
        bool fits = t->kind == LAT_TY_PTR && to->kind == LAT_TY_PTR
                        ? lat__type_compatible(lat__unqualified(p->u, t->base), lat__unqualified(p->u, to->base), true) &&
                              !(to->base->quals & ~t->base->quals & (LAT_Q_CONST | LAT_Q_VOLATILE))
                        : lat__type_compatible(lat__unqualified(p->u, t), lat__unqualified(p->u, to), true);
        /* a const object takes a const member function */
        bool usable = !(e->type->quals & LAT_Q_CONST) || (m->type->params.types[0]->base->quals & LAT_Q_CONST);
        if (fits && usable && (!best || (to->kind == LAT_TY_PTR && !(to->base->quals & LAT_Q_CONST))))
            best = m;
        if (!best && usable && lat__is_arith(t) && lat__is_arith(to))
            best = m;
    }
    return best;
}

lat__expr *lat__convert_object(lat__parser *p, lat__expr *e, lat__type *t)
{
    lat__sym *best = lat__conversion_operator(p, e, t);
    if (!best && lat__is_record(e->type) && e->type->rec && lat__nbases(e->type->rec) == 1 &&
        (e->flags & LAT_EF_LVALUE)) {
        /* a single base's conversion operator, on the base subobject */
        lat__record *r = e->type->rec;
        lat__type *bt = lat__qualified(p->u, lat__record_type_of(p, r->bases.n ? r->bases.items[0] : r->base),
                                       e->type->quals);
        lat__expr *obj = lat__expr_new(p, LAT_E_UNARY, e->loc);
        obj->op = LAT_P_STAR;
        obj->a = lat__base_pointer(p, lat__address_of_object(p, e), lat__pointer_to(p->u, bt), true);
        obj->type = bt;
        obj->flags |= LAT_EF_LVALUE;
        return lat__convert_object(p, obj, t);
    }
    if (!best)
        return NULL;
    lat__expr *fn = lat__expr_new(p, LAT_E_NAME, e->loc);
    fn->sym = best;
    fn->type = best->type;
    lat__expr **argv = lat__arena_alloc(&p->u->arena, sizeof *argv);
    argv[0] = lat__address_of_object(p, e);
    return lat__make_call(p, fn, argv, 1, e->loc);
}

lat__sym *lat__match_member(lat__parser *p, lat__record *r, lat__type *t, lat__atom *name, lat__loc loc)
{
    bool ctor = name == r->tag;
    for (size_t i = 0; i < r->methods.n; i++) {
        lat__sym *m = r->methods.items[i];
        if (m->kind != LAT_SYM_FUNC || (ctor ? !(m->flags & LAT_SF_CTOR) : m->name != name || (m->flags & LAT_SF_CTOR)))
            continue;
        /* its parameters without this */
        int skip = ctor || m->storage == LAT_ST_STATIC ? 0 : 1;
        const lat__param_types *mp = &m->type->params;
        if (mp->n - skip != t->params.n || mp->variadic != t->params.variadic)
            continue;
        bool same = true;
        for (int k = 0; k < t->params.n && same; k++)
            same = lat__type_compatible(mp->types[k + skip], t->params.types[k], true) &&
                   !(mp->types[k + skip]->kind == LAT_TY_PTR && mp->types[k + skip]->ref != t->params.types[k]->ref);
        if (!same)
            continue;
        if (skip && (!(mp->types[0]->base->quals & LAT_Q_CONST) != !p->method_const ||
                     !(mp->types[0]->base->quals & LAT_Q_VOLATILE) != !p->method_volatile))
            continue;
        /* the parameters' names of the definition */
        for (int k = 0; k < t->params.n; k++)
            mp->syms[k + skip] = t->params.syms[k];
        return m;
    }
    lat__error_at(p->u, loc, "%s declares no member function '%s' of these parameters", lat__record_c_name(r), name->name);
    return NULL;
}

/* ---- lambdas ---------------------------------------------------------------------------------- */


/* lat__type.count of the return type until a return gives it: auto's, decltype(auto)'s */
enum { LAMBDA_RETURN = -3, DECLTYPE_RETURN = -5 };

bool lat__is_lambda_return_placeholder(const lat__type *t)
{
    return t->kind == LAT_TY_VOID && (t->count == LAMBDA_RETURN || t->count == DECLTYPE_RETURN);
}

bool lat__is_decltype_return_placeholder(const lat__type *t)
{
    return t->kind == LAT_TY_VOID && t->count == DECLTYPE_RETURN;
}

lat__type *lat__deduced_return(lat__parser *p)
{
    return lat__marker_type(p->u, LAMBDA_RETURN);
}

lat__type *lat__deduced_decltype_return(lat__parser *p)
{
    return lat__marker_type(p->u, DECLTYPE_RETURN);
}

lat__expr *lat__lambda_capture(lat__parser *p, lat__sym *s, lat__loc loc)
{
    lat__lambda *l = p->lambda;
    if (l && s->kind == LAT_SYM_VAR && (s->flags & LAT_SF_MEMBER) && l->outer_this)
        return NULL; /* this->m, this captured (lat__this_expr) */
    if (l && s->kind == LAT_SYM_VAR && (s->flags & LAT_SF_MEMBER)) {
        lat__unsupported_at(p->u, loc, "a class member named in a lambda (capturing this, or a generic lambda's capture)",
                            "a lattice limit: copy it to a local variable first");
        return NULL;
    }
    if (l && s->kind == LAT_SYM_VAR && !(s->flags & LAT_SF_FILE_SCOPE) && s->depth > 0 && s->depth <= l->depth &&
        !(s->cuda & LAT_CU_SHARED) && s->storage == LAT_ST_STATIC) {
        /* C++ names it without a capture; the lambda's body is a function of its own here,
         * where the enclosing function's static is out of sight */
        lat__unsupported_at(p->u, loc, "a static local variable of the enclosing function named in a lambda",
                            "a lattice limit: declare it at file scope");
        return NULL;
    }
    if (!l || s->kind != LAT_SYM_VAR || (s->flags & LAT_SF_FILE_SCOPE) || s->depth > l->depth || s->depth == 0 ||
        (s->cuda & LAT_CU_SHARED) || (s->storage == LAT_ST_STATIC))
        return NULL;
    int field = -1;
    for (size_t i = 0; i < l->captured.n; i++)
        if (l->captured.items[i] == s)
            field = (int)i;
    if (field < 0) {
        bool ref = l->by_ref && s != l->outer_this, listed = s == l->outer_this && l->this_listed;
        for (size_t i = 0; i < l->named.n; i++)
            if (l->named.items[i] == s) {
                ref = l->named_ref.items[i];
                listed = true;
            }
        if (!listed && !l->implicit && s == l->outer_this) {
            lat__error_at(p->u, loc, "'this' is not captured by the lambda (write [this], [&] or [=])");
            return NULL;
        }
        if (!listed && !l->implicit && (s->type->quals & (LAT_Q_CONST | LAT_Q_VOLATILE)) == LAT_Q_CONST &&
            lat__is_integer(s->type) && s->def && s->def->init && (s->def->init->flags & LAT_EF_CONST) &&
            s->def->init->kind != LAT_E_INIT) {
            /* constexpr int K = 4; [](int j) { return K * j; }: reading a constant is no
             * use that needs a capture (C++'s odr-use), so it is its value */
            lat__expr *c = lat__int_constant(p, 0, loc);
            c->ival = s->def->init->ival;
            c->text = lat__arena_printf(&p->u->arena, "%lld", (long long)c->ival);
            c->len = strlen(c->text);
            c->type = lat__unqualified(p->u, s->type);
            return c;
        }
        if (!listed && !l->implicit) {
            lat__error_at(p->u, loc, "'%s' is not captured by the lambda (write [&] or [=], or name it)",
                          s->name->name);
            return NULL;
        }
        lat__type *vt = s->type->kind == LAT_TY_PTR && s->type->ref ? s->type->base : s->type;
        if (s == l->outer_this && l->this_copy)
            vt = s->type->base; /* [*this]: the object itself */
        lat__field f = {s->name, ref ? lat__pointer_to(p->u, vt) : lat__unqualified(p->u, vt), loc, 0, -1, 0};
        if (vt->kind == LAT_TY_ARRAY && !ref) {
            lat__unsupported_at(p->u, loc, "an array captured by value", "capture it by reference");
            return NULL;
        }
        LAT_PUSH(&p->u->arena, l->rec->fields, f);
        LAT_PUSH(&p->u->arena, l->captured, s);
        LAT_PUSH(&p->u->arena, l->captured_ref, ref);
        field = (int)l->captured.n - 1;
    }
    lat__expr *self = lat__expr_new(p, LAT_E_NAME, loc);
    self->sym = l->self;
    self->type = l->self->type;
    lat__expr *m = lat__expr_new(p, LAT_E_MEMBER, loc);
    m->a = self;
    m->field = &l->rec->fields.items[field];
    m->type = m->field->type;
    m->flags |= LAT_EF_ARROW | LAT_EF_LVALUE;
    if (s == l->outer_this && l->this_copy) {
        /* [*this]: this is the copy's address, as the enclosing function's this is typed */
        lat__expr *a = lat__address_of_object(p, m);
        a->type = lat__pointer_to(p->u, lat__qualified(p->u, m->type, s->type->base->quals));
        return a;
    }
    if (!l->captured_ref.items[field])
        return m;
    lat__expr *d = lat__expr_new(p, LAT_E_UNARY, loc);
    d->op = LAT_P_STAR;
    d->a = m;
    d->type = m->type->base;
    d->flags |= LAT_EF_LVALUE;
    return d;
}

static lat__expr *lambda_object(lat__parser *p, const lat__lambda *l, lat__type *rt, const lat__tok *open);

/* Whether the parameter list at p's '(' declares a parameter auto: a generic lambda. */
static bool generic_params(lat__parser *p)
{
    if (!lat__at_punct(p, LAT_P_LPAREN))
        return false;
    int depth = 0;
    for (size_t i = p->pos; i < p->ntoks && p->toks[i].kind != LAT_TK_EOF; i++) {
        const lat__tok *t = &p->toks[i];
        if (lat__tok_is_punct(t, LAT_P_LPAREN))
            depth++;
        else if (lat__tok_is_punct(t, LAT_P_RPAREN) && --depth == 0)
            return false;
        else if (depth == 1 && lat__tok_kw(t, LAT_KW_AUTO))
            return true;
    }
    return false;
}

static lat__tok word_tok(lat__parser *p, const lat__tok *at, const char *w)
{
    lat__tok t = *at;
    t.kind = LAT_TK_IDENT;
    t.atom = lat__atom_get(&p->u->atoms, w, strlen(w));
    t.text = t.atom->name;
    t.len = (uint32_t)strlen(w);
    t.hide = NULL;
    return t;
}

static lat__tok punct_tok(const lat__tok *at, lat__punct pu)
{
    lat__tok t = *at;
    t.kind = LAT_TK_PUNCT;
    t.punct = (uint8_t)pu;
    t.text = lat__punct_spelling(pu);
    t.len = (uint32_t)strlen(t.text);
    t.atom = NULL;
    t.hide = NULL;
    return t;
}

static void add_capture(lat__parser *p, lat__lambda *l, lat__sym *s, bool ref, lat__loc loc)
{
    for (size_t i = 0; i < l->captured.n; i++)
        if (l->captured.items[i] == s)
            return;
    lat__type *vt = s->type->kind == LAT_TY_PTR && s->type->ref ? s->type->base : s->type;
    lat__field f = {s->name, ref ? lat__reference_to(p->u, vt) : lat__unqualified(p->u, vt), loc, 0, -1, 0};
    LAT_PUSH(&p->u->arena, l->rec->fields, f);
    LAT_PUSH(&p->u->arena, l->captured, s);
    LAT_PUSH(&p->u->arena, l->captured_ref, ref);
}

/* [caps](auto a, const auto &b) {...} at its '(': a class whose operator() is a member
 * template (template <typename __lat_auto0, ...> auto operator()(__lat_auto0 a, ...)),
 * made for each call's argument types as a functor's is. Its body is read only then, so
 * [&] and [=] capture every variable of the enclosing function in sight (a field of the
 * variable's name, a reference for [&]; [=] leaves arrays out), which the body sees as
 * the class's members. */
static lat__expr *generic_lambda(lat__parser *p, lat__lambda *l, lat__tok *open)
{
    lat__record *r = lat__new_record(p, NULL, open->loc);
    l->rec = r;
    lat__type *rt = lat__record_type_of(p, r);
    r->emit_tag = lat__arena_printf(&p->u->arena, "__lat_lambda%d", ++p->anon);
    r->tag = lat__atom_get(&p->u->atoms, r->emit_tag, strlen(r->emit_tag)); /* its instances' class */
    for (size_t i = 0; i < l->named.n; i++) {
        lat__sym *s = l->named.items[i];
        lat__type *vt = s->type->kind == LAT_TY_PTR && s->type->ref ? s->type->base : s->type;
        if (vt->kind == LAT_TY_ARRAY && !l->named_ref.items[i]) {
            lat__unsupported_at(p->u, open->loc, "an array captured by value", "capture it by reference");
            continue;
        }
        add_capture(p, l, s, l->named_ref.items[i], open->loc);
    }
    for (size_t i = 0; l->implicit && i < p->bound.n; i++) {
        lat__sym *s = p->bound.items[i];
        if (s->kind != LAT_SYM_VAR || !s->name || s->name->sym != s || s->depth == 0 || s->depth > l->depth ||
            (s->flags & (LAT_SF_FILE_SCOPE | LAT_SF_MEMBER)) || (!l->by_ref && (s->cuda & LAT_CU_SHARED)) ||
            s->storage == LAT_ST_STATIC || !s->type || s->type->kind == LAT_TY_VOID ||
            s->type->kind == LAT_TY_FUNC)
            continue;
        lat__type *vt = s->type->kind == LAT_TY_PTR && s->type->ref ? s->type->base : s->type;
        if (vt->kind == LAT_TY_VOID || (vt->kind == LAT_TY_ARRAY && !l->by_ref))
            continue;
        add_capture(p, l, s, l->by_ref, open->loc);
    }
    if (!r->fields.n) {
        lat__field e = {lat__atom_get(&p->u->atoms, "__lat_empty", 11), &lat__ty_char, open->loc, 0, -1, 0};
        LAT_PUSH(&p->u->arena, r->fields, e);
    }
    r->complete = true;
    lat__record_layout(r);
    rt->size = r->size;
    rt->align = r->align;
    /* the member template's tokens */
    size_t from = p->pos, end = p->pos;
    int depth = 0;
    for (; end < p->ntoks && p->toks[end].kind != LAT_TK_EOF; end++)
        if (lat__tok_is_punct(&p->toks[end], LAT_P_LPAREN))
            depth++;
        else if (lat__tok_is_punct(&p->toks[end], LAT_P_RPAREN) && --depth == 0)
            break;
    size_t cap = 5 * (end - from) + 64, n = 0;
    lat__tok *toks = lat__arena_alloc(&p->u->arena, cap * sizeof *toks);
    toks[n++] = word_tok(p, open, "template");
    toks[n++] = punct_tok(open, LAT_P_LT);
    int k = 0;
    for (size_t i = from; i < end; i++)
        if (lat__tok_kw(&p->toks[i], LAT_KW_AUTO)) {
            if (k)
                toks[n++] = punct_tok(open, LAT_P_COMMA);
            toks[n++] = word_tok(p, open, "typename");
            if (lat__tok_is_punct(&p->toks[i + 1], LAT_P_ELLIPSIS))
                toks[n++] = punct_tok(open, LAT_P_ELLIPSIS);
            char name[32];
            snprintf(name, sizeof name, "__lat_auto%d", k++);
            toks[n++] = word_tok(p, open, name);
        }
    toks[n++] = punct_tok(open, LAT_P_GT);
    toks[n++] = word_tok(p, open, "__device__");
    toks[n++] = word_tok(p, open, "auto");
    toks[n++] = word_tok(p, open, "operator");
    toks[n++] = punct_tok(open, LAT_P_LPAREN);
    toks[n++] = punct_tok(open, LAT_P_RPAREN);
    k = 0;
    for (size_t i = from; i <= end && i < p->ntoks; i++) {
        lat__tok t = p->toks[i];
        if (lat__tok_kw(&t, LAT_KW_AUTO)) {
            char name[32];
            snprintf(name, sizeof name, "__lat_auto%d", k++);
            t = word_tok(p, &p->toks[i], name);
        }
        toks[n++] = t;
    }
    p->pos = end;
    lat__expect(p, LAT_P_RPAREN, "to close the lambda's parameters");
    bool is_mutable = false;
    while (lat__at_kw(p, LAT_KW_MUTABLE) || lat__at_kw(p, LAT_KW_NOEXCEPT) || lat__at_kw(p, LAT_KW_DEVICE))
        is_mutable |= lat__tok_kw(lat__next(p), LAT_KW_MUTABLE);
    if (!is_mutable)
        toks[n++] = word_tok(p, open, "const");
    size_t body = p->pos;
    depth = 0;
    for (; p->pos < p->ntoks && p->toks[p->pos].kind != LAT_TK_EOF; p->pos++) {
        const lat__tok *t = &p->toks[p->pos];
        if (lat__tok_is_punct(t, LAT_P_LBRACE))
            depth++;
        else if (lat__tok_is_punct(t, LAT_P_RBRACE) && --depth == 0) {
            p->pos++;
            break;
        }
    }
    if (depth != 0 || p->pos == body) {
        lat__syntax_error(p, "the lambda's body");
        return lat__error_expr(p, open->loc);
    }
    size_t more = p->pos - body + 1;
    if (n + more > cap) {
        lat__tok *bigger = lat__arena_alloc(&p->u->arena, (n + more) * sizeof *toks);
        memcpy(bigger, toks, n * sizeof *toks);
        toks = bigger;
    }
    memcpy(toks + n, p->toks + body, (p->pos - body) * sizeof *toks);
    n += p->pos - body;
    toks[n] = p->toks[p->ntoks - 1]; /* the end of file */
    toks[n].kind = LAT_TK_EOF;
    n++;
    if (p->this_sym) {
        /* its body is read where the member function's this is unknown */
        for (size_t i = 0; i < n; i++) {
            const lat__tok *t = &toks[i];
            const lat__sym *s = t->kind == LAT_TK_IDENT ? t->atom->sym : NULL;
            if (lat__tok_kw(t, LAT_KW_THIS) || (s && s->kind == LAT_SYM_VAR && (s->flags & LAT_SF_MEMBER)) ||
                (s && s->kind == LAT_SYM_FUNC && (s->flags & LAT_SF_METHOD) && s->storage != LAT_ST_STATIC &&
                 !(s->flags & LAT_SF_CTOR))) {
                lat__unsupported_at(p->u, t->loc, "a generic lambda naming a member of the class whose member "
                                                  "function it is in (capturing this)",
                                    "a lattice limit: give its parameters types, or copy the member to a local");
                return lat__error_expr(p, open->loc);
            }
        }
    }
    if (!lat__member_template_from(p, r, toks, n))
        return lat__error_expr(p, open->loc);
    return lambda_object(p, l, rt, open);
}

lat__expr *lat__parse_lambda(lat__parser *p)
{
    lat__tok *open = lat__next(p); /* [ */
    if (!p->fn) {
        lat__unsupported(p, open, "a lambda outside a function", "a lattice limit");
        lat__skip_statement(p);
        return lat__error_expr(p, open->loc);
    }
    lat__lambda *l = lat__arena_alloc(&p->u->arena, sizeof *l);
    l->depth = p->depth;
    while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_RBRACKET)) {
        bool amp = lat__accept(p, LAT_P_AMP);
        lat__tok *c = lat__peek(p);
        if (c->kind == LAT_TK_IDENT && !c->atom->kw &&
            (lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_ASSIGN) || lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_LBRACE) ||
             lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_LPAREN))) {
            /* an init-capture ([n = e], [&r = x], [v{e}]): a member of its own made from e
             * where the lambda stands */
            lat__next(p);
            lat__expr *e;
            if (lat__accept(p, LAT_P_ASSIGN)) {
                e = lat__parse_assign_expr(p);
            } else {
                lat__punct close = lat__at_punct(p, LAT_P_LBRACE) ? LAT_P_RBRACE : LAT_P_RPAREN;
                lat__next(p);
                e = lat__parse_assign_expr(p);
                lat__expect(p, close, "to close the init-capture");
            }
            if (!(e->flags & LAT_EF_ERROR) && amp && !(e->flags & LAT_EF_LVALUE)) {
                lat__error_tok(p, c, "the init-capture '&%s' binds a reference to something that is not an lvalue",
                               c->atom->name);
                e = lat__error_expr(p, e->loc);
            }
            lat__sym *s = lat__sym_new(p, LAT_SYM_VAR, c->atom, c->loc);
            s->type = e->flags & LAT_EF_ERROR ? &lat__ty_int
                      : amp                   ? lat__reference_to(p->u, e->type)
                                              : lat__unqualified(p->u, lat__rvalue(p, e)->type);
            s->depth = p->depth;
            LAT_PUSH(&p->u->arena, l->init_syms, s);
            LAT_PUSH(&p->u->arena, l->init_exprs, e);
            LAT_PUSH(&p->u->arena, l->init_refs, amp);
            LAT_PUSH(&p->u->arena, l->named, s);
            LAT_PUSH(&p->u->arena, l->named_ref, amp);
        } else if (c->kind == LAT_TK_IDENT && !c->atom->kw) {
            lat__next(p);
            lat__sym *s = lat__lookup(p, c->atom);
            if (!s || s->kind != LAT_SYM_VAR || s->depth == 0)
                lat__error_tok(p, c, "'%s' is not a local variable to capture", c->atom->name);
            else {
                LAT_PUSH(&p->u->arena, l->named, s);
                LAT_PUSH(&p->u->arena, l->named_ref, amp);
            }
        } else if (amp) {
            l->implicit = l->by_ref = true;
        } else if (lat__accept(p, LAT_P_ASSIGN)) {
            l->implicit = true;
        } else if (lat__tok_kw(c, LAT_KW_THIS)) {
            if (!p->this_sym)
                lat__error_tok(p, c, "'this' captured outside a member function");
            l->this_listed = true;
            lat__next(p);
        } else if (lat__at_punct(p, LAT_P_STAR) && lat__tok_kw(lat__peek_at(p, 1), LAT_KW_THIS)) {
            /* [*this] (C++17; Kokkos' KOKKOS_CLASS_LAMBDA is [=, *this]) */
            if (!p->this_sym)
                lat__error_tok(p, c, "'*this' captured outside a member function");
            l->this_listed = l->this_copy = true;
            lat__next(p);
            lat__next(p);
        } else {
            lat__syntax_error(p, "a capture");
            break;
        }
        if (!lat__accept(p, LAT_P_COMMA))
            break;
    }
    lat__expect(p, LAT_P_RBRACKET, "to close the lambda's captures");
    while (lat__at_kw(p, LAT_KW_DEVICE) || lat__at_kw(p, LAT_KW_HOST) || lat__at_kw(p, LAT_KW_MUTABLE))
        lat__next(p); /* [=] __device__ (...): an extended lambda */
    if (generic_params(p)) {
        if (l->init_syms.n) {
            lat__unsupported(p, open, "an init-capture ([b = a * 3], C++14) of a generic lambda",
                             "a lattice limit: declare the variable before the lambda and capture it");
            lat__skip_statement(p);
            return lat__error_expr(p, open->loc);
        }
        if (p->lambda) {
            /* its body is read where the enclosing lambda's captures are out of sight */
            lat__unsupported(p, open, "a generic lambda inside a lambda",
                             "a lattice limit: give its parameters types");
            lat__skip_statement(p);
            return lat__error_expr(p, open->loc);
        }
        if (l->this_listed)
            lat__unsupported(p, open, "capturing this in a generic lambda", "a lattice limit: give its parameters types");
        return generic_lambda(p, l, open);
    }
    l->outer_this = p->this_sym;
    /* its type: a struct of its own, with operator() */
    lat__record *r = lat__new_record(p, NULL, open->loc);
    l->rec = r;
    for (size_t i = 0; i < l->init_syms.n; i++) /* members whether the body names them or not */
        add_capture(p, l, l->init_syms.items[i], l->init_refs.items[i], open->loc);
    lat__type *rt = lat__record_type_of(p, r);
    lat__type *ret = lat__deduced_return(p);
    lat__lambda *outer = p->lambda;
    p->lambda = l;
    lat__type *t = lat__func_type(p->u, ret);
    if (lat__at_punct(p, LAT_P_LPAREN))
        t = lat__parse_param_list(p, ret);
    bool is_mutable = false;
    while (lat__at_kw(p, LAT_KW_MUTABLE) || lat__at_kw(p, LAT_KW_NOEXCEPT) || lat__at_kw(p, LAT_KW_DEVICE))
        is_mutable |= lat__tok_kw(lat__next(p), LAT_KW_MUTABLE);
    if (lat__accept(p, LAT_P_ARROW)) {
        lat__type *given = lat__parse_type_name(p);
        if (given)
            t->base = given;
    }
    /* operator()(this, params), const unless the lambda is mutable, as C++ has it: a
     * const functor (`const F &f; f(i)`, Kokkos' and Thrust's way) calls it without
     * dropping the qualifier (TinyCC warned of it in the user's name). */
    lat__atom *name = lat__atom_get(&p->u->atoms, "operator()", 10);
    lat__type *ft = method_type(p, t->base, t, is_mutable ? rt : lat__qualified(p->u, rt, LAT_Q_CONST),
                                open->loc, &l->self);
    lat__sym *f = lat__sym_new(p, LAT_SYM_FUNC, name, open->loc);
    f->type = ft;
    f->cuda = LAT_CU_DEVICE;
    f->flags |= LAT_SF_FILE_SCOPE | LAT_SF_DEFINED;
    f->depth = 0;
    f->rec = r;
    r->emit_tag = lat__arena_printf(&p->u->arena, "__lat_lambda%d", ++p->anon);
    f->emit_name = lat__arena_printf(&p->u->arena, "%s__call", r->emit_tag);
    /* the body: a function of its own, parsed here, in sight of the enclosing scopes */
    lat__func *fn = lat__arena_alloc(&p->u->arena, sizeof *fn);
    fn->sym = f;
    fn->loc = open->loc;
    fn->nparams = ft->params.n;
    fn->params = ft->params.syms;
    f->fn = fn;
    lat__func *outer_fn = p->fn;
    lat__sym *outer_this = p->this_sym, *outer_self = p->ctor_self;
    size_t njumps = p->jumps.n;
    size_t ngotos = p->gotos.n; /* the lambda's own gotos follow the enclosing ones' */
    p->jumps.n = 0;
    p->fn = fn;
    /* `this` stays the enclosing member function's, used through its capture
     * (lat__this_expr) */
    p->ctor_self = NULL;
    lat__scope_open(p);
    for (int i = 1; i < fn->nparams; i++) {
        lat__sym *ps = fn->params[i];
        if (ps && ps->name) {
            ps->depth = p->depth;
            ps->flags &= ~(uint32_t)LAT_SF_FILE_SCOPE;
            lat__bind(p, ps);
        }
    }
    for (size_t i = 0; i < l->init_syms.n; i++) {
        /* the init-captures' names, seen in the body only, as the lambda's captures */
        lat__sym *v = l->init_syms.items[i];
        lat__bind(p, v);
        v->depth = l->depth;
    }
    if (lat__at_punct(p, LAT_P_LBRACE))
        fn->body = lat__parse_compound(p);
    else
        lat__syntax_error(p, "the lambda's body");
    lat__scope_close(p);
    fn->end = fn->body ? fn->body->end : open->loc;
    p->fn = outer_fn;
    p->this_sym = outer_this;
    p->ctor_self = outer_self;
    p->jumps.n = njumps;
    p->gotos.n = ngotos;
    p->lambda = outer;
    if (lat__is_lambda_return_placeholder(ft->base))
        ft->base = &lat__ty_void; /* no return with a value */
    /* the captures' layout, then the function, then the object */
    if (!r->fields.n) {
        lat__field e = {lat__atom_get(&p->u->atoms, "__lat_empty", 11), &lat__ty_char, open->loc, 0, -1, 0};
        LAT_PUSH(&p->u->arena, r->fields, e);
    }
    r->complete = true;
    lat__record_layout(r);
    rt->size = r->size;
    rt->align = r->align;
    LAT_PUSH(&p->u->arena, r->methods, f);
    lat__ext x = {LAT_X_FUNC, NULL, fn};
    LAT_PUSH(&p->u->arena, p->tu->items, x);
    lat__note_call(p, f);
    return lambda_object(p, l, rt, open);
}

/* The lambda's object: its captures' values (addresses for those by reference). */
static lat__expr *lambda_object(lat__parser *p, const lat__lambda *l, lat__type *rt, const lat__tok *open)
{
    lat__expr *init = lat__expr_new(p, LAT_E_INIT, open->loc);
    init->type = rt;
    for (size_t i = 0; i < l->captured.n; i++) {
        lat__sym *v = l->captured.items[i];
        lat__expr *given = NULL;
        for (size_t k = 0; k < l->init_syms.n; k++)
            if (l->init_syms.items[k] == v)
                given = l->init_exprs.items[k];
        if (given) {
            /* an init-capture: its initializer, or what a reference one refers to */
            lat__expr *value = l->captured_ref.items[i] ? lat__address_of_object(p, given) : lat__rvalue(p, given);
            lat__init_item it = {value, NULL};
            LAT_PUSH(&p->u->arena, init->items, it);
            continue;
        }
        if (v == l->outer_this && l->this_copy) {
            /* [*this]: a copy of the object this points to where the lambda stands */
            lat__expr *self = lat__this_expr(p, open->loc);
            lat__expr *obj = lat__expr_new(p, LAT_E_UNARY, open->loc);
            obj->op = LAT_P_STAR;
            obj->a = self;
            obj->type = self->type->kind == LAT_TY_PTR ? self->type->base : self->type;
            obj->flags |= LAT_EF_LVALUE | (self->flags & LAT_EF_ERROR);
            lat__init_item it = {lat__rvalue(p, obj), NULL};
            LAT_PUSH(&p->u->arena, init->items, it);
            continue;
        }
        /* in an enclosing lambda's body, a variable from outside it is that lambda's
         * capture (captured there now if it was not yet) */
        lat__expr *n = p->lambda ? lat__lambda_capture(p, v, open->loc) : NULL;
        if (!n) {
            n = lat__expr_new(p, LAT_E_NAME, open->loc);
            n->sym = v;
            n->type = v->type;
            n->flags |= LAT_EF_LVALUE;
            n = lat__deref_reference(p, n);
        }
        lat__expr *value = l->captured_ref.items[i] ? lat__address_of_object(p, n) : lat__rvalue(p, n);
        lat__init_item it = {value, NULL};
        LAT_PUSH(&p->u->arena, init->items, it);
    }
    if (!l->captured.n) {
        lat__init_item it = {lat__zero(p, open->loc), NULL};
        LAT_PUSH(&p->u->arena, init->items, it);
    }
    lat__expr *c = lat__expr_new(p, LAT_E_COMPOUND, open->loc);
    c->a = init;
    c->to = rt;
    c->type = rt;
    return c;
}
