/*
 * lattice — runs a CUDA C kernel file on generated inputs, with the emulator's checks,
 * and draws which thread touched which element.
 *
 *   lattice run FILE.cu KERNEL [options] [--then KERNEL [step options]]...
 *   lattice list [--why] FILE.cu   (--why: how each kernel's threads run on the emulator, and why)
 *
 * Every pointer parameter gets a device buffer of --n elements of its pointee type (the
 * same buffer for parameters of the same name in later steps); `const` ones are filled
 * with 0, 1, 2, ... (all of them with --fill all; __half and __nv_bfloat16 ones rounded to
 * their type), the others start unwritten, so that initcheck sees a kernel read what
 * nothing wrote. Integer scalars default to n, floating ones (half types too) to 1.5;
 * --arg NAME=VALUE sets one. After each step the non-const buffers are
 * printed, then the checks' reports. Exit status: 0 when every launch succeeded with no
 * report, 1 when not, 2 for a usage error.
 */
#include <lattice.h>

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { MAX_STEPS = 16, MAX_ARGS = 64, MAX_BUFS = 64 };

static const char usage_text[] =
    "usage: lattice run FILE.cu KERNEL [options] [--then KERNEL [step options]]...\n"
    "       lattice list [--why] FILE.cu   (--why: how each kernel's threads run, and why)\n"
    "       lattice --help | --version\n"
    "\n"
    "step options (apply to the kernel they follow):\n"
    "  -g, --grid X[,Y[,Z]]     blocks in the grid (default 1, or enough for n threads)\n"
    "  -b, --block X[,Y[,Z]]    threads per block (default 256, or n when smaller)\n"
    "      --shared BYTES       dynamic shared memory per block\n"
    "  -m, --map NAME           record which block and thread wrote each element of NAME\n"
    "      --svg PATH           draw the map as SVG (and --png PATH as PNG, with\n"
    "      --png PATH           rsvg-convert or ImageMagick's convert)\n"
    "      --text               print the map as a table\n"
    "      --reads              map the last reader instead of the last writer\n"
    "      --columns N          elements per row of the map\n"
    "options:\n"
    "  -n, --n N                elements of every buffer (default: the first step's threads)\n"
    "  -a, --arg NAME=VALUE     a scalar parameter's value\n"
    "      --fill inputs|all    fill const buffers only (default), or every buffer\n"
    "  -c, --check LIST         memcheck,racecheck,synccheck,initcheck, all (default) or none\n"
    "  -s, --schedule S         forward (default), reverse, random[:SEED], optionally ,preempt\n"
    "      --show N             elements of each buffer printed (default 8; 0: all)\n"
    "  -D NAME[=VALUE]          a preprocessor definition\n";

typedef struct step {
    const char *kernel;
    unsigned grid[3], block[3];
    bool grid_set, block_set;
    size_t shared;
    const char *map, *svg, *png;
    bool text, reads;
    size_t columns;
} step;

typedef struct buffer {
    char name[128];
    lat_deviceptr ptr;
    size_t elem, count;
    size_t comp; /* bytes of one component: elem for a scalar, 4 for a float4's */
    bool is_float, is_signed;
    const struct f16 *f16; /* 2-byte float components: their format */
} buffer;

typedef struct opts {
    const char *file;
    step steps[MAX_STEPS];
    int nsteps;
    size_t n;
    bool n_set;
    const char *args[MAX_ARGS];
    int nargs;
    bool fill_all;
    unsigned checks;
    const char *schedule;
    size_t show;
    const char *defines[MAX_ARGS + 1];
    int ndefines;
} opts;

/* A usage error: why, then the usage, on stderr (exit status 2). */
/* A lattice call failed: its message, unless the library wrote it to stderr already
 * (LATTICE_LOG at "error" or more, its default). */
static void failed(void)
{
    if (lat_log_stderr_level() < LAT_LOG_ERROR)
        fprintf(stderr, "lattice: %s\n", lat_last_error());
}

static int usage(const char *why)
{
    if (why)
        fprintf(stderr, "lattice: %s\n\n", why);
    fputs(usage_text, stderr);
    return 2;
}

static bool parse_dim(const char *s, unsigned d[3])
{
    d[0] = d[1] = d[2] = 1;
    for (int k = 0; k < 3; k++) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(s, &end, 10);
        if (end == s || errno || v == 0 || v > 0x7fffffffUL)
            return false;
        d[k] = (unsigned)v;
        if (*end == '\0')
            return true;
        if (*end != ',' && *end != 'x')
            return false;
        s = end + 1;
    }
    return false;
}

static bool parse_size(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || *end || errno)
        return false;
    *out = (size_t)v;
    return true;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0)
            break;
        if (len + 1 == cap) {
            char *p = realloc(buf, cap *= 2);
            if (!p) {
                free(buf);
                buf = NULL;
            }
            buf = p;
        }
    }
    fclose(f);
    if (buf)
        buf[len] = '\0';
    return buf;
}

/* ---- 16-bit floats ------------------------------------------------------------------------ */

/* <cuda_fp16.h>'s __half (binary16) and <cuda_bf16.h>'s __nv_bfloat16: bits of
 * mantissa and of exponent. */
typedef struct f16 {
    int mbits, ebits;
} f16;
static const f16 binary16 = {10, 5}, bfloat16 = {7, 8};

/* The format of a 16-bit float type as the kernel writes it. */
static const f16 *f16_of(const char *type)
{
    return strstr(type, "bfloat16") ? &bfloat16 : &binary16;
}

/* d rounded to the nearest (ties to even), as __float2half_rn and __double2bfloat16 do. */
static uint16_t f16_bits(const f16 *f, double d)
{
    uint16_t sign = signbit(d) ? 0x8000 : 0;
    int bias = (1 << (f->ebits - 1)) - 1, emin = 1 - bias;
    uint16_t inf = (uint16_t)(((1u << f->ebits) - 1) << f->mbits);
    if (isnan(d))
        return sign | inf | (uint16_t)(1u << (f->mbits - 1));
    d = fabs(d);
    if (isinf(d))
        return sign | inf;
    int e;
    frexp(d, &e);
    int lead = d == 0 || e - 1 < emin ? emin : e - 1;
    /* A multiple of the quantum at d's exponent: exact, then rounded once. */
    double v = nearbyint(ldexp(d, f->mbits - lead));
    v = ldexp(v, lead - f->mbits);
    if (v == 0)
        return sign;
    frexp(v, &e);
    lead = e - 1;
    if (lead > bias)
        return sign | inf;
    if (lead < emin) /* subnormal */
        return sign | (uint16_t)ldexp(v, f->mbits - emin);
    uint32_t mant = (uint32_t)ldexp(v, f->mbits - lead) - (1u << f->mbits);
    return sign | (uint16_t)((uint32_t)(lead + bias) << f->mbits) | (uint16_t)mant;
}

static double f16_value(const f16 *f, uint16_t h)
{
    int bias = (1 << (f->ebits - 1)) - 1;
    unsigned e = (h >> f->mbits) & ((1u << f->ebits) - 1), m = h & ((1u << f->mbits) - 1);
    double v = e == 0 ? ldexp(m, 1 - bias - f->mbits)
               : e == (1u << f->ebits) - 1 ? (m ? NAN : INFINITY)
                                           : ldexp(m + (1u << f->mbits), (int)e - bias - f->mbits);
    return h & 0x8000 ? -v : v;
}

/* ---- printing --------------------------------------------------------------------------- */

static void print_scalar(const buffer *b, size_t size, const unsigned char *p)
{
    if (b->is_float && size == 2 && b->f16) {
        uint16_t h;
        memcpy(&h, p, 2);
        printf("%g", f16_value(b->f16, h));
    } else if (b->is_float && size == 4) {
        float v;
        memcpy(&v, p, 4);
        printf("%g", (double)v);
    } else if (b->is_float && size == 8) {
        double v;
        memcpy(&v, p, 8);
        printf("%g", v);
    } else {
        uint64_t u = 0;
        memcpy(&u, p, size < 8 ? size : 8);
        if (b->is_signed && size < 8 && (u >> (size * 8 - 1) & 1))
            u |= ~(uint64_t)0 << (size * 8);
        if (b->is_signed)
            printf("%" PRId64, (int64_t)u);
        else
            printf("%" PRIu64, u);
    }
}

/* An element: a scalar, or a vector's components in parentheses. */
static void print_value(const buffer *b, const unsigned char *p)
{
    if (b->comp == b->elem) {
        print_scalar(b, b->elem, p);
        return;
    }
    printf("(");
    for (size_t c = 0; c < b->elem / b->comp; c++) {
        printf("%s", c ? ", " : "");
        print_scalar(b, b->comp, p + c * b->comp);
    }
    printf(")");
}

static void print_buffer(lat_context *ctx, const buffer *b, size_t show)
{
    unsigned char *h = malloc(b->elem * b->count);
    if (!h || lat_memcpy_dtoh(ctx, h, b->ptr, b->elem * b->count) != LAT_OK) {
        printf("  %s: (cannot read: %s)\n", b->name, lat_last_error());
        free(h);
        return;
    }
    printf("  %s = [", b->name);
    size_t n = b->count, head = show == 0 || n <= show ? n : show - 1;
    for (size_t i = 0; i < head; i++) {
        printf("%s", i ? ", " : "");
        print_value(b, h + i * b->elem);
    }
    if (head < n) {
        printf(", ..., ");
        print_value(b, h + (n - 1) * b->elem);
    }
    printf("]\n");
    free(h);
}

static void print_reports(lat_context *ctx)
{
    size_t n = lat_check_report_count(ctx);
    for (size_t i = 0; i < n; i++)
        printf("  %s\n", lat_check_report_get(ctx, i)->message);
}

/* Writes the map of b after step s: SVG, PNG, text, and the elements nobody wrote. */
static int write_map(lat_context *ctx, const step *s, const buffer *b)
{
    lat_check_map m;
    if (lat_check_map_get(ctx, b->ptr, &m) != LAT_OK) {
        failed();
        return 1;
    }
    lat_check_map_style style = {.columns = s->columns, .show_reads = s->reads};
    size_t untouched = 0, first = 0, last = 0;
    for (size_t i = 0; i < m.count; i++)
        if ((s->reads ? m.cells[i].reads : m.cells[i].writes) == 0) {
            if (untouched++ == 0)
                first = i;
            last = i;
        }
    if (untouched)
        printf("  note: %zu of the %zu elements of '%s' were never %s (the first is [%zu], "
               "the last [%zu])\n", untouched, m.count, b->name, s->reads ? "read" : "written",
               first, last);
    if (s->text) {
        char *t;
        if (lat_check_map_text(&m, &style, &t) == LAT_OK) {
            fputs(t, stdout);
            free(t);
        }
    }
    if (s->svg || s->png) {
        char *svg;
        if (lat_check_map_svg(&m, &style, &svg) != LAT_OK) {
            failed();
            return 1;
        }
        char tmp[64] = "";
        const char *path = s->svg;
        if (!path) {
            snprintf(tmp, sizeof tmp, "/tmp/lattice-map-%ld.svg", (long)getpid());
            path = tmp;
        }
        FILE *f = fopen(path, "w");
        if (!f || fputs(svg, f) < 0 || fclose(f) != 0) {
            fprintf(stderr, "lattice: cannot write %s: %s\n", path, strerror(errno));
            free(svg);
            return 1;
        }
        free(svg);
        if (s->svg)
            printf("  map of '%s' written to %s\n", b->name, s->svg);
        if (s->png) {
            /* Paths are passed in single quotes; a quote in one is refused. */
            if (strchr(path, '\'') || strchr(s->png, '\'')) {
                fprintf(stderr, "lattice: a path with a quote cannot be converted to PNG\n");
                return 1;
            }
            char cmd[2200];
            snprintf(cmd, sizeof cmd,
                     "if command -v rsvg-convert >/dev/null 2>&1; then rsvg-convert -o '%s' '%s';"
                     " elif command -v convert >/dev/null 2>&1; then convert '%s' '%s';"
                     " else exit 127; fi", s->png, path, path, s->png);
            int rc = system(cmd);
            if (tmp[0])
                remove(tmp);
            /* A missing converter costs the PNG only: the run, its reports and the other
             * outputs stand, and so does the exit status. */
            if (rc != 0)
                fprintf(stderr, "lattice: no PNG written to %s: %s\n", s->png,
                        WIFEXITED(rc) && WEXITSTATUS(rc) == 127
                            ? "neither rsvg-convert nor convert is installed (Debian: "
                              "librsvg2-bin or imagemagick); the other outputs are written"
                            : "the converter failed");
            else
                printf("  map of '%s' written to %s\n", b->name, s->png);
        }
    }
    return 0;
}

/* ---- running ------------------------------------------------------------------------------ */

static buffer *find_buffer(buffer *bufs, int nbufs, const char *name)
{
    for (int i = 0; i < nbufs; i++)
        if (strcmp(bufs[i].name, name) == 0)
            return &bufs[i];
    return NULL;
}

static const char *arg_value(const opts *o, const char *name)
{
    size_t n = strlen(name);
    for (int i = 0; i < o->nargs; i++)
        if (strncmp(o->args[i], name, n) == 0 && o->args[i][n] == '=')
            return o->args[i] + n + 1;
    return NULL;
}

/* Makes the buffer of a pointer parameter, filled when it is an input. -1: it cannot
 * (said on stderr). */
static int make_buffer(lat_context *ctx, const opts *o, const lat_check_param *p, buffer *b)
{
    snprintf(b->name, sizeof b->name, "%s", *p->name ? p->name : "?");
    if (!p->pointee_size) {
        /* A guessed size made a buffer too small, and false out-of-bounds reports. */
        fprintf(stderr,
                "lattice: parameter '%s' is a %s: lattice run sizes buffers of C's scalar types, "
                "the CUDA vector types, <stdint.h>'s and the half types, not of what this "
                "points to\n",
                b->name, p->type);
        return -1;
    }
    b->elem = p->pointee_size;
    b->comp = b->elem / (p->pointee_components ? p->pointee_components : 1);
    b->count = o->n;
    b->is_float = p->is_float;
    b->is_signed = p->is_signed;
    b->f16 = b->is_float && b->comp == 2 ? f16_of(p->type) : NULL;
    if (lat_mem_alloc(ctx, b->elem * b->count, &b->ptr) != LAT_OK)
        return 1;
    lat_check_label(ctx, b->ptr, b->name);
    bool input = strstr(p->type, "const") != NULL;
    if (!input && !o->fill_all)
        return 0;
    unsigned char *h = malloc(b->elem * b->count);
    if (!h)
        return 1;
    /* 0, 1, 2, ... through the components: a float2 buffer holds (0, 1), (2, 3), ... */
    size_t ncomp = b->elem / b->comp;
    for (size_t i = 0; i < b->count * ncomp; i++) {
        unsigned char *e = h + i * b->comp;
        if (b->f16) {
            uint16_t v = f16_bits(b->f16, (double)i);
            memcpy(e, &v, 2);
        } else if (b->is_float && b->comp == 4) {
            float v = (float)i;
            memcpy(e, &v, 4);
        } else if (b->is_float && b->comp == 8) {
            double v = (double)i;
            memcpy(e, &v, 8);
        } else {
            uint64_t v = i;
            memcpy(e, &v, b->comp < 8 ? b->comp : 8);
        }
    }
    lat_status st = lat_memcpy_htod(ctx, b->ptr, h, b->elem * b->count);
    free(h);
    return st != LAT_OK;
}

static int run(const opts *o)
{
    char *src = read_file(o->file);
    if (!src) {
        fprintf(stderr, "lattice: cannot read %s: %s\n", o->file, strerror(errno));
        return 2;
    }
    lat_context *ctx = NULL;
    lat_module *mod = NULL;
    lat_context_desc desc = {.backend = LAT_BACKEND_EMU, .check = o->checks ? o->checks : LAT_CHECK_OFF};
    int status = 0;
    if (o->schedule && setenv("LATTICE_SCHEDULE", o->schedule, 1) != 0)
        status = 2;
    if (status == 0 && lat_context_create(&desc, &ctx) != LAT_OK) {
        failed();
        free(src);
        return 2;
    }
    const char *defines[MAX_ARGS + 1];
    memcpy(defines, o->defines, sizeof defines);
    defines[o->ndefines] = NULL;
    /* A template's instance named on the command line, scale<float>: made as NVRTC's name
     * expressions make it (the source need not instantiate it). */
    const char *exprs[MAX_STEPS + 1];
    int nexprs = 0;
    for (int si = 0; si < o->nsteps; si++)
        if (strchr(o->steps[si].kernel, '<'))
            exprs[nexprs++] = o->steps[si].kernel;
    exprs[nexprs] = NULL;
    if (lat_module_create(ctx, &(lat_module_desc){.path = o->file, .defines = defines,
                                                  .name_expressions = nexprs ? exprs : NULL},
                          &mod) != LAT_OK) {
        failed();
        lat_context_destroy(ctx);
        free(src);
        return 1;
    }
    static buffer bufs[MAX_BUFS];
    int nbufs = 0;
    static char checks_text[128];
    checks_text[0] = '\0';
    static const char *const names[] = {"memcheck", "racecheck", "synccheck", "initcheck"};
    for (int i = 0; i < 4; i++)
        if (o->checks & (1u << i))
            snprintf(checks_text + strlen(checks_text), sizeof checks_text - strlen(checks_text),
                     "%s%s", *checks_text ? "," : "", names[i]);
    for (int si = 0; si < o->nsteps && status != 2; si++) {
        const step *s = &o->steps[si];
        lat_kernel *k;
        if (lat_module_get_kernel(mod, s->kernel, &k) != LAT_OK) {
            failed();
            status = 2;
            break;
        }
        int np = lat_kernel_param_count(k);
        void *params[64];
        union {
            int64_t i;
            uint64_t u;
            double d;
            float f;
            int32_t i32;
            uint32_t u32;
            int16_t i16;
            int8_t i8;
        } values[64];
        if (np > 64) {
            fprintf(stderr, "lattice: kernel '%s' has more than 64 parameters\n", s->kernel);
            status = 2;
            break;
        }
        printf("%s<<<(%u,%u,%u), (%u,%u,%u)>>>%s%s%s\n", s->kernel, s->grid[0], s->grid[1],
               s->grid[2], s->block[0], s->block[1], s->block[2], si == 0 ? " on the emulator" : "",
               si == 0 && *checks_text ? ", checks: " : "", si == 0 ? checks_text : "");
        for (int i = 0; i < np && status != 2; i++) {
            lat_check_param p;
            if (lat_check_kernel_param(k, i, &p) != LAT_OK) {
                failed();
                status = 2;
                break;
            }
            if (p.is_pointer) {
                buffer *b = find_buffer(bufs, nbufs, p.name);
                if (!b) {
                    if (nbufs == MAX_BUFS) {
                        status = 2;
                        break;
                    }
                    b = &bufs[nbufs++];
                    int made = make_buffer(ctx, o, &p, b);
                    if (made != 0) {
                        if (made > 0)
                            failed();
                        status = 2;
                        break;
                    }
                    printf("  %s: %zu x %s%s\n", b->name, b->count, p.type,
                           strstr(p.type, "const") || o->fill_all ? ", filled with 0, 1, 2, ..."
                                                                  : ", not written yet");
                }
                params[i] = &b->ptr;
                continue;
            }
            const char *v = arg_value(o, p.name);
            char dflt[64];
            if (!v) {
                if (p.is_float)
                    snprintf(dflt, sizeof dflt, "1.5");
                else
                    snprintf(dflt, sizeof dflt, "%zu", o->n);
                v = dflt;
            }
            if (p.is_float) {
                double d = strtod(v, NULL);
                if (p.size == 2) {
                    values[i].i16 = (int16_t)f16_bits(f16_of(p.type), d);
                } else if (p.size == 4 && (strstr(p.type, "half2") || strstr(p.type, "bfloat162"))) {
                    uint16_t h = f16_bits(f16_of(p.type), d); /* both halves */
                    values[i].i32 = (int32_t)((uint32_t)h << 16 | h);
                } else if (p.size == 4)
                    values[i].f = (float)d;
                else
                    values[i].d = d;
            } else {
                long long x = strtoll(v, NULL, 0);
                switch (p.size) {
                case 1: values[i].i8 = (int8_t)x; break;
                case 2: values[i].i16 = (int16_t)x; break;
                case 8: values[i].i = x; break;
                default: values[i].i32 = (int32_t)x; break;
                }
            }
            printf("  %s = %s\n", p.name, v);
            params[i] = &values[i];
        }
        if (status == 2)
            break;
        buffer *mapped = NULL;
        if (s->map) {
            mapped = find_buffer(bufs, nbufs, s->map);
            if (!mapped) {
                fprintf(stderr, "lattice: kernel '%s' has no buffer parameter '%s' to map\n",
                        s->kernel, s->map);
                status = 2;
                break;
            }
            if (lat_check_map_buffer(ctx, mapped->ptr, mapped->elem) != LAT_OK) {
                failed();
                status = 2;
                break;
            }
        }
        lat_status st = lat_launch(k, &(lat_launch_desc){.grid = {s->grid[0], s->grid[1], s->grid[2]},
                                                         .block = {s->block[0], s->block[1], s->block[2]},
                                                         .shared_bytes = s->shared},
                                   params);
        if (lat_check_report_count(ctx) > 0) {
            printf("reports:\n");
            print_reports(ctx);
            status = 1;
        } else if (st != LAT_OK) {
            printf("failed: %s\n", lat_last_error());
            status = 1;
        }
        if (st == LAT_OK || st == LAT_ERROR_CHECK_FAILED)
            for (int i = 0; i < np; i++) {
                lat_check_param p;
                if (lat_check_kernel_param(k, i, &p) == LAT_OK && p.is_pointer &&
                    !strstr(p.type, "const"))
                    print_buffer(ctx, find_buffer(bufs, nbufs, p.name), o->show);
            }
        if (mapped && write_map(ctx, s, mapped) != 0)
            status = status ? status : 1;
        if (st != LAT_OK && st != LAT_ERROR_CHECK_FAILED)
            break;
    }
    for (int i = 0; i < nbufs; i++)
        lat_mem_free(ctx, bufs[i].ptr);
    lat_context_destroy(ctx);
    free(src);
    return status;
}

static int list(const char *file, bool why)
{
    char *src = read_file(file);
    if (!src) {
        fprintf(stderr, "lattice: cannot read %s: %s\n", file, strerror(errno));
        return 2;
    }
    lat_context *ctx;
    lat_module *mod;
    int status = 0;
    if (lat_context_create(&(lat_context_desc){.backend = LAT_BACKEND_EMU, .check = LAT_CHECK_OFF},
                           &ctx) != LAT_OK) {
        failed();
        free(src);
        return 2;
    }
    if (lat_module_create(ctx, &(lat_module_desc){.path = file}, &mod) != LAT_OK) {
        failed();
        status = 1;
    } else {
        /* The kernels as the front end found them: plain ones, and the instances the
         * source makes explicitly (template __global__ void k<float>(float *);). */
        for (int ki = 0; ki < lat_module_kernel_count(mod); ki++) {
            const char *name = lat_module_kernel_name(mod, ki);
            lat_kernel *k;
            if (lat_module_get_kernel(mod, name, &k) != LAT_OK) {
                failed();
                status = 1;
                continue;
            }
            printf("%s(", name);
            for (int i = 0; i < lat_kernel_param_count(k); i++) {
                lat_check_param prm;
                if (lat_check_kernel_param(k, i, &prm) == LAT_OK)
                    printf("%s%s%s%s", i ? ", " : "", prm.type,
                           prm.type[strlen(prm.type) - 1] == '*' ? "" : " ", prm.name);
            }
            printf(")\n");
            if (why) {
                char how[512];
                lat_kernel_describe(k, how, sizeof how);
                printf("    %s\n", how);
            }
        }
    }
    lat_context_destroy(ctx);
    free(src);
    return status;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage("no command");
    /* Asked for, the help is the output: stdout, so that `lattice --help | less` works. */
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("lattice %s (library %s)\n", LAT_VERSION_STRING, lat_version_string());
        return 0;
    }
    if (strcmp(argv[1], "list") == 0)
        return argc == 3   ? list(argv[2], false)
               : argc == 4 && strcmp(argv[2], "--why") == 0 ? list(argv[3], true)
                                                             : usage("list takes one file, after --why or not");
    if (strcmp(argv[1], "run") != 0)
        return usage("the commands are run and list");
    if (argc < 4)
        return usage("run needs a file and a kernel");
    static opts o;
    o.file = argv[2];
    o.checks = LAT_CHECK_ALL;
    o.show = 8;
    o.steps[0].kernel = argv[3];
    o.nsteps = 1;
    for (int i = 4; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        step *s = &o.steps[o.nsteps - 1];
        static const char long_only[] = "\x01"; /* matches no argument */
#define IS(short_, long_) (strcmp(a, short_) == 0 || strcmp(a, long_) == 0)
#define NEED() \
    do { \
        if (!v) \
            return usage("an option needs a value"); \
        i++; \
    } while (0)
        if (IS(long_only, "--then")) {
            NEED();
            if (o.nsteps == MAX_STEPS)
                return usage("too many steps");
            step *n = &o.steps[o.nsteps++];
            n->kernel = v;
            memcpy(n->grid, s->grid, sizeof n->grid);
            memcpy(n->block, s->block, sizeof n->block);
            n->grid_set = s->grid_set;
            n->block_set = s->block_set;
            n->shared = s->shared;
        } else if (IS("-g", "--grid")) {
            NEED();
            if (!parse_dim(v, s->grid))
                return usage("--grid takes X[,Y[,Z]], each at least 1");
            s->grid_set = true;
        } else if (IS("-b", "--block")) {
            NEED();
            if (!parse_dim(v, s->block))
                return usage("--block takes X[,Y[,Z]], each at least 1");
            s->block_set = true;
        } else if (IS(long_only, "--shared")) {
            NEED();
            if (!parse_size(v, &s->shared))
                return usage("--shared takes a number of bytes");
        } else if (IS("-m", "--map")) {
            NEED();
            s->map = v;
        } else if (IS(long_only, "--svg")) {
            NEED();
            s->svg = v;
        } else if (IS(long_only, "--png")) {
            NEED();
            s->png = v;
        } else if (IS(long_only, "--text")) {
            s->text = true;
        } else if (IS(long_only, "--reads")) {
            s->reads = true;
        } else if (IS(long_only, "--columns")) {
            NEED();
            if (!parse_size(v, &s->columns) || s->columns == 0)
                return usage("--columns takes a number above 0");
        } else if (IS("-n", "--n")) {
            NEED();
            if (!parse_size(v, &o.n) || o.n == 0)
                return usage("--n takes a number above 0");
            o.n_set = true;
        } else if (IS("-a", "--arg")) {
            NEED();
            if (!strchr(v, '=') || o.nargs == MAX_ARGS)
                return usage("--arg takes NAME=VALUE");
            o.args[o.nargs++] = v;
        } else if (IS(long_only, "--fill")) {
            NEED();
            if (strcmp(v, "all") != 0 && strcmp(v, "inputs") != 0)
                return usage("--fill takes inputs or all");
            o.fill_all = strcmp(v, "all") == 0;
        } else if (IS("-c", "--check")) {
            NEED();
            if (lat_check_parse_modes(v, &o.checks) != LAT_OK)
                return usage(lat_last_error());
        } else if (IS("-s", "--schedule")) {
            NEED();
            o.schedule = v;
        } else if (IS(long_only, "--show")) {
            NEED();
            if (!parse_size(v, &o.show))
                return usage("--show takes a number");
        } else if (strncmp(a, "-D", 2) == 0) {
            const char *d = a[2] ? a + 2 : v;
            if (!a[2])
                NEED();
            if (!d || o.ndefines == MAX_ARGS)
                return usage("-D takes NAME[=VALUE]");
            o.defines[o.ndefines++] = d;
        } else {
            char why[300];
            snprintf(why, sizeof why, "unknown option '%s'", a);
            return usage(why);
        }
#undef IS
#undef NEED
    }
    /* Defaults: n from the first step's threads, shapes from n. */
    step *s0 = &o.steps[0];
    if (!s0->block_set) {
        size_t b = o.n_set && o.n < 256 ? o.n : 256;
        s0->block[0] = (unsigned)b;
        s0->block[1] = s0->block[2] = 1;
    }
    if (!s0->grid_set) {
        size_t threads = (size_t)s0->block[0] * s0->block[1] * s0->block[2];
        size_t g = o.n_set ? (o.n + threads - 1) / threads : 1;
        s0->grid[0] = (unsigned)(g ? g : 1);
        s0->grid[1] = s0->grid[2] = 1;
    }
    if (!o.n_set)
        o.n = (size_t)s0->grid[0] * s0->grid[1] * s0->grid[2] * s0->block[0] * s0->block[1] *
              s0->block[2];
    for (int i = 1; i < o.nsteps; i++) {
        step *s = &o.steps[i];
        if (!s->block_set)
            memcpy(s->block, s0->block, sizeof s->block);
        if (!s->grid_set)
            memcpy(s->grid, s0->grid, sizeof s->grid);
    }
    if (o.checks == 0)
        for (int i = 0; i < o.nsteps; i++)
            if (o.steps[i].map)
                o.checks = LAT_CHECK_MEMCHECK; /* maps are recorded by the checked launches */
    return run(&o);
}
