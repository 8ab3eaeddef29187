/* Fault injection (SQLite's malloc tests): a representative program is run once to count
 * the library's allocations, then once for every N with the Nth allocation failing. Each
 * call must then succeed or fail with LAT_ERROR_OUT_OF_MEMORY and a message; nothing may
 * leak (the sanitizer and valgrind runs of this binary see leaks); and whatever context
 * was made must still work once allocations succeed again.
 *
 * LATTICE_FAULT_STEP=K tries every Kth N only (a quicker walk by hand); the sanitizer
 * build walks every N, and a run under valgrind every fifth (each N compiles twice). */
#include "harness.h"
#include "core/alloc.h"
#include "lattice/array.h"

#ifdef LAT_HAVE_VALGRIND_H
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char source[] =
    "__global__ void scale(float *out, const float *in, float k, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) out[i] = k * in[i];\n"
    "}\n"
    "__global__ void bar(int *out)\n"
    "{\n"
    "    __shared__ int s[64];\n"
    "    s[threadIdx.x] = threadIdx.x;\n"
    "    __syncthreads();\n"
    "    out[threadIdx.x] = s[63 - threadIdx.x];\n"
    "}\n";

static long last_remaining; /* lat__alloc_fail_remaining() as the program's calls ended */

typedef struct outcome {
    int calls;   /* lattice calls made */
    int failed;  /* of which failed with LAT_ERROR_OUT_OF_MEMORY */
    char bad[512]; /* the first call that failed otherwise, or crashed its result */
} outcome;

/* Records a call's status: OK, or out of memory with a message; anything else is bad. */
static bool step(outcome *o, const char *what, lat_status st)
{
    o->calls++;
    if (st == LAT_OK)
        return true;
    const char *msg = lat_last_error();
    if (st == LAT_ERROR_OUT_OF_MEMORY && msg && *msg) {
        o->failed++;
        return false;
    }
    if (!o->bad[0])
        snprintf(o->bad, sizeof o->bad, "%s: %s (%s)", what, lat_status_string(st),
                 msg ? msg : "no message");
    return false;
}

/* A small launch that must work: the context is usable. */
static bool usable(lat_context *ctx)
{
    lat_module *mod;
    if (lat_module_create(ctx, &(lat_module_desc){.source = source}, &mod) != LAT_OK)
        return false;
    lat_kernel *k;
    int out[64] = {0};
    bool ok = lat_module_get_kernel(mod, "bar", &k) == LAT_OK &&
              lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {64}},
                              LAT_ARGS(lat_arg_out(out, sizeof out))) == LAT_OK &&
              out[0] == 63;
    lat_module_destroy(mod);
    return ok;
}

/* The program: a context (checked or not), a module, device memory, launches with
 * In/Out arguments, arrays, then everything destroyed. With fail_at > 0 the fail_at-th
 * allocation fails; the context is then checked with allocations working again. */
static void program(unsigned check, long fail_at, outcome *o)
{
    memset(o, 0, sizeof *o);
    lat__alloc_fail_after(fail_at);
    lat_context *ctx = NULL;
    lat_module *mod = NULL;
    lat_array *a = NULL, *b = NULL, *sum = NULL;
    lat_deviceptr d = 0;
    float in[256], out[256];
    for (int i = 0; i < 256; i++)
        in[i] = (float)i;
    if (!step(o, "lat_context_create",
              lat_context_create(&(lat_context_desc){.backend = LAT_BACKEND_EMU, .check = check},
                                 &ctx)))
        goto done;
    if (step(o, "lat_module_create",
             lat_module_create(ctx, &(lat_module_desc){.source = source, .name = "walk.cu"},
                               &mod))) {
        lat_kernel *k;
        if (step(o, "lat_module_get_kernel", lat_module_get_kernel(mod, "scale", &k)))
            step(o, "lat_launch_args",
                 lat_launch_args(k, &(lat_launch_desc){.grid = {2}, .block = {128}},
                                 LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_in(in, sizeof in),
                                          lat_arg_f32(2.0f), lat_arg_i32(256))));
        if (step(o, "lat_mem_alloc", lat_mem_alloc(ctx, sizeof in, &d)) &&
            step(o, "lat_memcpy_htod", lat_memcpy_htod(ctx, d, in, sizeof in)) &&
            step(o, "lat_module_get_kernel", lat_module_get_kernel(mod, "scale", &k))) {
            float two = 2.0f;
            int n = 256;
            void *params[] = {&d, &d, &two, &n};
            step(o, "lat_launch",
                 lat_launch(k, &(lat_launch_desc){.grid = {2}, .block = {128}}, params));
        }
    }
    if (step(o, "lat_array_from_host",
             lat_array_from_host(ctx, LAT_DTYPE_FLOAT32, 1, (size_t[]){256}, in, &a)) &&
        step(o, "lat_array_from_host",
             lat_array_from_host(ctx, LAT_DTYPE_FLOAT32, 1, (size_t[]){256}, in, &b)) &&
        step(o, "lat_array_op", lat_array_op(LAT_OP_ADD, a, b, b, NULL)))
        step(o, "lat_array_reduce", lat_array_reduce(LAT_REDUCE_SUM, b, NULL, &sum));
done:
    last_remaining = lat__alloc_fail_remaining();
    lat__alloc_fail_after(0);
    if (ctx && !usable(ctx) && !o->bad[0])
        snprintf(o->bad, sizeof o->bad, "the context no longer works: %s", lat_last_error());
    lat_array_destroy(sum);
    lat_array_destroy(b);
    lat_array_destroy(a);
    if (d)
        lat_mem_free(ctx, d);
    lat_module_destroy(mod);
    lat_context_destroy(ctx);
}

static void walk(unsigned check)
{
    t_require_backend();
    /* Every compile compiles: a module from the cache would allocate less. */
    t_setenv("LATTICE_CACHE", "0");
    outcome o;
    program(check, LONG_MAX, &o); /* armed, never reached: it counts */
    long total = LONG_MAX - last_remaining;
    ASSERT_MSG(!o.bad[0], "without failures: %s", o.bad);
    ASSERT_EQ(o.failed, 0);
    ASSERT_GT(total, 10);
    const char *s = getenv("LATTICE_FAULT_STEP");
    long stride = s && atol(s) > 0 ? atol(s) : RUNNING_ON_VALGRIND ? 5 : 1;
    int failures = 0;
    for (long n = 1; n <= total; n += stride) {
        program(check, n, &o);
        ASSERT_MSG(!o.bad[0], "allocation %ld of %ld failing: %s", n, total, o.bad);
        failures += o.failed > 0;
    }
    printf("# %ld allocations walked (every %ld), %d runs saw a call fail\n", total, stride,
           failures);
    t_unsetenv("LATTICE_CACHE");
}

TEST(every_allocation_of_an_unchecked_program_can_fail)
{
    walk(LAT_CHECK_OFF);
}

TEST(every_allocation_of_a_checked_program_can_fail)
{
    walk(LAT_CHECK_ALL);
}
