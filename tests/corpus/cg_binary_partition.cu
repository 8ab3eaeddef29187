/* cuda-samples' binaryPartitionCG: oddEvenCountAndSumCG, verbatim (binary_partition, cg::reduce).
 * Copyright (c) 2022, NVIDIA CORPORATION. All rights reserved. BSD-3-Clause.
 * @source https://github.com/NVIDIA/cuda-samples 2e41896e1b2c7e2699b7b7f6689c107900c233bb Samples/3_CUDA_Features/binaryPartitionCG/binaryPartitionCG.cu
 * @kernel oddEvenCountAndSumCG
 * @grid 4
 * @block 128
 * @arg in i32 3072 rand 0 50
 * @arg inout i32 1 const 0
 * @arg inout i32 2 const 0
 * @arg val u32 3072
 */
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

/**
 * CUDA kernel device code
 *
 * Creates cooperative groups and performs odd/even counting & summation.
 */
__global__ void oddEvenCountAndSumCG(int *inputArr, int *numOfOdds,
                                     int *sumOfOddAndEvens, unsigned int size) {
  cg::thread_block cta = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);

  for (int i = grid.thread_rank(); i < size; i += grid.size()) {
    int elem = inputArr[i];
    auto subTile = cg::binary_partition(tile32, elem & 1);
    if (elem & 1)  // Odd numbers group
    {
      int oddGroupSum = cg::reduce(subTile, elem, cg::plus<int>());

      if (subTile.thread_rank() == 0) {
        // Add number of odds present in this group of Odds.
        atomicAdd(numOfOdds, subTile.size());

        // Add local reduction of odds present in this group of Odds.
        atomicAdd(&sumOfOddAndEvens[0], oddGroupSum);
      }
    } else  // Even numbers group
    {
      int evenGroupSum = cg::reduce(subTile, elem, cg::plus<int>());

      if (subTile.thread_rank() == 0) {
        // Add local reduction of even present in this group of evens.
        atomicAdd(&sumOfOddAndEvens[1], evenGroupSum);
      }
    }
    // reconverge warp so for next loop iteration we ensure convergence of
    // above diverged threads to perform coalesced loads of inputArr.
    cg::sync(tile32);
  }
}
