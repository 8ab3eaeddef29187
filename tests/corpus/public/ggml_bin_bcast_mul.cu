/* ggml's broadcasting binary operation: the operation is a template argument of function
 * pointer type (float (*bin_op)(const float, const float)), with three element types.
 * After llama.cpp ggml/src/ggml-cuda/binbcast.cu (k_bin_bcast, op_mul), int64_t written
 * int.
 * @source https://github.com/ggerganov/llama.cpp ggml/src/ggml-cuda/binbcast.cu
 * @kernel k_bin_bcast<op_mul, float, float, float>
 * @grid 2,8,3
 * @block 64,1,1
 * @arg in f32 3072 rand -2 2
 * @arg in f32 128 rand -2 2
 * @arg out f32 3072
 * @arg val i32 128
 * @arg val i32 8
 * @arg val i32 3
 * @arg val i32 1
 * @arg val i32 128
 * @arg val i32 1
 * @arg val i32 1
 * @arg val i32 1
 * @arg val i32 128
 * @arg val i32 1024
 * @arg val i32 3072
 * @arg val i32 0
 * @arg val i32 0
 * @arg val i32 0
 */
static __device__ __forceinline__ float op_repeat(const float a, const float b) {
    return b;
    (void) a;
}

static __device__ __forceinline__ float op_add(const float a, const float b) {
    return a + b;
}

static __device__ __forceinline__ float op_mul(const float a, const float b) {
    return a * b;
}

template<float (*bin_op)(const float, const float), typename src0_t, typename src1_t, typename dst_t>
static __global__ void k_bin_bcast(const src0_t * src0, const src1_t * src1, dst_t * dst,
        int ne0, int ne1, int ne2, int ne3,
        int ne10, int ne11, int ne12, int ne13,
        /*int s0, */ int s1,  int s2,  int s3,
        /*int s10,*/ int s11, int s12, int s13) {
    const int i0s = blockDim.x*blockIdx.x + threadIdx.x;
    const int i1 = (blockDim.y*blockIdx.y + threadIdx.y);
    const int i2 = (blockDim.z*blockIdx.z + threadIdx.z) / ne3;
    const int i3 = (blockDim.z*blockIdx.z + threadIdx.z) % ne3;

    if (i0s >= ne0 || i1 >= ne1 || i2 >= ne2 || i3 >= ne3) {
        return;
    }

    const int i11 = i1 % ne11;
    const int i12 = i2 % ne12;
    const int i13 = i3 % ne13;

    const size_t i_src0 =  i3*s3 +  i2*s2 +  i1*s1;
    const size_t i_src1 = i13*s13 + i12*s12 + i11*s11;
    const size_t i_dst  = i_src0;

    const src0_t * src0_row = src0 + i_src0;
    const src1_t * src1_row = src1 + i_src1;
    dst_t * dst_row = dst + i_dst;

    for (int i0 = i0s; i0 < ne0; i0 += blockDim.x*gridDim.x) {
        const int i10 = i0 % ne10;
        dst_row[i0] = (dst_t)bin_op(src0 ? (float)src0_row[i0] : 0.0f, (float)src1_row[i10]);
    }
}
