/* C++14 constexpr functions (issue 42): bodies with integer locals, loops, if, switch and
 * several returns, evaluated where a constant is needed (template arguments, array sizes,
 * static_assert, case labels) and called at run time as written. The constants must be
 * what the same function computes at run time and on the host, wrap-around included. */
#include "harness.h"

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
    "    case 3: r = C<(unsigned)narrow(100)>::value + C<Cfg::tile(37)>::value; break;\n"
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
                        : i % 4 == 3 ? (unsigned)narrow(100) + (unsigned)tile(37)
                                     : 128u;
        ASSERT_EQ(o[2 * i], want);
        unsigned run = mix(in[i]) + (unsigned)fib((int)(in[i] % 40)) + (unsigned)ilog2(in[i]) +
                       (unsigned)narrow((int)in[i]) + (unsigned)tile((int)(in[i] % 1000));
        ASSERT_EQ(o[2 * i + 1], run);
    }
}

/* What the evaluator does not take leaves the call a call: where a constant is needed the
 * error says so; a shift past the width is no constant either (C++ rejects it too). */
TEST(constexpr_bodies_it_cannot_evaluate_are_no_constants_and_say_so)
{
    lat_context *ctx = t_context();
    static const char *const bad[] = {
        "constexpr int f(int n) { float x = n; return (int)(x * 2); }\n",
        "constexpr int f(int n) { int s = 0; for (int i = 0; i < 40; i++) s = n << i; return s; }\n",
        "constexpr int f(int n) { int u; u = n; return u; }\n",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "%stemplate <int N> struct T { int v[N]; };\n"
                 "__global__ void k(int *o) { T<f(4)> t; t.v[0] = 1; o[0] = t.v[0]; }\n",
                 bad[i]);
        lat_module *m;
        ASSERT_STATUS(LAT_ERROR_COMPILE,
                      lat_module_create(ctx, &(lat_module_desc){.source = text, .name = "c.cu"}, &m));
        ASSERT_CONTAINS(lat_last_error(), "c.cu:3:");
        ASSERT_CONTAINS(lat_last_error(), "must be a constant");
    }
}

/* A constexpr function of floats computing a file-scope constant: C++ evaluates it, the
 * emulator does not, and says so at the variable rather than leave it to the C compiler;
 * the same call in a kernel runs. */
TEST(a_static_variable_computed_by_a_float_constexpr_call_is_refused_by_name)
{
    lat_context *ctx = t_context();
    static const char bad[] = "constexpr float sq(float x) { return x * x; }\n"
                              "constexpr float k2 = sq(3.0f);\n"
                              "__global__ void k(float *o) { o[0] = k2; }\n";
    lat_module *m;
    ASSERT_STATUS(LAT_ERROR_UNSUPPORTED, lat_module_create(ctx, &(lat_module_desc){.source = bad, .name = "f.cu"}, &m));
    ASSERT_CONTAINS(lat_last_error(), "f.cu:2:17: error: the value of 'k2', a call of 'sq' computed where the program "
                                      "starts is not supported");
    static const char ok[] = "constexpr float sq(float x) { return x * x; }\n"
                             "extern \"C\" __global__ void k(float *o) { constexpr float local = sq(1.5f); o[0] = local; }\n";
    lat_kernel *k = t_kernel_as_written(ctx, ok, "k");
    float o = 0;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}}, LAT_ARGS(lat_arg_out(&o, sizeof o))));
    ASSERT_TRUE(o == 2.25f);
}
