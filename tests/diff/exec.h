/*
 * The executors a generated kernel runs on, and the comparison of their outputs
 * (tests/diff/README.md):
 *   region   the emulator as it chooses (region loops for the kernels it can cut at
 *            their barriers, a plain loop or fibers for the others);
 *   fibers   the emulator with LATTICE_EMU_FIBERS=1 when the module is created: every
 *            kernel with a barrier or warp operation on fibers;
 *   check    the emulator with every check on (LAT_CHECK_ALL), as it chooses;
 *   checkfib the same, on fibers;
 *   cuda     the GPU (LAT_BACKEND_CUDA);
 *   opt      the emulator's optimising tier (LAT_EMU_OPT_SYNC: the system's C compiler
 *            builds the module before it runs; its kernels may differ from TinyCC's,
 *            implicit loops); skipped, as a compile failure, where there is no compiler.
 * A run's outcome is its output, or why there is none: the compile failed, the launch
 * failed, or (checked runs) the checks reported something on a kernel that is race-free
 * and defined by construction.
 */
#ifndef LAT_DIFF_EXEC_H
#define LAT_DIFF_EXEC_H

#include "gen.h"
#include "lattice.h"

#include <stdbool.h>
#include <stdio.h>

typedef enum dx_kind {
    DX_REGION,
    DX_FIBERS,
    DX_CHECK,
    DX_CHECK_FIBERS,
    DX_CUDA,
    DX_OPT,
    DX_N
} dx_kind;

const char *dx_kind_name(dx_kind k);

typedef enum dx_outcome {
    DX_OK,
    DX_COMPILE_FAILED,
    DX_LAUNCH_FAILED,
    DX_FINDINGS /* a checked run reported findings (its output is kept) */
} dx_outcome;

typedef struct dx_result {
    dx_outcome outcome;
    lat_status status;
    char *message;  /* why, for anything but DX_OK (malloc'd) */
    uint32_t *out;  /* the output (malloc'd); NULL when the kernel did not run */
    size_t n;
} dx_result;

void dx_result_free(dx_result *r);

/* The contexts runs need, made once. */
typedef struct dx_runner {
    lat_context *emu, *checked, *cuda;
} dx_runner;

/* Creates the contexts for the executors in `kinds` (bit 1 << DX_*). Returns 0, or -1
 * with the reason in `why` (a CUDA context that cannot be made, say). */
int dx_open(dx_runner *r, unsigned kinds, char *why, size_t why_size);
void dx_close(dx_runner *r);

/* Runs a rendered program on one executor. */
void dx_run(dx_runner *r, dx_kind k, const char *source, const dg_run_info *info,
            dx_result *out);

/* How two results differ. */
typedef struct dx_diff {
    bool differ;
    size_t index;      /* first differing word, when both ran */
    uint32_t want, got;
    size_t count;      /* differing words */
} dx_diff;

/* Compares b against the reference a: differ when the outcomes differ (a compile or
 * launch failure on one side only, findings) or an output word does. */
dx_diff dx_compare(const dx_result *a, const dx_result *b);

/* Says where word i of a program's output is: "block (1,0,0) thread (5,2,0) r[3]". */
void dx_locate(const dg_run_info *info, size_t i, char *buf, size_t size);

/* Prints "kind: ok" / "kind: compile failed: ..." etc. */
void dx_describe(FILE *f, dx_kind k, const dx_result *r);

#endif
