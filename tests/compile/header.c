/* The public header as strict C11: included twice, every inline helper and LAT_ARGS used. */
#include <lattice.h>
#include <lattice.h>

/* Takes arguments the way lat_launch_args does, so LAT_ARGS can expand into a call. */
static size_t count_f32(size_t nargs, const lat_arg *args)
{
    size_t n = 0;
    for (size_t i = 0; i < nargs; i++)
        n += args[i].kind == LAT_ARG_F32;
    return n;
}

static int uses_every_helper(void)
{
    float host[4] = {0};
    const lat_arg args[] = {
        lat_arg_i32(-1),          lat_arg_u32(1u),
        lat_arg_i64(-1),          lat_arg_u64(1u),
        lat_arg_f32(1.0f),        lat_arg_f64(1.0),
        lat_arg_ptr(0),           lat_arg_bytes(host, sizeof host),
        lat_arg_in(host, sizeof host), lat_arg_out(host, sizeof host),
        lat_arg_inout(host, sizeof host),
    };
    size_t n = sizeof args / sizeof args[0];
    /* LAT_ARGS expands to a count and an array. */
    size_t f32s = count_f32(LAT_ARGS(lat_arg_i32(1), lat_arg_f32(2.0f), lat_arg_f32(3.0f)));
    lat_launch_desc desc = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .shared_bytes = 0};
    lat_module_desc mdesc = {.source = "", .no_extern_c = 0};
    lat_context_desc cdesc = {.backend = LAT_BACKEND_AUTO, .device = 0, .logger = {0, 0}};
    (void)desc;
    (void)mdesc;
    (void)cdesc;
    return n == 11 && f32s == 2 && args[8].kind == LAT_ARG_IN;
}

int main(void)
{
    lat_status st = LAT_OK;
    return (uses_every_helper() && lat_version() == LAT_VERSION_NUMBER && st == 0) ? 0 : 1;
}
