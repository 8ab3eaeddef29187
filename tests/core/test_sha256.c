/*
 * SHA-256 (core/sha256.c) keys the compile cache: a wrong digest loads another module's
 * code. The standard's vectors, on the SHA instructions and on the portable rounds, and
 * the two against each other on random data fed in random pieces.
 */
#include "harness.h"
#include "sha256.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void hex_of(const uint8_t d[32], char out[65])
{
    for (int i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void assert_digest(const void *data, size_t n, const char *want)
{
    uint8_t d[32];
    char hex[65];
    lat__sha256_once(data, n, d);
    hex_of(d, hex);
    ASSERT_MSG(strcmp(hex, want) == 0, "sha256 of %zu bytes: %s, want %s", n, hex, want);
}

static void fips_vectors(void)
{
    assert_digest("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    assert_digest("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    assert_digest(two, strlen(two),
                  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    size_t mn = 1000000;
    char *million = malloc(mn);
    ASSERT_TRUE(million != NULL);
    memset(million, 'a', mn);
    assert_digest(million, mn, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(million);
}

TEST(the_standards_vectors_on_the_sha_instructions_where_the_cpu_has_them)
{
    bool on = lat__sha256_accelerate(true);
    printf("  SHA instructions %s\n", on ? "in use" : "absent: the portable rounds");
    fips_vectors();
}

TEST(the_standards_vectors_on_the_portable_rounds)
{
    ASSERT_TRUE(!lat__sha256_accelerate(false));
    fips_vectors();
    lat__sha256_accelerate(true);
}

/* Every length around the block boundaries, and random pieces: the SHA instructions'
 * many-block path and the buffer's carry-over must agree with the portable rounds. */
TEST(both_ways_agree_on_random_data_in_random_pieces)
{
    srand(12345);
    size_t cap = 5000;
    uint8_t *data = malloc(cap);
    ASSERT_TRUE(data != NULL);
    for (size_t i = 0; i < cap; i++)
        data[i] = (uint8_t)rand();
    for (int trial = 0; trial < 400; trial++) {
        size_t n = trial < 200 ? (size_t)trial : (size_t)rand() % cap;
        uint8_t d[2][32];
        for (int way = 0; way < 2; way++) {
            lat__sha256_accelerate(way == 0);
            lat__sha256 s;
            lat__sha256_init(&s);
            srand((unsigned)trial);
            for (size_t at = 0; at < n;) {
                size_t piece = (size_t)rand() % 300;
                if (piece > n - at)
                    piece = n - at;
                lat__sha256_update(&s, data + at, piece);
                at += piece;
            }
            lat__sha256_final(&s, d[way]);
        }
        ASSERT_MSG(memcmp(d[0], d[1], 32) == 0, "trial %d: %zu bytes hash differently", trial, n);
    }
    lat__sha256_accelerate(true);
    free(data);
}
