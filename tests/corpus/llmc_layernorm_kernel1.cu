/* llm.c's layernorm forward, layernorm_forward_kernel1.
 * @source https://github.com/karpathy/llm.c 023b2d3d3e8acda287c99e12934c82bea0085c02 dev/cuda/layernorm_forward.cu
 * @kernel layernorm_forward_kernel1
 * @grid 1
 * @block 32
 * @shared 0
 * @arg out f32 1536
 * @arg out f32 16
 * @arg out f32 16
 * @arg in f32 1536 rand -2 2
 * @arg in f32 96 rand 0.5 1.5
 * @arg in f32 96 rand -0.5 0.5
 * @arg val i32 16
 * @arg val i32 96
 * @tol 2e-5
 */
#include "src/llmc_layernorm_forward.cuh"
