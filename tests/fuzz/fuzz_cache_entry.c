/* libFuzzer target for the compile cache's disk entries (src/core/cache.c): each input is
 * the bytes of a file found at an entry's name, read through the same path a lookup
 * takes. Whatever the bytes, the reader must answer (found or not), never crash, hang,
 * leak or read past the file; an input that is accepted must give back exactly its
 * payload. An input whose first byte is odd is a payload instead: stored, then read back,
 * which must give the same bytes (the round trip through a real entry). */
#include "core/cache.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];

/* The directory is the fuzzer's only: removed at exit with what is left in it. */
static void remove_dir(void)
{
    DIR *d = opendir(dir);
    if (d) {
        char path[400];
        for (struct dirent *e; (e = readdir(d));)
            if (e->d_name[0] != '.') {
                snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
                unlink(path);
            }
        closedir(d);
    }
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    snprintf(dir, sizeof dir, "/tmp/lattice-fuzz-cache-XXXXXX");
    if (!mkdtemp(dir))
        abort();
    atexit(remove_dir);
    setenv("LATTICE_CACHE_DIR", dir, 1);
    unsetenv("LATTICE_CACHE");
    int n;
    (void)lat_device_count(LAT_BACKEND_EMU, &n); /* lattice reads the environment now */
    return 0;
}

/* The key an input claims (its header's), so that the reader gets past the name. */
static lat__cache_key key_of(const uint8_t *data, size_t size)
{
    uint8_t b[32] = {0};
    if (size >= 48)
        memcpy(b, data + 16, 32);
    lat__cache_key k;
    lat__cache_key_set(&k, b);
    return k;
}

static void round_trip(const uint8_t *data, size_t size)
{
    lat__cache_key k = key_of(data, size);
    lat__cache_put(&k, true, data, size);
    lat_cache_clear();
    void *got = NULL;
    size_t n = 0;
    int origin;
    if (!lat__cache_get(&k, true, &got, &n, &origin) || n != size ||
        memcmp(got, data, size) != 0)
        abort();
    free(got);
    char path[200];
    snprintf(path, sizeof path, "%s/%s.lcc", dir, k.hex);
    unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lat_cache_clear();
    if (size > 0 && (data[0] & 1)) {
        round_trip(data, size);
        return 0;
    }
    lat__cache_key k = key_of(data, size);
    char path[200];
    snprintf(path, sizeof path, "%s/%s.lcc", dir, k.hex);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || write(fd, data, size) != (ssize_t)size)
        abort();
    close(fd);
    void *got = NULL;
    size_t n = 0;
    int origin;
    if (lat__cache_get(&k, true, &got, &n, &origin)) {
        if (size < 88 || n != size - 88 || memcmp(got, data + 88, n) != 0)
            abort();
        free(got);
    }
    unlink(path);
    lat_cache_clear();
    return 0;
}
