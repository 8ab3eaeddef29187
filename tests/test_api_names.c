/* A failure's message names the public function the program called (issue 43): the name
 * comes from the entry point, never from the code that failed, so a failure deep inside
 * another public function (an array's allocation, lat_launch under lat_launch_args) names
 * the call the program made, and each thread's failures name its own calls. */
#include "harness.h"
#include "lattice/array.h"

#include <pthread.h>
#include <string.h>

static void starts_with(const char *prefix)
{
    const char *msg = lat_last_error();
    ASSERT_MSG(strncmp(msg, prefix, strlen(prefix)) == 0, "message '%s' does not start with '%s'",
               msg, prefix);
    /* Named once: "lat_x: lat_x: ..." would be a message quoted inside itself. */
    ASSERT_MSG(strstr(msg + strlen(prefix), prefix) == NULL, "'%s' names '%s' twice", msg, prefix);
}

/* The allocation is lat_mem_alloc's work, but the program called lat_array_empty. */
TEST(an_array_too_big_for_the_device_names_the_array_call)
{
    lat_context *ctx = t_context();
    size_t total = 0;
    ASSERT_OK(lat_mem_info(ctx, NULL, &total));
    size_t shape[1] = {((size_t)1 << 60) / sizeof(float)};
    ASSERT_TRUE(shape[0] * sizeof(float) > total);
    lat_array *a = NULL;
    ASSERT_STATUS(LAT_ERROR_OUT_OF_DEVICE_MEMORY, lat_array_empty(ctx, LAT_DTYPE_FLOAT32, 1, shape, &a));
    starts_with("lat_array_empty: ");
    ASSERT_CONTAINS(lat_last_error(), "bytes is more than the");
    /* The call that failed inside has ended: the next failure is the next call's. */
    lat_deviceptr p;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_mem_alloc(ctx, 0, &p));
    starts_with("lat_mem_alloc: ");
}

/* lat_launch_args validates through lat_launch's code. */
TEST(a_bad_launch_through_lat_launch_args_names_lat_launch_args)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx, "__global__ void twice(int *x) { x[threadIdx.x] *= 2; }\n",
                             "twice");
    int x[32];
    for (int i = 0; i < 32; i++)
        x[i] = (int)(t_rand_u32() % 1000);
    ASSERT_STATUS(LAT_ERROR_INVALID_DIMENSIONS,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {0}, .block = {32}},
                                  LAT_ARGS(lat_arg_inout(x, sizeof x))));
    starts_with("lat_launch_args: kernel 'twice': grid.x is 0");
    lat_deviceptr d = t_device_copy(ctx, x, sizeof x);
    void *params[] = {&d};
    ASSERT_STATUS(LAT_ERROR_INVALID_DIMENSIONS,
                  lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {0}}, params));
    starts_with("lat_launch: kernel 'twice': block.x is 0");
    /* And a launch that runs: nothing recorded, the kernel's work done. */
    int want[32];
    for (int i = 0; i < 32; i++)
        want[i] = 2 * x[i];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {32}},
                              LAT_ARGS(lat_arg_inout(x, sizeof x))));
    for (int i = 0; i < 32; i++)
        ASSERT_EQ(x[i], want[i]);
}

TEST(a_null_argument_is_named_by_the_call_that_got_it)
{
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_mem_free(NULL, 16));
    starts_with("lat_mem_free: ctx is NULL");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_stream_synchronize(NULL));
    starts_with("lat_stream_synchronize: ");
}

/* ---- threads ----------------------------------------------------------------------------- */

enum { ROUNDS = 500 };

typedef struct {
    lat_context *ctx;
    int which;
    int wrong; /* rounds whose message named another call */
} worker;

static void *fail_repeatedly(void *arg)
{
    worker *w = arg;
    for (int i = 0; i < ROUNDS; i++) {
        lat_deviceptr p;
        const char *want;
        if (w->which == 0) {
            (void)lat_mem_alloc(w->ctx, 0, &p);
            want = "lat_mem_alloc: size is 0 bytes";
        } else {
            (void)lat_mem_free(w->ctx, 0x10);
            want = "lat_mem_free: ";
        }
        if (strncmp(lat_last_error(), want, strlen(want)) != 0)
            w->wrong++;
    }
    return NULL;
}

/* Each thread's failures are named by its own calls, however the two interleave. */
TEST(each_thread_names_its_own_calls)
{
    lat_context *ctx = t_context();
    worker w[2] = {{ctx, 0, 0}, {ctx, 1, 0}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        ASSERT_EQ(pthread_create(&th[i], NULL, fail_repeatedly, &w[i]), 0);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    ASSERT_EQ(w[0].wrong, 0);
    ASSERT_EQ(w[1].wrong, 0);
}
