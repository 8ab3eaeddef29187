/* Module state is per module, as on a GPU: two modules made from one source, in two
 * contexts or in one, each have their own variables, whatever form the program declares
 * them in (the emulator's in-memory compile cache shares a compiled module only when it has
 * none; a GPU's loads a module of its own from the cached code each time).
 * Each form's kernel bumps its variable and reports it; the first module is bumped a
 * random number of times, and a second module of the same source must still start from
 * the variable's initial value. */
#include "harness.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef struct form {
    const char *what;
    const char *src; /* defines bump(int *out): *out = the variable after one more bump */
    int first;       /* what the first bump of a fresh module reports */
} form;

static const form forms[] = {
    {"a __device__ scalar", "__device__ int n;\n"
                            "__global__ void bump(int *out) { *out = ++n; }\n", 1},
    {"a __device__ scalar with a brace initializer",
     "__device__ int n{5};\n"
     "__global__ void bump(int *out) { *out = ++n; }\n", 6},
    {"a __device__ array", "__device__ int a[4] = {1, 2, 3, 4};\n"
                           "__global__ void bump(int *out) { *out = a[2] += 10; }\n", 13},
    {"a __device__ struct", "struct S { int x; float y; };\n"
                            "__device__ S s = {7, 1.5f};\n"
                            "__global__ void bump(int *out) { *out = ++s.x; }\n", 8},
    {"a static __device__ variable", "static __device__ int n = 100;\n"
                                     "__global__ void bump(int *out) { *out = ++n; }\n", 101},
    {"an extern-declared __device__ variable",
     "extern __device__ int n;\n"
     "__global__ void bump(int *out) { *out = ++n; }\n"
     "__device__ int n = 3;\n", 4},
    {"a __device__ variable in a namespace",
     "namespace ns { __device__ int n = 20; }\n"
     "__global__ void bump(int *out) { *out = ++ns::n; }\n", 21},
    {"a __device__ variable declared through a macro",
     "#define STATE(type, name) __device__ type name\n"
     "STATE(int, n);\n"
     "__global__ void bump(int *out) { *out = ++n; }\n", 1},
    {"a __device__ variable of a template type",
     "template <typename T> struct Box { T v; };\n"
     "__device__ Box<int> b;\n"
     "__global__ void bump(int *out) { *out = ++b.v; }\n", 1},
    {"a __device__ variable with attributes on another line",
     "__device__\n__align__(16)\nint n /* counter */ ;\n"
     "__global__ void bump(int *out) { *out = ++n; }\n", 1},
    {"a static local in a __device__ function",
     "__device__ int next() { static int n = 0; return ++n; }\n"
     "__global__ void bump(int *out) { *out = next(); }\n", 1},
    {"a static local in a kernel",
     "__global__ void bump(int *out) { static int n = 50; *out = ++n; }\n", 51},
    {"a static local a barrier separates from its uses",
     "__global__ void bump(int *out) {\n"
     "    static int n = 60;\n"
     "    int before = n;\n"
     "    __syncthreads();\n"
     "    n = before + 1;\n"
     "    __syncthreads();\n"
     "    *out = n;\n"
     "}\n", 61},
    {"a static local in a template's instance",
     "template <typename T> __device__ T next() { static T n = 0; return ++n; }\n"
     "__global__ void bump(int *out) { *out = next<int>(); }\n", 1},
    {"a __managed__ variable", "__managed__ int n = 9;\n"
                               "__global__ void bump(int *out) { *out = ++n; }\n", 10},
    {"a __constant__ variable the host writes",
     "__constant__ int c = 30;\n"
     "__global__ void bump(int *out) { *out = c; }\n", 30},
};

static lat_module *make(lat_context *ctx, const form *f)
{
    lat_module *mod = NULL;
    lat_status st =
        lat_module_create(ctx, &(lat_module_desc){.source = f->src, .name = "state.cu"}, &mod);
    if (st == LAT_ERROR_UNSUPPORTED)
        return NULL; /* reported by the caller */
    ASSERT_MSG(st == LAT_OK, "%s: lat_module_create: %s", f->what, lat_last_error());
    return mod;
}

static int bump(lat_module *mod)
{
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(mod, "bump", &k));
    int out = -1;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                              LAT_ARGS(lat_arg_out(&out, sizeof out))));
    return out;
}

/* Changes the first module's state: bumps it (or, for __constant__, writes it from the
 * host) `times` times; returns what the module reports now. */
static int change(lat_context *ctx, lat_module *mod, const form *f, int times)
{
    if (strstr(f->what, "__constant__")) {
        (void)ctx;
        int v = 1000 + times;
        ASSERT_OK(lat_module_memcpy_to_global(mod, "c", 0, &v, sizeof v));
        return bump(mod);
    }
    int v = 0;
    for (int i = 0; i < times; i++)
        v = bump(mod);
    return v;
}

/* `check`: the emulator's checks asked for (LAT_CHECK_*), whose code keeps a kernel's
 * locals in per-thread storage across barriers: a static local is not one of those. */
static void each_form(bool two_contexts, unsigned check)
{
    t_unsetenv("LATTICE_CACHE"); /* the cache on: what shares modules */
    lat_context *a = t_context_with(&(lat_context_desc){.check = check});
    if (lat_context_backend(a) == LAT_BACKEND_CROSS)
        SKIP("cross-checking has no module variables yet");
    if (check && !t_is_emu(a))
        SKIP("checks are the emulator's");
    lat_context *b = two_contexts ? t_context_with(&(lat_context_desc){.check = check}) : a;
    int unsupported = 0;
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        const form *f = &forms[i];
        lat_cache_clear();
        lat_module *m1 = make(a, f);
        if (!m1) {
            printf("  (%s: not supported by this backend: %s)\n", f->what, lat_last_error());
            unsupported++;
            continue;
        }
        int times = 2 + (int)(t_rand_u32() % 5);
        int changed = change(a, m1, f, times);
        ASSERT_MSG(changed != f->first, "%s: the first module did not change (%d)", f->what,
                   changed);
        lat_module *m2 = make(b, f);
        ASSERT_NOT_NULL(m2);
        /* The emulator's in-memory cache hands one compiled module to every lat_module of
         * a stateless source: one with state must be compiled afresh. On a GPU the second
         * may come from the cache, a cubin that each lat_module loads as a CUmodule of its
         * own, with its own variables: the values below are what both must show. */
        if (t_is_emu(b))
            ASSERT_MSG(lat_module_get_origin(m2) == LAT_MODULE_COMPILED,
                       "%s: the second module came from the cache (origin %d): it shares the "
                       "first's variables", f->what, (int)lat_module_get_origin(m2));
        int fresh = bump(m2);
        ASSERT_MSG(fresh == f->first, "%s: a second module %s sees %d, want its own %d",
                   f->what, two_contexts ? "in another context" : "in the same context", fresh,
                   f->first);
        /* And the first still has its own: one more bump takes each a step further. */
        if (!strstr(f->what, "__constant__")) {
            int step = bump(m2) - fresh;
            ASSERT_MSG(bump(m1) == changed + step, "%s: the first module lost its state",
                       f->what);
        }
        lat_module_destroy(m1);
        lat_module_destroy(m2);
    }
    ASSERT_LT(unsupported, 3);
}

TEST(two_contexts_each_see_their_own_module_variables_in_every_form)
{
    each_form(true, 0);
}

TEST(two_modules_of_one_context_each_see_their_own_module_variables_in_every_form)
{
    each_form(false, 0);
}

TEST(checked_modules_each_see_their_own_module_variables_in_every_form)
{
    each_form(true, LAT_CHECK_ALL);
    each_form(false, LAT_CHECK_ALL);
}

TEST(modules_without_state_are_still_shared)
{
    t_unsetenv("LATTICE_CACHE");
    lat_cache_clear();
    lat_context *ctx = t_context();
    if (lat_context_backend(ctx) != LAT_BACKEND_EMU)
        SKIP("only the emulator shares compiled modules between lat_modules");
    static const char src[] =
        "__constant__ const int unused_but_constant = 3;\n" /* const, but the host may write it */
        "static const int table[3] = {4, 5, 6};\n"
        "__device__ int twice(int x) { const int k = 2; return k * x; }\n"
        "__global__ void bump(int *out) { *out = twice(table[1]); }\n";
    static const char plain[] = "__device__ int twice(int x) { return 2 * x; }\n"
                                "__global__ void bump(int *out) { *out = twice(21); }\n";
    const form f = {"stateless", plain, 42};
    lat_module *m1 = make(ctx, &f);
    lat_module *m2 = make(ctx, &f);
    ASSERT_EQ(lat_module_get_origin(m2), LAT_MODULE_MEMORY_CACHE);
    ASSERT_EQ(bump(m1), 42);
    ASSERT_EQ(bump(m2), 42);
    /* A __constant__ variable is state even when const: never shared. */
    const form g = {"constant", src, 10};
    lat_module *m3 = make(ctx, &g);
    lat_module *m4 = make(ctx, &g);
    ASSERT_EQ(lat_module_get_origin(m3), LAT_MODULE_COMPILED);
    ASSERT_EQ(lat_module_get_origin(m4), LAT_MODULE_COMPILED);
    ASSERT_EQ(bump(m4), 10);
}
