/*
 * The CUDA backend's side of the driver layer (lattice/driver.h): streams and events,
 * page-locked memory, pitched allocations and 2-D copies, asynchronous copies and
 * memsets, the stream-ordered allocator, peers, attributes and kernel resources. Each is
 * the driver call of the same name; what lattice adds is the current context, messages
 * that name the call, and the staging of large pageable copies (staging.c).
 */
#include "cuda_internal.h"
#include "devattr_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ENTER(ctx)                                                                        \
    do {                                                                                  \
        lat_status st_ = lat__cuda_enter(ctx);                                            \
        if (st_ != LAT_OK)                                                                \
            return st_;                                                                   \
    } while (0)

/* ---- devices -------------------------------------------------------------------------------- */

static lat_status driver_version(int *version)
{
    *version = lat__cu.driver_version;
    return LAT_OK;
}

static lat_status device_attribute(int ordinal, const char *name, int *value)
{
    static const struct {
        const char *name;
        int attr;
    } table[] = {
#define LAT_ATTR_(n, v) {#n, v},
        LAT_DEVICE_ATTRIBUTES(LAT_ATTR_)
#undef LAT_ATTR_
    };
    CUdevice dev;
    CUresult r = lat__cu.cuDeviceGet(&dev, ordinal);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(NULL, r, "cuDeviceGet(%d)", ordinal);
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (strcmp(table[i].name, name) != 0)
            continue;
        r = lat__cu.cuDeviceGetAttribute(value, table[i].attr, dev);
        if (r == CUDA_ERROR_INVALID_VALUE)
            return lat__error(NULL, LAT_ERROR_INVALID_VALUE,
                              "this driver (%d.%d) does not know "
                              "CU_DEVICE_ATTRIBUTE_%s (%d)",
                              lat__cu.driver_version / 1000, lat__cu.driver_version % 1000 / 10,
                              name, table[i].attr);
        if (r != CUDA_SUCCESS)
            return lat__cuda_fail(NULL, r, "cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_%s, device %d)",
                                  name, ordinal);
        return LAT_OK;
    }
    return lat__error(NULL, LAT_ERROR_INTERNAL, "%s not in the table", name);
}

static lat_status can_access_peer(int ordinal, int peer, int *can)
{
    CUdevice a, b;
    CUresult r = lat__cu.cuDeviceGet(&a, ordinal);
    if (r == CUDA_SUCCESS)
        r = lat__cu.cuDeviceGet(&b, peer);
    if (r == CUDA_SUCCESS)
        r = lat__cu.cuDeviceCanAccessPeer(can, a, b);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(NULL, r, "cuDeviceCanAccessPeer(%d, %d)", ordinal, peer);
    return LAT_OK;
}

static lat_status enable_peer_access(lat_context *ctx, lat_context *peer)
{
    ENTER(ctx);
    CUresult r = lat__cu.cuCtxEnablePeerAccess(((lat__cuda_ctx *)peer->impl)->cu, 0);
    if (r != CUDA_SUCCESS && r != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED)
        return lat__cuda_fail(ctx, r, "cuCtxEnablePeerAccess(device %d -> device %d)",
                              ctx->device, peer->device);
    return LAT_OK;
}

static lat_status memcpy_peer(lat_context *dst_ctx, lat_deviceptr dst, lat_context *src_ctx,
                              lat_deviceptr src, size_t bytes)
{
    ENTER(dst_ctx);
    lat_status st = lat__cuda_enter(src_ctx);
    if (st == LAT_OK)
        st = lat__cuda_enter(dst_ctx);
    if (st != LAT_OK)
        return st;
    CUresult r = lat__cu.cuMemcpyPeer(dst, ((lat__cuda_ctx *)dst_ctx->impl)->cu, src,
                                      ((lat__cuda_ctx *)src_ctx->impl)->cu, bytes);
    if (r == CUDA_SUCCESS)
        r = lat__cu.cuCtxSynchronize(); /* the API promises a complete copy */
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(dst_ctx, r, "cuMemcpyPeer(device %d <- device %d, %zu bytes)",
                              dst_ctx->device, src_ctx->device, bytes);
    return LAT_OK;
}

/* ---- streams and events ------------------------------------------------------------------------ */

static lat_status stream_create(lat_stream *s, const lat_stream_desc *desc)
{
    ENTER(s->ctx);
    int least = 0, greatest = 0;
    int prio = desc->priority;
    if (lat__cu.cuCtxGetStreamPriorityRange(&least, &greatest) == CUDA_SUCCESS) {
        /* CUDA: greatest is the numerically lowest. Clamp into [greatest, least]. */
        if (prio < greatest)
            prio = greatest;
        if (prio > least)
            prio = least;
    } else {
        prio = 0;
    }
    CUstream cs = NULL;
    CUresult r = lat__cu.cuStreamCreateWithPriority(
        &cs, desc->non_blocking ? CU_STREAM_NON_BLOCKING : 0, prio);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(s->ctx, r, "cuStreamCreateWithPriority");
    s->impl = cs;
    return LAT_OK;
}

static void stream_destroy(lat_stream *s)
{
    lat__cuda_ctx *c = s->ctx->impl;
    if (atomic_load(&c->faulted) || lat__cuda_make_current(s->ctx) != LAT_OK)
        return;
    CUstream cs = s->impl;
    CUresult r = lat__cu.cuStreamSynchronize(cs);
    if (r != CUDA_SUCCESS && !lat__cuda_is_kernel_fault(r))
        lat__log(s->ctx, LAT_LOG_WARNING, "lat_stream_destroy: unreported failure of the "
                                          "stream's work: %s (%s)",
                 lat__cuda_error_name(r), lat__cuda_error_string(r));
    lat__cu.cuStreamDestroy(cs);
}

static CUresult query_stream(void *s)
{
    return lat__cu.cuStreamQuery(s);
}

static CUresult query_event(void *e)
{
    return lat__cu.cuEventQuery(e);
}

/* Waits that lat_interrupt() can end (lat__cuda_wait). */
static lat_status stream_synchronize(lat_stream *s)
{
    uint64_t interrupts = lat__interrupt_count();
    ENTER(s->ctx);
    return lat__cuda_wait(s->ctx, query_stream, s->impl, interrupts, "cuStreamSynchronize");
}

static lat_status stream_query(lat_stream *s, int *done)
{
    ENTER(s->ctx);
    CUresult r = lat__cu.cuStreamQuery(s->impl);
    if (r == CUDA_ERROR_NOT_READY) {
        *done = 0;
        return LAT_OK;
    }
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(s->ctx, r, "cuStreamQuery");
    *done = 1;
    return LAT_OK;
}

typedef struct cuda_event {
    CUevent ev;
    int timing;
    int recorded;
    int blocking; /* lat_event_desc.blocking_sync */
} cuda_event;

static lat_status stream_wait_event(lat_context *ctx, lat_stream *s, lat_event *e)
{
    ENTER(ctx);
    cuda_event *ev = e->impl;
    CUresult r = lat__cu.cuStreamWaitEvent(lat__cuda_stream(s), ev->ev, 0);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(ctx, r, "cuStreamWaitEvent");
    return LAT_OK;
}

static lat_status event_create(lat_event *e, const lat_event_desc *desc)
{
    ENTER(e->ctx);
    cuda_event *ev = calloc(1, sizeof *ev);
    if (!ev)
        return lat__oom(e->ctx);
    unsigned flags = (desc->disable_timing ? CU_EVENT_DISABLE_TIMING : 0) |
                     (desc->blocking_sync ? CU_EVENT_BLOCKING_SYNC : 0);
    CUresult r = lat__cu.cuEventCreate(&ev->ev, flags);
    if (r != CUDA_SUCCESS) {
        free(ev);
        return lat__cuda_fail(e->ctx, r, "cuEventCreate");
    }
    ev->timing = !desc->disable_timing;
    ev->blocking = desc->blocking_sync != 0;
    e->impl = ev;
    return LAT_OK;
}

static void event_destroy(lat_event *e)
{
    cuda_event *ev = e->impl;
    lat__cuda_ctx *c = e->ctx->impl;
    if (!atomic_load(&c->faulted) && lat__cuda_make_current(e->ctx) == LAT_OK)
        lat__cu.cuEventDestroy(ev->ev);
    free(ev);
}

static lat_status event_record(lat_event *e, lat_stream *s)
{
    ENTER(e->ctx);
    cuda_event *ev = e->impl;
    CUresult r = lat__cu.cuEventRecord(ev->ev, lat__cuda_stream(s));
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(e->ctx, r, "cuEventRecord");
    ev->recorded = 1;
    return LAT_OK;
}

static lat_status event_synchronize(lat_event *e)
{
    uint64_t interrupts = lat__interrupt_count();
    ENTER(e->ctx);
    cuda_event *ev = e->impl;
    if (!ev->blocking) /* one made to sleep while waited for (blocking_sync) sleeps */
        return lat__cuda_wait(e->ctx, query_event, ev->ev, interrupts, "cuEventSynchronize");
    CUresult r = lat__cu.cuEventSynchronize(ev->ev);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(e->ctx, r, "cuEventSynchronize");
    return LAT_OK;
}

static lat_status event_query(lat_event *e, int *done)
{
    ENTER(e->ctx);
    CUresult r = lat__cu.cuEventQuery(((cuda_event *)e->impl)->ev);
    if (r == CUDA_ERROR_NOT_READY) {
        *done = 0;
        return LAT_OK;
    }
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(e->ctx, r, "cuEventQuery");
    *done = 1;
    return LAT_OK;
}

static lat_status event_elapsed(lat_event *start, lat_event *end, float *ms)
{
    ENTER(start->ctx);
    cuda_event *a = start->impl, *b = end->impl;
    if (!a->timing || !b->timing)
        return lat__error(start->ctx, LAT_ERROR_INVALID_VALUE,
                          "an event was created with disable_timing");
    if (!a->recorded || !b->recorded)
        return lat__error(start->ctx, LAT_ERROR_INVALID_VALUE,
                          "the %s event has not been recorded",
                          a->recorded ? "end" : "start");
    CUresult r = lat__cu.cuEventElapsedTime(ms, a->ev, b->ev);
    if (r == CUDA_ERROR_NOT_READY)
        return lat__error(start->ctx, LAT_ERROR_INVALID_VALUE,
                          "an event has not completed yet: synchronise "
                          "with it first (cuEventElapsedTime: CUDA_ERROR_NOT_READY)");
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(start->ctx, r, "cuEventElapsedTime");
    return LAT_OK;
}

/* ---- page-locked memory ------------------------------------------------------------------------- */

static lat_status host_alloc(lat_context *ctx, size_t bytes, unsigned flags, void **out)
{
    ENTER(ctx);
    unsigned f = ((flags & LAT_HOST_PORTABLE) ? CU_MEMHOSTALLOC_PORTABLE : 0) |
                 ((flags & LAT_HOST_MAPPED) ? CU_MEMHOSTALLOC_DEVICEMAP : 0) |
                 ((flags & LAT_HOST_WRITE_COMBINED) ? CU_MEMHOSTALLOC_WRITECOMBINED : 0);
    CUresult r = lat__cu.cuMemHostAlloc(out, bytes, f);
    if (r == CUDA_ERROR_OUT_OF_MEMORY)
        return lat__error(ctx, LAT_ERROR_OUT_OF_MEMORY,
                          "cannot page-lock %zu bytes (cuMemHostAlloc: "
                          "CUDA_ERROR_OUT_OF_MEMORY; the system limits locked memory)",
                          bytes);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(ctx, r, "cuMemHostAlloc(%zu bytes)", bytes);
    return LAT_OK;
}

static void host_free(lat_context *ctx, void *ptr)
{
    lat__cuda_ctx *c = ctx->impl;
    if (!atomic_load(&c->faulted) && lat__cuda_make_current(ctx) == LAT_OK)
        lat__cu.cuMemFreeHost(ptr);
}

static lat_status host_register(lat_context *ctx, void *ptr, size_t bytes, unsigned flags)
{
    ENTER(ctx);
    unsigned f = ((flags & LAT_HOST_PORTABLE) ? CU_MEMHOSTREGISTER_PORTABLE : 0) |
                 ((flags & LAT_HOST_MAPPED) ? CU_MEMHOSTREGISTER_DEVICEMAP : 0);
    CUresult r = lat__cu.cuMemHostRegister(ptr, bytes, f);
    if (r == CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "%zu bytes at %p overlap memory already "
                          "page-locked outside lattice (cuMemHostRegister: "
                          "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED)",
                          bytes, ptr);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(ctx, r, "cuMemHostRegister(%p, %zu bytes)", ptr, bytes);
    return LAT_OK;
}

static void host_unregister(lat_context *ctx, void *ptr)
{
    lat__cuda_ctx *c = ctx->impl;
    if (!atomic_load(&c->faulted) && lat__cuda_make_current(ctx) == LAT_OK)
        lat__cu.cuMemHostUnregister(ptr);
}

static lat_status host_device_pointer(lat_context *ctx, void *ptr, lat_deviceptr *out)
{
    ENTER(ctx);
    CUdeviceptr d = 0;
    CUresult r = lat__cu.cuMemHostGetDevicePointer(&d, ptr, 0);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(ctx, r, "cuMemHostGetDevicePointer(%p)", ptr);
    *out = d;
    return LAT_OK;
}

/* ---- memory ------------------------------------------------------------------------------------- */

static lat_status mem_alloc_pitch(lat_context *ctx, size_t width, size_t height,
                                  unsigned elem_size, lat_deviceptr *out, size_t *pitch)
{
    ENTER(ctx);
    CUdeviceptr p = 0;
    CUresult r = lat__cu.cuMemAllocPitch(&p, pitch, width, height, elem_size);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(ctx, r, "cuMemAllocPitch(%zu bytes x %zu rows)", width, height);
    *out = p;
    return LAT_OK;
}

static lat_status memcpy_2d(lat_context *ctx, const lat_copy_2d *c, lat_stream *s, bool async)
{
    ENTER(ctx);
    CUDA_MEMCPY2D m;
    memset(&m, 0, sizeof m);
    m.srcXInBytes = c->src_x;
    m.srcY = c->src_y;
    m.srcMemoryType = c->src_host ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
    m.srcHost = c->src_host;
    m.srcDevice = c->src_device;
    m.srcPitch = c->src_pitch;
    m.dstXInBytes = c->dst_x;
    m.dstY = c->dst_y;
    m.dstMemoryType = c->dst_host ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
    m.dstHost = c->dst_host;
    m.dstDevice = c->dst_device;
    m.dstPitch = c->dst_pitch;
    m.WidthInBytes = c->width_bytes;
    m.Height = c->height;
    CUresult r = async ? lat__cu.cuMemcpy2DAsync(&m, lat__cuda_stream(s)) : lat__cu.cuMemcpy2D(&m);
    /* A device-to-device 2-D copy may return early; the synchronous API says it is done. */
    if (r == CUDA_SUCCESS && !async && !c->src_host && !c->dst_host)
        r = lat__cu.cuCtxSynchronize();
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(ctx, r, "%s(%zu bytes x %zu rows)",
                              async ? "cuMemcpy2DAsync" : "cuMemcpy2D", c->width_bytes, c->height);
    return LAT_OK;
}

static lat_status memcpy_htod_async(lat_context *ctx, lat_deviceptr dst, const void *src,
                                    size_t bytes, lat_stream *s)
{
    ENTER(ctx);
    CUstream cs = lat__cuda_stream(s);
    if (bytes >= (4u << 20) && !lat__cuda_is_pinned(ctx, src, bytes))
        return lat__cuda_stage_htod(ctx, dst, src, bytes, cs);
    CUresult r = lat__cu.cuMemcpyHtoDAsync(dst, src, bytes, cs);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(ctx, r, "cuMemcpyHtoDAsync(0x%llx, %p, %zu bytes)",
                              (unsigned long long)dst, src, bytes);
    return LAT_OK;
}

static lat_status memcpy_dtoh_async(lat_context *ctx, void *dst, lat_deviceptr src, size_t bytes,
                                    lat_stream *s)
{
    ENTER(ctx);
    CUstream cs = lat__cuda_stream(s);
    if (bytes >= (4u << 20) && !lat__cuda_is_pinned(ctx, dst, bytes))
        return lat__cuda_stage_dtoh(ctx, dst, src, bytes, cs);
    CUresult r = lat__cu.cuMemcpyDtoHAsync(dst, src, bytes, cs);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(ctx, r, "cuMemcpyDtoHAsync(%p, 0x%llx, %zu bytes)", dst,
                              (unsigned long long)src, bytes);
    return LAT_OK;
}

static lat_status memcpy_dtod_async(lat_context *ctx, lat_deviceptr dst, lat_deviceptr src,
                                    size_t bytes, lat_stream *s)
{
    ENTER(ctx);
    CUresult r = lat__cu.cuMemcpyDtoDAsync(dst, src, bytes, lat__cuda_stream(s));
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(ctx, r, "cuMemcpyDtoDAsync(0x%llx, 0x%llx, %zu bytes)",
                              (unsigned long long)dst, (unsigned long long)src, bytes);
    return LAT_OK;
}

static lat_status memset_async(lat_context *ctx, lat_deviceptr dst, uint32_t value,
                               size_t elem_size, size_t count, lat_stream *s)
{
    ENTER(ctx);
    CUstream cs = lat__cuda_stream(s);
    CUresult r = elem_size == 1   ? lat__cu.cuMemsetD8Async(dst, (unsigned char)value, count, cs)
                 : elem_size == 2 ? lat__cu.cuMemsetD16Async(dst, (unsigned short)value, count, cs)
                                  : lat__cu.cuMemsetD32Async(dst, value, count, cs);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(ctx, r, "cuMemsetD%zuAsync(0x%llx, %zu elements)", elem_size * 8,
                              (unsigned long long)dst, count);
    return LAT_OK;
}

static lat_status mem_alloc_async(lat_context *ctx, size_t bytes, lat_stream *s, lat_deviceptr *out)
{
    ENTER(ctx);
    lat__cuda_ctx *c = ctx->impl;
    CUdeviceptr p = 0;
    CUresult r = c->pool ? lat__cu.cuMemAllocAsync(&p, bytes, lat__cuda_stream(s))
                         : lat__cu.cuMemAlloc(&p, bytes);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(ctx, r, "%s(%zu bytes)", c->pool ? "cuMemAllocAsync" : "cuMemAlloc",
                              bytes);
    *out = p;
    return LAT_OK;
}

static lat_status mem_free_async(lat_context *ctx, lat_deviceptr ptr, lat_stream *s)
{
    lat__cuda_ctx *c = ctx->impl;
    if (atomic_load(&c->faulted))
        return LAT_OK; /* as lat_mem_free: the memory goes with the context */
    ENTER(ctx);
    CUresult r = c->pool ? lat__cu.cuMemFreeAsync(ptr, lat__cuda_stream(s)) : lat__cu.cuMemFree(ptr);
    if (r != CUDA_SUCCESS)
        return lat__cuda_fail(ctx, r, "%s(0x%llx)", c->pool ? "cuMemFreeAsync" : "cuMemFree",
                              (unsigned long long)ptr);
    return LAT_OK;
}

/* ---- kernels ------------------------------------------------------------------------------------ */

static lat_status kernel_resources(const lat_kernel *kernel, lat_kernel_resources *out)
{
    lat_context *ctx = kernel->module->ctx;
    ENTER(ctx);
    CUfunction fn = ((const lat__cuda_kernel *)kernel->impl)->fn;
    const struct {
        int attr;
        int *out;
    } attrs[] = {
        {CU_FUNC_ATTRIBUTE_NUM_REGS, &out->registers},
        {CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, &out->static_shared_bytes},
        {CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, &out->local_bytes},
        {CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, &out->const_bytes},
        {CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &out->max_threads_per_block},
        {CU_FUNC_ATTRIBUTE_PTX_VERSION, &out->ptx_version},
        {CU_FUNC_ATTRIBUTE_BINARY_VERSION, &out->binary_version},
    };
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        CUresult r = lat__cu.cuFuncGetAttribute(attrs[i].out, attrs[i].attr, fn);
        if (r != CUDA_SUCCESS)
            *attrs[i].out = -1;
    }
    lat__cuda_kernel_spills(kernel, &out->spill_store_bytes, &out->spill_load_bytes);
    return LAT_OK;
}

const lat__driver_ops lat__cuda_driver_ops = {
    .device_attribute = device_attribute,
    .driver_version = driver_version,
    .can_access_peer = can_access_peer,
    .enable_peer_access = enable_peer_access,
    .memcpy_peer = memcpy_peer,
    .stream_create = stream_create,
    .stream_destroy = stream_destroy,
    .stream_synchronize = stream_synchronize,
    .stream_query = stream_query,
    .stream_wait_event = stream_wait_event,
    .event_create = event_create,
    .event_destroy = event_destroy,
    .event_record = event_record,
    .event_synchronize = event_synchronize,
    .event_query = event_query,
    .event_elapsed = event_elapsed,
    .host_alloc = host_alloc,
    .host_free = host_free,
    .host_register = host_register,
    .host_unregister = host_unregister,
    .host_device_pointer = host_device_pointer,
    .mem_alloc_pitch = mem_alloc_pitch,
    .memcpy_2d = memcpy_2d,
    .memcpy_htod_async = memcpy_htod_async,
    .memcpy_dtoh_async = memcpy_dtoh_async,
    .memcpy_dtod_async = memcpy_dtod_async,
    .memset_async = memset_async,
    .mem_alloc_async = mem_alloc_async,
    .mem_free_async = mem_free_async,
    .launch_buffers = lat__cuda_launch_buffers,
    .module_load = lat__cuda_module_load,
    .module_code = lat__cuda_module_code,
    .kernel_resources = kernel_resources,
    .share_module_impl = false,
};
