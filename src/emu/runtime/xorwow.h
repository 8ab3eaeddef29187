/* curand's XORWOW generator, jumped ahead on the host (xorwow.c): what curand_init and
 * skipahead call in the emulator's curand_kernel.h (compile/curand_header.c). */
#ifndef LAT_EMU_XORWOW_H
#define LAT_EMU_XORWOW_H

/* Advances the five state words v by sequence * 2^67 + offset steps of XORWOW (the
 * counter word d is the caller's: it moves by 362437 a step). */
void lat__emu_xorwow_skip(unsigned int *v, unsigned long long sequence,
                          unsigned long long offset);

#endif
