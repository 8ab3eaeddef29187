/* cuda-samples' scan: scan1Inclusive ... scan4Exclusive and scanExclusiveShared, verbatim:
 * a scan in volatile shared memory between cg::sync barriers, four elements a thread,
 * arrays of 1024 (scanExclusiveShort's launch). scan_common.h's uint typedef.
 * Copyright (c) 2022, NVIDIA CORPORATION. All rights reserved. BSD-3-Clause.
 * @source https://github.com/NVIDIA/cuda-samples ca37378cb454b74e3979fa7a14c110045d3c4437 Samples/2_Concepts_and_Techniques/scan/scan.cu
 * @kernel scanExclusiveShared
 * @grid 4
 * @block 256
 * @arg out u32 4096
 * @arg in u32 4096 rand 0 1000
 * @arg val u32 1024
 */
#include <cooperative_groups.h>

namespace cg = cooperative_groups;
typedef unsigned int uint;

// All three kernels run 512 threads per workgroup
// Must be a power of two
#define THREADBLOCK_SIZE 256

////////////////////////////////////////////////////////////////////////////////
// Basic scan codelets
////////////////////////////////////////////////////////////////////////////////
// Naive inclusive scan: O(N * log2(N)) operations
// Allocate 2 * 'size' local memory, initialize the first half
// with 'size' zeros avoiding if(pos >= offset) condition evaluation
// and saving instructions
inline __device__ uint scan1Inclusive(uint idata, volatile uint *s_Data,
                                      uint size, cg::thread_block cta) {
  uint pos = 2 * threadIdx.x - (threadIdx.x & (size - 1));
  s_Data[pos] = 0;
  pos += size;
  s_Data[pos] = idata;

  for (uint offset = 1; offset < size; offset <<= 1) {
    cg::sync(cta);
    uint t = s_Data[pos] + s_Data[pos - offset];
    cg::sync(cta);
    s_Data[pos] = t;
  }

  return s_Data[pos];
}

inline __device__ uint scan1Exclusive(uint idata, volatile uint *s_Data,
                                      uint size, cg::thread_block cta) {
  return scan1Inclusive(idata, s_Data, size, cta) - idata;
}

inline __device__ uint4 scan4Inclusive(uint4 idata4, volatile uint *s_Data,
                                       uint size, cg::thread_block cta) {
  // Level-0 inclusive scan
  idata4.y += idata4.x;
  idata4.z += idata4.y;
  idata4.w += idata4.z;

  // Level-1 exclusive scan
  uint oval = scan1Exclusive(idata4.w, s_Data, size / 4, cta);

  idata4.x += oval;
  idata4.y += oval;
  idata4.z += oval;
  idata4.w += oval;

  return idata4;
}

// Exclusive vector scan: the array to be scanned is stored
// in local thread memory scope as uint4
inline __device__ uint4 scan4Exclusive(uint4 idata4, volatile uint *s_Data,
                                       uint size, cg::thread_block cta) {
  uint4 odata4 = scan4Inclusive(idata4, s_Data, size, cta);
  odata4.x -= idata4.x;
  odata4.y -= idata4.y;
  odata4.z -= idata4.z;
  odata4.w -= idata4.w;
  return odata4;
}

////////////////////////////////////////////////////////////////////////////////
// Scan kernels
////////////////////////////////////////////////////////////////////////////////
__global__ void scanExclusiveShared(uint4 *d_Dst, uint4 *d_Src, uint size) {
  // Handle to thread block group
  cg::thread_block cta = cg::this_thread_block();
  __shared__ uint s_Data[2 * THREADBLOCK_SIZE];

  uint pos = blockIdx.x * blockDim.x + threadIdx.x;

  // Load data
  uint4 idata4 = d_Src[pos];

  // Calculate exclusive scan
  uint4 odata4 = scan4Exclusive(idata4, s_Data, size, cta);

  // Write back
  d_Dst[pos] = odata4;
}
