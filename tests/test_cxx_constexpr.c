/* C++14 constexpr functions (issue 42): bodies with integer locals, loops, if, switch and
 * several returns, evaluated where a constant is needed (template arguments, array sizes,
 * static_assert, case labels) and called at run time as written. The constants must be
 * what the same function computes at run time and on the host, unsigned wrap-around
 * included. A signed narrowing out of range (narrow(100): 200 into a signed char) is no
 * constant to NVRTC's front end, so the constants narrow in range and the run-time calls
 * wrap. */
#include "harness.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char src[] =
    "constexpr int ilog2(unsigned n) { int r = 0; while (n >>= 1) ++r; return r; }\n"
    "constexpr int fib(int n) {\n"
    "    if (n < 2) return n;\n"
    "    int a = 0, b = 1;\n"
    "    for (int i = 2; i <= n; i++) { int t = a + b; a = b; b = t; }\n"
    "    return b;\n"
    "}\n"
    "constexpr unsigned next_pow2(unsigned v) {\n"
    "    v--; v |= v >> 1; v |= v >> 2; v |= v >> 4; v |= v >> 8; v |= v >> 16; return v + 1;\n"
    "}\n"
    "constexpr int kind(int x) {\n"
    "    switch (x) { case 1: return 10; case 2: case 3: return 20; default: break; }\n"
    "    return -1;\n"
    "}\n"
    "constexpr unsigned mix(unsigned x) {\n"
    "    for (int i = 0; i < 5; i++) { x = x * 2654435761u + i; if (x & 1) continue; x ^= x >> 7; }\n"
    "    return x;\n"
    "}\n"
    "constexpr int narrow(int x) { signed char c = x; c += 100; short s = c; s <<= 3; return s; }\n"
    "struct Cfg { static constexpr int tile(int w) { int t = 1; do { t *= 2; } while (t < w); return t; } };\n"
    "template <unsigned V> struct C { static constexpr unsigned value = V; };\n"
    "static_assert(ilog2(1024) == 10, \"ilog2\");\n"
    "static_assert(fib(10) == 55 && kind(3) == 20 && kind(7) == -1, \"fib, kind\");\n"
    "extern \"C\" __global__ void k(const unsigned *in, unsigned *o) {\n"
    "    __shared__ int s[next_pow2(100)];\n"
    "    int i = threadIdx.x;\n"
    "    s[i] = i;\n"
    "    __syncthreads();\n"
    "    unsigned r = 0;\n"
    "    switch (i % 4) {\n"
    "    case ilog2(2): r = C<fib(12)>::value; break;\n"
    "    case kind(2) / 10: r = C<mix(12345u)>::value; break;\n"
    "    case 3: r = C<(unsigned)narrow(10)>::value + C<Cfg::tile(37)>::value; break;\n"
    "    default: r = sizeof(s) / sizeof(int);\n"
    "    }\n"
    "    o[2 * i] = r;\n"
    "    o[2 * i + 1] = mix(in[i]) + fib(in[i] % 40) + ilog2(in[i]) + narrow((int)in[i]) + Cfg::tile(in[i] % 1000);\n"
    "}\n";

static int ilog2(unsigned n)
{
    int r = 0;
    while (n >>= 1)
        ++r;
    return r;
}

static int fib(int n)
{
    int a = 0, b = 1;
    if (n < 2)
        return n;
    for (int i = 2; i <= n; i++) {
        int t = a + b;
        a = b;
        b = t;
    }
    return b;
}

static unsigned mix(unsigned x)
{
    for (int i = 0; i < 5; i++) {
        x = x * 2654435761u + (unsigned)i;
        if (x & 1)
            continue;
        x ^= x >> 7;
    }
    return x;
}

static int narrow(int x)
{
    signed char c = (signed char)x;
    c = (signed char)(c + 100);
    short s = c;
    s = (short)(s * 8);
    return s;
}

static int tile(int w)
{
    int t = 1;
    do
        t *= 2;
    while (t < w);
    return t;
}

TEST(cxx14_constexpr_bodies_are_constants_equal_to_their_run_time_values)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    enum { N = 128 };
    unsigned in[N], o[2 * N];
    for (int i = 0; i < N; i++)
        in[i] = t_rand_u32();
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {N}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(o, sizeof o))));
    for (int i = 0; i < N; i++) {
        unsigned want = i % 4 == 1 ? (unsigned)fib(12)
                        : i % 4 == 2 ? mix(12345u)
                        : i % 4 == 3 ? (unsigned)narrow(10) + (unsigned)tile(37)
                                     : 128u;
        ASSERT_EQ(o[2 * i], want);
        unsigned run = mix(in[i]) + (unsigned)fib((int)(in[i] % 40)) + (unsigned)ilog2(in[i]) +
                       (unsigned)narrow((int)in[i]) + (unsigned)tile((int)(in[i] % 1000));
        ASSERT_EQ(o[2 * i + 1], run);
    }
}

/* What the evaluator does not take leaves the call a call: where a constant is needed the
 * error says so; a shift past the width, a division by zero and an uninitialised local
 * (before C++20) are no constants either, in C++ too: NVRTC refuses those three alike. */
TEST(constexpr_bodies_it_cannot_evaluate_are_no_constants_and_say_so)
{
    lat_context *ctx = t_context();
    static const struct {
        const char *f;
        int cxx; /* 0: a constant in C++ (an array local) that the emulator does not evaluate */
    } bad[] = {
        {"constexpr int f(int n) { int a[2] = {n, n}; return a[0]; }\n", 0},
        {"constexpr int f(int n) { float x = n; return (int)(x / 0.0f); }\n", 1},
        {"constexpr int f(int n) { int s = 0; for (int i = 0; i < 40; i++) s = n << i; return s; }\n", 1},
        {"constexpr int f(int n) { int u; u = n; return u; }\n", 1},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (!bad[i].cxx && t_on_gpu(ctx))
            continue;
        char text[512];
        snprintf(text, sizeof text,
                 "%stemplate <int N> struct T { int v[N]; };\n"
                 "__global__ void k(int *o) { T<f(4)> t; t.v[0] = 1; o[0] = t.v[0]; }\n",
                 bad[i].f);
        lat_module *m;
        ASSERT_STATUS(LAT_ERROR_COMPILE,
                      lat_module_create(ctx, &(lat_module_desc){.source = text, .name = "c.cu", .no_extern_c = 1}, &m));
        if (t_is_emu(ctx)) { /* NVRTC says it at line 1 or 3: "expression must have a constant value" */
            ASSERT_CONTAINS(lat_last_error(), "c.cu:3:");
            ASSERT_CONTAINS(lat_last_error(), "must be a constant");
        }
    }
}

/* Floating constexpr calls where a constant is needed (file-scope constants, a
 * __constant__ table, a shared array's size through an int computed from a float): each
 * operation in its declared type, IEEE float or double, as NVRTC's front end evaluates
 * them; bit for bit against the host's same operations. */
static float h_sq(float x)
{
    volatile float r = x * x;
    return r;
}

static double h_poly(double x)
{
    double r = 0;
    for (int i = 0; i < 5; i++) {
        volatile double m = r * x;
        r = m + (i + 1) * 0.1;
    }
    return r;
}

static float h_lerp(float a, float b, float t)
{
    volatile float d = b - a;
    volatile float m = t * d;
    return a + m;
}

TEST(float_constexpr_calls_are_constants_computed_in_their_types)
{
    lat_context *ctx = t_context();
    static const char fsrc[] =
        "constexpr float sq(float x) { return x * x; }\n"
        "constexpr double poly(double x) { double r = 0; for (int i = 0; i < 5; i++) r = r * x + (i + 1) * 0.1; return r; }\n"
        "constexpr float lerp(float a, float b, float t) { return a + t * (b - a); }\n"
        "constexpr float neg(float x) { return -x * 3.0f; }\n"
        "constexpr int ifloor(float x) { return x >= 0 ? (int)x : (int)x - 1; }\n"
        "constexpr float k = sq(3.1f);\n"
        "__constant__ float table[4] = {sq(0.1f), lerp(1.0f, 2.0f, 0.3f), neg(0.7f), (float)poly(1.7)};\n"
        "static constexpr double kd = poly(0.3);\n"
        "constexpr int fl = ifloor(-2.5f);\n"
        "extern \"C\" __global__ void kern(float *out, double *dout)\n"
        "{\n"
        "    __shared__ float s[fl + 10];\n"
        "    s[threadIdx.x] = table[threadIdx.x];\n"
        "    out[threadIdx.x] = s[threadIdx.x];\n"
        "    if (threadIdx.x == 0) { out[4] = k; out[5] = fl; out[6] = sizeof(s); dout[0] = kd; }\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, fsrc, "kern");
    float out[7] = {0};
    double dout = 0;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {4}},
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_out(&dout, sizeof dout))));
    float want[7] = {h_sq(0.1f), h_lerp(1.0f, 2.0f, 0.3f), -0.7f * 3.0f, (float)h_poly(1.7), h_sq(3.1f), -3, 28};
    for (int i = 0; i < 7; i++)
        ASSERT_MSG(memcmp(&out[i], &want[i], sizeof want[i]) == 0, "out[%d] = %a, want %a", i, out[i], want[i]);
    double wd = h_poly(0.3);
    ASSERT_MSG(memcmp(&dout, &wd, sizeof wd) == 0, "kd = %a, want %a", dout, wd);
}

/* A constexpr function computing a file-scope constant with what the emulator does not
 * evaluate (a math function, a division by zero): said at the variable rather than left to
 * the C compiler (NVRTC refuses it too: sqrtf is no constexpr function); the same call in a
 * kernel runs. */
TEST(a_static_variable_computed_by_a_float_constexpr_call_is_refused_by_name)
{
    lat_context *ctx = t_context();
    static const char bad[] = "constexpr float sq(float x) { return sqrtf(x) * x; }\n"
                              "constexpr float k2 = sq(3.0f);\n"
                              "__global__ void k(float *o) { o[0] = k2; }\n";
    lat_module *m;
    lat_status st = lat_module_create(ctx, &(lat_module_desc){.source = bad, .name = "f.cu"}, &m);
    if (t_is_emu(ctx)) {
        ASSERT_STATUS(LAT_ERROR_UNSUPPORTED, st);
        ASSERT_CONTAINS(lat_last_error(), "f.cu:2:17: error: the value of 'k2', a call of 'sq' computed where the "
                                          "program starts is not supported");
    } else {
        ASSERT_STATUS(LAT_ERROR_COMPILE, st);
        ASSERT_CONTAINS(lat_last_error(), "f.cu:2");
    }
    /* const, not constexpr: a constexpr local needs a constant, which sq(1.5f) is not */
    static const char ok[] = "constexpr float sq(float x) { return sqrtf(x) * x; }\n"
                             "extern \"C\" __global__ void k(float *o) { const float local = sq(1.5f); o[0] = local; }\n";
    lat_kernel *k = t_kernel_as_written(ctx, ok, "k");
    float o = 0;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}}, LAT_ARGS(lat_arg_out(&o, sizeof o))));
    ASSERT_TRUE(t_close(o, sqrt(1.5) * 1.5, 1e-6, 1e-6));
}

/* A constexpr lookup table read by a constexpr function where a constant is needed
 * (static_assert, a template argument, a shared array's size): each element as the table
 * gives it, one the list leaves out zero; refused before ("must be a constant"). The
 * same calls at run time agree. */
TEST(constexpr_tables_are_read_by_constexpr_functions_where_a_constant_is_needed)
{
    lat_context *ctx = t_context();
    static const char text[] =
        "constexpr int table[6] = {1, 3, 5, 7, 9};\n"
        "constexpr int sum_table(int n) { int s = 0; for (int i = 0; i < n; i++) s += table[i] * (i + 1); return s; }\n"
        "constexpr unsigned char widths[] = {4, 8, 16, 32};\n"
        "constexpr int width_of(int k) { return widths[k] * 2; }\n"
        "static_assert(sum_table(6) == 1 + 6 + 15 + 28 + 45, \"table\");\n"
        "template <int N> struct T { static constexpr int value = N; };\n"
        "__global__ void k(const int *in, int *o) {\n"
        "    __shared__ int s[width_of(2)];\n"
        "    s[threadIdx.x] = in[threadIdx.x];\n"
        "    __syncthreads();\n"
        "    o[threadIdx.x] = s[31 - threadIdx.x] + T<sum_table(3)>::value * 100 + sum_table(in[0] & 3) * 10000\n"
        "                     + widths[threadIdx.x & 3] * 1000000;\n"
        "}\n";
    lat_module *m;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = text, .name = "c.cu", .no_extern_c = 1}, &m));
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(m, "k", &k));
    int in[32], o[32];
    for (int i = 0; i < 32; i++)
        in[i] = (int)(t_rand_u32() % 1000);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {32}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(o, sizeof o))));
    static const int table[6] = {1, 3, 5, 7, 9, 0}, widths[4] = {4, 8, 16, 32};
    int run = 0;
    for (int i = 0; i < (in[0] & 3); i++)
        run += table[i] * (i + 1);
    for (int i = 0; i < 32; i++)
        ASSERT_EQ(o[i], in[31 - i] + (1 + 6 + 15) * 100 + run * 10000 + widths[i & 3] * 1000000);
    lat_module_destroy(m);
}
