/*
 * Collectives brought into a kernel's own body for region loops (region.h). Real kernels
 * reach their barriers and warp operations through helpers: a warp or block reduction
 * (`__device__ float warpReduce(float v)` with shuffles), cooperative groups' member
 * functions (`block.sync()`, `tile.shfl_down(v, 1)`). The region planner places only the
 * collectives of the kernel's own body; this pass makes a copy of that body in which each
 * call of a __device__ function that can reach a collective, where every thread evaluates
 * it (not under &&, || or ?:, not after a comma, not in a loop's condition), is replaced by
 * the function's body: its parameters become locals initialised from the arguments, its
 * result a fresh local computed before the statement that used the call.
 */
#ifndef LAT_EMU_PASSES_INLINE_H
#define LAT_EMU_PASSES_INLINE_H

#include "front/ast.h"

/* A copy of kernel fn's body rewritten as above (*inlined: some call was inlined), or NULL:
 * when there was nothing to rewrite (*why NULL), or when something cannot be (*why says
 * what, *where where: recursion, a function with labels, a static local, a return inside
 * a loop...). The kernel's own body is left as it was. Needs lower.c's analysis
 * (lat__func.calls_collective). */
lat__stmt *lat__inline_collectives(lat__unit *u, lat__func *fn, bool *inlined, const char **why,
                                   lat__loc *where);

#endif
