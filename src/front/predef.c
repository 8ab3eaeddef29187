/* The predefined macros: see predef.h. Kept as lines, as the prelude keeps its own (ISO C
 * bounds a string literal's length), and joined once into a buffer sized at compile time. */
#include "predef.h"

#include <pthread.h>
#include <string.h>

#define PREDEFINED(X)                                                                       \
    /* The toolchain. __cplusplus stays undefined, so that `#ifdef __cplusplus` blocks,     \
     * which are written for a host C++ compiler, are skipped. */                           \
    X("#define __CUDACC__ 1")                                                               \
    X("#define __CUDACC_RTC__ 1")                                                           \
    /* The CUDA version whose semantics the emulator follows (the _sync intrinsics). */     \
    X("#define __CUDACC_VER_MAJOR__ 12")                                                    \
    X("#define __CUDACC_VER_MINOR__ 0")                                                     \
    X("#define __CUDACC_VER_BUILD__ 0")                                                     \
    /* stddef.h, stdbool.h: bool, true and false are the parser's (CUDA is C++). */         \
    X("#define NULL ((void *)0)")                                                           \
    X("#define __bool_true_false_are_defined 1")                                            \
    X("#define offsetof(t, m) __builtin_offsetof(t, m)")                                    \
    /* CUDA. */                                                                             \
    X("#define warpSize 32")                                                                \
    X("#define __ldg(p) (*(p))")                                                            \
    /* The cache-hinted loads and stores (sm_32_intrinsics.h): the emulator has no caches. */ \
    X("#define __ldcg(p) (*(p))")                                                           \
    X("#define __ldca(p) (*(p))")                                                           \
    X("#define __ldcs(p) (*(p))")                                                           \
    X("#define __ldlu(p) (*(p))")                                                           \
    X("#define __ldcv(p) (*(p))")                                                           \
    X("#define __stcg(p, v) ((void)(*(p) = (v)))")                                          \
    X("#define __stcs(p, v) ((void)(*(p) = (v)))")                                          \
    X("#define __stwb(p, v) ((void)(*(p) = (v)))")                                          \
    X("#define __stwt(p, v) ((void)(*(p) = (v)))")                                          \
    X("#define __NV_ATOMIC_RELAXED 0")                                                           \
    X("#define __NV_ATOMIC_CONSUME 1")                                                           \
    X("#define __NV_ATOMIC_ACQUIRE 2")                                                           \
    X("#define __NV_ATOMIC_RELEASE 3")                                                           \
    X("#define __NV_ATOMIC_ACQ_REL 4")                                                           \
    X("#define __NV_ATOMIC_SEQ_CST 5")                                                           \
    X("#define __NV_THREAD_SCOPE_THREAD 0")                                                      \
    X("#define __NV_THREAD_SCOPE_BLOCK 1")                                                       \
    X("#define __NV_THREAD_SCOPE_CLUSTER 2")                                                     \
    X("#define __NV_THREAD_SCOPE_DEVICE 3")                                                      \
    X("#define __NV_THREAD_SCOPE_SYSTEM 4")                                                      \
    X("#define __nv_atomic_fetch_add(p, v, o, s) atomicAdd((p), (v))")                           \
    X("#define __nv_atomic_fetch_sub(p, v, o, s) atomicAdd((p), -(v))")                          \
    X("#define __nv_atomic_fetch_min(p, v, o, s) atomicMin((p), (v))")                           \
    X("#define __nv_atomic_fetch_max(p, v, o, s) atomicMax((p), (v))")                           \
    X("#define __nv_atomic_fetch_and(p, v, o, s) atomicAnd((p), (v))")                           \
    X("#define __nv_atomic_fetch_or(p, v, o, s) atomicOr((p), (v))")                             \
    X("#define __nv_atomic_fetch_xor(p, v, o, s) atomicXor((p), (v))")                           \
    X("#define __nv_atomic_add(p, v, o, s) ((void)atomicAdd((p), (v)))")                         \
    X("#define __nv_atomic_sub(p, v, o, s) ((void)atomicAdd((p), -(v)))")                        \
    X("#define __nv_atomic_min(p, v, o, s) ((void)atomicMin((p), (v)))")                         \
    X("#define __nv_atomic_max(p, v, o, s) ((void)atomicMax((p), (v)))")                         \
    X("#define __nv_atomic_and(p, v, o, s) ((void)atomicAnd((p), (v)))")                         \
    X("#define __nv_atomic_or(p, v, o, s) ((void)atomicOr((p), (v)))")                           \
    X("#define __nv_atomic_xor(p, v, o, s) ((void)atomicXor((p), (v)))")                         \
    X("#define __nv_atomic_exchange_n(p, v, o, s) atomicExch((p), (v))")                         \
    X("#define __nv_atomic_exchange(p, v, r, o, s) ((void)(*(r) = atomicExch((p), *(v))))")      \
    X("#define __nv_atomic_load_n(p, o, s) atomicAdd((p), 0)")                                   \
    X("#define __nv_atomic_load(p, r, o, s) ((void)(*(r) = atomicAdd((p), 0)))")                 \
    X("#define __nv_atomic_store_n(p, v, o, s) ((void)atomicExch((p), (v)))")                    \
    X("#define __nv_atomic_store(p, v, o, s) ((void)atomicExch((p), *(v)))")                     \
    X("#define __nv_atomic_compare_exchange_n(p, e, d, w, so, fo, s) __lat_nv_cas((p), (e), (d))") \
    X("#define __nv_atomic_compare_exchange(p, e, d, w, so, fo, s) __lat_nv_cas((p), (e), *(d))") \
    X("#define __lat_nv_cas(p, e, d) ({ __typeof__(*(p)) __lat_old = atomicCAS((p), *(e), (d)); bool __lat_ok = __lat_old == *(e); *(e) = __lat_old; __lat_ok; })") \
    X("#define __nv_atomic_thread_fence(o, s) __threadfence()")                                  \
    /* limits.h: the emulator's types are those of LP64 x86-64 and AArch64. */              \
    X("#define CHAR_BIT 8")                                                                 \
    X("#define MB_LEN_MAX 16")                                                              \
    X("#define SCHAR_MIN (-128)")                                                           \
    X("#define SCHAR_MAX 127")                                                              \
    X("#define UCHAR_MAX 255")                                                              \
    X("#define CHAR_MIN SCHAR_MIN")                                                         \
    X("#define CHAR_MAX SCHAR_MAX")                                                         \
    X("#define SHRT_MIN (-32768)")                                                          \
    X("#define SHRT_MAX 32767")                                                             \
    X("#define USHRT_MAX 65535")                                                            \
    X("#define INT_MIN (-INT_MAX - 1)")                                                     \
    X("#define INT_MAX 2147483647")                                                         \
    X("#define UINT_MAX 4294967295U")                                                       \
    X("#define LONG_MIN (-LONG_MAX - 1L)")                                                  \
    X("#define LONG_MAX 9223372036854775807L")                                              \
    X("#define ULONG_MAX 18446744073709551615UL")                                           \
    X("#define LLONG_MIN (-LLONG_MAX - 1LL)")                                               \
    X("#define LLONG_MAX 9223372036854775807LL")                                            \
    X("#define ULLONG_MAX 18446744073709551615ULL")                                         \
    /* stdint.h */                                                                          \
    X("#define INT8_MIN (-128)")                                                            \
    X("#define INT8_MAX 127")                                                               \
    X("#define UINT8_MAX 255")                                                              \
    X("#define INT16_MIN (-32768)")                                                         \
    X("#define INT16_MAX 32767")                                                            \
    X("#define UINT16_MAX 65535")                                                           \
    X("#define INT32_MIN (-INT32_MAX - 1)")                                                 \
    X("#define INT32_MAX 2147483647")                                                       \
    X("#define UINT32_MAX 4294967295U")                                                     \
    X("#define INT64_MIN (-INT64_MAX - 1L)")                                                \
    X("#define INT64_MAX 9223372036854775807L")                                             \
    X("#define UINT64_MAX 18446744073709551615UL")                                          \
    X("#define INT_LEAST8_MIN INT8_MIN")                                                    \
    X("#define INT_LEAST8_MAX INT8_MAX")                                                    \
    X("#define UINT_LEAST8_MAX UINT8_MAX")                                                  \
    X("#define INT_LEAST16_MIN INT16_MIN")                                                  \
    X("#define INT_LEAST16_MAX INT16_MAX")                                                  \
    X("#define UINT_LEAST16_MAX UINT16_MAX")                                                \
    X("#define INT_LEAST32_MIN INT32_MIN")                                                  \
    X("#define INT_LEAST32_MAX INT32_MAX")                                                  \
    X("#define UINT_LEAST32_MAX UINT32_MAX")                                                \
    X("#define INT_LEAST64_MIN INT64_MIN")                                                  \
    X("#define INT_LEAST64_MAX INT64_MAX")                                                  \
    X("#define UINT_LEAST64_MAX UINT64_MAX")                                                \
    X("#define INT_FAST8_MIN INT8_MIN")                                                     \
    X("#define INT_FAST8_MAX INT8_MAX")                                                     \
    X("#define UINT_FAST8_MAX UINT8_MAX")                                                   \
    X("#define INT_FAST16_MIN INT64_MIN")                                                   \
    X("#define INT_FAST16_MAX INT64_MAX")                                                   \
    X("#define UINT_FAST16_MAX UINT64_MAX")                                                 \
    X("#define INT_FAST32_MIN INT64_MIN")                                                   \
    X("#define INT_FAST32_MAX INT64_MAX")                                                   \
    X("#define UINT_FAST32_MAX UINT64_MAX")                                                 \
    X("#define INT_FAST64_MIN INT64_MIN")                                                   \
    X("#define INT_FAST64_MAX INT64_MAX")                                                   \
    X("#define UINT_FAST64_MAX UINT64_MAX")                                                 \
    X("#define INTPTR_MIN INT64_MIN")                                                       \
    X("#define INTPTR_MAX INT64_MAX")                                                       \
    X("#define UINTPTR_MAX UINT64_MAX")                                                     \
    X("#define INTMAX_MIN INT64_MIN")                                                       \
    X("#define INTMAX_MAX INT64_MAX")                                                       \
    X("#define UINTMAX_MAX UINT64_MAX")                                                     \
    X("#define PTRDIFF_MIN INT64_MIN")                                                      \
    X("#define PTRDIFF_MAX INT64_MAX")                                                      \
    X("#define SIZE_MAX UINT64_MAX")                                                        \
    X("#define INT8_C(c) c")                                                                \
    X("#define INT16_C(c) c")                                                               \
    X("#define INT32_C(c) c")                                                               \
    X("#define INT64_C(c) c ## L")                                                          \
    X("#define UINT8_C(c) c")                                                               \
    X("#define UINT16_C(c) c")                                                              \
    X("#define UINT32_C(c) c ## U")                                                         \
    X("#define UINT64_C(c) c ## UL")                                                        \
    X("#define INTMAX_C(c) c ## L")                                                         \
    X("#define UINTMAX_C(c) c ## UL")                                                       \
    /* float.h */                                                                           \
    X("#define FLT_RADIX 2")                                                                \
    X("#define FLT_ROUNDS 1")                                                               \
    X("#define FLT_EVAL_METHOD 0")                                                          \
    X("#define DECIMAL_DIG 21")                                                             \
    X("#define FLT_DECIMAL_DIG 9")                                                          \
    X("#define DBL_DECIMAL_DIG 17")                                                         \
    X("#define FLT_MANT_DIG 24")                                                            \
    X("#define DBL_MANT_DIG 53")                                                            \
    X("#define FLT_DIG 6")                                                                  \
    X("#define DBL_DIG 15")                                                                 \
    X("#define FLT_MIN_EXP (-125)")                                                         \
    X("#define DBL_MIN_EXP (-1021)")                                                        \
    X("#define FLT_MIN_10_EXP (-37)")                                                       \
    X("#define DBL_MIN_10_EXP (-307)")                                                      \
    X("#define FLT_MAX_EXP 128")                                                            \
    X("#define DBL_MAX_EXP 1024")                                                           \
    X("#define FLT_MAX_10_EXP 38")                                                          \
    X("#define DBL_MAX_10_EXP 308")                                                         \
    X("#define FLT_MAX 3.40282346638528859812e+38F")                                        \
    X("#define FLT_MIN 1.17549435082228750797e-38F")                                        \
    X("#define FLT_EPSILON 1.1920928955078125e-07F")                                        \
    X("#define FLT_TRUE_MIN 1.40129846432481707092e-45F")                                   \
    X("#define DBL_MAX 1.79769313486231570815e+308")                                        \
    X("#define DBL_MIN 2.22507385850720138309e-308")                                        \
    X("#define DBL_EPSILON 2.22044604925031308085e-16")                                     \
    X("#define DBL_TRUE_MIN 4.94065645841246544177e-324")                                   \
    /* math.h */                                                                            \
    X("#define INFINITY (1.0f / 0.0f)")                                                     \
    X("#define NAN (-(0.0f / 0.0f))")                                                       \
    X("#define HUGE_VALF INFINITY")                                                         \
    X("#define HUGE_VAL (1.0 / 0.0)")                                                       \
    X("#define M_E 2.7182818284590452354")                                                  \
    X("#define M_LOG2E 1.4426950408889634074")                                              \
    X("#define M_LOG10E 0.43429448190325182765")                                            \
    X("#define M_LN2 0.69314718055994530942")                                               \
    X("#define M_LN10 2.30258509299404568402")                                              \
    X("#define M_PI 3.14159265358979323846")                                                \
    X("#define M_PI_2 1.57079632679489661923")                                              \
    X("#define M_PI_4 0.78539816339744830962")                                              \
    X("#define M_1_PI 0.31830988618379067154")                                              \
    X("#define M_2_PI 0.63661977236758134308")                                              \
    X("#define M_2_SQRTPI 1.12837916709551257390")                                          \
    X("#define M_SQRT2 1.41421356237309504880")                                             \
    X("#define M_SQRT1_2 0.70710678118654752440")                                           \
    /* math_constants.h */                                                                  \
    X("#define CUDART_PI_F 3.141592654f")                                                   \
    X("#define CUDART_PI 3.1415926535897931e+0")                                            \
    X("#define CUDART_PIO2_F 1.570796327f")                                                 \
    X("#define CUDART_PIO2 1.5707963267948966e+0")                                          \
    X("#define CUDART_2_OVER_PI_F 0.636619772f")                                            \
    X("#define CUDART_SQRT_HALF_F 0.707106781f")                                            \
    X("#define CUDART_SQRT_TWO_F 1.414213562f")                                             \
    X("#define CUDART_L2E_F 1.442695041f")                                                  \
    X("#define CUDART_LN2_F 0.693147181f")                                                  \
    X("#define CUDART_LN2 6.9314718055994529e-1")                                           \
    X("#define CUDART_ZERO_F 0.0f")                                                         \
    X("#define CUDART_ONE_F 1.0f")                                                          \
    X("#define CUDART_INF_F INFINITY")                                                      \
    X("#define CUDART_NAN_F NAN")                                                           \
    X("#define CUDART_INF HUGE_VAL")                                                        \
    X("#define CUDART_NAN (-(0.0 / 0.0))")                                                  \
    X("#define CUDART_MAX_NORMAL_F FLT_MAX")                                                \
    X("#define CUDART_MIN_DENORM_F 1.40129846e-45f")

static const char assert_h[] =
    "#undef assert\n"
    "#ifdef NDEBUG\n"
    "#define assert(e) ((void)0)\n"
    "#else\n"
    "#define assert(e) ((e) ? (void)0 : __lat_assert_fail(#e, __FILE__, __LINE__))\n"
    "#endif\n";

#define AS_ELEMENT(line) line,
#define AS_SIZE(line) +sizeof(line)
static const char *const lines[] = {PREDEFINED(AS_ELEMENT)};
/* sizeof counts each line's NUL, which becomes its newline. */
static char joined[1 PREDEFINED(AS_SIZE)];
static pthread_once_t join_once = PTHREAD_ONCE_INIT;

static void join(void)
{
    char *p = joined;
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        size_t k = strlen(lines[i]);
        memcpy(p, lines[i], k);
        p[k] = '\n';
        p += k + 1;
    }
    *p = '\0';
}

const char *lat__front_predefined(void)
{
    pthread_once(&join_once, join);
    return joined;
}

const char *lat__front_assert_h(void)
{
    return assert_h;
}
