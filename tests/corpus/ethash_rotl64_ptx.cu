/* cpp-ethereum's ethash CUDA rotate: ROTL64 (USE_ROT_ASM_OPT 3), verbatim: inline PTX with
 * its own registers and predicate, a 64-bit value split and made with mov.b64 vectors,
 * shf.l.wrap funnel shifts, setp and @p / @!p. The kernel calling it is written here.
 * @source https://github.com/tpruvot/cpp-ethereum 47386ebb359ebdee8ce171e3e8b848865d2b9f86 libethash-cu/rotl64.cuh
 * @kernel rotl64_kernel
 * @grid 2
 * @block 128
 * @arg in u64 256 rand 0 9223372036854774784
 * @arg in i32 256 rand 1 64
 * @arg out u64 256
 */
#include <stdint.h>

__device__
uint64_t ROTL64(const uint64_t x, const int offset)
{
	uint64_t res;
	asm("{\n\t"
		".reg .u32 tl,th,vl,vh;\n\t"
		".reg .pred p;\n\t"
		"mov.b64 {tl,th}, %1;\n\t"
		"shf.l.wrap.b32 vl, tl, th, %2;\n\t"
		"shf.l.wrap.b32 vh, th, tl, %2;\n\t"
		"setp.lt.u32 p, %2, 32;\n\t"
		"@!p mov.b64 %0, {vl,vh};\n\t"
		"@p  mov.b64 %0, {vh,vl};\n\t"
		"}"
		: "=l"(res) : "l"(x), "r"(offset)
		);
	return res;
}

__global__ void rotl64_kernel(const uint64_t *x, const int *n, uint64_t *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = ROTL64(x[i], n[i]);
}
