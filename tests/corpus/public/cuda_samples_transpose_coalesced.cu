/* cuda-samples' coalesced transpose: a shared tile padded against bank conflicts
 * (TILE_DIM + 1), BLOCK_ROWS rows per thread, cg::sync on the block.
 * After NVIDIA/cuda-samples Samples/6_Performance/transpose/transpose.cu
 * (transposeCoalesced), TILE_DIM 16 and BLOCK_ROWS 4.
 * @source https://github.com/NVIDIA/cuda-samples Samples/6_Performance/transpose/transpose.cu
 * @kernel transposeCoalesced
 * @grid 4,3
 * @block 16,4
 * @arg out f32 3072
 * @arg in f32 3072 rand -100 100
 * @arg val i32 64
 * @arg val i32 48
 */
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define TILE_DIM 16
#define BLOCK_ROWS 4

extern "C" __global__ void transposeCoalesced(float *odata, float *idata, int width,
                                              int height) {
  // Handle to thread block group
  cg::thread_block cta = cg::this_thread_block();
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];

  int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
  int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
  int index_in = xIndex + (yIndex)*width;

  xIndex = blockIdx.y * TILE_DIM + threadIdx.x;
  yIndex = blockIdx.x * TILE_DIM + threadIdx.y;
  int index_out = xIndex + (yIndex)*height;

  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
    tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * width];
  }

  cg::sync(cta);

  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
    odata[index_out + i * height] = tile[threadIdx.x][threadIdx.y + i];
  }
}
