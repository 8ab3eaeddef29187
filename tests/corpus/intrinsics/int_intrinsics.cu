/* Integer intrinsics of the CUDA Math API on random words, for GPU truth (issue 42 item 7).
 * Written for lattice's corpus, not copied.
 * @source lattice (tests/corpus/intrinsics)
 * @kernel int_intrinsics
 * @grid 2
 * @block 128
 * @arg in u32 256 rand 0 4294967296
 * @arg in u32 256 rand 0 4294967296
 * @arg in u32 256 rand 0 4294967296
 * @arg out u32 5632
 * @arg out u64 768
 * @arg val i32 256
 */
extern "C" __global__ void int_intrinsics(const unsigned *pa, const unsigned *pb, const unsigned *pc, unsigned *o,
                                          unsigned long long *o64, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned a = pa[i], b = pb[i], c = pc[i];
    int sa = (int)a, sb = (int)b;
    o[0 * n + i] = __byte_perm(a, b, c);
    o[1 * n + i] = __funnelshift_l(a, b, c);
    o[2 * n + i] = __funnelshift_r(a, b, c);
    o[3 * n + i] = __funnelshift_lc(a, b, c);
    o[4 * n + i] = __funnelshift_rc(a, b, c);
    o[5 * n + i] = __brev(a);
    o[6 * n + i] = (unsigned)__hadd(sa, sb);
    o[7 * n + i] = (unsigned)__rhadd(sa, sb);
    o[8 * n + i] = __uhadd(a, b);
    o[9 * n + i] = __urhadd(a, b);
    o[10 * n + i] = (unsigned)__mul24(sa, sb);
    o[11 * n + i] = __umul24(a, b);
    o[12 * n + i] = (unsigned)__mulhi(sa, sb);
    o[13 * n + i] = __umulhi(a, b);
    o[14 * n + i] = __sad(sa, sb, c);
    o[15 * n + i] = __usad(a, b, c);
    o[16 * n + i] = (unsigned)__dp4a(sa, sb, (int)c);
    o[17 * n + i] = __dp4a(a, b, c);
    o[18 * n + i] = (unsigned)__dp2a_lo(sa, sb, (int)c);
    o[19 * n + i] = (unsigned)__dp2a_hi(sa, sb, (int)c);
    o[20 * n + i] = __fns(a, b & 31u, (int)(c % 65u) - 32);
    o[21 * n + i] = (unsigned)__clz(sa) + 64u * (unsigned)__ffs(sb) + 4096u * (unsigned)__popc(a);
    o64[0 * n + i] = __brevll((unsigned long long)a << 32 | b);
    o64[1 * n + i] = (unsigned long long)__mul64hi((long long)a << 20, (long long)sb * 12345);
    o64[2 * n + i] = __umul64hi((unsigned long long)a << 32 | c, (unsigned long long)b * 0x9e3779b9ull);
}
