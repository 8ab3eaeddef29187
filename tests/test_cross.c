/* Cross-checking: every launch on the GPU and on the emulator, compared. In the emulator's
 * suite the "GPU" side is an emulator too (LATTICE_CROSS_PRIMARY=emu), which tests all of
 * the pairing and comparing; in the CUDA suite it is the GPU. */
#include "harness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A cross-checking context, pairing the backend under test with the emulator. */
static lat_context *cross_context(double rtol, double atol, lat_logger logger)
{
    lat_backend_kind k = t_require_backend();
    if (k == LAT_BACKEND_EMU)
        t_setenv("LATTICE_CROSS_PRIMARY", "emu");
    else if (k == LAT_BACKEND_CUDA)
        t_unsetenv("LATTICE_CROSS_PRIMARY");
    return t_context_with(&(lat_context_desc){.backend = LAT_BACKEND_CROSS, .logger = logger,
                                              .cross_rtol = rtol, .cross_atol = atol});
}

static const char mul_src[] =
    "__global__ void multiply_them(float *dest, float *a, float *b)\n"
    "{\n"
    "    const int i = threadIdx.x;\n"
    "    dest[i] = a[i] * b[i];\n"
    "}\n";

TEST(a_correct_kernel_passes_the_cross_check)
{
    lat_context *ctx = cross_context(0, 0, (lat_logger){0});
    ASSERT_EQ(lat_context_backend(ctx), LAT_BACKEND_CROSS);
    lat_kernel *k = t_kernel(ctx, mul_src, "multiply_them");
    float a[400], b[400], dest[400];
    t_rand_floats(a, 400, -1, 1);
    t_rand_floats(b, 400, -1, 1);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {400}},
                              LAT_ARGS(lat_arg_out(dest, sizeof dest), lat_arg_in(a, sizeof a),
                                       lat_arg_in(b, sizeof b))));
    for (int i = 0; i < 400; i++)
        ASSERT_MSG(dest[i] == a[i] * b[i], "dest[%d]", i);
    /* And with device memory the program manages. */
    lat_deviceptr dd = t_device_copy(ctx, NULL, sizeof dest);
    lat_deviceptr da = t_device_copy(ctx, a, sizeof a);
    lat_deviceptr db = t_device_copy(ctx, b, sizeof b);
    void *params[] = {&dd, &da, &db};
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {400}}, params));
    ASSERT_OK(lat_memcpy_dtoh(ctx, dest, dd, sizeof dest));
    for (int i = 0; i < 400; i++)
        ASSERT_MSG(dest[i] == a[i] * b[i], "dest[%d]", i);
}

/* A kernel whose result depends on where its buffer is: the two sides' buffers are at
 * different addresses, so they must disagree. */
static const char addr_src[] =
    "__global__ void address_bits(unsigned *out, int n)\n"
    "{\n"
    "    int i = threadIdx.x;\n"
    "    if (i < n) out[i] = i == 7 ? (unsigned)((unsigned long long)out >> 8) : (unsigned)i;\n"
    "}\n";

static char logged[2048];
static void capture(void *user, lat_log_level level, const char *message)
{
    (void)user;
    if (level == LAT_LOG_ERROR)
        snprintf(logged, sizeof logged, "%s", message);
}

TEST(a_difference_is_reported_with_kernel_buffer_index_and_values)
{
    logged[0] = '\0';
    lat_context *ctx = cross_context(0, 0, (lat_logger){capture, NULL});
    lat_kernel *k = t_kernel(ctx, addr_src, "address_bits");
    lat_deviceptr d = t_device_copy(ctx, NULL, 32 * sizeof(unsigned));
    ASSERT_OK(lat_memset_d32(ctx, d, 0, 32));
    int n = 32;
    void *params[] = {&d, &n};
    ASSERT_STATUS(LAT_ERROR_CROSS_MISMATCH,
                  lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {32}}, params));
    const char *msg = lat_last_error();
    ASSERT_CONTAINS(msg, "kernel 'address_bits'");
    ASSERT_CONTAINS(msg, "parameter 0 'out'");
    ASSERT_CONTAINS(msg, "word at byte 28"); /* element 7 */
    ASSERT_CONTAINS(msg, "emulator");
    ASSERT_CONTAINS(logged, "cross-check"); /* the logger heard it too */
}

static const char float_addr_src[] =
    "__global__ void float_address(double *out)\n"
    "{\n"
    "    out[threadIdx.x] = threadIdx.x == 3 ? (double)(unsigned long long)out : 1.0;\n"
    "}\n";

TEST(float_data_compares_within_the_tolerance)
{
    /* The two addresses differ: beyond any tolerance of 0, within one of 1e30. */
    lat_context *exact = cross_context(-1, -1, (lat_logger){0});
    lat_kernel *k = t_kernel(exact, float_addr_src, "float_address");
    double out[8];
    ASSERT_STATUS(LAT_ERROR_CROSS_MISMATCH,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {8}},
                                  LAT_ARGS(lat_arg_out(out, sizeof out))));
    ASSERT_CONTAINS(lat_last_error(), "double element 3");
    ASSERT_CONTAINS(lat_last_error(), "beyond the tolerance");

    lat_context *loose = cross_context(1e30, 0, (lat_logger){0});
    k = t_kernel(loose, float_addr_src, "float_address");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {8}},
                              LAT_ARGS(lat_arg_out(out, sizeof out))));
    ASSERT_EQ(out[0], 1);
}

static const char struct_src[] =
    "struct span { float *data; int n; };\n"
    "__global__ void fill(struct span s)\n"
    "{\n"
    "    int i = threadIdx.x;\n"
    "    if (i < s.n) s.data[i] = 0.5f * i;\n"
    "}\n";

TEST(pointers_inside_struct_arguments_are_translated)
{
    lat_context *ctx = cross_context(0, 0, (lat_logger){0});
    lat_kernel *k = t_kernel(ctx, struct_src, "fill");
    lat_deviceptr d = t_device_copy(ctx, NULL, 64 * sizeof(float));
    struct {
        lat_deviceptr data;
        int n;
    } s;
    /* The padding is passed too: zero it, as a careful caller would. */
    memset(&s, 0, sizeof s);
    s.data = d;
    s.n = 64;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {64}},
                              LAT_ARGS(lat_arg_bytes(&s, sizeof s))));
    float host[64];
    ASSERT_OK(lat_memcpy_dtoh(ctx, host, d, sizeof host));
    ASSERT_EQ(host[10], 5);
}

TEST(streams_events_and_2d_copies_work_cross_checked)
{
    lat_context *ctx = cross_context(0, 0, (lat_logger){0});
    lat_stream *s;
    ASSERT_OK(lat_stream_create(ctx, NULL, &s));
    lat_event *a, *b;
    ASSERT_OK(lat_event_create(ctx, NULL, &a));
    ASSERT_OK(lat_event_create(ctx, NULL, &b));
    lat_kernel *k = t_kernel(ctx, mul_src, "multiply_them");
    float x[64], out[64];
    for (int i = 0; i < 64; i++)
        x[i] = (float)i;
    lat_deviceptr dx, dout;
    size_t pitch;
    ASSERT_OK(lat_mem_alloc_pitch(ctx, sizeof x, 1, 4, &dx, &pitch));
    ASSERT_OK(lat_mem_alloc_async(ctx, sizeof out, s, &dout));
    ASSERT_OK(lat_memcpy_2d_async(ctx, &(lat_copy_2d){.src_host = x, .dst_device = dx, .dst_pitch = pitch,
                                                      .width_bytes = sizeof x, .height = 1}, s));
    ASSERT_OK(lat_event_record(a, s));
    void *params[] = {&dout, &dx, &dx};
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {64}, .stream = s}, params));
    ASSERT_OK(lat_event_record(b, s));
    ASSERT_OK(lat_memcpy_dtoh_async(ctx, out, dout, sizeof out, s));
    ASSERT_OK(lat_stream_synchronize(s));
    float ms;
    ASSERT_OK(lat_event_elapsed_ms(a, b, &ms));
    for (int i = 0; i < 64; i++)
        ASSERT_EQ(out[i], i * i);
    ASSERT_OK(lat_mem_free_async(ctx, dout, s));
}

TEST(the_compared_memory_may_be_every_allocation)
{
    t_setenv("LATTICE_CROSS_COMPARE", "all");
    lat_context *ctx = cross_context(0, 0, (lat_logger){0});
    t_unsetenv("LATTICE_CROSS_COMPARE");
    lat_kernel *k = t_kernel(ctx, mul_src, "multiply_them");
    float a[32] = {0}, dest[32];
    (void)t_device_copy(ctx, a, sizeof a); /* not an argument, compared anyway */
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {32}},
                              LAT_ARGS(lat_arg_out(dest, sizeof dest), lat_arg_in(a, sizeof a),
                                       lat_arg_in(a, sizeof a))));
}

TEST(images_cannot_be_cross_checked)
{
    lat_context *ctx = cross_context(0, 0, (lat_logger){0});
    lat_module *m;
    ASSERT_STATUS(LAT_ERROR_UNSUPPORTED,
                  lat_module_load(ctx, &(lat_module_image_desc){.data = "x", .size = 1}, &m));
}

/* ---- comparing by element type, with a tolerance that does not cry wolf ------------------ */

/* Kernels below learn which side they run on from `key`, the primary's address of their
 * first buffer XOR a mask (so that it is no live address and reaches both sides as is):
 * the primary's copy of the kernel then computes something slightly (or very) different,
 * which shows what the comparison lets pass and what it reports, with real launches. */
#define KEY_MASK 0xa5a5000000000000ULL
#define ON_PRIMARY "(((unsigned long long)out ^ 0xa5a5000000000000ULL) == key)"

static lat_status launch_keyed(lat_kernel *k, unsigned n, lat_deviceptr out, lat_deviceptr in)
{
    unsigned long long key = out ^ KEY_MASK;
    int ni = (int)n;
    void *params[] = {&out, &in, &key, &ni};
    return lat_launch(k, &(lat_launch_desc){.grid = {(n + 255) / 256}, .block = {256}}, params);
}

static const char typedef_src[] =
    "typedef float DATA_TYPE;\n"
    "__global__ void scale(DATA_TYPE *out, const DATA_TYPE *in, unsigned long long key, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i >= n)\n"
    "        return;\n"
    "    DATA_TYPE v = in[i] * 3.0f;\n"
    "    if (" ON_PRIMARY " && i % 2 == 0)\n"
    "        v = v * (1.0f + 4e-7f); /* a few units in the last place */\n"
    "    out[i] = v;\n"
    "}\n";

TEST(a_typedef_of_float_compares_as_floats_within_the_tolerance)
{
    enum { N = 1000 };
    float in[N];
    t_rand_floats(in, N, 0.5f, 2);
    lat_context *ctx = cross_context(0, 0, (lat_logger){0});
    lat_kernel *k = t_kernel(ctx, typedef_src, "scale");
    lat_deviceptr out = t_device_copy(ctx, NULL, sizeof in), din = t_device_copy(ctx, in, sizeof in);
    ASSERT_OK(launch_keyed(k, N, out, din));
    float host[N];
    ASSERT_OK(lat_memcpy_dtoh(ctx, host, out, sizeof host));
    for (int i = 0; i < N; i++)
        ASSERT_CLOSE(host[i], 3.0 * in[i], 1e-6, 0);
    /* Exactly: the difference is reported as a float, not as bytes. */
    lat_context *exact = cross_context(-1, -1, (lat_logger){0});
    k = t_kernel(exact, typedef_src, "scale");
    out = t_device_copy(exact, NULL, sizeof in);
    din = t_device_copy(exact, in, sizeof in);
    ASSERT_STATUS(LAT_ERROR_CROSS_MISMATCH, launch_keyed(k, N, out, din));
    ASSERT_CONTAINS(lat_last_error(), "parameter 0 'out' (DATA_TYPE *)");
    ASSERT_CONTAINS(lat_last_error(), "float element 0 differs");
    ASSERT_CONTAINS(lat_last_error(), "500 elements differ");
}

static const char define_vector_src[] =
    "#define fp float\n"
    "__global__ void spread(float4 *out, const fp *in, unsigned long long key, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i >= n)\n"
    "        return;\n"
    "    fp v = in[i];\n"
    "    float4 r = make_float4(v, 2 * v, 3 * v, 4 * v);\n"
    "    if (" ON_PRIMARY ")\n"
    "        r.y = r.y * (1.0f + 4e-7f);\n"
    "    out[i] = r;\n"
    "}\n";

TEST(a_defined_float_and_float4_compare_as_floats_field_by_field)
{
    enum { N = 300 };
    float in[N];
    t_rand_floats(in, N, -2, 2);
    lat_context *ctx = cross_context(0, 0, (lat_logger){0});
    lat_kernel *k = t_kernel(ctx, define_vector_src, "spread");
    lat_deviceptr out = t_device_copy(ctx, NULL, N * 16), din = t_device_copy(ctx, in, sizeof in);
    ASSERT_OK(launch_keyed(k, N, out, din));
    lat_context *exact = cross_context(-1, -1, (lat_logger){0});
    k = t_kernel(exact, define_vector_src, "spread");
    out = t_device_copy(exact, NULL, N * 16);
    din = t_device_copy(exact, in, sizeof in);
    ASSERT_STATUS(LAT_ERROR_CROSS_MISMATCH, launch_keyed(k, N, out, din));
    ASSERT_CONTAINS(lat_last_error(), "float at byte 4 of element 0 (16 bytes)");
}

/* out[i] = a[i] - b[i], with b[7] close to a[7]: the result there is a cancellation, tiny
 * against the buffer's other elements (about 1 to 10). */
static const char cancel_src[] =
    "__global__ void sub(float *out, const float2 *in, unsigned long long key, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i >= n)\n"
    "        return;\n"
    "    float r = in[i].x - in[i].y;\n"
    "    if (" ON_PRIMARY " && i == 7)\n"
    "        r += 2e-6f; /* 2e-3 of r itself, 4e-7 of a typical element */\n"
    "    out[i] = r;\n"
    "}\n";

TEST(a_cancelled_result_is_judged_against_the_buffers_typical_magnitude)
{
    enum { N = 256 };
    float in[2 * N];
    for (int i = 0; i < N; i++) {
        in[2 * i] = (float)t_rand_double(5, 10);
        in[2 * i + 1] = (float)t_rand_double(-1, 1);
    }
    in[15] = in[14] - 1e-3f;
    lat_context *ctx = cross_context(0, 0, (lat_logger){0});
    lat_kernel *k = t_kernel(ctx, cancel_src, "sub");
    lat_deviceptr out = t_device_copy(ctx, NULL, N * 4), din = t_device_copy(ctx, in, sizeof in);
    ASSERT_OK(launch_keyed(k, N, out, din));
    float host[N];
    ASSERT_OK(lat_memcpy_dtoh(ctx, host, out, sizeof host));
    ASSERT_CLOSE(host[3], (double)in[6] - in[7], 1e-6, 0);
}

/* A bug on one side only: from element 500 on, the primary reads one element too far, as
 * an off-by-one index does. The comparison must report it, with the real tolerance. */
static const char off_by_one_src[] =
    "__global__ void twice(float *out, const float *in, unsigned long long key, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i >= n)\n"
    "        return;\n"
    "    out[i] = 2.0f * in[" ON_PRIMARY " && i >= 500 ? i + 1 : i];\n"
    "}\n";

TEST(an_off_by_one_index_on_one_side_is_reported_at_its_first_element)
{
    enum { N = 1000 };
    float in[N + 1];
    t_rand_floats(in, N + 1, -1, 1);
    logged[0] = '\0';
    lat_context *ctx = cross_context(0, 0, (lat_logger){capture, NULL});
    lat_kernel *k = t_kernel(ctx, off_by_one_src, "twice");
    lat_deviceptr out = t_device_copy(ctx, NULL, N * 4), din = t_device_copy(ctx, in, sizeof in);
    ASSERT_STATUS(LAT_ERROR_CROSS_MISMATCH, launch_keyed(k, N, out, din));
    const char *msg = lat_last_error();
    ASSERT_CONTAINS(msg, "kernel 'twice'");
    ASSERT_CONTAINS(msg, "float element 500 differs");
    ASSERT_CONTAINS(msg, "beyond the tolerance");
    ASSERT_CONTAINS(msg, "500 elements differ");
}

/* Block sums by a shared-memory tree; on the primary the stride starts at a quarter of
 * the block instead of half, so half of each block's values are never added. */
static const char stride_src[] =
    "__global__ void sums(float *out, const float *in, unsigned long long key, int n)\n"
    "{\n"
    "    __shared__ float s[256];\n"
    "    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;\n"
    "    s[t] = i < n ? in[i] : 0.0f;\n"
    "    __syncthreads();\n"
    "    int first = " ON_PRIMARY " ? blockDim.x / 4 : blockDim.x / 2;\n"
    "    for (int d = first; d > 0; d /= 2) {\n"
    "        if (t < d)\n"
    "            s[t] += s[t + d];\n"
    "        __syncthreads();\n"
    "    }\n"
    "    if (t == 0)\n"
    "        out[blockIdx.x] = s[0];\n"
    "}\n";

TEST(a_wrong_reduction_stride_on_one_side_is_reported)
{
    enum { N = 256 * 64 };
    float *in = t_calloc(N, sizeof *in);
    t_rand_floats(in, N, 0, 1);
    lat_context *ctx = cross_context(0, 0, (lat_logger){0});
    lat_kernel *k = t_kernel(ctx, stride_src, "sums");
    lat_deviceptr out = t_device_copy(ctx, NULL, 64 * 4), din = t_device_copy(ctx, in, N * 4);
    ASSERT_STATUS(LAT_ERROR_CROSS_MISMATCH, launch_keyed(k, N, out, din));
    ASSERT_CONTAINS(lat_last_error(), "float element 0 differs");
    ASSERT_CONTAINS(lat_last_error(), "64 elements differ");
}

TEST(cross_stats_counts_the_bit_identical_floats_of_every_compared_buffer)
{
    char path[512];
    snprintf(path, sizeof path, "%s/stats", t_tempdir());
    t_setenv("LATTICE_CROSS_STATS", path);
    lat_context *ctx = cross_context(0, 0, (lat_logger){0});
    t_unsetenv("LATTICE_CROSS_STATS");
    enum { N = 1000 };
    float in[N];
    t_rand_floats(in, N, 0.5f, 2);
    lat_kernel *k = t_kernel(ctx, typedef_src, "scale");
    lat_deviceptr out = t_device_copy(ctx, NULL, sizeof in), din = t_device_copy(ctx, in, sizeof in);
    ASSERT_OK(launch_keyed(k, N, out, din));
    FILE *f = fopen(path, "r");
    ASSERT_NOT_NULL(f);
    char line[512];
    int seen_out = 0, seen_in = 0;
    while (fgets(line, sizeof line, f)) {
        char prog[64], kern[64], param[64], kind[16], ulp[24];
        unsigned long long values, identical, beyond;
        ASSERT_MSG(sscanf(line, "%63[^\t]\t%63[^\t]\t%63[^\t]\t%15[^\t]\t%llu\t%llu\t%23[^\t]\t%llu",
                          prog, kern, param, kind, &values, &identical, ulp, &beyond) == 8,
                   "line: %s", line);
        ASSERT_STR_EQ(kern, "scale");
        ASSERT_STR_EQ(kind, "float");
        ASSERT_EQ(values, N);
        ASSERT_EQ(beyond, 0);
        if (strcmp(param, "out") == 0) {
            seen_out++;
            ASSERT_EQ(identical, N / 2); /* the primary changed every other one */
            ASSERT_TRUE(atoi(ulp) >= 1 && atoi(ulp) <= 8);
        } else {
            ASSERT_STR_EQ(param, "in");
            seen_in++;
            ASSERT_EQ(identical, N);
            ASSERT_STR_EQ(ulp, "0");
        }
    }
    fclose(f);
    unlink(path);
    ASSERT_EQ(seen_out, 1);
    ASSERT_EQ(seen_in, 1);
}

/* ---- for the GPU: real kernels that must pass, real bugs that must be reported ------------ */

/* A cross-checking context whose primary is a GPU; skips on an emulator-only machine and in
 * the suites that pair the emulator with itself (where both sides agree bit for bit). */
static lat_context *gpu_cross_context(void)
{
    lat_backend_kind k = t_require_backend();
    const char *p = getenv("LATTICE_CROSS_PRIMARY");
    if (k == LAT_BACKEND_EMU || (k == LAT_BACKEND_CROSS && p && strcmp(p, "emu") == 0))
        SKIP("needs a GPU on the primary side (the cuda and cross suites)");
    return cross_context(0, 0, (lat_logger){0});
}

static const char tiled_src[] =
    "#define TILE 16\n"
    "#ifndef SYNC\n"
    "#define SYNC __syncthreads()\n"
    "#endif\n"
    "__global__ void matmul(const float *a, const float *b, float *c, int n)\n"
    "{\n"
    "    __shared__ float ta[TILE][TILE], tb[TILE][TILE];\n"
    "    int tx = threadIdx.x, ty = threadIdx.y;\n"
    "    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;\n"
    "    float acc = 0;\n"
    "    for (int k = 0; k < n; k += TILE) {\n"
    "        ta[ty][tx] = a[row * n + k + tx];\n"
    "        tb[ty][tx] = b[(k + ty) * n + col];\n"
    "        SYNC;\n"
    "        for (int j = 0; j < TILE; j++)\n"
    "            acc += ta[ty][j] * tb[j][tx];\n"
    "        SYNC;\n"
    "    }\n"
    "    c[row * n + col] = acc;\n"
    "}\n";

static lat_status run_matmul(lat_context *ctx, const char *sync, int n, float *c)
{
    float *a = t_calloc((size_t)n * n, 4), *b = t_calloc((size_t)n * n, 4);
    t_rand_floats(a, (size_t)n * n, -1, 1);
    t_rand_floats(b, (size_t)n * n, -1, 1);
    lat_module *m;
    const char *defines[] = {sync, NULL}; /* NULL: with the barriers */
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = tiled_src, .defines = defines}, &m));
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(m, "matmul", &k));
    lat_status st = lat_launch_args(
        k, &(lat_launch_desc){.grid = {(unsigned)n / 16, (unsigned)n / 16}, .block = {16, 16}},
        LAT_ARGS(lat_arg_in(a, (size_t)n * n * 4), lat_arg_in(b, (size_t)n * n * 4),
                 lat_arg_out(c, (size_t)n * n * 4), lat_arg_i32(n)));
    if (st == LAT_OK) /* the result is right, within what float arithmetic allows */
        for (int i = 0; i < n; i += 37)
            for (int j = 0; j < n; j += 41) {
                double want = 0, mag = 0;
                for (int q = 0; q < n; q++) {
                    want += (double)a[i * n + q] * b[q * n + j];
                    mag += fabs((double)a[i * n + q] * b[q * n + j]);
                }
                ASSERT_MSG(fabs(c[i * n + j] - want) <= 1e-5 * mag, "c[%d][%d] = %.9g, want %.9g",
                           i, j, c[i * n + j], want);
            }
    return st;
}

TEST(gpu_a_tiled_512x512_matmul_passes_the_cross_check)
{
    lat_context *ctx = gpu_cross_context();
    float *c = t_calloc(512 * 512, 4);
    ASSERT_OK(run_matmul(ctx, NULL, 512, c));
}

TEST(gpu_a_matmul_missing_its_barriers_is_reported)
{
    /* Without __syncthreads the emulator runs each thread to its end in turn, reading
     * tiles its neighbours have not loaded; the GPU's warps race differently. */
    lat_context *ctx = gpu_cross_context();
    float *c = t_calloc(128 * 128, 4);
    lat_status st = run_matmul(ctx, "SYNC=(void)0", 128, c);
    ASSERT_STATUS(LAT_ERROR_CROSS_MISMATCH, st);
    ASSERT_CONTAINS(lat_last_error(), "kernel 'matmul'");
}

/* curand as Monte Carlo codes use it: states made by one kernel and kept in global memory,
 * drawn from by the next, which writes them back. Raw values and states must be the GPU's
 * bit for bit; normals go through logf and __sincosf, within the tolerance. */
static const char curand_src[] =
    "#include <curand_kernel.h>\n"
    "extern \"C\" __global__ void setup(curandState *states, unsigned long long seed)\n"
    "{\n"
    "    int id = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    curand_init(seed, id, 0, &states[id]);\n"
    "}\n"
    "extern \"C\" __global__ void draw(curandState *states, unsigned int *raw, float *u,\n"
    "                                  float *g, int per)\n"
    "{\n"
    "    int id = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    curandState local = states[id];\n"
    "    for (int k = 0; k < per; k++) {\n"
    "        raw[id * per + k] = curand(&local);\n"
    "        u[id * per + k] = curand_uniform(&local);\n"
    "        g[id * per + k] = curand_normal(&local);\n"
    "    }\n"
    "    states[id] = local;\n"
    "}\n";

TEST(gpu_curand_states_and_draws_pass_the_cross_check)
{
    enum { THREADS = 4096, PER = 5 };
    lat_context *ctx = gpu_cross_context();
    /* as written: CUDA's curand_kernel.h is C++ that extern "C" around it would break */
    lat_kernel *setup = t_kernel_as_written(ctx, curand_src, "setup");
    lat_kernel *draw = t_kernel_as_written(ctx, curand_src, "draw");
    lat_deviceptr states = t_device_copy(ctx, NULL, (size_t)THREADS * 48);
    lat_deviceptr raw = t_device_copy(ctx, NULL, (size_t)THREADS * PER * 4);
    lat_deviceptr u = t_device_copy(ctx, NULL, (size_t)THREADS * PER * 4);
    lat_deviceptr g = t_device_copy(ctx, NULL, (size_t)THREADS * PER * 4);
    lat_launch_desc d = {.grid = {THREADS / 256}, .block = {256}};
    ASSERT_OK(lat_launch_args(setup, &d, LAT_ARGS(lat_arg_ptr(states), lat_arg_u64(20261125))));
    for (int round = 0; round < 2; round++)
        ASSERT_OK(lat_launch_args(draw, &d, LAT_ARGS(lat_arg_ptr(states), lat_arg_ptr(raw),
                                                     lat_arg_ptr(u), lat_arg_ptr(g),
                                                     lat_arg_i32(PER))));
    float *host = t_calloc((size_t)THREADS * PER, 4);
    ASSERT_OK(lat_memcpy_dtoh(ctx, host, g, (size_t)THREADS * PER * 4));
    double sum = 0, sq = 0;
    for (int i = 0; i < THREADS * PER; i++) {
        sum += host[i];
        sq += (double)host[i] * host[i];
    }
    double n = THREADS * PER;
    ASSERT_MSG(fabs(sum / n) < 4 / sqrt(n) && fabs(sq / n - 1) < 0.05, "mean %g, variance %g",
               sum / n, sq / n);
}

/* A dot product of a million pairs stored as a typedef of float2, summed per block and
 * then by atomicAdd, whose order differs between the two sides. */
static const char dot_src[] =
    "typedef float2 pair_t;\n"
    "typedef float real_t;\n"
    "__global__ void dot(const pair_t *xy, real_t *partial, real_t *sum, int n)\n"
    "{\n"
    "    __shared__ real_t s[256];\n"
    "    int t = threadIdx.x;\n"
    "    real_t acc = 0;\n"
    "    for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x)\n"
    "        acc += xy[i].x * xy[i].y;\n"
    "    s[t] = acc;\n"
    "    __syncthreads();\n"
    "    for (int d = blockDim.x / 2; d > 0; d /= 2) {\n"
    "        if (t < d)\n"
    "            s[t] += s[t + d];\n"
    "        __syncthreads();\n"
    "    }\n"
    "    if (t == 0) {\n"
    "        partial[blockIdx.x] = s[0];\n"
    "        atomicAdd(sum, s[0]);\n"
    "    }\n"
    "}\n";

TEST(gpu_a_million_element_dot_product_of_typedef_pairs_passes)
{
    enum { N = 1 << 20, BLOCKS = 1024 };
    lat_context *ctx = gpu_cross_context();
    float *xy = t_calloc(2 * N, 4);
    t_rand_floats(xy, 2 * N, -1, 1);
    lat_kernel *k = t_kernel(ctx, dot_src, "dot");
    float partial[BLOCKS], sum = 0;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {BLOCKS}, .block = {256}},
                              LAT_ARGS(lat_arg_in(xy, 2 * N * 4),
                                       lat_arg_out(partial, sizeof partial),
                                       lat_arg_inout(&sum, sizeof sum), lat_arg_i32(N))));
    double want = 0, mag = 0;
    for (int i = 0; i < N; i++) {
        want += (double)xy[2 * i] * xy[2 * i + 1];
        mag += fabs((double)xy[2 * i] * xy[2 * i + 1]);
    }
    ASSERT_MSG(fabs(sum - want) <= 1e-5 * mag, "sum %.9g, want %.9g", sum, want);
}

/* PolyBench/GPU's covariance (mean, centre, covariance), with its DATA_TYPE: centred
 * data makes most covariances cancellations. */
static const char covariance_src[] =
    "typedef float DATA_TYPE;\n"
    "__global__ void mean_kernel(DATA_TYPE *mean, DATA_TYPE *data, DATA_TYPE float_n, int m, int n)\n"
    "{\n"
    "    int j = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (j < m) {\n"
    "        mean[j] = 0.0f;\n"
    "        for (int i = 0; i < n; i++)\n"
    "            mean[j] += data[i * m + j];\n"
    "        mean[j] /= float_n;\n"
    "    }\n"
    "}\n"
    "__global__ void reduce_kernel(DATA_TYPE *mean, DATA_TYPE *data, int m, int n)\n"
    "{\n"
    "    int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y * blockDim.y + threadIdx.y;\n"
    "    if (i < n && j < m)\n"
    "        data[i * m + j] -= mean[j];\n"
    "}\n"
    "__global__ void covar_kernel(DATA_TYPE *symmat, DATA_TYPE *data, int m, int n)\n"
    "{\n"
    "    int j1 = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (j1 < m) {\n"
    "        for (int j2 = j1; j2 < m; j2++) {\n"
    "            symmat[j1 * m + j2] = 0.0f;\n"
    "            for (int i = 0; i < n; i++)\n"
    "                symmat[j1 * m + j2] += data[i * m + j1] * data[i * m + j2];\n"
    "            symmat[j2 * m + j1] = symmat[j1 * m + j2];\n"
    "        }\n"
    "    }\n"
    "}\n";

TEST(gpu_polybench_covariance_with_its_data_type_passes)
{
    enum { M = 256, N = 256 };
    lat_context *ctx = gpu_cross_context();
    lat_module *mod;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = covariance_src}, &mod));
    lat_kernel *mk, *rk, *ck;
    ASSERT_OK(lat_module_get_kernel(mod, "mean_kernel", &mk));
    ASSERT_OK(lat_module_get_kernel(mod, "reduce_kernel", &rk));
    ASSERT_OK(lat_module_get_kernel(mod, "covar_kernel", &ck));
    float *data = t_calloc(M * N, 4);
    for (int i = 0; i < M * N; i++)
        data[i] = (float)(i % M) * (float)(i / M) / M + (float)t_rand_double(0, 1);
    lat_deviceptr dd = t_device_copy(ctx, data, M * N * 4);
    lat_deviceptr dmean = t_device_copy(ctx, NULL, M * 4), dsym = t_device_copy(ctx, NULL, M * M * 4);
    float fn = N;
    int m = M, n = N;
    void *p1[] = {&dmean, &dd, &fn, &m, &n};
    ASSERT_OK(lat_launch(mk, &(lat_launch_desc){.grid = {M / 256}, .block = {256}}, p1));
    void *p2[] = {&dmean, &dd, &m, &n};
    ASSERT_OK(lat_launch(rk, &(lat_launch_desc){.grid = {M / 32, N / 8}, .block = {32, 8}}, p2));
    void *p3[] = {&dsym, &dd, &m, &n};
    ASSERT_OK(lat_launch(ck, &(lat_launch_desc){.grid = {M / 256}, .block = {256}}, p3));
    float *sym = t_calloc(M * M, 4);
    ASSERT_OK(lat_memcpy_dtoh(ctx, sym, dsym, M * M * 4));
    /* Against the covariance in double: variances to 1e-4 of themselves, covariances to
     * 1e-4 of the product of the standard deviations. */
    double *mean = t_calloc(M, sizeof *mean);
    for (int j = 0; j < M; j++) {
        for (int i = 0; i < N; i++)
            mean[j] += data[i * M + j];
        mean[j] /= N;
    }
    for (int a = 0; a < M; a += 17)
        for (int b = a; b < M; b += 23) {
            double want = 0, va = 0, vb = 0;
            for (int i = 0; i < N; i++) {
                double da = data[i * M + a] - mean[a], db = data[i * M + b] - mean[b];
                want += da * db;
                va += da * da;
                vb += db * db;
            }
            ASSERT_MSG(fabs(sym[a * M + b] - want) <= 1e-4 * sqrt(va * vb),
                       "symmat[%d][%d] = %.9g, want %.9g", a, b, sym[a * M + b], want);
        }
}

/* A real off-by-one, in place: each element should lose its own previous value, and
 * subtracts its neighbour's instead, which another thread is overwriting. A GPU warp reads
 * before it writes; the emulator runs the threads in turn and reads the neighbour's new
 * value. */
static const char in_place_src[] =
    "__global__ void diff(float *x, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i > 0 && i < n)\n"
    "        x[i] = x[i] - x[i - 1];\n"
    "}\n";

TEST(gpu_an_off_by_one_index_reading_a_neighbour_written_in_place_is_reported)
{
    enum { N = 4096 };
    lat_context *ctx = gpu_cross_context();
    float x[N];
    t_rand_floats(x, N, 1, 2);
    lat_kernel *k = t_kernel(ctx, in_place_src, "diff");
    ASSERT_STATUS(LAT_ERROR_CROSS_MISMATCH,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {N / 256}, .block = {256}},
                                  LAT_ARGS(lat_arg_inout(x, sizeof x), lat_arg_i32(N))));
    ASSERT_CONTAINS(lat_last_error(), "kernel 'diff'");
}
