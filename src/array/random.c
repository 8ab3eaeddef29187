/*
 * Random numbers: Philox4x32-10 (Salmon, Moraes, Dror, Shaw: "Parallel random numbers:
 * as easy as 1, 2, 3", SC 2011) written in the kernel dialect.
 *
 * The same bits on every backend: Philox is integer arithmetic (the high half of a
 * 32x32 product is taken from a 64-bit product, which both backends compute alike), and
 * the float transforms use only operations IEEE 754 rounds correctly (+, -, *, /, sqrt,
 * exact conversions), with constants written as bit patterns (no decimal parsing) and
 * the module compiled with --fmad=false so that the GPU does not fuse a multiply and an
 * add the emulator rounds separately. The logarithm, sine and cosine of Box-Muller are
 * polynomials of lattice's own, for the same reason: the libraries' differ in the
 * last bit.
 */
#include "internal.h"
#include "core/alloc.h"

#include "error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct lat_random {
    lat_context *ctx;
    uint32_t key[2];
    uint32_t counter[4];
    pthread_mutex_t lock;
};

lat_status lat_random_create(lat_context *ctx, uint64_t seed, lat_random **out)
{
    LAT__API();
    if (!out)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "out is NULL");
    *out = NULL;
    if (!ctx)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "ctx is NULL");
    lat_random *g = lat__calloc(1, sizeof *g);
    if (!g || pthread_mutex_init(&g->lock, NULL) != 0) {
        free(g);
        return lat__oom(ctx);
    }
    g->ctx = ctx;
    g->key[0] = (uint32_t)seed;
    g->key[1] = (uint32_t)(seed >> 32);
    *out = g;
    return LAT_OK;
}

void lat_random_destroy(lat_random *g)
{
    LAT__API();
    if (!g)
        return;
    pthread_mutex_destroy(&g->lock);
    free(g);
}

lat_status lat_random_get_counter(const lat_random *g, uint32_t counter[4])
{
    LAT__API();
    if (!g || !counter)
        return lat__error(g ? g->ctx : NULL, LAT_ERROR_INVALID_VALUE,
                          "%s is NULL", g ? "counter" : "g");
    memcpy(counter, g->counter, sizeof g->counter);
    return LAT_OK;
}

lat_status lat_random_set_counter(lat_random *g, const uint32_t counter[4])
{
    LAT__API();
    if (!g || !counter)
        return lat__error(g ? g->ctx : NULL, LAT_ERROR_INVALID_VALUE,
                          "%s is NULL", g ? "counter" : "g");
    memcpy(g->counter, counter, sizeof g->counter);
    return LAT_OK;
}

/* ---- the generated source ---------------------------------------------------------------- */

/* A float or double constant as an exact bit pattern. */
static void flit(lat__src *s, float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    lat__src_addf(s, "__uint_as_float(0x%08xu)", u);
}

static void dlit(lat__src *s, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    lat__src_addf(s, "__longlong_as_double(0x%016llxLL)", (unsigned long long)u);
}

static void lit(lat__src *s, bool dbl, double v)
{
    if (dbl)
        dlit(s, v);
    else
        flit(s, (float)v);
}

static const char philox_source[] =
    "__device__ void lat_philox(unsigned int c[4], unsigned int k0, unsigned int k1)\n"
    "{\n"
    "    for (int r = 0; r < 10; r++) {\n"
    "        const unsigned long long p0 = (unsigned long long)0xD2511F53u * c[0];\n"
    "        const unsigned long long p1 = (unsigned long long)0xCD9E8D57u * c[2];\n"
    "        const unsigned int hi0 = (unsigned int)(p0 >> 32), lo0 = (unsigned int)p0;\n"
    "        const unsigned int hi1 = (unsigned int)(p1 >> 32), lo1 = (unsigned int)p1;\n"
    "        c[0] = hi1 ^ c[1] ^ k0;\n"
    "        c[1] = lo1;\n"
    "        c[2] = hi0 ^ c[3] ^ k1;\n"
    "        c[3] = lo0;\n"
    "        k0 += 0x9E3779B9u;\n"
    "        k1 += 0xBB67AE85u;\n"
    "    }\n"
    "}\n"
    /* Block b of the call: the 128-bit counter base + b. */
    "__device__ void lat_block(unsigned int c[4], unsigned int b0, unsigned int b1,\n"
    "                          unsigned int b2, unsigned int b3, unsigned long long b,\n"
    "                          unsigned int k0, unsigned int k1)\n"
    "{\n"
    "    const unsigned long long lo = (((unsigned long long)b1 << 32) | b0) + b;\n"
    "    const unsigned long long hi = (((unsigned long long)b3 << 32) | b2) + (lo < b ? 1ull : 0ull);\n"
    "    c[0] = (unsigned int)lo;\n"
    "    c[1] = (unsigned int)(lo >> 32);\n"
    "    c[2] = (unsigned int)hi;\n"
    "    c[3] = (unsigned int)(hi >> 32);\n"
    "    lat_philox(c, k0, k1);\n"
    "}\n";

/* log(x) for x in (0, 1], normal: x = m 2^e with m in [sqrt(1/2), sqrt(2)), and
 * log(m) = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.172, by its series. */
static void log_source(lat__src *s, bool dbl)
{
    const char *T = dbl ? "double" : "float";
    int terms = dbl ? 11 : 4; /* 1/3 ... 1/(2 terms + 1): below an ulp of either type */
    if (dbl)
        lat__src_add(s,
            "__device__ double lat_log(double x)\n"
            "{\n"
            "    const long long bits = __double_as_longlong(x);\n"
            "    int e = (int)((bits >> 52) & 0x7ff) - 1023;\n"
            "    double m = __longlong_as_double((bits & 0x000fffffffffffffLL) | 0x3ff0000000000000LL);\n");
    else
        lat__src_add(s,
            "__device__ float lat_log(float x)\n"
            "{\n"
            "    const unsigned int bits = __float_as_uint(x);\n"
            "    int e = (int)((bits >> 23) & 0xffu) - 127;\n"
            "    float m = __uint_as_float((bits & 0x007fffffu) | 0x3f800000u);\n");
    lat__src_add(s, "    if (m > ");
    lit(s, dbl, sqrt(2.0));
    lat__src_addf(s, ") {\n        m = m * (%s)0.5;\n        e = e + 1;\n    }\n", T);
    lat__src_addf(s, "    const %s t = (m - (%s)1) / (m + (%s)1);\n", T, T, T);
    lat__src_addf(s, "    const %s z = t * t;\n    %s p = ", T, T);
    lit(s, dbl, 1.0 / (2 * terms + 1));
    lat__src_add(s, ";\n");
    for (int k = terms - 1; k >= 1; k--) {
        lat__src_add(s, "    p = p * z + ");
        lit(s, dbl, 1.0 / (2 * k + 1));
        lat__src_add(s, ";\n");
    }
    lat__src_addf(s, "    return (%s)e * ", T);
    lit(s, dbl, log(2.0));
    lat__src_addf(s, " + ((%s)2 * t + (%s)2 * t * (z * p));\n}\n", T, T);
}

/* sin and cos of 2 pi u for u in [0, 1): the quadrant from 4u rounded, the rest
 * (|r| <= 1/2 of a quadrant, |angle| <= pi/4) by Taylor polynomials. */
static void sincos_source(lat__src *s, bool dbl)
{
    const char *T = dbl ? "double" : "float";
    int sin_terms = dbl ? 10 : 5, cos_terms = dbl ? 11 : 6; /* x^(2k+1)/(2k+1)!, x^2k/(2k)! */
    lat__src_addf(s,
        "__device__ void lat_sincos2pi(%s u, %s *sn, %s *cs)\n"
        "{\n"
        "    const %s t = (%s)4 * u;\n"
        "    const int q = (int)(t + (%s)0.5);\n"
        "    const %s r = t - (%s)q;\n"
        "    const %s a = r * ",
        T, T, T, T, T, T, T, T, T);
    lit(s, dbl, M_PI / 2);
    lat__src_addf(s, ";\n    const %s z = a * a;\n    %s ps = ", T, T);
    /* sin a = a (1 - z/3! + z^2/5! ...), cos a = 1 - z/2! + z^2/4! ... by Horner. */
    double f = 1;
    for (int k = 1; k <= 2 * sin_terms - 1; k++)
        f *= k;
    lit(s, dbl, ((sin_terms - 1) % 2 ? -1.0 : 1.0) / f);
    lat__src_add(s, ";\n");
    for (int k = sin_terms - 2; k >= 0; k--) {
        double fk = 1;
        for (int j = 1; j <= 2 * k + 1; j++)
            fk *= j;
        lat__src_add(s, "    ps = ps * z + ");
        lit(s, dbl, (k % 2 ? -1.0 : 1.0) / fk);
        lat__src_add(s, ";\n");
    }
    lat__src_addf(s, "    %s pc = ", T);
    f = 1;
    for (int k = 1; k <= 2 * (cos_terms - 1); k++)
        f *= k;
    lit(s, dbl, ((cos_terms - 1) % 2 ? -1.0 : 1.0) / f);
    lat__src_add(s, ";\n");
    for (int k = cos_terms - 2; k >= 0; k--) {
        double fk = 1;
        for (int j = 1; j <= 2 * k; j++)
            fk *= j;
        lat__src_add(s, "    pc = pc * z + ");
        lit(s, dbl, (k % 2 ? -1.0 : 1.0) / fk);
        lat__src_add(s, ";\n");
    }
    lat__src_addf(s,
        "    const %s sa = a * ps;\n"
        "    switch (q & 3) {\n"
        "    case 0: *sn = sa; *cs = pc; break;\n"
        "    case 1: *sn = pc; *cs = -sa; break;\n"
        "    case 2: *sn = -sa; *cs = -pc; break;\n"
        "    default: *sn = -pc; *cs = sa; break;\n"
        "    }\n"
        "}\n",
        T);
}

typedef enum dist { DIST_BITS, DIST_UNIFORM, DIST_NORMAL } dist;

/* Uniform in [0, 1) from word(s) w (source text): float (w >> 8) 2^-24; double
 * ((w0 >> 5) 2^26 + (w1 >> 6)) 2^-53. */
static void uniform_expr(lat__src *s, bool dbl, const char *w0, const char *w1)
{
    if (dbl) {
        lat__src_addf(s, "((double)(%s >> 5) * 67108864.0 + (double)(%s >> 6)) * ", w0, w1);
        dlit(s, ldexp(1.0, -53));
    } else {
        lat__src_addf(s, "(float)(%s >> 8) * ", w0);
        flit(s, ldexpf(1.0f, -24));
    }
}

typedef struct rnd_recipe {
    dist d;
    lat_dtype t;
} rnd_recipe;

static void random_source(const void *arg, lat__src *s)
{
    const dist d = ((const rnd_recipe *)arg)->d;
    const lat_dtype t = ((const rnd_recipe *)arg)->t;
    bool dbl = t == LAT_DTYPE_FLOAT64;
    const char *T = lat_dtype_ctype(t);
    lat__src_add(s, philox_source);
    if (d == DIST_NORMAL) {
        log_source(s, dbl);
        sincos_source(s, dbl);
    }
    lat__src_addf(s,
        "__global__ void lat_random(%s *out, unsigned long long count, unsigned long long n,\n"
        "                           unsigned int b0, unsigned int b1, unsigned int b2,\n"
        "                           unsigned int b3, unsigned int k0, unsigned int k1%s)\n"
        "{\n",
        T, d == DIST_NORMAL ? (dbl ? ", double mean, double stddev" : ", float mean, float stddev")
                            : "");
    lat__src body = {0};
    lat__src_add(&body, "unsigned int c[4];\n"
                        "            lat_block(c, b0, b1, b2, b3, i, k0, k1);\n");
    int per = (d == DIST_BITS || !dbl) ? 4 : 2;
    lat__src_addf(&body, "            const unsigned long long j = i * %d;\n", per);
    if (d == DIST_BITS) {
        for (int k = 0; k < 4; k++)
            lat__src_addf(&body, "            if (j + %d < count) out[j + %d] = (%s)c[%d];\n", k,
                          k, T, k);
    } else if (d == DIST_UNIFORM) {
        for (int k = 0; k < per; k++) {
            char w0[16], w1[16];
            snprintf(w0, sizeof w0, "c[%d]", dbl ? 2 * k : k);
            snprintf(w1, sizeof w1, "c[%d]", dbl ? 2 * k + 1 : k);
            lat__src_addf(&body, "            if (j + %d < count) out[j + %d] = ", k, k);
            uniform_expr(&body, dbl, w0, w1);
            lat__src_add(&body, ";\n");
        }
    } else {
        /* Box-Muller on pairs: u1 in (0, 1] (1 - uniform), u2 in [0, 1). */
        int pairs = dbl ? 1 : 2;
        for (int p = 0; p < pairs; p++) {
            char w[4][16];
            for (int k = 0; k < 4; k++)
                snprintf(w[k], sizeof w[k], "c[%d]", dbl ? k : 2 * p + k % 2);
            lat__src_addf(&body, "            {\n                const %s u1 = (%s)1 - ", T, T);
            uniform_expr(&body, dbl, w[0], w[1]);
            lat__src_addf(&body, ";\n                const %s u2 = ", T);
            if (dbl)
                uniform_expr(&body, dbl, w[2], w[3]);
            else
                uniform_expr(&body, dbl, w[1], w[1]);
            lat__src_addf(&body,
                ";\n"
                "                const %s r = sqrt%s((%s)-2 * lat_log(u1));\n"
                "                %s sn, cs;\n"
                "                lat_sincos2pi(u2, &sn, &cs);\n"
                "                if (j + %d < count) out[j + %d] = mean + stddev * (r * cs);\n"
                "                if (j + %d < count) out[j + %d] = mean + stddev * (r * sn);\n"
                "            }\n",
                T, dbl ? "" : "f", T, T, 2 * p, 2 * p, 2 * p + 1, 2 * p + 1);
        }
    }
    if (body.oom) {
        s->oom = true;
        lat__src_free(&body);
        return;
    }
    lat__src_loop(s, body.text);
    lat__src_free(&body);
    lat__src_add(s, "}\n");
}

static lat_status get_kernel(lat_context *ctx, dist d, lat_dtype t,
                             lat__gen **g)
{
    static const char *const options[] = {"--fmad=false", NULL};
    char key[64];
    snprintf(key, sizeof key, "random %d %d", (int)d, (int)t);
    rnd_recipe r = {d, t};
    return lat__gen_get(ctx, key, random_source, &r, options,
                        (const char *const[]){"lat_random", NULL}, 0, g);
}

/* Fills out with distribution d, using ceil(size / per) blocks from the counter. */
static lat_status generate(lat_random *g, lat_array *out, dist d, double mean, double stddev)
{
    if (!g || !out)
        return lat__error(g ? g->ctx : NULL, LAT_ERROR_INVALID_VALUE, "%s is NULL",
                          g ? "out" : "g");
    if (out->ctx != g->ctx)
        return lat__error(g->ctx, LAT_ERROR_INVALID_VALUE,
                          "out belongs to another context than the generator");
    lat_dtype t = out->dtype;
    bool ok = d == DIST_BITS ? (t == LAT_DTYPE_UINT32 || t == LAT_DTYPE_INT32)
                             : (t == LAT_DTYPE_FLOAT32 || t == LAT_DTYPE_FLOAT64);
    if (!ok)
        return lat__error(g->ctx, LAT_ERROR_INVALID_VALUE, "out is %s; it must be %s",
                          lat_dtype_name(t),
                          d == DIST_BITS ? "uint32 or int32" : "float32 or float64");
    if (d == DIST_NORMAL && !(stddev >= 0 && isfinite(stddev) && isfinite(mean)))
        return lat__error(g->ctx, LAT_ERROR_INVALID_VALUE,
                          "mean %g and stddev %g: stddev must be >= 0, both finite", mean,
                          stddev);
    if (out->size == 0)
        return LAT_OK;
    lat__gen *gen;
    lat_status st = get_kernel(g->ctx, d, t, &gen);
    if (st != LAT_OK)
        return st;
    unsigned per = (d == DIST_BITS || t == LAT_DTYPE_FLOAT32) ? 4 : 2;
    unsigned long long count = out->size, n = (count + per - 1) / per;
    lat_deviceptr ptr = out->ptr;

    pthread_mutex_lock(&g->lock);
    uint32_t b[4], k[2] = {g->key[0], g->key[1]};
    memcpy(b, g->counter, sizeof b);
    /* Advance the 128-bit counter past the blocks this call uses. */
    uint64_t lo = ((uint64_t)g->counter[1] << 32 | g->counter[0]) + n;
    uint64_t hi = ((uint64_t)g->counter[3] << 32 | g->counter[2]) + (lo < n);
    g->counter[0] = (uint32_t)lo;
    g->counter[1] = (uint32_t)(lo >> 32);
    g->counter[2] = (uint32_t)hi;
    g->counter[3] = (uint32_t)(hi >> 32);
    pthread_mutex_unlock(&g->lock);

    float meanf = (float)mean, stddevf = (float)stddev;
    void *params[11] = {&ptr, &count, &n, &b[0], &b[1], &b[2], &b[3], &k[0], &k[1]};
    if (d == DIST_NORMAL) {
        params[9] = t == LAT_DTYPE_FLOAT32 ? (void *)&meanf : (void *)&mean;
        params[10] = t == LAT_DTYPE_FLOAT32 ? (void *)&stddevf : (void *)&stddev;
    }
    unsigned grid = lat__grid_for(g->ctx, (size_t)n, LAT__BLOCK);
    return lat_launch(gen->kernels[0],
                      &(lat_launch_desc){.grid = {grid, 1, 1}, .block = {LAT__BLOCK, 1, 1}},
                      params);
}

lat_status lat_random_bits(lat_random *g, lat_array *out)
{
    LAT__API();
    return generate(g, out, DIST_BITS, 0, 0);
}

lat_status lat_random_uniform(lat_random *g, lat_array *out)
{
    LAT__API();
    return generate(g, out, DIST_UNIFORM, 0, 0);
}

lat_status lat_random_normal(lat_random *g, lat_array *out, double mean, double stddev)
{
    LAT__API();
    return generate(g, out, DIST_NORMAL, mean, stddev);
}
