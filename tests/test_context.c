/* Contexts: creation on the backend under test, bad requests, the logger. */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TEST(a_null_descriptor_means_all_defaults)
{
    t_require_backend(); /* with LATTICE_BACKEND set, AUTO means the backend under test */
    lat_context *ctx = NULL;
    ASSERT_OK(lat_context_create(NULL, &ctx));
    ASSERT_NOT_NULL(ctx);
    lat_backend_kind kind = lat_context_backend(ctx);
    lat_context_destroy(ctx);
    ASSERT_TRUE(kind == LAT_BACKEND_CUDA || kind == LAT_BACKEND_EMU ||
                kind == LAT_BACKEND_CROSS); /* LATTICE_BACKEND=cross: the suite 'cross' */
    if (t_backend() != LAT_BACKEND_AUTO)
        ASSERT_EQ(kind, t_backend());
}

TEST(context_runs_on_the_backend_asked_for)
{
    lat_context *ctx = t_context();
    lat_backend_kind resolved = t_require_backend();
    ASSERT_EQ(lat_context_backend(ctx), resolved);
}

TEST(context_device_info_matches_device_get_info)
{
    lat_context *ctx = t_context();
    lat_device_info a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    ASSERT_OK(lat_context_device_info(ctx, &a));
    ASSERT_OK(lat_device_get_info(lat_context_backend(ctx), 0, &b));
    ASSERT_STR_EQ(a.name, b.name);
    ASSERT_U64_EQ(a.total_memory, b.total_memory);
    ASSERT_EQ(a.max_threads_per_block, b.max_threads_per_block);
    ASSERT_EQ(a.compute_major, b.compute_major);
    ASSERT_EQ(a.compute_minor, b.compute_minor);
}

TEST(context_device_info_with_null_arguments_is_invalid_value)
{
    lat_context *ctx = t_context();
    lat_device_info info;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_context_device_info(ctx, NULL));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_context_device_info(NULL, &info));
}

TEST(create_with_a_null_output_is_invalid_value)
{
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_context_create(&(lat_context_desc){.backend = LAT_BACKEND_EMU}, NULL));
}

TEST(a_device_ordinal_out_of_range_is_invalid_device)
{
    lat_backend_kind kind = t_require_backend();
    int count = 0;
    ASSERT_OK(lat_device_count(kind, &count));
    const int bad[] = {count, count + 7, -1};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        lat_context *ctx = (lat_context *)&count; /* must be overwritten with NULL */
        ASSERT_STATUS(LAT_ERROR_INVALID_DEVICE,
                      lat_context_create(&(lat_context_desc){.backend = kind, .device = bad[i]},
                                         &ctx));
        ASSERT_NULL(ctx);
        ASSERT_GT(strlen(lat_last_error()), 0);
    }
}

TEST(an_unknown_backend_kind_is_invalid_value)
{
    lat_context *ctx = NULL;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_context_create(&(lat_context_desc){.backend = (lat_backend_kind)9}, &ctx));
    ASSERT_NULL(ctx);
}

TEST(cuda_context_without_a_gpu_is_backend_unavailable)
{
    lat_backend_kind r;
    if (lat_backend_resolve(LAT_BACKEND_CUDA, &r) == LAT_OK)
        SKIP("CUDA is available here");
    lat_context *ctx = (lat_context *)&r;
    ASSERT_STATUS(LAT_ERROR_BACKEND_UNAVAILABLE,
                  lat_context_create(&(lat_context_desc){.backend = LAT_BACKEND_CUDA}, &ctx));
    ASSERT_NULL(ctx);
    ASSERT_GT(strlen(lat_last_error()), 0);
}

TEST(destroying_null_is_a_no_op)
{
    lat_context_destroy(NULL);
}

TEST(two_contexts_live_side_by_side)
{
    lat_context *a = t_context();
    lat_context *b = t_context();
    ASSERT_TRUE(a != b);
    lat_deviceptr pa = t_device_copy(a, NULL, 64), pb = t_device_copy(b, NULL, 64);
    ASSERT_OK(lat_memset_d32(a, pa, 1, 16));
    ASSERT_OK(lat_memset_d32(b, pb, 2, 16));
    uint32_t ha[16], hb[16];
    ASSERT_OK(lat_memcpy_dtoh(a, ha, pa, sizeof ha));
    ASSERT_OK(lat_memcpy_dtoh(b, hb, pb, sizeof hb));
    ASSERT_EQ(ha[15], 1);
    ASSERT_EQ(hb[15], 2);
}

TEST(synchronize_with_no_work_is_ok)
{
    lat_context *ctx = t_context();
    ASSERT_OK(lat_context_synchronize(ctx));
}

TEST(synchronize_null_is_invalid_value)
{
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_context_synchronize(NULL));
}

/* ---- the logger ---------------------------------------------------------------------- */

typedef struct log_record {
    int errors, warnings, infos;
    char last_error[4096];
    void *user_data_seen;
} log_record;

static void record_log(void *user_data, lat_log_level level, const char *message)
{
    log_record *r = user_data;
    r->user_data_seen = user_data;
    switch (level) {
    case LAT_LOG_ERROR:
        r->errors++;
        snprintf(r->last_error, sizeof r->last_error, "%s", message);
        break;
    case LAT_LOG_WARNING: r->warnings++; break;
    case LAT_LOG_INFO: r->infos++; break;
    }
}

TEST(logger_receives_every_error_with_the_last_error_text)
{
    log_record *rec = t_calloc(1, sizeof *rec);
    lat_context *ctx =
        t_context_with(&(lat_context_desc){.logger = {.func = record_log, .user_data = rec}});
    lat_deviceptr p;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_mem_alloc(ctx, 0, &p));
    ASSERT_EQ(rec->errors, 1);
    ASSERT_TRUE(rec->user_data_seen == rec);
    ASSERT_STR_EQ(rec->last_error, lat_last_error());

    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_mem_free(ctx, (lat_deviceptr)0x1234));
    ASSERT_EQ(rec->errors, 2);
    ASSERT_STR_EQ(rec->last_error, lat_last_error());
}

TEST(logger_is_not_called_for_successful_calls)
{
    log_record *rec = t_calloc(1, sizeof *rec);
    /* Unchecked: a checked context warns once that its checks are on. */
    lat_context *ctx = t_context_with(
        &(lat_context_desc){.logger = {.func = record_log, .user_data = rec}, .check = LAT_CHECK_OFF});
    lat_deviceptr p = t_device_copy(ctx, NULL, 256);
    ASSERT_OK(lat_memset_d8(ctx, p, 0, 256));
    ASSERT_OK(lat_mem_free(ctx, p));
    ASSERT_EQ(rec->errors, 0);
    ASSERT_EQ(rec->warnings, 0);
}

TEST(logger_of_one_context_does_not_hear_another)
{
    log_record *rec = t_calloc(1, sizeof *rec);
    t_context_with(&(lat_context_desc){.logger = {.func = record_log, .user_data = rec}});
    lat_context *quiet = t_context();
    lat_deviceptr p;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_mem_alloc(quiet, 0, &p));
    ASSERT_EQ(rec->errors, 0);
}

TEST(last_error_names_the_function_that_failed)
{
    lat_context *ctx = t_context();
    lat_deviceptr p;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_mem_alloc(ctx, 0, &p));
    char first[1024];
    snprintf(first, sizeof first, "%s", lat_last_error());
    ASSERT_GT(strlen(first), 0);
    ASSERT_CONTAINS(first, "lat_mem_alloc");
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_mem_free(ctx, (lat_deviceptr)0x10));
    ASSERT_CONTAINS(lat_last_error(), "lat_mem_free");
}
