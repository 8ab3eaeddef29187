/* The translator's hash map: open addressing, FNV-1a, grown at half full. */
#include "map.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static size_t hash(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211u;
    return (size_t)h;
}

static lat__map_slot *find(const lat__map *m, const char *key, size_t len)
{
    size_t mask = m->cap - 1;
    for (size_t i = hash(key, len) & mask;; i = (i + 1) & mask) {
        lat__map_slot *s = &m->slots[i];
        if (!s->key || (s->len == len && memcmp(s->key, key, len) == 0))
            return s;
    }
}

static int grow(lat__map *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    lat__map_slot *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return -1;
    lat__map old = *m;
    m->slots = slots;
    m->cap = cap;
    for (size_t i = 0; i < old.cap; i++)
        if (old.slots[i].key)
            *find(m, old.slots[i].key, old.slots[i].len) = old.slots[i];
    free(old.slots);
    return 0;
}

int lat__map_put(lat__map *m, const char *key, size_t len, size_t value)
{
    if ((m->count + 1) * 2 > m->cap && grow(m) != 0)
        return -1;
    lat__map_slot *s = find(m, key, len);
    if (!s->key) {
        s->key = key;
        s->len = len;
        m->count++;
    }
    s->value = value;
    return 0;
}

bool lat__map_get(const lat__map *m, const char *key, size_t len, size_t *value)
{
    if (!m->cap)
        return false;
    lat__map_slot *s = find(m, key, len);
    if (s->key && value)
        *value = s->value;
    return s->key != NULL;
}

void lat__map_free(lat__map *m)
{
    free(m->slots);
    memset(m, 0, sizeof *m);
}
