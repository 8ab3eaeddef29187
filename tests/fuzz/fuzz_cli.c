/* A libFuzzer target for the lattice program's inputs (tools/lattice.c, compiled in with
 * its main renamed): the input is the command line, its arguments separated by NUL bytes,
 * and its first byte picks one of the kernel files below, which an argument "@" names.
 * Every command line must end in an exit status and a message, never a crash, a hang, a
 * leak or a launch with a value the user did not give (the CLI's strict parsing).
 *
 * The kernel sources are fixed (the other targets fuzz sources): these are the CLI's
 * inputs. Command lines that would write files (--svg, --png) or run kernels unchecked
 * (-c without memcheck: a stray write of an unchecked launch lands in the fuzzer's heap,
 * which is the unchecked emulator's nature, not a bug) are passed over, as are buffers of
 * more than 64 Ki elements (a run's memory, not a parse). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int lattice_cli_main(int argc, char **argv);
#define main lattice_cli_main
#include "../../tools/lattice.c"
#undef main

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const sources[] = {
    /* 2-D, the README's thread map */
    "__global__ void add(float *c, const float *a, const float *b, int width, int height)\n"
    "{\n"
    "    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;\n"
    "    if (x < width && y < height) c[y * width + x] = a[y * width + x] + b[y * width + x];\n"
    "}\n",
    /* scalars of every type the CLI parses */
    "#include <cuda_fp16.h>\n"
    "__global__ void k(double *out, const int *in, int n, float s, unsigned char c, long long big,\n"
    "                  __half h, bool flag, unsigned short u, double d, signed char sc, __half2 h2)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) out[i] = in[i] * s + c + (double)big + __half2float(h) + flag + u + d + sc\n"
    "                        + __low2float(h2);\n"
    "}\n",
    /* templates, vectors, two steps */
    "template <typename T, int K>\n"
    "__global__ void scale(T *out, const T *in, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) out[i] = in[i] * (T)K;\n"
    "}\n"
    "__global__ void pairs(float2 *p, const float *out, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (2 * i + 1 < n) p[i] = make_float2(out[2 * i], out[2 * i + 1]);\n"
    "}\n",
    /* shared memory, a barrier, an atomic */
    "__global__ void sum(int *total, const int *in, int n)\n"
    "{\n"
    "    extern __shared__ int s[];\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    s[threadIdx.x] = i < n ? in[i] : 0;\n"
    "    __syncthreads();\n"
    "    if (threadIdx.x == 0) {\n"
    "        int t = 0;\n"
    "        for (unsigned j = 0; j < blockDim.x; j++) t += s[j];\n"
    "        atomicAdd(total, t);\n"
    "    }\n"
    "}\n",
};
enum { NSOURCES = sizeof sources / sizeof *sources, MAX_FIELDS = 64 };
static char paths[NSOURCES][64];

static void remove_sources(void)
{
    for (int i = 0; i < NSOURCES; i++)
        if (paths[i][0])
            remove(paths[i]);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setenv("LATTICE_EMU_TIMEOUT", "1", 1);
    setenv("LATTICE_CHECK_TIMEOUT", "1", 1);
    setenv("LATTICE_CACHE", "0", 1);
    setenv("LATTICE_LOG", "none", 1);
    setenv("OMP_NUM_THREADS", "2", 0);
    /* The program's output is not the fuzzer's. */
    if (!freopen("/dev/null", "w", stdout))
        abort();
    atexit(remove_sources);
    for (int i = 0; i < NSOURCES; i++) {
        snprintf(paths[i], sizeof paths[i], "/tmp/lattice-fuzz-cli-%ld-%d.cu", (long)getpid(), i);
        FILE *f = fopen(paths[i], "w");
        if (!f || fputs(sources[i], f) < 0 || fclose(f) != 0)
            abort();
    }
    return 0;
}

/* A command line to pass over (see the top of the file). */
static bool passed_over(char **argv, int argc)
{
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
        if (!strcmp(a, "--svg") || !strcmp(a, "--png"))
            return true;
        if ((!strcmp(a, "-c") || !strcmp(a, "--check")) && !strstr(v, "memcheck") && strcmp(v, "all"))
            return true;
        if ((!strcmp(a, "-n") || !strcmp(a, "--n")) && strtoull(v, NULL, 10) > 65536)
            return true;
    }
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096)
        return 0;
    const char *file = paths[data[0] % NSOURCES];
    /* The fields, NUL-terminated in a copy (the last one need not be). */
    char *copy = malloc(size);
    char *argv[MAX_FIELDS + 2];
    int argc = 0;
    if (!copy)
        return 0;
    memcpy(copy, data + 1, size - 1);
    copy[size - 1] = '\0';
    argv[argc++] = "lattice";
    for (char *p = copy; p < copy + size - 1 && argc <= MAX_FIELDS; p += strlen(p) + 1)
        argv[argc++] = strcmp(p, "@") == 0 ? (char *)file : p;
    argv[argc] = NULL;
    if (!passed_over(argv, argc)) {
        unsetenv("LATTICE_SCHEDULE"); /* -s sets it for the run */
        (void)lattice_cli_main(argc, argv);
    }
    free(copy);
    return 0;
}
