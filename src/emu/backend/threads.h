/* How many host threads run an emulated launch (threads.c). */
#ifndef LAT_EMU_THREADS_H
#define LAT_EMU_THREADS_H

#include <stdbool.h>

/* Parses a LATTICE_EMU_THREADS value: 1 to 4096. NULL or empty: unset (true, *n = 0). */
bool lat__emu_threads_parse(const char *v, int *n);

/* The launch's thread count: LATTICE_EMU_THREADS; else, when OMP_NUM_THREADS is unset,
 * for one of several ranks on a host (lattice/ranks.h) whose process may run on every
 * core, the cores divided by the ranks (both decided once per process); else OpenMP's
 * count at this launch (OMP_NUM_THREADS, omp_set_num_threads, every core). */
int lat__emu_thread_count(void);

/* Notes that this process is about to run an OpenMP team (call before each team). A child
 * of fork() whose parent had run one gets 1 from lat__emu_thread_count: libgomp cannot
 * start a team there (the child would wait for ever for the parent's threads). */
void lat__emu_threads_team_begin(void);

#endif
