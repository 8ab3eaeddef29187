/* A CUB-style warp scan: WarpScanShfl<T, LOGICAL_WARP_THREADS> with InclusiveScan over a
 * scan operator functor (cub::Sum, cub::Max as struct templates of operator()), a lane
 * computed from the logical warp, ExclusiveSum derived from the inclusive one, and a block
 * prefix through shared memory, as BlockScan's warp-scans specialization composes them.
 * After NVIDIA/cub cub/warp/specializations/warp_scan_shfl.cuh and
 * cub/block/specializations/block_scan_warp_scans.cuh, reduced to shuffles.
 * @source https://github.com/NVIDIA/cub cub/warp/specializations/warp_scan_shfl.cuh
 * @kernel block_exclusive_sum<128>
 * @grid 4
 * @block 128
 * @arg in i32 512 rand -100 100
 * @arg out i32 512
 * @arg out i32 512
 */
namespace cub {

struct Sum {
  template <typename T>
  __host__ __device__ __forceinline__ T operator()(const T &a, const T &b) const { return a + b; }
};

struct Max {
  template <typename T>
  __host__ __device__ __forceinline__ T operator()(const T &a, const T &b) const { return (b > a) ? b : a; }
};

template <typename T, int LOGICAL_WARP_THREADS>
struct WarpScanShfl {
  enum { STEPS = LOGICAL_WARP_THREADS == 32 ? 5 : LOGICAL_WARP_THREADS == 16 ? 4 : 3 };

  unsigned int lane_id;

  __device__ __forceinline__ WarpScanShfl() : lane_id(threadIdx.x % LOGICAL_WARP_THREADS) {}

  template <typename ScanOpT>
  __device__ __forceinline__ void InclusiveScan(T input, T &inclusive_output, ScanOpT scan_op) {
    inclusive_output = input;
#pragma unroll
    for (int STEP = 0; STEP < STEPS; STEP++) {
      int offset = 1 << STEP;
      T temp = __shfl_up_sync(0xffffffffu, inclusive_output, offset, LOGICAL_WARP_THREADS);
      if (lane_id >= (unsigned)offset)
        inclusive_output = scan_op(temp, inclusive_output);
    }
  }

  __device__ __forceinline__ void ExclusiveSum(T input, T &exclusive_output, T &warp_aggregate) {
    T inclusive;
    InclusiveScan(input, inclusive, cub::Sum());
    warp_aggregate = __shfl_sync(0xffffffffu, inclusive, LOGICAL_WARP_THREADS - 1, LOGICAL_WARP_THREADS);
    exclusive_output = inclusive - input;
  }
};

}  // namespace cub

template <int BLOCK_THREADS>
__global__ void block_exclusive_sum(const int *in, int *out, int *running_max)
{
  typedef cub::WarpScanShfl<int, 32> WarpScan;
  enum { WARPS = BLOCK_THREADS / 32 };
  __shared__ int warp_aggregates[WARPS];
  const int i = blockIdx.x * BLOCK_THREADS + threadIdx.x;
  const int warp = threadIdx.x / 32;
  int x = in[i], excl, agg, mx;
  WarpScan scan;
  scan.ExclusiveSum(x, excl, agg);
  scan.InclusiveScan(x, mx, cub::Max());
  if (scan.lane_id == 31)
    warp_aggregates[warp] = agg;
  __syncthreads();
  int prefix = 0;
  for (int w = 0; w < warp; w++)
    prefix += warp_aggregates[w];
  out[i] = prefix + excl;
  running_max[i] = mx;
}
