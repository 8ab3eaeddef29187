/*
 * CUDA's atomic functions for kernel code (TinyCC has no atomic builtins): host
 * functions, atomic across the OpenMP threads that run different blocks. Each returns
 * the old value, as CUDA's do. CUDA's atomics are relaxed; __threadfence is a full
 * fence. Bound by name in runtime.c; the prelude picks one by the pointer's type.
 */
#include "atomics.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define RLX __ATOMIC_RELAXED

/* add, sub, exch, and, or, xor: the builtins do them. */
#define SIMPLE(T, s)                                                                      \
    static T add_##s(T *p, T v) { return __atomic_fetch_add(p, v, RLX); }                 \
    static T sub_##s(T *p, T v) { return __atomic_fetch_sub(p, v, RLX); }                 \
    static T exch_##s(T *p, T v) { return __atomic_exchange_n(p, v, RLX); }               \
    static T and_##s(T *p, T v) { return __atomic_fetch_and(p, v, RLX); }                 \
    static T or_##s(T *p, T v) { return __atomic_fetch_or(p, v, RLX); }                   \
    static T xor_##s(T *p, T v) { return __atomic_fetch_xor(p, v, RLX); }                 \
    static T cas_##s(T *p, T cmp, T v)                                                    \
    {                                                                                     \
        __atomic_compare_exchange_n(p, &cmp, v, false, RLX, RLX);                         \
        return cmp;                                                                       \
    }                                                                                     \
    static T min_##s(T *p, T v)                                                           \
    {                                                                                     \
        T old = __atomic_load_n(p, RLX);                                                  \
        while (v < old && !__atomic_compare_exchange_n(p, &old, v, true, RLX, RLX)) {      \
        }                                                                                 \
        return old;                                                                       \
    }                                                                                     \
    static T max_##s(T *p, T v)                                                           \
    {                                                                                     \
        T old = __atomic_load_n(p, RLX);                                                  \
        while (v > old && !__atomic_compare_exchange_n(p, &old, v, true, RLX, RLX)) {      \
        }                                                                                 \
        return old;                                                                       \
    }

SIMPLE(int, i)
SIMPLE(unsigned, u)
SIMPLE(unsigned long long, ull)
SIMPLE(long long, ll)

/* Floating point: a compare-and-swap loop on the bits. */
static float add_f(float *p, float v)
{
    uint32_t *q = (uint32_t *)(void *)p;
    uint32_t old = __atomic_load_n(q, RLX), want;
    float f;
    do {
        memcpy(&f, &old, sizeof f);
        f += v;
        memcpy(&want, &f, sizeof want);
    } while (!__atomic_compare_exchange_n(q, &old, want, true, RLX, RLX));
    memcpy(&f, &old, sizeof f);
    return f;
}

static double add_d(double *p, double v)
{
    uint64_t *q = (uint64_t *)(void *)p;
    uint64_t old = __atomic_load_n(q, RLX), want;
    double f;
    do {
        memcpy(&f, &old, sizeof f);
        f += v;
        memcpy(&want, &f, sizeof want);
    } while (!__atomic_compare_exchange_n(q, &old, want, true, RLX, RLX));
    memcpy(&f, &old, sizeof f);
    return f;
}

static float exch_f(float *p, float v)
{
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    bits = __atomic_exchange_n((uint32_t *)(void *)p, bits, RLX);
    memcpy(&v, &bits, sizeof v);
    return v;
}

static double exch_d(double *p, double v)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    bits = __atomic_exchange_n((uint64_t *)(void *)p, bits, RLX);
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* atomicInc: ((old >= v) ? 0 : old + 1); atomicDec: ((old == 0 || old > v) ? v : old - 1). */
static unsigned inc_u(unsigned *p, unsigned v)
{
    unsigned old = __atomic_load_n(p, RLX);
    while (!__atomic_compare_exchange_n(p, &old, old >= v ? 0u : old + 1u, true, RLX, RLX)) {
    }
    return old;
}

static unsigned dec_u(unsigned *p, unsigned v)
{
    unsigned old = __atomic_load_n(p, RLX);
    while (!__atomic_compare_exchange_n(p, &old, old == 0 || old > v ? v : old - 1u, true, RLX,
                                        RLX)) {
    }
    return old;
}

static unsigned short cas_us(unsigned short *p, unsigned short cmp, unsigned short v)
{
    __atomic_compare_exchange_n(p, &cmp, v, false, RLX, RLX);
    return cmp;
}

static void fence(void)
{
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

typedef void (*fn)(void);
#define A(name, impl) {name, (fn)impl}
#define ALL(s)                                                                            \
    A("__lat_atomic_add_" #s, add_##s), A("__lat_atomic_sub_" #s, sub_##s),               \
        A("__lat_atomic_exch_" #s, exch_##s), A("__lat_atomic_and_" #s, and_##s),         \
        A("__lat_atomic_or_" #s, or_##s), A("__lat_atomic_xor_" #s, xor_##s),             \
        A("__lat_atomic_cas_" #s, cas_##s), A("__lat_atomic_min_" #s, min_##s),           \
        A("__lat_atomic_max_" #s, max_##s)

static const lat__emu_symbol symbols[] = {
    ALL(i), ALL(u), ALL(ull), ALL(ll),
    A("__lat_atomic_add_f", add_f), A("__lat_atomic_add_d", add_d),
    A("__lat_atomic_exch_f", exch_f), A("__lat_atomic_exch_d", exch_d),
    A("__lat_atomic_inc_u", inc_u), A("__lat_atomic_dec_u", dec_u),
    A("__lat_atomic_cas_us", cas_us),
    A("__lat_fence", fence),
};

const lat__emu_symbol *lat__emu_atomic_symbols(size_t *count)
{
    *count = sizeof symbols / sizeof symbols[0];
    return symbols;
}
