/* Legacy warp-synchronous code as a GPU runs it (lockstep.c). */
#ifndef LAT_EMU_PASSES_LOCKSTEP_H
#define LAT_EMU_PASSES_LOCKSTEP_H

#include "front/ast.h"

/* Makes each statement that stores through a volatile lvalue what it reads through another
 * run as a warp runs it: every lane's loads before any lane's store, and every store
 * before the lanes' next statement (unchecked modules only: racecheck names the hazard). */
void lat__lockstep_rewrite(lat__unit *u);

#endif
