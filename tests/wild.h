/*
 * For tests whose kernels fault on purpose (a wild or far out-of-bounds access), which
 * also run under valgrind (.ci/run): valgrind reports such an access itself, as an error,
 * before the fault reaches lattice. WILD(call) runs the call with valgrind's reports off
 * on the calling thread, and, under valgrind, on one OpenMP thread so that every block
 * runs on that thread. The guard's own code is still checked by the cases that divide by
 * zero or time out, which touch nothing wild.
 */
#ifndef LAT_TEST_WILD_H
#define LAT_TEST_WILD_H

#include "lattice.h"

#include <omp.h>

#if defined(LAT_HAVE_VALGRIND_H)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#define VALGRIND_DISABLE_ERROR_REPORTING
#define VALGRIND_ENABLE_ERROR_REPORTING
#endif

static inline void one_thread_under_valgrind(void)
{
    if (RUNNING_ON_VALGRIND)
        omp_set_num_threads(1);
}

static inline int quiet(void)
{
    one_thread_under_valgrind();
    VALGRIND_DISABLE_ERROR_REPORTING;
    return 0;
}

static inline lat_status loud(lat_status st)
{
    VALGRIND_ENABLE_ERROR_REPORTING;
    return st;
}

#define WILD(call) ((void)quiet(), loud(call))

#endif
