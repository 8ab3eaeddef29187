// Probe of the H100's linear texture filtering: what weights does it use?
#include <cstdio>
#include <cuda_runtime.h>
#include <cuda_fp16.h>

__global__ void fetch1(cudaTextureObject_t t, const float *xs, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1D<float>(t, xs[i]);
}
__global__ void fetch2(cudaTextureObject_t t, const float *xs, const float *ys, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex2D<float>(t, xs[i], ys[i]);
}
__global__ void fetch3(cudaTextureObject_t t, const float *xs, const float *ys, const float *zs, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex3D<float>(t, xs[i], ys[i], zs[i]);
}

static cudaTextureObject_t make(cudaArray_t a, cudaTextureReadMode rm) {
    cudaResourceDesc r = {}; r.resType = cudaResourceTypeArray; r.res.array.array = a;
    cudaTextureDesc d = {}; d.addressMode[0] = d.addressMode[1] = d.addressMode[2] = cudaAddressModeClamp;
    d.filterMode = cudaFilterModeLinear; d.readMode = rm; d.normalizedCoords = 0;
    cudaTextureObject_t t; cudaCreateTextureObject(&t, &r, &d, NULL); return t;
}

int main() {
    const int N = 1 << 16;
    float *xs, *ys, *zs, *out;
    cudaMallocManaged(&xs, N * 4); cudaMallocManaged(&ys, N * 4); cudaMallocManaged(&zs, N * 4); cudaMallocManaged(&out, N * 4);
    // 1-D float [0, 1]: out = alpha(x). x from 0.5 to 1.5 in 1/8192 steps.
    {
        cudaChannelFormatDesc c = cudaCreateChannelDesc<float>();
        cudaArray_t a; cudaMallocArray(&a, &c, 2, 0);
        float h[2] = {0.f, 1.f}; cudaMemcpy2DToArray(a, 0, 0, h, 8, 8, 1, cudaMemcpyHostToDevice);
        cudaTextureObject_t t = make(a, cudaReadModeElementType);
        int n = 8193; for (int i = 0; i < n; i++) xs[i] = 0.5f + i / 8192.f;
        fetch1<<<(n + 255) / 256, 256>>>(t, xs, out, n); cudaDeviceSynchronize();
        for (int i = 0; i < n; i++) printf("A1 %d %.9g\n", i, out[i]);
    }
    // 2-D float 2x2 with a single 1 at (1,1): out = alpha*beta as the hardware forms it.
    // Plus T = [[0,1],[0,1]] (alpha alone via 2-D) and T=[[0,0],[1,1]] (beta alone).
    const float pats[4][4] = {{0, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 0, 0, 0}};
    for (int p = 0; p < 4; p++) {
        cudaChannelFormatDesc c = cudaCreateChannelDesc<float>();
        cudaArray_t a; cudaMallocArray(&a, &c, 2, 2);
        cudaMemcpy2DToArray(a, 0, 0, pats[p], 8, 8, 2, cudaMemcpyHostToDevice);
        cudaTextureObject_t t = make(a, cudaReadModeElementType);
        int n = 0;
        for (int i = 0; i <= 256; i += 1) for (int j = 0; j <= 256; j += 4) {
            xs[n] = 0.5f + i / 256.f + 0.3f / 256; ys[n] = 0.5f + j / 256.f + 0.3f / 256; n++;
        }
        fetch2<<<(n + 255) / 256, 256>>>(t, xs, ys, out, n); cudaDeviceSynchronize();
        for (int k = 0; k < n; k++) printf("B%d %d %d %.9g\n", p, (int)((xs[k] - 0.5f) * 256), (int)((ys[k] - 0.5f) * 256), out[k]);
    }
    // 2-D uchar normalised read: values 0..255 random-ish 2x2.
    {
        cudaChannelFormatDesc c = cudaCreateChannelDesc<unsigned char>();
        cudaArray_t a; cudaMallocArray(&a, &c, 2, 2);
        unsigned char h[4] = {17, 240, 99, 3};
        cudaMemcpy2DToArray(a, 0, 0, h, 2, 2, 2, cudaMemcpyHostToDevice);
        cudaTextureObject_t t = make(a, cudaReadModeNormalizedFloat);
        int n = 0;
        for (int i = 0; i <= 256; i += 8) for (int j = 0; j <= 256; j += 8) {
            xs[n] = 0.5f + i / 256.f; ys[n] = 0.5f + j / 256.f; n++;
        }
        fetch2<<<(n + 255) / 256, 256>>>(t, xs, ys, out, n); cudaDeviceSynchronize();
        for (int k = 0; k < n; k++) printf("C %d %d %.9g\n", (int)((xs[k] - 0.5f) * 256 + 0.5f), (int)((ys[k] - 0.5f) * 256 + 0.5f), out[k]);
    }
    // 2-D float, general values, for checking a model.
    {
        cudaChannelFormatDesc c = cudaCreateChannelDesc<float>();
        cudaArray_t a; cudaMallocArray(&a, &c, 2, 2);
        float h[4] = {0.3f, 7.25f, -2.5f, 100.125f};
        cudaMemcpy2DToArray(a, 0, 0, h, 8, 8, 2, cudaMemcpyHostToDevice);
        cudaTextureObject_t t = make(a, cudaReadModeElementType);
        int n = 0;
        for (int i = 0; i <= 256; i += 4) for (int j = 0; j <= 256; j += 4) {
            xs[n] = 0.5f + i / 256.f; ys[n] = 0.5f + j / 256.f; n++;
        }
        fetch2<<<(n + 255) / 256, 256>>>(t, xs, ys, out, n); cudaDeviceSynchronize();
        for (int k = 0; k < n; k++) printf("D %d %d %.9g\n", (int)((xs[k] - 0.5f) * 256 + 0.5f), (int)((ys[k] - 0.5f) * 256 + 0.5f), out[k]);
    }
    // 3-D float 2x2x2 with a single 1 at (1,1,1).
    {
        cudaChannelFormatDesc c = cudaCreateChannelDesc<float>();
        cudaArray_t a; cudaMalloc3DArray(&a, &c, make_cudaExtent(2, 2, 2));
        float h[8] = {0, 0, 0, 0, 0, 0, 0, 1};
        cudaMemcpy3DParms m = {}; m.srcPtr = make_cudaPitchedPtr(h, 8, 2, 2); m.dstArray = a;
        m.extent = make_cudaExtent(2, 2, 2); m.kind = cudaMemcpyHostToDevice; cudaMemcpy3D(&m);
        cudaTextureObject_t t = make(a, cudaReadModeElementType);
        int n = 0;
        for (int i = 0; i <= 256; i += 16) for (int j = 0; j <= 256; j += 16) for (int k = 0; k <= 256; k += 16) {
            xs[n] = 0.5f + i / 256.f; ys[n] = 0.5f + j / 256.f; zs[n] = 0.5f + k / 256.f; n++;
        }
        fetch3<<<(n + 255) / 256, 256>>>(t, xs, ys, zs, out, n); cudaDeviceSynchronize();
        for (int k = 0; k < n; k++) printf("E %d %d %d %.9g\n", (int)((xs[k] - 0.5f) * 256 + 0.5f), (int)((ys[k] - 0.5f) * 256 + 0.5f), (int)((zs[k] - 0.5f) * 256 + 0.5f), out[k]);
    }
    // 1-D half {0.3, 7.25}, {1, 2049}: is the filtered result rounded to half?
    {
        cudaChannelFormatDesc c = cudaCreateChannelDescHalf();
        cudaArray_t a; cudaMallocArray(&a, &c, 4, 0);
        __half h[4] = {__float2half(0.3f), __float2half(7.25f), __float2half(1.f), __float2half(2048.f)};
        cudaMemcpy2DToArray(a, 0, 0, h, 8, 8, 1, cudaMemcpyHostToDevice);
        cudaTextureObject_t t = make(a, cudaReadModeElementType);
        int n = 0; for (int i = 0; i <= 256; i++) { xs[n++] = 0.5f + i / 256.f; } for (int i = 0; i <= 256; i++) { xs[n++] = 2.5f + i / 256.f; }
        fetch1<<<(n + 255) / 256, 256>>>(t, xs, out, n); cudaDeviceSynchronize();
        for (int k = 0; k < n; k++) printf("F %d %.9g\n", k, out[k]);
    }
    printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
