/* __constant__ and __device__ variables at file scope, and lat_module_get_global (PyCUDA's
 * get_global): found by name with their size, written and read from the host, used by
 * kernels; their errors. */
#include "harness.h"

#include <string.h>

static const char src[] =
    "__constant__ float coeff[4] = {1.0f, 2.0f, 3.0f, 4.0f};\n"
    "__constant__ int scale;\n"
    "__device__ unsigned long long hits;\n"
    "__device__ int table[3][5];\n"
    "struct Cfg { int n; float bias; };\n"
    "__constant__ struct Cfg cfg;\n"
    "__global__ void poly(const float *x, float *y)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i >= cfg.n) return;\n"
    "    float v = x[i];\n"
    "    y[i] = scale * (coeff[0] + v * (coeff[1] + v * (coeff[2] + v * coeff[3]))) + cfg.bias;\n"
    "    atomicAdd(&hits, 1ULL);\n"
    "    if (i < 15) table[i / 5][i % 5] = i * i;\n"
    "}\n";

static lat_module *module(lat_context *ctx)
{
    if (lat_context_backend(ctx) == LAT_BACKEND_CROSS)
        SKIP("cross-checking has no module variables yet");
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "globals.cu"}, &mod));
    return mod;
}

TEST(get_global_gives_address_and_size)
{
    lat_context *ctx = t_context();
    lat_module *mod = module(ctx);
    lat_deviceptr p = 0;
    size_t n = 0;
    ASSERT_OK(lat_module_get_global(mod, "coeff", &p, &n));
    ASSERT_TRUE(p != 0);
    ASSERT_EQ(n, 4 * sizeof(float));
    ASSERT_OK(lat_module_get_global(mod, "hits", NULL, &n));
    ASSERT_EQ(n, 8);
    ASSERT_OK(lat_module_get_global(mod, "table", &p, &n));
    ASSERT_EQ(n, 15 * sizeof(int));
    ASSERT_OK(lat_module_get_global(mod, "cfg", NULL, &n));
    ASSERT_EQ(n, 8);
    float c[4];
    ASSERT_OK(lat_module_memcpy_from_global(mod, "coeff", 0, c, sizeof c));
    for (int i = 0; i < 4; i++)
        ASSERT_TRUE(c[i] == (float)(i + 1));
}

TEST(kernels_see_what_the_host_wrote_and_the_host_reads_what_they_wrote)
{
    lat_context *ctx = t_context();
    lat_module *mod = module(ctx);
    lat_kernel *k = NULL;
    ASSERT_OK(lat_module_get_kernel(mod, "poly", &k));
    enum { N = 1000 };
    float x[N], y[N];
    for (int i = 0; i < N; i++)
        x[i] = (float)(i % 7) - 3.0f;
    int scale = 3;
    struct {
        int n;
        float bias;
    } cfg = {N - 10, 0.25f};
    float c2[2] = {-1.0f, 0.5f};
    unsigned long long zero = 0;
    ASSERT_OK(lat_module_memcpy_to_global(mod, "scale", 0, &scale, sizeof scale));
    ASSERT_OK(lat_module_memcpy_to_global(mod, "cfg", 0, &cfg, sizeof cfg));
    ASSERT_OK(lat_module_memcpy_to_global(mod, "coeff", 2 * sizeof(float), c2, sizeof c2));
    ASSERT_OK(lat_module_memcpy_to_global(mod, "hits", 0, &zero, sizeof zero));
    memset(y, 0, sizeof y);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {(N + 127) / 128}, .block = {128}},
                              LAT_ARGS(lat_arg_in(x, sizeof x), lat_arg_inout(y, sizeof y))));
    for (int i = 0; i < N; i++) {
        float v = x[i];
        float want = i < N - 10 ? 3 * (1.0f + v * (2.0f + v * (-1.0f + v * 0.5f))) + 0.25f : 0.0f;
        ASSERT_MSG(t_close(y[i], want, 1e-6, 1e-6), "y[%d] = %g, want %g", i, y[i], want);
    }
    unsigned long long hits = 0;
    ASSERT_OK(lat_module_memcpy_from_global(mod, "hits", 0, &hits, sizeof hits));
    ASSERT_U64_EQ(hits, N - 10);
    int table[15];
    ASSERT_OK(lat_module_memcpy_from_global(mod, "table", 0, table, sizeof table));
    for (int i = 0; i < 15; i++)
        ASSERT_EQ(table[i], i * i);
    /* The address goes to kernels as any device pointer. */
    lat_deviceptr tp = 0;
    ASSERT_OK(lat_module_get_global(mod, "table", &tp, NULL));
    lat_kernel *rd = t_kernel(ctx,
                              "__global__ void rd(const int *t, int *o) { o[threadIdx.x] = t[threadIdx.x] + 1; }\n",
                              "rd");
    int o[15];
    ASSERT_OK(lat_launch_args(rd, &(lat_launch_desc){.grid = {1}, .block = {15}},
                              LAT_ARGS(lat_arg_ptr(tp), lat_arg_out(o, sizeof o))));
    for (int i = 0; i < 15; i++)
        ASSERT_EQ(o[i], i * i + 1);
}

/* PyCUDA programs copy to a variable by its address, memset it and copy between it and
 * allocations (a GPUArray over get_global's address does all three). */
TEST(a_variable_s_address_is_device_memory_to_copies_and_memsets)
{
    lat_context *ctx = t_context();
    lat_module *mod = module(ctx);
    lat_deviceptr tp = 0;
    size_t n = 0;
    ASSERT_OK(lat_module_get_global(mod, "table", &tp, &n));
    int in[15], out[15];
    for (int i = 0; i < 15; i++)
        in[i] = 7 * i - 40;
    ASSERT_OK(lat_memcpy_htod(ctx, tp, in, sizeof in));
    ASSERT_OK(lat_memset_d32(ctx, tp + 4 * sizeof(int), 0xdeadbeef, 3));
    lat_deviceptr d = t_device_copy(ctx, NULL, sizeof in);
    ASSERT_OK(lat_memcpy_dtod(ctx, d, tp, sizeof in));
    ASSERT_OK(lat_memcpy_dtoh(ctx, out, d, sizeof out));
    for (int i = 0; i < 15; i++)
        ASSERT_EQ(out[i], i >= 4 && i < 7 ? (int)0xdeadbeef : in[i]);
    ASSERT_OK(lat_memcpy_dtod(ctx, tp + sizeof(int), d, 2 * sizeof(int)));
    ASSERT_OK(lat_memcpy_dtoh(ctx, out, tp, sizeof out));
    ASSERT_EQ(out[1], in[0]);
    ASSERT_EQ(out[2], in[1]);
    /* Past its end is refused, as past an allocation's. */
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_memcpy_htod(ctx, tp + 4, in, sizeof in));
    ASSERT_CONTAINS(lat_last_error(), "overrun");
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_memset_d8(ctx, tp + n, 0, 1));
}

TEST(errors_name_the_variable)
{
    lat_context *ctx = t_context();
    lat_module *mod = module(ctx);
    size_t n;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_module_get_global(mod, "nope", NULL, &n));
    ASSERT_CONTAINS(lat_last_error(), "no __device__ or __constant__ variable named 'nope'");
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_module_get_global(mod, "poly", NULL, &n));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_module_get_global(NULL, "coeff", NULL, &n));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_module_get_global(mod, NULL, NULL, &n));
    float c[5];
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS,
                  lat_module_memcpy_from_global(mod, "coeff", 0, c, sizeof c));
    ASSERT_CONTAINS(lat_last_error(), "overrun 'coeff', which has 16 bytes");
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS,
                  lat_module_memcpy_to_global(mod, "coeff", 12, c, 8));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_module_memcpy_to_global(mod, "coeff", 0, NULL, 4));
}
