/*
 * What a checked module keeps once compiled (ck.h): the tables its code holds (each
 * __shared__ variable's size, alignment and name; which of them each kernel reaches) and
 * where its memory lies, read once when it is loaded; and the host functions its code
 * calls besides an unchecked module's.
 */
#include "ck.h"

#include "emu/backend/emu.h"

#include <libtcc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void free_kernel(lat__ck_kernel *k)
{
    if (!k)
        return;
    free(k->vars);
    free(k->writes);
    free(k);
}

static void *get(TCCState *s, const char *name)
{
    return tcc_get_symbol(s, name);
}

lat_status lat__ck_module_loaded(lat__ck_module *cm, lat__emu_module *m, TCCState *s)
{
    cm->code_lo = (uintptr_t)m->code;
    cm->data_lo = m->data_lo;
    cm->data_hi = m->data_hi;
    const int *nshared = get(s, "__lat_nshared");
    cm->nshared = nshared ? *nshared : 0;
    if (cm->nshared > 0) {
        cm->shsize = get(s, "__lat_shsize");
        cm->shalign = get(s, "__lat_shalign");
        cm->shname = get(s, "__lat_shname");
        cm->shdims = get(s, "__lat_shdims");
        if (!cm->shsize || !cm->shalign)
            cm->nshared = 0;
    }
    for (int i = 0; i < m->nkernels; i++) {
        lat__emu_kernel *k = &m->kernels[i];
        lat__ck_kernel *kk = calloc(1, sizeof *kk);
        if (!kk)
            return LAT_ERROR_OUT_OF_MEMORY;
        kk->module = cm;
        char sym[600];
        snprintf(sym, sizeof sym, LAT_EMU_KINFO_PREFIX "%s", k->name);
        const int *info = get(s, sym);
        if (info && info[1] > 0) {
            kk->vars = malloc((size_t)info[1] * sizeof *kk->vars);
            if (!kk->vars) {
                free(kk);
                return LAT_ERROR_OUT_OF_MEMORY;
            }
            memcpy(kk->vars, info + 2, (size_t)info[1] * sizeof *kk->vars);
            kk->nvars = info[1];
        }
        snprintf(sym, sizeof sym, LAT_EMU_KWRITES_PREFIX "%s", k->name);
        const int *writes = get(s, sym);
        kk->nwrites = writes ? writes[0] : -1;
        if (kk->nwrites > 0) {
            kk->writes = malloc((size_t)kk->nwrites * sizeof *kk->writes);
            if (!kk->writes) {
                free(kk->vars);
                free(kk);
                return LAT_ERROR_OUT_OF_MEMORY;
            }
            memcpy(kk->writes, writes + 1, (size_t)kk->nwrites * sizeof *kk->writes);
        }
        k->check = kk;
    }
    return LAT_OK;
}

void lat__ck_kernel_free(struct lat__ck_kernel *k)
{
    free_kernel(k);
}

void lat__ck_module_free(lat__ck_module *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->nstrings; i++)
        free(m->strings[i]);
    free(m->strings);
    free(m->sites);
    free(m);
}

/* The names passes/checks.c's prefix declares. The barriers, warp operations, traps and
 * region loops' calls are the executor's own, under a second name: a checked launch runs
 * on the same engine as any other (exec.h), observed, and the engine tells the checks
 * what happens. */
#define SYM(name, fn) {name, (void (*)(void))(fn)}

const lat__emu_symbol *lat__ck_symbols(size_t *count)
{
    static const lat__emu_symbol table[] = {
        SYM("__lat_ck", lat__ck_access_plain),
        SYM("__lat_cka", lat__ck_access_array),
        SYM("__lat_ckv", lat__ck_access_value),
        SYM("__lat_ck_local", lat__ck_local),
        SYM("__lat_ck_memset", lat__ck_memset),
        SYM("__lat_ck_memcpy", lat__ck_memcpy),
        SYM("__lat_ck_memmove", lat__ck_memmove),
        SYM("__lat_ck_tick", lat__exec_tick),
        SYM("__lat_ck_bar", lat__exec_barrier_observed),
        SYM("__lat_ck_warp", lat__exec_warp_observed),
        SYM("__lat_ck_match_all", lat__exec_match_all_observed),
        SYM("__lat_ck_activemask", lat__exec_activemask_observed),
        SYM("__lat_ck_trap", lat__emu_trap),
        SYM("__lat_ck_rbar", lat__exec_rbarrier),
        SYM("__lat_ck_rorder", lat__exec_rorder),
        SYM("__lat_ck_fwd", lat__ck_fwd_guard),
        SYM("__lat_ck_scratch", lat__emu_scratch),
    };
    *count = sizeof table / sizeof table[0];
    return table;
}
