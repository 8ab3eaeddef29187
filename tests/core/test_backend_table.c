/*
 * Every backend's descriptor fills every operation: the core calls them without checking
 * for NULL, so a missing one would crash instead of failing cleanly.
 */
#include "backend.h"
#include "harness.h"

#include <string.h>

/* The descriptor's function pointers, as an array: adding an operation to backend.h
 * extends the check without touching this test. */
static void assert_all_ops(const lat__backend *b)
{
    ASSERT_TRUE(b->name != NULL && b->name[0] != 0);
    const unsigned char *p = (const unsigned char *)&b->probe;
    const unsigned char *end = (const unsigned char *)(b + 1);
    size_t index = 0;
    for (; p + sizeof(void (*)(void)) <= end; p += sizeof(void (*)(void)), index++) {
        void (*fn)(void);
        memcpy(&fn, p, sizeof fn);
        if (!fn)
            FAIL("backend '%s': operation %zu (counting from probe) is NULL",
                   b->name, index);
    }
    ASSERT_GE(index, 18);
}

TEST(cuda_backend_fills_every_operation)
{
    ASSERT_EQ(LAT_BACKEND_CUDA, lat__backend_cuda.kind);
    assert_all_ops(&lat__backend_cuda);
}

TEST(emu_backend_fills_every_operation)
{
    ASSERT_EQ(LAT_BACKEND_EMU, lat__backend_emu.kind);
    assert_all_ops(&lat__backend_emu);
}

/* The texture tables (core/texture.h): every operation but the optional last one. */
#include "texture.h"

static void assert_texture_ops(const char *name, const lat__texture_ops *o)
{
    ASSERT_MSG(o->array_create && o->array_destroy && o->array_copy && o->texture_create &&
                   o->texture_destroy && o->surface_create && o->surface_destroy,
               "backend '%s': a texture operation is NULL", name);
}

TEST(every_backend_fills_every_texture_operation)
{
    assert_texture_ops("cuda", &lat__cuda_texture_ops);
    assert_texture_ops("emu", &lat__emu_texture_ops);
    assert_texture_ops("cross", &lat__cross_texture_ops);
    ASSERT_TRUE(lat__backend_emu.texture == &lat__emu_texture_ops);
    ASSERT_TRUE(lat__backend_cuda.texture == &lat__cuda_texture_ops);
    ASSERT_TRUE(lat__backend_cross.texture == &lat__cross_texture_ops);
    /* The emulator flags textures over freed memory; the others leave it to their sides. */
    ASSERT_TRUE(lat__emu_texture_ops.texture_orphaned != NULL);
}
