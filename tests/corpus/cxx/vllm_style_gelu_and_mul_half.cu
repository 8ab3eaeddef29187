/* vLLM's shape of a gated GELU (tanh) on halves: the activation a function template's
 * instance given as a template argument (tests/corpus/src/vllm_style.cuh, written here).
 * @source lattice (tests/corpus/cxx), in vLLM's csrc idioms
 * @kernel vstyle::act_and_mul_kernel<half, vstyle::gelu_tanh<half>, false>
 * @grid 8
 * @block 128
 * @arg out f16 2048
 * @arg in f16 4096 rand -6 6
 * @arg val i32 256
 */
#include "../src/vllm_style.cuh"
