/*
 * CUDA's intrinsics with an explicit rounding mode (__fadd_rz, __float2int_ru,
 * __double2float_rd...) for kernel code, and conversions to integers that saturate as the
 * GPU's instructions do (NaN gives 0). The _rn forms are plain C in the prelude.
 *
 * A directed rounding is the round-to-nearest result moved one step where the exact
 * result lies beyond it: the step's direction comes from the operation's exact error
 * (error-free transformations: TwoSum, an fma's remainder, the float operation carried
 * out exactly in double). No rounding mode is set (but for a double fma near the
 * subnormal range), because valgrind, like any emulator of the host's floating point
 * that honours only round-to-nearest, ignores fesetround and gave round-to-nearest
 * answers; and a mode change costs more than the few operations that replace it.
 */
#include "mathx.h"

#include <fenv.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>

enum { RN, RZ, RU, RD };

/* The sign of (exact - r) as -1, 0, 1. */
static int sign_of(double x)
{
    return (x > 0) - (x < 0);
}

/* r (the nearest result, finite or not) moved to the mode's neighbour, where above says
 * on which side of r the exact result lies (sign of exact - r). */
static float fdirect(float r, int above, int mode)
{
    if (!above || r != r || mode == RN)
        return r;
    if (mode == RU)
        return above > 0 ? nextafterf(r, INFINITY) : r;
    if (mode == RD)
        return above < 0 ? nextafterf(r, -INFINITY) : r;
    /* toward zero: only a result past the exact one moves */
    return (r > 0 && above < 0) || (r < 0 && above > 0) ? nextafterf(r, 0.0f) : r;
}

static double ddirect(double r, int above, int mode)
{
    if (!above || r != r || mode == RN)
        return r;
    if (mode == RU)
        return above > 0 ? nextafter(r, INFINITY) : r;
    if (mode == RD)
        return above < 0 ? nextafter(r, -INFINITY) : r;
    return (r > 0 && above < 0) || (r < 0 && above > 0) ? nextafter(r, 0.0) : r;
}

/* An infinite nearest result of finite operands overflowed: the exact one lies inside. */
static int overflowed(double r)
{
    return r > 0 ? -1 : 1;
}

/* The exact error of s = a + b (Knuth's TwoSum): a + b == s + e exactly. */
static double two_sum_error(double a, double b, double s)
{
    double bb = s - a;
    return (a - (s - bb)) + (b - bb);
}

/* An exact zero sum of two addends that are not zeros of one sign is -0 rounding down,
 * +0 in every other mode (IEEE 754's rule; round-to-nearest gave +0). */
static bool zero_sum_is_negative(double x, double y, double s, int mode)
{
    return s == 0 && mode == RD && !(x == 0 && y == 0 && signbit(x) == signbit(y));
}

/* A double exact result x (or x + e, e its exact tail) rounded to float in mode. */
static float round_double_to_float(double x, double e, int mode)
{
    float r = (float)x;
    if (isinf(r) && !isinf(x))
        return fdirect(r, overflowed(r), mode);
    /* x - r is exact: r is x's nearest float, within half a float step of it */
    return fdirect(r, sign_of((x - (double)r) + e), mode);
}

static float fop(int op, int mode, float a, float b, float c)
{
    double x = a, y = b, z = c;
    if (op == 4)
        op = 3, x = 1.0, y = a;
    switch (op) {
    case 0:
    case 1: {
        /* a float sum is not always exact in double: its tail comes from TwoSum */
        double w = op == 0 ? y : -y, s = x + w;
        if (!isfinite(s))
            return (float)s;
        if (zero_sum_is_negative(x, w, s, mode))
            return -0.0f;
        return round_double_to_float(s, two_sum_error(x, w, s), mode);
    }
    case 2:
        /* a product of two floats is exact in double */
        return isfinite(x * y) ? round_double_to_float(x * y, 0.0, mode) : (float)(x * y);
    case 3: {
        float r = (float)(x / y);
        if (!isfinite(x) || !isfinite(y) || y == 0 || r != r)
            return r;
        if (isinf(r))
            return fdirect(r, overflowed(r), mode);
        /* x - r*y: r*y exact in double, and its sign is that of x/y - r times y's */
        return fdirect(r, sign_of(x - (double)r * y) * sign_of(y), mode);
    }
    case 5: {
        float r = (float)sqrt(x);
        if (!(x > 0) || isinf(x))
            return r;
        return fdirect(r, sign_of(x - (double)r * r), mode);
    }
    default: {
        /* x*y exact in double, and the sum's tail from TwoSum */
        double p = x * y, s = p + z;
        if (!isfinite(p) || !isfinite(s))
            return (float)s;
        if (zero_sum_is_negative(p, z, s, mode))
            return -0.0f;
        return round_double_to_float(s, two_sum_error(p, z, s), mode);
    }
    }
}

/* A double fma near the subnormal range, where ErrFma's terms may round: the host's
 * rounding mode (which valgrind does not honour) does it exactly. */
static double fma_in_mode(double a, double b, double c, int mode)
{
    volatile double x = a, y = b, z = c, r;
    int saved = fegetround();
    fesetround(mode == RZ ? FE_TOWARDZERO : mode == RU ? FE_UPWARD : FE_DOWNWARD);
    r = fma(x, y, z);
    fesetround(saved);
    return r;
}

/* Double operations' errors, with the operands' significands (frexp) in place of the
 * operands, so that no remainder falls into the subnormal range and rounds to zero:
 * scaling by a power of two is exact where its result is normal. */
static double dop(int op, int mode, double a, double b, double c)
{
    if (op == 4)
        op = 3, b = a, a = 1.0;
    int ea, eb;
    switch (op) {
    case 0:
    case 1: {
        /* TwoSum's tail is exact: a sum's error is never below both operands' steps */
        double w = op == 0 ? b : -b, s = a + w;
        if (isinf(s) && isfinite(a) && isfinite(w))
            return ddirect(s, overflowed(s), mode);
        if (zero_sum_is_negative(a, w, s, mode))
            return -0.0;
        return isfinite(s) ? ddirect(s, sign_of(two_sum_error(a, w, s)), mode) : s;
    }
    case 2: {
        double r = a * b;
        if (!isfinite(a) || !isfinite(b) || r != r || a == 0 || b == 0)
            return r;
        if (isinf(r))
            return ddirect(r, overflowed(r), mode);
        if (r == 0)
            return ddirect(r, sign_of(a) * sign_of(b), mode);
        double ma = frexp(a, &ea), mb = frexp(b, &eb);
        return ddirect(r, sign_of(fma(ma, mb, -ldexp(r, -(ea + eb)))), mode);
    }
    case 3: {
        double q = a / b;
        if (!isfinite(a) || !isfinite(b) || b == 0 || a == 0 || q != q)
            return q;
        if (isinf(q))
            return ddirect(q, overflowed(q), mode);
        if (q == 0)
            return ddirect(q, sign_of(a) * sign_of(b), mode);
        /* a - q*b, its sign that of a/b - q times b's */
        double ma = frexp(a, &ea), mb = frexp(b, &eb);
        return ddirect(q, sign_of(fma(-ldexp(q, eb - ea), mb, ma)) * sign_of(b), mode);
    }
    case 5: {
        double r = sqrt(a);
        if (!(a > 0) || isinf(a))
            return r;
        double m = frexp(a, &ea);
        if (ea & 1)
            m *= 2, ea--;
        double rs = ldexp(r, -ea / 2);
        return ddirect(r, sign_of(fma(-rs, rs, m)), mode);
    }
    default: {
        double r = fma(a, b, c);
        if (!isfinite(a) || !isfinite(b) || !isfinite(c) || r != r)
            return r;
        if (isinf(r))
            return ddirect(r, overflowed(r), mode);
        double u1 = a * b;
        if (fabs(u1) < 0x1p-900 || fabs(c) < 0x1p-900 || fabs(r) < 0x1p-900)
            return fma_in_mode(a, b, c, mode);
        /* Boldo and Muller's ErrFma: a*b + c == r + g + a2 exactly, so the error's sign is
         * that of g + a2 (rounding keeps a nonzero sum's sign) */
        double u2 = fma(a, b, -u1);
        double a1 = c + u2, a2 = two_sum_error(c, u2, a1);
        double b1 = u1 + a1, b2 = two_sum_error(u1, a1, b1);
        double g = (b1 - r) + b2;
        return ddirect(r, sign_of(g + a2), mode);
    }
    }
}

static double round_to_integer(double x, int mode)
{
    return mode == RZ ? trunc(x) : mode == RU ? ceil(x) : mode == RD ? floor(x) : nearbyint(x);
}

/* kind 0: int, 1: unsigned, 2: long long. */
static long long f2i(double x, int mode, int kind)
{
    if (x != x)
        return 0;
    double r = round_to_integer(x, mode);
    double lo = kind == 0 ? -2147483648.0 : kind == 1 ? 0.0 : -9223372036854775808.0;
    double hi = kind == 0 ? 2147483647.0 : kind == 1 ? 4294967295.0 : 9223372036854775807.0;
    if (r <= lo)
        return kind == 2 ? INT64_MIN : (long long)lo;
    if (r >= hi)
        return kind == 2 ? INT64_MAX : (long long)hi;
    return (long long)r;
}

static unsigned long long f2ull(double x, int mode)
{
    if (x != x)
        return 0;
    double r = round_to_integer(x, mode);
    if (r <= 0.0)
        return 0;
    if (r >= 18446744073709551616.0)
        return UINT64_MAX;
    return (unsigned long long)r;
}

/* The sign of (exact integer - r), r a conversion's nearest result, compared in integers:
 * r is an integer already once it is past 2^53 or equal to it. */
static int int_above(unsigned long long bits, int is_unsigned, double r)
{
    if (is_unsigned) {
        if (r >= 18446744073709551616.0)
            return -1;
        unsigned long long ur = (unsigned long long)r, u = bits;
        return (u > ur) - (u < ur);
    }
    if (r >= 9223372036854775808.0)
        return -1;
    long long sr = (long long)r, s = (long long)bits;
    return (s > sr) - (s < sr);
}

static float i2f(unsigned long long bits, int mode, int is_unsigned)
{
    float r = is_unsigned ? (float)bits : (float)(long long)bits;
    return fdirect(r, int_above(bits, is_unsigned, r), mode);
}

static double i2d(unsigned long long bits, int mode, int is_unsigned)
{
    double r = is_unsigned ? (double)bits : (double)(long long)bits;
    return ddirect(r, int_above(bits, is_unsigned, r), mode);
}

static float d2f(double d, int mode)
{
    if (d != d || isinf(d))
        return (float)d;
    return round_double_to_float(d, 0.0, mode);
}

typedef void (*fn)(void);
#define A(name, impl) {name, (fn)impl}

static const lat__emu_symbol symbols[] = {
    A("__lat_fop", fop), A("__lat_dop", dop),   A("__lat_f2i", f2i), A("__lat_f2ull", f2ull),
    A("__lat_i2f", i2f), A("__lat_i2d", i2d),   A("__lat_d2f", d2f),
};

const lat__emu_symbol *lat__emu_mathx_symbols(size_t *count)
{
    *count = sizeof symbols / sizeof symbols[0];
    return symbols;
}
