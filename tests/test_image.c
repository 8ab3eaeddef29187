/* Modules as code: the PTX/CUBIN a module came from, loading images from buffers and
 * files, compiler options passed through, and each kernel's resource report. */
#include "harness.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char src[] =
    "__global__ void triple(int *x, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n) x[i] *= SCALE;\n"
    "}\n";

static lat_module *compile(lat_context *ctx, const char *const *options)
{
    static const char *const defines[] = {"SCALE=3", NULL};
    lat_module *mod = NULL;
    ASSERT_OK(lat_module_create(ctx, &(lat_module_desc){.source = src, .name = "triple.cu",
                                                       .defines = defines, .options = options},
                                &mod));
    return mod;
}

static void check_triple(lat_context *ctx, lat_module *mod, const char *name)
{
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(mod, name, &k));
    int x[100];
    for (int i = 0; i < 100; i++)
        x[i] = i;
    ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {128}},
                              LAT_ARGS(lat_arg_inout(x, sizeof x), lat_arg_i32(100))));
    for (int i = 0; i < 100; i++)
        ASSERT_MSG(x[i] == 3 * i, "x[%d] = %d", i, x[i]);
    (void)ctx;
}

/* A context whose modules have GPU code; skips on the emulator. */
static lat_context *gpu_context(void)
{
    lat_context *ctx = t_context();
    if (lat_context_backend(ctx) != LAT_BACKEND_CUDA)
        SKIP("only CUDA modules have PTX or CUBIN code");
    return ctx;
}

TEST(nvrtc_options_pass_through)
{
    lat_context *ctx = t_context();
    static const char *const options[] = {"--use_fast_math", "-lineinfo", "--fmad=true", NULL};
    check_triple(ctx, compile(ctx, options), "triple");
}

TEST(a_module_gives_out_its_code_and_it_loads_again)
{
    lat_context *ctx = gpu_context();
    lat_module *mod = compile(ctx, NULL);
    lat_code_kind kind;
    const void *code;
    size_t size;
    ASSERT_OK(lat_module_get_code(mod, &kind, &code, &size));
    ASSERT_TRUE(kind == LAT_CODE_CUBIN || kind == LAT_CODE_PTX);
    ASSERT_GT(size, 16);
    if (kind == LAT_CODE_CUBIN)
        ASSERT_TRUE(memcmp(code, "\177ELF", 4) == 0);
    lat_module *again;
    ASSERT_OK(lat_module_load(ctx, &(lat_module_image_desc){.data = code, .size = size}, &again));
    ASSERT_EQ(lat_module_get_origin(again), LAT_MODULE_IMAGE);
    check_triple(ctx, again, "triple");
}

TEST(ptx_loads_from_a_file)
{
    lat_context *ctx = gpu_context();
    lat_device_info info;
    ASSERT_OK(lat_context_device_info(ctx, &info));
    char arch[64];
    snprintf(arch, sizeof arch, "-arch=compute_%d%d", info.compute_major, info.compute_minor);
    const char *const ptx_opts[] = {arch, NULL};
    lat_module *mod = compile(ctx, ptx_opts);
    lat_code_kind kind;
    const void *code;
    size_t size;
    ASSERT_OK(lat_module_get_code(mod, &kind, &code, &size));
    ASSERT_EQ(kind, LAT_CODE_PTX);
    ASSERT_CONTAINS((const char *)code, ".entry");
    char path[] = "/tmp/lattice-test-ptx-XXXXXX";
    int fd = mkstemp(path);
    ASSERT_TRUE(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fwrite(code, 1, strlen(code), f); /* without the NUL, as a .ptx file is */
    fclose(f);
    lat_module *loaded = NULL;
    lat_status st = lat_module_load(ctx, &(lat_module_image_desc){.path = path}, &loaded);
    unlink(path);
    ASSERT_OK(st);
    check_triple(ctx, loaded, "triple");
}

TEST(bad_images_are_reported)
{
    lat_context *ctx = gpu_context();
    lat_module *m;
    static const char junk[] = ".version 99.9\n.target sm_1000\nthis is not ptx\n";
    ASSERT_STATUS(LAT_ERROR_COMPILE,
                  lat_module_load(ctx, &(lat_module_image_desc){.data = junk, .size = sizeof junk,
                                                                .kind = LAT_CODE_PTX},
                                  &m));
    ASSERT_CONTAINS(lat_last_error(), "cuModuleLoadDataEx");
    ASSERT_STATUS(LAT_ERROR_FILE,
                  lat_module_load(ctx, &(lat_module_image_desc){.path = "/nonexistent/x.cubin"}, &m));
}

TEST(image_arguments_are_checked)
{
    lat_context *ctx = t_context();
    lat_module *m;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_module_load(ctx, &(lat_module_image_desc){0}, &m));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_module_load(ctx, &(lat_module_image_desc){.data = "x", .path = "y"}, &m));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE,
                  lat_module_load(ctx, &(lat_module_image_desc){.data = "x", .size = 0}, &m));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_module_load(ctx, NULL, &m));
}

TEST(the_emulator_runs_source_only)
{
    lat_context *ctx = t_context();
    if (lat_context_backend(ctx) != LAT_BACKEND_EMU)
        SKIP("a backend that loads images");
    lat_module *m;
    ASSERT_STATUS(LAT_ERROR_UNSUPPORTED,
                  lat_module_load(ctx, &(lat_module_image_desc){.data = "x", .size = 1}, &m));
    lat_code_kind kind;
    const void *code;
    size_t size;
    ASSERT_STATUS(LAT_ERROR_UNSUPPORTED, lat_module_get_code(compile(ctx, NULL), &kind, &code, &size));
}

TEST(each_kernel_reports_its_resources)
{
    lat_context *ctx = t_context();
    lat_module *mod = compile(ctx, NULL);
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(mod, "triple", &k));
    lat_kernel_resources r;
    ASSERT_OK(lat_kernel_get_resources(k, &r));
    ASSERT_GT(r.max_threads_per_block, 0);
    /* Cross-checking reports its primary side's, which may be an emulator too. */
    bool emu = lat_context_backend(ctx) == LAT_BACKEND_EMU ||
               (lat_context_backend(ctx) == LAT_BACKEND_CROSS && r.binary_version == -1);
    if (emu) {
        ASSERT_EQ(r.registers, -1);
    } else {
        ASSERT_GT(r.registers, 0);
        ASSERT_GE(r.static_shared_bytes, 0);
        ASSERT_GE(r.local_bytes, 0);
        ASSERT_GT(r.binary_version, 0);
        ASSERT_GE(r.spill_store_bytes, -1);
    }
    char text[512];
    int n = lat_kernel_resources_format(k, &r, text, sizeof text);
    ASSERT_GT(n, 0);
    ASSERT_CONTAINS(text, "ptxas info    : Function properties for triple");
    ASSERT_CONTAINS(text, "registers");
    ASSERT_EQ(lat_kernel_resources_format(k, &r, NULL, 0), n);
    ASSERT_EQ(lat_kernel_resources_format(NULL, &r, text, sizeof text), -1);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_kernel_get_resources(k, NULL));
}

TEST(ptxas_reports_do_not_reach_the_log)
{
    lat_context *ctx = t_context();
    lat_module *mod = compile(ctx, NULL);
    ASSERT_TRUE(strstr(lat_module_log(mod), "ptxas info") == NULL);
}
