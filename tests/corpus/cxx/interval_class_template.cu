/* A class template declared in the class and defined outside it, as cuda-samples' interval
 * sample writes interval_gpu (issue 42: members defined outside a class template, free
 * operator templates found through their arguments, rounded intrinsics). Written for
 * lattice's corpus in that idiom, not copied.
 * @source lattice (tests/corpus/cxx)
 * @kernel interval_kernel<float>
 * @grid 2
 * @block 128
 * @arg in f32 256 rand -4 4
 * @arg in f32 256 rand 0 2
 * @arg out f32 1024
 * @arg val i32 256
 */
namespace iv {
template <class T> struct rounded;
template <> struct rounded<float> {
    __device__ float add_down(float x, float y) { return __fadd_rd(x, y); }
    __device__ float add_up(float x, float y) { return __fadd_ru(x, y); }
    __device__ float mul_down(float x, float y) { return __fmul_rd(x, y); }
    __device__ float mul_up(float x, float y) { return __fmul_ru(x, y); }
};
template <class T>
class interval {
public:
    __device__ interval();
    __device__ interval(T const &v);
    __device__ interval(T const &l, T const &u);
    __device__ T const &lower() const;
    __device__ T const &upper() const;
    __device__ interval &operator+=(interval const &o);
    static __device__ interval hull(T a, T b);
private:
    T low, up;
};
template <class T> inline __device__ interval<T>::interval() {}
template <class T> inline __device__ interval<T>::interval(T const &v) : low(v), up(v) {}
template <class T> inline __device__ interval<T>::interval(T const &l, T const &u) : low(l), up(u) {}
template <class T> inline __device__ T const &interval<T>::lower() const { return low; }
template <class T> inline __device__ T const &interval<T>::upper() const { return up; }
template <class T> inline __device__ interval<T> &interval<T>::operator+=(interval const &o)
{
    rounded<T> r;
    low = r.add_down(low, o.low);
    up = r.add_up(up, o.up);
    return *this;
}
template <class U> inline __device__ interval<U> interval<U>::hull(U a, U b) { return a < b ? interval(a, b) : interval(b, a); }
template <class T> inline __device__ interval<T> operator*(interval<T> const &x, interval<T> const &y)
{
    rounded<T> r;
    T a = r.mul_down(x.lower(), y.lower()), b = r.mul_down(x.lower(), y.upper());
    T c = r.mul_down(x.upper(), y.lower()), d = r.mul_down(x.upper(), y.upper());
    T e = r.mul_up(x.lower(), y.lower()), f = r.mul_up(x.lower(), y.upper());
    T g = r.mul_up(x.upper(), y.lower()), h = r.mul_up(x.upper(), y.upper());
    return interval<T>(fminf(fminf(a, b), fminf(c, d)), fmaxf(fmaxf(e, f), fmaxf(g, h)));
}
template <class T> inline __device__ T width(interval<T> const &x) { return x.upper() - x.lower(); }
}
template <class T>
__global__ void interval_kernel(const T *a, const T *w, T *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    typedef iv::interval<T> I;
    I x = I::hull(a[i], a[i] + w[i]);
    I y(T(0.1f) * a[i], T(0.3f));
    I z = x * y;
    z += I(T(1) / T(3));
    out[4 * i] = z.lower();
    out[4 * i + 1] = z.upper();
    out[4 * i + 2] = width(z);
    out[4 * i + 3] = width(x * x);
}
template __global__ void interval_kernel<float>(const float *, const float *, float *, int);
