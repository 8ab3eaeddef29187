/* GPU arithmetic on the tree (arith.c): shifts clamped as PTX clamps them, floating-to-
 * integer conversions saturating as cvt.rzi does, multiply-adds contracted into fused ones
 * where NVRTC contracts them (fmad: its default, --fmad=true). */
#ifndef LAT_EMU_PASSES_ARITH_H
#define LAT_EMU_PASSES_ARITH_H

#include "front/ast.h"

#include <stdbool.h>

/* Rewrites the device code of the unit (every __global__ and __device__ function). */
void lat__arith_rewrite(lat__unit *u, bool fmad);

/* Whether `c ? a : b` (e, of floating type) may evaluate both arms and then choose, as a
 * GPU's select does: each arm is floating arithmetic on locals, parameters, the thread's
 * indices and constants (+ - * /, fma, sqrt, fabs, fmin, fmax), which reads no memory,
 * traps on nothing (a GPU raises no floating-point exception) and has no side effect, and
 * the condition has none either. gcc vectorises such a select (emit.c writes it as a
 * mask), and not the branch (its division might trap, for all gcc knows). */
bool lat__arith_select_both(const lat__expr *e);

#endif
