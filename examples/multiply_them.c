/*
 * multiply_them: PyCUDA's flagship example, in C.
 *
 * Multiplies two arrays of 400 random floats element by element, with one block of 400
 * threads. As with PyCUDA's drv.Out / drv.In, lattice allocates the device buffers,
 * copies a and b in, and copies dest back out: no explicit device memory at all.
 */
#include <lattice.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const char *source =
    "__global__ void multiply_them(float *dest, float *a, float *b)\n"
    "{\n"
    "    const int i = threadIdx.x;\n"
    "    dest[i] = a[i] * b[i];\n"
    "}\n";

enum { N = 400 };

int main(void)
{
    lat_context *ctx;
    LAT_TRY(lat_context_create(NULL, &ctx));
    printf("backend: %s\n", lat_backend_name(lat_context_backend(ctx)));

    lat_module *mod;
    lat_kernel *multiply_them;
    LAT_TRY(lat_module_create(ctx, &(lat_module_desc){.source = source}, &mod));
    LAT_TRY(lat_module_get_kernel(mod, "multiply_them", &multiply_them));

    float a[N], b[N], dest[N] = {0};
    srand(2);
    for (int i = 0; i < N; i++) {
        a[i] = 2.0f * (float)rand() / (float)RAND_MAX - 1.0f;
        b[i] = 2.0f * (float)rand() / (float)RAND_MAX - 1.0f;
    }

    LAT_TRY(lat_launch_args(multiply_them, &(lat_launch_desc){.grid = {1}, .block = {N}},
                          LAT_ARGS(lat_arg_out(dest, sizeof dest),
                                   lat_arg_in(a, sizeof a),
                                   lat_arg_in(b, sizeof b))));

    /* PyCUDA prints dest - a*b: all zeros. */
    float max_error = 0;
    for (int i = 0; i < N; i++)
        max_error = fmaxf(max_error, fabsf(dest[i] - a[i] * b[i]));
    printf("dest - a*b = [%g %g %g ... %g %g %g]\n", dest[0] - a[0] * b[0],
           dest[1] - a[1] * b[1], dest[2] - a[2] * b[2], dest[N - 3] - a[N - 3] * b[N - 3],
           dest[N - 2] - a[N - 2] * b[N - 2], dest[N - 1] - a[N - 1] * b[N - 1]);
    printf("max |dest - a*b| = %g\n", max_error);

    lat_context_destroy(ctx);
    return max_error == 0 ? 0 : 1;
}
