/*
 * doublify: the first program of the PyCUDA tutorial, in C.
 *
 * A 4x4 array of random floats goes to the device, a kernel run by one block of 4x4
 * threads doubles every entry, and the result comes back to be printed beside the
 * original. Runs on a GPU, or on the CPU emulator (LATTICE_BACKEND=emu).
 */
#include <lattice.h>

#include <stdio.h>
#include <stdlib.h>

/* Stops the program with lattice's explanation when a call fails. */
static const char *source =
    "__global__ void doublify(float *a)\n"
    "{\n"
    "    int idx = threadIdx.x + threadIdx.y * 4;\n"
    "    a[idx] *= 2;\n"
    "}\n";

static void print_matrix(float m[4][4])
{
    for (int i = 0; i < 4; i++) {
        printf(i == 0 ? "[[" : " [");
        for (int j = 0; j < 4; j++)
            printf("%12.8f", m[i][j]);
        printf(i == 3 ? "]]\n" : "]\n");
    }
}

int main(void)
{
    lat_context *ctx;
    LAT_TRY(lat_context_create(NULL, &ctx));
    lat_device_info device;
    LAT_TRY(lat_context_device_info(ctx, &device));
    printf("backend: %s (%s)\n", lat_backend_name(lat_context_backend(ctx)), device.name);

    float a[4][4];
    srand(1);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            a[i][j] = 4.0f * (float)rand() / (float)RAND_MAX - 2.0f;

    lat_deviceptr a_gpu;
    LAT_TRY(lat_mem_alloc(ctx, sizeof a, &a_gpu));
    LAT_TRY(lat_memcpy_htod(ctx, a_gpu, a, sizeof a));

    lat_module *mod;
    lat_kernel *doublify;
    LAT_TRY(lat_module_create(ctx, &(lat_module_desc){.source = source}, &mod));
    LAT_TRY(lat_module_get_kernel(mod, "doublify", &doublify));

    void *params[] = {&a_gpu};
    LAT_TRY(lat_launch(doublify, &(lat_launch_desc){.grid = {1}, .block = {4, 4}}, params));

    float a_doubled[4][4];
    LAT_TRY(lat_memcpy_dtoh(ctx, a_doubled, a_gpu, sizeof a_doubled));
    print_matrix(a_doubled);
    print_matrix(a);

    int wrong = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            wrong += a_doubled[i][j] != 2 * a[i][j];
    lat_context_destroy(ctx); /* frees the module and a_gpu too */
    if (wrong) {
        printf("%d entries are not doubled\n", wrong);
        return 1;
    }
    return 0;
}
