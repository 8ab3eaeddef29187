// A barrier in divergent code. Only the first half of the block reaches __syncthreads();
// on a GPU the block hangs or goes on with half of its threads at the barrier.
__global__ void halves(float *out, const float *in, int n)
{
    __shared__ float s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    if (t < 32) {
        __syncthreads();
        out[t] = s[t] + s[t + 32];
    }
}

// Fixed: every thread reaches the barrier; only the work is conditional.
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
//     examples/bugs/divergent_barrier.cu:9: synccheck: kernel 'halves', block (0,0,0), threads (0,0,0) to (31,0,0): divergent barrier: threads (0,0,0) to (31,0,0) wait at __syncthreads() while threads (32,0,0) to (63,0,0) have exited (every thread of a block must reach each barrier)
//
// The fixed kernel runs clean (exit status 0, no reports):
//
//   $ lattice run examples/bugs/divergent_barrier.cu halves_fixed -n 64 -b 64
