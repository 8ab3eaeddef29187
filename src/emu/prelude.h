/* The C text compiled in front of every translated kernel (prelude.c). */
#ifndef LAT_EMU_PRELUDE_H
#define LAT_EMU_PRELUDE_H

/* The compute capability the emulator reports and defines as __CUDA_ARCH__. */
#define LAT_EMU_CC_MAJOR 8
#define LAT_EMU_CC_MINOR 0
#define LAT_EMU_CUDA_ARCH 800

/* The prelude, built on first use; NULL only when out of memory. */
const char *lat__emu_prelude(void);
/* Its number of lines. */
int lat__emu_prelude_lines(void);

#endif
