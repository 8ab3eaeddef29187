/*
 * The emulator's thread count. Several processes on one host (MPI ranks, each with its own
 * emulated device) would each start a thread per core and oversubscribe the host n times
 * over; a launcher that binds ranks to cores already gives each its share (the affinity
 * mask, which OpenMP counts), so the division applies only to a process allowed every
 * core. The rule is documented in lattice/ranks.h and docs/mpi.md.
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "threads.h"

#include "env.h"
#include "lattice/ranks.h"

#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

bool lat__emu_threads_parse(const char *v, int *n)
{
    *n = 0;
    if (!v || !*v)
        return true;
    char *end = NULL;
    long x = strtol(v, &end, 10);
    if (*end != '\0' || x < 1 || x > 4096)
        return false;
    *n = (int)x;
    return true;
}

static int thread_count;
static pthread_once_t thread_count_once = PTHREAD_ONCE_INIT;

/* Whether this process has run an OpenMP team, and whether it is a child of fork() of one
 * that had: libgomp keeps the parent's thread pool in the child, without its threads, and
 * its next team waits for them for ever (Python's multiprocessing forks so). Such a child
 * runs every grid on its launching thread. */
static atomic_bool team_started, team_lost;

static void forked_child(void)
{
    if (atomic_load(&team_started))
        atomic_store(&team_lost, true);
}

void lat__emu_threads_team_begin(void)
{
    atomic_store_explicit(&team_started, true, memory_order_relaxed);
}

/* Whether this process may run on every online core (no binding by the launcher). */
static bool unbound(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return false;
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 && CPU_COUNT(&set) >= online;
}

/* The count fixed by LATTICE_EMU_THREADS or by dividing the host's cores between its
 * ranks; 0 when neither applies, and OpenMP's own count (omp_set_num_threads included)
 * is asked at each launch, as before there were ranks to share with. */
static void decide(void)
{
    pthread_atfork(NULL, NULL, forked_child);
    int n = 0;
    if (lat__emu_threads_parse(lat__emu_env(LAT_EMU_ENV_THREADS), &n) && n > 0) {
        thread_count = n;
        return;
    }
    thread_count = 0;
    const char *omp = getenv("OMP_NUM_THREADS");
    if (omp && *omp)
        return;
    lat_local_rank lr;
    /* A malformed launcher variable: the context's creation reports it; here, no division. */
    if (lat_local_rank_get(&lr) == LAT_OK && lr.size > 1 && unbound()) {
        int share = omp_get_num_procs() / lr.size;
        thread_count = share < 1 ? 1 : share;
    }
}

int lat__emu_thread_count(void)
{
    pthread_once(&thread_count_once, decide);
    if (atomic_load_explicit(&team_lost, memory_order_relaxed))
        return 1;
    return thread_count ? thread_count : omp_get_max_threads();
}
