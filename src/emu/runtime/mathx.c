/*
 * CUDA's intrinsics with an explicit rounding mode (__fadd_rz, __float2int_ru,
 * __double2float_rd...) for kernel code: the operation under fesetround, and conversions
 * to integers that saturate as the GPU's instructions do (NaN gives 0). The _rn forms
 * are plain C in the prelude. Operands and results go through volatile objects so that
 * the compiler neither folds nor moves the operation across the mode change.
 */
#include "mathx.h"

#include <fenv.h>
#include <math.h>
#include <stdint.h>

enum { RN, RZ, RU, RD };

static int fe_mode(int mode)
{
    return mode == RZ ? FE_TOWARDZERO : mode == RU ? FE_UPWARD : mode == RD ? FE_DOWNWARD
                                                                            : FE_TONEAREST;
}

static float fop(int op, int mode, float a, float b, float c)
{
    volatile float x = a, y = b, z = c;
    volatile float r;
    int saved = fegetround();
    fesetround(fe_mode(mode));
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

static double dop(int op, int mode, double a, double b, double c)
{
    volatile double x = a, y = b, z = c;
    volatile double r;
    int saved = fegetround();
    fesetround(fe_mode(mode));
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

static float i2f(unsigned long long bits, int mode, int is_unsigned)
{
    volatile unsigned long long u = bits;
    volatile long long s = (long long)bits;
    volatile float r;
    int saved = fegetround();
    fesetround(fe_mode(mode));
    r = is_unsigned ? (float)u : (float)s;
    fesetround(saved);
    return r;
}

static double i2d(unsigned long long bits, int mode, int is_unsigned)
{
    volatile unsigned long long u = bits;
    volatile long long s = (long long)bits;
    volatile double r;
    int saved = fegetround();
    fesetround(fe_mode(mode));
    r = is_unsigned ? (double)u : (double)s;
    fesetround(saved);
    return r;
}

static float d2f(double d, int mode)
{
    volatile double x = d;
    volatile float r;
    int saved = fegetround();
    fesetround(fe_mode(mode));
    r = (float)x;
    fesetround(saved);
    return r;
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
