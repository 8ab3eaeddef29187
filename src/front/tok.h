/*
 * Tokens of the front end: what the lexer makes of a file, what the preprocessor makes of
 * those, and what the parser reads. One struct for all three: the preprocessor's output
 * is the lexer's tokens, copied and marked with where the user sees them.
 */
#ifndef LAT_FRONT_TOK_H
#define LAT_FRONT_TOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A place in a source file: the unit's file table index (0: the root), 1-based line and
 * byte column. */
typedef struct lat__loc {
    uint32_t file;
    uint32_t line;
    uint32_t col;
} lat__loc;

typedef enum lat__tk {
    LAT_TK_EOF = 0,
    LAT_TK_IDENT,  /* identifiers and keywords (atom->kw tells which) */
    LAT_TK_NUMBER, /* a preprocessing number: 1, 0x1fu, 1.5e-3f, 1'000 */
    LAT_TK_CHAR,   /* 'a', L'a', u8'a' ... */
    LAT_TK_STRING, /* "a", L"a", u8"a", R"(raw)" is not C and is not recognised */
    LAT_TK_PUNCT,  /* punct tells which */
    LAT_TK_OTHER,  /* a byte that starts no token (`@`, a stray backslash...) */
    LAT_TK_PRAGMA, /* preprocessor output only: a #pragma or _Pragma; text is its body */
    LAT_TK_HEADER, /* lexer, in #include only: <name>, text with the brackets */
} lat__tk;

/* Punctuators, longest spelling first among those sharing a first character is the
 * lexer's business; here only the list. X(name, spelling). */
#define LAT_PUNCTS(X)                                                                      \
    X(LBRACKET, "[") X(RBRACKET, "]") X(LPAREN, "(") X(RPAREN, ")") X(LBRACE, "{")        \
    X(RBRACE, "}") X(DOT, ".") X(ARROW, "->") X(INC, "++") X(DEC, "--") X(AMP, "&")        \
    X(STAR, "*") X(PLUS, "+") X(MINUS, "-") X(TILDE, "~") X(BANG, "!") X(SLASH, "/")       \
    X(PERCENT, "%") X(SHL, "<<") X(SHR, ">>") X(LT, "<") X(GT, ">") X(LE, "<=")            \
    X(GE, ">=") X(EQ, "==") X(NE, "!=") X(CARET, "^") X(PIPE, "|") X(ANDAND, "&&")         \
    X(OROR, "||") X(QUESTION, "?") X(COLON, ":") X(SEMI, ";") X(ELLIPSIS, "...")           \
    X(ASSIGN, "=") X(MUL_ASSIGN, "*=") X(DIV_ASSIGN, "/=") X(MOD_ASSIGN, "%=")             \
    X(ADD_ASSIGN, "+=") X(SUB_ASSIGN, "-=") X(SHL_ASSIGN, "<<=") X(SHR_ASSIGN, ">>=")      \
    X(AND_ASSIGN, "&=") X(XOR_ASSIGN, "^=") X(OR_ASSIGN, "|=") X(COMMA, ",")               \
    X(HASH, "#") X(HASHHASH, "##") X(SCOPE, "::") X(ARROW_STAR, "->*") X(DOT_STAR, ".*")

typedef enum lat__punct {
    LAT_P_NONE = 0,
#define LAT_P_ENUM(name, spelling) LAT_P_##name,
    LAT_PUNCTS(LAT_P_ENUM)
#undef LAT_P_ENUM
    LAT_P_COUNT
} lat__punct;

/* The spelling of a punctuator. */
const char *lat__punct_spelling(lat__punct p);

enum {
    LAT_TF_BOL = 1u << 0,      /* first token of a line */
    LAT_TF_SPACE = 1u << 1,    /* white space or a comment before it */
    LAT_TF_NOEXPAND = 1u << 2, /* preprocessor: an identifier that must not be expanded */
    LAT_TF_MACRO = 1u << 3,    /* came out of a macro expansion */
    LAT_TF_SPLICED = 1u << 4,  /* lexer: contained a backslash-newline (text is a clean copy) */
};

struct lat__atom;
struct lat__hideset;

typedef struct lat__tok {
    const char *text; /* its spelling, not NUL-terminated (LAT_TK_PRAGMA: the body) */
    uint32_t len;
    uint8_t kind;     /* lat__tk */
    uint8_t punct;    /* lat__punct, for LAT_TK_PUNCT */
    uint16_t flags;   /* LAT_TF_* */
    struct lat__atom *atom; /* LAT_TK_IDENT: the interned name */
    lat__loc loc;     /* where the user sees it: a macro's tokens are at its invocation */
    lat__loc spell;   /* where it is spelled: in the macro's body for expanded tokens */
    const struct lat__hideset *hide; /* the preprocessor's; NULL elsewhere */
} lat__tok;

/* An array of tokens; items[n] is an LAT_TK_EOF token. */
typedef struct lat__toks {
    lat__tok *items;
    size_t n, cap;
} lat__toks;

static inline bool lat__tok_is_punct(const lat__tok *t, lat__punct p)
{
    return t->kind == LAT_TK_PUNCT && t->punct == p;
}

/* A binary operator's precedence (C11 6.5.5-6.5.14: 10 for '*' down to 1 for '||'); 0
 * for any other token. Shared by #if's evaluator and the parser. */
static inline int lat__binary_precedence(const lat__tok *t)
{
    if (!t || t->kind != LAT_TK_PUNCT)
        return 0;
    switch (t->punct) {
    case LAT_P_STAR: case LAT_P_SLASH: case LAT_P_PERCENT: return 10;
    case LAT_P_PLUS: case LAT_P_MINUS: return 9;
    case LAT_P_SHL: case LAT_P_SHR: return 8;
    case LAT_P_LT: case LAT_P_GT: case LAT_P_LE: case LAT_P_GE: return 7;
    case LAT_P_EQ: case LAT_P_NE: return 6;
    case LAT_P_AMP: return 5;
    case LAT_P_CARET: return 4;
    case LAT_P_PIPE: return 3;
    case LAT_P_ANDAND: return 2;
    case LAT_P_OROR: return 1;
    default: return 0;
    }
}

/* The operator a compound assignment applies ('+' for '+='); LAT_P_NONE for others. */
static inline lat__punct lat__compound_base(int op)
{
    switch (op) {
    case LAT_P_MUL_ASSIGN: return LAT_P_STAR;
    case LAT_P_DIV_ASSIGN: return LAT_P_SLASH;
    case LAT_P_MOD_ASSIGN: return LAT_P_PERCENT;
    case LAT_P_ADD_ASSIGN: return LAT_P_PLUS;
    case LAT_P_SUB_ASSIGN: return LAT_P_MINUS;
    case LAT_P_SHL_ASSIGN: return LAT_P_SHL;
    case LAT_P_SHR_ASSIGN: return LAT_P_SHR;
    case LAT_P_AND_ASSIGN: return LAT_P_AMP;
    case LAT_P_XOR_ASSIGN: return LAT_P_CARET;
    case LAT_P_OR_ASSIGN: return LAT_P_PIPE;
    default: return LAT_P_NONE;
    }
}

#endif
