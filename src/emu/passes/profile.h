/*
 * The profile's instrumentation (lattice/profile.h), on the tree, after the checks' own
 * (checks.h): the accesses the checks do not see as accesses but a GPU's memory system
 * counts, the atomic functions' operands, become sites too, noted as atomic.
 */
#ifndef LAT_EMU_PASSES_PROFILE_H
#define LAT_EMU_PASSES_PROFILE_H

#include "emit.h"

struct lat__ck_module;

/* Marks the operand of every atomic function's call in device code as a read-write
 * access (a site of m) and notes its site as atomic (m->pf); marks the condition of every
 * if, while, do and for as a branch (a site of kind 0, which the emitter wraps in
 * __LAT_PF_BR(condition, code)). */
void lat__profile_annotate(lat__unit *u, struct lat__ck_module *m);
/* What the profiled C needs in front of it (after the checks' prefix). */
const char *lat__profile_prefix(void);

#endif
