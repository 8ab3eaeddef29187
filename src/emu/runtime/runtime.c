/* The host side of kernel code: see runtime.h. */
#define _GNU_SOURCE /* exp10, sincos, lgamma_r */
#include "runtime.h"
#include "core/alloc.h"

#include "atomics.h"
#include "emu/exec/exec.h"
#include "emu/exec/worker.h"
#include "texobj.h"
#include "xorwow.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- what TinyCC's x86-64 code generator calls instead of inline code ------------------ */

/* Conversions between floating point and unsigned 64-bit integers. Out-of-range values
 * saturate, as the GPU's conversion instructions do (C leaves them undefined). */
static unsigned long long fixunsdfdi(double a)
{
    if (!(a > 0.0))
        return 0;
    if (a >= 18446744073709551616.0)
        return UINT64_MAX;
    return (unsigned long long)a;
}

static unsigned long long fixunssfdi(float a)
{
    return fixunsdfdi(a);
}

static unsigned long long fixunsxfdi(long double a)
{
    if (!(a > 0.0L))
        return 0;
    if (a >= 18446744073709551616.0L)
        return UINT64_MAX;
    return (unsigned long long)a;
}

static float floatundisf(unsigned long long a)
{
    return (float)a;
}

static double floatundidf(unsigned long long a)
{
    return (double)a;
}

static long double floatundixf(unsigned long long a)
{
    return (long double)a;
}

/* va_arg in TinyCC-compiled code (a variadic __device__ function): returns the address
 * of the next argument of class `cls` (0 integer, 1 floating point, 2 memory), following
 * the System V x86-64 register save area layout: 6 general registers (48 bytes) then 8
 * vector registers of 16 bytes. */
typedef struct va_state {
    unsigned int gp_offset;
    unsigned int fp_offset;
    char *overflow_arg_area;
    char *reg_save_area;
} va_state;

static void *va_arg_addr(va_state *ap, int cls, int size, int align)
{
    size = (size + 7) & ~7;
    align = align > 8 ? (align + 7) & ~7 : 8;
    if (cls == 0 && ap->gp_offset + (unsigned)size <= 48) {
        ap->gp_offset += (unsigned)size;
        return ap->reg_save_area + ap->gp_offset - size;
    }
    if (cls == 1 && size <= 8 && ap->fp_offset + 16 <= 176) {
        ap->fp_offset += 16;
        return ap->reg_save_area + ap->fp_offset - 16;
    }
    if (cls == 1 && size == 16 && ap->fp_offset + 32 <= 176) {
        /* Two eightbytes in consecutive vector registers: make them adjacent. */
        char *p = ap->reg_save_area + ap->fp_offset;
        memmove(p + 8, p + 16, 8);
        ap->fp_offset += 32;
        return p;
    }
    uintptr_t a = (uintptr_t)ap->overflow_arg_area;
    a = (a + (uintptr_t)align - 1) & ~((uintptr_t)align - 1);
    ap->overflow_arg_area = (char *)a + size;
    return (void *)a;
}

/* ---- the C library ------------------------------------------------------------------ */

/* A kernel's malloc and free: the launch's context's device heap (heap.h), whose every
 * address the checks know; a free of anything else fails the launch. Kernel code runs on
 * a worker: without one there is no heap to use. */
static void *emu_malloc(size_t n)
{
    lat__emu_worker *w = lat__emu_current_worker();
    if (!w)
        return NULL;
    lat__emu_ctx *c = w->launch->ctx->impl;
    return lat__emu_heap_alloc(&c->heap, n);
}

static void emu_free(void *p)
{
    lat__emu_worker *w = lat__emu_current_worker();
    if (!w || !p)
        return;
    lat__emu_ctx *c = w->launch->ctx->impl;
    if (!lat__emu_heap_free(&c->heap, p))
        lat__emu_bad_free(w, p);
}

/* lgamma's sign goes to a global: the reentrant form avoids the race. */
static double emu_lgamma(double x)
{
    int sign;
    return lgamma_r(x, &sign);
}

static float emu_lgammaf(float x)
{
    int sign;
    return lgammaf_r(x, &sign);
}

/* fmax and fmin as the GPU's max/min instructions compute them: a NaN operand, quiet or
 * signalling, gives the other operand, two NaNs the canonical NaN, and +0 is above -0.
 * glibc returns a NaN for a signalling NaN (TS 18661), which a half NaN such as 0xfc69
 * becomes when converted to float: ggml's clamp of it gave the maximum, not the minimum. */
static float emu_fmaxminf(float a, float b, bool max)
{
    if (isnan(a) || isnan(b)) {
        if (isnan(a) && isnan(b)) {
            uint32_t canonical = 0x7fffffffu;
            memcpy(&a, &canonical, sizeof a);
            return a;
        }
        return isnan(a) ? b : a;
    }
    if (a == b) /* only +0 and -0 compare equal with different bits */
        return (signbit(a) != 0) == max ? b : a;
    return (a > b) == max ? a : b;
}

static double emu_fmaxmin(double a, double b, bool max)
{
    if (isnan(a) || isnan(b)) {
        if (isnan(a) && isnan(b)) {
            uint64_t canonical = 0x7fffffffffffffffull;
            memcpy(&a, &canonical, sizeof a);
            return a;
        }
        return isnan(a) ? b : a;
    }
    if (a == b)
        return (signbit(a) != 0) == max ? b : a;
    return (a > b) == max ? a : b;
}

static float emu_fmaxf(float a, float b) { return emu_fmaxminf(a, b, true); }
static float emu_fminf(float a, float b) { return emu_fmaxminf(a, b, false); }
static double emu_fmax(double a, double b) { return emu_fmaxmin(a, b, true); }
static double emu_fmin(double a, double b) { return emu_fmaxmin(a, b, false); }

/* CUDA functions C lacks. */
static double emu_rsqrt(double x) { return 1.0 / sqrt(x); }
static float emu_rsqrtf(float x) { return 1.0f / sqrtf(x); }
static double emu_rcbrt(double x) { return 1.0 / cbrt(x); }
static float emu_rcbrtf(float x) { return 1.0f / cbrtf(x); }

/* The inverse error functions, which C lacks: Newton's method on erf or erfc from
 * Winitzki's approximation (within 2e-3), to double precision in three or four steps.
 * ln is log(1 - x^2) = log(y (2 - y)) for y = 1 - x, computed without cancellation. */
static double inverse_erf_start(double ln)
{
    const double a = 0.147, two_pi_a = 2.0 / (3.14159265358979323846 * a);
    double t = two_pi_a + ln / 2;
    return sqrt(sqrt(t * t - ln / a) - t);
}

/* r with erfc(r) = y, for 0 < y < 1 (r > 0). */
static double erfc_root(double y)
{
    double r = inverse_erf_start(log(y * (2 - y)));
    for (int i = 0; i < 8; i++) {
        double d = (erfc(r) - y) / (-1.1283791670955126 * exp(-r * r));
        r -= d;
        if (fabs(d) <= 1e-16 * fabs(r))
            break;
    }
    return r;
}

static double emu_erfinv(double x)
{
    if (isnan(x) || x < -1 || x > 1)
        return NAN;
    if (x == 1 || x == -1)
        return x * INFINITY;
    double ax = fabs(x), r;
    if (ax >= 0.5) {
        r = erfc_root(1 - ax); /* 1 - ax exact here */
    } else {
        r = inverse_erf_start(log1p(-ax * ax));
        for (int i = 0; i < 8; i++) {
            double d = (erf(r) - ax) / (1.1283791670955126 * exp(-r * r));
            r -= d;
            if (fabs(d) <= 1e-16 * fabs(r))
                break;
        }
    }
    return copysign(r, x);
}

static double emu_erfcinv(double y)
{
    if (isnan(y) || y < 0 || y > 2)
        return NAN;
    if (y == 0)
        return INFINITY;
    if (y == 2)
        return -INFINITY;
    if (y > 0.5 && y < 1.5)
        return emu_erfinv(1 - y);
    return y < 1 ? erfc_root(y) : -erfc_root(2 - y);
}

static float emu_erfinvf(float x) { return (float)emu_erfinv(x); }
static float emu_erfcinvf(float y) { return (float)emu_erfcinv(y); }
static double emu_normcdf(double x) { return 0.5 * erfc(-x * 0.70710678118654752440); }
static float emu_normcdff(float x) { return (float)emu_normcdf(x); }
static double emu_normcdfinv(double p) { return -1.41421356237309504880 * emu_erfcinv(2 * p); }
static float emu_normcdfinvf(float p) { return (float)emu_normcdfinv(p); }
/* Bessel functions: the C library's (XSI) */
static float emu_j0f(float x) { return (float)j0(x); }
static float emu_j1f(float x) { return (float)j1(x); }
static float emu_y0f(float x) { return (float)y0(x); }
static float emu_y1f(float x) { return (float)y1(x); }

static double emu_jn(int n, double x) { return jn(n, x); }
static float emu_jnf(int n, float x) { return (float)jn(n, x); }
static double emu_yn(int n, double x) { return yn(n, x); }
static float emu_ynf(int n, float x) { return (float)yn(n, x); }

/* The Euclidean norm of v[0..n-1] and its reciprocal: +inf when an element is infinite,
 * even beside a NaN, as CUDA documents; the squares summed scaled by a power of two near
 * the largest element, so that no square overflows or underflows to nothing. */
static double norm_of(int n, const double *v)
{
    double big = 0;
    bool nan = false;
    for (int i = 0; i < n; i++) {
        double a = fabs(v[i]);
        if (isinf(a))
            return INFINITY;
        nan |= isnan(a);
        big = a > big ? a : big;
    }
    if (nan)
        return NAN;
    if (big == 0)
        return 0;
    int e = ilogb(big);
    double sum = 0;
    for (int i = 0; i < n; i++) {
        double a = scalbn(v[i], -e);
        sum = fma(a, a, sum);
    }
    return scalbn(sqrt(sum), e);
}

/* Floats' squares are exact in double and their sum neither overflows nor underflows
 * there: the float result is the double one rounded, within an ulp. */
static double normf_of(int n, const float *v)
{
    double sum = 0;
    bool inf = false;
    for (int i = 0; i < n; i++) {
        inf |= isinf(v[i]);
        sum += (double)v[i] * v[i];
    }
    return inf ? INFINITY : sqrt(sum);
}

static double emu_norm(int n, const double *v) { return norm_of(n, v); }
static double emu_rnorm(int n, const double *v) { return 1.0 / norm_of(n, v); }
static float emu_normf(int n, const float *v) { return (float)normf_of(n, v); }
static float emu_rnormf(int n, const float *v) { return (float)(1.0 / normf_of(n, v)); }
static double emu_rhypot(double a, double b) { return 1.0 / hypot(a, b); }
static float emu_rhypotf(float a, float b) { return (float)(1.0 / hypot(a, b)); }
static double emu_norm3d(double a, double b, double c) { return norm_of(3, (double[]){a, b, c}); }
static double emu_rnorm3d(double a, double b, double c) { return 1.0 / emu_norm3d(a, b, c); }
static float emu_norm3df(float a, float b, float c) { return (float)normf_of(3, (float[]){a, b, c}); }
static float emu_rnorm3df(float a, float b, float c)
{
    return (float)(1.0 / normf_of(3, (float[]){a, b, c}));
}
static double emu_norm4d(double a, double b, double c, double d)
{
    return norm_of(4, (double[]){a, b, c, d});
}
static double emu_rnorm4d(double a, double b, double c, double d)
{
    return 1.0 / emu_norm4d(a, b, c, d);
}
static float emu_norm4df(float a, float b, float c, float d)
{
    return (float)normf_of(4, (float[]){a, b, c, d});
}
static float emu_rnorm4df(float a, float b, float c, float d)
{
    return (float)(1.0 / normf_of(4, (float[]){a, b, c, d}));
}

/* erfcx(x) = exp(x^2) erfc(x). x^2 is split into its double and the exact rest (fma), so
 * that exp's argument carries no rounding error, which exp would multiply by x^2. Past
 * 26, near where erfc(x) leaves the normal range (26.55), the asymptotic series, whose
 * terms then fall by a factor of more than 1000 each. */
static double emu_erfcx(double x)
{
    if (isnan(x))
        return x;
    if (x < -27) /* 2 exp(x^2) - erfcx(-x) overflows */
        return INFINITY;
    if (x < 26) {
        double h = x * x, l = fma(x, x, -h);
        return exp(h) * (1 + l) * erfc(x);
    }
    if (isinf(x))
        return 0;
    double t = 0.5 / x / x, term = 1, sum = 1;
    for (int k = 1; k <= 12; k++) {
        term *= -(2 * k - 1) * t;
        sum += term;
    }
    return sum / x * 0.56418958354775628695; /* 1 / sqrt(pi) */
}

static float emu_erfcxf(float x) { return (float)emu_erfcx(x); }

/* The modified Bessel functions of the first kind, orders 0 and 1: the power series, of
 * positive terms, below 20; above, the asymptotic series e^x / sqrt(2 pi x) (1 - (mu - 1)
 * / 8x + ...), mu = 4 nu^2, whose terms fall below 1e-18 of the sum before they grow
 * (the smallest, at 20, is near 1e-18). Past 700 exp(x) is taken in halves: I0 is
 * finite up to 713.98, where exp(x) is not. */
static double bessel_i(int nu, double x)
{
    double ax = fabs(x), r;
    if (isnan(x))
        return x;
    if (ax < 20) {
        /* q's rounding error d would move the sum by d times its derivative in q,
         * sum(k term_k) / q (a few ulp at 20): added back, d being exact (fma) */
        double q = ax * ax / 4, d = fma(ax, ax, -4 * q) / 4;
        double term = nu ? ax / 2 : 1, sum = term, ksum = 0;
        for (int k = 1; k < 200 && term > sum * 1e-18; k++) {
            term *= q / ((double)k * (k + nu));
            sum += term;
            ksum += k * term;
        }
        r = q > 0 ? sum + d / q * ksum : sum;
    } else {
        double mu = 4.0 * nu * nu, term = 1, sum = 1;
        for (int k = 1; k <= 40 && fabs(term) > 1e-18; k++) {
            term *= -(mu - (2 * k - 1) * (2 * k - 1)) / (k * 8 * ax);
            sum += term;
        }
        double g = sum * 0.39894228040143267794 / sqrt(ax); /* 1 / sqrt(2 pi) */
        if (ax < 700) {
            r = exp(ax) * g;
        } else {
            double h = exp(ax / 2);
            r = h * (h * g);
        }
    }
    return nu && x < 0 ? -r : r;
}

static double emu_cyl_bessel_i0(double x) { return bessel_i(0, x); }
static double emu_cyl_bessel_i1(double x) { return bessel_i(1, x); }
static float emu_cyl_bessel_i0f(float x) { return (float)bessel_i(0, x); }
static float emu_cyl_bessel_i1f(float x) { return (float)bessel_i(1, x); }

/* sin(pi x) and cos(pi x), exact at integers and half-integers as CUDA's are. */
static double emu_sinpi(double x)
{
    double r = remainder(x, 2.0); /* in [-1, 1] */
    if (r == 0.0 || fabs(r) == 1.0)
        return copysign(0.0, x);
    if (fabs(r) == 0.5)
        return r > 0 ? 1.0 : -1.0;
    return sin(M_PI * r);
}

static double emu_cospi(double x)
{
    double r = fabs(remainder(x, 2.0));
    if (r == 0.5)
        return 0.0;
    if (r == 0.0)
        return 1.0;
    if (r == 1.0)
        return -1.0;
    return cos(M_PI * r);
}

static float emu_sinpif(float x) { return (float)emu_sinpi(x); }
static float emu_cospif(float x) { return (float)emu_cospi(x); }

static void emu_sincospi(double x, double *s, double *c)
{
    *s = emu_sinpi(x);
    *c = emu_cospi(x);
}

static void emu_sincospif(float x, float *s, float *c)
{
    *s = emu_sinpif(x);
    *c = emu_cospif(x);
}

/* ---- integer intrinsics ------------------------------------------------------------- */

static int emu_popc(unsigned int x) { return __builtin_popcount(x); }
static int emu_popcll(unsigned long long x) { return __builtin_popcountll(x); }
static int emu_clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
static int emu_clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
static int emu_ffs(int x) { return __builtin_ffs(x); }
static int emu_ffsll(long long x) { return __builtin_ffsll(x); }

static unsigned int emu_brev(unsigned int x)
{
    unsigned int r = 0;
    for (int i = 0; i < 32; i++, x >>= 1)
        r = (r << 1) | (x & 1u);
    return r;
}

static unsigned long long emu_brevll(unsigned long long x)
{
    return ((unsigned long long)emu_brev((unsigned)x) << 32) | emu_brev((unsigned)(x >> 32));
}

static int emu_mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
static unsigned emu_umulhi(unsigned a, unsigned b)
{
    return (unsigned)(((unsigned long long)a * b) >> 32);
}

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

static long long emu_mul64hi(long long a, long long b)
{
    return (long long)(((i128)a * b) >> 64);
}

static unsigned long long emu_umul64hi(unsigned long long a, unsigned long long b)
{
    return (unsigned long long)(((u128)a * b) >> 64);
}

/* clock(), clock64(): a GPU's cycle counter, which kernels read to time their own parts
 * (cuda-samples' clock) or to seed; here nanoseconds of CLOCK_MONOTONIC, which also only
 * grows. */
static long long emu_clock64(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* __nanosleep: a back-off in a spin loop; the emulator's threads of a block take turns
 * anyway, so it only returns. */
static void emu_nanosleep(unsigned ns)
{
    (void)ns;
}

/* ---- the table ------------------------------------------------------------------------ */

typedef void (*fn)(void);
#define F(name) {#name, (fn)name}
#define M1(name) F(name), F(name##f)
#define AS(name, impl) {name, (fn)impl}

static const lat__emu_symbol symbols[] = {
    AS("__fixunssfdi", fixunssfdi),
    AS("__fixunsdfdi", fixunsdfdi),
    AS("__fixunsxfdi", fixunsxfdi),
    AS("__floatundisf", floatundisf),
    AS("__floatundidf", floatundidf),
    AS("__floatundixf", floatundixf),
    AS("__va_arg", va_arg_addr),
    F(memcpy), F(memmove), F(memset), AS("malloc", emu_malloc), AS("free", emu_free),
    AS("printf", lat__emu_printf),
    AS("__lat_trap", lat__emu_trap),
    AS("__lat_bar", lat__exec_barrier),
    AS("__lat_grid_bar", lat__exec_grid_barrier),
    AS("__lat_warp", lat__exec_warp),
    AS("__lat_match_all", lat__exec_match_all),
    AS("__lat_activemask", lat__exec_activemask),
    AS("__lat_scratch", lat__emu_scratch),
    AS("__lat_rvote", lat__emu_rvote),
    AS("__lat_rmatch_all", lat__emu_rmatch_all),
    AS("__lat_bvote", lat__emu_bvote),
    AS("__lat_rwarp", lat__emu_rwarp),
    AS("__lat_converged", lat__emu_converged),
    AS("__lat_tex_read", lat__emu_tex_read),
    AS("__lat_tex_fetch", lat__emu_tex_fetch),
    AS("__lat_surf_read", lat__emu_surf_read),
    AS("__lat_surf_write", lat__emu_surf_write),
    F(abs), F(labs), F(llabs),
    M1(acos), M1(acosh), M1(asin), M1(asinh), M1(atan), M1(atanh), M1(cbrt), M1(ceil),
    M1(cos), M1(cosh), M1(erf), M1(erfc), M1(exp), M1(exp2), M1(exp10), M1(expm1),
    M1(fabs), M1(floor), M1(log), M1(log10), M1(log1p), M1(log2), M1(logb),
    M1(nearbyint), M1(rint), M1(round), M1(sin), M1(sinh), M1(sqrt), M1(tan), M1(tanh),
    M1(tgamma), M1(trunc), M1(atan2), M1(copysign), M1(fdim), M1(fmod),
    AS("fmax", emu_fmax), AS("fmaxf", emu_fmaxf), AS("fmin", emu_fmin), AS("fminf", emu_fminf),
    M1(hypot), M1(nextafter), M1(pow), M1(remainder), M1(fma), M1(ldexp), M1(scalbn),
    M1(frexp), M1(modf), M1(remquo), M1(ilogb), M1(lround), M1(llround), M1(lrint),
    M1(llrint), M1(sincos), M1(nan),
    AS("lgamma", emu_lgamma), AS("lgammaf", emu_lgammaf),
    AS("rsqrt", emu_rsqrt), AS("rsqrtf", emu_rsqrtf),
    AS("rcbrt", emu_rcbrt), AS("rcbrtf", emu_rcbrtf),
    AS("erfinv", emu_erfinv), AS("erfinvf", emu_erfinvf),
    AS("erfcinv", emu_erfcinv), AS("erfcinvf", emu_erfcinvf),
    AS("normcdf", emu_normcdf), AS("normcdff", emu_normcdff),
    AS("normcdfinv", emu_normcdfinv), AS("normcdfinvf", emu_normcdfinvf),
    AS("j0", j0), AS("j0f", emu_j0f), AS("j1", j1), AS("j1f", emu_j1f),
    AS("y0", y0), AS("y0f", emu_y0f), AS("y1", y1), AS("y1f", emu_y1f),
    AS("jn", emu_jn), AS("jnf", emu_jnf), AS("yn", emu_yn), AS("ynf", emu_ynf),
    AS("norm", emu_norm), AS("normf", emu_normf), AS("rnorm", emu_rnorm), AS("rnormf", emu_rnormf),
    AS("rhypot", emu_rhypot), AS("rhypotf", emu_rhypotf),
    AS("norm3d", emu_norm3d), AS("norm3df", emu_norm3df),
    AS("rnorm3d", emu_rnorm3d), AS("rnorm3df", emu_rnorm3df),
    AS("norm4d", emu_norm4d), AS("norm4df", emu_norm4df),
    AS("rnorm4d", emu_rnorm4d), AS("rnorm4df", emu_rnorm4df),
    AS("erfcx", emu_erfcx), AS("erfcxf", emu_erfcxf),
    AS("cyl_bessel_i0", emu_cyl_bessel_i0), AS("cyl_bessel_i0f", emu_cyl_bessel_i0f),
    AS("cyl_bessel_i1", emu_cyl_bessel_i1), AS("cyl_bessel_i1f", emu_cyl_bessel_i1f),
    M1(scalbln),
    AS("sinpi", emu_sinpi), AS("sinpif", emu_sinpif),
    AS("cospi", emu_cospi), AS("cospif", emu_cospif),
    AS("sincospi", emu_sincospi), AS("sincospif", emu_sincospif),
    AS("__lat_xorwow_skip", lat__emu_xorwow_skip),
    AS("__popc", emu_popc), AS("__popcll", emu_popcll),
    AS("__clz", emu_clz), AS("__clzll", emu_clzll),
    AS("__ffs", emu_ffs), AS("__ffsll", emu_ffsll),
    AS("__brev", emu_brev), AS("__brevll", emu_brevll),
    AS("__mulhi", emu_mulhi), AS("__umulhi", emu_umulhi),
    AS("__mul64hi", emu_mul64hi), AS("__umul64hi", emu_umul64hi),
    AS("__lat_clock64", emu_clock64), AS("__lat_nanosleep", emu_nanosleep),
};

const lat__emu_symbol *lat__emu_runtime_symbols(size_t *count)
{
    *count = sizeof symbols / sizeof symbols[0];
    return symbols;
}
