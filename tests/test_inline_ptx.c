/* Inline PTX as kernels write it by hand (docs/dialect.md lists what runs): each
 * instruction against a host model of PTX's definition, over random inputs; and what
 * the emulator cannot run is refused, naming the instruction. On a GPU the same kernels
 * run as written. */
#include "harness.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint32_t bfe_u32(uint32_t a, uint32_t pos, uint32_t len)
{
    pos &= 0xff, len &= 0xff;
    uint32_t r = 0;
    for (uint32_t i = 0; i < 32; i++)
        r |= (uint32_t)((i < len && pos + i <= 31) ? (a >> (pos + i)) & 1 : 0) << i;
    return r;
}

static uint32_t bfe_s32(uint32_t a, uint32_t pos, uint32_t len)
{
    pos &= 0xff, len &= 0xff;
    uint32_t top = pos + len - 1 < 31 ? pos + len - 1 : 31;
    uint32_t sbit = len ? (a >> top) & 1 : 0, r = 0; /* PTX: an empty field has no sign */
    for (uint32_t i = 0; i < 32; i++)
        r |= (uint32_t)((i < len && pos + i <= 31) ? (a >> (pos + i)) & 1 : sbit) << i;
    return r;
}

static uint32_t bfi_b32(uint32_t f, uint32_t b, uint32_t pos, uint32_t len)
{
    pos &= 0xff, len &= 0xff;
    uint32_t r = b;
    for (uint32_t i = 0; i < len && pos + i <= 31; i++)
        r = (r & ~(1u << (pos + i))) | (((f >> i) & 1) << (pos + i));
    return r;
}

/* prmt.b32 without a mode: nibble i of s picks result byte i from {b, a} by its 3 low bits;
 * its bit 3 set, the byte becomes its sign bit replicated (0x00 or 0xff). */
static uint32_t prmt_b32(uint32_t a, uint32_t b, uint32_t s)
{
    uint8_t bytes[8];
    for (int i = 0; i < 4; i++) {
        bytes[i] = (uint8_t)(a >> (8 * i));
        bytes[4 + i] = (uint8_t)(b >> (8 * i));
    }
    uint32_t r = 0;
    for (int i = 0; i < 4; i++) {
        unsigned nib = (s >> (4 * i)) & 15, byte = bytes[nib & 7];
        if (nib & 8)
            byte = byte & 0x80 ? 0xff : 0;
        r |= (uint32_t)byte << (8 * i);
    }
    return r;
}

/* prmt.b32.MODE: PTX ISA's table of which byte of {b, a} result byte i is, for c & 3. */
enum { F4E, B4E, RC8, ECL, ECR, RC16, MODES };
static uint32_t prmt_mode(uint32_t a, uint32_t b, uint32_t c, int mode)
{
    uint64_t v = (uint64_t)b << 32 | a;
    unsigned k = c & 3;
    uint32_t r = 0;
    for (unsigned i = 0; i < 4; i++) {
        unsigned sel = mode == F4E   ? k + i                /* forward 4 extract */
                       : mode == B4E ? (k - i) & 7          /* backward 4 extract */
                       : mode == RC8 ? k                    /* replicate a byte */
                       : mode == ECL ? (i > k ? i : k)      /* edge clamp left */
                       : mode == ECR ? (i < k ? i : k)      /* edge clamp right */
                                     : 2 * (k & 1) + (i & 1); /* replicate a half */
        r |= (uint32_t)(v >> (8 * sel) & 0xff) << (8 * i);
    }
    return r;
}

enum { N = 256, OUTS = 12 };

TEST(bit_and_arithmetic_instructions_follow_ptx)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "extern \"C\" __global__ void k(const unsigned *in, unsigned *o) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    unsigned a = in[4 * i], b = in[4 * i + 1], c = in[4 * i + 2] % 40, d = in[4 * i + 3] % 40;\n"
        "    unsigned *out = o + 12 * i;\n"
        "    asm(\"bfe.u32 %0, %1, %2, %3;\" : \"=r\"(out[0]) : \"r\"(a), \"r\"(c), \"r\"(d));\n"
        "    int s; asm(\"bfe.s32 %0, %1, %2, %3;\" : \"=r\"(s) : \"r\"((int)a), \"r\"(c), \"r\"(d)); out[1] = (unsigned)s;\n"
        "    asm(\"bfi.b32 %0, %1, %2, %3, %4;\" : \"=r\"(out[2]) : \"r\"(a), \"r\"(b), \"r\"(c), \"r\"(d));\n"
        "    asm(\"prmt.b32 %0, %1, %2, %3;\" : \"=r\"(out[3]) : \"r\"(a), \"r\"(b), \"r\"(in[4 * i + 2]));\n"
        "    asm(\"mul.hi.u32 %0, %1, %2;\" : \"=r\"(out[4]) : \"r\"(a), \"r\"(b));\n"
        "    asm(\"mad.lo.u32 %0, %1, %2, %3;\" : \"=r\"(out[5]) : \"r\"(a), \"r\"(b), \"r\"(c));\n"
        "    asm(\"shl.b32 %0, %1, %2;\\n\\tshr.u32 %0, %0, 1;\" : \"=r\"(out[6]) : \"r\"(a), \"r\"(c));\n"
        "    asm(\"brev.b32 %0, %1;\" : \"=r\"(out[7]) : \"r\"(a));\n"
        "    asm(\"popc.b32 %0, %1;\" : \"=r\"(out[8]) : \"r\"(a));\n"
        "    asm(\"bfind.u32 %0, %1;\" : \"=r\"(out[9]) : \"r\"(a >> c));\n"
        "    unsigned long long w; asm(\"mul.wide.u32 %0, %1, %2;\" : \"=l\"(w) : \"r\"(a), \"r\"(b));\n"
        "    out[10] = (unsigned)(w >> 32) ^ (unsigned)w;\n"
        "    unsigned acc = a; asm(\"xor.b32 %0, %0, %1;\" : \"+r\"(acc) : \"r\"(b)); out[11] = acc;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    uint32_t *in = t_calloc(4 * N, sizeof *in), *o = t_calloc(OUTS * N, sizeof *o);
    for (int i = 0; i < 4 * N; i++)
        in[i] = t_rand_u32();
    /* an empty field of a negative source: bfe.s32 gives 0 there on an H100 */
    in[0] |= 0x80000000u, in[2] = 7, in[3] = 40;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {N / 64}, .block = {64}},
                              LAT_ARGS(lat_arg_in(in, 4 * N * sizeof *in), lat_arg_out(o, OUTS * N * sizeof *o))));
    ASSERT_EQ(o[1], 0u);
    for (int i = 0; i < N; i++) {
        uint32_t a = in[4 * i], b = in[4 * i + 1], c = in[4 * i + 2] % 40, d = in[4 * i + 3] % 40;
        const uint32_t *out = o + OUTS * i;
        ASSERT_EQ(out[0], bfe_u32(a, c, d));
        ASSERT_EQ(out[1], bfe_s32(a, c, d));
        ASSERT_EQ(out[2], bfi_b32(a, b, c, d));
        ASSERT_EQ(out[3], prmt_b32(a, b, in[4 * i + 2]));
        ASSERT_EQ(out[4], (uint32_t)(((uint64_t)a * b) >> 32));
        ASSERT_EQ(out[5], a * b + c);
        ASSERT_EQ(out[6], (c >= 32 ? 0u : a << c) >> 1);
        uint32_t rev = 0;
        for (int bit = 0; bit < 32; bit++)
            rev |= ((a >> bit) & 1u) << (31 - bit);
        ASSERT_EQ(out[7], rev);
        ASSERT_EQ(out[8], (uint32_t)__builtin_popcount(a));
        uint32_t v = c >= 32 ? 0 : a >> c;
        ASSERT_EQ(out[9], v ? 31u - (uint32_t)__builtin_clz(v) : 0xffffffffu);
        uint64_t w = (uint64_t)a * b;
        ASSERT_EQ(out[10], (uint32_t)(w >> 32) ^ (uint32_t)w);
        ASSERT_EQ(out[11], a ^ b);
    }
}

/* Every prmt mode over random words and selectors, and the plain form with selector nibbles
 * that replicate signs (bit 3 set) and ones that do not. */
TEST(prmt_follows_its_modes_and_replicates_signs)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "extern \"C\" __global__ void k(const unsigned *in, unsigned *o) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    unsigned a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2], *out = o + 8 * i;\n"
        "    asm(\"prmt.b32.f4e %0, %1, %2, %3;\" : \"=r\"(out[0]) : \"r\"(a), \"r\"(b), \"r\"(c));\n"
        "    asm(\"prmt.b32.b4e %0, %1, %2, %3;\" : \"=r\"(out[1]) : \"r\"(a), \"r\"(b), \"r\"(c));\n"
        "    asm(\"prmt.b32.rc8 %0, %1, %2, %3;\" : \"=r\"(out[2]) : \"r\"(a), \"r\"(b), \"r\"(c));\n"
        "    asm(\"prmt.b32.ecl %0, %1, %2, %3;\" : \"=r\"(out[3]) : \"r\"(a), \"r\"(b), \"r\"(c));\n"
        "    asm(\"prmt.b32.ecr %0, %1, %2, %3;\" : \"=r\"(out[4]) : \"r\"(a), \"r\"(b), \"r\"(c));\n"
        "    asm(\"prmt.b32.rc16 %0, %1, %2, %3;\" : \"=r\"(out[5]) : \"r\"(a), \"r\"(b), \"r\"(c));\n"
        "    asm(\"prmt.b32 %0, %1, %2, %3;\" : \"=r\"(out[6]) : \"r\"(a), \"r\"(b), \"r\"(c | 0x8888u));\n"
        "    asm(\"prmt.b32 %0, %1, %2, 0x4c1a;\" : \"=r\"(out[7]) : \"r\"(a), \"r\"(b));\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    uint32_t *in = t_calloc(3 * N, sizeof *in), *o = t_calloc(8 * N, sizeof *o);
    for (int i = 0; i < 3 * N; i++)
        in[i] = t_rand_u32();
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {N / 64}, .block = {64}},
                              LAT_ARGS(lat_arg_in(in, 3 * N * sizeof *in), lat_arg_out(o, 8 * N * sizeof *o))));
    for (int i = 0; i < N; i++) {
        uint32_t a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
        for (int m = 0; m < MODES; m++)
            ASSERT_MSG(o[8 * i + m] == prmt_mode(a, b, c, m), "thread %d mode %d, a %#x b %#x c %#x: %#x, want %#x",
                       i, m, a, b, c, o[8 * i + m], prmt_mode(a, b, c, m));
        ASSERT_EQ(o[8 * i + 6], prmt_b32(a, b, c | 0x8888u));
        ASSERT_EQ(o[8 * i + 7], prmt_b32(a, b, 0x4c1a));
    }
}

/* The scalar video instructions on whole words, as CUB's IADD3, SHL_ADD and SHR_ADD write
 * them: PTX computes OP(a, b) wide, then the secondary operation with c, and keeps 32 bits;
 * shifts clamp their count to 32 (a signed shift right fills with the sign) or wrap it. */
TEST(video_instructions_on_whole_words_follow_ptx)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "extern \"C\" __global__ void k(const unsigned *in, unsigned *o) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    unsigned a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2], s = b % 40u, *out = o + 8 * i;\n"
        "    int sa = (int)a, sb = (int)b, sc = (int)c, r;\n"
        "    asm(\"vadd.u32.u32.u32.add %0, %1, %2, %3;\" : \"=r\"(out[0]) : \"r\"(a), \"r\"(b), \"r\"(c));\n"
        "    asm(\"vsub.s32.s32.s32.max %0, %1, %2, %3;\" : \"=r\"(r) : \"r\"(sa), \"r\"(sb), \"r\"(sc));\n"
        "    out[1] = (unsigned)r;\n"
        "    asm(\"vmin.u32.u32.u32 %0, %1, %2;\" : \"=r\"(out[2]) : \"r\"(a), \"r\"(b));\n"
        "    asm(\"vmax.s32.s32.s32.min %0, %1, %2, %3;\" : \"=r\"(r) : \"r\"(sa), \"r\"(sb), \"r\"(sc));\n"
        "    out[3] = (unsigned)r;\n"
        "    asm(\"vshl.u32.u32.u32.clamp.add %0, %1, %2, %3;\" : \"=r\"(out[4]) : \"r\"(a), \"r\"(s), \"r\"(c));\n"
        "    asm(\"vshr.u32.u32.u32.clamp.add %0, %1, %2, %3;\" : \"=r\"(out[5]) : \"r\"(a), \"r\"(s), \"r\"(c));\n"
        "    asm(\"vshr.s32.s32.s32.clamp %0, %1, %2;\" : \"=r\"(r) : \"r\"(sa), \"r\"(s));\n"
        "    out[6] = (unsigned)r;\n"
        "    asm(\"vshl.u32.u32.u32.wrap %0, %1, %2;\" : \"=r\"(out[7]) : \"r\"(a), \"r\"(s));\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    uint32_t *in = t_calloc(3 * N, sizeof *in), *o = t_calloc(8 * N, sizeof *o);
    for (int i = 0; i < 3 * N; i++)
        in[i] = t_rand_u32();
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {N / 64}, .block = {64}},
                              LAT_ARGS(lat_arg_in(in, 3 * N * sizeof *in), lat_arg_out(o, 8 * N * sizeof *o))));
    for (int i = 0; i < N; i++) {
        uint32_t a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2], s = b % 40;
        int64_t sa = (int32_t)a, sb = (int32_t)b, sc = (int32_t)c;
        int64_t d = sa - sb, mx = sa > sb ? sa : sb;
        uint32_t want[8] = {a + b + c,
                            (uint32_t)(d > sc ? d : sc),
                            a < b ? a : b,
                            (uint32_t)(mx < sc ? mx : sc),
                            (s >= 32 ? 0 : a << s) + c,
                            (s >= 32 ? 0 : a >> s) + c,
                            (uint32_t)(s >= 32 ? (sa < 0 ? -1 : 0) : sa >> s),
                            a << (s & 31)};
        for (int j = 0; j < 8; j++)
            ASSERT_MSG(o[8 * i + j] == want[j], "thread %d, instruction %d, a %#x b %#x c %#x: %#x, want %#x", i, j,
                       a, b, c, o[8 * i + j], want[j]);
    }
}

TEST(special_registers_shuffles_votes_loads_and_atomics)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__device__ unsigned lane() { unsigned r; asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(r)); return r; }\n"
        "extern \"C\" __global__ void k(const float *in, unsigned *o, float *f, unsigned *count) {\n"
        "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    unsigned lt, ge, ballot, l = lane();\n"
        "    asm(\"mov.u32 %0, %%lanemask_lt;\" : \"=r\"(lt));\n"
        "    asm(\"mov.u32 %0, %%lanemask_ge;\" : \"=r\"(ge));\n"
        "    float v;\n"
        "    asm volatile(\"ld.global.nc.f32 %0, [%1];\" : \"=f\"(v) : \"l\"(in + i));\n"
        "    asm volatile(\"{ .reg .pred p; setp.eq.u32 p, %1, 0; vote.sync.ballot.b32 %0, !p, %2; }\"\n"
        "                 : \"=r\"(ballot) : \"r\"((unsigned)(v > 0)), \"r\"(0xffffffffu));\n"
        "    for (int d = 16; d > 0; d /= 2) {\n"
        "        float t;\n"
        "        asm volatile(\"shfl.sync.down.b32 %0, %1, %2, %3, %4;\" : \"=f\"(t) : \"f\"(v), \"r\"(d), \"r\"(0x1f), \"r\"(0xffffffffu));\n"
        "        v += t;\n"
        "    }\n"
        "    unsigned old;\n"
        "    asm volatile(\"atom.global.add.u32 %0, [%1], %2;\" : \"=r\"(old) : \"l\"(count), \"r\"(1u) : \"memory\");\n"
        "    asm volatile(\"red.global.add.u32 [%0], %1;\" :: \"l\"(count + 1), \"r\"(2u) : \"memory\");\n"
        "    asm volatile(\"st.global.f32 [%0+4], %1;\" :: \"l\"(f + 2 * i), \"f\"(v));\n"
        "    asm volatile(\"membar.gl;\" ::: \"memory\");\n"
        "    o[4 * i] = l; o[4 * i + 1] = lt; o[4 * i + 2] = ge; o[4 * i + 3] = ballot;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float *in = t_calloc(N, sizeof *in), *f = t_calloc(2 * N, sizeof *f);
    uint32_t *o = t_calloc(4 * N, sizeof *o), count[2] = {0, 0};
    t_rand_floats(in, N, -1, 1);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {N / 128}, .block = {128}},
                              LAT_ARGS(lat_arg_in(in, N * sizeof *in), lat_arg_out(o, 4 * N * sizeof *o),
                                       lat_arg_inout(f, 2 * N * sizeof *f), lat_arg_inout(count, sizeof count))));
    ASSERT_EQ(count[0], N);
    ASSERT_EQ(count[1], 2 * N);
    for (int i = 0; i < N; i++) {
        uint32_t l = (uint32_t)(i % 32);
        ASSERT_EQ(o[4 * i], l);
        ASSERT_EQ(o[4 * i + 1], (1u << l) - 1u);
        ASSERT_EQ(o[4 * i + 2], ~((1u << l) - 1u));
        uint32_t ballot = 0;
        for (int j = 0; j < 32; j++)
            ballot |= (uint32_t)(in[i - (int)l + j] > 0) << j;
        ASSERT_EQ(o[4 * i + 3], ballot);
        if (l == 0) { /* lane 0 holds the warp's sum (the others, partial ones) */
            float s = 0;
            for (int j = 0; j < 32; j++)
                s += in[i + j];
            ASSERT_MSG(f[2 * i + 1] > s - 1e-4f && f[2 * i + 1] < s + 1e-4f, "warp %d: %g, want %g", i / 32,
                       (double)f[2 * i + 1], (double)s);
        }
        ASSERT_TRUE(f[2 * i] == 0); /* [%0+4] wrote the odd element only */
    }
}

/* What the emulator does not run is refused where it stands, naming it: never skipped. */
TEST(instructions_outside_the_list_are_refused_by_name)
{
    lat_context *ctx = t_context();
    if (!t_is_emu(ctx))
        SKIP("about the emulator: a GPU runs any PTX");
    static const struct {
        const char *body, *want;
    } cases[] = {
        {"asm(\"setp.eq.u32 %%p1, %0, 0;\" :: \"r\"(x));", "setp other than setp.CMP.TYPE p, a, b"},
        {"asm(\"{ .reg .pred p, q; setp.eq.f32 p|q, %0, 0f00000000; }\" :: \"f\"(1.0f));", "setp other than"},
        {"asm(\".shared .u32 s;\");", "the directive '.shared .u32 s'"},
        {"asm(\"{ add.u32 %0, %0, 1;\" : \"+r\"(x));", "a '{' never closed"},
        {"asm(\"add.u32 %0, %0, 1; } }\" : \"+r\"(x));", "a '}' closing no '{'"},
        {"asm(\"{ .reg .pred p; @p add.u32 %0, %0, 1; @!q add.u32 %0, %0, 1; }\" : \"+r\"(x));", "a predicated instruction"},
        {"asm(\"cp.async.ca.shared.global [%0], [%1], 16;\" :: \"r\"(x), \"l\"(o));", "the instruction 'cp'"},
        {"asm(\"vabsdiff4.u32.u32.u32 %0, %1, %1, %1;\" : \"=r\"(x) : \"r\"(x));", "the instruction 'vabsdiff4'"},
        {"asm(\"mov.b64 {%0,%1,%0}, %2;\" : \"=r\"(x), \"=r\"(x) : \"l\"(o));", "the vector operand '{%0,%1,%0}'"},
        {"asm(\"@%1 add.u32 %0, %0, 1;\" : \"+r\"(x) : \"r\"(x));", "a predicated instruction"},
        {"asm(\"mul.lo.cc.u32 %0, %0, %0;\" : \"+r\"(x));", "the modifier '.cc'"},
        {"asm(\"add.sat.s32 %0, %0, 1;\" : \"+r\"(x));", "the modifier '.sat'"},
        {"asm(\"bar.sync 1, 64;\");", "a named barrier"},
        /* ptxas refuses it too: a vote reads a .pred register, not an operand */
        {"asm(\"vote.sync.ballot.b32 %0, %0, 0xffffffff;\" : \"+r\"(x));", "an operand %N is no predicate"},
        {"asm(\"prmt.b32.xyz %0, %0, %0, %0;\" : \"+r\"(x));", "prmt with a mode other than"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char src[512];
        snprintf(src, sizeof src, "__global__ void k(unsigned *o) { unsigned x = o[0]; %s o[0] = x; }\n",
                 cases[i].body);
        lat_module *m;
        lat_status st = lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "ptx.cu"}, &m);
        ASSERT_MSG(st == LAT_ERROR_UNSUPPORTED, "case %zu: %s: status %s", i, cases[i].body, lat_status_name(st));
        ASSERT_CONTAINS(lat_last_error(), "inline PTX assembly (asm) with ");
        ASSERT_CONTAINS(lat_last_error(), cases[i].want);
    }
}
