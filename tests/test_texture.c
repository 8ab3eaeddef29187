/* Textures and surfaces through texture objects (lattice/texture.h): CUDA arrays, texture
 * objects over arrays and device memory, surface objects, and the kernel side (tex2D<T>
 * and kin), against host references that follow the CUDA Programming Guide's rules
 * (point sampling; linear filtering with weights of 8 fractional bits; address modes).
 *
 * Filtered textures hold random integers from 0 to 255: a bilinear weight product times
 * such a texel needs at most 24 bits, so every 2-D result is exact in float whatever the
 * order of the GPU's arithmetic, and the emulator and a GPU must agree bit for bit. */
#include "harness.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the reference sampler ------------------------------------------------------------------ */

typedef struct ref {
    const float *texels; /* channels floats per texel, x fastest, then y, z (or layer) */
    int size[3];         /* 1 where absent */
    int channels;
    lat_address_mode mode[3];
    int linear, normalized;
    float border[4];
} ref;

/* The coordinate in texels: normalised ones wrapped or mirrored, then scaled (float). */
static float ref_coord(const ref *r, int d, float x)
{
    if (!r->normalized)
        return x;
    if (r->mode[d] == LAT_ADDRESS_WRAP) {
        x -= floorf(x);
    } else if (r->mode[d] == LAT_ADDRESS_MIRROR) {
        float f = floorf(x);
        x -= f;
        if (((long long)f) % 2 != 0)
            x = 1.0f - x;
    }
    return x * (float)r->size[d];
}

/* Index i of dimension d after its address mode; -1 for the border. */
static long long ref_index(const ref *r, int d, long long i)
{
    long long n = r->size[d];
    if (i >= 0 && i < n)
        return i;
    switch (r->mode[d]) {
    case LAT_ADDRESS_BORDER:
        return -1;
    case LAT_ADDRESS_WRAP:
        return ((i % n) + n) % n;
    case LAT_ADDRESS_MIRROR: {
        long long m = ((i % (2 * n)) + 2 * n) % (2 * n);
        return m < n ? m : 2 * n - 1 - m;
    }
    default:
        return i < 0 ? 0 : n - 1;
    }
}

static double ref_texel(const ref *r, const long long idx[3], int layer, int c)
{
    for (int d = 0; d < 3; d++)
        if (idx[d] < 0)
            return r->border[c];
    size_t at = (((size_t)layer * (size_t)r->size[2] + (size_t)idx[2]) * (size_t)r->size[1] +
                 (size_t)idx[1]) * (size_t)r->size[0] + (size_t)idx[0];
    return r->texels[at * (size_t)r->channels + (size_t)c];
}

/* Channel c of a read at (x, y, z) of `dims` dimensions. */
/* The corner weights in 1/256 as an H100 forms them (measured: every corner of 2x2 and
 * 2x2x2 textures holding a single 1, over 20,000 random fractions). In 2-D the upper
 * corner's weight is fx * fy rounded to 1/256, ties up, and the others take what is left
 * of their row's and column's weights; in 3-D the z weights are split by x first
 * (rounded, ties up) and each part by y as in 2-D. Written here as the 2-D rule applied
 * to each z slice. */
static void ref_weights(int dims, const int f[3], int w[8])
{
    if (dims == 1) {
        w[0] = 256 - f[0];
        w[1] = f[0];
        return;
    }
    for (int zb = 0; zb < (dims == 3 ? 2 : 1); zb++) {
        int slice = dims == 3 ? (zb ? f[2] : 256 - f[2]) : 256;
        /* the slice's x weights */
        int x1 = (int)floor(slice * f[0] / 256.0 + 0.5), x0 = slice - x1;
        /* the upper-y part of the upper-x weight, rounded ties up; the lower x weight's
         * upper-y part is the rest of the slice's whole upper-y weight, exactly as the 2-D
         * corner rule gives it */
        int y11 = (int)floor(x1 * f[1] / 256.0 + 0.5);
        int y01 = (int)ceil(x0 * f[1] / 256.0 - 0.5);
        w[4 * zb + 0] = x0 - y01;
        w[4 * zb + 1] = x1 - y11;
        w[4 * zb + 2] = y01;
        w[4 * zb + 3] = y11;
    }
}

static float ref_sample(const ref *r, int dims, const float *xyz, int layer, int c)
{
    if (!r->linear) {
        long long idx[3] = {0, 0, 0};
        for (int d = 0; d < dims; d++)
            idx[d] = ref_index(r, d, (long long)floor((double)ref_coord(r, d, xyz[d])));
        return (float)ref_texel(r, idx, layer, c);
    }
    /* x - 0.5 rounded to 1/256 of a texel, ties up: the integer part picks the texels,
     * the fraction (8 bits) weighs them. */
    long long lo[3] = {0, 0, 0};
    int frac[3] = {0, 0, 0};
    for (int d = 0; d < dims; d++) {
        /* As measured on an H100: mirror mirrors the texels' indices, not the coordinate
         * (it shows at ties); clamp moves the coordinate to the edge texels' centres
         * (it shows in trilinear weights). */
        float u = r->normalized && r->mode[d] == LAT_ADDRESS_MIRROR ? xyz[d] * (float)r->size[d]
                                                                   : ref_coord(r, d, xyz[d]);
        if (r->mode[d] == LAT_ADDRESS_CLAMP)
            u = fminf(fmaxf(u, 0.5f), (float)r->size[d] - 0.5f);
        double q = floor((double)u * 256.0 - 128.0 + 0.5);
        lo[d] = (long long)floor(q / 256.0);
        frac[d] = (int)(q - (double)lo[d] * 256.0);
    }
    int w[8];
    ref_weights(dims, frac, w);
    double sum = 0.0;
    for (int corner = 0; corner < (1 << dims); corner++) {
        long long idx[3] = {0, 0, 0};
        for (int d = 0; d < dims; d++)
            idx[d] = ref_index(r, d, lo[d] + ((corner >> d) & 1));
        if (w[corner] != 0)
            sum += w[corner] * ref_texel(r, idx, layer, c) / 256.0;
    }
    return (float)sum;
}

/* ---- helpers ----------------------------------------------------------------------------------- */

static float *random_texels(size_t n, int bits)
{
    float *p = t_calloc(n, sizeof *p);
    for (size_t i = 0; i < n; i++)
        p[i] = (float)(t_rand_u32() & ((1u << bits) - 1));
    return p;
}

static lat_tex_array *array_of(lat_context *ctx, const lat_tex_array_desc *d, const void *host)
{
    lat_tex_array *a = NULL;
    ASSERT_OK(lat_tex_array_create(ctx, d, &a));
    if (host)
        ASSERT_OK(lat_tex_array_copy_from_host(a, host, 0));
    return a;
}

static lat_texture *texture_of(lat_context *ctx, const lat_texture_desc *d)
{
    lat_texture *t = NULL;
    ASSERT_OK(lat_texture_create(ctx, d, &t));
    ASSERT_TRUE(lat_texture_handle(t) != 0);
    return t;
}

static const char sample2d_src[] =
    "__global__ void sample2d(float *out, const float *cx, const float *cy, int w, int h,\n"
    "                         cudaTextureObject_t t)\n"
    "{\n"
    "    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;\n"
    "    if (x < w && y < h)\n"
    "        out[y * w + x] = tex2D<float>(t, cx[x], cy[y]);\n"
    "}\n";

/* Samples t at every (cx[x], cy[y]) on the device. */
static void sample2d(lat_context *ctx, lat_texture *t, const float *cx, const float *cy, int w,
                     int h, float *out)
{
    lat_kernel *k = t_kernel(ctx, sample2d_src, "sample2d");
    ASSERT_OK(lat_launch_args(
        k, &(lat_launch_desc){.grid = {(unsigned)(w + 15) / 16, (unsigned)(h + 15) / 16}, .block = {16, 16}},
        LAT_ARGS(lat_arg_out(out, sizeof(float) * (size_t)w * (size_t)h),
                 lat_arg_in(cx, sizeof(float) * (size_t)w), lat_arg_in(cy, sizeof(float) * (size_t)h),
                 lat_arg_i32(w), lat_arg_i32(h), lat_arg_u64(lat_texture_handle(t)))));
}

static void expect_equal(const float *got, const ref *r, const float *cx, const float *cy, int w,
                         int h)
{
    size_t diffs = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float want = ref_sample(r, 2, (float[]){cx[x], cy[y], 0}, 0, 0);
            float g = got[y * w + x];
            if (memcmp(&g, &want, sizeof g) != 0) {
                if (diffs++ == 0)
                    FAIL("(%d, %d) at (%.9g, %.9g): %.9g, want %.9g", x, y, (double)cx[x],
                         (double)cy[y], (double)g, (double)want);
            }
        }
}

/* ---- bilinear resize ---------------------------------------------------------------------------- */

/* A 37 x 23 image resized to 50 x 41: centres of output pixels mapped back onto the input;
 * scales that are not powers of two give coordinates with more than 8 fractional bits,
 * so the weights' rounding shows in every result. */
static void resize_case(lat_address_mode mode, int normalized)
{
    lat_context *ctx = t_context();
    enum { W = 37, H = 23, OW = 50, OH = 41 };
    float *img = random_texels(W * H, 8);
    lat_tex_array *a = array_of(ctx, &(lat_tex_array_desc){.width = W, .height = H}, img);
    lat_texture *t = texture_of(ctx, &(lat_texture_desc){.array = a, .filter = LAT_FILTER_LINEAR,
                                                          .address_mode = {mode, mode},
                                                          .normalized_coords = normalized});
    float cx[OW], cy[OH];
    for (int x = 0; x < OW; x++) {
        if (normalized) /* 1.5 periods, starting a quarter before the image */
            cx[x] = (x + 0.5f) / OW * 1.5f - 0.25f;
        else /* a margin of 3 texels around the image: clamped */
            cx[x] = (x + 0.5f) * ((W + 6.0f) / OW) - 3.0f;
    }
    for (int y = 0; y < OH; y++) {
        if (normalized)
            cy[y] = (y + 0.5f) / OH * 1.5f - 0.25f;
        else
            cy[y] = (y + 0.5f) * ((H + 6.0f) / OH) - 3.0f;
    }
    float *out = t_calloc(OW * OH, sizeof *out);
    sample2d(ctx, t, cx, cy, OW, OH, out);
    ref r = {img, {W, H, 1}, 1, {mode, mode, mode}, 1, normalized, {0}};
    expect_equal(out, &r, cx, cy, OW, OH);
    /* Not a constant image, and not a copy of it. */
    ASSERT_TRUE(out[0] != out[OW * OH - 1] || out[1] != out[OW]);
}

TEST(bilinear_resize_with_clamp_matches_the_9_bit_reference)
{
    resize_case(LAT_ADDRESS_CLAMP, 0);
}

TEST(bilinear_resize_with_wrap_and_normalised_coordinates_matches_the_9_bit_reference)
{
    resize_case(LAT_ADDRESS_WRAP, 1);
}

TEST(bilinear_resize_with_mirror_and_normalised_coordinates)
{
    resize_case(LAT_ADDRESS_MIRROR, 1);
}

TEST(bilinear_resize_with_clamp_and_normalised_coordinates)
{
    resize_case(LAT_ADDRESS_CLAMP, 1);
}

TEST(linear_weights_have_8_fractional_bits)
{
    /* Two texels, 0 and 256: a read between them gives 256 * a, a rounded to 1/256. */
    lat_context *ctx = t_context();
    float img[2] = {0.0f, 256.0f};
    lat_tex_array *a = array_of(ctx, &(lat_tex_array_desc){.width = 2, .height = 1}, img);
    lat_texture *t = texture_of(ctx, &(lat_texture_desc){.array = a, .filter = LAT_FILTER_LINEAR});
    enum { N = 64 };
    float cx[N], cy[1] = {0.5f}, out[N];
    /* Odd multiples of 31/8192 across the pair: fractions finer than 1/256 of a texel, and
     * never exactly half way between two multiples of 1/256 (how a GPU breaks such ties is
     * not what this case checks). */
    for (int i = 0; i < N; i++)
        cx[i] = 0.5f + (float)(2 * i + 1) * 31.0f / 8192.0f;
    sample2d(ctx, t, cx, cy, N, 1, out);
    for (int i = 0; i < N; i++) {
        float want = (float)rint((cx[i] - 0.5) * 256.0);
        ASSERT_MSG(out[i] == want, "x = %.9g: %.9g, want %.9g (a whole number: the weight "
                   "has 8 fractional bits)", (double)cx[i], (double)out[i], (double)want);
    }
}

/* ---- point sampling, border, mirror ------------------------------------------------------------- */

/* A random coordinate in [lo, hi) at least 1/64 of a texel from a texel's edge: point
 * sampling takes floor(x), and this case does not ask how a GPU rounds a coordinate that
 * lies within its fixed-point precision of an edge. */
static float away_from_edges(const ref *r, int d, double lo, double hi)
{
    for (;;) {
        float x = (float)t_rand_double(lo, hi);
        double t = ref_coord(r, d, x);
        if (fabs(t - floor(t + 0.5)) >= 1.0 / 64)
            return x;
    }
}

static void point_case(lat_address_mode mode, int normalized, float border)
{
    lat_context *ctx = t_context();
    enum { W = 19, H = 13, OW = 64, OH = 48 };
    float *img = t_calloc(W * H, sizeof *img);
    t_rand_floats(img, W * H, -100.0f, 100.0f); /* any floats: point sampling copies texels */
    lat_tex_array *a = array_of(ctx, &(lat_tex_array_desc){.width = W, .height = H}, img);
    lat_texture *t = texture_of(ctx, &(lat_texture_desc){.array = a, .address_mode = {mode, mode},
                                                          .normalized_coords = normalized,
                                                          .border_color = {border, 0, 0, 0}});
    float cx[OW], cy[OH];
    ref r = {img, {W, H, 1}, 1, {mode, mode, mode}, 0, normalized, {border, 0, 0, 0}};
    for (int x = 0; x < OW; x++)
        cx[x] = away_from_edges(&r, 0, normalized ? -1.5 : -4.0, normalized ? 2.5 : W + 4.0);
    for (int y = 0; y < OH; y++)
        cy[y] = away_from_edges(&r, 1, normalized ? -1.5 : -4.0, normalized ? 2.5 : H + 4.0);
    float *out = t_calloc(OW * OH, sizeof *out);
    sample2d(ctx, t, cx, cy, OW, OH, out);
    expect_equal(out, &r, cx, cy, OW, OH);
}

TEST(point_sampling_reads_the_texel_under_the_coordinate)
{
    point_case(LAT_ADDRESS_CLAMP, 0, 0.0f);
}

TEST(the_border_colour_is_read_outside_the_texture)
{
    point_case(LAT_ADDRESS_BORDER, 0, 1234.5f);
}

TEST(border_with_normalised_coordinates)
{
    point_case(LAT_ADDRESS_BORDER, 1, -7.25f);
}

TEST(mirror_repeats_the_texture_mirrored)
{
    point_case(LAT_ADDRESS_MIRROR, 1, 0.0f);
}

TEST(wrap_repeats_the_texture)
{
    point_case(LAT_ADDRESS_WRAP, 1, 0.0f);
}

TEST(linear_filtering_blends_the_border_colour_in)
{
    lat_context *ctx = t_context();
    enum { W = 6, H = 5, OW = 24, OH = 20 };
    float *img = random_texels(W * H, 8);
    lat_tex_array *a = array_of(ctx, &(lat_tex_array_desc){.width = W, .height = H}, img);
    lat_texture *t = texture_of(ctx, &(lat_texture_desc){.array = a, .filter = LAT_FILTER_LINEAR,
                                                          .address_mode = {LAT_ADDRESS_BORDER,
                                                                           LAT_ADDRESS_BORDER},
                                                          .border_color = {200.0f}});
    float cx[OW], cy[OH];
    for (int x = 0; x < OW; x++)
        cx[x] = -2.0f + (float)x * (W + 4.0f) / OW + 0.37f;
    for (int y = 0; y < OH; y++)
        cy[y] = -2.0f + (float)y * (H + 4.0f) / OH + 0.29f;
    float *out = t_calloc(OW * OH, sizeof *out);
    sample2d(ctx, t, cx, cy, OW, OH, out);
    ref r = {img, {W, H, 1}, 1, {LAT_ADDRESS_BORDER, LAT_ADDRESS_BORDER, 0}, 1, 0, {200.0f}};
    expect_equal(out, &r, cx, cy, OW, OH);
}

TEST(address_modes_agree_with_values_worked_by_hand)
{
    /* 1-D array [10, 20, 30, 40], normalised coordinates, point sampling. */
    lat_context *ctx = t_context();
    float img[4] = {10, 20, 30, 40};
    lat_tex_array *a = array_of(ctx, &(lat_tex_array_desc){.width = 4}, img);
    static const char src[] =
        "__global__ void hand(float *out, const float *u, cudaTextureObject_t t)\n"
        "{ out[threadIdx.x] = tex1D<float>(t, u[threadIdx.x]); }\n";
    lat_kernel *k = t_kernel(ctx, src, "hand");
    float u[5] = {1.1f, -0.1f, 0.3f, 2.6f, -1.6f};
    static const struct {
        lat_address_mode mode;
        float want[5];
    } cases[] = {
        /* 1.1 -> .1 -> 0.4; -0.1 -> .9 -> 3.6; .3 -> 1.2; 2.6 -> .6 -> 2.4; -1.6 -> .4 -> 1.6 */
        {LAT_ADDRESS_WRAP, {10, 40, 20, 30, 20}},
        /* 1.1: floor 1 odd -> 1 - .1 = .9 -> 3.6; -0.1: floor -1 odd -> .1 -> 0.4;
         * 2.6: floor 2 even -> .6 -> 2.4; -1.6: floor -2 even -> .4 -> 1.6 */
        {LAT_ADDRESS_MIRROR, {40, 10, 20, 30, 20}},
        {LAT_ADDRESS_CLAMP, {40, 10, 20, 40, 10}},
        {LAT_ADDRESS_BORDER, {-1, -1, 20, -1, -1}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        lat_texture *t = texture_of(ctx, &(lat_texture_desc){.array = a,
                                                              .address_mode = {cases[c].mode},
                                                              .normalized_coords = 1,
                                                              .border_color = {-1.0f}});
        float out[5];
        ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {5}},
                                  LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_in(u, sizeof u),
                                           lat_arg_u64(lat_texture_handle(t)))));
        for (int i = 0; i < 5; i++)
            ASSERT_MSG(out[i] == cases[c].want[i], "mode %d, u = %g: %g, want %g",
                       (int)cases[c].mode, (double)u[i], (double)out[i], (double)cases[c].want[i]);
        lat_texture_destroy(t);
    }
}

/* ---- element formats ------------------------------------------------------------------------- */

TEST(uchar4_texels_read_as_normalised_float4)
{
    lat_context *ctx = t_context();
    enum { W = 17, H = 9, N = W * H };
    unsigned char *img = t_calloc(N * 4, 1);
    for (int i = 0; i < N * 4; i++)
        img[i] = (unsigned char)t_rand_u32();
    img[0] = 255; /* the ends of the range */
    img[1] = 0;
    lat_tex_array *a = array_of(ctx, &(lat_tex_array_desc){.width = W, .height = H,
                                                           .format = LAT_FORMAT_U8, .channels = 4},
                                img);
    lat_texture *t = texture_of(ctx, &(lat_texture_desc){.array = a,
                                                          .read_mode = LAT_READ_NORMALIZED_FLOAT});
    static const char src[] =
        "__global__ void rgba(float4 *out, int w, cudaTextureObject_t t)\n"
        "{\n"
        "    int x = threadIdx.x, y = blockIdx.x;\n"
        "    out[y * w + x] = tex2D<float4>(t, x + 0.5f, y + 0.5f);\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "rgba");
    float *out = t_calloc(N * 4, sizeof *out);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {H}, .block = {W}},
                              LAT_ARGS(lat_arg_out(out, N * 4 * sizeof *out), lat_arg_i32(W),
                                       lat_arg_u64(lat_texture_handle(t)))));
    for (int i = 0; i < N * 4; i++) {
        float want = (float)img[i] / 255.0f;
        ASSERT_MSG(out[i] == want, "channel %d of texel %d: %.9g, want %.9g (%u / 255)", i % 4,
                   i / 4, (double)out[i], (double)want, img[i]);
    }
    ASSERT_TRUE(out[0] == 1.0f && out[1] == 0.0f);
}

TEST(uchar4_texels_read_as_uchar4_elements)
{
    lat_context *ctx = t_context();
    enum { W = 23 };
    unsigned char img[W * 4];
    for (int i = 0; i < W * 4; i++)
        img[i] = (unsigned char)t_rand_u32();
    lat_tex_array *a = array_of(ctx, &(lat_tex_array_desc){.width = W, .format = LAT_FORMAT_U8,
                                                           .channels = 4}, img);
    lat_texture *t = texture_of(ctx, &(lat_texture_desc){.array = a});
    static const char src[] =
        "__global__ void raw(uchar4 *out, cudaTextureObject_t t)\n"
        "{ out[threadIdx.x] = tex1D<uchar4>(t, threadIdx.x + 0.75f); }\n";
    unsigned char out[W * 4];
    ASSERT_OK(lat_launch_args(t_kernel(ctx, src, "raw"), &(lat_launch_desc){.grid = {1}, .block = {W}},
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_u64(lat_texture_handle(t)))));
    ASSERT_TRUE(memcmp(out, img, sizeof out) == 0);
}

TEST(signed_8_and_16_bit_texels_read_as_normalised_floats_in_minus_one_to_one)
{
    lat_context *ctx = t_context();
    signed char c[8] = {-128, -127, -1, 0, 1, 64, 126, 127};
    short s[8] = {-32768, -32767, -12345, -1, 0, 1, 23456, 32767};
    lat_tex_array *ac = array_of(ctx, &(lat_tex_array_desc){.width = 8, .format = LAT_FORMAT_I8}, c);
    lat_tex_array *as = array_of(ctx, &(lat_tex_array_desc){.width = 8, .format = LAT_FORMAT_I16}, s);
    lat_texture *tc = texture_of(ctx, &(lat_texture_desc){.array = ac, .read_mode = LAT_READ_NORMALIZED_FLOAT});
    lat_texture *ts = texture_of(ctx, &(lat_texture_desc){.array = as, .read_mode = LAT_READ_NORMALIZED_FLOAT});
    static const char src[] =
        "__global__ void snorm(float *out, cudaTextureObject_t a, cudaTextureObject_t b)\n"
        "{\n"
        "    int i = threadIdx.x;\n"
        "    out[i] = tex1D<float>(a, i + 0.5f);\n"
        "    out[8 + i] = tex1D<float>(b, i + 0.5f);\n"
        "}\n";
    float out[16];
    ASSERT_OK(lat_launch_args(t_kernel(ctx, src, "snorm"), &(lat_launch_desc){.grid = {1}, .block = {8}},
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_u64(lat_texture_handle(tc)),
                                       lat_arg_u64(lat_texture_handle(ts)))));
    for (int i = 0; i < 8; i++) {
        float wc = fmaxf((float)c[i] / 127.0f, -1.0f), ws = fmaxf((float)s[i] / 32767.0f, -1.0f);
        ASSERT_MSG(out[i] == wc, "i8 %d: %.9g, want %.9g", c[i], (double)out[i], (double)wc);
        ASSERT_MSG(out[8 + i] == ws, "i16 %d: %.9g, want %.9g", s[i], (double)out[8 + i], (double)ws);
    }
    ASSERT_TRUE(out[0] == -1.0f && out[1] == -1.0f && out[7] == 1.0f);
}

TEST(ushort2_and_int_texels_read_as_elements)
{
    lat_context *ctx = t_context();
    enum { W = 12 };
    unsigned short us[W * 2];
    int in[W];
    for (int i = 0; i < W * 2; i++)
        us[i] = (unsigned short)t_rand_u32();
    for (int i = 0; i < W; i++)
        in[i] = (int)t_rand_u32();
    lat_tex_array *au = array_of(ctx, &(lat_tex_array_desc){.width = W, .height = 1,
                                                            .format = LAT_FORMAT_U16, .channels = 2}, us);
    lat_tex_array *ai = array_of(ctx, &(lat_tex_array_desc){.width = W, .height = 1,
                                                            .format = LAT_FORMAT_I32}, in);
    lat_texture *tu = texture_of(ctx, &(lat_texture_desc){.array = au});
    lat_texture *ti = texture_of(ctx, &(lat_texture_desc){.array = ai});
    static const char src[] =
        "__global__ void elems(ushort2 *a, int *b, cudaTextureObject_t tu, cudaTextureObject_t ti)\n"
        "{\n"
        "    int i = threadIdx.x;\n"
        "    a[i] = tex2D<ushort2>(tu, i + 0.5f, 0.5f);\n"
        "    b[i] = tex2D<int>(ti, i + 0.5f, 0.5f);\n"
        "}\n";
    unsigned short ou[W * 2];
    int oi[W];
    ASSERT_OK(lat_launch_args(t_kernel(ctx, src, "elems"), &(lat_launch_desc){.grid = {1}, .block = {W}},
                              LAT_ARGS(lat_arg_out(ou, sizeof ou), lat_arg_out(oi, sizeof oi),
                                       lat_arg_u64(lat_texture_handle(tu)),
                                       lat_arg_u64(lat_texture_handle(ti)))));
    ASSERT_TRUE(memcmp(ou, us, sizeof us) == 0);
    ASSERT_TRUE(memcmp(oi, in, sizeof in) == 0);
}

/* IEEE half from a float that has one (the test's values do). */
static unsigned short to_half(float f)
{
    if (f == 0.0f)
        return 0;
    unsigned short sign = f < 0 ? 0x8000 : 0;
    float a = fabsf(f);
    int e;
    float m = frexpf(a, &e); /* a = m * 2^e, m in [0.5, 1) */
    return (unsigned short)(sign | (unsigned)(e + 14) << 10 | ((unsigned)(m * 2048.0f) & 1023u));
}

/* v rounded to half precision (normal range), to nearest with ties away from zero: how an
 * H100 rounds filtered reads of half texels (1024.5 reads 1025, -1026.5 reads -1027). */
static float half_ties_away(double v)
{
    if (v == 0.0)
        return 0.0f;
    int e;
    frexp(v, &e);
    double ulp = ldexp(1.0, e - 11); /* 11 significant bits */
    return (float)(copysign(floor(fabs(v) / ulp + 0.5), v) * ulp);
}

TEST(half_texels_read_as_floats_and_filter)
{
    lat_context *ctx = t_context();
    enum { W = 16 };
    float vals[W];
    unsigned short h[W];
    for (int i = 0; i < W; i++) {
        vals[i] = (float)((int)(t_rand_u32() % 2001) - 1000) / 8.0f; /* exact in half */
        h[i] = to_half(vals[i]);
    }
    lat_tex_array *a = array_of(ctx, &(lat_tex_array_desc){.width = W, .format = LAT_FORMAT_F16}, h);
    lat_texture *tp = texture_of(ctx, &(lat_texture_desc){.array = a});
    lat_texture *tl = texture_of(ctx, &(lat_texture_desc){.array = a, .filter = LAT_FILTER_LINEAR});
    static const char src[] =
        "__global__ void halves(float *out, cudaTextureObject_t p, cudaTextureObject_t l)\n"
        "{\n"
        "    int i = threadIdx.x;\n"
        "    out[i] = tex1D<float>(p, i + 0.5f);\n"
        "    out[16 + i] = tex1D<float>(l, i + 0.75f);\n"
        "}\n";
    float out[2 * W];
    ASSERT_OK(lat_launch_args(t_kernel(ctx, src, "halves"), &(lat_launch_desc){.grid = {1}, .block = {W}},
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_u64(lat_texture_handle(tp)),
                                       lat_arg_u64(lat_texture_handle(tl)))));
    ref r = {vals, {W, 1, 1}, 1, {0}, 1, 0, {0}};
    for (int i = 0; i < W; i++) {
        ASSERT_MSG(out[i] == vals[i], "texel %d: %.9g, want %.9g", i, (double)out[i], (double)vals[i]);
        /* 0.75 v[i] + 0.25 v[i + 1]: multiples of 1/32, which half cannot hold above 64 */
        float want = half_ties_away(ref_sample(&r, 1, (float[]){i + 0.75f, 0, 0}, 0, 0));
        ASSERT_MSG(out[W + i] == want, "filtered at %d.75: %.9g, want %.9g", i, (double)out[W + i],
                   (double)want);
    }
}

/* ---- linear and pitched memory ------------------------------------------------------------------ */

TEST(tex1Dfetch_reads_linear_memory_by_index_and_zero_outside)
{
    lat_context *ctx = t_context();
    enum { N = 300 };
    float *v = t_calloc(N * 4, sizeof *v);
    t_rand_floats(v, N * 4, -5.0f, 5.0f);
    lat_deviceptr d = t_device_copy(ctx, v, N * 4 * sizeof *v);
    lat_texture *t = texture_of(ctx, &(lat_texture_desc){.linear = {.ptr = d, .channels = 4,
                                                                     .bytes = N * 4 * sizeof(float)}});
    static const char src[] =
        "__global__ void fetch(float4 *out, int n, cudaTextureObject_t t)\n"
        "{\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    if (i < n + 20) out[i] = tex1Dfetch<float4>(t, i - 10);\n"
        "}\n";
    float *out = t_calloc((N + 20) * 4, sizeof *out);
    ASSERT_OK(lat_launch_args(t_kernel(ctx, src, "fetch"), &(lat_launch_desc){.grid = {3}, .block = {128}},
                              LAT_ARGS(lat_arg_out(out, (N + 20) * 4 * sizeof *out), lat_arg_i32(N),
                                       lat_arg_u64(lat_texture_handle(t)))));
    for (int i = 0; i < N + 20; i++)
        for (int c = 0; c < 4; c++) {
            int j = i - 10;
            float want = j >= 0 && j < N ? v[j * 4 + c] : 0.0f;
            ASSERT_MSG(out[i * 4 + c] == want, "fetch %d channel %d: %g, want %g", j, c,
                       (double)out[i * 4 + c], (double)want);
        }
}

TEST(a_pitched_2d_texture_reads_rows_a_pitch_apart)
{
    lat_context *ctx = t_context();
    enum { W = 45, H = 21, OW = 30, OH = 30 };
    float *img = random_texels(W * H, 8);
    lat_deviceptr d;
    size_t pitch;
    ASSERT_OK(lat_mem_alloc_pitch(ctx, W * sizeof(float), H, 4, &d, &pitch));
    ASSERT_U64_GT(pitch, W * sizeof(float) - 1);
    ASSERT_OK(lat_memcpy_2d(ctx, &(lat_copy_2d){.src_host = img, .dst_device = d, .dst_pitch = pitch,
                                                .width_bytes = W * sizeof(float), .height = H}));
    lat_texture *t = texture_of(ctx, &(lat_texture_desc){.pitch2d = {.ptr = d, .width = W, .height = H,
                                                                      .pitch = pitch},
                                                          .filter = LAT_FILTER_LINEAR});
    float cx[OW], cy[OH];
    for (int x = 0; x < OW; x++)
        cx[x] = (float)t_rand_double(-1.0, W + 1.0);
    for (int y = 0; y < OH; y++)
        cy[y] = (float)t_rand_double(-1.0, H + 1.0);
    float *out = t_calloc(OW * OH, sizeof *out);
    sample2d(ctx, t, cx, cy, OW, OH, out);
    ref r = {img, {W, H, 1}, 1, {0}, 1, 0, {0}};
    expect_equal(out, &r, cx, cy, OW, OH);
}

/* ---- 1-D, layered and 3-D arrays ---------------------------------------------------------------- */

TEST(tex2DLayered_filters_within_a_layer)
{
    lat_context *ctx = t_context();
    enum { W = 11, H = 7, L = 5, N = 64 };
    float *img = random_texels(W * H * L, 8);
    lat_tex_array *a = array_of(ctx, &(lat_tex_array_desc){.width = W, .height = H, .layers = L}, img);
    lat_texture *t = texture_of(ctx, &(lat_texture_desc){.array = a, .filter = LAT_FILTER_LINEAR});
    static const char src[] =
        "__global__ void layered(float *out, const float *x, const float *y, const int *l,\n"
        "                        cudaTextureObject_t t)\n"
        "{ int i = threadIdx.x; out[i] = tex2DLayered<float>(t, x[i], y[i], l[i]); }\n";
    float x[N], y[N], out[N];
    int l[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)t_rand_double(-1.0, W + 1.0);
        y[i] = (float)t_rand_double(-1.0, H + 1.0);
        l[i] = (int)(t_rand_u32() % L);
    }
    ASSERT_OK(lat_launch_args(t_kernel(ctx, src, "layered"), &(lat_launch_desc){.grid = {1}, .block = {N}},
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_in(x, sizeof x),
                                       lat_arg_in(y, sizeof y), lat_arg_in(l, sizeof l),
                                       lat_arg_u64(lat_texture_handle(t)))));
    ref r = {img, {W, H, 1}, 1, {0}, 1, 0, {0}};
    for (int i = 0; i < N; i++) {
        float want = ref_sample(&r, 2, (float[]){x[i], y[i], 0}, l[i], 0);
        ASSERT_MSG(out[i] == want, "layer %d at (%g, %g): %.9g, want %.9g", l[i], (double)x[i],
                   (double)y[i], (double)out[i], (double)want);
    }
}

TEST(tex1D_and_tex1DLayered_read_1d_arrays)
{
    lat_context *ctx = t_context();
    enum { W = 29, L = 3, N = 32 };
    float *img = random_texels(W * L, 8);
    lat_tex_array *a1 = array_of(ctx, &(lat_tex_array_desc){.width = W}, img);
    lat_tex_array *al = array_of(ctx, &(lat_tex_array_desc){.width = W, .layers = L}, img);
    lat_texture *t1 = texture_of(ctx, &(lat_texture_desc){.array = a1, .filter = LAT_FILTER_LINEAR});
    lat_texture *tl = texture_of(ctx, &(lat_texture_desc){.array = al, .filter = LAT_FILTER_LINEAR});
    static const char src[] =
        "__global__ void one(float *out, const float *x, cudaTextureObject_t a, cudaTextureObject_t b)\n"
        "{\n"
        "    int i = threadIdx.x;\n"
        "    out[i] = tex1D<float>(a, x[i]);\n"
        "    out[32 + i] = tex1DLayered<float>(b, x[i], i % 3);\n"
        "}\n";
    float x[N], out[2 * N];
    for (int i = 0; i < N; i++)
        x[i] = (float)t_rand_double(-2.0, W + 2.0);
    ASSERT_OK(lat_launch_args(t_kernel(ctx, src, "one"), &(lat_launch_desc){.grid = {1}, .block = {N}},
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_in(x, sizeof x),
                                       lat_arg_u64(lat_texture_handle(t1)),
                                       lat_arg_u64(lat_texture_handle(tl)))));
    ref r = {img, {W, 1, 1}, 1, {0}, 1, 0, {0}};
    for (int i = 0; i < N; i++) {
        float w1 = ref_sample(&r, 1, (float[]){x[i], 0, 0}, 0, 0);
        float wl = ref_sample(&r, 1, (float[]){x[i], 0, 0}, i % 3, 0);
        ASSERT_MSG(out[i] == w1, "tex1D at %g: %.9g, want %.9g", (double)x[i], (double)out[i], (double)w1);
        ASSERT_MSG(out[N + i] == wl, "tex1DLayered at %g, layer %d: %.9g, want %.9g", (double)x[i],
                   i % 3, (double)out[N + i], (double)wl);
    }
}

TEST(tex3D_filters_trilinearly)
{
    lat_context *ctx = t_context();
    enum { W = 9, H = 8, D = 7, N = 128 };
    float *img = random_texels(W * H * D, 8);
    lat_tex_array *a = array_of(ctx, &(lat_tex_array_desc){.width = W, .height = H, .depth = D}, img);
    lat_texture *t = texture_of(ctx, &(lat_texture_desc){.array = a, .filter = LAT_FILTER_LINEAR,
                                                          .address_mode = {LAT_ADDRESS_CLAMP,
                                                                           LAT_ADDRESS_BORDER,
                                                                           LAT_ADDRESS_CLAMP},
                                                          .border_color = {100.0f}});
    static const char src[] =
        "__global__ void vol(float *out, const float3 *p, cudaTextureObject_t t)\n"
        "{ int i = blockIdx.x * blockDim.x + threadIdx.x; out[i] = tex3D<float>(t, p[i].x, p[i].y, p[i].z); }\n";
    float p[N * 3], out[N];
    for (int i = 0; i < N; i++) {
        p[3 * i] = (float)t_rand_double(-1.0, W + 1.0);
        p[3 * i + 1] = (float)t_rand_double(-1.0, H + 1.0);
        p[3 * i + 2] = (float)t_rand_double(-1.0, D + 1.0);
    }
    ASSERT_OK(lat_launch_args(t_kernel(ctx, src, "vol"), &(lat_launch_desc){.grid = {2}, .block = {N / 2}},
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_in(p, sizeof p),
                                       lat_arg_u64(lat_texture_handle(t)))));
    ref r = {img, {W, H, D}, 1, {LAT_ADDRESS_CLAMP, LAT_ADDRESS_BORDER, LAT_ADDRESS_CLAMP}, 1, 0, {100.0f}};
    /* Weights in 1/256 times texels of 8 bits: every sum is exact in float, so the GPU's
     * rounding of partial sums cannot show and any difference is a weight. */
    for (int i = 0; i < N; i++) {
        float want = ref_sample(&r, 3, &p[3 * i], 0, 0);
        ASSERT_MSG(out[i] == want,
                   "(%g, %g, %g): %.9g, want %.9g", (double)p[3 * i], (double)p[3 * i + 1],
                   (double)p[3 * i + 2], (double)out[i], (double)want);
    }
}

/* Weights read off an H100: a 2x2x2 (or 2x2) texture holding a single 1 at one corner
 * reads that corner's weight. Each case is a fraction triple (in 1/256 of a texel) whose
 * weights are not the rounded products of the per-dimension weights (ties, and the
 * order in which the hardware splits them); the want values are the GPU's. */
TEST(linear_weights_are_the_ones_an_h100_uses)
{
    static const struct {
        int dims, f[3], w[8];
    } cases[] = {
        {2, {4, 32, 0}, {221, 3, 31, 1}},
        {2, {128, 1, 0}, {128, 127, 0, 1}},
        {3, {156, 96, 160}, {23, 37, 14, 22, 39, 61, 23, 37}},
        {3, {92, 144, 238}, {5, 3, 7, 3, 67, 38, 85, 48}},
        {3, {106, 16, 13}, {133, 95, 9, 6, 8, 5, 0, 0}},
        {3, {200, 128, 4}, {28, 98, 27, 99, 1, 1, 0, 2}},
        {3, {115, 161, 44}, {43, 35, 74, 60, 9, 7, 15, 13}},
    };
    enum { NC = sizeof cases / sizeof cases[0] };
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void corner(float *out, float x, float y, float z, int dims, cudaTextureObject_t t)\n"
        "{ out[0] = dims == 3 ? tex3D<float>(t, x, y, z) : tex2D<float>(t, x, y); }\n";
    lat_kernel *k = t_kernel(ctx, src, "corner");
    for (int dims = 2; dims <= 3; dims++) {
        for (int c = 0; c < (1 << dims); c++) {
            float texels[8] = {0};
            texels[c] = 1.0f;
            lat_tex_array *a = array_of(ctx, &(lat_tex_array_desc){.width = 2, .height = 2,
                                                                   .depth = dims == 3 ? 2 : 0},
                                        texels);
            lat_texture *t = texture_of(ctx, &(lat_texture_desc){.array = a, .filter = LAT_FILTER_LINEAR});
            for (int i = 0; i < NC; i++) {
                if (cases[i].dims != dims)
                    continue;
                float out = -1.0f;
                ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                                          LAT_ARGS(lat_arg_out(&out, sizeof out), lat_arg_f32(0.5f + cases[i].f[0] / 256.0f),
                                                   lat_arg_f32(0.5f + cases[i].f[1] / 256.0f),
                                                   lat_arg_f32(0.5f + cases[i].f[2] / 256.0f),
                                                   lat_arg_i32(dims), lat_arg_u64(lat_texture_handle(t)))));
                ASSERT_MSG(out * 256.0f == (float)cases[i].w[c],
                           "%d-D fractions (%d, %d, %d)/256, corner %d: weight %g/256, want %d/256", dims,
                           cases[i].f[0], cases[i].f[1], cases[i].f[2], c, (double)(out * 256.0f),
                           cases[i].w[c]);
            }
        }
    }
}

/* Clamped reads outside a 2x2x2 texture, as an H100 weighs them (read off the GPU): the
 * coordinate moves to the edge texel's centre before the weights are formed, which the
 * weights' rounding shows (exact weights would be the same either way). */
TEST(a_clamped_trilinear_read_outside_weighs_from_the_edge_texel_centre)
{
    static const struct {
        float p[3];
        int w[8]; /* the weight in 1/256 that each texel gets */
    } cases[] = {
        {{1.375f, 0.57421875f, -5.0f}, {30, 207, 2, 17, 0, 0, 0, 0}},
        {{2.3f, 0.91796875f, 1.140625f}, {0, 54, 0, 38, 0, 95, 0, 69}},
        {{0.71875f, 1.484375f, 2.01f}, {0, 0, 0, 0, 3, 1, 197, 55}},
    };
    lat_context *ctx = t_context();
    static const char src[] = "__global__ void at(float *out, float x, float y, float z, cudaTextureObject_t t)\n"
                              "{ out[0] = tex3D<float>(t, x, y, z); }\n";
    lat_kernel *k = t_kernel(ctx, src, "at");
    for (int c = 0; c < 8; c++) {
        float texels[8] = {0};
        texels[c] = 1.0f;
        lat_tex_array *a = array_of(ctx, &(lat_tex_array_desc){.width = 2, .height = 2, .depth = 2}, texels);
        lat_texture *t = texture_of(ctx, &(lat_texture_desc){.array = a, .filter = LAT_FILTER_LINEAR});
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            float out = -1.0f;
            ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                                      LAT_ARGS(lat_arg_out(&out, sizeof out), lat_arg_f32(cases[i].p[0]),
                                               lat_arg_f32(cases[i].p[1]), lat_arg_f32(cases[i].p[2]),
                                               lat_arg_u64(lat_texture_handle(t)))));
            ASSERT_MSG(out * 256.0f == (float)cases[i].w[c], "(%g, %g, %g), texel %d: weight %g/256, want %d/256",
                       (double)cases[i].p[0], (double)cases[i].p[1], (double)cases[i].p[2], c,
                       (double)(out * 256.0f), cases[i].w[c]);
        }
    }
}

/* ---- surfaces ------------------------------------------------------------------------------------ */

TEST(a_surface_written_by_one_kernel_is_read_by_another_and_by_the_host)
{
    lat_context *ctx = t_context();
    enum { W = 40, H = 24 };
    lat_tex_array *a = array_of(ctx, &(lat_tex_array_desc){.width = W, .height = H, .surface = 1}, NULL);
    lat_surface *s = NULL;
    ASSERT_OK(lat_surface_create(ctx, a, &s));
    ASSERT_TRUE(lat_surface_handle(s) != 0);
    float *in = t_calloc(W * H, sizeof *in);
    t_rand_floats(in, W * H, -1000.0f, 1000.0f);
    static const char src[] =
        "__global__ void put(const float *in, int w, int h, cudaSurfaceObject_t s)\n"
        "{\n"
        "    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;\n"
        "    if (x < w) surf2Dwrite(in[y * w + x] * 2.0f, s, x * (int)sizeof(float), y);\n"
        "}\n"
        "__global__ void get(float *out, int w, int h, cudaSurfaceObject_t s)\n"
        "{\n"
        "    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;\n"
        "    float v;\n"
        "    surf2Dread(&v, s, x * 4, y);\n"
        "    if (x < w) out[y * w + x] = v + surf2Dread<float>(s, x * 4, y, cudaBoundaryModeTrap);\n"
        "}\n";
    lat_module *m;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "surf.cu"}, &m));
    lat_kernel *put, *get;
    ASSERT_OK(lat_module_get_kernel(m, "put", &put));
    ASSERT_OK(lat_module_get_kernel(m, "get", &get));
    lat_launch_desc ld = {.grid = {(W + 31) / 32, H}, .block = {32}};
    ld.grid.x = 2; /* 64 threads a row: x past the width is not written */
    ASSERT_OK(lat_launch_args(put, &ld, LAT_ARGS(lat_arg_in(in, W * H * sizeof *in), lat_arg_i32(W),
                                                 lat_arg_i32(H), lat_arg_u64(lat_surface_handle(s)))));
    float *host = t_calloc(W * H, sizeof *host), *out = t_calloc(W * H, sizeof *out);
    ASSERT_OK(lat_tex_array_copy_to_host(a, host, 0));
    for (int i = 0; i < W * H; i++)
        ASSERT_MSG(host[i] == in[i] * 2.0f, "texel %d: %g, want %g", i, (double)host[i],
                   (double)(in[i] * 2.0f));
    ld.grid.x = 2;
    lat_launch_desc lg = {.grid = {(W + 7) / 8, H}, .block = {8}};
    ASSERT_OK(lat_launch_args(get, &lg, LAT_ARGS(lat_arg_out(out, W * H * sizeof *out), lat_arg_i32(W),
                                                 lat_arg_i32(H), lat_arg_u64(lat_surface_handle(s)))));
    for (int i = 0; i < W * H; i++)
        ASSERT_MSG(out[i] == in[i] * 4.0f, "read %d: %g, want %g", i, (double)out[i], (double)(in[i] * 4.0f));
}

TEST(surfaces_clamp_or_zero_outside_as_their_boundary_mode_says)
{
    lat_context *ctx = t_context();
    enum { W = 8, H = 4 };
    int img[W * H];
    for (int i = 0; i < W * H; i++)
        img[i] = (int)(t_rand_u32() % 100000) + 1;
    lat_tex_array *a = array_of(ctx, &(lat_tex_array_desc){.width = W, .height = H, .format = LAT_FORMAT_I32,
                                                           .surface = 1}, img);
    lat_surface *s;
    ASSERT_OK(lat_surface_create(ctx, a, &s));
    static const char src[] =
        "__global__ void edges(int *out, const int *x, const int *y, cudaSurfaceObject_t s)\n"
        "{\n"
        "    int i = threadIdx.x;\n"
        "    out[i] = surf2Dread<int>(s, x[i] * 4, y[i], cudaBoundaryModeClamp);\n"
        "    out[16 + i] = surf2Dread<int>(s, x[i] * 4, y[i], cudaBoundaryModeZero);\n"
        "}\n"
        "__global__ void scribble(const int *x, const int *y, cudaSurfaceObject_t s)\n"
        "{ int i = threadIdx.x; surf2Dwrite(-1, s, x[i] * 4, y[i], cudaBoundaryModeZero); }\n";
    int x[16], y[16], out[32];
    for (int i = 0; i < 16; i++) {
        x[i] = (int)(t_rand_u32() % 16) - 4;
        y[i] = (int)(t_rand_u32() % 8) - 2;
    }
    x[0] = 3, y[0] = 2; /* one inside */
    lat_module *m;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "edges.cu"}, &m));
    lat_kernel *edges, *scribble;
    ASSERT_OK(lat_module_get_kernel(m, "edges", &edges));
    ASSERT_OK(lat_module_get_kernel(m, "scribble", &scribble));
    ASSERT_OK(lat_launch_args(edges, &(lat_launch_desc){.grid = {1}, .block = {16}},
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_in(x, sizeof x),
                                       lat_arg_in(y, sizeof y), lat_arg_u64(lat_surface_handle(s)))));
    ASSERT_OK(lat_launch_args(scribble, &(lat_launch_desc){.grid = {1}, .block = {16}},
                              LAT_ARGS(lat_arg_in(x, sizeof x), lat_arg_in(y, sizeof y),
                                       lat_arg_u64(lat_surface_handle(s)))));
    int after[W * H];
    ASSERT_OK(lat_tex_array_copy_to_host(a, after, 0));
    for (int i = 0; i < 16; i++) {
        bool inside = x[i] >= 0 && x[i] < W && y[i] >= 0 && y[i] < H;
        int cx = x[i] < 0 ? 0 : x[i] >= W ? W - 1 : x[i], cy = y[i] < 0 ? 0 : y[i] >= H ? H - 1 : y[i];
        ASSERT_MSG(out[i] == img[cy * W + cx], "clamped (%d, %d): %d, want %d", x[i], y[i], out[i],
                   img[cy * W + cx]);
        ASSERT_MSG(out[16 + i] == (inside ? img[y[i] * W + x[i]] : 0), "zero-mode (%d, %d): %d", x[i],
                   y[i], out[16 + i]);
    }
    /* Writes inside landed, writes outside were dropped. */
    ASSERT_EQ(after[2 * W + 3], -1);
    int changed = 0;
    for (int i = 0; i < W * H; i++)
        changed += after[i] != img[i];
    int inside_writes = 0;
    for (int i = 0; i < 16; i++)
        if (x[i] >= 0 && x[i] < W && y[i] >= 0 && y[i] < H) {
            bool dup = false;
            for (int j = 0; j < i; j++)
                dup |= x[j] == x[i] && y[j] == y[i];
            inside_writes += !dup;
        }
    ASSERT_EQ(changed, inside_writes);
}

TEST(layered_and_3d_surfaces_address_their_layers_and_slices)
{
    lat_context *ctx = t_context();
    enum { W = 5, H = 4, L = 3 };
    lat_tex_array *al = array_of(ctx, &(lat_tex_array_desc){.width = W, .height = H, .layers = L,
                                                            .format = LAT_FORMAT_U16, .channels = 2,
                                                            .surface = 1}, NULL);
    lat_tex_array *a3 = array_of(ctx, &(lat_tex_array_desc){.width = W, .height = H, .depth = L,
                                                            .format = LAT_FORMAT_U8, .surface = 1}, NULL);
    lat_tex_array *a1 = array_of(ctx, &(lat_tex_array_desc){.width = W, .layers = L,
                                                            .format = LAT_FORMAT_F32, .surface = 1}, NULL);
    lat_surface *sl, *s3, *s1;
    ASSERT_OK(lat_surface_create(ctx, al, &sl));
    ASSERT_OK(lat_surface_create(ctx, a3, &s3));
    ASSERT_OK(lat_surface_create(ctx, a1, &s1));
    static const char src[] =
        "__global__ void fill(unsigned seed, cudaSurfaceObject_t sl, cudaSurfaceObject_t s3,\n"
        "                     cudaSurfaceObject_t s1)\n"
        "{\n"
        "    int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;\n"
        "    unsigned v = (x * 131 + y * 17 + z * 1031) ^ seed;\n"
        "    surf2DLayeredwrite(make_ushort2(v & 0xffff, v >> 16), sl, x * 4, y, z);\n"
        "    surf3Dwrite((unsigned char)v, s3, x, y, z);\n"
        "    if (y == 0) surf1DLayeredwrite((float)v, s1, x * 4, z);\n"
        "}\n";
    unsigned seed = t_rand_u32() | 1u;
    ASSERT_OK(lat_launch_args(t_kernel(ctx, src, "fill"), &(lat_launch_desc){.grid = {1}, .block = {W, H, L}},
                              LAT_ARGS(lat_arg_u32(seed), lat_arg_u64(lat_surface_handle(sl)),
                                       lat_arg_u64(lat_surface_handle(s3)),
                                       lat_arg_u64(lat_surface_handle(s1)))));
    unsigned short hl[L][H][W][2];
    unsigned char h3[L][H][W];
    float h1[L][W];
    ASSERT_OK(lat_tex_array_copy_to_host(al, hl, 0));
    ASSERT_OK(lat_tex_array_copy_to_host(a3, h3, 0));
    ASSERT_OK(lat_tex_array_copy_to_host(a1, h1, 0));
    for (int z = 0; z < L; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                unsigned v = (unsigned)(x * 131 + y * 17 + z * 1031) ^ seed;
                ASSERT_MSG(hl[z][y][x][0] == (v & 0xffff) && hl[z][y][x][1] == v >> 16,
                           "layered (%d, %d, %d)", x, y, z);
                ASSERT_MSG(h3[z][y][x] == (unsigned char)v, "3-D (%d, %d, %d)", x, y, z);
                if (y == 0)
                    ASSERT_MSG(h1[z][x] == (float)v, "1-D layered (%d, %d)", x, z);
            }
}

/* ---- lifetimes and pitches ------------------------------------------------------------------------ */

TEST(copies_honour_the_host_pitch)
{
    lat_context *ctx = t_context();
    enum { W = 7, H = 5, P = 13 }; /* P shorts a row on the host */
    short host[H][P], back[H][P];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < P; x++)
            host[y][x] = (short)t_rand_u32();
    lat_tex_array *a = array_of(ctx, &(lat_tex_array_desc){.width = W, .height = H, .format = LAT_FORMAT_I16}, NULL);
    ASSERT_OK(lat_tex_array_copy_from_host(a, host, P * sizeof(short)));
    memset(back, 0, sizeof back);
    ASSERT_OK(lat_tex_array_copy_to_host(a, back, P * sizeof(short)));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < P; x++)
            ASSERT_EQ(back[y][x], x < W ? host[y][x] : 0);
    lat_tex_array_desc d;
    ASSERT_OK(lat_tex_array_get_desc(a, &d));
    ASSERT_EQ(d.channels, 1);
    ASSERT_EQ(d.format, LAT_FORMAT_I16);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_tex_array_copy_to_host(a, back, W * sizeof(short) - 1));
    ASSERT_CONTAINS(lat_last_error(), "pitch");
}

TEST(a_texture_outlives_the_array_it_was_made_over)
{
    lat_context *ctx = t_context();
    float img[3] = {4.0f, 5.0f, 6.0f};
    lat_tex_array *a = array_of(ctx, &(lat_tex_array_desc){.width = 3}, img);
    lat_texture *t = texture_of(ctx, &(lat_texture_desc){.array = a});
    lat_tex_array_destroy(a);
    static const char src[] =
        "__global__ void after(float *out, cudaTextureObject_t t) { out[threadIdx.x] = tex1D<float>(t, threadIdx.x + 0.5f); }\n";
    float out[3];
    ASSERT_OK(lat_launch_args(t_kernel(ctx, src, "after"), &(lat_launch_desc){.grid = {1}, .block = {3}},
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_u64(lat_texture_handle(t)))));
    ASSERT_TRUE(out[0] == 4.0f && out[1] == 5.0f && out[2] == 6.0f);
    lat_texture_destroy(t);
    lat_texture_destroy(NULL);
    lat_surface_destroy(NULL);
    lat_tex_array_destroy(NULL);
    ASSERT_U64_EQ(lat_texture_handle(NULL), 0);
    ASSERT_U64_EQ(lat_surface_handle(NULL), 0);
}

TEST(objects_left_alive_are_destroyed_with_their_context)
{
    lat_context *ctx = NULL;
    ASSERT_OK(lat_context_create(&(lat_context_desc){.backend = t_require_backend()}, &ctx));
    lat_tex_array *a = NULL;
    ASSERT_OK(lat_tex_array_create(ctx, &(lat_tex_array_desc){.width = 8, .height = 8, .surface = 1}, &a));
    lat_texture *t = NULL;
    lat_surface *s = NULL;
    ASSERT_OK(lat_texture_create(ctx, &(lat_texture_desc){.array = a}, &t));
    ASSERT_OK(lat_surface_create(ctx, a, &s));
    lat_deviceptr d = 0;
    ASSERT_OK(lat_mem_alloc(ctx, 1024, &d));
    ASSERT_OK(lat_texture_create(ctx, &(lat_texture_desc){.linear = {.ptr = d, .bytes = 1024}}, &t));
    lat_context_destroy(ctx); /* under ASan: nothing leaks */
}

TEST(kernels_with_barriers_read_textures_in_every_execution_mode)
{
    /* A tile loaded through the texture into shared memory, then read transposed: region
     * loops (a barrier at the top level), and fibers (a barrier in a device function). */
    lat_context *ctx = t_context();
    enum { W = 16 };
    float *img = random_texels(W * W, 8);
    lat_tex_array *a = array_of(ctx, &(lat_tex_array_desc){.width = W, .height = W}, img);
    lat_texture *t = texture_of(ctx, &(lat_texture_desc){.array = a});
    static const char src[] =
        "__device__ void sync_in_a_function(void) { __syncthreads(); }\n"
        "__global__ void region(float *out, cudaTextureObject_t t)\n"
        "{\n"
        "    __shared__ float tile[16][16];\n"
        "    int x = threadIdx.x, y = threadIdx.y;\n"
        "    tile[y][x] = tex2D<float>(t, x + 0.5f, y + 0.5f);\n"
        "    __syncthreads();\n"
        "    out[y * 16 + x] = tile[x][y];\n"
        "}\n"
        "__global__ void fiber(float *out, cudaTextureObject_t t)\n"
        "{\n"
        "    __shared__ float tile[16][16];\n"
        "    int x = threadIdx.x, y = threadIdx.y;\n"
        "    tile[y][x] = tex2D<float>(t, x + 0.5f, y + 0.5f);\n"
        "    sync_in_a_function();\n"
        "    out[y * 16 + x] = tile[x][y];\n"
        "}\n";
    lat_module *m;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "modes.cu"}, &m));
    const char *names[] = {"region", "fiber"};
    for (int n = 0; n < 2; n++) {
        lat_kernel *k;
        ASSERT_OK(lat_module_get_kernel(m, names[n], &k));
        float out[W * W];
        ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {W, W}},
                                  LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_u64(lat_texture_handle(t)))));
        for (int y = 0; y < W; y++)
            for (int x = 0; x < W; x++)
                ASSERT_MSG(out[y * W + x] == img[x * W + y], "%s: (%d, %d)", names[n], x, y);
    }
}

/* ---- errors: descriptors ------------------------------------------------------------------------- */

TEST(array_descriptors_are_checked_field_by_field)
{
    lat_context *ctx = t_context();
    lat_tex_array *a = NULL;
#define BAD(status, field, ...)                                                                \
    do {                                                                                       \
        ASSERT_STATUS(status, lat_tex_array_create(ctx, &(lat_tex_array_desc){__VA_ARGS__}, &a)); \
        ASSERT_CONTAINS(lat_last_error(), field);                                              \
        ASSERT_NULL(a);                                                                        \
    } while (0)
    BAD(LAT_ERROR_INVALID_VALUE, "width is 0", .width = 0, .height = 4);
    BAD(LAT_ERROR_INVALID_VALUE, "channels is 3", .width = 4, .channels = 3);
    BAD(LAT_ERROR_INVALID_VALUE, "format is 99", .width = 4, .format = (lat_format)99);
    BAD(LAT_ERROR_INVALID_VALUE, "both depth", .width = 4, .height = 4, .depth = 2, .layers = 2);
    BAD(LAT_ERROR_INVALID_VALUE, "needs a height", .width = 4, .depth = 2);
    BAD(LAT_ERROR_INVALID_VALUE, "MAXIMUM_TEXTURE2D_WIDTH", .width = (size_t)1 << 40, .height = 2);
    BAD(LAT_ERROR_INVALID_VALUE, "MAXIMUM_SURFACE3D_DEPTH", .width = 2, .height = 2,
        .depth = (size_t)1 << 30, .surface = 1);
    BAD(LAT_ERROR_INVALID_VALUE, "MAXIMUM_TEXTURE1D_LAYERED_LAYERS", .width = 2, .layers = 1 << 20);
#undef BAD
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_tex_array_create(NULL, &(lat_tex_array_desc){.width = 1}, &a));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_tex_array_create(ctx, NULL, &a));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_tex_array_create(ctx, &(lat_tex_array_desc){.width = 1}, NULL));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_tex_array_copy_from_host(NULL, &a, 0));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_tex_array_get_desc(NULL, NULL));

    ASSERT_STR_EQ(lat_format_name(LAT_FORMAT_U16), "u16");
    ASSERT_STR_EQ(lat_format_name((lat_format)42), "unknown");
    ASSERT_EQ(lat_format_size(LAT_FORMAT_DEFAULT), 4);
    ASSERT_EQ(lat_format_size(LAT_FORMAT_F16), 2);
}

TEST(texture_descriptors_are_checked_field_by_field)
{
    lat_context *ctx = t_context();
    lat_tex_array *a = array_of(ctx, &(lat_tex_array_desc){.width = 8, .height = 8}, NULL);
    lat_tex_array *u8 = array_of(ctx, &(lat_tex_array_desc){.width = 8, .height = 8, .format = LAT_FORMAT_U8}, NULL);
    lat_tex_array *i32 = array_of(ctx, &(lat_tex_array_desc){.width = 8, .format = LAT_FORMAT_I32}, NULL);
    lat_deviceptr d = t_device_copy(ctx, NULL, 4096);
    lat_texture *t = NULL;
#define BAD(field, ...)                                                                        \
    do {                                                                                       \
        ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,                                                 \
                      lat_texture_create(ctx, &(lat_texture_desc){__VA_ARGS__}, &t));          \
        ASSERT_CONTAINS(lat_last_error(), field);                                              \
        ASSERT_NULL(t);                                                                        \
    } while (0)
    BAD("names no texels", .filter = LAT_FILTER_POINT);
    BAD("desc sets desc->array and desc->linear.ptr", .array = a, .linear = {.ptr = d, .bytes = 64});
    BAD("address_mode[1] is LAT_ADDRESS_WRAP", .array = a,
        .address_mode = {LAT_ADDRESS_CLAMP, LAT_ADDRESS_WRAP});
    BAD("address_mode[0] is LAT_ADDRESS_MIRROR", .array = a, .address_mode = {LAT_ADDRESS_MIRROR});
    BAD("address_mode[2] is 7", .array = a, .address_mode = {0, 0, (lat_address_mode)7});
    BAD("filter is 5", .array = a, .filter = (lat_filter_mode)5);
    BAD("read_mode is 9", .array = a, .read_mode = (lat_read_mode)9);
    BAD("LAT_FILTER_LINEAR, which filters float reads only", .array = u8, .filter = LAT_FILTER_LINEAR);
    BAD("LAT_FILTER_LINEAR", .array = i32, .filter = LAT_FILTER_LINEAR);
    BAD("LAT_READ_NORMALIZED_FLOAT, which reads 8- and 16-bit", .array = a,
        .read_mode = LAT_READ_NORMALIZED_FLOAT);
    BAD("not a whole number", .linear = {.ptr = d, .channels = 4, .bytes = 40});
    BAD("linear.channels is 3", .linear = {.ptr = d, .channels = 3, .bytes = 48});
    BAD("not aligned", .linear = {.ptr = d + 4, .bytes = 64});
    BAD("read with tex1Dfetch", .linear = {.ptr = d, .bytes = 64}, .filter = LAT_FILTER_LINEAR);
    BAD("read with tex1Dfetch", .linear = {.ptr = d, .bytes = 64}, .normalized_coords = 1);
    BAD("pitch2d.pitch is 16, smaller than a row", .pitch2d = {.ptr = d, .width = 8, .height = 2, .pitch = 16});
    BAD("TEXTURE_PITCH_ALIGNMENT", .pitch2d = {.ptr = d, .width = 8, .height = 2, .pitch = 48});
    BAD("pitch2d.height is 0", .pitch2d = {.ptr = d, .width = 8, .pitch = 64});
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS,
                  lat_texture_create(ctx, &(lat_texture_desc){.linear = {.ptr = d, .bytes = 8192}}, &t));
    ASSERT_CONTAINS(lat_last_error(), "overrun");
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS,
                  lat_texture_create(ctx, &(lat_texture_desc){.pitch2d = {.ptr = d, .width = 8,
                                                                          .height = 200, .pitch = 64}}, &t));
    BAD("MAXIMUM_TEXTURE2D_LINEAR_HEIGHT",
        .pitch2d = {.ptr = d, .width = 8, .height = SIZE_MAX / 32, .pitch = 64 * 1024});
#undef BAD
    /* An array of another context, and one the user destroyed (kept alive by a texture). */
    lat_context *other = t_context();
    lat_tex_array *theirs = array_of(other, &(lat_tex_array_desc){.width = 4}, NULL);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_texture_create(ctx, &(lat_texture_desc){.array = theirs}, &t));
    ASSERT_CONTAINS(lat_last_error(), "another context");
    lat_texture *keep = texture_of(ctx, &(lat_texture_desc){.array = a});
    lat_tex_array_destroy(a);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_texture_create(ctx, &(lat_texture_desc){.array = a}, &t));
    ASSERT_CONTAINS(lat_last_error(), "destroyed");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_tex_array_copy_from_host(a, &keep, 0));
    lat_texture_destroy(keep);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_texture_create(ctx, NULL, &t));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_texture_create(NULL, &(lat_texture_desc){.array = u8}, &t));
}

TEST(surfaces_need_an_array_made_for_them)
{
    lat_context *ctx = t_context();
    lat_tex_array *plain = array_of(ctx, &(lat_tex_array_desc){.width = 8}, NULL);
    lat_surface *s = NULL;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_surface_create(ctx, plain, &s));
    ASSERT_CONTAINS(lat_last_error(), "lat_tex_array_desc.surface");
    ASSERT_NULL(s);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_surface_create(ctx, NULL, &s));
    lat_context *other = t_context();
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_surface_create(other, plain, &s));
    ASSERT_CONTAINS(lat_last_error(), "another context");
}

/* ---- errors: the kernel side ----------------------------------------------------------------------- */

static lat_status compile(lat_context *ctx, const char *src)
{
    lat_module *m = NULL;
    lat_status st = lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "k.cu"}, &m);
    lat_module_destroy(m);
    return st;
}

static void require_emulator(const lat_context *ctx)
{
    if (lat_context_backend(ctx) != LAT_BACKEND_EMU)
        SKIP("the emulator's diagnosis (a GPU compiles or runs it as CUDA does)");
}

TEST(texture_references_are_rejected_with_a_message_that_says_what_to_use)
{
    lat_context *ctx = t_context();
    require_emulator(ctx);
    ASSERT_STATUS(LAT_ERROR_UNSUPPORTED,
                  compile(ctx, "texture<float, 2, cudaReadModeElementType> tex;\n"
                               "__global__ void k(float *o) { o[0] = tex2D(tex, 0.5f, 0.5f); }\n"));
    ASSERT_CONTAINS(lat_last_error(), "k.cu:1:1: error: texture references (removed in CUDA 12): "
                                      "use texture objects (cudaTextureObject_t)");
    ASSERT_STATUS(LAT_ERROR_UNSUPPORTED,
                  compile(ctx, "static surface<void, 2> s;\n__global__ void k(void) {}\n"));
    ASSERT_CONTAINS(lat_last_error(), "surface references (removed in CUDA 12): use surface objects");
}

TEST(the_front_end_checks_texture_calls)
{
    lat_context *ctx = t_context();
    require_emulator(ctx);
    static const struct {
        const char *src, *msg;
        lat_status st;
    } cases[] = {
        {"__global__ void k(float *o, cudaTextureObject_t t) { o[0] = tex2D(t, 0.5f, 0.5f); }",
         "'tex2D' needs its result type as a template argument", LAT_ERROR_COMPILE},
        {"__global__ void k(float3 *o, cudaTextureObject_t t) { o[0] = tex2D<float3>(t, 0.5f, 0.5f); }",
         "3-component", LAT_ERROR_COMPILE},
        {"__global__ void k(double *o, cudaTextureObject_t t) { o[0] = tex1D<double>(t, 0.5f); }",
         "not a type textures return", LAT_ERROR_COMPILE},
        {"__global__ void k(float *o, cudaTextureObject_t t) { o[0] = tex2D<float>(t, 0.5f); }",
         "'tex2D' takes 3 arguments (2 given)", LAT_ERROR_COMPILE},
        {"__global__ void k(float *o, float *t) { o[0] = tex1Dfetch<float>(t, 1); }",
         "passing the texture object to 'tex1Dfetch'", LAT_ERROR_COMPILE},
        {"__global__ void k(const float *o, cudaSurfaceObject_t s) { surf2Dread((const float *)o, s, 0, 0); }",
         "pointer to const", LAT_ERROR_COMPILE},
        {"__global__ void k(float *o, cudaTextureObject_t t) { o[0] = texCubemap<float>(t, 1, 2, 3); }",
         "cubemap textures", LAT_ERROR_UNSUPPORTED},
        {"__global__ void k(float *o, cudaTextureObject_t t) { o[0] = tex2DLod<float>(t, 1, 2, 0); }",
         "mipmapped textures", LAT_ERROR_UNSUPPORTED},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ASSERT_STATUS(cases[i].st, compile(ctx, cases[i].src));
        ASSERT_CONTAINS(lat_last_error(), cases[i].msg);
    }
    /* A function of the program's own of the name is called as written. */
    ASSERT_OK(compile(ctx, "__device__ float tex2D(float a, float b) { return a + b; }\n"
                           "__global__ void k(float *o) { o[0] = tex2D(1.0f, 2.0f); }\n"));
    /* The headers CUDA declares them in are accepted. */
    ASSERT_OK(compile(ctx, "#include <texture_fetch_functions.h>\n#include <surface_functions.h>\n"
                           "#include <texture_indirect_functions.h>\n#include <cuda_texture_types.h>\n"
                           "__global__ void k(float *o, cudaTextureObject_t t) { o[0] = tex1Dfetch<float>(t, 0); }\n"));
}

static lat_status launch_with(lat_context *ctx, const char *src, const char *name, uint64_t handle)
{
    float out[4] = {0};
    lat_kernel *k = t_kernel(ctx, src, name);
    return lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                           LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_u64(handle)));
}

static const char read_src[] =
    "__global__ void rd(float *o, cudaTextureObject_t t) { o[0] = tex2D<float>(t, 0.5f, 0.5f); }\n";

TEST(a_destroyed_texture_used_in_a_launch_fails_it_clearly)
{
    lat_context *ctx = t_context();
    require_emulator(ctx);
    lat_tex_array *a = array_of(ctx, &(lat_tex_array_desc){.width = 4, .height = 4}, NULL);
    lat_texture *t = texture_of(ctx, &(lat_texture_desc){.array = a});
    uint64_t h = lat_texture_handle(t);
    ASSERT_OK(launch_with(ctx, read_src, "rd", h));
    lat_texture_destroy(t);
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, launch_with(ctx, read_src, "rd", h));
    ASSERT_CONTAINS(lat_last_error(), "rd.cu:1: kernel 'rd', block (0,0,0), thread (0,0,0): tex2D<float>");
    ASSERT_CONTAINS(lat_last_error(), "was destroyed");
    /* The same line from a kernel in region loops, whose code starts on lines of its
     * own (their count once shifted the line by one). */
    static const char region_src[] =
        "__global__ void rdb(float *o, cudaTextureObject_t t) { __syncthreads(); o[0] = tex2D<float>(t, 0.5f, 0.5f); }\n";
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, launch_with(ctx, region_src, "rdb", h));
    ASSERT_CONTAINS(lat_last_error(), "rdb.cu:1: kernel 'rdb', block (0,0,0), thread (0,0,0): tex2D<float>");
    /* Its slot taken by a new texture: the old handle is still recognised as destroyed. */
    lat_texture *t2 = texture_of(ctx, &(lat_texture_desc){.array = a});
    ASSERT_U64_NE(lat_texture_handle(t2), h);
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, launch_with(ctx, read_src, "rd", h));
    ASSERT_CONTAINS(lat_last_error(), "was destroyed");
    ASSERT_OK(launch_with(ctx, read_src, "rd", lat_texture_handle(t2)));
    /* Never made, zero, another context's. */
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, launch_with(ctx, read_src, "rd", 0x12345));
    ASSERT_CONTAINS(lat_last_error(), "not a texture or surface object of this context");
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, launch_with(ctx, read_src, "rd", 0));
    ASSERT_CONTAINS(lat_last_error(), "the handle is 0");
    lat_context *other = t_context();
    lat_tex_array *b = array_of(other, &(lat_tex_array_desc){.width = 4, .height = 4}, NULL);
    lat_texture *theirs = texture_of(other, &(lat_texture_desc){.array = b});
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, launch_with(ctx, read_src, "rd", lat_texture_handle(theirs)));
    ASSERT_CONTAINS(lat_last_error(), "another context's");
    /* The context stays usable. */
    ASSERT_OK(launch_with(ctx, read_src, "rd", lat_texture_handle(t2)));
}

TEST(reads_that_do_not_fit_the_texture_fail_the_launch_on_the_emulator)
{
    lat_context *ctx = t_context();
    require_emulator(ctx);
    lat_tex_array *a = array_of(ctx, &(lat_tex_array_desc){.width = 4, .height = 4, .surface = 1}, NULL);
    lat_tex_array *u8 = array_of(ctx, &(lat_tex_array_desc){.width = 4, .height = 4, .format = LAT_FORMAT_U8}, NULL);
    lat_texture *t = texture_of(ctx, &(lat_texture_desc){.array = a});
    lat_texture *tb = texture_of(ctx, &(lat_texture_desc){.array = u8});
    lat_surface *s = NULL;
    ASSERT_OK(lat_surface_create(ctx, a, &s));
    static const char src3[] =
        "__global__ void rd3(float *o, cudaTextureObject_t t) { o[0] = tex3D<float>(t, 0.5f, 0.5f, 0.5f); }\n";
    static const char srci[] =
        "__global__ void rdi(float *o, cudaTextureObject_t t) { o[0] = tex2D<int>(t, 0.5f, 0.5f); }\n";
    static const char srcf[] =
        "__global__ void rdf(float *o, cudaTextureObject_t t) { o[0] = tex2D<float>(t, 0.5f, 0.5f); }\n";
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, launch_with(ctx, src3, "rd3", lat_texture_handle(t)));
    ASSERT_CONTAINS(lat_last_error(), "the object is a 2-D texture: read it with tex2D");
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, launch_with(ctx, srci, "rdi", lat_texture_handle(t)));
    ASSERT_CONTAINS(lat_last_error(), "reads are float");
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, launch_with(ctx, srcf, "rdf", lat_texture_handle(tb)));
    ASSERT_CONTAINS(lat_last_error(), "LAT_READ_NORMALIZED_FLOAT reads them as floats");
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, launch_with(ctx, read_src, "rd", lat_surface_handle(s)));
    ASSERT_CONTAINS(lat_last_error(), "it is a surface object, not a texture object");
}

TEST(a_surface_access_outside_with_the_trap_mode_fails_the_launch_on_the_emulator)
{
    lat_context *ctx = t_context();
    require_emulator(ctx);
    lat_tex_array *a = array_of(ctx, &(lat_tex_array_desc){.width = 16, .height = 8, .surface = 1}, NULL);
    lat_surface *s;
    ASSERT_OK(lat_surface_create(ctx, a, &s));
    static const char src[] =
        "__global__ void wr(float *o, cudaSurfaceObject_t s)\n"
        "{\n"
        "    int x = threadIdx.x;\n"
        "    surf2Dwrite(1.0f, s, x * 4, 7);\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "wr");
    float out[1];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {16}},
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_u64(lat_surface_handle(s)))));
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {17}},
                                  LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_u64(lat_surface_handle(s)))));
    ASSERT_CONTAINS(lat_last_error(), "thread (16,0,0): surf2Dwrite<float>");
    ASSERT_CONTAINS(lat_last_error(), "(x = 64 bytes, y = 7) is outside the 2-D surface of 16 x 8 x 1 "
                                      "texels of 4 bytes");
    ASSERT_CONTAINS(lat_last_error(), "cudaBoundaryModeTrap");
    static const char odd[] =
        "__global__ void odd(float *o, cudaSurfaceObject_t s) { o[0] = surf2Dread<float>(s, 2, 0); }\n";
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, launch_with(ctx, odd, "odd", lat_surface_handle(s)));
    ASSERT_CONTAINS(lat_last_error(), "x = 2 bytes is not a multiple of the 4 bytes");
    /* Wider than a row: clamping has nowhere to put it (it once read before the array). */
    lat_tex_array *thin = array_of(ctx, &(lat_tex_array_desc){.width = 1, .surface = 1}, NULL);
    lat_surface *st;
    ASSERT_OK(lat_surface_create(ctx, thin, &st));
    static const char wide[] =
        "__global__ void wide(float4 *o, cudaSurfaceObject_t s)\n"
        "{ o[0] = surf1Dread<float4>(s, 0, cudaBoundaryModeClamp); }\n";
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, launch_with(ctx, wide, "wide", lat_surface_handle(st)));
    ASSERT_CONTAINS(lat_last_error(), "accesses 16 bytes, more than a row of the surface holds");
}

TEST(a_texture_over_freed_memory_fails_the_launch_on_the_emulator)
{
    lat_context *ctx = t_context();
    require_emulator(ctx);
    lat_deviceptr d = 0;
    ASSERT_OK(lat_mem_alloc(ctx, 4096, &d));
    lat_texture *t = texture_of(ctx, &(lat_texture_desc){.pitch2d = {.ptr = d, .width = 16, .height = 16,
                                                                      .pitch = 256}});
    ASSERT_OK(launch_with(ctx, read_src, "rd", lat_texture_handle(t)));
    ASSERT_OK(lat_mem_free(ctx, d));
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED, launch_with(ctx, read_src, "rd", lat_texture_handle(t)));
    ASSERT_CONTAINS(lat_last_error(), "was freed (lat_mem_free)");
}

TEST(checked_launches_read_textures_without_reports)
{
    /* Texture reads are the runtime's, not the kernel's pointer accesses: memcheck has
     * nothing to say of them, and the pointer form's store is checked as any store. */
    lat_context *ctx = t_context_with(&(lat_context_desc){.check = LAT_CHECK_MEMCHECK});
    require_emulator(ctx);
    enum { W = 8 };
    float *img = random_texels(W * W, 8);
    lat_tex_array *a = array_of(ctx, &(lat_tex_array_desc){.width = W, .height = W}, img);
    lat_texture *t = texture_of(ctx, &(lat_texture_desc){.array = a, .filter = LAT_FILTER_LINEAR});
    static const char src[] =
        "__global__ void chk(float *o, cudaTextureObject_t t, int n)\n"
        "{\n"
        "    int i = threadIdx.x;\n"
        "    tex2D(&o[i], t, i * 0.75f, 3.25f);\n"
        "    if (i == 0) tex2D(&o[n], t, 0.5f, 0.5f);\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "chk");
    float *out = t_calloc(W, sizeof *out);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {W}},
                              LAT_ARGS(lat_arg_out(out, W * sizeof *out),
                                       lat_arg_u64(lat_texture_handle(t)), lat_arg_i32(W - 1))));
    ref r = {img, {W, W, 1}, 1, {0}, 1, 0, {0}};
    for (int i = 0; i < W - 1; i++)
        ASSERT_TRUE(out[i] == ref_sample(&r, 2, (float[]){i * 0.75f, 3.25f, 0}, 0, 0));
    /* One past the end: the store through the pointer is reported. */
    ASSERT_STATUS(LAT_ERROR_CHECK_FAILED,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {W}},
                                  LAT_ARGS(lat_arg_out(out, W * sizeof *out),
                                           lat_arg_u64(lat_texture_handle(t)), lat_arg_i32(W))));
    ASSERT_CONTAINS(lat_last_error(), "chk.cu:5");
}

TEST(cross_checking_compares_the_arrays_under_surface_parameters)
{
    lat_context *ctx = t_context();
    if (lat_context_backend(ctx) != LAT_BACKEND_CROSS)
        SKIP("cross-checking only (LATTICE_BACKEND=cross)");
    lat_tex_array *a = array_of(ctx, &(lat_tex_array_desc){.width = 4, .height = 2,
                                                           .format = LAT_FORMAT_U32, .surface = 1}, NULL);
    lat_surface *s;
    ASSERT_OK(lat_surface_create(ctx, a, &s));
    /* A pointer's value differs between the two sides (each has its own copy of the
     * buffer): written into the surface, it is a difference the comparison must find. */
    static const char src[] =
        "__global__ void leak(const int *p, cudaSurfaceObject_t out)\n"
        "{ surf2Dwrite((unsigned)(size_t)p, out, 4 * 3, 1); }\n";
    int buf[4] = {1, 2, 3, 4};
    lat_deviceptr d = t_device_copy(ctx, buf, sizeof buf);
    ASSERT_STATUS(LAT_ERROR_CROSS_MISMATCH,
                  lat_launch_args(t_kernel(ctx, src, "leak"), &(lat_launch_desc){.grid = {1}, .block = {1}},
                                  LAT_ARGS(lat_arg_ptr(d), lat_arg_u64(lat_surface_handle(s)))));
    ASSERT_CONTAINS(lat_last_error(), "surface parameter 1 ('out')");
    ASSERT_CONTAINS(lat_last_error(), "texel 7 (x 3, row 1");
}
