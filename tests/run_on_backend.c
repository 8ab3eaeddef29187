/*
 * run_on_backend BACKEND PROGRAM [ARGS...]: runs PROGRAM with LATTICE_BACKEND=BACKEND, or
 * exits 77 (meson's "skipped") with lattice's reason when that backend is unavailable.
 * The examples are programs a user would copy, so they fail plainly on a missing GPU;
 * this wrapper lets their CUDA runs skip instead (examples/meson.build).
 */
#include "lattice.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s cuda|emu PROGRAM [ARGS...]\n", argv[0]);
        return 2;
    }
    lat_backend_kind kind;
    if (strcmp(argv[1], "cuda") == 0)
        kind = LAT_BACKEND_CUDA;
    else if (strcmp(argv[1], "emu") == 0)
        kind = LAT_BACKEND_EMU;
    else {
        fprintf(stderr, "%s: unknown backend '%s'\n", argv[0], argv[1]);
        return 2;
    }
    lat_backend_kind resolved;
    lat_status st = lat_backend_resolve(kind, &resolved);
    if (st == LAT_ERROR_BACKEND_UNAVAILABLE) {
        printf("skip: backend %s is unavailable: %s\n", argv[1], lat_last_error());
        return 77;
    }
    if (st != LAT_OK) {
        fprintf(stderr, "%s: %s: %s\n", argv[0], lat_status_name(st), lat_last_error());
        return 1;
    }
    setenv("LATTICE_BACKEND", argv[1], 1);
    fflush(stdout);
    execv(argv[2], argv + 2);
    perror(argv[2]);
    return 1;
}
