/*
 * A module's compiler options, read once for the front end (src/front) and the emulator.
 * Programs written for NVRTC pass options that mean nothing on a CPU (-arch=sm_80,
 * --use_fast_math...): they are accepted and ignored, so the same program runs on both
 * backends; the list is docs/dialect.md's. Defines, include directories and --fmad are
 * used. Anything else is left to the backend (o->unknown): the emulator refuses it, naming
 * the option, as guessing would hide a typo; NVRTC may know it. Option text never reaches TinyCC's option parser
 * (which exits the process on an option it does not know).
 */
#include "options.h"
#include "core/alloc.h"

#include "error.h"

#include <stdlib.h>
#include <string.h>

/* Accepted and ignored: exact spellings, and prefixes of NAME=VALUE forms. */
static const char *const ignored[] = {
    "--use_fast_math", "-use_fast_math", "-lineinfo", "--generate-line-info",
    "-default-device", "--device-as-default-execution-space",
    "-restrict", "--restrict", "-extra-device-vectorization",
    "--extra-device-vectorization", "-dlto", "--dlink-time-opt", "-dopt", "-O0", "-O1",
    "-O2", "-O3", "-Wno-deprecated-gpu-targets", "-Wno-deprecated-declarations",
    "--disable-warnings", "-rdc=false", "--relocatable-device-code=false",
    "-ewp", "--extensible-whole-program", "-builtin-move-forward=true",
    "--builtin-move-forward=true", "-builtin-initializer-list=true",
    "--builtin-initializer-list=true", "-no-source-include", "--no-source-include",
    /* nvcc's relaxations: the emulator's front end always has them */
    "--expt-relaxed-constexpr", "-expt-relaxed-constexpr", "--extended-lambda",
    "-extended-lambda", "--expt-extended-lambda", "-expt-extended-lambda",
};

static const char *const ignored_prefixes[] = {
    "-arch=", "--gpu-architecture=", "-std=", "--std=", "--ftz=",
    "-ftz=", "--prec-sqrt=", "-prec-sqrt=", "--prec-div=", "-prec-div=", "--ptxas-options=",
    "-Xptxas=", "--maxrregcount=", "-maxrregcount=", "--dopt=", "-dopt=", "--time=",
    "-time=", "--split-compile=", "-split-compile=", "-split-compile-extended=",
    "--minimal", "-minimal", "--optimization-info=", "-opt-info=",
};

static bool is_ident(const char *s, size_t n)
{
    if (n == 0 || (s[0] >= '0' && s[0] <= '9'))
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_'))
            return false;
    }
    return true;
}

typedef struct list {
    const char **items;
    size_t n, cap;
} list;

static int push(list *l, const char *s)
{
    if (l->n + 2 > l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        const char **p = lat__realloc(l->items, cap * sizeof *p);
        if (!p)
            return -1;
        l->items = p;
        l->cap = cap;
    }
    l->items[l->n++] = s;
    l->items[l->n] = NULL;
    return 0;
}

/* A define must be NAME or NAME=VALUE with no line break, or it could inject text. */
static lat_status check_define(lat_context *ctx, const char *d, const char *from)
{
    const char *eq = strchr(d, '=');
    size_t n = eq ? (size_t)(eq - d) : strlen(d);
    if (!is_ident(d, n) || strpbrk(d, "\n\r"))
        return lat__error(ctx, LAT_ERROR_INVALID_OPTION,
                          "%s '%s' is not NAME or NAME=VALUE (one line)",
                          from, d);
    return LAT_OK;
}

static const char *value_of(const char *opt, const char *const *long_forms, const char *next)
{
    for (const char *const *p = long_forms; *p; p++) {
        size_t n = strlen(*p);
        if (strncmp(opt, *p, n) == 0 && opt[n] == '=')
            return opt + n + 1;
        if (strcmp(opt, *p) == 0)
            return next;
    }
    return NULL;
}

lat_status lat__options_read(lat_context *ctx, const lat__source *src, lat__options *o)
{
    memset(o, 0, sizeof *o);
    list defs = {0}, undefs = {0}, incs = {0};
    lat_status st = LAT_OK;
    bool oom = push(&defs, NULL) != 0 || push(&undefs, NULL) != 0 || push(&incs, NULL) != 0;
    defs.n = undefs.n = incs.n = 0;
    for (const char *const *d = src->defines; d && *d && !oom && st == LAT_OK; d++) {
        st = check_define(ctx, *d, "the define");
        if (st == LAT_OK)
            oom = push(&defs, *d) != 0;
    }
    static const char *const def_long[] = {"--define-macro", NULL};
    static const char *const undef_long[] = {"--undefine-macro", NULL};
    static const char *const inc_long[] = {"--include-path", NULL};
    for (const char *const *p = src->options; p && *p && !oom && st == LAT_OK; p++) {
        const char *opt = *p, *next = p[1];
        const char *v;
        bool took_next = false;
        if (opt[0] == '-' && opt[1] == 'D') {
            v = opt[2] ? opt + 2 : next;
            took_next = !opt[2];
            if (!v)
                st = lat__error(ctx, LAT_ERROR_INVALID_OPTION,
                                "option '-D' needs a NAME or NAME=VALUE");
            else if ((st = check_define(ctx, v, "option -D")) == LAT_OK)
                oom = push(&defs, v) != 0;
        } else if ((v = value_of(opt, def_long, next)) != NULL) {
            took_next = v == next;
            if ((st = check_define(ctx, v, "option --define-macro")) == LAT_OK)
                oom = push(&defs, v) != 0;
        } else if ((opt[0] == '-' && opt[1] == 'U') || (v = value_of(opt, undef_long, next))) {
            if (opt[1] == 'U') {
                v = opt[2] ? opt + 2 : next;
                took_next = !opt[2];
            } else {
                took_next = v == next;
            }
            if (!v || !is_ident(v, strlen(v)))
                st = lat__error(ctx, LAT_ERROR_INVALID_OPTION,
                                "option '%s' needs a macro name", opt);
            else
                oom = push(&undefs, v) != 0;
        } else if ((opt[0] == '-' && opt[1] == 'I') || (v = value_of(opt, inc_long, next))) {
            if (opt[1] == 'I') {
                v = opt[2] ? opt + 2 : next;
                took_next = !opt[2];
            } else {
                took_next = v == next;
            }
            if (!v || !*v)
                st = lat__error(ctx, LAT_ERROR_INVALID_OPTION,
                                "option '%s' needs a directory", opt);
            else
                oom = push(&incs, v) != 0;
        } else if (strcmp(opt, "-G") == 0 || strcmp(opt, "--device-debug") == 0) {
            /* NVRTC's device debug: the emulator builds the module for a debugger. */
            o->device_debug = true;
        } else if (strcmp(opt, "-w") == 0 || strcmp(opt, "--disable-warnings") == 0) {
            o->no_warnings = true;
        } else if (strncmp(opt, "--fmad=", 7) == 0 || strncmp(opt, "-fmad=", 6) == 0) {
            /* NVRTC contracts multiply-adds unless told not to; so does the emulator. */
            const char *b = strchr(opt, '=') + 1;
            if (strcmp(b, "false") == 0 || strcmp(b, "0") == 0)
                o->no_fmad = true;
            else if (strcmp(b, "true") == 0 || strcmp(b, "1") == 0)
                o->no_fmad = false;
            else
                st = lat__error(ctx, LAT_ERROR_INVALID_OPTION,
                                "option '%s' takes true or false", opt);
        } else {
            bool known = false;
            for (size_t i = 0; i < sizeof ignored / sizeof ignored[0] && !known; i++)
                known = strcmp(opt, ignored[i]) == 0;
            for (size_t i = 0; i < sizeof ignored_prefixes / sizeof ignored_prefixes[0] && !known; i++)
                known = strncmp(opt, ignored_prefixes[i], strlen(ignored_prefixes[i])) == 0;
            /* -arch sm_80: the two-word form. */
            if (!known && (strcmp(opt, "-arch") == 0 || strcmp(opt, "--gpu-architecture") == 0) &&
                next) {
                known = true;
                took_next = true;
            }
            if (!known && !o->unknown)
                o->unknown = opt;
        }
        if (took_next && next)
            p++;
    }
    o->defines = defs.items;
    o->undefines = undefs.items;
    o->include_dirs = incs.items;
    if (oom)
        return lat__oom(ctx);
    return st;
}

void lat__options_free(lat__options *o)
{
    free(o->defines);
    free(o->undefines);
    free(o->include_dirs);
    memset(o, 0, sizeof *o);
}
