/* cuda-samples' parallel reduction, reduce2<float>.
 * @source https://github.com/NVIDIA/cuda-samples 2b689228b746248b7bb7d2778d5ea0701669f7d3 Samples/2_Concepts_and_Techniques/reduction/reduction_kernel.cu
 * @kernel reduce2<float>
 * @grid 4
 * @block 256
 * @shared 1024
 * @arg in f32 1024 rand -1 1
 * @arg out f32 4
 * @arg val u32 1024
 * @tol 1e-5
 */
#include "src/cuda_samples_reduction.cuh"
