/* printf in kernels: every line whole, never interleaved with another thread's, on every
 * backend; and on the emulator with LATTICE_EMU_PRINTF=ordered, ordered by block, then
 * thread, then call, so that output can be compared in CI. */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char src[] =
    "__global__ void say(int n)\n"
    "{\n"
    "    int t = threadIdx.x + blockDim.x * threadIdx.y;\n"
    "    printf(\"block %d thread %d of %d: %s %f\\n\", blockIdx.x, t, n,\n"
    "           \"a fairly long line so that threads would interleave if they could\", t * 0.5);\n"
    "    printf(\"block %d thread %d again\\n\", blockIdx.x, t);\n"
    "}\n";

/* Runs the launch with the process's stdout going to a file; returns what was written. */
static char *capture(lat_context *ctx, lat_kernel *k, const lat_launch_desc *d, int n)
{
    char path[] = "/tmp/lattice_printf_XXXXXX";
    int fd = mkstemp(path);
    ASSERT_TRUE(fd >= 0);
    unlink(path);
    fflush(stdout);
    int saved = dup(1);
    ASSERT_TRUE(saved >= 0);
    ASSERT_TRUE(dup2(fd, 1) == 1);
    lat_status st = lat_launch_args(k, d, LAT_ARGS(lat_arg_i32(n)));
    lat_status sync = lat_context_synchronize(ctx);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    ASSERT_OK(st);
    ASSERT_OK(sync);
    off_t size = lseek(fd, 0, SEEK_END);
    char *text = t_calloc((size_t)size + 1, 1);
    ASSERT_TRUE(pread(fd, text, (size_t)size, 0) == size);
    close(fd);
    return text;
}

/* Whether line is one the kernel prints, for some block and thread. */
static int well_formed(const char *line, int n)
{
    int b, t, m, used = 0;
    double f;
    char word[8];
    if (sscanf(line, "block %d thread %d of %d: a fairly long line so that threads would "
                     "interleave if they could %lf%n", &b, &t, &m, &f, &used) == 4)
        return m == n && f == t * 0.5 && line[used] == '\0';
    if (sscanf(line, "block %d thread %d %7s%n", &b, &t, word, &used) == 3)
        return strcmp(word, "again") == 0 && line[used] == '\0';
    return 0;
}

TEST(lines_are_whole)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx, src, "say");
    enum { B = 16, T = 64 };
    char *text = capture(ctx, k, &(lat_launch_desc){.grid = {B}, .block = {T}}, 42);
    int lines = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        ASSERT_MSG(well_formed(line, 42), "line %d is not one printf's: '%s'", lines, line);
        lines++;
    }
    /* Cross-checking runs the kernel on both of its backends: each prints. */
    ASSERT_EQ(lines, 2 * B * T * (lat_context_backend(ctx) == LAT_BACKEND_CROSS ? 2 : 1));
}

TEST(ordered_output_on_the_emulator)
{
    lat_context *ctx = t_context();
    if (lat_context_backend(ctx) != LAT_BACKEND_EMU)
        SKIP("LATTICE_EMU_PRINTF orders the emulator's output only");
    lat_kernel *k = t_kernel(ctx, src, "say");
    t_setenv("LATTICE_EMU_PRINTF", "ordered");
    char *text = capture(ctx, k, &(lat_launch_desc){.grid = {5}, .block = {8, 4}}, 7);
    t_unsetenv("LATTICE_EMU_PRINTF");
    char *want = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&want, &len);
    ASSERT_NOT_NULL(f);
    for (int b = 0; b < 5; b++)
        for (int t = 0; t < 32; t++)
            fprintf(f, "block %d thread %d of 7: a fairly long line so that threads would "
                       "interleave if they could %f\nblock %d thread %d again\n",
                    b, t, t * 0.5, b, t);
    fclose(f);
    ASSERT_STR_EQ(text, want);
    free(want);
}
