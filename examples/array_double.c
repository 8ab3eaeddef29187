/*
 * array_double: the closing example of the PyCUDA tutorial, in C.
 *
 *     a_gpu = gpuarray.to_gpu(numpy.random.randn(4, 4).astype(numpy.float32))
 *     a_doubled = (2 * a_gpu).get()
 *
 * No kernel is written here: lattice generates the one that computes 2 * a. Runs on a
 * GPU, or on the CPU emulator (LATTICE_BACKEND=emu).
 */
#include <lattice.h>

#include <stdio.h>
#include <stdlib.h>

/* Stops the program with lattice's explanation when a call fails. */
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
    printf("backend: %s\n", lat_backend_name(lat_context_backend(ctx)));

    float a[4][4];
    srand(1);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            a[i][j] = 4.0f * (float)rand() / (float)RAND_MAX - 2.0f;

    lat_array *a_gpu, *doubled;
    LAT_TRY(lat_array_from_host(ctx, LAT_DTYPE_FLOAT32, 2, (size_t[]){4, 4}, a, &a_gpu));
    /* 2 * a_gpu: an int scalar times a float32 array is float32, as in C. */
    LAT_TRY(lat_array_scalar_op(LAT_OP_MUL, lat_scalar_i32(2), a_gpu, NULL, &doubled));
    float a_doubled[4][4];
    LAT_TRY(lat_array_get(doubled, a_doubled, sizeof a_doubled));
    print_matrix(a_doubled);
    print_matrix(a);

    int wrong = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            wrong += a_doubled[i][j] != 2 * a[i][j];
    lat_array_destroy(doubled);
    lat_array_destroy(a_gpu);
    lat_context_destroy(ctx);
    if (wrong) {
        printf("%d entries are not doubled\n", wrong);
        return 1;
    }
    return 0;
}
