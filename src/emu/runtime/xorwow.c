/* XORWOW's jumps: see xorwow.h.
 *
 * A step of XORWOW on its five words (not the counter) is linear over GF(2): a 160x160 bit
 * matrix M, and n steps are M^n. offset_jump[k] = M^(4^k) is applied once per unit of n's
 * k-th base-4 digit; sequence_jump[k] = M^(2^67 * 4^k) likewise for subsequences (2^67
 * steps each, as curand's). The 64 matrices (3.2 KB each) are squared out once, the first
 * time a kernel asks: about 200 squarings, 20 ms. */
#include "xorwow.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

enum { WORDS = 5, BITS = 160, DIGITS = 32 };

/* row r: the image of the state whose only set bit is r (bit r % 32 of word r / 32). */
typedef struct matrix {
    uint32_t row[BITS][WORDS];
} matrix;

static matrix offset_jump[DIGITS], sequence_jump[DIGITS];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static void step(uint32_t v[WORDS])
{
    uint32_t t = v[0] ^ (v[0] >> 2);
    v[0] = v[1];
    v[1] = v[2];
    v[2] = v[3];
    v[3] = v[4];
    v[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1));
}

static void apply(const matrix *m, const uint32_t in[WORDS], uint32_t out[WORDS])
{
    uint32_t r[WORDS] = {0};
    for (int b = 0; b < BITS; b++)
        if (in[b / 32] >> (b % 32) & 1u)
            for (int w = 0; w < WORDS; w++)
                r[w] ^= m->row[b][w];
    memcpy(out, r, sizeof r);
}

/* out = m * m (m applied twice); out may not be m. */
static void square(const matrix *m, matrix *out)
{
    for (int b = 0; b < BITS; b++)
        apply(m, m->row[b], out->row[b]);
}

static void fourth_power(matrix *m)
{
    matrix tmp;
    square(m, &tmp);
    square(&tmp, m);
}

static void build_tables(void)
{
    matrix m;
    for (int b = 0; b < BITS; b++) {
        memset(m.row[b], 0, sizeof m.row[b]);
        m.row[b][b / 32] = 1u << (b % 32);
        step(m.row[b]);
    }
    offset_jump[0] = m;
    for (int k = 1; k < DIGITS; k++) {
        offset_jump[k] = offset_jump[k - 1];
        fourth_power(&offset_jump[k]);
    }
    /* M^(2^67): M^(4^33) squared once more. */
    matrix s = offset_jump[DIGITS - 1], t;
    fourth_power(&s);       /* 4^32 = 2^64 */
    square(&s, &t);         /* 2^65 */
    square(&t, &s);         /* 2^66 */
    square(&s, &t);         /* 2^67 */
    sequence_jump[0] = t;
    for (int k = 1; k < DIGITS; k++) {
        sequence_jump[k] = sequence_jump[k - 1];
        fourth_power(&sequence_jump[k]);
    }
}

static void jump(const matrix *table, uint32_t v[WORDS], unsigned long long n)
{
    for (int k = 0; n; k++, n >>= 2)
        for (unsigned d = 0; d < (unsigned)(n & 3u); d++)
            apply(&table[k], v, v);
}

void lat__emu_xorwow_skip(unsigned int *v, unsigned long long sequence,
                          unsigned long long offset)
{
    pthread_once(&tables_once, build_tables);
    uint32_t w[WORDS];
    memcpy(w, v, sizeof w);
    jump(sequence_jump, w, sequence);
    jump(offset_jump, w, offset);
    memcpy(v, w, sizeof w);
}
