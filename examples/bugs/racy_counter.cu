// A racy shared counter. Every thread with a positive input adds one to a __shared__
// counter with ++, a read and a write that other threads' ++ can fall between.
__global__ void count_positive(int *out, const float *in, int n)
{
    __shared__ int count;
    if (threadIdx.x == 0)
        count = 0;
    __syncthreads();
    if (in[blockIdx.x * blockDim.x + threadIdx.x] > 0)
        count++;
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = count;
}

// Fixed: atomicAdd makes each increment indivisible.
__global__ void count_positive_fixed(int *out, const float *in, int n)
{
    __shared__ int count;
    if (threadIdx.x == 0)
        count = 0;
    __syncthreads();
    if (in[blockIdx.x * blockDim.x + threadIdx.x] > 0)
        atomicAdd(&count, 1);
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = count;
}

// What lattice says:
//
//   $ lattice run examples/bugs/racy_counter.cu count_positive -n 512
//   count_positive<<<(2,1,1), (256,1,1)>>> on the emulator, checks: memcheck,racecheck,synccheck,initcheck
//     out: 512 x int *, not written yet
//     in: 512 x const float *, filled with 0, 1, 2, ...
//     n = 512
//   reports:
//     examples/bugs/racy_counter.cu:10: racecheck: kernel 'count_positive', block (0,0,0), thread (2,0,0): data race: read-write of `count` after the read-write of `count` at examples/bugs/racy_counter.cu:10 by thread (1,0,0) of the same block, with no barrier between them, on element [0] of __shared__ 'count' [509 times]
//
// The fixed kernel runs clean (exit status 0, no reports):
//
//   $ lattice run examples/bugs/racy_counter.cu count_positive_fixed -n 512
