/* Half-precision contraction (half_fma.c): cuda_fp16.h's products followed by a sum,
 * fused as ptxas fuses them. */
#ifndef LAT_EMU_PASSES_HALF_FMA_H
#define LAT_EMU_PASSES_HALF_FMA_H

#include "front/ast.h"
#include "front/unit.h"

/* e, a call (its arguments already rewritten): the fused call that replaces it when it
 * adds to or subtracts from a product of halves (`a * b + c`, `__hadd(__hmul(a, b), c)`,
 * `acc += a * b`, and the __half2 forms), else NULL. Only with --fmad=true. */
lat__expr *lat__half_contract(lat__unit *u, lat__expr *e);

#endif
