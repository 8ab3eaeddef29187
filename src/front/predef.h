/*
 * The macros every kernel sees without #including anything: what the CUDA toolchain and
 * the C headers the emulator stands in for (headers.c's built-in list) define. The
 * preprocessor reads them as #define lines (lat__pp_in.predefined, .assert_h); the
 * names the parser knows itself (threadIdx, __syncthreads, atomics, the math functions,
 * min/max, printf, the keywords of atom.h) are deliberately not here.
 */
#ifndef LAT_FRONT_PREDEF_H
#define LAT_FRONT_PREDEF_H

/* #define lines for lat__pp_in.predefined. A static string. */
const char *lat__front_predefined(void);

/* The definition of assert for lat__pp_in.assert_h: C11 7.2 makes assert follow NDEBUG
 * as it stands where <assert.h> is included, so the preprocessor reads this text after
 * the -D/-U options (a kernel may use assert without including anything, as with nvcc)
 * and again at each #include <assert.h> or <cassert>. A static string. */
const char *lat__front_assert_h(void);

#endif
