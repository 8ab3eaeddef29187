/* The profile (lattice/profile.h): its counts on the teaching suite (suite.cu, launched as
 * suite.tsv says) against Nsight Compute's on an H100 (expected.tsv, made from
 * ncu_h100.csv by expected.py) and its own earlier counts (emulator.tsv), and its API.
 * LATTICE_PROFILE_DUMP=path writes the emulator's counts of every kernel there, in
 * expected.tsv's columns (emulator.tsv is such a dump). */
#include "harness.h"
#include "lattice/profile.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef PROFILE_DIR
#error "PROFILE_DIR: tests/profile"
#endif

enum { ELEMS = 1 << 22 };

static char *slurp(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", PROFILE_DIR, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        FAIL("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = t_calloc((size_t)n + 1, 1);
    if (fread(s, 1, (size_t)n, f) != (size_t)n)
        FAIL("cannot read %s", path);
    fclose(f);
    return s;
}

static lat_context *profiling_context(void)
{
    lat_backend_kind k = t_require_backend();
    if (k != LAT_BACKEND_EMU)
        SKIP("the profile runs on the emulator only (this suite runs %s)", lat_backend_name(k));
    return t_context_with(&(lat_context_desc){.backend = LAT_BACKEND_EMU, .check = LAT_CHECK_PROFILE});
}

/* The columns of expected.tsv: the emulator's counts named as expected.py names ncu's. */
#define COLUMNS(X)                                                                       \
    X(gld_req, s->requests[LAT_PROFILE_GLOBAL][LAT_PROFILE_LOAD])                      \
    X(gld_sec, s->transactions[LAT_PROFILE_GLOBAL][LAT_PROFILE_LOAD])                  \
    X(gst_req, s->requests[LAT_PROFILE_GLOBAL][LAT_PROFILE_STORE])                     \
    X(gst_sec, s->transactions[LAT_PROFILE_GLOBAL][LAT_PROFILE_STORE])                 \
    X(gat_req, s->requests[LAT_PROFILE_GLOBAL][LAT_PROFILE_ATOMIC])                    \
    X(gat_sec, s->transactions[LAT_PROFILE_GLOBAL][LAT_PROFILE_ATOMIC])                \
    X(sld_req, s->requests[LAT_PROFILE_SHARED][LAT_PROFILE_LOAD])                      \
    X(sld_wf, s->transactions[LAT_PROFILE_SHARED][LAT_PROFILE_LOAD])                   \
    X(sst_req, s->requests[LAT_PROFILE_SHARED][LAT_PROFILE_STORE])                     \
    X(sst_wf, s->transactions[LAT_PROFILE_SHARED][LAT_PROFILE_STORE])                  \
    X(sld_conf, s->transactions[LAT_PROFILE_SHARED][LAT_PROFILE_LOAD] -                \
                    s->ideal[LAT_PROFILE_SHARED][LAT_PROFILE_LOAD])                    \
    X(sst_conf, s->transactions[LAT_PROFILE_SHARED][LAT_PROFILE_STORE] -               \
                    s->ideal[LAT_PROFILE_SHARED][LAT_PROFILE_STORE])                   \
    X(sat_req, s->requests[LAT_PROFILE_SHARED][LAT_PROFILE_ATOMIC])                    \
    X(gld_lanes, s->lanes[LAT_PROFILE_GLOBAL][LAT_PROFILE_LOAD])                       \
    X(bar, s->barriers)                                                                \
    X(br_div, s->divergent_branches)

enum {
#define COL_ENUM(name, expr) C_##name,
    COLUMNS(COL_ENUM)
#undef COL_ENUM
        NCOLS
};
static const char *const col_names[] = {
#define COL_NAME(name, expr) #name,
    COLUMNS(COL_NAME)
#undef COL_NAME
};

static void counts_of(const lat_profile_summary *s, long long *v)
{
#define COL_GET(name, expr) v[C_##name] = (long long)(expr);
    COLUMNS(COL_GET)
#undef COL_GET
}

/* Runs kernel `name` of the suite once, profiled, as suite.tsv's line says. */
static lat_profile *run_one(lat_context *ctx, lat_module *mod, const char *name, const unsigned *g,
                            const unsigned *b, int n, lat_deviceptr out, lat_deviceptr in)
{
    lat_kernel *k;
    if (lat_module_get_kernel(mod, name, &k) != LAT_OK)
        FAIL("no kernel %s: %s", name, lat_last_error());
    ASSERT_OK(lat_memset_d8(ctx, out, 0, ELEMS * sizeof(float)));
    void *params[] = {&out, &in, &n};
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {g[0], g[1], 1}, .block = {b[0], b[1], 1}}, params));
    lat_profile *p;
    ASSERT_OK(lat_profile_get(ctx, &p));
    return p;
}

typedef struct expected {
    char name[64];
    long long v[NCOLS];
    bool have[NCOLS];
} expected;

/* expected.tsv: a header line of column names (the first "kernel"), then a line a kernel;
 * "-" where ncu gave nothing to compare. */
static expected *read_expected(const char *file, size_t *count)
{
    char *text = slurp(file);
    int map[64];
    int nhead = 0;
    expected *e = t_calloc(128, sizeof *e);
    size_t n = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        char *save, *f = strtok_r(line, "\t", &save);
        if (!nhead) {
            for (f = strtok_r(NULL, "\t", &save); f && nhead < 64; f = strtok_r(NULL, "\t", &save)) {
                map[nhead] = -1;
                for (int c = 0; c < NCOLS; c++)
                    if (strcmp(f, col_names[c]) == 0)
                        map[nhead] = c;
                nhead++;
            }
            continue;
        }
        if (n == 128)
            break;
        snprintf(e[n].name, sizeof e[n].name, "%s", f);
        for (int i = 0; i < nhead && (f = strtok_r(NULL, "\t", &save)); i++)
            if (map[i] >= 0 && strcmp(f, "-") != 0) {
                e[n].v[map[i]] = atoll(f);
                e[n].have[map[i]] = true;
            }
        n++;
    }
    *count = n;
    return e;
}

static const expected *find(const expected *e, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(e[i].name, name) == 0)
            return &e[i];
    return NULL;
}

/* Which columns of which kernels differ from ncu's for a reason stated in differ.tsv
 * (kernel, column, reason): the GPU's compiler merged or removed accesses. */
static bool known_difference(const char *differ, const char *kernel, const char *col)
{
    char key[160];
    snprintf(key, sizeof key, "\n%.63s\t%.31s\t", kernel, col);
    return strstr(differ, key) != NULL;
}

/* Compares the counts of the suite's kernels (names[i], v[i]) with a file of expected.tsv's
 * form; differences named in `differ` (NULL: none allowed) are counted apart. Returns the
 * number of counts compared; fails the case on any other difference. */
static int compare(const char *file, const char *differ, char names[][64], long long (*v)[NCOLS],
                   int kernels, int *equal, int *known)
{
    size_t nexp;
    expected *exp = read_expected(file, &nexp);
    int compared = 0, mismatches = 0;
    char report[16384] = "";
    size_t at = 0;
    *equal = *known = 0;
    for (int k = 0; k < kernels; k++) {
        const expected *x = find(exp, nexp, names[k]);
        if (!x)
            FAIL("%s has no line for kernel %s", file, names[k]);
        for (int c = 0; c < NCOLS; c++) {
            if (!x->have[c])
                continue;
            compared++;
            if (v[k][c] == x->v[c]) {
                (*equal)++;
            } else if (differ && known_difference(differ, names[k], col_names[c])) {
                (*known)++;
            } else {
                mismatches++;
                if (at < sizeof report - 200)
                    at += (size_t)snprintf(report + at, sizeof report - at, "\n  %s %s: emulator %lld, %s %lld",
                                           names[k], col_names[c], v[k][c], file, x->v[c]);
            }
        }
    }
    if (mismatches)
        FAIL("%d counts differ from %s's%s:%s", mismatches, file,
             differ ? " without a reason in differ.tsv" : "", report);
    return compared;
}

/* The suite against Nsight Compute's counts (expected.tsv) and against the emulator's own
 * earlier counts (emulator.tsv, a regression baseline): one run of the suite for both. */
TEST(the_teaching_suite_counts_what_nsight_compute_counts_on_an_h100)
{
    lat_context *ctx = profiling_context();
    char *src = slurp("suite.cu");
    char *tsv = slurp("suite.tsv");
    char *differ = slurp("differ.tsv");
    lat_module *mod;
    if (lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "suite.cu"}, &mod) != LAT_OK)
        FAIL("suite.cu: %s", lat_last_error());
    float *host = t_calloc(ELEMS, sizeof *host);
    for (unsigned i = 0; i < ELEMS; i++)
        host[i] = (float)((i * 2654435761u) >> 8) / 16777216.0f; /* as ncu_driver.c */
    lat_deviceptr in = t_device_copy(ctx, host, ELEMS * sizeof(float));
    lat_deviceptr out = t_device_copy(ctx, NULL, ELEMS * sizeof(float));
    const char *dump_path = getenv("LATTICE_PROFILE_DUMP");
    FILE *dump = dump_path ? fopen(dump_path, "w") : NULL;
    if (dump) {
        fprintf(dump, "kernel");
        for (int c = 0; c < NCOLS; c++)
            fprintf(dump, "\t%s", col_names[c]);
        fprintf(dump, "\n");
    }
    static char names[128][64];
    static long long v[128][NCOLS];
    int kernels = 0;
    char *save;
    for (char *line = strtok_r(tsv, "\n", &save); line && kernels < 128; line = strtok_r(NULL, "\n", &save)) {
        unsigned g[2], b[2];
        int n;
        if (line[0] == '#' || sscanf(line, "%63s %u %u %u %u %d", names[kernels], &g[0], &g[1], &b[0], &b[1], &n) != 6)
            continue;
        lat_profile *p = run_one(ctx, mod, names[kernels], g, b, n, out, in);
        counts_of(lat_profile_summary_get(p), v[kernels]);
        lat_profile_free(p);
        if (dump) {
            fprintf(dump, "%s", names[kernels]);
            for (int c = 0; c < NCOLS; c++)
                fprintf(dump, "\t%lld", v[kernels][c]);
            fprintf(dump, "\n");
        }
        kernels++;
    }
    if (dump)
        fclose(dump);
    ASSERT_GE(kernels, 30);
    int equal, known;
    int compared = compare("expected.tsv", differ, names, v, kernels, &equal, &known);
    printf("# %d kernels, %d counts compared with ncu's: %d equal, %d differ as differ.tsv explains\n",
           kernels, compared, equal, known);
    if (!dump_path) {
        compared = compare("emulator.tsv", NULL, names, v, kernels, &equal, &known);
        printf("# %d counts compared with emulator.tsv's: %d equal\n", compared, equal);
        ASSERT_EQ(compared, kernels * NCOLS);
    }
}

static const char *const small_src =
    "__global__ void strided(float *out, const float *in, int n, int stride)\n"
    "{\n"
    "    __shared__ float s[32 * 33];\n"
    "    __shared__ unsigned h[8];\n"
    "    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;\n"
    "    if (t < 8) h[t] = 0;\n"
    "    s[t * stride % (32 * 33)] = in[i * stride % n];\n"
    "    __syncthreads();\n"
    "    atomicAdd(&h[t % 8], 1u);\n"
    "    if (t < n) out[i] = s[t];\n"
    "}\n";

/* The counts of a line follow from the addresses: random strides and lanes, checked
 * against a host model of sectors and banks written here independently. */
TEST(random_strides_give_the_sectors_and_wavefronts_of_their_addresses)
{
    lat_context *ctx = profiling_context();
    lat_module *mod;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = small_src, .name = "small.cu"}, &mod));
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(mod, "strided", &k));
    int n = 1 << 16;
    lat_deviceptr in = t_device_copy(ctx, NULL, (size_t)n * sizeof(float));
    lat_deviceptr out = t_device_copy(ctx, NULL, (size_t)n * sizeof(float));
    for (int trial = 0; trial < 4; trial++) {
        int stride = 1 + (int)(t_rand_u32() % 40);
        unsigned threads = 32 * (1 + t_rand_u32() % 4), blocks = 1 + t_rand_u32() % 3;
        void *params[] = {&out, &in, &n, &stride};
        ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {blocks}, .block = {threads}}, params));
        lat_profile *p;
        ASSERT_OK(lat_profile_get(ctx, &p));
        const lat_profile_summary *s = lat_profile_summary_get(p);
        /* The model: per warp, distinct 32-byte sectors of in[i * stride % n] (in's base is
         * 256-byte aligned as cudaMalloc's), distinct words per bank of s[...]. */
        unsigned long long sectors = 0, wavefronts = 0;
        for (unsigned bl = 0; bl < blocks; bl++)
            for (unsigned w = 0; w < threads / 32; w++) {
                long long sec[32];
                int ns = 0, per_bank[32] = {0}, most = 0;
                for (unsigned l = 0; l < 32; l++) {
                    unsigned t = w * 32 + l;
                    long long i = (long long)bl * threads + t;
                    long long sct = (i * stride % n) * 4 / 32;
                    int seen = 0;
                    for (int j = 0; j < ns; j++)
                        seen |= sec[j] == sct;
                    if (!seen)
                        sec[ns++] = sct;
                    /* s's words: distinct (t * stride % 1056) for distinct t in a warp */
                    int word = (int)(t * (unsigned)stride % (32 * 33));
                    int dup = 0;
                    for (unsigned m = 0; m < l; m++)
                        dup |= (int)((w * 32 + m) * (unsigned)stride % (32 * 33)) == word;
                    if (!dup && ++per_bank[word % 32] > most)
                        most = per_bank[word % 32];
                }
                sectors += (unsigned long long)ns;
                wavefronts += (unsigned long long)most;
            }
        unsigned long long warps = blocks * (threads / 32);
        ASSERT_EQ(s->requests[LAT_PROFILE_GLOBAL][LAT_PROFILE_LOAD], warps);
        ASSERT_EQ(s->transactions[LAT_PROFILE_GLOBAL][LAT_PROFILE_LOAD], sectors);
        /* s[...] = in[...] a request a warp, and h[t] = 0 one (conflict-free) in warp 0 */
        ASSERT_EQ(s->requests[LAT_PROFILE_SHARED][LAT_PROFILE_STORE], warps + blocks);
        ASSERT_EQ(s->transactions[LAT_PROFILE_SHARED][LAT_PROFILE_STORE], wavefronts + blocks);
        /* atomicAdd(&h[t % 8]) is one atomic request a warp; h[t] = 0 one store for warp 0 */
        ASSERT_EQ(s->requests[LAT_PROFILE_SHARED][LAT_PROFILE_ATOMIC], warps);
        ASSERT_EQ(s->barriers, warps);
        ASSERT_EQ(s->warps, warps);
        lat_profile_free(p);
    }
}

TEST(a_context_without_profiling_has_no_profile_to_give)
{
    lat_backend_kind kind = t_require_backend();
    if (kind != LAT_BACKEND_EMU)
        SKIP("the profile runs on the emulator only (this suite runs %s)", lat_backend_name(kind));
    lat_context *ctx = t_context_with(&(lat_context_desc){.backend = LAT_BACKEND_EMU, .check = LAT_CHECK_OFF});
    ASSERT_EQ(lat_profile_enabled(ctx), 0);
    lat_profile *p = (lat_profile *)1;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_profile_get(ctx, &p));
    ASSERT_TRUE(p == NULL);
    ASSERT_CONTAINS(lat_last_error(), "does not profile");
    lat_context *pc = profiling_context();
    ASSERT_EQ(lat_profile_enabled(pc), 1);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_profile_get(pc, &p));
    ASSERT_CONTAINS(lat_last_error(), "no launch has been profiled yet");
    lat_profile_free(NULL);
}

TEST(the_table_names_the_costliest_line_first)
{
    lat_context *ctx = profiling_context();
    lat_module *mod;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = small_src, .name = "small.cu"}, &mod));
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(mod, "strided", &k));
    int n = 4096, stride = 32;
    lat_deviceptr in = t_device_copy(ctx, NULL, (size_t)n * sizeof(float));
    lat_deviceptr out = t_device_copy(ctx, NULL, (size_t)n * sizeof(float));
    void *params[] = {&out, &in, &n, &stride};
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {2}, .block = {64}}, params));
    lat_profile *p;
    ASSERT_OK(lat_profile_get(ctx, &p));
    if (getenv("LATTICE_PROFILE_SHOW")) {
        char *t = lat_profile_format(p, small_src);
        printf("%s", t);
        free(t);
    }
    const lat_profile_row *r = lat_profile_row_at(p, 0);
    ASSERT_TRUE(r != NULL);
    /* stride 32: s's words t * 32 % (32 * 33) all fall in bank 0, 32 wavefronts where 1
     * would do; in's 32 sectors a request where 4 would */
    ASSERT_EQ(r->line, 7);
    ASSERT_EQ(r->space, LAT_PROFILE_SHARED);
    ASSERT_EQ(r->op, LAT_PROFILE_STORE);
    ASSERT_EQ(r->requests, 4);
    ASSERT_EQ(r->transactions, 4 * 32);
    ASSERT_EQ(r->ideal, 4);
    ASSERT_STR_EQ(r->expr, "s[t * stride % (32 * 33)]");
    r = lat_profile_row_at(p, 1);
    ASSERT_EQ(r->line, 7);
    ASSERT_EQ(r->space, LAT_PROFILE_GLOBAL);
    ASSERT_EQ(r->op, LAT_PROFILE_LOAD);
    ASSERT_EQ(r->transactions, 4 * 32);
    ASSERT_EQ(r->ideal, 4 * 4);
    ASSERT_STR_EQ(r->expr, "in[i * stride % n]");
    ASSERT_TRUE(lat_profile_row_at(p, lat_profile_row_count(p)) == NULL);
    char *text = lat_profile_format(p, small_src);
    ASSERT_CONTAINS(text, "profile of kernel 'strided', grid (2,1,1), block (64,1,1)");
    ASSERT_CONTAINS(text, "small.cu:7");
    ASSERT_CONTAINS(text, "| s[t * stride % (32 * 33)] = in[i * stride % n];");
    free(text);
    lat_profile_free(p);
}
