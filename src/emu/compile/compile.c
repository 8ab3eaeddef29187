/*
 * Compiling a module: the front end's tree lowered to C (passes/), prelude + that compiled with
 * libtcc in memory, relocate into a buffer of our own and drop the compiler state.
 * TinyCC is not thread-safe, so compiles are serialised by one process-wide mutex; the
 * compiled code may then run on any number of threads.
 */
#include "emu/backend/emu.h"
#include "emu/backend/env.h"
#include "core/alloc.h"

#include "options.h"

#include "emu/runtime/atomics.h"
#include "emu/check/ck.h"
#include "lattice/check.h"
#include "lattice/profile.h"
#include "emu/runtime/mathx.h"
#include "emu/tier/opt.h"
#include "prelude.h"
#include "emu/runtime/runtime.h"
#include "emu/passes/lower.h"
#include "cache.h"
#include "front/front.h"

#include <dlfcn.h>
#include <libtcc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* A module's compiled program, its __device__, __constant__ and static variables among it
 * (past its code), lies between inaccessible guards, as device memory does
 * (backend/memory.c): a kernel's stray write past its module's variables faults, and the
 * launch fails naming the kernel, instead of landing in whatever the system mapped next
 * (a malloc arena, another module's code). Address space only. */
enum { CODE_GUARD = 1 << 20 };

/* The live modules' programs, for a fault's report (lat__emu_module_describe): where each
 * lies and its name, read from a signal handler, which only tries the lock. */
typedef struct prog_span {
    uintptr_t lo, data_lo, hi; /* its code, then its variables, up to hi (whole pages) */
    char name[80];
} prog_span;
static struct {
    pthread_mutex_t lock;
    prog_span *v;
    size_t n, cap;
} programs = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void programs_add(const lat__emu_module *m, const char *name)
{
    pthread_mutex_lock(&programs.lock);
    if (programs.n == programs.cap) {
        size_t cap = programs.cap ? 2 * programs.cap : 16;
        prog_span *v = realloc(programs.v, cap * sizeof *v);
        if (v) {
            programs.v = v;
            programs.cap = cap;
        }
    }
    if (programs.n < programs.cap) { /* out of memory: the report names no module */
        prog_span *p = &programs.v[programs.n++];
        p->lo = (uintptr_t)m->code;
        p->data_lo = m->data_lo;
        p->hi = m->data_hi;
        snprintf(p->name, sizeof p->name, "%s", name ? name : "?");
    }
    pthread_mutex_unlock(&programs.lock);
}

static void programs_remove(const lat__emu_module *m)
{
    pthread_mutex_lock(&programs.lock);
    for (size_t i = 0; i < programs.n; i++)
        if (programs.v[i].lo == (uintptr_t)m->code) {
            programs.v[i] = programs.v[--programs.n];
            break;
        }
    if (!programs.n) {
        free(programs.v);
        programs.v = NULL;
        programs.cap = 0;
    }
    pthread_mutex_unlock(&programs.lock);
}

bool lat__emu_module_describe(uintptr_t addr, char *buf, size_t size)
{
    if (pthread_mutex_trylock(&programs.lock) != 0)
        return false;
    bool found = false;
    for (size_t i = 0; i < programs.n && !found; i++) {
        const prog_span *p = &programs.v[i];
        if (addr >= p->hi && addr - p->hi < CODE_GUARD)
            snprintf(buf, size, "past the variables of module '%s' (a __device__ array "
                     "written past its end?)", p->name);
        else if (addr < p->lo && p->lo - addr <= CODE_GUARD)
            snprintf(buf, size, "%zu bytes before the code and variables of module '%s'",
                     (size_t)(p->lo - addr), p->name);
        else if (addr >= p->lo && addr < p->data_lo)
            snprintf(buf, size, "in the code of module '%s', %zu bytes before its variables "
                     "(a __device__ array written before its start?)", p->name,
                     (size_t)(p->data_lo - addr));
        else
            continue;
        found = true;
    }
    pthread_mutex_unlock(&programs.lock);
    return found;
}

static pthread_mutex_t tcc_lock = PTHREAD_MUTEX_INITIALIZER;

/* TinyCC 0.9.27 (Debian's 2020 snapshot) keeps parser state in globals that a compile
 * error leaves pointing into the freed symbols of the failed compile: the label stacks
 * (any function with a label, as every kernel has) and the current switch. The next
 * compile then crashes in label_pop(). They are reset before each compile; weak, so
 * that a TinyCC without them still links. */
struct Sym;
struct switch_t;
extern struct Sym *global_label_stack __attribute__((weak));
extern struct Sym *local_label_stack __attribute__((weak));
extern struct switch_t *cur_switch __attribute__((weak));

static void reset_tcc_globals(void)
{
    if (&global_label_stack)
        global_label_stack = NULL;
    if (&local_label_stack)
        local_label_stack = NULL;
    if (&cur_switch)
        cur_switch = NULL;
}

/* What TinyCC said, one message a line. */
typedef struct tcc_log {
    char *text;
    size_t len;
    bool errors;
    bool oom;
    const char *module; /* for messages that name no file (link errors) */
} tcc_log;

static void on_message(void *opaque, const char *msg)
{
    tcc_log *log = opaque;
    if (strstr(msg, ": error: ") || strncmp(msg, "tcc: error: ", 12) == 0)
        log->errors = true;
    int r;
    const char *implicit = strstr(msg, ": warning: implicit declaration of function");
    if (implicit) {
        /* C++ has no implicit declarations, and TinyCC's would return int: an error. */
        log->errors = true;
        r = lat__strbuf_printf(&log->text, &log->len, "%s%.*s: error: %s", log->len ? "\n" : "",
                               (int)(implicit - msg), msg, implicit + 11);
    } else if (strncmp(msg, "tcc: error: undefined symbol ", 29) == 0)
        /* A link error names no file: say whose it is and why. */
        r = lat__strbuf_printf(&log->text, &log->len,
                               "%s%s: error: undefined symbol %s (neither defined in the "
                               "module nor provided by the lattice emulator)",
                               log->len ? "\n" : "", log->module, msg + 29);
    else if (strncmp(msg, "tcc: ", 5) == 0)
        r = lat__strbuf_printf(&log->text, &log->len, "%s%s: %s", log->len ? "\n" : "",
                               log->module, msg + 5);
    else
        r = lat__strbuf_printf(&log->text, &log->len, "%s%s", log->len ? "\n" : "", msg);
    if (r == 0 && strstr(msg, "'__lat_t' undeclared"))
        r = lat__strbuf_printf(&log->text, &log->len,
                               " (threadIdx, blockIdx, blockDim and gridDim exist only in "
                               "__global__ and __device__ functions)");
    if (r != 0)
        log->oom = true;
}

/* Joins the prelude and the translation, with #line markers for each. In a -G program
 * threadIdx, blockIdx, blockDim and gridDim are variables of the module in place of the
 * prelude's macros, for a debugger to read in any frame and at any instruction (a
 * function's locals would not hold them yet where a breakpoint at its first line stops).
 * The executor stores the running thread's indices in them (exec.h's debug_ids): a -G
 * module's blocks run one at a time, each thread on a fiber. Hidden, so that no symbol of
 * the same name elsewhere in the process stands in for them. */
static char *program_text(const lat__lower_out *tr, bool debug, size_t *prelude_len)
{
    const char *prelude = lat__emu_prelude_parts(tr->prelude_parts);
    const char *translated = tr->text;
    if (!prelude)
        return NULL;
    static const char head[] = "#line 1 \"<lattice prelude>\"\n";
    static const char undef[] =
        "\n#undef threadIdx\n#undef blockIdx\n#undef blockDim\n#undef gridDim\n"
        "#ifndef __TINYC__\n#define __LAT_DBG_VAR __attribute__((visibility(\"hidden\")))\n#else\n"
        "#define __LAT_DBG_VAR\n#endif\n"
        "__LAT_DBG_VAR uint3 threadIdx; __LAT_DBG_VAR uint3 blockIdx;\n"
        "__LAT_DBG_VAR dim3 blockDim; __LAT_DBG_VAR dim3 gridDim;\n"
        "void *const " LAT_EMU_DEBUG_IDS "[4] = {&threadIdx, &blockIdx, &blockDim, &gridDim};\n";
    const char *tail = debug ? undef : "";
    size_t hn = strlen(head), pn = strlen(prelude), un = strlen(tail), tn = strlen(translated);
    char *p = lat__malloc(hn + pn + un + tn + 1);
    if (!p)
        return NULL;
    memcpy(p, head, hn);
    memcpy(p + hn, prelude, pn);
    memcpy(p + hn + pn, tail, un);
    memcpy(p + hn + pn + un, translated, tn + 1);
    *prelude_len = hn + pn + un;
    return p;
}

static void add_table(TCCState *s, const lat__emu_symbol *sym, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const void *addr;
        /* ISO C has no cast from a function pointer to void *; a copy of its bytes is
         * what tcc_add_symbol needs on every platform lattice runs on. */
        memcpy(&addr, &sym[i].fn, sizeof addr);
        tcc_add_symbol(s, sym[i].name, addr);
    }
}

static void add_symbols(TCCState *s)
{
    size_t n;
    const lat__emu_symbol *sym = lat__emu_runtime_symbols(&n);
    add_table(s, sym, n);
    sym = lat__emu_atomic_symbols(&n);
    add_table(s, sym, n);
    sym = lat__emu_mathx_symbols(&n);
    add_table(s, sym, n);
}

/* Defines a NAME or NAME=VALUE option in TinyCC. */
static bool define(TCCState *s, const char *d)
{
    const char *eq = strchr(d, '=');
    if (!eq) {
        tcc_define_symbol(s, d, "1");
        return true;
    }
    char *name = strndup(d, (size_t)(eq - d));
    if (!name)
        return false;
    tcc_define_symbol(s, name, eq + 1);
    free(name);
    return true;
}

/* Where the program's symbols are: TinyCC's code, or the optimising tier's object from
 * the cache (the same program, so the same tables). */
typedef struct lookup {
    TCCState *tcc;
    void *dl;
} lookup;

static void *sym_of(const lookup *l, const char *name)
{
    return l->tcc ? tcc_get_symbol(l->tcc, name) : dlsym(l->dl, name);
}

/* Reads the kernel's mode and lays its __shared__ variables out (abi.h), in the order
 * of the module, each at its alignment. */
static lat_status layout_shared(lat_context *ctx, const lookup *s, const char *name,
                                lat__emu_kernel *k)
{
    char sym[600];
    snprintf(sym, sizeof sym, LAT_EMU_KINFO_PREFIX "%s", name);
    const int *info = sym_of(s, sym);
    const int *nshared = sym_of(s, "__lat_nshared");
    if (!info || !nshared)
        return lat__error(ctx, LAT_ERROR_INTERNAL,
                          "kernel '%s' has no %s table (a lattice bug)", name,
                          !info ? "kernel" : "shared memory");
    k->mode = info[0];
    if (*nshared == 0)
        return LAT_OK;
    const unsigned long *size = sym_of(s, "__lat_shsize");
    const unsigned long *align = sym_of(s, "__lat_shalign");
    k->shoff = lat__calloc((size_t)*nshared, sizeof *k->shoff);
    if (!size || !align || !k->shoff)
        return lat__oom(ctx);
    size_t at = 0;
    for (int i = 0; i < info[1]; i++) {
        int v = info[2 + i];
        if (v < 0 || v >= *nshared)
            continue;
        unsigned long a = align[v] ? align[v] : 1;
        at = (at + a - 1) / a * a;
        k->shoff[v] = at;
        at += size[v];
        if (at > ((size_t)1 << 40))
            break; /* reported as too much below */
    }
    k->shared_bytes = at;
    return LAT_OK;
}

static lat_status find_kernels(lat_context *ctx, const lookup *s, const lat__lower_out *tr,
                               lat__emu_module *m)
{
    m->kernels = lat__calloc((size_t)(tr->nkernels ? tr->nkernels : 1), sizeof *m->kernels);
    m->solo = lat__calloc((size_t)(tr->nkernels ? tr->nkernels : 1), sizeof *m->solo);
    if (!m->kernels || !m->solo)
        return lat__oom(ctx);
    for (int i = 0; i < tr->nkernels; i++) {
        lat__emu_kernel *k = &m->kernels[m->nkernels];
        const char *name = tr->kernels[i];
        size_t n = strlen(name);
        char *sym = lat__malloc(n + 32);
        if (!sym)
            return lat__oom(ctx);
        memcpy(sym, LAT_EMU_ENTRY_PREFIX, sizeof LAT_EMU_ENTRY_PREFIX);
        strcat(sym, name);
        void *entry = sym_of(s, sym);
        memcpy(sym, LAT_EMU_SIZES_PREFIX, sizeof LAT_EMU_SIZES_PREFIX);
        strcat(sym, name);
        void *sizes = sym_of(s, sym);
        free(sym);
        /* Only defined kernels are lowered; a missing entry would be a lattice bug, and
         * lat_module_get_kernel then says the module has no such kernel. */
        if (!entry || !sizes)
            continue;
        k->code = m->code;
        k->code_size = m->code_size;
        k->name = strdup(name);
        k->expr = tr->kernel_exprs && tr->kernel_exprs[i] ? strdup(tr->kernel_exprs[i]) : NULL;
        sym = lat__malloc(n + 32);
        const char *why = NULL;
        if (sym) {
            memcpy(sym, LAT_EMU_KWHY_PREFIX, sizeof LAT_EMU_KWHY_PREFIX);
            strcat(sym, name);
            why = sym_of(s, sym);
            free(sym);
            k->why = strdup(why ? why : "");
        }
        if (!sym || !k->name || !k->why || (tr->kernel_exprs && tr->kernel_exprs[i] && !k->expr)) {
            /* Not counted in m->nkernels yet, so the module's teardown would not free them. */
            free(k->name);
            free(k->expr);
            free(k->why);
            k->name = k->expr = NULL;
            k->why = NULL;
            return lat__oom(ctx);
        }
        m->nkernels++;
        memcpy(&k->entry, &entry, sizeof entry);
        lat__emu_sizes_fn sizes_fn;
        memcpy(&sizes_fn, &sizes, sizeof sizes);
        lat_status st = layout_shared(ctx, s, name, k);
        if (st != LAT_OK)
            return st;
        k->nparams = sizes_fn(NULL);
        if (k->nparams > 0) {
            unsigned long got[256];
            sizes_fn(got);
            k->param_sizes = lat__malloc((size_t)k->nparams * sizeof *k->param_sizes);
            if (!k->param_sizes)
                return lat__oom(ctx);
            for (int j = 0; j < k->nparams; j++)
                k->param_sizes[j] = got[j];
        }
    }
    return LAT_OK;
}

/* The module's variables, by the address and size the program records (abi.h). */
static lat_status find_globals(lat_context *ctx, const lookup *s, const lat__lower_out *tr,
                               lat__emu_module *m)
{
    if (tr->nglobals == 0)
        return LAT_OK;
    m->globals = lat__calloc((size_t)tr->nglobals, sizeof *m->globals);
    if (!m->globals)
        return lat__oom(ctx);
    for (int i = 0; i < tr->nglobals; i++) {
        char sym[600];
        snprintf(sym, sizeof sym, LAT_EMU_GADDR_PREFIX "%s", tr->globals[i]);
        void *const *addr = sym_of(s, sym);
        snprintf(sym, sizeof sym, LAT_EMU_GSIZE_PREFIX "%s", tr->globals[i]);
        const unsigned long *size = sym_of(s, sym);
        if (!addr || !size)
            continue; /* in a region the preprocessor dropped */
        lat__emu_global *g = &m->globals[m->nglobals];
        g->name = strdup(tr->globals[i]);
        if (!g->name)
            return lat__oom(ctx);
        g->addr = *addr;
        g->size = *size;
        m->nglobals++;
    }
    return LAT_OK;
}

/* Runs TinyCC on the program; holds tcc_lock. */
static lat_status run_tcc(lat_context *ctx, const lat__source *src, const lat__options *o,
                          const lat__lower_out *tr, const char *program,
                          lat__emu_module *m, tcc_log *log)
{
    TCCState *s = tcc_new();
    if (!s)
        return lat__oom(ctx);
    tcc_set_error_func(s, log, on_message);
    /* Fixed option strings only: tcc_set_options exits on an unknown one. */
    tcc_set_options(s, o->no_warnings ? "-nostdlib -nostdinc -w" : "-nostdlib -nostdinc");
    tcc_set_output_type(s, TCC_OUTPUT_MEMORY);
    lat_status st = LAT_OK;
    for (const char **d = o->defines; *d && st == LAT_OK; d++)
        if (!define(s, *d))
            st = lat__oom(ctx);
    for (const char **u = o->undefines; *u; u++)
        tcc_undefine_symbol(s, *u);
    add_symbols(s);
    if (m->check) {
        size_t n;
        const lat__emu_symbol *ck = lat__ck_symbols(&n);
        add_table(s, ck, n);
    }
    int size = -1;
    reset_tcc_globals();
    if (st == LAT_OK && tcc_compile_string(s, program) == 0 && !log->errors)
        size = tcc_relocate(s, NULL);
    if (st == LAT_OK && (size < 0 || log->errors)) {
        st = log->oom ? lat__oom(ctx)
                      : lat__error(ctx, LAT_ERROR_COMPILE, "%s failed to compile:\n%s",
                                   src->name, log->text ? log->text : "(no message)");
    }
    if (st == LAT_OK) {
        size_t page = (size_t)sysconf(_SC_PAGESIZE);
        size_t bytes = ((size_t)size + page - 1) / page * page;
        bytes = bytes ? bytes : page;
        char *map = mmap(NULL, CODE_GUARD + bytes + CODE_GUARD, PROT_NONE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        char *mem = map == MAP_FAILED ? NULL : map + CODE_GUARD;
        if (mem && mprotect(mem, bytes, PROT_READ | PROT_WRITE) != 0) {
            munmap(map, CODE_GUARD + bytes + CODE_GUARD);
            mem = NULL;
        }
        if (!mem) {
            st = lat__error(ctx, LAT_ERROR_OUT_OF_MEMORY,
                            "cannot map %zu bytes for the compiled code", bytes);
        } else {
            m->code = mem;
            m->code_size = bytes;
            if (tcc_relocate(s, mem) < 0)
                st = lat__error(ctx, LAT_ERROR_COMPILE, "%s failed to link:\n%s",
                                src->name, log->text ? log->text : "(no message)");
            /* TinyCC lays the text section out first and marks its end. */
            uintptr_t etext = (uintptr_t)tcc_get_symbol(s, "_etext");
            m->data_hi = (uintptr_t)mem + m->code_size;
            m->data_lo = etext > (uintptr_t)mem && etext <= m->data_hi ? etext : (uintptr_t)mem;
            /* TinyCC leaves its code writable: the pages that hold only code become
             * read-only, so that a write before the first variable faults as well. */
            size_t code_pages = (m->data_lo - (uintptr_t)mem) / page * page;
            if (st == LAT_OK && code_pages)
                mprotect(mem, code_pages, PROT_READ | PROT_EXEC);
            if (st == LAT_OK)
                programs_add(m, src->name);
        }
    }
    lookup l = {.tcc = s};
    if (st == LAT_OK)
        st = find_kernels(ctx, &l, tr, m);
    if (st == LAT_OK)
        st = find_globals(ctx, &l, tr, m);
    if (st == LAT_OK && m->check && lat__ck_module_loaded(m->check, m, s) != LAT_OK)
        st = lat__oom(ctx);
    tcc_delete(s);
    return st;
}

/* Frees what find_kernels and find_globals made. */
static void free_tables(lat__emu_module *m)
{
    for (int i = 0; i < m->nkernels; i++) {
        free(m->kernels[i].name);
        free(m->kernels[i].expr);
        free(m->kernels[i].why);
        free(m->kernels[i].param_sizes);
        free(m->kernels[i].shoff);
        lat__ck_kernel_free(m->kernels[i].check);
    }
    free(m->kernels);
    free(m->solo);
    m->solo = NULL;
    for (int i = 0; i < m->nglobals; i++)
        free(m->globals[i].name);
    free(m->globals);
    m->kernels = NULL;
    m->globals = NULL;
    m->nkernels = m->nglobals = 0;
}

/* SYNC or BACKGROUND mode with the optimised object in the disk cache, opened (h; NULL:
 * not there): the module is that object's, its kernels and variables found by `names` as
 * in TinyCC's code, and TinyCC never runs (about a millisecond instead of TinyCC's few).
 * False, the module untouched, when the object is not there or not the module's. */
static bool bind_from_cache(lat_context *ctx, void *h, const lat__lower_out *names,
                            lat__emu_module *m)
{
    if (!h)
        return false;
    lookup l = {.dl = h};
    if (find_kernels(ctx, &l, names, m) == LAT_OK && find_globals(ctx, &l, names, m) == LAT_OK &&
        lat__emu_opt_bind_cached(m->opt)) {
        const lat__emu_opt_code *c = lat__emu_opt_code_of(m->opt);
        for (int i = 0; i < m->nkernels; i++) {
            m->kernels[i].code = c->text; /* for the guard's reports */
            m->kernels[i].code_size = c->text_size;
        }
        return true;
    }
    lat__emu_opt_drop_cached(m->opt);
    free_tables(m);
    return false;
}

/* The object found by the translated program's key. A checked module's tables for the
 * checks are read from TinyCC's code. */
static bool from_cache(lat_context *ctx, const lat__lower_out *tr, lat__emu_module *m)
{
    void *h = m->opt && !m->check ? lat__emu_opt_open_cached(m->opt) : NULL;
    return bind_from_cache(ctx, h, tr, m);
}

/* The object found through the source index (opt_index.h), before translating: a module
 * loaded before, in this mode, by this build of lattice. On a hit *out is the module and
 * *log its front end's warnings, as when it was translated. */
static bool from_index(lat_context *ctx, const lat__options *o, int opt_mode,
                       const uint8_t digest[32], lat__emu_module **out, char **log)
{
    lat__emu_module *m = lat__calloc(1, sizeof *m);
    if (!m)
        return false;
    m->opt = lat__emu_opt_new(m, opt_mode, NULL, 0, o->defines, o->undefines);
    lat__lower_out names = {0};
    char *warnings = NULL;
    bool hit = m->opt && lat__emu_opt_set_source(m->opt, digest, NULL) &&
               bind_from_cache(ctx, lat__emu_opt_open_indexed(m->opt, &names, &warnings), &names, m);
    lat__lower_out_free(&names);
    if (!hit) {
        free(warnings);
        lat__emu_module_free(m);
        return false;
    }
    if (o->no_warnings) {
        free(warnings);
        warnings = NULL;
    }
    *out = m;
    *log = warnings;
    return true;
}

static bool profiling(lat_context *ctx)
{
    unsigned modes = 0;
    return ctx->check && lat_check_modes(ctx, &modes) == LAT_OK && (modes & LAT_CHECK_PROFILE);
}

static bool checks_preempt(lat_context *ctx)
{
    lat_check_options o;
    return ctx->check && lat_check_get_options(ctx, &o) == LAT_OK && o.preempt;
}

lat_status lat__emu_compile(lat_context *ctx, const lat__source *src, lat__emu_module **out,
                            char **log_out)
{
    *out = NULL;
    *log_out = NULL;
    /* The optimising tier's mode (checked modules' instrumented code too). */
    int opt_mode = LAT_EMU_OPT_OFF;
    char why[256];
    if (!lat__emu_opt_mode(src->emu_opt, &opt_mode, why, sizeof why))
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "%s", why);
    const lat__options *o = src->opts;
    /* -G: the optimising tier's machinery builds the debugger's object now (emu.c),
     * whatever the module's tier would have been. */
    if (o->device_debug)
        opt_mode = LAT_EMU_OPT_SYNC;
    if (o->unknown)
        return lat__error(ctx, LAT_ERROR_INVALID_OPTION,
                          "the emulator does not accept the option '%s' "
                          "(docs/dialect.md lists those it does)", o->unknown);
    lat_status st = LAT_OK;
    lat__unit *u = src->unit;
    if (!u) /* every module the core makes is parsed: this is a caller's mistake */
        return lat__error(ctx, LAT_ERROR_INVALID_VALUE, "no parsed source");
    if (u->status != LAT_OK) {
        const char *m = lat__unit_messages(u, false);
        st = lat__error(ctx, u->status, "%s", m ? m : "the source is not valid");
        return st;
    }
    lat__lower_in in = {
        .checked = ctx->check != NULL,
        /* Preempting switches threads at accesses: only fibers can (lattice/check.h).
         * LATTICE_EMU_FIBERS asks for them too: read here, once, for the translation.
         * Profiled: every thread on a fiber, where each is a thread of its own warp's. */
        .fibers = checks_preempt(ctx) || lat__emu_env_on(LAT_EMU_ENV_FIBERS) || profiling(ctx),
        .profile = profiling(ctx),
        .no_fmad = o->no_fmad,
        .debug = o->device_debug,
        .opt_variants = opt_mode != LAT_EMU_OPT_OFF && !o->device_debug,
    };
    /* A module this build of lattice translated before, in this mode, is not translated
     * again when the source index has it (SYNC and BACKGROUND modes), under the compile
     * request's digest: the request has every input of the translation (the source and
     * what it includes, options, target, lattice's build, and the tier, checks and
     * LATTICE_EMU_* settings of driver.c's module_key). */
    const uint8_t *digest = src->request ? src->request->bytes : NULL;
    bool indexed = !in.checked && !in.debug && (opt_mode == LAT_EMU_OPT_SYNC || opt_mode == LAT_EMU_OPT_BACKGROUND) &&
                   digest;
    bool has_state = lat__emu_module_has_state(u);
    if (indexed && from_index(ctx, o, opt_mode, digest, out, log_out)) {
        (*out)->has_state = has_state;
        if (lat__emu_env_on(LAT_EMU_ENV_DUMP))
            fprintf(stderr, "/* lattice: %s: the optimised object from the disk cache's source "
                            "index, not translated (LATTICE_CACHE=0 translates every module) */\n",
                    src->name);
        return LAT_OK;
    }
    lat__lower_out tr;
    st = lat__emu_lower(u, &in, &tr);
    char *warnings = NULL;
    if (st == LAT_OK) {
        const char *w = lat__unit_messages(u, true);
        if (w && !(warnings = strdup(w)))
            st = LAT_ERROR_OUT_OF_MEMORY;
    }
    if (st == LAT_OK && lat__emu_env_on(LAT_EMU_ENV_DUMP))
        fprintf(stderr, "%s\n", tr.text);
    if (st != LAT_OK) {
        const char *m = st == LAT_ERROR_OUT_OF_MEMORY ? NULL : lat__unit_messages(u, false);
        st = !m ? lat__oom(ctx)
                : lat__error(ctx, st, "%s", m);
        lat__lower_out_free(&tr);
        free(warnings);
        return st;
    }
    lat__ck_module *ckm = tr.check; /* the checks' sites (passes/checks.c), or NULL */
    tr.check = NULL;
    size_t prelude_len = 0;
    char *program = program_text(&tr, in.debug, &prelude_len);
    lat__emu_module *m = lat__calloc(1, sizeof *m);
    tcc_log log = {.module = src->name};
    if (m) {
        m->check = ckm;
        m->has_state = has_state;
        m->debug = in.debug && pthread_mutex_init(&m->debug_lock, NULL) == 0;
        if (in.debug && !m->debug) {
            lat__emu_module_free(m);
            m = NULL;
        }
    } else
        lat__ck_module_free(ckm);
    /* The optimising tier compiles the same program again, now or later (opt.c): it
     * owns the text from here. */
    const char *text = program;
    if (program && m && opt_mode != LAT_EMU_OPT_OFF) {
        m->opt = lat__emu_opt_new(m, opt_mode, program, prelude_len, o->defines, o->undefines);
        program = NULL;
        text = m->opt ? lat__emu_opt_program(m->opt) : NULL;
        if (m->opt && in.debug)
            lat__emu_opt_set_debug(m->opt);
        if (text && indexed && !lat__emu_opt_set_source(m->opt, digest, warnings))
            text = NULL; /* out of memory */
    }
    if (!text || !m) {
        st = lat__oom(ctx);
    } else if (!from_cache(ctx, &tr, m)) {
        pthread_mutex_lock(&tcc_lock);
        st = run_tcc(ctx, src, o, &tr, text, m, &log);
        pthread_mutex_unlock(&tcc_lock);
    }
    free(program);
    lat__lower_out_free(&tr);
    if (st == LAT_OK && warnings && !o->no_warnings) {
        /* The front end's warnings (#warning...) lead the compiler's. */
        char *joined = NULL;
        size_t len = 0;
        if (lat__strbuf_printf(&joined, &len, "%s%s%s", warnings, log.text ? "\n" : "",
                               log.text ? log.text : "") != 0)
            st = lat__oom(ctx);
        free(log.text);
        log.text = joined;
    }
    free(warnings);
    if (st != LAT_OK) {
        free(log.text);
        lat__emu_module_free(m);
        return st;
    }
    for (int i = 0; i < m->nkernels; i++)
        m->kernels[i].debug = m->debug;
    *out = m;
    *log_out = log.text;
    return LAT_OK;
}

void lat__emu_module_free(lat__emu_module *m)
{
    if (!m)
        return;
    lat__emu_opt_free(m->opt); /* first: its build reads the kernels' names */
    free_tables(m);
    lat__ck_module_free(m->check);
    if (m->code) {
        programs_remove(m);
        munmap((char *)m->code - CODE_GUARD, CODE_GUARD + m->code_size + CODE_GUARD);
    }
    if (m->debug)
        pthread_mutex_destroy(&m->debug_lock);
    free(m);
}
