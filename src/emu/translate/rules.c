/* The translator's token rules: what is rewritten (extern "C", calls of __device__
 * functions, C++'s functional casts and struct tags) and what is outside the dialect,
 * token by token (walk.h). */
#include "walk.h"

#include "error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the constructs outside the dialect --------------------------------------------- */

typedef struct unsupported {
    const char *name;
    const char *why;
} unsupported;

static const char why_warp_old[] =
    "the warp intrinsics without _sync, removed in CUDA 9 for Volta and later; use the _sync form";
const char lat__tr_why_cxx[] = "the emulator compiles C with CUDA's extensions, not C++";

static const unsupported unsupported_idents[] = {
    {"__shared__", "a __shared__ declaration anywhere but at the start of a declaration "
                   "of its own, in a function or at file scope"},
    {"__managed__", "managed memory"},
    {"__shfl", why_warp_old},
    {"__shfl_up", why_warp_old},
    {"__shfl_down", why_warp_old},
    {"__shfl_xor", why_warp_old},
    {"__ballot", why_warp_old},
    {"__any", why_warp_old},
    {"__all", why_warp_old},
    {"__uni_sync", "warp-level intrinsics"},
    {"tex1D", "textures"},
    {"tex2D", "textures"},
    {"tex3D", "textures"},
    {"tex1Dfetch", "textures"},
    {"surf2Dread", "surfaces"},
    {"surf2Dwrite", "surfaces"},
    {"template", lat__tr_why_cxx},
    {"class", lat__tr_why_cxx},
    {"namespace", lat__tr_why_cxx},
    {"new", lat__tr_why_cxx},
    {"delete", lat__tr_why_cxx},
    {"operator", lat__tr_why_cxx},
    {"try", lat__tr_why_cxx},
    {"catch", lat__tr_why_cxx},
    {"throw", lat__tr_why_cxx},
    {"using", lat__tr_why_cxx},
    {"typename", lat__tr_why_cxx},
    {"virtual", lat__tr_why_cxx},
    {"friend", lat__tr_why_cxx},
    {"this", lat__tr_why_cxx},
    {"public", lat__tr_why_cxx},
    {"private", lat__tr_why_cxx},
    {"protected", lat__tr_why_cxx},
    {"constexpr", lat__tr_why_cxx},
    {"decltype", lat__tr_why_cxx},
    {"static_cast", lat__tr_why_cxx},
    {"dynamic_cast", lat__tr_why_cxx},
    {"reinterpret_cast", lat__tr_why_cxx},
    {"const_cast", lat__tr_why_cxx},
    {"explicit", lat__tr_why_cxx},
    {"mutable", lat__tr_why_cxx},
    {"noexcept", lat__tr_why_cxx},
    {"thread_local", lat__tr_why_cxx},
    {"auto", "C++'s type deduction; C's `auto` storage class is not accepted either"},
};

/* The reason a name is outside the dialect, or NULL. */
static const char *unsupported_why(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof unsupported_idents / sizeof unsupported_idents[0]; i++) {
        const char *name = unsupported_idents[i].name;
        if (name[0] == s[0] && strlen(name) == n && memcmp(name, s, n) == 0)
            return unsupported_idents[i].why;
    }
    return NULL;
}

/* ---- tokens ------------------------------------------------------------------------------ */

void lat__tr_push_brace(walk *w, brace_kind kind)
{
    if (w->nbraces == w->braces_cap) {
        int cap = w->braces_cap ? w->braces_cap * 2 : 16;
        brace *p = realloc(w->braces, (size_t)cap * sizeof *p);
        if (!p) {
            w->t->oom = true;
            return;
        }
        w->braces = p;
        w->braces_cap = cap;
    }
    w->braces[w->nbraces++] = (brace){kind, w->paren};
    if (kind != BR_EXTERN_C)
        w->nested++;
}

static bool is_type_keyword(const walk *w, size_t i)
{
    static const char *const kw[] = {"int", "float", "double", "char", "short", "long",
                                     "unsigned", "signed", "bool"};
    for (size_t k = 0; k < sizeof kw / sizeof kw[0]; k++)
        if (is(w, i, kw[k]))
            return true;
    return false;
}

/* Whether the token before position i ends an operand (so what follows is an operator,
 * or a declaration goes on), rather than leaving an operand to come. After `{` `;` `}`
 * a statement starts: `float(x)` there is taken as a cast, not as a parenthesised
 * declarator (nobody writes `float (x);`). */
static bool operand_before(const walk *w, size_t prev)
{
    if (prev == SIZE_MAX)
        return true;
    const lat__tok *p = tok(w, prev);
    if (p->kind != LAT__TOK_PUNCT)
        return !is(w, prev, "return");
    return is(w, prev, ")") || is(w, prev, "]");
}

/* The rules for one token outside a directive's control words (code, or a #define's
 * body): C++ constructs and unsupported CUDA, device calls, functional casts. Returns
 * the last token it consumed (i, or the end of extern "C" {). in_pp: inside a #define. */
size_t lat__tr_rewrite_token(walk *w, size_t i, bool in_pp)
{
    tr *t = w->t;
    const lat__tok *tk = tok(w, i);
    const char *s = text_of(w, i);
    size_t prev = in_pp ? (i > 0 ? i - 1 : SIZE_MAX) : prev_code(w, i);
    size_t next = in_pp ? i + 1 : next_code(w, i);
    if (in_pp && next < w->toks->count && (tok(w, next)->flags & LAT__TOK_BOL))
        next = w->toks->count;

    if (tk->kind == LAT__TOK_IDENT) {
        if (t->pass == 1 && (!in_pp || t->cur_mac >= 0))
            lat__tr_note_ident(t, s, tk->len);
        const char *why = unsupported_why(s, tk->len);
        if (why) {
            char what[96];
            snprintf(what, sizeof what, "'%.*s'", (int)tk->len, s);
            lat__tr_reject(w, i, what, why);
            return i;
        }
        /* extern "C" (the module is C already). */
        if (is(w, i, "extern") && next < w->toks->count && tok(w, next)->kind == LAT__TOK_STRING) {
            bool open_brace = !in_pp && is(w, next_code(w, next), "{");
            size_t last = open_brace ? next_code(w, next) : next;
            lat__tr_replace(w, tk->off, tok(w, last)->off + tok(w, last)->len, "");
            if (open_brace) {
                lat__tr_push_brace(w, BR_EXTERN_C);
                w->decl_start = last + 1;
            }
            return last;
        }
        /* __shared__ variables: sizeof an array, uses of the others. */
        if (t->pass == 2 && !in_pp && is(w, i, "sizeof")) {
            size_t last;
            int index = lat__tr_shared_sizeof(w, i, &last);
            if (index >= 0) {
                char text[48];
                snprintf(text, sizeof text, "sizeof(__lat_sht%d)", index);
                lat__tr_replace(w, tk->off, tok(w, last)->off + tok(w, last)->len, text);
                return last;
            }
        }
        if (t->pass == 2) {
            char text[96];
            bool member = prev != SIZE_MAX && (is(w, prev, ".") || is(w, prev, "->"));
            const char *use = member ? NULL : lat__tr_shared_use(w, i, text, sizeof text);
            if (use) {
                lat__tr_replace(w, tk->off, tk->off + tk->len, use);
                return i;
            }
        }
        /* A call to a __device__ function passes the thread context on. */
        if (t->pass == 2 && i != w->plan_name && is(w, next, "(") &&
            !(prev != SIZE_MAX && (is(w, prev, ".") || is(w, prev, "->"))) &&
            lat__map_get(&t->devfns, s, tk->len, NULL)) {
            size_t after = in_pp ? next + 1 : next_code(w, next);
            bool empty = is(w, after, ")");
            const lat__tok *paren = tok(w, next);
            lat__tr_emit_upto(w, paren->off + paren->len);
            lat__tr_out_str(t, empty ? "__lat_t" : "__lat_t, ");
            return i;
        }
        if (t->pass == 2 && is(w, prev, "&") && !is(w, next, "(") &&
            lat__map_get(&t->devfns, s, tk->len, NULL)) {
            lat__tr_reject(w, i, "taking the address of a __device__ function",
                   "device function pointers");
            return i;
        }
        /* C++'s functional cast, float(x), becomes ((float)(x)). */
        if (t->pass == 2 && is_type_keyword(w, i) && is(w, next, "(") &&
            !operand_before(w, prev)) {
            size_t inner = in_pp ? next + 1 : next_code(w, next);
            if (!is(w, inner, "*") && !is(w, inner, "&") && !is(w, inner, ")")) {
                size_t close = lat__match_close(w->toks, next);
                if (close < w->toks->count) {
                    char cast[48];
                    snprintf(cast, sizeof cast, "((%.*s)(", (int)tk->len, s);
                    const lat__tok *paren = tok(w, next);
                    lat__tr_replace(w, tk->off, paren->off + paren->len, cast);
                    lat__tr_push_edit(w, close, EDIT_AFTER, ")");
                }
            }
            return i;
        }
        /* struct S { ... }: C++ names the type S too. */
        if (!in_pp && (is(w, i, "struct") || is(w, i, "union") || is(w, i, "enum"))) {
            size_t after = next;
            while (lat__tr_is_attribute_word(w, after) && is(w, next_code(w, after), "("))
                after = next_code(w, lat__match_close(w->toks, next_code(w, after)));
            bool tagged = tok(w, after)->kind == LAT__TOK_IDENT;
            if (tagged)
                after = next_code(w, after);
            if (is(w, after, "{") && !is(w, i, "enum"))
                w->record_brace = after;
            if (tagged && is(w, after, "{")) {
                next = prev_code(w, after);
                bool in_record = w->nbraces > 0 && w->braces[w->nbraces - 1].kind == BR_RECORD;
                bool typedefd = false;
                for (size_t j = w->decl_start; j < i; j++)
                    if (is(w, j, "typedef"))
                        typedefd = true;
                if (t->pass == 2 && !typedefd && !in_record) {
                    char td[300];
                    int n = (int)tok(w, next)->len;
                    snprintf(td, sizeof td, "typedef %.*s %.*s %.*s; ", (int)tk->len, s, n,
                             text_of(w, next), n, text_of(w, next));
                    lat__tr_replace(w, tk->off, tk->off, td);
                }
            }
            return i;
        }
        /* A function declared inside a struct: a member function. */
        if (!in_pp && w->nbraces > 0 && w->braces[w->nbraces - 1].kind == BR_RECORD &&
            w->braces[w->nbraces - 1].paren == w->paren && is(w, next, "(") &&
            !lat__tr_is_attribute_word(w, i) && !is(w, i, "sizeof") && !is(w, i, "_Alignof") &&
            !is(w, next_code(w, next), "*")) {
            lat__tr_reject(w, i, "a member function (a struct with methods)", lat__tr_why_cxx);
        }
        return i;
    }

    if (tk->kind == LAT__TOK_NUMBER) {
        if (memchr(s, '\'', tk->len))
            lat__tr_reject(w, i, "a digit separator", lat__tr_why_cxx);
        return i;
    }
    if (tk->kind != LAT__TOK_PUNCT)
        return i;
    if (is(w, i, "::")) {
        lat__tr_reject(w, i, "the scope operator '::'", lat__tr_why_cxx);
    } else if (is(w, i, "<<") && is(w, i + 1, "<") && !(tok(w, i + 1)->flags & LAT__TOK_SPACE)) {
        lat__tr_reject(w, i, "a kernel launch '<<<...>>>'", "launching kernels from device code");
    } else if (is(w, i, "&") && prev != SIZE_MAX && tok(w, prev)->kind == LAT__TOK_IDENT &&
               !is(w, prev, "return") && tok(w, next)->kind == LAT__TOK_IDENT &&
               is(w, in_pp ? next + 1 : next_code(w, next), "=")) {
        lat__tr_reject(w, i, "a reference variable", lat__tr_why_cxx);
    } else if (is(w, i, "[") && prev != SIZE_MAX &&
               (is(w, prev, "=") || is(w, prev, "(") || is(w, prev, ",") ||
                is(w, prev, "return") || is(w, prev, "{") || is(w, prev, ";")) &&
               (is(w, next, "]") ||
                ((is(w, next, "=") || is(w, next, "&")) &&
                 (is(w, next + 1, "]") || is(w, next + 1, ","))))) {
        lat__tr_reject(w, i, "a lambda expression", lat__tr_why_cxx);
    }
    return i;
}

/* Braces and declarations, outside directives. */
void lat__tr_track_structure(walk *w, size_t i)
{
    if (is(w, i, "(")) {
        w->paren++;
    } else if (is(w, i, ")")) {
        w->paren--;
    } else if (is(w, i, "{")) {
        lat__tr_push_brace(w, i == w->record_brace ? BR_RECORD : BR_OTHER);
        w->decl_start = i + 1;
    } else if (is(w, i, "}")) {
        if (w->nbraces > 0) {
            brace b = w->braces[--w->nbraces];
            if (b.kind == BR_EXTERN_C) {
                lat__tr_replace(w, tok(w, i)->off, tok(w, i)->off + 1, "");
            } else {
                w->nested--;
            }
            lat__tr_shared_scope_end(w);
        }
        w->decl_start = i + 1;
    } else if (is(w, i, ";")) {
        w->decl_start = i + 1;
    }
}

