/* bench_emu's PoCL runs (pocl.c): OpenCL loaded at run time, so nothing needs it. */
#ifndef LAT_BENCH_POCL_H
#define LAT_BENCH_POCL_H

#include <stddef.h>

typedef struct pocl pocl;

typedef enum pocl_workload { POCL_MUL, POCL_PI, POCL_MATMUL, POCL_WARPSUM } pocl_workload;

/* PoCL's CPU device with the four kernels built, or NULL with the reason in why. */
pocl *pocl_open(char *why, size_t size);
/* Median ms of reps runs (after one) of workload w over n (a, b as the bench's), the
 * result in out (out_count floats); -1 when it fails. */
double pocl_time(pocl *p, pocl_workload w, const float *a, const float *b, int n, int reps,
                 float *out, size_t out_count);
void pocl_close(pocl *p);

#endif
