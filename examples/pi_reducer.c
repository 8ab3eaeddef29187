/*
 * pi_reducer: the same integral as pi_mapper, with the sum done on the device too.
 *
 * After the mapper, a "reducer" kernel adds each element's neighbour at distance i into
 * it, for i = 1, 2, 4, ...: twenty launches merge a million values into dest[0]. As in
 * the PyCUDA notebook, dest travels in and out of the device with every launch (InOut);
 * pi_device.c keeps it there.
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
    "}\n"
    "\n"
    "__global__ void reducer(float *dest, int i)\n"
    "{\n"
    "    const int id = threadIdx.x + blockDim.x * blockIdx.x;\n"
    "    if (id % (2 * i) == 0 && id + i < PROBLEM_SIZE)\n"
    "        dest[id] += dest[id + i];\n"
    "}\n";

#define PROBLEM_SIZE 1000000

int main(void)
{
    lat_context *ctx;
    LAT_TRY(lat_context_create(NULL, &ctx));
    printf("backend: %s\n", lat_backend_name(lat_context_backend(ctx)));

    const char *defines[] = {"PROBLEM_SIZE=1000000", NULL};
    lat_module *mod;
    lat_kernel *mapper, *reducer;
    LAT_TRY(lat_module_create(ctx, &(lat_module_desc){.source = source, .defines = defines},
                            &mod));
    LAT_TRY(lat_module_get_kernel(mod, "mapper", &mapper));
    LAT_TRY(lat_module_get_kernel(mod, "reducer", &reducer));

    size_t bytes = PROBLEM_SIZE * sizeof(float);
    float *dest = malloc(bytes);
    if (!dest)
        return 1;
    lat_launch_desc desc = {.grid = {(PROBLEM_SIZE + 511) / 512}, .block = {512}};
    LAT_TRY(lat_launch_args(mapper, &desc, LAT_ARGS(lat_arg_out(dest, bytes))));

    int launches = 0;
    for (int i = 1; i < PROBLEM_SIZE; i *= 2, launches++)
        LAT_TRY(lat_launch_args(reducer, &desc,
                              LAT_ARGS(lat_arg_inout(dest, bytes), lat_arg_i32(i))));

    /* The final result is in the first element. */
    double pi = dest[0] * (1.0 / PROBLEM_SIZE);
    printf("%.16f (%d reducer launches)\n", pi, launches);

    free(dest);
    lat_context_destroy(ctx);
    return fabs(pi - 3.14159265358979) < 1e-5 ? 0 : 1;
}
