/*
 * The translator's view of the preprocessor: which macros are defined, and the value of
 * #if conditions where it can tell. TinyCC does the real preprocessing; the translator
 * only needs to know which regions are live, so that it resolves the #includes and
 * rejects the constructs there and nowhere else. What it cannot decide is "unknown",
 * and unknown regions are treated as live.
 */
#ifndef LAT_EMU_MACROS_H
#define LAT_EMU_MACROS_H

#include "cu_lex.h"
#include "map.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum lat__cond {
    LAT__COND_FALSE = 0,
    LAT__COND_TRUE = 1,
    LAT__COND_UNKNOWN = 2
} lat__cond;

/* Bits of lat__macro.quals: the CUDA function qualifiers a macro's body holds. */
enum { LAT__QUAL_GLOBAL = 1, LAT__QUAL_DEVICE = 2, LAT__QUAL_HOST = 4 };

typedef struct lat__macro {
    const char *name; /* not owned (source text, option strings, the prelude) */
    size_t len;
    const char *value; /* an object-like macro's body text; NULL: function-like, or a
                          value the translator does not know */
    size_t vlen;
    bool defined;   /* false: known to be undefined (#undef, or never defined) */
    bool uncertain; /* (un)defined in a region whose liveness is unknown */
    unsigned quals;
} lat__macro;

typedef struct lat__macros {
    lat__macro *items;
    size_t count, cap;
    lat__map index; /* name -> position in items */
    const struct lat__macros *base; /* consulted for names not here */
} lat__macros;

/* Records a definition or #undef of mac->name, replacing what was known. 0 or -1 (OOM). */
int lat__macros_set(lat__macros *m, const lat__macro *mac);
/* What is known of a name (here, then in base), or NULL. */
const lat__macro *lat__macros_find(const lat__macros *m, const char *name, size_t len);
void lat__macros_free(lat__macros *m);

/* The prelude's macros, and those TinyCC predefines (and, as undefined, the compilers'
 * ones it does not: __cplusplus, __GNUC__, __NVCC__...). Built once; NULL when out of
 * memory. */
const lat__macros *lat__macros_prelude(void);

/* The value of the #if / #elif condition in tokens [b, e) of toks. */
lat__cond lat__macros_eval(const lat__macros *m, const lat__toks *toks, size_t b, size_t e);

#endif
