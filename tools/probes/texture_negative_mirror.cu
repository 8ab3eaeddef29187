// Third probe: linear filtering weights for negative texel coordinates, mirror and wrap.
#include <cstdio>
#include <cuda_runtime.h>
__global__ void fetch1(cudaTextureObject_t t, const float *xs, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1D<float>(t, xs[i]);
}
static cudaTextureObject_t make(cudaArray_t a, cudaTextureAddressMode m, int norm, float border) {
    cudaResourceDesc r = {}; r.resType = cudaResourceTypeArray; r.res.array.array = a;
    cudaTextureDesc d = {}; d.addressMode[0] = m; d.borderColor[0] = border;
    d.filterMode = cudaFilterModeLinear; d.readMode = cudaReadModeElementType; d.normalizedCoords = norm;
    cudaTextureObject_t t; cudaCreateTextureObject(&t, &r, &d, NULL); return t;
}
int main() {
    const int N = 1 << 17;
    float *xs, *out; cudaMallocManaged(&xs, N * 4); cudaMallocManaged(&out, N * 4);
    cudaChannelFormatDesc c = cudaCreateChannelDesc<float>();
    cudaArray_t a; cudaMallocArray(&a, &c, 8, 0);
    float h[8]; for (int i = 0; i < 8; i++) h[i] = 256.f * i;
    cudaMemcpy2DToArray(a, 0, 0, h, 32, 32, 1, cudaMemcpyHostToDevice);
    struct { const char *tag; cudaTextureAddressMode m; int norm; float lo, step; int n; } runs[] = {
        {"P1", cudaAddressModeBorder, 0, -0.5f, 1.f / 8192, 16385},
        {"P2", cudaAddressModeMirror, 1, -0.5f, 1.f / 65536, 65537},
        {"P3", cudaAddressModeWrap, 1, -0.5f, 1.f / 65536, 65537},
        {"P4", cudaAddressModeClamp, 0, 3.0f, 1.f / 8192, 16385},
    };
    for (auto &r : runs) {
        cudaTextureObject_t t = make(a, r.m, r.norm, 1000.f);
        for (int i = 0; i < r.n; i++) xs[i] = r.lo + i * r.step;
        fetch1<<<(r.n + 255) / 256, 256>>>(t, xs, out, r.n); cudaDeviceSynchronize();
        for (int i = 0; i < r.n; i++) printf("%s %.9g %.9g\n", r.tag, xs[i], out[i]);
    }
    printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
}
