/* The compile cache: memory and disk, keyed by everything that changes the output,
 * atomic writes, corrupt entries, and the switches. Each case uses its own cache
 * directory. */
#include "harness.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[256];

/* A fresh cache directory (removed after the case), the memory cache emptied and the
 * cache switched on. */
static void fresh_cache(void)
{
    snprintf(dir, sizeof dir, "%s", t_tempdir());
    t_setenv("LATTICE_CACHE_DIR", dir);
    t_unsetenv("LATTICE_CACHE");
    lat_cache_clear();
}

/* The number of entries (*.lcc) and of anything else in the directory. */
static int count_files(int *others)
{
    int n = 0;
    *others = 0;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".lcc") == 0)
            n++;
        else if (!strstr(e->d_name, ".lcc.tmp."))
            (*others)++;
        /* else an entry being written (renamed into place when whole): an emulator
         * module's optimising tier may still be storing its object in the background
         * after the module is gone (under valgrind, slow enough to be seen here) */
    }
    closedir(d);
    return n;
}

/* A context of the backend under test; cross-checking contexts compile on two backends at
 * once, so their counts are not this file's. */
static lat_context *cache_context(void)
{
    lat_context *ctx = t_context();
    if (lat_context_backend(ctx) == LAT_BACKEND_CROSS)
        SKIP("cross-checking compiles everything twice; the backends' own suites test the cache");
    return ctx;
}

static lat_module *make(lat_context *ctx, const char *source, const char *const *options)
{
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = source, .name = "cached.cu",
                                                       .options = options},
                                &mod));
    return mod;
}

static int run_value(lat_module *mod)
{
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(mod, "value", &k));
    int out = 0;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                              LAT_ARGS(lat_arg_out(&out, sizeof out))));
    return out;
}

static const char value_src[] = "__global__ void value(int *out) { *out = 41 + 1; }\n";

TEST(the_second_compile_of_a_source_comes_from_memory)
{
    fresh_cache();
    lat_context *ctx = cache_context();
    lat_module *a = make(ctx, value_src, NULL);
    ASSERT_EQ(lat_module_get_origin(a), LAT_MODULE_COMPILED);
    lat_module *b = make(ctx, value_src, NULL);
    ASSERT_EQ(lat_module_get_origin(b), LAT_MODULE_MEMORY_CACHE);
    ASSERT_EQ(run_value(a), 42);
    ASSERT_EQ(run_value(b), 42);
    lat_module_destroy(a);
    ASSERT_EQ(run_value(b), 42); /* a shared module outlives its first owner */
    lat_cache_stats st;
    ASSERT_OK(lat_cache_get_stats(&st));
    ASSERT_EQ(st.memory_hits, 1);
    ASSERT_EQ(st.misses, 1);
    ASSERT_STR_EQ(lat_cache_directory(), dir);
}

TEST(every_input_is_part_of_the_key)
{
    fresh_cache();
    lat_context *ctx = cache_context();
    make(ctx, value_src, NULL);
    static const char *const defined[] = {"-DUNUSED=1", NULL};
    static const char *const fast[] = {"--use_fast_math", NULL};
    ASSERT_EQ(lat_module_get_origin(make(ctx, value_src, defined)), LAT_MODULE_COMPILED);
    ASSERT_EQ(lat_module_get_origin(make(ctx, value_src, fast)), LAT_MODULE_COMPILED);
    ASSERT_EQ(lat_module_get_origin(make(ctx, "__global__ void value(int *out) { *out = 42; }\n", NULL)),
              LAT_MODULE_COMPILED);
    ASSERT_EQ(lat_module_get_origin(make(ctx, value_src, fast)), LAT_MODULE_MEMORY_CACHE);
}

TEST(a_changed_include_file_is_recompiled)
{
    fresh_cache();
    char header[300], source[600];
    snprintf(header, sizeof header, "%s/answer.cuh", dir);
    FILE *f = fopen(header, "w");
    ASSERT_NOT_NULL(f);
    fputs("#define ANSWER 1\n", f);
    fclose(f);
    snprintf(source, sizeof source,
             "#include \"%s\"\n__global__ void value(int *out) { *out = ANSWER; }\n", header);
    lat_context *ctx = cache_context();
    ASSERT_EQ(run_value(make(ctx, source, NULL)), 1);
    ASSERT_EQ(lat_module_get_origin(make(ctx, source, NULL)), LAT_MODULE_MEMORY_CACHE);
    f = fopen(header, "w");
    ASSERT_NOT_NULL(f);
    fputs("#define ANSWER 2\n", f);
    fclose(f);
    lat_module *m = make(ctx, source, NULL);
    ASSERT_EQ(lat_module_get_origin(m), LAT_MODULE_COMPILED);
    ASSERT_EQ(run_value(m), 2);
}

TEST(an_include_of_a_macro_is_not_cached)
{
    fresh_cache();
    lat_context *ctx = cache_context();
    char header[300], src[700];
    snprintf(header, sizeof header, "%s/answer.cuh", dir);
    FILE *f = fopen(header, "w");
    ASSERT_NOT_NULL(f);
    fputs("#define ANSWER 42\n", f);
    fclose(f);
    snprintf(src, sizeof src,
             "#define HDR \"%s\"\n#include HDR\n"
             "__global__ void value(int *out) { *out = ANSWER; }\n", header);
    lat_module *mod = NULL;
    lat_status st = lat_module_create(ctx, &(lat_module_desc){.source = src}, &mod);
    if (st == LAT_ERROR_UNSUPPORTED)
        SKIP("this backend has no computed #include: %s", lat_last_error());
    ASSERT_OK(st);
    ASSERT_EQ(lat_module_get_origin(mod), LAT_MODULE_COMPILED);
    lat_module *again = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src}, &again));
    ASSERT_EQ(lat_module_get_origin(again), LAT_MODULE_COMPILED);
    lat_cache_stats stats;
    ASSERT_OK(lat_cache_get_stats(&stats));
    ASSERT_GE(stats.uncacheable, 2);
}

/* LATTICE_EMU_FIBERS is read when a context is made: a module made with it set is not
 * the one made from the same source without it. The kernel's vote as a condition gives
 * 1 only in the third warp on a GPU and on fibers. */
TEST(a_module_made_with_LATTICE_EMU_FIBERS_is_not_the_cached_one_made_without)
{
    fresh_cache();
    t_unsetenv("LATTICE_EMU_FIBERS"); /* the first module is made without (the suite may set it) */
    lat_context *ctx = cache_context();
    if (lat_context_backend(ctx) != LAT_BACKEND_EMU)
        SKIP("LATTICE_EMU_FIBERS is the emulator's");
    static const char src[] =
        "__global__ void vote(int *o)\n"
        "{\n"
        "    int tx = threadIdx.x;\n"
        "    o[tx] = 0;\n"
        "    if (__all_sync(0xffffffff, tx >= 48))\n"
        "        o[tx] = 1;\n"
        "}\n";
    lat_module *plain = make(ctx, src, NULL);
    /* The environment is read when a context is made (not per compile). */
    t_setenv("LATTICE_EMU_FIBERS", "1");
    lat_context *fctx = NULL;
    lat_module *fibers = NULL;
    lat_status st = lat_context_create(&(lat_context_desc){.backend = LAT_BACKEND_EMU}, &fctx);
    if (st == LAT_OK)
        st = lat_module_create(fctx, &(lat_module_desc){.source = src, .name = "cached.cu"},
                               &fibers);
    t_unsetenv("LATTICE_EMU_FIBERS");
    int ndev;
    ASSERT_OK(lat_device_count(LAT_BACKEND_EMU, &ndev)); /* reads the environment again */
    ASSERT_OK(st);
    ASSERT_EQ(lat_module_get_origin(fibers), LAT_MODULE_COMPILED);
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(fibers, "vote", &k));
    int o[96];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {96}},
                              LAT_ARGS(lat_arg_out(o, sizeof o))));
    for (int t = 0; t < 96; t++)
        ASSERT_MSG(o[t] == (t >= 64), "o[%d] = %d on fibers", t, o[t]);
    /* And the other way round: the plain one is still served to plain requests. */
    ASSERT_EQ(lat_module_get_origin(make(ctx, src, NULL)), LAT_MODULE_MEMORY_CACHE);
    lat_module_destroy(plain);
    lat_context_destroy(fctx);
}

TEST(LATTICE_CACHE_0_turns_the_cache_off)
{
    fresh_cache();
    t_setenv("LATTICE_CACHE", "0");
    lat_context *ctx = cache_context();
    make(ctx, value_src, NULL);
    ASSERT_EQ(lat_module_get_origin(make(ctx, value_src, NULL)), LAT_MODULE_COMPILED);
    ASSERT_STR_EQ(lat_cache_directory(), "");
    int others;
    ASSERT_EQ(count_files(&others), 0);
    t_unsetenv("LATTICE_CACHE");
}

TEST(modules_with_device_variables_are_not_shared)
{
    fresh_cache();
    lat_context *ctx = cache_context();
    static const char src[] = "__device__ int counter;\n"
                              "__global__ void value(int *out) { *out = ++counter; }\n";
    lat_module *probe = NULL;
    if (lat_module_create(ctx, &(lat_module_desc){.source = src}, &probe) == LAT_ERROR_UNSUPPORTED)
        SKIP("this backend has no __device__ variables yet: %s", lat_last_error());
    lat_module_destroy(probe);
    lat_module *a = make(ctx, src, NULL);
    lat_module *b = make(ctx, src, NULL);
    ASSERT_EQ(run_value(a), 1);
    ASSERT_EQ(run_value(a), 2);
    ASSERT_EQ(run_value(b), 1); /* its own counter, as on a GPU */
}

/* ---- the disk cache (CUDA: the emulator keeps its modules in memory only) ------------ */

static lat_context *cuda_context(void)
{
    lat_context *ctx = cache_context();
    if (lat_context_backend(ctx) == LAT_BACKEND_EMU)
        SKIP("the emulator caches compiled modules in memory only");
    return ctx;
}

TEST(a_new_process_loads_the_module_from_disk)
{
    fresh_cache();
    lat_context *ctx = cuda_context();
    lat_module *a = make(ctx, value_src, NULL);
    ASSERT_EQ(lat_module_get_origin(a), LAT_MODULE_COMPILED);
    int others = 0;
    ASSERT_EQ(count_files(&others), 1);
    ASSERT_EQ(others, 0); /* no temporary file left behind */
    lat_cache_clear(); /* as a new process would start: nothing in memory */
    lat_module *b = make(ctx, value_src, NULL);
    ASSERT_EQ(lat_module_get_origin(b), LAT_MODULE_DISK_CACHE);
    ASSERT_EQ(run_value(b), 42);
    lat_code_kind kind;
    const void *code;
    size_t size;
    ASSERT_OK(lat_module_get_code(b, &kind, &code, &size));
    ASSERT_GT(size, 0);
}

TEST(a_corrupt_entry_is_replaced)
{
    fresh_cache();
    lat_context *ctx = cuda_context();
    make(ctx, value_src, NULL);
    DIR *d = opendir(dir);
    ASSERT_NOT_NULL(d);
    struct dirent *e;
    char path[512] = "";
    while ((e = readdir(d)) != NULL)
        if (strstr(e->d_name, ".lcc"))
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    closedir(d);
    ASSERT_TRUE(path[0] != '\0');
    /* Flip a byte in the middle of the payload. */
    FILE *f = fopen(path, "r+b");
    ASSERT_NOT_NULL(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, size / 2, SEEK_SET);
    int c = fgetc(f);
    fseek(f, size / 2, SEEK_SET);
    fputc(c ^ 0xff, f);
    fclose(f);
    lat_cache_clear();
    lat_module *m = make(ctx, value_src, NULL);
    ASSERT_EQ(lat_module_get_origin(m), LAT_MODULE_COMPILED);
    ASSERT_EQ(run_value(m), 42);
    lat_cache_stats st;
    ASSERT_OK(lat_cache_get_stats(&st));
    ASSERT_EQ(st.corrupt, 1);
    /* The rewritten entry is good. */
    lat_cache_clear();
    ASSERT_EQ(lat_module_get_origin(make(ctx, value_src, NULL)), LAT_MODULE_DISK_CACHE);
}

typedef struct compile_job {
    lat_context *ctx;
    lat_status st;
    int value;
} compile_job;

static void *compile_thread(void *arg)
{
    compile_job *j = arg;
    lat_module *mod = NULL;
    j->st = lat_module_create(j->ctx, &(lat_module_desc){.source = value_src, .name = "cached.cu"},
                              &mod);
    if (j->st == LAT_OK) {
        lat_kernel *k;
        int out = 0;
        j->st = lat_module_get_kernel(mod, "value", &k);
        if (j->st == LAT_OK)
            j->st = lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                                    LAT_ARGS(lat_arg_out(&out, sizeof out)));
        j->value = out;
        lat_module_destroy(mod);
    }
    return NULL;
}

TEST(threads_compiling_the_same_source_at_once_all_succeed)
{
    fresh_cache();
    lat_context *ctx = cache_context();
    enum { THREADS = 6 };
    pthread_t t[THREADS];
    compile_job jobs[THREADS];
    for (int i = 0; i < THREADS; i++) {
        jobs[i] = (compile_job){ctx, LAT_ERROR_INTERNAL, 0};
        ASSERT_EQ(pthread_create(&t[i], NULL, compile_thread, &jobs[i]), 0);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        ASSERT_OK(jobs[i].st);
        ASSERT_EQ(jobs[i].value, 42);
    }
    int others = 0;
    ASSERT_LE(count_files(&others), 1);
    ASSERT_EQ(others, 0);
}
