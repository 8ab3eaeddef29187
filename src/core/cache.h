/*
 * The compile cache (lattice/driver.h, "The compile cache"). cache_key.c computes an
 * entry's key; cache.c keeps entries (opaque blobs) in memory and on disk and counts;
 * module_cache.c shares whole compiled modules for backends whose modules do not depend
 * on a context (the emulator). The CUDA backend stores its compiled images here.
 */
#ifndef LAT_CACHE_H
#define LAT_CACHE_H

#include "core.h"
#include "sha256.h"

typedef struct lat__cache_key {
    uint8_t bytes[32];
    char hex[65];
} lat__cache_key;

/* Makes a key of 32 bytes (its hex digits too). */
void lat__cache_key_set(lat__cache_key *key, const uint8_t bytes[32]);
/* Makes a key of a hash's digest; s is finished. */
void lat__cache_key_final(lat__sha256 *s, lat__cache_key *key);

/* Whether the cache is on (LATTICE_CACHE is not "0"/"off"/"no"/"false"). */
bool lat__cache_enabled(void);

/* One compile request: everything that decides a compile's output, for every backend. Its
 * digest (lat__compile_request_digest) is the key under which the one cache service (this
 * file: memory and disk) keeps what the compile made, whatever the backend. */
typedef struct lat__compile_request {
    /* The source: its text and name, defines, include directories, options, name
     * expressions, no_extern_c; the files it includes are found and read as the compilers
     * find them, and their contents are part of the request. */
    const lat__source *src;
    const char *backend;  /* "cuda", "emu" */
    const char *target;   /* the device or architecture ("--gpu-architecture=sm_90") */
    const char *compiler; /* the compiler's identity ("nvrtc 12.4") */
    const char *tier;     /* the rest the backend says decides the code (may be NULL):
                             its tier, checks, flags (the driver op module_key) */
} lat__compile_request;

/* The request's digest, with lattice's version and build ID. Returns false when the
 * cache is off or the source cannot be keyed (an #include of a macro, a file that cannot
 * be read, out of memory); a keyed request returns true. */
bool lat__compile_request_digest(const lat__compile_request *r, lat__cache_key *key);

/* Looks key up in memory, then on disk (when `disk`). On a hit returns true with a
 * malloc'd copy in *data / *size and *origin LAT_MODULE_MEMORY_CACHE or
 * LAT_MODULE_DISK_CACHE; the caller frees *data. Counts the hit (not the miss: a caller
 * that then compiles calls lat__cache_count_miss()). */
bool lat__cache_get(const lat__cache_key *key, bool disk, void **data, size_t *size,
                    int *origin);
/* Stores a blob in memory and (when `disk`) on disk, atomically. Failures to write are
 * not errors: the next process compiles again. */
void lat__cache_put(const lat__cache_key *key, bool disk, const void *data, size_t size);

/* The same, in memory and on disk, for entries that only lead to another (the emulator's
 * source index, its tier/opt.c): lat_cache_stats counts one hit or write per module, not
 * these. */
bool lat__cache_get_uncounted(const lat__cache_key *key, void **data, size_t *size);
void lat__cache_put_uncounted(const lat__cache_key *key, const void *data, size_t size);

/* The largest payload a disk entry may have (a compiled module is a few MiB at most): a
 * larger file is not read, and nothing larger is written. */
#define LAT__CACHE_ENTRY_MAX ((uint64_t)256 << 20)

typedef enum lat__cache_entry_status {
    LAT__ENTRY_OK,
    LAT__ENTRY_BAD,       /* not an entry of this key: not a regular file, a size out of
                             bounds, a wrong header, key or digest */
    LAT__ENTRY_UNTRUSTED, /* someone else's, or writable by others: not read */
    LAT__ENTRY_NO_MEMORY,
} lat__cache_entry_status;

/* Reads the disk entry open on fd (opened O_NOFOLLOW | O_NONBLOCK) for key: a regular
 * file of this user or root that no one else can write, whose size is within
 * LAT__CACHE_ENTRY_MAX (checked before anything is read), whose header names key and the
 * size, and whose digest (of the key and the payload) matches. On LAT__ENTRY_OK *data
 * (malloc'd) and *size are the payload. Reads at most the file's size; never blocks on
 * anything but a regular file's I/O. Thread safety: any thread. */
lat__cache_entry_status lat__cache_entry_read(int fd, const lat__cache_key *key, void **data,
                                              size_t *size);

/* False when the disk cache's directory exists and is not trusted (someone but this user
 * or root owns it or a directory above it, or can write it): lattice then compiles without
 * the disk cache, and says so once (docs/security.md). */
bool lat__cache_disk_trusted(void);

/* Counters (lat_cache_stats). */
void lat__cache_count_miss(void);
void lat__cache_count_uncacheable(void);
void lat__cache_count_memory_hit(void);

/* Whether mod is still one of ctx's modules, named `name` (a cache of modules that does not
 * see their destruction, src/array/kcache.c, asks before reusing one). Any thread. */
bool lat__module_alive(lat_context *ctx, const lat_module *mod, const char *name);

/* Drops the in-memory shared modules (module_cache.c), for lat_cache_clear(). */
void lat__module_cache_clear(void);

#endif
