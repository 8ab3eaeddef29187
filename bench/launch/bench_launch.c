/*
 * How much does lattice add to a launch? On the GPU, in one process and one context,
 * this times
 *   (a) an empty kernel: host time per launch through lat_launch / lat_launch_args and
 *       through cuLaunchKernel of the same code compiled the same way;
 *   (b) PyCUDA's tutorial round trip, multiply_them on 400 floats with Out/In/In:
 *       lat_launch_args against cuMemAlloc x3, cuMemcpyHtoD x2, cuLaunchKernel,
 *       cuMemcpyDtoH, cuMemFree x3;
 * and prints each as a ratio against the raw driver API. Lattice and raw runs alternate,
 * so drift in clocks or the driver affects both alike. Targets: launch overhead within
 * 0.5 us of raw (issue 2); the round trip at most 0.6x raw (issue 4: one allocation from
 * the stream-ordered pool, one copy each way through page-locked staging, one wait). Prints SKIP and exits 0 where no GPU backend is available.
 */
#include "lattice.h"

#include "cuda_api.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../bench_clock.h"

static const char kernel_source[] =
    "__global__ void empty(void) {}\n"
    "__global__ void multiply_them(float *dest, float *a, float *b)\n"
    "{\n"
    "    const int i = threadIdx.x;\n"
    "    dest[i] = a[i] * b[i];\n"
    "}\n";

enum { BATCH = 50, ROUNDS = 400, TRIPS = 2000, N = 400 };

/* The raw driver API and NVRTC, loaded the way any program would load them. */
static struct {
#define FIELD(ret, name, symbol, params, optional) lat__pfn_##name name;
    LAT_CUDA_DRIVER_SYMS(FIELD)
    LAT_CUDA_NVRTC_SYMS(FIELD)
#undef FIELD
} raw;

static double now_us(void)
{
    return bench_now_ms() * 1e3;
}

/* Sorts v and returns its q-quantile (0.5: the median). */
static double quantile(double *v, size_t n, double q)
{
    bench_sort(v, n);
    size_t i = (size_t)(q * (double)(n - 1) + 0.5);
    return v[i];
}

static _Noreturn void die(const char *what)
{
    fprintf(stderr, "bench_launch: %s failed: %s\n", what, lat_last_error());
    exit(1);
}

#define LAT_CHECK(call)                                                                   \
    do {                                                                                  \
        if ((call) != LAT_OK)                                                             \
            die(#call);                                                                   \
    } while (0)

#define CU_CHECK(call)                                                                    \
    do {                                                                                  \
        CUresult r_ = (call);                                                             \
        if (r_ != CUDA_SUCCESS) {                                                         \
            const char *n_ = "?";                                                         \
            raw.cuGetErrorName(r_, &n_);                                                  \
            fprintf(stderr, "bench_launch: %s failed: %s\n", #call, n_);                  \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

static void *open_first(const char *env, const char *const *names)
{
    const char *e = getenv(env);
    if (e && *e)
        return dlopen(e, RTLD_NOW | RTLD_LOCAL);
    for (const char *const *n = names; *n; n++) {
        void *h = dlopen(*n, RTLD_NOW | RTLD_LOCAL);
        if (h)
            return h;
    }
    return NULL;
}

static void load_raw(void)
{
    static const char *const cuda_names[] = {"libcuda.so.1", NULL};
    static const char *const nvrtc_names[] = {
        "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2", "libnvrtc.so",
        "/usr/local/cuda/lib64/libnvrtc.so.13", "/usr/local/cuda/lib64/libnvrtc.so.12",
        "/usr/local/cuda/lib64/libnvrtc.so", NULL,
    };
    void *cuda = open_first("LATTICE_CUDA_LIBRARY", cuda_names);
    void *nvrtc = open_first("LATTICE_NVRTC_LIBRARY", nvrtc_names);
    if (!cuda || !nvrtc) {
        fprintf(stderr, "bench_launch: lattice found CUDA but the benchmark cannot load %s\n",
                cuda ? "NVRTC" : "libcuda.so.1");
        exit(1);
    }
#define LOAD(lib, ret, name, symbol, params, optional)                                    \
    *(void **)&raw.name = dlsym(lib, #symbol);                                            \
    if (!raw.name && !(optional)) {                                                       \
        fprintf(stderr, "bench_launch: %s is missing\n", #symbol);                        \
        exit(1);                                                                          \
    }
#define LOAD_CUDA(...) LOAD(cuda, __VA_ARGS__)
#define LOAD_NVRTC(...) LOAD(nvrtc, __VA_ARGS__)
    LAT_CUDA_DRIVER_SYMS(LOAD_CUDA)
    LAT_CUDA_NVRTC_SYMS(LOAD_NVRTC)
#undef LOAD_NVRTC
#undef LOAD_CUDA
#undef LOAD
}

/* Compiles the benchmark's kernels the way lattice does (extern "C", the device's own
 * architecture, CUBIN) and loads them; returns the milliseconds NVRTC took. */
static double raw_module_of(const char *source, int major, int minor, CUmodule *mod, double *load_ms)
{
    static const char head[] = "extern \"C\" {\n#line 1 \"bench.cu\"\n";
    char *text = malloc(sizeof head + strlen(source) + 4);
    if (!text)
        exit(1);
    sprintf(text, "%s%s\n}\n", head, source);
    char arch[64];
    int cubin = raw.nvrtcGetCUBIN != NULL;
    snprintf(arch, sizeof arch, "--gpu-architecture=%s_%d%d", cubin ? "sm" : "compute", major,
             minor);
    const char *opts[] = {arch};
    double t0 = now_us();
    nvrtcProgram prog;
    if (raw.nvrtcCreateProgram(&prog, text, "bench.cu", 0, NULL, NULL) != NVRTC_SUCCESS)
        exit(1);
    nvrtcResult r = raw.nvrtcCompileProgram(prog, 1, opts);
    double ms = (now_us() - t0) / 1e3;
    if (r != NVRTC_SUCCESS) {
        /* An NVRTC that does not know the device: lattice falls back to PTX; so do we,
         * for the newest architecture it supports, as lattice would. */
        fprintf(stderr, "bench_launch: raw NVRTC rejected %s (%s); the raw side needs an NVRTC "
                        "that knows the device\n", arch, raw.nvrtcGetErrorString(r));
        exit(1);
    }
    size_t size = 0;
    if (cubin)
        raw.nvrtcGetCUBINSize(prog, &size);
    else
        raw.nvrtcGetPTXSize(prog, &size);
    char *code = malloc(size + 1);
    if (!code)
        exit(1);
    if (cubin)
        raw.nvrtcGetCUBIN(prog, code);
    else
        raw.nvrtcGetPTX(prog, code);
    raw.nvrtcDestroyProgram(&prog);
    double l0 = now_us();
    CU_CHECK(raw.cuModuleLoadDataEx(mod, code, 0, NULL, NULL));
    if (load_ms)
        *load_ms = (now_us() - l0) / 1e3;
    free(code);
    free(text);
    return ms;
}

static double raw_module(int major, int minor, CUmodule *mod)
{
    return raw_module_of(kernel_source, major, minor, mod, NULL);
}

enum { COMPILES = 5 };

/* The first compile, side by side: lattice's lat_module_create of a source no cache holds
 * against raw nvrtcCompileProgram of the same text (and its cuModuleLoadDataEx), each
 * pair on a source of its own (a comment differs), alternating, medians. NVRTC is warmed
 * first: the first compile in a process also loads NVRTC's builtins (tens of ms), which
 * the side that ran first paid alone. */
static void first_compiles(lat_context *ctx, int major, int minor)
{
    CUmodule warm;
    (void)raw_module_of("__global__ void warm_up(void) {}\n", major, minor, &warm, NULL);
    raw.cuModuleUnload(warm);
    double lat_ms[COMPILES], nv_ms[COMPILES], load_ms[COMPILES], both_ms[COMPILES];
    char *text = malloc(sizeof kernel_source + 64);
    if (!text)
        exit(1);
    for (int i = 0; i < COMPILES; i++) {
        snprintf(text, sizeof kernel_source + 64, "// %ld %d\n%s", (long)now_us(), i, kernel_source);
        lat_module *m;
        double t0 = now_us();
        LAT_CHECK(lat_module_create(ctx, &(lat_module_desc){.source = text, .name = "bench.cu"}, &m));
        lat_ms[i] = (now_us() - t0) / 1e3;
        lat_module_destroy(m);
        text[3] = 'r'; /* another source for the raw side: no cache of any layer in between */
        CUmodule rm;
        nv_ms[i] = raw_module_of(text, major, minor, &rm, &load_ms[i]);
        both_ms[i] = nv_ms[i] + load_ms[i];
        raw.cuModuleUnload(rm);
    }
    free(text);
    double l = quantile(lat_ms, COMPILES, 0.5), n = quantile(nv_ms, COMPILES, 0.5),
           b = quantile(both_ms, COMPILES, 0.5);
    printf("first compile of a new source, NVRTC warmed, median of %d: lat_module_create %.1f ms, "
           "raw nvrtcCompileProgram %.1f ms (ratio %.2f, target 1.10), with cuModuleLoadDataEx "
           "%.1f ms (ratio %.2f)\n", COMPILES, l, n, l / n, b, l / b);
}

static void print_row(const char *what, double t, double raw_t, const char *note)
{
    printf("  %-40s %9.2f us   ratio %5.2f   overhead %+7.2f us%s\n", what, t, t / raw_t,
           t - raw_t, note);
}

int main(void)
{
    lat_backend_kind kind;
    if (lat_backend_resolve(LAT_BACKEND_CUDA, &kind) != LAT_OK) {
        printf("SKIP bench_launch: no GPU backend: %s\n", lat_last_error());
        return 0;
    }
    lat_context *ctx;
    LAT_CHECK(lat_context_create(&(lat_context_desc){.backend = LAT_BACKEND_CUDA}, &ctx));
    lat_device_info info;
    LAT_CHECK(lat_context_device_info(ctx, &info));

    /* NVRTC's cost: the first compile in a process also loads NVRTC's builtins. */
    lat_module *mod;
    double t0 = now_us();
    LAT_CHECK(lat_module_create(ctx, &(lat_module_desc){.source = kernel_source, .name = "bench.cu"},
                                &mod));
    double first_ms = (now_us() - t0) / 1e3;
    lat_module *again;
    t0 = now_us();
    LAT_CHECK(lat_module_create(ctx, &(lat_module_desc){.source = kernel_source, .name = "bench.cu"},
                                &again));
    double again_ms = (now_us() - t0) / 1e3;
    lat_module_destroy(again);
    lat_kernel *k_empty, *k_mul;
    LAT_CHECK(lat_module_get_kernel(mod, "empty", &k_empty));
    LAT_CHECK(lat_module_get_kernel(mod, "multiply_them", &k_mul));

    /* The raw side, in the same (primary) context that lattice uses. */
    load_raw();
    CUdevice dev;
    CUcontext cu;
    CU_CHECK(raw.cuInit(0));
    CU_CHECK(raw.cuDeviceGet(&dev, 0));
    CU_CHECK(raw.cuDevicePrimaryCtxRetain(&cu, dev));
    CU_CHECK(raw.cuCtxSetCurrent(cu));
    CUmodule rmod;
    double raw_nvrtc_ms = raw_module(info.compute_major, info.compute_minor, &rmod);
    CUfunction f_empty, f_mul;
    CU_CHECK(raw.cuModuleGetFunction(&f_empty, rmod, "empty"));
    CU_CHECK(raw.cuModuleGetFunction(&f_mul, rmod, "multiply_them"));
    int driver = 0, nv_major = 0, nv_minor = 0;
    raw.cuDriverGetVersion(&driver);
    raw.nvrtcVersion(&nv_major, &nv_minor);

    printf("bench_launch: %s (sm_%d%d), driver %d.%d, NVRTC %d.%d\n", info.name,
           info.compute_major, info.compute_minor, driver / 1000, driver % 1000 / 10, nv_major,
           nv_minor);
    printf("NVRTC compile + load of bench.cu (2 kernels): lat_module_create first %.1f ms "
           "(the process's first NVRTC call too), again %.1f ms (the compile cache, unless "
           "LATTICE_CACHE=0); raw nvrtcCompileProgram alone %.1f ms (NVRTC warm)\n",
           first_ms, again_ms, raw_nvrtc_ms);
    first_compiles(ctx, info.compute_major, info.compute_minor);

    /* (a) Empty-kernel launches, timed in batches (one clock read per batch), with the
     * queue drained between batches. */
    const lat_launch_desc one = {.grid = {1, 1, 1}, .block = {1, 1, 1}};
    static double t_raw[ROUNDS], t_lat[ROUNDS], t_args[ROUNDS];
    for (int warm = 0; warm < 2; warm++) {
        for (int round = 0; round < ROUNDS; round++) {
            for (int order = 0; order < 3; order++) {
                int which = (order + round) % 3;
                double s = now_us();
                for (int i = 0; i < BATCH; i++) {
                    if (which == 0)
                        CU_CHECK(raw.cuLaunchKernel(f_empty, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
                    else if (which == 1)
                        LAT_CHECK(lat_launch(k_empty, &one, NULL));
                    else
                        LAT_CHECK(lat_launch_args(k_empty, &one, 0, NULL));
                }
                double per = (now_us() - s) / BATCH;
                (which == 0 ? t_raw : which == 1 ? t_lat : t_args)[round] = per;
                CU_CHECK(raw.cuCtxSynchronize());
            }
        }
    }
    double raw_med = quantile(t_raw, ROUNDS, 0.5), raw_p10 = quantile(t_raw, ROUNDS, 0.1);
    double lat_med = quantile(t_lat, ROUNDS, 0.5), lat_p10 = quantile(t_lat, ROUNDS, 0.1);
    double args_med = quantile(t_args, ROUNDS, 0.5);
    printf("(a) empty kernel, host time per launch (median of %d batches of %d; p10 in "
           "brackets):\n", ROUNDS, BATCH);
    printf("  %-40s %9.2f us   [p10 %.2f]\n", "raw cuLaunchKernel", raw_med, raw_p10);
    char note[96];
    snprintf(note, sizeof note, "   [p10 %.2f]  target <= +0.50 us: %s", lat_p10,
             lat_med - raw_med <= 0.5 ? "MET" : "MISSED");
    print_row("lat_launch", lat_med, raw_med, note);
    print_row("lat_launch_args, no arguments", args_med, raw_med, "");

    /* (b) The tutorial's round trip. */
    float a[N], b[N], dest[N];
    for (int i = 0; i < N; i++) {
        a[i] = (float)rand() / (float)RAND_MAX - 0.5f;
        b[i] = (float)rand() / (float)RAND_MAX - 0.5f;
    }
    const lat_launch_desc desc = {.grid = {1, 1, 1}, .block = {N, 1, 1}};
    static double r_raw[TRIPS], r_lat[TRIPS];
    int bad = 0;
    for (int warm = 0; warm < 2; warm++) {
        for (int trip = 0; trip < TRIPS; trip++) {
            for (int order = 0; order < 2; order++) {
                int which = (order + trip) % 2;
                memset(dest, 0, sizeof dest);
                double s = now_us();
                if (which == 0) {
                    CUdeviceptr dd, da, db;
                    CU_CHECK(raw.cuMemAlloc(&dd, sizeof dest));
                    CU_CHECK(raw.cuMemAlloc(&da, sizeof a));
                    CU_CHECK(raw.cuMemAlloc(&db, sizeof b));
                    CU_CHECK(raw.cuMemcpyHtoD(da, a, sizeof a));
                    CU_CHECK(raw.cuMemcpyHtoD(db, b, sizeof b));
                    void *params[] = {&dd, &da, &db};
                    CU_CHECK(raw.cuLaunchKernel(f_mul, 1, 1, 1, N, 1, 1, 0, NULL, params, NULL));
                    CU_CHECK(raw.cuMemcpyDtoH(dest, dd, sizeof dest));
                    CU_CHECK(raw.cuMemFree(dd));
                    CU_CHECK(raw.cuMemFree(da));
                    CU_CHECK(raw.cuMemFree(db));
                } else {
                    LAT_CHECK(lat_launch_args(k_mul, &desc,
                                              LAT_ARGS(lat_arg_out(dest, sizeof dest),
                                                       lat_arg_in(a, sizeof a),
                                                       lat_arg_in(b, sizeof b))));
                }
                (which == 0 ? r_raw : r_lat)[trip] = now_us() - s;
                for (int i = 0; i < N; i++)
                    bad += dest[i] != a[i] * b[i];
            }
        }
    }
    double rraw = quantile(r_raw, TRIPS, 0.5), rlat = quantile(r_lat, TRIPS, 0.5);
    printf("(b) multiply_them, %d floats, Out/In/In round trip (median of %d):\n", N, TRIPS);
    printf("  %-40s %9.2f us   [p10 %.2f]\n", "raw alloc/copy/copy/launch/copy/free", rraw,
           quantile(r_raw, TRIPS, 0.1));
    snprintf(note, sizeof note, "   target <= 0.60x (issue 4: the pool): %s",
             rlat <= 0.6 * rraw ? "MET" : "MISSED");
    print_row("lat_launch_args(Out, In, In)", rlat, rraw, note);
    if (bad) {
        printf("FAIL: %d wrong products in multiply_them\n", bad);
        return 1;
    }
    printf("results checked: every product matches the host's\n");

    CU_CHECK(raw.cuModuleUnload(rmod));
    CU_CHECK(raw.cuDevicePrimaryCtxRelease(dev));
    lat_module_destroy(mod);
    lat_context_destroy(ctx);
    return 0;
}
