/* Found beside scale.cu: an #include "..." is resolved relative to the including file. */
#ifndef SCALE_HELPERS_CUH
#define SCALE_HELPERS_CUH

__device__ int global_index(void)
{
    return blockIdx.x * blockDim.x + threadIdx.x;
}

#endif
