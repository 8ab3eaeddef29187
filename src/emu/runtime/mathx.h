/* The host functions behind CUDA's rounding-mode intrinsics (mathx.c). */
#ifndef LAT_EMU_MATHX_H
#define LAT_EMU_MATHX_H

#include "runtime.h"

const lat__emu_symbol *lat__emu_mathx_symbols(size_t *count);

#endif
