/* PyTorch's Welford reduction: WelfordData and WelfordOps (reduce, combine, project,
 * warp_shfl_down as member functions of a class template with defaulted parameters),
 * used by a block reduction over shared memory as its reduce kernels use them.
 * After pytorch aten/src/ATen/native/SharedReduceOps.h (WelfordData, WelfordOps); the
 * kernel around it written here (one row per block).
 * @source https://github.com/pytorch/pytorch aten/src/ATen/native/SharedReduceOps.h
 * @kernel welford_rows<float>
 * @grid 8
 * @block 128
 * @arg in f32 4096 rand -3 3
 * @arg out f32 8
 * @arg out f32 8
 * @arg val i32 512
 * @tol 1e-4
 */
#define C10_HOST_DEVICE __host__ __device__
#define C10_DEVICE __device__

template <typename T>
__device__ __forceinline__ T WARP_SHFL_DOWN(T value, unsigned int delta, int width = warpSize, unsigned int mask = 0xffffffff)
{
    return __shfl_down_sync(mask, value, delta, width);
}

template <typename scalar_t, typename index_t>
struct WelfordData {
  scalar_t mean;
  scalar_t m2;
  index_t n;
  scalar_t nf;

  C10_HOST_DEVICE WelfordData() : mean(0), m2(0), n(0), nf(0) {}

  C10_HOST_DEVICE WelfordData(
      scalar_t mean,
      scalar_t m2,
      index_t n,
      scalar_t nf)
      : mean(mean), m2(m2), n(n), nf(nf) {}
};

template <typename scalar_t, typename acc_scalar_t, typename index_t, typename res_t>
struct WelfordOps {
  acc_scalar_t correction;
  bool take_sqrt;
 public:
  using acc_t = WelfordData<acc_scalar_t, index_t>;
  inline C10_DEVICE acc_t reduce(acc_t acc, scalar_t data, index_t /*idx*/) const {
    // We accumulate n in index_t to avoid cumulative rounding error, but still
    // need nf for use in combine where int32 may overflow.
    index_t new_n = acc.n + 1;
    acc_scalar_t new_nf = static_cast<acc_scalar_t>(new_n);
    acc_scalar_t delta = data - acc.mean;
    acc_scalar_t new_mean = acc.mean + delta / new_nf;
    acc_scalar_t new_delta = data - new_mean;
    return {
      new_mean,
      acc.m2 + delta * new_delta,
      new_n,
      new_nf,
    };
  }
  inline C10_DEVICE acc_t combine(acc_t a, acc_t b) const {
    if (a.nf == 0) {
      return b;
    }
    if (b.nf == 0) {
      return a;
    }
    acc_scalar_t delta = b.mean - a.mean;
    acc_scalar_t new_count = a.nf + b.nf;
    acc_scalar_t nb_over_n = b.nf / new_count;
    return {
      a.mean + delta * nb_over_n,
      a.m2 + b.m2 + delta * delta * a.nf * nb_over_n,
      // setting acc.n as -1 since acc.n might not be able to represent the count
      // correctly within its range, setting it to -1 to avoid confusion
      -1,
      new_count
    };
  }
  inline C10_DEVICE res_t project(acc_t acc) const {
    const auto mean = static_cast<scalar_t>(acc.mean);
    const auto divisor = acc.nf > correction ? acc.nf - correction : 0;
    const auto var = acc.m2 / divisor;
    res_t results(take_sqrt ? sqrtf(var) : var, mean);
    return results;
  }

  static C10_DEVICE acc_t translate_idx(acc_t acc, long long /*base_idx*/) {
    return acc;
  }

  inline __device__ acc_t warp_shfl_down(acc_t acc, int offset) const {
    return {
      WARP_SHFL_DOWN(acc.mean, offset)
      , WARP_SHFL_DOWN(acc.m2, offset)
      , WARP_SHFL_DOWN(acc.n, offset)
      , WARP_SHFL_DOWN(acc.nf, offset)
    };
  }

  C10_HOST_DEVICE WelfordOps(acc_scalar_t correction, bool take_sqrt)
      : correction(correction), take_sqrt(take_sqrt) {}
};

template <typename T>
struct pair_res {
  T first, second;
  __device__ pair_res(T a, T b) : first(a), second(b) {}
};

template <typename scalar_t>
__global__ void welford_rows(const scalar_t *in, scalar_t *var_out, scalar_t *mean_out, int ncols)
{
  using ops_t = WelfordOps<scalar_t, scalar_t, int, pair_res<scalar_t>>;
  using acc_t = typename ops_t::acc_t;
  ops_t ops(1, false);
  acc_t acc;
  const scalar_t *row = in + (long long)blockIdx.x * ncols;
  for (int i = threadIdx.x; i < ncols; i += blockDim.x)
    acc = ops.reduce(acc, row[i], i);
  for (int offset = 16; offset > 0; offset >>= 1)
    acc = ops.combine(acc, ops.warp_shfl_down(acc, offset));
  __shared__ acc_t warp_acc[32];
  if (threadIdx.x % 32 == 0)
    warp_acc[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    acc_t total = warp_acc[0];
    for (int w = 1; w < blockDim.x / 32; w++)
      total = ops.combine(total, warp_acc[w]);
    pair_res<scalar_t> r = ops.project(total);
    var_out[blockIdx.x] = r.first;
    mean_out[blockIdx.x] = r.second;
  }
}
