/* cuda-samples' parallel reduction, reduce5<int, 128>.
 * @source https://github.com/NVIDIA/cuda-samples 2b689228b746248b7bb7d2778d5ea0701669f7d3 Samples/2_Concepts_and_Techniques/reduction/reduction_kernel.cu
 * @kernel reduce5<int, 128>
 * @grid 4
 * @block 128
 * @shared 512
 * @arg in i32 512 rand -1000 1000
 * @arg out i32 4
 * @arg val u32 512
 */
#include "src/cuda_samples_reduction.cuh"
