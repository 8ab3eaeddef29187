/*
 * The bottom of the executor: which worker the calling thread runs, a launch's failure as
 * kernel code or the executor records it, and leaving a block after one. Every other file
 * of exec/ (and the runtime's traps) calls down to these; they call nothing above them.
 */
#include "worker.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static _Thread_local lat__emu_worker *tls_worker;

lat__emu_worker *lat__emu_current_worker(void)
{
    return tls_worker;
}

void lat__exec_set_worker(lat__emu_worker *w)
{
    tls_worker = w;
}

/* ---- failures ----------------------------------------------------------------------------- */

void lat__exec_launch_vfail(lat__emu_launch *st, lat_status status, const char *fmt, va_list ap)
{
    int expected = 0;
    if (!atomic_compare_exchange_strong(&st->trapped, &expected, 1))
        return;
    st->status = status;
    vsnprintf(st->msg, st->msg_size, fmt, ap);
}

void lat__emu_fail(lat__emu_worker *w, lat_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    lat__emu_launch *l = w->launch;
    if (l->hooks && !w->bfailed) {
        /* An observed block's failure is its own until it ends (block_done): the launch
         * fails with the first failing block in the schedule's order, whichever thread
         * found its failure first. The later blocks start no more. */
        w->bfailed = true;
        w->bstatus = status;
        vsnprintf(w->bmsg, sizeof w->bmsg, fmt, ap);
        uint64_t cur = atomic_load(&l->fail_step);
        while (w->step < cur && !atomic_compare_exchange_weak(&l->fail_step, &cur, w->step))
            ;
    } else if (!l->hooks) {
        lat__exec_launch_vfail(l, status, fmt, ap);
    }
    va_end(ap);
}

_Noreturn void lat__exec_abandon(lat__emu_worker *w)
{
    if (w->on_fiber == LAT__EXEC_ON_KSTACK)
        lat__exec_kstack_abandon(w);
    lat__exec_block *b = w->fb;
    b->failed = true;
    void *dead;
    lat__exec_go_host(b, &dead, NULL);
    abort(); /* never resumed */
}
