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

/* The emulator's address for primary address p (inside an allocation, or one past its
 * end); 0 when p is in no live allocation. */
lat_deviceptr lat__cross_translate(lat__cross_ctx *c, lat_deviceptr p);

/* After a launch of `kernel` that succeeded on both sides: compares the allocations its
 * arguments (params, the primary's values) point into, or all of them. Returns LAT_OK or
 * LAT_ERROR_CROSS_MISMATCH with the first difference reported. */
lat_status lat__cross_compare(lat_context *ctx, lat_kernel *kernel, const lat__launch *l,
                              void **params);

#endif
