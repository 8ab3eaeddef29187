// Second probe: trilinear weights per corner (random fractions), half-result rounding ties.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
__global__ void fetch1(cudaTextureObject_t t, const float *xs, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1D<float>(t, xs[i]);
}
__global__ void fetch3(cudaTextureObject_t t, const float *xs, const float *ys, const float *zs, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex3D<float>(t, xs[i], ys[i], zs[i]);
}
static cudaTextureObject_t make(cudaArray_t a) {
    cudaResourceDesc r = {}; r.resType = cudaResourceTypeArray; r.res.array.array = a;
    cudaTextureDesc d = {}; d.addressMode[0] = d.addressMode[1] = d.addressMode[2] = cudaAddressModeClamp;
    d.filterMode = cudaFilterModeLinear; d.readMode = cudaReadModeElementType; d.normalizedCoords = 0;
    cudaTextureObject_t t; cudaCreateTextureObject(&t, &r, &d, NULL); return t;
}
int main() {
    const int N = 20000;
    float *xs, *ys, *zs, *out;
    cudaMallocManaged(&xs, N * 4); cudaMallocManaged(&ys, N * 4); cudaMallocManaged(&zs, N * 4); cudaMallocManaged(&out, N * 4);
    srand(7);
    int fi[N], fj[N], fk[N];
    for (int n = 0; n < N; n++) {
        fi[n] = rand() % 257; fj[n] = rand() % 257; fk[n] = rand() % 257;
        xs[n] = 0.5f + fi[n] / 256.f; ys[n] = 0.5f + fj[n] / 256.f; zs[n] = 0.5f + fk[n] / 256.f;
    }
    for (int c = 0; c < 8; c++) {
        cudaChannelFormatDesc ch = cudaCreateChannelDesc<float>();
        cudaArray_t a; cudaMalloc3DArray(&a, &ch, make_cudaExtent(2, 2, 2));
        float h[8] = {0}; h[c] = 1;
        cudaMemcpy3DParms m = {}; m.srcPtr = make_cudaPitchedPtr(h, 8, 2, 2); m.dstArray = a;
        m.extent = make_cudaExtent(2, 2, 2); m.kind = cudaMemcpyHostToDevice; cudaMemcpy3D(&m);
        cudaTextureObject_t t = make(a);
        fetch3<<<(N + 255) / 256, 256>>>(t, xs, ys, zs, out, N); cudaDeviceSynchronize();
        for (int n = 0; n < N; n++) printf("G %d %d %d %d %.9g\n", c, fi[n], fj[n], fk[n], out[n]);
    }
    const float pairs[5][2] = {{1024, 1025}, {1026, 1027}, {-1026, -1027}, {-1024, -1025}, {0.5f, 0.50048828125f}};
    for (int p = 0; p < 5; p++) {
        cudaChannelFormatDesc c = cudaCreateChannelDescHalf();
        cudaArray_t a; cudaMallocArray(&a, &c, 2, 0);
        __half h[2] = {__float2half(pairs[p][0]), __float2half(pairs[p][1])};
        cudaMemcpy2DToArray(a, 0, 0, h, 4, 4, 1, cudaMemcpyHostToDevice);
        cudaTextureObject_t t = make(a);
        for (int k = 0; k <= 256; k++) xs[k] = 0.5f + k / 256.f;
        fetch1<<<2, 256>>>(t, xs, out, 257); cudaDeviceSynchronize();
        for (int k = 0; k <= 256; k++) printf("H %d %d %.9g\n", p, k, out[k]);
    }
    printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
}
