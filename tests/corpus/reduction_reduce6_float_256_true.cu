/* cuda-samples' parallel reduction, reduce6<float, 256, true>.
 * @source https://github.com/NVIDIA/cuda-samples 2b689228b746248b7bb7d2778d5ea0701669f7d3 Samples/2_Concepts_and_Techniques/reduction/reduction_kernel.cu
 * @kernel reduce6<float, 256, true>
 * @grid 4
 * @block 256
 * @shared 1024
 * @arg in f32 4096 rand -1 1
 * @arg out f32 4
 * @arg val u32 4096
 * @tol 1e-5
 */
#include "src/cuda_samples_reduction.cuh"
