/* llm.c's layernorm forward, mean_kernel (a shared-memory tree reduction per row).
 * @source https://github.com/karpathy/llm.c 023b2d3d3e8acda287c99e12934c82bea0085c02 dev/cuda/layernorm_forward.cu
 * @kernel mean_kernel
 * @grid 16
 * @block 64
 * @shared 256
 * @arg out f32 16
 * @arg in f32 1536 rand -2 2
 * @arg val i32 16
 * @arg val i32 96
 * @arg val i32 64
 * @tol 1e-5
 */
#include "src/llmc_layernorm_forward.cuh"
