/* Contexts: the object that owns a device's memory and modules. */
#include "backend_select.h"
#include "core/alloc.h"
#include "driver_ops.h"
#include "memory.h"
#include "texture.h"

#include <stdlib.h>
#include <string.h>

/* Checks asked of a backend that attached no observer for them: a note, not an error (the
 * same program runs checked on the emulator). A malformed LATTICE_CHECK is an error. */
static lat_status unchecked_note(lat_context *ctx, const lat_context_desc *desc)
{
    unsigned modes;
    lat_status st = lat__check_requested(ctx, desc, &modes);
    if (st == LAT_OK && modes && ctx->backend->kind != LAT_BACKEND_EMU)
        lat__log(ctx, LAT_LOG_WARNING,
                 "lattice checks run on the emulator only: this %s context runs unchecked",
                 ctx->backend->name);
    return st;
}

lat_status lat_context_create(const lat_context_desc *desc, lat_context **out)
{
    LAT__API();
    if (!out)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "out is NULL");
    *out = NULL;
    lat_context_desc defaults;
    memset(&defaults, 0, sizeof defaults);
    if (!desc)
        desc = &defaults;

    /* Bits that name no check would be ignored silently: a typo, or a newer header. */
    unsigned unknown = desc->check & ~(unsigned)(LAT_CHECK_ALL | LAT_CHECK_PROFILE | LAT_CHECK_OFF);
    if (unknown)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE,
                          "desc->check has bits 0x%x that are no LAT_CHECK_* "
                          "mode (the modes are 0x%x, LAT_CHECK_PROFILE 0x%x and LAT_CHECK_OFF 0x%x)",
                          unknown, (unsigned)LAT_CHECK_ALL, (unsigned)LAT_CHECK_PROFILE,
                          (unsigned)LAT_CHECK_OFF);
    if (desc->pointer_check < LAT_POINTER_CHECK_DEFAULT || desc->pointer_check > LAT_POINTER_CHECK_OFF)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE,
                          "desc->pointer_check is %d, not a "
                          "LAT_POINTER_CHECK_* value", desc->pointer_check);
    lat_context *ctx = lat__calloc(1, sizeof *ctx);
    if (!ctx)
        return lat__oom(NULL);
    /* The logger is set first so that failures below reach it. */
    ctx->logger = desc->logger;
    ctx->emu_opt = desc->emu_opt;

    const lat__backend *b = NULL;
    lat_status st = lat__backend_get(ctx, desc->backend, &b);
    if (st == LAT_OK)
        st = lat__device_check(ctx, b, desc->device);
    if (st != LAT_OK) {
        free(ctx);
        return st;
    }
    ctx->backend = b;
    ctx->device = desc->device;
    st = b->device_info(ctx->device, &ctx->info);
    if (st != LAT_OK) {
        free(ctx);
        return st;
    }
    if (pthread_mutex_init(&ctx->lock, NULL) != 0) {
        free(ctx);
        return lat__error(NULL, LAT_ERROR_OUT_OF_MEMORY, "no mutex");
    }
    /* By default a backend that can checks pointer arguments (the emulator clears this when
     * memcheck runs: it names the very access, line and element, where this check could
     * only name the argument). */
    ctx->check_pointers = desc->pointer_check == LAT_POINTER_CHECK_ON ||
                          (desc->pointer_check == LAT_POINTER_CHECK_DEFAULT &&
                           b->kind != LAT_BACKEND_CUDA);
    /* The driver layer's state first: the cross backend reads its tolerances. */
    st = lat__driver_context_init(ctx, desc);
    if (st == LAT_OK)
        st = b->context_create(ctx, desc);
    if (st == LAT_OK && !ctx->check && (st = unchecked_note(ctx, desc)) != LAT_OK)
        b->context_destroy(ctx);
    if (st != LAT_OK) {
        lat__driver_context_release(ctx);
        pthread_mutex_destroy(&ctx->lock);
        free(ctx);
        return st;
    }
    lat__log(ctx, LAT_LOG_INFO, "lattice %s: context on %s device %d (%s, compute %d.%d)",
             LAT_VERSION_STRING, b->name, ctx->device, ctx->info.name, ctx->info.compute_major,
             ctx->info.compute_minor);
    *out = ctx;
    return LAT_OK;
}

void lat_context_destroy(lat_context *ctx)
{
    LAT__API();
    if (!ctx)
        return;
    (void)ctx->backend->synchronize(ctx);
    lat__texture_context_release(ctx); /* textures and surfaces, then their arrays */
    lat__driver_context_release(ctx); /* streams, events, page-locked memory */
    while (ctx->modules)
        lat_module_destroy(ctx->modules);
    if (ctx->observer_end)
        ctx->observer_end(ctx); /* memcheck's leak report, before the memory goes */
    lat__mem_release_all(ctx);
    ctx->backend->context_destroy(ctx);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
}

lat_backend_kind lat_context_backend(const lat_context *ctx)
{
    LAT__API();
    return ctx ? ctx->backend->kind : LAT_BACKEND_AUTO;
}

lat_status lat_context_device_info(const lat_context *ctx, lat_device_info *info)
{
    LAT__API();
    if (!ctx || !info)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s is NULL", ctx ? "info" : "ctx");
    *info = ctx->info;
    return LAT_OK;
}

lat_status lat_context_synchronize(lat_context *ctx)
{
    LAT__API();
    if (!ctx)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "ctx is NULL");
    return ctx->backend->synchronize(ctx);
}
