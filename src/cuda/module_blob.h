/* A compiled CUDA module as the compile cache stores it (module_blob.c). */
#ifndef LAT_CUDA_MODULE_BLOB_H
#define LAT_CUDA_MODULE_BLOB_H

#include "cuda_internal.h"

typedef struct lat__cuda_spill {
    char *name; /* the kernel's symbol, as ptxas names it */
    int stores, loads;
} lat__cuda_spill;

typedef struct lat__cuda_blob {
    int cubin; /* 1: code is a CUBIN; 0: PTX (NUL-terminated) */
    int arch;  /* 90 for sm_90 / compute_90 */
    char *code;
    size_t code_size;
    char *log;
    int nnames;
    char **names, **lowered;
    int nspills;
    lat__cuda_spill *spills;
} lat__cuda_blob;

/* Serialises b into a malloc'd buffer; -1 when out of memory. */
int lat__cuda_blob_write(const lat__cuda_blob *b, void **out, size_t *size);
/* Parses a buffer into b (every field malloc'd; free with lat__cuda_blob_free); -1 when it
 * does not parse (b is left empty). */
int lat__cuda_blob_read(const void *data, size_t size, lat__cuda_blob *b);
void lat__cuda_blob_free(lat__cuda_blob *b);

#endif
