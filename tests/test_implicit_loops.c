/* Loops that every thread runs alike, without a barrier: the optimising tier writes them
 * at block level with the loop over the block's threads inside (implicit loops, region.c),
 * TinyCC's code keeps them inside each thread. Every kernel here gives the host's answer,
 * computed thread by thread, on TinyCC's code, on the optimised code and on a GPU, for
 * loops that fit (tiles of shared memory, nested loops, early exits before them, calls to
 * device functions, uniform variables they update) and for loops that look as if they fit
 * and do not (a counter a thread changes, a loop under a thread's condition, continue and
 * break, local arrays, atomics): those must keep their per-thread order. */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The disk cache off, so that each module's optimised code is built from its text. */
static void no_cache(void)
{
    t_setenv("LATTICE_CACHE", "off");
}

typedef struct dims {
    unsigned gx, gy, bx, by, bz;
} dims;

/* A thread's place, for the host's references. */
typedef struct place {
    int tx, ty, tz, bx, by, bdx, bdy, bdz, gdx;
    int lin;  /* index of the thread in its block */
    int gid;  /* index of the thread in the grid */
} place;

typedef int (*reference)(const place *p, const int *in, int n);

static int threads_of(const dims *d)
{
    return (int)(d->gx * d->gy * d->bx * d->by * d->bz);
}

/* Runs `kernel` k(int *out, const int *in, int n) from `src` with `mode` (LAT_EMU_OPT_*,
 * 0 on a GPU) and compares every thread's output with ref. Returns whether the module ran
 * on optimised code. */
static int run_case(lat_context *ctx, const char *src, const dims *d, const int *in, int nin,
                    int n, reference ref, lat_emu_opt mode)
{
    lat_module *m;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "loops.cu", .emu_opt = mode},
                                &m));
    int optimised = lat_module_get_tier(m) == LAT_MODULE_TIER_OPTIMISED;
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(m, "k", &k));
    int total = threads_of(d);
    int *out = t_calloc((size_t)total, sizeof *out);
    for (int i = 0; i < total; i++)
        out[i] = -7;
    lat_deviceptr dout = t_device_copy(ctx, out, (size_t)total * sizeof *out);
    lat_deviceptr din = t_device_copy(ctx, in, (size_t)nin * sizeof *in);
    ASSERT_OK(lat_launch(k,
                         &(lat_launch_desc){.grid = {d->gx, d->gy, 1}, .block = {d->bx, d->by, d->bz}},
                         (void *[]){&dout, &din, &n}));
    ASSERT_OK(lat_memcpy_dtoh(ctx, out, dout, (size_t)total * sizeof *out));
    for (unsigned by = 0; by < d->gy; by++)
        for (unsigned bx = 0; bx < d->gx; bx++)
            for (unsigned tz = 0; tz < d->bz; tz++)
                for (unsigned ty = 0; ty < d->by; ty++)
                    for (unsigned tx = 0; tx < d->bx; tx++) {
                        place p = {(int)tx, (int)ty, (int)tz, (int)bx, (int)by, (int)d->bx, (int)d->by,
                                   (int)d->bz, (int)d->gx, 0, 0};
                        p.lin = (int)(tx + d->bx * (ty + d->by * tz));
                        p.gid = (int)((by * d->gx + bx) * (d->bx * d->by * d->bz)) + p.lin;
                        int want = ref(&p, in, n);
                        if (out[p.gid] != want)
                            FAIL("%s: block (%u,%u) thread (%u,%u,%u): %d, the host says %d",
                                 mode == LAT_EMU_OPT_OFF ? "TinyCC" : optimised ? "optimised" : "GPU",
                                 bx, by, tx, ty, tz, out[p.gid], want);
                    }
    lat_module_destroy(m);
    return optimised;
}

/* The kernel on every tier the backend has. */
static void check_kernel(const char *src, dims d, int n, reference ref)
{
    no_cache();
    lat_context *ctx = t_context();
    int nin = 4096;
    int *in = t_calloc((size_t)nin, sizeof *in);
    for (int i = 0; i < nin; i++)
        in[i] = (int)(t_rand_u32() % 2001) - 1000;
    if (lat_context_backend(ctx) != LAT_BACKEND_EMU) { /* a GPU, or cross-checked */
        run_case(ctx, src, &d, in, nin, n, ref, LAT_EMU_OPT_DEFAULT);
        return;
    }
    run_case(ctx, src, &d, in, nin, n, ref, LAT_EMU_OPT_OFF);
    if (!run_case(ctx, src, &d, in, nin, n, ref, LAT_EMU_OPT_SYNC))
        SKIP("TinyCC's code agrees; no optimised code on this machine (no C compiler?)");
}

/* ---- loops that fit -------------------------------------------------------------------- */

static const char tiles_src[] =
    "#define T 8\n"
    "__global__ void k(int *out, const int *in, int n)\n"
    "{\n"
    "    __shared__ int a[T][T], b[T][T];\n"
    "    int tx = threadIdx.x, ty = threadIdx.y;\n"
    "    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;\n"
    "    int sum = 0;\n"
    "    for (int t = 0; t < n / T; t++) {\n"
    "        a[ty][tx] = in[row * n + t * T + tx];\n"
    "        b[ty][tx] = in[(t * T + ty) * n + col];\n"
    "        __syncthreads();\n"
    "        for (int q = 0; q < T; q++)\n"
    "            sum += a[ty][q] * b[q][tx];\n"
    "        __syncthreads();\n"
    "    }\n"
    "    out[(blockIdx.y * gridDim.x + blockIdx.x) * T * T + ty * T + tx] = sum;\n"
    "}\n";

static int tiles_ref(const place *p, const int *in, int n)
{
    int row = p->by * 8 + p->ty, col = p->bx * 8 + p->tx, sum = 0;
    for (int q = 0; q < n; q++)
        sum += in[row * n + q] * in[q * n + col];
    return sum;
}

TEST(a_tiled_product_over_shared_memory)
{
    check_kernel(tiles_src, (dims){4, 4, 8, 8, 1}, 32, tiles_ref);
}

/* A plain kernel (no barrier): threads outside the matrix leave first. */
static const char naive_src[] =
    "__global__ void k(int *out, const int *in, int n)\n"
    "{\n"
    "    int row = blockIdx.y * blockDim.y + threadIdx.y;\n"
    "    int col = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    int id = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x * blockDim.y\n"
    "             + threadIdx.y * blockDim.x + threadIdx.x;\n"
    "    out[id] = -1;\n"
    "    if (row >= n || col >= n)\n"
    "        return;\n"
    "    int sum = 0;\n"
    "    for (int q = 0; q < n; q++)\n"
    "        sum += in[row * n + q] * in[q * n + col];\n"
    "    out[id] = sum + row;\n"
    "}\n";

static int naive_ref(const place *p, const int *in, int n)
{
    int row = p->by * p->bdy + p->ty, col = p->bx * p->bdx + p->tx;
    if (row >= n || col >= n)
        return -1;
    int sum = 0;
    for (int q = 0; q < n; q++)
        sum += in[row * n + q] * in[q * n + col];
    return sum + row;
}

TEST(a_plain_kernel_whose_threads_leave_before_the_loop)
{
    check_kernel(naive_src, (dims){3, 3, 8, 4, 1}, 21, naive_ref);
}

/* Nested loops, a thread's own branch and loop inside, a device function reading the
 * thread's index, a uniform variable the loop updates, 3-D blocks. */
static const char nested_src[] =
    "__device__ int lane_value(int q) { return (int)(threadIdx.x * 3 + threadIdx.z) - q; }\n"
    "__global__ void k(int *out, const int *in, int n)\n"
    "{\n"
    "    int lin = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);\n"
    "    int id = blockIdx.x * blockDim.x * blockDim.y * blockDim.z + lin;\n"
    "    int x = in[id % 4096], acc = 0, u = 1;\n"
    "    for (int i = 0; i < 4; i++) {\n"
    "        u = u * 3 + i;\n"
    "        for (int j = i; j < n; j += 2) {\n"
    "            if (x & 1)\n"
    "                acc += j * u;\n"
    "            else\n"
    "                acc -= lane_value(j);\n"
    "            for (int q = 0; q < (x & 3); q++)\n"
    "                acc ^= q * i + (int)threadIdx.y;\n"
    "        }\n"
    "    }\n"
    "    out[id] = acc + u;\n"
    "}\n";

static int nested_ref(const place *p, const int *in, int n)
{
    int x = in[(p->bx * p->bdx * p->bdy * p->bdz + p->lin) % 4096], acc = 0, u = 1;
    for (int i = 0; i < 4; i++) {
        u = u * 3 + i;
        for (int j = i; j < n; j += 2) {
            if (x & 1)
                acc += j * u;
            else
                acc -= p->tx * 3 + p->tz - j;
            for (int q = 0; q < (x & 3); q++)
                acc ^= q * i + p->ty;
        }
    }
    return acc + u;
}

TEST(nested_loops_with_a_threads_own_work_inside)
{
    check_kernel(nested_src, (dims){3, 1, 4, 3, 5}, 11, nested_ref);
}

/* Each thread reads the others' slots, written before a barrier; a counter declared before
 * the loop and read after it. */
static const char neighbours_src[] =
    "__global__ void k(int *out, const int *in, int n)\n"
    "{\n"
    "    __shared__ int s[96];\n"
    "    int t = threadIdx.x, id = blockIdx.x * blockDim.x + t;\n"
    "    s[t] = in[id] * 2 + 1;\n"
    "    __syncthreads();\n"
    "    int acc = 0, q = 0;\n"
    "    for (q = 0; q < n; q++)\n"
    "        acc = acc * 5 + s[(t + q * 7) % blockDim.x];\n"
    "    out[id] = acc + q;\n"
    "}\n";

static int neighbours_ref(const place *p, const int *in, int n)
{
    int base = p->bx * p->bdx, acc = 0, q;
    for (q = 0; q < n; q++) {
        int other = (p->tx + q * 7) % p->bdx;
        acc = acc * 5 + in[base + other] * 2 + 1;
    }
    return acc + q;
}

TEST(a_loop_over_the_blocks_shared_memory)
{
    check_kernel(neighbours_src, (dims){5, 1, 96, 1, 1}, 6, neighbours_ref);
}

/* Loops gcc vectorises across the threads around them stay in each thread in optimised
 * code (thread_loop.c): fixed trip counts up and down, a step of 2, a temporary declared in
 * the body, fmaf-free integer sums, over blocks of odd sizes in three dimensions. */
static const char thread_loops_src[] =
    "#define T 8\n"
    "__global__ void k(int *out, const int *in, int n)\n"
    "{\n"
    "    __shared__ int a[T][T], b[T][T];\n"
    "    int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;\n"
    "    int lin = tx + blockDim.x * (ty + blockDim.y * tz);\n"
    "    int nth = blockDim.x * blockDim.y * blockDim.z;\n"
    "    int id = blockIdx.x * nth + lin;\n"
    "    for (int i = lin; i < T * T; i += nth) {\n"
    "        a[i / T][i % T] = in[(blockIdx.x * T * T + i) % 4096];\n"
    "        b[i % T][i / T] = in[(blockIdx.x * 7 + i * 3) % 4096] - n;\n"
    "    }\n"
    "    __syncthreads();\n"
    "    int r = (ty + tz) % T, c = (tx * 3 + tz) % T, up = 0, down = 0, even = 0;\n"
    "    for (int q = 0; q < T; q++)\n"
    "        up += a[r][q] * b[q][c];\n"
    "    for (int q = T - 1; q >= 0; q--) {\n"
    "        int p = a[q][c] - tz;\n"
    "        down = down * 2 + p * b[r][q];\n"
    "    }\n"
    "    for (int q = 0; q <= T - 2; q += 2)\n"
    "        even ^= a[c][q] + (b[q][r] << 1);\n"
    "    out[id] = up - down + even * 5;\n"
    "}\n";

static int thread_loops_ref(const place *p, const int *in, int n)
{
    enum { T = 8 };
    int a[T][T], b[T][T];
    for (int i = 0; i < T * T; i++) {
        a[i / T][i % T] = in[(p->bx * T * T + i) % 4096];
        b[i % T][i / T] = in[(p->bx * 7 + i * 3) % 4096] - n;
    }
    int r = (p->ty + p->tz) % T, c = (p->tx * 3 + p->tz) % T;
    unsigned up = 0, down = 0;
    int even = 0;
    for (int q = 0; q < T; q++)
        up += (unsigned)(a[r][q] * b[q][c]);
    for (int q = T - 1; q >= 0; q--)
        down = down * 2u + (unsigned)((a[q][c] - p->tz) * b[r][q]);
    for (int q = 0; q <= T - 2; q += 2)
        even ^= a[c][q] + b[q][r] * 2;
    return (int)(up - down + (unsigned)even * 5u);
}

TEST(loops_vectorised_across_threads_stay_in_each_thread)
{
    check_kernel(thread_loops_src, (dims){5, 1, 8, 8, 1}, 3, thread_loops_ref);
    check_kernel(thread_loops_src, (dims){3, 1, 5, 3, 2}, 4, thread_loops_ref);
    check_kernel(thread_loops_src, (dims){2, 1, 37, 1, 1}, 5, thread_loops_ref);
}

/* ---- loops that look as if they fit, and do not --------------------------------------- */

/* A counter some threads change in the body. */
static const char changed_src[] =
    "__global__ void k(int *out, const int *in, int n)\n"
    "{\n"
    "    int id = blockIdx.x * blockDim.x + threadIdx.x, acc = 0;\n"
    "    for (int q = 0; q < n; q++) {\n"
    "        if (in[id] & 1) q++;\n"
    "        acc = acc * 3 + q;\n"
    "    }\n"
    "    out[id] = acc;\n"
    "}\n";

static int changed_ref(const place *p, const int *in, int n)
{
    int id = p->gid, acc = 0;
    for (int q = 0; q < n; q++) {
        if (in[id] & 1)
            q++;
        acc = acc * 3 + q;
    }
    return acc;
}

TEST(a_counter_a_thread_changes_keeps_the_loop_per_thread)
{
    check_kernel(changed_src, (dims){4, 1, 64, 1, 1}, 12, changed_ref);
}

/* A uniform loop under a thread's condition; continue and break; local arrays, one
 * declared before the loop and one inside; an atomic. */
static const char odd_src[] =
    "__global__ void k(int *out, const int *in, int n)\n"
    "{\n"
    "    __shared__ int hits;\n"
    "    int t = threadIdx.x, id = blockIdx.x * blockDim.x + t, acc = 0;\n"
    "    if (t == 0) hits = 0;\n"
    "    __syncthreads();\n"
    "    if (in[id] > 0)\n"
    "        for (int q = 0; q < n; q++) acc += q * in[id];\n"
    "    for (int q = 0; q < n; q++) {\n"
    "        if ((q + t) % 3 == 0) continue;\n"
    "        acc += q;\n"
    "        if (acc > 40 + t) break;\n"
    "    }\n"
    "    int keep[4] = {t, t + 1, t + 2, t + 3};\n"
    "    for (int q = 0; q < n; q++) {\n"
    "        int mine[2] = {q, t};\n"
    "        keep[q & 3] += mine[q & 1];\n"
    "    }\n"
    "    for (int q = 0; q < n; q++)\n"
    "        atomicAdd(&hits, 1);\n"
    "    __syncthreads();\n"
    "    out[id] = acc * 7 + keep[0] - keep[1] + keep[2] * keep[3] + hits;\n"
    "}\n";

static int odd_ref(const place *p, const int *in, int n)
{
    int t = p->tx, id = p->gid, acc = 0;
    if (in[id] > 0)
        for (int q = 0; q < n; q++)
            acc += q * in[id];
    for (int q = 0; q < n; q++) {
        if ((q + t) % 3 == 0)
            continue;
        acc += q;
        if (acc > 40 + t)
            break;
    }
    int keep[4] = {t, t + 1, t + 2, t + 3};
    for (int q = 0; q < n; q++) {
        int mine[2] = {q, t};
        keep[q & 3] += mine[q & 1];
    }
    return acc * 7 + keep[0] - keep[1] + keep[2] * keep[3] + n * p->bdx;
}

TEST(loops_that_do_not_fit_keep_each_threads_order)
{
    check_kernel(odd_src, (dims){3, 1, 48, 1, 1}, 10, odd_ref);
}

/* ---- generated loops ------------------------------------------------------------------- */

/* Random loops of fixed trip counts over a shared tile, with random straight bodies: some
 * are left in each thread (thread_loop.c), some (an index that is not the counter) stay
 * implicit. The host evaluates the same program for each thread; TinyCC's code, the
 * optimised code and a GPU must give its answer. */
enum { G_A, G_B, G_D, G_Q, G_P, G_CONST, G_S_RQ, G_S_QC, G_S_QQ, G_S_REV, G_LEAVES };

typedef struct gexpr {
    int leaf;          /* G_*, or -1 for an operation */
    unsigned value;    /* G_CONST */
    char op;           /* + - * ^ & | > (a shift right by `value`) */
    int a, b;          /* operands, indices into gprog.e */
} gexpr;

typedef struct gstmt {
    int target;  /* G_A, G_B, G_D */
    char op;     /* '=' or the compound operator's + ^ * */
    int e;
} gstmt;

typedef struct gprog {
    gexpr e[64];
    int ne;
    gstmt s[4];
    int ns;
    int p;          /* the temporary's expression, or -1 */
    int start, end, step; /* q = start; q cmp end; q += step (step may be negative) */
    const char *cmp;
} gprog;

static gprog prog;

static int gen_expr(int depth)
{
    gexpr *x = &prog.e[prog.ne];
    int at = prog.ne++;
    if (depth == 0 || t_rand_u32() % 3 == 0) {
        x->leaf = (int)(t_rand_u32() % G_LEAVES);
        if (x->leaf == G_P && prog.p < 0)
            x->leaf = G_S_RQ;
        x->value = t_rand_u32() % 100;
        return at;
    }
    static const char ops[] = "+-*^&|>";
    x->leaf = -1;
    x->op = ops[t_rand_u32() % (sizeof ops - 1)];
    x->value = t_rand_u32() % 5;
    int a = gen_expr(depth - 1), b = gen_expr(depth - 1);
    prog.e[at].a = a;
    prog.e[at].b = b;
    return at;
}

static void gen_program(void)
{
    memset(&prog, 0, sizeof prog);
    prog.p = -1;
    if (t_rand_u32() % 2)
        prog.p = gen_expr(1);
    prog.ns = 1 + (int)(t_rand_u32() % 3);
    for (int i = 0; i < prog.ns; i++) {
        static const char ops[] = "=+^*";
        prog.s[i] = (gstmt){(int)(t_rand_u32() % 3), ops[t_rand_u32() % 4], gen_expr(2)};
    }
    int start = (int)(t_rand_u32() % 16);
    switch (t_rand_u32() % 5) {
    case 0: prog.cmp = "<", prog.step = 1, prog.end = start + (int)(t_rand_u32() % (17 - start)); break;
    case 1: prog.cmp = "<=", prog.step = 2, prog.end = start - 1 + (int)(t_rand_u32() % (17 - start)); break;
    case 2: prog.cmp = "!=", prog.step = 1, prog.end = start + (int)(t_rand_u32() % (17 - start)); break;
    case 3: prog.cmp = ">=", prog.step = -1, prog.end = (int)(t_rand_u32() % (start + 1)); break;
    default: prog.cmp = ">", prog.step = -2, prog.end = (int)(t_rand_u32() % (start + 1)) - 1; break;
    }
    prog.start = start;
}

static void put_expr(char **o, const char *end, int i)
{
    const gexpr *x = &prog.e[i];
    static const char *const leaves[] = {"a", "b", "d", "(unsigned)q", "p", NULL,
                                         "s[r][q]", "s[q][c]", "s[q][q]", "s[r][15 - q]"};
    int n;
    if (x->leaf == G_CONST)
        n = snprintf(*o, (size_t)(end - *o), "%uu", x->value);
    else if (x->leaf >= 0)
        n = snprintf(*o, (size_t)(end - *o), "%s", leaves[x->leaf]);
    else if (x->op == '>') {
        n = snprintf(*o, (size_t)(end - *o), "(");
        *o += n;
        put_expr(o, end, x->a);
        n = snprintf(*o, (size_t)(end - *o), " >> %u)", x->value);
    } else {
        n = snprintf(*o, (size_t)(end - *o), "(");
        *o += n;
        put_expr(o, end, x->a);
        n = snprintf(*o, (size_t)(end - *o), " %c ", x->op);
        *o += n;
        put_expr(o, end, x->b);
        n = snprintf(*o, (size_t)(end - *o), ")");
    }
    *o += n;
}

static void put_program(char *buf, size_t size)
{
    char *o = buf, *end = buf + size;
    o += snprintf(o, (size_t)(end - o),
                  "__global__ void k(int *out, const int *in, int n)\n"
                  "{\n"
                  "    __shared__ unsigned s[16][16];\n"
                  "    int tx = threadIdx.x, ty = threadIdx.y;\n"
                  "    int lin = tx + blockDim.x * ty, nth = blockDim.x * blockDim.y;\n"
                  "    for (int i = lin; i < 256; i += nth)\n"
                  "        s[i / 16][i %% 16] = (unsigned)in[(blockIdx.x * 256 + i) %% 4096];\n"
                  "    __syncthreads();\n"
                  "    int r = (ty * 5 + tx) & 15, c = (tx * 3 + n) & 15;\n"
                  "    unsigned a = (unsigned)in[(blockIdx.x * nth + lin) %% 4096], b = lin, d = n;\n"
                  "    for (int q = %d; q %s %d; q %s= %d) {\n",
                  prog.start, prog.cmp, prog.end, prog.step > 0 ? "+" : "-", abs(prog.step));
    if (prog.p >= 0) {
        o += snprintf(o, (size_t)(end - o), "        unsigned p = ");
        put_expr(&o, end, prog.p);
        o += snprintf(o, (size_t)(end - o), ";\n");
    }
    for (int i = 0; i < prog.ns; i++) {
        const char *t = prog.s[i].target == G_A ? "a" : prog.s[i].target == G_B ? "b" : "d";
        if (prog.s[i].op == '=')
            o += snprintf(o, (size_t)(end - o), "        %s = ", t);
        else
            o += snprintf(o, (size_t)(end - o), "        %s %c= ", t, prog.s[i].op);
        put_expr(&o, end, prog.s[i].e);
        o += snprintf(o, (size_t)(end - o), ";\n");
    }
    snprintf(o, (size_t)(end - o),
             "    }\n"
             "    out[blockIdx.x * nth + lin] = (int)(a * 3u + b * 5u + d * 7u);\n"
             "}\n");
}

typedef struct genv {
    unsigned a, b, d, p, s[16][16];
    int q, r, c;
} genv;

static unsigned eval(const genv *v, int i)
{
    const gexpr *x = &prog.e[i];
    switch (x->leaf) {
    case G_A: return v->a;
    case G_B: return v->b;
    case G_D: return v->d;
    case G_Q: return (unsigned)v->q;
    case G_P: return v->p;
    case G_CONST: return x->value;
    case G_S_RQ: return v->s[v->r][v->q];
    case G_S_QC: return v->s[v->q][v->c];
    case G_S_QQ: return v->s[v->q][v->q];
    case G_S_REV: return v->s[v->r][15 - v->q];
    default: break;
    }
    unsigned l = eval(v, x->a), r = eval(v, x->b);
    switch (x->op) {
    case '+': return l + r;
    case '-': return l - r;
    case '*': return l * r;
    case '^': return l ^ r;
    case '&': return l & r;
    case '|': return l | r;
    default: return l >> x->value;
    }
}

static int generated_ref(const place *p, const int *in, int n)
{
    genv v;
    int nth = p->bdx * p->bdy;
    for (int i = 0; i < 256; i++)
        v.s[i / 16][i % 16] = (unsigned)in[(p->bx * 256 + i) % 4096];
    v.r = (p->ty * 5 + p->tx) & 15;
    v.c = (p->tx * 3 + n) & 15;
    v.a = (unsigned)in[(p->bx * nth + p->lin) % 4096];
    v.b = (unsigned)p->lin;
    v.d = (unsigned)n;
    for (v.q = prog.start;
         strcmp(prog.cmp, "<") == 0    ? v.q < prog.end
         : strcmp(prog.cmp, "<=") == 0 ? v.q <= prog.end
         : strcmp(prog.cmp, "!=") == 0 ? v.q != prog.end
         : strcmp(prog.cmp, ">=") == 0 ? v.q >= prog.end
                                       : v.q > prog.end;
         v.q += prog.step) {
        if (prog.p >= 0)
            v.p = eval(&v, prog.p);
        for (int i = 0; i < prog.ns; i++) {
            unsigned *t = prog.s[i].target == G_A ? &v.a : prog.s[i].target == G_B ? &v.b : &v.d;
            unsigned x = eval(&v, prog.s[i].e);
            *t = prog.s[i].op == '=' ? x : prog.s[i].op == '+' ? *t + x : prog.s[i].op == '^' ? *t ^ x : *t * x;
        }
    }
    return (int)(v.a * 3u + v.b * 5u + v.d * 7u);
}

TEST(generated_loops_over_a_tile_give_the_hosts_answer_on_every_tier)
{
    static const dims shapes[] = {{3, 1, 16, 16, 1}, {2, 1, 7, 5, 1}, {2, 1, 33, 2, 1}};
    char src[8192];
    for (int i = 0; i < 24; i++) {
        gen_program();
        put_program(src, sizeof src);
        check_kernel(src, shapes[i % 3], (int)(t_rand_u32() % 50), generated_ref);
    }
}
