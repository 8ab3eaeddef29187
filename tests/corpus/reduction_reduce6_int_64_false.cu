/* cuda-samples' parallel reduction, reduce6<int, 64, false>.
 * @source https://github.com/NVIDIA/cuda-samples 2b689228b746248b7bb7d2778d5ea0701669f7d3 Samples/2_Concepts_and_Techniques/reduction/reduction_kernel.cu
 * @kernel reduce6<int, 64, false>
 * @grid 3
 * @block 64
 * @shared 256
 * @arg in i32 1000 rand -1000 1000
 * @arg out i32 3
 * @arg val u32 1000
 */
#include "src/cuda_samples_reduction.cuh"
