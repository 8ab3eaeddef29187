/* ggml's clamp, op_clamp_kernel<float>.
 * @source https://github.com/ollama/ollama (see the kernel file) ml/backend/ggml/ggml/src/ggml-cuda/clamp.cu
 * @kernel op_clamp_kernel<float>
 * @grid 4
 * @block 256
 * @arg in f32 1000 rand -70000 70000
 * @arg out f32 1000
 * @arg val f32 -1.5
 * @arg val f32 2.5
 * @arg val i32 1000
 */
#include "src/ggml_clamp.cu"
