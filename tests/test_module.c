/* Modules: CUDA C compiled at run time from text or a file, with defines, include
 * directories and options; compiler logs and errors; kernel lookup. */
#include "harness.h"

#include <stdio.h>
#include <string.h>

#ifndef TEST_KERNELS_DIR
#error "meson passes TEST_KERNELS_DIR, the folder of tests/kernels/*.cu"
#endif

/* Runs `k(float *x, ...)` over n = 64 floats 0, 1, 2..., with the extra arguments given,
 * and copies the result into out. */
static void run_on_iota(lat_kernel *k, float *out, size_t nextra, const lat_arg *extra)
{
    enum { N = 64 };
    for (int i = 0; i < N; i++)
        out[i] = (float)i;
    lat_arg args[4];
    args[0] = lat_arg_inout(out, N * sizeof(float));
    for (size_t i = 0; i < nextra; i++)
        args[i + 1] = extra[i];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {N}}, nextra + 1,
                              args));
}

static const char *const doubler_src =
    "__global__ void doubler(float *x)\n"
    "{\n"
    "    x[threadIdx.x] *= 2.0f;\n"
    "}\n";

TEST(module_from_source_text_runs)
{
    lat_context *ctx = t_context();
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = doubler_src}, &mod));
    ASSERT_NOT_NULL(mod);
    lat_kernel *k = NULL;
    ASSERT_OK(lat_module_get_kernel(mod, "doubler", &k));
    ASSERT_NOT_NULL(k);
    float x[64];
    run_on_iota(k, x, 0, NULL);
    for (int i = 0; i < 64; i++)
        ASSERT_MSG(x[i] == 2.0f * (float)i, "x[%d] = %g", i, x[i]);
    lat_module_destroy(mod);
}

TEST(module_from_a_file_resolves_includes_beside_it)
{
    lat_context *ctx = t_context();
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.path = TEST_KERNELS_DIR "/scale.cu"},
                                &mod));
    lat_kernel *k = NULL;
    ASSERT_OK(lat_module_get_kernel(mod, "scale", &k));
    float x[64];
    run_on_iota(k, x, 2, (lat_arg[]){lat_arg_f32(0.5f), lat_arg_i32(60)});
    for (int i = 0; i < 64; i++) {
        float want = i < 60 ? 0.5f * (float)i : (float)i;
        ASSERT_MSG(x[i] == want, "x[%d] = %g, want %g", i, x[i], want);
    }
}

TEST(module_from_a_missing_file_is_error_file_naming_it)
{
    lat_context *ctx = t_context();
    lat_module *mod = (lat_module *)&ctx;
    ASSERT_STATUS(LAT_ERROR_FILE,
                  lat_module_create(ctx, &(lat_module_desc){.path = "/nonexistent/k.cu"},
                                    &mod));
    ASSERT_NULL(mod);
    ASSERT_CONTAINS(lat_last_error(), "/nonexistent/k.cu");
}

TEST(module_needs_exactly_one_of_source_and_path)
{
    lat_context *ctx = t_context();
    lat_module *mod = NULL;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_module_create(ctx, &(lat_module_desc){0}, &mod));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_module_create(ctx,
                                    &(lat_module_desc){.source = doubler_src,
                                                       .path = TEST_KERNELS_DIR "/scale.cu"},
                                    &mod));
}

TEST(module_create_with_null_arguments_is_invalid_value)
{
    lat_context *ctx = t_context();
    lat_module *mod = NULL;
    const lat_module_desc desc = {.source = doubler_src};
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_module_create(NULL, &desc, &mod));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_module_create(ctx, NULL, &mod));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_module_create(ctx, &desc, NULL));
}

TEST(destroying_a_null_module_is_a_no_op)
{
    lat_module_destroy(NULL);
}

TEST(defines_reach_the_source_with_and_without_values)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void affine(float *x)\n"
        "{\n"
        "#ifndef ADD_ONE\n"
        "#error ADD_ONE is not defined\n"
        "#endif\n"
        "    x[threadIdx.x] = FACTOR * x[threadIdx.x] + ADD_ONE;\n"
        "}\n";
    static const char *const defines[] = {"FACTOR=3", "ADD_ONE", NULL};
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .defines = defines},
                                &mod));
    lat_kernel *k = NULL;
    ASSERT_OK(lat_module_get_kernel(mod, "affine", &k));
    float x[64];
    run_on_iota(k, x, 0, NULL);
    for (int i = 0; i < 64; i++)
        ASSERT_MSG(x[i] == 3.0f * (float)i + 1.0f, "x[%d] = %g", i, x[i]);
}

TEST(include_dirs_find_a_header_of_device_functions)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include \"lattice_test_math.cuh\"\n"
        "__global__ void norm2(float *x, float y)\n"
        "{\n"
        "    x[threadIdx.x] = sum_of_squares(x[threadIdx.x], y);\n"
        "}\n";
    static const char *const dirs[] = {TEST_KERNELS_DIR "/include", NULL};
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .include_dirs = dirs},
                                &mod));
    lat_kernel *k = NULL;
    ASSERT_OK(lat_module_get_kernel(mod, "norm2", &k));
    float x[64];
    run_on_iota(k, x, 1, (lat_arg[]){lat_arg_f32(2.0f)});
    for (int i = 0; i < 64; i++)
        ASSERT_MSG(x[i] == (float)(i * i) + 4.0f, "x[%d] = %g", i, x[i]);
}

TEST(a_missing_include_fails_naming_the_header)
{
    lat_context *ctx = t_context();
    static const char src[] = "#include \"no_such_header.cuh\"\n"
                              "__global__ void k(float *x) { x[0] = 1.0f; }\n";
    lat_module *mod = NULL;
    lat_status st = lat_module_create(ctx, &(lat_module_desc){.source = src}, &mod);
    /* The header says LAT_ERROR_FILE; NVRTC reports a missing include as a compile error
     * of its own, which the CUDA backend may pass on as such. */
    if (t_is_emu(ctx))
        ASSERT_STATUS(LAT_ERROR_FILE, st);
    else
        ASSERT_TRUE(st == LAT_ERROR_FILE || st == LAT_ERROR_COMPILE);
    ASSERT_CONTAINS(lat_last_error(), "no_such_header.cuh");
}

TEST(compile_error_names_the_file_and_line)
{
    lat_context *ctx = t_context();
    static const char src[] = "__global__ void broken(float *x)\n" /* line 1 */
                              "{\n"
                              "    int i = threadIdx.x;\n"
                              "    x[i] = undeclared_variable;\n" /* line 4 */
                              "}\n";
    lat_module *mod = (lat_module *)&ctx;
    ASSERT_STATUS(LAT_ERROR_COMPILE,
                  lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "mine.cu"},
                                    &mod));
    ASSERT_NULL(mod);
    ASSERT_CONTAINS(lat_last_error(), "mine.cu:4");
    ASSERT_CONTAINS(lat_last_error(), "undeclared_variable");
}

TEST(compile_error_in_source_text_defaults_to_kernel_cu)
{
    lat_context *ctx = t_context();
    static const char src[] = "__global__ void broken(float *x)\n"
                              "{\n"
                              "    x[0] = undeclared_variable;\n" /* line 3 */
                              "}\n";
    lat_module *mod = NULL;
    ASSERT_STATUS(LAT_ERROR_COMPILE,
                  lat_module_create(ctx, &(lat_module_desc){.source = src}, &mod));
    ASSERT_CONTAINS(lat_last_error(), "kernel.cu:3");
}

TEST(compile_error_in_a_file_names_the_file_and_line)
{
    lat_context *ctx = t_context();
    lat_module *mod = NULL;
    ASSERT_STATUS(LAT_ERROR_COMPILE,
                  lat_module_create(
                      ctx, &(lat_module_desc){.path = TEST_KERNELS_DIR "/broken.cu"}, &mod));
    ASSERT_CONTAINS(lat_last_error(), "broken.cu:6");
}

TEST(compile_error_in_an_included_header_names_the_header_and_line)
{
    lat_context *ctx = t_context();
    lat_module *mod = NULL;
    ASSERT_STATUS(LAT_ERROR_COMPILE,
                  lat_module_create(
                      ctx,
                      &(lat_module_desc){.path = TEST_KERNELS_DIR "/includes_broken_header.cu"},
                      &mod));
    ASSERT_CONTAINS(lat_last_error(), "broken_header.cuh:4");
}

typedef struct log_record {
    int errors, warnings;
    char error[8192], warning[8192];
} log_record;

static void record_log(void *user_data, lat_log_level level, const char *message)
{
    log_record *r = user_data;
    if (level == LAT_LOG_ERROR) {
        r->errors++;
        snprintf(r->error, sizeof r->error, "%s", message);
    } else if (level == LAT_LOG_WARNING) {
        r->warnings++;
        snprintf(r->warning, sizeof r->warning, "%s", message);
    }
}

TEST(compile_error_is_sent_to_the_logger)
{
    log_record *rec = t_calloc(1, sizeof *rec);
    lat_context *ctx =
        t_context_with(&(lat_context_desc){.logger = {.func = record_log, .user_data = rec}});
    static const char src[] = "__global__ void k(float *x)\n"
                              "{\n"
                              "    x[0] = undeclared_variable;\n"
                              "}\n";
    lat_module *mod = NULL;
    ASSERT_STATUS(LAT_ERROR_COMPILE,
                  lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "k.cu"},
                                    &mod));
    ASSERT_EQ(rec->errors, 1);
    ASSERT_CONTAINS(rec->error, "k.cu:3");
}

/* A #warning directive: the one warning both TinyCC and NVRTC give for the same text. */
static const char warning_src[] = "__global__ void k(float *x)\n"
                                  "{\n"
                                  "#warning lattice-test-warning\n" /* line 3 */
                                  "    x[0] = 1.0f;\n"
                                  "}\n";

TEST(a_warning_is_kept_in_the_module_log)
{
    lat_context *ctx = t_context();
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = warning_src, .name = "w.cu"},
                                &mod));
    ASSERT_CONTAINS(lat_module_log(mod), "lattice-test-warning");
    ASSERT_CONTAINS(lat_module_log(mod), "w.cu:3");
}

TEST(a_warning_is_sent_to_the_logger)
{
    log_record *rec = t_calloc(1, sizeof *rec);
    lat_context *ctx =
        t_context_with(&(lat_context_desc){.logger = {.func = record_log, .user_data = rec}});
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = warning_src}, &mod));
    ASSERT_EQ(rec->errors, 0);
    ASSERT_GE(rec->warnings, 1);
    ASSERT_CONTAINS(rec->warning, "lattice-test-warning");
}

TEST(a_clean_compile_has_an_empty_log)
{
    lat_context *ctx = t_context();
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = doubler_src}, &mod));
    ASSERT_STR_EQ(lat_module_log(mod), "");
}

/* ---- options ------------------------------------------------------------------------- */

TEST(an_unknown_option_is_rejected_without_harm)
{
    lat_context *ctx = t_context();
    static const char *const opts[] = {"--no-such-option-anywhere", NULL};
    lat_module *mod = (lat_module *)&ctx;
    lat_status st =
        lat_module_create(ctx, &(lat_module_desc){.source = doubler_src, .options = opts}, &mod);
    /* The emulator knows its list; NVRTC judges options itself and lattice passes its
     * verdict on as a compile failure or an option error. */
    if (t_is_emu(ctx))
        ASSERT_STATUS(LAT_ERROR_INVALID_OPTION, st);
    else
        ASSERT_TRUE(st == LAT_ERROR_INVALID_OPTION || st == LAT_ERROR_COMPILE);
    ASSERT_NULL(mod);
    ASSERT_CONTAINS(lat_last_error(), "--no-such-option-anywhere");
    /* The process is still here and the context still compiles. */
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = doubler_src}, &mod));
}

TEST(a_define_given_as_an_option_reaches_the_source)
{
    lat_context *ctx = t_context();
    static const char src[] = "__global__ void k(float *x) { x[threadIdx.x] = VALUE; }\n";
    static const char *const opts[] = {"-DVALUE=7", NULL};
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .options = opts}, &mod));
    lat_kernel *k = NULL;
    ASSERT_OK(lat_module_get_kernel(mod, "k", &k));
    float x[64];
    run_on_iota(k, x, 0, NULL);
    ASSERT_EQ(x[63], 7);
}

/* ---- kernels ------------------------------------------------------------------------- */

TEST(kernel_not_found_lists_the_kernels_the_module_has)
{
    lat_context *ctx = t_context();
    static const char src[] = "__global__ void first(int *x) { x[0] = 1; }\n"
                              "__global__ void second(int *x) { x[0] = 2; }\n";
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src}, &mod));
    lat_kernel *k = (lat_kernel *)&ctx;
    ASSERT_STATUS(LAT_ERROR_KERNEL_NOT_FOUND, lat_module_get_kernel(mod, "third", &k));
    ASSERT_NULL(k);
    ASSERT_CONTAINS(lat_last_error(), "third");
    ASSERT_CONTAINS(lat_last_error(), "first");
    ASSERT_CONTAINS(lat_last_error(), "second");
}

/* A kernel the module only declares is named as such, not listed as one it has (the
 * message said "no kernel 'k' ... (it has 'k')"). Same words on both backends. */
TEST(a_kernel_only_declared_is_named_as_declared_and_not_defined)
{
    lat_context *ctx = t_context();
    static const char src[] = "__global__ void k(float *a, int n);\n"
                              "__global__ void other(int *x) { x[0] = 2; }\n";
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src}, &mod));
    lat_kernel *k = NULL;
    ASSERT_STATUS(LAT_ERROR_KERNEL_NOT_FOUND, lat_module_get_kernel(mod, "k", &k));
    ASSERT_CONTAINS(lat_last_error(), "kernel 'k' is declared in module kernel.cu (line 1) but never defined");
    ASSERT_STATUS(LAT_ERROR_KERNEL_NOT_FOUND, lat_module_get_kernel(mod, "third", &k));
    ASSERT_CONTAINS(lat_last_error(), "(it has 'other')");
}

TEST(a_device_function_is_not_a_kernel)
{
    lat_context *ctx = t_context();
    static const char src[] = "__device__ int helper(int v) { return v + 1; }\n"
                              "__global__ void k(int *x) { x[0] = helper(x[0]); }\n";
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src}, &mod));
    lat_kernel *k = NULL;
    ASSERT_STATUS(LAT_ERROR_KERNEL_NOT_FOUND, lat_module_get_kernel(mod, "helper", &k));
}

TEST(get_kernel_with_null_arguments_is_invalid_value)
{
    lat_context *ctx = t_context();
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = doubler_src}, &mod));
    lat_kernel *k = NULL;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_module_get_kernel(NULL, "doubler", &k));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_module_get_kernel(mod, NULL, &k));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_module_get_kernel(mod, "doubler", NULL));
}

TEST(looking_a_kernel_up_twice_gives_the_same_handle)
{
    lat_context *ctx = t_context();
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = doubler_src}, &mod));
    lat_kernel *a = NULL, *b = NULL;
    ASSERT_OK(lat_module_get_kernel(mod, "doubler", &a));
    ASSERT_OK(lat_module_get_kernel(mod, "doubler", &b));
    ASSERT_TRUE(a == b);
}

TEST(kernel_reports_its_name_and_parameter_count)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void none() { }\n"
        "__global__ void three(float *dest, const float *__restrict__ a, int n) { }\n";
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src}, &mod));
    lat_kernel *k0 = NULL, *k3 = NULL;
    ASSERT_OK(lat_module_get_kernel(mod, "none", &k0));
    ASSERT_OK(lat_module_get_kernel(mod, "three", &k3));
    ASSERT_STR_EQ(lat_kernel_name(k0), "none");
    ASSERT_STR_EQ(lat_kernel_name(k3), "three");
    ASSERT_EQ(lat_kernel_param_count(k0), 0);
    ASSERT_EQ(lat_kernel_param_count(k3), 3);
}

TEST(no_extern_c_kernels_are_found_by_their_plain_names)
{
    lat_context *ctx = t_context();
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(
        ctx, &(lat_module_desc){.source = doubler_src, .no_extern_c = 1}, &mod));
    lat_kernel *k = NULL;
    ASSERT_OK(lat_module_get_kernel(mod, "doubler", &k));
    float x[64];
    run_on_iota(k, x, 0, NULL);
    ASSERT_EQ(x[10], 20);
}

TEST(no_extern_c_source_may_write_its_own_extern_c)
{
    lat_context *ctx = t_context();
    static const char src[] = "extern \"C\" __global__ void tripler(float *x)\n"
                              "{\n"
                              "    x[threadIdx.x] *= 3.0f;\n"
                              "}\n";
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .no_extern_c = 1},
                                &mod));
    lat_kernel *k = NULL;
    ASSERT_OK(lat_module_get_kernel(mod, "tripler", &k));
    float x[64];
    run_on_iota(k, x, 0, NULL);
    ASSERT_EQ(x[10], 30);
}

TEST(modules_are_independent_even_with_the_same_kernel_names)
{
    lat_context *ctx = t_context();
    static const char add1[] = "__global__ void f(float *x) { x[threadIdx.x] += 1.0f; }\n";
    static const char add2[] = "__global__ void f(float *x) { x[threadIdx.x] += 2.0f; }\n";
    lat_module *m1 = NULL, *m2 = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = add1}, &m1));
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = add2}, &m2));
    lat_kernel *k1 = NULL, *k2 = NULL;
    ASSERT_OK(lat_module_get_kernel(m1, "f", &k1));
    ASSERT_OK(lat_module_get_kernel(m2, "f", &k2));
    lat_module_destroy(m1);
    float x[64];
    run_on_iota(k2, x, 0, NULL);
    ASSERT_EQ(x[5], 7);
}

TEST(destroying_a_context_destroys_its_modules)
{
    /* Checked by the leak checkers: the modules are never destroyed by hand. */
    t_require_backend();
    lat_context *ctx = NULL;
    ASSERT_OK(lat_context_create(&(lat_context_desc){.backend = t_backend()}, &ctx));
    for (int i = 0; i < 3; i++) {
        lat_module *mod = NULL;
        lat_kernel *k = NULL;
        ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = doubler_src}, &mod));
        ASSERT_OK(lat_module_get_kernel(mod, "doubler", &k));
    }
    lat_context_destroy(ctx);
}
