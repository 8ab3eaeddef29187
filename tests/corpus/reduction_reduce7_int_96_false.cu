/* cuda-samples' parallel reduction, reduce7<int, 96, false>.
 * @source https://github.com/NVIDIA/cuda-samples 2b689228b746248b7bb7d2778d5ea0701669f7d3 Samples/2_Concepts_and_Techniques/reduction/reduction_kernel.cu
 * @kernel reduce7<int, 96, false>
 * @grid 2
 * @block 96
 * @shared 384
 * @arg in i32 1000 rand -1000 1000
 * @arg out i32 2
 * @arg val u32 1000
 */
#include "src/cuda_samples_reduction.cuh"
