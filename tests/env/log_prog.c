/* A program for check_log.py: `leak` destroys a context with a live 400-byte allocation
 * (a warning), `fail` makes a call fail through LAT_TRY (which exits), `ok` does neither. */
#include <lattice.h>

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "ok";
    lat_context *ctx;
    LAT_TRY(lat_context_create(&(lat_context_desc){.backend = LAT_BACKEND_EMU}, &ctx));
    lat_deviceptr p;
    LAT_TRY(lat_mem_alloc(ctx, 400, &p));
    if (strcmp(mode, "fail") == 0)
        LAT_TRY(lat_memcpy_htod(ctx, p, mode, 800));
    if (strcmp(mode, "leak") != 0)
        LAT_TRY(lat_mem_free(ctx, p));
    lat_context_destroy(ctx);
    printf("done\n");
    return 0;
}
