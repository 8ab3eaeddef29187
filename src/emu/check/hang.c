/*
 * A block that can never finish (ck.h), as the executor finds it (exec.h's stall hook):
 * a report of kind hang, placed where the threads wait (a deadlock) or where the thread
 * named last touched memory (a spin, the watchdog), with the executor's words, to which a
 * spin's place is added.
 */
#include "ck.h"

#include <stdio.h>
#include <string.h>

static lat_dim3 dim_of(lat__emu_u3 u)
{
    return (lat_dim3){u.x, u.y, u.z};
}

static lat__ck_finding code_of(lat__exec_stall_kind kind)
{
    switch (kind) {
    case LAT__EXEC_DEADLOCK:
        return LAT__CK_DEADLOCK;
    case LAT__EXEC_SPIN:
        return LAT__CK_SPIN;
    case LAT__EXEC_TIMEOUT:
        break;
    }
    return LAT__CK_TIMEOUT;
}

void lat__ck_hang(lat__ck_launch *L, const lat__exec_block *b, lat__exec_stall *s)
{
    const lat__exec_fiber *at = s->at;
    const lat__ck_site *site = NULL;
    lat__ck_thread *th = at ? &L->th[at - b->f] : NULL;
    if (th && th->last_site >= 0 && th->last_site < L->cm->nsites)
        site = &L->cm->sites[th->last_site];
    if (s->kind == LAT__EXEC_SPIN && site) {
        size_t n = strlen(s->what);
        snprintf(s->what + n, s->size - n,
                 " (nobody writes what they read), thread (%u,%u,%u) at %s:%d reading `%s`",
                 at->t.thread_idx.x, at->t.thread_idx.y, at->t.thread_idx.z, site->file,
                 site->line, site->expr);
    }
    lat_check_report r;
    memset(&r, 0, sizeof r);
    r.kernel = L->k->name;
    r.count = 1;
    r.access.kind = LAT_ACCESS_NONE;
    r.access.block = dim_of(L->bidx);
    r.access.file = "";
    r.access.expr = "";
    if (at)
        r.access.thread = r.access.thread_last = dim_of(at->t.thread_idx);
    if (s->kind == LAT__EXEC_DEADLOCK) {
        /* Where the first thread waits. */
        r.access.kind = at && at->state == LAT__EXEC_WARP ? LAT_ACCESS_WARP : LAT_ACCESS_BARRIER;
        r.access.file = at && at->file ? at->file : "";
        r.access.line = at ? at->line : 0;
    } else if (site) {
        r.access.file = site->file;
        r.access.line = site->line;
        r.access.expr = site->expr;
        r.access.kind = site->kind ? (lat_access_kind)site->kind : LAT_ACCESS_NONE;
        r.address = th->last_addr;
    }
    r.message = s->what;
    lat__ck_report_add(L->out, code_of(s->kind), &r, -1, -1);
}
