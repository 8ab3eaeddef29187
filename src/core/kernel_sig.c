/* The kernel signatures' storage: see kernel_sig.h. */
#include "kernel_sig.h"

#include <stdlib.h>
#include <string.h>

void lat__kernel_sigs_free(lat__kernel_sigs *sigs)
{
    for (int i = 0; i < sigs->count; i++) {
        lat__kernel_sig *k = &sigs->items[i];
        for (int p = 0; k->params && p < k->nparams; p++) {
            free(k->params[p].name);
            free(k->params[p].type);
            free(k->params[p].pointee.fields);
        }
        free(k->params);
        free(k->name);
    }
    free(sigs->items);
    for (int i = 0; i < sigs->ntemplates; i++) {
        free(sigs->templates[i].name);
        free(sigs->templates[i].decl);
    }
    free(sigs->templates);
    memset(sigs, 0, sizeof *sigs);
}

const lat__kernel_sig *lat__kernel_sigs_find(const lat__kernel_sigs *sigs, const char *name)
{
    for (int i = 0; i < sigs->count; i++)
        if (strcmp(sigs->items[i].name, name) == 0)
            return &sigs->items[i];
    return NULL;
}
