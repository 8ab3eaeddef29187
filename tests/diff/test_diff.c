/*
 * Differential tests of the emulator with generated kernels (tests/diff/README.md): each
 * kernel, random but defined on a GPU by construction, runs on several executors whose
 * outputs must agree word for word.
 *
 *   - region loops (the emulator's default) against fibers (LATTICE_EMU_FIBERS=1);
 *   - checked runs (LAT_CHECK_ALL, as the emulator chooses and on fibers) against fibers,
 *     with no report on these race-free kernels;
 *   - in suite 'cuda', the emulator against the GPU.
 *
 * CI runs every feature class (DG_F_CI in gen.h). The bugs the classes found, A to J, each
 * have a reproducer in repro/ that the test 'diff_repro' runs (tests/diff/README.md).
 *
 * On demand, thousands: LATTICE_DIFF_COUNT=5000 (kernels per case; LATTICE_DIFF_SEED
 * moves the first seed, LATTICE_DIFF_FEATURES picks the classes, as lattice-diff
 * --features does) when running this binary, or the tool itself:
 *     build/tests/diff/lattice-diff --count 5000 --features all --shrink
 */
#include "diff.h"
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Kernels per case, unless LATTICE_DIFF_COUNT says. */
static long count_or(long n)
{
    const char *v = getenv("LATTICE_DIFF_COUNT");
    return v && *v ? strtol(v, NULL, 0) : n;
}

static uint64_t first_seed(uint64_t base)
{
    const char *v = getenv("LATTICE_DIFF_SEED");
    return v && *v ? strtoull(v, NULL, 0) + base : base;
}

static unsigned features(void)
{
    const char *v = getenv("LATTICE_DIFF_FEATURES");
    unsigned m = DG_F_CI;
    char why[128];
    if (v && *v && dg_parse_features(v, &m, why, sizeof why) != 0)
        FAIL("LATTICE_DIFF_FEATURES: %s", why);
    return m;
}

/* The emulator's executors need no GPU: they run in suite 'emu' (or by hand), not again
 * in the others. */
static void emulator_suite_only(void)
{
    lat_backend_kind b = t_backend();
    if (b != LAT_BACKEND_EMU && b != LAT_BACKEND_AUTO)
        SKIP("the emulator's executors are compared in suite 'emu' (this is %s)",
             lat_backend_name(b));
    /* A generated kernel finishes in milliseconds; one that hangs should fail soon. */
    setenv("LATTICE_EMU_TIMEOUT", "10", 0);
    t_unsetenv("LATTICE_EMU_FIBERS");
}

/* Runs `n` kernels from `seed` on `kinds` against `ref`; fails listing the seeds that
 * disagreed (each printed in full, with its first difference, shrunk). */
static void agree(unsigned kinds, dx_kind ref, uint64_t seed, long n)
{
    dx_runner r;
    char why[512];
    if (dx_open(&r, kinds | 1u << ref, why, sizeof why) != 0)
        FAIL("cannot open the executors: %s", why);
    dd_options o = {.features = features(), .kinds = kinds | 1u << ref, .reference = ref,
                    .print_failing = true, .shrink = true, .log = stdout,
                    .shrink_budget = 1500};
    long failed = 0;
    char seeds[256] = "";
    for (long i = 0; i < n; i++) {
        dd_verdict v = dd_run_seed(&r, &o, seed + (uint64_t)i);
        if (v.failed) {
            failed++;
            size_t at = strlen(seeds);
            if (at < sizeof seeds - 24)
                snprintf(seeds + at, sizeof seeds - at, " %llu",
                         (unsigned long long)(seed + (uint64_t)i));
        }
    }
    dx_close(&r);
    printf("# %ld kernels from seed %llu, %ld disagreed\n", n, (unsigned long long)seed, failed);
    ASSERT_MSG(failed == 0, "%ld of %ld kernels disagreed, seeds%s (reports above; "
                            "lattice-diff --seed S --count 1 --shrink repeats one)",
               failed, n, seeds);
}

TEST(the_generator_is_deterministic)
{
    static const unsigned masks[] = {DG_F_ALL, DG_F_CI, DG_F_IF | DG_F_BARRIER};
    for (size_t m = 0; m < sizeof masks / sizeof *masks; m++) {
        for (uint64_t seed = 1; seed <= 20; seed++) {
            dg_program *a = dg_generate(seed, masks[m]), *b = dg_generate(seed, masks[m]);
            dg_program *c = dg_generate(seed + 1000, masks[m]);
            char *sa = dg_render(a, NULL), *sb = dg_render(b, NULL), *sc = dg_render(c, NULL);
            int same = strcmp(sa, sb) == 0, other = strcmp(sa, sc) != 0;
            free(sa), free(sb), free(sc);
            dg_free(a), dg_free(b), dg_free(c);
            ASSERT_MSG(same, "seed %llu gave two programs", (unsigned long long)seed);
            ASSERT_MSG(other, "seeds %llu and %llu gave the same program",
                       (unsigned long long)seed, (unsigned long long)seed + 1000);
        }
    }
}

TEST(every_generated_program_keeps_the_rules)
{
    /* The generator checks each program it makes and stops the process on a failure;
     * this runs it over many seeds and masks, and checks that copies and the shrinker's
     * edits are checked alike. */
    static const unsigned masks[] = {DG_F_ALL, DG_F_CI, DG_F_ALL & ~DG_F_MASKED,
                                     DG_F_IF | DG_F_LOOP | DG_F_SHARED | DG_F_BARRIER};
    char why[256];
    for (size_t m = 0; m < sizeof masks / sizeof *masks; m++)
        for (uint64_t seed = 1; seed <= 300; seed++) {
            dg_program *p = dg_generate(seed, masks[m]);
            dg_program *c = dg_copy(p);
            int ok = dg_verify(c, why, sizeof why) == 0;
            dg_free(p);
            dg_free(c);
            ASSERT_MSG(ok, "seed %llu: %s", (unsigned long long)seed, why);
        }
}

/* The shrinker against a made-up failure: "has a __syncthreads_or". What it returns must
 * still fail so, still keep the rules, and be much smaller. */
static bool has_or(const dg_program *p, void *user)
{
    (void)user;
    char *s = dg_render(p, NULL);
    bool r = strstr(s, "__syncthreads_or(") != NULL;
    free(s);
    return r;
}

TEST(shrinking_keeps_the_failure_and_little_else)
{
    for (uint64_t seed = 1; seed < 200; seed++) {
        dg_program *p = dg_generate(seed, DG_F_CI);
        if (!has_or(p, NULL) || dg_size(p) < 60) {
            dg_free(p);
            continue;
        }
        long tries = 0;
        dg_program *s = dd_shrink(p, has_or, NULL, 0, &tries);
        size_t before = dg_size(p), after = dg_size(s);
        char why[256] = "";
        int ok = dg_verify(s, why, sizeof why) == 0, still = has_or(s, NULL);
        dg_free(p);
        dg_free(s);
        ASSERT_MSG(ok, "the shrunk program breaks a rule: %s", why);
        ASSERT_TRUE(still);
        ASSERT_MSG(after * 10 <= before, "seed %llu shrunk from %zu to only %zu nodes in %ld tries",
                   (unsigned long long)seed, before, after, tries);
        return;
    }
    FAIL("no seed below 200 has a __syncthreads_or");
}

TEST(region_loops_agree_with_fibers)
{
    emulator_suite_only();
    agree(1u << DX_REGION, DX_FIBERS, first_seed(1), count_or(300));
}

/* Two tiers of one kernel must never disagree: TinyCC's code and the optimising tier's
 * (the sret class's helpers return 12-byte structs, which TinyCC stored over a local). */
TEST(the_optimising_tier_agrees_with_tinycc)
{
    emulator_suite_only();
    setenv("LATTICE_EMU_TIMEOUT", "10", 0);
    agree(1u << DX_OPT, DX_REGION, first_seed(300001), count_or(24));
}

TEST(checked_runs_agree_with_fibers_and_report_nothing)
{
    emulator_suite_only();
    agree(1u << DX_CHECK | 1u << DX_CHECK_FIBERS, DX_FIBERS, first_seed(100001), count_or(150));
}

TEST(the_emulator_agrees_with_the_gpu)
{
    if (t_backend() != LAT_BACKEND_CUDA)
        SKIP("compared with a GPU in suite 'cuda' (this is %s)", lat_backend_name(t_backend()));
    lat_backend_kind k;
    if (lat_backend_resolve(LAT_BACKEND_CUDA, &k) != LAT_OK)
        SKIP("no GPU: %s", lat_last_error());
    setenv("LATTICE_EMU_TIMEOUT", "10", 0);
    t_unsetenv("LATTICE_EMU_FIBERS");
    agree(1u << DX_REGION | 1u << DX_FIBERS, DX_CUDA, first_seed(200001), count_or(300));
}
