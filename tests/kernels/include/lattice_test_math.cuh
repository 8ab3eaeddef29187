/* Found through lat_module_desc.include_dirs: a header of __device__ functions. */
#ifndef LATTICE_TEST_MATH_CUH
#define LATTICE_TEST_MATH_CUH

__device__ float square(float x)
{
    return x * x;
}

__device__ float sum_of_squares(float x, float y)
{
    return square(x) + square(y);
}

#endif
