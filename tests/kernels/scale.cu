/* Scales n floats in place: the kernel the module tests load from a file. */
#include "scale_helpers.cuh"

__global__ void scale(float *x, float factor, int n)
{
    int i = global_index();
    if (i < n)
        x[i] *= factor;
}
