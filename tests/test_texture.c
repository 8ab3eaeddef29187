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
static float ref_sample(const ref *r, int dims, const float *xyz, int layer, int c)
{
    if (!r->linear) {
        long long idx[3] = {0, 0, 0};
        for (int d = 0; d < dims; d++)
            idx[d] = ref_index(r, d, (long long)floor((double)ref_coord(r, d, xyz[d])));
        return (float)ref_texel(r, idx, layer, c);
    }
    /* x - 0.5 rounded to 1/256 of a texel: the integer part picks the texels, the
     * fraction (8 bits) weighs them. */
    long long lo[3] = {0, 0, 0};
    double w1[3] = {0, 0, 0};
    for (int d = 0; d < dims; d++) {
        double q = rint((double)ref_coord(r, d, xyz[d]) * 256.0 - 128.0);
        lo[d] = (long long)floor(q / 256.0);
        w1[d] = (q - (double)lo[d] * 256.0) / 256.0;
    }
    double sum = 0.0;
    for (int corner = 0; corner < (1 << dims); corner++) {
        double w = 1.0;
        long long idx[3] = {0, 0, 0};
        for (int d = 0; d < dims; d++) {
            int hi = (corner >> d) & 1;
            w *= hi ? w1[d] : 1.0 - w1[d];
            idx[d] = ref_index(r, d, lo[d] + hi);
        }
        if (w != 0.0)
            sum += w * ref_texel(r, idx, layer, c);
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
                         int h, double tol)
{
    size_t diffs = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float want = ref_sample(r, 2, (float[]){cx[x], cy[y], 0}, 0, 0);
            float g = got[y * w + x];
            if (tol == 0 ? memcmp(&g, &want, sizeof g) != 0 : fabs(g - want) > tol) {
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
    expect_equal(out, &r, cx, cy, OW, OH, 0);
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
    for (int i = 0; i < N; i++)
        cx[i] = 0.5f + (float)i / 4096.0f * 61.0f; /* fractions of 1/4096 across the pair */
    sample2d(ctx, t, cx, cy, N, 1, out);
    for (int i = 0; i < N; i++) {
        float want = (float)rint((cx[i] - 0.5) * 256.0);
        ASSERT_MSG(out[i] == want, "x = %.9g: %.9g, want %.9g (a whole number: the weight "
                   "has 8 fractional bits)", (double)cx[i], (double)out[i], (double)want);
    }
}

/* ---- point sampling, border, mirror ------------------------------------------------------------- */

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
    for (int x = 0; x < OW; x++)
        cx[x] = normalized ? (float)t_rand_double(-1.5, 2.5) : (float)t_rand_double(-4.0, W + 4.0);
    for (int y = 0; y < OH; y++)
        cy[y] = normalized ? (float)t_rand_double(-1.5, 2.5) : (float)t_rand_double(-4.0, H + 4.0);
    float *out = t_calloc(OW * OH, sizeof *out);
    sample2d(ctx, t, cx, cy, OW, OH, out);
    ref r = {img, {W, H, 1}, 1, {mode, mode, mode}, 0, normalized, {border, 0, 0, 0}};
    expect_equal(out, &r, cx, cy, OW, OH, 0);
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
    expect_equal(out, &r, cx, cy, OW, OH, 0);
}
