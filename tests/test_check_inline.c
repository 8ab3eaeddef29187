/* The checks' inline path: a checked module's optimised code judges the usual access itself
 * (an aligned 4-byte access inside a __shared__ variable or a recently touched allocation)
 * and calls the checks' host code for everything else, while TinyCC's code calls the host
 * code for every access. Both must find the same: generated buggy kernels (races in shared
 * and global memory, same-value writes, unwritten reads, overruns of a variable and of an
 * allocation, of a row of a 2-D __shared__ array and of an array in a __shared__ struct,
 * misaligned and 8-byte accesses, a write whose value is read back later) run
 * on both tiers under each check and all of them, and their reports and results compared. */
#include "check_util.h"


static const char source[] =
    "#ifndef SPAN\n"
    "#define SPAN 128\n"
    "#endif\n"
    "__global__ void bugs(float *out, const float *in, int *flags, double *wide, int n, int off,\n"
    "                     int skip)\n"
    "{\n"
    "    __shared__ float s[128];\n"
    "    __shared__ float s2[64];\n"
    "    __shared__ double d[128];\n"
    "    __shared__ float tile[8][16];\n"
    "    __shared__ struct { int k[32]; float pad[4]; } st;\n"
    "    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;\n"
    "    if (t != skip)\n"
    "        s[t] = in[i % n];\n"
    "    d[t] = wide[i % n];\n"
    "#ifdef SYNC\n"
    "    __syncthreads();\n"
    "#endif\n"
    "    float v = s[(t + off) % SPAN];\n"
    "    s2[t % 64] = v;\n"
    "    tile[t % 8][t / 8 % COLS] = v;\n"
    "    st.k[t % KW] = t;\n"
    "    __syncthreads();\n"
    "    out[i] = v + s2[(t + 1) % 64] + (float)d[(t + off) % 128] + tile[(t + 1) % 8][(t / 8 + off) % 16] +\n"
    "             (float)st.k[(t + off) % 32];\n"
    "    flags[i / GROUP] = VALUE;\n"
    "#ifdef CHAIN\n"
    "    flags[i] = flags[(i + 1) % n] = t;\n"
    "#endif\n"
    "#ifdef MISALIGN\n"
    "    if (t == 1) *(int *)((char *)flags + 2) = 7;\n"
    "#endif\n"
    "    out[i] += in[(i + off) % (n + EXTRA)];\n"
    "}\n";

enum { MAXN = 1024 };

typedef struct variant {
    char defines[10][32];
    const char *list[11];
    unsigned grid, block;
    int off, skip;
    bool fresh_in; /* `in` never written (initcheck's global reads) */
    bool past_in;  /* reads past the end of `in` */
} variant;

static void add(variant *v, int *nd, const char *fmt, int value)
{
    snprintf(v->defines[*nd], sizeof v->defines[*nd], fmt, value);
    v->list[*nd] = v->defines[*nd];
    (*nd)++;
}

/* In place: the define list points into the variant. Reads past `in` only under memcheck,
 * which stops them: without it they would read the host's memory past the allocation (as an
 * unchecked launch does), which valgrind's pass over the suite rightly calls invalid. */
static void draw(variant *vp, unsigned modes)
{
    variant *const v = vp;
    memset(v, 0, sizeof *v);
    int nd = 0;
    if (t_rand_u32() % 3)
        add(v, &nd, "SYNC", 0);
    if (t_rand_u32() % 4 == 0)
        add(v, &nd, "SPAN=%d", 128 + 8 * (int)(t_rand_u32() % 4 + 1)); /* past s */
    add(v, &nd, "GROUP=%d", (int)(t_rand_u32() % 3) * 16 + 1);
    add(v, &nd, t_rand_u32() % 2 ? "VALUE=%d" : "VALUE=t+%d", (int)(t_rand_u32() % 3));
    v->past_in = t_rand_u32() % 4 == 0 && (modes & LAT_CHECK_MEMCHECK);
    add(v, &nd, "EXTRA=%d", v->past_in ? 8 : 0); /* past in's end */
    if (t_rand_u32() % 4 == 0)
        add(v, &nd, "CHAIN", 0);
    if (t_rand_u32() % 5 == 0)
        add(v, &nd, "MISALIGN", 0);
    /* Past a row of tile, inside it or (from its last row) past it; past st.k, into st. */
    add(v, &nd, "COLS=%d", t_rand_u32() % 4 ? 16 : 17 + (int)(t_rand_u32() % 2));
    add(v, &nd, "KW=%d", t_rand_u32() % 4 ? 32 : 34);
    v->list[nd] = NULL;
    v->grid = 1 + t_rand_u32() % 3;
    v->block = t_rand_u32() % 2 ? 64 : 128;
    v->off = (int)(t_rand_u32() % 3) * 2;
    v->skip = t_rand_u32() % 3 == 0 ? (int)(t_rand_u32() % v->block) : -1;
    v->fresh_in = t_rand_u32() % 5 == 0;
}

typedef struct outcome {
    lat_status st;
    size_t nreports;
    char *messages;
    float out[MAXN];
    int flags[MAXN];
} outcome;

static lat_kernel *compile(lat_context *ctx, const variant *v, lat_emu_opt opt)
{
    lat_module *mod;
    if (lat_module_create(ctx, &(lat_module_desc){.source = source, .name = "bugs.cu",
                                                  .defines = v->list, .emu_opt = opt},
                          &mod) != LAT_OK)
        t_fail(__FILE__, __LINE__, "lat_module_create: %s", lat_last_error());
    if (opt == LAT_EMU_OPT_SYNC && lat_module_get_tier(mod) != LAT_MODULE_TIER_OPTIMISED)
        SKIP("no optimising compiler here: the inline path is the optimised code's");
    lat_kernel *k;
    if (lat_module_get_kernel(mod, "bugs", &k) != LAT_OK)
        t_fail(__FILE__, __LINE__, "no kernel: %s", lat_last_error());
    return k;
}

/* The variant's buffers: the same for both tiers, so that a report naming a neighbour of
 * an allocation names the same one. */
typedef struct buffers {
    lat_deviceptr out, in, flags, wide;
} buffers;

/* One launch of the variant's kernel, its buffers filled afresh (the same inputs). */
static void run(lat_context *ctx, lat_kernel *k, const variant *v, const buffers *bf,
                const float *in_host, const double *wide_host, outcome *o)
{
    int n = (int)(v->grid * v->block);
    static const int zeros[MAXN];
    ASSERT_OK(lat_memcpy_htod(ctx, bf->out, zeros, sizeof(float) * (size_t)n));
    ASSERT_OK(lat_memcpy_htod(ctx, bf->flags, zeros, sizeof(int) * (size_t)n));
    ASSERT_OK(lat_memcpy_htod(ctx, bf->wide, wide_host, sizeof(double) * (size_t)n));
    if (!v->fresh_in)
        ASSERT_OK(lat_memcpy_htod(ctx, bf->in, in_host, sizeof(float) * (size_t)n));
    void *params[] = {(void *)&bf->out, (void *)&bf->in, (void *)&bf->flags, (void *)&bf->wide,
                      &n, (void *)&v->off, (void *)&v->skip};
    o->st = ck_launch(k, v->grid, v->block, params);
    o->nreports = lat_check_report_count(ctx);
    size_t size = 1;
    for (size_t i = 0; i < o->nreports; i++)
        size += strlen(ck_msg(ctx, i)) + 1;
    o->messages = t_calloc(1, size);
    for (size_t i = 0; i < o->nreports; i++) {
        strcat(o->messages, ck_msg(ctx, i));
        strcat(o->messages, "\n");
    }
    ASSERT_OK(lat_memcpy_dtoh(ctx, o->out, bf->out, sizeof(float) * (size_t)n));
    ASSERT_OK(lat_memcpy_dtoh(ctx, o->flags, bf->flags, sizeof(int) * (size_t)n));
}

/* A fresh buffer of n bytes, labelled; `in` is never written when the variant says so
 * (and initcheck sees a write through lat_memcpy_htod). */
static lat_deviceptr buffer(lat_context *ctx, size_t n, const char *name)
{
    lat_deviceptr p;
    ASSERT_OK(lat_mem_alloc(ctx, n, &p));
    ASSERT_OK(lat_check_label(ctx, p, name));
    return p;
}

/* Runs count variants under modes on both tiers; returns how many reported something. */
static int compare_tiers(unsigned modes, int count)
{
    lat_context *ctx = ck_context(modes);
    /* Every run draws the next variant, so one seed gives the same kernels. */
    int reported = 0;
    for (int c = 0; c < count; c++) {
        variant v;
        draw(&v, modes);
        int n = (int)(v.grid * v.block);
        float in_host[MAXN];
        double wide_host[MAXN];
        t_rand_floats(in_host, (size_t)n, -4.0f, 4.0f);
        for (int i = 0; i < n; i++)
            wide_host[i] = t_rand_double(-2.0, 2.0);
        static outcome a, b;
        buffers bf = {buffer(ctx, sizeof(float) * (size_t)n, "out"),
                      buffer(ctx, sizeof(float) * (size_t)n, "in"),
                      buffer(ctx, sizeof(int) * (size_t)n, "flags"),
                      buffer(ctx, sizeof(double) * (size_t)n, "wide")};
        run(ctx, compile(ctx, &v, LAT_EMU_OPT_OFF), &v, &bf, in_host, wide_host, &a);
        run(ctx, compile(ctx, &v, LAT_EMU_OPT_SYNC), &v, &bf, in_host, wide_host, &b);
        lat_deviceptr all[] = {bf.out, bf.in, bf.flags, bf.wide};
        for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
            ASSERT_OK(lat_mem_free(ctx, all[i]));
        /* Results are compared where they are determined: the blocks of a checked launch
         * run at once (racing blocks' results differ from run to run, their reports do
         * not), and an unwritten `in` holds whatever its allocation held. */
        bool determined = v.grid == 1 && !v.fresh_in;
        bool same_out = !determined || memcmp(a.out, b.out, sizeof(float) * (size_t)n) == 0;
        bool same_flags = !determined || memcmp(a.flags, b.flags, sizeof(int) * (size_t)n) == 0;
        if (a.st != b.st || strcmp(a.messages, b.messages) != 0 || !same_out || !same_flags) {
            char what[512] = "";
            for (int d = 0; v.list[d]; d++)
                snprintf(what + strlen(what), sizeof what - strlen(what), " -D%s", v.list[d]);
            t_fail(__FILE__, __LINE__,
                   "modes %#x, variant %d (%s, grid %u, block %u, off %d, skip %d, in %s): "
                   "TinyCC and optimised code differ\n  status %d vs %d\n  TinyCC's %zu "
                   "reports:\n%s  optimised code's %zu reports:\n%s  out %s, flags %s",
                   modes, c, what, v.grid, v.block, v.off, v.skip,
                   v.fresh_in ? "unwritten" : "written", a.st, b.st, a.nreports, a.messages,
                   b.nreports, b.messages, same_out ? "agree" : "differ",
                   same_flags ? "agree" : "differ");
        }
        reported += a.nreports > 0;
        ASSERT_OK(lat_check_clear(ctx));
    }
    return reported;
}

TEST(all_checks_find_the_same_on_both_tiers)
{
    int reported = compare_tiers(LAT_CHECK_ALL, 24);
    ASSERT_TRUE(reported >= 12); /* the variants are buggy more often than not */
}

TEST(each_check_alone_finds_the_same_on_both_tiers)
{
    static const unsigned modes[] = {LAT_CHECK_MEMCHECK, LAT_CHECK_RACECHECK,
                                     LAT_CHECK_SYNCCHECK, LAT_CHECK_INITCHECK};
    int reported = 0;
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++)
        reported += compare_tiers(modes[m], 8);
    ASSERT_TRUE(reported >= 8);
}
