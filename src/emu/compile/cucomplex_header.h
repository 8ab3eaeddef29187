/* cuComplex.h (cucomplex_header.c), written as CUDA C++ the front end takes. */
#ifndef LAT_EMU_CUCOMPLEX_HEADER_H
#define LAT_EMU_CUCOMPLEX_HEADER_H

/* The lines of the header `name` ("cuComplex.h"), NULL-terminated, or NULL. */
const char *const *lat__cucomplex_header_lines(const char *name);

#endif
