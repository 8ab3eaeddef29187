/* Locals read before any store, as NVRTC's optimiser reads them (undef.c). */
#ifndef LAT_EMU_PASSES_UNDEF_H
#define LAT_EMU_PASSES_UNDEF_H

#include "front/ast.h"
#include "front/unit.h"

/* Gives each local scalar of fn that is declared without a value, never has its address
 * taken, and is only ever assigned one constant (a literal, or the address of a variable
 * of static storage declared before it) that constant as its initializer: what a GPU
 * reads from it in a thread that never assigned it. Defined programs are unchanged. */
void lat__undef_fold(lat__unit *u, lat__func *fn);

#endif
