/*
 * lattice — runs a CUDA C kernel file on generated inputs, with the emulator's checks,
 * and draws which thread touched which element; or, with -B cuda, on the GPU (unchecked:
 * for NVIDIA's compute-sanitizer, or to compare a GPU's numbers with the emulator's).
 *
 *   lattice run [options] FILE.cu KERNEL [options] [--then KERNEL [step options]]...
 *   lattice list [--why] FILE.cu   (--why: how each kernel's threads run on the emulator, and why)
 *
 * Every pointer parameter gets a device buffer of --n elements of its pointee type (the
 * same buffer for parameters of the same name in later steps); `const` ones are filled
 * with 0, 1, 2, ... (all of them with --fill all; __half and __nv_bfloat16 ones rounded to
 * their type). The others are outputs: under initcheck they start unwritten, so that it
 * sees a kernel read what nothing wrote, and the checked launches record which elements
 * were written; without initcheck they start as zeros (as allocated with --fill
 * inputs-only, so that compute-sanitizer's initcheck sees them unwritten too). Either way
 * an output's elements are printed only once something wrote them ("_" until then) and a
 * note says which never were, so what is printed is the same every run (unchecked, the
 * elements still as filled are counted; with --fill inputs-only nothing can tell). Integer scalars default to n, floating
 * ones (half types too) to 1.5; --arg NAME=VALUE sets one, parsed strictly for the
 * parameter's type (a value that is not a number of that type, or a name no kernel has,
 * is a usage error). After each step the outputs are printed, then the checks' reports.
 * The emulator runs the kernels (-B emu) unless -B names the GPU (cuda), both compared
 * (cross), or the GPU where one is usable (best); LATTICE_BACKEND is not read. What only
 * the emulator can do (checks, maps, the profile, schedules, -G) is refused on a GPU.
 * Exit status: 0 when every launch succeeded with no report and every output asked for
 * (SVG, PNG) was written, 1 when not, 2 for a usage error (a file that is not a regular
 * file among them) or a backend that cannot be used (no GPU), 130 after Ctrl-C, which
 * stops the launch running at once.
 */
#include <lattice.h>

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

enum { MAX_STEPS = 16, MAX_ARGS = 64, MAX_BUFS = 64 };

static const char usage_text[] =
    "usage: lattice run [options] FILE.cu KERNEL [options] [--then KERNEL [step options]]...\n"
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
    "      --fill F             inputs (default): const buffers 0, 1, 2, ..., the others\n"
    "                           zeros; all: every buffer 0, 1, 2, ...; inputs-only: the\n"
    "                           others left as allocated, unwritten for an initcheck\n"
    "                           (compute-sanitizer's too)\n"
    "  -B, --backend B          emu (default): the emulator; cuda: the GPU; cross: both,\n"
    "                           compared after each launch; best: the GPU where one is\n"
    "                           usable and no option needs the emulator, else the emulator\n"
    "                           (the checks, maps, --profile, -s and -G are the emulator's)\n"
    "  -c, --check LIST         memcheck,racecheck,synccheck,initcheck, all (default on the\n"
    "                           emulator; none elsewhere) or none\n"
    "      --profile            count what a GPU's memory system would, per source line\n"
    "                           (docs/profiling.md)\n"
    "  -s, --schedule S         forward (default), reverse, random[:SEED], optionally ,preempt\n"
    "      --show N             elements of each buffer printed (default 8; 0: all)\n"
    "  -D NAME[=VALUE]          a preprocessor definition\n"
    "  -G, --device-debug       build the kernels for gdb or lldb (docs/debugging.md):\n"
    "                           break FILE.cu:LINE if threadIdx.x == 5; checks off\n"
    "                           unless -c is given\n";

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
    bool output;           /* not const: the kernel may write it */
    bool filled;           /* filled before the first launch (inputs; --fill all) */
    /* An output left unwritten before the first launch (initcheck, --fill inputs-only):
     * its bytes are whatever the allocation held. */
    bool left;
    /* Outputs: per element, whether a launch wrote it, as the checked launches' maps
     * record it; NULL when the run is unchecked (then the elements still holding their
     * fill are counted instead). */
    unsigned char *written;
    unsigned char *before; /* outputs, checked: the bytes before the launch */
    /* Elements the last launch changed with accesses the checks do not record (atomics),
     * starting from bytes nothing wrote: their values depend on what the memory held. */
    size_t unseen_from_unwritten;
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
    bool fill_inputs_only; /* --fill inputs-only: outputs left as allocated */
    bool profile; /* --profile: lattice/profile.h's table after each step */
    unsigned checks;
    bool checks_set; /* -c given */
    bool debug;      /* -G: the module built for a debugger */
    const char *schedule;
    size_t show;
    const char *defines[MAX_ARGS + 1];
    int ndefines;
    /* -B: LAT_BACKEND_EMU (the default), _CUDA or _CROSS; -B best is EMU with best set,
     * and run() tries the GPU first. */
    lat_backend_kind backend;
    bool best;
    /* The first option given that only the emulator can do, as typed ("--map out"): the
     * GPU refuses it. -c is judged after parsing, by the modes it left (check_text). */
    char emu_only[160];
    const char *check_text[2]; /* the last -c as typed: option, value */
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

/* Decimal digits only, no sign, blank or suffix: strtoull alone takes " 5", "+5" and
 * "-1" (as 2^64 - 1). */
static bool parse_u64(const char *s, unsigned long long max, unsigned long long *out)
{
    if (*s < '0' || *s > '9')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*end || errno || v > max)
        return false;
    *out = v;
    return true;
}

static bool parse_dim(const char *s, unsigned d[3])
{
    d[0] = d[1] = d[2] = 1;
    for (int k = 0; k < 3; k++) {
        const char *sep = s + strcspn(s, ",x");
        char part[32];
        unsigned long long v;
        if ((size_t)(sep - s) >= sizeof part)
            return false;
        memcpy(part, s, (size_t)(sep - s));
        part[sep - s] = '\0';
        if (!parse_u64(part, 0x7fffffffULL, &v) || v == 0)
            return false;
        d[k] = (unsigned)v;
        if (*sep == '\0')
            return true;
        s = sep + 1;
    }
    return false;
}

static bool parse_size(const char *s, size_t *out)
{
    unsigned long long v;
    if (!parse_u64(s, SIZE_MAX, &v))
        return false;
    *out = (size_t)v;
    return true;
}

/* The most elements a buffer gets (-n): with the largest element (a double4, 32 bytes),
 * 8 GiB a buffer, and the default grid's block count stays far below 2^31. */
#define MAX_N ((size_t)1 << 28)

/* The kernel file must be a regular file: /dev/zero or a FIFO has no end (or blocks), and
 * is refused here, before a context is made, with the reason. The library reads it (and
 * bounds its size) when it compiles it. 0, or 2 (said on stderr). */
static int check_source_file(const char *path)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        fprintf(stderr, "lattice: cannot read %s: %s\n", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return 2;
    }
    close(fd);
    if (!S_ISREG(st.st_mode)) {
        fprintf(stderr, "lattice: %s is %s, not a regular file: lattice reads a kernel from a "
                        "CUDA C source file\n",
                path, S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO"
                      : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device" : "a socket");
        return 2;
    }
    return 0;
}

/* The kernel file's text for the profile's table (NULL when it cannot be read: the table
 * then shows line numbers only). check_source_file has made sure it is a regular file;
 * the size is bounded as the compiler's own reading is. */
static char *read_source_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0, limit = (size_t)64 << 20;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        if (cap >= limit) {
            free(buf);
            buf = NULL;
            break;
        }
        char *grown = realloc(buf, cap * 2 + 1);
        if (!grown) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = grown;
        cap *= 2;
    }
    fclose(f);
    if (buf)
        buf[n] = 0;
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

/* Host copy of what b was filled with before the first launch: 0, 1, 2, ... through the
 * components for an input (a float2 buffer holds (0, 1), (2, 3), ...), zeros for an
 * output. */
static void fill_host(const buffer *b, unsigned char *h)
{
    memset(h, 0, b->elem * b->count);
    if (!b->filled)
        return;
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
}

/* Prints an output. Elements nothing wrote are "_" where the launches were checked and
 * the buffer was not filled (its bytes are whatever the allocation held); the line ends
 * with how many were never written, or, unchecked, how many still hold their fill. */
static void print_buffer(lat_context *ctx, const buffer *b, size_t show)
{
    size_t bytes = b->elem * b->count;
    bool by_fill = !b->written && !b->left; /* unchecked: the elements still as filled */
    unsigned char *h = malloc(bytes), *fill = by_fill ? malloc(bytes) : NULL;
    if (!h || (by_fill && !fill) || lat_memcpy_dtoh(ctx, h, b->ptr, bytes) != LAT_OK) {
        printf("  %s: (cannot read: %s)\n", b->name, h && (!by_fill || fill) ? lat_last_error()
                                                                            : "out of memory");
        free(h);
        free(fill);
        return;
    }
    if (fill)
        fill_host(b, fill);
    size_t unwritten = 0, first = 0, last = 0;
    for (size_t i = 0; i < b->count; i++) {
        bool never = b->written ? !b->written[i]
                                : by_fill && memcmp(h + i * b->elem, fill + i * b->elem, b->elem) == 0;
        if (never && unwritten++ == 0)
            first = i;
        if (never)
            last = i;
    }
    printf("  %s = [", b->name);
    size_t n = b->count, head = show == 0 || n <= show ? n : show - 1;
    for (size_t k = 0; k <= head && k < n; k++) {
        size_t i = k < head ? k : n - 1; /* the first head elements, then the last */
        printf("%s", k == head ? (k ? ", ..., " : "..., ") : k ? ", " : "");
        if (b->written && !b->written[i] && !b->filled)
            printf("_");
        else
            print_value(b, h + i * b->elem);
    }
    printf("]");
    if (unwritten && b->written)
        printf("; %zu of %zu never written (", unwritten, n);
    else if (unwritten) /* unchecked: nothing recorded the writes */
        printf("; %zu of %zu as filled, never written or written alike (checks tell which: ",
               unwritten, n);
    if (unwritten)
        printf(unwritten == 1 ? "[%zu])" : "[%zu] to [%zu])", first, last);
    if (!b->written && b->left)
        printf("; not filled and unchecked: an element no launch wrote holds what the memory "
               "held");
    if (b->unseen_from_unwritten)
        printf("; %zu changed by accesses the checks do not record (atomics) from memory "
               "nothing wrote: their values depend on what it held", b->unseen_from_unwritten);
    printf("\n");
    free(h);
    free(fill);
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
            /* A PNG asked for and not made fails the run (exit status 1), with the reason;
             * the run's other outputs are written all the same. */
            if (rc != 0) {
                if (WIFEXITED(rc) && WEXITSTATUS(rc) == 127)
                    fprintf(stderr, "lattice: no PNG written to %s: neither rsvg-convert nor "
                                    "convert is installed (Debian: librsvg2-bin or imagemagick); "
                                    "the other outputs are written\n", s->png);
                else
                    fprintf(stderr, "lattice: no PNG written to %s: the converter (rsvg-convert "
                                    "or convert) failed, %s %d\n", s->png,
                            WIFEXITED(rc) ? "exit status" : "signal",
                            WIFEXITED(rc) ? WEXITSTATUS(rc) : WIFSIGNALED(rc) ? WTERMSIG(rc) : rc);
                return 1;
            }
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

/* The value of --arg NAME=..., or NULL. */
static const char *arg_value(const opts *o, const char *name)
{
    size_t n = strlen(name);
    for (int i = 0; i < o->nargs; i++)
        if (strncmp(o->args[i], name, n) == 0 && o->args[i][n] == '=')
            return o->args[i] + n + 1;
    return NULL;
}

typedef union value {
    int64_t i64;
    uint64_t u64;
    double d;
    float f;
    int32_t i32;
    uint32_t u32;
    int16_t i16;
    uint16_t u16;
    int8_t i8;
    uint8_t u8;
} value;

/* float2, const int4, uchar3...: a CUDA vector type, which --arg cannot spell. */
static bool is_vector_type(const char *type)
{
    size_t n = strlen(type);
    return n >= 2 && type[n - 1] >= '1' && type[n - 1] <= '4' &&
           ((type[n - 2] >= 'a' && type[n - 2] <= 'z') || (type[n - 2] >= 'A' && type[n - 2] <= 'Z'));
}

/* Parses text as a value of the scalar parameter p, strictly: all of it, in range for the
 * type. false: why holds the reason, in the user's terms. */
static bool parse_scalar(const lat_check_param *p, const char *text, value *v, char *why,
                         size_t whylen)
{
    memset(v, 0, sizeof *v);
    bool pair = strstr(p->type, "half2") || strstr(p->type, "bfloat162");
    /* A struct by value (a functor, a struct of parameters) is not one number: its bytes
     * from a number would be a silent garbage value. The half types are classes too. */
    if ((p->is_record && !p->is_float) || (is_vector_type(p->type) && !pair) ||
        (p->is_float ? !(p->size == 2 || p->size == 4 || p->size == 8)
                     : !(p->size == 1 || p->size == 2 || p->size == 4 || p->size == 8))) {
        snprintf(why, whylen, "parameter '%s' is a %s: lattice run sets parameters of C's "
                 "arithmetic types and the half types, not of this one%s", p->name, p->type,
                 p->is_record && !p->is_float ? " (launch the kernel from a program: lat_launch)" : "");
        return false;
    }
    const char *s = text;
    if (!*s || *s == ' ' || *s == '\t' || *s == '\n') {
        snprintf(why, whylen, "parameter '%s' (%s): '%s' is not a number", p->name, p->type, text);
        return false;
    }
    char *end;
    errno = 0;
    if (p->is_float) {
        double d = strtod(s, &end);
        bool finite_text = isfinite(d) || errno == ERANGE;
        if (end == s || *end) {
            snprintf(why, whylen, "parameter '%s' (%s): '%s' is not a number", p->name, p->type,
                     text);
            return false;
        }
        bool half = p->size == 2 || pair;
        if (finite_text && (errno == ERANGE ? isinf(d)
                            : half ? isinf(f16_value(f16_of(p->type), f16_bits(f16_of(p->type), d)))
                            : p->size == 4 && fabs(d) > FLT_MAX)) {
            snprintf(why, whylen, "parameter '%s' (%s): %s is out of the type's range", p->name,
                     p->type, text);
            return false;
        }
        if (half) {
            uint16_t h = f16_bits(f16_of(p->type), d);
            if (pair) /* both halves */
                v->u32 = (uint32_t)h << 16 | h;
            else
                v->u16 = h;
        } else if (p->size == 4)
            v->f = (float)d;
        else
            v->d = d;
        return true;
    }
    unsigned bits = (unsigned)p->size * 8;
    bool is_bool = strstr(p->type, "bool") != NULL;
    if (is_bool && (strcmp(s, "true") == 0 || strcmp(s, "false") == 0)) {
        v->u8 = s[0] == 't';
        return true;
    }
    bool neg = *s == '-';
    unsigned long long u = 0;
    long long x = 0;
    if (p->is_signed)
        x = strtoll(s, &end, 0);
    else if (!neg)
        u = strtoull(s, &end, 0);
    if (neg && !p->is_signed) {
        snprintf(why, whylen, "parameter '%s' (%s) is unsigned: '%s' is negative", p->name, p->type,
                 text);
        return false;
    }
    if (end == s || *end || (*s == '+')) {
        snprintf(why, whylen, "parameter '%s' (%s): '%s' is not an integer%s", p->name, p->type,
                 text, strpbrk(s, ".eE") ? " (the parameter is not a floating type)" : "");
        return false;
    }
    long long smin = bits == 64 ? LLONG_MIN : -(1LL << (bits - 1));
    long long smax = bits == 64 ? LLONG_MAX : (1LL << (bits - 1)) - 1;
    unsigned long long umax = is_bool ? 1 : bits == 64 ? ULLONG_MAX : (1ULL << bits) - 1;
    if (errno == ERANGE || (p->is_signed ? x < smin || x > smax : u > umax)) {
        if (p->is_signed)
            snprintf(why, whylen, "parameter '%s' (%s): %s is out of its range, %lld to %lld",
                     p->name, p->type, text, smin, smax);
        else
            snprintf(why, whylen, "parameter '%s' (%s): %s is out of its range, 0 to %llu",
                     p->name, p->type, text, umax);
        return false;
    }
    switch (bits) {
    case 8: v->u8 = (uint8_t)(p->is_signed ? (unsigned long long)x : u); break;
    case 16: v->u16 = (uint16_t)(p->is_signed ? (unsigned long long)x : u); break;
    case 32: v->u32 = (uint32_t)(p->is_signed ? (unsigned long long)x : u); break;
    default: v->u64 = p->is_signed ? (unsigned long long)x : u; break;
    }
    return true;
}

/* Makes the buffer of a pointer parameter and fills it (inputs with 0, 1, 2, ...; outputs
 * with zeros unless initcheck must see them unwritten). -1: it cannot (said on stderr);
 * 1: a lattice call failed. */
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
    b->output = strstr(p->type, "const") == NULL;
    b->filled = !b->output || o->fill_all;
    b->left = !b->filled && ((o->checks & LAT_CHECK_INITCHECK) || o->fill_inputs_only);
    if (lat_mem_alloc(ctx, b->elem * b->count, &b->ptr) != LAT_OK)
        return 1;
    if (o->checks) /* the name reports give it */
        lat_check_label(ctx, b->ptr, b->name);
    if (b->output && o->checks && !(b->written = calloc(b->count, 1))) {
        fprintf(stderr, "lattice: out of host memory\n");
        return -1;
    }
    /* Under initcheck an output stays unwritten, so that a read of it is reported; the
     * maps then say which elements were written. */
    if (b->left)
        return 0;
    unsigned char *h = malloc(b->elem * b->count);
    if (!h) {
        fprintf(stderr, "lattice: out of host memory\n");
        return -1;
    }
    fill_host(b, h);
    lat_status st = lat_memcpy_htod(ctx, b->ptr, h, b->elem * b->count);
    free(h);
    return st != LAT_OK;
}

/* Each --arg names a scalar parameter of some step's kernel, and its value parses for
 * every such parameter: checked before anything runs. 0, or 2 (said on stderr). */
static int check_args(const opts *o, lat_kernel *const *kernels)
{
    for (int a = 0; a < o->nargs; a++) {
        const char *arg = o->args[a], *eq = strchr(arg, '=');
        size_t len = (size_t)(eq - arg);
        for (int b = 0; b < a; b++)
            if (strncmp(o->args[b], arg, len + 1) == 0) {
                fprintf(stderr, "lattice: --arg %.*s is given twice\n", (int)len, arg);
                return 2;
            }
        bool found = false;
        char names[512] = "";
        for (int si = 0; si < o->nsteps; si++)
            for (int i = 0; i < lat_kernel_param_count(kernels[si]); i++) {
                lat_check_param p;
                if (lat_check_kernel_param(kernels[si], i, &p) != LAT_OK)
                    continue;
                bool named = strlen(p.name) == len && strncmp(p.name, arg, len) == 0;
                if (named && p.is_pointer) {
                    fprintf(stderr, "lattice: --arg %s: '%s' of kernel '%s' is a pointer; lattice "
                                    "run makes its buffer (-n sets its length)\n",
                            arg, p.name, o->steps[si].kernel);
                    return 2;
                }
                if (p.is_pointer)
                    continue;
                if (!strstr(names, p.name) && strlen(names) + strlen(p.name) + 3 < sizeof names)
                    snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                             *names ? ", " : "", p.name);
                char why[300];
                value v;
                if (named && !parse_scalar(&p, eq + 1, &v, why, sizeof why)) {
                    fprintf(stderr, "lattice: --arg %s: %s\n", arg, why);
                    return 2;
                }
                found = found || named;
            }
        if (!found) {
            fprintf(stderr, "lattice: --arg %s: no kernel of this run has a parameter '%.*s' "
                            "(its scalar parameters: %s)\n",
                    arg, (int)len, arg, *names ? names : "none");
            return 2;
        }
    }
    return 0;
}

/* Maps every output of kernel k, and the buffer --map names, for the launch to come, and
 * keeps the outputs' bytes: an element the launch changed counts as written even where
 * the map did not see it (atomics are not recorded). */
static int map_outputs(lat_context *ctx, lat_kernel *k, buffer *bufs, int nbufs, buffer *mapped)
{
    for (int i = 0; i < lat_kernel_param_count(k); i++) {
        lat_check_param p;
        buffer *b;
        if (lat_check_kernel_param(k, i, &p) != LAT_OK || !p.is_pointer ||
            !(b = find_buffer(bufs, nbufs, p.name)) || !b->written)
            continue;
        if (!b->before && !(b->before = malloc(b->elem * b->count)))
            return 1;
        if (lat_memcpy_dtoh(ctx, b->before, b->ptr, b->elem * b->count) != LAT_OK ||
            lat_check_map_buffer(ctx, b->ptr, b->elem) != LAT_OK)
            return 1;
    }
    return mapped && lat_check_map_buffer(ctx, mapped->ptr, mapped->elem) != LAT_OK;
}

/* After a launch: the elements it wrote, by its maps or by their changed bytes. */
static void note_written(lat_context *ctx, lat_kernel *k, buffer *bufs, int nbufs)
{
    for (int i = 0; i < lat_kernel_param_count(k); i++) {
        lat_check_param p;
        buffer *b;
        lat_check_map m;
        if (lat_check_kernel_param(k, i, &p) != LAT_OK || !p.is_pointer ||
            !(b = find_buffer(bufs, nbufs, p.name)) || !b->written || !b->before ||
            lat_check_map_get(ctx, b->ptr, &m) != LAT_OK)
            continue;
        unsigned char *now = malloc(b->elem * b->count);
        if (!now || lat_memcpy_dtoh(ctx, now, b->ptr, b->elem * b->count) != LAT_OK) {
            free(now);
            now = NULL;
        }
        b->unseen_from_unwritten = 0;
        for (size_t e = 0; e < m.count && e < b->count; e++) {
            bool seen = m.cells[e].writes != 0;
            bool changed = now && memcmp(now + e * b->elem, b->before + e * b->elem, b->elem) != 0;
            if (changed && !seen && !b->written[e] && b->left)
                b->unseen_from_unwritten++;
            b->written[e] |= seen || changed;
        }
        free(now);
    }
}

/* --profile: the step's profile (lattice/profile.h), each row beside its line of file. */
static void print_profile(lat_context *ctx, const char *file)
{
    lat_profile *prof;
    if (lat_profile_get(ctx, &prof) != LAT_OK)
        return;
    char *src = read_source_text(file);
    char *table = lat_profile_format(prof, src);
    if (table)
        printf("%s", table);
    free(table);
    free(src);
    lat_profile_free(prof);
}

/* The library's messages as it would print them, but the checks' findings: run prints
 * those once, under "reports:", with what the kernel wrote. */
static void log_but_findings(void *user_data, lat_log_level level, const char *message)
{
    if (user_data && *(const bool *)user_data && level == LAT_LOG_ERROR)
        return; /* -B best's try of the GPU: its failure is said once, as a note */
    static const char *const checks[] = {": memcheck: ", ": racecheck: ", ": synccheck: ",
                                         ": initcheck: "};
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++)
        if (strstr(message, checks[i]))
            return;
    if (strncmp(message, "lattice checks on: ", 19) == 0)
        return; /* the run's first line says which */
    if ((int)level > lat_log_stderr_level())
        return;
    fprintf(stderr, "lattice: %s: %s\n",
            level == LAT_LOG_ERROR ? "error" : level == LAT_LOG_WARNING ? "warning" : "info", message);
}

/* Ctrl-C: the first stops the launch running (lat_interrupt(), async-signal-safe) and the
 * run ends after it, exit status 130 as a shell gives a program SIGINT ended; a second
 * ends the program at once, as Ctrl-C does. An interrupt reaches only the calls begun
 * before it, and the run checks sigints before each launch: a launch begun between that
 * check and the signal is interrupted again each second (SIGALRM) until the run ends. */
static volatile sig_atomic_t sigints;

static void on_sigint(int sig)
{
    if (sigints++) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    lat_interrupt();
    alarm(1);
}

static void on_alarm(int sig)
{
    (void)sig;
    lat_interrupt();
    alarm(1);
}

/* The run ends here after a Ctrl-C (what happened, on stderr): true then. */
static bool stop_on_sigint(lat_status st)
{
    if (st != LAT_ERROR_INTERRUPTED && !sigints)
        return false;
    if (st == LAT_ERROR_INTERRUPTED)
        failed(); /* which kernel, and where it was */
    fprintf(stderr, "lattice: interrupted (Ctrl-C)\n");
    return true;
}

static int run(const opts *o)
{
    if (check_source_file(o->file) != 0)
        return 2;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, NULL);
    lat_context *ctx = NULL;
    lat_module *mod = NULL;
    lat_context_desc desc = {.backend = o->backend,
                             .check = o->checks ? o->checks : LAT_CHECK_OFF,
                             .logger = {log_but_findings, NULL}};
    if (o->profile)
        desc.check = (desc.check & ~(unsigned)LAT_CHECK_OFF) | LAT_CHECK_PROFILE;
    if (o->schedule && setenv("LATTICE_SCHEDULE", o->schedule, 1) != 0)
        return 2;
    /* -c says which checks run: the emulator half of a cross-checking context, made with
     * no checks named, would take LATTICE_CHECK's and fail launches -B cross runs
     * unchecked. */
    unsetenv("LATTICE_CHECK");
    static bool trying_gpu; /* the logger's: errors are dropped while it is set */
    desc.logger.user_data = &trying_gpu;
    if (o->best && !o->emu_only[0]) {
        trying_gpu = true;
        desc.backend = LAT_BACKEND_CUDA;
        if (lat_context_create(&desc, &ctx) != LAT_OK)
            fprintf(stderr, "lattice: note: -B best runs on the emulator: %s\n", lat_last_error());
        trying_gpu = false;
        desc.backend = LAT_BACKEND_EMU;
    }
    if (!ctx && lat_context_create(&desc, &ctx) != LAT_OK) {
        failed();
        return 2;
    }
    /* Where the kernels run, for the first step's line. */
    char where[400] = "on the emulator";
    lat_device_info dev;
    if (lat_context_device_info(ctx, &dev) != LAT_OK)
        snprintf(dev.name, sizeof dev.name, "a device lattice could not name");
    if (lat_context_backend(ctx) == LAT_BACKEND_CUDA)
        snprintf(where, sizeof where, "on the GPU (%s)", dev.name);
    else if (lat_context_backend(ctx) == LAT_BACKEND_CROSS)
        snprintf(where, sizeof where, "on %s and on the emulator, compared after each launch",
                 dev.name);
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
    /* -G: the module named by the file's full path, which its #line directives give the
     * debugger, so that gdb shows the source wherever it runs. */
    static const char *const debug_options[] = {"-G", NULL};
    /* On a GPU, line information, so that compute-sanitizer's reports name the .cu line
     * as the emulator's checks do (it changes no code; the emulator ignores it). */
    static const char *const gpu_options[] = {"-lineinfo", NULL};
    const char *const *options = o->debug ? debug_options
                                 : lat_context_backend(ctx) != LAT_BACKEND_EMU ? gpu_options
                                                                               : NULL;
    char *real = o->debug ? realpath(o->file, NULL) : NULL;
    lat_status mst = lat_module_create(ctx, &(lat_module_desc){.path = o->file, .name = real,
                                                               .defines = defines,
                                                               .options = options,
                                                               .name_expressions = nexprs ? exprs : NULL},
                                       &mod);
    free(real);
    if (mst != LAT_OK) {
        failed();
        lat_context_destroy(ctx);
        return mst == LAT_ERROR_FILE ? 2 : 1;
    }
    lat_kernel *kernels[MAX_STEPS];
    int status = 0;
    for (int si = 0; si < o->nsteps && status == 0; si++)
        if (lat_module_get_kernel(mod, o->steps[si].kernel, &kernels[si]) != LAT_OK) {
            failed();
            status = 2;
        } else if (lat_kernel_param_count(kernels[si]) > 64) {
            fprintf(stderr, "lattice: kernel '%s' has more than 64 parameters\n", o->steps[si].kernel);
            status = 2;
        }
    if (status == 0)
        status = check_args(o, kernels);
    static buffer bufs[MAX_BUFS];
    int nbufs = 0;
    char checks_text[128] = "";
    static const char *const names[] = {"memcheck", "racecheck", "synccheck", "initcheck"};
    for (int i = 0; i < 4; i++)
        if (o->checks & (1u << i))
            snprintf(checks_text + strlen(checks_text), sizeof checks_text - strlen(checks_text),
                     "%s%s", *checks_text ? "," : "", names[i]);
    for (int si = 0; si < o->nsteps && status != 2; si++) {
        const step *s = &o->steps[si];
        lat_kernel *k = kernels[si];
        int np = lat_kernel_param_count(k);
        void *params[64];
        value values[64];
        printf("%s<<<(%u,%u,%u), (%u,%u,%u)>>>%s%s%s%s\n", s->kernel, s->grid[0], s->grid[1],
               s->grid[2], s->block[0], s->block[1], s->block[2], si == 0 ? " " : "",
               si == 0 ? where : "",
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
                        fprintf(stderr, "lattice: more than %d buffers\n", MAX_BUFS);
                        status = 2;
                        break;
                    }
                    b = &bufs[nbufs++];
                    memset(b, 0, sizeof *b);
                    int made = make_buffer(ctx, o, &p, b);
                    if (made != 0) {
                        if (made > 0)
                            failed();
                        status = 2;
                        break;
                    }
                    printf("  %s: %zu x %s%s\n", b->name, b->count, p.type,
                           b->filled ? ", filled with 0, 1, 2, ..."
                           : b->left ? ", not written yet"
                                                             : ", filled with zeros");
                }
                params[i] = &b->ptr;
                continue;
            }
            const char *v = arg_value(o, p.name);
            char dflt[64], why[300];
            if (!v) {
                if (p.is_float)
                    snprintf(dflt, sizeof dflt, "1.5");
                else
                    snprintf(dflt, sizeof dflt, "%zu", o->n);
                v = dflt;
            }
            if (!parse_scalar(&p, v, &values[i], why, sizeof why)) {
                fprintf(stderr, "lattice: %s%s\n", why,
                        v == dflt && !(p.is_record && !p.is_float) ? " (its default; set it with --arg)" : "");
                status = 2;
                break;
            }
            printf("  %s = %s\n", p.name, v);
            params[i] = &values[i];
        }
        if (status == 2)
            break;
        buffer *mapped = NULL;
        if (s->map && !(mapped = find_buffer(bufs, nbufs, s->map))) {
            fprintf(stderr, "lattice: kernel '%s' has no buffer parameter '%s' to map\n",
                    s->kernel, s->map);
            status = 2;
            break;
        }
        if (o->checks && map_outputs(ctx, k, bufs, nbufs, mapped) != 0) {
            failed();
            status = 2;
            break;
        }
        if (stop_on_sigint(LAT_OK)) { /* Ctrl-C while compiling: nothing to stop then */
            status = 130;
            break;
        }
        fflush(stdout); /* what runs is on the screen (or in the pipe) while it runs */
        lat_status st = lat_launch(k, &(lat_launch_desc){.grid = {s->grid[0], s->grid[1], s->grid[2]},
                                                         .block = {s->block[0], s->block[1], s->block[2]},
                                                         .shared_bytes = s->shared},
                                   params);
        if (stop_on_sigint(st)) {
            status = 130;
            break;
        }
        if (lat_check_report_count(ctx) > 0) {
            printf("reports:\n");
            print_reports(ctx);
            status = 1;
        } else if (st != LAT_OK) {
            printf("failed: %s\n", lat_last_error());
            status = 1;
        }
        /* A cross-check's difference: the GPU's values, which it names, are printed. */
        bool printed = st == LAT_OK || st == LAT_ERROR_CHECK_FAILED || st == LAT_ERROR_CROSS_MISMATCH;
        if (printed) {
            if (o->checks)
                note_written(ctx, k, bufs, nbufs);
            for (int i = 0; i < np; i++) {
                lat_check_param p;
                if (lat_check_kernel_param(k, i, &p) == LAT_OK && p.is_pointer &&
                    !strstr(p.type, "const"))
                    print_buffer(ctx, find_buffer(bufs, nbufs, p.name), o->show);
            }
        }
        if (o->profile)
            print_profile(ctx, o->file);
        if (mapped && write_map(ctx, s, mapped) != 0)
            status = status ? status : 1;
        if (st != LAT_OK && st != LAT_ERROR_CHECK_FAILED)
            break; /* a GPU's context after a fault, a cross-check's diverged sides */
    }
    for (int i = 0; i < nbufs; i++) {
        lat_mem_free(ctx, bufs[i].ptr);
        free(bufs[i].written);
        free(bufs[i].before);
    }
    lat_context_destroy(ctx);
    return status;
}

/* Example arguments for a template's parameters, from its declaration ("template
 * <typename T, int N> ..." gives "float, 256"); parameters with defaults are left out. */
static void example_arguments(const char *decl, char *out, size_t len)
{
    const char *p = strchr(decl, '<');
    size_t n = 0;
    out[0] = '\0';
    for (int depth = 0; p && *p && n + 16 < len;) {
        const char *start = ++p;
        while (*p && (depth > 0 || (*p != ',' && *p != '>'))) {
            depth += *p == '<' || *p == '(';
            depth -= *p == '>' || *p == ')';
            p++;
        }
        size_t plen = (size_t)(p - start);
        while (plen && *start == ' ')
            start++, plen--;
        if (!plen || memchr(start, '=', plen))
            break;
        bool type = strncmp(start, "typename", 8) == 0 || strncmp(start, "class", 5) == 0;
        /* A value: 256 for an integer type's, true for a bool's; for any other (a function
         * pointer, an enum) the parameter's name, to be replaced by one of its values. */
        static const char *const integers[] = {"int", "unsigned", "signed", "long", "short",
                                               "char", "size_t", "uint", "int8_t", "int16_t",
                                               "int32_t", "int64_t", "uint8_t", "uint16_t",
                                               "uint32_t", "uint64_t"};
        const char *given = NULL;
        for (size_t k = 0; !type && !given && k < sizeof integers / sizeof integers[0]; k++)
            if (strncmp(start, integers[k], strlen(integers[k])) == 0 &&
                (start[strlen(integers[k])] == ' ' || start[strlen(integers[k])] == '\0'))
                given = "256";
        if (!type && strncmp(start, "bool ", 5) == 0)
            given = "true";
        const char *name = start + plen; /* the last word: the parameter's name */
        while (name > start && (isalnum((unsigned char)name[-1]) || name[-1] == '_'))
            name--;
        if (type || given)
            n += (size_t)snprintf(out + n, len - n, "%s%s", n ? ", " : "", type ? "float" : given);
        else
            n += (size_t)snprintf(out + n, len - n, "%s%.*s", n ? ", " : "",
                                  (int)(start + plen - name), name);
        if (*p != ',')
            break;
    }
}

static int list(const char *file, bool why)
{
    if (check_source_file(file) != 0)
        return 2;
    lat_context *ctx;
    lat_module *mod;
    int status = 0;
    if (lat_context_create(&(lat_context_desc){.backend = LAT_BACKEND_EMU, .check = LAT_CHECK_OFF},
                           &ctx) != LAT_OK) {
        failed();
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
        /* Templates are kernels once an instance is named: each with how to name one. */
        for (int ti = 0; ti < lat_module_template_count(mod); ti++) {
            char args[256];
            const char *name = lat_module_template_name(mod, ti);
            example_arguments(lat_module_template_declaration(mod, ti), args, sizeof args);
            printf("%s<...>: %s\n  (a template: run an instance, e.g. lattice run %s '%s<%s>')\n",
                   name, lat_module_template_declaration(mod, ti), file, name, args);
        }
    }
    lat_context_destroy(ctx);
    return status;
}

/* -B's backend against what the run asks for: a GPU (-B cuda or cross) runs kernels
 * unchecked, so an option only the emulator can do is refused, never dropped. 0, or 2
 * (said on stderr). */
static int choose_backend(const opts *o, bool backend_set)
{
    if (!backend_set) {
        /* The library's variable is not this program's option: `LATTICE_BACKEND=cuda
         * lattice run ...`, as one would wrap it in compute-sanitizer, ran on the emulator
         * with no word said. */
        const char *env = getenv("LATTICE_BACKEND");
        if (env && *env && strcmp(env, "emu") != 0)
            fprintf(stderr, "lattice: note: lattice run does not read LATTICE_BACKEND=%s: it runs "
                            "on the emulator unless -B names another backend (-B cuda, -B cross)\n",
                    env);
        return 0;
    }
    if (o->backend == LAT_BACKEND_EMU || !o->emu_only[0])
        return 0;
    fprintf(stderr, "lattice: %s needs the emulator: -B %s runs the kernel without the "
                    "emulator's checks, thread maps, profile, schedules and -G builds; leave it "
                    "out, or run on the emulator (-B emu, the default)\n",
            o->emu_only, lat_backend_name(o->backend));
    return 2;
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
    static opts o;
    memset(&o, 0, sizeof o);
    o.checks = LAT_CHECK_ALL;
    o.show = 8;
    o.backend = LAT_BACKEND_EMU;
    bool backend_set = false;
    o.nsteps = 1;
    /* The file and the kernel are the first two arguments that are no option or option's
     * value: options may come before them too (`lattice run -B cuda f.cu k`, as a wrapper
     * such as compute-sanitizer's command line reads best). */
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' && (!o.file || !o.steps[0].kernel)) {
            if (!o.file)
                o.file = a;
            else
                o.steps[0].kernel = a;
            continue;
        }
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
        /* After NEED() where the option has a value: a (and v) as typed. */
#define EMU_ONLY(with_value) \
    do { \
        if (!o.emu_only[0]) \
            snprintf(o.emu_only, sizeof o.emu_only, "%s%s%s", a, (with_value) ? " " : "", \
                     (with_value) ? v : ""); \
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
            EMU_ONLY(true);
        } else if (IS(long_only, "--svg")) {
            NEED();
            s->svg = v;
            EMU_ONLY(true);
        } else if (IS(long_only, "--png")) {
            NEED();
            s->png = v;
            EMU_ONLY(true);
        } else if (IS(long_only, "--text")) {
            s->text = true;
            EMU_ONLY(false);
        } else if (IS(long_only, "--reads")) {
            s->reads = true;
            EMU_ONLY(false);
        } else if (IS(long_only, "--columns")) {
            NEED();
            if (!parse_size(v, &s->columns) || s->columns == 0)
                return usage("--columns takes a number above 0");
            EMU_ONLY(true);
        } else if (IS("-n", "--n")) {
            NEED();
            if (!parse_size(v, &o.n) || o.n == 0 || o.n > MAX_N)
                return usage("--n takes a number of elements from 1 to 268435456");
            o.n_set = true;
        } else if (IS("-a", "--arg")) {
            NEED();
            if (!strchr(v, '=') || v[0] == '=')
                return usage("--arg takes NAME=VALUE");
            if (o.nargs == MAX_ARGS)
                return usage("too many --arg options");
            o.args[o.nargs++] = v;
        } else if (IS(long_only, "--fill")) {
            NEED();
            if (strcmp(v, "all") != 0 && strcmp(v, "inputs") != 0 && strcmp(v, "inputs-only") != 0)
                return usage("--fill takes inputs, all or inputs-only");
            o.fill_all = strcmp(v, "all") == 0;
            o.fill_inputs_only = strcmp(v, "inputs-only") == 0;
        } else if (IS("-c", "--check")) {
            NEED();
            if (lat_check_parse_modes(v, &o.checks) != LAT_OK)
                return usage(lat_last_error());
            o.checks_set = true;
            o.check_text[0] = a;
            o.check_text[1] = v;
        } else if (IS("-B", "--backend")) {
            NEED();
            o.best = strcmp(v, "best") == 0;
            if (strcmp(v, "emu") == 0 || o.best)
                o.backend = LAT_BACKEND_EMU;
            else if (strcmp(v, "cuda") == 0)
                o.backend = LAT_BACKEND_CUDA;
            else if (strcmp(v, "cross") == 0)
                o.backend = LAT_BACKEND_CROSS;
            else
                return usage("--backend takes emu, cuda, cross or best");
            backend_set = true;
        } else if (IS("-G", "--device-debug")) {
            o.debug = true;
            EMU_ONLY(false);
        } else if (IS(long_only, "--profile")) {
            o.profile = true;
            EMU_ONLY(false);
        } else if (IS("-s", "--schedule")) {
            NEED();
            o.schedule = v;
            EMU_ONLY(true);
        } else if (IS(long_only, "--show")) {
            NEED();
            if (!parse_size(v, &o.show))
                return usage("--show takes a number");
        } else if (strncmp(a, "-D", 2) == 0) {
            const char *d = a[2] ? a + 2 : v;
            if (!a[2])
                NEED();
            if (!d || !*d || *d == '=')
                return usage("-D takes NAME[=VALUE]");
            if (o.ndefines == MAX_ARGS)
                return usage("too many -D options");
            o.defines[o.ndefines++] = d;
        } else {
            char why[300];
            snprintf(why, sizeof why, a[0] == '-' ? "unknown option '%s'"
                                                  : "'%s' is one argument too many: a step's kernel "
                                                    "follows --then", a);
            return usage(why);
        }
#undef IS
#undef NEED
#undef EMU_ONLY
    }
    if (!o.steps[0].kernel)
        return usage("run needs a file and a kernel");
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
    /* Checks named by -c: only the emulator has them (a -c given twice counts as its
     * last). They come first in what is refused, as the most likely to be asked for. */
    if (o.checks_set && o.checks) {
        char given[160];
        snprintf(given, sizeof given, "%s %s", o.check_text[0], o.check_text[1]);
        memcpy(o.emu_only, given, sizeof given);
    }
    int chosen = choose_backend(&o, backend_set);
    if (chosen != 0)
        return chosen;
    /* Off the emulator nothing is checked, and -B best runs unchecked wherever it runs,
     * so that what it prints does not depend on the machine. */
    if ((o.backend != LAT_BACKEND_EMU || o.best) && !o.checks_set)
        o.checks = 0;
    /* A debugger's session is about one thread's values: the checks' instrumentation
     * and their shared memory would stand in its way (docs/debugging.md). */
    if (o.debug && !o.checks_set)
        o.checks = 0;
    if (o.checks == 0)
        for (int i = 0; i < o.nsteps; i++)
            if (o.steps[i].map)
                o.checks = LAT_CHECK_MEMCHECK; /* maps are recorded by the checked launches */
    return run(&o);
}
