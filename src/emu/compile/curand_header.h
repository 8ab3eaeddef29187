/* curand_kernel.h, written for the emulator in CUDA C++ (curand_header.c). */
#ifndef LAT_EMU_CURAND_HEADER_H
#define LAT_EMU_CURAND_HEADER_H

/* The lines of the header called name (curand_kernel.h), NULL-terminated, or NULL when
 * name is not it. */
const char *const *lat__curand_header_lines(const char *name);

#endif
