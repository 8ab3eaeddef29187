/*
 * The checks' instrumentation, on the tree (check/ck.h says what the checks are): every
 * memory access of device code is marked with a site (its place, its text as written,
 * whether it reads, writes or both) that the printer wraps in __LAT_CK(access, code), so
 * that its address passes through the checks before it is made; local variables declared
 * without an initializer are followed from their declaration (initcheck); loops tick, so
 * that a spin that touches no memory is seen.
 */
#ifndef LAT_EMU_PASSES_CHECKS_H
#define LAT_EMU_PASSES_CHECKS_H

#include "emit.h"

struct lat__ck_module;

/* Marks the accesses of every function that takes the thread context; fills m's sites. */
void lat__checks_annotate(lat__unit *u, struct lat__ck_module *m);
/* Marks e, an lvalue in memory no pass has marked, as an access of kind LAT_ACCESS_*
 * (a new site of m); returns the site's index. For passes that see more than the checks
 * do (the profile's atomics, passes/profile.c). */
int lat__checks_mark(lat__unit *u, struct lat__ck_module *m, lat__expr *e, int kind);
/* What the instrumented C needs in front of it, in pieces (NULL-terminated): the hooks,
 * the inline path of an access, and the redirection of the barrier, warp and trap
 * functions to the checked executor's. */
const char *const *lat__checks_prefix(void);
/* Whether e makes an access the checks see (one marked with a site). */
bool lat__checks_has_site(const lat__expr *e);

#endif
