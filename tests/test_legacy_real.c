/* Real-world C-style and legacy CUDA kernels (Rodinia, SHOC, Parboil, cuda-samples'
 * C kernels): the idioms they are written in, run against a host reference. */
#include "harness.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* SHOC's spmv_csr_vector_kernel (shoc/src/cuda/level1/spmv/Spmv.cu): each warp stores
 * its partial sum through a volatile shared array and reduces it at once, with neither a
 * barrier nor a __syncwarp between the store and the lanes reading it, counting on the
 * warp's lockstep. The emulator let lane 0 read lane 16's word before lane 16 stored it. */
static const char spmv_src[] =
    "#define BLOCKSIZE 128\n"
    "extern \"C\" __global__ void spmv_csr_vector_kernel(const float * __restrict__ val,\n"
    "        const int * __restrict__ cols, const int * __restrict__ rowDelimiters,\n"
    "        const int dim, const float * __restrict__ vec, float * __restrict__ out)\n"
    "{\n"
    "    int t = threadIdx.x;\n"
    "    int id = t & (warpSize-1);\n"
    "    int warpsPerBlock = blockDim.x / warpSize;\n"
    "    int myRow = (blockIdx.x * warpsPerBlock) + (t / warpSize);\n"
    "    __shared__ volatile float partialSums[BLOCKSIZE];\n"
    "    if (myRow < dim)\n"
    "    {\n"
    "        int warpStart = rowDelimiters[myRow];\n"
    "        int warpEnd = rowDelimiters[myRow+1];\n"
    "        float mySum = 0;\n"
    "        for (int j = warpStart + id; j < warpEnd; j += warpSize)\n"
    "        {\n"
    "            int col = cols[j];\n"
    "            mySum += val[j] * vec[col];\n"
    "        }\n"
    "        partialSums[t] = mySum;\n"
    "        if (id < 16) partialSums[t] += partialSums[t+16];\n"
    "        if (id <  8) partialSums[t] += partialSums[t+ 8];\n"
    "        if (id <  4) partialSums[t] += partialSums[t+ 4];\n"
    "        if (id <  2) partialSums[t] += partialSums[t+ 2];\n"
    "        if (id <  1) partialSums[t] += partialSums[t+ 1];\n"
    "        if (id == 0) out[myRow] = partialSums[t];\n"
    "    }\n"
    "}\n";

TEST(a_volatile_store_before_a_warp_synchronous_reduction_is_seen_by_the_whole_warp)
{
    lat_context *ctx = t_context_with(&(lat_context_desc){.check = LAT_CHECK_OFF});
    lat_kernel *k = t_kernel_as_written(ctx, spmv_src, "spmv_csr_vector_kernel");
    enum { DIM = 61, NV = 97 };
    int delim[DIM + 1] = {0};
    for (int r = 0; r < DIM; r++)
        delim[r + 1] = delim[r] + (int)(t_rand_u32() % 90);
    int nnz = delim[DIM];
    float *val = t_calloc((size_t)nnz, sizeof *val), vec[NV], out[DIM];
    int *cols = t_calloc((size_t)nnz, sizeof *cols);
    t_rand_floats(val, (size_t)nnz, -1, 1);
    t_rand_floats(vec, NV, -1, 1);
    for (int j = 0; j < nnz; j++)
        cols[j] = (int)(t_rand_u32() % NV);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {(DIM + 3) / 4}, .block = {128}},
                              LAT_ARGS(lat_arg_in(val, (size_t)nnz * sizeof *val),
                                       lat_arg_in(cols, (size_t)nnz * sizeof *cols), lat_arg_in(delim, sizeof delim),
                                       lat_arg_i32(DIM), lat_arg_in(vec, sizeof vec), lat_arg_out(out, sizeof out))));
    for (int r = 0; r < DIM; r++) {
        /* The GPU's order: each lane's strided sum, then the lockstep tree. */
        float lane[32] = {0};
        for (int j = delim[r]; j < delim[r + 1]; j++)
            lane[(j - delim[r]) % 32] += val[j] * vec[cols[j]];
        for (int d = 16; d > 0; d /= 2)
            for (int i = 0; i < d; i++)
                lane[i] += lane[i + d];
        ASSERT_CLOSE(out[r], lane[0], 1e-5, 1e-5);
    }
}

/* The warp scan of cuda-samples' older scan and histogram code: zero a word, store the
 * lane's value, then `s[pos] += s[pos - offset]` in lockstep, no barrier anywhere. */
static const char warp_scan_src[] =
    "typedef unsigned int uint;\n"
    "inline __device__ uint warpScanInclusive(uint idata, volatile uint *s_Data, uint size)\n"
    "{\n"
    "    uint pos = 2 * threadIdx.x - (threadIdx.x & (size - 1));\n"
    "    s_Data[pos] = 0;\n"
    "    pos += size;\n"
    "    s_Data[pos] = idata;\n"
    "    for (uint offset = 1; offset < size; offset <<= 1)\n"
    "        s_Data[pos] += s_Data[pos - offset];\n"
    "    return s_Data[pos];\n"
    "}\n"
    "extern \"C\" __global__ void warp_scan(uint *out, const uint *in)\n"
    "{\n"
    "    __shared__ uint s[2 * 128];\n"
    "    uint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    out[i] = warpScanInclusive(in[i], s, 32);\n"
    "}\n";

TEST(a_legacy_warp_scan_gives_the_gpus_prefix_sums)
{
    lat_context *ctx = t_context_with(&(lat_context_desc){.check = LAT_CHECK_OFF});
    lat_kernel *k = t_kernel_as_written(ctx, warp_scan_src, "warp_scan");
    enum { N = 512 };
    uint32_t in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = t_rand_u32() % 1000;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {N / 128}, .block = {128}},
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_in(in, sizeof in))));
    uint32_t sum = 0;
    for (int i = 0; i < N; i++) {
        sum = (i % 32 ? sum : 0) + in[i];
        ASSERT_MSG(out[i] == sum, "element %d: %u, want %u", i, out[i], sum);
    }
}

/* Lanes talking through volatile shared memory with no barrier, in statements of their
 * own: a load into a local then a store (`int t = s[tid] + s[tid + 16]; s[tid] = t;`),
 * and a shuffle emulated in shared memory as pre-Kepler code wrote it. A GPU's warp
 * does each statement in lockstep; the emulator ran each lane's whole sequence first. */
static const char volatile_talk_src[] =
    "extern \"C\" __global__ void exchange(const int *in, int *out)\n"
    "{\n"
    "    __shared__ volatile int s[128];\n"
    "    int tid = threadIdx.x;\n"
    "    int x = in[blockIdx.x * 128 + tid];\n"
    "    s[tid] = x;\n"
    "    int y = s[tid ^ 1];\n"
    "    s[tid] = x + y;\n"
    "    int z = s[tid ^ 2];\n"
    "    out[blockIdx.x * 128 + tid] = x + y + z;\n"
    "}\n"
    "extern \"C\" __global__ void two_statements(const int *in, int *out)\n"
    "{\n"
    "    __shared__ int ss[128];\n"
    "    volatile int *s = ss;\n"
    "    int tid = threadIdx.x, lane = tid & 31;\n"
    "    s[tid] = in[blockIdx.x * 128 + tid];\n"
    "    __syncthreads();\n"
    "    for (int d = 1; d < 32; d <<= 1) {\n"
    "        int t = s[tid];\n"
    "        if (lane >= d) t += s[tid - d];\n"
    "        s[tid] = t;\n"
    "    }\n"
    "    out[blockIdx.x * 128 + tid] = s[tid];\n"
    "}\n";

TEST(lanes_talking_through_volatile_memory_see_each_statement_in_lockstep)
{
    lat_context *ctx = t_context_with(&(lat_context_desc){.check = LAT_CHECK_OFF});
    lat_kernel *ex = t_kernel_as_written(ctx, volatile_talk_src, "exchange");
    lat_kernel *two = t_kernel_as_written(ctx, volatile_talk_src, "two_statements");
    enum { N = 256 };
    int in[N], out[N], scan[N];
    for (int i = 0; i < N; i++)
        in[i] = (int)(t_rand_u32() % 2001) - 1000;
    ASSERT_OK(lat_launch_args(ex, &(lat_launch_desc){.grid = {N / 128}, .block = {128}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out))));
    ASSERT_OK(lat_launch_args(two, &(lat_launch_desc){.grid = {N / 128}, .block = {128}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(scan, sizeof scan))));
    int sum = 0;
    for (int i = 0; i < N; i++) {
        int y = in[i ^ 1], z = in[i ^ 2] + in[i ^ 3];
        ASSERT_MSG(out[i] == in[i] + y + z, "exchange, element %d: %d, want %d", i, out[i], in[i] + y + z);
        sum = (i % 32 ? sum : 0) + in[i];
        ASSERT_MSG(scan[i] == sum, "two statements, element %d: %d, want %d", i, scan[i], sum);
    }
}

/* cuda-samples' clock (Samples/0_Introduction/clock): a kernel that times its own
 * reduction with clock() into a clock_t array; clock64(), %clock64 and __nanosleep as
 * spin loops and profilers use them. They were undeclared. The sample declares the kernel
 * static, for nvcc's host code in the same file; found by name it is extern "C", which C++
 * does not allow beside static (NVRTC: "a storage class may not be specified here"). */
static const char clock_src[] =
    "extern \"C\" __global__ void timedReduction(const float *input, float *output, clock_t *timer)\n"
    "{\n"
    "    extern __shared__ float shared[];\n"
    "    const int tid = threadIdx.x;\n"
    "    const int bid = blockIdx.x;\n"
    "    if (tid == 0) timer[bid] = clock();\n"
    "    shared[tid] = input[tid];\n"
    "    shared[tid + blockDim.x] = input[tid + blockDim.x];\n"
    "    for (int d = blockDim.x; d > 0; d /= 2) {\n"
    "        __syncthreads();\n"
    "        if (tid < d) {\n"
    "            float f0 = shared[tid];\n"
    "            float f1 = shared[tid + d];\n"
    "            if (f1 < f0) { shared[tid] = f1; }\n"
    "        }\n"
    "    }\n"
    "    if (tid == 0) output[bid] = shared[0];\n"
    "    __syncthreads();\n"
    "    if (tid == 0) timer[bid + gridDim.x] = clock();\n"
    "}\n"
    "extern \"C\" __global__ void grows(unsigned long long *o)\n"
    "{\n"
    "    unsigned long long a = clock64(), b;\n"
    "    asm volatile(\"mov.u64 %0, %%clock64;\" : \"=l\"(b));\n"
    "    __nanosleep(100);\n"
    "    o[threadIdx.x] = (clock64() >= a) + (clock64() >= b);\n"
    "}\n";

TEST(a_kernel_times_itself_with_clock)
{
    lat_context *ctx = t_context();
    if (lat_context_backend(ctx) == LAT_BACKEND_CROSS)
        SKIP("the clock's readings differ between any two runs: cross-checking would "
             "compare two times");
    lat_kernel *k = t_kernel_as_written(ctx, clock_src, "timedReduction");
    lat_kernel *g = t_kernel_as_written(ctx, clock_src, "grows");
    enum { NT = 128, NB = 4 };
    float in[2 * NT], out[NB];
    long timer[2 * NB];
    unsigned long long ok[32];
    t_rand_floats(in, 2 * NT, -100, 100);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {NB}, .block = {NT}, .shared_bytes = 2 * NT * sizeof(float)},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out),
                                       lat_arg_out(timer, sizeof timer))));
    float lo = in[0];
    for (int i = 1; i < 2 * NT; i++)
        lo = in[i] < lo ? in[i] : lo;
    for (int b = 0; b < NB; b++) {
        ASSERT_TRUE(out[b] == lo);
        ASSERT_MSG(timer[NB + b] >= timer[b], "block %d: the clock went back (%ld, then %ld)", b, timer[b],
                   timer[NB + b]);
    }
    ASSERT_OK(lat_launch_args(g, &(lat_launch_desc){.grid = {1}, .block = {32}}, LAT_ARGS(lat_arg_out(ok, sizeof ok))));
    for (int i = 0; i < 32; i++)
        ASSERT_EQ(ok[i], 2ull);
}

/* Inline PTX as hash, RNG, crypto and motion-search kernels write it: a 64-bit value
 * split into and made of 32- or 16-bit parts (mov.b64 {%0,%1}, %2), rotates (shf.l.wrap),
 * lop3's any-function-of-three, sums of absolute differences (vabsdiff4.add). All were
 * refused. */
static const char ptx_src[] =
    "extern \"C\" __global__ void k(const unsigned *a, const unsigned *b, unsigned *o)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    unsigned x = a[i], y = b[i], lo, hi, r[10];\n"
    "    unsigned long long v = ((unsigned long long)x << 32) | y, w;\n"
    "    asm(\"mov.b64 {%0,%1}, %2;\" : \"=r\"(lo), \"=r\"(hi) : \"l\"(v));\n"
    "    r[0] = lo * 3u + hi;\n"
    "    asm(\"mov.b64 %0, {%1,%2};\" : \"=l\"(w) : \"r\"(x), \"r\"(y));\n"
    "    r[1] = (unsigned)(w >> 32) * 7u + (unsigned)w;\n"
    "    unsigned short h0, h1, h2, h3;\n"
    "    asm(\"mov.b64 {%0, %1, %2, %3}, %4;\" : \"=h\"(h0), \"=h\"(h1), \"=h\"(h2), \"=h\"(h3) : \"l\"(v));\n"
    "    r[2] = h0 ^ (h1 << 4) ^ (h2 << 8) ^ ((unsigned)h3 << 16);\n"
    "    asm(\"mov.b32 %0, {%1,%2};\" : \"=r\"(r[3]) : \"h\"(h3), \"h\"(h0));\n"
    "    asm(\"shf.l.wrap.b32 %0, %1, %2, %3;\" : \"=r\"(r[4]) : \"r\"(x), \"r\"(y), \"r\"(i));\n"
    "    asm(\"shf.r.clamp.b32 %0, %1, %2, %3;\" : \"=r\"(r[5]) : \"r\"(x), \"r\"(y), \"r\"(i));\n"
    "    asm(\"lop3.b32 %0, %1, %2, %3, 0xE8;\" : \"=r\"(r[6]) : \"r\"(x), \"r\"(y), \"r\"(lo ^ hi));\n"
    "    asm(\"lop3.b32 %0, %1, %2, %3, %4;\" : \"=r\"(r[7]) : \"r\"(x), \"r\"(y), \"r\"(~x), \"n\"(0x5A));\n"
    "    asm(\"vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;\" : \"=r\"(r[8]) : \"r\"(x), \"r\"(y), \"r\"(lo));\n"
    "    asm(\"vabsdiff2.s32.s32.s32.add %0, %1, %2, %3;\" : \"=r\"(r[9]) : \"r\"(x), \"r\"(y), \"r\"(7u));\n"
    "    for (int j = 0; j < 10; j++) o[10 * i + j] = r[j];\n"
    "}\n";

static uint32_t lop3(uint32_t a, uint32_t b, uint32_t c, unsigned lut)
{
    uint32_t r = 0;
    for (unsigned i = 0; i < 8; i++)
        if (lut >> i & 1)
            r |= (i & 4 ? a : ~a) & (i & 2 ? b : ~b) & (i & 1 ? c : ~c);
    return r;
}

TEST(inline_ptx_packs_rotates_and_mixes_bits_as_the_gpu_does)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel_as_written(ctx, ptx_src, "k");
    enum { N = 64 };
    uint32_t a[N], b[N], o[10 * N];
    for (int i = 0; i < N; i++) {
        a[i] = t_rand_u32();
        b[i] = t_rand_u32();
    }
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {2}, .block = {N / 2}},
                              LAT_ARGS(lat_arg_in(a, sizeof a), lat_arg_in(b, sizeof b), lat_arg_out(o, sizeof o))));
    for (int i = 0; i < N; i++) {
        uint32_t x = a[i], y = b[i], lo = y, hi = x;
        uint32_t sad4 = lo, sad2 = 7;
        for (int j = 0; j < 4; j++) {
            int d = (int)(x >> 8 * j & 0xff) - (int)(y >> 8 * j & 0xff);
            sad4 += (uint32_t)(d < 0 ? -d : d);
        }
        for (int j = 0; j < 2; j++) {
            int d = (int)(int16_t)(x >> 16 * j) - (int)(int16_t)(y >> 16 * j);
            sad2 += (uint32_t)(d < 0 ? -d : d);
        }
        uint32_t h[4] = {y & 0xffff, y >> 16, x & 0xffff, x >> 16};
        uint64_t fun = (uint64_t)y << 32 | x; /* shf's hi:lo is b:a */
        unsigned s = (unsigned)i;
        uint32_t want[10] = {
            lo * 3u + hi,
            y * 7u + x, /* {%1,%2}: %1 is the low half */
            h[0] ^ (h[1] << 4) ^ (h[2] << 8) ^ (h[3] << 16),
            h[3] | h[0] << 16,
            (uint32_t)((fun << (s & 31)) >> 32),
            s >= 32 ? y : (uint32_t)(fun >> s),
            lop3(x, y, lo ^ hi, 0xE8),
            lop3(x, y, ~x, 0x5A),
            sad4,
            sad2,
        };
        for (int j = 0; j < 10; j++)
            ASSERT_MSG(o[10 * i + j] == want[j], "element %d, result %d: 0x%08x, want 0x%08x", i, j, o[10 * i + j],
                       want[j]);
    }
}

/* Inline PTX with a scope of its own: `.reg` registers (predicates, vectors of them
 * `t<2>`), setp, selp, predicated instructions (`@p`, `@!p`) and a ballot of a predicate,
 * as pre-CUDA-9 code wrote its votes, with PTX's comments (ethminer's keccak has them).
 * Blocks, predicates and comments were refused. */
static const char ptx_block_src[] =
    "extern \"C\" __global__ void k(const unsigned *a, const unsigned *b, unsigned *o)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    unsigned x = a[i], y = b[i], r0, r1, r2;\n"
    "    asm(\"// registers; predicates\\n\\t{\\n\\t.reg .pred p, q; /* two; */\\n\\t.reg .u32 t<2>;\\n\\t\"\n"
    "        \"setp.lt.u32 p, %3, %4;\\n\\t\"\n"
    "        \"setp.gt.s32 q, %3, %4;\\n\\t\"\n"
    "        \"selp.u32 %0, %3, %4, p;\\n\\t\"\n"
    "        \"add.u32 t0, %3, 1;\\n\\t\"\n"
    "        \"mov.u32 t1, 7;\\n\\t\"\n"
    "        \"@p mul.lo.u32 t1, t0, 3;\\n\\t\"\n"
    "        \"@!q add.u32 t1, t1, 100;\\n\\t\"\n"
    "        \"mov.u32 %1, t1;\\n\\t\"\n"
    "        \"vote.sync.ballot.b32 %2, p, 0xffffffff;\\n\\t}\"\n"
    "        : \"=r\"(r0), \"=r\"(r1), \"=r\"(r2) : \"r\"(x), \"r\"(y));\n"
    "    o[3 * i] = r0; o[3 * i + 1] = r1; o[3 * i + 2] = r2;\n"
    "}\n";

TEST(inline_ptx_declares_registers_and_predicates_in_a_block_of_its_own)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel_as_written(ctx, ptx_block_src, "k");
    enum { N = 64 };
    uint32_t a[N], b[N], o[3 * N];
    for (int i = 0; i < N; i++) {
        a[i] = t_rand_u32();
        b[i] = t_rand_u32();
    }
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {2}, .block = {N / 2}},
                              LAT_ARGS(lat_arg_in(a, sizeof a), lat_arg_in(b, sizeof b), lat_arg_out(o, sizeof o))));
    for (int w = 0; w < 2; w++) {
        uint32_t ballot = 0;
        for (int l = 0; l < 32; l++)
            ballot |= (uint32_t)(a[32 * w + l] < b[32 * w + l]) << l;
        for (int l = 0; l < 32; l++) {
            int i = 32 * w + l;
            bool p = a[i] < b[i], q = (int32_t)a[i] > (int32_t)b[i];
            uint32_t t1 = p ? (a[i] + 1) * 3 : 7;
            t1 += q ? 0 : 100;
            ASSERT_EQ(o[3 * i], p ? a[i] : b[i]);
            ASSERT_EQ(o[3 * i + 1], t1);
            ASSERT_EQ(o[3 * i + 2], ballot);
        }
    }
}

/* A register lives in the { } that declared it; a vector of more than four parts is not
 * PTX's: both refused, naming what, never a compile error about lattice's names. */
TEST(inline_ptx_registers_end_with_their_scope)
{
    lat_context *ctx = t_context();
    if (!t_is_emu(ctx))
        SKIP("about the emulator's refusals: NVRTC rejects these itself");
    static const struct {
        const char *body, *want;
    } cases[] = {
        {"asm(\"{ .reg .u32 t; } mov.u32 %0, t;\" : \"=r\"(x));", "the operand 't'"},
        {"asm(\"mov.b64 {%0,%1,%0,%1,%0}, %2;\" : \"=r\"(x), \"=r\"(x) : \"l\"(o));", "the vector operand"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char src[512];
        snprintf(src, sizeof src, "__global__ void k(unsigned long long o) { unsigned x; %s }\n", cases[i].body);
        lat_module *m;
        lat_status st = lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "ptx.cu"}, &m);
        ASSERT_MSG(st == LAT_ERROR_UNSUPPORTED, "case %zu: status %s", i, lat_status_name(st));
        ASSERT_CONTAINS(lat_last_error(), cases[i].want);
    }
}

/* Bignum arithmetic's carry chains in inline PTX (add.cc, addc, sub.cc, subc, 32 and 64
 * bits; mad.lo.cc, madc.hi.cc): 96-bit sums, differences and products-plus of random
 * limbs. `.cc` was refused. */
static const char carry_src[] =
    "#define N 64\n"
    "extern \"C\" __global__ void k(const unsigned *a, const unsigned *b, unsigned *s, unsigned *d,\n"
    "                               const unsigned long long *p, unsigned long long *q)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    const unsigned *x = a + 3 * i, *y = b + 3 * i;\n"
    "    asm(\"add.cc.u32 %0, %3, %6;\\n\\taddc.cc.u32 %1, %4, %7;\\n\\taddc.u32 %2, %5, %8;\"\n"
    "        : \"=r\"(s[3 * i]), \"=r\"(s[3 * i + 1]), \"=r\"(s[3 * i + 2])\n"
    "        : \"r\"(x[0]), \"r\"(x[1]), \"r\"(x[2]), \"r\"(y[0]), \"r\"(y[1]), \"r\"(y[2]));\n"
    "    asm(\"sub.cc.u32 %0, %3, %6;\\n\\tsubc.cc.u32 %1, %4, %7;\\n\\tsubc.u32 %2, %5, %8;\"\n"
    "        : \"=r\"(d[3 * i]), \"=r\"(d[3 * i + 1]), \"=r\"(d[3 * i + 2])\n"
    "        : \"r\"(x[0]), \"r\"(x[1]), \"r\"(x[2]), \"r\"(y[0]), \"r\"(y[1]), \"r\"(y[2]));\n"
    "    unsigned long long lo, hi;\n"
    "    asm(\"add.cc.u64 %0, %2, %4;\\n\\taddc.u64 %1, %3, %5;\" : \"=l\"(lo), \"=l\"(hi)\n"
    "        : \"l\"(p[4 * i]), \"l\"(p[4 * i + 1]), \"l\"(p[4 * i + 2]), \"l\"(p[4 * i + 3]));\n"
    "    q[2 * i] = lo; q[2 * i + 1] = hi;\n"
    "    unsigned ml, mh, m2;\n"
    "    asm(\"mad.lo.cc.u32 %0, %3, %4, %5;\\n\\tmadc.hi.cc.u32 %1, %3, %4, %5;\\n\\taddc.u32 %2, 0, 0;\"\n"
    "        : \"=r\"(ml), \"=r\"(mh), \"=r\"(m2) : \"r\"(x[0]), \"r\"(y[0]), \"r\"(x[1]));\n"
    "    s[3 * N + 3 * i] = ml; s[3 * N + 3 * i + 1] = mh; s[3 * N + 3 * i + 2] = m2;\n"
    "}\n";

TEST(inline_ptx_carry_chains_add_and_subtract_multiword_numbers)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel_as_written(ctx, carry_src, "k");
    enum { N = 64 };
    uint32_t a[3 * N], b[3 * N], s[6 * N], d[3 * N];
    uint64_t p[4 * N], q[2 * N];
    for (int i = 0; i < 3 * N; i++) {
        /* limbs near the top and bottom too, where the carries and borrows are */
        a[i] = i % 5 == 0 ? 0xffffffffu : i % 7 == 0 ? 0 : t_rand_u32();
        b[i] = i % 3 == 0 ? 0xffffffffu : t_rand_u32();
    }
    for (int i = 0; i < 4 * N; i++)
        p[i] = i % 6 == 0 ? ~0ull : (uint64_t)t_rand_u32() << 32 | t_rand_u32();
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {2}, .block = {N / 2}},
                              LAT_ARGS(lat_arg_in(a, sizeof a), lat_arg_in(b, sizeof b), lat_arg_out(s, sizeof s),
                                       lat_arg_out(d, sizeof d), lat_arg_in(p, sizeof p), lat_arg_out(q, sizeof q))));
    for (int i = 0; i < N; i++) {
        uint64_t cs = 0, bd = 0;
        for (int j = 0; j < 3; j++) {
            uint64_t sum = (uint64_t)a[3 * i + j] + b[3 * i + j] + cs;
            uint64_t dif = (uint64_t)a[3 * i + j] - b[3 * i + j] - bd;
            ASSERT_EQ(s[3 * i + j], (uint32_t)sum);
            ASSERT_EQ(d[3 * i + j], (uint32_t)dif);
            cs = sum >> 32;
            bd = (uint64_t)a[3 * i + j] < (uint64_t)b[3 * i + j] + bd;
        }
        uint64_t lo = p[4 * i] + p[4 * i + 2];
        uint64_t hi = p[4 * i + 1] + p[4 * i + 3] + (lo < p[4 * i]);
        ASSERT_EQ(q[2 * i], lo);
        ASSERT_EQ(q[2 * i + 1], hi);
        /* mad.lo.cc, madc.hi.cc, addc: x0 * y0 + x1 * 2^32 + x1, in three words */
        uint64_t prod = (uint64_t)a[3 * i] * b[3 * i];
        uint64_t w0 = (prod & 0xffffffffu) + a[3 * i + 1];
        uint64_t w1 = (prod >> 32) + a[3 * i + 1] + (w0 >> 32);
        ASSERT_EQ(s[3 * N + 3 * i], (uint32_t)w0);
        ASSERT_EQ(s[3 * N + 3 * i + 1], (uint32_t)w1);
        ASSERT_EQ(s[3 * N + 3 * i + 2], (uint32_t)(w1 >> 32));
    }
}

/* cuda.h and cuda_runtime_api.h define the toolkit's version; code picks its paths by it
 * (ethminer's keccak: `#if __CUDA_ARCH__ >= 500 && CUDA_VERSION >= 7050` takes lop3).
 * Both were undefined, so such code took its oldest path. */
TEST(cuda_h_defines_the_toolkits_version)
{
    lat_context *ctx = t_context();
    if (t_on_gpu(ctx)) /* cross-checking compiles with the toolkit's cuda.h, another version */
        SKIP("about the emulator's built-in cuda.h");
    lat_kernel *k = t_kernel_as_written(ctx,
                                        "#include <cuda.h>\n"
                                        "#include <cuda_runtime.h>\n"
                                        "extern \"C\" __global__ void k(int *o) {\n"
                                        "#if __CUDA_ARCH__ >= 500 && CUDA_VERSION >= 7050\n"
                                        "    o[0] = CUDA_VERSION; o[1] = CUDART_VERSION;\n"
                                        "#endif\n"
                                        "}\n",
                                        "k");
    int o[2] = {0, 0};
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}}, LAT_ARGS(lat_arg_inout(o, sizeof o))));
    ASSERT_EQ(o[0], 12000);
    ASSERT_EQ(o[1], 12000);
}

/* Vector loads and stores in inline PTX (ld.global.nc.v4.u32 {%0,%1,%2,%3}, [%4];
 * st.global.v2.f32 [%0], {%1,%2};), as hand-tuned copies and reductions write them: they
 * were refused. */
static const char ptx_vec_src[] =
    "extern \"C\" __global__ void k(const unsigned *a, float *o)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    unsigned v0, v1, v2, v3;\n"
    "    asm volatile(\"ld.global.nc.v4.u32 {%0,%1,%2,%3}, [%4];\"\n"
    "                 : \"=r\"(v0), \"=r\"(v1), \"=r\"(v2), \"=r\"(v3) : \"l\"(a + 4 * i));\n"
    "    float x = (float)(v0 + v1), y = (float)v2 - (float)v3;\n"
    "    asm volatile(\"st.global.v2.f32 [%0], {%1,%2};\" :: \"l\"(o + 2 * i), \"f\"(x), \"f\"(y) : \"memory\");\n"
    "}\n";

TEST(inline_ptx_vector_loads_and_stores_move_consecutive_elements)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel_as_written(ctx, ptx_vec_src, "k");
    enum { N = 64 };
    uint32_t a[4 * N];
    float o[2 * N];
    for (int i = 0; i < 4 * N; i++)
        a[i] = t_rand_u32() % 100000;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {2}, .block = {N / 2}},
                              LAT_ARGS(lat_arg_in(a, sizeof a), lat_arg_out(o, sizeof o))));
    for (int i = 0; i < N; i++) {
        ASSERT_TRUE(o[2 * i] == (float)(a[4 * i] + a[4 * i + 1]));
        ASSERT_TRUE(o[2 * i + 1] == (float)a[4 * i + 2] - (float)a[4 * i + 3]);
    }
}

/* CUDPP's warp scan declares its running sum with the store: `T t = sData[idx] = val;`,
 * then adds in lockstep (`sData[idx] = t = t + sData[idx - 1];`). On fibers a lane read
 * its neighbour's word before the neighbour's declaration had stored it. */
static const char scanwarp_src[] =
    "#define WARP_SIZE 32\n"
    "template<class T, int maxlevel>\n"
    "__device__ T scanwarp(T val, volatile T* sData)\n"
    "{\n"
    "    int idx = 2 * threadIdx.x - (threadIdx.x & (WARP_SIZE - 1));\n"
    "    sData[idx] = 0;\n"
    "    idx += WARP_SIZE;\n"
    "    T t = sData[idx] = val;\n"
    "    if (0 <= maxlevel) { sData[idx] = t = t + sData[idx - 1]; }\n"
    "    if (1 <= maxlevel) { sData[idx] = t = t + sData[idx - 2]; }\n"
    "    if (2 <= maxlevel) { sData[idx] = t = t + sData[idx - 4]; }\n"
    "    if (3 <= maxlevel) { sData[idx] = t = t + sData[idx - 8]; }\n"
    "    if (4 <= maxlevel) { sData[idx] = t = t + sData[idx -16]; }\n"
    "    return sData[idx] - val;\n"
    "}\n"
    "extern \"C\" __global__ void scan(const unsigned *in, unsigned *out)\n"
    "{\n"
    "    __shared__ unsigned s[256];\n"
    "    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    out[i] = scanwarp<unsigned, 4>(in[i], s);\n"
    "}\n";

static void scanwarp_run(bool fibers)
{
    lat_context *ctx = t_context_with(&(lat_context_desc){.check = LAT_CHECK_OFF});
    if (fibers)
        t_setenv("LATTICE_EMU_FIBERS", "1");
    char src[sizeof scanwarp_src + 32];
    snprintf(src, sizeof src, "%s%s", scanwarp_src, fibers ? "// on fibers\n" : ""); /* not the cached one */
    lat_kernel *k = t_kernel_as_written(ctx, src, "scan");
    enum { N = 256 };
    uint32_t in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = t_rand_u32() % 1000;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {2}, .block = {N / 2}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out))));
    if (fibers)
        t_unsetenv("LATTICE_EMU_FIBERS");
    uint32_t sum = 0;
    for (int i = 0; i < N; i++) {
        sum = i % 32 ? sum : 0;
        ASSERT_MSG(out[i] == sum, "%s, element %d: %u, want %u", fibers ? "fibers" : "default", i, out[i], sum);
        sum += in[i];
    }
}

TEST(cudpps_warp_scan_declares_its_sum_with_the_store)
{
    scanwarp_run(false);
}

TEST(cudpps_warp_scan_declares_its_sum_with_the_store_on_fibers)
{
    scanwarp_run(true);
}

/* Threads that part at an if and meet at a __syncthreads on each side: since Volta a
 * barrier counts the threads arriving at any __syncthreads, and code relies on it. The
 * emulator ran the kernel as region loops and failed the launch ("can never finish"). */
static const char two_sided_src[] =
    "extern \"C\" __global__ void k(const int *in, int *out)\n"
    "{\n"
    "    __shared__ int s[256];\n"
    "    int t = threadIdx.x;\n"
    "    if (t < 96) {\n"
    "        s[t] = in[blockIdx.x * 256 + t] * 2;\n"
    "        __syncthreads();\n"
    "        out[blockIdx.x * 256 + t] = s[255 - t];\n"
    "    } else {\n"
    "        s[t] = in[blockIdx.x * 256 + t] + 1;\n"
    "        __syncthreads();\n"
    "        out[blockIdx.x * 256 + t] = s[255 - t] - 1;\n"
    "    }\n"
    "}\n";

TEST(threads_parted_by_an_if_meet_at_barriers_on_both_sides)
{
    /* Unchecked: synccheck names the two barriers, as the programming model asks. */
    lat_context *ctx = t_context_with(&(lat_context_desc){.check = LAT_CHECK_OFF});
    lat_kernel *k = t_kernel_as_written(ctx, two_sided_src, "k");
    enum { N = 512 };
    int in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = (int)(t_rand_u32() % 2001) - 1000;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {2}, .block = {256}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out))));
    for (int i = 0; i < N; i++) {
        int b = i / 256, t = i % 256, u = 255 - t;
        int s = u < 96 ? in[256 * b + u] * 2 : in[256 * b + u] + 1;
        ASSERT_EQ(out[i], t < 96 ? s : s - 1);
    }
}

/* setp on floats compares as PTX does where a NaN is involved: ne and the other ordered
 * comparisons are false, their unordered forms (neu, ltu...) true; num and nan test for
 * one. C's != is true for a NaN, and the unordered forms were refused. */
static const char setp_src[] =
    "extern \"C\" __global__ void k(const float *a, const float *b, unsigned *o)\n"
    "{\n"
    "    int i = threadIdx.x;\n"
    "    unsigned r;\n"
    "    asm(\"{\\n\\t.reg .pred p;\\n\\t.reg .u32 t;\\n\\tmov.u32 %0, 0;\\n\\t\"\n"
    "        \"setp.ne.f32 p, %1, %2;\\n\\tselp.u32 t, 1, 0, p;\\n\\tor.b32 %0, %0, t;\\n\\t\"\n"
    "        \"setp.neu.f32 p, %1, %2;\\n\\tselp.u32 t, 2, 0, p;\\n\\tor.b32 %0, %0, t;\\n\\t\"\n"
    "        \"setp.ltu.f32 p, %1, %2;\\n\\tselp.u32 t, 4, 0, p;\\n\\tor.b32 %0, %0, t;\\n\\t\"\n"
    "        \"setp.ge.f32 p, %1, %2;\\n\\tselp.u32 t, 8, 0, p;\\n\\tor.b32 %0, %0, t;\\n\\t\"\n"
    "        \"setp.num.f32 p, %1, %2;\\n\\tselp.u32 t, 16, 0, p;\\n\\tor.b32 %0, %0, t;\\n\\t\"\n"
    "        \"setp.nan.f32 p, %1, %2;\\n\\tselp.u32 t, 32, 0, p;\\n\\tor.b32 %0, %0, t;\\n\\t}\"\n"
    "        : \"=r\"(r) : \"f\"(a[i]), \"f\"(b[i]));\n"
    "    o[i] = r;\n"
    "}\n";

TEST(inline_ptx_setp_on_floats_orders_nans_as_ptx_does)
{
    lat_context *ctx = t_context();
    lat_kernel *k = t_kernel_as_written(ctx, setp_src, "k");
    enum { N = 64 };
    float a[N], b[N];
    unsigned o[N];
    t_rand_floats(a, N, -2, 2);
    t_rand_floats(b, N, -2, 2);
    for (int i = 0; i < N; i += 5)
        b[i] = a[i]; /* equal */
    for (int i = 1; i < N; i += 7)
        a[i] = NAN;
    for (int i = 3; i < N; i += 11)
        b[i] = NAN;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {N}},
                              LAT_ARGS(lat_arg_in(a, sizeof a), lat_arg_in(b, sizeof b), lat_arg_out(o, sizeof o))));
    for (int i = 0; i < N; i++) {
        bool nan = a[i] != a[i] || b[i] != b[i];
        unsigned want = (!nan && a[i] != b[i] ? 1u : 0u) | (nan || a[i] != b[i] ? 2u : 0u) |
                        (nan || a[i] < b[i] ? 4u : 0u) | (!nan && a[i] >= b[i] ? 8u : 0u) | (nan ? 32u : 16u);
        ASSERT_MSG(o[i] == want, "element %d (%g, %g): 0x%x, want 0x%x", i, (double)a[i], (double)b[i], o[i], want);
    }
}
