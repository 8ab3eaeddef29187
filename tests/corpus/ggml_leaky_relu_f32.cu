/* ggml's unary op leaky_relu_f32.
 * @source https://github.com/ollama/ollama 231184afd846673c28b8dd96b57bcf0170f9fa19 ml/backend/ggml/ggml/src/ggml-cuda/unary.cu
 * @kernel leaky_relu_f32
 * @grid 4
 * @block 256
 * @arg in f32 1000 rand -6 6
 * @arg out f32 1000
 * @arg val i32 1000
 * @arg val f32 0.01
 * @tol 1e-5
 */
#include "src/ggml_unary.cuh"
