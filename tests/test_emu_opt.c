/* The emulator's optimising tier (lattice.h's lat_emu_opt): the same results as TinyCC's
 * code, bit for bit; the switch at a launch boundary; falling back to TinyCC, with one
 * message, when there is no compiler, when it fails and when it runs too long; the
 * compile cache's keys; private temporary files removed; modules made and destroyed
 * while their builds run. Each case that needs a C compiler skips without one. */
#include "harness.h"
#include "wild.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* getenv, interposed for this test program (the library's calls bind to it): it notes a
 * call made, while a case watches, on a thread other than the case's. The library's own
 * threads must not read the environment: a program's setenv on its thread reallocates the
 * array they would scan (valgrind caught a build reading the freed one). */
extern char **environ;
static pthread_t watching_thread;
static _Atomic int watching;
static char off_thread_read[64];

char *getenv(const char *name)
{
    if (atomic_load(&watching) && !pthread_equal(pthread_self(), watching_thread) &&
        !off_thread_read[0])
        snprintf(off_thread_read, sizeof off_thread_read, "%s", name);
    size_t n = strlen(name);
    for (char **e = environ; e && *e; e++)
        if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
            return *e + n + 1;
    return NULL;
}

/* A context on the plain emulator (the tier is the emulator's), with a logger that
 * keeps the warnings. */
static char warnings[8192];
static int nwarnings;

static void on_log(void *user, lat_log_level level, const char *msg)
{
    (void)user;
    if (level != LAT_LOG_WARNING)
        return;
    nwarnings++;
    size_t n = strlen(warnings);
    snprintf(warnings + n, sizeof warnings - n, "%s\n", msg);
}

static lat_context *emu_context(void)
{
    warnings[0] = '\0';
    nwarnings = 0;
    /* Unchecked: checked modules stay on TinyCC (lattice/check.h). */
    lat_context *ctx = t_context_with(&(lat_context_desc){.logger = {on_log, NULL}, .check = LAT_CHECK_OFF});
    if (lat_context_backend(ctx) != LAT_BACKEND_EMU)
        SKIP("the optimising tier is the emulator's");
    return ctx;
}

/* A directory of its own for the disk cache, and one for the tier's temporaries. */
static char cache_dir[64], tmp_dir[64], tool_dir[64];

static int count_entries(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

static void restore_env(void)
{
    unsetenv("TMPDIR");
    unsetenv("LATTICE_EMU_CC");
    unsetenv("LATTICE_EMU_CC_TIMEOUT");
    unsetenv("LATTICE_EMU_CC_FLAGS");
}

/* The directories are removed, and the environment put back, after the case, however
 * it ends. */
static void fresh_dirs(void)
{
    snprintf(cache_dir, sizeof cache_dir, "%s", t_tempdir());
    snprintf(tmp_dir, sizeof tmp_dir, "%s", t_tempdir());
    snprintf(tool_dir, sizeof tool_dir, "%s", t_tempdir());
    setenv("LATTICE_CACHE_DIR", cache_dir, 1);
    setenv("TMPDIR", tmp_dir, 1);
    unsetenv("LATTICE_CACHE");
    unsetenv("LATTICE_EMU_CC");
    unsetenv("LATTICE_EMU_CC_FLAGS");
    unsetenv("LATTICE_EMU_CC_TIMEOUT");
    unsetenv("LATTICE_EMU_OPT");
    lat_cache_clear();
    t_defer(restore_env);
}

/* A shell script in tool_dir, executable, as a stand-in compiler. */
static const char *script(const char *name, const char *body)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", tool_dir, name);
    FILE *f = fopen(path, "w");
    ASSERT_NOT_NULL(f);
    fprintf(f, "#!/bin/sh\n%s\n", body);
    fclose(f);
    ASSERT_EQ(chmod(path, 0700), 0);
    return path;
}

static lat_module *make(lat_context *ctx, const char *src, lat_emu_opt mode)
{
    lat_module *m = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "opt.cu",
                                                       .emu_opt = mode},
                                &m));
    return m;
}

/* A module on the optimised tier, or the case skips when this machine has no compiler. */
static lat_module *make_optimised(lat_context *ctx, const char *src)
{
    lat_module *m = make(ctx, src, LAT_EMU_OPT_SYNC);
    if (lat_module_get_tier(m) != LAT_MODULE_TIER_OPTIMISED) {
        static char why[1024];
        snprintf(why, sizeof why, "no optimised code: %s", lat_module_log(m));
        lat_module_destroy(m);
        SKIP("%s", why);
    }
    return m;
}

/* Kernels that reach what an optimiser could change: the math library, contraction,
 * integer overflow, conversions, bit operations, atomics, warp shuffles, shared memory
 * and barriers, doubles. */
static const char mixed_src[] =
    "__global__ void mixed(float *f, double *d, int *i, unsigned *u, const float *x, int n)\n"
    "{\n"
    "    __shared__ float s[256];\n"
    "    int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    float v = x[t];\n"
    "    f[8 * t + 0] = sinf(v) + expf(v * 0.5f) * logf(v + 2.0f);\n"
    "    f[8 * t + 1] = powf(v + 1.5f, 0.37f) / sqrtf(v + 3.0f);\n"
    "    f[8 * t + 2] = v * v + 0.1f * v - 1.0f / (v + 7.0f);\n"
    "    f[8 * t + 3] = rsqrtf(v + 4.0f) + tanhf(v) + erff(v) + __expf(v) + __sinf(v);\n"
    "    f[8 * t + 4] = fmaf(v, 1.25f, -v) + floorf(v * 10.0f) + truncf(v * 3.3f);\n"
    "    f[8 * t + 5] = __shfl_down_sync(0xffffffffu, v, 3) + __shfl_xor_sync(0xffffffffu, v, 5);\n"
    "    s[threadIdx.x] = v;\n"
    "    __syncthreads();\n"
    "    for (int k = blockDim.x / 2; k > 0; k >>= 1) {\n"
    "        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];\n"
    "        __syncthreads();\n"
    "    }\n"
    "    f[8 * t + 6] = s[0];\n"
    "    f[8 * t + 7] = (float)(t * 7919) * 1e-3f;\n"
    "    double dv = (double)v;\n"
    "    d[2 * t] = sin(dv) * exp(dv) + sqrt(dv + 1.0) + dv * dv + 0.5;\n"
    "    d[2 * t + 1] = pow(dv + 1.0, 1.0 / 3.0) + cbrt(dv) + log1p(dv);\n"
    "    int h = t * 1103515245 + 12345;\n"
    "    h ^= h >> 13; h *= 2147483647;\n"
    "    i[2 * t] = h + __popc(h) + __clz(h | 1) + (int)(v * 1000.0f);\n"
    "    i[2 * t + 1] = __float2int_rn(v * 77.7f) + (int)rintf(v * 3.5f);\n"
    "    atomicAdd(&u[0], (unsigned)(t & 7));\n"
    "    atomicMax(&u[1], (unsigned)h);\n"
    "    unsigned b = __ballot_sync(0xffffffffu, v > 0.5f);\n"
    "    if ((threadIdx.x & 31) == 0) u[2 + t / 32] = b;\n"
    "}\n";

typedef struct outputs {
    float f[8 * 1024];
    double d[2 * 1024];
    int i[2 * 1024];
    unsigned u[2 + 1024 / 32];
} outputs;

static void run_mixed(lat_context *ctx, lat_module *m, const float *x, outputs *o)
{
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(m, "mixed", &k));
    memset(o, 0, sizeof *o);
    lat_deviceptr df = t_device_copy(ctx, o->f, sizeof o->f),
                  dd = t_device_copy(ctx, o->d, sizeof o->d),
                  di = t_device_copy(ctx, o->i, sizeof o->i),
                  du = t_device_copy(ctx, o->u, sizeof o->u),
                  dx = t_device_copy(ctx, x, 1024 * sizeof *x);
    int n = 1024;
    void *params[] = {&df, &dd, &di, &du, &dx, &n};
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {4}, .block = {256}}, params));
    ASSERT_OK(lat_memcpy_dtoh(ctx, o->f, df, sizeof o->f));
    ASSERT_OK(lat_memcpy_dtoh(ctx, o->d, dd, sizeof o->d));
    ASSERT_OK(lat_memcpy_dtoh(ctx, o->i, di, sizeof o->i));
    ASSERT_OK(lat_memcpy_dtoh(ctx, o->u, du, sizeof o->u));
}

static void assert_same(const outputs *a, const outputs *b)
{
    for (int j = 0; j < 8 * 1024; j++)
        ASSERT_MSG(memcmp(&a->f[j], &b->f[j], 4) == 0, "float %d (kind %d): %a vs %a", j,
                   j % 8, (double)a->f[j], (double)b->f[j]);
    for (int j = 0; j < 2 * 1024; j++)
        ASSERT_MSG(memcmp(&a->d[j], &b->d[j], 8) == 0, "double %d: %a vs %a", j, a->d[j], b->d[j]);
    for (int j = 0; j < 2 * 1024; j++)
        ASSERT_EQ(a->i[j], b->i[j]);
    for (int j = 0; j < 2 + 1024 / 32; j++)
        ASSERT_U64_EQ(a->u[j], b->u[j]);
}

TEST(the_optimised_tier_gives_tinyccs_results_bit_for_bit)
{
    fresh_dirs();
    lat_context *ctx = emu_context();
    float *x = t_calloc(1024, sizeof *x);
    t_rand_floats(x, 1024, -0.9f, 3.0f);
    outputs *a = t_calloc(1, sizeof *a), *b = t_calloc(1, sizeof *b);
    lat_module *slow = make(ctx, mixed_src, LAT_EMU_OPT_OFF);
    ASSERT_EQ(lat_module_get_tier(slow), LAT_MODULE_TIER_TINYCC);
    lat_module *fast = make_optimised(ctx, mixed_src);
    run_mixed(ctx, slow, x, a);
    run_mixed(ctx, fast, x, b);
    assert_same(a, b);
    lat_module_destroy(slow);
    lat_module_destroy(fast);
    ASSERT_EQ(count_entries(tmp_dir), 0); /* the compiler's directory is gone */
}

/* A module's __constant__ and __device__ variables are the optimised object's in SYNC
 * mode: what the program writes there, the kernels read. */
static const char variables_src[] =
    "__constant__ float scale[2] = {2.0f, 3.0f};\n"
    "__device__ int counter;\n"
    "__global__ void k(float *out) { out[threadIdx.x] = scale[threadIdx.x & 1];\n"
    "    atomicAdd(&counter, 1); }\n";

/* The variables written and read through the module are the ones its kernel uses. */
static void check_variables(lat_context *ctx, lat_module *m)
{
    float s[2] = {5.0f, 7.0f};
    ASSERT_OK(lat_module_memcpy_to_global(m, "scale", 0, s, sizeof s));
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(m, "k", &k));
    float out[4] = {0};
    lat_deviceptr d = t_device_copy(ctx, out, sizeof out);
    void *params[] = {&d};
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {4}}, params));
    ASSERT_OK(lat_memcpy_dtoh(ctx, out, d, sizeof out));
    ASSERT_TRUE(out[0] == 5.0f && out[1] == 7.0f);
    int c = 0;
    ASSERT_OK(lat_module_memcpy_from_global(m, "counter", 0, &c, sizeof c));
    ASSERT_EQ(c, 4);
}

TEST(module_variables_are_the_optimised_codes_in_sync_mode)
{
    fresh_dirs();
    lat_context *ctx = emu_context();
    lat_module *m = make_optimised(ctx, variables_src);
    check_variables(ctx, m);
    lat_module_destroy(m);
}

/* From the disk cache, a module's code and variables are the object's from
 * lat_module_create on, TinyCC never running: in BACKGROUND mode too, where a module with
 * variables that must wait for a build stays on TinyCC. */
TEST(modules_from_the_cache_are_optimised_from_the_start_variables_and_all)
{
    fresh_dirs();
    lat_context *ctx = emu_context();
    lat_module_destroy(make_optimised(ctx, variables_src));
    lat_cache_clear();
    lat_module *m = make(ctx, variables_src, LAT_EMU_OPT_BACKGROUND);
    ASSERT_EQ(lat_module_get_tier(m), LAT_MODULE_TIER_OPTIMISED);
    check_variables(ctx, m);
    lat_module_destroy(m);
    lat_cache_clear();
    m = make(ctx, variables_src, LAT_EMU_OPT_SYNC);
    ASSERT_EQ(lat_module_get_tier(m), LAT_MODULE_TIER_OPTIMISED);
    check_variables(ctx, m);
    lat_module_destroy(m);
}

static const char small_src[] =
    "__global__ void add(float *y, const float *x, float a, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) y[i] = a * x[i] + y[i];\n"
    "}\n";

static void run_add(lat_context *ctx, lat_module *m, float *y, int n)
{
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(m, "add", &k));
    float *x = t_calloc((size_t)n, sizeof *x);
    for (int i = 0; i < n; i++)
        x[i] = (float)i * 0.25f;
    lat_deviceptr dx = t_device_copy(ctx, x, (size_t)n * 4), dy = t_device_copy(ctx, y, (size_t)n * 4);
    float a = 1.5f;
    void *params[] = {&dy, &dx, &a, &n};
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {(unsigned)(n + 127) / 128}, .block = {128}},
                         params));
    ASSERT_OK(lat_memcpy_dtoh(ctx, y, dy, (size_t)n * 4));
}

TEST(a_background_build_takes_over_at_a_launch_boundary)
{
    fresh_dirs();
    lat_context *ctx = emu_context();
    /* The compiler is told to wait for a file, so the first launch surely runs TinyCC's
     * code. */
    char body[512];
    snprintf(body, sizeof body, "while [ ! -e %s/go ]; do sleep 0.01; done\nexec cc \"$@\"", tool_dir);
    setenv("LATTICE_EMU_CC", script("slowcc", body), 1);
    lat_module *m = make(ctx, small_src, LAT_EMU_OPT_BACKGROUND);
    ASSERT_EQ(lat_module_get_tier(m), LAT_MODULE_TIER_TINYCC);
    enum { N = 1000 };
    float *y1 = t_calloc(N, sizeof *y1), *y2 = t_calloc(N, sizeof *y2);
    run_add(ctx, m, y1, N);
    char go[128];
    snprintf(go, sizeof go, "%s/go", tool_dir);
    fclose(fopen(go, "w"));
    double t0 = now_ms();
    while (lat_module_get_tier(m) != LAT_MODULE_TIER_OPTIMISED && now_ms() - t0 < 60000 &&
           nwarnings == 0) {
        usleep(2000);
        run_add(ctx, m, y2, 1); /* a failure's message comes at a launch */
    }
    if (lat_module_get_tier(m) != LAT_MODULE_TIER_OPTIMISED) {
        lat_module_destroy(m);
            SKIP("no optimised code: %s", warnings);
    }
    memset(y2, 0, N * sizeof *y2);
    run_add(ctx, m, y2, N);
    ASSERT_EQ(memcmp(y1, y2, N * sizeof *y1), 0);
    lat_module_destroy(m);
    ASSERT_EQ(count_entries(tmp_dir), 0);
}

static void unset_many(void)
{
    char name[32];
    for (int i = 0; i < 200; i++) {
        snprintf(name, sizeof name, "LAT_TEST_ENV_%d", i);
        unsetenv(name);
    }
    unsetenv("XDG_CACHE_HOME");
}

static void stop_watching(void)
{
    atomic_store(&watching, 0);
}

/* The builds' threads look up the disk cache's default directory (XDG_CACHE_HOME, HOME).
 * They called getenv for it, and a program's setenv, which reallocates the environment,
 * raced with them. They read lattice's snapshot now: no getenv off the program's thread. */
TEST(the_program_may_change_its_environment_while_builds_run)
{
    fresh_dirs();
    off_thread_read[0] = '\0';
    watching_thread = pthread_self();
    atomic_store(&watching, 1);
    t_defer(stop_watching);
    unsetenv("LATTICE_CACHE_DIR");
    setenv("XDG_CACHE_HOME", cache_dir, 1);
    t_defer(unset_many);
    lat_context *ctx = emu_context();
    enum { MODULES = 4, N = 500 };
    lat_module *m[MODULES];
    char src[MODULES][320];
    for (int i = 0; i < MODULES; i++) {
        /* distinct sources: each its own build */
        snprintf(src[i], sizeof src[i], "#define K %d\n%s", i, small_src);
        m[i] = make(ctx, src[i], LAT_EMU_OPT_BACKGROUND);
    }
    char name[32], value[64];
    double t0 = now_ms();
    for (int round = 0; now_ms() - t0 < 60000; round++) {
        for (int i = 0; i < 200; i++) {
            snprintf(name, sizeof name, "LAT_TEST_ENV_%d", i);
            snprintf(value, sizeof value, "%d-%d", round, i);
            setenv(name, value, 1);
            unsetenv(name);
            setenv(name, value, 1);
        }
        int done = 0;
        for (int i = 0; i < MODULES; i++)
            done += lat_module_get_tier(m[i]) == LAT_MODULE_TIER_OPTIMISED;
        if (done == MODULES || nwarnings)
            break;
    }
    float *y1 = t_calloc(N, sizeof *y1), *y2 = t_calloc(N, sizeof *y2);
    run_add(ctx, m[0], y1, N);
    for (int i = 1; i < MODULES; i++) {
        memset(y2, 0, N * sizeof *y2);
        run_add(ctx, m[i], y2, N);
        ASSERT_EQ(memcmp(y1, y2, N * sizeof *y1), 0);
    }
    for (int i = 0; i < MODULES; i++)
        lat_module_destroy(m[i]);
    ASSERT_MSG(!off_thread_read[0], "getenv(\"%s\") on a thread of the library's",
               off_thread_read);
}

TEST(without_a_compiler_the_module_stays_on_tinycc_and_says_so_once)
{
    fresh_dirs();
    setenv("LATTICE_EMU_CC", "/nonexistent/lattice-cc", 1);
    lat_context *ctx = emu_context();
    lat_module *m1 = make(ctx, small_src, LAT_EMU_OPT_SYNC);
    ASSERT_EQ(lat_module_get_tier(m1), LAT_MODULE_TIER_TINYCC);
    ASSERT_CONTAINS(lat_module_log(m1), "LATTICE_EMU_CC");
    ASSERT_EQ(nwarnings, 1);
    /* Another module, another source: not said again. */
    lat_module *m2 = make(ctx, "__global__ void other(int *p) { *p = 1; }", LAT_EMU_OPT_SYNC);
    ASSERT_STR_EQ(lat_module_log(m2), "");
    ASSERT_EQ(nwarnings, 1);
    float y[4] = {1, 2, 3, 4};
    run_add(ctx, m1, y, 4);
    ASSERT_TRUE(y[3] == 4 + 1.5f * 0.75f);
    lat_module_destroy(m1);
    lat_module_destroy(m2);
}

TEST(a_compiler_that_fails_leaves_its_message_in_the_log)
{
    fresh_dirs();
    setenv("LATTICE_EMU_CC", script("badcc", "echo 'badcc: internal compiler error: boom' >&2\nexit 3"), 1);
    lat_context *ctx = emu_context();
    lat_module *m = make(ctx, small_src, LAT_EMU_OPT_SYNC);
    ASSERT_EQ(lat_module_get_tier(m), LAT_MODULE_TIER_TINYCC);
    ASSERT_CONTAINS(lat_module_log(m), "internal compiler error: boom");
    ASSERT_CONTAINS(lat_module_log(m), "exit status 3");
    ASSERT_CONTAINS(warnings, "boom");
    float y[4] = {0};
    run_add(ctx, m, y, 4);
    ASSERT_TRUE(y[2] == 0.75f);
    lat_module_destroy(m);
    ASSERT_EQ(count_entries(tmp_dir), 0);
}

TEST(a_compiler_past_its_time_limit_is_killed)
{
    fresh_dirs();
    char body[256];
    snprintf(body, sizeof body, "echo $$ > %s/pid\nexec sleep 60", tool_dir);
    setenv("LATTICE_EMU_CC", script("hangcc", body), 1);
    setenv("LATTICE_EMU_CC_TIMEOUT", "0.5", 1);
    lat_context *ctx = emu_context();
    double t0 = now_ms();
    lat_module *m = make(ctx, small_src, LAT_EMU_OPT_SYNC);
    ASSERT_LT(now_ms() - t0, 20000);
    ASSERT_EQ(lat_module_get_tier(m), LAT_MODULE_TIER_TINYCC);
    ASSERT_CONTAINS(lat_module_log(m), "time limit");
    char path[128];
    snprintf(path, sizeof path, "%s/pid", tool_dir);
    FILE *f = fopen(path, "r");
    ASSERT_NOT_NULL(f);
    int pid = 0;
    ASSERT_EQ(fscanf(f, "%d", &pid), 1);
    fclose(f);
    ASSERT_TRUE(kill(pid, 0) != 0 && errno == ESRCH); /* killed and reaped */
    lat_module_destroy(m);
    ASSERT_EQ(count_entries(tmp_dir), 0);
}

TEST(the_cache_holds_optimised_code_keyed_by_its_flags)
{
    fresh_dirs();
    lat_context *ctx = emu_context();
    lat_module *m = make_optimised(ctx, small_src);
    lat_module_destroy(m);
    int entries = count_entries(cache_dir);
    ASSERT_GE(entries, 1);
    /* The same again, from the disk: no new entry. */
    lat_cache_clear();
    lat_cache_stats before, after;
    ASSERT_OK(lat_cache_get_stats(&before));
    double t0 = now_ms();
    m = make(ctx, small_src, LAT_EMU_OPT_SYNC);
    double ms = now_ms() - t0;
    ASSERT_EQ(lat_module_get_tier(m), LAT_MODULE_TIER_OPTIMISED);
    ASSERT_OK(lat_cache_get_stats(&after));
    ASSERT_GE(after.disk_hits, before.disk_hits + 1);
    ASSERT_EQ(count_entries(cache_dir), entries);
    printf("    module to optimised code from the disk cache: %.2f ms\n", ms);
    lat_module_destroy(m);
    /* Other flags: another object, and its entry in the source index. */
    setenv("LATTICE_EMU_CC_FLAGS", "-fno-unroll-loops", 1);
    ctx = emu_context(); /* variables are read when a context is created */
    m = make(ctx, small_src, LAT_EMU_OPT_SYNC);
    ASSERT_EQ(lat_module_get_tier(m), LAT_MODULE_TIER_OPTIMISED);
    ASSERT_EQ(count_entries(cache_dir), entries + 2);
    lat_module_destroy(m);
}

/* What a module creation wrote to stderr: LATTICE_EMU_DUMP prints each translation
 * there, or says that the module was not translated. */
static char dump_file[128];

static void stop_dumping(void)
{
    unsetenv("LATTICE_EMU_DUMP");
}

static lat_module *make_captured(lat_context *ctx, const lat_module_desc *desc, char *out,
                                 size_t size)
{
    snprintf(dump_file, sizeof dump_file, "%s/stderr.txt", tmp_dir);
    fflush(stderr);
    int saved = dup(2), fd = open(dump_file, O_CREAT | O_WRONLY | O_TRUNC, 0600);
    ASSERT_TRUE(saved >= 0 && fd >= 0);
    dup2(fd, 2);
    close(fd);
    lat_module *m = NULL;
    lat_status st = lat_module_create(ctx, desc, &m);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    ASSERT_OK(st);
    FILE *f = fopen(dump_file, "r");
    ASSERT_NOT_NULL(f);
    size_t n = fread(out, 1, size - 1, f);
    out[n] = '\0';
    fclose(f);
    return m;
}

static void expect_add(lat_context *ctx, lat_module *m, float scale)
{
    enum { N = 200 };
    float y[N];
    for (int i = 0; i < N; i++)
        y[i] = (float)(i % 5);
    run_add(ctx, m, y, N);
    for (int i = 0; i < N; i++) {
        float x = (float)i * 0.25f, want = scale * x + (float)(i % 5);
        ASSERT_MSG(y[i] == want, "y[%d] = %g, want %g", i, (double)y[i], (double)want);
    }
}

/* The source index: a module loaded from the disk cache again is not translated again,
 * in either mode that reads the cache, and has the kernels, results and warnings it had
 * when it was. The index is keyed by the compile request, which has the module's mode:
 * each mode's first load translates (and finds the object gcc made in the cache). */
TEST(a_module_loaded_again_from_the_cache_is_not_translated_again)
{
    fresh_dirs();
    setenv("LATTICE_EMU_DUMP", "1", 1);
    t_defer(stop_dumping);
    lat_context *ctx = emu_context();
    static const char src[] =
        "#warning the index keeps this warning\n"
        "__global__ void add(float *y, const float *x, float a, int n)\n"
        "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = a * x[i] + y[i]; }\n";
    static char out[1 << 16];
    lat_module_desc desc = {.source = src, .name = "index.cu", .emu_opt = LAT_EMU_OPT_SYNC};
    lat_module *m = make_captured(ctx, &desc, out, sizeof out);
    if (lat_module_get_tier(m) != LAT_MODULE_TIER_OPTIMISED) {
        lat_module_destroy(m);
        SKIP("no optimised code on this machine");
    }
    ASSERT_MSG(strstr(out, "__lat_t") != NULL, "the first load was not translated? stderr: %.200s",
               out);
    ASSERT_NOT_NULL(strstr(lat_module_log(m), "the index keeps this warning"));
    expect_add(ctx, m, 1.5f);
    lat_module_destroy(m);
    for (int mode = 0; mode < 2; mode++) {
        lat_cache_clear();
        desc.emu_opt = mode ? LAT_EMU_OPT_BACKGROUND : LAT_EMU_OPT_SYNC;
        if (mode) { /* its first load, which writes its index entry */
            m = make_captured(ctx, &desc, out, sizeof out);
            ASSERT_MSG(strstr(out, "__lat_t") != NULL, "mode %d: the first load was not translated", mode);
            double t0 = now_ms(); /* the entry is written with the object: wait for it */
            while (lat_module_get_tier(m) != LAT_MODULE_TIER_OPTIMISED && now_ms() - t0 < 60000)
                usleep(2000);
            lat_module_destroy(m);
            lat_cache_clear();
        }
        m = make_captured(ctx, &desc, out, sizeof out);
        ASSERT_EQ(lat_module_get_tier(m), LAT_MODULE_TIER_OPTIMISED);
        ASSERT_MSG(strstr(out, "__lat_t") == NULL, "mode %d: translated again", mode);
        ASSERT_MSG(strstr(out, "index.cu: the optimised object from the disk cache's source index, "
                               "not translated") != NULL, "mode %d: stderr %.300s", mode, out);
        ASSERT_NOT_NULL(strstr(lat_module_log(m), "the index keeps this warning"));
        expect_add(ctx, m, 1.5f);
        lat_module_destroy(m);
    }
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ASSERT_NOT_NULL(f);
    fputs(text, f);
    fclose(f);
}

/* The same source text, a header that changed between two loads: the index is keyed by
 * the program the preprocessor made, so the second load is the new header's. */
TEST(a_header_changed_between_loads_changes_the_module_loaded)
{
    fresh_dirs();
    lat_context *ctx = emu_context();
    char header[128];
    snprintf(header, sizeof header, "%s/scale.h", tool_dir);
    static const char src[] =
        "#include \"scale.h\"\n"
        "__global__ void add(float *y, const float *x, float a, int n)\n"
        "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = SCALE * x[i] + y[i]; }\n";
    const char *dirs[] = {tool_dir, NULL};
    lat_module_desc desc = {.source = src, .name = "header.cu", .include_dirs = dirs,
                            .emu_opt = LAT_EMU_OPT_SYNC};
    static const float scales[] = {2.0f, 3.0f, 2.0f};
    for (int r = 0; r < 3; r++) {
        char text[64];
        snprintf(text, sizeof text, "#define SCALE %.1ff\n", (double)scales[r]);
        write_text(header, text);
        lat_cache_clear();
        lat_module *m = NULL;
        ASSERT_OK(lat_module_create(ctx, &desc, &m));
        if (lat_module_get_tier(m) != LAT_MODULE_TIER_OPTIMISED) {
            lat_module_destroy(m);
            SKIP("no optimised code on this machine");
        }
        expect_add(ctx, m, scales[r]);
        lat_module_destroy(m);
    }
}

/* Removes the largest (the object) or the smallest (its index entry) of the cache's
 * entries. */
static void remove_entry(bool largest)
{
    DIR *d = opendir(cache_dir);
    ASSERT_NOT_NULL(d);
    char chosen[512] = "";
    off_t size = -1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", cache_dir, e->d_name);
        struct stat st;
        if (stat(path, &st) == 0 && (size < 0 || (largest ? st.st_size > size : st.st_size < size))) {
            size = st.st_size;
            snprintf(chosen, sizeof chosen, "%s", path);
        }
    }
    closedir(d);
    ASSERT_EQ(unlink(chosen), 0);
}

/* An index entry whose object has gone from the cache: the module is translated, its
 * object built again, and both are in the cache after. */
TEST(an_index_entry_whose_object_is_gone_is_rebuilt)
{
    fresh_dirs();
    lat_context *ctx = emu_context();
    lat_module_destroy(make_optimised(ctx, small_src));
    int entries = count_entries(cache_dir);
    ASSERT_EQ(entries, 2); /* the object and its index entry */
    remove_entry(true);
    lat_cache_clear();
    lat_module *m = make(ctx, small_src, LAT_EMU_OPT_SYNC);
    ASSERT_EQ(lat_module_get_tier(m), LAT_MODULE_TIER_OPTIMISED);
    expect_add(ctx, m, 1.5f);
    lat_module_destroy(m);
    ASSERT_EQ(count_entries(cache_dir), entries);
}

/* An object in the cache without its index entry (a rebuilt lattice finds its objects so):
 * the module is translated once, found by its program's key, and indexed from then on. */
TEST(an_object_found_by_its_program_is_indexed_for_the_next_load)
{
    fresh_dirs();
    lat_context *ctx = emu_context();
    lat_module_destroy(make_optimised(ctx, small_src));
    ASSERT_EQ(count_entries(cache_dir), 2);
    remove_entry(false);
    setenv("LATTICE_EMU_DUMP", "1", 1);
    t_defer(stop_dumping);
    ctx = emu_context(); /* variables are read when a context is created */
    static char out[1 << 16];
    lat_module_desc desc = {.source = small_src, .name = "opt.cu", .emu_opt = LAT_EMU_OPT_SYNC};
    for (int load = 0; load < 2; load++) {
        lat_cache_clear();
        lat_module *m = make_captured(ctx, &desc, out, sizeof out);
        ASSERT_EQ(lat_module_get_tier(m), LAT_MODULE_TIER_OPTIMISED);
        ASSERT_MSG((strstr(out, "__lat_t") != NULL) == (load == 0),
                   "load %d: translated %s", load, load ? "again" : "not");
        ASSERT_EQ(count_entries(cache_dir), 2);
        expect_add(ctx, m, 1.5f);
        lat_module_destroy(m);
    }
}

/* Two modules loaded from the disk cache at once: each object comes from an anonymous
 * file named /proc/self/fd/N, and dlopen gives the object it already has under a name,
 * so the second once got the first's object (a number closed and reused), lacked its
 * kernels and was compiled again. */
TEST(modules_loaded_from_the_cache_at_once_each_get_their_own_object)
{
    fresh_dirs();
    lat_context *ctx = emu_context();
    static const char other_src[] =
        "__global__ void twice(float *y, int n)\n"
        "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] *= 2.0f; }\n";
    lat_module_destroy(make_optimised(ctx, small_src));
    lat_module_destroy(make_optimised(ctx, other_src));
    lat_cache_clear();
    lat_cache_stats before, after;
    ASSERT_OK(lat_cache_get_stats(&before));
    lat_module *a = make(ctx, small_src, LAT_EMU_OPT_SYNC);
    lat_module *b = make(ctx, other_src, LAT_EMU_OPT_SYNC);
    lat_module *c = make(ctx, small_src, LAT_EMU_OPT_BACKGROUND);
    while (lat_module_get_tier(c) != LAT_MODULE_TIER_OPTIMISED)
        usleep(100);
    ASSERT_EQ(lat_module_get_tier(a), LAT_MODULE_TIER_OPTIMISED);
    ASSERT_EQ(lat_module_get_tier(b), LAT_MODULE_TIER_OPTIMISED);
    ASSERT_OK(lat_cache_get_stats(&after));
    ASSERT_U64_EQ(after.disk_writes, before.disk_writes);
    ASSERT_GE(after.disk_hits, before.disk_hits + 2);
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(b, "twice", &k));
    float y[4] = {1, 2, 3, 4};
    lat_deviceptr dy = t_device_copy(ctx, y, sizeof y);
    int n = 4;
    void *params[] = {&dy, &n};
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {4}}, params));
    ASSERT_OK(lat_memcpy_dtoh(ctx, y, dy, sizeof y));
    ASSERT_MSG(y[3] == 8.0f, "y[3] = %g", (double)y[3]);
    lat_module_destroy(c);
    lat_module_destroy(b);
    lat_module_destroy(a);
}

/* Two modules with a kernel of the same name and different code, both optimised and both
 * loaded from the disk cache, alive at once. Each object was loaded from an anonymous
 * file closed after dlopen, so the second got the first's /proc/self/fd/N name, and
 * dlopen answered it with the first object: the second module ran the first's code (a
 * generated scan of another operation gave wrong sums, found cross-checking on a GPU). */
TEST(two_cached_objects_with_the_same_kernel_names_stay_apart)
{
    fresh_dirs();
    lat_context *ctx = emu_context();
    static const char times3[] = "__global__ void add(float *y, const float *x, float a, int n)\n"
                                 "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = 3.0f * x[i]; }\n";
    /* Built once each, into the cache. */
    lat_module_destroy(make_optimised(ctx, small_src));
    lat_module_destroy(make_optimised(ctx, times3));
    lat_cache_clear(); /* the next two come from the disk */
    lat_module *a = make_optimised(ctx, small_src), *b = make_optimised(ctx, times3);
    enum { N = 300 };
    float ya[N], yb[N];
    for (int i = 0; i < N; i++)
        ya[i] = yb[i] = (float)(i % 7);
    run_add(ctx, a, ya, N);
    run_add(ctx, b, yb, N);
    for (int i = 0; i < N; i++) {
        float x = (float)i * 0.25f;
        ASSERT_MSG(ya[i] == 1.5f * x + (float)(i % 7), "a: y[%d] = %g", i, (double)ya[i]);
        ASSERT_MSG(yb[i] == 3.0f * x, "b: y[%d] = %g, want %g (a's code?)", i, (double)yb[i], (double)(3.0f * x));
    }
    lat_module_destroy(a);
    lat_module_destroy(b);
}

typedef struct job {
    lat_context *ctx;
    int id;
    lat_status st;
    float y3;
} job;

static void *make_and_run(void *arg)
{
    job *j = arg;
    char src[512];
    snprintf(src, sizeof src,
             "__global__ void add(float *y, const float *x, float a, int n)\n"
             "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = a * x[i] + %d; }\n",
             j->id);
    lat_module *m = NULL;
    j->st = lat_module_create(j->ctx, &(lat_module_desc){.source = src, .name = "t.cu",
                                                        .emu_opt = LAT_EMU_OPT_BACKGROUND},
                              &m);
    if (j->st != LAT_OK)
        return NULL;
    lat_kernel *k;
    float y[4] = {0}, x[4] = {0, 1, 2, 3}, a = 2.0f;
    lat_deviceptr dx, dy;
    int n = 4;
    if ((j->st = lat_module_get_kernel(m, "add", &k)) == LAT_OK &&
        (j->st = lat_mem_alloc(j->ctx, sizeof x, &dx)) == LAT_OK) {
        lat_mem_alloc(j->ctx, sizeof y, &dy);
        lat_memcpy_htod(j->ctx, dx, x, sizeof x);
        void *params[] = {&dy, &dx, &a, &n};
        for (int r = 0; r < 20 && j->st == LAT_OK; r++)
            j->st = lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {4}}, params);
        lat_memcpy_dtoh(j->ctx, y, dy, sizeof y);
        lat_mem_free(j->ctx, dx);
        lat_mem_free(j->ctx, dy);
    }
    j->y3 = y[3];
    /* Destroyed while its build may still run: it is stopped and waited for. */
    lat_module_destroy(m);
    return NULL;
}

TEST(modules_made_and_destroyed_on_several_threads_during_their_builds)
{
    fresh_dirs();
    setenv("LATTICE_CACHE", "off", 1); /* no shared modules: destroying one frees it */
    lat_context *ctx = emu_context();
    enum { THREADS = 4 };
    pthread_t t[THREADS];
    job jobs[THREADS];
    for (int i = 0; i < THREADS; i++) {
        jobs[i] = (job){ctx, i, LAT_ERROR_INTERNAL, 0};
        ASSERT_EQ(pthread_create(&t[i], NULL, make_and_run, &jobs[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        ASSERT_OK(jobs[i].st);
        ASSERT_TRUE(jobs[i].y3 == 6.0f + (float)i);
    }
    unsetenv("LATTICE_CACHE");
    ASSERT_EQ(count_entries(tmp_dir), 0);
}

TEST(a_module_destroyed_during_its_build_stops_the_compiler)
{
    fresh_dirs();
    char body[256];
    snprintf(body, sizeof body, "echo $$ > %s/pid\nexec sleep 60", tool_dir);
    setenv("LATTICE_EMU_CC", script("hangcc", body), 1);
    setenv("LATTICE_CACHE", "off", 1); /* no shared module: destroying it frees it */
    lat_context *ctx = emu_context();
    lat_module *m = make(ctx, small_src, LAT_EMU_OPT_BACKGROUND);
    unsetenv("LATTICE_CACHE");
    char path[128];
    snprintf(path, sizeof path, "%s/pid", tool_dir);
    double t0 = now_ms();
    while (access(path, R_OK) != 0 && now_ms() - t0 < 20000)
        usleep(1000);
    usleep(20000); /* the pid written */
    t0 = now_ms();
    lat_module_destroy(m);
    ASSERT_LT(now_ms() - t0, 5000);
    FILE *f = fopen(path, "r");
    ASSERT_NOT_NULL(f);
    int pid = 0;
    ASSERT_EQ(fscanf(f, "%d", &pid), 1);
    fclose(f);
    ASSERT_TRUE(kill(pid, 0) != 0 && errno == ESRCH);
    ASSERT_EQ(nwarnings, 0); /* stopping is not a failure */
    ASSERT_EQ(count_entries(tmp_dir), 0);
}

/* A race and an out-of-bounds write, in a kernel that otherwise computes. */
static const char buggy_src[] =
    "__global__ void buggy(float *out, const float *in, int n)\n"
    "{\n"
    "    __shared__ float s[64];\n"
    "    int t = threadIdx.x;\n"
    "    s[t] = in[blockIdx.x * 64 + t];\n"
    "    __syncthreads();\n"
    "    s[t] = s[(t + 1) % 64] * 2.0f + 1.0f;\n" /* a race: the next thread writes it */
    "    __syncthreads();\n"
    "    out[blockIdx.x * 64 + t] = s[t];\n"
    "    if (t == 5 && blockIdx.x == 1)\n"
    "        out[n + 3] = 1.0f;\n" /* past the end */
    "}\n";

/* Runs buggy on a checked context of the given tier: its first report and its output. */
static lat_module_tier run_buggy(lat_emu_opt mode, char *first, size_t first_size,
                                 const float *in, float *out, int n)
{
    lat_context *ctx = NULL;
    ASSERT_OK(lat_context_create(&(lat_context_desc){.backend = LAT_BACKEND_EMU,
                                                     .check = LAT_CHECK_ALL,
                                                     .logger = {on_log, NULL}},
                                 &ctx));
    lat_module *m = make(ctx, buggy_src, mode);
    lat_module_tier tier = lat_module_get_tier(m);
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(m, "buggy", &k));
    lat_deviceptr din = t_device_copy(ctx, in, (size_t)n * sizeof *in);
    lat_deviceptr dout = t_device_copy(ctx, NULL, (size_t)n * sizeof *out);
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED,
                  lat_launch(k, &(lat_launch_desc){.grid = {(unsigned)n / 64}, .block = {64}},
                             (void *[]){&dout, &din, &n}));
    snprintf(first, first_size, "%s", lat_last_error());
    ASSERT_GE(lat_check_report_count(ctx), 2); /* the out-of-bounds write too */
    ASSERT_OK(lat_memcpy_dtoh(ctx, out, dout, (size_t)n * sizeof *out));
    lat_context_destroy(ctx);
    return tier;
}

/* Checked modules tier up too; the optimised code gives the same reports and the same
 * results as TinyCC's (the suite emu-opt runs every check test on it as well). */
TEST(checked_launches_run_on_the_optimised_tier_with_the_same_reports)
{
    fresh_dirs();
    t_require_backend();
    enum { N = 256 };
    char tcc_first[1024], opt_first[1024];
    float in[N], tcc_out[N], opt_out[N];
    t_rand_floats(in, N, -1.0f, 1.0f);
    ASSERT_EQ(run_buggy(LAT_EMU_OPT_OFF, tcc_first, sizeof tcc_first, in, tcc_out, N),
              LAT_MODULE_TIER_TINYCC);
    lat_module_tier tier = run_buggy(LAT_EMU_OPT_SYNC, opt_first, sizeof opt_first, in, opt_out, N);
    if (tier != LAT_MODULE_TIER_OPTIMISED)
        SKIP("no optimised code on this machine");
    ASSERT_CONTAINS(tcc_first, "racecheck");
    ASSERT_STR_EQ(opt_first, tcc_first);
    for (int i = 0; i < N; i++)
        if (memcmp(&opt_out[i], &tcc_out[i], sizeof(float)) != 0)
            FAIL("out[%d]: %a on the optimised tier, %a on TinyCC's", i, (double)opt_out[i],
                 (double)tcc_out[i]);
}

/* gcc may move a division before the store of the thread's index (or sink the store
 * out of the thread loop): the report named thread 63 as the one that divided by zero,
 * as if it were certain. It names the block, and says the thread is approximate. (A
 * checked launch's optimised code keeps the order: the suite emu-opt runs the checks'
 * fault tests on it.) */
TEST(a_fault_in_optimised_code_says_its_thread_is_approximate)
{
    fresh_dirs();
    lat_context *ctx = emu_context();
    lat_module *m = make_optimised(ctx,
                                   "__global__ void divide(int *out, int d)\n"
                                   "{\n"
                                   "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                   "    out[i] = (i + 100) / (threadIdx.x == 6 && blockIdx.x == 2 ? d : 1);\n"
                                   "}\n");
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(m, "divide", &k));
    lat_deviceptr out = t_device_copy(ctx, NULL, 4 * 64 * sizeof(int));
    int d = 0;
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED,
                  lat_launch(k, &(lat_launch_desc){.grid = {4}, .block = {64}},
                             (void *[]){&out, &d}));
    ASSERT_CONTAINS(lat_last_error(), "kernel 'divide' crashed in block (2,0,0), thread (");
    ASSERT_CONTAINS(lat_last_error(), " or a thread of its block near it (optimised code: "
                                      "LATTICE_EMU_OPT=off or LATTICE_CHECK=memcheck names the "
                                      "thread exactly): integer division by zero");
    lat_module_destroy(m);
}

/* The optimised code steps an int over the threads' global x index, which must not pass
 * INT_MAX: a block whose range of blockIdx.x * blockDim.x + threadIdx.x crosses 2^31 runs
 * a copy that does not. Blocks of 1023 threads, so that one does; the blocks past it,
 * whose int index is negative, and the one before it give what the GPU's wrapping gives
 * too. Plain kernels (one with an unnamed and one with a reassigned parameter, which the
 * copy is handed under other names) and region loops. */
static const char wide_src[] =
    "__global__ void plain(int *out, unsigned last, int)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (blockIdx.x >= last) out[(blockIdx.x - last) * blockDim.x + threadIdx.x] = i;\n"
    "}\n"
    "__global__ void reassigned(int *out, unsigned last)\n"
    "{\n"
    "    out -= last * blockDim.x;\n"
    "    unsigned u = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    int i = u;\n"
    "    if (blockIdx.x >= last) out[u] = i - 1;\n"
    "}\n"
    "__global__ void region(int *out, unsigned last)\n"
    "{\n"
    "    __shared__ int s[1024];\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    s[threadIdx.x] = i;\n"
    "    __syncthreads();\n"
    "    if (blockIdx.x >= last) out[(blockIdx.x - last) * blockDim.x + threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];\n"
    "}\n";

TEST(blocks_whose_global_index_passes_int_max_give_wrapped_indices)
{
    if (RUNNING_ON_VALGRIND)
        SKIP("2^31 threads are too many under valgrind");
    const char *fibers = getenv("LATTICE_EMU_FIBERS");
    if (fibers && strcmp(fibers, "0") != 0)
        SKIP("LATTICE_EMU_FIBERS: 2^31 threads on fibers take minutes (the case is the optimised loops')");
    fresh_dirs();
    lat_context *ctx = emu_context();
    unsigned checks = 0;
    ASSERT_OK(lat_check_modes(ctx, &checks));
    if (checks)
        SKIP("LATTICE_CHECK: 2^31 checked threads take minutes (the case is the unchecked loops')");
    lat_module *m = make_optimised(ctx, wide_src);
    enum { BX = 1023, TAIL = 3 };
    unsigned last = (unsigned)(2147483648u / BX) - 1, grid = last + TAIL;
    ASSERT_TRUE((unsigned long long)(last + 1) * BX < 2147483648u);
    ASSERT_TRUE((unsigned long long)(last + 2) * BX > 2147483648u);
    lat_deviceptr out = t_device_copy(ctx, NULL, TAIL * BX * sizeof(int));
    int *got = t_calloc(TAIL * BX, sizeof *got);
    const char *names[] = {"plain", "reassigned", "region"};
    for (int n = 0; n < 3; n++) {
        lat_kernel *k;
        ASSERT_OK(lat_module_get_kernel(m, names[n], &k));
        ASSERT_OK(lat_memset_d8(ctx, out, 0, TAIL * BX * sizeof(int)));
        int unused = 0;
        void *params[] = {&out, &last, &unused};
        ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {grid}, .block = {BX}}, params));
        ASSERT_OK(lat_memcpy_dtoh(ctx, got, out, TAIL * BX * sizeof(int)));
        for (int b = 0; b < TAIL; b++)
            for (int t = 0; t < BX; t++) {
                int tt = n == 2 ? BX - 1 - t : t;
                unsigned g = (last + (unsigned)b) * BX + (unsigned)tt;
                int want = (int)(n == 1 ? g - 1 : g);
                if (got[b * BX + t] != want)
                    FAIL("%s: block %u, thread %d: %d, not %d", names[n], last + b, t,
                         got[b * BX + t], want);
            }
    }
    lat_module_destroy(m);
}

/* The optimised code evaluates both arms of a floating ?: whose arms are cheap arithmetic,
 * then chooses (arith.h): the arm not chosen may divide by zero or take a square root of
 * a negative number, and nothing of it shows; a condition with a side effect, or an arm
 * that reads memory, keeps C's order. Each against the host, on the optimised tier. */
static const char select_src[] =
    "__global__ void sel(float *out, const float *x, const float *y, const int *z, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i >= n) return;\n"
    "    float a = x[i], b = y[i];\n"
    "    int k = z[i];\n"
    "    float q = b != 0.0f ? a / b : -1.0f;\n"
    "    float r = a >= 0.0f ? sqrtf(a) : fabsf(a) * 2.0f + (float)threadIdx.x;\n"
    "    float s = (k++ > 2) ? (float)k * 0.5f : (float)k;\n"
    "    float t = i + 1 < n ? x[i + 1] / b : 1.0f / (b - b);\n"
    "    out[4 * i] = q; out[4 * i + 1] = r; out[4 * i + 2] = s; out[4 * i + 3] = t;\n"
    "}\n";

TEST(selects_evaluate_both_arms_without_changing_a_result)
{
    fresh_dirs();
    lat_context *ctx = emu_context();
    lat_module *m = make_optimised(ctx, select_src);
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(m, "sel", &k));
    enum { N = 1000 };
    float *x = t_calloc(N, sizeof *x), *y = t_calloc(N, sizeof *y), *out = t_calloc(4 * N, sizeof *out);
    int *z = t_calloc(N, sizeof *z);
    t_rand_floats(x, N, -8, 8);
    t_rand_floats(y, N, -2, 2);
    for (int i = 0; i < N; i++) {
        if (i % 3 == 0)
            y[i] = 0.0f; /* the division the select computes and does not choose */
        z[i] = (int)t_rand_double(0, 6);
    }
    int n = N;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {(N + 255) / 256}, .block = {256}},
                              LAT_ARGS(lat_arg_out(out, 4 * N * sizeof *out), lat_arg_in(x, N * sizeof *x),
                                       lat_arg_in(y, N * sizeof *y), lat_arg_in(z, N * sizeof *z),
                                       lat_arg_i32(n))));
    for (int i = 0; i < N; i++) {
        float a = x[i], b = y[i];
        int kk = z[i];
        float want[4] = {b != 0.0f ? a / b : -1.0f,
                         a >= 0.0f ? sqrtf(a) : fabsf(a) * 2.0f + (float)(i % 256),
                         kk > 2 ? (float)(kk + 1) * 0.5f : (float)(kk + 1),
                         i + 1 < N ? x[i + 1] / b : 1.0f / (b - b)};
        for (int j = 0; j < 4; j++)
            ASSERT_MSG(memcmp(&out[4 * i + j], &want[j], sizeof(float)) == 0 ||
                           (isnan(out[4 * i + j]) && isnan(want[j])),
                       "out[%d][%d] = %a, want %a", i, j, (double)out[4 * i + j], (double)want[j]);
    }
    lat_module_destroy(m);
}

TEST(an_unknown_lattice_emu_opt_is_an_error)
{
    t_require_backend();
    /* Read with the other variables when a context is created. */
    setenv("LATTICE_EMU_OPT", "fast", 1);
    lat_context *ctx = NULL;
    lat_status st = lat_context_create(&(lat_context_desc){.backend = LAT_BACKEND_EMU}, &ctx);
    unsetenv("LATTICE_EMU_OPT");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, st);
    ASSERT_CONTAINS(lat_last_error(), "LATTICE_EMU_OPT");
}
