/*
 * The CPU emulator backend: one device, the host; device memory is host memory;
 * kernels are CUDA C parsed by the front end (src/front/), lowered to C (passes/),
 * compiled in memory by TinyCC (compile.c), and run block by block on OpenMP threads
 * (exec/).
 */
#include "emu.h"
#include "emu/backend/env.h"
#include "core/alloc.h"
#include "core/demangle.h"

#include "emu/check/ck.h"
#include "emu_devices.h"
#include "driver_ops.h"
#include "texture.h"
#include "emu/exec/guard.h"
#include "emu/tier/opt.h"
#include "emu/compile/prelude.h"
#include "emu/runtime/texobj.h"
#include "threads.h"

#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static lat_status probe(char *why, size_t why_size)
{
    /* Everything the emulator needs is linked in; only memory can fail. */
    if (!lat__emu_prelude(true)) {
        snprintf(why, why_size, "out of host memory building the emulator's prelude");
        return LAT_ERROR_BACKEND_UNAVAILABLE;
    }
    return LAT_OK;
}

static lat_status device_count(int *count)
{
    *count = lat__emu_device_count(); /* LATTICE_EMU_DEVICES */
    return LAT_OK;
}

static lat_status device_info(int ordinal, lat_device_info *info)
{
    (void)ordinal;
    memset(info, 0, sizeof *info);
    snprintf(info->name, sizeof info->name, "lattice emulator");
    info->compute_major = LAT_EMU_CC_MAJOR;
    info->compute_minor = LAT_EMU_CC_MINOR;
    lat__emu_mem_info(NULL, NULL, &info->total_memory);
    info->multiprocessor_count = lat__emu_thread_count();
    info->warp_size = 32;
    info->max_threads_per_block = 1024;
    info->max_block_dim[0] = 1024;
    info->max_block_dim[1] = 1024;
    info->max_block_dim[2] = 64;
    info->max_grid_dim[0] = 2147483647;
    info->max_grid_dim[1] = 65535;
    info->max_grid_dim[2] = 65535;
    info->shared_memory_per_block = LAT_EMU_SHARED_LIMIT;
    info->shared_memory_per_block_optin = LAT_EMU_SHARED_OPTIN;
    info->constant_memory = 64 * 1024;
    info->max_threads_per_multiprocessor = 2048;
    info->registers_per_block = 65536;
    /* clock64() counts nanoseconds here (runtime.c): a 1 GHz clock, so that a kernel's
     * clock64() difference divided by CLOCK_RATE is milliseconds, as programs time on a
     * GPU (a 0 divided them by zero). */
    info->clock_rate_khz = 1000000;
    return LAT_OK;
}

static void context_destroy(lat_context *ctx);

static lat_status context_create(lat_context *ctx, const lat_context_desc *desc)
{
    const char *to = lat__emu_env(LAT_EMU_ENV_TIMEOUT);
    uint64_t timeout_ms;
    if (!lat__emu_guard_parse_timeout(to, &timeout_ms))
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "LATTICE_EMU_TIMEOUT='%s' is not a number of "
                          "seconds (0 runs launches without a deadline)", to);
    size_t mem_bytes;
    if (!lat__emu_memory_parse(lat__emu_env(LAT_EMU_ENV_MEMORY), &mem_bytes))
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "LATTICE_EMU_MEMORY='%s' is not a size in bytes "
                          "(a positive integer, optionally with K, M, G or T)",
                          lat__emu_env(LAT_EMU_ENV_MEMORY));
    const char *threads = lat__emu_env(LAT_EMU_ENV_THREADS);
    int nthreads;
    if (!lat__emu_threads_parse(threads, &nthreads))
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "LATTICE_EMU_THREADS='%s' is not a number of threads "
                          "from 1 to 4096", threads);
    const char *pb = lat__emu_env(LAT_EMU_ENV_PRINTF_BUFFER);
    size_t printf_buffer;
    if (!lat__emu_printf_parse_buffer(pb, &printf_buffer))
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE,
                          "LATTICE_EMU_PRINTF_BUFFER='%s' is not a size in "
                          "bytes from 1K to 1024G (a number, optionally followed by K, M or G)",
                          pb);
    lat_local_rank rank; /* read by the thread count's rule: a malformed value fails here */
    lat_status st = lat_local_rank_get(&rank);
    if (st != LAT_OK)
        return st;
    lat__emu_ctx *c = lat__calloc(1, sizeof *c);
    if (!c)
        return lat__oom(ctx);
    c->timeout_ms = timeout_ms;
    /* A fault's report names the allocation or the module variables it ran past, before
     * any allocation too (memory.c sets it at the first). */
    atomic_store(&lat__emu_guard_describe, lat__emu_mem_describe);
    if (!lat__emu_heap_init(&c->heap)) {
        free(c);
        return lat__oom(ctx);
    }
    ctx->impl = c;
    /* The checks, as observers of this context's launches and memory (emu/check/). */
    st = lat__ck_context_create(ctx, desc);
    if (st != LAT_OK) {
        context_destroy(ctx);
        return st;
    }
    ctx->observer_end = lat__ck_context_destroy;
    unsigned modes = 0;
    lat_check_modes(ctx, &modes);
    if ((modes & LAT_CHECK_MEMCHECK) && desc->pointer_check == LAT_POINTER_CHECK_DEFAULT)
        ctx->check_pointers = false; /* memcheck names the access itself */
    return LAT_OK;
}

static void context_destroy(lat_context *ctx)
{
    lat__emu_ctx *c = ctx->impl;
    if (c) {
        lat__emu_textab_free(c);
        size_t blocks, bytes;
        lat__emu_heap_destroy(&c->heap, &blocks, &bytes);
        if (blocks)
            lat__log(ctx, LAT_LOG_INFO,
                     "lat_context_destroy: kernels left %zu allocation%s of malloc (%zu bytes of "
                     "the device heap) unfreed; freed with the context, as on a GPU",
                     blocks, blocks == 1 ? "" : "s", bytes);
    }
    free(c);
    ctx->impl = NULL;
}

static lat_status synchronize(lat_context *ctx)
{
    /* Launches and copies complete before they return: nothing is ever pending. */
    (void)ctx;
    return LAT_OK;
}

/* The optimising tier (opt.h) of a module just compiled: SYNC builds it now, BACKGROUND
 * starts its thread, AUTO waits for the module's launches (lat__emu_opt_after_launch).
 * A module's __device__ and __constant__ variables are the optimised object's from the
 * start in SYNC mode; in the others their addresses may be handed out before the object
 * exists, and the object's copies would not be those: such modules stay on TinyCC,
 * unless the object came from the disk cache before TinyCC ran (then it is the module's
 * code and variables from the start, in both modes). */
static lat_status start_opt(lat_context *ctx, lat_module *mod, lat__emu_module *m)
{
    int mode = lat__emu_opt_get_mode(m->opt);
    if (m->debug) {
        /* -G: the debugger's object or nothing: TinyCC's in-memory code has no debug
         * information a debugger can see. */
        char *why = NULL;
        if (m->opt && lat__emu_opt_build_now(m->opt, &why)) {
            const lat__emu_opt_code *c = lat__emu_opt_code_of(m->opt);
            for (int i = 0; i < m->nglobals; i++)
                m->globals[i].addr = c->globals[i];
            return LAT_OK;
        }
        lat_status st = lat__error(ctx, why ? LAT_ERROR_COMPILE : LAT_ERROR_OUT_OF_MEMORY,
                                   "%s: -G (--device-debug) builds the module "
                                   "with the system's C compiler (cc -g -O0) for gdb or lldb, as "
                                   "TinyCC's in-memory code is invisible to them: %s%s",
                                   mod->name, why ? why : "out of host memory",
                                   why && strstr(why, "no C compiler") ? " (install gcc or clang, or "
                                   "name one with LATTICE_EMU_CC)" : "");
        free(why);
        return st;
    }
    if (!m->opt || mode == LAT_EMU_OPT_OFF)
        return LAT_OK;
    /* Loaded from the cache before TinyCC ran (compile.c): the variables are the object's. */
    if (lat__emu_opt_code_of(m->opt))
        return LAT_OK;
    if (mode != LAT_EMU_OPT_SYNC && m->has_state) {
        lat__emu_opt_free(m->opt);
        m->opt = NULL;
        return LAT_OK;
    }
    if (mode == LAT_EMU_OPT_BACKGROUND)
        lat__emu_opt_start(m->opt);
    if (mode != LAT_EMU_OPT_SYNC)
        return LAT_OK;
    char *note = NULL;
    if (lat__emu_opt_build_now(m->opt, &note)) {
        const lat__emu_opt_code *c = lat__emu_opt_code_of(m->opt);
        for (int i = 0; i < m->nglobals; i++)
            m->globals[i].addr = c->globals[i];
    }
    if (!note)
        return LAT_OK;
    /* In the module's log, which the core then gives to the context's logger. */
    char *joined = NULL;
    size_t len = 0;
    if (lat__strbuf_printf(&joined, &len, "%s%s%s", mod->log ? mod->log : "",
                           mod->log && *mod->log ? "\n" : "", note) == 0) {
        free(mod->log);
        mod->log = joined;
    }
    free(note);
    return LAT_OK;
}

static lat_status module_create(lat_context *ctx, lat_module *mod, const lat__source *src)
{
    lat__emu_module *m;
    char *log;
    lat_status st = lat__emu_compile(ctx, src, &m, &log);
    if (st != LAT_OK)
        return st;
    /* Every name expression made a kernel (the front end instantiated it when the core
     * parsed the module; what it could not make is an error of the unit's, above). */
    for (const char *const *e = src->name_expressions; e && *e; e++) {
        bool found = false;
        const char *key = lat__module_name_key(mod, *e);
        for (int i = 0; i < m->nkernels && !found; i++)
            found = strcmp(m->kernels[i].name, key) == 0 ||
                    (m->kernels[i].expr && strcmp(m->kernels[i].expr, key) == 0);
        if (!found) {
            lat__emu_module_free(m);
            free(log);
            return lat__error(ctx, LAT_ERROR_KERNEL_NOT_FOUND,
                              "%s: the name expression '%s' names no kernel of the "
                              "module", src->name, *e);
        }
    }
    mod->impl = m;
    mod->log = log;
    /* Why a kernel is slow, without reading lattice: fibers cost ~30x region loops a barrier. */
    for (int i = 0; i < m->nkernels; i++)
        if (m->kernels[i].why && *m->kernels[i].why)
            lat__log(ctx, LAT_LOG_INFO, "lat_module_create: %s: kernel '%s': %s", src->name,
                     m->kernels[i].expr ? m->kernels[i].expr : m->kernels[i].name, m->kernels[i].why);
    st = start_opt(ctx, mod, m);
    if (st != LAT_OK) {
        lat__emu_module_free(m);
        free(mod->log);
        mod->impl = NULL;
        mod->log = NULL;
    }
    return st;
}

static void module_destroy(lat_module *mod)
{
    lat__emu_module_free(mod->impl);
    mod->impl = NULL;
}

static lat__emu_kernel *find_kernel(lat__emu_module *m, const char *key)
{
    for (int i = 0; i < m->nkernels; i++)
        if (strcmp(m->kernels[i].name, key) == 0 || (m->kernels[i].expr && strcmp(m->kernels[i].expr, key) == 0))
            return &m->kernels[i];
    return NULL;
}

static lat_status kernel_get(lat_module *mod, lat_kernel *kernel)
{
    lat__emu_module *m = mod->impl;
    lat__emu_kernel *k = find_kernel(m, lat__module_name_key(mod, kernel->name));
    /* A name as nvcc and NVRTC mangle it (_Z5scalePfi, _Z3addIfLi3EEvPT_), which a program
     * written for a GPU asks for: the emulator knows its kernels by the names the source
     * writes, so the mangled name is read back to those. Its parameter types are not
     * compared: the emulator refuses overloaded kernels, so a name finds one kernel. */
    char **names = k ? NULL : lat__demangle_candidates(kernel->name);
    for (char **n = names; n && *n && !k; n++)
        if ((k = find_kernel(m, lat__module_name_key(mod, *n))) != NULL && !kernel->sig)
            kernel->sig = lat__kernel_sigs_find(&mod->sigs, lat__module_name_key(mod, *n));
    free(names);
    if (k) {
        if (k->nparams > 0) {
            size_t *sizes = lat__malloc((size_t)k->nparams * sizeof *sizes);
            if (!sizes)
                return lat__oom(mod->ctx);
            memcpy(sizes, k->param_sizes, (size_t)k->nparams * sizeof *sizes);
            kernel->backend_param_sizes = sizes;
        }
        kernel->backend_nparams = k->nparams;
        kernel->impl = k;
        return LAT_OK;
    }
    return LAT_ERROR_KERNEL_NOT_FOUND;
}

static void kernel_release(lat_kernel *kernel)
{
    kernel->impl = NULL; /* owned by the module */
}

/* The emulator compiles C: a kernel's symbol is its name, an instance's the C name the
 * front end gave it (reduce__lat_t1). */
static lat_status module_lowered_name(lat_module *mod, const char *expr, const char **out)
{
    const lat__emu_module *m = mod->impl;
    const char *key = lat__module_name_key(mod, expr);
    for (int i = 0; i < m->nkernels; i++)
        if (strcmp(m->kernels[i].name, key) == 0 || (m->kernels[i].expr && strcmp(m->kernels[i].expr, key) == 0)) {
            *out = m->kernels[i].name;
            return LAT_OK;
        }
    return LAT_ERROR_KERNEL_NOT_FOUND;
}

/* Whether a debugger traces the process now (Linux: /proc/self/status's TracerPid). */
static bool traced(void)
{
    FILE *f = fopen("/proc/self/status", "re");
    if (!f)
        return false;
    char line[256];
    long pid = 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "TracerPid:", 10) == 0) {
            pid = strtol(line + 10, NULL, 10);
            break;
        }
    fclose(f);
    return pid != 0;
}

/* A block's shared memory: static at most LAT_EMU_SHARED_LIMIT (ptxas refuses more), and
 * static and dynamic together at most the opt-in limit. */
static lat_status shared_fits(const lat_context *ctx, const lat__emu_kernel *k, size_t dynamic)
{
    if (k->shared_bytes > LAT_EMU_SHARED_LIMIT)
        return lat__error(ctx, LAT_ERROR_SHARED_MEMORY,
                          "kernel '%s' uses %zu bytes of static shared memory; a kernel may "
                          "have at most %d (more must be dynamic: extern __shared__)",
                          k->name, k->shared_bytes, LAT_EMU_SHARED_LIMIT);
    if (dynamic > LAT_EMU_SHARED_OPTIN - k->shared_bytes)
        return lat__error(ctx, LAT_ERROR_SHARED_MEMORY,
                          "kernel '%s' uses %zu bytes of static shared memory and the launch "
                          "asks for %zu bytes of dynamic shared memory: %zu in all, and a block "
                          "has at most %d", k->name, k->shared_bytes, dynamic,
                          k->shared_bytes + dynamic, LAT_EMU_SHARED_OPTIN);
    return LAT_OK;
}

static lat_status launch(lat_kernel *kernel, const lat__launch *l, void **params)
{
    char msg[1024];
    const lat__emu_kernel *k = kernel->impl;
    const lat__emu_ctx *c = kernel->module->ctx->impl;
    lat__emu_module *m = kernel->module->impl;
    const size_t index = (size_t)(k - m->kernels);
    /* Every message of the launch (the checks' reports, faults, traps) names the kernel as
     * the user wrote it: a template's instance by its name expression (block_reduce<256>),
     * not the C name the front end gave it (block_reduce__lat_t1). */
    lat__emu_kernel shown;
    if (k->expr) {
        shown = *k;
        shown.name = k->expr;
        k = &shown;
    }
    /* Checked and unchecked launches share the limits, so they are checked before either. */
    lat_status st = shared_fits(kernel->module->ctx, k, l->shared_bytes);
    if (st != LAT_OK)
        return st;
    if (l->cooperative && k->check)
        return lat__error(kernel->module->ctx, LAT_ERROR_UNSUPPORTED,
                          "kernel '%s': a cooperative launch cannot be checked "
                          "(LATTICE_CHECK, lat_check_configure): the checks run a grid's blocks "
                          "one at a time, and a cooperative grid's blocks must all run at once; "
                          "launch it from a context without checks", k->name);
    if (l->cooperative && m->debug)
        return lat__error(kernel->module->ctx, LAT_ERROR_UNSUPPORTED,
                          "kernel '%s': a cooperative launch of a module built with -G "
                          "(--device-debug): a -G module runs its blocks one at a time, and a "
                          "cooperative grid's blocks must all run at once; build it without -G",
                          k->name);
    /* The optimising tier's code once it is ready: the switch happens here, between
     * launches, so a launch runs on one tier throughout. */
    const lat__emu_opt_code *oc = lat__emu_opt_code_of(m->opt);
    lat__emu_kernel opt_k;
    if (oc) {
        opt_k = *k;
        opt_k.entry = oc->entries[index];
        opt_k.code = oc->text;
        opt_k.code_size = oc->text_size;
        /* Checked code keeps the order (region_gen.c); -G's runs each thread on a fiber. */
        opt_k.inexact_threads = !k->check && !m->debug;
        opt_k.debug_ids = oc->debug_ids;
        /* A pause in a debugger must not stop the launch as a hang; without one, a -G
         * kernel that never ends is stopped as any other. */
        opt_k.untimed = m->debug && traced();
        k = &opt_k;
    }
    struct timespec t0, t1;
    if (m->opt)
        clock_gettime(CLOCK_MONOTONIC, &t0);
    if (m->debug)
        pthread_mutex_lock(&m->debug_lock);
    if (k->check) /* check/ */
        st = lat__ck_run(kernel, k, oc, l, params, msg, sizeof msg);
    else
        st = lat__exec_run(&(lat__exec_grid){.kernel = k, .launch = l,
                                             .ctx = kernel->module->ctx,
                                             .params = params,
                                             .timeout_ms = k->untimed ? 0 : c->timeout_ms,
                                             .msg = msg,
                                             .msg_size = sizeof msg,
                                             .solo = &m->solo[index]});
    if (m->debug)
        pthread_mutex_unlock(&m->debug_lock);
    if (m->opt) {
        clock_gettime(CLOCK_MONOTONIC, &t1);
        int64_t ns = (int64_t)(t1.tv_sec - t0.tv_sec) * 1000000000 + (t1.tv_nsec - t0.tv_nsec);
        char *note = lat__emu_opt_after_launch(m->opt, ns > 0 ? (uint64_t)ns : 0);
        if (note) /* the background build failed: said on a thread of the user's */
            lat__log(kernel->module->ctx, LAT_LOG_WARNING, "%s: %s: %s", lat__api_name(),
                     kernel->module->name, note);
        free(note);
    }
    /* A launch the checks failed: each report is logged once already (check/launch.c),
     * the first of them again in the launch's message were it logged too. */
    if (st == LAT_ERROR_CHECK_FAILED)
        return lat__error_logged(st, "%s", msg);
    if (st != LAT_OK)
        return lat__error(kernel->module->ctx, st, "%s", msg);
    return LAT_OK;
}

/* The threads a cooperative grid of fiber kernels may hold in all: each thread's stack is
 * two memory mappings (the stack and its guard page), and a process has at most
 * vm.max_map_count of them (65530 by default); a quarter is the grid's, the rest stays the
 * program's. */
static uint64_t fiber_threads;
static pthread_once_t fiber_threads_once = PTHREAD_ONCE_INIT;

static void read_fiber_threads(void)
{
    unsigned long long maps = 65530;
    FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
    if (f) {
        if (fscanf(f, "%llu", &maps) != 1 || maps < 1024)
            maps = 65530;
        fclose(f);
    }
    fiber_threads = maps / 4;
}

/* The emulated device's co-resident blocks (lattice.h's lat_kernel_max_cooperative_blocks):
 * multiprocessor_count multiprocessors of compute capability 8.0, each holding 32 blocks
 * and 64 warps. A cooperative launch runs each block on an OS thread of its own
 * (exec/grid.c), a fiber kernel's threads each on a stack of its own, which bounds it too. */
static lat_status max_cooperative_blocks(lat_kernel *kernel, unsigned block_threads,
                                         size_t shared_bytes, unsigned *out)
{
    const lat__emu_kernel *k = kernel->impl;
    const lat_context *ctx = kernel->module->ctx;
    lat_status st = shared_fits(ctx, k, shared_bytes);
    if (st != LAT_OK)
        return st;
    enum { WARPS_PER_SM = 64, BLOCKS_PER_SM = 32 };
    unsigned warps = (block_threads + 31) / 32;
    unsigned per_sm = WARPS_PER_SM / warps;
    if (per_sm > BLOCKS_PER_SM)
        per_sm = BLOCKS_PER_SM;
    /* As a multiprocessor's shared memory holds them (1 KiB of each block's is the system's). */
    size_t shared = k->shared_bytes + shared_bytes;
    if (shared && per_sm > LAT_EMU_SHARED_PER_SM / (shared + 1024))
        per_sm = (unsigned)(LAT_EMU_SHARED_PER_SM / (shared + 1024));
    uint64_t n = (uint64_t)per_sm * (uint64_t)(ctx->info.multiprocessor_count > 0
                                                   ? ctx->info.multiprocessor_count : 1);
    if (k->mode == LAT_EMU_MODE_FIBER) {
        pthread_once(&fiber_threads_once, read_fiber_threads);
        uint64_t by_maps = fiber_threads / block_threads;
        if (n > by_maps)
            n = by_maps;
    }
    *out = n > 0xffffffffu ? 0xffffffffu : (unsigned)n;
    return LAT_OK;
}

static lat_status module_get_global(lat_module *mod, const char *name, lat_deviceptr *ptr,
                                    size_t *bytes)
{
    const lat__emu_module *m = mod->impl;
    for (int i = 0; i < m->nglobals; i++)
        if (strcmp(m->globals[i].name, name) == 0) {
            *ptr = (lat_deviceptr)(uintptr_t)m->globals[i].addr;
            *bytes = m->globals[i].size;
            return LAT_OK;
        }
    return LAT_ERROR_INVALID_VALUE;
}

static bool holds_address(lat_context *ctx, lat_deviceptr v)
{
    const lat__emu_ctx *c = ctx->impl;
    return lat__emu_heap_holds(&c->heap, (uintptr_t)v, 0);
}

static const char *kernel_path(const lat_kernel *kernel)
{
    const lat__emu_kernel *k = kernel->impl;
    return k && k->why ? k->why : "";
}

static int module_tier(const lat_module *mod)
{
    const lat__emu_module *m = mod->impl;
    return lat__emu_opt_code_of(m->opt) ? LAT_MODULE_TIER_OPTIMISED : LAT_MODULE_TIER_TINYCC;
}

const lat__backend lat__backend_emu = {
    .name = "emu",
    .kind = LAT_BACKEND_EMU,
    .interrupt = lat__emu_guard_interrupt,
    .probe = probe,
    .device_count = device_count,
    .device_info = device_info,
    .context_create = context_create,
    .context_destroy = context_destroy,
    .synchronize = synchronize,
    .mem_alloc = lat__emu_mem_alloc,
    .mem_free = lat__emu_mem_free,
    .mem_info = lat__emu_mem_info,
    .memset = lat__emu_memset,
    .memcpy_htod = lat__emu_memcpy_htod,
    .memcpy_dtoh = lat__emu_memcpy_dtoh,
    .memcpy_dtod = lat__emu_memcpy_dtod,
    .module_create = module_create,
    .module_destroy = module_destroy,
    .kernel_get = kernel_get,
    .kernel_release = kernel_release,
    .module_lowered_name = module_lowered_name,
    .launch = launch,
    .max_cooperative_blocks = max_cooperative_blocks,
    .module_get_global = module_get_global,
    .module_tier = module_tier,
    .kernel_path = kernel_path,
    .holds_address = holds_address,
    .driver = &lat__emu_driver_ops,
    .texture = &lat__emu_texture_ops,
    .reader = &lat__emu_reader,
    .env = &lat__emu_env_table,
    .memory_note = "on the emulator LATTICE_EMU_MEMORY sets its size",
};
