/*
 * mma.h as the emulator has it: nvcuda::wmma's fragments, load_matrix_sync,
 * store_matrix_sync, fill_fragment and mma_sync, written for the emulator in CUDA C++.
 * A GPU spreads a fragment over the warp's lanes in an order CUDA leaves unspecified;
 * here every lane holds the whole tile (x[] in the tile's row-major order, num_elements
 * its rows times columns), so element-wise code over x[0 .. num_elements) means the same.
 * mma_sync multiplies on each lane (float sums for floating tiles, int for integer ones);
 * store_matrix_sync writes each element from one lane, and each call is warp-synchronous
 * as on the GPU (__syncwarp before and after).
 */
#include "mma_header.h"

#include <stddef.h>
#include <string.h>

static const char *const mma_h[] = {
    "#ifndef __LAT_MMA_H\n",
    "#define __LAT_MMA_H\n",
    "#include <cuda_fp16.h>\n",
    "#define __CUDA_MMA_H__\n",
    "namespace nvcuda {\n",
    "namespace wmma {\n",
    "struct matrix_a {};\n",
    "struct matrix_b {};\n",
    "struct accumulator {};\n",
    "struct row_major {};\n",
    "struct col_major {};\n",
    "enum layout_t { mem_row_major, mem_col_major };\n",
    "template <typename __lat_Use, int m, int n, int k> struct __lat_shape;\n",
    "template <int m, int n, int k> struct __lat_shape<matrix_a, m, n, k> { static constexpr int rows = m, cols = k; };\n",
    "template <int m, int n, int k> struct __lat_shape<matrix_b, m, n, k> { static constexpr int rows = k, cols = n; };\n",
    "template <int m, int n, int k> struct __lat_shape<accumulator, m, n, k> { static constexpr int rows = m, cols = n; };\n",
    "template <typename __lat_Use, int m, int n, int k, typename __lat_T, typename __lat_Layout = void>\n",
    "struct fragment {\n",
    "    typedef __lat_T element_type;\n",
    "    typedef __lat_T storage_element_type;\n",
    "    static constexpr int num_elements = __lat_shape<__lat_Use, m, n, k>::rows * __lat_shape<__lat_Use, m, n, k>::cols;\n",
    "    __lat_T x[__lat_shape<__lat_Use, m, n, k>::rows * __lat_shape<__lat_Use, m, n, k>::cols];\n",
    "};\n",
    "__device__ inline unsigned __lat_lane() {\n",
    "    return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) & 31u;\n",
    "}\n",
    "template <typename __lat_Use, int m, int n, int k, typename __lat_T, typename __lat_Layout, typename __lat_V>\n",
    "__device__ void fill_fragment(fragment<__lat_Use, m, n, k, __lat_T, __lat_Layout> &a, const __lat_V &v) {\n",
    "    for (int i = 0; i < a.num_elements; i++) a.x[i] = (__lat_T)v;\n",
    "}\n",
    "template <typename __lat_Use, int m, int n, int k, typename __lat_T>\n",
    "__device__ void load_matrix_sync(fragment<__lat_Use, m, n, k, __lat_T, row_major> &a, const __lat_T *p, unsigned ldm) {\n",
    "    __syncwarp();\n",
    "    const int rows = __lat_shape<__lat_Use, m, n, k>::rows, cols = __lat_shape<__lat_Use, m, n, k>::cols;\n",
    "    for (int r = 0; r < rows; r++)\n",
    "        for (int c = 0; c < cols; c++) a.x[r * cols + c] = p[r * ldm + c];\n",
    "    __syncwarp();\n",
    "}\n",
    "template <typename __lat_Use, int m, int n, int k, typename __lat_T>\n",
    "__device__ void load_matrix_sync(fragment<__lat_Use, m, n, k, __lat_T, col_major> &a, const __lat_T *p, unsigned ldm) {\n",
    "    __syncwarp();\n",
    "    const int rows = __lat_shape<__lat_Use, m, n, k>::rows, cols = __lat_shape<__lat_Use, m, n, k>::cols;\n",
    "    for (int r = 0; r < rows; r++)\n",
    "        for (int c = 0; c < cols; c++) a.x[r * cols + c] = p[c * ldm + r];\n",
    "    __syncwarp();\n",
    "}\n",
    "template <int m, int n, int k, typename __lat_T>\n",
    "__device__ void load_matrix_sync(fragment<accumulator, m, n, k, __lat_T, void> &a, const __lat_T *p, unsigned ldm, layout_t layout) {\n",
    "    __syncwarp();\n",
    "    for (int r = 0; r < m; r++)\n",
    "        for (int c = 0; c < n; c++) a.x[r * n + c] = layout == mem_row_major ? p[r * ldm + c] : p[c * ldm + r];\n",
    "    __syncwarp();\n",
    "}\n",
    "template <int m, int n, int k, typename __lat_T>\n",
    "__device__ void store_matrix_sync(__lat_T *p, const fragment<accumulator, m, n, k, __lat_T, void> &a, unsigned ldm, layout_t layout) {\n",
    "    __syncwarp();\n",
    "    for (unsigned e = __lat_lane(); e < (unsigned)(m * n); e += 32u) {\n",
    "        int r = e / n, c = e % n;\n",
    "        if (layout == mem_row_major) p[r * ldm + c] = a.x[e]; else p[c * ldm + r] = a.x[e];\n",
    "    }\n",
    "    __syncwarp();\n",
    "}\n",
    "template <typename __lat_T> struct __lat_acc { typedef float type; };\n",
    "template <> struct __lat_acc<int> { typedef int type; };\n",
    "template <int m, int n, int k, typename __lat_Ta, typename __lat_La, typename __lat_Tb, typename __lat_Lb, typename __lat_Tc, typename __lat_Td>\n",
    "__device__ void mma_sync(fragment<accumulator, m, n, k, __lat_Td, void> &d, const fragment<matrix_a, m, n, k, __lat_Ta, __lat_La> &a,\n",
    "                         const fragment<matrix_b, m, n, k, __lat_Tb, __lat_Lb> &b, const fragment<accumulator, m, n, k, __lat_Tc, void> &c) {\n",
    "    __lat_Td out[m * n];\n",
    "    for (int i = 0; i < m; i++)\n",
    "        for (int j = 0; j < n; j++) {\n",
    "            typedef typename __lat_acc<__lat_Td>::type acc;\n",
    "            acc s = (acc)c.x[i * n + j];\n",
    "            for (int q = 0; q < k; q++) s += (acc)a.x[i * k + q] * (acc)b.x[q * n + j];\n",
    "            out[i * n + j] = (__lat_Td)s;\n",
    "        }\n",
    "    for (int e = 0; e < m * n; e++) d.x[e] = out[e];\n",
    "}\n",
    "}\n",
    "}\n",
    "#endif\n",
    NULL,
};

const char *const *lat__mma_header_lines(const char *name)
{
    return strcmp(name, "mma.h") == 0 ? mma_h : NULL;
}
