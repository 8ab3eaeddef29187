/* The four workloads of bench_emu, written natively in C the way the emulator runs them
 * (a CUDA block per OpenMP iteration, its threads as loops): native.c, compiled twice, by
 * gcc -O2 -fopenmp and by gcc -O0 -fopenmp, with NATIVE(name) naming each copy. */
#ifndef LAT_BENCH_NATIVE_H
#define LAT_BENCH_NATIVE_H

#include <stddef.h>

#define NATIVE_DECLS(sfx)                                                                \
    void native_mul_##sfx(float *d, const float *a, const float *b, int n);              \
    void native_pi_##sfx(float *partial, int n);                                          \
    void native_matmul_##sfx(float *c, const float *a, const float *b, int n);           \
    void native_warpsum_##sfx(float *out, const float *a, int n);

NATIVE_DECLS(o2)
NATIVE_DECLS(o0)

#endif
