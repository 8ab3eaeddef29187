/*
 * cooperative_groups.h and cooperative_groups/reduce.h as the emulator has them: C++ that
 * the front end lowers like a program's own, over the warp and block built-ins. Groups:
 * thread blocks, tiles of 1 to 32 threads (tiled_partition<N>, or tiled_partition(g, n)
 * as a thread_group), coalesced_threads(), the grid (this_grid(), whose sync is the grid
 * barrier of a cooperative launch); reduce with plus, less, greater, bit_and, bit_or,
 * bit_xor.
 */
#include "cg_header.h"
#include "curand_header.h"

#include "front/arena.h"
#include "fp16_header.h"

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
    "__device__ inline coalesced_group coalesced_threads()\n",
    "{ coalesced_group g; g.__lat_kind = 2; g.__lat_mask = __activemask(); g.__lat_size = __popc(g.__lat_mask); return g; }\n",
    "__device__ inline thread_group tiled_partition(const thread_group &parent, unsigned n)\n",
    "{ thread_group g; g.__lat_kind = 1; g.__lat_size = n; g.__lat_mask = __lat_cg_tile_mask(n); return g; }\n",
    /* A tile of Size threads (a power of two up to 32) of a block: the warp operations
     * over its lanes. */
    "template <unsigned int Size> class thread_block_tile {\n",
    "public:\n",
    "    unsigned __lat_unused;\n",
    "    __device__ unsigned __lat_m() const { return __lat_cg_tile_mask(Size); }\n",
    "    __device__ unsigned __lat_base() const { return (__lat_cg_tid() & 31u) & ~(Size - 1u); }\n",
    "    __device__ void sync() const { __syncwarp(__lat_m()); }\n",
    "    __device__ unsigned long long size() const { return Size; }\n",
    "    __device__ unsigned num_threads() const { return Size; }\n",
    "    __device__ unsigned long long thread_rank() const { return __lat_cg_tid() & (Size - 1u); }\n",
    "    __device__ unsigned long long meta_group_rank() const { return __lat_cg_tid() / Size; }\n",
    "    __device__ unsigned long long meta_group_size() const { return (__lat_cg_nthreads() + Size - 1u) / Size; }\n",
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
    "    __device__ " T " shfl(" T " v, int src) const { return __shfl_sync(__lat_m(), v, src, Size); }\n",  \
    "    __device__ " T " shfl_down(" T " v, unsigned d) const { return __shfl_down_sync(__lat_m(), v, d, Size); }\n", \
    "    __device__ " T " shfl_up(" T " v, unsigned d) const { return __shfl_up_sync(__lat_m(), v, d, Size); }\n", \
    "    __device__ " T " shfl_xor(" T " v, unsigned m) const { return __shfl_xor_sync(__lat_m(), v, m, Size); }\n",
    CG_SHFL("int") CG_SHFL("unsigned int") CG_SHFL("long long") CG_SHFL("unsigned long long")
    CG_SHFL("float") CG_SHFL("double")
#undef CG_SHFL
    "};\n",
    "template <unsigned int Size> __device__ thread_block_tile<Size> tiled_partition(const thread_group &parent)\n",
    "{ thread_block_tile<Size> t; t.__lat_unused = 0; return t; }\n",
    "template <typename G> __device__ void sync(const G &g) { g.sync(); }\n",
    "template <typename G> __device__ unsigned long long thread_rank(const G &g) { return g.thread_rank(); }\n",
    "template <typename G> __device__ unsigned long long group_size(const G &g) { return g.size(); }\n",
    "}\n",
    "#endif\n",
    NULL,
};

static const char *const reduce_h[] = {
    "#ifndef __LAT_COOPERATIVE_GROUPS_REDUCE_H\n",
    "#define __LAT_COOPERATIVE_GROUPS_REDUCE_H\n",
    "#include <cooperative_groups.h>\n",
    "namespace cooperative_groups {\n",
    "template <typename T> struct plus { char __lat_unused; __device__ T operator()(T a, T b) const { return a + b; } };\n",
    "template <typename T> struct less { char __lat_unused; __device__ T operator()(T a, T b) const { return b < a ? b : a; } };\n",
    "template <typename T> struct greater { char __lat_unused; __device__ T operator()(T a, T b) const { return a < b ? b : a; } };\n",
    "template <typename T> struct bit_and { char __lat_unused; __device__ T operator()(T a, T b) const { return a & b; } };\n",
    "template <typename T> struct bit_or { char __lat_unused; __device__ T operator()(T a, T b) const { return a | b; } };\n",
    "template <typename T> struct bit_xor { char __lat_unused; __device__ T operator()(T a, T b) const { return a ^ b; } };\n",
    /* Every lane gets the whole tile's result: a butterfly over its lanes. */
    "template <typename TyGroup, typename TyVal, typename TyOp>\n",
    "__device__ TyVal reduce(const TyGroup &g, TyVal val, TyOp op)\n",
    "{\n",
    "    for (unsigned k = (unsigned)g.size() / 2u; k > 0u; k /= 2u)\n",
    "        val = op(val, g.shfl_xor(val, k));\n",
    "    return val;\n",
    "}\n",
    "}\n",
    "#endif\n",
    NULL,
};

const char *lat__cxx_header_text(lat__arena *a, const char *name)
{
    const char *const *lines = strcmp(name, "cooperative_groups.h") == 0          ? cooperative_groups_h
                               : strcmp(name, "cooperative_groups/reduce.h") == 0 ? reduce_h
                                                                                  : lat__fp16_header_lines(name);
    if (!lines)
        lines = lat__curand_header_lines(name);
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
