/* The kernel signatures (core's kernel_sig.h) read off the tree: every __global__
 * function the unit declares, its parameters' classes, sizes and, for a pointer, the
 * layout of what it points to, typedefs, macros and structs all resolved. */
#ifndef LAT_FRONT_SIGS_H
#define LAT_FRONT_SIGS_H

#include "unit.h"

#include "kernel_sig.h"

/* Fills *out (zeroed first; malloc'd, lat__kernel_sigs_free frees it). Kernels the parser
 * could not read are missing. Returns 0, or -1 when out of host memory. */
int lat__front_sigs(const lat__unit *u, lat__kernel_sigs *out);

#endif
