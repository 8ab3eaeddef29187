/*
 * lattice/array.h — device arrays and the kernels lattice generates for them: PyCUDA's
 * GPUArray, ElementwiseKernel, ReductionKernel, scan kernels and counter-based random
 * numbers, in C.
 *
 *     lat_array *a, *doubled;
 *     lat_array_from_host(ctx, LAT_DTYPE_FLOAT32, 2, (size_t[]){4, 4}, host, &a);
 *     lat_array_scalar_op(LAT_OP_MUL, lat_scalar_i32(2), a, NULL, &doubled); // 2*a_gpu
 *     lat_array_get(doubled, result, sizeof result);                         // .get()
 *
 * Everything here is built on lattice.h: arrays are device memory of a context, and
 * every operation is a kernel that lattice writes in CUDA C, compiles with
 * lat_module_create() and launches. So each one runs on whichever backend the context
 * uses (a GPU, or the emulator), and none ever computes on the host instead: when a
 * backend cannot run a generated kernel, the call fails with that backend's status.
 * Generated kernels are compiled once per context, kept until the context is destroyed,
 * and found again by their generated source; the first use of an operation in a context
 * pays for a compile (or a compile-cache hit), later uses only for the launch.
 *
 * Whole-array and last-axis reductions, dot, and the reduction and scan generators use
 * shared memory, __syncthreads() and warp shuffles; a backend without them answers
 * LAT_ERROR_UNSUPPORTED (the emulator did before it had them). Everything else uses
 * plain grid-stride kernels.
 *
 * Conventions are lattice.h's: lat_status results with the detail in lat_last_error(),
 * descriptors valid when zeroed, destroying NULL is a no-op. Operations are queued on
 * the context's default stream and are as asynchronous as lat_launch(): lat_array_get()
 * and lat_context_synchronize() wait for them and report their failures.
 *
 * Thread safety: every function may be called from any thread. An array may be read by
 * several operations at once; an operation that writes an array must not run
 * concurrently with another use of it (as for any device memory). Arrays, generated
 * kernels and random generators must be destroyed before their context; using one after
 * its context is destroyed is undefined.
 */
#ifndef LATTICE_ARRAY_H
#define LATTICE_ARRAY_H

#include "../lattice.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------ */
/* Element types                                                                        */
/* ------------------------------------------------------------------------------------ */

typedef enum lat_dtype {
    LAT_DTYPE_DEFAULT = 0, /* in a descriptor: float32 */
    LAT_DTYPE_INT8 = 1,    /* signed char */
    LAT_DTYPE_INT16 = 2,   /* short */
    LAT_DTYPE_INT32 = 3,   /* int */
    LAT_DTYPE_INT64 = 4,   /* long long */
    LAT_DTYPE_UINT8 = 5,   /* unsigned char; also the type of masks (0 or 1) */
    LAT_DTYPE_UINT16 = 6,  /* unsigned short */
    LAT_DTYPE_UINT32 = 7,  /* unsigned int */
    LAT_DTYPE_UINT64 = 8,  /* unsigned long long */
    LAT_DTYPE_FLOAT32 = 9, /* float */
    LAT_DTYPE_FLOAT64 = 10 /* double */
} lat_dtype;

/* The number of element types, for loops over them: LAT_DTYPE_INT8 .. LAT_DTYPE_FLOAT64. */
#define LAT_DTYPE_COUNT 10

/* "int8", "float32"...; "unknown" for a value not in the enum (DEFAULT is "float32").
 * Thread safety: any thread. */
LAT_API const char *lat_dtype_name(lat_dtype dtype);
/* The C type kernels use for it: "signed char", "unsigned long long", "float"...; NULL
 * for an unknown value. Thread safety: any thread. */
LAT_API const char *lat_dtype_ctype(lat_dtype dtype);
/* The size of one element in bytes (1 to 8); 0 for an unknown value. */
LAT_API size_t lat_dtype_size(lat_dtype dtype);

/* The type C gives `x op y` for operands of types a and b (C11 6.3.1.8, the usual
 * arithmetic conversions, with this library's sizes: int is 32 bits, long long 64):
 *   - if either is float64 the result is float64, else if either is float32, float32;
 *   - otherwise both are promoted: int8, uint8, int16 and uint16 become int32;
 *   - then equal types stay; of two signed or two unsigned types the wider wins; of a
 *     signed and an unsigned type the unsigned one wins unless the signed one is wider
 *     (uint32 with int64 gives int64; uint64 with int64 gives uint64; uint32 with int32
 *     gives uint32).
 * So int8 + int8 is int32, int32 * float32 is float32, float32 + float64 is float64.
 * Returns LAT_DTYPE_DEFAULT for an unknown value. Thread safety: any thread. */
LAT_API lat_dtype lat_dtype_promote(lat_dtype a, lat_dtype b);

/* A scalar operand with its type: the type takes part in lat_dtype_promote() as an
 * array's would, so 2 * (float32 array) is float32 while 2.0 * (float32 array) is
 * float64, as in C. Make them with the lat_scalar_* functions. */
typedef struct lat_scalar {
    lat_dtype dtype;
    union {
        int64_t i;  /* the signed integer types */
        uint64_t u; /* the unsigned integer types */
        double f;   /* float32 and float64 */
    } value;
} lat_scalar;

static inline lat_scalar lat_scalar_make_(lat_dtype t)
{
    lat_scalar s;
    s.dtype = t;
    s.value.u = 0;
    return s;
}
static inline lat_scalar lat_scalar_i32(int32_t v) { lat_scalar s = lat_scalar_make_(LAT_DTYPE_INT32); s.value.i = v; return s; }
static inline lat_scalar lat_scalar_i64(int64_t v) { lat_scalar s = lat_scalar_make_(LAT_DTYPE_INT64); s.value.i = v; return s; }
static inline lat_scalar lat_scalar_u32(uint32_t v) { lat_scalar s = lat_scalar_make_(LAT_DTYPE_UINT32); s.value.u = v; return s; }
static inline lat_scalar lat_scalar_u64(uint64_t v) { lat_scalar s = lat_scalar_make_(LAT_DTYPE_UINT64); s.value.u = v; return s; }
static inline lat_scalar lat_scalar_f32(float v) { lat_scalar s = lat_scalar_make_(LAT_DTYPE_FLOAT32); s.value.f = v; return s; }
static inline lat_scalar lat_scalar_f64(double v) { lat_scalar s = lat_scalar_make_(LAT_DTYPE_FLOAT64); s.value.f = v; return s; }

/* The scalar's value as a double (rounded for 64-bit integers above 2^53), and as the
 * C conversion to int64 / uint64 gives it. Thread safety: any thread. */
LAT_API double lat_scalar_to_f64(lat_scalar s);
LAT_API int64_t lat_scalar_to_i64(lat_scalar s);
LAT_API uint64_t lat_scalar_to_u64(lat_scalar s);

/* ------------------------------------------------------------------------------------ */
/* Arrays                                                                               */
/* ------------------------------------------------------------------------------------ */

/* The most dimensions an array may have. */
#define LAT_ARRAY_MAX_DIMS 8

/* An N-dimensional array in C order (the last index varies fastest), contiguous in the
 * device memory of one context. Views (lat_array_slice, lat_array_reshape) share the
 * memory of the array they were made from; the memory is freed once, when the array
 * and every view of it have been destroyed. */
typedef struct lat_array lat_array;

/* Makes an uninitialised array of `ndim` dimensions (0 to LAT_ARRAY_MAX_DIMS; 0 makes a
 * scalar of one element) with the given extents (shape may be NULL when ndim is 0). An
 * extent may be 0: the array is then empty and owns no memory.
 *   dtype: the element type; LAT_DTYPE_DEFAULT means float32.
 *   out:   receives the array; NULL on failure.
 * Errors: LAT_ERROR_INVALID_VALUE (NULL ctx or out, ndim out of range, NULL shape with
 * ndim > 0, unknown dtype); LAT_ERROR_OVERFLOW (the byte size overflows);
 * LAT_ERROR_OUT_OF_MEMORY; LAT_ERROR_OUT_OF_DEVICE_MEMORY. Thread safety: any thread. */
LAT_API lat_status lat_array_empty(lat_context *ctx, lat_dtype dtype, int ndim,
                                   const size_t *shape, lat_array **out);
/* The same, every element 0. Errors: as lat_array_empty(). */
LAT_API lat_status lat_array_zeros(lat_context *ctx, lat_dtype dtype, int ndim,
                                   const size_t *shape, lat_array **out);
/* The same, every element `value` converted to dtype as C converts (a kernel fills it).
 * Errors: as lat_array_empty(), plus those of a launch (see "Operations"). */
LAT_API lat_status lat_array_full(lat_context *ctx, lat_dtype dtype, int ndim,
                                  const size_t *shape, lat_scalar value, lat_array **out);
/* An array with the shape and type of `like` (new memory, uninitialised / zeroed).
 * Errors: as lat_array_empty(). */
LAT_API lat_status lat_array_empty_like(const lat_array *like, lat_array **out);
LAT_API lat_status lat_array_zeros_like(const lat_array *like, lat_array **out);

/* NumPy's arange: the 1-D array start, start + step, ... of the values below `stop`
 * (above it for a negative step): ceil((stop - start) / step) elements, none when that
 * is not positive. Element i is start + i * step computed in double and converted to
 * dtype as C converts (exact for integers up to 2^53).
 * Errors: LAT_ERROR_INVALID_VALUE (step 0 or not finite, start or stop not finite, NULL
 * ctx or out); those of lat_array_empty() and of a launch. */
LAT_API lat_status lat_array_arange(lat_context *ctx, lat_dtype dtype, double start,
                                    double stop, double step, lat_array **out);

/* PyCUDA's to_gpu: a new array holding a copy of `host`, which holds the elements in C
 * order (lat_array_nbytes() bytes; may be NULL only when the array is empty).
 * Errors: as lat_array_empty(), plus LAT_ERROR_INVALID_VALUE (host NULL for a non-empty
 * array) and those of lat_memcpy_htod(). Thread safety: any thread. */
LAT_API lat_status lat_array_from_host(lat_context *ctx, lat_dtype dtype, int ndim,
                                       const size_t *shape, const void *host,
                                       lat_array **out);

/* An array over existing device memory of the context (PyCUDA's GPUArray(gpudata=...)):
 * lattice never frees it; it must stay allocated while the array and its views live.
 * Errors: as lat_array_empty(), plus LAT_ERROR_INVALID_VALUE (ptr 0 for a non-empty
 * array, ptr misaligned for the element size) and LAT_ERROR_INVALID_ADDRESS (the bytes
 * are not inside one live allocation of ctx). Thread safety: any thread. */
LAT_API lat_status lat_array_wrap(lat_context *ctx, lat_deviceptr ptr, lat_dtype dtype,
                                  int ndim, const size_t *shape, lat_array **out);

/* Destroys an array or a view; the memory goes when its last array is destroyed. NULL is
 * a no-op. It may follow the operations that use the array at once: the memory is freed
 * with lat_mem_free, which on CUDA (cuMemFree) waits for the device's work, and the
 * emulator's work is done before the call that queued it returns. Thread safety: no
 * other thread may use the array during or after the call. */
LAT_API void lat_array_destroy(lat_array *a);

/* Copies host data in (`bytes` must equal lat_array_nbytes(a)) or out (the .get() of
 * PyCUDA: waits for the operations queued before it and reports their failure).
 * Errors: LAT_ERROR_INVALID_VALUE (NULL a, NULL host for a non-empty array, bytes not
 * the array's size: the message gives both); those of lat_memcpy_htod / _dtoh
 * (LAT_ERROR_LAUNCH_FAILED for an earlier operation that failed).
 * Thread safety: any thread. */
LAT_API lat_status lat_array_set(lat_array *a, const void *host, size_t bytes);
LAT_API lat_status lat_array_get(const lat_array *a, void *host, size_t bytes);

/* Copies the array to a new host buffer: *host receives memory from malloc (free it
 * with free(); at least one byte, also for an empty array) holding lat_array_nbytes(a)
 * bytes, *bytes (may be NULL) that size. Errors: LAT_ERROR_INVALID_VALUE (NULL a or
 * host); LAT_ERROR_OUT_OF_MEMORY; those of lat_array_get(). *host is NULL on failure.
 * Thread safety: any thread. */
LAT_API lat_status lat_array_get_copy(const lat_array *a, void **host, size_t *bytes);

/* The array's elements as text, "[0, 2, 4, ..., 1998]": every element of an array of at
 * most 2 * edge + 1, else the first and last `edge` (edge 0: 3), floats with the digits
 * that tell them apart (%.7g, doubles %.9g), in index order whatever the shape. Writes at
 * most size bytes, always terminated (out may be NULL when size is 0); *length (may be
 * NULL) receives the full text's length, so a caller can size a buffer: a first call
 * with size 0, then one with *length + 1. Only the elements shown are copied from the
 * device. Errors: LAT_ERROR_INVALID_VALUE (NULL a, or NULL out with size > 0);
 * LAT_ERROR_OUT_OF_MEMORY; those of a device-to-host copy. Thread safety: any thread. */
LAT_API lat_status lat_array_format(const lat_array *a, size_t edge, char *out, size_t size,
                                    size_t *length);

/* Prints "label = [...]" (lat_array_format's text; just the text when label is NULL) and a
 * newline to stdout. Errors: those of lat_array_format(). Thread safety: any thread
 * (lines of concurrent calls do not interleave within a line: one printf). */
LAT_API lat_status lat_array_print(const lat_array *a, const char *label);

/* The same queued on `stream` (NULL: the default stream), as lat_memcpy_htod_async and
 * lat_memcpy_dtoh_async do them: they overlap other work when `host` is page-locked
 * (lat_host_alloc); synchronise the stream before reading what get_async wrote or
 * reusing what set_async read. The array's operations run on the default stream, which
 * a stream created with the default flags waits for. Errors: those of lat_array_set /
 * lat_array_get, plus LAT_ERROR_INVALID_VALUE (a stream of another context).
 * Thread safety: any thread. */
LAT_API lat_status lat_array_set_async(lat_array *a, const void *host, size_t bytes,
                                       lat_stream *stream);
LAT_API lat_status lat_array_get_async(const lat_array *a, void *host, size_t bytes,
                                       lat_stream *stream);

/* Reads a one-element array (a reduction's result) into a scalar of its type.
 * Errors: LAT_ERROR_INVALID_VALUE (NULL argument, an array of another size); those of
 * lat_array_get(). Thread safety: any thread. */
LAT_API lat_status lat_array_get_scalar(const lat_array *a, lat_scalar *value);

/* Sets every element to `value`, converted as C converts. Errors: LAT_ERROR_INVALID_VALUE
 * (NULL a, a value of unknown dtype); those of a launch. Thread safety: any thread. */
LAT_API lat_status lat_array_fill(lat_array *a, lat_scalar value);

/* Copies src's elements into dst (same shape; a different dtype converts as C does; a
 * same-typed copy is a device-to-device copy). dst == src is a no-op.
 * Errors: LAT_ERROR_INVALID_VALUE (NULL argument, different shapes or contexts: the
 * message gives both shapes); those of lat_memcpy_dtod() or a launch. */
LAT_API lat_status lat_array_copy(lat_array *dst, const lat_array *src);

/* A new array of the same shape with every element converted to dtype as C converts
 * (float to integer truncates; out-of-range conversions are as the device does them).
 * Errors: those of lat_array_empty() and lat_array_copy(). */
LAT_API lat_status lat_array_astype(const lat_array *a, lat_dtype dtype, lat_array **out);

/* A view of the rows [start, stop) of the first dimension (a[start:stop] in Python),
 * sharing a's memory; stop is clamped to the extent, start > stop gives an empty view.
 * A 0-d array cannot be sliced. Errors: LAT_ERROR_INVALID_VALUE (NULL argument, a 0-d
 * array); LAT_ERROR_OUT_OF_MEMORY. Thread safety: any thread. */
LAT_API lat_status lat_array_slice(const lat_array *a, size_t start, size_t stop,
                                   lat_array **out);
/* A view of the same elements with another shape (the same number of elements, in the
 * same C order). Errors: LAT_ERROR_INVALID_VALUE (NULL argument, bad ndim, a different
 * element count: the message gives both shapes); LAT_ERROR_OUT_OF_MEMORY. */
LAT_API lat_status lat_array_reshape(const lat_array *a, int ndim, const size_t *shape,
                                     lat_array **out);

/* Properties. NULL arrays give 0 / NULL / LAT_DTYPE_DEFAULT. lat_array_shape() returns the
 * array's extents (ndim of them; valid while the array lives). lat_array_ptr() is the
 * device address of the first element (0 for an empty array), for passing an array to
 * a kernel of one's own. Thread safety: any thread. */
LAT_API lat_context *lat_array_context(const lat_array *a);
LAT_API lat_dtype lat_array_dtype(const lat_array *a);
LAT_API int lat_array_ndim(const lat_array *a);
LAT_API const size_t *lat_array_shape(const lat_array *a);
LAT_API size_t lat_array_size(const lat_array *a);   /* elements */
LAT_API size_t lat_array_nbytes(const lat_array *a); /* size * element size */
LAT_API lat_deviceptr lat_array_ptr(const lat_array *a);

/* A kernel argument for lat_launch_args() or the generators: the array's address. */
static inline lat_arg lat_arg_array(const lat_array *a) { return lat_arg_ptr(lat_array_ptr(a)); }

/* ------------------------------------------------------------------------------------ */
/* Operations                                                                           */
/* ------------------------------------------------------------------------------------ */

/* Elementwise operations. Comparisons give masks: uint8 arrays of 0 and 1. */
typedef enum lat_op {
    /* Binary: x op y. Arithmetic is done in lat_dtype_promote(x, y). */
    LAT_OP_ADD = 0, LAT_OP_SUB, LAT_OP_MUL,
    LAT_OP_DIV,     /* integer division truncates; an integer division by 0 gives 0 */
    LAT_OP_MOD,     /* fmod for floats; C's % for integers (x % 0 gives 0) */
    LAT_OP_POW,     /* pow for floats; exact repeated squaring for integers (x^-n is 0
                       unless |x| is 1) */
    LAT_OP_MIN, LAT_OP_MAX, /* fmin / fmax for floats: a NaN loses to a number */
    LAT_OP_ATAN2, LAT_OP_HYPOT, LAT_OP_COPYSIGN, /* float math: see "math" below */
    LAT_OP_LDEXP,   /* x * 2^y: x's float type (float64 for an integer x), y as int */
    LAT_OP_EQ, LAT_OP_NE, LAT_OP_LT, LAT_OP_LE, LAT_OP_GT, LAT_OP_GE, /* masks */
    LAT_OP_LOGICAL_AND, LAT_OP_LOGICAL_OR, /* masks: x != 0 && y != 0 ... */

    /* Unary: op(x). */
    LAT_OP_NEG = 64, /* -x, in x's promoted type (int8 gives int32, as in C) */
    LAT_OP_ABS,      /* |x| in x's type (fabs for floats); the most negative integer stays */
    LAT_OP_LOGICAL_NOT, /* mask: x == 0 */
    LAT_OP_ISNAN, LAT_OP_ISINF, LAT_OP_ISFINITE, /* masks; integers are finite */
    /* PyCUDA's cumath. float32 gives float32 (CUDA's float functions), float64 and the
     * integer types give float64 (as C converts an integer passed to a double function). */
    LAT_OP_FABS, LAT_OP_CEIL, LAT_OP_FLOOR, LAT_OP_TRUNC, LAT_OP_ROUND, LAT_OP_RINT,
    LAT_OP_EXP, LAT_OP_EXP2, LAT_OP_EXPM1, LAT_OP_LOG, LAT_OP_LOG2, LAT_OP_LOG10,
    LAT_OP_LOG1P, LAT_OP_SQRT, LAT_OP_RSQRT, LAT_OP_CBRT,
    LAT_OP_SIN, LAT_OP_COS, LAT_OP_TAN, LAT_OP_ASIN, LAT_OP_ACOS, LAT_OP_ATAN,
    LAT_OP_SINH, LAT_OP_COSH, LAT_OP_TANH, LAT_OP_ASINH, LAT_OP_ACOSH, LAT_OP_ATANH,
    LAT_OP_ERF, LAT_OP_ERFC
} lat_op;

/* "add", "sqrt"...; "unknown" otherwise. Thread safety: any thread. */
LAT_API const char *lat_op_name(lat_op op);

/* One operand of a binary operation: an array, or a scalar when array is NULL. */
typedef struct lat_operand {
    const lat_array *array;
    lat_scalar scalar;
} lat_operand;

static inline lat_operand lat_operand_array(const lat_array *a)
{
    lat_operand o;
    o.array = a;
    o.scalar = lat_scalar_make_(LAT_DTYPE_DEFAULT);
    return o;
}
static inline lat_operand lat_operand_scalar(lat_scalar s)
{
    lat_operand o;
    o.array = NULL;
    o.scalar = s;
    return o;
}

/* Every operation below writes its result either into a new array or into one of the
 * caller's:
 *   out:    NULL to allocate the result (its shape is the operands', its type the one
 *           the operation gives); or an existing array of the same shape (of any dtype:
 *           the result is converted to it as C converts), which may be an operand itself
 *           (in place: lat_array_op(LAT_OP_ADD, a, b, a, NULL) is a += b).
 *   result: receives the new array, or `out`; may be NULL when out is given.
 * Array operands must have the same shape and belong to the same context; scalars go
 * with anything. An empty shape launches nothing.
 * Errors: LAT_ERROR_INVALID_VALUE (NULL arrays, an unknown op or one of the wrong arity,
 * different shapes: the message gives both, arrays of different contexts, no array
 * operand at all); LAT_ERROR_OUT_OF_DEVICE_MEMORY; those of lat_module_create() for the
 * generated kernel (LAT_ERROR_UNSUPPORTED where a backend cannot run it) and of
 * lat_launch(). Thread safety: any thread. */
LAT_API lat_status lat_array_binary(lat_op op, lat_operand x, lat_operand y,
                                    lat_array *out, lat_array **result);
/* x op y for two arrays; x op s; s op x (2*a is lat_array_scalar_op(LAT_OP_MUL,
 * lat_scalar_i32(2), a, ...)). Errors: as lat_array_binary(). */
LAT_API lat_status lat_array_op(lat_op op, const lat_array *x, const lat_array *y,
                                lat_array *out, lat_array **result);
LAT_API lat_status lat_array_op_scalar(lat_op op, const lat_array *x, lat_scalar s,
                                       lat_array *out, lat_array **result);
LAT_API lat_status lat_array_scalar_op(lat_op op, lat_scalar s, const lat_array *x,
                                       lat_array *out, lat_array **result);
/* op(x) for a unary op. Errors: as lat_array_binary(). */
LAT_API lat_status lat_array_unary(lat_op op, const lat_array *x, lat_array *out,
                                   lat_array **result);
/* NumPy's where: cond ? x : y elementwise (cond: any dtype, non-zero is true); the
 * result's type is lat_dtype_promote(x, y). Errors: as lat_array_binary(), plus
 * LAT_ERROR_INVALID_VALUE (cond NULL). */
LAT_API lat_status lat_array_where(const lat_array *cond, lat_operand x, lat_operand y,
                                   lat_array *out, lat_array **result);

/* ------------------------------------------------------------------------------------ */
/* Reductions                                                                           */
/* ------------------------------------------------------------------------------------ */

typedef enum lat_reduce_op {
    LAT_REDUCE_SUM = 0, /* integers sum in int64 / uint64 (the result's type), wrapping;
                           float32 in float32, float64 in float64; empty: 0 */
    LAT_REDUCE_PROD,    /* the same types; empty: 1 */
    LAT_REDUCE_MIN,     /* the element type; floats by fmin (NaNs ignored unless all
                           are); an empty array has none: LAT_ERROR_INVALID_VALUE */
    LAT_REDUCE_MAX,
    LAT_REDUCE_ANY,     /* uint8 mask: some element is non-zero; empty: 0 */
    LAT_REDUCE_ALL      /* every element is non-zero; empty: 1 */
} lat_reduce_op;

/* Reduces the whole array to a 0-d array (read it with lat_array_get_scalar()), on the
 * device, in at most two kernels: a grid-stride pass whose blocks combine their threads'
 * values by warp shuffles and shared memory, and one block that combines the blocks'.
 * out/result as for the operations above (out: a 1-element array of any dtype).
 * Errors: as lat_array_binary(), plus LAT_ERROR_INVALID_VALUE (min/max of an empty
 * array). Thread safety: any thread. */
LAT_API lat_status lat_array_reduce(lat_reduce_op op, const lat_array *a, lat_array *out,
                                    lat_array **result);
/* Reduces along one axis (negative counts from the end: -1 is the last), giving an
 * array of a's shape without that axis. Errors: as lat_array_reduce(), plus
 * LAT_ERROR_INVALID_VALUE (axis out of range; min/max along an axis of extent 0 of a
 * non-empty result). */
LAT_API lat_status lat_array_reduce_axis(lat_reduce_op op, const lat_array *a, int axis,
                                         lat_array *out, lat_array **result);
/* The dot product sum(x[i] * y[i]) of two arrays of the same size (any shapes), in
 * lat_dtype_promote(x, y), integers widened to int64 / uint64 as for a sum. */
LAT_API lat_status lat_array_dot(const lat_array *x, const lat_array *y, lat_array *out,
                                 lat_array **result);

/* ------------------------------------------------------------------------------------ */
/* Elementwise kernel generator (PyCUDA's ElementwiseKernel)                           */
/* ------------------------------------------------------------------------------------ */

typedef struct lat_elementwise_desc {
    /* The kernel's parameters as C declarations: "float a, float *x, float *y, float *z".
     * Required. */
    const char *arguments;
    /* The statement run for every index i (an unsigned long long) below n:
     * "z[i] = a*x[i] + y[i]". Required. n is also in scope. */
    const char *operation;
    /* The kernel's name (a C identifier); default "elementwise". */
    const char *name;
    /* Source placed before the kernel: helper __device__ functions, #defines. */
    const char *preamble;
    /* Statements run once per thread before its loop / after it. */
    const char *loop_prep;
    const char *after_loop;
} lat_elementwise_desc;

typedef struct lat_elementwise lat_elementwise;

/* Generates the kernel and compiles it (once per context: another create with the same
 * description reuses the compiled code). The kernel runs a grid-stride loop over i,
 * launched with as many threads as the device keeps resident (its multiprocessor
 * count times threads per multiprocessor) or fewer for small n.
 * Errors: LAT_ERROR_INVALID_VALUE (NULL ctx, desc or out, a missing field, a name that is
 * not an identifier); LAT_ERROR_OUT_OF_MEMORY; those of lat_module_create()
 * (LAT_ERROR_COMPILE with the compiler's log, positions in the generated source).
 * Thread safety: any thread. */
LAT_API lat_status lat_elementwise_create(lat_context *ctx, const lat_elementwise_desc *desc,
                                          lat_elementwise **out);
/* Destroys the handle (the compiled code stays cached with the context). NULL is a
 * no-op. Thread safety: not while the kernel is being launched from another thread. */
LAT_API void lat_elementwise_destroy(lat_elementwise *k);

/* Runs the operation for i = 0 .. n-1 with the arguments in `arguments` order (lat_arg_*,
 * lat_arg_array); n = 0 launches nothing. Asynchronous as lat_launch_args() is.
 * Errors: those of lat_launch_args() (LAT_ERROR_ARG_COUNT, LAT_ERROR_ARG_TYPE naming the
 * parameter...). Thread safety: any thread. */
LAT_API lat_status lat_elementwise_launch(lat_elementwise *k, size_t n, size_t nargs,
                                          const lat_arg *args);

/* ------------------------------------------------------------------------------------ */
/* Reduction kernel generator (PyCUDA's ReductionKernel)                                */
/* ------------------------------------------------------------------------------------ */

typedef struct lat_reduction_desc {
    /* The result's type (LAT_DTYPE_DEFAULT: float32). Values are combined in it. */
    lat_dtype dtype;
    /* The neutral element of the reduction, a C expression: "0", "-INFINITY". Required. */
    const char *neutral;
    /* How two values a and b combine: "a+b", "fmaxf(a, b)". It must be associative and
     * commutative (threads combine values in an unspecified order). Required. */
    const char *reduce;
    /* The value of index i (an unsigned long long): "x[i]*y[i]". Required. */
    const char *map;
    /* The parameters as C declarations: "const float *x, const float *y". Required. */
    const char *arguments;
    const char *name;     /* the kernels' name stem; default "reduction" */
    const char *preamble; /* source placed before the kernels */
} lat_reduction_desc;

typedef struct lat_reduction lat_reduction;

/* Generates and compiles the two kernels of the reduction (once per context).
 * Errors: as lat_elementwise_create(), plus LAT_ERROR_INVALID_VALUE (unknown dtype);
 * LAT_ERROR_UNSUPPORTED on a backend without shared memory and warp shuffles.
 * Thread safety: any thread. */
LAT_API lat_status lat_reduction_create(lat_context *ctx, const lat_reduction_desc *desc,
                                        lat_reduction **out);
LAT_API void lat_reduction_destroy(lat_reduction *r);

/* Reduces map(i) over i = 0 .. n-1 (the neutral element when n is 0) into a 0-d array
 * of the reduction's dtype (out/result as for the operations above). Arguments in
 * `arguments` order. Errors: those of lat_launch_args() and lat_array_empty().
 * Thread safety: any thread. */
LAT_API lat_status lat_reduction_launch(lat_reduction *r, size_t n, size_t nargs,
                                        const lat_arg *args, lat_array *out,
                                        lat_array **result);

/* ------------------------------------------------------------------------------------ */
/* Scan generator (PyCUDA's InclusiveScanKernel / ExclusiveScanKernel)                  */
/* ------------------------------------------------------------------------------------ */

typedef struct lat_scan_desc {
    lat_dtype dtype;      /* the element type (LAT_DTYPE_DEFAULT: float32) */
    /* How a running value a and the next value b combine: "a+b", "max(a, b)". Only
     * associativity is needed: values combine in index order. Required. */
    const char *scan;
    /* The neutral element, a C expression: "0". Required. */
    const char *neutral;
    /* 0: inclusive (out[i] = x[0] op ... op x[i]); non-zero: exclusive
     * (out[i] = neutral op x[0] op ... op x[i-1]). */
    int exclusive;
    const char *name;     /* the kernels' name stem; default "scan" */
    const char *preamble;
} lat_scan_desc;

typedef struct lat_scan lat_scan;

/* Generates and compiles the scan's kernels (once per context). Errors: as
 * lat_reduction_create(). Thread safety: any thread. */
LAT_API lat_status lat_scan_create(lat_context *ctx, const lat_scan_desc *desc, lat_scan **out);
LAT_API void lat_scan_destroy(lat_scan *s);

/* Scans `in` (flattened in C order) into `out`, which has the same number of elements and
 * the scan's dtype; out may be in (in place). Errors: LAT_ERROR_INVALID_VALUE (NULL
 * argument, another dtype or size, arrays of different contexts); those of a launch.
 * Thread safety: any thread. */
LAT_API lat_status lat_scan_launch(lat_scan *s, const lat_array *in, lat_array *out);

/* ------------------------------------------------------------------------------------ */
/* Random numbers: Philox4x32-10                                                        */
/* ------------------------------------------------------------------------------------ */

/* A counter-based generator (Salmon et al., "Parallel random numbers: as easy as 1, 2,
 * 3", SC 2011): each output block of four 32-bit words is Philox4x32-10 of a 128-bit
 * counter under a 64-bit key. The kernels use only integer arithmetic and correctly
 * rounded float operations (compiled without FMA contraction), so the emulator and the
 * GPU produce the same bits for the same seed.
 *
 * The key is the seed (low word first). The generator keeps a 128-bit counter (four
 * words, least significant first), 0 at creation. A call that fills n values uses
 * blocks counter, counter+1, ... (value j takes words of block counter + j/V, V being
 * the values one block gives: 4 for 32-bit words, uniform and normal float32; 2 for
 * uniform and normal float64) and then advances the counter past them, so that
 * successive calls give fresh numbers. */
typedef struct lat_random lat_random;

/* Creates a generator of the context. Errors: LAT_ERROR_INVALID_VALUE (NULL ctx or out);
 * LAT_ERROR_OUT_OF_MEMORY. Thread safety: any thread. */
LAT_API lat_status lat_random_create(lat_context *ctx, uint64_t seed, lat_random **out);
LAT_API void lat_random_destroy(lat_random *g);

/* Reads or sets the counter (four words, least significant first). Errors:
 * LAT_ERROR_INVALID_VALUE (NULL argument). Thread safety: not concurrently with another
 * use of the same generator. */
LAT_API lat_status lat_random_get_counter(const lat_random *g, uint32_t counter[4]);
LAT_API lat_status lat_random_set_counter(lat_random *g, const uint32_t counter[4]);

/* Fills a uint32 (or int32) array with raw Philox words: element j is word j%4 of block
 * counter + j/4. Errors: LAT_ERROR_INVALID_VALUE (NULL argument, another dtype, an
 * array of another context); those of a launch. Thread safety: not concurrently with
 * another use of the same generator. */
LAT_API lat_status lat_random_bits(lat_random *g, lat_array *out);
/* Uniform values in [0, 1) into a float32 or float64 array: float32 from the top 24 bits
 * of one word (w >> 8) * 2^-24; float64 from 53 bits of two words, ((w0 >> 5) * 2^26 +
 * (w1 >> 6)) * 2^-53. Errors: as lat_random_bits() (dtype float32 / float64). */
LAT_API lat_status lat_random_uniform(lat_random *g, lat_array *out);
/* Normal values mean + stddev * z, z from the Box-Muller transform of pairs of uniform
 * values, in the array's float type, with logarithm, sine and cosine that lattice
 * computes itself (so both backends agree to the bit). Errors: as lat_random_uniform(),
 * plus LAT_ERROR_INVALID_VALUE (stddev negative or not finite). */
LAT_API lat_status lat_random_normal(lat_random *g, lat_array *out, double mean,
                                     double stddev);

#ifdef __cplusplus
}
#endif

#endif /* LATTICE_ARRAY_H */
