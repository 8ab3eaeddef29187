/* ggml's dequantization of q8_0 blocks (a struct of a half scale and 32 signed bytes) into
 * floats through dequantize_block<qk, qr, dequantize_kernel> (a function pointer template
 * argument again), half to float by assignment, dfloat2 by reference.
 * After llama.cpp ggml/src/ggml-cuda/dequantize.cuh (dequantize_q8_0) and convert.cu
 * (dequantize_block), ggml-common.h (block_q8_0); int64_t written long long.
 * @source https://github.com/ggerganov/llama.cpp ggml/src/ggml-cuda/convert.cu
 * @kernel dequantize_block<32, 1, dequantize_q8_0, float>
 * @grid 64
 * @block 32
 * @arg in u8 4352 rand 0 100
 * @arg out f32 4096
 * @arg val i64 4096
 */
#include <cuda_fp16.h>

#define QK8_0 32
#define QR8_0 1
typedef struct {
    half    d;              // delta
    signed char qs[QK8_0];  // quants
} block_q8_0;

typedef float dfloat;
typedef float2 dfloat2;

typedef void (*dequantize_kernel_t)(const void * vx, const long long ib, const int iqs, dfloat2 & v);

static __device__ __forceinline__ void dequantize_q8_0(const void * vx, const long long ib, const int iqs, dfloat2 & v){
    const block_q8_0 * x = (const block_q8_0 *) vx;

    const dfloat d = x[ib].d;

    v.x = x[ib].qs[iqs + 0];
    v.y = x[ib].qs[iqs + 1];

    v.x *= d;
    v.y *= d;
}

template <int qk, int qr, dequantize_kernel_t dequantize_kernel, typename dst_t>
static __global__ void dequantize_block(const void * __restrict__ vx, dst_t * __restrict__ y, const long long k) {
    const long long i = 2*((long long)blockDim.x*blockIdx.x + threadIdx.x);

    if (i >= k) {
        return;
    }

    const long long ib = i/qk; // block index
    const long long iqs = (i%qk)/qr; // quant index
    const long long iybs = i - i%qk; // y block start index
    const long long y_offset = qr == 1 ? 1 : qk/2;

    // dequantize
    dfloat2 v;
    dequantize_kernel(vx, ib, iqs, v);

    y[iybs + iqs + 0]        = v.x;
    y[iybs + iqs + y_offset] = v.y;
}
