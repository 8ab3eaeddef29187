/* Differential runs, reports and shrinking (diff.h). */
#include "diff.h"

#include <stdlib.h>
#include <string.h>

typedef struct runs {
    dx_result res[DX_N];
    dx_diff diff[DX_N];
    dg_run_info info;
    char *source;
    unsigned ran; /* the executors that ran it */
} runs;

static void runs_free(runs *rs)
{
    for (int k = 0; k < DX_N; k++)
        dx_result_free(&rs->res[k]);
    free(rs->source);
}

/* Runs p on the executors in `kinds`; returns the verdict against the reference. */
static dd_verdict run_all(dx_runner *r, unsigned kinds, dx_kind ref, const dg_program *p, runs *rs)
{
    memset(rs, 0, sizeof *rs);
    dd_verdict v = {0};
    if ((unsigned)ref >= DX_N) {
        v.failed = v.ref_failed = true;
        return v;
    }
    rs->source = dg_render(p, &rs->info);
    dx_run(r, ref, rs->source, &rs->info, &rs->res[ref]);
    rs->ran = 1u << ref;
    if (rs->res[ref].outcome != DX_OK) {
        v.failed = v.ref_failed = true;
        v.bad |= 1u << ref;
    }
    /* synccheck reports threads that exited before a barrier others reach, by design:
     * the checked executors are no oracle for such a kernel. */
    if (dg_exits_before_barrier(p))
        kinds &= ~(1u << DX_CHECK | 1u << DX_CHECK_FIBERS);
    for (int k = 0; k < DX_N; k++) {
        if (!(kinds >> k & 1) || k == (int)ref)
            continue;
        dx_run(r, (dx_kind)k, rs->source, &rs->info, &rs->res[k]);
        rs->ran |= 1u << k;
        rs->diff[k] = dx_compare(&rs->res[ref], &rs->res[k]);
        if (rs->diff[k].differ || rs->res[k].outcome != DX_OK) {
            v.failed = true;
            v.bad |= 1u << k;
        }
    }
    return v;
}

/* What a failure looks like, so that a shrunk program fails the same way: the executor
 * that is wrong and the outcomes of it and the reference. */
typedef struct signature {
    dx_runner *r;
    dx_kind ref, bad;
    dx_outcome ref_outcome, bad_outcome;
} signature;

static bool same_failure(const dg_program *p, void *user)
{
    signature *s = user;
    runs rs;
    dd_verdict v = run_all(s->r, 1u << s->ref | 1u << s->bad, s->ref, p, &rs);
    bool same = v.failed && rs.res[s->ref].outcome == s->ref_outcome &&
                rs.res[s->bad].outcome == s->bad_outcome &&
                (s->bad == s->ref || rs.diff[s->bad].differ ||
                 s->bad_outcome != DX_OK || s->ref_outcome != DX_OK);
    /* Outputs that differ must still differ. */
    if (same && s->bad != s->ref && s->ref_outcome == DX_OK && s->bad_outcome == DX_OK)
        same = rs.diff[s->bad].differ;
    runs_free(&rs);
    return same;
}

static void print_runs(FILE *f, const runs *rs, dx_kind ref)
{
    fprintf(f, "%s", rs->source ? rs->source : "");
    for (int k = 0; k < DX_N; k++) {
        if (!(rs->ran >> k & 1))
            continue;
        dx_describe(f, (dx_kind)k, &rs->res[k]);
        const dx_diff *d = &rs->diff[k];
        if (k != (int)ref && d->differ && rs->res[k].out && rs->res[ref].out) {
            char where[128];
            dx_locate(&rs->info, d->index, where, sizeof where);
            fprintf(f, "           first difference at o[%zu], %s: %s gives %u (%#x), %s gives %u (%#x);"
                       " %zu of %zu words differ\n",
                    d->index, where, dx_kind_name(ref), d->want, d->want, dx_kind_name((dx_kind)k),
                    d->got, d->got, d->count, rs->res[k].n);
        } else if (k != (int)ref && d->differ) {
            fprintf(f, "           differs from %s in outcome\n", dx_kind_name(ref));
        }
    }
}

static void report(dx_runner *r, const dd_options *o, const dg_program *p, const runs *rs,
                   dd_verdict v)
{
    FILE *f = o->log ? o->log : stdout;
    char feats[512];
    dg_format_features(dg_features(p), feats, sizeof feats);
    fprintf(f, "=== seed %llu (features %s):", (unsigned long long)dg_seed(p), feats);
    char names[128] = "";
    for (int k = 0; k < DX_N; k++)
        if (v.bad >> k & 1)
            snprintf(names + strlen(names), sizeof names - strlen(names), " %s", dx_kind_name((dx_kind)k));
    fprintf(f, " disagreeing or failing:%s (reference %s)\n", names, dx_kind_name(o->reference));
    print_runs(f, rs, o->reference);
    if (!o->shrink)
        return;
    /* Shrink against the first executor that is wrong. */
    signature s = {r, o->reference, o->reference, rs->res[o->reference].outcome,
                   rs->res[o->reference].outcome};
    for (int k = 0; k < DX_N; k++)
        if (k != (int)o->reference && (v.bad >> k & 1)) {
            s.bad = (dx_kind)k;
            s.bad_outcome = rs->res[k].outcome;
            break;
        }
    long tries = 0;
    dg_program *small = dd_shrink(p, same_failure, &s, o->shrink_budget, &tries);
    runs srs;
    run_all(r, 1u << s.ref | 1u << s.bad, s.ref, small, &srs);
    fprintf(f, "--- shrunk from %zu to %zu nodes in %ld runs (%s against %s):\n", dg_size(p),
            dg_size(small), tries, dx_kind_name(s.bad), dx_kind_name(s.ref));
    print_runs(f, &srs, s.ref);
    runs_free(&srs);
    dg_free(small);
}

dd_verdict dd_run_program(dx_runner *r, const dd_options *o, const dg_program *p)
{
    runs rs;
    dd_verdict v = run_all(r, o->kinds, o->reference, p, &rs);
    if (v.failed && o->print_failing)
        report(r, o, p, &rs, v);
    runs_free(&rs);
    return v;
}

dd_verdict dd_run_seed(dx_runner *r, const dd_options *o, uint64_t seed)
{
    dg_program *p = dg_generate(seed, o->features);
    dd_verdict v = dd_run_program(r, o, p);
    dg_free(p);
    return v;
}

dg_program *dd_shrink(const dg_program *p, dd_predicate still_fails, void *user, long budget,
                      long *tries)
{
    dg_program *cur = dg_copy(p);
    long n = 0;
    if (budget <= 0)
        budget = 4000;
    bool progress = true;
    while (progress && n < budget) {
        progress = false;
        size_t count = dg_edit_count(cur);
        for (size_t i = 0; i < count && n < budget;) {
            dg_program *c = dg_edited(cur, i);
            if (!c) {
                i++;
                continue;
            }
            n++;
            if (still_fails(c, user)) {
                dg_free(cur);
                cur = c;
                progress = true;
                count = dg_edit_count(cur);
                /* The same number now names the next edit. */
            } else {
                dg_free(c);
                i++;
            }
        }
    }
    if (tries)
        *tries = n;
    return cur;
}
