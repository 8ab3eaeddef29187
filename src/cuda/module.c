/*
 * Modules: CUDA C compiled with NVRTC for the context's device, then loaded with
 * cuModuleLoadDataEx. The source is wrapped in extern "C" { } the way PyCUDA does, so
 * kernels keep their plain names; without the wrap (no_extern_c) NVRTC is asked for the
 * mangled names of the kernels the core's scanner found, so plain names work anyway.
 * The user's name expressions (lat_module_desc.name_expressions: template
 * instantiations) are NVRTC's own: added before the compile, lowered after it, and looked
 * up by the same string. Templates cannot have C linkage, so a module with name
 * expressions is compiled without the wrap, as no_extern_c.
 */
#include "cuda_internal.h"

#include "cache.h"
#include "module_blob.h"
#include "pycuda_complex.h"
#include "std_headers.h"

#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct lowered_name {
    char *name;
    char *lowered;
} lowered_name;

/* mod->impl */
typedef struct cuda_module {
    CUmodule cu;
    lowered_name *names; /* name expressions (the user's, and kernels' plain names when
                            compiled as C++) and their lowered names */
    int nnames;
    int cxx; /* compiled without the extern "C" wrap */
    /* The code it was loaded from (lat_module_get_code, the cache), and what ptxas said
     * of each kernel's spills when lattice compiled it. */
    char *code;
    size_t code_size;
    int cubin;
    int arch;
    lat__cuda_spill *spills;
    int nspills;
} cuda_module;

/* The option that makes ptxas report each kernel's resources in NVRTC's log (spills are
 * known no other way); lattice removes the report from the log the user sees. */
static const char ptxas_verbose[] = "--ptxas-options=--verbose";

/* What to compile for: "--gpu-architecture=sm_90" producing a CUBIN, or
 * "--gpu-architecture=compute_90" producing PTX that the driver compiles on load. */
typedef struct target {
    char option[48];
    int cubin;
    int arch; /* 90 for sm_90 / compute_90; 0 when the user chose it in src->options */
} target;

/* Architectures NVRTC has known, newest first: the fallback order for an NVRTC too old to
 * say which ones it supports (nvrtcGetSupportedArchs came with 11.2). */
static const int known_archs[] = {
    121, 120, 110, 103, 101, 100, 90, 89, 87, 86, 80, 75, 72, 70, 62, 61, 60, 53, 52, 50, 37, 35,
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void free_names(lowered_name *names, int n)
{
    for (int i = 0; i < n; i++) {
        free(names[i].name);
        free(names[i].lowered);
    }
    free(names);
}

static void free_module(cuda_module *m)
{
    if (!m)
        return;
    free_names(m->names, m->nnames);
    for (int i = 0; i < m->nspills; i++)
        free(m->spills[i].name);
    free(m->spills);
    free(m->code);
    free(m);
}

/* Whether the user's options already talk to ptxas (then lattice adds nothing). */
static int user_ptxas_options(const lat__source *src)
{
    for (const char *const *o = src->options; o && *o; o++)
        if (strncmp(*o, "--ptxas-options", 15) == 0 || strncmp(*o, "-Xptxas", 7) == 0)
            return 1;
    return 0;
}

/* Takes ptxas's resource report out of the log (it is there only because lattice asked for
 * it) and keeps each kernel's spills:
 *     ptxas info    : Function properties for scale
 *         0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
 * Returns 0, or -1 when out of memory. */
static int take_ptxas_report(char *log, cuda_module *m)
{
    char *out = log, *line = log, *fn = NULL;
    int bad = 0;
    while (*line) {
        char *eol = strchr(line, '\n');
        size_t len = eol ? (size_t)(eol - line) + 1 : strlen(line);
        const char *props = "ptxas info    : Function properties for ";
        int drop = strncmp(line, "ptxas info", 10) == 0;
        if (strncmp(line, props, strlen(props)) == 0) {
            free(fn);
            const char *name = line + strlen(props);
            size_t n = strcspn(name, " \r\n");
            fn = malloc(n + 1);
            if (fn) {
                memcpy(fn, name, n);
                fn[n] = '\0';
            }
        }
        /* The properties line: "    0 bytes stack frame, ..." (NVRTC 12) or
         * "ptxas         .     0 bytes stack frame, ..." (NVRTC 13). */
        const char *digits = line;
        while (digits < line + len && (*digits < '0' || *digits > '9'))
            digits++;
        int stack = 0, stores = 0, loads = 0;
        int props_line = (strncmp(line, "ptxas", 5) == 0 || line[0] == ' ' || line[0] == '\t') &&
                         digits < line + len &&
                         sscanf(digits, "%d bytes stack frame, %d bytes spill stores, %d bytes spill loads",
                                &stack, &stores, &loads) == 3;
        if (props_line) {
            drop = 1;
            if (fn) {
                lat__cuda_spill *grown = realloc(m->spills, (size_t)(m->nspills + 1) * sizeof *grown);
                if (grown) {
                    m->spills = grown;
                    m->spills[m->nspills++] = (lat__cuda_spill){fn, stores, loads};
                    fn = NULL;
                } else {
                    bad = 1;
                }
            }
        }
        if (!drop) {
            memmove(out, line, len);
            out += len;
        }
        line += len;
    }
    *out = '\0';
    while (out > log && (out[-1] == '\n' || out[-1] == ' '))
        *--out = '\0';
    free(fn);
    return bad ? -1 : 0;
}

void lat__cuda_kernel_spills(const lat_kernel *kernel, int *stores, int *loads)
{
    const cuda_module *m = kernel->module->impl;
    const char *symbol = lat__cuda_module_symbol(kernel->module, kernel->name);
    *stores = *loads = -1;
    for (int i = 0; m && i < m->nspills; i++) {
        if (strcmp(m->spills[i].name, symbol) == 0) {
            *stores = m->spills[i].stores;
            *loads = m->spills[i].loads;
            return;
        }
    }
}

lat_status lat__cuda_module_code(const lat_module *mod, lat_code_kind *kind, const void **data,
                                 size_t *size)
{
    const cuda_module *m = mod->impl;
    *kind = m->cubin ? LAT_CODE_CUBIN : LAT_CODE_PTX;
    *data = m->code;
    *size = m->code_size;
    return LAT_OK;
}

/* printf into a fresh malloc'd string; NULL when out of memory. */
static char *format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format(const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf)
        vsnprintf(buf, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return buf;
}

/* The dialect's grid barrier, __lat_grid_sync() (docs/dialect.md), for NVRTC, which has
 * no cooperative_groups.h of its own: the barrier cooperative groups' grid.sync() makes.
 * A cooperative launch gives the kernel a workspace whose address the driver puts in
 * %envreg1 (high half) and %envreg2 (low half); its second word is the barrier. Thread 0
 * of each block adds 1 to it, block 0's adds 2^31 - (blocks - 1), so the top bit flips
 * once every block has arrived, and the adder waits for the flip. Outside a cooperative
 * launch the address is 0: a trap, as cooperative groups do (the core refuses such a
 * launch first). Inline, not static: should it go unused, it draws no warning. */
static const char grid_sync_prologue[] =
    "__device__ __forceinline__ void __lat_grid_sync(void)\n"
    "{\n"
    "    unsigned int lo, hi;\n"
    "    asm volatile(\"mov.b32 %0, %%envreg2;\" : \"=r\"(lo));\n"
    "    asm volatile(\"mov.b32 %0, %%envreg1;\" : \"=r\"(hi));\n"
    "    unsigned int *ws = (unsigned int *)(((unsigned long long)hi << 32) | lo);\n"
    "    if (!ws)\n"
    "        __trap();\n"
    "    __syncthreads();\n"
    "    if ((threadIdx.x | threadIdx.y | threadIdx.z) == 0) {\n"
    "        unsigned int blocks = gridDim.x * gridDim.y * gridDim.z;\n"
    "        unsigned int add = (blockIdx.x | blockIdx.y | blockIdx.z) == 0\n"
    "                               ? 0x80000000u - (blocks - 1u) : 1u;\n"
    "        volatile unsigned int *bar = ws + 1;\n"
    "        __threadfence();\n"
    "        unsigned int old = atomicAdd((unsigned int *)bar, add);\n"
    "        while (((old ^ *bar) & 0x80000000u) == 0)\n"
    "            ;\n"
    "        __threadfence();\n"
    "    }\n"
    "    __syncthreads();\n"
    "}\n";

/* Whether the source is compiled as C++ as written, without PyCUDA's extern "C" wrap. */
static int compiled_as_cxx(const lat__source *src)
{
    return src->no_extern_c || (src->name_expressions && src->name_expressions[0]);
}

/* Whether NVRTC's log says that the extern "C" wrap made the program invalid: a template
 * or an overloaded function given C linkage. */
static bool refused_for_c_linkage(const char *log)
{
    return log && (strstr(log, "may not have extern \"C\" linkage") ||
                   strstr(log, "has \"C\" linkage") ||
                   strstr(log, "template with C linkage"));
}

/* Appends `#include <name>\n`; nonzero when out of memory. */
static int append_include(char **out, size_t *len, const char *name)
{
    return lat__strbuf_append(out, len, "#include <", 10) ||
           lat__strbuf_append(out, len, name, strlen(name)) ||
           lat__strbuf_append(out, len, ">\n", 2);
}

/* Whether the text includes `name` (as <name> or "name"). */
static bool includes(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(text, name); p; p = strstr(p + 1, name))
        if (p > text && (p[-1] == '<' || p[-1] == '"') && (p[n] == '>' || p[n] == '"'))
            return true;
    return false;
}

/* The text handed to NVRTC: the macros nvcc's host headers give every program
 * (std_headers.h), the grid barrier's definition, the C++ headers the program includes,
 * then PyCUDA's wrap (unless compiled as C++), with a #line so that messages give the
 * user's own line numbers and file name. */
static char *wrap_source(const lat__source *src, const char *ambient, const char *const *std_names,
                         int nstd)
{
    const int cxx = compiled_as_cxx(src);
    char *out = NULL;
    size_t len = 0;
    static const char head[] = "extern \"C\" {\n";
    /* Only where the source (or a header: the scanner followed the calls) names the
     * barrier, so that other modules compile exactly as they always did. */
    bool grid_sync = strstr(src->text, "__lat_grid_sync") != NULL;
    for (int i = 0; src->sigs && i < src->sigs->count && !grid_sync; i++)
        grid_sync = src->sigs->items[i].grid_sync;
    int bad = lat__strbuf_append(&out, &len, ambient, strlen(ambient));
    if (grid_sync && !bad)
        bad = lat__strbuf_append(&out, &len, grid_sync_prologue, sizeof grid_sync_prologue - 1);
    /* C++ headers cannot be read inside extern "C" (NVRTC: "more than one instance of
     * overloaded function has C linkage"), and PyCUDA's wrap puts the program's includes
     * there: each is included first, its guard making the program's own include empty,
     * as the emulator reads it. */
    static const char *const cxx_headers[] = {"cuda_fp16.h", "cuda_bf16.h", "cooperative_groups.h",
                                              "cooperative_groups/reduce.h", LAT__PYCUDA_COMPLEX_NAME,
                                              LAT__PYCUDA_HELPERS_NAME};
    for (size_t i = 0; !cxx && !bad && i < sizeof cxx_headers / sizeof cxx_headers[0]; i++)
        if (strstr(src->text, cxx_headers[i]))
            bad = append_include(&out, &len, cxx_headers[i]);
    for (int i = 0; !cxx && !bad && i < nstd; i++)
        if (lat__cu_std_header_is_cxx(std_names[i]) && includes(src->text, std_names[i]))
            bad = append_include(&out, &len, std_names[i]);
    if (!bad && !cxx)
        bad = lat__strbuf_append(&out, &len, head, sizeof head - 1);
    if (!bad)
        bad = lat__strbuf_append(&out, &len, "#line 1 \"", 9);
    /* The name escaped: a newline in it would end the #line, and the rest of the name
     * would be compiled as the program. */
    for (const unsigned char *p = (const unsigned char *)src->name; *p && !bad; p++) {
        char esc[8];
        int n = *p == '"' || *p == '\\' ? snprintf(esc, sizeof esc, "\\%c", *p)
                : *p < 0x20 || *p == 0x7f ? snprintf(esc, sizeof esc, "\\%03o", *p)
                                          : snprintf(esc, sizeof esc, "%c", *p);
        bad = lat__strbuf_append(&out, &len, esc, (size_t)n);
    }
    if (!bad)
        bad = lat__strbuf_append(&out, &len, "\"\n", 2);
    if (!bad)
        bad = lat__strbuf_append(&out, &len, src->text, strlen(src->text));
    if (!bad && !cxx)
        bad = lat__strbuf_append(&out, &len, "\n}\n", 3);
    if (bad) {
        free(out);
        return NULL;
    }
    return out;
}

/* NVRTC writes positions as "kernel.cu(12): error: ..."; lattice's messages use the
 * compiler convention "kernel.cu:12: error: ..." on both backends. Rewrites such line
 * starts and drops the trailing blank lines; the rest of the log is kept as it is. */
static char *normalise_log(const char *log)
{
    size_t n = strlen(log);
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    const char *line = log;
    while (*line) {
        const char *eol = strchr(line, '\n');
        size_t llen = eol ? (size_t)(eol - line) + 1 : strlen(line);
        const char *open = memchr(line, '(', llen);
        const char *close = NULL;
        if (open && open > line) {
            const char *q = open + 1;
            while (q < line + llen && *q >= '0' && *q <= '9')
                q++;
            if (q > open + 1 && q + 1 < line + llen && q[0] == ')' && q[1] == ':')
                close = q;
        }
        if (close) {
            memcpy(out + o, line, (size_t)(open - line));
            o += (size_t)(open - line);
            out[o++] = ':';
            memcpy(out + o, open + 1, (size_t)(close - open - 1));
            o += (size_t)(close - open - 1);
            /* ")" is dropped; the ':' after it is copied with the rest of the line. */
            size_t rest = llen - (size_t)(close + 1 - line);
            memcpy(out + o, close + 1, rest);
            o += rest;
        } else {
            memcpy(out + o, line, llen);
            o += llen;
        }
        line += llen;
    }
    while (o > 0 && (out[o - 1] == '\n' || out[o - 1] == ' ' || out[o - 1] == '\r'))
        o--;
    out[o] = '\0';
    return out;
}

static char *program_log(nvrtcProgram prog)
{
    size_t size = 0;
    if (lat__cu.nvrtcGetProgramLogSize(prog, &size) != NVRTC_SUCCESS || size == 0)
        return lat__strdup("");
    char *raw = malloc(size + 1);
    if (!raw)
        return NULL;
    if (lat__cu.nvrtcGetProgramLog(prog, raw) != NVRTC_SUCCESS)
        raw[0] = '\0';
    raw[size] = '\0';
    char *log = normalise_log(raw);
    free(raw);
    return log;
}

/* The user's own --gpu-architecture / -arch in src->options, if any. */
static const char *user_arch(const lat__source *src)
{
    if (!src->options)
        return NULL;
    for (const char *const *o = src->options; *o; o++) {
        const char *s = *o;
        if (strncmp(s, "--gpu-architecture=", 19) == 0)
            return s + 19;
        if (strncmp(s, "-arch=", 6) == 0)
            return s + 6;
        if ((strcmp(s, "--gpu-architecture") == 0 || strcmp(s, "-arch") == 0) && o[1])
            return o[1];
    }
    return NULL;
}

static void set_target(target *t, int arch, int cubin)
{
    t->arch = arch;
    t->cubin = cubin;
    snprintf(t->option, sizeof t->option, "--gpu-architecture=%s_%d", cubin ? "sm" : "compute",
             arch);
}

/* Chooses the architecture. Returns 1 when the choice is final, 0 when NVRTC cannot say
 * which architectures it supports (the caller then tries sm_XY and falls back on
 * NVRTC_ERROR_INVALID_OPTION), -1 when NVRTC supports none at or below the device's. */
static int choose_target(const lat_context *ctx, target *t, char *supported, size_t ssize)
{
    int cc = ctx->info.compute_major * 10 + ctx->info.compute_minor;
    int can_cubin = lat__cu.nvrtcGetCUBIN && lat__cu.nvrtcGetCUBINSize;
    supported[0] = '\0';
    int n = 0;
    if (!lat__cu.nvrtcGetNumSupportedArchs || !lat__cu.nvrtcGetSupportedArchs ||
        lat__cu.nvrtcGetNumSupportedArchs(&n) != NVRTC_SUCCESS || n <= 0) {
        set_target(t, cc, can_cubin);
        return 0;
    }
    int *archs = malloc((size_t)n * sizeof *archs);
    if (!archs || lat__cu.nvrtcGetSupportedArchs(archs) != NVRTC_SUCCESS) {
        free(archs);
        set_target(t, cc, can_cubin);
        return 0;
    }
    int exact = 0, best = 0;
    size_t used = 0;
    for (int i = 0; i < n; i++) {
        if (archs[i] == cc)
            exact = 1;
        if (archs[i] <= cc && archs[i] > best)
            best = archs[i];
        if (used < ssize) {
            int w = snprintf(supported + used, ssize - used, "%s%d", i ? " " : "", archs[i]);
            used += w > 0 ? (size_t)w : 0;
        }
    }
    free(archs);
    if (exact) {
        set_target(t, cc, can_cubin);
        return 1;
    }
    if (!best)
        return -1;
    set_target(t, best, 0);
    return 1;
}

/* The name expressions a compile gives NVRTC: the user's first, then, for a source
 * compiled as C++, the plain names of the kernels the core's scanner found (those the
 * user's list does not hold already). skip[i]: NVRTC could not resolve items[i], and the
 * next compile leaves it out. */
typedef struct name_list {
    const char **items;
    int count;
    int nuser; /* items[0, nuser) are the user's */
    char *skip;
} name_list;

static void free_name_list(name_list *l)
{
    free(l->items);
    free(l->skip);
    memset(l, 0, sizeof *l);
}

/* Fills l (empty when there is nothing to lower); -1 when out of memory. */
static int make_name_list(const lat__source *src, name_list *l)
{
    memset(l, 0, sizeof *l);
    int n = 0;
    for (const char *const *e = src->name_expressions; e && *e; e++)
        n++;
    int nsigs = compiled_as_cxx(src) && src->sigs ? src->sigs->count : 0;
    if (n + nsigs == 0)
        return 0;
    l->items = calloc((size_t)(n + nsigs), sizeof *l->items);
    l->skip = calloc((size_t)(n + nsigs), 1);
    if (!l->items || !l->skip) {
        free_name_list(l);
        return -1;
    }
    for (int i = 0; i < n + nsigs; i++) {
        const char *e = i < n ? src->name_expressions[i] : src->sigs->items[i - n].name;
        bool again = false; /* NVRTC lowers each expression once */
        for (int j = 0; j < l->count && !again; j++)
            again = strcmp(l->items[j], e) == 0;
        if (!again)
            l->items[l->count++] = e;
        if (i < n)
            l->nuser = l->count;
    }
    return 0;
}

/* The headers NVRTC is given: the standard library's (std_headers.h) and, where the
 * source names them, pycuda-complex.hpp and pycuda-helpers.hpp (which includes it),
 * lattice's own (core/pycuda_complex.c), the same text the emulator reads. */
typedef struct program_headers {
    int n;
    const char *names[LAT__CU_STD_HEADERS_MAX + 2];
    const char *texts[LAT__CU_STD_HEADERS_MAX + 2];
    char *complex, *helpers;
} program_headers;

/* False when out of memory. */
static bool make_headers(program_headers *h, const char *toolkit, const char *text)
{
    h->n = lat__cu_std_headers(toolkit, h->names, h->texts, LAT__CU_STD_HEADERS_MAX);
    h->complex = h->helpers = NULL;
    bool helpers = strstr(text, LAT__PYCUDA_HELPERS_NAME) != NULL;
    if (!helpers && !strstr(text, LAT__PYCUDA_COMPLEX_NAME))
        return true;
    h->complex = lat__pycuda_complex_text();
    if (!h->complex)
        return false;
    h->names[h->n] = LAT__PYCUDA_COMPLEX_NAME;
    h->texts[h->n++] = h->complex;
    if (!helpers)
        return true;
    h->helpers = lat__pycuda_helpers_text();
    if (!h->helpers)
        return false;
    h->names[h->n] = LAT__PYCUDA_HELPERS_NAME;
    h->texts[h->n++] = h->helpers;
    return true;
}

/* Compiles once, giving NVRTC the name expressions of names not skipped. On return *prog
 * is the program (destroy it), or NULL when it could not be created; *log the normalised
 * log (NULL when out of memory). */
static nvrtcResult compile(const char *text, const char *name, const program_headers *h,
                           const char **opts, int nopts, const name_list *names,
                           nvrtcProgram *prog, char **log)
{
    *prog = NULL;
    *log = NULL;
    nvrtcResult r = lat__cu.nvrtcCreateProgram(prog, text, name, h->n, h->texts, h->names);
    if (r != NVRTC_SUCCESS) {
        *prog = NULL;
        *log = lat__strdup("");
        return r;
    }
    for (int i = 0; i < names->count; i++) {
        if (names->skip[i])
            continue;
        r = lat__cu.nvrtcAddNameExpression(*prog, names->items[i]);
        if (r != NVRTC_SUCCESS) {
            *log = lat__strdup("");
            return r;
        }
    }
    r = lat__cu.nvrtcCompileProgram(*prog, nopts, opts);
    *log = program_log(*prog);
    return r;
}

/* nvcc's relaxations that NVRTC in JIT mode has no need of (every function it sees is
 * device code, lattice passes -default-device) and that NVRTC 13 no longer knows. */
static const char *const nvcc_relaxations[] = {
    "--expt-relaxed-constexpr", "-expt-relaxed-constexpr", "--extended-lambda",
    "-extended-lambda", "--expt-extended-lambda", "-expt-extended-lambda",
};

/* When NVRTC's log says it does not know one of opts that is an nvcc relaxation, removes
 * it from opts (shifting the rest down) and returns it; NULL otherwise. */
static const char *drop_unknown_relaxation(const char *log, const char **opts, int *nopts)
{
    for (int i = 0; log && i < *nopts; i++) {
        bool relaxation = false;
        for (size_t j = 0; j < sizeof nvcc_relaxations / sizeof *nvcc_relaxations; j++)
            relaxation |= strcmp(opts[i], nvcc_relaxations[j]) == 0;
        if (!relaxation || !strstr(log, opts[i]))
            continue;
        const char *dropped = opts[i];
        memmove(&opts[i], &opts[i + 1], (size_t)(*nopts - i - 1) * sizeof *opts);
        (*nopts)--;
        return dropped;
    }
    return NULL;
}

/* NVRTC fails the whole compile when a name expression cannot be resolved (a template
 * or overloaded kernel, one inside #if 0, a user's expression naming nothing), and says
 * which in the log:
 *     Input name expression was: " tk"
 * Marks those names in skip; returns how many it marked. */
static int mark_failed_names(const char *log, name_list *names)
{
    static const char tag[] = "Input name expression was: \"";
    int marked = 0;
    for (const char *p = log; log && (p = strstr(p, tag)) != NULL;) {
        p += sizeof tag - 1;
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, "\"\n");
        for (int i = 0; i < names->count; i++) {
            if (!names->skip[i] && strlen(names->items[i]) == len &&
                strncmp(names->items[i], p, len) == 0) {
                names->skip[i] = 1;
                marked++;
            }
        }
    }
    return marked;
}

static void destroy_program(nvrtcProgram *prog)
{
    if (*prog)
        lat__cu.nvrtcDestroyProgram(prog);
    *prog = NULL;
}

/* The CUDA toolkit's include directory, where the headers a kernel may include and NVRTC
 * does not carry live (cooperative_groups.h...): CUDA_HOME's, CUDA_PATH's or
 * /usr/local/cuda's, the first that has them; NULL when none. */
static const char *toolkit_include_dir(char *buf, size_t size)
{
    const char *roots[] = {getenv("CUDA_HOME"), getenv("CUDA_PATH"), "/usr/local/cuda"};
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
        if (!roots[i] || !roots[i][0])
            continue;
        int n = snprintf(buf, size, "%s/include/cooperative_groups.h", roots[i]);
        if (n < 0 || (size_t)n >= size || access(buf, R_OK) != 0)
            continue;
        buf[n - (int)strlen("/cooperative_groups.h")] = '\0';
        return buf;
    }
    return NULL;
}

/* Builds the option list: defines, include directories, the source's own directory,
 * the toolkit's include directory (searched last), the user's options, and a last slot
 * for the architecture (left NULL when the user's options name one). Returns the array
 * (its strings malloc'd, NULL-terminated) or NULL. */
static char **build_options(const lat__source *src, const char *toolkit, int *count,
                            int *arch_slot)
{
    size_t n = 6;
    for (const char *const *p = src->defines; p && *p; p++)
        n++;
    for (const char *const *p = src->include_dirs; p && *p; p++)
        n++;
    for (const char *const *p = src->options; p && *p; p++)
        n++;
    char **opts = calloc(n + 1, sizeof *opts);
    if (!opts)
        return NULL;
    int k = 0, bad = 0;
    for (const char *const *p = src->defines; p && *p && !bad; p++)
        bad = !(opts[k++] = format("--define-macro=%s", *p));
    for (const char *const *p = src->include_dirs; p && *p && !bad; p++)
        bad = !(opts[k++] = format("--include-path=%s", *p));
    const char *slash = strrchr(src->name, '/');
    if (slash && !bad) {
        int dirlen = slash == src->name ? 1 : (int)(slash - src->name);
        bad = !(opts[k++] = format("--include-path=%.*s", dirlen, src->name));
    }
    if (toolkit && !bad)
        bad = !(opts[k++] = format("--include-path=%s", toolkit));
    /* CUDA 13 keeps libcu++ (which cooperative groups include) in include/cccl */
    char cccl[4200];
    if (toolkit && !bad && snprintf(cccl, sizeof cccl, "%s/cccl/cuda/std/type_traits", toolkit) > 0 &&
        access(cccl, R_OK) == 0)
        bad = !(opts[k++] = format("--include-path=%s/cccl", toolkit));
    /* NVRTC compiles device code only: a function the program does not mark is a
     * __device__ one, as the emulator reads it (NVRTC 13 refuses it otherwise). */
    bool default_device = false;
    for (const char *const *p = src->options; p && *p; p++)
        default_device |= !strcmp(*p, "-default-device") ||
                          !strcmp(*p, "--device-as-default-execution-space");
    if (!default_device && !bad)
        bad = !(opts[k++] = lat__strdup("-default-device"));
    for (const char *const *p = src->options; p && *p && !bad; p++)
        bad = !(opts[k++] = lat__strdup(*p));
    if (bad) {
        for (int i = 0; i < k; i++)
            free(opts[i]);
        free(opts);
        return NULL;
    }
    *arch_slot = k;
    *count = k;
    return opts; /* two slots free: the architecture, ptxas's report */
}

static void free_options(char **opts, int count)
{
    if (!opts)
        return;
    for (int i = 0; i < count; i++)
        free(opts[i]);
    free(opts);
}

/* Copies the code NVRTC produced: the CUBIN, or the PTX (NUL-terminated). */
static nvrtcResult get_code(nvrtcProgram prog, int cubin, char **code, size_t *code_size)
{
    size_t size = 0;
    nvrtcResult r = cubin ? lat__cu.nvrtcGetCUBINSize(prog, &size)
                          : lat__cu.nvrtcGetPTXSize(prog, &size);
    if (r != NVRTC_SUCCESS)
        return r;
    *code = malloc(size + 1);
    if (!*code)
        return NVRTC_ERROR_OUT_OF_MEMORY;
    r = cubin ? lat__cu.nvrtcGetCUBIN(prog, *code) : lat__cu.nvrtcGetPTX(prog, *code);
    (*code)[size] = '\0';
    *code_size = size;
    return r;
}

/* Records the mangled name of every name expression given. A kernel's plain name NVRTC
 * could not lower (a template, a kernel behind #if 0) is skipped: looking it up fails
 * later with the core's "no kernel of that name", which is the truth. Returns 0, -1 when
 * out of memory, or 1 + i when the user's expression i could not be lowered. */
static int get_lowered(nvrtcProgram prog, const name_list *names, cuda_module *m)
{
    if (names->count == 0)
        return 0;
    m->names = calloc((size_t)names->count, sizeof *m->names);
    if (!m->names)
        return -1;
    for (int i = 0; i < names->count; i++) {
        const char *lowered = NULL;
        if (names->skip[i] ||
            lat__cu.nvrtcGetLoweredName(prog, names->items[i], &lowered) != NVRTC_SUCCESS ||
            !lowered) {
            if (i < names->nuser)
                return 1 + i;
            continue;
        }
        lowered_name *ln = &m->names[m->nnames];
        ln->name = lat__strdup(names->items[i]);
        ln->lowered = lat__strdup(lowered);
        if (!ln->name || !ln->lowered) {
            free(ln->name);
            free(ln->lowered);
            return -1;
        }
        m->nnames++;
    }
    return 0;
}

static lat_status load(lat_context *ctx, const lat__source *src, const target *t,
                       const char *code, CUmodule *out)
{
    enum { LOG_SIZE = 16384 };
    char *info_log = calloc(1, LOG_SIZE), *error_log = calloc(1, LOG_SIZE);
    if (!info_log || !error_log) {
        free(info_log);
        free(error_log);
        return lat__oom_for(ctx, "loading %s", src->name);
    }
    CUjit_option opts[] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                           CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {info_log, (void *)(uintptr_t)LOG_SIZE, error_log,
                      (void *)(uintptr_t)LOG_SIZE};
    CUresult r = lat__cu.cuModuleLoadDataEx(out, code, 4, opts, values);
    lat_status st = LAT_OK;
    if (r != CUDA_SUCCESS) {
        error_log[LOG_SIZE - 1] = '\0';
        const char *more = r == CUDA_ERROR_UNSUPPORTED_PTX_VERSION
                               ? "; NVRTC is newer than the driver: update the NVIDIA driver, "
                                 "or point LATTICE_NVRTC_LIBRARY at an NVRTC no newer than it"
                               : "";
        st = lat__error(ctx, lat__cuda_status(r),
                        "cuModuleLoadDataEx(%s, %s for %s_%d): %s (%s)%s%s%s", src->name,
                        t->cubin ? "CUBIN" : "PTX", t->cubin ? "sm" : "compute", t->arch,
                        lat__cuda_error_name(r), lat__cuda_error_string(r), more,
                        error_log[0] ? ":\n" : "", error_log);
    }
    free(info_log);
    free(error_log);
    return st;
}

/* Stores a compiled module in the cache (memory and disk); failures only cost a compile
 * next time. */
static void to_cache(const lat__cache_key *key, const cuda_module *m, const char *log)
{
    lat__cuda_blob b = {
        .cubin = m->cubin,
        .arch = m->arch,
        .code = m->code,
        .code_size = m->code_size,
        .log = (char *)(uintptr_t)log,
        .nspills = m->nspills,
        .spills = m->spills,
    };
    char *names_small[16], *lowered_small[16];
    char **names = names_small, **lowered = lowered_small;
    if (m->nnames > 16) {
        names = calloc((size_t)m->nnames, sizeof *names);
        lowered = calloc((size_t)m->nnames, sizeof *lowered);
    }
    if (names && lowered) {
        for (int i = 0; i < m->nnames; i++) {
            names[i] = m->names[i].name;
            lowered[i] = m->names[i].lowered;
        }
        b.nnames = m->nnames;
        b.names = names;
        b.lowered = lowered;
        void *data = NULL;
        size_t size = 0;
        if (lat__cuda_blob_write(&b, &data, &size) == 0)
            lat__cache_put(key, true, data, size);
        free(data);
    }
    if (names != names_small)
        free(names);
    if (lowered != lowered_small)
        free(lowered);
}

/* Loads the module from the cache. LAT_ERROR_KERNEL_NOT_FOUND (never otherwise returned
 * here) means a miss: compile. */
static lat_status from_cache(lat_context *ctx, lat_module *mod, const lat__source *src,
                             const lat__cache_key *key, double t0)
{
    void *data = NULL;
    size_t size = 0;
    int origin = 0;
    if (!lat__cache_get(key, true, &data, &size, &origin))
        return LAT_ERROR_KERNEL_NOT_FOUND;
    lat__cuda_blob b;
    int bad = lat__cuda_blob_read(data, size, &b);
    free(data);
    if (bad)
        return LAT_ERROR_KERNEL_NOT_FOUND;
    cuda_module *m = calloc(1, sizeof *m);
    if (m && b.nnames)
        m->names = calloc((size_t)b.nnames, sizeof *m->names);
    if (!m || (b.nnames && !m->names)) {
        free(m);
        lat__cuda_blob_free(&b);
        return lat__oom_for(ctx, "loading %s", src->name);
    }
    for (int i = 0; i < b.nnames; i++) {
        m->names[i].name = b.names[i];
        m->names[i].lowered = b.lowered[i];
        b.names[i] = b.lowered[i] = NULL;
    }
    m->nnames = b.nnames;
    m->cxx = compiled_as_cxx(src);
    m->code = b.code;
    m->code_size = b.code_size;
    m->cubin = b.cubin;
    m->arch = b.arch;
    m->spills = b.spills;
    m->nspills = b.nspills;
    char *log = b.log;
    b.code = NULL;
    b.log = NULL;
    b.spills = NULL;
    b.nspills = 0;
    lat__cuda_blob_free(&b);
    target t;
    set_target(&t, m->arch, m->cubin);
    lat_status st = load(ctx, src, &t, m->code, &m->cu);
    if (st != LAT_OK) {
        /* Code the driver no longer takes (a driver downgrade): compile afresh. */
        free_module(m);
        free(log);
        return LAT_ERROR_KERNEL_NOT_FOUND;
    }
    lat__log(ctx, LAT_LOG_INFO, "%s: loaded from the compile cache (%s) in %.2f ms", src->name,
             origin == LAT_MODULE_DISK_CACHE ? "disk" : "memory", now_ms() - t0);
    mod->impl = m;
    mod->log = log;
    mod->origin = origin;
    return LAT_OK;
}

lat_status lat__cuda_module_load(lat_context *ctx, lat_module *mod, const void *image,
                                 size_t size, lat_code_kind kind)
{
    lat_status st = lat__cuda_enter(ctx);
    if (st != LAT_OK)
        return st;
    cuda_module *m = calloc(1, sizeof *m);
    char *code = malloc(size + 1);
    if (!m || !code) {
        free(m);
        free(code);
        return lat__oom_for(ctx, "loading %s", mod->name);
    }
    memcpy(code, image, size);
    code[size] = '\0';
    m->code = code;
    m->code_size = size;
    m->cubin = kind == LAT_CODE_CUBIN;
    enum { LOG_SIZE = 16384 };
    char *error_log = calloc(1, LOG_SIZE);
    if (!error_log) {
        free_module(m);
        return lat__oom_for(ctx, "loading %s", mod->name);
    }
    CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *values[] = {error_log, (void *)(uintptr_t)LOG_SIZE};
    CUresult r = lat__cu.cuModuleLoadDataEx(&m->cu, m->code, 2, opts, values);
    if (r != CUDA_SUCCESS) {
        error_log[LOG_SIZE - 1] = '\0';
        /* The driver compiles PTX when loading it: its rejections are compile errors. */
        lat_status status = r == CUDA_ERROR_INVALID_PTX || r == CUDA_ERROR_UNSUPPORTED_PTX_VERSION
                                ? LAT_ERROR_COMPILE
                                : lat__cuda_status(r);
        st = lat__error(ctx, status,
                        "%s (%s of %zu bytes): cuModuleLoadDataEx: %s (%s)%s%s",
                        mod->name, m->cubin ? "CUBIN" : "PTX", size, lat__cuda_error_name(r),
                        lat__cuda_error_string(r), error_log[0] ? ":\n" : "", error_log);
        free(error_log);
        free_module(m);
        return st;
    }
    free(error_log);
    mod->impl = m;
    return LAT_OK;
}

lat_status lat__cuda_module_create(lat_context *ctx, lat_module *mod, const lat__source *src)
{
    lat_status st = lat__cuda_enter(ctx);
    if (st != LAT_OK)
        return st;

    double t0 = now_ms();
    const int cc = ctx->info.compute_major * 10 + ctx->info.compute_minor;
    target t = {{0}, 0, 0};
    char supported[256];
    int final_choice = 1;
    const char *uarch = user_arch(src);
    if (uarch) {
        t.cubin = strncmp(uarch, "sm_", 3) == 0 && lat__cu.nvrtcGetCUBIN != NULL;
        t.arch = atoi(uarch + (strncmp(uarch, "sm_", 3) == 0 ? 3 : strncmp(uarch, "compute_", 8) == 0 ? 8 : 0));
    } else {
        final_choice = choose_target(ctx, &t, supported, sizeof supported);
        if (final_choice < 0)
            return lat__error(ctx, LAT_ERROR_COMPILE,
                              "%s: NVRTC %d.%d cannot compile for this device (sm_%d): it "
                              "supports %s; use an older CUDA toolkit's NVRTC "
                              "(LATTICE_NVRTC_LIBRARY)",
                              src->name, lat__cu.nvrtc_major, lat__cu.nvrtc_minor, cc,
                              supported);
        if (final_choice && t.arch != cc)
            lat__log(ctx, LAT_LOG_WARNING,
                     "%s: NVRTC %d.%d does not know this device's architecture sm_%d; "
                     "compiling PTX for compute_%d, which the driver compiles on load",
                     src->name, lat__cu.nvrtc_major, lat__cu.nvrtc_minor, cc, t.arch);
    }

    /* The compile cache: a final choice of target is keyed by it and NVRTC's version. */
    lat__cache_key key;
    char compiler[64];
    snprintf(compiler, sizeof compiler, "nvrtc %d.%d", lat__cu.nvrtc_major, lat__cu.nvrtc_minor);
    bool cacheable = final_choice == 1 &&
                     lat__compile_request_digest(
                         &(lat__compile_request){.src = src,
                                                 .backend = "cuda",
                                                 .target = uarch ? uarch : t.option,
                                                 .compiler = compiler,
                                                 .tier = lat__cu.nvrtcGetCUBIN ? "cubin" : "ptx"},
                         &key);
    if (cacheable) {
        st = from_cache(ctx, mod, src, &key, t0);
        if (st != LAT_ERROR_KERNEL_NOT_FOUND)
            return st;
        st = LAT_OK;
        lat__cache_count_miss();
    } else if (lat__cache_enabled()) {
        lat__cache_count_uncacheable();
    }

    double t_keyed = now_ms(); /* the key made and the cache asked */
    char tk[4096];
    const char *toolkit = toolkit_include_dir(tk, sizeof tk);
    program_headers hdrs;
    bool hdrs_ok = make_headers(&hdrs, toolkit, src->text);
    const char *ambient = lat__cu_ambient_text(toolkit);
    char *text = ambient ? wrap_source(src, ambient, hdrs.names, hdrs.n) : NULL;
    int nopts = 0, arch_slot = 0;
    char **opts = build_options(src, toolkit, &nopts, &arch_slot);
    cuda_module *m = calloc(1, sizeof *m);
    nvrtcProgram prog = NULL;
    char *log = NULL, *code = NULL, *first_log = NULL;
    const char **argv = NULL;
    name_list names;
    int names_bad = make_name_list(src, &names);
    if (!text || !opts || !m || names_bad || !hdrs_ok) {
        st = lat__oom_for(ctx, "compiling %s", src->name);
        goto done;
    }
    m->cxx = compiled_as_cxx(src);
    /* What NVRTC is given: opts, the architecture and ptxas's report; a copy, so that an
     * option dropped from it (drop_unknown_relaxation) is still freed with opts. */
    argv = malloc((size_t)(nopts + 2) * sizeof *argv);
    if (!argv) {
        st = lat__oom_for(ctx, "compiling %s", src->name);
        goto done;
    }
    memcpy(argv, opts, (size_t)nopts * sizeof *argv);
    int argc = nopts;
    if (!uarch)
        argv[argc++] = t.option;
    int verbose = t.cubin && !user_ptxas_options(src);
    if (verbose)
        argv[argc++] = ptxas_verbose;

    double t_nvrtc = now_ms();
    nvrtcResult r = compile(text, src->name, &hdrs, argv, argc, &names, &prog, &log);
    for (const char *dropped; r == NVRTC_ERROR_INVALID_OPTION &&
                              (dropped = drop_unknown_relaxation(log, argv, &argc));) {
        lat__log(ctx, LAT_LOG_INFO,
                 "%s: NVRTC %d.%d does not know nvcc's %s; compiled without it (NVRTC "
                 "compiles every function as device code)",
                 src->name, lat__cu.nvrtc_major, lat__cu.nvrtc_minor, dropped);
        destroy_program(&prog);
        free(log);
        r = compile(text, src->name, &hdrs, argv, argc, &names, &prog, &log);
    }
    if (r == NVRTC_ERROR_INVALID_OPTION && verbose) {
        /* An NVRTC that does not pass options to ptxas: no spill report, that is all. */
        argc--;
        verbose = 0;
        destroy_program(&prog);
        free(log);
        r = compile(text, src->name, &hdrs, argv, argc, &names, &prog, &log);
    }
    if (r == NVRTC_ERROR_INVALID_OPTION && !uarch && !final_choice) {
        /* An NVRTC without nvrtcGetSupportedArchs that does not know sm_XY: PTX for
         * the newest architecture it accepts, as PyCUDA users end up doing by hand. */
        for (size_t i = 0; i < sizeof known_archs / sizeof *known_archs &&
                           r == NVRTC_ERROR_INVALID_OPTION; i++) {
            if (known_archs[i] > cc)
                continue;
            set_target(&t, known_archs[i], 0);
            destroy_program(&prog);
            free(log);
            r = compile(text, src->name, &hdrs, argv, argc, &names, &prog, &log);
        }
        if (r == NVRTC_SUCCESS)
            lat__log(ctx, LAT_LOG_WARNING,
                     "%s: NVRTC %d.%d does not know this device's architecture sm_%d; "
                     "compiled PTX for compute_%d instead, which the driver compiles on load",
                     src->name, lat__cu.nvrtc_major, lat__cu.nvrtc_minor, cc, t.arch);
    }
    if (r == NVRTC_ERROR_COMPILATION && !m->cxx && refused_for_c_linkage(log)) {
        /* PyCUDA's wrap gives every declaration C linkage, which C++ refuses to templates
         * and overloads ("this declaration may not have extern "C" linkage"): such a
         * program is compiled as written, as the emulator reads it, its kernels found by
         * their mangled names. */
        lat__source as_written = *src;
        as_written.no_extern_c = true;
        char *text2 = wrap_source(&as_written, ambient, hdrs.names, hdrs.n);
        name_list names2;
        if (!text2 || make_name_list(&as_written, &names2)) {
            free(text2);
            st = lat__oom_for(ctx, "compiling %s", src->name);
            goto done;
        }
        free(text);
        free_name_list(&names);
        text = text2;
        names = names2;
        m->cxx = 1;
        destroy_program(&prog);
        free(log);
        r = compile(text, src->name, &hdrs, argv, argc, &names, &prog, &log);
    }
    if (r == NVRTC_ERROR_COMPILATION && names.count && mark_failed_names(log, &names) > 0) {
        /* Compile once more without the names NVRTC could not resolve: those kernels
         * cannot be found by their plain names, the others still can, and a real error
         * in the user's code shows in this log without the name-lookup noise. */
        destroy_program(&prog);
        first_log = log;
        r = compile(text, src->name, &hdrs, argv, argc, &names, &prog, &log);
        char *list = NULL, *user = NULL;
        size_t len = 0, ulen = 0;
        for (int i = 0; i < names.count; i++) {
            if (!names.skip[i])
                continue;
            if (i < names.nuser) {
                (void)lat__strbuf_printf(&user, &ulen, "%s'%s'", user ? ", " : "", names.items[i]);
                continue;
            }
            /* A template's own name, whose instantiations the user names: nothing to say. */
            size_t n = strlen(names.items[i]);
            bool named = false;
            for (int j = 0; j < names.nuser && !named; j++)
                named = strncmp(names.items[j], names.items[i], n) == 0 &&
                        (names.items[j][n] == '<' || names.items[j][n] == ' ');
            if (!named)
                (void)lat__strbuf_printf(&list, &len, "%s'%s'", list ? ", " : "", names.items[i]);
        }
        if (r == NVRTC_SUCCESS && user) {
            /* The source compiles: the user's name expressions are what is wrong. */
            st = lat__error(ctx, LAT_ERROR_KERNEL_NOT_FOUND,
                            "%s: the name expression%s %s name%s no function NVRTC can "
                            "instantiate from the source (a template missing, misspelt, or "
                            "given arguments it does not take?); NVRTC %d.%d said:\n%s",
                            src->name, strchr(user, ',') ? "s" : "", user,
                            strchr(user, ',') ? "" : "s", lat__cu.nvrtc_major,
                            lat__cu.nvrtc_minor, first_log ? first_log : "");
        } else if (r == NVRTC_SUCCESS && list) {
            lat__log(ctx, LAT_LOG_WARNING,
                     "%s: compiled as C++ (%s); NVRTC cannot tell which function %s names (a "
                     "template or overloaded __global__ function?), so it cannot be looked up "
                     "by its plain name: declare it extern \"C\" to find it, or name its "
                     "instantiation in lat_module_desc.name_expressions",
                     src->name, src->no_extern_c ? "no_extern_c" : "name expressions", list);
        }
        free(list);
        free(user);
        if (st != LAT_OK)
            goto done;
    }
    if (!log) {
        st = lat__oom_for(ctx, "compiling %s", src->name);
        goto done;
    }
    if (r != NVRTC_SUCCESS) {
        lat_status status = r == NVRTC_ERROR_COMPILATION        ? LAT_ERROR_COMPILE
                            : r == NVRTC_ERROR_INVALID_OPTION   ? LAT_ERROR_INVALID_OPTION
                            : r == NVRTC_ERROR_OUT_OF_MEMORY    ? LAT_ERROR_OUT_OF_MEMORY
                                                                : LAT_ERROR_DRIVER;
        const char *rname = lat__cu.nvrtcGetErrorString(r);
        st = lat__error(ctx, status, "%s: compilation failed (NVRTC %d.%d, %s, %s)%s%s",
                        src->name, lat__cu.nvrtc_major, lat__cu.nvrtc_minor,
                        uarch ? uarch : t.option + 19, rname ? rname : "NVRTC error",
                        log[0] ? ":\n" : "", log);
        goto done;
    }
    size_t code_size = 0;
    r = get_code(prog, t.cubin, &code, &code_size);
    if (r != NVRTC_SUCCESS) {
        st = lat__nvrtc_fail(ctx, LAT_ERROR_DRIVER, r, "%s(%s)",
                             t.cubin ? "nvrtcGetCUBIN" : "nvrtcGetPTX", src->name);
        goto done;
    }
    int lowered = get_lowered(prog, &names, m);
    if (lowered < 0) {
        st = lat__oom_for(ctx, "compiling %s", src->name);
        goto done;
    }
    if (lowered > 0) {
        st = lat__error(ctx, LAT_ERROR_KERNEL_NOT_FOUND,
                        "%s: NVRTC compiled the source but cannot lower the name expression "
                        "'%s' (nvrtcGetLoweredName)",
                        src->name, names.items[lowered - 1]);
        goto done;
    }
    destroy_program(&prog);
    if (verbose && take_ptxas_report(log, m) != 0) {
        st = lat__oom_for(ctx, "compiling %s", src->name);
        goto done;
    }
    m->code = code;
    m->code_size = code_size;
    m->cubin = t.cubin;
    m->arch = t.arch;
    code = NULL;
    double t1 = now_ms();
    st = load(ctx, src, &t, m->code, &m->cu);
    if (st != LAT_OK)
        goto done;
    double t2 = now_ms();
    if (cacheable)
        to_cache(&key, m, log);
    /* Where a first compile's time goes, beside NVRTC's own (bench/launch compares them). */
    lat__log(ctx, LAT_LOG_INFO, "%s: compiled by NVRTC %d.%d for %s in %.1f ms (the cache key and "
             "lookup %.1f ms, NVRTC %.1f ms), loaded in %.1f ms, stored in the cache in %.1f ms",
             src->name, lat__cu.nvrtc_major, lat__cu.nvrtc_minor, uarch ? uarch : t.option + 19,
             t1 - t0, t_keyed - t0, t1 - t_nvrtc, t2 - t1, now_ms() - t2);
    mod->impl = m;
    mod->log = log;
    log = NULL;
    m = NULL;

done:
    free_name_list(&names);
    free(first_log);
    destroy_program(&prog);
    free_module(m);
    free(code);
    free(log);
    free(text);
    free(argv);
    free(hdrs.complex);
    free(hdrs.helpers);
    free_options(opts, nopts);
    return st;
}

void lat__cuda_module_destroy(lat_module *mod)
{
    cuda_module *m = mod->impl;
    if (!m)
        return;
    if (!atomic_load(&((lat__cuda_ctx *)mod->ctx->impl)->faulted) &&
        lat__cuda_enter(mod->ctx) == LAT_OK && m->cu) {
        CUresult r = lat__cu.cuModuleUnload(m->cu);
        /* After a kernel fault unloading fails, and the module goes with the context. */
        if (lat__cuda_is_kernel_fault(r))
            atomic_store(&((lat__cuda_ctx *)mod->ctx->impl)->faulted, 1);
        else if (r != CUDA_SUCCESS)
            lat__log(mod->ctx, LAT_LOG_WARNING, "cuModuleUnload(%s): %s (%s)", mod->name,
                     lat__cuda_error_name(r), lat__cuda_error_string(r));
    }
    free_module(m);
    mod->impl = NULL;
}

const char *lat__cuda_module_symbol(const lat_module *mod, const char *name)
{
    const cuda_module *m = mod->impl;
    for (int i = 0; m && i < m->nnames; i++)
        if (strcmp(m->names[i].name, name) == 0)
            return m->names[i].lowered;
    return name;
}

lat_status lat__cuda_module_lowered_name(lat_module *mod, const char *expr, const char **out)
{
    const cuda_module *m = mod->impl;
    for (int i = 0; m && i < m->nnames; i++)
        if (strcmp(m->names[i].name, expr) == 0) {
            *out = m->names[i].lowered;
            return LAT_OK;
        }
    /* Wrapped in extern "C", a kernel keeps its plain name. */
    const lat__kernel_sig *sig = lat__kernel_sigs_find(&mod->sigs, expr);
    if (m && !m->cxx && sig && sig->defined) {
        *out = sig->name;
        return LAT_OK;
    }
    return LAT_ERROR_KERNEL_NOT_FOUND;
}

CUmodule lat__cuda_module_handle(const lat_module *mod)
{
    const cuda_module *m = mod->impl;
    return m ? m->cu : NULL;
}
