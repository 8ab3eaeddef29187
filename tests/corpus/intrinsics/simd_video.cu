/* The SIMD video intrinsics of the CUDA Math API (sm_*_intrinsics.h), every one, on
 * random words with lanes at their edges, for GPU truth (issue 42 item 7). Written for
 * lattice's corpus, not copied.
 * @source lattice (tests/corpus/intrinsics)
 * @kernel simd_video
 * @grid 2
 * @block 128
 * @arg in u32 256 rand 0 4294967296
 * @arg in u32 256 rand 0 4294967296
 * @arg out u32 20992
 * @arg val i32 256
 */
extern "C" __global__ void simd_video(const unsigned *pa, const unsigned *pb, unsigned *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned a = pa[i], b = pb[i];
    /* edges: 0x80 and 0x8000 lanes, equal lanes */
    if (i % 8 == 1) a = 0x80008000u;
    if (i % 8 == 2) b = a;
    if (i % 8 == 3) { a = 0x7fff7f7fu; b = 0x80018081u; }
    if (i % 8 == 4) { a = 0xffffffffu; b = 0x00010001u; }
    o[0 * n + i] = __vabs2(a);
    o[1 * n + i] = __vabs4(a);
    o[2 * n + i] = __vabsss2(a);
    o[3 * n + i] = __vabsss4(a);
    o[4 * n + i] = __vneg2(a);
    o[5 * n + i] = __vneg4(a);
    o[6 * n + i] = __vnegss2(a);
    o[7 * n + i] = __vnegss4(a);
    o[8 * n + i] = __vabsdiffs2(a, b);
    o[9 * n + i] = __vabsdiffs4(a, b);
    o[10 * n + i] = __vabsdiffu2(a, b);
    o[11 * n + i] = __vabsdiffu4(a, b);
    o[12 * n + i] = __vadd2(a, b);
    o[13 * n + i] = __vadd4(a, b);
    o[14 * n + i] = __vaddss2(a, b);
    o[15 * n + i] = __vaddss4(a, b);
    o[16 * n + i] = __vaddus2(a, b);
    o[17 * n + i] = __vaddus4(a, b);
    o[18 * n + i] = __vavgs2(a, b);
    o[19 * n + i] = __vavgs4(a, b);
    o[20 * n + i] = __vavgu2(a, b);
    o[21 * n + i] = __vavgu4(a, b);
    o[22 * n + i] = __vcmpeq2(a, b);
    o[23 * n + i] = __vcmpeq4(a, b);
    o[24 * n + i] = __vcmpges2(a, b);
    o[25 * n + i] = __vcmpges4(a, b);
    o[26 * n + i] = __vcmpgeu2(a, b);
    o[27 * n + i] = __vcmpgeu4(a, b);
    o[28 * n + i] = __vcmpgts2(a, b);
    o[29 * n + i] = __vcmpgts4(a, b);
    o[30 * n + i] = __vcmpgtu2(a, b);
    o[31 * n + i] = __vcmpgtu4(a, b);
    o[32 * n + i] = __vcmples2(a, b);
    o[33 * n + i] = __vcmples4(a, b);
    o[34 * n + i] = __vcmpleu2(a, b);
    o[35 * n + i] = __vcmpleu4(a, b);
    o[36 * n + i] = __vcmplts2(a, b);
    o[37 * n + i] = __vcmplts4(a, b);
    o[38 * n + i] = __vcmpltu2(a, b);
    o[39 * n + i] = __vcmpltu4(a, b);
    o[40 * n + i] = __vcmpne2(a, b);
    o[41 * n + i] = __vcmpne4(a, b);
    o[42 * n + i] = __vhaddu2(a, b);
    o[43 * n + i] = __vhaddu4(a, b);
    o[44 * n + i] = __vmaxs2(a, b);
    o[45 * n + i] = __vmaxs4(a, b);
    o[46 * n + i] = __vmaxu2(a, b);
    o[47 * n + i] = __vmaxu4(a, b);
    o[48 * n + i] = __vmins2(a, b);
    o[49 * n + i] = __vmins4(a, b);
    o[50 * n + i] = __vminu2(a, b);
    o[51 * n + i] = __vminu4(a, b);
    o[52 * n + i] = __vsads2(a, b);
    o[53 * n + i] = __vsads4(a, b);
    o[54 * n + i] = __vsadu2(a, b);
    o[55 * n + i] = __vsadu4(a, b);
    o[56 * n + i] = __vseteq2(a, b);
    o[57 * n + i] = __vseteq4(a, b);
    o[58 * n + i] = __vsetges2(a, b);
    o[59 * n + i] = __vsetges4(a, b);
    o[60 * n + i] = __vsetgeu2(a, b);
    o[61 * n + i] = __vsetgeu4(a, b);
    o[62 * n + i] = __vsetgts2(a, b);
    o[63 * n + i] = __vsetgts4(a, b);
    o[64 * n + i] = __vsetgtu2(a, b);
    o[65 * n + i] = __vsetgtu4(a, b);
    o[66 * n + i] = __vsetles2(a, b);
    o[67 * n + i] = __vsetles4(a, b);
    o[68 * n + i] = __vsetleu2(a, b);
    o[69 * n + i] = __vsetleu4(a, b);
    o[70 * n + i] = __vsetlts2(a, b);
    o[71 * n + i] = __vsetlts4(a, b);
    o[72 * n + i] = __vsetltu2(a, b);
    o[73 * n + i] = __vsetltu4(a, b);
    o[74 * n + i] = __vsetne2(a, b);
    o[75 * n + i] = __vsetne4(a, b);
    o[76 * n + i] = __vsub2(a, b);
    o[77 * n + i] = __vsub4(a, b);
    o[78 * n + i] = __vsubss2(a, b);
    o[79 * n + i] = __vsubss4(a, b);
    o[80 * n + i] = __vsubus2(a, b);
    o[81 * n + i] = __vsubus4(a, b);
}
