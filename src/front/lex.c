/* The lexer: see lex.h. */
#include "lex.h"

#include <string.h>

static const char *const spellings[] = {
    NULL,
#define P_SPELL(name, spelling) spelling,
    LAT_PUNCTS(P_SPELL)
#undef P_SPELL
};

const char *lat__punct_spelling(lat__punct p)
{
    return p > 0 && p < LAT_P_COUNT ? spellings[p] : "";
}

typedef struct lexer {
    lat__unit *u;
    const char *s;
    size_t pos;
    uint32_t file, line;
    size_t line_start;
    bool spliced; /* a backslash-newline was crossed inside the current token */
} lexer;

static bool at_splice(const lexer *lx, size_t p)
{
    return lx->s[p] == '\\' && (lx->s[p + 1] == '\n' || (lx->s[p + 1] == '\r' && lx->s[p + 2] == '\n'));
}

static void skip_splices_at(lexer *lx)
{
    while (at_splice(lx, lx->pos)) {
        lx->pos += lx->s[lx->pos + 1] == '\n' ? 2 : 3;
        lx->line++;
        lx->line_start = lx->pos;
        lx->spliced = true;
    }
}

/* Called before every character is read: the test for a backslash inline, the rare
 * splice out of line (a third of the time to lex a file went to the call). */
static inline void skip_splices(lexer *lx)
{
    if (__builtin_expect(lx->s[lx->pos] == '\\', 0))
        skip_splices_at(lx);
}

/* The logical character at the cursor (backslash-newlines skipped). */
static char cur(lexer *lx)
{
    skip_splices(lx);
    return lx->s[lx->pos];
}

static inline __attribute__((always_inline)) void adv(lexer *lx)
{
    skip_splices(lx);
    if (lx->s[lx->pos] == '\n') {
        lx->line++;
        lx->line_start = lx->pos + 1;
    }
    if (lx->s[lx->pos])
        lx->pos++;
}

/* The k-th logical character after the cursor's (k = 1: the next one). */
static char peek(lexer *lx, int k)
{
    lexer save = *lx;
    for (int i = 0; i < k; i++)
        adv(lx);
    char c = cur(lx);
    *lx = save;
    return c;
}

static bool ident_start(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80;
}

static bool ident_char(unsigned char c)
{
    return ident_start(c) || (c >= '0' && c <= '9');
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Skips white space and comments; returns whether any was skipped, and sets *bol when a
 * line ended. */
static bool skip_space(lexer *lx, bool *bol)
{
    bool any = false;
    for (;;) {
        char c = cur(lx);
        if (c == '\n') {
            adv(lx);
            *bol = true;
            any = true;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            adv(lx);
            while (lx->s[lx->pos] == ' ' || lx->s[lx->pos] == '\t')
                lx->pos++;
            any = true;
        } else if (c == '/' && peek(lx, 1) == '/') {
            /* To the line's end, which a backslash-newline moves on. */
            for (;;) {
                size_t n = strcspn(lx->s + lx->pos, "\n\\");
                lx->pos += n;
                if (lx->s[lx->pos] != '\\')
                    break;
                if (at_splice(lx, lx->pos))
                    skip_splices_at(lx);
                else
                    lx->pos++;
            }
            any = true;
        } else if (c == '/' && peek(lx, 1) == '*') {
            adv(lx);
            adv(lx);
            while (cur(lx) && !(cur(lx) == '*' && peek(lx, 1) == '/'))
                adv(lx);
            if (cur(lx)) {
                adv(lx);
                adv(lx);
            }
            any = true;
        } else {
            return any;
        }
    }
}

/* A quoted literal from its opening quote; ends after the closing quote or, if there is
 * none, before the end of the line. */
static void scan_quoted(lexer *lx, char quote)
{
    adv(lx);
    for (;;) {
        char c = cur(lx);
        if (c == '\0' || c == '\n')
            return;
        adv(lx);
        if (c == quote)
            return;
        if (c == '\\' && cur(lx) && cur(lx) != '\n')
            adv(lx);
    }
}

static lat__punct scan_punct(lexer *lx)
{
    /* The next two characters straight from the text unless a splice may be on the way. */
    char c0 = cur(lx);
    const char *at = lx->s + lx->pos;
    char c1 = at[1] != '\\' ? at[1] : peek(lx, 1);
    char c2 = at[1] != '\\' && c1 && at[2] != '\\' ? at[2] : peek(lx, 2);
    static const struct {
        const char *s;
        lat__punct p;
    } multi[] = {
        {"...", LAT_P_ELLIPSIS}, {"<<=", LAT_P_SHL_ASSIGN}, {">>=", LAT_P_SHR_ASSIGN},
        {"->*", LAT_P_ARROW_STAR}, {"->", LAT_P_ARROW}, {"++", LAT_P_INC}, {"--", LAT_P_DEC},
        {"<<", LAT_P_SHL}, {">>", LAT_P_SHR}, {"<=", LAT_P_LE}, {">=", LAT_P_GE},
        {"==", LAT_P_EQ}, {"!=", LAT_P_NE}, {"&&", LAT_P_ANDAND}, {"||", LAT_P_OROR},
        {"*=", LAT_P_MUL_ASSIGN}, {"/=", LAT_P_DIV_ASSIGN}, {"%=", LAT_P_MOD_ASSIGN},
        {"+=", LAT_P_ADD_ASSIGN}, {"-=", LAT_P_SUB_ASSIGN}, {"&=", LAT_P_AND_ASSIGN},
        {"^=", LAT_P_XOR_ASSIGN}, {"|=", LAT_P_OR_ASSIGN}, {"##", LAT_P_HASHHASH},
        {"::", LAT_P_SCOPE}, {".*", LAT_P_DOT_STAR},
    };
    /* Most punctuators are followed by a blank or a name: the list only where a second
     * character of one of its entries follows. */
    bool may_be_multi = c1 && strchr(".<>+-=&|#:*", c1);
    for (size_t i = 0; may_be_multi && i < sizeof multi / sizeof multi[0]; i++) {
        const char *s = multi[i].s;
        if (s[0] != c0 || s[1] != c1 || (s[2] && s[2] != c2))
            continue;
        size_t n = strlen(s);
        for (size_t k = 0; k < n; k++)
            adv(lx);
        return multi[i].p;
    }
    static const char singles[] = "[](){}.&*+-~!/%<>^|?:;=,#";
    static const lat__punct single_p[] = {
        LAT_P_LBRACKET, LAT_P_RBRACKET, LAT_P_LPAREN, LAT_P_RPAREN, LAT_P_LBRACE,
        LAT_P_RBRACE, LAT_P_DOT, LAT_P_AMP, LAT_P_STAR, LAT_P_PLUS, LAT_P_MINUS,
        LAT_P_TILDE, LAT_P_BANG, LAT_P_SLASH, LAT_P_PERCENT, LAT_P_LT, LAT_P_GT,
        LAT_P_CARET, LAT_P_PIPE, LAT_P_QUESTION, LAT_P_COLON, LAT_P_SEMI, LAT_P_ASSIGN,
        LAT_P_COMMA, LAT_P_HASH,
    };
    const char *hit = c0 ? strchr(singles, c0) : NULL;
    if (!hit)
        return LAT_P_NONE;
    adv(lx);
    return single_p[hit - singles];
}

void lat__toks_push(lat__unit *u, lat__toks *t, const lat__tok *tok)
{
    if (t->n + 1 >= t->cap)
        t->items = lat__arena_grow(&u->arena, t->items, &t->cap, t->n + 2, sizeof *t->items);
    t->items[t->n++] = *tok;
    memset(&t->items[t->n], 0, sizeof t->items[t->n]);
}

/* Whether the tokens just before index n of out are `# include` (or include_next,
 * import) at the start of a line: a <...> name follows. */
static bool wants_header(const lat__toks *out)
{
    if (out->n < 2)
        return false;
    const lat__tok *h = &out->items[out->n - 2], *w = &out->items[out->n - 1];
    if (!(h->flags & LAT_TF_BOL) || !lat__tok_is_punct(h, LAT_P_HASH) || w->kind != LAT_TK_IDENT)
        return false;
    return (w->len == 7 && memcmp(w->text, "include", 7) == 0) ||
           (w->len == 12 && memcmp(w->text, "include_next", 12) == 0) ||
           (w->len == 6 && memcmp(w->text, "import", 6) == 0);
}

static void lex(lat__unit *u, const char *text, size_t len, uint32_t file, const lat__loc *fixed,
                lat__toks *out)
{
    (void)len;
    lexer lx = {.u = u, .s = text, .file = file, .line = 1};
    bool bol = true;
    for (;;) {
        bool space = skip_space(&lx, &bol);
        char c = cur(&lx);
        if (c == '\0')
            break;
        lat__tok t = {0};
        size_t start = lx.pos;
        t.loc.file = file;
        t.loc.line = lx.line;
        t.loc.col = (uint32_t)(lx.pos - lx.line_start + 1);
        t.flags = (uint16_t)((bol ? LAT_TF_BOL : 0) | (space ? LAT_TF_SPACE : 0));
        lx.spliced = false;
        bool header = c == '<' && wants_header(out);
        if (header) {
            adv(&lx);
            while (cur(&lx) && cur(&lx) != '\n' && cur(&lx) != '>')
                adv(&lx);
            if (cur(&lx) == '>')
                adv(&lx);
            t.kind = LAT_TK_HEADER;
        } else if (ident_start((unsigned char)c)) {
            /* A string or character prefix: L"", u8"", u'', U"". */
            size_t save = lx.pos;
            do { /* straight through the text, then across a splice if one follows */
                while (ident_char((unsigned char)text[lx.pos]))
                    lx.pos++;
            } while (ident_char((unsigned char)cur(&lx)));
            size_t n = lx.pos - save;
            const char *w = text + save;
            char q = cur(&lx);
            bool prefix = !lx.spliced && (q == '"' || q == '\'') &&
                          ((n == 1 && (w[0] == 'L' || w[0] == 'u' || w[0] == 'U')) ||
                           (n == 2 && w[0] == 'u' && w[1] == '8'));
            if (prefix) {
                scan_quoted(&lx, q);
                t.kind = q == '"' ? LAT_TK_STRING : LAT_TK_CHAR;
            } else {
                t.kind = LAT_TK_IDENT;
            }
        } else if (is_digit(c) || (c == '.' && is_digit(peek(&lx, 1)))) {
            adv(&lx);
            for (;;) {
                char d = cur(&lx);
                if ((d == 'e' || d == 'E' || d == 'p' || d == 'P') &&
                    (peek(&lx, 1) == '+' || peek(&lx, 1) == '-')) {
                    adv(&lx);
                    adv(&lx);
                } else if (ident_char((unsigned char)d) || d == '.') {
                    adv(&lx);
                } else if (d == '\'' && ident_char((unsigned char)peek(&lx, 1))) {
                    adv(&lx); /* C++14's digit separator: kept, so that it can be named */
                } else {
                    break;
                }
            }
            t.kind = LAT_TK_NUMBER;
        } else if (c == '"' || c == '\'') {
            scan_quoted(&lx, c);
            t.kind = c == '"' ? LAT_TK_STRING : LAT_TK_CHAR;
        } else {
            lat__punct p = scan_punct(&lx);
            if (p) {
                t.kind = LAT_TK_PUNCT;
                t.punct = (uint8_t)p;
            } else {
                adv(&lx);
                t.kind = LAT_TK_OTHER;
            }
        }
        size_t raw = lx.pos - start;
        if (lx.spliced) {
            /* The token's text without its backslash-newlines. */
            char *clean = lat__arena_alloc(&u->arena, raw + 1);
            size_t n = 0;
            for (size_t p = start; p < lx.pos;) {
                if (at_splice(&lx, p)) {
                    p += text[p + 1] == '\n' ? 2 : 3;
                    continue;
                }
                clean[n++] = text[p++];
            }
            t.text = clean;
            t.len = (uint32_t)n;
            t.flags |= LAT_TF_SPLICED;
        } else {
            t.text = text + start;
            t.len = (uint32_t)raw;
        }
        if (fixed) {
            t.loc = *fixed;
            t.flags &= (uint16_t)~LAT_TF_BOL;
        }
        t.spell = t.loc;
        if (t.kind == LAT_TK_IDENT)
            t.atom = lat__atom_get(&u->atoms, t.text, t.len);
        lat__toks_push(u, out, &t);
        bol = false;
    }
    if (!out->items)
        out->items = lat__arena_grow(&u->arena, NULL, &out->cap, 1, sizeof *out->items);
    lat__tok *eof = &out->items[out->n];
    memset(eof, 0, sizeof *eof);
    eof->loc.file = file;
    eof->loc.line = fixed ? fixed->line : lx.line;
    eof->loc.col = fixed ? fixed->col : (uint32_t)(lx.pos - lx.line_start + 1);
    eof->spell = eof->loc;
    eof->flags = LAT_TF_BOL;
}

void lat__lex_file(lat__unit *u, uint32_t file, lat__toks *out)
{
    const lat__srcfile *f = &u->files.items[file];
    lex(u, f->text, f->len, file, NULL, out);
}

void lat__lex_text(lat__unit *u, const char *text, size_t len, lat__loc loc, lat__toks *out)
{
    /* The text may not be NUL-terminated where it ends: copy it. */
    char *copy = lat__arena_strndup(&u->arena, text, len);
    lex(u, copy, len, loc.file, &loc, out);
}
