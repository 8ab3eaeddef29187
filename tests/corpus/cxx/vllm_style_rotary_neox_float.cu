/* vLLM's shape of a rotary embedding (NeoX layout) on floats, its locals named cos and sin
 * (tests/corpus/src/vllm_style.cuh, written here).
 * @source lattice (tests/corpus/cxx), in vLLM's csrc idioms
 * @kernel vstyle::rotary_kernel<float, true>
 * @grid 4
 * @block 64
 * @arg in i64 4 mod 7 3
 * @arg inout f32 1024 rand -2 2
 * @arg in f32 512 rand -1 1
 * @arg val i32 32
 * @arg val i64 256
 * @arg val i32 4
 * @arg val i32 64
 * @tol 1e-5
 */
#include "../src/vllm_style.cuh"
