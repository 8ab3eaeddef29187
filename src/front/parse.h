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
    bool in_params;   /* parsing a parameter list */
    int anon;         /* names for anonymous records */
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
/* Whether the tokens at the current position, a simple type specifier followed by '(',
 * read as a declaration (C++: `float(x);` declares x) rather than an expression. */
bool lat__declarator_follows(lat__parser *p);
/* An initializer for an object of type *t (which it may complete: int a[] = {1, 2}). */
lat__expr *lat__parse_initializer(lat__parser *p, lat__type **t);
/* The built-in declaration text, parsed into file scope. */
void lat__parse_builtin_decl(lat__parser *p, const lat__builtin *b);
/* Whether the current token is __attribute__ & co., and skip/read it. */
bool lat__at_attribute(lat__parser *p);
void lat__parse_attributes(lat__parser *p, unsigned *align, bool *packed);

/* ---- parse_stmt.c ----------------------------------------------------------------------- */

lat__stmt *lat__parse_compound(lat__parser *p);
lat__stmt *lat__stmt_new(lat__parser *p, lat__stmtkind kind, lat__loc loc);

/* ---- parse_expr.c ----------------------------------------------------------------------- */

lat__expr *lat__parse_expr(lat__parser *p);        /* with the comma operator */
lat__expr *lat__parse_assign_expr(lat__parser *p); /* without */
lat__expr *lat__parse_cond_expr(lat__parser *p);   /* a constant-expression's grammar */
/* An integer constant expression's value; reports what is not one. */
int64_t lat__parse_const_int(lat__parser *p, const char *what, bool *ok);
/* e as an rvalue: arrays and functions decay, lvalues become values. */
lat__expr *lat__rvalue(lat__parser *p, lat__expr *e);
/* e converted to type t as by assignment (implicit cast node when the types differ);
 * context names the conversion in messages ("initializing 'x'"). */
lat__expr *lat__convert_assign(lat__parser *p, lat__expr *e, lat__type *t, const char *context);
/* e converted to t by an explicit or implicit cast node (no checks). */
lat__expr *lat__cast_to(lat__parser *p, lat__expr *e, lat__type *t, bool implicit);
lat__expr *lat__expr_new(lat__parser *p, lat__exprkind kind, lat__loc loc);
/* Whether e's value is a scalar, for conditions; reports if not. */
lat__expr *lat__condition(lat__parser *p, lat__expr *e, const char *what);

/* ---- parse_texture.c -------------------------------------------------------------------- */

/* Whether t names a texture or surface function (tex2D, surf2Dwrite...) that no
 * declaration of the program's own hides; lat__parse_texture_call then reads the call
 * from t on (its template argument included). */
bool lat__texture_call_at(lat__parser *p, const lat__tok *t);
lat__expr *lat__parse_texture_call(lat__parser *p);
/* At file scope: a texture or surface reference (`texture<float, 2> t;`), reported and
 * skipped; false when the tokens are something else. */
bool lat__texture_reference(lat__parser *p);

#endif
