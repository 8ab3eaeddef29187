/* initcheck (lattice/check.h): reads of device or shared memory that nothing wrote; host
 * copies, memsets and earlier kernels count as writes. */
#include "check_util.h"

static const char *const copy_src = "__global__ void copy(int *out, const int *in)\n"
                                    "{\n"
                                    "    out[threadIdx.x] = in[threadIdx.x];\n"
                                    "}\n";

TEST(fresh_device_memory_is_unwritten_until_something_writes_it)
{
    lat_context *ctx = ck_context(LAT_CHECK_INITCHECK);
    lat_kernel *k = ck_kernel(ctx, copy_src, "copy.cu", "copy");
    lat_deviceptr in, out;
    ASSERT_OK(lat_mem_alloc(ctx, 16 * sizeof(int), &in));
    ASSERT_OK(lat_mem_alloc(ctx, 16 * sizeof(int), &out));
    ASSERT_OK(lat_check_label(ctx, in, "in"));
    void *params[] = {&out, &in};
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(k, 1, 16, params));
    ASSERT_REPORTS(ctx, "copy.cu:3: initcheck: kernel 'copy', block (0,0,0), threads (0,0,0) to "
                        "(15,0,0): read of 4 bytes by `in[threadIdx.x]` reads memory never "
                        "written: element [0] of 'in' [16 times]");
    ASSERT_EQ(lat_check_report_get(ctx, 0)->kind, LAT_CHECK_UNINITIALIZED);
    ASSERT_EQ(lat_check_report_get(ctx, 0)->check, LAT_CHECK_INITCHECK);
    /* A memset of half and a host copy of the rest. */
    ASSERT_OK(lat_memset_d32(ctx, in, 5, 8));
    int rest[8] = {0};
    ASSERT_OK(lat_memcpy_htod(ctx, in + 8 * sizeof(int), rest, sizeof rest));
    ASSERT_OK(ck_launch(k, 1, 16, params));
    ASSERT_NO_REPORTS(ctx);
    /* What a kernel wrote is written for the next. */
    void *back[] = {&in, &out};
    ASSERT_OK(ck_launch(k, 1, 16, back));
    ASSERT_NO_REPORTS(ctx);
    ASSERT_OK(lat_mem_free(ctx, in));
    ASSERT_OK(lat_mem_free(ctx, out));
}

TEST(shared_memory_is_unwritten_in_every_block)
{
    lat_context *ctx = ck_context(LAT_CHECK_INITCHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void half(int *out)\n"
                              "{\n"
                              "    __shared__ int s[32];\n"
                              "    if (threadIdx.x < 16) s[threadIdx.x] = 1;\n"
                              "    __syncthreads();\n"
                              "    out[threadIdx.x] = s[31 - threadIdx.x];\n"
                              "}\n",
                              "half.cu", "half");
    lat_deviceptr out = t_device_copy(ctx, NULL, 32 * sizeof(int));
    void *params[] = {&out};
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(k, 2, 32, params));
    ASSERT_REPORTS(ctx, "half.cu:6: initcheck: kernel 'half', block (0,0,0), threads (0,0,0) to "
                        "(15,0,0): read of 4 bytes by `s[31 - threadIdx.x]` reads memory never "
                        "written: element [31] of __shared__ 's' [32 times]");
    ASSERT_EQ(lat_check_report_get(ctx, 0)->space, LAT_SPACE_SHARED);
}

TEST(two_d_copies_write_what_they_cover)
{
    lat_context *ctx = ck_context(LAT_CHECK_INITCHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void rows(int *out, const int *m, int pitch)\n"
                              "{\n"
                              "    out[threadIdx.x] = m[(threadIdx.x / 4) * pitch + threadIdx.x % 4];\n"
                              "}\n",
                              "rows.cu", "rows");
    int host[3][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}};
    lat_deviceptr m, out = t_device_copy(ctx, NULL, 12 * sizeof(int));
    ASSERT_OK(lat_mem_alloc(ctx, 3 * 8 * sizeof(int), &m));
    ASSERT_OK(lat_memcpy_2d(ctx, &(lat_copy_2d){.src_host = host, .src_pitch = sizeof host[0],
                                                .dst_device = m, .dst_pitch = 8 * sizeof(int),
                                                .width_bytes = sizeof host[0], .height = 3}));
    int pitch = 8;
    void *params[] = {&out, &m, &pitch};
    ASSERT_OK(ck_launch(k, 1, 12, params));
    ASSERT_NO_REPORTS(ctx);
    /* The pitch's padding was never written. */
    pitch = 6;
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(k, 1, 12, params));
    ASSERT_EQ(lat_check_report_get(ctx, 0)->kind, LAT_CHECK_UNINITIALIZED);
    ASSERT_OK(lat_mem_free(ctx, m));
}

/* Local variables declared without an initializer: a read by name before any write is
 * reported, for scalars and arrays alike, on region loops and on fibers. Variables whose
 * address is taken, structs and initialised ones are not followed (no false reports). */
static const char *const locals_src =
    "__global__ void locals(float *out, int n)\n"
    "{\n"
    "    int t = threadIdx.x;\n"
    "    float acc;\n"
    "    if (t < 4)\n"
    "        acc = 1.5f;\n"
    "    int v[4];\n"
    "    v[0] = t;\n"
    "    v[1] = 2 * t;\n"
    "    int k;\n"
    "    for (k = 0; k < n; k++)\n"
    "        v[0] += k;\n"
    "    float *p;\n"
    "    p = &out[t];\n"
    "    int w;\n"
    "    int *q = &w;\n"
    "    *q = 3;\n"
    "    struct pair { int a, b; } s;\n"
    "    s.a = 1;\n"
    "    *p = acc + v[0] + v[1] + v[(t & 1) * 2] + w + s.a;\n"
    "}\n";

static void check_locals(bool fibers)
{
    lat_context *ctx = ck_context(LAT_CHECK_INITCHECK);
    if (fibers)
        t_setenv("LATTICE_EMU_FIBERS", "1");
    char src[2048];
    snprintf(src, sizeof src, "%s%s", locals_src, fibers ? "// on fibers\n" : "");
    lat_kernel *k = ck_kernel(ctx, src, "locals.cu", "locals");
    t_unsetenv("LATTICE_EMU_FIBERS");
    float host[8];
    lat_deviceptr out = t_device_copy(ctx, NULL, sizeof host);
    int n = 3;
    void *params[] = {&out, &n};
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(k, 1, 8, params));
    /* The odd threads read v[2]; threads 4 to 7 never wrote acc. */
    ASSERT_REPORTS(ctx,
                   "locals.cu:20: initcheck: kernel 'locals', block (0,0,0), threads (1,0,0) to "
                   "(7,0,0): read of 4 bytes by `v[(t & 1) * 2]` reads memory never written: "
                   "element [2] of the local array 'v' [4 times]",
                   "locals.cu:20: initcheck: kernel 'locals', block (0,0,0), threads (4,0,0) to "
                   "(7,0,0): read of 4 bytes by `acc` reads memory never written: the local "
                   "variable 'acc' [4 times]");
    const lat_check_report *r = lat_check_report_get(ctx, 1);
    ASSERT_EQ(r->kind, LAT_CHECK_UNINITIALIZED);
    ASSERT_EQ(r->space, LAT_SPACE_LOCAL);
    ASSERT_STR_EQ(r->region_name, "acc");
    ASSERT_EQ(lat_check_report_get(ctx, 0)->space, LAT_SPACE_LOCAL);
    /* What the threads that wrote everything computed is right. */
    ASSERT_OK(lat_memcpy_dtoh(ctx, host, out, sizeof host));
    for (int t = 0; t < 4; t += 2) /* even threads read v[0] twice */
        ASSERT_CLOSE(host[t], 1.5 + (t + 3) + 2 * t + (t + 3) + 3 + 1, 1e-6, 1e-6);
}

/* A pointer declared without an initializer is followed itself; what it points to is
 * checked as any memory. */
TEST(what_a_tracked_pointer_points_to_is_checked_as_any_memory)
{
    lat_context *ctx = ck_context(LAT_CHECK_ALL);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void through(float *out)\n"
                              "{\n"
                              "    float *p;\n"
                              "    p = out;\n"
                              "    p[threadIdx.x + 14] = 1.0f;\n"
                              "}\n",
                              "through.cu", "through");
    lat_deviceptr out = t_device_copy(ctx, NULL, 16 * sizeof(float));
    ASSERT_OK(lat_memset_d32(ctx, out, 0, 16));
    void *params[] = {&out};
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(k, 1, 4, params));
    ASSERT_EQ(lat_check_report_count(ctx), 1);
    const lat_check_report *r = lat_check_report_get(ctx, 0);
    ASSERT_EQ(r->kind, LAT_CHECK_OUT_OF_BOUNDS);
    ASSERT_EQ(r->space, LAT_SPACE_GLOBAL);
    ASSERT_EQ(r->count, 2);
    ASSERT_EQ(r->access.thread.x, 2);
}

TEST(locals_read_before_any_write_are_reported)
{
    check_locals(false);
}

TEST(locals_read_before_any_write_are_reported_on_fibers)
{
    check_locals(true);
}

/* In a kernel with barriers, a variable written only in some threads and read after the
 * barrier: region loops keep it across the barrier, so the checks run it on fibers, where
 * the read is seen; one used within a stretch stays on region loops. */
TEST(locals_across_barriers)
{
    lat_context *ctx = ck_context(LAT_CHECK_INITCHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void across(int *out)\n"
                              "{\n"
                              "    __shared__ int s[32];\n"
                              "    int x;\n"
                              "    if (threadIdx.x > 0) x = 1;\n"
                              "    s[threadIdx.x] = 1;\n"
                              "    __syncthreads();\n"
                              "    int y;\n"
                              "    if (threadIdx.x != 5) y = s[31 - threadIdx.x];\n"
                              "    out[threadIdx.x] = x + y;\n"
                              "}\n",
                              "across.cu", "across");
    lat_deviceptr out = t_device_copy(ctx, NULL, 32 * sizeof(int));
    void *params[] = {&out};
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(k, 1, 32, params));
    ASSERT_REPORTS(ctx,
                   "across.cu:10: initcheck: kernel 'across', block (0,0,0), thread (0,0,0): read "
                   "of 4 bytes by `x` reads memory never written: the local variable 'x'",
                   "across.cu:10: initcheck: kernel 'across', block (0,0,0), thread (5,0,0): read "
                   "of 4 bytes by `y` reads memory never written: the local variable 'y'");
}

/* Checked region loops visit only the threads an `if (threadIdx.x < E)` selects, but not
 * when E reads memory: every thread reads it, and each read is checked. */
TEST(a_bound_read_from_shared_memory_is_read_by_every_thread)
{
    lat_context *ctx = ck_context(LAT_CHECK_INITCHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void bound(int *out, int m)\n"
                              "{\n"
                              "    __shared__ int limit;\n"
                              "    int t = threadIdx.x;\n"
                              "    if (t < limit)\n"
                              "        out[t] = 1;\n"
                              "    if (t < m)\n"
                              "        out[t] = t;\n"
                              "}\n",
                              "bound.cu", "bound");
    int m = 5 + (int)(t_rand_u32() % 50), out[64];
    for (int i = 0; i < 64; i++)
        out[i] = -1;
    lat_deviceptr d_out = t_device_copy(ctx, out, sizeof out);
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(k, 1, 64, (void *[]){&d_out, &m}));
    ASSERT_REPORTS(ctx, "bound.cu:5: initcheck: kernel 'bound', block (0,0,0), threads (0,0,0) to "
                        "(63,0,0): read of 4 bytes by `limit` reads memory never written: element "
                        "[0] of __shared__ 'limit' [64 times]");
    /* The selected threads, and only they, ran the second if's body. */
    ASSERT_OK(lat_memcpy_dtoh(ctx, out, d_out, sizeof out));
    for (int i = 0; i < 64; i++)
        if (i < m)
            ASSERT_EQ(out[i], i);
        else
            ASSERT_TRUE(out[i] == -1 || out[i] == 1); /* the first if's, on what limit held */
}

/* Accesses of bytes written before the launch are not logged for the replay (they cannot
 * report): the first unwritten byte and everything after it still are, to the byte, by
 * every thread (after the first, the optimised code's inline path judges them). */
TEST(the_first_byte_not_written_before_a_launch_is_still_judged)
{
    lat_context *ctx = ck_context(LAT_CHECK_INITCHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void probe(const unsigned char *b, const int *w, int *out, int bat, int wat)\n"
                              "{\n"
                              "    out[threadIdx.x] = b[bat] + w[wat];\n"
                              "}\n",
                              "probe.cu", "probe");
    lat_deviceptr b, w, out;
    ASSERT_OK(lat_mem_alloc(ctx, 64, &b));
    ASSERT_OK(lat_mem_alloc(ctx, 32 * sizeof(int), &w));
    ASSERT_OK(lat_mem_alloc(ctx, 32 * sizeof(int), &out));
    /* b: all but byte 20; w: all but byte 1 of element 10. */
    unsigned char bytes[128];
    for (int i = 0; i < 128; i++)
        bytes[i] = (unsigned char)(i * 7 + 1);
    ASSERT_OK(lat_memcpy_htod(ctx, b, bytes, 20));
    ASSERT_OK(lat_memcpy_htod(ctx, b + 21, bytes + 21, 64 - 21));
    ASSERT_OK(lat_memcpy_htod(ctx, w, bytes, 41));
    ASSERT_OK(lat_memcpy_htod(ctx, w + 42, bytes + 42, 128 - 42));
    static const struct {
        int bat, wat;
        const char *unwritten; /* the access reported, or NULL */
    } cases[] = {{19, 9, NULL}, {20, 9, "`b[bat]`"}, {21, 11, NULL}, {19, 10, "`w[wat]`"}, {63, 31, NULL}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int bat = cases[c].bat, wat = cases[c].wat;
        void *params[] = {&b, &w, &out, &bat, &wat};
        lat_status st = ck_launch(k, 1, 32, params);
        if (!cases[c].unwritten) {
            ASSERT_MSG(st == LAT_OK, "b[%d], w[%d]: %s", bat, wat, lat_last_error());
            ASSERT_NO_REPORTS(ctx);
            int got;
            ASSERT_OK(lat_memcpy_dtoh(ctx, &got, out, sizeof got));
            int want;
            memcpy(&want, bytes + 4 * wat, sizeof want);
            ASSERT_EQ(got, bytes[bat] + want);
        } else {
            ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, st);
            ASSERT_EQ((int)lat_check_report_count(ctx), 1);
            ASSERT_MSG(strstr(ck_msg(ctx, 0), cases[c].unwritten) && strstr(ck_msg(ctx, 0), "[32 times]"),
                       "b[%d], w[%d]: %s", bat, wat, ck_msg(ctx, 0));
            ASSERT_OK(lat_check_clear(ctx));
        }
    }
    ASSERT_OK(lat_mem_free(ctx, b));
    ASSERT_OK(lat_mem_free(ctx, w));
    ASSERT_OK(lat_mem_free(ctx, out));
}
