/* mma.h, the warp matrix functions (mma_header.c), written as CUDA C++ the front end takes. */
#ifndef LAT_EMU_MMA_HEADER_H
#define LAT_EMU_MMA_HEADER_H

/* The lines of the header `name` ("mma.h"), NULL-terminated, or NULL. */
const char *const *lat__mma_header_lines(const char *name);

#endif
