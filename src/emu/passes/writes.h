/*
 * Which of a kernel's pointer parameters it may write device memory through, for
 * racecheck (check/launch.c): an allocation that no access of a launch writes can race in
 * none of its reads, which then need no log. A write is followed to the parameter its
 * address is computed from by pointer arithmetic alone; one that cannot be (a pointer
 * loaded from memory or kept in a local variable, a cast from an integer, a device
 * function that writes, inline asm) makes every allocation count as written.
 */
#ifndef LAT_EMU_PASSES_WRITES_H
#define LAT_EMU_PASSES_WRITES_H

#include "front/ast.h"

/* False when the kernel's writes cannot all be followed; else written[i] (fn->nparams of
 * them, set by the caller to false) true for each parameter written through. Needs the
 * checks' sites (passes/checks.h) marked. */
bool lat__writes_params(const lat__func *fn, bool *written);

#endif
