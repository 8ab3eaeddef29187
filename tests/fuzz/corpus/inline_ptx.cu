__device__ __forceinline__ unsigned lane_id() { unsigned r; asm volatile("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned lanemask_lt() { unsigned r; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r)); return r; }
__device__ __forceinline__ unsigned bfe(unsigned x, unsigned pos, unsigned len) { unsigned r; asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos), "r"(len)); return r; }
__device__ __forceinline__ int sbfe(int x, unsigned pos, unsigned len) { int r; asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(pos), "r"(len)); return r; }
__device__ __forceinline__ float ldg(const float *p) { float v; asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p)); return v; }
__device__ __forceinline__ unsigned prmt(unsigned a, unsigned b, unsigned s) { unsigned r; asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(s)); return r; }
__device__ __forceinline__ float shfl_down(float v, int d) { float r; asm volatile("shfl.sync.down.b32 %0, %1, %2, %3, %4;" : "=f"(r) : "f"(v), "r"(d), "r"(0x1f), "r"(0xffffffff)); return r; }
__global__ void k(const float *in, unsigned *o, float *f) {
    int i = threadIdx.x;
    unsigned x = 0x12345678u * (i + 1);
    o[i * 6 + 0] = lane_id();
    o[i * 6 + 1] = lanemask_lt();
    o[i * 6 + 2] = bfe(x, i % 24, 8);
    o[i * 6 + 3] = (unsigned)sbfe((int)x, i % 28, 5);
    o[i * 6 + 4] = prmt(x, ~x, 0x3210 + i);
    unsigned acc = 0; asm("add.u32 %0, %0, %1;" : "+r"(acc) : "r"(x)); asm("mul.hi.u32 %0, %1, %2;" : "=r"(o[i * 6 + 5]) : "r"(acc), "r"(x));
    float v = ldg(in + i);
    for (int d = 16; d > 0; d /= 2) v += shfl_down(v, d);
    f[i] = v;
    asm volatile("membar.gl;" ::: "memory");
    asm volatile("bar.sync 0;");
}
