/*
 * dot_reduction: PyCUDA's ReductionKernel example, in C.
 *
 *     dot = ReductionKernel(numpy.float32, neutral="0", reduce_expr="a+b",
 *                           map_expr="x[i]*y[i]", arguments="float *x, float *y")
 *
 * lattice generates a two-stage reduction (warp shuffles and shared memory within each
 * block, one block to combine the blocks) and compares it with lat_array_dot, the
 * built-in dot product. Exits 77 ("skipped") on a backend that cannot run such kernels
 * yet, which it reports as LAT_ERROR_UNSUPPORTED.
 */
#include <lattice.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    enum { N = 1000003 };
    lat_context *ctx;
    LAT_TRY(lat_context_create(NULL, &ctx));

    static float x[N], y[N];
    double want = 0;
    srand(3);
    for (int i = 0; i < N; i++) {
        x[i] = (float)rand() / (float)RAND_MAX - 0.5f;
        y[i] = (float)rand() / (float)RAND_MAX - 0.5f;
        want += (double)x[i] * y[i];
    }
    lat_array *x_gpu, *y_gpu, *result, *builtin;
    size_t n = N;
    LAT_TRY(lat_array_from_host(ctx, LAT_DTYPE_FLOAT32, 1, &n, x, &x_gpu));
    LAT_TRY(lat_array_from_host(ctx, LAT_DTYPE_FLOAT32, 1, &n, y, &y_gpu));

    lat_reduction *dot;
    LAT_TRY(lat_reduction_create(ctx,
                               &(lat_reduction_desc){.dtype = LAT_DTYPE_FLOAT32,
                                                     .neutral = "0",
                                                     .reduce = "a+b",
                                                     .map = "x[i]*y[i]",
                                                     .arguments = "float *x, float *y",
                                                     .name = "dot"},
                               &dot));
    LAT_TRY(lat_reduction_launch(dot, n, LAT_ARGS(lat_arg_array(x_gpu), lat_arg_array(y_gpu)),
                               NULL, &result));
    LAT_TRY(lat_array_dot(x_gpu, y_gpu, NULL, &builtin));

    float got, got_builtin;
    LAT_TRY(lat_array_get(result, &got, sizeof got));
    LAT_TRY(lat_array_get(builtin, &got_builtin, sizeof got_builtin));
    /* float32 partial sums: a relative error of a few 1e-5 of the terms' magnitude. */
    double tol = 1e-4 * sqrt((double)N) * 0.25 + 1e-3;
    int ok = fabs(got - want) <= tol && fabs(got_builtin - want) <= tol;
    printf("dot = %.6f (generated), %.6f (lat_array_dot), %.6f (host, in double): %s\n", got,
           got_builtin, want, ok ? "correct" : "WRONG");

    lat_array_destroy(result);
    lat_array_destroy(builtin);
    lat_array_destroy(x_gpu);
    lat_array_destroy(y_gpu);
    lat_reduction_destroy(dot);
    lat_context_destroy(ctx);
    return !ok;
}
