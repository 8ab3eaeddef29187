/* memcheck (lattice/check.h): every bad access is named with its kernel, line, block,
 * thread and the element it missed, exactly to the byte; it is not performed, so the
 * neighbours survive; correct code reports nothing. */
#include "check_util.h"

TEST(a_write_past_the_end_is_reported_and_not_performed)
{
    lat_context *ctx = ck_context(LAT_CHECK_MEMCHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void fill(int *a, int n)\n"
                              "{\n"
                              "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                              "    a[i] = 7;\n"
                              "}\n",
                              "fill.cu", "fill");
    int ones[100];
    for (int i = 0; i < 100; i++)
        ones[i] = 1;
    lat_deviceptr a = t_device_copy(ctx, ones, sizeof ones);
    lat_deviceptr b = t_device_copy(ctx, ones, 64 * sizeof(int));
    ASSERT_OK(lat_check_label(ctx, a, "a"));
    int n = 100;
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {4}, .block = {32}},
                                  LAT_ARGS(lat_arg_ptr(a), lat_arg_i32(n))));
    ASSERT_REPORTS(ctx, "fill.cu:4: memcheck: kernel 'fill', block (3,0,0), threads (4,0,0) to "
                        "(31,0,0): out-of-bounds write of 4 bytes by `a[i]`: element [100] of "
                        "'a', which has 100 elements of 4 bytes [28 times]");
    ASSERT_CONTAINS(lat_last_error(), "the emulator's checks found 1 error in kernel 'fill'");
    const lat_check_report *r = lat_check_report_get(ctx, 0);
    ASSERT_EQ(r->kind, LAT_CHECK_OUT_OF_BOUNDS);
    ASSERT_EQ(r->check, LAT_CHECK_MEMCHECK);
    ASSERT_EQ(r->space, LAT_SPACE_GLOBAL);
    ASSERT_U64_EQ(r->address, a + 400);
    ASSERT_U64_EQ(r->region_base, a);
    ASSERT_EQ(r->region_size, 400);
    ASSERT_EQ(r->offset, 400);
    ASSERT_EQ(r->count, 28);
    ASSERT_EQ(r->access.kind, LAT_ACCESS_WRITE);
    ASSERT_EQ(r->access.line, 4);
    ASSERT_EQ(r->access.size, 4);
    ASSERT_STR_EQ(r->access.expr, "a[i]");
    ASSERT_STR_EQ(r->access.file, "fill.cu");
    ASSERT_STR_EQ(r->kernel, "fill");
    ASSERT_STR_EQ(r->region_name, "a");
    ASSERT_EQ(r->access.block.x, 3);
    ASSERT_EQ(r->access.thread.x, 4);
    ASSERT_EQ(r->access.thread_last.x, 31);
    int got[64], in_a[100];
    ASSERT_OK(lat_memcpy_dtoh(ctx, got, b, sizeof got));
    for (int i = 0; i < 64; i++)
        ASSERT_MSG(got[i] == 1, "the neighbour's element %d became %d", i, got[i]);
    ASSERT_OK(lat_memcpy_dtoh(ctx, in_a, a, sizeof in_a));
    for (int i = 0; i < 100; i++)
        ASSERT_EQ(in_a[i], 7);
}

TEST(a_read_before_the_start_reads_zero)
{
    lat_context *ctx = ck_context(LAT_CHECK_MEMCHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void left(int *out, const int *in)\n"
                              "{\n"
                              "    int i = threadIdx.x;\n"
                              "    out[i] = in[i - 1] + 1;\n"
                              "}\n",
                              "left.cu", "left");
    int in[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[8];
    lat_deviceptr d_out = t_device_copy(ctx, NULL, sizeof out), d_in = t_device_copy(ctx, in, sizeof in);
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {8}},
                                  LAT_ARGS(lat_arg_ptr(d_out), lat_arg_ptr(d_in))));
    ASSERT_REPORTS(ctx, "left.cu:4: memcheck: kernel 'left', block (0,0,0), thread (0,0,0): "
                        "out-of-bounds read of 4 bytes by `in[i - 1]`: element [-1] of a "
                        "32-byte allocation, which has 8 elements of 4 bytes");
    ASSERT_OK(lat_memcpy_dtoh(ctx, out, d_out, sizeof out));
    ASSERT_EQ(out[0], 1);
    ASSERT_EQ(out[7], 8);
}

TEST(an_access_across_the_end_is_exact_to_the_byte)
{
    lat_context *ctx = ck_context(LAT_CHECK_MEMCHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void tail(char *p)\n"
                              "{\n"
                              "    *(int *)(p + 8) = 1;\n"
                              "    *(short *)(p + 9) = 1;\n"
                              "    p[9] = 2;\n"
                              "}\n",
                              "tail.cu", "tail");
    lat_deviceptr p = t_device_copy(ctx, NULL, 10);
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                                  LAT_ARGS(lat_arg_ptr(p))));
    ASSERT_REPORTS(ctx,
                   "tail.cu:3: memcheck: kernel 'tail', block (0,0,0), thread (0,0,0): "
                   "out-of-bounds write of 4 bytes by `*(int *)(p + 8)`: bytes 8 to 11 of a "
                   "10-byte allocation (10 bytes), across its end",
                   "tail.cu:4: memcheck: kernel 'tail', block (0,0,0), thread (0,0,0): "
                   "misaligned write of 2 bytes by `*(short *)(p + 9)`: the address is not a "
                   "multiple of 2 (bytes 9 to 10 of a 10-byte allocation (10 bytes), across "
                   "its end)",
                   "tail.cu:4: memcheck: kernel 'tail', block (0,0,0), thread (0,0,0): "
                   "out-of-bounds write of 2 bytes by `*(short *)(p + 9)`: bytes 9 to 10 of a "
                   "10-byte allocation (10 bytes), across its end");
}

TEST(freed_memory_null_and_host_pointers_are_named)
{
    lat_context *ctx = ck_context(LAT_CHECK_MEMCHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void use(float *p)\n"
                              "{\n"
                              "    p[threadIdx.x] = 1.0f;\n"
                              "}\n",
                              "use.cu", "use");
    lat_deviceptr p;
    ASSERT_OK(lat_mem_alloc(ctx, 64, &p));
    ASSERT_OK(lat_check_label(ctx, p, "gone"));
    ASSERT_OK(lat_mem_free(ctx, p));
    lat_launch_desc one = {.grid = {1}, .block = {2}};
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, lat_launch_args(k, &one, LAT_ARGS(lat_arg_ptr(p))));
    ASSERT_REPORTS(ctx, "use.cu:3: memcheck: kernel 'use', block (0,0,0), threads (0,0,0) to "
                        "(1,0,0): write of 4 bytes by `p[threadIdx.x]` touches freed memory: "
                        "element [0] of 'gone', freed before the launch [2 times]");
    ASSERT_EQ(lat_check_report_get(ctx, 0)->kind, LAT_CHECK_USE_AFTER_FREE);
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, lat_launch_args(k, &one, LAT_ARGS(lat_arg_ptr(0))));
    ASSERT_REPORTS(ctx, "use.cu:3: memcheck: kernel 'use', block (0,0,0), threads (0,0,0) to "
                        "(1,0,0): write of 4 bytes by `p[threadIdx.x]` at address 0x0, which is "
                        "in no device allocation, shared or local variable (a NULL or host "
                        "pointer?) [2 times]");
    ASSERT_EQ(lat_check_report_get(ctx, 0)->kind, LAT_CHECK_WILD_ADDRESS);
    ASSERT_EQ(lat_check_report_get(ctx, 0)->space, LAT_SPACE_NONE);
}

TEST(shared_local_and_module_arrays_have_exact_bounds)
{
    lat_context *ctx = ck_context(LAT_CHECK_MEMCHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__device__ int table[8];\n"
                              "__global__ void over(int *out)\n"
                              "{\n"
                              "    __shared__ int s[32];\n"
                              "    int acc[4];\n"
                              "    int t = threadIdx.x;\n"
                              "    s[t] = t;\n"
                              "    acc[t / 8] = t;\n"
                              "    table[t / 4] = t;\n"
                              "    out[t] = acc[t / 8];\n"
                              "}\n",
                              "over.cu", "over");
    int out[40];
    lat_deviceptr d_out = t_device_copy(ctx, NULL, sizeof out);
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {40}},
                                  LAT_ARGS(lat_arg_ptr(d_out))));
    ASSERT_REPORTS(ctx,
                   "over.cu:7: memcheck: kernel 'over', block (0,0,0), threads (32,0,0) to "
                   "(39,0,0): out-of-bounds write of 4 bytes by `s[t]`: element [32] of "
                   "__shared__ 's', which has 32 elements of 4 bytes [8 times]",
                   "over.cu:8: memcheck: kernel 'over', block (0,0,0), threads (32,0,0) to "
                   "(39,0,0): out-of-bounds write of 4 bytes by `acc[t / 8]`: element [4] of "
                   "the local array 'acc', which has 4 elements of 4 bytes [8 times]",
                   "over.cu:9: memcheck: kernel 'over', block (0,0,0), threads (32,0,0) to "
                   "(39,0,0): out-of-bounds write of 4 bytes by `table[t / 4]`: element [8] of "
                   "the module's array 'table', which has 8 elements of 4 bytes [8 times]",
                   "over.cu:10: memcheck: kernel 'over', block (0,0,0), threads (32,0,0) to "
                   "(39,0,0): out-of-bounds read of 4 bytes by `acc[t / 8]`: element [4] of "
                   "the local array 'acc', which has 4 elements of 4 bytes [8 times]");
    ASSERT_EQ(lat_check_report_get(ctx, 0)->space, LAT_SPACE_SHARED);
    ASSERT_EQ(lat_check_report_get(ctx, 1)->space, LAT_SPACE_LOCAL);
    ASSERT_EQ(lat_check_report_get(ctx, 2)->space, LAT_SPACE_MODULE);
    ASSERT_OK(lat_memcpy_dtoh(ctx, out, d_out, sizeof out));
    ASSERT_EQ(out[31], 31);
    ASSERT_EQ(out[32], 0); /* read as zero, not from another thread's stack */
}

TEST(correct_code_with_pointers_structs_and_locals_reports_nothing)
{
    lat_context *ctx = ck_context(LAT_CHECK_ALL);
    lat_kernel *k = ck_kernel(ctx,
                              "struct pt { float x, y; };\n"
                              "__device__ float dot(const struct pt *a, const struct pt *b)\n"
                              "{ return a->x * b->x + (*a).y * b[0].y; }\n"
                              "__global__ void k(struct pt *p, float *out, int n)\n"
                              "{\n"
                              "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                              "    float local[3] = {1, 2, 3}, *q = local;\n"
                              "    if (i >= n) return;\n"
                              "    struct pt copy = p[i];\n"
                              "    copy.y += q[2];\n"
                              "    for (int j = 0; j < 3; j++) local[j] *= 2;\n"
                              "    p[i].x = copy.x + *(q + 1);\n"
                              "    out[i] = dot(&p[i], &copy) + sizeof p[i] + sizeof(out[i]);\n"
                              "    out[i] += (&p[i])->y - p[i].y;\n"
                              "}\n",
                              "k.cu", "k");
    float pts[2 * 50], out[50];
    for (int i = 0; i < 100; i++)
        pts[i] = (float)i;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {2}, .block = {32}},
                              LAT_ARGS(lat_arg_inout(pts, sizeof pts), lat_arg_out(out, sizeof out),
                                       lat_arg_i32(50))));
    ASSERT_NO_REPORTS(ctx);
    for (int i = 0; i < 50; i++) {
        float x = 2 * i + 4.0f; /* p[i].x after the kernel; copy is (2i, 2i + 4) */
        ASSERT_CLOSE(out[i], x * (2 * i) + (2 * i + 1) * (2 * i + 4.0f) + 12, 1e-6, 0);
    }
}

TEST(leaks_are_named_and_freed_memory_is_not_a_leak)
{
    lat_context *ctx = ck_context(LAT_CHECK_MEMCHECK);
    lat_deviceptr a, b;
    ASSERT_OK(lat_mem_alloc(ctx, 4000, &a));
    ASSERT_OK(lat_mem_alloc(ctx, 96, &b));
    ASSERT_OK(lat_check_label(ctx, a, "weights"));
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, lat_check_leaks(ctx));
    ASSERT_REPORTS(ctx, "memcheck: 2 device allocations (4096 bytes) still allocated when the "
                        "context ends: 'weights' (4000 bytes), 96 bytes (free them with "
                        "lat_mem_free)");
    ASSERT_EQ(lat_check_report_get(ctx, 0)->kind, LAT_CHECK_LEAK);
    ASSERT_EQ(lat_check_report_get(ctx, 0)->count, 2);
    ASSERT_OK(lat_mem_free(ctx, a));
    ASSERT_OK(lat_mem_free(ctx, b));
    ASSERT_OK(lat_check_leaks(ctx));
    ASSERT_NO_REPORTS(ctx);
}

TEST(a_context_with_checks_off_runs_unchecked)
{
    lat_backend_kind kind = t_require_backend();
    if (kind != LAT_BACKEND_EMU)
        SKIP("the checks run on the emulator only");
    lat_context *ctx = t_context_with(&(lat_context_desc){.backend = LAT_BACKEND_EMU,
                                                          .check = LAT_CHECK_OFF});
    unsigned modes = 99;
    ASSERT_OK(lat_check_modes(ctx, &modes));
    ASSERT_EQ(modes, 0);
    ASSERT_EQ(lat_check_report_count(ctx), 0);
    lat_context *on = t_context_with(&(lat_context_desc){.backend = LAT_BACKEND_EMU,
                                                         .check = LAT_CHECK_MEMCHECK |
                                                                  LAT_CHECK_INITCHECK});
    ASSERT_OK(lat_check_modes(on, &modes));
    ASSERT_EQ(modes, LAT_CHECK_MEMCHECK | LAT_CHECK_INITCHECK);
}

/* Valgrind reports the deliberate wild write below itself, before the fault reaches
 * lattice: its reports are off for that launch (checked launches run on the calling
 * thread). */
#if defined(LAT_HAVE_VALGRIND_H)
#include <valgrind/valgrind.h>
#else
#define VALGRIND_DISABLE_ERROR_REPORTING
#define VALGRIND_ENABLE_ERROR_REPORTING
#endif

/* What the checks cannot stop before it happens (a division by zero) fails the launch as
 * on the unchecked emulator, naming the kernel, block and thread, on region loops and on
 * fibers; the context goes on working. An access written inside a macro's body is an
 * access like any other: reported, not made. */
TEST(faults_in_checked_kernels_fail_the_launch)
{
    lat_context *ctx = ck_context(LAT_CHECK_ALL);
    lat_kernel *div = ck_kernel(ctx,
                                "__global__ void quotient(int *out, int d)\n"
                                "{\n"
                                "    out[threadIdx.x] = 1000 / (d - (int)threadIdx.x);\n"
                                "}\n",
                                "quotient.cu", "quotient");
    lat_kernel *warp = ck_kernel(ctx,
                                 "__global__ void shuffled(int *out, int d)\n"
                                 "{\n"
                                 "    int v = __shfl_sync(~0u, d, 0);\n"
                                 "    out[threadIdx.x] = 1000 / (v - (int)threadIdx.x);\n"
                                 "}\n",
                                 "shuffled.cu", "shuffled");
    lat_kernel *poke = ck_kernel(ctx,
                                 "#define POKE(p) (*(p) = 1)\n"
                                 "__global__ void poke(int *out)\n"
                                 "{\n"
                                 "    if (threadIdx.x == 3) POKE((int *)16);\n"
                                 "    out[threadIdx.x] = 1;\n"
                                 "}\n",
                                 "poke.cu", "poke");
    lat_deviceptr out = t_device_copy(ctx, NULL, 32 * sizeof(int));
    int d = 5;
    void *params[] = {&out, &d};
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, ck_launch(div, 1, 32, params));
    ASSERT_CONTAINS(lat_last_error(), "kernel 'quotient' crashed in block (0,0,0), thread (5,0,0): "
                                      "integer division by zero");
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, ck_launch(warp, 1, 32, params));
    ASSERT_CONTAINS(lat_last_error(), "kernel 'shuffled' crashed in block (0,0,0), thread (5,0,0): "
                                      "integer division by zero");
    void *poke_params[] = {&out};
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(poke, 1, 32, poke_params));
    ASSERT_CONTAINS(lat_last_error(), "poke.cu:4: memcheck: kernel 'poke', block (0,0,0), "
                                      "thread (3,0,0): write of 4 bytes by `*(int *)16` at address "
                                      "0x10, which is in no device allocation");
    ASSERT_OK(lat_check_clear(ctx));
    /* The same kernels, right this time. */
    d = 1000;
    ASSERT_OK(ck_launch(div, 1, 32, params));
    ASSERT_NO_REPORTS(ctx);
    int got[32];
    ASSERT_OK(lat_memcpy_dtoh(ctx, got, out, sizeof got));
    for (int t = 0; t < 32; t++)
        ASSERT_EQ(got[t], 1000 / (1000 - t));
    ASSERT_OK(ck_launch(warp, 1, 32, params));
    ASSERT_OK(lat_memcpy_dtoh(ctx, got, out, sizeof got));
    ASSERT_EQ(got[31], 1000 / (1000 - 31));
}

TEST(extern_shared_arrays_are_checked_against_the_dynamic_shared_memory)
{
    /* An extern __shared__ array has no size of its own: its accesses once carried
     * sizeof(float[]) to the checks and the checked module did not compile. */
    lat_context *ctx = ck_context(LAT_CHECK_ALL);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void rot(const float *in, float *out)\n"
                              "{\n"
                              "    extern __shared__ float s[];\n"
                              "    int t = threadIdx.x;\n"
                              "    s[t] = in[t];\n"
                              "    __syncthreads();\n"
                              "    out[t] = s[(t + 1) % blockDim.x] + s[blockDim.x + t];\n"
                              "}\n",
                              "rot.cu", "rot");
    enum { T = 32 };
    float in[T], out[T];
    t_rand_floats(in, T, -1, 1);
    lat_deviceptr d_in = t_device_copy(ctx, in, sizeof in), d_out = t_device_copy(ctx, NULL, sizeof out);
    /* room for T floats only: s[blockDim.x + t] is past the dynamic memory */
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {T}, .shared_bytes = T * sizeof(float)},
                                  LAT_ARGS(lat_arg_ptr(d_in), lat_arg_ptr(d_out))));
    const lat_check_report *r = lat_check_report_get(ctx, 0);
    ASSERT_NOT_NULL(r);
    ASSERT_EQ(r->kind, LAT_CHECK_OUT_OF_BOUNDS);
    ASSERT_EQ(r->space, LAT_SPACE_SHARED);
    ASSERT_EQ(r->access.line, 7);
}

TEST(a_local_array_filled_by_a_function_in_a_loop_reports_nothing)
{
    /* A checked kernel that region loops turn down after their dry run kept the renames
     * of that run: its local array was declared as an unset pointer (memcheck saw a NULL
     * address and the results were zeros). The library's own random kernels have this
     * shape. */
    lat_context *ctx = ck_context(LAT_CHECK_ALL);
    lat_kernel *k = ck_kernel(ctx,
                              "__device__ void fill(unsigned int c[4], unsigned int v) { c[0] = v; c[1] = v + 1; }\n"
                              "__global__ void k(unsigned int *o, int n)\n"
                              "{\n"
                              "    for (int i = threadIdx.x; i < n; i += blockDim.x) {\n"
                              "        unsigned int c[4];\n"
                              "        fill(c, i);\n"
                              "        o[i] = c[0] + c[1];\n"
                              "    }\n"
                              "}\n",
                              "loc.cu", "k");
    enum { N = 96 };
    unsigned out[N];
    lat_deviceptr d_out = t_device_copy(ctx, NULL, sizeof out);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {32}},
                              LAT_ARGS(lat_arg_ptr(d_out), lat_arg_i32(N))));
    ASSERT_EQ(lat_check_report_count(ctx), 0);
    ASSERT_OK(lat_memcpy_dtoh(ctx, out, d_out, sizeof out));
    for (int i = 0; i < N; i++)
        ASSERT_EQ(out[i], 2 * i + 1);
}

/* An element of an array is checked against the array's bounds; the array's expression,
 * which the check also needs, was evaluated twice: s[i++][1] stepped i by two, and
 * memcheck reported the second row's write as out of bounds (a correct kernel, failed and
 * changed by its checks). */
TEST(an_array_expression_that_does_something_is_evaluated_once)
{
    lat_context *ctx = ck_context(LAT_CHECK_ALL);
    lat_kernel *k = ck_kernel(ctx,
                              "struct row { int v[4]; };\n"
                              "__device__ struct row made(int x)\n"
                              "{\n"
                              "    struct row r = {{x, x + 1, x + 2, x + 3}};\n"
                              "    return r;\n"
                              "}\n"
                              "__global__ void once(int *out, struct row *rows, const int *in)\n"
                              "{\n"
                              "    __shared__ int s[8][4];\n"
                              "    if (threadIdx.x != 0)\n"
                              "        return;\n"
                              "    int i = 0, j = 0;\n"
                              "    s[i++][1] = in[0];\n"
                              "    s[i++][1] = in[1];\n"
                              "    struct row *p = rows;\n"
                              "    p++->v[j++] = in[2];\n"
                              "    p++->v[j++] = in[3];\n"
                              "    out[0] = i;\n"
                              "    out[1] = j;\n"
                              "    out[2] = s[0][1];\n"
                              "    out[3] = s[1][1];\n"
                              "    out[4] = (int)(p - rows);\n"
                              "    out[5] = made(in[0]).v[2]; /* an array with no address */\n"
                              "}\n",
                              "once.cu", "once");
    int in[4], rows[12], out[6];
    for (int i = 0; i < 4; i++)
        in[i] = (int)(t_rand_u32() % 1000) + 1;
    for (int i = 0; i < 12; i++)
        rows[i] = -1;
    lat_deviceptr d_out = t_device_copy(ctx, NULL, sizeof out), d_rows = t_device_copy(ctx, rows, sizeof rows),
                  d_in = t_device_copy(ctx, in, sizeof in);
    ASSERT_OK(ck_launch(k, 1, 32, (void *[]){&d_out, &d_rows, &d_in}));
    ASSERT_NO_REPORTS(ctx);
    ASSERT_OK(lat_memcpy_dtoh(ctx, out, d_out, sizeof out));
    ASSERT_OK(lat_memcpy_dtoh(ctx, rows, d_rows, sizeof rows));
    ASSERT_EQ(out[0], 2);
    ASSERT_EQ(out[1], 2);
    ASSERT_EQ(out[2], in[0]);
    ASSERT_EQ(out[3], in[1]);
    ASSERT_EQ(out[4], 2);
    ASSERT_EQ(out[5], in[0] + 2);
    ASSERT_EQ(rows[0], in[2]); /* rows[0].v[0] */
    ASSERT_EQ(rows[5], in[3]); /* rows[1].v[1] */
    for (int i = 0; i < 12; i++)
        if (i != 0 && i != 5)
            ASSERT_EQ(rows[i], -1);
}

/* A member of a packed struct may be at any address: reading or writing it is not a
 * misaligned access (it was reported as one, in shared and in device memory). */
TEST(members_of_packed_structs_are_not_misaligned)
{
    lat_context *ctx = ck_context(LAT_CHECK_ALL);
    lat_kernel *k = ck_kernel(ctx,
                              "struct __attribute__((packed)) pk { char c; int x[4]; short s; };\n"
                              "__global__ void pk(int *out, struct pk *g)\n"
                              "{\n"
                              "    __shared__ struct pk ps;\n"
                              "    int t = threadIdx.x;\n"
                              "    if (t < 4)\n"
                              "        ps.x[t] = t + g->x[t];\n"
                              "    if (t == 0)\n"
                              "        ps.s = g->s;\n"
                              "    __syncthreads();\n"
                              "    if (t < 4)\n"
                              "        out[t] = ps.x[t] * ps.s;\n"
                              "}\n",
                              "pk.cu", "pk");
    struct __attribute__((packed)) pk {
        char c;
        int x[4];
        short s;
    } g = {7, {0}, (short)(t_rand_u32() % 100 + 1)};
    for (int i = 0; i < 4; i++)
        g.x[i] = (int)(t_rand_u32() % 1000);
    int out[4];
    lat_deviceptr d_out = t_device_copy(ctx, NULL, sizeof out), d_g = t_device_copy(ctx, &g, sizeof g);
    ASSERT_OK(ck_launch(k, 1, 32, (void *[]){&d_out, &d_g}));
    ASSERT_NO_REPORTS(ctx);
    ASSERT_OK(lat_memcpy_dtoh(ctx, out, d_out, sizeof out));
    for (int i = 0; i < 4; i++)
        ASSERT_EQ(out[i], (i + g.x[i]) * g.s);
}

/* A misaligned access to shared memory names the variable (it named "the dynamic shared
 * memory (0 bytes)"). */
TEST(a_misaligned_shared_access_names_its_variable)
{
    lat_context *ctx = ck_context(LAT_CHECK_MEMCHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void odd(int *out)\n"
                              "{\n"
                              "    __shared__ int s[8];\n"
                              "    int t = threadIdx.x;\n"
                              "    *(int *)((char *)s + 2 + 4 * t) = t;\n"
                              "    out[t] = 1;\n"
                              "}\n",
                              "odd.cu", "odd");
    lat_deviceptr d_out = t_device_copy(ctx, NULL, 2 * sizeof(int));
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(k, 1, 2, (void *[]){&d_out}));
    ASSERT_REPORTS(ctx, "odd.cu:5: memcheck: kernel 'odd', block (0,0,0), threads (0,0,0) to (1,0,0): "
                        "misaligned write of 4 bytes by `*(int *)((char *)s + 2 + 4 * t)`: the address "
                        "is not a multiple of 4 (byte 2 of __shared__ 's' (32 bytes)) [2 times]");
    ASSERT_EQ(lat_check_report_get(ctx, 0)->space, LAT_SPACE_SHARED);
}

/* The module's variables and string literals are its memory; its code is not: a pointer
 * that strays into the instructions (here a function's address taken as data) is reported and its write
 * not performed. Such a stray used to be taken for module memory, written, and the
 * kernel's code rewritten (TinyCC's code is writable), or the write faulted. */
static const char *const stray_src =
    "__device__ int table[4] = {10, 20, 30, 40};\n"
    "__device__ int twice(int x) { return 2 * x; }\n"
    "__global__ void stray(int *out, int in_code)\n"
    "{\n"
    "    int *p = in_code ? (int *)(void *)twice : table;\n"
    "    out[0] = p[1];\n"
    "    p[2] = 99;\n"
    "    out[1] = twice(table[2]);\n"
    "    const char *s = \"xyz\";\n"
    "    out[2] = s[in_code + 1];\n"
    "}\n";

TEST(an_access_to_the_modules_code_is_reported_and_not_performed)
{
    lat_context *ctx = ck_context(LAT_CHECK_MEMCHECK);
    lat_kernel *k = ck_kernel(ctx, stray_src, "stray.cu", "stray");
    lat_deviceptr out = t_device_copy(ctx, NULL, 3 * sizeof(int));
    int got[3];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                              LAT_ARGS(lat_arg_ptr(out), lat_arg_i32(0))));
    ASSERT_NO_REPORTS(ctx);
    ASSERT_OK(lat_memcpy_dtoh(ctx, got, out, sizeof got));
    ASSERT_EQ(got[0], 20);
    ASSERT_EQ(got[1], 198);
    ASSERT_EQ(got[2], 'y'); /* a string literal is module memory to read */
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                                  LAT_ARGS(lat_arg_ptr(out), lat_arg_i32(1))));
    ASSERT_EQ(lat_check_report_count(ctx), 2);
    ASSERT_CONTAINS(ck_msg(ctx, 0), "stray.cu:6: memcheck: kernel 'stray'");
    ASSERT_CONTAINS(ck_msg(ctx, 0), "read of 4 bytes by `p[1]`");
    ASSERT_CONTAINS(ck_msg(ctx, 1), "stray.cu:7: memcheck: kernel 'stray'");
    ASSERT_CONTAINS(ck_msg(ctx, 1), "write of 4 bytes by `p[2]`");
    ASSERT_CONTAINS(ck_msg(ctx, 1), "which is in the module's code");
    ASSERT_EQ(lat_check_report_get(ctx, 1)->kind, LAT_CHECK_WILD_ADDRESS);
    ASSERT_EQ(lat_check_report_get(ctx, 1)->space, LAT_SPACE_MODULE);
    /* The code is intact: the kernel still runs and gives the same answer. */
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                              LAT_ARGS(lat_arg_ptr(out), lat_arg_i32(0))));
    ASSERT_OK(lat_memcpy_dtoh(ctx, got, out, sizeof got));
    ASSERT_EQ(got[1], 198);
}

/* Every path a kernel has to memory is checked (issue 40, item 5): atomics, through an
 * element or a pointer, and memset/memcpy/memmove in device code. A bad one is reported
 * with its call as written and not performed: the neighbours keep their values. */
TEST(atomics_and_device_memset_memcpy_out_of_bounds_are_reported_and_not_performed)
{
    lat_context *ctx = ck_context(LAT_CHECK_MEMCHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void paths(int *a, int *b, int n, int op)\n"
                              "{\n"
                              "    int i = threadIdx.x;\n"
                              "    int *q = a + n;\n"
                              "    if (op == 0) atomicAdd(&a[n + i], 5);\n"
                              "    if (op == 1) atomicCAS(q + i, 0, 9);\n"
                              "    if (op == 2) memset(a + n, 0, 4 * (i + 1));\n"
                              "    if (op == 3) memcpy(a + n - 1, b, 8);\n"
                              "    if (op == 4) memmove(b, a + n - 1, 8);\n"
                              "}\n",
                              "paths.cu", "paths");
    enum { N = 100 };
    int host[N], other[N];
    for (int i = 0; i < N; i++)
        host[i] = (int)(t_rand_u32() % 1000), other[i] = (int)(t_rand_u32() % 1000);
    const char *want[] = {
        "paths.cu:5: memcheck: kernel 'paths', block (0,0,0), threads (0,0,0) to (31,0,0): "
        "out-of-bounds atomic read-write of 4 bytes by `atomicAdd(&a[n + i], 5)`: element [100] "
        "of 'a', which has 100 elements of 4 bytes [32 times]",
        "paths.cu:6: memcheck: kernel 'paths', block (0,0,0), threads (0,0,0) to (31,0,0): "
        "out-of-bounds atomic read-write of 4 bytes by `atomicCAS(q + i, 0, 9)`: element [100] "
        "of 'a', which has 100 elements of 4 bytes [32 times]",
        "paths.cu:7: memcheck: kernel 'paths', block (0,0,0), threads (0,0,0) to (31,0,0): "
        "out-of-bounds write of 4 bytes by `memset(a + n, 0, 4 * (i + 1))`: element [100] of "
        "'a', which has 100 elements of 4 bytes [32 times]",
        "paths.cu:8: memcheck: kernel 'paths', block (0,0,0), threads (0,0,0) to (31,0,0): "
        "out-of-bounds write of 8 bytes by `memcpy(a + n - 1, b, 8)`: bytes 396 to 403 of 'a' "
        "(400 bytes), across its end [32 times]",
        "paths.cu:9: memcheck: kernel 'paths', block (0,0,0), threads (0,0,0) to (31,0,0): "
        "out-of-bounds read of 8 bytes by `memmove(b, a + n - 1, 8)`: bytes 396 to 403 of 'a' "
        "(400 bytes), across its end [32 times]",
    };
    for (int op = 0; op < 5; op++) {
        lat_deviceptr a = t_device_copy(ctx, host, sizeof host);
        lat_deviceptr b = t_device_copy(ctx, other, sizeof other);
        ASSERT_OK(lat_check_label(ctx, a, "a"));
        ASSERT_OK(lat_check_label(ctx, b, "b"));
        int n = N;
        ASSERT_STATUS(LAT_ERROR_CHECK_FAILED,
                      lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {32}},
                                      LAT_ARGS(lat_arg_ptr(a), lat_arg_ptr(b), lat_arg_i32(n),
                                               lat_arg_i32(op))));
        ASSERT_REPORTS(ctx, want[op]);
        int got_a[N], got_b[N];
        ASSERT_OK(lat_memcpy_dtoh(ctx, got_a, a, sizeof got_a));
        ASSERT_OK(lat_memcpy_dtoh(ctx, got_b, b, sizeof got_b));
        for (int i = 0; i < N; i++) {
            ASSERT_EQ(got_a[i], host[i]);
            ASSERT_EQ(got_b[i], other[i]);
        }
        ASSERT_OK(lat_mem_free(ctx, a));
        ASSERT_OK(lat_mem_free(ctx, b));
    }
}

TEST(atomics_and_device_memset_memcpy_in_bounds_report_nothing)
{
    lat_context *ctx = ck_context(LAT_CHECK_ALL);
    lat_kernel *k = ck_kernel(ctx,
                              "struct pair { int x, y; };\n"
                              "__global__ void ok(int *a, int *b, int *hist, int n)\n"
                              "{\n"
                              "    __shared__ int s[64];\n"
                              "    int i = threadIdx.x;\n"
                              "    memset(s + 2 * i, 0, 8);\n"
                              "    __syncthreads();\n"
                              "    atomicAdd(&s[a[i] & 63], 1);\n"
                              "    __syncthreads();\n"
                              "    pair p; memcpy(&p, a + 2 * i, sizeof p);\n"
                              "    memcpy(b + 2 * i, &p, sizeof p);\n"
                              "    atomicAdd(hist + i, s[i] + s[i + 32]);\n"
                              "}\n",
                              "ok.cu", "ok");
    enum { N = 64 };
    int a[N], hist[32], want_hist[32];
    int counts[64] = {0};
    for (int i = 0; i < N; i++)
        a[i] = (int)(t_rand_u32() % 1000);
    for (int i = 0; i < 32; i++)
        counts[a[i] & 63]++;
    for (int i = 0; i < 32; i++)
        hist[i] = (int)(t_rand_u32() % 100), want_hist[i] = hist[i] + counts[i] + counts[i + 32];
    int b[N];
    lat_deviceptr db = t_device_copy(ctx, NULL, sizeof b);
    ASSERT_OK(lat_memset_d8(ctx, db, 0, sizeof b));
    int n = N;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {32}},
                              LAT_ARGS(lat_arg_in(a, sizeof a), lat_arg_ptr(db),
                                       lat_arg_inout(hist, sizeof hist), lat_arg_i32(n))));
    ASSERT_NO_REPORTS(ctx);
    ASSERT_OK(lat_memcpy_dtoh(ctx, b, db, sizeof b));
    for (int i = 0; i < N; i++)
        ASSERT_EQ(b[i], a[i]);
    for (int i = 0; i < 32; i++)
        ASSERT_EQ(hist[i], want_hist[i]);
}
