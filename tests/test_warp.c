/* Warp intrinsics: 32 lanes in linear thread order; shuffles of every type with their
 * width; votes, matches and reductions; masks; and warps that take a branch alone. Each
 * against a host model of the programming guide's definitions. */
#include "harness.h"

#include <stdint.h>
#include <string.h>

enum { T = 128 }; /* four warps */

/* The host's model of one shuffle over a block of T threads: lane i reads src(i). */
static int shfl_src(int kind, int lane, int arg, int width)
{
    int seg = lane & ~(width - 1);
    switch (kind) {
    case 0: return seg + (arg & (width - 1));
    case 1: return lane - arg < seg ? lane : lane - arg;
    case 2: return lane + arg >= seg + width ? lane : lane + arg;
    default: return (lane ^ arg) >= seg + width ? lane : lane ^ arg;
    }
}

TEST(shuffles_of_every_type_and_width)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#define SH(T, KIND, v, a, w) (KIND == 0 ? __shfl_sync(0xffffffffu, (T)(v), a, w) : \\\n"
        "    KIND == 1 ? __shfl_up_sync(0xffffffffu, (T)(v), a, w) : \\\n"
        "    KIND == 2 ? __shfl_down_sync(0xffffffffu, (T)(v), a, w) : \\\n"
        "    __shfl_xor_sync(0xffffffffu, (T)(v), a, w))\n"
        "__global__ void shuffles(long long *out, int kind, int arg, int width)\n"
        "{\n"
        "    int t = threadIdx.x;\n"
        "    long long base = 1000000007LL * (t + 1);\n"
        "    int i = SH(int, kind, -t * 3, arg, width);\n"
        "    unsigned u = SH(unsigned, kind, 0xfffff000u + t, arg, width);\n"
        "    long long l = SH(long long, kind, base, arg, width);\n"
        "    float f = SH(float, kind, t * 0.5f, arg, width);\n"
        "    double d = SH(double, kind, t * 0.25, arg, width);\n"
        "    out[5 * t] = i;\n"
        "    out[5 * t + 1] = u;\n"
        "    out[5 * t + 2] = l;\n"
        "    out[5 * t + 3] = (long long)(f * 2);\n"
        "    out[5 * t + 4] = (long long)(d * 4);\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "shuffles");
    static long long out[5 * T];
    static const int widths[] = {32, 16, 8, 4, 2, 1};
    static const int args[] = {0, 1, 3, 5, 17, 31};
    for (int kind = 0; kind < 4; kind++)
        for (size_t w = 0; w < sizeof widths / sizeof *widths; w++)
            for (size_t a = 0; a < sizeof args / sizeof *args; a++) {
                int width = widths[w], arg = args[a];
                ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {T}},
                                          LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_i32(kind),
                                                   lat_arg_i32(arg), lat_arg_i32(width))));
                for (int t = 0; t < T; t++) {
                    int s = (t & ~31) + shfl_src(kind, t & 31, arg, width);
                    long long want[5] = {-s * 3, (long long)(0xfffff000u + (unsigned)s),
                                         1000000007LL * (s + 1), s, s};
                    for (int j = 0; j < 5; j++)
                        ASSERT_MSG(out[5 * t + j] == want[j],
                                   "kind %d width %d arg %d thread %d value %d: %lld, want %lld",
                                   kind, width, arg, t, j, out[5 * t + j], want[j]);
                }
            }
}

TEST(votes_matches_and_reductions)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void votes(const int *v, unsigned *out)\n"
        "{\n"
        "    int t = threadIdx.x, x = v[t];\n"
        "    unsigned *o = out + 12 * t;\n"
        "    o[0] = __ballot_sync(0xffffffffu, x > 0);\n"
        "    o[1] = __any_sync(0xffffffffu, x > 90);\n"
        "    o[2] = __all_sync(0xffffffffu, x > -1000);\n"
        "    o[3] = __match_any_sync(0xffffffffu, x % 4);\n"
        "    int pred = 7;\n"
        "    o[4] = __match_all_sync(0xffffffffu, x / 50, &pred);\n"
        "    o[5] = pred;\n"
        "    o[6] = __reduce_add_sync(0xffffffffu, (unsigned)x);\n"
        "    o[7] = (unsigned)__reduce_min_sync(0xffffffffu, x);\n"
        "    o[8] = (unsigned)__reduce_max_sync(0xffffffffu, x);\n"
        "    o[9] = __reduce_or_sync(0xffffffffu, (unsigned)x & 0xff);\n"
        "    o[10] = __reduce_xor_sync(0xffffffffu, (unsigned)x);\n"
        "    o[11] = __activemask();\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "votes");
    int v[T];
    for (int t = 0; t < T; t++)
        v[t] = (int)(t_rand_u32() % 200) - 100;
    for (int t = 64; t < 96; t++)
        v[t] = 5000 + t % 3; /* the third warp: x / 50 all equal */
    static unsigned out[12 * T];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {T}},
                              LAT_ARGS(lat_arg_in(v, sizeof v), lat_arg_out(out, sizeof out))));
    for (int t = 0; t < T; t++) {
        int w = t & ~31;
        unsigned ballot = 0, any = 0, all = 1, match = 0, add = 0, orv = 0, xorv = 0;
        int mn = v[w], mx = v[w], same = 1;
        for (int l = 0; l < 32; l++) {
            int x = v[w + l];
            ballot |= (unsigned)(x > 0) << l;
            any |= x > 90;
            all &= x > -1000;
            match |= (unsigned)(x % 4 == v[t] % 4) << l;
            same &= x / 50 == v[w] / 50;
            add += (unsigned)x;
            mn = x < mn ? x : mn;
            mx = x > mx ? x : mx;
            orv |= (unsigned)x & 0xff;
            xorv ^= (unsigned)x;
        }
        unsigned want[12] = {ballot, any, all, match, same ? 0xffffffffu : 0, (unsigned)same,
                             add, (unsigned)mn, (unsigned)mx, orv, xorv, 0xffffffffu};
        for (int j = 0; j < 12; j++)
            ASSERT_MSG(out[12 * t + j] == want[j], "thread %d result %d: %#x, want %#x", t, j,
                       out[12 * t + j], want[j]);
    }
}

TEST(a_warp_reduction_in_a_branch_some_warps_take)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__device__ float warp_sum(float v)\n"
        "{\n"
        "    for (int o = 16; o > 0; o >>= 1)\n"
        "        v += __shfl_down_sync(0xffffffffu, v, o);\n"
        "    return v;\n"
        "}\n"
        "__global__ void some(const float *x, float *out)\n"
        "{\n"
        "    int t = threadIdx.x, w = t / 32;\n"
        "    float v = x[blockIdx.x * blockDim.x + t];\n"
        "    if (w % 2 == 1)\n"
        "        v = warp_sum(v);\n"
        "    out[blockIdx.x * blockDim.x + t] = v;\n"
        "}\n"
        "__global__ void one(const float *x, float *out)\n"
        "{\n"
        "    int t = threadIdx.x;\n"
        "    float v = x[t];\n"
        "    if (t < 32) {\n"
        "        for (int o = 1; o < 32; o *= 2)\n"
        "            v += __shfl_xor_sync(0xffffffffu, v, o);\n"
        "    }\n"
        "    out[t] = v;\n"
        "}\n";
    enum { B = 3, N = B * T };
    float x[N], out[N];
    for (int i = 0; i < N; i++)
        x[i] = (float)(int)(t_rand_u32() % 64); /* integers: every order sums exactly */
    lat_kernel *k = t_kernel(ctx, src, "some");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {B}, .block = {T}},
                              LAT_ARGS(lat_arg_in(x, sizeof x), lat_arg_out(out, sizeof out))));
    for (int i = 0; i < N; i++) {
        int t = i % T, w = t / 32;
        float want = x[i];
        if (w % 2 == 1) {
            /* shfl_down by 16, 8, 4, 2, 1 (a lane past the warp keeps its own value): lane
             * 0 gets the warp's sum, the others what the same steps give them. */
            float v[32];
            for (int l = 0; l < 32; l++)
                v[l] = x[i - t % 32 + l];
            for (int o = 16; o > 0; o >>= 1) {
                float n[32];
                for (int l = 0; l < 32; l++)
                    n[l] = v[l] + (l + o < 32 ? v[l + o] : v[l]);
                memcpy(v, n, sizeof v);
            }
            want = v[t % 32];
        }
        ASSERT_MSG(out[i] == want, "out[%d] = %g, want %g", i, out[i], want);
    }
    lat_kernel *k1 = t_kernel(ctx, src, "one");
    ASSERT_OK(lat_launch_args(k1, &(lat_launch_desc){.grid = {1}, .block = {T}},
                              LAT_ARGS(lat_arg_in(x, T * sizeof *x), lat_arg_out(out, T * sizeof *out))));
    float sum = 0;
    for (int l = 0; l < 32; l++)
        sum += x[l];
    for (int t = 0; t < T; t++)
        ASSERT_MSG(out[t] == (t < 32 ? sum : x[t]), "out[%d] = %g", t, out[t]);
}

TEST(masks_name_the_lanes_taking_part)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void halves(unsigned *out)\n"
        "{\n"
        "    int lane = threadIdx.x % 32;\n"
        "    unsigned r = 0;\n"
        "    if (lane < 16) {\n"
        "        r = __ballot_sync(0x0000ffffu, lane % 3 == 0);\n"
        "        r += __shfl_sync(0x0000ffffu, lane * 10, 15) << 16;\n"
        "        __syncwarp(0x0000ffffu);\n"
        "    } else {\n"
        "        r = __ballot_sync(0xffff0000u, lane % 5 == 0);\n"
        "        r ^= __activemask() & 0xffff0000u ? 0 : 1;\n"
        "    }\n"
        "    out[threadIdx.x] = r;\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "halves");
    unsigned out[64];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {64}},
                              LAT_ARGS(lat_arg_out(out, sizeof out))));
    unsigned lo = 0, hi = 0;
    for (int l = 0; l < 16; l++)
        lo |= (unsigned)(l % 3 == 0) << l;
    for (int l = 16; l < 32; l++)
        hi |= (unsigned)(l % 5 == 0) << l;
    for (int t = 0; t < 64; t++) {
        unsigned want = t % 32 < 16 ? lo + (150u << 16) : hi;
        ASSERT_MSG(out[t] == want, "out[%d] = %#x, want %#x", t, out[t], want);
    }
}

/* A shuffle whose source lane is in the warp but outside the mask (or has left) reads 0,
 * as an H100 gives: cuda-samples' reduce7 shuffles its last warp's 8 sums with the mask of
 * those 8 lanes and offsets from 16 down, and its sum is right only so (the emulator gave
 * each lane its own value: 4 times the sum, where the GPU gave the sum). A source past the
 * warp still gives the lane its own value. */
TEST(a_source_lane_outside_the_mask_reads_zero_as_on_a_gpu)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void last_warp(const int *in, int *out)\n"
        "{\n"
        "    __shared__ int sums[8];\n"
        "    unsigned t = threadIdx.x;\n"
        "    int v = in[blockIdx.x * blockDim.x + t];\n"
        "    for (int d = 16; d > 0; d /= 2)\n"
        "        v += __shfl_down_sync(0xffffffffu, v, d);\n"
        "    if (t % 32 == 0)\n"
        "        sums[t / 32] = v;\n"
        "    __syncthreads();\n"
        "    unsigned lanes = __ballot_sync(0xffffffffu, t < 8);\n"
        "    if (t < 8) {\n"
        "        v = sums[t];\n"
        "        for (int d = 16; d > 0; d /= 2)\n"
        "            v += __shfl_down_sync(lanes, v, d);\n"
        "    }\n"
        "    if (t == 0)\n"
        "        out[blockIdx.x] = v;\n"
        "    if (t >= 40 && t < 48) {\n"
        "        int w = (int)t;\n"
        "        w += __shfl_down_sync(0x0000ff00u, w, 4);\n"
        "        out[2 + blockIdx.x * 8 + t - 40] = w;\n"
        "    }\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "last_warp");
    enum { B = 256, G = 2 };
    int in[B * G], out[2 + G * 8];
    for (int i = 0; i < B * G; i++)
        in[i] = (int)(t_rand_u32() % 2001) - 1000;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {G}, .block = {B}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out))));
    for (int b = 0; b < G; b++) {
        int sum = 0;
        for (int i = 0; i < B; i++)
            sum += in[b * B + i];
        ASSERT_MSG(out[b] == sum, "block %d: %d, want the sum %d", b, out[b], sum);
        for (int l = 8; l < 16; l++) {
            /* lanes 8..11 read lanes 12..15 (in the mask); 12..15 read 16..19 (outside) */
            int want = l < 12 ? (32 + l) + (32 + l + 4) : 32 + l;
            ASSERT_MSG(out[2 + b * 8 + l - 8] == want, "block %d lane %d: %d, want %d", b, l,
                       out[2 + b * 8 + l - 8], want);
        }
    }
}

TEST(warp_size_and_a_partial_last_warp)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void part(int *out)\n"
        "{\n"
        "    unsigned m = __activemask();\n"
        "    int n = __popc(__ballot_sync(m, 1));\n"
        "    out[threadIdx.x] = n * 100 + warpSize;\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "part");
    int out[40];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {40}},
                              LAT_ARGS(lat_arg_out(out, sizeof out))));
    for (int t = 0; t < 40; t++)
        ASSERT_EQ(out[t], (t < 32 ? 32 : 8) * 100 + 32);
}
