/* Real-world C++ kernels (issue 42): code copied from public code bases, with its source
 * recorded in the kernel file, run against a host reference, on every tier of the
 * emulator (TinyCC and the optimising tier must agree bit for bit) and on CUDA. */
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifndef TEST_KERNELS_DIR
#error "meson passes TEST_KERNELS_DIR, the folder of tests/kernels/*.cu"
#endif

/* The module of a kernel file with `names` as its name expressions. */
static lat_module *file_module(lat_context *ctx, const char *file, const char *const *names, lat_emu_opt opt)
{
    lat_module *mod = NULL;
    lat_status st = lat_module_create(ctx, &(lat_module_desc){.path = file, .name_expressions = names,
                                                                .emu_opt = opt},
                                      &mod);
    if (st != LAT_OK)
        FAIL("lat_module_create(%s): %s", file, lat_last_error());
    return mod;
}

enum { NB = 256, NB_BLOCK = 64 };

/* One step of cuda-samples' integrateBodies<float> on `pos`/`vel` (NB bodies). */
static void nbody_step(lat_module *mod, const float *pos, float *vel, float *newpos)
{
    lat_kernel *k;
    ASSERT_OK(lat_module_get_kernel(mod, "integrateBodies<float>", &k));
    float soft = 0.01f;
    ASSERT_OK(lat_module_memcpy_to_global(mod, "softeningSquared", 0, &soft, sizeof soft));
    ASSERT_OK(lat_launch_args(
        k, &(lat_launch_desc){.grid = {NB / NB_BLOCK}, .block = {NB_BLOCK}, .shared_bytes = NB_BLOCK * 4 * sizeof(float)},
        LAT_ARGS(lat_arg_out(newpos, NB * 4 * sizeof(float)), lat_arg_in(pos, NB * 4 * sizeof(float)),
                 lat_arg_inout(vel, NB * 4 * sizeof(float)), lat_arg_u32(0), lat_arg_u32(NB), lat_arg_f32(0.01f),
                 lat_arg_f32(0.995f), lat_arg_i32(NB / NB_BLOCK))));
}

/* nbody's inner loop calls a __device__ function returning a float3 (12 bytes, returned in
 * two registers): TinyCC stored 16 bytes into a 12-byte temporary, over the loop counter,
 * and the launch never ended (a different layout gave sums 0.5 % off). Every tier and
 * fibers must give the same bits, and the physics of a double reference. */
TEST(cuda_samples_nbody_integrate_bodies_agrees_on_every_tier_with_a_reference)
{
    lat_context *ctx = t_context();
    static const char *const names[] = {"integrateBodies<float>", NULL};
    float *pos = t_calloc(NB * 4, sizeof *pos), *vel0 = t_calloc(NB * 4, sizeof *vel0);
    t_rand_floats(pos, NB * 4, -1, 1);
    t_rand_floats(vel0, NB * 4, -0.1f, 0.1f);
    for (int i = 0; i < NB; i++)
        pos[i * 4 + 3] = 0.5f + (float)t_rand_double(0, 1); /* the mass */

    /* The reference: double precision, the same formula. */
    double *want = t_calloc(NB * 4, sizeof *want);
    for (int i = 0; i < NB; i++) {
        double a[3] = {0, 0, 0};
        for (int j = 0; j < NB; j++) {
            double r[3] = {pos[j * 4] - pos[i * 4], pos[j * 4 + 1] - pos[i * 4 + 1], pos[j * 4 + 2] - pos[i * 4 + 2]};
            double d2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + 0.01f;
            double inv = 1 / sqrt(d2), s = pos[j * 4 + 3] * inv * inv * inv;
            for (int c = 0; c < 3; c++)
                a[c] += r[c] * s;
        }
        for (int c = 0; c < 3; c++) {
            double v = (vel0[i * 4 + c] + a[c] * 0.01f) * 0.995f;
            want[i * 4 + c] = pos[i * 4 + c] + v * 0.01f;
        }
        want[i * 4 + 3] = pos[i * 4 + 3];
    }

    static const lat_emu_opt tiers[] = {LAT_EMU_OPT_OFF, LAT_EMU_OPT_SYNC};
    float *first = NULL;
    for (int fib = 0; fib < 2; fib++) {
        if (fib)
            t_setenv("LATTICE_EMU_FIBERS", "1");
        for (size_t t = 0; t < sizeof tiers / sizeof *tiers; t++) {
            lat_module *mod = file_module(ctx, TEST_KERNELS_DIR "/nbody_cuda_samples.cu", names, tiers[t]);
            float *vel = t_calloc(NB * 4, sizeof *vel), *out = t_calloc(NB * 4, sizeof *out);
            memcpy(vel, vel0, NB * 4 * sizeof *vel);
            nbody_step(mod, pos, vel, out);
            for (int i = 0; i < NB * 4; i++)
                ASSERT_MSG(fabs(out[i] - want[i]) <= 1e-4 * (1 + fabs(want[i])), "fibers %d tier %zu: newPos[%d] = %.9g, want %.9g", fib,
                           t, i, out[i], want[i]);
            if (!t_is_emu(ctx))
                break;
            if (!first)
                first = out;
            else
                ASSERT_MSG(memcmp(first, out, NB * 4 * sizeof *out) == 0, "fibers %d tier %zu differs from TinyCC's region loops",
                           fib, t);
        }
        if (fib)
            t_unsetenv("LATTICE_EMU_FIBERS");
        if (!t_is_emu(ctx))
            break;
    }
}

