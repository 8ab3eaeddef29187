/* The kernel signatures the front end reads off the tree (src/front/sigs.h): what it
 * finds in a source, and how it classifies each parameter, before any backend compiles. */
#include "harness.h"

#include "front/front.h"
#include "front/sigs.h"

#include <string.h>

static lat__kernel_sigs sigs;

/* Parses src as "kernel.cu" and reads its kernels' signatures; 0, or -1 out of memory. */
static int scan(const char *src, lat__kernel_sigs *out)
{
    lat__front_in in = {.text = src, .name = "kernel.cu"};
    lat__unit *u = NULL;
    if (lat__front_parse(&in, &u) == LAT_ERROR_OUT_OF_MEMORY)
        return -1;
    int r = lat__front_sigs(u, out);
    lat__unit_free(u);
    return r;
}

static const lat__kernel_sig *scan_one(const char *src, const char *name)
{
    lat__kernel_sigs_free(&sigs);
    if (scan(src, &sigs) != 0)
        FAIL("the front end ran out of memory");
    const lat__kernel_sig *k = lat__kernel_sigs_find(&sigs, name);
    ASSERT_MSG(k != NULL, "kernel '%s' not found (%d found)", name, sigs.count);
    return k;
}

#define ASSERT_PARAM(k, i, want_name, want_type, want_cls, want_size)                  \
    do {                                                                               \
        ASSERT_GT((k)->nparams, (i));                                                  \
        ASSERT_STR_EQ((k)->params[i].name, want_name);                                 \
        ASSERT_STR_EQ((k)->params[i].type, want_type);                                 \
        ASSERT_EQ((k)->params[i].cls, want_cls);                                       \
        ASSERT_U64_EQ((k)->params[i].size, want_size);                                 \
    } while (0)

TEST(scan_pointer_int_and_float_params)
{
    const lat__kernel_sig *k = scan_one(
        "__global__ void saxpy(float *y, const float* __restrict__ x, int n, float a)\n"
        "{ y[0] = x[0] * a + n; }\n", "saxpy");
    ASSERT_EQ(k->nparams, 4);
    ASSERT_EQ(k->line, 1);
    ASSERT_PARAM(k, 0, "y", "float *", LAT__PARAM_POINTER, 8);
    ASSERT_PARAM(k, 1, "x", "const float *restrict", LAT__PARAM_POINTER, 8);
    ASSERT_PARAM(k, 2, "n", "int", LAT__PARAM_SINT, 4);
    ASSERT_PARAM(k, 3, "a", "float", LAT__PARAM_FLOAT, 4);
    lat__kernel_sigs_free(&sigs);
}

TEST(kernels_that_can_reach_the_grid_barrier_are_marked)
{
    static const char src[] =
        "__device__ void deep(void) { __lat_grid_sync(); }\n"
        "__device__ void mid(int n) { if (n) mid(n - 1); else deep(); }\n"
        "__device__ void other(void) { __syncthreads(); }\n"
        "__global__ void direct(int *p) { __lat_grid_sync(); }\n"
        "__global__ void through_calls(int *p) { other(); mid(3); }\n"
        "__global__ void block_only(int *p) { other(); __syncthreads(); }\n";
    ASSERT_EQ(scan_one(src, "direct")->grid_sync, 1);
    ASSERT_EQ(scan_one(src, "through_calls")->grid_sync, 1);
    ASSERT_EQ(scan_one(src, "block_only")->grid_sync, 0);
    lat__kernel_sigs_free(&sigs);
}

TEST(scan_integer_and_floating_types)
{
    const lat__kernel_sig *k = scan_one(
        "extern \"C\" __global__ void k(unsigned int a, unsigned b, double c, long long d,\n"
        "    unsigned long e, short f, unsigned char g, char h, size_t i, bool j,\n"
        "    const int64_t k2, uint8_t l, signed m, long double n)\n"
        "{}\n", "k");
    ASSERT_EQ(k->nparams, 14);
    ASSERT_PARAM(k, 0, "a", "unsigned int", LAT__PARAM_UINT, 4);
    ASSERT_PARAM(k, 1, "b", "unsigned int", LAT__PARAM_UINT, 4);
    ASSERT_PARAM(k, 2, "c", "double", LAT__PARAM_FLOAT, 8);
    ASSERT_PARAM(k, 3, "d", "long long", LAT__PARAM_SINT, 8);
    ASSERT_PARAM(k, 4, "e", "unsigned long", LAT__PARAM_UINT, 8);
    ASSERT_PARAM(k, 5, "f", "short", LAT__PARAM_SINT, 2);
    ASSERT_PARAM(k, 6, "g", "unsigned char", LAT__PARAM_UINT, 1);
    ASSERT_PARAM(k, 7, "h", "char", LAT__PARAM_SINT, 1);
    ASSERT_PARAM(k, 8, "i", "size_t", LAT__PARAM_UINT, 8);
    ASSERT_PARAM(k, 9, "j", "bool", LAT__PARAM_UINT, 1);
    ASSERT_PARAM(k, 10, "k2", "const int64_t", LAT__PARAM_SINT, 8);
    ASSERT_PARAM(k, 11, "l", "uint8_t", LAT__PARAM_UINT, 1);
    ASSERT_PARAM(k, 12, "m", "int", LAT__PARAM_SINT, 4);
    ASSERT_PARAM(k, 13, "n", "long double", LAT__PARAM_UNKNOWN, 0);
    lat__kernel_sigs_free(&sigs);
}

TEST(scan_follows_typedefs_and_defines)
{
    const lat__kernel_sig *k = scan_one(
        "typedef float real;\n"
        "typedef real *real_ptr;\n"
        "typedef unsigned int uint_t;\n"
        "#define INDEX long\n"
        "#define SCALAR double\n"
        "typedef struct { float x, y; } pair;\n"
        "typedef enum { A, B } mode;\n"
        "struct S { char c; double d; };\n"
        "__global__ void k(real a, real_ptr b, uint_t c, INDEX d, SCALAR *e, pair p,\n"
        "                  mode m, float4 v, dim3 g, struct S s)\n"
        "{}\n", "k");
    ASSERT_EQ(k->nparams, 10);
    ASSERT_EQ(k->line, 9);
    ASSERT_PARAM(k, 0, "a", "real", LAT__PARAM_FLOAT, 4);
    ASSERT_PARAM(k, 1, "b", "real_ptr", LAT__PARAM_POINTER, 8);
    ASSERT_PARAM(k, 2, "c", "uint_t", LAT__PARAM_UINT, 4);
    /* A macro is gone by the time the parser reads the type: its expansion is the type. */
    ASSERT_PARAM(k, 3, "d", "long", LAT__PARAM_SINT, 8);
    ASSERT_PARAM(k, 4, "e", "double *", LAT__PARAM_POINTER, 8);
    ASSERT_PARAM(k, 5, "p", "pair", LAT__PARAM_RECORD, 8);
    ASSERT_PARAM(k, 6, "m", "mode", LAT__PARAM_SINT, 4);
    ASSERT_PARAM(k, 7, "v", "float4", LAT__PARAM_RECORD, 16);
    ASSERT_PARAM(k, 8, "g", "dim3", LAT__PARAM_RECORD, 12);
    ASSERT_PARAM(k, 9, "s", "struct S", LAT__PARAM_RECORD, 16);
    lat__kernel_sigs_free(&sigs);
}

TEST(scan_unnamed_and_void_params)
{
    const lat__kernel_sig *k = scan_one("__global__ void k(float *, int, unsigned int);\n", "k");
    ASSERT_EQ(k->nparams, 3);
    ASSERT_PARAM(k, 0, "", "float *", LAT__PARAM_POINTER, 8);
    ASSERT_PARAM(k, 1, "", "int", LAT__PARAM_SINT, 4);
    ASSERT_PARAM(k, 2, "", "unsigned int", LAT__PARAM_UINT, 4);
    k = scan_one("__global__ void v(void) {}\n__global__ void e() {}\n", "v");
    ASSERT_EQ(k->nparams, 0);
    k = lat__kernel_sigs_find(&sigs, "e");
    ASSERT_NOT_NULL(k);
    ASSERT_EQ(k->nparams, 0);
    lat__kernel_sigs_free(&sigs);
}

TEST(scan_arrays_and_function_pointers_are_pointers)
{
    const lat__kernel_sig *k =
        scan_one("__global__ void k(float a[], int b[4][4], float (*f)(float), int **pp)\n{}\n",
                 "k");
    ASSERT_EQ(k->nparams, 4);
    ASSERT_PARAM(k, 0, "a", "float *", LAT__PARAM_POINTER, 8);
    ASSERT_EQ(k->params[1].cls, LAT__PARAM_POINTER);
    ASSERT_STR_EQ(k->params[1].name, "b");
    ASSERT_PARAM(k, 2, "f", "float (*)(float)", LAT__PARAM_POINTER, 8);
    ASSERT_PARAM(k, 3, "pp", "int **", LAT__PARAM_POINTER, 8);
    lat__kernel_sigs_free(&sigs);
}

TEST(scan_two_kernels_in_an_extern_c_block)
{
    lat__kernel_sigs_free(&sigs);
    ASSERT_EQ(scan(
                  "#include \"common.h\"\n"
                  "extern \"C\" {\n"
                  "__device__ float sq(float x) { return x * x; }\n"
                  "__global__ void __launch_bounds__(256) first(float *a) { a[0] = sq(a[0]); }\n"
                  "/* __global__ void commented(int x) */\n"
                  "__global__ void second(double *b, int n)\n"
                  "{\n"
                  "    if (n) { b[0] = 1; }\n"
                  "}\n"
                  "}\n",
                  &sigs),
              0);
    ASSERT_EQ(sigs.count, 2);
    ASSERT_STR_EQ(sigs.items[0].name, "first");
    ASSERT_EQ(sigs.items[0].line, 4);
    ASSERT_EQ(sigs.items[0].nparams, 1);
    ASSERT_STR_EQ(sigs.items[1].name, "second");
    ASSERT_EQ(sigs.items[1].line, 6);
    ASSERT_EQ(sigs.items[1].nparams, 2);
    ASSERT_NULL(lat__kernel_sigs_find(&sigs, "sq"));
    ASSERT_NULL(lat__kernel_sigs_find(&sigs, "commented"));
    lat__kernel_sigs_free(&sigs);
}

TEST(scan_lists_a_kernel_declared_twice_once_with_the_definitions_names)
{
    const lat__kernel_sig *k =
        scan_one("__global__ void k(float *, int);\n"
                 "__global__ void k(float *out, int n) { out[0] = n; }\n", "k");
    ASSERT_EQ(sigs.count, 1);
    ASSERT_EQ(k->line, 1);
    ASSERT_PARAM(k, 0, "out", "float *", LAT__PARAM_POINTER, 8);
    ASSERT_PARAM(k, 1, "n", "int", LAT__PARAM_SINT, 4);
    lat__kernel_sigs_free(&sigs);
}

TEST(scan_skips_templates_if0_and_macro_bodies_and_goes_on_after_errors)
{
    lat__kernel_sigs_free(&sigs);
    ASSERT_EQ(scan("template <typename T> __global__ void t(T *a) {}\n"
                                "#if 0\n__global__ void dead(int x) {}\n#endif\n"
                                "#define K __global__ void m(int y)\n"
                                "__global__ void live(int z) {}\n",
                                &sigs),
              0);
    ASSERT_EQ(sigs.count, 1);
    ASSERT_STR_EQ(sigs.items[0].name, "live");
    lat__kernel_sigs_free(&sigs);
}

TEST(scan_sees_global_hidden_in_an_object_like_macro)
{
    const lat__kernel_sig *k = scan_one("#define KERNEL extern \"C\" __global__\n"
                                        "KERNEL void k(int *p) { *p = 1; }\n", "k");
    ASSERT_EQ(k->nparams, 1);
    ASSERT_EQ(k->line, 2);
    lat__kernel_sigs_free(&sigs);
}

TEST(scan_survives_garbage)
{
    static const char *const bad[] = {
        "__global__", "__global__ void", "__global__ void k(", "__global__ void k(int",
        "__global__ void k(int a,", "__global__ void k() {", "\"unterminated", "/* open",
        "typedef", "typedef int", "#define", "#if 0", "__global__ void k(int (a)",
        "__global__ void k(,,,) {}", "__global__ void k(int a[) {}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ASSERT_EQ(scan(bad[i], &sigs), 0);
        lat__kernel_sigs_free(&sigs);
    }
}

/* What a pointer parameter points to, for cross-checking buffers by element type. */
#define ASSERT_POINTEE(k, i, want_size, want_nfields, want_kind)                       \
    do {                                                                               \
        const lat__elem_layout *l_ = &(k)->params[i].pointee;                          \
        ASSERT_MSG(l_->size == (want_size) && l_->nfields == (want_nfields),           \
                   "param %d (%s): size %u, %u fields; want %u, %u", (i),              \
                   (k)->params[i].type, l_->size, l_->nfields, (unsigned)(want_size),  \
                   (unsigned)(want_nfields));                                          \
        for (uint32_t f_ = 0; f_ < l_->nfields; f_++) {                                \
            ASSERT_EQ(l_->fields[f_].kind, (want_kind));                               \
            ASSERT_EQ(l_->fields[f_].offset, f_ * (l_->size / l_->nfields));           \
        }                                                                              \
    } while (0)

TEST(scan_pointee_layouts_of_floats_vectors_typedefs_and_defines)
{
    const lat__kernel_sig *k = scan_one(
        "typedef float DATA_TYPE;\n"
        "#define fp double\n"
        "typedef float4 vec;\n"
        "typedef struct { float v, x, y, z; } FOUR_VECTOR;\n"
        "typedef float *fptr;\n"
        "__global__ void k(DATA_TYPE *A, const fp *__restrict__ b, float3 *c, double2 *d,\n"
        "    vec *e, float f[], int *g, unsigned char *h, float **i, FOUR_VECTOR *j,\n"
        "    fptr l, void *m, float (*n)[4], double4 *p, long double *q)\n"
        "{}\n", "k");
    ASSERT_EQ(k->nparams, 15);
    ASSERT_POINTEE(k, 0, 4, 1, LAT__SCALAR_F32);  /* DATA_TYPE, a typedef of float */
    ASSERT_POINTEE(k, 1, 8, 1, LAT__SCALAR_F64);  /* fp, a #define of double */
    ASSERT_POINTEE(k, 2, 12, 3, LAT__SCALAR_F32); /* float3 */
    ASSERT_POINTEE(k, 3, 16, 2, LAT__SCALAR_F64); /* double2 */
    ASSERT_POINTEE(k, 4, 16, 4, LAT__SCALAR_F32); /* a typedef of float4 */
    ASSERT_POINTEE(k, 5, 4, 1, LAT__SCALAR_F32);  /* an array parameter */
    ASSERT_POINTEE(k, 6, 4, 0, 0);                /* int: exact, 4 bytes */
    ASSERT_POINTEE(k, 7, 1, 0, 0);
    ASSERT_POINTEE(k, 8, 8, 0, 0);                /* pointers: exact */
    ASSERT_POINTEE(k, 9, 16, 4, LAT__SCALAR_F32); /* a struct of floats, field by field */
    ASSERT_POINTEE(k, 10, 4, 1, LAT__SCALAR_F32); /* a pointer typedef */
    ASSERT_POINTEE(k, 11, 0, 0, 0);               /* void: unknown */
    ASSERT_POINTEE(k, 12, 16, 4, LAT__SCALAR_F32); /* a pointer to an array of 4 floats */
    ASSERT_POINTEE(k, 13, 32, 4, LAT__SCALAR_F64);
    ASSERT_POINTEE(k, 14, 16, 0, 0);              /* long double: its bytes, exactly */
    /* Scalars by value have no pointee. */
    k = scan_one("__global__ void s(float a, int n) {}\n", "s");
    ASSERT_POINTEE(k, 0, 0, 0, 0);
    ASSERT_POINTEE(k, 1, 0, 0, 0);
    lat__kernel_sigs_free(&sigs);
}
