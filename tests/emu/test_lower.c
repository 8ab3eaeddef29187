/* The emulator's front end and passes (src/front, src/emu/passes): the C they make of a
 * kernel, the constructs they reject (each with its line and column, every one of them),
 * #include resolution, and the lines the messages name. */
#include "harness.h"

#include "emu/passes/lower.h"
#include "front/front.h"
#include "emu/compile/cg_header.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static lat__lower_out out;
static lat__unit *unit;
static char message[8192];

static void reset(void)
{
    lat__lower_out_free(&out);
    lat__unit_free(unit);
    unit = NULL;
    message[0] = '\0';
}

/* Parses and lowers src as `name` (the front end's messages in message); the status. */
static lat_status translate_named(const char *src, const char *name, const char *const *include_dirs,
                                  const char *const *defines)
{
    reset();
    lat__front_in in = {.text = src, .name = name, .include_dirs = include_dirs, .defines = defines,
                         .profile = &lat__emu_profile};
    lat_status st = lat__front_parse(&in, &unit);
    if (st == LAT_OK) {
        lat__lower_in li = {0};
        st = lat__emu_lower(unit, &li, &out);
    }
    const char *m = unit ? lat__unit_messages(unit, false) : NULL;
    snprintf(message, sizeof message, "%s", m ? m : "");
    return st;
}

static lat_status translate_with(const char *src, const char *const *include_dirs,
                                 const char *const *defines)
{
    return translate_named(src, "kernel.cu", include_dirs, defines);
}

static lat_status translate(const char *src)
{
    return translate_with(src, NULL, NULL);
}

static const char *msg(void)
{
    return message;
}

/* The C of src, which must lower. */
static const char *translated(const char *src)
{
    lat_status st = translate(src);
    ASSERT_MSG(st == LAT_OK, "lowering failed (%s): %s", lat_status_name(st), msg());
    return out.text;
}

TEST(device_functions_take_the_thread_context_and_calls_pass_it)
{
    const char *c = translated("__device__ float sq(float x) { return x * x; }\n"
                               "__device__ float one(void) { return 1.0f; }\n"
                               "__device__ float none() { return sq(one()) + sq(2.0f); }\n");
    ASSERT_CONTAINS(c, "sq(lat_emu_thread *restrict __lat_t, float x)");
    ASSERT_CONTAINS(c, "one(lat_emu_thread *restrict __lat_t)");
    ASSERT_CONTAINS(c, "none(lat_emu_thread *restrict __lat_t)");
    ASSERT_CONTAINS(c, "return sq(__lat_t, one(__lat_t)) + sq(__lat_t, 2.0f);");
    reset();
}

TEST(a_kernel_gets_its_thread_loop_entry_and_size_query)
{
    const char *c = translated("extern \"C\" __global__ void k(float *a, const int n, int m)\n"
                               "{\n"
                               "    a += m;\n"
                               "    a[threadIdx.x] = n + m;\n"
                               "}\n");
    ASSERT_EQ(out.nkernels, 1);
    ASSERT_STR_EQ(out.kernels[0], "k");
    /* a is modified by each thread, so each gets a copy; n and m are shared. */
    ASSERT_CONTAINS(c, "k(lat_emu_thread *restrict __lat_t, float *__lat_p0, const int n, int m)");
    ASSERT_CONTAINS(c, "float *a = __lat_p0;");
    ASSERT_CONTAINS(c, "__lat_next");
    ASSERT_CONTAINS(c, "void __lat_entry_k(lat_emu_thread *__lat_t, void **__lat_p)");
    ASSERT_CONTAINS(c, "int __lat_sizes_k(unsigned long *__lat_s)");
    ASSERT_TRUE(strstr(c, "extern") == NULL);
    reset();
}
TEST(every_user_token_stays_on_its_line)
{
    static const char src[] = "extern \"C\" {\n"
                              "__device__ float f(float x) { return x; }\n"
                              "__global__ void k(float *a)\n"
                              "{\n"
                              "    a[0] = f(a[0]); int MARK_5 = 5; a[1] = MARK_5;\n"
                              "}\n"
                              "int MARK_7;\n"
                              "}\n"
                              "int MARK_9;\n";
    const char *c = translated(src);
    /* Count lines the way the preprocessor does: each #line resets the count. */
    int line = 0;
    const char *p = c;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        int at;
        if (sscanf(p, "#line %d", &at) == 1) {
            line = at - 1;
        } else {
            line++;
            for (int m = 5; m <= 9; m += 2) {
                char mark[16];
                snprintf(mark, sizeof mark, "MARK_%d ", m);
                const char *hit = strstr(p, mark);
                if (hit && hit < p + n)
                    ASSERT_MSG(line == m, "%s is on line %d of the translation", mark, line);
            }
        }
        if (!eol)
            break;
        p = eol + 1;
    }
    reset();
}

TEST(cxx_functional_casts_through_typedefs_and_macros_and_struct_tags_become_c)
{
    const char *c = translated("#define fp float\n"
                               "typedef float real;\n"
                               "struct P { float x; };\n"
                               "__device__ float g(P p) { return float(int(p.x)) + fp(1.6) + real(2.5); }\n");
    ASSERT_CONTAINS(c, "struct P p");
    /* int(p.x) converts as the GPU does: saturating (passes/arith.c). */
    ASSERT_CONTAINS(c, "(float)(__lat_f2i_s32(p.x))");
    ASSERT_CONTAINS(c, "(float)(1.6)");
    ASSERT_CONTAINS(c, "(real)(2.5)");
    /* Every one of several is taken, not only the first. */
    ASSERT_EQ(translate("typedef float real;\n__device__ float h(float a) { return real(a) + real(1) + real(a * 2); }\n"),
              LAT_OK);
    reset();
}

/* Each construct outside the dialect, with the position of the offending token. */
static const struct {
    const char *src;
    const char *want;
} rejected[] = {
    {"__global__ void k(float *a)\n{\n  a[0] = __shfl_down(a[0], 1);\n}\n",
     "kernel.cu:3:10: error: '__shfl_down' is not supported by the lattice emulator yet (the warp "
     "intrinsics without _sync"},
    {"__global__ void k(int *a) { a[0] = __ballot(1); }\n", "kernel.cu:1:36: error: '__ballot'"},
    {"__managed__ int m;\n", "kernel.cu:1:1: error: '__managed__'"},
    {"template <class... T> struct L {};\ntemplate <class A, class B> struct cat;\n"
     "template <template <class...> class M, template <class...> class P, class... X> struct cat<M<X...>, P<>> {};\n",
     "kernel.cu:3:88: error: a partial specialization with more than two parameter packs or more than one template "
     "template parameter"},
    {"template <>\n__device__ int f<int>(int a) { return a; }\n", "kernel.cu:1:1: error: an explicit specialization"},
    {"template <int N, int M> struct A { };\ntemplate <int N> struct A<N, N + 1> { };\n",
     "kernel.cu:2:25: error: a partial specialization whose arguments depend on its parameters"},
    {"__global__ void k(float *a) { float *p = new float(4); }\n",
     "kernel.cu:1:51: error: 'new' with an initializer"},
    {"__global__ void k(float *a) { float *p = new (a) float; }\n", "kernel.cu:1:42: error: placement 'new'"},
    {"struct C { __device__ C() { } int x; };\n__global__ void k() { C *c = new C; }\n",
     "kernel.cu:2:30: error: 'new' of a class that a constructor"},
    {"__global__ void k(float *a) { auto f = [&](float x) { auto g = [](auto y) { return y; }; return g(x); }; }\n",
     "kernel.cu:1:64: error: a generic lambda inside a lambda"},
    {"struct S { static float f; };\n", "kernel.cu:1:12: error: a static data member"},
    {"__device__ auto f(int x);\n", "kernel.cu:1:17: error: a function whose return type is deduced ('auto') declared without its body"},
    {"__global__ void k(float *a) { try { a[0] = 1; } catch (...) { } }\n", "kernel.cu:1:31: error: 'try'"},
    {"__global__ void k(float *a) { throw 1; }\n", "kernel.cu:1:31: error: 'throw'"},
    {"struct S { float &&r; };\n", "kernel.cu:1:20: error: an rvalue reference member"},
    {"__global__ void k(float *a) { struct L { __device__ int f() { return 1; } }; }\n",
     "kernel.cu:1:57: error: a member function of a struct declared in a function"},
    {"struct S { virtual void f(); };\n", "kernel.cu:1:12: error: 'virtual'"},
    {"struct S { ~S() { } int x; };\nstruct T { ~T() { x = 0; } int x; };\n", "kernel.cu:2:12: error: a destructor with a body"},
    {"__global__ void k(float *a) { float *p = dynamic_cast<float *>(a); }\n", "kernel.cu:1:42: error: 'dynamic_cast'"},
    {"__global__ void k(float *a) {}\n__global__ void k(int *a) {}\n", "kernel.cu:2:17: error: an overloaded __global__ function"},
    {"__global__ void c(float *a) {}\n__global__ void k(float *a) { c<<<1, 1>>>(a); }\n",
     "kernel.cu:2:32: error: a kernel launch '<<<...>>>'"},
    {"#include <cuda_fp8.h>\n", "kernel.cu:1:10: error: #include <cuda_fp8.h>"},
    {"#define F(p) texCubemap(p, 0, 0, 0)\n__global__ void k(int *a) { a[0] = F(a); }\n",
     "kernel.cu:2:36: error: 'texCubemap'"},
    {"__global__ void k(int *a) { asm(\"exit;\"); }\n", "kernel.cu:1:29: error: inline PTX assembly"},
};

TEST(unsupported_constructs_are_rejected_with_line_and_column)
{
    for (size_t i = 0; i < sizeof rejected / sizeof rejected[0]; i++) {
        lat_status st = translate(rejected[i].src);
        ASSERT_MSG(st == LAT_ERROR_UNSUPPORTED, "case %zu: status %s for:\n%s\n%s", i,
                   lat_status_name(st), rejected[i].src, msg());
        ASSERT_MSG(strstr(msg(), rejected[i].want) != NULL, "case %zu: message\n  %s\nwant\n  %s", i,
                   msg(), rejected[i].want);
    }
    reset();
}

/* Mistakes C or CUDA forbids: LAT_ERROR_COMPILE from the front end, with line and column,
 * never TinyCC's raw words. */
static const struct {
    const char *src;
    const char *want;
} invalid[] = {
    {"__global__ void k(float *a)\n{\n    __shared__ float s[2] = {1, 2};\n}\n",
     "kernel.cu:3:22: error: a __shared__ variable cannot have an initializer"},
    {"__global__ void k(float *a) { a[0] = y; }\n", "kernel.cu:1:38: error: 'y' undeclared"},
    {"__global__ int k(float *a) { return 1; }\n", "kernel.cu:1:16: error: a __global__ function must return void"},
    {"__global__ void k(float *a) { a.x = 1; }\n", "kernel.cu:1:32: error: '.' on float *"},
    {"__device__ void f(int a, int b);\n__global__ void k(float *a) { f(1); }\n",
     "kernel.cu:2:32: error: too few arguments to 'f'"},
    {"__global__ void k(float *a) { a[0] = 1 }\n", "kernel.cu:1:40: error: expected ';'"},
    {"__global__ void k(float *a) { int x; int x; }\n", "kernel.cu:1:42: error: redefinition of 'x'"},
    {"int host_side(void) { return threadIdx.x; }\n",
     "kernel.cu:1:30: error: threadIdx exists only in __global__ and __device__ functions"},
    {"#error stop here\n", "kernel.cu:1:2: error: #error stop here"},
};

TEST(invalid_programs_are_compile_errors_with_line_and_column)
{
    for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
        lat_status st = translate(invalid[i].src);
        ASSERT_MSG(st == LAT_ERROR_COMPILE, "case %zu: status %s for:\n%s\n%s", i,
                   lat_status_name(st), invalid[i].src, msg());
        ASSERT_MSG(strstr(msg(), invalid[i].want) != NULL, "case %zu: message\n  %s\nwant\n  %s", i,
                   msg(), invalid[i].want);
    }
    reset();
}

TEST(what_the_old_dialect_refused_and_cuda_accepts_works)
{
    /* Digit separators, functions declared through macros, __shared__ through a macro
     * type, barriers through macros. */
    const char *c = translated("#define fp float\n"
                               "#define DECLARE(n) __device__ int n(int a) { return a * 1'000; }\n"
                               "DECLARE(thousand)\n"
                               "#define SYNC __syncthreads()\n"
                               "__global__ void k(int *a)\n"
                               "{\n"
                               "    __shared__ fp s[32];\n"
                               "    s[threadIdx.x] = thousand(threadIdx.x);\n"
                               "    SYNC;\n"
                               "    a[threadIdx.x] = s[31 - threadIdx.x];\n"
                               "}\n");
    ASSERT_CONTAINS(c, "thousand(lat_emu_thread *restrict __lat_t, int a)");
    ASSERT_CONTAINS(c, "1000");
    reset();
}
TEST(every_rejection_is_listed)
{
    ASSERT_EQ(translate("__global__ void k(int *a)\n{\n    a[0] = __any(1);\n    a[1] = texCubemap(a, 1, 1, 1);\n}\n"),
              LAT_ERROR_UNSUPPORTED);
    ASSERT_CONTAINS(msg(), "kernel.cu:3:12: error: '__any'");
    ASSERT_CONTAINS(msg(), "kernel.cu:4:12: error: 'texCubemap'");
    reset();
}

TEST(regions_the_preprocessor_drops_are_not_rejected)
{
    const char *c = translated("#if 0\n__shared__ float s;\n#endif\n"
                               "#ifdef __cplusplus\ntemplate <class T> T f(T x);\n#endif\n"
                               "#if __CUDA_ARCH__ < 600\n"
                               "__device__ double atomicAdd(double *p, double v) { return 0; }\n"
                               "#else\n__device__ float ok(float x) { return x; }\n#endif\n"
                               "#ifndef __LATTICE_EMU__\n__syncthreads();\n#endif\n"
                               "#if defined(FAST) && FAST > 1\nnamespace x {}\n#elif 1\nint live;\n#endif\n");
    ASSERT_CONTAINS(c, "ok(lat_emu_thread *restrict __lat_t, float x)");
    const char *const defs[] = {"FAST=2", NULL};
    ASSERT_EQ(translate_with("#if defined(FAST) && FAST > 1\ntemplate <> int f<int>(int);\n#endif\n", NULL, defs),
              LAT_ERROR_UNSUPPORTED);
    /* An undefined function-like name in #if is an error, as in C's preprocessor. */
    ASSERT_EQ(translate("#if SOME_FUNCTION_LIKE(1)\n__shared__ int s;\n#endif\n"), LAT_ERROR_COMPILE);
    reset();
}

/* ---- includes ------------------------------------------------------------------------ */

static char tmpdir[64];

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    ASSERT_NOT_NULL(f);
    fputs(text, f);
    fclose(f);
}

static const char *make_dir(void)
{
    strcpy(tmpdir, "/tmp/lattice-emu-XXXXXX");
    ASSERT_NOT_NULL(mkdtemp(tmpdir));
    char sub[128];
    snprintf(sub, sizeof sub, "%s/inc", tmpdir);
    ASSERT_EQ(mkdir(sub, 0700), 0);
    return tmpdir;
}

static void remove_dir(const char *dir)
{
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ASSERT_EQ(system(cmd), 0);
}

TEST(includes_are_inlined_between_line_markers_and_pragma_once_is_honoured)
{
    const char *dir = make_dir();
    char incdir[128], root[160];
    snprintf(incdir, sizeof incdir, "%s/inc", dir);
    write_file(incdir, "sq.h", "#pragma once\n__device__ float sq(float x) { return x * x; }\n");
    write_file(incdir, "guarded.h", "#ifndef GUARDED_H\n#define GUARDED_H\n#include \"sq.h\"\n#endif\n");
    write_file(dir, "local.h", "#define LOCAL 3\n");
    snprintf(root, sizeof root, "%s/k.cu", dir);
    const char *const dirs[] = {incdir, NULL};
    reset();
    lat_status st = translate_named("#include <stdio.h>\n#include \"local.h\"\n#include <sq.h>\n"
                                    "#include \"guarded.h\"\n#include \"guarded.h\"\n"
                                    "__device__ float f(float x) { return sq(x) + LOCAL; }\n",
                                    root, dirs, NULL);
    ASSERT_MSG(st == LAT_OK, "%s", msg());
    const char *c = out.text;
    ASSERT_CONTAINS(c, "/inc/sq.h\"\n");
    /* sq.h once, in spite of three #includes; the call gets the context; the macro is
     * expanded. */
    const char *first = strstr(c, "float sq(lat_emu_thread *restrict __lat_t"); /* the definition */
    ASSERT_NOT_NULL(first);
    ASSERT_NULL(strstr(first + 1, "float sq(lat_emu_thread *restrict __lat_t"));
    ASSERT_CONTAINS(c, "return sq(__lat_t, x) + 3;");
    ASSERT_NULL(strstr(c, "stdio"));
    /* f is on line 6 of the root file. */
    char marker[200];
    snprintf(marker, sizeof marker, "#line 6 \"%s\"", root);
    ASSERT_CONTAINS(c, marker);
    reset();
    remove_dir(dir);
}

TEST(a_missing_include_is_error_file_naming_file_line_and_header)
{
    ASSERT_EQ(translate("// header\n#include \"nowhere.h\"\n"), LAT_ERROR_FILE);
    ASSERT_CONTAINS(msg(), "kernel.cu:2:10: error: cannot find the header 'nowhere.h'");
    ASSERT_EQ(translate("#include <nowhere_either.h>\n"), LAT_ERROR_FILE);
    ASSERT_CONTAINS(msg(), "'nowhere_either.h'");
    /* In a region the preprocessor skips, it is never looked for. */
    ASSERT_EQ(translate("#ifdef HAVE_EXTRA\n#include \"extra.h\"\n#endif\n"), LAT_OK);
    reset();
}

/* ---- through the public API ------------------------------------------------------------ */

static lat_context *emu_context(void)
{
    return t_context_with(&(lat_context_desc){.backend = LAT_BACKEND_EMU});
}

TEST(compile_errors_name_the_users_file_line_and_column)
{
    lat_context *ctx = emu_context();
    lat_module *mod = NULL;
    ASSERT_STATUS(LAT_ERROR_COMPILE,
                  lat_module_create(ctx, &(lat_module_desc){.source =
                      "__device__ float f(float x) { return x; }\n"
                      "__global__ void k(float *a)\n"
                      "{\n"
                      "    a[threadIdx.x] = f(a[0]);\n"
                      "    a[0] = undefined_variable;\n"
                      "}\n"},
                      &mod));
    ASSERT_CONTAINS(lat_last_error(), "kernel.cu:5:12: error: 'undefined_variable' undeclared");
}

TEST(index_variables_outside_device_code_are_explained)
{
    lat_context *ctx = emu_context();
    lat_module *mod = NULL;
    ASSERT_STATUS(LAT_ERROR_COMPILE,
                  lat_module_create(ctx, &(lat_module_desc){.source =
                      "int host_side(void) { return threadIdx.x; }\n"}, &mod));
    ASSERT_CONTAINS(lat_last_error(), "kernel.cu:1:30: error:");
    ASSERT_CONTAINS(lat_last_error(), "exists only in __global__ and __device__ functions");
}

TEST(unsupported_construct_through_the_api_is_error_unsupported)
{
    lat_context *ctx = emu_context();
    lat_module *mod = NULL;
    ASSERT_STATUS(LAT_ERROR_UNSUPPORTED,
                  lat_module_create(ctx, &(lat_module_desc){.source =
                      "__global__ void k(float *a)\n{\n    a[0] = __shfl_xor(a[0], 1);\n}\n"}, &mod));
    ASSERT_CONTAINS(lat_last_error(), "kernel.cu:3:12: error: '__shfl_xor' is not supported");
}

TEST(nvrtc_options_that_mean_nothing_here_are_accepted)
{
    lat_context *ctx = emu_context();
    static const char *const opts[] = {"-arch=sm_80", "--gpu-architecture=compute_90",
                                       "--use_fast_math", "-lineinfo", "--fmad=false",
                                       "-std=c++17", "-default-device", "-O3",
                                       "--ptxas-options=-v", "-DSCALE=3", "-I", "/tmp",
                                       "--define-macro=OFFSET=1", "-w", NULL};
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source =
                  "__global__ void k(int *a) { a[threadIdx.x] = SCALE * threadIdx.x + OFFSET; }\n",
                  .options = opts}, &mod));
    lat_kernel *k = NULL;
    ASSERT_OK(lat_module_get_kernel(mod, "k", &k));
    int a[8];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {8}},
                              LAT_ARGS(lat_arg_out(a, sizeof a))));
    for (int i = 0; i < 8; i++)
        ASSERT_EQ(a[i], 3 * i + 1);
}

TEST(an_unknown_option_and_a_bad_define_are_invalid_option)
{
    lat_context *ctx = emu_context();
    lat_module *mod = NULL;
    static const char *const opts[] = {"--no-such-option", NULL};
    ASSERT_STATUS(LAT_ERROR_INVALID_OPTION,
                  lat_module_create(ctx, &(lat_module_desc){.source = "int x;\n", .options = opts},
                                    &mod));
    ASSERT_CONTAINS(lat_last_error(), "'--no-such-option'");
    static const char *const defs[] = {"A B=1", NULL};
    ASSERT_STATUS(LAT_ERROR_INVALID_OPTION,
                  lat_module_create(ctx, &(lat_module_desc){.source = "int x;\n", .defines = defs},
                                    &mod));
    static const char *const nl[] = {"X=1\n#include \"/etc/passwd\"", NULL};
    ASSERT_STATUS(LAT_ERROR_INVALID_OPTION,
                  lat_module_create(ctx, &(lat_module_desc){.source = "int x;\n", .defines = nl},
                                    &mod));
}

TEST(a_compile_error_after_a_return_leaves_the_compiler_usable)
{
    /* TinyCC kept a dangling label stack after such an error, and the next compile
     * crashed (found by fuzzing). */
    lat_context *ctx = emu_context();
    lat_module *mod = NULL;
    for (int i = 0; i < 3; i++) {
        ASSERT_STATUS(LAT_ERROR_COMPILE,
                      lat_module_create(ctx, &(lat_module_desc){.source =
                          "__global__ void k(float *a, int n)\n"
                          "{\n"
                          "    if (threadIdx.x >= n) return;\n"
                          "    switch (n) { case 1: a[0] = (; }\n"
                          "}\n"}, &mod));
        ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source =
                      "__global__ void k(float *a, int n)\n"
                      "{\n"
                      "    if (threadIdx.x >= n) return;\n"
                      "    switch (n) { case 1: a[0] = 1; }\n"
                      "}\n"}, &mod));
        lat_module_destroy(mod);
    }
}

/* ---- the optimising tier's variant (implicit loops) -------------------------------------- */

/* Whether src, lowered as for a module with the optimising tier on, has a variant of
 * implicit loops. */
static int has_opt_variant(const char *src, bool opt_variants)
{
    reset();
    t_unsetenv("LATTICE_EMU_FIBERS"); /* barrier kernels on fibers get no variant */
    lat__front_in in = {.text = src, .name = "kernel.cu", .profile = &lat__emu_profile};
    ASSERT_OK(lat__front_parse(&in, &unit));
    lat__lower_in li = {.opt_variants = opt_variants};
    ASSERT_OK(lat__emu_lower(unit, &li, &out));
    return out.nvariants > 0;
}

/* Whether src, lowered as a checked module with the optimising tier on, has a forward
 * variant (src/emu/passes/region_fwd.c). */
static int has_forward_variant(const char *src)
{
    reset();
    t_unsetenv("LATTICE_EMU_FIBERS");
    lat__front_in in = {.text = src, .name = "kernel.cu", .profile = &lat__emu_profile};
    ASSERT_OK(lat__front_parse(&in, &unit));
    lat__lower_in li = {.opt_variants = true, .checked = true};
    ASSERT_OK(lat__emu_lower(unit, &li, &out));
    return strstr(out.text, "__lat_fwd(") != NULL;
}

#define TILES(BODY)                                                                        \
    "__global__ void mm(float *c, const float *a, const float *b, int n)\n"               \
    "{\n"                                                                                  \
    "    __shared__ float as[16][16], bs[16][16];\n"                                       \
    "    int tx = threadIdx.x, ty = threadIdx.y;\n"                                        \
    "    float sum = 0.0f;\n"                                                              \
    "    for (int t = 0; t < n / 16; t++) {\n"                                             \
    "        as[ty][tx] = a[ty * n + t * 16 + tx];\n"                                      \
    "        bs[ty][tx] = b[(t * 16 + ty) * n + tx];\n"                                    \
    "        __syncthreads();\n"                                                           \
    "        " BODY "\n"                                                                   \
    "        __syncthreads();\n"                                                           \
    "    }\n"                                                                              \
    "    c[ty * n + tx] = sum;\n"                                                          \
    "}\n"

/* A variable declared inside a stretch's statement (a for loop's counter, a nested
 * block's temporary) is the stretch's own: it was loaded from and stored to per-thread
 * scratch memory at the stretch's ends, as if it lived across barriers. Only `sum` does. */
TEST(variables_declared_inside_a_stretchs_statements_stay_in_registers)
{
    for (int opt = 0; opt < 2; opt++) {
        (void)has_opt_variant(TILES("for (int k = 0; k < 16; k++) sum += as[ty][k] * bs[k][tx];"), opt);
        ASSERT_TRUE(strstr(out.text, "__lat_r0") != NULL);
        ASSERT_TRUE(strstr(out.text, "__lat_r1") == NULL);
        (void)has_opt_variant(TILES("if (tx > 2) { float p = as[ty][tx]; while (p > 1.0f) p *= 0.5f; sum += p; }"), opt);
        ASSERT_TRUE(strstr(out.text, "__lat_r0") != NULL);
        ASSERT_TRUE(strstr(out.text, "__lat_r1") == NULL);
    }
    reset();
}

TEST(a_checked_kernel_gets_a_forward_variant_only_where_no_report_can_change_order)
{
    /* A tile's inner product: every access proven, barriers on both sides. */
    ASSERT_TRUE(has_forward_variant(TILES("for (int k = 0; k < 16; k++) sum += as[ty][k] * bs[k][tx];")));
    /* An access through a pointer, a division by what may be zero, a call: no. */
    ASSERT_TRUE(!has_forward_variant(TILES("for (int k = 0; k < 16; k++) sum += as[ty][k] * a[k];")));
    ASSERT_TRUE(!has_forward_variant(TILES("for (int k = 0; k < 16; k++) sum += as[ty][k] / (tx / (k + 1));")));
    ASSERT_TRUE(!has_forward_variant("__device__ float twice(float x) { return 2 * x; }\n"
                                     TILES("for (int k = 0; k < 16; k++) sum += twice(as[ty][k]);")));
    /* What may report before the loop and after it, between the same barriers: no; on one
     * side only: yes. */
    ASSERT_TRUE(!has_forward_variant(TILES("sum += a[tx]; for (int k = 0; k < 16; k++) sum += as[ty][k]; c[tx] = sum;")));
    ASSERT_TRUE(has_forward_variant(TILES("sum += a[tx]; for (int k = 0; k < 16; k++) sum += as[ty][k];")));
    ASSERT_TRUE(has_forward_variant(TILES("for (int k = 0; k < 16; k++) sum += as[ty][k]; c[tx] = sum;")));
    /* No barrier-free loop, but a stretch whose accesses are all proven: the tree
     * reduction's steps. */
    ASSERT_TRUE(has_forward_variant("__global__ void r(float *o, const float *in)\n"
                                    "{\n"
                                    "    __shared__ float s[256];\n"
                                    "    int t = threadIdx.x;\n"
                                    "    s[t] = in[t];\n"
                                    "    __syncthreads();\n"
                                    "    for (int d = blockDim.x / 2; d > 0; d /= 2) {\n"
                                    "        if (t < d)\n"
                                    "            s[t] += s[t + d];\n"
                                    "        __syncthreads();\n"
                                    "    }\n"
                                    "    if (t == 0)\n"
                                    "        o[blockIdx.x] = s[0];\n"
                                    "}\n"));
    /* Without the checks there is no such variant (the unchecked one is another). */
    ASSERT_TRUE(!has_opt_variant(TILES("for (int k = 0; k < 16; k++) sum += as[ty][k] * bs[k][tx];"), false));
    reset();
}

/* The forward variant's guards (src/emu/check/fwd.c): each implicit loop and clean
 * stretch is written twice, unchecked under `__lat_cki.plain || __lat_ck_fwd(...)` (its
 * flags, then the __shared__ variables it touches), checked otherwise; the variant is
 * entered with initcheck or racecheck on only where every implicit loop is alone in its
 * barrier interval. */
TEST(the_forward_variant_guards_its_loops_and_stretches_for_initcheck_and_racecheck)
{
    /* Alone between its barriers, reading only: racefree (flag 1), both tiles. */
    ASSERT_TRUE(has_forward_variant(TILES("for (int k = 0; k < 16; k++) sum += as[ty][k] * bs[k][tx];")));
    ASSERT_TRUE(strstr(out.text, "__lat_ck_fwd(__lat_t, 1 | 0, 2, (const int[]){0, 1})") != NULL);
    ASSERT_TRUE(strstr(out.text, "if (!__lat_ck_rorder(__lat_t)") != NULL);
    /* Writing: not racefree. */
    ASSERT_TRUE(has_forward_variant(TILES("for (int k = 0; k < 16; k++) bs[ty][k] = as[ty][k] + sum;")));
    ASSERT_TRUE(strstr(out.text, "__lat_ck_fwd(__lat_t, 0 | 0, 2, (const int[]){") != NULL);
    /* Not alone (an access after it, which memcheck's variant allows): the loop unguarded
     * (the stretch after it is), and the variant memcheck's alone. */
    ASSERT_TRUE(has_forward_variant(TILES("for (int k = 0; k < 16; k++) sum += as[ty][k]; bs[ty][tx] = sum;")));
    ASSERT_TRUE(strstr(out.text, "__lat_ck_fwd(__lat_t, 1") == NULL);
    ASSERT_TRUE(strstr(out.text, "if (__lat_cki.plain && !__lat_ck_rorder(__lat_t)") != NULL);
    /* A clean stretch: guarded, never racefree. */
    ASSERT_TRUE(has_forward_variant("__global__ void r(float *o, const float *in)\n"
                                    "{\n"
                                    "    __shared__ float s[256];\n"
                                    "    int t = threadIdx.x;\n"
                                    "    s[t] = in[t];\n"
                                    "    __syncthreads();\n"
                                    "    if (t < 64) s[t] += s[t + 64];\n"
                                    "    __syncthreads();\n"
                                    "    o[t] = s[t];\n"
                                    "}\n"));
    /* racecheck's condition for it at run time: one row of threads, fewer of them (t < 64)
     * than the two accesses' offsets apart (64 - 0). */
    ASSERT_TRUE(strstr(out.text, "__lat_ck_fwd(__lat_t, ((__lat_by == 1 && __lat_bz == 1") != NULL);
    ASSERT_TRUE(strstr(out.text, "long long __lat_dd = (long long)(64) - 0LL;") != NULL);
    ASSERT_TRUE(strstr(out.text, "if (!__lat_ck_rorder(__lat_t)") != NULL);
    /* A stretch of another form (a 2-D tile) has none. */
    ASSERT_TRUE(has_forward_variant(TILES("for (int k = 0; k < 16; k++) sum += as[ty][k]; __syncthreads(); bs[ty][tx] = sum;")));
    ASSERT_TRUE(strstr(out.text, "__lat_ck_fwd(__lat_t, (0 ? 1 : 0) | 0, 1, (const int[]){1})") != NULL);
    reset();
}

TEST(a_uniform_barrier_free_loop_gets_an_optimised_variant_and_only_then)
{
    ASSERT_TRUE(has_opt_variant(TILES("for (int k = 0; k < n / 16; k++) sum += as[ty][k & 15] * bs[k & 15][tx];"), true));
    /* Only for modules with the optimising tier on: TinyCC's code alone has none. */
    ASSERT_TRUE(!has_opt_variant(TILES("for (int k = 0; k < n / 16; k++) sum += as[ty][k & 15] * bs[k & 15][tx];"), false));
    /* A bound that differs between threads, an order of its own (printf, an atomic), a
     * break of the loop, a counter a thread changes: the loop stays in each thread. */
    ASSERT_TRUE(!has_opt_variant(TILES("for (int k = 0; k < tx; k++) sum += as[ty][k];"), true));
    ASSERT_TRUE(!has_opt_variant(TILES("for (int k = 0; k < 16; k++) printf(\"%f\", as[ty][k]);"), true));
    ASSERT_TRUE(!has_opt_variant(TILES("for (int k = 0; k < 16; k++) atomicAdd(c, as[ty][k]);"), true));
    ASSERT_TRUE(!has_opt_variant(TILES("for (int k = 0; k < 16; k++) { if (sum > 9.0f) break; sum += as[ty][k]; }"), true));
    ASSERT_TRUE(!has_opt_variant(TILES("for (int k = 0; k < 16; k++) { if (tx) k++; sum += as[ty][k]; }"), true));
    /* A loop gcc vectorises across the threads around it stays in each thread
     * (thread_loop.c): a fixed trip count, straight arithmetic, tiles indexed by the
     * counter. */
    ASSERT_TRUE(!has_opt_variant(TILES("for (int k = 0; k < 16; k++) sum += as[ty][k] * bs[k][tx];"), true));
    ASSERT_TRUE(!has_opt_variant(TILES("for (int k = 15; k >= 0; k -= 1) { float p = as[ty][k]; sum += p * bs[k][tx]; }"), true));
    ASSERT_TRUE(!has_opt_variant(TILES("for (int k = 0; k <= 14; k += 2) sum += fabsf(as[ty][k]) + b[tx];"), true));
    /* What it would not vectorise there stays implicit: a bound known at run time only, a
     * branch, a pointer indexed by the counter (an int index may wrap under -fwrapv), a
     * tile indexed by more than the counter, a store, a call. */
    ASSERT_TRUE(has_opt_variant(TILES("for (int k = 0; k < 16; k++) { if (as[ty][k] > 0.0f) sum += bs[k][tx]; }"), true));
    ASSERT_TRUE(has_opt_variant(TILES("for (int k = 0; k < 16; k++) sum += a[ty * n + k];"), true));
    ASSERT_TRUE(has_opt_variant(TILES("for (int k = 0; k < 16; k++) sum += as[ty][15 - k];"), true));
    ASSERT_TRUE(has_opt_variant(TILES("for (int k = 0; k < 16; k++) { float p = bs[k][tx]; sum += as[ty][p > 0.0f]; }"), true));
    ASSERT_TRUE(has_opt_variant(TILES("for (int k = 0; k < 16; k++) c[k] = as[ty][k];"), true));
    ASSERT_TRUE(has_opt_variant(TILES("for (int k = 0; k < 16; k++) sum += expf(as[ty][k]);"), true));
    ASSERT_TRUE(has_opt_variant(TILES("for (int k = 0; k < 16; k++) sum += as[ty][k] > 0.0f ? as[ty][k] : 0.0f;"), true));
    /* A plain kernel's loop too, after threads leave. */
    ASSERT_TRUE(has_opt_variant("__global__ void dot(float *o, const float *a, int n)\n"
                                "{\n"
                                "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                "    if (i >= n) return;\n"
                                "    float s = 0.0f;\n"
                                "    for (int k = 0; k < n; k++) s += a[k] * a[i];\n"
                                "    o[i] = s;\n"
                                "}\n",
                                true));
    reset();
}
