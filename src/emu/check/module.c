/*
 * What a checked module keeps once compiled (ck.h): the tables its code holds (each
 * __shared__ variable's size, alignment and name; which of them each kernel reaches) and
 * where its memory lies, read once when it is loaded.
 */
#include "ck.h"

#include "emu/emu.h"

#include <libtcc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void free_kernel(lat__ck_kernel *k)
{
    if (!k)
        return;
    free(k->vars);
    free(k);
}

static void *get(TCCState *s, const char *name)
{
    return tcc_get_symbol(s, name);
}

lat_status lat__ck_module_loaded(lat__ck_module *cm, lat__emu_module *m, TCCState *s)
{
    cm->code = m->code;
    cm->code_size = m->code_size;
    const int *nshared = get(s, "__lat_nshared");
    cm->nshared = nshared ? *nshared : 0;
    if (cm->nshared > 0) {
        cm->shsize = get(s, "__lat_shsize");
        cm->shalign = get(s, "__lat_shalign");
        cm->shname = get(s, "__lat_shname");
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
