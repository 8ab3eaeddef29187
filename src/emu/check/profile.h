/*
 * The profile (lattice/profile.h), inside: a profiled launch is a checked launch
 * (ck.h) whose access hook also hands every access here. Each OS thread's blocks keep the
 * accesses of each warp instruction as it forms (the k-th execution of a site by each
 * lane of a warp is one instruction), and count them when the block reaches a barrier or
 * its end: requests, sectors or wavefronts, per site; the launch adds the threads' counts
 * up at its end and keeps the result in the context's check state.
 */
#ifndef LAT_EMU_CK_PROFILE_H
#define LAT_EMU_CK_PROFILE_H

#include "lattice/profile.h"
#include "emu/runtime/abi.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lat__ck_module;
struct lat__ck_launch;
struct lat__ck_ctx;
struct lat__emu_kernel;
struct lat__launch;

typedef struct lat__pf_launch lat__pf_launch;
typedef struct lat__pf_worker lat__pf_worker;

/* A profiled launch of kernel k (its checked launch's template L), or NULL when out of
 * memory. */
lat__pf_launch *lat__pf_launch_new(const struct lat__ck_launch *L, const struct lat__emu_kernel *k,
                                   const struct lat__launch *launch);
/* One OS thread's part (NULL: out of memory, its counts lost and said so). */
lat__pf_worker *lat__pf_worker_new(lat__pf_launch *P, int threads);
void lat__pf_block_start(lat__pf_worker *W);
/* A barrier of the block completed: what was asked before it is counted. */
void lat__pf_barrier(lat__pf_worker *W);
void lat__pf_block_end(lat__pf_worker *W);
/* Adds the thread's counts to the launch's and frees W. */
void lat__pf_worker_end(lat__pf_worker *W);
/* An access by thread lin of the block L runs (code: passes/checks.c's). */
void lat__pf_access(lat__pf_worker *W, const struct lat__ck_launch *L, unsigned lin, uintptr_t a,
                    unsigned long size, int code);
/* What profiled code calls at a branch (passes/profile.c's __LAT_PF_BR): code, its
 * condition's site; returns taken. */
int lat__pf_branch(lat__emu_thread *t, int code, int taken);
/* The launch's end: its profile becomes the context's last (ck->profile), logged at
 * LAT_LOG_INFO; P is freed. */
void lat__pf_launch_end(lat__pf_launch *P, struct lat__ck_ctx *ck);
/* Frees the context's last profile. */
void lat__pf_free(lat_profile *p);

#endif
