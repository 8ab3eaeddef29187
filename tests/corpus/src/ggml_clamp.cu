/* ggml's clamp kernel on half and float.
 * Source: https://github.com/ollama/ollama, ml/backend/ggml/ggml/src/ggml-cuda/clamp.cu
 * (ggml, MIT licence, Copyright (c) 2023-2024 The ggml authors): op_clamp and
 * op_clamp_kernel verbatim; the explicit instantiations are ours (clamp_cuda's two calls
 * instantiate the same, from host code). */
#include <cuda_fp16.h>

static __device__ __forceinline__ float op_clamp(float x, float min, float max) {
    return fminf(fmaxf(x, min), max);
}

template <class T>
static __global__ void op_clamp_kernel(const T * x, T * dst, const T min, const T max, const int k) {
    const int i = blockDim.x*blockIdx.x + threadIdx.x;

    if (i >= k) {
        return;
    }

    dst[i] = (T)op_clamp((float)x[i], (float)min, (float)max);
}

template __global__ void op_clamp_kernel<half>(const half *, half *, const half, const half, const int);
template __global__ void op_clamp_kernel<float>(const float *, float *, const float, const float, const int);
