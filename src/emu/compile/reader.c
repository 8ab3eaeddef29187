/*
 * The emulator's target as the front end reads programs for it (front/profile.h): its
 * macros and the CUDA headers it writes as source; and core's reader (backend.h) over the
 * front end with that profile.
 */
#include "backend.h"
#include "options.h"
#include "front/front.h"
#include "front/sigs.h"
#include "emu/compile/cg_header.h"
#include "emu/compile/prelude.h"

#define XSTR(x) STR(x)
#define STR(x) #x

const lat__front_profile lat__emu_profile = {
    .predefined = "#define __LATTICE_EMU__ 1\n"
                  "#define __LATTICE_SEQUENTIAL_BLOCK__ 1\n"
                  "#define __CUDA_ARCH__ " XSTR(LAT_EMU_CUDA_ARCH) "\n",
    .header_text = lat__cxx_header_text,
};

static lat_status parse(const lat__source *src, lat__unit **unit)
{
    const lat__options *o = src->opts;
    lat__front_in in = {
        .text = src->text,
        .name = src->name,
        .include_dirs = src->include_dirs,
        .option_include_dirs = o->include_dirs,
        .defines = o->defines,
        .undefines = o->undefines,
        .profile = &lat__emu_profile,
    };
    return lat__front_parse(&in, unit);
}

const lat__reader lat__emu_reader = {
    .parse = parse,
    .instantiate = lat__instantiate_expression,
    .signatures = lat__front_sigs,
    .unit_free = lat__unit_free,
};
