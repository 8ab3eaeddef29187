/*
 * How long does the emulator take to compile a kernel module written in C++ (classes,
 * templates, namespaces, references, cooperative groups: about 200 lines), against a
 * C module of the same length compiled in the same run? Prints the median of many
 * compiles of each (the compile cache off) and their ratio. The target (issue 11): a
 * 200-line C++ kernel compiles in milliseconds.
 */
#include "lattice.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench_clock.h"

#define CHECK(x)                                                                           \
    do {                                                                                   \
        lat_status st_ = (x);                                                              \
        if (st_ != LAT_OK) {                                                               \
            fprintf(stderr, "%s failed: %s\n%s\n", #x, lat_status_name(st_), lat_last_error()); \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

/* One C++ unit of about 50 lines; the module is four of them in namespaces. */
#define CXX_UNIT(NS)                                                                       \
    "namespace " NS " {\n"                                                                 \
    "template <typename T> struct Vec2 {\n"                                                \
    "    T x, y;\n"                                                                        \
    "    __device__ Vec2(T a = 0, T b = 0) : x(a), y(b) {}\n"                              \
    "    __device__ Vec2 operator+(const Vec2 &o) const { return Vec2(x + o.x, y + o.y); }\n" \
    "    __device__ Vec2 operator*(T s) const { return Vec2(x * s, y * s); }\n"             \
    "    __device__ T dot(const Vec2 &o) const { return x * o.x + y * o.y; }\n"             \
    "};\n"                                                                                 \
    "class Complex {\n"                                                                    \
    "public:\n"                                                                            \
    "    __device__ Complex(float r = 0, float i = 0) : re_(r), im_(i) {}\n"               \
    "    __device__ Complex operator*(const Complex &o) const\n"                           \
    "    { return Complex(re_ * o.re_ - im_ * o.im_, re_ * o.im_ + im_ * o.re_); }\n"      \
    "    __device__ Complex operator+(const Complex &o) const { return Complex(re_ + o.re_, im_ + o.im_); }\n" \
    "    __device__ float abs2() const { return re_ * re_ + im_ * im_; }\n"                \
    "private:\n"                                                                           \
    "    float re_, im_;\n"                                                                \
    "};\n"                                                                                 \
    "template <typename T, int N> __device__ T sum_n(const T *v)\n"                        \
    "{ T s = 0; for (int i = 0; i < N; i++) s += v[i]; return s; }\n"                      \
    "__device__ inline void body(float &call, float &put, float S, float X, float T, float R, float V)\n" \
    "{\n"                                                                                  \
    "    float sqrtT = sqrtf(T);\n"                                                        \
    "    float d1 = (logf(S / X) + (R + 0.5f * V * V) * T) / (V * sqrtT);\n"               \
    "    float d2 = d1 - V * sqrtT;\n"                                                     \
    "    float e = expf(-R * T);\n"                                                        \
    "    call = S * normcdff(d1) - X * e * normcdff(d2);\n"                                \
    "    put = X * e * (1.0f - normcdff(d2)) - S * (1.0f - normcdff(d1));\n"               \
    "}\n"                                                                                  \
    "template <unsigned int B> __device__ float block_reduce(float *s, float x)\n"        \
    "{\n"                                                                                  \
    "    cg::thread_block block = cg::this_thread_block();\n"                              \
    "    unsigned tid = block.thread_rank();\n"                                            \
    "    s[tid] = x;\n"                                                                    \
    "    block.sync();\n"                                                                  \
    "    for (unsigned k = B / 2; k >= 32; k >>= 1) {\n"                                   \
    "        if (tid < k) s[tid] += s[tid + k];\n"                                         \
    "        block.sync();\n"                                                              \
    "    }\n"                                                                              \
    "    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);\n"               \
    "    return cg::reduce(tile, s[tid & 31], cg::plus<float>());\n"                       \
    "}\n"                                                                                  \
    "extern \"C\" __global__ void k_" NS "(const float *in, float *out, int n)\n"          \
    "{\n"                                                                                  \
    "    __shared__ float s[128];\n"                                                       \
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"                                 \
    "    Vec2<float> a(in[i], 1), b = a * 2.0f + a;\n"                                     \
    "    Complex z(in[i], 0.5f);\n"                                                        \
    "    float c, p;\n"                                                                    \
    "    body(c, p, 10 + in[i], 12, 1, 0.02f, 0.3f);\n"                                    \
    "    out[i] = a.dot(b) + (z * z + z).abs2() + sum_n<float, 2>(in) + c + p + block_reduce<128>(s, in[i]);\n" \
    "}\n"                                                                                  \
    "}\n"

static const char *const cxx_parts[] = {"#include <cooperative_groups.h>\n"
                                        "#include <cooperative_groups/reduce.h>\n"
                                        "namespace cg = cooperative_groups;\n",
                                        CXX_UNIT("a"), CXX_UNIT("b"), CXX_UNIT("c"), CXX_UNIT("d"), NULL};

/* The same work written in C: about as many lines. */
#define C_UNIT(S)                                                                          \
    "typedef struct { float x, y; } vec2_" S ";\n"                                        \
    "__device__ vec2_" S " vadd_" S "(vec2_" S " a, vec2_" S " b)\n"                      \
    "{ vec2_" S " r; r.x = a.x + b.x; r.y = a.y + b.y; return r; }\n"                      \
    "__device__ vec2_" S " vmul_" S "(vec2_" S " a, float s)\n"                            \
    "{ vec2_" S " r; r.x = a.x * s; r.y = a.y * s; return r; }\n"                          \
    "__device__ float vdot_" S "(vec2_" S " a, vec2_" S " b) { return a.x * b.x + a.y * b.y; }\n" \
    "typedef struct { float re, im; } cx_" S ";\n"                                        \
    "__device__ cx_" S " cmul_" S "(cx_" S " a, cx_" S " b)\n"                            \
    "{\n"                                                                                  \
    "    cx_" S " r;\n"                                                                    \
    "    r.re = a.re * b.re - a.im * b.im;\n"                                              \
    "    r.im = a.re * b.im + a.im * b.re;\n"                                              \
    "    return r;\n"                                                                      \
    "}\n"                                                                                  \
    "__device__ cx_" S " cadd_" S "(cx_" S " a, cx_" S " b)\n"                            \
    "{ cx_" S " r; r.re = a.re + b.re; r.im = a.im + b.im; return r; }\n"                  \
    "__device__ float cabs2_" S "(cx_" S " a) { return a.re * a.re + a.im * a.im; }\n"     \
    "__device__ float sum2_" S "(const float *v) { float s = 0; for (int i = 0; i < 2; i++) s += v[i]; return s; }\n" \
    "__device__ void body_" S "(float *call, float *put, float S, float X, float T, float R, float V)\n" \
    "{\n"                                                                                  \
    "    float sqrtT = sqrtf(T);\n"                                                        \
    "    float d1 = (logf(S / X) + (R + 0.5f * V * V) * T) / (V * sqrtT);\n"               \
    "    float d2 = d1 - V * sqrtT;\n"                                                     \
    "    float e = expf(-R * T);\n"                                                        \
    "    *call = S * normcdff(d1) - X * e * normcdff(d2);\n"                               \
    "    *put = X * e * (1.0f - normcdff(d2)) - S * (1.0f - normcdff(d1));\n"              \
    "}\n"                                                                                  \
    "__device__ float block_reduce_" S "(float *s, float x)\n"                            \
    "{\n"                                                                                  \
    "    unsigned tid = threadIdx.x;\n"                                                    \
    "    s[tid] = x;\n"                                                                    \
    "    __syncthreads();\n"                                                               \
    "    for (unsigned k = 64; k >= 32; k >>= 1) {\n"                                      \
    "        if (tid < k) s[tid] += s[tid + k];\n"                                         \
    "        __syncthreads();\n"                                                           \
    "    }\n"                                                                              \
    "    float v = s[tid & 31];\n"                                                         \
    "    for (int off = 16; off > 0; off /= 2)\n"                                          \
    "        v += __shfl_xor_sync(0xffffffffu, v, off);\n"                                 \
    "    return v;\n"                                                                      \
    "}\n"                                                                                  \
    "__global__ void k_" S "(const float *in, float *out, int n)\n"                        \
    "{\n"                                                                                  \
    "    __shared__ float s[128];\n"                                                       \
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"                                 \
    "    vec2_" S " a = {in[i], 1}, b = vadd_" S "(vmul_" S "(a, 2.0f), a);\n"             \
    "    cx_" S " z = {in[i], 0.5f};\n"                                                    \
    "    float c, p;\n"                                                                    \
    "    body_" S "(&c, &p, 10 + in[i], 12, 1, 0.02f, 0.3f);\n"                            \
    "    out[i] = vdot_" S "(a, b) + cabs2_" S "(cadd_" S "(cmul_" S "(z, z), z)) + sum2_" S "(in) + c + p +\n" \
    "             block_reduce_" S "(s, in[i]);\n"                                         \
    "}\n"

static const char *const c_parts[] = {C_UNIT("a"), C_UNIT("b"), C_UNIT("c"), C_UNIT("d"), NULL};

/* The parts joined (C limits one literal's length; the module is longer). */
static char *joined(const char *const *parts)
{
    size_t n = 1;
    for (size_t i = 0; parts[i]; i++)
        n += strlen(parts[i]);
    char *s = malloc(n);
    if (!s)
        exit(1);
    s[0] = '\0';
    for (size_t i = 0; parts[i]; i++)
        strcat(s, parts[i]);
    return s;
}

static int lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

enum { RUNS = 41 };

static double median_compile_ms(lat_context *ctx, const char *src, const char *name)
{
    double t[RUNS];
    for (int r = 0; r < RUNS; r++) {
        double t0 = bench_now_ms();
        lat_module *m;
        CHECK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = name, .no_extern_c = 1}, &m));
        t[r] = bench_now_ms() - t0;
        lat_module_destroy(m);
    }
    qsort(t, RUNS, sizeof t[0], cmp);
    return t[RUNS / 2];
}

int main(void)
{
    setenv("LATTICE_CACHE", "off", 1);
    char *c_source = joined(c_parts), *cxx_source = joined(cxx_parts);
    lat_context *ctx;
    CHECK(lat_context_create(&(lat_context_desc){.backend = LAT_BACKEND_EMU}, &ctx));
    /* alternate, so that drift affects both alike */
    double cxx = 0, c = 0;
    for (int round = 0; round < 3; round++) {
        c += median_compile_ms(ctx, c_source, "c.cu");
        cxx += median_compile_ms(ctx, cxx_source, "cxx.cu");
    }
    printf("compile, emulator, cache off, median of %d x 3:\n", RUNS);
    printf("  C module, %d lines:   %.2f ms\n", lines(c_source), c / 3);
    printf("  C++ module, %d lines: %.2f ms (classes, templates, namespaces, references, cooperative groups)\n",
           lines(cxx_source), cxx / 3);
    printf("  C++ / C: %.2fx\n", cxx / c);
    lat_context_destroy(ctx);
    free(c_source);
    free(cxx_source);
    return 0;
}
