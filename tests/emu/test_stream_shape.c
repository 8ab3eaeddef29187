/* Which kernels the optimising tier writes with streaming stores (passes/stream.c): the map
 * kernels of its one shape, and none other. What the code computes is test_streaming.c's. */
#include "harness.h"

#include "emu/passes/lower.h"
#include "front/front.h"
#include "emu/compile/cg_header.h"

#include <stdio.h>
#include <string.h>

static lat__lower_out out;
static lat__unit *unit;

static void reset(void)
{
    lat__lower_out_free(&out);
    lat__unit_free(unit);
    unit = NULL;
}

/* Whether the optimising tier's C of src streams its stores. */
static int streams(const char *src)
{
    reset();
    lat__front_in in = {.text = src, .name = "kernel.cu", .profile = &lat__emu_profile};
    lat_status st = lat__front_parse(&in, &unit);
    if (st == LAT_OK) {
        lat__lower_in li = {.opt_variants = true};
        st = lat__emu_lower(unit, &li, &out);
    }
    const char *m = unit ? lat__unit_messages(unit, false) : NULL;
    ASSERT_MSG(st == LAT_OK, "lowering failed (%s): %s", lat_status_name(st), m ? m : "");
    int r = strstr(out.text, "__lat_stream_line(") != NULL;
    reset();
    return r;
}

#define STREAMS(src) ASSERT_MSG(streams(src), "does not stream:\n%s", src)
#define STAYS(src) ASSERT_MSG(!streams(src), "streams:\n%s", src)

TEST(map_kernels_as_people_write_them_stream)
{
    STREAMS("__global__ void k(float *d, const float *a, const float *b, int n)\n"
            "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) d[i] = a[i] * b[i]; }\n");
    /* the early return, the other order of the index, unsigned, braces */
    STREAMS("__global__ void k(float *y, const float *x, float a, int n)\n"
            "{ unsigned int i = threadIdx.x + blockDim.x * blockIdx.x;\n"
            "  if (i >= n) return;\n"
            "  y[i] = a * x[i] + y[i]; }\n");
    STREAMS("__global__ void k(double *d, const double *a, double s, unsigned n)\n"
            "{ const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "  if (n > i) { double t = a[i] / s; d[i] = t - (double)i; } }\n");
    /* no bound at all, integers, a uniform local, a conjunction of bounds */
    STREAMS("__global__ void k(int *o, const int *a, int key)\n"
            "{ int i = blockIdx.x * blockDim.x + threadIdx.x; o[i] = (a[i] ^ key) + i * 3; }\n");
    STREAMS("__global__ void k(float *d, const float *a, float s, int n, int m)\n"
            "{ int i = blockIdx.x * blockDim.x + threadIdx.x; float s2 = s * s;\n"
            "  if (i < n && i <= m) d[i] = a[i] * s2; }\n");
    STREAMS("#define IDX (blockIdx.x * blockDim.x + threadIdx.x)\n"
            "typedef float real;\n"
            "__global__ void k(real *d, const real *a, int n)\n"
            "{ if (!(IDX >= n)) d[IDX] = -a[IDX]; }\n");
}

TEST(kernels_outside_the_shape_keep_their_thread_loop)
{
    /* a second store; a store that is not the last thing the thread does */
    STAYS("__global__ void k(float *d, float *e, const float *a, int n)\n"
          "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) { d[i] = a[i]; e[i] = a[i]; } }\n");
    STAYS("__global__ void k(float *d, const float *a, int n)\n"
          "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) d[i] = a[i]; printf(\"x\"); }\n");
    /* an index other than the thread's own, a load of another thread's element */
    STAYS("__global__ void k(float *d, const float *a, int n)\n"
          "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i + 1 < n) d[i + 1] = a[i]; }\n");
    STAYS("__global__ void k(float *d, const float *a, int n)\n"
          "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n - 1) d[i] = a[i + 1]; }\n");
    STAYS("__global__ void k(float *d, const float *a, int n)\n"
          "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) d[i] = a[0] * a[i]; }\n");
    /* a float stored as an integer (the GPU's saturation), a math function, a comparison */
    STAYS("__global__ void k(int *d, const float *a, int n)\n"
          "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) d[i] = a[i] * 2.0f; }\n");
    STAYS("__global__ void k(float *d, const float *a, int n)\n"
          "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) d[i] = sinf(a[i]); }\n");
    STAYS("__global__ void k(float *d, const float *a, int n)\n"
          "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) d[i] = a[i] > 0 ? a[i] : 0; }\n");
    /* a modified index, a bound below, a bound that varies, shared memory, a loop */
    STAYS("__global__ void k(float *d, const float *a, int n)\n"
          "{ int i = blockIdx.x * blockDim.x + threadIdx.x; i += 0; if (i < n) d[i] = a[i]; }\n");
    STAYS("__global__ void k(float *d, const float *a, int n)\n"
          "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i > n) d[i] = a[i]; }\n");
    STAYS("__global__ void k(float *d, const float *a, const int *n)\n"
          "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n[i]) d[i] = a[i]; }\n");
    STAYS("__global__ void k(float *d, const float *a, int n)\n"
          "{ __shared__ float s[256]; int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "  s[threadIdx.x] = a[i]; if (i < n) d[i] = a[i]; }\n");
    STAYS("__global__ void k(float *d, const float *a, int n)\n"
          "{ for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)\n"
          "    d[i] = a[i]; }\n");
    /* elements of 2 bytes, a volatile destination, the y index */
    STAYS("__global__ void k(short *d, const short *a, int n)\n"
          "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) d[i] = a[i]; }\n");
    STAYS("__global__ void k(volatile float *d, const float *a, int n)\n"
          "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) d[i] = a[i]; }\n");
    STAYS("__global__ void k(float *d, const float *a, int n)\n"
          "{ int i = blockIdx.y * blockDim.y + threadIdx.y; if (i < n) d[i] = a[i]; }\n");
}
