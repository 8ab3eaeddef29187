/* cuda-samples' parallel reduction, reduce3<double>.
 * @source https://github.com/NVIDIA/cuda-samples 2b689228b746248b7bb7d2778d5ea0701669f7d3 Samples/2_Concepts_and_Techniques/reduction/reduction_kernel.cu
 * @kernel reduce3<double>
 * @grid 4
 * @block 128
 * @shared 1024
 * @arg in f64 1024 rand -1 1
 * @arg out f64 4
 * @arg val u32 1024
 * @tol 1e-12
 */
#include "src/cuda_samples_reduction.cuh"
