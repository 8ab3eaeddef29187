/* -G / --device-debug on the emulator (docs/debugging.md): the module built by the system's
 * C compiler for a debugger computes what the ordinary build does, its C keeps the names
 * a debugger reads (locals, and __shared__ arrays by their names),
 * its object is loaded from a private directory, and without a compiler the module is
 * refused, saying what is missing. gdb itself drives a -G kernel in tests/debug/. */
#include "harness.h"
#include "core/alloc.h"

#include "emu/passes/lower.h"
#include "front/front.h"
#include "emu/compile/cg_header.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static lat_context *emu_context(void)
{
    return t_context_with(&(lat_context_desc){.backend = LAT_BACKEND_EMU});
}

static const char source[] =
    "__device__ float blend(float a, float b, int k)\n"
    "{\n"
    "    float w = 0.25f * (float)(k % 4);\n"
    "    return a * (1.0f - w) + b * w;\n"
    "}\n"
    "__global__ void smooth(float *out, const float *in, int n)\n"
    "{\n"
    "    __shared__ float tile[4][33];\n"
    "    int t = threadIdx.x;\n"
    "    int i = blockIdx.x * blockDim.x + t;\n"
    "    tile[t / 32][t % 32] = i < n ? in[i] : 0.0f;\n"
    "    __syncthreads();\n"
    "    int r = (t + 1) % blockDim.x;\n"
    "    float v = blend(tile[t / 32][t % 32], tile[r / 32][r % 32], t);\n"
    "    if (i < n)\n"
    "        out[i] = v;\n"
    "}\n";

static bool have_cc(void)
{
    static const char *const dirs[] = {"/usr/bin", "/bin", "/usr/local/bin"};
    static const char *const names[] = {"cc", "gcc", "clang"};
    char path[64];
    for (size_t d = 0; d < 3; d++)
        for (size_t n = 0; n < 3; n++) {
            snprintf(path, sizeof path, "%s/%s", dirs[d], names[n]);
            if (access(path, X_OK) == 0)
                return true;
        }
    return false;
}

/* The host's answer, in the same float arithmetic. */
static float blend(float a, float b, int k)
{
    float w = 0.25f * (float)(k % 4);
    float x = a * (1.0f - w);
    float y = b * w;
    return x + y;
}

TEST(a_device_debug_module_computes_what_the_plain_build_does)
{
    if (!have_cc())
        SKIP("no C compiler: -G builds with one");
    lat_context *ctx = emu_context();
    enum { N = 300, B = 128 };
    float *in = t_calloc(N, sizeof *in), *out = t_calloc(N, sizeof *out);
    t_rand_floats(in, N, -100.0f, 100.0f);
    static const char *const opts[] = {"-G", NULL};
    static const char *const long_opts[] = {"--device-debug", NULL};
    const char *const *which[] = {opts, long_opts};
    for (int w = 0; w < 2; w++) {
        lat_module *mod = NULL;
        ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = source, .name = "smooth.cu",
                                                            .options = which[w]}, &mod));
        lat_kernel *k = NULL;
        ASSERT_OK(lat_module_get_kernel(mod, "smooth", &k));
        memset(out, 0, N * sizeof *out);
        int n = N;
        ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {(N + B - 1) / B}, .block = {B}},
                                  LAT_ARGS(lat_arg_out(out, N * sizeof *out),
                                           lat_arg_in(in, N * sizeof *in), lat_arg_i32(n))));
        for (int i = 0; i < N; i++) {
            int t = i % B, r = (t + 1) % B, j = i - t + r;
            float next = j < N ? in[j] : 0.0f;
            ASSERT_CLOSE(out[i], blend(in[i], next, t), 1e-6, 1e-6);
        }
        lat_module_destroy(mod);
    }
}

TEST(a_device_debug_object_is_loaded_from_a_private_directory)
{
    if (!have_cc())
        SKIP("no C compiler: -G builds with one");
    lat_context *ctx = emu_context();
    static const char *const opts[] = {"-G", NULL};
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = source, .name = "private.cu",
                                                        .options = opts}, &mod));
    /* The object is mapped from <TMPDIR>/lattice-opt-XXXXXX/k.so while the module lives. */
    FILE *maps = fopen("/proc/self/maps", "r");
    ASSERT_NOT_NULL(maps);
    char line[4600], dir[4200] = "";
    while (fgets(line, sizeof line, maps)) {
        char *p = strstr(line, "/lattice-opt-");
        char *so = p ? strstr(p, "/k.so") : NULL;
        if (so) {
            char *start = strchr(line, '/');
            snprintf(dir, sizeof dir, "%.*s", (int)(so - start), start);
        }
    }
    fclose(maps);
    ASSERT_MSG(dir[0], "no lattice-opt-*/k.so is mapped");
    struct stat st;
    ASSERT_EQ(stat(dir, &st), 0);
    ASSERT_EQ(st.st_mode & 0777, 0700);
    ASSERT_EQ(st.st_uid, getuid());
    lat_module_destroy(mod);
    lat_cache_clear();
    ASSERT_MSG(stat(dir, &st) != 0, "%s is still there after the module was destroyed", dir);
}

static void put_cc_back(void)
{
    t_unsetenv("LATTICE_EMU_CC");
}

TEST(a_device_debug_module_without_a_compiler_says_what_is_missing)
{
    lat_context *ctx = emu_context();
    t_setenv("LATTICE_EMU_CC", "/nonexistent/cc");
    t_defer(put_cc_back);
    static const char *const opts[] = {"-G", NULL};
    lat_module *mod = NULL;
    /* A source of its own: the module cache would otherwise hand back another test's. */
    ASSERT_STATUS(LAT_ERROR_COMPILE,
                  lat_module_create(ctx, &(lat_module_desc){.source =
                      "__global__ void k(int *a) { a[threadIdx.x] = 7; } // no compiler\n",
                      .options = opts}, &mod));
    ASSERT_NULL(mod);
    ASSERT_CONTAINS(lat_last_error(), "-G (--device-debug) builds the module with the system's C compiler");
    ASSERT_CONTAINS(lat_last_error(), "LATTICE_EMU_CC='/nonexistent/cc' is not an executable file");
}

/* Dynamic shared memory, and a checked module's arrays, are the block's: a debugger reads
 * them through pointers to their first elements, by their names. */
TEST(device_debug_c_names_dynamic_and_checked_shared_arrays)
{
    static const char dyn[] =
        "__global__ void k(float *out)\n"
        "{\n"
        "    extern __shared__ float buf[];\n"
        "    __shared__ int rows[4][8];\n"
        "    buf[threadIdx.x] = rows[0][threadIdx.x % 8] = threadIdx.x;\n"
        "    __syncthreads();\n"
        "    out[threadIdx.x] = buf[(threadIdx.x + 1) % blockDim.x] + rows[0][1];\n"
        "}\n";
    for (int checked = 0; checked < 2; checked++) {
        lat__unit *u = NULL;
        lat__front_in in = {.text = dyn, .name = "dyn.cu", .profile = &lat__emu_profile};
        ASSERT_OK(lat__front_parse(&in, &u));
        lat__lower_in li = {.debug = true, .checked = checked != 0, .fibers = true};
        lat__lower_out out;
        ASSERT_OK(lat__emu_lower(u, &li, &out));
        ASSERT_CONTAINS(out.text, "float *const buf = (*__lat_sh_0);");
        ASSERT_CONTAINS(out.text, checked ? "int (*const rows)[8] = (*__lat_sh_1);"
                                          : "static int rows[4][8];");
        lat__lower_out_free(&out);
        lat__unit_free(u);
    }
}

/* A file-scope __shared__ array too, where it is declared and wherever it is used. */
TEST(device_debug_c_names_a_file_scope_shared_array)
{
    static const char fs[] =
        "__shared__ float cache[64];\n"
        "__device__ float neighbour(int t) { return cache[(t + 1) % 64]; }\n"
        "__global__ void k(float *out, const float *in)\n"
        "{\n"
        "    cache[threadIdx.x] = in[threadIdx.x];\n"
        "    __syncthreads();\n"
        "    out[threadIdx.x] = neighbour(threadIdx.x);\n"
        "}\n";
    lat__unit *u = NULL;
    lat__front_in in = {.text = fs, .name = "fs.cu", .profile = &lat__emu_profile};
    ASSERT_OK(lat__front_parse(&in, &u));
    lat__lower_in li = {.debug = true};
    lat__lower_out out;
    ASSERT_OK(lat__emu_lower(u, &li, &out));
    ASSERT_CONTAINS(out.text, "static float cache[64];");
    ASSERT_CONTAINS(out.text, "return cache[(t + 1) % 64];");
    ASSERT_CONTAINS(out.text, "cache[threadIdx.x] = in[threadIdx.x];");
    lat__lower_out_free(&out);
    lat__unit_free(u);
}

TEST(a_device_debug_module_with_dynamic_shared_memory_computes_the_same)
{
    if (!have_cc())
        SKIP("no C compiler: -G builds with one");
    lat_context *ctx = emu_context();
    static const char *const opts[] = {"-G", NULL};
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source =
        "__global__ void rot(float *out, const float *in)\n"
        "{\n"
        "    extern __shared__ float buf[];\n"
        "    buf[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];\n"
        "    __syncthreads();\n"
        "    out[blockIdx.x * blockDim.x + threadIdx.x] = buf[(threadIdx.x + 1) % blockDim.x];\n"
        "}\n", .options = opts}, &mod));
    lat_kernel *k = NULL;
    ASSERT_OK(lat_module_get_kernel(mod, "rot", &k));
    enum { B = 64, G = 3, N = B * G };
    float *in = t_calloc(N, sizeof *in), *out = t_calloc(N, sizeof *out);
    t_rand_floats(in, N, -10.0f, 10.0f);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {G}, .block = {B},
                                                    .shared_bytes = B * sizeof(float)},
                              LAT_ARGS(lat_arg_out(out, N * sizeof *out),
                                       lat_arg_in(in, N * sizeof *in))));
    for (int i = 0; i < N; i++)
        ASSERT_EQ(out[i] == in[i - i % B + (i % B + 1) % B], 1);
    lat_module_destroy(mod);
}

/* Only a debugger's pauses are not hangs: run without one, a -G kernel that never ends is
 * stopped at the launch's deadline as any other (it hung the program before). */
TEST(a_device_debug_kernel_that_never_ends_is_stopped_without_a_debugger)
{
    if (!have_cc())
        SKIP("no C compiler: -G builds with one");
    t_setenv("LATTICE_EMU_TIMEOUT", "0.5");
    lat_context *ctx = emu_context();
    t_unsetenv("LATTICE_EMU_TIMEOUT");
    static const char *const opts[] = {"-G", NULL};
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source =
        "__global__ void spin(volatile int *flag)\n"
        "{\n"
        "    while (*flag == 0) { }\n"
        "}\n", .options = opts}, &mod));
    lat_kernel *k = NULL;
    ASSERT_OK(lat_module_get_kernel(mod, "spin", &k));
    int flag = 0;
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {2}, .block = {4}},
                                  LAT_ARGS(lat_arg_in(&flag, sizeof flag))));
    ASSERT_CONTAINS(lat_last_error(), "spin");
}

static void cache_back(void)
{
    t_unsetenv("LATTICE_CACHE");
}

/* A -G module's create and launch, the Nth allocation failing: OK, or out of memory with a
 * message (a failed allocation was once "cannot write k.c", LAT_ERROR_COMPILE); the
 * context then still makes and runs -G modules. About 30 points of the walk: each
 * compiles with cc. */
TEST(a_device_debug_module_create_and_launch_fail_cleanly_out_of_memory)
{
    if (!have_cc())
        SKIP("no C compiler: -G builds with one");
    t_setenv("LATTICE_CACHE", "0"); /* every create compiles */
    t_defer(cache_back);
    lat_context *ctx = emu_context();
    static const char *const opts[] = {"-G", NULL};
    enum { N = 128 };
    float in[N], out[N];
    t_rand_floats(in, N, -5.0f, 5.0f);
    long total = 0;
    for (long at = 0;; at += total / 29 + 1) {
        lat__alloc_fail_after(at == 0 ? LONG_MAX : at);
        lat_module *mod = NULL;
        lat_kernel *k = NULL;
        lat_status st = lat_module_create(ctx, &(lat_module_desc){.source = source, .name = "oom.cu",
                                                                   .options = opts}, &mod);
        if (st == LAT_OK)
            st = lat_module_get_kernel(mod, "smooth", &k);
        if (st == LAT_OK)
            st = lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {N}},
                                 LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_in(in, sizeof in),
                                          lat_arg_i32(N)));
        long remaining = lat__alloc_fail_remaining();
        lat__alloc_fail_after(0);
        lat_module_destroy(mod);
        if (at == 0) {
            ASSERT_OK(st);
            total = LONG_MAX - remaining;
            ASSERT_GT(total, 10);
            continue;
        }
        ASSERT_MSG(st == LAT_OK || (st == LAT_ERROR_OUT_OF_MEMORY && lat_last_error()[0]),
                   "allocation %ld of %ld failing: %s: %s", at, total, lat_status_name(st),
                   lat_last_error());
        if (at > total)
            break;
    }
    /* Still usable, and right. */
    lat_module *mod = NULL;
    lat_kernel *k = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = source, .name = "oom.cu",
                                                        .options = opts}, &mod));
    ASSERT_OK(lat_module_get_kernel(mod, "smooth", &k));
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {N}},
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_in(in, sizeof in),
                                       lat_arg_i32(N))));
    for (int i = 0; i < N; i++)
        ASSERT_CLOSE(out[i], blend(in[i], in[(i + 1) % N], i), 1e-6, 1e-6);
    lat_module_destroy(mod);
}

/* The C a debugger reads: the names it is asked for. */
TEST(device_debug_c_keeps_the_names_a_debugger_reads)
{
    lat__unit *u = NULL;
    lat__front_in in = {.text = source, .name = "names.cu", .profile = &lat__emu_profile};
    ASSERT_OK(lat__front_parse(&in, &u));
    lat__lower_in li = {.debug = true};
    lat__lower_out out;
    ASSERT_OK(lat__emu_lower(u, &li, &out));
    ASSERT_CONTAINS(out.text, "static float tile[4][33];");
    ASSERT_CONTAINS(out.text, "int t = threadIdx.x;");
    ASSERT_CONTAINS(out.text, "float w = ");
    ASSERT_CONTAINS(out.text, "fibers: built for a debugger (-G)");
    lat__lower_out_free(&out);
    lat__unit_free(u);
}
