/* The emulator's GPU-arithmetic helpers (the prelude's LAT_EMU_PRELUDE_ARITH section): shifts
 * with PTX's clamped counts and float-to-integer conversions with cvt.rzi's saturation,
 * called by a kernel directly and checked against tables of what the PTX ISA specifies,
 * and against independent reference functions on random inputs. */
#include "harness.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static lat_kernel *kernel(lat_context *ctx, const char *src, const char *name)
{
    lat_module *mod = NULL;
    lat_status st = lat_module_create(ctx, &(lat_module_desc){.source = src}, &mod);
    ASSERT_MSG(st == LAT_OK, "%s: %s", lat_status_name(st), lat_last_error());
    lat_kernel *k = NULL;
    ASSERT_OK(lat_module_get_kernel(mod, name, &k));
    return k;
}

static lat_context *emu_context(void)
{
    return t_context_with(&(lat_context_desc){.backend = LAT_BACKEND_EMU});
}

/* ---- shifts ------------------------------------------------------------------------------ */

static const char shift_src[] =
    "__global__ void shifts(const long long *x, const unsigned *n, int *shl_i32, unsigned *shl_u32,\n"
    "                       int *shr_i32, unsigned *shr_u32, long long *shl_i64,\n"
    "                       unsigned long long *shl_u64, long long *shr_i64,\n"
    "                       unsigned long long *shr_u64, int nx, int nn)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i >= nx * nn)\n"
    "        return;\n"
    "    long long v = x[i / nn];\n"
    "    unsigned c = n[i % nn];\n"
    "    shl_i32[i] = __lat_shl_i32((int)v, c);\n"
    "    shl_u32[i] = __lat_shl_u32((unsigned)v, c);\n"
    "    shr_i32[i] = __lat_shr_i32((int)v, c);\n"
    "    shr_u32[i] = __lat_shr_u32((unsigned)v, c);\n"
    "    shl_i64[i] = __lat_shl_i64(v, c);\n"
    "    shl_u64[i] = __lat_shl_u64((unsigned long long)v, c);\n"
    "    shr_i64[i] = __lat_shr_i64(v, c);\n"
    "    shr_u64[i] = __lat_shr_u64((unsigned long long)v, c);\n"
    "}\n";

typedef struct shifted {
    int *shl_i32, *shr_i32;
    unsigned *shl_u32, *shr_u32;
    long long *shl_i64, *shr_i64;
    unsigned long long *shl_u64, *shr_u64;
} shifted;

static shifted run_shifts(const long long *x, int nx, const unsigned *n, int nn)
{
    lat_context *ctx = emu_context();
    lat_kernel *k = kernel(ctx, shift_src, "shifts");
    size_t m = (size_t)nx * (size_t)nn;
    shifted s = {t_calloc(m, 4), t_calloc(m, 4), t_calloc(m, 4), t_calloc(m, 4),
                 t_calloc(m, 8), t_calloc(m, 8), t_calloc(m, 8), t_calloc(m, 8)};
    ASSERT_OK(lat_launch_args(
        k, &(lat_launch_desc){.grid = {(unsigned)((m + 127) / 128)}, .block = {128}},
        LAT_ARGS(lat_arg_in(x, (size_t)nx * 8), lat_arg_in(n, (size_t)nn * 4),
                 lat_arg_out(s.shl_i32, m * 4), lat_arg_out(s.shl_u32, m * 4),
                 lat_arg_out(s.shr_i32, m * 4), lat_arg_out(s.shr_u32, m * 4),
                 lat_arg_out(s.shl_i64, m * 8), lat_arg_out(s.shl_u64, m * 8),
                 lat_arg_out(s.shr_i64, m * 8), lat_arg_out(s.shr_u64, m * 8),
                 lat_arg_i32(nx), lat_arg_i32(nn))));
    return s;
}

TEST(shifts_by_the_width_or_more_give_zero_or_the_sign_as_ptx_clamps_the_count)
{
    /* x = -5 (0xfffffffb), 0x12345678 and 0x8000000000000001 as each type. */
    const long long x[] = {-5, 0x12345678, (long long)0x8000000000000001ULL};
    const unsigned n[] = {0, 1, 31, 32, 33, 63, 64, 65, 255, 256, 0x80000000u, 0xffffffffu};
    enum { NX = 3, NN = 12 };
    shifted s = run_shifts(x, NX, n, NN);
#define AT(v, c) ((v) * NN + (c))
    /* 32 bits: counts 32 and up shift everything out. */
    ASSERT_EQ(s.shl_i32[AT(0, 1)], -10);
    ASSERT_EQ(s.shl_i32[AT(1, 2)], 0);          /* 0x12345678 << 31: bit 0 is 0 */
    ASSERT_EQ(s.shl_i32[AT(0, 2)], INT32_MIN);  /* 0xfffffffb << 31 */
    for (int c = 3; c < NN; c++) {
        ASSERT_MSG(s.shl_i32[AT(0, c)] == 0, "-5 << %u = %d", n[c], s.shl_i32[AT(0, c)]);
        ASSERT_MSG(s.shl_u32[AT(1, c)] == 0, "0x12345678u << %u = %u", n[c], s.shl_u32[AT(1, c)]);
        ASSERT_MSG(s.shr_u32[AT(0, c)] == 0, "0xfffffffbu >> %u = %u", n[c], s.shr_u32[AT(0, c)]);
        ASSERT_MSG(s.shr_i32[AT(0, c)] == -1, "-5 >> %u = %d", n[c], s.shr_i32[AT(0, c)]);
        ASSERT_MSG(s.shr_i32[AT(1, c)] == 0, "0x12345678 >> %u = %d", n[c], s.shr_i32[AT(1, c)]);
    }
    ASSERT_EQ(s.shr_i32[AT(0, 2)], -1);
    ASSERT_EQ(s.shr_u32[AT(0, 2)], 1);
    ASSERT_EQ(s.shr_i32[AT(1, 0)], 0x12345678);
    /* 64 bits: 32 to 63 are ordinary counts; 64 and up shift everything out. */
    ASSERT_U64_EQ(s.shl_u64[AT(1, 3)], 0x1234567800000000ULL);
    ASSERT_U64_EQ(s.shl_u64[AT(2, 5)], 0x8000000000000000ULL);
    ASSERT_EQ(s.shr_i64[AT(2, 5)], -1);
    ASSERT_U64_EQ(s.shr_u64[AT(2, 5)], 1);
    ASSERT_EQ(s.shr_i64[AT(1, 4)], 0);
    for (int c = 6; c < NN; c++) {
        for (int v = 0; v < NX; v++) {
            ASSERT_MSG(s.shl_i64[AT(v, c)] == 0, "%lld << %u", x[v], n[c]);
            ASSERT_MSG(s.shl_u64[AT(v, c)] == 0, "%llx << %u", (unsigned long long)x[v], n[c]);
            ASSERT_MSG(s.shr_u64[AT(v, c)] == 0, "%llx >> %u", (unsigned long long)x[v], n[c]);
            ASSERT_MSG(s.shr_i64[AT(v, c)] == (x[v] < 0 ? -1 : 0), "%lld >> %u = %lld", x[v],
                       n[c], s.shr_i64[AT(v, c)]);
        }
    }
#undef AT
}

/* The reference: one bit at a time, count times (at most 300), which is what a clamped
 * count means. */
static unsigned long long ref_shl(unsigned long long v, unsigned n, int bits)
{
    unsigned long long mask = bits == 64 ? ~0ULL : (1ULL << bits) - 1;
    for (unsigned i = 0; i < n && i < 300; i++)
        v = (v << 1) & mask;
    return v & mask;
}
static unsigned long long ref_shr(unsigned long long v, unsigned n, int bits, int is_signed)
{
    unsigned long long mask = bits == 64 ? ~0ULL : (1ULL << bits) - 1;
    unsigned long long sign = 1ULL << (bits - 1);
    v &= mask;
    for (unsigned i = 0; i < n && i < 300; i++)
        v = (v >> 1) | (is_signed && (v & sign) ? sign : 0);
    return v;
}

TEST(shifts_of_random_values_by_every_count_match_one_bit_at_a_time)
{
    enum { NX = 24, NN = 140 + 8 };
    long long x[NX];
    unsigned n[NN];
    for (int i = 0; i < NX; i++)
        x[i] = (long long)(((unsigned long long)t_rand_u32() << 32) | t_rand_u32());
    x[0] = -1;
    x[1] = 1;
    for (int c = 0; c < 140; c++)
        n[c] = (unsigned)c;
    /* Negative counts, as the emitter passes them: (unsigned)count. */
    const int negative[] = {-1, -2, -31, -32, -33, -64, -65, INT32_MIN};
    for (int c = 0; c < 8; c++)
        n[140 + c] = (unsigned)negative[c];
    shifted s = run_shifts(x, NX, n, NN);
    for (int v = 0; v < NX; v++) {
        for (int c = 0; c < NN; c++) {
            int i = v * NN + c;
            unsigned long long u = (unsigned long long)x[v];
            ASSERT_MSG((unsigned)s.shl_i32[i] == ref_shl(u, n[c], 32), "(int)%#llx << %u", u, n[c]);
            ASSERT_MSG(s.shl_u32[i] == ref_shl(u, n[c], 32), "(unsigned)%#llx << %u", u, n[c]);
            ASSERT_MSG((unsigned)s.shr_i32[i] == ref_shr(u, n[c], 32, 1), "(int)%#llx >> %u", u, n[c]);
            ASSERT_MSG(s.shr_u32[i] == ref_shr(u, n[c], 32, 0), "(unsigned)%#llx >> %u", u, n[c]);
            ASSERT_MSG((unsigned long long)s.shl_i64[i] == ref_shl(u, n[c], 64), "%#llx << %u", u, n[c]);
            ASSERT_MSG(s.shl_u64[i] == ref_shl(u, n[c], 64), "%#llxu << %u", u, n[c]);
            ASSERT_MSG((unsigned long long)s.shr_i64[i] == ref_shr(u, n[c], 64, 1), "%#llx >> %u", u, n[c]);
            ASSERT_MSG(s.shr_u64[i] == ref_shr(u, n[c], 64, 0), "%#llxu >> %u", u, n[c]);
        }
    }
}

/* ---- conversions ------------------------------------------------------------------------- */

/* Every helper of one source type, each result widened to 64 bits. */
static const char cvt_src[] =
    "__global__ void cvt(const REAL *x, long long *out, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i >= n)\n"
    "        return;\n"
    "    REAL v = x[i];\n"
    "    long long *o = out + 8 * i;\n"
    "    o[0] = P##_s8(v);\n"
    "    o[1] = P##_u8(v);\n"
    "    o[2] = P##_s16(v);\n"
    "    o[3] = P##_u16(v);\n"
    "    o[4] = P##_s32(v);\n"
    "    o[5] = P##_u32(v);\n"
    "    o[6] = P##_s64(v);\n"
    "    o[7] = (long long)P##_u64(v);\n"
    "}\n";

/* The source with REAL and P## filled in. */
static char *cvt_source(const char *real, const char *prefix)
{
    static char buf[2048];
    char *o = buf;
    for (const char *p = cvt_src; *p;) {
        if (strncmp(p, "REAL", 4) == 0) {
            o += sprintf(o, "%s", real);
            p += 4;
        } else if (strncmp(p, "P##", 3) == 0) {
            o += sprintf(o, "%s", prefix);
            p += 3;
        } else {
            *o++ = *p++;
        }
    }
    *o = '\0';
    return buf;
}

static long long *run_cvt(const char *real, const void *x, size_t esize, int n)
{
    lat_context *ctx = emu_context();
    lat_kernel *k = kernel(ctx, cvt_source(real, real[0] == 'f' ? "__lat_f2i" : "__lat_d2i"), "cvt");
    long long *out = t_calloc((size_t)n * 8, sizeof *out);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {(unsigned)(n + 63) / 64}, .block = {64}},
                              LAT_ARGS(lat_arg_in(x, (size_t)n * esize),
                                       lat_arg_out(out, (size_t)n * 8 * sizeof *out),
                                       lat_arg_i32(n))));
    return out;
}

/* What PTX's cvt.rzi gives, target by target: s8 u8 s16 u16 s32 u32 s64 u64 (the u64
 * column holds the bits). NaN: 0 from a float to 32 bits or less, else 1 << (bits - 1). */
typedef struct cvt_row_f {
    float x;
    long long want[8];
} cvt_row_f;
typedef struct cvt_row_d {
    double x;
    long long want[8];
} cvt_row_d;

#define U64(v) ((long long)(v))
static const cvt_row_f float_rows[] = {
    {NAN, {0, 0, 0, 0, 0, 0u, INT64_MIN, U64(9223372036854775808ULL)}},
    {INFINITY, {127, 255, 32767, 65535, 2147483647, 4294967295u, 9223372036854775807LL, U64(18446744073709551615ULL)}},
    {-INFINITY, {-128, 0, -32768, 0, INT32_MIN, 0u, INT64_MIN, 0LL}},
    {0.0f, {0, 0, 0, 0, 0, 0u, 0LL, 0LL}},
    {-0.0f, {0, 0, 0, 0, 0, 0u, 0LL, 0LL}},
    {0.5f, {0, 0, 0, 0, 0, 0u, 0LL, 0LL}},
    {-0.5f, {0, 0, 0, 0, 0, 0u, 0LL, 0LL}},
    {1.5f, {1, 1, 1, 1, 1, 1u, 1LL, 1LL}},
    {-1.5f, {-1, 0, -1, 0, -1, 0u, -1LL, 0LL}},
    {-1.0f, {-1, 0, -1, 0, -1, 0u, -1LL, 0LL}},
    {127.9f, {127, 127, 127, 127, 127, 127u, 127LL, 127LL}},
    {128.0f, {127, 128, 128, 128, 128, 128u, 128LL, 128LL}},
    {-128.5f, {-128, 0, -128, 0, -128, 0u, -128LL, 0LL}},
    {-129.0f, {-128, 0, -129, 0, -129, 0u, -129LL, 0LL}},
    {255.5f, {127, 255, 255, 255, 255, 255u, 255LL, 255LL}},
    {256.0f, {127, 255, 256, 256, 256, 256u, 256LL, 256LL}},
    {32767.5f, {127, 255, 32767, 32767, 32767, 32767u, 32767LL, 32767LL}},
    {32768.0f, {127, 255, 32767, 32768, 32768, 32768u, 32768LL, 32768LL}},
    {-32769.0f, {-128, 0, -32768, 0, -32769, 0u, -32769LL, 0LL}},
    {65535.5f, {127, 255, 32767, 65535, 65535, 65535u, 65535LL, 65535LL}},
    {65536.0f, {127, 255, 32767, 65535, 65536, 65536u, 65536LL, 65536LL}},
    {(0x1p31f - 0x1p7f), {127, 255, 32767, 65535, 2147483520, 2147483520u, 2147483520LL, 2147483520LL}},
    {0x1p31f, {127, 255, 32767, 65535, 2147483647, 2147483648u, 2147483648LL, 2147483648LL}},
    {-0x1p31f, {-128, 0, -32768, 0, INT32_MIN, 0u, -2147483648LL, 0LL}},
    {(0x1p32f - 0x1p8f), {127, 255, 32767, 65535, 2147483647, 4294967040u, 4294967040LL, 4294967040LL}},
    {0x1p32f, {127, 255, 32767, 65535, 2147483647, 4294967295u, 4294967296LL, 4294967296LL}},
    {(0x1p63f - 0x1p39f), {127, 255, 32767, 65535, 2147483647, 4294967295u, 9223371487098961920LL, 9223371487098961920LL}},
    {0x1p63f, {127, 255, 32767, 65535, 2147483647, 4294967295u, 9223372036854775807LL, U64(9223372036854775808ULL)}},
    {-0x1p63f, {-128, 0, -32768, 0, INT32_MIN, 0u, INT64_MIN, 0LL}},
    {(0x1p64f - 0x1p40f), {127, 255, 32767, 65535, 2147483647, 4294967295u, 9223372036854775807LL, U64(18446742974197923840ULL)}},
    {0x1p64f, {127, 255, 32767, 65535, 2147483647, 4294967295u, 9223372036854775807LL, U64(18446744073709551615ULL)}},
    {1e+30f, {127, 255, 32767, 65535, 2147483647, 4294967295u, 9223372036854775807LL, U64(18446744073709551615ULL)}},
    {-1e+30f, {-128, 0, -32768, 0, INT32_MIN, 0u, INT64_MIN, 0LL}},
};
static const cvt_row_d double_rows[] = {
    {NAN, {-128, 128, -32768, 32768, INT32_MIN, 2147483648u, INT64_MIN, U64(9223372036854775808ULL)}},
    {INFINITY, {127, 255, 32767, 65535, 2147483647, 4294967295u, 9223372036854775807LL, U64(18446744073709551615ULL)}},
    {-INFINITY, {-128, 0, -32768, 0, INT32_MIN, 0u, INT64_MIN, 0LL}},
    {0.0, {0, 0, 0, 0, 0, 0u, 0LL, 0LL}},
    {-0.0, {0, 0, 0, 0, 0, 0u, 0LL, 0LL}},
    {0.5, {0, 0, 0, 0, 0, 0u, 0LL, 0LL}},
    {-0.5, {0, 0, 0, 0, 0, 0u, 0LL, 0LL}},
    {1.5, {1, 1, 1, 1, 1, 1u, 1LL, 1LL}},
    {-1.5, {-1, 0, -1, 0, -1, 0u, -1LL, 0LL}},
    {-1.0, {-1, 0, -1, 0, -1, 0u, -1LL, 0LL}},
    {127.9, {127, 127, 127, 127, 127, 127u, 127LL, 127LL}},
    {128.0, {127, 128, 128, 128, 128, 128u, 128LL, 128LL}},
    {-128.5, {-128, 0, -128, 0, -128, 0u, -128LL, 0LL}},
    {-129.0, {-128, 0, -129, 0, -129, 0u, -129LL, 0LL}},
    {255.5, {127, 255, 255, 255, 255, 255u, 255LL, 255LL}},
    {256.0, {127, 255, 256, 256, 256, 256u, 256LL, 256LL}},
    {32767.5, {127, 255, 32767, 32767, 32767, 32767u, 32767LL, 32767LL}},
    {32768.0, {127, 255, 32767, 32768, 32768, 32768u, 32768LL, 32768LL}},
    {-32769.0, {-128, 0, -32768, 0, -32769, 0u, -32769LL, 0LL}},
    {65535.5, {127, 255, 32767, 65535, 65535, 65535u, 65535LL, 65535LL}},
    {65536.0, {127, 255, 32767, 65535, 65536, 65536u, 65536LL, 65536LL}},
    {(0x1p31 - 0x1p7), {127, 255, 32767, 65535, 2147483520, 2147483520u, 2147483520LL, 2147483520LL}},
    {0x1p31, {127, 255, 32767, 65535, 2147483647, 2147483648u, 2147483648LL, 2147483648LL}},
    {-0x1p31, {-128, 0, -32768, 0, INT32_MIN, 0u, -2147483648LL, 0LL}},
    {(0x1p32 - 0x1p8), {127, 255, 32767, 65535, 2147483647, 4294967040u, 4294967040LL, 4294967040LL}},
    {0x1p32, {127, 255, 32767, 65535, 2147483647, 4294967295u, 4294967296LL, 4294967296LL}},
    {(0x1p63 - 0x1p39), {127, 255, 32767, 65535, 2147483647, 4294967295u, 9223371487098961920LL, 9223371487098961920LL}},
    {0x1p63, {127, 255, 32767, 65535, 2147483647, 4294967295u, 9223372036854775807LL, U64(9223372036854775808ULL)}},
    {-0x1p63, {-128, 0, -32768, 0, INT32_MIN, 0u, INT64_MIN, 0LL}},
    {(0x1p64 - 0x1p40), {127, 255, 32767, 65535, 2147483647, 4294967295u, 9223372036854775807LL, U64(18446742974197923840ULL)}},
    {0x1p64, {127, 255, 32767, 65535, 2147483647, 4294967295u, 9223372036854775807LL, U64(18446744073709551615ULL)}},
    {1e+30, {127, 255, 32767, 65535, 2147483647, 4294967295u, 9223372036854775807LL, U64(18446744073709551615ULL)}},
    {-1e+30, {-128, 0, -32768, 0, INT32_MIN, 0u, INT64_MIN, 0LL}},
    {-(0x1p31 + 0x1p0), {-128, 0, -32768, 0, INT32_MIN, 0u, -2147483649LL, 0LL}},
    {(0x1p31 - 0x1p0), {127, 255, 32767, 65535, 2147483647, 2147483647u, 2147483647LL, 2147483647LL}},
    {2147483647.5, {127, 255, 32767, 65535, 2147483647, 2147483647u, 2147483647LL, 2147483647LL}},
    {(0x1p32 - 0x1p0), {127, 255, 32767, 65535, 2147483647, 4294967295u, 4294967295LL, 4294967295LL}},
    {4294967295.5, {127, 255, 32767, 65535, 2147483647, 4294967295u, 4294967295LL, 4294967295LL}},
    {(0x1p63 - 0x1p10), {127, 255, 32767, 65535, 2147483647, 4294967295u, 9223372036854774784LL, 9223372036854774784LL}},
    {-(0x1p63 + 0x1p11), {-128, 0, -32768, 0, INT32_MIN, 0u, INT64_MIN, 0LL}},
    {(0x1p64 - 0x1p11), {127, 255, 32767, 65535, 2147483647, 4294967295u, 9223372036854775807LL, U64(18446744073709549568ULL)}},
    {1e300, {127, 255, 32767, 65535, 2147483647, 4294967295u, 9223372036854775807LL, U64(18446744073709551615ULL)}},
    {-1e300, {-128, 0, -32768, 0, INT32_MIN, 0u, INT64_MIN, 0LL}},
    {3.99, {3, 3, 3, 3, 3, 3u, 3LL, 3LL}},
    {-3.99, {-3, 0, -3, 0, -3, 0u, -3LL, 0LL}},
};
#undef U64

static const char *const target_names[8] = {"s8", "u8", "s16", "u16", "s32", "u32", "s64", "u64"};

TEST(float_to_integer_saturates_truncates_and_maps_nan_as_ptx_cvt_rzi)
{
    enum { N = sizeof float_rows / sizeof float_rows[0] };
    float x[N];
    for (int i = 0; i < N; i++)
        x[i] = float_rows[i].x;
    long long *out = run_cvt("float", x, sizeof(float), N);
    for (int i = 0; i < N; i++)
        for (int t = 0; t < 8; t++)
            ASSERT_MSG(out[8 * i + t] == float_rows[i].want[t],
                       "__lat_f2i_%s(%.9g) = %lld, want %lld (row %d)", target_names[t],
                       (double)x[i], out[8 * i + t], float_rows[i].want[t], i);
}

TEST(double_to_integer_saturates_truncates_and_maps_nan_as_ptx_cvt_rzi)
{
    enum { N = sizeof double_rows / sizeof double_rows[0] };
    double x[N];
    for (int i = 0; i < N; i++)
        x[i] = double_rows[i].x;
    long long *out = run_cvt("double", x, sizeof(double), N);
    for (int i = 0; i < N; i++)
        for (int t = 0; t < 8; t++)
            ASSERT_MSG(out[8 * i + t] == double_rows[i].want[t],
                       "__lat_d2i_%s(%.17g) = %lld, want %lld (row %d)", target_names[t],
                       x[i], out[8 * i + t], double_rows[i].want[t], i);
}

/* The reference, with branches and in the host compiler's arithmetic: truncate, clamp. */
static long long ref_cvt(double x, int from_double, int t)
{
    static const int bits[8] = {8, 8, 16, 16, 32, 32, 64, 64};
    int b = bits[t], is_signed = !(t & 1);
    if (isnan(x)) {
        if (!from_double && b < 64)
            return 0;
        return is_signed ? (long long)(~0ULL << (b - 1)) : (long long)(1ULL << (b - 1));
    }
    double lo = is_signed ? -ldexp(1, b - 1) : 0, hi = ldexp(1, is_signed ? b - 1 : b);
    double r = trunc(x);
    if (r < lo)
        return is_signed ? (long long)(~0ULL << (b - 1)) : 0;
    if (r >= hi)
        return is_signed ? (long long)((1ULL << (b - 1)) - 1) : (long long)(b == 64 ? ~0ULL : (1ULL << b) - 1);
    if (b == 64 && !is_signed && r >= ldexp(1, 63))
        return (long long)(unsigned long long)r;
    return (long long)r;
}

TEST(conversions_of_random_bit_patterns_match_a_truncate_and_clamp_reference)
{
    enum { N = 4096 };
    float *xf = t_calloc(N, sizeof *xf);
    double *xd = t_calloc(N, sizeof *xd);
    for (int i = 0; i < N; i++) {
        /* Exponents near every range's edge are the interesting ones: draw them there. */
        uint32_t r = t_rand_u32();
        int e = (int)(r % 80) - 4;
        double m = 1 + (double)t_rand_u32() / 4294967296.0;
        double v = ldexp(m, e) * ((r >> 8) & 1 ? -1 : 1);
        xd[i] = i % 5 == 0 ? ldexp(1, e) + ((r >> 9) & 1 ? 0.5 : -0.5) : v;
        if (i % 97 == 0)
            xd[i] = i % 2 ? NAN : (i % 3 ? INFINITY : -INFINITY);
        xf[i] = (float)xd[i];
    }
    long long *of = run_cvt("float", xf, sizeof(float), N);
    long long *od = run_cvt("double", xd, sizeof(double), N);
    for (int i = 0; i < N; i++)
        for (int t = 0; t < 8; t++) {
            ASSERT_MSG(of[8 * i + t] == ref_cvt(xf[i], 0, t), "__lat_f2i_%s(%a) = %lld, want %lld",
                       target_names[t], (double)xf[i], of[8 * i + t], ref_cvt(xf[i], 0, t));
            ASSERT_MSG(od[8 * i + t] == ref_cvt(xd[i], 1, t), "__lat_d2i_%s(%a) = %lld, want %lld",
                       target_names[t], xd[i], od[8 * i + t], ref_cvt(xd[i], 1, t));
        }
}
