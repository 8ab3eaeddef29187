/* Map kernels whose blocks the emulator's optimising tier writes as vector code with
 * streaming stores (src/emu/passes/stream.c; which kernels: tests/emu/test_stream_shape.c).
 * Each result is checked against the host's double arithmetic on every backend, and on the
 * emulator bit for bit against TinyCC's thread loops, with the tier's threshold lowered so
 * that these small grids stream (LATTICE_EMU_CC_FLAGS=-D__LAT_STREAM_BYTES=0). The launches
 * include what must not stream: the grid's partial last block, a destination off a line,
 * blocks of a size that is no multiple of a line, two-dimensional blocks. */
#include "harness.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { N = 16 * 1024 + 77, PAD = 16 };

static const char src[] =
    "#define IDX (blockIdx.x * blockDim.x + threadIdx.x)\n"
    "__global__ void mul(float *d, const float *a, const float *b, int n)\n"
    "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) d[i] = a[i] * b[i]; }\n"
    "__global__ void saxpy(float *y, const float *x, float a, int n)\n"
    "{\n"
    "    unsigned int i = threadIdx.x + blockDim.x * blockIdx.x;\n"
    "    if (i >= n)\n"
    "        return;\n"
    "    y[i] = a * x[i] + y[i];\n" /* contracted into fmaf, as NVRTC does */
    "}\n"
    "__global__ void mixed(double *d, const float *a, double s, unsigned n)\n"
    "{\n"
    "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (n > i) { double t = a[i] / s; d[i] = t - (double)i * 0.5; }\n"
    "}\n"
    "__global__ void ints(int *o, const int *a, int key, int n)\n"
    "{ int i = IDX; if (i < n) o[i] = (a[i] ^ key) + i * 3 - (a[i] & 255); }\n"
    "__global__ void narrow(float *d, const double *a, const float *b, float s, int n, int m)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    float s2 = s * s;\n"
    "    if (i < n && i <= m)\n"
    "        d[i] = a[i] * s2 + b[i];\n"
    "}\n"
    "__global__ void flip(unsigned *d, const unsigned *a, int n)\n"
    "{ if (!(IDX >= n)) d[IDX] = ~a[IDX] + (unsigned)IDX; }\n";

static float fa[N + PAD], fb[N + PAD], fy[N + PAD];
static double da[N + PAD];
static int ia[N + PAD];
static unsigned ua[N + PAD];

static void inputs(void)
{
    t_rand_floats(fa, N + PAD, -4, 4);
    t_rand_floats(fb, N + PAD, -4, 4);
    t_rand_floats(fy, N + PAD, -4, 4);
    for (int i = 0; i < N + PAD; i++) {
        da[i] = t_rand_double(-4, 4);
        ia[i] = (int)t_rand_u32();
        ua[i] = t_rand_u32();
    }
}

static void restore_flags(void)
{
    t_unsetenv("LATTICE_EMU_CC_FLAGS");
}

/* A context whose optimising tier streams grids of any size. */
static lat_context *streaming_context(void)
{
    t_setenv("LATTICE_EMU_CC_FLAGS", "-D__LAT_STREAM_BYTES=0");
    t_defer(restore_flags);
    return t_context();
}

static lat_kernel *kernel_of(lat_context *ctx, lat_emu_opt opt, const char *name)
{
    lat_module *mod;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .emu_opt = opt}, &mod));
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(mod, name, &k));
    return k;
}

/* One kernel's launch: its arguments over buffers of `bytes` each, the destination at
 * `offset` bytes into its buffer. */
typedef struct run {
    const char *name;
    size_t out_bytes;
    lat_launch_desc launch;
    size_t offset;
} run;

/* The kernel's output on one tier (the destination's buffer whole, PAD elements more). */
static void *output(lat_context *ctx, lat_emu_opt opt, const run *r, int n)
{
    lat_kernel *k = kernel_of(ctx, opt, r->name);
    size_t bytes = r->out_bytes * (N + PAD);
    void *host = t_calloc(1, bytes);
    /* saxpy reads its destination: start it from y */
    if (strcmp(r->name, "saxpy") == 0)
        memcpy(host, fy, sizeof fy);
    lat_deviceptr d = t_device_copy(ctx, host, bytes);
    lat_deviceptr dst = d + r->offset;
    lat_deviceptr a = t_device_copy(ctx, fa, sizeof fa), b = t_device_copy(ctx, fb, sizeof fb);
    lat_deviceptr dd = t_device_copy(ctx, da, sizeof da), ii = t_device_copy(ctx, ia, sizeof ia);
    lat_deviceptr uu = t_device_copy(ctx, ua, sizeof ua);
    float s = 1.75f;
    double sd = -2.5;
    int key = 0x5a5a1234, m = n - 40;
    unsigned un = (unsigned)n;
    void *p_mul[] = {&dst, &a, &b, &n};
    void *p_saxpy[] = {&dst, &a, &s, &n};
    void *p_mixed[] = {&dst, &a, &sd, &un};
    void *p_ints[] = {&dst, &ii, &key, &n};
    void *p_narrow[] = {&dst, &dd, &b, &s, &n, &m};
    void *p_flip[] = {&dst, &uu, &n};
    void **params = strcmp(r->name, "mul") == 0      ? p_mul
                    : strcmp(r->name, "saxpy") == 0  ? p_saxpy
                    : strcmp(r->name, "mixed") == 0  ? p_mixed
                    : strcmp(r->name, "ints") == 0   ? p_ints
                    : strcmp(r->name, "narrow") == 0 ? p_narrow
                                                     : p_flip;
    ASSERT_OK(lat_launch(k, &r->launch, params));
    ASSERT_OK(lat_context_synchronize(ctx));
    ASSERT_OK(lat_memcpy_dtoh(ctx, host, d, bytes));
    lat_deviceptr all[] = {d, a, b, dd, ii, uu};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        ASSERT_OK(lat_mem_free(ctx, all[i]));
    return host;
}

/* The host's value of element i (the destination's index), as a double. */
static double expected(const run *r, int i, int n)
{
    if (strcmp(r->name, "mul") == 0)
        return (double)fa[i] * fb[i];
    if (strcmp(r->name, "saxpy") == 0)
        return 1.75 * fa[i] + fy[i];
    if (strcmp(r->name, "mixed") == 0)
        return fa[i] / -2.5 - i * 0.5;
    if (strcmp(r->name, "ints") == 0)
        return (double)(int)((unsigned)(ia[i] ^ 0x5a5a1234) + (unsigned)i * 3u - (unsigned)(ia[i] & 255));
    if (strcmp(r->name, "narrow") == 0)
        return i <= n - 40 ? da[i] * (1.75 * 1.75) + fb[i] : 0;
    return (double)(unsigned)(~ua[i] + (unsigned)i);
}

static double value_at(const run *r, const void *out, size_t i)
{
    const char *p = (const char *)out + r->offset + i * r->out_bytes;
    if (strcmp(r->name, "mixed") == 0)
        return *(const double *)p;
    if (strcmp(r->name, "ints") == 0)
        return *(const int *)p;
    if (strcmp(r->name, "flip") == 0)
        return *(const unsigned *)p;
    return *(const float *)p;
}

static void check(const run *r, int n)
{
    inputs();
    lat_context *ctx = streaming_context();
    void *got = output(ctx, LAT_EMU_OPT_SYNC, r, n);
    size_t threads = (size_t)r->launch.grid.x * r->launch.block.x;
    for (size_t i = 0; i < (size_t)n && i < threads; i++) {
        double want = expected(r, (int)i, n);
        double v = value_at(r, got, i);
        if (!t_close(v, want, 1e-6, 1e-6))
            FAIL("%s: element %zu is %.9g, want %.9g", r->name, i, v, want);
    }
    /* nothing written past the threads that pass the bounds */
    for (size_t i = (size_t)n; i < (size_t)n + 8; i++)
        if (strcmp(r->name, "saxpy") != 0 && value_at(r, got, i) != 0)
            FAIL("%s: element %zu past n written: %g", r->name, i, value_at(r, got, i));
    if (!t_is_emu(ctx))
        return;
    void *tcc = output(ctx, LAT_EMU_OPT_OFF, r, n);
    size_t bytes = r->out_bytes * (N + PAD);
    if (memcmp(got, tcc, bytes) != 0) {
        for (size_t i = 0; i + r->out_bytes <= bytes - r->offset; i++)
            if (value_at(r, got, i) != value_at(r, tcc, i))
                FAIL("%s: element %zu is %.17g on the optimising tier, %.17g on TinyCC's", r->name, i,
                     value_at(r, got, i), value_at(r, tcc, i));
        FAIL("%s: the tiers' bytes differ", r->name);
    }
}

static lat_launch_desc blocks_of(unsigned threads, int n)
{
    return (lat_launch_desc){.grid = {(unsigned)(n + (int)threads - 1) / threads}, .block = {threads}};
}

TEST(map_kernels_give_the_hosts_values_and_tinyccs_bits)
{
    static const struct {
        const char *name;
        size_t bytes;
    } kernels[] = {{"mul", 4}, {"saxpy", 4}, {"mixed", 8}, {"ints", 4}, {"narrow", 4}, {"flip", 4}};
    for (size_t k = 0; k < sizeof kernels / sizeof *kernels; k++) {
        run r = {kernels[k].name, kernels[k].bytes, blocks_of(256, N), 0};
        check(&r, N);
        /* a grid of whole blocks, each streamed */
        run whole = {kernels[k].name, kernels[k].bytes, blocks_of(128, 16 * 1024), 0};
        check(&whole, 16 * 1024);
    }
}

TEST(blocks_the_vector_code_cannot_take_run_their_threads)
{
    /* a destination one element off a line, on every block */
    run off = {"mul", 4, blocks_of(256, N - 1), 4};
    check(&off, N - 1);
    run off8 = {"mixed", 8, blocks_of(256, N - 1), 8};
    check(&off8, N - 1);
    /* 96 threads a block: six lines of ints, streamed block by block */
    run odd = {"ints", 4, blocks_of(96, N), 0};
    check(&odd, N);
    /* 200 threads: no whole number of lines */
    run ragged = {"flip", 4, blocks_of(200, N), 0};
    check(&ragged, N);
    /* two-dimensional blocks: x repeats across y, which the shape does not see */
    run square = {"mul", 4, {.grid = {N / 256}, .block = {16, 16}}, 0};
    check(&square, 16 * (N / 256));
}

/* ---- generated map kernels -------------------------------------------------------------- */

/* the destination holds the last block whole: a kernel without bounds writes it all */
enum { KERNELS = 48, GN = 4096 + 33, GBUF = GN + 256 + PAD };

typedef enum gtype { G_FLOAT, G_DOUBLE, G_INT, G_UINT } gtype;
static const char *const gname[] = {"float", "double", "int", "unsigned"};
static const char *const gload[] = {"fa[i]", "da[i]", "ia[i]", "ua[i]"};
static const char *const guni[] = {"fs", "ds", "is", "us"};
static const char *const gconst[] = {"0.375f", "-1.25", "7", "3u"};

typedef struct gen {
    char *p;
    size_t left;
    int locals[4]; /* locals declared so far, per type */
} gen;

static void put(gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(gen *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(g->p, g->left, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= g->left)
        FAIL("generated source too long");
    g->p += n;
    g->left -= (size_t)n;
}

/* A random expression of type t: what map kernels compute, now and then something the
 * vector code does not take (the kernel then keeps its thread loop: the same results). */
static void expr(gen *g, gtype t, int depth)
{
    unsigned r = t_rand_u32() % (depth > 3 ? 5 : 11);
    bool integer = t == G_INT || t == G_UINT;
    switch (r) {
    case 0:
    case 1:
        put(g, "%s", gload[t]);
        return;
    case 2:
        put(g, "%s", t_rand_u32() % 2 ? guni[t] : gconst[t]);
        return;
    case 3:
        put(g, "(%s)i", gname[t]);
        return;
    case 4:
        if (g->locals[t]) {
            put(g, "%c%u", "fdiu"[t], t_rand_u32() % (unsigned)g->locals[t]);
            return;
        }
        put(g, "%s", gload[t]);
        return;
    case 5:
    case 6: {
        static const char *const fops[] = {"+", "-", "*", "/"}, *const iops[] = {"+", "-", "*", "&", "|", "^"};
        put(g, "(");
        expr(g, t, depth + 1);
        put(g, " %s ", integer ? iops[t_rand_u32() % 6] : fops[t_rand_u32() % 4]);
        expr(g, t, depth + 1);
        put(g, ")");
        return;
    }
    case 7:
        put(g, integer && t_rand_u32() % 2 ? "(~" : "(- ");
        expr(g, t, depth + 1);
        put(g, ")");
        return;
    case 8: {
        /* a conversion; floating to integer only rarely (the GPU's saturation: no stream) */
        gtype from = (gtype)(t_rand_u32() % 4);
        if (integer && (from == G_FLOAT || from == G_DOUBLE) && t_rand_u32() % 4)
            from = t == G_INT ? G_UINT : G_INT;
        put(g, "(%s)(", gname[t]);
        expr(g, from, depth + 1);
        put(g, ")");
        return;
    }
    case 9:
        if (!integer) { /* a*b + c: fused, as NVRTC does */
            put(g, "(");
            expr(g, t, depth + 1);
            put(g, " * ");
            expr(g, t, depth + 1);
            put(g, " + %s)", gload[t]);
            return;
        }
        put(g, "(%s + %s)", gload[t], guni[t]);
        return;
    default:
        put(g, t_rand_u32() % 8 ? "%s" : "(%s < 0 ? 1 : 2)", gload[t]); /* rarely: not taken */
        return;
    }
}

static void kernel_source(gen *g, int k, gtype out)
{
    static const char *const index[] = {
        "int i = blockIdx.x * blockDim.x + threadIdx.x;",
        "unsigned int i = threadIdx.x + blockIdx.x * blockDim.x;",
        "const int i = blockDim.x * blockIdx.x + threadIdx.x;",
    };
    static const char *const bound[] = {"if (i < n) ", "", "if (n > i) ", "if (i < n && i <= n + 3) ",
                                        "if (!(i >= n)) "};
    put(g, "__global__ void g%d(%s *d, const float *fa, const double *da, const int *ia,\n"
           "    const unsigned *ua, float fs, double ds, int is, unsigned us, int n)\n{\n    %s\n",
        k, gname[out], index[t_rand_u32() % 3]);
    memset(g->locals, 0, sizeof g->locals);
    unsigned nlocals = t_rand_u32() % 3;
    bool early = t_rand_u32() % 3 == 0;
    if (early)
        put(g, "    if (i >= n)\n        return;\n");
    for (unsigned l = 0; l < nlocals; l++) {
        gtype t = (gtype)(t_rand_u32() % 4);
        put(g, "    %s %c%d = ", gname[t], "fdiu"[t], g->locals[t]);
        expr(g, t, 1);
        put(g, ";\n");
        g->locals[t]++;
    }
    put(g, "    %sd[i] = ", early ? "" : bound[t_rand_u32() % 5]);
    gtype from = out;
    if (t_rand_u32() % 4 == 0)
        from = out == G_FLOAT ? G_DOUBLE : out == G_DOUBLE ? G_FLOAT : out == G_INT ? G_UINT : G_INT;
    expr(g, from, 1);
    put(g, ";\n}\n");
}

/* Bits equal, or both NaN (which NaN an operation of two NaNs gives depends on the order
 * of its operands, which the compilers may swap). */
static bool same(const void *x, const void *y, gtype t)
{
    if (t == G_FLOAT) {
        float a, b;
        memcpy(&a, x, 4);
        memcpy(&b, y, 4);
        return (isnan(a) && isnan(b)) || memcmp(x, y, 4) == 0;
    }
    if (t == G_DOUBLE) {
        double a, b;
        memcpy(&a, x, 8);
        memcpy(&b, y, 8);
        return (isnan(a) && isnan(b)) || memcmp(x, y, 8) == 0;
    }
    return memcmp(x, y, 4) == 0;
}

static void *generated_output(lat_context *ctx, lat_module *mod, int k, gtype out, unsigned block)
{
    char name[16];
    snprintf(name, sizeof name, "g%d", k);
    lat_kernel *kern;
    ASSERT_OK(lat_module_get_kernel(mod, name, &kern));
    size_t bytes = (out == G_DOUBLE ? 8 : 4) * (size_t)GBUF;
    lat_deviceptr d = t_device_copy(ctx, NULL, bytes);
    ASSERT_OK(lat_memset_d8(ctx, d, 0, bytes));
    lat_deviceptr a = t_device_copy(ctx, fa, sizeof fa), b = t_device_copy(ctx, da, sizeof da);
    lat_deviceptr c = t_device_copy(ctx, ia, sizeof ia), e = t_device_copy(ctx, ua, sizeof ua);
    float fs = 1.5f;
    double ds = -0.75;
    int is = -3, n = GN;
    unsigned us = 0x9e3779b9u;
    void *params[] = {&d, &a, &b, &c, &e, &fs, &ds, &is, &us, &n};
    ASSERT_OK(lat_launch(kern, &(lat_launch_desc){.grid = {(GN + block - 1) / block}, .block = {block}}, params));
    void *host = t_calloc(1, bytes);
    ASSERT_OK(lat_memcpy_dtoh(ctx, host, d, bytes));
    lat_deviceptr all[] = {d, a, b, c, e};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        ASSERT_OK(lat_mem_free(ctx, all[i]));
    return host;
}

/* Kernel k's text in the module's source: its length, *at its start. */
static size_t kernel_text(const char *source, int k, const char **at)
{
    char head[32];
    snprintf(head, sizeof head, "void g%d(", k);
    const char *start = strstr(source, head);
    const char *end = start ? strstr(start, "\n}\n") : NULL;
    *at = start ? start : source;
    return start && end ? (size_t)(end + 3 - start) : 0;
}

TEST(generated_map_kernels_agree_with_tinycc_bit_for_bit)
{
    lat_context *ctx = streaming_context();
    if (!t_is_emu(ctx))
        SKIP("compares the emulator's tiers (the cross suite compares these kernels with the GPU's)");
    inputs();
    static char source[KERNELS * 2048];
    gen g = {source, sizeof source, {0}};
    gtype outs[KERNELS];
    for (int k = 0; k < KERNELS; k++) {
        outs[k] = (gtype)(t_rand_u32() % 4);
        kernel_source(&g, k, outs[k]);
    }
    lat_module *opt, *tcc;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = source, .emu_opt = LAT_EMU_OPT_SYNC}, &opt));
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = source, .emu_opt = LAT_EMU_OPT_OFF}, &tcc));
    for (int k = 0; k < KERNELS; k++)
        for (unsigned block = 64; block <= 256; block *= 4) {
            const char *x = generated_output(ctx, opt, k, outs[k], block);
            const char *y = generated_output(ctx, tcc, k, outs[k], block);
            size_t size = outs[k] == G_DOUBLE ? 8 : 4;
            for (size_t i = 0; i < GBUF; i++)
                if (!same(x + i * size, y + i * size, outs[k])) {
                    const char *text;
                    int len = (int)kernel_text(source, k, &text);
                    FAIL("kernel g%d, blocks of %u, element %zu differs between the tiers:\n%.*s", k,
                         block, i, len, text);
                }
        }
}
