/* Atomics, atomic across the blocks that run at once (on the emulator: on different
 * OpenMP threads): every function CUDA has for int, unsigned, unsigned long long, float
 * and double, with results that do not depend on the order the threads came in. */
#include "harness.h"

#include <string.h>

enum { B = 64, T = 128, N = B * T };

static unsigned blocks(void)
{
    return B;
}

TEST(add_sub_and_the_bitwise_operations_on_integers)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void ints(int *i, unsigned *u, unsigned long long *ull)\n"
        "{\n"
        "    int g = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    atomicAdd(&i[0], g);\n"
        "    atomicSub(&i[1], g);\n"
        "    atomicAdd(&u[0], 3u);\n"
        "    atomicSub(&u[1], 1u);\n"
        "    atomicAdd(&ull[0], 1ULL << 33);\n"
        "    atomicOr(&u[2], 1u << (g % 32));\n"
        "    atomicAnd(&u[3], ~(1u << (g % 31)));\n"
        "    atomicXor(&i[2], g);\n"
        "    atomicOr(&ull[1], 1ULL << (g % 64));\n"
        "    atomicAnd(&ull[2], ~(1ULL << (g % 63)));\n"
        "    atomicXor(&ull[3], (unsigned long long)g << 20);\n"
        "    atomicAdd_block(&i[3], 1);\n"
        "    atomicAdd_system(&i[4], 2);\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "ints");
    int i[5] = {0, 0, 0, 0, 0};
    unsigned u[4] = {0, 0, 0, 0xffffffffu};
    unsigned long long ull[4] = {0, 0, ~0ULL, 0};
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {blocks()}, .block = {T}},
                              LAT_ARGS(lat_arg_inout(i, sizeof i), lat_arg_inout(u, sizeof u),
                                       lat_arg_inout(ull, sizeof ull))));
    long long sum = (long long)N * (N - 1) / 2;
    int x = 0;
    unsigned long long xl = 0;
    for (int g = 0; g < N; g++) {
        x ^= g;
        xl ^= (unsigned long long)g << 20;
    }
    ASSERT_EQ(i[0], (int)sum);
    ASSERT_EQ(i[1], (int)-sum);
    ASSERT_EQ(i[2], x);
    ASSERT_EQ(i[3], N);
    ASSERT_EQ(i[4], 2 * N);
    ASSERT_U64_EQ(u[0], 3u * N);
    ASSERT_U64_EQ(u[1], (unsigned)-N);
    ASSERT_U64_EQ(u[2], 0xffffffffu);
    ASSERT_U64_EQ(u[3], 0x80000000u);
    ASSERT_U64_EQ(ull[0], (unsigned long long)N << 33);
    ASSERT_U64_EQ(ull[1], ~0ULL);
    ASSERT_U64_EQ(ull[2], 1ULL << 63);
    ASSERT_U64_EQ(ull[3], xl);
}

TEST(min_max_and_floating_point_adds)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__global__ void mm(const int *v, int *i, unsigned *u, unsigned long long *l,\n"
        "                   float *f, double *d)\n"
        "{\n"
        "    int g = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    atomicMin(&i[0], v[g]);\n"
        "    atomicMax(&i[1], v[g]);\n"
        "    atomicMin(&u[0], (unsigned)v[g]);\n"
        "    atomicMax(&u[1], (unsigned)v[g]);\n"
        "    atomicMin(&l[0], (unsigned long long)(v[g] + 2000000000LL));\n"
        "    atomicMax(&l[1], (unsigned long long)(v[g] + 2000000000LL));\n"
        "    atomicAdd(&f[0], 0.5f);\n"
        "    atomicAdd(&d[0], (double)v[g]);\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "mm");
    int *v = t_calloc(N, sizeof *v);
    for (int g = 0; g < N; g++)
        v[g] = (int)(t_rand_u32() % 2000001) - 1000000;
    int i[2] = {0x7fffffff, (int)0x80000000};
    unsigned u[2] = {0xffffffffu, 0};
    unsigned long long l[2] = {~0ULL, 0};
    float f = 0;
    double d = 0;
    ASSERT_OK(lat_launch_args(
        k, &(lat_launch_desc){.grid = {blocks()}, .block = {T}},
        LAT_ARGS(lat_arg_in(v, N * sizeof *v), lat_arg_inout(i, sizeof i),
                 lat_arg_inout(u, sizeof u), lat_arg_inout(l, sizeof l),
                 lat_arg_inout(&f, sizeof f), lat_arg_inout(&d, sizeof d))));
    int mn = v[0], mx = v[0];
    unsigned umn = (unsigned)v[0], umx = (unsigned)v[0];
    double sum = 0;
    for (int g = 0; g < N; g++) {
        mn = v[g] < mn ? v[g] : mn;
        mx = v[g] > mx ? v[g] : mx;
        umn = (unsigned)v[g] < umn ? (unsigned)v[g] : umn;
        umx = (unsigned)v[g] > umx ? (unsigned)v[g] : umx;
        sum += v[g]; /* integers below 2^53: exact in any order */
    }
    ASSERT_EQ(i[0], mn);
    ASSERT_EQ(i[1], mx);
    ASSERT_U64_EQ(u[0], umn);
    ASSERT_U64_EQ(u[1], umx);
    ASSERT_U64_EQ(l[0], (unsigned long long)(mn + 2000000000LL));
    ASSERT_U64_EQ(l[1], (unsigned long long)(mx + 2000000000LL));
    ASSERT_TRUE(f == 0.5f * N);
    ASSERT_TRUE(d == sum);
}

TEST(the_old_values_returned_are_each_seen_once)
{
    /* atomicAdd, atomicInc and atomicExch hand each thread a distinct old value: as
     * indices, they mark every slot exactly once, whatever the order. */
    lat_context *ctx = t_context();
    if (lat_context_backend(ctx) == LAT_BACKEND_CROSS)
        SKIP("which thread got which old value depends on the order they ran in: "
             "cross-checking would compare two orders");
    static const char src[] =
        "__global__ void tickets(int *next, unsigned *wrap, int *exch,\n"
        "                        int *seen, unsigned *wseen, int *xseen)\n"
        "{\n"
        "    int mine = atomicAdd(next, 1);\n"
        "    atomicAdd(&seen[mine], 1);\n"
        "    unsigned w = atomicInc(wrap, 99u);\n"
        "    atomicAdd(&wseen[w], 1u);\n"
        "    int g = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "    int old = atomicExch(exch, g + 1);\n"
        "    atomicAdd(&xseen[old], 1);\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "tickets");
    int next = 0, exch = 0;
    unsigned wrap = 0;
    int *seen = t_calloc(N, sizeof *seen), *xseen = t_calloc(N + 1, sizeof *xseen);
    unsigned wseen[100] = {0};
    ASSERT_OK(lat_launch_args(
        k, &(lat_launch_desc){.grid = {blocks()}, .block = {T}},
        LAT_ARGS(lat_arg_inout(&next, sizeof next), lat_arg_inout(&wrap, sizeof wrap),
                 lat_arg_inout(&exch, sizeof exch),
                 lat_arg_inout(seen, N * sizeof *seen), lat_arg_inout(wseen, sizeof wseen),
                 lat_arg_inout(xseen, (N + 1) * sizeof *xseen))));
    ASSERT_EQ(next, N);
    for (int j = 0; j < N; j++)
        ASSERT_MSG(seen[j] == 1, "ticket %d handed out %d times", j, seen[j]);
    ASSERT_U64_EQ(wrap, N % 100);
    for (int j = 0; j < 100; j++)
        ASSERT_U64_EQ(wseen[j], (unsigned)(N / 100 + (j < N % 100)));
    /* Every value but the last stored was read once; the initial 0 too. */
    int total = 0;
    for (int j = 0; j <= N; j++) {
        ASSERT_MSG(xseen[j] <= 1, "value %d read %d times", j, xseen[j]);
        total += xseen[j];
    }
    ASSERT_EQ(total, N);
    ASSERT_EQ(xseen[0], 1);
    ASSERT_EQ(xseen[exch], 0);
}

TEST(cas_builds_every_other_atomic)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "__device__ float cas_mul(float *p, float f)\n"
        "{\n"
        "    int *q = (int *)p, old = *q, seen;\n"
        "    do {\n"
        "        seen = old;\n"
        "        old = atomicCAS(q, seen, __float_as_int(__int_as_float(seen) * f));\n"
        "    } while (old != seen);\n"
        "    return __int_as_float(old);\n"
        "}\n"
        "__global__ void cas(float *p, unsigned long long *c, unsigned *dec)\n"
        "{\n"
        "    if (threadIdx.x % 32 == 0) cas_mul(p, 2.0f);\n"
        "    unsigned long long o = *c, s;\n"
        "    do { s = o; o = atomicCAS(c, s, s + 3); } while (o != s);\n"
        "    atomicDec(dec, 1000u);\n"
        "    __threadfence();\n"
        "    __threadfence_block();\n"
        "    __threadfence_system();\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "cas");
    float p = 1.0f;
    unsigned long long c = 5;
    unsigned dec = 10;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {8}, .block = {T}},
                              LAT_ARGS(lat_arg_inout(&p, sizeof p), lat_arg_inout(&c, sizeof c),
                                       lat_arg_inout(&dec, sizeof dec))));
    ASSERT_TRUE(p == 4294967296.0f); /* 2^(8 * 128 / 32) */
    ASSERT_U64_EQ(c, 5 + 3ULL * 8 * T);
    /* 10 down to 0, then wraps to 1000 and goes on: 1024 decrements in all. */
    ASSERT_U64_EQ(dec, 1000u - (8 * T - 11) % 1001);
}
