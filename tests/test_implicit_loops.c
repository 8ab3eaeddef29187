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
