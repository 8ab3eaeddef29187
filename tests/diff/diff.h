/*
 * Differential runs: a generated program on several executors, each compared with a
 * reference executor word by word; failures reported with the seed, the source and the
 * first difference, and shrunk to a small program that still fails the same way.
 * Used by the lattice-diff tool and by the CI test (tests/diff/README.md).
 */
#ifndef LAT_DIFF_DIFF_H
#define LAT_DIFF_DIFF_H

#include "exec.h"
#include "gen.h"

#include <stdbool.h>
#include <stdio.h>

typedef struct dd_options {
    unsigned features;
    unsigned kinds;      /* executors (bit 1 << DX_*), the reference among them */
    dx_kind reference;
    bool shrink;         /* shrink failures before printing them */
    bool print_failing;  /* print each failure's report (else only count it) */
    FILE *log;           /* where reports go (stdout when NULL) */
    long shrink_budget;  /* most runs a shrink may make (0: 4000) */
} dd_options;

/* The outcome of one program. */
typedef struct dd_verdict {
    bool failed;       /* an executor disagreed with the reference, or none ran it */
    unsigned bad;      /* the executors that disagreed (bit 1 << DX_*) */
    bool ref_failed;   /* the reference itself did not run it */
} dd_verdict;

/* Generates the program of `seed`, runs it on every executor in o->kinds and compares
 * each with the reference; prints a report of a failure when o->print_failing. */
dd_verdict dd_run_seed(dx_runner *r, const dd_options *o, uint64_t seed);

/* The same for a program made elsewhere (a shrunk one, a test's). */
dd_verdict dd_run_program(dx_runner *r, const dd_options *o, const dg_program *p);

/* Shrinks a program while `still_fails` holds for it: tries each edit (gen.h) in turn,
 * keeping those after which the program still fails, until none helps or `budget` tries
 * were made. Returns a new program (the caller frees it). */
typedef bool (*dd_predicate)(const dg_program *p, void *user);
dg_program *dd_shrink(const dg_program *p, dd_predicate still_fails, void *user, long budget,
                      long *tries);

#endif
