/* cuda_fp16.h and cuda_bf16.h, written for the emulator in C++ (fp16_header.c). */
#ifndef LAT_EMU_FP16_HEADER_H
#define LAT_EMU_FP16_HEADER_H

/* The lines of the header called name (cuda_fp16.h, cuda_bf16.h), NULL-terminated, or
 * NULL when name is neither. */
const char *const *lat__fp16_header_lines(const char *name);

#endif
