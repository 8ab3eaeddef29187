/*
 * What nvcc gives a CUDA program and NVRTC does not: the host's C library macros that
 * nvcc's cuda_runtime.h brings into every translation unit (INT_MAX, FLT_MAX, INFINITY,
 * M_PI...), and the standard headers a program includes (<stdio.h>, <cstdint>,
 * <type_traits>...). The emulator's front end has both built in (src/front/predef.c,
 * headers.c); these are the CUDA backend's, so that one source compiles on both
 * (docs/dialect.md, "Headers").
 */
#ifndef LAT_CUDA_STD_HEADERS_H
#define LAT_CUDA_STD_HEADERS_H

#include <stdbool.h>
#include <stddef.h>

/* The macros, each defined only where nothing defined it before, spelt as the toolkit's
 * libcu++ in include directory `toolkit` (may be NULL) spells them: put before the
 * program's text. Made once per process (later calls return it whatever `toolkit`); NULL
 * when out of memory. Thread safety: any thread. */
const char *lat__cu_ambient_text(const char *toolkit);

/* The headers NVRTC is handed for a compile: names[i] is included as <names[i]> and reads
 * texts[i]. The C++ library's headers are libcu++'s (<type_traits> is
 * <cuda/std/type_traits>, its names also in std::) where the toolkit's include directory
 * `toolkit` (may be NULL) has them; without it only the C headers are given. Fills at most
 * max entries; returns how many. The texts are static. Thread safety: any thread. */
int lat__cu_std_headers(const char *toolkit, const char **names, const char **texts, int max);

/* Whether header `name` must be read before PyCUDA's extern "C" wrap (a C++ header: its
 * templates cannot have C linkage). */
bool lat__cu_std_header_is_cxx(const char *name);

/* The most headers lat__cu_std_headers gives. */
#define LAT__CU_STD_HEADERS_MAX 64

#endif
