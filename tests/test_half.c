/* cuda_fp16.h: __half and __half2 in kernels. On CUDA NVRTC compiles the toolkit's header;
 * the emulator has its own (src/emu/compile/fp16_header.c). The host reference rounds the exact
 * value of every result to half with integer arithmetic, in the four rounding modes, so
 * that conversions and + - * / fma are checked to the bit on both backends, over random
 * bit patterns that include subnormals, infinities, NaNs and exact ties. */
#include "harness.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 i128;

enum { NEAREST = 0, TOWARD_ZERO = 1, DOWN = 2, UP = 3 };

/* ---- the host reference -------------------------------------------------------------- */

/* A 16-bit binary format: its fraction's bits and its exponent's bias. */
typedef struct format {
    int fraction, bias;
} format;
static const format HALF = {10, 15}, BFLOAT16 = {7, 127};

/* (-1)^neg * m * 2^e rounded to format f by mode. */
static uint16_t round_to(const format *f, int neg, u128 m, int e, int mode)
{
    uint16_t sign = neg ? 0x8000u : 0u;
    if (m == 0)
        return sign;
    int bits = 0;
    for (u128 t = m; t; t >>= 1)
        bits++;
    const u128 one = (u128)1 << f->fraction;      /* the implicit bit */
    const unsigned inf = (unsigned)(2 * f->bias + 1) << f->fraction;
    int top = bits - 1 + e;                         /* m * 2^e is in [2^top, 2^(top+1)) */
    int emin = 1 - f->bias;
    int quantum = (top > emin ? top : emin) - f->fraction; /* the unit in the last place */
    int shift = quantum - e;
    u128 q;
    int inexact = 0, below_half = 1, at_half = 0;
    if (shift <= 0) {
        q = m << -shift;
    } else if (shift >= 127) {
        q = 0;
        inexact = 1;
    } else {
        q = m >> shift;
        u128 rem = m & (((u128)1 << shift) - 1), half = (u128)1 << (shift - 1);
        inexact = rem != 0;
        below_half = rem < half;
        at_half = rem == half;
    }
    int up = mode == NEAREST ? inexact && !below_half && (!at_half || (q & 1))
             : mode == DOWN  ? inexact && neg
             : mode == UP    ? inexact && !neg
                             : 0;
    q += (u128)up;
    if (q == 2 * one) {
        q = one;
        quantum++;
    }
    if (q < one)
        return (uint16_t)(sign | (uint16_t)q); /* subnormal */
    int exp = quantum + f->fraction;
    if (exp > f->bias) {
        int to_inf = mode == NEAREST || (mode == DOWN && neg) || (mode == UP && !neg);
        return (uint16_t)(sign | (to_inf ? inf : inf - 1u));
    }
    return (uint16_t)(sign | ((unsigned)(exp + f->bias) << f->fraction) | (unsigned)(q - one));
}

static uint16_t from_double(const format *f, double d, int mode)
{
    if (isnan(d))
        return 0x7fff;
    const unsigned inf = (unsigned)(2 * f->bias + 1) << f->fraction;
    if (isinf(d))
        return (uint16_t)(d < 0 ? 0x8000u | inf : inf);
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    int exp = (int)((b >> 52) & 0x7ff);
    uint64_t mant = b & 0xfffffffffffffull;
    return round_to(f, (int)(b >> 63), exp ? mant | (1ull << 52) : mant, exp ? exp - 1075 : -1074, mode);
}

static uint16_t ref_from_double(double d, int mode)
{
    return from_double(&HALF, d, mode);
}

static double half_value(uint16_t h)
{
    int exp = (h >> 10) & 31;
    unsigned mant = h & 0x3ffu;
    double v = exp == 31 ? (mant ? NAN : INFINITY) : exp ? ldexp(mant | 1024u, exp - 25) : ldexp(mant, -24);
    return (h & 0x8000u) ? -v : v;
}

static int is_nan_half(uint16_t h)
{
    return (h & 0x7fffu) > 0x7c00u;
}

/* a*b + c rounded once: exact in 128-bit integers (the product of two halves is a
 * multiple of 2^-48 below 2^32). */
static uint16_t ref_fma(uint16_t a, uint16_t b, uint16_t c)
{
    double x = half_value(a), y = half_value(b), z = half_value(c);
    double approx = fma(x, y, z);
    if (!isfinite(x) || !isfinite(y) || !isfinite(z) || approx == 0 || isnan(approx))
        return ref_from_double(approx, NEAREST);
    /* the values times 2^48 as integers */
    i128 p = (i128)llround(ldexp(x, 24)) * (i128)llround(ldexp(y, 24));
    i128 s = p + (i128)llround(ldexp(z, 24)) * ((i128)1 << 24);
    if (s == 0)
        return ref_from_double(approx, NEAREST);
    return round_to(&HALF, s < 0, (u128)(s < 0 ? -s : s), -48, NEAREST);
}

/* Random half bit patterns: all of them uniformly (NaN, infinity and subnormals come up
 * about once in 30), with values near 1 for a third, where most arithmetic happens. */
static uint16_t rand_half(void)
{
    uint32_t r = t_rand_u32();
    if (r % 3 == 0)
        return (uint16_t)(0x3000u + (r >> 8) % 0x1800u) ^ (uint16_t)((r >> 4) & 1u ? 0x8000u : 0u);
    return (uint16_t)(r >> 16);
}

/* Distance in halves' units in the last place (signed zeros are one value). */
static long half_ulps(uint16_t a, uint16_t b)
{
    long x = (a & 0x8000u) ? -(long)(a & 0x7fffu) : (long)a;
    long y = (b & 0x8000u) ? -(long)(b & 0x7fffu) : (long)b;
    return labs(x - y);
}

/* ---- conversions ---------------------------------------------------------------------- */

enum { NCONV = 4096 };

/* Floats that make every rounding case: any bits, halves' exact values and ties, values
 * around the largest half and in the subnormal range. */
static float conversion_input(int i)
{
    uint32_t r = t_rand_u32();
    float f;
    switch (i % 6) {
    case 0:
        memcpy(&f, &r, sizeof f);
        return f;
    case 1: { /* a half's value, or the tie between it and the next (bit 12 of the float) */
        uint16_t h = (uint16_t)(r & 0x7bffu);
        f = (float)half_value(h);
        uint32_t b;
        memcpy(&b, &f, sizeof b);
        if ((r >> 20) & 1u && (b & 0x7f800000u) >= 0x38800000u)
            b |= 0x1000u;
        memcpy(&f, &b, sizeof f);
        return (r >> 31) ? -f : f;
    }
    case 2:
        return (float)t_rand_double(65000.0, 66000.0) * ((r & 1u) ? -1.0f : 1.0f);
    case 3:
        return (float)t_rand_double(-7e-5, 7e-5);
    case 4:
        return (float)t_rand_double(-3e-8, 3e-8);
    default:
        return (float)t_rand_double(-100.0, 100.0);
    }
}

static void float_bits(float f, int *neg, u128 *m, int *e)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    int exp = (int)((b >> 23) & 0xffu);
    *neg = (int)(b >> 31);
    *m = exp ? (b & 0x7fffffu) | 0x800000u : (b & 0x7fffffu);
    *e = exp ? exp - 150 : -149;
}

static uint16_t from_float(const format *fmt, float f, int mode)
{
    if (isnan(f) || isinf(f))
        return from_double(fmt, f, mode);
    int neg, e;
    u128 m;
    float_bits(f, &neg, &m, &e);
    return round_to(fmt, neg, m, e, mode);
}

static uint16_t ref_from_float(float f, int mode)
{
    return from_float(&HALF, f, mode);
}

TEST(float_and_double_convert_to_half_in_every_rounding_mode_as_the_gpu_does)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <cuda_fp16.h>\n"
        "extern \"C\" __global__ void conv(const float *f, const double *d, unsigned short *o, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    o[8 * i + 0] = __half_as_ushort(__float2half_rn(f[i]));\n"
        "    o[8 * i + 1] = __half_as_ushort(__float2half_rz(f[i]));\n"
        "    o[8 * i + 2] = __half_as_ushort(__float2half_rd(f[i]));\n"
        "    o[8 * i + 3] = __half_as_ushort(__float2half_ru(f[i]));\n"
        "    o[8 * i + 4] = __half_as_ushort(__double2half(d[i]));\n"
        "    __half h = f[i];\n" /* copy-initialization through the converting constructor */
        "    o[8 * i + 5] = __half_as_ushort(h);\n"
        "    o[8 * i + 6] = __half_as_ushort(__float2half(f[i]));\n"
        "    half2 p = __floats2half2_rn(f[i], -f[i]);\n"
        "    o[8 * i + 7] = __half_as_ushort(__high2half(p));\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "conv");
    float *f = t_calloc(NCONV, sizeof *f);
    double *d = t_calloc(NCONV, sizeof *d);
    uint16_t *o = t_calloc(8 * NCONV, sizeof *o);
    for (int i = 0; i < NCONV; i++) {
        f[i] = conversion_input(i);
        /* doubles between two floats: rounding through float first would be wrong */
        d[i] = (double)f[i] * (1.0 + t_rand_double(-1e-9, 1e-9));
    }
    f[0] = INFINITY, f[6] = -INFINITY, f[12] = NAN, f[18] = 0.0f, f[24] = -0.0f;
    f[30] = 65504.0f, f[36] = 65519.996f, f[42] = 65520.0f, f[48] = 0x1p-25f, f[54] = 0x1.000002p-25f;
    f[60] = 0x1p-24f * 1.5f, f[66] = 0x1.ffcp-15f, f[72] = 0x1.ffep-15f;
    d[0] = 0x1.0020000000001p0, d[6] = 0x1.002p0, d[12] = 0x1.006p0;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {NCONV / 128}, .block = {128}},
                              LAT_ARGS(lat_arg_in(f, NCONV * sizeof *f), lat_arg_in(d, NCONV * sizeof *d),
                                       lat_arg_out(o, 8 * NCONV * sizeof *o), lat_arg_i32(NCONV))));
    for (int i = 0; i < NCONV; i++) {
        for (int mode = 0; mode < 4; mode++) {
            uint16_t want = ref_from_float(f[i], mode);
            ASSERT_MSG(o[8 * i + mode] == want, "mode %d of %a (input %d): 0x%04x, want 0x%04x", mode,
                       (double)f[i], i, o[8 * i + mode], want);
        }
        uint16_t want = ref_from_double(d[i], NEAREST);
        if (isnan(d[i])) { /* cvt.rn.f16.f64 keeps the sign and the payload's top bits */
            uint64_t b;
            memcpy(&b, &d[i], sizeof b);
            want = (uint16_t)((b >> 48 & 0x8000u) | 0x7e00u | (b >> 42 & 0x3ffu));
        }
        ASSERT_MSG(o[8 * i + 4] == want, "__double2half(%a): 0x%04x, want 0x%04x", d[i], o[8 * i + 4], want);
        ASSERT_MSG(o[8 * i + 5] == o[8 * i] && o[8 * i + 6] == o[8 * i], "half h = %a: 0x%04x and 0x%04x, want 0x%04x",
                   (double)f[i], o[8 * i + 5], o[8 * i + 6], o[8 * i]);
        ASSERT_MSG(o[8 * i + 7] == ref_from_float(-f[i], NEAREST), "__floats2half2_rn's high half of %a: 0x%04x",
                   (double)-f[i], o[8 * i + 7]);
    }
}

TEST(every_half_converts_to_float_and_to_integers_exactly)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <cuda_fp16.h>\n"
        "extern \"C\" __global__ void back(float *f, int *i32, short *i16, unsigned *u32)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    __half h = __ushort_as_half((unsigned short)i);\n"
        "    f[i] = __half2float(h);\n"
        "    float g = h;\n" /* operator float */
        "    if (__float_as_uint(g) != __float_as_uint(f[i])) f[i] = 12345.0f;\n"
        "    i32[4 * i + 0] = __half2int_rn(h);\n"
        "    i32[4 * i + 1] = __half2int_rz(h);\n"
        "    i32[4 * i + 2] = __half2int_rd(h);\n"
        "    i32[4 * i + 3] = __half2int_ru(h);\n"
        "    i16[i] = __half2short_rn(h);\n"
        "    u32[i] = __half2uint_rz(h);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "back");
    enum { ALL = 65536 };
    float *f = t_calloc(ALL, sizeof *f);
    int32_t *i32 = t_calloc(4 * ALL, sizeof *i32);
    int16_t *i16 = t_calloc(ALL, sizeof *i16);
    uint32_t *u32 = t_calloc(ALL, sizeof *u32);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {ALL / 256}, .block = {256}},
                              LAT_ARGS(lat_arg_out(f, ALL * sizeof *f), lat_arg_out(i32, 4 * ALL * sizeof *i32),
                                       lat_arg_out(i16, ALL * sizeof *i16), lat_arg_out(u32, ALL * sizeof *u32))));
    for (int i = 0; i < ALL; i++) {
        double v = half_value((uint16_t)i);
        if (is_nan_half((uint16_t)i)) {
            ASSERT_MSG(isnan(f[i]), "half 0x%04x: %g, want NaN", i, (double)f[i]);
            ASSERT_MSG(i32[4 * i + 1] == 0 && u32[i] == 0, "half NaN 0x%04x to integers: %d %u, want 0", i,
                       i32[4 * i + 1], u32[i]);
            continue;
        }
        ASSERT_MSG((double)f[i] == v && !signbit(f[i]) == !signbit(v), "half 0x%04x: %a, want %a", i, (double)f[i], v);
        double r[4] = {nearbyint(v), trunc(v), floor(v), ceil(v)};
        for (int m = 0; m < 4; m++) {
            double want = r[m] > 2147483647.0 ? 2147483647.0 : r[m] < -2147483648.0 ? -2147483648.0 : r[m];
            ASSERT_MSG(i32[4 * i + m] == (int32_t)want, "half 0x%04x (%g) mode %d to int: %d, want %.0f", i, v, m,
                       i32[4 * i + m], want);
        }
        double s = r[0] > 32767 ? 32767 : r[0] < -32768 ? -32768 : r[0];
        ASSERT_MSG(i16[i] == (int16_t)s, "half 0x%04x (%g) to short: %d, want %.0f", i, v, i16[i], s);
        double u = r[1] < 0 ? 0 : r[1] > 4294967295.0 ? 4294967295.0 : r[1];
        ASSERT_MSG(u32[i] == (uint32_t)u, "half 0x%04x (%g) to unsigned: %u, want %.0f", i, v, u32[i], u);
    }
}

/* ---- arithmetic ------------------------------------------------------------------------- */

enum { NARITH = 8192, NOUT = 20 };

TEST(half_arithmetic_rounds_each_result_once_as_the_gpu_does)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <cuda_fp16.h>\n"
        "__device__ unsigned short b(__half h) { return __half_as_ushort(h); }\n"
        "extern \"C\" __global__ void arith(const __half *x, const __half *y, const __half *z, unsigned short *o, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    __half a = x[i], c = z[i];\n"
        "    const __half &bb = y[i];\n"
        "    unsigned short *r = o + 20 * i;\n"
        "    r[0] = b(__hadd(a, bb));\n"
        "    r[1] = b(__hsub(a, bb));\n"
        "    r[2] = b(__hmul(a, bb));\n"
        "    r[3] = b(__hdiv(a, bb));\n"
        "    r[4] = b(__hfma(a, bb, c));\n"
        "    r[5] = b(a + bb);\n"
        "    r[6] = b(a * bb - c);\n"
        "    __half t = a;\n"
        "    t += bb;\n"
        "    t *= c;\n"
        "    r[7] = b(t);\n"
        "    r[8] = b(__hmax(a, bb));\n"
        "    r[9] = b(__hmin(a, bb));\n"
        "    r[10] = b(__hneg(a));\n"
        "    r[11] = b(__habs(a));\n"
        "    r[12] = (unsigned short)((a == bb) | (a != bb) << 1 | (a < bb) << 2 | (a <= bb) << 3 |\n"
        "                             (a > bb) << 4 | (a >= bb) << 5 | __hequ(a, bb) << 6 | __hltu(a, bb) << 7 |\n"
        "                             __hisnan(a) << 8 | (__hisinf(a) & 3) << 9);\n"
        "    __half2 p = __halves2half2(a, c), q = __halves2half2(bb, a);\n"
        "    __half2 s = __hfma2(p, q, p) + p * q;\n"
        "    r[13] = b(__low2half(s));\n"
        "    r[14] = b(__high2half(s));\n"
        "    r[15] = b(__hadd_sat(a, bb));\n"
        "    r[16] = b(__hadd(__hmul(a, bb), c));\n"
        "    r[17] = b(c - a * bb);\n"
        "    __half acc = c;\n"
        "    acc += a * bb;\n"
        "    r[18] = b(acc);\n"
        "    r[19] = b(__hadd(__hmul_rn(a, bb), c));\n"
        "}\n";
    uint16_t *x = t_calloc(NARITH, 2), *y = t_calloc(NARITH, 2), *z = t_calloc(NARITH, 2);
    uint16_t *o = t_calloc((size_t)NOUT * NARITH, 2);
    for (int i = 0; i < NARITH; i++) {
        x[i] = rand_half();
        y[i] = rand_half();
        z[i] = rand_half();
    }
    x[0] = 0x8000, y[0] = 0x0000; /* max(-0, +0) */
    x[1] = 0x3c00, y[1] = 0x3c00, z[1] = 0xfc00;
    x[2] = 0x7bff, y[2] = 0x7bff; /* overflow */
    x[3] = 0x0001, y[3] = 0x3800; /* half the smallest subnormal: a tie to 0 */
    x[4] = 0x7e00, y[4] = 0x3c00; /* NaN and a number */
    /* ptxas fuses a product of halves and the sum that uses it into one fma under
     * --fmad=true (the default), as NVRTC fuses floats; never with --fmad=false */
    for (int fmad = 1; fmad >= 0; fmad--) {
        static const char *const no_fmad[] = {"--fmad=false", NULL};
        lat_module *mod = NULL;
        ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "arith.cu", .no_extern_c = 1,
                                                            .options = fmad ? NULL : no_fmad},
                                    &mod));
        lat_kernel *k = NULL;
        ASSERT_OK(lat_module_get_kernel(mod, "arith", &k));
        ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {NARITH / 128}, .block = {128}},
                                  LAT_ARGS(lat_arg_in(x, NARITH * 2), lat_arg_in(y, NARITH * 2), lat_arg_in(z, NARITH * 2),
                                           lat_arg_out(o, (size_t)NOUT * NARITH * 2), lat_arg_i32(NARITH))));
        lat_module_destroy(mod);
        for (int i = 0; i < NARITH; i++) {
            double a = half_value(x[i]), b = half_value(y[i]), c = half_value(z[i]);
            uint16_t *r = o + NOUT * i;
            uint16_t want[NOUT] = {0};
            want[0] = ref_from_double(a + b, NEAREST); /* exact in double: rounded once */
            want[1] = ref_from_double(a - b, NEAREST);
            want[2] = ref_from_double(a * b, NEAREST);
            want[3] = ref_from_double(a / b, NEAREST); /* double's 53 bits round a quotient to half correctly */
            want[4] = ref_fma(x[i], y[i], z[i]);
            want[5] = want[0];
            uint16_t product = want[2], negc = z[i] ^ 0x8000u, nega = x[i] ^ 0x8000u;
            want[6] = fmad ? ref_fma(x[i], y[i], negc) : ref_from_double(half_value(product) - c, NEAREST);
            want[7] = ref_from_double(half_value(want[0]) * c, NEAREST);
            int na = is_nan_half(x[i]), nb = is_nan_half(y[i]);
            if (na && nb)
                want[8] = want[9] = 0x7fff;
            else if (na || nb)
                want[8] = want[9] = na ? y[i] : x[i];
            else if (a == b)
                want[8] = x[i] & y[i], want[9] = x[i] | y[i]; /* +0 above -0 */
            else
                want[8] = a > b ? x[i] : y[i], want[9] = a < b ? x[i] : y[i];
            want[10] = na ? 0x7fff : x[i] ^ 0x8000u;
            want[11] = na ? 0x7fff : x[i] & 0x7fffu;
            int inf = isinf(a) ? (a > 0 ? 1 : 3) : 0;
            want[12] = (uint16_t)((a == b) | (a != b) << 1 | (a < b) << 2 | (a <= b) << 3 | (a > b) << 4 |
                                  (a >= b) << 5 | !(a < b || a > b) << 6 | !(a >= b) << 7 | isnan(a) << 8 | inf << 9);
            /* p = (a, c), q = (b, a): fma(p, q, p) + p * q, the product fused */
            uint16_t f_lo = ref_fma(x[i], y[i], x[i]), m_lo = ref_from_double(a * b, NEAREST);
            uint16_t f_hi = ref_fma(z[i], x[i], z[i]), m_hi = ref_from_double(c * a, NEAREST);
            want[13] = fmad ? ref_fma(x[i], y[i], f_lo) : ref_from_double(half_value(f_lo) + half_value(m_lo), NEAREST);
            want[14] = fmad ? ref_fma(z[i], x[i], f_hi) : ref_from_double(half_value(f_hi) + half_value(m_hi), NEAREST);
            double s = half_value(want[0]);
            want[15] = isnan(s) || !(s > 0) ? 0 : s > 1 ? 0x3c00 : want[0];
            uint16_t unfused = ref_from_double(half_value(product) + c, NEAREST);
            want[16] = fmad ? ref_fma(x[i], y[i], z[i]) : unfused;
            want[17] = fmad ? ref_fma(nega, y[i], z[i]) : ref_from_double(c - half_value(product), NEAREST);
            want[18] = want[16];
            want[19] = unfused; /* __hmul_rn is never fused */
            static const char *const names[NOUT] = {"__hadd", "__hsub", "__hmul", "__hdiv", "__hfma", "+", "a * b - c",
                                                    "+= *=", "__hmax", "__hmin", "__hneg", "__habs", "comparisons",
                                                    "half2 low", "half2 high", "__hadd_sat", "__hadd(__hmul)",
                                                    "c - a * b", "acc += a * b", "__hadd(__hmul_rn)"};
            for (int j = 0; j < NOUT; j++) {
                ASSERT_MSG(r[j] == want[j], "%s (fmad %d) of 0x%04x, 0x%04x, 0x%04x (%g, %g, %g): 0x%04x, want 0x%04x", names[j],
                           fmad, x[i], y[i], z[i], a, b, c, r[j], want[j]);
            }
        }
    }
}

/* ---- functions over every half ------------------------------------------------------------- */

TEST(half_functions_round_the_exact_value_over_every_half)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <cuda_fp16.h>\n"
        "extern \"C\" __global__ void fns(__half *o)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    __half h = __ushort_as_half((unsigned short)i);\n"
        "    o[0 * 65536 + i] = hsqrt(h);\n"
        "    o[1 * 65536 + i] = hrcp(h);\n"
        "    o[2 * 65536 + i] = hrsqrt(h);\n"
        "    o[3 * 65536 + i] = htrunc(h);\n"
        "    o[4 * 65536 + i] = hfloor(h);\n"
        "    o[5 * 65536 + i] = hceil(h);\n"
        "    o[6 * 65536 + i] = hrint(h);\n"
        "    o[7 * 65536 + i] = hexp(h);\n"
        "    o[8 * 65536 + i] = hexp2(h);\n"
        "    o[9 * 65536 + i] = hexp10(h);\n"
        "    o[10 * 65536 + i] = hlog(h);\n"
        "    o[11 * 65536 + i] = hlog2(h);\n"
        "    o[12 * 65536 + i] = hlog10(h);\n"
        "    o[13 * 65536 + i] = hsin(h);\n"
        "    o[14 * 65536 + i] = hcos(h);\n"
        "    o[15 * 65536 + i] = htanh(h);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "fns");
    enum { ALL = 65536, NF = 16 };
    uint16_t *o = t_calloc((size_t)NF * ALL, 2);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {ALL / 256}, .block = {256}},
                              LAT_ARGS(lat_arg_out(o, (size_t)NF * ALL * 2))));
    static const char *const names[NF] = {"hsqrt", "hrcp", "hrsqrt", "htrunc", "hfloor", "hceil", "hrint", "hexp", "hexp2", "hexp10", "hlog", "hlog2", "hlog10", "hsin", "hcos", "htanh"};
    long worst[NF] = {0};
    for (int i = 0; i < ALL; i++) {
        double v = half_value((uint16_t)i);
        double exact[NF] = {sqrt(v), 1.0 / v, 1.0 / sqrt(v), trunc(v), floor(v), ceil(v), nearbyint(v), exp(v),
                            exp2(v), pow(10.0, v), log(v), log2(v), log10(v), sin(v), cos(v), tanh(v)};
        for (int f = 0; f < NF; f++) {
            uint16_t got = o[(size_t)f * ALL + (size_t)i], want = ref_from_double(exact[f], NEAREST);
            if (is_nan_half(want) || is_nan_half(got)) {
                ASSERT_MSG(is_nan_half(want) && is_nan_half(got), "%s(0x%04x = %g): 0x%04x, want 0x%04x", names[f],
                           i, v, got, want);
                continue;
            }
            long d = half_ulps(got, want);
            worst[f] = d > worst[f] ? d : worst[f];
            /* every one is correctly rounded on an H100 (measured over every half), and
             * the emulator's double functions rounded once match it */
            ASSERT_MSG(d == 0, "%s(0x%04x = %g): 0x%04x, want 0x%04x (%ld units apart)", names[f], i, v, got,
                       want, d);
        }
    }
    for (int f = 0; f < NF; f++)
        printf("# %s: at most %ld unit(s) in the last place from the exact value rounded\n", names[f], worst[f]);
}

/* ---- half in a real kernel --------------------------------------------------------------- */

TEST(a_templated_half_reduction_through_shared_memory_shuffles_and_atomics)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <cuda_fp16.h>\n"
        "template <typename T>\n"
        "__global__ void block_sum(const T *in, T *partial, T *total, int n)\n"
        "{\n"
        "    __shared__ T s[128];\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    T v = 0;\n" /* the int constructor */
        "    if (i < n) v = in[i];\n"
        "    s[threadIdx.x] = v;\n"
        "    __syncthreads();\n"
        "    for (int k = blockDim.x / 2; k >= 32; k >>= 1) {\n"
        "        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];\n"
        "        __syncthreads();\n"
        "    }\n"
        "    if (threadIdx.x < 32) {\n"
        "        T w = s[threadIdx.x];\n"
        "        for (int d = 16; d > 0; d >>= 1) w = w + __shfl_down_sync(0xffffffffu, w, d);\n"
        "        if (threadIdx.x == 0) { partial[blockIdx.x] = w; atomicAdd(total, (T)(blockIdx.x + 1)); }\n"
        "    }\n"
        "}\n"
        "template __global__ void block_sum<__half>(const __half *, __half *, __half *, int);\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "block_sum<__half>");
    enum { BLOCKS = 16, THREADS = 128, NIN = BLOCKS * THREADS };
    uint16_t *in = t_calloc(NIN, 2), *partial = t_calloc(BLOCKS, 2), total = 0;
    /* random values in 1/8 steps: each block's sum is rounded as the tree adds; the
     * atomics add 1 + 2 + ... + 16, exact in any order */
    for (int i = 0; i < NIN; i++)
        in[i] = ref_from_double((double)(int)(t_rand_u32() % 33) / 8.0 - 2.0, NEAREST);
    for (int b = 0; b < BLOCKS; b++)
        in[b * THREADS] = ref_from_double(half_value(in[b * THREADS]) + 0.375 * (b % 3), NEAREST);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {BLOCKS}, .block = {THREADS}},
                              LAT_ARGS(lat_arg_in(in, NIN * 2), lat_arg_out(partial, BLOCKS * 2),
                                       lat_arg_inout(&total, 2), lat_arg_i32(NIN))));
    double sum = 0;
    for (int b = 0; b < BLOCKS; b++) {
        uint16_t s[THREADS];
        memcpy(s, in + b * THREADS, sizeof s);
        for (int step = THREADS / 2; step >= 32; step >>= 1)
            for (int t = 0; t < step; t++)
                s[t] = ref_from_double(half_value(s[t]) + half_value(s[t + step]), NEAREST);
        for (int d = 16; d > 0; d >>= 1)
            for (int t = 0; t < 32; t++) /* lanes past the warp's end keep their own value */
                s[t] = t + d < 32 ? ref_from_double(half_value(s[t]) + half_value(s[t + d]), NEAREST)
                                  : ref_from_double(half_value(s[t]) * 2.0, NEAREST);
        ASSERT_MSG(partial[b] == s[0], "block %d: 0x%04x (%g), want 0x%04x (%g)", b, partial[b],
                   half_value(partial[b]), s[0], half_value(s[0]));
        sum += b + 1;
    }
    ASSERT_MSG(half_value(total) == sum, "atomicAdd total %g, want %g", half_value(total), sum);
}

/* ---- half as C++ converts it ------------------------------------------------------------- */

TEST(halves_convert_to_and_from_numbers_where_cxx_converts_them)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <cuda_fp16.h>\n"
        "__device__ float twice(float v) { return 2.0f * v; }\n"
        "__device__ __half mid(__half a, __half b) { return (a + b) / __half(2); }\n"
        "extern \"C\" __global__ void conv(const float *in, float *out, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    half h = in[i];\n"                       /* converting constructor */
        "    half c = (half)(in[i] * 0.5f);\n"        /* a cast to the class */
        "    half s = static_cast<half>(3);\n"
        "    out[4 * i + 0] = sqrtf(h < c ? c : h);\n" /* a number from operator float */
        "    out[4 * i + 1] = twice(mid(h, s));\n"
        "    out[4 * i + 2] = max(h, 0.25f);\n"
        "    float f = h;\n"
        "    out[4 * i + 3] = f - (float)c;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "conv");
    enum { NH = 512 };
    float *in = t_calloc(NH, sizeof *in), *out = t_calloc(4 * NH, sizeof *out);
    t_rand_floats(in, NH, 0.0f, 8.0f);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {NH / 64}, .block = {64}},
                              LAT_ARGS(lat_arg_in(in, NH * sizeof *in), lat_arg_out(out, 4 * NH * sizeof *out),
                                       lat_arg_i32(NH))));
    for (int i = 0; i < NH; i++) {
        double h = half_value(ref_from_float(in[i], NEAREST)), c = half_value(ref_from_float(in[i] * 0.5f, NEAREST));
        double big = h < c ? c : h;
        double sum = half_value(ref_from_double(h + 3.0, NEAREST));
        double want[4] = {(float)sqrt(big), 2.0 * half_value(ref_from_double(sum / 2.0, NEAREST)), h > 0.25 ? h : 0.25,
                          h - c};
        for (int j = 0; j < 4; j++)
            ASSERT_MSG(out[4 * i + j] == (float)want[j], "in %g, result %d: %.9g, want %.9g", (double)in[i], j,
                       (double)out[4 * i + j], want[j]);
    }
}

static const char *half_error(lat_context *ctx, const char *src)
{
    lat_module *mod = NULL;
    if (lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "h.cu", .no_extern_c = 1}, &mod) == LAT_OK) {
        lat_module_destroy(mod);
        return NULL;
    }
    return lat_last_error();
}

TEST(what_nvcc_refuses_about_halves_is_an_error_naming_it)
{
    lat_context *ctx = t_context();
    /* NVRTC refuses these too: checked on both backends */
    const char *m = half_error(ctx, "#include <cuda_fp16.h>\n"
                                    "__global__ void k(__half *o) { o[0] = o[0] * 2.0f; }\n");
    ASSERT_NOT_NULL(m);
    if (t_is_emu(ctx))
        ASSERT_CONTAINS(m, "h.cu:2:44: error: '*' between struct __half and float is ambiguous");
    m = half_error(ctx, "struct E { float v; explicit __device__ E(float x) : v(x) {} };\n"
                        "__device__ float get(E e) { return e.v; }\n"
                        "__global__ void k(float *o) { o[0] = get(1.5f); }\n");
    ASSERT_NOT_NULL(m);
    if (t_is_emu(ctx))
        ASSERT_CONTAINS(m, "h.cu:3:42: error: passing argument 1 of 'get' as struct E from float: the constructor "
                           "that takes it is explicit (write E(...))");
}

/* ---- bfloat16 (cuda_bf16.h): float's exponent, 8 bits of precision ---------------------- */

static uint16_t bf_from_double(double d)
{
    return from_double(&BFLOAT16, d, NEAREST);
}

static uint16_t bf_from_float(float f, int mode)
{
    return from_float(&BFLOAT16, f, mode);
}

static double bf_value(uint16_t b)
{
    uint32_t x = (uint32_t)b << 16;
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

/* a*b + c rounded once: the product is exact in double; the sum's rounding error (two-sum)
 * decides which side of a tie the exact value lies on. */
static uint16_t bf_fma(uint16_t a, uint16_t b, uint16_t c)
{
    double p = bf_value(a) * bf_value(b), q = bf_value(c), s = p + q;
    if (isnan(s) || isinf(s) || s == 0)
        return bf_from_double(s);
    double bp = s - q, err = (p - bp) + (q - (s - bp));
    if (err == 0)
        return bf_from_double(s);
    double other = nextafter(s, err > 0 ? INFINITY : -INFINITY);
    uint16_t lo = bf_from_double(s), hi = bf_from_double(other);
    if (lo == hi)
        return lo;
    /* s and its neighbour round apart: s is the midpoint, and err says the side */
    return hi;
}

TEST(bfloat16_converts_and_computes_as_the_gpu_does)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <cuda_bf16.h>\n"
        "__device__ unsigned short b(__nv_bfloat16 h) { return __bfloat16_as_ushort(h); }\n"
        "extern \"C\" __global__ void bf(const float *f, const __nv_bfloat16 *x, const __nv_bfloat16 *y,\n"
        "                                const __nv_bfloat16 *z, unsigned short *o, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    unsigned short *r = o + 16 * i;\n"
        "    r[0] = b(__float2bfloat16_rn(f[i]));\n"
        "    r[1] = b(__float2bfloat16_rz(f[i]));\n"
        "    r[2] = b(__float2bfloat16_rd(f[i]));\n"
        "    r[3] = b(__float2bfloat16_ru(f[i]));\n"
        "    nv_bfloat16 a = x[i], bb = y[i], c = z[i];\n"
        "    r[4] = b(__hadd(a, bb));\n"
        "    r[5] = b(__hsub(a, bb));\n"
        "    r[6] = b(__hmul(a, bb));\n"
        "    r[7] = b(__hdiv(a, bb));\n"
        "    r[8] = b(__hfma(a, bb, c));\n"
        "    r[9] = b(a * bb - c);\n"
        "    r[10] = b(__hneg(a));\n"
        "    r[11] = b(__hmax(a, bb));\n"
        "    nv_bfloat16 h = f[i];\n"
        "    r[12] = b(h);\n"
        "    float back = __bfloat162float(a);\n"
        "    r[13] = (unsigned short)(__float_as_uint(back) >> 16);\n"
        "    r[14] = (unsigned short)(__float_as_uint(back) & 0xffffu);\n"
        "    r[15] = b(hsqrt(a));\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "bf");
    enum { NB = 8192 };
    float *f = t_calloc(NB, sizeof *f);
    uint16_t *x = t_calloc(NB, 2), *y = t_calloc(NB, 2), *z = t_calloc(NB, 2), *o = t_calloc(16 * NB, 2);
    for (int i = 0; i < NB; i++) {
        f[i] = conversion_input(i) * (i % 7 == 0 ? 1e30f : i % 7 == 1 ? 1e-35f : 1.0f);
        uint32_t r = t_rand_u32();
        x[i] = (uint16_t)r;
        y[i] = (uint16_t)(r >> 16);
        z[i] = (uint16_t)t_rand_u32();
        if (i % 2) { /* values near 1, where most arithmetic happens */
            x[i] = (uint16_t)(0x3e00u + (x[i] & 0x1ffu)) | (x[i] & 0x8000u);
            y[i] = (uint16_t)(0x3e00u + (y[i] & 0x1ffu)) | (y[i] & 0x8000u);
            z[i] = (uint16_t)(0x3e00u + (z[i] & 0x1ffu)) | (z[i] & 0x8000u);
        }
    }
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {NB / 128}, .block = {128}},
                              LAT_ARGS(lat_arg_in(f, NB * sizeof *f), lat_arg_in(x, NB * 2), lat_arg_in(y, NB * 2),
                                       lat_arg_in(z, NB * 2), lat_arg_out(o, 16 * NB * 2), lat_arg_i32(NB))));
    for (int i = 0; i < NB; i++) {
        uint16_t *r = o + 16 * i, want[16];
        for (int mode = 0; mode < 4; mode++)
            want[mode] = bf_from_float(f[i], mode);
        double a = bf_value(x[i]), b = bf_value(y[i]), c = bf_value(z[i]);
        want[4] = bf_from_double(a + b);
        want[5] = bf_from_double(a - b);
        want[6] = bf_from_double(a * b);
        want[7] = bf_from_double(a / b);
        want[8] = bf_fma(x[i], y[i], z[i]);
        want[9] = bf_fma(x[i], y[i], z[i] ^ 0x8000u); /* fused, as for half */
        int na = isnan(a), nb = isnan(b);
        want[10] = na ? 0x7fff : x[i] ^ 0x8000u;
        want[11] = na && nb ? 0x7fff : na ? y[i] : nb ? x[i] : a == b ? (x[i] & y[i]) : a > b ? x[i] : y[i];
        want[12] = want[0];
        uint32_t bits = (uint32_t)x[i] << 16;
        want[13] = (uint16_t)(bits >> 16);
        want[14] = 0;
        want[15] = bf_from_double(sqrt(a));
        static const char *const names[16] = {"rn", "rz", "rd", "ru", "__hadd", "__hsub", "__hmul", "__hdiv",
                                              "__hfma", "a * b - c", "__hneg", "__hmax", "bf16 h = f",
                                              "to float (high)", "to float (low)", "hsqrt"};
        for (int j = 0; j < 16; j++) {
            bool same = r[j] == want[j] || (j == 15 && isnan(bf_value(r[j])) && isnan(bf_value(want[j])));
            ASSERT_MSG(same, "%s of %a / 0x%04x, 0x%04x, 0x%04x (%g, %g, %g): 0x%04x, want 0x%04x", names[j],
                       (double)f[i], x[i], y[i], z[i], a, b, c, r[j], want[j]);
        }
    }
}

/* __nv_bfloat162 lane by lane: comparisons give 1.0 (0x3f80) or 0.0 in each lane, the
 * __hb...2 forms and the pair operators whether both lanes hold, the functions each lane's
 * scalar function (NaNs included: a quarter of the lanes are). */
TEST(bfloat16_pairs_compare_and_compute_lane_by_lane)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <cuda_bf16.h>\n"
        "__device__ unsigned short lo(__nv_bfloat162 h) { return __bfloat16_as_ushort(h.x); }\n"
        "__device__ unsigned short hi(__nv_bfloat162 h) { return __bfloat16_as_ushort(h.y); }\n"
        "extern \"C\" __global__ void pairs(const __nv_bfloat162 *x, const __nv_bfloat162 *y,\n"
        "                                   unsigned short *o, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i >= n) return;\n"
        "    __nv_bfloat162 a = x[i], b = y[i];\n"
        "    unsigned short *r = o + 16 * i;\n"
        "    __nv_bfloat162 v[6] = {__heq2(a, b), __hlt2(a, b), __hgeu2(a, b), __hisnan2(a),\n"
        "                           h2sqrt(a), __hmax2_nan(a, b)};\n"
        "    for (int k = 0; k < 6; k++) {\n"
        "        r[2 * k] = lo(v[k]);\n"
        "        r[2 * k + 1] = hi(v[k]);\n"
        "    }\n"
        "    r[12] = (unsigned short)(__hbeq2(a, b) | __hblt2(a, b) << 1 | __hbgeu2(a, b) << 2);\n"
        "    r[13] = (unsigned short)((a == b) | (a < b) << 1 | (a >= b) << 2 | (a != b) << 3);\n"
        "    __nv_bfloat162 t = a;\n"
        "    t -= b;\n"
        "    r[14] = lo(t);\n"
        "    r[15] = hi(-a);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "pairs");
    enum { NP = 4096 };
    uint16_t *x = t_calloc(2 * NP, 2), *y = t_calloc(2 * NP, 2), *o = t_calloc(16 * NP, 2);
    for (int i = 0; i < 2 * NP; i++) {
        uint32_t r = t_rand_u32();
        x[i] = (uint16_t)(0x3e00u + (r & 0x1ffu)) | (uint16_t)(r & 0x8000u);
        y[i] = i % 3 ? (uint16_t)(0x3e00u + ((r >> 16) & 0x1ffu)) | (uint16_t)((r >> 16) & 0x8000u)
                     : x[i]; /* equal lanes too */
        if (i % 4 == 1)
            (i % 8 == 1 ? x : y)[i] = 0x7fc1u; /* NaN lanes */
    }
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {NP / 128}, .block = {128}},
                              LAT_ARGS(lat_arg_in(x, 4 * NP), lat_arg_in(y, 4 * NP),
                                       lat_arg_out(o, 32 * NP), lat_arg_i32(NP))));
    static const char *const names[16] = {"__heq2.x", "__heq2.y", "__hlt2.x", "__hlt2.y",
                                          "__hgeu2.x", "__hgeu2.y", "__hisnan2.x", "__hisnan2.y",
                                          "h2sqrt.x", "h2sqrt.y", "__hmax2_nan.x", "__hmax2_nan.y",
                                          "__hb..2", "operators", "-=", "unary -"};
    for (int i = 0; i < NP; i++) {
        uint16_t want[16];
        bool all_eq = true, all_lt = true, all_geu = true, all_ge = true, all_neu = true;
        for (int l = 0; l < 2; l++) {
            double a = bf_value(x[2 * i + l]), b = bf_value(y[2 * i + l]);
            bool nan = isnan(a) || isnan(b);
            want[l] = a == b ? 0x3f80 : 0;
            want[2 + l] = a < b ? 0x3f80 : 0;
            want[4 + l] = nan || a >= b ? 0x3f80 : 0;
            want[6 + l] = isnan(a) ? 0x3f80 : 0;
            want[8 + l] = bf_from_double(sqrt(a));
            want[10 + l] = nan ? 0x7fff : a == b ? (x[2 * i + l] & y[2 * i + l])
                                        : a > b  ? x[2 * i + l]
                                                 : y[2 * i + l];
            all_eq = all_eq && a == b;
            all_lt = all_lt && a < b;
            all_geu = all_geu && (nan || a >= b);
            all_ge = all_ge && a >= b;
            all_neu = all_neu && !(a == b);
        }
        want[12] = (uint16_t)(all_eq | all_lt << 1 | all_geu << 2);
        want[13] = (uint16_t)(all_eq | all_lt << 1 | all_ge << 2 | all_neu << 3);
        double a0 = bf_value(x[2 * i]), b0 = bf_value(y[2 * i]);
        want[14] = isnan(a0) || isnan(b0) ? 0x7fff : bf_from_double(a0 - b0);
        want[15] = isnan(bf_value(x[2 * i + 1])) ? 0x7fff : x[2 * i + 1] ^ 0x8000u;
        const uint16_t *r = o + 16 * i;
        for (int j = 0; j < 16; j++) {
            bool same = r[j] == want[j] ||
                        ((j == 8 || j == 9) && isnan(bf_value(r[j])) && isnan(bf_value(want[j])));
            ASSERT_MSG(same, "%s of (0x%04x, 0x%04x), (0x%04x, 0x%04x): 0x%04x, want 0x%04x",
                       names[j], x[2 * i], x[2 * i + 1], y[2 * i], y[2 * i + 1], r[j], want[j]);
        }
    }
}

/* The shuffles of cuda_bf16.h's pairs, as a warp's butterfly moves __nv_bfloat162 values
 * (each lane's pair comes back whole, its halves in their places). */
TEST(bfloat16_pairs_move_through_every_shuffle)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <cuda_bf16.h>\n"
        "extern \"C\" __global__ void sh(const __nv_bfloat162 *x, __nv_bfloat162 *o)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    __nv_bfloat162 v = x[i];\n"
        "    o[4 * i] = __shfl_xor_sync(0xffffffffu, v, 5);\n"
        "    o[4 * i + 1] = __shfl_down_sync(0xffffffffu, v, 3, 16);\n"
        "    o[4 * i + 2] = __shfl_up_sync(0xffffffffu, v, 2);\n"
        "    o[4 * i + 3] = __shfl_sync(0xffffffffu, v, 7, 8);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "sh");
    enum { NT = 128 };
    uint16_t x[2 * NT], o[8 * NT];
    for (int i = 0; i < 2 * NT; i++)
        x[i] = (uint16_t)t_rand_u32();
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {NT}},
                              LAT_ARGS(lat_arg_in(x, sizeof x), lat_arg_out(o, sizeof o))));
    for (int i = 0; i < NT; i++) {
        int lane = i % 32, w = i - lane;
        int from[4] = {lane ^ 5, lane % 16 + 3 < 16 ? lane + 3 : lane, lane % 32 >= 2 ? lane - 2 : lane,
                       lane / 8 * 8 + 7};
        for (int j = 0; j < 4; j++)
            for (int h = 0; h < 2; h++)
                ASSERT_MSG(o[8 * i + 2 * j + h] == x[2 * (w + from[j]) + h],
                           "lane %d, shuffle %d, half %d: 0x%04x, want 0x%04x", i, j, h, o[8 * i + 2 * j + h],
                           x[2 * (w + from[j]) + h]);
    }
}

TEST(a_module_compiled_in_pycudas_extern_c_wrap_includes_cuda_fp16_h)
{
    lat_context *ctx = t_context();
    /* NVRTC refuses cuda_fp16.h inside extern "C" { }; lattice includes it before the wrap */
    static const char src[] = "#include <cuda_fp16.h>\n"
                              "#include <cuda_bf16.h>\n"
                              "__global__ void twice(__half *h, __nv_bfloat16 *b)\n"
                              "{\n"
                              "    int i = threadIdx.x;\n"
                              "    h[i] = h[i] + h[i];\n"
                              "    b[i] = __hmul(b[i], __float2bfloat16(2.0f));\n"
                              "}\n";
    lat_kernel *k = t_kernel(ctx, src, "twice");
    uint16_t h[32], b[32];
    for (int i = 0; i < 32; i++) {
        h[i] = ref_from_double(t_rand_double(-100, 100), NEAREST);
        b[i] = bf_from_double(t_rand_double(-100, 100));
    }
    uint16_t h0[32], b0[32];
    memcpy(h0, h, sizeof h);
    memcpy(b0, b, sizeof b);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {32}},
                              LAT_ARGS(lat_arg_inout(h, sizeof h), lat_arg_inout(b, sizeof b))));
    for (int i = 0; i < 32; i++) {
        ASSERT_MSG(half_value(h[i]) == 2 * half_value(h0[i]), "h[%d] = %g, want %g", i, half_value(h[i]),
                   2 * half_value(h0[i]));
        ASSERT_MSG(bf_value(b[i]) == 2 * bf_value(b0[i]), "b[%d] = %g, want %g", i, bf_value(b[i]), 2 * bf_value(b0[i]));
    }
}
