/* The template machinery real C++ kernels lean on (issue 42): variadic templates and fold
 * expressions, partial specialisation and <type_traits>, variable templates, template
 * template parameters and SFINAE. Each kernel is written as library code (CUTLASS-lite,
 * cub-lite, llm.c, ggml) writes it, compiled as written, run on random inputs against a
 * host reference; what the emulator cannot do must be refused, naming the construct and
 * its line. Kernels are extern "C" so that NVRTC finds them by name too. */
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 256 };

/* The message a module that should not compile gets (NULL: it compiled). */
static const char *cxx_error(lat_context *ctx, const char *src)
{
    lat_module *mod = NULL;
    lat_status st = lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "t.cu", .no_extern_c = 1},
                                      &mod);
    if (st == LAT_OK) {
        lat_module_destroy(mod);
        return NULL;
    }
    return lat_last_error();
}

static void run_1d(lat_kernel *k, const float *in, float *out, size_t n)
{
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {(unsigned)(n / 64)}, .block = {64}},
                              LAT_ARGS(lat_arg_in(in, n * sizeof *in), lat_arg_out(out, n * sizeof *out),
                                       lat_arg_i32((int)n))));
}

TEST(variadic_templates_expand_packs_of_mixed_types_in_calls_initializers_and_sizeof)
{
    lat_context *ctx = t_context();
    static const char src[] =
        /* recursion ended by a non-variadic overload (C++ prefers it on a tie) */
        "template <typename T> __device__ T sum_all(T a) { return a; }\n"
        "template <typename T, typename... Rest>\n"
        "__device__ T sum_all(T a, Rest... rest) { return a + sum_all(rest...); }\n"
        /* a pack in a braced initializer, through a pattern, and sizeof... */
        "template <typename... Ts>\n"
        "__device__ float mean_of(Ts... xs)\n"
        "{\n"
        "    const float v[] = {static_cast<float>(xs)...};\n"
        "    float s = 0.0f;\n"
        "    for (int i = 0; i < (int)sizeof...(Ts); i++) s += v[i];\n"
        "    return s / sizeof...(xs);\n"
        "}\n"
        /* a pack of pointers (const Ts *... p) and a pattern calling through each */
        "template <typename F, typename... Ts>\n"
        "__device__ float apply_at(F f, int i, const Ts *... p) { return f(p[i]...); }\n"
        "struct Mix { float a; __device__ float operator()(float x, float y, int z) const { return a * x - y + z; } };\n"
        "template <int... Ns> __device__ int weights() { const int w[] = {Ns..., 0}; return w[0] * 100 + (int)sizeof...(Ns); }\n"
        "extern \"C\" __global__ void variadic(const float *in, float *out, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    float x = in[i];\n"
        "    int idx[1] = {i % 7};\n"
        "    Mix m = {2.0f};\n"
        "    out[i] = sum_all(x, 2, 3.5) + mean_of(x, 1, 2.0) + apply_at(m, 0, in + i, in + (n - 1 - i), idx) +\n"
        "             weights<3, 4, 5>() + weights<>();\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "variadic");
    static float in[N], out[N];
    t_rand_floats(in, N, -4, 4);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        double x = in[i];
        /* sum_all(2, 3.5) is an int: 2 + 3.5 truncated to 5 */
        double want = (float)(x + 5) + (float)((x + 1 + 2) / 3) + (2 * x - in[N - 1 - i] + i % 7) + 303 + 0;
        ASSERT_MSG(t_close(out[i], want, 1e-5, 1e-4), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
}

TEST(fold_expressions_of_every_form_and_empty_packs)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <typename... Ts> __device__ float rsum(Ts... xs) { return (xs + ...); }\n"
        "template <typename... Ts> __device__ float lsub(Ts... xs) { return (... - xs); }\n"
        "template <typename... Ts> __device__ float rsub(Ts... xs) { return (xs - ...); }\n"
        "template <typename... Ts> __device__ float lsub0(Ts... xs) { return (100.0f - ... - xs); }\n"
        "template <typename... Ts> __device__ float rsub0(Ts... xs) { return (xs - ... - 100.0f); }\n"
        "template <typename... Ts> __device__ bool all_pos(Ts... xs) { return ((xs > 0) && ...); }\n"
        "template <typename... Ts> __device__ bool any_big(Ts... xs) { return (... || (xs > 3)); }\n"
        "template <typename... Ts> __device__ float max_of(float m, Ts... xs) { ((m = fmaxf(m, xs)), ...); return m; }\n"
        "template <typename... Ts> __device__ unsigned mask(Ts... bits) { return (0u | ... | (1u << bits)); }\n"
        "extern \"C\" __global__ void folds(const float *in, float *out, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    float a = in[i], b = in[(i + 1) % n], c = in[(i + 2) % n];\n"
        "    float r = rsum(a, b, c) * 1000.0f + lsub(a, b, c) * 100.0f + rsub(a, b, c) * 10.0f;\n"
        "    r += lsub0(a, b) + rsub0(a, b) + lsub0() + rsub0();\n"
        "    r += (all_pos(a, b) ? 1 : 0) + (all_pos() ? 2 : 0) + (any_big(a, b, c) ? 4 : 0) + (any_big() ? 8 : 0);\n"
        "    r += max_of(a, b, c) + max_of(a) + mask(1, 3, 4) + mask();\n"
        "    out[i] = r;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "folds");
    static float in[N], out[N];
    t_rand_floats(in, N, -5, 5);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        float a = in[i], b = in[(i + 1) % N], c = in[(i + 2) % N];
        double r = (double)(a + (b + c)) * 1000 + ((a - b) - c) * 100.0 + (a - (b - c)) * 10.0;
        r += (100.0 - a - b) + (a - (b - 100.0)) + 100 + 100;
        r += ((a > 0 && b > 0) ? 1 : 0) + 2 + ((a > 3 || b > 3 || c > 3) ? 4 : 0) + 0;
        r += fmax(a, fmax(b, c)) + a + (2 + 8 + 16) + 0;
        ASSERT_MSG(t_close(out[i], r, 1e-5, 1e-2), "out[%d] = %.9g, want %.9g", i, out[i], r);
    }
}

TEST(pack_misuse_is_an_error_naming_the_construct_and_its_line)
{
    lat_context *ctx = t_context();
    if (!t_is_emu(ctx))
        SKIP("the emulator's own messages");
    const char *m = cxx_error(ctx, "template <typename... Ts> __device__ float s(Ts... xs) { return (xs + ...); }\n"
                                   "extern \"C\" __global__ void k(float *o) { o[0] = s(); }\n");
    ASSERT_NOT_NULL(m);
    ASSERT_CONTAINS(m, "t.cu:1:71: error: a fold over '+' of an empty parameter pack");
    m = cxx_error(ctx, "template <typename... Ts> __device__ float s(Ts... xs) { return xs; }\n"
                       "extern \"C\" __global__ void k(float *o) { o[0] = s(1.0f); }\n");
    ASSERT_NOT_NULL(m);
    ASSERT_CONTAINS(m, "t.cu:1:65: error: the parameter pack 'xs' is used without '...' to expand it");
    m = cxx_error(ctx, "template <typename... Ts> struct L { static constexpr int n = sizeof...(Ts); };\n"
                       "template <typename... As> __device__ float two(As... a) { return L<As...>::n; }\n"
                       "template <typename... As, typename... Bs>\n"
                       "__device__ int z(int x) { return x; }\n"
                       "template <typename... As> __device__ float w(As... a) { return (a + ... + a); }\n"
                       "extern \"C\" __global__ void k(float *o) { o[0] = two(1, 2) + w(1.0f); }\n");
    ASSERT_NOT_NULL(m);
    ASSERT_CONTAINS(m, "t.cu:5:69: error: a fold expression needs exactly one operand with an unexpanded parameter pack");
}
