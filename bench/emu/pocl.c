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

struct pocl_job {
    pocl *p;
    cl_handle k, out, a, b;
    cl_uint dims;
    size_t global[2], local[2], out_bytes;
};

void pocl_job_destroy(pocl_job *j)
{
    if (!j)
        return;
    if (j->out)
        j->p->clReleaseMemObject(j->out);
    if (j->a)
        j->p->clReleaseMemObject(j->a);
    if (j->b)
        j->p->clReleaseMemObject(j->b);
    if (j->k)
        j->p->clReleaseKernel(j->k);
    free(j);
}

pocl_job *pocl_job_create(pocl *p, pocl_workload w, const float *a, const float *b, int n,
                          size_t out_count)
{
    static const char *const names[] = {"mul", "pi", "matmul", "warpsum"};
    pocl_job *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    cl_int err = 0;
    *j = (pocl_job){.p = p, .k = p->clCreateKernel(p->program, names[w], &err), .dims = 1,
                    .local = {w == POCL_MATMUL ? 16 : 256, 16},
                    .out_bytes = out_count * sizeof(float)};
    size_t in_bytes = (size_t)(w == POCL_MATMUL ? n * n : n) * sizeof(float);
    j->out = p->clCreateBuffer(p->ctx, CL_MEM_READ_WRITE, j->out_bytes, NULL, &err);
    if (w != POCL_PI)
        j->a = p->clCreateBuffer(p->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, in_bytes,
                                 (void *)a, &err);
    if (w == POCL_MUL || w == POCL_MATMUL)
        j->b = p->clCreateBuffer(p->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, in_bytes,
                                 (void *)b, &err);
    if (!j->k || !j->out || (w != POCL_PI && !j->a) ||
        ((w == POCL_MUL || w == POCL_MATMUL) && !j->b)) {
        pocl_job_destroy(j);
        return NULL;
    }
    cl_uint arg = 0;
    p->clSetKernelArg(j->k, arg++, sizeof j->out, &j->out);
    if (j->a)
        p->clSetKernelArg(j->k, arg++, sizeof j->a, &j->a);
    if (j->b)
        p->clSetKernelArg(j->k, arg++, sizeof j->b, &j->b);
    p->clSetKernelArg(j->k, arg++, sizeof n, &n);
    if (w == POCL_MATMUL) {
        j->dims = 2;
        j->global[0] = j->global[1] = (size_t)n;
    } else {
        j->global[0] = (size_t)n;
    }
    /* The first run builds the kernel for its work-group size: not part of any timing. */
    if (pocl_job_run(j) < 0) {
        pocl_job_destroy(j);
        return NULL;
    }
    return j;
}

double pocl_job_run(pocl_job *j)
{
    double t0 = bench_now_ms();
    if (j->p->clEnqueueNDRangeKernel(j->p->queue, j->k, j->dims, NULL, j->global, j->local, 0,
                                     NULL, NULL) != 0 ||
        j->p->clFinish(j->p->queue) != 0)
        return -1;
    return bench_now_ms() - t0;
}

int pocl_job_read(pocl_job *j, float *out)
{
    return j->p->clEnqueueReadBuffer(j->p->queue, j->out, 1, 0, j->out_bytes, out, 0, NULL,
                                     NULL) == 0
               ? 0
               : -1;
}
