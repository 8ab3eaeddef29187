/* The macros the emulator predefines for a kernel (predef.c). */
#ifndef LAT_FRONT_PREDEF_H
#define LAT_FRONT_PREDEF_H

/* #define lines: __CUDACC__, __CUDA_ARCH__, the limits.h, float.h and math.h constants... */
const char *lat__front_predefined(void);

#endif
