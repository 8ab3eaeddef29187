/* Philox4x32-10 random numbers: the generator's words against the known-answer vectors
 * of the Random123 paper (computed here on the host), uniform and normal values
 * bit-for-bit against a host replica of the kernels' arithmetic (which is what makes the
 * emulator and a GPU agree), the counter, and the distributions' moments. */
#include "array_check.h"

/* ---- the host reference ----------------------------------------------------------------- */

static void philox(uint32_t c[4], uint32_t k0, uint32_t k1)
{
    for (int r = 0; r < 10; r++) {
        uint64_t p0 = (uint64_t)0xD2511F53u * c[0], p1 = (uint64_t)0xCD9E8D57u * c[2];
        uint32_t n0 = (uint32_t)(p1 >> 32) ^ c[1] ^ k0, n1 = (uint32_t)p1;
        uint32_t n2 = (uint32_t)(p0 >> 32) ^ c[3] ^ k1, n3 = (uint32_t)p0;
        c[0] = n0;
        c[1] = n1;
        c[2] = n2;
        c[3] = n3;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
}

/* Block b after the counter `base`, under key (k0, k1). */
static void block(const uint32_t base[4], uint64_t b, uint32_t k0, uint32_t k1, uint32_t out[4])
{
    uint64_t lo = ((uint64_t)base[1] << 32 | base[0]) + b;
    uint64_t hi = ((uint64_t)base[3] << 32 | base[2]) + (lo < b);
    out[0] = (uint32_t)lo;
    out[1] = (uint32_t)(lo >> 32);
    out[2] = (uint32_t)hi;
    out[3] = (uint32_t)(hi >> 32);
    philox(out, k0, k1);
}

TEST(the_host_philox_gives_the_random123_known_answers)
{
    static const struct {
        uint32_t ctr[4], key[2], want[4];
    } kat[] = {
        {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
        {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff},
         {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
        {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0},
         {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
    };
    for (int k = 0; k < 3; k++) {
        uint32_t c[4];
        memcpy(c, kat[k].ctr, sizeof c);
        philox(c, kat[k].key[0], kat[k].key[1]);
        for (int w = 0; w < 4; w++)
            ASSERT_U64_EQ(c[w], kat[k].want[w]);
    }
}

TEST(the_device_gives_the_known_answers)
{
    lat_context *ctx = t_context();
    static const struct {
        uint32_t ctr[4];
        uint64_t seed;
        uint32_t want[4];
    } kat[] = {
        {{0, 0, 0, 0}, 0, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
        {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, 0xffffffffffffffffull,
         {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
        {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, 0x299f31d0a4093822ull,
         {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
    };
    for (int k = 0; k < 3; k++) {
        lat_random *g;
        ASSERT_OK(lat_random_create(ctx, kat[k].seed, &g));
        ASSERT_OK(lat_random_set_counter(g, kat[k].ctr));
        lat_array *a;
        ASSERT_OK(lat_array_empty(ctx, LAT_DTYPE_UINT32, 1, (size_t[]){4}, &a));
        ASSERT_OK(lat_random_bits(g, a));
        uint32_t got[4];
        ASSERT_OK(lat_array_get(a, got, sizeof got));
        for (int w = 0; w < 4; w++)
            ASSERT_MSG(got[w] == kat[k].want[w], "vector %d word %d: %08x, want %08x", k, w,
                       got[w], kat[k].want[w]);
        lat_array_destroy(a);
        lat_random_destroy(g);
    }
}

TEST(bits_follow_the_counter_and_calls_continue_each_other)
{
    lat_context *ctx = t_context();
    uint64_t seed = 0x0123456789abcdefull;
    uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
    /* Start just below a carry into the counter's upper half. */
    const uint32_t base[4] = {0xfffffff0u, 0xffffffffu, 7, 0};
    lat_random *g;
    ASSERT_OK(lat_random_create(ctx, seed, &g));
    ASSERT_OK(lat_random_set_counter(g, base));
    size_t n1 = 4001, n2 = 999; /* 4001 words use 1001 blocks */
    lat_array *a, *b;
    ASSERT_OK(lat_array_empty(ctx, LAT_DTYPE_UINT32, 1, &n1, &a));
    ASSERT_OK(lat_array_empty(ctx, LAT_DTYPE_INT32, 1, &n2, &b));
    ASSERT_OK(lat_random_bits(g, a));
    ASSERT_OK(lat_random_bits(g, b));
    uint32_t ctr[4];
    ASSERT_OK(lat_random_get_counter(g, ctr));
    ASSERT_U64_EQ(ctr[0], (uint32_t)(0xfffffff0u + 1001 + 250));
    ASSERT_U64_EQ(ctr[1], 0);
    ASSERT_U64_EQ(ctr[2], 8);
    uint32_t *want = t_calloc(n1, sizeof *want);
    for (size_t j = 0; j < n1; j++) {
        uint32_t w[4];
        block(base, j / 4, k0, k1, w);
        want[j] = w[j % 4];
    }
    check_array(a, want, 0, "bits");
    for (size_t j = 0; j < n2; j++) {
        uint32_t w[4];
        block(base, 1001 + j / 4, k0, k1, w);
        want[j] = w[j % 4];
    }
    check_array(b, want, 0, "bits after the first call");
    lat_array_destroy(a);
    lat_array_destroy(b);
    lat_random_destroy(g);
}

/* ---- a host replica of the kernels' float arithmetic -------------------------------------- */

static float f_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static double d_from_bits(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static float uniform_f(uint32_t w)
{
    return (float)(w >> 8) * ldexpf(1.0f, -24);
}

static double uniform_d(uint32_t w0, uint32_t w1)
{
    return ((double)(w0 >> 5) * 67108864.0 + (double)(w1 >> 6)) * ldexp(1.0, -53);
}

/* The same polynomials, constants and operation order as random.c generates. */
static float log_f(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, sizeof bits);
    int e = (int)((bits >> 23) & 0xffu) - 127;
    float m = f_from_bits((bits & 0x007fffffu) | 0x3f800000u);
    if (m > (float)sqrt(2.0)) {
        m = m * (float)0.5;
        e = e + 1;
    }
    const float t = (m - (float)1) / (m + (float)1);
    const float z = t * t;
    float p = (float)(1.0 / 9);
    for (int k = 3; k >= 1; k--)
        p = p * z + (float)(1.0 / (2 * k + 1));
    return (float)e * (float)log(2.0) + ((float)2 * t + (float)2 * t * (z * p));
}

static double log_d(double x)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    int e = (int)((bits >> 52) & 0x7ff) - 1023;
    double m = d_from_bits((bits & 0x000fffffffffffffull) | 0x3ff0000000000000ull);
    if (m > sqrt(2.0)) {
        m = m * 0.5;
        e = e + 1;
    }
    const double t = (m - 1) / (m + 1);
    const double z = t * t;
    double p = 1.0 / 23;
    for (int k = 10; k >= 1; k--)
        p = p * z + 1.0 / (2 * k + 1);
    return (double)e * log(2.0) + (2 * t + 2 * t * (z * p));
}

static double factorial(int n)
{
    double f = 1;
    for (int k = 1; k <= n; k++)
        f *= k;
    return f;
}

#define SINCOS(NAME, T, SIN_TERMS, COS_TERMS, CVT)                                        \
    static void NAME(T u, T *sn, T *cs)                                                    \
    {                                                                                      \
        const T t = (T)4 * u;                                                              \
        const int q = (int)(t + (T)0.5);                                                   \
        const T r = t - (T)q;                                                              \
        const T a = r * CVT(M_PI / 2);                                                     \
        const T z = a * a;                                                                 \
        T ps = CVT(((SIN_TERMS - 1) % 2 ? -1.0 : 1.0) / factorial(2 * SIN_TERMS - 1));     \
        for (int k = SIN_TERMS - 2; k >= 0; k--)                                           \
            ps = ps * z + CVT((k % 2 ? -1.0 : 1.0) / factorial(2 * k + 1));                \
        T pc = CVT(((COS_TERMS - 1) % 2 ? -1.0 : 1.0) / factorial(2 * (COS_TERMS - 1)));   \
        for (int k = COS_TERMS - 2; k >= 0; k--)                                           \
            pc = pc * z + CVT((k % 2 ? -1.0 : 1.0) / factorial(2 * k));                    \
        const T sa = a * ps;                                                               \
        switch (q & 3) {                                                                   \
        case 0: *sn = sa; *cs = pc; break;                                                 \
        case 1: *sn = pc; *cs = -sa; break;                                                \
        case 2: *sn = -sa; *cs = -pc; break;                                               \
        default: *sn = -pc; *cs = sa; break;                                               \
        }                                                                                  \
    }
#define TO_F(x) ((float)(x))
#define TO_D(x) ((double)(x))
SINCOS(sincos_f, float, 5, 6, TO_F)
SINCOS(sincos_d, double, 10, 11, TO_D)

/* ---- uniform and normal ------------------------------------------------------------------ */

static lat_array *generate(lat_context *ctx, lat_dtype t, size_t n, uint64_t seed, int normal,
                           double mean, double stddev)
{
    lat_random *g;
    ASSERT_OK(lat_random_create(ctx, seed, &g));
    lat_array *a;
    ASSERT_OK(lat_array_empty(ctx, t, 1, &n, &a));
    if (normal)
        ASSERT_OK(lat_random_normal(g, a, mean, stddev));
    else
        ASSERT_OK(lat_random_uniform(g, a));
    lat_random_destroy(g);
    return a;
}

TEST(uniform_values_are_the_same_bits_as_the_host_computes)
{
    lat_context *ctx = t_context();
    uint64_t seed = 42;
    for (int dbl = 0; dbl < 2; dbl++) {
        lat_dtype t = dbl ? LAT_DTYPE_FLOAT64 : LAT_DTYPE_FLOAT32;
        size_t n = 10007;
        lat_array *a = generate(ctx, t, n, seed, 0, 0, 0);
        void *want = t_calloc(n, lat_dtype_size(t));
        const uint32_t zero[4] = {0, 0, 0, 0};
        for (size_t j = 0; j < n; j++) {
            uint32_t w[4];
            block(zero, dbl ? j / 2 : j / 4, (uint32_t)seed, 0, w);
            if (dbl)
                ((double *)want)[j] = uniform_d(w[2 * (j % 2)], w[2 * (j % 2) + 1]);
            else
                ((float *)want)[j] = uniform_f(w[j % 4]);
        }
        check_array(a, want, 0, dbl ? "uniform float64" : "uniform float32");
        lat_array_destroy(a);
    }
}

TEST(normal_values_are_the_same_bits_as_the_host_computes)
{
    lat_context *ctx = t_context();
    uint64_t seed = 0xfeedfacecafebeefull;
    uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
    const uint32_t zero[4] = {0, 0, 0, 0};
    size_t n = 4099;
    lat_array *a = generate(ctx, LAT_DTYPE_FLOAT32, n, seed, 1, 1.5, 2.0);
    float *wf = t_calloc(n, sizeof *wf);
    for (size_t j = 0; j < n; j += 2) {
        uint32_t w[4];
        block(zero, j / 4, k0, k1, w);
        int p = (int)(j % 4) / 2;
        const float u1 = (float)1 - uniform_f(w[2 * p]);
        const float u2 = uniform_f(w[2 * p + 1]);
        const float r = sqrtf((float)-2 * log_f(u1));
        float sn, cs;
        sincos_f(u2, &sn, &cs);
        wf[j] = 1.5f + 2.0f * (r * cs);
        if (j + 1 < n)
            wf[j + 1] = 1.5f + 2.0f * (r * sn);
    }
    check_array(a, wf, 0, "normal float32");
    lat_array_destroy(a);

    a = generate(ctx, LAT_DTYPE_FLOAT64, n, seed, 1, -3, 0.5);
    double *wd = t_calloc(n, sizeof *wd);
    for (size_t j = 0; j < n; j += 2) {
        uint32_t w[4];
        block(zero, j / 2, k0, k1, w);
        const double u1 = 1 - uniform_d(w[0], w[1]);
        const double u2 = uniform_d(w[2], w[3]);
        const double r = sqrt(-2 * log_d(u1));
        double sn, cs;
        sincos_d(u2, &sn, &cs);
        wd[j] = -3 + 0.5 * (r * cs);
        if (j + 1 < n)
            wd[j + 1] = -3 + 0.5 * (r * sn);
    }
    check_array(a, wd, 0, "normal float64");
    lat_array_destroy(a);
}

TEST(the_polynomials_are_accurate)
{
    /* The replica (and so the kernels) against the C library. */
    for (int i = 1; i <= 1000; i++) {
        double u = i / 1000.0;
        ASSERT_CLOSE(log_f((float)u), log((float)u), 3e-7, 3e-7);
        ASSERT_CLOSE(log_d(u), log(u), 1e-15, 1e-15);
        float sf, cf;
        double sd, cd;
        sincos_f((float)u, &sf, &cf);
        sincos_d(u, &sd, &cd);
        ASSERT_CLOSE(sf, sin(2 * M_PI * (float)u), 0, 1e-6);
        ASSERT_CLOSE(cf, cos(2 * M_PI * (float)u), 0, 1e-6);
        ASSERT_CLOSE(sd, sin(2 * M_PI * u), 0, 1e-15);
        ASSERT_CLOSE(cd, cos(2 * M_PI * u), 0, 1e-15);
    }
}

TEST(moments_of_a_million_values)
{
    lat_context *ctx = t_context();
    size_t n = 1 << 20;
    for (int normal = 0; normal < 2; normal++)
        for (int dbl = 0; dbl < 2; dbl++) {
            lat_dtype t = dbl ? LAT_DTYPE_FLOAT64 : LAT_DTYPE_FLOAT32;
            lat_array *a = generate(ctx, t, n, 7 + (uint64_t)dbl, normal, 0, 1);
            void *h = t_calloc(n, lat_dtype_size(t));
            ASSERT_OK(lat_array_get(a, h, n * lat_dtype_size(t)));
            double s = 0, s2 = 0, lo = 1e300, hi = -1e300;
            for (size_t i = 0; i < n; i++) {
                double v = get_elem(t, h, i).value.f;
                s += v;
                s2 += v * v;
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
            }
            double mean = s / (double)n, var = s2 / (double)n - mean * mean;
            if (normal) {
                ASSERT_CLOSE(mean, 0, 0, 0.005);
                ASSERT_CLOSE(var, 1, 0.01, 0);
            } else {
                ASSERT_CLOSE(mean, 0.5, 0, 0.002);
                ASSERT_CLOSE(var, 1.0 / 12, 0.01, 0);
                ASSERT_TRUE(lo >= 0 && hi < 1);
            }
            lat_array_destroy(a);
        }
}

TEST(one_element_and_empty_arrays)
{
    lat_context *ctx = t_context();
    lat_random *g;
    ASSERT_OK(lat_random_create(ctx, 1, &g));
    lat_array *one, *none;
    ASSERT_OK(lat_array_empty(ctx, LAT_DTYPE_FLOAT64, 0, NULL, &one));
    ASSERT_OK(lat_array_empty(ctx, LAT_DTYPE_FLOAT32, 1, (size_t[]){0}, &none));
    ASSERT_OK(lat_random_normal(g, one, 0, 1));
    ASSERT_OK(lat_random_uniform(g, none));
    uint32_t ctr[4];
    ASSERT_OK(lat_random_get_counter(g, ctr));
    ASSERT_U64_EQ(ctr[0], 1); /* one block for the one value; none for none */
    lat_scalar s;
    ASSERT_OK(lat_array_get_scalar(one, &s));
    ASSERT_TRUE(isfinite(s.value.f));
    lat_array_destroy(one);
    lat_array_destroy(none);
    lat_random_destroy(g);
}

TEST(wrong_dtypes_and_arguments)
{
    lat_context *ctx = t_context();
    lat_random *g;
    ASSERT_OK(lat_random_create(ctx, 1, &g));
    lat_array *i, *f;
    ASSERT_OK(lat_array_empty(ctx, LAT_DTYPE_INT16, 1, (size_t[]){4}, &i));
    ASSERT_OK(lat_array_empty(ctx, LAT_DTYPE_FLOAT32, 1, (size_t[]){4}, &f));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_random_uniform(g, i));
    ASSERT_CONTAINS(lat_last_error(), "int16");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_random_bits(g, f));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_random_normal(g, f, 0, -1));
    ASSERT_CONTAINS(lat_last_error(), "stddev");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_random_uniform(NULL, f));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_random_create(ctx, 1, NULL));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_random_set_counter(g, NULL));
    lat_array_destroy(i);
    lat_array_destroy(f);
    lat_random_destroy(g);
}
