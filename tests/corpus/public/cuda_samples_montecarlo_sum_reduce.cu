/* cuda-samples' sumReduce (MonteCarlo): a template <class T, unsigned int SUM_N, unsigned
 * int blockSize> device function over cooperative groups (thread_block_tile<32> through
 * tiled_partition, cg::reduce with cg::plus), and SharedMemory<T> as the reduction
 * samples declare it (a struct with operator T*(), specialized for double).
 * After NVIDIA/cuda-samples Samples/5_Domain_Specific/MonteCarloMultiGPU/MonteCarlo_reduction.cuh
 * and Samples/2_Concepts_and_Techniques/reduction/reduction_kernel.cu (SharedMemory); the
 * kernel around them written here (one option's path values per block).
 * @source https://github.com/NVIDIA/cuda-samples Samples/5_Domain_Specific/MonteCarloMultiGPU/MonteCarlo_reduction.cuh
 * @kernel sum_paths<float>
 * @grid 4
 * @block 128
 * @shared 1024
 * @arg in f32 4096 rand 0 2
 * @arg out f32 8
 * @arg val i32 1024
 * @tol 1e-5
 */
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

template <class T>
struct SharedMemory {
  __device__ inline operator T *() {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }

  __device__ inline operator const T *() const {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
};

template <>
struct SharedMemory<double> {
  __device__ inline operator double *() {
    extern __shared__ double __smem_d[];
    return (double *)__smem_d;
  }

  __device__ inline operator const double *() const {
    extern __shared__ double __smem_d[];
    return (double *)__smem_d;
  }
};

////////////////////////////////////////////////////////////////////////////////
// This function calculates total sum for each of the two input arrays.
// SUM_N must be power of two
// Unrolling provides a bit of a performance improvement for small
// to medium path counts.
////////////////////////////////////////////////////////////////////////////////

template <class T, int SUM_N, int blockSize>
__device__ void sumReduce(T *sum, T *sum2, cg::thread_block &cta,
                          cg::thread_block_tile<32> &tile32,
                          T *out_sum, T *out_sum2) {
  const int VEC = 32;
  const int tid = cta.thread_rank();

  T beta = sum[tid];
  T beta2 = sum2[tid];
  T temp, temp2;

  for (int i = VEC / 2; i > 0; i >>= 1) {
    if (tile32.thread_rank() < i) {
      temp = sum[tid + i];
      temp2 = sum2[tid + i];
      beta += temp;
      beta2 += temp2;
      sum[tid] = beta;
      sum2[tid] = beta2;
    }
    cg::sync(tile32);
  }
  cg::sync(cta);

  if (tid == 0) {
    beta = 0;
    beta2 = 0;
    for (int i = 0; i < blockDim.x; i += VEC) {
      beta += sum[i];
      beta2 += sum2[i];
    }
    *out_sum = beta;
    *out_sum2 = beta2;
  }
}

template <class T>
__global__ void sum_paths(const T *paths, T *out, int npaths)
{
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  T *s = SharedMemory<T>();
  T *sum = s, *sum2 = s + blockDim.x;
  T acc = 0, acc2 = 0;
  const T *mine = paths + blockIdx.x * npaths;
  for (int i = threadIdx.x; i < npaths; i += blockDim.x) {
    T v = mine[i];
    acc += v;
    acc2 += v * v;
  }
  sum[threadIdx.x] = acc;
  sum2[threadIdx.x] = acc2;
  cg::sync(cta);
  sumReduce<T, 128, 128>(sum, sum2, cta, tile32, out + 2 * blockIdx.x, out + 2 * blockIdx.x + 1);
}
