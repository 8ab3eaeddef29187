/* __syncthreads and its _count/_and/_or forms: at the top of a kernel, in uniform loops
 * and conditionals, in __device__ functions, after some threads have returned, in blocks
 * of every size up to 1024 and in three dimensions; and on the emulator, a barrier that
 * can never complete is an error naming where each thread waits, not a hang. */
#include "harness.h"

#include <stdio.h>
#include <string.h>

static const char reduce_src[] =
    "__global__ void reduce(const int *in, int *out, int n)\n"
    "{\n"
    "    extern __shared__ int s[];\n"
    "    unsigned t = threadIdx.x;\n"
    "    unsigned i = blockIdx.x * blockDim.x + t;\n"
    "    s[t] = i < n ? in[i] : 0;\n"
    "    __syncthreads();\n"
    "    /* Any block size: fold the part above the largest power of two first. */\n"
    "    unsigned p = 1;\n"
    "    while (p * 2 <= blockDim.x) p *= 2;\n"
    "    if (t < blockDim.x - p) s[t] += s[t + p];\n"
    "    __syncthreads();\n"
    "    for (unsigned k = p / 2; k > 0; k >>= 1) {\n"
    "        if (t < k)\n"
    "            s[t] += s[t + k];\n"
    "        __syncthreads();\n"
    "    }\n"
    "    if (t == 0) out[blockIdx.x] = s[0];\n"
    "}\n";

TEST(tree_reductions_for_every_block_size)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx, reduce_src, "reduce");
    enum { N = 5000 };
    int *in = t_calloc(N, sizeof *in), *out = t_calloc(N, sizeof *out);
    for (int i = 0; i < N; i++)
        in[i] = (int)(t_rand_u32() % 1000) - 500;
    static const unsigned sizes[] = {1, 2, 3, 31, 32, 33, 64, 100, 255, 256, 512, 777, 1024};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        unsigned b = sizes[z], g = (N + b - 1) / b;
        ASSERT_OK(lat_launch_args(
            k, &(lat_launch_desc){.grid = {g}, .block = {b}, .shared_bytes = b * sizeof(int)},
            LAT_ARGS(lat_arg_in(in, N * sizeof *in), lat_arg_out(out, g * sizeof *out),
                     lat_arg_i32(N))));
        for (unsigned j = 0; j < g; j++) {
            int want = 0;
            for (unsigned i = j * b; i < (j + 1) * b && i < N; i++)
                want += in[i];
            ASSERT_MSG(out[j] == want, "block size %u, block %u: %d, want %d", b, j, out[j], want);
        }
    }
}

TEST(barriers_inside_device_functions_and_uniform_branches)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__device__ void rotate(int *s, int by)\n"
        "{\n"
        "    int v = s[(threadIdx.x + by) % blockDim.x];\n"
        "    __syncthreads();\n"
        "    s[threadIdx.x] = v;\n"
        "    __syncthreads();\n"
        "}\n"
        "__global__ void steps(int *out)\n"
        "{\n"
        "    __shared__ int s[96];\n"
        "    s[threadIdx.x] = threadIdx.x;\n"
        "    __syncthreads();\n"
        "    if (blockIdx.x % 2 == 0) {\n"
        "        rotate(s, 1);\n"
        "    } else {\n"
        "        for (int r = 0; r < blockIdx.x; r++)\n"
        "            rotate(s, 2);\n"
        "    }\n"
        "    out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x];\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "steps");
    enum { B = 6, T = 96 };
    int out[B * T];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {B}, .block = {T}},
                              LAT_ARGS(lat_arg_out(out, sizeof out))));
    for (int b = 0; b < B; b++) {
        int by = b % 2 == 0 ? 1 : 2 * b;
        for (int t = 0; t < T; t++)
            ASSERT_MSG(out[b * T + t] == (t + by) % T, "block %d thread %d: %d", b, t,
                       out[b * T + t]);
    }
}

TEST(threads_that_returned_early_count_as_arrived)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void tail(int *out, int n)\n"
        "{\n"
        "    __shared__ int s[128];\n"
        "    int t = threadIdx.x;\n"
        "    if (t >= n)\n"
        "        return;\n"
        "    s[t] = t + 1;\n"
        "    __syncthreads();\n"
        "    int sum = 0;\n"
        "    for (int i = 0; i < n; i++) sum += s[i];\n"
        "    __syncthreads();\n"
        "    out[t] = sum;\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "tail");
    int out[128];
    for (int n = 1; n <= 128; n += 37) {
        memset(out, 0, sizeof out);
        ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {128}},
                                  LAT_ARGS(lat_arg_inout(out, sizeof out), lat_arg_i32(n))));
        for (int t = 0; t < 128; t++)
            ASSERT_EQ(out[t], t < n ? n * (n + 1) / 2 : 0);
    }
}

TEST(syncthreads_count_and_or)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void votes(const int *pred, int *out)\n"
        "{\n"
        "    int p = pred[blockIdx.x * blockDim.x + threadIdx.x];\n"
        "    int c = __syncthreads_count(p);\n"
        "    int a = __syncthreads_and(p);\n"
        "    int o = __syncthreads_or(p);\n"
        "    if (threadIdx.x == 5) {\n"
        "        out[3 * blockIdx.x] = c;\n"
        "        out[3 * blockIdx.x + 1] = a != 0;\n"
        "        out[3 * blockIdx.x + 2] = o != 0;\n"
        "    }\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "votes");
    enum { B = 4, T = 200 };
    int pred[B * T] = {0}, out[3 * B];
    for (int t = 0; t < T; t++) {
        pred[0 * T + t] = 0;                         /* none */
        pred[1 * T + t] = t % 3 == 0 ? 7 : 0;        /* some */
        pred[2 * T + t] = -1;                        /* all */
        pred[3 * T + t] = t == T - 1;                /* one */
    }
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {B}, .block = {T}},
                              LAT_ARGS(lat_arg_in(pred, sizeof pred), lat_arg_out(out, sizeof out))));
    const int want[3 * B] = {0, 0, 0, (T + 2) / 3, 0, 1, T, 1, 1, 1, 0, 1};
    for (int i = 0; i < 3 * B; i++)
        ASSERT_MSG(out[i] == want[i], "out[%d] = %d, want %d", i, out[i], want[i]);
}

TEST(three_dimensional_blocks_transpose_through_shared_memory)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void turn(int *out)\n"
        "{\n"
        "    __shared__ int c[4][8][16];\n"
        "    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;\n"
        "    c[z][y][x] = (z * 8 + y) * 16 + x;\n"
        "    __syncthreads();\n"
        "    out[(z * 8 + y) * 16 + x] = c[3 - z][7 - y][15 - x];\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "turn");
    int out[512];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {16, 8, 4}},
                              LAT_ARGS(lat_arg_out(out, sizeof out))));
    for (int i = 0; i < 512; i++)
        ASSERT_EQ(out[i], 511 - i);
}

TEST(a_barrier_that_can_never_complete_is_an_error_not_a_hang)
{
    lat_context *ctx = t_context();
    if (!t_is_emu(ctx) || lat_context_backend(ctx) != LAT_BACKEND_EMU)
        SKIP("a GPU would hang: the emulator alone reports it");
    static const char src[] =
        "__global__ void stuck(int *out)\n"
        "{\n"
        "    if (threadIdx.x < 16)\n"
        "        __syncwarp();\n" /* line 4: waits for lanes 16 to 31 */
        "    else\n"
        "        __syncthreads();\n" /* line 6: waits for threads 0 to 15 */
        "    out[threadIdx.x] = 1;\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "stuck");
    int out[64];
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {2}, .block = {64}},
                                  LAT_ARGS(lat_arg_out(out, sizeof out))));
    const char *msg = lat_last_error();
    ASSERT_CONTAINS(msg, "kernel 'stuck' can never finish block");
    ASSERT_CONTAINS(msg, "stuck.cu:6");
    /* The context still works. */
    lat_kernel *ok = t_kernel(ctx, reduce_src, "reduce");
    int in[4] = {1, 2, 3, 4}, sum = 0;
    ASSERT_OK(lat_launch_args(
        ok, &(lat_launch_desc){.grid = {1}, .block = {4}, .shared_bytes = 4 * sizeof(int)},
        LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(&sum, sizeof sum), lat_arg_i32(4))));
    ASSERT_EQ(sum, 10);
}

TEST(a_trap_inside_a_barrier_kernel_fails_the_launch)
{
    lat_context *ctx = t_context();
    if (lat_context_backend(ctx) != LAT_BACKEND_EMU)
        SKIP("a trap on a GPU loses the context: the emulator's report is what is checked");
    static const char src[] =
        "__global__ void check(int *out)\n"
        "{\n"
        "    __shared__ int s[64];\n"
        "    s[threadIdx.x] = threadIdx.x;\n"
        "    __syncthreads();\n"
        "    assert(s[63 - threadIdx.x] != 20);\n" /* line 6 */
        "    out[threadIdx.x] = s[63 - threadIdx.x];\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "check");
    int out[64];
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {3}, .block = {64}},
                                  LAT_ARGS(lat_arg_out(out, sizeof out))));
    ASSERT_CONTAINS(lat_last_error(), "check.cu:6: kernel 'check' trapped in block");
    ASSERT_CONTAINS(lat_last_error(), "thread (43,0,0)");
}

TEST(a_parameter_whose_address_is_taken_keeps_its_value_across_a_barrier)
{
    /* Region loops keep such a parameter in place; the kernel's signature once declared it
     * as the pointer to that place and the launch crashed on its value. */
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void addr(float *o, int n)\n"
        "{\n"
        "    int *p = &n;\n"
        "    __syncthreads();\n"
        "    o[threadIdx.x] = *p * 2 + (int)threadIdx.x;\n"
        "    __syncthreads();\n"
        "    *p += 1;\n"
        "    __syncthreads();\n"
        "    o[threadIdx.x] += n;\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "addr");
    enum { T = 64 };
    int n = (int)(t_rand_u32() % 1000);
    float out[T];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {T}},
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_i32(n))));
    for (int i = 0; i < T; i++)
        ASSERT_MSG(out[i] == (float)(2 * n + i + n + 1), "out[%d] = %g, want %d", i, (double)out[i], 2 * n + i + n + 1);
}

/* A pointer to a thread's local taken before a barrier and read after it: region loops
 * ran the local's stretch as a block of its own, so every thread's pointer reached one
 * slot (the last thread's value, silently) until such locals got per-thread storage. The
 * same for a const reference bound to a temporary (C++: const P &r = make(x);). */
TEST(a_pointer_to_a_local_and_a_reference_to_a_temporary_outlive_a_barrier)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct P { float v; };\n"
        "__device__ P make(float x) { P p = {x * 3}; return p; }\n"
        "extern \"C\" __global__ void escape(const float *in, float *out, float *out2)\n"
        "{\n"
        "    __shared__ float s[64];\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    float a = in[i] * 2;\n"
        "    float *pa = &a;\n"
        "    const P &r = make(in[i]);\n"
        "    s[threadIdx.x] = a;\n"
        "    __syncthreads();\n"
        "    out[i] = s[(threadIdx.x + 1) % 64] + *pa * 10;\n"
        "    out2[i] = r.v;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "escape");
    enum { NE = 128 };
    float in[NE], out[NE], out2[NE];
    for (int i = 0; i < NE; i++)
        in[i] = (float)t_rand_double(-4, 4);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {NE / 64}, .block = {64}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out),
                                       lat_arg_out(out2, sizeof out2))));
    for (int i = 0; i < NE; i++) {
        float want = in[i - i % 64 + (i % 64 + 1) % 64] * 2 + in[i] * 2 * 10;
        ASSERT_MSG(t_close(out[i], want, 1e-6, 1e-5), "out[%d] = %.9g, want %.9g", i, out[i], want);
        ASSERT_MSG(out2[i] == in[i] * 3, "out2[%d] = %.9g, want %.9g", i, out2[i], in[i] * 3);
    }
}
