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
