/* pycuda-complex.hpp: PyCUDA's complex type in kernels, lattice's own header on every
 * backend (src/core/pycuda_complex.c). Random operands; the host reference is C's
 * <complex.h> in double precision (the float kernel's results within float's error). */
#include "harness.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { N = 512, NOUT = 20 };

#define BODY(T)                                                                                     \
    "extern \"C\" __global__ void k_" #T "(const pycuda::complex<" #T "> *a,\n"                     \
    "    const pycuda::complex<" #T "> *b, pycuda::complex<" #T "> *o, " #T " s, int n)\n"           \
    "{\n"                                                                                           \
    "    typedef pycuda::complex<" #T "> C;\n"                                                      \
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"                                          \
    "    if (i >= n) return;\n"                                                                     \
    "    C x = a[i], y = b[i], *r = o + 20 * i;\n"                                                  \
    "    r[0] = x + y; r[1] = x - y; r[2] = x * y; r[3] = x / y; r[4] = s / y - x * s;\n"          \
    "    r[5] = C(pycuda::abs(x), pycuda::arg(x)); r[6] = pycuda::conj(x);\n"                       \
    "    r[7] = pycuda::sqrt(x); r[8] = pycuda::exp(x); r[9] = pycuda::log(x);\n"                   \
    "    r[10] = pycuda::pow(x, y); r[11] = pycuda::pow(x, s); r[12] = pycuda::pow(x, 5);\n"        \
    "    r[13] = pycuda::sin(x); r[14] = pycuda::cos(x); r[15] = pycuda::tan(x);\n"                 \
    "    r[16] = pycuda::sinh(x); r[17] = pycuda::cosh(x); r[18] = pycuda::tanh(x);\n"              \
    "    C z = x; z *= y; z /= y; z -= x; r[19] = z + pycuda::norm(y);\n"                           \
    "}\n"

static double complex expected(double complex x, double complex y, double s, int j)
{
    switch (j) {
    case 0: return x + y;
    case 1: return x - y;
    case 2: return x * y;
    case 3: return x / y;
    case 4: return s / y - x * s;
    case 5: return cabs(x) + I * carg(x);
    case 6: return conj(x);
    case 7: return csqrt(x);
    case 8: return cexp(x);
    case 9: return clog(x);
    case 10: return cpow(x, y);
    case 11: return cpow(x, s);
    case 12: return x * x * x * x * x;
    case 13: return csin(x);
    case 14: return ccos(x);
    case 15: return ctan(x);
    case 16: return csinh(x);
    case 17: return ccosh(x);
    case 18: return ctanh(x);
    default: return (x * y / y - x) + (creal(y) * creal(y) + cimag(y) * cimag(y));
    }
}

static void check(lat_kernel *k, int is_float, double tol)
{
    size_t esz = is_float ? 2 * sizeof(float) : 2 * sizeof(double);
    double *a = t_calloc(2 * N, sizeof *a), *b = t_calloc(2 * N, sizeof *b);
    float *af = t_calloc(2 * N, sizeof *af), *bf = t_calloc(2 * N, sizeof *bf);
    void *o = t_calloc((size_t)N * NOUT, esz);
    for (int i = 0; i < 2 * N; i++) {
        af[i] = (float)t_rand_double(-3, 3), bf[i] = (float)t_rand_double(-3, 3);
        a[i] = is_float ? af[i] : t_rand_double(-3, 3);
        b[i] = is_float ? bf[i] : t_rand_double(-3, 3);
    }
    double s = is_float ? (double)(float)t_rand_double(0.5, 2) : t_rand_double(0.5, 2);
    lat_arg sarg = is_float ? lat_arg_f32((float)s) : lat_arg_f64(s);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {N / 128}, .block = {128}},
                              LAT_ARGS(lat_arg_in(is_float ? (void *)af : (void *)a, N * esz),
                                       lat_arg_in(is_float ? (void *)bf : (void *)b, N * esz),
                                       lat_arg_out(o, (size_t)N * NOUT * esz), sarg, lat_arg_i32(N))));
    for (int i = 0; i < N; i++) {
        double complex x = a[2 * i] + I * a[2 * i + 1], y = b[2 * i] + I * b[2 * i + 1];
        for (int j = 0; j < NOUT; j++) {
            size_t at = 2 * ((size_t)i * NOUT + (size_t)j);
            double re = is_float ? ((float *)o)[at] : ((double *)o)[at];
            double im = is_float ? ((float *)o)[at + 1] : ((double *)o)[at + 1];
            double complex want = expected(x, y, s, j);
            double err = cabs(re + I * im - want) / fmax(1.0, cabs(want));
            ASSERT_MSG(err < tol, "%s result %d of x = %g%+gi, y = %g%+gi: %g%+gi, want %g%+gi",
                       is_float ? "float" : "double", j, creal(x), cimag(x), creal(y), cimag(y), re, im,
                       creal(want), cimag(want));
        }
    }
}

TEST(pycuda_complex_arithmetic_and_functions_match_cs_complex)
{
    lat_context *ctx = t_context();
    static const char src[] = "#include <pycuda-complex.hpp>\n" BODY(float) BODY(double);
    check(t_kernel_as_written(ctx, src, "k_double"), 0, 1e-11);
    check(t_kernel_as_written(ctx, src, "k_float"), 1, 1e-4);
}

TEST(pycuda_complex_is_read_inside_pycudas_extern_c_wrap)
{
    /* PyCUDA's SourceModule wraps the whole source in extern "C" unless told not to. */
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx,
                             "#include <pycuda-complex.hpp>\n"
                             "__global__ void sq(pycuda::complex<double> *z)\n"
                             "{ z[threadIdx.x] = z[threadIdx.x] * z[threadIdx.x] + 1.0; }\n",
                             "sq");
    double z[2 * 64];
    for (int i = 0; i < 2 * 64; i++)
        z[i] = t_rand_double(-2, 2);
    double in[2 * 64];
    memcpy(in, z, sizeof z);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {64}},
                              LAT_ARGS(lat_arg_inout(z, sizeof z))));
    for (int i = 0; i < 64; i++) {
        double complex x = in[2 * i] + I * in[2 * i + 1], want = x * x + 1.0;
        ASSERT_CLOSE(z[2 * i], creal(want), 1e-14, 1e-14);
        ASSERT_CLOSE(z[2 * i + 1], cimag(want), 1e-14, 1e-14);
    }
}

TEST(narrowing_a_pycuda_complex_needs_a_cast)
{
    lat_context *ctx = t_context();
    lat_module *mod = NULL;
    ASSERT_STATUS(LAT_ERROR_COMPILE,
                  lat_module_create(ctx,
                                    &(lat_module_desc){.source = "#include <pycuda-complex.hpp>\n"
                                                                 "extern \"C\" __global__ void k(pycuda::complex<float> *o,\n"
                                                                 "    pycuda::complex<double> d)\n"
                                                                 "{ pycuda::complex<float> f = d; *o = f; }\n",
                                                       .no_extern_c = 1},
                                    &mod));
    lat_module_destroy(mod);
}

/* pycuda-helpers.hpp, as PyCUDA's own kernels and some users' #include it: under CUDA 12
 * it is pycuda-complex.hpp and the fp_tex_* typedefs. Inside PyCUDA's extern "C" wrap. */
TEST(pycuda_helpers_hpp_brings_pycuda_complex_and_the_fp_tex_typedefs)
{
    static const char *const src =
        "extern \"C\" {\n"
        "#include <pycuda-helpers.hpp>\n"
        "__global__ void k(const pycuda::complex<float> *a, pycuda::complex<float> *o,\n"
        "                  int *sizes, int n)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n) o[i] = a[i] * pycuda::conj(a[i]) + a[i];\n"
        "    if (i == 0) {\n"
        "        sizes[0] = sizeof(fp_tex_float); sizes[1] = sizeof(fp_tex_double);\n"
        "        sizes[2] = sizeof(fp_tex_cfloat); sizes[3] = sizeof(fp_tex_cdouble);\n"
        "    }\n"
        "}\n"
        "}\n";
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel(ctx, src, "k");
    float a[2 * N], o[2 * N];
    t_rand_floats(a, 2 * N, -4.0f, 4.0f);
    lat_deviceptr da = t_device_copy(ctx, a, sizeof a), dout = t_device_copy(ctx, NULL, sizeof o);
    lat_deviceptr ds = t_device_copy(ctx, NULL, 4 * sizeof(int));
    int n = N;
    void *params[] = {&da, &dout, &ds, &n};
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {(N + 127) / 128}, .block = {128}}, params));
    int sizes[4];
    ASSERT_OK(lat_memcpy_dtoh(ctx, o, dout, sizeof o));
    ASSERT_OK(lat_memcpy_dtoh(ctx, sizes, ds, sizeof sizes));
    ASSERT_EQ(sizes[0], 4);
    ASSERT_EQ(sizes[1], 8);
    ASSERT_EQ(sizes[2], 8);
    ASSERT_EQ(sizes[3], 16);
    for (int i = 0; i < N; i++) {
        float re = a[2 * i], im = a[2 * i + 1];
        float want_re = re * re + im * im + re, want_im = im;
        ASSERT_MSG(fabsf(o[2 * i] - want_re) <= 1e-5f * (1 + fabsf(want_re)) &&
                       fabsf(o[2 * i + 1] - want_im) <= 1e-5f * (1 + fabsf(want_im)),
                   "o[%d] = %g%+gi, expected %g%+gi", i, o[2 * i], o[2 * i + 1], want_re, want_im);
    }
}
