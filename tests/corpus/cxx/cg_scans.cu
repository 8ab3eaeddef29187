/* cooperative_groups/scan.h as CUDA samples and libraries use it (issue 42): inclusive and
 * exclusive scans of floats over 16-thread tiles (bit for bit: the order of the additions
 * is CUDA's), an exclusive running maximum with cg::greater over a warp, an integer
 * exclusive sum over the threads a branch leaves coalesced, and reductions over a tile's
 * tiles (tiled_partition<4>(warp)). Written for lattice's corpus, not copied.
 * @source lattice (tests/corpus/cxx)
 * @kernel cg_scans
 * @grid 2
 * @block 64
 * @arg in f32 128 rand -8 8
 * @arg in i32 128 rand -50 50
 * @arg out f32 384
 * @arg out i32 384
 */
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

extern "C" __global__ void cg_scans(const float *x, const int *v, float *fo, int *io) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    cg::thread_block_tile<16> half = cg::tiled_partition<16>(block);
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float f = x[t];
    int i = v[t];
    fo[t * 3] = cg::inclusive_scan(half, f);
    fo[t * 3 + 1] = cg::exclusive_scan(half, f, cg::plus<float>());
    fo[t * 3 + 2] = cg::exclusive_scan(warp, f, cg::greater<float>());
    io[t * 3] = cg::inclusive_scan(warp, i, cg::greater<int>());
    io[t * 3 + 1] = -1;
    if (i > 0) {
        cg::coalesced_group pos = cg::coalesced_threads();
        io[t * 3 + 1] = cg::exclusive_scan(pos, i) * 100 + (int)pos.thread_rank();
    }
    cg::thread_block_tile<4> quad = cg::tiled_partition<4>(warp);
    io[t * 3 + 2] = cg::reduce(quad, i, cg::plus<int>()) + 1000 * (int)quad.meta_group_rank();
}
