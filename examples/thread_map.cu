// Which thread computes which element? A 12 x 8 matrix added by blocks of 4 x 4 threads:
// six blocks, each thread one element, row-major.
//
//   $ build/tools/lattice run examples/thread_map.cu add -n 96 -g 3,2 -b 4,4 \
//         --arg width=12 --arg height=8 --map c --columns 12 --svg docs/thread-map.svg --text
//
// draws docs/thread-map.svg (each element in its block's colour, labelled with its
// thread's x,y) and prints the same map as a table.
__global__ void add(float *c, const float *a, const float *b, int width, int height)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (col < width && row < height)
        c[row * width + col] = a[row * width + col] + b[row * width + col];
}
