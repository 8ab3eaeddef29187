/* faiss's warp primitives: Pair<K, V> with comparison operators, shfl_xor of a Pair (a
 * template overload beside the scalar one), Math<float> and Limits<float> traits
 * (specializations), warpReduceAll with a functor template (Max<Pair<...>>), and a
 * per-row arg-max built from them as faiss's k-selection ends its warp phase.
 * After faiss faiss/gpu/utils/Pair.cuh, WarpShuffles.cuh, ReductionOperators.cuh,
 * Reductions.cuh, Limits.cuh; the kernel written here.
 * @source https://github.com/facebookresearch/faiss faiss/gpu/utils/Pair.cuh
 * @kernel warp_argmax_rows
 * @grid 16
 * @block 32
 * @arg in f32 4096 rand -10 10
 * @arg out f32 16
 * @arg out i32 16
 * @arg val i32 256
 */
namespace faiss {
namespace gpu {

constexpr int kWarpSize = 32;

template <typename T>
inline __device__ T shfl_xor(const T val, int laneMask, int width = kWarpSize) {
    return __shfl_xor_sync(0xffffffff, val, laneMask, width);
}

/// A simple pair type for CUDA device usage
template <typename K, typename V>
struct Pair {
    constexpr __device__ inline Pair() {}

    constexpr __device__ inline Pair(K key, V value) : k(key), v(value) {}

    __device__ inline bool operator==(const Pair<K, V>& rhs) const {
        return (k == rhs.k) && (v == rhs.v);
    }

    __device__ inline bool operator!=(const Pair<K, V>& rhs) const {
        return !operator==(rhs);
    }

    __device__ inline bool operator<(const Pair<K, V>& rhs) const {
        return (k < rhs.k) || ((k == rhs.k) && (v < rhs.v));
    }

    __device__ inline bool operator>(const Pair<K, V>& rhs) const {
        return (k > rhs.k) || ((k == rhs.k) && (v > rhs.v));
    }

    K k;
    V v;
};

template <typename T, typename U>
inline __device__ Pair<T, U> shfl_xor(
        const Pair<T, U>& pair,
        int laneMask,
        int width = kWarpSize) {
    return Pair<T, U>(
            shfl_xor(pair.k, laneMask, width), shfl_xor(pair.v, laneMask, width));
}

template <typename T>
struct Limits {};

constexpr float kFloatMax = 3.402823466e+38F;
constexpr float kFloatMin = -3.402823466e+38F;

template <>
struct Limits<float> {
    static __device__ __host__ inline float getMin() {
        return kFloatMin;
    }
    static __device__ __host__ inline float getMax() {
        return kFloatMax;
    }
};

template <typename K, typename V>
struct Limits<Pair<K, V>> {
    static __device__ __host__ inline Pair<K, V> getMin() {
        return Pair<K, V>(Limits<K>::getMin(), Limits<V>::getMin());
    }

    static __device__ __host__ inline Pair<K, V> getMax() {
        return Pair<K, V>(Limits<K>::getMax(), Limits<V>::getMax());
    }
};

template <>
struct Limits<int> {
    static __device__ __host__ inline int getMin() {
        return -2147483647 - 1;
    }
    static __device__ __host__ inline int getMax() {
        return 2147483647;
    }
};

template <typename T>
struct Max {
    __device__ inline T operator()(T a, T b) const {
        return (a > b) ? a : b;
    }

    inline __device__ T identity() const {
        return Limits<T>::getMin();
    }
};

template <typename T, typename Op, int ReduceWidth = kWarpSize>
__device__ inline T warpReduceAll(T val, Op op) {
#pragma unroll
    for (int mask = ReduceWidth / 2; mask > 0; mask >>= 1) {
        val = op(val, shfl_xor(val, mask));
    }

    return val;
}

} // namespace gpu
} // namespace faiss

using namespace faiss::gpu;

extern "C" __global__ void warp_argmax_rows(const float *in, float *best, int *where, int ncols)
{
    const float *row = in + blockIdx.x * ncols;
    Max<Pair<float, int>> op;
    Pair<float, int> p = op.identity();
    for (int i = threadIdx.x; i < ncols; i += kWarpSize) {
        Pair<float, int> q(row[i], i);
        p = op(p, q);
    }
    p = warpReduceAll<Pair<float, int>, Max<Pair<float, int>>>(p, op);
    if (threadIdx.x == 0) {
        best[blockIdx.x] = p.k;
        where[blockIdx.x] = p.v;
    }
}
