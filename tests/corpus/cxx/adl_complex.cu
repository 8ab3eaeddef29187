/* PyCUDA-style complex kernels calling the complex functions unqualified (argument-
 * dependent lookup finds pycuda's), and a vector class with its operators and functions in
 * its own namespace (issue 42). Written for lattice's corpus, not copied.
 * @source lattice (tests/corpus/cxx)
 * @kernel adl_kernel
 * @grid 2
 * @block 128
 * @arg in f32 256 rand -2 2
 * @arg in f32 256 rand -2 2
 * @arg out f32 1024
 * @arg val i32 256
 * @tol 1e-5
 */
#include <pycuda-complex.hpp>
namespace geo {
struct vec2 { float x, y; };
__device__ inline vec2 operator+(vec2 a, vec2 b) { return vec2{a.x + b.x, a.y + b.y}; }
__device__ inline vec2 operator*(float s, vec2 a) { return vec2{s * a.x, s * a.y}; }
__device__ inline float dot(vec2 a, vec2 b) { return a.x * b.x + a.y * b.y; }
template <typename V> __device__ inline float norm2(const V &v) { return dot(v, v); }
}
extern "C" __global__ void adl_kernel(const float *re, const float *im, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    pycuda::complex<float> z(re[i], im[i]);
    pycuda::complex<float> e = exp(z) * conj(z) + sqrt(z);
    geo::vec2 a{re[i], im[i]}, b{im[i], 1.0f};
    geo::vec2 c = a + 0.5f * b;
    out[4 * i] = real(e);
    out[4 * i + 1] = imag(e);
    out[4 * i + 2] = abs(z) + arg(z);
    out[4 * i + 3] = dot(c, b) + norm2(a);
}
