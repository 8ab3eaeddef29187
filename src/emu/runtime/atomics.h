/* The host functions behind CUDA's atomics and fences in kernel code (atomics.c). */
#ifndef LAT_EMU_ATOMICS_H
#define LAT_EMU_ATOMICS_H

#include "runtime.h"

/* The table, and its length in *count. */
const lat__emu_symbol *lat__emu_atomic_symbols(size_t *count);

#endif
