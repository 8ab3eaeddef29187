/* ggml's clamp, op_clamp_kernel<half>.
 * @source https://github.com/ollama/ollama (see the kernel file) ml/backend/ggml/ggml/src/ggml-cuda/clamp.cu
 * @kernel op_clamp_kernel<half>
 * @grid 4
 * @block 256
 * @arg in f16 1000 rand -70000 70000
 * @arg out f16 1000
 * @arg val u16 30720
 * @arg val u16 31743
 * @arg val i32 1000
 */
#include "src/ggml_clamp.cu"
