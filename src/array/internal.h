/*
 * What the files of src/array share: the array object, the element-type table, the
 * cache of generated kernels, and the helpers that write and launch generated source.
 */
#ifndef LAT_ARRAY_INTERNAL_H
#define LAT_ARRAY_INTERNAL_H

#include "lattice.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Device memory shared by an array and its views, freed when the last one goes. */
typedef struct lat__array_mem {
    lat_context *ctx;
    lat_deviceptr base;
    atomic_int refs;
} lat__array_mem;

struct lat_array {
    lat_context *ctx;
    lat_dtype dtype;
    int ndim;
    size_t shape[LAT_ARRAY_MAX_DIMS];
    size_t size;         /* elements */
    lat_deviceptr ptr;   /* the first element; 0 when empty */
    lat__array_mem *mem; /* NULL for empty and wrapped arrays */
};

/* ---- element types (dtype.c) --------------------------------------------------------- */

typedef struct lat__dtype_info {
    const char *name;   /* "float32" */
    const char *ctype;  /* "float" */
    const char *utype;  /* the unsigned type of the same size, for wrapping arithmetic */
    const char *shfl;   /* the type a warp shuffle moves it as */
    size_t size;
    bool is_float, is_signed;
} lat__dtype_info;

/* The table entry of a known dtype (LAT_DTYPE_DEFAULT resolves to float32), or NULL. */
const lat__dtype_info *lat__dtype(lat_dtype t);
/* LAT_DTYPE_DEFAULT -> FLOAT32; others unchanged. */
lat_dtype lat__dtype_resolve(lat_dtype t);
bool lat__dtype_valid(lat_dtype t);
/* Converts a scalar to dtype t and stores its bytes (lat_dtype_size(t)) at out: the
 * value a kernel parameter of that type receives. */
void lat__scalar_store(lat_scalar s, lat_dtype t, void *out);
/* "(4, 4)" into buf, for messages. */
void lat__shape_str(int ndim, const size_t *shape, char *buf, size_t size);

/* ---- arrays (array.c) ---------------------------------------------------------------- */

/* A new array of the shape. */
lat_status lat__array_new(lat_context *ctx, lat_dtype dtype, int ndim, const size_t *shape, lat_array **out);
bool lat__same_shape(const lat_array *a, const lat_array *b);

/* ---- generated kernels (kcache.c) ---------------------------------------------------- */

enum { LAT__CACHE_KERNELS = 4 };

/* A generated module of a context, with its kernels and a device scratch buffer the
 * module's launches may share (guarded by `lock`; see lat__gen_get). */
typedef struct lat__gen {
    lat_context *ctx;
    lat_module *mod;
    lat_kernel *kernels[LAT__CACHE_KERNELS];
    lat_deviceptr scratch;
    size_t scratch_bytes;
    pthread_mutex_t lock;
} lat__gen;

/* Writes the source of a generated module into *out (lat__src, below). */
struct lat__src;
typedef void (*lat__gen_source_fn)(const void *arg, struct lat__src *out);

/* The module generated for `key` in ctx, compiling it on the first request. `key` says
 * everything the source depends on (a short recipe, cheap to compare on every call);
 * `source(arg, out)` writes the source when it must be compiled, or with source NULL the
 * key is the source itself. Compiled with `options` (NULL-terminated, or NULL); the
 * kernels named in `names` (up to LAT__CACHE_KERNELS, NULL-terminated) are looked up
 * once. The entry lives until the context is
 * destroyed. scratch_bytes > 0 also allocates a scratch buffer of that size with it. */
lat_status lat__gen_get(lat_context *ctx, const char *key, lat__gen_source_fn source,
                        const void *arg, const char *const *options, const char *const *names,
                        size_t scratch_bytes, lat__gen **out);

/* ---- writing and launching source (gen.c) -------------------------------------------- */

/* A growing string; `oom` latches the first allocation failure. */
typedef struct lat__src {
    char *text;
    size_t len, cap;
    bool oom;
} lat__src;

void lat__src_add(lat__src *s, const char *text);
/* What every generated kernel's source starts with: INFINITY and NAN where the compiler
 * lacks them, then the user's preamble (may be NULL). */
void lat__src_preamble(lat__src *s, const char *preamble);
void lat__src_addf(lat__src *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void lat__src_free(lat__src *s);
/* Returns the status of a source that ran out of memory (and frees it), else LAT_OK. */
lat_status lat__src_check(lat__src *s, lat_context *ctx);

/* Threads per block of the generated grid-stride kernels. */
enum { LAT__BLOCK = 256 };

/* Blocks for a grid-stride loop over n items: enough to fill the device (its
 * multiprocessors times the blocks of `block` threads each keeps resident), fewer when n
 * needs fewer; at least 1. */
unsigned lat__grid_for(const lat_context *ctx, size_t n, unsigned block);

/* Appends a loop that runs `body` for every unsigned long long `i` below `n` (both
 * names in scope of the generated kernel): a grid-stride loop on a GPU, so that a warp's
 * accesses are adjacent; one contiguous chunk per thread where the compiler says a block's
 * threads run one after another on one CPU thread (__LATTICE_SEQUENTIAL_BLOCK__, the
 * emulator: a stride there would walk the whole array once per thread). The array layer
 * never asks which backend compiles its kernels. */
void lat__src_loop(lat__src *s, const char *body);
/* The sequential half of that loop alone, opening an #ifdef __LATTICE_SEQUENTIAL_BLOCK__
 * whose #else the caller writes (a GPU loop of its own) and closes with #endif. */
void lat__src_sequential_loop(lat__src *s, const char *body);

/* 1 when s is a C identifier. */
bool lat__is_identifier(const char *s);


/* ---- lattice's own elementwise kernels (ops.c) ----------------------------------------- */

/* Runs out[i] = (out type)(expr) for i below n, where expr is C source in terms of the
 * operands `a`, `b`, `c` (ins[0..nin-1]: array elements or scalars, each of its own
 * type) and the index `lat_i`. `helpers` (may be NULL) is source placed before the
 * kernel. nin is 0 to 3. The operands' arrays must have n elements. */
lat_status lat__ew_apply(lat_context *ctx, const char *helpers,
                         const char *expr, lat_dtype out_dtype, lat_deviceptr out_ptr, int nin,
                         const lat_operand *ins, size_t n);


/* ---- block-level building blocks in CUDA C (reduction.c) -------------------------------- */

/* Appends the device functions every reduction and scan kernel shares, for values of
 * type `acc` combined by `reduce` (an expression in a and b) with neutral element
 * `neutral`: lat_op, the warp shuffles lat_shfl_down / lat_shfl_up, and
 * lat_block_reduce(v, warp_scratch) which leaves the block's values combined in thread
 * order in thread 0 (warp_scratch: a __shared__ lat_t[32] of the kernel). */
void lat__src_block_ops(lat__src *s, lat_dtype acc, const char *reduce, const char *neutral);

#endif
