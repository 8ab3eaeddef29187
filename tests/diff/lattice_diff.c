/*
 * lattice-diff: runs generated kernels on several executors and reports where they
 * disagree (tests/diff/README.md).
 *
 *   lattice-diff --seed 1 --count 1000                 region loops vs fibers, checked runs
 *   lattice-diff --backend cuda --count 1000           the GPU vs the emulator
 *   lattice-diff --backend both --features all         the GPU vs every emulator executor
 *   lattice-diff --per-class --count 300               each class not in CI, added alone
 *   lattice-diff --print 42 --features all             the source of seed 42, not run
 */
#include "diff.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: lattice-diff [options]\n"
            "  --seed S           first seed (default 1); seeds S .. S+N-1 are run\n"
            "  --count N          how many kernels (default 100)\n"
            "  --features LIST    feature classes: names, all, none, ci (default), -name,\n"
            "                     0xMASK (--list-features lists them)\n"
            "  --backend B        emu: region loops, fibers and checked runs against fibers\n"
            "                     (default); cuda: the emulator (region) against the GPU;\n"
            "                     both: every emulator executor against the GPU\n"
            "  --executors LIST   instead of --backend: region,fibers,check,checkfib,cuda,opt\n"
            "  --reference K      the executor the others are compared with\n"
            "  --no-check         leave out the checked runs\n"
            "  --print-failing    print each failing kernel: seed, source, outcomes and the\n"
            "                     first differing element\n"
            "  --shrink           ... and shrink it to a small kernel failing the same way\n"
            "  --per-class        for each class outside --features, run --count kernels with\n"
            "                     that class added, and print a table\n"
            "  --print S          print the kernel of seed S and exit\n"
            "  --file F           run the kernel in file F instead (a reproducer; repeatable):\n"
            "                     k(unsigned *o, const unsigned *in, unsigned p0, unsigned p1),\n"
            "                     launch from its first line's 'grid (x,y,z), block (x,y,z)',\n"
            "                     K words per thread from '#define K', in[i] = i, p0 = 3,\n"
            "                     p1 = 100; with a line 'expect: 64*0 32*1 ...' (N*V repeats V)\n"
            "                     every executor is compared with that output; prints the\n"
            "                     outputs, exits 1 when an executor fails or differs\n"
            "  --list-features    list the feature classes (* = on in CI)\n"
            "Prints 'N kernels, N disagreed'; exits 1 when any disagreed.\n");
}

static int parse_kinds(const char *text, unsigned *kinds)
{
    *kinds = 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *w = strtok(buf, ","); w; w = strtok(NULL, ",")) {
        int k;
        for (k = 0; k < DX_N; k++)
            if (strcmp(w, dx_kind_name((dx_kind)k)) == 0)
                break;
        if (k == DX_N) {
            fprintf(stderr, "lattice-diff: unknown executor '%s'\n", w);
            return -1;
        }
        *kinds |= 1u << k;
    }
    return 0;
}

static int find_kind(const char *w)
{
    for (int k = 0; k < DX_N; k++)
        if (strcmp(w, dx_kind_name((dx_kind)k)) == 0)
            return k;
    return -1;
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    for (size_t k; s && (k = fread(s + n, 1, cap - n - 1, f)) > 0;) {
        n += k;
        if (n + 1 == cap) {
            char *g = realloc(s, cap *= 2);
            if (!g) {
                free(s);
                s = NULL;
            }
            s = g;
        }
    }
    fclose(f);
    if (s)
        s[n] = 0;
    return s;
}

/* The words of an 'expect:' line (N*V repeats V); NULL when there is none. */
static uint32_t *expected(const char *src, size_t n)
{
    const char *e = strstr(src, "expect:");
    if (!e)
        return NULL;
    uint32_t *w = calloc(n ? n : 1, sizeof *w);
    size_t at = 0;
    for (e += 7; w && *e && *e != '\n';) {
        char *end;
        unsigned long a = strtoul(e, &end, 0), times = 1;
        if (end == e) {
            e++;
            continue;
        }
        if (*end == '*') {
            times = a;
            e = end + 1;
            a = strtoul(e, &end, 0);
        }
        for (unsigned long i = 0; i < times && at < n; i++)
            w[at++] = (uint32_t)a;
        e = end;
    }
    return w;
}

/* Runs a hand-written kernel (a reproducer) on the executors and prints the outputs. */
static int run_file(dx_runner *r, unsigned kinds, dx_kind ref, const char *path)
{
    char *src = read_file(path);
    if (!src) {
        fprintf(stderr, "lattice-diff: cannot read %s\n", path);
        return 2;
    }
    static uint32_t in[64];
    for (unsigned i = 0; i < 64; i++)
        in[i] = i;
    dg_run_info info = {.grid = {1, 1, 1}, .block = {1, 1, 1}, .slots = 1, .in = in,
                        .in_words = 64, .params = {3, 100}};
    const char *g = strstr(src, "grid ("), *b = strstr(src, "block (");
    if (g)
        sscanf(g, "grid (%u,%u,%u)", &info.grid[0], &info.grid[1], &info.grid[2]);
    if (b)
        sscanf(b, "block (%u,%u,%u)", &info.block[0], &info.block[1], &info.block[2]);
    const char *k = strstr(src, "#define K ");
    if (k)
        sscanf(k, "#define K %u", &info.slots);
    info.threads = info.block[0] * info.block[1] * info.block[2];
    info.out_words = (size_t)info.grid[0] * info.grid[1] * info.grid[2] * info.threads * info.slots;
    dx_result res[DX_N] = {0};
    int status = 0;
    printf("%s:\n", path);
    for (int i = 0; i < DX_N; i++) {
        if (!(kinds >> i & 1))
            continue;
        dx_run(r, (dx_kind)i, src, &info, &res[i]);
        dx_describe(stdout, (dx_kind)i, &res[i]);
        if (res[i].out) {
            printf("          ");
            for (size_t j = 0; j < res[i].n && j < 256; j++)
                printf(" %u", res[i].out[j]);
            printf("%s\n", res[i].n > 256 ? " ..." : "");
        }
    }
    uint32_t *want = expected(src, info.out_words);
    dx_result wanted = {.outcome = DX_OK, .out = want, .n = info.out_words};
    for (int i = 0; i < DX_N; i++)
        if ((kinds >> i & 1) && res[i].outcome != DX_OK)
            status = 1;
    for (int i = 0; i < DX_N; i++) {
        if (!(kinds >> i & 1) || (!want && i == (int)ref))
            continue;
        dx_diff d = dx_compare(want ? &wanted : &res[ref], &res[i]);
        const char *refname = want ? "the expected output" : dx_kind_name(ref);
        if (d.differ) {
            status = 1;
            if (res[i].out && res[ref].out) {
                char where[128];
                dx_locate(&info, d.index, where, sizeof where);
                printf("%s differs from %s at o[%zu], %s: %u, want %u (%zu words differ)\n",
                       dx_kind_name((dx_kind)i), refname, d.index, where, d.got, d.want,
                       d.count);
            } else {
                printf("%s differs from %s in outcome\n", dx_kind_name((dx_kind)i), refname);
            }
        } else if (want && res[i].outcome == DX_OK) {
            printf("%s gives the expected output\n", dx_kind_name((dx_kind)i));
        }
    }
    free(want);
    for (int i = 0; i < DX_N; i++)
        dx_result_free(&res[i]);
    free(src);
    return status;
}

typedef struct tally {
    long kernels, failed, bad[DX_N];
} tally;

static tally run_range(dx_runner *r, const dd_options *o, uint64_t seed, long count)
{
    tally t = {0};
    for (long i = 0; i < count; i++) {
        dd_verdict v = dd_run_seed(r, o, seed + (uint64_t)i);
        t.kernels++;
        t.failed += v.failed;
        for (int k = 0; k < DX_N; k++)
            t.bad[k] += v.bad >> k & 1;
    }
    return t;
}

static void print_tally(const tally *t, unsigned kinds)
{
    printf("%ld kernels, %ld disagreed", t->kernels, t->failed);
    const char *sep = " (";
    for (int k = 0; k < DX_N; k++)
        if ((kinds >> k & 1) && t->bad[k]) {
            printf("%s%s %ld", sep, dx_kind_name((dx_kind)k), t->bad[k]);
            sep = ", ";
        }
    printf("%s\n", *sep == ',' ? ")" : "");
}

int main(int argc, char **argv)
{
    uint64_t seed = 1;
    long count = 100;
    unsigned features = DG_F_CI, kinds = 0;
    const char *backend = "emu";
    int reference = -1;
    bool no_check = false, per_class = false;
    const char *files[64], *print = NULL;
    int nfiles = 0;
    dd_options o = {0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--seed") == 0 && val) {
            seed = strtoull(val, NULL, 0), i++;
        } else if (strcmp(a, "--count") == 0 && val) {
            count = strtol(val, NULL, 0), i++;
        } else if (strcmp(a, "--features") == 0 && val) {
            char why[128];
            if (dg_parse_features(val, &features, why, sizeof why) != 0) {
                fprintf(stderr, "lattice-diff: %s\n", why);
                return 2;
            }
            i++;
        } else if (strcmp(a, "--backend") == 0 && val) {
            backend = val, i++;
        } else if (strcmp(a, "--executors") == 0 && val) {
            if (parse_kinds(val, &kinds) != 0)
                return 2;
            i++;
        } else if (strcmp(a, "--reference") == 0 && val) {
            reference = find_kind(val), i++;
            if (reference < 0) {
                fprintf(stderr, "lattice-diff: unknown executor '%s'\n", val);
                return 2;
            }
        } else if (strcmp(a, "--no-check") == 0) {
            no_check = true;
        } else if (strcmp(a, "--print-failing") == 0) {
            o.print_failing = true;
        } else if (strcmp(a, "--shrink") == 0) {
            o.print_failing = o.shrink = true;
        } else if (strcmp(a, "--per-class") == 0) {
            per_class = true;
        } else if (strcmp(a, "--print") == 0 && val) {
            print = val, i++;
        } else if (strcmp(a, "--file") == 0 && val) {
            if (nfiles < 64)
                files[nfiles++] = val;
            i++;
        } else if (strcmp(a, "--list-features") == 0) {
            for (int f = 0; f < DG_NFEATURES; f++)
                printf("%c %-8s %s\n", DG_F_CI >> f & 1 ? '*' : ' ', dg_feature_name(f),
                       dg_feature_desc(f));
            return 0;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "lattice-diff: unknown argument '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (print) {
        dg_program *p = dg_generate(strtoull(print, NULL, 0), features);
        char *src = dg_render(p, NULL);
        fputs(src, stdout);
        free(src);
        dg_free(p);
        return 0;
    }
    if (!kinds) {
        unsigned emu = 1u << DX_REGION | 1u << DX_FIBERS;
        if (!no_check)
            emu |= 1u << DX_CHECK | 1u << DX_CHECK_FIBERS;
        if (strcmp(backend, "emu") == 0)
            kinds = emu, reference = reference < 0 ? DX_FIBERS : reference;
        else if (strcmp(backend, "cuda") == 0)
            kinds = 1u << DX_REGION | 1u << DX_CUDA, reference = reference < 0 ? DX_CUDA : reference;
        else if (strcmp(backend, "both") == 0)
            kinds = emu | 1u << DX_CUDA, reference = reference < 0 ? DX_CUDA : reference;
        else {
            fprintf(stderr, "lattice-diff: --backend is emu, cuda or both\n");
            return 2;
        }
    }
    if (reference < 0)
        reference = kinds >> DX_CUDA & 1 ? DX_CUDA : kinds >> DX_FIBERS & 1 ? DX_FIBERS : DX_REGION;
    kinds |= 1u << reference;
    /* A kernel that hangs is a bug to report in seconds. */
    setenv("LATTICE_EMU_TIMEOUT", "10", 0);
    if (getenv("LATTICE_EMU_FIBERS")) {
        fprintf(stderr, "lattice-diff: LATTICE_EMU_FIBERS is set; unsetting it (the fibers "
                        "executor sets it itself)\n");
        unsetenv("LATTICE_EMU_FIBERS");
    }
    dx_runner r;
    char why[512];
    if (dx_open(&r, kinds, why, sizeof why) != 0) {
        fprintf(stderr, "lattice-diff: %s\n", why);
        return 2;
    }
    o.features = features;
    o.kinds = kinds;
    o.reference = (dx_kind)reference;
    int status = 0;
    if (nfiles) {
        for (int f = 0; f < nfiles; f++)
            status |= run_file(&r, kinds, o.reference, files[f]);
    } else if (per_class) {
        dd_options q = o;
        printf("%-8s %8s %9s  (%ld kernels each, seeds %llu.., the class added to", "class",
               "kernels", "disagreed", count, (unsigned long long)seed);
        char feats[512];
        dg_format_features(features, feats, sizeof feats);
        printf(" %s)\n", feats);
        for (int f = 0; f < DG_NFEATURES; f++) {
            if (features >> f & 1)
                continue;
            q.features = features | 1u << f;
            tally t = run_range(&r, &q, seed, count);
            printf("%-8s %8ld %9ld\n", dg_feature_name(f), t.kernels, t.failed);
            fflush(stdout);
            status |= t.failed > 0;
        }
    } else {
        tally t = run_range(&r, &o, seed, count);
        print_tally(&t, kinds);
        status = t.failed > 0;
    }
    dx_close(&r);
    return status;
}
