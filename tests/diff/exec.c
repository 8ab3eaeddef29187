/* The executors of generated kernels (exec.h). */
#include "exec.h"

#include <stdlib.h>
#include <string.h>

static const char *const kind_names[DX_N] = {"region", "fibers", "check", "checkfib", "cuda", "opt"};

const char *dx_kind_name(dx_kind k) { return k < DX_N ? kind_names[k] : "?"; }

void dx_result_free(dx_result *r)
{
    free(r->message);
    free(r->out);
    memset(r, 0, sizeof *r);
}

static lat_status make_context(lat_backend_kind b, unsigned check, lat_context **out)
{
    return lat_context_create(&(lat_context_desc){.backend = b, .check = check}, out);
}

int dx_open(dx_runner *r, unsigned kinds, char *why, size_t why_size)
{
    memset(r, 0, sizeof *r);
    if (kinds & (1u << DX_REGION | 1u << DX_FIBERS | 1u << DX_OPT)) {
        if (make_context(LAT_BACKEND_EMU, LAT_CHECK_OFF, &r->emu) != LAT_OK)
            goto fail;
    }
    if (kinds & (1u << DX_CHECK | 1u << DX_CHECK_FIBERS)) {
        if (make_context(LAT_BACKEND_EMU, LAT_CHECK_ALL, &r->checked) != LAT_OK)
            goto fail;
        /* A generated kernel finishes in milliseconds: one that does not is a bug to
         * report soon, not after the default 20 s. */
        lat_check_options o;
        lat_check_get_options(r->checked, &o);
        o.timeout_s = 10;
        lat_check_configure(r->checked, &o);
    }
    if (kinds & (1u << DX_CUDA)) {
        if (make_context(LAT_BACKEND_CUDA, 0, &r->cuda) != LAT_OK)
            goto fail;
    }
    return 0;
fail:
    snprintf(why, why_size, "%s", lat_last_error());
    dx_close(r);
    return -1;
}

void dx_close(dx_runner *r)
{
    lat_context_destroy(r->emu);
    lat_context_destroy(r->checked);
    lat_context_destroy(r->cuda);
    memset(r, 0, sizeof *r);
}

static void fail(dx_result *out, dx_outcome o, lat_status st, const char *msg)
{
    out->outcome = o;
    out->status = st;
    free(out->message);
    out->message = strdup(msg && *msg ? msg : lat_status_string(st));
}

/* The checks' reports, one per line (the first few). */
static char *reports(lat_context *ctx)
{
    size_t n = lat_check_report_count(ctx), len = 0;
    char *s = calloc(1, 1);
    for (size_t i = 0; s && i < n && i < 4; i++) {
        const lat_check_report *rep = lat_check_report_get(ctx, i);
        const char *m = rep && rep->message ? rep->message : "?";
        char *g = realloc(s, len + strlen(m) + 2);
        if (!g)
            break;
        s = g;
        len += (size_t)sprintf(s + len, "%s%s", i ? "\n" : "", m);
    }
    return s;
}

void dx_run(dx_runner *r, dx_kind k, const char *source, const dg_run_info *info,
            dx_result *out)
{
    memset(out, 0, sizeof *out);
    lat_context *ctx = k == DX_CUDA ? r->cuda
                       : k == DX_CHECK || k == DX_CHECK_FIBERS ? r->checked
                                                               : r->emu;
    if (!ctx) {
        fail(out, DX_LAUNCH_FAILED, LAT_ERROR_BACKEND_UNAVAILABLE, "executor not opened");
        return;
    }
    bool fibers = k == DX_FIBERS || k == DX_CHECK_FIBERS;
    /* A trailer of its own, so that no compile cache can hand the fibers executor the
     * module another one made from the same text (the cache once ignored the variable). */
    char *text = NULL;
    if (fibers || k == DX_OPT) {
        const char *trailer = fibers ? "/* lattice-diff: on fibers */\n" : "/* lattice-diff: optimised */\n";
        text = malloc(strlen(source) + strlen(trailer) + 1);
        if (!text) {
            fail(out, DX_COMPILE_FAILED, LAT_ERROR_OUT_OF_MEMORY, NULL);
            return;
        }
        strcpy(text, source);
        strcat(text, trailer);
    }
    if (fibers) {
        setenv("LATTICE_EMU_FIBERS", "1", 1);
        (void)lat_device_count(LAT_BACKEND_EMU, &(int){0}); /* the library reads it again */
    }
    lat_module *mod = NULL;
    lat_status st = lat_module_create(ctx,
                                      &(lat_module_desc){.source = text ? text : source,
                                                         .name = "diff.cu",
                                                         .emu_opt = k == DX_OPT ? LAT_EMU_OPT_SYNC : 0},
                                      &mod);
    if (st == LAT_OK && k == DX_OPT && lat_module_get_tier(mod) != LAT_MODULE_TIER_OPTIMISED) {
        lat_module_destroy(mod);
        fail(out, DX_COMPILE_FAILED, LAT_ERROR_UNSUPPORTED, "no optimised code (no C compiler?)");
        free(text);
        return;
    }
    free(text);
    if (fibers) {
        unsetenv("LATTICE_EMU_FIBERS");
        (void)lat_device_count(LAT_BACKEND_EMU, &(int){0});
    }
    if (st != LAT_OK) {
        fail(out, DX_COMPILE_FAILED, st, lat_last_error());
        return;
    }
    lat_kernel *kern;
    st = lat_module_get_kernel(mod, "k", &kern);
    if (st != LAT_OK) {
        fail(out, DX_COMPILE_FAILED, st, lat_last_error());
        lat_module_destroy(mod);
        return;
    }
    out->n = info->out_words;
    out->out = calloc(out->n ? out->n : 1, sizeof *out->out);
    if (!out->out) {
        fail(out, DX_LAUNCH_FAILED, LAT_ERROR_OUT_OF_MEMORY, NULL);
        lat_module_destroy(mod);
        return;
    }
    lat_launch_desc d = {.grid = {info->grid[0], info->grid[1], info->grid[2]},
                         .block = {info->block[0], info->block[1], info->block[2]}};
    st = lat_launch_args(kern, &d,
                         LAT_ARGS(lat_arg_inout(out->out, out->n * sizeof *out->out),
                                  lat_arg_in(info->in, info->in_words * sizeof *info->in),
                                  lat_arg_u32(info->params[0]), lat_arg_u32(info->params[1])));
    if (st == LAT_OK && k == DX_CUDA)
        st = lat_context_synchronize(ctx);
    bool checked = k == DX_CHECK || k == DX_CHECK_FIBERS;
    if (checked && lat_check_report_count(ctx) > 0) {
        char *m = reports(ctx);
        fail(out, DX_FINDINGS, st, m);
        free(m);
        lat_check_clear(ctx);
    } else if (st != LAT_OK) {
        fail(out, DX_LAUNCH_FAILED, st, lat_last_error());
        free(out->out);
        out->out = NULL;
    }
    lat_module_destroy(mod);
    if (k == DX_CUDA && (st == LAT_ERROR_LAUNCH_FAILED || st == LAT_ERROR_CONTEXT_LOST)) {
        /* A fault leaves a GPU context unusable: start a fresh one for the next kernel. */
        lat_context_destroy(r->cuda);
        r->cuda = NULL;
        make_context(LAT_BACKEND_CUDA, 0, &r->cuda);
    }
}

dx_diff dx_compare(const dx_result *a, const dx_result *b)
{
    dx_diff d = {0};
    if (a->outcome != b->outcome) {
        d.differ = true;
        return d;
    }
    if (!a->out || !b->out)
        return d; /* both failed alike: a failure, but not a disagreement */
    if (a->n != b->n) {
        d.differ = true;
        return d;
    }
    for (size_t i = 0; i < a->n; i++)
        if (a->out[i] != b->out[i]) {
            if (!d.differ) {
                d.differ = true;
                d.index = i;
                d.want = a->out[i];
                d.got = b->out[i];
            }
            d.count++;
        }
    return d;
}

void dx_locate(const dg_run_info *info, size_t i, char *buf, size_t size)
{
    size_t k = info->slots ? info->slots : 1, gt = i / k, slot = i % k;
    size_t b = gt / info->threads, t = gt % info->threads;
    unsigned bx = info->block[0], by = info->block[1];
    unsigned gx = info->grid[0], gy = info->grid[1];
    snprintf(buf, size, "block (%zu,%zu,%zu) thread (%zu,%zu,%zu) r[%zu]", b % gx, b / gx % gy,
             b / gx / gy, t % bx, t / bx % by, t / bx / by, slot);
}

void dx_describe(FILE *f, dx_kind k, const dx_result *r)
{
    static const char *const what[] = {"ok", "compile failed", "launch failed",
                                       "checks reported"};
    fprintf(f, "  %-8s %s", dx_kind_name(k), what[r->outcome]);
    if (r->outcome != DX_OK)
        fprintf(f, " (%s): %s", lat_status_name(r->status), r->message ? r->message : "");
    fprintf(f, "\n");
}
