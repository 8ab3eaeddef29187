/* C++ in kernels, as real CUDA code writes it: references, the C++ casts, default
 * arguments, overloads, namespaces, enum class, constexpr, auto... On the emulator the
 * front end lowers them to C; on CUDA NVRTC compiles them. Modules are compiled as
 * written (no_extern_c), kernels declared extern "C" so that both find them by name.
 * Random inputs, compared with a host reference computed in double. */
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 256 };

static lat_kernel *cxx_kernel(lat_context *ctx, const char *src, const char *name)
{
    lat_module *mod = NULL;
    lat_status st = lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "cxx.cu", .no_extern_c = 1},
                                      &mod);
    if (st != LAT_OK)
        t_fail(__FILE__, __LINE__, "lat_module_create: %s", lat_last_error());
    lat_kernel *k = NULL;
    ASSERT_OK(lat_module_get_kernel(mod, name, &k));
    return k;
}

/* The message a module that should not compile gets (NULL: it compiled). */
static const char *cxx_error(lat_context *ctx, const char *src)
{
    lat_module *mod = NULL;
    lat_status st = lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "cxx.cu", .no_extern_c = 1},
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

TEST(references_as_parameters_locals_and_returns_read_and_write_through)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct P { float x, y; };\n"
        "__device__ void swap(float &a, float &b) { float t = a; a = b; b = t; }\n"
        "__device__ float &at(float *v, int i) { return v[i]; }\n"
        "__device__ float sum(const float &a, const float &b) { return a + b; }\n"
        "__device__ void scale(P &p, float s) { p.x *= s; p.y *= s; }\n"
        "extern \"C\" __global__ void refs(const float *in, float *out, int n)\n"
        "{\n"
        "    __shared__ float s[64];\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    float &mine = s[threadIdx.x];\n"
        "    mine = in[i];\n"
        "    __syncthreads();\n"
        "    float a = mine, b = s[63 - threadIdx.x];\n"
        "    swap(a, b);\n" /* a = the mirror's, b = own */
        "    P p = {a, b};\n"
        "    scale(p, 3.0f);\n"
        "    float &r = at(out, i);\n"
        "    r = p.x - b;\n"
        "    at(out, i) += sum(p.y, 2);\n" /* a const reference to a temporary int */
        "}\n";
    lat_kernel *k = cxx_kernel(ctx, src, "refs");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        float own = in[i], mirror = in[i - i % 64 + 63 - i % 64];
        float px = mirror * 3.0f, py = own * 3.0f;
        float want = (px - own) + (py + 2.0f);
        ASSERT_MSG(out[i] == want, "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
}

TEST(a_reference_that_cannot_bind_is_an_error_naming_the_binding)
{
    lat_context *ctx = t_context();
    if (!t_is_emu(ctx))
        SKIP("the emulator's own messages");
    const char *m = cxx_error(ctx, "__device__ void inc(float &a) { a += 1; }\n"
                                   "__global__ void k(float *o) { inc(2.0f); }\n");
    ASSERT_NOT_NULL(m);
    ASSERT_CONTAINS(m, "cxx.cu:2:35: error: passing argument 1 of 'inc' as float & from float: a "
                       "non-const reference binds only to an lvalue of its type");
    m = cxx_error(ctx, "__global__ void k(const int *o) { const int &c = o[0]; int &d = c; }\n");
    ASSERT_NOT_NULL(m);
    ASSERT_CONTAINS(m, "initializing int & from const int: it drops a qualifier");
    m = cxx_error(ctx, "__global__ void k(float &x) { x = 1; }\n");
    ASSERT_NOT_NULL(m);
    ASSERT_CONTAINS(m, "a __global__ function's parameter cannot be a reference");
}

TEST(cxx_casts_default_arguments_and_overloads_pick_what_cxx_picks)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#define HALF 0.5f\n"
        "__device__ float f(float x) { return x * 2; }\n"
        "__device__ double f(double x) { return x * 3; }\n"
        "__device__ int f(int x) { return x * 4; }\n"
        "__device__ int f(const int *p, int n = 2) { return p[0] + n; }\n"
        "__device__ float lerp(float a, float b, float t = HALF);\n"
        "__device__ float lerp(float a, float b, float t) { return a + (b - a) * t; }\n"
        "__device__ float neg(const float &x = 3.0f) { return -x; }\n"
        "extern \"C\" __global__ void over(const float *in, float *out, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    float x = in[i];\n"
        "    short s = static_cast<short>(i & 7);\n"
        "    int v[2] = {static_cast<int>(x * 100), i};\n"
        "    unsigned bits = reinterpret_cast<const unsigned &>(in[i]);\n"
        "    const float *c = in;\n"
        "    float *m = const_cast<float *>(c);\n"
        "    out[i] = f(x) + (float)f(static_cast<double>(x)) + f(s) + f(v) + f(v + 1, 7) +\n"
        "             lerp(x, 1) + lerp(x, 1, 0.25f) + neg() + neg(i) + (float)(bits >> 31) + (m == in);\n"
        "}\n";
    lat_kernel *k = cxx_kernel(ctx, src, "over");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        float x = in[i];
        double want = x * 2.0f + (float)(x * 3.0) + 4 * (i & 7) + ((int)(x * 100) + 2) + (i + 7) +
                      (x + (1 - x) * 0.5f) + (x + (1 - x) * 0.25f) - 3 - i + (x < 0) + 1;
        ASSERT_MSG(t_close(out[i], want, 1e-5, 1e-5), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
}

TEST(an_ambiguous_or_impossible_overload_and_a_bad_cxx_cast_are_errors)
{
    lat_context *ctx = t_context();
    if (!t_is_emu(ctx))
        SKIP("the emulator's own messages");
    const char *m = cxx_error(ctx, "__device__ float f(float x) { return x; }\n"
                                   "__device__ double f(double x) { return x; }\n"
                                   "__global__ void k(float *o, int *q) { o[0] = f(1u); o[1] = f(q); }\n");
    ASSERT_NOT_NULL(m);
    ASSERT_CONTAINS(m, "cxx.cu:3:47: error: the call f(unsigned int) is ambiguous: double f(double) and "
                       "float f(float) fit equally well");
    ASSERT_CONTAINS(m, "cxx.cu:3:61: error: no overload of 'f' takes (int *)");
    m = cxx_error(ctx, "__global__ void k(float *o) { int *p = static_cast<int *>(o); }\n");
    ASSERT_NOT_NULL(m);
    ASSERT_CONTAINS(m, "static_cast from float * to int *: a static_cast between unrelated pointer "
                       "types; use reinterpret_cast");
    m = cxx_error(ctx, "__device__ int g(int a = 1, int b);\n");
    ASSERT_NOT_NULL(m);
    ASSERT_CONTAINS(m, "a parameter without a default argument after one with");
}

TEST(namespaces_enum_classes_constexpr_and_auto)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "namespace geo {\n"
        "    typedef float real;\n"
        "    struct Vec { real x, y; };\n"
        "    __device__ real dot(Vec a, Vec b) { return a.x * b.x + a.y * b.y; }\n"
        "    __device__ real dot(real a, real b) { return a * b; }\n"
        "    constexpr int K = 3;\n"
        "    namespace detail { __device__ real twice(real v) { return 2 * v; } }\n"
        "    __device__ real quad(real v) { return detail::twice(detail::twice(v)); }\n"
        "}\n"
        "namespace other { __device__ float dot(float a, float b) { return a - b; } }\n"
        "namespace geo { __device__ int twice_k() { return 2 * K; }\n"
        "                __device__ real third(real v) { return quad(v) - twice_k(); } }\n"
        "enum class Op : unsigned char { Add, Mul = 4, Sub };\n"
        "using geo::Vec;\n"
        "const int BLOCK = 64;\n"
        "__device__ float apply(Op op, float a, float b)\n"
        "{\n"
        "    switch (op) {\n"
        "    case Op::Add: return a + b;\n"
        "    case Op::Mul: return a * b;\n"
        "    default: return a - b;\n"
        "    }\n"
        "}\n"
        "__device__ float sq(float v) { using namespace geo; return dot(v, v); }\n"
        "extern \"C\" __global__ void ns(const float *in, float *out, int n)\n"
        "{\n"
        "    __shared__ float s[BLOCK];\n"
        "    auto i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    const auto x = in[i];\n"
        "    auto &mine = s[threadIdx.x];\n"
        "    mine = x;\n"
        "    __syncthreads();\n"
        "    auto *mirror = &s[BLOCK - 1 - threadIdx.x];\n"
        "    Vec a = {x, 2.0f};\n"
        "    geo::Vec b = {*mirror, 4.0f};\n"
        "    Op op = i % 3 == 0 ? Op::Add : i % 3 == 1 ? Op::Mul : Op::Sub;\n"
        "    out[i] = geo::dot(a, b) + other::dot(x, 1) + geo::K + sq(x) + apply(op, x, 2) + ::sq(1) +\n"
        "             std::sqrt(16.0f) + sizeof(op) + sizeof(i) + geo::third(1);\n"
        "}\n";
    lat_kernel *k = cxx_kernel(ctx, src, "ns");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        double x = in[i], m = in[i - i % 64 + 63 - i % 64];
        double op = i % 3 == 0 ? x + 2 : i % 3 == 1 ? x * 2 : x - 2;
        double want = (x * m + 8) + (x - 1) + 3 + x * x + op + 1 + 4 + 1 + 4 + (4 - 6);
        ASSERT_MSG(t_close(out[i], want, 1e-5, 1e-5), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
}
