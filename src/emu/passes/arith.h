/* GPU arithmetic on the tree (arith.c): shifts clamped as PTX clamps them, floating-to-
 * integer conversions saturating as cvt.rzi does, multiply-adds contracted into fused ones
 * where NVRTC contracts them (fmad: its default, --fmad=true). */
#ifndef LAT_EMU_PASSES_ARITH_H
#define LAT_EMU_PASSES_ARITH_H

#include "front/ast.h"

#include <stdbool.h>

/* Rewrites the device code of the unit (every __global__ and __device__ function). */
void lat__arith_rewrite(lat__unit *u, bool fmad);

#endif
