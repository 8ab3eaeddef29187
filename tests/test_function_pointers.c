/* Pointers to __device__ functions, as real kernels use them: a typedef'd operator type,
 * &f and a plain name's decay, tables in __device__ and __constant__ memory, a struct's
 * field, a callback argument and a template's parameter. The emulator gives its device
 * functions a hidden context parameter; a call through a pointer must pass it too (it did
 * not: an int function called through a pointer read its arguments one register off and
 * returned wrong values, with nothing reported). A barrier and a __shared__ variable
 * reached only through a pointer are followed too. Random inputs, host references. */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

static const char ops_src[] =
    "typedef int (*iop)(int, int);\n"
    "__device__ int sub(int a, int b) { return a - b; }\n"
    "__device__ int mul(int a, int b) { return a * b; }\n"
    "__device__ int mix(int a, int b) { return (a ^ b) + 3 * b; }\n"
    "__device__ iop table[3] = {sub, mul, mix};\n"
    "__constant__ iop ctable[2] = {mix, sub};\n"
    "struct Op { iop f; int k; };\n"
    "__device__ int apply(iop f, int a, int b) { return f(a, b); }\n"
    "template <typename F> __device__ int apply_t(F f, int a) { return f(a, 7); }\n"
    "extern \"C\" __global__ void ops(const int *x, const int *sel, int *y, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i >= n) return;\n"
    "    struct Op o = {mul, 3};\n"
    "    int (*p)(int, int) = &sub;\n"
    "    iop q = sel[i] ? mix : mul;\n"
    "    int a = x[i];\n"
    "    y[i] = apply(sub, a, 5) + table[sel[i]](a, i) + ctable[sel[i] & 1](i, a) + o.f(o.k, a)\n"
    "         + (*p)(a, 1) + apply_t(mix, a) + q(a, -2);\n"
    "}\n";

static int64_t sub_h(int64_t a, int64_t b) { return a - b; }
static int64_t mul_h(int64_t a, int64_t b) { return a * b; }
static int64_t mix_h(int64_t a, int64_t b) { return (a ^ b) + 3 * b; }

TEST(calls_through_pointers_to_device_functions_pass_their_arguments)
{
    lat_context *ctx = t_context();
    enum { N = 1000, B = 128 };
    int *x = t_calloc(N, sizeof *x), *sel = t_calloc(N, sizeof *sel), *y = t_calloc(N, sizeof *y);
    for (int i = 0; i < N; i++) {
        x[i] = (int)(t_rand_u32() % 20001) - 10000;
        sel[i] = (int)(t_rand_u32() % 3);
    }
    lat_kernel *k = t_kernel_as_written(ctx, ops_src, "ops");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {(N + B - 1) / B}, .block = {B}},
                              LAT_ARGS(lat_arg_in(x, N * sizeof *x), lat_arg_in(sel, N * sizeof *sel),
                                       lat_arg_out(y, N * sizeof *y), lat_arg_i32(N))));
    int64_t (*const table[3])(int64_t, int64_t) = {sub_h, mul_h, mix_h};
    int64_t (*const ctable[2])(int64_t, int64_t) = {mix_h, sub_h};
    for (int i = 0; i < N; i++) {
        int64_t a = x[i];
        int64_t want = sub_h(a, 5) + table[sel[i]](a, i) + ctable[sel[i] & 1](i, a) + mul_h(3, a) +
                       sub_h(a, 1) + mix_h(a, 7) + (sel[i] ? mix_h(a, -2) : mul_h(a, -2));
        ASSERT_MSG(y[i] == (int)want, "y[%d] = %d, want %lld (x %d, sel %d)", i, y[i], (long long)want, x[i],
                   sel[i]);
    }
}

/* A block reduction reached only through a pointer: its barrier and the file-scope
 * __shared__ array it uses must be seen through the call. */
TEST(a_barrier_and_shared_memory_reached_through_a_pointer)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#define B 128\n"
        "__shared__ float part[B];\n"
        "typedef float (*reducer)(float);\n"
        "__device__ float block_sum(float v)\n"
        "{\n"
        "    part[threadIdx.x] = v;\n"
        "    __syncthreads();\n"
        "    for (int s = B / 2; s > 0; s >>= 1) {\n"
        "        if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];\n"
        "        __syncthreads();\n"
        "    }\n"
        "    float r = part[0];\n"
        "    __syncthreads();\n"
        "    return r;\n"
        "}\n"
        "__device__ float block_max(float v)\n"
        "{\n"
        "    for (int off = 16; off > 0; off >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, off));\n"
        "    return v;\n"
        "}\n"
        "__device__ reducer pick[2] = {block_sum, block_max};\n"
        "extern \"C\" __global__ void red(const float *x, float *out, int which)\n"
        "{\n"
        "    reducer r = pick[which];\n"
        "    float v = r(x[blockIdx.x * B + threadIdx.x]);\n"
        "    if (threadIdx.x == 0) out[blockIdx.x] = v;\n"
        "}\n";
    enum { G = 24, B = 128, N = G * B };
    float *x = t_calloc(N, sizeof *x), *out = t_calloc(G, sizeof *out);
    t_rand_floats(x, N, -1, 1);
    lat_kernel *k = t_kernel_as_written(ctx, src, "red");
    for (int which = 0; which < 2; which++) {
        memset(out, 0, G * sizeof *out);
        ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {G}, .block = {B}},
                                  LAT_ARGS(lat_arg_in(x, N * sizeof *x), lat_arg_out(out, G * sizeof *out),
                                           lat_arg_i32(which))));
        for (int b = 0; b < G; b++) {
            double want = which ? x[b * B] : 0;
            for (int t = 0; t < (which ? 32 : B); t++)
                want = which ? (x[b * B + t] > want ? x[b * B + t] : want) : want + x[b * B + t];
            ASSERT_MSG(t_close(out[b], want, 1e-5, 1e-5), "%s of block %d = %.9g, want %.9g",
                       which ? "max" : "sum", b, out[b], want);
        }
    }
}

/* The emulator's built-ins are not functions it can point to: a clear refusal, where
 * the pointer was taken (on CUDA the module compiles). */
TEST(a_pointer_to_a_built_in_function_is_refused_by_the_emulator_where_it_is_taken)
{
    lat_context *ctx = t_context();
    if (!t_is_emu(ctx))
        t_skip("the emulator's limit: CUDA points to sinf");
    static const char src[] =
        "__global__ void k(float *y)\n"
        "{\n"
        "    float (*g)(float) = sinf;\n"
        "    y[threadIdx.x] = g(y[threadIdx.x]);\n"
        "}\n";
    lat_module *mod = NULL;
    ASSERT_STATUS(LAT_ERROR_UNSUPPORTED,
                  lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "fp.cu"}, &mod));
    ASSERT_TRUE(strstr(lat_last_error(), "fp.cu:3:25: error: a pointer to a built-in function") != NULL);
}
