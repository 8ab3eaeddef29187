#ifndef LAT_SHA256_H
#define LAT_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct lat__sha256 {
    uint32_t h[8];
    uint64_t len;
    uint8_t buf[64];
    size_t fill;
} lat__sha256;

void lat__sha256_init(lat__sha256 *s);
void lat__sha256_update(lat__sha256 *s, const void *data, size_t n);
void lat__sha256_final(lat__sha256 *s, uint8_t out[32]);
/* Whether the CPU's SHA instructions are used where it has them (on by default; the
 * tests compare both ways). Returns whether they are in use now. Any thread. */
bool lat__sha256_accelerate(bool on);
/* One call for one buffer. */
void lat__sha256_once(const void *data, size_t n, uint8_t out[32]);

#endif
