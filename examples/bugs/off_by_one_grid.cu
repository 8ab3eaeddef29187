// An off-by-one grid. For n = 1000 and blocks of 256 threads the grid is computed as
// n / 256 = 3 blocks: 768 threads, so the last 232 elements are never written, and the
// kernel's bounds check hides that. A thread map shows the hole; initcheck names it when
// the next kernel reads what this one should have written.
__global__ void scale(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2.0f * in[i];
}

// The next step reads the whole output.
__global__ void sum_pairs(float *sums, const float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (2 * i + 1 < n)
        sums[i] = out[2 * i] + out[2 * i + 1];
}

// What lattice says:
//
//   $ lattice run examples/bugs/off_by_one_grid.cu scale -n 1000 -g 3 --map out --then sum_pairs -g 2
//   scale<<<(3,1,1), (256,1,1)>>> on the emulator, checks: memcheck,racecheck,synccheck,initcheck
//     out: 1000 x float *, not written yet
//     in: 1000 x const float *, filled with 0, 1, 2, ...
//     n = 1000
//     note: 232 of the 1000 elements of 'out' were never written (the first is [768], the last [999])
//   sum_pairs<<<(2,1,1), (256,1,1)>>>
//     sums: 1000 x float *, not written yet
//     n = 1000
//   reports:
//     examples/bugs/off_by_one_grid.cu:17: initcheck: kernel 'sum_pairs', block (1,0,0), threads (128,0,0) to (243,0,0): read of 4 bytes by `out[2 * i]` reads memory never written: element [768] of 'out' [116 times]
//     examples/bugs/off_by_one_grid.cu:17: initcheck: kernel 'sum_pairs', block (1,0,0), threads (128,0,0) to (243,0,0): read of 4 bytes by `out[2 * i + 1]` reads memory never written: element [769] of 'out' [116 times]
//
// Fixed: a grid of (n + 255) / 256 blocks runs clean:
//
//   $ lattice run examples/bugs/off_by_one_grid.cu scale -n 1000 --then sum_pairs -g 2
