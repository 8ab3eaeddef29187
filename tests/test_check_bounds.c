/* Proofs of bounds (src/emu/passes/bounds.h): memcheck's optimised code makes an access to
 * an array of known size without the checks' calls where the launch's dimensions and
 * parameters prove its index in bounds. A proof that is wrong would hide an overrun: the
 * worst bug the checks can have, since the user trusts a clean report. So generated
 * kernels index __shared__ and local arrays with random expressions of threadIdx,
 * blockIdx, parameters, loop variables and constants, under loops, branches and early
 * returns, in bounds on some launches and out on others; each runs under memcheck on
 * TinyCC's code (which ignores the proofs, every access checked) and on the optimised
 * code, and the reports and results must be the same. */
#include "check_util.h"

enum { MAXN = 512, SRC = 16384 };

typedef struct gen {
    ck_src src;
    int len1, rows, cols;   /* s[len1], t2[rows][cols] */
    int depth;
    const char *loopvar;    /* the innermost loop's variable, or NULL */
} gen;

/* An int expression of what bounds can say something of, or not. */
static void expr(gen *g, int depth)
{
    if (depth <= 0 || ck_pick(3) == 0) {
        switch (ck_pick(g->loopvar ? 8 : 7)) {
        case 0: ck_put(&g->src, "t"); return;
        case 1: ck_put(&g->src, "b"); return;
        case 2: ck_put(&g->src, "%d", (int)ck_pick(40)); return;
        case 3: ck_put(&g->src, "n"); return;
        case 4: ck_put(&g->src, "(int)blockDim.x"); return;
        case 5: ck_put(&g->src, "(int)threadIdx.x"); return;
        case 6: ck_put(&g->src, "m"); return;
        default: ck_put(&g->src, "%s", g->loopvar); return;
        }
    }
    switch (ck_pick(11)) {
    case 0: case 1:
        ck_put(&g->src, "(");
        expr(g, depth - 1);
        ck_put(&g->src, " + ");
        expr(g, depth - 1);
        ck_put(&g->src, ")");
        return;
    case 2:
        ck_put(&g->src, "(");
        expr(g, depth - 1);
        ck_put(&g->src, " - ");
        expr(g, depth - 1);
        ck_put(&g->src, ")");
        return;
    case 3:
        ck_put(&g->src, "(");
        expr(g, depth - 1);
        ck_put(&g->src, " * %d)", (int)ck_pick(5) - 1);
        return;
    case 4:
        ck_put(&g->src, "(");
        expr(g, depth - 1);
        ck_put(&g->src, " / %d)", 1 + (int)ck_pick(8));
        return;
    case 5:
        ck_put(&g->src, "(");
        expr(g, depth - 1);
        ck_put(&g->src, " %% %d)", 1 + (int)ck_pick(300));
        return;
    case 6:
        ck_put(&g->src, "(");
        expr(g, depth - 1);
        ck_put(&g->src, " >> %d)", (int)ck_pick(4));
        return;
    case 7:
        ck_put(&g->src, "(");
        expr(g, depth - 1);
        ck_put(&g->src, " & %d)", (int)ck_pick(512) - 8);
        return;
    case 8:
        ck_put(&g->src, "(");
        expr(g, depth - 1);
        ck_put(&g->src, " < ");
        expr(g, depth - 1);
        ck_put(&g->src, " ? ");
        expr(g, depth - 1);
        ck_put(&g->src, " : ");
        expr(g, depth - 1);
        ck_put(&g->src, ")");
        return;
    case 9:
        ck_put(&g->src, "(int)(unsigned)(");
        expr(g, depth - 1);
        ck_put(&g->src, ")");
        return;
    default:
        ck_put(&g->src, "(int)(short)(");
        expr(g, depth - 1);
        ck_put(&g->src, " * 300)");
        return;
    }
}

/* An index of an array of n elements: as drawn, folded into it, or folded into one
 * element more or less (an overrun by one, on some launches). */
static void index_of(gen *g, int n, int depth)
{
    switch (ck_pick(3)) {
    case 0:
        expr(g, depth);
        return;
    case 1:
        ck_put(&g->src, "(");
        expr(g, depth);
        ck_put(&g->src, ") %% %d", n);
        return;
    default: {
        int m = n + (int)ck_pick(3) - 1;
        ck_put(&g->src, "(");
        expr(g, depth);
        ck_put(&g->src, " & 0x7fffffff) %% %d", m > 0 ? m : 1);
        return;
    }
    }
}

/* One access of an array, read into acc or written. */
static void access(gen *g)
{
    switch (ck_pick(4)) {
    case 0: case 1:
        ck_put(&g->src, "acc += s[");
        index_of(g, g->len1, 3);
        ck_put(&g->src, "];\n");
        return;
    case 2:
        /* A row far from t2 is somewhere in the host's memory, which differs from run
         * to run: rows stay within a few kilobytes of it. */
        ck_put(&g->src, "t2[(");
        index_of(g, g->rows, 2);
        ck_put(&g->src, ") %% 97][");
        index_of(g, g->cols, 2);
        ck_put(&g->src, "] += 1.0f;\n");
        return;
    default:
        ck_put(&g->src, "loc[");
        index_of(g, 8, 2);
        ck_put(&g->src, "] = acc; acc += loc[");
        index_of(g, 8, 2);
        ck_put(&g->src, "];\n");
        return;
    }
}

static void boundary(gen *g)
{
    /* At an array's end: one element short of it, at it, or one past. loc and a
     * row of t2 are shorter than every block, so threadIdx reaches their ends. */
    static const char *const arrays[] = {"s[", "loc[", "t2[0]["};
    int a = (int)ck_pick(3), n = a == 0 ? g->len1 : a == 1 ? 8 : g->cols;
    int d = (int)ck_pick(3) - 1, len = n + d;
    const char *x = ck_pick(2) ? "t" : "(int)threadIdx.x", *arr = arrays[a];
    switch (ck_pick(13)) {
    case 0: ck_put(&g->src, "for (int e = 0; e %s %d; e++) acc += %se];\n", ck_pick(2) ? "<" : "<=", len, arr); break;
    case 1: ck_put(&g->src, "if (%s %s %d) acc += %s%s];\n", x, ck_pick(2) ? "<" : "<=", len, arr, x); break;
    case 2: ck_put(&g->src, "if (%d %s %s) acc += %s%s];\n", len, ck_pick(2) ? ">" : ">=", x, arr, x); break;
    case 3: ck_put(&g->src, "for (int e = %d; e > 0; e /= 2) acc += %se];\n", len, arr); break;
    case 4: ck_put(&g->src, "for (int e = %d; e >= %d; e--) acc += %se];\n", len, (int)ck_pick(3) - 1, arr); break;
    case 5: ck_put(&g->src, "acc += %s%s & %d];\n", arr, x, len); break;
    case 6: ck_put(&g->src, "acc += %s(%s + %d) %% %d];\n", arr, x, (int)ck_pick(5), len > 0 ? len : 1); break;
    case 7: ck_put(&g->src, "if (%d > %s) acc += %s%s + %d];\n", len - 4, x, arr, x, 4 + (int)ck_pick(2)); break;
    case 8: ck_put(&g->src, "if (%s %s %d && %s < %d) acc += %s%s - 5];\n", x, ck_pick(2) ? ">" : ">=", 4 + d, x, n + 5, arr, x); break;
    case 9: ck_put(&g->src, "if (%s < %d) acc += %s%d - %s];\n", x, len, arr, len - 1, x); break;
    case 10: ck_put(&g->src, "if (%s < %d) acc += %s(%s * 3) / 6];\n", x, 2 * len, arr, x); break;
    case 11: ck_put(&g->src, "if (%s < %d) acc += %s%s >> 1];\n", x, 2 * len, arr, x); break;
    default: ck_put(&g->src, "if (%s >= %d && %s < %d) acc += %s%s - 1];\n", x, 1 + d, x, n + 1, arr, x); break;
    }
}

static void statement(gen *g)
{
    static const char *const vars[] = {"j", "k", "d"};
    const char *outer = g->loopvar;
    switch (g->depth < 2 ? ck_pick(8) : ck_pick(2) ? 0 : 6) {
    case 1: case 2: {
        const char *v = vars[g->depth];
        /* Loops that end, after at most a few hundred turns. */
        if (ck_pick(2)) {
            ck_put(&g->src, "for (int %s = (", v);
            expr(g, 1);
            ck_put(&g->src, ") %% 50; %s %s (", v, ck_pick(2) ? "<" : "<=");
            expr(g, 2);
            ck_put(&g->src, ") %% 97; %s += %d) {\n", v, 1 + (int)ck_pick(3));
        } else if (ck_pick(2)) {
            ck_put(&g->src, "for (int %s = (", v);
            expr(g, 2);
            ck_put(&g->src, ") %% 97; %s %s (", v, ck_pick(2) ? ">" : ">=");
            expr(g, 1);
            ck_put(&g->src, ") %% 50; %s--) {\n", v);
        } else {
            ck_put(&g->src, "for (int %s = ", v);
            expr(g, 2);
            ck_put(&g->src, "; %s > 0; %s %s) {\n", v, v, ck_pick(2) ? "/= 2" : ">>= 1");
        }
        g->depth++;
        g->loopvar = v;
        statement(g);
        statement(g);
        g->loopvar = outer;
        g->depth--;
        ck_put(&g->src, "}\n");
        return;
    }
    case 3: {
        const char *x = g->loopvar && ck_pick(2) ? g->loopvar : ck_pick(2) ? "t" : "v";
        ck_put(&g->src, "if (%s %s ", x, ck_pick(2) ? "<" : ck_pick(2) ? ">=" : "<=");
        expr(g, 2);
        ck_put(&g->src, ") {\n");
        g->depth++;
        statement(g);
        g->depth--;
        ck_put(&g->src, "} else {\n");
        access(g);
        ck_put(&g->src, "}\n");
        return;
    }
    case 4:
        ck_put(&g->src, "if (t %s ", ck_pick(2) ? ">=" : ">");
        expr(g, 2);
        ck_put(&g->src, ") %s;\n", g->loopvar ? (ck_pick(2) ? "continue" : "break") : "return");
        return;
    case 6:
        boundary(g);
        return;
    case 5:
        ck_put(&g->src, "{ int w = ");
        expr(g, 2);
        ck_put(&g->src, "; acc += s[w]; if (w < %d && w >= 0) acc += s[w + %d]; }\n", g->len1 - 8, (int)ck_pick(10));
        return;
    default:
        access(g);
        return;
    }
}

static void generate(gen *g)
{
    g->src.len = 0;
    g->len1 = 16 + (int)ck_pick(240);
    g->rows = 1 + (int)ck_pick(16);
    g->cols = 1 + (int)ck_pick(32);
    g->depth = 0;
    g->loopvar = NULL;
    ck_put(&g->src, "__global__ void gen(float *out, const float *in, int n, int m)\n{\n"
           "    __shared__ float s[%d];\n"
           "    __shared__ float t2[%d][%d];\n"
           "    float loc[8]%s;\n"
           "    int t = threadIdx.x, b = blockIdx.x, v = t + m;\n"
           "    for (int q = t; q < %d; q += blockDim.x) s[q] = in[q %% n];\n"
           "    for (int q = t; q < %d; q += blockDim.x) t2[q / %d][q %% %d] = 0.5f;\n"
           "    for (int q = 0; q < 8; q++) loc[q] = (float)q;\n"
           "    __syncthreads();\n"
           "    float acc = 0;\n",
        g->len1, g->rows, g->cols, ck_pick(4) ? " = {0}" : "", g->len1, g->rows * g->cols, g->cols, g->cols);
    int count = 3 + (int)ck_pick(4);
    for (int i = 0; i < count; i++)
        statement(g);
    /* And where proofs are tightest: at the ends of the arrays. */
    count = 8 + (int)ck_pick(9);
    for (int i = 0; i < count; i++)
        boundary(g);
    ck_put(&g->src, "    out[b * blockDim.x + t] = acc;\n}\n");
}

typedef struct outcome {
    lat_status st;
    char messages[1 << 16];
    float out[MAXN];
} outcome;

static void run(lat_context *ctx, lat_kernel *k, unsigned grid, unsigned block, int n, int m,
                lat_deviceptr out, lat_deviceptr in, outcome *o)
{
    static const float zeros[MAXN];
    ASSERT_OK(lat_memcpy_htod(ctx, out, zeros, sizeof zeros));
    void *params[] = {(void *)&out, (void *)&in, &n, &m};
    o->st = ck_launch(k, grid, block, params);
    o->messages[0] = '\0';
    /* What lies where an access strays far is the host's memory, which differs between
     * the tiers' code (a device allocation, the module's variables): the kind, the place,
     * the threads and the count are compared, not the description of the address. */
    for (size_t i = 0; i < lat_check_report_count(ctx); i++) {
        const char *msg = ck_msg(ctx, i), *expr = strchr(msg, '`');
        const char *end = expr ? strchr(expr + 1, '`') : NULL, *times = strrchr(msg, '[');
        int keep = end ? (int)(end - msg) : (int)strlen(msg);
        snprintf(o->messages + strlen(o->messages), sizeof o->messages - strlen(o->messages), "%.*s %s\n",
                 keep, msg, times && strstr(times, "times]") ? times : "");
    }
    ASSERT_OK(lat_memcpy_dtoh(ctx, o->out, out, sizeof o->out));
    ASSERT_OK(lat_check_clear(ctx));
}

TEST(generated_indexes_are_reported_alike_with_and_without_proofs)
{
    lat_context *ctx = ck_context(LAT_CHECK_MEMCHECK);
    static char src[SRC];
    static outcome a, b;
    gen g = {{src, 0, SRC}, 0, 0, 0, 0, NULL};
    float in_host[MAXN];
    t_rand_floats(in_host, MAXN, -2.0f, 2.0f);
    lat_deviceptr out, in;
    ASSERT_OK(lat_mem_alloc(ctx, sizeof(float) * MAXN, &out));
    ASSERT_OK(lat_mem_alloc(ctx, sizeof(float) * MAXN, &in));
    ASSERT_OK(lat_memcpy_htod(ctx, in, in_host, sizeof in_host));
    int reported = 0;
    for (int c = 0; c < 30; c++) {
        generate(&g);
        lat_module_desc desc = {.source = src, .name = "gen.cu"};
        lat_kernel *tcc = ck_kernel_on_tier(ctx, desc, "gen", false, NULL);
        lat_kernel *opt = ck_kernel_on_tier(ctx, desc, "gen", true, NULL);
        /* Each kernel on a few launches: a proof holds on some and not on others. */
        for (int l = 0; l < 3; l++) {
            unsigned grid = 1 + ck_pick(2), block = 16u << ck_pick(4);
            int n = 1 + (int)ck_pick(MAXN), m = (int)ck_pick(64) - 16;
            run(ctx, tcc, grid, block, n, m, out, in, &a);
            run(ctx, opt, grid, block, n, m, out, in, &b);
            if (a.st != b.st || strcmp(a.messages, b.messages) != 0 ||
                memcmp(a.out, b.out, sizeof(float) * grid * block) != 0)
                t_fail(__FILE__, __LINE__,
                       "kernel %d, grid %u, block %u, n %d, m %d: TinyCC and optimised code "
                       "differ\n%s\nstatus %d vs %d\nTinyCC's reports:\n%s\noptimised code's:\n%s"
                       "results %s",
                       c, grid, block, n, m, src, a.st, b.st, a.messages, b.messages,
                       memcmp(a.out, b.out, sizeof(float) * grid * block) ? "differ" : "agree");
            reported += a.messages[0] != '\0';
        }
    }
    /* Overruns were there to be found (by design most launches have some: a launch with
     * none depends on the seed; the tile case below has one for certain). */
    ASSERT_GE(reported, 10);
    ASSERT_OK(lat_mem_free(ctx, out));
    ASSERT_OK(lat_mem_free(ctx, in));
}

/* The ones a proof needs most: a tile indexed by threadIdx, launched with a block larger
 * than the tile, must still be reported (the proof fails at run time). */
TEST(a_tile_overrun_by_a_larger_block_is_still_reported)
{
    lat_context *ctx = ck_context(LAT_CHECK_MEMCHECK);
    static const char src[] =
        "__global__ void tile(float *out)\n"
        "{\n"
        "    __shared__ float s[64];\n"
        "    int t = threadIdx.x;\n"
        "    for (int j = 0; j < 4; j++)\n"
        "        s[t] = (float)(t + j);\n"
        "    out[t] = 1.0f;\n"
        "}\n";
    for (int opt = 0; opt < 2; opt++) {
        lat_kernel *k = ck_kernel_on_tier(ctx, (lat_module_desc){.source = src, .name = "tile.cu"}, "tile", opt, NULL);
        lat_deviceptr out;
        ASSERT_OK(lat_mem_alloc(ctx, sizeof(float) * 128, &out));
        void *params[] = {(void *)&out};
        ASSERT_OK(ck_launch(k, 1, 64, params));
        ASSERT_NO_REPORTS(ctx);
        ASSERT_EQ(ck_launch(k, 1, 128, params), LAT_ERROR_CHECK_FAILED);
        ASSERT_EQ((int)lat_check_report_count(ctx), 1);
        const lat_check_report *r = lat_check_report_get(ctx, 0);
        ASSERT_EQ(r->kind, LAT_CHECK_OUT_OF_BOUNDS);
        ASSERT_EQ((int)r->access.thread.x, 64);
        ASSERT_EQ((int)r->access.thread_last.x, 127);
        ASSERT_OK(lat_check_clear(ctx));
        ASSERT_OK(lat_mem_free(ctx, out));
    }
}

/* Each statement overruns loc by one element, at one end, for some thread; each is
 * written so that a bound one tighter than the truth would "prove" it in bounds. All
 * must be reported, on both tiers. */
TEST(every_overrun_by_one_at_an_edge_is_reported)
{
    lat_context *ctx = ck_context(LAT_CHECK_MEMCHECK);
    static const char *const edges[] = {
        "if (t < 9) acc += loc[t];",
        "if (t <= 8) acc += loc[t];",
        "if (9 > t) acc += loc[t];",
        "if (8 >= t) acc += loc[t];",
        "if (t > 3 && t < 13) acc += loc[t - 4];",
        "if (t > 3 && t < 12) acc += loc[t - 5];",
        "if (t >= 4 && t < 12) acc += loc[t - 5];",
        "if (t >= 9) return; acc += loc[t];",
        "for (int e = 0; e < 9; e++) acc += loc[e];",
        "for (int e = 0; e <= 8; e++) acc += loc[e];",
        "for (int e = 1; e < 10; e += 2) acc += loc[e];",
        "for (int e = 8; e >= 0; e--) acc += loc[e];",
        "for (int e = 7; e > -2; e--) acc += loc[e];",
        "for (int e = 8; e > 0; e /= 2) acc += loc[e];",
        "for (int e = 8; e > 0; e >>= 1) acc += loc[e];",
        "acc += loc[t & 8];",
        "acc += loc[t % 9];",
        "acc += loc[(unsigned)t % 9u];",
        "if (t < 18) acc += loc[t >> 1];",
        "if (t < 18) acc += loc[t / 2];",
        "if (t < 6) acc += loc[t * 2 - 2];",
        "if (t < 12) acc += loc[11 - t];",
        "{ int w = t + n; if (w < 9 && w >= 0) acc += loc[w]; }",
        "{ int w = t - n - 1; if (w >= -1 && w < 8) acc += loc[w]; }",
        "acc += loc[t < 8 ? t : 8];",
        "acc += loc[(short)(t + 65528) + 8];",
        "acc += loc[(unsigned char)(t + 248) % 9];",
        /* Changed through a pointer or a reference: what the declaration said no longer holds. */
        "{ int u = t & 7; int *p = &u; *p += 1; acc += loc[u]; }",
        "{ int u = t & 7; int &r = u; r += 1; acc += loc[u]; }",
    };
    enum { N = sizeof edges / sizeof edges[0] };
    for (int opt = 0; opt < 2; opt++) {
        for (int i = 0; i < N; i++) {
            char src[1024];
            snprintf(src, sizeof src,
                     "__global__ void edge(float *out, int n)\n"
                     "{\n"
                     "    float loc[8] = {0};\n"
                     "    int t = threadIdx.x;\n"
                     "    float acc = 0;\n"
                     "    %s\n"
                     "    out[t] = acc;\n"
                     "}\n",
                     edges[i]);
            lat_module *mod;
            lat_kernel *k = ck_kernel_on_tier(ctx, (lat_module_desc){.source = src, .name = "edge.cu"}, "edge", opt, &mod);
            lat_deviceptr out;
            ASSERT_OK(lat_mem_alloc(ctx, sizeof(float) * 32, &out));
            int n = 0;
            void *params[] = {(void *)&out, &n};
            lat_status st = ck_launch(k, 1, 32, params);
            size_t reports = lat_check_report_count(ctx);
            const lat_check_report *r = lat_check_report_get(ctx, 0);
            ASSERT_MSG(st == LAT_ERROR_CHECK_FAILED && reports == 1 && r && r->kind == LAT_CHECK_OUT_OF_BOUNDS,
                       "%s: `%s`: status %d, %zu reports, want one overrun", opt ? "optimised" : "TinyCC",
                       edges[i], st, reports);
            ASSERT_OK(lat_check_clear(ctx));
            ASSERT_OK(lat_mem_free(ctx, out));
            lat_module_destroy(mod);
        }
    }
}

/* The forward variant (src/emu/passes/region_fwd.c): memcheck alone, threads in index
 * order, runs a loop whose accesses are all proven once per turn for every thread, which
 * changes the order in which the code around it runs. Its reports must not change: an
 * overrun before the loop and one after it, by different threads, with or without a
 * barrier between, keep the order and the threads TinyCC's code (every thread through the
 * whole stretch in turn) gives, under each schedule. */
TEST(reports_around_a_loop_keep_their_order)
{
    lat_context *ctx = ck_context(LAT_CHECK_MEMCHECK);
    static const char src[] =
        "__global__ void fwd(float *out, const float *in, int n)\n"
        "{\n"
        "    __shared__ float s[64];\n"
        "    int t = threadIdx.x;\n"
        "    s[t % 64] = in[t % n];\n"
        "    __syncthreads();\n"
        "    float acc = 0;\n"
        "#ifdef PRE\n"
        "    acc = in[(t * 5) % (n + 8)];\n"
        "#endif\n"
        "    for (int j = 0; j < 16; j++)\n"
        "        acc += s[(t + j) % 64] * (float)j;\n"
        "#ifdef BAR\n"
        "    __syncthreads();\n"
        "#endif\n"
        "#ifdef POST\n"
        "    out[(t * 7) % (n + 8)] = acc;\n"
        "#else\n"
        "    out[t % n] = acc;\n"
        "#endif\n"
        "}\n";
    static const char *const sides[][4] = {{"PRE", NULL}, {"POST", NULL}, {"PRE", "POST", NULL},
                                           {"PRE", "BAR", NULL}, {"POST", "BAR", NULL}, {"PRE", "POST", "BAR", NULL}};
    static const lat_schedule_order orders[] = {LAT_SCHEDULE_FORWARD, LAT_SCHEDULE_REVERSE};
    enum { N = MAXN };
    static float in_host[N];
    t_rand_floats(in_host, N, -1.0f, 1.0f);
    lat_deviceptr out, in;
    ASSERT_OK(lat_mem_alloc(ctx, sizeof(float) * N, &out));
    ASSERT_OK(lat_mem_alloc(ctx, sizeof(float) * N, &in));
    ASSERT_OK(lat_memcpy_htod(ctx, in, in_host, sizeof in_host));
    static outcome a, b;
    for (size_t v = 0; v < sizeof sides / sizeof sides[0]; v++) {
        lat_kernel *k[2];
        for (int opt = 0; opt < 2; opt++)
            k[opt] = ck_kernel_on_tier(ctx, (lat_module_desc){.source = src, .name = "fwd.cu", .defines = sides[v]}, "fwd",
                                opt, NULL);
        for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++) {
            ASSERT_OK(lat_check_configure(ctx, &(lat_check_options){.order = orders[o]}));
            run(ctx, k[0], 2, 128, N, 0, out, in, &a);
            run(ctx, k[1], 2, 128, N, 0, out, in, &b);
            ASSERT_MSG(a.st == LAT_ERROR_CHECK_FAILED && strcmp(a.messages, b.messages) == 0 &&
                           memcmp(a.out, b.out, sizeof(float) * N) == 0,
                       "variant %zu, schedule %d: status %d vs %d\nTinyCC's reports:\n%s\noptimised code's:\n%s",
                       v, (int)orders[o], a.st, b.st, a.messages, b.messages);
        }
    }
    ASSERT_OK(lat_mem_free(ctx, out));
    ASSERT_OK(lat_mem_free(ctx, in));
}

/* A stretch whose accesses are all proven runs without the checks' calls, but keeps the
 * threads' order within it: a kernel racing there (each thread reads what the one before
 * it wrote, with no barrier between) gets TinyCC's values under memcheck. */
TEST(a_racy_stretch_without_checks_keeps_the_threads_order)
{
    lat_context *ctx = ck_context(LAT_CHECK_MEMCHECK);
    static const char src[] =
        "__global__ void chain(float *out, const float *in, int n, int m)\n"
        "{\n"
        "    __shared__ float s[256];\n"
        "    int t = threadIdx.x;\n"
        "    s[t] = in[t];\n"
        "    __syncthreads();\n"
        "    if (t < 255)\n"
        "        s[t + 1] = s[t] + 1.0f;\n"
        "    __syncthreads();\n"
        "    out[t] = s[t];\n"
        "}\n";
    static float in_host[MAXN];
    t_rand_floats(in_host, MAXN, -1.0f, 1.0f);
    lat_deviceptr out, in;
    ASSERT_OK(lat_mem_alloc(ctx, sizeof(float) * MAXN, &out));
    ASSERT_OK(lat_mem_alloc(ctx, sizeof(float) * MAXN, &in));
    ASSERT_OK(lat_memcpy_htod(ctx, in, in_host, sizeof in_host));
    static outcome a, b;
    lat_kernel *k[2];
    for (int opt = 0; opt < 2; opt++)
        k[opt] = ck_kernel_on_tier(ctx, (lat_module_desc){.source = src, .name = "chain.cu"}, "chain", opt, NULL);
    run(ctx, k[0], 1, 256, MAXN, 0, out, in, &a);
    run(ctx, k[1], 1, 256, MAXN, 0, out, in, &b);
    ASSERT_EQ(a.st, LAT_OK);
    ASSERT_EQ(b.st, LAT_OK);
    /* In index order, thread t reads what thread t - 1 has just written. */
    for (int t = 0; t < 256; t++)
        ASSERT_CLOSE(a.out[t], in_host[0] + (float)t, 1e-5, 1e-4);
    ASSERT_EQ(memcmp(a.out, b.out, sizeof(float) * 256), 0);
    ASSERT_OK(lat_mem_free(ctx, out));
    ASSERT_OK(lat_mem_free(ctx, in));
}

