// The profile's teaching suite (docs/profiling.md): kernels that each show one lesson of
// the memory system or of divergence, launched as suite.tsv says, counted by Nsight
// Compute on an H100 (ncu_h100.csv, made by ncu.sh) and by lattice's profile on the
// emulator (test_profile.c compares them). Every kernel takes (out, in, n): out and in
// hold 1 << 22 floats each, in random, out zero; n is the launch's element count.
// Kept in the dialect both nvcc and lattice accept.

#define TILE 32
#define ROWS 8
#define MAT 256 /* transposes: a MAT x MAT matrix */
#define MM 128  /* products: MM x MM matrices */
#define BS 16

struct f3 { float x, y, z; };
struct __align__(16) f4 { float x, y, z, w; };

// ---- global memory: coalescing ---------------------------------------------------------
extern "C" __global__ void copy_coalesced(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

extern "C" __global__ void copy_offset1(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i + 1];
}

extern "C" __global__ void copy_offset8(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i + 8] = in[i + 8];
}

extern "C" __global__ void copy_stride2(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[2 * i];
}

extern "C" __global__ void copy_stride4(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[4 * i];
}

extern "C" __global__ void copy_stride8(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[8 * i];
}

extern "C" __global__ void copy_stride32(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[32 * i];
}

extern "C" __global__ void store_stride2(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[2 * i] = in[i];
}

extern "C" __global__ void copy_reverse(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[n - 1 - i];
}

extern "C" __global__ void copy_tail(float *out, const float *in, int n)
{
    // n is not a multiple of 32: the last warp runs with some lanes off
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] * 2.0f;
}

extern "C" __global__ void copy_broadcast(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[blockIdx.x];
}

extern "C" __global__ void copy_gather(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[(unsigned)(i * 2654435761u) % (unsigned)n];
}

extern "C" __global__ void copy_float2(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        ((float2 *)out)[i] = ((const float2 *)in)[i];
}

extern "C" __global__ void copy_float4(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        ((float4 *)out)[i] = ((const float4 *)in)[i];
}

extern "C" __global__ void copy_double(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        ((double *)out)[i] = ((const double *)in)[i] + 1.0;
}

extern "C" __global__ void copy_char(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        ((unsigned char *)out)[i] = (unsigned char)(((const unsigned char *)in)[i] + 1);
}

extern "C" __global__ void copy_short(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        ((short *)out)[i] = (short)(((const short *)in)[i] + 1);
}

extern "C" __global__ void copy_2d_column(float *out, const float *in, int n)
{
    // a warp walks down a column: each lane a row MAT floats apart
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y * MAT + x] = in[x * MAT + y];
}

// ---- arrays of structures and structures of arrays ---------------------------------------
extern "C" __global__ void aos_x(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const struct f3 *p = (const struct f3 *)in;
    if (i < n)
        out[i] = p[i].x;
}

extern "C" __global__ void aos_sum3(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const struct f3 *p = (const struct f3 *)in;
    if (i < n)
        out[i] = p[i].x + p[i].y + p[i].z;
}

extern "C" __global__ void soa_sum3(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] + in[n + i] + in[2 * n + i];
}

extern "C" __global__ void aos4_sum(float *out, const float *in, int n)
{
    // an aligned 16-byte structure: nvcc loads it whole (one 128-bit load)
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    const struct f4 *p = (const struct f4 *)in;
    if (i < n)
        out[i] = p[i].x + p[i].y + p[i].z + p[i].w;
}

extern "C" __global__ void aos_write(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    struct f3 *p = (struct f3 *)out;
    if (i < n) {
        float v = in[i];
        p[i].x = v;
        p[i].y = v + 1.0f;
        p[i].z = v + 2.0f;
    }
}

// ---- transposes --------------------------------------------------------------------------
extern "C" __global__ void transpose_naive(float *out, const float *in, int n)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[x * MAT + (y + j)] = in[(y + j) * MAT + x];
}

extern "C" __global__ void transpose_shared(float *out, const float *in, int n)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * MAT + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * MAT + x] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void transpose_padded(float *out, const float *in, int n)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * MAT + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * MAT + x] = tile[threadIdx.x][threadIdx.y + j];
}

// ---- reductions ----------------------------------------------------------------------------
extern "C" __global__ void reduce_interleaved(float *out, const float *in, int n)
{
    // the first reduction of the classic lesson: tid % (2s) diverges in every warp
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned k = 1; k < blockDim.x; k *= 2) {
        if (t % (2 * k) == 0)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

extern "C" __global__ void reduce_strided(float *out, const float *in, int n)
{
    // no divergence, but the index 2*k*t walks the banks with a stride: conflicts
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned k = 1; k < blockDim.x; k *= 2) {
        unsigned index = 2 * k * t;
        if (index < blockDim.x)
            s[index] += s[index + k];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

extern "C" __global__ void reduce_sequential(float *out, const float *in, int n)
{
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

extern "C" __global__ void reduce_shuffle(float *out, const float *in, int n)
{
    __shared__ float w[8];
    unsigned t = threadIdx.x;
    float v = in[blockIdx.x * blockDim.x + t];
    for (int k = 16; k > 0; k >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, k);
    if (t % 32 == 0)
        w[t / 32] = v;
    __syncthreads();
    if (t < 32) {
        v = t < blockDim.x / 32 ? w[t] : 0.0f;
        for (int k = 16; k > 0; k >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, k);
        if (t == 0)
            out[blockIdx.x] = v;
    }
}

extern "C" __global__ void reduce_atomic(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(&out[i % 64], in[i]);
}

// ---- matrix products ---------------------------------------------------------------------
extern "C" __global__ void matmul_naive(float *out, const float *in, int n)
{
    const float *a = in, *b = in + MM * MM;
    int row = blockIdx.y * BS + threadIdx.y;
    int col = blockIdx.x * BS + threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < MM; k++)
        acc += a[row * MM + k] * b[k * MM + col];
    out[row * MM + col] = acc;
}

extern "C" __global__ void matmul_tiled(float *out, const float *in, int n)
{
    __shared__ float sa[BS][BS];
    __shared__ float sb[BS][BS];
    const float *a = in, *b = in + MM * MM;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * BS + ty;
    int col = blockIdx.x * BS + tx;
    float acc = 0.0f;
    for (int t = 0; t < MM; t += BS) {
        sa[ty][tx] = a[row * MM + t + tx];
        sb[ty][tx] = b[(t + ty) * MM + col];
        __syncthreads();
        for (int k = 0; k < BS; k++)
            acc += sa[ty][k] * sb[k][tx];
        __syncthreads();
    }
    out[row * MM + col] = acc;
}

// ---- histograms ---------------------------------------------------------------------------
extern "C" __global__ void histogram_shared(float *out, const float *in, int n)
{
    __shared__ unsigned h[64];
    unsigned t = threadIdx.x;
    if (t < 64)
        h[t] = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + t;
    if (i < n) {
        unsigned bin = (unsigned)(in[i] * 64.0f) & 63u;
        atomicAdd(&h[bin], 1u);
    }
    __syncthreads();
    if (t < 64)
        atomicAdd((unsigned *)out + t, h[t]);
}

extern "C" __global__ void histogram_global(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned bin = (unsigned)(in[i] * 64.0f) & 63u;
        atomicAdd((unsigned *)out + bin, 1u);
    }
}

// ---- shared memory banks ------------------------------------------------------------------
extern "C" __global__ void shared_stride1(float *out, const float *in, int n)
{
    __shared__ float s[1024];
    unsigned t = threadIdx.x;
    float v = in[blockIdx.x * blockDim.x + t];
    for (int k = 0; k < 4; k++)
        s[t + 256 * k] = v + k;
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = s[(t + 1) % 256];
}

extern "C" __global__ void shared_stride2(float *out, const float *in, int n)
{
    __shared__ float s[1024];
    unsigned t = threadIdx.x;
    float v = in[blockIdx.x * blockDim.x + t];
    for (int k = 0; k < 4; k++)
        s[t + 256 * k] = v + k;
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = s[2 * t];
}

extern "C" __global__ void shared_stride32(float *out, const float *in, int n)
{
    __shared__ float s[1024];
    unsigned t = threadIdx.x;
    float v = in[blockIdx.x * blockDim.x + t];
    for (int k = 0; k < 4; k++)
        s[t + 256 * k] = v + k;
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = s[(32 * t) % 1024 + t / 32];
}

extern "C" __global__ void shared_store_stride32(float *out, const float *in, int n)
{
    __shared__ float s[8192];
    unsigned t = threadIdx.x;
    s[32 * t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = s[32 * ((t + 1) % 256)];
}

extern "C" __global__ void shared_broadcast(float *out, const float *in, int n)
{
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = s[t / 32] + s[0];
}

extern "C" __global__ void shared_double(float *out, const float *in, int n)
{
    __shared__ double s[512];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    s[t + 256] = 1.0;
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = (float)s[(t + 1) % 256];
}

extern "C" __global__ void shared_double_stride2(float *out, const float *in, int n)
{
    __shared__ double s[512];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    s[t + 256] = 1.0;
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = (float)s[2 * t];
}

extern "C" __global__ void shared_float4(float *out, const float *in, int n)
{
    __shared__ float4 s[256];
    unsigned t = threadIdx.x;
    float v = in[blockIdx.x * blockDim.x + t];
    s[t] = make_float4(v, v + 1.0f, v + 2.0f, v + 3.0f);
    __syncthreads();
    float4 r = s[(t + 1) % 256];
    out[blockIdx.x * blockDim.x + t] = r.x + r.y + r.z + r.w;
}

// ---- divergence ----------------------------------------------------------------------------
extern "C" __global__ void branch_divergent(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    if (threadIdx.x % 2) {
        for (int k = 0; k < 8; k++)
            acc += in[(i + 64 * k) % n];
    } else {
        for (int k = 0; k < 4; k++)
            acc *= in[(i + 128 * k) % n] + 1.0f;
    }
    out[i] = acc;
}

extern "C" __global__ void branch_uniform(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    if ((threadIdx.x / 32) % 2) {
        for (int k = 0; k < 8; k++)
            acc += in[(i + 64 * k) % n];
    } else {
        for (int k = 0; k < 4; k++)
            acc *= in[(i + 128 * k) % n] + 1.0f;
    }
    out[i] = acc;
}

extern "C" __global__ void loop_divergent(float *out, const float *in, int n)
{
    // each lane loops as often as its lane number says: a warp runs 32 turns, fewer lanes each
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (unsigned k = 0; k < threadIdx.x % 32; k++)
        acc += in[(i + 32 * k) % n];
    out[i] = acc;
}

extern "C" __global__ void early_exit(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x % 32 >= 8)
        return;
    out[i] = in[i] + 1.0f;
}
