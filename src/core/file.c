/* Reading a whole file: module sources, PTX/CUBIN images, and the headers the compile
 * cache hashes all come in through here. */
#include "file.h"

#include "error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int lat__read_file(const char *path, char **out, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return errno ? errno : EIO;
    char *buf = NULL;
    size_t len = 0;
    char chunk[65536];
    size_t n;
    int err = 0;
    while (!err && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
        if (lat__strbuf_append(&buf, &len, chunk, n) != 0)
            err = ENOMEM;
    if (!err && ferror(f))
        err = EIO;
    fclose(f);
    if (!err && !buf && lat__strbuf_append(&buf, &len, "", 0) != 0)
        err = ENOMEM;
    if (err) {
        free(buf);
        return err;
    }
    *out = buf;
    if (size)
        *size = len;
    return 0;
}

lat_status lat__read_file_or_error(lat_context *ctx, const char *fn, const char *path,
                                   char **out, size_t *size)
{
    int err = lat__read_file(path, out, size);
    if (err == ENOMEM)
        return lat__error(ctx, LAT_ERROR_OUT_OF_MEMORY, "%s: out of host memory reading '%s'",
                          fn, path);
    if (err == EIO)
        return lat__error(ctx, LAT_ERROR_FILE, "%s: error reading '%s'", fn, path);
    if (err)
        return lat__error(ctx, LAT_ERROR_FILE, "%s: cannot open '%s': %s", fn, path,
                          strerror(err));
    return LAT_OK;
}
