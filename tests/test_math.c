/* The CUDA math API as far as C has it, the fast and rounding-mode intrinsics, the
 * integer intrinsics, vector types, bool and the fixed-width types: against the host's C
 * library, within CUDA's documented error bounds for the float functions (a few ulp:
 * checked at 2e-6 relative here) and exactly for everything else. */
#include "harness.h"

#include <fenv.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 256 };

__extension__ typedef unsigned __int128 u128;

TEST(float_and_double_functions_match_the_c_library)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void fns(const float *x, float *f, double *d)\n"
        "{\n"
        "    int i = threadIdx.x;\n"
        "    float a = x[i], p = fabsf(a) + 0.5f;\n"
        "    double b = a, q = p;\n"
        "    float *o = f + 24 * i;\n"
        "    double *e = d + 24 * i;\n"
        "    o[0] = sinf(a); o[1] = cosf(a); o[2] = tanf(a * 0.25f); o[3] = expf(a);\n"
        "    o[4] = logf(p); o[5] = sqrtf(p); o[6] = powf(p, 1.5f); o[7] = atan2f(a, p);\n"
        "    o[8] = tanhf(a); o[9] = erff(a); o[10] = cbrtf(a); o[11] = log1pf(p);\n"
        "    o[12] = hypotf(a, p); o[13] = fmodf(a, 0.75f); o[14] = floorf(a * 3);\n"
        "    o[15] = ceilf(a * 3); o[16] = roundf(a * 3); o[17] = truncf(a * 3);\n"
        "    o[18] = fminf(a, 0.1f); o[19] = fmaxf(a, 0.1f); o[20] = exp2f(a);\n"
        "    o[21] = log2f(p); o[22] = rsqrtf(p); o[23] = sqrt(p) + sin(a);\n" /* float overloads */
        "    e[0] = sin(b); e[1] = cos(b); e[2] = tan(b * 0.25); e[3] = exp(b);\n"
        "    e[4] = log(q); e[5] = sqrt(q); e[6] = pow(q, 1.5); e[7] = atan2(b, q);\n"
        "    e[8] = tanh(b); e[9] = erf(b); e[10] = cbrt(b); e[11] = log1p(q);\n"
        "    e[12] = hypot(b, q); e[13] = fmod(b, 0.75); e[14] = floor(b * 3);\n"
        "    e[15] = ceil(b * 3); e[16] = round(b * 3); e[17] = trunc(b * 3);\n"
        "    e[18] = fmin(b, 0.1); e[19] = fmax(b, 0.1); e[20] = exp2(b);\n"
        "    e[21] = log2(q); e[22] = rsqrt(q); e[23] = fma(b, q, 1.0);\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "fns");
    float x[N];
    t_rand_floats(x, N, -4, 4);
    static float f[24 * N];
    static double d[24 * N];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {N}},
                              LAT_ARGS(lat_arg_in(x, sizeof x), lat_arg_out(f, sizeof f),
                                       lat_arg_out(d, sizeof d))));
    for (int i = 0; i < N; i++) {
        double a = x[i], p = (double)(fabsf(x[i]) + 0.5f);
        double want[24] = {sin(a), cos(a), tan(a * 0.25), exp(a), log(p), sqrt(p),
                           pow(p, 1.5), atan2(a, p), tanh(a), erf(a), cbrt(a), log1p(p),
                           hypot(a, p), fmod(a, 0.75), floor(a * 3), ceil(a * 3),
                           round(a * 3), trunc(a * 3), fmin(a, 0.1), fmax(a, 0.1), exp2(a),
                           log2(p), 1 / sqrt(p), (float)sqrt(p) + sin(a)};
        for (int j = 0; j < 24; j++) {
            double wf = j == 13 ? fmodf((float)a, 0.75f) : want[j];
            if (j >= 14 && j <= 17)
                wf = j == 14 ? floorf(x[i] * 3) : j == 15 ? ceilf(x[i] * 3)
                     : j == 16 ? roundf(x[i] * 3) : truncf(x[i] * 3);
            ASSERT_MSG(t_close(f[24 * i + j], wf, 2e-6, 2e-6), "float fn %d of %.9g: %.9g, want %.9g",
                       j, a, f[24 * i + j], wf);
            double wd = j == 23 ? fma(a, p, 1.0) : j == 18 ? fmin(a, 0.1) : want[j];
            ASSERT_MSG(t_close(d[24 * i + j], wd, 1e-14, 1e-15), "double fn %d of %.17g: %.17g, want %.17g",
                       j, a, d[24 * i + j], wd);
        }
    }
}

TEST(integer_intrinsics_are_exact)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void bits(const unsigned *x, unsigned *o)\n"
        "{\n"
        "    int i = threadIdx.x;\n"
        "    unsigned a = x[i], b = x[(i + 1) % blockDim.x];\n"
        "    unsigned long long l = ((unsigned long long)a << 32) | b;\n"
        "    unsigned *r = o + 20 * i;\n"
        "    r[0] = __popc(a); r[1] = __popcll(l); r[2] = __clz((int)a); r[3] = __clzll((long long)l);\n"
        "    r[4] = __ffs((int)a); r[5] = __ffsll((long long)l); r[6] = __brev(a);\n"
        "    r[7] = (unsigned)(__brevll(l) >> 32); r[8] = (unsigned)__mulhi((int)a, (int)b);\n"
        "    r[9] = __umulhi(a, b); r[10] = (unsigned)(__umul64hi(l, l) >> 7);\n"
        "    r[11] = __mul24(a & 0xffffff, b & 0xfff); r[12] = __sad((int)a, (int)b, 7u);\n"
        "    r[13] = __usad(a, b, 3u); r[14] = (unsigned)__hadd((int)a, (int)b);\n"
        "    r[15] = __urhadd(a, b); r[16] = __byte_perm(a, b, 0x5140);\n"
        "    r[17] = __funnelshift_l(a, b, i); r[18] = __funnelshift_rc(a, b, i);\n"
        "    r[19] = min(a, b) + max((int)a, (int)b) + umin(a, 5u);\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "bits");
    unsigned x[64];
    for (int i = 0; i < 64; i++)
        x[i] = t_rand_u32() >> (i % 7 * 5);
    x[3] = 0;
    unsigned o[20 * 64];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {64}},
                              LAT_ARGS(lat_arg_in(x, sizeof x), lat_arg_out(o, sizeof o))));
    for (int i = 0; i < 64; i++) {
        unsigned a = x[i], b = x[(i + 1) % 64];
        unsigned long long l = ((unsigned long long)a << 32) | b;
        unsigned brev = 0;
        for (int j = 0; j < 32; j++)
            brev |= (a >> j & 1u) << (31 - j);
        unsigned long long brevll = 0;
        for (int j = 0; j < 64; j++)
            brevll |= (l >> j & 1u) << (63 - j);
        unsigned long long v = ((unsigned long long)b << 32) | a;
        unsigned perm = 0;
        for (int j = 0; j < 4; j++)
            perm |= (unsigned)(v >> (8 * ((0x5140u >> (4 * j)) & 7)) & 0xff) << (8 * j);
        unsigned sh = (unsigned)i;
        unsigned want[20] = {
            (unsigned)__builtin_popcount(a), (unsigned)__builtin_popcountll(l),
            a ? (unsigned)__builtin_clz(a) : 32u, l ? (unsigned)__builtin_clzll(l) : 64u,
            (unsigned)__builtin_ffs((int)a), (unsigned)__builtin_ffsll((long long)l), brev,
            (unsigned)(brevll >> 32), (unsigned)(((long long)(int)a * (int)b) >> 32),
            (unsigned)(((unsigned long long)a * b) >> 32),
            (unsigned)((unsigned long long)(((u128)l * l) >> 64) >> 7),
            (unsigned)((int32_t)((a & 0xffffff) << 8) >> 8) * (b & 0xfff),
            ((int)a > (int)b ? (unsigned)a - b : (unsigned)b - a) + 7u,
            (a > b ? a - b : b - a) + 3u,
            (unsigned)(int)(((long long)(int)a + (int)b) >> 1),
            (unsigned)(((unsigned long long)a + b + 1) >> 1), perm,
            (unsigned)((v << (sh & 31)) >> 32),
            sh >= 32 ? b : (unsigned)(v >> sh),
            (a < b ? a : b) + (unsigned)((int)a > (int)b ? (int)a : (int)b) + (a < 5 ? a : 5u)};
        for (int j = 0; j < 20; j++)
            ASSERT_MSG(o[20 * i + j] == want[j], "intrinsic %d of %#x, %#x: %#x, want %#x", j, a, b,
                       o[20 * i + j], want[j]);
    }
}

/* Valgrind runs floating point in round-to-nearest whatever fesetround says: the host
 * reference below cannot be computed under it (the emulator sets no mode, so the fixed
 * cases above run there too). */
static bool under_valgrind(void)
{
    const char *preload = getenv("LD_PRELOAD");
    return preload && strstr(preload, "vgpreload");
}

TEST(rounding_modes_and_saturating_conversions)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void modes(float *f, double *d, long long *i)\n"
        "{\n"
        "    f[0] = __fadd_rz(1.0f, 1e-8f); f[1] = __fadd_ru(1.0f, 1e-8f);\n"
        "    f[2] = __fadd_rd(-1.0f, -1e-8f); f[3] = __fmul_ru(3.0f, 1.0f / 3.0f);\n"
        "    f[4] = __fdiv_rz(1.0f, 3.0f); f[5] = __fdiv_ru(1.0f, 3.0f); f[6] = __fsqrt_rd(2.0f);\n"
        "    f[7] = __fsqrt_ru(2.0f); f[8] = __int2float_rz(16777217); f[9] = __int2float_ru(16777217);\n"
        "    f[10] = __double2float_rd(0.1); f[11] = __double2float_ru(0.1);\n"
        "    f[12] = __saturatef(1.5f) + __saturatef(-2.0f) + __saturatef(0.25f);\n"
        "    f[13] = __fdividef(1.0f, 4.0f) + __expf(0.0f) + __int_as_float(0x3f800000);\n"
        "    d[0] = __dadd_rz(1.0, 1e-17); d[1] = __dadd_ru(1.0, 1e-17); d[2] = __ddiv_rd(1.0, 3.0);\n"
        "    d[3] = __ddiv_ru(1.0, 3.0); d[4] = __ll2double_rz(9007199254740993LL);\n"
        "    d[5] = __hiloint2double(__double2hiint(2.5), __double2loint(2.5));\n"
        "    i[0] = __float2int_rn(2.5f); i[1] = __float2int_rn(3.5f); i[2] = __float2int_rz(-2.7f);\n"
        "    i[3] = __float2int_ru(2.1f); i[4] = __float2int_rd(-2.1f); i[5] = __float2int_rn(3e9f);\n"
        "    i[6] = __float2int_rn(-3e9f); i[7] = __float2uint_rn(-5.0f); i[8] = __float2int_rn(__int_as_float(0x7fc00000));\n"
        "    i[9] = __double2ll_rd(-0.5); i[10] = (long long)__double2ull_ru(1e30);\n"
        "    i[11] = __float2ll_rz(1e19f); i[12] = __double2uint_ru(4294967295.5);\n"
        "    i[13] = __float_as_int(1.0f); i[14] = __double_as_longlong(1.0);\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "modes");
    float f[14];
    double d[6];
    long long i[15];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                              LAT_ARGS(lat_arg_out(f, sizeof f), lat_arg_out(d, sizeof d),
                                       lat_arg_out(i, sizeof i))));
    const float wf[14] = {1.0f, nextafterf(1.0f, 2.0f), nextafterf(-1.0f, -2.0f),
                          nextafterf(1.0f, 2.0f), 0.333333313465118408203125f,
                          0.3333333432674407958984375f, 1.41421353816986083984375f,
                          1.4142136573791503906250f, 16777216.0f, 16777218.0f,
                          0.0999999940395355224609375f, 0.100000001490116119384765625f, 1.25f,
                          2.25f};
    for (int j = 0; j < 14; j++)
        ASSERT_MSG(f[j] == wf[j], "f[%d] = %.9g, want %.9g", j, f[j], wf[j]);
    const double wd[6] = {1.0, nextafter(1.0, 2.0), 0.33333333333333331483,
                          nextafter(0.33333333333333331483, 1.0), 9007199254740992.0, 2.5};
    for (int j = 0; j < 6; j++)
        ASSERT_MSG(d[j] == wd[j], "d[%d] = %.17g, want %.17g", j, d[j], wd[j]);
    const long long wi[15] = {2, 4, -2, 3, -3, 2147483647, -2147483647 - 1, 0, 0, -1,
                              -1, INT64_MAX, 4294967295LL, 0x3f800000, 0x3ff0000000000000LL};
    for (int j = 0; j < 15; j++)
        ASSERT_MSG(i[j] == wi[j], "i[%d] = %lld, want %lld", j, i[j], wi[j]);
}

/* Operands that reach every path of a directed rounding: ordinary values, values whose
 * sum or product falls into the subnormal range or overflows, zeros, infinities, NaN. */
static uint64_t edge_bits(int i, bool dbl)
{
    static const uint64_t f[] = {0x00000001, 0x00800000, 0x007fffff, 0x7f7fffff, 0x7f800000,
                                 0x7fc00000, 0x80000000, 0x00000000, 0x3f800001, 0x0f800000};
    static const uint64_t d[] = {0x1ull, 0x0010000000000000ull, 0x000fffffffffffffull,
                                 0x7fefffffffffffffull, 0x7ff0000000000000ull,
                                 0x7ff8000000000000ull, 0x8000000000000000ull, 0,
                                 0x3ff0000000000001ull, 0x1e00000000000000ull};
    uint64_t r = (uint64_t)t_rand_u32() << 32 | t_rand_u32();
    switch (i % 4) {
    case 0: return dbl ? d[r % 10] ^ (r & 0x8000000000000000ull) : f[r % 10] ^ (r & 0x80000000u);
    case 1: return dbl ? r : (uint32_t)r; /* any pattern: every exponent */
    default: { /* a magnitude near 1, where sums round */
        if (dbl) {
            double x = t_rand_double(-4, 4);
            memcpy(&r, &x, sizeof x);
        } else {
            float x = (float)t_rand_double(-4, 4);
            uint32_t u;
            memcpy(&u, &x, sizeof x);
            r = u;
        }
        return r;
    }
    }
}

static float host_fop(int op, int mode, float a, float b, float c)
{
    volatile float x = a, y = b, z = c, r;
    int saved = fegetround();
    fesetround(mode);
    switch (op) {
    case 0: r = x + y; break;
    case 1: r = x - y; break;
    case 2: r = x * y; break;
    case 3: r = x / y; break;
    case 4: r = 1.0f / x; break;
    case 5: r = sqrtf(x); break;
    default: r = fmaf(x, y, z); break;
    }
    fesetround(saved);
    return r;
}

static double host_dop(int op, int mode, double a, double b, double c)
{
    volatile double x = a, y = b, z = c, r;
    int saved = fegetround();
    fesetround(mode);
    switch (op) {
    case 0: r = x + y; break;
    case 1: r = x - y; break;
    case 2: r = x * y; break;
    case 3: r = x / y; break;
    case 4: r = 1.0 / x; break;
    case 5: r = sqrt(x); break;
    default: r = fma(x, y, z); break;
    }
    fesetround(saved);
    return r;
}

static bool same_float(double got, double want)
{
    return (got != got && want != want) || (got == want && signbit(got) == signbit(want));
}

/* Every directed-rounding operation and conversion over random and edge operands,
 * against the host's own arithmetic under fesetround: IEEE's definition, which the
 * GPU's instructions follow. */
TEST(directed_rounding_matches_ieee_on_random_and_edge_operands)
{
    lat_context *ctx = t_context();
    if (under_valgrind())
        SKIP("the host reference needs fesetround, which valgrind does not honour");
    enum { M = 512, OPS = 7, MODES = 3, CONV = 5 };
    static const char *const fops[OPS] = {"__fadd", "__fsub", "__fmul", "__fdiv",
                                          "__frcp", "__fsqrt", "__fmaf"};
    static const char *const dops[OPS] = {"__dadd", "__dsub", "__dmul", "__ddiv",
                                          "__drcp", "__dsqrt", "__fma"};
    static const char *const args[OPS] = {"(x, y)", "(x, y)", "(x, y)", "(x, y)",
                                          "(x)", "(x)", "(x, y, z)"};
    static const char *const convs[CONV] = {"__ll2float", "__ull2float", "__ll2double",
                                            "__ull2double", "__double2float"};
    static const char *const sfx[MODES] = {"_rz", "_ru", "_rd"};
    static const int fe[MODES] = {FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};
    char src[8192];
    size_t at = (size_t)snprintf(
        src, sizeof src,
        "__global__ void k(const float *fa, double *fo, const double *da, double *dout,\n"
        "                  const long long *ia, double *co)\n{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    float x = fa[3 * i], y = fa[3 * i + 1], z = fa[3 * i + 2];\n");
    for (int o = 0; o < OPS; o++)
        for (int m = 0; m < MODES; m++)
            at += (size_t)snprintf(src + at, sizeof src - at, "    fo[%d * i + %d] = %s%s%s;\n",
                                   OPS * MODES, o * MODES + m, fops[o], sfx[m], args[o]);
    at += (size_t)snprintf(src + at, sizeof src - at,
                           "    { double x = da[3 * i], y = da[3 * i + 1], z = da[3 * i + 2];\n");
    for (int o = 0; o < OPS; o++)
        for (int m = 0; m < MODES; m++)
            at += (size_t)snprintf(src + at, sizeof src - at, "    dout[%d * i + %d] = %s%s%s;\n",
                                   OPS * MODES, o * MODES + m, dops[o], sfx[m], args[o]);
    at += (size_t)snprintf(src + at, sizeof src - at, "    }\n    long long l = ia[i];\n");
    for (int c = 0; c < CONV; c++)
        for (int m = 0; m < MODES; m++)
            at += (size_t)snprintf(src + at, sizeof src - at, "    co[%d * i + %d] = %s%s(%s);\n",
                                   CONV * MODES, c * MODES + m, convs[c], sfx[m],
                                   c == 4 ? "da[3 * i]" : c % 2 ? "(unsigned long long)l" : "l");
    snprintf(src + at, sizeof src - at, "}\n");
    lat_kernel *k = t_kernel(ctx, src, "k");
    float *fa = t_calloc(3 * M, sizeof *fa);
    double *da = t_calloc(3 * M, sizeof *da), *fo = t_calloc(OPS * MODES * M, sizeof *fo);
    double *dout = t_calloc(OPS * MODES * M, sizeof *dout), *co = t_calloc(CONV * MODES * M, sizeof *co);
    long long *ia = t_calloc(M, sizeof *ia);
    for (int i = 0; i < 3 * M; i++) {
        uint32_t u = (uint32_t)edge_bits(i / 3 + i, false);
        uint64_t v = edge_bits(i / 3 + i, true);
        memcpy(&fa[i], &u, sizeof u);
        memcpy(&da[i], &v, sizeof v);
    }
    /* products of nearby magnitudes, so that fma's sums cancel */
    for (int i = 0; i < M; i += 8)
        fa[3 * i + 2] = -fa[3 * i] * fa[3 * i + 1], da[3 * i + 2] = -da[3 * i] * da[3 * i + 1];
    for (int i = 0; i < M; i++)
        ia[i] = (long long)((uint64_t)t_rand_u32() << 32 | t_rand_u32()) >> (i % 40);
    ASSERT_OK(lat_launch_args(
        k, &(lat_launch_desc){.grid = {M / 64}, .block = {64}},
        LAT_ARGS(lat_arg_in(fa, 3 * M * sizeof *fa), lat_arg_out(fo, OPS * MODES * M * sizeof *fo),
                 lat_arg_in(da, 3 * M * sizeof *da), lat_arg_out(dout, OPS * MODES * M * sizeof *dout),
                 lat_arg_in(ia, M * sizeof *ia), lat_arg_out(co, CONV * MODES * M * sizeof *co))));
    for (int i = 0; i < M; i++)
        for (int o = 0; o < OPS; o++)
            for (int m = 0; m < MODES; m++) {
                const float *x = fa + 3 * i;
                const double *y = da + 3 * i;
                double gf = fo[OPS * MODES * i + o * MODES + m], wf = host_fop(o, fe[m], x[0], x[1], x[2]);
                ASSERT_MSG(same_float(gf, wf), "%s%s(%a, %a, %a) = %a, want %a", fops[o], sfx[m],
                           x[0], x[1], x[2], gf, wf);
                double gd = dout[OPS * MODES * i + o * MODES + m], wd = host_dop(o, fe[m], y[0], y[1], y[2]);
                ASSERT_MSG(same_float(gd, wd), "%s%s(%a, %a, %a) = %a, want %a", dops[o], sfx[m],
                           y[0], y[1], y[2], gd, wd);
            }
    for (int i = 0; i < M; i++)
        for (int m = 0; m < MODES; m++) {
            long long l = ia[i];
            unsigned long long u = (unsigned long long)l;
            volatile long long vl = l;
            volatile unsigned long long vu = u;
            volatile double vd = da[3 * i];
            int saved = fegetround();
            fesetround(fe[m]);
            double want[CONV] = {(float)vl, (float)vu, (double)vl, (double)vu, (float)vd};
            fesetround(saved);
            for (int c = 0; c < CONV; c++) {
                double got = co[CONV * MODES * i + c * MODES + m];
                ASSERT_MSG(same_float(got, want[c]), "%s%s of %lld (%a): %a, want %a", convs[c],
                           sfx[m], l, da[3 * i], got, want[c]);
            }
        }
}

TEST(vector_types_bool_and_fixed_width_integers)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#ifdef __LATTICE_EMU__\n"
        "#include <stdint.h>\n" /* NVRTC has no system headers */
        "#else\n"
        "typedef signed char int8_t; typedef unsigned short uint16_t;\n"
        "typedef unsigned long long uint64_t;\n"
        "#endif\n"
        "__global__ void vec(const float4 *in, float4 *out, int2 *p, uint64_t *u, bool *flags)\n"
        "{\n"
        "    int i = threadIdx.x;\n"
        "    float4 v = in[i];\n"
        "    float2 h = make_float2(v.x + v.y, v.z * v.w);\n"
        "    out[i] = make_float4(h.y, h.x, (float)sizeof(float3), (float)__alignof__(float4));\n"
        "    p[i] = make_int2(i, -i);\n"
        "    int8_t small = (int8_t)(i * 7);\n"
        "    uint16_t mid = (uint16_t)(i * 4099);\n"
        "    u[i] = (uint64_t)small + ((uint64_t)mid << 8) + ((uint64_t)1 << 40);\n"
        "    bool odd = i % 2;\n"
        "    flags[i] = odd == true && sizeof(double2) == 16 && sizeof(char3) == 3;\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "vec");
    enum { M = 32 };
    float in[4 * M], out[4 * M];
    int p[2 * M];
    uint64_t u[M];
    unsigned char flags[M];
    t_rand_floats(in, 4 * M, -2, 2);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {M}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out),
                                       lat_arg_out(p, sizeof p), lat_arg_out(u, sizeof u),
                                       lat_arg_out(flags, sizeof flags))));
    for (int i = 0; i < M; i++) {
        ASSERT_TRUE(out[4 * i] == in[4 * i + 2] * in[4 * i + 3]);
        ASSERT_TRUE(out[4 * i + 1] == in[4 * i] + in[4 * i + 1]);
        ASSERT_TRUE(out[4 * i + 2] == 12.0f);
        ASSERT_TRUE(out[4 * i + 3] == 16.0f);
        ASSERT_EQ(p[2 * i], i);
        ASSERT_EQ(p[2 * i + 1], -i);
        ASSERT_U64_EQ(u[i], (uint64_t)(int8_t)(i * 7) + ((uint64_t)(uint16_t)(i * 4099) << 8) +
                                (1ULL << 40));
        ASSERT_EQ(flags[i], i % 2);
    }
}

TEST(inverse_error_functions_normcdf_and_bessel_functions)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void inv(const double *x, double *d, float *f)\n"
        "{\n"
        "    int i = threadIdx.x;\n"
        "    double a = x[i], p = 0.5 * (a + 1.0);\n" /* p in (0, 1) */
        "    d[8 * i + 0] = erfinv(a); d[8 * i + 1] = erfcinv(1.0 - a); d[8 * i + 2] = normcdf(4 * a);\n"
        "    d[8 * i + 3] = normcdfinv(p); d[8 * i + 4] = j0(8 * a); d[8 * i + 5] = j1(8 * a);\n"
        "    d[8 * i + 6] = y0(4 * p + 0.1); d[8 * i + 7] = y1(4 * p + 0.1);\n"
        "    float af = (float)a, pf = (float)p;\n"
        "    f[4 * i + 0] = erfinvf(af); f[4 * i + 1] = erfcinvf(1.0f - af); f[4 * i + 2] = normcdff(4 * af);\n"
        "    f[4 * i + 3] = normcdfinvf(pf);\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "inv");
    static double x[N], d[8 * N];
    static float f[4 * N];
    for (int i = 0; i < N; i++)
        x[i] = t_rand_double(-0.999, 0.999);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {N}},
                              LAT_ARGS(lat_arg_in(x, sizeof x), lat_arg_out(d, sizeof d), lat_arg_out(f, sizeof f))));
    for (int i = 0; i < N; i++) {
        double a = x[i], p = 0.5 * (a + 1.0);
        /* the inverses checked through the functions they invert */
        ASSERT_MSG(t_close(erf(d[8 * i]), a, 1e-13, 1e-15), "erf(erfinv(%.17g)) = %.17g", a, erf(d[8 * i]));
        ASSERT_MSG(t_close(erfc(d[8 * i + 1]), 1.0 - a, 1e-13, 1e-15), "erfc(erfcinv(%.17g))", 1.0 - a);
        ASSERT_MSG(t_close(d[8 * i + 2], 0.5 * erfc(-4 * a / sqrt(2.0)), 1e-14, 1e-15), "normcdf(%.17g)", 4 * a);
        ASSERT_MSG(t_close(0.5 * erfc(-d[8 * i + 3] / sqrt(2.0)), p, 1e-13, 1e-15), "normcdfinv(%.17g)", p);
        ASSERT_MSG(t_close(d[8 * i + 4], j0(8 * a), 1e-9, 1e-11), "j0(%.17g) = %.17g", 8 * a, d[8 * i + 4]);
        ASSERT_MSG(t_close(d[8 * i + 5], j1(8 * a), 1e-9, 1e-11), "j1(%.17g)", 8 * a);
        ASSERT_MSG(t_close(d[8 * i + 6], y0(4 * p + 0.1), 1e-9, 1e-11), "y0(%.17g)", 4 * p + 0.1);
        ASSERT_MSG(t_close(d[8 * i + 7], y1(4 * p + 0.1), 1e-9, 1e-11), "y1(%.17g)", 4 * p + 0.1);
        float af = (float)a, pf = (float)p;
        ASSERT_MSG(t_close(erf(f[4 * i]), af, 2e-6, 1e-7), "erfinvf(%.9g) = %.9g", af, f[4 * i]);
        ASSERT_MSG(t_close(erfc(f[4 * i + 1]), 1.0f - af, 2e-6, 1e-7), "erfcinvf(%.9g)", 1.0f - af);
        ASSERT_MSG(t_close(f[4 * i + 2], 0.5 * erfc(-4.0 * af / sqrt(2.0)), 2e-6, 1e-7), "normcdff(%.9g)", 4 * af);
        ASSERT_MSG(t_close(0.5 * erfc(-f[4 * i + 3] / sqrt(2.0)), pf, 2e-6, 1e-7), "normcdfinvf(%.9g)", pf);
    }
}

/* CUDA's math headers overload sincos, modf, frexp and remquo for float, as C++ programs
 * call them (`float s, c; sincos(x, &s, &c);`); the emulator refused the float pointers
 * (C's double forms only). With a double anywhere the double form is chosen. */
TEST(float_overloads_of_the_functions_that_return_through_pointers)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void k(const float *x, const float *y, float *o, int *e, double *d, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    float s, c, ip;\n"
        "    sincos(x[i], &s, &c);\n"
        "    float f = modf(x[i], &ip);\n"
        "    int ex, q;\n"
        "    float m = frexp(x[i], &ex);\n"
        "    float r = remquo(x[i], y[i], &q);\n"
        "    double dip;\n"
        "    double df = modf(x[i], &dip);\n"
        "    o[5 * i] = s; o[5 * i + 1] = c; o[5 * i + 2] = f + ip; o[5 * i + 3] = m;\n"
        "    o[5 * i + 4] = r;\n"
        "    e[2 * i] = ex; e[2 * i + 1] = q & 7;\n"
        "    d[i] = df + dip;\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "k");
    enum { M = 1000 };
    float *x = t_calloc(M, sizeof *x), *y = t_calloc(M, sizeof *y), *o = t_calloc(5 * M, sizeof *o);
    int *e = t_calloc(2 * M, sizeof *e);
    double *d = t_calloc(M, sizeof *d);
    t_rand_floats(x, M, -100, 100);
    t_rand_floats(y, M, 0.5f, 7);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {(M + 127) / 128}, .block = {128}},
                              LAT_ARGS(lat_arg_in(x, M * sizeof *x), lat_arg_in(y, M * sizeof *y),
                                       lat_arg_out(o, 5 * M * sizeof *o),
                                       lat_arg_out(e, 2 * M * sizeof *e),
                                       lat_arg_out(d, M * sizeof *d), lat_arg_i32(M))));
    for (int i = 0; i < M; i++) {
        float ip, f = modff(x[i], &ip);
        int ex, q;
        float m = frexpf(x[i], &ex), r = remquof(x[i], y[i], &q);
        ASSERT_MSG(t_close(o[5 * i], sinf(x[i]), 1e-6, 2e-6), "sin(%g) = %g", x[i], o[5 * i]);
        ASSERT_MSG(t_close(o[5 * i + 1], cosf(x[i]), 1e-6, 2e-6), "cos(%g) = %g", x[i], o[5 * i + 1]);
        ASSERT_MSG(o[5 * i + 2] == f + ip && o[5 * i + 3] == m && o[5 * i + 4] == r,
                   "x = %g: modf %g, frexp %g, remquo %g", x[i], o[5 * i + 2], o[5 * i + 3], o[5 * i + 4]);
        ASSERT_MSG(e[2 * i] == ex && e[2 * i + 1] == (q & 7), "x = %g: exponent %d, quotient %d",
                   x[i], e[2 * i], e[2 * i + 1]);
        double dip, df = modf((double)x[i], &dip);
        ASSERT_MSG(d[i] == df + dip, "x = %g: double modf %g", x[i], d[i]);
    }
}

/* |got - want| in units of the last place of a format with `bits` fraction bits whose
 * smallest normal is 2^min_exp (ulp(w) = 2^(exponent - bits), subnormals' 2^(min_exp -
 * bits)): the measure of CUDA's documented error bounds. Infinities and NaNs must match. */
static bool within_ulps_of(double got, double want, double ulps, int bits, int min_exp)
{
    if (isnan(want) || isinf(want) || isinf(got) || isnan(got))
        return (isnan(want) && isnan(got)) || got == want;
    double w = fabs(want);
    double ulp = ldexp(1.0, (w < ldexp(1.0, min_exp) ? min_exp : ilogb(w)) - bits);
    return fabs(got - want) <= ulps * ulp;
}

/* In float ulps (2^-149 below FLT_MIN)... */
static bool within_ulps_f(float got, double want, double ulps)
{
    return within_ulps_of(got, want, ulps, 23, -126);
}

/* ...and in double ulps (2^-1074 below DBL_MIN). */
static bool within_ulps(double got, double want, double ulps)
{
    return within_ulps_of(got, want, ulps, 52, -1022);
}

/* I0 and I1 by the trapezoidal rule on (1/pi) int_0^pi e^(x cos t) cos(nu t) dt, which
 * for a periodic analytic integrand is exact to rounding with enough points; e^(x (cos t
 * - 1)) keeps the terms in range, e^x applied in halves. An independent reference. */
static double host_bessel_i(int nu, double x)
{
    double ax = fabs(x), sum = 0;
    int n = 64 + (int)ax;
    for (int j = 0; j < n; j++) {
        double t = M_PI * (j + 0.5) / n;
        sum += exp(ax * (cos(t) - 1)) * (nu ? cos(t) : 1);
    }
    double h = exp(ax / 2), r = h * (h * (sum / n));
    return nu && x < 0 ? -r : r;
}

/* CUDA's norms, erfcx, the Bessel functions of integer order and the modified ones, and
 * scalbln: against host references within CUDA's documented error bounds (norm3df,
 * rnorm3df, norm4df, rnorm4df, rhypotf 2 ulp and erfcxf 4, cyl_bessel_i0f/i1f 6, jnf and
 * ynf 2.2e-6 absolute where x >= n, ynf ceil(2 + 2.5n) ulp below; the doubles within
 * 1e-14, the host's own references being no closer), on random and edge inputs. */
TEST(norms_erfcx_and_bessel_functions_within_cuda_bounds)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void k(const float *x, float *f, double *d)\n"
        "{\n"
        "    int i = threadIdx.x;\n"
        "    float a = x[4 * i], b = x[4 * i + 1], c = x[4 * i + 2], e = x[4 * i + 3];\n"
        "    float *o = f + 16 * i;\n"
        "    double *r = d + 16 * i;\n"
        "    float v[5] = {a, b, c, e, a * b};\n"
        "    o[0] = norm3df(a, b, c); o[1] = rnorm3df(a, b, c); o[2] = norm4df(a, b, c, e);\n"
        "    o[3] = rnorm4df(a, b, c, e); o[4] = rhypotf(a, b); o[5] = normf(5, v);\n"
        "    o[6] = rnormf(5, v); o[7] = erfcxf(2.5f * a); o[8] = erfcx(4.0f * e);\n"
        "    o[9] = cyl_bessel_i0f(8.0f * a); o[10] = cyl_bessel_i1f(8.0f * b);\n"
        "    o[11] = cyl_bessel_i0(40.0f * e);\n"
        "    o[12] = jnf(i % 8, 6.0f * fabsf(a)); o[13] = jn(i % 5, 10.0f * fabsf(b));\n"
        "    o[14] = ynf(i % 6, i % 6 + 1 + 10.0f * fabsf(c)); o[15] = yn(i % 4, 0.2f + fabsf(e));\n"
        "    double p = a, q = b, s = c, t = e;\n"
        "    double w[3] = {p, q, s};\n"
        "    r[0] = norm3d(p, q, s); r[1] = rnorm3d(p, q, s); r[2] = norm4d(p, q, s, t);\n"
        "    r[3] = rnorm4d(p, q, s, t); r[4] = rhypot(p, q); r[5] = norm(3, w); r[6] = rnorm(3, w);\n"
        "    r[7] = erfcx(2.5 * p); r[8] = cyl_bessel_i0(8 * p); r[9] = cyl_bessel_i1(40 * q);\n"
        "    r[10] = jn(i % 8, 6 * fabs(p)); r[11] = yn(i % 6, i % 6 + 1 + 10 * fabs(s));\n"
        "    r[12] = scalbln(p, (long)(i % 9) - 4); r[13] = scalblnf(a, 3L);\n"
        "    r[14] = rhypot(a, b) - rhypotf(a, b);\n" /* rhypot of floats is the double one */
        "    r[15] = norm3d(1e38f * a, 1e38f * b, 1e38f * c);\n" /* past FLT_MAX in double */
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "k");
    static float x[4 * N], f[16 * N];
    static double d[16 * N];
    t_rand_floats(x, 4 * N, -2, 2);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {N}},
                              LAT_ARGS(lat_arg_in(x, sizeof x), lat_arg_out(f, sizeof f),
                                       lat_arg_out(d, sizeof d))));
    for (int i = 0; i < N; i++) {
        double a = x[4 * i], b = x[4 * i + 1], c = x[4 * i + 2], e = x[4 * i + 3];
        double ab = (float)(x[4 * i] * x[4 * i + 1]);
        double n3 = sqrt(a * a + b * b + c * c), n4 = sqrt(a * a + b * b + c * c + e * e);
        double n5 = sqrt(a * a + b * b + c * c + e * e + ab * ab), h = hypot(a, b);
        double fa = (float)(2.5f * x[4 * i]), fe = (float)(4.0f * x[4 * i + 3]);
        struct {
            double want, ulps;
        } fw[16] = {
            {n3, 2}, {1 / n3, 2}, {n4, 2}, {1 / n4, 2}, {1 / h, 2}, {n5, 4}, {1 / n5, 4},
            {exp(fa * fa) * erfc(fa), 4}, {exp(fe * fe) * erfc(fe), 4},
            {host_bessel_i(0, (float)(8.0f * x[4 * i])), 6},
            {host_bessel_i(1, (float)(8.0f * x[4 * i + 1])), 6},
            {host_bessel_i(0, (float)(40.0f * x[4 * i + 3])), 6}, {0, 0}, {0, 0}, {0, 0}, {0, 0},
        };
        for (int j = 0; j < 12; j++)
            ASSERT_MSG(within_ulps_f(f[16 * i + j], fw[j].want, fw[j].ulps),
                       "float function %d of %.9g, %.9g, %.9g, %.9g: %.9g, want %.9g (%g ulp)", j,
                       a, b, c, e, f[16 * i + j], fw[j].want, fw[j].ulps);
        int n = i % 8;
        double jx = (float)(6.0f * fabsf(x[4 * i]));
        ASSERT_MSG(fabs(f[16 * i + 12] - jn(n, jx)) <= 2.2e-6, "jnf(%d, %.9g) = %.9g, want %.9g", n,
                   jx, f[16 * i + 12], jn(n, jx));
        jx = (float)(10.0f * fabsf(x[4 * i + 1]));
        ASSERT_MSG(fabs(f[16 * i + 13] - jn(i % 5, jx)) <= 2.2e-6, "jn(%d, %.9gf) = %.9g", i % 5, jx,
                   f[16 * i + 13]);
        double yx = (float)((float)(i % 6 + 1) + 10.0f * fabsf(x[4 * i + 2]));
        ASSERT_MSG(fabs(f[16 * i + 14] - yn(i % 6, yx)) <= 2.2e-6, "ynf(%d, %.9g) = %.9g, want %.9g",
                   i % 6, yx, f[16 * i + 14], yn(i % 6, yx));
        yx = (float)(0.2f + fabsf(x[4 * i + 3]));
        ASSERT_MSG(within_ulps_f(f[16 * i + 15], yn(i % 4, yx), ceil(2 + 2.5 * (i % 4))),
                   "yn(%d, %.9gf) = %.9g, want %.9g", i % 4, yx, f[16 * i + 15], yn(i % 4, yx));
        /* doubles: the references above, to their own accuracy */
        double dw[13] = {n3, 1 / n3, n4, 1 / n4, 1 / h, n3, 1 / n3,
                         exp(6.25 * a * a) * erfc(2.5 * a), host_bessel_i(0, 8 * a),
                         host_bessel_i(1, 40 * b), jn(n, 6 * fabs(a)),
                         yn(i % 6, i % 6 + 1 + 10 * fabs(c)), ldexp(a, i % 9 - 4)};
        for (int j = 0; j < 13; j++) {
            double tol = j == 7 ? 1e-13 : 1e-14; /* exp(x^2)'s error in the reference */
            ASSERT_MSG(t_close(d[16 * i + j], dw[j], tol, j >= 10 && j <= 11 ? 5e-12 : 0),
                       "double function %d of %.9g, %.9g, %.9g, %.9g: %.17g, want %.17g", j, a, b,
                       c, e, d[16 * i + j], dw[j]);
        }
        ASSERT_MSG(d[16 * i + 13] == a * 8, "scalblnf(%.9g, 3) = %.9g", a, d[16 * i + 13]);
        /* the double function less rhypotf (2 ulp on the H100, which gave 1-ulp differences) */
        ASSERT_MSG(fabs(d[16 * i + 14]) <= 2 * ldexp(1.0, ilogb(1 / h) - 23),
                   "rhypot(%.9gf, %.9gf) - rhypotf: %.17g", a, b, d[16 * i + 14]);
        double big = 1e38 * n3;
        ASSERT_MSG(t_close(d[16 * i + 15], big, 1e-7, 0), "norm3d of floats past FLT_MAX: %.17g, want %.17g",
                   d[16 * i + 15], big);
    }
}

/* What CUDA documents at the edges: an infinite element makes a norm +inf even beside a
 * NaN, and its reciprocal 0; the reciprocal norm of zeros is +inf; no overflow or
 * underflow inside a norm whose result is in range; erfcx at the infinities. */
TEST(norms_and_erfcx_at_the_edges)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void k(const float *in, float *f, double *d)\n"
        "{\n"
        "    float inf = in[0], nan = in[1], z = in[2];\n"
        "    double dinf = inf, dnan = nan, dz = z;\n"
        "    float v[3] = {nan, -inf, 1.0f};\n"
        "    double w[2] = {dnan, dinf};\n"
        "    f[0] = norm3df(inf, nan, 1.0f); f[1] = norm4df(nan, 2.0f, -inf, z);\n"
        "    f[2] = rnorm3df(z, -inf, nan); f[3] = rnorm3df(z, z, z); f[4] = rhypotf(z, -z);\n"
        "    f[5] = rhypotf(nan, inf); f[6] = normf(3, v); f[7] = rnormf(3, v);\n"
        "    f[8] = norm3df(1e38f, -1e38f, 1e38f); f[9] = norm3df(3e-39f, 4e-39f, z);\n"
        "    f[10] = rnorm4df(z, z, z, z); f[11] = norm3df(nan, 1.0f, 2.0f);\n"
        "    f[12] = erfcxf(inf); f[13] = erfcxf(-inf); f[14] = erfcxf(z); f[15] = erfcxf(nan);\n"
        "    f[16] = erfcxf(1e4f); f[17] = erfcxf(-9.0f); f[18] = cyl_bessel_i0f(z);\n"
        "    f[19] = cyl_bessel_i1f(-3.0f) + cyl_bessel_i1f(3.0f);\n"
        "    d[0] = norm3d(dinf, dnan, 1.0); d[1] = rnorm4d(dz, dz, dz, dz); d[2] = norm(2, w);\n"
        "    d[3] = rnorm(2, w); d[4] = norm3d(1e300, 1e300, 1e300); d[5] = norm4d(3e-320, 4e-320, dz, dz);\n"
        "    d[6] = rhypot(dz, dz); d[7] = erfcx(1e10); d[8] = erfcx(-dinf); d[9] = erfcx(100.0);\n"
        "    d[10] = cyl_bessel_i0(700.0) / cyl_bessel_i0(699.0); d[11] = norm(1, w + 1);\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "k");
    float in[3] = {INFINITY, NAN, 0.0f}, f[20];
    double d[12];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(f, sizeof f),
                                       lat_arg_out(d, sizeof d))));
    struct {
        double want, ulps;
    } fw[20] = {
        {INFINITY, 0}, {INFINITY, 0}, {0, 0}, {INFINITY, 0}, {INFINITY, 0}, {0, 0},
        {INFINITY, 0}, {0, 0}, {1.7320508075688772e38, 2}, {5e-39, 2}, {INFINITY, 0}, {NAN, 0},
        {0, 0}, {INFINITY, 0}, {1, 0}, {NAN, 0},
        {(1 - 0.5e-8) / (1e4 * sqrt(M_PI)), 4}, {exp(81.0) * erfc(-9.0), 4},
        {1, 0}, {0, 0},
    };
    for (int j = 0; j < 20; j++)
        ASSERT_MSG(within_ulps_f(f[j], fw[j].want, fw[j].ulps), "edge %d: %.9g, want %.9g", j, f[j],
                   fw[j].want);
    double t = 0.5e-20;
    double dw[12] = {INFINITY, INFINITY, INFINITY, 0, 1.7320508075688773e300, 5e-320, INFINITY,
                     (1 - t + 3 * t * t) / (1e10 * sqrt(M_PI)), INFINITY,
                     (1 - 0.5e-4 + 0.75e-8 - 1.875e-12 + 6.5625e-16) / (100 * sqrt(M_PI)), 0, INFINITY};
    dw[10] = host_bessel_i(0, 700) / host_bessel_i(0, 699);
    for (int j = 0; j < 12; j++)
        ASSERT_MSG(within_ulps(d[j], dw[j], j == 5 ? 1 : j >= 9 ? 64 : 4), "double edge %d: %.17g, want %.17g",
                   j, d[j], dw[j]);
}

/* A program's own norm (a common name for a vector's length) is an overload beside
 * CUDA's norm(int, const double *), and a local of a math function's name shadows it. */
TEST(a_programs_own_norm_beside_cudas)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__device__ float norm(float3 v) { return sqrtf(v.x * v.x + v.y * v.y + v.z * v.z); }\n"
        "extern \"C\" __global__ void k(const float3 *in, float *out)\n"
        "{\n"
        "    int i = threadIdx.x;\n"
        "    double w[3] = {in[i].x, in[i].y, in[i].z};\n"
        "    float jn = norm(in[i]);\n"
        "    out[2 * i] = jn;\n"
        "    out[2 * i + 1] = (float)norm(3, w);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k"); /* C++: an overload beside C's norm */
    enum { M = 64 };
    float in[3 * M], out[2 * M];
    t_rand_floats(in, 3 * M, -3, 3);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {M}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out))));
    for (int i = 0; i < M; i++) {
        double a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2], n = sqrt(a * a + b * b + c * c);
        ASSERT_MSG(within_ulps_f(out[2 * i], n, 3), "the program's norm: %.9g, want %.9g", out[2 * i], n);
        ASSERT_MSG(within_ulps_f(out[2 * i + 1], n, 1), "CUDA's norm: %.9g, want %.9g", out[2 * i + 1], n);
    }
}
