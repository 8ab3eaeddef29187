/*
 * The cross-check's comparison core (lat__cross_compare_bytes), on synthetic buffers: what
 * passes (the rounding differences between a GPU and the emulator, also where results
 * cancel) and what is reported (the differences bugs make), field by field in a struct.
 * The "GPU" side of these buffers is computed with fused multiply-adds (fmaf), as NVRTC
 * contracts by default, and the "emulator" side without, as the emulator computes today.
 */
#include "cross/cross.h"
#include "harness.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The defaults (lat_context_desc's cross_rtol and cross_atol when 0). */
static const double RTOL = 1e-4, ATOL = 0;

static lat__elem_field f32_field = {0, LAT__SCALAR_F32}, f64_field = {0, LAT__SCALAR_F64},
                       f16_field = {0, LAT__SCALAR_F16};
static const lat__elem_layout F32 = {4, 1, &f32_field}, F64 = {8, 1, &f64_field},
                              F16 = {2, 1, &f16_field};

static size_t compare(const void *g, const void *e, size_t size, const lat__elem_layout *l,
                      double rtol, double atol, lat__cross_diff *d)
{
    return lat__cross_compare_bytes(g, e, size, l, rtol, atol, d);
}

/* c = a * b (n x n), the GPU's way (one fused multiply-add per term) or the emulator's. */
static void matmul(const float *a, const float *b, float *c, int n, int fused)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float acc = 0;
            for (int k = 0; k < n; k++) {
                if (fused) {
                    acc = fmaf(a[i * n + k], b[k * n + j], acc);
                } else {
                    float p = a[i * n + k] * b[k * n + j];
                    acc = acc + p;
                }
            }
            c[i * n + j] = acc;
        }
}

TEST(identical_buffers_compare_equal_and_count_every_value_as_identical)
{
    float a[100];
    t_rand_floats(a, 100, -1, 1);
    lat__cross_diff d;
    ASSERT_EQ(compare(a, a, sizeof a, &F32, RTOL, ATOL, &d), 0);
    ASSERT_EQ(d.stats[LAT__SCALAR_F32].values, 100);
    ASSERT_EQ(d.stats[LAT__SCALAR_F32].identical, 100);
    ASSERT_EQ(d.stats[LAT__SCALAR_F32].max_ulp, 0);
    ASSERT_U64_EQ(d.first, SIZE_MAX);
}

TEST(a_matmul_with_and_without_fma_passes_although_cancelled_elements_differ_by_more_than_1e4_of_themselves)
{
    enum { N = 256 };
    float *a = t_calloc(N * N, 4), *b = t_calloc(N * N, 4);
    float *g = t_calloc(N * N, 4), *e = t_calloc(N * N, 4);
    t_rand_floats(a, N * N, -1, 1);
    t_rand_floats(b, N * N, -1, 1);
    matmul(a, b, g, N, 1);
    matmul(a, b, e, N, 0);
    /* The case the scale is for: elements whose terms cancelled differ by more than
     * 1e-4 relative to themselves, and the old default rule (|g - e| <= 1e-6 + 1e-5 |e|
     * for each element alone) refused some. */
    int cancelled = 0, old_rule = 0, differ = 0;
    for (int i = 0; i < N * N; i++) {
        double diff = fabs((double)g[i] - e[i]);
        differ += g[i] != e[i];
        cancelled += diff > 1e-4 * fabs(e[i]);
        old_rule += diff > 1e-6 + 1e-5 * fabs(e[i]);
    }
    ASSERT_GT(differ, N * N / 2);
    ASSERT_GT(cancelled, 0);
    ASSERT_GT(old_rule, 0);
    lat__cross_diff d;
    ASSERT_EQ(compare(g, e, (size_t)N * N * 4, &F32, RTOL, ATOL, &d), 0);
    ASSERT_EQ(d.stats[LAT__SCALAR_F32].values, N * N);
    ASSERT_EQ(d.stats[LAT__SCALAR_F32].identical, N * N - differ);
    ASSERT_GT(d.stats[LAT__SCALAR_F32].max_ulp, 10); /* the cancelled ones */
    ASSERT_EQ(d.stats[LAT__SCALAR_F32].beyond, 0);
}

TEST(the_reported_matmul_element_from_a_real_gpu_passes)
{
    /* cuda -0.0128421905, emulator -0.0128434114, in a buffer whose elements are
     * typically of size 7 (512 products of two numbers in [-1, 1]). */
    enum { N = 4096 };
    float g[N], e[N];
    t_rand_floats(e, N, -12, 12);
    memcpy(g, e, sizeof g);
    g[1234] = -0.0128421905f;
    e[1234] = -0.0128434114f;
    lat__cross_diff d;
    ASSERT_EQ(compare(g, e, sizeof g, &F32, RTOL, ATOL, &d), 0);
    ASSERT_EQ(d.stats[LAT__SCALAR_F32].identical, N - 1);
    /* The old default, |g - e| <= 1e-6 + 1e-5 * |e| for each element alone, refused it. */
    ASSERT_TRUE(fabs((double)g[1234] - e[1234]) > 1e-6 + 1e-5 * fabs(e[1234]));
}

TEST(an_off_by_one_index_is_reported_at_its_first_element)
{
    enum { N = 1000 };
    float in[N + 1], g[N], e[N];
    t_rand_floats(in, N + 1, -1, 1);
    for (int i = 0; i < N; i++) {
        e[i] = 2 * in[i];
        g[i] = i >= 500 ? 2 * in[i + 1] : 2 * in[i]; /* the bug, from element 500 on */
    }
    lat__cross_diff d;
    ASSERT_EQ(compare(g, e, sizeof g, &F32, RTOL, ATOL, &d), 500);
    ASSERT_EQ(d.first_elem, 500);
    ASSERT_U64_EQ(d.first, 500 * 4);
    ASSERT_EQ(d.first_kind, LAT__SCALAR_F32);
    ASSERT_EQ(d.first_gpu, g[500]);
    ASSERT_EQ(d.first_emu, e[500]);
    ASSERT_EQ(d.stats[LAT__SCALAR_F32].beyond, 500);
}

/* Per-block sums of n values in blocks of 256, by a shared-memory tree with stride s
 * halving from 128 (or, with the bug, from 64: half of each block is never added). */
static void block_sums(const float *x, float *out, int nblocks, int first_stride)
{
    for (int b = 0; b < nblocks; b++) {
        float s[256];
        memcpy(s, x + 256 * b, sizeof s);
        for (int stride = first_stride; stride > 0; stride /= 2)
            for (int t = 0; t < stride; t++)
                s[t] += s[t + stride];
        out[b] = s[0];
    }
}

TEST(a_wrong_reduction_stride_is_reported)
{
    enum { B = 64 };
    float *x = t_calloc(256 * B, 4), g[B], e[B];
    t_rand_floats(x, 256 * B, 0, 1);
    block_sums(x, e, B, 128);
    block_sums(x, g, B, 64);
    lat__cross_diff d;
    ASSERT_EQ(compare(g, e, sizeof g, &F32, RTOL, ATOL, &d), B);
    ASSERT_EQ(d.first_elem, 0);
}

TEST(one_huge_value_does_not_loosen_the_check_for_the_others)
{
    /* A histogram-like buffer: values near 1 and one bin of 1e9. A 1% error in a small
     * value is reported; a scale from the largest value (1e9 * 1e-4) would hide it. */
    enum { N = 1000 };
    float g[N], e[N];
    t_rand_floats(e, N, 0.5f, 2);
    e[7] = 1e9f;
    memcpy(g, e, sizeof g);
    g[300] *= 1.01f;
    lat__cross_diff d;
    ASSERT_EQ(compare(g, e, sizeof g, &F32, RTOL, ATOL, &d), 1);
    ASSERT_EQ(d.first_elem, 300);
    /* The scale is the typical value, within a factor of two. */
    ASSERT_TRUE(d.first_scale >= 1 && d.first_scale <= 4);
}

TEST(values_that_all_cancel_alike_are_judged_against_each_other)
{
    /* Every element small and computed alike: the scale is theirs, so a relative 1e-3
     * error is still reported. */
    enum { N = 256 };
    double g[N], e[N];
    for (int i = 0; i < N; i++)
        e[i] = g[i] = 1e-9 * (1 + t_rand_double(0, 1));
    g[17] *= 1 + 1e-3;
    g[18] *= 1 + 1e-6; /* within */
    lat__cross_diff d;
    ASSERT_EQ(compare(g, e, sizeof g, &F64, RTOL, ATOL, &d), 1);
    ASSERT_EQ(d.first_elem, 17);
    ASSERT_EQ(d.first_kind, LAT__SCALAR_F64);
}

TEST(nan_inf_and_signed_zero)
{
    float g[6] = {NAN, INFINITY, 0.0f, -INFINITY, 1.0f, 2.0f};
    float e[6] = {-NAN, INFINITY, -0.0f, -INFINITY, 1.0f, 2.0f};
    lat__cross_diff d;
    ASSERT_EQ(compare(g, e, sizeof g, &F32, RTOL, ATOL, &d), 0); /* NaNs of any bits, -0 == 0 */
    ASSERT_EQ(d.stats[LAT__SCALAR_F32].identical, 4);
    g[4] = NAN;
    ASSERT_EQ(compare(g, e, sizeof g, &F32, RTOL, ATOL, &d), 1);
    ASSERT_EQ(d.first_elem, 4);
    ASSERT_U64_EQ(d.stats[LAT__SCALAR_F32].max_ulp, UINT64_MAX);
    g[4] = 1.0f;
    g[1] = -INFINITY;
    ASSERT_EQ(compare(g, e, sizeof g, &F32, 1e30, 1e30, &d), 1); /* infinities: only equal */
    g[1] = 3e38f;
    ASSERT_EQ(compare(g, e, sizeof g, &F32, 1e30, 1e30, &d), 1);
}

TEST(an_exact_tolerance_refuses_one_ulp_and_counts_it)
{
    float g[3] = {1, 2, 3}, e[3] = {1, 2, 3};
    g[2] = nextafterf(3, 4);
    lat__cross_diff d;
    ASSERT_EQ(compare(g, e, sizeof g, &F32, 0, 0, &d), 1);
    ASSERT_EQ(d.first_elem, 2);
    ASSERT_EQ(d.stats[LAT__SCALAR_F32].max_ulp, 1);
    ASSERT_EQ(compare(g, e, sizeof g, &F32, RTOL, ATOL, &d), 0);
    ASSERT_EQ(d.stats[LAT__SCALAR_F32].identical, 2);
    ASSERT_EQ(d.stats[LAT__SCALAR_F32].max_ulp, 1);
}

TEST(a_struct_compares_its_floats_within_the_tolerance_and_its_other_bytes_exactly)
{
    /* struct { float x; int n; double y; } : 16 bytes, x at 0, n at 4, y at 8. */
    typedef struct rec {
        float x;
        int n;
        double y;
    } rec;
    lat__elem_field fields[2] = {{0, LAT__SCALAR_F32}, {8, LAT__SCALAR_F64}};
    lat__elem_layout layout = {sizeof(rec), 2, fields};
    enum { N = 50 };
    rec g[N], e[N];
    memset(e, 0, sizeof e);
    for (int i = 0; i < N; i++)
        e[i] = (rec){(float)t_rand_double(-1, 1), i, t_rand_double(-1, 1)};
    memcpy(g, e, sizeof g);
    g[3].x = nextafterf(g[3].x, 2);
    g[4].y = nextafter(g[4].y, 2);
    lat__cross_diff d;
    ASSERT_EQ(compare(g, e, sizeof g, &layout, RTOL, ATOL, &d), 0);
    ASSERT_EQ(d.stats[LAT__SCALAR_F32].values, N);
    ASSERT_EQ(d.stats[LAT__SCALAR_F32].identical, N - 1);
    ASSERT_EQ(d.stats[LAT__SCALAR_F64].identical, N - 1);
    g[9].n = 10; /* an integer: exactly */
    ASSERT_EQ(compare(g, e, sizeof g, &layout, RTOL, ATOL, &d), 1);
    ASSERT_EQ(d.first_kind, LAT__SCALAR_EXACT);
    ASSERT_U64_EQ(d.first, 9 * sizeof(rec) + 4);
    ASSERT_EQ(d.first_elem, 9);
    g[2].y = 5; /* and a double beyond the tolerance, earlier in the buffer */
    ASSERT_EQ(compare(g, e, sizeof g, &layout, RTOL, ATOL, &d), 2);
    ASSERT_EQ(d.first_kind, LAT__SCALAR_F64);
    ASSERT_EQ(d.first_elem, 2);
    ASSERT_EQ(d.first_field_offset, 8);
}

TEST(doubles_of_opposite_signs_far_from_zero_count_their_ulps_without_overflow)
{
    /* More than 2^63 doubles lie between them: the distance once overflowed int64_t. */
    double g[2] = {1e300, -1e300}, e[2] = {-1e300, 1e300};
    lat__cross_diff d;
    ASSERT_EQ(compare(g, e, sizeof g, &F64, RTOL, ATOL, &d), 2);
    ASSERT_U64_EQ(d.stats[LAT__SCALAR_F64].max_ulp, 2 * (uint64_t)0x7e37e43c8800759cULL);
    ASSERT_EQ(d.first_elem, 0);
}

TEST(without_a_layout_every_byte_compares_exactly_and_a_tail_too)
{
    float g[5] = {1, 2, 3, 4, 5}, e[5] = {1, 2, 3, 4, 5};
    g[1] = nextafterf(2, 3);
    lat__cross_diff d;
    ASSERT_EQ(compare(g, e, sizeof g, NULL, RTOL, ATOL, &d), 1);
    ASSERT_EQ(d.first_kind, LAT__SCALAR_EXACT);
    ASSERT_U64_EQ(d.first, 4); /* the low byte of element 1, little-endian */
    ASSERT_EQ(d.stats[LAT__SCALAR_F32].values, 0);
    /* 18 bytes of floats: four floats and a 2-byte tail that compares exactly. */
    unsigned char gb[18], eb[18];
    memcpy(gb, g, 16);
    memcpy(eb, g, 16);
    gb[16] = eb[16] = 7;
    gb[17] = 1;
    eb[17] = 2;
    ASSERT_EQ(compare(gb, eb, sizeof gb, &F32, RTOL, ATOL, &d), 1);
    ASSERT_U64_EQ(d.first, 17);
    ASSERT_EQ(d.stats[LAT__SCALAR_F32].values, 4);
}

TEST(half_values_one_ulp_apart_pass_and_a_layout_that_does_not_fit_means_bytes)
{
    uint16_t g[3] = {0x3c00, 0x4000, 0xc500}, e[3] = {0x3c01, 0x4000, 0xc500}; /* 1+2^-10 */
    lat__cross_diff d;
    ASSERT_EQ(compare(g, e, sizeof g, &F16, RTOL, ATOL, &d), 0);
    ASSERT_EQ(d.stats[LAT__SCALAR_F16].values, 3);
    ASSERT_EQ(d.stats[LAT__SCALAR_F16].identical, 2);
    ASSERT_EQ(d.stats[LAT__SCALAR_F16].max_ulp, 1);
    e[2] = 0xc600; /* -6 against -5 */
    ASSERT_EQ(compare(g, e, sizeof g, &F16, RTOL, ATOL, &d), 1);
    ASSERT_EQ(d.first_emu, -6);
    ASSERT_EQ(d.first_gpu, -5);
    lat__elem_field bad = {6, LAT__SCALAR_F32};
    lat__elem_layout overrun = {8, 1, &bad};
    float fg[2] = {1, nextafterf(1, 2)}, fe[2] = {1, 1};
    ASSERT_EQ(compare(fg, fe, sizeof fg, &overrun, RTOL, ATOL, &d), 1);
    ASSERT_EQ(d.first_kind, LAT__SCALAR_EXACT);
}

TEST(a_stats_line_has_eight_tab_separated_columns)
{
    char line[256];
    lat__cross_kind_stats s = {1000, 990, 3, 0};
    lat__cross_stats_line(line, sizeof line, "test_cross", "matmul", "c", LAT__SCALAR_F32, &s);
    ASSERT_STR_EQ(line, "test_cross\tmatmul\tc\tfloat\t1000\t990\t3\t0\n");
    s.max_ulp = UINT64_MAX;
    lat__cross_stats_line(line, sizeof line, "p", "k", "x", LAT__SCALAR_F64, &s);
    ASSERT_STR_EQ(line, "p\tk\tx\tdouble\t1000\t990\tnan\t0\n");
}
