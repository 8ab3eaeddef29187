/* multiply_them: PyCUDA's flagship example, in C. As with drv.Out / drv.In, lattice
 * allocates the device buffers, copies a and b in and dest back: no device memory here. */
#include <lattice.h>

#include <math.h>
#include <stdio.h>

static const char *source =
    "__global__ void multiply_them(float *dest, float *a, float *b)\n"
    "{\n"
    "    const int i = threadIdx.x;\n"
    "    dest[i] = a[i] * b[i];\n"
    "}\n";

int main(void)
{
    lat_kernel *multiply_them;
    LAT_TRY(lat_kernel_compile(NULL, source, "multiply_them", &multiply_them));

    float a[400], b[400], dest[400], max_error = 0;
    for (int i = 0; i < 400; i++)
        a[i] = sinf(i * 0.37f), b[i] = cosf(i * 0.11f);

    LAT_TRY(lat_launch_args(multiply_them, &(lat_launch_desc){.grid = {1}, .block = {400}},
                            LAT_ARGS(LAT_OUT(dest), LAT_IN(a), LAT_IN(b))));

    for (int i = 0; i < 400; i++) /* PyCUDA prints dest - a*b: all zeros */
        max_error = fmaxf(max_error, fabsf(dest[i] - a[i] * b[i]));
    lat_context *ctx; /* the default context lat_kernel_compile made */
    LAT_TRY(lat_context_default(&ctx));
    printf("max |dest - a*b| = %g on %s\n", max_error, lat_backend_name(lat_context_backend(ctx)));
    return max_error == 0 ? 0 : 1;
}
