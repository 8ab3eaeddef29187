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
 * false sends it to fibers, and *why (when why is not NULL) says what stopped it, *where
 * where (line 0: nowhere in particular); *why NULL: nothing did (no collective). */
bool lat__region_plan(lat__unit *u, lat__func *fn, bool checked, bool implicit_loops, const char **why,
                      lat__loc *where);

/* The optimising tier's variant of a kernel: planned with implicit loops (barrier-free
 * uniform loops at block level, region.c), which vectorise under an optimiser but cost
 * TinyCC's code more than they give. Begin forgets the kernel's plan and makes the variant's,
 * or returns NULL (the kernel as it was) when it has no implicit loop; end forgets the
 * variant and plans the kernel again as before (region: it had a plan). */
typedef struct lat__region_saved lat__region_saved;
lat__region_saved *lat__region_variant_begin(lat__unit *u, lat__func *fn, bool checked);
void lat__region_variant_end(lat__unit *u, lat__func *fn, lat__region_saved *sv, bool region, bool checked);
/* A checked kernel's forward variant (checked: region_fwd.c): the accesses it makes
 * without the checks, whose proofs (bounds.h) must hold for it to be entered. */
const lat__expr *const *lat__region_assured(lat__unit *u, lat__func *fn, size_t *n);
/* Whether that variant may be entered with initcheck or racecheck on too: its guards then
 * decide where its accesses go unchecked, and no split of its stretches reorders reports. */
bool lat__region_fwd_strict(lat__unit *u, lat__func *fn);
/* Whether statement s or expression e (either may be NULL) calls a function that may read
 * the thread's index from its context: a device function, a built-in that is not pure
 * arithmetic (warp and block operations are not calls in region loops). */
bool lat__region_calls_out(const lat__stmt *s, const lat__expr *e);
/* Whether s, a barrier-free loop, is better left inside each thread in optimised code than
 * written as an implicit loop: one gcc vectorises across the threads around it
 * (thread_loop.c). */
bool lat__region_thread_loop(lat__arena *arena, const lat__stmt *s);
/* Whether statement s or expression e (either may be NULL) holds such a loop. */
bool lat__region_holds_thread_loop(lat__arena *arena, const lat__stmt *s, const lat__expr *e);
/* Writes the planned kernel's body. */
void lat__region_emit(lat__emitter *em, lat__func *fn);

#endif
