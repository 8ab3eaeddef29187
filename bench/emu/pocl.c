/*
 * The four workloads of bench_emu.c as OpenCL kernels on PoCL's CPU device (issue 12: the
 * peer to beat). libOpenCL is loaded at run time, and the few types and constants used are
 * declared here, so that neither building nor running the bench needs OpenCL: without it,
 * or without a CPU device, pocl_open says why and the bench prints that.
 */
#include "pocl.h"

#include "../bench_clock.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int32_t cl_int;
typedef uint32_t cl_uint;
typedef uint64_t cl_ulong;
typedef struct _cl_opaque *cl_handle; /* every object: platform, device, context... */

enum {
    CL_DEVICE_TYPE_CPU = 1 << 1,
    CL_MEM_READ_WRITE = 1 << 0,
    CL_MEM_COPY_HOST_PTR = 1 << 5,
    CL_PROGRAM_BUILD_LOG = 0x1183,
    CL_PLATFORM_NAME = 0x0902,
};

/* The entry points used, by name: one list for the pointers and the loader. */
#define CL_FUNCS(X)                                                                              \
    X(clGetPlatformIDs, cl_int, (cl_uint, cl_handle *, cl_uint *))                              \
    X(clGetPlatformInfo, cl_int, (cl_handle, cl_uint, size_t, void *, size_t *))                \
    X(clGetDeviceIDs, cl_int, (cl_handle, cl_ulong, cl_uint, cl_handle *, cl_uint *))           \
    X(clCreateContext, cl_handle, (const intptr_t *, cl_uint, const cl_handle *, void *, void *, \
                                   cl_int *))                                                    \
    X(clCreateCommandQueue, cl_handle, (cl_handle, cl_handle, cl_ulong, cl_int *))               \
    X(clCreateProgramWithSource, cl_handle, (cl_handle, cl_uint, const char **, const size_t *,  \
                                             cl_int *))                                          \
    X(clBuildProgram, cl_int, (cl_handle, cl_uint, const cl_handle *, const char *, void *,      \
                               void *))                                                          \
    X(clGetProgramBuildInfo, cl_int, (cl_handle, cl_handle, cl_uint, size_t, void *, size_t *)) \
    X(clCreateKernel, cl_handle, (cl_handle, const char *, cl_int *))                           \
    X(clCreateBuffer, cl_handle, (cl_handle, cl_ulong, size_t, void *, cl_int *))                \
    X(clSetKernelArg, cl_int, (cl_handle, cl_uint, size_t, const void *))                        \
    X(clEnqueueNDRangeKernel, cl_int, (cl_handle, cl_handle, cl_uint, const size_t *,           \
                                       const size_t *, const size_t *, cl_uint, const void *,   \
                                       void *))                                                  \
    X(clEnqueueReadBuffer, cl_int, (cl_handle, cl_handle, cl_uint, size_t, size_t, void *,      \
                                    cl_uint, const void *, void *))                              \
    X(clFinish, cl_int, (cl_handle))                                                             \
    X(clReleaseMemObject, cl_int, (cl_handle))                                                   \
    X(clReleaseKernel, cl_int, (cl_handle))                                                      \
    X(clReleaseProgram, cl_int, (cl_handle))                                                     \
    X(clReleaseCommandQueue, cl_int, (cl_handle))                                                \
    X(clReleaseContext, cl_int, (cl_handle))

struct pocl {
    void *lib;
#define X(name, ret, args) ret(*name) args;
    CL_FUNCS(X)
#undef X
    cl_handle ctx, queue, program;
};

/* The kernels as an OpenCL programmer would write them; (d) has no sub-groups on PoCL's
 * CPU device, so it reduces each 32 work-items' values in local memory. */
static const char cl_src[] =
    "__kernel void mul(__global float *d, __global const float *a, __global const float *b, int n)\n"
    "{ int i = get_global_id(0); if (i < n) d[i] = a[i] * b[i]; }\n"
    "__kernel void pi(__global float *partial, int n)\n"
    "{\n"
    "    __local float s[256];\n"
    "    int t = get_local_id(0), i = get_global_id(0);\n"
    "    float x = (i + 0.5f) / n;\n"
    "    s[t] = i < n ? 4.0f / (1.0f + x * x) : 0.0f;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int k = get_local_size(0) / 2; k > 0; k >>= 1) {\n"
    "        if (t < k) s[t] += s[t + k];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (t == 0) partial[get_group_id(0)] = s[0] / n;\n"
    "}\n"
    "__kernel void matmul(__global float *c, __global const float *a, __global const float *b, int n)\n"
    "{\n"
    "    __local float as[16][16], bs[16][16];\n"
    "    int tx = get_local_id(0), ty = get_local_id(1);\n"
    "    int row = get_group_id(1) * 16 + ty, col = get_group_id(0) * 16 + tx;\n"
    "    float sum = 0.0f;\n"
    "    for (int t = 0; t < n / 16; t++) {\n"
    "        as[ty][tx] = a[row * n + t * 16 + tx];\n"
    "        bs[ty][tx] = b[(t * 16 + ty) * n + col];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        for (int k = 0; k < 16; k++) sum += as[ty][k] * bs[k][tx];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    c[row * n + col] = sum;\n"
    "}\n"
    "__kernel void warpsum(__global float *out, __global const float *a, int n)\n"
    "{\n"
    "    __local float s[256];\n"
    "    int t = get_local_id(0), i = get_global_id(0), lane = t & 31;\n"
    "    s[t] = i < n ? a[i] : 0.0f;\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (int o = 16; o > 0; o >>= 1) {\n"
    "        float v = lane + o < 32 ? s[t + o] : 0.0f;\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        s[t] += v;\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (lane == 0) out[i / 32] = s[t];\n"
    "}\n";

void pocl_close(pocl *p)
{
    if (!p)
        return;
    if (p->program)
        p->clReleaseProgram(p->program);
    if (p->queue)
        p->clReleaseCommandQueue(p->queue);
    if (p->ctx)
        p->clReleaseContext(p->ctx);
    if (p->lib)
        dlclose(p->lib);
    free(p);
}

pocl *pocl_open(char *why, size_t size)
{
    pocl *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(why, size, "out of memory");
        return NULL;
    }
    p->lib = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!p->lib) {
        snprintf(why, size, "no libOpenCL.so.1 (apt-get install pocl-opencl-icd ocl-icd-libopencl1)");
        pocl_close(p);
        return NULL;
    }
#define X(name, ret, args)                                                                       \
    if (!(*(void **)&p->name = dlsym(p->lib, #name))) {                                          \
        snprintf(why, size, "libOpenCL.so.1 lacks %s", #name);                                   \
        pocl_close(p);                                                                           \
        return NULL;                                                                             \
    }
    CL_FUNCS(X)
#undef X
    /* PoCL's platform, by name: another vendor's CPU device is not the peer measured. */
    cl_handle platforms[16], device = NULL;
    cl_uint np = 0;
    if (p->clGetPlatformIDs(16, platforms, &np) != 0)
        np = 0;
    for (cl_uint i = 0; i < np && i < 16 && !device; i++) {
        char name[256] = "";
        p->clGetPlatformInfo(platforms[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
        cl_uint nd = 0;
        if (strstr(name, "Portable Computing Language"))
            p->clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_CPU, 1, &device, &nd);
        if (nd == 0)
            device = NULL;
    }
    if (!device) {
        snprintf(why, size, "no PoCL CPU device among %u OpenCL platform(s)", np);
        pocl_close(p);
        return NULL;
    }
    cl_int err = 0;
    p->ctx = p->clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    if (p->ctx)
        p->queue = p->clCreateCommandQueue(p->ctx, device, 0, &err);
    const char *text = cl_src;
    if (p->queue)
        p->program = p->clCreateProgramWithSource(p->ctx, 1, &text, NULL, &err);
    if (!p->program || p->clBuildProgram(p->program, 1, &device, "", NULL, NULL) != 0) {
        char log[2048] = "";
        if (p->program)
            p->clGetProgramBuildInfo(p->program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        snprintf(why, size, "PoCL could not build the kernels (%d): %s", err, log);
        pocl_close(p);
        return NULL;
    }
    return p;
}

typedef struct run {
    pocl *p;
    cl_handle k;
    cl_uint dims;
    size_t global[2], local[2];
} run;

static int run_once(const run *r)
{
    return r->p->clEnqueueNDRangeKernel(r->p->queue, r->k, r->dims, NULL, r->global, r->local, 0,
                                        NULL, NULL) == 0 &&
                   r->p->clFinish(r->p->queue) == 0
               ? 0
               : -1;
}

double pocl_time(pocl *p, pocl_workload w, const float *a, const float *b, int n, int reps,
                 float *out, size_t out_count)
{
    static const char *const names[] = {"mul", "pi", "matmul", "warpsum"};
    cl_int err = 0;
    run r = {.p = p, .k = p->clCreateKernel(p->program, names[w], &err), .dims = 1,
             .local = {w == POCL_MATMUL ? 16 : 256, 16}};
    if (!r.k)
        return -1;
    size_t in_bytes = (size_t)(w == POCL_MATMUL ? n * n : n) * sizeof(float);
    cl_handle dout = p->clCreateBuffer(p->ctx, CL_MEM_READ_WRITE, out_count * sizeof(float), NULL, &err);
    cl_handle da = NULL, db = NULL;
    if (w != POCL_PI)
        da = p->clCreateBuffer(p->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, in_bytes, (void *)a, &err);
    if (w == POCL_MUL || w == POCL_MATMUL)
        db = p->clCreateBuffer(p->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, in_bytes, (void *)b, &err);
    cl_uint arg = 0;
    p->clSetKernelArg(r.k, arg++, sizeof dout, &dout);
    if (da)
        p->clSetKernelArg(r.k, arg++, sizeof da, &da);
    if (db)
        p->clSetKernelArg(r.k, arg++, sizeof db, &db);
    p->clSetKernelArg(r.k, arg++, sizeof n, &n);
    if (w == POCL_MATMUL) {
        r.dims = 2;
        r.global[0] = r.global[1] = (size_t)n;
    } else {
        r.global[0] = (size_t)n;
    }
    double t[64], ms = -1;
    if (run_once(&r) == 0) {
        for (int i = 0; i < reps; i++) {
            double t0 = bench_now_ms();
            run_once(&r);
            t[i] = bench_now_ms() - t0;
        }
        bench_sort(t, (size_t)reps);
        ms = t[reps / 2];
        if (p->clEnqueueReadBuffer(p->queue, dout, 1, 0, out_count * sizeof(float), out, 0, NULL,
                                   NULL) != 0)
            ms = -1;
    }
    p->clReleaseMemObject(dout);
    if (da)
        p->clReleaseMemObject(da);
    if (db)
        p->clReleaseMemObject(db);
    p->clReleaseKernel(r.k);
    return ms;
}
