#include "broken_header.cuh"

__global__ void uses_helper(float *x)
{
    x[threadIdx.x] = helper(x[threadIdx.x]);
}
