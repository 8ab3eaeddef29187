/* Bad input gets a clear status, never a crash, a hang or a leak; a kernel that faults
 * or runs away fails its launch, not the process (issue 18: the inputs a fuzzer and a
 * hand-written probe once broke lattice with, each kept here as a case). */
#include "check_util.h"
#include "wild.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* A time bound, stretched under valgrind (it runs code some 20-50 times slower). */
static double bound(double seconds)
{
    return RUNNING_ON_VALGRIND ? seconds * 30 : seconds;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* An emulator context (the cases are about the emulator unless they say otherwise). */
static lat_context *emu_context(unsigned check)
{
    lat_backend_kind k = t_require_backend();
    if (k != LAT_BACKEND_EMU)
        SKIP("about the emulator (this suite runs %s)", lat_backend_name(k));
    return t_context_with(&(lat_context_desc){.backend = LAT_BACKEND_EMU,
                                               .check = check ? check : LAT_CHECK_OFF});
}

static lat_status compile(lat_context *ctx, const char *src, lat_module **mod)
{
    return lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "fuzz.cu"}, mod);
}

static lat_status launch1(lat_context *ctx, const char *src, const char *name, lat_dim3 grid,
                          lat_dim3 block, void **params)
{
    lat_module *mod;
    lat_status st = compile(ctx, src, &mod);
    if (st != LAT_OK)
        FAIL("compile: %s", lat_last_error());
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(mod, name, &k));
    return lat_launch(k, &(lat_launch_desc){.grid = grid, .block = block}, params);
}

/* The context goes on working after whatever the case did to it. */
static void still_usable(lat_context *ctx)
{
    lat_kernel *k = t_kernel(ctx, "__global__ void one(int *p) { p[threadIdx.x] = 1; }\n", "one");
    int out[4] = {0};
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {4}},
                              LAT_ARGS(lat_arg_out(out, sizeof out))));
    ASSERT_EQ(out[3], 1);
}

/* 1. A stray ')' in a body with a barrier: a compile error with a message. */
TEST(a_stray_paren_before_a_barrier_is_a_compile_error)
{
    lat_context *ctx = emu_context(0);
    lat_module *mod;
    ASSERT_STATUS(LAT_ERROR_COMPILE,
                  compile(ctx, "__global__ void k() { x); __syncthreads(); }\n", &mod));
    ASSERT_CONTAINS(lat_last_error(), "fuzz.cu:1:");
    still_usable(ctx);
}

/* Each source is a compile error (or unsupported) naming its place, within 2 s; the
 * context goes on working. */
static void refused_quickly(lat_context *ctx, const char *const *srcs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        lat_module *mod;
        double t0 = now();
        lat_status st = compile(ctx, srcs[i], &mod);
        ASSERT_MSG(st == LAT_ERROR_COMPILE || st == LAT_ERROR_UNSUPPORTED, "%s: %s (%s)", srcs[i],
                   lat_status_string(st), lat_last_error());
        ASSERT_CONTAINS(lat_last_error(), "fuzz.cu:");
        ASSERT_LT(now() - t0, bound(2));
    }
    still_usable(ctx);
}

/* Found by the fuzzer: a member access at the very end of the input read its '.' again
 * for ever, allocating an error node each time (until memory ran out). */
TEST(inputs_that_end_in_the_middle_are_compile_errors)
{
    lat_context *ctx = emu_context(0);
    const char *srcs[] = {
        "__global__ void ids(int *out)\n{\n    int i = blockIdx.x * blockDim.",
        "struct S { int x; };\n__device__ S s;\n__global__ void k(int *o) { *o = s.",
        "__global__ void k(int *o) { o->",
        "struct",
        "class",
        "struct S",
        "__global__ void k(",
        "__global__ void k() { int a[",
        "template <",
        "namespace n {",
        "#if 1",
        "__global__ void k() { asm(",
        "extern \"C\"",
    };
    refused_quickly(ctx, srcs, sizeof srcs / sizeof srcs[0]);
}

/* Found by the fuzzer (fuzz_launch, 7 minutes): a class cut short by the end of the input
 * left an unnamed field of its own type, and a member function's `o.r` looked inside it
 * for ever (a stack overflow in the front end). */
TEST(a_class_cut_short_with_a_member_of_its_own_type_is_a_compile_error)
{
    lat_context *ctx = emu_context(0);
    const char *srcs[] = {
        "class Complex{  __device__ r(const Complex &o){ (o.r) }\n Complex ",
        "struct S { int a; struct S }; __global__ void k(int *o) { struct S s; *o = s.b; }",
    };
    refused_quickly(ctx, srcs, sizeof srcs / sizeof srcs[0]);
}

/* 2. Two kernels with barriers after a bad declaration: the error, and nothing leaked
 * (the sanitizer and valgrind runs see leaks). */
TEST(two_barrier_kernels_after_a_bad_declaration_leak_nothing)
{
    lat_context *ctx = emu_context(0);
    for (int i = 0; i < 20; i++) {
        lat_module *mod;
        ASSERT_STATUS(LAT_ERROR_COMPILE,
                      compile(ctx,
                              "__global__ void a(){ __shared__ int s]; __syncthreads(); }\n"
                              "__global__ void b(){ __syncthreads(); }\n",
                              &mod));
        ASSERT_CONTAINS(lat_last_error(), "fuzz.cu:1:");
    }
    still_usable(ctx);
}

/* 3. Checked modules instrument each access once: 40 levels of '*' compile at once. */
TEST(deep_dereferences_compile_quickly_under_all_checks)
{
    lat_context *ctx = emu_context(LAT_CHECK_ALL);
    char src[1024];
    char stars[41];
    memset(stars, '*', 40);
    stars[40] = 0;
    snprintf(src, sizeof src,
             "__global__ void k(int *out, int %sp)\n"
             "{\n"
             "    int v = %sp;\n"
             "    out[0] = v;\n"
             "}\n",
             stars, stars);
    double t0 = now();
    lat_module *mod;
    ASSERT_OK(compile(ctx, src, &mod));
    ASSERT_LT(now() - t0, bound(5));
}

/* 4. #include and .path read regular files only. */
TEST(include_of_a_device_or_fifo_is_a_file_error)
{
    lat_context *ctx = emu_context(0);
    t_setenv("LATTICE_CACHE", "1");
    char fifo[64];
    snprintf(fifo, sizeof fifo, "/tmp/lattice-fifo-%d", (int)getpid());
    unlink(fifo);
    ASSERT_EQ(mkfifo(fifo, 0600), 0);
    const char *paths[] = {"/dev/zero", "/dev/stdin", fifo, "/dev/urandom", "/tmp"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        char src[256];
        snprintf(src, sizeof src, "#include \"%s\"\n__global__ void k() {}\n", paths[i]);
        lat_module *mod;
        double t0 = now();
        lat_status st = compile(ctx, src, &mod);
        ASSERT_MSG(st == LAT_ERROR_FILE, "#include \"%s\": %s (%s)", paths[i],
                   lat_status_string(st), lat_last_error());
        ASSERT_CONTAINS(lat_last_error(), paths[i]);
        ASSERT_LT(now() - t0, bound(2));
        t0 = now();
        st = lat_module_create(ctx, &(lat_module_desc){.path = paths[i]}, &mod);
        ASSERT_MSG(st == LAT_ERROR_FILE, ".path = \"%s\": %s (%s)", paths[i],
                   lat_status_string(st), lat_last_error());
        ASSERT_CONTAINS(lat_last_error(), paths[i]);
        ASSERT_LT(now() - t0, bound(2));
    }
    unlink(fifo);
    t_unsetenv("LATTICE_CACHE");
    still_usable(ctx);
}

/* 5. Stack overflow in a checked launch fails the launch. */
TEST(stack_overflow_in_a_checked_launch_fails_the_launch)
{
    lat_context *ctx = emu_context(LAT_CHECK_MEMCHECK);
    int n = 100000000;
    void *params[] = {&n};
    lat_status st = WILD(launch1(ctx,
                                 "__device__ int f(int n) { return n == 0 ? 0 : f(n - 1) + 1; }\n"
                                 "__global__ void deep(int n) { if (f(n) == 42) __trap(); }\n",
                                 "deep", (lat_dim3){1}, (lat_dim3){1}, params));
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, st);
    ASSERT_CONTAINS(lat_last_error(), "deep");
    still_usable(ctx);
}

TEST(stack_overflow_in_an_unchecked_launch_fails_the_launch)
{
    lat_context *ctx = emu_context(0);
    int n = 100000000;
    void *params[] = {&n};
    lat_status st = WILD(launch1(ctx,
                                 "__device__ int f(int n) { return n == 0 ? 0 : f(n - 1) + 1; }\n"
                                 "__global__ void deep(int n) { if (f(n) == 42) __trap(); }\n",
                                 "deep", (lat_dim3){4}, (lat_dim3){2}, params));
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, st);
    ASSERT_CONTAINS(lat_last_error(), "deep");
    still_usable(ctx);
}

/* 6. A stopped launch returns within the bound whatever the grid's size. */
TEST(the_largest_grid_stops_within_the_timeout)
{
    t_setenv("LATTICE_EMU_TIMEOUT", "2");
    lat_context *ctx = emu_context(0);
    t_unsetenv("LATTICE_EMU_TIMEOUT");
    double t0 = now();
    lat_status st = launch1(ctx, "__global__ void empty() {}\n", "empty",
                            (lat_dim3){2147483647u, 65535, 65535}, (lat_dim3){1}, NULL);
    double took = now() - t0;
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, st);
    ASSERT_CONTAINS(lat_last_error(), "LATTICE_EMU_TIMEOUT");
    ASSERT_MSG(took < bound(2 * 1.25 + 0.5), "took %.2f s", took);
    still_usable(ctx);
}

TEST(a_checked_kernel_looping_through_barriers_stops_within_its_timeout)
{
    lat_context *ctx = emu_context(LAT_CHECK_MEMCHECK);
    ASSERT_OK(lat_check_configure(ctx, &(lat_check_options){.timeout_s = 1}));
    int n = 1 << 30;
    lat_deviceptr a = t_device_copy(ctx, NULL, 64 * sizeof(int));
    void *params[] = {&a, &n};
    const char *src = "__global__ void tiles(int *a, int n)\n"
                      "{ __shared__ int s[64]; int acc = 0;\n"
                      "  for (int k = 0; k < n; k += 16) { s[threadIdx.x] = a[k % 64]; __syncthreads();\n"
                      "    acc += s[63 - threadIdx.x]; __syncthreads(); }\n"
                      "  a[threadIdx.x] = acc; }\n";
    for (int fibers = 0; fibers < 2; fibers++) {
        if (fibers)
            t_setenv("LATTICE_EMU_FIBERS", "1");
        double t0 = now();
        lat_status st = launch1(ctx, src, "tiles", (lat_dim3){1}, (lat_dim3){32}, params);
        t_unsetenv("LATTICE_EMU_FIBERS");
        ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, st);
        ASSERT_CONTAINS(lat_last_error(), "did not finish block (0,0,0) within 1 s");
        ASSERT_LT(now() - t0, bound(3));
    }
    ASSERT_OK(lat_check_configure(ctx, &(lat_check_options){0}));
}

TEST(the_largest_grid_stops_within_the_timeout_checked)
{
    lat_context *ctx = emu_context(LAT_CHECK_MEMCHECK);
    ASSERT_OK(lat_check_configure(ctx, &(lat_check_options){.timeout_s = 1}));
    double t0 = now();
    lat_status st = launch1(ctx, "__global__ void empty() {}\n", "empty",
                            (lat_dim3){2147483647u, 65535, 65535}, (lat_dim3){1}, NULL);
    double took = now() - t0;
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, st);
    ASSERT_CONTAINS(lat_last_error(), "did not finish its grid within 4 s");
    ASSERT_MSG(took < bound(5), "took %.2f s", took);
    ASSERT_OK(lat_check_configure(ctx, &(lat_check_options){0}));
    still_usable(ctx);
}

/* 7. Inline asm other than the PTX docs/dialect.md lists (x86's, say) is refused; the
 * PTX it lists runs (tests/test_inline_ptx.c). */
TEST(inline_asm_is_unsupported_on_the_emulator)
{
    lat_context *ctx = emu_context(0);
    const char *srcs[] = {
        "__global__ void k() { asm(\"ud2\"); }\n",
        "__global__ void k() { asm volatile(\"int3\"); }\n",
        "__global__ void k() { __asm__(\"syscall\"); }\n",
        "__global__ void k(int *p) { int l; asm(\"mov.u32 %0, %%rsp;\" : \"=r\"(l)); *p = l; }\n",
        "__global__ void k(int *p) { asm(\"movl $0, %%eax\" ::: \"eax\"); }\n",
        "__device__ void f() { __asm__ __volatile__(\"ud2\"); }\n__global__ void k() { f(); }\n",
    };
    for (size_t i = 0; i < sizeof srcs / sizeof srcs[0]; i++) {
        lat_module *mod;
        lat_status st = compile(ctx, srcs[i], &mod);
        ASSERT_MSG(st == LAT_ERROR_UNSUPPORTED, "%s: %s (%s)", srcs[i], lat_status_string(st),
                   lat_last_error());
        ASSERT_CONTAINS(lat_last_error(), "asm");
    }
    still_usable(ctx);
}

/* 8. A local array written far past its end fails the launch. */
TEST(a_local_array_overflow_fails_the_launch_cleanly)
{
    lat_context *ctx = emu_context(0);
    int out_h[64] = {0};
    lat_deviceptr out = t_device_copy(ctx, out_h, sizeof out_h);
    int n = 4096;
    void *params[] = {&out, &n};
    for (int grid = 1; grid <= 4; grid *= 2) {
        lat_status st = WILD(launch1(ctx,
                                "__global__ void smash(int *out, int n)\n"
                                "{\n"
                                "    int a[4];\n"
                                "    for (int i = 0; i < n; i++)\n"
                                "        a[i] = 0x41414141;\n"
                                "    out[threadIdx.x] = a[1];\n"
                                "}\n",
                                "smash", (lat_dim3){grid}, (lat_dim3){32}, params));
        ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, st);
        ASSERT_CONTAINS(lat_last_error(), "smash");
        ASSERT_CONTAINS(lat_last_error(), "write past the top of the kernel's stack");
    }
    still_usable(ctx);
}

/* Every signal kernel code can raise fails the launch: a jump into data holding ud2
 * (SIGILL) or int3 (SIGTRAP). */
TEST(illegal_instructions_and_breakpoints_in_kernel_code_fail_the_launch)
{
    lat_context *ctx = emu_context(0);
    const char *codes[] = {"0x0f, 0x0b", "0xcc, 0x90"};
    const char *says[] = {"illegal instruction", "breakpoint trap"};
    for (int i = 0; i < 2; i++) {
        char src[300];
        snprintf(src, sizeof src,
                 "__device__ unsigned char code[4] = {%s};\n"
                 "typedef void (*fn)(void);\n"
                 "__global__ void jump() { fn f = (fn)(void *)code; f(); }\n",
                 codes[i]);
        lat_status st = WILD(launch1(ctx, src, "jump", (lat_dim3){2}, (lat_dim3){4}, NULL));
        ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, st);
        ASSERT_CONTAINS(lat_last_error(), says[i]);
    }
    still_usable(ctx);
}

/* 9. printf with a huge width stays within the timeout bound. */
TEST(a_huge_printf_width_stays_within_the_timeout)
{
    t_setenv("LATTICE_EMU_TIMEOUT", "2");
    lat_context *ctx = emu_context(0);
    t_unsetenv("LATTICE_EMU_TIMEOUT");
    /* The kernel's output goes to /dev/null (stdout is the runner's report). */
    fflush(stdout);
    int saved = dup(1);
    int null = open("/dev/null", O_WRONLY);
    ASSERT_TRUE(saved >= 0 && null >= 0);
    dup2(null, 1);
    close(null);
    double t0 = now();
    lat_status st = launch1(ctx, "__global__ void wide() { printf(\"%999999999d\\n\", 1); }\n",
                            "wide", (lat_dim3){1}, (lat_dim3){32}, NULL);
    double took = now() - t0;
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    ASSERT_MSG(took < bound(2 * 1.25 + 0.5), "took %.2f s (%s)", took, lat_status_string(st));
    still_usable(ctx);
}

/* 10. Deep nesting is a compile error naming the limit, quickly. */
static char *nest(const char *head, const char *open, size_t n, const char *mid,
                  const char *close, const char *tail)
{
    size_t lh = strlen(head), lo = strlen(open), lm = strlen(mid), lc = strlen(close);
    size_t len = lh + n * (lo + lc) + lm + strlen(tail) + 1;
    char *s = t_calloc(len, 1);
    ASSERT_NOT_NULL(s);
    size_t at = 0;
    memcpy(s + at, head, lh), at += lh;
    for (size_t i = 0; i < n; i++)
        memcpy(s + at, open, lo), at += lo;
    memcpy(s + at, mid, lm), at += lm;
    for (size_t i = 0; i < n; i++)
        memcpy(s + at, close, lc), at += lc;
    memcpy(s + at, tail, strlen(tail) + 1);
    return s;
}

static void expect_limit_(lat_context *ctx, const char *src, const char *what, const char *says)
{
    lat_module *mod;
    double t0 = now();
    lat_status st = compile(ctx, src, &mod);
    ASSERT_MSG(st == LAT_ERROR_COMPILE, "%s: %s (%s)", what, lat_status_string(st),
               lat_last_error());
    ASSERT_CONTAINS(lat_last_error(), says);
    ASSERT_MSG(now() - t0 < bound(5), "%s took %.2f s", what, now() - t0);
}

static void expect_limit(lat_context *ctx, const char *src, const char *what)
{
    expect_limit_(ctx, src, what, "nested too deeply: more than 1024 levels");
}

TEST(deep_nesting_is_a_compile_error_naming_the_limit)
{
    lat_context *ctx = emu_context(0);
    expect_limit(ctx, nest("__global__ void k(int *p) { *p = ", "(", 13500, "1", ")", "; }\n"),
                 "13,500 parentheses");
    expect_limit(ctx, nest("__global__ void k(int *p) ", "{", 58000, "*p = 1;", "}", "\n"),
                 "58,000 braces");
    expect_limit(ctx,
                 nest("__global__ void k(int *p) {", "if (*p) {", 15400, "__syncthreads();",
                      "}", "}\n"),
                 "15,400 nested ifs");
    expect_limit(ctx,
                 nest("__global__ void k(int *p) { *p = ", "- ", 200000, "1", "", "; }\n"),
                 "200,000 unary minuses");
    expect_limit(ctx, nest("__global__ void k(int *p) { *p = ", "p[0] + ", 200000, "1", "", "; }\n"),
                 "a sum of 200,000 terms");
    expect_limit(ctx, nest("__global__ void k(int *p) { *p = ", "*p ? 1 : ", 100000, "0", "", "; }\n"),
                 "100,000 conditionals");
    expect_limit(ctx, nest("__global__ void k(int *p) { int x; ", "x = ", 100000, "1", "", "; }\n"),
                 "100,000 assignments");
    expect_limit(ctx,
                 nest("__global__ void k(int *p) { int x[1] = ", "{", 100000, "1", "}", "; }\n"),
                 "100,000 braces of an initializer");
    expect_limit(ctx, nest("", "namespace a { ", 100000, "int x;", " }", "\n__global__ void k() {}\n"),
                 "100,000 namespaces");
    expect_limit(ctx, nest("__global__ void k() { ", "struct { ", 100000, "int x;", " } a;", " }\n"),
                 "100,000 nested structs");
    expect_limit(ctx, nest("template <class T> struct W { T v; };\n__global__ void k() { ", "W<", 100000,
                           "int", ">", " w; }\n"),
                 "100,000 template arguments");
    expect_limit(ctx, nest("__global__ void k(int ", "*", 100000, "p", "", ") {}\n"),
                 "100,000 pointer declarators");
    expect_limit(ctx, nest("", "extern \"C\" { ", 100000, "", " }", "\n__global__ void k() {}\n"),
                 "100,000 extern \"C\" blocks");
    /* Within the limit, a deep kernel compiles, checked or not. */
    lat_module *mod;
    ASSERT_OK(compile(ctx, nest("__global__ void k(int *p) { *p = ", "(", 1000, "p[0]", ")", "; }\n"),
                      &mod));
    ASSERT_OK(compile(ctx, nest("__global__ void k(int *p) { *p = ", "p[0] + ", 1000, "1", "", "; }\n"),
                      &mod));
    still_usable(ctx);
}

TEST(a_macro_bomb_in_an_if_is_a_compile_error_naming_the_limit)
{
    lat_context *ctx = emu_context(0);
    const char *src =
        "#define A0 1+1\n"
        "#define A1 A0+A0\n#define A2 A1+A1\n#define A3 A2+A2\n#define A4 A3+A3\n"
        "#define A5 A4+A4\n#define A6 A5+A5\n#define A7 A6+A6\n#define A8 A7+A7\n"
        "#define A9 A8+A8\n#define B0 A9+A9\n#define B1 B0+B0\n#define B2 B1+B1\n"
        "#define B3 B2+B2\n#define B4 B3+B3\n#define B5 B4+B4\n#define B6 B5+B5\n"
        "#define B7 B6+B6\n#define B8 B7+B7\n#define B9 B8+B8\n#define C0 B9+B9\n"
        "#define C1 C0+C0\n#define C2 C1+C1\n#define C3 C2+C2\n#define C4 C3+C3\n"
        "#define C5 C4+C4\n#define C6 C5+C5\n#define C7 C6+C6\n#define C8 C7+C7\n"
        "#if C8\n#endif\n"
        "__global__ void k() {}\n";
    expect_limit_(ctx, src, "macro bomb in #if", "more than");
    const char *body =
        "#define A0 1+1\n"
        "#define A1 A0+A0\n#define A2 A1+A1\n#define A3 A2+A2\n#define A4 A3+A3\n"
        "#define A5 A4+A4\n#define A6 A5+A5\n#define A7 A6+A6\n#define A8 A7+A7\n"
        "#define A9 A8+A8\n#define B0 A9+A9\n#define B1 B0+B0\n#define B2 B1+B1\n"
        "#define B3 B2+B2\n#define B4 B3+B3\n#define B5 B4+B4\n#define B6 B5+B5\n"
        "#define B7 B6+B6\n#define B8 B7+B7\n#define B9 B8+B8\n#define C0 B9+B9\n"
        "__global__ void k(int *p) { *p = C0; }\n";
    expect_limit_(ctx, body, "macro bomb in a body", "more than");
    /* Macro calls nested in arguments, each level copying what is inside it. */
    char *nested = nest("#define X(a) a\n__global__ void k(int *p) { *p = ", "X(", 20000, "1", ")",
                        "; }\n");
    expect_limit_(ctx, nested, "20,000 nested macro calls", "more than");
    still_usable(ctx);
}

/* Smaller items. */
TEST(constant_memory_above_64_kib_is_a_compile_error)
{
    lat_context *ctx = emu_context(0);
    lat_module *mod;
    ASSERT_STATUS(LAT_ERROR_COMPILE,
                  compile(ctx,
                          "__constant__ float c[1 << 20];\n"
                          "__global__ void k(float *p) { *p = c[3]; }\n",
                          &mod));
    ASSERT_CONTAINS(lat_last_error(), "__constant__");
    ASSERT_OK(compile(ctx,
                      "__constant__ float c[1 << 14];\n"
                      "__global__ void k(float *p) { *p = c[3]; }\n",
                      &mod));
}

TEST(static_shared_memory_above_the_device_limit_fails)
{
    lat_context *ctx = emu_context(0);
    lat_module *mod;
    lat_status st = compile(ctx,
                            "__global__ void k(float *p) { __shared__ float s[1 << 20];\n"
                            "  s[threadIdx.x] = 1; __syncthreads(); *p = s[3]; }\n",
                            &mod);
    if (st == LAT_OK) {
        lat_kernel *k;
        ASSERT_OK(lat_module_get_kernel(mod, "k", &k));
        lat_deviceptr p = t_device_copy(ctx, NULL, 4);
        void *params[] = {&p};
        st = lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {4}}, params);
        ASSERT_STATUS(LAT_ERROR_SHARED_MEMORY, st);
    } else {
        ASSERT_STATUS(LAT_ERROR_COMPILE, st);
    }
    ASSERT_CONTAINS(lat_last_error(), "shared");
}

TEST(unknown_check_bits_are_an_invalid_value)
{
    t_require_backend();
    lat_context *ctx = NULL;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_context_create(&(lat_context_desc){.backend = t_backend(),
                                                         .check = 0xffffffffu},
                                     &ctx));
    ASSERT_NULL(ctx);
    char want[32];
    snprintf(want, sizeof want, "%#x", ~(unsigned)(LAT_CHECK_ALL | LAT_CHECK_PROFILE | LAT_CHECK_OFF));
    ASSERT_CONTAINS(lat_last_error(), want);
}

TEST(a_host_pointer_as_a_kernel_argument_fails_the_launch)
{
    lat_context *ctx = emu_context(0);
    int host[4] = {0};
    int *hp = host;
    void *params[] = {&hp};
    lat_status st = launch1(ctx, "__global__ void put(int *p) { p[threadIdx.x] = 1; }\n", "put",
                            (lat_dim3){1}, (lat_dim3){4}, params);
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, st);
    ASSERT_CONTAINS(lat_last_error(), "'p'");
    ASSERT_EQ(host[0], 0);
    /* NULL is not checked: kernels test their pointers. */
    int *np = NULL;
    void *nparams[] = {&np};
    ASSERT_OK(launch1(ctx, "__global__ void maybe(int *p) { if (p) *p = 1; }\n", "maybe",
                      (lat_dim3){1}, (lat_dim3){4}, nparams));
    still_usable(ctx);
}

/* LAT_POINTER_CHECK_ON checks on every backend (CUDA included: the launch fails before
 * the driver sees it); LAT_POINTER_CHECK_OFF lets the emulator use what it is given. */
TEST(the_pointer_check_can_be_turned_on_everywhere_and_off)
{
    lat_context *ctx = t_context_with(&(lat_context_desc){.pointer_check = LAT_POINTER_CHECK_ON});
    int host[4] = {0};
    int *hp = host;
    void *params[] = {&hp};
    lat_kernel *k = t_kernel(ctx, "__global__ void put(int *p) { p[threadIdx.x] = 1; }\n", "put");
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS,
                  lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {4}}, params));
    ASSERT_CONTAINS(lat_last_error(), "pointer parameter 0 'p'");
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {4}},
                                  LAT_ARGS(lat_arg_ptr((lat_deviceptr)(uintptr_t)host))));
    /* Device memory, one past its end, a module variable and NULL pass. */
    lat_deviceptr d = t_device_copy(ctx, NULL, 4 * sizeof(int));
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {4}}, (void *[]){&d}));
    lat_module *mod;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source =
                                      "__device__ int var[4];\n"
                                      "__global__ void none(int *p) { if (p == 0) return; }\n"},
                                &mod));
    lat_kernel *none;
    ASSERT_OK(lat_module_get_kernel(mod, "none", &none));
    lat_deviceptr end = d + 4 * sizeof(int), zero = 0, var;
    ASSERT_OK(lat_launch(none, &(lat_launch_desc){.grid = {1}, .block = {1}}, (void *[]){&end}));
    ASSERT_OK(lat_launch(none, &(lat_launch_desc){.grid = {1}, .block = {1}}, (void *[]){&zero}));
    if (lat_context_backend(ctx) != LAT_BACKEND_CROSS) { /* no module variables there */
        ASSERT_OK(lat_module_get_global(mod, "var", &var, NULL));
        ASSERT_OK(lat_launch(none, &(lat_launch_desc){.grid = {1}, .block = {1}}, (void *[]){&var}));
    }
    ASSERT_OK(lat_context_synchronize(ctx));

    lat_context *bad = NULL;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_context_create(&(lat_context_desc){.backend = t_backend(), .pointer_check = 7},
                                     &bad));
    ASSERT_CONTAINS(lat_last_error(), "pointer_check");

    if (lat_context_backend(ctx) != LAT_BACKEND_EMU)
        return;
    /* Without the memcheck too, which would (rightly) report the host pointer's write. */
    lat_context *off = t_context_with(
        &(lat_context_desc){.pointer_check = LAT_POINTER_CHECK_OFF, .check = LAT_CHECK_OFF});
    lat_kernel *k2 = t_kernel(off, "__global__ void put(int *p) { p[threadIdx.x] = 1; }\n", "put");
    ASSERT_OK(lat_launch(k2, &(lat_launch_desc){.grid = {1}, .block = {4}}, params));
    ASSERT_EQ(host[3], 1); /* the emulator's device addresses are the host's */
}
