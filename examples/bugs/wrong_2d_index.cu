// A wrong 2-D index. The matrix is 8 columns wide and 4 rows high, row-major; the
// index multiplies the row by the height instead of the width, so rows overlap: two
// threads write each of the first elements, and the last rows are never written.
__global__ void fill(float *m, const float *in, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int width = 8, height = 4;
    if (col < width && row < height)
        m[row * height + col] = row;
}

// Fixed: a row-major index is row * width + col.
__global__ void fill_fixed(float *m, const float *in, int n)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int width = 8, height = 4;
    if (col < width && row < height)
        m[row * width + col] = row;
}

// What lattice says:
//
//   $ lattice run examples/bugs/wrong_2d_index.cu fill -n 32 -g 2,1 -b 4,4 --map m --text
//   fill<<<(2,1,1), (4,4,1)>>> on the emulator, checks: memcheck,racecheck,synccheck,initcheck
//     m: 32 x float *, not written yet
//     in: 32 x const float *, filled with 0, 1, 2, ...
//     n = 32
//   reports:
//     examples/bugs/wrong_2d_index.cu:10: racecheck: kernel 'fill', block (1,0,0), thread (0,0,0): data race: write of `m[row * height + col]` after the write of `m[row * height + col]` at examples/bugs/wrong_2d_index.cu:10 by thread (0,1,0) of block (0,0,0), with no barrier between them, on element [4] of 'm' [12 times]
//     note: 12 of the 32 elements of 'm' were never written (the first is [20], the last [31])
//   fill<<<(2,1,1), (4,4,1)>>>: which block and thread last wrote each element (block/thread; - untouched)
//    [0] 0/0,0 0/1,0 0/2,0 0/3,0 1/0,0 1/1,0 1/2,0 1/3,0
//    [8] 1/0,1 1/1,1 1/2,1 1/3,1 1/0,2 1/1,2 1/2,2 1/3,2
//   [16] 1/0,3 1/1,3 1/2,3 1/3,3     -     -     -     -
//   [24]     -     -     -     -     -     -     -     -
//
// The fixed kernel runs clean (exit status 0, no reports):
//
//   $ lattice run examples/bugs/wrong_2d_index.cu fill_fixed -n 32 -g 2,1 -b 4,4
