/* C that TinyCC compiles wrongly and the lowering writes around: each expression is
 * computed by a kernel on the emulator and by this file, compiled by the system's C
 * compiler, for every combination of inputs, and the two must agree bit for bit. */
#include "harness.h"

#include <stdio.h>
#include <string.h>

/* TinyCC 0.9.27 types the value of &&, || and ?: between constants as int even where C
 * makes it unsigned (found by tests/diff, class lneg). x, y, z are unsigned. */
#define JUMP_VALUES(X)                                  \
    X(0 > ~(unsigned)(x && 1u))                         \
    X(0 < ~(unsigned)(x && 1u))                         \
    X(0 > -(unsigned)(y || 0u))                         \
    X((x < 1u) > ~(unsigned)(x && 1u))                  \
    X((unsigned)(x && 1u) - 1)                          \
    X((unsigned)(x || z) + -1)                          \
    X((unsigned)(x && 1u) < -1)                         \
    X((unsigned)(x ? 1 : 0) - 1 < 0)                    \
    X((x ? 1u : 0u) - 1)                                \
    X((x ? 1u : 0u) > -1)                               \
    X(-1 < (x ? 1u : 0u))                               \
    X(~(x ? 1u : 0u))                                   \
    X((x ? 2u : 1u) * -1)                               \
    X((x ? (y ? 1u : 0u) : 3u) - 2)                     \
    X((unsigned)((x ? 1 : 0) && (y || z)) - 1u < 5u)   \
    X((unsigned long long)(x && y) - 1)                 \
    X((unsigned short)(x || y) - 1)                     \
    X((long long)(x ? 1u : 0u) - 2)                     \
    X((x && y) - 1)                                     \
    X((int)(x ? 1u : 0u) - 2)

#define HOST(e) (long long)(e),
#define TEXT(e) "    o[i++] = (long long)(" #e ");\n"

static const char src[] =
    "__global__ void k(long long *o, const unsigned *in)\n"
    "{\n"
    "    unsigned x = in[0], y = in[1], z = in[2];\n"
    "    int i = 0;\n"
    JUMP_VALUES(TEXT)
    "}\n";

TEST(values_of_logical_and_conditional_expressions_keep_their_unsigned_type)
{
    lat_context *ctx = t_context_with(&(lat_context_desc){.backend = LAT_BACKEND_EMU});
    lat_module *mod = NULL;
    lat_kernel *k = NULL;
    ASSERT_MSG(lat_module_create(ctx, &(lat_module_desc){.source = src}, &mod) == LAT_OK, "%s",
               lat_last_error());
    ASSERT_OK(lat_module_get_kernel(mod, "k", &k));
    const unsigned values[] = {0, 1, 7};
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++)
            for (int c = 0; c < 3; c++) {
                unsigned x = values[a], y = values[b], z = values[c];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wtype-limits"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wbool-compare"
                const long long want[] = {JUMP_VALUES(HOST)};
#pragma GCC diagnostic pop
                enum { N = sizeof want / sizeof want[0] };
                long long got[N];
                const unsigned in[3] = {x, y, z};
                memset(got, 0x5a, sizeof got);
                ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                                          LAT_ARGS(lat_arg_out(got, sizeof got),
                                                   lat_arg_in(in, sizeof in))));
                for (int i = 0; i < N; i++)
                    ASSERT_MSG(got[i] == want[i], "x=%u y=%u z=%u, expression %d: %lld, want %lld",
                               x, y, z, i + 1, got[i], want[i]);
            }
    lat_module_destroy(mod);
}

/* TinyCC 0.9.27 corrupts the code around an expression it only types (sizeof, __typeof__,
 * the _Generic of the prelude's min, max and math macros) when it holds (a && 1) || b or
 * (c ? 1 : 0) || b: a function returned garbage (found by tests/diff, class masked). */
static const char typed_src[] =
    "__device__ unsigned h(unsigned x, unsigned y)\n"
    "{\n"
    "    if (max((x && 1u) || y, 1u)) { }\n"
    "    return 7u;\n"
    "}\n"
    "__device__ unsigned g(unsigned x, unsigned y)\n"
    "{\n"
    "    unsigned r = 5u;\n"
    "    if (sizeof((x && 1u) || y) == 4) r += 1u;\n"
    "    r += (unsigned)fabsf((float)((x ? 1u : 0u) || y));\n"
    "    return r + min((x ? 1u : 0u) || 1u, 3u);\n"
    "}\n"
    "struct pair { char tag[3]; double v; };\n"
    "__global__ void k(unsigned *o, const unsigned *in)\n"
    "{\n"
    "    __shared__ float tile[17];\n"
    "    char text[] = \"lattice\";\n"
    "    struct pair p;\n"
    "    unsigned x = in[0], y = in[1];\n"
    "    o[0] = h(x, y);\n"
    "    o[1] = g(x, y);\n"
    "    o[2] = sizeof tile + sizeof text + sizeof \"ab\" + sizeof p.tag + sizeof(p) + sizeof(x + 1.0);\n"
    "    o[3] = sizeof(tile[0]) + sizeof &tile[1] + sizeof(struct pair *) + sizeof(o[0] ? x : y);\n"
    "}\n";

TEST(expressions_only_typed_do_not_corrupt_the_code_around_them)
{
    lat_context *ctx = t_context_with(&(lat_context_desc){.backend = LAT_BACKEND_EMU});
    lat_module *mod = NULL;
    lat_kernel *k = NULL;
    ASSERT_MSG(lat_module_create(ctx, &(lat_module_desc){.source = typed_src}, &mod) == LAT_OK,
               "%s", lat_last_error());
    ASSERT_OK(lat_module_get_kernel(mod, "k", &k));
    for (unsigned x = 0; x < 2; x++)
        for (unsigned y = 0; y < 2; y++) {
            unsigned got[4] = {0}, in[2] = {x, y};
            ASSERT_OK(lat_launch_args(k, &(lat_launch_desc){.grid = {1}, .block = {1}},
                                      LAT_ARGS(lat_arg_out(got, sizeof got), lat_arg_in(in, sizeof in))));
            unsigned g = 5u + 1u + (unsigned)((x ? 1u : 0u) || y) + 1u;
            ASSERT_EQ(got[0], 7u);
            ASSERT_EQ(got[1], g);
            ASSERT_EQ(got[2], 17 * 4 + 8 + 3 + 3 + 16 + 8);
            ASSERT_EQ(got[3], 4 + 8 + 8 + 4);
        }
    lat_module_destroy(mod);
}
