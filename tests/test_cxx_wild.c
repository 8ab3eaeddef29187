/* C++ as public CUDA code bases write it, found by trying their idioms on the emulator
 * (issue 42). The kernels are written here in those idioms, not copied: PyTorch-style
 * SFINAE with std:: qualified traits, __launch_bounds__ of a template parameter, softmax
 * with functor reductions. Each runs random inputs against a host reference. */
#include "harness.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { N = 256 };

static void run_1d(lat_kernel *k, const float *in, float *out, size_t n)
{
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {(unsigned)(n / 64)}, .block = {64}},
                              LAT_ARGS(lat_arg_in(in, n * sizeof *in), lat_arg_out(out, n * sizeof *out),
                                       lat_arg_i32((int)n))));
}

/* Every way the std:: traits select an overload: a value parameter of a dependent type
 * (enable_if<...>::type = 0, with and without the default void, through a pointer =
 * nullptr), enable_if_t, and a defaulted type parameter. The condition's std::is_integral<T>
 * is a qualified template name whose '<' opens arguments, not a comparison. */
TEST(sfinae_through_qualified_std_traits_picks_the_overload_the_type_allows)
{
    lat_context *ctx = t_context();
    static const char *const forms[] = {
        "typename std::enable_if<std::is_integral<T>::value>::type * = nullptr",
        "typename std::enable_if<std::is_integral<T>::value, int>::type = 0",
        "std::enable_if_t<std::is_integral<T>::value> * = nullptr",
        "std::enable_if_t<std::is_integral_v<T>, int> = 0",
        "typename = std::enable_if_t<std::is_integral<T>::value>",
    };
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        char src[1024];
        snprintf(src, sizeof src,
                 "#include <type_traits>\n"
                 "template <typename T, %s>\n"
                 "__device__ T twice(T x) { return x << 1; }\n"
                 "template <typename T, typename std::enable_if<std::is_floating_point<T>::value, int>::type = 0>\n"
                 "__device__ T twice(T x) { return x + x + 0.5f; }\n"
                 "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
                 "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "    if (i < n) out[i] = twice(in[i]) + (float)twice((int)(in[i] * 100.0f));\n"
                 "}\n",
                 forms[f]);
        lat_kernel *k = t_kernel_as_written(ctx, src, "k");
        float in[N], out[N];
        t_rand_floats(in, N, -4, 4);
        run_1d(k, in, out, N);
        for (int i = 0; i < N; i++)
            ASSERT_TRUE(out[i] == (in[i] + in[i] + 0.5f) + (float)((int)(in[i] * 100.0f) * 2));
    }
}

/* A row softmax written as ML code bases write it: __launch_bounds__ of the template's
 * block size between the return type and the name, reductions through functor templates
 * in a namespace, explicit instantiations with a defaulted accumulator type. */
TEST(templated_softmax_with_launch_bounds_of_a_template_parameter)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "namespace detail {\n"
        "template <typename T> struct Sum { __device__ T operator()(const T &a, const T &b) const { return a + b; } };\n"
        "template <typename T> struct Max { __device__ T operator()(const T &a, const T &b) const { return a > b ? a : b; } };\n"
        "}\n"
        "template <typename T, typename Op, int WIDTH = 32>\n"
        "__device__ __forceinline__ T warp_reduce(T v, Op op) {\n"
        "#pragma unroll\n"
        "    for (int o = WIDTH / 2; o > 0; o >>= 1) v = op(v, __shfl_xor_sync(0xffffffffu, v, o, WIDTH));\n"
        "    return v;\n"
        "}\n"
        "template <typename T, typename Op, int BLOCK>\n"
        "__device__ T block_reduce(T v, Op op, T identity) {\n"
        "    static_assert(BLOCK % 32 == 0, \"block must be warps\");\n"
        "    constexpr int kWarps = BLOCK / 32;\n"
        "    __shared__ T smem[kWarps];\n"
        "    const int lane = threadIdx.x % 32, wid = threadIdx.x / 32;\n"
        "    v = warp_reduce(v, op);\n"
        "    if (lane == 0) smem[wid] = v;\n"
        "    __syncthreads();\n"
        "    v = (threadIdx.x < kWarps) ? smem[lane] : identity;\n"
        "    if (wid == 0) v = warp_reduce<T, Op, kWarps>(v, op);\n"
        "    __syncthreads();\n"
        "    if (threadIdx.x == 0) smem[0] = v;\n"
        "    __syncthreads();\n"
        "    return smem[0];\n"
        "}\n"
        "template <typename scalar_t, typename acc_t = float, int BLOCK = 128>\n"
        "__global__ void __launch_bounds__(BLOCK) row_softmax(const scalar_t *__restrict__ in,\n"
        "                                                     scalar_t *__restrict__ out, int cols) {\n"
        "    const scalar_t *row = in + (size_t)blockIdx.x * cols;\n"
        "    scalar_t *orow = out + (size_t)blockIdx.x * cols;\n"
        "    acc_t mx = -INFINITY;\n"
        "    for (int c = threadIdx.x; c < cols; c += BLOCK) mx = fmaxf(mx, static_cast<acc_t>(row[c]));\n"
        "    acc_t m = block_reduce<acc_t, detail::Max<acc_t>, BLOCK>(mx, detail::Max<acc_t>{}, -INFINITY);\n"
        "    acc_t sum = 0;\n"
        "    for (int c = threadIdx.x; c < cols; c += BLOCK) sum += expf(static_cast<acc_t>(row[c]) - m);\n"
        "    acc_t s = block_reduce<acc_t, detail::Sum<acc_t>, BLOCK>(sum, detail::Sum<acc_t>(), acc_t(0));\n"
        "    for (int c = threadIdx.x; c < cols; c += BLOCK)\n"
        "        orow[c] = static_cast<scalar_t>(expf(static_cast<acc_t>(row[c]) - m) / s);\n"
        "}\n"
        "template __global__ void row_softmax<float>(const float *, float *, int);\n";
    lat_module *mod;
    static const char *const names[] = {"row_softmax<float>", NULL};
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "sm.cu", .no_extern_c = 1,
                                                         .name_expressions = names},
                                &mod));
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(mod, "row_softmax<float>", &k));
    enum { ROWS = 4, COLS = 300 };
    static float in[ROWS * COLS], out[ROWS * COLS];
    t_rand_floats(in, ROWS * COLS, -5, 5);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {ROWS}, .block = {128}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out), lat_arg_i32(COLS))));
    for (int r = 0; r < ROWS; r++) {
        double m = -INFINITY, s = 0;
        for (int c = 0; c < COLS; c++)
            m = fmax(m, in[r * COLS + c]);
        for (int c = 0; c < COLS; c++)
            s += exp(in[r * COLS + c] - m);
        for (int c = 0; c < COLS; c++)
            ASSERT_TRUE(t_close(out[r * COLS + c], exp(in[r * COLS + c] - m) / s, 1e-4, 1e-7));
    }
    lat_module_destroy(mod);
}

/* A class template whose members are declared in the class and defined after it, as
 * cuda-samples' interval_gpu and many libraries write them: constructors with and without
 * an initializer list, a const member returning a const reference, an operator returning
 * *this, a static member, its parameters renamed in one definition, and a plain function
 * that uses an instance before the definitions are read. */
TEST(class_template_members_defined_outside_the_class_serve_every_instance)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <class T, int N>\n"
        "struct Acc {\n"
        "    __device__ Acc();\n"
        "    __device__ explicit Acc(T init);\n"
        "    __device__ Acc(T lo, T hi);\n"
        "    __device__ Acc &operator+=(const Acc &o);\n"
        "    __device__ T total() const;\n"
        "    __device__ T const &at(int i) const;\n"
        "    static __device__ Acc ones();\n"
        "private:\n"
        "    T v[N];\n"
        "    T bias;\n"
        "};\n"
        "__device__ float early(float x) { Acc<float, 4> a(x); a += Acc<float, 4>::ones(); return a.total(); }\n"
        "template <class T, int N> __device__ Acc<T, N>::Acc() : bias(0) { for (int i = 0; i < N; i++) v[i] = T(0); }\n"
        "template <class T, int N> __device__ Acc<T, N>::Acc(T init) : bias(0) {\n"
        "    for (int i = 0; i < N; i++) v[i] = init * (i + 1);\n"
        "}\n"
        "template <class T, int N> inline __device__ Acc<T, N>::Acc(T lo, T hi) : bias(hi - lo) {\n"
        "    for (int i = 0; i < N; i++) v[i] = lo;\n"
        "}\n"
        "template <class T, int N> __device__ Acc<T, N> &Acc<T, N>::operator+=(const Acc &o) {\n"
        "    for (int i = 0; i < N; i++) v[i] += o.v[i];\n"
        "    bias += o.bias;\n"
        "    return *this;\n"
        "}\n"
        "template <class T, int N> __device__ T Acc<T, N>::total() const {\n"
        "    T s = bias;\n"
        "    for (int i = 0; i < N; i++) s += v[i];\n"
        "    return s;\n"
        "}\n"
        "template <class T, int N> __device__ T const &Acc<T, N>::at(int i) const { return v[i]; }\n"
        "template <class U, int M> __device__ Acc<U, M> Acc<U, M>::ones() { return Acc<U, M>(U(1)); }\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    Acc<double, 3> d(in[i]), z;\n"
        "    z += d;\n"
        "    z += Acc<double, 3>(1.0, in[i]);\n"
        "    out[i] = early(in[i]) + (float)z.total() + (float)z.at(2);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        float x = in[i];
        float early = (x * 1 + 1) + (x * 2 + 2) + (x * 3 + 3) + (x * 4 + 4);
        double d = x, z = (d * 1 + 1) + (d * 2 + 1) + (d * 3 + 1) + (d - 1.0), at2 = d * 3 + 1;
        ASSERT_TRUE(t_close(out[i], early + (float)z + (float)at2, 1e-5, 1e-5));
    }
}

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

/* C++17 in newer kernels: structured bindings of a struct (a pair a function returns, a
 * reference to one that is then written through, const), a class's static constexpr
 * table, a __device__ constexpr array. */
TEST(structured_bindings_and_static_constexpr_tables)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <cuda/std/utility>\n"
        "__device__ constexpr float kTable[4] = {0.5f, 1.0f, 1.5f, 2.0f};\n"
        "struct Lut { static constexpr int offs[4] = {3, 1, 2, 0}; static constexpr float w[] = {2.f, 4.f}; };\n"
        "struct MinMax { float lo; float hi; int where; };\n"
        "__device__ cuda::std::pair<float, int> best(float a, int ia, float b, int ib) {\n"
        "    return a >= b ? cuda::std::make_pair(a, ia) : cuda::std::make_pair(b, ib);\n"
        "}\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    auto [v, idx] = best(in[i], i, 0.25f, -1);\n"
        "    MinMax m{in[i], in[i] + 1.0f, i};\n"
        "    auto &[lo, hi, where] = m;\n"
        "    hi *= 2.0f;\n"
        "    where += 3;\n"
        "    const auto [clo, chi, cw] = m;\n"
        "    out[i] = v + idx + kTable[i % 4] * Lut::offs[i % 4] + Lut::w[i % 2] + lo + m.hi + (float)m.where +\n"
        "             chi + (float)cw;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -1, 1);
    run_1d(k, in, out, N);
    static const float table[4] = {0.5f, 1.0f, 1.5f, 2.0f}, w[2] = {2.f, 4.f};
    static const int offs[4] = {3, 1, 2, 0};
    for (int i = 0; i < N; i++) {
        float v = in[i] >= 0.25f ? in[i] : 0.25f;
        int idx = in[i] >= 0.25f ? i : -1;
        float hi = (in[i] + 1.0f) * 2.0f;
        float want = v + idx + table[i % 4] * offs[i % 4] + w[i % 2] + in[i] + hi + (float)(i + 3) + hi + (float)(i + 3);
        ASSERT_TRUE(t_close(out[i], want, 1e-6, 1e-6));
    }
    /* What it does not bind is refused, naming it. An array's binding by value is C++17
     * (NVRTC runs it): the emulator's refusal; too few names is an error in C++ too. */
    const char *err;
    if (t_is_emu(ctx)) {
        err = cxx_error(ctx, "__global__ void k(float *o) { float a[2] = {1, 2}; auto [x, y] = a; o[0] = x; }\n");
        ASSERT_TRUE(err != NULL);
        ASSERT_CONTAINS(err, "a structured binding of anything but a struct");
    }
    err = cxx_error(ctx, "struct P { int a, b; };\n"
                         "__global__ void k(int *o) { P p{1, 2}; auto [x] = p; o[0] = x; }\n");
    ASSERT_TRUE(err != NULL);
    if (t_is_emu(ctx))
        ASSERT_CONTAINS(err, "a structured binding of 1 names to struct P, which has 2 data members");
}

/* Range-based for over classes with begin() and end(): std::array, a container of the
 * program's (const and non-const overloads), written through a reference, with break. */
TEST(range_for_over_classes_with_begin_and_end)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <array>\n"
        "template <typename T, int N> struct Vec {\n"
        "    T d[N];\n"
        "    __device__ T *begin() { return d; }\n"
        "    __device__ T *end() { return d + N; }\n"
        "    __device__ const T *begin() const { return d; }\n"
        "    __device__ const T *end() const { return d + N; }\n"
        "};\n"
        "extern \"C\" __global__ void k(const float *x, float *o, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    std::array<float, 3> w{1.f, 2.f, x[i]};\n"
        "    float acc = 0;\n"
        "    for (auto v : w) acc += v;\n"
        "    Vec<float, 4> q{{x[i], 1.f, 2.f, 3.f}};\n"
        "    for (float &e : q) e *= 2.f;\n"
        "    const Vec<float, 4> &cq = q;\n"
        "    for (const auto &e : cq) { if (e > 5.f) break; acc += e; }\n"
        "    o[i] = acc + w.size();\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, 0, 4);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        float acc = 1.f + 2.f + in[i], q[4] = {in[i] * 2.f, 2.f, 4.f, 6.f};
        for (int j = 0; j < 4 && q[j] <= 5.f; j++)
            acc += q[j];
        ASSERT_TRUE(t_close(out[i], acc + 3, 1e-6, 1e-6));
    }
}

/* PyTorch's style: C++17 nested namespace definitions (namespace at::native {), a
 * namespace reopened that way, block reductions parameterised by a block-shape struct
 * with static member functions, launch bounds from a namespace's constexpr. */
TEST(nested_namespace_definitions_and_block_shape_policies)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#define C10_WARP_SIZE 32\n"
        "namespace at::native::cuda_utils {\n"
        "constexpr int kNumThreads = 128;\n"
        "template <typename T> __inline__ __device__ T WarpReduceSum(T val) {\n"
        "#pragma unroll\n"
        "  for (int offset = (C10_WARP_SIZE >> 1); offset > 0; offset >>= 1) val += __shfl_down_sync(0xffffffff, val, offset);\n"
        "  return val;\n"
        "}\n"
        "struct Block1D {\n"
        "  static __forceinline__ __device__ int Tid() { return threadIdx.x; }\n"
        "  static __forceinline__ __device__ int Warps() { return blockDim.x / C10_WARP_SIZE; }\n"
        "};\n"
        "}\n"
        "namespace at::native::cuda_utils {\n"
        "template <typename T, typename B = Block1D>\n"
        "__inline__ __device__ T BlockReduceSum(T val, T *shared) {\n"
        "  const int tid = B::Tid(), lid = tid % C10_WARP_SIZE, wid = tid / C10_WARP_SIZE;\n"
        "  val = WarpReduceSum(val);\n"
        "  __syncthreads();\n"
        "  if (lid == 0) shared[wid] = val;\n"
        "  __syncthreads();\n"
        "  val = (tid < B::Warps()) ? shared[lid] : T(0);\n"
        "  if (wid == 0) val = WarpReduceSum(val);\n"
        "  return val;\n"
        "}\n"
        "}\n"
        "namespace at::native {\n"
        "extern \"C\" __global__ void __launch_bounds__(cuda_utils::kNumThreads)\n"
        "row_sum(const float *X, float *Y, long long N) {\n"
        "  using namespace at::native::cuda_utils;\n"
        "  __shared__ float shared[C10_WARP_SIZE];\n"
        "  float s = 0;\n"
        "  for (long long j = threadIdx.x; j < N; j += blockDim.x) s += X[blockIdx.x * N + j];\n"
        "  s = BlockReduceSum<float>(s, shared);\n"
        "  if (threadIdx.x == 0) Y[blockIdx.x] = s;\n"
        "}\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "row_sum");
    enum { ROWS = 4, COLS = 300 };
    static float x[ROWS * COLS], y[ROWS];
    t_rand_floats(x, ROWS * COLS, -1, 1);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {ROWS}, .block = {128}},
                              LAT_ARGS(lat_arg_in(x, sizeof x), lat_arg_out(y, sizeof y), lat_arg_i64(COLS))));
    for (int r = 0; r < ROWS; r++) {
        double s = 0;
        for (int c = 0; c < COLS; c++)
            s += x[r * COLS + c];
        ASSERT_TRUE(t_close(y[r], s, 1e-4, 1e-5));
    }
}

/* cub's block-wide primitives: a TempStorage that derives from the storage struct without
 * adding data, bound to the primitive's reference member, in shared memory; a member
 * template reducing with a lambda. A derived class with data of its own beside its base's
 * is refused, naming it. */
TEST(cub_style_temp_storage_derived_from_its_storage_struct)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <typename T, int BLOCK_THREADS>\n"
        "class BlockReduce {\n"
        "    static constexpr int WARPS = BLOCK_THREADS / 32;\n"
        "    struct _TempStorage { T warp_aggregates[WARPS]; };\n"
        "public:\n"
        "    struct TempStorage : _TempStorage {};\n"
        "private:\n"
        "    _TempStorage &temp;\n"
        "public:\n"
        "    __device__ __forceinline__ BlockReduce(TempStorage &t) : temp(t) {}\n"
        "    template <typename Op> __device__ __forceinline__ T Reduce(T v, Op op) {\n"
        "        for (int o = 16; o > 0; o >>= 1) v = op(v, __shfl_down_sync(0xffffffffu, v, o));\n"
        "        int lane = threadIdx.x % 32, w = threadIdx.x / 32;\n"
        "        if (lane == 0) temp.warp_aggregates[w] = v;\n"
        "        __syncthreads();\n"
        "        if (threadIdx.x == 0) for (int i = 1; i < WARPS; i++) v = op(v, temp.warp_aggregates[i]);\n"
        "        return v;\n"
        "    }\n"
        "    __device__ __forceinline__ T Sum(T v) { return Reduce(v, [](T a, T b) { return a + b; }); }\n"
        "};\n"
        "template <int BLOCK>\n"
        "__global__ void block_sum(const float *in, float *out) {\n"
        "    typedef BlockReduce<float, BLOCK> BR;\n"
        "    __shared__ typename BR::TempStorage tmp;\n"
        "    float s = BR(tmp).Sum(in[blockIdx.x * BLOCK + threadIdx.x]);\n"
        "    if (threadIdx.x == 0) out[blockIdx.x] = s;\n"
        "}\n"
        "template __global__ void block_sum<128>(const float *, float *);\n";
    lat_module *mod;
    static const char *const names[] = {"block_sum<128>", NULL};
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "cub.cu", .no_extern_c = 1,
                                                         .name_expressions = names},
                                &mod));
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(mod, "block_sum<128>", &k));
    enum { BLOCKS = 4 };
    static float in[BLOCKS * 128], out[BLOCKS];
    t_rand_floats(in, BLOCKS * 128, -1, 1);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {BLOCKS}, .block = {128}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out))));
    for (int b = 0; b < BLOCKS; b++) {
        double s = 0;
        for (int i = 0; i < 128; i++)
            s += in[b * 128 + i];
        ASSERT_TRUE(t_close(out[b], s, 1e-4, 1e-5));
    }
    lat_module_destroy(mod);
    if (!t_is_emu(ctx))
        return; /* two bases are C++ that NVRTC compiles: the emulator's refusal */
    const char *err = cxx_error(ctx, "struct B { float x; };\n"
                                     "struct D : virtual B { float y; };\n"
                                     "__global__ void k(float *o) { D d; d.y = 1; o[0] = d.y; }\n");
    ASSERT_TRUE(err != NULL);
    ASSERT_CONTAINS(err, "t.cu:2:12: error: a virtual base class");
}

/* T x(U(0.1f) * a, U(0.3f)), T x(U(a) * b, ...): functional casts of literals, or followed
 * by an operator, are arguments, so this is an object built by its constructor, not a
 * function's declaration (C++ takes T x(U(y)) and T x(U()) as declarations, and so does
 * the emulator). */
TEST(functional_casts_of_literals_in_a_constructors_arguments_are_arguments)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct Pair { float a, b; __device__ Pair(float x, float y) : a(x), b(y) {} };\n"
        "struct Box { Pair p; __device__ Box(Pair q) : p(q) {} };\n"
        "template <class T> __device__ T run(const T *in, int i) {\n"
        "    Pair y(T(0.1f) * in[i], T(0.3f));\n"
        "    Pair z(float(2), in[i]);\n"
        "    Box b(Pair{1.f, 2.f});\n"
        "    Pair w(float(in[i]) * 2.f, float(i) + 1.f);\n"
        "    return y.a + y.b + z.a * z.b + b.p.b + w.a + w.b;\n"
        "}\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) out[i] = run(in, i);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++)
        ASSERT_TRUE(t_close(out[i], 0.1f * in[i] + 0.3f + 2.0f * in[i] + 2.0f + in[i] * 2.f + (float)i + 1.f, 1e-6, 1e-5));
}

/* A base's member functions called on a derived object (d.f(), const and through a
 * pointer) and by their plain names in the derived class's own, for a base with data under
 * a class that adds none and for an empty base. */
TEST(base_member_functions_are_called_through_derived_objects)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct Store { float v[2];\n"
        "    __device__ float sum() const { return v[0] + v[1]; }\n"
        "    __device__ void scale(float k) { v[0] *= k; v[1] *= k; } };\n"
        "struct Temp : Store {};\n"
        "struct Tag { __device__ int id() const { return 7; } };\n"
        "struct Tagged : Tag { float x; __device__ int twice_id() const { return id() + id(); } };\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    Temp t{};\n"
        "    t.v[0] = 1.f; t.v[1] = in[i];\n"
        "    t.scale(2.f);\n"
        "    const Temp &ct = t;\n"
        "    Temp *pt = &t;\n"
        "    Tagged g; g.x = in[i];\n"
        "    out[i] = t.sum() + ct.sum() + pt->sum() + g.id() + g.x + g.twice_id();\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++)
        ASSERT_TRUE(t_close(out[i], 3 * (2.f + 2.f * in[i]) + 7 + in[i] + 14, 1e-6, 1e-6));
}

/* ggml's conversions: a function template choosing by if constexpr on std::is_same_v, a
 * functional cast float(x) of a half or a bfloat16 (the class's conversion operator), a
 * static constexpr __device__ function giving a local constexpr, [[maybe_unused]]. */
TEST(ggml_style_casts_through_if_constexpr_and_functional_casts_of_halves)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <cuda_fp16.h>\n"
        "#include <cuda_bf16.h>\n"
        "#include <type_traits>\n"
        "template<typename dst_t, typename src_t>\n"
        "__host__ __device__ inline dst_t ggml_cuda_cast(src_t x) {\n"
        "    if constexpr (std::is_same_v<dst_t, src_t>) {\n"
        "        return x;\n"
        "    } else if constexpr(std::is_same_v<dst_t, nv_bfloat16>) {\n"
        "        return __float2bfloat16(float(x));\n"
        "    } else if constexpr(std::is_same_v<src_t, nv_bfloat16>) {\n"
        "        return __bfloat162float(x);\n"
        "    } else if constexpr(std::is_same_v<dst_t, int32_t>) {\n"
        "        return int32_t(x);\n"
        "    } else {\n"
        "        return float(x);\n"
        "    }\n"
        "}\n"
        "static constexpr __device__ int physical_warp_size() { return 32; }\n"
        "extern \"C\" __global__ void k(const float *x, float *y, int n) {\n"
        "    constexpr int warp_size = physical_warp_size();\n"
        "    const int i = blockDim.x * blockIdx.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    [[maybe_unused]] const int lane = threadIdx.x % warp_size;\n"
        "    half h = ggml_cuda_cast<half>(x[i]);\n"
        "    nv_bfloat16 b = ggml_cuda_cast<nv_bfloat16>(h);\n"
        "    y[i] = ggml_cuda_cast<float>(h) + ggml_cuda_cast<float>(b) * 100.0f + ggml_cuda_cast<int32_t>(h) * 10000;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = (float)((int)(t_rand_u32() % 255) - 127) / 4.0f; /* exact in half and bfloat16 */
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++)
        ASSERT_TRUE(out[i] == in[i] + in[i] * 100.0f + (float)((int)in[i] * 10000));
}

/* ggml's binary broadcast: a template parameter that is a pointer to a function written
 * in place (float (*bin_op)(const float, const float), its name inside the declarator), a
 * pack of pointer types, a comma fold calling it over the pack, if constexpr on sizeof...,
 * kernels named by their explicit instantiations. */
TEST(ggml_style_function_pointer_parameters_written_in_place_with_a_pointer_pack)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "static __device__ __forceinline__ float op_add(const float a, const float b) { return a + b; }\n"
        "static __device__ __forceinline__ float op_mul(const float a, const float b) { return a * b; }\n"
        "template <float (*bin_op)(const float, const float), typename src0_t, typename src1_t, typename dst_t,\n"
        "          typename... src1_ptrs>\n"
        "static __global__ void k_bin(const src0_t *src0, const src1_t *src1, dst_t *dst, const int ne0,\n"
        "                             src1_ptrs... src1s) {\n"
        "    const int i0 = blockDim.x * blockIdx.x + threadIdx.x;\n"
        "    if (i0 >= ne0) return;\n"
        "    float result = src0 ? (float)src0[i0] : 0.0f;\n"
        "    if constexpr (sizeof...(src1_ptrs) > 0) {\n"
        "        result = (..., (result = bin_op(result, (float)src1s[i0])));\n"
        "    } else {\n"
        "        result = bin_op(result, (float)src1[i0]);\n"
        "    }\n"
        "    dst[i0] = (dst_t)result;\n"
        "}\n"
        "template __global__ void k_bin<op_add, float, float, float>(const float *, const float *, float *, const int);\n"
        "template __global__ void k_bin<op_mul, float, float, float, const float *, const float *>(\n"
        "    const float *, const float *, float *, const int, const float *, const float *);\n";
    static const char *const names[] = {"k_bin<op_add, float, float, float>",
                                        "k_bin<op_mul, float, float, float, const float *, const float *>", NULL};
    lat_module *mod;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "bin.cu", .no_extern_c = 1,
                                                         .name_expressions = names},
                                &mod));
    float a[N], b[N], c[N], d[N], out[N];
    t_rand_floats(a, N, -2, 2);
    t_rand_floats(b, N, -2, 2);
    t_rand_floats(c, N, -2, 2);
    t_rand_floats(d, N, -2, 2);
    lat_kernel *add, *mul;
    ASSERT_OK(lat_module_get_kernel(mod, names[0], &add));
    ASSERT_OK(lat_module_get_kernel(mod, names[1], &mul));
    ASSERT_OK(lat_launch_args(add, &(lat_launch_desc){.grid = {N / 64}, .block = {64}},
                              LAT_ARGS(lat_arg_in(a, sizeof a), lat_arg_in(b, sizeof b), lat_arg_out(out, sizeof out),
                                       lat_arg_i32(N))));
    for (int i = 0; i < N; i++)
        ASSERT_TRUE(out[i] == a[i] + b[i]);
    ASSERT_OK(lat_launch_args(mul, &(lat_launch_desc){.grid = {N / 64}, .block = {64}},
                              LAT_ARGS(lat_arg_in(a, sizeof a), lat_arg_in(b, sizeof b), lat_arg_out(out, sizeof out),
                                       lat_arg_i32(N), lat_arg_in(c, sizeof c), lat_arg_in(d, sizeof d))));
    for (int i = 0; i < N; i++)
        ASSERT_TRUE(out[i] == (a[i] * c[i]) * d[i]);
    lat_module_destroy(mod);
}

/* The curiously recurring template pattern: a class named in its own base's arguments
 * (struct Sq : Shape<Sq>), the base's member functions reaching the derived class through
 * static_cast<const D *>(this), made once the derived class is complete; called on the
 * derived object. Two derived classes of one base template. */
TEST(crtp_bases_reach_their_derived_class_through_static_cast)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <class D> struct Shape {\n"
        "    __device__ float area() const { return static_cast<const D *>(this)->area_impl(); }\n"
        "    __device__ float twice() const { return 2.f * area(); }\n"
        "};\n"
        "struct Sq : Shape<Sq> { float s; __device__ float area_impl() const { return s * s; } };\n"
        "struct Rect : public Shape<Rect> { float w, h; __device__ float area_impl() const { return w * h; } };\n"
        "template <class S> __device__ float total(const Shape<S> &a, const Shape<S> &b) { return a.area() + b.area(); }\n"
        "__device__ float via(const Shape<Sq> *s) { return s->area(); }\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    Sq q; q.s = in[i];\n"
        "    Rect r; r.w = in[i]; r.h = 3.f;\n"
        "    const Shape<Sq> *ps = &q;\n"
        "    out[i] = q.twice() + r.area() + total<Rect>(r, r) + via(&q) + ps->area();\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++)
        ASSERT_TRUE(t_close(out[i], 4.f * in[i] * in[i] + 3.f * in[i] * 3.f, 1e-5, 1e-5));
}

/* CUB's BlockReduce as it is written: a class template over a TempStorage struct in
 * __shared__ (one in a union with another instance's), reduction functors with member
 * templates, and two member templates of one name, Reduce(T, op) and Reduce(T (&)[N],
 * op): an array of items takes the second, whose bound N is deduced, where the parameter
 * of a fixed element type used to rank as a fixed type and refused the call. */
TEST(cub_block_reduce_over_an_array_of_items_deduces_its_bound)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "namespace mycub {\n"
        "struct Sum { template <class T> __device__ __forceinline__ T operator()(const T &a, const T &b) const { return a + b; } };\n"
        "struct Max { template <class T> __device__ __forceinline__ T operator()(const T &a, const T &b) const { return (b > a) ? b : a; } };\n"
        "template <typename T, int BLOCK_DIM_X>\n"
        "class BlockReduce {\n"
        "    enum { WARPS = (BLOCK_DIM_X + 31) / 32 };\n"
        "    struct _TempStorage { T warp_aggregates[WARPS]; };\n"
        "    _TempStorage &temp_storage;\n"
        "    unsigned int linear_tid;\n"
        "public:\n"
        "    struct TempStorage : _TempStorage {};\n"
        "    __device__ __forceinline__ BlockReduce(TempStorage &ts) : temp_storage(ts), linear_tid(threadIdx.x) {}\n"
        "    template <typename ReductionOp>\n"
        "    __device__ __forceinline__ T Reduce(T input, ReductionOp op) {\n"
        "        int warp = linear_tid / 32;\n"
        "#pragma unroll\n"
        "        for (int o = 1; o < 32; o *= 2) input = op(input, __shfl_xor_sync(0xffffffffu, input, o));\n"
        "        if (linear_tid % 32 == 0) temp_storage.warp_aggregates[warp] = input;\n"
        "        __syncthreads();\n"
        "        if (linear_tid == 0)\n"
        "            for (int w = 1; w < WARPS; ++w) input = op(input, temp_storage.warp_aggregates[w]);\n"
        "        return input;\n"
        "    }\n"
        "    template <int ITEMS, typename ReductionOp>\n"
        "    __device__ __forceinline__ T Reduce(T (&inputs)[ITEMS], ReductionOp op) {\n"
        "        T p = inputs[0];\n"
        "#pragma unroll\n"
        "        for (int i = 1; i < ITEMS; i++) p = op(p, inputs[i]);\n"
        "        return Reduce(p, op);\n"
        "    }\n"
        "    template <int ITEMS>\n"
        "    __device__ __forceinline__ T Sum(T (&inputs)[ITEMS]) { return Reduce(inputs, mycub::Sum()); }\n"
        "    __device__ __forceinline__ T Sum(T input) { return Reduce(input, mycub::Sum()); }\n"
        "};\n"
        "}\n"
        "template <int BLOCK, int IPT>\n"
        "__global__ void block_sums(const float *in, float *out, int n) {\n"
        "    using BR = mycub::BlockReduce<float, BLOCK>;\n"
        "    __shared__ union { typename BR::TempStorage f; typename mycub::BlockReduce<int, BLOCK>::TempStorage i; } tmp;\n"
        "    float items[IPT];\n"
        "#pragma unroll\n"
        "    for (int i = 0; i < IPT; i++) {\n"
        "        int idx = blockIdx.x * BLOCK * IPT + i * BLOCK + threadIdx.x;\n"
        "        items[i] = idx < n ? in[idx] : 0.0f;\n"
        "    }\n"
        "    float s = BR(tmp.f).Sum(items);\n"
        "    __syncthreads();\n"
        "    float m = BR(tmp.f).Reduce(items, mycub::Max());\n"
        "    __syncthreads();\n"
        "    int c = mycub::BlockReduce<int, BLOCK>(tmp.i).Sum(items[0] > 0.0f ? 1 : 0);\n"
        "    if (threadIdx.x == 0) { out[blockIdx.x * 3] = s; out[blockIdx.x * 3 + 1] = m; out[blockIdx.x * 3 + 2] = (float)c; }\n"
        "}\n"
        "template __global__ void block_sums<64, 3>(const float *, float *, int);\n";
    static const char *const names[] = {"block_sums<64, 3>", NULL};
    lat_module *mod;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "cub.cu", .no_extern_c = 1,
                                                         .name_expressions = names},
                                &mod));
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(mod, names[0], &k));
    enum { BLOCKS = 3, PER = 64 * 3, TOTAL = BLOCKS * PER - 5 };
    static float in[BLOCKS * PER], out[BLOCKS * 3];
    t_rand_floats(in, TOTAL, -2, 2);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {BLOCKS}, .block = {64}},
                              LAT_ARGS(lat_arg_in(in, TOTAL * sizeof *in), lat_arg_out(out, sizeof out),
                                       lat_arg_i32(TOTAL))));
    for (int b = 0; b < BLOCKS; b++) {
        double s = 0;
        float m = -INFINITY;
        int c = 0;
        for (int i = 0; i < PER; i++) {
            int idx = b * PER + i;
            float v = idx < TOTAL ? in[idx] : 0.0f;
            s += v;
            m = fmaxf(m, v);
            c += (i < 64) && v > 0.0f; /* items[0] of each thread: the block's first 64 */
        }
        ASSERT_TRUE(t_close(out[b * 3], (float)s, 1e-4, 1e-4));
        ASSERT_TRUE(out[b * 3 + 1] == m);
        ASSERT_TRUE(out[b * 3 + 2] == (float)c);
    }
    lat_module_destroy(mod);
}

/* decltype(auto) as generic code writes it: a function template returning (c.v[0]) (a
 * reference, which the caller assigns through), a member returning (*this)[i] (what
 * operator[] returns: a reference) or a sum (a value), a perfect-forwarding invoke, and
 * variables declared decltype(auto) (a reference for (z) and for a call returning one, a
 * copy for a value). Also a decltype(e) return type on a function template. */
TEST(decltype_auto_returns_references_where_cxx_does)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <typename T = float, int N = 4> struct Vec {\n"
        "    T v[N];\n"
        "    __device__ T &operator[](int i) { return v[i]; }\n"
        "    __device__ decltype(auto) at(int i) { return (*this)[i]; }\n"
        "    __device__ decltype(auto) plus(int i) const { return v[i] + 0; }\n"
        "};\n"
        "template <typename T> __device__ decltype(auto) front(T &c) { return (c.v[0]); }\n"
        "__device__ decltype(auto) second(Vec<> &c) { return c.v[1]; }\n"
        "template <typename F, typename... A> __device__ decltype(auto) invoke(F &&f, A &&...a) { return f(a...); }\n"
        "template <class A, class B> __device__ decltype(A() * B()) mul(A a, B b) { return a * b; }\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    float x = in[i];\n"
        "    Vec<> v{};\n"
        "    for (int j = 0; j < 4; j++) v.v[j] = x + j;\n"
        "    front(v) = 2.f * x;\n"
        "    v.at(2) = second(v) * 3.f;\n"
        "    decltype(auto) r = v.at(3); r = -x;\n"
        "    decltype(auto) c = v.plus(1); c = 100.f;\n"
        "    float z = 1.f; decltype(auto) zr = (z); zr = x * x;\n"
        "    out[i] = v.v[0] + v.v[1] + v.v[2] + v.v[3] + z + invoke([](float a, float b) { return a - b; }, c, x)\n"
        "             + mul(x, 2);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        float x = in[i];
        float want = 2.f * x + (x + 1) + (x + 1) * 3.f + -x + x * x + (100.f - x) + x * 2;
        ASSERT_TRUE(t_close(out[i], want, 1e-5, 1e-5));
    }
}

/* Structured bindings in a range-based for (for (auto &[k, v] : pairs), const and by
 * copy): each element bound by its data members, a copy's changes left in the copy. */
TEST(structured_bindings_in_a_range_for_bind_each_element)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct KV { int key; float value; };\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    KV kv[3] = {{1, in[i]}, {2, in[(i + 1) % n]}, {3, 0.5f}};\n"
        "    for (auto &[key, value] : kv) value *= key;\n"
        "    for (auto [key, value] : kv) value = 0.f;\n"
        "    float s = 0;\n"
        "    for (const auto &[key, value] : kv) s += key + value;\n"
        "    out[i] = s;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++)
        ASSERT_TRUE(t_close(out[i], 6.f + in[i] + 2.f * in[(i + 1) % N] + 1.5f, 1e-5, 1e-5));
}

/* Default arguments that depend on a function template's parameter (a clamp's bounds
 * from std::numeric_limits<T>, a reduction's identity T(), T(1)), in a free template and
 * in a member template of a class template: read for deduction with T unknown they were
 * refused ("a value-initialised aggregate T()", "cannot convert int to void"); each
 * instance reads them with its own T. */
TEST(default_arguments_of_a_template_parameter_type_are_the_instances)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <limits>\n"
        "template <typename T>\n"
        "__device__ T clamp_to(T v, T lo = std::numeric_limits<T>::lowest(), T hi = std::numeric_limits<T>::max()) {\n"
        "    return v < lo ? lo : v > hi ? hi : v;\n"
        "}\n"
        "template <typename T> __device__ T scaled(T v, T s = T(1), T add = T()) { return v * s + add; }\n"
        "template <typename T> struct Acc {\n"
        "    T total;\n"
        "    template <typename U> __device__ void add(U u, T weight = T(2)) { total += static_cast<T>(u) * weight; }\n"
        "};\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    float x = in[i];\n"
        "    int q = (int)(x * 1000.0f);\n"
        "    Acc<float> a{0.0f};\n"
        "    a.add(x);\n"
        "    a.add(q, 0.001f);\n"
        "    out[i] = clamp_to(x) + clamp_to(x, -1.0f) + clamp_to(x, -1.0f, 1.0f) + (float)clamp_to(q, -500)\n"
        "             + scaled(x) + scaled(x, 3.0f) + (float)scaled(q, 2, 1) + a.total;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        float x = in[i];
        int q = (int)(x * 1000.0f);
        float want = x + fmaxf(x, -1.0f) + fminf(fmaxf(x, -1.0f), 1.0f) + (float)(q < -500 ? -500 : q) + x + x * 3.0f +
                     (float)(q * 2 + 1) + (x * 2.0f + (float)q * 0.001f);
        ASSERT_TRUE(t_close(out[i], want, 1e-4, 1e-4));
    }
}

/* PyTorch's function_traits as ATen's elementwise loops use it: the primary template
 * takes a functor or lambda apart through decltype(&T::operator()), a pointer to member
 * function type R (C::*)(Args...) const matched by a partial specialization (and the
 * non-const one for a mutable lambda), then arity, result_type and arg<i>::type drive
 * invoke_impl over an index_sequence of the arguments' byte pointers and strides. */
TEST(pytorch_function_traits_take_lambdas_apart_through_pointers_to_members)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <tuple>\n"
        "#include <type_traits>\n"
        "#include <utility>\n"
        "#include <cstdint>\n"
        "template <typename T> struct function_traits : public function_traits<decltype(&T::operator())> {};\n"
        "template <typename ClassType, typename ReturnType, typename... Args>\n"
        "struct function_traits<ReturnType (ClassType::*)(Args...) const> : public function_traits<ReturnType(Args...)> {};\n"
        "template <typename ClassType, typename ReturnType, typename... Args>\n"
        "struct function_traits<ReturnType (ClassType::*)(Args...)> : public function_traits<ReturnType(Args...)> { static constexpr bool is_mutable = true; };\n"
        "template <typename ReturnType, typename... Args>\n"
        "struct function_traits<ReturnType(Args...)> {\n"
        "  static constexpr int arity = sizeof...(Args);\n"
        "  static constexpr bool is_mutable = false;\n"
        "  using result_type = ReturnType;\n"
        "  using ArgsTuple = std::tuple<Args...>;\n"
        "  template <size_t i> struct arg { using type = typename std::tuple_element<i, std::tuple<Args...>>::type; };\n"
        "};\n"
        "template <typename T> struct function_traits<T &> : public function_traits<T> {};\n"
        "template <typename T> struct function_traits<T *> : public function_traits<T> {};\n"
        "\n"
        "template <typename traits, typename func_t, typename index_t, size_t... INDEX>\n"
        "__device__ typename traits::result_type invoke_impl(const func_t &f, char *const data[], const index_t strides[], int i,\n"
        "                                                    std::index_sequence<INDEX...>) {\n"
        "  (void)strides; (void)i;\n"
        "  return f(*(typename traits::template arg<INDEX>::type *)(data[INDEX] + i * strides[INDEX])...);\n"
        "}\n"
        "template <typename func_t, typename index_t, typename traits = function_traits<func_t>>\n"
        "__device__ typename traits::result_type invoke(const func_t &f, char *const data[], const index_t strides[], int i) {\n"
        "  using Indices = std::make_index_sequence<traits::arity>;\n"
        "  return invoke_impl<traits>(f, data, strides, i, Indices{});\n"
        "}\n"
        "template <typename func_t>\n"
        "__device__ void run(int n, char *out, char *const in[], const int64_t strides[], const func_t &f) {\n"
        "  using traits = function_traits<func_t>;\n"
        "  using res_t = typename traits::result_type;\n"
        "  for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += blockDim.x * gridDim.x)\n"
        "    *(res_t *)(out + i * sizeof(res_t)) = invoke(f, in, strides, i);\n"
        "}\n"
        "struct Scale { float s; __device__ double operator()(float a, int64_t b) const { return (double)a * s + (double)b; } };\n"
        "__device__ float plain(float a) { return a * 0.5f; }\n"
        "extern \"C\" __global__ void k(const float *a, const int64_t *b, float *out, double *out2, int n) {\n"
        "  char *in[2] = {(char *)a, (char *)b};\n"
        "  const int64_t strides[2] = {sizeof(float), sizeof(int64_t)};\n"
        "  auto lam = [](float x, int64_t y) -> float { return x * x - (float)y; };\n"
        "  static_assert(function_traits<decltype(lam)>::arity == 2, \"arity\");\n"
        "  static_assert(std::is_same<function_traits<decltype(lam)>::arg<1>::type, int64_t>::value, \"arg 1\");\n"
        "  static_assert(!function_traits<decltype(lam)>::is_mutable, \"const operator()\");\n"
        "  static_assert(std::is_same<function_traits<Scale>::result_type, double>::value, \"result\");\n"
        "  static_assert(function_traits<decltype(&plain)>::arity == 1, \"fn ptr\");\n"
        "  run(n, (char *)out, in, strides, lam);\n"
        "  run(n, (char *)out2, in, strides, Scale{3.0f});\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    enum { M = 200 };
    float a[M], out[M];
    int64_t b[M];
    double out2[M];
    t_rand_floats(a, M, -4, 4);
    for (int i = 0; i < M; i++)
        b[i] = (int64_t)(t_rand_u32() % 2001) - 1000;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {2}, .block = {64}},
                              LAT_ARGS(lat_arg_in(a, sizeof a), lat_arg_in(b, sizeof b), lat_arg_out(out, sizeof out),
                                       lat_arg_out(out2, sizeof out2), lat_arg_i32(M))));
    for (int i = 0; i < M; i++) {
        /* a GPU may fuse the multiply and the add */
        ASSERT_TRUE(t_close(out[i], a[i] * a[i] - (float)b[i], 1e-5, 1e-5));
        ASSERT_TRUE(t_close(out2[i], (double)a[i] * 3.0f + (double)b[i], 1e-12, 1e-12));
    }
}

/* What the pointers to members stop at, each named where it stands: &C::f made as a
 * value (outside decltype), of an overloaded member, and a pointer to a data member. */
TEST(pointers_to_members_outside_decltype_are_refused_by_name)
{
    lat_context *ctx = t_context();
    if (!t_is_emu(ctx))
        return;
    static const char *const bodies[][2] = {
        {"auto pm = &F::g; (void)pm;", "a pointer to member function (&C::f) outside decltype"},
        {"decltype(&F::h) x; (void)x;", "&F::h names overloaded member functions"},
        {"int F::*pd = nullptr; (void)pd;", "a pointer to a data member (T C::*)"},
    };
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        char src[1024];
        snprintf(src, sizeof src,
                 "struct F { int d; __device__ float g(int a) const { return a; }\n"
                 "           __device__ float h(int) { return 1; } __device__ float h(float) { return 2; } };\n"
                 "extern \"C\" __global__ void k(float *out) { %s out[0] = 1; }\n",
                 bodies[i][0]);
        lat_module *mod = NULL;
        ASSERT_TRUE(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "pm.cu"}, &mod) != LAT_OK);
        ASSERT_MSG(strstr(lat_last_error(), bodies[i][1]) != NULL, "%s: %s", bodies[i][0], lat_last_error());
    }
}

/* A lambda inside a lambda's body (a loop body handed to a helper lambda, a member
 * function's lambdas naming the class's members): what the inner one captures from
 * outside both comes through the outer one's capture, by reference or as the outer
 * one's copy ([&] inside [=]), `this` too; explicit and mutable captures as C++ has them. */
TEST(a_lambda_inside_a_lambda_captures_through_the_enclosing_one)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct Acc {\n"
        "    float base;\n"
        "    __device__ float run(const float *in, int n) {\n"
        "        float s = 0;\n"
        "        auto outer = [&](int i) {\n"
        "            float t = in[i];\n"
        "            auto inner = [&](int j) { s += t * j + base; return t; };\n"
        "            auto inner2 = [=](int j) { return t * j + in[0] + base; };\n"
        "            auto inner3 = [t, this](int j) mutable { t += j; return t + base; };\n"
        "            return inner(2) + inner2(3) + inner3(1) + t;\n"
        "        };\n"
        "        float r = 0;\n"
        "        for (int i = 0; i < n; i++) r += outer(i);\n"
        "        auto byval = [=]() { auto g = [&]() { return s * 2; }; return g() + r; };\n"
        "        return r + s + byval();\n"
        "    }\n"
        "};\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i + 4 >= n) return;\n"
        "    Acc a{in[i]};\n"
        "    float c = 0;\n"
        "    auto f = [&c](float d) { auto h = [&](float e) { c += e * d; }; h(1); h(2); return c; };\n"
        "    out[i] = a.run(in + i, 5) + f(in[i + 1]);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i + 4 < N; i++) {
        const float *x = in + i;
        float base = in[i], s = 0, r = 0;
        for (int j = 0; j < 5; j++) {
            float t = x[j];
            s += t * 2 + base;
            r += t + (t * 3 + x[0] + base) + (t + 1 + base) + t;
        }
        float want = r + s + (s * 2 + r) + 3 * in[i + 1];
        ASSERT_TRUE(t_close(out[i], want, 1e-4, 1e-4));
    }
    if (!t_is_emu(ctx))
        return;
    /* a generic one inside: refused by name */
    lat_module *mod = NULL;
    ASSERT_TRUE(lat_module_create(ctx,
                                  &(lat_module_desc){.source = "extern \"C\" __global__ void k(float *o) {\n"
                                                               "  auto f = [&](int x) { auto g = [&](auto j) { return x * j; }; return g(2); };\n"
                                                               "  o[0] = f(3);\n}\n",
                                                     .name = "gl.cu"},
                                  &mod) != LAT_OK);
    ASSERT_CONTAINS(lat_last_error(), "gl.cu:2:34: error: a generic lambda inside a lambda is not supported");
}

/* Local arrays of a class whose default constructor does something (a complex type with
 * defaulted constructor arguments, an accumulator zeroing itself, default member
 * initializers), 1-D, 2-D and of a template's size: C++ constructs each element, each
 * time the declaration runs; they were refused ("an array of a class with constructors"). */
TEST(local_arrays_of_classes_with_constructors_construct_each_element)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <typename T> struct cplx {\n"
        "    T re, im;\n"
        "    __device__ cplx(T r = 0, T i = 0) : re(r), im(i) {}\n"
        "    __device__ cplx &operator+=(const cplx &o) { re += o.re; im += o.im; return *this; }\n"
        "};\n"
        "struct Acc { float v[2]; int n = 3; __device__ Acc() { v[0] = 1.0f; v[1] = 2.0f; } };\n"
        "struct D { float a = 1.5f; int b = 2; };\n"
        "template <int N> __device__ float sum_of(const float *x) {\n"
        "    cplx<float> c[N];\n"
        "    for (int i = 0; i < N; i++) c[i] += cplx<float>(x[i], 1.0f);\n"
        "    float s = 0;\n"
        "    for (int i = 0; i < N; i++) s += c[i].re * c[i].im;\n"
        "    return s;\n"
        "}\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i + 4 >= n) return;\n"
        "    Acc a2[2][3];\n"
        "    D d[3];\n"
        "    float s = 0;\n"
        "    for (int r = 0; r < 2; r++)\n"
        "        for (int c = 0; c < 3; c++) { s += a2[r][c].v[1] * a2[r][c].n; a2[r][c].v[1] = in[i]; }\n"
        "    for (int it = 0; it < 2; it++) { Acc x[2]; s += x[1].v[1]; x[1].v[1] = 50.0f; }\n"
        "    out[i] = s + a2[1][2].v[1] + d[2].a * d[1].b + sum_of<5>(in + i);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i + 4 < N; i++) {
        float want = 36.0f + 4.0f + in[i] + 3.0f + (in[i] + in[i + 1] + in[i + 2] + in[i + 3] + in[i + 4]);
        ASSERT_TRUE(t_close(out[i], want, 1e-5, 1e-5));
    }
}

/* cuDF's type dispatcher: a switch over an enum class calling f.template operator()<T>(args...)
 * of a functor whose operator() templates of one name are told apart by SFINAE (an
 * enable_if_t<...> * = nullptr parameter), the map from ids to types a template template
 * parameter with a default, the result decltype(auto). Two member templates of one name
 * gave their first instances one C name ("'get__lat_t1' declared twice"). */
TEST(cudf_type_dispatcher_over_sfinae_overloaded_member_templates)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <cstdint>\n"
        "#include <type_traits>\n"
        "#include <utility>\n"
        "namespace cudf {\n"
        "enum class type_id : int32_t { EMPTY, INT8, INT32, INT64, FLOAT32, FLOAT64 };\n"
        "template <type_id Id> struct id_to_type_impl { using type = void; };\n"
        "#define CUDF_TYPE_MAPPING(Type, Id) template <> struct id_to_type_impl<Id> { using type = Type; };\n"
        "CUDF_TYPE_MAPPING(int8_t, type_id::INT8)\n"
        "CUDF_TYPE_MAPPING(int32_t, type_id::INT32)\n"
        "CUDF_TYPE_MAPPING(int64_t, type_id::INT64)\n"
        "CUDF_TYPE_MAPPING(float, type_id::FLOAT32)\n"
        "CUDF_TYPE_MAPPING(double, type_id::FLOAT64)\n"
        "template <template <type_id> typename IdTypeMap = id_to_type_impl, typename Functor, typename... Ts>\n"
        "__device__ __forceinline__ constexpr decltype(auto) type_dispatcher(type_id id, Functor f, Ts &&...args) {\n"
        "    switch (id) {\n"
        "    case type_id::INT8: return f.template operator()<typename IdTypeMap<type_id::INT8>::type>(std::forward<Ts>(args)...);\n"
        "    case type_id::INT32: return f.template operator()<typename IdTypeMap<type_id::INT32>::type>(std::forward<Ts>(args)...);\n"
        "    case type_id::INT64: return f.template operator()<typename IdTypeMap<type_id::INT64>::type>(std::forward<Ts>(args)...);\n"
        "    case type_id::FLOAT32: return f.template operator()<typename IdTypeMap<type_id::FLOAT32>::type>(std::forward<Ts>(args)...);\n"
        "    default: return f.template operator()<typename IdTypeMap<type_id::FLOAT64>::type>(std::forward<Ts>(args)...);\n"
        "    }\n"
        "}\n"
        "}\n"
        "struct element_fn {\n"
        "    template <typename T, std::enable_if_t<std::is_integral_v<T>> * = nullptr>\n"
        "    __device__ double operator()(const void *p, int i) const { return (double)static_cast<const T *>(p)[i] * 2 + sizeof(T); }\n"
        "    template <typename T, std::enable_if_t<std::is_floating_point_v<T>> * = nullptr>\n"
        "    __device__ double operator()(const void *p, int i) const { return (double)static_cast<const T *>(p)[i] + sizeof(T); }\n"
        "};\n"
        "extern \"C\" __global__ void k(const void *data, const int *ids, double *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    const void *slot = (const char *)data + 8 * i;\n"
        "    out[i] = cudf::type_dispatcher(static_cast<cudf::type_id>(ids[i]), element_fn{}, slot, 0);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    enum { M = 128 };
    /* one buffer of 8-byte slots, each read as its element's type */
    static union {
        int8_t i8;
        int32_t i32;
        int64_t i64;
        float f32;
        double f64;
        unsigned char bytes[8];
    } slots[M];
    static int ids[M];
    static double out[M];
    memset(slots, 0, sizeof slots);
    for (int i = 0; i < M; i++) {
        ids[i] = 1 + (int)(t_rand_u32() % 5);
        int32_t v = (int32_t)(t_rand_u32() % 200) - 100;
        switch (ids[i]) {
        case 1: slots[i].i8 = (int8_t)v; break;
        case 2: slots[i].i32 = v * 1000; break;
        case 3: slots[i].i64 = (int64_t)v * 100000000000LL; break;
        case 4: slots[i].f32 = (float)v * 0.25f; break;
        default: slots[i].f64 = (double)v * 0.125; break;
        }
    }
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {M / 64}, .block = {64}},
                              LAT_ARGS(lat_arg_in(slots, sizeof slots), lat_arg_in(ids, sizeof ids),
                                       lat_arg_out(out, sizeof out), lat_arg_i32(M))));
    for (int i = 0; i < M; i++) {
        double want;
        switch (ids[i]) {
        case 1: want = (double)slots[i].i8 * 2 + 1; break;
        case 2: want = (double)slots[i].i32 * 2 + 4; break;
        case 3: want = (double)slots[i].i64 * 2 + 8; break;
        case 4: want = (double)slots[i].f32 + 4; break;
        default: want = slots[i].f64 + 8; break;
        }
        ASSERT_MSG(out[i] == want, "element %d (type %d): %g, want %g", i, ids[i], out[i], want);
    }
}

/* Partial specializations on a template template parameter, as Mp11 and type-list code
 * write them: mp_size<L<T...>> of any list template, push_back making L<T..., U>, one on
 * template <class, int> A matching Arr<T, N>, a nested one (W<list<T>>), and C++'s
 * ordering against more specialized ones (list<int, Ts...>, P<A, A>); an instance whose
 * template cannot stand for the parameter (Arr for template <class...> class L) takes
 * the primary. Each was refused where declared. */
TEST(partial_specializations_on_template_template_parameters)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <typename... Ts> struct list {};\n"
        "template <typename T, int N> struct Arr { T d[N]; };\n"
        "template <typename A, typename B> struct pair2 {};\n"
        "template <typename X> struct wrap {};\n"
        "template <typename L> struct mp_size;\n"
        "template <template <typename...> class L, typename... T> struct mp_size<L<T...>> {\n"
        "    static constexpr int value = sizeof...(T);\n"
        "};\n"
        "template <typename L, typename U> struct push_back;\n"
        "template <template <typename...> class L, typename... T, typename U> struct push_back<L<T...>, U> {\n"
        "    using type = L<T..., U>;\n"
        "};\n"
        "template <typename A> struct arr_n { static constexpr int value = -1; };\n"
        "template <template <typename, int> class A, typename T, int N> struct arr_n<A<T, N>> {\n"
        "    static constexpr int value = N * (int)sizeof(T);\n"
        "};\n"
        "template <class T> struct kind_of { static constexpr int kind = 0; };\n"
        "template <template <class...> class L, class... Ts> struct kind_of<L<Ts...>> { static constexpr int kind = 1; };\n"
        "template <class... Ts> struct kind_of<list<int, Ts...>> { static constexpr int kind = 2; };\n"
        "template <template <class, class> class P, class A> struct kind_of<P<A, A>> { static constexpr int kind = 3; };\n"
        "template <typename T> struct inner_of { using type = char; };\n"
        "template <template <class> class W, class T> struct inner_of<W<list<T>>> { using type = T; };\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    int a = mp_size<list<int, float, char>>::value + 10 * mp_size<push_back<list<int>, double>::type>::value\n"
        "            + 100 * mp_size<pair2<int, float>>::value;\n"
        "    int b = kind_of<int>::kind + 10 * kind_of<list<float>>::kind + 100 * kind_of<list<int, char>>::kind\n"
        "            + 1000 * kind_of<Arr<float, 3>>::kind + 10000 * kind_of<pair2<int, int>>::kind\n"
        "            + 100000 * kind_of<pair2<int, float>>::kind;\n"
        "    int c = arr_n<Arr<double, 3>>::value + 100 * arr_n<int>::value\n"
        "            + 1000 * (int)sizeof(typename inner_of<wrap<list<double>>>::type);\n"
        "    out[i] = in[i] * a + (float)b + (float)c * 0.5f;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    float a = 3 + 10 * 2 + 100 * 2, b = 0 + 10 * 1 + 100 * 2 + 1000 * 0 + 10000 * 3 + 100000 * 1,
          c = 24 - 100 + 1000 * 8;
    for (int i = 0; i < N; i++)
        ASSERT_TRUE(t_close(out[i], in[i] * a + b + c * 0.5f, 1e-6, 1e-6));
}

/* C++14's init-captures ([scale = a * 2], [&total = acc], [p = in + 3], [count = 0]
 * mutable, [w{e}], [q(e)], beside plain and default captures, in a nested lambda):
 * each a member of its own, made from its initializer where the lambda stands, once,
 * whether the body names it or not. They were refused. */
TEST(init_captures_are_members_made_where_the_lambda_stands)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i + 6 >= n) return;\n"
        "    const float *x = in + i;\n"
        "    int m = 5;\n"
        "    float acc = 0;\n"
        "    auto f = [scale = x[2] * 2, m, &total = acc, p = x + 3](int j) { total += p[j] * scale + m; return scale; };\n"
        "    float s = f(0) + f(1);\n"
        "    auto g = [count = 0]() mutable { return ++count; };\n"
        "    g(); g();\n"
        "    auto h = [=, off = m * 2](int j) { return x[j] + off + acc; };\n"
        "    auto outer = [q = 3](int y) { auto inner = [k = q * y]() { return k + 1; }; return inner(); };\n"
        "    int side = 0;\n"
        "    auto u = [z = ++side]() { return 1; };\n"
        "    auto v = [w{x[5]}, q(x[6])]() { return w * q; };\n"
        "    out[i] = acc + s + g() * 10 + h(4) + outer(4) * 100 + (u() + side) * 1000 + v();\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i + 6 < N; i++) {
        const float *x = in + i;
        float scale = x[2] * 2, acc = (x[3] * scale + 5) + (x[4] * scale + 5), s = 2 * scale;
        float want = acc + s + 30 + (x[4] + 10 + acc) + 1300 + 2000 + x[5] * x[6];
        ASSERT_TRUE(t_close(out[i], want, 1e-4, 1e-4));
    }
}

/* C++17's init-statements in if and switch (`if (auto v = x; v > 4)`, `if (cnt++; ...)`,
 * `switch (auto k = f(); k)`) and a declaration as an if's condition (`if (const float *q
 * = find(...))`, an object through its explicit operator bool, an int): the variable in a
 * scope of the statement's own, seen in its else too. They were refused as expressions. */
TEST(if_and_switch_with_init_statements_and_declarations_as_conditions)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct Opt { int v; bool ok; __device__ explicit operator bool() const { return ok; } };\n"
        "__device__ const float *find(const float *x, int n, float key) {\n"
        "    for (int i = 0; i < n; i++) if (x[i] > key) return x + i;\n"
        "    return nullptr;\n"
        "}\n"
        "__device__ Opt get(float x) { return Opt{(int)(x * 3), x > 0}; }\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i + 8 >= n) return;\n"
        "    const float *x = in + i;\n"
        "    float s = 0;\n"
        "    if (const float *q = find(x, 8, 1.5f)) s += (float)(q - x); else s -= 1;\n"
        "    if (auto r = get(x[1])) s += r.v * 10; else s -= r.v * 100;\n"
        "    if (int d = (int)(x[2] * 2)) s += d * 1000; else s += 5000;\n"
        "    if (auto v = x[3]; v > 0) { s += v; } else { s -= v * 2; }\n"
        "    int cnt = 0;\n"
        "    if (cnt++; cnt == 1) s += 0.5f;\n"
        "    switch (auto c = (int)(x[4] + 3); c) { case 3: s += 30000; break; case 4: s += 40000; break; default: s += c; }\n"
        "    out[i] = s;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i + 8 < N; i++) {
        const float *x = in + i;
        float s = 0;
        int q = -1;
        for (int j = 0; j < 8 && q < 0; j++)
            if (x[j] > 1.5f)
                q = j;
        s += q >= 0 ? (float)q : -1.0f;
        int rv = (int)(x[1] * 3);
        s += x[1] > 0 ? (float)(rv * 10) : -(float)(rv * 100);
        int d = (int)(x[2] * 2);
        s += d ? (float)(d * 1000) : 5000.0f;
        s += x[3] > 0 ? x[3] : -x[3] * 2;
        s += 0.5f;
        int c = (int)(x[4] + 3);
        s += c == 3 ? 30000.0f : c == 4 ? 40000.0f : (float)c;
        ASSERT_TRUE(t_close(out[i], s, 1e-5, 1e-4));
    }
}

/* PyTorch's reduction ops: ArgReductionOps derives from a template parameter ops_t and
 * brings its member types in with `using typename ops_t::arg_t;` (refused: the base was
 * named by a template parameter, not its tag); std::pair as the accumulator, static
 * member functions as the operations, combined through a warp's shuffles and __shared__. */
TEST(pytorch_arg_reduction_ops_use_typename_members_of_a_parameter_base)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <utility>\n"
        "#include <limits>\n"
        "#include <cstdint>\n"
        "template <typename scalar_t> struct LessOrNan {\n"
        "    __device__ bool operator()(scalar_t a, scalar_t b, int64_t ia, int64_t ib) const {\n"
        "        if (a != a) { if (b != b) return ia < ib; return true; }\n"
        "        return (a == b) ? ia < ib : (a < b);\n"
        "    }\n"
        "};\n"
        "template <typename comp_t> struct MinMaxReductionOps {\n"
        "    using scalar_t = float;\n"
        "    using index_t = int64_t;\n"
        "    using arg_t = std::pair<scalar_t, index_t>;\n"
        "    static __device__ arg_t project(arg_t arg) { return arg; }\n"
        "    static __device__ arg_t reduce(arg_t arg, scalar_t v, int64_t i) { return comp_t{}(arg.first, v, arg.second, i) ? arg : arg_t(v, i); }\n"
        "    static __device__ arg_t combine(arg_t a, arg_t b) { return comp_t{}(a.first, b.first, a.second, b.second) ? a : b; }\n"
        "    static __device__ arg_t warp_shfl_down(arg_t arg, int offset) {\n"
        "        return arg_t(__shfl_down_sync(0xffffffffu, arg.first, offset), __shfl_down_sync(0xffffffffu, arg.second, offset));\n"
        "    }\n"
        "};\n"
        "template <typename t1, typename t2, typename ops_t = MinMaxReductionOps<LessOrNan<float>>>\n"
        "struct ArgReductionOps : public ops_t {\n"
        "    using typename ops_t::arg_t;\n"
        "    using typename ops_t::index_t;\n"
        "    static __device__ index_t project(arg_t arg) { return arg.second; }\n"
        "};\n"
        "template <int nt, typename ops_t, typename out_t>\n"
        "__global__ void __launch_bounds__(nt) reduce_rows(const float *in, out_t *out, int64_t cols) {\n"
        "    using arg_t = typename ops_t::arg_t;\n"
        "    const float *row = in + blockIdx.x * cols;\n"
        "    arg_t acc(std::numeric_limits<float>::infinity(), 0);\n"
        "    for (int64_t c = threadIdx.x; c < cols; c += nt) acc = ops_t::reduce(acc, row[c], c);\n"
        "    for (int offset = 16; offset > 0; offset >>= 1) acc = ops_t::combine(acc, ops_t::warp_shfl_down(acc, offset));\n"
        "    __shared__ arg_t smem[nt / 32];\n"
        "    if (threadIdx.x % 32 == 0) smem[threadIdx.x / 32] = acc;\n"
        "    __syncthreads();\n"
        "    if (threadIdx.x == 0) {\n"
        "        for (int w = 1; w < nt / 32; w++) acc = ops_t::combine(acc, smem[w]);\n"
        "        out[blockIdx.x] = (out_t)ops_t::project(acc);\n"
        "    }\n"
        "}\n"
        "template __global__ void reduce_rows<64, ArgReductionOps<float, int64_t>, int64_t>(const float *, int64_t *, int64_t);\n";
    static const char *const names[] = {"reduce_rows<64, ArgReductionOps<float, int64_t>, int64_t>", NULL};
    lat_module *mod;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "argmin.cu", .no_extern_c = 1,
                                                         .name_expressions = names},
                                &mod));
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(mod, names[0], &k));
    enum { ROWS = 6, COLS = 150 };
    static float in[ROWS * COLS];
    static int64_t out[ROWS];
    t_rand_floats(in, ROWS * COLS, -100, 100);
    in[3 * COLS + 17] = in[3 * COLS + 90] = -1000; /* a tie: the lower index wins */
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {ROWS}, .block = {64}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out), lat_arg_i64(COLS))));
    for (int r = 0; r < ROWS; r++) {
        int best = 0;
        for (int c = 1; c < COLS; c++)
            if (in[r * COLS + c] < in[r * COLS + best])
                best = c;
        ASSERT_EQ(out[r], (int64_t)best);
    }
    lat_module_destroy(mod);
}

/* [*this] (C++17; Kokkos' KOKKOS_CLASS_LAMBDA is [=, *this]): the closure holds a copy of
 * the object made where the lambda stands, `this` and the members in the body are the
 * copy's (a later change to the object is not seen; a mutable lambda changes its copy
 * only), in a lambda inside a lambda too. It was refused. */
TEST(capturing_star_this_copies_the_object_where_the_lambda_stands)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <typename F> __device__ float apply(F f, float x) { return f(x); }\n"
        "struct Solver {\n"
        "    float scale; int n;\n"
        "    __device__ float helper(float x) const { return x * scale; }\n"
        "    __device__ float run(const float *in) {\n"
        "        auto c = [=, *this](float x) { return x * scale + helper(1.0f) + n; };\n"
        "        auto d = [*this](float x) mutable { scale += 1; return x * scale; };\n"
        "        float before = scale;\n"
        "        scale = 10.0f;\n"
        "        float r = c(in[3]) + apply(c, in[2]) + d(1.0f) + d(1.0f);\n"
        "        auto e = [this]() { auto inner = [*this]() { return scale; }; scale = 7.0f; return inner(); };\n"
        "        return r + e() * 100 + scale * 1000 + before * 10000;\n"
        "    }\n"
        "};\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i + 3 >= n) return;\n"
        "    Solver s{in[i], 3};\n"
        "    out[i] = s.run(in + i);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i + 3 < N; i++) {
        const float *x = in + i;
        float s0 = x[0];
        float c3 = x[3] * s0 + s0 + 3, c2 = x[2] * s0 + s0 + 3;
        float want = c3 + c2 + (s0 + 1) + (s0 + 2) + 10.0f * 100 + 7.0f * 1000 + s0 * 10000;
        ASSERT_TRUE(t_close(out[i], want, 1e-5, 1e-3));
    }
}

/* Three things type-generic code writes everywhere: a cast to a class template's instance
 * closed by '>>' (static_cast<W<int>>(x), static_cast<std::make_unsigned_t<T>>(x): the
 * '>>' was taken for the template's '>' only), std::underlying_type_t of an enum class
 * (missing), and tag dispatch on std::true_type / std::false_type by value, called with
 * std::is_integral<T>{} (its derived class: refused as no overload). */
TEST(casts_closed_by_shift_tokens_underlying_type_and_tag_dispatch)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <type_traits>\n"
        "#include <cstdint>\n"
        "enum class Op : uint16_t { Add = 3, Mul = 9 };\n"
        "template <typename T> struct W { T v; __device__ W(float x) : v(static_cast<T>(x)) {} };\n"
        "template <typename T> __device__ T tag(T x, std::true_type) { return x * 2; }\n"
        "template <typename T> __device__ T tag(T x, std::false_type) { return x + 100; }\n"
        "template <typename T> __device__ T dispatch(T x) { return tag(x, std::is_integral<T>{}); }\n"
        "template <typename T> __device__ std::make_unsigned_t<T> bits(T x) { return static_cast<std::make_unsigned_t<T>>(x); }\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    float x = in[i];\n"
        "    std::underlying_type_t<Op> code = static_cast<std::underlying_type_t<Op>>(x > 0 ? Op::Mul : Op::Add);\n"
        "    static_assert(sizeof(std::underlying_type_t<Op>) == 2, \"uint16_t\");\n"
        "    out[i] = static_cast<W<int>>(x * 10).v + dispatch((int)(x * 10)) * 1000 + dispatch(x) + code * 10000\n"
        "             + (float)(bits((int)(x * 10)) >> 31) * 100000;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        float x = in[i];
        int v = (int)(x * 10);
        float want = (float)v + (float)(v * 2) * 1000 + (x + 100) + (x > 0 ? 9 : 3) * 10000 + (v < 0 ? 100000.0f : 0.0f);
        ASSERT_TRUE(t_close(out[i], want, 1e-6, 1e-3));
    }
}

/* A function template deducing an array's element type and both bounds from a 2-D array
 * bound to a reference (T (&a)[R][C]): read for deduction, the inner array of the
 * placeholder T was taken for an incomplete type ("an array of an incomplete type"). */
TEST(two_dimensional_array_references_deduce_their_type_and_bounds)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <typename T, int R, int C> __device__ T weighted(const T (&a)[R][C]) {\n"
        "    T s = 0;\n"
        "    for (int i = 0; i < R; i++)\n"
        "        for (int j = 0; j < C; j++) s += a[i][j] * (T)(i * C + j + 1);\n"
        "    return s + (T)(R * 100 + C);\n"
        "}\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i + 6 >= n) return;\n"
        "    float a[2][3];\n"
        "    for (int r = 0; r < 2; r++) for (int c = 0; c < 3; c++) a[r][c] = in[i + r * 3 + c];\n"
        "    int b[3][1] = {{1}, {2}, {(int)in[i]}};\n"
        "    out[i] = weighted(a) + (float)weighted(b) * 1000;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i + 6 < N; i++) {
        float s = 0;
        for (int j = 0; j < 6; j++)
            s += in[i + j] * (float)(j + 1);
        int b = 1 * 1 + 2 * 2 + (int)in[i] * 3 + 301;
        ASSERT_TRUE(t_close(out[i], s + 203 + (float)b * 1000, 1e-5, 1e-3));
    }
}

/* Lambdas naming their kernel's __shared__ arrays (static and dynamic) by reference: a
 * loader, a scan step with barriers handed to a helper template, a reader. The lambda's
 * body is a function of its own, and the array's name there was undeclared in the C the
 * emulator writes ("'__lat_sh_0' undeclared"). */
TEST(lambdas_name_their_kernels_shared_arrays)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <typename F> __device__ void for_each_step(int steps, F f) { for (int s = 0; s < steps; s++) f(s); }\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    __shared__ float buf[64];\n"
        "    extern __shared__ float dyn[];\n"
        "    int t = threadIdx.x;\n"
        "    auto load = [&](int i) { buf[i] = in[blockIdx.x * blockDim.x + i]; dyn[i] = 2.0f * buf[i]; };\n"
        "    load(t);\n"
        "    __syncthreads();\n"
        "    auto step = [&](int s) {\n"
        "        int off = 1 << s;\n"
        "        float v = t >= off ? buf[t - off] : 0.0f;\n"
        "        __syncthreads();\n"
        "        buf[t] += v;\n"
        "        __syncthreads();\n"
        "    };\n"
        "    for_each_step(6, step);\n"
        "    auto read = [&]() { return buf[t] + dyn[t]; };\n"
        "    out[blockIdx.x * blockDim.x + t] = read();\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {N / 64}, .block = {64}, .shared_bytes = 64 * sizeof(float)},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out), lat_arg_i32(N))));
    for (int b = 0; b < N / 64; b++) {
        double prefix = 0;
        for (int t = 0; t < 64; t++) {
            prefix += in[b * 64 + t];
            ASSERT_TRUE(t_close(out[b * 64 + t], prefix + 2.0 * in[b * 64 + t], 1e-5, 1e-4));
        }
    }
}

/* A conversion operator template (template <class T> operator T()) is refused by its
 * name where it is declared (it was "a declaration without a type"). */
TEST(conversion_operator_templates_are_refused_by_name)
{
    lat_context *ctx = t_context();
    if (!t_is_emu(ctx))
        return;
    lat_module *mod = NULL;
    ASSERT_TRUE(lat_module_create(ctx,
                                  &(lat_module_desc){.source = "struct Conv { float v;\n"
                                                               "  template <typename T> __device__ operator T() const { return (T)v; } };\n"
                                                               "extern \"C\" __global__ void k(float *o) { Conv c{o[0]}; o[0] = (float)c; }\n",
                                                     .name = "cv.cu"},
                                  &mod) != LAT_OK);
    ASSERT_CONTAINS(lat_last_error(), "cv.cu:2:25: error: a conversion operator template (template <class T> operator T()) is not supported");
}

/* Structured bindings of a std::tuple (a function's returned tuple, a reference to one
 * written through, std::tie's tuple of references, const) and of an array by reference:
 * each name an element, as get<I> and [I] give it. The tuple's was refused. */
TEST(structured_bindings_of_tuples_and_arrays_by_reference)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <tuple>\n"
        "__device__ std::tuple<int, float, double> three(float x) { return std::make_tuple((int)(x * 10), x * 2, (double)x / 4); }\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i + 3 >= n) return;\n"
        "    auto [a, b, c] = three(in[i]);\n"
        "    std::tuple<int, float> t{3, in[i + 1]};\n"
        "    auto &[ti, tf] = t;\n"
        "    tf = tf * 2;\n"
        "    int x = 1; float y = 2;\n"
        "    auto [rx, ry] = std::tie(x, y);\n"
        "    rx = 10; ry = in[i + 2];\n"
        "    float arr[3] = {in[i + 1], in[i + 2], in[i + 3]};\n"
        "    auto &[p, q, r] = arr;\n"
        "    q = 50;\n"
        "    const auto &[cp, cq] = t;\n"
        "    out[i] = a + b + (float)c + std::get<1>(t) * 10 + ti + (x + y) * 100 + (arr[1] + p + r) * 1000 + (cp + cq);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i + 3 < N; i++) {
        const float *x = in + i;
        float tf = x[1] * 2;
        float want = (float)(int)(x[0] * 10) + x[0] * 2 + (float)((double)x[0] / 4) + tf * 10 + 3 + (10 + x[2]) * 100 +
                     (50 + x[1] + x[3]) * 1000 + (3 + tf);
        ASSERT_TRUE(t_close(out[i], want, 1e-5, 1e-3));
    }
}

/* A vector class's operator[] returning T & through nested ?: of its members (`i == 0 ? x
 * : i == 1 ? y : z`), written through: the inner ?: of two lvalues is an lvalue too, so
 * the reference binds to the member chosen (it was refused: "a non-const reference binds
 * only to an lvalue of its type"). */
TEST(nested_conditionals_of_lvalues_bind_references)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <typename T> struct Vec3 {\n"
        "    T x, y, z;\n"
        "    __device__ T &operator[](int i) { return i == 0 ? x : i == 1 ? y : z; }\n"
        "    __device__ const T &at(int i) const { return i == 0 ? x : (i == 1 ? y : z); }\n"
        "};\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    Vec3<float> v{in[i], 2.0f, 3.0f};\n"
        "    v[i % 3] *= 10.0f;\n"
        "    v[(i + 1) % 3] += 1.0f;\n"
        "    out[i] = v.at(0) + v.at(1) * 100 + v.at(2) * 10000;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        float v[3] = {in[i], 2.0f, 3.0f};
        v[i % 3] *= 10.0f;
        v[(i + 1) % 3] += 1.0f;
        ASSERT_TRUE(t_close(out[i], v[0] + v[1] * 100 + v[2] * 10000, 1e-6, 1e-3));
    }
}

/* Forwarding references as C++ deduces them: T && of an lvalue deduces T = A & (`T y =
 * x;` then is a reference, is_lvalue_reference<T> holds, std::forward<T> gives an
 * lvalue), of an rvalue or an xvalue (std::move, static_cast<T &&>, a call returning
 * T &&) T = A; an lvalue takes f(T &) over f(T &&), an xvalue f(T &&); a variable
 * declared T && is an lvalue by its name. T was deduced A for an lvalue, and the
 * overload and branch chosen differed from a GPU's. */
TEST(forwarding_references_deduce_lvalue_references)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <type_traits>\n"
        "#include <utility>\n"
        "template <typename T> __device__ void inc(T &&x) { T y = x; y += 1; }\n"
        "template <typename T> __device__ int kind(T &&) { return std::is_lvalue_reference<T>::value ? 1 : std::is_same<T, float>::value ? 2 : 3; }\n"
        "template <typename T> __device__ int cat(T &) { return 1; }\n"
        "template <typename T> __device__ int cat(T &&) { return 2; }\n"
        "template <typename T> __device__ int fcat(T &&x) { return cat(std::forward<T>(x)); }\n"
        "template <typename T> __device__ std::decay_t<T> copy_of(T &&x) { std::decay_t<T> c = x; c += 1; return c; }\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int *codes, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    float v = in[i];\n"
        "    inc(v);\n"
        "    const float cv = 3;\n"
        "    float &&r = in[i] * 3;\n"
        "    int kinds = kind(v) * 100 + kind(2.0f) * 10 + kind(cv) + kind(r) * 1000 + kind(std::move(r)) * 10000;\n"
        "    int cats = fcat(v) * 10 + fcat(1.0f) + cat(r) * 100 + cat(std::move(v)) * 1000 + fcat(static_cast<float &&>(v)) * 10000;\n"
        "    out[i] = v + copy_of(v) * 2;\n"
        "    codes[2 * i] = kinds;\n"
        "    codes[2 * i + 1] = cats;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    static int codes[2 * N];
    t_rand_floats(in, N, -2, 2);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {N / 64}, .block = {64}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out),
                                       lat_arg_out(codes, sizeof codes), lat_arg_i32(N))));
    for (int i = 0; i < N; i++) {
        float v = in[i] + 1; /* inc's T y = x: T = float &, so y is the caller's v */
        ASSERT_TRUE(t_close(out[i], v + (v + 1) * 2, 1e-6, 1e-6));
        ASSERT_EQ(codes[2 * i], 1 * 100 + 2 * 10 + 1 + 1 * 1000 + 2 * 10000);
        ASSERT_EQ(codes[2 * i + 1], 1 * 10 + 2 + 1 * 100 + 2 * 1000 + 2 * 10000);
    }
}

/* The class template's own name, without arguments, in the signature of one of its member
 * templates (template <class F> Vec map(F) const, Eigen's and llm.c's packed vectors'
 * habit): the signature is read while the instance is being made, and the name means it. */
TEST(a_member_templates_signature_names_its_class_template_alone)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <typename T, int N>\n"
        "struct Vec {\n"
        "    T v[N];\n"
        "    __device__ T &operator[](int i) { return v[i]; }\n"
        "    __device__ const T &operator[](int i) const { return v[i]; }\n"
        "    template <typename F> __device__ Vec map(F f) const { Vec r; for (int i = 0; i < N; ++i) r[i] = f(v[i]); return r; }\n"
        "    template <typename F> __device__ Vec zip(const Vec &o, F f, const Vec *bias = nullptr) const {\n"
        "        Vec r;\n"
        "        for (int i = 0; i < N; ++i) r[i] = f(v[i], o[i]) + (bias ? (*bias)[i] : T(0));\n"
        "        return r;\n"
        "    }\n"
        "};\n"
        "struct Square { template <typename T> __device__ T operator()(T x) const { return x * x; } };\n"
        "struct Sub { __device__ float operator()(float a, float b) const { return a - b; } };\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (4 * i + 3 >= n) return;\n"
        "    Vec<float, 4> a;\n"
        "    for (int j = 0; j < 4; ++j) a[j] = in[4 * i + j];\n"
        "    Vec<float, 4> b = a.map(Square());\n"
        "    Vec<float, 4> c = b.zip(a, Sub(), &a);\n"
        "    for (int j = 0; j < 4; ++j) out[4 * i + j] = c[j];\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {N / 4}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out), lat_arg_i32(N))));
    for (int i = 0; i < N; i++)
        ASSERT_TRUE(t_close(out[i], (in[i] * in[i] - in[i]) + in[i], 1e-6, 1e-6));
}

/* A signature whose type depends on sizeof of a template parameter (typename
 * Bits<sizeof(T)>::type to_bits(T), as bit-casting helpers and libcu++'s atomics write
 * it): the value is known only in the instance, and the primary template may be only
 * declared. */
TEST(signatures_of_a_class_template_instance_chosen_by_sizeof_of_a_parameter)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <int S> struct Bits;\n"
        "template <> struct Bits<4> { typedef unsigned int type; };\n"
        "template <> struct Bits<8> { typedef unsigned long long type; };\n"
        "template <typename T> __device__ typename Bits<sizeof(T)>::type to_bits(T v)\n"
        "{ typename Bits<sizeof(T)>::type b; memcpy(&b, &v, sizeof b); return b; }\n"
        "template <typename T, int N = sizeof(T) * 8> __device__ typename Bits<N / 8>::type top_bit(T v)\n"
        "{ return to_bits(v) >> (N - 1); }\n"
        "extern \"C\" __global__ void k(const float *in, const double *din, unsigned *u, unsigned long long *ull, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    u[i] = to_bits(in[i]) ^ top_bit(in[i]);\n"
        "    ull[i] = to_bits(din[i]) + top_bit(din[i]);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N];
    double din[N];
    unsigned u[N];
    unsigned long long ull[N];
    t_rand_floats(in, N, -4, 4);
    for (int i = 0; i < N; i++)
        din[i] = (double)in[i] * 1.0000001;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {N / 64}, .block = {64}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_in(din, sizeof din), lat_arg_out(u, sizeof u),
                                       lat_arg_out(ull, sizeof ull), lat_arg_i32(N))));
    for (int i = 0; i < N; i++) {
        uint32_t b;
        uint64_t d;
        memcpy(&b, &in[i], 4);
        memcpy(&d, &din[i], 8);
        ASSERT_EQ(u[i], b ^ (b >> 31));
        ASSERT_EQ(ull[i], d + (d >> 63));
    }
}

/* A statement that starts with a functional cast of a class, qualified or an instance of
 * a template, and goes on as an expression: ns::Ref<float>{x}.add(v), Ref<float>(x).add(v)
 * (as code writes cuda::atomic_ref<int>{*p}.fetch_add(1)). No declarator starts with '{',
 * and (x[i]).add cannot end one. */
TEST(statements_starting_with_a_functional_cast_of_a_qualified_class_are_expressions)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct Acc { float *p; __device__ explicit Acc(float &r) : p(&r) {} __device__ void add(float v) const { *p += v; } };\n"
        "namespace ns {\n"
        "template <typename T> struct Ref { T *p; __device__ explicit Ref(T &r) : p(&r) {} __device__ void add(T v) const { *p += v; } };\n"
        "}\n"
        "using ns::Ref;\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    out[i] = 0.5f;\n"
        "    Acc(out[i]).add(in[i]);\n"
        "    Acc{out[i]}.add(in[i] * 2);\n"
        "    Ref<float>(out[i]).add(in[i] * 4);\n"
        "    Ref<float>{out[i]}.add(in[i] * 8);\n"
        "    ns::Ref<float>(out[i]).add(in[i] * 16);\n"
        "    ns::Ref<float>{out[i]}.add(in[i] * 32);\n"
        "    ::ns::Ref<float>{out[i]}.add(in[i] * 64);\n"
        "    ns::Ref<float> r(out[i]);\n"
        "    r.add(1.0f);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -1, 1);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        float want = 0.5f;
        for (int m = 1; m <= 64; m *= 2)
            want += in[i] * (float)m;
        ASSERT_TRUE(t_close(out[i], want + 1.0f, 1e-5, 1e-5));
    }
}

/* A constructor's initializer naming its base class with the base's namespace, as
 * libraries' wrappers derive from detail:: classes: : detail::Base<T>(x), : ::ns::Tag(). */
TEST(constructors_initialize_bases_named_with_their_namespace)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "namespace ns { namespace detail {\n"
        "template <typename T> struct Scaled { T k; __device__ explicit Scaled(T s) : k(s) {} __device__ T apply(T x) const { return k * x; } };\n"
        "} struct Off { float o; __device__ Off(float v) : o(v) {} }; }\n"
        "template <typename T> struct Affine : ns::detail::Scaled<T>, ns::Off {\n"
        "    __device__ Affine(T s, float o) : ns::detail::Scaled<T>(s), ::ns::Off{o} {}\n"
        "    __device__ T operator()(T x) const { return this->apply(x) + (T)this->o; }\n"
        "};\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) out[i] = Affine<float>(2.5f, -1.0f)(in[i]);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -5, 5);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++)
        ASSERT_TRUE(t_close(out[i], 2.5f * in[i] - 1.0f, 1e-6, 1e-6));
}

/* A block's type alias named inside a lambda, as PyTorch's AT_DISPATCH macros write it
 * ([&] { using scalar_t = float; return __VA_ARGS__(); }()): the lambda's body is the
 * emulator's function of its own, where the block's typedef must still mean its type. */
TEST(lambdas_name_the_type_aliases_of_the_blocks_around_them)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#define DISPATCH_AS(T, ...) [&] { using scalar_t = T; return __VA_ARGS__(); }()\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    typedef double wide;\n"
        "    using narrow = short;\n"
        "    auto scale = [=](wide x, narrow k) { wide y = x * k; return (float)y; };\n"
        "    float r = DISPATCH_AS(double, [&] { scalar_t acc = in[i]; acc = acc * acc; return (float)acc + sizeof(scalar_t); });\n"
        "    out[i] = r + scale(in[i], (narrow)3);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++)
        ASSERT_TRUE(t_close(out[i], (float)((double)in[i] * in[i]) + 8.0f + (float)(in[i] * 3.0), 1e-6, 1e-6));
}

/* A lambda without captures reads its function's constants (constexpr int K, const int
 * of a constant), which C++ does not count as uses needing a capture; a static local of
 * the function named in a lambda is refused by name, not left to the C compiler. */
TEST(lambdas_without_captures_read_their_functions_integer_constants)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    constexpr int kWarp = 32;\n"
        "    const long long kBig = 5000000000LL;\n"
        "    const unsigned kMask = kWarp - 1;\n"
        "    auto lane_of = [](int t) { return t & kMask; };\n"
        "    auto big = [](float x) { return (double)x * kBig / kWarp; };\n"
        "    out[i] = (float)lane_of(i) + (float)(big(in[i]) * 1e-9);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++)
        ASSERT_TRUE(t_close(out[i], (float)(i & 31) + (float)((double)in[i] * 5000000000.0 / 32 * 1e-9), 1e-6,
                            1e-6));
    if (!t_is_emu(ctx))
        return; /* NVRTC takes what follows */
    static const char refused[] =
        "extern \"C\" __global__ void k(float *out) {\n"
        "    static const float table[2] = {1.0f, 2.0f};\n"
        "    auto at = [&](int j) { return table[j & 1]; };\n"
        "    out[threadIdx.x] = at(threadIdx.x);\n"
        "}\n";
    lat_module *mod = NULL;
    ASSERT_EQ(lat_module_create(ctx, &(lat_module_desc){.source = refused, .name = "st.cu"}, &mod),
              LAT_ERROR_UNSUPPORTED);
    ASSERT_TRUE(strstr(lat_last_error(), "st.cu:3:35: error: a static local variable of the enclosing function "
                                         "named in a lambda") != NULL);
}

/* CUDA's optimisation hints as PyTorch's and CUTLASS's kernels write them:
 * __builtin_assume(cond), __builtin_unreachable() after a switch that covers every case,
 * __builtin_expect in an if's condition. The emulator takes them and acts on none. */
TEST(optimisation_hints_compile_and_change_nothing)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#define C10_LIKELY(expr) (__builtin_expect(static_cast<bool>(expr), 1))\n"
        "__device__ float pick(int kind, float x) {\n"
        "    switch (kind) {\n"
        "    case 0: return x;\n"
        "    case 1: return -x;\n"
        "    case 2: return x * x;\n"
        "    }\n"
        "    __builtin_unreachable();\n"
        "}\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    __builtin_assume(n > 0);\n"
        "    __builtin_assume(blockDim.x % 32 == 0);\n"
        "    if C10_LIKELY(i < n) out[i] = pick(i % 3, in[i]);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++)
        ASSERT_TRUE(out[i] == (i % 3 == 0 ? in[i] : i % 3 == 1 ? -in[i] : in[i] * in[i]));
}

/* Default member initializers of arrays (float extra[3] = {1, 2}; int bins[4]{}; nested
 * lists of a 2-D array; a class template's T v[N] = {}), made with every object, the
 * elements the list leaves out zero; a constructor's own list overrides them. */
TEST(array_members_take_their_default_initializers)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct Stats { float total = 0.5f; float extra[3] = {1.f, 2.f}; int bins[4]{}; unsigned m[2][2] = {{1, 2}, {3}}; };\n"
        "template <typename T, int N> struct Acc {\n"
        "    T v[N] = {};\n"
        "    T bias = T(1);\n"
        "    __device__ Acc() {}\n"
        "    __device__ explicit Acc(T b) : bias(b) {}\n"
        "    __device__ T sum() const { T s = bias; for (int i = 0; i < N; ++i) s += v[i]; return s; }\n"
        "};\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    Stats s;\n"
        "    s.bins[i % 4] += 5;\n"
        "    Acc<float, 4> a, b(in[i]);\n"
        "    a.v[i % 4] = in[i];\n"
        "    out[i] = s.total + s.extra[0] + s.extra[1] * 10 + s.extra[2] * 100 + s.bins[0] + s.bins[1] * 2\n"
        "             + (float)(s.m[0][1] * 1000 + s.m[1][0] * 10000 + s.m[1][1] * 100000) + a.sum() + 3 * b.sum();\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        float want = 0.5f + 1 + 20 + (i % 4 == 0 ? 5 : 0) + (i % 4 == 1 ? 10 : 0) + 2000 + 30000;
        want += (1 + in[i]) + 3 * in[i];
        ASSERT_TRUE(t_close(out[i], want, 1e-5, 1e-5));
    }
}

/* Overloads chosen by the size of their type (enable_if<sizeof(T) == 4>, as vectorised
 * loads and atomics pick their word): the condition is known only in each instance. */
TEST(sfinae_on_sizeof_a_parameter_picks_the_overload_of_the_size)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <type_traits>\n"
        "template <typename T> __device__ typename std::enable_if<sizeof(T) == 4, float>::type widen(T x) { return (float)x * 4.0f; }\n"
        "template <typename T> __device__ typename std::enable_if<sizeof(T) == 8, float>::type widen(T x) { return (float)x * 8.0f; }\n"
        "template <typename T, std::enable_if_t<(sizeof(T) > 2), int> = 0> __device__ float narrow(T x) { return (float)x + 1.0f; }\n"
        "template <typename T, std::enable_if_t<(sizeof(T) <= 2), int> = 0> __device__ float narrow(T x) { return (float)x - 1.0f; }\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    float x = in[i];\n"
        "    out[i] = widen(x) + widen((double)x) * 10.0f + narrow((short)i) * 100.0f + narrow(i) * 1000.0f;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++)
        ASSERT_TRUE(t_close(out[i], in[i] * 4.0f + in[i] * 8.0f * 10.0f + (float)(i - 1) * 100.0f + (float)(i + 1) * 1000.0f,
                            1e-5, 1e-5));
}

/* A constructor's list giving an array member its elements (: v{}, : v{a, a * 2}), the
 * rest zero, as C++ aggregate-initialises it; a template's T v[N] too. */
TEST(constructors_initialize_array_members_from_braced_lists)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <typename T, int N> struct Acc {\n"
        "    T v[N];\n"
        "    int n;\n"
        "    __device__ Acc() : v{}, n(0) {}\n"
        "    __device__ explicit Acc(T a) : v{a, a * 2}, n(2) {}\n"
        "    __device__ T sum() const { T s = 0; for (int i = 0; i < N; ++i) s += v[i] * (i + 1); return s + n; }\n"
        "};\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    Acc<float, 4> a, b(in[i]);\n"
        "    a.v[3] += 1.0f;\n"
        "    out[i] = a.sum() + 10.0f * b.sum();\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -3, 3);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++)
        ASSERT_TRUE(t_close(out[i], 4.0f + 10.0f * (in[i] + in[i] * 2 * 2 + 2), 1e-5, 1e-5));
}

/* ::f names the global f also where a using-directive brings a namespace's f in sight
 * after it (a global clamp, then <algorithm> and using namespace std). */
TEST(global_qualified_names_pass_over_names_a_using_directive_brings)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__device__ float clamp(float v, float lo, float hi) { return v < lo ? lo : v > hi ? hi : v; }\n"
        "#include <algorithm>\n"
        "using namespace std;\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) out[i] = ::clamp(in[i], -0.5f, 1.5f) + std::clamp(in[i], 0.0f, 1.0f) * 10.0f;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[N], out[N];
    t_rand_floats(in, N, -2, 2);
    run_1d(k, in, out, N);
    for (int i = 0; i < N; i++) {
        float a = in[i] < -0.5f ? -0.5f : in[i] > 1.5f ? 1.5f : in[i], b = in[i] < 0 ? 0 : in[i] > 1 ? 1 : in[i];
        ASSERT_TRUE(t_close(out[i], a + b * 10.0f, 1e-6, 1e-6));
    }
}
