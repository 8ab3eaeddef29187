/*
 * Reductions: the public generator (PyCUDA's ReductionKernel) and the array reductions
 * built on it (sum, prod, min, max, any, all, dot; whole arrays and along one axis).
 *
 * A whole reduction is two kernels at most. Stage 1 runs as many blocks as the device
 * keeps resident, each over one contiguous chunk of the items; each thread folds its
 * elements of the chunk into one value, each block combines its threads' values (warp
 * shuffles, then one value per warp through shared memory) and writes one partial. Stage 2, one block, combines the
 * partials. With a single block stage 1 writes the result itself.
 */
#include "internal.h"
#include "core/alloc.h"

#include "error.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lat__src_block_ops(lat__src *s, lat_dtype acc, const char *reduce, const char *neutral)
{
    const lat__dtype_info *d = lat__dtype(acc);
    lat__src_addf(s,
        "typedef %s lat_t;\n"
        "__device__ lat_t lat_op(lat_t a, lat_t b) { return (lat_t)(%s); }\n"
        "__device__ lat_t lat_shfl_down(lat_t v, int o)\n"
        "{\n    return (lat_t)__shfl_down_sync(0xffffffffu, (%s)v, o);\n}\n"
        "__device__ lat_t lat_shfl_up(lat_t v, int o)\n"
        "{\n    return (lat_t)__shfl_up_sync(0xffffffffu, (%s)v, o);\n}\n",
        d->ctype, reduce, d->shfl, d->shfl);
    /* Offsets grow (1, 2, 4...) so that lane 0 combines the lanes in order: a op b with a
     * from the lower lanes. A lane whose partner is past the warp combines with itself;
     * such lanes never feed lane 0. */
    lat__src_addf(s,
        "__device__ lat_t lat_block_reduce(lat_t v, lat_t *lat_warp)\n"
        "{\n"
        "    const unsigned int lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;\n"
        "    for (int o = 1; o < 32; o <<= 1)\n"
        "        v = lat_op(v, lat_shfl_down(v, o));\n"
        "    if (lane == 0)\n"
        "        lat_warp[warp] = v;\n"
        "    __syncthreads();\n"
        "    if (warp == 0) {\n"
        "        v = lane < ((blockDim.x + 31u) >> 5) ? lat_warp[lane] : (lat_t)(%s);\n"
        "        for (int o = 1; o < 32; o <<= 1)\n"
        "            v = lat_op(v, lat_shfl_down(v, o));\n"
        "    }\n"
        "    return v;\n"
        "}\n",
        neutral);
}

/* ---- the two-stage reduction ------------------------------------------------------------ */

typedef struct spec {
    lat_dtype acc;        /* the type values are combined in */
    const char *neutral;  /* C expression */
    const char *reduce;   /* in a, b */
    const char *map;      /* in i and the parameters */
    const char *params;   /* C declarations */
    const char *preamble; /* may be NULL */
    const char *name;     /* stem of the kernels' names */
} spec;

static void stage_names(const char *stem, char *s1, char *s2, size_t size)
{
    snprintf(s1, size, "%s_stage1", stem);
    snprintf(s2, size, "%s_stage2", stem);
}

static size_t max_partials(lat_context *ctx)
{
    return lat__grid_for(ctx, (size_t)-1 / 2, LAT__BLOCK);
}

static void reduction_source(const void *arg, lat__src *s)
{
    const spec *sp = arg;
    char s1[160], s2[160];
    stage_names(sp->name, s1, s2, sizeof s1);
    lat__src_preamble(s, sp->preamble);
    lat__src_block_ops(s, sp->acc, sp->reduce, sp->neutral);
    lat__src_addf(s,
        "__global__ void %s(%s, unsigned long long n, %s *lat_partial)\n"
        "{\n"
        "    __shared__ lat_t lat_warp[32];\n"
        "    lat_t lat_acc = (lat_t)(%s);\n",
        s1, sp->params, lat_dtype_ctype(sp->acc), sp->neutral);
    /* Each block folds one contiguous chunk of the items, the same chunk on every
     * backend, so that every block's partial is the same set of values and
     * cross-checking can compare them. On a GPU the block's threads stride through it
     * (coalesced), four strides per iteration: the four maps' loads are independent of
     * the running value, so they are all in flight at once. On the emulator a block's
     * threads run one after another, so each thread folds one contiguous part of it
     * (a stride through the whole chunk per thread would load every cache line once per
     * thread). */
    lat__src_add(s,
        "    const unsigned long long lat_chunk = (n + gridDim.x - 1) / gridDim.x;\n"
        "    const unsigned long long lat_lo = (unsigned long long)blockIdx.x * lat_chunk;\n"
        "    const unsigned long long lat_hi = lat_lo + lat_chunk < n ? lat_lo + lat_chunk : n;\n"
        "#ifdef __LATTICE_SEQUENTIAL_BLOCK__\n"
        "    const unsigned long long lat_len = lat_hi > lat_lo ? lat_hi - lat_lo : 0;\n"
        "    const unsigned long long lat_sub = (lat_len + blockDim.x - 1) / blockDim.x;\n"
        "    unsigned long long lat_b = lat_lo + threadIdx.x * lat_sub;\n"
        "    const unsigned long long lat_e = lat_b + lat_sub < lat_hi ? lat_b + lat_sub : lat_hi;\n"
        "    const unsigned long long lat_s = 1;\n"
        "#else\n"
        "    const unsigned long long lat_s = blockDim.x;\n"
        "    unsigned long long lat_b = lat_lo + threadIdx.x;\n"
        "    const unsigned long long lat_e = lat_hi;\n"
        "#endif\n"
        "    for (; lat_b + 3 * lat_s < lat_e; lat_b += 4 * lat_s) {\n"
        "        lat_t lat_m[4];\n");
    for (int u = 0; u < 4; u++)
        lat__src_addf(s,
            "        {\n"
            "            const unsigned long long i = lat_b + %d * lat_s;\n"
            "            lat_m[%d] = (lat_t)(%s);\n"
            "        }\n",
            u, u, sp->map);
    lat__src_addf(s,
        "        lat_acc = lat_op(lat_op(lat_acc, lat_m[0]), lat_op(lat_m[1], lat_op(lat_m[2], lat_m[3])));\n"
        "    }\n"
        "    for (; lat_b < lat_e; lat_b += lat_s) {\n"
        "        const unsigned long long i = lat_b;\n"
        "        lat_acc = lat_op(lat_acc, (lat_t)(%s));\n"
        "    }\n"
        "    lat_acc = lat_block_reduce(lat_acc, lat_warp);\n"
        "    if (threadIdx.x == 0)\n"
        "        lat_partial[blockIdx.x] = lat_acc;\n"
        "}\n"
        "__global__ void %s(const %s *lat_partial, unsigned int lat_count, %s *lat_result)\n"
        "{\n"
        "    __shared__ lat_t lat_warp[32];\n"
        "    lat_t lat_acc = (lat_t)(%s);\n"
        "    for (unsigned int j = threadIdx.x; j < lat_count; j += blockDim.x)\n"
        "        lat_acc = lat_op(lat_acc, lat_partial[j]);\n"
        "    lat_acc = lat_block_reduce(lat_acc, lat_warp);\n"
        "    if (threadIdx.x == 0)\n"
        "        *lat_result = lat_acc;\n"
        "}\n",
        sp->map, s2, lat_dtype_ctype(sp->acc), lat_dtype_ctype(sp->acc), sp->neutral);
}

static lat_status get_reduction(lat_context *ctx, const spec *sp, lat__gen **g)
{
    char s1[160], s2[160];
    stage_names(sp->name, s1, s2, sizeof s1);
    lat__src key = {0};
    lat__src_addf(&key, "reduce %d|%s|%s|%s|%s|%s|%s", (int)sp->acc, sp->neutral, sp->reduce,
                  sp->map, sp->params, sp->preamble ? sp->preamble : "", sp->name);
    lat_status st = lat__src_check(&key, ctx);
    if (st != LAT_OK)
        return st;
    st = lat__gen_get(ctx, key.text, reduction_source, sp, NULL,
                      (const char *const[]){s1, s2, NULL},
                      max_partials(ctx) * lat_dtype_size(sp->acc), g);
    lat__src_free(&key);
    return st;
}

/* Runs the reduction of n items into the device address `result` (one lat_t). */
static lat_status run_reduction(lat__gen *g, size_t n, size_t nargs, const lat_arg *args,
                                lat_deviceptr result)
{
    lat_context *ctx = g->ctx;
    unsigned grid = lat__grid_for(ctx, n, LAT__BLOCK);
    lat_arg small[18];
    lat_arg *all = nargs + 2 <= 18 ? small : lat__malloc((nargs + 2) * sizeof *all);
    if (!all)
        return lat__oom(ctx);
    if (nargs)
        memcpy(all, args, nargs * sizeof *all);
    all[nargs] = lat_arg_u64(n);
    /* The partials live in the module's scratch buffer; holding the lock while both
     * stages are queued keeps another thread's stage 1 from landing between them (the
     * launches of a context run in the order they are queued). */
    pthread_mutex_lock(&g->lock);
    all[nargs + 1] = lat_arg_ptr(grid == 1 ? result : g->scratch);
    lat_status st = lat_launch_args(
        g->kernels[0], &(lat_launch_desc){.grid = {grid, 1, 1}, .block = {LAT__BLOCK, 1, 1}},
        nargs + 2, all);
    if (st == LAT_OK && grid > 1) {
        lat_deviceptr partial = g->scratch;
        unsigned count = grid;
        void *params[] = {&partial, &count, &result};
        st = lat_launch(g->kernels[1],
                        &(lat_launch_desc){.grid = {1, 1, 1}, .block = {LAT__BLOCK, 1, 1}},
                        params);
    }
    pthread_mutex_unlock(&g->lock);
    if (all != small)
        free(all);
    return st;
}

/* Puts a result of type `type` computed into a new 0-d array (or `out`, converting). */
typedef lat_status (*fill_fn)(void *arg, lat_deviceptr dst);

static lat_status into_result(lat_context *ctx, lat_dtype type, lat_array *out,
                              lat_array **result, fill_fn fill, void *arg)
{
    if (result)
        *result = NULL;
    if (!out && !result)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "out and result are both NULL");
    if (out && out->size != 1)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "out has %zu elements; a reduction's result has 1", out->size);
    if (out && out->ctx != ctx)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "out belongs to another context");
    lat_status st;
    if (out && out->dtype == type) {
        st = fill(arg, out->ptr);
        if (st == LAT_OK && result)
            *result = out;
        return st;
    }
    lat_array *tmp;
    st = lat__array_new(ctx, type, 0, NULL, &tmp);
    if (st != LAT_OK)
        return st;
    st = fill(arg, tmp->ptr);
    if (st == LAT_OK && out) {
        /* One element converted, whatever out's shape (0-d, (1,), (1, 1)...). */
        lat_operand in = lat_operand_array(tmp);
        st = lat__ew_apply(ctx, NULL, "a", out->dtype, out->ptr, 1, &in, 1);
    }
    if (out || st != LAT_OK) {
        lat_array_destroy(tmp);
        if (st == LAT_OK && result)
            *result = out;
        return st;
    }
    *result = tmp;
    return LAT_OK;
}

/* ---- the public generator --------------------------------------------------------------- */

struct lat_reduction {
    lat__gen *gen;
    lat_dtype dtype;
};

lat_status lat_reduction_create(lat_context *ctx, const lat_reduction_desc *desc,
                                lat_reduction **out)
{
    LAT__API();
    if (!out)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "out is NULL");
    *out = NULL;
    if (!ctx || !desc)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s is NULL", ctx ? "desc" : "ctx");
    const char *missing = !desc->neutral || !*desc->neutral     ? "neutral"
                          : !desc->reduce || !*desc->reduce     ? "reduce"
                          : !desc->map || !*desc->map           ? "map"
                          : !desc->arguments || !*desc->arguments ? "arguments"
                                                                : NULL;
    if (missing)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "desc->%s is missing", missing);
    if (!lat__dtype_valid(desc->dtype))
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "unknown dtype %d", (int)desc->dtype);
    const char *name = desc->name ? desc->name : "reduction";
    if (!lat__is_identifier(name) || strlen(name) > 100)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "the name \"%s\" is not a C identifier (of at most 100 characters)",
                          name);
    lat_reduction *r = lat__calloc(1, sizeof *r);
    if (!r)
        return lat__oom(ctx);
    spec sp = {.acc = lat__dtype_resolve(desc->dtype), .neutral = desc->neutral,
               .reduce = desc->reduce, .map = desc->map, .params = desc->arguments,
               .preamble = desc->preamble, .name = name};
    lat_status st = get_reduction(ctx, &sp, &r->gen);
    if (st != LAT_OK) {
        free(r);
        return st;
    }
    r->dtype = sp.acc;
    *out = r;
    return LAT_OK;
}

void lat_reduction_destroy(lat_reduction *r)
{
    LAT__API();
    free(r);
}

typedef struct launch_arg {
    lat__gen *g;
    size_t n, nargs;
    const lat_arg *args;
} launch_arg;

static lat_status fill_launch(void *arg, lat_deviceptr dst)
{
    launch_arg *a = arg;
    return run_reduction(a->g, a->n, a->nargs, a->args, dst);
}

lat_status lat_reduction_launch(lat_reduction *r, size_t n, size_t nargs, const lat_arg *args,
                                lat_array *out, lat_array **result)
{
    LAT__API();
    if (result)
        *result = NULL;
    if (!r)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "r is NULL");
    if (nargs > 0 && !args)
        return lat__error(r->gen->ctx, LAT_ERROR_INVALID_VALUE, "args is NULL");
    launch_arg a = {r->gen, n, nargs, args};
    return into_result(r->gen->ctx, r->dtype, out, result, fill_launch, &a);
}

/* ---- array reductions ------------------------------------------------------------------- */

/* How op reduces elements of type t: the accumulator and result types and the source. */
typedef struct plan {
    lat_dtype acc, type;
    char neutral[96], reduce[192], map_fmt[96]; /* map_fmt: printf with the element */
} plan;

static lat_status make_plan(lat_context *ctx, lat_reduce_op op, lat_dtype t,
                            plan *p)
{
    const lat__dtype_info *d = lat__dtype(t);
    memset(p, 0, sizeof *p);
    switch (op) {
    case LAT_REDUCE_SUM:
    case LAT_REDUCE_PROD: {
        const char *o = op == LAT_REDUCE_SUM ? "+" : "*";
        snprintf(p->neutral, sizeof p->neutral, op == LAT_REDUCE_SUM ? "0" : "1");
        snprintf(p->reduce, sizeof p->reduce, "a %s b", o);
        if (d->is_float) {
            p->acc = p->type = t;
            snprintf(p->map_fmt, sizeof p->map_fmt, "%%s");
        } else {
            /* Integers add up in 64 unsigned bits (wrapping, no overflow), which are
             * the int64 result's bits too. */
            p->acc = LAT_DTYPE_UINT64;
            p->type = d->is_signed ? LAT_DTYPE_INT64 : LAT_DTYPE_UINT64;
            snprintf(p->map_fmt, sizeof p->map_fmt, "(unsigned long long)(%%s)");
        }
        break;
    }
    case LAT_REDUCE_MIN:
    case LAT_REDUCE_MAX: {
        bool mn = op == LAT_REDUCE_MIN;
        p->acc = p->type = t;
        snprintf(p->map_fmt, sizeof p->map_fmt, "%%s");
        if (d->is_float) {
            /* fmin/fmax with a NaN neutral: NaNs lose to numbers, all-NaN gives NaN. */
            snprintf(p->reduce, sizeof p->reduce, "f%s%s(a, b)", mn ? "min" : "max",
                     t == LAT_DTYPE_FLOAT32 ? "f" : "");
            snprintf(p->neutral, sizeof p->neutral,
                     t == LAT_DTYPE_FLOAT32 ? "__int_as_float(0x7fc00000)"
                                            : "__longlong_as_double(0x7ff8000000000000LL)");
        } else {
            snprintf(p->reduce, sizeof p->reduce, "a %c b ? a : b", mn ? '<' : '>');
            static const char *const lo[] = {
                [LAT_DTYPE_INT8] = "(-128)", [LAT_DTYPE_INT16] = "(-32768)",
                [LAT_DTYPE_INT32] = "(-2147483647 - 1)",
                [LAT_DTYPE_INT64] = "(-9223372036854775807LL - 1LL)"};
            static const char *const hi[] = {
                [LAT_DTYPE_INT8] = "127", [LAT_DTYPE_INT16] = "32767",
                [LAT_DTYPE_INT32] = "2147483647", [LAT_DTYPE_INT64] = "9223372036854775807LL",
                [LAT_DTYPE_UINT8] = "255", [LAT_DTYPE_UINT16] = "65535",
                [LAT_DTYPE_UINT32] = "4294967295u", [LAT_DTYPE_UINT64] = "18446744073709551615ull"};
            const char *v = mn ? hi[t] : (d->is_signed ? lo[t] : "0");
            snprintf(p->neutral, sizeof p->neutral, "%s", v);
        }
        break;
    }
    case LAT_REDUCE_ANY:
    case LAT_REDUCE_ALL:
        p->acc = p->type = LAT_DTYPE_UINT8;
        snprintf(p->neutral, sizeof p->neutral, op == LAT_REDUCE_ANY ? "0" : "1");
        snprintf(p->reduce, sizeof p->reduce, op == LAT_REDUCE_ANY ? "a | b" : "a & b");
        snprintf(p->map_fmt, sizeof p->map_fmt, "(%%s) != 0");
        break;
    default:
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "unknown reduction %d", (int)op);
    }
    return LAT_OK;
}

static const char *op_name(lat_reduce_op op)
{
    static const char *const names[] = {"sum", "prod", "min", "max", "any", "all"};
    return (int)op >= 0 && (int)op < 6 ? names[op] : "?";
}

typedef struct whole_arg {
    lat__gen *g;
    const lat_array *x, *y;
} whole_arg;

static lat_status fill_whole(void *arg, lat_deviceptr dst)
{
    whole_arg *w = arg;
    lat_arg args[2] = {lat_arg_ptr(w->x->ptr), lat_arg_ptr(w->y ? w->y->ptr : 0)};
    return run_reduction(w->g, w->x->size, w->y ? 2 : 1, args, dst);
}

lat_status lat_array_reduce(lat_reduce_op op, const lat_array *a, lat_array *out,
                            lat_array **result)
{
    LAT__API();
    if (result)
        *result = NULL;
    if (!a)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "a is NULL");
    plan p;
    lat_status st = make_plan(a->ctx, op, a->dtype, &p);
    if (st != LAT_OK)
        return st;
    if (a->size == 0 && (op == LAT_REDUCE_MIN || op == LAT_REDUCE_MAX))
        return lat__error(a->ctx, LAT_ERROR_INVALID_VALUE,
                          "%s of an empty array: it has no elements", op_name(op));
    char params[96], map[128], name[32];
    snprintf(params, sizeof params, "const %s *x", lat_dtype_ctype(a->dtype));
    snprintf(map, sizeof map, p.map_fmt, "x[i]");
    snprintf(name, sizeof name, "lat_%s", op_name(op));
    spec sp = {.acc = p.acc, .neutral = p.neutral, .reduce = p.reduce, .map = map,
               .params = params, .name = name};
    lat__gen *g;
    st = get_reduction(a->ctx, &sp, &g);
    if (st != LAT_OK)
        return st;
    whole_arg w = {g, a, NULL};
    return into_result(a->ctx, p.type, out, result, fill_whole, &w);
}

lat_status lat_array_dot(const lat_array *x, const lat_array *y, lat_array *out,
                         lat_array **result)
{
    LAT__API();
    if (result)
        *result = NULL;
    if (!x || !y)
        return lat__error(x ? x->ctx : y ? y->ctx : NULL, LAT_ERROR_INVALID_VALUE,
                          "%s is NULL", x ? "y" : "x");
    if (x->ctx != y->ctx)
        return lat__error(x->ctx, LAT_ERROR_INVALID_VALUE, "x and y belong to different contexts");
    if (x->size != y->size)
        return lat__error(x->ctx, LAT_ERROR_INVALID_VALUE,
                          "x has %zu elements, y %zu", x->size, y->size);
    lat_dtype t = lat_dtype_promote(x->dtype, y->dtype);
    plan p;
    lat_status st = make_plan(x->ctx, LAT_REDUCE_SUM, t, &p);
    if (st != LAT_OK)
        return st;
    const char *tc = lat_dtype_ctype(t);
    char params[160], prod[128], map[192];
    snprintf(params, sizeof params, "const %s *x, const %s *y", lat_dtype_ctype(x->dtype),
             lat_dtype_ctype(y->dtype));
    if (lat__dtype(t)->is_float)
        snprintf(prod, sizeof prod, "(%s)x[i] * (%s)y[i]", tc, tc);
    else /* in 64 unsigned bits, wrapping like the sum */
        snprintf(prod, sizeof prod, "(unsigned long long)(%s)x[i] * (unsigned long long)(%s)y[i]",
                 tc, tc);
    snprintf(map, sizeof map, p.map_fmt, prod);
    spec sp = {.acc = p.acc, .neutral = p.neutral, .reduce = p.reduce, .map = map,
               .params = params, .name = "lat_dot"};
    lat__gen *g;
    st = get_reduction(x->ctx, &sp, &g);
    if (st != LAT_OK)
        return st;
    whole_arg w = {g, x, y};
    return into_result(x->ctx, p.type, out, result, fill_whole, &w);
}

/* ---- along one axis --------------------------------------------------------------------- */

/* Rows of `len` contiguous elements (the last axis) with many elements each: one block
 * per row, combined as in a whole reduction. Otherwise one thread per result element,
 * walking its elements `inner` apart (adjacent threads read adjacent elements). */
enum { ROW_MIN_LEN = 32 };

static void axis_source(const plan *p, lat_dtype t, bool rows, lat__src *s)
{
    char map[128];
    snprintf(map, sizeof map, p->map_fmt, "x[lat_k]");
    if (rows) {
        lat__src_block_ops(s, p->acc, p->reduce, p->neutral);
        lat__src_addf(s,
            "__global__ void lat_axis(const %s *x, unsigned long long outer,\n"
            "                         unsigned long long len, %s *out)\n"
            "{\n"
            "    __shared__ lat_t lat_warp[32];\n"
            "    for (unsigned long long r = blockIdx.x; r < outer; r += gridDim.x) {\n"
            "        lat_t lat_acc = (lat_t)(%s);\n"
            "        for (unsigned long long j = threadIdx.x; j < len; j += blockDim.x) {\n"
            "            const unsigned long long lat_k = r * len + j;\n"
            "            lat_acc = lat_op(lat_acc, (lat_t)(%s));\n"
            "        }\n"
            "        lat_acc = lat_block_reduce(lat_acc, lat_warp);\n"
            "        if (threadIdx.x == 0)\n"
            "            out[r] = lat_acc;\n"
            "        __syncthreads();\n"
            "    }\n"
            "}\n",
            lat_dtype_ctype(t), lat_dtype_ctype(p->acc), p->neutral, map);
        return;
    }
    /* No shuffles or shared memory here, so it runs wherever plain kernels do. */
    lat__src_addf(s,
        "typedef %s lat_t;\n"
        "__device__ lat_t lat_op(lat_t a, lat_t b) { return (lat_t)(%s); }\n"
        "__global__ void lat_axis(const %s *x, unsigned long long outer,\n"
        "                         unsigned long long len, unsigned long long inner,\n"
        "                         %s *out)\n"
        "{\n"
        "    const unsigned long long n = outer * inner;\n",
        lat_dtype_ctype(p->acc), p->reduce, lat_dtype_ctype(t), lat_dtype_ctype(p->acc));
    char body[1024];
    snprintf(body, sizeof body,
             "const unsigned long long lat_base = (i / inner) * len * inner + i %% inner;\n"
             "            lat_t lat_acc = (lat_t)(%s);\n"
             "            for (unsigned long long lat_j = 0; lat_j < len; lat_j++) {\n"
             "                const unsigned long long lat_k = lat_base + lat_j * inner;\n"
             "                lat_acc = lat_op(lat_acc, (lat_t)(%s));\n"
             "            }\n"
             "            out[i] = lat_acc;",
             p->neutral, map);
    lat__src_loop(s, body);
    lat__src_add(s, "}\n");
}

typedef struct axis_recipe {
    const plan *p;
    lat_dtype t;
    bool rows;
} axis_recipe;

static void axis_source_fn(const void *arg, lat__src *s)
{
    const axis_recipe *r = arg;
    axis_source(r->p, r->t, r->rows, s);
}

typedef struct axis_arg {
    lat__gen *g;
    const lat_array *a;
    bool rows;
    unsigned long long outer, len, inner;
} axis_arg;

static lat_status fill_axis(void *arg, lat_deviceptr dst)
{
    axis_arg *x = arg;
    lat_deviceptr src = x->a->ptr;
    unsigned long long n = x->outer * x->inner;
    if (n == 0)
        return LAT_OK;
    if (x->rows) {
        unsigned grid = lat__grid_for(x->g->ctx, (size_t)x->outer * LAT__BLOCK, LAT__BLOCK);
        void *params[] = {&src, &x->outer, &x->len, &dst};
        return lat_launch(x->g->kernels[0],
                          &(lat_launch_desc){.grid = {grid, 1, 1}, .block = {LAT__BLOCK, 1, 1}},
                          params);
    }
    unsigned grid = lat__grid_for(x->g->ctx, (size_t)n, LAT__BLOCK);
    void *params[] = {&src, &x->outer, &x->len, &x->inner, &dst};
    return lat_launch(x->g->kernels[0],
                      &(lat_launch_desc){.grid = {grid, 1, 1}, .block = {LAT__BLOCK, 1, 1}},
                      params);
}

lat_status lat_array_reduce_axis(lat_reduce_op op, const lat_array *a, int axis, lat_array *out,
                                 lat_array **result)
{
    LAT__API();
    if (result)
        *result = NULL;
    if (!a)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "a is NULL");
    if (!out && !result)
        return lat__error(a->ctx, LAT_ERROR_INVALID_VALUE, "out and result are both NULL");
    int ax = axis < 0 ? axis + a->ndim : axis;
    if (ax < 0 || ax >= a->ndim)
        return lat__error(a->ctx, LAT_ERROR_INVALID_VALUE,
                          "axis %d is out of range for an array of %d dimension%s", axis,
                          a->ndim, a->ndim == 1 ? "" : "s");
    plan p;
    lat_status st = make_plan(a->ctx, op, a->dtype, &p);
    if (st != LAT_OK)
        return st;
    axis_arg x = {.a = a, .outer = 1, .len = a->shape[ax], .inner = 1};
    size_t shape[LAT_ARRAY_MAX_DIMS];
    int nd = 0;
    for (int d = 0; d < a->ndim; d++) {
        if (d < ax)
            x.outer *= a->shape[d];
        else if (d > ax)
            x.inner *= a->shape[d];
        if (d != ax)
            shape[nd++] = a->shape[d];
    }
    if (x.len == 0 && x.outer * x.inner > 0 && (op == LAT_REDUCE_MIN || op == LAT_REDUCE_MAX))
        return lat__error(a->ctx, LAT_ERROR_INVALID_VALUE,
                          "%s along axis %d of extent 0: its rows have no elements",
                          op_name(op), axis);
    if (out) {
        bool same = out->ndim == nd && out->ctx == a->ctx;
        for (int d = 0; same && d < nd; d++)
            same = out->shape[d] == shape[d];
        if (!same) {
            char s1[160], s2[160];
            lat__shape_str(nd, shape, s1, sizeof s1);
            lat__shape_str(out->ndim, out->shape, s2, sizeof s2);
            return lat__error(a->ctx, LAT_ERROR_INVALID_VALUE,
                              "out has shape %s; the result has shape %s%s", s2, s1,
                              out->ctx != a->ctx ? " (and out is of another context)" : "");
        }
    }
    x.rows = x.inner == 1 && x.len >= ROW_MIN_LEN;
    char key[512];
    snprintf(key, sizeof key, "axis %d %d %d %d|%s|%s|%s", (int)a->dtype, (int)p.acc, x.rows,
             (int)op, p.neutral, p.reduce, p.map_fmt);
    axis_recipe recipe = {&p, a->dtype, x.rows};
    st = lat__gen_get(a->ctx, key, axis_source_fn, &recipe, NULL,
                      (const char *const[]){"lat_axis", NULL}, 0, &x.g);
    if (st != LAT_OK)
        return st;

    lat_array *dst = out;
    if (!out || out->dtype != p.type) {
        st = lat__array_new(a->ctx, p.type, nd, shape, &dst);
        if (st != LAT_OK)
            return st;
    }
    st = fill_axis(&x, dst->ptr);
    if (st == LAT_OK && dst != out && out)
        st = lat_array_copy(out, dst);
    if (dst != out && (out || st != LAT_OK))
        lat_array_destroy(dst);
    if (st == LAT_OK && result)
        *result = out ? out : dst;
    return st;
}
