/* Defines globals named like TinyCC's (`next` a function, `file` a variable, `tok`), then
 * runs a kernel on the emulator: this links only if liblattice.a hides libtcc's symbols,
 * and works only if the library's own TinyCC is not using ours instead. */
#include <lattice.h>

#include <stdio.h>

int next(void);
int next(void)
{
    return 35;
}

int file = 7;
int tok = -1;

int main(void)
{
    lat_context *ctx = NULL;
    lat_kernel *k = NULL;
    lat_module *mod = NULL;
    int x[64];
    for (int i = 0; i < 64; i++)
        x[i] = i;
    lat_status st = lat_context_create(&(lat_context_desc){.backend = LAT_BACKEND_EMU}, &ctx);
    if (st == LAT_OK)
        st = lat_module_create(ctx,
                               &(lat_module_desc){.source = "__global__ void inc(int *x, int by)\n"
                                                            "{ x[threadIdx.x] += by; }\n"},
                               &mod);
    if (st == LAT_OK)
        st = lat_module_get_kernel(mod, "inc", &k);
    if (st == LAT_OK)
        st = lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {64}},
                             LAT_ARGS(lat_arg_inout(x, sizeof x), lat_arg_i32(next() + file)));
    lat_context_destroy(ctx);
    if (st != LAT_OK) {
        printf("FAIL: %s: %s\n", lat_status_name(st), lat_last_error());
        return 1;
    }
    for (int i = 0; i < 64; i++)
        if (x[i] != i + 42 || tok != -1) {
            printf("FAIL: x[%d] = %d, want %d (tok = %d)\n", i, x[i], i + 42, tok);
            return 1;
        }
    printf("ok: our next, file and tok coexist with lattice's TinyCC\n");
    return 0;
}
