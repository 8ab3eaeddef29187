// The public header as strict C++ (11 and 17): included twice, every inline helper used.
#include <lattice.h>
#include <lattice.h>

namespace {

bool uses_every_helper()
{
    float host[4] = {0, 0, 0, 0};
    const lat_arg args[] = {
        lat_arg_i32(-1),          lat_arg_u32(1u),
        lat_arg_i64(-1),          lat_arg_u64(1u),
        lat_arg_f32(1.0f),        lat_arg_f64(1.0),
        lat_arg_ptr(0),           lat_arg_bytes(host, sizeof host),
        lat_arg_in(host, sizeof host), lat_arg_out(host, sizeof host),
        lat_arg_inout(host, sizeof host),
    };
    lat_launch_desc desc = {{1, 1, 1}, {32, 1, 1}, 0, NULL, 0};
    lat_context_desc cdesc = lat_context_desc();
    lat_module_desc mdesc = lat_module_desc();
    (void)desc;
    (void)cdesc;
    (void)mdesc;
    return sizeof args / sizeof args[0] == 11 && args[8].kind == LAT_ARG_IN;
}

} // namespace

int main()
{
    lat_status st = LAT_OK;
    return (uses_every_helper() && lat_version() == LAT_VERSION_NUMBER && st == 0) ? 0 : 1;
}
