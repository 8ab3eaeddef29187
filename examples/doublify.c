/* doublify: the first program of the PyCUDA tutorial, in C. A 4x4 array of floats goes to
 * the device, one block of 4x4 threads doubles every entry, and it comes back. */
#include <lattice.h>

#include <stdio.h>

static const char *source =
    "__global__ void doublify(float *a)\n"
    "{\n"
    "    int idx = threadIdx.x + threadIdx.y * 4;\n"
    "    a[idx] *= 2;\n"
    "}\n";

int main(void)
{
    lat_context *ctx;
    lat_kernel *doublify;
    LAT_TRY(lat_context_default(&ctx));
    LAT_TRY(lat_kernel_compile(ctx, source, "doublify", &doublify));

    float a[4][4], a_doubled[4][4];
    for (int i = 0; i < 16; i++)
        a[i / 4][i % 4] = (float)((i * 7919) % 41) / 10 - 2;

    lat_deviceptr a_gpu; /* as PyCUDA's tutorial does: mem_alloc, memcpy_htod, then back */
    LAT_TRY(lat_mem_alloc(ctx, sizeof a, &a_gpu));
    LAT_TRY(lat_memcpy_htod(ctx, a_gpu, a, sizeof a));
    LAT_TRY(lat_launch(doublify, &(lat_launch_desc){.grid = {1}, .block = {4, 4}}, (void *[]){&a_gpu}));
    LAT_TRY(lat_memcpy_dtoh(ctx, a_doubled, a_gpu, sizeof a_doubled));

    int wrong = 0;
    for (int i = 0; i < 16; i++) {
        printf("%10.4f%s", a_doubled[i / 4][i % 4], i % 4 == 3 ? "\n" : " ");
        wrong += a_doubled[i / 4][i % 4] != 2 * a[i / 4][i % 4];
    }
    return wrong ? 1 : 0;
}
