/* Fused multiply-add contraction, as NVRTC does it by default: a*b + c and its kin round
 * once, on both backends and bit for bit; --fmad=false makes both round twice. The inputs
 * are random, so that fused and unfused results differ in many elements (checked: a test
 * of a backend that never contracts must fail). */
#include "harness.h"

#include <math.h>
#include <stdlib.h>

enum { N = 4096, FORMS = 6 };

static const char src[] =
    "typedef float real;\n"
    "__global__ void con(const float *a, const float *b, const float *c, float *o,\n"
    "                    const double *x, const double *y, const double *z, double *d)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    real p = a[i], q = b[i], r = c[i];\n"
    "    o[6 * i + 0] = p * q + r;\n"
    "    o[6 * i + 1] = r + p * q;\n"
    "    o[6 * i + 2] = p * q - r;\n"
    "    o[6 * i + 3] = r - p * q;\n"
    "    real s = r;\n"
    "    s += p * q;\n"
    "    o[6 * i + 4] = s;\n"
    "    o[6 * i + 5] = fmaf(p, q, r);\n" /* explicit: fused whatever the option */
    "    double u = x[i], v = y[i], w = z[i];\n"
    "    d[6 * i + 0] = u * v + w;\n"
    "    d[6 * i + 1] = w + u * v;\n"
    "    d[6 * i + 2] = u * v - w;\n"
    "    d[6 * i + 3] = w - u * v;\n"
    "    double t = w;\n"
    "    t += u * v;\n"
    "    d[6 * i + 4] = t;\n"
    "    d[6 * i + 5] = fma(u, v, w);\n"
    "}\n";

static float a[N], b[N], c[N], o[FORMS * N];
static double x[N], y[N], z[N], d[FORMS * N];

/* The products rounded on their own, where the compiler cannot fuse them again. */
static float product_f(float p, float q)
{
    volatile float m = p * q;
    return m;
}

static double product_d(double p, double q)
{
    volatile double m = p * q;
    return m;
}

static void run(const char *const *options)
{
    lat_context *ctx = t_context();
    lat_module *mod;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .options = options}, &mod));
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(mod, "con", &k));
    t_rand_floats(a, N, -1, 1);
    t_rand_floats(b, N, -1, 1);
    t_rand_floats(c, N, -1, 1);
    for (int i = 0; i < N; i++) {
        x[i] = t_rand_double(-1, 1);
        y[i] = t_rand_double(-1, 1);
        z[i] = t_rand_double(-1, 1);
    }
    ASSERT_OK(lat_launch_args(
        k, &(lat_launch_desc){.grid = {N / 128}, .block = {128}},
        LAT_ARGS(lat_arg_in(a, sizeof a), lat_arg_in(b, sizeof b), lat_arg_in(c, sizeof c),
                 lat_arg_out(o, sizeof o), lat_arg_in(x, sizeof x), lat_arg_in(y, sizeof y),
                 lat_arg_in(z, sizeof z), lat_arg_out(d, sizeof d))));
    lat_module_destroy(mod);
}

static void check(int fused)
{
    int differ_f = 0, differ_d = 0;
    for (int i = 0; i < N; i++) {
        float p = a[i], q = b[i], r = c[i];
        float pq = product_f(p, q);
        float wf[FORMS] = {fmaf(p, q, r), fmaf(p, q, r), fmaf(p, q, -r), fmaf(-p, q, r),
                           fmaf(p, q, r), fmaf(p, q, r)};
        float uf[FORMS] = {pq + r, r + pq, pq - r, r - pq, r + pq, fmaf(p, q, r)};
        differ_f += wf[0] != uf[0];
        for (int j = 0; j < FORMS; j++) {
            float want = fused ? wf[j] : uf[j];
            ASSERT_MSG(o[FORMS * i + j] == want, "float form %d of (%a, %a, %a): %a, want %a (%s)", j,
                       p, q, r, o[FORMS * i + j], want, fused ? "fused" : "--fmad=false");
        }
        double u = x[i], v = y[i], w = z[i];
        double uv = product_d(u, v);
        double wd[FORMS] = {fma(u, v, w), fma(u, v, w), fma(u, v, -w), fma(-u, v, w),
                            fma(u, v, w), fma(u, v, w)};
        double ud[FORMS] = {uv + w, w + uv, uv - w, w - uv, w + uv, fma(u, v, w)};
        differ_d += wd[0] != ud[0];
        for (int j = 0; j < FORMS; j++) {
            double want = fused ? wd[j] : ud[j];
            ASSERT_MSG(d[FORMS * i + j] == want, "double form %d of (%a, %a, %a): %a, want %a (%s)", j,
                       u, v, w, d[FORMS * i + j], want, fused ? "fused" : "--fmad=false");
        }
    }
    /* The inputs tell the two apart: a backend computing the other way fails above. */
    ASSERT_GT(differ_f, N / 20);
    ASSERT_GT(differ_d, N / 20);
}

TEST(a_times_b_plus_c_and_its_kin_are_fused_by_default_bit_for_bit)
{
    run(NULL);
    check(1);
}

TEST(fmad_false_rounds_the_product_and_the_sum_separately)
{
    static const char *const options[] = {"--fmad=false", NULL};
    run(options);
    check(0);
}

TEST(fmad_true_is_the_default)
{
    static const char *const options[] = {"-fmad=true", NULL};
    run(options);
    check(1);
}
