/* __shared__ memory of every shape, at function and file scope, static and dynamic,
 * per block, and its limits: checked against host references on every backend (the
 * emulator's results must be the GPU's exactly: these are integers). */
#include "harness.h"

#include <string.h>

TEST(scalars_structs_and_arrays_of_one_to_three_dimensions)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct P { int a; float b; };\n"
        "__global__ void shapes(int *out)\n"
        "{\n"
        "    __shared__ int s;\n"
        "    __shared__ struct P p;\n"
        "    __shared__ int one[64];\n"
        "    __shared__ int two[8][8], three[4][4][4];\n"
        "    int t = threadIdx.x;\n"
        "    if (t == 0) { s = 1000 * (blockIdx.x + 1); p.a = 7; p.b = 0.5f; }\n"
        "    one[t] = t;\n"
        "    two[t / 8][t % 8] = 2 * t;\n"
        "    three[t / 16][t / 4 % 4][t % 4] = 3 * t;\n"
        "    __syncthreads();\n"
        "    int r = 63 - t;\n"
        "    out[blockIdx.x * 64 + t] = s + p.a + (int)(p.b * 2) + one[r] + two[r / 8][r % 8] +\n"
        "                                three[r / 16][r / 4 % 4][r % 4] +\n"
        "                                (int)(sizeof one + sizeof(two) + sizeof three);\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "shapes");
    enum { B = 5 };
    int out[B * 64];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {B}, .block = {64}},
                              LAT_ARGS(lat_arg_out(out, sizeof out))));
    for (int b = 0; b < B; b++)
        for (int t = 0; t < 64; t++) {
            int r = 63 - t;
            int want = 1000 * (b + 1) + 7 + 1 + 6 * r + 3 * 64 * 4;
            ASSERT_MSG(out[b * 64 + t] == want, "block %d thread %d: %d, want %d", b, t,
                       out[b * 64 + t], want);
        }
}

TEST(file_scope_shared_variables_belong_to_each_block)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__shared__ float tile[32];\n"
        "__shared__ unsigned owner;\n"
        "__device__ void fill(float v) { tile[threadIdx.x] = v; }\n"
        "__global__ void blocks(float *out)\n"
        "{\n"
        "    if (threadIdx.x == 0) owner = blockIdx.x;\n"
        "    fill(blockIdx.x * 100.0f + threadIdx.x);\n"
        "    __syncthreads();\n"
        "    out[blockIdx.x * 32 + threadIdx.x] = tile[31 - threadIdx.x] + (owner == blockIdx.x ? 0.0f : 1e6f);\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "blocks");
    enum { B = 64 };
    float *out = t_calloc(B * 32, sizeof *out);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {B}, .block = {32}},
                              LAT_ARGS(lat_arg_out(out, B * 32 * sizeof *out))));
    for (int b = 0; b < B; b++)
        for (int t = 0; t < 32; t++)
            ASSERT_MSG(out[b * 32 + t] == b * 100.0f + (31 - t), "out[%d][%d] = %g", b, t,
                       out[b * 32 + t]);
}

TEST(a_device_functions_shared_variable_is_one_per_block)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__device__ int block_sum(int v)\n"
        "{\n"
        "    __shared__ int acc[128];\n"
        "    acc[threadIdx.x] = v;\n"
        "    __syncthreads();\n"
        "    for (int s = blockDim.x / 2; s > 0; s /= 2) {\n"
        "        if (threadIdx.x < s) acc[threadIdx.x] += acc[threadIdx.x + s];\n"
        "        __syncthreads();\n"
        "    }\n"
        "    int r = acc[0];\n"
        "    __syncthreads();\n"
        "    return r;\n"
        "}\n"
        "__global__ void twice(int *out)\n"
        "{\n"
        "    int a = block_sum(threadIdx.x);\n"
        "    int b = block_sum(blockIdx.x);\n"
        "    if (threadIdx.x == 0) { out[2 * blockIdx.x] = a; out[2 * blockIdx.x + 1] = b; }\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "twice");
    enum { B = 9 };
    int out[2 * B];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {B}, .block = {128}},
                              LAT_ARGS(lat_arg_out(out, sizeof out))));
    for (int b = 0; b < B; b++) {
        ASSERT_EQ(out[2 * b], 127 * 128 / 2);
        ASSERT_EQ(out[2 * b + 1], 128 * b);
    }
}

TEST(extern_shared_arrays_alias_the_dynamic_memory)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void alias(unsigned *out, int n)\n"
        "{\n"
        "    extern __shared__ float f[];\n"
        "    extern __shared__ unsigned u[];\n"
        "    f[threadIdx.x] = (float)threadIdx.x;\n"
        "    __syncthreads();\n"
        "    out[threadIdx.x] = u[(threadIdx.x + 1) % n];\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "alias");
    enum { N = 200 };
    unsigned out[N];
    ASSERT_OK(lat_launch_args(
        k, &(lat_launch_desc){.grid = {1}, .block = {N}, .shared_bytes = N * sizeof(float)},
        LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_i32(N))));
    for (int i = 0; i < N; i++) {
        float f = (float)((i + 1) % N);
        unsigned want;
        memcpy(&want, &f, sizeof want);
        ASSERT_U64_EQ(out[i], want);
    }
}

TEST(dynamic_shared_memory_follows_the_static)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void both(int *out)\n"
        "{\n"
        "    __shared__ int fixed[16];\n"
        "    extern __shared__ int dyn[];\n"
        "    if (threadIdx.x < 16)\n" /* one writer per word: no race for racecheck */
        "        fixed[threadIdx.x] = -1;\n"
        "    dyn[threadIdx.x] = threadIdx.x * 3;\n"
        "    __syncthreads();\n"
        "    out[threadIdx.x] = dyn[blockDim.x - 1 - threadIdx.x] + fixed[0];\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "both");
    enum { N = 256 };
    int out[N];
    ASSERT_OK(lat_launch_args(
        k, &(lat_launch_desc){.grid = {3}, .block = {N}, .shared_bytes = N * sizeof(int)},
        LAT_ARGS(lat_arg_out(out, sizeof out))));
    for (int i = 0; i < N; i++)
        ASSERT_EQ(out[i], 3 * (N - 1 - i) - 1);
}

TEST(the_shared_memory_limit_is_a_gpus)
{
    lat_context *ctx = t_context();
    lat_device_info info;
    ASSERT_OK(lat_context_device_info(ctx, &info));
    ASSERT_TRUE(info.shared_memory_per_block_optin >= info.shared_memory_per_block);
    /* 40 KiB static: fits; 16 KiB of dynamic memory on top needs the opt-in. */
    static const char src[] =
        "__global__ void big(float *out)\n"
        "{\n"
        "    __shared__ float a[10240];\n"
        "    a[threadIdx.x] = threadIdx.x;\n"
        "    __syncthreads();\n"
        "    out[threadIdx.x] = a[10239 - threadIdx.x - 10112];\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "big");
    float out[128];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {2}, .block = {128}},
                              LAT_ARGS(lat_arg_out(out, sizeof out))));
    for (int i = 0; i < 128; i++)
        ASSERT_MSG(out[i] == (float)(127 - i), "out[%d] = %g", i, out[i]);
    lat_status st = lat_launch_args(
        k, &(lat_launch_desc){.grid = {2}, .block = {128}, .shared_bytes = 16 * 1024},
        LAT_ARGS(lat_arg_out(out, sizeof out)));
    if (info.shared_memory_per_block_optin >= 56 * 1024)
        ASSERT_OK(st);
    else
        ASSERT_NE(st, LAT_OK);
    /* Beyond the opt-in, static and dynamic together: refused, naming both. */
    size_t over = info.shared_memory_per_block_optin - 40960 + 1;
    st = lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {128}, .shared_bytes = over},
                         LAT_ARGS(lat_arg_out(out, sizeof out)));
    ASSERT_NE(st, LAT_OK);
    if (lat_context_backend(ctx) == LAT_BACKEND_EMU) {
        ASSERT_STATUS(LAT_ERROR_SHARED_MEMORY, st);
        ASSERT_CONTAINS(lat_last_error(), "kernel 'big' uses 40960 bytes of static shared memory");
    }
    /* Dynamic memory alone above the opt-in is refused before any backend sees it. */
    ASSERT_STATUS(LAT_ERROR_SHARED_MEMORY,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1},
                                                        .shared_bytes = info.shared_memory_per_block_optin + 1},
                                  LAT_ARGS(lat_arg_out(out, sizeof out))));
}

/* A block that asks for more dynamic shared memory than shared_memory_per_block, as a CUDA
 * program does after cudaFuncSetAttribute(MaxDynamicSharedMemorySize): 100 KiB reversed in
 * one block, against the host's reversal of random values. */
TEST(dynamic_shared_memory_beyond_48_KiB_is_opted_in)
{
    lat_context *ctx = t_context();
    lat_device_info info;
    ASSERT_OK(lat_context_device_info(ctx, &info));
    enum { N = 25600, THREADS = 256 };
    if (info.shared_memory_per_block_optin < N * sizeof(float))
        SKIP("this backend opts no kernel in beyond %zu bytes of shared memory",
             info.shared_memory_per_block_optin);
    static const char src[] =
        "extern \"C\" __global__ void reverse(const float *in, float *out, int n)\n"
        "{\n"
        "    extern __shared__ float s[];\n"
        "    for (int i = threadIdx.x; i < n; i += blockDim.x) s[i] = in[i];\n"
        "    __syncthreads();\n"
        "    for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = s[n - 1 - i] * 2.0f;\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "reverse");
    float *in = t_calloc(N, sizeof *in), *out = t_calloc(N, sizeof *out);
    t_rand_floats(in, N, -100, 100);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {THREADS},
                                                    .shared_bytes = N * sizeof(float)},
                              LAT_ARGS(lat_arg_in(in, N * sizeof *in),
                                       lat_arg_out(out, N * sizeof *out), lat_arg_i32(N))));
    for (int i = 0; i < N; i++)
        ASSERT_MSG(out[i] == in[N - 1 - i] * 2.0f, "out[%d] = %g, want %g", i, out[i],
                   in[N - 1 - i] * 2.0f);
}

/* Static shared memory is 48 KiB at most, however much a launch could opt in to: ptxas
 * refuses more on a GPU, and the emulator refuses the launch, naming the size. */
TEST(static_shared_memory_above_48_KiB_is_refused)
{
    lat_context *ctx = t_context();
    if (lat_context_backend(ctx) != LAT_BACKEND_EMU)
        SKIP("on a GPU ptxas refuses the module; this is the emulator's launch error");
    lat_kernel *k = t_kernel(ctx,
                             "__global__ void huge(float *out)\n"
                             "{ __shared__ float a[12800]; a[threadIdx.x] = 1.0f; __syncthreads();\n"
                             "  out[threadIdx.x] = a[12799 - threadIdx.x]; }\n",
                             "huge");
    float out[32];
    ASSERT_STATUS(LAT_ERROR_SHARED_MEMORY,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {32}},
                                  LAT_ARGS(lat_arg_out(out, sizeof out))));
    ASSERT_CONTAINS(lat_last_error(), "kernel 'huge' uses 51200 bytes of static shared memory");
}

TEST(shared_memory_in_a_kernel_without_barriers)
{
    /* Each thread uses its own slot: no barrier, the plain thread loop. */
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void own(int *out)\n"
        "{\n"
        "    __shared__ int slot[256];\n"
        "    slot[threadIdx.x] = threadIdx.x * threadIdx.x;\n"
        "    out[blockIdx.x * blockDim.x + threadIdx.x] = slot[threadIdx.x] + blockIdx.x;\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "own");
    enum { B = 4, N = 256 };
    int out[B * N];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {B}, .block = {N}},
                              LAT_ARGS(lat_arg_out(out, sizeof out))));
    for (int i = 0; i < B * N; i++)
        ASSERT_EQ(out[i], (i % N) * (i % N) + i / N);
}
