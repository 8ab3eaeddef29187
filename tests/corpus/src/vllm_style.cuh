/* Kernels written here in the shape of vLLM's csrc (activation_kernels.cu, layernorm_kernels.cu,
 * pos_encoding_kernels.cu; not copied): a gated activation whose activation is a function
 * template's instance given as a template argument (act_and_mul_kernel<half,
 * gelu_tanh<half>, false>), a function pointer parameter typed by the template parameter
 * before it, an RMS norm through a block reduction kept in static __shared__ memory, and a
 * rotary embedding whose locals are named cos and sin. */
#include <cuda_fp16.h>
#include <cstdint>
#include <cmath>
#define LDG(p) __ldg(p)
namespace vstyle {
template <typename T> __inline__ __device__ T warp_sum(T v) {
#pragma unroll
    for (int m = 16; m > 0; m >>= 1)
        v += __shfl_xor_sync(0xffffffffu, v, m, 32);
    return v;
}
template <typename T> __inline__ __device__ T block_sum(T v) {
    static __shared__ T partial[32];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warp_sum<T>(v);
    if (lane == 0)
        partial[warp] = v;
    __syncthreads();
    v = threadIdx.x < blockDim.x / 32.f ? partial[lane] : (T)0.0f;
    return warp_sum<T>(v);
}
template <typename T> __device__ __forceinline__ T silu(const T &x) { return (T)((float)x / (1.0f + expf(-(float)x))); }
template <typename T> __device__ __forceinline__ T gelu_tanh(const T &x) {
    const float f = (float)x;
    constexpr float beta = M_SQRT2 * M_2_SQRTPI * 0.5f;
    constexpr float kappa = 0.044715f;
    return (T)(0.5f * f * (1.0f + ::tanhf(beta * (f + kappa * f * f * f))));
}
template <typename T, T (*ACT)(const T &), bool act_first>
__device__ __forceinline__ T gate(const T &x, const T &y) { return act_first ? ACT(x) * y : x * ACT(y); }
template <typename T, T (*ACT)(const T &), bool act_first>
__global__ void act_and_mul_kernel(T *__restrict__ out, const T *__restrict__ in, const int d) {
    const int64_t token = blockIdx.x;
    for (int64_t i = threadIdx.x; i < d; i += blockDim.x) {
        const T x = LDG(&in[token * 2 * d + i]), y = LDG(&in[token * 2 * d + d + i]);
        out[token * d + i] = gate<T, ACT, act_first>(x, y);
    }
}
template <typename T>
__global__ void rms_norm_kernel(T *__restrict__ out, const T *__restrict__ in, const T *__restrict__ w, const float eps,
                                const int hidden) {
    __shared__ float inv_rms;
    float sum = 0.0f;
    for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
        const float x = (float)in[blockIdx.x * hidden + i];
        sum += x * x;
    }
    sum = block_sum<float>(sum);
    if (threadIdx.x == 0)
        inv_rms = rsqrtf(sum / hidden + eps);
    __syncthreads();
    for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
        const float x = (float)in[blockIdx.x * hidden + i];
        out[blockIdx.x * hidden + i] = ((T)(x * inv_rms)) * w[i];
    }
}
template <typename T, bool NEOX>
inline __device__ void rotate(T *__restrict__ v, const T *__restrict__ cos_ptr, const T *__restrict__ sin_ptr, int off, int half_dim) {
    int xi, yi;
    T cos, sin;
    if (NEOX) {
        xi = off;
        yi = half_dim + off;
        cos = LDG(cos_ptr + xi);
        sin = LDG(sin_ptr + xi);
    } else {
        xi = 2 * off;
        yi = 2 * off + 1;
        cos = LDG(cos_ptr + xi / 2);
        sin = LDG(sin_ptr + xi / 2);
    }
    const T x = v[xi], y = v[yi];
    v[xi] = x * cos - y * sin;
    v[yi] = y * cos + x * sin;
}
template <typename T, bool NEOX>
__global__ void rotary_kernel(const int64_t *__restrict__ positions, T *__restrict__ q, const T *__restrict__ cache,
                              const int rot_dim, const int64_t stride, const int heads, const int head_size) {
    const int token = blockIdx.x;
    const T *c = cache + positions[token] * rot_dim;
    const int half_dim = rot_dim / 2;
    for (int i = threadIdx.x; i < heads * half_dim; i += blockDim.x) {
        const int head = i / half_dim;
        rotate<T, NEOX>(q + token * stride + head * head_size, c, c + half_dim, i % half_dim, half_dim);
    }
}
} // namespace vstyle
