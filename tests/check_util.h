/*
 * Helpers of the tests of the emulator's checks (lattice/check.h): checked contexts,
 * kernels run the way the `lattice` program runs them, reports read back.
 */
#ifndef LAT_TEST_CHECK_UTIL_H
#define LAT_TEST_CHECK_UTIL_H

#include "harness.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A context with the given checks, on the emulator: the checks exist nowhere else, so a
 * run on another backend skips the case, visibly. */
static inline lat_context *ck_context_tier(unsigned modes, lat_emu_opt tier)
{
    lat_backend_kind k = t_require_backend();
    if (k != LAT_BACKEND_EMU)
        SKIP("the checks run on the emulator only (this suite runs %s)", lat_backend_name(k));
    return t_context_with(
        &(lat_context_desc){.backend = LAT_BACKEND_EMU, .check = modes, .emu_opt = tier});
}

static inline lat_context *ck_context(unsigned modes)
{
    return ck_context_tier(modes, LAT_EMU_OPT_DEFAULT);
}

/* The message of report i of the context's last checked launch ("" when none). */
static inline const char *ck_msg(lat_context *ctx, size_t i)
{
    const lat_check_report *r = lat_check_report_get(ctx, i);
    return r ? r->message : "";
}

/* Fails the case, listing the reports, unless they are exactly `want` (n of them). */
#define ASSERT_REPORTS(ctx, ...)                                                       \
    do {                                                                               \
        const char *ck_want_[] = {__VA_ARGS__};                                        \
        ck_assert_reports(__FILE__, __LINE__, (ctx), ck_want_,                         \
                          sizeof ck_want_ / sizeof ck_want_[0]);                       \
    } while (0)
#define ASSERT_NO_REPORTS(ctx) ck_assert_reports(__FILE__, __LINE__, (ctx), NULL, 0)

static inline void ck_assert_reports(const char *file, int line, lat_context *ctx,
                                     const char *const *want, size_t n)
{
    size_t got = lat_check_report_count(ctx);
    int same = got == n;
    for (size_t i = 0; same && i < n; i++)
        same = strcmp(ck_msg(ctx, i), want[i]) == 0;
    if (same)
        return;
    char buf[8192];
    size_t at = (size_t)snprintf(buf, sizeof buf, "%zu reports, want %zu:", got, n);
    for (size_t i = 0; i < got && at < sizeof buf; i++)
        at += (size_t)snprintf(buf + at, sizeof buf - at, "\n  got  %s", ck_msg(ctx, i));
    for (size_t i = 0; i < n && at < sizeof buf; i++)
        at += (size_t)snprintf(buf + at, sizeof buf - at, "\n  want %s", want[i]);
    t_fail(file, line, "%s", buf);
}

/* Compiles source as `name`, with the NULL-terminated defines, and returns kernel k
 * (failing the case on error). */
static inline lat_kernel *ck_kernel_d(lat_context *ctx, const char *source, const char *name,
                                      const char *k, const char *const *defines)
{
    lat_module *mod;
    lat_status st = lat_module_create(
        ctx, &(lat_module_desc){.source = source, .name = name, .defines = defines}, &mod);
    if (st != LAT_OK)
        t_fail(__FILE__, __LINE__, "lat_module_create(%s): %s", name, lat_last_error());
    lat_kernel *kernel;
    if (lat_module_get_kernel(mod, k, &kernel) != LAT_OK)
        t_fail(__FILE__, __LINE__, "no kernel %s: %s", k, lat_last_error());
    return kernel;
}

static inline lat_kernel *ck_kernel(lat_context *ctx, const char *source, const char *name,
                                    const char *k)
{
    return ck_kernel_d(ctx, source, name, k, NULL);
}

/* Kernel `kernel` of the module desc describes, on the optimising tier (opt) or on
 * TinyCC's code; its module in *mod when asked. Skips the case, visibly, where no
 * optimising compiler is found: what the case compares is the optimised code's. */
static inline lat_kernel *ck_kernel_on_tier(lat_context *ctx, lat_module_desc desc, const char *kernel, bool opt,
                                            lat_module **mod)
{
    lat_module *m;
    desc.emu_opt = opt ? LAT_EMU_OPT_SYNC : LAT_EMU_OPT_OFF;
    if (lat_module_create(ctx, &desc, &m) != LAT_OK)
        t_fail(__FILE__, __LINE__, "lat_module_create: %s\n%s", lat_last_error(), desc.source);
    if (opt && lat_module_get_tier(m) != LAT_MODULE_TIER_OPTIMISED)
        SKIP("no optimising compiler here: the case compares the optimised code with TinyCC's");
    lat_kernel *k;
    if (lat_module_get_kernel(m, kernel, &k) != LAT_OK)
        t_fail(__FILE__, __LINE__, "no kernel %s: %s", kernel, lat_last_error());
    if (mod)
        *mod = m;
    return k;
}

/* A generated kernel's source, written piece by piece into a fixed buffer. */
typedef struct ck_src {
    char *text;
    size_t len, cap;
} ck_src;

static inline void ck_put(ck_src *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void ck_put(ck_src *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(s->text + s->len, s->cap - s->len, fmt, ap);
    va_end(ap);
    if (n < 0 || s->len + (size_t)n >= s->cap)
        t_fail(__FILE__, __LINE__, "generated kernel too long");
    s->len += (size_t)n;
}

/* A random choice among n. */
static inline int ck_pick(int n)
{
    return (int)(t_rand_u32() % (unsigned)n);
}

/* One lat_launch of kernel k with a 1-D shape and raw parameters. */
static inline lat_status ck_launch(lat_kernel *k, unsigned grid, unsigned block, void **params)
{
    return lat_launch(k, &(lat_launch_desc){.grid = {grid}, .block = {block}}, params);
}

/* Buffers made by ck_run_like_cli, by parameter name, shared by the launches of a case. */
typedef struct ck_buffers {
    char name[16][64];
    lat_deviceptr ptr[16];
    int n;
} ck_buffers;

/* Runs kernel k as `lattice run` does: each pointer parameter gets a buffer of n
 * elements named (labelled) after it, filled with 0, 1, 2, ... when it is const; each
 * integer scalar is n. Returns the launch's status. */
static inline lat_status ck_run_like_cli(lat_context *ctx, lat_kernel *k, ck_buffers *bufs,
                                         size_t n, lat_dim3 grid, lat_dim3 block)
{
    void *params[16];
    int values[16];
    for (int i = 0; i < lat_kernel_param_count(k); i++) {
        lat_check_param p;
        if (lat_check_kernel_param(k, i, &p) != LAT_OK)
            t_fail(__FILE__, __LINE__, "lat_check_kernel_param: %s", lat_last_error());
        if (!p.is_pointer) {
            values[i] = (int)n;
            params[i] = &values[i];
            continue;
        }
        int b = 0;
        while (b < bufs->n && strcmp(bufs->name[b], p.name) != 0)
            b++;
        if (b == bufs->n) {
            size_t elem = p.pointee_size ? p.pointee_size : 4;
            snprintf(bufs->name[b], sizeof bufs->name[b], "%s", p.name);
            bufs->ptr[b] = t_device_copy(ctx, NULL, elem * n);
            lat_check_label(ctx, bufs->ptr[b], p.name);
            if (strstr(p.type, "const")) {
                unsigned char *h = t_calloc(n, elem);
                for (size_t e = 0; e < n; e++) {
                    float f = (float)e;
                    int v = (int)e;
                    memcpy(h + e * elem, p.is_float ? (void *)&f : (void *)&v, elem < 4 ? elem : 4);
                }
                lat_memcpy_htod(ctx, bufs->ptr[b], h, elem * n);
            }
            bufs->n++;
        }
        params[i] = &bufs->ptr[b];
    }
    return lat_launch(k, &(lat_launch_desc){.grid = grid, .block = block}, params);
}

/* The text of a file (freed after the case), or a failure. */
static inline char *ck_read(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        t_fail(__FILE__, __LINE__, "cannot read %s", path);
    char *buf = t_calloc(1, 1 << 16);
    size_t got = fread(buf, 1, (1 << 16) - 1, f);
    buf[got] = '\0';
    fclose(f);
    return buf;
}

#endif
