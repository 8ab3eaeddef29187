/* What the emulator does not support yet (issue 2's dialect): shared memory, barriers,
 * atomics and warp intrinsics are refused at compile time with LAT_ERROR_UNSUPPORTED,
 * naming the construct and its line: never a crash, never a wrong answer. On CUDA the same
 * kernels compile and give the right result.
 *
 * When the emulator learns one of them, flip its switch below to 1: the case then expects
 * the right result on every backend. */
#include "harness.h"

#include <stdio.h>

#define EMU_SUPPORTS_SHARED_MEMORY 1
#define EMU_SUPPORTS_SYNCTHREADS 1
#define EMU_SUPPORTS_ATOMICS 1
#define EMU_SUPPORTS_WARP_SHUFFLES 1

/* Compiles `src` as `file`. On the emulator without support, checks the refusal (status,
 * construct, "file:line") and returns NULL; otherwise returns the kernel `name`. */
static lat_kernel *compile_or_refuse(lat_context *ctx, int emu_supports, const char *src,
                                     const char *file, const char *name,
                                     const char *construct, int line)
{
    lat_module *mod = NULL;
    lat_status st = lat_module_create(ctx, &(lat_module_desc){.source = src, .name = file}, &mod);
    if (t_is_emu(ctx) && !emu_supports) {
        char where[256];
        snprintf(where, sizeof where, "%s:%d", file, line);
        ASSERT_STATUS(LAT_ERROR_UNSUPPORTED, st);
        ASSERT_NULL(mod);
        ASSERT_CONTAINS(lat_last_error(), construct);
        ASSERT_CONTAINS(lat_last_error(), where);
        return NULL;
    }
    ASSERT_OK(st);
    lat_kernel *k = NULL;
    ASSERT_OK(lat_module_get_kernel(mod, name, &k));
    return k;
}

TEST(static_shared_memory)
{
    lat_context *ctx = t_context();
    static const char src[] = "__global__ void reverse(float *x)\n"
                              "{\n"
                              "    __shared__ float tile[64];\n" /* line 3 */
                              "    int i = threadIdx.x;\n"
                              "    tile[i] = x[i];\n"
                              "    __syncthreads();\n"
                              "    x[i] = tile[63 - i];\n"
                              "}\n";
    lat_kernel *k = compile_or_refuse(ctx, EMU_SUPPORTS_SHARED_MEMORY, src, "reverse.cu",
                                      "reverse", "__shared__", 3);
    if (!k)
        return;
    float x[64];
    for (int i = 0; i < 64; i++)
        x[i] = (float)i;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {64}},
                              LAT_ARGS(lat_arg_inout(x, sizeof x))));
    for (int i = 0; i < 64; i++)
        ASSERT_MSG(x[i] == (float)(63 - i), "x[%d] = %g", i, x[i]);
}

TEST(dynamic_shared_memory)
{
    lat_context *ctx = t_context();
    static const char src[] = "__global__ void rotate(int *x, int n)\n"
                              "{\n"
                              "    extern __shared__ int buf[];\n" /* line 3 */
                              "    int i = threadIdx.x;\n"
                              "    buf[i] = x[i];\n"
                              "    __syncthreads();\n"
                              "    x[i] = buf[(i + 1) % n];\n"
                              "}\n";
    lat_kernel *k = compile_or_refuse(ctx, EMU_SUPPORTS_SHARED_MEMORY, src, "rotate.cu",
                                      "rotate", "__shared__", 3);
    if (!k)
        return;
    int x[100];
    for (int i = 0; i < 100; i++)
        x[i] = i;
    ASSERT_OK(lat_launch_args(
        k, &(lat_launch_desc){.grid = {1}, .block = {100}, .shared_bytes = sizeof x},
        LAT_ARGS(lat_arg_inout(x, sizeof x), lat_arg_i32(100))));
    for (int i = 0; i < 100; i++)
        ASSERT_EQ(x[i], (i + 1) % 100);
}

TEST(syncthreads_alone)
{
    lat_context *ctx = t_context();
    static const char src[] = "__global__ void step(int *x)\n"
                              "{\n"
                              "    x[threadIdx.x] += 1;\n"
                              "    __syncthreads();\n" /* line 4 */
                              "    x[threadIdx.x] *= 2;\n"
                              "}\n";
    lat_kernel *k = compile_or_refuse(ctx, EMU_SUPPORTS_SYNCTHREADS, src, "step.cu", "step",
                                      "__syncthreads", 4);
    if (!k)
        return;
    int x[32] = {0};
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {32}},
                              LAT_ARGS(lat_arg_inout(x, sizeof x))));
    ASSERT_EQ(x[31], 2);
}

TEST(atomic_add)
{
    lat_context *ctx = t_context();
    static const char src[] = "__global__ void count(int *total, const float *x, int n)\n"
                              "{\n"
                              "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                              "    if (i < n && x[i] > 0.0f)\n"
                              "        atomicAdd(total, 1);\n" /* line 5 */
                              "}\n";
    lat_kernel *k = compile_or_refuse(ctx, EMU_SUPPORTS_ATOMICS, src, "count.cu", "count",
                                      "atomicAdd", 5);
    if (!k)
        return;
    enum { N = 10000 };
    float *x = t_calloc(N, sizeof *x);
    t_rand_floats(x, N, -1, 1);
    int want = 0, total = 0;
    for (int i = 0; i < N; i++)
        want += x[i] > 0.0f;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {(N + 255) / 256}, .block = {256}},
                              LAT_ARGS(lat_arg_inout(&total, sizeof total),
                                       lat_arg_in(x, N * sizeof *x), lat_arg_i32(N))));
    ASSERT_EQ(total, want);
}

TEST(warp_shuffle)
{
    lat_context *ctx = t_context();
    static const char src[] = "__global__ void warp_sum(int *x)\n"
                              "{\n"
                              "    int v = x[threadIdx.x];\n"
                              "    for (int d = 16; d > 0; d /= 2)\n"
                              "        v += __shfl_down_sync(0xffffffffu, v, d);\n" /* line 5 */
                              "    if (threadIdx.x == 0)\n"
                              "        x[0] = v;\n"
                              "}\n";
    lat_kernel *k = compile_or_refuse(ctx, EMU_SUPPORTS_WARP_SHUFFLES, src, "warp_sum.cu",
                                      "warp_sum", "__shfl_down_sync", 5);
    if (!k)
        return;
    int x[32];
    for (int i = 0; i < 32; i++)
        x[i] = i + 1;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {32}},
                              LAT_ARGS(lat_arg_inout(x, sizeof x))));
    ASSERT_EQ(x[0], 32 * 33 / 2);
}
