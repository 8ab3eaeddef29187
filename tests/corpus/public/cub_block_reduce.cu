/* A CUB-style block reduction as CUB writes its collectives: a class template with a
 * nested _TempStorage struct, TempStorage : Uninitialized<_TempStorage> (the storage
 * wrapper), a constructor taking TempStorage &, warp-level WarpReduce<T, 32> by shuffles
 * with a Sum functor, a __shared__ TempStorage in the kernel, and the result in thread 0.
 * After NVIDIA/cub cub/block/block_reduce.cuh, cub/warp/warp_reduce.cuh and
 * cub/util_type.cuh (Uninitialized), reduced to its warp-shuffle specialization.
 * @source https://github.com/NVIDIA/cub cub/block/block_reduce.cuh
 * @kernel block_sum_kernel<256>
 * @grid 8
 * @block 256
 * @arg in f32 2048 rand -1 1
 * @arg out f32 8
 * @tol 1e-5
 */
namespace cub {

template <typename T>
struct Uninitialized
{
    /// Biggest memory-access word that T is a whole multiple of and is not larger than the alignment of T
    typedef unsigned int DeviceWord;

    static constexpr unsigned int DATA_SIZE = sizeof(T);
    static constexpr unsigned int WORD_SIZE = sizeof(DeviceWord);
    static constexpr unsigned int WORDS = DATA_SIZE / WORD_SIZE;

    /// Backing storage
    DeviceWord storage[WORDS];

    /// Alias
    __host__ __device__ __forceinline__ T& Alias()
    {
        return reinterpret_cast<T&>(*this);
    }
};

struct Sum
{
    template <typename T>
    __host__ __device__ __forceinline__ T operator()(const T &a, const T &b) const
    {
        return a + b;
    }
};

template <typename T, int LOGICAL_WARP_THREADS = 32>
struct WarpReduce
{
    struct TempStorage {};

    __device__ __forceinline__ WarpReduce(TempStorage &) {}

    template <typename ReductionOp>
    __device__ __forceinline__ T Reduce(T input, ReductionOp reduction_op)
    {
        #pragma unroll
        for (int offset = LOGICAL_WARP_THREADS / 2; offset > 0; offset /= 2)
            input = reduction_op(input, __shfl_down_sync(0xffffffffu, input, offset, LOGICAL_WARP_THREADS));
        return input;
    }

    __device__ __forceinline__ T Sum(T input)
    {
        return Reduce(input, cub::Sum());
    }
};

template <typename T, int BLOCK_DIM_X>
class BlockReduce
{
private:
    enum
    {
        BLOCK_THREADS = BLOCK_DIM_X,
        WARP_THREADS = 32,
        WARPS = (BLOCK_THREADS + WARP_THREADS - 1) / WARP_THREADS,
    };

    typedef WarpReduce<T, WARP_THREADS> WarpReduceT;

    /// Shared memory storage layout type
    struct _TempStorage
    {
        typename WarpReduceT::TempStorage warp_reduce[WARPS];
        T warp_aggregates[WARPS];
        T block_prefix;
    };

    /// Shared storage reference
    _TempStorage &temp_storage;

    unsigned int linear_tid;

public:
    /// \smemstorage{BlockReduce}
    struct TempStorage : Uninitialized<_TempStorage> {};

    __device__ __forceinline__ BlockReduce(
        TempStorage &temp_storage)
    :
        temp_storage(temp_storage.Alias()),
        linear_tid(threadIdx.x)
    {}

    template <typename ReductionOp>
    __device__ __forceinline__ T Reduce(T input, ReductionOp reduction_op)
    {
        unsigned int warp_id = linear_tid / WARP_THREADS;
        unsigned int lane_id = linear_tid % WARP_THREADS;
        T partial = WarpReduceT(temp_storage.warp_reduce[warp_id]).Reduce(input, reduction_op);
        if (lane_id == 0)
            temp_storage.warp_aggregates[warp_id] = partial;
        __syncthreads();
        if (linear_tid == 0)
        {
            #pragma unroll
            for (int i = 1; i < WARPS; ++i)
                partial = reduction_op(partial, temp_storage.warp_aggregates[i]);
        }
        return partial;
    }

    __device__ __forceinline__ T Sum(T input)
    {
        return Reduce(input, cub::Sum());
    }
};

} // namespace cub

template <int BLOCK_THREADS>
__global__ void block_sum_kernel(const float *d_in, float *d_out)
{
    typedef cub::BlockReduce<float, BLOCK_THREADS> BlockReduceT;
    __shared__ typename BlockReduceT::TempStorage temp_storage;
    float data = d_in[blockIdx.x * BLOCK_THREADS + threadIdx.x];
    float aggregate = BlockReduceT(temp_storage).Sum(data);
    if (threadIdx.x == 0)
        d_out[blockIdx.x] = aggregate;
}
