/* The workloads of bench_emu as native C (native.h). SFX is o2 or o0, set by meson with
 * the matching optimisation level. Each is written as the CUDA kernel's grid: blocks of
 * 256 threads (16x16 for the matrix product), shared arrays as locals of the block. */
#include "native.h"

#define CAT_(a, b) a##_##b
#define CAT(a, b) CAT_(a, b)
#define NATIVE(name) CAT(name, SFX)

/* (a) dest[i] = a[i] * b[i], blocks of 256. */
void NATIVE(native_mul)(float *d, const float *a, const float *b, int n)
{
    int blocks = (n + 255) / 256;
#pragma omp parallel for schedule(dynamic, 64)
    for (int blk = 0; blk < blocks; blk++)
        for (int t = 0; t < 256; t++) {
            int i = blk * 256 + t;
            if (i < n)
                d[i] = a[i] * b[i];
        }
}

/* (b) pi: each thread maps its point to 4 / (1 + x^2) and the block sums them with a
 * shared-memory tree, one step per barrier. */
void NATIVE(native_pi)(float *partial, int n)
{
    int blocks = (n + 255) / 256;
#pragma omp parallel for schedule(dynamic, 16)
    for (int blk = 0; blk < blocks; blk++) {
        float s[256];
        for (int t = 0; t < 256; t++) {
            int i = blk * 256 + t;
            float x = (i + 0.5f) / n;
            s[t] = i < n ? 4.0f / (1.0f + x * x) : 0.0f;
        }
        for (int k = 128; k > 0; k >>= 1)
            for (int t = 0; t < k; t++)
                s[t] += s[t + k];
        partial[blk] = s[0] / n;
    }
}

/* (c) c = a * b, n x n, 16 x 16 tiles through shared memory. */
void NATIVE(native_matmul)(float *c, const float *a, const float *b, int n)
{
    int tiles = n / 16;
#pragma omp parallel for schedule(dynamic, 4)
    for (int blk = 0; blk < tiles * tiles; blk++) {
        int by = blk / tiles, bx = blk % tiles;
        float as[16][16], bs[16][16], sum[16][16];
        for (int ty = 0; ty < 16; ty++)
            for (int tx = 0; tx < 16; tx++)
                sum[ty][tx] = 0.0f;
        for (int t = 0; t < tiles; t++) {
            for (int ty = 0; ty < 16; ty++)
                for (int tx = 0; tx < 16; tx++) {
                    as[ty][tx] = a[(by * 16 + ty) * n + t * 16 + tx];
                    bs[ty][tx] = b[(t * 16 + ty) * n + bx * 16 + tx];
                }
            for (int ty = 0; ty < 16; ty++)
                for (int tx = 0; tx < 16; tx++)
                    for (int k = 0; k < 16; k++)
                        sum[ty][tx] += as[ty][k] * bs[k][tx];
        }
        for (int ty = 0; ty < 16; ty++)
            for (int tx = 0; tx < 16; tx++)
                c[(by * 16 + ty) * n + bx * 16 + tx] = sum[ty][tx];
    }
}

/* (d) each warp of 32 sums its values with shuffles down by 16, 8, 4, 2, 1 (a lane whose
 * source is past the warp adds its own value, as __shfl_down_sync returns it). */
void NATIVE(native_warpsum)(float *out, const float *a, int n)
{
    int blocks = (n + 255) / 256;
#pragma omp parallel for schedule(dynamic, 16)
    for (int blk = 0; blk < blocks; blk++)
        for (int w = 0; w < 8; w++) {
            float v[32];
            for (int l = 0; l < 32; l++) {
                int i = blk * 256 + w * 32 + l;
                v[l] = i < n ? a[i] : 0.0f;
            }
            for (int o = 16; o > 0; o >>= 1)
                for (int l = 0; l < 32; l++)
                    v[l] += l + o < 32 ? v[l + o] : v[l];
            out[blk * 8 + w] = v[0];
        }
}
