/* What nvcc gives every CUDA program, on both backends: the host C library's macros
 * without an include (INT_MAX, FLT_MAX, INFINITY, M_PI), the standard headers programs
 * include (<stdio.h>, <cstdint>, <type_traits>, <limits>...), functions written without
 * __device__, and nvcc's relaxation options. NVRTC has none of these by itself
 * (src/cuda/std_headers.c gives them); the emulator has them built in. */
#include "harness.h"

#include <complex.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* The same body compiled inside PyCUDA's extern "C" wrap and as written (C++). */
#define AMBIENT_BODY                                                                     \
    "    out[0] = (float)INT_MAX == 2147483647.0f;\n"                                    \
    "    out[1] = FLT_MAX == 3.40282346638528859812e+38F;\n"                             \
    "    out[2] = -INFINITY < -FLT_MAX && isinf(INFINITY);\n"                             \
    "    out[3] = isnan(NAN);\n"                                                          \
    "    out[4] = (float)(M_PI * x[threadIdx.x]);\n"                                      \
    "    out[5] = (float)(CHAR_BIT * sizeof(long)) + DBL_EPSILON;\n"                      \
    "    out[6] = twice(x[threadIdx.x]);\n"

static const char ambient_src[] =
    "constexpr float twice(float v) { return 2.0f * v; } /* no __device__: nvcc's host-only */\n"
    "__global__ void ambient(const float *x, float *out)\n"
    "{\n"
    "    if (threadIdx.x != 0) return;\n" AMBIENT_BODY "}\n";

static void check_ambient(lat_context *ctx, lat_kernel *k)
{
    float x = (float)t_rand_double(1, 2), out[7] = {0};
    lat_deviceptr dx = t_device_copy(ctx, &x, sizeof x), dout = t_device_copy(ctx, NULL, sizeof out);
    void *params[] = {&dx, &dout};
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {1, 1, 1}, .block = {32, 1, 1}}, params));
    ASSERT_OK(lat_memcpy_dtoh(ctx, out, dout, sizeof out));
    for (int i = 0; i < 4; i++)
        ASSERT_MSG(out[i] == 1.0f, "check %d is %g", i, out[i]);
    ASSERT_MSG(fabsf(out[4] - (float)(M_PI * x)) <= 1e-6f * out[4], "%g vs %g", out[4], M_PI * x);
    ASSERT_MSG(out[5] == (float)(CHAR_BIT * sizeof(long)), "%g", out[5]);
    ASSERT_MSG(out[6] == 2.0f * x, "%g vs %g", out[6], 2.0 * x);
}

TEST(the_c_librarys_macros_and_unmarked_functions_need_no_include_as_with_nvcc)
{
    lat_context *ctx = t_context();
    check_ambient(ctx, t_kernel(ctx, ambient_src, "ambient"));
    check_ambient(ctx, t_kernel_as_written(ctx,
                                           "extern \"C\" __global__ void ambient(const float *x, float *out);\n"
                                           "constexpr float twice(float v) { return 2.0f * v; }\n"
                                           "__global__ void ambient(const float *x, float *out)\n"
                                           "{\n"
                                           "    if (threadIdx.x != 0) return;\n" AMBIENT_BODY
                                           "}\n",
                                           "ambient"));
}

/* The C headers, included as C programs include them, inside PyCUDA's wrap. */
static const char c_headers_src[] =
    "#include <stdio.h>\n"
    "#include <stdlib.h>\n"
    "#include <stddef.h>\n"
    "#include <stdint.h>\n"
    "#include <string.h>\n"
    "#include <limits.h>\n"
    "#include <float.h>\n"
    "#include <math.h>\n"
    "#include <assert.h>\n"
    "struct pair { int32_t a; uint64_t b; };\n"
    "__global__ void c_headers(const uint32_t *in, uint64_t *out, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    assert(n > 0);\n"
    "    if (i >= n) return;\n"
    "    uint64_t v = (uint64_t)in[i] * UINT32_MAX + (uint64_t)(INT64_MAX & 0xff);\n"
    "    struct pair p; memset(&p, 0, sizeof p); p.b = v;\n"
    "    out[i] = p.b + offsetof(struct pair, b) + (size_t)(sizeof(int16_t) + sizeof(uint8_t));\n"
    "}\n";

TEST(c_headers_as_c_programs_include_them)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx, c_headers_src, "c_headers");
    enum { N = 300 };
    uint32_t in[N];
    uint64_t out[N];
    for (int i = 0; i < N; i++)
        in[i] = t_rand_u32();
    lat_deviceptr din = t_device_copy(ctx, in, sizeof in), dout = t_device_copy(ctx, NULL, sizeof out);
    int n = N;
    void *params[] = {&din, &dout, &n};
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {(N + 127) / 128, 1, 1}, .block = {128, 1, 1}}, params));
    ASSERT_OK(lat_memcpy_dtoh(ctx, out, dout, sizeof out));
    for (int i = 0; i < N; i++)
        ASSERT_MSG(out[i] == (uint64_t)in[i] * UINT32_MAX + 0xff + 8 + 3, "out[%d] = %llu", i,
                   (unsigned long long)out[i]);
}

/* The C++ library's headers as nvcc programs include them, with their names in std::. */
static const char cxx_headers_src[] =
    "#include <cstdint>\n"
    "#include <climits>\n"
    "#include <cmath>\n"
    "#include <type_traits>\n"
    "#include <limits>\n"
    "#include <utility>\n"
    "#include <array>\n"
    "#include <cassert>\n"
    "template <typename T> struct widen { typedef T type; };\n"
    "template <> struct widen<float> { typedef double type; };\n"
    "template <typename T>\n"
    "__device__ typename std::enable_if<std::is_floating_point<T>::value, T>::type\n"
    "clampmax(T v) { return v > std::numeric_limits<T>::max() / 2 ? std::numeric_limits<T>::max() / 2 : v; }\n"
    "extern \"C\" __global__ void cxx_headers(const float *in, double *out, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i >= n) return;\n"
    "    static_assert(std::is_same<widen<float>::type, double>::value, \"widen\");\n"
    "    static_assert(sizeof(std::int64_t) == 8 && INT_MAX == 2147483647, \"sizes\");\n"
    "    std::array<float, 3> a = {{in[i], 2.0f * in[i], 3.0f}};\n"
    "    std::pair<float, int> p = std::make_pair(a[1], 4);\n"
    "    float m = clampmax(a[0] * a[2]);\n"
    "    assert(p.second == 4);\n"
    "    out[i] = (double)m + p.first * p.second + (double)std::numeric_limits<std::uint8_t>::max();\n"
    "}\n";

TEST(cxx_headers_as_nvcc_programs_include_them)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel_as_written(ctx, cxx_headers_src, "cxx_headers");
    enum { N = 200 };
    float in[N];
    double out[N];
    t_rand_floats(in, N, -100, 100);
    lat_deviceptr din = t_device_copy(ctx, in, sizeof in), dout = t_device_copy(ctx, NULL, sizeof out);
    int n = N;
    void *params[] = {&din, &dout, &n};
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {2, 1, 1}, .block = {128, 1, 1}}, params));
    ASSERT_OK(lat_memcpy_dtoh(ctx, out, dout, sizeof out));
    for (int i = 0; i < N; i++) {
        double want = (double)(in[i] * 3.0f) + (double)(2.0f * in[i]) * 4 + 255;
        ASSERT_MSG(fabs(out[i] - want) <= 1e-9 * fabs(want) + 1e-9, "out[%d] = %g, want %g", i,
                   out[i], want);
    }
}

/* The same C++ headers inside PyCUDA's extern "C" wrap: lattice reads them before it (a
 * template cannot have C linkage), as the emulator does. */
TEST(cxx_headers_inside_pycudas_wrap_are_read_before_it)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx,
                             "#include <limits>\n"
                             "#include <cstdint>\n"
                             "__global__ void lim(std::int32_t *out)\n"
                             "{\n"
                             "    out[threadIdx.x] = std::numeric_limits<std::int32_t>::max() - (int)threadIdx.x;\n"
                             "}\n",
                             "lim");
    int32_t out[32];
    lat_deviceptr dout = t_device_copy(ctx, NULL, sizeof out);
    void *params[] = {&dout};
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {1, 1, 1}, .block = {32, 1, 1}}, params));
    ASSERT_OK(lat_memcpy_dtoh(ctx, out, dout, sizeof out));
    for (int i = 0; i < 32; i++)
        ASSERT_EQ(out[i], INT32_MAX - i);
}

/* nvcc's relaxations, which PyCUDA programs pass: NVRTC 13 no longer knows them, and the
 * emulator always has them; both compile. */
TEST(nvccs_relaxation_options_are_accepted)
{
    lat_context *ctx = t_context();
    const char *sets[][3] = {{"--expt-relaxed-constexpr", NULL}, {"--extended-lambda", NULL},
                             {"-expt-relaxed-constexpr", "--expt-extended-lambda", NULL}};
    for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
        lat_module *m = NULL;
        ASSERT_OK(lat_module_create(
            ctx,
            &(lat_module_desc){.source = "constexpr int sq(int v) { return v * v; }\n"
                                         "__global__ void k(int *o)\n"
                                         "{\n"
                                         "    auto f = [](int v) { return sq(v) + 1; };\n"
                                         "    o[threadIdx.x] = f((int)threadIdx.x);\n"
                                         "}\n",
                               .name = "relax.cu",
                               .options = sets[s]},
            &m));
        lat_kernel *k = NULL;
        ASSERT_OK(lat_module_get_kernel(m, "k", &k));
        int out[16];
        lat_deviceptr d = t_device_copy(ctx, NULL, sizeof out);
        void *params[] = {&d};
        ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {1, 1, 1}, .block = {16, 1, 1}}, params));
        ASSERT_OK(lat_memcpy_dtoh(ctx, out, d, sizeof out));
        for (int i = 0; i < 16; i++)
            ASSERT_EQ(out[i], i * i + 1);
    }
}

/* libcu++'s <cuda/std/...> headers kernels include: cmath's functions in cuda::std, bit's
 * counts and bit_cast, span, algorithm's min/max/clamp, utility's swap, cassert, cfloat.
 * On CUDA NVRTC reads the toolkit's own. */
static const char libcuxx_src[] =
    "#include <cuda/std/cmath>\n"
    "#include <cuda/std/bit>\n"
    "#include <cuda/std/span>\n"
    "#if __has_include(<cuda/std/algorithm>)\n" /* not in CUDA 13.0's libcu++ */
    "#include <cuda/std/algorithm>\n"
    "#define CLAMP cuda::std::clamp\n"
    "#define MIN cuda::std::min\n"
    "#define MAX cuda::std::max\n"
    "#else\n"
    "#define CLAMP(x, lo, hi) fminf(fmaxf(x, lo), hi)\n"
    "#define MIN fminf\n"
    "#define MAX fmaxf\n"
    "#endif\n"
    "#include <cuda/std/utility>\n"
    "#include <cuda/std/cassert>\n"
    "#include <cuda/std/cfloat>\n"
    "#include <cuda/std/cstdint>\n"
    "extern \"C\" __global__ void libcuxx(const float *in, const unsigned *bits, float *out,\n"
    "                                    unsigned *iout, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i >= n) return;\n"
    "    cuda::std::span<const float> s(in, (size_t)n);\n"
    "    assert(s.size() == (size_t)n && !s.empty());\n"
    "    float x = s[i];\n"
    "    unsigned u = bits[i];\n"
    "    out[4 * i] = cuda::std::sqrt(cuda::std::fabs(x)) + cuda::std::exp(-x * x);\n"
    "    out[4 * i + 1] = CLAMP(x, -0.5f, 0.5f) + MIN(x, 0.25f) + MAX(x, s[(i + 1) % n]);\n"
    "    out[4 * i + 2] = (cuda::std::isnan(x) ? 4.0f : 1.0f) + (x < FLT_MAX ? 1.0f : 8.0f)\n"
    "                     + (float)s.subspan(1).size() + s.first(3).back();\n"
    "    float a = x, b = s.back();\n"
    "    cuda::std::swap(a, b);\n"
    "    out[4 * i + 3] = a - 2.0f * b;\n"
    "    unsigned *o = iout + 10 * i;\n"
    "    o[0] = cuda::std::popcount(u); o[1] = cuda::std::countl_zero(u);\n"
    "    o[2] = cuda::std::countr_zero(u); o[3] = cuda::std::bit_width(u);\n"
    "    o[4] = cuda::std::bit_floor(u); o[5] = cuda::std::bit_ceil(u & 0xffffu);\n"
    "    o[6] = cuda::std::rotl(u, i % 40 - 8); o[7] = cuda::std::has_single_bit(u);\n"
    "    o[8] = cuda::std::bit_cast<unsigned>(x);\n"
    "    o[9] = cuda::std::countl_zero((cuda::std::uint64_t)u << 3)\n"
    "           + 100 * cuda::std::countl_one((unsigned char)u);\n"
    "}\n";

static unsigned host_clz(unsigned u) { return u ? (unsigned)__builtin_clz(u) : 32; }

TEST(libcuxx_cmath_bit_span_algorithm_cassert_cfloat)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel_as_written(ctx, libcuxx_src, "libcuxx");
    enum { N = 300 };
    float in[N], out[4 * N];
    unsigned bits[N], iout[10 * N];
    t_rand_floats(in, N, -2, 2);
    for (int i = 0; i < N; i++)
        bits[i] = t_rand_u32() >> (i % 33 == 32 ? 0 : i % 33);
    bits[5] = 0;
    bits[6] = 1u << 17;
    lat_deviceptr din = t_device_copy(ctx, in, sizeof in), db = t_device_copy(ctx, bits, sizeof bits);
    lat_deviceptr dout = t_device_copy(ctx, NULL, sizeof out), dio = t_device_copy(ctx, NULL, sizeof iout);
    int n = N;
    void *params[] = {&din, &db, &dout, &dio, &n};
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {3, 1, 1}, .block = {128, 1, 1}}, params));
    ASSERT_OK(lat_memcpy_dtoh(ctx, out, dout, sizeof out));
    ASSERT_OK(lat_memcpy_dtoh(ctx, iout, dio, sizeof iout));
    for (int i = 0; i < N; i++) {
        float x = in[i], next = in[(i + 1) % N];
        double w0 = sqrt(fabs(x)) + exp(-(double)x * x);
        ASSERT_MSG(fabs(out[4 * i] - w0) <= 1e-6 * w0, "cmath of %g: %g, want %g", x, out[4 * i], w0);
        float w1 = (x < -0.5f ? -0.5f : x > 0.5f ? 0.5f : x) + (x < 0.25f ? x : 0.25f) + (x < next ? next : x);
        ASSERT_MSG(out[4 * i + 1] == w1, "clamp/min/max of %g: %g, want %g", x, out[4 * i + 1], w1);
        ASSERT_MSG(out[4 * i + 2] == 2.0f + (N - 1) + in[2], "span: %g", out[4 * i + 2]);
        ASSERT_MSG(out[4 * i + 3] == in[N - 1] - 2.0f * x, "swap: %g", out[4 * i + 3]);
        unsigned u = bits[i], lo = u & 0xffffu, r = (unsigned)((i % 40 - 8) % 32 + 32) % 32;
        unsigned width = 32 - host_clz(u), fb;
        memcpy(&fb, &x, sizeof fb);
        unsigned want[10] = {(unsigned)__builtin_popcount(u), host_clz(u),
                             u ? (unsigned)__builtin_ctz(u) : 32, width,
                             u ? 1u << (width - 1) : 0,
                             lo <= 1 ? 1u : 1u << (32 - host_clz(lo - 1)),
                             r ? (u << r) | (u >> (32 - r)) : u, u && !(u & (u - 1)), fb,
                             (u ? (unsigned)__builtin_clzll((unsigned long long)u << 3) : 64) +
                                 100 * ((~u & 0xffu) ? host_clz((~u & 0xffu) << 24) : 8)};
        for (int j = 0; j < 10; j++)
            ASSERT_MSG(iout[10 * i + j] == want[j], "bit %d of %#x: %u, want %u", j, u, iout[10 * i + j],
                       want[j]);
    }
}

/* cooperative_groups::memcpy_async into shared memory and wait, by a block and by its warps
 * (the element-count form), each thread then reading what others copied. */
static const char memcpy_async_src[] =
    "#include <cooperative_groups.h>\n"
    "#include <cooperative_groups/memcpy_async.h>\n"
    "namespace cg = cooperative_groups;\n"
    "extern \"C\" __global__ void staged(const float *in, float *out, int n)\n"
    "{\n"
    "    __shared__ float tile[256];\n"
    "    cg::thread_block block = cg::this_thread_block();\n"
    "    int base = blockIdx.x * 256, count = min(256, n - base), t = threadIdx.x;\n"
    "    cg::memcpy_async(block, tile, in + base, sizeof(float) * count);\n"
    "    cg::wait(block);\n"
    "    for (int j = t; j < count; j += blockDim.x) out[2 * (base + j)] = tile[count - 1 - j] * 2.0f;\n"
    "    block.sync();\n"
    "    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);\n"
    "    int w = t / 32, at = base + 32 * w;\n"
    "    int m = at < n ? min(32, n - at) : 0;\n"
    "    cg::memcpy_async(warp, tile + 32 * w, (size_t)m, in + at, (size_t)32);\n"
    "    cg::wait(warp);\n"
    "    if (t % 32 < m) out[2 * (at + t % 32) + 1] = tile[32 * w + (m - 1 - t % 32)] + 1.0f;\n"
    "}\n";

TEST(cooperative_groups_memcpy_async_and_wait)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel_as_written(ctx, memcpy_async_src, "staged");
    enum { N = 1000 };
    float in[N], out[2 * N];
    t_rand_floats(in, N, -10, 10);
    lat_deviceptr din = t_device_copy(ctx, in, sizeof in), dout = t_device_copy(ctx, NULL, sizeof out);
    int n = N;
    void *params[] = {&din, &dout, &n};
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {(N + 255) / 256, 1, 1}, .block = {64, 1, 1}}, params));
    ASSERT_OK(lat_memcpy_dtoh(ctx, out, dout, sizeof out));
    for (int i = 0; i < N; i++) {
        int base = i / 256 * 256, count = N - base < 256 ? N - base : 256;
        ASSERT_MSG(out[2 * i] == in[base + count - 1 - (i - base)] * 2.0f, "block copy at %d: %g", i,
                   out[2 * i]);
    }
    /* the warps cover the first 64 of each 256 */
    for (int b = 0; b * 256 < N; b++)
        for (int j = 0; j < 64 && b * 256 + j < N; j++) {
            int at = b * 256 + j / 32 * 32, m = N - at < 32 ? N - at : 32, i = b * 256 + j;
            ASSERT_MSG(out[2 * i + 1] == in[at + (m - 1 - (i - at))] + 1.0f, "warp copy at %d: %g", i,
                       out[2 * i + 1]);
        }
}

/* <cuda/std/complex>: complex<float> and complex<double> arithmetic and functions, and the
 * real overloads of the names they share (cuda::std::sqrt(double) stays real). */
static const char complex_src[] =
    "#include <cuda/std/complex>\n"
    "#include <cuda/std/cmath>\n"
    "extern \"C\" __global__ void cx(const float *in, float *out, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i >= n) return;\n"
    "    cuda::std::complex<float> z(in[2 * i], in[2 * i + 1]), w = z * z + 1.0f;\n"
    "    cuda::std::complex<double> d(in[2 * i], 2.0);\n"
    "    w /= z;\n"
    "    float *o = out + 8 * i;\n"
    "    o[0] = w.real(); o[1] = w.imag();\n"
    "    o[2] = cuda::std::abs(z) + cuda::std::arg(cuda::std::conj(z));\n"
    "    o[3] = cuda::std::real(cuda::std::sqrt(z)) + cuda::std::imag(cuda::std::exp(z));\n"
    "    o[4] = (float)cuda::std::norm(d * cuda::std::complex<double>(0.5, -1.0));\n"
    "    o[5] = cuda::std::pow(z, 2.0f).real() + cuda::std::log(z).imag();\n"
    "    o[6] = (float)cuda::std::sqrt(3.0) + cuda::std::abs(-2.0f) + cuda::std::exp(0.5f);\n"
    "    o[7] = cuda::std::isnan(in[2 * i]) ? 1.0f : 0.0f;\n"
    "}\n";

TEST(libcuxx_complex)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel_as_written(ctx, complex_src, "cx");
    enum { N = 200 };
    float in[2 * N], out[8 * N];
    t_rand_floats(in, 2 * N, -3, 3);
    lat_deviceptr din = t_device_copy(ctx, in, sizeof in), dout = t_device_copy(ctx, NULL, sizeof out);
    int n = N;
    void *params[] = {&din, &dout, &n};
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {2, 1, 1}, .block = {128, 1, 1}}, params));
    ASSERT_OK(lat_memcpy_dtoh(ctx, out, dout, sizeof out));
    for (int i = 0; i < N; i++) {
        double complex z = CMPLX(in[2 * i], in[2 * i + 1]), w = (z * z + 1) / z;
        double complex d = CMPLX(in[2 * i], 2.0) * CMPLX(0.5, -1.0);
        double want[8] = {creal(w), cimag(w), cabs(z) + carg(conj(z)),
                          creal(csqrt(z)) + cimag(cexp(z)), creal(d) * creal(d) + cimag(d) * cimag(d),
                          creal(z * z) + carg(z), sqrt(3.0) + 2 + exp(0.5), 0};
        for (int j = 0; j < 8; j++)
            ASSERT_MSG(fabs(out[8 * i + j] - want[j]) <= 1e-5 * (fabs(want[j]) + cabs(z) + 1),
                       "complex %d of (%g, %g): %g, want %g", j, in[2 * i], in[2 * i + 1], out[8 * i + j],
                       want[j]);
    }
}

/* libcu++'s atomics as cuDF and CCCL-era code write them: cuda::atomic_ref over global
 * and shared memory of each arithmetic type, cuda::atomic as a member of a struct in
 * global memory, compare_exchange_strong electing one thread, compare_exchange_weak
 * loops (a float maximum and minimum), cuda::'s fetch_min/fetch_max of integers. */
static const char atomic_src[] =
    "#include <cuda/atomic>\n"
    "struct Counters { cuda::atomic<int, cuda::thread_scope_device> hits; unsigned owner; };\n"
    "template <typename T>\n"
    "__device__ T atomic_add(T *address, T val)\n"
    "{\n"
    "    return cuda::atomic_ref<T, cuda::thread_scope_device>{*address}.fetch_add(val, cuda::memory_order_relaxed);\n"
    "}\n"
    "template <typename F>\n"
    "__device__ void update(float *at, F pick)\n"
    "{\n"
    "    cuda::atomic_ref<float, cuda::thread_scope_device> ref(*at);\n"
    "    float old = ref.load(cuda::memory_order_relaxed);\n"
    "    while (!ref.compare_exchange_weak(old, pick(old), cuda::memory_order_relaxed)) {}\n"
    "}\n"
    "extern \"C\" __global__ void at(const float *in, int *ir, unsigned *ur, unsigned long long *ull, float *fr,\n"
    "                                double *dr, Counters *c, int *rank, int n)\n"
    "{\n"
    "    __shared__ int next_slot;\n"
    "    cuda::atomic_ref<int, cuda::thread_scope_block> next(next_slot);\n"
    "    if (threadIdx.x == 0) next.store(0, cuda::memory_order_relaxed);\n"
    "    __syncthreads();\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i >= n) return;\n"
    "    float x = in[i];\n"
    "    atomic_add(&ir[0], (int)(x * 100.0f));\n"
    "    cuda::atomic_ref<int, cuda::thread_scope_device>(ir[1]).fetch_max((int)(x * 1000.0f));\n"
    "    cuda::atomic_ref<int, cuda::thread_scope_device> lo(ir[2]);\n"
    "    lo.fetch_min((int)(x * 1000.0f), cuda::std::memory_order_acq_rel);\n"
    "    cuda::atomic_ref<unsigned, cuda::thread_scope_device> bits(ur[0]);\n"
    "    bits |= 1u << (i % 32);\n"
    "    cuda::std::atomic_ref<unsigned>(ur[1]).fetch_xor((unsigned)i * 2654435761u);\n"
    "    cuda::atomic_ref<unsigned>(ur[2]).fetch_and(~(1u << (i % 16)));\n"
    "    atomic_add(&ull[0], 3ull);\n"
    "    cuda::atomic_ref<unsigned long long> s(ull[1]);\n"
    "    s += (unsigned long long)(x * 1000.0f + 4000.0f);\n"
    "    atomic_add(&fr[0], 0.25f);\n"
    "    update(&fr[1], [x](float o) { return x > o ? x : o; });\n"
    "    update(&fr[2], [x](float o) { return x < o ? x : o; });\n"
    "    atomic_add(&dr[0], (double)x);\n"
    "    c->hits.fetch_add(1, cuda::memory_order_relaxed);\n"
    "    ++c->hits;\n"
    "    unsigned none = 0;\n"
    "    if (cuda::atomic_ref<unsigned>(c->owner).compare_exchange_strong(none, (unsigned)i + 1))\n"
    "        atomic_add(&ir[3], 1);\n"
    "    cuda::atomic_ref<int> mine(rank[i]);\n"
    "    mine.store(next++, cuda::memory_order_release);\n"
    "    if (mine.load(cuda::memory_order_acquire) >= (int)blockDim.x) ir[4] = 1;\n"
    "}\n";

TEST(libcuxx_atomic_ref_and_atomic)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel_as_written(ctx, atomic_src, "at");
    enum { N = 300, B = 64 };
    float in[N], fr[3] = {0, -1e30f, 1e30f};
    int ir[5] = {0, INT_MIN, INT_MAX, 0, 0}, rank[N];
    unsigned ur[3] = {0, 0, 0xffffffffu}, counters[2] = {0, 0};
    unsigned long long ull[2] = {0, 0};
    double dr[1] = {0};
    t_rand_floats(in, N, -2, 2);
    int n = N;
    lat_deviceptr din = t_device_copy(ctx, in, sizeof in), dir = t_device_copy(ctx, ir, sizeof ir),
                  dur = t_device_copy(ctx, ur, sizeof ur), dull = t_device_copy(ctx, ull, sizeof ull),
                  dfr = t_device_copy(ctx, fr, sizeof fr), ddr = t_device_copy(ctx, dr, sizeof dr),
                  dc = t_device_copy(ctx, counters, sizeof counters), drank = t_device_copy(ctx, NULL, sizeof rank);
    void *params[] = {&din, &dir, &dur, &dull, &dfr, &ddr, &dc, &drank, &n};
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {(N + B - 1) / B}, .block = {B}}, params));
    ASSERT_OK(lat_memcpy_dtoh(ctx, ir, dir, sizeof ir));
    ASSERT_OK(lat_memcpy_dtoh(ctx, ur, dur, sizeof ur));
    ASSERT_OK(lat_memcpy_dtoh(ctx, ull, dull, sizeof ull));
    ASSERT_OK(lat_memcpy_dtoh(ctx, fr, dfr, sizeof fr));
    ASSERT_OK(lat_memcpy_dtoh(ctx, dr, ddr, sizeof dr));
    ASSERT_OK(lat_memcpy_dtoh(ctx, counters, dc, sizeof counters));
    ASSERT_OK(lat_memcpy_dtoh(ctx, rank, drank, sizeof rank));
    int sum = 0, hi = INT_MIN, low = INT_MAX;
    unsigned x = 0;
    unsigned long long s = 0;
    float fmx = -1e30f, fmn = 1e30f;
    double d = 0;
    for (int i = 0; i < N; i++) {
        sum += (int)(in[i] * 100.0f);
        int m = (int)(in[i] * 1000.0f);
        hi = m > hi ? m : hi;
        low = m < low ? m : low;
        x ^= (unsigned)i * 2654435761u;
        s += (unsigned long long)(in[i] * 1000.0f + 4000.0f);
        fmx = in[i] > fmx ? in[i] : fmx;
        fmn = in[i] < fmn ? in[i] : fmn;
        d += in[i];
    }
    ASSERT_EQ(ir[0], sum);
    ASSERT_EQ(ir[1], hi);
    ASSERT_EQ(ir[2], low);
    ASSERT_EQ(ir[3], 1); /* one thread won the election */
    ASSERT_EQ(ir[4], 0);
    ASSERT_EQ(ur[0], 0xffffffffu);
    ASSERT_EQ(ur[1], x);
    ASSERT_EQ(ur[2], 0xffff0000u);
    ASSERT_EQ(ull[0], 3ull * N);
    ASSERT_EQ(ull[1], s);
    ASSERT_TRUE(fr[0] == 0.25f * N);
    ASSERT_TRUE(fr[1] == fmx && fr[2] == fmn);
    ASSERT_TRUE(fabs(dr[0] - d) <= 1e-9 * N);
    ASSERT_EQ((int)counters[0], 2 * N);
    ASSERT_TRUE(counters[1] >= 1 && counters[1] <= N);
    for (int b = 0; b * B < N; b++) { /* each block's threads took the ranks 0... once each */
        int size = N - b * B < B ? N - b * B : B;
        unsigned char seen[B] = {0};
        for (int t = 0; t < size; t++) {
            int r = rank[b * B + t];
            ASSERT_TRUE(r >= 0 && r < size && !seen[r]);
            seen[r] = 1;
        }
    }
    lat_deviceptr all[] = {din, dir, dur, dull, dfr, ddr, dc, drank};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        ASSERT_OK(lat_mem_free(ctx, all[i]));
}

/* <algorithm> as nvcc's programs include it beside their kernels: std::min and std::max
 * (also with a comparison), std::clamp, and <utility>'s std::swap. */
TEST(cxx_algorithm_min_max_clamp_in_device_code)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <algorithm>\n"
        "struct Greater { __device__ bool operator()(float a, float b) const { return a > b; } };\n"
        "extern \"C\" __global__ void alg(const float *in, float *out, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    float v = in[i], w = in[n - 1 - i];\n"
        "    std::swap(v, w);\n"
        "    float *o = out + 4 * i;\n"
        "    o[0] = std::min(v, w) + 10.0f * std::max(v, w);\n"
        "    o[1] = std::clamp(v, -0.5f, 0.5f);\n"
        "    o[2] = std::min(v, w, Greater()) - std::max(v, w, Greater());\n"
        "    o[3] = (float)std::max(i, n / 2) + (float)std::clamp(i, 10, 20, [](int a, int b) { return a < b; });\n"
        "}\n";
    /* On CUDA, <algorithm> is libcu++'s <cuda/std/algorithm>, which CUDA 13.0's toolkit
     * does not ship: there the program cannot compile, and the case says so. */
    if (t_require_backend() != LAT_BACKEND_EMU) {
        lat_module *probe = NULL;
        if (lat_module_create(ctx, &(lat_module_desc){.source = "#include <algorithm>\n",
                                                      .name = "probe.cu"},
                              &probe) != LAT_OK)
            SKIP("this toolkit's libcu++ has no <cuda/std/algorithm> (%s)", lat_last_error());
        lat_module_destroy(probe);
    }
    lat_kernel *k = t_kernel_as_written(ctx, src, "alg");
    enum { N = 256 };
    float in[N], out[4 * N];
    t_rand_floats(in, N, -1, 1);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {N / 64}, .block = {64}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out), lat_arg_i32(N))));
    for (int i = 0; i < N; i++) {
        float v = in[N - 1 - i], w = in[i];
        float lo = v < w ? v : w, hi = v < w ? w : v;
        ASSERT_TRUE(out[4 * i] == fmaf(10.0f, hi, lo)); /* fused, as ptxas fuses it */
        ASSERT_TRUE(out[4 * i + 1] == (v < -0.5f ? -0.5f : v > 0.5f ? 0.5f : v));
        ASSERT_TRUE(out[4 * i + 2] == hi - lo);
        ASSERT_TRUE(out[4 * i + 3] == (float)(i > N / 2 ? i : N / 2) + (float)(i < 10 ? 10 : i > 20 ? 20 : i));
    }
}
