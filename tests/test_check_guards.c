/* The guards of the checked forward variant (src/emu/check/fwd.c, passes/region_gen.c):
 * with initcheck or racecheck on, the optimised code runs a loop or stretch whose accesses
 * are proven without the checks only where they could report nothing: every __shared__
 * variable it touches wholly written (initcheck), nothing written in its barrier interval
 * (racecheck). A guard that is wrong would hide an uninitialised read or a race, so
 * generated kernels of several barrier intervals fill their tiles wholly or not, read
 * them in loops and stretches, write them with and without races; each runs under
 * initcheck, racecheck and all checks on TinyCC's code (every access checked) and on the
 * optimised code, and the reports must be the same, and the results too where the checks
 * keep the threads' order. */
#include "check_util.h"

enum { MAXN = 512, SRC = 16384 };

typedef struct gen {
    ck_src src;
    int la, rows, cols; /* a[la], c[rows][cols] */
    bool tidy;          /* tiles filled first, wholly; no race, a barrier after each interval */
} gen;

/* What a barrier interval does. Loops read or write the tiles at indexes proven in
 * bounds, so that the optimised code may take them unchecked. */
static void interval(gen *g)
{
    int la = g->la, rows = g->rows, cols = g->cols;
    /* Wholly, or all but a few elements: then reads of those are uninitialised. */
    int fill_a = ck_pick(3) || g->tidy ? la : la - 1 - ck_pick(4);
    int fill_c = ck_pick(3) || g->tidy ? rows * cols : rows * cols - 1;
    static const int tidy[] = {0, 1, 2, 3, 5, 8, 14};
    switch (g->tidy ? tidy[ck_pick(7)] : ck_pick(15)) {
    case 0:
        ck_put(&g->src, "for (int q = t; q < %d; q += blockDim.x) a[q] = in[q %% n] + acc;\n", fill_a);
        return;
    case 1:
        ck_put(&g->src, "for (int q = t; q < %d; q += blockDim.x) c[q / %d][q %% %d] = 0.5f * q;\n", fill_c, cols, cols);
        return;
    case 2: /* a loop alone in its interval, reading */
        /* (one access per statement: C leaves the order of a * b's operands open, and
         * the tiers' compilers take them differently) */
        ck_put(&g->src, "for (int j = 0; j < %d; j++) { acc += a[(t + j) %% %d]; acc *= c[j %% %d][t %% %d]; }\n",
            1 + ck_pick(40), la, rows, cols);
        return;
    case 3: /* two loops, and a read before the first: the first has accesses on both sides */
        if (ck_pick(2))
            ck_put(&g->src, "acc += a[t %% %d];\n", la);
        ck_put(&g->src, "for (int j = 0; j < %d; j++) acc += a[(t * 3 + j) %% %d];\n", 1 + ck_pick(20), la);
        ck_put(&g->src, "for (int k = %d; k > 0; k /= 2) acc -= c[k %% %d][(t + k) %% %d];\n", 1 + ck_pick(60), rows, cols);
        return;
    case 4: /* a read loop, then a write in the same interval: a race where threads share an element */
        ck_put(&g->src, "for (int j = 0; j < %d; j++) acc += a[(t + j) %% %d];\n", 1 + ck_pick(10), la);
        ck_put(&g->src, "a[t %% %d] = acc;\n", ck_pick(2) ? la : 1 + ck_pick(la));
        return;
    case 5: /* a tree reduction's step: a clean stretch */
        ck_put(&g->src, "if (t < %d) a[t] += a[t + %d];\n", 1 + ck_pick(la / 2), la / 2);
        return;
    case 6: /* a loop writing, racing where threads share a column */
        ck_put(&g->src, "for (int j = 0; j < %d; j++) c[j %% %d][t %% %d] = acc + j;\n", 1 + ck_pick(8), rows, cols);
        return;
    case 7: /* a read of a neighbour's element in a stretch */
        ck_put(&g->src, "acc += a[(t + %d) %% %d];\n", 1 + ck_pick(8), la);
        return;
    case 9: { /* a step whose threads may reach each other's elements: a race where d < x */
        int d = 1 + ck_pick(la / 2), x = 1 + ck_pick(la - d);
        ck_put(&g->src, "if (t < %d) a[t] += a[t + %d];\n", x, d);
        return;
    }
    case 10: { /* the same backwards, under a condition of another form */
        int d = 1 + ck_pick(la / 2), x = d + 1 + ck_pick(la - d);
        ck_put(&g->src, "if (t >= %d && t < %d) a[t] = a[t - %d] + 1.0f;\n", d, x, d);
        return;
    }
    case 11: /* a stretch that reads global memory, writing its thread's element: a race
              * where two rows of threads share it */
        ck_put(&g->src, "if (t < %d) a[t] = in[(t + %d) %% n] * 2.0f;\n", 1 + ck_pick(la), ck_pick(9));
        return;
    case 12: { /* the step of case 9 with a global read in it: the stretch stays checked */
        int d = 1 + ck_pick(la / 2), x = 1 + ck_pick(la - d);
        ck_put(&g->src, "if (t < %d) a[t] = a[t + %d] + in[t %% n];\n", x, d);
        return;
    }
    case 13: { /* one element for every thread: read (no race), or written (a race unless
                * one thread writes it) */
        int x = ck_pick(2) ? 1 : 1 + ck_pick(4), k = ck_pick(la);
        if (ck_pick(2))
            ck_put(&g->src, "if (t < %d) acc += a[%d] * in[t %% n];\n", x, k);
        else
            ck_put(&g->src, "if (t < %d) a[%d] = in[t %% n] + acc;\n", x, k);
        return;
    }
    case 14: /* a loop whose body ends with a barrier: what follows it meets its control */
        ck_put(&g->src, "for (int k = %d; k > 0; k /= 2) { if (t < k) a[t] += a[t + k]; __syncthreads(); }\n",
               la / 2 >> ck_pick(3));
        return;
    default: /* a thread's own element, read and written in a loop */
        ck_put(&g->src, "if (t < %d) for (int j = 0; j < %d; j++) a[t] = a[t] * 0.5f + j;\n", la, 1 + ck_pick(6));
        return;
    }
}

static void generate(gen *g)
{
    static const int sizes[] = {32, 64, 128, 256};
    g->src.len = 0;
    g->la = sizes[ck_pick(4)];
    g->rows = 1 + ck_pick(16);
    g->cols = 1 + ck_pick(32);
    ck_put(&g->src, "__global__ void gen(float *out, const float *in, int n)\n{\n"
           "    __shared__ float a[%d];\n"
           "    __shared__ float c[%d][%d];\n"
           "    int t = threadIdx.x;\n"
           "    float acc = 0;\n",
        g->la, g->rows, g->cols);
    g->tidy = ck_pick(3) == 0;
    if (g->tidy)
        ck_put(&g->src, "for (int q = t; q < %d; q += blockDim.x) a[q] = in[q %% n];\n"
               "for (int q = t; q < %d; q += blockDim.x) c[q / %d][q %% %d] = 0.25f * q;\n"
               "__syncthreads();\n",
            g->la, g->rows * g->cols, g->cols, g->cols);
    int count = 3 + ck_pick(5);
    for (int i = 0; i < count; i++) {
        interval(g);
        if (ck_pick(4) || g->tidy)
            ck_put(&g->src, "__syncthreads();\n");
    }
    ck_put(&g->src, "    out[blockIdx.x * blockDim.x + t] = acc;\n}\n");
}

typedef struct outcome {
    lat_status st;
    char messages[1 << 16];
    float out[MAXN];
} outcome;

/* Kernel `name` of src, on the optimising tier or on TinyCC's code. */
static lat_kernel *compile_on(lat_context *ctx, const char *src, const char *name, bool opt)
{
    return ck_kernel_on_tier(ctx, (lat_module_desc){.source = src, .name = "gen.cu"}, name, opt, NULL);
}

static void run(lat_context *ctx, lat_kernel *k, unsigned grid, unsigned block, unsigned rows, int n,
                lat_deviceptr out, lat_deviceptr in, outcome *o)
{
    static const float zeros[MAXN];
    ASSERT_OK(lat_memcpy_htod(ctx, out, zeros, sizeof zeros));
    void *params[] = {(void *)&out, (void *)&in, &n};
    o->st = lat_launch(k, &(lat_launch_desc){.grid = {grid}, .block = {block, rows}}, params);
    o->messages[0] = '\0';
    for (size_t i = 0; i < lat_check_report_count(ctx); i++)
        snprintf(o->messages + strlen(o->messages), sizeof o->messages - strlen(o->messages), "%s\n",
                 ck_msg(ctx, i));
    ASSERT_OK(lat_memcpy_dtoh(ctx, o->out, out, sizeof o->out));
    ASSERT_OK(lat_check_clear(ctx));
}

static void compare_tiers(unsigned modes, int kernels)
{
    lat_context *ctx = ck_context(modes);
    static char src[SRC];
    static outcome a, b;
    gen g = {{src, 0, SRC}, 0, 0, 0, false};
    float in_host[MAXN];
    t_rand_floats(in_host, MAXN, -2.0f, 2.0f);
    lat_deviceptr out, in;
    ASSERT_OK(lat_mem_alloc(ctx, sizeof(float) * MAXN, &out));
    ASSERT_OK(lat_mem_alloc(ctx, sizeof(float) * MAXN, &in));
    ASSERT_OK(lat_memcpy_htod(ctx, in, in_host, sizeof in_host));
    int reported = 0, clean = 0;
    for (int c = 0; c < kernels; c++) {
        generate(&g);
        lat_kernel *tcc = compile_on(ctx, src, "gen", false), *opt = compile_on(ctx, src, "gen", true);
        for (int l = 0; l < 3; l++) {
            /* Now and then two rows of threads: threadIdx.x is then no thread's alone. */
            unsigned grid = 1 + (unsigned)ck_pick(2), block = 32u << ck_pick(4), rows = block < 256 && !ck_pick(4) ? 2 : 1;
            int n = 1 + ck_pick(MAXN);
            run(ctx, tcc, grid, block, rows, n, out, in, &a);
            run(ctx, opt, grid, block, rows, n, out, in, &b);
            /* initcheck alone lets an implicit loop run its turns for every thread in
             * turn, as unchecked code does: a race's values may differ then, not its
             * reports. With racecheck on, the guards keep every racy loop in order. */
            bool same_values = (modes & LAT_CHECK_RACECHECK) != 0;
            size_t bytes = sizeof(float) * grid * block;
            if (a.st != b.st || strcmp(a.messages, b.messages) != 0 ||
                (same_values && memcmp(a.out, b.out, bytes) != 0))
                t_fail(__FILE__, __LINE__,
                       "kernel %d, grid %u, block %u x %u, n %d: TinyCC and optimised code differ\n%s\n"
                       "status %d vs %d\nTinyCC's reports:\n%s\noptimised code's:\n%s results %s",
                       c, grid, block, rows, n, src, a.st, b.st, a.messages, b.messages,
                       memcmp(a.out, b.out, bytes) ? "differ" : "agree");
            reported += a.messages[0] != '\0';
            clean += a.messages[0] == '\0';
        }
    }
    /* Both kinds of launch were there: with findings, and clean (the guards' fast side). */
    ASSERT_GE(reported, 5);
    ASSERT_GE(clean, 5);
    ASSERT_OK(lat_mem_free(ctx, out));
    ASSERT_OK(lat_mem_free(ctx, in));
}

TEST(generated_kernels_are_reported_alike_by_both_tiers_under_initcheck)
{
    compare_tiers(LAT_CHECK_INITCHECK, 25);
}

TEST(generated_kernels_are_reported_alike_by_both_tiers_under_racecheck)
{
    compare_tiers(LAT_CHECK_RACECHECK, 25);
}

TEST(generated_kernels_are_reported_alike_by_both_tiers_under_all_checks)
{
    compare_tiers(LAT_CHECK_ALL, 25);
}

/* Which side of a guard ran can be seen in a loop whose result depends on the threads'
 * order (a race, which initcheck alone does not look at): run for every thread in turn
 * (unchecked, the guard true), a[x] is last written by thread x - 1 at j = 1; thread by
 * thread (checked), by thread x at j = 0. The guard is true only once the tile is wholly
 * written: so with one element never written (and never read), the loop runs checked. */
TEST(an_initcheck_guard_runs_unchecked_only_over_a_wholly_written_tile)
{
    /* The guards are region loops' own: off fibers for this case, forced or not. */
    const char *forced = getenv("LATTICE_EMU_FIBERS");
    char was[32];
    snprintf(was, sizeof was, "%s", forced ? forced : "");
    t_unsetenv("LATTICE_EMU_FIBERS");
    lat_context *ctx = ck_context(LAT_CHECK_INITCHECK);
    static const char src[] =
        "__global__ void order(float *out, int fill)\n"
        "{\n"
        "    __shared__ float a[128];\n"
        "    int t = threadIdx.x;\n"
        "    if (t < fill) a[t] = -1.0f;\n"
        "    __syncthreads();\n"
        "    for (int j = 0; j < 2; j++)\n"
        "        a[(t + j) % 128] = (float)(t * 10 + j);\n"
        "    __syncthreads();\n"
        "    if (t < fill) out[t] = a[t];\n"
        "}\n";
    lat_kernel *k[2] = {compile_on(ctx, src, "order", false), compile_on(ctx, src, "order", true)};
    lat_deviceptr out;
    ASSERT_OK(lat_mem_alloc(ctx, sizeof(float) * 128, &out));
    for (int whole = 0; whole < 2; whole++) {
        for (int opt = 0; opt < 2; opt++) {
            int fill = whole ? 128 : 127;
            void *params[] = {(void *)&out, &fill};
            ASSERT_OK(ck_launch(k[opt], 1, 128, params));
            ASSERT_NO_REPORTS(ctx);
            float h[128];
            ASSERT_OK(lat_memcpy_dtoh(ctx, h, out, sizeof(float) * (size_t)fill));
            bool turns = opt && whole;
            for (int x = 1; x < fill; x++)
                ASSERT_MSG(h[x] == (turns ? (float)(10 * (x - 1) + 1) : (float)(10 * x)),
                           "%s, tile %s: a[%d] = %g", opt ? "optimised" : "TinyCC",
                           whole ? "whole" : "not whole", x, (double)h[x]);
        }
    }
    ASSERT_OK(lat_mem_free(ctx, out));
    if (forced)
        t_setenv("LATTICE_EMU_FIBERS", was);
}

/* Found by the generated kernels: in `a[t] += a[t + 128]`, C leaves the order of the two
 * accesses open, and TinyCC's code and gcc's reported them in opposite orders. CUDA's C++
 * evaluates an assignment's right side first: so do both tiers now. Likewise the arguments
 * of the fmaf(-b, c, a) that a - b * c is contracted to, which gcc took right to left:
 * checked code takes a computing built-in's arguments left to right. */
TEST(an_assignment_reports_its_right_side_first_on_both_tiers)
{
    lat_context *ctx = ck_context(LAT_CHECK_INITCHECK);
    static const char src[] =
        "__global__ void both(float *out)\n"
        "{\n"
        "    __shared__ float a[256];\n"
        "    int t = threadIdx.x;\n"
        "    if (t < 8) a[t] += a[t + 128];\n"
        "    if (t < 8) a[t + 64] = a[t + 192];\n"
        "    out[t] = t < 8 ? a[t + 8] - a[t + 16] * a[t + 24] : fmaxf(a[t + 32], a[t + 40]);\n"
        "}\n";
    lat_deviceptr out;
    ASSERT_OK(lat_mem_alloc(ctx, sizeof(float) * 32, &out));
    void *params[] = {(void *)&out};
    static char seen[2][4096];
    for (int opt = 0; opt < 2; opt++) {
        lat_kernel *k = compile_on(ctx, src, "both", opt);
        ASSERT_EQ(ck_launch(k, 1, 32, params), LAT_ERROR_CHECK_FAILED);
        ASSERT_EQ((int)lat_check_report_count(ctx), 8);
        static const char *const first[] = {"`a[t + 128]`", "`a[t]`", "`a[t + 192]`"};
        for (int i = 0; i < 3; i++)
            ASSERT_MSG(strstr(ck_msg(ctx, (size_t)i), first[i]) != NULL, "%s: report %d is not of %s:\n%s",
                       opt ? "optimised" : "TinyCC", i, first[i], ck_msg(ctx, (size_t)i));
        ASSERT_MSG(strstr(ck_msg(ctx, 6), "`a[t + 32]`") && strstr(ck_msg(ctx, 7), "`a[t + 40]`"),
                   "%s: fmaxf's arguments out of order:\n%s\n%s", opt ? "optimised" : "TinyCC", ck_msg(ctx, 6),
                   ck_msg(ctx, 7));
        seen[opt][0] = '\0';
        for (size_t i = 0; i < lat_check_report_count(ctx); i++)
            snprintf(seen[opt] + strlen(seen[opt]), sizeof seen[opt] - strlen(seen[opt]), "%s\n", ck_msg(ctx, i));
        ASSERT_OK(lat_check_clear(ctx));
    }
    ASSERT_MSG(strcmp(seen[0], seen[1]) == 0, "the tiers report in different orders:\n%s\nand\n%s", seen[0], seen[1]);
    ASSERT_OK(lat_mem_free(ctx, out));
}
/* Runs `step` in a block of 256 threads between two barriers, a[t] = t before them and
 * out[t] = a[t] after, on both tiers under racecheck: one race report where race is
 * true, none elsewhere. params: out, and in (its elements 1 + i). */
static void step_on_both_tiers(lat_context *ctx, const char *step, bool race, void **params)
{
    char src[1024];
    snprintf(src, sizeof src,
             "__global__ void step(float *out, const float *in)\n"
             "{\n"
             "    __shared__ float a[256];\n"
             "    int t = threadIdx.x;\n"
             "    a[t] = (float)t;\n"
             "    __syncthreads();\n"
             "    %s\n"
             "    __syncthreads();\n"
             "    out[t] = a[t];\n"
             "}\n",
             step);
    for (int opt = 0; opt < 2; opt++) {
        lat_kernel *k = compile_on(ctx, src, "step", opt);
        lat_status st = ck_launch(k, 1, 256, params);
        ASSERT_MSG(race ? st == LAT_ERROR_CHECK_FAILED && lat_check_report_count(ctx) == 1 &&
                              lat_check_report_get(ctx, 0)->kind == LAT_CHECK_RACE
                        : st == LAT_OK,
                   "%s, %s: %s", step, opt ? "optimised" : "TinyCC",
                   lat_check_report_count(ctx) ? ck_msg(ctx, 0) : "no report");
        ASSERT_OK(lat_check_clear(ctx));
    }
}

/* Buffers of 256 floats for step_on_both_tiers: out, and in holding 1 + i. */
static void step_buffers(lat_context *ctx, lat_deviceptr *out, lat_deviceptr *in)
{
    float host[256];
    for (int i = 0; i < 256; i++)
        host[i] = 1.0f + (float)i;
    ASSERT_OK(lat_mem_alloc(ctx, sizeof host, out));
    ASSERT_OK(lat_mem_alloc(ctx, sizeof host, in));
    ASSERT_OK(lat_memcpy_htod(ctx, *in, host, sizeof host));
}

/* The racecheck guard of a step `if (t < x) a[t] += a[t + d]` (or a[t - d]): it runs
 * unchecked only where no two of its threads reach the same element, so exactly where
 * x <= d; at x = d + 1, thread d writes the element thread 0 reads. Both tiers, every
 * case at its edge. */
TEST(a_step_races_exactly_where_its_threads_reach_each_others_elements)
{
    lat_context *ctx = ck_context(LAT_CHECK_RACECHECK);
    lat_deviceptr out, in;
    step_buffers(ctx, &out, &in);
    void *params[] = {(void *)&out, (void *)&in};
    static const int ds[] = {1, 5, 32, 64};
    for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++) {
        int d = ds[i];
        for (int x = d - 1; x <= d + 1; x++) {
            for (int back = 0; back < 2; back++) {
                char step[128];
                if (back)
                    snprintf(step, sizeof step, "if (t < %d) a[t + %d] = a[t] + 1.0f;", x, d);
                else
                    snprintf(step, sizeof step, "if (t < %d) a[t] += a[t + %d];", x, d);
                step_on_both_tiers(ctx, step, x > d, params);
            }
        }
    }
    ASSERT_OK(lat_mem_free(ctx, out));
    ASSERT_OK(lat_mem_free(ctx, in));
}

/* The same edges for stretches that read global memory, whose accesses stay checked but
 * whose proven __shared__ ones skip racecheck's records where no two threads meet
 * (region_gen.c's __lat_rf): a step with a global read, one element written by x threads
 * (a race from two on) and one element read by all. Both tiers. */
TEST(a_checked_stretch_skips_its_records_exactly_where_its_threads_meet_no_other)
{
    lat_context *ctx = ck_context(LAT_CHECK_RACECHECK);
    lat_deviceptr out, in;
    step_buffers(ctx, &out, &in);
    void *params[] = {(void *)&out, (void *)&in};
    static const int ds[] = {1, 32};
    for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++) {
        int d = ds[i];
        for (int x = d - 1; x <= d + 1; x++) {
            char step[128];
            snprintf(step, sizeof step, "if (t < %d) a[t] += a[t + %d] + in[t];", x, d);
            step_on_both_tiers(ctx, step, x > d, params);
            snprintf(step, sizeof step, "if (t < %d) a[%d] = in[t];", x - d + 1, d);
            step_on_both_tiers(ctx, step, x - d + 1 > 1, params);
            snprintf(step, sizeof step, "if (t < %d) out[t] = a[%d] + in[t];", x, d);
            step_on_both_tiers(ctx, step, false, params);
        }
    }
    ASSERT_OK(lat_mem_free(ctx, out));
    ASSERT_OK(lat_mem_free(ctx, in));
}
