/*
 * The compile cache's storage: blobs keyed by lat__cache_key, in memory for the process
 * and on disk for the next one.
 *
 * A disk entry is one file, <dir>/<64 hex digits>.lcc:
 *     "LATCACHE" (8 bytes), format version (u32), 0 (u32), the key (32 bytes),
 *     the payload's size (u64), the payload's checksum (32 bytes), the payload.
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
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { FORMAT_VERSION = 2, HEADER_SIZE = 8 + 4 + 4 + 32 + 8 + 32 };

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

static void checksum(const uint8_t *p, size_t n, uint8_t out[32])
{
    static const uint64_t m1 = 0x9e3779b185ebca87u, m2 = 0xc2b2ae3d27d4eb4fu;
    uint64_t lane[4] = {m1 + m2, m2, 0, (uint64_t)0 - m1};
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

static bool entry_path(const lat__cache_key *key, char *path, size_t size)
{
    char dir[4096];
    if (!directory(dir, sizeof dir))
        return false;
    return (size_t)snprintf(path, size, "%s/%s.lcc", dir, key->hex) < size;
}

/* Reads and checks an entry; false when absent; corrupt entries are removed. */
static bool disk_get(const lat__cache_key *key, void **data, size_t *size)
{
    char path[4200];
    if (!entry_path(key, path, sizeof path))
        return false;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    struct stat st;
    uint8_t *buf = NULL;
    bool ok = fstat(fd, &st) == 0 && st.st_size >= HEADER_SIZE &&
              (uint64_t)st.st_size < ((uint64_t)1 << 40) &&
              (buf = lat__malloc((size_t)st.st_size)) != NULL;
    size_t total = ok ? (size_t)st.st_size : 0, got = 0;
    while (ok && got < total) {
        ssize_t r = read(fd, buf + got, total - got);
        if (r <= 0) {
            ok = false;
            break;
        }
        got += (size_t)r;
    }
    close(fd);
    if (ok) {
        uint8_t sum[32];
        uint64_t psize = get_u64(buf + 48);
        ok = memcmp(buf, "LATCACHE", 8) == 0 && get_u32(buf + 8) == FORMAT_VERSION &&
             memcmp(buf + 16, key->bytes, 32) == 0 && psize == total - HEADER_SIZE;
        if (ok) {
            checksum(buf + HEADER_SIZE, (size_t)psize, sum);
            ok = memcmp(sum, buf + 56, 32) == 0;
        }
        if (ok) {
            memmove(buf, buf + HEADER_SIZE, (size_t)psize);
            *data = buf;
            *size = (size_t)psize;
            return true;
        }
    }
    free(buf);
    /* Unreadable or wrong: not worth keeping. A concurrent writer's rename replaces the
     * file atomically, so this never deletes a good entry mid-write. */
    if (unlink(path) == 0 || errno != ENOENT)
        atomic_fetch_add(&n_corrupt, 1);
    return false;
}

static void disk_put(const lat__cache_key *key, const void *data, size_t size, bool counted)
{
    char dir[4096], path[4200], tmp[4300];
    if (!directory(dir, sizeof dir) || !make_dirs(dir) || !entry_path(key, path, sizeof path))
        return;
    static _Atomic unsigned counter;
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%u", path, (long)getpid(),
             atomic_fetch_add(&counter, 1));
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    uint8_t header[HEADER_SIZE];
    memcpy(header, "LATCACHE", 8);
    put_u32(header + 8, FORMAT_VERSION);
    put_u32(header + 12, 0);
    memcpy(header + 16, key->bytes, 32);
    put_u64(header + 48, size);
    checksum(data, size, header + 56);
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
    if (ok && rename(tmp, path) == 0) {
        if (counted)
            atomic_fetch_add(&n_disk_writes, 1);
    } else
        unlink(tmp);
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
    if (!out)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "lat_cache_get_stats: out is NULL");
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
    static _Thread_local char dir[4096];
    if (!lat__cache_enabled() || !directory(dir, sizeof dir))
        dir[0] = '\0';
    return dir;
}
