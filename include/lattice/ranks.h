/*
 * lattice/ranks.h — one device per process, for programs that run as several processes
 * per host (MPI ranks, Slurm tasks): which rank of its host this process is, and which
 * device it should take.
 *
 *     int device;
 *     lat_device_for_local_rank(LAT_BACKEND_AUTO, &device);
 *     lat_context_create(&(lat_context_desc){.device = device}, &ctx);
 *
 * The local rank comes from the launcher's environment, the first of these that is set:
 * OMPI_COMM_WORLD_LOCAL_RANK (Open MPI's mpirun), MPI_LOCALRANKID (MPICH's and Intel
 * MPI's Hydra), MV2_COMM_WORLD_LOCAL_RANK (MVAPICH2), SLURM_LOCALID (srun); the number of
 * ranks on the host from the matching OMPI_COMM_WORLD_LOCAL_SIZE, MPI_LOCALNRANKS,
 * MV2_COMM_WORLD_LOCAL_SIZE or SLURM_NTASKS_PER_NODE (when the launcher gives none, the
 * size is unknown: 0). No MPI library is needed: lattice reads only the environment, so
 * the helper also works before MPI_Init.
 *
 * On the emulator, the ranks of one host share its cores: unless LATTICE_EMU_THREADS or
 * OMP_NUM_THREADS says otherwise, a process that knows its local size and is bound to no
 * subset of the cores runs its launches on (cores / local size) threads, at least one
 * (docs/mpi.md). A launcher that binds each rank to its own cores (mpirun --bind-to,
 * srun --cpu-bind) needs no division: each rank uses the cores it is bound to.
 */
#ifndef LATTICE_RANKS_H
#define LATTICE_RANKS_H

#include "lattice.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lat_local_rank {
    int rank;           /* this process's rank among its host's ranks; 0 when not launched */
    int size;           /* ranks on this host; 0 when the launcher does not say */
    const char *source; /* the variable rank came from ("SLURM_LOCALID"...), NULL if none */
} lat_local_rank;

/* Reads the local rank from the environment (see above). Not launched by a known
 * launcher: rank 0, size 0, source NULL, and LAT_OK.
 * Errors: LAT_ERROR_INVALID_VALUE (out is NULL; a variable that is set but is not a
 * non-negative integer, or a rank not below the size: the message names the variable
 * and its value). Thread safety: any thread (it reads the environment; a program that
 * calls setenv() concurrently races as with getenv()). */
LAT_API lat_status lat_local_rank_get(lat_local_rank *out);

/* The device this process should use: its local rank modulo the backend's device count
 * (several ranks share a device when there are more ranks than devices; a GPU serves
 * contexts of several processes, each with its own memory). kind is resolved as
 * lat_context_create() resolves it (LAT_BACKEND_AUTO: LATTICE_BACKEND, else a GPU when one
 * works, else the emulator, whose LATTICE_EMU_DEVICES gives it several devices).
 * Errors: LAT_ERROR_INVALID_VALUE (device NULL; a malformed variable, as
 * lat_local_rank_get()); LAT_ERROR_BACKEND_UNAVAILABLE. Thread safety: any thread. */
LAT_API lat_status lat_device_for_local_rank(lat_backend_kind kind, int *device);

#ifdef __cplusplus
}
#endif

#endif
