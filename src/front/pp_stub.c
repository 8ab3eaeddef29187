/* TEMPORARY until the preprocessor lands: directives dropped. */
#include "pp.h"
#include "predef.h"

#include "lex.h"

const char *lat__front_predefined(void)
{
    return "";
}

void lat__pp_run(lat__unit *u, const lat__pp_in *in)
{
    (void)in;
    lat__toks raw = {0};
    lat__lex_file(u, 0, &raw);
    for (size_t i = 0; i < raw.n; i++) {
        lat__tok *t = &raw.items[i];
        if ((t->flags & LAT_TF_BOL) && lat__tok_is_punct(t, LAT_P_HASH)) {
            size_t j = i + 1;
            while (j < raw.n && !(raw.items[j].flags & LAT_TF_BOL))
                j++;
            i = j - 1;
            continue;
        }
        lat__toks_push(u, &u->toks, t);
    }
    if (!u->toks.items)
        u->toks.items = lat__arena_alloc(&u->arena, sizeof *u->toks.items);
    u->toks.items[u->toks.n].kind = LAT_TK_EOF;
}
