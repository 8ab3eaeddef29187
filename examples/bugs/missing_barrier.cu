// A missing barrier. Each block reverses its 256 elements through shared memory, but
// reads its neighbour's element before that thread has written it.
__global__ void reverse(float *out, const float *in, int n)
{
    __shared__ float tile[256];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    tile[t] = in[i];
    out[i] = tile[blockDim.x - 1 - t];
}

// Fixed: every thread has written its element before any reads.
__global__ void reverse_fixed(float *out, const float *in, int n)
{
    __shared__ float tile[256];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    tile[t] = in[i];
    __syncthreads();
    out[i] = tile[blockDim.x - 1 - t];
}

// What lattice says:
//
//   $ lattice run examples/bugs/missing_barrier.cu reverse -n 512
//   reverse<<<(2,1,1), (256,1,1)>>> on the emulator, checks: memcheck,racecheck,synccheck,initcheck
//     out: 512 x float *, not written yet
//     in: 512 x const float *, filled with 0, 1, 2, ...
//     n = 512
//   reports:
//     examples/bugs/missing_barrier.cu:7: racecheck: kernel 'reverse', block (0,0,0), thread (128,0,0): data race: write of `tile[t]` after the read of `tile[blockDim.x - 1 - t]` at examples/bugs/missing_barrier.cu:8 by thread (127,0,0) of the same block, with no barrier between them, on element [128] of __shared__ 'tile' [256 times]
//     examples/bugs/missing_barrier.cu:8: racecheck: kernel 'reverse', block (0,0,0), thread (128,0,0): data race: read of `tile[blockDim.x - 1 - t]` after the write of `tile[t]` at examples/bugs/missing_barrier.cu:7 by thread (127,0,0) of the same block, with no barrier between them, on element [127] of __shared__ 'tile' [256 times]
//     examples/bugs/missing_barrier.cu:8: initcheck: kernel 'reverse', block (0,0,0), threads (0,0,0) to (127,0,0): read of 4 bytes by `tile[blockDim.x - 1 - t]` reads memory never written: element [255] of __shared__ 'tile' [256 times]
//
// The fixed kernel runs clean (exit status 0, no reports):
//
//   $ lattice run examples/bugs/missing_barrier.cu reverse_fixed -n 512
