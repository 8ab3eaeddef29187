/*
 * saxpy_elementwise: PyCUDA's ElementwiseKernel example, in C.
 *
 *     lin_comb = ElementwiseKernel("float a, float *x, float b, float *y, float *z",
 *                                  "z[i] = a*x[i] + b*y[i]")
 *
 * lattice writes the kernel around the operation (a grid-stride loop over i, sized for
 * the device), compiles it once, and checks the arguments of every launch against the
 * declaration.
 */
#include <lattice.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    enum { N = 50000 };
    lat_context *ctx;
    LAT_TRY(lat_context_create(NULL, &ctx));

    lat_elementwise *lin_comb;
    LAT_TRY(lat_elementwise_create(ctx,
                                 &(lat_elementwise_desc){
                                     .arguments = "float a, float *x, float b, float *y, float *z",
                                     .operation = "z[i] = a*x[i] + b*y[i]",
                                     .name = "linear_combination"},
                                 &lin_comb));

    static float x[N], y[N], z[N];
    srand(2);
    for (int i = 0; i < N; i++) {
        x[i] = (float)rand() / (float)RAND_MAX;
        y[i] = (float)rand() / (float)RAND_MAX;
    }
    lat_array *x_gpu, *y_gpu, *z_gpu;
    size_t n = N;
    LAT_TRY(lat_array_from_host(ctx, LAT_DTYPE_FLOAT32, 1, &n, x, &x_gpu));
    LAT_TRY(lat_array_from_host(ctx, LAT_DTYPE_FLOAT32, 1, &n, y, &y_gpu));
    LAT_TRY(lat_array_empty_like(x_gpu, &z_gpu));

    LAT_TRY(lat_elementwise_launch(lin_comb, n,
                                 LAT_ARGS(lat_arg_f32(5), lat_arg_array(x_gpu), lat_arg_f32(6),
                                          lat_arg_array(y_gpu), lat_arg_array(z_gpu))));
    LAT_TRY(lat_array_get(z_gpu, z, sizeof z));

    /* A GPU may fuse a multiply and an add: allow for the one rounding it saves. */
    int wrong = 0;
    for (int i = 0; i < N; i++) {
        float want = 5 * x[i] + 6 * y[i];
        wrong += fabsf(z[i] - want) > 1e-6f * fabsf(want);
    }
    printf("z[0] = %g, z[%d] = %g: %s\n", z[0], N - 1, z[N - 1], wrong ? "WRONG" : "correct");

    lat_array_destroy(x_gpu);
    lat_array_destroy(y_gpu);
    lat_array_destroy(z_gpu);
    lat_elementwise_destroy(lin_comb);
    lat_context_destroy(ctx);
    return wrong != 0;
}
