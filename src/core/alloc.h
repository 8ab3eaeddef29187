/*
 * The library's allocation functions: malloc, calloc and realloc, failing on purpose
 * when a test asks (SQLite's malloc tests): lat__alloc_fail_after = N makes the Nth call
 * from now return NULL, once. Memory from them is freed with free().
 */
#ifndef LAT_ALLOC_H
#define LAT_ALLOC_H

#include <stddef.h>

void *lat__malloc(size_t n);
void *lat__calloc(size_t count, size_t size);
void *lat__realloc(void *p, size_t n);

/* Tests only (test_fault_alloc.c): arms the failure (0 disarms); armed with a
 * huge n, n minus what lat__alloc_fail_remaining() then says counts the allocations
 * made. Any thread. */
void lat__alloc_fail_after(long n);
long lat__alloc_fail_remaining(void);

#endif
