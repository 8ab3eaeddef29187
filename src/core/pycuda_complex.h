/* pycuda-complex.hpp as lattice serves it to kernels on every backend
 * (pycuda_complex.c). */
#ifndef LAT_CORE_PYCUDA_COMPLEX_H
#define LAT_CORE_PYCUDA_COMPLEX_H

/* The header's name as kernels #include it. */
#define LAT__PYCUDA_COMPLEX_NAME "pycuda-complex.hpp"

/* The header's lines, NULL-terminated (static). Thread safety: any thread. */
const char *const *lat__pycuda_complex_lines(void);

/* The header as one string, malloc'd (the caller frees it); NULL when out of memory.
 * Thread safety: any thread. */
char *lat__pycuda_complex_text(void);

#endif
