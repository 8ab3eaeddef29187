/*
 * The optimising tier (opt.h): the module's lowered C compiled by the system's C compiler
 * into a shared object, loaded with dlopen, switched to at a launch boundary.
 *
 * How the object reaches the emulator's runtime. TinyCC's code calls the runtime (the
 * barrier, warp operations, atomics, printf, the math library...) by the names the prelude
 * declares, bound with tcc_add_symbol to the addresses in runtime.c's, atomics.c's and
 * mathx.c's tables. A dlopen'ed object cannot see those: lattice is usually a static
 * library inside the program, its symbols hidden. So the object carries its own
 * definition of every one of those names: a trampoline, one indirect jump through a
 * table, `__lat_opt_tab`, that the object defines (hidden) and the loader fills from the
 * same tables before any kernel runs (load() below). A jump through a table is what a
 * shared library's PLT does, so a call costs what it costs any library; the prelude and
 * the lowered C are compiled unchanged, and a name is bound to the same function in both
 * tiers, so both compute the same. The object is linked -nostdlib with
 * --no-undefined: it needs nothing of the process but the table.
 *
 * Arithmetic stays exact. The flags keep C's semantics where an optimiser could change a
 * result: -ffp-contract=off (the only FMAs are the fmaf calls passes/arith.c writes, which
 * become FMA instructions where the CPU has them), no -ffast-math, -fwrapv (the GPU's
 * integers wrap, and TinyCC's do), -fno-strict-aliasing (kernels pun types through
 * pointers), and every function of the tables that is not exactly rounded by definition
 * is -fno-builtin (so the compiler never folds sinf(0.5f) with its own, more exact,
 * arithmetic: every call goes to the library TinyCC's code calls). Exact ones (sqrt,
 * fabs, floor, ceil, trunc, rint, copysign, fma, memcpy...) stay built in, so they
 * become instructions.
 *
 * The compiler runs with posix_spawn and an argument vector (no shell), in a private
 * directory that is also its TMPDIR, as a process group of its own so that a time limit
 * kills its cc1 and as too, no more at once than LATTICE_EMU_CC_JOBS, and none outlives
 * the program (opt_proc.h).
 *
 * Objects are kept in the compile cache (src/core/cache.h) under a key of the program
 * text, the compiler (its resolved path, size and modification time: a new version is a
 * new file), the flags, the tables' names and the CPU (vendor, family, model and feature
 * flags, as -march=native sees them), so a cache shared between machines never gives one
 * code for a CPU it cannot run. A hit is loaded from an anonymous file (memfd), no
 * compiler run.
 */
#define _GNU_SOURCE /* memfd_create, dl_iterate_phdr */
#include "opt.h"

#include "emu/backend/env.h"

#include "emu/runtime/atomics.h"
#include "emu/check/ck.h"
#include "build_id.h"
#include "cache.h"
#include "emu/backend/emu.h"
#include "emu/runtime/mathx.h"
#include "emu/runtime/runtime.h"
#include "opt_index.h"
#include "opt_proc.h"
#include "sha256.h"

#if defined(LAT_HAVE_VALGRIND_H)
#include <valgrind/valgrind.h>
#endif

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* AUTO mode starts the build once a module's launches have run this long in all. */
enum { AUTO_NS = 20 * 1000 * 1000 };
/* The compiler's time limit unless LATTICE_EMU_CC_TIMEOUT says otherwise (seconds). */
static const double DEFAULT_TIMEOUT_S = 60;

typedef enum state {
    IDLE,     /* nothing started */
    BUILDING, /* a thread (or lat__emu_opt_build_now) is at it */
    DONE      /* ready or failed: code says which */
} state;

struct lat__emu_opt {
    const lat__emu_module *m;
    int mode;
    char *program;
    size_t prelude_len; /* program's first bytes: the prelude, the same for many modules */
    const char **defines, **undefines; /* copies, NULL-terminated */
    /* The environment when the build was started, read on the program's thread: a build
     * thread reading environ, PATH or TMPDIR raced with the program's setenv (ASan: a
     * use after free of environ in the test suite). NULL: not taken yet. */
    char **env;

    pthread_mutex_t lock;
    int state;            /* guarded by lock */
    bool thread_started;  /* guarded by lock */
    pthread_t thread;
    _Atomic bool cancel;  /* lat__emu_opt_free: stop */
    _Atomic bool tracked; /* in the builds stopped at exit (track_build) */
    struct lat__emu_opt *prev_build, *next_build; /* that list; guarded by builds_lock */
    _Atomic(lat__emu_opt_code *) code;
    lat__emu_opt_code *pending; /* opened from the cache before TinyCC ran, not yet bound */
    /* The source index (opt_index.h): the digest of the module's translation when it has
     * one, the front end's warnings, and whether the module still has to be written to
     * the index once its object is bound (not when it was found through it). */
    bool indexed, index_pending;
    uint8_t source[32];
    char *warnings;
    /* The keys `pending` was found under (the object's) and is to be indexed under,
     * when pending_keys. */
    bool pending_keys;
    lat__cache_key pending_object, pending_index;
    _Atomic(char *) note; /* the background build's message for the context's log */
    _Atomic uint64_t ran_ns;
    bool debug; /* -G: built for a debugger (lat__emu_opt_set_debug) */
};

/* ---- the compiler and the CPU, found once per process --------------------------------- */

typedef struct toolchain {
    char env[8400];        /* LATTICE_EMU_CC and PATH when it was looked for */
    char path[4096];       /* "" when there is none */
    char identity[4300];   /* path, size and modification time */
    char why_none[512];    /* why there is none */
    char cpu[8192];        /* what -march=native sees */
    unsigned long long llc; /* the last-level cache's bytes (passes/stream.c's threshold) */
    bool clang;
    /* The cache key's fields that are the same for every module (make_key): hashed once
     * per toolchain, not per module, where they were most of a cache hit's time. */
    lat__sha256 key_prefix;
    bool key_prefix_ok;
} toolchain;

/* The compiler found for the environment seen last: looked for again when LATTICE_EMU_CC
 * or PATH change (a program, or a test, may change them between modules). */
static toolchain last_found;
static pthread_mutex_t tc_lock = PTHREAD_MUTEX_INITIALIZER;
static bool none_said; /* guarded by tc_lock */

static bool executable_file(const char *path, struct stat *st)
{
    return stat(path, st) == 0 && S_ISREG(st->st_mode) && access(path, X_OK) == 0;
}

/* Finds name as the shell would (a name with a slash as it is, else along PATH). */
static bool find_program(const char *name, const char *path, char *out, size_t size,
                         struct stat *st)
{
    if (size < 4096) /* realpath writes up to PATH_MAX */
        return false;
    if (strchr(name, '/')) {
        if (!executable_file(name, st))
            return false;
        return realpath(name, out) != NULL;
    }
    if (!path)
        path = "/usr/bin:/bin";
    while (*path) {
        const char *end = strchr(path, ':');
        size_t n = end ? (size_t)(end - path) : strlen(path);
        char cand[4096];
        if (n > 0 && (size_t)snprintf(cand, sizeof cand, "%.*s/%s", (int)n, path, name) < sizeof cand &&
            executable_file(cand, st) && realpath(cand, out))
            return true;
        path += n + (end ? 1 : 0);
    }
    return false;
}

/* The first processor's identity and features from /proc/cpuinfo: what -march=native
 * derives its choices from. */
static void read_cpu(char *out, size_t size)
{
    out[0] = '\0';
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) {
        snprintf(out, size, "unknown cpu");
        return;
    }
    static const char *const keys[] = {"vendor_id", "cpu family", "model\t", "flags",
                                       "CPU implementer", "CPU architecture", "CPU variant",
                                       "CPU part", "Features", "isa", "uarch"};
    char line[8192];
    size_t len = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '\n')
            break; /* the first processor only: the others are the same on any machine
                      that lattice's OpenMP threads run on alike */
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
            if (strncmp(line, keys[i], strlen(keys[i])) == 0) {
                int w = snprintf(out + len, size - len, "%s", line);
                if (w > 0 && (size_t)w < size - len)
                    len += (size_t)w;
            }
    }
    fclose(f);
}

/* The largest cache of the first processor, from sysfs (sysconf's figure is the whole
 * machine's in some virtual machines: 320 MiB where each core sees 32); 32 MiB where
 * sysfs does not say. A kernel's streaming stores (passes/stream.c) are for outputs
 * larger than this. */
static unsigned long long read_llc(void)
{
    unsigned long long best = 0;
    for (int i = 0; i < 16; i++) {
        char path[96], text[64];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        FILE *f = fopen(path, "r");
        if (!f)
            break;
        char *got = fgets(text, sizeof text, f);
        fclose(f);
        char *end = NULL;
        unsigned long long n = got ? strtoull(text, &end, 10) : 0;
        if (end && (*end == 'K' || *end == 'k'))
            n <<= 10;
        else if (end && (*end == 'M' || *end == 'm'))
            n <<= 20;
        if (n > best)
            best = n;
    }
    return best ? best : 32ull << 20;
}

static bool key_prefix(const toolchain *tc, lat__sha256 *s);

static void find_toolchain(toolchain *tc, const char *path)
{
    struct stat st;
    const char *named = lat__emu_env(LAT_EMU_ENV_CC);
    bool found = false;
    if (named && *named) {
        found = find_program(named, path, tc->path, sizeof tc->path, &st);
        if (!found)
            snprintf(tc->why_none, sizeof tc->why_none,
                     "LATTICE_EMU_CC='%s' is not an executable file", named);
    } else {
        static const char *const names[] = {"cc", "gcc", "clang"};
        for (size_t i = 0; i < 3 && !found; i++)
            found = find_program(names[i], path, tc->path, sizeof tc->path, &st);
        if (!found)
            snprintf(tc->why_none, sizeof tc->why_none, "no C compiler (cc, gcc or clang) on PATH");
    }
    if (!found) {
        tc->path[0] = '\0';
        return;
    }
    snprintf(tc->identity, sizeof tc->identity, "%s %lld %lld.%09ld", tc->path, (long long)st.st_size,
             (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    const char *base = strrchr(tc->path, '/');
    tc->clang = strstr(base ? base : tc->path, "clang") != NULL;
    read_cpu(tc->cpu, sizeof tc->cpu);
    tc->llc = read_llc();
    tc->key_prefix_ok = key_prefix(tc, &tc->key_prefix);
}

/* The value of NAME in env (a NULL-terminated environment), or NULL. */
static const char *env_get(char *const *env, const char *name)
{
    size_t n = strlen(name);
    for (; env && *env; env++)
        if (strncmp(*env, name, n) == 0 && (*env)[n] == '=')
            return *env + n + 1;
    return NULL;
}

/* The toolchain for PATH (and LATTICE_EMU_CC) as they are, copied to *out. */
static void get_toolchain(toolchain *out, const char *path)
{
    const char *cc = lat__emu_env(LAT_EMU_ENV_CC);
    char env[sizeof last_found.env];
    snprintf(env, sizeof env, "%s\n%s", cc ? cc : "", path ? path : "");
    pthread_mutex_lock(&tc_lock);
    if (strcmp(env, last_found.env) != 0 || !last_found.env[0]) {
        memset(&last_found, 0, sizeof last_found);
        find_toolchain(&last_found, path);
        snprintf(last_found.env, sizeof last_found.env, "%s", env);
        none_said = false;
    }
    *out = last_found;
    pthread_mutex_unlock(&tc_lock);
}

/* ---- the mode ------------------------------------------------------------------------- */

bool lat__emu_opt_mode(int requested, int *mode, char *why, size_t why_size)
{
    *mode = LAT_EMU_OPT_OFF;
    if (requested != LAT_EMU_OPT_DEFAULT) {
        *mode = requested;
        return true;
    }
    const char *v = lat__emu_env(LAT_EMU_ENV_OPT);
    if (!v || !*v || strcmp(v, "auto") == 0) {
        *mode = LAT_EMU_OPT_AUTO;
        return true;
    }
    static const struct {
        const char *name;
        int mode;
    } names[] = {{"off", LAT_EMU_OPT_OFF}, {"0", LAT_EMU_OPT_OFF},
                 {"background", LAT_EMU_OPT_BACKGROUND}, {"sync", LAT_EMU_OPT_SYNC}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(v, names[i].name) == 0) {
            *mode = names[i].mode;
            return true;
        }
    snprintf(why, why_size, "LATTICE_EMU_OPT='%s' is not one of off, auto, background, sync", v);
    return false;
}

/* ---- the runtime's table ----------------------------------------------------------------- */

/* Every object has the whole table, the checks' functions included (a checked module's
 * code calls them), so that there is one table and one key prefix. */
enum { TABLE_PARTS = 4 };

typedef struct table {
    const lat__emu_symbol *part[TABLE_PARTS];
    size_t n[TABLE_PARTS];
    size_t total;
} table;

static void get_table(table *t)
{
    t->part[0] = lat__emu_runtime_symbols(&t->n[0]);
    t->part[1] = lat__emu_atomic_symbols(&t->n[1]);
    t->part[2] = lat__emu_mathx_symbols(&t->n[2]);
    t->part[3] = lat__ck_symbols(&t->n[3]);
    t->total = 0;
    for (int p = 0; p < TABLE_PARTS; p++)
        t->total += t->n[p];
}

/* Functions whose result C defines exactly (or that compute nothing): the compiler may
 * make instructions of them. Every other name of the table is -fno-builtin. */
static bool exact(const char *name)
{
    static const char *const names[] = {
        "sqrt", "sqrtf", "fabs", "fabsf", "floor", "floorf", "ceil", "ceilf", "trunc",
        "truncf", "rint", "rintf", "nearbyint", "nearbyintf", "copysign", "copysignf",
        "fma", "fmaf", "memcpy", "memmove", "memset", "abs", "labs", "llabs"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

/* The trampolines, as top-level assembly after the program (see the top of the file).
 * -G's go in a section of their own, outside the range of the program's line table: a
 * debugger then has no line for them and `step` goes over a call to the runtime instead
 * of into the last line of the file. */
static int append_glue(char **buf, size_t *len, const table *t, bool debug)
{
    int r = lat__strbuf_printf(buf, len,
                               "\n#line 1 \"<lattice opt glue>\"\n"
                               "__attribute__((visibility(\"hidden\"))) void *__lat_opt_tab[%zu];\n"
                               "void **const __lat_opt_table = __lat_opt_tab;\n"
                               "const unsigned long __lat_opt_ntab = %zu;\n__asm__(\"%s\\n\"\n",
                               t->total, t->total,
                               debug ? ".section .text.lat_glue,\\\"ax\\\"" : ".text");
    size_t i = 0;
    for (int p = 0; p < TABLE_PARTS && r == 0; p++)
        for (size_t j = 0; j < t->n[p] && r == 0; j++, i++) {
            const char *s = t->part[p][j].name;
            r = lat__strbuf_printf(buf, len,
                                   "\".globl %s\\n.hidden %s\\n.type %s,@function\\n%s:\\n\"\n"
#if defined(__x86_64__)
                                   "\"\tjmp *__lat_opt_tab+%zu(%%rip)\\n\"\n",
                                   s, s, s, s, i * 8
#elif defined(__aarch64__)
                                   "\"\tadrp x16, __lat_opt_tab+%zu\\n\\tldr x16, [x16, "
                                   "#:lo12:__lat_opt_tab+%zu]\\n\\tbr x16\\n\"\n",
                                   s, s, s, s, i * 8, i * 8
#else
#error "the optimising tier's trampolines know x86-64 and AArch64"
#endif
            );
        }
    if (r == 0)
        r = lat__strbuf_printf(buf, len, ");\n");
    return r;
}

/* -G's program: the prelude's lines all line 0, which a debugger takes for no line at all,
 * so that `step` goes over the prelude's functions (min, the math helpers...) as over the
 * runtime's, and stays on the .cu file's lines. A `#line 0` before each line (not within
 * a directive continued with a backslash, whose next line is the directive's). */
static int without_prelude_lines(char **buf, size_t *len, const char *program, size_t prelude_len)
{
    int r = 0;
    const char *p = program, *end = program + prelude_len;
    bool continued = false;
    while (p < end && r == 0) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        r = lat__strbuf_printf(buf, len, "%s%.*s\n", continued ? "" : "#line 0\n", (int)n, p);
        continued = n > 0 && p[n - 1] == '\\';
        p += n + (nl ? 1 : 0);
    }
    if (r == 0)
        r = lat__strbuf_printf(buf, len, "%s", program + prelude_len);
    return r;
}

/* ---- arguments ------------------------------------------------------------------------- */

typedef struct args {
    char **v;
    size_t n, cap;
    bool oom;
} args;

static void add(args *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(args *a, const char *fmt, ...)
{
    if (a->oom)
        return;
    if (a->n + 2 > a->cap) {
        size_t c = a->cap ? a->cap * 2 : 64;
        char **v = realloc(a->v, c * sizeof *v);
        if (!v) {
            a->oom = true;
            return;
        }
        a->v = v;
        a->cap = c;
    }
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0)
        s = NULL;
    va_end(ap);
    if (!s) {
        a->oom = true;
        return;
    }
    a->v[a->n++] = s;
    a->v[a->n] = NULL;
}

static void free_args(args *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->v[i]);
    free(a->v);
}

/* The flags that decide the object's code (the cache key has them), without the files:
 * those every module gets (a -G module's: debug information and no optimisation, every
 * local in memory and every line a step, with the same arithmetic)... */
static void base_flags(args *a, const table *t, const toolchain *tc, bool debug)
{
    if (debug) {
        add(a, "-g");
        add(a, "-O0");
    } else {
        add(a, "-O2");
        /* gcc's -O2 vectorises only loops whose trip count it knows (the "very cheap" cost
         * model); a thread loop's is the block's size. clang's -O2 has no such limit (and
         * no such flag). */
        if (!tc->clang)
            add(a, "-fvect-cost-model=dynamic");
        add(a, "-march=native");
#if defined(LAT_HAVE_VALGRIND_H)
        /* Valgrind decodes no AVX-512 (an illegal instruction at the first one): under it,
         * code it can run. The flag is in the cache key, so native objects stay apart. */
        if (RUNNING_ON_VALGRIND)
            add(a, "-mno-avx512f");
#endif
    }
    add(a, "-fPIC");
    add(a, "-shared");
    add(a, "-nostdinc");
    add(a, "-nostdlib");
    add(a, "-ffp-contract=off");
    add(a, "-fno-math-errno");
    add(a, "-fwrapv");
    add(a, "-fno-strict-aliasing");
    add(a, "-fno-stack-protector");
    add(a, "-fno-semantic-interposition");
    add(a, "-D__LAT_STREAM_BYTES=%lluull", tc->llc);
    add(a, "-w");
    add(a, "-Wl,--no-undefined");
    for (int p = 0; p < TABLE_PARTS; p++)
        for (size_t j = 0; j < t->n[p]; j++)
            if (!exact(t->part[p][j].name))
                add(a, "-fno-builtin-%s", t->part[p][j].name);
}

/* ...and this module's: its defines, and the user's flags from the environment. */
static void module_flags(args *a, const lat__emu_opt *o)
{
    for (const char **d = o->defines; d && *d; d++)
        add(a, "-D%s", *d);
    for (const char **u = o->undefines; u && *u; u++)
        add(a, "-U%s", *u);
    /* The user's, last, so that they win (-O3, or -march=x86-64-v3 for a cache that
     * machines of one generation share): separated by spaces, no quoting. */
    const char *extra = lat__emu_env(LAT_EMU_ENV_CC_FLAGS);
    while (extra && *extra) {
        while (*extra == ' ')
            extra++;
        size_t n = strcspn(extra, " ");
        if (n)
            add(a, "%.*s", (int)n, extra);
        extra += n;
    }
}

/* ---- the cache key ----------------------------------------------------------------------- */

static void key_field(lat__sha256 *s, const char *tag, const char *v)
{
    uint64_t n = strlen(v);
    lat__sha256_update(s, tag, strlen(tag) + 1);
    lat__sha256_update(s, &n, sizeof n);
    lat__sha256_update(s, v, (size_t)n);
}

/* What every module's key starts with: the format, lattice, the compiler, the CPU, the
 * flags all modules get and the runtime's table. False when out of memory. */
static bool key_prefix(const toolchain *tc, lat__sha256 *s)
{
    table t;
    get_table(&t);
    args flags = {0};
    base_flags(&flags, &t, tc, false);
    lat__sha256_init(s);
    key_field(s, "lattice optimised object", "2");
    key_field(s, "lattice", LAT_VERSION_STRING);
    const uint8_t *id;
    size_t id_len;
    if (lat__build_id(&id, &id_len))
        lat__sha256_update(s, id, id_len); /* the prelude and glue are lattice's code */
    key_field(s, "compiler", tc->identity);
    key_field(s, "cpu", tc->cpu);
    for (size_t i = 0; i < flags.n; i++)
        key_field(s, "flag", flags.v[i]);
    for (int p = 0; p < TABLE_PARTS; p++)
        for (size_t j = 0; j < t.n[p]; j++)
            key_field(s, "symbol", t.part[p][j].name);
    bool ok = !flags.oom;
    free_args(&flags);
    return ok;
}

/* The digests of the preludes seen (a handful: one per set of prelude parts), so that a
 * module's key hashes its own code only; a prelude is recognised by its bytes. */
enum { PRELUDE_DIGESTS = 16 };
static struct {
    char *text;
    size_t len;
    uint8_t digest[32];
} prelude_digests[PRELUDE_DIGESTS];
static pthread_mutex_t prelude_lock = PTHREAD_MUTEX_INITIALIZER;

static void prelude_digest(const char *text, size_t len, uint8_t digest[32])
{
    pthread_mutex_lock(&prelude_lock);
    int i = 0;
    for (; i < PRELUDE_DIGESTS && prelude_digests[i].text; i++)
        if (prelude_digests[i].len == len && memcmp(prelude_digests[i].text, text, len) == 0) {
            memcpy(digest, prelude_digests[i].digest, 32);
            pthread_mutex_unlock(&prelude_lock);
            return;
        }
    lat__sha256_once(text, len, digest);
    char *copy = i < PRELUDE_DIGESTS ? malloc(len ? len : 1) : NULL;
    if (copy) { /* else it is hashed again next time */
        memcpy(copy, text, len);
        prelude_digests[i].text = copy;
        prelude_digests[i].len = len;
        memcpy(prelude_digests[i].digest, digest, 32);
    }
    pthread_mutex_unlock(&prelude_lock);
}

/* The module's key: the toolchain's prefix, then the module's flags and program (its
 * prelude by digest). False when there is none to be had (out of memory). */
static bool make_key(const lat__emu_opt *o, const toolchain *tc, const args *mflags,
                     lat__cache_key *key)
{
    if (!tc->key_prefix_ok || mflags->oom || !o->program)
        return false;
    lat__sha256 s = tc->key_prefix;
    for (size_t i = 0; i < mflags->n; i++)
        key_field(&s, "module flag", mflags->v[i]);
    uint8_t prelude[32];
    char hex[65];
    prelude_digest(o->program, o->prelude_len, prelude);
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", prelude[i]);
    key_field(&s, "prelude", hex);
    key_field(&s, "program", o->program + o->prelude_len);
    lat__cache_key_final(&s, key);
    return true;
}

/* The module's key in the source index: the toolchain's prefix, the module's flags and
 * its translation's digest; what the object's key is made of but the program. False when
 * there is none (no digest, out of memory). */
static bool index_key(const lat__emu_opt *o, const toolchain *tc, const args *mflags,
                      lat__cache_key *key)
{
    if (!o->indexed || !tc->key_prefix_ok || mflags->oom)
        return false;
    lat__sha256 s = tc->key_prefix;
    key_field(&s, "source index", "1");
    for (size_t i = 0; i < mflags->n; i++)
        key_field(&s, "module flag", mflags->v[i]);
    lat__sha256_update(&s, o->source, sizeof o->source);
    lat__cache_key_final(&s, key);
    return true;
}

/* Records under the index key `index` that the module's object is `object` (its kernels
 * and variables bound, so the names are right). A failure to write is no error: the next
 * load translates. */
static void write_index(lat__emu_opt *o, const lat__cache_key *index, const lat__cache_key *object)
{
    o->index_pending = false;
    size_t size = 0;
    char *entry = lat__emu_index_encode(object, o->m, o->warnings, &size);
    if (entry)
        lat__cache_put_uncounted(index, entry, size);
    free(entry);
}

/* ---- running the compiler -------------------------------------------------------------- */

static double timeout_s(void)
{
    const char *v = lat__emu_env(LAT_EMU_ENV_CC_TIMEOUT);
    if (v && *v) {
        char *end;
        double d = strtod(v, &end);
        if (*end == '\0' && d > 0)
            return d;
    }
    return DEFAULT_TIMEOUT_S;
}

static int write_file(const char *path, const void *data, size_t size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    size_t done = 0;
    while (done < size) {
        ssize_t w = write(fd, (const char *)data + done, size - done);
        if (w <= 0) {
            close(fd);
            return -1;
        }
        done += (size_t)w;
    }
    return close(fd);
}

static char *read_file(const char *path, size_t *size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    char *buf = NULL;
    if (fstat(fd, &st) == 0 && st.st_size >= 0 && (buf = malloc((size_t)st.st_size + 1))) {
        size_t got = 0, total = (size_t)st.st_size;
        while (got < total) {
            ssize_t r = read(fd, buf + got, total - got);
            if (r <= 0)
                break;
            got += (size_t)r;
        }
        buf[got] = '\0';
        *size = got;
    }
    close(fd);
    return buf;
}

/* The object's module variables (its .data and .bss, the last of its writable memory)
 * are followed by 1 MiB of address space no one can touch, as TinyCC's program and device
 * memory are (compile.c, backend/memory.c): a kernel's write past them faults instead of
 * landing in whatever the system mapped next. The script puts one byte of read-only data
 * that far past .bss, a segment of its own; the loader maps the object's whole span and
 * leaves the hole between the segments inaccessible. (A hole, not an inaccessible part of
 * the writable segment: tools that read every writable segment, LeakSanitizer's scan of
 * globals, must not fault in it.) Before the variables lie the object's relocated
 * pointers, read-only once loaded (RELRO). */
static const char guard_script[] =
    "SECTIONS\n"
    "{\n"
    "  . = ALIGN(4096) + 0x100000;\n"
    "  .lat_tail : { BYTE(0) }\n"
    "}\n"
    "INSERT AFTER .bss;\n";

static int write_file(const char *path, const void *data, size_t size);

/* Runs the compiler on <dir>/k.c into <dir>/k.so (opt_proc.h). Returns 0, or -1 with a
 * message in *msg (NULL when the build was told to stop). */
static int run_compiler(lat__emu_opt *o, const toolchain *tc, lat__cc_job *job, const args *flags,
                        char **msg)
{
    const char *dir = lat__cc_job_dir(job);
    char script[4200];
    snprintf(script, sizeof script, "%s/guard.ld", dir);
    if (write_file(script, guard_script, sizeof guard_script - 1) != 0) {
        if (asprintf(msg, "cannot write %s: %s", script, strerror(errno)) < 0)
            *msg = NULL;
        return -1;
    }
    args a = {0};
    add(&a, "%s", tc->path);
    for (size_t i = 0; i < flags->n; i++)
        add(&a, "%s", flags->v[i]);
    add(&a, "-Wl,-T,%s", script);
    add(&a, "-o");
    add(&a, "%s/k.so", dir);
    add(&a, "%s/k.c", dir);
    /* The environment as it is (the driver finds as and ld on PATH), with the compiler's
     * temporaries in our directory and its messages untranslated. */
    args env = {0};
    for (char **e = o->env; e && *e; e++)
        if (strncmp(*e, "TMPDIR=", 7) != 0 && strncmp(*e, "LC_ALL=", 7) != 0)
            add(&env, "%s", *e);
    add(&env, "TMPDIR=%s", dir);
    add(&env, "LC_ALL=C");
    int r = -1;
    *msg = NULL;
    if (a.oom || env.oom)
        *msg = lat__strdup("out of host memory");
    else
        r = lat__cc_job_run(job, a.v, env.v, timeout_s(), "LATTICE_EMU_CC_TIMEOUT", &o->cancel,
                            msg);
    free_args(&a);
    free_args(&env);
    return r;
}

/* ---- loading --------------------------------------------------------------------------- */

typedef struct find_text {
    uintptr_t addr;
    uintptr_t lo, hi;     /* the executable segment holding addr */
    lat__emu_opt_code *c; /* gets that object's other segments (data) */
} find_text;

static int on_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    find_text *f = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
            continue;
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
        if (f->addr >= lo && f->addr < hi) {
            f->lo = lo;
            f->hi = hi;
            lat__emu_opt_code *c = f->c;
            c->ndata = 0;
            for (int j = 0; j < info->dlpi_phnum && c->ndata < LAT_EMU_OPT_DATA_MAX; j++) {
                const ElfW(Phdr) *q = &info->dlpi_phdr[j];
                /* Those after the code: the first holds the ELF headers and symbols. */
                if (q->p_type != PT_LOAD || (q->p_flags & PF_X) || q->p_vaddr < ph->p_vaddr)
                    continue;
                uintptr_t a = info->dlpi_addr + q->p_vaddr;
                c->data[c->ndata].lo = a;
                c->data[c->ndata++].hi = a + q->p_memsz;
            }
            return 1;
        }
    }
    return 0;
}

static void free_code(lat__emu_opt_code *c)
{
    if (!c)
        return;
    if (c->handle)
        dlclose(c->handle);
    if (c->fd >= 0)
        close(c->fd);
    lat__cc_job_end(c->job);
    free(c->entries);
    free(c->globals);
    free(c);
}

/* Opens the object at path and fills its table. NULL with *msg when it cannot. */
static lat__emu_opt_code *open_object(const char *path, const table *t, char **msg)
{
    lat__emu_opt_code *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->fd = -1;
    c->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!c->handle) {
        if (asprintf(msg, "cannot load the optimised object: %s", dlerror()) < 0)
            *msg = NULL;
        free_code(c);
        return NULL;
    }
    /* The table is hidden (the trampolines address it directly); the object exports a
     * pointer to it. */
    void **const *tabp = dlsym(c->handle, "__lat_opt_table");
    const unsigned long *ntab = dlsym(c->handle, "__lat_opt_ntab");
    bool ok = tabp && ntab && *ntab == t->total;
    void **tab = ok ? *tabp : NULL;
    for (int p = 0, i = 0; p < TABLE_PARTS && ok; p++)
        for (size_t j = 0; j < t->n[p]; j++, i++)
            memcpy(&tab[i], &t->part[p][j].fn, sizeof tab[i]);
    if (!ok) {
        if (asprintf(msg, "the optimised object has not the runtime's table (a lattice bug)") < 0)
            *msg = NULL;
        free_code(c);
        return NULL;
    }
    return c;
}

/* Finds the module's kernels and variables in an open object. False with *msg when the
 * object is not what this module needs. */
static bool bind_object(const lat__emu_opt *o, lat__emu_opt_code *c, char **msg)
{
    const lat__emu_module *m = o->m;
    c->entries = calloc((size_t)m->nkernels + 1, sizeof *c->entries);
    c->globals = calloc((size_t)m->nglobals + 1, sizeof *c->globals);
    if (!c->entries || !c->globals)
        return false; /* out of memory: no message */
    bool ok = true;
    char sym[600];
    for (int i = 0; i < m->nkernels && ok; i++) {
        snprintf(sym, sizeof sym, LAT_EMU_ENTRY_PREFIX "%s", m->kernels[i].name);
        void *e = dlsym(c->handle, sym);
        ok = e != NULL;
        memcpy(&c->entries[i], &e, sizeof e);
    }
    for (int i = 0; i < m->nglobals && ok; i++) {
        snprintf(sym, sizeof sym, LAT_EMU_GADDR_PREFIX "%s", m->globals[i].name);
        void *const *a = dlsym(c->handle, sym);
        ok = a != NULL;
        c->globals[i] = a ? *a : NULL;
    }
    if (ok && o->debug)
        ok = (c->debug_ids = dlsym(c->handle, LAT_EMU_DEBUG_IDS)) != NULL;
    if (ok && m->nkernels > 0) {
        find_text f = {.c = c};
        memcpy(&f.addr, &c->entries[0], sizeof f.addr);
        dl_iterate_phdr(on_object, &f);
        c->text = (const char *)f.lo;
        c->text_size = f.hi - f.lo;
        ok = f.lo != 0;
    }
    if (!ok && asprintf(msg, "the optimised object lacks the module's symbols (a lattice bug)") < 0)
        *msg = NULL;
    return ok;
}

/* Loads the object at path, fills its table, finds the kernels (when bind). */
static lat__emu_opt_code *load(const lat__emu_opt *o, const char *path, const table *t, bool bind,
                               char **msg)
{
    lat__emu_opt_code *c = open_object(path, t, msg);
    if (c && bind && !bind_object(o, c, msg)) {
        free_code(c);
        return NULL;
    }
    return c;
}

/* Loads a cached object's bytes from an anonymous file, by its name /proc/self/fd/N.
 * dlopen knows objects by name: given a name that an object still loaded was opened
 * under, it returns that object, whatever the file is now. So the file stays open while
 * its object is loaded (free_code closes it), and no other object of ours can be given
 * its number; a name that some other code of the process left loaded is stepped over
 * with dup. (An optimised module's object loaded this way while another's was loaded
 * from a number since closed and reused was that other object: its kernels missing, the
 * entry was compiled again, 200 ms where a hit takes one.) */
static lat__emu_opt_code *load_bytes(const lat__emu_opt *o, const void *data, size_t size,
                                     const table *t, bool bind, char **msg)
{
    int fd = memfd_create("lattice-opt", MFD_CLOEXEC);
    if (fd < 0)
        return NULL;
    size_t done = 0;
    while (done < size) {
        ssize_t w = write(fd, (const char *)data + done, size - done);
        if (w <= 0)
            break;
        done += (size_t)w;
    }
    char path[64];
    int tries = 0;
    for (;;) {
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        void *taken = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
        if (!taken)
            break;
        dlclose(taken);
        int other = ++tries < 16 ? fcntl(fd, F_DUPFD_CLOEXEC, fd + 1) : -1;
        close(fd);
        if (other < 0)
            return NULL;
        fd = other;
    }
    lat__emu_opt_code *c = done == size ? load(o, path, t, bind, msg) : NULL;
    if (c)
        c->fd = fd;
    else
        close(fd);
    return c;
}

/* ---- the build ------------------------------------------------------------------------- */

/* The exit handler (stop_builds, below), registered once before the first build. */
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;
static void at_exit_stop_builds(void);

/* Builds or finds the object; publishes it. Returns false with *msg (may be NULL). */
static bool build(lat__emu_opt *o, char **msg, bool *no_compiler)
{
    *msg = NULL;
    *no_compiler = false;
    toolchain *tc = malloc(sizeof *tc);
    if (!tc)
        return false;
    get_toolchain(tc, env_get(o->env, "PATH"));
    if (!tc->path[0]) {
        *no_compiler = true;
        *msg = lat__strdup(tc->why_none);
        free(tc);
        return false;
    }
    table t;
    get_table(&t);
    args mflags = {0}, flags = {0};
    module_flags(&mflags, o);
    base_flags(&flags, &t, tc, o->debug);
    for (size_t i = 0; i < mflags.n; i++)
        add(&flags, "%s", mflags.v[i]);
    lat__cache_key key;
    /* -G's object is not cached: a debugger finds it by the path it was loaded from. */
    bool cache = !o->debug && make_key(o, tc, &mflags, &key) && lat__cache_enabled();
    if (flags.oom) {
        free_args(&mflags);
        free_args(&flags);
        free(tc);
        return false;
    }
    void *blob = NULL;
    size_t blob_size = 0;
    int origin;
    lat__emu_opt_code *c = NULL;
    if (cache && lat__cache_get(&key, true, &blob, &blob_size, &origin)) {
        char *ignored = NULL;
        c = load_bytes(o, blob, blob_size, &t, true, &ignored);
        free(ignored); /* a bad entry is compiled again */
        free(blob);
    }
    if (!c) {
        if (cache)
            lat__cache_count_miss();
        pthread_once(&exit_once, at_exit_stop_builds);
        lat__cc_job *job = lat__cc_job_begin(env_get(o->env, "TMPDIR"), &o->cancel, msg);
        if (!job) {
            free_args(&mflags);
            free_args(&flags);
            free(tc);
            return false;
        }
        char *text = NULL;
        size_t len = 0;
        char path[4200];
        snprintf(path, sizeof path, "%s/k.c", lat__cc_job_dir(job));
        int r = o->debug ? without_prelude_lines(&text, &len, o->program, o->prelude_len)
                         : lat__strbuf_printf(&text, &len, "%s", o->program);
        if (r == 0)
            r = append_glue(&text, &len, &t, o->debug);
        if (r != 0) {
            *msg = NULL; /* out of memory */
        } else if (write_file(path, text, len) != 0) {
            if (asprintf(msg, "cannot write %s: %s", path, strerror(errno)) < 0)
                *msg = NULL;
        } else if (run_compiler(o, tc, job, &flags, msg) == 0) {
            snprintf(path, sizeof path, "%s/k.so", lat__cc_job_dir(job));
            size_t n = 0;
            char *so = read_file(path, &n);
            c = load(o, path, &t, true, msg);
            if (c && so && cache)
                lat__cache_put(&key, true, so, n);
            free(so);
        }
        free(text);
        if (c && o->debug) {
            lat__cc_job_keep(job); /* removed with the object (free_code) */
            c->job = job;
        } else {
            lat__cc_job_end(job);
        }
    }
    lat__cache_key index;
    if (c && cache && o->index_pending && index_key(o, tc, &mflags, &index))
        write_index(o, &index, &key);
    free_args(&mflags);
    free_args(&flags);
    free(tc);
    if (!c)
        return false;
    atomic_store_explicit(&o->code, c, memory_order_release);
    return true;
}

void *lat__emu_opt_open_cached(lat__emu_opt *o)
{
    if (o->debug)
        return NULL;
    if ((o->mode != LAT_EMU_OPT_SYNC && o->mode != LAT_EMU_OPT_BACKGROUND) || !lat__cache_enabled())
        return NULL;
    toolchain *tc = malloc(sizeof *tc);
    if (!tc)
        return NULL;
    get_toolchain(tc, getenv("PATH")); /* the program's thread */
    table t;
    get_table(&t);
    args mflags = {0};
    if (tc->path[0])
        module_flags(&mflags, o);
    void *blob = NULL;
    size_t blob_size = 0;
    int origin;
    lat__cache_key key;
    if (tc->path[0] && make_key(o, tc, &mflags, &key)) {
        if (lat__cache_get(&key, true, &blob, &blob_size, &origin)) {
            char *ignored = NULL;
            o->pending = load_bytes(o, blob, blob_size, &t, false, &ignored);
            free(ignored); /* a bad entry: build() compiles it again */
            free(blob);
            /* The index learns of it once it is bound (lat__emu_opt_bind_cached). */
            o->pending_keys = o->index_pending && o->pending &&
                              index_key(o, tc, &mflags, &o->pending_index);
            o->pending_object = key;
        }
    }
    free_args(&mflags);
    free(tc);
    return o->pending ? o->pending->handle : NULL;
}

void *lat__emu_opt_open_indexed(lat__emu_opt *o, lat__lower_out *names, char **warnings)
{
    memset(names, 0, sizeof *names);
    *warnings = NULL;
    if ((o->mode != LAT_EMU_OPT_SYNC && o->mode != LAT_EMU_OPT_BACKGROUND) || !o->indexed ||
        !lat__cache_enabled())
        return NULL;
    toolchain *tc = malloc(sizeof *tc);
    if (!tc)
        return NULL;
    get_toolchain(tc, getenv("PATH")); /* the program's thread */
    args mflags = {0};
    lat__cache_key key, object;
    void *entry = NULL, *blob = NULL;
    size_t entry_size = 0, blob_size = 0;
    int origin;
    if (tc->path[0])
        module_flags(&mflags, o);
    if (tc->path[0] && index_key(o, tc, &mflags, &key) &&
        lat__cache_get_uncounted(&key, &entry, &entry_size) &&
        lat__emu_index_decode(entry, entry_size, &object, names, warnings) &&
        lat__cache_get(&object, true, &blob, &blob_size, &origin)) {
        table t;
        get_table(&t);
        char *ignored = NULL;
        o->pending = load_bytes(o, blob, blob_size, &t, false, &ignored);
        free(ignored); /* a bad object: the module is translated and its object found or built */
        o->index_pending = false;
    }
    free(blob);
    free(entry);
    free_args(&mflags);
    free(tc);
    if (!o->pending) {
        lat__lower_out_free(names);
        free(*warnings);
        *warnings = NULL;
    }
    return o->pending ? o->pending->handle : NULL;
}

bool lat__emu_opt_set_source(lat__emu_opt *o, const uint8_t digest[32], const char *warnings)
{
    free(o->warnings);
    o->warnings = warnings ? lat__strdup(warnings) : NULL;
    if (warnings && !o->warnings)
        return false;
    memcpy(o->source, digest, sizeof o->source);
    o->indexed = o->index_pending = true;
    return true;
}

bool lat__emu_opt_bind_cached(lat__emu_opt *o)
{
    lat__emu_opt_code *c = o->pending;
    o->pending = NULL;
    char *msg = NULL;
    if (!c || !bind_object(o, c, &msg)) {
        free(msg);
        free_code(c);
        return false;
    }
    pthread_mutex_lock(&o->lock);
    o->state = DONE;
    pthread_mutex_unlock(&o->lock);
    atomic_store_explicit(&o->code, c, memory_order_release);
    if (o->pending_keys)
        write_index(o, &o->pending_index, &o->pending_object);
    o->pending_keys = false;
    return true;
}

void lat__emu_opt_drop_cached(lat__emu_opt *o)
{
    free_code(o->pending);
    o->pending = NULL;
    o->pending_keys = false;
}

/* The words for a failure, once per module (no compiler: once per process). */
static char *failure_note(const char *msg, bool no_compiler)
{
    if (no_compiler) {
        pthread_mutex_lock(&tc_lock);
        bool said = none_said;
        none_said = true;
        pthread_mutex_unlock(&tc_lock);
        if (said)
            return NULL;
    }
    char *note = NULL;
    if (asprintf(&note, "%s: the emulator's optimising tier is off, kernels run on TinyCC's code",
                 msg ? msg : "out of host memory") < 0)
        note = NULL;
    return note;
}

/* ---- the interface --------------------------------------------------------------------- */

static const char **copy_list(const char **l)
{
    size_t n = 0;
    while (l && l[n])
        n++;
    const char **c = calloc(n + 1, sizeof *c);
    for (size_t i = 0; c && i < n; i++)
        if (!(c[i] = lat__strdup(l[i]))) {
            for (size_t j = 0; j < i; j++)
                free((char *)c[j]);
            free(c);
            return NULL;
        }
    return c;
}

static void free_list(const char **l)
{
    for (size_t i = 0; l && l[i]; i++)
        free((char *)l[i]);
    free(l);
}

lat__emu_opt *lat__emu_opt_new(const lat__emu_module *m, int mode, char *program,
                               size_t prelude_len, const char **defines, const char **undefines)
{
    lat__emu_opt *o = calloc(1, sizeof *o);
    if (o) {
        o->m = m;
        o->mode = mode;
        o->program = program;
        o->prelude_len = prelude_len;
        o->defines = copy_list(defines);
        o->undefines = copy_list(undefines);
    }
    if (!o || !o->defines || !o->undefines || pthread_mutex_init(&o->lock, NULL) != 0) {
        if (o) {
            free_list(o->defines);
            free_list(o->undefines);
        }
        free(o);
        free(program);
        return NULL;
    }
    return o;
}

const char *lat__emu_opt_program(const lat__emu_opt *o)
{
    return o->program;
}

int lat__emu_opt_get_mode(const lat__emu_opt *o)
{
    return o ? o->mode : LAT_EMU_OPT_OFF;
}

/* Copies the environment into o->env, on the program's thread (the build reads only it). */
static void take_env(lat__emu_opt *o)
{
    if (o->env)
        return;
    size_t n = 0;
    while (environ && environ[n])
        n++;
    char **env = calloc(n + 1, sizeof *env);
    for (size_t i = 0; env && i < n; i++)
        if (!(env[i] = strdup(environ[i]))) {
            for (size_t j = 0; j < i; j++)
                free(env[j]);
            free(env);
            env = NULL; /* out of memory: the build runs with a bare environment */
        }
    o->env = env;
}

static void free_env(char **env)
{
    for (size_t i = 0; env && env[i]; i++)
        free(env[i]);
    free(env);
}

bool lat__emu_opt_build_now(lat__emu_opt *o, char **note)
{
    *note = NULL;
    pthread_mutex_lock(&o->lock);
    bool mine = o->state == IDLE;
    if (mine) {
        o->state = BUILDING;
        take_env(o);
    }
    pthread_mutex_unlock(&o->lock);
    if (!mine)
        return lat__emu_opt_code_of(o) != NULL;
    char *msg;
    bool none;
    bool ok = build(o, &msg, &none);
    if (!ok && o->debug) /* no TinyCC to fall back on: the caller says why it failed */
        *note = msg;
    else if (!ok)
        *note = failure_note(msg, none);
    if (*note != msg)
        free(msg);
    pthread_mutex_lock(&o->lock);
    o->state = DONE;
    pthread_mutex_unlock(&o->lock);
    return ok;
}

void lat__emu_opt_set_debug(lat__emu_opt *o)
{
    o->debug = true;
}

static void *background(void *arg)
{
    lat__emu_opt *o = arg;
    char *msg;
    bool none;
    if (!build(o, &msg, &none) && !atomic_load(&o->cancel))
        atomic_store(&o->note, failure_note(msg, none));
    free(msg);
    pthread_mutex_lock(&o->lock);
    o->state = DONE;
    pthread_mutex_unlock(&o->lock);
    return NULL;
}

/* Builds still running at exit. A module shared through the compile cache outlives its
 * contexts, so its build can still be running when the program returns from main; exit
 * would then free the C library's state under the build's feet (valgrind: fclose racing
 * __libc_freeres in read_cpu). At exit each is told to stop, its compiler is killed, and it
 * is waited for; then whatever compile is left (a SYNC build on another thread) has its
 * compiler killed and reaped and its directory removed (opt_proc.h). A list, not a table:
 * every build is stopped, however many were started. */
static pthread_mutex_t builds_lock = PTHREAD_MUTEX_INITIALIZER;
static lat__emu_opt *builds;

/* Tells o's build to stop (its compiler is killed by its own thread within a
 * millisecond). True when the caller must join the build's thread (*thread): whoever
 * claims it first joins it, the others do not. */
static bool stop_build(lat__emu_opt *o, pthread_t *thread)
{
    atomic_store(&o->cancel, true);
    lat__cc_wake();
    pthread_mutex_lock(&o->lock);
    bool join = o->thread_started;
    o->thread_started = false;
    *thread = o->thread;
    pthread_mutex_unlock(&o->lock);
    return join;
}

static void stop_builds(void)
{
    size_t n = 0, cap = 0;
    pthread_t *threads = NULL;
    pthread_mutex_lock(&builds_lock);
    for (lat__emu_opt *o = builds; o; o = o->next_build) {
        if (n == cap) {
            size_t c = cap ? 2 * cap : 64;
            pthread_t *t = realloc(threads, c * sizeof *t);
            if (!t)
                break; /* out of memory at exit: those left are stopped, not waited for */
            threads = t;
            cap = c;
        }
        if (stop_build(o, &threads[n]))
            n++;
    }
    pthread_mutex_unlock(&builds_lock);
    lat__cc_kill_all();
    for (size_t i = 0; i < n; i++)
        pthread_join(threads[i], NULL);
    free(threads);
    lat__cc_at_exit();
}

static void at_exit_stop_builds(void)
{
    atexit(stop_builds);
}

/* Adds o to the builds running (add) or takes it out. */
static void track_build(lat__emu_opt *o, bool add)
{
    pthread_once(&exit_once, at_exit_stop_builds);
    pthread_mutex_lock(&builds_lock);
    if (add) {
        o->prev_build = NULL;
        o->next_build = builds;
        if (builds)
            builds->prev_build = o;
        builds = o;
    } else {
        if (o->prev_build)
            o->prev_build->next_build = o->next_build;
        else
            builds = o->next_build;
        if (o->next_build)
            o->next_build->prev_build = o->prev_build;
    }
    pthread_mutex_unlock(&builds_lock);
}

void lat__emu_opt_start(lat__emu_opt *o)
{
    /* Before o->lock: stop_builds takes builds_lock, then each build's lock. */
    if (!atomic_exchange(&o->tracked, true))
        track_build(o, true);
    pthread_mutex_lock(&o->lock);
    if (o->state == IDLE) {
        take_env(o);
        /* The build's thread blocks every signal: the program's handlers, the guard's
         * and the watchdog's are for the threads that run kernels. */
        sigset_t all, old;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        if (pthread_create(&o->thread, NULL, background, o) == 0) {
            o->state = BUILDING;
            o->thread_started = true;
        } else {
            o->state = DONE; /* no thread: TinyCC it is */
        }
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    }
    pthread_mutex_unlock(&o->lock);
}

const lat__emu_opt_code *lat__emu_opt_code_of(lat__emu_opt *o)
{
    return o ? atomic_load_explicit(&o->code, memory_order_acquire) : NULL;
}

char *lat__emu_opt_after_launch(lat__emu_opt *o, uint64_t ns)
{
    if (o->mode == LAT_EMU_OPT_AUTO &&
        atomic_fetch_add(&o->ran_ns, ns) + ns >= AUTO_NS && atomic_load(&o->ran_ns) - ns < AUTO_NS)
        lat__emu_opt_start(o);
    if (!atomic_load_explicit(&o->note, memory_order_relaxed))
        return NULL;
    return atomic_exchange(&o->note, NULL);
}

void lat__emu_opt_free(lat__emu_opt *o)
{
    if (!o)
        return;
    pthread_t thread;
    if (stop_build(o, &thread))
        pthread_join(thread, NULL);
    if (atomic_load(&o->tracked))
        track_build(o, false);
    free_code(atomic_load(&o->code));
    free_code(o->pending);
    free(atomic_load(&o->note));
    free(o->program);
    free(o->warnings);
    free_list(o->defines);
    free_env(o->env);
    free_list(o->undefines);
    pthread_mutex_destroy(&o->lock);
    free(o);
}
