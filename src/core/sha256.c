/* SHA-256 (FIPS 180-4), for the compile cache's keys and its entries' checksums: a
 * collision would load the wrong code, so a weak hash will not do. */
#include "sha256.h"

#include <stdatomic.h>
#include <string.h>

static const uint32_t k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2,
};

static uint32_t ror(uint32_t x, int n)
{
    return (x >> n) | (x << (32 - n));
}

/* The portable rounds, for n blocks. */
static void blocks_portable(uint32_t state[8], const uint8_t *p, size_t n)
{
    for (; n > 0; n--, p += 64) {
        uint32_t w[64];
        for (int i = 0; i < 16; i++)
            w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
                   (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
        for (int i = 16; i < 64; i++) {
            uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
            uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16] + s0 + w[i - 7] + s1;
        }
        uint32_t a = state[0], b = state[1], c = state[2], d = state[3], e = state[4],
                 f = state[5], g = state[6], h = state[7];
        for (int i = 0; i < 64; i++) {
            uint32_t t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + k[i] + w[i];
            uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
            h = g;
            g = f;
            f = e;
            e = d + t1;
            d = c;
            c = b;
            b = a;
            a = t1 + t2;
        }
        state[0] += a;
        state[1] += b;
        state[2] += c;
        state[3] += d;
        state[4] += e;
        state[5] += f;
        state[6] += g;
        state[7] += h;
    }
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define LAT_SHA_NI 1
#include <cpuid.h>
#include <immintrin.h>

/* The x86 SHA extensions: two rounds per instruction, about ten times the portable
 * rounds' speed. The cache keys a module by hashing its program, and on a hit that hash
 * was a sixth of the whole load. The instructions keep the state as two vectors, ABEF
 * and CDGH (A in the top lane), and take W+K two words at a time in the low lanes. */
__attribute__((target("sha,sse4.1,ssse3"))) static void blocks_sha_ni(uint32_t state[8],
                                                                    const uint8_t *p, size_t n)
{
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    __m128i dcba = _mm_loadu_si128((const __m128i *)&state[0]); /* lanes 0..3: A B C D */
    __m128i hgfe = _mm_loadu_si128((const __m128i *)&state[4]); /* E F G H */
    __m128i badc = _mm_shuffle_epi32(dcba, 0xB1);               /* B A D C */
    __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);               /* H G F E */
    __m128i abef = _mm_alignr_epi8(badc, efgh, 8);              /* F E B A */
    __m128i cdgh = _mm_blend_epi16(efgh, badc, 0xF0);           /* H G D C */
    for (; n > 0; n--, p += 64) {
        const __m128i abef0 = abef, cdgh0 = cdgh;
        __m128i w[4];
        for (int i = 0; i < 4; i++)
            w[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)), bswap);
        for (int i = 0; i < 16; i++) {
            if (i >= 4) {
                /* W[4i..4i+3] from the four groups before: w[i%4] is i-4's, then i-3's,
                 * i-2's, i-1's. */
                __m128i a = w[i & 3], b = w[(i + 1) & 3], c = w[(i + 2) & 3], d = w[(i + 3) & 3];
                __m128i t = _mm_add_epi32(_mm_sha256msg1_epu32(a, b), _mm_alignr_epi8(d, c, 4));
                w[i & 3] = _mm_sha256msg2_epu32(t, d);
            }
            __m128i wk = _mm_add_epi32(w[i & 3], _mm_loadu_si128((const __m128i *)&k[4 * i]));
            /* Two rounds make the old ABEF the new CDGH. */
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
            wk = _mm_shuffle_epi32(wk, 0x0E);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, wk);
        }
        abef = _mm_add_epi32(abef, abef0);
        cdgh = _mm_add_epi32(cdgh, cdgh0);
    }
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B); /* A B E F */
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1); /* G H C D */
    _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(dchg, feba, 8));
}

/* 1: the extensions are there (and SSSE3, SSE4.1), 0: not, -1: not looked yet. */
static _Atomic int sha_ni = -1;
static _Atomic bool sha_ni_allowed = true;

static bool use_sha_ni(void)
{
    int v = atomic_load_explicit(&sha_ni, memory_order_relaxed);
    if (v < 0) {
        unsigned a, b, c, d;
        v = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSSE3) && (c & bit_SSE4_1) &&
            __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA);
        atomic_store_explicit(&sha_ni, v, memory_order_relaxed);
    }
    return v && atomic_load_explicit(&sha_ni_allowed, memory_order_relaxed);
}
#endif

static void blocks(uint32_t state[8], const uint8_t *p, size_t n)
{
#ifdef LAT_SHA_NI
    if (use_sha_ni()) {
        blocks_sha_ni(state, p, n);
        return;
    }
#endif
    blocks_portable(state, p, n);
}

bool lat__sha256_accelerate(bool on)
{
#ifdef LAT_SHA_NI
    atomic_store_explicit(&sha_ni_allowed, on, memory_order_relaxed);
    return on && use_sha_ni();
#else
    (void)on;
    return false;
#endif
}

void lat__sha256_init(lat__sha256 *s)
{
    static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(s->h, h0, sizeof h0);
    s->len = 0;
    s->fill = 0;
}

void lat__sha256_update(lat__sha256 *s, const void *data, size_t n)
{
    const uint8_t *p = data;
    s->len += n;
    if (s->fill) {
        size_t take = 64 - s->fill < n ? 64 - s->fill : n;
        memcpy(s->buf + s->fill, p, take);
        s->fill += take;
        p += take;
        n -= take;
        if (s->fill < 64)
            return;
        blocks(s->h, s->buf, 1);
        s->fill = 0;
    }
    if (n >= 64) {
        blocks(s->h, p, n / 64);
        p += n / 64 * 64;
        n %= 64;
    }
    memcpy(s->buf, p, n);
    s->fill = n;
}

void lat__sha256_final(lat__sha256 *s, uint8_t out[32])
{
    uint64_t bits = s->len * 8;
    uint8_t pad = 0x80;
    lat__sha256_update(s, &pad, 1);
    uint8_t zero = 0;
    while (s->fill != 56)
        lat__sha256_update(s, &zero, 1);
    uint8_t len[8];
    for (int i = 0; i < 8; i++)
        len[i] = (uint8_t)(bits >> (56 - 8 * i));
    lat__sha256_update(s, len, 8);
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (uint8_t)(s->h[i] >> 24);
        out[4 * i + 1] = (uint8_t)(s->h[i] >> 16);
        out[4 * i + 2] = (uint8_t)(s->h[i] >> 8);
        out[4 * i + 3] = (uint8_t)s->h[i];
    }
}

void lat__sha256_once(const void *data, size_t n, uint8_t out[32])
{
    lat__sha256 s;
    lat__sha256_init(&s);
    lat__sha256_update(&s, data, n);
    lat__sha256_final(&s, out);
}
