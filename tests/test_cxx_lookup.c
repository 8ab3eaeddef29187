/* Name lookup as C++ kernels rely on it (issue 42): argument-dependent lookup, which finds
 * a function or an operator in the namespace of its arguments' classes when the call names
 * it unqualified (`exp(z)` of a pycuda::complex, `dot(a, b)` of a vector class of the
 * program's namespace). Each kernel runs random inputs against a host reference; a call
 * the emulator cannot rank must be refused, naming it. */
#include "harness.h"

#include <complex.h>
#include <math.h>
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

/* PyCUDA's kernels call the complex functions unqualified: the built-in exp and abs take
 * numbers, so the call takes pycuda's, found through the argument's namespace. */
TEST(unqualified_complex_functions_find_pycudas_through_their_argument)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <pycuda-complex.hpp>\n"
        "typedef pycuda::complex<float> cf;\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (2 * i + 1 >= n) return;\n"
        "    cf z(in[2 * i], in[2 * i + 1]);\n"
        "    cf e = exp(z) * conj(z);\n"
        "    out[2 * i] = real(e) + abs(z);\n"
        "    out[2 * i + 1] = imag(sqrt(z)) + norm(z) + (float)abs(in[2 * i]);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N / 2; i++) {
        double complex z = in[2 * i] + I * in[2 * i + 1];
        double complex e = cexp(z) * conj(z);
        ASSERT_TRUE(t_close(out[2 * i], creal(e) + cabs(z), 1e-5, 1e-5));
        ASSERT_TRUE(t_close(out[2 * i + 1], cimag(csqrt(z)) + creal(z * conj(z)) + fabs(in[2 * i]), 1e-5, 1e-5));
    }
}

/* A program's own vector class with its functions and operators beside it in its namespace,
 * a class template among them, called from outside without qualification or a using. */
TEST(functions_and_operators_of_a_namespace_are_found_through_their_arguments_classes)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "namespace geo {\n"
        "struct vec { float x, y; };\n"
        "__device__ vec operator+(vec a, vec b) { return vec{a.x + b.x, a.y + b.y}; }\n"
        "__device__ vec operator*(float s, vec a) { return vec{s * a.x, s * a.y}; }\n"
        "__device__ float dot(vec a, vec b) { return a.x * b.x + a.y * b.y; }\n"
        "__device__ float dot(vec a, float b) { return (a.x + a.y) * b; }\n"
        "__device__ void scale(vec *v, float s) { v->x *= s; v->y *= s; }\n"
        "template <typename T> struct box { T lo, hi; };\n"
        "template <typename T> __device__ T width(const box<T> &b) { return b.hi - b.lo; }\n"
        "namespace inner { struct tag { int k; }; __device__ int twice(tag t) { return 2 * t.k; } }\n"
        "}\n"
        "__device__ float dot(float2 a, float2 b) { return a.x * b.x - a.y * b.y; }\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i + 1 >= n) return;\n"
        "    geo::vec a{in[i], in[i + 1]}, b{in[i + 1], 2.0f};\n"
        "    geo::vec s = a + 0.5f * b;\n"
        "    scale(&s, 3.0f);\n"
        "    geo::box<float> bx{in[i], in[i] + 4.0f};\n"
        "    geo::inner::tag t{i};\n"
        "    out[i] = dot(s, b) + dot(a, 2.0f) + width(bx) + twice(t) +\n"
        "             dot(make_float2(in[i], 1.0f), make_float2(1.0f, in[i + 1]));\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    run_1d(k, in, out, N);
    for (int i = 0; i + 1 < N; i++) {
        float ax = in[i], ay = in[i + 1], bx = in[i + 1], by = 2.0f;
        float sx = 3.0f * (ax + 0.5f * bx), sy = 3.0f * (ay + 0.5f * by);
        float want = (sx * bx + sy * by) + (ax + ay) * 2.0f + ((in[i] + 4.0f) - in[i]) + 2.0f * (float)i +
                     (in[i] * 1.0f - 1.0f * in[i + 1]);
        ASSERT_TRUE(t_close(out[i], want, 1e-5, 1e-5));
    }
}

/* Functions of two namespaces (one found by ordinary lookup, one through the argument's
 * class) ranked together as C++ does: an exact match beats a conversion, a promotion
 * (char to int) beats a conversion (char to float), argument by argument. */
TEST(functions_of_two_namespaces_are_ranked_together)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "namespace geo { struct V { float x; };\n"
        "  __device__ float f(V v, int k) { return v.x * 2 + k; } }\n"
        "namespace util { __device__ float f(geo::V v, float k) { return v.x * 3 + k; } }\n"
        "using namespace util;\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    geo::V v{in[i]};\n"
        "    out[i] = f(v, i % 3) * 100 + f(v, 0.5f) + f(v, 'a') * 10000;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        double x = in[i];
        double want = (x * 2 + i % 3) * 100 + (x * 3 + 0.5) + (x * 2 + 97) * 10000;
        ASSERT_MSG(t_close(out[i], want, 1e-5, 1e-2), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
    const char *err = cxx_error(ctx, "namespace geo { struct V { float x; }; __device__ float f(V v, int k) { return k; } }\n"
                                     "namespace util { __device__ float f(geo::V v, float k) { return k; } }\n"
                                     "using namespace util;\n"
                                     "extern \"C\" __global__ void k(float *o) { geo::V v{1}; o[0] = f(v, 1.0); }\n");
    ASSERT_TRUE(err != NULL);
    ASSERT_TRUE(t_contains(err, "t.cu:4:"));
    if (t_is_emu(ctx)) /* NVRTC's words: "more than one instance of function ... matches" */
        ASSERT_TRUE(t_contains(err, "qualify the call"));
}

/* Two namespaces whose functions both take the call equally well (ambiguous in C++ too):
 * the emulator says so rather than take one. */
TEST(a_call_two_namespaces_sets_take_is_refused_naming_it)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "namespace a { struct P { float v; }; }\n"
        "namespace b { struct Q { float v; }; __device__ float f(a::P p, Q q) { return p.v + q.v; } }\n"
        "namespace a { __device__ float f(P p, b::Q q) { return p.v - q.v; } }\n"
        "extern \"C\" __global__ void k(float *o) { a::P p{1}; b::Q q{2}; o[0] = f(p, q); }\n";
    const char *err = cxx_error(ctx, src);
    ASSERT_TRUE(err != NULL);
    ASSERT_TRUE(t_contains(err, "t.cu:4:"));
    if (t_is_emu(ctx)) { /* NVRTC's words: "more than one instance of "f" matches" */
        ASSERT_TRUE(t_contains(err, "'f(...)'"));
        ASSERT_TRUE(t_contains(err, "qualify the call"));
    }
}

/* What ordinary lookup finds first keeps the call when argument-dependent lookup does not
 * apply: a member template called by its plain name inside its class, beside a namespace's
 * function of that name; a built-in called with numbers beside a namespace's overload. */
TEST(members_and_built_ins_keep_their_calls_beside_namespace_functions_of_their_name)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "namespace ns { struct P { float v; }; __device__ float helper(float x) { return x + 100; }\n"
        "               __device__ float sqrt(P p) { return -p.v; } }\n"
        "struct S {\n"
        "    float k;\n"
        "    template <typename T> __device__ T helper(T x) const { return x * k; }\n"
        "    __device__ float run(float x) const { return helper(x); }\n"
        "};\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    S s{2.f};\n"
        "    ns::P p{in[i]};\n"
        "    out[i] = s.run(in[i]) + ns::helper(0.f) + sqrt(in[i] * in[i]) + sqrt(p);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++)
        ASSERT_TRUE(t_close(out[i], in[i] * 2.f + 100.f + sqrtf(in[i] * in[i]) - in[i], 1e-5, 1e-5));
}
