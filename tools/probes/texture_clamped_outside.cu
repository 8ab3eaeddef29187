// Fourth probe: trilinear weights when a clamped coordinate lies outside the texture.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
__global__ void fetch3(cudaTextureObject_t t, const float *p, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex3D<float>(t, p[3 * i], p[3 * i + 1], p[3 * i + 2]);
}
int main() {
    const int N = 6000;
    float *p, *out; cudaMallocManaged(&p, N * 12); cudaMallocManaged(&out, N * 4);
    srand(11);
    const float outside[] = {-0.3f, -0.01f, -5.f, 2.3f, 2.01f, 2.7f, 10.f, 0.2f, 1.8f};
    for (int n = 0; n < N; n++) {
        int d = n % 3;
        for (int k = 0; k < 3; k++) p[3 * n + k] = 0.5f + (rand() % 257) / 256.f;
        p[3 * n + d] = outside[(n / 3) % 9];
    }
    for (int c = 0; c < 8; c++) {
        cudaChannelFormatDesc ch = cudaCreateChannelDesc<float>();
        cudaArray_t a; cudaMalloc3DArray(&a, &ch, make_cudaExtent(2, 2, 2));
        float h[8] = {0}; h[c] = 1;
        cudaMemcpy3DParms m = {}; m.srcPtr = make_cudaPitchedPtr(h, 8, 2, 2); m.dstArray = a;
        m.extent = make_cudaExtent(2, 2, 2); m.kind = cudaMemcpyHostToDevice; cudaMemcpy3D(&m);
        for (int mode = 0; mode < 2; mode++) {
            cudaResourceDesc r = {}; r.resType = cudaResourceTypeArray; r.res.array.array = a;
            cudaTextureDesc d = {};
            d.addressMode[0] = d.addressMode[1] = d.addressMode[2] = mode ? cudaAddressModeBorder : cudaAddressModeClamp;
            d.filterMode = cudaFilterModeLinear; d.readMode = cudaReadModeElementType;
            cudaTextureObject_t t; cudaCreateTextureObject(&t, &r, &d, NULL);
            fetch3<<<(N + 255) / 256, 256>>>(t, p, out, N); cudaDeviceSynchronize();
            for (int n = 0; n < N; n++)
                printf("Q %d %d %a %a %a %.9g\n", mode, c, p[3 * n], p[3 * n + 1], p[3 * n + 2], out[n]);
        }
    }
    printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
}
