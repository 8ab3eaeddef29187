/*
 * The profile's instrumentation (lattice/profile.h), on the tree, after the checks' own
 * (checks.h, whose sites are the accesses, atomics included): branches' conditions.
 */
#ifndef LAT_EMU_PASSES_PROFILE_H
#define LAT_EMU_PASSES_PROFILE_H

#include "emit.h"

struct lat__ck_module;

/* Marks the condition of every if, while, do and for of device code as a branch (a site of kind 0, which the emitter wraps in
 * __LAT_PF_BR(condition, code)). */
void lat__profile_annotate(lat__unit *u, struct lat__ck_module *m);
/* What the profiled C needs in front of it (after the checks' prefix). */
const char *lat__profile_prefix(void);

#endif
