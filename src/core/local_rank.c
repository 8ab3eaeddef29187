/*
 * The process's rank among its host's ranks, from the launcher's environment
 * (lattice/ranks.h), and the device that rank takes.
 */
#include "lattice/ranks.h"

#include "error.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>

/* Each launcher's pair of variables, in the order they are tried. Slurm gives
 * SLURM_NTASKS_PER_NODE only when asked for it, and then possibly as "2(x3)" for uneven
 * nodes: an unreadable count there means "unknown", not an error, since the rank alone
 * picks the device. */
static const struct {
    const char *rank, *size;
    bool size_may_be_a_list;
} launchers[] = {
    {"OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE", false},
    {"MPI_LOCALRANKID", "MPI_LOCALNRANKS", false},
    {"MV2_COMM_WORLD_LOCAL_RANK", "MV2_COMM_WORLD_LOCAL_SIZE", false},
    {"SLURM_LOCALID", "SLURM_NTASKS_PER_NODE", true},
};

/* A non-negative int from variable `name`; -1 when unset, -2 (error recorded) when set
 * to anything else. */
static int read_count(const char *name)
{
    const char *v = getenv(name);
    if (!v)
        return -1;
    errno = 0;
    char *end = NULL;
    long n = strtol(v, &end, 10);
    if (end == v || *end != '\0' || errno != 0 || n < 0 || n > INT_MAX) {
        lat__error(NULL, LAT_ERROR_INVALID_VALUE,
                   "%s is \"%s\": a process's local rank or count of ranks is a non-negative integer",
                   name, v);
        return -2;
    }
    return (int)n;
}

lat_status lat_local_rank_get(lat_local_rank *out)
{
    LAT__API();
    if (!out)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "out is NULL");
    *out = (lat_local_rank){0, 0, NULL};
    for (size_t i = 0; i < sizeof launchers / sizeof launchers[0]; i++) {
        int rank = read_count(launchers[i].rank);
        if (rank == -1)
            continue;
        if (rank == -2)
            return LAT_ERROR_INVALID_VALUE;
        int size = 0;
        const char *v = getenv(launchers[i].size);
        if (v) {
            char *end = NULL;
            long n = strtol(v, &end, 10);
            bool plain = end != v && *end == '\0' && n > 0 && n <= INT_MAX;
            if (!plain && !launchers[i].size_may_be_a_list)
                return lat__error(NULL, LAT_ERROR_INVALID_VALUE,
                                  "%s is \"%s\": the number of ranks on a host is a positive integer",
                                  launchers[i].size, v);
            size = plain ? (int)n : 0;
        }
        if (size > 0 && rank >= size)
            return lat__error(NULL, LAT_ERROR_INVALID_VALUE,
                              "%s is %d but %s is %d: a local rank is below the host's count of ranks",
                              launchers[i].rank, rank, launchers[i].size, size);
        *out = (lat_local_rank){rank, size, launchers[i].rank};
        return LAT_OK;
    }
    return LAT_OK;
}

lat_status lat_device_for_local_rank(lat_backend_kind kind, int *device)
{
    LAT__API();
    if (!device)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "device is NULL");
    lat_local_rank lr;
    lat_status st = lat_local_rank_get(&lr);
    if (st != LAT_OK)
        return st;
    int count = 0;
    st = lat_device_count(kind, &count);
    if (st != LAT_OK)
        return st;
    *device = lr.rank % count;
    return LAT_OK;
}
