/*
 * The preprocessor: the root file (file 0 of the unit) and everything it #includes,
 * preprocessed into u->toks as C's translation phases 3-4 define it, ready for the
 * parser. Directives are gone; every macro is expanded; each token says where the user
 * sees it (tok.loc: for a token that came out of a macro's body, the place of the
 * outermost invocation; a macro argument's tokens keep their own place) and where it is
 * spelled (tok.spell). #pragma and _Pragma become LAT_TK_PRAGMA tokens (text: what
 * follows `pragma`), except `#pragma once`, which is obeyed.
 *
 * Errors (an #include not found, #error, a malformed directive, a wrong number of macro
 * arguments, an unterminated #if...) are the unit's diagnostics, with their places; the
 * preprocessor goes on after each, so that every error is reported. Input that would
 * take unbounded time, memory or stack (an exponential macro, deep nesting, a header
 * including itself, a FIFO named by #include) stops with an error at a limit
 * (pp_int.h). Running out of memory jumps to u->oom (arena.h), leaking nothing.
 *
 * Files added to the unit's table: each #included file (once per inclusion), the
 * texts "<built-in>" (the predefined macros, assert_h) and "<command line>" (-D, -U),
 * and an entry per `#line N "name"`, which its later tokens carry. file 0's dir and
 * real are filled in when NULL.
 */
#ifndef LAT_FRONT_PP_H
#define LAT_FRONT_PP_H

#include "profile.h"
#include "unit.h"

typedef struct lat__pp_in {
    const char *const *include_dirs;        /* NULL-terminated, may be NULL */
    const char *const *option_include_dirs; /* from -I options: searched after include_dirs */
    const char *const *defines;             /* "NAME" or "NAME=VALUE" (-D), may be NULL */
    const char *const *undefines;           /* names (-U), applied after the defines */
    const char *predefined; /* #define lines read before everything (predef.h), may be NULL */
    /* #define lines read after the -D/-U options and again at each #include <assert.h>
     * or <cassert>, so that assert follows NDEBUG as C11 7.2 says (predef.h), may be NULL */
    const char *assert_h;
    const lat__front_profile *profile; /* the target's macros and headers, may be NULL */
} lat__pp_in;

/* Preprocesses the unit's file 0 into u->toks (which ends with an LAT_TK_EOF token). */
void lat__pp_run(lat__unit *u, const lat__pp_in *in);

#endif
