/*
 * Elementwise array operations: arithmetic, comparisons, math functions, where, fill,
 * arange, astype and copies. Each is one generated kernel, specialised for its operand
 * types (the source names them, so every combination is its own cached module), with
 * scalars passed as kernel parameters so that a new value does not mean a new compile.
 */
#include "internal.h"

#include "error.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const binary_names[] = {
    [LAT_OP_ADD] = "add", [LAT_OP_SUB] = "sub", [LAT_OP_MUL] = "mul", [LAT_OP_DIV] = "div",
    [LAT_OP_MOD] = "mod", [LAT_OP_POW] = "pow", [LAT_OP_MIN] = "min", [LAT_OP_MAX] = "max",
    [LAT_OP_ATAN2] = "atan2", [LAT_OP_HYPOT] = "hypot", [LAT_OP_COPYSIGN] = "copysign",
    [LAT_OP_LDEXP] = "ldexp", [LAT_OP_EQ] = "eq", [LAT_OP_NE] = "ne", [LAT_OP_LT] = "lt",
    [LAT_OP_LE] = "le", [LAT_OP_GT] = "gt", [LAT_OP_GE] = "ge",
    [LAT_OP_LOGICAL_AND] = "logical_and", [LAT_OP_LOGICAL_OR] = "logical_or",
};

/* Unary ops, from LAT_OP_NEG; the math functions' names are also their C names. */
static const char *const unary_names[] = {
    "neg", "abs", "logical_not", "isnan", "isinf", "isfinite",
    "fabs", "ceil", "floor", "trunc", "round", "rint",
    "exp", "exp2", "expm1", "log", "log2", "log10",
    "log1p", "sqrt", "rsqrt", "cbrt",
    "sin", "cos", "tan", "asin", "acos", "atan",
    "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
    "erf", "erfc",
};
enum { NUNARY = sizeof unary_names / sizeof unary_names[0] };

static bool is_binary(lat_op op)
{
    return (int)op >= 0 && (size_t)op < sizeof binary_names / sizeof binary_names[0] &&
           binary_names[op];
}

static bool is_unary(lat_op op)
{
    return (int)op >= LAT_OP_NEG && (int)op < LAT_OP_NEG + NUNARY;
}

const char *lat_op_name(lat_op op)
{
    LAT__API();
    if (is_binary(op))
        return binary_names[op];
    if (is_unary(op))
        return unary_names[op - LAT_OP_NEG];
    return "unknown";
}

/* ---- the generated kernel -------------------------------------------------------------- */

static lat_dtype operand_dtype(const lat_operand *o)
{
    return o->array ? o->array->dtype : lat__dtype_resolve(o->scalar.dtype);
}

/* What the generated kernel of lat__ew_apply depends on. */
typedef struct ew_recipe {
    const char *helpers, *expr;
    lat_dtype out;
    int nin;
    const lat_operand *ins;
    int vec; /* elements per 16-byte access on the GPU; 0: one element at a time */
} ew_recipe;

static void ew_source(const void *arg, lat__src *s)
{
    static const char *const names[] = {"a", "b", "c"};
    const ew_recipe *r = arg;
    const char *outc = lat_dtype_ctype(r->out);
    int nin = r->nin;
    const lat_operand *ins = r->ins;
    if (r->helpers)
        lat__src_add(s, r->helpers);
    lat__src_add(s, "#define LAT_F(lat_i");
    for (int k = 0; k < nin; k++)
        lat__src_addf(s, ", %s", names[k]);
    lat__src_addf(s, ") (%s)\n__global__ void lat_ew(%s *out", r->expr, outc);
    for (int k = 0; k < nin; k++) {
        const char *t = lat_dtype_ctype(operand_dtype(&ins[k]));
        if (ins[k].array)
            lat__src_addf(s, ", const %s *in%d", t, k);
        else
            lat__src_addf(s, ", %s in%d", t, k);
    }
    lat__src_add(s, ", unsigned long long n)\n{\n");

    /* The emulator's loop: one element per iteration. */
    lat__src body = {0};
    lat__src_addf(&body, "out[i] = (%s)LAT_F(i", outc);
    for (int k = 0; k < nin; k++)
        lat__src_addf(&body, ins[k].array ? ", in%d[i]" : ", in%d", k);
    lat__src_add(&body, ");");
    if (body.oom) {
        s->oom = true;
        lat__src_free(&body);
        return;
    }
    lat__src_sequential_loop(s, body.text);

    if (r->vec > 0) {
        /* The GPU's, when every array has one element size and 16-byte alignment: each
         * thread moves 16 bytes per array per iteration (one vector load or store), so
         * that enough bytes are in flight to cover the memory's latency at full
         * bandwidth; the elements past the last whole vector one at a time. */
        int v = r->vec;
        lat__src_add(s, "#else\n"
                        "    const unsigned long long lat_s = (unsigned long long)gridDim.x * blockDim.x;\n"
                        "    const unsigned long long lat_t0 = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;\n");
        lat__src_addf(s, "    const unsigned long long lat_nv = n / %d;\n", v);
        lat__src_add(s, "    for (unsigned long long lat_v = lat_t0; lat_v < lat_nv; lat_v += lat_s) {\n");
        for (int k = 0; k < nin; k++) {
            if (!ins[k].array)
                continue;
            lat__src_addf(s,
                          "        union { uint4 u; %s e[%d]; } lat_a%d;\n"
                          "        lat_a%d.u = ((const uint4 *)in%d)[lat_v];\n",
                          lat_dtype_ctype(operand_dtype(&ins[k])), v, k, k, k);
        }
        lat__src_addf(s, "        union { uint4 u; %s e[%d]; } lat_o;\n", outc, v);
        for (int e = 0; e < v; e++) {
            lat__src_addf(s, "        lat_o.e[%d] = (%s)LAT_F(lat_v * %d + %d", e, outc, v, e);
            for (int k = 0; k < nin; k++) {
                if (ins[k].array)
                    lat__src_addf(s, ", lat_a%d.e[%d]", k, e);
                else
                    lat__src_addf(s, ", in%d", k);
            }
            lat__src_add(s, ");\n");
        }
        lat__src_add(s, "        ((uint4 *)out)[lat_v] = lat_o.u;\n    }\n");
        lat__src_addf(s, "    for (unsigned long long i = lat_nv * %d + lat_t0; i < n; i += lat_s) {\n        ", v);
        lat__src_add(s, body.text);
        lat__src_add(s, "\n    }\n#endif\n}\n");
    } else {
        /* The GPU's otherwise: a plain grid-stride loop. */
        lat__src_add(s, "#else\n"
                        "    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;\n"
                        "         i < n; i += (unsigned long long)gridDim.x * blockDim.x) {\n        ");
        lat__src_add(s, body.text);
        lat__src_add(s, "\n    }\n#endif\n}\n");
    }
    lat__src_free(&body);
}

/* Elements per 16-byte access when every array (out and the array operands) has one
 * element size and lies 16-byte aligned; 0 otherwise. */
static int vector_width(lat_dtype out_dtype, lat_deviceptr out_ptr, int nin,
                        const lat_operand *ins)
{
    size_t size = lat_dtype_size(out_dtype);
    if (out_ptr % 16 != 0)
        return 0;
    for (int k = 0; k < nin; k++) {
        if (!ins[k].array)
            continue;
        if (lat_dtype_size(ins[k].array->dtype) != size || ins[k].array->ptr % 16 != 0)
            return 0;
    }
    return (int)(16 / size);
}

lat_status lat__ew_apply(lat_context *ctx, const char *helpers,
                         const char *expr, lat_dtype out_dtype, lat_deviceptr out_ptr, int nin,
                         const lat_operand *ins, size_t n)
{
    if (n == 0)
        return LAT_OK;
    /* The key: the types, which operands are arrays, the expression and helpers. */
    int vec = vector_width(out_dtype, out_ptr, nin, ins);
    char small[512];
    lat__src key = {0};
    int len = snprintf(small, sizeof small, "ew %d v%d", (int)out_dtype, vec);
    for (int k = 0; k < nin && len > 0 && (size_t)len < sizeof small; k++)
        len += snprintf(small + len, sizeof small - (size_t)len, " %d%c",
                        (int)operand_dtype(&ins[k]), ins[k].array ? 'a' : 's');
    if (len > 0 && (size_t)len < sizeof small)
        len += snprintf(small + len, sizeof small - (size_t)len, "|%s|%s", expr,
                        helpers ? helpers : "");
    const char *k_text = small;
    if (len < 0 || (size_t)len >= sizeof small) {
        lat__src_addf(&key, "%s|%s|%s", small, expr, helpers ? helpers : "");
        lat_status st = lat__src_check(&key, ctx);
        if (st != LAT_OK)
            return st;
        k_text = key.text;
    }
    ew_recipe r = {helpers, expr, out_dtype, nin, ins, vec};
    lat__gen *g;
    lat_status st = lat__gen_get(ctx, k_text, ew_source, &r, NULL,
                                 (const char *const[]){"lat_ew", NULL}, 0, &g);
    lat__src_free(&key);
    if (st != LAT_OK)
        return st;

    /* Parameters: out, each operand (an address or the scalar's bytes), n. */
    lat_deviceptr ptrs[3];
    unsigned char scalars[3][8];
    unsigned long long count = n;
    void *params[5];
    params[0] = &out_ptr;
    for (int k = 0; k < nin; k++) {
        if (ins[k].array) {
            ptrs[k] = ins[k].array->ptr;
            params[1 + k] = &ptrs[k];
        } else {
            lat__scalar_store(ins[k].scalar, operand_dtype(&ins[k]), scalars[k]);
            params[1 + k] = scalars[k];
        }
    }
    params[1 + nin] = &count;
    unsigned grid = lat__grid_for(ctx, vec > 0 && n >= (size_t)vec ? n / (size_t)vec : n,
                                  LAT__BLOCK);
    return lat_launch(g->kernels[0],
                      &(lat_launch_desc){.grid = {grid, 1, 1}, .block = {LAT__BLOCK, 1, 1}},
                      params);
}

/* ---- checking operands ------------------------------------------------------------------ */

/* Finds the context and shape of the operands (from the first array), checks that every
 * array has that shape and context, and that `out`, if given, matches them too. */
static lat_status check_operands(int nin, const lat_operand *ins,
                                 const lat_array *out, const lat_array **shape_of)
{
    const lat_array *first = NULL;
    for (int k = 0; k < nin; k++) {
        if (!ins[k].array) {
            if (!lat__dtype_valid(ins[k].scalar.dtype))
                return lat__error(first ? first->ctx : NULL, LAT_ERROR_INVALID_VALUE,
                                  "operand %d is a scalar of unknown dtype %d", k + 1,
                                  (int)ins[k].scalar.dtype);
            continue;
        }
        if (!first) {
            first = ins[k].array;
            continue;
        }
        const lat_array *a = ins[k].array;
        if (a->ctx != first->ctx)
            return lat__error(first->ctx, LAT_ERROR_INVALID_VALUE,
                              "operand %d belongs to another context", k + 1);
        if (!lat__same_shape(a, first)) {
            char s1[160], s2[160];
            lat__shape_str(first->ndim, first->shape, s1, sizeof s1);
            lat__shape_str(a->ndim, a->shape, s2, sizeof s2);
            return lat__error(first->ctx, LAT_ERROR_INVALID_VALUE,
                              "operand %d has shape %s, another operand %s", k + 1, s2,
                              s1);
        }
    }
    if (!first)
        first = out;
    if (!first)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE,
                          "no operand is an array (and no out array is given)");
    if (out) {
        if (out->ctx != first->ctx)
            return lat__error(first->ctx, LAT_ERROR_INVALID_VALUE,
                              "out belongs to another context");
        if (!lat__same_shape(out, first)) {
            char s1[160], s2[160];
            lat__shape_str(first->ndim, first->shape, s1, sizeof s1);
            lat__shape_str(out->ndim, out->shape, s2, sizeof s2);
            return lat__error(first->ctx, LAT_ERROR_INVALID_VALUE,
                              "out has shape %s, the operands %s", s2, s1);
        }
    }
    *shape_of = first;
    return LAT_OK;
}

/* Makes or checks the output, runs the kernel, hands the result back. */
static lat_status run(const char *helpers, const char *expr, lat_dtype type,
                      int nin, const lat_operand *ins, lat_array *out, lat_array **result)
{
    if (result)
        *result = NULL;
    if (!out && !result)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "out and result are both NULL");
    const lat_array *like;
    lat_status st = check_operands(nin, ins, out, &like);
    if (st != LAT_OK)
        return st;
    lat_array *dst = out;
    if (!dst) {
        st = lat__array_new(like->ctx, type, like->ndim, like->shape, &dst);
        if (st != LAT_OK)
            return st;
    }
    st = lat__ew_apply(like->ctx, helpers, expr, dst->dtype, dst->ptr, nin, ins, dst->size);
    if (st != LAT_OK) {
        if (!out)
            lat_array_destroy(dst);
        return st;
    }
    if (result)
        *result = dst;
    return LAT_OK;
}

/* ---- binary operations ------------------------------------------------------------------ */

/* The float type a math function computes in for operands of type t. */
static lat_dtype float_of(lat_dtype t)
{
    return t == LAT_DTYPE_FLOAT32 ? LAT_DTYPE_FLOAT32 : LAT_DTYPE_FLOAT64;
}

/* The suffix of C's float functions: "f" for float, "" for double. */
static const char *fsuf(lat_dtype f)
{
    return f == LAT_DTYPE_FLOAT32 ? "f" : "";
}

lat_status lat_array_binary(lat_op op, lat_operand x, lat_operand y, lat_array *out,
                            lat_array **result)
{
    LAT__API();
    if (!is_binary(op)) {
        if (result)
            *result = NULL;
        const lat_array *any = x.array ? x.array : y.array;
        return lat__error(any ? any->ctx : NULL, LAT_ERROR_INVALID_VALUE,
                          "%d (%s) is not a binary operation", (int)op,
                          lat_op_name(op));
    }
    lat_operand ins[2] = {x, y};
    if (!lat__dtype_valid(operand_dtype(&x)) || !lat__dtype_valid(operand_dtype(&y)))
        return check_operands( 2, ins, out, &(const lat_array *){NULL});
    lat_dtype p = lat_dtype_promote(operand_dtype(&x), operand_dtype(&y));
    const lat__dtype_info *pi = lat__dtype(p);
    const char *pc = pi->ctype, *uc = pi->utype;
    char expr[512], helpers[1024];
    helpers[0] = '\0';
    lat_dtype type = p;
    switch (op) {
    case LAT_OP_ADD:
    case LAT_OP_SUB:
    case LAT_OP_MUL: {
        char o = op == LAT_OP_ADD ? '+' : op == LAT_OP_SUB ? '-' : '*';
        if (!pi->is_float && pi->is_signed) /* wrap in the unsigned type: no overflow */
            snprintf(expr, sizeof expr, "(%s)((%s)(%s)(a) %c (%s)(%s)(b))", pc, uc, pc, o, uc,
                     pc);
        else
            snprintf(expr, sizeof expr, "(%s)(a) %c (%s)(b)", pc, o, pc);
        break;
    }
    case LAT_OP_DIV:
    case LAT_OP_MOD:
        if (pi->is_float) {
            if (op == LAT_OP_DIV)
                snprintf(expr, sizeof expr, "(%s)(a) / (%s)(b)", pc, pc);
            else
                snprintf(expr, sizeof expr, "fmod%s((%s)(a), (%s)(b))", fsuf(p), pc, pc);
        } else {
            /* x / 0 and x % 0 give 0 rather than trapping (the CPU) or garbage (the GPU);
             * the most negative value / -1 wraps instead of trapping. */
            if (pi->is_signed)
                snprintf(helpers, sizeof helpers,
                         "__device__ %s lat_div(%s a, %s b) { return b == 0 ? (%s)0 : b == -1 ? "
                         "(%s)((%s)0 - (%s)a) : a / b; }\n"
                         "__device__ %s lat_mod(%s a, %s b) { return b == 0 || b == -1 ? "
                         "(%s)0 : a %% b; }\n",
                         pc, pc, pc, pc, pc, uc, uc, pc, pc, pc, pc);
            else
                snprintf(helpers, sizeof helpers,
                         "__device__ %s lat_div(%s a, %s b) { return b == 0 ? (%s)0 : a / b; }\n"
                         "__device__ %s lat_mod(%s a, %s b) { return b == 0 ? (%s)0 : a %% b; }\n",
                         pc, pc, pc, pc, pc, pc, pc, pc);
            snprintf(expr, sizeof expr, "lat_%s((%s)(a), (%s)(b))",
                     op == LAT_OP_DIV ? "div" : "mod", pc, pc);
        }
        break;
    case LAT_OP_POW:
        if (pi->is_float) {
            snprintf(expr, sizeof expr, "pow%s((%s)(a), (%s)(b))", fsuf(p), pc, pc);
        } else {
            /* Repeated squaring in the unsigned type: exact, wrapping like a product. */
            snprintf(helpers, sizeof helpers,
                     "__device__ %s lat_ipow(%s a, %s b)\n{\n"
                     "    if (b < 0)\n"
                     "        return a == 1 ? (%s)1 : a == -1 ? ((b & 1) ? (%s)-1 : (%s)1) : (%s)0;\n"
                     "    %s r = 1, x = (%s)a;\n"
                     "    while (b) {\n"
                     "        if (b & 1)\n"
                     "            r *= x;\n"
                     "        x *= x;\n"
                     "        b >>= 1;\n"
                     "    }\n"
                     "    return (%s)r;\n}\n",
                     pc, pc, pc, pc, pc, pc, pc, uc, uc, pc);
            snprintf(expr, sizeof expr, "lat_ipow((%s)(a), (%s)(b))", pc, pc);
        }
        break;
    case LAT_OP_MIN:
    case LAT_OP_MAX:
        if (pi->is_float)
            snprintf(expr, sizeof expr, "f%s%s((%s)(a), (%s)(b))",
                     op == LAT_OP_MIN ? "min" : "max", fsuf(p), pc, pc);
        else
            snprintf(expr, sizeof expr, "((%s)(a) %c (%s)(b) ? (%s)(a) : (%s)(b))", pc,
                     op == LAT_OP_MIN ? '<' : '>', pc, pc, pc);
        break;
    case LAT_OP_ATAN2:
    case LAT_OP_HYPOT:
    case LAT_OP_COPYSIGN: {
        type = float_of(p);
        const char *fc = lat_dtype_ctype(type);
        snprintf(expr, sizeof expr, "%s%s((%s)(a), (%s)(b))", binary_names[op], fsuf(type), fc,
                 fc);
        break;
    }
    case LAT_OP_LDEXP: {
        type = float_of(operand_dtype(&x));
        const char *fc = lat_dtype_ctype(type);
        snprintf(expr, sizeof expr, "ldexp%s((%s)(a), (int)(b))", fsuf(type), fc);
        break;
    }
    case LAT_OP_EQ:
    case LAT_OP_NE:
    case LAT_OP_LT:
    case LAT_OP_LE:
    case LAT_OP_GT:
    case LAT_OP_GE: {
        static const char *const cmp[] = {"==", "!=", "<", "<=", ">", ">="};
        type = LAT_DTYPE_UINT8;
        snprintf(expr, sizeof expr, "(%s)(a) %s (%s)(b)", pc, cmp[op - LAT_OP_EQ], pc);
        break;
    }
    case LAT_OP_LOGICAL_AND:
    case LAT_OP_LOGICAL_OR:
        type = LAT_DTYPE_UINT8;
        snprintf(expr, sizeof expr, "(a) != 0 %s (b) != 0",
                 op == LAT_OP_LOGICAL_AND ? "&&" : "||");
        break;
    default:
        return lat__error(NULL, LAT_ERROR_INTERNAL, "op %d not handled", (int)op);
    }
    return run(helpers[0] ? helpers : NULL, expr, type, 2, ins, out, result);
}

lat_status lat_array_op(lat_op op, const lat_array *x, const lat_array *y,
                        lat_array *out, lat_array **result)
{
    LAT__API();
    if (!x || !y) {
        if (result)
            *result = NULL;
        return lat__error(x ? x->ctx : y ? y->ctx : NULL, LAT_ERROR_INVALID_VALUE,
                          "%s is NULL", x ? "y" : "x");
    }
    return lat_array_binary(op, lat_operand_array(x), lat_operand_array(y), out, result);
}

lat_status lat_array_op_scalar(lat_op op, const lat_array *x, lat_scalar s,
                               lat_array *out, lat_array **result)
{
    LAT__API();
    if (!x) {
        if (result)
            *result = NULL;
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "x is NULL");
    }
    return lat_array_binary(op, lat_operand_array(x), lat_operand_scalar(s), out, result);
}

lat_status lat_array_scalar_op(lat_op op, lat_scalar s, const lat_array *x,
                               lat_array *out, lat_array **result)
{
    LAT__API();
    if (!x) {
        if (result)
            *result = NULL;
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "x is NULL");
    }
    return lat_array_binary(op, lat_operand_scalar(s), lat_operand_array(x), out, result);
}

/* ---- unary operations ------------------------------------------------------------------- */

lat_status lat_array_unary(lat_op op, const lat_array *x, lat_array *out,
                           lat_array **result)
{
    LAT__API();
    if (result)
        *result = NULL;
    if (!x)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "x is NULL");
    if (!is_unary(op))
        return lat__error(x->ctx, LAT_ERROR_INVALID_VALUE, "%d (%s) is not a unary operation", (int)op, lat_op_name(op));
    const lat__dtype_info *ti = lat__dtype(x->dtype);
    const char *tc = ti->ctype;
    char expr[256];
    lat_dtype type = x->dtype;
    switch (op) {
    case LAT_OP_NEG: {
        type = lat_dtype_promote(x->dtype, x->dtype);
        const lat__dtype_info *pi = lat__dtype(type);
        if (pi->is_float)
            snprintf(expr, sizeof expr, "-(a)");
        else
            snprintf(expr, sizeof expr, "(%s)((%s)0 - (%s)(%s)(a))", pi->ctype, pi->utype,
                     pi->utype, pi->ctype);
        break;
    }
    case LAT_OP_ABS:
        if (ti->is_float)
            snprintf(expr, sizeof expr, "fabs%s(a)", fsuf(x->dtype));
        else if (ti->is_signed)
            snprintf(expr, sizeof expr, "(a) < 0 ? (%s)((%s)0 - (%s)(a)) : (a)", tc, ti->utype,
                     ti->utype);
        else
            snprintf(expr, sizeof expr, "(a)");
        break;
    case LAT_OP_LOGICAL_NOT:
        type = LAT_DTYPE_UINT8;
        snprintf(expr, sizeof expr, "(a) == 0");
        break;
    case LAT_OP_ISNAN:
    case LAT_OP_ISINF:
    case LAT_OP_ISFINITE:
        /* Written with comparisons only: the same on every backend, no library call. */
        type = LAT_DTYPE_UINT8;
        if (!ti->is_float)
            snprintf(expr, sizeof expr, op == LAT_OP_ISFINITE ? "1" : "0");
        else if (op == LAT_OP_ISNAN)
            snprintf(expr, sizeof expr, "(a) != (a)");
        else if (op == LAT_OP_ISINF)
            snprintf(expr, sizeof expr, "(a) == (a) && (a) - (a) != (a) - (a)");
        else
            snprintf(expr, sizeof expr, "(a) - (a) == (a) - (a)");
        break;
    default: {
        type = float_of(x->dtype);
        snprintf(expr, sizeof expr, "%s%s((%s)(a))", unary_names[op - LAT_OP_NEG], fsuf(type),
                 lat_dtype_ctype(type));
        break;
    }
    }
    lat_operand in = lat_operand_array(x);
    return run(NULL, expr, type, 1, &in, out, result);
}

lat_status lat_array_where(const lat_array *cond, lat_operand x, lat_operand y, lat_array *out,
                           lat_array **result)
{
    LAT__API();
    if (result)
        *result = NULL;
    if (!cond)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "cond is NULL");
    lat_operand ins[3] = {lat_operand_array(cond), x, y};
    if (!lat__dtype_valid(operand_dtype(&x)) || !lat__dtype_valid(operand_dtype(&y)))
        return check_operands( 3, ins, out, &(const lat_array *){NULL});
    lat_dtype p = lat_dtype_promote(operand_dtype(&x), operand_dtype(&y));
    const char *pc = lat_dtype_ctype(p);
    char expr[256];
    snprintf(expr, sizeof expr, "(a) != 0 ? (%s)(b) : (%s)(c)", pc, pc);
    return run(NULL, expr, p, 3, ins, out, result);
}

/* ---- fill, arange, copies --------------------------------------------------------------- */

lat_status lat_array_fill(lat_array *a, lat_scalar value)
{
    LAT__API();
    if (!a)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "a is NULL");
    if (!lat__dtype_valid(value.dtype))
        return lat__error(a->ctx, LAT_ERROR_INVALID_VALUE, "the value has unknown dtype %d", (int)value.dtype);
    lat_operand in = lat_operand_scalar(value);
    return lat__ew_apply(a->ctx, NULL, "a", a->dtype, a->ptr, 1, &in, a->size);
}

lat_status lat_array_arange(lat_context *ctx, lat_dtype dtype, double start, double stop,
                            double step, lat_array **out)
{
    LAT__API();
    if (out)
        *out = NULL;
    if (!ctx || !out)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s is NULL", ctx ? "out" : "ctx");
    if (!isfinite(start) || !isfinite(stop) || !isfinite(step) || step == 0)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "start %g, stop %g, step %g: step must be non-zero and all "
                          "finite", start, stop, step);
    double count = ceil((stop - start) / step);
    if (!(count > 0))
        count = 0;
    if (count > 1e18)
        return lat__error(ctx, LAT_ERROR_OVERFLOW, "%g elements are too many", count);
    size_t n = (size_t)count;
    lat_status st = lat__array_new(ctx, dtype, 1, &n, out);
    if (st != LAT_OK)
        return st;
    lat_operand ins[2] = {lat_operand_scalar(lat_scalar_f64(start)),
                          lat_operand_scalar(lat_scalar_f64(step))};
    st = lat__ew_apply(ctx, NULL, "(a) + (double)(lat_i) * (b)", (*out)->dtype, (*out)->ptr,
                       2, ins, n);
    if (st != LAT_OK) {
        lat_array_destroy(*out);
        *out = NULL;
    }
    return st;
}

lat_status lat_array_copy(lat_array *dst, const lat_array *src)
{
    LAT__API();
    if (!dst || !src)
        return lat__error(dst ? dst->ctx : src ? src->ctx : NULL, LAT_ERROR_INVALID_VALUE,
                          "%s is NULL", dst ? "src" : "dst");
    lat_operand in = lat_operand_array(src);
    const lat_array *like;
    lat_status st = check_operands( 1, &in, dst, &like);
    if (st != LAT_OK || dst == src || dst->size == 0)
        return st;
    if (dst->dtype == src->dtype) {
        if (dst->ptr == src->ptr)
            return LAT_OK;
        return lat_memcpy_dtod(dst->ctx, dst->ptr, src->ptr, lat_array_nbytes(dst));
    }
    return lat__ew_apply(dst->ctx, NULL, "a", dst->dtype, dst->ptr, 1, &in, dst->size);
}

lat_status lat_array_astype(const lat_array *a, lat_dtype dtype, lat_array **out)
{
    LAT__API();
    if (out)
        *out = NULL;
    if (!a)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "a is NULL");
    lat_status st = lat__array_new(a->ctx, dtype, a->ndim, a->shape, out);
    if (st != LAT_OK)
        return st;
    st = lat_array_copy(*out, a);
    if (st != LAT_OK) {
        lat_array_destroy(*out);
        *out = NULL;
    }
    return st;
}
