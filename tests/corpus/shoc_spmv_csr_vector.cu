/* SHOC's spmv_csr_vector_kernel<float> (src/shoc_spmv.cuh), 50 rows of 45 non-zeros each.
 * The vector is read through a reader written here (SHOC's reads a texture object): x[c] =
 * 0.5 + c / 64, a __device__ array the kernel file fills.
 * @source https://github.com/vetter/shoc 59f3e5e335b0e7cc901406ccff309e4b4cce7d6f src/cuda/level1/spmv/Spmv.cu
 * @kernel spmv_csr_vector_kernel<float, vecReader>
 * @grid 13
 * @block 128
 * @arg in f32 2250 rand -1 1
 * @arg in i32 2250 mod 37 64
 * @arg in i32 51 step 45
 * @arg val i32 50
 * @arg out f32 50
 * @arg val u8 0
 * @global vec f32 64 const 0.75
 * @tol 1e-5
 * @expect report: racecheck names the warp-synchronous hazard (the GPU's answer comes from lockstep)
 */
#include "src/shoc_spmv.cuh"

__device__ float vec[64];

struct vecReader {
    __device__ __forceinline__ float operator()(const int idx) const { return vec[idx] + idx * (1.0f / 64); }
};
