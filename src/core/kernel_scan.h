/*
 * The kernel signature scanner: finds the __global__ functions of a CUDA C source and
 * classifies their parameters, without compiling. Both backends use it, so argument
 * validation (lat_launch_args) gives the same answer on each, and the CUDA backend uses
 * the names to look kernels up when the source is not extern "C".
 */
#ifndef LAT_KERNEL_SCAN_H
#define LAT_KERNEL_SCAN_H

#include <stddef.h>

#include "kernel_sig.h"

/* Scans `source` (the user's text, before preprocessing; #include'd files are not read)
 * for __global__ function definitions and declarations, and fills *out (zeroed first).
 * Simple `typedef`s and object-like `#define`s that name a type are followed. A kernel
 * declared twice is listed once. Returns 0, or -1 when out of memory. Never fails on bad
 * source: what it cannot parse it skips (the compiler reports it). */
int lat__scan_kernels(const char *source, lat__kernel_sigs *out);


#endif
