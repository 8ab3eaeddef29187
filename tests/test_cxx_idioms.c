/* C++ as real kernels write it, each idiom from a public code base's style (the kernels
 * are written here, not copied): llm.c's Packed128 (a defaulted constructor, a static
 * constexpr member sizing an array and read through an object, deduction through a
 * class template's instance), ggml's dequantize kernels (a function pointer as a
 * template argument), thrust-style functors with const members, lambdas calling
 * templates, copy constructors. Each runs random inputs against a host reference. */
#include "harness.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* llm.c's 128-bit packets: residual = a + b, four floats at a time. */
static const char packed_src[] =
    "template <class ElementType>\n"
    "struct alignas(16) Packed128 {\n"
    "    Packed128() = default;\n"
    "    __device__ explicit Packed128(int4 bits) {\n"
    "        static_assert(sizeof(bits) == sizeof(payload), \"Size mismatch.\");\n"
    "        memcpy(&payload, &bits, sizeof(bits));\n"
    "    }\n"
    "    __device__ ElementType &operator[](int index) { return payload[index]; }\n"
    "    __device__ const ElementType &operator[](int index) const { return payload[index]; }\n"
    "    __device__ int4 get_bits() const {\n"
    "        int4 bits;\n"
    "        memcpy(&bits, &payload, sizeof(bits));\n"
    "        return bits;\n"
    "    }\n"
    "    static constexpr const size_t size = sizeof(int4) / sizeof(ElementType);\n"
    "    ElementType payload[size];\n"
    "};\n"
    "template <class ElementType>\n"
    "__device__ Packed128<ElementType> load128cs(const ElementType *address) {\n"
    "    return Packed128<ElementType>{__ldcs(reinterpret_cast<const int4 *>(address))};\n"
    "}\n"
    "template <class ElementType>\n"
    "__device__ void store128(ElementType *target, Packed128<ElementType> value) {\n"
    "    *reinterpret_cast<int4 *>(target) = value.get_bits();\n"
    "}\n"
    "typedef float floatX;\n"
    "typedef Packed128<floatX> x128;\n"
    "extern \"C\" __global__ void residual(floatX *out, const floatX *a, const floatX *b, int n) {\n"
    "    int idx = (blockIdx.x * blockDim.x + threadIdx.x) * x128::size;\n"
    "    if (idx >= n) return;\n"
    "    x128 packed_out;\n"
    "    x128 pa = load128cs(a + idx);\n"
    "    x128 pb = load128cs(b + idx);\n"
    "    for (int k = 0; k < pa.size; k++)\n"
    "        packed_out[k] = (floatX)((float)pa[k] + (float)pb[k]);\n"
    "    store128(out + idx, packed_out);\n"
    "}\n";

TEST(llmc_packed128_adds_four_floats_at_a_time)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel_as_written(ctx, packed_src, "residual");
    enum { N = 2048 };
    float *a = t_calloc(N, sizeof *a), *b = t_calloc(N, sizeof *b), *out = t_calloc(N, sizeof *out);
    t_rand_floats(a, N, -10, 10);
    t_rand_floats(b, N, -10, 10);
    int n = N;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {N / 4 / 128}, .block = {128}},
                              LAT_ARGS(lat_arg_out(out, N * sizeof *out), lat_arg_in(a, N * sizeof *a),
                                       lat_arg_in(b, N * sizeof *b), lat_arg_i32(n))));
    for (int i = 0; i < N; i++)
        ASSERT_TRUE(out[i] == a[i] + b[i]);
}

/* ggml's q4_0 blocks: a half scale and 16 bytes of two 4-bit values each. */
static const char dequant_src[] =
    "#include <cuda_fp16.h>\n"
    "#include <cstdint>\n"
    "#define QK4_0 32\n"
    "#define QR4_0 2\n"
    "typedef struct { half d; uint8_t qs[QK4_0 / 2]; } block_q4_0;\n"
    "typedef void (*dequantize_kernel_t)(const void *vx, const int64_t ib, const int iqs, float2 &v);\n"
    "static __device__ __forceinline__ void dequantize_q4_0(const void *vx, const int64_t ib,\n"
    "                                                       const int iqs, float2 &v) {\n"
    "    const block_q4_0 *x = (const block_q4_0 *)vx;\n"
    "    const float d = __half2float(x[ib].d);\n"
    "    const int vui = x[ib].qs[iqs];\n"
    "    v.x = ((vui & 0xF) - 8.0f) * d;\n"
    "    v.y = ((vui >> 4) - 8.0f) * d;\n"
    "}\n"
    "static __device__ void dequantize_twice(const void *vx, const int64_t ib, const int iqs, float2 &v) {\n"
    "    dequantize_q4_0(vx, ib, iqs, v);\n"
    "    v.x *= 2; v.y *= 2;\n"
    "}\n"
    "template <int qk, int qr, dequantize_kernel_t dequantize_kernel, typename dst_t>\n"
    "static __global__ void dequantize_block(const void *__restrict__ vx, dst_t *__restrict__ y,\n"
    "                                        const int64_t k) {\n"
    "    const int64_t i = (int64_t)2 * (blockDim.x * blockIdx.x + threadIdx.x);\n"
    "    if (i >= k) return;\n"
    "    const int64_t ib = i / qk, iqs = (i % qk) / qr, iybs = i - i % qk;\n"
    "    const int64_t y_offset = qr == 1 ? 1 : qk / 2;\n"
    "    float2 v;\n"
    "    dequantize_kernel(vx, ib, iqs, v);\n"
    "    y[iybs + iqs + 0] = v.x;\n"
    "    y[iybs + iqs + y_offset] = v.y;\n"
    "}\n"
    "template __global__ void dequantize_block<QK4_0, QR4_0, dequantize_q4_0, float>(\n"
    "    const void *__restrict__, float *__restrict__, const int64_t);\n"
    "template __global__ void dequantize_block<QK4_0, QR4_0, &dequantize_twice, float>(\n"
    "    const void *__restrict__, float *__restrict__, const int64_t);\n";

TEST(ggml_dequantize_takes_its_function_as_a_template_argument)
{
    lat_context *ctx = t_context();
    lat_module *m;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = dequant_src, .name = "dequant.cu",
                                                        .no_extern_c = 1},
                                &m));
    enum { BLOCKS = 16, K = BLOCKS * 32 };
    struct {
        uint16_t d;
        uint8_t qs[16];
    } blocks[BLOCKS];
    float scale[BLOCKS];
    for (int b = 0; b < BLOCKS; b++) {
        int e = (int)(t_rand_u32() % 8); /* 2^(e-4): exact in half */
        scale[b] = ldexpf(1.0f, e - 4);
        blocks[b].d = (uint16_t)((e - 4 + 15) << 10);
        for (int j = 0; j < 16; j++)
            blocks[b].qs[j] = (uint8_t)t_rand_u32();
    }
    /* The instances by the names the module gives them (macros expanded). */
    const char *names[2] = {"dequantize_block<32, 2, dequantize_q4_0, float>",
                            "dequantize_block<32, 2, &dequantize_twice, float>"};
    for (int which = 0; which < 2; which++) {
        lat_kernel *k;
        ASSERT_OK(lat_module_get_kernel(m, names[which], &k));
        float *y = t_calloc(K, sizeof *y);
        int64_t count = K;
        ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {K / 256}, .block = {128}},
                                  LAT_ARGS(lat_arg_in(blocks, sizeof blocks), lat_arg_out(y, K * sizeof *y),
                                           lat_arg_i64(count))));
        for (int b = 0; b < BLOCKS; b++)
            for (int j = 0; j < 16; j++) {
                float f = (which ? 2.0f : 1.0f) * scale[b];
                ASSERT_TRUE(y[b * 32 + j] == ((blocks[b].qs[j] & 15) - 8.0f) * f);
                ASSERT_TRUE(y[b * 32 + j + 16] == ((blocks[b].qs[j] >> 4) - 8.0f) * f);
            }
    }
    /* An argument that names no function of the parameter's type is an error. */
    static const char bad[] = "typedef float (*unary_t)(float);\n"
                              "__device__ float twice(float x, float y) { return x + y; }\n"
                              "template <unary_t f> __global__ void k(float *o) { o[0] = f(o[0]); }\n"
                              "template __global__ void k<twice>(float *);\n";
    lat_module *bm;
    ASSERT_STATUS(LAT_ERROR_COMPILE,
                  lat_module_create(ctx, &(lat_module_desc){.source = bad, .name = "bad.cu", .no_extern_c = 1}, &bm));
    if (t_is_emu(ctx)) /* NVRTC refuses it in its own words */
        ASSERT_CONTAINS(lat_last_error(),
                        "'twice' is float (float, float), not the float (float) the template parameter takes");
}

/* A functor with a const member set by its constructor (thrust's saxpy_functor), a
 * template deducing through a class template's instance by type and by value, and a
 * lambda capturing by reference whose body instantiates a template whose parameters are
 * named like the kernel's. */
static const char functor_src[] =
    "struct saxpy_functor {\n"
    "    const float a;\n"
    "    __host__ __device__ saxpy_functor(float _a) : a(_a) {}\n"
    "    __host__ __device__ float operator()(const float &x, const float &y) const { return a * x + y; }\n"
    "};\n"
    "template <typename T, int N> struct Arr { T v[N]; };\n"
    "template <typename T, int N> __device__ T total(const Arr<T, N> &a) {\n"
    "    T s = 0;\n"
    "    for (int i = 0; i < N; i++) s += a.v[i];\n"
    "    return s;\n"
    "}\n"
    "template <int op> __device__ float apply(float a, float b) {\n"
    "    if constexpr (op == 0) return a + b;\n"
    "    else return a * b;\n"
    "}\n"
    "extern \"C\" __global__ void k(float *out, const float *a, const float *b, float s, int n) {\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i >= n) return;\n"
    "    saxpy_functor f(s);\n"
    "    Arr<float, 3> three = {{a[i], b[i], 1.0f}};\n"
    "    auto combine = [&](int j) { return apply<0>(a[j], b[j]) + apply<1>(a[j], b[j]); };\n"
    "    out[i] = f(a[i], b[i]) + total(three) + combine(i);\n"
    "}\n";

TEST(functors_lambdas_and_deduction_through_class_templates)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel_as_written(ctx, functor_src, "k");
    enum { N = 1000 };
    float *a = t_calloc(N, sizeof *a), *b = t_calloc(N, sizeof *b), *out = t_calloc(N, sizeof *out);
    t_rand_floats(a, N, -4, 4);
    t_rand_floats(b, N, -4, 4);
    float s = (float)t_rand_double(-3, 3);
    int n = N;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {(N + 127) / 128}, .block = {128}},
                              LAT_ARGS(lat_arg_out(out, N * sizeof *out), lat_arg_in(a, N * sizeof *a),
                                       lat_arg_in(b, N * sizeof *b), lat_arg_f32(s), lat_arg_i32(n))));
    for (int i = 0; i < N; i++) {
        float want = fmaf(s, a[i], b[i]) + ((a[i] + b[i]) + 1.0f) + ((a[i] + b[i]) + a[i] * b[i]);
        ASSERT_MSG(fabsf(out[i] - want) <= 1e-5f * (1 + fabsf(want)), "out[%d] = %g, want %g", i,
                   (double)out[i], (double)want);
    }
}

/* Valid C++ compiles without a word: a lambda called through a const reference (Kokkos'
 * parallel_for over a KOKKOS_LAMBDA, Thrust's functors) and a const member function
 * returning a reference to its array (CuPy's CIndexer::get). The emulator's C had made
 * the lambda's operator() non-const and dropped the array's const, and TinyCC warned of
 * both in the program's name ("assignment discards qualifiers"). */
static const char const_call_src[] =
    "template <class F> __device__ void for_index(const F &f, int n) {\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) f(i);\n"
    "}\n"
    "struct Indexer {\n"
    "    long long index_[2];\n"
    "    __device__ const long long (&get() const)[2] { return index_; }\n"
    "};\n"
    "__device__ long long sum(const long long (&idx)[2]) { return idx[0] + 3 * idx[1]; }\n"
    "extern \"C\" __global__ void k(long long *out, const int *a, int n) {\n"
    "    for_index([=] (int i) {\n"
    "        Indexer ix;\n"
    "        ix.index_[0] = a[i];\n"
    "        ix.index_[1] = i;\n"
    "        out[i] = sum(ix.get());\n"
    "    }, n);\n"
    "}\n";

TEST(const_calls_of_lambdas_and_array_references_compile_without_warnings)
{
    lat_context *ctx = t_context();
    lat_module *m;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = const_call_src, .name = "const_call.cu",
                                                        .no_extern_c = 1}, &m));
    if (t_is_emu(ctx))
        ASSERT_MSG(!strstr(lat_module_log(m), "warning"), "log: %s", lat_module_log(m));
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(m, "k", &k));
    enum { N = 500 };
    int *a = t_calloc(N, sizeof *a);
    long long *out = t_calloc(N, sizeof *out);
    for (int i = 0; i < N; i++)
        a[i] = (int)t_rand_double(-1e6, 1e6);
    int n = N;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {(N + 127) / 128}, .block = {128}},
                              LAT_ARGS(lat_arg_out(out, N * sizeof *out), lat_arg_in(a, N * sizeof *a),
                                       lat_arg_i32(n))));
    for (int i = 0; i < N; i++)
        ASSERT_MSG(out[i] == (long long)a[i] + 3LL * i, "out[%d] = %lld, want %lld", i, out[i],
                   (long long)a[i] + 3LL * i);
    lat_module_destroy(m);
}

/* Copies: the program's copy constructor runs for an lvalue, in every spelling, and a
 * class with only a converting constructor copies as C++'s implicit one does. A static
 * constant sizes an array after it in the class, and is read through an object. */
TEST(copy_constructors_and_static_constants_as_written)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct Counted {\n"
        "    float v; int copies;\n"
        "    __device__ Counted(float x) : v(x), copies(0) {}\n"
        "    __device__ Counted(const Counted &o) : v(o.v), copies(o.copies + 1) {}\n"
        "};\n"
        "struct Plain { float v; __device__ Plain(float x) : v(x) {} };\n"
        "template <class T> struct Tile {\n"
        "    static constexpr int size = 16 / sizeof(T);\n"
        "    static const int twice = 2 * size;\n"
        "    T x[size]; T y[twice];\n"
        "};\n"
        "extern \"C\" __global__ void k(float *o, const float *in) {\n"
        "    Counted a(in[0]);\n"
        "    Counted b = a; Counted c(b); Counted d{c};\n"
        "    Counted e = Counted(in[1]);\n" /* a prvalue: no copy */
        "    Plain p(in[2]); Plain q(p); Plain r{q}; Plain t = r;\n"
        "    Tile<float> tile; Tile<double> wide;\n"
        "    o[0] = d.v + 100 * d.copies;\n"
        "    o[1] = e.v + 100 * e.copies;\n"
        "    o[2] = t.v;\n"
        "    o[3] = tile.size + 10 * wide.size + 100 * (sizeof tile.y / sizeof(float));\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[3], o[4];
    t_rand_floats(in, 3, 0.5f, 9.5f);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                              LAT_ARGS(lat_arg_out(o, sizeof o), lat_arg_in(in, sizeof in))));
    ASSERT_TRUE(o[0] == in[0] + 300);
    ASSERT_TRUE(o[1] == in[1]);
    ASSERT_TRUE(o[2] == in[2]);
    ASSERT_TRUE(o[3] == 4 + 10 * 2 + 100 * 8);
}

/* cuComplex.h: the arithmetic of FFT and signal code on float2 and double2. */
TEST(cucomplex_arithmetic_against_the_host)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <cuComplex.h>\n"
        "extern \"C\" __global__ void k(const cuFloatComplex *a, const cuFloatComplex *b,\n"
        "                              cuFloatComplex *prod, cuFloatComplex *quot, float *mag,\n"
        "                              cuDoubleComplex *wide, int n) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    prod[i] = cuCsubf(cuCmulf(a[i], b[i]), cuConjf(a[i]));\n"
        "    quot[i] = cuCdivf(a[i], b[i]);\n"
        "    mag[i] = cuCabsf(b[i]) + cuCimagf(make_cuComplex(0, cuCrealf(a[i])));\n"
        "    cuDoubleComplex d = cuComplexFloatToDouble(a[i]);\n"
        "    wide[i] = cuCadd(cuCdiv(d, make_cuDoubleComplex(2.0, -1.0)), make_cuDoubleComplex(cuCabs(d), 0));\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    enum { N = 500 };
    float *a = t_calloc(2 * N, sizeof *a), *b = t_calloc(2 * N, sizeof *b);
    float *prod = t_calloc(2 * N, sizeof *prod), *quot = t_calloc(2 * N, sizeof *quot);
    float *mag = t_calloc(N, sizeof *mag);
    double *wide = t_calloc(2 * N, sizeof *wide);
    t_rand_floats(a, 2 * N, -100, 100);
    t_rand_floats(b, 2 * N, -100, 100);
    int n = N;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {(N + 127) / 128}, .block = {128}},
                              LAT_ARGS(lat_arg_in(a, 2 * N * sizeof *a), lat_arg_in(b, 2 * N * sizeof *b),
                                       lat_arg_out(prod, 2 * N * sizeof *prod), lat_arg_out(quot, 2 * N * sizeof *quot),
                                       lat_arg_out(mag, N * sizeof *mag), lat_arg_out(wide, 2 * N * sizeof *wide),
                                       lat_arg_i32(n))));
    for (int i = 0; i < N; i++) {
        double ar = a[2 * i], ai = a[2 * i + 1], br = b[2 * i], bi = b[2 * i + 1];
        double pr = ar * br - ai * bi - ar, pi = ar * bi + ai * br + ai;
        double den = br * br + bi * bi;
        double qr = (ar * br + ai * bi) / den, qi = (ai * br - ar * bi) / den;
        double want_mag = sqrt(den) + ar;
        double wr = (ar * 2 - ai) / 5 + sqrt(ar * ar + ai * ai), wi = (ai * 2 + ar) / 5;
        double scale = fabs(ar) + fabs(ai) + fabs(br) + fabs(bi);
        ASSERT_MSG(fabs(prod[2 * i] - pr) <= 1e-6 * scale * scale && fabs(prod[2 * i + 1] - pi) <= 1e-6 * scale * scale,
                   "prod[%d] = (%g, %g), want (%g, %g)", i, prod[2 * i], prod[2 * i + 1], pr, pi);
        ASSERT_MSG(fabs(quot[2 * i] - qr) <= 1e-5 * (1 + fabs(qr)) && fabs(quot[2 * i + 1] - qi) <= 1e-5 * (1 + fabs(qi)),
                   "quot[%d] = (%g, %g), want (%g, %g)", i, quot[2 * i], quot[2 * i + 1], qr, qi);
        ASSERT_MSG(fabs(mag[i] - want_mag) <= 1e-5 * scale, "mag[%d] = %g, want %g", i, mag[i], want_mag);
        ASSERT_MSG(fabs(wide[2 * i] - wr) <= 1e-9 * scale && fabs(wide[2 * i + 1] - wi) <= 1e-9 * scale,
                   "wide[%d] = (%g, %g), want (%g, %g)", i, wide[2 * i], wide[2 * i + 1], wr, wi);
    }
}

/* mma.h: a tensor-core GEMM as CUDA's samples write it, each warp one 16x16 tile of C,
 * stepping through K 16 at a time, with alpha and beta applied element by element. */
TEST(wmma_gemm_tiles_match_the_host)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <mma.h>\n"
        "using namespace nvcuda;\n"
        "#define WMMA_M 16\n#define WMMA_N 16\n#define WMMA_K 16\n"
        "extern \"C\" __global__ void wmma_gemm(const half *a, const half *b, float *c,\n"
        "                                      int M, int N, int K, float alpha, float beta) {\n"
        "    int lda = M, ldb = K, ldc = M;\n" /* column-major, as the sample */
        "    int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;\n"
        "    int warpN = (blockIdx.y * blockDim.y + threadIdx.y);\n"
        "    wmma::fragment<wmma::matrix_a, WMMA_M, WMMA_N, WMMA_K, half, wmma::col_major> a_frag;\n"
        "    wmma::fragment<wmma::matrix_b, WMMA_M, WMMA_N, WMMA_K, half, wmma::col_major> b_frag;\n"
        "    wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, float> acc_frag;\n"
        "    wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, float> c_frag;\n"
        "    wmma::fill_fragment(acc_frag, 0.0f);\n"
        "    for (int i = 0; i < K; i += WMMA_K) {\n"
        "        int aRow = warpM * WMMA_M, aCol = i;\n"
        "        int bRow = i, bCol = warpN * WMMA_N;\n"
        "        if (aRow < M && aCol < K && bRow < K && bCol < N) {\n"
        "            wmma::load_matrix_sync(a_frag, a + aRow + aCol * lda, lda);\n"
        "            wmma::load_matrix_sync(b_frag, b + bRow + bCol * ldb, ldb);\n"
        "            wmma::mma_sync(acc_frag, a_frag, b_frag, acc_frag);\n"
        "        }\n"
        "    }\n"
        "    int cRow = warpM * WMMA_M, cCol = warpN * WMMA_N;\n"
        "    if (cRow < M && cCol < N) {\n"
        "        wmma::load_matrix_sync(c_frag, c + cRow + cCol * ldc, ldc, wmma::mem_col_major);\n"
        "        for (int i = 0; i < c_frag.num_elements; i++)\n"
        "            c_frag.x[i] = alpha * acc_frag.x[i] + beta * c_frag.x[i];\n"
        "        wmma::store_matrix_sync(c + cRow + cCol * ldc, c_frag, ldc, wmma::mem_col_major);\n"
        "    }\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "wmma_gemm");
    enum { M = 64, N = 32, K = 48 };
    uint16_t *a = t_calloc(M * K, sizeof *a), *b = t_calloc(K * N, sizeof *b);
    float *av = t_calloc(M * K, sizeof *av), *bv = t_calloc(K * N, sizeof *bv), *c = t_calloc(M * N, sizeof *c);
    /* small integers: exact in half, their products and sums exact in float */
    static const uint16_t half_of[5] = {0xc000, 0xbc00, 0x0000, 0x3c00, 0x4000}; /* -2 .. 2 */
    for (int i = 0; i < M * K; i++) {
        int v = (int)(t_rand_u32() % 5);
        a[i] = half_of[v];
        av[i] = (float)(v - 2);
    }
    for (int i = 0; i < K * N; i++) {
        int v = (int)(t_rand_u32() % 5);
        b[i] = half_of[v];
        bv[i] = (float)(v - 2);
    }
    for (int i = 0; i < M * N; i++)
        c[i] = (float)(int)(t_rand_u32() % 7) - 3;
    float *c0 = t_calloc(M * N, sizeof *c0);
    memcpy(c0, c, M * N * sizeof *c);
    float alpha = 2.0f, beta = -1.0f;
    int m = M, n = N, kk = K;
    /* 4 warps across M in x, 2 rows of warps in y: 64 x 32 */
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1, 1}, .block = {128, 2}},
                              LAT_ARGS(lat_arg_in(a, M * K * sizeof *a), lat_arg_in(b, K * N * sizeof *b),
                                       lat_arg_inout(c, M * N * sizeof *c), lat_arg_i32(m), lat_arg_i32(n),
                                       lat_arg_i32(kk), lat_arg_f32(alpha), lat_arg_f32(beta))));
    for (int col = 0; col < N; col++)
        for (int row = 0; row < M; row++) {
            float s = 0;
            for (int q = 0; q < K; q++)
                s += av[row + q * M] * bv[q + col * K];
            float want = alpha * s + beta * c0[row + col * M];
            ASSERT_MSG(c[row + col * M] == want, "c[%d][%d] = %g, want %g", row, col,
                       (double)c[row + col * M], (double)want);
        }
}

/* Enumerators declared in a class are its members, as in C++'s older metaprograms: each
 * instance has its own `value`, found as S::value, and two classes may use one name. */
TEST(enums_in_classes_are_their_members)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <int N> struct Log2 { enum { value = 1 + Log2<N / 2>::value }; };\n"
        "template <> struct Log2<1> { enum { value = 0 }; };\n"
        "struct A { enum { size = 4 }; enum Kind { X = 1, Y = 2 }; float v[size]; };\n"
        "struct B { enum { size = 8 }; };\n"
        "template <typename T> struct Traits { enum { bytes = sizeof(T) }; };\n"
        "extern \"C\" __global__ void k(int *o, const int *in) {\n"
        "    A a; a.v[3] = in[0];\n"
        "    A::Kind kind = A::Y;\n"
        "    o[0] = Log2<64>::value + Log2<1024>::value * 100;\n"
        "    o[1] = A::size + B::size * 10;\n"
        "    o[2] = kind + (int)a.v[3] * 10;\n"
        "    o[3] = Traits<double>::bytes + Traits<short>::bytes * 10;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    int o[4], in[1] = {(int)(t_rand_u32() % 1000)};
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                              LAT_ARGS(lat_arg_out(o, sizeof o), lat_arg_in(in, sizeof in))));
    ASSERT_EQ(o[0], 6 + 1000);
    ASSERT_EQ(o[1], 84);
    ASSERT_EQ(o[2], 2 + in[0] * 10);
    ASSERT_EQ(o[3], 28);
}

/* A struct reduced through volatile shared memory, as PyCUDA's ReductionKernel of a
 * struct needs it: a copy constructor from `const volatile &` and an assignment operator
 * for volatile objects (`operator=(...) volatile`). */
TEST(volatile_member_functions_reduce_a_struct_in_shared_memory)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct minmax_collector\n"
        "{\n"
        "    float cur_min;\n"
        "    float cur_max;\n"
        "    __device__ minmax_collector() { }\n"
        "    __device__ minmax_collector(float cmin, float cmax) : cur_min(cmin), cur_max(cmax) { }\n"
        "    __device__ minmax_collector(minmax_collector const &src) : cur_min(src.cur_min), cur_max(src.cur_max) { }\n"
        "    __device__ minmax_collector(minmax_collector const volatile &src) : cur_min(src.cur_min), cur_max(src.cur_max) { }\n"
        "    __device__ minmax_collector volatile &operator=(minmax_collector const &src) volatile\n"
        "    {\n"
        "        cur_min = src.cur_min;\n"
        "        cur_max = src.cur_max;\n"
        "        return *this;\n"
        "    }\n"
        "};\n"
        "__device__ minmax_collector agg_mmc(minmax_collector a, minmax_collector b)\n"
        "{\n"
        "    return minmax_collector(fminf(a.cur_min, b.cur_min), fmaxf(a.cur_max, b.cur_max));\n"
        "}\n"
        "extern \"C\" __global__ void red(const float *x, float *out, int n) {\n"
        "    __shared__ minmax_collector s[64];\n"
        "    volatile minmax_collector *vs = s;\n"
        "    int t = threadIdx.x;\n"
        "    minmax_collector acc(10000, -10000);\n"
        "    for (int i = t; i < n; i += 64) acc = agg_mmc(acc, minmax_collector(x[i], x[i]));\n"
        "    vs[t] = acc;\n"
        "    __syncthreads();\n"
        "    for (int st = 32; st > 0; st /= 2) {\n"
        "        if (t < st) { minmax_collector o = vs[t + st]; minmax_collector me = vs[t]; vs[t] = agg_mmc(me, o); }\n"
        "        __syncthreads();\n"
        "    }\n"
        "    if (t == 0) { minmax_collector r = vs[0]; out[0] = r.cur_min; out[1] = r.cur_max; }\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "red");
    enum { N = 3000 };
    float *x = t_calloc(N, sizeof *x), out[2];
    t_rand_floats(x, N, -500, 500);
    int n = N;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {64}},
                              LAT_ARGS(lat_arg_in(x, N * sizeof *x), lat_arg_out(out, sizeof out), lat_arg_i32(n))));
    float lo = x[0], hi = x[0];
    for (int i = 1; i < N; i++) {
        lo = x[i] < lo ? x[i] : lo;
        hi = x[i] > hi ? x[i] : hi;
    }
    ASSERT_TRUE(out[0] == lo);
    ASSERT_TRUE(out[1] == hi);
}

/* Calls of constexpr functions are constants where C++ needs one: a template's argument,
 * a __shared__ array's size, static_assert. Each still runs as written elsewhere. */
TEST(constexpr_calls_in_constant_expressions)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "constexpr int ilog2(int n) { return n <= 1 ? 0 : 1 + ilog2(n / 2); }\n"
        "constexpr int tile_size() { return 16 * 2; }\n"
        "constexpr unsigned neg(unsigned x) { return -x; }\n"
        "constexpr int pick(int a, int b) { return a > b ? a : b; }\n"
        "template <int N> struct Tile { float v[N]; };\n"
        "static_assert(ilog2(1024) == 10, \"ilog2\");\n"
        "static_assert(neg(1u) == 0xffffffffu, \"unsigned wraps\");\n"
        "const int FILE_SCOPE = tile_size() + 1;\n" /* a C initializer must be a constant */
        "extern \"C\" __global__ void k(int *o, const int *in) {\n"
        "    __shared__ float s[tile_size()];\n"
        "    Tile<ilog2(16)> t;\n"
        "    Tile<pick(3, ilog2(256))> u;\n"
        "    s[threadIdx.x] = threadIdx.x;\n"
        "    __syncthreads();\n"
        "    o[threadIdx.x] = (int)s[31 - threadIdx.x] + (int)sizeof(t) * 100 + (int)sizeof(u) * 10000\n"
        "                     + ilog2(in[threadIdx.x]) * 1000000;\n"
        "    switch (in[threadIdx.x] % 4) { case ilog2(8): o[threadIdx.x] += FILE_SCOPE * 10000000; }\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    int o[32], in[32];
    for (int i = 0; i < 32; i++)
        in[i] = (int)(t_rand_u32() % 100000) + 1;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {32}},
                              LAT_ARGS(lat_arg_out(o, sizeof o), lat_arg_in(in, sizeof in))));
    for (int i = 0; i < 32; i++) {
        int lg = 0;
        for (int n = in[i]; n > 1; n /= 2)
            lg++;
        ASSERT_EQ(o[i], (31 - i) + 16 * 100 + 32 * 10000 + lg * 1000000 + (in[i] % 4 == 3) * 33 * 10000000);
    }
    /* A body the emulator does not evaluate (an array) is no constant: the error says a
     * constant is needed, and what it evaluates. */
    static const char loop[] = "constexpr int f(int n) { int r[2] = {0, 0}; for (int i = 0; i < n; i++) r[i % 2] += i; "
                               "return r[0]; }\n"
                               "template <int N> struct T { int v[N]; };\n"
                               "__global__ void k(int *o) { T<f(4)> t; t.v[0] = 1; o[0] = t.v[0]; }\n";
    if (!t_is_emu(ctx))
        return; /* NVRTC evaluates it: the refusal is the emulator's limit */
    lat_module *m;
    ASSERT_STATUS(LAT_ERROR_COMPILE, lat_module_create(ctx, &(lat_module_desc){.source = loop, .name = "loop.cu"}, &m));
    ASSERT_CONTAINS(lat_last_error(), "must be a constant");
    ASSERT_CONTAINS(lat_last_error(), "no arrays, pointers or globals");
}
