/* What nvcc gives every CUDA program, on both backends: the host C library's macros
 * without an include (INT_MAX, FLT_MAX, INFINITY, M_PI), the standard headers programs
 * include (<stdio.h>, <cstdint>, <type_traits>, <limits>...), functions written without
 * __device__, and nvcc's relaxation options. NVRTC has none of these by itself
 * (src/cuda/std_headers.c gives them); the emulator has them built in. */
#include "harness.h"

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
