/* The optimising tier's compiler processes: see opt_proc.h. */
#define _GNU_SOURCE /* posix_spawn_file_actions_addclosefrom_np */
#include "opt_proc.h"

#include "core/alloc.h"
#include "emu/backend/env.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct lat__cc_job {
    char dir[4096];
    pid_t pid; /* the compiler while it runs, else 0; guarded by lock */
    bool kept; /* its slot given back (lat__cc_job_keep) */
    struct lat__cc_job *prev, *next;
};

/* Every job begun and not ended, and the slots taken; guarded by lock. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t slot_freed = PTHREAD_COND_INITIALIZER;
static lat__cc_job *jobs;
static int running;
static bool exiting; /* lat__cc_at_exit ran: no new job */

/* Compilers at once: LATTICE_EMU_CC_JOBS (1 to 64, checked when read), else one per
 * processor online. Each is a compiler at -O2 on a whole module: more than the cores
 * only makes each slower, and a program making 64 modules would start 64 at once. */
static int slots(void)
{
    const char *v = lat__emu_env(LAT_EMU_ENV_CC_JOBS);
    long n = v ? strtol(v, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Removes a job's directory and whatever is in it: our files and the compiler's
 * temporaries (it makes no directories; a killed one leaves its files). */
static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        char path[4400];
        for (struct dirent *e; (e = readdir(d));) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
        closedir(d);
    }
    rmdir(dir);
}

lat__cc_job *lat__cc_job_begin(const char *tmp, const atomic_bool *cancel, char **msg)
{
    *msg = NULL;
    lat__cc_job *j = lat__calloc(1, sizeof *j);
    if (!j)
        return NULL;
    pthread_mutex_lock(&lock);
    int limit = slots();
    while ((running >= limit || exiting) && !atomic_load(cancel)) {
        /* Timed: a build told to stop is also woken (lat__cc_wake), but a wait that
         * missed it still ends soon. */
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 50 * 1000 * 1000;
        if (until.tv_nsec >= 1000 * 1000 * 1000) {
            until.tv_sec++;
            until.tv_nsec -= 1000 * 1000 * 1000;
        }
        pthread_cond_timedwait(&slot_freed, &lock, &until);
    }
    if (atomic_load(cancel)) {
        pthread_mutex_unlock(&lock);
        free(j);
        return NULL;
    }
    running++;
    const char *base = tmp && *tmp == '/' ? tmp : "/tmp";
    snprintf(j->dir, sizeof j->dir, "%s/lattice-opt-XXXXXX", base);
    /* Made and listed under the lock, so that the exit handler sees every directory. */
    if (!mkdtemp(j->dir)) {
        running--;
        pthread_cond_signal(&slot_freed);
        pthread_mutex_unlock(&lock);
        if (asprintf(msg, "cannot make a private directory in %s: %s", base, strerror(errno)) < 0)
            *msg = NULL;
        free(j);
        return NULL;
    }
    j->next = jobs;
    if (jobs)
        jobs->prev = j;
    jobs = j;
    pthread_mutex_unlock(&lock);
    return j;
}

const char *lat__cc_job_dir(const lat__cc_job *j)
{
    return j->dir;
}

void lat__cc_job_keep(lat__cc_job *j)
{
    pthread_mutex_lock(&lock);
    if (!j->kept) {
        j->kept = true;
        running--;
        pthread_cond_signal(&slot_freed);
    }
    pthread_mutex_unlock(&lock);
}

void lat__cc_job_end(lat__cc_job *j)
{
    if (!j)
        return;
    remove_dir(j->dir);
    pthread_mutex_lock(&lock);
    if (j->prev)
        j->prev->next = j->next;
    else
        jobs = j->next;
    if (j->next)
        j->next->prev = j->prev;
    if (!j->kept)
        running--;
    pthread_cond_signal(&slot_freed);
    pthread_mutex_unlock(&lock);
    free(j);
}

void lat__cc_wake(void)
{
    pthread_mutex_lock(&lock);
    pthread_cond_broadcast(&slot_freed);
    pthread_mutex_unlock(&lock);
}

/* Waits (a while) for the last member of a killed process group to go, so that nothing
 * writes into the directory as it is removed. */
static void wait_group(pid_t pid)
{
    for (int i = 0; i < 2000 && kill(-pid, 0) == 0; i++)
        nanosleep(&(struct timespec){0, 1000 * 1000}, NULL);
}

void lat__cc_kill_all(void)
{
    pthread_mutex_lock(&lock);
    for (lat__cc_job *j = jobs; j; j = j->next)
        if (j->pid > 0)
            kill(-j->pid, SIGKILL);
    pthread_mutex_unlock(&lock);
}

void lat__cc_at_exit(void)
{
    pthread_mutex_lock(&lock);
    exiting = true;
    for (lat__cc_job *j = jobs; j; j = j->next) {
        if (j->pid > 0) {
            kill(-j->pid, SIGKILL);
            waitpid(j->pid, NULL, 0);
            wait_group(j->pid);
            j->pid = 0;
        }
        remove_dir(j->dir);
    }
    pthread_cond_broadcast(&slot_freed);
    pthread_mutex_unlock(&lock);
}

/* The first bytes of the compiler's messages, NUL-terminated (malloc'd), or NULL. */
static char *read_log(const char *path)
{
    enum { MAX = 4000 };
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    char *buf = malloc(MAX + 16);
    size_t got = 0;
    while (buf && got < MAX) {
        ssize_t r = read(fd, buf + got, MAX - got);
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    if (buf) {
        buf[got] = '\0';
        if (got == MAX)
            strcpy(buf + MAX - 20, "\n[...]");
    }
    close(fd);
    return buf;
}

int lat__cc_job_run(lat__cc_job *j, char *const argv[], char *const env[], double limit_s,
                    const char *limit_name, const atomic_bool *cancel, char **msg)
{
    *msg = NULL;
    char logpath[4200];
    snprintf(logpath, sizeof logpath, "%s/log", j->dir);
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&fa);
    posix_spawnattr_init(&attr);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, logpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    /* The program's descriptors (a socket, a pipe, a lock file opened without
     * O_CLOEXEC) are not the compiler's to hold open or write. */
    posix_spawn_file_actions_addclosefrom_np(&fa, 3);
#endif
    /* A group of its own, so that the time limit kills cc1 and as with the driver; the
     * signals the program blocks or ignores are not the compiler's business. */
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                        POSIX_SPAWN_SETSIGDEF);
    pid_t pid = 0;
    pthread_mutex_lock(&lock);
    int err = atomic_load(cancel) || exiting ? ECANCELED
                                             : posix_spawn(&pid, argv[0], &fa, &attr, argv, env);
    if (err == 0)
        j->pid = pid;
    pthread_mutex_unlock(&lock);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    if (err == ECANCELED)
        return -1;
    if (err != 0) {
        if (asprintf(msg, "cannot run %s: %s", argv[0], strerror(err)) < 0)
            *msg = NULL;
        return -1;
    }
    double t0 = now_s();
    int status = 0;
    bool killed = false, timed_out = false;
    for (;;) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR)) {
            if (r < 0)
                status = 0; /* ECHILD: SIGCHLD ignored, the status is lost; k.so decides */
            break;
        }
        if (!killed && (atomic_load(cancel) || now_s() - t0 > limit_s)) {
            timed_out = !atomic_load(cancel);
            kill(-pid, SIGKILL); /* reaped above next time round, then its group waited for */
            killed = true;
        }
        nanosleep(&(struct timespec){0, 500 * 1000}, NULL);
    }
    if (killed)
        wait_group(pid);
    pthread_mutex_lock(&lock);
    j->pid = 0;
    pthread_mutex_unlock(&lock);
    if (killed) {
        if (timed_out && asprintf(msg, "%s ran past its time limit of %g s (%s) and was stopped",
                                  argv[0], limit_s, limit_name) < 0)
            *msg = NULL;
        return -1;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        char *log = read_log(logpath);
        if (asprintf(msg, "%s failed (%s %d):\n%s", argv[0],
                     WIFEXITED(status) ? "exit status" : "signal",
                     WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
                     log && *log ? log : "(no message)") < 0)
            *msg = NULL;
        free(log);
        return -1;
    }
    return 0;
}
