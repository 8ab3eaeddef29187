/*
 * The test runner behind harness.h: case registry, main(), failure reporting, and the
 * per-case resources (contexts, host buffers) released after every case.
 */
#define _XOPEN_SOURCE 700 /* nftw, mkdtemp */
#include "harness.h"

#include <ftw.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct t_case {
    const char *name;
    t_case_fn fn;
    int line;
} t_case;

static t_case *cases;
static size_t ncases, cases_cap;

void t_register(const char *name, t_case_fn fn, int line)
{
    if (ncases == cases_cap) {
        size_t cap = cases_cap ? cases_cap * 2 : 32;
        t_case *grown = realloc(cases, cap * sizeof *grown);
        if (!grown) {
            fprintf(stderr, "harness: out of memory registering %s\n", name);
            exit(1);
        }
        cases = grown;
        cases_cap = cap;
    }
    cases[ncases++] = (t_case){name, fn, line};
}

/* ---- the current case ---------------------------------------------------------------- */

enum { CASE_FAILED = 1, CASE_SKIPPED = 2 };

static jmp_buf case_jmp;
static volatile int case_outcome; /* set before every longjmp to case_jmp */
static const char *case_name;
static uint64_t seed = 0x1a77ce5eedULL;
static uint64_t rng_state;

typedef struct t_resource {
    lat_context *ctx; /* destroyed */
    void *mem;        /* freed */
    char *dir;        /* removed with what is in it, then freed */
    void (*fn)(void); /* called */
} t_resource;

static t_resource *resources;
static size_t nresources, resources_cap;

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0; /* best effort: go on past what cannot be removed */
}

static void remove_tree(char *dir)
{
    if (dir)
        nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(dir);
}

static void keep(t_resource r)
{
    if (nresources == resources_cap) {
        size_t cap = resources_cap ? resources_cap * 2 : 16;
        t_resource *grown = realloc(resources, cap * sizeof *grown);
        if (!grown) {
            if (r.ctx)
                lat_context_destroy(r.ctx);
            free(r.mem);
            remove_tree(r.dir);
            if (r.fn)
                r.fn();
            t_fail(__FILE__, __LINE__, "harness: out of memory");
        }
        resources = grown;
        resources_cap = cap;
    }
    resources[nresources++] = r;
}

static void release_all(void)
{
    /* Newest first: a buffer may belong to a context created before it. */
    while (nresources > 0) {
        t_resource r = resources[--nresources];
        if (r.ctx)
            lat_context_destroy(r.ctx);
        free(r.mem);
        remove_tree(r.dir);
        if (r.fn)
            r.fn();
    }
}

const char *t_tempdir(void)
{
    char *dir = strdup("/tmp/lattice-test-XXXXXX");
    if (!dir || !mkdtemp(dir)) {
        free(dir);
        t_fail(__FILE__, __LINE__, "harness: cannot make a temporary directory");
    }
    keep((t_resource){.dir = dir});
    return dir;
}

void t_defer(void (*fn)(void))
{
    keep((t_resource){.fn = fn});
}

/* Prints text with every line indented, for compiler logs inside messages. */
static void print_indented(const char *label, const char *text)
{
    printf("    %s:", label);
    if (!strchr(text, '\n')) {
        printf(" %s\n", text);
        return;
    }
    printf("\n");
    for (const char *p = text; *p;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        printf("      %.*s\n", (int)len, p);
        p += len + (end ? 1 : 0);
    }
}

void t_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    printf("FAIL %s: %s:%d: ", case_name ? case_name : "?", file, line);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    const char *err = lat_last_error();
    if (err && *err)
        print_indented("last error", err);
    fflush(stdout);
    case_outcome = CASE_FAILED;
    longjmp(case_jmp, 1);
}

void t_fail_status(const char *file, int line, const char *expr, lat_status expected,
                   lat_status got)
{
    t_fail(file, line, "%s returned %s (%d), want %s (%d)", expr, lat_status_name(got),
           (int)got, lat_status_name(expected), (int)expected);
}

void t_skip(const char *fmt, ...)
{
    char why[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    /* A skip says why (scripts/test lists the reasons): one without a reason fails. */
    if (!why[strspn(why, " \t\n")])
        t_fail(__FILE__, __LINE__, "the case skipped without saying why (SKIP needs a reason)");
    printf("skip %s: %s\n", case_name ? case_name : "?", why);
    fflush(stdout);
    case_outcome = CASE_SKIPPED;
    longjmp(case_jmp, 1);
}

int t_streq(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(a, b) == 0;
}

int t_contains(const char *haystack, const char *needle)
{
    return haystack && needle && strstr(haystack, needle) != NULL;
}

int t_close(double got, double want, double rel_tol, double abs_tol)
{
    if (isnan(want))
        return isnan(got);
    if (isinf(want))
        return got == want;
    return fabs(got - want) <= abs_tol + rel_tol * fabs(want);
}

/* ---- lattice helpers ----------------------------------------------------------------- */

static lat_backend_kind backend_under_test = LAT_BACKEND_AUTO;

lat_backend_kind t_backend(void)
{
    return backend_under_test;
}

lat_backend_kind t_require_backend(void)
{
    lat_backend_kind resolved = LAT_BACKEND_AUTO;
    lat_status st = lat_backend_resolve(backend_under_test, &resolved);
    if (st == LAT_ERROR_BACKEND_UNAVAILABLE)
        t_skip("%s", lat_last_error());
    if (st != LAT_OK)
        t_fail_status(__FILE__, __LINE__, "lat_backend_resolve(backend under test)", LAT_OK,
                      st);
    return resolved;
}

lat_context *t_context_with(const lat_context_desc *desc)
{
    lat_context_desc d = *desc;
    if (d.backend == LAT_BACKEND_AUTO)
        d.backend = backend_under_test;
    lat_context *ctx = NULL;
    lat_status st = lat_context_create(&d, &ctx);
    if (st == LAT_ERROR_BACKEND_UNAVAILABLE)
        t_skip("%s", lat_last_error());
    if (st != LAT_OK)
        t_fail_status(__FILE__, __LINE__, "lat_context_create(backend under test)", LAT_OK,
                      st);
    if (!ctx)
        t_fail(__FILE__, __LINE__, "lat_context_create returned LAT_OK and no context");
    keep((t_resource){.ctx = ctx});
    return ctx;
}

void t_setenv(const char *name, const char *value)
{
    int n;
    setenv(name, value, 1);
    (void)lat_device_count(LAT_BACKEND_EMU, &n); /* may fail: a malformed value under test */
}

void t_unsetenv(const char *name)
{
    int n;
    unsetenv(name);
    (void)lat_device_count(LAT_BACKEND_EMU, &n);
}

lat_context *t_context(void)
{
    return t_context_with(&(lat_context_desc){0});
}

int t_is_emu(const lat_context *ctx)
{
    /* A cross-checking context runs everything on the emulator too: its limits apply. */
    lat_backend_kind k = lat_context_backend(ctx);
    return k == LAT_BACKEND_EMU || k == LAT_BACKEND_CROSS;
}

int t_on_gpu(const lat_context *ctx)
{
    lat_backend_kind k = lat_context_backend(ctx);
    const char *primary = getenv("LATTICE_CROSS_PRIMARY");
    return k == LAT_BACKEND_CUDA || (k == LAT_BACKEND_CROSS && !(primary && strcmp(primary, "emu") == 0));
}

static lat_kernel *kernel_of(lat_context *ctx, const char *source, const char *name, int no_extern_c)
{
    char file[256];
    snprintf(file, sizeof file, "%s.cu", name);
    lat_module *mod = NULL;
    lat_status st = lat_module_create(
        ctx, &(lat_module_desc){.source = source, .name = file, .no_extern_c = no_extern_c}, &mod);
    if (st != LAT_OK)
        t_fail_status(__FILE__, __LINE__, "lat_module_create", LAT_OK, st);
    lat_kernel *k = NULL;
    st = lat_module_get_kernel(mod, name, &k);
    if (st != LAT_OK)
        t_fail_status(__FILE__, __LINE__, "lat_module_get_kernel", LAT_OK, st);
    return k;
}

lat_kernel *t_kernel(lat_context *ctx, const char *source, const char *name)
{
    return kernel_of(ctx, source, name, 0);
}

lat_kernel *t_kernel_as_written(lat_context *ctx, const char *source, const char *name)
{
    return kernel_of(ctx, source, name, 1);
}

lat_deviceptr t_device_copy(lat_context *ctx, const void *host, size_t bytes)
{
    lat_deviceptr p = 0;
    lat_status st = lat_mem_alloc(ctx, bytes, &p);
    if (st != LAT_OK)
        t_fail_status(__FILE__, __LINE__, "lat_mem_alloc", LAT_OK, st);
    if (host) {
        st = lat_memcpy_htod(ctx, p, host, bytes);
        if (st != LAT_OK)
            t_fail_status(__FILE__, __LINE__, "lat_memcpy_htod", LAT_OK, st);
    }
    return p;
}

void *t_calloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        t_fail(__FILE__, __LINE__, "harness: out of host memory (%zu x %zu)", count, size);
    keep((t_resource){.mem = p});
    return p;
}

/* ---- random inputs: splitmix64, reseeded for every case ------------------------------ */

uint64_t t_seed(void)
{
    return seed;
}

static uint64_t next_u64(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint32_t t_rand_u32(void)
{
    return (uint32_t)(next_u64() >> 32);
}

double t_rand_double(double lo, double hi)
{
    double unit = (double)(next_u64() >> 11) * (1.0 / 9007199254740992.0);
    return lo + (hi - lo) * unit;
}

void t_rand_floats(float *out, size_t n, float lo, float hi)
{
    for (size_t i = 0; i < n; i++)
        out[i] = (float)t_rand_double(lo, hi);
}

/* ---- main ------------------------------------------------------------------------------ */

static int by_line(const void *a, const void *b)
{
    const t_case *x = a, *y = b;
    return (x->line > y->line) - (x->line < y->line);
}

/* Returns CASE_FAILED, CASE_SKIPPED or 0. */
static int run_case(const t_case *c)
{
    case_name = c->name;
    rng_state = seed;
    case_outcome = 0;
    if (setjmp(case_jmp) == 0) {
        c->fn();
        printf("ok %s\n", c->name);
    }
    release_all();
    fflush(stdout);
    case_name = NULL;
    return case_outcome;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    qsort(cases, ncases, sizeof *cases, by_line);

    const char *env = getenv("LATTICE_BACKEND");
    if (env && strcmp(env, "cuda") == 0)
        backend_under_test = LAT_BACKEND_CUDA;
    else if (env && strcmp(env, "emu") == 0)
        backend_under_test = LAT_BACKEND_EMU;
    const char *seed_env = getenv("LATTICE_TEST_SEED");
    if (seed_env && *seed_env)
        seed = strtoull(seed_env, NULL, 0);

    const char *only = NULL;
    if (argc > 1) {
        if (strcmp(argv[1], "--list") == 0) {
            for (size_t i = 0; i < ncases; i++)
                printf("%s\n", cases[i].name);
            return 0;
        }
        only = argv[1];
    }

    const char *prog = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    printf("# %s: backend %s, seed %#llx (LATTICE_TEST_SEED sets it)\n", prog,
           lat_backend_name(backend_under_test), (unsigned long long)seed);

    int passed = 0, failed = 0, skipped = 0, ran = 0;
    for (size_t i = 0; i < ncases; i++) {
        if (only && strcmp(only, cases[i].name) != 0)
            continue;
        ran++;
        switch (run_case(&cases[i])) {
        case 0: passed++; break;
        case CASE_SKIPPED: skipped++; break;
        default: failed++; break;
        }
    }
    free(cases);
    free(resources);
    if (only && ran == 0) {
        printf("no case named %s (--list lists them)\n", only);
        return 1;
    }
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    if (failed)
        return 1;
    return (skipped > 0 && passed == 0) ? 77 : 0;
}
