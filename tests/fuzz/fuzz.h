/*
 * libFuzzer targets (tests/fuzz/README.md): each input is CUDA C source for the
 * emulator. The library must answer every input with a status and a message, never a
 * crash, a hang or a leak; kernels that compile are launched (fuzz_launch*) with every
 * parameter pointing to a zeroed device buffer, under a short deadline.
 */
#ifndef LAT_FUZZ_H
#define LAT_FUZZ_H

#include "lattice.h"
#include "lattice/driver.h"

#include <sys/mman.h>

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { FUZZ_MAX_INPUT = 64 << 10, FUZZ_MAX_KERNELS = 4, FUZZ_MAX_PARAMS = 32 };

/* What a target does with a module that compiled. */
typedef enum fuzz_mode { FUZZ_COMPILE, FUZZ_LAUNCH, FUZZ_LAUNCH_CHECKED } fuzz_mode;

static lat_context *fuzz_ctx;
static void fuzz_map_buffers(void);

static void fuzz_init(fuzz_mode mode)
{
    /* A launch that runs away ends after its deadline (the fuzzer's own timeout is
     * longer), and kernel printf is not the fuzzer's output. */
    setenv("LATTICE_EMU_TIMEOUT", "1", 1);
    setenv("LATTICE_CACHE", "0", 1);
    setenv("OMP_NUM_THREADS", "2", 0);
    unsigned check = mode == FUZZ_LAUNCH_CHECKED ? LAT_CHECK_ALL : LAT_CHECK_OFF;
    if (lat_context_create(&(lat_context_desc){.backend = LAT_BACKEND_EMU, .check = check},
                           &fuzz_ctx) != LAT_OK)
        abort();
    if (mode == FUZZ_LAUNCH_CHECKED &&
        lat_check_configure(fuzz_ctx, &(lat_check_options){.timeout_s = 1}) != LAT_OK)
        abort();
    if (mode != FUZZ_COMPILE)
        fuzz_map_buffers();
}

static int is_ident(int c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9');
}

/* The names that follow "__global__ ... NAME(" in the text (a guess, good enough: a
 * name that is no kernel is not found). */
static size_t kernel_names(const char *src, char names[][64], size_t max)
{
    size_t n = 0;
    for (const char *p = strstr(src, "__global__"); p && n < max;
         p = strstr(p + 1, "__global__")) {
        const char *paren = strchr(p, '(');
        if (!paren)
            break;
        const char *e = paren;
        while (e > p && (e[-1] == ' ' || e[-1] == '\n' || e[-1] == '\t'))
            e--;
        const char *b = e;
        while (b > p && is_ident((unsigned char)b[-1]))
            b--;
        size_t len = (size_t)(e - b);
        if (len == 0 || len >= 64)
            continue;
        memcpy(names[n], b, len);
        names[n][len] = '\0';
        n++;
    }
    return n;
}

/* The buffers every pointer parameter gets: host memory mapped into the context
 * (LAT_HOST_MAPPED, so the device address is the host's), each between inaccessible
 * pages. An unchecked kernel indexing past its buffer then faults, as on a GPU, and the
 * launch fails; it cannot overwrite the host's heap, which the sanitizer would take for
 * a bug of lattice's. (Writes far out still land anywhere: that is the unchecked
 * emulator's nature, and memcheck's job.) */
enum { FUZZ_BUF = 64 << 10, FUZZ_GUARD = 4 << 20 };
static unsigned char *fuzz_bufs[FUZZ_MAX_PARAMS];

static void fuzz_map_buffers(void)
{
    for (int j = 0; j < FUZZ_MAX_PARAMS; j++) {
        unsigned char *m = mmap(NULL, FUZZ_GUARD + FUZZ_BUF + FUZZ_GUARD, PROT_NONE,
                                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED || mprotect(m + FUZZ_GUARD, FUZZ_BUF, PROT_READ | PROT_WRITE) != 0)
            abort();
        fuzz_bufs[j] = m + FUZZ_GUARD;
        if (lat_host_register(fuzz_ctx, fuzz_bufs[j], FUZZ_BUF, LAT_HOST_MAPPED) != LAT_OK)
            abort();
    }
}

static void fuzz_launch(lat_module *mod, const char *src)
{
    char names[FUZZ_MAX_KERNELS][64];
    size_t n = kernel_names(src, names, FUZZ_MAX_KERNELS);
    for (size_t i = 0; i < n; i++) {
        lat_kernel *k;
        if (lat_module_get_kernel(mod, names[i], &k) != LAT_OK)
            continue;
        int np = lat_kernel_param_count(k);
        if (np < 0 || np > FUZZ_MAX_PARAMS)
            continue;
        /* Every parameter's value: a pointer to a zeroed buffer, in a slot large enough
         * for a struct parameter. */
        static unsigned char slots[FUZZ_MAX_PARAMS][256];
        void *params[FUZZ_MAX_PARAMS];
        for (int j = 0; j < np; j++) {
            memset(fuzz_bufs[j], 0, FUZZ_BUF);
            memset(slots[j], 0, sizeof slots[j]);
            lat_deviceptr d = (lat_deviceptr)(uintptr_t)fuzz_bufs[j];
            memcpy(slots[j], &d, sizeof d);
            params[j] = slots[j];
        }
        (void)lat_launch(k, &(lat_launch_desc){.grid = {2}, .block = {32}}, params);
    }
}

static int fuzz_one(const uint8_t *data, size_t size, fuzz_mode mode)
{
    if (size > FUZZ_MAX_INPUT)
        return -1;
    char *src = malloc(size + 1);
    if (!src)
        return 0;
    memcpy(src, data, size);
    src[size] = '\0';
    lat_module *mod = NULL;
    lat_status st =
        lat_module_create(fuzz_ctx, &(lat_module_desc){.source = src, .name = "fuzz.cu"}, &mod);
    /* Every failure comes with a message. */
    if (st != LAT_OK && (!lat_last_error() || !*lat_last_error()))
        abort();
    if (st == LAT_OK && mode != FUZZ_COMPILE)
        fuzz_launch(mod, src);
    lat_module_destroy(mod);
    free(src);
    return 0;
}

#endif
