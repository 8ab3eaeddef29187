/* The parser: tokens, errors, scopes, and the translation unit (parse.h). */
#include "parse.h"

#include "front.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char lat__why_cxx[] = "C++ beyond what docs/dialect.md lists";

/* ---- tokens and errors ------------------------------------------------------------------ */

bool lat__accept(lat__parser *p, lat__punct x)
{
    if (!lat__at_punct(p, x))
        return false;
    lat__next(p);
    return true;
}

static const char *tok_text(lat__parser *p, const lat__tok *t)
{
    if (t->kind == LAT_TK_EOF)
        return "end of file";
    return lat__arena_printf(&p->u->arena, "'%.*s'", (int)(t->len > 40 ? 40 : t->len), t->text);
}

void lat__error_tok(lat__parser *p, const lat__tok *t, const char *fmt, ...)
{
    char body[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(body, sizeof body, fmt, ap);
    va_end(ap);
    lat__error_at(p->u, t->loc, "%s", body);
}

void lat__syntax_error(lat__parser *p, const char *what)
{
    if (p->panic)
        return;
    lat__tok *t = lat__peek(p);
    lat__error_tok(p, t, "expected %s before %s", what, tok_text(p, t));
    p->panic = true;
    if (p->fn)
        p->fn->has_error = true;
}

bool lat__expect(lat__parser *p, lat__punct x, const char *context)
{
    if (lat__accept(p, x))
        return true;
    if (!p->panic) {
        lat__tok *t = lat__peek(p);
        lat__error_tok(p, t, "expected '%s'%s%s before %s", lat__punct_spelling(x),
                       context ? " " : "", context ? context : "", tok_text(p, t));
        p->panic = true;
        if (p->fn)
            p->fn->has_error = true;
    }
    return false;
}

void lat__unsupported(lat__parser *p, const lat__tok *t, const char *what, const char *why)
{
    lat__unsupported_at(p->u, t->loc, what, why);
    if (p->fn)
        p->fn->has_error = true;
}

void lat__skip_angles(lat__parser *p)
{
    int depth = 0;
    do {
        lat__tok *a = lat__next(p);
        if (a->kind == LAT_TK_EOF)
            break;
        if (lat__tok_is_punct(a, LAT_P_LT))
            depth++;
        else if (lat__tok_is_punct(a, LAT_P_GT))
            depth--;
        else if (lat__tok_is_punct(a, LAT_P_SHR))
            depth -= 2;
    } while (depth > 0);
}

void lat__skip_group(lat__parser *p)
{
    int depth = 0;
    do {
        lat__tok *t = lat__next(p);
        if (t->kind == LAT_TK_EOF)
            return;
        if (t->kind != LAT_TK_PUNCT)
            continue;
        if (t->punct == LAT_P_LPAREN || t->punct == LAT_P_LBRACKET || t->punct == LAT_P_LBRACE)
            depth++;
        else if (t->punct == LAT_P_RPAREN || t->punct == LAT_P_RBRACKET || t->punct == LAT_P_RBRACE)
            depth--;
    } while (depth > 0);
}

void lat__skip_statement(lat__parser *p)
{
    while (!lat__at_eof(p)) {
        lat__tok *t = lat__peek(p);
        if (lat__tok_is_punct(t, LAT_P_SEMI)) {
            lat__next(p);
            break;
        }
        if (lat__tok_is_punct(t, LAT_P_RBRACE))
            break;
        if (lat__tok_is_punct(t, LAT_P_LBRACE) || lat__tok_is_punct(t, LAT_P_LPAREN) ||
            lat__tok_is_punct(t, LAT_P_LBRACKET)) {
            bool brace = lat__tok_is_punct(t, LAT_P_LBRACE);
            lat__skip_group(p);
            if (brace)
                break; /* a block: the statement ends with it */
            continue;
        }
        if (lat__tok_is_punct(t, LAT_P_RPAREN) || lat__tok_is_punct(t, LAT_P_RBRACKET)) {
            lat__next(p); /* unbalanced: not ours to stop at */
            continue;
        }
        lat__next(p);
    }
    p->panic = false;
}

void lat__skip_declaration(lat__parser *p)
{
    while (!lat__at_eof(p)) {
        lat__tok *t = lat__peek(p);
        if (lat__tok_is_punct(t, LAT_P_SEMI)) {
            lat__next(p);
            break;
        }
        if (lat__tok_is_punct(t, LAT_P_LBRACE)) {
            lat__skip_group(p);
            if (lat__at_punct(p, LAT_P_SEMI))
                lat__next(p);
            break;
        }
        if (lat__tok_is_punct(t, LAT_P_LPAREN) || lat__tok_is_punct(t, LAT_P_LBRACKET)) {
            lat__skip_group(p);
            continue;
        }
        lat__next(p);
    }
    p->panic = false;
}

/* ---- scopes ------------------------------------------------------------------------------ */

lat__sym *lat__sym_new(lat__parser *p, lat__symkind kind, lat__atom *name, lat__loc loc)
{
    lat__sym *s = lat__arena_alloc(&p->u->arena, sizeof *s);
    s->kind = (uint8_t)kind;
    s->name = name;
    s->loc = loc;
    s->depth = p->depth;
    if (s->depth == 0)
        s->flags |= LAT_SF_FILE_SCOPE;
    if (p->in_builtin)
        s->flags |= LAT_SF_BUILTIN;
    return s;
}

void lat__scope_open(lat__parser *p)
{
    LAT_PUSH(&p->u->arena, p->marks, p->bound.n);
    p->depth++;
}

void lat__scope_close(lat__parser *p)
{
    size_t mark = p->marks.items[--p->marks.n];
    while (p->bound.n > mark) {
        lat__sym *s = p->bound.items[--p->bound.n];
        if (!s->name)
            continue;
        if (s->kind == LAT_SYM_TAG) {
            if (s->name->tag == s)
                s->name->tag = s->shadow;
        } else if (s->name->sym == s) {
            s->name->sym = s->shadow;
        }
    }
    p->depth--;
}

void lat__bind(lat__parser *p, lat__sym *sym)
{
    if (!sym->name)
        return;
    if (p->ns && (p->depth == 0 || p->ns->scoped_enum) && !sym->ns && !(sym->flags & LAT_SF_BUILTIN) &&
        !p->in_builtin && !p->instantiating) {
        sym->ns = p->ns; /* a member of the open namespace */
        LAT_PUSH(&p->u->arena, p->ns->members, sym);
    }
    lat__sym **slot = sym->kind == LAT_SYM_TAG ? &sym->name->tag : &sym->name->sym;
    sym->shadow = *slot;
    *slot = sym;
    LAT_PUSH(&p->u->arena, p->bound, sym);
}

bool lat__in_this_scope(lat__parser *p, const lat__sym *sym)
{
    if (!sym || sym->depth != p->depth)
        return false;
    if (p->depth == 0)
        return true;
    for (size_t i = p->bound.n, mark = p->marks.items[p->marks.n - 1]; i-- > mark;)
        if (p->bound.items[i] == sym)
            return true;
    return false;
}

lat__sym *lat__lookup(lat__parser *p, lat__atom *name)
{
    if (name->sym)
        return name->sym;
    const lat__builtin *b = lat__builtin_find(name->name, name->len);
    if (!b)
        return NULL;
    if (b->decl) {
        lat__parse_builtin_decl(p, b);
    } else {
        /* Bound at file scope whatever scope asked: nothing unbinds it. */
        lat__sym *s = lat__sym_new(p, LAT_SYM_BUILTIN, name, (lat__loc){0, 0, 0});
        s->depth = 0;
        s->flags |= LAT_SF_FILE_SCOPE | LAT_SF_BUILTIN;
        s->type = &lat__ty_int;
        name->sym = s;
    }
    lat__sym *s = name->sym;
    if (s) {
        s->builtin = lat__builtin_id(b);
        s->flags |= b->sym_flags;
        LAT_PUSH(&p->u->arena, p->tu->builtins_used, s);
    }
    return s;
}

bool lat__is_type_name(lat__parser *p, const lat__tok *t)
{
    if (t->kind != LAT_TK_IDENT || t->atom->kw)
        return false;
    if (lat__tok_is_punct(t + 1, LAT_P_SCOPE)) {
        /* ns::T: look at the whole qualified name */
        size_t save = p->pos;
        p->pos = (size_t)(t - p->toks);
        lat__sym *q = lat__at_qualified(p) ? lat__parse_qualified(p, true) : NULL;
        p->pos = save;
        return q && (q->kind == LAT_SYM_TYPEDEF || q->kind == LAT_SYM_TAG);
    }
    lat__sym *s = lat__lookup(p, t->atom);
    if (s && s->tmpl && s->kind == LAT_SYM_TYPEDEF && lat__tok_is_punct(t + 1, LAT_P_LT)) {
        /* Traits<float>::value is a value, Traits<float>::type a type: the whole name says */
        size_t save = p->pos;
        p->pos = (size_t)(t - p->toks);
        lat__sym *q = lat__at_qualified(p) ? lat__parse_qualified(p, true) : s;
        p->pos = save;
        return q && (q->kind == LAT_SYM_TYPEDEF || q->kind == LAT_SYM_TAG);
    }
    if (s)
        return s->kind == LAT_SYM_TYPEDEF;
    /* C++: a struct's tag names its type, unless an ordinary name hides it. */
    return t->atom->tag != NULL;
}

lat__sym *lat__unit_builtin(lat__unit *u, const char *name)
{
    lat__parser p;
    memset(&p, 0, sizeof p);
    p.u = u;
    p.tu = u->tu;
    lat__atom *a = lat__atom_get(&u->atoms, name, strlen(name));
    /* The program may have a declaration of its own of this name in scope nowhere now
     * (parsing is over): look for the built-in itself. */
    lat__sym *s = a->sym;
    if (s && (s->flags & LAT_SF_BUILTIN))
        return s;
    a->sym = NULL;
    lat__sym *b = lat__lookup(&p, a);
    a->sym = s;
    return b;
}

/* ---- the unit ------------------------------------------------------------------------------ */

/* `extern "C"` followed by a declaration or a { group } of them. */
static bool linkage_spec(lat__parser *p)
{
    return lat__at_kw(p, LAT_KW_EXTERN) && lat__peek_at(p, 1)->kind == LAT_TK_STRING;
}

static void external_declarations(lat__parser *p, bool until_brace);

static void external_declaration_(lat__parser *p);

static void external_declaration(lat__parser *p)
{
    lat__parse_enter(p, 0);
    external_declaration_(p);
    lat__parse_leave(p);
}

static void external_declaration_(lat__parser *p)
{
    lat__skip_std_attributes(p); /* [[nodiscard]], [[noreturn]]...: nothing to keep */
    lat__tok *t = lat__peek(p);
    if (lat__accept(p, LAT_P_SEMI))
        return;
    if (linkage_spec(p)) {
        lat__next(p);
        lat__tok *lang = lat__next(p);
        if (!(lang->len == 3 && memcmp(lang->text, "\"C\"", 3) == 0) &&
            !(lang->len == 5 && memcmp(lang->text, "\"C++\"", 5) == 0))
            lat__error_tok(p, lang, "unknown language linkage %.*s", (int)lang->len, lang->text);
        if (lat__accept(p, LAT_P_LBRACE)) {
            external_declarations(p, true);
            lat__expect(p, LAT_P_RBRACE, "to close extern \"C\" {");
            return;
        }
        external_declaration(p);
        return;
    }
    if (lat__tok_kw(t, LAT_KW_NAMESPACE) || (lat__tok_kw(t, LAT_KW_INLINE) &&
                                             lat__tok_kw(lat__peek_at(p, 1), LAT_KW_NAMESPACE))) {
        lat__namespace_definition(p, external_declarations);
        return;
    }
    if (lat__tok_kw(t, LAT_KW_USING) && !lat__at_type_alias(p)) {
        lat__using_declaration(p);
        return;
    }
    if (lat__tok_kw(t, LAT_KW_TEMPLATE) && lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_LT)) {
        lat__template_declaration(p);
        return;
    }
    if (lat__tok_kw(t, LAT_KW_TEMPLATE) ||
        (lat__tok_kw(t, LAT_KW_EXTERN) && lat__tok_kw(lat__peek_at(p, 1), LAT_KW_TEMPLATE))) {
        lat__explicit_instantiation(p);
        return;
    }
    if (lat__texture_reference(p)) /* texture<float, 2> t; (parse_texture.c) */
        return;
    lat__func *fn = NULL;
    size_t before = p->pos;
    size_t pending = p->pending.n;
    lat__decl_group *g = lat__parse_declaration(p, &fn);
    if (fn) {
        lat__ext x = {LAT_X_FUNC, NULL, fn};
        LAT_PUSH(&p->u->arena, p->tu->items, x);
    } else if (g) {
        lat__ext x = {LAT_X_DECL, g, NULL};
        LAT_PUSH(&p->u->arena, p->tu->items, x);
    }
    /* the member functions of the structs this declaration defined, after them */
    for (size_t i = pending; i < p->pending.n; i++)
        LAT_PUSH(&p->u->arena, p->tu->items, p->pending.items[i]);
    p->pending.n = pending;
    if (p->panic || p->pos == before)
        lat__skip_declaration(p);
}

static void external_declarations(lat__parser *p, bool until_brace)
{
    while (!lat__at_eof(p)) {
        if (until_brace && lat__at_punct(p, LAT_P_RBRACE))
            return;
        if (lat__at_punct(p, LAT_P_RBRACE)) {
            lat__error_tok(p, lat__peek(p), "unexpected '}' at file scope");
            lat__next(p);
            continue;
        }
        external_declaration(p);
    }
}

/* Takes the #pragma tokens out of the stream: each is kept for the token after it. */
static void split_pragmas(lat__parser *p)
{
    lat__toks *in = &p->u->toks;
    size_t n = 0;
    lat__tok *out = lat__arena_alloc(&p->u->arena, (in->n + 1) * sizeof *out);
    const char **at = lat__arena_alloc(&p->u->arena, (in->n + 1) * sizeof *at);
    const char *pending = NULL;
    for (size_t i = 0; i < in->n; i++) {
        lat__tok *t = &in->items[i];
        if (t->kind == LAT_TK_PRAGMA) {
            pending = lat__arena_strndup(&p->u->arena, t->text, t->len);
            continue;
        }
        at[n] = pending;
        pending = NULL;
        out[n++] = *t;
    }
    out[n] = in->items ? in->items[in->n] : (lat__tok){0};
    out[n].kind = LAT_TK_EOF;
    p->toks = out;
    p->ntoks = n;
    p->pragma_at = at;
}

/* Kernels, globals, and each function's calls, once everything is read. */
static void finish_unit(lat__parser *p)
{
    (void)p;
}

void lat__parse_enter(lat__parser *p, int extra)
{
    if (p->stop && lat__unit_past_deadline(p->u, lat__peek(p)->loc))
        longjmp(*p->stop, 1);
    if (++p->nest + extra <= LAT_PARSE_MAX_NEST || !p->stop)
        return;
    lat__error_at(p->u, lat__peek(p)->loc,
                  "nested too deeply: more than %d levels of parentheses, operators, "
                  "statements or declarators (the emulator's compile limit)",
                  LAT_PARSE_MAX_NEST);
    longjmp(*p->stop, 1);
}

void lat__parse_unit(lat__unit *u)
{
    lat__parser p;
    memset(&p, 0, sizeof p);
    p.u = u;
    p.tu = lat__arena_alloc(&u->arena, sizeof *p.tu);
    u->tu = p.tu;
    /* Past the nesting limit the parse stops here: everything it made is in the unit's
     * arena, and the error is recorded. */
    jmp_buf stop;
    if (setjmp(stop))
        return;
    p.stop = &stop;
    split_pragmas(&p);
    external_declarations(&p, false);
    p.tu->top_ns = p.top_ns.items;
    p.tu->ntop_ns = p.top_ns.n;
    finish_unit(&p);
}
