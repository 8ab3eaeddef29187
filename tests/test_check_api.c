/* The check API's plain parts (lattice/check.h): modes from text and from LATTICE_CHECK,
 * names, labels, kernel parameters, and the new status. */
#include "check_util.h"
#include "wild.h"

#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

TEST(modes_parse_from_text)
{
    unsigned m = 0;
    ASSERT_OK(lat_check_parse_modes("memcheck,racecheck", &m));
    ASSERT_EQ(m, LAT_CHECK_MEMCHECK | LAT_CHECK_RACECHECK);
    ASSERT_OK(lat_check_parse_modes("all", &m));
    ASSERT_EQ(m, LAT_CHECK_ALL);
    ASSERT_OK(lat_check_parse_modes("", &m));
    ASSERT_EQ(m, 0);
    ASSERT_OK(lat_check_parse_modes("none", &m));
    ASSERT_EQ(m, 0);
    ASSERT_OK(lat_check_parse_modes("synccheck, initcheck", &m));
    ASSERT_EQ(m, LAT_CHECK_SYNCCHECK | LAT_CHECK_INITCHECK);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_check_parse_modes("memchek", &m));
    ASSERT_CONTAINS(lat_last_error(), "'memchek' is not a check");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_check_parse_modes(NULL, &m));
}

TEST(lattice_check_turns_checks_on_for_contexts_that_leave_them_to_it)
{
    lat_backend_kind kind = t_require_backend();
    if (kind != LAT_BACKEND_EMU)
        SKIP("the checks run on the emulator only");
    t_setenv("LATTICE_CHECK", "racecheck,initcheck");
    lat_context *ctx = t_context_with(&(lat_context_desc){.backend = LAT_BACKEND_EMU});
    lat_context *off = t_context_with(&(lat_context_desc){.backend = LAT_BACKEND_EMU,
                                                          .check = LAT_CHECK_OFF});
    lat_context *mine = t_context_with(&(lat_context_desc){.backend = LAT_BACKEND_EMU,
                                                           .check = LAT_CHECK_MEMCHECK});
    t_setenv("LATTICE_CHECK", "everything");
    lat_context *bad;
    lat_status st = lat_context_create(&(lat_context_desc){.backend = LAT_BACKEND_EMU}, &bad);
    t_unsetenv("LATTICE_CHECK");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, st);
    ASSERT_CONTAINS(lat_last_error(), "LATTICE_CHECK");
    unsigned m;
    ASSERT_OK(lat_check_modes(ctx, &m));
    ASSERT_EQ(m, LAT_CHECK_RACECHECK | LAT_CHECK_INITCHECK);
    ASSERT_OK(lat_check_modes(off, &m));
    ASSERT_EQ(m, 0);
    ASSERT_OK(lat_check_modes(mine, &m));
    ASSERT_EQ(m, LAT_CHECK_MEMCHECK);
}

TEST(names_and_the_status)
{
    ASSERT_STR_EQ(lat_status_name(LAT_ERROR_CHECK_FAILED), "LAT_ERROR_CHECK_FAILED");
    ASSERT_STR_EQ(lat_check_kind_name(LAT_CHECK_RACE), "race");
    ASSERT_STR_EQ(lat_check_kind_name(LAT_CHECK_OUT_OF_BOUNDS), "out-of-bounds");
    ASSERT_STR_EQ(lat_check_kind_name((lat_check_kind)99), "unknown");
}

TEST(kernel_parameters_are_described)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx,
                             "__global__ void p(const float *a, int *b, double s, unsigned n,"
                             " unsigned char *c)\n{ }\n",
                             "p");
    lat_check_param prm;
    ASSERT_OK(lat_check_kernel_param(k, 0, &prm));
    ASSERT_STR_EQ(prm.name, "a");
    ASSERT_STR_EQ(prm.type, "const float *");
    ASSERT_TRUE(prm.is_pointer && prm.is_float);
    ASSERT_EQ(prm.pointee_size, 4);
    ASSERT_OK(lat_check_kernel_param(k, 1, &prm));
    ASSERT_TRUE(prm.is_pointer && !prm.is_float && prm.is_signed);
    ASSERT_EQ(prm.pointee_size, 4);
    ASSERT_OK(lat_check_kernel_param(k, 2, &prm));
    ASSERT_TRUE(!prm.is_pointer && prm.is_float);
    ASSERT_EQ(prm.size, 8);
    ASSERT_OK(lat_check_kernel_param(k, 3, &prm));
    ASSERT_TRUE(!prm.is_pointer && !prm.is_float && !prm.is_signed);
    ASSERT_OK(lat_check_kernel_param(k, 4, &prm));
    ASSERT_EQ(prm.pointee_size, 1);
    ASSERT_TRUE(!prm.is_signed);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_check_kernel_param(k, 5, &prm));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_check_kernel_param(k, -1, &prm));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_check_kernel_param(NULL, 0, &prm));
}

/* Pointee sizes come from the type's whole words: `struct point *` was a pointer to int
 * (the "int" in "point"), and float4 a pointer to a 4-byte float; a vector's components
 * are counted. */
TEST(pointee_sizes_are_read_from_whole_words)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx,
                             "typedef int int32_t; /* NVRTC has no <stdint.h> */\n"
                             "struct point { int x, y; };\n"
                             "__global__ void q(struct point *a, float4 *b, const uint2 *c,\n"
                             "                  unsigned long long *d, int32_t *e, const signed char *f,\n"
                             "                  double2 *g, long double *h, char3 *i, unsigned *j)\n{ }\n",
                             "q");
    static const struct {
        size_t size, components;
        int is_float, is_signed;
    } want[] = {{0, 0, 0, 0}, {16, 4, 1, 0}, {8, 2, 0, 0}, {8, 1, 0, 0}, {4, 1, 0, 1},
                {1, 1, 0, 1}, {16, 2, 1, 0}, {0, 0, 0, 0}, {3, 3, 0, 1}, {4, 1, 0, 0}};
    for (int i = 0; i < 10; i++) {
        lat_check_param prm;
        ASSERT_OK(lat_check_kernel_param(k, i, &prm));
        ASSERT_MSG(prm.is_pointer && prm.pointee_size == want[i].size &&
                       prm.pointee_components == want[i].components &&
                       !!prm.is_float == want[i].is_float && !!prm.is_signed == want[i].is_signed,
                   "parameter %d (%s): size %zu, %zu components, float %d, signed %d; want %zu, "
                   "%zu, %d, %d", i, prm.type, prm.pointee_size, prm.pointee_components,
                   prm.is_float, prm.is_signed, want[i].size, want[i].components,
                   want[i].is_float, want[i].is_signed);
    }
}

/* The half types: the emulator's signatures write them `struct __half` (a pointer to them
 * had no size, so `lattice run` refused it), and __half2 has two components (it was one
 * 4-byte float). Passed by value, they are floats too. */
TEST(half_types_are_sized_and_floats)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx,
                             "#include <cuda_fp16.h>\n"
                             "#include <cuda_bf16.h>\n"
                             "__global__ void h(__half *a, const __half2 *b, __nv_bfloat16 *c,\n"
                             "                  const __nv_bfloat162 *d, __half s, __nv_bfloat16 t)\n{ }\n",
                             "h");
    static const struct {
        size_t size, components;
    } want[] = {{2, 1}, {4, 2}, {2, 1}, {4, 2}};
    for (int i = 0; i < 4; i++) {
        lat_check_param prm;
        ASSERT_OK(lat_check_kernel_param(k, i, &prm));
        ASSERT_MSG(prm.is_pointer && prm.is_float && !prm.is_signed &&
                       prm.pointee_size == want[i].size &&
                       prm.pointee_components == want[i].components,
                   "parameter %d (%s): size %zu, %zu components, float %d; want %zu, %zu, 1", i,
                   prm.type, prm.pointee_size, prm.pointee_components, prm.is_float,
                   want[i].size, want[i].components);
    }
    for (int i = 4; i < 6; i++) {
        lat_check_param prm;
        ASSERT_OK(lat_check_kernel_param(k, i, &prm));
        ASSERT_MSG(!prm.is_pointer && prm.is_float && prm.size == 2,
                   "parameter %d (%s): float %d, size %zu", i, prm.type, prm.is_float, prm.size);
    }
}

TEST(a_gpu_context_ignores_checks_and_labels_still_validate)
{
    lat_context *ctx = t_context();
    unsigned m = 1;
    lat_deviceptr p = t_device_copy(ctx, NULL, 64);
    ASSERT_OK(lat_check_label(ctx, p, "p"));
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_check_label(ctx, p + 4, "inside"));
    ASSERT_OK(lat_check_modes(ctx, &m));
    ASSERT_EQ(m, 0); /* t_context() asks for no checks */
    ASSERT_EQ(lat_check_report_count(ctx), 0);
    ASSERT_NULL(lat_check_report_get(ctx, 0));
    ASSERT_OK(lat_check_clear(ctx));
    ASSERT_OK(lat_check_leaks(ctx));
}

/* Each OS thread keeps the window its checked blocks' shared memory lives in from launch
 * to launch (check/launch.c, at least 128 KiB); a thread that exits gives it back. 40
 * threads in turn, each running a checked launch on itself (one block): the process's
 * address space does not grow by a window per thread. The optimised build is made before
 * the count (sync): under AUTO it started mid-loop once the launches had run 20 ms (on
 * fibers, slow enough), and its thread's stack and malloc arena (72 MiB) read as a leak. */
static long mapped_kib(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    long pages = -1;
    if (!f)
        return -1;
    if (fscanf(f, "%ld", &pages) != 1)
        pages = -1;
    fclose(f);
    return pages < 0 ? -1 : pages * (sysconf(_SC_PAGESIZE) / 1024);
}

typedef struct one_launch {
    lat_kernel *k;
    lat_deviceptr out;
    lat_status st;
} one_launch;

static void *launch_on_a_thread(void *p)
{
    one_launch *o = p;
    void *params[] = {&o->out};
    o->st = ck_launch(o->k, 1, 64, params);
    return NULL;
}

TEST(a_thread_that_ran_checked_blocks_gives_their_window_back_when_it_exits)
{
    if (mapped_kib() < 0)
        SKIP("no /proc/self/statm here");
    if (RUNNING_ON_VALGRIND)
        SKIP("valgrind maps memory of its own for each thread");
    lat_context *ctx = ck_context_tier(LAT_CHECK_MEMCHECK, LAT_EMU_OPT_SYNC);
    lat_kernel *k = ck_kernel(ctx, "__global__ void k(float *out)\n"
                                   "{\n"
                                   "    __shared__ float s[64];\n"
                                   "    s[threadIdx.x] = threadIdx.x;\n"
                                   "    __syncthreads();\n"
                                   "    out[threadIdx.x] = s[63 - threadIdx.x];\n"
                                   "}\n", "window.cu", "k");
    one_launch o = {k, 0, LAT_OK};
    ASSERT_OK(lat_mem_alloc(ctx, 64 * sizeof(float), &o.out));
    pthread_t th;
    ASSERT_EQ(pthread_create(&th, NULL, launch_on_a_thread, &o), 0); /* the first maps what stays */
    ASSERT_EQ(pthread_join(th, NULL), 0);
    long before = mapped_kib();
    for (int i = 0; i < 40; i++) {
        ASSERT_EQ(pthread_create(&th, NULL, launch_on_a_thread, &o), 0);
        ASSERT_EQ(pthread_join(th, NULL), 0);
        ASSERT_OK(o.st);
    }
    float got[64];
    ASSERT_OK(lat_memcpy_dtoh(ctx, got, o.out, sizeof got));
    for (int i = 0; i < 64; i++)
        ASSERT_TRUE(got[i] == (float)(63 - i));
    long after = mapped_kib();
    ASSERT_MSG(after < before + 1024, "%ld KiB mapped before 40 threads, %ld KiB after", before, after);
    ASSERT_OK(lat_mem_free(ctx, o.out));
}

/* Each finding reaches the logger once (issue 46): the reports are logged one by one, and
 * the launch's failure, whose message repeats the first for lat_last_error(), is not
 * logged again. */
typedef struct log_count {
    int lines, with_a, with_b;
} log_count;

static void count_lines(void *user, lat_log_level level, const char *text)
{
    log_count *c = user;
    if (level != LAT_LOG_ERROR)
        return;
    c->lines++;
    c->with_a += strstr(text, "out-of-bounds write of 4 bytes by `a[i]`") != NULL;
    c->with_b += strstr(text, "out-of-bounds write of 4 bytes by `b[i + n]`") != NULL;
}

TEST(each_finding_is_logged_once)
{
    t_require_backend();
    if (t_backend() != LAT_BACKEND_EMU)
        SKIP("the checks run on the emulator only");
    log_count c = {0};
    lat_context *ctx = t_context_with(&(lat_context_desc){
        .backend = LAT_BACKEND_EMU, .check = LAT_CHECK_MEMCHECK,
        .logger = {.func = count_lines, .user_data = &c}});
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void fill(int *a, int *b, int n)\n"
                              "{\n"
                              "    int i = threadIdx.x;\n"
                              "    a[i] = 7;\n"
                              "    b[i + n] = 8;\n"
                              "}\n",
                              "fill.cu", "fill");
    lat_deviceptr a = t_device_copy(ctx, NULL, 16 * sizeof(int));
    lat_deviceptr b = t_device_copy(ctx, NULL, 16 * sizeof(int));
    int n = 16;
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {32}},
                                  LAT_ARGS(lat_arg_ptr(a), lat_arg_ptr(b), lat_arg_i32(n))));
    ASSERT_EQ(lat_check_report_count(ctx), 2);
    ASSERT_EQ(c.with_a, 1);
    ASSERT_EQ(c.with_b, 1);
    ASSERT_EQ(c.lines, 2);
    ASSERT_CONTAINS(lat_last_error(), "the emulator's checks found 2 errors in kernel 'fill'");
    ASSERT_CONTAINS(lat_last_error(), ck_msg(ctx, 0));
}
