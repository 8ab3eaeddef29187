/*
 * The front end's entry: CUDA C source preprocessed, lexed and parsed once into a unit
 * (unit.h) holding the typed tree (ast.h). Both backends read it: the kernel signatures
 * (sigs.h) for argument checks and cross-checking, and the emulator's passes for the C
 * it compiles.
 */
#ifndef LAT_FRONT_FRONT_H
#define LAT_FRONT_FRONT_H

#include "profile.h"
#include "unit.h"

typedef struct lat__front_in {
    const char *text; /* the source */
    const char *name; /* its file name, for messages and quoted #includes */
    const char *const *include_dirs;        /* NULL-terminated, may be NULL */
    const char *const *option_include_dirs; /* from -I options, searched after */
    const char *const *defines;   /* "NAME" or "NAME=VALUE" (-D), may be NULL */
    const char *const *undefines; /* names (-U) */
    const lat__front_profile *profile; /* the target's macros and headers, may be NULL */
} lat__front_in;

/* Preprocesses and parses in->text. *out receives the unit whatever happens (NULL only
 * when out of memory); its status says whether the program is valid (LAT_OK), or the
 * first error's status (LAT_ERROR_COMPILE, _UNSUPPORTED, _FILE) with every error in
 * lat__unit_messages. Returns that status, or LAT_ERROR_OUT_OF_MEMORY. */
lat_status lat__front_parse(const lat__front_in *in, lat__unit **out);
void lat__unit_free(lat__unit *u);

/* A built-in's symbol (builtins.h), declared in the unit if it was not: for passes that
 * add calls the program did not write. NULL when there is no such built-in. */
struct lat__sym *lat__unit_builtin(lat__unit *u, const char *name);

/* The kernel a name expression names, as nvrtcAddNameExpression takes them: a __global__
 * function's name, a function template's instance with its arguments given or defaulted
 * ("reduce<256>", "ns::scale<float>"), with or without '&' or a leading "::" (the instance
 * made in the unit if it was not). Returns the name the kernel's signature (sigs.c) and the
 * emulator know it by: the first expression that named the instance, or the function's
 * name; NULL after an error recorded in the unit, or with *no_template set when the program
 * declares no function of that name (no backend can compile it; not recorded). */
const char *lat__instantiate_expression(lat__unit *u, const char *expr, bool *no_template);

/* The parser alone, over u->toks (parse.c). */
void lat__parse_unit(lat__unit *u);

#endif
