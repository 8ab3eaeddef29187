/* The parser's statements (parse.h). */
#include "parse.h"

#include "lex.h"

#include <stdio.h>
#include <string.h>

lat__stmt *lat__stmt_new(lat__parser *p, lat__stmtkind kind, lat__loc loc)
{
    lat__stmt *s = lat__arena_alloc(&p->u->arena, sizeof *s);
    s->kind = (uint8_t)kind;
    s->loc = loc;
    return s;
}

static lat__stmt *statement(lat__parser *p);

static lat__stmt *innermost(lat__parser *p, bool loops_only)
{
    for (size_t i = p->jumps.n; i-- > 0;) {
        lat__stmt *s = p->jumps.items[i];
        if (!loops_only || s->kind != LAT_S_SWITCH)
            return s;
    }
    return NULL;
}

static lat__stmt *switch_of(lat__parser *p)
{
    for (size_t i = p->jumps.n; i-- > 0;)
        if (p->jumps.items[i]->kind == LAT_S_SWITCH)
            return p->jumps.items[i];
    return NULL;
}

/* A statement that is a declaration (in a block, or a for's init). */
static lat__stmt *declaration_statement(lat__parser *p)
{
    lat__tok *t = lat__peek(p);
    lat__stmt *s = lat__stmt_new(p, LAT_S_DECL, t->loc);
    s->decls = lat__parse_declaration(p, NULL);
    if (!s->decls)
        s->kind = LAT_S_NULL;
    return s;
}

/* Past a type's name, qualified and with template arguments as it may be (ns::T<int>):
 * the position after it, p left where it was. */
static size_t past_type_name(lat__parser *p)
{
    size_t save = p->pos;
    lat__accept(p, LAT_P_SCOPE);
    while (lat__peek(p)->kind == LAT_TK_IDENT && !lat__peek(p)->atom->kw) {
        lat__next(p);
        if (lat__at_punct(p, LAT_P_LT))
            lat__skip_angles(p);
        if (!lat__accept(p, LAT_P_SCOPE))
            break;
    }
    size_t end = p->pos;
    p->pos = save;
    return end;
}

/* Whether the statement at the current token is a declaration. */
static bool at_declaration(lat__parser *p)
{
    lat__skip_std_attributes(p);
    lat__tok *t = lat__peek(p);
    if (!lat__starts_declaration(p))
        return false;
    size_t end = past_type_name(p);
    if (end > p->pos + 1 && end < p->ntoks) {
        /* ns::T<int>{x}.f() is an expression, as no declarator starts with '{'; and
         * ns::T<int>(x).f() one unless what the parentheses hold reads as a declarator */
        if (lat__tok_is_punct(&p->toks[end], LAT_P_LBRACE))
            return false;
        if (lat__tok_is_punct(&p->toks[end], LAT_P_LPAREN)) {
            size_t save = p->pos;
            p->pos = end - 1;
            bool decl = lat__declarator_follows(p);
            p->pos = save;
            return decl;
        }
    }
    if (t->kind == LAT_TK_IDENT && !t->atom->kw) {
        /* A type name followed by ':' is a label; T(x)... may be an expression (C++'s
         * functional cast) unless it reads as a declarator. */
        lat__tok *n = lat__peek_at(p, 1);
        if (lat__tok_is_punct(n, LAT_P_COLON))
            return false;
        if (lat__tok_is_punct(n, LAT_P_LPAREN))
            return lat__declarator_follows(p);
        if (lat__tok_is_punct(n, LAT_P_LBRACE))
            return false; /* T{x}.f(): a functional cast */
        if (lat__tok_is_punct(n, LAT_P_DOT) || lat__tok_is_punct(n, LAT_P_ARROW) ||
            lat__tok_is_punct(n, LAT_P_ASSIGN) || lat__tok_is_punct(n, LAT_P_LBRACKET))
            return false;
    } else if (t->kind == LAT_TK_IDENT && lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_LPAREN)) {
        /* float(x) at a statement's start: a declaration of x only if it reads as one. */
        switch (t->atom->kw) {
        case LAT_KW_INT: case LAT_KW_FLOAT: case LAT_KW_DOUBLE: case LAT_KW_CHAR: case LAT_KW_SHORT:
        case LAT_KW_LONG: case LAT_KW_UNSIGNED: case LAT_KW_SIGNED: case LAT_KW_BOOL:
            return lat__declarator_follows(p);
        default:
            break;
        }
    }
    return true;
}

static bool at_structured_binding(lat__parser *p, size_t *open);
static lat__stmt *structured_binding(lat__parser *p, size_t open);

lat__stmt *lat__parse_compound(lat__parser *p)
{
    lat__tok *open = lat__peek(p);
    lat__stmt *s = lat__stmt_new(p, LAT_S_COMPOUND, open->loc);
    if (!lat__expect(p, LAT_P_LBRACE, "to open a block"))
        return s;
    lat__scope_open(p);
    while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_RBRACE)) {
        size_t before = p->pos;
        lat__stmt *item;
        const char *pragma = p->pragma_at ? p->pragma_at[p->pos] : NULL;
        size_t bracket = 0;
        if (at_structured_binding(p, &bracket))
            item = structured_binding(p, bracket);
        else if (at_declaration(p))
            item = declaration_statement(p);
        else
            item = statement(p);
        if (p->panic)
            lat__skip_statement(p);
        if (p->pos == before)
            lat__next(p); /* never stay on one token */
        if (item) {
            if (pragma && !item->pragma)
                item->pragma = pragma;
            LAT_PUSH(&p->u->arena, s->items, item);
        }
    }
    s->end = lat__peek(p)->loc;
    lat__scope_close(p);
    lat__expect(p, LAT_P_RBRACE, "to close the block");
    return s;
}

static lat__stmt *sub_statement(lat__parser *p)
{
    /* A declaration as the body of if/while/for is C++ only in a block; C forbids it. */
    const char *pragma = p->pragma_at ? p->pragma_at[p->pos] : NULL;
    lat__stmt *s;
    if (at_declaration(p) && !lat__at_punct(p, LAT_P_LBRACE)) {
        lat__scope_open(p);
        s = declaration_statement(p);
        lat__scope_close(p);
    } else {
        s = statement(p);
    }
    if (s && pragma && !s->pragma)
        s->pragma = pragma;
    return s;
}

static lat__stmt *loop_body(lat__parser *p, lat__stmt *loop);

/* ---- range-based for ------------------------------------------------------------------------ */

/* Whether the for's parentheses (p just past its '(') hold `declaration : range`: a ':'
 * before any ';' or '?' at their own level. *colon, *close: the ':' and the ')', as
 * offsets from p's position. */
static bool at_range_for(lat__parser *p, size_t *colon, size_t *close)
{
    if (!at_declaration(p))
        return false;
    int depth = 0;
    *colon = 0;
    for (size_t k = 0;; k++) {
        const lat__tok *t = lat__peek_at(p, k);
        if (t->kind == LAT_TK_EOF)
            return false;
        if (t->kind != LAT_TK_PUNCT)
            continue;
        switch (t->punct) {
        case LAT_P_LPAREN: case LAT_P_LBRACKET: case LAT_P_LBRACE:
            depth++;
            break;
        case LAT_P_RPAREN: case LAT_P_RBRACKET: case LAT_P_RBRACE:
            if (depth-- == 0) {
                *close = k;
                return *colon != 0 && t->punct == LAT_P_RPAREN;
            }
            break;
        case LAT_P_SEMI: case LAT_P_QUESTION:
            if (depth == 0)
                return false;
            break;
        case LAT_P_COLON:
            if (depth == 0 && !*colon)
                *colon = k;
            break;
        default:
            break;
        }
    }
}

/* Tokens for one piece of a rewritten statement: the program's own (copied, so their
 * places are kept for errors) and words of ours (lexed at `at`). */
static void toks_add(lat__parser *p, lat__toks *to, const lat__tok *from, size_t n)
{
    if (to->n + n + 1 >= to->cap)
        to->items = lat__arena_grow(&p->u->arena, to->items, &to->cap, to->n + n + 2, sizeof *to->items);
    memcpy(&to->items[to->n], from, n * sizeof *from);
    to->n += n;
    to->items[to->n] = (lat__tok){.kind = LAT_TK_EOF, .loc = n ? from[n - 1].loc : (lat__loc){0}};
}

static void toks_words(lat__parser *p, lat__toks *to, const char *text, lat__loc at)
{
    lat__toks w = {0};
    lat__lex_text(p->u, text, strlen(text), at, &w);
    toks_add(p, to, w.items, w.n);
}

/* Parses a piece of tokens in place of the program's (its scopes and function the same),
 * as a declaration (decl) or an expression. */
static void *parse_piece(lat__parser *p, lat__toks *piece, bool decl)
{
    lat__tok *toks = p->toks;
    size_t ntoks = p->ntoks, pos = p->pos;
    const char **pragma_at = p->pragma_at;
    p->toks = piece->items;
    p->ntoks = piece->n;
    p->pos = 0;
    p->pragma_at = NULL;
    size_t bracket = 0;
    void *r = !decl                              ? (void *)lat__parse_expr(p)
              : at_structured_binding(p, &bracket) ? (void *)structured_binding(p, bracket)
                                                   : (void *)declaration_statement(p);
    if (!lat__at_eof(p) && !p->panic)
        lat__syntax_error(p, decl ? "the end of the declaration" : "the end of the expression");
    p->toks = toks;
    p->ntoks = ntoks;
    p->pos = pos;
    p->pragma_at = pragma_at;
    return r;
}

/* Our own words, parsed as parse_piece does. */
static void *parse_words(lat__parser *p, const char *text, lat__loc at, bool decl)
{
    lat__toks piece = {0};
    toks_words(p, &piece, text, at);
    return parse_piece(p, &piece, decl);
}


/* The rest of a range-based for, over a class or an array alike: the element's
 * declaration (decl, colon tokens, completed by `element`, e.g. "= *__lat_begin;") and
 * the body, in a scope of their own, as loop's body; loop ends outer, which is returned. */
static lat__stmt *range_for_body(lat__parser *p, lat__stmt *loop, lat__stmt *outer, lat__tok *decl,
                                 size_t colon, size_t after, lat__loc at, const char *element)
{
    lat__scope_open(p);
    lat__stmt *body = lat__stmt_new(p, LAT_S_COMPOUND, loop->loc);
    lat__toks piece = {0};
    toks_add(p, &piece, decl, colon);
    toks_words(p, &piece, element, at);
    lat__stmt *es = parse_piece(p, &piece, true);
    if (es)
        LAT_PUSH(&p->u->arena, body->items, es);
    p->pos = after;
    lat__stmt *b = loop_body(p, loop);
    if (b)
        LAT_PUSH(&p->u->arena, body->items, b);
    body->end = p->toks[p->pos - 1].loc;
    lat__scope_close(p);
    loop->body = body;
    LAT_PUSH(&p->u->arena, outer->items, loop);
    return outer;
}

/* for (declaration : range) body over a class with begin() and end() (std::array, a
 * container of the program's), as C++ rewrites it:
 *     { auto &__lat_range = (range); auto __lat_end = __lat_range.end();
 *       for (auto __lat_begin = __lat_range.begin(); __lat_begin != __lat_end; ++__lat_begin)
 *           { declaration = *__lat_begin; body } }
 * rs is the range's declaration, in outer already made. */
static lat__stmt *range_for_class(lat__parser *p, lat__stmt *loop, lat__stmt *outer, lat__stmt *rs, lat__tok *decl,
                                  size_t colon, size_t after, lat__loc at)
{
    LAT_PUSH(&p->u->arena, outer->items, rs);
    lat__stmt *es = parse_words(p, "auto __lat_end = __lat_range.end();", at, true);
    if (es)
        LAT_PUSH(&p->u->arena, outer->items, es);
    loop->init = parse_words(p, "auto __lat_begin = __lat_range.begin();", at, true);
    loop->e = lat__condition(p, parse_words(p, "__lat_begin != __lat_end", at, false), "for");
    loop->step = parse_words(p, "++__lat_begin", at, false);
    return range_for_body(p, loop, outer, decl, colon, after, at, "= *__lat_begin;");
}

/* for (declaration : range) body, over an array: as
 *     { auto &__lat_range = (range);
 *       for (unsigned long __lat_index = 0; __lat_index < N; __lat_index++)
 *           { declaration = __lat_range[__lat_index]; body } }
 * (C++'s own rewriting, with the array's bounds for begin and end). p is just past the
 * '('; colon and close are offsets from there; loop is the for statement to fill. */
static lat__stmt *range_for(lat__parser *p, lat__stmt *loop, size_t colon, size_t close)
{
    lat__tok *decl = lat__peek(p), *range = lat__peek_at(p, colon + 1);
    lat__loc at = lat__peek_at(p, colon)->loc;
    size_t after = p->pos + close + 1;
    lat__stmt *outer = lat__stmt_new(p, LAT_S_COMPOUND, loop->loc);
    lat__toks piece = {0};
    if (lat__tok_is_punct(range, LAT_P_LBRACE)) {
        /* for (int x : {1, 2, 4}): C++'s initializer_list<E>, E the elements' type (the
         * first's), as a local array of them */
        size_t first = 1, depth = 0;
        while (colon + 1 + first < close) {
            const lat__tok *t = lat__peek_at(p, colon + 1 + first);
            if (depth == 0 && (lat__tok_is_punct(t, LAT_P_COMMA) || lat__tok_is_punct(t, LAT_P_RBRACE)))
                break;
            if (lat__tok_is_punct(t, LAT_P_LPAREN) || lat__tok_is_punct(t, LAT_P_LBRACKET) || lat__tok_is_punct(t, LAT_P_LBRACE))
                depth++;
            else if (lat__tok_is_punct(t, LAT_P_RPAREN) || lat__tok_is_punct(t, LAT_P_RBRACKET) ||
                     lat__tok_is_punct(t, LAT_P_RBRACE))
                depth--;
            first++;
        }
        toks_words(p, &piece, "const __typeof__(", at);
        toks_add(p, &piece, range + 1, first - 1);
        toks_words(p, &piece, ") __lat_range[] =", at);
        toks_add(p, &piece, range, close - colon - 1);
        toks_words(p, &piece, ";", at);
    } else {
        toks_words(p, &piece, "auto &__lat_range = (", at);
        toks_add(p, &piece, range, close - colon - 1);
        toks_words(p, &piece, ");", at);
    }
    lat__stmt *rs = parse_piece(p, &piece, true);
    lat__type *rt = rs && rs->decls && rs->decls->first ? rs->decls->first->sym->type : NULL;
    if (rt && rt->kind == LAT_TY_PTR && rt->ref)
        rt = rt->base;
    if (rt && lat__is_record(rt) && rt->rec && lat__find_method(rt->rec, lat__atom_get(&p->u->atoms, "begin", 5)) &&
        lat__find_method(rt->rec, lat__atom_get(&p->u->atoms, "end", 3)))
        return range_for_class(p, loop, outer, rs, decl, colon, after, at);
    if (!rt || rt->kind != LAT_TY_ARRAY || rt->count < 0) {
        if (!p->panic)
            lat__unsupported(p, range, rt ? "a range-based for over anything but an array of known size or a class with begin() and end()"
                                          : "this range-based for",
                             "arrays and classes with begin() and end() are its ranges in lattice; write an indexed for loop");
        /* the body, without the element it would declare, is not read: past it */
        p->pos = after;
        if (lat__at_punct(p, LAT_P_LBRACE))
            lat__skip_group(p);
        else
            lat__skip_statement(p);
        return loop;
    }
    LAT_PUSH(&p->u->arena, outer->items, rs);
    char bound[96];
    snprintf(bound, sizeof bound, "__lat_index < %lld", (long long)rt->count);
    loop->init = parse_words(p, "unsigned long __lat_index = 0;", at, true);
    loop->e = lat__condition(p, parse_words(p, bound, at, false), "for");
    loop->step = parse_words(p, "__lat_index++", at, false);
    return range_for_body(p, loop, outer, decl, colon, after, at, "= __lat_range[__lat_index];");
}

/* ---- structured bindings ------------------------------------------------------------------- */

/* `auto [a, b] = e;` (also const, &, attributes): *open is the '[' as an offset. */
static bool at_structured_binding(lat__parser *p, size_t *open)
{
    size_t k = 0;
    while (lat__tok_kw(lat__peek_at(p, k), LAT_KW_CONST) || lat__tok_kw(lat__peek_at(p, k), LAT_KW_VOLATILE) ||
           lat__tok_kw(lat__peek_at(p, k), LAT_KW_STATIC))
        k++;
    if (!lat__tok_kw(lat__peek_at(p, k), LAT_KW_AUTO))
        return false;
    k++;
    while (lat__tok_kw(lat__peek_at(p, k), LAT_KW_CONST) || lat__tok_is_punct(lat__peek_at(p, k), LAT_P_AMP) ||
           lat__tok_is_punct(lat__peek_at(p, k), LAT_P_ANDAND))
        k++;
    if (!lat__tok_is_punct(lat__peek_at(p, k), LAT_P_LBRACKET) || lat__peek_at(p, k + 1)->kind != LAT_TK_IDENT)
        return false;
    *open = k;
    return true;
}

/* auto [a, b] = e; as C++ defines it, with the struct's data members in order:
 *     auto __lat_bindN = e;  auto &a = __lat_bindN.m0;  auto &b = __lat_bindN.m1;
 * (the same specifiers and & on the hidden object; one declaration statement). */
static lat__stmt *structured_binding(lat__parser *p, size_t open)
{
    lat__tok *first = lat__peek(p), *bracket = lat__peek_at(p, open);
    LAT_VEC(lat__tok *) names = {0};
    size_t k = open + 1;
    while (lat__peek_at(p, k)->kind == LAT_TK_IDENT) {
        LAT_PUSH(&p->u->arena, names, lat__peek_at(p, k));
        k++;
        if (!lat__tok_is_punct(lat__peek_at(p, k), LAT_P_COMMA))
            break;
        k++;
    }
    size_t end = k; /* the ']' */
    while (lat__peek_at(p, end)->kind != LAT_TK_EOF && !lat__tok_is_punct(lat__peek_at(p, end), LAT_P_SEMI))
        end++;
    if (!lat__tok_is_punct(lat__peek_at(p, k), LAT_P_RBRACKET) ||
        !lat__tok_is_punct(lat__peek_at(p, end), LAT_P_SEMI)) {
        lat__syntax_error(p, "a structured binding: auto [name, ...] = expression;");
        lat__skip_statement(p);
        return NULL;
    }
    for (size_t i = 0; i < open; i++)
        if (lat__tok_is_punct(lat__peek_at(p, i), LAT_P_ANDAND)) {
            lat__unsupported(p, lat__peek_at(p, i), "a structured binding declared auto &&",
                             "write auto or auto & before the brackets");
            p->pos += end + 1;
            return NULL;
        }
    char hidden[48];
    snprintf(hidden, sizeof hidden, "__lat_bind%d", ++p->anon);
    lat__toks piece = {0};
    toks_add(p, &piece, first, open);
    toks_words(p, &piece, hidden, bracket->loc);
    toks_add(p, &piece, lat__peek_at(p, k + 1), end - k);
    p->pos += end + 1;
    lat__stmt *s = parse_piece(p, &piece, true);
    lat__decl *d = s && s->kind == LAT_S_DECL && s->decls ? s->decls->first : NULL;
    lat__type *t = d && d->sym ? d->sym->type : NULL;
    bool by_ref = t && t->kind == LAT_TY_PTR && t->ref;
    if (by_ref)
        t = t->base;
    if (!t)
        return s;
    lat__decl **tail = &d->next;
    while (*tail)
        tail = &(*tail)->next;
    if (by_ref && t->kind == LAT_TY_ARRAY && t->count >= 0) {
        /* auto &[x, y] = arr;: a reference to each element */
        if ((size_t)t->count != names.n) {
            lat__error_tok(p, bracket, "a structured binding of %zu names to an array of %lld elements", names.n,
                           (long long)t->count);
            return s;
        }
        for (size_t i = 0; i < names.n; i++) {
            char text[256];
            snprintf(text, sizeof text, "auto &%s = %s[%zu];", names.items[i]->atom->name, hidden, i);
            lat__stmt *b = parse_words(p, text, names.items[i]->loc, true);
            if (b && b->kind == LAT_S_DECL && b->decls && b->decls->first) {
                *tail = b->decls->first;
                while (*tail)
                    tail = &(*tail)->next;
            }
        }
        return s;
    }
    if (!lat__is_record(t) || !t->rec || t->rec->kind == LAT_TY_UNION) {
        lat__unsupported(p, bracket, "a structured binding of anything but a struct (an array, a tuple-like class)",
                         "bind a struct's members, or index the array");
        return s;
    }
    lat__record *r = t->rec;
    if (r->fields.n && r->fields.items[0].name && strcmp(r->fields.items[0].name->name, "__lat_head") == 0) {
        /* std::tuple binds through get<I>: element I is the head of the I-th tail (a
         * reference one, std::tie's, refers to what it refers to) */
        size_t count = 0;
        for (const lat__record *q = r; q && q->fields.n && q->fields.items[0].name &&
                                       strcmp(q->fields.items[0].name->name, "__lat_head") == 0;) {
            count++;
            const lat__record *next = NULL;
            for (size_t i = 0; i < q->fields.n; i++)
                if (q->fields.items[i].name && strcmp(q->fields.items[i].name->name, "__lat_tail") == 0 &&
                    lat__is_record(q->fields.items[i].type))
                    next = q->fields.items[i].type->rec;
            q = next;
        }
        if (count != names.n) {
            lat__error_tok(p, bracket, "a structured binding of %zu names to a tuple of %zu elements", names.n, count);
            return s;
        }
        for (size_t i = 0; i < names.n; i++) {
            char text[1024];
            int len = snprintf(text, sizeof text, "auto &%s = %s", names.items[i]->atom->name, hidden);
            for (size_t k2 = 0; k2 < i && len > 0 && (size_t)len < sizeof text - 32; k2++)
                len += snprintf(text + len, sizeof text - (size_t)len, ".__lat_tail");
            snprintf(text + len, sizeof text - (size_t)len, ".__lat_head;");
            lat__stmt *b = parse_words(p, text, names.items[i]->loc, true);
            if (b && b->kind == LAT_S_DECL && b->decls && b->decls->first) {
                *tail = b->decls->first;
                while (*tail)
                    tail = &(*tail)->next;
            }
        }
        return s;
    }
    size_t fields = 0;
    for (size_t i = 0; i < r->fields.n; i++)
        fields += r->fields.items[i].name != NULL;
    if (fields != names.n || fields != r->fields.n) {
        lat__error_tok(p, bracket, "a structured binding of %zu names to %s, which has %zu data members",
                       names.n, lat__type_str(p->u, t, NULL, false), r->fields.n);
        return s;
    }
    for (size_t i = 0; i < names.n; i++) {
        char text[256];
        snprintf(text, sizeof text, "auto &%s = %s.%s;", names.items[i]->atom->name, hidden,
                 r->fields.items[i].name->name);
        lat__stmt *b = parse_words(p, text, names.items[i]->loc, true);
        if (b && b->kind == LAT_S_DECL && b->decls && b->decls->first) {
            *tail = b->decls->first;
            while (*tail)
                tail = &(*tail)->next;
        }
    }
    return s;
}

/* At the '(' of an if or a switch: 1 for C++17's init-statement (`if (int t = f(); t >
 * 2)`, `switch (auto k = key(); k)`), 2 for a declaration as the condition (`if (T *q =
 * find(x))`), 0 for a plain condition. */
static int selection_form(lat__parser *p)
{
    int depth = 0;
    bool assigns = false; /* a declaration as the condition has an initializer: T x = e, T x{e} */
    for (size_t k = 1;; k++) {
        const lat__tok *t = lat__peek_at(p, k);
        if (t->kind == LAT_TK_EOF)
            return 0;
        if (t->kind != LAT_TK_PUNCT)
            continue;
        if (t->punct == LAT_P_LPAREN || t->punct == LAT_P_LBRACKET || t->punct == LAT_P_LBRACE)
            depth++;
        else if (t->punct == LAT_P_RPAREN || t->punct == LAT_P_RBRACKET || t->punct == LAT_P_RBRACE) {
            if (depth-- == 0)
                break;
        } else if (t->punct == LAT_P_SEMI && depth == 0)
            return 1;
        if (depth == 0 && t->punct == LAT_P_ASSIGN)
            assigns = true;
        if (depth == 1 && t->punct == LAT_P_LBRACE)
            assigns = true;
    }
    if (!assigns)
        return 0;
    size_t save = p->pos;
    lat__next(p);
    bool decl = at_declaration(p);
    p->pos = save;
    return decl ? 2 : 0;
}

/* The declaration or statement before an if's or switch's condition (form 1 or 2 of
 * selection_form; p past the '('), in the scope the caller opened; for form 2, *cond is
 * its variable, the condition. */
static lat__stmt *selection_init(lat__parser *p, int form, lat__expr **cond)
{
    *cond = NULL;
    if (form == 1) {
        if (at_declaration(p))
            return declaration_statement(p);
        lat__stmt *e = lat__stmt_new(p, LAT_S_EXPR, lat__peek(p)->loc);
        e->e = lat__parse_expr(p);
        lat__expect(p, LAT_P_SEMI, "after the init-statement");
        return e;
    }
    /* `T x = e` up to the ')': a declaration of its own, then x */
    size_t from = p->pos;
    int depth = 0;
    while (!lat__at_eof(p)) {
        if (lat__at_punct(p, LAT_P_LPAREN) || lat__at_punct(p, LAT_P_LBRACKET) || lat__at_punct(p, LAT_P_LBRACE))
            depth++;
        else if ((lat__at_punct(p, LAT_P_RPAREN) || lat__at_punct(p, LAT_P_RBRACKET) || lat__at_punct(p, LAT_P_RBRACE)) &&
                 depth-- == 0)
            break;
        lat__next(p);
    }
    size_t close = p->pos;
    lat__toks piece = {0};
    toks_add(p, &piece, &p->toks[from], close - from);
    toks_words(p, &piece, ";", p->toks[close].loc);
    lat__stmt *d = parse_piece(p, &piece, true);
    p->pos = close;
    lat__decl *first = d && d->kind == LAT_S_DECL && d->decls ? d->decls->first : NULL;
    if (first && first->sym) {
        lat__expr *n = lat__expr_new(p, LAT_E_NAME, first->sym->loc);
        n->sym = first->sym;
        n->type = first->sym->type;
        n->flags |= LAT_EF_LVALUE;
        *cond = lat__deref_reference(p, n);
    } else {
        *cond = lat__error_expr(p, p->toks[from].loc);
    }
    return d;
}

/* { init; stmt }: a selection statement with its init-statement, in their scope. */
static lat__stmt *with_init(lat__parser *p, lat__stmt *init, lat__stmt *s)
{
    lat__stmt *c = lat__stmt_new(p, LAT_S_COMPOUND, s->loc);
    if (init)
        LAT_PUSH(&p->u->arena, c->items, init);
    LAT_PUSH(&p->u->arena, c->items, s);
    c->end = p->toks[p->pos ? p->pos - 1 : 0].loc;
    return c;
}

static lat__expr *paren_condition(lat__parser *p, const char *what)
{
    lat__expect(p, LAT_P_LPAREN, what);
    lat__expr *e = lat__parse_expr(p);
    lat__expect(p, LAT_P_RPAREN, "after the condition");
    return lat__condition(p, e, what);
}

/* Steps over a statement's tokens without parsing them (a discarded if constexpr branch,
 * which an instance of a template may not be able to compile). */
static void skip_statement_tokens(lat__parser *p)
{
    lat__tok *t = lat__peek(p);
    if (lat__tok_is_punct(t, LAT_P_LBRACE)) {
        lat__skip_group(p);
        return;
    }
    if (lat__tok_kw(t, LAT_KW_IF) || lat__tok_kw(t, LAT_KW_FOR) || lat__tok_kw(t, LAT_KW_WHILE) ||
        lat__tok_kw(t, LAT_KW_SWITCH)) {
        bool is_if = lat__tok_kw(t, LAT_KW_IF);
        lat__next(p);
        if (lat__at_kw(p, LAT_KW_CONSTEXPR))
            lat__next(p);
        if (lat__at_punct(p, LAT_P_LPAREN))
            lat__skip_group(p);
        skip_statement_tokens(p);
        if (is_if && lat__at_kw(p, LAT_KW_ELSE)) {
            lat__next(p);
            skip_statement_tokens(p);
        }
        return;
    }
    if (lat__tok_kw(t, LAT_KW_DO)) {
        lat__next(p);
        skip_statement_tokens(p);
        if (lat__at_kw(p, LAT_KW_WHILE)) {
            lat__next(p);
            if (lat__at_punct(p, LAT_P_LPAREN))
                lat__skip_group(p);
        }
        lat__accept(p, LAT_P_SEMI);
        return;
    }
    while (!lat__at_eof(p) && !lat__at_punct(p, LAT_P_SEMI) && !lat__at_punct(p, LAT_P_RBRACE)) {
        if (lat__at_punct(p, LAT_P_LPAREN) || lat__at_punct(p, LAT_P_LBRACKET) || lat__at_punct(p, LAT_P_LBRACE))
            lat__skip_group(p);
        else
            lat__next(p);
    }
    lat__accept(p, LAT_P_SEMI);
}


/* if constexpr (c) a else b: only the branch c chooses is parsed (C++17), the other may
 * not compile for this template instance. */
static lat__stmt *if_constexpr(lat__parser *p, lat__stmt *s)
{
    lat__tok *kw = lat__next(p);
    lat__expr *c = paren_condition(p, "after if constexpr");
    bool known = (c->flags & LAT_EF_CONST) != 0;
    if (!known && !(c->flags & LAT_EF_ERROR))
        lat__error_tok(p, kw, "the condition of 'if constexpr' is not a constant");
    bool take = known && c->ival != 0;
    lat__stmt *then = NULL, *els = NULL;
    if (take)
        then = sub_statement(p);
    else
        skip_statement_tokens(p);
    if (lat__at_kw(p, LAT_KW_ELSE)) {
        lat__next(p);
        if (!take && known)
            els = sub_statement(p);
        else
            skip_statement_tokens(p);
    }
    lat__stmt *chosen = take ? then : els;
    if (chosen)
        return chosen;
    s->kind = LAT_S_NULL;
    return s;
}

static lat__stmt *loop_body(lat__parser *p, lat__stmt *loop)
{
    LAT_PUSH(&p->u->arena, p->jumps, loop);
    lat__stmt *b = sub_statement(p);
    p->jumps.n--;
    return b;
}

static lat__stmt *statement_(lat__parser *p);

static lat__stmt *statement(lat__parser *p)
{
    lat__parse_enter(p, 0);
    lat__stmt *s = statement_(p);
    lat__parse_leave(p);
    return s;
}

/* A statement of C++ that the dialect has not (throw, a template or namespace in a
 * function): refused by name and skipped, so that parsing goes on past it. */
static lat__stmt *refused_statement(lat__parser *p, const lat__tok *t)
{
    char what[48];
    snprintf(what, sizeof what, "'%s'", t->atom->name);
    lat__unsupported(p, t, what, lat__why_cxx);
    lat__next(p);
    lat__skip_statement(p);
    return NULL;
}

static lat__stmt *statement_(lat__parser *p)
{
    lat__skip_std_attributes(p); /* [[likely]], [[fallthrough]];, [[maybe_unused]] int x */
    lat__tok *t = lat__peek(p);
    lat__stmt *s;
    if (lat__tok_is_punct(t, LAT_P_LBRACE))
        return lat__parse_compound(p);
    if (lat__accept(p, LAT_P_SEMI))
        return lat__stmt_new(p, LAT_S_NULL, t->loc);
    if (t->kind == LAT_TK_IDENT && !t->atom->kw && lat__tok_is_punct(lat__peek_at(p, 1), LAT_P_COLON)) {
        lat__next(p);
        lat__next(p);
        s = lat__stmt_new(p, LAT_S_LABEL, t->loc);
        s->label = t->atom;
        if (p->fn) {
            for (size_t i = 0; i < p->fn->labels.n; i++)
                if (p->fn->labels.items[i]->label == t->atom)
                    lat__error_tok(p, t, "duplicate label '%s'", t->atom->name);
            LAT_PUSH(&p->u->arena, p->fn->labels, s);
        }
        s->body = lat__at_punct(p, LAT_P_RBRACE) ? lat__stmt_new(p, LAT_S_NULL, t->loc) : sub_statement(p);
        return s;
    }
    switch (t->kind == LAT_TK_IDENT ? t->atom->kw : 0) {
    case LAT_KW_IF: {
        lat__next(p);
        s = lat__stmt_new(p, LAT_S_IF, t->loc);
        if (lat__at_kw(p, LAT_KW_CONSTEXPR))
            return if_constexpr(p, s);
        int form = lat__at_punct(p, LAT_P_LPAREN) ? selection_form(p) : 0;
        lat__stmt *init = NULL;
        if (form) {
            lat__next(p);
            lat__scope_open(p);
            lat__expr *cond;
            init = selection_init(p, form, &cond);
            s->e = lat__condition(p, cond ? cond : lat__parse_expr(p), "after if");
            lat__expect(p, LAT_P_RPAREN, "after the condition");
        } else {
            s->e = paren_condition(p, "after if");
        }
        s->body = sub_statement(p);
        if (lat__at_kw(p, LAT_KW_ELSE)) {
            lat__next(p);
            s->els = sub_statement(p);
        }
        if (!form)
            return s;
        lat__scope_close(p);
        return with_init(p, init, s);
    }
    case LAT_KW_WHILE:
        lat__next(p);
        s = lat__stmt_new(p, LAT_S_WHILE, t->loc);
        s->e = paren_condition(p, "after while");
        s->body = loop_body(p, s);
        return s;
    case LAT_KW_DO:
        lat__next(p);
        s = lat__stmt_new(p, LAT_S_DO, t->loc);
        s->body = loop_body(p, s);
        if (!lat__at_kw(p, LAT_KW_WHILE)) {
            lat__syntax_error(p, "'while' after the body of do");
            return s;
        }
        lat__next(p);
        s->e = paren_condition(p, "after do ... while");
        lat__expect(p, LAT_P_SEMI, "after do ... while (...)");
        return s;
    case LAT_KW_FOR: {
        lat__next(p);
        s = lat__stmt_new(p, LAT_S_FOR, t->loc);
        lat__expect(p, LAT_P_LPAREN, "after for");
        lat__scope_open(p);
        size_t colon = 0, close = 0;
        if (at_range_for(p, &colon, &close)) {
            lat__stmt *r = range_for(p, s, colon, close);
            lat__scope_close(p);
            return r;
        }
        if (!lat__at_punct(p, LAT_P_SEMI)) {
            if (at_declaration(p)) {
                s->init = declaration_statement(p);
            } else {
                lat__tok *it = lat__peek(p);
                s->init = lat__stmt_new(p, LAT_S_EXPR, it->loc);
                s->init->e = lat__parse_expr(p);
                lat__expect(p, LAT_P_SEMI, "after the for loop's initialization");
            }
        } else {
            lat__next(p);
        }
        if (!lat__at_punct(p, LAT_P_SEMI))
            s->e = lat__condition(p, lat__parse_expr(p), "for");
        lat__expect(p, LAT_P_SEMI, "after the for loop's condition");
        if (!lat__at_punct(p, LAT_P_RPAREN))
            s->step = lat__parse_expr(p);
        if (!lat__expect(p, LAT_P_RPAREN, "to close for (")) {
            lat__scope_close(p);
            return s;
        }
        s->body = loop_body(p, s);
        lat__scope_close(p);
        return s;
    }
    case LAT_KW_SWITCH: {
        lat__next(p);
        s = lat__stmt_new(p, LAT_S_SWITCH, t->loc);
        int form = lat__at_punct(p, LAT_P_LPAREN) ? selection_form(p) : 0;
        lat__expect(p, LAT_P_LPAREN, "after switch");
        lat__stmt *init = NULL;
        lat__expr *cond = NULL;
        if (form) {
            lat__scope_open(p);
            init = selection_init(p, form, &cond);
        }
        lat__expr *e = lat__rvalue(p, cond ? cond : lat__parse_expr(p));
        lat__expect(p, LAT_P_RPAREN, "after the switch's value");
        if (!lat__is_integer(e->type) && !(e->flags & LAT_EF_ERROR))
            lat__error_at(p->u, e->loc, "a switch on %s, not an integer",
                          lat__type_str(p->u, e->type, NULL, false));
        else if (lat__is_integer(e->type))
            e = lat__cast_to(p, e, lat__promote(e->type), true);
        s->e = e;
        s->body = loop_body(p, s);
        if (!form)
            return s;
        lat__scope_close(p);
        return with_init(p, init, s);
    }
    case LAT_KW_CASE: {
        lat__next(p);
        s = lat__stmt_new(p, LAT_S_CASE, t->loc);
        bool ok;
        s->value = lat__parse_const_int(p, "a case label", &ok);
        s->high = s->value;
        if (lat__accept(p, LAT_P_ELLIPSIS))
            s->high = lat__parse_const_int(p, "a case range's end", &ok);
        lat__expect(p, LAT_P_COLON, "after the case label");
        lat__stmt *sw = switch_of(p);
        if (!sw) {
            lat__error_tok(p, t, "a case label outside a switch");
        } else {
            for (size_t i = 0; i < sw->cases.n; i++) {
                lat__stmt *c = sw->cases.items[i];
                if (c->kind == LAT_S_CASE && c->value <= s->high && s->value <= c->high)
                    lat__error_tok(p, t, "duplicate case value %lld", (long long)s->value);
            }
            LAT_PUSH(&p->u->arena, sw->cases, s);
        }
        s->body = lat__at_punct(p, LAT_P_RBRACE) ? lat__stmt_new(p, LAT_S_NULL, t->loc) : sub_statement(p);
        return s;
    }
    case LAT_KW_DEFAULT: {
        lat__next(p);
        s = lat__stmt_new(p, LAT_S_DEFAULT, t->loc);
        lat__expect(p, LAT_P_COLON, "after default");
        lat__stmt *sw = switch_of(p);
        if (!sw) {
            lat__error_tok(p, t, "a default label outside a switch");
        } else {
            for (size_t i = 0; i < sw->cases.n; i++)
                if (sw->cases.items[i]->kind == LAT_S_DEFAULT)
                    lat__error_tok(p, t, "two default labels in one switch");
            LAT_PUSH(&p->u->arena, sw->cases, s);
        }
        s->body = lat__at_punct(p, LAT_P_RBRACE) ? lat__stmt_new(p, LAT_S_NULL, t->loc) : sub_statement(p);
        return s;
    }
    case LAT_KW_BREAK:
    case LAT_KW_CONTINUE: {
        lat__next(p);
        bool brk = t->atom->kw == LAT_KW_BREAK;
        s = lat__stmt_new(p, brk ? LAT_S_BREAK : LAT_S_CONTINUE, t->loc);
        s->target = innermost(p, !brk);
        if (!s->target)
            lat__error_tok(p, t, "'%s' outside a loop%s", brk ? "break" : "continue", brk ? " or switch" : "");
        lat__expect(p, LAT_P_SEMI, brk ? "after break" : "after continue");
        return s;
    }
    case LAT_KW_RETURN: {
        lat__next(p);
        s = lat__stmt_new(p, LAT_S_RETURN, t->loc);
        lat__type *ret = p->fn ? p->fn->sym->type->base : &lat__ty_void;
        if (!lat__at_punct(p, LAT_P_SEMI)) {
            /* return {a, b}: the returned type's construction */
            lat__expr *e = lat__at_punct(p, LAT_P_LBRACE) && ret->kind != LAT_TY_VOID &&
                                   !lat__is_lambda_return_placeholder(ret)
                               ? lat__parse_construction(p, ret, lat__peek(p)->loc)
                               : lat__parse_expr(p);
            if (lat__is_decltype_return_placeholder(ret) && e->type->kind != LAT_TY_VOID) {
                /* decltype(auto) f() { return (x); }: a reference, as decltype((x)) */
                ret = lat__decltype_of(p, e);
                p->fn->sym->type->base = ret;
            } else if (lat__is_lambda_return_placeholder(ret)) {
                /* a lambda's first return gives its type */
                ret = e->type->kind == LAT_TY_VOID ? &lat__ty_void : lat__unqualified(p->u, lat__rvalue(p, e)->type);
                p->fn->sym->type->base = ret;
            }
            if (ret->kind == LAT_TY_VOID) {
                if (e->type->kind != LAT_TY_VOID && !(e->flags & LAT_EF_ERROR))
                    lat__error_at(p->u, e->loc, "a void function returns a value");
                s->e = e;
            } else {
                s->e = lat__convert_assign(p, e, ret, "returning");
            }
        } else if (p->ctor_self) {
            /* return; in a constructor: the object is done */
            lat__expr *e = lat__expr_new(p, LAT_E_NAME, t->loc);
            e->sym = p->ctor_self;
            e->type = p->ctor_self->type;
            e->flags |= LAT_EF_LVALUE;
            s->e = e;
        } else if (ret->kind != LAT_TY_VOID) {
            lat__error_tok(p, t, "a function returning %s returns no value",
                           lat__type_str(p->u, ret, NULL, false));
        }
        lat__expect(p, LAT_P_SEMI, "after return");
        return s;
    }
    case LAT_KW_GOTO: {
        lat__next(p);
        s = lat__stmt_new(p, LAT_S_GOTO, t->loc);
        lat__tok *l = lat__peek(p);
        if (l->kind != LAT_TK_IDENT) {
            if (lat__at_punct(p, LAT_P_STAR))
                lat__unsupported(p, l, "a computed goto", "labels as values");
            lat__syntax_error(p, "a label after goto");
            return s;
        }
        lat__next(p);
        s->label = l->atom;
        LAT_PUSH(&p->u->arena, p->gotos, s);
        lat__expect(p, LAT_P_SEMI, "after goto");
        return s;
    }
    case LAT_KW_ASM:
    case LAT_KW_ASM2:
    case LAT_KW_ASM3:
        return lat__parse_asm(p); /* parse_asm.c */
    case LAT_KW_ELSE:
        lat__error_tok(p, t, "'else' without a matching 'if'");
        lat__next(p);
        return NULL;
    case LAT_KW_TRY:
        lat__unsupported(p, t, "'try'", lat__why_cxx);
        lat__next(p);
        if (lat__at_punct(p, LAT_P_LBRACE))
            lat__skip_group(p);
        while (lat__at_kw(p, LAT_KW_CATCH)) {
            lat__next(p);
            if (lat__at_punct(p, LAT_P_LPAREN))
                lat__skip_group(p);
            if (lat__at_punct(p, LAT_P_LBRACE))
                lat__skip_group(p);
        }
        return NULL;
    case LAT_KW_USING:
        if (lat__at_type_alias(p))
            return declaration_statement(p);
        lat__using_declaration(p);
        return lat__stmt_new(p, LAT_S_NULL, t->loc);
    case LAT_KW_NAMESPACE:
        if (lat__tok_is_punct(lat__peek_at(p, 2), LAT_P_ASSIGN)) {
            lat__namespace_definition(p, NULL); /* namespace ops = a::b::ops; in a function */
            return lat__stmt_new(p, LAT_S_NULL, t->loc);
        }
        return refused_statement(p, t);
    case LAT_KW_THROW:
    case LAT_KW_TEMPLATE:
        return refused_statement(p, t);
    default:
        break;
    }
    s = lat__stmt_new(p, LAT_S_EXPR, t->loc);
    s->e = lat__parse_expr(p);
    lat__expect(p, LAT_P_SEMI, "after the expression");
    return s;
}
