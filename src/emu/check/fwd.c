/*
 * The guards of a checked kernel's forward variant (passes/region_fwd.c): whether a
 * stretch or an implicit loop whose accesses are all proven in bounds may run, here and
 * now, as unchecked code, with initcheck or racecheck on. It may where skipping its
 * accesses changes no report and leaves the shadows as the checks would:
 *  - initcheck: every __shared__ variable it touches is wholly written already. Its
 *    writes then set only what is set, its reads find everything set. No tracked local
 *    variable is among its accesses (their bytes are followed one by one).
 *  - racecheck: nothing in the barrier interval it runs in writes memory (the plan says
 *    so: racefree). Its reads then meet no write, and their records matter to no later
 *    access, since the barrier that ends the interval starts a new epoch.
 * Written bytes stay written for the block's life, so the scan of a variable resumes where
 * the last one stopped (and one found whole is not scanned again).
 */
#include "ck.h"
#include "profile.h"

#include <string.h>

static bool wholly_written(lat__ck_launch *L, int v)
{
    if (v < 0 || v >= L->cm->nshared || !L->shoff[v])
        return false; /* not laid out for this kernel: nothing to count on */
    size_t size = L->cm->shsize[v];
    L->sh_scanned[v] = lat__ck_written_up_to(L->sh_init + L->shoff[v], L->sh_scanned[v], size);
    return L->sh_scanned[v] == size;
}

int lat__ck_fwd_guard(lat__emu_thread *t, int flags, int n, const int *vars)
{
    lat__ck_launch *L = lat__ck_of(t);
    if (L->pfl)
        return 0; /* profiled: every access is counted */
    if ((L->modes & LAT_CHECK_RACECHECK) && !(flags & LAT__CK_FWD_RACEFREE))
        return 0;
    if (!L->sh_init)
        return 1;
    if (flags & LAT__CK_FWD_LOCALS)
        return 0;
    for (int i = 0; i < n; i++)
        if (!wholly_written(L, vars[i]))
            return 0;
    return 1;
}

void lat__ck_fwd_block_start(lat__ck_launch *L)
{
    if (L->sh_scanned)
        memset(L->sh_scanned, 0, (size_t)L->cm->nshared * sizeof *L->sh_scanned);
}
