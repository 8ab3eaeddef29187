/*
 * A tiny test runner in the style of libuv's: each test binary holds named cases that
 * read like specifications, one behaviour each.
 *
 *     TEST(alloc_of_zero_bytes_is_invalid_value)
 *     {
 *         lat_context *ctx = t_context();
 *         lat_deviceptr p;
 *         ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_mem_alloc(ctx, 0, &p));
 *     }
 *
 * The binary runs every case (or the one named by argv[1]; --list lists them) in the
 * order they appear in the file, printing `ok NAME`, `FAIL NAME: ...` or
 * `skip NAME: reason`, then `N passed, N failed, N skipped`. It exits 1 when a case
 * failed and 77 (meson's "skipped") when every case skipped.
 *
 * A failed ASSERT prints both values and lat_last_error(), then abandons the case
 * (longjmp). Whatever the t_* helpers created for the case (contexts, host buffers) is
 * released after it either way, so a failing case does not leak into the next one.
 */
#ifndef LAT_TEST_HARNESS_H
#define LAT_TEST_HARNESS_H

#include "lattice.h"

#include <stddef.h>
#include <stdint.h>

typedef void (*t_case_fn)(void);

/* Called by TEST() before main; the line keeps cases in file order. */
void t_register(const char *name, t_case_fn fn, int line);

#define TEST(name)                                                                     \
    static void test_##name(void);                                                     \
    __attribute__((constructor)) static void t_register_##name(void)                   \
    {                                                                                  \
        t_register(#name, test_##name, __LINE__);                                      \
    }                                                                                  \
    static void test_##name(void)

/* ---- failing and skipping ------------------------------------------------------------ */

/* Abandon the current case as failed / skipped. printf-style; a skip must give its reason
 * (no GPU, no MPI...): an empty one fails the case. */
_Noreturn void t_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
_Noreturn void t_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
_Noreturn void t_fail_status(const char *file, int line, const char *expr,
                             lat_status expected, lat_status got);

#define SKIP(...) t_skip(__VA_ARGS__)
#define FAIL(...) t_fail(__FILE__, __LINE__, __VA_ARGS__)

/* ---- assertions ---------------------------------------------------------------------- */

#define ASSERT_STATUS(expected, expr)                                                  \
    do {                                                                               \
        lat_status t_got_ = (expr);                                                    \
        if (t_got_ != (expected))                                                      \
            t_fail_status(__FILE__, __LINE__, #expr, (expected), t_got_);              \
    } while (0)
#define ASSERT_OK(expr) ASSERT_STATUS(LAT_OK, expr)

#define T_CMP_(type, fmt, a, op, b)                                                    \
    do {                                                                               \
        type t_a_ = (type)(a), t_b_ = (type)(b);                                       \
        if (!(t_a_ op t_b_))                                                           \
            t_fail(__FILE__, __LINE__, "ASSERT(%s %s %s): " fmt " vs " fmt, #a, #op,   \
                   #b, t_a_, t_b_);                                                    \
    } while (0)

/* Signed integers (anything that fits a long long). */
#define ASSERT_EQ(a, b) T_CMP_(long long, "%lld", a, ==, b)
#define ASSERT_NE(a, b) T_CMP_(long long, "%lld", a, !=, b)
#define ASSERT_LT(a, b) T_CMP_(long long, "%lld", a, <, b)
#define ASSERT_LE(a, b) T_CMP_(long long, "%lld", a, <=, b)
#define ASSERT_GT(a, b) T_CMP_(long long, "%lld", a, >, b)
#define ASSERT_GE(a, b) T_CMP_(long long, "%lld", a, >=, b)
/* Unsigned 64-bit values: sizes, device addresses. */
#define ASSERT_U64_EQ(a, b) T_CMP_(unsigned long long, "%#llx", a, ==, b)
#define ASSERT_U64_NE(a, b) T_CMP_(unsigned long long, "%#llx", a, !=, b)
#define ASSERT_U64_LE(a, b) T_CMP_(unsigned long long, "%llu", a, <=, b)
#define ASSERT_U64_GT(a, b) T_CMP_(unsigned long long, "%llu", a, >, b)

#define ASSERT_TRUE(cond)                                                              \
    do {                                                                               \
        if (!(cond))                                                                   \
            t_fail(__FILE__, __LINE__, "ASSERT_TRUE(%s)", #cond);                      \
    } while (0)
#define ASSERT_NULL(p) ASSERT_MSG((p) == NULL, "%s is %p, want NULL", #p, (const void *)(p))
#define ASSERT_NOT_NULL(p) ASSERT_MSG((p) != NULL, "%s is NULL", #p)

/* A condition with a message of the caller's, for checks inside loops:
 *     ASSERT_MSG(out[i] == want, "out[%zu] = %d, want %d", i, out[i], want); */
#define ASSERT_MSG(cond, ...)                                                          \
    do {                                                                               \
        if (!(cond))                                                                   \
            t_fail(__FILE__, __LINE__, __VA_ARGS__);                                   \
    } while (0)

#define ASSERT_STR_EQ(a, b)                                                            \
    do {                                                                               \
        const char *t_a_ = (a), *t_b_ = (b);                                           \
        if (!t_streq(t_a_, t_b_))                                                      \
            t_fail(__FILE__, __LINE__, "ASSERT_STR_EQ(%s, %s): \"%s\" vs \"%s\"", #a,  \
                   #b, t_a_ ? t_a_ : "(null)", t_b_ ? t_b_ : "(null)");                \
    } while (0)
/* The string contains the substring. */
#define ASSERT_CONTAINS(haystack, needle)                                              \
    do {                                                                               \
        const char *t_h_ = (haystack), *t_n_ = (needle);                               \
        if (!t_contains(t_h_, t_n_))                                                   \
            t_fail(__FILE__, __LINE__, "ASSERT_CONTAINS(%s, %s): \"%s\" not in \"%s\"",\
                   #haystack, #needle, t_n_, t_h_ ? t_h_ : "(null)");                  \
    } while (0)
/* |got - want| <= abs_tol + rel_tol * |want| */
#define ASSERT_CLOSE(got, want, rel_tol, abs_tol)                                      \
    do {                                                                               \
        double t_g_ = (double)(got), t_w_ = (double)(want);                            \
        if (!t_close(t_g_, t_w_, (rel_tol), (abs_tol)))                                \
            t_fail(__FILE__, __LINE__, "ASSERT_CLOSE(%s, %s): %.17g vs %.17g", #got,   \
                   #want, t_g_, t_w_);                                                 \
    } while (0)

int t_streq(const char *a, const char *b);
int t_contains(const char *haystack, const char *needle);
int t_close(double got, double want, double rel_tol, double abs_tol);

/* ---- lattice helpers ----------------------------------------------------------------- */

/* The backend this run tests: LATTICE_BACKEND=emu|cuda as meson sets it per suite, or
 * LAT_BACKEND_AUTO when the variable is unset (running a test binary by hand). */
lat_backend_kind t_backend(void);

/* Skips the case (naming lat_last_error()) when the backend under test is unavailable;
 * otherwise returns the resolved backend. */
lat_backend_kind t_require_backend(void);

/* setenv/unsetenv of a LATTICE_* variable that the library then reads again (it reads its
 * environment when a context is made or devices are counted, not per launch): for a setting
 * that must apply to an existing context's next compile or launch. */
void t_setenv(const char *name, const char *value);
void t_unsetenv(const char *name);

/* A context on the backend under test, destroyed after the case. Skips the case when
 * that backend is unavailable, with the reason lattice gave. */
lat_context *t_context(void);
/* The same with a descriptor of the caller's; desc->backend is replaced by the backend
 * under test unless it is non-zero. */
lat_context *t_context_with(const lat_context_desc *desc);

/* 1 when the context runs on the emulator (alone, or cross-checked against a GPU). */
int t_is_emu(const lat_context *ctx);
/* 1 when NVRTC compiles the context's modules: CUDA, or cross-checking against a GPU (not
 * against a second emulator, LATTICE_CROSS_PRIMARY=emu). */
int t_on_gpu(const lat_context *ctx);

/* Compiles `source` (as "NAME.cu" for messages, NAME being the kernel's) and returns the
 * kernel `name`; fails the case with the compiler's log on error. The module lives
 * until the context is destroyed. */
lat_kernel *t_kernel(lat_context *ctx, const char *source, const char *name);
/* The same, the source compiled as written (lat_module_desc.no_extern_c: C++ linkage, as
 * templates need; the kernel itself declared extern "C" to be found by its name). */
lat_kernel *t_kernel_as_written(lat_context *ctx, const char *source, const char *name);

/* A device buffer of `bytes`, holding a copy of `host` when it is not NULL. Freed with
 * the context. */
lat_deviceptr t_device_copy(lat_context *ctx, const void *host, size_t bytes);

/* Zeroed host memory freed after the case. */
void *t_calloc(size_t count, size_t size);

/* A new directory of the caller's alone (/tmp/lattice-test-XXXXXX), removed with all it
 * holds after the case, whether it passed, failed or skipped, and after the contexts
 * made since (their background compiles may write into it). */
const char *t_tempdir(void);

/* Calls fn after the case, however it ends (an environment put back), before what was
 * kept for the case earlier is released. */
void t_defer(void (*fn)(void));

/* ---- random inputs ------------------------------------------------------------------- */

/* Every case starts from the same seed (printed by the runner; LATTICE_TEST_SEED sets
 * it), so a failure reproduces when the case is run alone. Not thread-safe. */
uint64_t t_seed(void);
uint32_t t_rand_u32(void);
double t_rand_double(double lo, double hi); /* uniform in [lo, hi) */
void t_rand_floats(float *out, size_t n, float lo, float hi);

#endif
