/* lattice-corpus: runs the real-world kernels of tests/corpus/ (README.md) and says, for
 * each, whether it agrees with the GPU's output stored in truth/, differs, or is refused.
 *
 *   lattice-corpus [--check] [--truth DIR] [--write-truth DIR] [--quiet] FILE.cu...
 *
 * Each kernel file starts with a comment of `@` lines (the source it was copied from, the
 * kernel, its launch and arguments); inputs are filled from a fixed seed, so every backend
 * sees the same. --write-truth stores the outputs (run it on a GPU); --truth compares with
 * them (each float within the file's `@tol`, relative, else bit for bit). --check runs
 * with every check of the emulator and counts any report as a disagreement. The last line
 * is "N kernels: A agree, D differ, R refused"; the exit status is 1 when any differed or
 * was refused unless listed by `@expect refused` in its file. */
#include <lattice.h>
#include <lattice/check.h>

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_ARGS = 24, MAX_GLOBALS = 8 };

typedef enum { T_F32, T_F64, T_I32, T_U32, T_I64, T_U64, T_U16, T_U8, T_I8, T_F16 } etype;
static const struct {
    const char *name;
    etype t;
    size_t size;
} types[] = {{"f32", T_F32, 4}, {"f64", T_F64, 8}, {"i32", T_I32, 4}, {"u32", T_U32, 4}, {"i64", T_I64, 8},
             {"u64", T_U64, 8}, {"u16", T_U16, 2}, {"u8", T_U8, 1},   {"i8", T_I8, 1},   {"f16", T_F16, 2}};

typedef struct {
    char kind[8]; /* in, out, inout, val */
    etype t;
    size_t size, count;
    char fill[16]; /* rand, iota, step, const, zero, mod */
    double lo, hi;
    void *host;
} arg;

typedef struct {
    char path[512], name[128], kernel[256];
    unsigned grid[3], block[3];
    size_t shared;
    double tol;
    bool expect_refused;
    bool expect_report; /* a checked run reports a hazard by design (@expect report) */
    int nargs, nglobals;
    arg args[MAX_ARGS];
    char gname[MAX_GLOBALS][64];
    arg globals[MAX_GLOBALS];
} spec;

static uint64_t rng_state;
static uint64_t next_u64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static double next_unit(void) { return (double)(next_u64() >> 11) / 9007199254740992.0; }

static uint16_t to_half(float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t ax = x & 0x7fffffffu;
    if (ax >= 0x477ff000u)
        return (uint16_t)(sign | (ax > 0x7f800000u ? 0x7e00u : 0x7c00u));
    if (ax < 0x38800000u) { /* subnormal or zero: exact enough for inputs */
        float a;
        memcpy(&a, &ax, 4);
        return (uint16_t)(sign | (uint16_t)lrintf(a / 5.9604644775390625e-8f));
    }
    uint32_t r = ax + 0xfffu + ((ax >> 13) & 1u);
    return (uint16_t)(sign | ((r - 0x38000000u) >> 13));
}

static double from_half(uint16_t h)
{
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return h & 0x8000 ? -v : v;
}

static void store(void *p, etype t, double v)
{
    switch (t) {
    case T_F32: { float f = (float)v; memcpy(p, &f, 4); break; }
    case T_F64: memcpy(p, &v, 8); break;
    case T_I32: { int32_t i = (int32_t)v; memcpy(p, &i, 4); break; }
    case T_U32: { uint32_t i = (uint32_t)(int64_t)v; memcpy(p, &i, 4); break; }
    case T_I64: { int64_t i = (int64_t)v; memcpy(p, &i, 8); break; }
    case T_U64: { uint64_t i = (uint64_t)(int64_t)v; memcpy(p, &i, 8); break; }
    case T_U16: { uint16_t i = (uint16_t)(int64_t)v; memcpy(p, &i, 2); break; }
    case T_U8: { uint8_t i = (uint8_t)(int64_t)v; memcpy(p, &i, 1); break; }
    case T_I8: { int8_t i = (int8_t)(int64_t)v; memcpy(p, &i, 1); break; }
    case T_F16: { uint16_t h = to_half((float)v); memcpy(p, &h, 2); break; }
    }
}

static double load(const void *p, etype t)
{
    switch (t) {
    case T_F32: { float f; memcpy(&f, p, 4); return f; }
    case T_F64: { double d; memcpy(&d, p, 8); return d; }
    case T_I32: { int32_t i; memcpy(&i, p, 4); return i; }
    case T_U32: { uint32_t i; memcpy(&i, p, 4); return i; }
    case T_I64: { int64_t i; memcpy(&i, p, 8); return (double)i; }
    case T_U64: { uint64_t i; memcpy(&i, p, 8); return (double)i; }
    case T_U16: { uint16_t i; memcpy(&i, p, 2); return i; }
    case T_U8: return *(const uint8_t *)p;
    case T_I8: return *(const int8_t *)p;
    case T_F16: { uint16_t h; memcpy(&h, p, 2); return from_half(h); }
    }
    return 0;
}

static bool is_float(etype t) { return t == T_F32 || t == T_F64 || t == T_F16; }

static bool parse_type(const char *s, arg *a)
{
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (strcmp(s, types[i].name) == 0) {
            a->t = types[i].t;
            a->size = types[i].size;
            return true;
        }
    return false;
}

static void dims(const char *s, unsigned d[3])
{
    d[0] = d[1] = d[2] = 1;
    sscanf(s, "%u,%u,%u", &d[0], &d[1], &d[2]);
}

/* "@arg in f32 1024 rand -1 1", "@arg val i32 7", "@global name f32 1 const 0.01" */
static bool parse_arg(char *line, arg *a, char *gname)
{
    char kind[16] = "", type[16] = "", fill[16] = "zero";
    double count = 1, lo = 0, hi = 0;
    memset(a, 0, sizeof *a);
    if (gname) {
        if (sscanf(line, "%63s %15s %lf %15s %lf %lf", gname, type, &count, fill, &lo, &hi) < 3)
            return false;
        strcpy(kind, "in");
    } else if (sscanf(line, "%15s %15s", kind, type) != 2) {
        return false;
    } else if (strcmp(kind, "val") == 0) {
        if (sscanf(line, "%*s %*s %lf", &lo) != 1)
            return false;
        strcpy(fill, "const");
    } else if (sscanf(line, "%*s %*s %lf %15s %lf %lf", &count, fill, &lo, &hi) < 1) {
        return false;
    }
    snprintf(a->kind, sizeof a->kind, "%s", kind);
    snprintf(a->fill, sizeof a->fill, "%s", fill);
    a->count = (size_t)count;
    a->lo = lo;
    a->hi = hi;
    return parse_type(type, a) && a->count > 0;
}

static int parse_spec(const char *path, spec *s)
{
    memset(s, 0, sizeof *s);
    snprintf(s->path, sizeof s->path, "%s", path);
    const char *base = strrchr(path, '/');
    snprintf(s->name, sizeof s->name, "%s", base ? base + 1 : path);
    char *dot = strrchr(s->name, '.');
    if (dot)
        *dot = '\0';
    s->grid[0] = s->grid[1] = s->grid[2] = s->block[0] = s->block[1] = s->block[2] = 1;
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        char *at = strstr(line, "@");
        if (!at || !isalpha((unsigned char)at[1]))
            continue;
        at++;
        line[strcspn(line, "\r\n")] = '\0';
        char word[32];
        if (sscanf(at, "%31s", word) != 1)
            continue;
        char *rest = at + strlen(word);
        while (*rest == ' ')
            rest++;
        if (strcmp(word, "kernel") == 0)
            snprintf(s->kernel, sizeof s->kernel, "%s", rest);
        else if (strcmp(word, "grid") == 0)
            dims(rest, s->grid);
        else if (strcmp(word, "block") == 0)
            dims(rest, s->block);
        else if (strcmp(word, "shared") == 0)
            s->shared = strtoul(rest, NULL, 10);
        else if (strcmp(word, "tol") == 0)
            s->tol = strtod(rest, NULL);
        else if (strcmp(word, "expect") == 0) {
            s->expect_refused = strncmp(rest, "refused", 7) == 0;
            s->expect_report = strncmp(rest, "report", 6) == 0;
        } else if (strcmp(word, "arg") == 0 && s->nargs < MAX_ARGS) {
            if (!parse_arg(rest, &s->args[s->nargs++], NULL)) {
                fprintf(stderr, "%s: bad @arg line: %s\n", path, rest);
                fclose(f);
                return -1;
            }
        } else if (strcmp(word, "global") == 0 && s->nglobals < MAX_GLOBALS) {
            if (!parse_arg(rest, &s->globals[s->nglobals], s->gname[s->nglobals])) {
                fprintf(stderr, "%s: bad @global line: %s\n", path, rest);
                fclose(f);
                return -1;
            }
            s->nglobals++;
        }
    }
    fclose(f);
    if (!s->kernel[0]) {
        fprintf(stderr, "%s: no @kernel line\n", path);
        return -1;
    }
    return 0;
}

static void fill(arg *a, size_t index)
{
    a->host = calloc(a->count, a->size);
    for (size_t i = 0; i < a->count; i++) {
        double v = 0;
        if (strcmp(a->fill, "rand") == 0) {
            v = a->lo + (a->hi - a->lo) * next_unit();
            if (!is_float(a->t))
                v = floor(v);
        } else if (strcmp(a->fill, "iota") == 0)
            v = a->lo + (double)i;
        else if (strcmp(a->fill, "const") == 0)
            v = a->lo;
        else if (strcmp(a->fill, "step") == 0) /* i * lo: offsets of equal rows */
            v = (double)i * a->lo;
        else if (strcmp(a->fill, "mod") == 0) /* (i * lo) mod hi: indices into something */
            v = fmod((double)i * a->lo + (double)index, a->hi);
        store((char *)a->host + i * a->size, a->t, v);
    }
}

/* Runs s; 0: ran (outputs in the args), else refused (*why says how). */
static int run(spec *s, unsigned check, char *why, size_t why_size, size_t *reports)
{
    rng_state = 0x5eed0000u;
    for (int i = 0; i < s->nargs; i++)
        fill(&s->args[i], (size_t)i);
    for (int i = 0; i < s->nglobals; i++)
        fill(&s->globals[i], 0);
    lat_context *ctx = NULL;
    lat_status st = lat_context_create(&(lat_context_desc){.check = check ? check : LAT_CHECK_OFF}, &ctx);
    if (st != LAT_OK) {
        snprintf(why, why_size, "context: %s", lat_last_error());
        return -1;
    }
    const char *names[] = {s->kernel, NULL};
    lat_module *mod = NULL;
    lat_kernel *k = NULL;
    st = lat_module_create(ctx, &(lat_module_desc){.path = s->path, .name_expressions = names}, &mod);
    if (st == LAT_OK)
        st = lat_module_get_kernel(mod, s->kernel, &k);
    for (int i = 0; st == LAT_OK && i < s->nglobals; i++)
        st = lat_module_memcpy_to_global(mod, s->gname[i], 0, s->globals[i].host, s->globals[i].count * s->globals[i].size);
    lat_arg la[MAX_ARGS];
    for (int i = 0; i < s->nargs; i++) {
        arg *a = &s->args[i];
        size_t bytes = a->count * a->size;
        la[i] = strcmp(a->kind, "in") == 0     ? lat_arg_in(a->host, bytes)
                : strcmp(a->kind, "out") == 0  ? lat_arg_out(a->host, bytes)
                : strcmp(a->kind, "inout") == 0 ? lat_arg_inout(a->host, bytes)
                                                : lat_arg_bytes(a->host, a->size);
    }
    if (st == LAT_OK)
        st = lat_launch_args(k, &(lat_launch_desc){.grid = {s->grid[0], s->grid[1], s->grid[2]},
                                                   .block = {s->block[0], s->block[1], s->block[2]},
                                                   .shared_bytes = s->shared},
                             (size_t)s->nargs, la);
    if (st != LAT_OK)
        snprintf(why, why_size, "%s", lat_last_error());
    *reports = check ? lat_check_report_count(ctx) : 0;
    if (*reports)
        snprintf(why, why_size, "%s", lat_check_report_get(ctx, 0)->message);
    lat_context_destroy(ctx);
    return st == LAT_OK ? 0 : -1;
}

static void free_args(spec *s)
{
    for (int i = 0; i < s->nargs; i++) {
        free(s->args[i].host);
        s->args[i].host = NULL;
    }
    for (int i = 0; i < s->nglobals; i++) {
        free(s->globals[i].host);
        s->globals[i].host = NULL;
    }
}

static bool output(const arg *a) { return strcmp(a->kind, "out") == 0 || strcmp(a->kind, "inout") == 0; }

/* The outputs as hex bytes, one line per output argument. */
static int write_truth(const spec *s, const char *dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.hex", dir, s->name);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    for (int i = 0; i < s->nargs; i++) {
        if (!output(&s->args[i]))
            continue;
        const unsigned char *b = s->args[i].host;
        for (size_t j = 0; j < s->args[i].count * s->args[i].size; j++)
            fprintf(f, "%02x", b[j]);
        fputc('\n', f);
    }
    return fclose(f);
}

/* 1: agrees with the truth, 0: differs (*why), -1: no truth. */
static int compare(const spec *s, const char *dir, char *why, size_t why_size)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.hex", dir, s->name);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int result = 1;
    for (int i = 0; i < s->nargs && result == 1; i++) {
        const arg *a = &s->args[i];
        if (!output(a))
            continue;
        size_t bytes = a->count * a->size;
        unsigned char *want = malloc(bytes);
        for (size_t j = 0; j < bytes; j++) {
            unsigned v;
            if (fscanf(f, "%2x", &v) != 1) {
                snprintf(why, why_size, "truth file %s is short", path);
                result = 0;
                break;
            }
            want[j] = (unsigned char)v;
        }
        for (size_t e = 0; result == 1 && e < a->count; e++) {
            const void *g = (const char *)a->host + e * a->size, *w = want + e * a->size;
            if (memcmp(g, w, a->size) == 0)
                continue;
            double gv = load(g, a->t), wv = load(w, a->t);
            bool ok = is_float(a->t) && s->tol > 0 &&
                      ((isnan(gv) && isnan(wv)) || fabs(gv - wv) <= s->tol * fmax(1.0, fabs(wv)));
            if (!ok) {
                snprintf(why, why_size, "argument %d element %zu: %.9g, the GPU gave %.9g", i, e, gv, wv);
                result = 0;
            }
        }
        free(want);
    }
    fclose(f);
    return result;
}

int main(int argc, char **argv)
{
    unsigned check = 0;
    const char *truth = NULL, *write_dir = NULL;
    bool quiet = false;
    int agree = 0, differ = 0, refused = 0, expected = 0, total = 0, bad = 0;
    /* The backend named for the run (the cuda suite without a GPU) may be missing: that
     * is a skip with its reason, as the rest of the suite's, not a row of refusals. */
    lat_context *probe = NULL;
    lat_status pst = lat_context_create(NULL, &probe);
    if (pst == LAT_ERROR_BACKEND_UNAVAILABLE || pst == LAT_ERROR_NO_DEVICE) {
        printf("SKIP: %s\n", lat_last_error());
        return 77;
    }
    lat_context_destroy(probe);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--check") == 0) {
            check = LAT_CHECK_ALL;
            continue;
        }
        if (strcmp(argv[i], "--quiet") == 0) {
            quiet = true;
            continue;
        }
        if ((strcmp(argv[i], "--truth") == 0 || strcmp(argv[i], "--write-truth") == 0) && i + 1 < argc) {
            if (argv[i][2] == 't')
                truth = argv[++i];
            else
                write_dir = argv[++i];
            continue;
        }
        spec *s = calloc(1, sizeof *s);
        if (parse_spec(argv[i], s) != 0) {
            free(s);
            bad++;
            continue;
        }
        total++;
        char why[2048] = "";
        size_t reports = 0;
        int r = run(s, check, why, sizeof why, &reports);
        const char *verdict;
        if (reports) {
            verdict = s->expect_report ? "reported (expected)" : "differ (a check reported)";
            if (!s->expect_report)
                differ++;
            else
                agree++;
        } else if (r != 0) {
            verdict = s->expect_refused ? "refused (expected)" : "refused";
            refused++;
            expected += s->expect_refused;
        } else if (write_dir) {
            verdict = write_truth(s, write_dir) == 0 ? "written" : "cannot write the truth";
            agree++;
        } else if (truth) {
            int c = compare(s, truth, why, sizeof why);
            verdict = c == 1 ? "agree" : c == 0 ? "differ" : "ran (no truth)";
            if (c == 1)
                agree++;
            else if (c == 0)
                differ++;
        } else {
            verdict = "ran";
            agree++;
        }
        if (!quiet || strcmp(verdict, "agree") != 0)
            printf("%-40s %-26s %s\n", s->name, verdict, strcmp(verdict, "agree") && why[0] ? why : "");
        free_args(s);
        free(s);
    }
    printf("%d kernels: %d agree, %d differ, %d refused (%d expected)%s\n", total, agree, differ, refused, expected,
           check ? ", checked" : "");
    return bad || differ || refused > expected ? 1 : 0;
}
