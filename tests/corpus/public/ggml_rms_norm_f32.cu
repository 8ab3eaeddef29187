/* ggml's RMS norm: a warp reduction by __shfl_xor_sync, then across warps through shared
 * memory when the block is wider than a warp (template <int block_size>, a static kernel).
 * After llama.cpp ggml/src/ggml-cuda/norm.cu (rms_norm_f32, warp_reduce_sum from
 * common.cuh), reduced to its arithmetic.
 * @source https://github.com/ggerganov/llama.cpp ggml/src/ggml-cuda/norm.cu
 * @kernel rms_norm_f32<1024>
 * @grid 4
 * @block 1024
 * @arg in f32 8192 rand -2 2
 * @arg out f32 8192
 * @arg val i32 2048
 * @arg val f32 1e-6
 * @tol 1e-5
 */
#define WARP_SIZE 32

static __device__ __forceinline__ float warp_reduce_sum(float x) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        x += __shfl_xor_sync(0xffffffff, x, offset, 32);
    }
    return x;
}

template <int block_size>
static __global__ void rms_norm_f32(const float * x, float * dst, const int ncols, const float eps) {
    const int row = blockIdx.x*blockDim.y + threadIdx.y;
    const int tid = threadIdx.x;

    float tmp = 0.0f; // partial sum for thread in warp

    for (int col = tid; col < ncols; col += block_size) {
        const float xi = x[row*ncols + col];
        tmp += xi * xi;
    }

    // sum up partial sums
    tmp = warp_reduce_sum(tmp);
    if (block_size > WARP_SIZE) {
        __shared__ float s_sum[32];
        int warp_id = threadIdx.x / WARP_SIZE;
        int lane_id = threadIdx.x % WARP_SIZE;
        if (lane_id == 0) {
            s_sum[warp_id] = tmp;
        }
        __syncthreads();
        tmp = s_sum[lane_id];
        tmp = warp_reduce_sum(tmp);
    }

    const float mean = tmp / ncols;
    const float scale = rsqrtf(mean + eps);

    for (int col = tid; col < ncols; col += block_size) {
        dst[row*ncols + col] = scale * x[row*ncols + col];
    }
}
