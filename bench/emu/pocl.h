/* bench_emu's PoCL runs (pocl.c): OpenCL loaded at run time, so nothing needs it. */
#ifndef LAT_BENCH_POCL_H
#define LAT_BENCH_POCL_H

#include <stddef.h>

typedef struct pocl pocl;

typedef enum pocl_workload { POCL_MUL, POCL_PI, POCL_MATMUL, POCL_WARPSUM } pocl_workload;

/* PoCL's CPU device with the four kernels built, or NULL with the reason in why. */
pocl *pocl_open(char *why, size_t size);
/* One workload on PoCL, ready to run: its buffers (a, b copied in, as the bench's), its
 * kernel, and one run done so that its build is not timed. NULL when it cannot be made. */
typedef struct pocl_job pocl_job;
pocl_job *pocl_job_create(pocl *p, pocl_workload w, const float *a, const float *b, int n,
                          size_t out_count);
/* One run to its end: ms, or -1 when it fails. */
double pocl_job_run(pocl_job *j);
/* The output buffer (out_count floats) into out: 0, or -1 when the read fails. */
int pocl_job_read(pocl_job *j, float *out);
void pocl_job_destroy(pocl_job *j);
void pocl_close(pocl *p);

#endif
