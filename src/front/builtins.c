/* CUDA C's built-in names: see builtins.h. */
#include "builtins.h"
#include "core/alloc.h"

#include "type.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Math functions with a float and a double form (CUDA overloads the double name). */
static const char *const math1[] = {
    "acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "ceil", "cos", "cosh",
    "erf", "erfc", "erfinv", "erfcinv", "exp", "exp2", "exp10", "expm1", "fabs", "floor",
    "lgamma", "log", "log10", "log1p", "log2", "logb", "nearbyint", "rint", "round", "sin",
    "sinh", "sqrt", "tan", "tanh", "tgamma", "trunc", "rsqrt", "rcbrt", "sinpi", "cospi",
    "j0", "j1", "y0", "y1", "normcdf", "normcdfinv", "erfcx", "cyl_bessel_i0", "cyl_bessel_i1",
};
static const char *const math2[] = {
    "atan2", "copysign", "fdim", "fmax", "fmin", "fmod", "hypot", "nextafter", "pow",
    "remainder",
};
static const char *const math_exp[] = {"ldexp", "scalbn", "scalbln"};
static const char *const classify[] = {"isnan", "isinf", "isfinite", "signbit"};

/* Declarations of fixed signature, one name each. */
static const char *const decls[] = {
    /* stdint.h, stddef.h */
    "typedef signed char int8_t;", "typedef unsigned char uint8_t;",
    "typedef short int16_t;", "typedef unsigned short uint16_t;",
    "typedef int int32_t;", "typedef unsigned int uint32_t;",
    "typedef long int64_t;", "typedef unsigned long uint64_t;",
    "typedef unsigned long size_t;", "typedef long ptrdiff_t;", "typedef long ssize_t;",
    "typedef long intptr_t;", "typedef unsigned long uintptr_t;",
    "typedef long intmax_t;", "typedef unsigned long uintmax_t;",
    "typedef unsigned long long cudaTextureObject_t;",
    "typedef unsigned long long cudaSurfaceObject_t;",
    /* texture and surface reads and writes (parse_texture.c makes their calls; the
     * prelude's macros of these names call texfetch.c) */
    "void __lat_tex(void *t, unsigned int k, unsigned long long h, int op, float x, float y, float z, int layer);",
    "void __lat_tex1(void *t, unsigned int k, unsigned long long h, int i);",
    "void __lat_surfr(void *t, unsigned int k, unsigned long long h, int op, int x, int y, int z, int mode);",
    "void __lat_surfw(void *t, unsigned int k, ...);",
    "typedef __builtin_va_list va_list;",
    "typedef struct uint3 { unsigned int x, y, z; } uint3;",
    "typedef uint3 dim3;",
    "uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z);",
    /* the C library */
    "void *memcpy(void *d, const void *s, size_t n);",
    "void *memmove(void *d, const void *s, size_t n);",
    "void *memset(void *d, int c, size_t n);",
    "void *malloc(size_t n);",
    "void free(void *p);",
    "int printf(const char *format, ...);",
    "long labs(long x);", "long long llabs(long long x);",
    "void __lat_assert_fail(const char *e, const char *file, int line);",
    "void __trap(void);",
    "void __brkpt(void);",
    /* math of fixed signature */
    "double frexp(double x, int *e);", "float frexpf(float x, int *e);",
    "double modf(double x, double *i);", "float modff(float x, float *i);",
    "double remquo(double x, double y, int *q);", "float remquof(float x, float y, int *q);",
    "int ilogb(double x);", "int ilogbf(float x);",
    "long lround(double x);", "long lroundf(float x);",
    "long long llround(double x);", "long long llroundf(float x);",
    "long lrint(double x);", "long lrintf(float x);",
    "long long llrint(double x);", "long long llrintf(float x);",
    "void sincos(double x, double *s, double *c);", "void sincosf(float x, float *s, float *c);",
    "void sincospi(double x, double *s, double *c);",
    "void sincospif(float x, float *s, float *c);",
    "double nan(const char *t);", "float nanf(const char *t);",
    "float fmaf(float x, float y, float z);",
    "float ldexpf(float x, int e);", "float scalbnf(float x, int e);",
    "float scalblnf(float x, long n);",
    /* CUDA overloads jn and yn for float (jnf, ynf: parse_expr.c's float twins), but not
     * rhypot, the norms and their reciprocals: of floats they are the double functions */
    "double jn(int n, double x);", "float jnf(int n, float x);",
    "double yn(int n, double x);", "float ynf(int n, float x);",
    "double rhypot(double x, double y);", "float rhypotf(float x, float y);",
    "double norm3d(double a, double b, double c);", "float norm3df(float a, float b, float c);",
    "double rnorm3d(double a, double b, double c);", "float rnorm3df(float a, float b, float c);",
    "double norm4d(double a, double b, double c, double d);",
    "float norm4df(float a, float b, float c, float d);",
    "double rnorm4d(double a, double b, double c, double d);",
    "float rnorm4df(float a, float b, float c, float d);",
    "double norm(int dim, const double *p);", "float normf(int dim, const float *p);",
    "double rnorm(int dim, const double *p);", "float rnormf(int dim, const float *p);",
    "float __expf(float x);", "float __exp10f(float x);", "float __logf(float x);",
    "float __log2f(float x);", "float __log10f(float x);", "float __sinf(float x);",
    "float __cosf(float x);", "float __tanf(float x);",
    "void __sincosf(float x, float *s, float *c);", "float __powf(float x, float y);",
    "float __fdividef(float x, float y);", "float fdividef(float x, float y);",
    "float __saturatef(float x);",
    "int __float_as_int(float x);", "float __int_as_float(int x);",
    "unsigned int __float_as_uint(float x);", "float __uint_as_float(unsigned int x);",
    "long long __double_as_longlong(double x);", "double __longlong_as_double(long long x);",
    "int __double2hiint(double x);", "int __double2loint(double x);",
    "double __hiloint2double(int hi, int lo);",
    "unsigned int umin(unsigned int a, unsigned int b);",
    "unsigned int umax(unsigned int a, unsigned int b);",
    "long long llmin(long long a, long long b);", "long long llmax(long long a, long long b);",
    "unsigned long long ullmin(unsigned long long a, unsigned long long b);",
    "unsigned long long ullmax(unsigned long long a, unsigned long long b);",
    /* integer intrinsics */
    "int __popc(unsigned int x);", "int __popcll(unsigned long long x);",
    "int __clz(int x);", "int __clzll(long long x);",
    "int __ffs(int x);", "int __ffsll(long long x);",
    "unsigned int __brev(unsigned int x);", "unsigned long long __brevll(unsigned long long x);",
    "int __mulhi(int x, int y);", "unsigned int __umulhi(unsigned int x, unsigned int y);",
    "long long __mul64hi(long long x, long long y);",
    "unsigned long long __umul64hi(unsigned long long x, unsigned long long y);",
    "typedef long clock_t;", "clock_t clock(void);", "long long clock64(void);",
    "void __nanosleep(unsigned int ns);",
    /* curand_kernel.h's XORWOW jumps (the emulator's xorwow.h) */
    "void __lat_xorwow_skip(unsigned int *v, unsigned long long sequence, unsigned long long offset);",
    "int __mul24(int x, int y);", "unsigned int __umul24(unsigned int x, unsigned int y);",
    "unsigned int __sad(int x, int y, unsigned int z);",
    "unsigned int __usad(unsigned int x, unsigned int y, unsigned int z);",
    "int __hadd(int x, int y);", "int __rhadd(int x, int y);",
    "unsigned int __uhadd(unsigned int x, unsigned int y);",
    "unsigned int __urhadd(unsigned int x, unsigned int y);",
    "unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s);",
    "unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int s);",
    "unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int s);",
    "unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int s);",
    "unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int s);",
    "float __frsqrt_rn(float x);",
    /* the SIMD video intrinsics (sm_20_intrinsics.h and on): lanes of 16 or 8 bits */
    "unsigned int __vabs2(unsigned int a);", "unsigned int __vabs4(unsigned int a);", "unsigned int __vabsss2(unsigned int a);",
    "unsigned int __vabsss4(unsigned int a);", "unsigned int __vneg2(unsigned int a);", "unsigned int __vneg4(unsigned int a);",
    "unsigned int __vnegss2(unsigned int a);", "unsigned int __vnegss4(unsigned int a);", "unsigned int __vabsdiffs2(unsigned int a, unsigned int b);",
    "unsigned int __vabsdiffs4(unsigned int a, unsigned int b);", "unsigned int __vabsdiffu2(unsigned int a, unsigned int b);", "unsigned int __vabsdiffu4(unsigned int a, unsigned int b);",
    "unsigned int __vadd2(unsigned int a, unsigned int b);", "unsigned int __vadd4(unsigned int a, unsigned int b);", "unsigned int __vaddss2(unsigned int a, unsigned int b);",
    "unsigned int __vaddss4(unsigned int a, unsigned int b);", "unsigned int __vaddus2(unsigned int a, unsigned int b);", "unsigned int __vaddus4(unsigned int a, unsigned int b);",
    "unsigned int __vavgs2(unsigned int a, unsigned int b);", "unsigned int __vavgs4(unsigned int a, unsigned int b);", "unsigned int __vavgu2(unsigned int a, unsigned int b);",
    "unsigned int __vavgu4(unsigned int a, unsigned int b);", "unsigned int __vcmpeq2(unsigned int a, unsigned int b);", "unsigned int __vcmpeq4(unsigned int a, unsigned int b);",
    "unsigned int __vcmpges2(unsigned int a, unsigned int b);", "unsigned int __vcmpges4(unsigned int a, unsigned int b);", "unsigned int __vcmpgeu2(unsigned int a, unsigned int b);",
    "unsigned int __vcmpgeu4(unsigned int a, unsigned int b);", "unsigned int __vcmpgts2(unsigned int a, unsigned int b);", "unsigned int __vcmpgts4(unsigned int a, unsigned int b);",
    "unsigned int __vcmpgtu2(unsigned int a, unsigned int b);", "unsigned int __vcmpgtu4(unsigned int a, unsigned int b);", "unsigned int __vcmples2(unsigned int a, unsigned int b);",
    "unsigned int __vcmples4(unsigned int a, unsigned int b);", "unsigned int __vcmpleu2(unsigned int a, unsigned int b);", "unsigned int __vcmpleu4(unsigned int a, unsigned int b);",
    "unsigned int __vcmplts2(unsigned int a, unsigned int b);", "unsigned int __vcmplts4(unsigned int a, unsigned int b);", "unsigned int __vcmpltu2(unsigned int a, unsigned int b);",
    "unsigned int __vcmpltu4(unsigned int a, unsigned int b);", "unsigned int __vcmpne2(unsigned int a, unsigned int b);", "unsigned int __vcmpne4(unsigned int a, unsigned int b);",
    "unsigned int __vhaddu2(unsigned int a, unsigned int b);", "unsigned int __vhaddu4(unsigned int a, unsigned int b);", "unsigned int __vmaxs2(unsigned int a, unsigned int b);",
    "unsigned int __vmaxs4(unsigned int a, unsigned int b);", "unsigned int __vmaxu2(unsigned int a, unsigned int b);", "unsigned int __vmaxu4(unsigned int a, unsigned int b);",
    "unsigned int __vmins2(unsigned int a, unsigned int b);", "unsigned int __vmins4(unsigned int a, unsigned int b);", "unsigned int __vminu2(unsigned int a, unsigned int b);",
    "unsigned int __vminu4(unsigned int a, unsigned int b);", "unsigned int __vsads2(unsigned int a, unsigned int b);", "unsigned int __vsads4(unsigned int a, unsigned int b);",
    "unsigned int __vsadu2(unsigned int a, unsigned int b);", "unsigned int __vsadu4(unsigned int a, unsigned int b);", "unsigned int __vseteq2(unsigned int a, unsigned int b);",
    "unsigned int __vseteq4(unsigned int a, unsigned int b);", "unsigned int __vsetges2(unsigned int a, unsigned int b);", "unsigned int __vsetges4(unsigned int a, unsigned int b);",
    "unsigned int __vsetgeu2(unsigned int a, unsigned int b);", "unsigned int __vsetgeu4(unsigned int a, unsigned int b);", "unsigned int __vsetgts2(unsigned int a, unsigned int b);",
    "unsigned int __vsetgts4(unsigned int a, unsigned int b);", "unsigned int __vsetgtu2(unsigned int a, unsigned int b);", "unsigned int __vsetgtu4(unsigned int a, unsigned int b);",
    "unsigned int __vsetles2(unsigned int a, unsigned int b);", "unsigned int __vsetles4(unsigned int a, unsigned int b);", "unsigned int __vsetleu2(unsigned int a, unsigned int b);",
    "unsigned int __vsetleu4(unsigned int a, unsigned int b);", "unsigned int __vsetlts2(unsigned int a, unsigned int b);", "unsigned int __vsetlts4(unsigned int a, unsigned int b);",
    "unsigned int __vsetltu2(unsigned int a, unsigned int b);", "unsigned int __vsetltu4(unsigned int a, unsigned int b);", "unsigned int __vsetne2(unsigned int a, unsigned int b);",
    "unsigned int __vsetne4(unsigned int a, unsigned int b);", "unsigned int __vsub2(unsigned int a, unsigned int b);", "unsigned int __vsub4(unsigned int a, unsigned int b);",
    "unsigned int __vsubss2(unsigned int a, unsigned int b);", "unsigned int __vsubss4(unsigned int a, unsigned int b);", "unsigned int __vsubus2(unsigned int a, unsigned int b);",
    "unsigned int __vsubus4(unsigned int a, unsigned int b);",
    /* dot products of bytes and halves, and the n-th set bit (sm_61_intrinsics.h) */
    "int __dp4a(int a, int b, int c);", "unsigned int __dp4a(unsigned int a, unsigned int b, unsigned int c);",
    "int __dp2a_lo(int a, int b, int c);", "unsigned int __dp2a_lo(unsigned int a, unsigned int b, unsigned int c);",
    "int __dp2a_hi(int a, int b, int c);", "unsigned int __dp2a_hi(unsigned int a, unsigned int b, unsigned int c);",
    "unsigned int __fns(unsigned int mask, unsigned int base, int offset);",
    /* barriers, warps, fences */
    "void __syncthreads(void);",
    "int __syncthreads_count(int p);", "int __syncthreads_and(int p);",
    "int __syncthreads_or(int p);",
    "void __lat_grid_sync(void);",
    "unsigned int __activemask(void);",
    "unsigned int __ballot_sync(unsigned int mask, int p);",
    "int __any_sync(unsigned int mask, int p);", "int __all_sync(unsigned int mask, int p);",
    "unsigned int __reduce_add_sync(unsigned int mask, unsigned int v);",
    "unsigned int __reduce_and_sync(unsigned int mask, unsigned int v);",
    "unsigned int __reduce_or_sync(unsigned int mask, unsigned int v);",
    "unsigned int __reduce_xor_sync(unsigned int mask, unsigned int v);",
    "void __threadfence(void);", "void __threadfence_block(void);",
    "void __threadfence_system(void);",
    "unsigned int atomicInc(unsigned int *p, unsigned int v);",
    "unsigned int atomicDec(unsigned int *p, unsigned int v);",
    /* the emulator's GPU arithmetic (prelude.c), which the passes call (passes/arith.c) */
    "int __lat_shl_i32(int x, unsigned int n);", "unsigned int __lat_shl_u32(unsigned int x, unsigned int n);",
    "int __lat_shr_i32(int x, unsigned int n);", "unsigned int __lat_shr_u32(unsigned int x, unsigned int n);",
    "long long __lat_shl_i64(long long x, unsigned int n);",
    "unsigned long long __lat_shl_u64(unsigned long long x, unsigned int n);",
    "long long __lat_shr_i64(long long x, unsigned int n);",
    "unsigned long long __lat_shr_u64(unsigned long long x, unsigned int n);",
    "signed char __lat_f2i_s8(float x);", "unsigned char __lat_f2i_u8(float x);",
    "short __lat_f2i_s16(float x);", "unsigned short __lat_f2i_u16(float x);",
    "int __lat_f2i_s32(float x);", "unsigned int __lat_f2i_u32(float x);",
    "long long __lat_f2i_s64(float x);", "unsigned long long __lat_f2i_u64(float x);",
    "signed char __lat_d2i_s8(double x);", "unsigned char __lat_d2i_u8(double x);",
    "short __lat_d2i_s16(double x);", "unsigned short __lat_d2i_u16(double x);",
    "int __lat_d2i_s32(double x);", "unsigned int __lat_d2i_u32(double x);",
    "long long __lat_d2i_s64(double x);", "unsigned long long __lat_d2i_u64(double x);",
    /* the index variables */
    "extern const uint3 threadIdx;", "extern const uint3 blockIdx;",
    "extern const dim3 blockDim;", "extern const dim3 gridDim;",
};

/* Rounding-mode intrinsics: a name per mode. */
static const struct {
    const char *name, *sig; /* sig: "R(P1, P2...)" with %s for the name */
} rounded[] = {
    {"__fadd", "float %s(float a, float b);"},      {"__fsub", "float %s(float a, float b);"},
    {"__fmul", "float %s(float a, float b);"},      {"__fdiv", "float %s(float a, float b);"},
    {"__frcp", "float %s(float a);"},               {"__fsqrt", "float %s(float a);"},
    {"__fmaf", "float %s(float a, float b, float c);"},
    {"__dadd", "double %s(double a, double b);"},   {"__dsub", "double %s(double a, double b);"},
    {"__dmul", "double %s(double a, double b);"},   {"__ddiv", "double %s(double a, double b);"},
    {"__drcp", "double %s(double a);"},             {"__dsqrt", "double %s(double a);"},
    {"__fma", "double %s(double a, double b, double c);"},
    {"__float2int", "int %s(float a);"},            {"__float2uint", "unsigned int %s(float a);"},
    {"__float2ll", "long long %s(float a);"},
    {"__float2ull", "unsigned long long %s(float a);"},
    {"__double2int", "int %s(double a);"},          {"__double2uint", "unsigned int %s(double a);"},
    {"__double2ll", "long long %s(double a);"},
    {"__double2ull", "unsigned long long %s(double a);"},
    {"__int2float", "float %s(int a);"},            {"__uint2float", "float %s(unsigned int a);"},
    {"__ll2float", "float %s(long long a);"},       {"__ull2float", "float %s(unsigned long long a);"},
    {"__ll2double", "double %s(long long a);"},
    {"__ull2double", "double %s(unsigned long long a);"},
    {"__double2float", "float %s(double a);"},
};
static const char *const modes[] = {"rn", "rz", "ru", "rd"};
static const char *const rn_only[] = {"__int2double_rn", "__uint2double_rn"};

const lat__vector_kind lat__vector_kinds[LAT_VECTOR_KINDS] = {
    {"signed char", "char", 2, 4},  {"unsigned char", "uchar", 2, 4},
    {"short", "short", 4, 8},       {"unsigned short", "ushort", 4, 8},
    {"int", "int", 8, 16},          {"unsigned int", "uint", 8, 16},
    {"long", "long", 16, 16},       {"unsigned long", "ulong", 16, 16},
    {"long long", "longlong", 16, 16}, {"unsigned long long", "ulonglong", 16, 16},
    {"float", "float", 8, 16},      {"double", "double", 16, 16},
};

/* Generic ones, and the op numbers the emulator uses (its warp.h, atomics). */
static const struct {
    const char *name;
    uint8_t generic, coll, op;
} generics[] = {
    {"fma", LAT_G_MATH3, 0, 0},
    {"abs", LAT_G_ABS, 0, 0},
    {"min", LAT_G_MINMAX, 0, 0},
    {"max", LAT_G_MINMAX, 0, 1},
    {"atomicAdd", LAT_G_ATOMIC, LAT_COLL_ATOMIC, 'a'},
    {"atomicSub", LAT_G_ATOMIC, LAT_COLL_ATOMIC, 's'},
    {"atomicExch", LAT_G_ATOMIC, LAT_COLL_ATOMIC | LAT_COLL_SPIN, 'x'},
    {"atomicMin", LAT_G_ATOMIC, LAT_COLL_ATOMIC, 'm'},
    {"atomicMax", LAT_G_ATOMIC, LAT_COLL_ATOMIC, 'M'},
    {"atomicAnd", LAT_G_ATOMIC, LAT_COLL_ATOMIC, '&'},
    {"atomicOr", LAT_G_ATOMIC, LAT_COLL_ATOMIC, '|'},
    {"atomicXor", LAT_G_ATOMIC, LAT_COLL_ATOMIC, '^'},
    {"atomicCAS", LAT_G_ATOMIC_CAS, LAT_COLL_ATOMIC | LAT_COLL_SPIN, 'c'},
    {"__shfl_sync", LAT_G_SHFL, LAT_COLL_WARP, 0},
    {"__shfl_up_sync", LAT_G_SHFL, LAT_COLL_WARP, 1},
    {"__shfl_down_sync", LAT_G_SHFL, LAT_COLL_WARP, 2},
    {"__shfl_xor_sync", LAT_G_SHFL, LAT_COLL_WARP, 3},
    {"__match_any_sync", LAT_G_MATCH_ANY, LAT_COLL_WARP, 8},
    {"__match_all_sync", LAT_G_MATCH_ALL, LAT_COLL_WARP, 9},
    {"__reduce_min_sync", LAT_G_REDUCE_MINMAX, LAT_COLL_WARP, 11},
    {"__reduce_max_sync", LAT_G_REDUCE_MINMAX, LAT_COLL_WARP, 12},
    {"__syncwarp", LAT_G_SYNCWARP, LAT_COLL_WARP, 7},
    /* The lockstep of warp-synchronous code (the emulator's lockstep pass): a __syncwarp of the
     * active lanes after a value is made, or after a store. Only the pass writes them. */
    {"__lat_ls", LAT_G_LOCKSTEP, LAT_COLL_WARP, 7},
    {"__lat_ls_end", LAT_G_LOCKSTEP, LAT_COLL_WARP, 7},
};

/* The _block and _system atomics: the same functions (a block or the system is as atomic
 * as the device on a CPU). */
static const char *const atomic_scopes[] = {"atomicAdd", "atomicSub", "atomicExch", "atomicMin",
                                            "atomicMax", "atomicAnd", "atomicOr", "atomicXor",
                                            "atomicCAS", "atomicInc", "atomicDec"};

/* Collective behaviour of fixed-signature names. */
static const struct {
    const char *name;
    uint8_t coll, op;
} colls[] = {
    {"__syncthreads", LAT_COLL_BARRIER, 0},
    {"__syncthreads_count", LAT_COLL_BARRIER | LAT_COLL_BVOTE, 1},
    {"__syncthreads_and", LAT_COLL_BARRIER | LAT_COLL_BVOTE, 2},
    {"__syncthreads_or", LAT_COLL_BARRIER | LAT_COLL_BVOTE, 3},
    {"__lat_grid_sync", LAT_COLL_BARRIER | LAT_COLL_GRID, 4},
    {"__activemask", LAT_COLL_ACTIVEMASK, 18},
    {"__ballot_sync", LAT_COLL_WARP, 4},
    {"__any_sync", LAT_COLL_WARP, 5},
    {"__all_sync", LAT_COLL_WARP, 6},
    {"__reduce_add_sync", LAT_COLL_WARP, 10},
    {"__reduce_and_sync", LAT_COLL_WARP, 15},
    {"__reduce_or_sync", LAT_COLL_WARP, 16},
    {"__reduce_xor_sync", LAT_COLL_WARP, 17},
    {"__threadfence", LAT_COLL_FENCE, 0},
    {"__threadfence_block", LAT_COLL_FENCE, 0},
    {"__threadfence_system", LAT_COLL_FENCE, 0},
    {"atomicInc", LAT_COLL_ATOMIC, 'i'},
    {"atomicDec", LAT_COLL_ATOMIC, 'd'},
};

/* The table, built once. */
static lat__builtin *table;
static int ntable;
static int *hash; /* indices + 1, open addressing */
static int hash_cap;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static uint32_t hash_of(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static char *dupf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *dupf(const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return strdup(buf);
}

static char *name_of_decl(const char *decl)
{
    /* The declared name: the identifier before the first '(' or the last one before ';'. */
    const char *paren = strchr(decl, '(');
    const char *end = paren ? paren : strrchr(decl, ';');
    if (!paren && strncmp(decl, "typedef struct", 14) == 0)
        end = strrchr(decl, ';');
    const char *b = end;
    while (b > decl && b[-1] == ' ')
        b--;
    const char *e = b;
    while (b > decl && (b[-1] == '_' || (b[-1] >= 'a' && b[-1] <= 'z') ||
                        (b[-1] >= 'A' && b[-1] <= 'Z') || (b[-1] >= '0' && b[-1] <= '9')))
        b--;
    return strndup(b, (size_t)(e - b));
}

static void add(const char *name, const char *decl, uint8_t generic, uint8_t coll, uint8_t op,
                uint16_t sym_flags)
{
    static int cap;
    if (ntable == cap) {
        cap = cap ? cap * 2 : 512;
        lat__builtin *p = lat__realloc(table, (size_t)cap * sizeof *p);
        if (!p)
            abort(); /* at start-up, a few kilobytes */
        table = p;
    }
    table[ntable++] = (lat__builtin){name, decl, generic, coll, op, sym_flags};
}

static void build(void)
{
    for (size_t i = 0; i < sizeof decls / sizeof decls[0]; i++) {
        uint16_t flags = 0;
        char *name = name_of_decl(decls[i]);
        if (strcmp(name, "threadIdx") == 0)
            flags = LAT_SF_THREAD_VARYING;
        else if (strcmp(name, "blockIdx") == 0 || strcmp(name, "blockDim") == 0 ||
                 strcmp(name, "gridDim") == 0)
            flags = LAT_SF_BLOCK_UNIFORM;
        uint8_t coll = 0, op = 0;
        for (size_t k = 0; k < sizeof colls / sizeof colls[0]; k++)
            if (strcmp(colls[k].name, name) == 0) {
                coll = colls[k].coll;
                op = colls[k].op;
            }
        add(name, decls[i], 0, coll, op, flags);
    }
    for (size_t i = 0; i < sizeof math1 / sizeof math1[0]; i++) {
        add(math1[i], NULL, LAT_G_MATH1, 0, 0, 0);
        add(dupf("%sf", math1[i]), dupf("float %sf(float x);", math1[i]), 0, 0, 0, 0);
    }
    for (size_t i = 0; i < sizeof math2 / sizeof math2[0]; i++) {
        add(math2[i], NULL, LAT_G_MATH2, 0, 0, 0);
        add(dupf("%sf", math2[i]), dupf("float %sf(float x, float y);", math2[i]), 0, 0, 0, 0);
    }
    for (size_t i = 0; i < sizeof math_exp / sizeof math_exp[0]; i++)
        add(math_exp[i], NULL, LAT_G_MATH_EXP, 0, 0, 0);
    for (size_t i = 0; i < sizeof classify / sizeof classify[0]; i++)
        add(classify[i], NULL, LAT_G_CLASSIFY, 0, 0, 0);
    for (size_t i = 0; i < sizeof generics / sizeof generics[0]; i++)
        add(generics[i].name, NULL, generics[i].generic, generics[i].coll, generics[i].op, 0);
    for (size_t i = 0; i < sizeof atomic_scopes / sizeof atomic_scopes[0]; i++) {
        const lat__builtin *base = NULL;
        for (int k = 0; k < ntable; k++)
            if (strcmp(table[k].name, atomic_scopes[i]) == 0)
                base = &table[k];
        if (!base)
            abort();
        lat__builtin b = *base;
        for (int scope = 0; scope < 2; scope++) {
            const char *suffix = scope ? "_system" : "_block";
            char *decl = NULL;
            if (b.decl) { /* atomicInc/Dec: the same signature under the new name */
                char buf[160];
                snprintf(buf, sizeof buf, "unsigned int %s%s(unsigned int *p, unsigned int v);",
                         atomic_scopes[i], suffix);
                decl = strdup(buf);
            }
            add(dupf("%s%s", atomic_scopes[i], suffix), decl, b.generic, b.coll, b.op, 0);
        }
    }
    for (size_t i = 0; i < sizeof rounded / sizeof rounded[0]; i++)
        for (int m = 0; m < 4; m++) {
            char *name = dupf("%s_%s", rounded[i].name, modes[m]);
            char decl[160];
            snprintf(decl, sizeof decl, rounded[i].sig, name);
            add(name, strdup(decl), 0, 0, 0, 0);
        }
    /* cudaSurfaceBoundaryMode's constants: one declaration binds the three. */
    static const char *const boundary[] = {"cudaBoundaryModeZero", "cudaBoundaryModeClamp",
                                           "cudaBoundaryModeTrap"};
    for (size_t i = 0; i < sizeof boundary / sizeof boundary[0]; i++)
        add(boundary[i],
            "enum cudaSurfaceBoundaryMode { cudaBoundaryModeZero = 0, cudaBoundaryModeClamp = 1, "
            "cudaBoundaryModeTrap = 2 };",
            0, 0, 0, 0);
    add(rn_only[0], "double __int2double_rn(int a);", 0, 0, 0, 0);
    add(rn_only[1], "double __uint2double_rn(unsigned int a);", 0, 0, 0, 0);
    static const char *const fields[] = {"", "x", "x, y", "x, y, z", "x, y, z, w"};
    static const char *const params[] = {"", "%s x", "%s x, %s y", "%s x, %s y, %s z",
                                         "%s x, %s y, %s z, %s w"};
    for (size_t i = 0; i < (size_t)LAT_VECTOR_KINDS; i++)
        for (int k = 1; k <= 4; k++) {
            const char *e = lat__vector_kinds[i].elem, *s = lat__vector_kinds[i].stem;
            if (strcmp(s, "uint") == 0 && k == 3)
                continue; /* uint3 is declared with dim3 above */
            int align = k == 2 ? lat__vector_kinds[i].align2 : k == 4 ? lat__vector_kinds[i].align4 : 0;
            char attr[48] = "";
            if (align)
                snprintf(attr, sizeof attr, "__attribute__((aligned(%d))) ", align);
            add(dupf("%s%d", s, k),
                dupf("typedef struct %s%s%d { %s %s; } %s%d;", attr, s, k, e, fields[k], s, k),
                0, 0, 0, 0);
            char ps[160];
            snprintf(ps, sizeof ps, params[k], e, e, e, e);
            add(dupf("make_%s%d", s, k), dupf("%s%d make_%s%d(%s);", s, k, s, k, ps), 0, 0, 0, 0);
        }
    hash_cap = 4096;
    while (hash_cap < ntable * 2)
        hash_cap *= 2;
    hash = lat__calloc((size_t)hash_cap, sizeof *hash);
    if (!hash)
        abort();
    for (int i = 0; i < ntable; i++) {
        size_t j = hash_of(table[i].name, strlen(table[i].name)) & (size_t)(hash_cap - 1);
        while (hash[j])
            j = (j + 1) & (size_t)(hash_cap - 1);
        hash[j] = i + 1;
    }
}

const lat__builtin *lat__builtin_find(const char *name, size_t len)
{
    pthread_once(&once, build);
    for (size_t j = hash_of(name, len) & (size_t)(hash_cap - 1);; j = (j + 1) & (size_t)(hash_cap - 1)) {
        int k = hash[j];
        if (!k)
            return NULL;
        const lat__builtin *b = &table[k - 1];
        if (strlen(b->name) == len && memcmp(b->name, name, len) == 0)
            return b;
    }
}

int lat__builtin_id(const lat__builtin *b)
{
    return (int)(b - table) + 1;
}

const lat__builtin *lat__builtin_get(int id)
{
    pthread_once(&once, build);
    return id >= 1 && id <= ntable ? &table[id - 1] : NULL;
}

bool lat__builtin_ordered(const lat__builtin *b)
{
    static const char *const names[] = {"printf", "vprintf", "malloc", "free", "__trap", "__brkpt",
                                        "__assert_fail", "__assertfail", "assert", "__lat_trap"};
    if (b->coll)
        return true;
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(b->name, names[i]) == 0)
            return true;
    return false;
}

bool lat__builtin_reserved(const char *name, size_t len)
{
    if (lat__builtin_find(name, len))
        return true;
    /* The prelude's own helpers and macros all start with __lat or __LAT; the names of
     * the C library it declares are in the table. TinyCC predefines a few plain words. */
    static const char *const extra[] = {"linux", "unix", "i386", "lat_emu_thread", "NULL",
                                        "bool", "true", "false", "nullptr", "static_assert",
                                        "offsetof", "assert", "warpSize", "restrict"};
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
        if (strlen(extra[i]) == len && memcmp(extra[i], name, len) == 0)
            return true;
    return len >= 5 && (memcmp(name, "__lat", 5) == 0 || memcmp(name, "__LAT", 5) == 0);
}

/* ---- typing the generic ones ------------------------------------------------------------ */

static lat__type *rvalue_type(lat__expr *e)
{
    return e->type;
}

static bool is_float(const lat__type *t)
{
    return t->kind == LAT_TY_FLOAT;
}

lat__type *lat__builtin_call_type(lat__unit *u, const lat__builtin *b, lat__expr **args,
                                  int nargs, const char **why)
{
    static const int arity[] = {
        [LAT_G_MATH1] = 1, [LAT_G_MATH2] = 2, [LAT_G_MATH3] = 3, [LAT_G_MATH_EXP] = 2,
        [LAT_G_ABS] = 1, [LAT_G_MINMAX] = 2, [LAT_G_CLASSIFY] = 1, [LAT_G_ATOMIC] = 2,
        [LAT_G_ATOMIC_CAS] = 3, [LAT_G_SHFL] = -3, [LAT_G_MATCH_ANY] = 2, [LAT_G_LOCKSTEP] = 1,
        [LAT_G_MATCH_ALL] = 3, [LAT_G_REDUCE_MINMAX] = 2, [LAT_G_SYNCWARP] = -1,
    };
    int want = arity[b->generic];
    bool ok = want >= 0 ? nargs == want
              : b->generic == LAT_G_SHFL ? nargs == 3 || nargs == 4
                                          : nargs == 0 || nargs == 1;
    if (!ok) {
        *why = lat__arena_printf(&u->arena, "'%s' takes %s arguments, not %d", b->name,
                                 b->generic == LAT_G_SHFL ? "3 or 4"
                                 : b->generic == LAT_G_SYNCWARP ? "0 or 1"
                                 : want == 1 ? "1" : want == 2 ? "2" : "3",
                                 nargs);
        return NULL;
    }
    for (int i = 0; i < nargs; i++) {
        lat__type *t = rvalue_type(args[i]);
        bool need_arith = !(b->generic == LAT_G_ATOMIC || b->generic == LAT_G_ATOMIC_CAS ||
                            (b->generic == LAT_G_MATCH_ALL && i == 2));
        if (need_arith && !lat__is_arith(t) && !(b->generic == LAT_G_SHFL && i == 1)) {
            *why = lat__arena_printf(&u->arena, "argument %d of '%s' is %s, not a number", i + 1,
                                     b->name, lat__type_str(u, t, NULL, false));
            return NULL;
        }
    }
    switch (b->generic) {
    case LAT_G_MATH1:
    case LAT_G_MATH_EXP:
        return is_float(rvalue_type(args[0])) ? &lat__ty_float : &lat__ty_double;
    case LAT_G_MATH2:
        return is_float(lat__usual_arith(rvalue_type(args[0]), rvalue_type(args[1])))
                   ? &lat__ty_float : &lat__ty_double;
    case LAT_G_MATH3: {
        lat__type *t = lat__usual_arith(lat__usual_arith(rvalue_type(args[0]), rvalue_type(args[1])),
                                        rvalue_type(args[2]));
        return is_float(t) ? &lat__ty_float : &lat__ty_double;
    }
    case LAT_G_ABS: {
        lat__type *t = lat__promote(rvalue_type(args[0]));
        switch (t->kind) {
        case LAT_TY_LONG: case LAT_TY_LLONG: case LAT_TY_FLOAT: case LAT_TY_DOUBLE:
            return lat__basic((lat__tykind)t->kind);
        case LAT_TY_ULONG: return &lat__ty_long;
        case LAT_TY_ULLONG: return &lat__ty_llong;
        default: return &lat__ty_int;
        }
    }
    case LAT_G_MINMAX: {
        lat__type *t = lat__usual_arith(rvalue_type(args[0]), rvalue_type(args[1]));
        return t->kind == LAT_TY_LDOUBLE ? &lat__ty_double : t;
    }
    case LAT_G_CLASSIFY:
        return &lat__ty_int;
    case LAT_G_ATOMIC:
    case LAT_G_ATOMIC_CAS: {
        lat__type *p = rvalue_type(args[0]);
        if (p->kind != LAT_TY_PTR) {
            *why = lat__arena_printf(&u->arena, "the first argument of '%s' is %s, not a pointer",
                                     b->name, lat__type_str(u, p, NULL, false));
            return NULL;
        }
        lat__type *t = p->base;
        lat__tykind k = t->kind == LAT_TY_ENUM ? LAT_TY_INT : (lat__tykind)t->kind;
        bool fits;
        switch (k) {
        case LAT_TY_INT: case LAT_TY_UINT: case LAT_TY_LONG: case LAT_TY_ULONG:
        case LAT_TY_LLONG: case LAT_TY_ULLONG:
            fits = true;
            break;
        case LAT_TY_FLOAT: case LAT_TY_DOUBLE:
            fits = b->op == 'a' || b->op == 'x';
            break;
        case LAT_TY_USHORT:
            fits = b->op == 'c';
            break;
        default:
            fits = false;
        }
        if (!fits) {
            *why = lat__arena_printf(&u->arena, "'%s' has no overload for '%s'", b->name,
                                     lat__type_str(u, p, NULL, false));
            return NULL;
        }
        return lat__unqualified(u, t);
    }
    case LAT_G_SHFL: {
        lat__type *t = rvalue_type(args[1]);
        if (!lat__is_arith(t) || t->kind == LAT_TY_LDOUBLE) {
            *why = lat__arena_printf(&u->arena, "'%s' exchanges numbers of up to 64 bits, not %s",
                                     b->name, lat__type_str(u, t, NULL, false));
            return NULL;
        }
        return lat__promote(t)->kind == LAT_TY_INT && t->kind != LAT_TY_INT && lat__is_integer(t)
                   ? &lat__ty_int
                   : lat__unqualified(u, t);
    }
    case LAT_G_MATCH_ANY:
    case LAT_G_MATCH_ALL:
        if (b->generic == LAT_G_MATCH_ALL) {
            lat__type *p = rvalue_type(args[2]);
            if (p->kind != LAT_TY_PTR || lat__unqualified(u, p->base)->kind != LAT_TY_INT) {
                *why = lat__arena_printf(&u->arena, "the third argument of '%s' is %s, not int *",
                                         b->name, lat__type_str(u, p, NULL, false));
                return NULL;
            }
        }
        return &lat__ty_uint;
    case LAT_G_REDUCE_MINMAX:
        return lat__promote(rvalue_type(args[1]))->kind == LAT_TY_INT ? &lat__ty_int : &lat__ty_uint;
    case LAT_G_SYNCWARP:
        return &lat__ty_void;
    case LAT_G_LOCKSTEP:
        return nargs == 1 && strcmp(b->name, "__lat_ls") == 0 ? lat__unqualified(u, rvalue_type(args[0])) : &lat__ty_void;
    default:
        *why = "an unknown built-in";
        return NULL;
    }
}
