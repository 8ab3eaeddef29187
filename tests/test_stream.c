/* Streams and events: ordered work, independent streams, waiting, timing, and every
 * misuse. */
#include "harness.h"

#include <string.h>

static const char add_one_src[] =
    "__global__ void add_one(int *x, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) x[i] += 1;\n"
    "}\n";

enum { N = 1000 };

static lat_launch_desc grid_for(int n, lat_stream *s)
{
    return (lat_launch_desc){.grid = {(unsigned)(n + 255) / 256}, .block = {256}, .stream = s};
}

TEST(create_and_destroy_a_stream)
{
    lat_context *ctx = t_context();
    lat_stream *s = NULL;
    ASSERT_OK(lat_stream_create(ctx, NULL, &s));
    ASSERT_NOT_NULL(s);
    ASSERT_TRUE(lat_stream_context(s) == ctx);
    ASSERT_OK(lat_stream_synchronize(s));
    lat_stream_destroy(s);
    lat_stream_destroy(NULL);
}

TEST(stream_create_with_null_arguments_is_invalid_value)
{
    lat_context *ctx = t_context();
    lat_stream *s;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_stream_create(NULL, NULL, &s));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_stream_create(ctx, NULL, NULL));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_stream_synchronize(NULL));
    int done;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_stream_query(NULL, &done));
}

TEST(non_blocking_and_prioritised_streams_work)
{
    lat_context *ctx = t_context();
    lat_stream *s;
    ASSERT_OK(lat_stream_create(ctx, &(lat_stream_desc){.non_blocking = 1, .priority = -1000}, &s));
    lat_kernel *k = t_kernel(ctx, add_one_src, "add_one");
    int host[N] = {0};
    lat_deviceptr d = t_device_copy(ctx, host, sizeof host);
    int n = N;
    void *params[] = {&d, &n};
    lat_launch_desc desc = grid_for(N, s);
    ASSERT_OK(lat_launch(k, &desc, params));
    ASSERT_OK(lat_stream_synchronize(s));
    ASSERT_OK(lat_memcpy_dtoh(ctx, host, d, sizeof host));
    ASSERT_EQ(host[0], 1);
    ASSERT_EQ(host[N - 1], 1);
    lat_stream_destroy(s);
}

TEST(work_on_one_stream_runs_in_order)
{
    lat_context *ctx = t_context();
    lat_stream *s;
    ASSERT_OK(lat_stream_create(ctx, NULL, &s));
    lat_kernel *k = t_kernel(ctx, add_one_src, "add_one");
    int *host = NULL;
    ASSERT_OK(lat_host_alloc(ctx, N * sizeof(int), 0, (void **)&host));
    lat_deviceptr d = t_device_copy(ctx, NULL, N * sizeof(int));
    int n = N;
    void *params[] = {&d, &n};
    lat_launch_desc desc = grid_for(N, s);
    /* memset 7, three increments, copy out: 10 everywhere, if nothing overtook. */
    ASSERT_OK(lat_memset_d32_async(ctx, d, 7, N, s));
    for (int i = 0; i < 3; i++)
        ASSERT_OK(lat_launch(k, &desc, params));
    ASSERT_OK(lat_memcpy_dtoh_async(ctx, host, d, N * sizeof(int), s));
    ASSERT_OK(lat_stream_synchronize(s));
    for (int i = 0; i < N; i++)
        ASSERT_MSG(host[i] == 10, "host[%d] = %d, want 10", i, host[i]);
    int done = 0;
    ASSERT_OK(lat_stream_query(s, &done));
    ASSERT_EQ(done, 1);
    ASSERT_OK(lat_host_free(ctx, host));
}

TEST(two_streams_each_get_their_own_results)
{
    lat_context *ctx = t_context();
    lat_stream *s[2];
    lat_kernel *k = t_kernel(ctx, add_one_src, "add_one");
    lat_deviceptr d[2];
    int host[2][N];
    for (int j = 0; j < 2; j++) {
        ASSERT_OK(lat_stream_create(ctx, NULL, &s[j]));
        for (int i = 0; i < N; i++)
            host[j][i] = i * (j + 1);
        d[j] = t_device_copy(ctx, NULL, sizeof host[j]);
        ASSERT_OK(lat_memcpy_htod_async(ctx, d[j], host[j], sizeof host[j], s[j]));
    }
    int n = N;
    for (int rep = 0; rep < 5; rep++) {
        for (int j = 0; j < 2; j++) {
            void *params[] = {&d[j], &n};
            lat_launch_desc desc = grid_for(N, s[j]);
            if (rep <= j * 2) /* stream 0 adds 1, stream 1 adds 3 */
                ASSERT_OK(lat_launch(k, &desc, params));
        }
    }
    for (int j = 0; j < 2; j++) {
        ASSERT_OK(lat_memcpy_dtoh_async(ctx, host[j], d[j], sizeof host[j], s[j]));
        ASSERT_OK(lat_stream_synchronize(s[j]));
    }
    for (int i = 0; i < N; i++) {
        ASSERT_MSG(host[0][i] == i + 1, "stream 0: [%d] = %d", i, host[0][i]);
        ASSERT_MSG(host[1][i] == 2 * i + 3, "stream 1: [%d] = %d", i, host[1][i]);
    }
}

TEST(a_stream_waits_for_an_event_of_another_stream)
{
    lat_context *ctx = t_context();
    lat_stream *producer, *consumer;
    ASSERT_OK(lat_stream_create(ctx, &(lat_stream_desc){.non_blocking = 1}, &producer));
    ASSERT_OK(lat_stream_create(ctx, &(lat_stream_desc){.non_blocking = 1}, &consumer));
    lat_event *ready;
    ASSERT_OK(lat_event_create(ctx, &(lat_event_desc){.disable_timing = 1}, &ready));
    lat_kernel *k = t_kernel(ctx, add_one_src, "add_one");
    enum { BIG = 1 << 20 };
    lat_deviceptr d = t_device_copy(ctx, NULL, BIG * sizeof(int));
    lat_deviceptr copy = t_device_copy(ctx, NULL, BIG * sizeof(int));
    int n = BIG;
    void *params[] = {&d, &n};
    lat_launch_desc desc = grid_for(BIG, producer);
    ASSERT_OK(lat_memset_d32_async(ctx, d, 0, BIG, producer));
    for (int i = 0; i < 20; i++)
        ASSERT_OK(lat_launch(k, &desc, params));
    ASSERT_OK(lat_event_record(ready, producer));
    ASSERT_OK(lat_stream_wait_event(consumer, ready));
    ASSERT_OK(lat_memcpy_dtod_async(ctx, copy, d, BIG * sizeof(int), consumer));
    ASSERT_OK(lat_stream_synchronize(consumer));
    int *host = t_calloc(BIG, sizeof(int));
    ASSERT_OK(lat_memcpy_dtoh(ctx, host, copy, BIG * sizeof(int)));
    ASSERT_EQ(host[0], 20);
    ASSERT_EQ(host[BIG - 1], 20);
    lat_event_destroy(ready);
}

TEST(the_default_stream_can_wait_for_an_event)
{
    lat_context *ctx = t_context();
    lat_event *e;
    ASSERT_OK(lat_event_create(ctx, NULL, &e));
    ASSERT_OK(lat_event_record(e, NULL));
    ASSERT_OK(lat_stream_wait_event(NULL, e));
    ASSERT_OK(lat_event_synchronize(e));
    ASSERT_TRUE(lat_event_context(e) == ctx);
}

TEST(events_time_the_work_between_them)
{
    lat_context *ctx = t_context();
    lat_event *start, *end;
    ASSERT_OK(lat_event_create(ctx, NULL, &start));
    ASSERT_OK(lat_event_create(ctx, NULL, &end));
    lat_kernel *k = t_kernel(ctx, add_one_src, "add_one");
    static const int zeros[N];
    lat_deviceptr d = t_device_copy(ctx, zeros, sizeof zeros);
    int n = N;
    void *params[] = {&d, &n};
    lat_launch_desc desc = grid_for(N, NULL);
    ASSERT_OK(lat_event_record(start, NULL));
    ASSERT_OK(lat_launch(k, &desc, params));
    ASSERT_OK(lat_event_record(end, NULL));
    ASSERT_OK(lat_event_synchronize(end));
    int done = 0;
    ASSERT_OK(lat_event_query(end, &done));
    ASSERT_EQ(done, 1);
    float ms = -1.0f;
    ASSERT_OK(lat_event_elapsed_ms(start, end, &ms));
    ASSERT_MSG(ms >= 0.0f && ms < 10000.0f, "elapsed %g ms", (double)ms);
}

TEST(elapsed_time_needs_recorded_timing_events)
{
    lat_context *ctx = t_context();
    lat_event *a, *b, *untimed;
    ASSERT_OK(lat_event_create(ctx, NULL, &a));
    ASSERT_OK(lat_event_create(ctx, NULL, &b));
    ASSERT_OK(lat_event_create(ctx, &(lat_event_desc){.disable_timing = 1}, &untimed));
    float ms;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_event_elapsed_ms(a, b, &ms));
    ASSERT_CONTAINS(lat_last_error(), "not been recorded");
    ASSERT_OK(lat_event_record(a, NULL));
    ASSERT_OK(lat_event_record(untimed, NULL));
    ASSERT_OK(lat_event_synchronize(untimed));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_event_elapsed_ms(a, untimed, &ms));
    ASSERT_CONTAINS(lat_last_error(), "disable_timing");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_event_elapsed_ms(a, b, NULL));
}

TEST(a_stream_of_another_context_is_invalid_value)
{
    lat_context *ctx = t_context();
    lat_context *other = t_context();
    lat_stream *s;
    ASSERT_OK(lat_stream_create(other, NULL, &s));
    lat_kernel *k = t_kernel(ctx, add_one_src, "add_one");
    lat_deviceptr d = t_device_copy(ctx, NULL, N * sizeof(int));
    int n = N;
    void *params[] = {&d, &n};
    lat_launch_desc desc = grid_for(N, s);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_launch(k, &desc, params));
    ASSERT_CONTAINS(lat_last_error(), "another context");
    int host[4];
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_memcpy_dtoh_async(ctx, host, d, sizeof host, s));
    lat_event *e;
    ASSERT_OK(lat_event_create(ctx, NULL, &e));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_event_record(e, s));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_stream_wait_event(s, e));
}

TEST(launch_args_with_buffers_runs_on_a_stream)
{
    lat_context *ctx = t_context();
    lat_stream *s;
    ASSERT_OK(lat_stream_create(ctx, &(lat_stream_desc){.non_blocking = 1}, &s));
    lat_kernel *k = t_kernel(ctx, add_one_src, "add_one");
    int host[N];
    for (int i = 0; i < N; i++)
        host[i] = i;
    lat_launch_desc desc = grid_for(N, s);
    ASSERT_OK(lat_launch_args(k, &desc, LAT_ARGS(lat_arg_inout(host, sizeof host), lat_arg_i32(N))));
    for (int i = 0; i < N; i++)
        ASSERT_MSG(host[i] == i + 1, "host[%d] = %d", i, host[i]);
}

TEST(streams_and_events_left_alive_go_with_the_context)
{
    lat_context *ctx = t_context();
    lat_stream *s;
    lat_event *e;
    for (int i = 0; i < 3; i++) {
        ASSERT_OK(lat_stream_create(ctx, NULL, &s));
        ASSERT_OK(lat_event_create(ctx, NULL, &e));
        ASSERT_OK(lat_event_record(e, s));
    }
    /* The harness destroys the context; ASan and valgrind see nothing leak. */
}
