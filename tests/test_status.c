/* Version numbers and status codes: the parts of the API that need no backend. */
#include "harness.h"

#include <stdio.h>
#include <string.h>

TEST(version_function_matches_the_header_macros)
{
    ASSERT_EQ(lat_version(), LAT_VERSION_NUMBER);
    ASSERT_EQ(LAT_VERSION_NUMBER,
              LAT_VERSION_MAJOR * 10000 + LAT_VERSION_MINOR * 100 + LAT_VERSION_PATCH);
}

TEST(version_string_matches_the_header_macros)
{
    char expected[32];
    snprintf(expected, sizeof expected, "%d.%d.%d", LAT_VERSION_MAJOR, LAT_VERSION_MINOR,
             LAT_VERSION_PATCH);
    ASSERT_STR_EQ(LAT_VERSION_STRING, expected);
    ASSERT_STR_EQ(lat_version_string(), expected);
}

TEST(status_ok_is_zero_and_errors_are_negative)
{
    ASSERT_EQ(LAT_OK, 0);
#define CHECK_NEGATIVE(name, value, text) \
    if (LAT_##name != LAT_OK)             \
        ASSERT_LT(LAT_##name, 0);
    LAT_STATUS_MAP(CHECK_NEGATIVE)
#undef CHECK_NEGATIVE
}

TEST(every_status_has_its_own_name)
{
#define CHECK_NAME(name, value, text) \
    ASSERT_STR_EQ(lat_status_name(LAT_##name), "LAT_" #name);
    LAT_STATUS_MAP(CHECK_NAME)
#undef CHECK_NAME
}

TEST(every_status_has_its_description)
{
#define CHECK_STRING(name, value, text) ASSERT_STR_EQ(lat_status_string(LAT_##name), text);
    LAT_STATUS_MAP(CHECK_STRING)
#undef CHECK_STRING
}

TEST(status_values_are_distinct)
{
    static const lat_status all[] = {
#define LIST(name, value, text) LAT_##name,
        LAT_STATUS_MAP(LIST)
#undef LIST
    };
    size_t n = sizeof all / sizeof all[0];
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            ASSERT_MSG(all[i] != all[j], "%s and %s share the value %d",
                       lat_status_name(all[i]), lat_status_name(all[j]), (int)all[i]);
}

TEST(unknown_status_has_a_placeholder_name_and_a_description)
{
    const lat_status unknown[] = {(lat_status)1, (lat_status)-1000, (lat_status)12345};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        ASSERT_STR_EQ(lat_status_name(unknown[i]), "LAT_UNKNOWN_STATUS");
        const char *s = lat_status_string(unknown[i]);
        ASSERT_NOT_NULL(s);
        ASSERT_GT(strlen(s), 0);
    }
}

TEST(last_error_is_empty_on_a_thread_that_never_failed)
{
    /* No case in this file makes a lattice call fail, so the message is still empty. */
    ASSERT_STR_EQ(lat_last_error(), "");
}

TEST(backend_names)
{
    ASSERT_STR_EQ(lat_backend_name(LAT_BACKEND_AUTO), "auto");
    ASSERT_STR_EQ(lat_backend_name(LAT_BACKEND_CUDA), "cuda");
    ASSERT_STR_EQ(lat_backend_name(LAT_BACKEND_EMU), "emu");
    ASSERT_STR_EQ(lat_backend_name((lat_backend_kind)42), "unknown");
}

TEST(the_stderr_log_level_follows_LATTICE_LOG)
{
    static const struct {
        const char *value;
        int level;
    } cases[] = {{"none", 0}, {"error", LAT_LOG_ERROR}, {"warning", LAT_LOG_WARNING}, {"info", LAT_LOG_INFO}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        t_setenv("LATTICE_LOG", cases[i].value);
        ASSERT_EQ(lat_log_stderr_level(), cases[i].level);
    }
    t_unsetenv("LATTICE_LOG");
    ASSERT_EQ(lat_log_stderr_level(), LAT_LOG_WARNING);
}

