/* cuda-samples' nbody, integrateBodies<float> (the kernel file records its source).
 * @source https://github.com/NVIDIA/cuda-samples 2e41896e1b2c7e2699b7b7f6689c107900c233bb Samples/5_Domain_Specific/nbody/bodysystemcuda.cu
 * @kernel integrateBodies<float>
 * @grid 4
 * @block 64
 * @shared 1024
 * @arg out f32 1024
 * @arg in f32 1024 rand -1 1
 * @arg inout f32 1024 rand -0.1 0.1
 * @arg val u32 0
 * @arg val u32 256
 * @arg val f32 0.01
 * @arg val f32 0.995
 * @arg val i32 4
 * @global softeningSquared f32 1 const 0.01
 * @tol 1e-5
 */
#include "src/nbody_cuda_samples.cu"
