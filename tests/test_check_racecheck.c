/* racecheck (lattice/check.h): two threads touching the same bytes, one of them writing,
 * with no barrier between them, in shared or global memory, in a block or between
 * blocks; barriers, warp synchronisation, distinct bytes and atomics are not races. */
#include "check_util.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

static const char *const sync_define[] = {"SYNC", NULL};

TEST(a_shared_read_of_another_threads_write_needs_a_barrier)
{
    lat_context *ctx = ck_context(LAT_CHECK_RACECHECK);
    static const char *const src = "__global__ void shift(int *out)\n"
                                   "{\n"
                                   "    __shared__ int s[64];\n"
                                   "    int t = threadIdx.x;\n"
                                   "    s[t] = t;\n"
                                   "#ifdef SYNC\n"
                                   "    __syncthreads();\n"
                                   "#endif\n"
                                   "    out[t] = s[(t + 1) % 64];\n"
                                   "}\n";
    lat_deviceptr out = t_device_copy(ctx, NULL, 64 * sizeof(int));
    void *params[] = {&out};
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(ck_kernel(ctx, src, "shift.cu", "shift"), 1, 64, params));
    ASSERT_REPORTS(ctx,
                   "shift.cu:5: racecheck: kernel 'shift', block (0,0,0), thread (1,0,0): data "
                   "race: write of `s[t]` after the read of `s[(t + 1) % 64]` at shift.cu:9 by "
                   "thread (0,0,0) of the same block, with no barrier between them, on element "
                   "[1] of __shared__ 's' [63 times]",
                   "shift.cu:9: racecheck: kernel 'shift', block (0,0,0), thread (63,0,0): data "
                   "race: read of `s[(t + 1) % 64]` after the write of `s[t]` at shift.cu:5 by "
                   "thread (0,0,0) of the same block, with no barrier between them, on element "
                   "[0] of __shared__ 's'");
    const lat_check_report *r = lat_check_report_get(ctx, 1);
    ASSERT_EQ(r->kind, LAT_CHECK_RACE);
    ASSERT_EQ(r->check, LAT_CHECK_RACECHECK);
    ASSERT_EQ(r->access.kind, LAT_ACCESS_READ);
    ASSERT_EQ(r->access.thread.x, 63);
    ASSERT_EQ(r->other.kind, LAT_ACCESS_WRITE);
    ASSERT_EQ(r->other.thread.x, 0);
    ASSERT_EQ(r->other.line, 5);
    ASSERT_STR_EQ(r->other.expr, "s[t]");
    ASSERT_EQ(r->space, LAT_SPACE_SHARED);
    ASSERT_STR_EQ(r->region_name, "s");
    /* With the barrier: nothing. */
    ASSERT_OK(ck_launch(ck_kernel_d(ctx, src, "shift.cu", "shift", sync_define), 1, 64, params));
    ASSERT_NO_REPORTS(ctx);
}

TEST(blocks_writing_the_same_global_element_race)
{
    lat_context *ctx = ck_context(LAT_CHECK_RACECHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void last(int *out)\n"
                              "{\n"
                              "    if (threadIdx.x == 0)\n"
                              "        out[0] = blockIdx.x;\n"
                              "}\n",
                              "last.cu", "last");
    lat_deviceptr out = t_device_copy(ctx, NULL, sizeof(int));
    void *params[] = {&out};
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(k, 3, 32, params));
    ASSERT_REPORTS(ctx, "last.cu:4: racecheck: kernel 'last', block (1,0,0), thread (0,0,0): "
                        "data race: write of `out[0]` after the write of `out[0]` at last.cu:4 "
                        "by thread (0,0,0) of block (0,0,0), with no barrier between them, on "
                        "element [0] of a 4-byte allocation [2 times]");
    ASSERT_EQ(lat_check_report_get(ctx, 0)->other.block.x, 0);
    ASSERT_EQ(lat_check_report_get(ctx, 0)->space, LAT_SPACE_GLOBAL);
    /* One block: no race. Separate launches never race with each other. */
    ASSERT_OK(ck_launch(k, 1, 32, params));
    ASSERT_OK(ck_launch(k, 1, 32, params));
    ASSERT_NO_REPORTS(ctx);
}

TEST(threads_of_a_block_sharing_a_global_element_race)
{
    lat_context *ctx = ck_context(LAT_CHECK_RACECHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void halve(int *out)\n"
                              "{\n"
                              "    out[threadIdx.x / 2] += 1;\n"
                              "}\n",
                              "halve.cu", "halve");
    lat_deviceptr out = t_device_copy(ctx, NULL, 16 * sizeof(int));
    void *params[] = {&out};
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(k, 1, 32, params));
    ASSERT_REPORTS(ctx, "halve.cu:3: racecheck: kernel 'halve', block (0,0,0), thread (1,0,0): "
                        "data race: read-write of `out[threadIdx.x / 2]` after the read-write of "
                        "`out[threadIdx.x / 2]` at halve.cu:3 by thread (0,0,0) of the same "
                        "block, with no barrier between them, on element [0] of a 64-byte "
                        "allocation [16 times]");
}

TEST(reads_distinct_bytes_and_atomics_do_not_race)
{
    lat_context *ctx = ck_context(LAT_CHECK_RACECHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void fine(char *bytes, const int *in, int *total)\n"
                              "{\n"
                              "    __shared__ int count;\n"
                              "    int t = threadIdx.x;\n"
                              "    if (t == 0) count = 0;\n"
                              "    __syncthreads();\n"
                              "    bytes[t] = (char)(in[0] + in[t % 4]);\n"
                              "    atomicAdd(&count, 1);\n"
                              "    __syncthreads();\n"
                              "    if (t == 0) atomicAdd(total, count);\n"
                              "}\n",
                              "fine.cu", "fine");
    int in[4] = {1, 2, 3, 4};
    lat_deviceptr bytes = t_device_copy(ctx, NULL, 64), din = t_device_copy(ctx, in, sizeof in);
    lat_deviceptr total = t_device_copy(ctx, NULL, sizeof(int));
    ASSERT_OK(lat_memset_d32(ctx, total, 0, 1));
    void *params[] = {&bytes, &din, &total};
    ASSERT_OK(ck_launch(k, 2, 32, params));
    ASSERT_NO_REPORTS(ctx);
    int t;
    ASSERT_OK(lat_memcpy_dtoh(ctx, &t, total, sizeof t));
    ASSERT_EQ(t, 64);
}

TEST(syncwarp_orders_the_lanes_of_a_warp)
{
    lat_context *ctx = ck_context(LAT_CHECK_RACECHECK);
    static const char *const src = "__global__ void wsum(int *out)\n"
                                   "{\n"
                                   "    __shared__ int s[32];\n"
                                   "    int t = threadIdx.x;\n"
                                   "    s[t] = t;\n"
                                   "    for (int d = 16; d > 0; d /= 2) {\n"
                                   "#ifdef SYNC\n"
                                   "        __syncwarp();\n"
                                   "#endif\n"
                                   "        int v = t < d ? s[t + d] : 0;\n"
                                   "#ifdef SYNC\n"
                                   "        __syncwarp();\n"
                                   "#endif\n"
                                   "        s[t] += v;\n"
                                   "    }\n"
                                   "    if (t == 0) out[0] = s[0];\n"
                                   "}\n";
    lat_deviceptr out = t_device_copy(ctx, NULL, sizeof(int));
    void *params[] = {&out};
    ASSERT_OK(ck_launch(ck_kernel_d(ctx, src, "wsum.cu", "wsum", sync_define), 1, 32, params));
    ASSERT_NO_REPORTS(ctx);
    int sum;
    ASSERT_OK(lat_memcpy_dtoh(ctx, &sum, out, sizeof sum));
    ASSERT_EQ(sum, 31 * 32 / 2);
    /* Without __syncwarp the lanes are not in lockstep: the reads race the writes. */
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(ck_kernel(ctx, src, "wsum.cu", "wsum"), 1, 32, params));
    ASSERT_GE(lat_check_report_count(ctx), 1);
    ASSERT_EQ(lat_check_report_get(ctx, 0)->kind, LAT_CHECK_RACE);
    ASSERT_STR_EQ(lat_check_report_get(ctx, 0)->region_name, "s");
}

/* Rodinia BFS's shape: every thread that finds work sets one flag to true. A race between
 * writes of one value is a note (benign on every GPU today, but undefined), and fails no
 * launch; writes of different values to one place stay an error. */
static const char *const flag_src = "__global__ void frontier(const int *mask, int *over, int *who)\n"
                                    "{\n"
                                    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                    "    if (mask[i])\n"
                                    "        *over = 1;\n"
                                    "    if (mask[i] > 1)\n"
                                    "        *who = i;\n"
                                    "}\n";

TEST(writes_of_the_same_value_are_a_note_and_of_different_values_an_error)
{
    lat_context *ctx = ck_context(LAT_CHECK_ALL);
    lat_kernel *k = ck_kernel(ctx, flag_src, "bfs.cu", "frontier");
    int mask[256];
    for (int i = 0; i < 256; i++)
        mask[i] = i % 3 == 0;
    lat_deviceptr m = t_device_copy(ctx, mask, sizeof mask);
    lat_deviceptr over = t_device_copy(ctx, NULL, sizeof(int));
    lat_deviceptr who = t_device_copy(ctx, NULL, sizeof(int));
    ASSERT_OK(lat_memset_d32(ctx, over, 0, 1));
    ASSERT_OK(lat_memset_d32(ctx, who, 0, 1));
    void *params[] = {&m, &over, &who};
    ASSERT_OK(ck_launch(k, 4, 64, params));
    ASSERT_EQ(lat_check_report_count(ctx), 1);
    const lat_check_report *r = lat_check_report_get(ctx, 0);
    ASSERT_EQ(r->kind, LAT_CHECK_RACE);
    ASSERT_TRUE(r->note);
    ASSERT_CONTAINS(r->message, "bfs.cu:5: racecheck: kernel 'frontier', block (0,0,0), thread "
                                "(3,0,0): data race between writes of the same value: write of "
                                "`*over` after the write of `*over` at bfs.cu:5 by thread (0,0,0) "
                                "of the same block");
    ASSERT_CONTAINS(r->message, "(benign on every GPU today, but undefined: a note, not an error)");
    /* Between blocks too, counted with the others of its place: 86 writers, 85 races. */
    ASSERT_EQ(r->count, 85);
    /* Two threads writing their own index: an error, and the launch fails. */
    mask[5] = mask[200] = 2;
    ASSERT_OK(lat_memcpy_htod(ctx, m, mask, sizeof mask));
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(k, 4, 64, params));
    r = lat_check_report_get(ctx, 0);
    ASSERT_TRUE(!r->note);
    ASSERT_CONTAINS(r->message, "bfs.cu:7: racecheck: kernel 'frontier', block (3,0,0), thread "
                                "(8,0,0): data race: write of `*who` after the write of `*who` "
                                "at bfs.cu:7 by thread (5,0,0) of block (0,0,0)");
    ASSERT_CONTAINS(lat_last_error(), "bfs.cu:7: racecheck");
}

/* A racy program whose blocks read what other blocks write, and a shared-memory race
 * that leaves memory unwritten: every report, its order and its count are the same with
 * 1, 2 and 16 OpenMP threads, under every schedule, and the first names the cause. */
static const char *const racy_src =
    "__global__ void racy(int *a, int *b, int n)\n"
    "{\n"
    "    __shared__ int s[64];\n"
    "    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;\n"
    "    if (t < 32)\n"
    "        s[t] = i;\n"
    "    a[i] = i;\n"
    "    b[i] = a[(i + 64) % n] + s[63 - t];\n"
    "    if (t == 0)\n"
    "        a[(i + 130) % n] = blockIdx.x;\n"
    "}\n";

static char *reports_text(lat_context *ctx)
{
    size_t n = lat_check_report_count(ctx), len = 1;
    for (size_t i = 0; i < n; i++)
        len += strlen(ck_msg(ctx, i)) + 1;
    char *s = calloc(1, len);
    ASSERT_TRUE(s);
    for (size_t i = 0; i < n; i++) {
        strcat(s, ck_msg(ctx, i));
        strcat(s, "\n");
    }
    return s;
}

TEST(reports_are_the_same_on_any_number_of_threads_and_in_cause_order)
{
    static const lat_check_options orders[] = {
        {.order = LAT_SCHEDULE_FORWARD},
        {.order = LAT_SCHEDULE_REVERSE},
        {.order = LAT_SCHEDULE_RANDOM, .seed = 77},
        {.order = LAT_SCHEDULE_RANDOM, .seed = 78, .preempt = 1},
    };
    enum { N = 64 * 40 };
    for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++) {
        char *first = NULL;
        static const int threads[] = {1, 2, 16};
        for (int ti = 0; ti < 3; ti++) {
            omp_set_num_threads(threads[ti]);
            lat_context *ctx = ck_context(LAT_CHECK_ALL);
            ASSERT_OK(lat_check_configure(ctx, &orders[o]));
            lat_kernel *k = ck_kernel(ctx, racy_src, "racy.cu", "racy");
            lat_deviceptr a = t_device_copy(ctx, NULL, N * sizeof(int));
            lat_deviceptr b = t_device_copy(ctx, NULL, N * sizeof(int));
            int n = N;
            void *params[] = {&a, &b, &n};
            ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(k, N / 64, 64, params));
            char *text = reports_text(ctx);
            /* A race comes before the reads of memory never written it leads to. */
            ASSERT_CONTAINS(lat_last_error(), "racecheck");
            ASSERT_EQ(lat_check_report_get(ctx, 0)->kind, LAT_CHECK_RACE);
            ASSERT_TRUE(strstr(text, "initcheck") > strstr(text, "racecheck"));
            if (!first)
                first = text;
            else {
                ASSERT_MSG(strcmp(first, text) == 0, "schedule %zu, %d threads:\n%s\nvs 1 thread:\n%s",
                           o, threads[ti], text, first);
                free(text);
            }
        }
        free(first);
    }
    omp_set_num_threads(omp_get_num_procs());
}

/* Races and reads never written over many pages of an allocation (the checks replay the
 * pages in shards, in parallel) and misaligned writes over the boundary of two pages (an
 * access in two shards): the same reports with 1, 2 and 16 threads. The values written do
 * not depend on the racy reads, so that which writes left the same value does not either. */
static const char *const wide_src =
    "__global__ void wide(int *a, int n)\n"
    "{\n"
    "    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;\n"
    "    a[i] = i;\n"
    "    int v = a[(i * 1031 + 4096) % n];\n"
    "    if (t == 1)\n"
    "        *(int *)((char *)a + 4094 + 4096 * (blockIdx.x % 8)) = blockIdx.x / 2;\n"
    "    if (t == 2)\n"
    "        v += *(int *)((char *)a + 8190 + 4096 * (blockIdx.x % 5));\n"
    "    if (n < 0)\n"
    "        a[0] = v;\n"
    "}\n";

TEST(reports_over_many_pages_are_the_same_on_any_number_of_threads)
{
    static const lat_check_options orders[] = {
        {.order = LAT_SCHEDULE_FORWARD},
        {.order = LAT_SCHEDULE_RANDOM, .seed = 5},
        {.order = LAT_SCHEDULE_FORWARD, .max_reports = 3},
    };
    enum { N = 64 * 512 };
    for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++) {
        char *first = NULL;
        unsigned long long count0 = 0;
        static const int threads[] = {1, 2, 16};
        for (int ti = 0; ti < 3; ti++) {
            omp_set_num_threads(threads[ti]);
            lat_context *ctx = ck_context(LAT_CHECK_ALL);
            ASSERT_OK(lat_check_configure(ctx, &orders[o]));
            lat_kernel *k = ck_kernel(ctx, wide_src, "wide.cu", "wide");
            lat_deviceptr a = t_device_copy(ctx, NULL, N * sizeof(int));
            int n = N;
            void *params[] = {&a, &n};
            ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(k, N / 64, 64, params));
            char *text = reports_text(ctx);
            unsigned long long count = 0;
            for (size_t i = 0; i < lat_check_report_count(ctx); i++)
                count += lat_check_report_get(ctx, i)->count;
            if (!first) {
                first = text;
                count0 = count;
                if (!orders[o].max_reports) {
                    ASSERT_CONTAINS(text, "racecheck");
                    ASSERT_CONTAINS(text, "initcheck");
                }
            } else {
                ASSERT_MSG(strcmp(first, text) == 0, "options %zu, %d threads:\n%s\nvs 1 thread:\n%s",
                           o, threads[ti], text, first);
                ASSERT_EQ(count, count0);
                free(text);
            }
        }
        free(first);
    }
    omp_set_num_threads(omp_get_num_procs());
}

/* More blocks than a checked launch keeps waiting for their turn (4096), block 0 slow so
 * that the others run far ahead of it, findings in blocks all over the grid and a block
 * that fails: with racecheck (blocks committed in order) and with memcheck alone (blocks
 * kept as they end), the same reports with 1, 2 and 16 threads, and none from the blocks
 * after the failed one. */
static const char *const many_src =
    "__global__ void many(int *a, int n, int slow)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (blockIdx.x == 0 && threadIdx.x == 0)\n"
    "        for (int k = 0; k < slow; k++)\n"
    "            a[blockDim.x + (k & 7)] += k;\n"
    "    a[i] = i;\n"
    "    if (threadIdx.x == 0 && blockIdx.x % 1500 == 7)\n"
    "        a[n + blockIdx.x % 4000] = 1;\n"
    "    if (threadIdx.x == 1 && blockIdx.x == 6007)\n"
    "        __trap();\n"
    "}\n";

TEST(reports_of_a_long_grid_with_a_slow_block_are_the_same_on_any_number_of_threads)
{
    static const unsigned modes[] = {LAT_CHECK_MEMCHECK | LAT_CHECK_RACECHECK, LAT_CHECK_MEMCHECK};
    enum { BLOCKS = 10000, BLOCK = 16, N = BLOCKS * BLOCK };
    for (size_t m = 0; m < 2; m++) {
        char *first = NULL;
        static const int threads[] = {1, 2, 16};
        for (int ti = 0; ti < 3; ti++) {
            omp_set_num_threads(threads[ti]);
            lat_context *ctx = ck_context(modes[m]);
            lat_kernel *k = ck_kernel(ctx, many_src, "many.cu", "many");
            lat_deviceptr a = t_device_copy(ctx, NULL, N * sizeof(int));
            int n = N, slow = 200000;
            void *params[] = {&a, &n, &slow};
            ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, ck_launch(k, BLOCKS, BLOCK, params));
            char *text = reports_text(ctx);
            /* Blocks 7, 1507, 3007, 4507 and 6007 write past the end; 7507 and 9007 come
             * after the failed block. */
            unsigned long long oob = 0;
            for (size_t i = 0; i < lat_check_report_count(ctx); i++)
                if (lat_check_report_get(ctx, i)->kind == LAT_CHECK_OUT_OF_BOUNDS)
                    oob += lat_check_report_get(ctx, i)->count;
            ASSERT_MSG(oob == 5, "%llu writes past the end reported:\n%s", oob, text);
            ASSERT_CONTAINS(text, "block (7,0,0)");
            if (modes[m] & LAT_CHECK_RACECHECK)
                ASSERT_CONTAINS(text, "data race");
            if (!first) {
                first = text;
            } else {
                ASSERT_MSG(strcmp(first, text) == 0, "modes %u, %d threads:\n%s\nvs 1 thread:\n%s",
                           modes[m], threads[ti], text, first);
                free(text);
            }
        }
        free(first);
    }
    omp_set_num_threads(omp_get_num_procs());
}

/* A write after the reads of several threads races with each of them, also when the
 * writer read last: thread 0 and thread 1 read s[0], then the writer writes it. The
 * writer is the last thread to read in the schedule's order (thread 1 forward, thread 0
 * in reverse), so a record that keeps the last reader only sees the writer's own read. */
static const char *const last_reader_src = "__global__ void bump(int *out, int writer)\n"
                                           "{\n"
                                           "    __shared__ int s[1];\n"
                                           "    if (threadIdx.x == 0) s[0] = 5;\n"
                                           "    __syncthreads();\n"
                                           "    int v = s[0];\n"
                                           "    if (threadIdx.x == writer) s[0] = v + 1;\n"
                                           "    out[threadIdx.x] = v;\n"
                                           "}\n";

TEST(a_write_races_with_the_other_readers_when_the_writer_read_last)
{
    static const struct {
        lat_schedule_order order;
        int writer, other;
    } cases[] = {{LAT_SCHEDULE_FORWARD, 1, 0}, {LAT_SCHEDULE_REVERSE, 0, 1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        lat_context *ctx = ck_context(LAT_CHECK_RACECHECK);
        ASSERT_OK(lat_check_configure(ctx, &(lat_check_options){.order = cases[c].order}));
        lat_deviceptr out = t_device_copy(ctx, NULL, 2 * sizeof(int));
        int writer = cases[c].writer;
        void *params[] = {&out, &writer};
        ASSERT_STATUS(LAT_ERROR_CHECK_FAILED,
                      ck_launch(ck_kernel(ctx, last_reader_src, "bump.cu", "bump"), 1, 2, params));
        char want[512];
        snprintf(want, sizeof want,
                 "bump.cu:7: racecheck: kernel 'bump', block (0,0,0), thread (%d,0,0): data "
                 "race: write of `s[0]` after the read of `s[0]` at bump.cu:6 by thread "
                 "(%d,0,0) of the same block, with no barrier between them, on element [0] of "
                 "__shared__ 's'",
                 cases[c].writer, cases[c].other);
        ASSERT_REPORTS(ctx, want);
    }
}

/* The same in global memory, between blocks: block 0 reads, block 1 reads then writes. */
TEST(a_global_write_races_with_an_earlier_blocks_read_when_the_writer_read_last)
{
    lat_context *ctx = ck_context(LAT_CHECK_RACECHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void carry(int *g, int *out)\n"
                              "{\n"
                              "    int v = g[0];\n"
                              "    if (blockIdx.x == 1) g[0] = v + 1;\n"
                              "    out[blockIdx.x] = v;\n"
                              "}\n",
                              "carry.cu", "carry");
    lat_deviceptr g = t_device_copy(ctx, (int[]){41}, sizeof(int));
    lat_deviceptr out = t_device_copy(ctx, NULL, 2 * sizeof(int));
    void *params[] = {&g, &out};
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(k, 2, 1, params));
    ASSERT_REPORTS(ctx, "carry.cu:4: racecheck: kernel 'carry', block (1,0,0), thread (0,0,0): "
                        "data race: write of `g[0]` after the read of `g[0]` at carry.cu:3 by "
                        "thread (0,0,0) of block (0,0,0), with no barrier between them, on "
                        "element [0] of a 4-byte allocation");
}

/* The second reader is judged as any reader is: lane 1's read is ordered before lane 0's
 * write by __syncwarp, thread 33's (another warp) is not. Under each schedule, whichever
 * of the two threads read first. */
static const char *const two_readers_src = "__global__ void pair(int *out, int other)\n"
                                           "{\n"
                                           "    __shared__ int s[1];\n"
                                           "    if (threadIdx.x == 0) s[0] = 5;\n"
                                           "    __syncthreads();\n"
                                           "    int v = 0;\n"
                                           "    if (threadIdx.x == 0 || threadIdx.x == other) v = s[0];\n"
                                           "    __syncwarp();\n"
                                           "    if (threadIdx.x == 0) s[0] = v + 1;\n"
                                           "    out[threadIdx.x] = v;\n"
                                           "}\n";

TEST(a_second_reader_synchronised_by_syncwarp_does_not_race)
{
    static const lat_check_options orders[] = {
        {.order = LAT_SCHEDULE_FORWARD},
        {.order = LAT_SCHEDULE_REVERSE},
        {.order = LAT_SCHEDULE_RANDOM, .seed = 3},
    };
    for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++) {
        for (int other = 1; other <= 33; other += 32) {
            lat_context *ctx = ck_context(LAT_CHECK_RACECHECK);
            ASSERT_OK(lat_check_configure(ctx, &orders[o]));
            lat_deviceptr out = t_device_copy(ctx, NULL, 64 * sizeof(int));
            void *params[] = {&out, &other};
            lat_kernel *k = ck_kernel(ctx, two_readers_src, "pair.cu", "pair");
            if (other == 1) {
                ASSERT_OK(ck_launch(k, 1, 64, params));
                ASSERT_NO_REPORTS(ctx);
                continue;
            }
            ASSERT_STATUS(LAT_ERROR_CHECK_FAILED, ck_launch(k, 1, 64, params));
            ASSERT_REPORTS(ctx, "pair.cu:9: racecheck: kernel 'pair', block (0,0,0), thread "
                                "(0,0,0): data race: write of `s[0]` after the read of `s[0]` "
                                "at pair.cu:7 by thread (33,0,0) of the same block, with no "
                                "barrier between them, on element [0] of __shared__ 's'");
        }
    }
}

/* Reads of an allocation that no access of the launch writes are not logged (they race
 * with nothing): each way a kernel can write the allocation another parameter reads must
 * still make those reads count. Block 0 reads in[0], block 1 writes the same int. (An
 * atomic and a plain access are not judged against each other at all.) */
TEST(a_read_races_with_a_write_through_any_route_to_its_allocation)
{
    lat_context *ctx = ck_context(LAT_CHECK_RACECHECK);
    static const struct {
        const char *name, *write;
        int in_at; /* where in points, in ints from out (-1: out is another allocation) */
    } routes[] = {
        {"alias", "out[0] = 7;", 0},                            /* out is in */
        {"offset", "out[1] = 7;", 1},                           /* in is out + 1 */
        {"moved", "out += 2; out[-1] = 7;", 1},                 /* arithmetic on out */
        {"reassigned", "out = (int *)in; out[0] = 7;", -1},     /* out made another pointer */
        {"helper", "put((int *)in, 7);", 0},                    /* a device function */
        {"local", "int *w = (int *)in; w[0] = 7;", 0},          /* a local pointer */
        {"loaded", "ptrs[0][0] = 7;", 0},                       /* a pointer in memory */
        {"cast", "((int *)(unsigned long long)in)[0] = 7;", 0}, /* from an integer */
    };
    lat_deviceptr buf = t_device_copy(ctx, (int[]){1, 2, 3, 4}, 4 * sizeof(int));
    lat_deviceptr ptrs = t_device_copy(ctx, &buf, sizeof buf);
    lat_deviceptr sink = t_device_copy(ctx, NULL, sizeof(int));
    for (size_t r = 0; r < sizeof routes / sizeof routes[0]; r++) {
        char src[1024];
        snprintf(src, sizeof src,
                 "__device__ void put(int *p, int v) { p[0] = v; }\n"
                 "__global__ void route(int **ptrs, const int *in, int *out, int *sink)\n"
                 "{\n"
                 "    if (blockIdx.x == 0) sink[0] = in[0];\n"
                 "    else { %s }\n"
                 "}\n",
                 routes[r].write);
        lat_kernel *k = ck_kernel(ctx, src, "route.cu", "route");
        int at = routes[r].in_at;
        lat_deviceptr out = at < 0 ? sink : buf, in = buf + sizeof(int) * (size_t)(at < 0 ? 0 : at);
        void *params[] = {&ptrs, &in, &out, &sink};
        ASSERT_MSG(ck_launch(k, 2, 1, params) == LAT_ERROR_CHECK_FAILED, "%s: no race found", routes[r].name);
        ASSERT_EQ((int)lat_check_report_count(ctx), 1);
        const lat_check_report *rep = lat_check_report_get(ctx, 0);
        ASSERT_MSG(rep->kind == LAT_CHECK_RACE && strcmp(rep->other.expr, "in[0]") == 0 &&
                       rep->access.block.x == 1 && rep->other.block.x == 0,
                   "%s: %s", routes[r].name, ck_msg(ctx, 0));
        ASSERT_OK(lat_check_clear(ctx));
    }
}

/* Reports speak the user's source (issue 42, item 9): a template's instance by its name
 * expression, a member function's call as written (the emulator lowers both), a 2-D
 * __shared__ array's element by its subscripts. */
TEST(reports_name_template_instances_and_member_calls_as_written)
{
    lat_context *ctx = ck_context(LAT_CHECK_RACECHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "#include <cooperative_groups.h>\n"
                              "namespace cg = cooperative_groups;\n"
                              "template <int N>\n"
                              "__global__ void block_reduce(float *out, const float *in)\n"
                              "{\n"
                              "    __shared__ float tile[N / 8][8];\n"
                              "    cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(cg::this_thread_block());\n"
                              "    tile[t8.meta_group_rank()][t8.thread_rank()] = in[threadIdx.x];\n"
                              "    out[threadIdx.x] = tile[t8.meta_group_rank()][(t8.thread_rank() + 1) % 8];\n"
                              "}\n"
                              "template __global__ void block_reduce<32>(float *, const float *);\n",
                              "tpl.cu", "block_reduce<32>");
    float in[32], out[32];
    t_rand_floats(in, 32, -1, 1);
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {32}},
                                  LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_in(in, sizeof in))));
    ASSERT_TRUE(lat_check_report_count(ctx) >= 1);
    const lat_check_report *r = lat_check_report_get(ctx, 0);
    ASSERT_STR_EQ(r->kernel, "block_reduce<32>");
    ASSERT_CONTAINS(ck_msg(ctx, 0), "kernel 'block_reduce<32>'");
    ASSERT_CONTAINS(ck_msg(ctx, 0), "`tile[t8.meta_group_rank()][t8.thread_rank()]`");
    ASSERT_CONTAINS(ck_msg(ctx, 0), "`tile[t8.meta_group_rank()][(t8.thread_rank() + 1) % 8]`");
    /* A 2-D __shared__ array's element by its subscripts, not its flattened index. */
    ASSERT_CONTAINS(ck_msg(ctx, 0), "on element [0][1] of __shared__ 'tile'");
    ASSERT_STR_EQ(r->region_shape, "[4][8]");
}
