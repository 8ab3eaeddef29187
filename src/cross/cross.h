/* The cross-checking backend's shared state (cross.c, cross_compare.c). */
#ifndef LAT_CROSS_H
#define LAT_CROSS_H

#include "driver_ops.h"

/* One allocation on both sides: the primary's (GPU) address, which the program sees, and
 * the emulator's copy. */
typedef struct lat__cross_pair {
    lat_deviceptr a; /* primary */
    size_t size;
    lat_deviceptr b; /* emulator */
} lat__cross_pair;

/* ctx->impl of a cross context. */
typedef struct lat__cross_ctx {
    lat_context *a; /* the GPU (or, for lattice's own tests, an emulator: LATTICE_CROSS_PRIMARY=emu) */
    lat_context *b; /* the emulator */
    pthread_mutex_t lock; /* guards pairs */
    lat__cross_pair *pairs; /* sorted by a */
    size_t npairs, cap;
    bool compare_all; /* LATTICE_CROSS_COMPARE=all: every live allocation after a launch */
    char *stats_path; /* LATTICE_CROSS_STATS: where each comparison's counts go, or NULL */
    char program[64]; /* this process's name, for those lines */
} lat__cross_ctx;

/* mod->impl, kernel->impl, stream->impl, event->impl. */
typedef struct lat__cross_module {
    lat_module *a, *b;
} lat__cross_module;
typedef struct lat__cross_kernel {
    lat_kernel *a, *b;
} lat__cross_kernel;
typedef struct lat__cross_stream {
    lat_stream *a, *b;
} lat__cross_stream;
typedef struct lat__cross_event {
    lat_event *a, *b;
} lat__cross_event;

/* What one comparison found for one floating kind (float, double, half, bfloat16). */
typedef struct lat__cross_kind_stats {
    uint64_t values;    /* values of that kind compared */
    uint64_t identical; /* of them, bit for bit the same on both sides */
    uint64_t max_ulp;   /* the largest distance in units in the last place among the others;
                           UINT64_MAX when a NaN met a number */
    uint64_t beyond;    /* values beyond the tolerance */
} lat__cross_kind_stats;

/* The result of comparing two buffers: how many elements differ beyond the tolerance and
 * the first difference (the lowest byte offset). */
typedef struct lat__cross_diff {
    size_t ndiff;                /* elements that differ (bytes, without a layout) */
    size_t first;                /* byte offset of the first difference; SIZE_MAX: none */
    size_t first_elem;           /* the element it is in */
    uint32_t first_field_offset; /* its offset in the element (floating fields) */
    uint8_t first_kind;          /* lat__scalar_kind; LAT__SCALAR_EXACT: a byte */
    double first_gpu, first_emu; /* both values (a byte's, for LAT__SCALAR_EXACT) */
    double first_allowed;        /* the difference the tolerance allowed there */
    double first_scale;          /* the field's typical magnitude S (cross_compare.c) */
    lat__cross_kind_stats stats[LAT__SCALAR_BF16 + 1]; /* indexed by lat__scalar_kind */
} lat__cross_diff;

/* Compares `size` bytes of the primary's (gpu) and the emulator's (emu) copy of a buffer
 * of elements laid out as `layout` (NULL or size 0: bytes): floating fields within the
 * tolerance (the rule is in cross_compare.c), every other byte exactly. A tail shorter
 * than an element compares byte for byte. Fills *d and returns d->ndiff. Pure: no
 * context, no I/O; thread safety: any thread. */
size_t lat__cross_compare_bytes(const void *gpu, const void *emu, size_t size,
                                const lat__elem_layout *layout, double rtol, double atol,
                                lat__cross_diff *d);

/* One LATTICE_CROSS_STATS line, tab-separated, ending in a newline:
 *   program kernel parameter kind values identical max_ulp beyond
 * (kind: float, double, half, bfloat16; max_ulp "nan" when a NaN met a number). Returns
 * snprintf's count. */
int lat__cross_stats_line(char *buf, size_t size, const char *program, const char *kernel,
                          const char *param, unsigned kind, const lat__cross_kind_stats *s);

/* The emulator's address for primary address p (inside an allocation, or one past its
 * end); 0 when p is in no live allocation. */
lat_deviceptr lat__cross_translate(lat__cross_ctx *c, lat_deviceptr p);

/* cross_texture.c: parameter i of a launch (its emulator copy, `size` bytes): a texture or
 * surface object's primary handle becomes the emulator's (a parameter the source declares
 * as cudaTextureObject_t or cudaSurfaceObject_t; any 8-byte one equal to a live handle
 * when the source's signature is unknown). */
void lat__cross_texture_param(lat_context *ctx, const lat_kernel *kernel, int i, void *value,
                              size_t size);
/* After a launch that succeeded and compared equal: the arrays under its surface
 * parameters, texel by texel (floating formats within the tolerance). */
lat_status lat__cross_compare_surfaces(lat_context *ctx, lat_kernel *kernel, void **params);

/* After a launch of `kernel` that succeeded on both sides: compares the allocations its
 * arguments (params, the primary's values) point into, or all of them. Returns LAT_OK or
 * LAT_ERROR_CROSS_MISMATCH with the first difference reported. */
lat_status lat__cross_compare(lat_context *ctx, lat_kernel *kernel, const lat__launch *l,
                              void **params);

#endif
