/* Name expressions (lat_module_desc.name_expressions), NVRTC's way of naming the template
 * instantiations a module needs: each is compiled, found by lat_module_get_kernel under
 * the same string, and lowered to its symbol (lat_module_get_lowered_name): NVRTC's
 * mangled name on CUDA, the C name the front end gave the instance on the emulator. The
 * errors every backend gives alike (empty expressions, NULL arguments, a plain kernel's
 * lowered name, an expression naming nothing) are tested on both. */
#include "harness.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static const char templates_src[] =
    "template <int N>\n"
    "__global__ void reduce(const float *in, float *out, int n)\n"
    "{\n"
    "    __shared__ float s[N];\n"
    "    int i = blockIdx.x * N + threadIdx.x;\n"
    "    s[threadIdx.x] = i < n ? in[i] : 0.0f;\n"
    "    __syncthreads();\n"
    "    for (int k = N / 2; k > 0; k >>= 1) {\n"
    "        if (threadIdx.x < k)\n"
    "            s[threadIdx.x] += s[threadIdx.x + k];\n"
    "        __syncthreads();\n"
    "    }\n"
    "    if (threadIdx.x == 0)\n"
    "        out[blockIdx.x] = s[0];\n"
    "}\n"
    "template <typename T>\n"
    "__global__ void scale(T *x, T a, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n)\n"
    "        x[i] *= a;\n"
    "}\n"
    "__global__ void plain(float *x)\n"
    "{\n"
    "    x[threadIdx.x] = threadIdx.x;\n"
    "}\n";

static const char *const exprs[] = {"reduce<256>", "scale<float>", "scale<double>", NULL};

/* A module of templates_src with name expressions `list`, compiled as written even without
 * them (NVRTC refuses a template under the extern "C" wrap). */
static lat_module *template_module(lat_context *ctx, const char *const *list)
{
    lat_module *mod = NULL;
    lat_status st = lat_module_create(
        ctx, &(lat_module_desc){.source = templates_src, .name = "tmpl.cu", .no_extern_c = 1, .name_expressions = list},
        &mod);
    if (st != LAT_OK)
        t_fail(__FILE__, __LINE__, "lat_module_create: %s", lat_last_error());
    return mod;
}

TEST(template_instantiations_are_found_and_run_by_their_name_expressions)
{
    lat_context *ctx = t_context();
    lat_module *mod = template_module(ctx, exprs);
    enum { N = 5000, B = 256, G = (N + B - 1) / B };
    float *in = t_calloc(N, sizeof *in), *sums = t_calloc(G, sizeof *sums);
    t_rand_floats(in, N, -1, 1);
    lat_kernel *reduce;
    ASSERT_OK(lat_module_get_kernel(mod, "reduce<256>", &reduce));
    ASSERT_STR_EQ(lat_kernel_name(reduce), "reduce<256>");
    ASSERT_OK(lat_launch_args(reduce, &(lat_launch_desc){.grid = {G}, .block = {B}},
                              LAT_ARGS(lat_arg_in(in, N * sizeof *in),
                                       lat_arg_out(sums, G * sizeof *sums), lat_arg_i32(N))));
    for (int b = 0; b < G; b++) {
        double want = 0;
        for (int i = b * B; i < (b + 1) * B && i < N; i++)
            want += in[i];
        ASSERT_CLOSE(sums[b], want, 1e-5, 1e-5);
    }

    lat_kernel *sf, *sd;
    ASSERT_OK(lat_module_get_kernel(mod, "scale<float>", &sf));
    ASSERT_OK(lat_module_get_kernel(mod, "scale<double>", &sd));
    ASSERT_TRUE(sf != sd);
    float *xf = t_calloc(N, sizeof *xf);
    double *xd = t_calloc(N, sizeof *xd), *want = t_calloc(N, sizeof *want);
    t_rand_floats(xf, N, -8, 8);
    for (int i = 0; i < N; i++)
        want[i] = xd[i] = t_rand_double(-8, 8);
    float *wantf = t_calloc(N, sizeof *wantf);
    for (int i = 0; i < N; i++)
        wantf[i] = xf[i] * 1.25f;
    ASSERT_OK(lat_launch_args(sf, &(lat_launch_desc){.grid = {G}, .block = {B}},
                              LAT_ARGS(lat_arg_inout(xf, N * sizeof *xf), lat_arg_f32(1.25f),
                                       lat_arg_i32(N))));
    ASSERT_OK(lat_launch_args(sd, &(lat_launch_desc){.grid = {G}, .block = {B}},
                              LAT_ARGS(lat_arg_inout(xd, N * sizeof *xd), lat_arg_f64(-0.1),
                                       lat_arg_i32(N))));
    for (int i = 0; i < N; i++) {
        ASSERT_MSG(xf[i] == wantf[i], "scale<float>: x[%d] = %g, want %g", i, xf[i], wantf[i]);
        ASSERT_MSG(xd[i] == want[i] * -0.1, "scale<double>: x[%d] = %.17g, want %.17g", i, xd[i],
                   want[i] * -0.1);
    }

    /* The module's other kernels keep their plain names. */
    lat_kernel *plain;
    ASSERT_OK(lat_module_get_kernel(mod, "plain", &plain));
    ASSERT_EQ(lat_kernel_param_count(plain), 1);
}

/* A template in a namespace, named as NVRTC names it: "ops::axpy<float>", and through a
 * nested namespace (the emulator looked such names up in no namespace: KERNEL_NOT_FOUND). */
TEST(name_expressions_reach_templates_inside_namespaces)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "namespace ops {\n"
        "template <typename T> __global__ void axpy(T a, const T *x, T *y, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) y[i] += a * x[i];\n"
        "}\n"
        "namespace inner { template <int K> __global__ void fill(int *y) { y[threadIdx.x] = K * threadIdx.x; } }\n"
        "}\n";
    static const char *const list[] = {"ops::axpy<float>", "ops::inner::fill<7>", NULL};
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "ns.cu", .name_expressions = list},
                                &mod));
    enum { N = 1000, B = 128 };
    float x[N], y[N], y0[N];
    t_rand_floats(x, N, -4, 4);
    t_rand_floats(y0, N, -4, 4);
    memcpy(y, y0, sizeof y);
    lat_kernel *axpy = NULL, *fill = NULL;
    ASSERT_OK(lat_module_get_kernel(mod, "ops::axpy<float>", &axpy));
    ASSERT_OK(lat_launch_args(axpy, &(lat_launch_desc){.grid = {(N + B - 1) / B}, .block = {B}},
                              LAT_ARGS(lat_arg_f32(-0.75f), lat_arg_in(x, sizeof x),
                                       lat_arg_inout(y, sizeof y), lat_arg_i32(N))));
    for (int i = 0; i < N; i++)
        ASSERT_CLOSE(y[i], (double)y0[i] - 0.75 * x[i], 1e-6, 1e-6);
    int f[64];
    ASSERT_OK(lat_module_get_kernel(mod, "ops::inner::fill<7>", &fill));
    ASSERT_OK(lat_launch_args(fill, &(lat_launch_desc){.grid = {1}, .block = {64}},
                              LAT_ARGS(lat_arg_out(f, sizeof f))));
    for (int i = 0; i < 64; i++)
        ASSERT_EQ(f[i], 7 * i);
}

TEST(lowered_names_are_nvrtcs_mangled_names_and_find_the_same_kernels)
{
    lat_context *ctx = t_context();
    lat_module *mod = template_module(ctx, exprs);
    for (int i = 0; exprs[i]; i++) {
        const char *lowered = NULL;
        ASSERT_OK(lat_module_get_lowered_name(mod, exprs[i], &lowered));
        ASSERT_NOT_NULL(lowered);
        /* the emulator's C name, or NVRTC's mangled one (cross-checked: the primary's) */
        bool emu = lat_context_backend(ctx) == LAT_BACKEND_EMU;
        bool c_name = strstr(lowered, "__lat_t") != NULL, mangled = strncmp(lowered, "_Z", 2) == 0;
        ASSERT_MSG(emu ? c_name : t_is_emu(ctx) ? c_name || mangled : mangled, "%s lowered to '%s'", exprs[i],
                   lowered);
        ASSERT_CONTAINS(lowered, i == 0 ? "reduce" : "scale");
        lat_kernel *by_expr, *by_symbol;
        ASSERT_OK(lat_module_get_kernel(mod, exprs[i], &by_expr));
        if (lat_context_backend(ctx) == LAT_BACKEND_CROSS)
            continue; /* a symbol is one backend's: cross-checking pairs kernels by expression */
        ASSERT_OK(lat_module_get_kernel(mod, lowered, &by_symbol));
        ASSERT_EQ(lat_kernel_param_count(by_expr), lat_kernel_param_count(by_symbol));
    }
    const char *a = NULL, *b = NULL;
    ASSERT_OK(lat_module_get_lowered_name(mod, "scale<float>", &a));
    ASSERT_OK(lat_module_get_lowered_name(mod, "scale<double>", &b));
    ASSERT_TRUE(strcmp(a, b) != 0);
    /* Compiled as C++ (templates cannot have C linkage), the plain kernel is mangled too on
     * CUDA; the emulator's is its name. */
    ASSERT_OK(lat_module_get_lowered_name(mod, "plain", &a));
    if (lat_context_backend(ctx) == LAT_BACKEND_EMU)
        ASSERT_STR_EQ(a, "plain");
    else
        ASSERT_MSG(strstr(a, "plain") != NULL, "plain lowered to '%s'", a);
}

TEST(an_instantiations_arguments_are_checked_by_size)
{
    lat_context *ctx = t_context();
    lat_module *mod = template_module(ctx, exprs);
    lat_kernel *sd;
    ASSERT_OK(lat_module_get_kernel(mod, "scale<double>", &sd));
    if (lat_kernel_param_count(sd) < 0)
        SKIP("this driver has no cuFuncGetParamInfo (CUDA 12.4): an instantiation's "
             "parameters are unknown to lattice");
    ASSERT_EQ(lat_kernel_param_count(sd), 3);
    double x = 1;
    ASSERT_STATUS(LAT_ERROR_ARG_TYPE,
                  lat_launch_args(sd, &(lat_launch_desc){.grid = {1}, .block = {1}},
                                  LAT_ARGS(lat_arg_inout(&x, sizeof x), lat_arg_f32(2.0f),
                                           lat_arg_i32(1))));
    ASSERT_CONTAINS(lat_last_error(), "scale<double>");
    ASSERT_STATUS(LAT_ERROR_ARG_COUNT,
                  lat_launch_args(sd, &(lat_launch_desc){.grid = {1}, .block = {1}},
                                  LAT_ARGS(lat_arg_inout(&x, sizeof x), lat_arg_f64(2.0))));
}

TEST(an_instantiation_not_named_is_not_found_and_the_message_lists_those_that_are)
{
    lat_context *ctx = t_context();
    lat_module *mod = template_module(ctx, exprs);
    lat_kernel *k;
    ASSERT_STATUS(LAT_ERROR_KERNEL_NOT_FOUND, lat_module_get_kernel(mod, "reduce<512>", &k));
    ASSERT_CONTAINS(lat_last_error(), "'reduce<512>'");
    ASSERT_CONTAINS(lat_last_error(), "'reduce<256>', 'scale<float>', 'scale<double>'");
    const char *lowered;
    ASSERT_STATUS(LAT_ERROR_KERNEL_NOT_FOUND, lat_module_get_lowered_name(mod, "reduce<512>", &lowered));
    ASSERT_CONTAINS(lat_last_error(), "'reduce<512>' is neither a name expression");
}

TEST(the_compile_cache_tells_modules_apart_by_their_name_expressions)
{
    lat_context *ctx = t_context();
    lat_module *a = template_module(ctx, (const char *const[]){"scale<float>", NULL});
    lat_module *b = template_module(ctx, (const char *const[]){"scale<double>", NULL});
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(a, "scale<float>", &k));
    ASSERT_OK(lat_module_get_kernel(b, "scale<double>", &k));
    ASSERT_STATUS(LAT_ERROR_KERNEL_NOT_FOUND, lat_module_get_kernel(b, "scale<float>", &k));
}

static const char overloads_src[] =
    "__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }\n"
    "__global__ void fill(float *p, float v) { p[threadIdx.x] = v; }\n"
    "__global__ void once(int *p) { p[threadIdx.x] = 7; }\n";

TEST(no_extern_c_kernels_are_found_by_plain_names_name_expressions_and_mangled_names)
{
    lat_context *ctx = t_context();
    if (t_is_emu(ctx))
        SKIP("overloaded kernels: the emulator finds kernels by name and refuses them");
    lat_module *mod;
    ASSERT_OK(lat_module_create(ctx,
                                &(lat_module_desc){.source = overloads_src, .name = "ov.cu",
                                                   .no_extern_c = 1,
                                                   .name_expressions = (const char *const[]){
                                                       "(void (*)(float *, float))fill", NULL}},
                                &mod));
    const char *lowered;
    ASSERT_OK(lat_module_get_lowered_name(mod, "(void (*)(float *, float))fill", &lowered));
    ASSERT_CONTAINS(lowered, "fill");
    lat_kernel *f, *by_symbol, *once;
    ASSERT_OK(lat_module_get_kernel(mod, "(void (*)(float *, float))fill", &f));
    ASSERT_OK(lat_module_get_kernel(mod, lowered, &by_symbol));
    float got[32];
    ASSERT_OK(lat_launch_args(f, &(lat_launch_desc){.grid = {1}, .block = {32}},
                              LAT_ARGS(lat_arg_out(got, sizeof got), lat_arg_f32(2.5f))));
    for (int i = 0; i < 32; i++)
        ASSERT_EQ(got[i] == 2.5f, 1);
    ASSERT_OK(lat_module_get_kernel(mod, "once", &once));
    ASSERT_OK(lat_module_get_lowered_name(mod, "once", &lowered));
    ASSERT_MSG(strncmp(lowered, "_Z", 2) == 0, "once lowered to '%s'", lowered);
}

/* ---- on every backend -------------------------------------------------------------------- */

TEST(a_name_expression_for_a_template_not_in_the_source_is_an_error_naming_it)
{
    lat_context *ctx = t_context();
    lat_module *mod = NULL;
    lat_status st = lat_module_create(
        ctx,
        &(lat_module_desc){.source = templates_src, .name = "tmpl.cu",
                           .name_expressions = (const char *const[]){"scale<float>", "nothere<int>", NULL}},
        &mod);
    ASSERT_NULL(mod);
    ASSERT_STATUS(LAT_ERROR_KERNEL_NOT_FOUND, st);
    ASSERT_CONTAINS(lat_last_error(), "the name expression 'nothere<int>' names no function");
}

TEST(empty_name_expressions_are_invalid_and_an_empty_list_is_none)
{
    lat_context *ctx = t_context();
    lat_module *mod = NULL;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_module_create(ctx,
                                    &(lat_module_desc){.source = "__global__ void k(int *p) {}\n",
                                                       .name_expressions = (const char *const[]){"k", "", NULL}},
                                    &mod));
    ASSERT_CONTAINS(lat_last_error(), "desc->name_expressions[1] is empty");
    ASSERT_NULL(mod);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_module_create(ctx,
                                    &(lat_module_desc){.source = "__global__ void k(int *p) {}\n",
                                                       .name_expressions = (const char *const[]){" \t", NULL}},
                                    &mod));
    ASSERT_CONTAINS(lat_last_error(), "desc->name_expressions[0] is only blanks");
    /* A list holding only its terminator names nothing: an ordinary module. */
    ASSERT_OK(lat_module_create(ctx,
                                &(lat_module_desc){.source = "__global__ void k(int *p) { *p = 1; }\n",
                                                   .name_expressions = (const char *const[]){NULL}},
                                &mod));
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(mod, "k", &k));
    lat_module_destroy(mod);
}

TEST(lowered_names_of_plain_kernels_and_the_errors_of_the_query)
{
    lat_context *ctx = t_context();
    lat_module *mod;
    ASSERT_OK(lat_module_create(ctx,
                                &(lat_module_desc){.source = "__global__ void k(int *p) { *p = 1; }\n",
                                                   .name = "plain.cu"},
                                &mod));
    const char *lowered = "unchanged";
    /* Wrapped in extern "C" (the default), a kernel's symbol is its plain name. */
    ASSERT_OK(lat_module_get_lowered_name(mod, "k", &lowered));
    ASSERT_STR_EQ(lowered, "k");
    ASSERT_STATUS(LAT_ERROR_KERNEL_NOT_FOUND, lat_module_get_lowered_name(mod, "k2", &lowered));
    ASSERT_NULL(lowered);
    ASSERT_CONTAINS(lat_last_error(), "'k2' is neither a name expression of module plain.cu (it has none)");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_module_get_lowered_name(NULL, "k", &lowered));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_module_get_lowered_name(mod, NULL, &lowered));
    ASSERT_CONTAINS(lat_last_error(), "expr is NULL");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_module_get_lowered_name(mod, "k", NULL));
    lat_kernel *k;
    ASSERT_STATUS(LAT_ERROR_KERNEL_NOT_FOUND, lat_module_get_kernel(mod, "k<int>", &k));
    ASSERT_CONTAINS(lat_last_error(), "found by the name expression that named it");
    lat_module_destroy(mod);
}

/* nvrtcAddNameExpression takes any __global__ function: a plain one by its name, with '&',
 * qualified by namespaces (from the top too), and a template's instance with defaulted
 * arguments given or not; several expressions may name one kernel. Both backends find each
 * by its string, and a kernel by its lowered name (issue 42: "BlackScholesGPU" was "names
 * no function template" on both). */
TEST(name_expressions_name_plain_kernels_qualified_defaulted_and_aliased)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void BlackScholesGPU(float *x, float a) { x[threadIdx.x] *= a; }\n"
        "namespace ops { namespace in {\n"
        "__global__ void add(float *x, float a) { x[threadIdx.x] += a; }\n"
        "template <typename T, int K = 3> __global__ void mul(T *x) { x[threadIdx.x] *= (T)K; }\n"
        "} }\n";
    static const char *const list[] = {"BlackScholesGPU", "&BlackScholesGPU", "ops::in::add", "::ops::in::add",
                                       "&ops::in::mul<float>", "ops::in::mul<float, 3>", "ops::in::mul<double, 5>",
                                       NULL};
    lat_module *mod;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "ne.cu", .name_expressions = list},
                                &mod));
    float x[32], want[32];
    double xd[32], xd0[32];
    for (int i = 0; i < 32; i++) {
        want[i] = x[i] = (float)t_rand_double(-4, 4);
        xd0[i] = xd[i] = t_rand_double(-4, 4);
    }
    static const float scale[] = {2.0f, 0.5f};
    for (int e = 0; e < 2; e++) {
        lat_kernel *k;
        ASSERT_OK(lat_module_get_kernel(mod, list[e], &k));
        ASSERT_STR_EQ(lat_kernel_name(k), list[e]);
        ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {32}},
                                  LAT_ARGS(lat_arg_inout(x, sizeof x), lat_arg_f32(scale[e]))));
        for (int i = 0; i < 32; i++)
            want[i] *= scale[e];
    }
    for (int e = 2; e < 4; e++) {
        lat_kernel *k;
        ASSERT_OK(lat_module_get_kernel(mod, list[e], &k));
        ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {32}},
                                  LAT_ARGS(lat_arg_inout(x, sizeof x), lat_arg_f32(1.25f))));
        for (int i = 0; i < 32; i++)
            want[i] += 1.25f;
    }
    for (int e = 4; e < 6; e++) {
        lat_kernel *k;
        ASSERT_OK(lat_module_get_kernel(mod, list[e], &k));
        ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {32}},
                                  LAT_ARGS(lat_arg_inout(x, sizeof x))));
        for (int i = 0; i < 32; i++)
            want[i] *= 3.0f;
    }
    for (int i = 0; i < 32; i++)
        ASSERT_MSG(x[i] == want[i], "x[%d] = %.9g, want %.9g", i, x[i], want[i]);
    lat_kernel *kd;
    ASSERT_OK(lat_module_get_kernel(mod, "ops::in::mul<double, 5>", &kd));
    ASSERT_OK(lat_launch_args(kd, &(lat_launch_desc){.grid = {1}, .block = {32}}, LAT_ARGS(lat_arg_inout(xd, sizeof xd))));
    for (int i = 0; i < 32; i++)
        ASSERT_MSG(xd[i] == xd0[i] * 5, "mul<double, 5>: x[%d] = %.17g, want %.17g", i, xd[i], xd0[i] * 5);
    /* Every expression lowers to a symbol that finds its kernel. */
    for (int e = 0; list[e]; e++) {
        const char *lowered = NULL;
        ASSERT_OK(lat_module_get_lowered_name(mod, list[e], &lowered));
        ASSERT_NOT_NULL(lowered);
        lat_kernel *by_symbol;
        ASSERT_OK(lat_module_get_kernel(mod, lowered, &by_symbol));
        ASSERT_EQ(lat_kernel_param_count(by_symbol), e < 4 ? 2 : 1);
    }
    lat_module_destroy(mod);
}

/* A name expression naming a __device__ function, or a plain kernel followed by template
 * arguments it does not take, is an error naming it, on both backends. */
TEST(a_name_expression_naming_a_device_function_is_an_error_naming_it)
{
    lat_context *ctx = t_context();
    static const char src[] = "__device__ float twice(float v) { return 2 * v; }\n"
                              "__global__ void k(float *x) { x[0] = twice(x[0]); }\n";
    lat_module *mod = NULL;
    lat_status st = lat_module_create(
        ctx, &(lat_module_desc){.source = src, .name = "dev.cu", .name_expressions = (const char *const[]){"twice", NULL}},
        &mod);
    ASSERT_NULL(mod);
    ASSERT_STATUS(LAT_ERROR_KERNEL_NOT_FOUND, st);
    ASSERT_CONTAINS(lat_last_error(), "twice");
}

/* The templates themselves are listed, instantiated or not, by the name an instance's
 * name expression starts with and their declaration as written: a user (lattice list) can
 * see a kernel template that has no instance yet, and how to name one. */
TEST(kernel_templates_are_listed_with_their_declarations)
{
    lat_context *ctx = t_context();
    lat_module *mod = template_module(ctx, NULL);
    ASSERT_EQ(lat_module_template_count(mod), 2);
    ASSERT_STR_EQ(lat_module_template_name(mod, 0), "reduce");
    ASSERT_STR_EQ(lat_module_template_declaration(mod, 0),
                  "template <int N> __global__ void reduce(const float *in, float *out, int n)");
    ASSERT_STR_EQ(lat_module_template_name(mod, 1), "scale");
    ASSERT_STR_EQ(lat_module_template_declaration(mod, 1),
                  "template <typename T> __global__ void scale(T *x, T a, int n)");
    ASSERT_NULL(lat_module_template_name(mod, 2));
    ASSERT_NULL(lat_module_template_declaration(mod, -1));
    ASSERT_EQ(lat_module_kernel_count(mod), 1); /* plain: templates are not kernels */
    ASSERT_EQ(lat_module_template_count(NULL), 0);
    ASSERT_NULL(lat_module_template_name(NULL, 0));

    /* Device templates are not listed, templates in namespaces by their scoped name, and
     * one in an anonymous namespace (no name expression can name it) not at all. */
    lat_module *ns = NULL;
    ASSERT_OK(lat_module_create(
        ctx,
        &(lat_module_desc){.source = "namespace a { namespace b {\n"
                                     "template <typename T> __device__ T sq(T v) { return v * v; }\n"
                                     "template <typename T> __global__ void k(T *x) { x[0] = sq(x[0]); }\n"
                                     "} }\n"
                                     "namespace { template <int N> __global__ void h(int *x) { x[0] = N; } }\n",
                           .name = "ns.cu", .no_extern_c = 1},
        &ns));
    ASSERT_EQ(lat_module_template_count(ns), 1);
    ASSERT_STR_EQ(lat_module_template_name(ns, 0), "a::b::k");
    lat_kernel *k;
    lat_module *inst = NULL;
    ASSERT_OK(lat_module_create(
        ctx,
        &(lat_module_desc){.source = "namespace a { namespace b {\n"
                                     "template <typename T> __global__ void k(T *x) { x[threadIdx.x] *= x[threadIdx.x]; }\n"
                                     "} }\n",
                           .name = "inst.cu", .name_expressions = (const char *const[]){"a::b::k<int>", NULL}},
        &inst));
    ASSERT_OK(lat_module_get_kernel(inst, "a::b::k<int>", &k));
    int x[32], want[32];
    for (int i = 0; i < 32; i++) {
        x[i] = (int)(t_rand_u32() % 1000) - 500;
        want[i] = x[i] * x[i];
    }
    lat_deviceptr d = t_device_copy(ctx, x, sizeof x);
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {32}}, (void *[]){&d}));
    ASSERT_OK(lat_memcpy_dtoh(ctx, x, d, sizeof x));
    ASSERT_OK(lat_mem_free(ctx, d));
    for (int i = 0; i < 32; i++)
        ASSERT_MSG(x[i] == want[i], "x[%d] = %d, want %d", i, x[i], want[i]);
}
