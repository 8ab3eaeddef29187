/*
 * The driver layer's costs on the GPU, each against the raw driver API in the same run:
 *   (c) loading a module from the disk cache in a new process, against compiling it with
 *       NVRTC (target: under 1 ms, and 20x faster than the compile);
 *   (d) a 256 MiB In/Out round trip from pageable memory through lat_launch_args, and
 *       lat_memcpy_htod + lat_memcpy_dtoh of the same, against cuMemcpyHtoD + cuMemcpyDtoH
 *       of pageable memory (target: at least 3x faster), with page-locked copies as the
 *       ceiling.
 * (a) and (b), the launch and the 400-float round trip, are bench/launch's.
 * Each new process is this program run again with --child; the timings inside it cover
 * lat_module_create alone. Prints SKIP and exits 0 where no GPU backend is available.
 */
#include "lattice.h"

#include "cuda_api.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../bench_clock.h"

static const char kernel_source[] =
    "__global__ void empty(void) {}\n"
    "__global__ void multiply_them(float *dest, float *a, float *b)\n"
    "{\n"
    "    const int i = threadIdx.x;\n"
    "    dest[i] = a[i] * b[i];\n"
    "}\n"
    "__global__ void touch(float *p, unsigned long long n)\n"
    "{\n"
    "    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;\n"
    "    if (i < n && p[i] != p[i]) p[i] = 0.0f; /* reads everything, writes nothing */\n"
    "}\n";

static _Noreturn void die(const char *what)
{
    fprintf(stderr, "bench_driver: %s failed: %s\n", what, lat_last_error());
    exit(1);
}

#define LAT_CHECK(call)                                                                   \
    do {                                                                                  \
        if ((call) != LAT_OK)                                                             \
            die(#call);                                                                   \
    } while (0)

/* ---- (c) in a child process ------------------------------------------------------------------ */

/* Creates a context, then times lat_module_create twice; prints both and the origins. */
static int child(void)
{
    lat_context *ctx;
    LAT_CHECK(lat_context_create(&(lat_context_desc){.backend = LAT_BACKEND_CUDA}, &ctx));
    double ms[2];
    int origin[2];
    for (int i = 0; i < 2; i++) {
        lat_module *mod;
        double t0 = bench_now_ms();
        LAT_CHECK(lat_module_create(ctx, &(lat_module_desc){.source = kernel_source, .name = "bench.cu"},
                                    &mod));
        ms[i] = bench_now_ms() - t0;
        origin[i] = lat_module_get_origin(mod);
        lat_kernel *k;
        LAT_CHECK(lat_module_get_kernel(mod, "empty", &k));
        LAT_CHECK(lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {1}}, NULL));
        LAT_CHECK(lat_context_synchronize(ctx));
        lat_module_destroy(mod);
        /* The second create in the process must not be served from memory. */
        lat_cache_clear();
    }
    printf("%.4f %d %.4f %d\n", ms[0], origin[0], ms[1], origin[1]);
    lat_context_destroy(ctx);
    return 0;
}

/* Runs this program as a child with extra environment; reads its two timings. */
static void run_child(const char *self, const char *env, double ms[2], int origin[2])
{
    char cmd[8192];
    if ((size_t)snprintf(cmd, sizeof cmd, "%s '%s' --child", env, self) >= sizeof cmd) {
        fprintf(stderr, "bench_driver: path too long\n");
        exit(1);
    }
    FILE *p = popen(cmd, "r");
    if (!p || fscanf(p, "%lf %d %lf %d", &ms[0], &origin[0], &ms[1], &origin[1]) != 4) {
        fprintf(stderr, "bench_driver: child '%s' failed\n", cmd);
        exit(1);
    }
    pclose(p);
}

static void bench_cache(const char *self)
{
    char dir[] = "/tmp/lattice-bench-cache-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        exit(1);
    }
    char env_off[512], env_on[512];
    snprintf(env_off, sizeof env_off, "LATTICE_CACHE=0 LATTICE_CACHE_DIR=%s", dir);
    snprintf(env_on, sizeof env_on, "LATTICE_CACHE=1 LATTICE_CACHE_DIR=%s", dir);
    enum { RUNS = 7 };
    double first[RUNS], warm[RUNS], load[RUNS], ms[2];
    int origin[2];
    for (int i = 0; i < RUNS; i++) {
        run_child(self, env_off, ms, origin);
        first[i] = ms[0];
        warm[i] = ms[1];
    }
    run_child(self, env_on, ms, origin); /* fills the disk cache (origin[0] 0, then 2) */
    int disk_ok = origin[0] == LAT_MODULE_COMPILED && origin[1] == LAT_MODULE_DISK_CACHE;
    for (int i = 0; i < RUNS; i++) {
        run_child(self, env_on, ms, origin);
        load[i] = ms[0];
        disk_ok &= origin[0] == LAT_MODULE_DISK_CACHE;
    }
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench_driver: could not remove %s\n", dir);
    double f = bench_median(first, RUNS), w = bench_median(warm, RUNS);
    double l = bench_median(load, RUNS);
    printf("(c) module load in a new process (3 kernels; median of %d processes):\n", RUNS);
    printf("  %-44s %9.3f ms\n", "NVRTC compile + load, first in the process", f);
    printf("  %-44s %9.3f ms\n", "NVRTC compile + load, second in the process", w);
    printf("  %-44s %9.3f ms   %.0fx faster than the second compile, %.0fx than the first\n",
           "lat_module_create from the disk cache", l, w / l, f / l);
    printf("  target: under 1 ms and 20x faster: %s%s\n",
           l < 1.0 && w / l >= 20.0 ? "MET" : "MISSED",
           disk_ok ? "" : " (but a run did not come from the disk cache!)");
}

/* ---- (d) 256 MiB pageable transfers ------------------------------------------------------------ */

static struct {
#define FIELD(ret, name, symbol, params, optional) lat__pfn_##name name;
    LAT_CUDA_DRIVER_SYMS(FIELD)
#undef FIELD
} raw;

static void load_raw(void)
{
    const char *e = getenv("LATTICE_CUDA_LIBRARY");
    void *cuda = dlopen(e && *e ? e : "libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!cuda) {
        fprintf(stderr, "bench_driver: cannot load libcuda\n");
        exit(1);
    }
#define LOAD(ret, name, symbol, params, optional) *(void **)&raw.name = dlsym(cuda, #symbol);
    LAT_CUDA_DRIVER_SYMS(LOAD)
#undef LOAD
}

#define CU_CHECK(call)                                                                    \
    do {                                                                                  \
        CUresult r_ = (call);                                                             \
        if (r_ != CUDA_SUCCESS) {                                                         \
            fprintf(stderr, "bench_driver: %s failed: %d\n", #call, r_);                  \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

static void bench_transfers(void)
{
    lat_context *ctx;
    LAT_CHECK(lat_context_create(&(lat_context_desc){.backend = LAT_BACKEND_CUDA}, &ctx));
    lat_module *mod;
    LAT_CHECK(lat_module_create(ctx, &(lat_module_desc){.source = kernel_source, .name = "bench.cu"},
                                &mod));
    lat_kernel *touch;
    LAT_CHECK(lat_module_get_kernel(mod, "touch", &touch));
    load_raw();
    CUdevice dev;
    CUcontext cu;
    CU_CHECK(raw.cuDeviceGet(&dev, 0));
    CU_CHECK(raw.cuDevicePrimaryCtxRetain(&cu, dev));
    CU_CHECK(raw.cuCtxSetCurrent(cu));

    const size_t bytes = (size_t)256 << 20;
    const unsigned long long n = bytes / sizeof(float);
    float *host = malloc(bytes), *back = malloc(bytes);
    if (!host || !back)
        exit(1);
    for (size_t i = 0; i < n; i++)
        host[i] = (float)(i & 1023);
    memset(back, 0, bytes);
    CUdeviceptr d;
    CU_CHECK(raw.cuMemAlloc(&d, bytes));
    lat_deviceptr ld;
    LAT_CHECK(lat_mem_alloc(ctx, bytes, &ld));
    void *pinned = NULL;
    CU_CHECK(raw.cuMemHostAlloc(&pinned, bytes, 0));
    memcpy(pinned, host, bytes);

    enum { REPS = 5 };
    double t_raw[REPS], t_pin[REPS], t_args[REPS], t_copy[REPS];
    const lat_launch_desc desc = {.grid = {(unsigned)((n + 255) / 256)}, .block = {256}};
    for (int warm = 0; warm < 2; warm++) {
        for (int r = 0; r < REPS; r++) {
            double t0 = bench_now_ms();
            CU_CHECK(raw.cuMemcpyHtoD(d, host, bytes));
            CU_CHECK(raw.cuMemcpyDtoH(back, d, bytes));
            t_raw[r] = bench_now_ms() - t0;

            t0 = bench_now_ms();
            CU_CHECK(raw.cuMemcpyHtoD(d, pinned, bytes));
            CU_CHECK(raw.cuMemcpyDtoH(pinned, d, bytes));
            t_pin[r] = bench_now_ms() - t0;

            t0 = bench_now_ms();
            LAT_CHECK(lat_launch_args(touch, &desc, LAT_ARGS(lat_arg_inout(back, bytes), lat_arg_u64(n))));
            t_args[r] = bench_now_ms() - t0;

            t0 = bench_now_ms();
            LAT_CHECK(lat_memcpy_htod(ctx, ld, host, bytes));
            LAT_CHECK(lat_memcpy_dtoh(ctx, back, ld, bytes));
            t_copy[r] = bench_now_ms() - t0;
        }
    }
    int bad = memcmp(host, back, bytes) != 0;
    double mr = bench_median(t_raw, REPS), mp = bench_median(t_pin, REPS);
    double ma = bench_median(t_args, REPS), mc = bench_median(t_copy, REPS);
    double gb = 2.0 * (double)bytes / 1e9;
    printf("(d) 256 MiB in and 256 MiB out, pageable host memory (median of %d):\n", REPS);
    printf("  %-44s %9.2f ms  %6.1f GB/s\n", "raw cuMemcpyHtoD + cuMemcpyDtoH, pageable", mr,
           gb / (mr / 1e3));
    printf("  %-44s %9.2f ms  %6.1f GB/s   (the ceiling)\n", "raw cuMemcpyHtoD + cuMemcpyDtoH, pinned",
           mp, gb / (mp / 1e3));
    printf("  %-44s %9.2f ms  %6.1f GB/s   %.2fx raw pageable\n",
           "lat_launch_args(InOut 256 MiB), kernel incl.", ma, gb / (ma / 1e3), mr / ma);
    printf("  %-44s %9.2f ms  %6.1f GB/s   %.2fx raw pageable\n", "lat_memcpy_htod + lat_memcpy_dtoh",
           mc, gb / (mc / 1e3), mr / mc);
    printf("  target: In/Out at least 3x the plain pageable copy: %s\n",
           mr / ma >= 3.0 ? "MET" : "MISSED");
    if (bad)
        printf("FAIL: the data came back changed\n");
    CU_CHECK(raw.cuMemFreeHost(pinned));
    CU_CHECK(raw.cuMemFree(d));
    CU_CHECK(raw.cuDevicePrimaryCtxRelease(dev));
    free(host);
    free(back);
    lat_context_destroy(ctx);
    if (bad)
        exit(1);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--child") == 0)
        return child();
    lat_backend_kind kind;
    if (lat_backend_resolve(LAT_BACKEND_CUDA, &kind) != LAT_OK) {
        printf("SKIP bench_driver: no GPU backend: %s\n", lat_last_error());
        return 0;
    }
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) {
        perror("readlink /proc/self/exe");
        return 1;
    }
    self[len] = '\0';
    lat_device_info info;
    LAT_CHECK(lat_device_get_info(LAT_BACKEND_CUDA, 0, &info));
    printf("bench_driver: %s (sm_%d%d)\n", info.name, info.compute_major, info.compute_minor);
    fflush(stdout);
    bench_cache(self);
    fflush(stdout);
    bench_transfers();
    return 0;
}
