/* Thread maps (lattice/check.h): which block and thread last wrote and read each
 * element of a chosen buffer, drawn as SVG and as text. */
#include "check_util.h"

static const char *const cover_src = "__global__ void cover(float *out, const float *in, int n)\n"
                                     "{\n"
                                     "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                     "    if (i < n) out[i] = in[n - 1 - i];\n"
                                     "}\n";

TEST(a_map_records_each_elements_writer_and_reader)
{
    lat_context *ctx = ck_context(LAT_CHECK_MEMCHECK);
    lat_kernel *k = ck_kernel(ctx, cover_src, "cover.cu", "cover");
    float host[10] = {0};
    lat_deviceptr out = t_device_copy(ctx, NULL, 12 * sizeof(float));
    lat_deviceptr in = t_device_copy(ctx, host, sizeof host);
    ASSERT_OK(lat_check_map_buffer(ctx, out, sizeof(float)));
    ASSERT_OK(lat_check_map_buffer(ctx, in, sizeof(float)));
    lat_check_map m;
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_check_map_get(ctx, out, &m)); /* no launch yet */
    int n = 10;
    void *params[] = {&out, &in, &n};
    ASSERT_OK(ck_launch(k, 3, 4, params));
    ASSERT_OK(lat_check_map_get(ctx, out, &m));
    ASSERT_EQ(m.count, 12);
    ASSERT_EQ(m.elem_size, 4);
    ASSERT_EQ(m.grid.x, 3);
    ASSERT_EQ(m.block.x, 4);
    ASSERT_STR_EQ(m.kernel, "cover");
    for (int i = 0; i < 10; i++) {
        ASSERT_EQ(m.cells[i].write_block, i / 4);
        ASSERT_EQ(m.cells[i].write_thread, i % 4);
        ASSERT_EQ(m.cells[i].writes, 1);
        ASSERT_EQ(m.cells[i].reads, 0);
    }
    ASSERT_EQ(m.cells[10].write_block, -1);
    ASSERT_EQ(m.cells[11].writes, 0);
    lat_check_map mi;
    ASSERT_OK(lat_check_map_get(ctx, in, &mi));
    ASSERT_EQ(mi.cells[9].read_block, 0);
    ASSERT_EQ(mi.cells[9].read_thread, 0);
    ASSERT_EQ(mi.cells[0].read_block, 2);
    ASSERT_EQ(mi.cells[0].read_thread, 1);
    ASSERT_EQ(mi.cells[0].write_block, -1);

    char *text;
    ASSERT_OK(lat_check_map_text(&m, &(lat_check_map_style){.columns = 6}, &text));
    ASSERT_STR_EQ(text, "cover<<<(3,1,1), (4,1,1)>>>: which block and thread last wrote each "
                        "element (block/thread; - untouched)\n"
                        "[0] 0/0 0/1 0/2 0/3 1/0 1/1\n"
                        "[6] 1/2 1/3 2/0 2/1   -   -\n");
    free(text);
    char *svg;
    ASSERT_OK(lat_check_map_svg(&m, NULL, &svg));
    ASSERT_TRUE(strncmp(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\"", 39) == 0);
    ASSERT_CONTAINS(svg, ">block 2</text>");
    ASSERT_CONTAINS(svg, "fill=\"white\" stroke=\"#555\"");
    ASSERT_CONTAINS(svg, "</svg>\n");
    free(svg);
}

TEST(maps_need_a_checked_context_and_a_whole_allocation)
{
    lat_context *ctx = ck_context(LAT_CHECK_MEMCHECK);
    lat_deviceptr p = t_device_copy(ctx, NULL, 10);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_check_map_buffer(ctx, p, 4));
    ASSERT_CONTAINS(lat_last_error(), "elem_size 4 does not divide the allocation's 10 bytes");
    ASSERT_STATUS(LAT_ERROR_INVALID_ADDRESS, lat_check_map_buffer(ctx, p + 2, 1));
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_check_map_buffer(ctx, p, 0));
    lat_context *plain = t_context_with(&(lat_context_desc){.backend = LAT_BACKEND_EMU,
                                                            .check = LAT_CHECK_OFF});
    lat_deviceptr q = t_device_copy(plain, NULL, 16);
    ASSERT_STATUS(LAT_ERROR_INVALID_VALUE, lat_check_map_buffer(plain, q, 4));
    ASSERT_CONTAINS(lat_last_error(), "the context has no checks");
}
