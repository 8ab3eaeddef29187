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
 * access (a site of m) and notes its site as atomic (m->pf). */
void lat__profile_annotate(lat__unit *u, struct lat__ck_module *m);

#endif
