/*
 * pi_device: pi_reducer without the traffic. The array lives on the device from the
 * mapper to the last reduction; only its first element is copied back.
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

    /* Allocate the array directly on the device: no host copy of it at all. */
    lat_deviceptr dest_gpu;
    LAT_TRY(lat_mem_alloc(ctx, PROBLEM_SIZE * sizeof(float), &dest_gpu));

    lat_launch_desc desc = {.grid = {(PROBLEM_SIZE + 511) / 512}, .block = {512}};
    LAT_TRY(lat_launch_args(mapper, &desc, LAT_ARGS(lat_arg_ptr(dest_gpu))));
    for (int i = 1; i < PROBLEM_SIZE; i *= 2)
        LAT_TRY(lat_launch_args(reducer, &desc, LAT_ARGS(lat_arg_ptr(dest_gpu), lat_arg_i32(i))));

    /* Only the first element is needed. */
    float only_one_element;
    LAT_TRY(lat_memcpy_dtoh(ctx, &only_one_element, dest_gpu, sizeof only_one_element));
    double pi = only_one_element * (1.0 / PROBLEM_SIZE);
    printf("%.7f\n", pi);

    lat_context_destroy(ctx);
    return fabs(pi - 3.14159265358979) < 1e-5 ? 0 : 1;
}
