/* Generic lambdas as device code writes them: a hand-written block reduction taking the
 * combining operation as [](auto a, auto b), a for_each over a register tile with
 * [&](auto &x), a [=] lambda returned from a function, a mutable counter (issue 42).
 * Written for lattice's corpus, not copied.
 * @source lattice (tests/corpus/cxx)
 * @kernel generic_lambdas
 * @grid 2
 * @block 128
 * @arg in f32 256 rand -2 2
 * @arg out f32 512
 * @arg val i32 256
 * @tol 1e-5
 */
template <int BLOCK, class T, class Op> __device__ T block_reduce(T v, Op op)
{
    __shared__ T buf[BLOCK];
    buf[threadIdx.x] = v;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            buf[threadIdx.x] = op(buf[threadIdx.x], buf[threadIdx.x + s]);
        __syncthreads();
    }
    T r = buf[0];
    __syncthreads();
    return r;
}
template <int N, class F> __device__ void for_each(float (&v)[N], F f)
{
#pragma unroll
    for (int j = 0; j < N; j++)
        f(v[j]);
}
__device__ auto make_affine(float a, float b) { return [=](auto x) { return a * x + b; }; }
extern "C" __global__ void generic_lambdas(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = i < n ? in[i] : 0.0f;
    float tile[4] = {x, x * x, 1.0f - x, 0.5f};
    float scale = 1.5f;
    for_each(tile, [&](auto &t) { t *= scale; });
    auto aff = make_affine(2.0f, -1.0f);
    int k = 0;
    auto next = [k](auto step) mutable { k += step; return k; };
    next(3);
    float s = block_reduce<128>(tile[0] + tile[1], [](auto a, auto b) { return a + b; });
    float m = block_reduce<128>(tile[2], [](const auto &a, const auto &b) { return a > b ? a : b; });
    if (i < n) {
        out[2 * i] = s + aff(tile[3]) + next(2);
        out[2 * i + 1] = m * aff(x);
    }
}
