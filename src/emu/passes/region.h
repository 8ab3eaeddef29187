/*
 * Region loops (MCUDA's technique) on the tree: a kernel whose barriers and warp
 * operations the pass can place exactly runs without fibers. Its body is cut at every
 * barrier and warp operation into stretches, each a loop over the block's threads;
 * control flow around them runs once for the block when every thread takes it alike, or
 * with a state per thread when not; values kept across a cut live in per-thread storage.
 */
#ifndef LAT_EMU_PASSES_REGION_H
#define LAT_EMU_PASSES_REGION_H

#include "emit.h"

/* Whether kernel fn can run as region loops (and plans them, in fn->aux's pass data);
 * false sends it to fibers. */
bool lat__region_plan(lat__unit *u, lat__func *fn, bool checked);
/* Writes the planned kernel's body. */
void lat__region_emit(lat__emitter *em, lat__func *fn);

#endif
