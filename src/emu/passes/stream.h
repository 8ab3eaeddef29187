/*
 * Streaming stores for map kernels, in the optimising tier's code.
 *
 * A kernel such as `i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) d[i] = a[i] * b[i];`
 * is bound by memory bandwidth, and a third of its traffic is the reads that ordinary stores
 * make of each destination line before writing it. Non-temporal stores write whole lines
 * without reading them (1.3-1.5x on a 2-core host), but no C compiler emits them for a loop
 * it vectorises. So, for kernels of that one shape, this pass writes the block's threads as
 * explicit vector code: each group of threads that fills a 64-byte line computes its values
 * in vector registers and stores the line with non-temporal stores. The executor fences
 * each worker's stores before its launch ends (grid.c).
 *
 * The shape (docs/tiers.md): a kernel body of declarations of locals that are never
 * modified, optionally bounded by `if (x < n)` or `if (x >= n) return;`, then one store
 * `p[x] = value;` last, where x is the thread's global x index, p a pointer parameter with
 * 4- or 8-byte elements and n a block-uniform integer; the value and the locals are
 * arithmetic on the threads' loads `q[x]` of pointer parameters, on block-uniform values,
 * on x itself, and fmaf/fma. Anything else is written as before.
 *
 * At run time a block takes the vector code only when every one of its threads passes the
 * bounds, its destination starts on a line, blocks are one-dimensional of a multiple of a
 * line's elements, and the grid's stores exceed the last-level cache (__LAT_STREAM_BYTES,
 * opt.c): smaller outputs are better left in the cache for whatever reads them next.
 * Every other block runs the thread loop.
 */
#ifndef LAT_EMU_PASSES_STREAM_H
#define LAT_EMU_PASSES_STREAM_H

#include "emit.h"

/* Writes, into em (the optimising tier's copy of the plain kernel fn, after its check for
 * blocks wider than int), the code that runs the block with streaming stores and returns,
 * when fn has the shape; writes nothing otherwise. Returns whether it wrote. */
bool lat__stream_emit(lat__emitter *em, const lat__func *fn);

#endif
