/* Launches tests/profile/suite.cu's kernels on a GPU as suite.tsv says, for Nsight
 * Compute (ncu.sh): the CUDA driver API on a cubin nvcc made, nothing of lattice, so
 * that the counts are the GPU's alone. Usage: ncu_driver suite.cubin suite.tsv */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x)                                                                        \
    do {                                                                             \
        CUresult r_ = (x);                                                           \
        if (r_ != CUDA_SUCCESS) {                                                    \
            const char *s_ = "?";                                                    \
            cuGetErrorString(r_, &s_);                                               \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, s_);          \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

enum { ELEMS = 1 << 22 };

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s suite.cubin suite.tsv\n", argv[0]);
        return 2;
    }
    CK(cuInit(0));
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CK(cuDeviceGet(&dev, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    CK(cuModuleLoad(&mod, argv[1]));
    /* The input every run sees (test_profile.c makes the same). */
    float *host = (float *)malloc(ELEMS * sizeof *host);
    for (unsigned i = 0; i < ELEMS; i++)
        host[i] = (float)((i * 2654435761u) >> 8) / 16777216.0f;
    CUdeviceptr in, out;
    CK(cuMemAlloc(&in, ELEMS * sizeof(float)));
    CK(cuMemAlloc(&out, ELEMS * sizeof(float)));
    CK(cuMemcpyHtoD(in, host, ELEMS * sizeof(float)));
    FILE *f = fopen(argv[2], "r");
    if (!f) {
        perror(argv[2]);
        return 1;
    }
    char line[512];
    while (fgets(line, sizeof line, f)) {
        char name[128];
        unsigned gx, gy, bx, by;
        int n;
        if (line[0] == '#' || sscanf(line, "%127s %u %u %u %u %d", name, &gx, &gy, &bx, &by, &n) != 6)
            continue;
        CUfunction fn;
        CK(cuModuleGetFunction(&fn, mod, name));
        CK(cuMemsetD32(out, 0, ELEMS));
        void *args[] = {&out, &in, &n};
        CK(cuLaunchKernel(fn, gx, gy, 1, bx, by, 1, 0, 0, args, NULL));
        CK(cuCtxSynchronize());
        printf("%s ok\n", name);
    }
    fclose(f);
    free(host);
    cuDevicePrimaryCtxRelease(dev);
    return 0;
}
