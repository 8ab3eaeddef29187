/* Thread safety: host threads sharing one context, each allocating, compiling and
 * launching; per-thread error messages. Workers never ASSERT (the runner's failure jump
 * belongs to the main thread): they write what went wrong into their slot, and the main
 * thread checks every slot after joining. */
#include "harness.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

enum { THREADS = 8, ROUNDS = 6, N = 4096 };

typedef struct worker {
    lat_context *ctx;
    lat_kernel *shared_kernel; /* one kernel all workers launch */
    int id;
    char error[1024]; /* "" when everything matched */
} worker;

/* Records the first failure of a worker and stops it. */
#define WORKER_CHECK(w, cond, ...)                                                     \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            int n_ = snprintf((w)->error, sizeof (w)->error, __VA_ARGS__);             \
            if (n_ >= 0 && (size_t)n_ < sizeof (w)->error)                             \
                snprintf((w)->error + n_, sizeof (w)->error - (size_t)n_,              \
                         " (last error: %s)", lat_last_error());                       \
            return NULL;                                                               \
        }                                                                              \
    } while (0)
#define WORKER_OK(w, expr)                                                             \
    WORKER_CHECK(w, (expr) == LAT_OK, "%s:%d: %s failed", __FILE__, __LINE__, #expr)

static const char scale_src[] =
    "__global__ void scale(float *x, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n)\n"
    "        x[i] = x[i] * FACTOR + OFFSET;\n"
    "}\n";

static const char add_src[] =
    "__global__ void add(float *x, float v, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n)\n"
    "        x[i] += v;\n"
    "}\n";

static void *work(void *arg)
{
    worker *w = arg;
    float host[N];
    for (int round = 0; round < ROUNDS; round++) {
        /* A module of its own, compiled while the others compile theirs. */
        char factor[32], offset[32];
        snprintf(factor, sizeof factor, "FACTOR=%d", w->id + 2);
        snprintf(offset, sizeof offset, "OFFSET=%d", round);
        const char *defines[] = {factor, offset, NULL};
        lat_module *mod = NULL;
        lat_kernel *k = NULL;
        WORKER_OK(w, lat_module_create(w->ctx, &(lat_module_desc){.source = scale_src,
                                                                  .defines = defines},
                                       &mod));
        WORKER_OK(w, lat_module_get_kernel(mod, "scale", &k));

        lat_deviceptr d = 0;
        WORKER_OK(w, lat_mem_alloc(w->ctx, N * sizeof(float), &d));
        for (int i = 0; i < N; i++)
            host[i] = (float)(i % 100);
        WORKER_OK(w, lat_memcpy_htod(w->ctx, d, host, sizeof host));
        int n = N;
        void *params[] = {&d, &n};
        lat_launch_desc desc = {.grid = {N / 128}, .block = {128}};
        WORKER_OK(w, lat_launch(k, &desc, params));
        /* Then the kernel every thread shares: + id. */
        float v = (float)w->id;
        void *shared_params[] = {&d, &v, &n};
        WORKER_OK(w, lat_launch(w->shared_kernel, &desc, shared_params));
        WORKER_OK(w, lat_memcpy_dtoh(w->ctx, host, d, sizeof host));
        for (int i = 0; i < N; i++) {
            float want = (float)(i % 100) * (float)(w->id + 2) + (float)round + (float)w->id;
            WORKER_CHECK(w, host[i] == want, "thread %d round %d: x[%d] = %g, want %g", w->id,
                         round, i, host[i], want);
        }
        WORKER_OK(w, lat_mem_free(w->ctx, d));
        lat_module_destroy(mod);

        /* And a typed launch, whose temporary buffers come and go concurrently. */
        memset(host, 0, sizeof host);
        WORKER_OK(w, lat_launch_args(w->shared_kernel, &desc,
                                     LAT_ARGS(lat_arg_inout(host, sizeof host),
                                              lat_arg_f32(1.5f), lat_arg_i32(N))));
        WORKER_CHECK(w, host[N - 1] == 1.5f, "thread %d: typed launch gave %g", w->id,
                     host[N - 1]);
    }
    return NULL;
}

/* ---- the first compiles of the process, and concurrent lookups ---------------------- */

typedef struct racer {
    lat_context *ctx;
    lat_module *shared; /* for lookups: set before the thread starts */
    lat_kernel *found;
    int id;
    char error[512]; /* "" when everything matched */
} racer;

static void *compile_at_once(void *arg)
{
    racer *r = arg;
    char offset[32];
    snprintf(offset, sizeof offset, "OFFSET=%d", r->id);
    const char *defines[] = {"FACTOR=1", offset, NULL};
    lat_module *mod = NULL;
    lat_kernel *k = NULL;
    float x[64] = {0};
    lat_status st = lat_module_create(
        r->ctx, &(lat_module_desc){.source = scale_src, .defines = defines}, &mod);
    if (st == LAT_OK)
        st = lat_module_get_kernel(mod, "scale", &k);
    if (st == LAT_OK)
        st = lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {64}},
                             LAT_ARGS(lat_arg_inout(x, sizeof x), lat_arg_i32(64)));
    if (st != LAT_OK)
        snprintf(r->error, sizeof r->error, "%s: %s", lat_status_name(st), lat_last_error());
    else if (x[63] != (float)r->id)
        snprintf(r->error, sizeof r->error, "x[63] = %g, want %d", x[63], r->id);
    lat_module_destroy(mod);
    return NULL;
}

static void *look_up(void *arg)
{
    racer *r = arg;
    if (lat_module_get_kernel(r->shared, "add", &r->found) != LAT_OK)
        snprintf(r->error, sizeof r->error, "%s", lat_last_error());
    return NULL;
}

/* Starts THREADS threads running fn over r[] and joins them. */
static void race(racer *r, void *(*fn)(void *))
{
    pthread_t tid[THREADS];
    for (int i = 0; i < THREADS; i++)
        ASSERT_EQ(pthread_create(&tid[i], NULL, fn, &r[i]), 0);
    for (int i = 0; i < THREADS; i++)
        ASSERT_EQ(pthread_join(tid[i], NULL), 0);
    for (int i = 0; i < THREADS; i++)
        ASSERT_MSG(r[i].error[0] == '\0', "thread %d: %s", i, r[i].error);
}

/* First in this file on purpose: when the binary runs whole, these are the process's
 * first compiles, all at once (TinyCC sets its global state up lazily). */
TEST(the_first_compiles_of_a_process_may_run_concurrently)
{
    lat_context *ctx = t_context();
    racer *r = t_calloc(THREADS, sizeof *r);
    for (int i = 0; i < THREADS; i++)
        r[i] = (racer){.ctx = ctx, .id = i};
    race(r, compile_at_once);
}

TEST(concurrent_lookups_of_a_kernel_return_one_handle)
{
    lat_context *ctx = t_context();
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = add_src}, &mod));
    racer *r = t_calloc(THREADS, sizeof *r);
    for (int i = 0; i < THREADS; i++)
        r[i] = (racer){.ctx = ctx, .shared = mod, .id = i};
    race(r, look_up);
    for (int i = 1; i < THREADS; i++)
        ASSERT_MSG(r[i].found == r[0].found, "thread %d found %p, thread 0 %p", i,
                   (void *)r[i].found, (void *)r[0].found);
    ASSERT_NOT_NULL(r[0].found);
}

static void run_workers(lat_context *shared_ctx, int own_contexts)
{
    lat_context *ctx = shared_ctx;
    lat_kernel *add = t_kernel(ctx, add_src, "add");
    worker *w = t_calloc(THREADS, sizeof *w);
    pthread_t tid[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i].id = i;
        w[i].ctx = own_contexts ? t_context() : ctx;
        w[i].shared_kernel = own_contexts ? t_kernel(w[i].ctx, add_src, "add") : add;
    }
    for (int i = 0; i < THREADS; i++)
        ASSERT_EQ(pthread_create(&tid[i], NULL, work, &w[i]), 0);
    for (int i = 0; i < THREADS; i++)
        ASSERT_EQ(pthread_join(tid[i], NULL), 0);
    for (int i = 0; i < THREADS; i++)
        ASSERT_MSG(w[i].error[0] == '\0', "worker %d: %s", i, w[i].error);
}

TEST(threads_sharing_one_context_allocate_compile_and_launch)
{
    run_workers(t_context(), 0);
}

TEST(threads_with_a_context_each_run_side_by_side)
{
    run_workers(t_context(), 1);
}

/* ---- per-thread error messages ------------------------------------------------------- */

typedef struct probe {
    lat_context *ctx;
    char before[256]; /* lat_last_error() on arrival */
    lat_status status;
    char after[256]; /* after its own failure */
} probe;

static void *fail_differently(void *arg)
{
    probe *p = arg;
    snprintf(p->before, sizeof p->before, "%s", lat_last_error());
    p->status = lat_memset_d32(p->ctx, 0, 0, 4);
    snprintf(p->after, sizeof p->after, "%s", lat_last_error());
    return NULL;
}

TEST(last_error_is_per_thread)
{
    lat_context *ctx = t_context();
    lat_deviceptr d;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_mem_alloc(ctx, 0, &d));
    char mine[256];
    snprintf(mine, sizeof mine, "%s", lat_last_error());

    probe p = {.ctx = ctx};
    pthread_t tid;
    ASSERT_EQ(pthread_create(&tid, NULL, fail_differently, &p), 0);
    ASSERT_EQ(pthread_join(tid, NULL), 0);

    ASSERT_STR_EQ(p.before, ""); /* a new thread has no failure yet */
    ASSERT_EQ(p.status, LAT_ERROR_INVALID_VALUE);
    ASSERT_CONTAINS(p.after, "lat_memset_d32");
    ASSERT_STR_EQ(lat_last_error(), mine); /* the other thread's failure is not ours */
}
