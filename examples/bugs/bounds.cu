// A missing bounds check. The grid is rounded up to whole blocks (4 blocks of 256
// threads for 1000 elements), so the last 24 threads index past the arrays' ends.
__global__ void scale(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 2.0f * in[i];
}

// Fixed: threads past the end do nothing.
__global__ void scale_fixed(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2.0f * in[i];
}

// What lattice says:
//
//   $ lattice run examples/bugs/bounds.cu scale -n 1000
//   scale<<<(4,1,1), (256,1,1)>>> on the emulator, checks: memcheck,racecheck,synccheck,initcheck
//     out: 1000 x float *, not written yet
//     in: 1000 x const float *, filled with 0, 1, 2, ...
//     n = 1000
//   reports:
//     examples/bugs/bounds.cu:6: memcheck: kernel 'scale', block (3,0,0), threads (232,0,0) to (255,0,0): out-of-bounds read of 4 bytes by `in[i]`: element [1000] of 'in', which has 1000 elements of 4 bytes [24 times]
//     examples/bugs/bounds.cu:6: memcheck: kernel 'scale', block (3,0,0), threads (232,0,0) to (255,0,0): out-of-bounds write of 4 bytes by `out[i]`: element [1000] of 'out', which has 1000 elements of 4 bytes [24 times]
//
// The fixed kernel runs clean (exit status 0, no reports):
//
//   $ lattice run examples/bugs/bounds.cu scale_fixed -n 1000
