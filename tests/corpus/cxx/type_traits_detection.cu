/* The C++ library's traits as template libraries use them (issue 42): the detection idiom
 * (a partial specialization on void_t<typename T::value_type> or on
 * void_t<decltype(std::declval<T>().size())>, no match where the member does not exist),
 * aligned_storage with libcu++'s default alignment, conjunction/disjunction/negation,
 * rank/extent/remove_extent, declval in an alias; and a row softmax loading its row in
 * packs through a union of aligned_storage and the elements, reduced across the warp by a
 * function template taking its operation as a template template parameter (OneFlow's
 * softmax.cuh shape). Written for lattice's corpus, not copied.
 * @source lattice (tests/corpus/cxx)
 * @kernel traits_kernel<float, 4>
 * @grid 4
 * @block 32,2
 * @arg in f32 1024 rand -4 4
 * @arg out f32 1024
 * @arg out i32 26
 * @arg val i32 8
 * @tol 1e-5
 */
#include <cuda/std/type_traits>
#include <type_traits>

template <typename T, typename = void> struct has_value_type : std::false_type {};
template <typename T> struct has_value_type<T, std::void_t<typename T::value_type>> : std::true_type {};
template <typename T, typename = void> struct has_size : std::false_type {};
template <typename T> struct has_size<T, std::void_t<decltype(std::declval<T>().size())>> : std::true_type {};

struct Sized { typedef float value_type; __device__ int size() const { return 3; } };
struct Plain { int x; };
template <typename A, typename B> using product_t = decltype(std::declval<A>() * std::declval<B>());

template <typename T, int N> union Pack {
    static_assert(sizeof(typename std::aligned_storage<N * sizeof(T), N * sizeof(T)>::type) == sizeof(T) * N, "");
    __device__ Pack() {}
    typename std::aligned_storage<N * sizeof(T), N * sizeof(T)>::type storage;
    T elem[N];
};

template <typename T> struct SumOp { __device__ T operator()(const T &a, const T &b) const { return a + b; } };
template <typename T> struct MaxOp { __device__ T operator()(const T &a, const T &b) const { return a > b ? a : b; } };

template <template <typename> class Op, typename T, int width = 32> __device__ T warp_all_reduce(T v) {
    for (int mask = width / 2; mask > 0; mask /= 2)
        v = Op<T>()(v, __shfl_xor_sync(0xffffffffu, v, mask));
    return v;
}

template <typename T> __device__ int describe() {
    int d = 0;
    if constexpr (has_value_type<T>::value)
        d += 1;
    if constexpr (has_size<T>::value)
        d += 2;
    return d;
}

/* One warp per row of 32 * N values; each lane loads N of them as one pack. */
template <typename T, int N>
__global__ void traits_kernel(const T *in, T *out, int *info, int rows) {
    using PackT = Pack<T, N>;
    int row = blockIdx.x * blockDim.y + threadIdx.y, lane = threadIdx.x;
    if (row < rows) {
        PackT p;
        p.storage = reinterpret_cast<const decltype(p.storage) *>(in + row * 32 * N)[lane];
        T m = p.elem[0];
        for (int i = 1; i < N; i++)
            m = m > p.elem[i] ? m : p.elem[i];
        m = warp_all_reduce<MaxOp, T>(m);
        T s = 0;
        for (int i = 0; i < N; i++) {
            p.elem[i] = expf(p.elem[i] - m);
            s += p.elem[i];
        }
        s = warp_all_reduce<SumOp, T>(s);
        for (int i = 0; i < N; i++)
            p.elem[i] /= s;
        reinterpret_cast<decltype(p.storage) *>(out + row * 32 * N)[lane] = p.storage;
    }
    if (blockIdx.x == 0 && threadIdx.y == 0 && lane == 0) {
        info[0] = describe<Sized>();
        info[1] = describe<Plain>();
        info[2] = sizeof(std::aligned_storage<12, 8>::type);
        info[3] = alignof(std::aligned_storage<12, 8>::type);
        info[4] = sizeof(std::aligned_storage<3>::type);
        info[5] = alignof(std::aligned_storage<3>::type);
        info[6] = sizeof(std::aligned_storage<12>::type);
        info[7] = alignof(std::aligned_storage<12>::type);
        info[8] = sizeof(std::aligned_storage_t<40>);
        info[9] = alignof(cuda::std::aligned_storage_t<40>);
        info[10] = std::alignment_of<double>::value;
        info[11] = std::conjunction<std::is_integral<int>, std::true_type>::value;
        info[12] = std::conjunction_v<std::is_integral<int>, std::is_integral<float>>;
        info[13] = std::disjunction<std::is_integral<float>, std::is_integral<int>>::value;
        info[14] = std::negation<std::is_integral<int>>::value;
        info[15] = std::rank<int[3][4]>::value;
        info[16] = std::extent<int[3][4], 1>::value;
        info[17] = std::extent_v<int[3][4]>;
        info[18] = sizeof(std::remove_extent_t<int[3][4]>);
        info[19] = sizeof(std::remove_all_extents<double[2][3]>::type);
        info[20] = sizeof(product_t<int, double>);
        info[21] = sizeof(product_t<char, short>);
        info[22] = std::is_same<product_t<char, short>, int>::value;
        info[23] = std::is_fundamental<float>::value + 2 * std::is_fundamental<Plain>::value;
        info[24] = sizeof(PackT);
        info[25] = alignof(PackT);
    }
}
