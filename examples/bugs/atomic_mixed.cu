// Atomics mixed with plain accesses. A block histogram clears its __shared__ bins with
// plain stores, counts into them with atomicAdd, and copies them out with plain loads:
// atomics are indivisible among themselves only. Without a barrier between the clearing
// and the counting, a thread may count into a bin another thread clears afterwards; without
// one between the counting and the copying, a bin may be copied before every count is in.
__global__ void histogram(int *bins, const int *in, int n)
{
    __shared__ int local[16];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (t < 16)
        local[t] = 0;
    if (i < n)
        atomicAdd(&local[in[i] % 16], 1);
    if (t < 16)
        bins[blockIdx.x * 16 + t] = local[t];
}

// Fixed: a barrier after the clearing and one before the copying.
__global__ void histogram_fixed(int *bins, const int *in, int n)
{
    __shared__ int local[16];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (t < 16)
        local[t] = 0;
    __syncthreads();
    if (i < n)
        atomicAdd(&local[in[i] % 16], 1);
    __syncthreads();
    if (t < 16)
        bins[blockIdx.x * 16 + t] = local[t];
}

// What lattice says:
//
//   $ lattice run examples/bugs/atomic_mixed.cu histogram -n 512
//   histogram<<<(2,1,1), (256,1,1)>>> on the emulator, checks: memcheck,racecheck,synccheck,initcheck
//     bins: 512 x int *, not written yet
//     in: 512 x const int *, filled with 0, 1, 2, ...
//     n = 512
//   reports:
//     examples/bugs/atomic_mixed.cu:13: racecheck: kernel 'histogram', block (0,0,0), thread (16,0,0): data race: atomic read-write of `atomicAdd(&local[in[i] % 16], 1)` after the read of `local[t]` at examples/bugs/atomic_mixed.cu:15 by thread (0,0,0) of the same block, with no barrier between them, on element [0] of __shared__ 'local' [480 times]
//
// The fixed kernel runs clean (exit status 0, no reports):
//
//   $ lattice run examples/bugs/atomic_mixed.cu histogram_fixed -n 512
