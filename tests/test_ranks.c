/*
 * One device per process (lattice/ranks.h): the local rank from each launcher's
 * variables, malformed values named, the device as rank modulo the device count, and the
 * emulator's rule for dividing a host's cores between its ranks.
 */
#define _GNU_SOURCE /* sched_getaffinity */
#include "harness.h"

#include <omp.h>
#include <sched.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static const char *const launcher_vars[] = {
    "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALRANKID", "MPI_LOCALNRANKS",
    "MV2_COMM_WORLD_LOCAL_RANK",  "MV2_COMM_WORLD_LOCAL_SIZE",  "SLURM_LOCALID",   "SLURM_NTASKS_PER_NODE",
};

/* The test may itself run under a launcher: start each case from none. */
static void clear_launcher(void)
{
    for (size_t i = 0; i < sizeof launcher_vars / sizeof launcher_vars[0]; i++)
        unsetenv(launcher_vars[i]);
}

TEST(no_launcher_is_rank_0_of_an_unknown_count)
{
    clear_launcher();
    lat_local_rank lr = {7, 7, "x"};
    ASSERT_OK(lat_local_rank_get(&lr));
    ASSERT_TRUE(lr.rank == 0 && lr.size == 0 && lr.source == NULL);
}

TEST(each_launchers_variables_give_the_rank_and_size)
{
    static const struct {
        const char *rank, *size;
    } pairs[] = {
        {"OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE"},
        {"MPI_LOCALRANKID", "MPI_LOCALNRANKS"},
        {"MV2_COMM_WORLD_LOCAL_RANK", "MV2_COMM_WORLD_LOCAL_SIZE"},
        {"SLURM_LOCALID", "SLURM_NTASKS_PER_NODE"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        clear_launcher();
        char r[8], s[8];
        snprintf(r, sizeof r, "%zu", i + 1);
        snprintf(s, sizeof s, "%zu", i + 5);
        setenv(pairs[i].rank, r, 1);
        setenv(pairs[i].size, s, 1);
        lat_local_rank lr;
        ASSERT_OK(lat_local_rank_get(&lr));
        ASSERT_MSG(lr.rank == (int)i + 1 && lr.size == (int)i + 5, "%s: rank %d size %d", pairs[i].rank,
                   lr.rank, lr.size);
        ASSERT_STR_EQ(lr.source, pairs[i].rank);
    }
    clear_launcher();
}

TEST(open_mpi_wins_over_slurm_when_both_are_set)
{
    /* mpirun inside a Slurm allocation: the process's own launcher is the inner one. */
    clear_launcher();
    setenv("SLURM_LOCALID", "0", 1);
    setenv("OMPI_COMM_WORLD_LOCAL_RANK", "3", 1);
    lat_local_rank lr;
    ASSERT_OK(lat_local_rank_get(&lr));
    ASSERT_TRUE(lr.rank == 3 && lr.size == 0);
    clear_launcher();
}

TEST(a_malformed_rank_or_size_is_named)
{
    clear_launcher();
    lat_local_rank lr;
    setenv("OMPI_COMM_WORLD_LOCAL_RANK", "one", 1);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_local_rank_get(&lr));
    ASSERT_TRUE(strstr(lat_last_error(), "OMPI_COMM_WORLD_LOCAL_RANK") && strstr(lat_last_error(), "one"));
    setenv("OMPI_COMM_WORLD_LOCAL_RANK", "-1", 1);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_local_rank_get(&lr));
    setenv("OMPI_COMM_WORLD_LOCAL_RANK", "2", 1);
    setenv("OMPI_COMM_WORLD_LOCAL_SIZE", "2", 1);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_local_rank_get(&lr));
    ASSERT_TRUE(strstr(lat_last_error(), "OMPI_COMM_WORLD_LOCAL_SIZE") != NULL);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_local_rank_get(NULL));
    int device;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_device_for_local_rank(LAT_BACKEND_EMU, &device));
    clear_launcher();
}

TEST(slurms_uneven_task_counts_mean_an_unknown_size)
{
    clear_launcher();
    setenv("SLURM_LOCALID", "1", 1);
    setenv("SLURM_NTASKS_PER_NODE", "2(x3)", 1);
    lat_local_rank lr;
    ASSERT_OK(lat_local_rank_get(&lr));
    ASSERT_TRUE(lr.rank == 1 && lr.size == 0);
    clear_launcher();
}

TEST(the_device_is_the_local_rank_modulo_the_device_count)
{
    lat_context *ctx = t_context();
    if (!t_is_emu(ctx))
        SKIP("the emulator's device count is set by LATTICE_EMU_DEVICES");
    clear_launcher();
    int count = 0;
    ASSERT_OK(lat_device_count(LAT_BACKEND_EMU, &count));
    for (int rank = 0; rank < 7; rank++) {
        char r[8];
        snprintf(r, sizeof r, "%d", rank);
        setenv("MPI_LOCALRANKID", r, 1);
        int device = -1;
        ASSERT_OK(lat_device_for_local_rank(LAT_BACKEND_EMU, &device));
        ASSERT_MSG(device == rank % count, "rank %d of %d devices: device %d", rank, count, device);
    }
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_device_for_local_rank(LAT_BACKEND_EMU, NULL));
    clear_launcher();
}

/* ---- the emulator's threads: decided once per process, so each case asks a child ---- */

/* Runs this binary's case `child_reports_its_thread_count` with extra variables; returns
 * the thread count the child's emulator reports. */
static int child_threads(const char *const *vars)
{
    char *argv[] = {(char *)"/proc/self/exe", (char *)"child_reports_its_thread_count", NULL};
    char *env[32];
    size_t n = 0;
    env[n++] = (char *)"LAT_TEST_RANKS_CHILD=1";
    env[n++] = (char *)"LATTICE_BACKEND=emu";
    for (size_t i = 0; vars[i]; i++)
        env[n++] = (char *)vars[i];
    env[n] = NULL;
    int fds[2];
    ASSERT_TRUE(pipe(fds) == 0);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    pid_t pid;
    ASSERT_TRUE(posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, env) == 0);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    char buf[4096] = {0};
    size_t got = 0;
    ssize_t r;
    while (got < sizeof buf - 1 && (r = read(fds[0], buf + got, sizeof buf - 1 - got)) > 0)
        got += (size_t)r;
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child failed: %s", buf);
    const char *at = strstr(buf, "threads=");
    ASSERT_MSG(at != NULL, "child printed no thread count: %s", buf);
    return atoi(at + 8);
}

TEST(child_reports_its_thread_count)
{
    if (!getenv("LAT_TEST_RANKS_CHILD"))
        SKIP("run by the thread-count cases in a process of its own");
    lat_device_info info;
    ASSERT_OK(lat_device_get_info(LAT_BACKEND_EMU, 0, &info));
    printf("threads=%d\n", info.multiprocessor_count);
}

static int bound_to_fewer_cores(void)
{
    cpu_set_t set;
    return sched_getaffinity(0, sizeof set, &set) != 0 || CPU_COUNT(&set) < sysconf(_SC_NPROCESSORS_ONLN);
}

TEST(ranks_of_one_host_divide_its_cores_between_them)
{
    if (bound_to_fewer_cores())
        SKIP("this process is bound to some of the cores: the division does not apply");
    int cores = omp_get_num_procs();
    int want2 = cores / 2 < 1 ? 1 : cores / 2;
    ASSERT_TRUE(child_threads((const char *const[]){NULL}) == cores);
    ASSERT_TRUE(child_threads((const char *const[]){"OMPI_COMM_WORLD_LOCAL_RANK=1",
                                                    "OMPI_COMM_WORLD_LOCAL_SIZE=2", NULL}) == want2);
    /* More ranks than cores: one thread each, never zero. */
    ASSERT_TRUE(child_threads((const char *const[]){"MPI_LOCALRANKID=0", "MPI_LOCALNRANKS=4096", NULL}) == 1);
}

TEST(lattice_emu_threads_and_omp_num_threads_override_the_division)
{
    ASSERT_TRUE(child_threads((const char *const[]){"LATTICE_EMU_THREADS=3", "OMPI_COMM_WORLD_LOCAL_RANK=0",
                                                    "OMPI_COMM_WORLD_LOCAL_SIZE=2", NULL}) == 3);
    ASSERT_TRUE(child_threads((const char *const[]){"OMP_NUM_THREADS=5", "OMPI_COMM_WORLD_LOCAL_RANK=0",
                                                    "OMPI_COMM_WORLD_LOCAL_SIZE=2", NULL}) == 5);
}

TEST(a_malformed_thread_count_fails_context_creation)
{
    lat_context *ctx = t_context();
    if (!t_is_emu(ctx))
        SKIP("an emulator setting");
    setenv("LATTICE_EMU_THREADS", "many", 1);
    lat_context *c2 = NULL;
    lat_status st = lat_context_create(&(lat_context_desc){.backend = LAT_BACKEND_EMU}, &c2);
    unsetenv("LATTICE_EMU_THREADS");
    lat_context_destroy(c2);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, st);
    ASSERT_TRUE(strstr(lat_last_error(), "LATTICE_EMU_THREADS") != NULL);
}
