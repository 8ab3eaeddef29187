/*
 * The compile cache's storage: blobs keyed by lat__cache_key, in memory for the process
 * and on disk for the next one.
 *
 * A disk entry is one file, <dir>/<64 hex digits>.lcc:
 *     "LATCACHE" (8 bytes), format version (u32), 0 (u32), the key (32 bytes),
 *     the payload's size (u64), the digest of the key and payload (32 bytes), the payload.
 *
 * Compiled code from the disk is executed as the user, so the directory is used only when
 * it, every directory above it, and each entry belong to the user or root and no one else
 * can write them (docs/security.md); otherwise lattice warns once and compiles without it.
 * Entries are opened O_NOFOLLOW | O_NONBLOCK and must be regular files whose size is in
 * bounds before a byte is read: a FIFO, a device or a huge sparse file at an entry's name
 * can neither block nor exhaust the process. The digest is an integrity check (a torn
 * disk, an edit), not a signature: what keeps others' code out is who can write.
 * It is written to a unique temporary name in the same directory and renamed into place,
 * so a reader sees the whole old file, the whole new one, or none: two processes
 * compiling the same kernel at once never read a partial entry. An entry whose header,
 * key, size or checksum is wrong (a torn disk, a stray edit) is deleted and counted as
 * corrupt; the caller compiles again and writes a good one.
 */
#include "cache.h"
#include "core/alloc.h"
#include "driver_ops.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { FORMAT_VERSION = 3, HEADER_SIZE = 8 + 4 + 4 + 32 + 8 + 32 };

/* The payload's checksum: finds a torn or edited entry, which is all it is for (the key
 * is what must not collide, and it is SHA-256). Four independent 64-bit lanes of
 * multiply-rotate rounds, so that a cache hit does not pay a cryptographic hash of a
 * whole object (SHA-256 was a tenth of an emulator module's load from the disk). */
static uint64_t rotl64(uint64_t x, int r)
{
    return (x << r) | (x >> (64 - r));
}

static uint64_t get_u64_le(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static void checksum(const lat__cache_key *key, const uint8_t *p, size_t n, uint8_t out[32])
{
    static const uint64_t m1 = 0x9e3779b185ebca87u, m2 = 0xc2b2ae3d27d4eb4fu;
    /* Seeded with the entry's key: the digest is of the key and the payload together, so
     * a payload moved under another key's name fails it too. */
    uint64_t lane[4] = {m1 + m2, m2, 0, (uint64_t)0 - m1};
    for (int l = 0; l < 4; l++)
        lane[l] ^= get_u64_le(key->bytes + 8 * l);
    size_t i = 0;
    for (; i + 32 <= n; i += 32)
        for (int l = 0; l < 4; l++)
            lane[l] = rotl64(lane[l] + get_u64_le(p + i + 8 * l) * m2, 31) * m1;
    uint64_t tail = (uint64_t)n;
    for (; i < n; i++)
        tail = rotl64(tail ^ p[i] * m1, 11) * m2;
    for (int l = 0; l < 4; l++) {
        uint64_t h = lane[l] ^ rotl64(tail + (uint64_t)l, 17 + 8 * l);
        h = (h ^ (h >> 33)) * m2;
        h = (h ^ (h >> 29)) * m1;
        h ^= h >> 32;
        for (int b = 0; b < 8; b++)
            out[8 * l + b] = (uint8_t)(h >> (8 * b));
    }
}
/* The memory cache is dropped whole when it grows past this (compiled kernels are
 * small; a program that makes more than this many distinct ones gains little anyway). */
enum { MEMORY_LIMIT_BYTES = 256 << 20, MEMORY_LIMIT_ENTRIES = 4096 };

static _Atomic uint64_t n_memory_hits, n_disk_hits, n_misses, n_disk_writes, n_corrupt,
    n_uncacheable;

typedef struct entry {
    lat__cache_key key;
    void *data;
    size_t size;
    struct entry *next;
} entry;

static pthread_mutex_t memory_lock = PTHREAD_MUTEX_INITIALIZER;
static entry *memory;
static size_t memory_bytes, memory_entries;

bool lat__cache_enabled(void)
{
    return !lat__env(LAT_ENV_CACHE) || lat__env_on(LAT_ENV_CACHE);
}

/* The disk cache's directory, or false when there is none (no HOME either). */
static bool directory(char *out, size_t size)
{
    const char *d = lat__env(LAT_ENV_CACHE_DIR);
    if (d && *d)
        return (size_t)snprintf(out, size, "%s", d) < size;
    /* Through env.c's snapshot, not getenv: this runs on the background compiles'
     * threads too, and getenv there races with a program's setenv. */
    d = lat__env(LAT_ENV_XDG_CACHE_HOME);
    if (d && *d == '/')
        return (size_t)snprintf(out, size, "%s/lattice", d) < size;
    d = lat__env(LAT_ENV_HOME);
    if (d && *d)
        return (size_t)snprintf(out, size, "%s/.cache/lattice", d) < size;
    return false;
}

/* mkdir -p, private to the user (compiled code is executed: no one else may write it). */
static bool make_dirs(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, path, n + 1);
    for (size_t i = 1; i <= n; i++) {
        if (buf[i] != '/' && buf[i] != '\0')
            continue;
        char c = buf[i];
        buf[i] = '\0';
        if (mkdir(buf, 0700) != 0 && errno != EEXIST)
            return false;
        buf[i] = c;
    }
    return true;
}

/* ---- memory ------------------------------------------------------------------------------ */

static void memory_clear_locked(void)
{
    for (entry *e = memory, *next; e; e = next) {
        next = e->next;
        free(e->data);
        free(e);
    }
    memory = NULL;
    memory_bytes = memory_entries = 0;
}

static bool memory_get(const lat__cache_key *key, void **data, size_t *size)
{
    bool hit = false;
    pthread_mutex_lock(&memory_lock);
    for (entry *e = memory; e; e = e->next) {
        if (memcmp(e->key.bytes, key->bytes, 32) != 0)
            continue;
        void *copy = lat__malloc(e->size ? e->size : 1);
        if (copy) {
            memcpy(copy, e->data, e->size);
            *data = copy;
            *size = e->size;
            hit = true;
        }
        break;
    }
    pthread_mutex_unlock(&memory_lock);
    return hit;
}

static void memory_put(const lat__cache_key *key, const void *data, size_t size)
{
    entry *e = lat__malloc(sizeof *e);
    void *copy = lat__malloc(size ? size : 1);
    if (!e || !copy) {
        free(e);
        free(copy);
        return;
    }
    memcpy(copy, data, size);
    e->key = *key;
    e->data = copy;
    e->size = size;
    pthread_mutex_lock(&memory_lock);
    for (entry *o = memory; o; o = o->next) {
        if (memcmp(o->key.bytes, key->bytes, 32) == 0) {
            /* Another thread compiled the same thing meanwhile: keep theirs. */
            pthread_mutex_unlock(&memory_lock);
            free(copy);
            free(e);
            return;
        }
    }
    if (memory_bytes + size > MEMORY_LIMIT_BYTES || memory_entries >= MEMORY_LIMIT_ENTRIES)
        memory_clear_locked();
    e->next = memory;
    memory = e;
    memory_bytes += size;
    memory_entries++;
    pthread_mutex_unlock(&memory_lock);
}

/* ---- disk ---------------------------------------------------------------------------------- */

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)get_u64((const uint8_t[8]){p[0], p[1], p[2], p[3], 0, 0, 0, 0});
}

/* Whether st belongs to this user or root: nobody else's files are trusted. */
static bool owned(const struct stat *st)
{
    return st->st_uid == geteuid() || st->st_uid == 0;
}

/* Why the directory at `real` (no symbolic links in it) cannot be trusted, in why; "" when
 * it can: it and every directory above it belong to this user or root, and no one else
 * can write them (ssh's StrictModes), but for a directory above with the sticky bit (/tmp),
 * where no one else can rename or remove what is ours. fd is the directory, opened. */
static void check_trust(const char *real, int fd, char *why, size_t size)
{
    why[0] = '\0';
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode))
        snprintf(why, size, "%s is not a directory", real);
    else if (!owned(&st))
        snprintf(why, size, "%s belongs to user %ld, not to you or root", real, (long)st.st_uid);
    else if (st.st_mode & (S_IWGRP | S_IWOTH))
        snprintf(why, size, "%s can be written by %s (mode %03o)", real,
                 st.st_mode & S_IWOTH ? "anyone" : "its group", (unsigned)(st.st_mode & 0777));
    char up[4096];
    snprintf(up, sizeof up, "%s", real);
    for (char *slash = strrchr(up, '/'); !why[0] && slash; slash = strrchr(up, '/')) {
        slash[slash == up ? 1 : 0] = '\0';
        if (lstat(up, &st) != 0 || !S_ISDIR(st.st_mode))
            snprintf(why, size, "%s, above it, is not a directory", up);
        else if (!owned(&st))
            snprintf(why, size, "%s, above it, belongs to user %ld, not to you or root", up,
                     (long)st.st_uid);
        else if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))
            snprintf(why, size, "%s, above it, can be written by others (mode %03o)", up,
                     (unsigned)(st.st_mode & 0777));
        if (slash == up)
            break;
    }
}

static atomic_bool warned_untrusted;

/* Opens the disk cache's directory (made first when `create`), or -1 when there is none
 * or it is not trusted (check_trust): then lattice warns once and compiles without it. */
static int open_dir(bool create, bool warn)
{
    char dir[4096], real[PATH_MAX], why[4400];
    if (!directory(dir, sizeof dir) || (create && !make_dirs(dir)) || !realpath(dir, real))
        return -1;
    int fd = open(real, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -1;
    check_trust(real, fd, why, sizeof why);
    if (!why[0])
        return fd;
    close(fd);
    if (warn && !atomic_exchange(&warned_untrusted, true))
        lat__log(NULL, LAT_LOG_WARNING,
                 "the compile cache's directory %s is not used: %s. Compiled code from it would "
                 "run as you, so it must belong to you (or root) and be writable by no one "
                 "else (docs/security.md); compiling without the disk cache", dir, why);
    return -2;
}

bool lat__cache_disk_trusted(void)
{
    int fd = open_dir(false, false);
    if (fd >= 0)
        close(fd);
    return fd != -2;
}

/* Reads exactly n bytes; false on an error or a short file. */
static bool read_all(int fd, void *buf, size_t n)
{
    for (size_t got = 0; got < n;) {
        ssize_t r = read(fd, (uint8_t *)buf + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        got += (size_t)r;
    }
    return true;
}

lat__cache_entry_status lat__cache_entry_read(int fd, const lat__cache_key *key, void **data,
                                              size_t *size)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return LAT__ENTRY_BAD; /* a FIFO or a device: never read, it could block or not end */
    if (!owned(&st) || (st.st_mode & (S_IWGRP | S_IWOTH)))
        return LAT__ENTRY_UNTRUSTED;
    if (st.st_size < HEADER_SIZE || (uint64_t)st.st_size - HEADER_SIZE > LAT__CACHE_ENTRY_MAX)
        return LAT__ENTRY_BAD; /* its size is checked before anything is read */
    uint8_t header[HEADER_SIZE];
    if (!read_all(fd, header, sizeof header))
        return LAT__ENTRY_BAD;
    uint64_t psize = get_u64(header + 48);
    if (memcmp(header, "LATCACHE", 8) != 0 || get_u32(header + 8) != FORMAT_VERSION ||
        get_u32(header + 12) != 0 || memcmp(header + 16, key->bytes, 32) != 0 ||
        psize != (uint64_t)st.st_size - HEADER_SIZE)
        return LAT__ENTRY_BAD;
    uint8_t *buf = lat__malloc(psize ? (size_t)psize : 1), sum[32];
    if (!buf)
        return LAT__ENTRY_NO_MEMORY;
    if (!read_all(fd, buf, (size_t)psize)) {
        free(buf);
        return LAT__ENTRY_BAD;
    }
    checksum(key, buf, (size_t)psize, sum);
    if (memcmp(sum, header + 56, 32) != 0) {
        free(buf);
        return LAT__ENTRY_BAD;
    }
    *data = buf;
    *size = (size_t)psize;
    return LAT__ENTRY_OK;
}

/* Reads and checks an entry; false when absent. An entry that is not one (a FIFO, a
 * link, a torn or edited file) is removed and counted as corrupt; one that this user did
 * not write is left alone and not used. */
static bool disk_get(const lat__cache_key *key, void **data, size_t *size)
{
    int dir = open_dir(false, true);
    if (dir < 0)
        return false;
    char name[80];
    snprintf(name, sizeof name, "%s.lcc", key->hex);
    /* O_NOFOLLOW: a link is not an entry; O_NONBLOCK: opening a FIFO does not wait. */
    int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    lat__cache_entry_status st = LAT__ENTRY_BAD;
    if (fd < 0 && errno != ELOOP) {
        close(dir);
        return false;
    }
    if (fd >= 0) {
        st = lat__cache_entry_read(fd, key, data, size);
        close(fd);
    }
    if (st == LAT__ENTRY_OK || st == LAT__ENTRY_NO_MEMORY || st == LAT__ENTRY_UNTRUSTED) {
        close(dir);
        return st == LAT__ENTRY_OK;
    }
    /* Unreadable or wrong: not worth keeping. A concurrent writer's rename replaces the
     * file atomically, so this never deletes a good entry mid-write. */
    if (unlinkat(dir, name, 0) == 0 || errno != ENOENT)
        atomic_fetch_add(&n_corrupt, 1);
    close(dir);
    return false;
}

static void disk_put(const lat__cache_key *key, const void *data, size_t size, bool counted)
{
    if (size > LAT__CACHE_ENTRY_MAX)
        return;
    int dir = open_dir(true, true);
    if (dir < 0)
        return;
    static _Atomic unsigned counter;
    char name[80], tmp[160];
    snprintf(name, sizeof name, "%s.lcc", key->hex);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%u", name, (long)getpid(),
             atomic_fetch_add(&counter, 1));
    int fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        close(dir); /* a read-only cache (shared, docs/security.md): not an error */
        return;
    }
    uint8_t header[HEADER_SIZE];
    memcpy(header, "LATCACHE", 8);
    put_u32(header + 8, FORMAT_VERSION);
    put_u32(header + 12, 0);
    memcpy(header + 16, key->bytes, 32);
    put_u64(header + 48, size);
    checksum(key, data, size, header + 56);
    bool ok = true;
    const uint8_t *parts[2] = {header, data};
    size_t lens[2] = {HEADER_SIZE, size};
    for (int i = 0; i < 2 && ok; i++) {
        size_t done = 0;
        while (done < lens[i]) {
            ssize_t w = write(fd, parts[i] + done, lens[i] - done);
            if (w <= 0) {
                ok = false;
                break;
            }
            done += (size_t)w;
        }
    }
    if (close(fd) != 0)
        ok = false;
    if (ok && renameat(dir, tmp, dir, name) == 0) {
        if (counted)
            atomic_fetch_add(&n_disk_writes, 1);
    } else
        unlinkat(dir, tmp, 0);
    close(dir);
}

/* ---- the interface ------------------------------------------------------------------------ */

static bool get(const lat__cache_key *key, bool disk, void **data, size_t *size, int *origin,
                bool counted)
{
    if (memory_get(key, data, size)) {
        if (counted)
            atomic_fetch_add(&n_memory_hits, 1);
        *origin = LAT_MODULE_MEMORY_CACHE;
        return true;
    }
    if (disk && disk_get(key, data, size)) {
        if (counted)
            atomic_fetch_add(&n_disk_hits, 1);
        memory_put(key, *data, *size);
        *origin = LAT_MODULE_DISK_CACHE;
        return true;
    }
    return false;
}

bool lat__cache_get(const lat__cache_key *key, bool disk, void **data, size_t *size, int *origin)
{
    return get(key, disk, data, size, origin, true);
}

bool lat__cache_get_uncounted(const lat__cache_key *key, void **data, size_t *size)
{
    int origin;
    return get(key, true, data, size, &origin, false);
}

void lat__cache_put(const lat__cache_key *key, bool disk, const void *data, size_t size)
{
    memory_put(key, data, size);
    if (disk)
        disk_put(key, data, size, true);
}

void lat__cache_put_uncounted(const lat__cache_key *key, const void *data, size_t size)
{
    memory_put(key, data, size);
    disk_put(key, data, size, false);
}

void lat__cache_count_miss(void)
{
    atomic_fetch_add(&n_misses, 1);
}

void lat__cache_count_uncacheable(void)
{
    atomic_fetch_add(&n_uncacheable, 1);
}

void lat__cache_count_memory_hit(void)
{
    atomic_fetch_add(&n_memory_hits, 1);
}

lat_status lat_cache_get_stats(lat_cache_stats *out)
{
    LAT__API();
    if (!out)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "out is NULL");
    out->memory_hits = atomic_load(&n_memory_hits);
    out->disk_hits = atomic_load(&n_disk_hits);
    out->misses = atomic_load(&n_misses);
    out->disk_writes = atomic_load(&n_disk_writes);
    out->corrupt = atomic_load(&n_corrupt);
    out->uncacheable = atomic_load(&n_uncacheable);
    return LAT_OK;
}

void lat_cache_clear(void)
{
    LAT__API();
    pthread_mutex_lock(&memory_lock);
    memory_clear_locked();
    pthread_mutex_unlock(&memory_lock);
    lat__module_cache_clear();
    atomic_store(&n_memory_hits, 0);
    atomic_store(&n_disk_hits, 0);
    atomic_store(&n_misses, 0);
    atomic_store(&n_disk_writes, 0);
    atomic_store(&n_corrupt, 0);
    atomic_store(&n_uncacheable, 0);
}

const char *lat_cache_directory(void)
{
    LAT__API();
    static _Thread_local char dir[4096];
    if (!lat__cache_enabled() || !directory(dir, sizeof dir) || !lat__cache_disk_trusted())
        dir[0] = '\0';
    return dir;
}
