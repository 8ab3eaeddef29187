// The kernel tests/debug/check_gdb.py debugs with gdb (docs/debugging.md): locals,
// parameters, a 2-D __shared__ array, a barrier, and __device__ functions, each with
// values that differ from thread to thread. The script finds its lines by the BREAK
// comments, so lines may move.
__device__ float blend(float a, float b, int k)
{
    float w = 0.25f * (float)(min(k, 1000) % 4); // BREAK device
    float mixed = a * (1.0f - w) + b * w;
    return mixed;
}

__device__ int lane_of(int t) { return t % 32; } // BREAK oneline

__global__ void smooth(float *out, const float *in, int n, int bias)
{
    __shared__ float tile[8][33];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    int row = t / 32, col = lane_of(t);
    tile[row][col] = i < n ? in[i] * 3.0f + (float)bias : 0.0f; // BREAK store
    __syncthreads();
    int right = (t + 1) % blockDim.x;
    float mine = tile[row][col];
    float next = tile[right / 32][right % 32]; // BREAK kernel
    float v = blend(mine, next, t);
    if (i < n)
        out[i] = v;
}
