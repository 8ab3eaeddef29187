// An uninitialised shared read. A 3-point average loads each block's elements into
// shared memory with a halo cell on each side, but never loads the halo.
__global__ void smooth(float *out, const float *in, int n)
{
    __shared__ float s[256 + 2];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t + 1] = in[i];
    __syncthreads();
    out[i] = (s[t] + s[t + 1] + s[t + 2]) / 3;
}

// Fixed: the first and last threads load the halo (zero past the array's ends).
__global__ void smooth_fixed(float *out, const float *in, int n)
{
    __shared__ float s[256 + 2];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t + 1] = in[i];
    if (t == 0)
        s[0] = i > 0 ? in[i - 1] : 0;
    if (t == blockDim.x - 1)
        s[t + 2] = i + 1 < n ? in[i + 1] : 0;
    __syncthreads();
    out[i] = (s[t] + s[t + 1] + s[t + 2]) / 3;
}

// What lattice says:
//
//   $ lattice run examples/bugs/uninit_shared.cu smooth -n 512
//   smooth<<<(2,1,1), (256,1,1)>>> on the emulator, checks: memcheck,racecheck,synccheck,initcheck
//     out: 512 x float *, not written yet
//     in: 512 x const float *, filled with 0, 1, 2, ...
//     n = 512
//   reports:
//     examples/bugs/uninit_shared.cu:9: initcheck: kernel 'smooth', block (0,0,0), thread (0,0,0): read of 4 bytes by `s[t]` reads memory never written: element [0] of __shared__ 's' [2 times]
//     examples/bugs/uninit_shared.cu:9: initcheck: kernel 'smooth', block (0,0,0), thread (255,0,0): read of 4 bytes by `s[t + 2]` reads memory never written: element [257] of __shared__ 's' [2 times]
//
// The fixed kernel runs clean (exit status 0, no reports):
//
//   $ lattice run examples/bugs/uninit_shared.cu smooth_fixed -n 512
