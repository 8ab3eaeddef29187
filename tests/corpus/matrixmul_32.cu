/* cuda-samples' matrixMul, MatrixMulCUDA<32>: A is 64 x 64, B 64 wide.
 * @source https://github.com/NVIDIA/cuda-samples ceab6e8bcce41c1a8af0cf872098ae745d9ce5ff Samples/0_Introduction/matrixMul/matrixMul.cu
 * @kernel MatrixMulCUDA<32>
 * @grid 2,2
 * @block 32,32
 * @arg out f32 4096
 * @arg in f32 4096 rand -1 1
 * @arg in f32 4096 rand -1 1
 * @arg val i32 64
 * @arg val i32 64
 * @tol 1e-5
 */
#include "src/cuda_samples_matrixmul.cuh"
