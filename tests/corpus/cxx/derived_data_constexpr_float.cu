/* A particle hierarchy with data on both sides of each base (Itanium layout: base
 * subobject first; base constructors in the list; Base::f() where the derived class hides
 * f), a __constant__ table and constants computed by constexpr float and double functions
 * (IEEE arithmetic in the declared types, as NVRTC's front end folds them), and a call that
 * two namespaces' overloads both take, ranked as C++ does (issue 42). Written for
 * lattice's corpus, not copied.
 * @source lattice (tests/corpus/cxx)
 * @kernel derived_kernel
 * @grid 2
 * @block 128
 * @arg in f32 256 rand -2 2
 * @arg out f32 1024
 * @arg val i32 256
 * @tol 1e-6
 */
constexpr float sq(float x) { return x * x; }
constexpr double horner(double x)
{
    double r = 0;
    for (int i = 0; i < 6; i++)
        r = r * x + 1.0 / (i + 1);
    return r;
}
constexpr float lerp(float a, float b, float t) { return a + t * (b - a); }
__constant__ float weights[4] = {sq(0.1f), lerp(1.0f, 3.0f, 0.3f), (float)horner(0.7), -sq(1.1f) / 3.0f};
constexpr float k_scale = sq(1.3f) * 0.25f;

struct Body {
    float x, y;
    __device__ Body(float a, float b) : x(a), y(b) {}
    __device__ float norm2() const { return x * x + y * y; }
};
struct Charged : Body {
    float q;
    int id;
    __device__ Charged(float a, float b, float c, int i) : Body(a, b), q(c), id(i) {}
    __device__ float norm2() const { return Body::norm2() + q * q; }
    __device__ float energy() const { return q * norm2() + Body::y; }
};
template <typename T> struct Span {
    T lo, hi;
    __device__ T width() const { return hi - lo; }
};
template <typename T> struct Grid : Span<T> {
    T step;
    __device__ Grid(T a, T b, T s) : Span<T>{a, b}, step(s) {}
    __device__ T cells() const { return this->width() / step; }
};
namespace geo {
struct V { float x; };
__device__ float pick(V v, int k) { return v.x * 2.0f + (float)k; }
}
namespace util {
__device__ float pick(geo::V v, float k) { return v.x * 3.0f + k; }
}
using namespace util;

extern "C" __global__ void derived_kernel(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = in[i];
    Charged c(v, 0.5f, 1.5f, i);
    Grid<float> g(v, v + 6.0f, 1.5f);
    geo::V gv{v};
    out[4 * i] = c.energy() + weights[i % 4];
    out[4 * i + 1] = g.cells() + g.lo * k_scale + (float)c.id;
    out[4 * i + 2] = pick(gv, i % 3) + pick(gv, 0.25f);
    out[4 * i + 3] = (float)sizeof(Charged) + (float)sizeof(Grid<float>) * 100.0f + weights[3];
}
