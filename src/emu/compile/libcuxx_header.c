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
    "template <typename T> struct numeric_limits {\n", \
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
    "template <typename T> struct __lat_unref { typedef T type; };\n",                                      \
    "template <typename T> struct __lat_unref<T &> { typedef T type; };\n",                                 \
    "template <typename T> struct __lat_unref<T &&> { typedef T type; };\n",                                \
    "template <typename T> __host__ __device__ T &&forward(typename __lat_unref<T>::type &t) noexcept\n",    \
    "{ return static_cast<T &&>(t); }\n",                                                                   \
    "template <typename T> __host__ __device__ typename __lat_unref<T>::type &&move(T &&t) noexcept\n",      \
    "{ return static_cast<typename __lat_unref<T>::type &&>(t); }\n",

/* integer_sequence and its index_sequence forms (std::make_index_sequence<N>{} passed to a
 * template deducing size_t... I), in both namespaces. */
#define INTEGER_SEQUENCE                                                                                      \
    "template <typename T, T... I> struct integer_sequence {\n",                                             \
    "    typedef T value_type;\n",                                                                          \
    "    __host__ __device__ static constexpr unsigned long size() noexcept { return sizeof...(I); }\n",    \
    "};\n",                                                                                                 \
    "template <unsigned long... I> using index_sequence = integer_sequence<unsigned long, I...>;\n",         \
    "template <typename T, T N, T... I> struct __lat_make_seq : __lat_make_seq<T, N - 1, N - 1, I...> {};\n", \
    "template <typename T, T... I> struct __lat_make_seq<T, 0, I...> { typedef integer_sequence<T, I...> type; };\n", \
    "template <typename T, T N> using make_integer_sequence = typename __lat_make_seq<T, N>::type;\n",       \
    "template <unsigned long N> using make_index_sequence = make_integer_sequence<unsigned long, N>;\n",     \
    "template <typename... Ts> using index_sequence_for = make_index_sequence<sizeof...(Ts)>;\n",

/* std::tuple (<tuple>, <cuda/std/tuple>): a recursive class, its elements value-initialised
 * by the default constructor (one holding references has none, as std::tie's), get<I> by
 * index on const and non-const tuples, make_tuple, tie, tuple_size, tuple_element. Not
 * here: assignment between tuples of other types (std::tie(a, b) = t), comparisons,
 * std::apply, get<T> by type; a structured binding of a tuple is refused. */
#define TUPLE                                                                                                 \
    "template <typename... Ts> struct tuple;\n",                                                            \
    "template <> struct tuple<> {};\n",                                                                     \
    "template <typename T, typename... R> struct tuple<T, R...> {\n",                                       \
    "    T __lat_head;\n",                                                                                  \
    "    tuple<R...> __lat_tail;\n",                                                                        \
    "    __host__ __device__ tuple() : __lat_head(), __lat_tail() {}\n",                                    \
    "    __host__ __device__ tuple(const T &h, const R &... r) : __lat_head(h), __lat_tail(r...) {}\n",     \
    "};\n",                                                                                                 \
    "template <typename T, typename... R> struct tuple<T &, R...> {\n",                                     \
    "    T &__lat_head;\n",                                                                                 \
    "    tuple<R...> __lat_tail;\n",                                                                        \
    "    __host__ __device__ tuple(T &h, const R &... r) : __lat_head(h), __lat_tail(r...) {}\n",           \
    "};\n",                                                                                                 \
    "template <typename T> struct tuple_size;\n",                                                           \
    "template <typename... Ts> struct tuple_size<tuple<Ts...>> { static constexpr unsigned long value = sizeof...(Ts); };\n", \
    "template <unsigned long I, typename T> struct tuple_element;\n",                                       \
    "template <typename T, typename... R> struct tuple_element<0, tuple<T, R...>> { typedef T type; };\n",  \
    "template <unsigned long I, typename T, typename... R> struct tuple_element<I, tuple<T, R...>>\n",      \
    "    : tuple_element<I - 1, tuple<R...>> {};\n",                                                         \
    "template <unsigned long I> struct __lat_tuple_get {\n",                                                \
    "    template <typename T, typename... R> static __host__ __device__\n",                                \
    "    typename tuple_element<I, tuple<T, R...>>::type &get(tuple<T, R...> &t) { return __lat_tuple_get<I - 1>::get(t.__lat_tail); }\n", \
    "    template <typename T, typename... R> static __host__ __device__\n",                                \
    "    const typename tuple_element<I, tuple<T, R...>>::type &get(const tuple<T, R...> &t) { return __lat_tuple_get<I - 1>::get(t.__lat_tail); }\n", \
    "};\n",                                                                                                 \
    "template <> struct __lat_tuple_get<0> {\n",                                                            \
    "    template <typename T, typename... R> static __host__ __device__ T &get(tuple<T, R...> &t) { return t.__lat_head; }\n", \
    "    template <typename T, typename... R> static __host__ __device__ const T &get(const tuple<T, R...> &t) { return t.__lat_head; }\n", \
    "};\n",                                                                                                 \
    "template <unsigned long I, typename... Ts> __host__ __device__\n",                                     \
    "typename tuple_element<I, tuple<Ts...>>::type &get(tuple<Ts...> &t) { return __lat_tuple_get<I>::get(t); }\n", \
    "template <unsigned long I, typename... Ts> __host__ __device__\n",                                     \
    "const typename tuple_element<I, tuple<Ts...>>::type &get(const tuple<Ts...> &t) { return __lat_tuple_get<I>::get(t); }\n", \
    "template <typename... Ts> __host__ __device__ tuple<Ts...> make_tuple(Ts... xs) { return tuple<Ts...>(xs...); }\n", \
    "template <typename... Ts> __host__ __device__ tuple<Ts &...> tie(Ts &... xs) { return tuple<Ts &...>(xs...); }\n",

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
    "template <typename T1, typename T2> struct pair {\n",                                                 \
    "    typedef T1 first_type;\n",                                                                        \
    "    typedef T2 second_type;\n",                                                                       \
    "    T1 first;\n",                                                                                     \
    "    T2 second;\n",                                                                                    \
    "    __host__ __device__ pair() : first(), second() {}\n",                                             \
    "    __host__ __device__ pair(const T1 &a, const T2 &b) : first(a), second(b) {}\n",                   \
    "};\n",                                                                                                \
    "template <typename T1, typename T2> __host__ __device__ pair<T1, T2> make_pair(T1 a, T2 b)\n",        \
    "{ return pair<T1, T2>(a, b); }\n",

static const char *const std_utility_h[] = {
    "#ifndef __LAT_STD_UTILITY\n",
    "#define __LAT_STD_UTILITY\n",
    "namespace std {\n",
    FORWARD_MOVE
    PAIR
    INTEGER_SEQUENCE
    "template <typename T> __host__ __device__ void swap(T &a, T &b) { T t = a; a = b; b = t; }\n",
    "}\n",
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
    PAIR
    FORWARD_MOVE
    INTEGER_SEQUENCE
    "} }\n",
    "#endif\n",
    NULL,
};

#define ARRAY_BODY \
    "template <typename T, unsigned long N> struct array {\n", \
    "    T __elems_[N];\n", \
    "    __host__ __device__ T &operator[](unsigned long i) { return __elems_[i]; }\n", \
    "    __host__ __device__ const T &operator[](unsigned long i) const { return __elems_[i]; }\n", \
    "    __host__ __device__ T &at(unsigned long i) { return __elems_[i]; }\n", \
    "    __host__ __device__ T &front() { return __elems_[0]; }\n", \
    "    __host__ __device__ T &back() { return __elems_[N - 1]; }\n", \
    "    __host__ __device__ T *data() { return __elems_; }\n", \
    "    __host__ __device__ T *begin() { return __elems_; }\n", \
    "    __host__ __device__ T *end() { return __elems_ + N; }\n", \
    "    __host__ __device__ static constexpr unsigned long size() { return N; }\n", \
    "    __host__ __device__ static constexpr bool empty() { return N == 0; }\n", \
    "    __host__ __device__ void fill(const T &v) { for (unsigned long i = 0; i < N; i++) __elems_[i] = v; }\n", \
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
"template <typename T, T v> struct integral_constant {\n", \
"    static constexpr T value = v;\n", \
"    typedef T value_type;\n", \
"    typedef integral_constant type;\n", \
"};\n", \
"typedef integral_constant<bool, true> true_type;\n", \
"typedef integral_constant<bool, false> false_type;\n", \
"template <bool B> using bool_constant = integral_constant<bool, B>;\n", \
"template <typename T, typename U> struct is_same : false_type {};\n", \
"template <typename T> struct is_same<T, T> : true_type {};\n", \
"template <typename T> struct remove_const { typedef T type; };\n", \
"template <typename T> struct remove_const<const T> { typedef T type; };\n", \
"template <typename T> struct remove_volatile { typedef T type; };\n", \
"template <typename T> struct remove_volatile<volatile T> { typedef T type; };\n", \
"template <typename T> struct remove_cv { typedef T type; };\n", \
"template <typename T> struct remove_cv<const T> { typedef T type; };\n", \
"template <typename T> struct remove_cv<volatile T> { typedef T type; };\n", \
"template <typename T> struct remove_cv<const volatile T> { typedef T type; };\n", \
"template <typename T> struct remove_reference { typedef T type; };\n", \
"template <typename T> struct remove_reference<T &> { typedef T type; };\n", \
"template <typename T> struct remove_reference<T &&> { typedef T type; };\n", \
"template <typename T> struct remove_cvref { typedef typename remove_cv<typename remove_reference<T>::type>::type type; };\n", \
"template <typename T> struct decay { typedef typename remove_cv<typename remove_reference<T>::type>::type type; };\n", \
"template <typename T> struct remove_pointer { typedef T type; };\n", \
"template <typename T> struct remove_pointer<T *> { typedef T type; };\n", \
"template <typename T> struct remove_pointer<T *const> { typedef T type; };\n", \
"template <typename T> struct remove_pointer<T *volatile> { typedef T type; };\n", \
"template <typename T> struct remove_pointer<T *const volatile> { typedef T type; };\n", \
"template <typename T> struct add_const { typedef const T type; };\n", \
"template <typename T> struct add_volatile { typedef volatile T type; };\n", \
"template <typename T> struct add_cv { typedef const volatile T type; };\n", \
"template <typename T> struct add_pointer { typedef typename remove_reference<T>::type *type; };\n", \
"template <typename T> struct add_lvalue_reference { typedef T &type; };\n", \
"template <typename T> struct type_identity { typedef T type; };\n", \
"template <bool B, typename T = void> struct enable_if {};\n", \
"template <typename T> struct enable_if<true, T> { typedef T type; };\n", \
"template <bool B, typename T, typename F> struct conditional { typedef T type; };\n", \
"template <typename T, typename F> struct conditional<false, T, F> { typedef F type; };\n", \
"template <typename... Ts> struct common_type {};\n", \
"template <typename T> struct common_type<T> { typedef typename decay<T>::type type; };\n", \
"template <typename T, typename U> struct common_type<T, U> {\n", \
"    typedef typename decay<decltype(true ? typename decay<T>::type() : typename decay<U>::type())>::type type;\n", \
"};\n", \
"template <typename T, typename U, typename... R> struct common_type<T, U, R...> {\n", \
"    typedef typename common_type<typename common_type<T, U>::type, R...>::type type;\n", \
"};\n", \
"template <typename T> struct is_const : false_type {};\n", \
"template <typename T> struct is_const<const T> : true_type {};\n", \
"template <typename T> struct is_volatile : false_type {};\n", \
"template <typename T> struct is_volatile<volatile T> : true_type {};\n", \
"template <typename T> struct is_pointer : false_type {};\n", \
"template <typename T> struct is_pointer<T *> : true_type {};\n", \
"template <typename T> struct is_pointer<T *const> : true_type {};\n", \
"template <typename T> struct is_pointer<T *volatile> : true_type {};\n", \
"template <typename T> struct is_pointer<T *const volatile> : true_type {};\n", \
"template <typename T> struct is_lvalue_reference : false_type {};\n", \
"template <typename T> struct is_lvalue_reference<T &> : true_type {};\n", \
"template <typename T> struct is_rvalue_reference : false_type {};\n", \
"template <typename T> struct is_rvalue_reference<T &&> : true_type {};\n", \
"template <typename T> struct is_reference : false_type {};\n", \
"template <typename T> struct is_reference<T &> : true_type {};\n", \
"template <typename T> struct is_reference<T &&> : true_type {};\n", \
"template <typename T> struct is_void : is_same<void, typename remove_cv<T>::type> {};\n", \
"template <typename T> struct __lat_integral : false_type {};\n", \
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
"template <typename T> struct is_integral : __lat_integral<typename remove_cv<T>::type> {};\n", \
"template <typename T> struct __lat_floating : false_type {};\n", \
"template <> struct __lat_floating<float> : true_type {};\n", \
"template <> struct __lat_floating<double> : true_type {};\n", \
"template <> struct __lat_floating<long double> : true_type {};\n", \
"template <typename T> struct is_floating_point : __lat_floating<typename remove_cv<T>::type> {};\n", \
"template <typename T> struct is_arithmetic : bool_constant<is_integral<T>::value || is_floating_point<T>::value> {};\n", \
"template <typename T> struct is_scalar : bool_constant<is_arithmetic<T>::value || is_pointer<T>::value> {};\n", \
"template <typename T, bool = is_arithmetic<T>::value> struct __lat_signed : false_type {};\n", \
"template <typename T> struct __lat_signed<T, true> : bool_constant<(T(-1) < T(0))> {};\n", \
"template <typename T, bool = is_arithmetic<T>::value> struct __lat_unsigned : false_type {};\n", \
"template <typename T> struct __lat_unsigned<T, true> : bool_constant<(T(0) < T(-1))> {};\n", \
"template <typename T> struct is_signed : __lat_signed<typename remove_cv<T>::type> {};\n", \
"template <typename T> struct is_unsigned : __lat_unsigned<typename remove_cv<T>::type> {};\n", \
"template <typename T> struct make_unsigned;\n", \
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
"template <typename T> struct make_signed;\n", \
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
"template <typename T> using remove_const_t = typename remove_const<T>::type;\n", \
"template <typename T> using remove_volatile_t = typename remove_volatile<T>::type;\n", \
"template <typename T> using remove_cv_t = typename remove_cv<T>::type;\n", \
"template <typename T> using remove_reference_t = typename remove_reference<T>::type;\n", \
"template <typename T> using remove_cvref_t = typename remove_cvref<T>::type;\n", \
"template <typename T> using remove_pointer_t = typename remove_pointer<T>::type;\n", \
"template <typename T> using decay_t = typename decay<T>::type;\n", \
"template <typename T> using add_const_t = typename add_const<T>::type;\n", \
"template <typename T> using add_pointer_t = typename add_pointer<T>::type;\n", \
"template <typename T> using type_identity_t = typename type_identity<T>::type;\n", \
"template <typename T> using make_unsigned_t = typename make_unsigned<T>::type;\n", \
"template <typename T> using make_signed_t = typename make_signed<T>::type;\n", \
"template <bool B, typename T = void> using enable_if_t = typename enable_if<B, T>::type;\n", \
"template <bool B, typename T, typename F> using conditional_t = typename conditional<B, T, F>::type;\n", \
"template <typename... Ts> using common_type_t = typename common_type<Ts...>::type;\n", \
"template <typename T, typename U> constexpr bool is_same_v = is_same<T, U>::value;\n", \
"template <typename T> constexpr bool is_const_v = is_const<T>::value;\n", \
"template <typename T> constexpr bool is_volatile_v = is_volatile<T>::value;\n", \
"template <typename T> constexpr bool is_pointer_v = is_pointer<T>::value;\n", \
"template <typename T> constexpr bool is_reference_v = is_reference<T>::value;\n", \
"template <typename T> constexpr bool is_lvalue_reference_v = is_lvalue_reference<T>::value;\n", \
"template <typename T> constexpr bool is_rvalue_reference_v = is_rvalue_reference<T>::value;\n", \
"template <typename T> constexpr bool is_void_v = is_void<T>::value;\n", \
"template <typename T> constexpr bool is_integral_v = is_integral<T>::value;\n", \
"template <typename T> constexpr bool is_floating_point_v = is_floating_point<T>::value;\n", \
"template <typename T> constexpr bool is_arithmetic_v = is_arithmetic<T>::value;\n", \
"template <typename T> constexpr bool is_scalar_v = is_scalar<T>::value;\n", \
"template <typename T> constexpr bool is_signed_v = is_signed<T>::value;\n", \
"template <typename T> constexpr bool is_unsigned_v = is_unsigned<T>::value;\n", \
"template <typename T> struct is_class : bool_constant<__is_class(T)> {};\n", \
"template <typename T> struct is_union : bool_constant<__is_union(T)> {};\n", \
"template <typename T> struct is_enum : bool_constant<__is_enum(T)> {};\n", \
"template <typename T> struct is_empty : bool_constant<__is_empty(T)> {};\n", \
"template <typename T> struct is_array : bool_constant<__is_array(T)> {};\n", \
"template <typename T> struct is_trivially_copyable : bool_constant<__is_trivially_copyable(T)> {};\n", \
"template <typename B, typename D> struct is_base_of : bool_constant<__is_base_of(B, D)> {};\n", \
"template <typename T> constexpr bool is_class_v = is_class<T>::value;\n", \
"template <typename T> constexpr bool is_union_v = is_union<T>::value;\n", \
"template <typename T> constexpr bool is_enum_v = is_enum<T>::value;\n", \
"template <typename T> constexpr bool is_empty_v = is_empty<T>::value;\n", \
"template <typename T> constexpr bool is_array_v = is_array<T>::value;\n", \
"template <typename T> constexpr bool is_trivially_copyable_v = is_trivially_copyable<T>::value;\n", \
"template <typename B, typename D> constexpr bool is_base_of_v = is_base_of<B, D>::value;\n", \
"template <typename... Ts> using void_t = void;\n", \
"template <typename T> T &&declval() noexcept;\n", \
"template <typename T> struct is_fundamental : bool_constant<is_arithmetic<T>::value || is_void<T>::value> {};\n", \
"template <typename T> constexpr bool is_fundamental_v = is_fundamental<T>::value;\n", \
"template <typename T> struct alignment_of : integral_constant<unsigned long, alignof(T)> {};\n", \
"template <typename T> constexpr unsigned long alignment_of_v = alignment_of<T>::value;\n", \
"template <unsigned long Len> struct __lat_max_align {\n", \
"    static constexpr unsigned long value = Len >= 16 ? 16 : Len >= 8 ? 8 : Len >= 4 ? 4 : Len >= 2 ? 2 : 1;\n", \
"};\n", \
"template <unsigned long Len, unsigned long Align = __lat_max_align<Len>::value> struct aligned_storage {\n", \
"    struct type { alignas(Align) unsigned char __data[(Len + Align - 1) / Align * Align]; };\n", \
"};\n", \
"template <unsigned long Len, unsigned long Align = __lat_max_align<Len>::value>\n", \
"using aligned_storage_t = typename aligned_storage<Len, Align>::type;\n", \
"template <typename... B> struct conjunction : true_type {};\n", \
"template <typename B1> struct conjunction<B1> : bool_constant<B1::value> {};\n", \
"template <typename B1, typename... Bn> struct conjunction<B1, Bn...> : bool_constant<B1::value && conjunction<Bn...>::value> {};\n", \
"template <typename... B> struct disjunction : false_type {};\n", \
"template <typename B1> struct disjunction<B1> : bool_constant<B1::value> {};\n", \
"template <typename B1, typename... Bn> struct disjunction<B1, Bn...> : bool_constant<B1::value || disjunction<Bn...>::value> {};\n", \
"template <typename B> struct negation : bool_constant<!B::value> {};\n", \
"template <typename... B> constexpr bool conjunction_v = conjunction<B...>::value;\n", \
"template <typename... B> constexpr bool disjunction_v = disjunction<B...>::value;\n", \
"template <typename B> constexpr bool negation_v = negation<B>::value;\n", \
"template <typename T> struct remove_extent { typedef T type; };\n", \
"template <typename T> struct remove_extent<T[]> { typedef T type; };\n", \
"template <typename T, unsigned long N> struct remove_extent<T[N]> { typedef T type; };\n", \
"template <typename T> struct remove_all_extents { typedef T type; };\n", \
"template <typename T> struct remove_all_extents<T[]> { typedef typename remove_all_extents<T>::type type; };\n", \
"template <typename T, unsigned long N> struct remove_all_extents<T[N]> { typedef typename remove_all_extents<T>::type type; };\n", \
"template <typename T> using remove_extent_t = typename remove_extent<T>::type;\n", \
"template <typename T> using remove_all_extents_t = typename remove_all_extents<T>::type;\n", \
"template <typename T> struct rank : integral_constant<unsigned long, 0> {};\n", \
"template <typename T> struct rank<T[]> : integral_constant<unsigned long, rank<T>::value + 1> {};\n", \
"template <typename T, unsigned long N> struct rank<T[N]> : integral_constant<unsigned long, rank<T>::value + 1> {};\n", \
"template <typename T, unsigned I = 0> struct extent : integral_constant<unsigned long, 0> {};\n", \
"template <typename T> struct extent<T[], 0> : integral_constant<unsigned long, 0> {};\n", \
"template <typename T, unsigned I> struct extent<T[], I> : extent<T, I - 1> {};\n", \
"template <typename T, unsigned long N> struct extent<T[N], 0> : integral_constant<unsigned long, N> {};\n", \
"template <typename T, unsigned I, unsigned long N> struct extent<T[N], I> : extent<T, I - 1> {};\n", \
"template <typename T> constexpr unsigned long rank_v = rank<T>::value;\n", \
"template <typename T, unsigned I = 0> constexpr unsigned long extent_v = extent<T, I>::value;\n",

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
    };
    for (size_t i = 0; i < sizeof headers / sizeof *headers; i++)
        if (strcmp(name, headers[i].name) == 0)
            return headers[i].lines;
    return NULL;
}
