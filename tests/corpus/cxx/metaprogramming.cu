/* Compile-time C++ as template libraries write it (issue 42): C++14 constexpr functions with
 * loops in template arguments and array sizes, partial specializations with parameter packs,
 * member class templates, structured bindings, nested namespace definitions. Written for
 * lattice's corpus, not copied.
 * @source lattice (tests/corpus/cxx)
 * @kernel meta_kernel
 * @grid 2
 * @block 64
 * @arg in i32 128 rand -1000 1000
 * @arg out i32 512
 * @arg val i32 128
 */
namespace meta::detail {
constexpr int ilog2(unsigned v) { int r = 0; while (v >>= 1) ++r; return r; }
constexpr unsigned next_pow2(unsigned v) { unsigned p = 1; while (p < v) p <<= 1; return p; }
constexpr int popcount(unsigned v) { int c = 0; for (; v; v &= v - 1) c++; return c; }
template <class... Ts> struct count;
template <> struct count<> { static constexpr int value = 0; };
template <class T, class... R> struct count<T, R...> { static constexpr int value = 1 + count<R...>::value; };
template <int I, class... Ts> struct at;
template <class T, class... R> struct at<0, T, R...> { typedef T type; };
template <int I, class T, class... R> struct at<I, T, R...> { typedef typename at<I - 1, R...>::type type; };
template <int... Ns> struct sum;
template <> struct sum<> { static constexpr int value = 0; };
template <int N, int... R> struct sum<N, R...> { static constexpr int value = N + sum<R...>::value; };
template <int V> struct tag { static constexpr int value = V; };
template <typename U> struct store {
    template <int N> struct block {
        U v[N];
        __device__ U total() const { U s = 0; for (int i = 0; i < N; i++) s += v[i]; return s; }
    };
};
struct split { int hi; int lo; };
__device__ split halves(int x) { return split{x >> 8, x & 255}; }
}
extern "C" __global__ void meta_kernel(const int *in, int *out, int n)
{
    using namespace meta::detail;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __shared__ int s[next_pow2(48)];
    s[threadIdx.x] = in[i];
    __syncthreads();
    typename at<2, char, short, int, long long>::type x = in[i];
    typename store<int>::template block<3> b{{x, s[threadIdx.x ^ 1], tag<ilog2(1024)>::value}};
    auto [hi, lo] = halves(in[i] + 4096);
    out[4 * i] = b.total() * tag<popcount(0xF0F0u)>::value;
    out[4 * i + 1] = count<int, float, char, double>::value * 100 + sum<1, 2, 3, ilog2(64)>::value;
    out[4 * i + 2] = hi * 1000 + lo;
    out[4 * i + 3] = (int)sizeof(s) + (int)sizeof(x);
}
