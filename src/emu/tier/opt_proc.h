/*
 * The optimising tier's compiler processes (opt_proc.c): how many run at once, how each is
 * started, watched, stopped, and cleaned up after, so that no compiler outlives the program
 * and no private directory is left behind, however many modules are built.
 *
 * A job is one compile: a slot among the compilers allowed to run at once
 * (LATTICE_EMU_CC_JOBS, default the processors online) and a private directory
 * (lattice-opt-XXXXXX in TMPDIR, mode 0700) that is also the compiler's TMPDIR.
 */
#ifndef LAT_EMU_OPT_PROC_H
#define LAT_EMU_OPT_PROC_H

#include <stdatomic.h>
#include <stdbool.h>

typedef struct lat__cc_job lat__cc_job;

/* Takes a slot, waiting while every one is taken, then makes the job's directory in
 * `tmp` (an absolute path; NULL or another value: /tmp). NULL when *cancel became true
 * while waiting (*msg NULL), or the directory cannot be made (*msg says why, malloc'd).
 * Any thread. */
lat__cc_job *lat__cc_job_begin(const char *tmp, const atomic_bool *cancel, char **msg);

/* The job's directory. */
const char *lat__cc_job_dir(const lat__cc_job *j);

/* Runs argv[0] with the arguments argv and the environment env (both NULL-terminated):
 * stdin /dev/null, stdout and stderr to <dir>/log, no other descriptor of the program's
 * (closed in the child), in a process group of its own with the default signal actions
 * and mask. Waits for it; kills its whole group when *cancel becomes true or after
 * limit_s seconds. 0 when it exited with status 0; else -1 with *msg (malloc'd: the
 * compiler's message, or its time limit, `limit_name` naming the variable that sets it;
 * NULL when cancelled). The job's thread only. */
int lat__cc_job_run(lat__cc_job *j, char *const argv[], char *const env[], double limit_s,
                    const char *limit_name, const atomic_bool *cancel, char **msg);

/* Gives the job's slot back early, keeping its directory (listed for the exit handler)
 * until lat__cc_job_end: for an object that must stay on disk while it is loaded (-G's,
 * for a debugger to read). The job's thread only, once. */
void lat__cc_job_keep(lat__cc_job *j);

/* Removes the job's directory and whatever is in it, gives its slot back (unless kept),
 * frees it. */
void lat__cc_job_end(lat__cc_job *j);

/* Wakes every thread waiting for a slot, to look at its cancel flag again. */
void lat__cc_wake(void);

/* At exit, after the builds were told to stop: kills the process group of every compiler
 * still running, reaps it, and removes every job's directory. The program's exit handler
 * only (opt.c): the jobs' threads are gone or never return to them. */
void lat__cc_at_exit(void);

/* Kills every compiler running now (their jobs then fail; their threads clean up). */
void lat__cc_kill_all(void);

#endif
