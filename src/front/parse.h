/*
 * The parser's insides, shared by its files: parse.c (tokens, scopes, errors, the unit),
 * parse_decl.c (declarations, types, initializers, functions), parse_stmt.c (statements)
 * and parse_expr.c (expressions, with their types and conversions; constants folded).
 * It is a recursive-descent parser over the preprocessed tokens with the semantic
 * actions inline: names are resolved as they are read (C needs that to tell a type name
 * from a variable), so every node it returns is typed.
 *
 * Errors: each is reported once at its place; after a syntax error the parser skips to
 * the end of the statement or declaration and goes on, so that every error is found.
 */
#ifndef LAT_FRONT_PARSE_H
#define LAT_FRONT_PARSE_H

#include "ast.h"
#include "builtins.h"
#include "type.h"

#include <setjmp.h>

/* The deepest nesting of expressions, statements and declarators (and of the operands of
 * one chain of binary operators) the front end accepts. Every later pass, and TinyCC,
 * walks the tree recursively on the compiling thread's stack: 13,500 parentheses or
 * 60,000 terms of a sum overflowed it. C asks for 63 levels of parentheses and 127 of
 * blocks; GCC, Clang and NVRTC take far more, but no real kernel comes near this. */
#define LAT_PARSE_MAX_NEST 1024

/* A C++ namespace (or an enum class's scope): its members are bound by their plain names
 * while it is open, found by qualified names (ns::name) after, and emitted under names
 * with its prefix. */
typedef struct lat__template lat__template; /* parse_template.c's */

typedef struct lat__ns {
    lat__atom *name; /* NULL: anonymous */
    struct lat__ns *parent;
    LAT_VEC(lat__sym *) members;
    LAT_VEC(struct lat__ns *) children;
    const char *prefix; /* "outer__inner__" */
    bool scoped_enum;   /* enum class E: its enumerators */
    bool is_std;        /* std, when the program declares none: names fall back to built-ins */
    struct lat__ns *alias_of; /* namespace a = b;: b */
    bool is_inline;           /* inline namespace v1 {: its members are its parent's too */
    LAT_VEC(lat__sym *) using_decls; /* using c10::Half; in it: at::Half names c10's */
} lat__ns;

typedef struct lat__parser {
    lat__unit *u;
    lat__tu *tu;
    lat__tok *toks;
    size_t ntoks, pos;
    const char **pragma_at; /* per token index: a #pragma just before it, or NULL */
    int depth;              /* scope depth: 0 file scope */
    LAT_VEC(lat__sym *) bound; /* every binding made, innermost last */
    LAT_VEC(size_t) marks;     /* bound.n at the start of each open scope */
    lat__func *fn;             /* the function being parsed */
    LAT_VEC(lat__stmt *) jumps; /* open loops and switches, innermost last */
    LAT_VEC(lat__stmt *) gotos; /* this function's gotos, resolved at its end */
    bool panic;       /* a syntax error: quiet until the next recovery point */
    bool in_builtin;  /* parsing a built-in's declaration */
    bool in_record;   /* parsing a struct or union body */
    /* The alignment and packing written just after a declarator's name (a member's
     * `int a __attribute__((aligned(16)))`), for the member that reads them. */
    unsigned decl_align;
    bool decl_packed;
    bool in_params;   /* parsing a parameter list */
    int anon;         /* names for anonymous records */
    lat__ns *ns;      /* the open namespace; NULL: the global one */
    lat__sym *this_sym;  /* in a member function: its this parameter */
    lat__sym *ctor_self; /* in a constructor: the object it builds (returned) */
    bool method_const;   /* the parameter list just read was followed by const */
    bool in_member_ptr;  /* reading R (C::*)(A...): a const after the list is the type's */
    int unevaluated;     /* inside decltype(...): what is never run may be named */
    bool method_volatile; /* ... by volatile (a member function of volatile objects) */
    LAT_VEC(lat__ext) pending; /* member functions of a struct just defined, to follow it */
    LAT_VEC(void *) bodies;    /* member function bodies waiting for their class's end */
    bool half_gt;              /* the first '>' of a '>>' closed a template's arguments */
    struct lat__template *inst_of; /* the class template being instantiated (its name in
                                      its body means the instance) */
    lat__type *inst_type;          /* ... and the instance's type, once made */
    const char *inst_tag;          /* ... and the instance's C name */
    lat__type *conv_type;          /* the type of the conversion operator just declared */
    lat__record *decl_class;       /* the class of a declarator's S:: (a member defined outside) */
    struct lat__lambda *lambda;    /* the lambda whose body is being parsed (parse_class.c) */
    /* Nesting of expressions, statements and declarators being parsed, and where the
     * parse stops when it goes past LAT_PARSE_MAX_NEST (NULL: no limit is kept). */
    int nest;
    jmp_buf *stop;
    struct lat__sym *inst_fn;      /* the function template being instantiated: its name
                                      means the template again once the instance is
                                      declared (recursion: fact<N - 1>()) */
    size_t inst_index;             /* ... and the instance's index */
    bool instantiating;            /* parsing a template's instance: its names join no
                                      namespace (the template is what they find) */
    struct lat__record *defer_for; /* parsing a class template's instance whose arguments
                                      name this class, not complete yet (struct D : B<D>):
                                      its member functions' bodies wait for it */
    bool deferred;                 /* ... and they were kept waiting */
    LAT_VEC(void *) waiting;       /* instances' bodies waiting for a class this parser is
                                      defining (parse_template.c's) */
    struct lat__record *member_class; /* parsing a member template's instance: its class (a
                                         class template's instance: the template's name
                                         alone means it) */
    bool specialization;           /* parsing a function template's explicit specialization:
                                      the declarator's name has its arguments, f<float> */
    LAT_VEC(lat__ns *) top_ns; /* the global namespace's children */
    const lat__tok *gt_stop;   /* while a template's value argument is read: the '>' that
                                  closes its list (NULL: none) */
    LAT_VEC(lat__ns *) used_ns; /* namespaces named by `using namespace` so far: their
                                   children are found by name too (wmma:: after `using
                                   namespace nvcuda;`) */
} lat__parser;

/* ---- parse.c ---------------------------------------------------------------------------- */

static inline lat__tok *lat__peek(lat__parser *p)
{
    return &p->toks[p->pos];
}
static inline lat__tok *lat__peek_at(lat__parser *p, size_t k)
{
    size_t i = p->pos + k;
    return &p->toks[i < p->ntoks ? i : p->ntoks];
}
static inline lat__tok *lat__next(lat__parser *p)
{
    lat__tok *t = &p->toks[p->pos];
    if (p->pos < p->ntoks)
        p->pos++;
    return t;
}
static inline bool lat__at_punct(lat__parser *p, lat__punct x)
{
    return lat__tok_is_punct(lat__peek(p), x);
}
static inline bool lat__tok_kw(const lat__tok *t, lat__kw kw)
{
    return t->kind == LAT_TK_IDENT && t->atom->kw == kw;
}
static inline bool lat__at_kw(lat__parser *p, lat__kw kw)
{
    return lat__tok_kw(lat__peek(p), kw);
}
static inline bool lat__at_eof(lat__parser *p)
{
    return p->pos >= p->ntoks;
}
bool lat__accept(lat__parser *p, lat__punct x);
/* Consumes x or reports "expected 'x' <context>" (once, in panic mode). */
bool lat__expect(lat__parser *p, lat__punct x, const char *context);
/* A syntax error at the current token: "expected WHAT before 'tok'" and panic. */
void lat__syntax_error(lat__parser *p, const char *what);
void lat__error_tok(lat__parser *p, const lat__tok *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A construct outside the dialect at token t, and the reason. */
void lat__unsupported(lat__parser *p, const lat__tok *t, const char *what, const char *why);
/* Past a <...> the parser does not understand (a template's parameters or arguments),
 * by angle depth, '>>' closing two. */
void lat__skip_angles(lat__parser *p);
extern const char lat__why_cxx[];
/* Skips a balanced ( [ { group starting at the current token (which must open it). */
void lat__skip_group(lat__parser *p);
/* Recovery: skips to just past the next ';' at this nesting level, or to (not past) the
 * '}' closing the enclosing block; stop_at_brace: stop before a '{' too. */
void lat__skip_statement(lat__parser *p);
/* Recovery at file scope: past the next ';' or past a balanced { } group. */
void lat__skip_declaration(lat__parser *p);

void lat__scope_open(lat__parser *p);
void lat__scope_close(lat__parser *p);
/* Binds sym's name in the current scope (tags in the tag namespace). */
void lat__bind(lat__parser *p, lat__sym *sym);
lat__sym *lat__sym_new(lat__parser *p, lat__symkind kind, lat__atom *name, lat__loc loc);
/* Whether sym was declared in the innermost open scope (a redeclaration there is one). */
bool lat__in_this_scope(lat__parser *p, const lat__sym *sym);
/* The ordinary declaration `name` denotes here, declaring a built-in on first use;
 * NULL when none. */
lat__sym *lat__lookup(lat__parser *p, lat__atom *name);
/* Whether token t names a type here (a typedef name, or a struct tag used as C++ does). */
bool lat__is_type_name(lat__parser *p, const lat__tok *t);

/* ---- parse_decl.c ----------------------------------------------------------------------- */

/* Whether the current token can start a declaration (specifiers). */
bool lat__starts_declaration(lat__parser *p);
/* A declaration in a block or at file scope (after its specifiers were recognised);
 * returns NULL after an error that was recovered from. At file scope a function
 * definition may come instead: *fn_out receives it. */
lat__decl_group *lat__parse_declaration(lat__parser *p, lat__func **fn_out);
/* A type name, as in casts and sizeof: specifiers and an abstract declarator. */
lat__type *lat__parse_type_name(lat__parser *p);
/* C++'s new-type-id (after `new`): type specifiers and '*'s with their qualifiers, without
 * the suffixes of a type name: what follows is the array length or the initializer. NULL
 * after a syntax error. */
lat__type *lat__parse_new_type(lat__parser *p);
/* Whether t is `struct`, `class` or `union`: the keyword that starts a class (a class
 * template's too). */
bool lat__record_kw(const lat__tok *t);
/* At `using name = ...` (a type alias, which lat__parse_declaration reads as a typedef). */
bool lat__at_type_alias(lat__parser *p);
/* The type a typedef's name denotes where it is written: spelled by that name in the
 * emitted C, unless the typedef is LAT_SF_TRANSPARENT. */
lat__type *lat__typedef_type(lat__parser *p, lat__sym *ts);
/* At `decltype`: reads decltype(e) and gives its type (C++'s rules: a name's declared
 * type, a reference for other lvalues). */
lat__type *lat__decltype(lat__parser *p);
/* Whether the tokens at the current position, a simple type specifier followed by '(',
 * read as a declaration (C++: `float(x);` declares x) rather than an expression. */
bool lat__declarator_follows(lat__parser *p);
/* An initializer for an object of type *t (which it may complete: int a[] = {1, 2}). */
lat__expr *lat__parse_initializer(lat__parser *p, lat__type **t);
/* A member function's declaration (and its body, kept for lat__class_bodies) at the
 * current token, declared in r under the name `as`: a member template's instance; NULL
 * after reporting. */
lat__sym *lat__member_instance(lat__parser *p, lat__record *r, lat__atom *as);
/* The built-in declaration text, parsed into file scope. */
void lat__parse_builtin_decl(lat__parser *p, const lat__builtin *b);
/* Whether the current token is __attribute__ & co., and skip/read it. */
bool lat__at_attribute(lat__parser *p);
void lat__parse_attributes(lat__parser *p, unsigned *align, bool *packed);
/* Skips C++11 attributes, [[...]], at the current token (none of them change the code). */
void lat__skip_std_attributes(lat__parser *p);

/* ---- parse_stmt.c ----------------------------------------------------------------------- */


lat__stmt *lat__parse_compound(lat__parser *p);
/* v as a value of integer type t: truncated to its width, sign-extended (parse_expr.c). */
int64_t lat__int_wrap(const lat__type *t, uint64_t v);
/* a op b of integer constants, operands of types at and bt (after the usual conversions),
 * result of type rt, as the front end folds constant expressions; false for what it does
 * not fold (a division by zero, a shift by 64 or more, an operator it does not take). */
bool lat__int_fold(lat__punct op, const lat__type *at, const lat__type *bt, const lat__type *rt, int64_t a,
                   int64_t b, int64_t *out);
/* ---- parse_consteval.c ---- */
/* A call e, with constant arguments, of a function whose body is one `return` of an
 * integer expression of its parameters (C++11's constexpr form) or of a constexpr function
 * whose body is C++14's integer statements: marked LAT_EF_CONST with its value, where it
 * can be evaluated; otherwise left as it is. */
void lat__fold_constexpr_call(lat__parser *p, lat__expr *e);
/* Each call in e (a static variable's initializer) of a constexpr function of floating
 * values that evaluates to a finite float or double (float and double arithmetic, each
 * operation rounded to its type, as C++ evaluates it at compile time) becomes that
 * constant; the others stay calls. */
void lat__fold_float_calls(lat__parser *p, lat__expr *e);
/* ---- parse_asm.c ---- */
/* An asm statement at its keyword: the inline PTX's C++ (a block), or LAT_S_ASM after
 * an error or a refusal naming the instruction. */
lat__stmt *lat__parse_asm(lat__parser *p);
lat__stmt *lat__stmt_new(lat__parser *p, lat__stmtkind kind, lat__loc loc);

/* ---- parse_expr.c ----------------------------------------------------------------------- */

lat__expr *lat__parse_expr(lat__parser *p);        /* with the comma operator */
lat__expr *lat__parse_assign_expr(lat__parser *p); /* without */
lat__expr *lat__parse_cond_expr(lat__parser *p);   /* a constant-expression's grammar */
/* An integer constant expression's value; reports what is not one. */
int64_t lat__parse_const_int(lat__parser *p, const char *what, bool *ok);
/* Comma-separated arguments up to close (consumed, or reported with context): how many,
 * and the array in *out. */
size_t lat__parse_arguments(lat__parser *p, lat__punct close, const char *context, lat__expr ***out);
/* The call fn(argv) (already parsed arguments; a member function's object first),
 * resolved, checked and converted as a call written in the source is. */
lat__expr *lat__make_call(lat__parser *p, lat__expr *fn, lat__expr **argv, int argc, lat__loc open_loc);
/* Records that the function being parsed calls callee (lat__func.calls). */
void lat__note_call(lat__parser *p, lat__sym *callee);
/* e as an rvalue: arrays and functions decay, lvalues become values. */
lat__expr *lat__rvalue(lat__parser *p, lat__expr *e);
/* e converted to type t as by assignment (implicit cast node when the types differ);
 * context names the conversion in messages ("initializing 'x'"). */
lat__expr *lat__convert_assign(lat__parser *p, lat__expr *e, lat__type *t, const char *context);
/* e converted to t by an explicit or implicit cast node (no checks). */
lat__expr *lat__cast_to(lat__parser *p, lat__expr *e, lat__type *t, bool implicit);
lat__expr *lat__expr_new(lat__parser *p, lat__exprkind kind, lat__loc loc);
/* An erroneous expression (already reported): typed int, so parsing goes on quietly. */
lat__expr *lat__error_expr(lat__parser *p, lat__loc loc);
/* The integer constant 0, and v. */
lat__expr *lat__zero(lat__parser *p, lat__loc loc);
lat__expr *lat__int_constant(lat__parser *p, int v, lat__loc loc);
/* Whether e's value is a scalar, for conditions; reports if not. */
lat__expr *lat__condition(lat__parser *p, lat__expr *e, const char *what);

/* ---- parse_cxx.c: C++ lowered to the C tree ---------------------------------------------- */

/* e, of a reference type, as the lvalue it refers to (e unchanged otherwise). */
lat__expr *lat__deref_reference(lat__parser *p, lat__expr *e);
/* Whether one of r's constructors takes an object of r: a copy (or move) constructor of
 * the program's, which copying an lvalue must call (parse_class.c). */
bool lat__copy_ctor_declared(lat__record *r);
/* e bound to reference type ref: its address, or a temporary's for a const reference to
 * a value of another type or not an lvalue; context names the binding in messages. */
lat__expr *lat__bind_reference(lat__parser *p, lat__expr *e, lat__type *ref, const char *context);
/* Whether the class d derives from the class b (a base of a base too). */
bool lat__derived_from(const lat__type *d, const lat__type *b);
/* r's i-th base class (i < lat__nbases(r)), and how many r has. */
size_t lat__nbases(const lat__record *r);
lat__record *lat__base_of(const lat__record *r, size_t i);
/* Whether class d has b as a base, directly or through its bases' (d itself: false). */
bool lat__record_derived(const lat__record *d, const lat__record *b);
/* Whether class r is certainly no POD as the Itanium C++ ABI's layout means it (C++03's:
 * a constructor, destructor or copy assignment of its own, a base, or such a member): the
 * ABI places what follows it as a base in its tail padding, as C's layout of its members
 * flattened does. (A class with private data is no POD either, but lattice does not
 * track access: such a class counts as a POD here, and a base ending in padding is then
 * refused rather than laid out as a guess.) */
bool lat__non_pod(const lat__record *r, int depth);
/* The pointer e (to a class, or to a base class of it) converted to the pointer type to,
 * the other: the address moved by the base subobject's offset, as C++ converts (up to a
 * base, or down by static_cast). nonnull: e is known not to be null (an object's address,
 * this, a reference); otherwise a null pointer stays null. An error when the base is
 * ambiguous (a base of d more than once). */
lat__expr *lat__base_pointer(lat__parser *p, lat__expr *e, lat__type *to, bool nonnull);
/* The member function `name` of class r, or of one of its bases (NULL: none, or after
 * reporting that two bases have one); *self, the object's address (or NULL), is moved to
 * the base's subobject where the function is the base's. */
lat__sym *lat__method_of(lat__parser *p, lat__record *r, const lat__atom *name, lat__expr **self, lat__loc loc);

/* The address of the object e: &e, or a temporary's holding e when it is not an lvalue. */
lat__expr *lat__address_of_object(lat__parser *p, lat__expr *e);
/* Whether two function types take the same parameters (C++: then they declare the same
 * function, else an overload). */
bool lat__same_parameters(const lat__type *a, const lat__type *b);
/* A function `name` of type t beside the set whose newest member is `set`: bound as the
 * newest, emitted under a name of its own. */
lat__sym *lat__declare_overload(lat__parser *p, lat__sym *set, lat__atom *name, lat__loc loc,
                                lat__type *t, uint16_t cuda, uint8_t storage);
/* The member of the overload set `set` a call with these arguments calls (C++'s ranking
 * of conversions: exact, promotion, conversion); reports and returns NULL when none is
 * viable or two are equally good. */
lat__sym *lat__resolve_overload(lat__parser *p, lat__sym *set, lat__expr **args, int nargs, lat__loc at);

/* Whether `name` is a template's, here or in some namespace (a qualified name's last
 * part: std::is_integral<T>). */
bool lat__names_template(lat__parser *p, const lat__atom *name);
/* Whether argument-dependent lookup could find a function called `name` that ordinary
 * lookup, which found `found` (or NULL), did not: some namespace declares a function of
 * that name outside found's overloads, and found is no variable, type or member. */
bool lat__adl_may_find(lat__parser *p, lat__atom *name, lat__sym *found);
/* C++'s argument-dependent lookup for the unqualified call name(args): the overload set
 * the call takes, `found` (ordinary lookup's, may be NULL or a built-in) or one of the
 * sets declared in the namespaces of the arguments' classes, whichever alone takes the
 * arguments (a built-in takes none when an argument is an object of a class). Returns
 * found when none does (its call reports why); reports, sets *refused and returns NULL
 * when sets of two namespaces take them (not ranked against each other). */
lat__sym *lat__adl_choose(lat__parser *p, lat__atom *name, lat__sym *found, lat__expr **args, int nargs, lat__loc at,
                          bool *refused);

/* namespace N { ... } at the current token (the keyword), or namespace A = B; */
void lat__namespace_definition(lat__parser *p, void (*declarations)(lat__parser *p, bool until_brace));
/* using namespace N; using N::name; (at file or block scope), at the keyword. */
void lat__using_declaration(lat__parser *p);
/* An enum class's scope for its enumerators: a namespace named tag, left open until
 * lat__scoped_enum_close. */
lat__ns *lat__scoped_enum_open(lat__parser *p, lat__atom *tag);
void lat__scoped_enum_close(lat__parser *p, lat__ns *ns, size_t mark);
/* Whether the current token starts a qualified name (A::b or ::b). */
bool lat__at_qualified(lat__parser *p);
/* The declaration a qualified name at the current token denotes (an ordinary one, or a
 * tag's sym when that is what it names), past it; NULL after reporting. peek: look
 * without reporting or moving. */
lat__sym *lat__parse_qualified(lat__parser *p, bool peek);

/* ---- parse_class.c: member functions, constructors, operators ---------------------------- */

/* In a struct body at a member function's declaration (after its specifiers were read
 * into cuda/storage; t the declared function type, name its name): declares it, and keeps
 * its body for lat__class_bodies. */
void lat__member_function(lat__parser *p, lat__record *r, lat__type *t, lat__atom *name, lat__loc loc,
                          unsigned cuda, lat__storage storage, bool ctor);
/* Past a member declaration the struct's parser does not take: its body or the rest of
 * it up to ';'. */
void lat__skip_member(lat__parser *p);
/* A class's definition is complete (after its own bodies): the member functions of class
 * template instances that waited for it (struct D : B<D>) are made now, after it. */
void lat__instances_complete(lat__parser *p, lat__record *r);
/* After a struct's layout: parses the bodies kept for its member functions (into
 * p->pending, to follow the struct's declaration). */
void lat__class_bodies(lat__parser *p, lat__record *r);
/* In a struct body after `friend`, at the first token of a function definition (at): it
 * is parsed as a function of the enclosing namespace by lat__class_bodies. */
void lat__friend_definition(lat__parser *p, lat__record *r, size_t at);
/* After a struct's layout, before its bodies: its r->defaults (C++'s default member
 * initializers, its own and its members' classes'), when it needs one. */
void lat__class_defaults(lat__parser *p, lat__record *r);
/* The object of record type t (a class without constructors) that the initializer list
 * `list` makes, (T){list} ({0} when empty); the members a shorter list leaves out take
 * r->defaults, where t's class has them (a call of it). */
lat__expr *lat__aggregate_object(lat__parser *p, lat__type *t, lat__expr *list, lat__loc loc);
/* Whether token t at the current position starts a constructor of r (qualifiers, then
 * r's tag and '('); *skip: the qualifier tokens before the tag. */
bool lat__at_constructor(lat__parser *p, const lat__record *r, size_t *skip);
/* A function's name as C can spell it: operator+ becomes __lat_op_add. */
const char *lat__c_name(lat__parser *p, const lat__atom *name);
/* The member function of r that `S::name` of type t (its parameters as written, with
 * p->method_const for a trailing const) defines outside the class; reports and returns
 * NULL when the class declares none that matches. A constructor's name is the tag. */
lat__sym *lat__match_member(lat__parser *p, lat__record *r, lat__type *t, lat__atom *name, lat__loc loc);
/* The member of r named name that is not a field: a member function (the newest of its
 * overloads) or a static constant; NULL when none. */
lat__sym *lat__find_member_sym(const lat__record *r, const lat__atom *name);
/* The name r's members are emitted under ("S", a class template instance's "S__lat_t1"). */
const char *lat__record_c_name(const lat__record *r);
/* Whether r is a complete class without data members (C++'s empty class). */
bool lat__empty_record(const lat__record *r);
/* The member function of r named name (the newest of its overloads), or NULL. */
lat__sym *lat__find_method(const lat__record *r, const lat__atom *name);
/* this->field for a member name used in a member function. */
lat__expr *lat__member_name(lat__parser *p, lat__sym *member, lat__loc loc);
/* The object a constructor call of type t makes from args (C++'s T(args), T{args},
 * T x(args)); for a record without constructors, T() and T{...} as C aggregates. */
lat__expr *lat__construct(lat__parser *p, lat__type *t, lat__expr **args, int nargs, lat__loc loc);
/* T(args) or T{args} at its opening token: lat__construct of what it holds. */
lat__expr *lat__parse_construction(lat__parser *p, lat__type *to, lat__loc loc);
/* e, of a class type, converted to t by one of its conversion operators (operator T *),
 * or NULL when it has none that gives t. */
lat__expr *lat__convert_object(lat__parser *p, lat__expr *e, lat__type *t);
/* The conversion operator of e's class that converts e to t (operator float(), operator
 * T *()), or NULL. */
lat__sym *lat__conversion_operator(lat__parser *p, lat__expr *e, lat__type *t);
/* The constructor of r that converts a alone (one argument, a standard conversion to its
 * parameter): not an explicit one unless explicit_too, as an implicit conversion may not
 * use those. The best when several do (*ambiguous, when not NULL, says whether another
 * fits as well); NULL when none does. */
lat__sym *lat__converting_ctor(lat__parser *p, lat__record *r, lat__expr *a, bool *ambiguous, bool explicit_too);
/* Whether default-initialising an object of type t runs code: a class with default member
 * initializers (its own or its members'), or whose default constructor does something. */
bool lat__initialised_by_default(const lat__type *t);
/* r's constructor that takes no arguments (or has defaults for all), or NULL. */
lat__sym *lat__default_ctor(const lat__record *r);
/* The newest constructor of r (its overloads chain the others), or NULL. */
lat__sym *lat__find_ctor(const lat__record *r);
/* The fewest arguments that reach a parameter through a user-defined conversion, over the
 * members of the overload set that can take the arguments; -1 when none can. */
/* How well argument a converts to a parameter of type t (0: exactly; larger: worse),
 * -1 when it does not. */
int lat__arg_rank(lat__parser *p, lat__expr *a, const lat__type *t);
int lat__fewest_user_conversions(lat__parser *p, lat__sym *set, lat__expr **args, int nargs);
/* a op b with an operand of a record type: the operator function C++ picks, or NULL when
 * the record has none (the caller reports). */
lat__expr *lat__operator_call(lat__parser *p, const char *op, lat__expr *a, lat__expr *b, lat__loc loc);

/* A parameter list at its '(' for a function returning ret: the function type. */
lat__type *lat__parse_param_list(lat__parser *p, lat__type *ret);
/* A new struct of tag tag (NULL: anonymous) in the unit. */
lat__record *lat__new_record(lat__parser *p, lat__atom *tag, lat__loc loc);
/* [captures](params) -> T { body } at its '[': an object of a struct of its own whose
 * operator() is the body, holding the captured variables (pointers to them for &). */
lat__expr *lat__parse_lambda(lat__parser *p);
/* In a lambda's body, a use of s, a variable of an enclosing function: the captured
 * copy or reference through the lambda's object; NULL when s is not captured there. */
lat__expr *lat__lambda_capture(lat__parser *p, lat__sym *s, lat__loc loc);
/* `this` in a member function (p->this_sym): the parameter, or in a lambda's body the
 * lambda's copy of it (an error when the lambda does not capture it). */
lat__expr *lat__this_expr(lat__parser *p, lat__loc loc);
/* A lambda's return type, or an `auto f()`'s, before its first return statement gives
 * it; a new one. */
bool lat__is_lambda_return_placeholder(const lat__type *t);
lat__type *lat__deduced_return(lat__parser *p);
/* A `decltype(auto) f()`'s return type before its first return statement gives it (also
 * a lambda return placeholder); whether t is one. */
lat__type *lat__deduced_decltype_return(lat__parser *p);
bool lat__is_decltype_return_placeholder(const lat__type *t);
/* decltype(e) as C++ has it: a name's or member's declared type, else a reference for an
 * lvalue. */
lat__type *lat__decltype_of(lat__parser *p, lat__expr *e);
/* The class a type name (a class's, or a typedef's or template parameter's standing for
 * one) names as the C of C::*; NULL when it names none. */
lat__type *lat__member_pointer_class(lat__parser *p, const lat__tok *t);
/* The type of record r (a struct or union). */
lat__type *lat__record_type_of(lat__parser *p, lat__record *r);
/* A function's definition (its body at the current token) for f, declared already. */
lat__func *lat__define_function(lat__parser *p, lat__sym *f, lat__loc loc);
/* Inside a member function's scope, before its body: binds the class's members and
 * this; a constructor's object and member initializers (statements returned). */
lat__stmt *lat__method_prologue(lat__parser *p, lat__func *fn);
/* The body as the function runs it: a constructor's wrapped in its object's making. */
lat__stmt *lat__method_epilogue(lat__parser *p, lat__func *fn, lat__stmt *prologue);

/* ---- parse_template.c ---------------------------------------------------------------------- */

/* template <...> declaration, at the keyword (file scope or in a namespace). */
void lat__template_declaration(lat__parser *p);
/* template declaration; and extern template declaration; (explicit instantiations), at
 * the first keyword: a function template named with its arguments is instantiated. */
void lat__explicit_instantiation(lat__parser *p);
/* A function template's call at its name (already consumed, t): f<args>(...) or f(...),
 * deducing what is not given; the call of the instance (a member template's on this). */
lat__expr *lat__template_call(lat__parser *p, lat__sym *tmpl_sym, lat__tok *t);
/* The same for a member template called on the object self points to (NULL: a static
 * one): obj.f<args>(...). */
lat__expr *lat__member_template_call(lat__parser *p, lat__sym *tmpl_sym, lat__tok *t, lat__expr *self);
/* A namespace-scope function template's call whose arguments were parsed (argument-
 * dependent lookup found it after them): deduced from argv; open is the '('. */
/* A call of member template tsym (a member operator's, its arguments parsed) on self (the
 * object's address), as lat__member_template_call makes one. */
lat__expr *lat__member_template_call_parsed(lat__parser *p, lat__sym *tsym, lat__expr *self, lat__expr **argv,
                                            size_t argc, lat__loc at);
lat__expr *lat__template_call_parsed(lat__parser *p, lat__sym *tmpl_sym, lat__loc at, lat__expr **argv, size_t argc,
                                     lat__loc open);
/* Whether some function template of tmpl_sym's overloads (or a plain function beside
 * them) takes these arguments; reports nothing. */
bool lat__template_fits(lat__parser *p, lat__sym *tmpl_sym, lat__expr **argv, size_t argc);
/* template <...> in a class's body, at the keyword: a member function template of r. */
void lat__member_template(lat__parser *p, lat__record *r);
/* The same for a member template written out in toks (ntoks of them, the last an end of
 * file), a generic lambda's operator(): its symbol in r, or NULL after reporting. */
lat__sym *lat__member_template_from(lat__parser *p, lat__record *r, lat__tok *toks, size_t ntoks);
/* A variable template's instance at its name (consumed): name<args>; its variable, or
 * NULL after reporting. */
lat__sym *lat__template_variable(lat__parser *p, lat__sym *tmpl_sym, lat__tok *t);
/* A class template's instance at its name (consumed): Name<args>; its type. */
lat__type *lat__template_class_type(lat__parser *p, lat__sym *tmpl_sym, lat__tok *t);
/* While a function template's signature is read for deduction: whether t is a type
 * parameter's placeholder or depends on one, and a new type that depends on one (the
 * type of a member of a placeholder, which deduces nothing). */
bool lat__is_template_placeholder(const lat__type *t);
/* A function declared at file scope while p->inst_fn is instantiated: when it is the
 * instance, it is kept as such, and the name means the template again for its body. */
void lat__template_declared(lat__parser *p, lat__sym *f);
/* While instantiating a class template: its instance's type t is made (its body not yet
 * read), so that the instance named with its arguments inside it (V<T> in V<T>) is t. */
void lat__template_class_begun(lat__parser *p, lat__type *t);
lat__type *lat__dependent_type(lat__parser *p);
/* A template's name. */
lat__atom *lat__template_name(const struct lat__template *tm);
/* The non-template functions beside function template tsym (the newest), and sets it to
 * newest when not NULL. */
lat__sym *lat__template_plain(lat__sym *tsym, lat__sym *newest);
/* The plain (non-template) functions of overloaded templates tsym (and those older than
 * it) set to plain, the newest of their overloads. */
void lat__templates_plain(lat__sym *tsym, lat__sym *plain);
/* Closes a template's argument list: '>' or the first half of '>>'. */
bool lat__close_angle(lat__parser *p);
/* The signature of the declaration at the current token, without its body. */
lat__type *lat__parse_signature(lat__parser *p, lat__atom **name);
/* A template's value argument: an expression without relational operators (N, N / 2). */
lat__expr *lat__parse_template_value(lat__parser *p);

/* Whether e may be a default argument (no statement expression inside; reports). */
bool lat__default_argument_ok(lat__parser *p, lat__expr *e);
/* A copy of e's tree, for an expression used at several places (default arguments). */
lat__expr *lat__expr_clone(lat__parser *p, const lat__expr *e);

/* ---- parse_pack.c: variadic templates' expansions ---------------------------------------- */

/* A parameter pack of an instance and its length. */
typedef struct lat__pack_bind {
    lat__atom *name;
    size_t n;
} lat__pack_bind;
/* The name of element k of pack `pack` in an expanded instance (Ts__lat_p0). */
lat__atom *lat__pack_element(lat__parser *p, const lat__atom *pack, size_t k);
/* A copy of toks[from, to) with every expansion of the packs (and of the function
 * parameter packs their declarations make) written out, folds and sizeof... included,
 * followed by an end-of-file token; *n its length. NULL after reporting an error. */
lat__tok *lat__expand_packs(lat__parser *p, const lat__tok *toks, size_t from, size_t to,
                            const lat__pack_bind *packs, size_t npacks, size_t *n);

/* ---- parse_texture.c -------------------------------------------------------------------- */

/* Whether t names a texture or surface function (tex2D, surf2Dwrite...) that no
 * declaration of the program's own hides; lat__parse_texture_call then reads the call
 * from t on (its template argument included). */
bool lat__texture_call_at(lat__parser *p, const lat__tok *t);
lat__expr *lat__parse_texture_call(lat__parser *p);
/* At file scope: a texture or surface reference (`texture<float, 2> t;`), reported and
 * skipped; false when the tokens are something else. */
bool lat__texture_reference(lat__parser *p);

/* Enters one level of nesting at the next token (extra: further levels that count at
 * this point, such as the operands of a chain of binary operators so far); past
 * LAT_PARSE_MAX_NEST the error is reported and the parse of the unit stops. */
void lat__parse_enter(lat__parser *p, int extra);
static inline void lat__parse_leave(lat__parser *p)
{
    p->nest--;
}

#endif
