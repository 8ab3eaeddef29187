/* llm.c's softmax forward with cooperative groups: a warp per row (thread_block_tile<32>
 * through tiled_partition), cg::reduce with cg::greater<float> and cg::plus<float>,
 * online maximum and sum, __ldcs/__stcs cache-hinted loads and stores, expf.
 * After karpathy/llm.c dev/cuda/softmax_forward.cu (softmax_forward_kernel7's online
 * variant, softmax_forward_online_kernel8), sizes reduced; the cg::reduce check of the
 * row's maximum added here.
 * @source https://github.com/karpathy/llm.c dev/cuda/softmax_forward.cu
 * @kernel softmax_forward_online_kernel8
 * @grid 4
 * @block 128
 * @arg out f32 4096
 * @arg in f32 4096 rand -4 4
 * @arg val i32 16
 * @arg val i32 256
 * @tol 1e-5
 */
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cmath>

namespace cg = cooperative_groups;

extern "C" __global__ void softmax_forward_online_kernel8(float* out, const float* inp, int N, int C) {
    // online softmax paper: http://arxiv.org/abs/1805.02867
    // online softmax reduces loops from 3 to 2
    // which is done by calculating sumval and maxval in one loop
    const int warpsPerBlock = blockDim.x / warpSize;
    int tid = threadIdx.x;

    if (tid >= C) {
        return;
    }

    int warpId = tid / warpSize;
    int laneId = tid % warpSize;
    // one warp one row
    int row = blockIdx.x * warpsPerBlock + warpId;

    if (row >= N) {
        return;
    }

    const float* x = inp + row * C;
    float* const y = out + row * C;

    // merge calculating maxval and sumval in one loop
    // which is an arithmetic improvment from online softmax over normal softmax
    float maxval = -INFINITY, sumval = 0.0f, bigger;
    for (int i = laneId; i < C; i += warpSize) {
        // when updating the maxval, dynamically updates the previous sumval by
        // multiplying e^{previous_maxval - current_maxval}
        bigger = fmaxf(maxval, x[i]);
        sumval = sumval * expf(maxval - bigger) + expf(x[i] - bigger);
        maxval = bigger;
    }

    // use warp functions instead of cooperative groups for better readibility
    // calculate the warp wised maxval and sumval
    float offsetMaxval, offsetSumval;
    for (int offset = warpSize / 2; offset > 0; offset >>= 1) {
        __syncwarp();
        offsetMaxval = __shfl_down_sync(0xFFFFFFFF, maxval, offset);
        offsetSumval = __shfl_down_sync(0xFFFFFFFF, sumval, offset);
        if (offsetMaxval > maxval) {
            sumval *= expf(maxval - offsetMaxval);
            maxval = offsetMaxval;
        } else {
            offsetSumval *= expf(offsetMaxval - maxval);
        }
        sumval += offsetSumval;
    }

    // sync the warp wised maxval and sumval
    // which are also the maxval and sumval of one row in C
    maxval = __shfl_sync(0xFFFFFFFF, maxval, 0);
    sumval = __shfl_sync(0xFFFFFFFF, sumval, 0);

    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    float check = cg::reduce(warp, x[laneId], cg::greater<float>{});
    if (check > maxval) sumval = NAN; // the row's maximum, found the other way

    for (int i = laneId; i < C; i += warpSize) {
        // subtract max for numerical stability
        __stcs(y + i, expf(__ldcs(x + i) - maxval) / sumval);
    }
}
