/*
 * The parts of libcu++ (NVIDIA's C++ standard library for device code) that kernels
 * include, as the emulator has them: cuda::std's fixed-width integers, numeric_limits of
 * the arithmetic types, swap/pair/min/max, array, and the function objects. What needs
 * partial specialization (<cuda/std/type_traits>) is not here: including it stays an
 * error that says so.
 */
#include "libcuxx_header.h"

#include <string.h>

static const char *const cstdint_h[] = {
    "#ifndef __LAT_CUDA_STD_CSTDINT\n",
    "#define __LAT_CUDA_STD_CSTDINT\n",
    "namespace cuda { namespace std {\n",
    "typedef signed char int8_t; typedef short int16_t; typedef int int32_t; typedef long long int64_t;\n",
    "typedef unsigned char uint8_t; typedef unsigned short uint16_t; typedef unsigned int uint32_t;\n",
    "typedef unsigned long long uint64_t; typedef long intptr_t; typedef unsigned long uintptr_t;\n",
    "typedef long long intmax_t; typedef unsigned long long uintmax_t;\n",
    "typedef unsigned long size_t; typedef long ptrdiff_t;\n",
    "} }\n",
    "#endif\n",
    NULL,
};

#define LIMITS(T, SPEC, DIGITS, MIN, MAX, LOWEST, EPS, INF, NAN_, INTEGER, SIGNED)                           \
    "template <> struct numeric_limits<" T "> {\n",                                                       \
    "    static constexpr bool is_specialized = true;\n",                                                 \
    "    static constexpr bool is_integer = " INTEGER ";\n",                                              \
    "    static constexpr bool is_signed = " SIGNED ";\n",                                                \
    "    static constexpr bool has_infinity = !" INTEGER ";\n",                                           \
    "    static constexpr int digits = " DIGITS ";\n",                                                    \
    "    __host__ __device__ static constexpr " T " min() noexcept { return " MIN "; }\n",                \
    "    __host__ __device__ static constexpr " T " max() noexcept { return " MAX "; }\n",                \
    "    __host__ __device__ static constexpr " T " lowest() noexcept { return " LOWEST "; }\n",          \
    "    __host__ __device__ static constexpr " T " epsilon() noexcept { return " EPS "; }\n",            \
    "    __host__ __device__ static " T " infinity() noexcept { return " INF "; }\n",                     \
    "    __host__ __device__ static " T " quiet_NaN() noexcept { return " NAN_ "; }\n",                   \
    "};\n",

#define ILIMITS(T, DIGITS, MIN, MAX, SIGNED) LIMITS(T, , DIGITS, MIN, MAX, MIN, "0", "0", "0", "true", SIGNED)

static const char *const limits_h[] = {
    "#ifndef __LAT_CUDA_STD_LIMITS\n",
    "#define __LAT_CUDA_STD_LIMITS\n",
    "namespace cuda { namespace std {\n",
    "template <typename T> struct numeric_limits {\n",
    "    static constexpr bool is_specialized = false;\n",
    "};\n",
    LIMITS("float", , "24", "1.17549435e-38F", "3.40282347e+38F", "-3.40282347e+38F", "1.19209290e-7F",
           "__int_as_float(0x7f800000)", "__int_as_float(0x7fffffff)", "false", "true")
    LIMITS("double", , "53", "2.2250738585072014e-308", "1.7976931348623157e+308", "-1.7976931348623157e+308",
           "2.2204460492503131e-16", "__longlong_as_double(0x7ff0000000000000LL)",
           "__longlong_as_double(0x7fffffffffffffffLL)", "false", "true")
    ILIMITS("bool", "1", "false", "true", "false")
    ILIMITS("char", "7", "(-128)", "127", "true")
    ILIMITS("signed char", "7", "(-128)", "127", "true")
    ILIMITS("unsigned char", "8", "0", "255", "false")
    ILIMITS("short", "15", "(-32768)", "32767", "true")
    ILIMITS("unsigned short", "16", "0", "65535", "false")
    ILIMITS("int", "31", "(-2147483647 - 1)", "2147483647", "true")
    ILIMITS("unsigned int", "32", "0u", "4294967295u", "false")
    ILIMITS("long", "63", "(-9223372036854775807L - 1)", "9223372036854775807L", "true")
    ILIMITS("unsigned long", "64", "0ul", "18446744073709551615ul", "false")
    ILIMITS("long long", "63", "(-9223372036854775807LL - 1)", "9223372036854775807LL", "true")
    ILIMITS("unsigned long long", "64", "0ull", "18446744073709551615ull", "false")
    "} }\n",
    "#endif\n",
    NULL,
};

static const char *const utility_h[] = {
    "#ifndef __LAT_CUDA_STD_UTILITY\n",
    "#define __LAT_CUDA_STD_UTILITY\n",
    "namespace cuda { namespace std {\n",
    "template <typename T> __host__ __device__ void swap(T &a, T &b) { T t = a; a = b; b = t; }\n",
    "template <typename T> __host__ __device__ const T &min(const T &a, const T &b) { return b < a ? b : a; }\n",
    "template <typename T> __host__ __device__ const T &max(const T &a, const T &b) { return a < b ? b : a; }\n",
    "template <typename T1, typename T2> struct pair {\n",
    "    T1 first;\n",
    "    T2 second;\n",
    "};\n",
    "template <typename T1, typename T2> __host__ __device__ pair<T1, T2> make_pair(T1 a, T2 b)\n",
    "{ pair<T1, T2> p; p.first = a; p.second = b; return p; }\n",
    "} }\n",
    "#endif\n",
    NULL,
};

static const char *const array_h[] = {
    "#ifndef __LAT_CUDA_STD_ARRAY\n",
    "#define __LAT_CUDA_STD_ARRAY\n",
    "namespace cuda { namespace std {\n",
    "template <typename T, unsigned long N> struct array {\n",
    "    T __elems_[N];\n",
    "    __host__ __device__ T &operator[](unsigned long i) { return __elems_[i]; }\n",
    "    __host__ __device__ const T &operator[](unsigned long i) const { return __elems_[i]; }\n",
    "    __host__ __device__ T &at(unsigned long i) { return __elems_[i]; }\n",
    "    __host__ __device__ T &front() { return __elems_[0]; }\n",
    "    __host__ __device__ T &back() { return __elems_[N - 1]; }\n",
    "    __host__ __device__ T *data() { return __elems_; }\n",
    "    __host__ __device__ T *begin() { return __elems_; }\n",
    "    __host__ __device__ T *end() { return __elems_ + N; }\n",
    "    __host__ __device__ static constexpr unsigned long size() { return N; }\n",
    "    __host__ __device__ static constexpr bool empty() { return N == 0; }\n",
    "    __host__ __device__ void fill(const T &v) { for (unsigned long i = 0; i < N; i++) __elems_[i] = v; }\n",
    "};\n",
    "} }\n",
    "#endif\n",
    NULL,
};

static const char *const functional_h[] = {
    "#ifndef __LAT_CUDA_STD_FUNCTIONAL\n",
    "#define __LAT_CUDA_STD_FUNCTIONAL\n",
    "namespace cuda { namespace std {\n",
    "template <typename T> struct plus { __host__ __device__ T operator()(const T &a, const T &b) const { return a + b; } };\n",
    "template <typename T> struct minus { __host__ __device__ T operator()(const T &a, const T &b) const { return a - b; } };\n",
    "template <typename T> struct multiplies { __host__ __device__ T operator()(const T &a, const T &b) const { return a * b; } };\n",
    "template <typename T> struct less { __host__ __device__ bool operator()(const T &a, const T &b) const { return a < b; } };\n",
    "template <typename T> struct greater { __host__ __device__ bool operator()(const T &a, const T &b) const { return a > b; } };\n",
    "template <typename T> struct equal_to { __host__ __device__ bool operator()(const T &a, const T &b) const { return a == b; } };\n",
    "} }\n",
    "#endif\n",
    NULL,
};

const char *const *lat__libcuxx_header_lines(const char *name)
{
    static const struct {
        const char *name;
        const char *const *lines;
    } headers[] = {
        {"cuda/std/cstdint", cstdint_h}, {"cuda/std/cstddef", cstdint_h}, {"cuda/std/climits", cstdint_h},
        {"cuda/std/limits", limits_h},   {"cuda/std/utility", utility_h}, {"cuda/std/array", array_h},
        {"cuda/std/functional", functional_h},
    };
    for (size_t i = 0; i < sizeof headers / sizeof *headers; i++)
        if (strcmp(name, headers[i].name) == 0)
            return headers[i].lines;
    return NULL;
}
