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

/* Computes the key of `src` compiled by `compiler` ("nvrtc 12.4") for `target`
 * ("--gpu-architecture=sm_90"). `extra` (may be NULL) is anything else that changes the
 * output. Reads every file the source includes (recursively). Returns false when the
 * cache is off or the source cannot be keyed (an #include of a macro, a file that cannot
 * be read, out of memory); a keyed source returns true. */
bool lat__cache_key_for(const lat__source *src, const char *backend, const char *target,
                        const char *compiler, const char *extra, lat__cache_key *key);

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

/* Counters (lat_cache_stats). */
void lat__cache_count_miss(void);
void lat__cache_count_uncacheable(void);
void lat__cache_count_memory_hit(void);

/* Drops the in-memory shared modules (module_cache.c), for lat_cache_clear(). */
void lat__module_cache_clear(void);

#endif
