/* What nvcc gives a program and NVRTC does not: see std_headers.h. */
#include "std_headers.h"

#include "error.h"

#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The C library's macros that nvcc's cuda_runtime.h brings in from the host's <limits.h>,
 * <float.h> and <math.h> (the same values src/front/predef.c gives the emulator), for
 * LP64 Linux. */
#define AMBIENT(X)                                                                       \
    X(CHAR_BIT, "8")                                                                     \
    X(SCHAR_MIN, "(-128)")                                                               \
    X(SCHAR_MAX, "127")                                                                  \
    X(UCHAR_MAX, "255")                                                                  \
    X(CHAR_MIN, "SCHAR_MIN")                                                             \
    X(CHAR_MAX, "SCHAR_MAX")                                                             \
    X(SHRT_MIN, "(-32768)")                                                              \
    X(SHRT_MAX, "32767")                                                                 \
    X(USHRT_MAX, "65535")                                                                \
    X(INT_MIN, "(-INT_MAX - 1)")                                                         \
    X(INT_MAX, "2147483647")                                                             \
    X(UINT_MAX, "4294967295U")                                                           \
    X(LONG_MIN, "(-LONG_MAX - 1L)")                                                      \
    X(LONG_MAX, "9223372036854775807L")                                                  \
    X(ULONG_MAX, "18446744073709551615UL")                                               \
    X(LLONG_MIN, "(-LLONG_MAX - 1LL)")                                                   \
    X(LLONG_MAX, "9223372036854775807LL")                                                \
    X(ULLONG_MAX, "18446744073709551615ULL")                                             \
    X(FLT_RADIX, "2")                                                                    \
    X(FLT_MANT_DIG, "24")                                                                \
    X(DBL_MANT_DIG, "53")                                                                \
    X(FLT_DIG, "6")                                                                      \
    X(DBL_DIG, "15")                                                                     \
    X(FLT_DECIMAL_DIG, "9")                                                              \
    X(DBL_DECIMAL_DIG, "17")                                                             \
    X(FLT_MIN_EXP, "(-125)")                                                             \
    X(DBL_MIN_EXP, "(-1021)")                                                            \
    X(FLT_MIN_10_EXP, "(-37)")                                                           \
    X(DBL_MIN_10_EXP, "(-307)")                                                          \
    X(FLT_MAX_EXP, "128")                                                                \
    X(DBL_MAX_EXP, "1024")                                                               \
    X(FLT_MAX_10_EXP, "38")                                                              \
    X(DBL_MAX_10_EXP, "308")                                                             \
    X(FLT_MAX, "3.40282346638528859812e+38F")                                            \
    X(FLT_MIN, "1.17549435082228750797e-38F")                                            \
    X(FLT_EPSILON, "1.1920928955078125e-07F")                                            \
    X(FLT_TRUE_MIN, "1.40129846432481707092e-45F")                                       \
    X(DBL_MAX, "1.79769313486231570815e+308")                                            \
    X(DBL_MIN, "2.22507385850720138309e-308")                                            \
    X(DBL_EPSILON, "2.22044604925031308085e-16")                                         \
    X(DBL_TRUE_MIN, "4.94065645841246544177e-324")                                       \
    /* NVRTC has no __builtin_huge_valf: the bits, as CUDA's math_constants.h writes them */ \
    X(INFINITY, "__int_as_float(0x7f800000)")                                            \
    X(NAN, "__int_as_float(0x7fffffff)")                                                 \
    X(HUGE_VALF, "__int_as_float(0x7f800000)")                                           \
    X(HUGE_VAL, "__longlong_as_double(0x7ff0000000000000LL)")                            \
    X(M_E, "2.7182818284590452354")                                                      \
    X(M_LOG2E, "1.4426950408889634074")                                                  \
    X(M_LOG10E, "0.43429448190325182765")                                                \
    X(M_LN2, "0.69314718055994530942")                                                   \
    X(M_LN10, "2.30258509299404568402")                                                  \
    X(M_PI, "3.14159265358979323846")                                                    \
    X(M_PI_2, "1.57079632679489661923")                                                  \
    X(M_PI_4, "0.78539816339744830962")                                                  \
    X(M_1_PI, "0.31830988618379067154")                                                  \
    X(M_2_PI, "0.63661977236758134308")                                                  \
    X(M_2_SQRTPI, "1.12837916709551257390")                                              \
    X(M_SQRT2, "1.41421356237309504880")                                                 \
    X(M_SQRT1_2, "0.70710678118654752440")

#define NAME_VALUE(name, value) {#name, value},
static const struct {
    const char *name, *value;
} ambient[] = {AMBIENT(NAME_VALUE)};

/* The toolkit's libcu++ defines the <climits> and <cfloat> macros without asking whether
 * they are defined, and cuda_fp16.h, cooperative_groups.h or curand_kernel.h bring its
 * headers in after ours: NVRTC warns of each macro redefined with other tokens, in every
 * such compile. So each macro is spelt as that toolkit's header spells it (the first
 * definition in the file: the LP64 branch), and ours stands where it has none. */
static void toolkit_spellings(const char *toolkit, const char *header, char **values)
{
    char path[4200];
    FILE *f = NULL;
    for (int i = 0; toolkit && !f && i < 2; i++) {
        int n = snprintf(path, sizeof path, i ? "%s/cccl/cuda/std/%s" : "%s/cuda/std/%s",
                         toolkit, header);
        if (n > 0 && (size_t)n < sizeof path)
            f = fopen(path, "r");
    }
    if (!f)
        return;
    char line[512];
    for (int lines = 0; lines < 4096 && fgets(line, sizeof line, f); lines++) {
        char *p = line + strspn(line, " \t");
        if (*p++ != '#')
            continue;
        p += strspn(p, " \t");
        if (strncmp(p, "define", 6) != 0 || (p[6] != ' ' && p[6] != '\t'))
            continue;
        p += 6 + strspn(p + 6, " \t");
        size_t nlen = strcspn(p, " \t(\n");
        if (p[nlen] == '(')
            continue;
        char *v = p + nlen + strspn(p + nlen, " \t");
        size_t vlen = strcspn(v, "\n");
        char *comment = strstr(v, "//");
        if (comment && (size_t)(comment - v) < vlen)
            vlen = (size_t)(comment - v);
        while (vlen && (v[vlen - 1] == ' ' || v[vlen - 1] == '\t' || v[vlen - 1] == '\r'))
            vlen--;
        for (size_t i = 0; i < sizeof ambient / sizeof ambient[0]; i++)
            /* CHAR_MIN and CHAR_MAX come first for an unsigned char: ours are its signed
             * branch's. */
            if (!values[i] && vlen && strlen(ambient[i].name) == nlen &&
                !strncmp(ambient[i].name, p, nlen) && strncmp(p, "CHAR_M", 6) != 0)
                values[i] = strndup(v, vlen);
    }
    fclose(f);
}

static pthread_mutex_t ambient_lock = PTHREAD_MUTEX_INITIALIZER;
static char *ambient_text;

const char *lat__cu_ambient_text(const char *toolkit)
{
    pthread_mutex_lock(&ambient_lock);
    if (!ambient_text) {
        char *values[sizeof ambient / sizeof ambient[0]] = {0};
        toolkit_spellings(toolkit, "climits", values);
        toolkit_spellings(toolkit, "cfloat", values);
        char *text = NULL;
        size_t len = 0;
        bool bad = lat__strbuf_printf(&text, &len, "#define __LAT_AMBIENT 1\n") != 0;
        for (size_t i = 0; i < sizeof ambient / sizeof ambient[0]; i++) {
            const char *n = ambient[i].name;
            bad = bad || lat__strbuf_printf(&text, &len, "#ifndef %s\n#define %s %s\n#endif\n",
                                            n, n, values[i] ? values[i] : ambient[i].value) != 0;
            free(values[i]);
        }
        if (bad)
            free(text);
        else
            ambient_text = text;
    }
    pthread_mutex_unlock(&ambient_lock);
    return ambient_text;
}

/* libcu++ defines the <climits>, <cfloat> and <cmath> macros itself, spelt its own way:
 * before its header comes in, ours go, so that it does not redefine them (a warning in
 * every compile). */
#define UNDEFINE(name, value) "#undef " #name "\n"
static const char undef_ambient[] = "#ifdef __LAT_AMBIENT\n#undef __LAT_AMBIENT\n" AMBIENT(UNDEFINE)
    "#endif\n";

/* Headers that only need the ambient macros or what NVRTC declares itself (printf, malloc,
 * memcpy, clock...). */
static const char *const empty[] = {
    "stdio.h", "cstdio", "stdlib.h", "string.h", "cstring", "stdbool.h", "cstdbool",
    "time.h", "ctime", "limits.h", "float.h", "math.h", "cuda_runtime.h",
    "cuda_runtime_api.h", "device_launch_parameters.h", "device_functions.h",
    "math_functions.h",
};

/* assert, as the host's <assert.h> gives it to device code: re-read at each inclusion, so
 * that NDEBUG decides as in C. __assertfail is NVRTC's. */
static const char assert_text[] =
    "#undef assert\n"
    "#ifdef NDEBUG\n"
    "#define assert(e) ((void)0)\n"
    "#else\n"
    "#define assert(e) ((e) ? (void)0 : __assertfail(#e, __FILE__, __LINE__, __func__, "
    "sizeof(char)))\n"
    "#endif\n";

static const char stddef_text[] = "#pragma once\n"
                                  "#ifndef NULL\n#define NULL 0\n#endif\n"
                                  "#ifndef offsetof\n#define offsetof(t, m) ((size_t) & (((t *)0)->m))\n#endif\n";

/* <stdint.h> where the toolkit has no libcu++: the types libcu++ gives under NVRTC. */
static const char stdint_own[] =
    "#pragma once\n"
    "typedef signed char int8_t; typedef short int16_t; typedef int int32_t;\n"
    "typedef long long int64_t; typedef unsigned char uint8_t; typedef unsigned short uint16_t;\n"
    "typedef unsigned int uint32_t; typedef unsigned long long uint64_t;\n"
    "typedef long long intptr_t; typedef unsigned long long uintptr_t;\n"
    "typedef long long intmax_t; typedef unsigned long long uintmax_t;\n"
    "#define INT8_MIN (-128)\n#define INT8_MAX 127\n#define UINT8_MAX 255\n"
    "#define INT16_MIN (-32768)\n#define INT16_MAX 32767\n#define UINT16_MAX 65535\n"
    "#define INT32_MIN (-INT32_MAX - 1)\n#define INT32_MAX 2147483647\n#define UINT32_MAX 4294967295U\n"
    "#define INT64_MIN (-INT64_MAX - 1LL)\n#define INT64_MAX 9223372036854775807LL\n"
    "#define UINT64_MAX 18446744073709551615ULL\n#define SIZE_MAX UINT64_MAX\n";

/* The C++ library's headers, each libcu++'s <cuda/std/NAME> with its names in std:: too
 * (nvcc's programs name std::numeric_limits, std::is_same...). */
static const char *const cxx[] = {
    "type_traits", "limits", "utility", "array", "tuple", "functional", "bit", "cstdint",
    "cstddef", "climits", "cfloat", "cmath", "cstdlib", "complex", "initializer_list",
    "iterator", "numeric", "optional", "span", "ratio", "variant", "atomic", "algorithm",
};

/* C headers that are libcu++'s C++ ones where it exists (global names as well). */
static const struct {
    const char *name, *as;
} c_as_cxx[] = {{"stdint.h", "cstdint"}, {"inttypes.h", "cstdint"}, {"cinttypes", "cstdint"}};

enum { TEXT_MAX = 256 };
static char cxx_texts[sizeof cxx / sizeof cxx[0]][TEXT_MAX];

/* libcu++'s headers include one another's macros (<cuda/std/climits>...): ours go before
 * each and come back after it, where it did not define them. */
static void make_cxx_text(char *buf, const char *name)
{
    snprintf(buf, TEXT_MAX,
             "#pragma once\n#include <__lat_undef_ambient.h>\n#include <cuda/std/%s>\n"
             "#include <__lat_ambient.h>\nnamespace std { using namespace cuda::std; }\n",
             name);
}

static pthread_once_t texts_once = PTHREAD_ONCE_INIT;
static void make_texts(void)
{
    for (size_t i = 0; i < sizeof cxx / sizeof cxx[0]; i++)
        make_cxx_text(cxx_texts[i], cxx[i]);
}

/* Whether dir/cuda/std/name or dir/cccl/cuda/std/name (CUDA 13) is a file. */
static bool has_libcuxx(const char *dir, const char *name)
{
    char path[4200];
    if (!dir)
        return false;
    int n = snprintf(path, sizeof path, "%s/cuda/std/%s", dir, name);
    if (n > 0 && (size_t)n < sizeof path && access(path, R_OK) == 0)
        return true;
    n = snprintf(path, sizeof path, "%s/cccl/cuda/std/%s", dir, name);
    return n > 0 && (size_t)n < sizeof path && access(path, R_OK) == 0;
}

static const struct {
    const char *name, *text;
} c_only[] = {{"cstdint", stdint_own}, {"cstddef", stddef_text}, {"cstdlib", ""},
              {"climits", ""}, {"cfloat", ""}, {"cmath", ""}};

static int cxx_index(const char *name)
{
    for (size_t i = 0; i < sizeof cxx / sizeof cxx[0]; i++)
        if (!strcmp(cxx[i], name))
            return (int)i;
    return -1;
}

int lat__cu_std_headers(const char *toolkit, const char **names, const char **texts, int max)
{
    pthread_once(&texts_once, make_texts);
    int n = 0;
#define ADD(nm, tx)                                                                      \
    do {                                                                                 \
        if (n < max) {                                                                   \
            names[n] = (nm);                                                             \
            texts[n] = (tx);                                                             \
            n++;                                                                         \
        }                                                                                \
    } while (0)
    for (size_t i = 0; i < sizeof empty / sizeof empty[0]; i++)
        ADD(empty[i], "");
    ADD("assert.h", assert_text);
    ADD("stddef.h", stddef_text);
    ADD("__lat_undef_ambient.h", undef_ambient);
    const char *amb = lat__cu_ambient_text(toolkit);
    if (amb)
        ADD("__lat_ambient.h", amb);
    bool cstdint = false;
    for (size_t i = 0; i < sizeof cxx / sizeof cxx[0]; i++) {
        const char *text = has_libcuxx(toolkit, cxx[i]) ? cxx_texts[i] : NULL;
        /* Without libcu++, the C library's half of a C++ header still serves. */
        for (size_t j = 0; !text && j < sizeof c_only / sizeof c_only[0]; j++)
            if (!strcmp(c_only[j].name, cxx[i]))
                text = c_only[j].text;
        if (text)
            ADD(cxx[i], text);
        cstdint |= text == cxx_texts[i] && !strcmp(cxx[i], "cstdint");
    }
    for (size_t i = 0; i < sizeof c_as_cxx / sizeof c_as_cxx[0]; i++) {
        int k = cxx_index(c_as_cxx[i].as);
        ADD(c_as_cxx[i].name, cstdint ? cxx_texts[k] : stdint_own);
    }
    ADD("cassert", assert_text);
#undef ADD
    return n;
}

bool lat__cu_std_header_is_cxx(const char *name)
{
    if (cxx_index(name) >= 0)
        return true;
    for (size_t i = 0; i < sizeof c_as_cxx / sizeof c_as_cxx[0]; i++)
        if (!strcmp(c_as_cxx[i].name, name))
            return true;
    return false;
}
