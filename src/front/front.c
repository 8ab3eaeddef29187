/* The front end's entry: see front.h. */
#include "front.h"
#include "core/alloc.h"

#include "lex.h"
#include "pp.h"
#include "predef.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

void lat__unit_free(lat__unit *u)
{
    if (!u)
        return;
    lat__arena_free(&u->arena);
    free(u);
}

bool lat__unit_past_deadline(lat__unit *u, lat__loc loc)
{
    if (u->clock_skip++ % 256 != 0 || !u->deadline_ns)
        return false;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    if ((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec <= u->deadline_ns)
        return false;
    u->deadline_ns = 0; /* reported once; the callers stop */
    u->clock_skip = 1;
    lat__error_at(u, loc, "the compile took more than %d s to preprocess and parse (the "
                  "emulator's compile limit)", LAT_FRONT_MAX_SECONDS);
    return true;
}

lat_status lat__front_parse(const lat__front_in *in, lat__unit **out)
{
    *out = NULL;
    lat__unit *u = lat__calloc(1, sizeof *u);
    if (!u)
        return LAT_ERROR_OUT_OF_MEMORY;
    if (setjmp(u->oom)) {
        lat__unit_free(u);
        *out = NULL;
        return LAT_ERROR_OUT_OF_MEMORY;
    }
    lat__arena_init(&u->arena, &u->oom);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    u->deadline_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec +
                     (uint64_t)LAT_FRONT_MAX_SECONDS * 1000000000u;
    lat__atoms_init(&u->atoms, &u->arena);
    const char *name = in->name ? in->name : "kernel.cu";
    uint32_t root = lat__unit_add_file(u, NULL, lat__arena_strndup(&u->arena, name, strlen(name)),
                                       in->text, strlen(in->text));
    /* Quoted includes of the root are looked for in its directory. */
    const char *slash = strrchr(name, '/');
    u->files.items[root].dir = slash ? lat__arena_strndup(&u->arena, name, (size_t)(slash - name) + (slash == name))
                                     : ".";
    lat__pp_in pp = {
        .include_dirs = in->include_dirs,
        .option_include_dirs = in->option_include_dirs,
        .defines = in->defines,
        .undefines = in->undefines,
        .predefined = lat__front_predefined(),
        .assert_h = lat__front_assert_h(),
        .profile = in->profile,
    };
    lat__pp_run(u, &pp);
    lat__parse_unit(u);
    *out = u;
    return u->status;
}
