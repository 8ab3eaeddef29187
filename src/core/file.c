/* Reading a whole file: module sources, PTX/CUBIN images, and the headers the compile
 * cache hashes all come in through here. */
#include "file.h"
#include "core/alloc.h"

#include "error.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int lat__read_file(const char *path, char **out, size_t *size)
{
    return lat__read_file_max(path, LAT__READ_MAX, out, size);
}

int lat__read_file_max(const char *path, size_t max, char **out, size_t *size)
{
    /* O_NONBLOCK: opening a FIFO with no writer would wait for one forever. Only regular
     * files are read: /dev/zero, a FIFO or a terminal has no end (or blocks), and the
     * compile cache's key reads every header before the compiler sees it. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return errno ? errno : ENOENT;
    struct stat st;
    int err = 0;
    if (fstat(fd, &st) != 0)
        err = errno ? errno : EIO;
    else if (S_ISDIR(st.st_mode))
        err = EISDIR;
    else if (!S_ISREG(st.st_mode))
        err = ENODEV;
    else if ((unsigned long long)st.st_size > max)
        err = EFBIG;
    char *buf = NULL;
    size_t len = 0;
    /* The size is a hint: the file may grow while it is read, so reading stops at end of
     * file or at the cap, whichever comes first. */
    size_t cap = err ? 0 : (size_t)st.st_size + 1;
    if (!err && !(buf = lat__malloc(cap)))
        err = ENOMEM;
    while (!err) {
        if (len + 1 >= cap) {
            if (cap > max) {
                err = EFBIG;
                break;
            }
            char *p = lat__realloc(buf, cap * 2);
            if (!p) {
                err = ENOMEM;
                break;
            }
            buf = p;
            cap *= 2;
        }
        ssize_t n = read(fd, buf + len, cap - len - 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            err = EIO;
            break;
        }
        if (n == 0)
            break;
        len += (size_t)n;
    }
    close(fd);
    if (err) {
        free(buf);
        return err;
    }
    buf[len] = '\0';
    *out = buf;
    if (size)
        *size = len;
    return 0;
}

lat_status lat__read_file_or_error(lat_context *ctx, const char *path,
                                   char **out, size_t *size)
{
    int err = lat__read_file(path, out, size);
    if (err == ENOMEM)
        return lat__oom_for(ctx, "reading '%s'", path);
    if (err == ENODEV)
        return lat__error(ctx, LAT_ERROR_FILE, "'%s' is not a regular file", path);
    if (err == EFBIG)
        return lat__error(ctx, LAT_ERROR_FILE, "'%s' is larger than %u MiB", path,
                          (unsigned)(LAT__READ_MAX >> 20));
    if (err == EIO)
        return lat__error(ctx, LAT_ERROR_FILE, "error reading '%s'", path);
    if (err)
        return lat__error(ctx, LAT_ERROR_FILE, "cannot open '%s': %s", path, strerror(err));
    return LAT_OK;
}
