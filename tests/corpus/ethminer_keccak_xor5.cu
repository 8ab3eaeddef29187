/* ethminer's keccak xor5 (libethash-cuda/keccak.cuh), the lop3 branch, verbatim: four
 * lop3.b32 0x96 (three-way xor) after a PTX comment. DEV_INLINE is cuda_helper.h's; the
 * kernel calling it is written here.
 * @source https://github.com/ethereum-mining/ethminer libethash-cuda/keccak.cuh (a version later than 0134550a3df0d28276c399e782439817f7806bb1, which has no asm; the code index gave this one without its commit)
 * @kernel xor5_kernel
 * @grid 2
 * @block 64
 * @arg in u32 1280 rand 0 4294967296
 * @arg out u32 256
 */
#define DEV_INLINE __device__ __forceinline__

DEV_INLINE uint2 xor5(
    const uint2 a, const uint2 b, const uint2 c, const uint2 d, const uint2 e)
{
    uint2 result;
    asm volatile (
        "// xor5\n\t"
        "lop3.b32 %0, %2, %3, %4, 0x96;\n\t"
        "lop3.b32 %0, %0, %5, %6, 0x96;\n\t"
        "lop3.b32 %1, %7, %8, %9, 0x96;\n\t"
        "lop3.b32 %1, %1, %10, %11, 0x96;"
        : "=r"(result.x), "=r"(result.y)
        : "r"(a.x), "r"(b.x), "r"(c.x),"r"(d.x),"r"(e.x),
          "r"(a.y), "r"(b.y), "r"(c.y),"r"(d.y),"r"(e.y));
    return result;
}

__global__ void xor5_kernel(const uint2 *in, uint2 *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = xor5(in[5 * i], in[5 * i + 1], in[5 * i + 2], in[5 * i + 3], in[5 * i + 4]);
}
