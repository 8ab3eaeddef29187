/* The device heap: a kernel's malloc and free. Memory lives across launches until a kernel
 * frees it, a full heap gives NULL (both as on a GPU, so these run cross-checked); on the
 * emulator a bad free fails the launch, what kernels never free goes with the context, and
 * the checks and the launch's pointer check know heap addresses. */
#include "harness.h"

#include <stdint.h>
#include <string.h>

enum { N = 300 };

/* The pointers live in a module variable: cross-checking compares the parameters'
 * buffers, and addresses differ between a GPU and the emulator. */
static const char heap_src[] =
    "__device__ unsigned long long slots[300];\n"
    "__global__ void keep(const float *in, int *aligned, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i >= n) return;\n"
    "    int len = 4 + i % 5;\n"
    "    float *q = (float *)malloc(len * sizeof(float));\n"
    "    aligned[i] = q != 0 && ((unsigned long long)q & 15) == 0;\n"
    "    if (q)\n"
    "        for (int j = 0; j < len; j++)\n"
    "            q[j] = in[i] * (float)(j + 1);\n"
    "    slots[i] = (unsigned long long)q;\n"
    "}\n"
    "__global__ void sum_and_free(float *out, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i >= n) return;\n"
    "    float *q = (float *)slots[i];\n"
    "    float s = 0.0f;\n"
    "    for (int j = 0; j < 4 + i % 5; j++)\n"
    "        s += q[j];\n"
    "    out[i] = s;\n"
    "    free(q);\n"
    "}\n";

/* Fills the heap's memory in one launch, reads and frees it in the next. */
static void keep_then_sum(lat_context *ctx)
{
    float in[N], out[N];
    int aligned[N];
    t_rand_floats(in, N, -4.0f, 4.0f);
    lat_deviceptr din = t_device_copy(ctx, in, sizeof in);
    lat_deviceptr dal = t_device_copy(ctx, NULL, sizeof aligned);
    lat_deviceptr dout = t_device_copy(ctx, NULL, sizeof out);
    int n = N;
    lat_launch_desc d = {.grid = {(N + 63) / 64}, .block = {64}};
    lat_module *m;
    lat_kernel *keep, *sum;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = heap_src, .name = "heap.cu"}, &m));
    ASSERT_OK(lat_module_get_kernel(m, "keep", &keep));
    ASSERT_OK(lat_module_get_kernel(m, "sum_and_free", &sum));
    void *p1[] = {&din, &dal, &n};
    ASSERT_OK(lat_launch(keep, &d, p1));
    void *p2[] = {&dout, &n};
    ASSERT_OK(lat_launch(sum, &d, p2));
    lat_module_destroy(m);
    ASSERT_OK(lat_memcpy_dtoh(ctx, out, dout, sizeof out));
    ASSERT_OK(lat_memcpy_dtoh(ctx, aligned, dal, sizeof aligned));
    for (int i = 0; i < N; i++) {
        double want = 0;
        for (int j = 0; j < 4 + i % 5; j++)
            want += (double)(in[i] * (float)(j + 1));
        ASSERT_TRUE(aligned[i] == 1);
        ASSERT_TRUE(t_close(out[i], want, 1e-5, 1e-5));
    }
}

TEST(malloc_memory_lives_across_launches_until_a_kernel_frees_it)
{
    lat_context *ctx = t_context();
    /* Twice: the second round reuses what the first freed. */
    keep_then_sum(ctx);
    keep_then_sum(ctx);
}

TEST(a_full_heap_gives_null)
{
    static const char src[] =
        "__global__ void big(int *got)\n"
        "{\n"
        "    char *p = (char *)malloc((size_t)16 << 20);\n" /* twice the default heap */
        "    char *q = (char *)malloc(1000);\n"
        "    got[0] = p == 0;\n"
        "    got[1] = q != 0;\n"
        "    if (q) { q[999] = 7; got[2] = q[999]; free(q); }\n"
        "}\n";
    lat_context *ctx = t_context();
    lat_deviceptr d = t_device_copy(ctx, NULL, 3 * sizeof(int));
    void *params[] = {&d};
    ASSERT_OK(lat_launch(t_kernel(ctx, src, "big"), &(lat_launch_desc){.grid = {1}, .block = {1}},
                         params));
    int got[3];
    ASSERT_OK(lat_memcpy_dtoh(ctx, got, d, sizeof got));
    ASSERT_EQ(got[0], 1);
    ASSERT_EQ(got[1], 1);
    ASSERT_EQ(got[2], 7);
}

TEST(a_free_of_what_malloc_did_not_return_fails_the_launch)
{
    lat_context *ctx = t_context();
    if (!t_is_emu(ctx) || t_require_backend() == LAT_BACKEND_CROSS)
        SKIP("a GPU's bad free is undefined (the emulator's is an error)");
    static const char src[] =
        "__global__ void bad(int *dev, int twice)\n"
        "{\n"
        "    if (threadIdx.x != 3) return;\n"
        "    if (!twice) { free(dev); return; }\n"
        "    int *q = (int *)malloc(8);\n"
        "    free(q);\n"
        "    free(q);\n"
        "}\n";
    lat_kernel *k = t_kernel(ctx, src, "bad");
    lat_deviceptr d = t_device_copy(ctx, NULL, 64);
    for (int twice = 0; twice <= 1; twice++) {
        void *params[] = {&d, &twice};
        ASSERT_STATUS(LAT_ERROR_LAUNCH_FAILED,
                      lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {8}}, params));
        ASSERT_CONTAINS(lat_last_error(), "thread (3,0,0): free(");
        ASSERT_CONTAINS(lat_last_error(), "not an address the kernels' malloc returned");
    }
    /* The context goes on. */
    keep_then_sum(ctx);
}

static int heap_notes;

static void count_heap_notes(void *user, lat_log_level level, const char *message)
{
    (void)user;
    if (level == LAT_LOG_INFO && strstr(message, "allocations of malloc") &&
        strstr(message, "kernels left 64"))
        heap_notes++;
}

/* Found by fuzzing: what kernels never freed stayed allocated after the context (a leak
 * of the process's, 1 KiB per launch here). */
TEST(what_kernels_never_free_goes_with_the_context)
{
    lat_backend_kind b = t_require_backend();
    if (b == LAT_BACKEND_CUDA || b == LAT_BACKEND_CROSS)
        SKIP("the emulator's heap (a GPU's goes with its context too)");
    static const char src[] =
        "__global__ void leaky(int *out)\n"
        "{\n"
        "    int *q = (int *)malloc(4 * sizeof(int));\n"
        "    q[0] = threadIdx.x;\n"
        "    out[threadIdx.x] = q[0];\n"
        "}\n";
    for (unsigned check = 0; check <= 1; check++) {
        heap_notes = 0;
        lat_context *ctx;
        ASSERT_OK(lat_context_create(&(lat_context_desc){.backend = t_backend(),
                                                         .check = check ? LAT_CHECK_ALL : LAT_CHECK_OFF,
                                                         .logger = {count_heap_notes, NULL}},
                                     &ctx));
        lat_module *m;
        ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "leaky.cu"}, &m));
        lat_kernel *k;
        ASSERT_OK(lat_module_get_kernel(m, "leaky", &k));
        lat_deviceptr d;
        ASSERT_OK(lat_mem_alloc(ctx, 64 * sizeof(int), &d));
        void *params[] = {&d};
        ASSERT_OK(lat_launch(k, &(lat_launch_desc){.grid = {1}, .block = {64}}, params));
        int out[64];
        ASSERT_OK(lat_memcpy_dtoh(ctx, out, d, sizeof out));
        for (int i = 0; i < 64; i++)
            ASSERT_EQ(out[i], i);
        lat_mem_free(ctx, d);
        lat_context_destroy(ctx);
        ASSERT_EQ(heap_notes, 1);
    }
}

/* Before: memcheck called every access to heap memory an out-of-bounds access of the
 * nearest allocation, or an access to no allocation, and skipped it. */
TEST(the_checks_and_the_pointer_check_know_heap_memory)
{
    lat_backend_kind b = t_require_backend();
    if (b == LAT_BACKEND_CUDA || b == LAT_BACKEND_CROSS)
        SKIP("the emulator's checks");
    static const char src[] =
        "__global__ void hand_out(unsigned long long *ptrs)\n"
        "{\n"
        "    int *q = (int *)malloc(4 * sizeof(int));\n"
        "    q[0] = threadIdx.x; q[3] = 3 * threadIdx.x;\n"
        "    ptrs[threadIdx.x] = (unsigned long long)q;\n"
        "}\n"
        "__global__ void take_back(int *q, int *out)\n"
        "{\n"
        "    out[0] = q[0] + q[3];\n"
        "    free(q);\n"
        "}\n";
    lat_context *ctx = t_context_with(&(lat_context_desc){.check = LAT_CHECK_ALL,
                                                          .pointer_check = LAT_POINTER_CHECK_ON});
    lat_kernel *give = t_kernel(ctx, src, "hand_out");
    lat_kernel *take = t_kernel(ctx, src, "take_back");
    lat_deviceptr dptrs = t_device_copy(ctx, NULL, 32 * sizeof(unsigned long long));
    lat_deviceptr dout = t_device_copy(ctx, NULL, sizeof(int));
    void *p1[] = {&dptrs};
    ASSERT_OK(lat_launch(give, &(lat_launch_desc){.grid = {1}, .block = {32}}, p1));
    unsigned long long ptrs[32];
    ASSERT_OK(lat_memcpy_dtoh(ctx, ptrs, dptrs, sizeof ptrs));
    for (int i = 0; i < 32; i++) {
        lat_deviceptr q = (lat_deviceptr)ptrs[i];
        void *p2[] = {&q, &dout};
        ASSERT_OK(lat_launch(take, &(lat_launch_desc){.grid = {1}, .block = {1}}, p2));
        int out;
        ASSERT_OK(lat_memcpy_dtoh(ctx, &out, dout, sizeof out));
        ASSERT_EQ(out, 4 * i);
    }
}

/* The emulator's pointer check takes a heap address for one. (On a GPU the driver does
 * not say where its heap is: the opt-in check refuses it, as docs/dialect.md says.) */
TEST(a_heap_pointer_passes_the_pointer_check)
{
    lat_backend_kind b = t_require_backend();
    if (b == LAT_BACKEND_CROSS)
        SKIP("a heap address is one side's: the other's differs");
    if (b == LAT_BACKEND_CUDA)
        SKIP("the driver does not know its heap's addresses (seen on an H100, driver 580)");
    static const char src[] =
        "__global__ void give(unsigned long long *ptr)\n"
        "{\n"
        "    int *q = (int *)malloc(2 * sizeof(int));\n"
        "    q[0] = 41; q[1] = 1;\n"
        "    *ptr = (unsigned long long)q;\n"
        "}\n"
        "__global__ void take(int *q, int *out)\n"
        "{\n"
        "    *out = q[0] + q[1];\n"
        "    free(q);\n"
        "}\n";
    lat_context *ctx = t_context_with(&(lat_context_desc){.pointer_check = LAT_POINTER_CHECK_ON});
    lat_deviceptr dptr = t_device_copy(ctx, NULL, sizeof(unsigned long long));
    lat_deviceptr dout = t_device_copy(ctx, NULL, sizeof(int));
    void *p1[] = {&dptr};
    ASSERT_OK(lat_launch(t_kernel(ctx, src, "give"), &(lat_launch_desc){.grid = {1}, .block = {1}}, p1));
    unsigned long long ptr;
    ASSERT_OK(lat_memcpy_dtoh(ctx, &ptr, dptr, sizeof ptr));
    lat_deviceptr q = (lat_deviceptr)ptr;
    void *p2[] = {&q, &dout};
    ASSERT_OK(lat_launch(t_kernel(ctx, src, "take"), &(lat_launch_desc){.grid = {1}, .block = {1}}, p2));
    int out;
    ASSERT_OK(lat_memcpy_dtoh(ctx, &out, dout, sizeof out));
    ASSERT_EQ(out, 42);
}

/* C++'s new and delete in device code take the heap's memory as malloc and free do (the
 * curand idiom `curandState_t *s = new curandState_t;` of PyCUDA programs): new T[n] and
 * new T of a struct without constructors, kept across launches, read and deleted. */
static const char new_src[] =
    "struct Pair { float a; int b; };\n"
    "__device__ unsigned long long arrays[300], pairs[300];\n"
    "__global__ void make(const float *in, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i >= n) return;\n"
    "    int len = 3 + i % 4;\n"
    "    float *q = new float[len];\n"
    "    Pair *p = new Pair;\n"
    "    if (q) for (int j = 0; j < len; j++) q[j] = in[i] + (float)j;\n"
    "    if (p) { p->a = in[i] * 2.0f; p->b = len; }\n"
    "    arrays[i] = (unsigned long long)q;\n"
    "    pairs[i] = (unsigned long long)p;\n"
    "}\n"
    "__global__ void use_and_delete(float *out, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i >= n) return;\n"
    "    float *q = (float *)arrays[i];\n"
    "    Pair *p = (Pair *)pairs[i];\n"
    "    float s = p->a;\n"
    "    for (int j = 0; j < p->b; j++) s += q[j];\n"
    "    out[i] = s;\n"
    "    delete[] q;\n"
    "    delete p;\n"
    "}\n";

TEST(new_and_delete_take_and_give_back_the_heaps_memory)
{
    lat_context *ctx = t_context();
    float in[N], out[N];
    t_rand_floats(in, N, -4.0f, 4.0f);
    lat_deviceptr din = t_device_copy(ctx, in, sizeof in);
    lat_deviceptr dout = t_device_copy(ctx, NULL, sizeof out);
    int n = N;
    lat_launch_desc d = {.grid = {(N + 63) / 64}, .block = {64}};
    lat_module *m;
    lat_kernel *make, *use;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = new_src, .name = "new.cu"}, &m));
    ASSERT_OK(lat_module_get_kernel(m, "make", &make));
    ASSERT_OK(lat_module_get_kernel(m, "use_and_delete", &use));
    for (int round = 0; round < 2; round++) { /* the second reuses what the first deleted */
        void *p1[] = {&din, &n};
        ASSERT_OK(lat_launch(make, &d, p1));
        void *p2[] = {&dout, &n};
        ASSERT_OK(lat_launch(use, &d, p2));
        ASSERT_OK(lat_memcpy_dtoh(ctx, out, dout, sizeof out));
        for (int i = 0; i < N; i++) {
            double want = (double)(in[i] * 2.0f);
            for (int j = 0; j < 3 + i % 4; j++)
                want += (double)(in[i] + (float)j);
            ASSERT_MSG(t_close(out[i], want, 1e-5, 1e-5), "out[%d] = %g, expected %g", i, out[i], want);
        }
    }
    lat_module_destroy(m);
}
