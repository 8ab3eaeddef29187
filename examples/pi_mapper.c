/*
 * pi_mapper: pi as the integral of 4 / (1 + x^2) over [0, 1], from the PyCUDA notebook.
 *
 * A kernel evaluates the integrand at a million points, one thread each, in blocks of
 * 512; the host adds them up. The problem size reaches the kernel as a -D define, where
 * the Python version formatted it into the source string.
 */
#include <lattice.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const char *source =
    "__global__ void mapper(float *dest)\n"
    "{\n"
    "    const int id = threadIdx.x + blockDim.x * blockIdx.x;\n"
    "    const double x = 1.0 * id / PROBLEM_SIZE; // from 0.0 to 1.0\n"
    "    if (id < PROBLEM_SIZE)\n"
    "        dest[id] = 4.0 / (1.0 + x * x);\n"
    "}\n";

#define PROBLEM_SIZE 1000000

int main(void)
{
    lat_context *ctx;
    LAT_TRY(lat_context_create(NULL, &ctx));
    printf("backend: %s\n", lat_backend_name(lat_context_backend(ctx)));

    const char *defines[] = {"PROBLEM_SIZE=1000000", NULL};
    lat_module *mod;
    lat_kernel *mapper;
    LAT_TRY(lat_module_create(ctx, &(lat_module_desc){.source = source, .defines = defines},
                            &mod));
    LAT_TRY(lat_module_get_kernel(mod, "mapper", &mapper));

    float *dest = malloc(PROBLEM_SIZE * sizeof *dest);
    if (!dest)
        return 1;
    lat_launch_desc desc = {.grid = {(PROBLEM_SIZE + 511) / 512}, .block = {512}};
    LAT_TRY(lat_launch_args(mapper, &desc, LAT_ARGS(lat_arg_out(dest, PROBLEM_SIZE * sizeof *dest))));

    double sum = 0;
    for (int i = 0; i < PROBLEM_SIZE; i++)
        sum += dest[i];
    double pi = sum * (1.0 / PROBLEM_SIZE); /* correct for the bin size */
    printf("%f\n", pi);

    free(dest);
    lat_context_destroy(ctx);
    return fabs(pi - 3.14159265358979) < 1e-5 ? 0 : 1;
}
