/* ggml's get_rows: the dequantizer is a template argument of function pointer type
 * (dequantize_kernel_t), writing a dfloat2 through a reference.
 * After llama.cpp ggml/src/ggml-cuda/getrows.cu (k_get_rows) and convert.cu/dequantize.cuh
 * (convert_f32); the int64_t parameters written long long (NVRTC has no <cstdint>).
 * @source https://github.com/ggerganov/llama.cpp ggml/src/ggml-cuda/getrows.cu
 * @kernel k_get_rows<1, 1, convert_f32, float>
 * @grid 32,16,1
 * @block 4,1,1
 * @arg in f32 8192 rand -4 4
 * @arg in i32 16 mod 31 32
 * @arg out f32 4096
 * @arg val i64 256
 * @arg val i64 1
 * @arg val u64 256
 * @arg val u64 4096
 * @arg val u64 4096
 * @arg val u64 1024
 * @arg val u64 8192
 * @arg val u64 8192
 * @arg val u64 1
 * @arg val u64 16
 * @arg val u64 16
 */
typedef float dfloat;
typedef float2 dfloat2;

typedef void (*dequantize_kernel_t)(const void * vx, const long long ib, const int iqs, dfloat2 & v);

static __device__ __forceinline__ void convert_f32(const void * vx, const long long ib, const int iqs, dfloat2 & v){
    const float * x = (const float *) vx;

    // automatic half -> float type cast if dfloat == float
    v.x = x[ib + iqs + 0];
    v.y = x[ib + iqs + 1];
}

template<int qk, int qr, dequantize_kernel_t dequantize_kernel, typename dst_t>
static __global__ void k_get_rows(
        const void * __restrict__ src0, const int * __restrict__ src1, dst_t * __restrict__ dst,
        const long long ne00, /*const int64_t ne01, const int64_t ne02, const int64_t ne03,*/
        /*const int64_t ne10, const int64_t ne11,*/ const long long ne12, /*const int64_t ne13,*/
        /*const size_t s0,*/ const size_t s1, const size_t s2, const size_t s3,
        /*const size_t nb00,*/ const size_t nb01, const size_t nb02, const size_t nb03,
        const size_t s10, const size_t s11, const size_t s12/*, const size_t s13*/) {

    const int i00 = (blockIdx.x*blockDim.x + threadIdx.x)*2;
    const int i10 = blockDim.y*blockIdx.y + threadIdx.y;
    const int i11 = (blockIdx.z*blockDim.z + threadIdx.z)/ne12;
    const int i12 = (blockIdx.z*blockDim.z + threadIdx.z)%ne12;

    if (i00 >= ne00) {
        return;
    }

    const int i01 = src1[i10*s10 + i11*s11 + i12*s12];

    dst_t * dst_row = dst + i10*s1 + i11*s2 + i12*s3;
    const void * src0_row = (const char *)src0 + i01*nb01 + i11*nb02 + i12*nb03;

    const int ib = i00/qk; // block index
    const int iqs = (i00%qk)/qr; // quant index
    const int iybs = i00 - i00%qk; // dst block start index
    const int y_offset = qr == 1 ? 1 : qk/2;

    // dequantize
    dfloat2 v;
    dequantize_kernel(src0_row, ib, iqs, v);

    dst_row[iybs + iqs + 0] = v.x;
    dst_row[iybs + iqs + y_offset] = v.y;
}
