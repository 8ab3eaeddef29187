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

TEST(partial_specializations_pick_the_most_specialized_and_deduce_through_class_templates)
{
    lat_context *ctx = t_context();
    static const char src[] =
        /* cutlass-lite: an array type, traits on it, and functions deducing T and N from it */
        "template <typename T, int N> struct Array { T v[N]; };\n"
        "template <typename A> struct array_len { static constexpr int value = -1; };\n"
        "template <typename T, int N> struct array_len<Array<T, N>> { static constexpr int value = N; };\n"
        "template <typename T, int N> __device__ T reduce_add(const Array<T, N> &a)\n"
        "{ T s = 0; for (int i = 0; i < N; i++) s += a.v[i]; return s; }\n"
        "template <typename T, int N> __device__ Array<T, N> scale(Array<T, N> a, T k)\n"
        "{ for (int i = 0; i < N; i++) a.v[i] *= k; return a; }\n"
        /* pointer, const and const-pointer patterns: const T * beats T * for const float * */
        "template <typename T> struct kind { static constexpr int value = 0; };\n"
        "template <typename T> struct kind<T *> { static constexpr int value = 1; };\n"
        "template <typename T> struct kind<const T> { static constexpr int value = 2; };\n"
        "template <typename T> struct kind<const T *> { static constexpr int value = 3; };\n"
        "template <typename T, typename U> struct same { static constexpr bool value = false; };\n"
        "template <typename T> struct same<T, T> { static constexpr bool value = true; };\n"
        "template <typename T> struct strip { typedef T type; };\n"
        "template <typename T> struct strip<const T> { typedef T type; };\n"
        "template <typename T> struct strip<volatile T> { typedef T type; };\n"
        "template <typename T> struct strip<const volatile T> { typedef T type; };\n"
        /* a value pattern and a type pattern side by side */
        "template <typename T, int Bits> struct pack_of { static constexpr int lanes = 0; };\n"
        "template <int Bits> struct pack_of<float, Bits> { static constexpr int lanes = Bits / 32; };\n"
        "template <typename T> struct pack_of<T, 16> { static constexpr int lanes = 100; };\n"
        "extern \"C\" __global__ void partial(const float *in, float *out, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    Array<float, 3> a = {{in[i], in[(i + 1) % n], 2.0f}};\n"
        "    Array<int, 2> b = {{i, 3}};\n"
        "    float r = reduce_add(scale(a, 2.0f)) + reduce_add(b);\n"
        "    int code = kind<int>::value + 10 * kind<int *>::value + 100 * kind<const int>::value +\n"
        "               1000 * kind<const float *>::value + 10000 * same<int, int>::value +\n"
        "               20000 * same<int, float>::value + 40000 * same<strip<const volatile int>::type, int>::value;\n"
        "    int lens = array_len<Array<float, 3>>::value * 10 + array_len<int>::value;\n"
        "    int lanes = pack_of<float, 128>::lanes + pack_of<int, 16>::lanes * 10 + pack_of<int, 8>::lanes;\n"
        "    out[i] = r + code * 0.001f + lens * 1000.0f + lanes * 100000.0f;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "partial");
    static float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        double r = 2.0 * in[i] + 2.0 * in[(i + 1) % N] + 4 + i + 3;
        double want = r + 53210 * 0.001 + 29 * 1000.0 + 1004 * 100000.0;
        ASSERT_MSG(t_close(out[i], (float)want, 1e-6, 1e-2), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
}

TEST(partial_specializations_lattice_cannot_match_are_refused_and_ambiguity_is_an_error)
{
    lat_context *ctx = t_context();
    if (!t_is_emu(ctx))
        SKIP("the emulator's own messages");
    const char *m = cxx_error(ctx, "template <typename T, typename U> struct P { static constexpr int v = 0; };\n"
                                   "template <typename T> struct P<T, int> { static constexpr int v = 1; };\n"
                                   "template <typename U> struct P<int, U> { static constexpr int v = 2; };\n"
                                   "extern \"C\" __global__ void k(int *o) { o[0] = P<int, int>::v; }\n");
    ASSERT_NOT_NULL(m);
    ASSERT_CONTAINS(m, "P<int, int> matches partial specializations of 'P' at lines 2 and 3, neither more specialized");
    m = cxx_error(ctx, "template <typename T> struct id { typedef T type; };\n"
                       "template <typename T> struct V { };\n"
                       "template <typename T, typename U> struct Q { static constexpr int v = 0; };\n"
                       "template <typename T> struct Q<T, V<typename id<T>::type>> { static constexpr int v = 1; };\n"
                       "extern \"C\" __global__ void k(int *o) { o[0] = Q<int, V<int>>::v; }\n");
    ASSERT_NOT_NULL(m);
    ASSERT_CONTAINS(m, "t.cu:4:30: error: a partial specialization whose arguments depend on its parameters");
    m = cxx_error(ctx, "template <int A, int B> struct R { static constexpr int v = 0; };\n"
                       "template <int A> struct R<A, A + 1> { static constexpr int v = 1; };\n"
                       "extern \"C\" __global__ void k(int *o) { o[0] = R<1, 2>::v; }\n");
    ASSERT_NOT_NULL(m);
    ASSERT_CONTAINS(m, "t.cu:2:25: error: a partial specialization whose arguments depend on its parameters");
}

TEST(variable_templates_are_constants_per_instance)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <typename T> constexpr T pi_v = T(3.14159265358979323846);\n"
        "template <typename T, typename U> struct same { static constexpr bool value = false; };\n"
        "template <typename T> struct same<T, T> { static constexpr bool value = true; };\n"
        "template <typename T, typename U> constexpr bool same_v = same<T, U>::value;\n"
        "template <int N> constexpr int square_v = N * N;\n"
        "template <typename T> __device__ T circle(T r)\n"
        "{\n"
        "    if constexpr (same_v<T, double>) return pi_v<T> * r * r; else return pi_v<T> * r * r + 1;\n"
        "}\n"
        "extern \"C\" __global__ void vt(const float *in, float *out, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    static_assert(square_v<4> == 16, \"square_v\");\n"
        "    float tile[square_v<3>];\n"
        "    tile[i % square_v<3>] = in[i];\n"
        "    out[i] = circle(in[i]) + (float)circle((double)in[i]) + sizeof(tile) + (same_v<int, int> ? 1000 : 0) +\n"
        "             pi_v<int> + tile[i % 9];\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "vt");
    static float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        double x = in[i], pi = 3.14159265358979323846;
        double want = (float)((float)pi * x * x + 1) + (float)(pi * x * x) + 36 + 1000 + 3 + x;
        ASSERT_MSG(t_close(out[i], want, 1e-5, 1e-3), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
}

TEST(type_traits_and_sfinae_pick_the_overload_cxx_picks)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <cuda/std/type_traits>\n"
        "namespace tt = cuda::std;\n"
        /* return-type SFINAE (the classic enable_if<...>::type) */
        "template <typename T>\n"
        "__device__ typename tt::enable_if<tt::is_floating_point<T>::value, T>::type halve(T x) { return x * T(0.5); }\n"
        "template <typename T>\n"
        "__device__ typename tt::enable_if<tt::is_integral<T>::value, T>::type halve(T x) { return x >> 1; }\n"
        /* SFINAE in a value parameter's type and in a type parameter's default */
        "template <typename T, tt::enable_if_t<tt::is_signed_v<T>, int> = 0>\n"
        "__device__ int sign_of(T x) { return (x > T(0)) - (x < T(0)); }\n"
        "template <typename T, tt::enable_if_t<tt::is_unsigned_v<T>, int> = 0>\n"
        "__device__ int sign_of(T x) { return x > T(0) ? 2 : 0; }\n"
        "template <typename T, typename = tt::enable_if_t<tt::is_pointer_v<T>>>\n"
        "__device__ int pointee_bytes(T) { return (int)sizeof(tt::remove_pointer_t<T>); }\n"
        /* llm.c-style: a wider accumulator chosen by a trait */
        "template <typename T>\n"
        "__device__ float widen(T x)\n"
        "{\n"
        "    using Acc = tt::conditional_t<(sizeof(T) < 4), int, T>;\n"
        "    Acc a = (Acc)x;\n"
        "    return (float)a * (tt::is_same_v<Acc, int> ? 10.0f : 1.0f);\n"
        "}\n"
        /* a trait of the program's own on integral_constant, as libraries write them */
        "template <typename T> struct is_vec2 : tt::false_type {};\n"
        "template <> struct is_vec2<float2> : tt::true_type {};\n"
        "template <typename T> __device__ float len1(T v) { if constexpr (is_vec2<T>::value) return fabsf(v.x) + fabsf(v.y); else return fabsf(v); }\n"
        "extern \"C\" __global__ void traits(const float *in, float *out, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    float x = in[i];\n"
        "    static_assert(tt::is_same<tt::remove_cv_t<const volatile int>, int>::value, \"remove_cv\");\n"
        "    static_assert(tt::is_same_v<tt::decay_t<const float &>, float>, \"decay\");\n"
        "    static_assert(!tt::is_integral_v<float> && tt::is_integral_v<const unsigned char>, \"is_integral\");\n"
        "    static_assert(tt::is_signed_v<int> && !tt::is_signed_v<unsigned> && tt::is_unsigned_v<unsigned short>, \"signs\");\n"
        "    static_assert(tt::is_same_v<tt::make_unsigned_t<int>, unsigned>, \"make_unsigned\");\n"
        "    static_assert(tt::integral_constant<int, 7>::value == 7 && tt::true_type::value, \"integral_constant\");\n"
        "    tt::remove_reference_t<float &> y = x;\n"
        "    out[i] = halve(x) + halve(i) * 10 + sign_of(-i - 1) * 100 + sign_of((unsigned)i) * 1000 +\n"
        "             pointee_bytes(in) * 10000 + widen((short)3) + widen(0.25) + len1(make_float2(x, -1.0f)) + len1(y);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "traits");
    static float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        double x = in[i];
        double want = x * 0.5 + (i >> 1) * 10 - 100 + (i > 0 ? 2000 : 0) + 40000 + 30 + 0.25 + (fabs(x) + 1) + fabs(x);
        ASSERT_MSG(t_close(out[i], want, 1e-6, 1e-2), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
}

/* A derived class adding data to a base with data, laid out as the Itanium C++ ABI does
 * (the base subobject first): base constructors in the initializer list (a class
 * template's as Base<T>{...}), the base's default constructor when the list names none,
 * base members by their plain names and as Base::y, base member functions (Base::f() where
 * the derived class hides f with its own), chains of
 * bases, aggregates initialised with the base's members first, a pointer to the base, a
 * derived object copied to its base (slicing). */
TEST(derived_classes_add_data_members_after_their_base_subobject)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct Particle {\n"
        "    float x, y;\n"
        "    __device__ Particle(float a, float b) : x(a), y(b) {}\n"
        "    __device__ float norm2() const { return x * x + y * y; }\n"
        "    __device__ void move(float d) { x += d; }\n"
        "};\n"
        "struct Charged : Particle {\n"
        "    float q;\n"
        "    int id;\n"
        "    __device__ Charged(float a, float b, float c) : Particle(a, b), q(c), id(7) {}\n"
        "    __device__ float energy() const { return q * norm2() + x + Particle::y; }\n"
        "    __device__ float norm2() const { return Particle::norm2() + q * q; }\n" /* hides the base's */
        "};\n"
        "template <typename T> struct Span { T lo, hi; __device__ T width() const { return hi - lo; } };\n"
        "template <typename T> struct Range : Span<T> {\n"
        "    T step;\n"
        "    __device__ Range(T a, T b, T s) : Span<T>{a, b}, step(s) {}\n"
        "    __device__ T count() const { return this->width() / step; }\n"
        "};\n"
        "struct A { float a; __device__ float get() const { return a; } };\n"
        "struct B : A { float b; };\n"
        "struct C : B { int c; __device__ float sum() const { return a + b + c + get(); } };\n"
        "struct Cnt { int k; __device__ Cnt() : k(5) {} };\n"
        "struct D : Cnt { int m; __device__ D(int v) : m(v) {} };\n"
        "__device__ float take(const Particle &p) { return p.norm2(); }\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    Charged c(in[i], 2.0f, 3.0f);\n"
        "    c.move(1.0f);\n"
        "    Range<float> r(in[i], in[i] + 8.0f, 2.0f);\n"
        "    B v{in[i], 2.0f};\n"
        "    C w;\n"
        "    w.a = 1.0f; w.b = in[i]; w.c = 3;\n"
        "    A *pa = &w;\n"
        "    D d(i % 5);\n"
        "    A sliced = w, copied(w), assigned;\n"
        "    assigned = w;\n"
        "    out[i] = sliced.a + copied.a + assigned.a + c.energy() + c.id + take(c) + c.norm2() + r.count() + r.lo * 2 + v.a * 10 + v.b + w.sum() + pa->a * 100 +\n"
        "             d.k * 1000 + d.m * 10000 + sizeof(Charged) * 100000 + sizeof(C) * 1000000;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        double x = in[i], cx = x + 1;
        double want = 3 + 3 * (cx * cx + 4 + 9) + cx + 2 + 7 + (cx * cx + 4) + (cx * cx + 4 + 9) + 4 + 2 * x + 10 * x + 2 + (1 + x + 3 + 1) + 100 +
                      5000 + 10000 * (i % 5) + 16 * 100000 + 12 * 1000000;
        ASSERT_MSG(t_close(out[i], want, 1e-6, 1e-3), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
}

/* using Base::f; brings the base's overloads beside the derived class's own of that name
 * (ranked together: the base's take the object as the derived class's, exactly); without
 * it the derived class's f hides them; protected members are the derived class's. */
TEST(using_declarations_bring_base_overloads_beside_the_derived_classes)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "class Acc {\n"
        "protected:\n"
        "    float total;\n"
        "    int n;\n"
        "public:\n"
        "    __device__ Acc() : total(0), n(0) {}\n"
        "    __device__ void add(float v) { total += v; n++; }\n"
        "    __device__ void add(float v, int times) { total += v * times; n += times; }\n"
        "    __device__ float mean() const { return total / n; }\n"
        "};\n"
        "class WeightedAcc : public Acc {\n"
        "    float wsum;\n"
        "public:\n"
        "    using Acc::add;\n"
        "    __device__ WeightedAcc() : Acc(), wsum(0) {}\n"
        "    __device__ void add(float v, float w) { total += v * w; wsum += w; n++; }\n"
        "    __device__ float wmean() const { return total / wsum; }\n"
        "};\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    WeightedAcc a;\n"
        "    a.add(in[i], 2.0f);\n"
        "    a.add(1.0f);\n"
        "    a.add(3.0f, 2);\n"
        "    out[i] = a.mean() * 100 + a.wmean();\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        float total = in[i] * 2.0f + 1.0f + 6.0f;
        double want = total / 4 * 100 + total / 2.0f;
        ASSERT_MSG(t_close(out[i], want, 1e-5, 1e-4), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
    if (!t_is_emu(ctx))
        return;
    const char *m = cxx_error(ctx, "struct B { int a; __device__ B(int v) : a(v) {} };\n"
                                   "struct D : B { using B::B; };\n"
                                   "extern \"C\" __global__ void k(int *o) { D d(1); o[0] = d.a; }\n");
    ASSERT_NOT_NULL(m);
    ASSERT_CONTAINS(m, "t.cu:2:16: error: inheriting a base's constructors (using Base::Base;) is not supported");
}

/* A class passed by value from an lvalue is copied by the program's copy constructor (it
 * was copied member by member, skipping what the constructor does). */
TEST(by_value_arguments_run_the_programs_copy_constructor)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct Counted { float x; int copies;\n"
        "  __device__ Counted(float v) : x(v), copies(0) {}\n"
        "  __device__ Counted(const Counted &o) : x(o.x * 2), copies(o.copies + 1) {} };\n"
        "__device__ float f(Counted c) { return c.x + c.copies * 100; }\n"
        "template <typename T> __device__ float g(T c) { return f(c) + c.copies * 1000; }\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    Counted c(in[i]);\n"
        "    out[i] = f(c) + g(c) * 10;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        double x = in[i], want = (2 * x + 100) + ((4 * x + 200) + 1000) * 10;
        ASSERT_MSG(t_close(out[i], want, 1e-5, 1e-3), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
}

TEST(a_base_without_a_default_constructor_and_a_failed_enable_if_are_errors)
{
    lat_context *ctx = t_context();
    if (!t_is_emu(ctx))
        SKIP("the emulator's own messages");
    /* (a base's tail padding and a base's member hidden by the class's: test_cxx_public) */
    const char *m = cxx_error(ctx, "struct B { int a; __device__ B(int v) : a(v) {} };\n"
                                   "struct D : B { int b; __device__ D() : b(1) {} };\n"
                                   "extern \"C\" __global__ void k(int *o) { D d; o[0] = d.b; }\n");
    ASSERT_NOT_NULL(m);
    ASSERT_CONTAINS(m, "error: the base class 'B' has no default constructor: initialise it in the list");
    m = cxx_error(ctx, "#include <cuda/std/type_traits>\n"
                       "template <typename T, cuda::std::enable_if_t<cuda::std::is_integral_v<T>, int> = 0>\n"
                       "__device__ T twice(T x) { return x + x; }\n"
                       "extern \"C\" __global__ void k(float *o) { o[0] = twice(1.5f); }\n");
    ASSERT_NOT_NULL(m);
    ASSERT_CONTAINS(m, "t.cu:4:49: error: no instance of 'twice' takes these arguments");
    /* an error inside a class's instance is no substitution failure: C++ stops there, and
     * so does the emulator (never silently taking the other overload) */
    m = cxx_error(ctx, "template <typename T> struct Tr { static_assert(sizeof(T) == 4, \"four\"); typedef T type; };\n"
                       "template <typename T> __device__ typename Tr<T>::type f(T x) { return x; }\n"
                       "template <typename T> __device__ T f(T x, int = 0) { return x + 1; }\n"
                       "extern \"C\" __global__ void k(float *o) { o[0] = f(1.0); }\n");
    ASSERT_NOT_NULL(m);
    ASSERT_CONTAINS(m, "t.cu:1:35: error: static assertion failed: \"four\"");
}

TEST(template_template_parameters_name_a_class_template_given_or_defaulted)
{
    lat_context *ctx = t_context();
    static const char src[] =
        /* cub-lite: a reduction policy passed as a template */
        "template <typename T> struct Sum { __device__ static T apply(T a, T b) { return a + b; } };\n"
        "template <typename T> struct Max { __device__ static T apply(T a, T b) { return a > b ? a : b; } };\n"
        "template <template <typename> class Op, typename T, int N>\n"
        "__device__ T fold_n(const T *v) { T r = v[0]; for (int i = 1; i < N; i++) r = Op<T>::apply(r, v[i]); return r; }\n"
        "template <template <typename> class Op = Sum, typename T = float>\n"
        "struct Combine { __device__ T operator()(T a, T b) const { return Op<T>::apply(a, b); } };\n"
        "extern \"C\" __global__ void ttp(const float *in, float *out, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i + 4 > n) { out[i] = 0; return; }\n"
        "    Combine<> add;\n"
        "    Combine<Max> mx;\n"
        "    out[i] = fold_n<Sum, float, 3>(in + i) + fold_n<Max, float, 4>(in + i) * 100 + add(in[i], 1.0f) +\n"
        "             mx(in[i], 0.0f) * 1000;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "ttp");
    static float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        double want = 0;
        if (i + 4 <= N) {
            double mx = fmax(fmax(in[i], in[i + 1]), fmax(in[i + 2], in[i + 3]));
            want = (double)(in[i] + in[i + 1] + in[i + 2]) + mx * 100 + (in[i] + 1.0) + fmax(in[i], 0) * 1000;
        }
        ASSERT_MSG(t_close(out[i], want, 1e-5, 1e-2), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
}

/* The library code real kernels are built on, in the shape llm.c and PyTorch write it:
 * a packed 128-bit vector class template whose static constant sizes its array member
 * (and is read through an object), a defaulted constructor beside another, alignas of
 * the parameters, an opmath trait and a functor invoked through a variadic forwarder. */
TEST(llmc_and_aten_style_vector_classes_traits_and_forwarders)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <cuda/std/type_traits>\n"
        "template <class ElementType>\n"
        "struct alignas(16) Packed128 {\n"
        "    Packed128() = default;\n"
        "    __device__ explicit Packed128(int4 bits) { memcpy(&payload, &bits, sizeof(bits)); }\n"
        "    __device__ ElementType &operator[](int index) { return payload[index]; }\n"
        "    __device__ int4 get_bits() const { int4 bits; memcpy(&bits, &payload, sizeof(bits)); return bits; }\n"
        "    static constexpr const size_t size = sizeof(int4) / sizeof(ElementType);\n"
        "    ElementType payload[size];\n"
        "};\n"
        "template <class T> __device__ Packed128<T> load128(const T *a) { return Packed128<T>{*reinterpret_cast<const int4 *>(a)}; }\n"
        "template <class T> __device__ void store128(T *t, Packed128<T> v) { *reinterpret_cast<int4 *>(t) = v.get_bits(); }\n"
        "typedef Packed128<float> x128;\n"
        "struct Half { unsigned short x; };\n"
        "template <typename T> struct OpMath { using type = T; };\n"
        "template <> struct OpMath<Half> { using type = float; };\n"
        "template <typename T> using opmath_t = typename OpMath<T>::type;\n"
        "template <typename scalar_t, int vec_size>\n"
        "struct alignas(sizeof(scalar_t) * vec_size) aligned_vector { scalar_t val[vec_size]; };\n"
        "template <typename func_t, typename... Args>\n"
        "__device__ auto invoke(const func_t &f, Args... args) { return f(args...); }\n"
        "struct MulAdd { float a; __device__ float operator()(float x, float y) const { return a * x + y; } };\n"
        "extern \"C\" __global__ void packed(const float *in, float *out, int n)\n"
        "{\n"
        "    int idx = (blockIdx.x * blockDim.x + threadIdx.x) * x128::size;\n"
        "    if (idx >= n) return;\n"
        "    x128 a = load128(in + idx), o;\n"
        "    static_assert(alignof(aligned_vector<float, 4>) == 16 && sizeof(x128) == 16, \"layout\");\n"
        "    aligned_vector<float, 2> pair = {{1.0f, 2.0f}};\n"
        "    for (int k = 0; k < a.size; k++) {\n"
        "        opmath_t<Half> acc = invoke(MulAdd{3.0f}, a[k], pair.val[k % 2]);\n"
        "        o[k] = acc;\n"
        "    }\n"
        "    store128(out + idx, o);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "packed");
    static float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {N / 4}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out), lat_arg_i32(N))));
    for (int i = 0; i < N; i++) {
        float want = 3.0f * in[i] + (float)(i % 4 % 2 + 1);
        ASSERT_MSG(t_close(out[i], want, 1e-6, 1e-5), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
}

/* ggml's dequantization kernels take the block decoder as a function pointer template
 * argument (template <int qk, int qr, dequantize_kernel_t dequantize_kernel, typename dst_t>). */
TEST(function_pointer_template_arguments_call_the_function_named)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "typedef void (*dequantize_kernel_t)(const void *vx, const int ib, const int iqs, float2 &v);\n"
        "typedef struct { float d; signed char qs[32]; } block_q8;\n"
        "typedef struct { float d; unsigned char qs[16]; } block_q4;\n"
        "__device__ void dequantize_q8(const void *vx, const int ib, const int iqs, float2 &v)\n"
        "{ const block_q8 *x = (const block_q8 *)vx; v.x = x[ib].d * x[ib].qs[iqs]; v.y = x[ib].d * x[ib].qs[iqs + 16]; }\n"
        "__device__ void dequantize_q4(const void *vx, const int ib, const int iqs, float2 &v)\n"
        "{ const block_q4 *x = (const block_q4 *)vx; int q = x[ib].qs[iqs];\n"
        "  v.x = ((q & 0xF) - 8) * x[ib].d; v.y = ((q >> 4) - 8) * x[ib].d; }\n"
        "template <int qk, int qr, dequantize_kernel_t dequantize_kernel, typename dst_t>\n"
        "__global__ void dequantize_block(const void *__restrict__ vx, dst_t *__restrict__ y, const int k)\n"
        "{\n"
        "    const int i = 2 * (blockDim.x * blockIdx.x + threadIdx.x);\n"
        "    if (i >= k) return;\n"
        "    const int ib = i / qk, iqs = (i % qk) / qr, iybs = i - i % qk;\n"
        "    const int y_offset = qr == 1 ? 1 : qk / 2;\n"
        "    float2 v;\n"
        "    dequantize_kernel(vx, ib, iqs, v);\n"
        "    y[iybs + iqs + 0] = v.x;\n"
        "    y[iybs + iqs + y_offset] = v.y;\n"
        "}\n";
    static const char *const names[] = {"dequantize_block<32, 2, dequantize_q8, float>",
                                        "dequantize_block<32, 2, &dequantize_q4, float>", NULL};
    lat_module *mod;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "dq.cu", .no_extern_c = 1,
                                                         .name_expressions = names},
                                &mod));
    enum { NBLK = 8, K = NBLK * 32 };
    struct {
        float d;
        signed char qs[32];
    } q8[NBLK];
    struct {
        float d;
        unsigned char qs[16];
    } q4[NBLK];
    for (int b = 0; b < NBLK; b++) {
        q8[b].d = q4[b].d = (float)t_rand_double(0.01, 1);
        for (int j = 0; j < 32; j++)
            q8[b].qs[j] = (signed char)(t_rand_u32() % 255 - 127);
        for (int j = 0; j < 16; j++)
            q4[b].qs[j] = (unsigned char)t_rand_u32();
    }
    static float y8[K], y4[K];
    lat_kernel *k8, *k4;
    ASSERT_OK(lat_module_get_kernel(mod, names[0], &k8));
    ASSERT_OK(lat_module_get_kernel(mod, names[1], &k4));
    ASSERT_OK(lat_launch_args(k8, &(lat_launch_desc){.grid = {K / 2 / 64}, .block = {64}},
                              LAT_ARGS(lat_arg_in(q8, sizeof q8), lat_arg_out(y8, sizeof y8), lat_arg_i32(K))));
    ASSERT_OK(lat_launch_args(k4, &(lat_launch_desc){.grid = {K / 2 / 64}, .block = {64}},
                              LAT_ARGS(lat_arg_in(q4, sizeof q4), lat_arg_out(y4, sizeof y4), lat_arg_i32(K))));
    for (int i = 0; i < K; i++) {
        int b = i / 32, j = i % 32;
        float w8 = q8[b].d * q8[b].qs[j];
        int q = q4[b].qs[j % 16];
        float w4 = (float)((j < 16 ? (q & 0xF) : (q >> 4)) - 8) * q4[b].d;
        ASSERT_MSG(y8[i] == w8, "y8[%d] = %.9g, want %.9g", i, y8[i], w8);
        ASSERT_MSG(y4[i] == w4, "y4[%d] = %.9g, want %.9g", i, y4[i], w4);
    }
    lat_module_destroy(mod);
}

TEST(perfect_forwarding_through_a_variadic_call_and_a_forward_declared_class_template)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <cuda/std/utility>\n"
        "template <typename T, int N = 2> struct Acc;\n"
        "template <typename T, int N> struct Acc { T v[N]; __device__ T sum() const { T s = 0; for (int i = 0; i < N; i++) s += v[i]; return s; } };\n"
        "template <typename F, typename... Args>\n"
        "__device__ auto invoke(F &&f, Args &&... args) { return f(cuda::std::forward<Args>(args)...); }\n"
        "struct Bump { __device__ float operator()(float a, float &b) const { b += 1.0f; return a * b; } };\n"
        "extern \"C\" __global__ void fwd(const float *in, float *out, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    float b = in[(i + 1) % n];\n"
        "    Acc<float> acc = {{in[i], 1.0f}};\n"
        "    float r = invoke(Bump{}, acc.sum() + 0.5f, b);\n" /* an rvalue, and b by reference */
        "    out[i] = r + cuda::std::move(b) * 10.0f;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "fwd");
    static float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        float b = in[(i + 1) % N] + 1.0f;
        float want = (in[i] + 1.0f + 0.5f) * b + b * 10.0f;
        ASSERT_MSG(t_close(out[i], want, 1e-5, 1e-4), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
}

/* cub-lite: a block-wide primitive whose shared scratch is a struct nested in it, declared
 * by the kernel as typename Primitive<...>::TempStorage, one per instance. */
TEST(nested_structs_of_class_template_instances_are_member_types)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <typename T, int BLOCK>\n"
        "struct BlockSum {\n"
        "    struct TempStorage { T partial[BLOCK]; };\n"
        "    TempStorage *temp;\n"
        "    __device__ T sum(T x) {\n"
        "        temp->partial[threadIdx.x] = x;\n"
        "        __syncthreads();\n"
        "        T s = 0;\n"
        "        for (int i = 0; i < BLOCK; i++) s += temp->partial[i];\n"
        "        __syncthreads();\n"
        "        return s;\n"
        "    }\n"
        "};\n"
        "struct Plain { struct Inner { int a; }; Inner in; };\n"
        "extern \"C\" __global__ void nested(const float *in, float *out, int n)\n"
        "{\n"
        "    __shared__ typename BlockSum<float, 64>::TempStorage fs;\n"
        "    __shared__ BlockSum<int, 64>::TempStorage is;\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    BlockSum<float, 64> f = {&fs};\n"
        "    BlockSum<int, 64> g = {&is};\n"
        "    Plain::Inner q = {3};\n"
        "    static_assert(sizeof(BlockSum<float, 64>::TempStorage) == 256 && sizeof(is) == 256, \"sizes\");\n"
        "    out[i] = f.sum(in[i]) + g.sum((int)threadIdx.x) * 1000 + q.a;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "nested");
    static float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        double s = 0;
        for (int j = i - i % 64; j < i - i % 64 + 64; j++)
            s += in[j];
        double want = s + 2016 * 1000 + 3;
        ASSERT_MSG(t_close(out[i], want, 1e-5, 1e-2), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
}

TEST(trailing_return_types_read_the_parameters)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <typename T, typename U> __device__ auto mul(T a, U b) -> decltype(a * b) { return a * b; }\n"
        "__device__ auto twice(float x) -> float { return 2 * x; }\n"
        "extern \"C\" __global__ void trailing(const float *in, float *out, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    static_assert(sizeof(mul(1.0f, 2.0)) == 8 && sizeof(mul(1, (short)2)) == 4, \"decltype\");\n"
        "    out[i] = (float)mul(in[i], 1.0 / 3.0) + twice(in[i]) + mul(i, 3);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "trailing");
    static float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        float want = (float)((float)((double)in[i] * (1.0 / 3.0)) + 2 * in[i]) + (float)(i * 3);
        ASSERT_MSG(t_close(out[i], want, 1e-6, 1e-5), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
}

/* Member function templates, as CUTLASS-lite and cub-lite classes write them: a converting
 * cast<U>(), a functor-taking apply(F), a static one with a value parameter, one called
 * by its plain name from another member, one of a plain class through a pointer. */
TEST(member_function_templates_of_classes_and_class_templates)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <typename T> struct Vec2 {\n"
        "    T x, y;\n"
        "    template <typename U> __device__ Vec2<U> cast() const { return Vec2<U>{(U)x, (U)y}; }\n"
        "    template <typename F> __device__ T apply(F f) const { return f(x) + f(y) + bias; }\n"
        "    template <int K> __device__ static T scaled(T v) { return v * K; }\n"
        "    __device__ T twice_sum() const { return apply([](T v) { return 2 * v; }); }\n"
        "    T bias;\n" /* declared after the template that reads it */
        "};\n"
        "struct Acc {\n"
        "    float s;\n"
        "    template <typename T> __device__ void add(T v) { s += (float)v; }\n"
        "};\n"
        "extern \"C\" __global__ void members(const float *in, float *out, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    Vec2<float> v = {in[i], 0.75f, 0.5f};\n"
        "    Vec2<int> w = v.cast<int>();\n"
        "    Acc acc = {0};\n"
        "    acc.add(1.5);\n"
        "    acc.add(i);\n"
        "    Acc *pa = &acc;\n"
        "    pa->add<float>(0.25f);\n"
        "    out[i] = w.x * 1000 + v.twice_sum() + Vec2<float>::scaled<3>(in[i]) + acc.s * 100;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "members");
    static float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        double x = in[i];
        double want = (int)in[i] * 1000.0 + (2 * x + 1.5 + 0.5) + 3 * x + (1.5 + i + 0.25) * 100;
        ASSERT_MSG(t_close(out[i], want, 1e-5, 1e-2), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
}

/* cub-lite's block reduction as CUB shapes it: a class template holding a reference to
 * its shared TempStorage (a nested struct), a member template taking the operator, the
 * kernel declaring typename BlockReduce<...>::TempStorage and calling BR(tmp).Sum(v). */
TEST(a_cub_style_block_reduce_with_a_reference_member_and_a_member_template)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <typename T, int BLOCK_THREADS>\n"
        "struct BlockReduce {\n"
        "    struct TempStorage { T warp_sums[BLOCK_THREADS / 32]; };\n"
        "    TempStorage &temp;\n"
        "    __device__ BlockReduce(TempStorage &t) : temp(t) {}\n"
        "    template <typename Op> __device__ T Reduce(T x, Op op) {\n"
        "        for (int o = 16; o > 0; o >>= 1) x = op(x, __shfl_down_sync(0xffffffff, x, o));\n"
        "        int lane = threadIdx.x % 32, warp = threadIdx.x / 32;\n"
        "        if (lane == 0) temp.warp_sums[warp] = x;\n"
        "        __syncthreads();\n"
        "        if (threadIdx.x == 0)\n"
        "            for (int w = 1; w < BLOCK_THREADS / 32; w++) x = op(x, temp.warp_sums[w]);\n"
        "        return x;\n"
        "    }\n"
        "    __device__ T Sum(T x) { return Reduce(x, [](T a, T b) { return a + b; }); }\n"
        "};\n"
        "struct Max { template <typename T> __device__ T operator()(T a, T b) const { return a > b ? a : b; } };\n"
        "extern \"C\" __global__ void block_reduce(const float *in, float *out, int n)\n"
        "{\n"
        "    using BR = BlockReduce<float, 128>;\n"
        "    __shared__ typename BR::TempStorage tmp;\n"
        "    float v = in[blockIdx.x * 128 + threadIdx.x];\n"
        "    float s = BR(tmp).Sum(v);\n"
        "    __syncthreads();\n"
        "    BR br(tmp);\n"
        "    float m = br.Reduce(v, Max());\n"
        "    if (threadIdx.x == 0) { out[2 * blockIdx.x] = s; out[2 * blockIdx.x + 1] = m; }\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "block_reduce");
    enum { BLOCKS = N / 128 };
    static float in[N], out[2 * BLOCKS];
    t_rand_floats(in, N, -3, 3);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {BLOCKS}, .block = {128}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out), lat_arg_i32(N))));
    for (int b = 0; b < BLOCKS; b++) {
        double s = 0, m = -1e30;
        for (int j = b * 128; j < b * 128 + 128; j++) {
            s += in[j];
            m = fmax(m, in[j]);
        }
        ASSERT_MSG(t_close(out[2 * b], s, 1e-5, 1e-3), "sum %d = %.9g, want %.9g", b, out[2 * b], s);
        ASSERT_MSG(out[2 * b + 1] == (float)m, "max %d = %.9g, want %.9g", b, out[2 * b + 1], m);
    }
}

/* nvcc programs (ggml includes <limits>, <cstdint>, <array>) include the standard headers;
 * the emulator has the parts kernels use. NVRTC has no standard library headers. */
TEST(standard_headers_limits_array_and_utility_as_nvcc_programs_include_them)
{
    lat_context *ctx = t_context(); /* on CUDA, lattice's own headers (src/cuda/std_headers.c) */
    static const char src[] =
        "#include <limits>\n"
        "#include <array>\n"
        "#include <utility>\n"
        "#include <type_traits>\n"
        "#include <cstdint>\n"
        "template <typename T> __device__ T saturate(float x)\n"
        "{\n"
        "    static_assert(std::is_integral<T>::value, \"integers only\");\n"
        "    if (x >= (float)std::numeric_limits<T>::max()) return std::numeric_limits<T>::max();\n"
        "    if (x <= (float)std::numeric_limits<T>::lowest()) return std::numeric_limits<T>::lowest();\n"
        "    return (T)x;\n"
        "}\n"
        "extern \"C\" __global__ void stdh(const float *in, float *out, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    std::array<float, 3> w = {{0.5f, 1.5f, 2.5f}};\n"
        "    float a = w[i % 3], b = in[i];\n"
        "    std::swap(a, b);\n"
        "    out[i] = saturate<int8_t>(a * 100.0f) + b * 1000.0f + (float)w.size();\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "stdh");
    static float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    run_1d(k, in, out, N);
    static const float w[3] = {0.5f, 1.5f, 2.5f};
    for (int i = 0; i < N; i++) {
        float x = in[i] * 100.0f;
        float sat = x >= 127 ? 127 : x <= -128 ? -128 : (float)(signed char)x;
        float want = sat + w[i % 3] * 1000.0f + 3;
        ASSERT_MSG(out[i] == want, "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
}

/* thrust-style: a kernel names a pair type by a local alias and hands it to a block
 * reduction template, given and deduced (P *smem): the instance, made at file scope, must
 * not spell the kernel's local name (TinyCC saw `P block_reduce__lat_t1(...)`). */
TEST(a_type_named_by_a_kernels_local_alias_instantiates_templates)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <typename T1, typename T2> struct pair_t { T1 first; T2 second; };\n"
        "template <typename T1, typename T2> __device__ pair_t<T1, T2> make_pair_t(T1 a, T2 b) { return {a, b}; }\n"
        "template <typename T> struct minmax_op {\n"
        "    __device__ pair_t<T, T> operator()(const pair_t<T, T> &a, const pair_t<T, T> &b) const {\n"
        "        return make_pair_t(a.first < b.first ? a.first : b.first, a.second > b.second ? a.second : b.second);\n"
        "    }\n"
        "};\n"
        "template <typename T, int BLOCK, typename Op>\n"
        "__device__ T block_reduce(T v, Op op, T *smem) {\n"
        "    smem[threadIdx.x] = v;\n"
        "    __syncthreads();\n"
        "    for (int s = BLOCK / 2; s > 0; s >>= 1) {\n"
        "        if (threadIdx.x < s) smem[threadIdx.x] = op(smem[threadIdx.x], smem[threadIdx.x + s]);\n"
        "        __syncthreads();\n"
        "    }\n"
        "    return smem[0];\n"
        "}\n"
        "extern \"C\" __global__ void minmax(const float *in, float *out, int n) {\n"
        "    using P = pair_t<float, float>;\n"
        "    __shared__ P sm[128];\n"
        "    int i = blockIdx.x * 128 + threadIdx.x;\n"
        "    P v = make_pair_t(in[i], in[i]);\n"
        "    P r = block_reduce<P, 128>(v, minmax_op<float>{}, sm);\n"
        "    if (threadIdx.x == 0) { out[2 * blockIdx.x] = r.first; out[2 * blockIdx.x + 1] = r.second; }\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "minmax");
    enum { BLOCKS = N / 128 };
    static float in[N], out[2 * BLOCKS];
    t_rand_floats(in, N, -5, 5);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {BLOCKS}, .block = {128}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out), lat_arg_i32(N))));
    for (int b = 0; b < BLOCKS; b++) {
        float lo = in[b * 128], hi = in[b * 128];
        for (int j = b * 128; j < b * 128 + 128; j++) {
            lo = in[j] < lo ? in[j] : lo;
            hi = in[j] > hi ? in[j] : hi;
        }
        ASSERT_MSG(out[2 * b] == lo && out[2 * b + 1] == hi, "block %d: %g..%g, want %g..%g", b, out[2 * b],
                   out[2 * b + 1], lo, hi);
    }
}

/* Member class templates (allocator-style rebind, cub-style helpers): in a class template,
 * using the outer parameter and member types; in a plain class with a default argument;
 * named with `typename ...::template`, by their plain names inside the class, and from
 * two instances of the outer class (each its own structs). */
TEST(member_class_templates_of_plain_classes_and_class_templates)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <typename U>\n"
        "struct Alloc {\n"
        "    typedef U value_type;\n"
        "    template <typename T> struct rebind { typedef Alloc<T> other; };\n"
        "    template <int N> struct Arr {\n"
        "        value_type a[N];\n"
        "        __device__ value_type sum() const { value_type s = 0; for (int i = 0; i < N; i++) s += a[i]; return s; }\n"
        "        __device__ U scaled(U k) const { return sum() * k; }\n"
        "    };\n"
        "    __device__ static U twice_sum(U x) { Arr<2> t{{x, x}}; return t.sum(); }\n"
        "};\n"
        "struct Outer {\n"
        "    template <typename T, int K = 3> struct Box { T v; __device__ T get() const { return v * K; } };\n"
        "    __device__ float use(float x) const { Box<float> b{x}; Box<float, 5> c{x}; return b.get() + c.get(); }\n"
        "};\n"
        "extern \"C\" __global__ void k(const float *in, float *o, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    Alloc<float>::Arr<3> a{{in[i], 1.f, 2.f}};\n"
        "    Alloc<int>::Arr<3> b{{i, 1, 2}};\n"
        "    typename Alloc<int>::template rebind<float>::other::value_type f = 0.25f;\n"
        "    typename Alloc<double>::template Arr<2> d{{1.0, in[i]}};\n"
        "    Outer out;\n"
        "    o[i] = a.scaled(2.f) + (float)b.sum() + f + (float)d.sum() + Alloc<float>::twice_sum(in[i]) +\n"
        "           out.use(in[i]) + Outer::Box<float, 2>{in[i]}.get();\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        float x = in[i];
        double want = (x + 3.0) * 2 + (i + 3) + 0.25 + (1.0 + x) + 2.0 * x + 8.0 * x + 2.0 * x;
        ASSERT_TRUE(t_close(out[i], want, 1e-5, 1e-5));
    }
}

/* Partial specializations with a parameter pack, as type-list code writes them: the head and
 * the rest (count<T, R...>, at<0, T, R...> beside at<I, T, R...>), a pack inside a class
 * template's arguments (len<list<Ts...>>), a function type's parameters (fn_traits<R (*)(A...)>),
 * value packs, and one without a pack preferred over one with (maxsize<T> over <T, R...>). */
TEST(partial_specializations_with_parameter_packs_match_by_their_packs_length)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <class... Ts> struct count;\n"
        "template <> struct count<> { static constexpr int value = 0; };\n"
        "template <class T, class... R> struct count<T, R...> { static constexpr int value = 1 + count<R...>::value; };\n"
        "template <class... Ts> struct list {};\n"
        "template <class L> struct len { static constexpr int value = -1; };\n"
        "template <class... Ts> struct len<list<Ts...>> { static constexpr int value = sizeof...(Ts); };\n"
        "template <int I, class... Ts> struct at;\n"
        "template <class T, class... R> struct at<0, T, R...> { typedef T type; };\n"
        "template <int I, class T, class... R> struct at<I, T, R...> { typedef typename at<I - 1, R...>::type type; };\n"
        "template <int... Ns> struct sum;\n"
        "template <> struct sum<> { static constexpr int value = 0; };\n"
        "template <int N, int... R> struct sum<N, R...> { static constexpr int value = N + sum<R...>::value; };\n"
        "template <class T, class... R> struct maxsize {\n"
        "    static constexpr int value = sizeof(T) > maxsize<R...>::value ? sizeof(T) : maxsize<R...>::value;\n"
        "};\n"
        "template <class T> struct maxsize<T> { static constexpr int value = sizeof(T); };\n"
        "template <class F> struct fn_traits;\n"
        "template <class R, class... A> struct fn_traits<R (*)(A...)> {\n"
        "    static constexpr int arity = sizeof...(A);\n"
        "    typedef R result;\n"
        "};\n"
        "typedef double (*binop)(float, int);\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    typename at<2, char, short, float, int>::type x = in[i];\n"
        "    typename fn_traits<binop>::result r = x;\n"
        "    out[i] = (float)(r * (count<int, float, double>::value + len<list<int, int>>::value * 10 +\n"
        "                          len<list<>>::value * 100 + len<int>::value * 1000)) +\n"
        "             sum<1, 2, 3, 4>::value * 10000 + maxsize<char, double, short>::value * 100000 +\n"
        "             fn_traits<binop>::arity * 1000000;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -1, 1);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++)
        ASSERT_TRUE(out[i] == (float)((double)in[i] * (3 + 20 + 0 - 1000)) + 10 * 10000 + 8 * 100000 + 2 * 1000000);
}

/* Two packs in one partial specialization (a type list's concatenation): each as long as
 * makes the arguments match; two template template parameters in one are refused where
 * declared, naming them. */
TEST(a_partial_specialization_with_two_packs_concatenates_type_lists)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <class... Ts> struct L {};\n"
        "template <class A, class B> struct cat;\n"
        "template <class... X, class... Y> struct cat<L<X...>, L<Y...>> {\n"
        "  typedef L<X..., Y...> type;\n"
        "  static constexpr int left = sizeof...(X), right = sizeof...(Y); };\n"
        "template <class T> struct size;\n"
        "template <class... T> struct size<L<T...>> { static constexpr int value = sizeof...(T); };\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    typedef cat<L<int, char>, L<float, double, short>> c;\n"
        "    out[i] = in[i] * size<c::type>::value + c::left * 10 + c::right * 100 +\n"
        "             cat<L<>, L<int>>::left * 1000 + cat<L<int>, L<>>::right * 10000;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++)
        ASSERT_TRUE(t_close(out[i], in[i] * 5.0 + 2 * 10 + 3 * 100, 1e-6, 1e-5));
    if (!t_is_emu(ctx))
        return;
    const char *err = cxx_error(ctx, "template <class... Ts> struct L {};\n"
                                     "template <class A, class B> struct cat;\n"
                                     "template <template <class...> class M, template <class...> class P, class... X>\n"
                                     "struct cat<M<X...>, P<>> {};\n"
                                     "extern \"C\" __global__ void k(float *o) { o[0] = 1; }\n");
    ASSERT_TRUE(err != NULL);
    ASSERT_CONTAINS(err, "t.cu:4:");
    ASSERT_CONTAINS(err, "more than one template template parameter");
}

/* C++17's template <auto V> (the value keeps its argument's type), a pack of them folded,
 * static constexpr auto members; a generic lambda's auto parameter is refused by name. */
TEST(auto_template_parameters_and_static_constexpr_auto_members)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <auto V> struct K { static constexpr auto value = V; };\n"
        "template <auto... Vs> struct S { static constexpr long long value = (0 + ... + Vs); };\n"
        "template <auto N> __device__ auto scaled(float x) { return x * N; }\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    out[i] = K<5>::value + K<'a'>::value + S<1, 2u, 3ll>::value + scaled<3>(in[i]) +\n"
        "             sizeof(K<7u>::value) + sizeof(K<true>::value) + sizeof(K<(short)2>::value) * 100 +\n"
        "             (float)(K<5u>::value - 6u > 0 ? 1000 : 0) + (float)(K<5>::value - 6 < 0 ? 10000 : 0);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++)
        ASSERT_TRUE(t_close(out[i], 5 + 97 + 6 + in[i] * 3 + 4 + 1 + 200 + 1000 + 10000, 1e-6, 1e-6));
    const char *err = cxx_error(ctx, "extern \"C\" __global__ void k(float *o) { o[0] = 1; }\n"
                                     "__device__ float f(auto a) { return a; }\n");
    ASSERT_TRUE(err != NULL); /* C++20's: NVRTC's C++17 refuses it too, "auto" is not allowed here */
    ASSERT_CONTAINS(err, "t.cu:2");
    if (t_is_emu(ctx))
        ASSERT_CONTAINS(err, "t.cu:2:20: error: a function parameter declared auto (an abbreviated function template)");
}

/* Deduction through a reference to an array (register tiles passed as T (&)[N]): the
 * element type and the size; a non-const array binds to a reference to a const one. */
TEST(templates_deduce_element_type_and_size_through_array_references)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <int N, class F> __device__ void for_each(float (&v)[N], F f) { for (int j = 0; j < N; j++) f(v[j]); }\n"
        "template <typename T, int N> __device__ T sum(const T (&v)[N]) { T s = 0; for (int j = 0; j < N; j++) s += v[j]; return s; }\n"
        "template <typename T, int N> __device__ int count(T (&)[N]) { return N; }\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    float t[4] = {in[i], 1, 2, 3};\n"
        "    int q[7] = {1, 2, 3, 4, 5, 6, i % 9};\n"
        "    for_each(t, [&](float &x) { x *= 2; });\n"
        "    out[i] = sum(t) + sum(q) * 100 + count(q) * 10000 + count(t) * 100000;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        double want = 2.0 * (in[i] + 6) + (21 + i % 9) * 100 + 70000 + 400000;
        ASSERT_MSG(t_close(out[i], want, 1e-6, 1e-3), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
}

/* Generic lambdas as real code writes them: passed to device function templates (by value
 * and by const reference), [&] and [=] capturing what they name, [x] mutable keeping its
 * own copy, immediately invoked, returned from a function, inside a function template's
 * instance, auto & parameters writing through, [&] reading a __shared__ array, auto... packs
 * folded, lambdas passed to generic lambdas and through a variadic invoke; each call's argument types make an
 * operator() of their own (add(1, 2) is an int). */
TEST(generic_lambdas_capture_and_are_instantiated_per_call)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <class F> __device__ float reduce4(const float *v, const F &f)\n"
        "{ float r = v[0]; for (int j = 1; j < 4; j++) r = f(r, v[j]); return r; }\n"
        "template <class F> __device__ void for_each(float *v, int n, F f) { for (int j = 0; j < n; j++) f(v[j]); }\n"
        "__device__ auto make_scale(float k) { return [=](auto x) { return x * k; }; }\n"
        "template <typename T> __device__ T twice_plus(T x)\n"
        "{ auto g = [&](auto y) { return y * x + (T)1; }; return g(x) + g(2); }\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    float v[4] = {in[i], in[i] * 2.0f, 1.0f, -in[i]};\n"
        "    float s = 0.5f;\n"
        "    int cnt = 0, calls = 0;\n"
        "    auto add = [](auto a, auto b) { return a + b; };\n"
        "    for_each(v, 4, [&](auto &x) { x *= s; cnt++; });\n"
        "    auto sc = [=](const auto &x) { return x * s; };\n"
        "    s = 100.0f;\n"
        "    auto counter = [calls](auto a) mutable { calls += a; return calls; };\n"
        "    counter(2);\n"
        "    auto by3 = make_scale(3.0f);\n"
        "    out[i] = reduce4(v, add) + reduce4(v, [](auto a, auto b) { return a > b ? a : b; }) +\n"
        "             add(1, 2) / 2 + sc(2.0) + cnt + [&](auto q) { return q + n; }(1) + counter(5) + calls +\n"
        "             by3(in[i]) + twice_plus(in[i]);\n"
        "}\n"
        "extern \"C\" __global__ void ks(const float *in, float *out, int n)\n"
        "{\n"
        "    __shared__ float sh[64];\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    sh[threadIdx.x] = in[i];\n"
        "    __syncthreads();\n"
        "    auto at = [&](auto j) { return sh[j] * 2; };\n"
        "    out[i] = at(threadIdx.x ^ 1u);\n"
        "}\n"
        "struct Vec2 { float x, y; __device__ float dot(const Vec2 &o) const { return x * o.x + y * o.y; } };\n"
        "template <typename F, typename... Args> __device__ auto invoke(F f, Args... args) { return f(args...); }\n"
        "extern \"C\" __global__ void kp(const float *in, float *out, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    Vec2 a{in[i], 1.0f};\n"
        "    auto sum = [](auto... xs) { return (xs + ... + 0.0f); };\n"
        "    auto proj = [a](const auto &v) { return a.dot(v); };\n"
        "    auto twice = [](auto f, auto x) { return f(f(x)); };\n"
        "    auto inc = [](float x) { return x + 1; };\n"
        "    out[i] = sum(1.0f, 2.0f, in[i]) + proj(Vec2{2.0f, 3.0f}) * 10 + twice(inc, in[i]) * 100 +\n"
        "             invoke([](auto p, auto q) { return p * q; }, 2, in[i]) * 1000;\n"
        "}\n";
    if (t_is_emu(ctx)) {
        /* a member named in a lambda that does not capture this: C++'s error */
        const char *err = cxx_error(ctx, "struct S { float m; __device__ float f(float x)\n"
                                    "  { auto g = [](float y) { return y * m; }; return g(x); } };\n"
                                    "extern \"C\" __global__ void k(float *o) { S s{2.0f}; o[0] = s.f(1.0f); }\n");
        ASSERT_TRUE(err != NULL);
        ASSERT_CONTAINS(err, "t.cu:2:39: error: 'this' is not captured by the lambda");
    }
    lat_kernel *ks = t_kernel_as_written(ctx, src, "ks");
    static float in2[N], out2[N];
    t_rand_floats(in2, N, -2, 2);
    run_1d(ks, in2, out2, N);
    for (int i = 0; i < N; i++)
        ASSERT_MSG(out2[i] == in2[i ^ 1] * 2, "ks: out[%d] = %.9g, want %.9g", i, out2[i], in2[i ^ 1] * 2);
    lat_kernel *kp = t_kernel_as_written(ctx, src, "kp");
    run_1d(kp, in2, out2, N);
    for (int i = 0; i < N; i++) {
        double x = in2[i], want = (3 + x) + (2 * x + 3) * 10 + (x + 2) * 100 + 2 * x * 1000;
        ASSERT_MSG(t_close(out2[i], want, 1e-5, 1e-3), "kp: out[%d] = %.9g, want %.9g", i, out2[i], want);
    }
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    static float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        float x = in[i], v[4] = {x * 0.5f, x * 2.0f * 0.5f, 0.5f, -x * 0.5f};
        float sum = v[0], mx = v[0];
        for (int j = 1; j < 4; j++) {
            sum += v[j];
            mx = v[j] > mx ? v[j] : mx;
        }
        double want = sum + mx + 1 + 1.0 + 4 + (1 + N) + 7 + 0 + 3.0 * x + (x * x + 1 + 2 * x + 1);
        ASSERT_MSG(t_close(out[i], want, 1e-5, 1e-5), "out[%d] = %.9g, want %.9g", i, out[i], want);
    }
}

/* The traits that need the compiler's help, on its __is_* intrinsics: is_class, is_union,
 * is_enum, is_empty, is_array, is_trivially_copyable (a copy constructor of the program's
 * makes a class not), is_base_of; in static_assert, in std:: and cuda::std::, picking code
 * with if constexpr. */
TEST(compiler_backed_type_traits_in_static_asserts_and_if_constexpr)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <type_traits>\n"
        "#include <cuda/std/type_traits>\n"
        "struct P { float x, y; };\n"
        "struct C { int a; __device__ C() {} __device__ C(const C &o) : a(o.a + 1) {} };\n"
        "union U { int i; float f; };\n"
        "enum E { A, B };\n"
        "struct Empty {};\n"
        "struct D : P {};\n"
        "static_assert(std::is_trivially_copyable<P>::value, \"P\");\n"
        "static_assert(!std::is_trivially_copyable_v<C>, \"C\");\n"
        "static_assert(cuda::std::is_class_v<P> && !cuda::std::is_class_v<U> && std::is_union_v<U>, \"cls\");\n"
        "template <typename T> __device__ float pick(T v) {\n"
        "    if constexpr (std::is_class_v<T>) return v.x + v.y; else return (float)v;\n"
        "}\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    int flags = std::is_class<float4>::value * 1 + std::is_enum<E>::value * 2 + std::is_empty<Empty>::value * 4 +\n"
        "                std::is_array<int[3]>::value * 8 + std::is_base_of<P, D>::value * 16 +\n"
        "                std::is_base_of_v<D, P> * 32 + std::is_trivially_copyable_v<float[4]> * 64 +\n"
        "                std::is_class_v<int> * 128;\n"
        "    out[i] = flags + pick(P{in[i], 1.0f}) + pick(in[i]);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++)
        ASSERT_TRUE(t_close(out[i], 95 + (in[i] + 1.0f) + in[i], 1e-6, 1e-6));
}

/* std::common_type as generic accumulators use it (its pack partial specializations over
 * decltype of ?:), and ?: of two operands of one type keeping that type, as in C++. */
TEST(common_type_and_the_type_of_a_conditional_of_one_type)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <type_traits>\n"
        "#include <cuda/std/type_traits>\n"
        "static_assert(std::is_same<std::common_type_t<int, float>, float>::value, \"if\");\n"
        "static_assert(std::is_same<std::common_type_t<char, short>, int>::value, \"cs\");\n"
        "static_assert(std::is_same<std::common_type_t<char, char>, char>::value, \"cc\");\n"
        "static_assert(std::is_same<std::common_type_t<int, unsigned, long long, float>, float>::value, \"4\");\n"
        "static_assert(std::is_same<std::common_type_t<const int &, double>, double>::value, \"ref\");\n"
        "static_assert(std::is_same<cuda::std::common_type_t<unsigned, long long>, long long>::value, \"ull\");\n"
        "template <typename A, typename B> __device__ std::common_type_t<A, B> add(A a, B b) { return a + b; }\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    unsigned char c = (unsigned char)i, d = 3;\n"
        "    auto m = i % 2 ? c : d;\n"
        "    out[i] = add(in[i], 2) + add(1.5, i) + sizeof(m) * 100;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++)
        ASSERT_TRUE(t_close(out[i], (in[i] + 2) + (float)(1.5 + i) + 100, 1e-6, 1e-6));
}

/* Found by fuzz_launch_checked: a template whose declaration starts with '{' read a
 * punctuator's (absent) name as the variable template's (undefined behaviour). */
TEST(a_template_without_a_name_is_a_syntax_error)
{
    lat_context *ctx = t_context();
    if (!t_is_emu(ctx))
        SKIP("the emulator's own messages");
    const char *m = cxx_error(ctx, "template <typename T>{ truct B { T v; };\n"
                                   "__global__ void k(float *o) { B b; }\n");
    ASSERT_NOT_NULL(m);
    ASSERT_CONTAINS(m, "t.cu:1:22: error: expected the variable template's name before '{'");
}

/* A partial specialization whose argument is a type known only for real arguments, as a
 * whole (enable_if_t<is_integral<T>::value>, typename enable_if<...>::type,
 * typename id<T>::type, void_t<typename T::value_type>, void_t<decltype(...)>): deduction
 * passes over it, and the specialization takes an instance where its arguments,
 * substituted, exist and are the instance's (C++'s SFINAE for partial specializations).
 * enable_if and id ones were refused; void_t ones matched every type. */
TEST(partial_specializations_on_enable_if_and_void_t_match_as_cxx_substitutes)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <type_traits>\n"
        "template <typename T, typename Enable = void> struct Acc { static __device__ T scale(T x) { return x; } };\n"
        "template <typename T> struct Acc<T, std::enable_if_t<std::is_integral<T>::value>> {\n"
        "  static __device__ T scale(T x) { return x * 3; } };\n"
        "template <typename T> struct Acc<T, typename std::enable_if<std::is_floating_point<T>::value>::type> {\n"
        "  static __device__ T scale(T x) { return x * T(0.5); } };\n"
        "template <typename T> struct id { typedef T type; };\n"
        "template <typename T, typename U> struct Same { static const int v = 0; };\n"
        "template <typename T> struct Same<T, typename id<T>::type> { static const int v = 1; };\n"
        "template <typename T, typename = void> struct has_vt : std::false_type {};\n"
        "template <typename T> struct has_vt<T, std::void_t<typename T::value_type>> : std::true_type {};\n"
        "template <typename T, typename = void> struct has_get : std::false_type {};\n"
        "template <typename T> struct has_get<T, std::void_t<decltype(std::declval<T>().get(0))>> : std::true_type {};\n"
        "struct X { typedef int value_type; __device__ int get(int i) const { return i; } };\n"
        "struct Y { int v; };\n"
        "extern \"C\" __global__ void k(const int *in, const double *d, int *oi, double *od, int *flags) {\n"
        "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  oi[t] = Acc<int>::scale(in[t]) + (Acc<Y *>::scale(0) == 0 ? 7 : -1000);\n"
        "  od[t] = Acc<double>::scale(d[t]);\n"
        "  if (t == 0) {\n"
        "    flags[0] = Same<int, int>::v; flags[1] = Same<int, float>::v; flags[2] = has_vt<X>::value;\n"
        "    flags[3] = has_vt<Y>::value; flags[4] = has_get<X>::value; flags[5] = has_get<Y>::value;\n"
        "    flags[6] = Acc<unsigned char>::scale(50);\n"
        "  }\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    enum { n = 128 };
    int in[n], oi[n], flags[7];
    double d[n], od[n];
    for (int i = 0; i < n; i++) {
        in[i] = (int)(t_rand_u32() % 2001) - 1000;
        d[i] = t_rand_double(-10, 10);
    }
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {2}, .block = {64}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_in(d, sizeof d), lat_arg_out(oi, sizeof oi),
                                       lat_arg_out(od, sizeof od), lat_arg_out(flags, sizeof flags))));
    for (int i = 0; i < n; i++) {
        ASSERT_MSG(oi[i] == in[i] * 3 + 7, "oi[%d] = %d, want %d", i, oi[i], in[i] * 3 + 7);
        ASSERT_MSG(od[i] == d[i] * 0.5, "od[%d] = %.17g, want %.17g", i, od[i], d[i] * 0.5);
    }
    static const int want[7] = {1, 0, 1, 0, 1, 0, 150};
    for (int i = 0; i < 7; i++)
        ASSERT_MSG(flags[i] == want[i], "flags[%d] = %d, want %d", i, flags[i], want[i]);
}
