/* The emulator's LATTICE_EMU_* variables (env.h). */
#include "env.h"

static const lat__env_var vars[LAT_EMU_ENV_COUNT_] = {
#define LAT_EMU_ENV_ENTRY_(id, k, v) [LAT_EMU_ENV_##id] = LAT__ENV_VAR_("LATTICE_EMU_", id, k, v)
    LAT_EMU_ENV_MAP(LAT_EMU_ENV_ENTRY_)
#undef LAT_EMU_ENV_ENTRY_
};
static _Atomic(char *) values[LAT_EMU_ENV_COUNT_];
lat__env_table lat__emu_env_table = LAT__ENV_TABLE(vars, values);

const char *lat__emu_env(lat__emu_env_id id)
{
    return lat__env_table_get(&lat__emu_env_table, (int)id);
}

bool lat__emu_env_on(lat__emu_env_id id)
{
    return lat__env_flag_on(lat__emu_env(id));
}
