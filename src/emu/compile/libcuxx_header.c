/*
 * The parts of libcu++ (NVIDIA's C++ standard library for device code) that kernels
 * include, as the emulator has them: cuda::std's fixed-width integers, numeric_limits of
 * the arithmetic types, swap/pair/min/max, array, the function objects and the type
 * traits (also as the standard <type_traits>, in namespace std).
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

#define LIMITS_BODY \
    "template <typename __lat_T> struct numeric_limits {\n", \
    "    static constexpr bool is_specialized = false;\n", \
    "};\n", \
    LIMITS("float", , "24", "1.17549435e-38F", "3.40282347e+38F", "-3.40282347e+38F", "1.19209290e-7F", \
           "__int_as_float(0x7f800000)", "__int_as_float(0x7fffffff)", "false", "true") \
    LIMITS("double", , "53", "2.2250738585072014e-308", "1.7976931348623157e+308", "-1.7976931348623157e+308", \
           "2.2204460492503131e-16", "__longlong_as_double(0x7ff0000000000000LL)", \
           "__longlong_as_double(0x7fffffffffffffffLL)", "false", "true") \
    ILIMITS("bool", "1", "false", "true", "false") \
    ILIMITS("char", "7", "(-128)", "127", "true") \
    ILIMITS("signed char", "7", "(-128)", "127", "true") \
    ILIMITS("unsigned char", "8", "0", "255", "false") \
    ILIMITS("short", "15", "(-32768)", "32767", "true") \
    ILIMITS("unsigned short", "16", "0", "65535", "false") \
    ILIMITS("int", "31", "(-2147483647 - 1)", "2147483647", "true") \
    ILIMITS("unsigned int", "32", "0u", "4294967295u", "false") \
    ILIMITS("long", "63", "(-9223372036854775807L - 1)", "9223372036854775807L", "true") \
    ILIMITS("unsigned long", "64", "0ul", "18446744073709551615ul", "false") \
    ILIMITS("long long", "63", "(-9223372036854775807LL - 1)", "9223372036854775807LL", "true") \
    ILIMITS("unsigned long long", "64", "0ull", "18446744073709551615ull", "false")

static const char *const limits_h[] = {
    "#ifndef __LAT_CUDA_STD_LIMITS\n",
    "#define __LAT_CUDA_STD_LIMITS\n",
    "namespace cuda { namespace std {\n",
    LIMITS_BODY
    "} }\n",
    "#endif\n",
    NULL,
};

static const char *const std_limits_h[] = {
    "#ifndef __LAT_STD_LIMITS\n",
    "#define __LAT_STD_LIMITS\n",
    "namespace std {\n",
    LIMITS_BODY
    "}\n",
    "#endif\n",
    NULL,
};


/* std::forward and std::move: a reference to what they are given (a variadic forwarder's
 * f(std::forward<Args>(args)...)). */
#define FORWARD_MOVE                                                                                          \
    "template <typename __lat_T> struct __lat_unref { typedef __lat_T type; };\n",                                      \
    "template <typename __lat_T> struct __lat_unref<__lat_T &> { typedef __lat_T type; };\n",                                 \
    "template <typename __lat_T> struct __lat_unref<__lat_T &&> { typedef __lat_T type; };\n",                                \
    "template <typename __lat_T> __host__ __device__ __lat_T &&forward(typename __lat_unref<__lat_T>::type &t) noexcept\n",    \
    "{ return static_cast<__lat_T &&>(t); }\n",                                                                   \
    "template <typename __lat_T> __host__ __device__ typename __lat_unref<__lat_T>::type &&move(__lat_T &&t) noexcept\n",      \
    "{ return static_cast<typename __lat_unref<__lat_T>::type &&>(t); }\n",

/* integer_sequence and its index_sequence forms (std::make_index_sequence<N>{} passed to a
 * template deducing size_t... I), in both namespaces. */
#define INTEGER_SEQUENCE                                                                                      \
    "template <typename __lat_T, __lat_T... __lat_I> struct integer_sequence {\n",                                             \
    "    typedef __lat_T value_type;\n",                                                                          \
    "    __host__ __device__ static constexpr unsigned long size() noexcept { return sizeof...(__lat_I); }\n",    \
    "};\n",                                                                                                 \
    "template <unsigned long... __lat_I> using index_sequence = integer_sequence<unsigned long, __lat_I...>;\n",         \
    "template <typename __lat_T, __lat_T __lat_N, __lat_T... __lat_I> struct __lat_make_seq : __lat_make_seq<__lat_T, __lat_N - 1, __lat_N - 1, __lat_I...> {};\n", \
    "template <typename __lat_T, __lat_T... __lat_I> struct __lat_make_seq<__lat_T, 0, __lat_I...> { typedef integer_sequence<__lat_T, __lat_I...> type; };\n", \
    "template <typename __lat_T, __lat_T __lat_N> using make_integer_sequence = typename __lat_make_seq<__lat_T, __lat_N>::type;\n",       \
    "template <unsigned long __lat_N> using make_index_sequence = make_integer_sequence<unsigned long, __lat_N>;\n",     \
    "template <typename... __lat_Ts> using index_sequence_for = make_index_sequence<sizeof...(__lat_Ts)>;\n",

/* std::tuple (<tuple>, <cuda/std/tuple>): a recursive class, its elements value-initialised
 * by the default constructor (one holding references has none, as std::tie's), get<I> by
 * index on const and non-const tuples, make_tuple, tie, tuple_size, tuple_element. Not
 * here: assignment between tuples of other types (std::tie(a, b) = t), comparisons,
 * std::apply, get<T> by type; a structured binding of a tuple is refused. */
#define TUPLE                                                                                                 \
    "template <typename... __lat_Ts> struct tuple;\n",                                                            \
    "template <> struct tuple<> {};\n",                                                                     \
    "template <typename __lat_T, typename... __lat_R> struct tuple<__lat_T, __lat_R...> {\n",                                       \
    "    __lat_T __lat_head;\n",                                                                                  \
    "    tuple<__lat_R...> __lat_tail;\n",                                                                        \
    "    __host__ __device__ tuple() : __lat_head(), __lat_tail() {}\n",                                    \
    "    __host__ __device__ tuple(const __lat_T &h, const __lat_R &... r) : __lat_head(h), __lat_tail(r...) {}\n",     \
    "};\n",                                                                                                 \
    "template <typename __lat_T, typename... __lat_R> struct tuple<__lat_T &, __lat_R...> {\n",                                     \
    "    __lat_T &__lat_head;\n",                                                                                 \
    "    tuple<__lat_R...> __lat_tail;\n",                                                                        \
    "    __host__ __device__ tuple(__lat_T &h, const __lat_R &... r) : __lat_head(h), __lat_tail(r...) {}\n",           \
    "};\n",                                                                                                 \
    "template <typename __lat_T> struct tuple_size;\n",                                                           \
    "template <typename... __lat_Ts> struct tuple_size<tuple<__lat_Ts...>> { static constexpr unsigned long value = sizeof...(__lat_Ts); };\n", \
    "template <unsigned long __lat_I, typename __lat_T> struct tuple_element;\n",                                       \
    "template <typename __lat_T, typename... __lat_R> struct tuple_element<0, tuple<__lat_T, __lat_R...>> { typedef __lat_T type; };\n",  \
    "template <unsigned long __lat_I, typename __lat_T, typename... __lat_R> struct tuple_element<__lat_I, tuple<__lat_T, __lat_R...>>\n",      \
    "    : tuple_element<__lat_I - 1, tuple<__lat_R...>> {};\n",                                                         \
    "template <unsigned long __lat_I> struct __lat_tuple_get {\n",                                                \
    "    template <typename __lat_T, typename... __lat_R> static __host__ __device__\n",                                \
    "    typename tuple_element<__lat_I, tuple<__lat_T, __lat_R...>>::type &get(tuple<__lat_T, __lat_R...> &t) { return __lat_tuple_get<__lat_I - 1>::get(t.__lat_tail); }\n", \
    "    template <typename __lat_T, typename... __lat_R> static __host__ __device__\n",                                \
    "    const typename tuple_element<__lat_I, tuple<__lat_T, __lat_R...>>::type &get(const tuple<__lat_T, __lat_R...> &t) { return __lat_tuple_get<__lat_I - 1>::get(t.__lat_tail); }\n", \
    "};\n",                                                                                                 \
    "template <> struct __lat_tuple_get<0> {\n",                                                            \
    "    template <typename __lat_T, typename... __lat_R> static __host__ __device__ __lat_T &get(tuple<__lat_T, __lat_R...> &t) { return t.__lat_head; }\n", \
    "    template <typename __lat_T, typename... __lat_R> static __host__ __device__ const __lat_T &get(const tuple<__lat_T, __lat_R...> &t) { return t.__lat_head; }\n", \
    "};\n",                                                                                                 \
    "template <unsigned long __lat_I, typename... __lat_Ts> __host__ __device__\n",                                     \
    "typename tuple_element<__lat_I, tuple<__lat_Ts...>>::type &get(tuple<__lat_Ts...> &t) { return __lat_tuple_get<__lat_I>::get(t); }\n", \
    "template <unsigned long __lat_I, typename... __lat_Ts> __host__ __device__\n",                                     \
    "const typename tuple_element<__lat_I, tuple<__lat_Ts...>>::type &get(const tuple<__lat_Ts...> &t) { return __lat_tuple_get<__lat_I>::get(t); }\n", \
    "template <typename... __lat_Ts> __host__ __device__ tuple<__lat_Ts...> make_tuple(__lat_Ts... xs) { return tuple<__lat_Ts...>(xs...); }\n", \
    "template <typename... __lat_Ts> __host__ __device__ tuple<__lat_Ts &...> tie(__lat_Ts &... xs) { return tuple<__lat_Ts &...>(xs...); }\n",

static const char *const std_tuple_h[] = {
    "#ifndef __LAT_STD_TUPLE\n",
    "#define __LAT_STD_TUPLE\n",
    "namespace std {\n",
    TUPLE
    "}\n",
    "#endif\n",
    NULL,
};

static const char *const tuple_h[] = {
    "#ifndef __LAT_CUDA_STD_TUPLE\n",
    "#define __LAT_CUDA_STD_TUPLE\n",
    "namespace cuda { namespace std {\n",
    TUPLE
    "} }\n",
    "#endif\n",
    NULL,
};

/* std::pair and make_pair, in both namespaces. */
#define PAIR                                                                                                  \
    "template <typename __lat_T1, typename __lat_T2> struct pair {\n",                                                 \
    "    typedef __lat_T1 first_type;\n",                                                                        \
    "    typedef __lat_T2 second_type;\n",                                                                       \
    "    __lat_T1 first;\n",                                                                                     \
    "    __lat_T2 second;\n",                                                                                    \
    "    __host__ __device__ pair() : first(), second() {}\n",                                             \
    "    __host__ __device__ pair(const __lat_T1 &a, const __lat_T2 &b) : first(a), second(b) {}\n",                   \
    "};\n",                                                                                                \
    "template <typename __lat_T1, typename __lat_T2> __host__ __device__ pair<__lat_T1, __lat_T2> make_pair(__lat_T1 a, __lat_T2 b)\n",        \
    "{ return pair<__lat_T1, __lat_T2>(a, b); }\n",

static const char *const std_utility_h[] = {
    "#ifndef __LAT_STD_UTILITY\n",
    "#define __LAT_STD_UTILITY\n",
    "namespace std {\n",
    FORWARD_MOVE
    PAIR
    INTEGER_SEQUENCE
    "template <typename __lat_T> __host__ __device__ void swap(__lat_T &a, __lat_T &b) { __lat_T t = a; a = b; b = t; }\n",
    "}\n",
    "#endif\n",
    NULL,
};

/* min and max, and the <algorithm> ones (also with a comparison, clamp): the same lines
 * in cuda::std and, for <algorithm>, in std. */
#define MIN_MAX \
    "template <typename __lat_T> __host__ __device__ const __lat_T &min(const __lat_T &a, const __lat_T &b) { return b < a ? b : a; }\n", \
    "template <typename __lat_T> __host__ __device__ const __lat_T &max(const __lat_T &a, const __lat_T &b) { return a < b ? b : a; }\n",

#define MIN_MAX_CLAMP_WITH_COMPARISON \
    "template <typename __lat_T, typename __lat_C> __host__ __device__ const __lat_T &min(const __lat_T &a, const __lat_T &b, __lat_C c) { return c(b, a) ? b : a; }\n", \
    "template <typename __lat_T, typename __lat_C> __host__ __device__ const __lat_T &max(const __lat_T &a, const __lat_T &b, __lat_C c) { return c(a, b) ? b : a; }\n", \
    "template <typename __lat_T> __host__ __device__ const __lat_T &clamp(const __lat_T &v, const __lat_T &lo, const __lat_T &hi)\n", \
    "{ return v < lo ? lo : hi < v ? hi : v; }\n", \
    "template <typename __lat_T, typename __lat_C> __host__ __device__ const __lat_T &clamp(const __lat_T &v, const __lat_T &lo, const __lat_T &hi, __lat_C c)\n", \
    "{ return c(v, lo) ? lo : c(hi, v) ? hi : v; }\n",

static const char *const utility_h[] = {
    "#ifndef __LAT_CUDA_STD_UTILITY\n",
    "#define __LAT_CUDA_STD_UTILITY\n",
    "namespace cuda { namespace std {\n",
    "template <typename __lat_T> __host__ __device__ void swap(__lat_T &a, __lat_T &b) { __lat_T t = a; a = b; b = t; }\n",
    MIN_MAX
    PAIR
    FORWARD_MOVE
    INTEGER_SEQUENCE
    "} }\n",
    "#endif\n",
    NULL,
};

#define ARRAY_BODY \
    "template <typename __lat_T, unsigned long __lat_N> struct array {\n", \
    "    __lat_T __elems_[__lat_N];\n", \
    "    __host__ __device__ __lat_T &operator[](unsigned long i) { return __elems_[i]; }\n", \
    "    __host__ __device__ const __lat_T &operator[](unsigned long i) const { return __elems_[i]; }\n", \
    "    __host__ __device__ __lat_T &at(unsigned long i) { return __elems_[i]; }\n", \
    "    __host__ __device__ __lat_T &front() { return __elems_[0]; }\n", \
    "    __host__ __device__ __lat_T &back() { return __elems_[__lat_N - 1]; }\n", \
    "    __host__ __device__ __lat_T *data() { return __elems_; }\n", \
    "    __host__ __device__ __lat_T *begin() { return __elems_; }\n", \
    "    __host__ __device__ __lat_T *end() { return __elems_ + __lat_N; }\n", \
    "    __host__ __device__ static constexpr unsigned long size() { return __lat_N; }\n", \
    "    __host__ __device__ static constexpr bool empty() { return __lat_N == 0; }\n", \
    "    __host__ __device__ void fill(const __lat_T &v) { for (unsigned long i = 0; i < __lat_N; i++) __elems_[i] = v; }\n", \
    "};\n",

static const char *const array_h[] = {
    "#ifndef __LAT_CUDA_STD_ARRAY\n",
    "#define __LAT_CUDA_STD_ARRAY\n",
    "namespace cuda { namespace std {\n",
    ARRAY_BODY
    "} }\n",
    "#endif\n",
    NULL,
};

static const char *const std_array_h[] = {
    "#ifndef __LAT_STD_ARRAY\n",
    "#define __LAT_STD_ARRAY\n",
    "namespace std {\n",
    ARRAY_BODY
    "}\n",
    "#endif\n",
    NULL,
};


static const char *const functional_h[] = {
    "#ifndef __LAT_CUDA_STD_FUNCTIONAL\n",
    "#define __LAT_CUDA_STD_FUNCTIONAL\n",
    "namespace cuda { namespace std {\n",
    "template <typename __lat_T> struct plus { __host__ __device__ __lat_T operator()(const __lat_T &a, const __lat_T &b) const { return a + b; } };\n",
    "template <typename __lat_T> struct minus { __host__ __device__ __lat_T operator()(const __lat_T &a, const __lat_T &b) const { return a - b; } };\n",
    "template <typename __lat_T> struct multiplies { __host__ __device__ __lat_T operator()(const __lat_T &a, const __lat_T &b) const { return a * b; } };\n",
    "template <typename __lat_T> struct less { __host__ __device__ bool operator()(const __lat_T &a, const __lat_T &b) const { return a < b; } };\n",
    "template <typename __lat_T> struct greater { __host__ __device__ bool operator()(const __lat_T &a, const __lat_T &b) const { return a > b; } };\n",
    "template <typename __lat_T> struct equal_to { __host__ __device__ bool operator()(const __lat_T &a, const __lat_T &b) const { return a == b; } };\n",
    "} }\n",
    "#endif\n",
    NULL,
};

/* <type_traits>: the traits kernels test (is_same, is_integral, enable_if, conditional,
 * remove_cv...), built on partial specializations and on integral_constant as a base class
 * without data members, as libcu++ builds them; the _t aliases and _v variables too; those
 * that need the compiler (is_class, is_union, is_enum, is_empty, is_array,
 * is_trivially_copyable, is_base_of) on the front end's __is_* intrinsics; common_type
 * through decltype of ?: (its operands of arithmetic or one class type); void_t for the
 * detection idiom (a partial specialization whose arguments do not exist for a type is no
 * match); aligned_storage as libcu++ aligns it by default (the largest of 1, 2, 4, 8, 16
 * not above Len). Not here: is_convertible. decay removes references and qualifiers only (an array or
 * function type is not turned into a pointer). */
#define TYPE_TRAITS_BODY \
"template <typename __lat_T, __lat_T v> struct integral_constant {\n", \
"    static constexpr __lat_T value = v;\n", \
"    typedef __lat_T value_type;\n", \
"    typedef integral_constant type;\n", \
"};\n", \
"typedef integral_constant<bool, true> true_type;\n", \
"typedef integral_constant<bool, false> false_type;\n", \
"template <bool __lat_B> using bool_constant = integral_constant<bool, __lat_B>;\n", \
"template <typename __lat_T, typename __lat_U> struct is_same : false_type {};\n", \
"template <typename __lat_T> struct is_same<__lat_T, __lat_T> : true_type {};\n", \
"template <typename __lat_T> struct remove_const { typedef __lat_T type; };\n", \
"template <typename __lat_T> struct remove_const<const __lat_T> { typedef __lat_T type; };\n", \
"template <typename __lat_T> struct remove_volatile { typedef __lat_T type; };\n", \
"template <typename __lat_T> struct remove_volatile<volatile __lat_T> { typedef __lat_T type; };\n", \
"template <typename __lat_T> struct remove_cv { typedef __lat_T type; };\n", \
"template <typename __lat_T> struct remove_cv<const __lat_T> { typedef __lat_T type; };\n", \
"template <typename __lat_T> struct remove_cv<volatile __lat_T> { typedef __lat_T type; };\n", \
"template <typename __lat_T> struct remove_cv<const volatile __lat_T> { typedef __lat_T type; };\n", \
"template <typename __lat_T> struct remove_reference { typedef __lat_T type; };\n", \
"template <typename __lat_T> struct remove_reference<__lat_T &> { typedef __lat_T type; };\n", \
"template <typename __lat_T> struct remove_reference<__lat_T &&> { typedef __lat_T type; };\n", \
"template <typename __lat_T> struct remove_cvref { typedef typename remove_cv<typename remove_reference<__lat_T>::type>::type type; };\n", \
"template <typename __lat_T> struct decay { typedef typename remove_cv<typename remove_reference<__lat_T>::type>::type type; };\n", \
"template <typename __lat_T> struct remove_pointer { typedef __lat_T type; };\n", \
"template <typename __lat_T> struct remove_pointer<__lat_T *> { typedef __lat_T type; };\n", \
"template <typename __lat_T> struct remove_pointer<__lat_T *const> { typedef __lat_T type; };\n", \
"template <typename __lat_T> struct remove_pointer<__lat_T *volatile> { typedef __lat_T type; };\n", \
"template <typename __lat_T> struct remove_pointer<__lat_T *const volatile> { typedef __lat_T type; };\n", \
"template <typename __lat_T> struct add_const { typedef const __lat_T type; };\n", \
"template <typename __lat_T> struct add_volatile { typedef volatile __lat_T type; };\n", \
"template <typename __lat_T> struct add_cv { typedef const volatile __lat_T type; };\n", \
"template <typename __lat_T> struct add_pointer { typedef typename remove_reference<__lat_T>::type *type; };\n", \
"template <typename __lat_T> struct add_lvalue_reference { typedef __lat_T &type; };\n", \
"template <typename __lat_T> struct type_identity { typedef __lat_T type; };\n", \
"template <bool __lat_B, typename __lat_T = void> struct enable_if {};\n", \
"template <typename __lat_T> struct enable_if<true, __lat_T> { typedef __lat_T type; };\n", \
"template <bool __lat_B, typename __lat_T, typename __lat_F> struct conditional { typedef __lat_T type; };\n", \
"template <typename __lat_T, typename __lat_F> struct conditional<false, __lat_T, __lat_F> { typedef __lat_F type; };\n", \
"template <typename... __lat_Ts> struct common_type {};\n", \
"template <typename __lat_T> struct common_type<__lat_T> { typedef typename decay<__lat_T>::type type; };\n", \
"template <typename __lat_T, typename __lat_U> struct common_type<__lat_T, __lat_U> {\n", \
"    typedef typename decay<decltype(true ? typename decay<__lat_T>::type() : typename decay<__lat_U>::type())>::type type;\n", \
"};\n", \
"template <typename __lat_T, typename __lat_U, typename... __lat_R> struct common_type<__lat_T, __lat_U, __lat_R...> {\n", \
"    typedef typename common_type<typename common_type<__lat_T, __lat_U>::type, __lat_R...>::type type;\n", \
"};\n", \
"template <typename __lat_T> struct is_const : false_type {};\n", \
"template <typename __lat_T> struct is_const<const __lat_T> : true_type {};\n", \
"template <typename __lat_T> struct is_volatile : false_type {};\n", \
"template <typename __lat_T> struct is_volatile<volatile __lat_T> : true_type {};\n", \
"template <typename __lat_T> struct is_pointer : false_type {};\n", \
"template <typename __lat_T> struct is_pointer<__lat_T *> : true_type {};\n", \
"template <typename __lat_T> struct is_pointer<__lat_T *const> : true_type {};\n", \
"template <typename __lat_T> struct is_pointer<__lat_T *volatile> : true_type {};\n", \
"template <typename __lat_T> struct is_pointer<__lat_T *const volatile> : true_type {};\n", \
"template <typename __lat_T> struct is_lvalue_reference : false_type {};\n", \
"template <typename __lat_T> struct is_lvalue_reference<__lat_T &> : true_type {};\n", \
"template <typename __lat_T> struct is_rvalue_reference : false_type {};\n", \
"template <typename __lat_T> struct is_rvalue_reference<__lat_T &&> : true_type {};\n", \
"template <typename __lat_T> struct is_reference : false_type {};\n", \
"template <typename __lat_T> struct is_reference<__lat_T &> : true_type {};\n", \
"template <typename __lat_T> struct is_reference<__lat_T &&> : true_type {};\n", \
"template <typename __lat_T> struct is_void : is_same<void, typename remove_cv<__lat_T>::type> {};\n", \
"template <typename __lat_T> struct __lat_integral : false_type {};\n", \
"template <> struct __lat_integral<bool> : true_type {};\n", \
"template <> struct __lat_integral<char> : true_type {};\n", \
"template <> struct __lat_integral<signed char> : true_type {};\n", \
"template <> struct __lat_integral<unsigned char> : true_type {};\n", \
"template <> struct __lat_integral<short> : true_type {};\n", \
"template <> struct __lat_integral<unsigned short> : true_type {};\n", \
"template <> struct __lat_integral<int> : true_type {};\n", \
"template <> struct __lat_integral<unsigned int> : true_type {};\n", \
"template <> struct __lat_integral<long> : true_type {};\n", \
"template <> struct __lat_integral<unsigned long> : true_type {};\n", \
"template <> struct __lat_integral<long long> : true_type {};\n", \
"template <> struct __lat_integral<unsigned long long> : true_type {};\n", \
"template <typename __lat_T> struct is_integral : __lat_integral<typename remove_cv<__lat_T>::type> {};\n", \
"template <typename __lat_T> struct __lat_floating : false_type {};\n", \
"template <> struct __lat_floating<float> : true_type {};\n", \
"template <> struct __lat_floating<double> : true_type {};\n", \
"template <> struct __lat_floating<long double> : true_type {};\n", \
"template <typename __lat_T> struct is_floating_point : __lat_floating<typename remove_cv<__lat_T>::type> {};\n", \
"template <typename __lat_T> struct is_arithmetic : bool_constant<is_integral<__lat_T>::value || is_floating_point<__lat_T>::value> {};\n", \
"template <typename __lat_T> struct is_scalar : bool_constant<is_arithmetic<__lat_T>::value || is_pointer<__lat_T>::value> {};\n", \
"template <typename __lat_T, bool = is_arithmetic<__lat_T>::value> struct __lat_signed : false_type {};\n", \
"template <typename __lat_T> struct __lat_signed<__lat_T, true> : bool_constant<(__lat_T(-1) < __lat_T(0))> {};\n", \
"template <typename __lat_T, bool = is_arithmetic<__lat_T>::value> struct __lat_unsigned : false_type {};\n", \
"template <typename __lat_T> struct __lat_unsigned<__lat_T, true> : bool_constant<(__lat_T(0) < __lat_T(-1))> {};\n", \
"template <typename __lat_T> struct is_signed : __lat_signed<typename remove_cv<__lat_T>::type> {};\n", \
"template <typename __lat_T> struct is_unsigned : __lat_unsigned<typename remove_cv<__lat_T>::type> {};\n", \
"template <typename __lat_T> struct make_unsigned;\n", \
"template <> struct make_unsigned<char> { typedef unsigned char type; };\n", \
"template <> struct make_unsigned<signed char> { typedef unsigned char type; };\n", \
"template <> struct make_unsigned<unsigned char> { typedef unsigned char type; };\n", \
"template <> struct make_unsigned<short> { typedef unsigned short type; };\n", \
"template <> struct make_unsigned<unsigned short> { typedef unsigned short type; };\n", \
"template <> struct make_unsigned<int> { typedef unsigned int type; };\n", \
"template <> struct make_unsigned<unsigned int> { typedef unsigned int type; };\n", \
"template <> struct make_unsigned<long> { typedef unsigned long type; };\n", \
"template <> struct make_unsigned<unsigned long> { typedef unsigned long type; };\n", \
"template <> struct make_unsigned<long long> { typedef unsigned long long type; };\n", \
"template <> struct make_unsigned<unsigned long long> { typedef unsigned long long type; };\n", \
"template <typename __lat_T> struct make_signed;\n", \
"template <> struct make_signed<char> { typedef signed char type; };\n", \
"template <> struct make_signed<signed char> { typedef signed char type; };\n", \
"template <> struct make_signed<unsigned char> { typedef signed char type; };\n", \
"template <> struct make_signed<short> { typedef short type; };\n", \
"template <> struct make_signed<unsigned short> { typedef short type; };\n", \
"template <> struct make_signed<int> { typedef int type; };\n", \
"template <> struct make_signed<unsigned int> { typedef int type; };\n", \
"template <> struct make_signed<long> { typedef long type; };\n", \
"template <> struct make_signed<unsigned long> { typedef long type; };\n", \
"template <> struct make_signed<long long> { typedef long long type; };\n", \
"template <> struct make_signed<unsigned long long> { typedef long long type; };\n", \
"template <typename __lat_T> using remove_const_t = typename remove_const<__lat_T>::type;\n", \
"template <typename __lat_T> using remove_volatile_t = typename remove_volatile<__lat_T>::type;\n", \
"template <typename __lat_T> using remove_cv_t = typename remove_cv<__lat_T>::type;\n", \
"template <typename __lat_T> using remove_reference_t = typename remove_reference<__lat_T>::type;\n", \
"template <typename __lat_T> using remove_cvref_t = typename remove_cvref<__lat_T>::type;\n", \
"template <typename __lat_T> using remove_pointer_t = typename remove_pointer<__lat_T>::type;\n", \
"template <typename __lat_T> using decay_t = typename decay<__lat_T>::type;\n", \
"template <typename __lat_T> using add_const_t = typename add_const<__lat_T>::type;\n", \
"template <typename __lat_T> using add_pointer_t = typename add_pointer<__lat_T>::type;\n", \
"template <typename __lat_T> using type_identity_t = typename type_identity<__lat_T>::type;\n", \
"template <typename __lat_T> using make_unsigned_t = typename make_unsigned<__lat_T>::type;\n", \
"template <typename __lat_T> using make_signed_t = typename make_signed<__lat_T>::type;\n", \
"template <bool __lat_B, typename __lat_T = void> using enable_if_t = typename enable_if<__lat_B, __lat_T>::type;\n", \
"template <bool __lat_B, typename __lat_T, typename __lat_F> using conditional_t = typename conditional<__lat_B, __lat_T, __lat_F>::type;\n", \
"template <typename... __lat_Ts> using common_type_t = typename common_type<__lat_Ts...>::type;\n", \
"template <typename __lat_T, typename __lat_U> constexpr bool is_same_v = is_same<__lat_T, __lat_U>::value;\n", \
"template <typename __lat_T> constexpr bool is_const_v = is_const<__lat_T>::value;\n", \
"template <typename __lat_T> constexpr bool is_volatile_v = is_volatile<__lat_T>::value;\n", \
"template <typename __lat_T> constexpr bool is_pointer_v = is_pointer<__lat_T>::value;\n", \
"template <typename __lat_T> constexpr bool is_reference_v = is_reference<__lat_T>::value;\n", \
"template <typename __lat_T> constexpr bool is_lvalue_reference_v = is_lvalue_reference<__lat_T>::value;\n", \
"template <typename __lat_T> constexpr bool is_rvalue_reference_v = is_rvalue_reference<__lat_T>::value;\n", \
"template <typename __lat_T> constexpr bool is_void_v = is_void<__lat_T>::value;\n", \
"template <typename __lat_T> constexpr bool is_integral_v = is_integral<__lat_T>::value;\n", \
"template <typename __lat_T> constexpr bool is_floating_point_v = is_floating_point<__lat_T>::value;\n", \
"template <typename __lat_T> constexpr bool is_arithmetic_v = is_arithmetic<__lat_T>::value;\n", \
"template <typename __lat_T> constexpr bool is_scalar_v = is_scalar<__lat_T>::value;\n", \
"template <typename __lat_T> constexpr bool is_signed_v = is_signed<__lat_T>::value;\n", \
"template <typename __lat_T> constexpr bool is_unsigned_v = is_unsigned<__lat_T>::value;\n", \
"template <typename __lat_T> struct is_class : bool_constant<__is_class(__lat_T)> {};\n", \
"template <typename __lat_T> struct is_union : bool_constant<__is_union(__lat_T)> {};\n", \
"template <typename __lat_T> struct is_enum : bool_constant<__is_enum(__lat_T)> {};\n", \
"template <typename __lat_T> struct is_empty : bool_constant<__is_empty(__lat_T)> {};\n", \
"template <typename __lat_T> struct is_array : bool_constant<__is_array(__lat_T)> {};\n", \
"template <typename __lat_T> struct is_trivially_copyable : bool_constant<__is_trivially_copyable(__lat_T)> {};\n", \
"template <typename __lat_B, typename __lat_D> struct is_base_of : bool_constant<__is_base_of(__lat_B, __lat_D)> {};\n", \
"template <typename __lat_T, bool = __is_enum(__lat_T)> struct underlying_type {};\n", \
"template <typename __lat_T> struct underlying_type<__lat_T, true> { typedef __underlying_type(__lat_T) type; };\n", \
"template <typename __lat_T> using underlying_type_t = typename underlying_type<__lat_T>::type;\n", \
"template <typename __lat_T> constexpr bool is_class_v = is_class<__lat_T>::value;\n", \
"template <typename __lat_T> constexpr bool is_union_v = is_union<__lat_T>::value;\n", \
"template <typename __lat_T> constexpr bool is_enum_v = is_enum<__lat_T>::value;\n", \
"template <typename __lat_T> constexpr bool is_empty_v = is_empty<__lat_T>::value;\n", \
"template <typename __lat_T> constexpr bool is_array_v = is_array<__lat_T>::value;\n", \
"template <typename __lat_T> constexpr bool is_trivially_copyable_v = is_trivially_copyable<__lat_T>::value;\n", \
"template <typename __lat_B, typename __lat_D> constexpr bool is_base_of_v = is_base_of<__lat_B, __lat_D>::value;\n", \
"template <typename... __lat_Ts> using void_t = void;\n", \
"template <typename __lat_T> __lat_T &&declval() noexcept;\n", \
"template <typename __lat_T> struct is_fundamental : bool_constant<is_arithmetic<__lat_T>::value || is_void<__lat_T>::value> {};\n", \
"template <typename __lat_T> constexpr bool is_fundamental_v = is_fundamental<__lat_T>::value;\n", \
"template <typename __lat_T> struct alignment_of : integral_constant<unsigned long, alignof(__lat_T)> {};\n", \
"template <typename __lat_T> constexpr unsigned long alignment_of_v = alignment_of<__lat_T>::value;\n", \
"template <unsigned long __lat_Len> struct __lat_max_align {\n", \
"    static constexpr unsigned long value = __lat_Len >= 16 ? 16 : __lat_Len >= 8 ? 8 : __lat_Len >= 4 ? 4 : __lat_Len >= 2 ? 2 : 1;\n", \
"};\n", \
"template <unsigned long __lat_Len, unsigned long __lat_Align = __lat_max_align<__lat_Len>::value> struct aligned_storage {\n", \
"    struct type { alignas(__lat_Align) unsigned char __data[(__lat_Len + __lat_Align - 1) / __lat_Align * __lat_Align]; };\n", \
"};\n", \
"template <unsigned long __lat_Len, unsigned long __lat_Align = __lat_max_align<__lat_Len>::value>\n", \
"using aligned_storage_t = typename aligned_storage<__lat_Len, __lat_Align>::type;\n", \
"template <typename... __lat_B> struct conjunction : true_type {};\n", \
"template <typename __lat_B1> struct conjunction<__lat_B1> : bool_constant<__lat_B1::value> {};\n", \
"template <typename __lat_B1, typename... __lat_Bn> struct conjunction<__lat_B1, __lat_Bn...> : bool_constant<__lat_B1::value && conjunction<__lat_Bn...>::value> {};\n", \
"template <typename... __lat_B> struct disjunction : false_type {};\n", \
"template <typename __lat_B1> struct disjunction<__lat_B1> : bool_constant<__lat_B1::value> {};\n", \
"template <typename __lat_B1, typename... __lat_Bn> struct disjunction<__lat_B1, __lat_Bn...> : bool_constant<__lat_B1::value || disjunction<__lat_Bn...>::value> {};\n", \
"template <typename __lat_B> struct negation : bool_constant<!__lat_B::value> {};\n", \
"template <typename... __lat_B> constexpr bool conjunction_v = conjunction<__lat_B...>::value;\n", \
"template <typename... __lat_B> constexpr bool disjunction_v = disjunction<__lat_B...>::value;\n", \
"template <typename __lat_B> constexpr bool negation_v = negation<__lat_B>::value;\n", \
"template <typename __lat_T> struct remove_extent { typedef __lat_T type; };\n", \
"template <typename __lat_T> struct remove_extent<__lat_T[]> { typedef __lat_T type; };\n", \
"template <typename __lat_T, unsigned long __lat_N> struct remove_extent<__lat_T[__lat_N]> { typedef __lat_T type; };\n", \
"template <typename __lat_T> struct remove_all_extents { typedef __lat_T type; };\n", \
"template <typename __lat_T> struct remove_all_extents<__lat_T[]> { typedef typename remove_all_extents<__lat_T>::type type; };\n", \
"template <typename __lat_T, unsigned long __lat_N> struct remove_all_extents<__lat_T[__lat_N]> { typedef typename remove_all_extents<__lat_T>::type type; };\n", \
"template <typename __lat_T> using remove_extent_t = typename remove_extent<__lat_T>::type;\n", \
"template <typename __lat_T> using remove_all_extents_t = typename remove_all_extents<__lat_T>::type;\n", \
"template <typename __lat_T> struct rank : integral_constant<unsigned long, 0> {};\n", \
"template <typename __lat_T> struct rank<__lat_T[]> : integral_constant<unsigned long, rank<__lat_T>::value + 1> {};\n", \
"template <typename __lat_T, unsigned long __lat_N> struct rank<__lat_T[__lat_N]> : integral_constant<unsigned long, rank<__lat_T>::value + 1> {};\n", \
"template <typename __lat_T, unsigned __lat_I = 0> struct extent : integral_constant<unsigned long, 0> {};\n", \
"template <typename __lat_T> struct extent<__lat_T[], 0> : integral_constant<unsigned long, 0> {};\n", \
"template <typename __lat_T, unsigned __lat_I> struct extent<__lat_T[], __lat_I> : extent<__lat_T, __lat_I - 1> {};\n", \
"template <typename __lat_T, unsigned long __lat_N> struct extent<__lat_T[__lat_N], 0> : integral_constant<unsigned long, __lat_N> {};\n", \
"template <typename __lat_T, unsigned __lat_I, unsigned long __lat_N> struct extent<__lat_T[__lat_N], __lat_I> : extent<__lat_T, __lat_I - 1> {};\n", \
"template <typename __lat_T> constexpr unsigned long rank_v = rank<__lat_T>::value;\n", \
"template <typename __lat_T, unsigned __lat_I = 0> constexpr unsigned long extent_v = extent<__lat_T, __lat_I>::value;\n",

static const char *const cuda_type_traits_h[] = {
    "#ifndef __LAT_CUDA_STD_TYPE_TRAITS\n",
    "#define __LAT_CUDA_STD_TYPE_TRAITS\n",
    "namespace cuda { namespace std {\n",
    TYPE_TRAITS_BODY
    "} }\n",
    "#endif\n",
    NULL,
};

static const char *const std_type_traits_h[] = {
    "#ifndef __LAT_STD_TYPE_TRAITS\n",
    "#define __LAT_STD_TYPE_TRAITS\n",
    "namespace std {\n",
    TYPE_TRAITS_BODY
    "}\n",
    "#endif\n",
    NULL,
};

/* <cuda/std/cmath>: the math functions are built-ins, which cuda::std:: finds (front end);
 * <cuda/std/cassert> and <cuda/std/cfloat>: assert and the FLT_ and DBL_ macros are too. */
static const char *const cmath_h[] = {
    "#ifndef __LAT_CUDA_STD_CMATH\n",
    "#define __LAT_CUDA_STD_CMATH\n",
    "namespace cuda { namespace std { } }\n",
    "#endif\n",
    NULL,
};

static const char *const cassert_h[] = {"#include <cassert>\n", NULL};

/* <cuda/std/bit>: the counts on the integer built-ins (an unsigned type's bits), bit_cast
 * by memcpy, endian (the emulator's hosts are little-endian, as every GPU is). */
static const char *const bit_h[] = {
    "#ifndef __LAT_CUDA_STD_BIT\n",
    "#define __LAT_CUDA_STD_BIT\n",
    "namespace cuda { namespace std {\n",
    "enum class endian { little = 1234, big = 4321, native = little };\n",
    "template <typename __lat_To, typename __lat_From> __host__ __device__ __lat_To bit_cast(const __lat_From &f) noexcept\n",
    "{\n",
    "    static_assert(sizeof(__lat_To) == sizeof(__lat_From), \"bit_cast between types of different sizes\");\n",
    "    __lat_To t;\n",
    "    memcpy(&t, &f, sizeof t);\n",
    "    return t;\n",
    "}\n",
    "template <typename __lat_T> __host__ __device__ int popcount(__lat_T x) noexcept\n",
    "{ return sizeof(__lat_T) <= 4 ? __popc((unsigned)x) : __popcll((unsigned long long)x); }\n",
    "template <typename __lat_T> __host__ __device__ int countl_zero(__lat_T x) noexcept\n",
    "{\n",
    "    return sizeof(__lat_T) <= 4 ? __clz((int)(unsigned)x) - (32 - 8 * (int)sizeof(__lat_T))\n",
    "                                : __clzll((long long)x);\n",
    "}\n",
    "template <typename __lat_T> __host__ __device__ int countr_zero(__lat_T x) noexcept\n",
    "{ return x == 0 ? 8 * (int)sizeof(__lat_T) : __ffsll((long long)(unsigned long long)x) - 1; }\n",
    "template <typename __lat_T> __host__ __device__ int countl_one(__lat_T x) noexcept\n",
    "{ return countl_zero((__lat_T)~x); }\n",
    "template <typename __lat_T> __host__ __device__ int countr_one(__lat_T x) noexcept\n",
    "{ return countr_zero((__lat_T)~x); }\n",
    "template <typename __lat_T> __host__ __device__ int bit_width(__lat_T x) noexcept\n",
    "{ return 8 * (int)sizeof(__lat_T) - countl_zero(x); }\n",
    "template <typename __lat_T> __host__ __device__ bool has_single_bit(__lat_T x) noexcept\n",
    "{ return x != 0 && (x & (__lat_T)(x - 1)) == 0; }\n",
    "template <typename __lat_T> __host__ __device__ __lat_T bit_floor(__lat_T x) noexcept\n",
    "{ return x == 0 ? (__lat_T)0 : (__lat_T)((__lat_T)1 << (bit_width(x) - 1)); }\n",
    "template <typename __lat_T> __host__ __device__ __lat_T bit_ceil(__lat_T x) noexcept\n",
    "{ return x <= 1 ? (__lat_T)1 : (__lat_T)((__lat_T)1 << bit_width((__lat_T)(x - 1))); }\n",
    "template <typename __lat_T> __host__ __device__ __lat_T rotl(__lat_T x, int s) noexcept\n",
    "{\n",
    "    const int n = 8 * (int)sizeof(__lat_T);\n",
    "    int r = s % n;\n",
    "    if (r < 0) r += n;\n",
    "    return r == 0 ? x : (__lat_T)((x << r) | (x >> (n - r)));\n",
    "}\n",
    "template <typename __lat_T> __host__ __device__ __lat_T rotr(__lat_T x, int s) noexcept\n",
    "{ return rotl(x, -(s % (8 * (int)sizeof(__lat_T)))); }\n",
    "} }\n",
    "#endif\n",
    NULL,
};

/* <cuda/std/span>: a pointer and a count; a static extent is a template argument only (the
 * count is kept either way). Not here: the constructors from an array or a container (the
 * front end has no constructor templates yet). */
static const char *const span_h[] = {
    "#ifndef __LAT_CUDA_STD_SPAN\n",
    "#define __LAT_CUDA_STD_SPAN\n",
    "namespace cuda { namespace std {\n",
    "constexpr unsigned long dynamic_extent = (unsigned long)-1;\n",
    "template <typename __lat_T, unsigned long __lat_E = dynamic_extent> class span {\n",
    "public:\n",
    "    typedef __lat_T element_type;\n",
    "    typedef unsigned long size_type;\n",
    "    typedef __lat_T *pointer;\n",
    "    typedef __lat_T &reference;\n",
    "    typedef __lat_T *iterator;\n",
    "    static constexpr unsigned long extent = __lat_E;\n",
    "    __lat_T *__lat_p;\n",
    "    unsigned long __lat_n;\n",
    "    __host__ __device__ span() : __lat_p(nullptr), __lat_n(0) {}\n",
    "    __host__ __device__ span(__lat_T *p, unsigned long n) : __lat_p(p), __lat_n(n) {}\n",
    "    __host__ __device__ span(__lat_T *first, __lat_T *last) : __lat_p(first), __lat_n((unsigned long)(last - first)) {}\n",
    "    __host__ __device__ __lat_T *data() const { return __lat_p; }\n",
    "    __host__ __device__ unsigned long size() const { return __lat_n; }\n",
    "    __host__ __device__ unsigned long size_bytes() const { return __lat_n * sizeof(__lat_T); }\n",
    "    __host__ __device__ bool empty() const { return __lat_n == 0; }\n",
    "    __host__ __device__ __lat_T &operator[](unsigned long i) const { return __lat_p[i]; }\n",
    "    __host__ __device__ __lat_T &front() const { return __lat_p[0]; }\n",
    "    __host__ __device__ __lat_T &back() const { return __lat_p[__lat_n - 1]; }\n",
    "    __host__ __device__ __lat_T *begin() const { return __lat_p; }\n",
    "    __host__ __device__ __lat_T *end() const { return __lat_p + __lat_n; }\n",
    "    __host__ __device__ span<__lat_T> first(unsigned long c) const { return span<__lat_T>(__lat_p, c); }\n",
    "    __host__ __device__ span<__lat_T> last(unsigned long c) const { return span<__lat_T>(__lat_p + __lat_n - c, c); }\n",
    "    __host__ __device__ span<__lat_T> subspan(unsigned long off, unsigned long c = dynamic_extent) const\n",
    "    { return span<__lat_T>(__lat_p + off, c == dynamic_extent ? __lat_n - off : c); }\n",
    "};\n",
    "} }\n",
    "#endif\n",
    NULL,
};

/* <cuda/std/algorithm>: min and max (also with a comparison), clamp, swap. */
static const char *const algorithm_h[] = {
    "#ifndef __LAT_CUDA_STD_ALGORITHM\n",
    "#define __LAT_CUDA_STD_ALGORITHM\n",
    "#include <cuda/std/utility>\n",
    "namespace cuda { namespace std {\n",
    MIN_MAX_CLAMP_WITH_COMPARISON
    "} }\n",
    "#endif\n",
    NULL,
};

/* <algorithm>: what device code calls of it (min, max, clamp; <utility>'s swap), as
 * <cuda/std/algorithm> has them; nvcc's programs include it beside their kernels. */
static const char *const std_algorithm_h[] = {
    "#ifndef __LAT_STD_ALGORITHM\n",
    "#define __LAT_STD_ALGORITHM\n",
    "#include <utility>\n",
    "namespace std {\n",
    MIN_MAX
    MIN_MAX_CLAMP_WITH_COMPARISON
    "}\n",
    "#endif\n",
    NULL,
};

/* <cuda/std/complex>: pycuda-complex.hpp's class (src/core/pycuda_complex.c), the one
 * complex class template the emulator has, under cuda::std's names; the functions of
 * complex arguments forward to its, and the real overloads of the names they share
 * (sqrt(double)...) are the built-ins, as libcu++'s <cuda/std/cmath> has them. */
#define CX_FN(R, NAME) \
    "template <typename __lat_T> __host__ __device__ " R " " NAME "(const complex<__lat_T> &z) { return pycuda::" NAME "(z); }\n",
#define CX_HELP(NAME) \
    "__host__ __device__ inline float __lat_" NAME "_f(float x) { return " NAME "f(x); }\n", \
    "__host__ __device__ inline double __lat_" NAME "_d(double x) { return " NAME "(x); }\n",
#define CX_REAL(NAME) \
    "__host__ __device__ inline float " NAME "(float x) { return __lat_" NAME "_f(x); }\n", \
    "__host__ __device__ inline double " NAME "(double x) { return __lat_" NAME "_d(x); }\n",
static const char *const complex_h[] = {
    "#ifndef __LAT_CUDA_STD_COMPLEX\n",
    "#define __LAT_CUDA_STD_COMPLEX\n",
    "#include <pycuda-complex.hpp>\n",
    "namespace cuda { namespace std {\n",
    /* the built-ins, named before cuda::std's functions of their names hide them */
    CX_HELP("exp") CX_HELP("log") CX_HELP("log10") CX_HELP("sqrt") CX_HELP("sin") CX_HELP("cos")
    CX_HELP("tan") CX_HELP("sinh") CX_HELP("cosh") CX_HELP("tanh") CX_HELP("fabs")
    "__host__ __device__ inline int __lat_abs_i(int x) { return x < 0 ? -x : x; }\n",
    "__host__ __device__ inline float __lat_pow_f(float x, float y) { return powf(x, y); }\n",
    "__host__ __device__ inline double __lat_pow_d(double x, double y) { return pow(x, y); }\n",
    "using pycuda::complex;\n",
    CX_REAL("exp") CX_REAL("log") CX_REAL("log10") CX_REAL("sqrt") CX_REAL("sin") CX_REAL("cos")
    CX_REAL("tan") CX_REAL("sinh") CX_REAL("cosh") CX_REAL("tanh")
    "__host__ __device__ inline float abs(float x) { return __lat_fabs_f(x); }\n",
    "__host__ __device__ inline double abs(double x) { return __lat_fabs_d(x); }\n",
    "__host__ __device__ inline int abs(int x) { return __lat_abs_i(x); }\n",
    "__host__ __device__ inline float pow(float x, float y) { return __lat_pow_f(x, y); }\n",
    "__host__ __device__ inline double pow(double x, double y) { return __lat_pow_d(x, y); }\n",
    CX_FN("__lat_T", "real") CX_FN("__lat_T", "imag") CX_FN("__lat_T", "abs") CX_FN("__lat_T", "arg")
    CX_FN("__lat_T", "norm") CX_FN("complex<__lat_T>", "conj") CX_FN("complex<__lat_T>", "exp")
    CX_FN("complex<__lat_T>", "log") CX_FN("complex<__lat_T>", "log10") CX_FN("complex<__lat_T>", "sqrt")
    CX_FN("complex<__lat_T>", "sin") CX_FN("complex<__lat_T>", "cos") CX_FN("complex<__lat_T>", "tan")
    CX_FN("complex<__lat_T>", "sinh") CX_FN("complex<__lat_T>", "cosh") CX_FN("complex<__lat_T>", "tanh")
    "template <typename __lat_T> __host__ __device__ complex<__lat_T> polar(const __lat_T &r, const __lat_T &t = __lat_T())\n",
    "{ return pycuda::polar(r, t); }\n",
    "template <typename __lat_T> __host__ __device__ complex<__lat_T> pow(const complex<__lat_T> &a, const complex<__lat_T> &b)\n",
    "{ return pycuda::pow(a, b); }\n",
    "template <typename __lat_T> __host__ __device__ complex<__lat_T> pow(const complex<__lat_T> &a, const __lat_T &b)\n",
    "{ return pycuda::pow(a, b); }\n",
    "} }\n",
    "#endif\n",
    NULL,
};
#undef CX_FN
#undef CX_HELP
#undef CX_REAL

/* <cuda/std/atomic> and <cuda/atomic>: atomic_ref and atomic of 4- and 8-byte types over the
 * built-in atomics (atomicAdd, atomicMin... where CUDA has the type's overload, else an
 * atomicCAS loop on the bits, as libcu++ does for floats' fetch_min). Every order and
 * scope runs as the emulator's atomics do (sequentially consistent, device-wide), which
 * is at least what each asks for; load is an atomicCAS that writes back what it read, so
 * that the checks see an atomic, and a thread spinning on it lets the others run. The
 * operations only integers have are member templates: C++ makes a class template's
 * members only when used, the emulator when the class is made. */
#define ATOMIC_MEMBERS \
    "\n", \
    "    static_assert(sizeof(__lat_T) == 4 || sizeof(__lat_T) == 8, \"the emulator's atomic_ref and atomic hold 4- or 8-byte types\");\n", \
    "    __device__ __lat_T load(memory_order = memory_order_seq_cst) const\n", \
    "    { return __lat_atomic_cas(__lat_p(), __lat_T(), __lat_T()); }\n", \
    "    __device__ operator __lat_T() const { return load(); }\n", \
    "    __device__ void store(__lat_T v, memory_order = memory_order_seq_cst) const\n", \
    "    { exchange(v); }\n", \
    "    __device__ __lat_T exchange(__lat_T v, memory_order = memory_order_seq_cst) const\n", \
    "    {\n", \
    "        typedef typename __lat_bits_of<sizeof(__lat_T)>::type __lat_B;\n", \
    "        return __lat_from_bits<__lat_T>(atomicExch((__lat_B *)__lat_p(), __lat_to_bits(v)));\n", \
    "    }\n", \
    "    __device__ bool compare_exchange_strong(__lat_T &expected, __lat_T desired, memory_order = memory_order_seq_cst) const\n", \
    "    {\n", \
    "        __lat_T old = __lat_atomic_cas(__lat_p(), expected, desired);\n", \
    "        bool ok = __lat_to_bits(old) == __lat_to_bits(expected);\n", \
    "        expected = old;\n", \
    "        return ok;\n", \
    "    }\n", \
    "    __device__ bool compare_exchange_strong(__lat_T &expected, __lat_T desired, memory_order, memory_order) const\n", \
    "    { return compare_exchange_strong(expected, desired); }\n", \
    "    __device__ bool compare_exchange_weak(__lat_T &expected, __lat_T desired, memory_order = memory_order_seq_cst) const\n", \
    "    { return compare_exchange_strong(expected, desired); }\n", \
    "    __device__ bool compare_exchange_weak(__lat_T &expected, __lat_T desired, memory_order, memory_order) const\n", \
    "    { return compare_exchange_strong(expected, desired); }\n", \
    "    template <typename __lat_F> __device__ __lat_T __lat_update(__lat_F f) const\n", \
    "    {\n", \
    "        __lat_T old = load(), next;\n", \
    "        do {\n", \
    "            next = f(old);\n", \
    "        } while (!compare_exchange_strong(old, next));\n", \
    "        return old;\n", \
    "    }\n", \
    "    __device__ __lat_T fetch_add(__lat_T v, memory_order = memory_order_seq_cst) const\n", \
    "    {\n", \
    "        if constexpr (__lat_is_native<__lat_T>::value || __lat_is_fp<__lat_T>::value)\n", \
    "            return atomicAdd(__lat_p(), v);\n", \
    "        else\n", \
    "            return __lat_update([v](__lat_T o) { return (__lat_T)(o + v); });\n", \
    "    }\n", \
    "    __device__ __lat_T fetch_sub(__lat_T v, memory_order = memory_order_seq_cst) const\n", \
    "    {\n", \
    "        if constexpr (__lat_is_native<__lat_T>::value || __lat_is_fp<__lat_T>::value)\n", \
    "            return atomicAdd(__lat_p(), (__lat_T)(__lat_T(0) - v));\n", \
    "        else\n", \
    "            return __lat_update([v](__lat_T o) { return (__lat_T)(o - v); });\n", \
    "    }\n", \
    "    template <typename __lat_U = __lat_T> __device__ __lat_U fetch_and(__lat_U v, memory_order = memory_order_seq_cst) const { return atomicAnd(__lat_p(), v); }\n", \
    "    template <typename __lat_U = __lat_T> __device__ __lat_U fetch_or(__lat_U v, memory_order = memory_order_seq_cst) const { return atomicOr(__lat_p(), v); }\n", \
    "    template <typename __lat_U = __lat_T> __device__ __lat_U fetch_xor(__lat_U v, memory_order = memory_order_seq_cst) const { return atomicXor(__lat_p(), v); }\n", \
    "    __device__ __lat_T fetch_min(__lat_T v, memory_order = memory_order_seq_cst) const\n", \
    "    {\n", \
    "        if constexpr (__lat_is_native<__lat_T>::value)\n", \
    "            return atomicMin(__lat_p(), v);\n", \
    "        else\n", \
    "            return __lat_update([v](__lat_T o) { return v < o ? v : o; });\n", \
    "    }\n", \
    "    __device__ __lat_T fetch_max(__lat_T v, memory_order = memory_order_seq_cst) const\n", \
    "    {\n", \
    "        if constexpr (__lat_is_native<__lat_T>::value)\n", \
    "            return atomicMax(__lat_p(), v);\n", \
    "        else\n", \
    "            return __lat_update([v](__lat_T o) { return o < v ? v : o; });\n", \
    "    }\n", \
    "    __device__ __lat_T operator++() const { return fetch_add(__lat_T(1)) + __lat_T(1); }\n", \
    "    __device__ __lat_T operator++(int) const { return fetch_add(__lat_T(1)); }\n", \
    "    __device__ __lat_T operator--() const { return fetch_sub(__lat_T(1)) - __lat_T(1); }\n", \
    "    __device__ __lat_T operator--(int) const { return fetch_sub(__lat_T(1)); }\n", \
    "    __device__ __lat_T operator+=(__lat_T v) const { return fetch_add(v) + v; }\n", \
    "    __device__ __lat_T operator-=(__lat_T v) const { return fetch_sub(v) - v; }\n", \
    "    template <typename __lat_U = __lat_T> __device__ __lat_U operator&=(__lat_U v) const { return fetch_and(v) & v; }\n", \
    "    template <typename __lat_U = __lat_T> __device__ __lat_U operator|=(__lat_U v) const { return fetch_or(v) | v; }\n", \
    "    template <typename __lat_U = __lat_T> __device__ __lat_U operator^=(__lat_U v) const { return fetch_xor(v) ^ v; }\n", \
    "    __device__ bool is_lock_free() const { return true; }\n", \
    "    static constexpr bool is_always_lock_free = true;\n",

/* cuda::std:: and cuda:: each have their own classes (cuda::'s with a scope), not one
 * derived from the other: calls of a base's member templates through a derived class are
 * beyond the emulator's C++. */
#define ATOMIC_REF_BODY \
    "    __lat_T *__p;\n", \
    "    __device__ explicit atomic_ref(__lat_T &obj) : __p(&obj) {}\n", \
    "    __device__ __lat_T *__lat_p() const { return __p; }\n", \
    "    __device__ __lat_T operator=(__lat_T v) const { store(v); return v; }\n", \
    ATOMIC_MEMBERS "};\n",
#define ATOMIC_BODY \
    "    __lat_T __v;\n", \
    "    atomic() = default;\n", \
    "    __host__ __device__ constexpr atomic(__lat_T v) : __v(v) {}\n", \
    "    __device__ __lat_T *__lat_p() const { return (__lat_T *)&__v; }\n", \
    "    __device__ __lat_T operator=(__lat_T v) { store(v); return v; }\n", \
    ATOMIC_MEMBERS "};\n",

static const char *const atomic_h[] = {
    "#ifndef __LAT_CUDA_STD_ATOMIC\n",
    "#define __LAT_CUDA_STD_ATOMIC\n",
    "namespace cuda { namespace std {\n",
    "enum class memory_order : int { relaxed, consume, acquire, release, acq_rel, seq_cst };\n",
    "constexpr memory_order memory_order_relaxed = memory_order::relaxed;\n",
    "constexpr memory_order memory_order_consume = memory_order::consume;\n",
    "constexpr memory_order memory_order_acquire = memory_order::acquire;\n",
    "constexpr memory_order memory_order_release = memory_order::release;\n",
    "constexpr memory_order memory_order_acq_rel = memory_order::acq_rel;\n",
    "constexpr memory_order memory_order_seq_cst = memory_order::seq_cst;\n",
    "enum thread_scope { thread_scope_system = 0, thread_scope_device = 1, thread_scope_block = 2, thread_scope_thread = 3 };\n",
    "template <int __lat_S> struct __lat_bits_of;\n",
    "template <> struct __lat_bits_of<4> { typedef unsigned int type; };\n",
    "template <> struct __lat_bits_of<8> { typedef unsigned long long type; };\n",
    "template <typename __lat_T> __device__ inline typename __lat_bits_of<sizeof(__lat_T)>::type __lat_to_bits(__lat_T v)\n",
    "{ typename __lat_bits_of<sizeof(__lat_T)>::type b; memcpy(&b, &v, sizeof b); return b; }\n",
    "template <typename __lat_T> __device__ inline __lat_T __lat_from_bits(typename __lat_bits_of<sizeof(__lat_T)>::type b)\n",
    "{ __lat_T v; memcpy(&v, &b, sizeof v); return v; }\n",
    "template <typename __lat_T> __device__ inline __lat_T __lat_atomic_cas(__lat_T *p, __lat_T c, __lat_T v)\n",
    "{\n",
    "    typedef typename __lat_bits_of<sizeof(__lat_T)>::type __lat_B;\n",
    "    return __lat_from_bits<__lat_T>(atomicCAS((__lat_B *)p, __lat_to_bits(c), __lat_to_bits(v)));\n",
    "}\n",
    "template <typename __lat_T> struct __lat_is_native { static constexpr bool value = false; };\n",
    "template <> struct __lat_is_native<int> { static constexpr bool value = true; };\n",
    "template <> struct __lat_is_native<unsigned int> { static constexpr bool value = true; };\n",
    "template <> struct __lat_is_native<long long> { static constexpr bool value = true; };\n",
    "template <> struct __lat_is_native<unsigned long long> { static constexpr bool value = true; };\n",
    "template <> struct __lat_is_native<long> { static constexpr bool value = true; };\n",
    "template <> struct __lat_is_native<unsigned long> { static constexpr bool value = true; };\n",
    "template <typename __lat_T> struct __lat_is_fp { static constexpr bool value = false; };\n",
    "template <> struct __lat_is_fp<float> { static constexpr bool value = true; };\n",
    "template <> struct __lat_is_fp<double> { static constexpr bool value = true; };\n",
    "template <typename __lat_T> struct atomic_ref {\n",
    ATOMIC_REF_BODY
    "template <typename __lat_T> struct atomic {\n",
    ATOMIC_BODY
    "__device__ inline void atomic_thread_fence(memory_order) { __threadfence(); }\n",
    "__device__ inline void atomic_signal_fence(memory_order) { }\n",
    "} }\n",
    "#endif\n",
    NULL,
};

static const char *const cuda_atomic_h[] = {
    "#ifndef __LAT_CUDA_ATOMIC\n",
    "#define __LAT_CUDA_ATOMIC\n",
    "#include <cuda/std/atomic>\n",
    "namespace cuda {\n",
    "using std::memory_order;\n",
    "using std::memory_order_relaxed;\n",
    "using std::memory_order_consume;\n",
    "using std::memory_order_acquire;\n",
    "using std::memory_order_release;\n",
    "using std::memory_order_acq_rel;\n",
    "using std::memory_order_seq_cst;\n",
    "using std::thread_scope;\n",
    "using std::thread_scope_system;\n",
    "using std::thread_scope_device;\n",
    "using std::thread_scope_block;\n",
    "using std::thread_scope_thread;\n",
    "using std::__lat_bits_of;\n",
    "using std::__lat_to_bits;\n",
    "using std::__lat_from_bits;\n",
    "using std::__lat_atomic_cas;\n",
    "using std::__lat_is_native;\n",
    "using std::__lat_is_fp;\n",
    "template <typename __lat_T, thread_scope __lat_S = thread_scope_system> struct atomic_ref {\n",
    ATOMIC_REF_BODY
    "template <typename __lat_T, thread_scope __lat_S = thread_scope_system> struct atomic {\n",
    ATOMIC_BODY
    "__device__ inline void atomic_thread_fence(memory_order, thread_scope s = thread_scope_system)\n",
    "{\n",
    "    if (s == thread_scope_block)\n",
    "        __threadfence_block();\n",
    "    else if (s == thread_scope_system)\n",
    "        __threadfence_system();\n",
    "    else\n",
    "        __threadfence();\n",
    "}\n",
    "}\n",
    "#endif\n",
    NULL,
};
#undef ATOMIC_BODY
#undef ATOMIC_REF_BODY
#undef ATOMIC_MEMBERS

const char *const *lat__libcuxx_header_lines(const char *name)
{
    static const struct {
        const char *name;
        const char *const *lines;
    } headers[] = {
        {"cuda/std/cstdint", cstdint_h}, {"cuda/std/cstddef", cstdint_h}, {"cuda/std/climits", cstdint_h},
        {"cuda/std/limits", limits_h},   {"cuda/std/utility", utility_h}, {"cuda/std/array", array_h},
        {"cuda/std/functional", functional_h}, {"cuda/std/type_traits", cuda_type_traits_h},
        {"type_traits", std_type_traits_h}, {"utility", std_utility_h},
        {"tuple", std_tuple_h}, {"cuda/std/tuple", tuple_h},
        {"limits", std_limits_h}, {"array", std_array_h},
        {"cuda/std/cmath", cmath_h}, {"cuda/std/bit", bit_h}, {"cuda/std/span", span_h},
        {"cuda/std/algorithm", algorithm_h}, {"algorithm", std_algorithm_h}, {"cuda/std/cassert", cassert_h},
        {"cuda/std/complex", complex_h}, {"cuda/std/atomic", atomic_h}, {"cuda/atomic", cuda_atomic_h},
    };
    for (size_t i = 0; i < sizeof headers / sizeof *headers; i++)
        if (strcmp(name, headers[i].name) == 0)
            return headers[i].lines;
    return NULL;
}
