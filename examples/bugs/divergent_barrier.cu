// A barrier in divergent code. Only the first half of the block reaches the __syncthreads()
// inside the if; the second half waits at the one after it. The programming model wants
// every thread of a block at the same barrier: on a GPU the two may meet each other, the
// first half reading s[t + 32] before the second half wrote it, or the block may hang.
// (Threads that return before a barrier are fine: exited threads take no part in it.)
__global__ void halves(float *out, const float *in, int n)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    if (t < 32) {
        s[t] = in[t];
        __syncthreads();
        out[t] = s[t] + s[t + 32];
    } else {
        s[t] = in[t];
    }
    __syncthreads();
}

// Fixed: every thread reaches the same barriers; only the work is conditional.
__global__ void halves_fixed(float *out, const float *in, int n)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    if (t < 32)
        out[t] = s[t] + s[t + 32];
}

// What lattice says:
//
//   $ lattice run examples/bugs/divergent_barrier.cu halves -n 64 -b 64
//   halves<<<(1,1,1), (64,1,1)>>> on the emulator, checks: memcheck,racecheck,synccheck,initcheck
//     out: 64 x float *, not written yet
//     in: 64 x const float *, filled with 0, 1, 2, ...
//     n = 64
//   reports:
//     examples/bugs/divergent_barrier.cu:12: synccheck: kernel 'halves', block (0,0,0), threads (0,0,0) to (31,0,0): threads (0,0,0) to (31,0,0) wait at __syncthreads() here while threads (32,0,0) to (63,0,0) wait at the one at examples/bugs/divergent_barrier.cu:17 (every thread of a block must reach the same barrier)
//
// The fixed kernel runs clean (exit status 0, no reports):
//
//   $ lattice run examples/bugs/divergent_barrier.cu halves_fixed -n 64 -b 64
