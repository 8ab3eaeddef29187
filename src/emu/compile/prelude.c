/*
 * The prelude: C source compiled in front of every translated kernel. It stands in for
 * the system and CUDA headers a kernel may include (TinyCC takes ~2 ms to include real
 * ones), and defines the CUDA built-ins: the index variables as reads through the hidden
 * thread context, the vector types, the math library with CUDA's float overloads, min
 * and max. Functions it declares are bound to host code in runtime.c.
 *
 * It is kept as lines (ISO C bounds a string literal's length) and joined once.
 */
#include "prelude.h"
#include "core/alloc.h"

#include "emu/runtime/abi.h"
#include "front/builtins.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Stand for the vector types and the rounding-mode intrinsics in lines[]. */
static const char VECTORS[] = "";
static const char ROUNDING[] = "";
/* Open and close the optional parts of lines[]: only a program that names something of
 * a part gets it (the prelude is most of a small module's compile time). */
static const char SEC_SYNC[] = "";
static const char SEC_ATOMICS[] = "";
static const char SEC_INTRINSICS[] = "";
static const char SEC_ARITH[] = "";
static const char SEC_END[] = "";

static const char *const lines[] = {
    "#define __CUDACC__ 1",
    "#define __CUDACC_RTC__ 1",
    "#define __LATTICE_EMU__ 1",
    "#define __CUDA_ARCH__ " LAT_EMU_XSTR(LAT_EMU_CUDA_ARCH),
    /* The CUDA version whose semantics the emulator follows (the _sync intrinsics). */
    "#define __CUDACC_VER_MAJOR__ 12",
    "#define __CUDACC_VER_MINOR__ 0",
    "#define __CUDACC_VER_BUILD__ 0",
    /* Types. */
    "typedef signed char int8_t; typedef unsigned char uint8_t;",
    "typedef short int16_t; typedef unsigned short uint16_t;",
    "typedef int int32_t; typedef unsigned int uint32_t;",
    "typedef long int64_t; typedef unsigned long uint64_t;",
    "typedef unsigned long size_t; typedef long ptrdiff_t; typedef long ssize_t; typedef long clock_t;",
    "typedef long intptr_t; typedef unsigned long uintptr_t;",
    "typedef long intmax_t; typedef unsigned long uintmax_t;",
    "typedef unsigned long long cudaTextureObject_t;",
    "typedef unsigned long long cudaSurfaceObject_t;",
    "#define NULL ((void *)0)",
    "#define nullptr ((void *)0)",
    "#define bool _Bool",
    "#define true 1",
    "#define false 0",
    "#define __bool_true_false_are_defined 1",
    "#define static_assert _Static_assert",
    "#define offsetof(t, m) ((size_t)&((t *)0)->m)",
    /* Qualifiers that mean nothing here. */
    "#define __forceinline__",
    "#define __noinline__",
    "#define __inline__ inline",
    "#define __align__(n) __attribute__((aligned(n)))",
    "#define __builtin_align__(n) __attribute__((aligned(n)))",
    "#define __ldg(p) (*(p))",
    "#define __restrict__ restrict",
    "#define __restrict restrict",
    "#define __host__",
    "#define __global__",
    "#define __device__",
    "#define __launch_bounds__(...)",
    "#define __device_builtin__",
    "#define CUDART_CB",
    /* limits.h, stdint.h. */
    "#define CHAR_BIT 8",
    "#define SCHAR_MIN (-128)",
    "#define SCHAR_MAX 127",
    "#define UCHAR_MAX 255",
    "#define CHAR_MIN SCHAR_MIN",
    "#define CHAR_MAX SCHAR_MAX",
    "#define SHRT_MIN (-32768)",
    "#define SHRT_MAX 32767",
    "#define USHRT_MAX 65535",
    "#define INT_MIN (-INT_MAX - 1)",
    "#define INT_MAX 2147483647",
    "#define UINT_MAX 4294967295U",
    "#define LONG_MIN (-LONG_MAX - 1L)",
    "#define LONG_MAX 9223372036854775807L",
    "#define ULONG_MAX 18446744073709551615UL",
    "#define LLONG_MIN (-LLONG_MAX - 1LL)",
    "#define LLONG_MAX 9223372036854775807LL",
    "#define ULLONG_MAX 18446744073709551615ULL",
    "#define INT8_MIN (-128)",
    "#define INT8_MAX 127",
    "#define UINT8_MAX 255",
    "#define INT16_MIN (-32768)",
    "#define INT16_MAX 32767",
    "#define UINT16_MAX 65535",
    "#define INT32_MIN (-INT32_MAX - 1)",
    "#define INT32_MAX 2147483647",
    "#define UINT32_MAX 4294967295U",
    "#define INT64_MIN (-INT64_MAX - 1L)",
    "#define INT64_MAX 9223372036854775807L",
    "#define UINT64_MAX 18446744073709551615UL",
    "#define SIZE_MAX UINT64_MAX",
    "#define INTPTR_MAX INT64_MAX",
    "#define UINTPTR_MAX UINT64_MAX",
    "#define INT8_C(c) c",
    "#define INT16_C(c) c",
    "#define INT32_C(c) c",
    "#define INT64_C(c) c ## L",
    "#define UINT8_C(c) c",
    "#define UINT16_C(c) c",
    "#define UINT32_C(c) c ## U",
    "#define UINT64_C(c) c ## UL",
    /* float.h, math.h constants. */
    "#define FLT_RADIX 2",
    "#define FLT_MANT_DIG 24",
    "#define DBL_MANT_DIG 53",
    "#define FLT_DIG 6",
    "#define DBL_DIG 15",
    "#define FLT_MAX 3.40282346638528859812e+38F",
    "#define FLT_MIN 1.17549435082228750797e-38F",
    "#define FLT_EPSILON 1.1920928955078125e-07F",
    "#define DBL_MAX 1.79769313486231570815e+308",
    "#define DBL_MIN 2.22507385850720138309e-308",
    "#define DBL_EPSILON 2.22044604925031308085e-16",
    "#define INFINITY (1.0f / 0.0f)",
    "#define NAN (-(0.0f / 0.0f))",
    "#define HUGE_VALF INFINITY",
    "#define HUGE_VAL (1.0 / 0.0)",
    "#define M_E 2.7182818284590452354",
    "#define M_LOG2E 1.4426950408889634074",
    "#define M_LOG10E 0.43429448190325182765",
    "#define M_LN2 0.69314718055994530942",
    "#define M_LN10 2.30258509299404568402",
    "#define M_PI 3.14159265358979323846",
    "#define M_PI_2 1.57079632679489661923",
    "#define M_PI_4 0.78539816339744830962",
    "#define M_1_PI 0.31830988618379067154",
    "#define M_2_PI 0.63661977236758134308",
    "#define M_2_SQRTPI 1.12837916709551257390",
    "#define M_SQRT2 1.41421356237309504880",
    "#define M_SQRT1_2 0.70710678118654752440",
    /* math_constants.h. */
    "#define CUDART_PI_F 3.141592654f",
    "#define CUDART_PI 3.1415926535897931e+0",
    "#define CUDART_PIO2_F 1.570796327f",
    "#define CUDART_PIO2 1.5707963267948966e+0",
    "#define CUDART_2_OVER_PI_F 0.636619772f",
    "#define CUDART_SQRT_HALF_F 0.707106781f",
    "#define CUDART_SQRT_TWO_F 1.414213562f",
    "#define CUDART_L2E_F 1.442695041f",
    "#define CUDART_LN2_F 0.693147181f",
    "#define CUDART_LN2 6.9314718055994529e-1",
    "#define CUDART_ZERO_F 0.0f",
    "#define CUDART_ONE_F 1.0f",
    "#define CUDART_INF_F INFINITY",
    "#define CUDART_NAN_F NAN",
    "#define CUDART_INF HUGE_VAL",
    "#define CUDART_NAN (-(0.0 / 0.0))",
    "#define CUDART_MAX_NORMAL_F FLT_MAX",
    "#define CUDART_MIN_DENORM_F 1.40129846e-45f",
    /* The index variables: reads through the hidden per-thread context. */
    "typedef struct uint3 { unsigned int x, y, z; } uint3;",
    "typedef uint3 dim3;",
    "typedef " LAT_EMU_XSTR(LAT_EMU_THREAD_STRUCT(uint3)) " lat_emu_thread;",
    "#define threadIdx (__lat_t->thread_idx)",
    /* A stretch's loop over the threads: its iterations are threads between two barriers,
     * which a race-free kernel never makes depend on each other, so the optimiser need not
     * check that their accesses do not overlap (gcc's checks and epilogues per row of
     * threads cost the tiled matrix product 1.7x on the H100 host). */
    "#if defined(__clang__)",
    "#define __LAT_IVDEP _Pragma(\"clang loop vectorize(assume_safety)\")",
    "#elif defined(__GNUC__) && !defined(__TINYC__)",
    "#define __LAT_IVDEP _Pragma(\"GCC ivdep\")",
    "#else",
    "#define __LAT_IVDEP",
    "#endif",
    /* A kernel's copy for the blocks whose global x index leaves int (lower.c), which no
     * grid of fewer than 2^31 threads in x has: compiled for its compile time, not speed. */
    "#if defined(__clang__)",
    "#define __LAT_WIDE __attribute__((noinline, cold, optnone))",
    "#elif defined(__GNUC__) && !defined(__TINYC__)",
    "#define __LAT_WIDE __attribute__((noinline, cold, optimize(\"O0\")))",
    "#else",
    "#define __LAT_WIDE",
    "#endif",
    /* A map kernel's line of stores written whole, without the read of the line an
     * ordinary store makes first (passes/stream.c): x86-64 under gcc or clang. opt.c
     * defines __LAT_STREAM_BYTES as the last-level cache's size. */
    "#if defined(__x86_64__) && defined(__GNUC__) && !defined(__TINYC__)",
    "#define __LAT_STREAM 1",
    "#ifndef __LAT_STREAM_BYTES",
    "#define __LAT_STREAM_BYTES (32ull << 20)",
    "#endif",
    "typedef float __lat_nt4 __attribute__((vector_size(16)));",
    "static inline __attribute__((always_inline)) void __lat_stream_line(void *__p, const void *__v)",
    "{",
    "    __lat_nt4 __q[4];",
    "    __builtin_memcpy(__q, __v, 64);",
    "#ifdef __clang__",
    "    for (int __k = 0; __k < 4; __k++) __builtin_nontemporal_store(__q[__k], (__lat_nt4 *)__p + __k);",
    "#else",
    "    for (int __k = 0; __k < 4; __k++) __builtin_ia32_movntps((float *)__p + 4 * __k, __q[__k]);",
    "#endif",
    "}",
    "#endif",
    "#define blockIdx (__lat_t->block_idx)",
    "#define blockDim (__lat_t->block_dim)",
    "#define gridDim (__lat_t->grid_dim)",
    "#define warpSize 32",
    /* __constant__ and __device__ variables are the module's globals. */
    "#define __constant__",
    SEC_SYNC,
    /* Barriers and warp operations, as fiber kernels run them (block.c); region loops
     * never reach these: passes/region_gen.c writes their calls as stretches. */
    "int __lat_bar(lat_emu_thread *, int, int, const char *, int);",
    "unsigned long long __lat_warp(lat_emu_thread *, int, unsigned, unsigned long long, int, int, const char *, int);",
    "int __lat_match_all(lat_emu_thread *, unsigned, unsigned long long, int *, const char *, int);",
    "unsigned __lat_activemask(lat_emu_thread *);",
    "void *__lat_scratch(lat_emu_thread *, unsigned long);",
    /* Region loops (passes/region_gen.c). */
    "unsigned long long __lat_rvote(const unsigned long long *, const int *, unsigned, int, unsigned);",
    "unsigned __lat_rmatch_all(const unsigned long long *, const int *, unsigned, unsigned, int *);",
    "int __lat_bvote(const unsigned long long *, const int *, unsigned, int);",
    "unsigned long long __lat_rwarp(const unsigned long long *, const int *, unsigned, int, unsigned, int, int, int *);",
    "void __lat_converged(lat_emu_thread *, const int *, unsigned, const char *, int);",
    "static inline int __lat_active(const int *sk, unsigned n) { unsigned i; for (i = 0; i < n; i++) if (!sk[i]) return 1; return 0; }",
    "#define __syncthreads() ((void)__lat_bar(__lat_t, 0, 0, __FILE__, __LINE__))",
    "#define __syncthreads_count(p) __lat_bar(__lat_t, 1, (p) != 0, __FILE__, __LINE__)",
    "#define __syncthreads_and(p) __lat_bar(__lat_t, 2, (p) != 0, __FILE__, __LINE__)",
    "#define __syncthreads_or(p) __lat_bar(__lat_t, 3, (p) != 0, __FILE__, __LINE__)",
    /* The grid barrier of a cooperative launch: a block barrier (kind 4) whose release
     * waits for every block of the grid (exec/coop.c). */
    "#define __lat_grid_sync() ((void)__lat_grid_bar(__lat_t, __FILE__, __LINE__))",
    "int __lat_grid_bar(lat_emu_thread *, const char *, int);",
    "static inline unsigned long long __lat_fbits(float f) { union { float f; unsigned u; } x; x.f = f; return x.u; }",
    "static inline unsigned long long __lat_dbits(double d) { union { double d; unsigned long long u; } x; x.d = d; return x.u; }",
    "static inline float __lat_asf(unsigned long long b) { union { float f; unsigned u; } x; x.u = (unsigned)b; return x.f; }",
    "static inline double __lat_asd(unsigned long long b) { union { double d; unsigned long long u; } x; x.u = b; return x.d; }",
    "static inline unsigned __lat_m0(unsigned m) { return m ? m : 0xffffffffu; }",
    "#define __LAT_BITS(v) _Generic((v), float: __lat_fbits(v), double: __lat_dbits(v), default: (unsigned long long)(v))",
    "#define __LAT_AS(v, r) _Generic((v), float: __lat_asf(r), double: __lat_asd(r), default: (__typeof__(v))(r))",
    "#define __LAT_A1(a, ...) a",
    "#define __LAT_A2(a, w, ...) w",
    "#define __LAT_WOP(op, m, v, a, w) __LAT_AS(v, __lat_warp(__lat_t, op, (m), __LAT_BITS(v), (a), (w), __FILE__, __LINE__))",
    "#define __shfl_sync(m, v, ...) __LAT_WOP(0, m, v, __LAT_A1(__VA_ARGS__, 0), __LAT_A2(__VA_ARGS__, 32, 0))",
    "#define __shfl_up_sync(m, v, ...) __LAT_WOP(1, m, v, __LAT_A1(__VA_ARGS__, 0), __LAT_A2(__VA_ARGS__, 32, 0))",
    "#define __shfl_down_sync(m, v, ...) __LAT_WOP(2, m, v, __LAT_A1(__VA_ARGS__, 0), __LAT_A2(__VA_ARGS__, 32, 0))",
    "#define __shfl_xor_sync(m, v, ...) __LAT_WOP(3, m, v, __LAT_A1(__VA_ARGS__, 0), __LAT_A2(__VA_ARGS__, 32, 0))",
    "#define __LAT_WPRED(op, m, p) __lat_warp(__lat_t, op, (m), (p) != 0, 0, 32, __FILE__, __LINE__)",
    "#define __ballot_sync(m, p) ((unsigned)__LAT_WPRED(4, m, p))",
    "#define __any_sync(m, p) ((int)__LAT_WPRED(5, m, p))",
    "#define __all_sync(m, p) ((int)__LAT_WPRED(6, m, p))",
    "#define __syncwarp(...) ((void)__lat_warp(__lat_t, 7, __lat_m0(__VA_ARGS__ + 0), 0, 0, 32, __FILE__, __LINE__))",
    /* Warp-synchronous code's lockstep (passes/lockstep.c). */
    "#define __lat_ls(v) ({ __typeof__(v) __lat_lsv = (v); __syncwarp(__activemask()); __lat_lsv; })",
    "#define __lat_ls_end(v) ((void)(v), __syncwarp(__activemask()))",
    "#define __activemask() __lat_activemask(__lat_t)",
    "#define __match_any_sync(m, v) ((unsigned)__lat_warp(__lat_t, 8, (m), __LAT_BITS(v), 0, 32, __FILE__, __LINE__))",
    "#define __match_all_sync(m, v, p) ((unsigned)__lat_match_all(__lat_t, (m), __LAT_BITS(v), (p), __FILE__, __LINE__))",
    "#define __LAT_WRED(op, m, v) __lat_warp(__lat_t, op, (m), (unsigned long long)(unsigned)(v), 0, 32, __FILE__, __LINE__)",
    "#define __reduce_add_sync(m, v) ((unsigned)__LAT_WRED(10, m, v))",
    "#define __reduce_min_sync(m, v) _Generic((v), int: (int)__LAT_WRED(11, m, v), default: (unsigned)__LAT_WRED(13, m, v))",
    "#define __reduce_max_sync(m, v) _Generic((v), int: (int)__LAT_WRED(12, m, v), default: (unsigned)__LAT_WRED(14, m, v))",
    "#define __reduce_and_sync(m, v) ((unsigned)__LAT_WRED(15, m, v))",
    "#define __reduce_or_sync(m, v) ((unsigned)__LAT_WRED(16, m, v))",
    "#define __reduce_xor_sync(m, v) ((unsigned)__LAT_WRED(17, m, v))",
    SEC_END,
    SEC_ATOMICS,
    /* Atomics (atomics.c), picked by the pointer's type as CUDA's overloads are. */
    "#define __LAT_ATOMIC_DECL(s, T) T __lat_atomic_add_##s(T *, T); T __lat_atomic_sub_##s(T *, T); \\",
    "  T __lat_atomic_exch_##s(T *, T); T __lat_atomic_and_##s(T *, T); T __lat_atomic_or_##s(T *, T); \\",
    "  T __lat_atomic_xor_##s(T *, T); T __lat_atomic_cas_##s(T *, T, T); T __lat_atomic_min_##s(T *, T); \\",
    "  T __lat_atomic_max_##s(T *, T);",
    "__LAT_ATOMIC_DECL(i, int) __LAT_ATOMIC_DECL(u, unsigned) __LAT_ATOMIC_DECL(ull, unsigned long long)",
    "__LAT_ATOMIC_DECL(ll, long long)",
    "float __lat_atomic_add_f(float *, float); double __lat_atomic_add_d(double *, double);",
    "float __lat_atomic_exch_f(float *, float); double __lat_atomic_exch_d(double *, double);",
    "unsigned __lat_atomic_inc_u(unsigned *, unsigned); unsigned __lat_atomic_dec_u(unsigned *, unsigned);",
    "unsigned short __lat_atomic_cas_us(unsigned short *, unsigned short, unsigned short);",
    "void __lat_fence(void);",
    "#define __LAT_AT(op, p) _Generic((p), int *: __lat_atomic_##op##_i, unsigned *: __lat_atomic_##op##_u, \\",
    "  unsigned long long *: __lat_atomic_##op##_ull, unsigned long *: __lat_atomic_##op##_ull, \\",
    "  long long *: __lat_atomic_##op##_ll, long *: __lat_atomic_##op##_ll",
    "#define atomicAdd(p, v) __LAT_AT(add, p), float *: __lat_atomic_add_f, double *: __lat_atomic_add_d)((p), (v))",
    "#define atomicSub(p, v) __LAT_AT(sub, p))((p), (v))",
    "#define atomicExch(p, v) __LAT_AT(exch, p), float *: __lat_atomic_exch_f, double *: __lat_atomic_exch_d)((p), (v))",
    "#define atomicMin(p, v) __LAT_AT(min, p))((p), (v))",
    "#define atomicMax(p, v) __LAT_AT(max, p))((p), (v))",
    "#define atomicAnd(p, v) __LAT_AT(and, p))((p), (v))",
    "#define atomicOr(p, v) __LAT_AT(or, p))((p), (v))",
    "#define atomicXor(p, v) __LAT_AT(xor, p))((p), (v))",
    "#define atomicCAS(p, c, v) __LAT_AT(cas, p), unsigned short *: __lat_atomic_cas_us)((p), (c), (v))",
    "#define atomicInc(p, v) __lat_atomic_inc_u((p), (v))",
    "#define atomicDec(p, v) __lat_atomic_dec_u((p), (v))",
    "#define atomicAdd_block atomicAdd",
    "#define atomicSub_block atomicSub",
    "#define atomicExch_block atomicExch",
    "#define atomicMin_block atomicMin",
    "#define atomicMax_block atomicMax",
    "#define atomicInc_block atomicInc",
    "#define atomicDec_block atomicDec",
    "#define atomicCAS_block atomicCAS",
    "#define atomicAnd_block atomicAnd",
    "#define atomicOr_block atomicOr",
    "#define atomicXor_block atomicXor",
    "#define atomicAdd_system atomicAdd",
    "#define atomicSub_system atomicSub",
    "#define atomicExch_system atomicExch",
    "#define atomicMin_system atomicMin",
    "#define atomicMax_system atomicMax",
    "#define atomicInc_system atomicInc",
    "#define atomicDec_system atomicDec",
    "#define atomicCAS_system atomicCAS",
    "#define atomicAnd_system atomicAnd",
    "#define atomicOr_system atomicOr",
    "#define atomicXor_system atomicXor",
    "#define __threadfence() __lat_fence()",
    "#define __threadfence_block() __lat_fence()",
    "#define __threadfence_system() __lat_fence()",
    SEC_END,
    /* Vector types: written out by vectors() below, where this line is. */
    VECTORS,
    /* The C library a kernel may call. */
    "void *memcpy(void *, const void *, size_t);",
    "void *memmove(void *, const void *, size_t);",
    "void *memset(void *, int, size_t);",
    "void *malloc(size_t);",
    "void free(void *);",
    "int printf(const char *, ...);",
    "void __lat_trap(lat_emu_thread *, const char *, const char *, int);",
    "#define __trap() __lat_trap(__lat_t, 0, __FILE__, __LINE__)",
    "#define __brkpt() ((void)0)",
    /* Textures and surfaces (texfetch.c): the front end (parse_texture.c) writes each call
     * with a null T * whose type the result takes, and T's code (texobj.h). */
    "void __lat_tex_read(void *, unsigned, unsigned long long, int, float, float, float, int, const char *, int);",
    "void __lat_tex_fetch(void *, unsigned, unsigned long long, int, const char *, int);",
    "void __lat_surf_read(void *, unsigned, unsigned long long, int, int, int, int, int, const char *, int);",
    "void __lat_surf_write(const void *, unsigned, unsigned long long, int, int, int, int, int, const char *, int);",
    "#define __lat_tex(P, K, h, op, x, y, z, l) ({ __typeof__(*(P)) __lat_tr; __lat_tex_read(&__lat_tr, (K), (h), (op), (x), (y), (z), (l), __FILE__, __LINE__); __lat_tr; })",
    "#define __lat_tex1(P, K, h, i) ({ __typeof__(*(P)) __lat_tr; __lat_tex_fetch(&__lat_tr, (K), (h), (i), __FILE__, __LINE__); __lat_tr; })",
    "#define __lat_surfr(P, K, h, op, x, y, z, m) ({ __typeof__(*(P)) __lat_tr; __lat_surf_read(&__lat_tr, (K), (h), (op), (x), (y), (z), (m), __FILE__, __LINE__); __lat_tr; })",
    "#define __lat_surfw(P, K, v, h, op, x, y, z, m) ({ __typeof__(*(P)) __lat_tw = (v); __lat_surf_write(&__lat_tw, (K), (h), (op), (x), (y), (z), (m), __FILE__, __LINE__); })",
    /* assert as the front end's preprocessor expands it (src/front/predef.c). */
    "#define __lat_assert_fail(e, f, l) __lat_trap(__lat_t, e, f, l)",
    "#ifdef NDEBUG",
    "#define assert(e) ((void)0)",
    "#else",
    "#define assert(e) ((e) ? (void)0 : __lat_trap(__lat_t, #e, __FILE__, __LINE__))",
    "#endif",
    "int abs(int); long labs(long); long long llabs(long long);",
    /* Math: each function for double and float (written out: TinyCC is slower at
     * expanding a declaring macro than at reading declarations); the generic name picks
     * the float one for float arguments, as CUDA's C++ overloads do. */
    "double acos(double); float acosf(float); double acosh(double); float acoshf(float);",
    "double asin(double); float asinf(float); double asinh(double); float asinhf(float);",
    "double atan(double); float atanf(float); double atanh(double); float atanhf(float);",
    "double cbrt(double); float cbrtf(float); double ceil(double); float ceilf(float);",
    "double cos(double); float cosf(float); double cosh(double); float coshf(float);",
    "double erf(double); float erff(float); double erfc(double); float erfcf(float);",
    "double exp(double); float expf(float); double exp2(double); float exp2f(float);",
    "double exp10(double); float exp10f(float);",
    "double expm1(double); float expm1f(float); double fabs(double); float fabsf(float);",
    "double floor(double); float floorf(float);",
    "double lgamma(double); float lgammaf(float); double log(double); float logf(float);",
    "double log10(double); float log10f(float);",
    "double log1p(double); float log1pf(float); double log2(double); float log2f(float);",
    "double logb(double); float logbf(float);",
    "double nearbyint(double); float nearbyintf(float);",
    "double rint(double); float rintf(float); double round(double); float roundf(float);",
    "double sin(double); float sinf(float); double sinh(double); float sinhf(float);",
    "double sqrt(double); float sqrtf(float); double tan(double); float tanf(float);",
    "double tanh(double); float tanhf(float);",
    "double tgamma(double); float tgammaf(float);",
    "double trunc(double); float truncf(float);",
    "double rsqrt(double); float rsqrtf(float);",
    "double rcbrt(double); float rcbrtf(float);",
    "double erfinv(double); float erfinvf(float); double erfcinv(double); float erfcinvf(float);",
    "double normcdf(double); float normcdff(float); double normcdfinv(double); float normcdfinvf(float);",
    "double j0(double); float j0f(float); double j1(double); float j1f(float);",
    "double y0(double); float y0f(float); double y1(double); float y1f(float);",
    "double erfcx(double); float erfcxf(float);",
    "double cyl_bessel_i0(double); float cyl_bessel_i0f(float);",
    "double cyl_bessel_i1(double); float cyl_bessel_i1f(float);",
    "double jn(int, double); float jnf(int, float); double yn(int, double); float ynf(int, float);",
    "double rhypot(double, double); float rhypotf(float, float);",
    "double norm3d(double, double, double); float norm3df(float, float, float);",
    "double rnorm3d(double, double, double); float rnorm3df(float, float, float);",
    "double norm4d(double, double, double, double); float norm4df(float, float, float, float);",
    "double rnorm4d(double, double, double, double); float rnorm4df(float, float, float, float);",
    "double norm(int, const double *); float normf(int, const float *);",
    "double rnorm(int, const double *); float rnormf(int, const float *);",
    "double sinpi(double); float sinpif(float);",
    "double cospi(double); float cospif(float);",
    "double atan2(double, double); float atan2f(float, float);",
    "double copysign(double, double); float copysignf(float, float);",
    "double fdim(double, double); float fdimf(float, float);",
    "double fmax(double, double); float fmaxf(float, float);",
    "double fmin(double, double); float fminf(float, float);",
    "double fmod(double, double); float fmodf(float, float);",
    "double hypot(double, double); float hypotf(float, float);",
    "double nextafter(double, double); float nextafterf(float, float);",
    "double pow(double, double); float powf(float, float);",
    "double remainder(double, double); float remainderf(float, float);",
    "double fma(double, double, double); float fmaf(float, float, float);",
    "double ldexp(double, int); float ldexpf(float, int);",
    "double scalbn(double, int); float scalbnf(float, int);",
    "double scalbln(double, long); float scalblnf(float, long);",
    "double frexp(double, int *); float frexpf(float, int *);",
    "double modf(double, double *); float modff(float, float *);",
    "double remquo(double, double, int *); float remquof(float, float, int *);",
    "int ilogb(double); int ilogbf(float);",
    "long lround(double); long lroundf(float); long long llround(double);",
    "long long llroundf(float); long lrint(double); long lrintf(float);",
    "long long llrint(double); long long llrintf(float);",
    "void sincos(double, double *, double *); void sincosf(float, float *, float *);",
    "void sincospi(double, double *, double *); void sincospif(float, float *, float *);",
    "double nan(const char *); float nanf(const char *);",
    "#define __LAT_G1(n, x) _Generic((x), float: n##f, default: n)(x)",
    "#define __LAT_G2(n, x, y) _Generic((x) + (y), float: n##f, default: n)(x, y)",
    "#define acos(x) __LAT_G1(acos, x)",
    "#define acosh(x) __LAT_G1(acosh, x)",
    "#define asin(x) __LAT_G1(asin, x)",
    "#define asinh(x) __LAT_G1(asinh, x)",
    "#define atan(x) __LAT_G1(atan, x)",
    "#define atanh(x) __LAT_G1(atanh, x)",
    "#define cbrt(x) __LAT_G1(cbrt, x)",
    "#define ceil(x) __LAT_G1(ceil, x)",
    "#define cos(x) __LAT_G1(cos, x)",
    "#define cosh(x) __LAT_G1(cosh, x)",
    "#define erf(x) __LAT_G1(erf, x)",
    "#define erfc(x) __LAT_G1(erfc, x)",
    "#define exp(x) __LAT_G1(exp, x)",
    "#define exp2(x) __LAT_G1(exp2, x)",
    "#define exp10(x) __LAT_G1(exp10, x)",
    "#define expm1(x) __LAT_G1(expm1, x)",
    "#define fabs(x) __LAT_G1(fabs, x)",
    "#define floor(x) __LAT_G1(floor, x)",
    "#define lgamma(x) __LAT_G1(lgamma, x)",
    "#define log(x) __LAT_G1(log, x)",
    "#define log10(x) __LAT_G1(log10, x)",
    "#define log1p(x) __LAT_G1(log1p, x)",
    "#define log2(x) __LAT_G1(log2, x)",
    "#define logb(x) __LAT_G1(logb, x)",
    "#define nearbyint(x) __LAT_G1(nearbyint, x)",
    "#define rint(x) __LAT_G1(rint, x)",
    "#define round(x) __LAT_G1(round, x)",
    "#define sin(x) __LAT_G1(sin, x)",
    "#define sinh(x) __LAT_G1(sinh, x)",
    "#define sqrt(x) __LAT_G1(sqrt, x)",
    "#define tan(x) __LAT_G1(tan, x)",
    "#define tanh(x) __LAT_G1(tanh, x)",
    "#define tgamma(x) __LAT_G1(tgamma, x)",
    "#define trunc(x) __LAT_G1(trunc, x)",
    "#define rsqrt(x) __LAT_G1(rsqrt, x)",
    "#define rcbrt(x) __LAT_G1(rcbrt, x)",
    "#define erfinv(x) __LAT_G1(erfinv, x)",
    "#define erfcinv(x) __LAT_G1(erfcinv, x)",
    "#define normcdf(x) __LAT_G1(normcdf, x)",
    "#define normcdfinv(x) __LAT_G1(normcdfinv, x)",
    "#define j0(x) __LAT_G1(j0, x)",
    "#define j1(x) __LAT_G1(j1, x)",
    "#define y0(x) __LAT_G1(y0, x)",
    "#define y1(x) __LAT_G1(y1, x)",
    "#define erfcx(x) __LAT_G1(erfcx, x)",
    "#define cyl_bessel_i0(x) __LAT_G1(cyl_bessel_i0, x)",
    "#define cyl_bessel_i1(x) __LAT_G1(cyl_bessel_i1, x)",
    "#define sinpi(x) __LAT_G1(sinpi, x)",
    "#define cospi(x) __LAT_G1(cospi, x)",
    "#define atan2(x, y) __LAT_G2(atan2, x, y)",
    "#define copysign(x, y) __LAT_G2(copysign, x, y)",
    "#define fdim(x, y) __LAT_G2(fdim, x, y)",
    "#define fmax(x, y) __LAT_G2(fmax, x, y)",
    "#define fmin(x, y) __LAT_G2(fmin, x, y)",
    "#define fmod(x, y) __LAT_G2(fmod, x, y)",
    "#define hypot(x, y) __LAT_G2(hypot, x, y)",
    "#define nextafter(x, y) __LAT_G2(nextafter, x, y)",
    "#define pow(x, y) __LAT_G2(pow, x, y)",
    "#define remainder(x, y) __LAT_G2(remainder, x, y)",
    "#define fma(x, y, z) _Generic((x) + (y) + (z), float: fmaf, default: fma)(x, y, z)",
    "#define ldexp(x, e) _Generic((x), float: ldexpf, default: ldexp)(x, e)",
    "#define scalbn(x, e) _Generic((x), float: scalbnf, default: scalbn)(x, e)",
    "#define scalbln(x, e) _Generic((x), float: scalblnf, default: scalbln)(x, e)",
    "#define abs(x) _Generic((x), long: labs, long long: llabs, float: fabsf, \\",
    "  double: fabs, default: abs)(x)",
    "static inline int __lat_isnanf(float x) { return x != x; }",
    "static inline int __lat_isnan(double x) { return x != x; }",
    "static inline int __lat_isinff(float x) { return x == INFINITY || x == -INFINITY; }",
    "static inline int __lat_isinf(double x) { return x == HUGE_VAL || x == -HUGE_VAL; }",
    "static inline int __lat_isfinitef(float x) { return x - x == 0.0f; }",
    "static inline int __lat_isfinite(double x) { return x - x == 0.0; }",
    "static inline int __lat_signbitf(float x) { union { float f; int i; } u; u.f = x; return u.i < 0; }",
    "static inline int __lat_signbit(double x) { union { double f; long i; } u; u.f = x; return u.i < 0; }",
    "#define isnan(x) __LAT_G1(__lat_isnan, x)",
    "#define isinf(x) __LAT_G1(__lat_isinf, x)",
    "#define isfinite(x) __LAT_G1(__lat_isfinite, x)",
    "#define signbit(x) __LAT_G1(__lat_signbit, x)",
    /* CUDA's fast intrinsics: the accurate functions do. */
    "#define __expf(x) expf(x)",
    "#define __exp10f(x) exp10f(x)",
    "#define __logf(x) logf(x)",
    "#define __log2f(x) log2f(x)",
    "#define __log10f(x) log10f(x)",
    "#define __sinf(x) sinf(x)",
    "#define __cosf(x) cosf(x)",
    "#define __tanf(x) tanf(x)",
    "#define __sincosf(x, s, c) sincosf(x, s, c)",
    "#define __powf(x, y) powf(x, y)",
    "#define __fdividef(x, y) ((float)(x) / (float)(y))",
    "#define fdividef(x, y) ((float)(x) / (float)(y))",
    "static inline float __saturatef(float x) { return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }",
    "#define __float_as_int(x) ({ union { float f; int i; } __lat_u; __lat_u.f = (x); __lat_u.i; })",
    "#define __int_as_float(x) ({ union { float f; int i; } __lat_u; __lat_u.i = (x); __lat_u.f; })",
    "#define __float_as_uint(x) ({ union { float f; unsigned i; } __lat_u; __lat_u.f = (x); __lat_u.i; })",
    "#define __uint_as_float(x) ({ union { float f; unsigned i; } __lat_u; __lat_u.i = (x); __lat_u.f; })",
    "#define __double_as_longlong(x) ({ union { double f; long long i; } __lat_u; __lat_u.f = (x); __lat_u.i; })",
    "#define __longlong_as_double(x) ({ union { double f; long long i; } __lat_u; __lat_u.i = (x); __lat_u.f; })",
    /* min and max for every arithmetic type, as CUDA overloads them. */
    "static inline int __lat_min_i(int a, int b) { return a < b ? a : b; }",
    "static inline int __lat_max_i(int a, int b) { return a > b ? a : b; }",
    "static inline unsigned int __lat_min_u(unsigned int a, unsigned int b) { return a < b ? a : b; }",
    "static inline unsigned int __lat_max_u(unsigned int a, unsigned int b) { return a > b ? a : b; }",
    "static inline long __lat_min_l(long a, long b) { return a < b ? a : b; }",
    "static inline long __lat_max_l(long a, long b) { return a > b ? a : b; }",
    "static inline unsigned long __lat_min_ul(unsigned long a, unsigned long b) { return a < b ? a : b; }",
    "static inline unsigned long __lat_max_ul(unsigned long a, unsigned long b) { return a > b ? a : b; }",
    "static inline long long __lat_min_ll(long long a, long long b) { return a < b ? a : b; }",
    "static inline long long __lat_max_ll(long long a, long long b) { return a > b ? a : b; }",
    "static inline unsigned long long __lat_min_ull(unsigned long long a, unsigned long long b) { return a < b ? a : b; }",
    "static inline unsigned long long __lat_max_ull(unsigned long long a, unsigned long long b) { return a > b ? a : b; }",
    "#define __LAT_MM(op, a, b) _Generic((a) + (b), int: __lat_##op##_i, \\",
    "  unsigned int: __lat_##op##_u, long: __lat_##op##_l, unsigned long: __lat_##op##_ul, \\",
    "  long long: __lat_##op##_ll, unsigned long long: __lat_##op##_ull, \\",
    "  float: f##op##f, double: f##op)(a, b)",
    "#define min(a, b) __LAT_MM(min, a, b)",
    "#define max(a, b) __LAT_MM(max, a, b)",
    "#define umin(a, b) __lat_min_u(a, b)",
    "#define umax(a, b) __lat_max_u(a, b)",
    "#define llmin(a, b) __lat_min_ll(a, b)",
    "#define llmax(a, b) __lat_max_ll(a, b)",
    "#define ullmin(a, b) __lat_min_ull(a, b)",
    "#define ullmax(a, b) __lat_max_ull(a, b)",
    /* Integer intrinsics. */
    "int __popc(unsigned int); int __popcll(unsigned long long);",
    "int __clz(int); int __clzll(long long);",
    "int __ffs(int); int __ffsll(long long);",
    "unsigned int __brev(unsigned int); unsigned long long __brevll(unsigned long long);",
    "int __mulhi(int, int); unsigned int __umulhi(unsigned int, unsigned int);",
    "long long __mul64hi(long long, long long);",
    "unsigned long long __umul64hi(unsigned long long, unsigned long long);",
    "long long __lat_clock64(void); void __lat_nanosleep(unsigned);",
    "#define clock64() __lat_clock64()",
    "#define clock() ((long)__lat_clock64())",
    "#define __nanosleep(ns) __lat_nanosleep(ns)",
    /* curand_kernel.h's XORWOW jumps (xorwow.h). */
    "void __lat_xorwow_skip(unsigned int *, unsigned long long, unsigned long long);",
    /* The low 32 bits of the product of the operands' low 24 bits (signed for __mul24). */
    "#define __LAT_S24(a) ((unsigned)((int)((unsigned)(a) << 8) >> 8))",
    "#define __mul24(a, b) ((int)(__LAT_S24(a) * __LAT_S24(b)))",
    "#define __umul24(a, b) (((unsigned)(a) & 0xffffffu) * ((unsigned)(b) & 0xffffffu))",
    SEC_INTRINSICS,
    "static inline unsigned __lat_absdiff_i(int x, int y) { return x > y ? (unsigned)x - (unsigned)y : (unsigned)y - (unsigned)x; }",
    "#define __sad(x, y, z) (__lat_absdiff_i(x, y) + (unsigned)(z))",
    "#define __usad(x, y, z) (((unsigned)(x) > (unsigned)(y) ? (unsigned)(x) - (unsigned)(y) : (unsigned)(y) - (unsigned)(x)) + (unsigned)(z))",
    "#define __hadd(x, y) ((int)(((long long)(x) + (long long)(y)) >> 1))",
    "#define __rhadd(x, y) ((int)(((long long)(x) + (long long)(y) + 1) >> 1))",
    "#define __uhadd(x, y) ((unsigned)(((unsigned long long)(x) + (unsigned)(y)) >> 1))",
    "#define __urhadd(x, y) ((unsigned)(((unsigned long long)(x) + (unsigned)(y) + 1) >> 1))",
    "static inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) { unsigned long long v = ((unsigned long long)y << 32) | x; unsigned r = 0;"
    " for (int i = 0; i < 4; i++) r |= (unsigned)(v >> (8 * ((s >> (4 * i)) & 7)) & 0xff) << (8 * i); return r; }",
    "static inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned s) { unsigned long long v = ((unsigned long long)hi << 32) | lo; return (unsigned)((v << (s & 31)) >> 32); }",
    "static inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned s) { unsigned long long v = ((unsigned long long)hi << 32) | lo; return s >= 32 ? lo : (unsigned)((v << s) >> 32); }",
    "static inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned s) { unsigned long long v = ((unsigned long long)hi << 32) | lo; return (unsigned)(v >> (s & 31)); }",
    "static inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned s) { unsigned long long v = ((unsigned long long)hi << 32) | lo; return s >= 32 ? hi : (unsigned)(v >> s); }",
    /* The SIMD video intrinsics: op (the enumeration below) on each lane of bits bits. */
    "static inline unsigned __lat_simd(unsigned a, unsigned b, int bits, int op)",
    "{",
    "    unsigned r = 0, m = bits == 16 ? 0xffffu : 0xffu;",
    "    int smax = bits == 16 ? 32767 : 127, smin = -smax - 1;",
    "    for (int s = 0; s < 32; s += bits) {",
    "        unsigned ua = (a >> s) & m, ub = (b >> s) & m;",
    "        int sa = bits == 16 ? (int)(short)ua : (int)(signed char)ua, sb = bits == 16 ? (int)(short)ub : (int)(signed char)ub;",
    "        long long v = 0;",
    "        switch (op) {",
        "    case 0: v = sa < 0 ? -(long long)sa : sa; break;",
        "    case 3: v = sa < 0 ? -(long long)sa : sa; v = v > smax ? smax : v; break;",
        "    case 24: v = -(long long)sa; break;",
        "    case 25: v = -(long long)sa; v = v > smax ? smax : v < smin ? smin : v; break;",
        "    case 1: v = sa > sb ? (long long)sa - sb : (long long)sb - sa; break;",
        "    case 2: v = ua > ub ? ua - ub : ub - ua; break;",
        "    case 4: v = (long long)ua + ub; break;",
        "    case 5: v = (long long)sa + sb; v = v > smax ? smax : v < smin ? smin : v; break;",
        "    case 6: v = (long long)ua + ub; v = v > (long long)m ? (long long)m : v; break;",
        /* rounded half away from zero, as the GPU's __vavgs2/4 (an H100's truth) */
        "    case 7: v = (long long)sa + sb; v = v < 0 ? -((-v + 1) / 2) : (v + 1) / 2; break;",
        "    case 8: v = ((long long)ua + ub + 1) >> 1; break;",
        "    case 19: v = ((long long)ua + ub) >> 1; break;",
        "    case 20: v = sa > sb ? sa : sb; break;",
        "    case 21: v = ua > ub ? ua : ub; break;",
        "    case 22: v = sa < sb ? sa : sb; break;",
        "    case 23: v = ua < ub ? ua : ub; break;",
        "    case 38: v = (long long)ua - ub; break;",
        "    case 39: v = (long long)sa - sb; v = v > smax ? smax : v < smin ? smin : v; break;",
        "    case 40: v = ua > ub ? ua - ub : 0; break;",
        "    case 9: v = ua == ub ? m : 0; break;",
        "    case 18: v = ua != ub ? m : 0; break;",
        "    case 10: v = sa >= sb ? m : 0; break;",
        "    case 11: v = ua >= ub ? m : 0; break;",
        "    case 12: v = sa > sb ? m : 0; break;",
        "    case 13: v = ua > ub ? m : 0; break;",
        "    case 14: v = sa <= sb ? m : 0; break;",
        "    case 15: v = ua <= ub ? m : 0; break;",
        "    case 16: v = sa < sb ? m : 0; break;",
        "    case 17: v = ua < ub ? m : 0; break;",
        "    case 28: v = ua == ub ? 1 : 0; break;",
        "    case 37: v = ua != ub ? 1 : 0; break;",
        "    case 29: v = sa >= sb ? 1 : 0; break;",
        "    case 30: v = ua >= ub ? 1 : 0; break;",
        "    case 31: v = sa > sb ? 1 : 0; break;",
        "    case 32: v = ua > ub ? 1 : 0; break;",
        "    case 33: v = sa <= sb ? 1 : 0; break;",
        "    case 34: v = ua <= ub ? 1 : 0; break;",
        "    case 35: v = sa < sb ? 1 : 0; break;",
        "    case 36: v = ua < ub ? 1 : 0; break;",
    "        }",
    "        r |= ((unsigned)v & m) << s;",
    "    }",
    "    return r;",
    "}",
    "static inline unsigned __lat_vsad(unsigned a, unsigned b, int bits, int sgn)",
    "{",
    "    unsigned r = 0, m = bits == 16 ? 0xffffu : 0xffu;",
    "    for (int s = 0; s < 32; s += bits) {",
    "        unsigned ua = (a >> s) & m, ub = (b >> s) & m;",
    "        int sa = bits == 16 ? (int)(short)ua : (int)(signed char)ua, sb = bits == 16 ? (int)(short)ub : (int)(signed char)ub;",
    "        r += sgn ? (unsigned)(sa > sb ? sa - sb : sb - sa) : (ua > ub ? ua - ub : ub - ua);",
    "    }",
    "    return r;",
    "}",
    "#define __vabs2(a) __lat_simd((unsigned)(a), 0u, 16, 0)",
    "#define __vabs4(a) __lat_simd((unsigned)(a), 0u, 8, 0)",
    "#define __vabsss2(a) __lat_simd((unsigned)(a), 0u, 16, 3)",
    "#define __vabsss4(a) __lat_simd((unsigned)(a), 0u, 8, 3)",
    "#define __vneg2(a) __lat_simd((unsigned)(a), 0u, 16, 24)",
    "#define __vneg4(a) __lat_simd((unsigned)(a), 0u, 8, 24)",
    "#define __vnegss2(a) __lat_simd((unsigned)(a), 0u, 16, 25)",
    "#define __vnegss4(a) __lat_simd((unsigned)(a), 0u, 8, 25)",
    "#define __vabsdiffs2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 1)",
    "#define __vabsdiffs4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 1)",
    "#define __vabsdiffu2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 2)",
    "#define __vabsdiffu4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 2)",
    "#define __vadd2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 4)",
    "#define __vadd4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 4)",
    "#define __vaddss2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 5)",
    "#define __vaddss4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 5)",
    "#define __vaddus2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 6)",
    "#define __vaddus4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 6)",
    "#define __vavgs2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 7)",
    "#define __vavgs4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 7)",
    "#define __vavgu2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 8)",
    "#define __vavgu4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 8)",
    "#define __vcmpeq2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 9)",
    "#define __vcmpeq4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 9)",
    "#define __vcmpges2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 10)",
    "#define __vcmpges4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 10)",
    "#define __vcmpgeu2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 11)",
    "#define __vcmpgeu4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 11)",
    "#define __vcmpgts2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 12)",
    "#define __vcmpgts4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 12)",
    "#define __vcmpgtu2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 13)",
    "#define __vcmpgtu4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 13)",
    "#define __vcmples2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 14)",
    "#define __vcmples4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 14)",
    "#define __vcmpleu2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 15)",
    "#define __vcmpleu4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 15)",
    "#define __vcmplts2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 16)",
    "#define __vcmplts4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 16)",
    "#define __vcmpltu2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 17)",
    "#define __vcmpltu4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 17)",
    "#define __vcmpne2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 18)",
    "#define __vcmpne4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 18)",
    "#define __vhaddu2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 19)",
    "#define __vhaddu4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 19)",
    "#define __vmaxs2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 20)",
    "#define __vmaxs4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 20)",
    "#define __vmaxu2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 21)",
    "#define __vmaxu4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 21)",
    "#define __vmins2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 22)",
    "#define __vmins4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 22)",
    "#define __vminu2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 23)",
    "#define __vminu4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 23)",
    "#define __vsads2(a, b) __lat_vsad((unsigned)(a), (unsigned)(b), 16, 1)",
    "#define __vsads4(a, b) __lat_vsad((unsigned)(a), (unsigned)(b), 8, 1)",
    "#define __vsadu2(a, b) __lat_vsad((unsigned)(a), (unsigned)(b), 16, 0)",
    "#define __vsadu4(a, b) __lat_vsad((unsigned)(a), (unsigned)(b), 8, 0)",
    "#define __vseteq2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 28)",
    "#define __vseteq4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 28)",
    "#define __vsetges2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 29)",
    "#define __vsetges4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 29)",
    "#define __vsetgeu2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 30)",
    "#define __vsetgeu4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 30)",
    "#define __vsetgts2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 31)",
    "#define __vsetgts4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 31)",
    "#define __vsetgtu2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 32)",
    "#define __vsetgtu4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 32)",
    "#define __vsetles2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 33)",
    "#define __vsetles4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 33)",
    "#define __vsetleu2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 34)",
    "#define __vsetleu4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 34)",
    "#define __vsetlts2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 35)",
    "#define __vsetlts4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 35)",
    "#define __vsetltu2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 36)",
    "#define __vsetltu4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 36)",
    "#define __vsetne2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 37)",
    "#define __vsetne4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 37)",
    "#define __vsub2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 38)",
    "#define __vsub4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 38)",
    "#define __vsubss2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 39)",
    "#define __vsubss4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 39)",
    "#define __vsubus2(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 16, 40)",
    "#define __vsubus4(a, b) __lat_simd((unsigned)(a), (unsigned)(b), 8, 40)",
    /* __dp4a, __dp2a_lo/hi: signed lanes for int operands, unsigned for unsigned ones. */
    "static inline unsigned __lat_dp4a(unsigned a, unsigned b, unsigned c, int sgn)",
    "{ unsigned r = c; for (int s = 0; s < 32; s += 8) r += sgn ? (unsigned)((int)(signed char)(a >> s) * (int)(signed char)(b >> s)) : ((a >> s) & 0xffu) * ((b >> s) & 0xffu); return r; }",
    "static inline unsigned __lat_dp2a(unsigned a, unsigned b, unsigned c, int sgn, int hi)",
    "{ unsigned r = c; for (int i = 0; i < 2; i++) { unsigned ha = (a >> (16 * i)) & 0xffffu, bb = (b >> (8 * (i + 2 * hi))) & 0xffu;",
    "  r += sgn ? (unsigned)((int)(short)ha * (int)(signed char)bb) : ha * bb; } return r; }",
    "#define __dp4a(a, b, c) _Generic((a), unsigned int: __lat_dp4a((a), (b), (c), 0), default: (int)__lat_dp4a((unsigned)(a), (unsigned)(b), (unsigned)(c), 1))",
    "#define __dp2a_lo(a, b, c) _Generic((a), unsigned int: __lat_dp2a((a), (b), (c), 0, 0), default: (int)__lat_dp2a((unsigned)(a), (unsigned)(b), (unsigned)(c), 1, 0))",
    "#define __dp2a_hi(a, b, c) _Generic((a), unsigned int: __lat_dp2a((a), (b), (c), 0, 1), default: (int)__lat_dp2a((unsigned)(a), (unsigned)(b), (unsigned)(c), 1, 1))",
    "static inline unsigned __fns(unsigned mask, unsigned base, int offset)",
    "{",
    "    if (offset == 0) return base < 32u && (mask >> base & 1u) ? base : 0xffffffffu;",
    "    int pos = (int)base, count = (offset < 0 ? -offset : offset) - 1, inc = offset > 0 ? 1 : -1;",
    "    for (; pos >= 0 && pos < 32; pos += inc)",
    "        if (mask >> pos & 1u) { if (count == 0) return (unsigned)pos; count--; }",
    "    return 0xffffffffu;",
    "}",
    "#define __double2hiint(d) ((int)(__double_as_longlong(d) >> 32))",
    "#define __double2loint(d) ((int)__double_as_longlong(d))",
    "#define __hiloint2double(hi, lo) __longlong_as_double(((long long)(hi) << 32) | (unsigned)(lo))",
    "#define __frsqrt_rn(x) (1.0f / sqrtf(x))",
    "#define __fsqrt_rn(x) sqrtf(x)",
    "#define __dsqrt_rn(x) sqrt((double)(x))",
    "#define __frcp_rn(x) (1.0f / (float)(x))",
    "#define __drcp_rn(x) (1.0 / (double)(x))",
    "#define __fadd_rn(a, b) ((float)(a) + (float)(b))",
    "#define __fsub_rn(a, b) ((float)(a) - (float)(b))",
    "#define __fmul_rn(a, b) ((float)(a) * (float)(b))",
    "#define __fdiv_rn(a, b) ((float)(a) / (float)(b))",
    "#define __fmaf_rn(a, b, c) fmaf(a, b, c)",
    "#define __dadd_rn(a, b) ((double)(a) + (double)(b))",
    "#define __dsub_rn(a, b) ((double)(a) - (double)(b))",
    "#define __dmul_rn(a, b) ((double)(a) * (double)(b))",
    "#define __ddiv_rn(a, b) ((double)(a) / (double)(b))",
    "#define __fma_rn(a, b, c) fma((double)(a), (double)(b), (double)(c))",
    "#define __int2float_rn(i) ((float)(int)(i))",
    "#define __uint2float_rn(i) ((float)(unsigned)(i))",
    "#define __int2double_rn(i) ((double)(int)(i))",
    "#define __uint2double_rn(i) ((double)(unsigned)(i))",
    "#define __ll2double_rn(i) ((double)(long long)(i))",
    "#define __ull2double_rn(i) ((double)(unsigned long long)(i))",
    "#define __ll2float_rn(i) ((float)(long long)(i))",
    "#define __ull2float_rn(i) ((float)(unsigned long long)(i))",
    "#define __double2float_rn(d) ((float)(double)(d))",
    /* The other rounding modes, and conversions that saturate as the GPU's do (mathx.c). */
    "float __lat_fop(int, int, float, float, float);",
    "double __lat_dop(int, int, double, double, double);",
    "long long __lat_f2i(double, int, int);",
    "unsigned long long __lat_f2ull(double, int);",
    "float __lat_i2f(unsigned long long, int, int);",
    "double __lat_i2d(unsigned long long, int, int);",
    "float __lat_d2f(double, int);",
    ROUNDING,
    SEC_END,
    /* ---- GPU arithmetic (LAT_EMU_PRELUDE_ARITH) ----------------------------------------
     * What the GPU computes where C leaves the result undefined and x86 computes something
     * else. The emitter calls these instead of C's operators; a kernel never names them.
     * They are self-contained (TinyCC inlines nothing: a helper calling a helper pays two
     * calls) and branch-free but for the parity jump TinyCC puts after a float compare.
     *
     * Shifts follow PTX's shl/shr: the count is an unsigned 32-bit value (NVPTX truncates
     * a 64-bit count to 32 bits, so the emitter passes (unsigned)count; a negative count
     * is a huge one), a count >= the width gives 0 for << and for unsigned >>, and the
     * sign fill for signed >>. char and short operands are promoted to int first, as in C.
     *
     * Conversions follow PTX's cvt.rzi, which saturates by default: truncate toward zero,
     * clamp to the destination's range; NaN gives 0 from a float to a destination of 32
     * bits or less, and 1 << (bits - 1) (MININT, or 2^(bits-1) unsigned) from a double or
     * to a 64-bit destination (PTX ISA, cvt: "Integer Notes"). __lat_f2i_* take a float,
     * __lat_d2i_* a double. TO VERIFY on a GPU (bench/gpuarith): the 8- and 16-bit
     * targets. The ISA clamps to the 8-bit range, but NVPTX has no 8-bit registers and
     * LLVM legalises a conversion to i8 as one to i16, so a value between 128 and 32767
     * might come out as its low byte instead. */
    SEC_ARITH,
    "static inline int __lat_shl_i32(int x, unsigned n) { return (int)(((unsigned)x << (n & 31)) & -(unsigned)(n < 32)); }",
    "static inline unsigned __lat_shl_u32(unsigned x, unsigned n) { return (x << (n & 31)) & -(unsigned)(n < 32); }",
    "static inline int __lat_shr_i32(int x, unsigned n) { return x >> ((n | -(unsigned)(n > 31)) & 31); }",
    "static inline unsigned __lat_shr_u32(unsigned x, unsigned n) { return (x >> (n & 31)) & -(unsigned)(n < 32); }",
    "static inline long long __lat_shl_i64(long long x, unsigned n) { return (long long)(((unsigned long long)x << (n & 63)) & -(unsigned long long)(n < 64)); }",
    "static inline unsigned long long __lat_shl_u64(unsigned long long x, unsigned n) { return (x << (n & 63)) & -(unsigned long long)(n < 64); }",
    "static inline long long __lat_shr_i64(long long x, unsigned n) { return x >> ((n | -(unsigned)(n > 63)) & 63); }",
    "static inline unsigned long long __lat_shr_u64(unsigned long long x, unsigned n) { return (x >> (n & 63)) & -(unsigned long long)(n < 64); }",
    /* Each conversion: in = not NaN and in range; the result ORs the truncated value
     * (exact: |x| < 2^63 when in) and the clamp or NaN value, each under its 0/1 mask. */
    "#define __LAT_CVT(name, T, R, LO, HI, MIN, MAX, NANV) static inline R name(T x) { \\",
    "  long long lo = x < LO, hi = x >= HI, nan = x != x, in = !(lo | hi | nan); \\",
    "  return (R)(((long long)x & -in) | ((long long)(MAX) & -hi) | ((long long)(MIN) & -lo) | ((long long)(NANV) & -nan)); }",
    "__LAT_CVT(__lat_f2i_s8, float, signed char, -128.0f, 128.0f, -128, 127, 0)",
    "__LAT_CVT(__lat_f2i_u8, float, unsigned char, 0.0f, 256.0f, 0, 255, 0)",
    "__LAT_CVT(__lat_f2i_s16, float, short, -32768.0f, 32768.0f, -32768, 32767, 0)",
    "__LAT_CVT(__lat_f2i_u16, float, unsigned short, 0.0f, 65536.0f, 0, 65535, 0)",
    "__LAT_CVT(__lat_f2i_s32, float, int, -2147483648.0f, 2147483648.0f, -2147483647 - 1, 2147483647, 0)",
    "__LAT_CVT(__lat_f2i_u32, float, unsigned, 0.0f, 4294967296.0f, 0, 4294967295u, 0)",
    "__LAT_CVT(__lat_f2i_s64, float, long long, -9223372036854775808.0f, 9223372036854775808.0f, -9223372036854775807LL - 1, 9223372036854775807LL, -9223372036854775807LL - 1)",
    "__LAT_CVT(__lat_d2i_s8, double, signed char, -128.0, 128.0, -128, 127, -128)",
    "__LAT_CVT(__lat_d2i_u8, double, unsigned char, 0.0, 256.0, 0, 255, 128)",
    "__LAT_CVT(__lat_d2i_s16, double, short, -32768.0, 32768.0, -32768, 32767, -32768)",
    "__LAT_CVT(__lat_d2i_u16, double, unsigned short, 0.0, 65536.0, 0, 65535, 32768)",
    "__LAT_CVT(__lat_d2i_s32, double, int, -2147483648.0, 2147483648.0, -2147483647 - 1, 2147483647, -2147483647 - 1)",
    "__LAT_CVT(__lat_d2i_u32, double, unsigned, 0.0, 4294967296.0, 0, 4294967295u, 2147483648u)",
    "__LAT_CVT(__lat_d2i_s64, double, long long, -9223372036854775808.0, 9223372036854775808.0, -9223372036854775807LL - 1, 9223372036854775807LL, -9223372036854775807LL - 1)",
    /* To unsigned 64 bits, x in [2^63, 2^64) converts as x - 2^63 (exact) with bit 63 set. */
    "#define __LAT_CVT_U64(name, T) static inline unsigned long long name(T x) { \\",
    "  long long lo = x < 0, hi = x >= (T)18446744073709551616.0, nan = x != x, in = !(lo | hi | nan), big = x >= (T)9223372036854775808.0; \\",
    "  unsigned long long v = (unsigned long long)(long long)(x - (T)big * (T)9223372036854775808.0) ^ ((unsigned long long)big << 63); \\",
    "  return (v & -(unsigned long long)in) | (18446744073709551615ULL & -(unsigned long long)hi) | (9223372036854775808ULL & -(unsigned long long)nan); }",
    "__LAT_CVT_U64(__lat_f2i_u64, float)",
    "__LAT_CVT_U64(__lat_d2i_u64, double)",
    "#undef __LAT_CVT",
    "#undef __LAT_CVT_U64",
    SEC_END,
};

/* CUDA's vector types (front/builtins.c's table), aligned as CUDA aligns them (float2 to
 * 8 bytes, float4 to 16), with make_ as macros. They are written out here rather than
 * generated by a macro in the prelude: TinyCC takes longer expanding such a macro than
 * reading its result. Appends them to p (NULL: only counts); returns the length. */
static size_t vectors(char *p)
{
    static const char *const fields[] = {"", "x", "x, y", "x, y, z", "x, y, z, w"};
    static const char *const args[] = {"", "(x)", "(x), (y)", "(x), (y), (z)",
                                       "(x), (y), (z), (w)"};
    char line[320];
    size_t at = 0;
    for (size_t i = 0; i < (size_t)LAT_VECTOR_KINDS; i++) {
        const char *t = lat__vector_kinds[i].elem, *n = lat__vector_kinds[i].stem;
        for (int k = 1; k <= 4; k++) {
            int align = k == 2 ? lat__vector_kinds[i].align2 : k == 4 ? lat__vector_kinds[i].align4 : 0;
            char attr[48] = "";
            if (align)
                snprintf(attr, sizeof attr, "__attribute__((aligned(%d))) ", align);
            int len;
            if (strcmp(n, "uint") == 0 && k == 3) /* the index type, declared earlier */
                len = snprintf(line, sizeof line, "#define make_uint3(x, y, z) ((uint3){%s})\n",
                               args[3]);
            else
                len = snprintf(line, sizeof line,
                               "typedef struct %s%s%d { %s %s; } %s%d;\n"
                               "#define make_%s%d(%s) ((%s%d){%s})\n",
                               attr, n, k, t, fields[k], n, k, n, k, fields[k], n, k, args[k]);
            if (p)
                memcpy(p + at, line, (size_t)len);
            at += (size_t)len;
        }
    }
    return at;
}

/* CUDA's intrinsics with a rounding mode in their name: _rn is C's (in lines[]), _rz
 * _ru _rd go to the host (mathx.c); conversions to integers saturate in every mode. */
static size_t rounding(char *p)
{
    static const char *const modes[] = {"rn", "rz", "ru", "rd"};
    static const struct {
        const char *name, *args, *call;
    } ops[] = {
        {"__fadd", "(a, b)", "__lat_fop(0, %d, a, b, 0)"},
        {"__fsub", "(a, b)", "__lat_fop(1, %d, a, b, 0)"},
        {"__fmul", "(a, b)", "__lat_fop(2, %d, a, b, 0)"},
        {"__fdiv", "(a, b)", "__lat_fop(3, %d, a, b, 0)"},
        {"__frcp", "(a)", "__lat_fop(4, %d, a, 0, 0)"},
        {"__fsqrt", "(a)", "__lat_fop(5, %d, a, 0, 0)"},
        {"__fmaf", "(a, b, c)", "__lat_fop(6, %d, a, b, c)"},
        {"__dadd", "(a, b)", "__lat_dop(0, %d, a, b, 0)"},
        {"__dsub", "(a, b)", "__lat_dop(1, %d, a, b, 0)"},
        {"__dmul", "(a, b)", "__lat_dop(2, %d, a, b, 0)"},
        {"__ddiv", "(a, b)", "__lat_dop(3, %d, a, b, 0)"},
        {"__drcp", "(a)", "__lat_dop(4, %d, a, 0, 0)"},
        {"__dsqrt", "(a)", "__lat_dop(5, %d, a, 0, 0)"},
        {"__fma", "(a, b, c)", "__lat_dop(6, %d, a, b, c)"},
        {"__float2int", "(a)", "((int)__lat_f2i(a, %d, 0))"},
        {"__float2uint", "(a)", "((unsigned)__lat_f2i(a, %d, 1))"},
        {"__float2ll", "(a)", "__lat_f2i(a, %d, 2)"},
        {"__float2ull", "(a)", "__lat_f2ull(a, %d)"},
        {"__double2int", "(a)", "((int)__lat_f2i(a, %d, 0))"},
        {"__double2uint", "(a)", "((unsigned)__lat_f2i(a, %d, 1))"},
        {"__double2ll", "(a)", "__lat_f2i(a, %d, 2)"},
        {"__double2ull", "(a)", "__lat_f2ull(a, %d)"},
        {"__int2float", "(a)", "__lat_i2f((unsigned long long)(long long)(int)(a), %d, 0)"},
        {"__uint2float", "(a)", "__lat_i2f((unsigned)(a), %d, 1)"},
        {"__ll2float", "(a)", "__lat_i2f((unsigned long long)(long long)(a), %d, 0)"},
        {"__ull2float", "(a)", "__lat_i2f((unsigned long long)(a), %d, 1)"},
        {"__ll2double", "(a)", "__lat_i2d((unsigned long long)(long long)(a), %d, 0)"},
        {"__ull2double", "(a)", "__lat_i2d((unsigned long long)(a), %d, 1)"},
        {"__double2float", "(a)", "__lat_d2f(a, %d)"},
    };
    static const char *const rn_defined[] = {"__fadd", "__fsub", "__fmul", "__fdiv", "__frcp",
                                             "__fsqrt", "__fmaf", "__dadd", "__dsub", "__dmul",
                                             "__ddiv", "__drcp", "__dsqrt", "__fma",
                                             "__int2float", "__uint2float", "__ll2float",
                                             "__ull2float", "__ll2double", "__ull2double",
                                             "__double2float"};
    size_t at = 0;
    char line[256], call[128];
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        for (int m = 0; m < 4; m++) {
            bool skip = false;
            for (size_t j = 0; m == 0 && j < sizeof rn_defined / sizeof rn_defined[0]; j++)
                if (strcmp(ops[i].name, rn_defined[j]) == 0)
                    skip = true;
            if (skip)
                continue;
            snprintf(call, sizeof call, ops[i].call, m);
            int len = snprintf(line, sizeof line, "#define %s_%s%s %s\n", ops[i].name, modes[m],
                               ops[i].args, call);
            if (p)
                memcpy(p + at, line, (size_t)len);
            at += (size_t)len;
        }
    return at;
}

static char *joined[32]; /* per set of LAT_EMU_PRELUDE_* parts */
static pthread_mutex_t joined_lock = PTHREAD_MUTEX_INITIALIZER;

static bool is_section(const char *line)
{
    return line == SEC_SYNC || line == SEC_ATOMICS || line == SEC_INTRINSICS ||
           line == SEC_ARITH || line == SEC_END;
}

static unsigned section_bit(const char *line)
{
    return line == SEC_SYNC ? LAT_EMU_PRELUDE_SYNC
           : line == SEC_ATOMICS ? LAT_EMU_PRELUDE_ATOMICS
           : line == SEC_ARITH   ? LAT_EMU_PRELUDE_ARITH
                                 : LAT_EMU_PRELUDE_INTRINSICS;
}

static char *join_one(unsigned parts)
{
    bool with_vectors = parts & LAT_EMU_PRELUDE_VECTORS;
    size_t n = 1;
    bool on = true;
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        if (is_section(lines[i])) {
            on = lines[i] == SEC_END || (parts & section_bit(lines[i]));
            continue;
        }
        if (!on)
            continue;
        n += lines[i] == ROUNDING ? rounding(NULL)
             : lines[i] != VECTORS ? strlen(lines[i]) + 1
             : with_vectors        ? vectors(NULL)
                                   : 0;
    }
    char *p = lat__malloc(n);
    if (!p)
        return NULL;
    size_t at = 0;
    on = true;
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        if (is_section(lines[i])) {
            on = lines[i] == SEC_END || (parts & section_bit(lines[i]));
            continue;
        }
        if (!on)
            continue;
        if (lines[i] == ROUNDING) {
            at += rounding(p + at);
            continue;
        }
        if (lines[i] == VECTORS) {
            if (with_vectors)
                at += vectors(p + at);
            continue;
        }
        size_t len = strlen(lines[i]);
        memcpy(p + at, lines[i], len);
        at += len;
        p[at++] = '\n';
    }
    p[at] = '\0';
    return p;
}

const char *lat__emu_prelude_parts(unsigned parts)
{
    parts &= LAT_EMU_PRELUDE_ALL;
    pthread_mutex_lock(&joined_lock);
    if (!joined[parts])
        joined[parts] = join_one(parts);
    const char *p = joined[parts];
    pthread_mutex_unlock(&joined_lock);
    return p;
}

const char *lat__emu_prelude(bool with_vectors)
{
    return lat__emu_prelude_parts(with_vectors ? LAT_EMU_PRELUDE_ALL
                                               : LAT_EMU_PRELUDE_ALL & ~LAT_EMU_PRELUDE_VECTORS);
}

static bool starts(const char *name, size_t len, const char *prefix)
{
    size_t n = strlen(prefix);
    return len >= n && memcmp(name, prefix, n) == 0;
}

unsigned lat__emu_prelude_part(const char *name, size_t len)
{
    if (len < 2)
        return 0;
    if (name[0] == 'a')
        return starts(name, len, "atomic") ? LAT_EMU_PRELUDE_ATOMICS : 0;
    if (name[0] != '_' || name[1] != '_')
        return lat__emu_is_vector_type(name, len) ? LAT_EMU_PRELUDE_VECTORS : 0;
    /* The GPU-arithmetic helpers: the emitter names them (lattice's own tests too). */
    if (starts(name, len, "__lat_shl_") || starts(name, len, "__lat_shr_") ||
        starts(name, len, "__lat_f2i_") || starts(name, len, "__lat_d2i_"))
        return LAT_EMU_PRELUDE_ARITH;
    if (starts(name, len, "__threadfence"))
        return LAT_EMU_PRELUDE_ATOMICS;
    if (starts(name, len, "__sync") || starts(name, len, "__shfl") ||
        starts(name, len, "__ballot") || starts(name, len, "__any_sync") ||
        starts(name, len, "__all_sync") || starts(name, len, "__match") ||
        starts(name, len, "__reduce_") || starts(name, len, "__activemask") ||
        starts(name, len, "__lat_grid_sync"))
        return LAT_EMU_PRELUDE_SYNC;
    static const char *const intrinsics[] = {"__f", "__d", "__int2", "__uint2", "__ll2",
                                             "__ull2", "__hiloint", "__sad", "__usad",
                                             "__hadd", "__rhadd", "__uhadd", "__urhadd",
                                             "__byte_perm", "__v", "__dp", "__fns"};
    for (size_t i = 0; i < sizeof intrinsics / sizeof intrinsics[0]; i++)
        if (starts(name, len, intrinsics[i]))
            return LAT_EMU_PRELUDE_INTRINSICS;
    return 0;
}

bool lat__emu_is_vector_type(const char *name, size_t len)
{
    if (len > 5 && memcmp(name, "make_", 5) == 0) {
        name += 5;
        len -= 5;
    }
    if (len < 2 || name[len - 1] < '1' || name[len - 1] > '4')
        return false;
    for (size_t i = 0; i < (size_t)LAT_VECTOR_KINDS; i++) {
        const char *n = lat__vector_kinds[i].stem;
        if (strlen(n) == len - 1 && memcmp(n, name, len - 1) == 0)
            return true;
    }
    return false;
}
