/* The bug zoo (examples/bugs/): each classic mistake gets exactly the report that the file
 * itself shows (and `lattice run` prints), and its corrected kernel gets none. The kernels
 * run as the lattice program runs them: buffers named after the parameters, const ones
 * filled with 0, 1, 2, ... */
#include "check_util.h"

#ifndef TEST_BUGS_DIR
#error "TEST_BUGS_DIR names examples/bugs"
#endif

/* Compiles examples/bugs/FILE, with `tail` appended, under the name the reports use. */
static lat_kernel *zoo_kernel_with(lat_context *ctx, const char *file, const char *kernel,
                                   const char *tail)
{
    char path[512], name[128];
    snprintf(path, sizeof path, "%s/%s", TEST_BUGS_DIR, file);
    snprintf(name, sizeof name, "examples/bugs/%s", file);
    const char *text = ck_read(path);
    char *src = t_calloc(strlen(text) + strlen(tail) + 1, 1);
    strcpy(src, text);
    strcat(src, tail);
    return ck_kernel(ctx, src, name, kernel);
}

static lat_kernel *zoo_kernel(lat_context *ctx, const char *file, const char *kernel)
{
    return zoo_kernel_with(ctx, file, kernel, "");
}

/* Each report is written in the file's closing comment, as the program prints it. */
static void assert_documented(lat_context *ctx, const char *file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", TEST_BUGS_DIR, file);
    const char *text = ck_read(path);
    for (size_t i = 0; i < lat_check_report_count(ctx); i++) {
        char line[2048];
        snprintf(line, sizeof line, "//     %s\n", ck_msg(ctx, i));
        ASSERT_MSG(strstr(text, line), "%s does not show the report\n  %s", file, ck_msg(ctx, i));
    }
}

TEST(bounds)
{
    lat_context *ctx = ck_context(LAT_CHECK_ALL);
    ck_buffers bufs = {0};
    lat_kernel *k = zoo_kernel(ctx, "bounds.cu", "scale");
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED,
                  ck_run_like_cli(ctx, k, &bufs, 1000, (lat_dim3){4}, (lat_dim3){256}));
    ASSERT_REPORTS(ctx,
        "examples/bugs/bounds.cu:6: memcheck: kernel 'scale', block (3,0,0), threads (232,0,0) to (255,0,0): out-of-bounds read of 4 bytes by `in[i]`: element [1000] of 'in', which has 1000 elements of 4 bytes [24 times]",
        "examples/bugs/bounds.cu:6: memcheck: kernel 'scale', block (3,0,0), threads (232,0,0) to (255,0,0): out-of-bounds write of 4 bytes by `out[i]`: element [1000] of 'out', which has 1000 elements of 4 bytes [24 times]");
    assert_documented(ctx, "bounds.cu");
    ck_buffers fixed_bufs = {0};
    lat_kernel *kf = zoo_kernel(ctx, "bounds.cu", "scale_fixed");
    ASSERT_OK(ck_run_like_cli(ctx, kf, &fixed_bufs, 1000, (lat_dim3){4}, (lat_dim3){256}));
    ASSERT_NO_REPORTS(ctx);
}

TEST(missing_barrier)
{
    lat_context *ctx = ck_context(LAT_CHECK_ALL);
    ck_buffers bufs = {0};
    lat_kernel *k = zoo_kernel(ctx, "missing_barrier.cu", "reverse");
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED,
                  ck_run_like_cli(ctx, k, &bufs, 512, (lat_dim3){2}, (lat_dim3){256}));
    ASSERT_REPORTS(ctx,
        "examples/bugs/missing_barrier.cu:7: racecheck: kernel 'reverse', block (0,0,0), thread (128,0,0): data race: write of `tile[t]` after the read of `tile[blockDim.x - 1 - t]` at examples/bugs/missing_barrier.cu:8 by thread (127,0,0) of the same block, with no barrier between them, on element [128] of __shared__ 'tile' [256 times]",
        "examples/bugs/missing_barrier.cu:8: racecheck: kernel 'reverse', block (0,0,0), thread (128,0,0): data race: read of `tile[blockDim.x - 1 - t]` after the write of `tile[t]` at examples/bugs/missing_barrier.cu:7 by thread (127,0,0) of the same block, with no barrier between them, on element [127] of __shared__ 'tile' [256 times]",
        "examples/bugs/missing_barrier.cu:8: initcheck: kernel 'reverse', block (0,0,0), threads (0,0,0) to (127,0,0): read of 4 bytes by `tile[blockDim.x - 1 - t]` reads memory never written: element [255] of __shared__ 'tile' [256 times]");
    assert_documented(ctx, "missing_barrier.cu");
    ck_buffers fixed_bufs = {0};
    lat_kernel *kf = zoo_kernel(ctx, "missing_barrier.cu", "reverse_fixed");
    ASSERT_OK(ck_run_like_cli(ctx, kf, &fixed_bufs, 512, (lat_dim3){2}, (lat_dim3){256}));
    ASSERT_NO_REPORTS(ctx);
}

TEST(divergent_barrier)
{
    lat_context *ctx = ck_context(LAT_CHECK_ALL);
    ck_buffers bufs = {0};
    lat_kernel *k = zoo_kernel(ctx, "divergent_barrier.cu", "halves");
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED,
                  ck_run_like_cli(ctx, k, &bufs, 64, (lat_dim3){1}, (lat_dim3){64}));
    ASSERT_REPORTS(ctx,
        "examples/bugs/divergent_barrier.cu:12: synccheck: kernel 'halves', block (0,0,0), threads (0,0,0) to (31,0,0): threads (0,0,0) to (31,0,0) wait at __syncthreads() here while threads (32,0,0) to (63,0,0) wait at the one at examples/bugs/divergent_barrier.cu:17 (every thread of a block must reach the same barrier)");
    assert_documented(ctx, "divergent_barrier.cu");
    ck_buffers fixed_bufs = {0};
    lat_kernel *kf = zoo_kernel(ctx, "divergent_barrier.cu", "halves_fixed");
    ASSERT_OK(ck_run_like_cli(ctx, kf, &fixed_bufs, 64, (lat_dim3){1}, (lat_dim3){64}));
    ASSERT_NO_REPORTS(ctx);
}

TEST(racy_counter)
{
    lat_context *ctx = ck_context(LAT_CHECK_ALL);
    ck_buffers bufs = {0};
    lat_kernel *k = zoo_kernel(ctx, "racy_counter.cu", "count_positive");
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED,
                  ck_run_like_cli(ctx, k, &bufs, 512, (lat_dim3){2}, (lat_dim3){256}));
    ASSERT_REPORTS(ctx,
        "examples/bugs/racy_counter.cu:10: racecheck: kernel 'count_positive', block (0,0,0), thread (2,0,0): data race: read-write of `count` after the read-write of `count` at examples/bugs/racy_counter.cu:10 by thread (1,0,0) of the same block, with no barrier between them, on element [0] of __shared__ 'count' [509 times]");
    assert_documented(ctx, "racy_counter.cu");
    ck_buffers fixed_bufs = {0};
    lat_kernel *kf = zoo_kernel(ctx, "racy_counter.cu", "count_positive_fixed");
    ASSERT_OK(ck_run_like_cli(ctx, kf, &fixed_bufs, 512, (lat_dim3){2}, (lat_dim3){256}));
    ASSERT_NO_REPORTS(ctx);
}

TEST(atomic_mixed)
{
    lat_context *ctx = ck_context(LAT_CHECK_ALL);
    ck_buffers bufs = {0};
    lat_kernel *k = zoo_kernel(ctx, "atomic_mixed.cu", "histogram");
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED,
                  ck_run_like_cli(ctx, k, &bufs, 512, (lat_dim3){2}, (lat_dim3){256}));
    ASSERT_REPORTS(ctx,
        "examples/bugs/atomic_mixed.cu:13: racecheck: kernel 'histogram', block (0,0,0), thread (16,0,0): data race: atomic read-write of `atomicAdd(&local[in[i] % 16], 1)` after the read of `local[t]` at examples/bugs/atomic_mixed.cu:15 by thread (0,0,0) of the same block, with no barrier between them, on element [0] of __shared__ 'local' [480 times]");
    assert_documented(ctx, "atomic_mixed.cu");
    /* In the reverse order, the clearing after another thread's count is named too. */
    ck_buffers rbufs = {0};
    lat_context *rctx = ck_context(LAT_CHECK_RACECHECK);
    ASSERT_OK(lat_check_configure(rctx, &(lat_check_options){.order = LAT_SCHEDULE_REVERSE}));
    lat_kernel *rk = zoo_kernel(rctx, "atomic_mixed.cu", "histogram");
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED,
                  ck_run_like_cli(rctx, rk, &rbufs, 512, (lat_dim3){2}, (lat_dim3){256}));
    ASSERT_TRUE(lat_check_report_count(rctx) >= 1);
    ASSERT_CONTAINS(ck_msg(rctx, 0), "atomic read-write of `atomicAdd(&local[in[i] % 16], 1)`");
    ck_buffers fixed_bufs = {0};
    lat_kernel *kf = zoo_kernel(ctx, "atomic_mixed.cu", "histogram_fixed");
    ASSERT_OK(ck_run_like_cli(ctx, kf, &fixed_bufs, 512, (lat_dim3){2}, (lat_dim3){256}));
    ASSERT_NO_REPORTS(ctx);
    int bins[32];
    ASSERT_OK(lat_memcpy_dtoh(ctx, bins, fixed_bufs.ptr[0], sizeof bins));
    for (int i = 0; i < 32; i++)
        ASSERT_EQ(bins[i], 16);
}

TEST(uninit_shared)
{
    lat_context *ctx = ck_context(LAT_CHECK_ALL);
    ck_buffers bufs = {0};
    lat_kernel *k = zoo_kernel(ctx, "uninit_shared.cu", "smooth");
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED,
                  ck_run_like_cli(ctx, k, &bufs, 512, (lat_dim3){2}, (lat_dim3){256}));
    ASSERT_REPORTS(ctx,
        "examples/bugs/uninit_shared.cu:9: initcheck: kernel 'smooth', block (0,0,0), thread (0,0,0): read of 4 bytes by `s[t]` reads memory never written: element [0] of __shared__ 's' [2 times]",
        "examples/bugs/uninit_shared.cu:9: initcheck: kernel 'smooth', block (0,0,0), thread (255,0,0): read of 4 bytes by `s[t + 2]` reads memory never written: element [257] of __shared__ 's' [2 times]");
    assert_documented(ctx, "uninit_shared.cu");
    ck_buffers fixed_bufs = {0};
    lat_kernel *kf = zoo_kernel(ctx, "uninit_shared.cu", "smooth_fixed");
    ASSERT_OK(ck_run_like_cli(ctx, kf, &fixed_bufs, 512, (lat_dim3){2}, (lat_dim3){256}));
    ASSERT_NO_REPORTS(ctx);
}

TEST(wrong_2d_index)
{
    lat_context *ctx = ck_context(LAT_CHECK_ALL);
    ck_buffers bufs = {0};
    lat_kernel *k = zoo_kernel(ctx, "wrong_2d_index.cu", "fill");
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED,
                  ck_run_like_cli(ctx, k, &bufs, 32, (lat_dim3){2, 1}, (lat_dim3){4, 4}));
    ASSERT_REPORTS(ctx,
        "examples/bugs/wrong_2d_index.cu:10: racecheck: kernel 'fill', block (1,0,0), thread (0,0,0): data race: write of `m[row * height + col]` after the write of `m[row * height + col]` at examples/bugs/wrong_2d_index.cu:10 by thread (0,1,0) of block (0,0,0), with no barrier between them, on element [4] of 'm' [12 times]");
    assert_documented(ctx, "wrong_2d_index.cu");
    ck_buffers fixed_bufs = {0};
    lat_kernel *kf = zoo_kernel(ctx, "wrong_2d_index.cu", "fill_fixed");
    ASSERT_OK(ck_run_like_cli(ctx, kf, &fixed_bufs, 32, (lat_dim3){2, 1}, (lat_dim3){4, 4}));
    ASSERT_NO_REPORTS(ctx);
}

TEST(off_by_one_grid)
{
    lat_context *ctx = ck_context(LAT_CHECK_ALL);
    ck_buffers bufs = {0};
    lat_kernel *scale = zoo_kernel(ctx, "off_by_one_grid.cu", "scale");
    lat_kernel *pairs = zoo_kernel(ctx, "off_by_one_grid.cu", "sum_pairs");
    /* n / 256 blocks: the kernel itself is clean... */
    ASSERT_OK(ck_run_like_cli(ctx, scale, &bufs, 1000, (lat_dim3){3}, (lat_dim3){256}));
    ASSERT_NO_REPORTS(ctx);
    /* ...and its map shows the 232 elements it never wrote... */
    ASSERT_OK(lat_check_map_buffer(ctx, bufs.ptr[0], sizeof(float)));
    ASSERT_OK(ck_run_like_cli(ctx, scale, &bufs, 1000, (lat_dim3){3}, (lat_dim3){256}));
    lat_check_map m;
    ASSERT_OK(lat_check_map_get(ctx, bufs.ptr[0], &m));
    size_t never = 0;
    for (size_t i = 0; i < m.count; i++)
        never += m.cells[i].writes == 0;
    ASSERT_EQ(never, 232);
    ASSERT_EQ(m.cells[767].writes, 1);
    ASSERT_EQ(m.cells[768].writes, 0);
    /* ...which the next kernel reads. */
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED,
                  ck_run_like_cli(ctx, pairs, &bufs, 1000, (lat_dim3){2}, (lat_dim3){256}));
    ASSERT_REPORTS(ctx,
        "examples/bugs/off_by_one_grid.cu:17: initcheck: kernel 'sum_pairs', block (1,0,0), threads (128,0,0) to (243,0,0): read of 4 bytes by `out[2 * i]` reads memory never written: element [768] of 'out' [116 times]",
        "examples/bugs/off_by_one_grid.cu:17: initcheck: kernel 'sum_pairs', block (1,0,0), threads (128,0,0) to (243,0,0): read of 4 bytes by `out[2 * i + 1]` reads memory never written: element [769] of 'out' [116 times]");
    assert_documented(ctx, "off_by_one_grid.cu");
}

TEST(off_by_one_grid_fixed)
{
    lat_context *ctx = ck_context(LAT_CHECK_ALL);
    ck_buffers bufs = {0};
    lat_kernel *scale = zoo_kernel(ctx, "off_by_one_grid.cu", "scale");
    lat_kernel *pairs = zoo_kernel(ctx, "off_by_one_grid.cu", "sum_pairs");
    ASSERT_OK(ck_run_like_cli(ctx, scale, &bufs, 1000, (lat_dim3){(1000 + 255) / 256}, (lat_dim3){256}));
    ASSERT_OK(ck_run_like_cli(ctx, pairs, &bufs, 1000, (lat_dim3){2}, (lat_dim3){256}));
    ASSERT_NO_REPORTS(ctx);
}

/* Checked launches run a kernel as region loops where they and fibers cannot differ, and
 * on fibers otherwise (LATTICE_EMU_FIBERS forces fibers): every zoo kernel, buggy or
 * fixed, gets the same reports from both, so the two ways of running a kernel check
 * each other. */
static size_t reports_of(const char *file, const char *kernel, bool fibers, unsigned n,
                         lat_dim3 grid, lat_dim3 block, char ***out)
{
    if (fibers)
        t_setenv("LATTICE_EMU_FIBERS", "1");
    lat_context *ctx = ck_context(LAT_CHECK_ALL);
    /* Another text for fibers: the compile cache would hand the first module back. */
    lat_kernel *k = zoo_kernel_with(ctx, file, kernel, fibers ? "// on fibers\n" : "");
    t_unsetenv("LATTICE_EMU_FIBERS");
    ck_buffers bufs = {0};
    lat_status st = ck_run_like_cli(ctx, k, &bufs, n, grid, block);
    size_t count = lat_check_report_count(ctx);
    ASSERT_TRUE(st == LAT_OK ? count == 0 : st == LAT_ERROR_CHECK_FAILED && count > 0);
    *out = t_calloc(count + 1, sizeof **out);
    for (size_t i = 0; i < count; i++)
        (*out)[i] = strcpy(t_calloc(strlen(ck_msg(ctx, i)) + 1, 1), ck_msg(ctx, i));
    return count;
}

TEST(region_loops_and_fibers_report_alike)
{
    lat_backend_kind kind = t_require_backend();
    if (kind != LAT_BACKEND_EMU)
        SKIP("the checks run on the emulator only");
    static const struct {
        const char *file, *kernel;
        unsigned n;
        lat_dim3 grid, block;
    } runs[] = {
        {"bounds.cu", "scale", 1000, {4, 1, 1}, {256, 1, 1}},
        {"bounds.cu", "scale_fixed", 1000, {4, 1, 1}, {256, 1, 1}},
        {"missing_barrier.cu", "reverse", 512, {2, 1, 1}, {256, 1, 1}},
        {"missing_barrier.cu", "reverse_fixed", 512, {2, 1, 1}, {256, 1, 1}},
        {"divergent_barrier.cu", "halves", 64, {1, 1, 1}, {64, 1, 1}},
        {"divergent_barrier.cu", "halves_fixed", 64, {1, 1, 1}, {64, 1, 1}},
        {"racy_counter.cu", "count_positive", 512, {2, 1, 1}, {256, 1, 1}},
        {"atomic_mixed.cu", "histogram", 512, {2, 1, 1}, {256, 1, 1}},
        {"atomic_mixed.cu", "histogram_fixed", 512, {2, 1, 1}, {256, 1, 1}},
        {"uninit_shared.cu", "smooth", 512, {2, 1, 1}, {256, 1, 1}},
        {"wrong_2d_index.cu", "fill", 32, {2, 1, 1}, {4, 4, 1}},
        {"off_by_one_grid.cu", "scale", 1000, {3, 1, 1}, {256, 1, 1}},
    };
    size_t total = 0;
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        char **loops, **fibers;
        size_t a = reports_of(runs[r].file, runs[r].kernel, false, runs[r].n, runs[r].grid,
                              runs[r].block, &loops);
        size_t b = reports_of(runs[r].file, runs[r].kernel, true, runs[r].n, runs[r].grid,
                              runs[r].block, &fibers);
        ASSERT_MSG(a == b, "%s: %zu reports from region loops, %zu from fibers", runs[r].kernel, a, b);
        for (size_t i = 0; i < a; i++)
            ASSERT_STR_EQ(loops[i], fibers[i]);
        total += a;
    }
    ASSERT_GE(total, 8); /* the buggy kernels did report */
}
