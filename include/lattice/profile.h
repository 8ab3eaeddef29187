/*
 * lattice/profile.h — what a GPU's memory system would count, on any CPU.
 *
 * A context created with profiling on (LATTICE_PROFILE=1, or LAT_CHECK_PROFILE in
 * lat_context_desc.check) runs its launches on the emulator the way a checked launch runs
 * (lattice/check.h: the same instrumentation of every access, every thread on a fiber),
 * and counts, for each source line's access and warp by warp (32 threads of consecutive
 * linear index, as on every NVIDIA GPU), what a GPU of compute capability 7.0 or later
 * would see:
 *   - global memory: requests (warp-level instructions with at least one active lane) and
 *     the 32-byte sectors they touch, for loads, stores and atomics, and the fewest
 *     sectors the same lanes' bytes could take (ceil(lanes * size / 32));
 *   - shared memory: requests and wavefronts (passes through 32 banks of 4 bytes: the
 *     most distinct 4-byte words any one bank is asked for; lanes reading the same word
 *     share it), and the ideal, ceil(distinct words / 32), so that conflicts are
 *     wavefronts - ideal; 8- and 16-byte accesses take 2 and 4 wavefronts when
 *     conflict-free, as on the GPU;
 *   - branches (conditions of if, while, do, for): how often a warp executed one and how
 *     often its lanes went both ways; active lanes per request and per branch; barriers;
 *   - theoretical occupancy from the block's size and shared memory (compute capability
 *     9.0's limits; registers are not known on the emulator and are taken as no limit).
 * The lanes of a warp are matched as a GPU runs them: the k-th time each lane executes a
 * given access is one warp instruction (so divergent branches make separate requests, and
 * a loop's k-th turn is one). The counts are those of an instruction per access written
 * in the source: where the GPU's compiler merges accesses (four adjacent float loads of an
 * aligned struct into one 16-byte load) or removes them (a value kept in a register), the
 * GPU counts fewer requests. docs/profiling.md shows the agreement with Nsight Compute on
 * tests/profile/suite.cu.
 *
 * Profiling is a check context's mode: with LAT_CHECK_PROFILE alone no check runs and no
 * report is made; with checks too, both happen in the same launch. A profiled launch is
 * much slower than a plain one; contexts without profiling compile and run exactly as
 * before.
 */
#ifndef LATTICE_PROFILE_H
#define LATTICE_PROFILE_H

#include "../lattice.h"

#ifdef __cplusplus
extern "C" {
#endif

/* LAT_CHECK_PROFILE (lattice/check.h's modes), in lat_context_desc.check, turns
 * profiling on. */

typedef enum lat_profile_space {
    LAT_PROFILE_GLOBAL = 0, /* device memory (and __device__ variables) */
    LAT_PROFILE_SHARED = 1
} lat_profile_space;

typedef enum lat_profile_op {
    LAT_PROFILE_LOAD = 0,
    LAT_PROFILE_STORE = 1,
    LAT_PROFILE_ATOMIC = 2, /* atomicAdd() and the other atomic functions */
    /* The condition of an if, while, do or for: a row's requests are its executions by
     * warps, its transactions those where the warp's lanes went both ways (diverged) and
     * the GPU branches (an if of a few statements without loops, jumps or calls is
     * predicated code on the GPU, as nvcc compiles it: its lanes idle, it never
     * diverges), its ideal 0; its space means nothing. */
    LAT_PROFILE_BRANCH = 3
} lat_profile_op;

/* One access as written in the source, in one space, one kind of operation: `x += y`
 * through memory is a load row and a store row of the same line. */
typedef struct lat_profile_row {
    const char *file;
    int line;
    const char *expr; /* the access as written: "in[i * 2]", "tile[threadIdx.x][j]" */
    lat_profile_space space;
    lat_profile_op op;
    unsigned long long requests;     /* warp-level instructions */
    unsigned long long transactions; /* global: 32-byte sectors; shared: wavefronts */
    unsigned long long ideal;        /* the fewest transactions for the same lanes' bytes */
    unsigned long long lanes;        /* active lanes, summed over the requests */
} lat_profile_row;

/* A launch's totals: [space][op] as lat_profile_row counts them, summed over its rows. */
typedef struct lat_profile_summary {
    const char *kernel;
    lat_dim3 grid, block;
    unsigned long long requests[2][3], transactions[2][3], ideal[2][3], lanes[2][3];
    unsigned long long barriers;     /* warp-level barrier instructions (__syncthreads) */
    unsigned long long branches, divergent_branches, branch_lanes; /* LAT_PROFILE_BRANCH rows' sums */
    unsigned long long warps;        /* warps launched */
    size_t shared_bytes;             /* static and dynamic shared memory per block */
    double occupancy;                /* theoretical: resident warps / 64, 0 to 1 */
    const char *occupancy_limit;     /* "warps", "blocks" or "shared memory" */
} lat_profile_summary;

typedef struct lat_profile lat_profile;

/* The profile of the last profiled launch of ctx, copied: *out owns it (lat_profile_free).
 * Errors: LAT_ERROR_INVALID_VALUE (NULL argument; the context does not profile, or has
 * made no profiled launch yet: the message says which). Thread safety: any thread; a
 * launch running at the same time may or may not be the one returned. */
LAT_API lat_status lat_profile_get(lat_context *ctx, lat_profile **out);

/* Frees a profile; NULL is a no-op. */
LAT_API void lat_profile_free(lat_profile *p);

/* The totals, and the rows (sorted by cost: transactions beyond the ideal first, then
 * transactions, then the source order). row() returns NULL past the end. The pointers
 * live as long as p. Thread safety: any thread, p not being freed. */
LAT_API const lat_profile_summary *lat_profile_summary_get(const lat_profile *p);
LAT_API size_t lat_profile_row_count(const lat_profile *p);
LAT_API const lat_profile_row *lat_profile_row_at(const lat_profile *p, size_t i);

/* The profile as a table for people (a header of totals, then a row a line, by cost),
 * malloc'd (free() it); NULL when out of memory. `source`, if not NULL, is the kernel's
 * source text: each row then shows its line's text. */
LAT_API char *lat_profile_format(const lat_profile *p, const char *source);

/* Whether ctx profiles its launches (LAT_CHECK_PROFILE or LATTICE_PROFILE). */
LAT_API int lat_profile_enabled(const lat_context *ctx);

#ifdef __cplusplus
}
#endif

#endif
