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

/* pycuda-helpers.hpp, which PyCUDA's own kernels and some users' #include: under CUDA 12
 * it is pycuda-complex.hpp and the fp_tex_* typedefs (its texture and surface helpers are
 * for texture references, which CUDA 12 removed). */
#define LAT__PYCUDA_HELPERS_NAME "pycuda-helpers.hpp"

/* pycuda-helpers.hpp's lines, NULL-terminated (static). Thread safety: any thread. */
const char *const *lat__pycuda_helpers_lines(void);

/* pycuda-helpers.hpp as one string, malloc'd (the caller frees it); NULL when out of
 * memory. Thread safety: any thread. */
char *lat__pycuda_helpers_text(void);

#endif
