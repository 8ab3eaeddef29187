/* Launch validation: every bad launch gets its exact status, on every backend, and
 * leaves the context usable. Also the raw cuLaunchKernel-style parameter array. */
#include "harness.h"

#include <string.h>

static const char *const fill_src =
    "__global__ void fill(int *x, int value)\n"
    "{\n"
    "    x[blockIdx.x * blockDim.x + threadIdx.x] = value;\n"
    "}\n";

static const char *const nothing_src = "__global__ void nothing(void) { }\n";

/* Launches `nothing` (no parameters) with the given shape. */
static lat_status launch_shape(lat_context *ctx, lat_dim3 grid, lat_dim3 block,
                               size_t shared)
{
    lat_kernel *k = t_kernel(ctx, nothing_src, "nothing");
    return lat_launch(k, &(lat_launch_desc){.grid = grid, .block = block,
                                            .shared_bytes = shared},
                      NULL);
}

#define DIM(x, y, z) ((lat_dim3){(x), (y), (z)})

TEST(raw_launch_passes_parameters_by_address)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx, fill_src, "fill");
    lat_deviceptr d = t_device_copy(ctx, NULL, 256 * sizeof(int));
    int value = 42;
    void *params[] = {&d, &value};
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {2}, .block = {128}}, params));
    ASSERT_OK(lat_context_synchronize(ctx));
    int out[256];
    ASSERT_OK(lat_memcpy_dtoh(ctx, out, d, sizeof out));
    for (int i = 0; i < 256; i++)
        ASSERT_MSG(out[i] == 42, "out[%d] = %d", i, out[i]);
}

TEST(a_kernel_without_parameters_takes_null_params)
{
    lat_context *ctx = t_context();
    ASSERT_OK(launch_shape(ctx, DIM(1, 1, 1), DIM(1, 1, 1), 0));
    ASSERT_OK(lat_context_synchronize(ctx));
}

TEST(zero_y_and_z_mean_one)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx, fill_src, "fill");
    lat_deviceptr d = t_device_copy(ctx, NULL, 64 * sizeof(int));
    int value = 9;
    void *params[] = {&d, &value};
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {2, 0, 0}, .block = {32, 0, 0}},
                         params));
    int out[64];
    ASSERT_OK(lat_memcpy_dtoh(ctx, out, d, sizeof out));
    ASSERT_EQ(out[0], 9);
    ASSERT_EQ(out[63], 9);
}

TEST(the_largest_legal_block_shapes_launch)
{
    lat_context *ctx = t_context();
    ASSERT_OK(launch_shape(ctx, DIM(1, 1, 1), DIM(1024, 1, 1), 0));
    ASSERT_OK(launch_shape(ctx, DIM(1, 1, 1), DIM(1, 1024, 1), 0));
    ASSERT_OK(launch_shape(ctx, DIM(1, 1, 1), DIM(1, 1, 64), 0));
    ASSERT_OK(launch_shape(ctx, DIM(1, 1, 1), DIM(16, 4, 16), 0));
    ASSERT_OK(lat_context_synchronize(ctx));
}

TEST(a_block_of_1025_threads_is_invalid_dimensions)
{
    lat_context *ctx = t_context();
    ASSERT_STATUS(LAT_ERROR_INVALID_DIMENSIONS, launch_shape(ctx, DIM(1, 1, 1), DIM(1025, 1, 1), 0));
    ASSERT_CONTAINS(lat_last_error(), "1025");
}

TEST(a_block_whose_product_exceeds_1024_is_invalid_dimensions)
{
    lat_context *ctx = t_context();
    ASSERT_STATUS(LAT_ERROR_INVALID_DIMENSIONS, launch_shape(ctx, DIM(1, 1, 1), DIM(32, 32, 2), 0));
    ASSERT_STATUS(LAT_ERROR_INVALID_DIMENSIONS, launch_shape(ctx, DIM(1, 1, 1), DIM(512, 2, 2), 0));
}

TEST(block_y_of_1025_is_invalid_dimensions)
{
    lat_context *ctx = t_context();
    ASSERT_STATUS(LAT_ERROR_INVALID_DIMENSIONS, launch_shape(ctx, DIM(1, 1, 1), DIM(1, 1025, 1), 0));
}

TEST(block_z_of_65_is_invalid_dimensions)
{
    lat_context *ctx = t_context();
    ASSERT_STATUS(LAT_ERROR_INVALID_DIMENSIONS, launch_shape(ctx, DIM(1, 1, 1), DIM(1, 1, 65), 0));
}

TEST(grid_y_of_65536_is_invalid_dimensions)
{
    lat_context *ctx = t_context();
    ASSERT_STATUS(LAT_ERROR_INVALID_DIMENSIONS, launch_shape(ctx, DIM(1, 65536, 1), DIM(1, 1, 1), 0));
}

TEST(grid_z_of_65536_is_invalid_dimensions)
{
    lat_context *ctx = t_context();
    ASSERT_STATUS(LAT_ERROR_INVALID_DIMENSIONS, launch_shape(ctx, DIM(1, 1, 65536), DIM(1, 1, 1), 0));
}

TEST(grid_x_above_2_to_the_31_minus_1_is_invalid_dimensions)
{
    lat_context *ctx = t_context();
    ASSERT_STATUS(LAT_ERROR_INVALID_DIMENSIONS,
                  launch_shape(ctx, DIM(2147483648u, 1, 1), DIM(1, 1, 1), 0));
    ASSERT_STATUS(LAT_ERROR_INVALID_DIMENSIONS,
                  launch_shape(ctx, DIM(0xffffffffu, 1, 1), DIM(1, 1, 1), 0));
}

TEST(grid_x_of_zero_is_invalid_dimensions)
{
    lat_context *ctx = t_context();
    ASSERT_STATUS(LAT_ERROR_INVALID_DIMENSIONS, launch_shape(ctx, DIM(0, 1, 1), DIM(1, 1, 1), 0));
}

TEST(block_x_of_zero_is_invalid_dimensions)
{
    lat_context *ctx = t_context();
    ASSERT_STATUS(LAT_ERROR_INVALID_DIMENSIONS, launch_shape(ctx, DIM(1, 1, 1), DIM(0, 1, 1), 0));
}

TEST(more_shared_memory_than_a_block_has_is_error_shared_memory)
{
    lat_context *ctx = t_context();
    lat_device_info info;
    ASSERT_OK(lat_context_device_info(ctx, &info));
    ASSERT_STATUS(LAT_ERROR_SHARED_MEMORY,
                  launch_shape(ctx, DIM(1, 1, 1), DIM(1, 1, 1), info.shared_memory_per_block_optin + 1));
    ASSERT_STATUS(LAT_ERROR_SHARED_MEMORY,
                  launch_shape(ctx, DIM(1, 1, 1), DIM(1, 1, 1), (size_t)1 << 40));
}

TEST(null_kernel_or_descriptor_is_invalid_value)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx, nothing_src, "nothing");
    lat_launch_desc desc = {.grid = {1}, .block = {1}};
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_launch(NULL, &desc, NULL));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_launch(k, NULL, NULL));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_launch_args(NULL, &desc, 0, NULL));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_launch_args(k, NULL, 0, NULL));
}

TEST(a_null_parameter_pointer_is_invalid_value)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx, fill_src, "fill");
    lat_deviceptr d = t_device_copy(ctx, NULL, 64 * sizeof(int));
    void *params[] = {&d, NULL};
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {64}}, params));
}

TEST(a_null_parameter_array_for_a_kernel_with_parameters_is_invalid_value)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx, fill_src, "fill");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {64}}, NULL));
}

TEST(typed_launches_are_validated_the_same_way)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx, fill_src, "fill");
    int host[64] = {0};
    lat_arg args[] = {lat_arg_out(host, sizeof host), lat_arg_i32(3)};
    ASSERT_STATUS(LAT_ERROR_INVALID_DIMENSIONS,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1025}}, 2, args));
    ASSERT_STATUS(LAT_ERROR_INVALID_DIMENSIONS,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {0}, .block = {64}}, 2, args));
    ASSERT_STATUS(LAT_ERROR_INVALID_DIMENSIONS,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {1, 65536}, .block = {64}}, 2,
                                  args));
    /* A refused launch copies nothing back. */
    ASSERT_EQ(host[0], 0);
}

TEST(the_context_still_works_after_refused_launches)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx, fill_src, "fill");
    int host[64] = {0};
    lat_arg args[] = {lat_arg_out(host, sizeof host), lat_arg_i32(5)};
    ASSERT_STATUS(LAT_ERROR_INVALID_DIMENSIONS,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {2000}}, 2, args));
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {64}}, 2, args));
    ASSERT_EQ(host[63], 5);
    ASSERT_OK(lat_context_synchronize(ctx));
}

TEST(the_same_kernel_launches_many_times)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx, fill_src, "fill");
    lat_deviceptr d = t_device_copy(ctx, NULL, 32 * sizeof(int));
    for (int v = 0; v < 100; v++) {
        void *params[] = {&d, &v};
        ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {32}}, params));
    }
    int out[32];
    ASSERT_OK(lat_memcpy_dtoh(ctx, out, d, sizeof out));
    ASSERT_EQ(out[31], 99);
}

/* A kernel's launches that start on the launching thread alone (its last team was no
 * help: a tiny grid, or a loaded host) hand what is left to the team past a deadline:
 * every block still runs once, whichever way each launch went. Cheap launches (judged
 * alone) alternate with ones long enough to pass the deadline. */
TEST(every_block_runs_once_whether_a_launch_starts_alone_or_on_a_team)
{
    static const char *const src =
        "__global__ void mix(const unsigned *x, unsigned *y, unsigned *runs, int iters)\n"
        "{\n"
        "    unsigned i = blockIdx.x * blockDim.x + threadIdx.x, v = x[i];\n"
        "    for (int k = 0; k < iters; k++)\n"
        "        v = v * 1664525u + 1013904223u;\n"
        "    y[i] = v;\n"
        "    if (threadIdx.x == 0)\n"
        "        atomicAdd(&runs[blockIdx.x], 1u);\n"
        "}\n";
    enum { BLOCKS = 512, THREADS = 64, N = BLOCKS * THREADS, LAUNCHES = 12 };
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx, src, "mix");
    static unsigned x[N], y[N], runs[BLOCKS];
    for (int i = 0; i < N; i++)
        x[i] = t_rand_u32();
    lat_deviceptr dx = t_device_copy(ctx, x, sizeof x);
    lat_deviceptr dy = t_device_copy(ctx, NULL, sizeof y);
    lat_deviceptr dr = t_device_copy(ctx, NULL, sizeof runs);
    ASSERT_OK(lat_memset_d8(ctx, dr, 0, sizeof runs));
    int iters = 0;
    for (int l = 0; l < LAUNCHES; l++) {
        iters = l % 3 == 2 ? 200 + (int)(t_rand_u32() % 100) : (int)(t_rand_u32() % 4);
        void *params[] = {&dx, &dy, &dr, &iters};
        ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {BLOCKS}, .block = {THREADS}},
                             params));
    }
    ASSERT_OK(lat_memcpy_dtoh(ctx, y, dy, sizeof y));
    ASSERT_OK(lat_memcpy_dtoh(ctx, runs, dr, sizeof runs));
    for (int b = 0; b < BLOCKS; b++)
        ASSERT_MSG(runs[b] == LAUNCHES, "block %d ran %u times of %d", b, runs[b], LAUNCHES);
    for (int i = 0; i < N; i++) {
        unsigned v = x[i];
        for (int j = 0; j < iters; j++)
            v = v * 1664525u + 1013904223u;
        ASSERT_MSG(y[i] == v, "y[%d] = %u, expected %u", i, y[i], v);
    }
}
