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
    lat_kernel *k = t_kernel_as_written(ctx, src, "refs");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        float own = in[i], mirror = in[i - i % 64 + 63 - i % 64];
        float px = mirror * 3.0f, py = own * 3.0f;
        float want = (px - own) + (py + 2.0f);
        /* NVRTC fuses p.x - b through the struct (a contraction through a temporary, which
         * the emulator does not make: docs/dialect.md): the last bit may differ */
        ASSERT_MSG(t_close(out[i], want, 1e-6, 1e-6), "out[%d] = %.9g, want %.9g", i, out[i], want);
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
    lat_kernel *k = t_kernel_as_written(ctx, src, "over");
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
        "             sqrtf(16.0f) + sizeof(op) + sizeof(i) + geo::third(1);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "ns");
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

/* NVIDIA's BlackScholes sample's shape: results through reference parameters. */
static double cnd(double d)
{
    const double A1 = 0.31938153, A2 = -0.356563782, A3 = 1.781477937, A4 = -1.821255978, A5 = 1.330274429;
    double k = 1.0 / (1.0 + 0.2316419 * fabs(d));
    double c = 0.39894228040143267793994605993438 * exp(-0.5 * d * d) *
               (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
    return d > 0 ? 1.0 - c : c;
}

TEST(black_scholes_with_reference_outputs_matches_a_double_reference)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__device__ inline float cndGPU(float d)\n"
        "{\n"
        "    const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f;\n"
        "    const float A4 = -1.821255978f, A5 = 1.330274429f;\n"
        "    const float RSQRT2PI = 0.39894228040143267793994605993438f;\n"
        "    float K = __fdividef(1.0f, (1.0f + 0.2316419f * fabsf(d)));\n"
        "    float cnd = RSQRT2PI * __expf(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));\n"
        "    if (d > 0) cnd = 1.0f - cnd;\n"
        "    return cnd;\n"
        "}\n"
        "__device__ inline void BlackScholesBodyGPU(float &CallResult, float &PutResult, float S, float X,\n"
        "                                           float T, float R, float V)\n"
        "{\n"
        "    float sqrtT = __fdividef(1.0F, rsqrtf(T));\n"
        "    float d1 = __fdividef(__logf(S / X) + (R + 0.5f * V * V) * T, V * sqrtT);\n"
        "    float d2 = d1 - V * sqrtT;\n"
        "    float CNDD1 = cndGPU(d1), CNDD2 = cndGPU(d2);\n"
        "    float expRT = __expf(-R * T);\n"
        "    CallResult = S * CNDD1 - X * expRT * CNDD2;\n"
        "    PutResult = X * expRT * (1.0f - CNDD2) - S * (1.0f - CNDD1);\n"
        "}\n"
        "extern \"C\" __global__ void BlackScholesGPU(float *call, float *put, const float *S,\n"
        "    const float *X, const float *T, float R, float V, int optN)\n"
        "{\n"
        "    const int tid = blockDim.x * blockIdx.x + threadIdx.x;\n"
        "    const int THREAD_N = blockDim.x * gridDim.x;\n"
        "    for (int opt = tid; opt < optN; opt += THREAD_N)\n"
        "        BlackScholesBodyGPU(call[opt], put[opt], S[opt], X[opt], T[opt], R, V);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "BlackScholesGPU");
    enum { OPT = 4000 };
    static float call[OPT], put[OPT], S[OPT], X[OPT], T[OPT];
    t_rand_floats(S, OPT, 5, 30);
    t_rand_floats(X, OPT, 1, 100);
    t_rand_floats(T, OPT, 0.25f, 10);
    const float R = 0.02f, V = 0.30f;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {8}, .block = {128}},
                              LAT_ARGS(lat_arg_out(call, sizeof call), lat_arg_out(put, sizeof put),
                                       lat_arg_in(S, sizeof S), lat_arg_in(X, sizeof X), lat_arg_in(T, sizeof T),
                                       lat_arg_f32(R), lat_arg_f32(V), lat_arg_i32(OPT))));
    for (int i = 0; i < OPT; i++) {
        double s = S[i], x = X[i], t = T[i], sq = sqrt(t);
        double d1 = (log(s / x) + (R + 0.5 * V * V) * t) / (V * sq), d2 = d1 - V * sq;
        double e = exp(-R * t);
        double wc = s * cnd(d1) - x * e * cnd(d2), wp = x * e * (1 - cnd(d2)) - s * (1 - cnd(d1));
        ASSERT_MSG(t_close(call[i], wc, 1e-4, 2e-4), "call[%d] = %.9g, want %.9g", i, call[i], wc);
        ASSERT_MSG(t_close(put[i], wp, 1e-4, 2e-4), "put[%d] = %.9g, want %.9g", i, put[i], wp);
    }
}

TEST(complex_arithmetic_through_a_class_and_vector_operators)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "class Complex {\n"
        "public:\n"
        "    __device__ Complex(float r = 0, float i = 0) : re_(r), im_(i) {}\n"
        "    __device__ Complex operator*(const Complex &o) const\n"
        "    { return Complex(re_ * o.re_ - im_ * o.im_, re_ * o.im_ + im_ * o.re_); }\n"
        "    __device__ Complex operator+(const Complex &o) const { return Complex(re_ + o.re_, im_ + o.im_); }\n"
        "    __device__ Complex &operator+=(const Complex &o) { re_ += o.re_; im_ += o.im_; return *this; }\n"
        "    __device__ float abs2() const { return re_ * re_ + im_ * im_; }\n"
        "    __device__ float re() const { return re_; }\n"
        "    __device__ float im() const { return im_; }\n"
        "private:\n"
        "    float re_, im_;\n"
        "};\n"
        "__device__ float3 operator+(float3 a, float3 b) { return make_float3(a.x + b.x, a.y + b.y, a.z + b.z); }\n"
        "__device__ float3 operator-(float3 a, float3 b) { return make_float3(a.x - b.x, a.y - b.y, a.z - b.z); }\n"
        "__device__ float3 operator*(float s, float3 a) { return make_float3(s * a.x, s * a.y, s * a.z); }\n"
        "__device__ void operator+=(float3 &a, float3 b) { a.x += b.x; a.y += b.y; a.z += b.z; }\n"
        "__device__ float dot(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }\n"
        "extern \"C\" __global__ void cx(const float *in, float *out, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    Complex c(in[i] * 0.5f, in[(i + 1) % n] * 0.5f), z;\n"
        "    for (int k = 0; k < 6; k++)\n"
        "        z = z * z + c;\n"
        "    z += Complex(1);\n"
        "    float3 a = make_float3(in[i], 1.0f, -in[i]), b = make_float3(2.0f, in[i], 0.5f);\n"
        "    float3 d = a - b;\n"
        "    d += 0.5f * (a + b);\n"
        "    out[2 * i] = z.re() + z.im() + z.abs2();\n"
        "    out[2 * i + 1] = dot(d, a);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "cx");
    static float in[N], out[2 * N];
    t_rand_floats(in, N, -1, 1);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {N / 64}, .block = {64}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out), lat_arg_i32(N))));
    for (int i = 0; i < N; i++) {
        double cr = in[i] * 0.5, ci = in[(i + 1) % N] * 0.5, zr = 0, zi = 0;
        for (int it = 0; it < 6; it++) {
            double r = zr * zr - zi * zi + cr, m = 2 * zr * zi + ci;
            zr = r;
            zi = m;
        }
        zr += 1;
        double want = zr + zi + zr * zr + zi * zi;
        ASSERT_MSG(t_close(out[2 * i], want, 1e-4, 1e-4), "z of %d: %.9g, want %.9g", i, out[2 * i], want);
        double x = in[i];
        double d[3] = {x - 2 + 0.5 * (x + 2), 1 - x + 0.5 * (1 + x), -x - 0.5 + 0.5 * (-x + 0.5)};
        double dw = d[0] * x + d[1] * 1 + d[2] * -x;
        ASSERT_MSG(t_close(out[2 * i + 1], dw, 1e-5, 1e-5), "dot of %d: %.9g, want %.9g", i, out[2 * i + 1], dw);
    }
}

TEST(function_and_class_templates_deduce_and_instantiate_as_cxx_does)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <typename T> __device__ T twice(T x) { return x + x; }\n"
        "template <typename T, int N> __device__ T sum_n(const T *v)\n"
        "{ T s = 0; for (int i = 0; i < N; i++) s += v[i]; return s; }\n"
        "template <class T> __device__ void swap2(T &a, T &b) { T t = a; a = b; b = t; }\n"
        "template <typename T = float, unsigned S = 2> __device__ T scaled(T x) { return x * S; }\n"
        "template <typename T>\n"
        "struct Vec2 {\n"
        "    T x, y;\n"
        "    __device__ Vec2(T a, T b) : x(a), y(b) {}\n"
        "    __device__ T dot(const Vec2 &o) const { return x * o.x + y * o.y; }\n"
        "    __device__ Vec2 operator+(const Vec2 &o) const { return Vec2(x + o.x, y + o.y); }\n"
        "};\n"
        "template <unsigned int blockSize>\n"
        "__device__ void tree(float *s, unsigned tid)\n"
        "{\n"
        "    for (unsigned k = blockSize / 2; k > 0; k >>= 1) {\n"
        "        if (tid < k) s[tid] += s[tid + k];\n"
        "        __syncthreads();\n"
        "    }\n"
        "}\n"
        "extern \"C\" __global__ void tmpl(const float *in, float *out, int n)\n"
        "{\n"
        "    __shared__ float s[64];\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    float x = in[i];\n"
        "    s[threadIdx.x] = x;\n"
        "    __syncthreads();\n"
        "    tree<64>(s, threadIdx.x);\n"
        "    float v[4] = {x, 1, 2, 3};\n"
        "    int a = 1, b = 2;\n"
        "    swap2(a, b);\n"
        "    Vec2<float> p(x, 2.0f), q = Vec2<float>(3, 4);\n"
        "    Vec2<int> r(i, 1);\n"
        "    out[i] = twice(x) + twice(i) + sum_n<float, 4>(v) + a * 10 + b + scaled(x) + scaled<int, 3>(2) +\n"
        "             p.dot(q) + (p + q).x + r.dot(r) + s[0];\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "tmpl");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        double x = in[i], block = 0;
        for (int j = i - i % 64; j < i - i % 64 + 64; j++)
            block += in[j];
        double want = 2 * x + 2 * i + (x + 6) + 21 + 2 * x + 6 + (3 * x + 8) + (x + 3) + ((double)i * i + 1) + block;
        ASSERT_MSG(t_close(out[i], want, 1e-5, 1e-4), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
}

TEST(template_errors_name_what_cannot_be_deduced)
{
    lat_context *ctx = t_context();
    if (!t_is_emu(ctx))
        SKIP("the emulator's own messages");
    const char *m = cxx_error(ctx, "template <typename T, typename U> __device__ T conv(U x) { return (T)x; }\n"
                                   "__global__ void k(float *o) { o[0] = conv(1); }\n");
    ASSERT_NOT_NULL(m);
    ASSERT_CONTAINS(m, "cxx.cu:2:38: error: cannot deduce the template parameter 'T' of 'conv': give it as conv<...>");
    m = cxx_error(ctx, "template <typename T> __device__ T mx(T a, T b) { return a > b ? a : b; }\n"
                       "__global__ void k(float *o) { o[0] = mx(1, 2.0f); }\n");
    ASSERT_NOT_NULL(m);
    ASSERT_CONTAINS(m, "the arguments of 'mx' deduce its parameters two ways");
    m = cxx_error(ctx, "template <typename T> struct B { T v; };\n__global__ void k(float *o) { B b; }\n");
    ASSERT_NOT_NULL(m);
    ASSERT_CONTAINS(m, "'B' is a class template: give its arguments, B<...>");
}

TEST(a_templated_block_reduction_with_a_cooperative_groups_warp_stage)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <cooperative_groups.h>\n"
        "#include <cooperative_groups/reduce.h>\n"
        "namespace cg = cooperative_groups;\n"
        "template <unsigned int blockSize>\n"
        "__device__ void block_reduce(const float *in, float *out)\n"
        "{\n"
        "    cg::thread_block block = cg::this_thread_block();\n"
        "    __shared__ float s[blockSize];\n"
        "    unsigned tid = block.thread_rank();\n"
        "    s[tid] = in[blockIdx.x * blockSize + tid];\n"
        "    cg::sync(block);\n"
        "    for (unsigned k = blockSize / 2; k >= 32; k >>= 1) {\n"
        "        if (tid < k) s[tid] += s[tid + k];\n"
        "        block.sync();\n"
        "    }\n"
        "    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);\n"
        "    if (tid < 32) {\n"
        "        float v = s[tid];\n"
        "        for (int off = tile.size() / 2; off > 0; off /= 2)\n"
        "            v += tile.shfl_down(v, off);\n"
        "        float r = cg::reduce(tile, s[tid], cg::plus<float>());\n"
        "        unsigned votes = tile.ballot(s[tid] > 0.0f);\n"
        "        if (tile.thread_rank() == 0) {\n"
        "            out[4 * blockIdx.x] = v;\n"
        "            out[4 * blockIdx.x + 1] = r;\n"
        "            out[4 * blockIdx.x + 2] = __popc(votes);\n"
        "            out[4 * blockIdx.x + 3] = tile.meta_group_size();\n"
        "        }\n"
        "    }\n"
        "}\n"
        "extern \"C\" __global__ void cgred(const float *in, float *out, int n) { block_reduce<128>(in, out); }\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "cgred");
    enum { BLOCKS = 8, T = 128 };
    static float in[BLOCKS * T], out[4 * BLOCKS];
    t_rand_floats(in, BLOCKS * T, -1, 1);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {BLOCKS}, .block = {T}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out),
                                       lat_arg_i32(BLOCKS * T))));
    for (int b = 0; b < BLOCKS; b++) {
        double sum = 0;
        for (int i = 0; i < T; i++)
            sum += in[b * T + i];
        /* the warp stage's inputs: the block's tree down to 32 partial sums */
        float part[32];
        for (int l = 0; l < 32; l++)
            part[l] = in[b * T + l] + in[b * T + 64 + l] + (in[b * T + 32 + l] + in[b * T + 96 + l]);
        int positive = 0;
        for (int l = 0; l < 32; l++)
            positive += part[l] > 0;
        ASSERT_MSG(t_close(out[4 * b], sum, 1e-5, 1e-4), "block %d: %.9g, want %.9g", b, out[4 * b], sum);
        ASSERT_MSG(t_close(out[4 * b + 1], sum, 1e-5, 1e-4), "block %d reduce: %.9g, want %.9g", b,
                   out[4 * b + 1], sum);
        ASSERT_EQ((int)out[4 * b + 2], positive);
        ASSERT_EQ((int)out[4 * b + 3], T / 32);
    }
}

TEST(the_samples_shared_memory_pattern_conversion_operators_and_a_specialization)
{
    lat_context *ctx = t_context();
    /* NVIDIA's reduction sample: dynamic shared memory through a class template's
     * conversion operator, specialised for double. */
    static const char src[] =
        "template <class T> struct SharedMemory {\n"
        "    __device__ inline operator T *() { extern __shared__ int __smem[]; return (T *)__smem; }\n"
        "    __device__ inline operator const T *() const { extern __shared__ int __smem[]; return (T *)__smem; }\n"
        "};\n"
        "template <> struct SharedMemory<double> {\n"
        "    __device__ inline operator double *() { extern __shared__ double __smem_d[]; return (double *)__smem_d; }\n"
        "    __device__ inline operator const double *() const { extern __shared__ double __smem_d[]; return (double *)__smem_d; }\n"
        "};\n"
        "template <class T, unsigned int blockSize>\n"
        "__device__ void reduce4(const T *g_idata, T *g_odata, unsigned int n)\n"
        "{\n"
        "    T *sdata = SharedMemory<T>();\n"
        "    unsigned int tid = threadIdx.x;\n"
        "    unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;\n"
        "    T mySum = (i < n) ? g_idata[i] : 0;\n"
        "    if (i + blockSize < n) mySum += g_idata[i + blockSize];\n"
        "    sdata[tid] = mySum;\n"
        "    __syncthreads();\n"
        "    for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {\n"
        "        if (tid < s) sdata[tid] = mySum = mySum + sdata[tid + s];\n"
        "        __syncthreads();\n"
        "    }\n"
        "    if (tid == 0) g_odata[blockIdx.x] = mySum;\n"
        "}\n"
        "extern \"C\" __global__ void rf(const float *in, float *out, unsigned n) { reduce4<float, 64>(in, out, n); }\n"
        "extern \"C\" __global__ void rd(const double *in, double *out, unsigned n) { reduce4<double, 64>(in, out, n); }\n";
    enum { BLOCKS = 6, IN = BLOCKS * 128 - 17 };
    static float fin[IN], fout[BLOCKS];
    static double din[IN], dout[BLOCKS];
    t_rand_floats(fin, IN, -1, 1);
    for (int i = 0; i < IN; i++)
        din[i] = t_rand_double(-1, 1);
    lat_kernel *kf = t_kernel_as_written(ctx, src, "rf"), *kd = t_kernel_as_written(ctx, src, "rd");
    lat_launch_desc d = {.grid = {BLOCKS}, .block = {64}, .shared_bytes = 64 * sizeof(double)};
    ASSERT_OK(lat_launch_args(kf, &d, LAT_ARGS(lat_arg_in(fin, sizeof fin), lat_arg_out(fout, sizeof fout),
                                               lat_arg_u32(IN))));
    ASSERT_OK(lat_launch_args(kd, &d, LAT_ARGS(lat_arg_in(din, sizeof din), lat_arg_out(dout, sizeof dout),
                                               lat_arg_u32(IN))));
    for (int b = 0; b < BLOCKS; b++) {
        double sf = 0, sd = 0;
        for (int i = b * 128; i < b * 128 + 128 && i < IN; i++) {
            sf += fin[i];
            sd += din[i];
        }
        ASSERT_MSG(t_close(fout[b], sf, 1e-5, 1e-5), "float block %d: %.9g, want %.9g", b, fout[b], sf);
        ASSERT_MSG(t_close(dout[b], sd, 1e-13, 1e-13), "double block %d: %.17g, want %.17g", b, dout[b], sd);
    }
}

TEST(a_two_phase_kernel_through_cooperative_groups_grid_sync)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <cooperative_groups.h>\n"
        "namespace cg = cooperative_groups;\n"
        "extern \"C\" __global__ void phases(const float *in, float *partial, float *out, int n)\n"
        "{\n"
        "    cg::grid_group grid = cg::this_grid();\n"
        "    cg::thread_block block = cg::this_thread_block();\n"
        "    __shared__ float s[64];\n"
        "    unsigned tid = block.thread_rank();\n"
        "    s[tid] = in[grid.thread_rank()];\n"
        "    block.sync();\n"
        "    for (unsigned k = 32; k > 0; k >>= 1) {\n"
        "        if (tid < k) s[tid] += s[tid + k];\n"
        "        block.sync();\n"
        "    }\n"
        "    if (tid == 0) partial[blockIdx.x] = s[0];\n"
        "    grid.sync();\n" /* every block's partial sum is written */
        "    float total = 0;\n"
        "    for (unsigned b = 0; b < grid.num_blocks(); b++) total += partial[b];\n"
        "    out[grid.thread_rank()] = in[grid.thread_rank()] / total;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "phases");
    unsigned blocks = 0;
    ASSERT_OK(lat_kernel_max_cooperative_blocks(k, 64, 0, &blocks));
    int g = blocks < 4 ? (int)blocks : 4;
    ASSERT_GT(g, 0);
    enum { MAXB = 4 };
    static float in[MAXB * 64], partial[MAXB], out[MAXB * 64];
    t_rand_floats(in, (size_t)g * 64, 0.5f, 1.5f);
    lat_status st = lat_launch_args(k, &(lat_launch_desc){.grid = {(unsigned)g}, .block = {64}, .cooperative = 1},
                                    LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(partial, sizeof partial),
                                             lat_arg_out(out, sizeof out), lat_arg_i32(g * 64)));
    if (st == LAT_ERROR_UNSUPPORTED && strstr(lat_last_error(), "cannot be checked"))
        SKIP("a checked context refuses cooperative launches (test_coop tests the refusal)");
    ASSERT_OK(st);
    double total = 0;
    for (int i = 0; i < g * 64; i++)
        total += in[i];
    for (int i = 0; i < g * 64; i++)
        ASSERT_MSG(t_close(out[i], in[i] / total, 1e-5, 1e-7), "out[%d] = %.9g, want %.9g", i, out[i], in[i] / total);
}

TEST(static_members_and_if_constexpr)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct Cfg {\n"
        "    static const int SCALE = 3;\n"
        "    static constexpr unsigned MASK = 0xF0u;\n"
        "    __device__ static float sq(float x) { return x * x * SCALE; }\n"
        "    __device__ float twice(float x) const { return sq(x) * 2 + MASK; }\n"
        "    float pad;\n"
        "};\n"
        "namespace ns { struct Blk { static const int N = 64; __device__ static int rounds() { return N / 16; } }; }\n"
        "template <typename T> struct Traits { static const int bytes = sizeof(T); };\n"
        "template <int K> struct Pow2 { static const int value = 2 * Pow2<K - 1>::value; };\n"
        "template <> struct Pow2<0> { static const int value = 1; };\n"
        "template <int N> __device__ float pick(const float *v)\n"
        "{\n"
        "    if constexpr (N > 2) return v[N - 1] * 100;\n"
        "    else if constexpr (N == 2) return v[1] * 10;\n"
        "    else return v[0];\n"
        "}\n"
        "extern \"C\" __global__ void st(const float *in, float *out, int n)\n"
        "{\n"
        "    __shared__ float s[ns::Blk::N];\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    Cfg c;\n"
        "    float x = in[i], v[3] = {x, 2 * x, 3 * x};\n"
        "    s[threadIdx.x] = Cfg::sq(x) + Cfg::SCALE + c.twice(x) + ns::Blk::rounds();\n"
        "    out[i] = s[threadIdx.x] + pick<1>(v) + pick<2>(v) + pick<3>(v) + sizeof(s) / sizeof(float) +\n"
        "             Traits<double>::bytes + Pow2<5>::value;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "st");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        double x = in[i];
        double want = 3 * x * x + 3 + (6 * x * x + 240) + 4 + x + 20 * x + 300 * x + 64 + 8 + 32;
        ASSERT_MSG(t_close(out[i], want, 1e-5, 1e-4), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
}

TEST(member_functions_and_constructors_defined_outside_their_class)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct Ray {\n"
        "    float ox, dx;\n"
        "    __device__ Ray(float o, float d);\n"
        "    __device__ float at(float t) const;\n"
        "    __device__ void shift(float s);\n"
        "    __device__ static float unit();\n"
        "};\n"
        "__device__ Ray::Ray(float o, float d) : ox(o), dx(d) {}\n"
        "__device__ float Ray::at(float t) const { return ox + t * dx * unit(); }\n"
        "__device__ void Ray::shift(float s) { ox += s; }\n"
        "__device__ float Ray::unit() { return 0.5f; }\n"
        "extern \"C\" __global__ void rays(const float *in, float *out, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    Ray r(in[i], 2.0f);\n"
        "    r.shift(1.0f);\n"
        "    out[i] = r.at(3.0f) + Ray::unit();\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "rays");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        double want = (in[i] + 1.0) + 3.0 * 2.0 * 0.5 + 0.5;
        ASSERT_MSG(t_close(out[i], want, 1e-6, 1e-6), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
    if (!t_is_emu(ctx))
        return;
    const char *m = cxx_error(ctx, "struct A { __device__ int f(int x); };\n"
                                   "__device__ int A::f(float x) { return 1; }\n");
    ASSERT_NOT_NULL(m);
    ASSERT_CONTAINS(m, "A declares no member function 'f' of these parameters");
}

TEST(lambdas_capture_by_value_and_by_reference_and_pass_to_templates)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <typename F> __device__ float apply2(F f, float x) { return f(f(x)); }\n"
        "extern \"C\" __global__ void lam(const float *in, float *out, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    float s = in[i];\n"
        "    int count = 0;\n"
        "    auto scale = [=](float x) { return x * s; };\n"
        "    auto bump = [&](int by) { count += by; };\n"
        "    auto idx = [&](int r, int c) -> int { return r * n + c; };\n"
        "    auto five = [] { return 5; };\n"
        "    bump(3);\n"
        "    bump(i % 7);\n"
        "    s = 100.0f;\n" /* the copy in scale keeps the old value */
        "    out[i] = scale(1.5f) + count + idx(1, 2) + five() + apply2(scale, 1.0f) + s;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "lam");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        double x = in[i];
        double want = 1.5 * x + (3 + i % 7) + (N + 2) + 5 + x * x + 100;
        ASSERT_MSG(t_close(out[i], want, 1e-5, 1e-5), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
}

/* Explicit instantiations, as libraries and NVIDIA's samples write them for code that
 * looks kernels up at run time: each instance is found by its name as written there (on
 * CUDA the core gives it to NVRTC as a name expression), and listed with the module's
 * kernels; extern template and a class template's explicit instantiation are accepted. */
TEST(explicitly_instantiated_kernels_are_found_by_the_name_written)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <typename T, int K> struct Scale { __device__ T apply(T v) const { return v * (T)K; } };\n"
        "template struct Scale<float, 3>;\n"
        "namespace ops {\n"
        "template <typename T, int K, bool Add>\n"
        "__global__ void axpk(const T *__restrict__ x, T *__restrict__ y, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) y[i] = Add ? y[i] + Scale<T, K>().apply(x[i]) : Scale<T, K>().apply(x[i]);\n"
        "}\n"
        "template __global__ void axpk<float, 3, true>(const float *, float *, int);\n"
        "}\n"
        "extern template __global__ void ops::axpk<double, 2, true>(const double *, double *, int);\n"
        "template __global__ void ops::axpk<double, 2, false>(const double *, double *, int);\n"
        "extern \"C\" __global__ void plain(float *y) { y[threadIdx.x] = 1.0f; }\n";
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "inst.cu"}, &mod));
    ASSERT_EQ(lat_module_kernel_count(mod), 3);
    const char *want[] = {"ops::axpk<float, 3, true>", "ops::axpk<double, 2, false>", "plain"};
    for (int i = 0; i < 3; i++) {
        int found = 0;
        for (int j = 0; j < 3; j++)
            found += strcmp(lat_module_kernel_name(mod, j), want[i]) == 0;
        ASSERT_MSG(found == 1, "kernel '%s' listed %d times", want[i], found);
    }
    ASSERT_NULL(lat_module_kernel_name(mod, 3));
    ASSERT_NULL(lat_module_kernel_name(mod, -1));
    ASSERT_EQ(lat_module_kernel_count(NULL), 0);
    lat_kernel *kf = NULL, *kd = NULL;
    ASSERT_OK(lat_module_get_kernel(mod, "ops::axpk<float, 3, true>", &kf));
    ASSERT_OK(lat_module_get_kernel(mod, "ops::axpk<double, 2, false>", &kd));
    lat_kernel *none = NULL;
    ASSERT_STATUS(LAT_ERROR_KERNEL_NOT_FOUND, lat_module_get_kernel(mod, "ops::axpk<double, 2, true>", &none));
    static float xf[N], yf[N], yf0[N];
    static double xd[N], yd[N];
    t_rand_floats(xf, N, -2, 2);
    t_rand_floats(yf0, N, -2, 2);
    for (int i = 0; i < N; i++)
        xd[i] = xf[i] * 1.25;
    memcpy(yf, yf0, sizeof yf);
    ASSERT_OK(lat_launch_args(kf, &(lat_launch_desc){.grid = {N / 64}, .block = {64}},
                              LAT_ARGS(lat_arg_in(xf, sizeof xf), lat_arg_inout(yf, sizeof yf), lat_arg_i32(N))));
    ASSERT_OK(lat_launch_args(kd, &(lat_launch_desc){.grid = {N / 64}, .block = {64}},
                              LAT_ARGS(lat_arg_in(xd, sizeof xd), lat_arg_out(yd, sizeof yd), lat_arg_i32(N))));
    for (int i = 0; i < N; i++) {
        ASSERT_MSG(t_close(yf[i], (double)yf0[i] + 3.0 * xf[i], 1e-6, 1e-6), "y[%d] = %.9g", i, yf[i]);
        ASSERT_MSG(yd[i] == 2.0 * xd[i], "yd[%d] = %.17g, want %.17g", i, yd[i], 2.0 * xd[i]);
    }
    lat_module_destroy(mod);
}

/* Type aliases: using at file scope, in a namespace and in a function; alias templates,
 * one through a class template and one a deduced function template's parameter goes
 * through; an alias of a pointer to a function and of an array type. Each was refused
 * (`using T = ...`: use typedef). */
TEST(type_aliases_and_alias_templates_are_typedefs)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "using real = float;\n"
        "template <typename T> using ptr = T *;\n"
        "template <typename T, int N> struct Arr { T v[N]; };\n"
        "template <typename T> using Arr4 = Arr<T, 4>;\n"
        "namespace ops { using acc_t = double; }\n"
        "using binop = real (*)(real, real);\n"
        "__device__ real add(real a, real b) { return a + b; }\n"
        "template <typename T> __device__ T load(ptr<const T> p, int i) { return p[i]; }\n"
        "using row = int[3];\n"
        "extern \"C\" __global__ void alias(const real *x, ptr<real> y, int n)\n"
        "{\n"
        "    using idx_t = unsigned int;\n"
        "    idx_t i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    Arr4<real> a;\n"
        "    for (int j = 0; j < 4; j++) a.v[j] = j * 0.5f;\n"
        "    ops::acc_t s = load(x, i);\n"
        "    binop f = add;\n"
        "    row r = {1, 2, 3};\n"
        "    if (i < n) y[i] = f((real)(s * s), a.v[3]) + r[2] + (real)sizeof(row);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "alias");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        double want = (double)(float)((double)in[i] * in[i]) + 1.5 + 3 + 12;
        ASSERT_MSG(t_close(out[i], want, 1e-6, 1e-6), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
    ASSERT_NULL(cxx_error(ctx, "using real = float;\n__global__ void k(real *y) { y[0] = 1; }\n"));
    ASSERT_NULL(cxx_error(ctx, "struct S { using T = float; T v; };\n__global__ void k(float *y) { y[0] = 1; }\n"));
}

/* Member types (typedef and using in a struct, a class template's too), found as S::T,
 * T::value_type through a template's parameter, Outer::Inner::T through a member type,
 * by plain name in the struct and its member functions; `typename` before a dependent
 * name, in a declaration, a cast and a functional cast. They were refused. */
TEST(member_types_and_typename_as_traits_code_writes_them)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <typename T> struct traits { typedef T value_type; typedef T *pointer; static const int lanes = 4; };\n"
        "template <> struct traits<double> { typedef float value_type; typedef float *pointer; static const int lanes = 2; };\n"
        "struct acc { using sum_type = double; typedef int count_type, *count_ptr;\n"
        "    sum_type s; count_type n;\n"
        "    __device__ void add(sum_type v) { s += v; n++; }\n"
        "    __device__ sum_type mean() const { sum_type m = s / n; return m; } };\n"
        "struct outer { typedef acc inner; };\n"
        "template <typename V> struct vec { typedef V elem; elem x, y;\n"
        "    __device__ elem dot(const vec &o) const { return x * o.x + y * o.y; } };\n"
        "template <typename C> __device__ typename C::sum_type finish(C c) { return c.mean(); }\n"
        "template <typename T>\n"
        "__device__ typename traits<T>::value_type twice(typename traits<T>::value_type v)\n"
        "{\n"
        "    typedef typename traits<T>::value_type V;\n"
        "    typename traits<T>::pointer none = 0;\n"
        "    return none ? (V)0 : (typename traits<T>::value_type)(v * 2) + V(traits<T>::lanes);\n"
        "}\n"
        "extern \"C\" __global__ void mt(const float *x, float *y, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    outer::inner::sum_type base = x[i];\n"
        "    acc a = {0, 0};\n"
        "    a.add(base);\n"
        "    a.add(1.0);\n"
        "    acc::count_type c = a.n;\n"
        "    acc::count_ptr cp = &c;\n"
        "    vec<float>::elem e = 3;\n"
        "    vec<float> v = {e, x[i]};\n"
        "    if (i < n) y[i] = (float)finish(a) + twice<float>(x[i]) + twice<double>(1.5f) + *cp + v.dot(v);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "mt");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        double want = (double)(float)(((double)in[i] + 1.0) / 2) + (double)(in[i] * 2 + 4.0f) + 5.0 + 2 +
                      (double)(9.0f + in[i] * in[i]);
        ASSERT_MSG(t_close(out[i], want, 1e-5, 1e-5), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
    if (t_is_emu(ctx)) {
        const char *e = cxx_error(ctx, "struct S { typedef int T; };\n__global__ void k(float *y) { S::U v = 0; y[0] = v; }\n");
        ASSERT_MSG(e && strstr(e, "cxx.cu:2:34: error: 'U': no such member in the qualified name"), "got: %s", e ? e : "(none)");
        e = cxx_error(ctx, "struct S { typedef int T; float T; };\n__global__ void k(float *y) { y[0] = 1; }\n");
        ASSERT_MSG(e && strstr(e, "cxx.cu:1:33: error: duplicate member 'T'"), "got: %s", e ? e : "(none)");
    }
}

/* ns::Tmpl<args>::member (a member type, a static constant, a static member function of
 * a class template in a namespace) was an error; and a program's own namespace std hid
 * the built-ins std:: names (std::sqrt became "no such member"). */
TEST(qualified_members_of_class_templates_in_namespaces_and_a_declared_std)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "namespace ut { template <typename T> struct tr { typedef T type; static const int bytes = sizeof(T);\n"
        "    __device__ static T one() { return (T)1; } }; }\n"
        "namespace other { __device__ inline float twice(float x) { return 2 * x; } }\n"
        "extern \"C\" __global__ void qm(const float *x, float *y, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    ut::tr<double>::type d = ut::tr<float>::bytes + x[i];\n"
        "    if (i < n) y[i] = (float)d + ut::tr<float>::one() + other::twice(sqrtf(fabsf(x[i])));\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "qm");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        double want = (double)(float)(4.0 + in[i]) + 1 + 2.0 * sqrt(fabs((double)in[i]));
        ASSERT_MSG(t_close(out[i], want, 1e-5, 1e-5), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
    /* NVRTC has no std:: math without headers it does not ship: on the emulator alone. */
    {
        lat_context *ectx = t_context_with(&(lat_context_desc){.backend = LAT_BACKEND_EMU});
        static const char stdsrc[] =
            "namespace std { __device__ inline float twice(float x) { return 2 * x; } }\n"
            "extern \"C\" __global__ void st(const float *x, float *y, int n)\n"
            "{ int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "  if (i < n) y[i] = std::twice(std::sqrt(fabsf(x[i]))) + std::min(i, 5); }\n";
        run_1d(t_kernel_as_written(ectx, stdsrc, "st"), in, out, N);
        for (int i = 0; i < N; i++) {
            double want = 2.0 * sqrt(fabs((double)in[i])) + (i < 5 ? i : 5);
            ASSERT_MSG(t_close(out[i], want, 1e-5, 1e-5), "out[%d] = %.9g, want %.9g", i, out[i], want);
        }
    }
}

/* static constexpr float members (and double, in class templates and namespaces), used
 * as S::eps, Tmpl<float>::h and by plain name in a member function: refused before as
 * "a static data member (other than an integer constant)". */
TEST(static_constexpr_members_of_floating_types)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct A { static constexpr float eps = 0.5f; static constexpr double two = 2;\n"
        "    __device__ float f(float x) const { return x * eps * two; } };\n"
        "template <typename T> struct B { static constexpr T h = (T)1.5; };\n"
        "namespace q { struct C { static constexpr float c = 3; }; }\n"
        "extern \"C\" __global__ void sc(const float *x, float *y, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    A a;\n"
        "    if (i < n) y[i] = A::eps + a.f(x[i]) + B<float>::h + B<int>::h + q::C::c;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "sc");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        double want = 0.5 + (double)(float)(in[i] * 0.5f * 2.0) + 1.5 + 1 + 3;
        ASSERT_MSG(t_close(out[i], want, 1e-6, 1e-6), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
}

/* A function template that calls itself with other arguments (fact<N - 1>(), ended by
 * a specialization) was an error: inside its instance the name meant the instance, not
 * the template. Also: a deduced self-call, and a class template's recursion. */
TEST(recursive_templates_end_at_their_specializations)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <int N> __device__ int fact() { return N * fact<N - 1>(); }\n"
        "template <> __device__ int fact<0>() { return 1; }\n"
        "template <typename T> __device__ T down(T x) { return x > 0 ? x + down(x - 1) : 0; }\n"
        "template <int N> struct unroll { __device__ static float dot(const float *a, const float *b)\n"
        "    { return a[N - 1] * b[N - 1] + unroll<N - 1>::dot(a, b); } };\n"
        "template <> struct unroll<0> { __device__ static float dot(const float *, const float *) { return 0; } };\n"
        "extern \"C\" __global__ void rec(const float *x, float *y, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    float a[4] = {x[i], 1, 2, 3}, b[4] = {2, x[i], x[i], 1};\n"
        "    if (i < n) y[i] = fact<5>() + down(i % 7) + unroll<4>::dot(a, b);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "rec");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        int m = i % 7;
        double want = 120 + m * (m + 1) / 2 + 2.0 * in[i] + in[i] + 2.0 * in[i] + 3;
        ASSERT_MSG(t_close(out[i], want, 1e-5, 1e-5), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
}

/* Range-based for over arrays (by value, by reference that writes, const auto &, nested,
 * with break and continue) and return {a, b} of a struct: C++11 that kernels use. */
TEST(range_for_over_arrays_and_braced_returns)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct pair_f { float lo, hi; };\n"
        "__device__ pair_f bounds(float a, float b) { if (a < b) return {a, b}; return {b, a}; }\n"
        "extern \"C\" __global__ void rf(const float *x, float *y, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    float w[4] = {x[i], 2 * x[i], 3.0f, -1.0f};\n"
        "    for (float &v : w) v *= 2;\n"
        "    float s = 0;\n"
        "    for (const auto &v : w) s += v;\n"
        "    int m[2][3] = {{1, 2, 3}, {4, 5, 6}};\n"
        "    int t = 0;\n"
        "    for (auto &row : m) for (int e : row) { if (e == 5) continue; if (e == 6) break; t += e; }\n"
        "    pair_f p = bounds(x[i], 0.5f);\n"
        "    if (i < n) y[i] = s + t + p.hi - p.lo;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "rf");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        double want = (double)(2 * in[i] + 4 * in[i] + 6.0f - 2.0f) + 10 + fabs((double)in[i] - 0.5);
        ASSERT_MSG(t_close(out[i], want, 1e-5, 1e-5), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
    if (t_is_emu(ctx)) {
        const char *e = cxx_error(ctx, "__global__ void k(float *y, int n) { for (float v : y) y[0] += v; }\n");
        ASSERT_MSG(e && strstr(e, "cxx.cu:1:53: error: a range-based for over anything but an array of known size or a class with begin() and end() is not supported"),
                   "got: %s", e ? e : "(none)");
    }
}

/* decltype: a name's and a member's declared type; a reference for a parenthesised name,
 * for an element (writes through it reach the array) and for a ?: of two lvalues (writes
 * reach the one it chose; it was a copy); the type of an arithmetic expression; in
 * sizeof. It was refused. */
TEST(decltype_gives_declared_types_and_references_to_lvalues)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct P { float x; int n; };\n"
        "extern \"C\" __global__ void dt(const float *x, float *y, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    decltype(i) j = i + 1;\n"
        "    P p = {x[i], 3};\n"
        "    decltype(p.x) a = p.x * 2;\n"
        "    decltype(p.n) b = 7;\n"
        "    float arr[4] = {1, 2, 3, 4};\n"
        "    decltype(arr[0]) r = arr[1];\n"
        "    r = 10;\n"
        "    decltype((j)) rj = j;\n"
        "    rj += 100;\n"
        "    decltype(x[i] * 2.0) d = 0.25;\n"
        "    float lo = a, hi = 5.0f;\n"
        "    decltype(lo < hi ? lo : hi) pick = lo < hi ? lo : hi;\n"
        "    pick += 1000;\n"
        "    if (i < n) y[i] = j + a + b + arr[1] + d + sizeof(decltype(d)) + sizeof(decltype(p.n)) + lo + hi;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "dt");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        double a = (double)(float)(in[i] * 2.0f);
        double want = (i + 1 + 100) + a + 7 + 10 + 0.25 + 8 + 4 + (a + 1000) + 5;
        ASSERT_MSG(t_close(out[i], want, 1e-6, 1e-6), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
}

/* Explicit specializations of function templates, arguments written: made instead of the
 * template for those arguments (a device function, one in a namespace, a kernel found by
 * its name expression); others come from the template. One written after its use is an
 * error, as in C++. They were refused. */
TEST(explicit_specializations_of_function_templates_replace_the_template)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <typename T> __device__ T zero() { return (T)0; }\n"
        "template <> __device__ float zero<float>() { return 0.5f; }\n"
        "template <typename T> __device__ T twice(T v) { return v + v; }\n"
        "template <> __device__ int twice<int>(int v) { return 3 * v; }\n"
        "namespace ns { template <int N> __device__ int scale(int v) { return v * N; } }\n"
        "namespace ns { template <> __device__ int scale<2>(int v) { return v - 2; } }\n"
        "extern \"C\" __global__ void sp(const float *x, float *y, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n)\n"
        "        y[i] = zero<float>() + (float)zero<double>() + twice(x[i]) + twice(i) + ns::scale<2>(i) + ns::scale<3>(i);\n"
        "}\n"
        "template <typename T> __global__ void fill(T *o) { o[threadIdx.x] = (T)1; }\n"
        "template <> __global__ void fill<float>(float *o) { o[threadIdx.x] = 2.5f + threadIdx.x; }\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "sp");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        double want = 0.5 + 2.0 * in[i] + 3.0 * i + (i - 2) + 3.0 * i;
        ASSERT_MSG(t_close(out[i], want, 1e-6, 1e-6), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
    static const char *const exprs[] = {"fill<float>", "fill<int>", NULL};
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "sp.cu", .name_expressions = exprs},
                                &mod));
    lat_kernel *ff = NULL, *fi = NULL;
    ASSERT_OK(lat_module_get_kernel(mod, "fill<float>", &ff));
    ASSERT_OK(lat_module_get_kernel(mod, "fill<int>", &fi));
    float of[32];
    int oi[32];
    ASSERT_OK(lat_launch_args(ff, &(lat_launch_desc){.grid = {1}, .block = {32}}, LAT_ARGS(lat_arg_out(of, sizeof of))));
    ASSERT_OK(lat_launch_args(fi, &(lat_launch_desc){.grid = {1}, .block = {32}}, LAT_ARGS(lat_arg_out(oi, sizeof oi))));
    for (int i = 0; i < 32; i++) {
        ASSERT_MSG(of[i] == 2.5f + i, "fill<float>: o[%d] = %g", i, of[i]);
        ASSERT_EQ(oi[i], 1);
    }
    if (t_is_emu(ctx)) {
        const char *e = cxx_error(ctx, "template <typename T> __device__ T f(T v) { return v; }\n"
                                       "__global__ void k(float *o) { o[0] = f(1.0f); }\n"
                                       "template <> __device__ float f<float>(float v) { return 2 * v; }\n");
        ASSERT_TRUE(e && strstr(e, "cxx.cu:3:30: error: f<float> is specialized after it was used"));
    }
}

/* Default member initializers (one with a template's arguments, whose comma does not end
 * it): a member the initialization leaves out takes its own, in the members' order (so one may read a member before it, which the list may have set);
 * a constructor's list wins over them; a member of a class that has them takes them.
 * They were refused. Every path that builds such an object is here (T x;, T x{a}, a
 * nested {a}, T(), return {a}): one that missed them would leave members zero. */
TEST(default_member_initializers_fill_what_the_initialization_leaves_out)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct acc { float scale = 1.5f; int n = 3; float bias{0.25f}; float twice = scale * 2; };\n"
        "template <typename T, int N> struct tr { static const int v = N * 2; };\n"
        "struct outer { acc a; int k = 7; int m = tr<int, 4>::v, q = 1; };\n"
        "template <typename T> struct span { T lo = T(-1); T hi = lo + 2; };\n"
        "struct tuned { float gain = 4.0f; float at; __device__ tuned(float v) : at(v) {} };\n"
        "__device__ acc make(float s) { return {s}; }\n"
        "extern \"C\" __global__ void dmi(const float *x, float *y, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    float v = x[i];\n"
        "    acc d;\n"
        "    acc s{v};\n"
        "    acc f = {v, 5, 1.0f};\n"
        "    acc g = acc();\n"
        "    outer o;\n"
        "    outer p{{v, 2}, 1};\n"
        "    span<float> sp{v};\n"
        "    tuned t(v);\n"
        "    acc m = make(2 * v);\n"
        "    y[i] = d.scale + d.n + d.bias + d.twice\n"
        "         + 10 * (s.scale * s.n + s.twice)\n"
        "         + 100 * (f.twice - f.bias + f.n)\n"
        "         + g.twice + o.a.twice + o.k\n"
        "         + 1000 * (p.a.twice + p.a.bias) + p.k\n"
        "         + sp.hi * sp.lo + t.gain * t.at + m.twice + o.m + o.q;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "dmi");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        double v = in[i];
        double d = 1.5 + 3 + 0.25 + 3.0;
        double s = v * 3 + 2 * v;
        double f = 2 * v - 1.0 + 5;
        double o = 3.0 + 3.0 + 7;
        double pp = 2 * v + 0.25;
        double want = d + 10 * s + 100 * f + o + 1000 * pp + 1 + (v + 2) * v + 4 * v + 4 * v + 8 + 1;
        ASSERT_MSG(t_close(out[i], want, 1e-4, 1e-5), "out[%d] = %.9g, want %.9g (x = %.9g)", i, out[i], want, v);
    }
    if (t_is_emu(ctx)) {
        static const struct {
            const char *src, *says;
        } refused[] = {
            {"struct P { float x = 1.5f; int n = 3; };\n__global__ void k(float *y) { P a[3] = {{1.0f}}; y[0] = a[2].n; }\n",
             "cxx.cu:2:40: error: an array of a class with default member initializers with elements left out"},
            {"struct P { float x = 1.5f; int n = 3; };\n__global__ void k(float *y) { P p = {.n = 4}; y[0] = p.x; }\n",
             "cxx.cu:2:37: error: a designated initializer of a class with default member initializers"},
            {"struct P { float x = 1.5f; int n = 3; };\nstruct Q { P p; int k; };\n"
             "__global__ void k(float *y) { Q q = {2.0f, 5}; y[0] = q.p.n; }\n",
             "cxx.cu:3:37: error: brace elision in an initializer of a class with default member initializers"},
            {"struct P { float x = 1.5f; };\n__global__ void k(float *y) { __shared__ P s; y[0] = s.x; }\n",
             "cxx.cu:2:44: error: a __shared__ variable of a class with default member initializers"},
            {"__device__ const int size = 9;\nstruct S { int n = size; int m; __device__ S(int size) : m(size) {} };\n"
             "__global__ void k(float *y) { S s(4); y[0] = s.n; }\n",
             "cxx.cu:2:16: error: a default member initializer naming a variable that a constructor's parameter hides"},
            {"union U { int a = 1; float f; };\n__global__ void k(float *y) { U u; y[0] = u.a; }\n",
             "cxx.cu:1:17: error: a default member initializer in a union"},
        };
        for (size_t r = 0; r < sizeof refused / sizeof refused[0]; r++) {
            const char *e = cxx_error(ctx, refused[r].src);
            ASSERT_MSG(e && strstr(e, refused[r].says), "case %zu got: %s", r, e ? e : "(none)");
        }
    }
}

/* auto as a return type: the first return statement gives it (int, float, a template's
 * T times int, a member's), and a function returning nothing is void. It was refused. */
TEST(a_deduced_return_type_is_the_first_returns)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__device__ auto square(float x) { return x * x; }\n"
        "__device__ auto halve(int n) { if (n < 0) return -n / 2; return n / 2; }\n"
        "__device__ auto bump(float *p) { *p += 1.0f; }\n"
        "template <typename T> __device__ auto twice(T v) { return v * 2; }\n"
        "struct cell { float v; __device__ auto next() const { return v + 0.5f; } };\n"
        "extern \"C\" __global__ void ded(const float *x, float *y, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    float v = x[i];\n"
        "    float acc = square(v) + halve((int)(v * 10)) + twice(v) + twice(i) / 3;\n"
        "    bump(&acc);\n"
        "    cell c{v};\n"
        "    y[i] = acc + c.next() + (float)sizeof(halve(1));\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "ded");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        float v = in[i];
        int tenth = (int)(v * 10);
        int half = tenth < 0 ? -tenth / 2 : tenth / 2;
        double want = (double)(v * v) + half + 2.0 * v + (2 * i) / 3 + 1.0 + (v + 0.5) + 4;
        ASSERT_MSG(t_close(out[i], want, 1e-5, 1e-5), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
    if (t_is_emu(ctx)) {
        const char *e = cxx_error(ctx, "__device__ auto *first(float *p) { return p; }\n"
                                       "__global__ void k(float *y) { first(y)[0] = 1.0f; }\n");
        ASSERT_MSG(e && strstr(e, "cxx.cu:1:18: error: a deduced return type through a pointer or a reference"),
                   "got: %s", e ? e : "(none)");
    }
}

/* A member whose class has a default constructor that does something is constructed by
 * it when the initialization leaves the member out, as C++ does: in `T x;`, `T x{}`,
 * `T()`, a list that stops before it, and a constructor whose list does not name it. The
 * emulator left such a member zero (or unset): a silent wrong result. A class whose
 * default constructor is empty (`vec3() {}`) stays trivial: __shared__ and __constant__
 * objects of it are still fine. */
TEST(a_member_whose_class_constructs_by_default_is_constructed)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct gain { float g; __device__ gain() : g(1.5f) {} __device__ gain(float v) : g(v) {} };\n"
        "struct stage { gain in; float bias; };\n"
        "struct chain { gain a; float w; __device__ chain(float v) : w(v) {} };\n"
        "struct vec3 { float e[3]; __device__ vec3() {} };\n"
        "struct ray { vec3 o; };\n"
        "__constant__ ray cam;\n"
        "extern \"C\" __global__ void ctor(const float *x, float *y, int n)\n"
        "{\n"
        "    __shared__ ray sr;\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    float v = x[i];\n"
        "    stage s;\n"
        "    s.bias = v;\n"
        "    stage t{};\n"
        "    stage u{gain(v)};\n"
        "    chain c(v);\n"
        "    if (threadIdx.x == 0) sr.o.e[0] = 2.0f;\n"
        "    __syncthreads();\n"
        "    y[i] = s.in.g * s.bias + 10 * t.in.g + 100 * u.in.g + 1000 * c.a.g * c.w + stage().in.g + sr.o.e[0]\n"
        "         + cam.o.e[1];\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "ctor");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        double v = in[i];
        double want = 1.5 * v + 15 + 100 * v + 1500 * v + 1.5 + 2;
        ASSERT_MSG(t_close(out[i], want, 1e-4, 1e-5), "out[%d] = %.9g, want %.9g (x = %.9g)", i, out[i], want, v);
    }
    if (t_is_emu(ctx)) {
        const char *e = cxx_error(ctx, "struct gain { float g; __device__ gain() : g(1.5f) {} };\n"
                                       "struct bank { gain g[4]; };\n");
        ASSERT_MSG(e && strstr(e, "cxx.cu:2:20: error: an array member of a class whose default initialization runs code"),
                   "got: %s", e ? e : "(none)");
    }
}

/* A class template's members naming their own instance with its arguments (V<T> in
 * V<T>: a return type, a local, a braced return) and another instance (V<double> in
 * V<float>). The instance named inside itself was int, as it was not made yet. */
TEST(a_class_template_names_its_own_instance_with_arguments)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <typename T> struct vec2 {\n"
        "    T x, y;\n"
        "    __device__ vec2<T> operator+(const vec2<T> &o) const { return vec2<T>{x + o.x, y + o.y}; }\n"
        "    __device__ vec2<T> scaled(T s) const { vec2<T> r{x * s, y * s}; return r; }\n"
        "    __device__ vec2<double> wide() const { return vec2<double>{(double)x, (double)y}; }\n"
        "    __device__ T dot(const vec2<T> &o) const { return x * o.x + y * o.y; }\n"
        "};\n"
        "extern \"C\" __global__ void own(const float *x, float *y, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    vec2<float> a{x[i], 2.0f}, b{1.0f, x[i]};\n"
        "    vec2<float> c = (a + b).scaled(3.0f);\n"
        "    vec2<double> w = c.wide();\n"
        "    y[i] = (float)(w.dot(w)) + c.dot(a);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "own");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        double v = in[i], cx = 3 * (v + 1), cy = 3 * (2 + v);
        double want = cx * cx + cy * cy + cx * v + cy * 2;
        ASSERT_MSG(t_close(out[i], want, 1e-4, 1e-5), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
}

/* A braced list as an argument, f({a, b}): the parameter's type made from it, as T{a, b}
 * (an aggregate, one with default member initializers, one with a constructor, through a
 * const reference, a member function's). It was a syntax error; an overloaded function's
 * is refused. */
TEST(a_braced_list_as_an_argument_initialises_the_parameter)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct pt { float x; int n; };\n"
        "struct wt { float a = 2.0f; float b; };\n"
        "struct prod { float v; __device__ prod(float a, float b) : v(a * b) {} };\n"
        "__device__ float take(pt p) { return p.x + p.n; }\n"
        "__device__ float weigh(const wt &w) { return w.a * w.b; }\n"
        "__device__ float use(prod c, float s) { return c.v + s; }\n"
        "struct scaler { float k; __device__ float of(pt p) const { return p.x * k; } };\n"
        "extern \"C\" __global__ void brace(const float *x, float *y, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    float v = x[i];\n"
        "    scaler s{3.0f};\n"
        "    y[i] = take({v, 2}) + weigh({}) + weigh({v, v}) + use({v, 2.0f}, 1.0f) + s.of({v}) + take({v});\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "brace");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        double v = in[i];
        double want = (v + 2) + 0 + v * v + (2 * v + 1) + 3 * v + v;
        ASSERT_MSG(t_close(out[i], want, 1e-5, 1e-5), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
    if (t_is_emu(ctx)) {
        const char *e = cxx_error(ctx, "__device__ float ov(float p) { return 1; }\n"
                                       "__device__ float ov(int n) { return 2; }\n"
                                       "__global__ void k(float *y) { y[0] = ov({1}); }\n");
        ASSERT_MSG(e && strstr(e, "cxx.cu:3:41: error: a braced list as an argument of an overloaded function"),
                   "got: %s", e ? e : "(none)");
    }
}

/* A member function with a barrier called on a temporary, Acc(x).f(s) (cub's
 * BlockReduce(temp).Sum(v)): each thread's temporary must live across the barrier in the
 * inlined body. It was a compound literal whose block had ended: on TinyCC every thread's
 * `this` was one slot (the last thread's value, silently), on the optimising tier a crash. */
TEST(a_member_function_with_a_barrier_called_on_each_threads_temporary)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct Acc {\n"
        "    float v;\n"
        "    __device__ Acc(float x) : v(x) {}\n"
        "    __device__ float with_neighbour(float *s) {\n"
        "        s[threadIdx.x] = v;\n"
        "        __syncthreads();\n"
        "        return s[(threadIdx.x + 1) % blockDim.x] + 10.0f * v;\n"
        "    }\n"
        "};\n"
        "extern \"C\" __global__ void temp_obj(const float *in, float *out, int n)\n"
        "{\n"
        "    __shared__ float s[64];\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    out[i] = Acc(in[i]).with_neighbour(s);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "temp_obj");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        float want = in[i - i % 64 + (i % 64 + 1) % 64] + 10.0f * in[i];
        ASSERT_MSG(t_close(out[i], want, 1e-6, 1e-6), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
}
