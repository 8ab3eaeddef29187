/* Every resource a kernel's source or launch can make lattice use has a bound, with a
 * clear error naming it (issue 40, item 7), each documented in docs/environment.md. */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static lat_context *emu_context(void)
{
    lat_backend_kind k = t_require_backend();
    if (k != LAT_BACKEND_EMU)
        SKIP("about the emulator's bounds (this suite runs %s)", lat_backend_name(k));
    return t_context_with(&(lat_context_desc){.backend = LAT_BACKEND_EMU,
                                               .check = LAT_CHECK_OFF});
}

/* "PREFIX" + levels nested calls NAME( ... a ... ) + "SUFFIX". */
static char *nested(const char *prefix, const char *name, int levels, const char *suffix)
{
    size_t n = strlen(prefix) + (strlen(name) + 2) * (size_t)levels + strlen(suffix) + 8;
    char *s = t_calloc(n, 1);
    strcpy(s, prefix);
    for (int i = 0; i < levels; i++)
        strcat(strcat(s, name), "(");
    strcat(s, "a");
    for (int i = 0; i < levels; i++)
        strcat(s, ")");
    strcat(s, suffix);
    return s;
}

/* A few hundred bytes whose stringizing or pasting doubles at each of 28 levels: within
 * the token limits (few tokens), but gigabytes of text (3.7 GB and out of memory before). */
TEST(a_macro_whose_text_doubles_at_each_level_is_a_compile_error)
{
    lat_context *ctx = emu_context();
    const char *kinds[] = {
        "#define S(x) #x\n#define XS(x) S(x)\n#define D(x) XS(x x)\n"
        "__global__ void k(char *p) { const char *s = ",
        "#define P(x, y) x ## y\n#define XP(x, y) P(x, y)\n#define D(x) XP(x, x)\n"
        "__global__ void k(char *p) { const char *s = (const char *)",
    };
    for (int i = 0; i < 2; i++) {
        char *src = nested(kinds[i], "D", 28, "; p[0] = s[0]; }\n");
        lat_module *mod;
        ASSERT_STATUS(LAT_ERROR_COMPILE,
                      lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "bomb.cu"},
                                        &mod));
        ASSERT_CONTAINS(lat_last_error(), "macro expansion is too large (more than 64 MiB of text");
        ASSERT_CONTAINS(lat_last_error(), "bomb.cu:4:");
    }
    /* Well within it: 3 levels of the same compile and give the string a GPU gives. */
    char *src = nested(kinds[0], "D", 3, "; for (int i = 0; s[i]; i++) p[i] = s[i]; }\n");
    lat_kernel *k = t_kernel(ctx, src, "k");
    char out[64] = {0};
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                              LAT_ARGS(lat_arg_inout(out, sizeof out))));
    ASSERT_STR_EQ(out, "\"\\\"a a\\\" \\\"a a\\\"\" \"\\\"a a\\\" \\\"a a\\\"\"");
}

/* LATTICE_EMU_PRINTF=ordered keeps a launch's output until it ends: at most
 * LATTICE_EMU_PRINTF_BUFFER bytes of it (64 MiB by default; 1 GiB in 2 s before), the
 * rest dropped and counted in a warning. */
typedef struct warnings {
    char text[1024];
    int n;
} warnings;

static void keep_warning(void *user, lat_log_level level, const char *msg)
{
    warnings *w = user;
    if (level == LAT_LOG_WARNING && strstr(msg, "printf")) {
        snprintf(w->text, sizeof w->text, "%s", msg);
        w->n++;
    }
}

TEST(ordered_printf_keeps_a_bounded_buffer_and_says_what_it_dropped)
{
    t_require_backend();
    if (t_backend() != LAT_BACKEND_EMU)
        SKIP("about the emulator's printf");
    t_setenv("LATTICE_EMU_PRINTF", "ordered");
    t_setenv("LATTICE_EMU_PRINTF_BUFFER", "two");
    lat_context *bad = NULL;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_context_create(&(lat_context_desc){.backend = LAT_BACKEND_EMU}, &bad));
    ASSERT_CONTAINS(lat_last_error(), "LATTICE_EMU_PRINTF_BUFFER='two'");
    t_setenv("LATTICE_EMU_PRINTF_BUFFER", "4K");
    warnings w = {{0}, 0};
    lat_context *ctx = t_context_with(&(lat_context_desc){
        .backend = LAT_BACKEND_EMU, .check = LAT_CHECK_OFF,
        .logger = {.func = keep_warning, .user_data = &w}});
    lat_kernel *k = t_kernel(ctx,
                             "__global__ void talk(int base)\n"
                             "{\n"
                             "    printf(\"line %06d\\n\", base + blockIdx.x * blockDim.x + threadIdx.x);\n"
                             "}\n",
                             "talk");
    char path[512];
    snprintf(path, sizeof path, "%s/printf.txt", t_tempdir());
    fflush(stdout);
    int saved = dup(1);
    FILE *f = fopen(path, "w");
    ASSERT_NOT_NULL(f);
    dup2(fileno(f), 1);
    int base = (int)(t_rand_u32() % 1000);
    lat_status st = lat_launch_args(k, &(lat_launch_desc){.grid = {8}, .block = {128}},
                                    LAT_ARGS(lat_arg_i32(base)));
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    fclose(f);
    t_unsetenv("LATTICE_EMU_PRINTF");
    t_unsetenv("LATTICE_EMU_PRINTF_BUFFER");
    ASSERT_OK(st);
    /* 1024 lines of 12 bytes: 341 fit in 4096 bytes, in order; 683 dropped. */
    f = fopen(path, "r");
    char line[64];
    int kept = 0, last = -1;
    while (fgets(line, sizeof line, f)) {
        int v = atoi(line + 5);
        ASSERT_TRUE(v > last && v >= base && v < base + 1024);
        last = v;
        kept++;
    }
    fclose(f);
    ASSERT_EQ(kept, 4096 / 12);
    ASSERT_EQ(w.n, 1);
    char want[200];
    snprintf(want, sizeof want, "kernel 'talk': %d printf lines (%d bytes) were dropped", 1024 - kept,
             (1024 - kept) * 12);
    ASSERT_CONTAINS(w.text, want);
    ASSERT_CONTAINS(w.text, "LATTICE_EMU_PRINTF_BUFFER");
}

/* A thread's local variables: at most 512 KiB, a GPU thread's local memory (ptxas refuses
 * more). A 4 GiB array wrapped TinyCC's frame offsets and killed the process (memcheck
 * called it a 0-byte array); now each is a compile error naming the variable. */
TEST(locals_past_a_gpu_threads_local_memory_are_a_compile_error)
{
    lat_context *ctx = emu_context();
    const char *bad[] = {
        "__global__ void k(float *p)\n{\n    float big[1u << 30];\n"
        "    big[threadIdx.x] = 1;\n    p[threadIdx.x] = big[threadIdx.x];\n}\n",
        "__device__ float f(int i)\n{\n    double a[40000];\n    a[i] = i;\n    return a[i];\n}\n"
        "__global__ void k(float *p)\n{\n    float b[100000];\n    b[threadIdx.x] = f(threadIdx.x);\n"
        "    p[threadIdx.x] = b[threadIdx.x];\n}\n",
    };
    const char *want[] = {
        "big.cu:3:11: error: the local variables of 'k' need 4294967296 bytes with 'big', more "
        "than the 524288 bytes (512 KiB) of a GPU thread's local memory",
        NULL,
    };
    lat_module *mod;
    ASSERT_STATUS(LAT_ERROR_COMPILE,
                  lat_module_create(ctx, &(lat_module_desc){.source = bad[0], .name = "big.cu"}, &mod));
    ASSERT_CONTAINS(lat_last_error(), want[0]);
    /* f's 320,000 bytes are within the bound; k's 400,000 are too, each on its own. */
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = bad[1], .name = "two.cu"}, &mod));
    const char *sum = "__global__ void k(float *p)\n{\n    float a[100000];\n"
                      "    a[threadIdx.x] = 1;\n    {\n        float b[40000];\n"
                      "        b[threadIdx.x] = a[threadIdx.x];\n        p[threadIdx.x] = b[threadIdx.x];\n"
                      "    }\n}\n";
    ASSERT_STATUS(LAT_ERROR_COMPILE,
                  lat_module_create(ctx, &(lat_module_desc){.source = sum, .name = "sum.cu"}, &mod));
    ASSERT_CONTAINS(lat_last_error(), "sum.cu:6:15: error: the local variables of 'k' need 560000 "
                                      "bytes with 'b'");
    /* Within it, a 64 KiB local array works. */
    lat_kernel *k = t_kernel(ctx,
                             "__global__ void rev(float *p, int n)\n{\n    float a[16384];\n"
                             "    for (int i = 0; i < n; i++) a[i] = p[i];\n"
                             "    for (int i = 0; i < n; i++) p[i] = a[n - 1 - i];\n}\n",
                             "rev");
    enum { N = 16384 };
    float *h = t_calloc(N, sizeof *h), *want_h = t_calloc(N, sizeof *h);
    t_rand_floats(h, N, -10, 10);
    for (int i = 0; i < N; i++)
        want_h[i] = h[N - 1 - i];
    int n = N;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                              LAT_ARGS(lat_arg_inout(h, N * sizeof *h), lat_arg_i32(n))));
    for (int i = 0; i < N; i++)
        ASSERT_EQ(h[i] == want_h[i], 1);
}
