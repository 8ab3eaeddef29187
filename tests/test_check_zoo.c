/* The bug zoo (examples/bugs/): each classic mistake gets exactly the report that the file
 * itself shows (and `lattice run` prints), and its corrected kernel gets none. The kernels
 * run as the lattice program runs them: buffers named after the parameters, const ones
 * filled with 0, 1, 2, ... */
#include "check_util.h"

#ifndef TEST_BUGS_DIR
#error "TEST_BUGS_DIR names examples/bugs"
#endif

/* Compiles examples/bugs/FILE under the name the reports use. */
static lat_kernel *zoo_kernel(lat_context *ctx, const char *file, const char *kernel)
{
    char path[512], name[128];
    snprintf(path, sizeof path, "%s/%s", TEST_BUGS_DIR, file);
    snprintf(name, sizeof name, "examples/bugs/%s", file);
    return ck_kernel(ctx, ck_read(path), name, kernel);
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
        "examples/bugs/bounds.cu:6: memcheck: kernel 'scale', block (3,0,0), threads (232,0,0) to (255,0,0): out-of-bounds write of 4 bytes by `out[i]`: element [1000] of 'out', which has 1000 elements of 4 bytes [24 times]",
        "examples/bugs/bounds.cu:6: memcheck: kernel 'scale', block (3,0,0), threads (232,0,0) to (255,0,0): out-of-bounds read of 4 bytes by `in[i]`: element [1000] of 'in', which has 1000 elements of 4 bytes [24 times]");
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
        "examples/bugs/missing_barrier.cu:8: initcheck: kernel 'reverse', block (0,0,0), threads (0,0,0) to (127,0,0): read of 4 bytes by `tile[blockDim.x - 1 - t]` reads memory never written: element [255] of __shared__ 'tile' [256 times]",
        "examples/bugs/missing_barrier.cu:7: racecheck: kernel 'reverse', block (0,0,0), thread (128,0,0): data race: write of `tile[t]` after the read of `tile[blockDim.x - 1 - t]` at examples/bugs/missing_barrier.cu:8 by thread (127,0,0) of the same block, with no barrier between them, on element [128] of __shared__ 'tile' [256 times]",
        "examples/bugs/missing_barrier.cu:8: racecheck: kernel 'reverse', block (0,0,0), thread (128,0,0): data race: read of `tile[blockDim.x - 1 - t]` after the write of `tile[t]` at examples/bugs/missing_barrier.cu:7 by thread (127,0,0) of the same block, with no barrier between them, on element [127] of __shared__ 'tile' [256 times]");
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
        "examples/bugs/divergent_barrier.cu:9: synccheck: kernel 'halves', block (0,0,0), threads (0,0,0) to (31,0,0): divergent barrier: threads (0,0,0) to (31,0,0) wait at __syncthreads() while threads (32,0,0) to (63,0,0) have exited (every thread of a block must reach each barrier)");
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
