/*
 * Scans (PyCUDA's InclusiveScanKernel / ExclusiveScanKernel) in three kernels: each block
 * of the grid owns one contiguous chunk and finds its total (tile by tile, in order);
 * one block turns the totals into the prefix each chunk starts from; each block then
 * scans its chunk again from that prefix and writes it. Values are always combined in
 * index order, so the operator need only be associative.
 */
#include "internal.h"
#include "core/alloc.h"

#include "error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lat_scan {
    lat__gen *gen;
    lat_dtype dtype;
};

/* The block scan: lat_block_scan(v, warp, &excl, &total) returns the inclusive scan of
 * the block's values in thread order, with the exclusive one (the neutral element for
 * thread 0) and the block's total. blockDim.x is a multiple of 32. */
static void block_scan_source(lat__src *s, const char *neutral)
{
    lat__src_addf(s,
        "__device__ lat_t lat_block_scan(lat_t v, lat_t *lat_warp, lat_t *excl, lat_t *total)\n"
        "{\n"
        "    const unsigned int lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;\n"
        "    const unsigned int nwarps = blockDim.x >> 5;\n"
        "    for (int o = 1; o < 32; o <<= 1) {\n"
        "        const lat_t u = lat_shfl_up(v, o);\n"
        "        if (lane >= (unsigned int)o)\n"
        "            v = lat_op(u, v);\n"
        "    }\n"
        "    if (lane == 31)\n"
        "        lat_warp[warp] = v;\n"
        "    __syncthreads();\n"
        "    if (warp == 0) {\n"
        "        lat_t w = lane < nwarps ? lat_warp[lane] : (lat_t)(%s);\n"
        "        for (int o = 1; o < 32; o <<= 1) {\n"
        "            const lat_t u = lat_shfl_up(w, o);\n"
        "            if (lane >= (unsigned int)o)\n"
        "                w = lat_op(u, w);\n"
        "        }\n"
        "        lat_warp[lane] = w;\n"
        "    }\n"
        "    __syncthreads();\n"
        "    if (warp > 0)\n"
        "        v = lat_op(lat_warp[warp - 1], v);\n"
        "    lat_t prev = lat_shfl_up(v, 1);\n"
        "    if (lane == 0)\n"
        "        prev = warp > 0 ? lat_warp[warp - 1] : (lat_t)(%s);\n"
        "    *excl = prev;\n"
        "    *total = lat_warp[nwarps - 1];\n"
        "    __syncthreads();\n"
        "    return v;\n"
        "}\n",
        neutral, neutral);
}

/* On the emulator a block's threads run one after another, so its memory-bound form is a
 * serial scan per thread: each thread folds one contiguous part of the block's chunk, the
 * parts' totals are scanned in the block's shared memory, and each thread scans its part
 * again from its prefix (two barriers a block instead of a warp-shuffle tree per tile).
 * The block scan remains the GPU's. Values still combine in index order. */
#define EMU_SUBCHUNK                                                                        \
    "    __shared__ lat_t lat_part[" LAT__STR(LAT__BLOCK_) "];\n"                            \
    "    const unsigned long long len = end > start ? end - start : 0;\n"                    \
    "    const unsigned long long sub = (len + blockDim.x - 1) / blockDim.x;\n"              \
    "    const unsigned long long s0 = start + threadIdx.x * sub;\n"                         \
    "    const unsigned long long e0 = s0 + sub < end ? s0 + sub : end;\n"                   \
    "    lat_t acc = (lat_t)(%s);\n"                                                        \
    "    for (unsigned long long j = s0; j < e0; ++j)\n"                                     \
    "        acc = lat_op(acc, x[j]);\n"                                                     \
    "    lat_part[threadIdx.x] = acc;\n"
#define LAT__BLOCK_ 256
#define LAT__STR_(x) #x
#define LAT__STR(x) LAT__STR_(x)
_Static_assert(LAT__BLOCK_ == LAT__BLOCK, "the emulator's scan parts are one per thread");

lat_status lat_scan_create(lat_context *ctx, const lat_scan_desc *desc, lat_scan **out)
{
    LAT__API();
    if (!out)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "out is NULL");
    *out = NULL;
    if (!ctx || !desc)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s is NULL", ctx ? "desc" : "ctx");
    if (!desc->scan || !*desc->scan || !desc->neutral || !*desc->neutral)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "desc->%s is missing",
                          !desc->scan || !*desc->scan ? "scan" : "neutral");
    if (!lat__dtype_valid(desc->dtype))
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "unknown dtype %d", (int)desc->dtype);
    const char *name = desc->name ? desc->name : "scan";
    if (!lat__is_identifier(name) || strlen(name) > 100)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "the name \"%s\" is not a C identifier (of at most 100 characters)",
                          name);
    lat_dtype t = lat__dtype_resolve(desc->dtype);
    const char *nt = desc->neutral, *op = desc->exclusive ? "exclusive" : "inclusive";
    /* Parameters are declared with the C type itself, not lat_t: cross-checking reads the
     * type of a buffer from its parameter (floats compare within a tolerance). */
    const char *ct = lat_dtype_ctype(t);
    char k1[128], k2[128], k3[128];
    snprintf(k1, sizeof k1, "%s_totals", name);
    snprintf(k2, sizeof k2, "%s_prefix", name);
    snprintf(k3, sizeof k3, "%s_apply", name);

    lat__src s = {0};
    lat__src_preamble(&s, desc->preamble);
    lat__src_block_ops(&s, t, desc->scan, nt);
    block_scan_source(&s, nt);
    lat__src_addf(&s,
        "/* %s scan */\n"
        "__global__ void %s(const %s *x, unsigned long long n, unsigned long long chunk,\n"
        "                   %s *totals)\n"
        "{\n"
        "    const unsigned long long start = blockIdx.x * chunk;\n"
        "    const unsigned long long end = start + chunk < n ? start + chunk : n;\n"
        "#ifdef __LATTICE_SEQUENTIAL_BLOCK__\n"
        EMU_SUBCHUNK
        "    __syncthreads();\n"
        "    if (threadIdx.x == 0) {\n"
        "        lat_t c = (lat_t)(%s);\n"
        "        for (unsigned int t = 0; t < blockDim.x; ++t)\n"
        "            c = lat_op(c, lat_part[t]);\n"
        "        totals[blockIdx.x] = c;\n"
        "    }\n"
        "#else\n"
        "    __shared__ lat_t lat_warp[32];\n"
        "    lat_t carry = (lat_t)(%s), excl, total;\n"
        "    for (unsigned long long base = start; base < end; base += blockDim.x) {\n"
        "        const unsigned long long j = base + threadIdx.x;\n"
        "        lat_block_scan(j < end ? x[j] : (lat_t)(%s), lat_warp, &excl, &total);\n"
        "        carry = lat_op(carry, total);\n"
        "    }\n"
        "    if (threadIdx.x == 0)\n"
        "        totals[blockIdx.x] = carry;\n"
        "#endif\n"
        "}\n",
        op, k1, ct, ct, nt, nt, nt, nt);
    lat__src_addf(&s,
        "__global__ void %s(%s *totals, unsigned int count)\n"
        "{\n"
        "    __shared__ lat_t lat_warp[32];\n"
        "    lat_t carry = (lat_t)(%s), excl, total;\n"
        "    for (unsigned int base = 0; base < count; base += blockDim.x) {\n"
        "        const unsigned int j = base + threadIdx.x;\n"
        "        lat_block_scan(j < count ? totals[j] : (lat_t)(%s), lat_warp, &excl, &total);\n"
        "        if (j < count)\n"
        "            totals[j] = lat_op(carry, excl);\n"
        "        carry = lat_op(carry, total);\n"
        "    }\n"
        "}\n",
        k2, ct, nt, nt);
    lat__src_addf(&s,
        "__global__ void %s(const %s *x, %s *y, unsigned long long n,\n"
        "                   unsigned long long chunk, const %s *prefix)\n"
        "{\n"
        "    const unsigned long long start = blockIdx.x * chunk;\n"
        "    const unsigned long long end = start + chunk < n ? start + chunk : n;\n"
        "#ifdef __LATTICE_SEQUENTIAL_BLOCK__\n"
        EMU_SUBCHUNK
        "    __syncthreads();\n"
        "    if (threadIdx.x == 0) {\n"
        "        lat_t c = prefix[blockIdx.x];\n"
        "        for (unsigned int t = 0; t < blockDim.x; ++t) {\n"
        "            const lat_t v = lat_part[t];\n"
        "            lat_part[t] = c;\n"
        "            c = lat_op(c, v);\n"
        "        }\n"
        "    }\n"
        "    __syncthreads();\n"
        "    lat_t c = lat_part[threadIdx.x];\n"
        "    for (unsigned long long j = s0; j < e0; ++j) {\n"
        "        const lat_t v = x[j];\n"
        "        %s\n"
        "    }\n"
        "#else\n"
        "    __shared__ lat_t lat_warp[32];\n"
        "    lat_t carry = prefix[blockIdx.x], excl, total;\n"
        "    for (unsigned long long base = start; base < end; base += blockDim.x) {\n"
        "        const unsigned long long j = base + threadIdx.x;\n"
        "        const lat_t incl = lat_block_scan(j < end ? x[j] : (lat_t)(%s), lat_warp,\n"
        "                                          &excl, &total);\n"
        "        if (j < end)\n"
        "            y[j] = lat_op(carry, %s);\n"
        "        carry = lat_op(carry, total);\n"
        "    }\n"
        "#endif\n"
        "}\n",
        k3, ct, ct, ct, nt,
        desc->exclusive ? "y[j] = c; c = lat_op(c, v);" : "c = lat_op(c, v); y[j] = c;", nt,
        desc->exclusive ? "excl" : "incl");
    lat_status st = lat__src_check(&s, ctx);
    if (st != LAT_OK)
        return st;
    lat_scan *sc = lat__calloc(1, sizeof *sc);
    if (!sc) {
        lat__src_free(&s);
        return lat__oom(ctx);
    }
    size_t max_blocks = lat__grid_for(ctx, (size_t)-1 / 2, LAT__BLOCK);
    st = lat__gen_get(ctx, s.text, NULL, NULL, NULL, (const char *const[]){k1, k2, k3, NULL},
                      max_blocks * lat_dtype_size(t), &sc->gen);
    lat__src_free(&s);
    if (st != LAT_OK) {
        free(sc);
        return st;
    }
    sc->dtype = t;
    *out = sc;
    return LAT_OK;
}

void lat_scan_destroy(lat_scan *s)
{
    LAT__API();
    free(s);
}

lat_status lat_scan_launch(lat_scan *s, const lat_array *in, lat_array *out)
{
    LAT__API();
    if (!s || !in || !out)
        return lat__error(s ? s->gen->ctx : NULL, LAT_ERROR_INVALID_VALUE, "%s is NULL",
                          !s ? "s" : !in ? "in" : "out");
    lat__gen *g = s->gen;
    if (in->ctx != g->ctx || out->ctx != g->ctx)
        return lat__error(g->ctx, LAT_ERROR_INVALID_VALUE,
                          "the arrays must belong to the scan's context");
    if (in->dtype != s->dtype || out->dtype != s->dtype)
        return lat__error(g->ctx, LAT_ERROR_INVALID_VALUE,
                          "the scan is of %s; in is %s, out %s", lat_dtype_name(s->dtype),
                          lat_dtype_name(in->dtype), lat_dtype_name(out->dtype));
    if (in->size != out->size)
        return lat__error(g->ctx, LAT_ERROR_INVALID_VALUE,
                          "in has %zu elements, out %zu", in->size, out->size);
    unsigned long long n = in->size;
    if (n == 0)
        return LAT_OK;
    /* Chunks of whole tiles, one per block. */
    unsigned long long blocks = lat__grid_for(g->ctx, (size_t)n, LAT__BLOCK);
    unsigned long long chunk = (n + blocks - 1) / blocks;
    chunk = (chunk + LAT__BLOCK - 1) / LAT__BLOCK * LAT__BLOCK;
    blocks = (n + chunk - 1) / chunk;
    unsigned int count = (unsigned int)blocks;
    lat_deviceptr x = in->ptr, y = out->ptr, totals = g->scratch;
    lat_launch_desc grid = {.grid = {count, 1, 1}, .block = {LAT__BLOCK, 1, 1}};
    lat_launch_desc one = {.grid = {1, 1, 1}, .block = {LAT__BLOCK, 1, 1}};
    /* The totals live in the module's scratch buffer: hold its lock while the three
     * kernels are queued, so that no other scan's kernels land between them. */
    pthread_mutex_lock(&g->lock);
    lat_status st = lat_launch(g->kernels[0], &grid, (void *[]){&x, &n, &chunk, &totals});
    if (st == LAT_OK)
        st = lat_launch(g->kernels[1], &one, (void *[]){&totals, &count});
    if (st == LAT_OK)
        st = lat_launch(g->kernels[2], &grid, (void *[]){&x, &y, &n, &chunk, &totals});
    pthread_mutex_unlock(&g->lock);
    return st;
}
