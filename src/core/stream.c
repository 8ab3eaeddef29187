/*
 * Streams and events: validation, the context's lists of live ones (destroyed with the
 * context), and the driver layer's per-context state.
 */
#include "driver_ops.h"
#include "core/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A tolerance from the descriptor: 0 means the default, negative means exact. */
static double tolerance(double given, double fallback)
{
    return given == 0.0 ? fallback : given < 0.0 ? 0.0 : given;
}

lat_status lat__driver_context_init(lat_context *ctx, const lat_context_desc *desc)
{
    lat__ctx_driver *d = lat__calloc(1, sizeof *d);
    if (!d)
        return lat__oom(ctx);
    if (pthread_mutex_init(&d->lock, NULL) != 0) {
        free(d);
        return lat__error(ctx, LAT_ERROR_OUT_OF_MEMORY, "no mutex");
    }
    d->ops = ctx->backend->driver;
    /* Relative to each value or to its buffer's typical magnitude (cross_compare.c says
     * why); no absolute floor unless asked for. */
    d->cross_rtol = tolerance(desc->cross_rtol, 1e-4);
    d->cross_atol = tolerance(desc->cross_atol, 0.0);
    ctx->drv = d;
    return LAT_OK;
}

void lat__driver_context_release(lat_context *ctx)
{
    lat__ctx_driver *d = ctx->drv;
    if (!d)
        return;
    size_t nstreams = 0, nevents = 0;
    while (d->streams) {
        lat_stream_destroy(d->streams);
        nstreams++;
    }
    while (d->events) {
        lat_event_destroy(d->events);
        nevents++;
    }
    size_t nhost = d->nhost;
    for (size_t i = 0; i < d->nhost; i++) {
        if (d->host[i].registered)
            d->ops->host_unregister(ctx, d->host[i].base);
        else
            d->ops->host_free(ctx, d->host[i].base);
    }
    if (nstreams || nevents || nhost)
        lat__log(ctx, LAT_LOG_INFO,
                 "lat_context_destroy: also destroyed %zu stream%s, %zu event%s and %zu "
                 "page-locked host range%s still live",
                 nstreams, nstreams == 1 ? "" : "s", nevents, nevents == 1 ? "" : "s", nhost,
                 nhost == 1 ? "" : "s");
    free(d->host);
    pthread_mutex_destroy(&d->lock);
    free(d);
    ctx->drv = NULL;
}

lat_status lat__stream_check(const lat_context *ctx, const lat_stream *stream)
{
    if (stream && stream->ctx != ctx)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "the stream belongs to another context");
    return LAT_OK;
}

/* ---- streams ------------------------------------------------------------------------- */

lat_status lat_stream_create(lat_context *ctx, const lat_stream_desc *desc, lat_stream **out)
{
    LAT__API();
    if (!ctx || !out)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s is NULL", ctx ? "out" : "ctx");
    *out = NULL;
    lat_stream_desc defaults;
    memset(&defaults, 0, sizeof defaults);
    lat_stream *s = lat__calloc(1, sizeof *s);
    if (!s)
        return lat__oom(ctx);
    s->ctx = ctx;
    lat_status st = lat__drv(ctx)->stream_create(s, desc ? desc : &defaults);
    if (st != LAT_OK) {
        free(s);
        return st;
    }
    lat__ctx_driver *d = ctx->drv;
    pthread_mutex_lock(&d->lock);
    s->next = d->streams;
    if (d->streams)
        d->streams->prev = s;
    d->streams = s;
    pthread_mutex_unlock(&d->lock);
    *out = s;
    return LAT_OK;
}

void lat_stream_destroy(lat_stream *s)
{
    LAT__API();
    if (!s)
        return;
    lat__ctx_driver *d = s->ctx->drv;
    pthread_mutex_lock(&d->lock);
    if (s->prev)
        s->prev->next = s->next;
    else
        d->streams = s->next;
    if (s->next)
        s->next->prev = s->prev;
    pthread_mutex_unlock(&d->lock);
    d->ops->stream_destroy(s);
    free(s);
}

lat_status lat_stream_synchronize(lat_stream *s)
{
    LAT__API();
    if (!s)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "stream is NULL");
    return lat__drv(s->ctx)->stream_synchronize(s);
}

lat_status lat_stream_query(lat_stream *s, int *done)
{
    LAT__API();
    if (!s || !done)
        return lat__error(s ? s->ctx : NULL, LAT_ERROR_INVALID_VALUE,
                          "%s is NULL", s ? "done" : "stream");
    *done = 0;
    return lat__drv(s->ctx)->stream_query(s, done);
}

lat_status lat_stream_wait_event(lat_stream *s, lat_event *e)
{
    LAT__API();
    if (!e)
        return lat__error(s ? s->ctx : NULL, LAT_ERROR_INVALID_VALUE, "event is NULL");
    if (s && s->ctx != e->ctx)
        return lat__error(s->ctx, LAT_ERROR_INVALID_VALUE,
                          "the stream and the event belong to "
                          "different contexts");
    return lat__drv(e->ctx)->stream_wait_event(e->ctx, s, e);
}

lat_context *lat_stream_context(const lat_stream *s)
{
    LAT__API();
    return s ? s->ctx : NULL;
}

lat_context *lat_event_context(const lat_event *e)
{
    LAT__API();
    return e ? e->ctx : NULL;
}

/* ---- events -------------------------------------------------------------------------- */

lat_status lat_event_create(lat_context *ctx, const lat_event_desc *desc, lat_event **out)
{
    LAT__API();
    if (!ctx || !out)
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s is NULL", ctx ? "out" : "ctx");
    *out = NULL;
    lat_event_desc defaults;
    memset(&defaults, 0, sizeof defaults);
    lat_event *e = lat__calloc(1, sizeof *e);
    if (!e)
        return lat__oom(ctx);
    e->ctx = ctx;
    lat_status st = lat__drv(ctx)->event_create(e, desc ? desc : &defaults);
    if (st != LAT_OK) {
        free(e);
        return st;
    }
    lat__ctx_driver *d = ctx->drv;
    pthread_mutex_lock(&d->lock);
    e->next = d->events;
    if (d->events)
        d->events->prev = e;
    d->events = e;
    pthread_mutex_unlock(&d->lock);
    *out = e;
    return LAT_OK;
}

void lat_event_destroy(lat_event *e)
{
    LAT__API();
    if (!e)
        return;
    lat__ctx_driver *d = e->ctx->drv;
    pthread_mutex_lock(&d->lock);
    if (e->prev)
        e->prev->next = e->next;
    else
        d->events = e->next;
    if (e->next)
        e->next->prev = e->prev;
    pthread_mutex_unlock(&d->lock);
    d->ops->event_destroy(e);
    free(e);
}

lat_status lat_event_record(lat_event *e, lat_stream *s)
{
    LAT__API();
    if (!e)
        return lat__error(s ? s->ctx : NULL, LAT_ERROR_INVALID_VALUE, "event is NULL");
    lat_status st = lat__stream_check(e->ctx, s);
    if (st != LAT_OK)
        return st;
    return lat__drv(e->ctx)->event_record(e, s);
}

lat_status lat_event_synchronize(lat_event *e)
{
    LAT__API();
    if (!e)
        return lat__error(NULL, LAT_ERROR_INVALID_VALUE, "event is NULL");
    return lat__drv(e->ctx)->event_synchronize(e);
}

lat_status lat_event_query(lat_event *e, int *done)
{
    LAT__API();
    if (!e || !done)
        return lat__error(e ? e->ctx : NULL, LAT_ERROR_INVALID_VALUE,
                          "%s is NULL", e ? "done" : "event");
    *done = 0;
    return lat__drv(e->ctx)->event_query(e, done);
}

lat_status lat_event_elapsed_ms(lat_event *start, lat_event *end, float *ms)
{
    LAT__API();
    if (!start || !end || !ms)
        return lat__error(start ? start->ctx : end ? end->ctx : NULL, LAT_ERROR_INVALID_VALUE,
                          "%s is NULL",
                          !start ? "start" : !end ? "end" : "ms");
    *ms = 0.0f;
    if (start->ctx != end->ctx)
        return lat__error(start->ctx, LAT_ERROR_INVALID_VALUE,
                          "the events belong to different contexts");
    return lat__drv(start->ctx)->event_elapsed(start, end, ms);
}
