/* C++ kernels from public code bases (issue 42): ggml/llama.cpp, PyTorch, cupy, faiss, cuDF,
 * CUB-style and thrust-style functors, cuda-samples, Rodinia, Kokkos-style functors. Each
 * kernel lives in tests/corpus/public/ (its source recorded there, run on a GPU by
 * lattice-corpus for truth) and runs here on random inputs against a host reference; and
 * the C++ mechanisms they needed (several base classes, lambdas capturing this) are
 * tested on their own. */
#include "harness.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef TEST_KERNELS_DIR
#error "meson passes TEST_KERNELS_DIR, the folder of tests/kernels/*.cu"
#endif

#define PUBLIC_DIR TEST_KERNELS_DIR "/../corpus/public/"

/* The message a module that should not compile gets (NULL: it compiled). */
static const char *cxx_error(lat_context *ctx, const char *src)
{
    lat_module *mod = NULL;
    lat_status st = lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "t.cu", .no_extern_c = 1},
                                      &mod);
    if (st == LAT_OK) {
        lat_module_destroy(mod);
        return NULL;
    }
    return lat_last_error();
}

/* The kernel `name` (a name expression) of the file tests/corpus/public/`file`. */
static lat_kernel *public_kernel(lat_context *ctx, const char *file, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s%s", PUBLIC_DIR, file);
    const char *names[] = {name, NULL};
    lat_module *mod = NULL;
    lat_status st = lat_module_create(ctx, &(lat_module_desc){.path = path, .name_expressions = names}, &mod);
    if (st != LAT_OK)
        FAIL("lat_module_create(%s): %s", file, lat_last_error());
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(mod, name, &k));
    return k;
}

/* ---- several base classes ------------------------------------------------------------- */

/* A class of several bases, laid out as the Itanium C++ ABI lays it out (g++ and NVCC
 * agree: an empty base takes no room, each base with data at its alignment after the one
 * before, then the class's own): a pointer or reference to each base is the address of
 * its subobject, static_cast comes back, a null pointer stays null, a base's member
 * functions run on their subobject, by plain names inside the class too, and a
 * constructor's list makes each base. */
TEST(several_base_classes_are_laid_out_as_the_abi_and_convert_to_their_subobjects)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct Tag {};\n"
        "struct A { char c; __device__ int ca() const { return c * 3; } };\n"
        "struct B { double x; int y; int z;\n"
        "  __device__ B() : x(0), y(0), z(0) {}\n"
        "  __device__ B(double a, int b) : x(a), y(b), z(7) {}\n"
        "  __device__ double fb() const { return x + y + z; } };\n"
        "struct C { short s; __device__ int cs() const { return s - 1; } };\n"
        "struct D : Tag, A, public B, C { int own;\n"
        "  __device__ D(char c_, double x_, int y_, short s_, int o) : B(x_, y_), own(o) { c = c_; s = s_; }\n"
        "  __device__ double all() const { return ca() + fb() + cs() + own + B::fb(); } };\n"
        "__device__ double via_b(const B &b) { return b.fb(); }\n"
        "__device__ int via_c(const C *p) { return p ? p->cs() : -100; }\n"
        "extern \"C\" __global__ void k(const double *in, double *out, int *lay, int n) {\n"
        "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  if (t >= n) return;\n"
        "  D d((char)(t % 100), in[t], t * 2, (short)(t + 10), 100 + t);\n"
        "  C *pc = &d;\n"
        "  D *back = static_cast<D *>(pc);\n"
        "  D *none = 0;\n"
        "  C *nul = none;\n"
        "  B &rb = d;\n"
        "  rb.z += 1;\n"
        "  out[t] = d.all() + via_b(d) * 1000 + via_c(pc) * 100000 + back->own * 1e7 + via_c(nul) * 1e9 + (nul == 0);\n"
        "  if (t == 0) {\n"
        "    lay[0] = sizeof(D); lay[1] = (int)((char *)(B *)&d - (char *)&d);\n"
        "    lay[2] = (int)((char *)(C *)&d - (char *)&d); lay[3] = (int)((char *)&d.own - (char *)&d);\n"
        "    lay[4] = (int)((char *)&d.s - (char *)&d); lay[5] = (int)((char *)(A *)&d - (char *)&d);\n"
        "    lay[6] = (int)((char *)(Tag *)&d - (char *)&d); lay[7] = alignof(D);\n"
        "  }\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    enum { n = 200 };
    double in[n], out[n];
    int lay[8];
    for (int i = 0; i < n; i++)
        in[i] = t_rand_double(-4, 4);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {4}, .block = {64}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out),
                                       lat_arg_out(lay, sizeof lay), lat_arg_i32(n))));
    /* g++ and NVCC: sizeof 32; B at 8, C at 24, own at 28, A and the empty Tag at 0 */
    static const int want_lay[8] = {32, 8, 24, 28, 24, 0, 0, 8};
    for (int i = 0; i < 8; i++)
        ASSERT_MSG(lay[i] == want_lay[i], "layout[%d] = %d, want %d", i, lay[i], want_lay[i]);
    for (int t = 0; t < n; t++) {
        double fb = in[t] + t * 2 + 8; /* z is 7, then 8 through the reference */
        double all = (t % 100) * 3 + fb + (t + 10 - 1) + (100 + t) + fb;
        double want = all + fb * 1000 + (t + 10 - 1) * 100000.0 + (100 + t) * 1e7 - 100 * 1e9 + 1;
        ASSERT_MSG(t_close(out[t], want, 1e-13, 0), "out[%d] = %.17g, want %.17g", t, out[t], want);
    }
}

/* A class template deriving from two class templates (Kokkos-style functors mix in their
 * views and parameters); a base's member function named through the derived class; the
 * curiously recurring base beside a base with data. */
TEST(a_class_template_of_two_template_bases_runs_each_base_on_its_subobject)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <class T> struct View { T *ptr; size_t n; __device__ T &operator()(int i) const { return ptr[i]; } };\n"
        "template <class T> struct Coeffs { T a, b; __device__ T lin(T x) const { return a * x + b; } };\n"
        "template <class D> struct Crtp { __device__ void run(int i) const { static_cast<const D *>(this)->step(i); } };\n"
        "template <class T> struct Axpb : Crtp<Axpb<T>>, View<T>, Coeffs<T> {\n"
        "  __device__ Axpb(T *p, size_t n, T a, T b) { this->ptr = p; this->n = n; this->a = a; this->b = b; }\n"
        "  __device__ void step(size_t i) const { if (i < this->n) (*this)(i) = this->lin((*this)(i)); }\n"
        "};\n"
        "extern \"C\" __global__ void k(float *x, int n, float a, float b) {\n"
        "  Axpb<float> f(x, n, a, b);\n"
        "  const Coeffs<float> &c = f;\n"
        "  f.run(blockIdx.x * blockDim.x + threadIdx.x);\n"
        "  if (blockIdx.x == 0 && threadIdx.x == 0) x[n] = c.lin(1.0f);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    enum { n = 300 };
    float x[n + 1], want[n + 1];
    t_rand_floats(x, n, -3, 3);
    x[n] = 0;
    for (int i = 0; i < n; i++)
        want[i] = 1.5f * x[i] + -0.25f;
    want[n] = 1.5f + -0.25f;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {5}, .block = {64}},
                              LAT_ARGS(lat_arg_inout(x, sizeof x), lat_arg_i32(n), lat_arg_f32(1.5f),
                                       lat_arg_f32(-0.25f))));
    for (int i = 0; i <= n; i++)
        ASSERT_MSG(t_close(x[i], want[i], 1e-6, 1e-7), "x[%d] = %.9g, want %.9g", i, x[i], want[i]);
}

/* What C++ calls ambiguous is an error naming it; what lattice cannot lay out as the ABI
 * does is refused naming the case. */
TEST(ambiguous_and_unsupported_bases_are_errors_that_name_them)
{
    lat_context *ctx = t_context();
    if (!t_is_emu(ctx))
        SKIP("the emulator's messages");
    const char *err = cxx_error(ctx, "struct A { int a; __device__ int f() const { return a; } };\n"
                                     "struct B { int b; __device__ int f() const { return b; } };\n"
                                     "struct D : A, B { };\n"
                                     "extern \"C\" __global__ void k(int *o) { D d; d.a = 1; d.b = 2; o[0] = d.f(); }\n");
    ASSERT_TRUE(err != NULL);
    ASSERT_CONTAINS(err, "t.cu:4:72: error: 'f' is ambiguous in D: a member of its bases 'A' and 'B'");
    err = cxx_error(ctx, "struct V { int v; };\n"
                         "struct A : V { int a; };\n"
                         "struct B : V { int b; };\n"
                         "struct D : A, B { };\n"
                         "extern \"C\" __global__ void k(int *o) { D d; V *p = &d; o[0] = p->v; }\n");
    ASSERT_TRUE(err != NULL);
    ASSERT_CONTAINS(err, "'V' is an ambiguous base of 'D'");
    err = cxx_error(ctx, "struct P { double d; char c; };\n"
                         "struct Q { int q; };\n"
                         "struct D : P, Q { };\n"
                         "extern \"C\" __global__ void k(int *o) { D d; o[0] = d.q; }\n");
    ASSERT_TRUE(err != NULL);
    ASSERT_CONTAINS(err, "t.cu:3:8: error: a base class ending in padding followed by other data (C would place");
    err = cxx_error(ctx, "struct B { float x; };\n"
                         "struct D : B, virtual B { };\n"
                         "extern \"C\" __global__ void k(float *o) { D d; o[0] = d.x; }\n");
    ASSERT_TRUE(err != NULL);
    ASSERT_CONTAINS(err, "t.cu:2:15: error: a virtual base class");
    /* C++17 gives {2.5, 3} to the base; C would give 2.5 to x and 3 to own: refused */
    err = cxx_error(ctx, "struct B { double x; int y; int z; };\n"
                         "struct D : B { int own; };\n"
                         "extern \"C\" __global__ void k(double *o) { D d{{2.5, 3}, 4}; o[0] = d.own; }\n");
    ASSERT_TRUE(err != NULL);
    ASSERT_CONTAINS(err, "t.cu:3:47: error: braces around a base class's members in an aggregate's initializer");
    /* a pointer to member type is taken apart (PyTorch's function_traits); a pointer to
     * a data member is refused by name */
    err = cxx_error(ctx, "template <typename T> struct ft;\n"
                         "template <typename C, typename R, typename... A> struct ft<R (C::*)(A...) const> {\n"
                         "  static constexpr int arity = sizeof...(A); };\n"
                         "struct S { int m; };\n"
                         "extern \"C\" __global__ void k(int *o) { o[0] = ft<int (S::*)(float, int) const>::arity; }\n");
    ASSERT_TRUE(err == NULL);
    err = cxx_error(ctx, "struct S { int m; };\n"
                         "extern \"C\" __global__ void k(int *o) { int S::*pm = nullptr; o[0] = 1; }\n");
    ASSERT_TRUE(err != NULL);
    ASSERT_CONTAINS(err, "t.cu:2:45: error: a pointer to a data member (T C::*) is not supported");
}

/* ---- lambdas capturing this ------------------------------------------------------------ */

/* A lambda in a member function names the class's members and calls its member functions
 * through the captured this ([&] and [=] capture the pointer, [this] names it), as Kokkos
 * classes write KOKKOS_LAMBDA bodies; what it changes through this is the object's. */
TEST(lambdas_in_member_functions_capture_this)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <class F> __device__ void for_each_n(int n, F f) { for (int i = 0; i < n; i++) f(i); }\n"
        "struct Acc {\n"
        "  const float *in; float sum; int n; float w;\n"
        "  __device__ float weight() const { return w; }\n"
        "  __device__ void add(int k) {\n"
        "    for_each_n(k, [&](int i) { sum += in[i] * weight(); n++; });\n"
        "    auto mean = [this]() { return this->sum / n; };\n"
        "    auto scaled = [=](float s) { return s * sum + w; };\n"
        "    sum = mean() + scaled(0.0f);\n"
        "  }\n"
        "};\n"
        "template <typename T> struct Op { T a;\n"
        "  __device__ T apply(T x) const { auto f = [=](T y) { return a * y + a; }; return f(x); } };\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  if (t >= n) return;\n"
        "  Acc a{in + t, 0.0f, 0, 0.5f};\n"
        "  a.add(4);\n"
        "  Op<float> o{3.0f};\n"
        "  out[t] = a.sum + o.apply(in[t]) * 100 + a.n * 10000;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    enum { n = 256 };
    float in[n + 3], out[n];
    t_rand_floats(in, n + 3, -2, 2);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {4}, .block = {64}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out), lat_arg_i32(n))));
    for (int t = 0; t < n; t++) {
        float sum = 0;
        for (int i = 0; i < 4; i++)
            sum += in[t + i] * 0.5f;
        float mean = sum / 4, want = (mean + (0.0f * sum + 0.5f)) + (3.0f * in[t] + 3.0f) * 100 + 4 * 10000;
        ASSERT_MSG(t_close(out[t], want, 1e-6, 1e-6), "out[%d] = %.9g, want %.9g", t, out[t], want);
    }
    if (t_is_emu(ctx)) {
        /* [*this] of a generic lambda: refused by name */
        const char *err = cxx_error(ctx, "struct S { float m; __device__ float f(float x)\n"
                                         "  { auto g = [*this](auto y) { return y * m; }; return g(x); } };\n"
                                         "extern \"C\" __global__ void k(float *o) { S s{2.0f}; o[0] = s.f(1.0f); }\n");
        ASSERT_TRUE(err != NULL);
        ASSERT_CONTAINS(err, "t.cu:2:14: error: capturing this in a generic lambda");
        /* a generic lambda's body is read where this is unknown: refused, never misread */
        err = cxx_error(ctx, "struct S { float m; __device__ float f(float x)\n"
                             "  { auto g = [&](auto y) { return y * m; }; return g(x); } };\n"
                             "extern \"C\" __global__ void k(float *o) { S s{2.0f}; o[0] = s.f(1.0f); }\n");
        ASSERT_TRUE(err != NULL);
        ASSERT_CONTAINS(err, "t.cu:2:39: error: a generic lambda naming a member of the class");
    }
}

/* A lambda inside a generic lambda names the generic lambda's captures (its members,
 * through its this). */
TEST(a_lambda_in_a_generic_lambda_names_its_captures)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "extern \"C\" __global__ void k(const float *in, float *out, int n) {\n"
        "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  if (t >= n) return;\n"
        "  float s = in[t] + 2;\n"
        "  auto f = [&](auto x) { auto g = [&](float y) { return y * s; }; return g(x); };\n"
        "  auto h = [=](auto x) { auto g = [=](float y) { return y - s; }; return g(x); };\n"
        "  out[t] = f(1.0f + t) + h(3.0f) * 1000;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    enum { n = 128 };
    float in[n], out[n];
    t_rand_floats(in, n, -2, 2);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {2}, .block = {64}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out), lat_arg_i32(n))));
    for (int t = 0; t < n; t++) {
        float s = in[t] + 2, want = (1.0f + t) * s + (3.0f - s) * 1000;
        ASSERT_MSG(t_close(out[t], want, 1e-6, 1e-6), "out[%d] = %.9g, want %.9g", t, out[t], want);
    }
}


/* ---- ggml (llama.cpp) ----------------------------------------------------------------------- */

/* Rows normalised by their root mean square (ggml's rms_norm_f32<1024>: a warp reduction,
 * then one across the block's warps) or to mean 0 and variance 1 (norm_f32<32>: a float2
 * overload of the warp reduction). */
TEST(ggml_rms_norm_and_norm_match_a_double_reference)
{
    lat_context *ctx = t_context();
    enum { rows = 4, cols = 2048 };
    static float x[rows * cols], out[rows * cols];
    t_rand_floats(x, rows * cols, -2, 2);
    lat_kernel *k = public_kernel(ctx, "ggml_rms_norm_f32.cu", "rms_norm_f32<1024>");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {rows}, .block = {1024}},
                              LAT_ARGS(lat_arg_in(x, sizeof x), lat_arg_out(out, sizeof out), lat_arg_i32(cols),
                                       lat_arg_f32(1e-6f))));
    for (int r = 0; r < rows; r++) {
        double ss = 0;
        for (int c = 0; c < cols; c++)
            ss += (double)x[r * cols + c] * x[r * cols + c];
        double scale = 1 / sqrt(ss / cols + 1e-6);
        for (int c = 0; c < cols; c++)
            ASSERT_MSG(t_close(out[r * cols + c], x[r * cols + c] * scale, 1e-5, 1e-6), "rms_norm [%d][%d] = %.9g, want %.9g",
                       r, c, out[r * cols + c], x[r * cols + c] * scale);
    }
    enum { nrows = 8, ncols = 256 };
    k = public_kernel(ctx, "ggml_norm_f32.cu", "norm_f32<32>");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {nrows}, .block = {32}},
                              LAT_ARGS(lat_arg_in(x, nrows * ncols * sizeof *x), lat_arg_out(out, nrows * ncols * sizeof *out),
                                       lat_arg_i32(ncols), lat_arg_f32(1e-5f))));
    for (int r = 0; r < nrows; r++) {
        double s = 0, ss = 0;
        for (int c = 0; c < ncols; c++) {
            s += x[r * ncols + c];
            ss += (double)x[r * ncols + c] * x[r * ncols + c];
        }
        double mean = s / ncols, inv = 1 / sqrt(ss / ncols - mean * mean + 1e-5);
        for (int c = 0; c < ncols; c++) {
            double want = (x[r * ncols + c] - mean) * inv;
            ASSERT_MSG(t_close(out[r * ncols + c], want, 1e-4, 1e-5), "norm [%d][%d] = %.9g, want %.9g", r, c,
                       out[r * ncols + c], want);
        }
    }
}

/* ggml's get_rows (the dequantizer a template argument of function pointer type) and its
 * broadcasting multiply (the operation one too). */
TEST(ggml_get_rows_and_bin_bcast_take_functions_as_template_arguments)
{
    lat_context *ctx = t_context();
    enum { src_rows = 32, cols = 256, picks = 16 };
    static float src[src_rows * cols], dst[picks * cols];
    int idx[picks];
    t_rand_floats(src, src_rows * cols, -4, 4);
    for (int i = 0; i < picks; i++)
        idx[i] = (int)(t_rand_u32() % src_rows);
    lat_kernel *k = public_kernel(ctx, "ggml_get_rows_f32.cu", "k_get_rows<1, 1, convert_f32, float>");
    ASSERT_OK(lat_launch_args(
        k, &(lat_launch_desc){.grid = {cols / 2 / 4, picks, 1}, .block = {4, 1, 1}},
        LAT_ARGS(lat_arg_in(src, sizeof src), lat_arg_in(idx, sizeof idx), lat_arg_out(dst, sizeof dst), lat_arg_i64(cols),
                 lat_arg_i64(1), lat_arg_u64(cols), lat_arg_u64(picks * cols), lat_arg_u64(picks * cols),
                 lat_arg_u64(cols * 4), lat_arg_u64(sizeof src), lat_arg_u64(sizeof src), lat_arg_u64(1),
                 lat_arg_u64(picks), lat_arg_u64(picks))));
    for (int r = 0; r < picks; r++)
        for (int c = 0; c < cols; c++)
            ASSERT_MSG(dst[r * cols + c] == src[idx[r] * cols + c], "get_rows [%d][%d]", r, c);

    enum { ne0 = 128, ne1 = 8, ne2 = 3 };
    static float a[ne0 * ne1 * ne2], b[ne0], c[ne0 * ne1 * ne2];
    t_rand_floats(a, ne0 * ne1 * ne2, -2, 2);
    t_rand_floats(b, ne0, -2, 2);
    k = public_kernel(ctx, "ggml_bin_bcast_mul.cu", "k_bin_bcast<op_mul, float, float, float>");
    ASSERT_OK(lat_launch_args(
        k, &(lat_launch_desc){.grid = {2, ne1, ne2}, .block = {64, 1, 1}},
        LAT_ARGS(lat_arg_in(a, sizeof a), lat_arg_in(b, sizeof b), lat_arg_out(c, sizeof c), lat_arg_i32(ne0),
                 lat_arg_i32(ne1), lat_arg_i32(ne2), lat_arg_i32(1), lat_arg_i32(ne0), lat_arg_i32(1), lat_arg_i32(1),
                 lat_arg_i32(1), lat_arg_i32(ne0), lat_arg_i32(ne0 * ne1), lat_arg_i32(ne0 * ne1 * ne2), lat_arg_i32(0),
                 lat_arg_i32(0), lat_arg_i32(0))));
    for (int i = 0; i < ne0 * ne1 * ne2; i++)
        ASSERT_MSG(c[i] == a[i] * b[i % ne0], "bin_bcast [%d] = %.9g, want %.9g", i, c[i], a[i] * b[i % ne0]);
}

/* Row softmax two ways: ggml's soft_max_f32<true, 0, 0> (values in dynamic shared
 * memory, block-wide reductions) and PyTorch's persistent softmax_warp_forward (a warp
 * per two rows, a template template parameter choosing the reduction). */
static void check_softmax(const float *x, const float *out, int rows, int cols, float scale, const char *what)
{
    for (int r = 0; r < rows; r++) {
        double m = -INFINITY, s = 0;
        for (int c = 0; c < cols; c++)
            m = fmax(m, (double)x[r * cols + c] * scale);
        for (int c = 0; c < cols; c++)
            s += exp((double)x[r * cols + c] * scale - m);
        for (int c = 0; c < cols; c++) {
            double want = exp((double)x[r * cols + c] * scale - m) / s;
            ASSERT_MSG(t_close(out[r * cols + c], want, 1e-5, 1e-7), "%s [%d][%d] = %.9g, want %.9g", what, r, c,
                       out[r * cols + c], want);
        }
    }
}

TEST(ggml_and_pytorch_softmax_rows_match_a_double_reference)
{
    lat_context *ctx = t_context();
    enum { rows = 6, cols = 256 };
    static float x[64 * 128], out[64 * 128];
    t_rand_floats(x, rows * cols, -4, 4);
    lat_kernel *k = public_kernel(ctx, "ggml_soft_max_f32.cu", "soft_max_f32<true, 0, 0>");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {rows}, .block = {128}, .shared_bytes = (32 + cols) * 4},
                              LAT_ARGS(lat_arg_in(x, rows * cols * 4), lat_arg_out(out, rows * cols * 4),
                                       lat_arg_i32(cols), lat_arg_f32(0.5f))));
    check_softmax(x, out, rows, cols, 0.5f, "ggml soft_max_f32");
    t_rand_floats(x, 64 * 128, -3, 3);
    k = public_kernel(ctx, "pytorch_softmax_warp_forward.cu", "softmax_warp_forward<float, float, float, 7, false>");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {8}, .block = {32, 4, 1}},
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_in(x, sizeof x), lat_arg_i32(64),
                                       lat_arg_i32(128), lat_arg_i32(128))));
    check_softmax(x, out, 64, 128, 1.0f, "pytorch softmax_warp_forward");
}

/* ---- PyTorch ------------------------------------------------------------------------------ */

/* PyTorch's WelfordOps (a class template of member functions returning braced
 * WelfordData) reducing rows: unbiased variance and mean. */
TEST(pytorch_welford_ops_reduce_rows_to_variance_and_mean)
{
    lat_context *ctx = t_context();
    enum { rows = 8, cols = 512 };
    static float x[rows * cols];
    float var[rows], mean[rows];
    t_rand_floats(x, rows * cols, -3, 3);
    lat_kernel *k = public_kernel(ctx, "pytorch_welford_block.cu", "welford_rows<float>");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {rows}, .block = {128}},
                              LAT_ARGS(lat_arg_in(x, sizeof x), lat_arg_out(var, sizeof var),
                                       lat_arg_out(mean, sizeof mean), lat_arg_i32(cols))));
    for (int r = 0; r < rows; r++) {
        double s = 0, ss = 0;
        for (int c = 0; c < cols; c++)
            s += x[r * cols + c];
        double m = s / cols;
        for (int c = 0; c < cols; c++)
            ss += (x[r * cols + c] - m) * (x[r * cols + c] - m);
        ASSERT_MSG(t_close(mean[r], m, 1e-4, 1e-5), "mean[%d] = %.9g, want %.9g", r, mean[r], m);
        ASSERT_MSG(t_close(var[r], ss / (cols - 1), 1e-4, 1e-5), "var[%d] = %.9g, want %.9g", r, var[r], ss / (cols - 1));
    }
}

/* What follows a base that is no POD (a constructor of its own, a base of its own) goes in
 * its tail padding, as the Itanium ABI places it (g++ and NVCC: sizeof(Q) 16, e at 9); a
 * data member of a base's member's name hides it (each level of a recursive tuple has its
 * own `head`), the base's copy still there for the base's own functions. */
TEST(tail_padding_of_a_non_pod_base_and_hidden_base_members_are_as_the_abi_has_them)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct P { double d; char c; __device__ P() : d(1), c(2) {} };\n"
        "struct Q : P { char e; __device__ Q() : e(3) {} };\n"
        "struct A { __device__ A() {} int i; char c; };\n"
        "struct E { short s; };\n"
        "struct C : A, E { char d; __device__ C() {} };\n"
        "struct B { int a; __device__ int base_a() const { return a; } };\n"
        "struct D : B { int a; };\n"
        "template <class... Ts> struct tup; template <> struct tup<> {};\n"
        "template <class T, class... R> struct tup<T, R...> : tup<R...> { T head; };\n"
        "extern \"C\" __global__ void k(const int *in, int *o) {\n"
        "  Q q; C c; D d; tup<int, char, float> t;\n"
        "  o[0] = sizeof(Q); o[1] = (int)((char *)&q.e - (char *)&q); o[2] = q.c + q.e * 10;\n"
        "  o[3] = sizeof(C); o[4] = (int)((char *)(E *)&c - (char *)&c); o[5] = (int)((char *)&c.d - (char *)&c);\n"
        "  d.a = in[0]; static_cast<B &>(d).a = in[1];\n"
        "  o[6] = d.a; o[7] = d.base_a(); o[8] = sizeof(D);\n"
        "  o[9] = sizeof(t); t.head = in[2]; static_cast<tup<char, float> &>(t).head = 'x';\n"
        "  static_cast<tup<float> &>(t).head = 2.5f;\n"
        "  o[10] = t.head; o[11] = static_cast<tup<char, float> &>(t).head; o[12] = (int)(static_cast<tup<float> &>(t).head * 2);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    int in[3] = {(int)(t_rand_u32() % 1000), (int)(t_rand_u32() % 1000), (int)(t_rand_u32() % 1000)}, o[13];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(o, sizeof o))));
    /* g++ -m64 for the same classes */
    const int want[13] = {16, 9, 32, 12, 6, 8, in[0], in[1], 8, 12, in[2], 'x', 5};
    for (int i = 0; i < 13; i++)
        ASSERT_MSG(o[i] == want[i], "o[%d] = %d, want %d", i, o[i], want[i]);
}

/* A type pack deduced from a class template's arguments (f(tup<Ts...> &), g(L<A, Ts...>)):
 * as long as the argument's instance has it (it was taken as empty: sizeof...(Ts) 0, a
 * silent wrong value). */
TEST(a_type_pack_deduced_from_a_class_template_argument_has_the_instance_length)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <class... Ts> struct L { int x; };\n"
        "template <class... Ts> __device__ int count(L<Ts...> &t) { return sizeof...(Ts); }\n"
        "template <class A, class... Ts> __device__ int rest(const L<A, Ts...> *t) { return sizeof...(Ts) * 10 + sizeof(A); }\n"
        "template <class... Ts, class... Us> __device__ int two(L<Ts...> a, L<Us...> b) { return sizeof...(Ts) * 10 + sizeof...(Us); }\n"
        "template <class... Ts> __device__ int both(L<Ts...> a, Ts... xs) { return (xs + ... + a.x); }\n"
        "extern \"C\" __global__ void k(const int *in, int *o) {\n"
        "  L<double, char, float, int, short> t; L<int> u; u.x = in[0];\n"
        "  o[0] = count(t); o[1] = rest(&t); o[2] = two(t, u); o[3] = both(u, in[1]);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    int in[2] = {(int)(t_rand_u32() % 1000), (int)(t_rand_u32() % 1000)}, o[4];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(o, sizeof o))));
    const int want[4] = {5, 48, 51, in[0] + in[1]};
    for (int i = 0; i < 4; i++)
        ASSERT_MSG(o[i] == want[i], "o[%d] = %d, want %d", i, o[i], want[i]);
}

/* ---- faiss, cuDF, CUB, thrust, Kokkos -------------------------------------------------------- */

/* faiss's Pair with its operators, shfl_xor of a Pair, Limits specializations and
 * warpReduceAll with Max<Pair<float, int>>: each row's maximum and where it is. */
TEST(faiss_warp_pair_reduction_finds_each_rows_maximum)
{
    lat_context *ctx = t_context();
    enum { rows = 16, cols = 256 };
    static float in[rows * cols];
    float best[rows];
    int where[rows];
    t_rand_floats(in, rows * cols, -10, 10);
    in[3 * cols + 17] = in[3 * cols + 200] = 20; /* a tie: the larger index wins (Pair's >) */
    lat_kernel *k = public_kernel(ctx, "faiss_warp_pair_reduce.cu", "warp_argmax_rows");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {rows}, .block = {32}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(best, sizeof best),
                                       lat_arg_out(where, sizeof where), lat_arg_i32(cols))));
    for (int r = 0; r < rows; r++) {
        int w = 0;
        for (int c = 1; c < cols; c++)
            if (in[r * cols + c] >= in[r * cols + w])
                w = c;
        ASSERT_MSG(best[r] == in[r * cols + w] && where[r] == w, "row %d: %.9g at %d, want %.9g at %d", r, best[r],
                   where[r], in[r * cols + w], w);
    }
}

/* cuDF-style operator structs with member templates, dispatched by a type id through
 * f.template operator()<T>(a, b), and a validity bitmask. */
TEST(cudf_binary_operations_dispatch_on_the_type_id)
{
    lat_context *ctx = t_context();
    enum { n = 512 };
    static float a[n], b[n], out[n];
    uint32_t valid[n / 32], out_valid[n / 32];
    t_rand_floats(a, n, -100, 100);
    t_rand_floats(b, n, -100, 100);
    for (int i = 0; i < n / 32; i++)
        valid[i] = t_rand_u32();
    lat_kernel *k = public_kernel(ctx, "cudf_binary_ops.cu", "binop_kernel");
    for (int which = 0; which < 2; which++) {
        ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {4}, .block = {128}},
                                  LAT_ARGS(lat_arg_in(a, sizeof a), lat_arg_in(b, sizeof b), lat_arg_in(valid, sizeof valid),
                                           lat_arg_out(out, sizeof out), lat_arg_out(out_valid, sizeof out_valid),
                                           lat_arg_i32(n), lat_arg_i32(which))));
        for (int i = 0; i < n; i++) {
            int v = (valid[i / 32] >> (i % 32)) & 1;
            float max = (float)((double)a[i] > (double)b[i] ? (double)a[i] : (double)b[i]);
            float want = which == 0 ? (float)((int)a[i] + (int)b[i]) : a[i] * b[i] + max;
            /* NVRTC inlines Mul's product and fuses it with the sum; the emulator rounds
             * twice (docs/dialect.md): the H100 gave fmaf's result */
            float fused = which == 0 ? want : fmaf(a[i], b[i], max);
            ASSERT_MSG(out[i] == (v ? want : 0.0f) || (v && out[i] == fused), "which %d: out[%d] = %.9g, want %.9g",
                       which, i, out[i], v ? want : 0.0f);
        }
        for (int i = 0; i < n / 32; i++)
            ASSERT_TRUE(out_valid[i] == valid[i]);
    }
}

/* CUB's BlockReduce (TempStorage : Uninitialized<_TempStorage>, a reference member bound
 * in the constructor's list, WarpReduce) summing blocks; cuda-samples' sumReduce over
 * cooperative groups with SharedMemory<T>. */
TEST(cub_block_reduce_and_cuda_samples_sum_reduce_sum_blocks)
{
    lat_context *ctx = t_context();
    static float in[4096], out[8];
    t_rand_floats(in, 2048, -1, 1);
    lat_kernel *k = public_kernel(ctx, "cub_block_reduce.cu", "block_sum_kernel<256>");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {8}, .block = {256}},
                              LAT_ARGS(lat_arg_in(in, 2048 * 4), lat_arg_out(out, sizeof out))));
    for (int b = 0; b < 8; b++) {
        double s = 0;
        for (int i = 0; i < 256; i++)
            s += in[b * 256 + i];
        ASSERT_MSG(t_close(out[b], s, 1e-5, 1e-5), "block %d: %.9g, want %.9g", b, out[b], s);
    }
    t_rand_floats(in, 4096, 0, 2);
    k = public_kernel(ctx, "cuda_samples_montecarlo_sum_reduce.cu", "sum_paths<float>");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {4}, .block = {128}, .shared_bytes = 1024},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out), lat_arg_i32(1024))));
    for (int b = 0; b < 4; b++) {
        double s = 0, s2 = 0;
        for (int i = 0; i < 1024; i++) {
            s += in[b * 1024 + i];
            s2 += (double)in[b * 1024 + i] * in[b * 1024 + i];
        }
        ASSERT_MSG(t_close(out[2 * b], s, 1e-5, 1e-4) && t_close(out[2 * b + 1], s2, 1e-5, 1e-4),
                   "block %d: %.9g %.9g, want %.9g %.9g", b, out[2 * b], out[2 * b + 1], s, s2);
    }
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* cuda-samples' bitonicSortShared (Comparator on references into shared arrays): each
 * 512-element batch sorted, each value still beside its key. */
TEST(cuda_samples_bitonic_sort_sorts_each_batch_with_its_values)
{
    lat_context *ctx = t_context();
    enum { n = 2048, batch = 512 };
    static uint32_t key[n], val[n], dk[n], dv[n], want[n];
    for (int i = 0; i < n; i++) {
        key[i] = t_rand_u32() % 100000;
        val[i] = (uint32_t)i;
    }
    lat_kernel *k = public_kernel(ctx, "cuda_samples_bitonic_sort_shared.cu", "bitonicSortShared");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {n / batch}, .block = {batch / 2}},
                              LAT_ARGS(lat_arg_out(dk, sizeof dk), lat_arg_out(dv, sizeof dv), lat_arg_in(key, sizeof key),
                                       lat_arg_in(val, sizeof val), lat_arg_u32(batch), lat_arg_u32(1))));
    memcpy(want, key, sizeof key);
    for (int b = 0; b < n / batch; b++)
        qsort(want + b * batch, batch, sizeof *want, cmp_u32);
    for (int i = 0; i < n; i++) {
        ASSERT_MSG(dk[i] == want[i], "key[%d] = %u, want %u", i, dk[i], want[i]);
        ASSERT_MSG(dv[i] < n && key[dv[i]] == dk[i] && (int)dv[i] / batch == i / batch, "value[%d] = %u", i, dv[i]);
    }
}

/* Rodinia's hotspot, two iterations of its pyramid, against the same stencil on the host. */
TEST(rodinia_hotspot_matches_its_stencil_on_the_host)
{
    lat_context *ctx = t_context();
    enum { g = 64, B = 16, it = 2 };
    static float power[g * g], temp[g * g], dst[g * g];
    t_rand_floats(power, g * g, 0.5f, 1.5f);
    t_rand_floats(temp, g * g, 320, 340);
    const float cap = 2.5f, rx = 2.5f, ry = 40, rz = 0.001f, step = 0.0001f;
    lat_kernel *k = public_kernel(ctx, "rodinia_hotspot.cu", "calculate_temp");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {6, 6}, .block = {B, B}},
                              LAT_ARGS(lat_arg_i32(it), lat_arg_in(power, sizeof power), lat_arg_in(temp, sizeof temp),
                                       lat_arg_out(dst, sizeof dst), lat_arg_i32(g), lat_arg_i32(g), lat_arg_i32(it),
                                       lat_arg_i32(it), lat_arg_f32(cap), lat_arg_f32(rx), lat_arg_f32(ry),
                                       lat_arg_f32(rz), lat_arg_f32(step), lat_arg_f32(step))));
    /* two steps of the stencil over the whole grid, edges clamped, as the pyramid computes */
    static double cur[g * g], nxt[g * g];
    for (int i = 0; i < g * g; i++)
        cur[i] = temp[i];
    for (int s = 0; s < it; s++) {
        for (int y = 0; y < g; y++)
            for (int x = 0; x < g; x++) {
                int n = y > 0 ? y - 1 : y, so = y < g - 1 ? y + 1 : y, w = x > 0 ? x - 1 : x, e = x < g - 1 ? x + 1 : x;
                double c = cur[y * g + x];
                nxt[y * g + x] = c + (double)(step / cap) * (power[y * g + x] + (cur[so * g + x] + cur[n * g + x] - 2.0 * c) * (1 / ry) +
                                                         (cur[y * g + e] + cur[y * g + w] - 2.0 * c) * (1 / rx) + (80.0 - c) * (1 / rz));
            }
        memcpy(cur, nxt, sizeof cur);
    }
    for (int i = 0; i < g * g; i++)
        ASSERT_MSG(t_close(dst[i], cur[i], 1e-6, 1e-3), "temp[%d] = %.9g, want %.9g", i, dst[i], cur[i]);
}

/* Kokkos-style: a functor deriving from its parameters and a tag (two bases), a tagged
 * operator() overload, a reduction functor's init/join, and a class running a [=] lambda
 * on its members (this captured). */
TEST(kokkos_style_functors_axpby_dot_and_a_member_lambda)
{
    lat_context *ctx = t_context();
    enum { n = 512 };
    static double x[n], y[n], y0[n], partial[4], smooth[n];
    for (int i = 0; i < n; i++) {
        x[i] = t_rand_double(-1, 1);
        y0[i] = y[i] = t_rand_double(-1, 1);
    }
    const double alpha = 0.5, beta = -2;
    lat_kernel *k = public_kernel(ctx, "kokkos_style_functors.cu", "kokkos_axpby_dot");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {4}, .block = {128}},
                              LAT_ARGS(lat_arg_in(x, sizeof x), lat_arg_inout(y, sizeof y), lat_arg_out(partial, sizeof partial),
                                       lat_arg_out(smooth, sizeof smooth), lat_arg_i32(n), lat_arg_f64(alpha),
                                       lat_arg_f64(beta))));
    for (int b = 0; b < 4; b++) {
        double s = 0;
        for (int i = b * 128; i < b * 128 + 128; i++) {
            double want = (alpha * x[i] + beta * y0[i]) * alpha;
            ASSERT_MSG(t_close(y[i], want, 1e-14, 1e-15), "y[%d] = %.17g, want %.17g", i, y[i], want);
            s += x[i] * want;
        }
        ASSERT_MSG(t_close(partial[b], s, 1e-12, 1e-14), "partial[%d] = %.17g, want %.17g", b, partial[b], s);
    }
    for (int i = 0; i < n; i++) {
        double l = i > 0 ? x[i - 1] : x[i], r = i + 1 < n ? x[i + 1] : x[i], want = 0.25 * x[i] + 0.75 * 0.5 * (l + r);
        ASSERT_MSG(t_close(smooth[i], want, 1e-14, 1e-15), "smooth[%d] = %.17g, want %.17g", i, smooth[i], want);
    }
}

/* thrust-style: a zip of four arrays through a recursive tuple and get<I>, saxpy_functor
 * typed through binary_function's member types, square<T> summed by plus<T>. */
TEST(thrust_style_zip_saxpy_and_transform_reduce)
{
    lat_context *ctx = t_context();
    enum { n = 512 };
    static float A[n], B[n], C[n], D[n], Y[n], sums[4];
    t_rand_floats(A, n, -2, 2);
    t_rand_floats(B, n, -2, 2);
    t_rand_floats(C, n, -2, 2);
    lat_kernel *k = public_kernel(ctx, "thrust_style_zip_functors.cu", "thrust_style_kernel");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {4}, .block = {128}},
                              LAT_ARGS(lat_arg_in(A, sizeof A), lat_arg_in(B, sizeof B), lat_arg_in(C, sizeof C),
                                       lat_arg_out(D, sizeof D), lat_arg_out(Y, sizeof Y), lat_arg_out(sums, sizeof sums),
                                       lat_arg_i32(n), lat_arg_f32(2.5f))));
    for (int i = 0; i < n; i++) {
        ASSERT_MSG(t_close(D[i], (double)A[i] + (double)B[i] * C[i], 1e-6, 1e-6), "D[%d]", i);
        ASSERT_MSG(t_close(Y[i], 2.5 * A[i] + B[i], 1e-6, 1e-6), "Y[%d]", i);
    }
    for (int b = 0; b < 4; b++) {
        double s = 0;
        for (int i = b * 128; i < b * 128 + 128; i++)
            s += (double)C[i] * C[i];
        ASSERT_MSG(t_close(sums[b], s, 1e-5, 1e-5), "sums[%d] = %.9g, want %.9g", b, sums[b], s);
    }
}

/* ---- llm.c, type lists ------------------------------------------------------------------------ */

/* llm.c's online softmax: a warp per row, maximum and sum in one pass, cg::reduce of the
 * row's maximum, __ldcs/__stcs. */
TEST(llmc_online_softmax_matches_a_double_reference)
{
    lat_context *ctx = t_context();
    enum { rows = 16, cols = 256 };
    static float x[rows * cols], out[rows * cols];
    t_rand_floats(x, rows * cols, -4, 4);
    lat_kernel *k = public_kernel(ctx, "llmc_softmax_forward_cg.cu", "softmax_forward_online_kernel8");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {4}, .block = {128}},
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_in(x, sizeof x), lat_arg_i32(rows),
                                       lat_arg_i32(cols))));
    check_softmax(x, out, rows, cols, 1.0f, "llm.c softmax_forward_online_kernel8");
}

/* Type lists: two packs in one partial specialization (mp_append), index_of ordered by
 * C++'s partial ordering over packs (it found the two specializations unordered). */
TEST(type_list_concatenation_and_index_of_as_mp11_writes_them)
{
    lat_context *ctx = t_context();
    enum { n = 256 };
    float in[n], out[n];
    t_rand_floats(in, n, -2, 2);
    lat_kernel *k = public_kernel(ctx, "metaprogramming_type_list_concat.cu", "typelist_kernel");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {2}, .block = {128}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out), lat_arg_i32(n))));
    for (int i = 0; i < n; i++) {
        float v = (float)(int)(in[i] * 100.0f) / 100.0f + (float)(double)(in[i] * 100.0f) / 100.0f;
        ASSERT_MSG(t_close(out[i], v + 5 * 1000 + 3 * 100 + 2 * 10, 1e-6, 1e-4), "out[%d] = %.9g, want %.9g", i, out[i],
                   v + 5320);
    }
}

/* PyTorch's OffsetCalculator with IntDivider<unsigned int>'s magic-number division (an
 * explicit specialization, __umulhi): a 3-D permutation copied through both offsets. */
TEST(pytorch_offset_calculator_permutes_through_magic_number_division)
{
    lat_context *ctx = t_context();
    enum { d0 = 8, d1 = 12, d2 = 16, n = d0 * d1 * d2 };
    static float src[n], dst[n];
    t_rand_floats(src, n, -10, 10);
    lat_kernel *k = public_kernel(ctx, "pytorch_offset_calculator.cu", "permute_copy_kernel");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {n / 128}, .block = {128}},
                              LAT_ARGS(lat_arg_in(src, sizeof src), lat_arg_out(dst, sizeof dst), lat_arg_i32(n),
                                       lat_arg_u32(d0), lat_arg_u32(d1), lat_arg_u32(d2))));
    for (int a = 0; a < d0; a++)
        for (int b = 0; b < d1; b++)
            for (int c = 0; c < d2; c++)
                ASSERT_MSG(dst[c * d1 * d0 + b * d0 + a] == src[a * d1 * d2 + b * d2 + c], "dst at (%d, %d, %d)", c, b, a);
}

/* ggml's q8_0 blocks (a half scale, 32 signed bytes) dequantized by dequantize_block with
 * dequantize_q8_0 as its template argument. */
TEST(ggml_dequantize_q8_0_scales_each_block_by_its_half)
{
    lat_context *ctx = t_context();
    enum { nb = 128, qk = 32, bytes = 34 };
    static unsigned char q[nb * bytes];
    static float out[nb * qk];
    float scale[nb];
    for (int b = 0; b < nb; b++) {
        /* a normal half scale: exponent 8..20, any mantissa and sign */
        uint16_t h = (uint16_t)(((t_rand_u32() & 1) << 15) | ((8 + t_rand_u32() % 13) << 10) | (t_rand_u32() & 0x3ff));
        memcpy(q + b * bytes, &h, 2);
        int e = (h >> 10) & 0x1f;
        scale[b] = (float)ldexp(1.0 + (h & 0x3ff) / 1024.0, e - 15) * ((h >> 15) ? -1 : 1);
        for (int i = 0; i < qk; i++)
            q[b * bytes + 2 + i] = (unsigned char)t_rand_u32();
    }
    lat_kernel *k = public_kernel(ctx, "ggml_dequantize_q8_0.cu", "dequantize_block<32, 1, dequantize_q8_0, float>");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {nb * qk / 2 / 32}, .block = {32}},
                              LAT_ARGS(lat_arg_in(q, sizeof q), lat_arg_out(out, sizeof out), lat_arg_i64(nb * qk))));
    for (int b = 0; b < nb; b++)
        for (int i = 0; i < qk; i++) {
            float want = (float)(signed char)q[b * bytes + 2 + i] * scale[b];
            ASSERT_MSG(out[b * qk + i] == want, "block %d [%d] = %.9g, want %.9g", b, i, out[b * qk + i], want);
        }
}

/* cupy's CArray/CIndexer: operator[] overloaded as member templates (const and not, of an
 * index array) beside plain ones (a flat index), a member function returning a reference
 * to an array, a parameter hiding the member function of its name. */
TEST(cupy_carray_indexes_by_index_arrays_and_flat_indices)
{
    lat_context *ctx = t_context();
    enum { rows = 32, cols = 48, n = rows * cols };
    static float x[n], y[cols], z[n];
    t_rand_floats(x, n, -2, 2);
    t_rand_floats(y, cols, -2, 2);
    lat_kernel *k = public_kernel(ctx, "cupy_carray_elementwise.cu", "cupy_fma_2d");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {4}, .block = {128}},
                              LAT_ARGS(lat_arg_in(x, sizeof x), lat_arg_in(y, sizeof y), lat_arg_out(z, sizeof z),
                                       lat_arg_i32(rows), lat_arg_i32(cols))));
    for (int i = 0; i < n; i++)
        ASSERT_MSG(t_close(z[i], (double)x[i] * y[i % cols] + 1, 1e-6, 1e-6), "z[%d] = %.9g", i, z[i]);
}

/* Member templates overloaded with each other (const and not) and with plain member
 * functions of their name: a const object takes the const ones, a non-const one prefers
 * the others, an argument no template takes goes to the plain ones; operators too. */
TEST(member_templates_overload_with_const_and_plain_members)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <int N> struct A {\n"
        "  float d[4];\n"
        "  template <typename Int> __device__ float &operator[](const Int (&idx)[2]) { return d[idx[0] + idx[1]]; }\n"
        "  template <typename Int> __device__ const float &operator[](const Int (&idx)[2]) const { return d[idx[0] * 2 + idx[1]]; }\n"
        "  __device__ float &operator[](long long i) { return d[i]; }\n"
        "  __device__ const float &operator[](long long i) const { return d[3 - i]; }\n"
        "  template <typename T> __device__ float at(T i) const { return d[i] * N; }\n"
        "  __device__ float at(float f) const { return f; }\n"
        "};\n"
        "extern \"C\" __global__ void k(const float *in, float *o) {\n"
        "  A<2> a; for (int i = 0; i < 4; i++) a.d[i] = in[i];\n"
        "  const A<2> &c = a;\n"
        "  const long long ix[2] = {1, 1};\n"
        "  o[0] = a[ix]; o[1] = c[ix]; o[2] = a[1]; o[3] = c[1]; o[4] = c.operator[](ix); o[5] = a.at(2); o[6] = a.at(in[0]);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    float in[4], o[7];
    t_rand_floats(in, 4, -5, 5);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(o, sizeof o))));
    const float want[7] = {in[2], in[3], in[1], in[2], in[3], in[2] * 2, in[0]};
    for (int i = 0; i < 7; i++)
        ASSERT_MSG(o[i] == want[i], "o[%d] = %.9g, want %.9g", i, o[i], want[i]);
}

/* ---- more cuda-samples, Rodinia, cupy, CUB, PyTorch ---------------------------------------------- */

TEST(cuda_samples_transpose_coalesced_transposes)
{
    lat_context *ctx = t_context();
    enum { w = 64, h = 48 };
    static float in[w * h], out[w * h];
    t_rand_floats(in, w * h, -100, 100);
    lat_kernel *k = public_kernel(ctx, "cuda_samples_transpose_coalesced.cu", "transposeCoalesced");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {w / 16, h / 16}, .block = {16, 4}},
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_in(in, sizeof in), lat_arg_i32(w),
                                       lat_arg_i32(h))));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            ASSERT_MSG(out[x * h + y] == in[y * w + x], "out[%d][%d]", x, y);
}

/* Rodinia's Fan2: one elimination step of the matrix and the right-hand side. */
TEST(rodinia_gaussian_fan2_eliminates_one_column)
{
    lat_context *ctx = t_context();
    enum { n = 32, t = 0 };
    static float m[n * n], a[n * n], b[n], a0[n * n], b0[n];
    t_rand_floats(m, n * n, 0, 1);
    t_rand_floats(a0, n * n, 1, 2);
    t_rand_floats(b0, n, 0, 1);
    memcpy(a, a0, sizeof a);
    memcpy(b, b0, sizeof b);
    lat_kernel *k = public_kernel(ctx, "rodinia_gaussian_fan2.cu", "Fan2");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {2, 2}, .block = {16, 16}},
                              LAT_ARGS(lat_arg_inout(m, sizeof m), lat_arg_inout(a, sizeof a), lat_arg_inout(b, sizeof b),
                                       lat_arg_i32(n), lat_arg_i32(n), lat_arg_i32(t))));
    for (int x = 0; x < n - 1 - t; x++) {
        for (int y = 0; y < n - t; y++) {
            float want = a0[n * (x + 1 + t) + (y + t)] - m[n * (x + 1 + t) + t] * a0[n * t + (y + t)];
            ASSERT_MSG(t_close(a[n * (x + 1 + t) + (y + t)], want, 1e-6, 1e-6), "a[%d][%d]", x + 1 + t, y + t);
        }
        float wb = b0[x + 1 + t] - m[n * (x + 1 + t) + t] * b0[t];
        ASSERT_MSG(t_close(b[x + 1 + t], wb, 1e-6, 1e-6), "b[%d]", x + 1 + t);
    }
    ASSERT_TRUE(memcmp(a, a0, n * sizeof *a) == 0 && b[0] == b0[0]); /* row t untouched */
}

/* cupy's generated reduction (_REDUCE over shared memory, then a warp's shuffles). */
TEST(cupy_reduction_kernel_sums_each_output)
{
    lat_context *ctx = t_context();
    enum { outs = 8, per = 1024 };
    static float in[outs * per], out[outs];
    t_rand_floats(in, outs * per, -1, 1);
    lat_kernel *k = public_kernel(ctx, "cupy_reduction_sum.cu", "cupy_sum");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {outs}, .block = {256}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out), lat_arg_i32(per),
                                       lat_arg_i32(256))));
    for (int o = 0; o < outs; o++) {
        double s = 0;
        for (int i = 0; i < per; i++)
            s += in[o * per + i];
        ASSERT_MSG(t_close(out[o], s, 1e-5, 1e-4), "out[%d] = %.9g, want %.9g", o, out[o], s);
    }
}

/* A CUB-style warp scan with functor templates: exclusive sums across the block and
 * each warp's running maximum. */
TEST(cub_warp_scan_exclusive_sum_and_running_max)
{
    lat_context *ctx = t_context();
    enum { n = 512, block = 128 };
    int in[n], sum[n], mx[n];
    for (int i = 0; i < n; i++)
        in[i] = (int)(t_rand_u32() % 201) - 100;
    lat_kernel *k = public_kernel(ctx, "cub_warp_scan.cu", "block_exclusive_sum<128>");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {n / block}, .block = {block}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(sum, sizeof sum), lat_arg_out(mx, sizeof mx))));
    for (int b = 0; b < n / block; b++) {
        int s = 0, m = 0;
        for (int i = b * block; i < (b + 1) * block; i++) {
            m = i % 32 == 0 ? in[i] : (in[i] > m ? in[i] : m);
            ASSERT_MSG(sum[i] == s, "sum[%d] = %d, want %d", i, sum[i], s);
            ASSERT_MSG(mx[i] == m, "max[%d] = %d, want %d", i, mx[i], m);
            s += in[i];
        }
    }
}

/* PyTorch's upsample_nearest1d_out_frame<float>: each output takes floor(x * scale). */
TEST(pytorch_upsample_nearest1d_picks_the_source_of_each_output)
{
    lat_context *ctx = t_context();
    enum { c = 10, src_w = 64, dst_w = 150 };
    static float in[c * src_w], out[c * dst_w];
    t_rand_floats(in, c * src_w, -5, 5);
    const float scale = (float)src_w / dst_w;
    lat_kernel *k = public_kernel(ctx, "pytorch_upsample_nearest.cu", "upsample_nearest1d_out_frame<float>");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {(c * dst_w + 255) / 256}, .block = {256}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_u64(c), lat_arg_u64(src_w), lat_arg_u64(dst_w),
                                       lat_arg_out(out, sizeof out), lat_arg_f32(scale))));
    for (int ch = 0; ch < c; ch++)
        for (int x = 0; x < dst_w; x++) {
            int sx = (int)floorf((float)x * scale);
            sx = sx < src_w - 1 ? sx : src_w - 1;
            ASSERT_MSG(out[ch * dst_w + x] == in[ch * src_w + sx], "out[%d][%d]", ch, x);
        }
}

/* A pointer computed without side effects (ds + 1, &ds[2], ptrs[0] + 2) converts to a base
 * at a nonzero offset, a null one staying null. */
TEST(computed_pointers_convert_to_a_second_base)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct A { int a; }; struct B { int b; __device__ int get() const { return b; } };\n"
        "struct D : A, B { int c; };\n"
        "__device__ int use(const B *p) { return p ? p->get() : -1; }\n"
        "extern \"C\" __global__ void k(const int *in, int *o) {\n"
        "  D ds[3]; D *nul = 0;\n"
        "  for (int i = 0; i < 3; i++) { ds[i].a = i; ds[i].b = in[i]; ds[i].c = 20 + i; }\n"
        "  D *ptrs[2] = {ds, nul};\n"
        "  o[0] = use(ds + 1); o[1] = use(&ds[2]); o[2] = use(ptrs[0] + 2); o[3] = use(ptrs[1]);\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    int in[3] = {(int)(t_rand_u32() % 1000), (int)(t_rand_u32() % 1000), (int)(t_rand_u32() % 1000)}, o[4];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(o, sizeof o))));
    const int want[4] = {in[1], in[2], in[2], -1};
    for (int i = 0; i < 4; i++)
        ASSERT_MSG(o[i] == want[i], "o[%d] = %d, want %d", i, o[i], want[i]);
}

/* ggml's common.cuh overloads warp_reduce_sum as two templates of one name, <int width =
 * WARP_SIZE> (float) and (half2), beside plain overloads (float2): a call without
 * template arguments picks by the fixed parameter types (it took the newest template and
 * refused float as a half2). A record parameter (struct P) ranks alike. */
TEST(function_templates_of_one_name_pick_by_their_fixed_parameter_types)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <cuda_fp16.h>\n"
        "#define WARP_SIZE 32\n"
        "struct P { float a, b; };\n"
        "template <int width = WARP_SIZE> static __device__ __forceinline__ float warp_reduce_sum(float x) {\n"
        "#pragma unroll\n"
        "  for (int offset = width / 2; offset > 0; offset >>= 1) x += __shfl_xor_sync(0xffffffff, x, offset, width);\n"
        "  return x;\n"
        "}\n"
        "template <int width = WARP_SIZE> static __device__ __forceinline__ half2 warp_reduce_sum(half2 a) {\n"
        "#pragma unroll\n"
        "  for (int offset = width / 2; offset > 0; offset >>= 1) a = __hadd2(a, __shfl_xor_sync(0xffffffff, a, offset, width));\n"
        "  return a;\n"
        "}\n"
        "template <int width = WARP_SIZE> static __device__ P warp_reduce_sum(const P &p) {\n"
        "  return P{warp_reduce_sum<width>(p.a), warp_reduce_sum<width>(p.b)};\n"
        "}\n"
        "static __device__ float2 warp_reduce_sum(float2 a) {\n"
        "  for (int offset = 16; offset > 0; offset >>= 1) { a.x += __shfl_xor_sync(0xffffffff, a.x, offset, 32);\n"
        "    a.y += __shfl_xor_sync(0xffffffff, a.y, offset, 32); }\n"
        "  return a;\n"
        "}\n"
        "extern \"C\" __global__ void k(const float *x, float *o) {\n"
        "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  float v = x[t];\n"
        "  half2 h = warp_reduce_sum(__floats2half2_rn(v, 1.0f));\n"
        "  float2 f2 = warp_reduce_sum(make_float2(v, -2 * v));\n"
        "  P p = warp_reduce_sum<16>(P{v, 3 * v});\n"
        "  o[t * 6 + 0] = warp_reduce_sum(v); o[t * 6 + 1] = warp_reduce_sum<8>(v); o[t * 6 + 2] = __high2float(h);\n"
        "  o[t * 6 + 3] = f2.x + f2.y; o[t * 6 + 4] = p.a; o[t * 6 + 5] = p.b;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    enum { n = 128 };
    static float x[n], o[n * 6];
    t_rand_floats(x, n, -1, 1);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {2}, .block = {64}},
                              LAT_ARGS(lat_arg_in(x, sizeof x), lat_arg_out(o, sizeof o))));
    for (int t = 0; t < n; t++) {
        double s32 = 0, s8 = 0, s16 = 0;
        for (int i = t / 32 * 32; i < t / 32 * 32 + 32; i++)
            s32 += x[i];
        for (int i = t / 8 * 8; i < t / 8 * 8 + 8; i++)
            s8 += x[i];
        for (int i = t / 16 * 16; i < t / 16 * 16 + 16; i++)
            s16 += x[i];
        const double want[6] = {s32, s8, 32, -s32, s16, 3 * s16};
        for (int j = 0; j < 6; j++)
            ASSERT_MSG(t_close(o[t * 6 + j], want[j], 1e-5, 1e-5), "o[%d][%d] = %.9g, want %.9g", t, j, o[t * 6 + j],
                       want[j]);
    }
}

/* CUTLASS-style numeric conversion: Array<T, N> with operator[] and a static constexpr
 * size, a converter specialized partially on an enum class rounding style, a functor
 * specialized for Array, _Pragma("unroll") from a macro, CRTP, a member class template
 * named through `typename Outer<T>::template Inner<3>`, and decltype(a)::member as a type
 * and as a value, decltype(v)(x) as a conversion (each was refused: decltype only stood
 * as a whole type). */
TEST(cutlass_style_array_converters_and_decltype_members)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#define HD __host__ __device__\n"
        "#define PRAGMA_UNROLL _Pragma(\"unroll\")\n"
        "enum class FloatRoundStyle { round_indeterminate, round_toward_zero, round_to_nearest };\n"
        "template <typename T, int N> struct Array {\n"
        "  static constexpr int kElements = N;\n"
        "  using value_type = T;\n"
        "  T storage[N];\n"
        "  HD T &operator[](int i) { return storage[i]; }\n"
        "  HD const T &operator[](int i) const { return storage[i]; }\n"
        "  HD constexpr int size() const { return N; }\n"
        "  HD void clear() { PRAGMA_UNROLL for (int i = 0; i < N; ++i) storage[i] = T(0); }\n"
        "};\n"
        "template <typename To, typename From, FloatRoundStyle R = FloatRoundStyle::round_to_nearest>\n"
        "struct NumericConverter { HD static To convert(const From &s) { return static_cast<To>(s); }\n"
        "  HD To operator()(const From &s) const { return convert(s); } };\n"
        "template <FloatRoundStyle R> struct NumericConverter<int, float, R> {\n"
        "  HD static int convert(const float &s) { return R == FloatRoundStyle::round_to_nearest ? __float2int_rn(s) : __float2int_rz(s); }\n"
        "  HD int operator()(const float &s) const { return convert(s); }\n"
        "};\n"
        "template <typename To, typename From, int N, FloatRoundStyle R = FloatRoundStyle::round_to_nearest>\n"
        "struct NumericArrayConverter {\n"
        "  using result_type = Array<To, N>; using source_type = Array<From, N>;\n"
        "  HD static result_type convert(const source_type &s) {\n"
        "    result_type r; NumericConverter<To, From, R> c;\n"
        "    PRAGMA_UNROLL for (int i = 0; i < N; ++i) r[i] = c(s[i]);\n"
        "    return r;\n"
        "  }\n"
        "  HD result_type operator()(const source_type &s) const { return convert(s); }\n"
        "};\n"
        "template <typename T> struct plus { HD T operator()(T a, T b) const { return a + b; } };\n"
        "template <typename T, int N> struct plus<Array<T, N>> {\n"
        "  HD Array<T, N> operator()(const Array<T, N> &a, const Array<T, N> &b) const {\n"
        "    Array<T, N> r; plus<T> op; PRAGMA_UNROLL for (int i = 0; i < N; ++i) r[i] = op(a[i], b[i] * 1000); return r; }\n"
        "};\n"
        "template <typename Derived> struct Base { HD int twice() const { return static_cast<const Derived *>(this)->value() * 2; } };\n"
        "struct Der : Base<Der> { int v; HD int value() const { return v; } };\n"
        "template <typename T> struct Outer { template <int K> struct Inner { T x[K];\n"
        "  HD T sum() const { T s = 0; for (int i = 0; i < K; i++) s += x[i]; return s; } }; };\n"
        "extern \"C\" __global__ void k(const float *in, int *oi, float *of) {\n"
        "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  Array<float, 4> a; a.clear();\n"
        "  for (int i = 0; i < a.size(); i++) a[i] = in[t * 4 + i];\n"
        "  NumericArrayConverter<int, float, 4> cv; Array<int, 4> r = cv(a);\n"
        "  NumericArrayConverter<int, float, 4, FloatRoundStyle::round_toward_zero> cz; Array<int, 4> z = cz(a);\n"
        "  plus<Array<int, 4>> add; Array<int, 4> s = add(r, z);\n"
        "  for (int i = 0; i < 4; i++) oi[t * 4 + i] = s[i];\n"
        "  Der d; d.v = t; typename Outer<float>::template Inner<3> in3 = {{in[t * 4], 1.f, 2.f}};\n"
        "  decltype(a)::value_type v = decltype(a)::kElements;\n"
        "  decltype(r) copy = r;\n"
        "  of[t] = d.twice() + in3.sum() + v * 100 + decltype(v)(copy[0]) * 10000;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    enum { n = 128 };
    static float in[n * 4], of[n];
    static int oi[n * 4];
    t_rand_floats(in, n * 4, -100, 100);
    for (int i = 0; i < 16; i++)
        in[i * 7] = (float)((int)in[i * 7]) + 0.5f; /* ties: rounded to even */
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {2}, .block = {64}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(oi, sizeof oi), lat_arg_out(of, sizeof of))));
    for (int i = 0; i < n * 4; i++) {
        int want = (int)rintf(in[i]) + (int)truncf(in[i]) * 1000;
        ASSERT_MSG(oi[i] == want, "oi[%d] = %d, want %d (in %.9g)", i, oi[i], want, in[i]);
    }
    for (int t = 0; t < n; t++) {
        float want = (float)(2 * t) + (in[t * 4] + 1.f + 2.f) + 400.f + (float)(int)rintf(in[t * 4]) * 10000.f;
        ASSERT_MSG(t_close(of[t], want, 1e-6, 1e-3), "of[%d] = %.9g, want %.9g", t, of[t], want);
    }
}

/* The detection idiom: a partial specialization on void_t<typename T::value_type> or on
 * void_t<decltype(std::declval<T>().size())> matches only where the member exists (it
 * matched every type: has_value_type<Plain> was true, a silent wrong branch); union class
 * templates (OneFlow's Pack<T, N> of aligned_storage and elements; they could not be made);
 * aligned_storage at libcu++'s default alignment, conjunction, rank, extent. The kernel is
 * tests/corpus/cxx/type_traits_detection.cu: a row softmax loading packs through the union,
 * reduced by a template taking its operation as a template template parameter. */
TEST(detection_idiom_union_templates_and_library_traits)
{
    lat_context *ctx = t_context();
    enum { rows = 8, cols = 128 };
    static float x[rows * cols], out[rows * cols];
    int info[32];
    t_rand_floats(x, rows * cols, -4, 4);
    lat_kernel *k = public_kernel(ctx, "../cxx/type_traits_detection.cu", "traits_kernel<float, 4>");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {4}, .block = {32, 2}},
                              LAT_ARGS(lat_arg_in(x, sizeof x), lat_arg_out(out, sizeof out),
                                       lat_arg_out(info, sizeof info), lat_arg_i32(rows))));
    check_softmax(x, out, rows, cols, 1.0f, "OneFlow-style pack softmax");
    /* describe<Sized>, <Plain>; aligned_storage<12, 8>, <3>, <12>, <40> (libcu++: the largest
     * of 1, 2, 4, 8, 16 not above Len), alignment_of<double>, conjunction (2), disjunction,
     * negation, rank, extent (2), remove_extent, remove_all_extents, product_t (3),
     * is_fundamental, sizeof and alignof Pack<float, 4> */
    static const int want[26] = {3, 0, 16, 8, 4, 2, 16, 8, 48, 16, 8, 1, 0, 1, 0, 2, 4, 3, 16, 8, 8, 4, 1, 1, 16, 16};
    for (int i = 0; i < 26; i++)
        ASSERT_MSG(info[i] == want[i], "info[%d] = %d, want %d", i, info[i], want[i]);
}

/* std::index_sequence as tuple-applying code unrolls with it: a function template
 * deducing `size_t... I` from index_sequence<I...> (a value pack from a class template's
 * arguments: it was refused as "incompatible types"), make_index_sequence<N>{} and
 * index_sequence_for<Ts...>() (they were missing from <utility>), a member type named
 * through a class and constructed with {} (`typename S<T>::type{}`). Also an inline
 * namespace's members (named in its parent and through it: they were undeclared), and a
 * namespace's function of the signature of a global one (refused as a second definition). */
TEST(index_sequence_unrolls_inline_namespaces_and_namespace_functions_hiding_global_ones)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <utility>\n"
        "template <typename T, std::size_t... I> __device__ T weighted(const T *p, std::index_sequence<I...>) {\n"
        "  return ((p[I] * T(I + 1)) + ... + T(0)); }\n"
        "template <typename... Ts> __device__ int count_of(Ts...) { return (int)std::index_sequence_for<Ts...>::size(); }\n"
        "template <int... V> struct ints {};\n"
        "template <int... V> __device__ int sum_ints(ints<V...>) { return (V + ... + 0); }\n"
        "template <typename T, T... V> __device__ long long sum_seq(std::integer_sequence<T, V...>) { return (V + ... + 0); }\n"
        "template <int N> struct holder { typedef ints<N, 2 * N> type; };\n"
        "__device__ float relu(float x) { return x > 0 ? x : 0; }\n"
        "namespace ops { __device__ float relu(float x) { return x > 0 ? x : 0.25f * x; }\n"
        "  __device__ float act(float x) { return relu(x); } }\n"
        "namespace lib { inline namespace v2 { __device__ int version() { return 2; } }\n"
        "  __device__ int twice() { return version() * 2; } }\n"
        "namespace lib { namespace v1 { __device__ int version() { return 1; } } }\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int *oi) {\n"
        "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  out[t * 3] = weighted(in + t * 4, std::make_index_sequence<4>{});\n"
        "  out[t * 3 + 1] = weighted(in + t * 4, std::index_sequence<2, 0>());\n"
        "  out[t * 3 + 2] = relu(in[t * 4]) + 10 * ops::act(in[t * 4]);\n"
        "  if (t == 0) {\n"
        "    oi[0] = count_of(1, 2.0, 'c'); oi[1] = sum_ints(ints<4, 5, 6>{}); oi[2] = sum_ints(typename holder<7>::type{});\n"
        "    oi[3] = (int)sum_seq(std::make_integer_sequence<long long, 5>()); oi[4] = lib::version();\n"
        "    oi[5] = lib::twice(); oi[6] = lib::v1::version() * 10 + lib::v2::version();\n"
        "  }\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    enum { n = 64 };
    static float in[n * 4], out[n * 3];
    int oi[7];
    t_rand_floats(in, n * 4, -3, 3);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {2}, .block = {32}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out), lat_arg_out(oi, sizeof oi))));
    for (int t = 0; t < n; t++) {
        const float *p = in + t * 4;
        double w4 = p[0] * 1.0 + p[1] * 2.0 + p[2] * 3.0 + p[3] * 4.0, w2 = p[2] * 3.0 + p[0] * 1.0;
        double r = p[0] > 0 ? p[0] : 0, a = p[0] > 0 ? p[0] : 0.25 * p[0];
        ASSERT_MSG(t_close(out[t * 3], w4, 1e-6, 1e-5), "weighted[%d] = %.9g, want %.9g", t, out[t * 3], w4);
        ASSERT_MSG(t_close(out[t * 3 + 1], w2, 1e-6, 1e-5), "weighted<2, 0>[%d] = %.9g, want %.9g", t, out[t * 3 + 1], w2);
        ASSERT_MSG(t_close(out[t * 3 + 2], r + 10 * a, 1e-6, 1e-5), "relu[%d] = %.9g, want %.9g", t, out[t * 3 + 2],
                   r + 10 * a);
    }
    static const int want[7] = {3, 15, 21, 10, 2, 4, 12};
    for (int i = 0; i < 7; i++)
        ASSERT_MSG(oi[i] == want[i], "oi[%d] = %d, want %d", i, oi[i], want[i]);
}

/* The Hillis-Steele scan over n ranks as CUDA's cooperative_groups computes it: at each
 * step i, op(own partial, the partial of rank r - i). */
static void hs_scan_f(const float *v, float *out, int n, int max_op)
{
    float cur[32], nxt[32];
    for (int r = 0; r < n; r++)
        cur[r] = v[r];
    for (int i = 1; i < n; i <<= 1) {
        for (int r = 0; r < n; r++)
            nxt[r] = r >= i ? (max_op ? (cur[r] < cur[r - i] ? cur[r - i] : cur[r]) : cur[r] + cur[r - i]) : cur[r];
        memcpy(cur, nxt, sizeof cur);
    }
    memcpy(out, cur, (size_t)n * sizeof *out);
}

/* cooperative_groups/scan.h (it was missing): inclusive and exclusive scans over tiles, a
 * coalesced group and with cg::greater, floats bit for bit in CUDA's order of operations;
 * tiles of a tile (tiled_partition<4>(warp): it was refused) whose meta_group_rank is their
 * rank in the warp, not in the block (a silent wrong value before). The kernel is
 * tests/corpus/cxx/cg_scans.cu. */
TEST(cooperative_groups_scans_and_tiles_of_tiles)
{
    lat_context *ctx = t_context();
    enum { n = 128 };
    static float x[n], fo[n * 3];
    static int v[n], io[n * 3];
    t_rand_floats(x, n, -8, 8);
    for (int i = 0; i < n; i++)
        v[i] = (int)(t_rand_u32() % 101) - 50;
    lat_kernel *k = public_kernel(ctx, "../cxx/cg_scans.cu", "cg_scans");
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {2}, .block = {64}},
                              LAT_ARGS(lat_arg_in(x, sizeof x), lat_arg_in(v, sizeof v), lat_arg_out(fo, sizeof fo),
                                       lat_arg_out(io, sizeof io))));
    for (int base = 0; base < n; base += 32) {
        float inc16[2][16], max32[32];
        hs_scan_f(x + base, inc16[0], 16, 0);
        hs_scan_f(x + base + 16, inc16[1], 16, 0);
        hs_scan_f(x + base, max32, 32, 1);
        int run = 0, rank = 0, imax = 0;
        for (int l = 0; l < 32; l++) {
            int t = base + l;
            float inc = inc16[l / 16][l % 16], exc = l % 16 ? inc16[l / 16][l % 16 - 1] : 0.0f;
            float mexc = l ? max32[l - 1] : 0.0f;
            ASSERT_MSG(fo[t * 3] == inc, "inclusive[%d] = %.9g, want %.9g", t, fo[t * 3], inc);
            ASSERT_MSG(fo[t * 3 + 1] == exc, "exclusive[%d] = %.9g, want %.9g", t, fo[t * 3 + 1], exc);
            ASSERT_MSG(fo[t * 3 + 2] == mexc, "exclusive max[%d] = %.9g, want %.9g", t, fo[t * 3 + 2], mexc);
            imax = l == 0 || v[t] > imax ? v[t] : imax;
            ASSERT_MSG(io[t * 3] == imax, "inclusive max[%d] = %d, want %d", t, io[t * 3], imax);
            int want = -1;
            if (v[t] > 0) {
                want = run * 100 + rank++;
                run += v[t];
            }
            ASSERT_MSG(io[t * 3 + 1] == want, "coalesced exclusive[%d] = %d, want %d", t, io[t * 3 + 1], want);
            int q = t & ~3, qs = v[q] + v[q + 1] + v[q + 2] + v[q + 3];
            ASSERT_MSG(io[t * 3 + 2] == qs + 1000 * (l / 4), "quad[%d] = %d, want %d", t, io[t * 3 + 2], qs + 1000 * (l / 4));
        }
    }
}

/* IEEE binary16 from a float, rounded to nearest even (finite inputs in half's range). */
static uint16_t host_f2h(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000);
    float a = fabsf(f);
    if (a < 6.103515625e-05f) { /* subnormal: multiples of 2^-24 */
        float q = rintf(a * 16777216.0f);
        return (uint16_t)(sign | (uint16_t)q);
    }
    int e;
    float m = frexpf(a, &e); /* a = m * 2^e, m in [0.5, 1) */
    float q = rintf(m * 2048.0f); /* 11 significant bits */
    if (q == 2048.0f) {
        q = 1024.0f;
        e++;
    }
    return (uint16_t)(sign | (uint16_t)((e + 14) << 10) | ((uint16_t)q & 0x3ff));
}

static float host_h2f(uint16_t h)
{
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    float v = e ? ldexpf((float)(m | 0x400), e - 25) : ldexpf((float)m, -24);
    return (h & 0x8000) ? -v : v;
}

/* PyTorch's shape of a half type: c10::Half a struct with conversions to and from float
 * and __half and operators of its own, brought into namespace at by `using c10::Half;`
 * (at::Half was "expected a type": a using-declaration made no member of the namespace),
 * acc_type<scalar_t, true> through an explicit specialization per type, a kernel
 * template explicitly instantiated for at::Half and float. */
TEST(pytorch_style_half_struct_through_a_namespace_using_declaration)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <cuda_fp16.h>\n"
        "#include <cstdint>\n"
        "#define C10_HOST_DEVICE __host__ __device__\n"
        "namespace c10 {\n"
        "struct alignas(2) Half {\n"
        "  unsigned short x;\n"
        "  Half() = default;\n"
        "  inline C10_HOST_DEVICE Half(float value) { x = __half_as_ushort(__float2half(value)); }\n"
        "  inline C10_HOST_DEVICE operator float() const { return __half2float(__ushort_as_half(x)); }\n"
        "};\n"
        "inline C10_HOST_DEVICE Half operator+(const Half &a, const Half &b) { return static_cast<float>(a) + static_cast<float>(b); }\n"
        "inline C10_HOST_DEVICE Half &operator+=(Half &a, const Half &b) { a = a + b; return a; }\n"
        "}\n"
        "namespace at { using c10::Half; }\n"
        "template <typename T, bool is_cuda> struct AccumulateType {};\n"
        "template <> struct AccumulateType<at::Half, true> { using type = float; };\n"
        "template <> struct AccumulateType<float, true> { using type = double; };\n"
        "template <typename T, bool is_cuda> using acc_type = typename AccumulateType<T, is_cuda>::type;\n"
        "template <typename scalar_t, typename index_t = int64_t>\n"
        "__global__ void axpy_kernel(const scalar_t *x, scalar_t *y, acc_type<scalar_t, true> alpha, index_t n) {\n"
        "  using accscalar_t = acc_type<scalar_t, true>;\n"
        "  index_t i = blockIdx.x * (index_t)blockDim.x + threadIdx.x;\n"
        "  if (i >= n) return;\n"
        "  accscalar_t a = static_cast<accscalar_t>(x[i]);\n"
        "  scalar_t r = static_cast<scalar_t>(alpha * a + static_cast<accscalar_t>(y[i]));\n"
        "  r += scalar_t(1.0f);\n"
        "  y[i] = r;\n"
        "}\n"
        "template __global__ void axpy_kernel<at::Half, int64_t>(const at::Half *, at::Half *, float, int64_t);\n"
        "template __global__ void axpy_kernel<float, int64_t>(const float *, float *, double, int64_t);\n";
    const char *names[] = {"axpy_kernel<at::Half, int64_t>", "axpy_kernel<float, int64_t>", NULL};
    lat_module *mod = NULL;
    lat_status st = lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "t.cu", .name_expressions = names}, &mod);
    if (st != LAT_OK)
        FAIL("lat_module_create: %s", lat_last_error());
    lat_kernel *kh, *kf;
    ASSERT_OK(lat_module_get_kernel(mod, names[0], &kh));
    ASSERT_OK(lat_module_get_kernel(mod, names[1], &kf));
    enum { n = 300 };
    uint16_t hx[n], hy[n], hy0[n];
    float fx[n], fy[n], fy0[n];
    for (int i = 0; i < n; i++) {
        float r4[4];
        t_rand_floats(r4, 4, -4, 4);
        hx[i] = host_f2h(r4[0]);
        hy0[i] = hy[i] = host_f2h(r4[1]);
        fx[i] = r4[2];
        fy0[i] = fy[i] = r4[3];
    }
    const float alpha = 1.75f;
    ASSERT_OK(lat_launch_args(kh, &(lat_launch_desc){.grid = {3}, .block = {128}},
                              LAT_ARGS(lat_arg_in(hx, sizeof hx), lat_arg_inout(hy, sizeof hy), lat_arg_f32(alpha),
                                       lat_arg_i64(n))));
    ASSERT_OK(lat_launch_args(kf, &(lat_launch_desc){.grid = {3}, .block = {128}},
                              LAT_ARGS(lat_arg_in(fx, sizeof fx), lat_arg_inout(fy, sizeof fy), lat_arg_f64(alpha),
                                       lat_arg_i64(n))));
    for (int i = 0; i < n; i++) {
        /* alpha * a + y contracts to one fma, as ptxas does */
        uint16_t r = host_f2h(fmaf(alpha, host_h2f(hx[i]), host_h2f(hy0[i])));
        uint16_t want = host_f2h(host_h2f(r) + host_h2f(host_f2h(1.0f)));
        ASSERT_MSG(hy[i] == want, "half y[%d] = 0x%04x, want 0x%04x", i, hy[i], want);
        float fw = (float)((double)alpha * fx[i] + (double)fy0[i]) + 1.0f;
        ASSERT_MSG(fy[i] == fw, "float y[%d] = %.9g, want %.9g", i, fy[i], fw);
    }
    lat_module_destroy(mod);
}

/* C++'s expressions where C's differ: a ?: of two lvalues of one type is the object it
 * chooses (`(x < pivot ? lo : hi) = x`, `+=`, `++`, a struct; "not something that can be
 * assigned" before), and a character constant is a char (sizeof 1, f(char) over f(int),
 * `auto c = 'x'` a char; it was an int, as in C). */
TEST(conditional_lvalues_and_char_constants_as_cxx_has_them)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct P { int x, y; };\n"
        "__device__ int f(char) { return 1; }\n"
        "__device__ int f(int) { return 2; }\n"
        "template <typename T> __device__ int size_of(T) { return (int)sizeof(T); }\n"
        "extern \"C\" __global__ void k(const int *in, int *o, float *lohi) {\n"
        "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  int a = 1, b = 2;\n"
        "  (in[t] % 2 ? a : b) = 7;\n"
        "  (in[t] % 3 ? a : b) += 10;\n"
        "  ++(in[t] % 5 ? a : b);\n"
        "  P p{1, 2}, q{3, 4};\n"
        "  (t & 1 ? p : q) = P{9, 8};\n"
        "  float lo = -1, hi = 1000, x = (float)in[t];\n"
        "  ((x < 50) ? lo : hi) = x;\n"
        "  auto c = 'x';\n"
        "  o[t * 4] = a * 100 + b; o[t * 4 + 1] = p.x * 10 + q.y; o[t * 4 + 2] = sizeof('a') * 100 + sizeof(c) * 10 + f('a');\n"
        "  o[t * 4 + 3] = size_of('b') * 10 + size_of(c + 1);\n"
        "  lohi[t * 2] = lo; lohi[t * 2 + 1] = hi;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    enum { n = 128 };
    int in[n], o[n * 4];
    float lohi[n * 2];
    for (int i = 0; i < n; i++)
        in[i] = (int)(t_rand_u32() % 100);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {2}, .block = {64}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(o, sizeof o), lat_arg_out(lohi, sizeof lohi))));
    for (int t = 0; t < n; t++) {
        int a = 1, b = 2;
        *(in[t] % 2 ? &a : &b) = 7;
        *(in[t] % 3 ? &a : &b) += 10;
        ++*(in[t] % 5 ? &a : &b);
        int px = t & 1 ? 9 : 1, qy = t & 1 ? 4 : 8;
        ASSERT_MSG(o[t * 4] == a * 100 + b, "a, b [%d] = %d, want %d", t, o[t * 4], a * 100 + b);
        ASSERT_MSG(o[t * 4 + 1] == px * 10 + qy, "p, q [%d] = %d, want %d", t, o[t * 4 + 1], px * 10 + qy);
        ASSERT_MSG(o[t * 4 + 2] == 111, "char sizes [%d] = %d, want 111", t, o[t * 4 + 2]);
        ASSERT_MSG(o[t * 4 + 3] == 14, "char deduction [%d] = %d, want 14", t, o[t * 4 + 3]);
        float lo = in[t] < 50 ? (float)in[t] : -1, hi = in[t] < 50 ? 1000 : (float)in[t];
        ASSERT_MSG(lohi[t * 2] == lo && lohi[t * 2 + 1] == hi, "lo, hi [%d] = %g, %g", t, lohi[t * 2], lohi[t * 2 + 1]);
    }
}

/* vLLM's idioms (tests/corpus/src/vllm_style.cuh): a function template's instance as a
 * function pointer template argument whose type the parameter before it gives
 * (act_and_mul_kernel<float, silu<float>, true>: "must name a function", and a plain
 * function was refused as not the `void (const void &)` read with placeholders), an RMS
 * norm through a static __shared__ block sum, a rotary embedding whose locals are named
 * cos and sin; on floats and halves. */
TEST(vllm_style_gated_activations_rms_norm_and_rotary_embedding)
{
    lat_context *ctx = t_context();
    enum { tokens = 8, d = 256 };
    static float in[tokens * 2 * d], out[tokens * d];
    static uint16_t hin[tokens * 2 * d], hout[tokens * d];
    t_rand_floats(in, tokens * 2 * d, -6, 6);
    for (int i = 0; i < tokens * 2 * d; i++)
        hin[i] = host_f2h(in[i]);
    lat_kernel *silu = public_kernel(ctx, "../cxx/vllm_style_gelu_and_mul_half.cu",
                                     "vstyle::act_and_mul_kernel<float, vstyle::silu<float>, true>");
    ASSERT_OK(lat_launch_args(silu, &(lat_launch_desc){.grid = {tokens}, .block = {128}},
                              LAT_ARGS(lat_arg_out(out, sizeof out), lat_arg_in(in, sizeof in), lat_arg_i32(d))));
    lat_kernel *gelu = public_kernel(ctx, "../cxx/vllm_style_gelu_and_mul_half.cu",
                                     "vstyle::act_and_mul_kernel<half, vstyle::gelu_tanh<half>, false>");
    ASSERT_OK(lat_launch_args(gelu, &(lat_launch_desc){.grid = {tokens}, .block = {128}},
                              LAT_ARGS(lat_arg_out(hout, sizeof hout), lat_arg_in(hin, sizeof hin), lat_arg_i32(d))));
    for (int t = 0; t < tokens; t++)
        for (int i = 0; i < d; i++) {
            double x = in[t * 2 * d + i], y = in[t * 2 * d + d + i];
            double want = x / (1 + exp(-x)) * y;
            ASSERT_MSG(t_close(out[t * d + i], want, 1e-5, 1e-6), "silu*y [%d][%d] = %.9g, want %.9g", t, i, out[t * d + i], want);
            double hx = host_h2f(hin[t * 2 * d + i]), hy = host_h2f(hin[t * 2 * d + d + i]);
            double g = 0.5 * hy * (1 + tanh(sqrt(2 / M_PI) * (hy + 0.044715 * hy * hy * hy)));
            double hw = hx * host_h2f(host_f2h((float)g));
            ASSERT_MSG(t_close(host_h2f(hout[t * d + i]), hw, 2e-3, 2e-3), "x*gelu [%d][%d] = %.9g, want %.9g", t, i,
                       host_h2f(hout[t * d + i]), hw);
        }
    /* RMS norm on halves */
    enum { hidden = 512, rows = 4 };
    static uint16_t nx[rows * hidden], nw[hidden], nout[rows * hidden];
    for (int i = 0; i < rows * hidden; i++)
        nx[i] = host_f2h(in[i] * 0.5f);
    for (int i = 0; i < hidden; i++)
        nw[i] = host_f2h(in[rows * hidden + i] / 6);
    lat_kernel *rms = public_kernel(ctx, "../cxx/vllm_style_gelu_and_mul_half.cu", "vstyle::rms_norm_kernel<half>");
    ASSERT_OK(lat_launch_args(rms, &(lat_launch_desc){.grid = {rows}, .block = {256}},
                              LAT_ARGS(lat_arg_out(nout, sizeof nout), lat_arg_in(nx, sizeof nx), lat_arg_in(nw, sizeof nw),
                                       lat_arg_f32(1e-6f), lat_arg_i32(hidden))));
    for (int r = 0; r < rows; r++) {
        double ss = 0;
        for (int i = 0; i < hidden; i++)
            ss += host_h2f(nx[r * hidden + i]) * (double)host_h2f(nx[r * hidden + i]);
        double inv = 1 / sqrt(ss / hidden + 1e-6);
        for (int i = 0; i < hidden; i++) {
            double want = host_h2f(host_f2h((float)(host_h2f(nx[r * hidden + i]) * inv))) * host_h2f(nw[i]);
            ASSERT_MSG(t_close(host_h2f(nout[r * hidden + i]), want, 2e-3, 1e-4), "rms [%d][%d] = %.9g, want %.9g", r, i,
                       host_h2f(nout[r * hidden + i]), want);
        }
    }
    /* rotary embedding, NeoX layout, floats */
    enum { ntok = 4, heads = 4, head_size = 64, rot = 32 };
    static float q[ntok * heads * head_size], q0[ntok * heads * head_size], cache[16 * rot];
    int64_t pos[ntok] = {3, 15, 0, 7};
    t_rand_floats(q0, ntok * heads * head_size, -2, 2);
    t_rand_floats(cache, 16 * rot, -1, 1);
    memcpy(q, q0, sizeof q);
    lat_kernel *rope = public_kernel(ctx, "../cxx/vllm_style_rotary_neox_float.cu", "vstyle::rotary_kernel<float, true>");
    ASSERT_OK(lat_launch_args(rope, &(lat_launch_desc){.grid = {ntok}, .block = {64}},
                              LAT_ARGS(lat_arg_in(pos, sizeof pos), lat_arg_inout(q, sizeof q), lat_arg_in(cache, sizeof cache),
                                       lat_arg_i32(rot), lat_arg_i64(heads * head_size), lat_arg_i32(heads),
                                       lat_arg_i32(head_size))));
    for (int t = 0; t < ntok; t++)
        for (int h = 0; h < heads; h++)
            for (int j = 0; j < head_size; j++) {
                const float *v = q0 + t * heads * head_size + h * head_size, *c = cache + pos[t] * rot;
                double want = v[j];
                if (j < rot / 2)
                    want = (double)v[j] * c[j] - (double)v[j + rot / 2] * c[rot / 2 + j];
                else if (j < rot)
                    want = (double)v[j] * c[j - rot / 2] + (double)v[j - rot / 2] * c[rot / 2 + j - rot / 2];
                float got = q[t * heads * head_size + h * head_size + j];
                ASSERT_MSG(t_close(got, want, 1e-5, 1e-6), "rope [%d][%d][%d] = %.9g, want %.9g", t, h, j, got, want);
            }
}

/* vLLM's shape of a fused add + RMS norm over packed halves: a vector class template whose
 * operator+= adds __half2s with `temp += T2{...}` and whose operator*= multiplies its
 * __half elements (its own operator+= and operator*= were taken for those, a refusal:
 * C++ looks up non-member operators ignoring the enclosing class's members), converters
 * chosen by explicit specialization, a kernel template whose return type is
 * std::enable_if_t<(width > 0) && _typeConvert<T>::exists> (refused: a condition mixing a
 * value parameter and a dependent constant was read as false), two kernels of one name
 * told apart by enable_if_t and picked by their name expressions (the second expression
 * took both: a failed enable_if_t<false> was kept as int). */
TEST(vllm_style_packed_half_vectors_and_enable_if_kernels)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <cuda_fp16.h>\n"
        "#include <type_traits>\n"
        "template <typename T> struct _typeConvert { static constexpr bool exists = false; };\n"
        "template <> struct _typeConvert<half> {\n"
        "  static constexpr bool exists = true;\n"
        "  using hip_type = __half; using packed_hip_type = __half2;\n"
        "  __device__ static inline float2 convert(packed_hip_type x) { return __half22float2(x); }\n"
        "  __device__ static inline packed_hip_type convert(float2 x) { return __float22half2_rn(x); }\n"
        "};\n"
        "template <typename scalar_t, int width> struct alignas(16) _f16Vec {\n"
        "  static_assert(width > 0 && (width & (width - 1)) == 0, \"Width is not a positive power of 2!\");\n"
        "  using Converter = _typeConvert<scalar_t>;\n"
        "  using T1 = typename Converter::hip_type;\n"
        "  using T2 = typename Converter::packed_hip_type;\n"
        "  T1 data[width];\n"
        "  __device__ _f16Vec &operator+=(const _f16Vec<scalar_t, width> &other) {\n"
        "#pragma unroll\n"
        "    for (int i = 0; i < width; i += 2) { T2 temp{data[i], data[i + 1]}; temp += T2{other.data[i], other.data[i + 1]};\n"
        "      data[i] = temp.x; data[i + 1] = temp.y; }\n"
        "    return *this; }\n"
        "  __device__ _f16Vec &operator*=(const _f16Vec<scalar_t, width> &other) {\n"
        "    for (int i = 0; i < width; ++i) data[i] *= other.data[i];\n"
        "    return *this; }\n"
        "  __device__ _f16Vec &operator*=(const float scale) {\n"
        "    for (int i = 0; i < width; i += 2) { float2 f = Converter::convert(T2{data[i], data[i + 1]});\n"
        "      f.x *= scale; f.y *= scale; T2 t = Converter::convert(f); data[i] = t.x; data[i + 1] = t.y; }\n"
        "    return *this; }\n"
        "  __device__ float sum_squares() const { float r = 0.0f;\n"
        "    for (int i = 0; i < width; i += 2) { float2 z = Converter::convert(T2{data[i], data[i + 1]}); r += z.x * z.x + z.y * z.y; }\n"
        "    return r; }\n"
        "};\n"
        "template <typename scalar_t, int width>\n"
        "__global__ std::enable_if_t<(width > 0) && _typeConvert<scalar_t>::exists>\n"
        "fused_add_rms_norm_kernel(scalar_t *__restrict__ input, scalar_t *__restrict__ residual,\n"
        "                          const scalar_t *__restrict__ weight, const float epsilon, const int hidden_size) {\n"
        "  const int vec_hidden_size = hidden_size / width;\n"
        "  __shared__ float s_variance;\n"
        "  float variance = 0.0f;\n"
        "  auto *__restrict__ input_v = reinterpret_cast<_f16Vec<scalar_t, width> *>(input);\n"
        "  auto *__restrict__ residual_v = reinterpret_cast<_f16Vec<scalar_t, width> *>(residual);\n"
        "  auto *__restrict__ weight_v = reinterpret_cast<const _f16Vec<scalar_t, width> *>(weight);\n"
        "  for (int idx = threadIdx.x; idx < vec_hidden_size; idx += blockDim.x) {\n"
        "    int id = blockIdx.x * vec_hidden_size + idx;\n"
        "    _f16Vec<scalar_t, width> temp = input_v[id];\n"
        "    temp += residual_v[id];\n"
        "    variance += temp.sum_squares();\n"
        "    residual_v[id] = temp;\n"
        "  }\n"
        "  for (int o = 16; o > 0; o >>= 1) variance += __shfl_xor_sync(0xffffffffu, variance, o);\n"
        "  if (threadIdx.x == 0) s_variance = rsqrtf(variance / hidden_size + epsilon);\n"
        "  __syncthreads();\n"
        "  for (int idx = threadIdx.x; idx < vec_hidden_size; idx += blockDim.x) {\n"
        "    int id = blockIdx.x * vec_hidden_size + idx;\n"
        "    _f16Vec<scalar_t, width> temp = residual_v[id];\n"
        "    temp *= s_variance;\n"
        "    temp *= weight_v[idx];\n"
        "    input_v[id] = temp;\n"
        "  }\n"
        "}\n"
        "template <typename T, int W> __global__ std::enable_if_t<(W > 0) && _typeConvert<T>::exists> tag(int *o) { o[0] = W; }\n"
        "template <typename T, int W> __global__ std::enable_if_t<(W == 0) || !_typeConvert<T>::exists> tag(int *o) { o[0] = -W - 1; }\n";
    const char *names[] = {"fused_add_rms_norm_kernel<half, 8>", "tag<half, 4>", "tag<float, 4>", "tag<half, 0>", NULL};
    lat_module *mod = NULL;
    lat_status st = lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "t.cu", .name_expressions = names}, &mod);
    if (st != LAT_OK)
        FAIL("lat_module_create: %s", lat_last_error());
    int want_tag[3] = {4, -5, -1};
    for (int i = 0; i < 3; i++) {
        lat_kernel *k;
        int o = 0;
        ASSERT_OK(lat_module_get_kernel(mod, names[i + 1], &k));
        ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}}, LAT_ARGS(lat_arg_out(&o, sizeof o))));
        ASSERT_MSG(o == want_tag[i], "%s wrote %d, want %d", names[i + 1], o, want_tag[i]);
    }
    enum { rows = 4, hidden = 256 };
    static uint16_t x[rows * hidden], res[rows * hidden], res0[rows * hidden], w[hidden];
    for (int i = 0; i < rows * hidden; i++) {
        float r2[2];
        t_rand_floats(r2, 2, -2, 2);
        x[i] = host_f2h(r2[0]);
        res0[i] = res[i] = host_f2h(r2[1]);
    }
    for (int i = 0; i < hidden; i++) {
        float r1;
        t_rand_floats(&r1, 1, 0.5f, 1.5f);
        w[i] = host_f2h(r1);
    }
    static uint16_t x0[rows * hidden];
    memcpy(x0, x, sizeof x);
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(mod, names[0], &k));
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {rows}, .block = {32}},
                              LAT_ARGS(lat_arg_inout(x, sizeof x), lat_arg_inout(res, sizeof res), lat_arg_in(w, sizeof w),
                                       lat_arg_f32(1e-6f), lat_arg_i32(hidden))));
    for (int r = 0; r < rows; r++) {
        double ss = 0;
        for (int i = 0; i < hidden; i++) {
            uint16_t sum = host_f2h(host_h2f(x0[r * hidden + i]) + host_h2f(res0[r * hidden + i]));
            ASSERT_MSG(res[r * hidden + i] == sum, "residual[%d][%d] = 0x%04x, want 0x%04x", r, i, res[r * hidden + i], sum);
            ss += (double)host_h2f(sum) * host_h2f(sum);
        }
        double inv = 1 / sqrt(ss / hidden + 1e-6);
        for (int i = 0; i < hidden; i++) {
            double want = host_h2f(host_f2h((float)(host_h2f(res[r * hidden + i]) * inv))) * host_h2f(w[i]);
            ASSERT_MSG(t_close(host_h2f(x[r * hidden + i]), want, 2e-3, 1e-4), "out[%d][%d] = %.9g, want %.9g", r, i,
                       host_h2f(x[r * hidden + i]), want);
        }
    }
    lat_module_destroy(mod);
}

/* Function templates overloaded on T & and const T & as tuple libraries write get<I>: a
 * non-const lvalue takes T & (get<0>(t) += 1 took the const overload: "compound assignment
 * of a read-only location"), a const one const T &, an rvalue only const T & (T & was
 * taken and refused); over a by-value overload neither is preferred (faiss's shfl_xor of
 * a Pair stays the Pair one). References collapse through a template parameter or an
 * alias (const ref_t<T> with ref_t<T> = T &; "a reference to a reference" before). */
TEST(reference_overloads_rank_as_cxx_and_references_collapse)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "template <typename... Ts> struct tuple;\n"
        "template <> struct tuple<> {};\n"
        "template <typename T, typename... R> struct tuple<T, R...> {\n"
        "  T head; tuple<R...> tail;\n"
        "  __device__ tuple() : head(), tail() {}\n"
        "  __device__ tuple(const T &h, const R &... r) : head(h), tail(r...) {}\n"
        "};\n"
        "template <unsigned long I, typename T> struct element;\n"
        "template <typename T, typename... R> struct element<0, tuple<T, R...>> { typedef T type; };\n"
        "template <unsigned long I, typename T, typename... R> struct element<I, tuple<T, R...>> : element<I - 1, tuple<R...>> {};\n"
        "template <unsigned long I> struct getter {\n"
        "  template <typename T, typename... R> static __device__ typename element<I, tuple<T, R...>>::type &get(tuple<T, R...> &t) { return getter<I - 1>::get(t.tail); }\n"
        "  template <typename T, typename... R> static __device__ const typename element<I, tuple<T, R...>>::type &get(const tuple<T, R...> &t) { return getter<I - 1>::get(t.tail); }\n"
        "};\n"
        "template <> struct getter<0> {\n"
        "  template <typename T, typename... R> static __device__ T &get(tuple<T, R...> &t) { return t.head; }\n"
        "  template <typename T, typename... R> static __device__ const T &get(const tuple<T, R...> &t) { return t.head; }\n"
        "};\n"
        "template <unsigned long I, typename... Ts> __device__ typename element<I, tuple<Ts...>>::type &get(tuple<Ts...> &t) { return getter<I>::get(t); }\n"
        "template <unsigned long I, typename... Ts> __device__ const typename element<I, tuple<Ts...>>::type &get(const tuple<Ts...> &t) { return getter<I>::get(t); }\n"
        "template <typename T> __device__ int f(const T &) { return 1; }\n"
        "template <typename T> __device__ int f(T &) { return 2; }\n"
        "template <typename T> using ref_t = T &;\n"
        "template <typename T> __device__ void twice(const ref_t<T> x) { x *= 2; }\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int *oi) {\n"
        "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  tuple<float, int, double> a(in[t], t, 0.25);\n"
        "  get<0>(a) += 1.0f;\n"
        "  get<2>(a) *= 4;\n"
        "  const tuple<float, int, double> &ca = a;\n"
        "  float v = get<0>(ca);\n"
        "  twice<float>(v);\n"
        "  out[t] = v + get<1>(ca) * 100 + (float)get<2>(a);\n"
        "  int x = 1; const int y = 2;\n"
        "  if (t == 0) { oi[0] = f(x); oi[1] = f(y); oi[2] = f(3); oi[3] = f(get<1>(a)); oi[4] = f(get<1>(ca)); }\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    enum { n = 64 };
    float in[n], out[n];
    int oi[5];
    t_rand_floats(in, n, -10, 10);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {2}, .block = {32}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out), lat_arg_out(oi, sizeof oi))));
    for (int t = 0; t < n; t++) {
        float want = (in[t] + 1.0f) * 2 + (float)(t * 100) + 1.0f;
        ASSERT_MSG(t_close(out[t], want, 1e-6, 1e-5), "out[%d] = %.9g, want %.9g", t, out[t], want);
    }
    static const int want[5] = {2, 1, 1, 2, 1};
    for (int i = 0; i < 5; i++)
        ASSERT_MSG(oi[i] == want[i], "oi[%d] = %d, want %d", i, oi[i], want[i]);
}

/* <tuple> and <cuda/std/tuple> (they were missing): std::tuple built, read and written
 * through std::get<I> (const and not), make_tuple, tie (writing through to the tied
 * variables), a default tuple value-initialised, tuple_size and tuple_element; a
 * structured binding of a tuple is refused by name rather than bound to the class's
 * recursive members. */
TEST(std_tuple_get_make_tuple_and_tie)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#include <tuple>\n"
        "#include <cuda/std/tuple>\n"
        "extern \"C\" __global__ void k(const float *in, float *out, int *oi) {\n"
        "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  std::tuple<float, int, double> a(in[t], t, 0.5);\n"
        "  auto b = std::make_tuple(in[t] * 2, (char)3, 7u);\n"
        "  std::get<0>(a) += 1.0f;\n"
        "  const auto &ca = a;\n"
        "  std::tuple<int, float> z;\n"
        "  float x = 1; int y = 2;\n"
        "  auto tied = std::tie(x, y);\n"
        "  std::get<0>(tied) = in[t];\n"
        "  std::get<1>(tied) += 40;\n"
        "  cuda::std::tuple<short, float> c(3, 0.25f);\n"
        "  out[t * 3] = std::get<0>(ca) + (float)std::get<2>(a) + std::get<0>(b) * std::get<1>(b);\n"
        "  out[t * 3 + 1] = x * y + std::get<1>(z) + cuda::std::get<1>(c);\n"
        "  out[t * 3 + 2] = (float)(std::get<1>(ca) + std::get<0>(z) + std::get<2>(b));\n"
        "  if (t == 0) { oi[0] = (int)std::tuple_size<decltype(b)>::value; oi[1] = sizeof(std::tuple_element<1, decltype(b)>::type);\n"
        "    oi[2] = sizeof(cuda::std::tuple_element<0, decltype(c)>::type); }\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    enum { n = 64 };
    float in[n], out[n * 3];
    int oi[3];
    t_rand_floats(in, n, -4, 4);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {2}, .block = {32}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out), lat_arg_out(oi, sizeof oi))));
    for (int t = 0; t < n; t++) {
        float w0 = (in[t] + 1.0f) + 0.5f + in[t] * 2 * 3, w1 = in[t] * 42 + 0.25f, w2 = (float)(t + 7);
        ASSERT_MSG(t_close(out[t * 3], w0, 1e-6, 1e-5), "out[%d][0] = %.9g, want %.9g", t, out[t * 3], w0);
        ASSERT_MSG(t_close(out[t * 3 + 1], w1, 1e-6, 1e-5), "out[%d][1] = %.9g, want %.9g", t, out[t * 3 + 1], w1);
        ASSERT_MSG(out[t * 3 + 2] == w2, "out[%d][2] = %.9g, want %.9g", t, out[t * 3 + 2], w2);
    }
    ASSERT_MSG(oi[0] == 3 && oi[1] == 1 && oi[2] == 2, "tuple_size %d, element sizes %d %d", oi[0], oi[1], oi[2]);
    /* a tuple binds through its elements (test_cxx_wild.c runs it) */
    const char *m = cxx_error(ctx, "#include <tuple>\n"
                                   "__global__ void k2(float *o) { auto [p, q] = std::make_tuple(1.0f, 2); o[0] = p + q; }\n");
    ASSERT_TRUE(m == NULL);
}

/* An optional-like class: `explicit operator bool() const` ('explicit' was refused) used
 * where C++ converts contextually, in if, !, &&, ?:, a for condition and a cast (each was
 * "a condition of type struct"), also through a base class; a member operator* (refused as
 * "'*' of struct Opt, not a pointer"). */
TEST(explicit_operator_bool_and_operator_star_as_an_optional_uses_them)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct Opt { int v; bool ok;\n"
        "  __device__ explicit operator bool() const { return ok; }\n"
        "  __device__ int operator*() const { return v; } };\n"
        "struct Found : Opt { __device__ Found(int i, bool b) { v = i; ok = b; } };\n"
        "__device__ Found find(const int *p, int n, int key) {\n"
        "  for (int i = 0; i < n; i++) if (p[i] == key) return Found(i, true);\n"
        "  return Found(-1, false); }\n"
        "extern \"C\" __global__ void k(const int *in, int *o, int n) {\n"
        "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  Found r = find(in, n, t);\n"
        "  int c = 0;\n"
        "  if (r) c += 1;\n"
        "  if (!r) c += 10;\n"
        "  if (r && t > 0) c += 100;\n"
        "  c += r ? 1000 : 0;\n"
        "  for (Found q = r; q; q.ok = false) c += 10000;\n"
        "  o[t * 2] = c + (bool)r * 100000;\n"
        "  o[t * 2 + 1] = r ? *r : -1;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    enum { n = 64 };
    int in[n], o[n * 2];
    for (int i = 0; i < n; i++)
        in[i] = (int)(t_rand_u32() % 96);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {2}, .block = {32}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(o, sizeof o), lat_arg_i32(n))));
    for (int t = 0; t < n; t++) {
        int at = -1;
        for (int i = 0; i < n && at < 0; i++)
            if (in[i] == t)
                at = i;
        int want = at >= 0 ? 1 + (t > 0 ? 100 : 0) + 1000 + 10000 + 100000 : 10;
        ASSERT_MSG(o[t * 2] == want, "flags[%d] = %d, want %d", t, o[t * 2], want);
        ASSERT_MSG(o[t * 2 + 1] == at, "index[%d] = %d, want %d", t, o[t * 2 + 1], at);
    }
}

/* An iterator class as thrust- and CUTLASS-style code writes one: operator-> (it->x was
 * "'->' on struct Iter, not a pointer"), prefix and postfix operator++ ("++ of struct
 * Iter"), operator* and !=, in an explicit loop and in a range-based for over a class whose
 * begin() and end() return it. */
TEST(iterator_classes_with_arrow_and_increment_operators)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct P { float x, y; };\n"
        "struct Iter { P *p;\n"
        "  __device__ P *operator->() const { return p; }\n"
        "  __device__ P &operator*() const { return *p; }\n"
        "  __device__ Iter &operator++() { ++p; return *this; }\n"
        "  __device__ Iter operator++(int) { Iter c = *this; ++p; return c; }\n"
        "  __device__ bool operator!=(const Iter &o) const { return p != o.p; } };\n"
        "struct Range { P *b, *e; __device__ Iter begin() const { return Iter{b}; } __device__ Iter end() const { return Iter{e}; } };\n"
        "extern \"C\" __global__ void k(const float *in, float *out) {\n"
        "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  P ps[8];\n"
        "  for (int i = 0; i < 8; i++) { ps[i].x = in[t * 8 + i]; ps[i].y = 2 * in[t * 8 + i]; }\n"
        "  Iter it{ps};\n"
        "  it->x += 1;\n"
        "  (*it).y = -1;\n"
        "  float s = 0;\n"
        "  for (Iter i{ps}, e{ps + 8}; i != e; ++i) s += i->x + (*i).y;\n"
        "  Range r{ps + 4, ps + 8};\n"
        "  for (auto &q : r) q.x *= 3;\n"
        "  Iter j{ps + 4};\n"
        "  Iter old = j++;\n"
        "  out[t * 2] = s;\n"
        "  out[t * 2 + 1] = old->x + j->x;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    enum { n = 64 };
    static float in[n * 8], out[n * 2];
    t_rand_floats(in, n * 8, -5, 5);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {2}, .block = {32}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out))));
    for (int t = 0; t < n; t++) {
        const float *v = in + t * 8;
        float s = 0;
        for (int i = 0; i < 8; i++)
            s += i == 0 ? (v[0] + 1) + -1.0f : v[i] + 2 * v[i];
        float w = v[4] * 3 + v[5] * 3;
        ASSERT_MSG(t_close(out[t * 2], s, 1e-5, 1e-5), "sum[%d] = %.9g, want %.9g", t, out[t * 2], s);
        ASSERT_MSG(t_close(out[t * 2 + 1], w, 1e-6, 1e-6), "post[%d] = %.9g, want %.9g", t, out[t * 2 + 1], w);
    }
}

/* A range-based for over a braced list, as unrolled code writes it (`for (int off : {16, 8,
 * 4, 2, 1})`: refused, after a syntax error), of numbers, variables and structs; and an
 * array of unknown size initialised from objects of its class (`const P ps[] = {p1, p2}`
 * was sized 1, as if brace elision took p1's members: TinyCC then refused the C). */
TEST(range_for_over_braced_lists_and_arrays_of_class_objects)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "struct P { float x, y; };\n"
        "extern \"C\" __global__ void k(const float *in, float *out) {\n"
        "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  float a = in[t], b = 2 * in[t], s = 0;\n"
        "  for (auto v : {a, b, 3.0f}) s += v;\n"
        "  P p1{a, 2}, p2{3, b};\n"
        "  for (const auto &p : {p1, p2}) s += p.x * p.y * 100;\n"
        "  for (int off : {16, 8, 4, 2, 1}) s += __shfl_xor_sync(0xffffffffu, a, off) * off;\n"
        "  const P ps[] = {p1, p2, P{5, 6}};\n"
        "  out[t * 2] = s;\n"
        "  out[t * 2 + 1] = sizeof(ps) / sizeof(P) * 1000 + ps[1].y + ps[2].x * ps[0].x;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    enum { n = 64 };
    float in[n], out[n * 2];
    t_rand_floats(in, n, -3, 3);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {2}, .block = {32}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out))));
    for (int t = 0; t < n; t++) {
        double a = in[t], b = 2.0 * in[t], s = a + b + 3 + (a * 2) * 100 + (3 * b) * 100;
        int offs[5] = {16, 8, 4, 2, 1};
        for (int i = 0; i < 5; i++)
            s += (double)in[(t & ~31) | ((t & 31) ^ offs[i])] * offs[i];
        double w1 = 3000 + b + 5 * a;
        ASSERT_MSG(t_close(out[t * 2], s, 1e-5, 1e-4), "sum[%d] = %.9g, want %.9g", t, out[t * 2], s);
        ASSERT_MSG(t_close(out[t * 2 + 1], w1, 1e-6, 1e-5), "ps[%d] = %.9g, want %.9g", t, out[t * 2 + 1], w1);
    }
}

/* A built-in the emulator's headers extend for their classes (atomicAdd of __half) called
 * with arguments no extension takes says what the built-in takes, not the extension's
 * internal name ('__lat_ext_atomicAdd'). */
TEST(a_builtin_no_header_extension_takes_is_refused_by_its_own_name)
{
    lat_context *ctx = t_context();
    if (!t_is_emu(ctx))
        SKIP("the emulator's own messages");
    const char *m = cxx_error(ctx, "#include <cuda_fp16.h>\n"
                                   "__global__ void k(float2 *o) { atomicAdd(o, make_float2(1.0f, 2.0f)); }\n");
    ASSERT_NOT_NULL(m);
    ASSERT_CONTAINS(m, "'atomicAdd' has no overload for 'float2 *'");
    ASSERT_TRUE(strstr(m, "__lat_ext") == NULL);
}

/* Overload resolution against C++'s (g++ gave the expected picks): integer and floating
 * promotions and conversions, pointer to bool against pointer to void * (a pointer takes
 * void *: it was refused as ambiguous), a derived object's pointer to its base's pointer
 * over void * (it took void *: a silent wrong call) and to a const reference to its base
 * (refused), a plain function over a template's instance, and C++'s partial ordering of
 * function templates (tp(X *) over tp(X) for an int *: it took tp(X), a silent wrong call). */
TEST(overload_resolution_picks_what_cxx_picks)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#define D __device__\n"
        "struct S { int v; D S(int x) : v(x) {} };\n"
        "struct T { float v; D operator float() const { return v; } };\n"
        "D int f(int) { return 1; }\n"
        "D int f(long) { return 2; }\n"
        "D int f(double) { return 3; }\n"
        "D int f(float) { return 4; }\n"
        "D int f(unsigned) { return 5; }\n"
        "D int g(long) { return 1; }\n"
        "D int g(double) { return 2; }\n"
        "D int h(float) { return 1; }\n"
        "D int h(S) { return 2; }\n"
        "D int m(const char *) { return 1; }\n"
        "D int m(bool) { return 2; }\n"
        "D int m(void *) { return 3; }\n"
        "D int q(int *) { return 1; }\n"
        "D int q(const int *) { return 2; }\n"
        "D int r(float, int) { return 1; }\n"
        "D int r(double, double) { return 2; }\n"
        "D int u(unsigned char) { return 1; }\n"
        "D int u(int) { return 2; }\n"
        "D int w(long long) { return 1; }\n"
        "D int w(unsigned long long) { return 2; }\n"
        "template <typename X> D int tt(X) { return 1; }\n"
        "D int tt(int) { return 2; }\n"
        "template <typename X> D int tp(X *) { return 1; }\n"
        "template <typename X> D int tp(X) { return 2; }\n"
        "template <typename X> D int tc(const X &) { return 1; }\n"
        "template <typename X> D int tc(X *) { return 2; }\n"
        "#define CASES(X) \\\n"
        "  X(f(1)) X(f(1L)) X(f(1.0)) X(f(1.0f)) X(f(1u)) X(f((short)1)) X(f('a')) X(f(true)) \\\n"
        "  X(g(1.0f)) X(h(1.0)) X(h(T{2.0f})) X(m(\"x\")) X(m(0 == 0)) X(m(ip)) X(q(ip)) X(q(cip)) \\\n"
        "  X(r(1.0f, 1)) X(r(1.0, 1.0)) X(u((unsigned char)1)) X(u('a')) X(u((short)2)) \\\n"
        "  X(w(1LL)) X(w(1ULL)) X(tt(1)) X(tt(1.0f)) X(tt((short)1)) X(tp(ip)) X(tp(1)) X(tc(ip)) X(tc(1)) X(tc(cip))\n"
        "struct BB { int b; }; struct DD : BB { int d; };\n"
        "D int pb(BB *) { return 1; }\n"
        "D int pb(void *) { return 2; }\n"
        "D int rb(const BB &) { return 1; }\n"
        "D int rb(long) { return 2; }\n"
        "#define CASES2(X) X(pb(&dd)) X(pb(ip)) X(rb(dd)) X(rb(bb))\n"
        "extern \"C\" __global__ void k(int *o) {\n"
        "  DD dd; BB bb; int x = 0; int *ip = &x; const int *cip = &x; int n = 0;\n"
        "#define X(e) o[n++] = e;\n"
        "  CASES(X) CASES2(X)\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    static const int want[] = {1, 2, 3, 4, 5, 1, 1, 1, 2, 1, 1, 1, 2, 3, 1, 2, 1, 2, 1, 2, 2, 1, 2, 2,
                               1, 1, 1, 2, 2, 1, 2, 1, 2, 1, 1};
    enum { n = sizeof want / sizeof *want };
    int o[n];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}}, LAT_ARGS(lat_arg_out(o, sizeof o))));
    for (int i = 0; i < n; i++)
        ASSERT_MSG(o[i] == want[i], "case %d picked overload %d, C++ picks %d", i, o[i], want[i]);
}

/* More of C++'s overload resolution, against g++'s picks: enumerators, default arguments,
 * a standard conversion before a converting constructor, an explicit constructor not
 * taken, char kinds, two function templates ordered (T, T) over (T, U), an explicit
 * specialization, const and non-const member overloads, nullptr to a pointer parameter
 * (refused: "no overload takes (void *)"). */
TEST(overload_resolution_picks_what_cxx_picks_with_classes_and_defaults)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#define D __device__\n"
        "enum Color { Red, Green };\n"
        "enum class Sc : short { A = 1 };\n"
        "struct V { float x; D V() : x(0) {} D V(float a) : x(a) {} };\n"
        "struct W { int w; D explicit W(int a) : w(a) {} };\n"
        "struct C { int c; D int get() { return 1; } D int get() const { return 2; } D int at(int) { return 3; } D int at(long) const { return 4; } };\n"
        "D int e1(int) { return 1; }\n"
        "D int e1(unsigned) { return 2; }\n"
        "D int e1(long) { return 3; }\n"
        "D int d1(int a, int b = 2) { return 10 + b; }\n"
        "D int d1(double) { return 3; }\n"
        "D int v1(V) { return 1; }\n"
        "D int v1(int) { return 2; }\n"
        "D int x1(W) { return 1; }\n"
        "D int x1(double) { return 2; }\n"
        "D int c1(char) { return 1; }\n"
        "D int c1(signed char) { return 2; }\n"
        "D int c1(unsigned char) { return 3; }\n"
        "D int s1(short) { return 1; }\n"
        "D int s1(int) { return 2; }\n"
        "D int s1(long long) { return 3; }\n"
        "D int fl(float) { return 1; }\n"
        "D int fl(long double) { return 2; }\n"
        "template <typename T> D int t2(T, T) { return 1; }\n"
        "template <typename T, typename U> D int t2(T, U) { return 2; }\n"
        "template <typename T> D int t3(T *, int) { return 1; }\n"
        "template <typename T> D int t3(const T *, long) { return 2; }\n"
        "template <typename T> D int t4(T) { return 1; }\n"
        "template <> D int t4<int>(int) { return 2; }\n"
        "D int a1(int (&)[3]) { return 1; }\n"
        "D int a1(int *) { return 2; }\n"
        "D int n1(int *) { return 1; }\n"
        "D int n1(long) { return 2; }\n"
        "#define CASES(X) X(e1(Red)) X(e1(1u)) X(e1((unsigned short)1)) X(d1(1)) X(d1(1, 5)) X(d1(1.5f)) \\\n"
        "  X(v1(1.5f)) X(v1(1.5)) X(v1('a')) X(x1(3)) X(c1('a')) X(c1((signed char)1)) X(s1(1)) X(s1((short)1)) \\\n"
        "  X(t2(1, 2)) X(t2(1, 2.0)) X(t3(ip, 1)) X(t3(cip, 1)) X(t4(1)) X(t4(1.0)) \\\n"
        "  X(cc.get()) X(ccc.get()) X(cc.at(1)) X(ccc.at(1)) X(n1(nullptr)) X(e1((int)Sc::A))\n"
        "extern \"C\" __global__ void k(int *o) {\n"
        "  int x = 0; int *ip = &x; const int *cip = &x; C cc; const C ccc{}; int n = 0;\n"
        "#define X(e) o[n++] = e;\n"
        "  CASES(X)\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    static const int want[] = {1, 2, 1, 12, 15, 3, 2, 2, 2, 2, 1, 2, 2, 1, 1, 2, 1, 1, 2, 1, 1, 2, 3, 4, 1, 1};
    enum { n = sizeof want / sizeof *want };
    int o[n];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}}, LAT_ARGS(lat_arg_out(o, sizeof o))));
    for (int i = 0; i < n; i++)
        ASSERT_MSG(o[i] == want[i], "case %d picked overload %d, C++ picks %d", i, o[i], want[i]);
}

/* Lambdas against g++: mutable copies, references, captures made when the lambda is,
 * generic lambdas passed to templates, a lambda passed by reference and called twice,
 * this captured in a member function, a copied closure; an init-capture of a generic
 * lambda is refused by name (it was a string of unrelated errors). */
TEST(lambdas_capture_and_call_as_cxx_does)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#define D __device__\n"
        "template <typename F> D int call2(F f) { return f(1) + f(2); }\n"
        "template <typename F> D int apply_ref(F &f) { f(); f(); return 0; }\n"
        "struct Ctr { int n; D int bump() { auto inc = [this] { return ++n; }; inc(); return inc(); } };\n"
        "D long long c0() { int a = 1; auto f = [a]() mutable { return ++a; }; f(); return f() * 10 + a; }\n"
        "D long long c1() { int a = 1; auto f = [&a] { return ++a; }; f(); return f() * 10 + a; }\n"
        "D long long c2() { int a = 5; auto f = [=](int x) { return a * x; }; a = 100; return f(2); }\n"
        "D long long c3() { int s = 0; auto f = [&](int x) { s += x; return s; }; return call2(f) * 100 + s; }\n"
        "D long long c4() { int k = 3; return call2([k](auto x) { return x * k; }); }\n"
        "D long long c5() { int c = 0; auto f = [&c] { c += 2; }; apply_ref(f); return c; }\n"
        "D long long c6() { Ctr t{5}; int r = t.bump(); return r * 10 + t.n; }\n"
        "D long long c7() { int arr[3] = {1, 2, 3}; int s = 0; auto f = [&arr, &s](int i) { s += arr[i]; }; for (int i = 0; i < 3; i++) f(i); return s; }\n"
        "D long long c8() { int v = 7; auto g = [v]() { return v; }; auto h = g; v = 9; return h() + g(); }\n"
        "D long long c9() { auto f = [](int x) -> long long { return (long long)x << 33; }; return f(1) >> 30; }\n"
        "D long long c11() { int a = 1; auto f = [&]() { a *= 5; return a; }; int r = f() + f(); return r * 100 + a; }\n"
        "#define CASES(X) X(c0()) X(c1()) X(c2()) X(c3()) X(c4()) X(c5()) X(c6()) X(c7()) X(c8()) X(c9()) X(c11())\n"
        "extern \"C\" __global__ void k(long long *o) { int n = 0;\n"
        "#define X(e) o[n++] = (long long)(e);\n"
        "  CASES(X)\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    static const long long want[] = {31, 33, 10, 403, 9, 4, 77, 6, 14, 8, 3025};
    enum { n = sizeof want / sizeof *want };
    long long o[n];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}}, LAT_ARGS(lat_arg_out(o, sizeof o))));
    for (int i = 0; i < n; i++)
        ASSERT_MSG(o[i] == want[i], "case %d = %lld, C++ gives %lld", i, o[i], want[i]);
    if (!t_is_emu(ctx))
        return;
    const char *m = cxx_error(ctx, "__device__ int f() { int a = 2; auto g = [a, b = a * 3](auto x) { return a + b + x; }; return g(1); }\n"
                                   "__global__ void k(int *o) { o[0] = f(); }\n");
    ASSERT_NOT_NULL(m);
    ASSERT_CONTAINS(m, "t.cu:1:42: error: an init-capture ([b = a * 3], C++14) of a generic lambda is not supported by the lattice emulator yet");
}

/* Classes against g++: copy constructors counted through by-value and by-reference
 * arguments, a copy assignment operator, members initialised in declaration order with a
 * default member initializer between, member functions hidden by a derived class's, a
 * base's data member named Base::x where the derived class's own x hides it ("no such
 * member" before), chained compound assignment returning references, free and member
 * operators, a conversion operator to int, a nested class and a static constant, an
 * array of objects copied. */
TEST(class_semantics_as_cxx_has_them)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#define D __device__\n"
        "struct Cnt { int v; int copies; D Cnt(int x) : v(x), copies(0) {} D Cnt(const Cnt &o) : v(o.v), copies(o.copies + 1) {} D Cnt &operator=(const Cnt &o) { v = o.v * 10; copies = o.copies; return *this; } };\n"
        "D int take(Cnt c) { return c.copies; }\n"
        "D int takeref(const Cnt &c) { return c.copies; }\n"
        "struct Ord { int a; int b = 7; int c; D Ord(int x) : c(x * 2), a(x) {} };\n"
        "struct Base { int x = 1; D int f() const { return 10; } D int g() const { return f() + 1; } };\n"
        "struct Der : Base { int x = 2; D int f() const { return 20; } D int both() const { return x * 100 + Base::x; } };\n"
        "struct Acc { int s = 0; D Acc &operator+=(int v) { s += v; return *this; } };\n"
        "struct Vec { float x, y; D Vec operator-() const { return {-x, -y}; } D Vec operator*(float k) const { return {x * k, y * k}; } };\n"
        "D Vec operator*(float k, const Vec &v) { return {v.x * k + 1, v.y * k + 1}; }\n"
        "struct Num { int n; D Num(int v) : n(v) {} D operator int() const { return n * 2; } };\n"
        "D int useint(int v) { return v + 1; }\n"
        "struct Outer { struct In { int q = 3; D int get() const { return q * 2; } }; In in; static constexpr int K = 9; };\n"
        "D long long c0() { Cnt a(3); Cnt b = a; return take(b) * 100 + takeref(b) * 10 + b.copies; }\n"
        "D long long c1() { Cnt a(3), b(4); b = a; return b.v * 10 + b.copies; }\n"
        "D long long c2() { Ord o(5); return o.a * 100 + o.b * 10 + o.c; }\n"
        "D long long c3() { Der d; const Base &b = d; return d.f() * 1000 + d.g() * 10 + b.f() + d.both() * 100000; }\n"
        "D long long c4() { Acc a, b; (a += 3) += 4; b += 1; return a.s * 10 + b.s; }\n"
        "D long long c5() { Vec v{1, 2}; Vec w = 2.0f * -v; Vec z = v * 3.0f; return (long long)(w.x * 100 + w.y * 10 + z.x + z.y * 1000); }\n"
        "D long long c6() { Num n(5); return useint(n) * 10 + (int)n + n.n; }\n"
        "D long long c7() { Outer o; Outer::In i; i.q = 5; return o.in.get() * 100 + i.get() + Outer::K * 1000; }\n"
        "D long long c8() { Cnt arr[2] = {Cnt(1), Cnt(2)}; Cnt c = arr[1]; return c.copies * 10 + c.v; }\n"
        "#define CASES(X) X(c0()) X(c1()) X(c2()) X(c3()) X(c4()) X(c5()) X(c6()) X(c7()) X(c8())\n"
        "extern \"C\" __global__ void k(long long *o) { int n = 0;\n"
        "#define X(e) o[n++] = (long long)(e);\n"
        "  CASES(X)\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    static const long long want[] = {211, 300, 580, 20120120, 71, 5873, 125, 9610, 12};
    enum { n = sizeof want / sizeof *want };
    long long o[n];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}}, LAT_ARGS(lat_arg_out(o, sizeof o))));
    for (int i = 0; i < n; i++)
        ASSERT_MSG(o[i] == want[i], "case %d = %lld, C++ gives %lld", i, o[i], want[i]);
}

/* Programs define short macros before they include headers (`#define N 256`, `#define D
 * __device__`, `#define B 8`): the emulator's own headers name their
 * template parameters with reserved names, as libcu++ does, so those macros do not reach
 * them (<type_traits>, <utility>, <tuple> and cooperative groups were syntax errors). */
TEST(the_emulators_headers_are_immune_to_the_programs_short_macros)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#define N 64\n#define D __device__\n#define I 2\n#define B 8\n"
        "#define R 3\n#define U unsigned\n#define M 16\n#define Len 5\n#define Align 7\n"
        "#include <type_traits>\n#include <utility>\n#include <tuple>\n#include <limits>\n"
        "#include <cuda/std/type_traits>\n#include <cooperative_groups.h>\n#include <cooperative_groups/reduce.h>\n"
        "#include <cooperative_groups/scan.h>\n"
        "namespace cg = cooperative_groups;\n"
        "typedef float T;\nD T twice(T x) { return x * 2; }\n"
        "extern \"C\" __global__ void k(const T *in, T *out) {\n"
        "  auto tile = cg::tiled_partition<4>(cg::this_thread_block());\n"
        "  int t = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  T v = in[t];\n"
        "  T s = cg::reduce(tile, v, cg::plus<T>());\n"
        "  T e = cg::exclusive_scan(tile, v);\n"
        "  std::tuple<T, int> tp(v, (int)std::is_same<T, float>::value);\n"
        "  out[t] = twice(s) + e * N + std::get<1>(tp) * I + (T)std::make_index_sequence<R>::size() + B + M;\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    enum { n = 64 };
    float in[n], out[n];
    for (int i = 0; i < n; i++)
        in[i] = (float)(t_rand_u32() % 17);
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {2}, .block = {32}},
                              LAT_ARGS(lat_arg_in(in, sizeof in), lat_arg_out(out, sizeof out))));
    for (int t = 0; t < n; t++) {
        float s = 0, e = 0;
        for (int i = t & ~3; i < (t & ~3) + 4; i++)
            s += in[i];
        for (int i = t & ~3; i < t; i++)
            e += in[i];
        float want = 2 * s + e * 64 + 1 * 2 + 3 + 8 + 16;
        ASSERT_MSG(out[t] == want, "out[%d] = %.9g, want %.9g", t, out[t], want);
    }
}

/* Templates against g++: CRTP, folds over mixed types, a recursive class template ended by
 * a specialization, a template template parameter, default template arguments, enable_if
 * overloads, if constexpr chains, a constexpr function as an array bound, a traits class
 * choosing an accumulator, a deduced return type per branch of if constexpr, packs. */
TEST(template_semantics_as_cxx_has_them)
{
    lat_context *ctx = t_context();
    static const char src[] =
        "#define D __device__\n"
        "#include <type_traits>\n"
        "template <typename Derived> struct Shape { D int area() const { return static_cast<const Derived *>(this)->area_impl() * 2; } };\n"
        "struct Sq : Shape<Sq> { int s; D int area_impl() const { return s * s; } };\n"
        "template <typename... T> D long long sum(T... v) { return (0LL + ... + (long long)v); }\n"
        "template <typename... T> D int count_pos(T... v) { int c = 0; ((c += v > 0), ...); return c; }\n"
        "template <int N> struct Fact { static constexpr long long v = N * Fact<N - 1>::v; };\n"
        "template <> struct Fact<0> { static constexpr long long v = 1; };\n"
        "template <template <typename> class Op, typename T> D T apply2(T a, T b) { return Op<T>()(a, b); }\n"
        "template <typename T> struct Mx { D T operator()(T a, T b) const { return a > b ? a : b; } };\n"
        "template <typename T, int K = 3> D T scale(T x) { return x * K; }\n"
        "template <typename T> D std::enable_if_t<std::is_integral<T>::value, int> kind(T) { return 1; }\n"
        "template <typename T> D std::enable_if_t<std::is_floating_point<T>::value, int> kind(T) { return 2; }\n"
        "template <typename T> D int ce(T x) { if constexpr (sizeof(T) == 8) return 8; else if constexpr (std::is_signed<T>::value) return -1; else return 1; }\n"
        "constexpr int sq(int x) { return x * x; }\n"
        "template <int N> struct Arr { int a[N]; D int n() const { return N; } };\n"
        "template <typename T> struct Traits { using acc = T; };\n"
        "template <> struct Traits<char> { using acc = int; };\n"
        "template <typename T> D typename Traits<T>::acc accum(const T *p, int n) { typename Traits<T>::acc s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }\n"
        "template <typename T> D auto pick(T x) { if constexpr (std::is_same<T, float>::value) return x * 2; else return x + 1; }\n"
        "template <typename T, typename... R> struct First { using type = T; };\n"
        "template <typename... T> D int nargs(T...) { return sizeof...(T); }\n"
        "D long long c0() { Sq s; s.s = 4; return s.area(); }\n"
        "D long long c1() { return sum(1, 2u, 3LL, (char)4, 5.9); }\n"
        "D long long c2() { return count_pos(1, -2, 3.5, -0.1f, 7); }\n"
        "D long long c3() { return Fact<10>::v; }\n"
        "D long long c4() { return apply2<Mx>(3, 9) * 100 + apply2<Mx>(2.5, 1.5) * 10; }\n"
        "D long long c5() { return scale(4) * 100 + scale<int, 5>(4); }\n"
        "D long long c6() { return kind(1) * 10 + kind(1.0f); }\n"
        "D long long c7() { return ce(1LL) * 100 + ce((short)1) * 10 + ce(1u); }\n"
        "D long long c8() { Arr<sq(3)> a; return a.n() * 100 + sizeof(a) ; }\n"
        "D long long c9() { char cs[3] = {100, 100, 100}; return accum(cs, 3); }\n"
        "D long long c10() { return (long long)(pick(1.5f) * 10) + pick(3) * 1000; }\n"
        "D long long c11() { return sizeof(typename First<short, double, int>::type) * 10 + nargs(1, 'a', 2.0, nullptr); }\n"
        "#define CASES(X) X(c0()) X(c1()) X(c2()) X(c3()) X(c4()) X(c5()) X(c6()) X(c7()) X(c8()) X(c9()) X(c10()) X(c11())\n"
        "extern \"C\" __global__ void k(long long *o) { int n = 0;\n"
        "#define X(e) o[n++] = (long long)(e);\n"
        "  CASES(X)\n"
        "}\n";
    lat_kernel *k = t_kernel_as_written(ctx, src, "k");
    static const long long want[] = {32, 15, 3, 3628800, 925, 1220, 12, 791, 936, 300, 4030, 24};
    enum { n = sizeof want / sizeof *want };
    long long o[n];
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}}, LAT_ARGS(lat_arg_out(o, sizeof o))));
    for (int i = 0; i < n; i++)
        ASSERT_MSG(o[i] == want[i], "case %d = %lld, C++ gives %lld", i, o[i], want[i]);
}
