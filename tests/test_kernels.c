/* Kernels checked against a host reference computed in double precision, on random
 * inputs from the runner's printed seed: the dialect of issue 2 doing arithmetic right. */
#include "harness.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Enough blocks of `block` threads to cover n. */
static unsigned blocks_for(size_t n, unsigned block)
{
    return (unsigned)((n + block - 1) / block);
}

TEST(saxpy_matches_the_host_on_random_inputs)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void saxpy(int n, float a, const float *__restrict__ x, float *y)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n)\n"
        "        y[i] = a * x[i] + y[i];\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "saxpy");
    enum { N = 100003 };
    float *x = t_calloc(N, sizeof *x), *y = t_calloc(N, sizeof *y), *y0 = t_calloc(N, sizeof *y0);
    t_rand_floats(x, N, -10, 10);
    t_rand_floats(y0, N, -10, 10);
    memcpy(y, y0, N * sizeof *y);
    float a = (float)t_rand_double(-3, 3);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {blocks_for(N, 256)}, .block = {256}},
                              LAT_ARGS(lat_arg_i32(N), lat_arg_f32(a), lat_arg_in(x, N * sizeof *x),
                                       lat_arg_inout(y, N * sizeof *y))));
    for (int i = 0; i < N; i++) {
        double want = (double)a * x[i] + y0[i];
        ASSERT_MSG(t_close(y[i], want, 1e-6, 1e-5), "y[%d] = %.9g, want %.9g", i, y[i], want);
    }
}

TEST(one_dimensional_indexing_covers_every_element_once)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void ids(int *out)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    out[i] += i + 1;\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "ids");
    enum { N = 7 * 100 };
    int *out = t_calloc(N, sizeof *out);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {7}, .block = {100}},
                              LAT_ARGS(lat_arg_inout(out, N * sizeof *out))));
    for (int i = 0; i < N; i++)
        ASSERT_MSG(out[i] == i + 1, "out[%d] = %d", i, out[i]);
}

TEST(two_dimensional_indexing_over_a_grid_of_blocks)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void coords(int *out, int w, int h)\n"
        "{\n"
        "    int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    int y = blockIdx.y * blockDim.y + threadIdx.y;\n"
        "    if (x < w && y < h)\n"
        "        out[y * w + x] = y * 1000 + x;\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "coords");
    enum { W = 37, H = 23 };
    int *out = t_calloc(W * H, sizeof *out);
    for (int i = 0; i < W * H; i++)
        out[i] = -1;
    ASSERT_OK(lat_launch_args(
        k, &(lat_launch_desc){.grid = {blocks_for(W, 8), blocks_for(H, 4)}, .block = {8, 4}},
        LAT_ARGS(lat_arg_inout(out, W * H * sizeof *out), lat_arg_i32(W), lat_arg_i32(H))));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            ASSERT_MSG(out[y * W + x] == y * 1000 + x, "out at (%d, %d) = %d", x, y,
                       out[y * W + x]);
}

TEST(three_dimensional_grids_and_blocks_see_every_builtin)
{
    lat_context *ctx = t_context();
    /* Every thread records the twelve built-in values it sees. */
    static const char src[] =
        "__global__ void whoami(unsigned *out)\n"
        "{\n"
        "    uint3 t = threadIdx, b = blockIdx;\n"
        "    dim3 bd = blockDim, gd = gridDim;\n"
        "    unsigned block = (b.z * gd.y + b.y) * gd.x + b.x;\n"
        "    unsigned thread = (t.z * bd.y + t.y) * bd.x + t.x;\n"
        "    unsigned *rec = out + 12 * (block * bd.x * bd.y * bd.z + thread);\n"
        "    rec[0] = t.x; rec[1] = t.y; rec[2] = t.z;\n"
        "    rec[3] = b.x; rec[4] = b.y; rec[5] = b.z;\n"
        "    rec[6] = blockDim.x; rec[7] = blockDim.y; rec[8] = blockDim.z;\n"
        "    rec[9] = gridDim.x; rec[10] = gridDim.y; rec[11] = gridDim.z;\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "whoami");
    const unsigned g[3] = {3, 4, 5}, bl[3] = {4, 3, 2};
    size_t n = (size_t)g[0] * g[1] * g[2] * bl[0] * bl[1] * bl[2];
    unsigned *out = t_calloc(12 * n, sizeof *out);
    ASSERT_OK(lat_launch_args(
        k, &(lat_launch_desc){.grid = {g[0], g[1], g[2]}, .block = {bl[0], bl[1], bl[2]}},
        LAT_ARGS(lat_arg_out(out, 12 * n * sizeof *out))));
    size_t r = 0;
    for (unsigned bz = 0; bz < g[2]; bz++)
        for (unsigned by = 0; by < g[1]; by++)
            for (unsigned bx = 0; bx < g[0]; bx++)
                for (unsigned tz = 0; tz < bl[2]; tz++)
                    for (unsigned ty = 0; ty < bl[1]; ty++)
                        for (unsigned tx = 0; tx < bl[0]; tx++, r++) {
                            const unsigned want[12] = {tx,    ty,    tz,    bx,    by,   bz,
                                                       bl[0], bl[1], bl[2], g[0], g[1], g[2]};
                            for (int f = 0; f < 12; f++)
                                ASSERT_MSG(out[12 * r + f] == want[f],
                                           "thread (%u,%u,%u) of block (%u,%u,%u): field %d "
                                           "is %u, want %u",
                                           tx, ty, tz, bx, by, bz, f, out[12 * r + f], want[f]);
                        }
}

TEST(a_grid_stride_loop_reads_grid_and_block_sizes)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void stride(float *x, int n)\n"
        "{\n"
        "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;\n"
        "         i += gridDim.x * blockDim.x)\n"
        "        x[i] = x[i] * 2.0f + 1.0f;\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "stride");
    enum { N = 10007 };
    float *x = t_calloc(N, sizeof *x), *x0 = t_calloc(N, sizeof *x0);
    t_rand_floats(x0, N, -1, 1);
    memcpy(x, x0, N * sizeof *x);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {4}, .block = {64}},
                              LAT_ARGS(lat_arg_inout(x, N * sizeof *x), lat_arg_i32(N))));
    for (int i = 0; i < N; i++)
        ASSERT_MSG(x[i] == x0[i] * 2.0f + 1.0f, "x[%d] = %.9g", i, x[i]);
}

TEST(bounds_checks_leave_memory_past_n_untouched)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void twice(int *out, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n)\n"
        "        return;\n"
        "    out[i] = 2 * i;\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "twice");
    const int sizes[] = {1, 127, 129, 1000, 1023};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        unsigned grid = blocks_for((size_t)n, 128);
        size_t cap = (size_t)grid * 128;
        int *out = t_calloc(cap, sizeof *out);
        for (size_t i = 0; i < cap; i++)
            out[i] = -7;
        ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {grid}, .block = {128}},
                                  LAT_ARGS(lat_arg_inout(out, cap * sizeof *out), lat_arg_i32(n))));
        for (size_t i = 0; i < cap; i++) {
            int want = (int)i < n ? 2 * (int)i : -7;
            ASSERT_MSG(out[i] == want, "n = %d: out[%zu] = %d, want %d", n, i, out[i], want);
        }
    }
}

TEST(a_grid_of_a_million_threads)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void iota(unsigned *out, unsigned n)\n"
        "{\n"
        "    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n)\n"
        "        out[i] = 3u * i + 1u;\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "iota");
    enum { N = 1000000 };
    unsigned *out = t_calloc(N, sizeof *out);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {blocks_for(N, 256)}, .block = {256}},
                              LAT_ARGS(lat_arg_out(out, N * sizeof *out), lat_arg_u32(N))));
    for (unsigned i = 0; i < N; i++)
        ASSERT_MSG(out[i] == 3u * i + 1u, "out[%u] = %u", i, out[i]);
}

TEST(a_two_dimensional_grid_of_a_million_threads)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void plane(int *out)\n"
        "{\n"
        "    int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    int y = blockIdx.y * blockDim.y + threadIdx.y;\n"
        "    int w = gridDim.x * blockDim.x;\n"
        "    out[y * w + x] = x - y;\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "plane");
    enum { SIDE = 1024 };
    int *out = t_calloc((size_t)SIDE * SIDE, sizeof *out);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {32, 32}, .block = {32, 32}},
                              LAT_ARGS(lat_arg_out(out, (size_t)SIDE * SIDE * sizeof *out))));
    for (int y = 0; y < SIDE; y++)
        for (int x = 0; x < SIDE; x++)
            ASSERT_MSG(out[y * SIDE + x] == x - y, "out at (%d, %d) = %d", x, y,
                       out[y * SIDE + x]);
}

TEST(device_functions_call_each_other)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__device__ float square(float x) { return x * x; }\n"
        "__device__ float plus_one_squared(float x) { return square(x + 1.0f); }\n"
        "__device__ int collatz_steps(long long n)\n"
        "{\n"
        "    int steps = 0;\n"
        "    while (n != 1) {\n"
        "        n = (n % 2) ? 3 * n + 1 : n / 2;\n"
        "        steps++;\n"
        "    }\n"
        "    return steps;\n"
        "}\n"
        "__device__ void both(float x, int i, float *f, int *s)\n"
        "{\n"
        "    *f = plus_one_squared(x);\n"
        "    *s = collatz_steps(i + 1);\n"
        "}\n"
        "__global__ void calls(float *f, int *s, const float *x)\n"
        "{\n"
        "    int i = threadIdx.x;\n"
        "    both(x[i], i, &f[i], &s[i]);\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "calls");
    enum { N = 256 };
    float x[N], f[N];
    int s[N];
    t_rand_floats(x, N, -5, 5);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {N}},
                              LAT_ARGS(lat_arg_out(f, sizeof f), lat_arg_out(s, sizeof s),
                                       lat_arg_in(x, sizeof x))));
    for (int i = 0; i < N; i++) {
        double want = ((double)x[i] + 1.0) * ((double)x[i] + 1.0);
        ASSERT_MSG(t_close(f[i], want, 1e-6, 1e-6), "f[%d] = %.9g, want %.9g", i, f[i], want);
        long long n = i + 1;
        int steps = 0;
        while (n != 1) {
            n = (n % 2) ? 3 * n + 1 : n / 2;
            steps++;
        }
        ASSERT_MSG(s[i] == steps, "s[%d] = %d, want %d", i, s[i], steps);
    }
}

TEST(a_device_function_may_call_itself)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__device__ unsigned long long fact(int n) { return n <= 1 ? 1ull : n * fact(n - 1); }\n"
        "__global__ void facts(unsigned long long *out) { out[threadIdx.x] = fact(threadIdx.x); }\n";
    lat_kernel *k = t_kernel(ctx, src, "facts");
    unsigned long long out[21];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {21}},
                              LAT_ARGS(lat_arg_out(out, sizeof out))));
    unsigned long long want = 1;
    for (int i = 0; i < 21; i++) {
        if (i > 1)
            want *= (unsigned long long)i;
        ASSERT_MSG(out[i] == want, "%d! = %llu, want %llu", i, out[i], want);
    }
}

/* ---- arithmetic ---------------------------------------------------------------------- */

TEST(int_arithmetic_matches_c)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void ints(int *out, const int *a, const int *b, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    int x = a[i], y = b[i];\n"
        "    int *o = out + 10 * i;\n"
        "    o[0] = x + y; o[1] = x - y; o[2] = x * y; o[3] = x / y; o[4] = x % y;\n"
        "    o[5] = x >> 3; o[6] = (int)((unsigned)x << 2); o[7] = (x & y) ^ (x | 0x5a5a);\n"
        "    o[8] = x < y ? -x : y; o[9] = !x + (x != 0) * 2 + (int)(short)x;\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "ints");
    enum { N = 1000 };
    int *a = t_calloc(N, sizeof *a), *b = t_calloc(N, sizeof *b), *out = t_calloc(10 * N, sizeof *out);
    for (int i = 0; i < N; i++) {
        a[i] = (int)(t_rand_u32() % 80001) - 40000; /* products fit an int */
        do
            b[i] = (int)(t_rand_u32() % 80001) - 40000;
        while (b[i] == 0);
    }
    a[0] = 0;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {blocks_for(N, 128)}, .block = {128}},
                              LAT_ARGS(lat_arg_out(out, 10 * N * sizeof *out),
                                       lat_arg_in(a, N * sizeof *a), lat_arg_in(b, N * sizeof *b),
                                       lat_arg_i32(N))));
    for (int i = 0; i < N; i++) {
        int x = a[i], y = b[i];
        const int want[10] = {x + y, x - y, x * y, x / y, x % y, x >> 3, (int)((unsigned)x << 2),
                              (x & y) ^ (x | 0x5a5a), x < y ? -x : y,
                              !x + (x != 0) * 2 + (int)(short)x};
        for (int f = 0; f < 10; f++)
            ASSERT_MSG(out[10 * i + f] == want[f], "x = %d, y = %d: result %d is %d, want %d", x,
                       y, f, out[10 * i + f], want[f]);
    }
}

TEST(unsigned_arithmetic_wraps_as_in_c)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void uints(unsigned *out, const unsigned *a, const unsigned *b)\n"
        "{\n"
        "    int i = threadIdx.x;\n"
        "    unsigned x = a[i], y = b[i] | 1u;\n"
        "    unsigned *o = out + 8 * i;\n"
        "    o[0] = x + y; o[1] = x - y; o[2] = x * y; o[3] = x / y; o[4] = x % y;\n"
        "    o[5] = x >> 7; o[6] = ~x; o[7] = (unsigned char)x + (unsigned short)y;\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "uints");
    enum { N = 512 };
    unsigned a[N], b[N], out[8 * N];
    for (int i = 0; i < N; i++) {
        a[i] = t_rand_u32();
        b[i] = t_rand_u32() >> (t_rand_u32() % 32);
    }
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {N}},
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_in(a, sizeof a),
                                       lat_arg_in(b, sizeof b))));
    for (int i = 0; i < N; i++) {
        unsigned x = a[i], y = b[i] | 1u;
        const unsigned want[8] = {x + y, x - y, x * y,  x / y,
                                  x % y, x >> 7, ~x, (unsigned)((unsigned char)x + (unsigned short)y)};
        for (int f = 0; f < 8; f++)
            ASSERT_MSG(out[8 * i + f] == want[f], "x = %u, y = %u: result %d is %u, want %u", x,
                       y, f, out[8 * i + f], want[f]);
    }
}

TEST(long_long_arithmetic_uses_64_bits)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void wide(long long *out, unsigned long long *uout,\n"
        "                     const long long *a, const long long *b)\n"
        "{\n"
        "    int i = threadIdx.x;\n"
        "    long long x = a[i], y = b[i];\n"
        "    long long *o = out + 5 * i;\n"
        "    o[0] = x * y; o[1] = x / y; o[2] = x % y; o[3] = x + y * 1000000007LL;\n"
        "    o[4] = (long long)(int)x * (int)y;\n"
        "    uout[2 * i] = (unsigned long long)x * (unsigned long long)y;\n"
        "    uout[2 * i + 1] = ((unsigned long long)x << 21) ^ ((unsigned long long)y >> 3);\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "wide");
    enum { N = 256 };
    long long a[N], b[N], out[5 * N];
    unsigned long long uout[2 * N];
    for (int i = 0; i < N; i++) {
        a[i] = (long long)(int32_t)t_rand_u32(); /* products fit 64 bits */
        do
            b[i] = (long long)(int32_t)t_rand_u32();
        while (b[i] == 0);
    }
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {N}},
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_out(uout, sizeof uout),
                                       lat_arg_in(a, sizeof a), lat_arg_in(b, sizeof b))));
    for (int i = 0; i < N; i++) {
        long long x = a[i], y = b[i];
        const long long want[5] = {x * y, x / y, x % y, x + y * 1000000007LL,
                                   (long long)(int)x * (int)y};
        for (int f = 0; f < 5; f++)
            ASSERT_MSG(out[5 * i + f] == want[f], "x = %lld, y = %lld: result %d is %lld, want %lld",
                       x, y, f, out[5 * i + f], want[f]);
        ASSERT_U64_EQ(uout[2 * i], (unsigned long long)x * (unsigned long long)y);
        ASSERT_U64_EQ(uout[2 * i + 1],
                      ((unsigned long long)x << 21) ^ ((unsigned long long)y >> 3));
    }
}

TEST(double_arithmetic_is_double_precision)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void dbl(double *out, const double *a, const double *b)\n"
        "{\n"
        "    int i = threadIdx.x;\n"
        "    double x = a[i], y = b[i];\n"
        "    double *o = out + 5 * i;\n"
        "    o[0] = x + y; o[1] = x - y; o[2] = x * y; o[3] = x / y;\n"
        "    o[4] = (double)(float)x + 1e-10;\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "dbl");
    enum { N = 256 };
    double a[N], b[N], out[5 * N];
    for (int i = 0; i < N; i++) {
        a[i] = t_rand_double(-1e6, 1e6);
        b[i] = t_rand_double(0.5, 1e3);
    }
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {N}},
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_in(a, sizeof a),
                                       lat_arg_in(b, sizeof b))));
    for (int i = 0; i < N; i++) {
        double x = a[i], y = b[i];
        /* Single operations are correctly rounded on both backends: exact equality. */
        ASSERT_MSG(out[5 * i + 0] == x + y, "%.17g + %.17g", x, y);
        ASSERT_MSG(out[5 * i + 1] == x - y, "%.17g - %.17g", x, y);
        ASSERT_MSG(out[5 * i + 2] == x * y, "%.17g * %.17g", x, y);
        ASSERT_MSG(out[5 * i + 3] == x / y, "%.17g / %.17g", x, y);
        ASSERT_MSG(out[5 * i + 4] == (double)(float)x + 1e-10, "(float)%.17g", x);
    }
}

TEST(conversions_between_integers_and_floats_truncate_as_in_c)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void conv(int *i_out, float *f_out, const float *x, const int *n)\n"
        "{\n"
        "    int i = threadIdx.x;\n"
        "    i_out[2 * i] = (int)x[i];\n"
        "    i_out[2 * i + 1] = (int)(x[i] * 1000.0);\n"
        "    f_out[i] = (float)n[i] / 3;\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "conv");
    enum { N = 128 };
    float x[N], f_out[N];
    int n[N], i_out[2 * N];
    t_rand_floats(x, N, -1000, 1000);
    for (int i = 0; i < N; i++)
        n[i] = (int)(t_rand_u32() % 2000000) - 1000000;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {N}},
                              LAT_ARGS(lat_arg_out(i_out, sizeof i_out), lat_arg_out(f_out, sizeof f_out),
                                       lat_arg_in(x, sizeof x), lat_arg_in(n, sizeof n))));
    for (int i = 0; i < N; i++) {
        ASSERT_EQ(i_out[2 * i], (int)x[i]);
        ASSERT_EQ(i_out[2 * i + 1], (int)(x[i] * 1000.0));
        ASSERT_MSG(f_out[i] == (float)n[i] / 3, "(float)%d / 3 = %.9g", n[i], f_out[i]);
    }
}

/* A cast in parentheses, indexed or a member taken: the emulator printed ((float4 *)p)[i]
 * as (float4 *)p[i], which cast the element (an error, or for an integer a pointer made
 * of it: a wrong value). */
TEST(a_parenthesised_cast_is_indexed_and_dereferenced_as_written)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct pair { int a, b; };\n"
        "__global__ void casts(const float *x, const int *n, float *f_out, int *i_out)\n"
        "{\n"
        "    int i = threadIdx.x;\n"
        "    float4 v = ((const float4 *)x)[i];\n"
        "    f_out[i] = v.x - v.y + v.z * v.w;\n"
        "    i_out[4 * i] = ((const unsigned char *)n)[4 * i + 1];\n"
        "    i_out[4 * i + 1] = ((const struct pair *)n)[i].b;\n"
        "    i_out[4 * i + 2] = *(const short *)(n + i);\n"
        "    ((int *)(unsigned long long)i_out)[4 * i + 3] = reinterpret_cast<const int2 *>(n)[i].x;\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "casts");
    enum { N = 64 };
    float x[4 * N], f_out[N];
    int n[2 * N], i_out[4 * N];
    t_rand_floats(x, 4 * N, -10, 10);
    for (int i = 0; i < 2 * N; i++)
        n[i] = (int)(t_rand_u32() % 2000000) - 1000000;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {N}},
                              LAT_ARGS(lat_arg_in(x, sizeof x), lat_arg_in(n, sizeof n),
                                       lat_arg_out(f_out, sizeof f_out), lat_arg_out(i_out, sizeof i_out))));
    for (int i = 0; i < N; i++) {
        const float *v = &x[4 * i];
        ASSERT_CLOSE(f_out[i], (double)v[0] - v[1] + (double)v[2] * v[3], 1e-5, 1e-5);
        unsigned char bytes[sizeof n];
        memcpy(bytes, n, sizeof n);
        short s;
        memcpy(&s, &n[i], sizeof s);
        ASSERT_EQ(i_out[4 * i], bytes[4 * i + 1]);
        ASSERT_EQ(i_out[4 * i + 1], n[2 * i + 1]);
        ASSERT_EQ(i_out[4 * i + 2], s);
        ASSERT_EQ(i_out[4 * i + 3], n[2 * i]);
    }
}

/* ---- math functions ------------------------------------------------------------------ */

/* The float functions a kernel calls, and the double reference of each. */
#define FLOAT_MATH(X)                                                                  \
    X(sinf(x), sin(x))                                                                 \
    X(cosf(x), cos(x))                                                                 \
    X(tanf(x), tan(x))                                                                 \
    X(expf(x), exp(x))                                                                 \
    X(exp2f(x), exp2(x))                                                               \
    X(logf(x), log(x))                                                                 \
    X(log2f(x), log2(x))                                                               \
    X(log10f(x), log10(x))                                                             \
    X(sqrtf(x), sqrt(x))                                                               \
    X(cbrtf(x), cbrt(x))                                                               \
    X(powf(x, y), pow(x, y))                                                           \
    X(fabsf(x - 2.0f), fabs(x - 2.0))                                                  \
    X(floorf(x), floor(x))                                                             \
    X(ceilf(x), ceil(x))                                                               \
    X(truncf(-x), trunc(-x))                                                           \
    X(roundf(x), round(x))                                                             \
    X(fminf(x, y), fmin(x, y))                                                         \
    X(fmaxf(x, y), fmax(x, y))                                                         \
    X(fmodf(x, y), fmod(x, y))                                                         \
    X(hypotf(x, y), hypot(x, y))                                                       \
    X(atan2f(x, y), atan2(x, y))                                                       \
    X(atanf(x), atan(x))                                                               \
    X(asinf(x * 0.2f), asin(x * 0.2))                                                  \
    X(acosf(x * 0.2f), acos(x * 0.2))                                                  \
    X(sinhf(x), sinh(x))                                                               \
    X(coshf(x), cosh(x))                                                               \
    X(tanhf(x), tanh(x))

#define DOUBLE_MATH(X)                                                                 \
    X(sin(x), sin(x))                                                                  \
    X(cos(x), cos(x))                                                                  \
    X(exp(x), exp(x))                                                                  \
    X(log(x), log(x))                                                                  \
    X(sqrt(x), sqrt(x))                                                                \
    X(pow(x, y), pow(x, y))                                                            \
    X(fabs(x - 2.0), fabs(x - 2.0))                                                    \
    X(floor(x), floor(x))                                                              \
    X(ceil(x), ceil(x))                                                                \
    X(fmin(x, y), fmin(x, y))                                                          \
    X(fmax(x, y), fmax(x, y))                                                          \
    X(fmod(x, y), fmod(x, y))                                                          \
    X(atan2(x, y), atan2(x, y))                                                        \
    X(tanh(x), tanh(x))

#define STR_(s) #s
/* One line of the kernel per function; the count reaches the kernel as NFUNCS. */
#define KERNEL_LINE(device, host) "    o[k++] = " STR_(device) ";\n"
#define COUNT(device, host) +1
#define NAME(device, host) STR_(device),

TEST(float_math_functions_match_double_references)
{
    lat_context *ctx = t_context();
    static const char src[] = "__global__ void fmath(float *out, const float *xs, const float *ys)\n"
                              "{\n"
                              "    int i = threadIdx.x, k = 0;\n"
                              "    float x = xs[i], y = ys[i];\n"
                              "    float *o = out + i * NFUNCS;\n" FLOAT_MATH(KERNEL_LINE) "}\n";
    static const char *const names[] = {FLOAT_MATH(NAME)};
    enum { N = 256, F = 0 FLOAT_MATH(COUNT) };
    char count_def[64];
    snprintf(count_def, sizeof count_def, "NFUNCS=%d", F);
    const char *defs[] = {count_def, NULL};
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "fmath.cu",
                                                        .defines = defs},
                                &mod));
    lat_kernel *k = NULL;
    ASSERT_OK(lat_module_get_kernel(mod, "fmath", &k));
    float xs[N], ys[N], *out = t_calloc((size_t)N * F, sizeof *out);
    t_rand_floats(xs, N, 0.1f, 4.0f);
    t_rand_floats(ys, N, 0.5f, 2.5f);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {N}},
                              LAT_ARGS(lat_arg_out(out, (size_t)N * F * sizeof *out),
                                       lat_arg_in(xs, sizeof xs), lat_arg_in(ys, sizeof ys))));
    for (int i = 0; i < N; i++) {
        double x = xs[i], y = ys[i];
        const double want[F] = {
#define HOST(device, host) host,
            FLOAT_MATH(HOST)
#undef HOST
        };
        (void)y;
        for (int f = 0; f < F; f++) {
            float got = out[(size_t)i * F + f];
            /* CUDA documents at most a few ulp for these; 1e-5 leaves room for that. */
            ASSERT_MSG(t_close(got, want[f], 1e-5, 1e-6), "%s with x = %.9g, y = %.9g: %.9g, want %.9g",
                       names[f], x, y, got, want[f]);
        }
    }
}

TEST(double_math_functions_match_the_host)
{
    lat_context *ctx = t_context();
    static const char src[] = "__global__ void dmath(double *out, const double *xs, const double *ys)\n"
                              "{\n"
                              "    int i = threadIdx.x, k = 0;\n"
                              "    double x = xs[i], y = ys[i];\n"
                              "    double *o = out + i * NFUNCS;\n" DOUBLE_MATH(KERNEL_LINE) "}\n";
    static const char *const names[] = {DOUBLE_MATH(NAME)};
    enum { N = 256, F = 0 DOUBLE_MATH(COUNT) };
    char count_def[64];
    snprintf(count_def, sizeof count_def, "NFUNCS=%d", F);
    const char *defs[] = {count_def, NULL};
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "dmath.cu",
                                                        .defines = defs},
                                &mod));
    lat_kernel *k = NULL;
    ASSERT_OK(lat_module_get_kernel(mod, "dmath", &k));
    double xs[N], ys[N], *out = t_calloc((size_t)N * F, sizeof *out);
    for (int i = 0; i < N; i++) {
        xs[i] = t_rand_double(0.1, 4.0);
        ys[i] = t_rand_double(0.5, 2.5);
    }
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {N}},
                              LAT_ARGS(lat_arg_out(out, (size_t)N * F * sizeof *out),
                                       lat_arg_in(xs, sizeof xs), lat_arg_in(ys, sizeof ys))));
    for (int i = 0; i < N; i++) {
        double x = xs[i], y = ys[i];
        const double want[F] = {
#define HOST(device, host) host,
            DOUBLE_MATH(HOST)
#undef HOST
        };
        for (int f = 0; f < F; f++) {
            double got = out[(size_t)i * F + f];
            ASSERT_MSG(t_close(got, want[f], 1e-14, 1e-15), "%s with x = %.17g, y = %.17g: %.17g, want %.17g",
                       names[f], x, y, got, want[f]);
        }
    }
}

/* ---- the rest of the dialect ----------------------------------------------------------- */

TEST(control_flow_local_arrays_and_macros)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#define WINDOW 5\n"
        "#define CLAMP(v, lo, hi) ((v) < (lo) ? (lo) : (v) > (hi) ? (hi) : (v))\n"
        "__global__ void smooth(float *out, const float *in, int n)\n"
        "{\n"
        "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    float w[WINDOW];\n"
        "    int k = 0;\n"
        "    do {\n"
        "        int j = CLAMP(i + k - WINDOW / 2, 0, n - 1);\n"
        "        w[k] = in[j];\n"
        "    } while (++k < WINDOW);\n"
        "    float best = w[0];\n"
        "    for (k = 1; k < WINDOW; k++) {\n"
        "        if (w[k] <= best) continue;\n"
        "        best = w[k];\n"
        "    }\n"
        "    switch (i % 3) {\n"
        "    case 0: out[i] = best; break;\n"
        "    case 1: out[i] = -best; break;\n"
        "    default: out[i] = 0.0f;\n"
        "    }\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "smooth");
    enum { N = 999 };
    float *in = t_calloc(N, sizeof *in), *out = t_calloc(N, sizeof *out);
    t_rand_floats(in, N, -100, 100);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {blocks_for(N, 64)}, .block = {64}},
                              LAT_ARGS(lat_arg_out(out, N * sizeof *out),
                                       lat_arg_in(in, N * sizeof *in), lat_arg_i32(N))));
    for (int i = 0; i < N; i++) {
        float best = -1e30f;
        for (int d = -2; d <= 2; d++) {
            int j = i + d < 0 ? 0 : i + d > N - 1 ? N - 1 : i + d;
            if (in[j] > best)
                best = in[j];
        }
        float want = i % 3 == 0 ? best : i % 3 == 1 ? -best : 0.0f;
        ASSERT_MSG(out[i] == want, "out[%d] = %g, want %g", i, out[i], want);
    }
}

TEST(the_tutorials_double_precision_mapper)
{
    /* The mapper of the pi example: a double computed from an int, stored as a float. */
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void mapper(float *dest)\n"
        "{\n"
        "    const int id = threadIdx.x + blockDim.x * blockIdx.x;\n"
        "    const double x = 1.0 * id / 100000;\n"
        "    if (id < 100000)\n"
        "        dest[id] = 4.0 / (1.0 + x * x);\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "mapper");
    enum { N = 100000 };
    float *dest = t_calloc(N, sizeof *dest);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {blocks_for(N, 512)}, .block = {512}},
                              LAT_ARGS(lat_arg_out(dest, N * sizeof *dest))));
    for (int id = 0; id < N; id++) {
        const double x = 1.0 * id / N;
        float want = (float)(4.0 / (1.0 + x * x));
        ASSERT_MSG(dest[id] == want, "dest[%d] = %.9g, want %.9g", id, dest[id], want);
    }
}

/* GNU C's packed structs, with the attribute where real code puts it: after `struct`,
 * after the closing brace, on a typedef. TinyCC's code did not compile any of them (the
 * attribute was written between the tag and the brace). Their layout is the host's, but
 * for the attribute after the closing brace, which NVCC ignores (struct tail: 8 bytes on
 * the GPU; the emulator said 5). */
struct __attribute__((packed)) t_packed {
    char c;
    int a;
    short s;
    double d;
};

TEST(packed_structs_have_the_hosts_layout)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct __attribute__((packed)) rec { char c; int a; short s; double d; };\n"
        "struct tail { char c; int a; } __attribute__((packed));\n"
        "typedef struct __attribute__((__packed__)) { char c; short s; } pair;\n"
        "__global__ void packed(struct rec *r, double *out, int *sizes, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i == 0) {\n"
        "        sizes[0] = sizeof(struct rec);\n"
        "        sizes[1] = sizeof(struct tail);\n"
        "        sizes[2] = sizeof(pair);\n"
        "        sizes[3] = (int)((char *)&r->d - (char *)r);\n"
        "    }\n"
        "    if (i < n) {\n"
        "        out[i] = r[i].c + r[i].a + r[i].s + r[i].d;\n"
        "        r[i].a = r[i].a * 2 + i;\n"
        "        r[i].d *= 0.5;\n"
        "    }\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "packed");
    enum { N = 333 };
    struct t_packed *r = t_calloc(N, sizeof *r), *want = t_calloc(N, sizeof *want);
    double *out = t_calloc(N, sizeof *out);
    int sizes[4] = {0};
    for (int i = 0; i < N; i++) {
        r[i].c = (char)(t_rand_u32() % 100);
        r[i].a = (int)(t_rand_u32() % 200000) - 100000;
        r[i].s = (short)(t_rand_u32() % 60000 - 30000);
        r[i].d = t_rand_double(-1e6, 1e6);
    }
    memcpy(want, r, N * sizeof *r);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {blocks_for(N, 64)}, .block = {64}},
                              LAT_ARGS(lat_arg_inout(r, N * sizeof *r), lat_arg_out(out, N * sizeof *out),
                                       lat_arg_out(sizes, sizeof sizes), lat_arg_i32(N))));
    ASSERT_EQ(sizes[0], 15);
    ASSERT_EQ(sizes[1], 8);
    ASSERT_EQ(sizes[2], 3);
    ASSERT_EQ(sizes[3], 7);
    for (int i = 0; i < N; i++) {
        double sum = want[i].c + want[i].a + want[i].s + want[i].d;
        ASSERT_MSG(out[i] == sum, "out[%d] = %.17g, want %.17g", i, out[i], sum);
        want[i].a = want[i].a * 2 + i;
        want[i].d *= 0.5;
    }
    ASSERT_TRUE(memcmp(r, want, N * sizeof *r) == 0);
}

/* Where NVCC takes an alignment or packing attribute and where it does not, measured with
 * NVRTC 13 on an H100: the emulator lays structs out the same (it laid out the first
 * three with GCC's rules, and dropped the members' alignments of the rest, a struct-typed
 * member's last), and
 * refuses the forms it does not model rather than laying them out otherwise. */
TEST(struct_attributes_are_laid_out_as_nvcc_lays_them)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct tp { char c; int a; } __attribute__((packed));\n"
        "typedef struct { char c; int a; } __attribute__((packed)) tq;\n"
        "struct ta { char c; int a; } __attribute__((aligned(16)));\n"
        "struct m1 { char c; int a __attribute__((aligned(16))); };\n"
        "struct m2 { char c; int a[2] __attribute__((aligned(16))); };\n"
        "struct m3 { char c; __align__(16) int a; };\n"
        "struct m4 { char c; alignas(16) int a; };\n"
        "struct pr { int a, b; };\n"
        "struct m5 { char c; __align__(16) struct pr p; int tail; };\n"
        "struct m6 { char c; struct pr p __attribute__((aligned(32))); };\n"
        "__global__ void sizes(int *o)\n"
        "{\n"
        "    struct m2 x;\n"
        "    struct m5 y;\n"
        "    int v[] = {sizeof(struct tp), __alignof__(struct tp), sizeof(tq), __alignof__(tq),\n"
        "               sizeof(struct ta), __alignof__(struct ta), sizeof(struct m1), __alignof__(struct m1),\n"
        "               sizeof(struct m2), __alignof__(struct m2), sizeof(struct m3), __alignof__(struct m3),\n"
        "               sizeof(struct m4), __alignof__(struct m4), (int)((char *)&x.a - (char *)&x),\n"
        "               sizeof(struct m5), __alignof__(struct m5), (int)((char *)&y.p - (char *)&y),\n"
        "               (int)((char *)&y.tail - (char *)&y), sizeof(struct m6), __alignof__(struct m6)};\n"
        "    o[threadIdx.x] = v[threadIdx.x];\n"
        "}\n";
    lat_module *mod = NULL;
    lat_kernel *k = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "sizes.cu"}, &mod));
    ASSERT_OK(lat_module_get_kernel(mod, "sizes", &k));
    static const int want[21] = {8, 4, 8, 4, 8, 4, 32, 16, 32, 16, 32, 16, 32, 16, 16,
                                 32, 16, 16, 24, 64, 32};
    int got[21] = {0};
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {21}},
                              LAT_ARGS(lat_arg_out(got, sizeof got))));
    for (int i = 0; i < 21; i++)
        ASSERT_MSG(got[i] == want[i], "value %d: %d, want %d", i, got[i], want[i]);
    /* The emulator's own words (a cross context's log is NVRTC's: "attribute does not
     * apply to any entity"). */
    if (lat_context_backend(ctx) == LAT_BACKEND_EMU) {
        const char *log = lat_module_log(mod);
        ASSERT_CONTAINS(log, "'packed' after a struct's closing brace is ignored, as NVCC ignores it");
        ASSERT_CONTAINS(log, "'aligned' after a struct's closing brace is ignored");
        /* What the emulator does not model, refused with the way to write it. */
        static const char *const refused[][2] = {
            {"typedef struct { char c; int a; } __attribute__((aligned(16))) s;\n",
             "an alignment between a struct's closing brace and a declarator"},
            {"struct s { char c; int a __attribute__((packed)); };\n", "'packed' on a struct member"},
            {"#pragma pack(push, 1)\nstruct s { char c; int a; };\n#pragma pack(pop)\n",
             "#pragma pack with an alignment below 16"},
        };
        for (int i = 0; i < 3; i++) {
            char text[512];
            snprintf(text, sizeof text, "%s__global__ void f(int *o) { o[0] = sizeof(struct s); }\n",
                     refused[i][0]);
            lat_module *m = NULL;
            ASSERT_STATUS(LAT_ERROR_UNSUPPORTED,
                          lat_module_create(ctx, &(lat_module_desc){.source = text, .name = "r.cu"}, &m));
            ASSERT_CONTAINS(lat_last_error(), refused[i][1]);
        }
        lat_module *m = NULL;
        ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = "#pragma pack(push, 16)\n"
                                                                      "struct s { char c; int a; };\n"
                                                                      "#pragma pack(pop)\n"
                                                                      "__global__ void f(int *o) { o[0] = 1; }\n"},
                                    &m));
        lat_module_destroy(m);
    }
}

/* PyCUDA's wiki (select_to_list): one thread sets a pointer to a __shared__ counter, every
 * thread then increments through it. Reading it where it was never set is undefined, but
 * NVRTC's optimiser gives every thread the one value ever stored, and the program works on
 * a GPU; it crashed on the emulator (an uninitialised local). A literal stored by one
 * thread only is read the same way. */
TEST(a_local_only_ever_assigned_one_constant_reads_it_in_every_thread)
{
    lat_context *ctx = t_context_with(&(lat_context_desc){.check = LAT_CHECK_OFF});
    static const char src[] =
        "__device__ int spare;\n"
        "__global__ void select_them(const float *a, int *counts, int *bases, float limit)\n"
        "{\n"
        "    __shared__ int counter_smem;\n"
        "    int *counter_smem_ptr;\n"
        "    int base;\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (threadIdx.x == 1) {\n"
        "        counter_smem_ptr = &counter_smem;\n"
        "        counter_smem = 0;\n"
        "        base = 1000;\n"
        "    }\n"
        "    __syncthreads();\n"
        "    if (a[i] >= limit)\n"
        "        atomicAdd(counter_smem_ptr, 1);\n"
        "    __syncthreads();\n"
        "    if (threadIdx.x == 0)\n"
        "        counts[blockIdx.x] = counter_smem;\n"
        "    bases[i] = base + threadIdx.x;\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "select_them");
    enum { BLOCKS = 40, B = 128, N = BLOCKS * B };
    float *a = t_calloc(N, sizeof *a);
    int *counts = t_calloc(BLOCKS, sizeof *counts), *bases = t_calloc(N, sizeof *bases);
    t_rand_floats(a, N, 0, 1);
    float limit = 0.7f;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {BLOCKS}, .block = {B}},
                              LAT_ARGS(lat_arg_in(a, N * sizeof *a),
                                       lat_arg_out(counts, BLOCKS * sizeof *counts),
                                       lat_arg_out(bases, N * sizeof *bases), lat_arg_f32(limit))));
    for (int b = 0; b < BLOCKS; b++) {
        int want = 0;
        for (int t = 0; t < B; t++)
            want += a[b * B + t] >= limit;
        ASSERT_MSG(counts[b] == want, "block %d counted %d, want %d", b, counts[b], want);
    }
    for (int i = 0; i < N; i++)
        ASSERT_MSG(bases[i] == 1000 + i % B, "bases[%d] = %d", i, bases[i]);
    if (lat_context_backend(ctx) != LAT_BACKEND_EMU)
        return;
    /* Under the checks the read stays a bug that initcheck names (the emulator's checks;
     * cross-checking compares unchecked runs). */
    lat_context *cctx = t_context_with(&(lat_context_desc){.check = LAT_CHECK_INITCHECK});
    lat_kernel *ck = t_kernel(cctx, src, "select_them");
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED,
                  lat_launch_args(ck, &(lat_launch_desc){.grid = {1}, .block = {B}},
                                  LAT_ARGS(lat_arg_in(a, B * sizeof *a),
                                           lat_arg_out(counts, sizeof *counts),
                                           lat_arg_out(bases, B * sizeof *bases), lat_arg_f32(limit))));
    ASSERT_MSG(strstr(lat_last_error(), "initcheck") && strstr(lat_last_error(), "'counter_smem_ptr'"),
               "%s", lat_last_error());
}
