/* array_double: the PyCUDA tutorial's closing example, in C. No kernel is written here:
 *     a_doubled = (2 * gpuarray.to_gpu(a)).get()                                        */
#include <lattice.h>

#include <stdio.h>

int main(void)
{
    lat_context *ctx;
    lat_array *a_gpu, *doubled;
    float a[4][4], a_doubled[4][4];
    for (int i = 0; i < 16; i++)
        a[i / 4][i % 4] = (float)((i * 7919) % 41) / 10 - 2;

    LAT_TRY(lat_context_default(&ctx));
    LAT_TRY(lat_array_from_host(ctx, LAT_DTYPE_FLOAT32, 2, (size_t[]){4, 4}, a, &a_gpu));
    LAT_TRY(lat_array_scalar_op(LAT_OP_MUL, lat_scalar_i32(2), a_gpu, NULL, &doubled));
    LAT_TRY(lat_array_get(doubled, a_doubled, sizeof a_doubled));

    int wrong = 0;
    for (int i = 0; i < 16; i++) {
        printf("%10.4f%s", a_doubled[i / 4][i % 4], i % 4 == 3 ? "\n" : " ");
        wrong += a_doubled[i / 4][i % 4] != 2 * a[i / 4][i % 4];
    }
    lat_array_destroy(doubled);
    lat_array_destroy(a_gpu);
    return wrong ? 1 : 0;
}
