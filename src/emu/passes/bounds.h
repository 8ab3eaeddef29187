/*
 * Proofs that array accesses are in bounds, for memcheck's optimised code. An element of
 * an array whose size is in its type (a __shared__ tile, a thread's local array) indexed
 * by what the launch bounds (threadIdx, blockIdx, the canonical loops over them, the
 * branches that compare them, unchanged parameters) is given a range for each index, an
 * expression of the launch's dimensions and parameters. The optimised code evaluates it
 * (once per block: it does not change inside one) and, where every index is inside its
 * array and no shadow memory is kept (memcheck alone), makes the access without the
 * checks' calls; anywhere else the access is checked as before, so that a proof that does
 * not hold at run time costs speed, never a report. TinyCC's code ignores the proofs.
 */
#ifndef LAT_EMU_PASSES_BOUNDS_H
#define LAT_EMU_PASSES_BOUNDS_H

#include "emit.h"

typedef struct lat__bound lat__bound;

/* Gives each checked access of an array of known size in u's device functions the proof
 * that it is in bounds (lat__expr.bound), where one can be written. */
void lat__bounds_prove(lat__unit *u);

/* At the entry of fn (checked code): each of its proofs' conditions, evaluated once for
 * the block (every range is of the launch's dimensions and unchanged parameters). */
void lat__bounds_emit_entry(lat__emitter *em, lat__func *fn);
/* Marks e's proof as one the checked forward variant counts on (region_fwd.c), or not:
 * that variant makes the access plainly, its proof checked before it is entered. */
void lat__bounds_assure(const lat__expr *e, bool on);
bool lat__bounds_assured(const lat__expr *e);
/* Whether e has a proof whose condition the function written declared. */
bool lat__bounds_declared(const lat__expr *e);
/* Writes the condition of e's proof: true when every index of the access is inside its
 * array. False (nothing written) when e has none declared. */
bool lat__bounds_emit(lat__emitter *em, const lat__expr *e);

/* The helpers the conditions call (the optimising tier's code only), in two pieces: ISO C
 * compilers need take no string over 4095 characters. */
extern const char lat__bounds_prefix[], lat__bounds_prefix2[];

#endif
