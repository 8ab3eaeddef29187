/*
 * cooperative_groups.h, cooperative_groups/reduce.h and cooperative_groups/scan.h as the
 * emulator has them: C++ that the front end lowers like a program's own, over the warp
 * and block built-ins. Groups: thread blocks, tiles of 1 to 32 threads (tiled_partition<N>,
 * or tiled_partition(g, n) as a thread_group), coalesced_threads(), the grid (this_grid(),
 * whose sync is the grid barrier of a cooperative launch); reduce with plus, less,
 * greater, bit_and, bit_or, bit_xor; inclusive_scan and exclusive_scan; memcpy_async and
 * wait (cooperative_groups/memcpy_async.h).
 */
#include "cg_header.h"
#include "core/pycuda_complex.h"
#include "curand_header.h"

#include "front/arena.h"
#include "fp16_header.h"
#include "cucomplex_header.h"
#include "libcuxx_header.h"
#include "mma_header.h"

#include <string.h>

static const char *const cooperative_groups_h[] = {
    "#ifndef __LAT_COOPERATIVE_GROUPS_H\n",
    "#define __LAT_COOPERATIVE_GROUPS_H\n",
    "namespace cooperative_groups {\n",
    "__device__ inline unsigned __lat_cg_tid()\n",
    "{ return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z); }\n",
    "__device__ inline unsigned __lat_cg_nthreads() { return blockDim.x * blockDim.y * blockDim.z; }\n",
    "__device__ inline unsigned __lat_cg_tile_mask(unsigned n)\n",
    "{ return n >= 32u ? 0xffffffffu : ((1u << n) - 1u) << ((__lat_cg_tid() & 31u) & ~(n - 1u)); }\n",
    /* thread_group: a block (kind 0), a tile of a dynamic size (1) or the coalesced
     * threads (2). thread_block is the same class. */
    "class thread_group {\n",
    "public:\n",
    "    unsigned __lat_kind, __lat_size, __lat_mask;\n",
    "    __device__ void sync() const\n",
    "    {\n",
    "        if (__lat_kind == 0) __syncthreads();\n",
    "        else __syncwarp(__lat_mask);\n",
    "    }\n",
    "    __device__ unsigned long long size() const { return __lat_size; }\n",
    "    __device__ unsigned num_threads() const { return __lat_size; }\n",
    "    __device__ unsigned long long thread_rank() const\n",
    "    {\n",
    "        if (__lat_kind == 0) return __lat_cg_tid();\n",

    "        if (__lat_kind == 2) return __popc(__lat_mask & ((1u << (__lat_cg_tid() & 31u)) - 1u));\n",
    "        return __lat_cg_tid() % __lat_size;\n",
    "    }\n",
    "    __device__ dim3 group_index() const { return blockIdx; }\n",
    "    __device__ dim3 thread_index() const { return threadIdx; }\n",
    "    __device__ dim3 dim_threads() const { return blockDim; }\n",
    "    __device__ dim3 group_dim() const { return blockDim; }\n",
    "    __device__ unsigned long long num_blocks() const { return gridDim.x * gridDim.y * gridDim.z; }\n",
    "    __device__ unsigned long long block_rank() const\n",
    "    { return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); }\n",
    "    __device__ bool is_valid() const { return true; }\n",
    "    __device__ int any(int p) const { return __any_sync(__lat_mask, p); }\n",
    "    __device__ int all(int p) const { return __all_sync(__lat_mask, p); }\n",
    "    __device__ unsigned ballot(int p) const { return __ballot_sync(__lat_mask, p); }\n",
    /* The warp's lanes of the group, and the lane of a rank in it (32: none). */
    "    __device__ unsigned __lat_m() const { return __lat_mask; }\n",
    "    __device__ bool __lat_dense() const { return __lat_kind != 2; }\n",
    "    __device__ unsigned __lat_lane(unsigned long long rank) const\n",
    "    {\n",
    "        unsigned m = __lat_mask;\n",
    "        for (unsigned long long i = 0; i < rank && m; i++) m &= m - 1u;\n",
    "        return m ? (unsigned)__ffs((int)m) - 1u : 32u;\n",
    "    }\n",
    "    __device__ unsigned __lat_src(unsigned long long rank) const\n",
    "    { return rank < __lat_size ? __lat_lane(rank) : __lat_cg_tid() & 31u; }\n",
    /* Shuffles among a tile's or coalesced group's threads, by rank in the group. */
#define CG_GROUP_SHFL(T)                                                                                    \
    "    __device__ " T " shfl(" T " v, unsigned src) const { return __shfl_sync(__lat_mask, v, __lat_lane(src % __lat_size), 32); }\n", \
    "    __device__ " T " shfl_down(" T " v, unsigned d) const { return __shfl_sync(__lat_mask, v, __lat_src(thread_rank() + d), 32); }\n", \
    "    __device__ " T " shfl_up(" T " v, unsigned d) const\n",                                               \
    "    { return __shfl_sync(__lat_mask, v, thread_rank() >= d ? __lat_src(thread_rank() - d) : __lat_cg_tid() & 31u, 32); }\n", \
    "    __device__ " T " shfl_xor(" T " v, unsigned m) const { return __shfl_sync(__lat_mask, v, __lat_src(thread_rank() ^ m), 32); }\n",
    CG_GROUP_SHFL("int") CG_GROUP_SHFL("unsigned int") CG_GROUP_SHFL("long long") CG_GROUP_SHFL("unsigned long long")
    CG_GROUP_SHFL("float") CG_GROUP_SHFL("double")
#undef CG_GROUP_SHFL
    "};\n",
    "typedef thread_group thread_block;\n",
    /* The grid of a cooperative launch: its sync is the grid barrier. */
    "class grid_group {\n",
    "public:\n",
    "    unsigned __lat_unused;\n",
    "    __device__ void sync() const { __lat_grid_sync(); }\n",
    "    __device__ unsigned long long num_blocks() const { return gridDim.x * gridDim.y * gridDim.z; }\n",
    "    __device__ unsigned long long block_rank() const\n",
    "    { return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); }\n",
    "    __device__ unsigned long long num_threads() const { return num_blocks() * __lat_cg_nthreads(); }\n",
    "    __device__ unsigned long long size() const { return num_threads(); }\n",
    "    __device__ unsigned long long thread_rank() const { return block_rank() * __lat_cg_nthreads() + __lat_cg_tid(); }\n",
    "    __device__ dim3 dim_blocks() const { return gridDim; }\n",
    "    __device__ dim3 block_index() const { return blockIdx; }\n",
    "    __device__ bool is_valid() const { return true; }\n",
    "};\n",
    "typedef thread_group coalesced_group;\n",
    "__device__ inline thread_block this_thread_block()\n",
    "{ thread_block g; g.__lat_kind = 0; g.__lat_size = __lat_cg_nthreads(); g.__lat_mask = 0xffffffffu; return g; }\n",
    "__device__ inline grid_group this_grid() { grid_group g; g.__lat_unused = 0; return g; }\n",
    /* The scratch multi-warp tiles ask for on older GPUs: the emulator needs none. */
    "template <unsigned int __lat_MaxBlockSize, unsigned int __lat_TileCommunicationSize = 8> struct block_tile_memory {\n",
    "    char __lat_unused;\n",
    "};\n",
    "template <typename __lat_M> __device__ thread_block this_thread_block(__lat_M &scratch) { return this_thread_block(); }\n",
    "__device__ inline coalesced_group coalesced_threads()\n",
    "{ coalesced_group g; g.__lat_kind = 2; g.__lat_mask = __activemask(); g.__lat_size = __popc(g.__lat_mask); return g; }\n",
    "__device__ inline thread_group tiled_partition(const thread_group &parent, unsigned n)\n",
    "{ thread_group g; g.__lat_kind = 1; g.__lat_size = n; g.__lat_mask = __lat_cg_tile_mask(n); return g; }\n",
    /* A tile of Size threads (a power of two up to 32) of a block: the warp operations
     * over its lanes. */
    "template <unsigned int __lat_Size> class thread_block_tile {\n",
    "public:\n",
    /* its rank among the tiles its parent was cut into, and how many there are */
    "    unsigned __lat_meta_rank, __lat_meta_size;\n",
    "    __device__ unsigned __lat_m() const { return __lat_cg_tile_mask(__lat_Size); }\n",
    "    __device__ unsigned __lat_base() const { return (__lat_cg_tid() & 31u) & ~(__lat_Size - 1u); }\n",
    "    __device__ void sync() const { if (__lat_Size > 32u) __syncthreads(); else __syncwarp(__lat_m()); }\n",
    "    __device__ bool __lat_dense() const { return true; }\n",
    "    __device__ unsigned long long size() const { return __lat_Size; }\n",
    "    __device__ unsigned num_threads() const { return __lat_Size; }\n",
    "    __device__ unsigned long long thread_rank() const { return __lat_cg_tid() & (__lat_Size - 1u); }\n",
    "    __device__ unsigned long long meta_group_rank() const { return __lat_meta_rank; }\n",
    "    __device__ unsigned long long meta_group_size() const { return __lat_meta_size; }\n",
    "    __device__ bool is_valid() const { return true; }\n",
    "    __device__ int any(int p) const { return __any_sync(__lat_m(), p); }\n",
    "    __device__ int all(int p) const { return __all_sync(__lat_m(), p); }\n",
    "    __device__ unsigned ballot(int p) const { return __ballot_sync(__lat_m(), p) >> __lat_base(); }\n",
    "    __device__ unsigned match_any(int v) const { return __match_any_sync(__lat_m(), v) >> __lat_base(); }\n",
    "    __device__ unsigned match_any(unsigned v) const { return __match_any_sync(__lat_m(), v) >> __lat_base(); }\n",
    "    __device__ unsigned match_any(long long v) const { return __match_any_sync(__lat_m(), v) >> __lat_base(); }\n",
    "    __device__ unsigned match_any(unsigned long long v) const { return __match_any_sync(__lat_m(), v) >> __lat_base(); }\n",
    "    __device__ unsigned match_any(float v) const { return __match_any_sync(__lat_m(), v) >> __lat_base(); }\n",
    "    __device__ unsigned match_any(double v) const { return __match_any_sync(__lat_m(), v) >> __lat_base(); }\n",
#define CG_SHFL(T)                                                                                          \
    "    __device__ " T " shfl(" T " v, int src) const { return __shfl_sync(__lat_m(), v, src, __lat_Size); }\n",  \
    "    __device__ " T " shfl_down(" T " v, unsigned d) const { return __shfl_down_sync(__lat_m(), v, d, __lat_Size); }\n", \
    "    __device__ " T " shfl_up(" T " v, unsigned d) const { return __shfl_up_sync(__lat_m(), v, d, __lat_Size); }\n", \
    "    __device__ " T " shfl_xor(" T " v, unsigned m) const { return __shfl_xor_sync(__lat_m(), v, m, __lat_Size); }\n",
    CG_SHFL("int") CG_SHFL("unsigned int") CG_SHFL("long long") CG_SHFL("unsigned long long")
    CG_SHFL("float") CG_SHFL("double")
#undef CG_SHFL
    /* Vector types, a component at a time (CUDA shuffles any trivially copyable type). */
#define CG_VSHFL_OP(T, OP, ARG, BODY)                                                                       \
    "    __device__ " T " " OP "(" T " v, " ARG ") const { " T " r = v; " BODY " return r; }\n",
#define CG_C(F, C) "r." C " = " F "(__lat_m(), v." C ", d, __lat_Size); "
#define CG_VSHFL(T, COMPS)                                                                                  \
    CG_VSHFL_OP(T, "shfl", "int d", COMPS("__shfl_sync"))                                                   \
    CG_VSHFL_OP(T, "shfl_down", "unsigned d", COMPS("__shfl_down_sync"))                                    \
    CG_VSHFL_OP(T, "shfl_up", "unsigned d", COMPS("__shfl_up_sync"))                                        \
    CG_VSHFL_OP(T, "shfl_xor", "unsigned d", COMPS("__shfl_xor_sync"))
#define CG_XY(F) CG_C(F, "x") CG_C(F, "y")
#define CG_XYZ(F) CG_XY(F) CG_C(F, "z")
#define CG_XYZW(F) CG_XYZ(F) CG_C(F, "w")
    CG_VSHFL("float2", CG_XY) CG_VSHFL("float3", CG_XYZ) CG_VSHFL("float4", CG_XYZW)
    CG_VSHFL("int2", CG_XY) CG_VSHFL("int3", CG_XYZ) CG_VSHFL("int4", CG_XYZW)
    CG_VSHFL("uint2", CG_XY) CG_VSHFL("uint3", CG_XYZ) CG_VSHFL("uint4", CG_XYZW)
    CG_VSHFL("double2", CG_XY) CG_VSHFL("longlong2", CG_XY) CG_VSHFL("ulonglong2", CG_XY)
#undef CG_XYZW
#undef CG_XYZ
#undef CG_XY
#undef CG_VSHFL
#undef CG_C
#undef CG_VSHFL_OP
    /* A tile of more than a warp (tiled_partition<64>...) synchronises as the block does:
     * its warps reach its sync together in the code that has them. */
    "};\n",
    "template <unsigned int __lat_Size, typename __lat_ParentT> __device__ thread_block_tile<__lat_Size> tiled_partition(const __lat_ParentT &parent)\n",
    "{\n",
    "    thread_block_tile<__lat_Size> t;\n",
    "    t.__lat_meta_rank = (unsigned)(parent.thread_rank() / __lat_Size);\n",
    "    t.__lat_meta_size = (unsigned)((parent.size() + __lat_Size - 1u) / __lat_Size);\n",
    "    return t;\n",
    "}\n",
    /* a tile's tiles: a thread_group of n threads of the tile */
    "template <unsigned int __lat_Size> __device__ thread_group tiled_partition(const thread_block_tile<__lat_Size> &parent, unsigned n)\n",
    "{ thread_group g; g.__lat_kind = 1; g.__lat_size = n; g.__lat_mask = __lat_cg_tile_mask(n); return g; }\n",
    /* The threads of a tile (or warp-sized group) whose predicate or label is the
     * calling thread's, as a coalesced group. */
    "template <typename __lat_G> __device__ coalesced_group binary_partition(const __lat_G &parent, bool pred)\n",
    "{\n",
    "    coalesced_group g;\n",
    "    unsigned m = parent.__lat_m(), b = __ballot_sync(m, pred);\n",
    "    g.__lat_kind = 2;\n",
    "    g.__lat_mask = pred ? (b & m) : (~b & m);\n",
    "    g.__lat_size = __popc(g.__lat_mask);\n",
    "    return g;\n",
    "}\n",
    "template <typename __lat_G, typename __lat_L> __device__ coalesced_group labeled_partition(const __lat_G &parent, __lat_L label)\n",
    "{\n",
    "    coalesced_group g;\n",
    "    g.__lat_kind = 2;\n",
    "    g.__lat_mask = __match_any_sync(parent.__lat_m(), label);\n",
    "    g.__lat_size = __popc(g.__lat_mask);\n",
    "    return g;\n",
    "}\n",
    "template <typename __lat_G> __device__ void sync(const __lat_G &g) { g.sync(); }\n",
    "template <typename __lat_G> __device__ unsigned long long thread_rank(const __lat_G &g) { return g.thread_rank(); }\n",
    "template <typename __lat_G> __device__ unsigned long long group_size(const __lat_G &g) { return g.size(); }\n",
    "}\n",
    "#endif\n",
    NULL,
};

static const char *const reduce_h[] = {
    "#ifndef __LAT_COOPERATIVE_GROUPS_REDUCE_H\n",
    "#define __LAT_COOPERATIVE_GROUPS_REDUCE_H\n",
    "#include <cooperative_groups.h>\n",
    "namespace cooperative_groups {\n",
    "template <typename __lat_T> struct plus { char __lat_unused; __device__ __lat_T operator()(__lat_T a, __lat_T b) const { return a + b; } };\n",
    "template <typename __lat_T> struct less { char __lat_unused; __device__ __lat_T operator()(__lat_T a, __lat_T b) const { return b < a ? b : a; } };\n",
    "template <typename __lat_T> struct greater { char __lat_unused; __device__ __lat_T operator()(__lat_T a, __lat_T b) const { return a < b ? b : a; } };\n",
    "template <typename __lat_T> struct bit_and { char __lat_unused; __device__ __lat_T operator()(__lat_T a, __lat_T b) const { return a & b; } };\n",
    "template <typename __lat_T> struct bit_or { char __lat_unused; __device__ __lat_T operator()(__lat_T a, __lat_T b) const { return a | b; } };\n",
    "template <typename __lat_T> struct bit_xor { char __lat_unused; __device__ __lat_T operator()(__lat_T a, __lat_T b) const { return a ^ b; } };\n",
    /* Every lane gets the whole tile's result: a butterfly over its lanes. */
    "template <typename __lat_TyGroup, typename __lat_TyVal, typename __lat_TyOp>\n",
    "__device__ __lat_TyVal reduce(const __lat_TyGroup &g, __lat_TyVal val, __lat_TyOp op)\n",
    "{\n",
    "    unsigned n = (unsigned)g.size();\n",
    /* A tile of several warps: each warp's butterfly, then its warps' results in order,
     * through shared memory, between the tile's syncs. */
    "    if (n > 32u) {\n",
    "        __shared__ __lat_TyVal __lat_part[32];\n",
    "        for (unsigned k = 16u; k > 0u; k /= 2u)\n",
    "            val = op(val, __shfl_xor_sync(0xffffffffu, val, k));\n",
    "        if ((__lat_cg_tid() & 31u) == 0u)\n",
    "            __lat_part[__lat_cg_tid() / 32u] = val;\n",
    "        g.sync();\n",
    "        unsigned first = __lat_cg_tid() / n * (n / 32u);\n",
    "        __lat_TyVal r = __lat_part[first];\n",
    "        for (unsigned i = 1u; i < n / 32u; i++)\n",
    "            r = op(r, __lat_part[first + i]);\n",
    "        g.sync();\n",
    "        return r;\n",
    "    }\n",
    "    if ((n & (n - 1u)) == 0u && g.__lat_dense()) {\n",
    "        for (unsigned k = n / 2u; k > 0u; k /= 2u)\n",
    "            val = op(val, g.shfl_xor(val, k));\n",
    "        return val;\n",
    "    }\n",
    /* A coalesced group, or a size no butterfly fits: in rank order. */
    "    __lat_TyVal r = g.shfl(val, 0u);\n",
    "    for (unsigned i = 1u; i < n; i++)\n",
    "        r = op(r, g.shfl(val, i));\n",
    "    return r;\n",
    "}\n",
    "}\n",
    "#endif\n",
    NULL,
};

/* cooperative_groups/scan.h: inclusive_scan and exclusive_scan over a tile of up to 32
 * threads or a coalesced group, in the order CUDA's header computes them (Hillis-Steele
 * by rank: op(own partial, the partial from `i` ranks below), so that floating results
 * are the GPU's bit for bit); exclusive: the inclusive result less the value for
 * cg::plus of an integer type, else the inclusive result of the rank below (rank 0: a
 * value-initialised T). A tile of more than a warp is refused by a static assertion. */
static const char *const scan_h[] = {
    "#ifndef __LAT_COOPERATIVE_GROUPS_SCAN_H\n",
    "#define __LAT_COOPERATIVE_GROUPS_SCAN_H\n",
    "#include <cooperative_groups/reduce.h>\n",
    "namespace cooperative_groups {\n",
    "template <typename __lat_Op, typename __lat_T> struct __lat_scan_minus { static const bool value = false; };\n",
#define SCAN_MINUS(T) "template <> struct __lat_scan_minus<plus<" T ">, " T "> { static const bool value = true; };\n",
    SCAN_MINUS("char") SCAN_MINUS("signed char") SCAN_MINUS("unsigned char") SCAN_MINUS("short")
    SCAN_MINUS("unsigned short") SCAN_MINUS("int") SCAN_MINUS("unsigned int") SCAN_MINUS("long")
    SCAN_MINUS("unsigned long") SCAN_MINUS("long long") SCAN_MINUS("unsigned long long") SCAN_MINUS("bool")
#undef SCAN_MINUS
    "template <typename __lat_TyGroup, typename __lat_TyVal, typename __lat_TyOp>\n",
    "__device__ __lat_TyVal __lat_inclusive_scan(const __lat_TyGroup &g, __lat_TyVal val, __lat_TyOp op)\n",
    "{\n",
    "    unsigned n = (unsigned)g.size(), r = (unsigned)g.thread_rank();\n",
    "    __lat_TyVal out = val;\n",
    "    for (unsigned i = 1u; i < n; i <<= 1) {\n",
    "        __lat_TyVal tmp = g.shfl(out, r >= i ? r - i : r);\n",
    "        if (i <= r) out = op(out, tmp);\n",
    "    }\n",
    "    return out;\n",
    "}\n",
    "template <typename __lat_TyGroup, typename __lat_TyVal, typename __lat_TyOp>\n",
    "__device__ __lat_TyVal __lat_exclusive_scan(const __lat_TyGroup &g, __lat_TyVal val, __lat_TyOp op)\n",
    "{\n",
    "    __lat_TyVal inc = __lat_inclusive_scan(g, val, op);\n",
    "    if (__lat_scan_minus<__lat_TyOp, __lat_TyVal>::value) return inc - val;\n",
    "    unsigned r = (unsigned)g.thread_rank();\n",
    "    __lat_TyVal below = g.shfl(inc, r ? r - 1u : 0u);\n",
    "    if (r == 0u) return __lat_TyVal();\n",
    "    return below;\n",
    "}\n",
#define SCAN_FN(NAME)                                                                                       \
    "template <unsigned int __lat_Size, typename __lat_TyVal, typename __lat_TyOp>\n",                                        \
    "__device__ __lat_TyVal " NAME "(const thread_block_tile<__lat_Size> &g, __lat_TyVal val, __lat_TyOp op)\n",                     \
    "{\n",                                                                                                   \
    "    static_assert(__lat_Size <= 32u, \"cooperative_groups::" NAME " of a tile of more than 32 threads is not \"\n", \
    "                  \"supported by the lattice emulator yet\");\n",                                         \
    "    return __lat_" NAME "(g, val, op);\n",                                                             \
    "}\n",                                                                                                   \
    "template <unsigned int __lat_Size, typename __lat_TyVal>\n",                                                       \
    "__device__ __lat_TyVal " NAME "(const thread_block_tile<__lat_Size> &g, __lat_TyVal val)\n",                              \
    "{\n",                                                                                                   \
    "    static_assert(__lat_Size <= 32u, \"cooperative_groups::" NAME " of a tile of more than 32 threads is not \"\n", \
    "                  \"supported by the lattice emulator yet\");\n",                                         \
    "    return __lat_" NAME "(g, val, plus<__lat_TyVal>());\n",                                                  \
    "}\n",                                                                                                   \
    "template <typename __lat_TyVal, typename __lat_TyOp>\n",                                                           \
    "__device__ __lat_TyVal " NAME "(const thread_group &g, __lat_TyVal val, __lat_TyOp op) { return __lat_" NAME "(g, val, op); }\n", \
    "template <typename __lat_TyVal>\n",                                                                          \
    "__device__ __lat_TyVal " NAME "(const thread_group &g, __lat_TyVal val) { return __lat_" NAME "(g, val, plus<__lat_TyVal>()); }\n",
    SCAN_FN("inclusive_scan") SCAN_FN("exclusive_scan")
#undef SCAN_FN
    "}\n",
    "#endif\n",
    NULL,
};

/* cooperative_groups/memcpy_async.h: memcpy_async as a copy made at once, its bytes shared
 * among the group's threads by rank, and wait / wait_prior as the group's sync, after which
 * every thread sees the whole copy, as on the GPU. A program that reads the destination
 * before the wait is racing there too. */
static const char *const memcpy_async_h[] = {
    "#ifndef __LAT_CG_MEMCPY_ASYNC_H\n",
    "#define __LAT_CG_MEMCPY_ASYNC_H\n",
    "#include <cooperative_groups.h>\n",
    "#ifndef __LAT_CUDA_ALIGNED_SIZE_T\n",
    "#define __LAT_CUDA_ALIGNED_SIZE_T\n",
    "namespace cuda {\n",
    "template <unsigned long __lat_A> struct aligned_size_t {\n",
    "    unsigned long value;\n",
    "    __host__ __device__ aligned_size_t(unsigned long v) : value(v) {}\n",
    "    __host__ __device__ operator unsigned long() const { return value; }\n",
    "};\n",
    "}\n",
    "#endif\n",
    "namespace cooperative_groups {\n",
    "template <typename __lat_G> __device__ void __lat_cg_copy(const __lat_G &g, void *dst, const void *src, unsigned long n)\n",
    "{\n",
    "    unsigned long r = (unsigned long)g.thread_rank(), s = (unsigned long)g.size();\n",
    "    char *d = (char *)dst;\n",
    "    const char *c = (const char *)src;\n",
    "    if ((((unsigned long)d | (unsigned long)c | n) & 3ul) == 0) {\n",
    "        for (unsigned long i = r; i < n / 4; i += s) ((unsigned *)d)[i] = ((const unsigned *)c)[i];\n",
    "    } else {\n",
    "        for (unsigned long i = r; i < n; i += s) d[i] = c[i];\n",
    "    }\n",
    "}\n",
    "template <typename __lat_G, typename __lat_E, typename __lat_S>\n",
    "__device__ void memcpy_async(const __lat_G &g, __lat_E *dst, const __lat_E *src, const __lat_S &bytes)\n",
    "{ __lat_cg_copy(g, (void *)dst, (const void *)src, (unsigned long)bytes); }\n",
    "template <typename __lat_G, typename __lat_E, typename __lat_D, typename __lat_S>\n",
    "__device__ void memcpy_async(const __lat_G &g, __lat_E *dst, const __lat_D &dst_count, const __lat_E *src, const __lat_S &src_count)\n",
    "{\n",
    "    unsigned long n = (unsigned long)dst_count < (unsigned long)src_count ? (unsigned long)dst_count : (unsigned long)src_count;\n",
    "    __lat_cg_copy(g, (void *)dst, (const void *)src, n * sizeof(__lat_E));\n",
    "}\n",
    "template <typename __lat_G> __device__ void wait(const __lat_G &g) { g.sync(); }\n",
    "template <unsigned int __lat_N, typename __lat_G> __device__ void wait_prior(const __lat_G &g) { g.sync(); }\n",
    "}\n",
    "#endif\n",
    NULL,
};

/* cuda.h's and cuda_runtime_api.h's version macros, as the toolkit whose semantics the
 * emulator follows (__CUDACC_VER_MAJOR__) defines them: code picks its paths by them
 * (ethminer's `#if __CUDA_ARCH__ >= 500 && CUDA_VERSION >= 7050`). */
static const char *const cuda_h[] = {"#ifndef CUDA_VERSION\n", "#define CUDA_VERSION 12000\n", "#endif\n", NULL};
static const char *const cuda_runtime_h[] = {"#ifndef CUDART_VERSION\n", "#define CUDART_VERSION 12000\n",
                                             "#endif\n", NULL};

const char *lat__cxx_header_text(lat__arena *a, const char *name)
{
    const char *const *lines = strcmp(name, "cooperative_groups.h") == 0          ? cooperative_groups_h
                               : strcmp(name, "cooperative_groups/reduce.h") == 0 ? reduce_h
                               : strcmp(name, "cooperative_groups/scan.h") == 0   ? scan_h
                               : strcmp(name, "cooperative_groups/memcpy_async.h") == 0 ? memcpy_async_h
                                                                                  : lat__fp16_header_lines(name);
    if (!lines)
        lines = lat__curand_header_lines(name);
    if (!lines)
        lines = lat__libcuxx_header_lines(name);
    if (!lines && strcmp(name, LAT__PYCUDA_COMPLEX_NAME) == 0)
        lines = lat__pycuda_complex_lines();
    if (!lines && strcmp(name, LAT__PYCUDA_HELPERS_NAME) == 0)
        lines = lat__pycuda_helpers_lines();
    if (!lines)
        lines = lat__cucomplex_header_lines(name);
    if (!lines)
        lines = lat__mma_header_lines(name);
    if (!lines && strcmp(name, "cuda.h") == 0)
        lines = cuda_h;
    if (!lines && (strcmp(name, "cuda_runtime.h") == 0 || strcmp(name, "cuda_runtime_api.h") == 0))
        lines = cuda_runtime_h;
    if (!lines)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; lines[i]; i++)
        n += strlen(lines[i]);
    char *text = lat__arena_alloc(a, n + 1), *at = text;
    for (size_t i = 0; lines[i]; i++) {
        size_t l = strlen(lines[i]);
        memcpy(at, lines[i], l);
        at += l;
    }
    *at = '\0';
    return text;
}
