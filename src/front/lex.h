/*
 * The lexer: a source file's text into preprocessing tokens (tok.h), every token with its
 * line and column. Comments and white space become flags on the next token; directives
 * are lexed like any other line (their '#' has LAT_TF_BOL), except that the name after
 * `#include` in angle brackets is one LAT_TK_HEADER token. It never fails: a byte that
 * starts no token is LAT_TK_OTHER, an unterminated literal ends at the end of its line.
 */
#ifndef LAT_FRONT_LEX_H
#define LAT_FRONT_LEX_H

#include "unit.h"

/* Lexes file `file` of the unit into *out (an EOF token at out->items[out->n]). */
void lat__lex_file(lat__unit *u, uint32_t file, lat__toks *out);

/* Lexes a piece of text that is not a file (a -D option's value, a _Pragma's string, the
 * result of ## pasting): every token gets location loc. */
void lat__lex_text(lat__unit *u, const char *text, size_t len, lat__loc loc, lat__toks *out);

/* Appends a token to an array (keeping the EOF slot). */
void lat__toks_push(lat__unit *u, lat__toks *t, const lat__tok *tok);

#endif
