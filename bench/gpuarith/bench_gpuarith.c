/*
 * What the GPU computes where C leaves the result undefined or lets the compiler choose,
 * measured: shifts by counts of the width or more (and negative ones), conversions of
 * out-of-range and NaN floating values to every integer type, and which expressions NVRTC
 * contracts into fused multiply-adds. The emulator needs these answers to compute what a
 * GPU computes (src/emu/compile/prelude.c's GPU-arithmetic helpers; README.md here says what the
 * PTX ISA specifies).
 *
 *     bench_gpuarith [-o FILE]
 *
 * Runs every probe on the backend LATTICE_BACKEND names (or the automatic one) and, when
 * that is the GPU, on the emulator as well. Prints a compact report (each table: what each
 * backend computed, against the ISA's prediction and against x86's masking) and writes every
 * row to FILE (default gpuarith-<backend>.txt): inputs, each backend's result, the
 * predictions. Public API only; inputs are fixed tables and a seeded generator, so two runs
 * write the same rows.
 */
#define _POSIX_C_SOURCE 200809L
#include "lattice.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- plumbing ----------------------------------------------------------------------------- */

enum { MAX_SIDES = 2 };

typedef struct side {
    lat_context *ctx;
    const char *name; /* "cuda" or "emu" */
} side;

static side sides[MAX_SIDES];
static int nsides;
static FILE *out; /* the full results */

static void die(const char *what)
{
    fprintf(stderr, "bench_gpuarith: %s: %s\n", what, lat_last_error());
    exit(1);
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) {
        fprintf(stderr, "bench_gpuarith: out of memory\n");
        exit(1);
    }
    return p;
}

/* A growing string. */
typedef struct buf {
    char *p;
    size_t len, cap;
} buf;

static void bprintf(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bprintf(buf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0)
            die("vsnprintf");
        if (b->p && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        size_t cap = (b->cap + (size_t)n + 1) * 2;
        char *p = realloc(b->p, cap);
        if (!p)
            die("out of memory");
        b->p = p;
        b->cap = cap;
    }
}

/* Compiles `src` on side s; NULL (with the log in `why`) when it does not compile. */
static lat_module *compile(side *s, const char *src, const char *const *options, char *why,
                           size_t why_size)
{
    lat_module *m = NULL;
    lat_status st = lat_module_create(
        s->ctx, &(lat_module_desc){.source = src, .name = "gpuarith.cu", .options = options}, &m);
    if (st != LAT_OK) {
        snprintf(why, why_size, "%s", lat_last_error());
        for (char *p = why; *p; p++)
            if (*p == '\n' || *p == '\t')
                *p = ' ';
        return NULL;
    }
    why[0] = '\0';
    return m;
}

static lat_kernel *kernel(lat_module *m, const char *name)
{
    lat_kernel *k = NULL;
    if (lat_module_get_kernel(m, name, &k) != LAT_OK)
        die(name);
    return k;
}

static void launch(lat_kernel *k, size_t threads, size_t nargs, const lat_arg *args)
{
    unsigned blocks = (unsigned)((threads + 127) / 128);
    if (lat_launch_args(k, &(lat_launch_desc){.grid = {blocks ? blocks : 1}, .block = {128}},
                        nargs, args) != LAT_OK)
        die(lat_kernel_name(k));
}

/* Deterministic inputs (splitmix64). */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static double rnd_unit(void) /* [0, 1) */
{
    return (double)(rnd() >> 11) * 0x1p-53;
}

/* ---- 1. shifts by run-time counts --------------------------------------------------------- */

typedef struct shift_type {
    const char *name;  /* the operand's C type */
    const char *ktype; /* its spelling in kernels */
    int vbits, vsigned; /* the operand's own width and signedness */
    int bits, is_signed; /* the operation's, after C's promotions */
    long long values[6];
    int nvalues;
} shift_type;

static const shift_type shift_types[] = {
    {"int", "int", 32, 1, 32, 1, {1, -1, -5, 0x12345678, INT32_MIN, INT32_MAX}, 6},
    {"unsigned", "unsigned", 32, 0, 32, 0, {1, 0xffffffffLL, 0x80000000LL, 0x12345678}, 4},
    {"long long", "long long", 64, 1, 64, 1,
     {1, -1, -5, 0x123456789abcdef0LL, INT64_MIN, INT64_MAX}, 6},
    {"unsigned long long", "unsigned long long", 64, 0, 64, 0,
     {1, -1, (long long)0x8000000000000000ULL, 0x123456789abcdef0LL}, 4},
    {"signed char", "signed char", 8, 1, 32, 1, {-1, -128, 127, 5}, 4},
    {"unsigned char", "unsigned char", 8, 0, 32, 1, {255, 128, 1}, 3},
    {"short", "short", 16, 1, 32, 1, {-1, -32768, 0x1234}, 3},
    {"unsigned short", "unsigned short", 16, 0, 32, 1, {0xffff, 0x8000}, 2},
    {"char", "char", 8, 1, 32, 1, {-1, -128, 100}, 3},
};
enum { NSHIFT_TYPES = sizeof shift_types / sizeof shift_types[0] };

/* The value as the operation sees it: the operand's own type, then promoted. */
static uint64_t promoted(const shift_type *t, long long v)
{
    uint64_t u = (uint64_t)v;
    if (t->vbits < 64) {
        uint64_t m = (1ULL << t->vbits) - 1;
        u &= m;
        if (t->vsigned && (u >> (t->vbits - 1)) & 1)
            u |= ~m;
    }
    return u;
}

/* The result widened to 64 bits as the kernel stores it (long long from the result type). */
static uint64_t widen(const shift_type *t, uint64_t r)
{
    if (t->bits == 32)
        return t->is_signed ? (uint64_t)(int64_t)(int32_t)(uint32_t)r : (uint64_t)(uint32_t)r;
    return r;
}

/* PTX: the count is an unsigned 32-bit value; >= the width shifts everything out. */
static uint64_t ptx_shift(const shift_type *t, long long v, uint64_t count, int left)
{
    uint64_t x = promoted(t, v), mask = t->bits == 64 ? ~0ULL : 0xffffffffULL;
    uint32_t n = (uint32_t)count;
    bool neg = t->is_signed && ((x >> (t->bits - 1)) & 1);
    uint64_t r;
    if (left)
        r = n >= (uint32_t)t->bits ? 0 : (x << n) & mask;
    else if (n >= (uint32_t)t->bits)
        r = neg ? mask : 0;
    else if (neg)
        r = ((x & mask) >> n | (mask & ~(mask >> n))) & mask;
    else
        r = (x & mask) >> n;
    return widen(t, r);
}

/* x86 (and the emulator today): the count modulo the width. */
static uint64_t x86_shift(const shift_type *t, long long v, uint64_t count, int left)
{
    return ptx_shift(t, v, count & (uint64_t)(t->bits - 1), left);
}

static const long long int_counts_extra[] = {-1, -2, -8, -31, -32, -33, -63, -64, -65, -128,
                                             INT32_MIN, INT32_MAX, 256, 257, 65537};
static const long long ll_counts[] = {0, 1, 63, 64, 65, 1LL << 32, (1LL << 32) + 1,
                                      (1LL << 32) + 63, -1, -64, INT64_MIN, 1LL << 40};
enum { NINT_COUNTS = 131 + sizeof int_counts_extra / sizeof int_counts_extra[0],
       NLL_COUNTS = sizeof ll_counts / sizeof ll_counts[0] };

typedef struct shift_result {
    uint64_t *shl[MAX_SIDES], *shr[MAX_SIDES];
    long long counts[NINT_COUNTS];
    int ncounts, ll; /* ll: the counts are long long */
    const shift_type *t;
} shift_result;

static shift_result shift_results[NSHIFT_TYPES + 2];
static int nshift_results;

static void probe_shifts(void)
{
    long long counts[NINT_COUNTS];
    for (int c = 0; c <= 130; c++)
        counts[c] = c;
    memcpy(counts + 131, int_counts_extra, sizeof int_counts_extra);
    buf src = {0};
    for (int i = 0; i < NSHIFT_TYPES; i++)
        bprintf(&src,
                "__global__ void shift_%d(const long long *x, const int *n, long long *shl,\n"
                "                         long long *shr, int nx, int nn)\n"
                "{\n"
                "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "    if (i >= nx * nn)\n"
                "        return;\n"
                "    %s v = (%s)x[i / nn];\n"
                "    int c = n[i %% nn];\n"
                "    shl[i] = v << c;\n"
                "    shr[i] = v >> c;\n"
                "}\n",
                i, shift_types[i].ktype, shift_types[i].ktype);
    for (int i = 0; i < 2; i++)
        bprintf(&src,
                "__global__ void shift_ll_%d(const long long *x, const long long *n, long long *shl,\n"
                "                            long long *shr, int nx, int nn)\n"
                "{\n"
                "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "    if (i >= nx * nn)\n"
                "        return;\n"
                "    %s v = (%s)x[i / nn];\n"
                "    long long c = n[i %% nn];\n"
                "    shl[i] = v << c;\n"
                "    shr[i] = v >> c;\n"
                "}\n",
                i, shift_types[2 + i].ktype, shift_types[2 + i].ktype);
    int icounts[NINT_COUNTS];
    for (int c = 0; c < NINT_COUNTS; c++)
        icounts[c] = (int)counts[c];
    nshift_results = NSHIFT_TYPES + 2;
    for (int r = 0; r < nshift_results; r++) {
        shift_result *sr = &shift_results[r];
        sr->ll = r >= NSHIFT_TYPES;
        sr->t = &shift_types[sr->ll ? 2 + (r - NSHIFT_TYPES) : r];
        sr->ncounts = sr->ll ? NLL_COUNTS : NINT_COUNTS;
        memcpy(sr->counts, sr->ll ? ll_counts : counts, (size_t)sr->ncounts * sizeof(long long));
    }
    for (int s = 0; s < nsides; s++) {
        char why[4096];
        lat_module *m = compile(&sides[s], src.p, NULL, why, sizeof why);
        if (!m) {
            fprintf(stderr, "bench_gpuarith: the shift kernels do not compile on %s: %s\n",
                    sides[s].name, why);
            exit(1);
        }
        for (int r = 0; r < nshift_results; r++) {
            shift_result *sr = &shift_results[r];
            char name[32];
            if (sr->ll)
                snprintf(name, sizeof name, "shift_ll_%d", r - NSHIFT_TYPES);
            else
                snprintf(name, sizeof name, "shift_%d", r);
            size_t rows = (size_t)sr->t->nvalues * (size_t)sr->ncounts;
            sr->shl[s] = xcalloc(rows, 8);
            sr->shr[s] = xcalloc(rows, 8);
            launch(kernel(m, name), rows,
                   LAT_ARGS(lat_arg_in(sr->t->values, (size_t)sr->t->nvalues * 8),
                            sr->ll ? lat_arg_in(sr->counts, (size_t)sr->ncounts * 8)
                                   : lat_arg_in(icounts, (size_t)sr->ncounts * 4),
                            lat_arg_out(sr->shl[s], rows * 8), lat_arg_out(sr->shr[s], rows * 8),
                            lat_arg_i32(sr->t->nvalues), lat_arg_i32(sr->ncounts)));
        }
        lat_module_destroy(m);
    }
    free(src.p);
}

static void report_shifts(void)
{
    printf("\n1. Shifts by run-time counts (counts 0..130, negative and huge; the count from\n"
           "   memory). Rows whose count is outside [0, width): how many give PTX's clamp\n"
           "   (0, or the sign for signed >>), x86's count mod width, or neither; and whether\n"
           "   every in-range row is C's result.\n");
    fprintf(out, "# shift\ttype\top\tcount_type\tvalue\tcount");
    for (int s = 0; s < nsides; s++)
        fprintf(out, "\t%s", sides[s].name);
    fprintf(out, "\tptx\tx86\n");
    for (int r = 0; r < nshift_results; r++) {
        const shift_result *sr = &shift_results[r];
        const shift_type *t = sr->t;
        for (int op = 0; op < 2; op++) {
            int outside = 0, ptx[MAX_SIDES] = {0}, x86[MAX_SIDES] = {0}, other[MAX_SIDES] = {0},
                inrange_bad[MAX_SIDES] = {0};
            for (int v = 0; v < t->nvalues; v++)
                for (int c = 0; c < sr->ncounts; c++) {
                    size_t i = (size_t)v * (size_t)sr->ncounts + (size_t)c;
                    long long n = sr->counts[c];
                    uint64_t p = ptx_shift(t, t->values[v], (uint64_t)n, op == 0);
                    uint64_t x = x86_shift(t, t->values[v], (uint64_t)n, op == 0);
                    bool in = n >= 0 && n < t->bits;
                    outside += !in;
                    fprintf(out, "shift\t%s\t%s\t%s\t%lld\t%lld", t->name, op ? ">>" : "<<",
                            sr->ll ? "long long" : "int", t->values[v], n);
                    for (int s = 0; s < nsides; s++) {
                        uint64_t got = op ? sr->shr[s][i] : sr->shl[s][i];
                        fprintf(out, "\t%lld", (long long)got);
                        if (in) {
                            inrange_bad[s] += got != p;
                        } else {
                            ptx[s] += got == p;
                            x86[s] += got == x && x != p;
                            other[s] += got != p && got != x;
                        }
                    }
                    fprintf(out, "\t%lld\t%lld\n", (long long)p, (long long)x);
                }
            printf("   %-18s %s %-9s", t->name, op ? ">>" : "<<", sr->ll ? "(ll count)" : "");
            for (int s = 0; s < nsides; s++)
                printf("  %s: %3d/%-3d ptx, %3d x86, %3d other%s", sides[s].name, ptx[s], outside,
                       x86[s], other[s], inrange_bad[s] ? " IN-RANGE WRONG" : "");
            printf("\n");
        }
    }
}

/* ---- 2. shifts by constant counts --------------------------------------------------------- */

/* Each expression, with the value from memory (a: int, b: unsigned, c: long long,
 * d: unsigned long long) and the count a constant; and fully constant ones (what the front
 * end folds). */
static const char *const const_exprs[] = {
    "a << 31", "a << 32", "a << 33", "a >> 32", "a >> 40", "b << 32", "b >> 32", "b >> 33",
    "c << 63", "c << 64", "c << 65", "c >> 64", "c >> 100", "d << 64", "d >> 64", "d >> 65",
};
static const char *const negative_exprs[] = {"a << -1", "a >> -1", "b >> -1", "c << -1", "c >> -1"};
static const char *const folded_exprs[] = {
    "1 << 32", "-1 >> 32", "5 >> 33", "1u << 32", "0x80000000u >> 32", "1LL << 64", "-1LL >> 64",
    "1ULL << 64", "1 << -1", "-8 >> -1",
};
enum { NCONST = sizeof const_exprs / sizeof const_exprs[0],
       NNEG = sizeof negative_exprs / sizeof negative_exprs[0],
       NFOLD = sizeof folded_exprs / sizeof folded_exprs[0] };
static const long long const_values[2] = {-5, 0x12345678};

/* Each expression is compiled on its own, so that a compiler refusing one (a GPU compiler
 * may call a shift by a negative constant an error) still measures the others. */
typedef struct const_group {
    const char *title;
    const char *const *exprs;
    int n;
    int values; /* 2: per value; 1: no value */
    long long *got[MAX_SIDES];
    bool refused[MAX_SIDES][16];
    char why[MAX_SIDES][512]; /* the compiler's first complaint */
} const_group;

static const_group const_groups[3] = {
    {"constant count >= width, value from memory", const_exprs, NCONST, 2, {0}, {{0}}, {{0}}},
    {"negative constant count", negative_exprs, NNEG, 2, {0}, {{0}}, {{0}}},
    {"value and count constant (folded by the front end)", folded_exprs, NFOLD, 1, {0}, {{0}}, {{0}}},
};

/* The value the ISA predicts for expression e with value index v. */
static bool const_predict(const char *e, long long val, long long *want)
{
    static const shift_type *ti = &shift_types[0], *tu = &shift_types[1], *tl = &shift_types[2],
                            *tul = &shift_types[3];
    char var, op[3];
    long long n;
    if (sscanf(e, "%c %2s %lld", &var, op, &n) != 3 || !strchr("abcd", var))
        return false;
    const shift_type *t = var == 'a' ? ti : var == 'b' ? tu : var == 'c' ? tl : tul;
    *want = (long long)ptx_shift(t, val, (uint64_t)n, op[0] == '<');
    return true;
}

static void probe_const_shifts(void)
{
    for (int g = 0; g < 3; g++) {
        const_group *cg = &const_groups[g];
        for (int s = 0; s < nsides; s++)
            cg->got[s] = xcalloc((size_t)2 * (size_t)cg->n, 8);
        for (int i = 0; i < cg->n; i++) {
            buf src = {0};
            bprintf(&src, "__global__ void consts(const long long *x, long long *o)\n{\n"
                          "    int t = threadIdx.x;\n"
                          "    int a = (int)x[t];\n    unsigned b = (unsigned)x[t];\n"
                          "    long long c = x[t];\n    unsigned long long d = (unsigned long long)x[t];\n"
                          "    (void)a; (void)b; (void)c; (void)d;\n"
                          "    o[t] = (long long)(%s);\n}\n",
                    cg->exprs[i]);
            for (int s = 0; s < nsides; s++) {
                char why[512];
                long long got[2] = {0, 0};
                lat_module *m = compile(&sides[s], src.p, NULL, why, sizeof why);
                if (m && lat_launch_args(kernel(m, "consts"),
                                         &(lat_launch_desc){.grid = {1}, .block = {2}},
                                         LAT_ARGS(lat_arg_in(const_values, sizeof const_values),
                                                  lat_arg_out(got, sizeof got))) != LAT_OK)
                    snprintf(why, sizeof why, "launch failed: %s", lat_last_error());
                lat_module_destroy(m);
                if (why[0]) {
                    cg->refused[s][i] = true;
                    if (!cg->why[s][0])
                        snprintf(cg->why[s], sizeof cg->why[s], "%s: %.400s", cg->exprs[i], why);
                }
                cg->got[s][i] = got[0];
                cg->got[s][cg->n + i] = got[1];
            }
            free(src.p);
        }
    }
}

static void report_const_shifts(void)
{
    printf("\n2. Shifts by constant counts (C's undefined behaviour; what NVRTC folds to).\n"
           "   value(s): -5 and 0x12345678; ptx: what shl/shr with that count would give.\n");
    fprintf(out, "# const_shift\tgroup\texpr\tvalue");
    for (int s = 0; s < nsides; s++)
        fprintf(out, "\t%s", sides[s].name);
    fprintf(out, "\tptx\n");
    for (int g = 0; g < 3; g++) {
        const const_group *cg = &const_groups[g];
        printf("   -- %s\n", cg->title);
        for (int s = 0; s < nsides; s++)
            if (cg->why[s][0])
                printf("      %s refused (first of them) %.300s\n", sides[s].name, cg->why[s]);
        for (int i = 0; i < cg->n; i++) {
            printf("      %-20s", cg->exprs[i]);
            for (int v = 0; v < cg->values; v++) {
                long long want = 0;
                bool known = const_predict(cg->exprs[i], const_values[v], &want);
                fprintf(out, "const_shift\t%d\t%s\t%lld", g, cg->exprs[i],
                        cg->values == 2 ? const_values[v] : 0);
                printf("  [");
                for (int s = 0; s < nsides; s++) {
                    long long got = cg->got[s][v * cg->n + i];
                    if (cg->refused[s][i]) {
                        fprintf(out, "\t-");
                        printf("%s%s -", s ? ", " : "", sides[s].name);
                    } else {
                        fprintf(out, "\t%lld", got);
                        printf("%s%s %lld", s ? ", " : "", sides[s].name, got);
                    }
                }
                if (known) {
                    fprintf(out, "\t%lld\n", want);
                    printf("; ptx %lld]", want);
                } else {
                    fprintf(out, "\t-\n");
                    printf("]");
                }
            }
            printf("\n");
        }
    }
}

/* ---- 3. conversions ----------------------------------------------------------------------- */

/* The targets, in the order the kernel stores them; the first 12 to their own type in
 * memory, the rest widened to long long in a register (and chains of casts). */
static const char *const cvt_targets[] = {
    "bool", "signed char", "unsigned char", "char", "short", "unsigned short", "int",
    "unsigned", "long", "unsigned long", "long long", "unsigned long long",
    /* widened */
    "(long long)(signed char)", "(long long)(unsigned char)", "(long long)(short)",
    "(long long)(unsigned short)", "(long long)(bool)", "(int)(unsigned)",
    "(unsigned char)(int)", "(unsigned)(int)", "(short)(int)", "(long long)(unsigned)",
};
enum { NSTORED = 12, NTARGETS = sizeof cvt_targets / sizeof cvt_targets[0] };

static const double cvt_inputs[] = {
    NAN, INFINITY, -INFINITY, 0.0, -0.0, 0.5, -0.5, 1.5, -1.5, -1.0, 3.99, -3.99, 127.9, 128,
    -128.5, -129, 200, -200, 255.5, 256, 300, 32767.5, 32768, -32769, 40000, 65535.5, 65536,
    70000, 0x1p31 - 128, 0x1p31, -0x1p31, -0x1p31 - 1, 0x1p31 - 1, 0x1p32 - 256, 0x1p32 - 1,
    0x1p32, 0x1p63 - 0x1p39, 0x1p63 - 1024, 0x1p63, -0x1p63, -0x1p63 - 2048, 0x1p64 - 0x1p40,
    0x1p64 - 2048, 0x1p64, 1e30, -1e30, 1e300, -1e300, 0x1p-149, -0x1p-149,
};
enum { NCVT_INPUTS = sizeof cvt_inputs / sizeof cvt_inputs[0] };

/* Bits and signedness of each stored target (bool: 1 bit, "nonzero"). */
static const struct {
    int bits, is_signed;
} cvt_kind[NSTORED] = {{1, 0},   {8, 1},   {8, 0},  {8, 1},  {16, 1}, {16, 0},
                       {32, 1},  {32, 0},  {64, 1}, {64, 0}, {64, 1}, {64, 0}};

/* What PTX's cvt.rzi gives (the emulator's helpers compute the same), as a 64-bit pattern
 * sign- or zero-extended from the target: truncate, clamp; NaN gives 0 from a float to 32
 * bits or less, else 1 << (bits - 1). */
static uint64_t isa_cvt(double x, int from_double, int bits, int is_signed)
{
    if (bits == 1)
        return x != 0; /* bool: a comparison, NaN is true */
    if (isnan(x)) {
        if (!from_double && bits < 64)
            return 0;
        return is_signed ? ~0ULL << (bits - 1) : 1ULL << (bits - 1);
    }
    double lo = is_signed ? -ldexp(1, bits - 1) : 0, hi = ldexp(1, is_signed ? bits - 1 : bits);
    double t = trunc(x);
    if (t < lo)
        return is_signed ? ~0ULL << (bits - 1) : 0;
    if (t >= hi)
        return is_signed ? (1ULL << (bits - 1)) - 1 : bits == 64 ? ~0ULL : (1ULL << bits) - 1;
    if (t >= 0x1p63)
        return (uint64_t)t;
    return (uint64_t)(int64_t)t;
}

/* x as an integer of `bits` (sign- or zero-extended to 64). */
static uint64_t narrow(uint64_t v, int bits, int is_signed)
{
    if (bits >= 64)
        return v;
    uint64_t m = (1ULL << bits) - 1;
    v &= m;
    return is_signed && ((v >> (bits - 1)) & 1) ? v | ~m : v;
}

/* The ISA's prediction for target index t. */
static uint64_t cvt_predict(double x, int from_double, int t)
{
    if (t < NSTORED)
        return isa_cvt(x, from_double, cvt_kind[t].bits, cvt_kind[t].is_signed);
    switch (t - NSTORED) {
    case 0: return isa_cvt(x, from_double, 8, 1);
    case 1: return isa_cvt(x, from_double, 8, 0);
    case 2: return isa_cvt(x, from_double, 16, 1);
    case 3: return isa_cvt(x, from_double, 16, 0);
    case 4: return isa_cvt(x, from_double, 1, 0);
    case 5: return narrow(isa_cvt(x, from_double, 32, 0), 32, 1);
    case 6: return narrow(isa_cvt(x, from_double, 32, 1), 8, 0);
    case 7: return narrow(isa_cvt(x, from_double, 32, 1), 32, 0);
    case 8: return narrow(isa_cvt(x, from_double, 32, 1), 16, 1);
    default: return isa_cvt(x, from_double, 32, 0);
    }
}

/* What LLVM's promotion of an 8-bit conversion to 16 bits would give (cvt.rzi.s16/u16,
 * then the low byte): the alternative to check for the 8-bit targets. */
static uint64_t via16(double x, int from_double, int t)
{
    static const int eight[] = {1, 2, 3, NSTORED + 0, NSTORED + 1};
    for (size_t i = 0; i < sizeof eight / sizeof eight[0]; i++)
        if (t == eight[i]) {
            int is_signed = t == 1 || t == 3 || t == NSTORED + 0;
            return narrow(isa_cvt(x, from_double, 16, is_signed), 8, is_signed);
        }
    return cvt_predict(x, from_double, t);
}

typedef struct cvt_result {
    uint64_t *got[MAX_SIDES]; /* NCVT_INPUTS x NTARGETS, widened */
} cvt_result;
static cvt_result cvt_results[2]; /* from float, from double */

static const char cvt_src[] =
    "__global__ void cvt(const REAL *x, bool *o0, signed char *o1, unsigned char *o2, char *o3,\n"
    "                    short *o4, unsigned short *o5, int *o6, unsigned *o7, long *o8,\n"
    "                    unsigned long *o9, long long *o10, unsigned long long *o11,\n"
    "                    long long *w, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i >= n)\n"
    "        return;\n"
    "    REAL v = x[i];\n"
    "    o0[i] = (bool)v;\n"
    "    o1[i] = (signed char)v;\n"
    "    o2[i] = (unsigned char)v;\n"
    "    o3[i] = (char)v;\n"
    "    o4[i] = (short)v;\n"
    "    o5[i] = (unsigned short)v;\n"
    "    o6[i] = (int)v;\n"
    "    o7[i] = (unsigned)v;\n"
    "    o8[i] = (long)v;\n"
    "    o9[i] = (unsigned long)v;\n"
    "    o10[i] = (long long)v;\n"
    "    o11[i] = (unsigned long long)v;\n"
    "    long long *o = w + 10 * i;\n"
    "    o[0] = (long long)(signed char)v;\n"
    "    o[1] = (long long)(unsigned char)v;\n"
    "    o[2] = (long long)(short)v;\n"
    "    o[3] = (long long)(unsigned short)v;\n"
    "    o[4] = (long long)(bool)v;\n"
    "    o[5] = (int)(unsigned)v;\n"
    "    o[6] = (unsigned char)(int)v;\n"
    "    o[7] = (unsigned)(int)v;\n"
    "    o[8] = (short)(int)v;\n"
    "    o[9] = (long long)(unsigned)v;\n"
    "}\n";

static char *with_real(const char *src, const char *real)
{
    buf b = {0};
    bprintf(&b, "typedef %s REAL;\n%s", real, src);
    return b.p;
}

static void probe_conversions(void)
{
    for (int from_double = 0; from_double < 2; from_double++) {
        char *src = with_real(cvt_src, from_double ? "double" : "float");
        float xf[NCVT_INPUTS];
        for (int i = 0; i < NCVT_INPUTS; i++)
            xf[i] = (float)cvt_inputs[i];
        for (int s = 0; s < nsides; s++) {
            char why[4096];
            lat_module *m = compile(&sides[s], src, NULL, why, sizeof why);
            if (!m) {
                fprintf(stderr, "bench_gpuarith: the conversion kernel does not compile on %s: %s\n",
                        sides[s].name, why);
                exit(1);
            }
            enum { N = NCVT_INPUTS };
            unsigned char b0[N], u8[N];
            signed char s8[N], c8[N];
            short s16[N];
            unsigned short u16[N];
            int s32[N];
            unsigned u32[N];
            long l64[N];
            unsigned long ul64[N];
            long long ll64[N], w[10 * N];
            unsigned long long ull64[N];
            launch(kernel(m, "cvt"), N,
                   LAT_ARGS(from_double ? lat_arg_in(cvt_inputs, sizeof cvt_inputs)
                                        : lat_arg_in(xf, sizeof xf),
                            lat_arg_out(b0, sizeof b0), lat_arg_out(s8, sizeof s8),
                            lat_arg_out(u8, sizeof u8), lat_arg_out(c8, sizeof c8),
                            lat_arg_out(s16, sizeof s16), lat_arg_out(u16, sizeof u16),
                            lat_arg_out(s32, sizeof s32), lat_arg_out(u32, sizeof u32),
                            lat_arg_out(l64, sizeof l64), lat_arg_out(ul64, sizeof ul64),
                            lat_arg_out(ll64, sizeof ll64), lat_arg_out(ull64, sizeof ull64),
                            lat_arg_out(w, sizeof w), lat_arg_i32(N)));
            lat_module_destroy(m);
            uint64_t *g = cvt_results[from_double].got[s] = xcalloc((size_t)N * NTARGETS, 8);
            for (int i = 0; i < N; i++) {
                uint64_t *r = g + (size_t)i * NTARGETS;
                r[0] = b0[i]; /* the byte as stored: 0 or 1, or what else the GPU wrote */
                r[1] = (uint64_t)(int64_t)s8[i];
                r[2] = u8[i];
                r[3] = (uint64_t)(int64_t)c8[i];
                r[4] = (uint64_t)(int64_t)s16[i];
                r[5] = u16[i];
                r[6] = (uint64_t)(int64_t)s32[i];
                r[7] = u32[i];
                r[8] = (uint64_t)l64[i];
                r[9] = ul64[i];
                r[10] = (uint64_t)ll64[i];
                r[11] = ull64[i];
                for (int k = 0; k < 10; k++)
                    r[NSTORED + k] = (uint64_t)w[10 * i + k];
            }
        }
        free(src);
    }
}

static void report_conversions(void)
{
    printf("\n3. Float-to-integer conversions: per source and target, the inputs whose result\n"
           "   is not the ISA's (cvt.rzi: truncate, clamp; NaN 0 from float to <= 32 bits, else\n"
           "   1 << (bits-1)); [16] marks a result equal to a 16-bit conversion's low byte.\n");
    fprintf(out, "# convert\tfrom\tto\tinput");
    for (int s = 0; s < nsides; s++)
        fprintf(out, "\t%s", sides[s].name);
    fprintf(out, "\tisa\tvia16\n");
    for (int from_double = 0; from_double < 2; from_double++) {
        for (int s = 0; s < nsides; s++) {
            printf("   -- from %s, %s:\n", from_double ? "double" : "float", sides[s].name);
            int all_ok = 1;
            for (int t = 0; t < NTARGETS; t++) {
                int bad = 0;
                buf line = {0};
                for (int i = 0; i < NCVT_INPUTS; i++) {
                    double x = from_double ? cvt_inputs[i] : (double)(float)cvt_inputs[i];
                    uint64_t got = cvt_results[from_double].got[s][(size_t)i * NTARGETS + (size_t)t];
                    uint64_t want = cvt_predict(x, from_double, t), alt = via16(x, from_double, t);
                    if (got != want) {
                        if (bad < 8)
                            bprintf(&line, " %.10g->%lld%s", x, (long long)got,
                                    got == alt && alt != want ? "[16]" : "");
                        bad++;
                    }
                }
                if (bad) {
                    all_ok = 0;
                    printf("      %-28s %2d/%d differ:%s%s\n", cvt_targets[t], bad, NCVT_INPUTS,
                           line.p, bad > 8 ? " ..." : "");
                }
                free(line.p);
            }
            if (all_ok)
                printf("      every target, every input: as the ISA says\n");
        }
        for (int t = 0; t < NTARGETS; t++)
            for (int i = 0; i < NCVT_INPUTS; i++) {
                double x = from_double ? cvt_inputs[i] : (double)(float)cvt_inputs[i];
                fprintf(out, "convert\t%s\t%s\t%a", from_double ? "double" : "float", cvt_targets[t], x);
                for (int s = 0; s < nsides; s++)
                    fprintf(out, "\t%lld",
                            (long long)cvt_results[from_double].got[s][(size_t)i * NTARGETS + (size_t)t]);
                fprintf(out, "\t%lld\t%lld\n", (long long)cvt_predict(x, from_double, t),
                        (long long)via16(x, from_double, t));
            }
    }
}

/* Integer to floating: C says round to nearest (even); the rows check every side does. */
static const long long i2f_inputs[] = {
    16777217, 16777219, -16777217, INT32_MAX, INT32_MIN, 0xffffffffLL, 0x80000001LL,
    (1LL << 53) + 1, (1LL << 53) + 3, INT64_MAX, INT64_MIN, -1, (long long)0x8000000000000001ULL,
    0x7ffffffffffffdffLL, (long long)0xfffffffffffff800ULL, (long long)0xfffffffffffffbffULL,
    (long long)0xffffff7fffffffffULL, 0x7fffff8000000000LL,
};
enum { NI2F = sizeof i2f_inputs / sizeof i2f_inputs[0] };
static const double d2f_inputs[] = {1 + 0x1p-24, 1 + 0x1p-24 + 0x1p-52, 3.4028235677973366e38,
                                    3.4028235677973362e38, 1e39, 0x1p-150, 0x1p-150 + 0x1p-200,
                                    -0x1p-149 * 1.5, 0x1.fffffefffffffp-1};
enum { ND2F = sizeof d2f_inputs / sizeof d2f_inputs[0] };

static const char i2f_src[] =
    "__global__ void i2f(const long long *x, const double *y, float *f, double *d, float *g,\n"
    "                    int n, int m)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) {\n"
    "        long long v = x[i];\n"
    "        f[4 * i] = (float)(int)v;\n"
    "        f[4 * i + 1] = (float)(unsigned)v;\n"
    "        f[4 * i + 2] = (float)v;\n"
    "        f[4 * i + 3] = (float)(unsigned long long)v;\n"
    "        d[2 * i] = (double)v;\n"
    "        d[2 * i + 1] = (double)(unsigned long long)v;\n"
    "    }\n"
    "    if (i < m)\n"
    "        g[i] = (float)y[i];\n"
    "}\n";

static void probe_int_to_float(void)
{
    printf("\n   Integer to floating and double to float (round to nearest even; a row is\n"
           "   listed only where a side differs from the host's C conversion):\n");
    fprintf(out, "# int_to_float\tconversion\tinput");
    for (int s = 0; s < nsides; s++)
        fprintf(out, "\t%s", sides[s].name);
    fprintf(out, "\tc\n");
    float hf[4 * NI2F], hg[ND2F];
    double hd[2 * NI2F];
    for (int i = 0; i < NI2F; i++) {
        long long v = i2f_inputs[i];
        hf[4 * i] = (float)(int)v;
        hf[4 * i + 1] = (float)(unsigned)v;
        hf[4 * i + 2] = (float)v;
        hf[4 * i + 3] = (float)(unsigned long long)v;
        hd[2 * i] = (double)v;
        hd[2 * i + 1] = (double)(unsigned long long)v;
    }
    for (int i = 0; i < ND2F; i++)
        hg[i] = (float)d2f_inputs[i];
    static const char *const fnames[4] = {"(float)(int)", "(float)(unsigned)", "(float)(long long)",
                                          "(float)(unsigned long long)"};
    static const char *const dnames[2] = {"(double)(long long)", "(double)(unsigned long long)"};
    int listed = 0;
    float f[MAX_SIDES][4 * NI2F], g[MAX_SIDES][ND2F];
    double d[MAX_SIDES][2 * NI2F];
    for (int s = 0; s < nsides; s++) {
        char why[4096];
        lat_module *m = compile(&sides[s], i2f_src, NULL, why, sizeof why);
        if (!m) {
            printf("      %s refused the kernel: %.300s\n", sides[s].name, why);
            return;
        }
        launch(kernel(m, "i2f"), (size_t)NI2F > (size_t)ND2F ? (size_t)NI2F : (size_t)ND2F,
               LAT_ARGS(lat_arg_in(i2f_inputs, sizeof i2f_inputs),
                        lat_arg_in(d2f_inputs, sizeof d2f_inputs), lat_arg_out(f[s], sizeof f[s]),
                        lat_arg_out(d[s], sizeof d[s]), lat_arg_out(g[s], sizeof g[s]),
                        lat_arg_i32(NI2F), lat_arg_i32(ND2F)));
        lat_module_destroy(m);
    }
    for (int i = 0; i < NI2F; i++)
        for (int k = 0; k < 6; k++) {
            double want = k < 4 ? hf[4 * i + k] : hd[2 * i + k - 4];
            const char *name = k < 4 ? fnames[k] : dnames[k - 4];
            fprintf(out, "int_to_float\t%s\t%lld", name, i2f_inputs[i]);
            bool differs = false;
            for (int s = 0; s < nsides; s++) {
                double got = k < 4 ? f[s][4 * i + k] : d[s][2 * i + k - 4];
                fprintf(out, "\t%a", got);
                differs |= memcmp(&got, &want, sizeof got) != 0;
            }
            fprintf(out, "\t%a\n", want);
            if (differs) {
                printf("      %s%lld:", name, i2f_inputs[i]);
                for (int s = 0; s < nsides; s++)
                    printf(" %s %a", sides[s].name, k < 4 ? f[s][4 * i + k] : d[s][2 * i + k - 4]);
                printf("; C %a\n", want);
                listed++;
            }
        }
    for (int i = 0; i < ND2F; i++) {
        fprintf(out, "int_to_float\t(float)(double)\t%a", d2f_inputs[i]);
        bool differs = false;
        for (int s = 0; s < nsides; s++) {
            fprintf(out, "\t%a", (double)g[s][i]);
            differs |= memcmp(&g[s][i], &hg[i], sizeof hg[i]) != 0;
        }
        fprintf(out, "\t%a\n", (double)hg[i]);
        if (differs) {
            printf("      (float)%a:", d2f_inputs[i]);
            for (int s = 0; s < nsides; s++)
                printf(" %s %a", sides[s].name, (double)g[s][i]);
            printf("; C %a\n", (double)hg[i]);
            listed++;
        }
    }
    if (!listed)
        printf("      every row as C rounds it\n");
}

/* ---- 4. fused multiply-add contraction ----------------------------------------------------- */

enum { NFMA = 2048, DOT = 16 };

typedef struct pattern {
    const char *name;
    const char *body;   /* computes r1 (and r2) from a, b, c, d, e (REAL), or the loop */
    const char *option; /* a module option, or NULL */
    int outputs;        /* 1 or 2 */
    int kind;           /* which candidates (see candidates()) */
    int cancel;         /* which input to make cancel (see make_inputs()) */
} pattern;

enum { K_ADD, K_SUB, K_RSUB, K_TWO_PRODUCTS, K_TRIPLE, K_NESTED, K_TWO_USES, K_DOT };
enum { C_RAND, C_NEG_AB, C_POS_AB, C_CD, C_ABC, C_NESTED, C_TWO };

static const pattern patterns[] = {
    {"a*b+c", "r1 = a * b + c;", NULL, 1, K_ADD, C_NEG_AB},
    {"c+a*b", "r1 = c + a * b;", NULL, 1, K_ADD, C_NEG_AB},
    {"a*b-c", "r1 = a * b - c;", NULL, 1, K_SUB, C_POS_AB},
    {"c-a*b", "r1 = c - a * b;", NULL, 1, K_RSUB, C_POS_AB},
    {"-(a*b)+c", "r1 = -(a * b) + c;", NULL, 1, K_RSUB, C_POS_AB},
    {"a*b+c*d", "r1 = a * b + c * d;", NULL, 1, K_TWO_PRODUCTS, C_CD},
    {"a*b*c+d", "r1 = a * b * c + d;", NULL, 1, K_TRIPLE, C_ABC},
    {"(a*b+c)*d+e", "r1 = (a * b + c) * d + e;", NULL, 1, K_NESTED, C_NESTED},
    {"c += a*b", "r1 = c; r1 += a * b;", NULL, 1, K_ADD, C_NEG_AB},
    {"c -= a*b", "r1 = c; r1 -= a * b;", NULL, 1, K_RSUB, C_POS_AB},
    {"t=a*b; r=t+c", "REAL t = a * b; REAL r = t + c; r1 = r;", NULL, 1, K_ADD, C_NEG_AB},
    {"t=a*b; r1=t+c; r2=t+d", "REAL t = a * b; r1 = t + c; r2 = t + d;", NULL, 2, K_TWO_USES, C_TWO},
    {"s += x[i]*y[i] (16)", NULL, NULL, 1, K_DOT, C_RAND},
    {"a*b+c --fmad=false", "r1 = a * b + c;", "--fmad=false", 1, K_ADD, C_NEG_AB},
    {"__fmul_rn(a,b)+c", "r1 = MUL_RN(a, b) + c;", NULL, 1, K_ADD, C_NEG_AB},
    {"fma(a,b,c) (control)", "r1 = FMA(a, b, c);", NULL, 1, K_ADD, C_NEG_AB},
};
enum { NPATTERNS = sizeof patterns / sizeof patterns[0], MAX_CAND = 4 };

/* Host arithmetic in T, each operation rounded once (ISO C: no contraction). */
#define DEFINE_CANDIDATES(T, SUF, FMA)                                                          \
    static T mul_##SUF(T a, T b) { volatile T r = a * b; return r; }                           \
    static T add_##SUF(T a, T b) { volatile T r = a + b; return r; }                           \
    static T sub_##SUF(T a, T b) { volatile T r = a - b; return r; }                           \
    /* Fills cand[][2] (r1, r2) and names; returns the count. */                                \
    static int candidates_##SUF(int kind, const T *a, const T *b, const T *c, const T *d,       \
                                const T *e, T cand[MAX_CAND][2], const char **names)           \
    {                                                                                          \
        T ab = mul_##SUF(a[0], b[0]);                                                          \
        switch (kind) {                                                                        \
        case K_ADD:                                                                            \
            cand[0][0] = FMA(a[0], b[0], c[0]), names[0] = "fma(a,b,c)";                       \
            cand[1][0] = add_##SUF(ab, c[0]), names[1] = "unfused";                            \
            return 2;                                                                          \
        case K_SUB:                                                                            \
            cand[0][0] = FMA(a[0], b[0], -c[0]), names[0] = "fma(a,b,-c)";                     \
            cand[1][0] = sub_##SUF(ab, c[0]), names[1] = "unfused";                            \
            return 2;                                                                          \
        case K_RSUB:                                                                           \
            cand[0][0] = FMA(-a[0], b[0], c[0]), names[0] = "fma(-a,b,c)";                     \
            cand[1][0] = sub_##SUF(c[0], ab), names[1] = "unfused";                            \
            return 2;                                                                          \
        case K_TWO_PRODUCTS: {                                                                 \
            T cd = mul_##SUF(c[0], d[0]);                                                      \
            cand[0][0] = FMA(a[0], b[0], cd), names[0] = "fma(a,b,c*d)";                       \
            cand[1][0] = FMA(c[0], d[0], ab), names[1] = "fma(c,d,a*b)";                       \
            cand[2][0] = add_##SUF(ab, cd), names[2] = "unfused";                              \
            return 3;                                                                          \
        }                                                                                      \
        case K_TRIPLE:                                                                         \
            cand[0][0] = FMA(ab, c[0], d[0]), names[0] = "fma(a*b,c,d)";                       \
            cand[1][0] = add_##SUF(mul_##SUF(ab, c[0]), d[0]), names[1] = "unfused";           \
            return 2;                                                                          \
        case K_NESTED: {                                                                       \
            T fi = FMA(a[0], b[0], c[0]), ui = add_##SUF(ab, c[0]);                            \
            cand[0][0] = FMA(fi, d[0], e[0]), names[0] = "both fused";                         \
            cand[1][0] = add_##SUF(mul_##SUF(fi, d[0]), e[0]), names[1] = "inner fused";       \
            cand[2][0] = FMA(ui, d[0], e[0]), names[2] = "outer fused";                        \
            cand[3][0] = add_##SUF(mul_##SUF(ui, d[0]), e[0]), names[3] = "unfused";           \
            return 4;                                                                          \
        }                                                                                      \
        case K_TWO_USES: {                                                                     \
            T f1 = FMA(a[0], b[0], c[0]), f2 = FMA(a[0], b[0], d[0]);                          \
            T u1 = add_##SUF(ab, c[0]), u2 = add_##SUF(ab, d[0]);                              \
            cand[0][0] = f1, cand[0][1] = f2, names[0] = "both fused";                         \
            cand[1][0] = f1, cand[1][1] = u2, names[1] = "first fused";                        \
            cand[2][0] = u1, cand[2][1] = f2, names[2] = "second fused";                       \
            cand[3][0] = u1, cand[3][1] = u2, names[3] = "unfused";                            \
            return 4;                                                                          \
        }                                                                                      \
        default: {                                                                             \
            T f = 0, u = 0;                                                                    \
            for (int k = 0; k < DOT; k++) {                                                    \
                f = FMA(a[k], b[k], f);                                                        \
                u = add_##SUF(u, mul_##SUF(a[k], b[k]));                                       \
            }                                                                                  \
            cand[0][0] = f, names[0] = "fma chain";                                            \
            cand[1][0] = u, names[1] = "unfused";                                              \
            return 2;                                                                          \
        }                                                                                      \
        }                                                                                      \
    }
DEFINE_CANDIDATES(float, f, fmaf)
DEFINE_CANDIDATES(double, d, fma)

typedef struct fma_result {
    int ncand;
    const char *names[MAX_CAND];
    int decisive;                      /* inputs where the candidates are not all equal */
    int match[MAX_SIDES][MAX_CAND];    /* decisive inputs matching each candidate */
    int none[MAX_SIDES];               /* inputs (any) matching no candidate */
    char why[MAX_SIDES][300];          /* compile failure */
} fma_result;
static fma_result fma_results[2][NPATTERNS];

/* Inputs for a pattern: a, b of random sign and size near 1; for half the rows the
 * pattern's addend is chosen to cancel the product, where rounding it shows most. */
static void make_inputs(int cancel, int is_double, double *a, double *b, double *c, double *d,
                        double *e, int n)
{
#define RV() ((rnd_unit() * 2 - 1) * ldexp(1, (int)(rnd() % 7) - 3))
#define ROUND(x) (is_double ? (x) : (double)(float)(x))
    for (int i = 0; i < n * DOT; i++) {
        a[i] = ROUND(RV());
        b[i] = ROUND(RV());
    }
    for (int i = 0; i < n; i++) {
        double delta = (rnd_unit() - 0.5) * ldexp(1, -(int)(rnd() % 20) - 4);
        bool near = i % 2 == 0;
        c[i] = ROUND(RV());
        d[i] = ROUND(RV());
        e[i] = ROUND(RV());
        double ab = a[i] * b[i];
        if (!near)
            continue;
        switch (cancel) {
        case C_NEG_AB: c[i] = ROUND(-ab * (1 + delta)); break;
        case C_POS_AB: c[i] = ROUND(ab * (1 + delta)); break;
        case C_CD: d[i] = ROUND(-ab / c[i] * (1 + delta)); break;
        case C_ABC: d[i] = ROUND(-ROUND(ab) * c[i] * (1 + delta)); break;
        case C_NESTED: e[i] = ROUND(-(ab + c[i]) * d[i] * (1 + delta)); break;
        case C_TWO:
            c[i] = ROUND(-ab * (1 + delta));
            d[i] = ROUND(-ab * (1 - delta / 3));
            break;
        default: break;
        }
    }
#undef RV
#undef ROUND
}

static char *fma_source(const pattern *p, int is_double)
{
    buf b = {0};
    bprintf(&b, "typedef %s REAL;\n#define MUL_RN %s\n#define FMA %s\n", is_double ? "double" : "float",
            is_double ? "__dmul_rn" : "__fmul_rn", is_double ? "fma" : "fmaf");
    bprintf(&b, "__global__ void pattern(const REAL *A, const REAL *B, const REAL *C, const REAL *D,\n"
                "                        const REAL *E, REAL *R1, REAL *R2, int n)\n"
                "{\n"
                "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                "    if (i >= n)\n"
                "        return;\n");
    if (p->body)
        bprintf(&b, "    REAL a = A[i], b = B[i], c = C[i], d = D[i], e = E[i], r1 = 0, r2 = 0;\n"
                    "    (void)a; (void)b; (void)c; (void)d; (void)e;\n"
                    "    %s\n"
                    "    R1[i] = r1;\n"
                    "    R2[i] = r2;\n",
                p->body);
    else
        bprintf(&b, "    REAL s = 0;\n"
                    "    for (int k = 0; k < %d; k++)\n"
                    "        s += A[i * %d + k] * B[i * %d + k];\n"
                    "    R1[i] = s;\n"
                    "    R2[i] = 0;\n",
                DOT, DOT, DOT);
    bprintf(&b, "}\n");
    return b.p;
}

static void probe_fma(void)
{
    fprintf(out, "# fma\ttype\tpattern\tindex\ta\tb\tc\td\te");
    for (int s = 0; s < nsides; s++)
        fprintf(out, "\t%s_r1\t%s_r2\t%s_matches", sides[s].name, sides[s].name, sides[s].name);
    fprintf(out, "\tcandidates (name=r1[,r2])...\n");
    fprintf(out, "# (the first 24 inputs of each pattern where the candidates differ, and every"
                 " input matching no candidate)\n");
    size_t nd = (size_t)NFMA * DOT;
    double *a = xcalloc(nd, 8), *b = xcalloc(nd, 8), *c = xcalloc(NFMA, 8), *d = xcalloc(NFMA, 8),
           *e = xcalloc(NFMA, 8);
    for (int is_double = 0; is_double < 2; is_double++) {
        size_t es = is_double ? 8 : 4;
        for (int pi = 0; pi < NPATTERNS; pi++) {
            const pattern *p = &patterns[pi];
            fma_result *fr = &fma_results[is_double][pi];
            make_inputs(p->cancel, is_double, a, b, c, d, e, NFMA);
            /* The inputs in the kernel's type. */
            void *A = xcalloc(nd, es), *B = xcalloc(nd, es), *C = xcalloc(NFMA, es),
                 *D = xcalloc(NFMA, es), *E = xcalloc(NFMA, es);
            for (size_t i = 0; i < nd; i++) {
                if (is_double) {
                    ((double *)A)[i] = a[i];
                    ((double *)B)[i] = b[i];
                } else {
                    ((float *)A)[i] = (float)a[i];
                    ((float *)B)[i] = (float)b[i];
                }
            }
            for (int i = 0; i < NFMA; i++) {
                if (is_double) {
                    ((double *)C)[i] = c[i], ((double *)D)[i] = d[i], ((double *)E)[i] = e[i];
                } else {
                    ((float *)C)[i] = (float)c[i], ((float *)D)[i] = (float)d[i],
                    ((float *)E)[i] = (float)e[i];
                }
            }
            void *r1[MAX_SIDES], *r2[MAX_SIDES];
            char *src = fma_source(p, is_double);
            const char *opts[] = {p->option, NULL};
            for (int s = 0; s < nsides; s++) {
                r1[s] = xcalloc(NFMA, es);
                r2[s] = xcalloc(NFMA, es);
                lat_module *m = compile(&sides[s], src, p->option ? opts : NULL, fr->why[s],
                                        sizeof fr->why[s]);
                if (!m)
                    continue;
                launch(kernel(m, "pattern"), NFMA,
                       LAT_ARGS(lat_arg_in(A, nd * es), lat_arg_in(B, nd * es),
                                lat_arg_in(C, NFMA * es), lat_arg_in(D, NFMA * es),
                                lat_arg_in(E, NFMA * es), lat_arg_out(r1[s], NFMA * es),
                                lat_arg_out(r2[s], NFMA * es), lat_arg_i32(NFMA)));
                lat_module_destroy(m);
            }
            free(src);
            int written = 0;
            for (int i = 0; i < NFMA; i++) {
                double cand[MAX_CAND][2] = {{0}};
                size_t base = p->body ? (size_t)i : (size_t)i * DOT;
                if (is_double) {
                    fr->ncand = candidates_d(p->kind, a + base, b + base, c + i, d + i, e + i, cand,
                                             fr->names);
                } else {
                    float fa[DOT], fb[DOT], fc = (float)c[i], fdd = (float)d[i], fe = (float)e[i];
                    float fcand[MAX_CAND][2] = {{0}};
                    for (int k = 0; k < DOT; k++) {
                        fa[k] = (float)a[base + (size_t)(p->body ? 0 : k)];
                        fb[k] = (float)b[base + (size_t)(p->body ? 0 : k)];
                    }
                    fr->ncand = candidates_f(p->kind, fa, fb, &fc, &fdd, &fe, fcand, fr->names);
                    for (int q = 0; q < MAX_CAND; q++)
                        cand[q][0] = fcand[q][0], cand[q][1] = fcand[q][1];
                }
                bool decisive = false;
                for (int q = 1; q < fr->ncand; q++)
                    decisive |= memcmp(&cand[q], &cand[0], sizeof cand[0]) != 0;
                fr->decisive += decisive;
                bool write_row = decisive && written < 24;
                int matches[MAX_SIDES] = {0};
                for (int s = 0; s < nsides; s++) {
                    if (fr->why[s][0])
                        continue;
                    double g1 = is_double ? ((double *)r1[s])[i] : ((float *)r1[s])[i];
                    double g2 = is_double ? ((double *)r2[s])[i] : ((float *)r2[s])[i];
                    for (int q = 0; q < fr->ncand; q++) {
                        bool eq = memcmp(&g1, &cand[q][0], 8) == 0 &&
                                  (p->outputs < 2 || memcmp(&g2, &cand[q][1], 8) == 0);
                        if (eq) {
                            matches[s] |= 1 << q;
                            if (decisive)
                                fr->match[s][q]++;
                        }
                    }
                    if (!matches[s]) {
                        fr->none[s]++;
                        write_row = true;
                    }
                }
                if (!write_row)
                    continue;
                written += decisive;
                fprintf(out, "fma\t%s\t%s\t%d\t%a\t%a\t%a\t%a\t%a", is_double ? "double" : "float",
                        p->name, i, a[base], b[base], c[i], d[i], e[i]);
                for (int s = 0; s < nsides; s++) {
                    double g1 = is_double ? ((double *)r1[s])[i] : ((float *)r1[s])[i];
                    double g2 = is_double ? ((double *)r2[s])[i] : ((float *)r2[s])[i];
                    fprintf(out, "\t%a\t%a\t", g1, g2);
                    for (int q = 0; q < fr->ncand; q++)
                        if (matches[s] & (1 << q))
                            fprintf(out, "%s;", fr->names[q]);
                }
                for (int q = 0; q < fr->ncand; q++) {
                    fprintf(out, "\t%s=%a", fr->names[q], cand[q][0]);
                    if (p->outputs > 1)
                        fprintf(out, ",%a", cand[q][1]);
                }
                fprintf(out, "\n");
            }
            for (int s = 0; s < nsides; s++) {
                free(r1[s]);
                free(r2[s]);
            }
            free(A), free(B), free(C), free(D), free(E);
        }
    }
    free(a), free(b), free(c), free(d), free(e);
}

static void report_fma(void)
{
    printf("\n4. Fused multiply-add contraction: per pattern, among the inputs where the\n"
           "   candidates differ (\"decisive\", of %d), the share each side's result equals\n"
           "   bit for bit; \"none\" counts inputs (of all) matching no candidate.\n", NFMA);
    for (int is_double = 0; is_double < 2; is_double++) {
        printf("   -- %s\n", is_double ? "double" : "float");
        for (int pi = 0; pi < NPATTERNS; pi++) {
            const fma_result *fr = &fma_results[is_double][pi];
            printf("   %-24s %5d", patterns[pi].name, fr->decisive);
            for (int s = 0; s < nsides; s++) {
                printf("  %s:", sides[s].name);
                if (fr->why[s][0]) {
                    printf(" refused (%.60s)", fr->why[s]);
                    continue;
                }
                for (int q = 0; q < fr->ncand; q++)
                    printf(" %s %.0f%%", fr->names[q],
                           fr->decisive ? 100.0 * fr->match[s][q] / fr->decisive : 0.0);
                if (fr->none[s])
                    printf(" none %d", fr->none[s]);
            }
            printf("\n");
        }
    }
}

/* ---- main ------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            path = argv[++i];
        else {
            fprintf(stderr, "usage: bench_gpuarith [-o FILE]\n");
            return 2;
        }
    }
    lat_context *primary;
    if (lat_context_create(NULL, &primary) != LAT_OK)
        die("lat_context_create");
    lat_backend_kind kind = lat_context_backend(primary);
    if (kind == LAT_BACKEND_CROSS) {
        fprintf(stderr, "bench_gpuarith: run it on one backend (LATTICE_BACKEND=cuda or emu): "
                        "it compares them itself\n");
        return 2;
    }
    sides[nsides++] = (side){primary, lat_backend_name(kind)};
    if (kind == LAT_BACKEND_CUDA) {
        lat_context *emu;
        if (lat_context_create(&(lat_context_desc){.backend = LAT_BACKEND_EMU}, &emu) != LAT_OK)
            die("lat_context_create (emulator)");
        sides[nsides++] = (side){emu, "emu"};
    }
    char defpath[64];
    if (!path) {
        snprintf(defpath, sizeof defpath, "gpuarith-%s.txt", sides[0].name);
        path = defpath;
    }
    out = fopen(path, "w");
    if (!out) {
        perror(path);
        return 1;
    }
    lat_device_info info;
    printf("bench_gpuarith: ");
    fprintf(out, "# bench_gpuarith:");
    for (int s = 0; s < nsides; s++) {
        if (lat_context_device_info(sides[s].ctx, &info) != LAT_OK)
            die("lat_context_device_info");
        printf("%s%s (%s, compute %d.%d)", s ? " and " : "", sides[s].name, info.name,
               info.compute_major, info.compute_minor);
        fprintf(out, " %s (%s, compute %d.%d)", sides[s].name, info.name, info.compute_major,
                info.compute_minor);
    }
    printf("; every row in %s\n", path);
    fprintf(out, "\n");

    probe_shifts();
    report_shifts();
    probe_const_shifts();
    report_const_shifts();
    probe_conversions();
    report_conversions();
    probe_int_to_float();
    probe_fma();
    report_fma();

    fclose(out);
    for (int s = nsides; s-- > 0;)
        lat_context_destroy(sides[s].ctx);
    return 0;
}
