/*
 * The emulator's side of the driver layer (lattice/driver.h). The emulator runs every
 * launch and copy to completion before the call returns, so a stream is an ordered queue
 * that is always empty: work on one stream runs in order, streams are independent, and
 * waiting is free. Events record the host's clock when they are recorded, which is when
 * the work before them finished. Page-locked memory is ordinary memory, and every
 * emulated device shares the host's memory, so peers copy with memcpy.
 */
#include "emu.h"
#include "core/alloc.h"

#include "emu/check/ck.h"
#include "driver_ops.h"
#include "emu/backend/env.h"
#include "lattice/check.h"
#include "emu_devices.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- devices ------------------------------------------------------------------------------ */

int lat__emu_device_count(void)
{
    const char *v = lat__emu_env(LAT_EMU_ENV_DEVICES);
    if (!v)
        return 1;
    char *end;
    long n = strtol(v, &end, 10);
    /* A malformed setting fails lat_device_count and lat_context_create (env.c) before
     * this is asked; one device is what the rest of the library then sees. */
    return *end == '\0' && n >= 1 && n <= 64 ? (int)n : 1;
}

static lat_status driver_version(int *version)
{
    *version = LAT_EMU_CUDA_VERSION;
    return LAT_OK;
}

static lat_status device_attribute(int ordinal, const char *name, int *value)
{
    lat_device_info info;
    lat_status st = lat__backend_emu.device_info(ordinal, &info);
    if (st != LAT_OK)
        return st;
    const struct {
        const char *name;
        long long value;
    } known[] = {
        {"MAX_THREADS_PER_BLOCK", info.max_threads_per_block},
        {"MAX_BLOCK_DIM_X", info.max_block_dim[0]},
        {"MAX_BLOCK_DIM_Y", info.max_block_dim[1]},
        {"MAX_BLOCK_DIM_Z", info.max_block_dim[2]},
        {"MAX_GRID_DIM_X", info.max_grid_dim[0]},
        {"MAX_GRID_DIM_Y", info.max_grid_dim[1]},
        {"MAX_GRID_DIM_Z", info.max_grid_dim[2]},
        {"MAX_SHARED_MEMORY_PER_BLOCK", (long long)info.shared_memory_per_block},
        {"MAX_SHARED_MEMORY_PER_BLOCK_OPTIN", (long long)info.shared_memory_per_block_optin},
        {"MAX_SHARED_MEMORY_PER_MULTIPROCESSOR", LAT_EMU_SHARED_PER_SM},
        {"TOTAL_CONSTANT_MEMORY", (long long)info.constant_memory},
        {"WARP_SIZE", info.warp_size},
        {"MAX_PITCH", 2147483647},
        {"MAX_REGISTERS_PER_BLOCK", info.registers_per_block},
        {"MAX_REGISTERS_PER_MULTIPROCESSOR", info.registers_per_block},
        {"CLOCK_RATE", info.clock_rate_khz},
        {"TEXTURE_ALIGNMENT", 512},
        {"TEXTURE_PITCH_ALIGNMENT", 32},
        {"SURFACE_ALIGNMENT", 512},
        /* Texture and surface limits: those of compute capability 8.0 and 9.0 (the CUDA
         * C++ Programming Guide's table of technical specifications). */
        {"MAXIMUM_TEXTURE1D_WIDTH", 131072},
        {"MAXIMUM_TEXTURE2D_WIDTH", 131072},
        {"MAXIMUM_TEXTURE2D_HEIGHT", 65536},
        {"MAXIMUM_TEXTURE3D_WIDTH", 16384},
        {"MAXIMUM_TEXTURE3D_HEIGHT", 16384},
        {"MAXIMUM_TEXTURE3D_DEPTH", 16384},
        {"MAXIMUM_TEXTURE2D_LAYERED_WIDTH", 32768},
        {"MAXIMUM_TEXTURE2D_LAYERED_HEIGHT", 32768},
        {"MAXIMUM_TEXTURE2D_LAYERED_LAYERS", 2048},
        {"MAXIMUM_TEXTURE1D_LAYERED_WIDTH", 32768},
        {"MAXIMUM_TEXTURE1D_LAYERED_LAYERS", 2048},
        {"MAXIMUM_TEXTURE1D_LINEAR_WIDTH", 268435456},
        {"MAXIMUM_TEXTURE2D_LINEAR_WIDTH", 131072},
        {"MAXIMUM_TEXTURE2D_LINEAR_HEIGHT", 65000},
        {"MAXIMUM_TEXTURE2D_LINEAR_PITCH", 2097120},
        {"MAXIMUM_SURFACE1D_WIDTH", 32768},
        {"MAXIMUM_SURFACE2D_WIDTH", 131072},
        {"MAXIMUM_SURFACE2D_HEIGHT", 65536},
        {"MAXIMUM_SURFACE3D_WIDTH", 16384},
        {"MAXIMUM_SURFACE3D_HEIGHT", 16384},
        {"MAXIMUM_SURFACE3D_DEPTH", 16384},
        {"MAXIMUM_SURFACE1D_LAYERED_WIDTH", 32768},
        {"MAXIMUM_SURFACE1D_LAYERED_LAYERS", 2048},
        {"MAXIMUM_SURFACE2D_LAYERED_WIDTH", 32768},
        {"MAXIMUM_SURFACE2D_LAYERED_HEIGHT", 32768},
        {"MAXIMUM_SURFACE2D_LAYERED_LAYERS", 2048},
        {"MULTIPROCESSOR_COUNT", info.multiprocessor_count},
        {"INTEGRATED", 1},
        {"CAN_MAP_HOST_MEMORY", 1},
        {"CONCURRENT_KERNELS", 1},
        /* Cooperative launches run every block at once (dialect.md): grid-wide sync works. */
        {"COOPERATIVE_LAUNCH", 1},
        {"PCI_BUS_ID", 0},
        {"PCI_DEVICE_ID", ordinal},
        {"PCI_DOMAIN_ID", 0},
        {"GLOBAL_MEMORY_BUS_WIDTH", info.memory_bus_width},
        {"L2_CACHE_SIZE", info.l2_cache_size},
        {"MAX_THREADS_PER_MULTIPROCESSOR", info.max_threads_per_multiprocessor},
        {"UNIFIED_ADDRESSING", 1},
        {"COMPUTE_CAPABILITY_MAJOR", info.compute_major},
        {"COMPUTE_CAPABILITY_MINOR", info.compute_minor},
        {"STREAM_PRIORITIES_SUPPORTED", 1},
        {"HOST_NATIVE_ATOMIC_SUPPORTED", 1},
        {"PAGEABLE_MEMORY_ACCESS", 1},
        {"CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM", 1},
        {"HOST_REGISTER_SUPPORTED", 1},
        {"READ_ONLY_HOST_REGISTER_SUPPORTED", 1},
        {"MEMORY_POOLS_SUPPORTED", 1},
        {"MAX_BLOCKS_PER_MULTIPROCESSOR", 32},
        {"MULTI_GPU_BOARD_GROUP_ID", 0},
    };
    *value = 0; /* everything else: the feature is absent */
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        if (strcmp(known[i].name, name) == 0) {
            *value = known[i].value > 2147483647 ? 2147483647 : (int)known[i].value;
            break;
        }
    }
    return LAT_OK;
}

static lat_status can_access_peer(int ordinal, int peer, int *can)
{
    *can = ordinal != peer;
    return LAT_OK;
}

static lat_status enable_peer_access(lat_context *ctx, lat_context *peer)
{
    (void)ctx;
    (void)peer;
    return LAT_OK;
}

static lat_status memcpy_peer(lat_context *dst_ctx, lat_deviceptr dst, lat_context *src_ctx,
                              lat_deviceptr src, size_t bytes)
{
    (void)src_ctx;
    lat__ck_on_write(dst_ctx, dst, bytes); /* initcheck (check/shadow.c) */
    memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, bytes);
    return LAT_OK;
}

/* ---- streams and events -------------------------------------------------------------------- */

typedef struct emu_event {
    double ms;     /* host clock when recorded */
    bool recorded;
    bool timing;
} emu_event;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static lat_status stream_create(lat_stream *s, const lat_stream_desc *desc)
{
    (void)desc;
    s->impl = NULL; /* nothing is ever pending */
    return LAT_OK;
}

static void stream_destroy(lat_stream *s)
{
    (void)s;
}

static lat_status stream_synchronize(lat_stream *s)
{
    (void)s;
    return LAT_OK;
}

static lat_status stream_query(lat_stream *s, int *done)
{
    (void)s;
    *done = 1;
    return LAT_OK;
}

static lat_status stream_wait_event(lat_context *ctx, lat_stream *s, lat_event *e)
{
    (void)ctx;
    (void)s;
    (void)e;
    return LAT_OK;
}

static lat_status event_create(lat_event *e, const lat_event_desc *desc)
{
    emu_event *ev = lat__calloc(1, sizeof *ev);
    if (!ev)
        return lat__oom(e->ctx);
    ev->timing = !desc->disable_timing;
    e->impl = ev;
    return LAT_OK;
}

static void event_destroy(lat_event *e)
{
    free(e->impl);
    e->impl = NULL;
}

static lat_status event_record(lat_event *e, lat_stream *s)
{
    (void)s;
    emu_event *ev = e->impl;
    ev->ms = now_ms();
    ev->recorded = true;
    return LAT_OK;
}

static lat_status event_synchronize(lat_event *e)
{
    (void)e;
    return LAT_OK;
}

static lat_status event_query(lat_event *e, int *done)
{
    (void)e;
    *done = 1;
    return LAT_OK;
}

static lat_status event_elapsed(lat_event *start, lat_event *end, float *ms)
{
    const emu_event *a = start->impl, *b = end->impl;
    if (!a->timing || !b->timing)
        return lat__error(start->ctx, LAT_ERROR_INVALID_VALUE,
                          "an event was created with disable_timing");
    if (!a->recorded || !b->recorded)
        return lat__error(start->ctx, LAT_ERROR_INVALID_VALUE,
                          "the %s event has not been recorded",
                          a->recorded ? "end" : "start");
    *ms = (float)(b->ms - a->ms);
    return LAT_OK;
}

/* ---- host memory ----------------------------------------------------------------------------- */

static lat_status host_alloc(lat_context *ctx, size_t bytes, unsigned flags, void **out)
{
    (void)flags;
    void *p = NULL;
    if (posix_memalign(&p, 256, bytes) != 0 || !p)
        return lat__oom_for(ctx, "(%zu bytes)", bytes);
    *out = p;
    return LAT_OK;
}

static void host_free(lat_context *ctx, void *ptr)
{
    (void)ctx;
    free(ptr);
}

static lat_status host_register(lat_context *ctx, void *ptr, size_t bytes, unsigned flags)
{
    (void)ctx;
    (void)ptr;
    (void)bytes;
    (void)flags;
    return LAT_OK;
}

static void host_unregister(lat_context *ctx, void *ptr)
{
    (void)ctx;
    (void)ptr;
}

static lat_status host_device_pointer(lat_context *ctx, void *ptr, lat_deviceptr *out)
{
    (void)ctx;
    *out = (lat_deviceptr)(uintptr_t)ptr;
    return LAT_OK;
}

/* ---- memory ------------------------------------------------------------------------------------ */

static lat_status mem_alloc_pitch(lat_context *ctx, size_t width, size_t height,
                                  unsigned elem_size, lat_deviceptr *out, size_t *pitch)
{
    (void)elem_size;
    /* Rows start at multiples of 512 bytes, as on current GPUs, so that a program that
     * forgets the pitch fails here too. */
    size_t p = (width + 511) / 512 * 512;
    lat_status st = lat__emu_mem_alloc(ctx, p * height, out);
    if (st == LAT_OK)
        *pitch = p;
    return st;
}

static lat_status memcpy_2d(lat_context *ctx, const lat_copy_2d *c, lat_stream *s, bool async)
{
    (void)s;
    (void)async;
    const char *src = c->src_host ? (const char *)c->src_host
                                  : (const char *)(uintptr_t)c->src_device;
    char *dst = c->dst_host ? (char *)c->dst_host : (char *)(uintptr_t)c->dst_device;
    src += c->src_y * c->src_pitch + c->src_x;
    dst += c->dst_y * c->dst_pitch + c->dst_x;
    for (size_t row = 0; row < c->height; row++) {
        if (!c->dst_host) /* initcheck (check/shadow.c) */
            lat__ck_on_write(ctx, (lat_deviceptr)(uintptr_t)(dst + row * c->dst_pitch),
                             c->width_bytes);
        memmove(dst + row * c->dst_pitch, src + row * c->src_pitch, c->width_bytes);
    }
    return LAT_OK;
}

static lat_status memcpy_htod_async(lat_context *ctx, lat_deviceptr dst, const void *src,
                                    size_t bytes, lat_stream *s)
{
    (void)s;
    return lat__emu_memcpy_htod(ctx, dst, src, bytes);
}

static lat_status memcpy_dtoh_async(lat_context *ctx, void *dst, lat_deviceptr src, size_t bytes,
                                    lat_stream *s)
{
    (void)s;
    return lat__emu_memcpy_dtoh(ctx, dst, src, bytes);
}

static lat_status memcpy_dtod_async(lat_context *ctx, lat_deviceptr dst, lat_deviceptr src,
                                    size_t bytes, lat_stream *s)
{
    (void)s;
    return lat__emu_memcpy_dtod(ctx, dst, src, bytes);
}

static lat_status memset_async(lat_context *ctx, lat_deviceptr dst, uint32_t value,
                               size_t elem_size, size_t count, lat_stream *s)
{
    (void)s;
    return lat__emu_memset(ctx, dst, value, elem_size, count);
}

static lat_status mem_alloc_async(lat_context *ctx, size_t bytes, lat_stream *s,
                                  lat_deviceptr *out)
{
    (void)s;
    return lat__emu_mem_alloc(ctx, bytes, out);
}

static lat_status mem_free_async(lat_context *ctx, lat_deviceptr ptr, lat_stream *s)
{
    (void)s;
    return lat__emu_mem_free(ctx, ptr);
}

/* ---- modules ------------------------------------------------------------------------------------ */

static lat_status kernel_resources(const lat_kernel *kernel, lat_kernel_resources *out)
{
    const lat_device_info *info = &kernel->module->ctx->info;
    const lat__emu_kernel *k = kernel->impl;
    /* The emulator keeps no registers and spills nothing; what a block may use is the
     * emulated device's limits. Its __shared__ variables are laid out when the module is
     * compiled (PyCUDA's func.shared_size_bytes reads this for occupancy). */
    out->registers = -1;
    out->static_shared_bytes = k && k->shared_bytes <= INT_MAX ? (int)k->shared_bytes : -1;
    out->local_bytes = -1;
    out->const_bytes = -1;
    out->spill_store_bytes = -1;
    out->spill_load_bytes = -1;
    out->max_threads_per_block = info->max_threads_per_block;
    out->ptx_version = -1;
    out->binary_version = -1;
    return LAT_OK;
}

static bool module_has_state(const lat_module *mod)
{
    const lat__emu_module *m = mod->impl;
    return m->has_state;
}

/* What decides a module's code beyond its source: checked modules differ, preempting ones
 * more (every kernel on fibers); so do modules made while LATTICE_EMU_FIBERS is set, which
 * the translator reads when it runs (a module asked for on fibers must not get the region
 * loops of the same source compiled earlier); and the optimising tier's mode, compiler and
 * flags live in the shared impl (a module asked for without the tier must not run another's
 * optimised code). */
static void module_key(lat_context *ctx, const lat__source *src, char *buf, size_t size)
{
    lat_check_options co;
    bool preempt = ctx->check && lat_check_get_options(ctx, &co) == LAT_OK && co.preempt;
    const char *opt = lat__emu_env(LAT_EMU_ENV_OPT), *cc = lat__emu_env(LAT_EMU_ENV_CC),
               *flags = lat__emu_env(LAT_EMU_ENV_CC_FLAGS);
    snprintf(buf, size, "%s%s, opt %d %s, cc %s %s",
             ctx->check ? (preempt ? "checked, preempting" : "checked") : "unchecked",
             lat__emu_env_on(LAT_EMU_ENV_FIBERS) ? ", fibers" : "", src->emu_opt, opt ? opt : "",
             cc ? cc : "", flags ? flags : "");
}

const lat__driver_ops lat__emu_driver_ops = {
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
    .launch_buffers = NULL,
    .module_load = NULL,
    .module_code = NULL,
    .kernel_resources = kernel_resources,
    .share_module_impl = true,
    .module_has_state = module_has_state,
    .module_key = module_key,
};
