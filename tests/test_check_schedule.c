/* Schedules of checked launches (lattice/check.h): the order threads run in between
 * barriers is forward, reverse or random from a seed that replays, and a thread can be
 * switched for another at any access (preempt), so that code right only by luck fails
 * the same way every time. */
#include "check_util.h"

/* Each thread takes a ticket from its block's counters as it first runs and another after
 * a barrier (numbered from the block's first thread). Counters per block: blocks of a
 * checked launch run at once on several host threads, so tickets from one counter shared
 * by blocks would depend on the host's timing, which no seed replays. */
static const char *const tickets_src =
    "__global__ void tickets(int *first, int *second, int *counter)\n"
    "{\n"
    "    int base = blockIdx.x * blockDim.x, t = base + threadIdx.x;\n"
    "    first[t] = base + atomicAdd(&counter[2 * blockIdx.x], 1);\n"
    "    __syncthreads();\n"
    "    second[t] = base + atomicAdd(&counter[2 * blockIdx.x + 1], 1);\n"
    "}\n";

enum { T = 64 };

/* Runs tickets on 2 blocks of T/2 threads; the tickets in first and second. */
static void run_tickets(lat_context *ctx, int *first, int *second)
{
    lat_kernel *k = ck_kernel(ctx, tickets_src, "tickets.cu", "tickets");
    lat_deviceptr f = t_device_copy(ctx, NULL, T * sizeof(int));
    lat_deviceptr s = t_device_copy(ctx, NULL, T * sizeof(int));
    lat_deviceptr c = t_device_copy(ctx, NULL, 4 * sizeof(int));
    ASSERT_OK(lat_memset_d32(ctx, c, 0, 4));
    void *params[] = {&f, &s, &c};
    ASSERT_OK(ck_launch(k, 2, T / 2, params));
    ASSERT_NO_REPORTS(ctx);
    ASSERT_OK(lat_memcpy_dtoh(ctx, first, f, T * sizeof(int)));
    ASSERT_OK(lat_memcpy_dtoh(ctx, second, s, T * sizeof(int)));
}

static void set_order(lat_context *ctx, lat_schedule_order order, uint64_t seed, int preempt)
{
    lat_check_options o = {.order = order, .seed = seed, .preempt = preempt};
    ASSERT_OK(lat_check_configure(ctx, &o));
}

TEST(forward_runs_a_blocks_threads_in_index_order)
{
    lat_context *ctx = ck_context(LAT_CHECK_ALL);
    int first[T], second[T];
    run_tickets(ctx, first, second);
    /* Blocks run at once on several OS threads: the order is the threads' in a block. */
    for (int t = 0; t < T; t++)
        if (t % (T / 2) != T / 2 - 1) {
            ASSERT_LT(first[t], first[t + 1]);
            ASSERT_LT(second[t], second[t + 1]);
        }
}

TEST(reverse_runs_a_blocks_last_thread_first)
{
    lat_context *ctx = ck_context(LAT_CHECK_ALL);
    set_order(ctx, LAT_SCHEDULE_REVERSE, 0, 0);
    int first[T], second[T];
    run_tickets(ctx, first, second);
    for (int t = 0; t < T; t++)
        if (t % (T / 2) != T / 2 - 1) {
            ASSERT_LT(first[t + 1], first[t]);
            ASSERT_LT(second[t + 1], second[t]);
        }
}

static bool is_permutation(const int *v)
{
    bool seen[T] = {false};
    for (int t = 0; t < T; t++) {
        if (v[t] < 0 || v[t] >= T || seen[v[t]])
            return false;
        seen[v[t]] = true;
    }
    return true;
}

TEST(random_orders_replay_from_their_seed)
{
    lat_context *ctx = ck_context(LAT_CHECK_ALL);
    set_order(ctx, LAT_SCHEDULE_RANDOM, 12345, 0);
    int a1[T], a2[T], b1[T], b2[T], c1[T], c2[T];
    run_tickets(ctx, a1, a2);
    ASSERT_EQ(lat_check_last_seed(ctx), 12345);
    run_tickets(ctx, b1, b2);
    ASSERT_TRUE(is_permutation(a1) && is_permutation(a2));
    ASSERT_TRUE(memcmp(a1, b1, sizeof a1) == 0 && memcmp(a2, b2, sizeof a2) == 0);
    /* A new order after the barrier, and another seed gives another run. */
    ASSERT_TRUE(memcmp(a1, a2, sizeof a1) != 0);
    set_order(ctx, LAT_SCHEDULE_RANDOM, 777, 0);
    run_tickets(ctx, c1, c2);
    ASSERT_TRUE(memcmp(a1, c1, sizeof a1) != 0);
}

static int seed_logged;
static uint64_t logged_seed;
static void grab_seed(void *user, lat_log_level level, const char *msg)
{
    (void)user;
    const char *p = strstr(msg, "LATTICE_SCHEDULE=random:");
    if (level == LAT_LOG_INFO && p) {
        seed_logged++;
        logged_seed = strtoull(p + 24, NULL, 10);
    }
}

TEST(a_seed_of_zero_is_drawn_logged_and_replayable)
{
    lat_backend_kind kind = t_require_backend();
    if (kind != LAT_BACKEND_EMU)
        SKIP("the checks run on the emulator only");
    seed_logged = 0;
    lat_context *ctx = t_context_with(&(lat_context_desc){
        .backend = LAT_BACKEND_EMU, .check = LAT_CHECK_MEMCHECK, .logger = {grab_seed, NULL}});
    set_order(ctx, LAT_SCHEDULE_RANDOM, 0, 0);
    int a1[T], a2[T], b1[T], b2[T];
    run_tickets(ctx, a1, a2);
    ASSERT_EQ(seed_logged, 1);
    ASSERT_U64_NE(logged_seed, 0);
    ASSERT_U64_EQ(lat_check_last_seed(ctx), logged_seed);
    set_order(ctx, LAT_SCHEDULE_RANDOM, logged_seed, 0);
    run_tickets(ctx, b1, b2);
    ASSERT_TRUE(memcmp(a1, b1, sizeof a1) == 0 && memcmp(a2, b2, sizeof a2) == 0);
}

TEST(lattice_schedule_sets_the_default)
{
    lat_backend_kind kind = t_require_backend();
    if (kind != LAT_BACKEND_EMU)
        SKIP("the checks run on the emulator only");
    t_setenv("LATTICE_SCHEDULE", "random:99,preempt");
    lat_context *ctx = t_context_with(&(lat_context_desc){.backend = LAT_BACKEND_EMU,
                                                          .check = LAT_CHECK_ALL});
    lat_check_options o;
    ASSERT_OK(lat_check_get_options(ctx, &o));
    ASSERT_EQ(o.order, LAT_SCHEDULE_RANDOM);
    ASSERT_U64_EQ(o.seed, 99);
    ASSERT_EQ(o.preempt, 1);
    t_setenv("LATTICE_SCHEDULE", "sideways");
    lat_context *bad;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_context_create(&(lat_context_desc){.backend = LAT_BACKEND_EMU,
                                                         .check = LAT_CHECK_ALL}, &bad));
    ASSERT_CONTAINS(lat_last_error(), "LATTICE_SCHEDULE='sideways' is not a schedule");
    t_unsetenv("LATTICE_SCHEDULE");
}

TEST(preempting_interleaves_threads_between_barriers)
{
    lat_context *ctx = ck_context(LAT_CHECK_MEMCHECK);
    lat_kernel *k = ck_kernel(ctx,
                              "__global__ void steps(int *log, int *pos)\n"
                              "{\n"
                              "    for (int s = 0; s < 8; s++)\n"
                              "        log[atomicAdd(pos, 1)] = threadIdx.x;\n"
                              "}\n",
                              "steps.cu", "steps");
    lat_deviceptr log = t_device_copy(ctx, NULL, 32 * sizeof(int));
    lat_deviceptr pos = t_device_copy(ctx, NULL, sizeof(int));
    void *params[] = {&log, &pos};
    int a[32], b[32];
    /* Without preemption each thread runs to its end: 0 0 0 ... 1 1 1 ... */
    ASSERT_OK(lat_memset_d32(ctx, pos, 0, 1));
    ASSERT_OK(ck_launch(k, 1, 4, params));
    ASSERT_OK(lat_memcpy_dtoh(ctx, a, log, sizeof a));
    for (int i = 0; i < 32; i++)
        ASSERT_EQ(a[i], i / 8);
    /* With it, the threads' steps interleave, the same way for the same seed. */
    set_order(ctx, LAT_SCHEDULE_FORWARD, 5, 1);
    ASSERT_OK(lat_memset_d32(ctx, pos, 0, 1));
    ASSERT_OK(ck_launch(k, 1, 4, params));
    ASSERT_OK(lat_memcpy_dtoh(ctx, a, log, sizeof a));
    int switches = 0;
    for (int i = 1; i < 32; i++)
        switches += a[i] != a[i - 1];
    ASSERT_GT(switches, 3);
    ASSERT_OK(lat_memset_d32(ctx, pos, 0, 1));
    ASSERT_OK(ck_launch(k, 1, 4, params));
    ASSERT_OK(lat_memcpy_dtoh(ctx, b, log, sizeof b));
    ASSERT_TRUE(memcmp(a, b, sizeof a) == 0);
}

/* A kernel checked as region loops runs each thread's stretch between barriers whole, so
 * a racy read-modify-write of shared memory counts right by luck; created while the
 * context preempts, the module runs it on fibers, and updates are lost the same way for
 * the same seed. */
TEST(preempting_contexts_put_region_loop_kernels_on_fibers)
{
    static const char *const src = "__global__ void bump(int *out)\n"
                                   "{\n"
                                   "    __shared__ int n;\n"
                                   "    if (threadIdx.x == 0) n = 0;\n"
                                   "    __syncthreads();\n"
                                   "    int v = n;\n"
                                   "    n = v + 1;\n"
                                   "    __syncthreads();\n"
                                   "    if (threadIdx.x == 0) out[0] = n;\n"
                                   "}\n";
    int got[2];
    for (int preempt = 0; preempt < 2; preempt++) {
        lat_context *ctx = ck_context(LAT_CHECK_MEMCHECK);
        set_order(ctx, LAT_SCHEDULE_FORWARD, 5, preempt);
        lat_kernel *k = ck_kernel(ctx, src, "bump.cu", "bump");
        lat_deviceptr out = t_device_copy(ctx, NULL, sizeof(int));
        void *params[] = {&out};
        ASSERT_OK(ck_launch(k, 1, 32, params));
        ASSERT_OK(lat_memcpy_dtoh(ctx, &got[preempt], out, sizeof(int)));
    }
    ASSERT_EQ(got[0], 32);
    ASSERT_LT(got[1], 32);
    ASSERT_GT(got[1], 0);
}

TEST(options_are_checked)
{
    lat_context *ctx = ck_context(LAT_CHECK_ALL);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_check_configure(ctx, &(lat_check_options){.order = (lat_schedule_order)7}));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_check_configure(ctx, &(lat_check_options){.timeout_s = -1}));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_check_configure(ctx, NULL));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_check_configure(NULL, &(lat_check_options){0}));
}
