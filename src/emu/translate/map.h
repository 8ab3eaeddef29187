/* A small hash map from names (pointer and length, not copied: the caller keeps them
 * alive) to integers, for the translator's macro and function tables. */
#ifndef LAT_EMU_MAP_H
#define LAT_EMU_MAP_H

#include <stdbool.h>
#include <stddef.h>

typedef struct lat__map_slot {
    const char *key; /* NULL: empty */
    size_t len;
    size_t value;
} lat__map_slot;

typedef struct lat__map {
    lat__map_slot *slots;
    size_t cap, count;
} lat__map;

/* Sets key's value. Returns 0, or -1 when out of memory. */
int lat__map_put(lat__map *m, const char *key, size_t len, size_t value);
/* Whether key is present; its value in *value. */
bool lat__map_get(const lat__map *m, const char *key, size_t len, size_t *value);
void lat__map_free(lat__map *m);

#endif
