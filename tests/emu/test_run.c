/* Kernels running on the emulator: indices in three dimensions, device functions,
 * per-thread parameters, early returns, printf, traps, the sizes it reports. */
#include "harness.h"

#include "core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static lat_context *emu_context(void)
{
    return t_context_with(&(lat_context_desc){.backend = LAT_BACKEND_EMU});
}

static lat_kernel *kernel(lat_context *ctx, const char *src, const char *name)
{
    lat_module *mod = NULL;
    lat_status st = lat_module_create(ctx, &(lat_module_desc){.source = src}, &mod);
    ASSERT_MSG(st == LAT_OK, "%s: %s", lat_status_name(st), lat_last_error());
    lat_kernel *k = NULL;
    ASSERT_OK(lat_module_get_kernel(mod, name, &k));
    return k;
}

TEST(doublify_from_the_pycuda_tutorial)
{
    lat_context *ctx = emu_context();
    lat_kernel *k = kernel(ctx,
                           "__global__ void doublify(float *a)\n"
                           "{\n"
                           "  int idx = threadIdx.x + threadIdx.y*4;\n"
                           "  a[idx] *= 2;\n"
                           "}\n",
                           "doublify");
    float a[16], want[16];
    t_rand_floats(a, 16, -1.0f, 1.0f);
    for (int i = 0; i < 16; i++)
        want[i] = 2 * a[i];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {4, 4}},
                              LAT_ARGS(lat_arg_inout(a, sizeof a))));
    for (int i = 0; i < 16; i++)
        ASSERT_MSG(a[i] == want[i], "a[%d] = %g, want %g", i, a[i], want[i]);
}

TEST(every_thread_of_a_3d_grid_of_3d_blocks_runs_once)
{
    lat_context *ctx = emu_context();
    lat_kernel *k = kernel(ctx,
                           "__global__ void ids(unsigned *out)\n"
                           "{\n"
                           "    unsigned bx = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);\n"
                           "    unsigned tx = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);\n"
                           "    unsigned n = blockDim.x * blockDim.y * blockDim.z;\n"
                           "    out[bx * n + tx] += bx * 1000 + tx + 1;\n"
                           "}\n",
                           "ids");
    enum { GX = 3, GY = 2, GZ = 4, BX = 5, BY = 3, BZ = 2, N = GX * GY * GZ * BX * BY * BZ };
    unsigned *out = t_calloc(N, sizeof *out);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {GX, GY, GZ}, .block = {BX, BY, BZ}},
                              LAT_ARGS(lat_arg_inout(out, N * sizeof *out))));
    for (unsigned i = 0; i < N; i++) {
        unsigned b = i / (BX * BY * BZ), t = i % (BX * BY * BZ);
        ASSERT_MSG(out[i] == b * 1000 + t + 1, "out[%u] = %u", i, out[i]);
    }
}

TEST(each_thread_starts_from_the_launch_arguments)
{
    /* The kernel changes its parameters; the next thread must not see that. */
    lat_context *ctx = emu_context();
    lat_kernel *k = kernel(ctx,
                           "__global__ void k(int *out, int n, float scale)\n"
                           "{\n"
                           "    out += threadIdx.x;\n"
                           "    n += threadIdx.x;\n"
                           "    scale *= 2;\n"
                           "    *out = n + (int)scale;\n"
                           "}\n",
                           "k");
    int out[64];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {64}},
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_i32(100),
                                       lat_arg_f32(1.5f))));
    for (int i = 0; i < 64; i++)
        ASSERT_EQ(out[i], 100 + i + 3);
}

TEST(return_ends_the_thread_not_the_block_also_from_a_macro)
{
    lat_context *ctx = emu_context();
    lat_kernel *k = kernel(ctx,
                           "#define GUARD(i, n) if ((i) >= (n)) return\n"
                           "__device__ int twice(int x) { if (x < 0) return 0; return 2 * x; }\n"
                           "__global__ void k(int *out, int n)\n"
                           "{\n"
                           "    int i = threadIdx.x;\n"
                           "    if (i % 3 == 0) { out[i] = -1; return; }\n"
                           "    GUARD(i, n);\n"
                           "    out[i] = twice(i);\n"
                           "}\n",
                           "k");
    int out[32];
    memset(out, 0x7f, sizeof out);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {32}},
                              LAT_ARGS(lat_arg_inout(out, sizeof out), lat_arg_i32(20))));
    for (int i = 0; i < 32; i++) {
        int want = i % 3 == 0 ? -1 : i >= 20 ? 0x7f7f7f7f : 2 * i;
        ASSERT_MSG(out[i] == want, "out[%d] = %d, want %d", i, out[i], want);
    }
}

TEST(device_functions_call_each_other_and_see_the_indices)
{
    lat_context *ctx = emu_context();
    lat_kernel *k = kernel(ctx,
                           "__device__ unsigned lane(void) { return threadIdx.x % 32; }\n"
                           "__device__ __forceinline__ unsigned gid() { return blockIdx.x * blockDim.x + threadIdx.x; }\n"
                           "__host__ __device__ unsigned both(unsigned v) { return v + lane(); }\n"
                           "extern \"C\" __global__ void __launch_bounds__(128) k(unsigned *__restrict__ out)\n"
                           "{\n"
                           "    out[gid()] = both(gid() * 100);\n"
                           "}\n",
                           "k");
    enum { N = 4 * 128 };
    unsigned *out = t_calloc(N, sizeof *out);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {4}, .block = {128}},
                              LAT_ARGS(lat_arg_out(out, N * sizeof *out))));
    for (unsigned i = 0; i < N; i++)
        ASSERT_EQ(out[i], i * 100 + i % 32);
}

TEST(math_overloads_pick_float_for_float_arguments)
{
    lat_context *ctx = emu_context();
    lat_kernel *k = kernel(ctx,
                           "#include <math.h>\n"
                           "__global__ void k(int *n, float *f, double *d)\n"
                           "{\n"
                           "    float x = 2.0f;\n"
                           "    n[0] = sizeof(sqrt(x));\n"
                           "    n[1] = sizeof(sqrt(2.0));\n"
                           "    n[2] = sizeof(pow(x, 2));\n"
                           "    n[3] = sizeof(min(1, 2u)) + (min(-1, 2u) == 2u);\n"
                           "    n[4] = max(-3, 7);\n"
                           "    n[5] = __popc(0xF0F0u) + __clz(1);\n"
                           "    f[0] = fminf(x, 1.0f) + rsqrtf(4.0f) + __saturatef(3.0f);\n"
                           "    f[1] = __int_as_float(__float_as_int(1.5f));\n"
                           "    f[2] = make_float2(1.0f, 2.0f).y + make_float4(1, 2, 3, 4).w;\n"
                           "    d[0] = fmax(1.0, 2.5) + M_PI;\n"
                           "    d[1] = sinpi(0.5) + cospi(1.0);\n"
                           "}\n",
                           "k");
    int n[6];
    float f[3];
    double d[2];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                              LAT_ARGS(lat_arg_out(n, sizeof n), lat_arg_out(f, sizeof f),
                                       lat_arg_out(d, sizeof d))));
    ASSERT_EQ(n[0], 4);
    ASSERT_EQ(n[1], 8);
    ASSERT_EQ(n[2], 4);
    ASSERT_EQ(n[3], 5); /* unsigned, as CUDA's min(int, unsigned) */
    ASSERT_EQ(n[4], 7);
    ASSERT_EQ(n[5], 8 + 31);
    ASSERT_CLOSE(f[0], 1.0 + 0.5 + 1.0, 1e-6, 0);
    ASSERT_CLOSE(f[1], 1.5, 0, 0);
    ASSERT_CLOSE(f[2], 6.0, 0, 0);
    ASSERT_CLOSE(d[0], 2.5 + 3.14159265358979323846, 1e-15, 0);
    ASSERT_CLOSE(d[1], 0.0, 0, 0);
}

TEST(struct_and_vector_parameters_are_passed_by_value)
{
    lat_context *ctx = emu_context();
    lat_kernel *k = kernel(ctx,
                           "struct Params { int a; double b; char c; };\n"
                           "__global__ void k(float *out, Params p, float3 v, float4 w)\n"
                           "{\n"
                           "    out[0] = p.a + p.b + p.c;\n"
                           "    out[1] = v.x + v.y + v.z;\n"
                           "    out[2] = w.x * w.w;\n"
                           "}\n",
                           "k");
    ASSERT_EQ(lat_kernel_param_count(k), 4);
    struct {
        int a;
        double b;
        char c;
    } p = {1, 2.5, 3};
    float v[3] = {1, 2, 3};
    _Alignas(16) float w[4] = {2, 0, 0, 5};
    float out[3];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_bytes(&p, sizeof p),
                                       lat_arg_bytes(v, sizeof v), lat_arg_bytes(w, sizeof w))));
    ASSERT_CLOSE(out[0], 6.5, 0, 0);
    ASSERT_CLOSE(out[1], 6.0, 0, 0);
    ASSERT_CLOSE(out[2], 10.0, 0, 0);
}

TEST(a_failed_assert_stops_the_launch_with_launch_failed)
{
    lat_context *ctx = emu_context();
    lat_kernel *k = kernel(ctx,
                           "#include <assert.h>\n"
                           "__global__ void k(int *out)\n"
                           "{\n"
                           "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "    assert(i != 77);\n"
                           "    out[i] = i;\n"
                           "}\n",
                           "k");
    int *out = t_calloc(256, sizeof *out);
    ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED,
                  lat_launch_args(k, &(lat_launch_desc){.grid = {4}, .block = {64}},
                                  LAT_ARGS(lat_arg_out(out, 256 * sizeof *out))));
    ASSERT_CONTAINS(lat_last_error(), "kernel.cu:5: kernel 'k' trapped in block (1,0,0), thread (13,0,0)");
    ASSERT_CONTAINS(lat_last_error(), "assertion `i != 77` failed");
    /* The context stays usable. */
    int ok[64];
    ASSERT_STATUS(LAT_OK, lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {64}},
                                          LAT_ARGS(lat_arg_out(ok, sizeof ok))));
}

TEST(printf_in_a_kernel_writes_whole_lines)
{
    lat_context *ctx = emu_context();
    lat_kernel *k = kernel(ctx,
                           "#include <stdio.h>\n"
                           "__global__ void k(void)\n"
                           "{\n"
                           "    if (threadIdx.x == 0 && blockIdx.x == 0)\n"
                           "        printf(\"lattice emu printf: %d %.2f %s\\n\", 42, 1.5f, \"ok\");\n"
                           "}\n",
                           "k");
    ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {2}, .block = {32}}, NULL));
    fflush(stdout);
}

TEST(a_large_grid_runs_every_block)
{
    lat_context *ctx = emu_context();
    lat_kernel *k2 = kernel(ctx,
                            "__global__ void k2(unsigned char *seen)\n"
                            "{\n"
                            "    unsigned long long b = blockIdx.x + (unsigned long long)gridDim.x *\n"
                            "        (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);\n"
                            "    seen[b] = 1;\n"
                            "}\n",
                            "k2");
    enum { GX = 70000, GY = 3, GZ = 2, N = GX * GY * GZ };
    unsigned char *seen = t_calloc(N, 1);
    ASSERT_OK(lat_launch_args(k2, &(lat_launch_desc){.grid = {GX, GY, GZ}, .block = {1}},
                              LAT_ARGS(lat_arg_inout(seen, N))));
    for (size_t i = 0; i < N; i++)
        ASSERT_MSG(seen[i] == 1, "block %zu did not run", i);
}

TEST(recursion_enums_pragmas_and_ldg)
{
    lat_context *ctx = emu_context();
    lat_kernel *k = kernel(ctx,
                           "enum Mode { ADD, MUL };\n"
                           "typedef struct { int base; } Cfg;\n"
                           "__device__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }\n"
                           "__global__ void k(int *out, const int *__restrict__ in, Mode m, Cfg c)\n"
                           "{\n"
                           "    int acc = c.base;\n"
                           "#pragma unroll\n"
                           "    for (int j = 0; j < 4; j++)\n"
                           "        acc = m == ADD ? acc + __ldg(&in[j]) : acc * __ldg(&in[j]);\n"
                           "    out[threadIdx.x] = acc + fact(threadIdx.x);\n"
                           "}\n",
                           "k");
    int in[4] = {1, 2, 3, 4}, out[6];
    int mode = 0, cfg = 10;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {6}},
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_in(in, sizeof in),
                                       lat_arg_i32(mode), lat_arg_bytes(&cfg, sizeof cfg))));
    static const int fact[6] = {1, 1, 2, 6, 24, 120};
    for (int i = 0; i < 6; i++)
        ASSERT_EQ(out[i], 20 + fact[i]);
}

/* The scanner (used to check arguments on both backends) and the emulator's compiled
 * kernels must agree on every parameter list. */
TEST(scanner_and_emulator_agree_on_parameters)
{
    static const char *const sources[] = {
        "__global__ void k(void) {}\n",
        "__global__ void k() {}\n",
        "__global__ void k(float *a, const float *__restrict__ b, int n, unsigned m, double d) {}\n",
        /* One source of two lines: parenthesised, so clang sees the concatenation is meant. */
        ("typedef float real; struct S { int x; };\n"
         "__global__ void k(real *a, struct S s, float4 v, dim3 g, int arr[4], float (*f)(float)) {}\n"),
        "#define T double\nextern \"C\" { __global__ void k(T *a, T, const T c, size_t n, bool b, char ch) {} }\n",
        "__global__ void k(long long a, unsigned long b, short c, unsigned char d, int8_t e, uint64_t f) {}\n",
    };
    lat_context *ctx = emu_context();
    for (size_t i = 0; i < sizeof sources / sizeof sources[0]; i++) {
        lat_kernel *k = kernel(ctx, sources[i], "k");
        ASSERT_NOT_NULL(k->sig);
        ASSERT_MSG(k->sig->nparams == k->backend_nparams, "source %zu: scanner %d, emulator %d", i,
                   k->sig->nparams, k->backend_nparams);
        for (int p = 0; p < k->sig->nparams; p++)
            ASSERT_MSG(k->sig->params[p].size == 0 ||
                           k->sig->params[p].size == k->backend_param_sizes[p],
                       "source %zu, parameter %d (%s): scanner says %zu bytes, emulator %zu", i,
                       p, k->sig->params[p].type, k->sig->params[p].size,
                       k->backend_param_sizes[p]);
    }
}

TEST(a_kernel_the_preprocessor_drops_is_not_in_the_module)
{
    lat_context *ctx = emu_context();
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source =
                  "#define PICK(x) (x)\n"
                  "#if PICK(0)\n__global__ void dropped(int *a) { a[0] = 1; }\n#endif\n"
                  "__global__ void kept(int *a) { a[0] = 2; }\n"}, &mod));
    lat_kernel *k = NULL;
    ASSERT_OK(lat_module_get_kernel(mod, "kept", &k));
    ASSERT_STATUS(LAT_ERROR_KERNEL_NOT_FOUND, lat_module_get_kernel(mod, "dropped", &k));
}
