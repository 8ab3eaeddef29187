/*
 * Collectives brought where region loops (region.h) place them. Real kernels reach their
 * barriers and warp operations through helpers (`__device__ float warpReduce(float v)` with
 * shuffles, cooperative groups' member functions), under ?:, && and ||, inside each
 * other's arguments (`__shfl_sync(__activemask(), v, 0)`), in loop conditions and switches;
 * the region planner places only collectives of the kernel's own body that stand as a
 * statement or in an expression every thread evaluates whole. This pass makes a copy of a
 * kernel's body in which:
 *   - a call of a __device__ function that can reach a collective is replaced by the
 *     function's body: its parameters locals initialised from the arguments, its result a
 *     fresh local computed before the statement that used the call;
 *   - a collective under ?:, && or ||, or inside another's arguments, is computed into a
 *     local of its own by an if statement (or a declaration) before the statement, and
 *     the left of a comma before one becomes a statement;
 *   - a while, for or do condition needing such statements is tested inside the body;
 *   - a switch holding a collective becomes if statements.
 * docs/dialect.md lists what still keeps a kernel on fibers.
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
