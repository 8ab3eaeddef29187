/*
 * A lexer for CUDA C source as the user wrote it (before preprocessing), shared by the
 * kernel signature scanner and the emulator's translator. It keeps every token's exact
 * place (byte offset, line, column) so that rewrites can keep user tokens on their lines
 * and diagnostics can name line:column. Comments and whitespace are skipped; preprocessor
 * directives are lexed like any other line, with their tokens marked.
 */
#ifndef LAT_CU_LEX_H
#define LAT_CU_LEX_H

#include <stdbool.h>
#include <stddef.h>

typedef enum lat__tok_kind {
    LAT__TOK_EOF = 0,
    LAT__TOK_IDENT,
    LAT__TOK_NUMBER,
    LAT__TOK_STRING, /* "...", with any prefix (L, u8, u, U) */
    LAT__TOK_CHAR,   /* '...' */
    LAT__TOK_PUNCT   /* operators and punctuation; any other byte as a 1-byte token */
} lat__tok_kind;

enum {
    LAT__TOK_BOL = 1u << 0,   /* first token of a (logical) line */
    LAT__TOK_PP = 1u << 1,    /* part of a preprocessor directive line, '#' included */
    LAT__TOK_SPACE = 1u << 2, /* whitespace or a comment precedes it */
};

typedef struct lat__tok {
    lat__tok_kind kind;
    unsigned flags;
    size_t off; /* byte offset of the first character in the source */
    size_t len; /* bytes */
    int line;   /* 1-based */
    int col;    /* 1-based byte column */
} lat__tok;

typedef struct lat__toks {
    lat__tok *items; /* items[count] is an EOF token at the end of the source */
    size_t count;
    const char *src;
} lat__toks;

/* Splits src into tokens. Never fails on bad input (an unterminated comment or literal
 * ends at the end of the source or line). Returns 0, or -1 when out of memory. */
int lat__lex(const char *src, lat__toks *out);
void lat__toks_free(lat__toks *toks);

/* Whether token t is the punctuator or identifier s (exact spelling). */
bool lat__tok_is(const lat__toks *toks, const lat__tok *t, const char *s);
/* Index of the first token after the directive line that starts at index i (i is a '#'
 * token with LAT__TOK_PP and LAT__TOK_BOL). */
size_t lat__directive_end(const lat__toks *toks, size_t i);
/* Index of the token that closes the bracket ( [ { at index i, or toks->count if it is
 * not closed. Directive tokens are skipped when i is not itself in a directive. */
size_t lat__match_close(const lat__toks *toks, size_t i);

/* Whether an identifier token is a type qualifier (const, volatile, restrict and their
 * CUDA spellings), or a word that builds a type (int, unsigned, struct...) or qualifies
 * one: either way, not a declarator's name. */
bool lat__tok_is_qualifier(const lat__toks *toks, const lat__tok *t);
bool lat__tok_is_type_word(const lat__toks *toks, const lat__tok *t);

/* Where the name is in one parameter declaration, tokens [b, e): "const float *x",
 * "int a[4]", "float (*f)(int)", or unnamed: "float *", "int [4]". */
typedef struct lat__param_decl {
    size_t name;    /* the name's index, or SIZE_MAX when unnamed */
    size_t slot;    /* where the name is, or where one would be inserted */
    size_t array;   /* the first '[' after the name (an array parameter), or SIZE_MAX */
    bool pointer;   /* an array, or a parenthesised declarator such as (*f) */
} lat__param_decl;
void lat__parse_param_decl(const lat__toks *toks, size_t b, size_t e, lat__param_decl *out);

#endif
