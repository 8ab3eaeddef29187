/* Real-world C-style and legacy CUDA kernels (Rodinia, SHOC, Parboil, cuda-samples'
 * C kernels): the idioms they are written in, run against a host reference. */
#include "harness.h"

#include <stdint.h>
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
 * spin loops and profilers use them. They were undeclared. */
static const char clock_src[] =
    "extern \"C\" __global__ static void timedReduction(const float *input, float *output, clock_t *timer)\n"
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
