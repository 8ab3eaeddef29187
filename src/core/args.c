/*
 * lat_launch_args(): typed arguments checked against the kernel's parameters, and
 * PyCUDA's In/Out/InOut handlers (allocate, copy in, launch, copy out, free).
 */
#include "backend.h"
#include "core/alloc.h"
#include "driver_ops.h"
#include "launch.h"
#include "memory.h"

#include <stdlib.h>
#include <string.h>

static const char *kind_name(lat_arg_kind kind)
{
    switch (kind) {
    case LAT_ARG_I32: return "an int32 (lat_arg_i32)";
    case LAT_ARG_U32: return "a uint32 (lat_arg_u32)";
    case LAT_ARG_I64: return "an int64 (lat_arg_i64)";
    case LAT_ARG_U64: return "a uint64 (lat_arg_u64)";
    case LAT_ARG_F32: return "a float (lat_arg_f32)";
    case LAT_ARG_F64: return "a double (lat_arg_f64)";
    case LAT_ARG_PTR: return "a device pointer (lat_arg_ptr)";
    case LAT_ARG_BYTES: return "a value of bytes (lat_arg_bytes)";
    case LAT_ARG_IN: return "an In buffer (lat_arg_in)";
    case LAT_ARG_OUT: return "an Out buffer (lat_arg_out)";
    case LAT_ARG_INOUT: return "an InOut buffer (lat_arg_inout)";
    case LAT_ARG_NONE: break;
    }
    return "an argument of unknown kind";
}

static bool is_buffer(lat_arg_kind kind)
{
    return kind == LAT_ARG_IN || kind == LAT_ARG_OUT || kind == LAT_ARG_INOUT;
}

/* Whether an argument of `kind` (`bytes` for BYTES) may be passed to a parameter of class
 * cls and size size (0: unknown). */
static bool arg_fits(lat_arg_kind kind, size_t bytes, lat__param_class cls, size_t size)
{
    bool any_size = size == 0;
    switch (kind) {
    case LAT_ARG_PTR:
    case LAT_ARG_IN:
    case LAT_ARG_OUT:
    case LAT_ARG_INOUT:
        return cls == LAT__PARAM_POINTER ||
               (cls == LAT__PARAM_UNKNOWN && (any_size || size == sizeof(lat_deviceptr)));
    case LAT_ARG_I32:
    case LAT_ARG_U32:
        /* An int may also fill a narrower integer parameter (char, short, bool). */
        return ((cls == LAT__PARAM_SINT || cls == LAT__PARAM_UINT) && (any_size || size <= 4)) ||
               (cls == LAT__PARAM_UNKNOWN && (any_size || size == 4));
    case LAT_ARG_I64:
    case LAT_ARG_U64:
        return ((cls == LAT__PARAM_SINT || cls == LAT__PARAM_UINT || cls == LAT__PARAM_UNKNOWN) &&
                (any_size || size == 8));
    case LAT_ARG_F32:
        return (cls == LAT__PARAM_FLOAT || cls == LAT__PARAM_UNKNOWN) && (any_size || size == 4);
    case LAT_ARG_F64:
        return (cls == LAT__PARAM_FLOAT || cls == LAT__PARAM_UNKNOWN) && (any_size || size == 8);
    case LAT_ARG_BYTES:
        return any_size || size == bytes;
    case LAT_ARG_NONE:
        break;
    }
    return false;
}

static lat_status check_args(lat_kernel *k, size_t nargs, const lat_arg *args)
{
    lat_context *ctx = k->module->ctx;
    if (nargs > 0 && !args)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "kernel '%s': args is NULL", k->name);
    if (k->nparams >= 0 && nargs != (size_t)k->nparams)
        return lat__error(ctx, LAT_ERROR_ARG_COUNT,
                          "kernel '%s': %zu argument%s given; the kernel takes %d",
                          k->name, nargs, nargs == 1 ? "" : "s", k->nparams);
    for (size_t i = 0; i < nargs; i++) {
        const lat_arg *a = &args[i];
        if (a->kind <= LAT_ARG_NONE || a->kind > LAT_ARG_INOUT)
            return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                              "kernel '%s': argument %zu has kind %d, not a lat_arg_kind; "
                              "make arguments with the lat_arg_* functions",
                              k->name, i, (int)a->kind);
        if ((a->kind == LAT_ARG_BYTES || is_buffer(a->kind)) && !a->value.buffer.data &&
            a->value.buffer.size > 0)
            return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                              "kernel '%s': argument %zu is %s of %zu bytes at NULL",
                              k->name, i, kind_name(a->kind), a->value.buffer.size);
        if (a->kind == LAT_ARG_BYTES && a->value.buffer.size == 0)
            return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                              "kernel '%s': argument %zu is a value of 0 bytes",
                              k->name, i);
        if (k->nparams < 0)
            continue;
        lat__param_class cls = k->param_class[i];
        size_t size = k->param_size[i];
        if (!arg_fits(a->kind, a->value.buffer.size, cls, size)) {
            const lat__param *p =
                k->sig && k->sig->nparams == k->nparams ? &k->sig->params[i] : NULL;
            return lat__error(ctx, LAT_ERROR_ARG_TYPE,
                              "kernel '%s': argument %zu is %s, but parameter %zu%s%s%s "
                              "is '%s' (%zu bytes)", k->name, i, kind_name(a->kind), i, p && p->name[0] ? " '" : "",
                              p ? p->name : "", p && p->name[0] ? "'" : "",
                              p ? p->type : "unknown type", size);
        }
    }
    return LAT_OK;
}

/* Per-argument storage for the values the kernel receives. */
typedef union arg_value {
    int32_t i32;
    uint32_t u32;
    int64_t i64;
    uint64_t u64;
    float f32;
    double f64;
    lat_deviceptr ptr;
} arg_value;

static void free_buffers(lat_context *ctx, const lat_arg *args, size_t nargs,
                         const arg_value *values)
{
    for (size_t i = 0; i < nargs; i++)
        if (is_buffer(args[i].kind) && values[i].ptr)
            (void)lat__mem_free(ctx, values[i].ptr);
}

lat_status lat_launch_args(lat_kernel *kernel, const lat_launch_desc *desc, size_t nargs,
                           const lat_arg *args)
{
    LAT__API();
    lat__launch l;
    lat_status st = lat__launch_prepare(kernel, desc, &l);
    if (st != LAT_OK)
        return st;
    st = check_args(kernel, nargs, args);
    if (st != LAT_OK)
        return st;
    lat_context *ctx = kernel->module->ctx;

    arg_value small_values[16];
    void *small_params[16];
    arg_value *values = small_values;
    void **params = small_params;
    if (nargs > 16) {
        values = lat__calloc(nargs, sizeof *values);
        params = lat__calloc(nargs, sizeof *params);
        if (!values || !params) {
            free(values);
            free(params);
            return lat__oom(ctx);
        }
    } else {
        memset(small_values, 0, sizeof small_values);
    }

    bool copy_out = false, has_buffers = false;
    /* A backend that runs the whole In/Out round trip itself (a memory pool, page-locked
     * staging: driver_ops.h) gets the buffers described instead of allocated here. */
    lat__launch_buffers_fn fast = lat__drv(ctx)->launch_buffers;
    lat__buffer_arg small_bufs[16], *bufs = small_bufs;
    size_t nbufs = 0;
    if (fast && nargs > 16 && !(bufs = lat__calloc(nargs, sizeof *bufs)))
        st = lat__oom(ctx);
    for (size_t i = 0; i < nargs && st == LAT_OK; i++) {
        const lat_arg *a = &args[i];
        params[i] = &values[i];
        switch (a->kind) {
        case LAT_ARG_I32: values[i].i32 = a->value.i32; break;
        case LAT_ARG_U32: values[i].u32 = a->value.u32; break;
        case LAT_ARG_I64: values[i].i64 = a->value.i64; break;
        case LAT_ARG_U64: values[i].u64 = a->value.u64; break;
        case LAT_ARG_F32: values[i].f32 = a->value.f32; break;
        case LAT_ARG_F64: values[i].f64 = a->value.f64; break;
        case LAT_ARG_PTR:
            values[i].ptr = a->value.ptr;
            if ((int)i < kernel->nparams)
                st = lat__launch_check_pointer(kernel, (int)i, a->value.ptr);
            break;
        case LAT_ARG_BYTES: params[i] = a->value.buffer.data; break;
        case LAT_ARG_IN:
        case LAT_ARG_OUT:
        case LAT_ARG_INOUT:
            /* An empty buffer is passed as a null pointer, as an empty array would be. */
            if (a->value.buffer.size == 0)
                break;
            if (fast) {
                bufs[nbufs++] = (lat__buffer_arg){a->kind, a->value.buffer.data,
                                                  a->value.buffer.size, &values[i].ptr};
                break;
            }
            st = lat__mem_alloc(ctx, a->value.buffer.size, &values[i].ptr);
            if (st == LAT_OK && a->kind != LAT_ARG_OUT)
                st = ctx->backend->memcpy_htod(ctx, values[i].ptr, a->value.buffer.data,
                                               a->value.buffer.size);
            copy_out |= a->kind != LAT_ARG_IN;
            has_buffers = true;
            break;
        case LAT_ARG_NONE: break;
        }
    }
    if (fast && st == LAT_OK) {
        st = nbufs ? fast(kernel, &l, params, nbufs, bufs)
                   : ctx->backend->launch(kernel, &l, nargs ? params : NULL);
        if (bufs != small_bufs)
            free(bufs);
        if (values != small_values) {
            free(values);
            free(params);
        }
        return st;
    }
    if (bufs != small_bufs)
        free(bufs);
    if (st == LAT_OK)
        st = ctx->backend->launch(kernel, &l, nargs ? params : NULL);
    /* Buffers are freed only once the kernel is done with them. Copies out wait for it
     * by themselves (they are ordered after the launch on both backends), so an explicit
     * wait is needed only when nothing is copied out. */
    if (st == LAT_OK && has_buffers && !copy_out)
        st = ctx->backend->synchronize(ctx);
    if (st == LAT_OK && copy_out) {
        for (size_t i = 0; i < nargs && st == LAT_OK; i++) {
            const lat_arg *a = &args[i];
            if ((a->kind == LAT_ARG_OUT || a->kind == LAT_ARG_INOUT) && a->value.buffer.size)
                st = ctx->backend->memcpy_dtoh(ctx, a->value.buffer.data, values[i].ptr,
                                               a->value.buffer.size);
        }
    }
    free_buffers(ctx, args, nargs, values);
    if (values != small_values) {
        free(values);
        free(params);
    }
    return st;
}
